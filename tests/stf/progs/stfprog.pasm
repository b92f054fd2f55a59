# stfprog.pasm: a small program for pisa-stf's own end-to-end tests. An exact
# table on etherType picks a port or a multicast group; a ternary table on the
# first data byte (priorities) may rewrite the second and override the port;
# an lpm table on the data word counts for nothing but its keys and actions.
program "stfprog";
mcast_groups 16;
mcast_nodes 64;

header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}

header data 4 {
	f1 8;
	f2 8;
	f3 16;
}

state start {
	extract ethernet;
	extract data;
	default -> accept;
}

action MyIngress.set_port(port 9) {
	set sm.egress_spec, port;
}

action MyIngress.set_f2(val 8, port 9) {
	set data.f2, val;
	set sm.egress_spec, port;
}

action MyIngress.mcast(grp 16) {
	set sm.mcast_grp, grp;
}

action MyIngress.drop {
	drop;
}

action NoAction {
}

table MyIngress.by_type {
	stage 0;
	key ethernet.etherType exact;
	size 16;
	actions MyIngress.set_port, MyIngress.mcast, MyIngress.drop;
	default MyIngress.drop;
	hit MyIngress.tern;
	miss MyIngress.tern;
}

table MyIngress.tern {
	stage 1;
	key data.f1 ternary;
	size 16;
	actions MyIngress.set_f2, NoAction;
	default NoAction;
	hit MyIngress.by_f3;
	miss MyIngress.by_f3;
}

table MyIngress.by_f3 {
	stage 2;
	key data.f3 lpm;
	size 16;
	actions MyIngress.set_port, NoAction;
	default NoAction;
}

deparse ethernet, data;
