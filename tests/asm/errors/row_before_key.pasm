# expect: row_before_key.pasm:12:2: error: a row needs the state's key first ('key FIELD;')
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
state other {
	0x0800 -> accept;
}
