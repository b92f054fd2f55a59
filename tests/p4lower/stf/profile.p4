// Action profiles (v1model action_profile) and selectors (action_selector): the
// match table points at members and groups the control plane creates; a hit runs
// the member's action, a miss the default action or a default member; hit/miss and
// switch (action_run) see the member's action (docs/architecture.md, "Action
// profiles and selectors").
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8> key;
    bit<8> flow;
    bit<8> hit;
    bit<8> tag;
}
struct headers { data_t data; }
struct metadata { bit<8> unused; }

parser P(packet_in pkt, out headers hdr, inout metadata meta,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.data); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action_profile(8) prof;
    action fwd(bit<9> port) { sm.egress_spec = port; }
    action fwd_tag(bit<9> port, bit<8> tag) { sm.egress_spec = port; hdr.data.tag = tag; }
    action to_cpu() { sm.egress_spec = 9; }
    table t {
        key = { hdr.data.key: exact; }
        actions = { fwd; fwd_tag; to_cpu; }
        implementation = prof;
        default_action = to_cpu();
    }
    table s {
        key = { hdr.data.key: ternary; hdr.data.flow: selector; }
        actions = { fwd; }
        implementation = action_selector(HashAlgorithm.identity, 16, 8);
    }
    apply {
        if (hdr.data.key < 0x80) {
            // hit: the match table's, not the member table's
            if (t.apply().hit)
                hdr.data.hit = 1;
            else
                hdr.data.hit = 2;
        } else {
            switch (s.apply().action_run) {
                fwd: { hdr.data.hit = 3; }
                default: { sm.egress_spec = 8; }
            }
        }
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
