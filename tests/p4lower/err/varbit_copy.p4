// Back end: a header with a varbit field cannot be assigned (its length would not follow).
#include <v1model.p4>
header h_t { bit<8> len; bit<8> b; }
header v_t { bit<8> kind; varbit<64> opt; }
header w_t { bit<8> kind; varbit<64> opt; }
struct hs_t { h_t h; v_t v; }
struct m_t { bit<32> x; }
parser P(packet_in pkt, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
	state start { pkt.extract(hdr.h); pkt.extract(hdr.v, (bit<32>)hdr.h.len * 8); transition accept; }
}
control V(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { hdr.v = hdr.v; } }
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control K(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pkt, in hs_t hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), K(), D()) main;
