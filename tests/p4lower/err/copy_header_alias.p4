// Back end: a header argument also reached through another name in the action would need
// copy-in/copy-out of a header; refused by name rather than aliased.
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct hs_t { h_t h; }
struct m_t { }
parser P(packet_in pkt, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	state start { pkt.extract(hdr.h); transition accept; }
}
control V(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	action set_both(inout h_t x) {
		x.a = 1;
		hdr.h.a = 2;
	}
	apply { set_both(hdr.h); }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control K(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pkt, in hs_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), K(), D()) main;
