# expect: unknown_table.pasm:15:7: error: unknown table 't9'
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
	next t9;
}
