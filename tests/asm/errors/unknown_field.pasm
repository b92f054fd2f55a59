# expect: unknown_field.pasm:12:6: error: header 'ethernet' has no field 'dstAdr'
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
	set ethernet.dstAdr, 1;
}
