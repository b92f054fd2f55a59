#include <v1model.p4>
header h_t { bit<8> ttl; }
control C(inout h_t h) {
	apply {
		if (h.ttl) {
			h.ttl = 0;
		}
	}
}
