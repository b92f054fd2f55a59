/* Exercises the language: enums, unions, tuples, functions, switch, externs, keysets, annotations. */
#include <core.p4>
#include <v1model.p4>

#define WIDTH 16
const int SHIFT = 3;
const bit<WIDTH> MASK16 = 0xff00;
const bit<24> BIG = 8w1 + 8w2 ++ 16w3;	/* ++ binds like +: 0x030003 */
const bit<8> WRAPPED = 8w250 |+| 8w10;
const int<8> NEG = -8s5;
const bool FLAG = 3 > 2 && !(1 == 2);

error { MyCustomError, BadOption }
match_kind { my_kind }

enum Color { Red, Green, Blue }
enum bit<8> Proto { TCP = 6, UDP = 17, ICMP = 1 }

typedef bit<48> mac_t;
type bit<32> ifindex_t;

header ethernet_t {
	mac_t dst;
	mac_t src;
	bit<16> etherType;
}

header vlan_t {
	bit<3> pcp;
	bit<1> cfi;
	bit<12> vid;
	bit<16> etherType;
}

header ipv4_t {
	bit<4> version;
	bit<4> ihl;
	bit<8> diffserv;
	bit<16> totalLen;
	bit<16> identification;
	bit<3> flags;
	bit<13> fragOffset;
	bit<8> ttl;
	Proto protocol;
	bit<16> hdrChecksum;
	bit<32> srcAddr;
	bit<32> dstAddr;
}

header ipv4_options_t {
	varbit<320> options;
}

header ipv6_t {
	bit<4> version;
	bit<8> trafficClass;
	bit<20> flowLabel;
	bit<16> payloadLen;
	bit<8> nextHdr;
	bit<8> hopLimit;
	bit<128> srcAddr;
	bit<128> dstAddr;
}

header_union ip_t {
	ipv4_t v4;
	ipv6_t v6;
}

header l4_t {
	bit<16> srcPort;
	bit<16> dstPort;
}

struct meta_t {
	bit<16> l4_sport;
	bit<32> hash_val;
	bit<8> color;
	bit<32> reg_val;
	Color c;
	ifindex_t ifx;
	bool seen;
	tuple<bit<8>, bool> pair;
}

struct headers_t {
	ethernet_t eth;
	vlan_t[2] vlans;
	ip_t ip;
	ipv4_options_t opts;
	l4_t l4;
}

bit<16> swap_bytes(in bit<16> x) {
	return x[7:0] ++ x[15:8];
}

bit<8> max8(in bit<8> a, in bit<8> b) {
	if (a > b)
		return a;
	return b;
}

action set_port(inout standard_metadata_t sm, bit<9> port) {
	sm.egress_spec = port;
}

parser FParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
	       inout standard_metadata_t sm) {
	value_set<bit<16>>(4) custom_types;
	bit<8> n = 0;

	state start {
		pkt.extract(hdr.eth);
		transition select(hdr.eth.etherType) {
			0x8100 &&& 0xefff: parse_vlan;
			0x0800: parse_ipv4;
			0x86dd: parse_ipv6;
			0x0600 .. 0x06ff: reject;
			custom_types: parse_l4;
			_: accept;
		}
	}

	state parse_vlan {
		pkt.extract(hdr.vlans.next);
		n = n + 1;
		verify(n <= 2, error.BadOption);
		transition select(hdr.vlans.last.etherType) {
			0x8100: parse_vlan;
			0x0800: parse_ipv4;
			default: accept;
		}
	}

	state parse_ipv4 {
		pkt.extract(hdr.ip.v4);
		pkt.extract(hdr.opts, (bit<32>)(((bit<16>)hdr.ip.v4.ihl - 5) * 32));
		transition select(hdr.ip.v4.protocol, hdr.ip.v4.fragOffset) {
			(Proto.TCP, 0): parse_l4;
			(Proto.UDP, 0): parse_l4;
			(_, _): accept;
		}
	}

	state parse_ipv6 {
		pkt.extract(hdr.ip.v6);
		transition select(pkt.lookahead<bit<32>>()[31:16]) {
			0 .. 1023: parse_l4;
			default: accept;
		}
	}

	state parse_l4 {
		pkt.advance(0);
		pkt.extract(hdr.l4);
		meta.l4_sport = hdr.l4.srcPort;
		transition accept;
	}
}

control FVerify(inout headers_t hdr, inout meta_t meta) {
	apply {
		verify_checksum(hdr.ip.v4.isValid(),
			{ hdr.ip.v4.version, hdr.ip.v4.ihl, hdr.ip.v4.diffserv,
			  hdr.ip.v4.totalLen, hdr.ip.v4.identification, hdr.ip.v4.flags,
			  hdr.ip.v4.fragOffset, hdr.ip.v4.ttl, hdr.ip.v4.protocol,
			  hdr.ip.v4.srcAddr, hdr.ip.v4.dstAddr },
			hdr.ip.v4.hdrChecksum, HashAlgorithm.csum16);
	}
}

control Sub(inout headers_t hdr, in bit<8> ttl_min) {
	apply {
		if (hdr.ip.v4.ttl < ttl_min)
			hdr.ip.v4.ttl = ttl_min;
	}
}

control FIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
	register<bit<32>>(1024) flow_reg;
	meter(64, MeterType.bytes) port_meter;
	direct_meter<bit<8>>(MeterType.packets) acl_meter;
	counter(32w512, CounterType.packets_and_bytes) acl_hits;
	action_profile(128) ecmp_profile;
	Sub() sub;
	bit<32> idx;
	const bit<8> TTL_MIN = 2;

	@name(".drop") action drop() {
		mark_to_drop(sm);
	}

	action permit(bit<9> port) {
		acl_meter.read(meta.color);
		set_port(sm, port);
	}

	action deny() {
		acl_meter.read(meta.color);
		drop();
	}

	action set_nhop(mac_t dmac, bit<9> port) {
		hdr.eth.dst = dmac;
		sm.egress_spec = port;
		hdr.ip.v4.ttl = hdr.ip.v4.ttl |-| 1;
	}

	table acl {
		key = {
			hdr.ip.v4.srcAddr : ternary @name("src");
			hdr.ip.v4.dstAddr : ternary;
			hdr.ip.v4.protocol : exact;
			meta.l4_sport : range;
			hdr.vlans[0].vid : optional;
		}
		actions = {
			permit;
			deny;
			@defaultonly NoAction;
		}
		meters = acl_meter;
		default_action = NoAction();
		const entries = {
			(0x0a000000 &&& 0xff000000, _, Proto.TCP, 0 .. 1023, _) : permit(1);
			priority = 10: (_, 0x0a000001, Proto.UDP, _, 12) : deny();
			(_, _, Proto.ICMP, _, _) : deny() @priority(1);
		}
		size = 256;
	}

	table ecmp {
		key = {
			hdr.ip.v4.dstAddr : lpm;
			meta.hash_val : selector;
		}
		actions = { set_nhop; drop; }
		implementation = ecmp_profile;
		default_action = drop;
	}

	@hidden table tagged {
		key = { hdr.vlans[0].isValid() : exact; }
		actions = { NoAction; }
	}

	apply {
		bit<32> h;
		tuple<bit<8>, bool> t = { 1, true };

		hash(meta.hash_val, HashAlgorithm.crc32, 32w0,
		     { hdr.ip.v4.srcAddr, hdr.ip.v4.dstAddr, hdr.l4.srcPort }, 32w1024);
		hash(h, HashAlgorithm.crc16, (bit<16>)0, { hdr.eth.src }, (bit<32>)65536);
		idx = meta.hash_val & 1023;
		flow_reg.read(meta.reg_val, idx);
		flow_reg.write(idx, meta.reg_val + 1);
		port_meter.execute_meter((bit<32>)sm.ingress_port, meta.color);
		random(meta.color, 0, 7);
		meta.c = Color.Green;
		meta.ifx = (ifindex_t)32w5;
		meta.pair = t;
		meta.seen = meta.pair[1];
		switch (acl.apply().action_run) {
		permit: {
			acl_hits.count(idx);
		}
		deny:
		NoAction: { }
		}
		if (!tagged.apply().hit) {
			switch (hdr.eth.etherType) {
			0x0800: { ecmp.apply(); }
			0x86dd: { exit; }
			default: { }
			}
		}
		switch (meta.c) {
		Color.Red: { drop(); }
		default: { }
		}
		if (hdr.vlans[0].isValid() && hdr.vlans[0].vid != 0)
			hdr.vlans[0].vid = 0;
		sub.apply(hdr, TTL_MIN);
		hdr.l4.srcPort = swap_bytes(hdr.l4.srcPort);
		hdr.ip.v4.ttl = max8(hdr.ip.v4.ttl, 8w1);
		hdr.ip.v4.diffserv = hdr.ip.v4.diffserv[7:2] ++ 2w0;
		hdr.ip.v4.identification = (hdr.ip.v4.identification << SHIFT) >> 1;
		hdr.ip.v4.totalLen = hdr.ip.v4.ihl == 5 ? 16w20 : (bit<16>)hdr.ip.v4.ihl * 4;
		hdr.eth.etherType = hdr.eth.etherType & MASK16 | ~MASK16 & 0x00ff;
		if (hdr.ip.v4.protocol == Proto.TCP || hdr.ip.v4.protocol == 17)
			meta.l4_sport = (bit<16>)(hdr.ip.v4.protocol);
		if (sm.parser_error != error.NoError)
			drop();
		if (hdr.ip.v6.isValid())
			hdr.ip.v6.srcAddr = hdr.ip.v6.dstAddr ^ 128w1;
		hdr.vlans[1].setInvalid();
		hdr.vlans.push_front(1);
		hdr.vlans[0] = { 0, 0, 10, 0x0800 };
		hdr.l4 = { srcPort = 1, dstPort = 2 };
		hdr.opts.setValid();
		{
			bit<8> local = (bit<8>)BIG[7:0];

			meta.color = local;
		}
		log_msg("ingress port {}", { sm.ingress_port });
		;
	}
}

control FEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
	apply {
		if (sm.instance_type == 1)
			truncate(64);
		clone(CloneType.E2E, 100);
	}
}

control FCompute(inout headers_t hdr, inout meta_t meta) {
	apply {
		update_checksum(hdr.ip.v4.isValid(),
			{ hdr.ip.v4.version, hdr.ip.v4.ihl, hdr.ip.v4.diffserv,
			  hdr.ip.v4.totalLen, hdr.ip.v4.identification, hdr.ip.v4.flags,
			  hdr.ip.v4.fragOffset, hdr.ip.v4.ttl, hdr.ip.v4.protocol,
			  hdr.ip.v4.srcAddr, hdr.ip.v4.dstAddr },
			hdr.ip.v4.hdrChecksum, HashAlgorithm.csum16);
	}
}

control FDeparser(packet_out pkt, in headers_t hdr) {
	apply {
		pkt.emit(hdr.eth);
		pkt.emit(hdr.vlans);
		pkt.emit(hdr.ip);
		pkt.emit(hdr.opts);
		pkt.emit(hdr.l4);
	}
}

@name("main_pkg")
V1Switch(FParser(), FVerify(), FIngress(), FEgress(), FCompute(), FDeparser()) main;
