/* Source routing: a stack of port hops in front of IPv4; each switch pops one. */
#include <core.p4>
#include <v1model.p4>

const bit<16> TYPE_IPV4 = 0x800;
const bit<16> TYPE_SRCROUTING = 0x1234;

#define MAX_HOPS 9

header ethernet_t {
	bit<48> dstAddr;
	bit<48> srcAddr;
	bit<16> etherType;
}

header srcRoute_t {
	bit<1> bos;
	bit<15> port;
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
	bit<32> srcAddr;
	bit<32> dstAddr;
}

struct metadata { }

struct headers {
	ethernet_t ethernet;
	srcRoute_t[MAX_HOPS] srcRoutes;
	ipv4_t ipv4;
}

parser SRParser(packet_in packet, out headers hdr, inout metadata meta,
		inout standard_metadata_t standard_metadata) {
	state start {
		transition parse_ethernet;
	}

	state parse_ethernet {
		packet.extract(hdr.ethernet);
		transition select(hdr.ethernet.etherType) {
			TYPE_SRCROUTING: parse_srcRouting;
			default: accept;
		}
	}

	state parse_srcRouting {
		packet.extract(hdr.srcRoutes.next);
		transition select(hdr.srcRoutes.last.bos) {
			1: parse_ipv4;
			default: parse_srcRouting;
		}
	}

	state parse_ipv4 {
		packet.extract(hdr.ipv4);
		transition accept;
	}
}

control SRVerify(inout headers hdr, inout metadata meta) {
	apply { }
}

control SRIngress(inout headers hdr, inout metadata meta,
		  inout standard_metadata_t standard_metadata) {
	action drop() {
		mark_to_drop(standard_metadata);
	}

	action srcRoute_nhop() {
		standard_metadata.egress_spec = (bit<9>)hdr.srcRoutes[0].port;
		hdr.srcRoutes.pop_front(1);
	}

	action srcRoute_finish() {
		hdr.ethernet.etherType = TYPE_IPV4;
	}

	action update_ttl() {
		hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
	}

	apply {
		if (hdr.srcRoutes[0].isValid()) {
			if (hdr.srcRoutes[0].bos == 1) {
				srcRoute_finish();
			}
			srcRoute_nhop();
			if (hdr.ipv4.isValid()) {
				update_ttl();
			}
		} else {
			drop();
		}
	}
}

control SREgress(inout headers hdr, inout metadata meta,
		 inout standard_metadata_t standard_metadata) {
	apply { }
}

control SRCompute(inout headers hdr, inout metadata meta) {
	apply { }
}

control SRDeparser(packet_out packet, in headers hdr) {
	apply {
		packet.emit(hdr.ethernet);
		packet.emit(hdr.srcRoutes);
		packet.emit(hdr.ipv4);
	}
}

V1Switch(SRParser(), SRVerify(), SRIngress(), SREgress(), SRCompute(), SRDeparser()) main;
