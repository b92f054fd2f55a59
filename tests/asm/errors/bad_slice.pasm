# expect: bad_slice.pasm:12:25: error: slice [16:0] of a 16-bit value: need 15 >= hi >= lo
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
	set ethernet.etherType[16:0], 0;
}
