# expect: reject_no_error.pasm:12:20: error: unknown error 'Oops' (declare it with 'error Oops;')
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
	default -> reject Oops;
}
