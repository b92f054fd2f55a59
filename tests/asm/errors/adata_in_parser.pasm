# expect: adata_in_parser.pasm:12:26: error: unknown name 'port'
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
	set ethernet.etherType, port;
	default -> accept;
}
