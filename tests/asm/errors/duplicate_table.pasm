# expect: duplicate_table.pasm:16:7: error: table 't0' is already defined
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
}
table t0 {
	default noop;
}
