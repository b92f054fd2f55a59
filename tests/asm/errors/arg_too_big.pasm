# expect: arg_too_big.pasm:18:14: error: 512 does not fit parameter 'port' (9 bits)
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
	key ethernet.dstAddr exact;
	size 16;
	actions fwd;
	default fwd(512);
}
