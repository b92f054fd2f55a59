# expect: number_overflow.pasm:12:24: error: number does not fit in 64 bits
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action a {
	set ethernet.dstAddr, 0x1ffffffffffffffff;
}
