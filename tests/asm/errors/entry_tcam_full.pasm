# expect: entry_tcam_full.pasm:20:2: error: more entries than the table's 1 rows
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action fwd(port 9) {
	set sm.egress_spec, port;
}
table t0 {
	key ethernet.etherType ternary;
	size 1;
	actions fwd;
	default fwd(0);
	entry 0x0800 => fwd(1);
	entry 0x0806 => fwd(2);
}
