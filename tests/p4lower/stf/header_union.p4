// header_union: at most one member valid. Extracting or setValid() on a member
// invalidates the others; isValid() of the union is true when a member is; emit
// writes the valid member. A stack of unions is parsed with s.next.member and
// shifted by pop_front (docs/architecture.md: unions are headers side by side).
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> t; }
header a_t { bit<8> kind; bit<8> x; }
header b_t { bit<8> kind; bit<16> y; }
header_union u_t { a_t a; b_t b; }
struct headers { tag_t tag; u_t u; u_t[2] s; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers h, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(h.tag);
        transition select(h.tag.t) { 1: pa; 2: pb; 3: stk; default: accept; }
    }
    state pa { pkt.extract(h.u.a); transition accept; }
    state pb { pkt.extract(h.u.b); transition accept; }
    state stk {
        transition select(pkt.lookahead<bit<8>>()) { 0x0a: sa; 0x0b: sb; default: accept; }
    }
    state sa { pkt.extract(h.s.next.a); transition stk; }
    state sb { pkt.extract(h.s.next.b); transition stk; }
}
control VC(inout headers h, inout metadata meta) { apply { } }

control I(inout headers h, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (h.u.isValid())
            h.tag.t = h.tag.t | 0x80;
        if (h.u.a.isValid()) {
            // b becomes the valid member, a invalid
            h.u.b.setValid();
            h.u.b.kind = 0x0b;
            h.u.b.y = (bit<16>)h.u.a.x;
        }
        if (h.s[1].isValid()) {
            h.s.pop_front(1);
            h.tag.t = h.tag.t | 0x40;
        }
        if (h.s[0].a.isValid())
            h.u.a = h.s[0].a;
    }
}
control E(inout headers h, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers h) {
    apply { pkt.emit(h.tag); pkt.emit(h.u); pkt.emit(h.s); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
