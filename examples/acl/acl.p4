// SPDX-License-Identifier: Apache-2.0
//
// acl: an access control list in front of IPv4 forwarding.
// acl is a ternary table on (source, destination, protocol, L4 destination
// port); when several entries match, the one with the highest priority
// wins. allow forwards through ipv4_lpm, deny drops; a packet that matches
// no entry is denied. acl_hits counts the packets and bytes of each entry
// (a direct counter), denied counts the denied packets by ingress port.
// Denied packets and those allowed by an allow_logged entry are also
// cloned (ingress to egress) to the monitor's mirror session: the copy is
// the packet as it arrived, before ipv4_lpm rewrote its destination MAC.

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
const bit<32> MONITOR_SESSION = 100;

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
			PROTO_TCP: parse_l4;
			PROTO_UDP: parse_l4;
			default: accept;
		}
	}

	state parse_l4 {
		packet.extract(hdr.l4);
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
	direct_counter(CounterType.packets_and_bytes) acl_hits;
	counter(512, CounterType.packets) denied;

	action drop() {
		mark_to_drop(standard_metadata);
	}

	action allow() {
	}

	action allow_logged() {
		clone(CloneType.I2E, MONITOR_SESSION);
	}

	action deny() {
		denied.count((bit<32>)standard_metadata.ingress_port);
		clone(CloneType.I2E, MONITOR_SESSION);
		mark_to_drop(standard_metadata);
	}

	table acl {
		key = {
			hdr.ipv4.srcAddr: ternary;
			hdr.ipv4.dstAddr: ternary;
			hdr.ipv4.protocol: ternary;
			meta.dstPort: ternary;
		}
		actions = {
			allow;
			allow_logged;
			deny;
		}
		size = 256 / TABLE_SIZE_DIVISOR;
		default_action = deny();
		counters = acl_hits;
	}

	action set_nhop(mac_addr_t dmac, port_t port) {
		hdr.ethernet.dstAddr = dmac;
		standard_metadata.egress_spec = port;
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
	}

	apply {
		if (!hdr.ipv4.isValid()) {
			drop();
		} else {
			switch (acl.apply().action_run) {
			allow:
			allow_logged: {
				ipv4_lpm.apply();
			}
			deny: {
				// already dropped and counted by the action
			}
			}
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
		packet.emit(hdr.l4);
	}
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
	 MyComputeChecksum(), MyDeparser()) main;
