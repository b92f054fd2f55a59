// SPDX-License-Identifier: Apache-2.0
//
// tunnel: an overlay with its own tunnel header between Ethernet and IPv4.
// - at the entry, tunnel_encap (LPM on the IPv4 destination) pushes a tunnel
//   header with the tunnel id of the destination's site;
// - inside the overlay, tunnel_fwd (exact on the tunnel id) forwards, counting
//   the hops, or, at the exit, removes the header and restores the EtherType;
// - plain IPv4 that no tunnel covers goes through ipv4_lpm.
//
//   +----------+----------+-------------+------------+
//   | tun_id   | hops     | reserved    | inner_type |
//   | 16 bits  | 8 bits   | 8 bits      | 16 bits    |
//   +----------+----------+-------------+------------+
//   EtherType 0x88B5 (IEEE 802 local experimental).

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
typedef bit<16> tun_id_t;

const bit<16> TYPE_IPV4 = 0x0800;
const bit<16> TYPE_TUNNEL = 0x88B5;

header ethernet_t {
	mac_addr_t dstAddr;
	mac_addr_t srcAddr;
	bit<16> etherType;
}

header tunnel_t {
	tun_id_t tun_id;
	bit<8> hops;
	bit<8> reserved;
	bit<16> inner_type;
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

struct headers {
	ethernet_t ethernet;
	tunnel_t tunnel;
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
			TYPE_TUNNEL: parse_tunnel;
			TYPE_IPV4: parse_ipv4;
			default: accept;
		}
	}

	state parse_tunnel {
		packet.extract(hdr.tunnel);
		transition select(hdr.tunnel.inner_type) {
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

	action encap(tun_id_t tun_id) {
		hdr.tunnel.setValid();
		hdr.tunnel.tun_id = tun_id;
		hdr.tunnel.hops = 0;
		hdr.tunnel.reserved = 0;
		hdr.tunnel.inner_type = hdr.ethernet.etherType;
		hdr.ethernet.etherType = TYPE_TUNNEL;
	}

	action tunnel_forward(port_t port) {
		standard_metadata.egress_spec = port;
		hdr.tunnel.hops = hdr.tunnel.hops + 1;
	}

	action tunnel_exit(mac_addr_t dmac, port_t port) {
		hdr.ethernet.etherType = hdr.tunnel.inner_type;
		hdr.ethernet.dstAddr = dmac;
		hdr.tunnel.setInvalid();
		standard_metadata.egress_spec = port;
	}

	action ipv4_forward(mac_addr_t dmac, port_t port) {
		hdr.ethernet.dstAddr = dmac;
		standard_metadata.egress_spec = port;
	}

	table tunnel_encap {
		key = {
			hdr.ipv4.dstAddr: lpm;
		}
		actions = {
			encap;
			NoAction;
		}
		size = 256 / TABLE_SIZE_DIVISOR;
		default_action = NoAction();
	}

	table tunnel_fwd {
		key = {
			hdr.tunnel.tun_id: exact;
		}
		actions = {
			tunnel_forward;
			tunnel_exit;
			drop;
		}
		size = 256 / TABLE_SIZE_DIVISOR;
		default_action = drop();
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
		if (hdr.ipv4.isValid() && !hdr.tunnel.isValid())
			tunnel_encap.apply();

		if (hdr.tunnel.isValid())
			tunnel_fwd.apply();
		else if (hdr.ipv4.isValid())
			ipv4_lpm.apply();
		else
			drop();
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
		packet.emit(hdr.tunnel);
		packet.emit(hdr.ipv4);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
