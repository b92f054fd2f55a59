#include <v1model.p4>
header h_t { bit<8> a; }
control D(packet_out pkt, in h_t h) {
	register<bit<8>>(4) r;
	apply {
		r.read(h.a, 0);
	}
}
