// SPDX-License-Identifier: Apache-2.0
//
// port_range: steering by L4 port ranges. service_class matches the
// protocol exactly and the TCP/UDP destination port by range, with const
// entries (the order of the entries is their priority: the first match
// wins, so the narrow blocked range comes before the wide one it is in).
// A class sends the packet to a server pool's port and sets its traffic
// class (standard_metadata.priority) and DSCP; block drops; a packet in no
// range goes to the default port. The IPv4 checksum is recomputed.

#include <core.p4>
#include <v1model.p4>

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

header tcp_t {
	bit<16> srcPort;
	bit<16> dstPort;
	bit<32> seqNo;
	bit<32> ackNo;
	bit<4> dataOffset;
	bit<4> res;
	bit<8> flags;
	bit<16> window;
	bit<16> checksum;
	bit<16> urgentPtr;
}

header udp_t {
	bit<16> srcPort;
	bit<16> dstPort;
	bit<16> length;
	bit<16> checksum;
}

struct headers {
	ethernet_t ethernet;
	ipv4_t ipv4;
	tcp_t tcp;
	udp_t udp;
}

struct metadata {
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
		transition select(hdr.ipv4.protocol) {
			PROTO_TCP: parse_tcp;
			PROTO_UDP: parse_udp;
			default: accept;
		}
	}

	state parse_tcp {
		packet.extract(hdr.tcp);
		meta.dstPort = hdr.tcp.dstPort;
		transition accept;
	}

	state parse_udp {
		packet.extract(hdr.udp);
		meta.dstPort = hdr.udp.dstPort;
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
	action block() {
		mark_to_drop(standard_metadata);
	}

	action set_class(port_t port, bit<3> tc, bit<6> dscp) {
		standard_metadata.egress_spec = port;
		standard_metadata.priority = tc;
		hdr.ipv4.dscp = dscp;
	}

	action to_default() {
		standard_metadata.egress_spec = 1;
	}

	table service_class {
		key = {
			hdr.ipv4.protocol: exact;
			meta.dstPort: range;
		}
		actions = {
			set_class;
			block;
			to_default;
		}
		const default_action = to_default();
		const entries = {
			// Nothing runs on 8000-8099 here: blocked, inside the
			// registered range below, so listed before it.
			(PROTO_TCP, 8000 .. 8099): block();
			(PROTO_TCP, 0 .. 1023): set_class(2, 5, 26);
			(PROTO_TCP, 1024 .. 49151): set_class(3, 3, 18);
			(PROTO_UDP, 53 .. 53): set_class(2, 6, 46);
			(PROTO_UDP, 16384 .. 32767): set_class(4, 7, 46);
			(PROTO_UDP, 0 .. 1023): set_class(2, 5, 26);
		}
	}

	apply {
		if (hdr.tcp.isValid() || hdr.udp.isValid())
			service_class.apply();
		else
			to_default();
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
		packet.emit(hdr.tcp);
		packet.emit(hdr.udp);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
