# expect: const_width_overflow.pasm:12:52: error: constant 0x1ff does not fit in 8 bits
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
	add ethernet.etherType, ethernet.etherType, 0x1ff:8;
}
