#include <v1model.p4>
header h_t { bit<8> a; bool b; }
control C(inout h_t h) {
	apply {
		h.b = (bool)h.a;
	}
}
