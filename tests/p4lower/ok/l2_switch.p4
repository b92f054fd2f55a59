/* L2 learning switch: MAC table with a digest to the control plane on unknown sources. */
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;

header ethernet_t {
	mac_t dst;
	mac_t src;
	bit<16> type;
}

struct learn_t {
	mac_t src;
	bit<9> port;
}

struct metadata_t {
	learn_t learn;
}

struct headers_t {
	ethernet_t eth;
}

parser L2Parser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
		inout standard_metadata_t sm) {
	state start {
		pkt.extract(hdr.eth);
		transition accept;
	}
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) {
	apply { }
}

control L2Ingress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
	direct_counter(CounterType.packets_and_bytes) dmac_hits;

	action learn() {
		meta.learn.src = hdr.eth.src;
		meta.learn.port = sm.ingress_port;
		digest<learn_t>(1, meta.learn);
	}

	action forward(bit<9> port) {
		sm.egress_spec = port;
		dmac_hits.count();
	}

	action flood() {
		sm.mcast_grp = 1;
		dmac_hits.count();
	}

	table smac {
		key = { hdr.eth.src : exact; }
		actions = { learn; NoAction; }
		default_action = learn();
		size = 4096;
		support_timeout = true;
	}

	table dmac {
		key = { hdr.eth.dst : exact; }
		actions = { forward; flood; }
		const default_action = flood();
		counters = dmac_hits;
		size = 4096;
	}

	apply {
		if (sm.ingress_port == 9w64) {
			mark_to_drop(sm);
			exit;
		}
		smac.apply();
		dmac.apply();
	}
}

control L2Egress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
	apply {
		/* do not send a flooded copy back where it came from */
		if (sm.egress_port == sm.ingress_port)
			mark_to_drop(sm);
	}
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) {
	apply { }
}

control L2Deparser(packet_out pkt, in headers_t hdr) {
	apply {
		pkt.emit(hdr);
	}
}

V1Switch(L2Parser(), NoVerify(), L2Ingress(), L2Egress(), NoCompute(), L2Deparser()) main;
