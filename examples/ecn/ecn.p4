// SPDX-License-Identifier: Apache-2.0
//
// ecn: explicit congestion notification marking in egress.
// Ingress routes IPv4 (LPM, TTL - 1). Egress compares the depth of the queue
// the packet waited in (enq_qdepth, in packets) with the output port's
// threshold: at or above it, an ECN-capable packet (ECT(0) or ECT(1)) is
// marked Congestion Experienced instead of being dropped by a full queue.
// The threshold is ECN_THRESHOLD unless ecn_threshold has an entry for the
// port. The IPv4 checksum is recomputed at the end.

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
typedef bit<19> qdepth_t;

const bit<16> TYPE_IPV4 = 0x0800;

const bit<2> ECN_NOT_ECT = 0;
const bit<2> ECN_ECT1 = 1;
const bit<2> ECN_ECT0 = 2;
const bit<2> ECN_CE = 3;

const qdepth_t ECN_THRESHOLD = 10;

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
	qdepth_t threshold;
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
	action drop() {
		mark_to_drop(standard_metadata);
	}

	action ipv4_forward(mac_addr_t dmac, port_t port) {
		hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
		hdr.ethernet.dstAddr = dmac;
		standard_metadata.egress_spec = port;
		hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
	}

	table ipv4_lpm {
		key = {
			hdr.ipv4.dstAddr: lpm;
		}
		actions = {
			ipv4_forward;
			drop;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	apply {
		if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1)
			ipv4_lpm.apply();
		else
			drop();
	}
}

control MyEgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata)
{
	action set_threshold(qdepth_t qdepth) {
		meta.threshold = qdepth;
	}

	table ecn_threshold {
		key = {
			standard_metadata.egress_port: exact;
		}
		actions = {
			set_threshold;
			NoAction;
		}
		size = 64 / TABLE_SIZE_DIVISOR;
		default_action = NoAction();
	}

	action mark_ce() {
		hdr.ipv4.ecn = ECN_CE;
	}

	apply {
		meta.threshold = ECN_THRESHOLD;
		ecn_threshold.apply();
		if (hdr.ipv4.isValid() &&
		    (hdr.ipv4.ecn == ECN_ECT0 || hdr.ipv4.ecn == ECN_ECT1) &&
		    standard_metadata.enq_qdepth >= meta.threshold)
			mark_ce();
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
