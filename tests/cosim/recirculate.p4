// A program the RTL core cannot run yet (recirculate): tests/cosim loads it to check that
// the simulated board refuses it at IMAGE_COMMIT and keeps the program that runs.
#include <core.p4>
#include <v1model.p4>

header data_t { bit<8> a; }
struct headers { data_t data; }
struct metadata { @field_list(1) bit<8> pass; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (meta.pass == 0) {
            meta.pass = 1;
            recirculate_preserving_field_list(1);
        }
    }
}
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
