#include <v1model.p4>
header h_t { bit<8> a; }
parser P(packet_in pkt, out h_t h) {
	state start {
		pkt.extract(h);
		exit;
		transition accept;
	}
}
