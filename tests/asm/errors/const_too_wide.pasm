# expect: const_too_wide.pasm:12:26: error: constant 0x10000 does not fit in 16 bits (the width of the other operand); write it as value:width
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
	set ethernet.etherType, 0x10000;
}
