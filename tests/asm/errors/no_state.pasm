# expect: no_state.pasm:1:1: error: the program has no parser state
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
