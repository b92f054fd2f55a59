// SPDX-License-Identifier: Apache-2.0
//
// ipv4_router: longest-prefix-match IPv4 forwarding.
// - the header checksum is verified; a bad checksum, a TTL of 0 or 1, an
//   IPv4 header with options or a missing route drops the packet;
// - a route gives the next hop's MAC and the output port; TTL - 1;
// - egress writes the output port's own MAC as the source; the checksum is
//   recomputed at the end.

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

error {
	IPv4OptionsNotSupported
}

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header ipv4_t {
	bit<4> version;
	bit<4> ihl;
	bit<6> dscp;
	bit<2> ecn;
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

struct headers {
	ethernet_t ethernet;
	ipv4_t ipv4;
}

struct metadata {
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
		// The parser stops here, but the packet still reaches ingress
		// with parser_error set (v1model does not drop on errors).
		verify(hdr.ipv4.ihl == 5, error.IPv4OptionsNotSupported);
		transition accept;
	}
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta)
{
	apply {
		verify_checksum(hdr.ipv4.isValid(),
				{ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp,
				  hdr.ipv4.ecn, hdr.ipv4.totalLen,
				  hdr.ipv4.identification, hdr.ipv4.flags,
				  hdr.ipv4.fragOffset, hdr.ipv4.ttl,
				  hdr.ipv4.protocol, hdr.ipv4.srcAddr,
				  hdr.ipv4.dstAddr },
				hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
	}
}

control MyIngress(inout headers hdr, inout metadata meta,
		  inout standard_metadata_t standard_metadata)
{
	direct_counter(CounterType.packets_and_bytes) route_stats;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action set_nhop(mac_addr_t nhop_mac, port_t port) {
		hdr.ethernet.dstAddr = nhop_mac;
		standard_metadata.egress_spec = port;
		hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
	}

	table ipv4_lpm {
		key = {
			hdr.ipv4.dstAddr: lpm;
		}
		actions = {
			set_nhop;
			drop;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = drop();
		counters = route_stats;
	}

	apply {
		if (!hdr.ipv4.isValid() ||
		    standard_metadata.parser_error != error.NoError ||
		    standard_metadata.checksum_error == 1) {
			drop();
		} else if (hdr.ipv4.ttl <= 1) {
			// A real router would send ICMP time exceeded here.
			drop();
		} else {
			ipv4_lpm.apply();
		}
	}
}

control MyEgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata)
{
	action set_smac(mac_addr_t smac) {
		hdr.ethernet.srcAddr = smac;
	}

	table port_mac {
		key = {
			standard_metadata.egress_port: exact;
		}
		actions = {
			set_smac;
			NoAction;
		}
		size = 64 / TABLE_SIZE_DIVISOR;
		default_action = NoAction();
	}

	apply {
		port_mac.apply();
	}
}

control MyComputeChecksum(inout headers hdr, inout metadata meta)
{
	apply {
		update_checksum(hdr.ipv4.isValid(),
				{ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp,
				  hdr.ipv4.ecn, hdr.ipv4.totalLen,
				  hdr.ipv4.identification, hdr.ipv4.flags,
				  hdr.ipv4.fragOffset, hdr.ipv4.ttl,
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
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
