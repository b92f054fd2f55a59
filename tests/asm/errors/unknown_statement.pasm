# expect: unknown_statement.pasm:11:1: error: unknown statement 'tabel'
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
tabel t0 {
}
