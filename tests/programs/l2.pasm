# l2.pasm: an Ethernet switch. Known destination MACs go to their port (or are
# dropped), unknown ones are flooded through multicast group 1; egress prunes
# the copy that would go back out of the port the packet came in on.
program "l2";
mcast_groups 16;
mcast_nodes 64;

header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}

metadata meta {
	same_port 1;
}

state start {
	extract ethernet;
	default -> accept;
}

counter MyIngress.rx_per_port packets size 512;

action MyIngress.forward(port 9) {
	set sm.egress_spec, port;
}

action MyIngress.drop {
	drop;
}

action MyIngress.flood {
	set sm.mcast_grp, 1;
}

action MyIngress.count_rx {
	count MyIngress.rx_per_port, sm.ingress_port;
}

table MyIngress.port_stats {
	stage 0;
	default MyIngress.count_rx;
	const_default;
	next MyIngress.dmac;
}

table MyIngress.dmac {
	stage 1;
	key ethernet.dstAddr exact;	# runtime name "hdr.ethernet.dstAddr"
	size 256;
	ways 2;
	actions MyIngress.forward, MyIngress.drop, MyIngress.flood;
	default MyIngress.flood;
	direct_counter MyIngress.dmac_hits both;
}

action MyEgress.same_port {
	eq meta.same_port, sm.egress_port, sm.ingress_port;
}

action MyEgress.drop {
	drop;
}

table MyEgress.prune_gate {
	gress egress;
	stage 0;
	default MyEgress.same_port;
	cond meta.same_port;
	hit MyEgress.prune;
	miss end;
}

table MyEgress.prune {
	gress egress;
	stage 1;
	default MyEgress.drop;
}
