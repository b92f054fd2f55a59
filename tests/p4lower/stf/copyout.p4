// Copy-in/copy-out of out and inout arguments (P4-16 spec, "Calling convention"):
// the callee works on copies, which are written back when it returns, so a write
// through another name during the call is overwritten, and two inout arguments
// naming the same field do not add up.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> d;
}
struct headers { data_t data; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    // x aliases hdr.data.a: the copy-out of x (5) comes after the write of 7.
    action overwrite(inout bit<8> x) {
        x = 5;
        hdr.data.a = 7;
    }
    // both copies start from the same value: the field ends up +1, not +2.
    action twice(inout bit<8> x, inout bit<8> y) {
        x = x + 1;
        y = y + 1;
    }
    // an out argument does not see the caller's value (BMv2: it starts at 0).
    action fresh(out bit<8> x) {
        x = x + 3;
    }
    // the copy-in is taken before the body writes the original.
    action snapshot(inout bit<8> x) {
        hdr.data.d = 0;
        x = x + 1;
    }
    apply {
        overwrite(hdr.data.a);
        twice(hdr.data.b, hdr.data.b);
        fresh(hdr.data.c);
        snapshot(hdr.data.d);
        sm.egress_spec = 2;
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
