# expect: hash_not_exact.pasm:15:6: error: mem hash needs every key to be exact
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
	key ethernet.dstAddr ternary;
	mem hash;
	size 16;
	default noop;
}
