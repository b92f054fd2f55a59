# expect: missing_arg.pasm:18:10: error: missing argument 'vlan' of action 'fwd'
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action fwd(port 9, vlan 12) {
	set sm.egress_spec, port;
}
table t0 {
	key ethernet.dstAddr exact;
	size 16;
	actions fwd;
	default fwd(port: 1);
}
