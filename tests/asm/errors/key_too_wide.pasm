# expect: key_too_wide.pasm:12:24: error: a state key has at most 64 bits
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
state other {
	key ethernet.dstAddr, ethernet.srcAddr;
	default -> accept;
}
