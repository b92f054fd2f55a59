# expect: no_default.pasm:13:7: error: table 't0' needs a default action ('default ACTION;')
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
	key ethernet.dstAddr exact;
	size 16;
	actions noop;
}
