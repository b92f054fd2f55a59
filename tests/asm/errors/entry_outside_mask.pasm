# expect: entry_outside_mask.pasm:19:19: error: the value has bits outside the mask
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
	size 4;
	actions fwd;
	default fwd(0);
	entry 0x0801 &&& 0xff00 => fwd(1);
}
