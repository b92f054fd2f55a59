# expect: entry_defaultonly.pasm:21:18: error: action 'nop' is @defaultonly
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
action nop {
}
table t0 {
	key ethernet.etherType exact;
	size 4;
	actions fwd, nop @defaultonly;
	default nop;
	entry 0x0800 => nop;
}
