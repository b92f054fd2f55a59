/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tables.c: table lookup by memory kind (HASH ways, TCAM priority and
 * ranges, the TCAM index against a plain scan), default rows, const rows,
 * direct counters, next pointers (HITMISS, COND gateways, ACTION, EXIT),
 * the row write checks of pisa_model_ops, and the LPM check of masks wider than the key.
 */
#include "build.h"
#include "../../model/model_int.h"

static struct pisa_image *img;
static struct pisa_model *m;
static struct tb_out *o;
static unsigned h0;

/* byte b of header h0 in the output (headers start at output byte 0) */
static int outb(unsigned b)
{
	return o->n == 1 && o->p[0].len > b ? o->p[0].data[b] : -1;
}

static void send(uint8_t *pkt)
{
	tb_send(m, o, 3, pkt, 18, 1);
}

static void set4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int wrow(unsigned t, uint32_t idx, unsigned act, const uint8_t *match, const uint8_t *ad)
{
	struct tb_rowbuf r = tb_mkrow(&img->tables[t], act, match, ad);

	return pisa_model_ops.write_row(m, (uint16_t)t, idx, r.b, r.len);
}

static int clear_row(unsigned t, uint32_t idx)
{
	struct tb_rowbuf r = tb_mkrow(&img->tables[t], 0, NULL, NULL);

	r.b[0] = 0;
	return pisa_model_ops.write_row(m, (uint16_t)t, idx, r.b, r.len);
}

/* ---- the LPM / ternary index against a scan of our own ---- */
#define LROWS 300
static struct { int valid; uint32_t v, mk; } lr[LROWS];
static uint32_t seed = 12345;

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8 ^ seed << 13;
}

/* mode 0: prefixes and a few ternary masks (the per-mask index);
 * mode 1: prefixes in bands by length (longest first, as pisa_ctl keeps
 * them), in the first half 1 in 20 anywhere, so the LPM mode comes and
 * goes, in the second half always in band;
 * mode 2: any masks (so many that the table is scanned). */
static void lpm_random(unsigned t_lpm, int mode, const char *name)
{
	uint8_t pkt[18] = { 0 };
	unsigned i, k, bad = 0, hits = 0, lpm_on = 0, scan_on = 0;
	uint32_t pattern[16];

	for (i = 0; i < 16; i++)
		pattern[i] = rnd() & rnd();

	for (i = 0; i < LROWS; i++) {
		lr[i].valid = 0;
		clear_row(t_lpm, i);
	}
	for (k = 0; k < 2000; k++) {
		if (mode == 1 && k == 1000) {
			/* start again without rows out of their band */
			for (i = 0; i < LROWS; i++) {
				lr[i].valid = 0;
				clear_row(t_lpm, i);
			}
		}
		if (k % 4 == 0) {
			/* rewrite a few rows between lookups: the index must follow */
			for (i = 0; i < 5; i++) {
				unsigned r = rnd() % LROWS, kind = rnd() % 4;
				uint8_t match[8], ad[2];

				if (kind == 0) {
					lr[r].valid = 0;
					clear_row(t_lpm, r);
					continue;
				}
				if (mode == 1) {
					unsigned len = rnd() % 33;

					if (k >= 1000 || rnd() % 20)
						r = (32 - len) * 9 + rnd() % 9;
					lr[r].mk = len ? ~0u << (32 - len) : 0;
					kind = 1;
				}
				lr[r].valid = 1;
				if (mode == 1) {
				} else if (kind == 3) {
					/* arbitrary ternary masks: a few (index) or any (scan) */
					lr[r].mk = mode == 2 ? rnd() & rnd() :
						   pattern[rnd() % 16];
				} else {
					unsigned len = rnd() % 33;

					lr[r].mk = len ? ~0u << (32 - len) : 0;
				}
				lr[r].v = rnd() % 64 & lr[r].mk;
				lr[r].v |= rnd() & lr[r].mk & 0xFFFF0000u;
				set4(match, lr[r].v);
				set4(match + 4, lr[r].mk);
				ad[0] = (uint8_t)(r >> 8);
				ad[1] = (uint8_t)r;
				wrow(t_lpm, r, 3, match, ad);
			}
		}
		{
			uint32_t key = rnd();
			int want = 0xFFFF, got;

			if (k & 1) {
				unsigned r = rnd() % LROWS;

				key = (lr[r].v & lr[r].mk) | (key & ~lr[r].mk);
			}
			for (i = 0; i < LROWS; i++)
				if (lr[i].valid && (key & lr[i].mk) == (lr[i].v & lr[i].mk)) {
					want = (int)i;
					break;
				}
			set4(pkt, key);
			send(pkt);
			lpm_on += m->tables[t_lpm].ix.lpm;
			scan_on += m->tables[t_lpm].ix.scan;
			got = outb(10) << 8 | outb(11);
			if (got != want && bad++ < 3)
				printf("# key %08x: got row %d, want %d\n", key, got, want);
			hits += want != 0xFFFF;
		}
	}
	tb_check(bad == 0 && hits > 500 &&
		 (mode != 1 || (lpm_on > 900 && lpm_on < 1900)) &&
		 (mode != 0 || scan_on < 100) && (mode != 2 || scan_on > 1000), name,
		 "%u of 2000 lookups differ (%u hits, %u in lpm mode, %u scanned)", bad, hits,
		 lpm_on, scan_on);
	printf("# %s: %u hits, %u lookups in lpm mode, %u scanned\n", name, hits, lpm_on, scan_on);
}

int main(void)
{
	unsigned s0, t_hash, t_tcam, t_lpm, g, tA, tB, t_sw, tC, tD, i;
	unsigned a_hash, a_hdef, a_tcam, a_tdef, a_lpm, a_ldef, a_g, a_A, a_B, a_sA, a_sB, a_sE,
		 a_C, a_D, a_nop;
	uint8_t pkt[18], key[8], match[16], ad[4];
	uint32_t k1 = 0x0A000001, k2 = 0x0A000002, b1, b0;
	struct tb_rowbuf r;
	uint64_t pk, by;
	int rc;

	img = tb_image(256);
	h0 = tb_header(img, 96, 16);
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, h0, NO, NO, NO) });
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;
#define B(n) HB(img, h0, (n) * 8)
	a_hash = tb_action(img, 2, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(8), 8), AD(0, 8), NO),
		INS(PISA_DMETER, 0, PHV(B(7), 8), NO, NO) }, 8);
	a_hdef = tb_action(img, 2, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(8), 8), K(0xDD, 8), NO),
		INS(PISA_DMETER, 0, PHV(B(7), 8), NO, NO) }, 0);
	a_tcam = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(9), 8), AD(0, 8), NO) }, 8);
	a_lpm = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(10), 16), AD(0, 16), NO) }, 16);
	a_tdef = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(9), 8), K(0xCC, 8), NO) }, 0);
	a_ldef = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(10), 16), K(0xFFFF, 16), NO) }, 0);
	a_g = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_EQ, 0, PHV(1600, 1), PHV(B(12), 8), K(1, 8)) }, 0);
	a_A = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(13), 8), K(0xAA, 8), NO) }, 0);
	a_B = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(13), 8), K(0xBB, 8), NO) }, 0);
	a_sA = tb_action(img, 0, NULL, 0);
	a_sB = tb_action(img, 0, NULL, 0);
	a_sE = tb_action(img, 2, (struct pisa_insn[]){
		INS(PISA_SET, 0, PHV(B(15), 8), K(0xEE, 8), NO), INS(PISA_EXIT, 0, NO, NO, NO) }, 0);
	a_C = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(15), 8), K(0xA1, 8), NO) }, 0);
	a_D = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(15), 8), K(0xB2, 8), NO) }, 0);
	a_nop = tb_action(img, 0, NULL, 0);
	tb_check(a_lpm == 3, "tables test setup", "a_lpm %u", a_lpm);

	/* 0: HASH, key h0[0..3] ++ h0.valid, 2 ways x 16 buckets, direct counter */
	t_hash = tb_table(img, 0, PISA_MEM_HASH, 0, 8, a_hdef);
	tb_tkey(img, t_hash, B(0), 32, PISA_MATCH_EXACT);
	tb_tkey(img, t_hash, PISA_VALID_BIT(h0), 1, PISA_MATCH_EXACT);
	tb_hash_geom(img, t_hash, 2, 4);
	tb_tact(img, t_hash, a_hash, 0, PISA_TA_TABLE_ONLY);
	tb_tact(img, t_hash, a_hdef, 0, PISA_TA_DEFAULT_ONLY);
	img->tables[t_hash].direct_counter = 0;
	img->counters[0] = (struct pisa_counter){ PISA_COUNTER_BOTH, 32, (int16_t)t_hash };
	img->ncounters = 1;
	img->tables[t_hash].direct_meter = 0;
	img->meters[0] = (struct pisa_meter){ PISA_METER_PACKETS, 32, (int16_t)t_hash };
	img->nmeters = 1;
	/* 1: TCAM, ternary h0[4] ++ range h0[5..6] */
	t_tcam = tb_table(img, 0, PISA_MEM_TCAM, 8, 8, a_tdef);
	tb_tkey(img, t_tcam, B(4), 8, PISA_MATCH_TERNARY);
	tb_tkey(img, t_tcam, B(5), 16, PISA_MATCH_RANGE);
	tb_tact(img, t_tcam, a_tcam, 0, 0);
	tb_tact(img, t_tcam, a_tdef, 0, 0);
	/* 2: TCAM without ranges (lpm and ternary rows), index-accelerated */
	t_lpm = tb_table(img, 0, PISA_MEM_TCAM, LROWS, 16, a_ldef);
	tb_tkey(img, t_lpm, B(0), 32, PISA_MATCH_TERNARY);
	tb_tact(img, t_lpm, a_lpm, 0, 0);
	tb_tact(img, t_lpm, a_ldef, 0, 0);
	/* 3: gateway h0[12] == 1 */
	g = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_g);
	tb_tact(img, g, a_g, 0, 0);
	img->tables[g].next_mode = PISA_NEXT_COND;
	img->tables[g].cond = (struct pisa_field){ 1600, 1 };
	tA = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_A);
	tb_tact(img, tA, a_A, 0, 0);
	tB = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_B);
	tb_tact(img, tB, a_B, 0, 0);
	/* 6: switch (action_run) on h0[14] */
	t_sw = tb_table(img, 0, PISA_MEM_TCAM, 4, 0, a_nop);
	tb_tkey(img, t_sw, B(14), 8, PISA_MATCH_TERNARY);
	tC = t_sw + 1;
	tD = t_sw + 2;
	tb_tact(img, t_sw, a_sA, tC, 0);
	tb_tact(img, t_sw, a_sB, tD, 0);
	tb_tact(img, t_sw, a_sE, tC, 0);
	tb_tact(img, t_sw, a_nop, PISA_NEXT_END, 0);
	img->tables[t_sw].next_mode = PISA_NEXT_ACTION;
	tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_C);
	tb_tact(img, tC, a_C, 0, 0);
	tb_table(img, 0, PISA_MEM_NONE, 0, 0, a_D);
	tb_tact(img, tD, a_D, 0, 0);

	img->tables[t_hash].next_hit = (uint16_t)t_tcam;
	img->tables[t_hash].next_miss = (uint16_t)t_lpm;
	img->tables[t_tcam].next_hit = img->tables[t_tcam].next_miss = (uint16_t)t_lpm;
	img->tables[t_lpm].next_hit = img->tables[t_lpm].next_miss = (uint16_t)g;
	img->tables[g].next_hit = (uint16_t)tA;
	img->tables[g].next_miss = (uint16_t)tB;
	img->tables[tA].next_hit = img->tables[tA].next_miss = (uint16_t)t_sw;
	img->tables[tB].next_hit = img->tables[tB].next_miss = (uint16_t)t_sw;
	img->ingress_start = (uint16_t)t_hash;

	/* a const row: t_tcam row 3 catches everything */
	{
		static uint8_t cb[3 + 10 + 1];

		cb[0] = PISA_ROW_VALID;
		cb[2] = (uint8_t)a_tcam;
		cb[3 + 6 + 2] = 0xFF;	/* range hi 0xFFFF */
		cb[3 + 6 + 3] = 0xFF;
		cb[13] = 0x33;
		img->const_rows[0] = (struct pisa_const_row){ (uint16_t)t_tcam, 3, sizeof(cb), cb };
		img->nconst_rows = 1;
	}

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL tables: pisa_model_new\n");
		return 1;
	}
	if (getenv("TRACE"))
		pisa_model_set_trace(m, stderr);

	/* HASH: k1 in way 1 (way 0's bucket holds another key), k2 in way 0 */
	set4(key, k1);
	key[4] = 0x01;	/* valid bit, right-aligned 33-bit key: ...a000001 1 */
	{
		/* 33-bit key k1 ++ 1, right-aligned in 5 bytes */
		uint64_t kv = (uint64_t)k1 << 1 | 1;

		for (i = 0; i < 5; i++)
			key[i] = (uint8_t)(kv >> (8 * (4 - i)));
	}
	b0 = pisa_hash_way(0, key, 5) & 15;
	b1 = pisa_hash_way(1, key, 5) & 15;
	ad[0] = 0x42;
	memcpy(match, key, 5);
	rc = wrow(t_hash, 16 | b1, a_hash, match, ad);
	match[3] ^= 0x80;	/* a different key in k1's way-0 bucket */
	ad[0] = 0x99;
	rc |= wrow(t_hash, b0, a_hash, match, ad);
	{
		uint64_t kv = (uint64_t)k2 << 1 | 1;

		for (i = 0; i < 5; i++)
			match[i] = (uint8_t)(kv >> (8 * (4 - i)));
	}
	ad[0] = 0x43;
	rc |= wrow(t_hash, pisa_hash_way(0, match, 5) & 15, a_hash, match, ad);
	tb_check(rc == 0, "tables hash rows written", "rc %d", rc);

	memset(pkt, 0, sizeof(pkt));
	set4(pkt, k1);
	pkt[16] = 0x77;
	pkt[17] = 0x88;
	send(pkt);
	tb_check(outb(8) == 0x42 && o->p[0].len == 18 && o->p[0].data[17] == 0x88,
		 "tables hash hit in way 1", "byte 8 = %d", outb(8));
	set4(pkt, k2);
	send(pkt);
	tb_check(outb(8) == 0x43, "tables hash hit in way 0", "byte 8 = %d", outb(8));
	set4(pkt, 0x0A000003);
	pkt[9] = 0x5A;
	send(pkt);
	tb_check(outb(8) == 0xDD, "tables hash miss runs the default", "byte 8 = %d", outb(8));
	tb_check(outb(9) == 0x5A, "tables hitmiss: a miss skips to next_miss", "byte 9 = %d", outb(9));
	pisa_model_ops.counter_read(m, 0, 16 | b1, &pk, &by);
	tb_check(pk == 1 && by == 18, "tables direct counter counts hits", "%llu packets %llu bytes",
		 (unsigned long long)pk, (unsigned long long)by);
	pisa_model_ops.counter_read(m, 0, b0, &pk, &by);
	tb_check(pk == 0, "tables direct counter: other rows untouched", "%llu", (unsigned long long)pk);

	/* direct meter of k1's row: one packet of burst, no refill */
	{
		struct pisa_meter_cfg mc = { 1, 0, 0, 1, 1 };
		int c1, c2, c3;

		rc = pisa_model_ops.meter_write(m, 0, 16 | b1, &mc);
		set4(pkt, k1);
		pkt[7] = 9;
		send(pkt);
		c1 = outb(7);
		send(pkt);
		c2 = outb(7);
		set4(pkt, 0x0A000003);
		send(pkt);
		c3 = outb(7);
		tb_check(rc == 0 && c1 == PISA_GREEN && c2 == PISA_RED && c3 == PISA_GREEN,
			 "tables direct meter: the hit row's cell, green on a miss",
			 "rc %d colours %d %d %d", rc, c1, c2, c3);
		pkt[7] = 0;
	}

	/* default row written by the control plane */
	ad[0] = 0x55;
	rc = wrow(t_hash, 32, a_hash, NULL, ad);
	tb_check(rc == -PISA_E_INVAL, "tables tableonly action refused in the default row", "rc %d", rc);
	rc = wrow(t_hash, 3, a_hdef, match, NULL);
	tb_check(rc == -PISA_E_INVAL, "tables defaultonly action refused in an entry", "rc %d", rc);
	rc = wrow(t_hash, 3, a_A, match, NULL);
	tb_check(rc == -PISA_E_INVAL, "tables foreign action refused", "rc %d", rc);
	rc = wrow(t_hash, 33, a_hash, match, ad);
	tb_check(rc == -PISA_E_RANGE, "tables row index past the default refused", "rc %d", rc);
	r = tb_mkrow(&img->tables[t_hash], a_hash, match, ad);
	rc = pisa_model_ops.write_row(m, t_hash, 3, r.b, r.len - 1);
	tb_check(rc == -PISA_E_INVAL, "tables short row refused", "rc %d", rc);
	rc = pisa_model_ops.write_row(m, (uint16_t)img->ntables, 0, r.b, r.len);
	tb_check(rc == -PISA_E_RANGE, "tables bad table id refused", "rc %d", rc);

	/* TCAM: priority by row index, ranges, const row, default */
	memset(match, 0, sizeof(match));
	match[0] = 0x10; match[3] = 0xF0;		/* 0x1? */
	match[6] = 0; match[7] = 100; match[8] = 0; match[9] = 200;
	ad[0] = 0x01;
	rc = wrow(t_tcam, 0, a_tcam, match, ad);
	match[0] = 0x12; match[3] = 0xFF;
	match[6] = 0; match[7] = 0; match[8] = 0xFF; match[9] = 0xFF;
	ad[0] = 0x02;
	rc |= wrow(t_tcam, 1, a_tcam, match, ad);
	tb_check(rc == 0, "tables tcam rows written", "rc %d", rc);
	set4(pkt, k1);
	pkt[4] = 0x12; pkt[5] = 0; pkt[6] = 150;
	send(pkt);
	tb_check(outb(9) == 0x01, "tables tcam lowest row wins", "byte 9 = %d", outb(9));
	pkt[5] = 0x01; pkt[6] = 0x2C;	/* 300: out of row 0's range */
	send(pkt);
	tb_check(outb(9) == 0x02, "tables tcam range excludes", "byte 9 = %d", outb(9));
	pkt[5] = 0; pkt[6] = 200;
	send(pkt);
	tb_check(outb(9) == 0x01, "tables tcam range inclusive hi", "byte 9 = %d", outb(9));
	pkt[4] = 0x55;
	send(pkt);
	tb_check(outb(9) == 0x33, "tables const row", "byte 9 = %d", outb(9));
	clear_row(t_tcam, 3);
	send(pkt);
	tb_check(outb(9) == 0xCC, "tables tcam miss runs the default", "byte 9 = %d", outb(9));
	ad[0] = 0x66;
	rc = wrow(t_tcam, 8, a_tcam, NULL, ad);
	send(pkt);
	tb_check(rc == 0 && outb(9) == 0x66, "tables default row rewritten", "rc %d byte 9 = %d", rc,
		 outb(9));

	/* LPM-style rows: longest prefix first */
	set4(match, 0x0A000000); set4(match + 4, 0xFFFFFF00); ad[0] = 0; ad[1] = 7;
	wrow(t_lpm, 0, a_lpm, match, ad);
	set4(match, 0x0A000000); set4(match + 4, 0xFF000000); ad[1] = 8;
	wrow(t_lpm, 1, a_lpm, match, ad);
	set4(pkt, 0x0A000005);
	send(pkt);
	tb_check(outb(10) == 0 && outb(11) == 7, "tables lpm /24 before /8", "%d %d", outb(10), outb(11));
	set4(pkt, 0x0A010005);
	send(pkt);
	tb_check(outb(11) == 8, "tables lpm /8", "%d", outb(11));
	set4(pkt, 0x0B010005);
	send(pkt);
	tb_check(outb(10) == 0xFF && outb(11) == 0xFF, "tables lpm miss", "%d", outb(11));
	clear_row(t_lpm, 0);
	clear_row(t_lpm, 1);

	/* gateway and switch(action_run) */
	pkt[12] = 1; pkt[14] = 0; pkt[13] = 0; pkt[15] = 0;
	send(pkt);
	tb_check(outb(13) == 0xAA && outb(15) == 0, "tables gateway true, switch default ends",
		 "%d %d", outb(13), outb(15));
	pkt[12] = 2;
	send(pkt);
	tb_check(outb(13) == 0xBB, "tables gateway false", "%d", outb(13));
	memset(match, 0, sizeof(match));
	match[0] = 1; match[1] = 0xFF;
	wrow(t_sw, 0, a_sA, match, NULL);
	match[0] = 2;
	wrow(t_sw, 1, a_sB, match, NULL);
	match[0] = 3;
	wrow(t_sw, 2, a_sE, match, NULL);
	pkt[14] = 1;
	send(pkt);
	tb_check(outb(15) == 0xA1, "tables switch action A", "%d", outb(15));
	pkt[14] = 2;
	send(pkt);
	tb_check(outb(15) == 0xB2, "tables switch action B", "%d", outb(15));
	pkt[14] = 3;
	send(pkt);
	tb_check(outb(15) == 0xEE, "tables exit ends the pass", "%d", outb(15));

	pisa_model_set_trace(m, NULL);
	lpm_random(t_lpm, 0, "tables tcam index equals the lowest-index scan");
	lpm_random(t_lpm, 1, "tables lpm mode equals the lowest-index scan");
	lpm_random(t_lpm, 2, "tables many masks: scanned, same result");

	/* a ternary row's mask may have bits above a 12-bit key's (they compare 0 with 0): such a
	 * mask is no prefix, and working that out must not shift by a negative count (UBSan) */
	{
		struct mtable mt = { .key_bits = 12 };
		uint64_t mk = 0xFFFF;

		mt.ix.ngroups = 1;
		mt.ix.mask64 = &mk;
		rc = model_lpm_build(&mt);
		tb_check(rc == 0 && !mt.ix.lpm, "tables lpm: mask bits above the key's", "rc %d lpm %d",
			 rc, mt.ix.lpm);
	}

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
