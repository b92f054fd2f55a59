// SPDX-License-Identifier: Apache-2.0
//
// calculator: the switch answers arithmetic requests sent over Ethernet.
// A request carries an operator and two operands; the switch writes the
// result and a status into the same packet and returns it to the sender
// (MACs swapped, out the port it came in on). Anything else is dropped.
//
//   +-------+---------+----+--------+---------+---------+---------+
//   | magic | version | op | status | a       | b       | result  |
//   | 'C'   | 1       |    |        | 32 bits | 32 bits | 32 bits |
//   +-------+---------+----+--------+---------+---------+---------+
//   EtherType 0x88B5 (IEEE 802 local experimental, so shared with other
//   experiments: the parser looks ahead at magic and version before it
//   decides that the payload is a calculator request).
//
//   op: '+' 0x2b, '-' 0x2d, '&' 0x26, '|' 0x7c, '^' 0x5e
//   status: 0 ok, 1 unknown operator (result 0)

#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;

const bit<16> TYPE_EXPERIMENTAL = 0x88B5;
const bit<8> CALC_MAGIC = 0x43;		// 'C'
const bit<8> CALC_VERSION = 1;

const bit<8> CALC_OK = 0;
const bit<8> CALC_BAD_OP = 1;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header calc_t {
	bit<8> magic;
	bit<8> version;
	bit<8> op;
	bit<8> status;
	bit<32> a;
	bit<32> b;
	bit<32> result;
}

struct headers {
	ethernet_t ethernet;
	calc_t calc;
}

struct metadata {
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata)
{
	state start {
		packet.extract(hdr.ethernet);
		transition select(hdr.ethernet.etherType, packet.lookahead<bit<16>>()) {
			(TYPE_EXPERIMENTAL, CALC_MAGIC ++ CALC_VERSION): parse_calc;
			default: accept;
		}
	}

	state parse_calc {
		packet.extract(hdr.calc);
		transition accept;
	}
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyIngress(inout headers hdr, inout metadata meta,
		  inout standard_metadata_t standard_metadata)
{
	action answer(bit<32> value) {
		hdr.calc.result = value;
		hdr.calc.status = CALC_OK;
	}

	action op_add() {
		answer(hdr.calc.a + hdr.calc.b);
	}

	action op_sub() {
		answer(hdr.calc.a - hdr.calc.b);
	}

	action op_and() {
		answer(hdr.calc.a & hdr.calc.b);
	}

	action op_or() {
		answer(hdr.calc.a | hdr.calc.b);
	}

	action op_xor() {
		answer(hdr.calc.a ^ hdr.calc.b);
	}

	action op_unknown() {
		hdr.calc.result = 0;
		hdr.calc.status = CALC_BAD_OP;
	}

	table calculate {
		key = {
			hdr.calc.op: exact;
		}
		actions = {
			op_add;
			op_sub;
			op_and;
			op_or;
			op_xor;
			op_unknown;
		}
		const default_action = op_unknown();
		const entries = {
			0x2b: op_add();
			0x2d: op_sub();
			0x26: op_and();
			0x7c: op_or();
			0x5e: op_xor();
		}
	}

	apply {
		if (hdr.calc.isValid()) {
			calculate.apply();
			// Back to the sender.
			mac_addr_t tmp = hdr.ethernet.dstAddr;
			hdr.ethernet.dstAddr = hdr.ethernet.srcAddr;
			hdr.ethernet.srcAddr = tmp;
			standard_metadata.egress_spec = standard_metadata.ingress_port;
		} else {
			mark_to_drop(standard_metadata);
		}
	}
}

control MyEgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata)
{
	apply { }
}

control MyComputeChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyDeparser(packet_out packet, in headers hdr)
{
	apply {
		packet.emit(hdr.ethernet);
		packet.emit(hdr.calc);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
