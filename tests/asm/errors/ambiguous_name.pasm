# expect: ambiguous_name.pasm:18:10: error: action name 'drop' is ambiguous: 'MyIngress.drop' or 'MyEgress.drop'
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}
state start {
	extract ethernet;
	default -> accept;
}
action MyIngress.drop {
	drop;
}
action MyEgress.drop {
	drop;
}
table t0 {
	default drop;
}
