// varbit: IPv4 options as a varbit header extracted with a length (ihl - 5 words),
// emitted with the length it was extracted with, and covered by the header checksum
// (the checksum's field list ends with the varbit field: its bytes past the
// extracted length are zero and do not change a ones' complement sum).
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header ipv4_options_t { varbit<320> options; }
header tail_t { bit<8> t; }
struct headers { ipv4_t ipv4; ipv4_options_t opts; tail_t tail; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers h, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(h.ipv4);
        verify(h.ipv4.ihl >= 5, error.HeaderTooShort);
        pkt.extract(h.opts, ((bit<32>)h.ipv4.ihl - 5) * 32);
        pkt.extract(h.tail);
        transition accept;
    }
}
control VC(inout headers h, inout metadata meta) {
    apply {
        verify_checksum(true,
            { h.ipv4.version, h.ipv4.ihl, h.ipv4.diffserv, h.ipv4.totalLen,
              h.ipv4.identification, h.ipv4.flags, h.ipv4.fragOffset, h.ipv4.ttl,
              h.ipv4.protocol, h.ipv4.srcAddr, h.ipv4.dstAddr, h.opts.options },
            h.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}
control I(inout headers h, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (sm.checksum_error == 1)
            h.tail.t = 0xee;
        if (sm.parser_error != error.NoError)
            sm.egress_spec = 3;
        h.ipv4.ttl = h.ipv4.ttl - 1;
    }
}
control E(inout headers h, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata meta) {
    apply {
        update_checksum(h.ipv4.isValid(),
            { h.ipv4.version, h.ipv4.ihl, h.ipv4.diffserv, h.ipv4.totalLen,
              h.ipv4.identification, h.ipv4.flags, h.ipv4.fragOffset, h.ipv4.ttl,
              h.ipv4.protocol, h.ipv4.srcAddr, h.ipv4.dstAddr, h.opts.options },
            h.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}
control D(packet_out pkt, in headers h) {
    apply { pkt.emit(h.ipv4); pkt.emit(h.opts); pkt.emit(h.tail); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
