// Checksum units over a field and the payload (update_checksum_with_payload): csum16, and
// crc16, whose bytes the RTL core feeds a bit a clock, on payloads of odd and even length.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<16> a;
    bit<16> c16;
    bit<16> k16;
}
struct headers { data_t data; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 3; }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum_with_payload(true, { hdr.data.a }, hdr.data.c16, HashAlgorithm.csum16);
        update_checksum_with_payload(true, { hdr.data.a }, hdr.data.k16, HashAlgorithm.crc16);
    }
}
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
