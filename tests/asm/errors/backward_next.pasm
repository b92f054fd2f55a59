# expect: backward_next.pasm:25:7: error: table 't0' does not come after 't2' (next pointers go forward: a later stage, or later in the same stage)
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
table t1 {
	stage 1;
	default noop;
}
table t0 {
	stage 0;
	default noop;
	next t1;
}
table t2 {
	stage 1;
	default noop;
	next t0;
}
