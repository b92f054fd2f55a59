#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; }
control C(inout h_t h) {
	apply {
		h.b = 1 ++ h.a;
	}
}
