# expect: entry_key_count.pasm:20:15: error: the table has 2 keys, the entry gives 1
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
	key ethernet.dstAddr ternary;
	size 4;
	actions fwd;
	default fwd(0);
	entry 0x0800 => fwd(1);
}
