# acl.pasm: a ternary ACL on (srcAddr, dstAddr, protocol, L4 destination port).
# The parser copies the TCP or UDP destination port into meta.l4_dport, so
# one key covers both. Entries allow (to a port) or deny; the default denies.
program "acl";

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

header tcp 20 {
	srcPort 16;
	dstPort 16;
	seqNo 32;
	ackNo 32;
	dataOffset 4;
	res 4;
	flags 8;
	window 16;
	checksum 16;
	urgentPtr 16;
}

header udp 8 {
	srcPort 16;
	dstPort 16;
	length 16;
	checksum 16;
}

metadata meta {
	l4_dport 16;
}

state start {
	extract ethernet;
	key ethernet.etherType;
	0x0800 -> parse_ipv4;
	default -> accept;
}

state parse_ipv4 {
	extract ipv4;
	key ipv4.protocol;
	6 -> parse_tcp;
	17 -> parse_udp;
	default -> accept;
}

state parse_tcp {
	extract tcp;
	set meta.l4_dport, tcp.dstPort;
	default -> accept;
}

state parse_udp {
	extract udp;
	set meta.l4_dport, udp.dstPort;
	default -> accept;
}

counter MyIngress.denied packets size 1;

action MyIngress.allow(port 9) {
	set sm.egress_spec, port;
}

action MyIngress.deny {
	count MyIngress.denied;
	drop;
}

table MyIngress.acl {
	key ipv4.srcAddr ternary;	# "hdr.ipv4.srcAddr"
	key ipv4.dstAddr ternary;	# "hdr.ipv4.dstAddr"
	key ipv4.protocol ternary;	# "hdr.ipv4.protocol"
	key meta.l4_dport ternary;	# "meta.l4_dport"
	size 64;
	actions MyIngress.allow, MyIngress.deny;
	default MyIngress.deny;
}

deparse ethernet, ipv4, tcp, udp;
