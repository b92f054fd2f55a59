# everything.pasm: one use of every statement of the language, assembled by
# `make -C tests/asm test` and compared with everything.dump (pisa-asm --dump).
program "everything";
board "sim";
phv_bytes 192;
cpu_port 64;
mcast_groups 8;
mcast_nodes 32;
clone_sessions 4;
error BadOption, Unsupported;

header ethernet 14 {
	dstAddr 48;
	srcAddr 48;
	etherType 16;
}

# a stack of 3 elements: headers srcRoutes[0..2], runtime names "hdr.srcRoutes[i]"
header srcRoutes[3] 2 {
	bos 1;
	port 15;
}

# a varbit header: 4 fixed bytes, up to 40 in all
header opts 40 fixed 4 name "hdr.options" {
	kind 8;
	len 8;
	pad 16;
	data 288;
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

header ipv4_copy 20 {
	all 160;
}

metadata meta {
	tmp 16;
	flag 1;
	color 2;
	idx 8;
	hash 16;
	reg 32;
	optbits 16;
}

metadata fwd name "meta.fwd" {
	l2ptr 24;
}

parser_start start;

state start {
	extract ethernet;
	key ethernet.etherType, pkt(0, 8);
	0x123400 &&& 0xffff00 -> parse_routes;	# value &&& mask over the 24-bit key
	0x080045 -> parse_ipv4;
	0x080000 &&& 0xffff00 -> parse_opts;
	default -> reject NoMatch;
}

state parse_routes {
	extract_stack srcRoutes;
	key srcRoutes[0].bos;
	1 -> accept;
	default -> parse_routes;
}

state parse_opts {
	set meta.optbits, pkt(8, 8);
	shl meta.optbits, meta.optbits, 3;
	sub meta.optbits, meta.optbits, 32;
	extract_var opts, meta.optbits;
	advance 16;
	key meta.optbits;
	0 -> reject BadOption;
	default -> parse_ipv4;
}

state parse_ipv4 {
	extract ipv4;
	key ipv4.version;
	4 -> accept;
	default -> reject Unsupported;
}

counter MyIngress.pkts packets size 16;
counter MyIngress.both both size 4;
counter MyIngress.per_entry bytes direct;
register MyIngress.last width 32 size 64;
meter MyIngress.police bytes size 8;
meter MyIngress.entry_meter packets direct;
field_list flow { ipv4.srcAddr, ipv4.dstAddr, ipv4.protocol }
field_list keep { meta.tmp, meta.flag }
hash MyIngress.ecmp crc16 flow;
hash MyIngress.custom crc32_custom { ipv4.srcAddr } poly 0x1edc6f41 init 0xffffffff xor_out 0xffffffff reflect_in reflect_out;
digest MyIngress.learn { ethernet.srcAddr, sm.ingress_port };
checksum verify csum16 { ipv4.version, ipv4.ihl, ipv4.diffserv, ipv4.totalLen,
	ipv4.identification, ipv4.flags, ipv4.fragOffset, ipv4.ttl, ipv4.protocol,
	ipv4.srcAddr, ipv4.dstAddr } dst ipv4.hdrChecksum cond valid(ipv4);
checksum update csum16 { ipv4.srcAddr, ipv4.dstAddr } dst meta.tmp cond 1 with_payload;

action NoAction {
}

action MyIngress.compute(base 16, limit 16) {
	hash meta.hash, MyIngress.ecmp, $base, limit;
	hash meta.tmp, MyIngress.custom, 0, 0;
	random meta.idx, 0, 255;
	count MyIngress.pkts, meta.idx[3:0];
	count MyIngress.both;
	reg_read meta.reg, MyIngress.last, meta.idx;
	add meta.reg, meta.reg, 1;
	reg_write MyIngress.last, meta.idx, meta.reg;
	meter meta.color, MyIngress.police, 0;
	addsat.s meta.tmp, meta.tmp, 0x7fff:16;
	shr.s meta.tmp, meta.tmp, 1;
	lt meta.flag, ipv4.ttl, 2;
	jz meta.flag, done;
	drop;
	exit;
done:
	nop;
}

action MyIngress.set_l2ptr(ptr 24) {
	set fwd.l2ptr, ptr;
	xor meta.tmp, meta.tmp, adata(0, 8);
	set sm.egress_spec, ptr[8:0];
	dmeter meta.color, MyIngress.entry_meter;
	digest MyIngress.learn;
}

action MyIngress.mirror(session 16) {
	clone i2e, session, keep;
	truncate 64;
}

action MyIngress.again {
	resubmit keep;
}

action MyIngress.copy_ip {
	copyhdr ipv4_copy, ipv4;
	setvalid ipv4_copy;
	setinvalid opts;
	not meta.tmp, meta.tmp;
	and meta.tmp, meta.tmp, 0x00ff;
	or meta.tmp, meta.tmp, ipv4.totalLen;
	set phv(1024, 8), 0x5a;
	mul meta.tmp, meta.tmp, 3;
	min meta.tmp, meta.tmp, 1500;
	max meta.tmp, meta.tmp, 64;
	ne meta.flag, meta.tmp, 0;
	eq meta.flag, meta.tmp, 0;
	le meta.flag, meta.tmp, 0;
	gt meta.flag, meta.tmp, 0;
	ge meta.flag, meta.tmp, 0;
	subsat meta.tmp, meta.tmp, 1;
	addc meta.tmp, meta.tmp, 0;
	subc meta.tmp, meta.tmp, 0;
	jnz meta.flag, 1;
	set im.truncate_len, 0;
}

action MyEgress.recirc {
	recirculate none;
	set standard_metadata.egress_spec, sm.egress_port;
}

table MyIngress.compute_gate {
	stage 0;
	default MyIngress.compute(base: 1, limit: 64);
	const_default;
	cond meta.flag;
	hit MyIngress.l2;
	miss MyIngress.acl;
}

table MyIngress.l2 {
	stage 1;
	key ethernet.dstAddr exact;
	key valid(ipv4) exact;
	key meta.idx[7:4] exact "meta.idx_hi";
	ways 4;
	way_bits 6;
	actions MyIngress.set_l2ptr -> MyIngress.acl, NoAction @defaultonly -> end;
	default NoAction;
	direct_counter MyIngress.per_entry;
	direct_meter MyIngress.entry_meter;
	entry 0x000000000001, 1, 0xa => MyIngress.set_l2ptr(0x000102);
	entry 0x000000000002, 0, 0x3 => MyIngress.set_l2ptr(ptr: 0x000203);
}

table MyIngress.acl {
	stage 2;
	mem tcam;
	key ipv4.srcAddr ternary;
	key ipv4.dstAddr lpm;
	key ipv4.protocol range;
	key meta.tmp optional;
	key sm.ingress_port exact;
	size 128;
	actions MyIngress.mirror, MyIngress.again @tableonly, MyIngress.copy_ip;
	default MyIngress.mirror(7);
	entry 0x0a000000 &&& 0xff000000, 0xc0a80000 / 16, 6 -> 17, _, 3 => MyIngress.mirror(5);
	entry _, _, _, 0x1234, 4 => MyIngress.again;
	next end;
}

table MyEgress.loop {
	gress egress;
	stage 0;
	default MyEgress.recirc;
}

ingress_start MyIngress.compute_gate;
egress_start MyEgress.loop;
deparse ethernet, srcRoutes, opts, ipv4, ipv4_copy;
