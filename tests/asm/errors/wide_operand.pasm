# expect: wide_operand.pasm:12:6: error: 'ipv6.src' is 128 bits wide; an operand has at most 64 bits (use a slice [hi:lo])
header ipv6 40 {
	pre 64;
	src 128;
	dst 128;
}
state start {
	extract ipv6;
	default -> accept;
}
action a {
	set ipv6.src, 0;
}
