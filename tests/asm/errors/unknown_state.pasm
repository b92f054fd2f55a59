# expect: unknown_state.pasm:10:12: error: unknown state 'parse_ipv4'
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	key ethernet.etherType;
	0x0800 -> parse_ipv4;
	default -> accept;
}
