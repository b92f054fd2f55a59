# expect: wrong_gress.pasm:15:7: error: table 'e0' is in egress, not ingress
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action noop {
}
table t0 {
	default noop;
	next e0;
}
table e0 {
	gress egress;
	default noop;
}
