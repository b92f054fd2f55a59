// SPDX-License-Identifier: Apache-2.0
//
// ecmp: equal-cost multipath routing.
// - ecmp_group (LPM on the IPv4 destination) gives a group id and the
//   number of next hops in it;
// - a CRC-16 of the 5-tuple (srcAddr, dstAddr, protocol, srcPort, dstPort)
//   modulo that number picks a member, so one flow always takes one path;
// - ecmp_nhop (exact on group id and member) gives the next hop's MACs and
//   port; TTL - 1, checksum recomputed.
// Ports are 0 for protocols other than TCP and UDP.

#include <core.p4>
#include <v1model.p4>

// Table sizes are divided by TABLE_SIZE_DIVISOR: p4lower -DTABLE_SIZE_DIVISOR=64 makes the
// program small enough for the iCE40 boards (examples/README.md, "Boards").
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
	bit<14> ecmp_group;
	bit<16> ecmp_member;
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
	action drop() {
		mark_to_drop(standard_metadata);
	}

	action set_ecmp_group(bit<14> group, bit<16> num_nhops) {
		meta.ecmp_group = group;
		hash(meta.ecmp_member, HashAlgorithm.crc16, (bit<16>)0,
		     { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol,
		       meta.srcPort, meta.dstPort },
		     num_nhops);
	}

	action set_nhop(mac_addr_t smac, mac_addr_t dmac, port_t port) {
		hdr.ethernet.srcAddr = smac;
		hdr.ethernet.dstAddr = dmac;
		standard_metadata.egress_spec = port;
		hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
	}

	table ecmp_group {
		key = {
			hdr.ipv4.dstAddr: lpm;
		}
		actions = {
			set_ecmp_group;
			drop;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	table ecmp_nhop {
		key = {
			meta.ecmp_group: exact;
			meta.ecmp_member: exact;
		}
		actions = {
			set_nhop;
			drop;
		}
		size = 256 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	apply {
		if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {
			if (ecmp_group.apply().hit)
				ecmp_nhop.apply();
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
