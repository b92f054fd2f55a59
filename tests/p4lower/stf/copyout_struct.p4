// Copy-in/copy-out of struct arguments (P4-16 spec, "Calling convention"): when the
// body also reaches the argument through another name, the callee works on a copy
// (copied back at the end for out and inout); an out struct starts at 0.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> d;
}
struct pair_t { bit<8> x; bit<8> y; }
struct headers { data_t data; }
struct metadata { pair_t pair; pair_t other; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    // p is meta.pair: with a copy, both reads see the old values (a swap)
    action swap(inout pair_t p) {
        p.x = meta.pair.y;
        p.y = meta.pair.x;
    }
    // an out struct starts at 0: x is 0 afterwards
    action only_y(out pair_t p) {
        p.y = 7;
    }
    // an in struct is a copy: the write through meta.other does not reach q
    action snapshot(in pair_t q) {
        meta.other.x = 9;
        hdr.data.c = q.x;
    }
    // no other name: the argument itself (no copy needed)
    action bump(inout pair_t p) {
        p.x = p.x + 1;
    }
    apply {
        meta.pair.x = hdr.data.a;
        meta.pair.y = hdr.data.b;
        swap(meta.pair);
        hdr.data.a = meta.pair.x;
        hdr.data.b = meta.pair.y;
        meta.other.x = 5;
        snapshot(meta.other);
        only_y(meta.other);
        bump(meta.other);
        hdr.data.d = meta.other.x[3:0] ++ meta.other.y[3:0];
        sm.egress_spec = 2;
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
