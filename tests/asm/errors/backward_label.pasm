# expect: backward_label.pasm:14:25: error: label 'top' is not after the jump (jumps go forward only)
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
top:
	drop;
	jz ethernet.etherType, top;
}
