// SPDX-License-Identifier: Apache-2.0
//
// firewall: a stateful firewall for TCP and UDP between an inside and an
// outside network, with a Bloom filter of the flows seen going out.
// - port_zone (exact on the ingress port) says whether a port is outside;
// - a packet from the inside sets bit crc16(5-tuple) % BLOOM_CELLS in
//   bloom_a and bit crc32(5-tuple) % BLOOM_CELLS in bloom_b;
// - a packet from the outside is let in only if both bits of its reversed
//   5-tuple (the one the outgoing packets of its flow had) are set;
// - other IPv4 protocols are let out but never in; the Bloom filter never
//   forgets (the control plane resets it with register_reset).
// Forwarding: ipv4_lpm (LPM on the destination) gives the port.

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

#define BLOOM_CELLS 4096

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
	bit<16> srcPort;
	bit<16> dstPort;
	bit<1> outside;
	bit<32> cell_a;
	bit<32> cell_b;
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
		meta.srcPort = hdr.tcp.srcPort;
		meta.dstPort = hdr.tcp.dstPort;
		transition accept;
	}

	state parse_udp {
		packet.extract(hdr.udp);
		meta.srcPort = hdr.udp.srcPort;
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
	register<bit<1>>(BLOOM_CELLS) bloom_a;
	register<bit<1>>(BLOOM_CELLS) bloom_b;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action set_port(port_t port) {
		standard_metadata.egress_spec = port;
	}

	table ipv4_lpm {
		key = {
			hdr.ipv4.dstAddr: lpm;
		}
		actions = {
			set_port;
			drop;
		}
		size = 1024 / TABLE_SIZE_DIVISOR;
		default_action = drop();
	}

	action set_zone(bit<1> outside) {
		meta.outside = outside;
	}

	table port_zone {
		key = {
			standard_metadata.ingress_port: exact;
		}
		actions = {
			set_zone;
		}
		size = 64 / TABLE_SIZE_DIVISOR;
		// Unknown ports count as outside: safe.
		default_action = set_zone(1);
	}

	// The cells of a flow as its outgoing packets see it.
	action cells_outgoing() {
		hash(meta.cell_a, HashAlgorithm.crc16, (bit<32>)0,
		     { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol,
		       meta.srcPort, meta.dstPort }, (bit<32>)BLOOM_CELLS);
		hash(meta.cell_b, HashAlgorithm.crc32, (bit<32>)0,
		     { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol,
		       meta.srcPort, meta.dstPort }, (bit<32>)BLOOM_CELLS);
	}

	// The same cells from a reply: addresses and ports swapped back.
	action cells_incoming() {
		hash(meta.cell_a, HashAlgorithm.crc16, (bit<32>)0,
		     { hdr.ipv4.dstAddr, hdr.ipv4.srcAddr, hdr.ipv4.protocol,
		       meta.dstPort, meta.srcPort }, (bit<32>)BLOOM_CELLS);
		hash(meta.cell_b, HashAlgorithm.crc32, (bit<32>)0,
		     { hdr.ipv4.dstAddr, hdr.ipv4.srcAddr, hdr.ipv4.protocol,
		       meta.dstPort, meta.srcPort }, (bit<32>)BLOOM_CELLS);
	}

	apply {
		if (!hdr.ipv4.isValid()) {
			drop();
			return;
		}
		if (!ipv4_lpm.apply().hit)
			return;
		port_zone.apply();
		if (hdr.tcp.isValid() || hdr.udp.isValid()) {
			if (meta.outside == 0) {
				cells_outgoing();
				bloom_a.write(meta.cell_a, 1);
				bloom_b.write(meta.cell_b, 1);
			} else {
				bit<1> seen_a;
				bit<1> seen_b;

				cells_incoming();
				bloom_a.read(seen_a, meta.cell_a);
				bloom_b.read(seen_b, meta.cell_b);
				if (seen_a == 0 || seen_b == 0)
					drop();
			}
		} else if (meta.outside == 1) {
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
	apply { }
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
