/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_gen.c: inputs for `make bench` (scripts/bench.sh): simple_switch_CLI
 * command files with many entries and pcap files of 64-byte frames that hit
 * them. Deterministic (fixed seed), so runs compare.
 *
 *   bench_gen routes N CMDS PCAP PACKETS   IPv4 router: N lpm routes, packets to them
 *   bench_gen macs N CMDS PCAP PACKETS     L2: N exact MAC entries, packets to them
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_switch.h"

#define FRAME 64

static uint32_t rng = 0x12345678;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void put32le(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, f);
}

static void pcap_header(FILE *f)
{
	put32le(f, 0xa1b2c3d4);	/* magic, microsecond timestamps */
	put32le(f, 0x00040002);	/* version 2.4 */
	put32le(f, 0);
	put32le(f, 0);
	put32le(f, 65535);	/* snaplen */
	put32le(f, 1);		/* LINKTYPE_ETHERNET */
}

static void pcap_record(FILE *f, uint64_t us, const uint8_t *p, uint32_t len)
{
	put32le(f, (uint32_t)(us / 1000000));
	put32le(f, (uint32_t)(us % 1000000));
	put32le(f, len);
	put32le(f, len);
	fwrite(p, 1, len, f);
}

/* A 64-byte Ethernet + IPv4 + UDP frame with a correct IPv4 checksum. */
static void ipv4_frame(uint8_t *p, const uint8_t dmac[6], uint32_t dst)
{
	static const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	uint16_t csum;

	memset(p, 0, FRAME);
	memcpy(p, dmac, 6);
	memcpy(p + 6, smac, 6);
	p[12] = 0x08;
	p[14] = 0x45;
	p[16] = 0;
	p[17] = FRAME - 14;
	p[22] = 64;		/* ttl */
	p[23] = 17;		/* udp */
	p[26] = 192; p[27] = 168; p[28] = 0; p[29] = 1;
	p[30] = (uint8_t)(dst >> 24); p[31] = (uint8_t)(dst >> 16);
	p[32] = (uint8_t)(dst >> 8); p[33] = (uint8_t)dst;
	csum = pisa_csum16(p + 14, 20);
	p[24] = (uint8_t)(csum >> 8);
	p[25] = (uint8_t)csum;
	p[34] = 0x30; p[35] = 0x39;	/* udp ports */
	p[36] = 0x00; p[37] = 0x35;
	p[38] = 0; p[39] = FRAME - 34;
}

static FILE *open_or_die(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		fprintf(stderr, "bench_gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* Routes 10.a.b.0/24 for i = a * 256 + b, plus a 10.0.0.0/8 below them all. */
static void routes(unsigned n, FILE *cmds, FILE *pcap, unsigned packets)
{
	static const uint8_t dmac[6] = { 0x02, 0, 0, 0, 0, 0xfe };
	uint8_t frame[FRAME];
	unsigned i;

	fprintf(cmds, "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 02:00:00:00:00:99 7\n");
	for (i = 0; i + 1 < n; i++)
		fprintf(cmds, "table_add ipv4_lpm ipv4_forward 10.%u.%u.0/24 => 02:00:00:00:%02x:%02x %u\n",
			(i >> 8) & 0xff, i & 0xff, (i >> 8) & 0xff, i & 0xff, 1 + i % 6);
	pcap_header(pcap);
	for (i = 0; i < packets; i++) {
		uint32_t r = next_rand() % (n > 1 ? n - 1 : 1);
		uint32_t dst = 0x0a000000u | (r >> 8 & 0xff) << 16 | (r & 0xff) << 8 | (next_rand() & 0xff);

		ipv4_frame(frame, dmac, dst);
		pcap_record(pcap, i, frame, FRAME);
	}
}

static void macs(unsigned n, FILE *cmds, FILE *pcap, unsigned packets)
{
	uint8_t frame[FRAME], dmac[6];
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(cmds, "table_add dmac forward 0x02%010x => %u\n", i, 1 + i % 6);
	pcap_header(pcap);
	for (i = 0; i < packets; i++) {
		uint32_t r = next_rand() % n;

		dmac[0] = 0x02;
		dmac[1] = 0;
		dmac[2] = (uint8_t)(r >> 24);
		dmac[3] = (uint8_t)(r >> 16);
		dmac[4] = (uint8_t)(r >> 8);
		dmac[5] = (uint8_t)r;
		ipv4_frame(frame, dmac, 0x0a000001);
		pcap_record(pcap, i, frame, FRAME);
	}
}

int main(int argc, char **argv)
{
	FILE *cmds, *pcap;
	unsigned n, packets;

	if (argc != 6 || (strcmp(argv[1], "routes") && strcmp(argv[1], "macs"))) {
		fprintf(stderr, "usage: bench_gen routes|macs N CMDS PCAP PACKETS\n");
		return 3;
	}
	n = (unsigned)strtoul(argv[2], NULL, 0);
	packets = (unsigned)strtoul(argv[5], NULL, 0);
	if (n == 0) {
		fprintf(stderr, "bench_gen: N must be at least 1\n");
		return 3;
	}
	cmds = open_or_die(argv[3]);
	pcap = open_or_die(argv[4]);
	if (argv[1][0] == 'r')
		routes(n, cmds, pcap, packets);
	else
		macs(n, cmds, pcap, packets);
	if (fclose(cmds) || fclose(pcap)) {
		fprintf(stderr, "bench_gen: write failed\n");
		return 1;
	}
	return 0;
}
