#include <v1model.p4>
header h_t { bit<8> a; }
control C(inout h_t h) {
	apply {
		h.a = h.a[8:1] ++ 1w0;
	}
}
