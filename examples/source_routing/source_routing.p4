// SPDX-License-Identifier: Apache-2.0
//
// source_routing: the sender writes the path into the packet.
// After Ethernet (EtherType 0x88B6) comes a list of hops, one 16-bit entry
// per switch; each switch forwards on the port of the first entry and pops
// it. The entry with bos (bottom of stack) set is the last one: the switch
// that pops it restores the IPv4 EtherType, so the host behind it receives
// a plain IPv4 packet.
//
//   +-----+--------------+
//   | bos | port         |   x 1..MAX_HOPS
//   | 1   | 15 bits      |
//   +-----+--------------+
//
// Packets without a route, with more than MAX_HOPS entries (the parser
// fails with StackOutOfBounds) or naming port 0 are dropped. hop_count
// counts packets per output port.

#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;
typedef bit<9> port_t;

#define MAX_HOPS 8

const bit<16> TYPE_IPV4 = 0x0800;
const bit<16> TYPE_SRCROUTE = 0x88B6;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header hop_t {
	bit<1> bos;
	bit<15> port;
}

struct headers {
	ethernet_t ethernet;
	hop_t[MAX_HOPS] hops;
}

struct metadata {
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata)
{
	state start {
		packet.extract(hdr.ethernet);
		transition select(hdr.ethernet.etherType) {
			TYPE_SRCROUTE: parse_hop;
			default: accept;
		}
	}

	state parse_hop {
		packet.extract(hdr.hops.next);
		transition select(hdr.hops.last.bos) {
			1: accept;
			default: parse_hop;
		}
	}
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyIngress(inout headers hdr, inout metadata meta,
		  inout standard_metadata_t standard_metadata)
{
	counter(512, CounterType.packets) hop_count;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action next_hop() {
		standard_metadata.egress_spec = (port_t)hdr.hops[0].port;
		hop_count.count((bit<32>)hdr.hops[0].port);
		if (hdr.hops[0].bos == 1)
			hdr.ethernet.etherType = TYPE_IPV4;
		hdr.hops.pop_front(1);
	}

	apply {
		if (standard_metadata.parser_error != error.NoError ||
		    !hdr.hops[0].isValid() || hdr.hops[0].port == 0)
			drop();
		else
			next_hop();
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
		packet.emit(hdr.hops);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
