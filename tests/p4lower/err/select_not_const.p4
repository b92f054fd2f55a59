#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
parser P(packet_in pkt, out h_t h) {
	state start {
		pkt.extract(h);
		transition select(h.a) {
			h.b: accept;
			default: reject;
		}
	}
}
