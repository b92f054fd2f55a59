// resubmit_preserving_field_list (v1model): the ingress pass ends, and the packet as it arrived
// goes through the parser and ingress again with metadata zero but the field list's fields and
// instance_type 6 (RESUBMIT). A packet whose first byte is 0 asks for a resubmit in every pass
// and meets the pass limit (16 ingress passes): dropped. With the top bit of the first byte,
// every pass also clones the packet (I2E) to port 3: each copy leaves before the next pass's.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8> mode;
    bit<8> passes;
    bit<8> kept;
    bit<8> lost;
    bit<32> itype;
}
struct headers { data_t data; }
struct metadata {
    @field_list(1) bit<8> count;
    @field_list(1) bit<8> mark;
    bit<8> scratch;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        meta.count = meta.count + 1;
        if (hdr.data.mode[7:7] == 1) {
            hdr.data.passes = meta.count;	// the copy is parsed again: not kept
            clone_preserving_field_list(CloneType.I2E, 3, 1);
        }
        if (hdr.data.mode[6:0] == 0 || meta.count < (bit<8>)hdr.data.mode[6:0]) {
            meta.mark = 0xA5;
            meta.scratch = 0x3C;
            hdr.data.lost = 0xEE;	// the packet as it arrived is parsed again: lost
            resubmit_preserving_field_list(1);
        } else {
            hdr.data.passes = meta.count;
            hdr.data.kept = meta.mark;
            hdr.data.lost = meta.scratch;
            hdr.data.itype = sm.instance_type;
            sm.egress_spec = 1;
        }
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) {	// the clone: its kept count and its instance_type
            hdr.data.kept = meta.count;
            hdr.data.itype = sm.instance_type;
        }
    }
}
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
