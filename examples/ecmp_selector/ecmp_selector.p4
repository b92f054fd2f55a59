// SPDX-License-Identifier: Apache-2.0
//
// ecmp_selector: equal-cost multipath with a v1model action_selector.
// - ecmp (LPM on the IPv4 destination) points at a group of next hops or at one
//   next hop: the control plane creates the members (one per next hop) and the
//   groups (act_prof_create_member, act_prof_create_group,
//   act_prof_add_member_to_group) and adds entries with table_indirect_add_with_group
//   or table_indirect_add;
// - for a group, a CRC-16 of the selector keys (the 5-tuple) picks the member,
//   as BMv2 does: member number crc16 % group size in ascending member handles,
//   so one flow always takes one path;
// - a hit decrements the TTL; a miss runs the default: drop() until the control
//   plane sets a default member (table_indirect_set_default), which forwards the
//   packet unrouted, TTL unchanged.
// Ports are 0 for protocols other than TCP and UDP.

#include <core.p4>
#include <v1model.p4>

// Table sizes are divided by TABLE_SIZE_DIVISOR: p4lower -DTABLE_SIZE_DIVISOR=64 makes the
// program small enough for the boards (examples/README.md, "Boards").
#ifndef TABLE_SIZE_DIVISOR
#define TABLE_SIZE_DIVISOR 1
#endif

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<9> port_t;

const bit<16> TYPE_IPV4 = 0x0800;
const bit<8> PROTO_TCP = 6;
const bit<8> PROTO_UDP = 17;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header ipv4_t {
	bit<4> version;
	bit<4> ihl;
	bit<8> diffserv;
	bit<16> totalLen;
	bit<16> identification;
	bit<3> flags;
	bit<13> fragOffset;
	bit<8> ttl;
	bit<8> protocol;
	bit<16> hdrChecksum;
	ipv4_addr_t srcAddr;
	ipv4_addr_t dstAddr;
}

// Only the ports: TCP and UDP both start with them.
header l4_ports_t {
	bit<16> srcPort;
	bit<16> dstPort;
}

struct headers {
	ethernet_t ethernet;
	ipv4_t ipv4;
	l4_ports_t l4;
}

struct metadata {
	bit<16> srcPort;
	bit<16> dstPort;
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata)
{
	state start {
		packet.extract(hdr.ethernet);
		transition select(hdr.ethernet.etherType) {
			TYPE_IPV4: parse_ipv4;
			default: accept;
		}
	}

	state parse_ipv4 {
		packet.extract(hdr.ipv4);
		transition select(hdr.ipv4.fragOffset, hdr.ipv4.protocol) {
			(0, PROTO_TCP): parse_l4;
			(0, PROTO_UDP): parse_l4;
			default: accept;
		}
	}

	state parse_l4 {
		packet.extract(hdr.l4);
		meta.srcPort = hdr.l4.srcPort;
		meta.dstPort = hdr.l4.dstPort;
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
	// members and group slots: 128 each (a group holds each member once)
	@max_group_size(16)
	action_selector(HashAlgorithm.crc16, 32w128 / TABLE_SIZE_DIVISOR, 32w16) ecmp_selector;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action set_nhop(mac_addr_t smac, mac_addr_t dmac, port_t port) {
		hdr.ethernet.srcAddr = smac;
		hdr.ethernet.dstAddr = dmac;
		standard_metadata.egress_spec = port;
	}

	table ecmp {
		key = {
			hdr.ipv4.dstAddr: lpm;
			hdr.ipv4.srcAddr: selector;
			hdr.ipv4.dstAddr: selector;
			hdr.ipv4.protocol: selector;
			meta.srcPort: selector;
			meta.dstPort: selector;
		}
		actions = {
			set_nhop;
			drop;
		}
		implementation = ecmp_selector;
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	apply {
		if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {
			if (ecmp.apply().hit)
				hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
		} else {
			drop();
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
	apply {
		update_checksum(hdr.ipv4.isValid(),
				{ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
				  hdr.ipv4.totalLen, hdr.ipv4.identification,
				  hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
				  hdr.ipv4.protocol, hdr.ipv4.srcAddr,
				  hdr.ipv4.dstAddr },
				hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
	}
}

control MyDeparser(packet_out packet, in headers hdr)
{
	apply {
		packet.emit(hdr.ethernet);
		packet.emit(hdr.ipv4);
		packet.emit(hdr.l4);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
