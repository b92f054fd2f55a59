# router.pasm: IPv4 longest-prefix-match router (the P4 tutorial's basic.p4, by hand).
#   ingress: gate_ipv4 (valid(ipv4)?) -> gate_csum (checksum_error?) -> ipv4_lpm
#            non-IPv4 packets leave on port 0 untouched; a bad IPv4 checksum drops.
program "router";

header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}

header ipv4 20 {
	version 4;
	ihl 4;
	diffserv 8;
	totalLen 16;
	identification 16;
	flags 3;
	fragOffset 13;
	ttl 8;
	protocol 8;
	hdrChecksum 16;
	srcAddr 32;
	dstAddr 32;
}

state start {
	extract ethernet;
	key ethernet.etherType;
	0x0800 -> parse_ipv4;
	default -> accept;
}

state parse_ipv4 {
	extract ipv4;
	default -> accept;
}

# Every header field but the checksum, as v1model's verify/update_checksum list them.
field_list ipv4_csum_fields {
	ipv4.version, ipv4.ihl, ipv4.diffserv, ipv4.totalLen, ipv4.identification,
	ipv4.flags, ipv4.fragOffset, ipv4.ttl, ipv4.protocol, ipv4.srcAddr, ipv4.dstAddr
}
checksum verify csum16 ipv4_csum_fields dst ipv4.hdrChecksum cond valid(ipv4);
checksum update csum16 ipv4_csum_fields dst ipv4.hdrChecksum cond valid(ipv4);

action NoAction {
}

action MyIngress.drop {
	drop;
}

action MyIngress.ipv4_forward(dstAddr 48, port 9) {
	set sm.egress_spec, port;
	set ethernet.srcAddr, ethernet.dstAddr;
	set ethernet.dstAddr, $dstAddr;
	add ipv4.ttl, ipv4.ttl, 0xff:8;		# ttl - 1, modulo 256
}

# Gateways: keyless tables whose next pointer follows a field (hit = non-zero).
table MyIngress.gate_ipv4 {
	stage 0;
	default NoAction;
	cond valid(ipv4);
	hit MyIngress.gate_csum;
	miss end;
}

table MyIngress.gate_csum {
	stage 0;
	default NoAction;
	cond sm.checksum_error;
	hit MyIngress.bad_csum;
	miss MyIngress.ipv4_lpm;
}

table MyIngress.bad_csum {
	stage 1;
	default MyIngress.drop;
	const_default;
}

table MyIngress.ipv4_lpm {
	stage 1;
	key ipv4.dstAddr lpm;		# runtime name "hdr.ipv4.dstAddr"
	size 1024;
	actions MyIngress.ipv4_forward, MyIngress.drop, NoAction;
	default MyIngress.drop;
	direct_counter MyIngress.lpm_hits packets;
}

deparse ethernet, ipv4;
