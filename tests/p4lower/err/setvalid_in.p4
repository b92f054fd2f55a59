#include <v1model.p4>
header h_t { bit<8> a; }
control D(packet_out pkt, in h_t h) {
	apply {
		h.setValid();
		pkt.emit(h);
	}
}
