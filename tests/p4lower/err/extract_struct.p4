#include <v1model.p4>
header h_t { bit<8> a; }
struct s_t { h_t h; }
parser P(packet_in pkt, out s_t s) {
	state start {
		pkt.extract(s);
		transition accept;
	}
}
