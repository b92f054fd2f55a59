#include <v1model.p4>
header h_t { bit<8> a; }
control C(inout h_t h) {
	apply {
		if (h.hit) {
			h.a = 1;
		}
	}
}
