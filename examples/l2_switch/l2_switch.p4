// SPDX-License-Identifier: Apache-2.0
//
// l2_switch: a learning Ethernet switch.
// - dmac: exact match on the destination MAC gives the output port; a miss
//   (unknown or broadcast destination) floods through multicast group 1.
// - smac: exact match on the source MAC; a miss means the control plane has
//   not learnt this host yet, so ingress sends it a digest (srcAddr, port).
// - egress drops the flooded copy that would go back out the ingress port.

#include <core.p4>
#include <v1model.p4>

// Table sizes are divided by TABLE_SIZE_DIVISOR: p4lower -DTABLE_SIZE_DIVISOR=64 makes the
// program small enough for the iCE40 boards (examples/README.md, "Boards").
#ifndef TABLE_SIZE_DIVISOR
#define TABLE_SIZE_DIVISOR 1
#endif

typedef bit<48> mac_addr_t;
typedef bit<9> port_t;

const bit<16> FLOOD_GROUP = 1;
const bit<16> FLOOD_RID = 1;	// rid of the group's node (commands file)
const bit<32> LEARN_RECEIVER = 1;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

struct headers {
	ethernet_t ethernet;
}

// What the control plane receives for each new (MAC, port).
struct learn_digest_t {
	mac_addr_t srcAddr;
	port_t ingress_port;
}

struct metadata {
	learn_digest_t learn;
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata)
{
	state start {
		packet.extract(hdr.ethernet);
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
	action learn() {
		meta.learn.srcAddr = hdr.ethernet.srcAddr;
		meta.learn.ingress_port = standard_metadata.ingress_port;
		digest(LEARN_RECEIVER, meta.learn);
	}

	action forward(port_t port) {
		standard_metadata.egress_spec = port;
	}

	action flood() {
		standard_metadata.mcast_grp = FLOOD_GROUP;
	}

	action drop() {
		mark_to_drop(standard_metadata);
	}

	table smac {
		key = {
			hdr.ethernet.srcAddr: exact;
		}
		actions = {
			learn;
			NoAction;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = learn();
	}

	table dmac {
		key = {
			hdr.ethernet.dstAddr: exact;
		}
		actions = {
			forward;
			flood;
			drop;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = flood();
	}

	apply {
		if (!hdr.ethernet.isValid()) {
			drop();
		} else {
			smac.apply();
			dmac.apply();
		}
	}
}

control MyEgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata)
{
	apply {
		// Flooded copies carry the replication id of the group's node
		// and keep ingress_port: never flood back to the sender.
		if (standard_metadata.egress_rid == FLOOD_RID &&
		    standard_metadata.egress_port == standard_metadata.ingress_port)
			mark_to_drop(standard_metadata);
	}
}

control MyComputeChecksum(inout headers hdr, inout metadata meta)
{
	apply { }
}

control MyDeparser(packet_out packet, in headers hdr)
{
	apply {
		packet.emit(hdr.ethernet);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
