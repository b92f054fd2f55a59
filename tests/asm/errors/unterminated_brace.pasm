# expect: unterminated_brace.pasm:11:10: error: '{' is never closed
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
	drop;

