// stf-args: --board icebreaker
// Tables larger than one stage's memory, split over consecutive stages
// (docs/architecture.md): on the iCEBreaker (16 TCAM rows and 16 Kbit of exact-match
// rows per stage), lpm's 40 rows become pieces of 16, 16 and 8, exact's 512 rows two
// pieces of 256. Entries spread over the pieces in priority order (longest prefix
// first, across pieces) and cuckoo moves cross pieces; a miss in every piece runs the
// default. mksplit.py writes split.stf.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<32> dst;
    bit<32> key;
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
    direct_counter(CounterType.packets) lpm_hits;
    action set_port(bit<9> port) { sm.egress_spec = port; }
    action set_tag(bit<8> tag) { hdr.data.tag = tag; }
    action no_route() { sm.egress_spec = 1; }
    table lpm {
        key = { hdr.data.dst: lpm; }
        actions = { set_port; no_route; }
        default_action = no_route();
        counters = lpm_hits;
        size = 40;
    }
    table exact {
        key = { hdr.data.key: exact; }
        actions = { set_tag; }
        default_action = set_tag(0xff);
        size = 512;
    }
    apply {
        lpm.apply();
        exact.apply();
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.data); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
