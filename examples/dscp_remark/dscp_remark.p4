// SPDX-License-Identifier: Apache-2.0
//
// dscp_remark: a bump in the wire between port 1 and port 2 that rewrites
// the IPv4 DSCP by protocol (TCP, UDP, ICMP, ...) and polices each class.
// - dscp_by_proto (exact on the protocol) gives the class's DSCP and the
//   index of its meter;
// - the class's two-rate three-colour meter (packets) decides: green keeps
//   the class's DSCP, yellow gets best effort (DSCP 0), red is dropped;
// - protocols without an entry keep their DSCP;
// - the IPv4 checksum is recomputed at the end.

#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<9> port_t;

const bit<16> TYPE_IPV4 = 0x0800;
const bit<6> DSCP_BEST_EFFORT = 0;
const bit<32> NUM_CLASSES = 8;

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
	bit<2> color;
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
	meter(NUM_CLASSES, MeterType.packets) class_meter;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action set_egress(port_t port) {
		standard_metadata.egress_spec = port;
	}

	// The wire: whatever comes in on one side leaves on the other.
	table wire {
		key = {
			standard_metadata.ingress_port: exact;
		}
		actions = {
			set_egress;
			drop;
		}
		const default_action = drop();
		const entries = {
			1: set_egress(2);
			2: set_egress(1);
		}
	}

	action set_dscp(bit<6> dscp, bit<32> class_id) {
		class_meter.execute_meter(class_id, meta.color);
		hdr.ipv4.dscp = dscp;
	}

	table dscp_by_proto {
		key = {
			hdr.ipv4.protocol: exact;
		}
		actions = {
			set_dscp;
			NoAction;
		}
		size = 16;
		default_action = NoAction();
	}

	apply {
		wire.apply();
		if (hdr.ipv4.isValid()) {
			meta.color = V1MODEL_METER_COLOR_GREEN;
			dscp_by_proto.apply();
			if (meta.color == V1MODEL_METER_COLOR_YELLOW)
				hdr.ipv4.dscp = DSCP_BEST_EFFORT;
			else if (meta.color == V1MODEL_METER_COLOR_RED)
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
