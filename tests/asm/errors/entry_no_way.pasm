# expect: entry_no_way.pasm:21:2: error: no free way for this entry: every way's bucket is taken (raise ways or way_bits)
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
	ways 1;
	way_bits 0;
	actions fwd;
	default fwd(0);
	entry 0x0800 => fwd(1);
	entry 0x86dd => fwd(2);
}
