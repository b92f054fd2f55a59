#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the STF tests of examples/ (examples/NAME/NAME.stf) with expected
outputs computed here: IPv4 and L4 checksums, CRC-16/ARC (v1model crc16),
CRC-32 (crc32) and the Internet checksum (csum16), as BMv2 computes them.

  mkstf.py            rewrite every example's .stf
  mkstf.py NAME...    only these
  mkstf.py --check    write nothing; exit 1 if a .stf differs from what
                      this script generates (after editing either one)
"""
import os
import struct
import sys
import zlib

# --- hashes and checksums, as BMv2 (and lib/pisa_hash.c) compute them ---

def crc16(b):
    """CRC-16/ARC: reflected polynomial 0x8005, init 0, no final xor."""
    crc = 0
    for x in b:
        crc ^= x
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc

def crc32(b):
    """CRC-32 (ISO-HDLC, zlib's)."""
    return zlib.crc32(bytes(b)) & 0xffffffff

def csum16(b):
    """The Internet checksum (RFC 1071) over b, odd length padded with 0."""
    if len(b) % 2:
        b = b + b'\0'
    s = sum(struct.unpack('!%dH' % (len(b)//2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff

# --- packet building: each returns the bytes of one header ---

def mac(s):
    return bytes(int(x, 16) for x in s.split(':'))

def ip(s):
    return bytes(int(x) for x in s.split('.'))

def eth(dst, src, t):
    return mac(dst) + mac(src) + struct.pack('!H', t)

def ipv4(src, dst, proto, plen, ttl=64, tos=0, ident=1, ihl=5, csum=None, opts=b''):
    tot = 4 * ihl + plen
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, tos, tot, ident, 0x4000, ttl, proto, 0,
                    ip(src), ip(dst)) + opts
    c = csum16(h) if csum is None else csum
    return h[:10] + struct.pack('!H', c) + h[12:]

def l4sum(src, dst, proto, seg):
    ph = ip(src) + ip(dst) + struct.pack('!BBH', 0, proto, len(seg))
    return csum16(ph + seg)

def tcp(src, dst, sp, dp, payload=b'', seq=1, flags=0x02):
    h = struct.pack('!HHIIBBHHH', sp, dp, seq, 0, 0x50, flags, 8192, 0, 0)
    c = l4sum(src, dst, 6, h + payload)
    return h[:16] + struct.pack('!H', c) + h[18:] + payload

def udp(src, dst, sp, dp, payload=b''):
    h = struct.pack('!HHHH', sp, dp, 8 + len(payload), 0)
    c = l4sum(src, dst, 17, h + payload) or 0xffff
    return h[:6] + struct.pack('!H', c) + payload

def icmp_echo(ident=1, seq=1, payload=b''):
    h = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + payload
    c = csum16(h)
    return h[:2] + struct.pack('!H', c) + h[4:]

def hx(*parts):
    """STF packet data: each header's bytes in hex, headers apart."""
    return ' '.join(p.hex() for p in parts)

def tuple5(src, dst, proto, sp, dp):
    """The 13 bytes srcAddr ++ dstAddr ++ protocol ++ srcPort ++ dstPort."""
    return ip(src) + ip(dst) + struct.pack('!BHH', proto, sp, dp)


def gen_l2_switch():
    H = {n: '02:00:00:00:00:0%d' % n for n in range(1, 6)}
    pay = bytes(range(0x10, 0x10 + 46))   # 46 bytes: a 60-byte frame
    out = []
    P = out.append
    P("""# l2_switch STF: 4 hosts h1..h4 (02:00:00:00:00:0N) on ports 1..4.
# The control plane has learnt h1..h3 (smac + dmac) and h4 only in dmac.
# Multicast group 1 = one node (rid 1) on ports 1..4.
# Digests cannot be checked by STF: case 3 only shows that forwarding goes on.

mc_mgrp_create 1
mc_node_create 1 1 2 3 4
mc_node_associate 1 0

add smac hdr.ethernet.srcAddr:0x020000000001 NoAction()
add smac hdr.ethernet.srcAddr:0x020000000002 NoAction()
add smac hdr.ethernet.srcAddr:0x020000000003 NoAction()
add dmac hdr.ethernet.dstAddr:0x020000000001 forward(port:1)
add dmac hdr.ethernet.dstAddr:0x020000000002 forward(port:2)
add dmac hdr.ethernet.dstAddr:0x020000000003 forward(port:3)
add dmac hdr.ethernet.dstAddr:0x020000000004 forward(port:4)
""")
    def case(title, inport, p, outs):
        P("# " + title)
        P("packet %d %s" % (inport, p))
        for q in outs:
            P("expect %d %s $" % (q, p))
        P("")
    case("1. h1 -> h2, both known: unicast out port 2 only", 1, hx(eth(H[2], H[1], 0x88b5), pay), [2])
    case("2. h1 -> unknown 02:00:00:00:00:05: flooded to 2, 3, 4, not back to 1", 1,
         hx(eth(H[5], H[1], 0x88b5), pay), [2, 3, 4])
    case("3. h4 -> h1: smac miss (digest to the CPU), still forwarded to port 1", 4,
         hx(eth(H[1], H[4], 0x88b5), pay), [1])
    arp = bytes.fromhex('0001080006040001') + mac(H[2]) + ip('10.0.0.2') + bytes(6) + ip('10.0.0.3')
    case("4. broadcast ARP request from h2: flooded to 1, 3, 4", 2,
         hx(eth('ff:ff:ff:ff:ff:ff', H[2], 0x0806), arp, bytes(18)), [1, 3, 4])
    return '\n'.join(out).rstrip() + '\n'


def gen_ipv4_router():
    out = []; P = out.append
    P("""# ipv4_router STF: router ports 1..3 have MACs 02:00:00:00:ff:0N.
# port 1: h1 10.0.1.1 (02:00:00:00:01:01); port 2: 10.0.2.0/24 via 02:00:00:00:02:02;
# port 3: the rest of 10.0.0.0/16 via router 02:00:00:00:03:03. No default route.

add ipv4_lpm hdr.ipv4.dstAddr:0x0a000101 set_nhop(nhop_mac:0x020000000101, port:1)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a0002** set_nhop(nhop_mac:0x020000000202, port:2)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a00**** set_nhop(nhop_mac:0x020000000303, port:3)
add port_mac standard_metadata.egress_port:1 set_smac(smac:0x02000000ff01)
add port_mac standard_metadata.egress_port:2 set_smac(smac:0x02000000ff02)
add port_mac standard_metadata.egress_port:3 set_smac(smac:0x02000000ff03)
""")
    HOSTMAC = {1: '02:00:00:00:01:01', 2: '02:00:00:00:02:02', 3: '02:00:00:00:03:03'}
    def pkt(src, dst, ttl, inport, **kw):
        u = udp(src, dst, 1234, 5678, b'openpisa router')
        i = ipv4(src, dst, 17, len(u), ttl=ttl, **kw)
        e = eth('02:00:00:00:ff:%02x' % inport, HOSTMAC[inport], 0x0800)
        return e, i, u
    def routed(src, dst, ttl, inport, outport, **kw):
        e, i, u = pkt(src, dst, ttl, inport, **kw)
        i2 = ipv4(src, dst, 17, len(u), ttl=ttl - 1, **kw)
        e2 = eth(HOSTMAC[outport], '02:00:00:00:ff:%02x' % outport, 0x0800)
        return hx(e, i, u), hx(e2, i2, u)
    def case(title, inport, p, outs=()):
        P("# " + title); P("packet %d %s" % (inport, p))
        for q, e in outs: P("expect %d %s $" % (q, e))
        P("")
    p, e = routed('10.0.1.1', '10.0.2.2', 64, 1, 2)
    case("1. h1 -> 10.0.2.2: /24 wins over /16, out port 2, TTL 64 -> 63, new checksum", 1, p, [(2, e)])
    p, e = routed('10.0.2.2', '10.0.1.1', 2, 2, 1)
    case("2. 10.0.2.2 -> h1: /32 route, TTL 2 -> 1 (still forwarded)", 2, p, [(1, e)])
    p, e = routed('10.0.1.1', '10.0.7.7', 64, 1, 3)
    case("3. h1 -> 10.0.7.7: only the /16 matches, out port 3", 1, p, [(3, e)])
    e_, i, u = pkt('10.0.1.1', '192.168.0.1', 64, 1)
    case("4. h1 -> 192.168.0.1: no route, dropped", 1, hx(e_, i, u))
    e_, i, u = pkt('10.0.1.1', '10.0.2.2', 1, 1)
    case("5. TTL 1: dropped", 1, hx(e_, i, u))
    e_, i, u = pkt('10.0.1.1', '10.0.2.2', 0, 1)
    case("6. TTL 0: dropped", 1, hx(e_, i, u))
    e_, i, u = pkt('10.0.1.1', '10.0.2.2', 64, 1)
    bad = i[:10] + bytes([i[10] ^ 0x01, i[11]]) + i[12:]
    case("7. wrong header checksum (checksum_error = 1): dropped", 1, hx(e_, bad, u))
    u = udp('10.0.1.1', '10.0.2.2', 1234, 5678, b'openpisa router')
    i = ipv4('10.0.1.1', '10.0.2.2', 17, len(u), ihl=6, opts=bytes([1, 1, 1, 0]))
    case("8. IPv4 options (ihl 6): parser error IPv4OptionsNotSupported, ingress drops it", 1,
         hx(eth('02:00:00:00:ff:01', HOSTMAC[1], 0x0800), i, u))
    arp = bytes.fromhex('0001080006040001') + mac(HOSTMAC[1]) + ip('10.0.1.1') + bytes(6) + ip('10.0.1.254')
    case("9. not IPv4 (ARP): dropped", 1, hx(eth('ff:ff:ff:ff:ff:ff', HOSTMAC[1], 0x0806), arp, bytes(18)))
    return '\n'.join(out).rstrip() + '\n'


def gen_tunnel():
    out = []; P = out.append
    P("""# tunnel STF: s1 is the edge switch of site 1.
# port 1: h1 10.0.1.1 (02:00:00:00:01:01); port 2: the overlay uplink;
# port 3: a local subnet 10.0.3.0/24 behind 02:00:00:00:03:03.
# Site 2 (10.0.2.0/24) is reached through tunnel 2; tunnel 1 ends here.

add tunnel_encap hdr.ipv4.dstAddr:0x0a0002** encap(tun_id:2)
add tunnel_fwd hdr.tunnel.tun_id:2 tunnel_forward(port:2)
add tunnel_fwd hdr.tunnel.tun_id:1 tunnel_exit(dmac:0x020000000101, port:1)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a0003** ipv4_forward(dmac:0x020000000303, port:3)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a000101 ipv4_forward(dmac:0x020000000101, port:1)
""")
    S1 = '02:00:00:00:ff:01'
    def inner(src, dst):
        u = udp(src, dst, 4000, 4001, b'tunnelled data')
        return ipv4(src, dst, 17, len(u)) + u
    def tun(tid, hops, t=0x0800):
        return struct.pack('!HBBH', tid, hops, 0, t)
    def case(title, inport, p, outs=()):
        P("# " + title); P("packet %d %s" % (inport, p))
        for q, e in outs: P("expect %d %s $" % (q, e))
        P("")
    x = inner('10.0.1.1', '10.0.2.2')
    case("1. h1 -> 10.0.2.2: encapsulated in tunnel 2 (hops 0, +1 on forwarding), out port 2", 1,
         hx(eth(S1, '02:00:00:00:01:01', 0x0800), x),
         [(2, hx(eth(S1, '02:00:00:00:01:01', 0x88b5), tun(2, 1), x))])
    x = inner('10.0.2.2', '10.0.1.1')
    case("2. tunnel 1 from the overlay: decapsulated, EtherType restored, to h1 on port 1", 2,
         hx(eth(S1, '02:00:00:00:fe:02', 0x88b5), tun(1, 3), x),
         [(1, hx(eth('02:00:00:00:01:01', '02:00:00:00:fe:02', 0x0800), x))])
    x = inner('10.0.3.3', '10.0.2.9')
    case("3. transit: tunnel 2 arriving on port 3 keeps its header, hops 1 -> 2, out port 2", 3,
         hx(eth(S1, '02:00:00:00:03:03', 0x88b5), tun(2, 1), x),
         [(2, hx(eth(S1, '02:00:00:00:03:03', 0x88b5), tun(2, 2), x))])
    x = inner('10.0.2.2', '10.0.9.9')
    case("4. unknown tunnel 9: dropped", 2, hx(eth(S1, '02:00:00:00:fe:02', 0x88b5), tun(9, 1), x))
    x = inner('10.0.1.1', '10.0.3.3')
    case("5. h1 -> 10.0.3.3: no tunnel covers it, plain IPv4 forwarding to port 3", 1,
         hx(eth(S1, '02:00:00:00:01:01', 0x0800), x),
         [(3, hx(eth('02:00:00:00:03:03', '02:00:00:00:01:01', 0x0800), x))])
    x = inner('10.0.1.1', '192.0.2.1')
    case("6. h1 -> 192.0.2.1: neither a tunnel nor a route: dropped", 1,
         hx(eth(S1, '02:00:00:00:01:01', 0x0800), x))
    return '\n'.join(out).rstrip() + '\n'


def gen_calculator():
    out = []; P = out.append
    P("""# calculator STF: h1 on port 1, h2 on port 2 send requests to the switch
# (02:00:00:00:ff:00). The operators are const entries: no table setup.
""")
    SW = '02:00:00:00:ff:00'
    H = {1: '02:00:00:00:00:01', 2: '02:00:00:00:00:02'}
    def req(op, a, b, magic=0x43, ver=1, status=0, result=0):
        return struct.pack('!BBBBIII', magic, ver, op, status, a, b, result)
    def case(title, inport, p, outs=()):
        P("# " + title); P("packet %d %s" % (inport, p))
        for q, e in outs: P("expect %d %s $" % (q, e))
        P("")
    M = 0xffffffff
    for i, (op, a, b, r, what) in enumerate([
            (0x2b, 1000000, 234567, (1000000 + 234567) & M, "1000000 + 234567"),
            (0x2b, 0xffffffff, 2, (0xffffffff + 2) & M, "0xffffffff + 2 wraps to 1"),
            (0x2d, 3, 5, (3 - 5) & M, "3 - 5 wraps to 0xfffffffe"),
            (0x26, 0xf0f0ff00, 0x0ff0f0f0, 0xf0f0ff00 & 0x0ff0f0f0, "0xf0f0ff00 & 0x0ff0f0f0"),
            (0x7c, 0x00ff0000, 0x0000ff01, 0x00ff0000 | 0x0000ff01, "0x00ff0000 | 0x0000ff01"),
            (0x5e, 0x12345678, 0xffff0000, 0x12345678 ^ 0xffff0000, "0x12345678 ^ 0xffff0000")]):
        port = 1 + (i % 2)
        case("%d. %s, from port %d, answered on port %d" % (i + 1, what, port, port), port,
             hx(eth(SW, H[port], 0x88b5), req(op, a, b)),
             [(port, hx(eth(H[port], SW, 0x88b5), req(op, a, b, result=r)))])
    case("7. unknown operator '*': status 1, result 0 (the request's result field was 7)", 1,
         hx(eth(SW, H[1], 0x88b5), req(0x2a, 6, 7, result=7)),
         [(1, hx(eth(H[1], SW, 0x88b5), req(0x2a, 6, 7, status=1, result=0)))])
    case("8. EtherType 0x88B5 but magic 'X': not a calculator request, dropped", 1,
         hx(eth(SW, H[1], 0x88b5), req(0x2b, 1, 2, magic=0x58)))
    case("9. version 2: not understood, dropped", 2,
         hx(eth(SW, H[2], 0x88b5), req(0x2b, 1, 2, ver=2)))
    case("10. calculator bytes under another EtherType (0x0800): dropped", 2,
         hx(eth(SW, H[2], 0x0800), req(0x2b, 1, 2)))
    return '\n'.join(out).rstrip() + '\n'


def gen_ecn():
    out = []; P = out.append
    P("""# ecn STF: hosts h1 10.0.1.1, h2 10.0.2.2, h3 10.0.3.3 on ports 1, 2, 3
# (MAC 02:00:00:00:00:0N), switch MAC 02:00:00:00:ff:00.
# The model's queues (and BMv2's, for packets sent one at a time) are empty, so
# with the default threshold (10 packets) nothing is marked. Port 3 gets threshold 0
# so that the marking path (enq_qdepth >= threshold) runs too.

add ipv4_lpm hdr.ipv4.dstAddr:0x0a000101 ipv4_forward(dmac:0x020000000001, port:1)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a000202 ipv4_forward(dmac:0x020000000002, port:2)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a000303 ipv4_forward(dmac:0x020000000003, port:3)
add ecn_threshold standard_metadata.egress_port:3 set_threshold(qdepth:0)
""")
    SW = '02:00:00:00:ff:00'
    IP = {1: '10.0.1.1', 2: '10.0.2.2', 3: '10.0.3.3'}
    def mk(a, b, ecn_in, ecn_out, dscp=10):
        t = tcp(IP[a], IP[b], 40000 + a, 80, b'ecn test')
        i = ipv4(IP[a], IP[b], 6, len(t), tos=dscp << 2 | ecn_in)
        o = ipv4(IP[a], IP[b], 6, len(t), tos=dscp << 2 | ecn_out, ttl=63)
        return (hx(eth(SW, '02:00:00:00:00:%02x' % a, 0x0800), i, t),
                hx(eth('02:00:00:00:00:%02x' % b, SW, 0x0800), o, t))
    def case(title, a, b, ei, eo):
        p, e = mk(a, b, ei, eo)
        P("# " + title); P("packet %d %s" % (a, p)); P("expect %d %s $" % (b, e)); P("")
    case("1. h1 -> h2, ECT(0), queue below threshold: not marked (TTL 63, new checksum)", 1, 2, 2, 2)
    case("2. h1 -> h2, ECT(1): not marked", 1, 2, 1, 1)
    case("3. h1 -> h2, Not-ECT: untouched", 1, 2, 0, 0)
    case("4. h2 -> h1, already CE: stays CE", 2, 1, 3, 3)
    case("5. h1 -> h3, ECT(0), port 3 threshold 0: marked CE", 1, 3, 2, 3)
    case("6. h2 -> h3, ECT(1), port 3 threshold 0: marked CE", 2, 3, 1, 3)
    case("7. h1 -> h3, Not-ECT, port 3 threshold 0: not ECN-capable, not marked", 1, 3, 0, 0)
    return '\n'.join(out).rstrip() + '\n'


def gen_dscp_remark():
    out = []; P = out.append
    P("""# dscp_remark STF: the wire joins ports 1 and 2 (const entries).
# TCP -> DSCP 10 (AF11, class 0), UDP -> DSCP 46 (EF, class 1), ICMP -> DSCP 8 (CS1, class 2).
# Class 1's meter: committed burst 1 packet, peak burst 2 packets, rates so small
# (1e-9 packets/us: BMv2 adds a whole token only every 1000 s) that no token comes
# back during the test: the 1st UDP packet is green, the 2nd yellow (DSCP 0), the
# 3rd red (dropped), as RFC 2698 says.
# Classes 0 and 2 have no rates set: always green.

add dscp_by_proto hdr.ipv4.protocol:6 set_dscp(dscp:10, class_id:0)
add dscp_by_proto hdr.ipv4.protocol:17 set_dscp(dscp:46, class_id:1)
add dscp_by_proto hdr.ipv4.protocol:1 set_dscp(dscp:8, class_id:2)
meter_set_rates class_meter 1 0.000000001:1 0.000000001:2
""")
    A, B = '02:00:00:00:00:01', '02:00:00:00:00:02'
    def case(title, inport, outport, proto, dscp_in, dscp_out, n=0, drop=False):
        if proto == 6:
            l4 = tcp('10.1.0.1', '10.2.0.2', 33000 + n, 443, b'remark')
        elif proto == 17:
            l4 = udp('10.1.0.1', '10.2.0.2', 5004, 5004 + n, b'voice frame')
        elif proto == 1:
            l4 = icmp_echo(7, n, b'ping')
        else:
            l4 = bytes(8) + b'other'
        e = eth(B, A, 0x0800) if inport == 1 else eth(A, B, 0x0800)
        i = ipv4('10.1.0.1', '10.2.0.2', proto, len(l4), tos=dscp_in << 2, ident=0x100 + n)
        P("# " + title)
        P("packet %d %s" % (inport, hx(e, i, l4)))
        if not drop:
            o = ipv4('10.1.0.1', '10.2.0.2', proto, len(l4), tos=dscp_out << 2, ident=0x100 + n)
            P("expect %d %s $" % (outport, hx(e, o, l4)))
        P("")
    case("1. TCP, DSCP 0 -> 10, port 1 -> 2", 1, 2, 6, 0, 10, 1)
    case("2. TCP, DSCP 46 (claimed EF) -> 10, port 2 -> 1", 2, 1, 6, 46, 10, 2)
    case("3. ICMP, DSCP 0 -> 8", 1, 2, 1, 0, 8, 3)
    case("4. UDP #1 (DSCP 34): green, DSCP 46", 1, 2, 17, 34, 46, 4)
    case("5. UDP #2 (DSCP 34): yellow (committed bucket empty), best effort: DSCP 0", 1, 2, 17, 34, 0, 5)
    case("6. UDP #3: red (peak bucket empty), dropped", 1, 2, 17, 34, 0, 6, drop=True)
    case("7. GRE (47): no entry, DSCP 12 kept (checksum unchanged)", 2, 1, 47, 12, 12, 7)
    arp = bytes.fromhex('0001080006040001') + mac(A) + ip('10.1.0.1') + bytes(6) + ip('10.2.0.2')
    P("# 8. ARP: not IPv4, just crosses the wire")
    p = hx(eth('ff:ff:ff:ff:ff:ff', A, 0x0806), arp)
    P("packet 1 " + p); P("expect 2 " + p + " $"); P("")
    P("# 9. port 3 is not part of the wire: dropped")
    P("packet 3 " + hx(eth(B, A, 0x0806), arp))
    return '\n'.join(out).rstrip() + '\n'


def gen_ecmp():
    out = []; P = out.append
    P("""# ecmp STF: clients on port 1; group 1 (10.1.0.0/16) has 4 next hops on ports
# 2..5 (routers 02:00:00:00:0N:00), group 2 (10.2.0.0/16) has 2 on ports 4 and 5.
# The switch's MAC on port N is 02:00:00:00:ff:0N.
# Member = crc16(srcAddr ++ dstAddr ++ protocol ++ srcPort ++ dstPort) % group size,
# CRC-16/ARC over the 13 bytes; each case gives the CRC.

add ecmp_group hdr.ipv4.dstAddr:0x0a01**** set_ecmp_group(group:1, num_nhops:4)
add ecmp_group hdr.ipv4.dstAddr:0x0a02**** set_ecmp_group(group:2, num_nhops:2)""")
    NH = {}
    for m in range(4):
        NH[(1, m)] = 2 + m
    for m in range(2):
        NH[(2, m)] = 4 + m
    for (g, m), port in sorted(NH.items()):
        P("add ecmp_nhop meta.ecmp_group:%d meta.ecmp_member:%d "
          "set_nhop(smac:0x02000000ff%02x, dmac:0x020000000%d00, port:%d)"
          % (g, m, port, port, port))
    P("")
    def flow(n, src, dst, proto, sp, dp, g, size):
        if proto == 6:
            l4 = tcp(src, dst, sp, dp, b'flow')
        elif proto == 17:
            l4 = udp(src, dst, sp, dp, b'flow')
        else:
            l4 = icmp_echo(1, n, b'flow')
        key = tuple5(src, dst, proto, sp, dp)
        h = crc16(key)
        m = h % size
        port = NH[(g, m)]
        i = ipv4(src, dst, proto, len(l4), ident=n)
        o = ipv4(src, dst, proto, len(l4), ident=n, ttl=63)
        P("# %d. %s -> %s proto %d ports %d -> %d: crc16 0x%04x, %% %d = member %d, port %d"
          % (n, src, dst, proto, sp, dp, h, size, m, port))
        P("packet 1 " + hx(eth('02:00:00:00:ff:01', '02:00:00:00:00:01', 0x0800), i, l4))
        P("expect %d %s $" % (port, hx(eth('02:00:00:00:0%d:00' % port, '02:00:00:00:ff:%02x' % port, 0x0800), o, l4)))
        P("")
        return m
    n = 1
    count = {}
    first = None
    # TCP flows from 10.0.0.1 to web servers in 10.1.0.0/16: two per member
    for k in range(200):
        sp = 49152 + (k * 7919) % 16384
        dst = '10.1.0.%d' % (10 + k % 7)
        key = tuple5('10.0.0.1', dst, 6, sp, 80)
        m = crc16(key) % 4
        if count.get(m, 0) >= 2:
            continue
        count[m] = count.get(m, 0) + 1
        flow(n, '10.0.0.1', dst, 6, sp, 80, 1, 4)
        if first is None:
            first = (n, dst, sp)
        n += 1
        if len(count) == 4 and all(v == 2 for v in count.values()):
            break
    flow(n, '10.0.0.2', '10.1.0.20', 17, 5353, 53, 1, 4); n += 1
    flow(n, '10.0.0.3', '10.1.0.30', 1, 0, 0, 1, 4); n += 1
    for sp in (1000, 1001, 1002):
        flow(n, '10.0.0.1', '10.2.0.5', 6, sp, 22, 2, 2); n += 1
    fn, fdst, fsp = first
    P("# the flow of case %d again: the same path" % fn)
    flow(n, '10.0.0.1', fdst, 6, fsp, 80, 1, 4)
    n += 1
    P("# %d. 192.168.1.1: no group, dropped" % n)
    u = udp('10.0.0.1', '192.168.1.1', 1, 2, b'flow')
    P("packet 1 " + hx(eth('02:00:00:00:ff:01', '02:00:00:00:00:01', 0x0800), ipv4('10.0.0.1', '192.168.1.1', 17, len(u)), u))
    return '\n'.join(out).rstrip() + '\n'


def gen_ecmp_selector():
    out = []; P = out.append
    # members 0..3: next hops on ports 2..5; member 4: the unrouted uplink on port 6
    MB = {m: 2 + m for m in range(5)}
    P("""# ecmp_selector STF: clients on port 1; next hops (routers 02:00:00:00:0N:00) on
# ports 2..5, one member each (handles 0..3); member 4 is the uplink on port 6, used
# unrouted as the default. The switch's MAC on port N is 02:00:00:00:ff:0N.
# Group 0 = members {0, 1, 2, 3} for 10.1.0.0/16, group 1 = {2, 3} for 10.2.0.0/16,
# 10.3.0.1/32 goes to member 0 alone.
# Member = the (crc16 % n)-th smallest handle of the group (n members), crc16 over
# srcAddr ++ dstAddr ++ protocol ++ srcPort ++ dstPort (CRC-16/ARC, 13 bytes), as BMv2.
# A hit decrements the TTL; a miss runs the default (drop, then member 4: TTL kept).
""")
    for m, port in sorted(MB.items()):
        P("act_prof_create_member ecmp_selector set_nhop 02:00:00:00:ff:%02x 02:00:00:00:%02x:00 %d"
          % (port, port, port))
    P("act_prof_create_group ecmp_selector")
    P("act_prof_create_group ecmp_selector")
    for m in range(4):
        P("act_prof_add_member_to_group ecmp_selector %d 0" % m)
    for m in (2, 3):
        P("act_prof_add_member_to_group ecmp_selector %d 1" % m)
    P("table_indirect_add_with_group ecmp 10.1.0.0/16 => 0")
    P("table_indirect_add_with_group ecmp 10.2.0.0/16 => 1")
    P("table_indirect_add ecmp 10.3.0.1/32 => 0")
    P("")
    groups = {0: [0, 1, 2, 3], 1: [2, 3]}
    ports = dict(MB)
    n = [1]

    def flow(src, dst, proto, sp, dp, members, hit=True):
        if proto == 6:
            l4 = tcp(src, dst, sp, dp, b'flow')
        elif proto == 17:
            l4 = udp(src, dst, sp, dp, b'flow')
        else:
            l4 = icmp_echo(1, n[0], b'flow')
        i = ipv4(src, dst, proto, len(l4), ident=n[0])
        o = ipv4(src, dst, proto, len(l4), ident=n[0], ttl=63 if hit else 64)
        if members is None:
            P("# %d. %s -> %s: no route, no default member: dropped" % (n[0], src, dst))
            P("packet 1 " + hx(eth('02:00:00:00:ff:01', '02:00:00:00:00:01', 0x0800), i, l4))
        else:
            h = crc16(tuple5(src, dst, proto, sp, dp))
            k = h % len(members)
            m = members[k]
            port = ports[m]
            if len(members) > 1:
                P("# %d. %s -> %s proto %d ports %d -> %d: crc16 0x%04x %% %d = %d: member %d, port %d"
                  % (n[0], src, dst, proto, sp, dp, h, len(members), k, m, port))
            else:
                P("# %d. %s -> %s: member %d, port %d%s" % (n[0], src, dst, m, port,
                                                          "" if hit else ", a miss: TTL kept"))
            P("packet 1 " + hx(eth('02:00:00:00:ff:01', '02:00:00:00:00:01', 0x0800), i, l4))
            P("expect %d %s $" % (port, hx(eth('02:00:00:00:%02x:00' % port, '02:00:00:00:ff:%02x' % port, 0x0800), o, l4)))
        P("")
        n[0] += 1

    def flows_over(g, want, dst_prefix, proto=6):
        """want flows per member of group g, TCP ports spread (CRC-16 is linear)."""
        count = {}
        for k in range(400):
            sp = 49152 + (k * 7919) % 16384
            dst = dst_prefix + '%d' % (10 + k % 7)
            mem = groups[g]
            m = mem[crc16(tuple5('10.0.0.1', dst, proto, sp, 80)) % len(mem)]
            if count.get(m, 0) >= want:
                continue
            count[m] = count.get(m, 0) + 1
            flow('10.0.0.1', dst, proto, sp, 80, mem)
            if len(count) == len(mem) and all(v == want for v in count.values()):
                break

    flows_over(0, 2, '10.1.0.')
    flow('10.0.0.2', '10.1.0.20', 17, 5353, 53, groups[0])
    flow('10.0.0.3', '10.1.0.30', 1, 0, 0, groups[0])
    flows_over(1, 1, '10.2.0.')
    flow('10.0.0.1', '10.3.0.1', 6, 1234, 80, [0])
    flow('10.0.0.1', '192.168.1.1', 17, 1, 2, None, hit=False)
    P("table_indirect_set_default ecmp 4")
    flow('10.0.0.1', '192.168.1.1', 17, 1, 2, [4], hit=False)
    P("# member 1 leaves group 0: its flows spread over {0, 2, 3}")
    P("act_prof_remove_member_from_group ecmp_selector 1 0")
    groups[0] = [0, 2, 3]
    flows_over(0, 1, '10.1.0.')
    P("# member 3 moves to port 7 (in both groups); member 1 joins group 1")
    P("act_prof_modify_member ecmp_selector set_nhop 3 => 02:00:00:00:ff:07 02:00:00:00:07:00 7")
    ports[3] = 7
    P("act_prof_add_member_to_group ecmp_selector 1 1")
    groups[1] = [1, 2, 3]
    flows_over(1, 1, '10.2.0.')
    flows_over(0, 1, '10.1.0.')
    return '\n'.join(out).rstrip() + '\n'


def gen_firewall():
    out = []; P = out.append
    P("""# firewall STF: port 1 is the inside (10.0.1.0/24), port 2 the outside (all else).
# Bloom filter: 4096 one-bit cells per register; cell_a = crc16(5-tuple) % 4096,
# cell_b = crc32(5-tuple) % 4096 over srcAddr ++ dstAddr ++ protocol ++ srcPort ++ dstPort
# of the outgoing direction. The registers start all zero.

add ipv4_lpm hdr.ipv4.dstAddr:0x0a0001** set_port(port:1)
add ipv4_lpm hdr.ipv4.dstAddr:0x******** set_port(port:2)
add port_zone standard_metadata.ingress_port:1 set_zone(outside:0)
add port_zone standard_metadata.ingress_port:2 set_zone(outside:1)
""")
    IN_MAC, OUT_MAC = '02:00:00:00:00:01', '02:00:00:00:00:02'
    bits_a, bits_b = set(), set()
    def cells(src, dst, proto, sp, dp):
        k = tuple5(src, dst, proto, sp, dp)
        return crc16(k) % 4096, crc32(k) % 4096
    def pkt(title, src, dst, proto, sp=0, dp=0, n=0):
        if proto == 6:
            l4 = tcp(src, dst, sp, dp, b'', seq=n)
        elif proto == 17:
            l4 = udp(src, dst, sp, dp, b'query')
        else:
            l4 = icmp_echo(9, n, b'ping')
        inside = src.startswith('10.0.1.')
        e = eth(OUT_MAC, IN_MAC, 0x0800) if inside else eth(IN_MAC, OUT_MAC, 0x0800)
        p = hx(e, ipv4(src, dst, proto, len(l4), ident=n), l4)
        note = ''
        allowed = True
        if proto in (6, 17):
            if inside:
                a, b = cells(src, dst, proto, sp, dp)
                bits_a.add(a); bits_b.add(b)
                note = ' (sets cell_a %d, cell_b %d)' % (a, b)
            else:
                a, b = cells(dst, src, proto, dp, sp)
                allowed = a in bits_a and b in bits_b
                note = ' (cell_a %d %s, cell_b %d %s)' % (a, 'set' if a in bits_a else 'clear',
                                                          b, 'set' if b in bits_b else 'clear')
        elif not inside:
            allowed = False
        P("# %d. %s%s: %s" % (n, title, note, 'allowed' if allowed else 'dropped'))
        P("packet %d %s" % (1 if inside else 2, p))
        if allowed:
            P("expect %d %s $" % (2 if inside else 1, p))
        P("")
    pkt("outside 203.0.113.5:443 -> 10.0.1.10:40000 TCP, before any outgoing packet", '203.0.113.5', '10.0.1.10', 6, 443, 40000, 1)
    pkt("inside 10.0.1.10:40000 -> 203.0.113.5:443 TCP", '10.0.1.10', '203.0.113.5', 6, 40000, 443, 2)
    pkt("the reply 203.0.113.5:443 -> 10.0.1.10:40000", '203.0.113.5', '10.0.1.10', 6, 443, 40000, 3)
    pkt("203.0.113.5:444 -> 10.0.1.10:40000, another source port", '203.0.113.5', '10.0.1.10', 6, 444, 40000, 4)
    pkt("198.51.100.7:443 -> 10.0.1.10:40000, another server", '198.51.100.7', '10.0.1.10', 6, 443, 40000, 5)
    pkt("203.0.113.5:443 -> 10.0.1.10:40001, another inside port", '203.0.113.5', '10.0.1.10', 6, 443, 40001, 6)
    pkt("inside 10.0.1.11:5353 -> 192.0.2.53:53 UDP", '10.0.1.11', '192.0.2.53', 17, 5353, 53, 7)
    pkt("the UDP reply 192.0.2.53:53 -> 10.0.1.11:5353", '192.0.2.53', '10.0.1.11', 17, 53, 5353, 8)
    pkt("192.0.2.53:53 -> 10.0.1.11:5353 as TCP: another protocol, another flow", '192.0.2.53', '10.0.1.11', 6, 53, 5353, 9)
    pkt("ICMP echo from the inside", '10.0.1.10', '203.0.113.5', 1, n=10)
    pkt("ICMP from the outside: never let in", '203.0.113.5', '10.0.1.10', 1, n=11)
    pkt("the TCP reply again: the filter remembers", '203.0.113.5', '10.0.1.10', 6, 443, 40000, 12)
    return '\n'.join(out).rstrip() + '\n'


def gen_source_routing():
    out = []; P = out.append
    P("""# source_routing STF: one switch, ports 1..4. No tables: the packets carry their
# routes. Entry = bos (1 bit) + port (15 bits).
""")
    A, B = '02:00:00:00:00:01', '02:00:00:00:00:02'
    u = udp('10.0.0.1', '10.0.0.2', 7000, 7001, b'source routed')
    body = ipv4('10.0.0.1', '10.0.0.2', 17, len(u)) + u
    def hops(ports, last_bos=True):
        b = b''
        for i, p in enumerate(ports):
            bos = 1 if (last_bos and i == len(ports) - 1) else 0
            b += struct.pack('!H', bos << 15 | p)
        return b
    def case(title, inport, p, outs=()):
        P("# " + title); P("packet %d %s" % (inport, p))
        for q, e in outs: P("expect %d %s $" % (q, e))
        P("")
    case("1. route 2, 3, 1: out port 2, route 3, 1 left", 1,
         hx(eth(B, A, 0x88b6), hops([2, 3, 1]), body),
         [(2, hx(eth(B, A, 0x88b6), hops([3, 1]), body))])
    case("2. route 3 (bos): last hop, out port 3 as plain IPv4", 2,
         hx(eth(B, A, 0x88b6), hops([3]), body),
         [(3, hx(eth(B, A, 0x0800), body))])
    case("3. the longest route, 8 entries: out port 4, 7 left", 1,
         hx(eth(B, A, 0x88b6), hops([4, 1, 2, 3, 4, 1, 2, 3]), body),
         [(4, hx(eth(B, A, 0x88b6), hops([1, 2, 3, 4, 1, 2, 3]), body))])
    case("4. 9 entries: the stack overflows (StackOutOfBounds), ingress drops", 1,
         hx(eth(B, A, 0x88b6), hops([2, 3, 4, 1, 2, 3, 4, 1, 2]), body))
    case("5. first entry names port 0: dropped", 3,
         hx(eth(B, A, 0x88b6), hops([0, 2]), body))
    case("6. plain IPv4, no route: dropped", 4, hx(eth(B, A, 0x0800), body))
    return '\n'.join(out).rstrip() + '\n'


def gen_int_telemetry():
    out = []; P = out.append
    P("""# int_telemetry STF: this switch has id 7; h1 (02:00:00:00:00:01) on port 1,
# h2 (02:00:00:00:00:02) on port 2.
# The queue depth in a new record is written as ***** (20 bits, 5 nibbles): in
# pisa-model the queues are empty (0), but in BMv2 it depends on timing. Records
# already in the packet are checked exactly.

add l2_fwd hdr.ethernet.dstAddr:0x020000000001 forward(port:1)
add l2_fwd hdr.ethernet.dstAddr:0x020000000002 forward(port:2)
setdefault int_config set_switch_id(switch_id:7)
""")
    A, B = '02:00:00:00:00:01', '02:00:00:00:00:02'
    u = udp('10.0.0.1', '10.0.0.2', 9000, 9001, b'telemetry')
    body = ipv4('10.0.0.1', '10.0.0.2', 17, len(u)) + u
    def shim(count, maxc, exceeded=0):
        return struct.pack('!BBBH', count, maxc, exceeded << 7, 0x0800)
    def rec(sw, bos, q):
        return struct.pack('!I', sw << 24 | bos << 23 | q)
    def new(bos):
        return '07%s*****' % ('8' if bos else '0')
    def case(title, inport, outport, p, e):
        P("# " + title); P("packet %d %s" % (inport, p))
        if e is not None:
            P("expect %d %s $" % (outport, e))
        P("")
    E = hx(eth(B, A, 0x88b5))
    case("1. first hop: count 0 -> 1, one record (switch 7, bos 1)", 1, 2,
         hx(eth(B, A, 0x88b5), shim(0, 3), body),
         ' '.join([E, shim(1, 3).hex(), new(1), body.hex()]))
    case("2. second hop: switch 5 already recorded qdepth 3; count 1 -> 2, our record on top, bos 0", 1, 2,
         hx(eth(B, A, 0x88b5), shim(1, 3), rec(5, 1, 3), body),
         ' '.join([E, shim(2, 3).hex(), new(0), rec(5, 1, 3).hex(), body.hex()]))
    case("3. the sender's max_count (2) reached: only the exceeded flag is set", 1, 2,
         hx(eth(B, A, 0x88b5), shim(2, 2), rec(6, 0, 0x12345), rec(5, 1, 3), body),
         hx(eth(B, A, 0x88b5), shim(2, 2, 1), rec(6, 0, 0x12345), rec(5, 1, 3), body))
    case("4. three records, max 8: the fourth fills the stack", 1, 2,
         hx(eth(B, A, 0x88b5), shim(3, 8), rec(3, 0, 0), rec(2, 0, 1), rec(1, 1, 0xfffff), body),
         ' '.join([E, shim(4, 8).hex(), new(0), hx(rec(3, 0, 0), rec(2, 0, 1), rec(1, 1, 0xfffff), body)]))
    case("5. four records (MAX_RECORDS), max 8: no room, exceeded flag", 1, 2,
         hx(eth(B, A, 0x88b5), shim(4, 8), rec(4, 0, 9), rec(3, 0, 0), rec(2, 0, 1), rec(1, 1, 2), body),
         hx(eth(B, A, 0x88b5), shim(4, 8, 1), rec(4, 0, 9), rec(3, 0, 0), rec(2, 0, 1), rec(1, 1, 2), body))
    case("6. no INT shim (plain IPv4): forwarded unchanged, h2 -> h1", 2, 1,
         hx(eth(A, B, 0x0800), body), hx(eth(A, B, 0x0800), body))
    case("7. unknown destination: dropped", 1, 2,
         hx(eth('02:00:00:00:00:09', A, 0x88b5), shim(0, 3), body), None)
    return '\n'.join(out).rstrip() + '\n'


def gen_acl():
    out = []; P = out.append
    P("""# acl STF: port 1 the office 10.0.1.0/24, port 2 the servers 10.0.2.0/24
# (web 10.0.2.10, ssh bastion 10.0.2.22, dns 10.0.2.53), port 3 the internet,
# port 4 the monitor (mirror session 100).
# Priorities: the larger wins (STF; BMv2 gets 10000 - P). Keys left out are 0&&&0.
#  100 deny          src 10.0.1.66                   (a quarantined host)
#   50 allow_logged  src 10.0.1.0/24 dst 10.0.2.22 TCP dport 22
#   40 deny          TCP dport 22                    (no ssh anywhere else)
#   30 allow         dst 10.0.2.0/24 TCP dport 443
#   20 allow         dst 10.0.2.53 UDP dport 53
#   10 allow         src 10.0.1.0/24                 (the office may go anywhere)
#  default: deny
# deny and allow_logged clone the packet to the monitor: the I2E clone is the packet
# as it arrived (destination MAC 02:00:00:00:ff:00), not as ipv4_lpm rewrote it.

mirroring_add 100 4
add acl 100 hdr.ipv4.srcAddr:0x0a000142 deny()
add acl 50 hdr.ipv4.srcAddr:0x0a0001** hdr.ipv4.dstAddr:0x0a000216 hdr.ipv4.protocol:0x06 meta.dstPort:0x0016 allow_logged()
add acl 40 hdr.ipv4.protocol:0x06 meta.dstPort:0x0016 deny()
add acl 30 hdr.ipv4.dstAddr:0x0a0002** hdr.ipv4.protocol:0x06 meta.dstPort:0x01bb allow()
add acl 20 hdr.ipv4.dstAddr:0x0a000235 hdr.ipv4.protocol:0x11 meta.dstPort:0x0035 allow()
add acl 10 hdr.ipv4.srcAddr:0x0a0001** allow()
add ipv4_lpm hdr.ipv4.dstAddr:0x0a0001** set_nhop(dmac:0x020000000001, port:1)
add ipv4_lpm hdr.ipv4.dstAddr:0x0a0002** set_nhop(dmac:0x020000000002, port:2)
add ipv4_lpm hdr.ipv4.dstAddr:0x******** set_nhop(dmac:0x020000000003, port:3)
""")
    SW = '02:00:00:00:ff:00'
    def inport(a):
        return 1 if a.startswith('10.0.1.') else 2 if a.startswith('10.0.2.') else 3
    def case(n, title, src, dst, proto, dp=0, outp=None, logged=False):
        if proto == 6:
            l4 = tcp(src, dst, 50000 + n, dp, b'acl')
        elif proto == 17:
            l4 = udp(src, dst, 50000 + n, dp, b'acl')
        else:
            l4 = icmp_echo(3, n, b'acl')
        i = ipv4(src, dst, proto, len(l4), ident=n)
        src_mac = '02:00:00:00:00:%02x' % inport(src)
        p = hx(eth(SW, src_mac, 0x0800), i, l4)
        P("# %d. %s" % (n, title))
        P("packet %d %s" % (inport(src), p))
        if outp:
            P("expect %d %s $" % (outp, hx(eth('02:00:00:00:00:%02x' % outp, src_mac, 0x0800), i, l4)))
        if logged or not outp:
            P("expect 4 %s $" % p)
        P("")
    case(1, "10.0.1.5 -> bastion 10.0.2.22:22: allowed and logged (50 beats 40 and 10)",
         '10.0.1.5', '10.0.2.22', 6, 22, 2, logged=True)
    case(2, "10.0.1.5 -> 198.51.100.1:22: denied (40 beats 10)", '10.0.1.5', '198.51.100.1', 6, 22)
    case(3, "quarantined 10.0.1.66 -> web 10.0.2.10:443: denied (100 beats 30 and 10)", '10.0.1.66', '10.0.2.10', 6, 443)
    case(4, "internet 203.0.113.9 -> web 10.0.2.10:443: allowed (30)", '203.0.113.9', '10.0.2.10', 6, 443, 2)
    case(5, "internet 203.0.113.9 -> web 10.0.2.10:80: no entry, denied", '203.0.113.9', '10.0.2.10', 6, 80)
    case(6, "internet 203.0.113.9 -> dns 10.0.2.53 UDP 53: allowed (20)", '203.0.113.9', '10.0.2.53', 17, 53, 2)
    case(7, "internet 203.0.113.9 -> dns 10.0.2.53 TCP 53: denied (20 is UDP only)", '203.0.113.9', '10.0.2.53', 6, 53)
    case(8, "office 10.0.1.5 -> 192.0.2.1 ICMP: allowed (10), out to the internet", '10.0.1.5', '192.0.2.1', 1, 0, 3)
    case(9, "internet 203.0.113.9 -> bastion 10.0.2.22:22: denied (40; 50 wants the office)", '203.0.113.9', '10.0.2.22', 6, 22)
    case(10, "server 10.0.2.10 -> office 10.0.1.5 ICMP: no entry, denied", '10.0.2.10', '10.0.1.5', 1)
    return '\n'.join(out).rstrip() + '\n'


def gen_port_range():
    out = []; P = out.append
    P("""# port_range STF: clients arrive on port 5. Pools: port 2 well-known services,
# port 3 registered ports, port 4 media (UDP 16384-32767), port 1 everything else.
# All entries are const entries in the program (STF cannot add range entries).
""")
    C, SW = '02:00:00:00:00:05', '02:00:00:00:ff:00'
    def case(n, title, proto, dp, outp=None, dscp=None):
        src, dst = '198.51.100.%d' % n, '10.0.0.80'
        if proto == 6:
            l4 = tcp(src, dst, 40000 + n, dp, b'range')
        elif proto == 17:
            l4 = udp(src, dst, 40000 + n, dp, b'range')
        else:
            l4 = icmp_echo(4, n, b'range')
        i = ipv4(src, dst, proto, len(l4), ident=n, tos=0)
        e = eth(SW, C, 0x0800)
        P("# %d. %s" % (n, title))
        P("packet 5 %s" % hx(e, i, l4))
        if outp is not None:
            o = ipv4(src, dst, proto, len(l4), ident=n, tos=(dscp or 0) << 2)
            P("expect %d %s $" % (outp, hx(e, o, l4)))
        P("")
    case(1, "TCP 22 (0..1023): port 2, DSCP 26", 6, 22, 2, 26)
    case(2, "TCP 1023, the top of 0..1023: port 2", 6, 1023, 2, 26)
    case(3, "TCP 1024, the bottom of 1024..49151: port 3, DSCP 18", 6, 1024, 3, 18)
    case(4, "TCP 8000, the bottom of the blocked 8000..8099 (listed first): dropped", 6, 8000)
    case(5, "TCP 8080: blocked", 6, 8080)
    case(6, "TCP 8099, the top of the blocked range: dropped", 6, 8099)
    case(7, "TCP 8100, just above it: port 3", 6, 8100, 3, 18)
    case(8, "TCP 49151: port 3", 6, 49151, 3, 18)
    case(9, "TCP 49152: in no range, default: port 1, DSCP unchanged", 6, 49152, 1, 0)
    case(10, "UDP 53: the 53..53 entry comes before UDP 0..1023: port 2, DSCP 46", 17, 53, 2, 46)
    case(11, "UDP 123: UDP 0..1023, port 2, DSCP 26", 17, 123, 2, 26)
    case(12, "UDP 20000: media, port 4, DSCP 46", 17, 20000, 4, 46)
    case(13, "UDP 8080: TCP's blocked range does not apply to UDP; no UDP range: port 1", 17, 8080, 1, 0)
    case(14, "ICMP: not TCP or UDP, default: port 1", 1, 0, 1, 0)
    return '\n'.join(out).rstrip() + '\n'


GENERATORS = {
    'l2_switch': gen_l2_switch,
    'ipv4_router': gen_ipv4_router,
    'tunnel': gen_tunnel,
    'calculator': gen_calculator,
    'ecn': gen_ecn,
    'dscp_remark': gen_dscp_remark,
    'ecmp': gen_ecmp,
    'ecmp_selector': gen_ecmp_selector,
    'firewall': gen_firewall,
    'source_routing': gen_source_routing,
    'int_telemetry': gen_int_telemetry,
    'acl': gen_acl,
    'port_range': gen_port_range,
}


def main(argv):
    # The standard check values ("123456789") of both CRCs.
    assert crc16(b'123456789') == 0xBB3D and crc32(b'123456789') == 0xCBF43926
    check = '--check' in argv
    names = [a for a in argv if not a.startswith('--')] or sorted(GENERATORS)
    here = os.path.dirname(os.path.abspath(__file__))
    status = 0
    for name in names:
        if name not in GENERATORS:
            print('mkstf.py: unknown example %r; known: %s'
                  % (name, ', '.join(sorted(GENERATORS))), file=sys.stderr)
            return 2
        path = os.path.join(here, '..', name, name + '.stf')
        text = GENERATORS[name]()
        if check:
            try:
                with open(path) as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:
                print('mkstf.py: %s is not what mkstf.py generates' % path,
                      file=sys.stderr)
                status = 1
        else:
            with open(path, 'w') as f:
                f.write(text)
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
