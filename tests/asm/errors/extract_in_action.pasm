# expect: extract_in_action.pasm:12:2: error: 'extract' runs only in parser states
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
	extract ethernet;
}
