# expect: header_size.pasm:2:8: error: header 'ethernet' is 14 bytes but its fields add up to 104 bits (not 112)
header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 8;
}
