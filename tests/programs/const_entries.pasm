# const_entries.pasm: tables filled by the program itself ('entry' rows in the
# image, written by pisa_ctl_init), no control plane needed.
#   port_map (exact, hash): ingress port 1 -> 2, 2 -> 1, 3 -> 4, others dropped
#   classify (tcam: ternary, range, lpm), overrides in entry order:
#     IPv4 with ttl 0..1 dropped; IPv4 to 224.0.0.0/4 to port 7; LLDP to port 6
program "const_entries";

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

action NoAction {
}

action MyIngress.fwd(port 9) {
	set sm.egress_spec, port;
}

action MyIngress.drop {
	drop;
}

table MyIngress.port_map {
	stage 0;
	key sm.ingress_port exact;
	size 8;
	actions MyIngress.fwd, MyIngress.drop;
	default MyIngress.drop;
	const_entries;
	entry 1 => MyIngress.fwd(2);
	entry 2 => MyIngress.fwd(port: 1);
	entry 3 => MyIngress.fwd(4);
	hit MyIngress.classify;
	miss end;
}

table MyIngress.classify {
	stage 1;
	key ethernet.etherType ternary;
	key ipv4.ttl range;
	key ipv4.dstAddr lpm;
	size 8;
	actions MyIngress.fwd, MyIngress.drop, NoAction;
	default NoAction;
	const_entries;
	entry 0x0800, 0 -> 1, _ => MyIngress.drop;
	entry 0x0800, _, 0xe0000000 / 4 => MyIngress.fwd(7);
	entry 0x88cc &&& 0xffff, _, _ => MyIngress.fwd(6);
}
