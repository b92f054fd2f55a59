// Action profiles and selectors: an action_profile instance with switch (action_run)
// and a direct counter, an anonymous action_selector with apply().miss.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t {
	bit<8> vihl; bit<8> tos; bit<16> len; bit<16> id; bit<16> frag;
	bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst;
}
struct headers { ethernet_t eth; ipv4_t ipv4; }
struct metadata { bit<16> sport; bit<16> dport; }

parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
	state start {
		pkt.extract(h.eth);
		transition select(h.eth.type) { 0x0800: ip; default: accept; }
	}
	state ip { pkt.extract(h.ipv4); transition accept; }
}
control VC(inout headers h, inout metadata m) { apply { } }

control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
	@name(".port_profile") action_profile(32) ports;
	direct_counter(CounterType.packets) hits;
	counter(1, CounterType.packets) misses;

	action set_port(bit<9> port) { sm.egress_spec = port; }
	action set_nhop(bit<48> dmac, bit<9> port) { h.eth.dst = dmac; sm.egress_spec = port; }
	action drop() { mark_to_drop(sm); }

	table by_port {
		key = { sm.ingress_port: exact; }
		actions = { set_port; drop; }
		implementation = ports;
		counters = hits;
		size = 64;
	}
	@max_group_size(8)
	table route {
		key = {
			h.ipv4.dst: lpm;
			h.ipv4.src: selector;
			h.ipv4.dst: selector;
			h.ipv4.proto: selector;
		}
		actions = { set_nhop; drop; }
		implementation = action_selector(HashAlgorithm.crc32, 32w64, 32w16);
		const default_action = drop();
		size = 256;
	}
	apply {
		if (h.ipv4.isValid()) {
			if (route.apply().miss)
				misses.count(0);
		} else {
			switch (by_port.apply().action_run) {
				drop: { exit; }
			}
		}
	}
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.ipv4); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
