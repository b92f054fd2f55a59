// Back end: an action profile whose size is not a constant 1..2^20.
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct hs_t { h_t h; }
struct m_t { }
parser P(packet_in pkt, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	state start { pkt.extract(hdr.h); transition accept; }
}
control V(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	action fwd(bit<9> p) { sm.egress_spec = p; }
	table t {
		key = { hdr.h.a: exact; }
		actions = { fwd; }
		implementation = action_profile(0);
	}
	apply { t.apply(); }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control K(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pkt, in hs_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), K(), D()) main;
