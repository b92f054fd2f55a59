# expect: unknown_insn.pasm:12:2: error: unknown instruction 'mov'
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
	mov ethernet.etherType, 1;
}
