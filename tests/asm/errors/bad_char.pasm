# expect: bad_char.pasm:12:8: error: unexpected character '%'
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
	drop; %
}
