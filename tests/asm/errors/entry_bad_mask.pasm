# expect: entry_bad_mask.pasm:19:15: error: '&&&' is for ternary keys
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
	key ethernet.etherType exact;
	size 4;
	actions fwd;
	default fwd(0);
	entry 0x0800 &&& 0xff00 => fwd(1);
}
