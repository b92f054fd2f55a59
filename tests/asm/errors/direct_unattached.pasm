# expect: direct_unattached.pasm:11:9: error: direct counter 'c' is not attached to a table
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
counter c packets direct;
