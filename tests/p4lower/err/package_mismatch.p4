#include <v1model.p4>
header h_t { bit<8> a; }
struct hs_t { h_t h; }
struct m_t { }
struct other_t { bit<8> x; }
parser P(packet_in pkt, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	state start { pkt.extract(hdr.h); transition accept; }
}
control V(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout other_t m, inout standard_metadata_t sm) { apply { } }
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control K(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pkt, in hs_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), K(), D()) main;
