// crc16_custom and crc32_custom, with the parameters BMv2 starts them with (those of
// crc16 and crc32; simple_switch can change them at run time, no switch here can):
// in hash() and in a checksum unit.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<32> a;
    bit<16> h16;
    bit<32> h32;
    bit<16> c16;
}
struct headers { data_t data; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        hash(hdr.data.h16, HashAlgorithm.crc16_custom, 16w0, { hdr.data.a }, 32w65536);
        hash(hdr.data.h32, HashAlgorithm.crc32_custom, 32w0, { hdr.data.a }, 64w4294967296);
        sm.egress_spec = 2;
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(true, { hdr.data.a }, hdr.data.c16, HashAlgorithm.crc16_custom);
    }
}
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
