# expect: unknown_param.pasm:12:22: error: unknown action parameter 'prot'
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action a(port 9) {
	set sm.egress_spec, $prot;
}
