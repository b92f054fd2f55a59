// SPDX-License-Identifier: Apache-2.0
// Table capacity per board (make bench, scripts/bench.sh): an exact table on a 48-bit key
// (a MAC address) of EXACT_N entries and a ternary table on a 32-bit key (an IPv4 source) of
// TERN_N entries, beside the parser and deparser of Ethernet/IPv4. The goals (issue: the RTL
// pipeline): 4,096 and 256 on colorlight-5a-75b, 512 and 32 on hx8k-breakout.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
header ipv4_t {
	bit<8> vihl; bit<8> tos; bit<16> len; bit<16> id; bit<16> frag; bit<8> ttl; bit<8> proto;
	bit<16> csum; bit<32> src; bit<32> dst;
}
struct headers { ethernet_t eth; ipv4_t ip; }
struct meta_t { }

parser P(packet_in pkt, out headers h, inout meta_t m, inout standard_metadata_t sm) {
	state start {
		pkt.extract(h.eth);
		transition select(h.eth.etype) { 0x0800: ip; default: accept; }
	}
	state ip { pkt.extract(h.ip); transition accept; }
}

control VC(inout headers h, inout meta_t m) { apply { } }

control I(inout headers h, inout meta_t m, inout standard_metadata_t sm) {
	action fwd(bit<9> port) { sm.egress_spec = port; }
	action drop() { mark_to_drop(sm); }
	table mac {
		key = { h.eth.dst : exact; }
		actions = { fwd; drop; }
		size = EXACT_N;
		default_action = drop();
	}
	table acl {
		key = { h.ip.src : ternary; }
		actions = { drop; NoAction; }
		size = TERN_N;
		default_action = NoAction();
	}
	apply {
		mac.apply();
		if (h.ip.isValid())
			acl.apply();
	}
}

control E(inout headers h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.ip); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
