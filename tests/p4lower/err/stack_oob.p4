#include <v1model.p4>
header v_t { bit<16> tag; }
struct hs_t { v_t[2] vlans; }
control C(inout hs_t h) {
	apply {
		h.vlans[2].tag = 1;
	}
}
