/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_router.c: an IPv4 LPM router with 1,000 routes (parse, verify,
 * gateway, lpm, ttl, checksum update) checked against a reference LPM, and
 * its packet rate. PISA_BENCH=N runs N million packets and prints the rate.
 */
#include <time.h>

#include "build.h"

#define NROUTES 1000
#define NPKTS 1024

static struct { uint32_t v; unsigned len; unsigned port; } rt[NROUTES];
static uint32_t seed = 7;

static uint32_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

static int by_len(const void *a, const void *b)
{
	const unsigned la = ((const unsigned *)a)[1], lb = ((const unsigned *)b)[1];

	return la < lb ? 1 : la > lb ? -1 : 0;
}

static void put_csum(uint8_t *h)
{
	uint32_t s = 0;
	unsigned i;

	h[10] = h[11] = 0;
	for (i = 0; i < 20; i += 2)
		s += (uint32_t)h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	h[10] = (uint8_t)(~s >> 8);
	h[11] = (uint8_t)~s;
}

static unsigned long outs;
static void count_out(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	outs++;
}

int main(void)
{
	struct pisa_image *img = tb_image(192);
	unsigned eth, ip, s0, s1, g, t, a_nop, a_fwd, a_drop, i, bad = 0;
	struct pisa_field ipf[3];
	struct pisa_model *m;
	struct tb_out *o;
	static uint8_t pkts[NPKTS][64];
	unsigned want_port[NPKTS], want_route[NPKTS];
	const char *bench = getenv("PISA_BENCH");

	eth = tb_header(img, 80, 14);
	ip = tb_header(img, 96, 20);
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, eth, NO, NO, NO) });
	s1 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, ip, NO, NO, NO) });
	tb_key(img, s0, PHV(HB(img, eth, 96), 16));
	tb_row(img, s0, 0x0800, 0xFFFF, s1, 0);
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_row(img, s1, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;
	ipf[0] = (struct pisa_field){ (uint16_t)HB(img, ip, 0), 64 };
	ipf[1] = (struct pisa_field){ (uint16_t)HB(img, ip, 64), 16 };
	ipf[2] = (struct pisa_field){ (uint16_t)HB(img, ip, 96), 64 };
	img->checksums[0] = (struct pisa_checksum){ .kind = PISA_CSUM_VERIFY, .algo = PISA_HASH_CSUM16,
		.cond = PHV(PISA_VALID_BIT(ip), 1), .field_list = (uint16_t)tb_flist(img, 3, ipf),
		.dst = { (uint16_t)HB(img, ip, 80), 16 } };
	img->checksums[1] = img->checksums[0];
	img->checksums[1].kind = PISA_CSUM_UPDATE;
	img->nchecksums = 2;

	a_nop = tb_action(img, 0, NULL, 0);
	a_fwd = tb_action(img, 5, (struct pisa_insn[]){
		INS(PISA_SET, 0, PHV(HB(img, eth, 48), 48), PHV(HB(img, eth, 0), 48), NO),
		INS(PISA_SET, 0, PHV(HB(img, eth, 0), 48), AD(0, 48), NO),
		INS(PISA_SET, 0, FLD(PISA_SM_EGRESS_SPEC), AD(48, 9), NO),
		INS(PISA_SUB, 0, PHV(HB(img, ip, 64), 8), PHV(HB(img, ip, 64), 8), K(1, 8)),
		INS(PISA_NOP, 0, NO, NO, NO) }, 57);
	a_drop = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_DROP, 0, NO, NO, NO) }, 0);
	g = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_nop);
	tb_tact(img, g, a_nop, 0, 0);
	img->tables[g].next_mode = PISA_NEXT_COND;
	img->tables[g].cond = (struct pisa_field){ PISA_VALID_BIT(ip), 1 };
	t = tb_table(img, 0, PISA_MEM_TCAM, 1024, 57, a_drop);
	tb_tkey(img, t, HB(img, ip, 128), 32, PISA_MATCH_LPM);
	tb_tact(img, t, a_fwd, 0, 0);
	tb_tact(img, t, a_drop, 0, 0);
	img->tables[g].next_hit = (uint16_t)t;
	img->ingress_start = (uint16_t)g;

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL router: pisa_model_new\n");
		return 1;
	}

	/* routes, longest prefix first as the control plane keeps them */
	for (i = 0; i < NROUTES; i++) {
		rt[i].len = 8 + rnd() % 25;
		rt[i].v = rnd() & (~0u << (32 - rt[i].len));
		rt[i].port = 1 + rnd() % 8;
	}
	qsort(rt, NROUTES, sizeof(rt[0]), by_len);
	for (i = 0; i < NROUTES; i++) {
		uint8_t match[8], ad[8] = { 0x02, 0, 0, 0, 0, (uint8_t)i };
		uint32_t mk = ~0u << (32 - rt[i].len);
		struct tb_rowbuf r;
		unsigned k;

		for (k = 0; k < 4; k++) {
			match[k] = (uint8_t)(rt[i].v >> (24 - 8 * k));
			match[4 + k] = (uint8_t)(mk >> (24 - 8 * k));
		}
		/* port: 9 bits at action data bit 48 */
		ad[6] = (uint8_t)(rt[i].port >> 1);
		ad[7] = (uint8_t)(rt[i].port << 7);
		r = tb_mkrow(&img->tables[t], a_fwd, match, ad);
		if (pisa_model_ops.write_row(m, (uint16_t)t, i, r.b, r.len))
			bad++;
	}
	tb_check(bad == 0, "router routes written", "%u failed", bad);

	for (i = 0; i < NPKTS; i++) {
		uint8_t *p = pkts[i];
		uint32_t dst = rnd();
		unsigned k;

		if (i % 4)	/* mostly routed */
			dst = rt[rnd() % NROUTES].v | (dst & ~(~0u << (32 - rt[rnd() % NROUTES].len)) & 0xFF);
		memset(p, 0, 64);
		memcpy(p, "\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x02\x08\x00", 14);
		memcpy(p + 14, "\x45\x00\x00\x32\x00\x01\x00\x00\x40\x11\x00\x00\x0a\x00\x00\x01", 16);
		for (k = 0; k < 4; k++)
			p[30 + k] = (uint8_t)(dst >> (24 - 8 * k));
		put_csum(p + 14);
		want_port[i] = 0;
		for (k = 0; k < NROUTES; k++)
			if (((dst ^ rt[k].v) & (~0u << (32 - rt[k].len))) == 0) {
				want_port[i] = rt[k].port;
				want_route[i] = k;
				break;
			}
	}

	bad = 0;
	for (i = 0; i < NPKTS; i++) {
		uint8_t w[64];

		tb_send(m, o, 1, pkts[i], 64, i);
		if (!want_port[i]) {
			if (o->n != 0)
				bad++;
			continue;
		}
		memcpy(w, pkts[i], 64);
		memcpy(w + 6, w, 6);
		memcpy(w, "\x02\x00\x00\x00\x00", 5);
		w[5] = (uint8_t)want_route[i];
		w[22]--;
		put_csum(w + 14);
		if (o->n != 1 || !tb_eq(&o->p[0], (uint16_t)want_port[i], w, 64)) {
			if (bad++ < 3)
				printf("# packet %u: %u out, port %u, want %u\n", i, o->n,
				       o->n ? o->p[0].port : 0, want_port[i]);
		}
	}
	tb_check(bad == 0, "router 1024 packets routed byte for byte", "%u wrong", bad);

	{
		unsigned long n = bench ? strtoul(bench, NULL, 10) * 1000000ul : 200000ul, k;
		struct timespec t0, t1;
		double s;

		outs = 0;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		for (k = 0; k < n; k++)
			pisa_model_inject(m, 1, pkts[k % NPKTS], 64, k, count_out, NULL);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		printf("# router, 1024 flows: %lu packets in %.3f s CPU: %.2f Mpps\n", n, s,
		       (double)n / s / 1e6);
		tb_check(outs > n / 2, "router benchmark forwarded", "%lu of %lu", outs, n);

		/* 65536 flows: the lookup cache mostly misses, the index works */
		if (bench) {
			uint8_t (*many)[64] = malloc(65536 * 64);

			for (k = 0; many && k < 65536; k++) {
				uint32_t dst = rt[rnd() % NROUTES].v | (rnd() & 0xFF);

				memcpy(many[k], pkts[0], 64);
				for (i = 0; i < 4; i++)
					many[k][30 + i] = (uint8_t)(dst >> (24 - 8 * i));
				put_csum(many[k] + 14);
			}
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
			for (k = 0; many && k < n; k++)
				pisa_model_inject(m, 1, many[k % 65536], 64, k, count_out, NULL);
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
			s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
			printf("# router, 65536 flows: %lu packets in %.3f s CPU: %.2f Mpps\n", n, s,
			       (double)n / s / 1e6);
			free(many);
		}
	}

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
