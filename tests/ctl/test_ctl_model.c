/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ctl_model.c: lib/pisa_ctl.c driving pisa-model through pisa_model_ops,
 * checked by sending packets: cuckoo placement (every key still hits after
 * every add, direct counters follow their rows), lpm longest prefix, ternary
 * priorities, ranges, defaults, delete.
 */
#include "../model/build.h"
#include "pisa_ctl.h"

static struct pisa_image *img;
static struct pisa_model *m;
static struct pisa_ctl *ctl;
static struct tb_out *o;
static unsigned h0;
static char err[512];
static unsigned row_writes;
static struct pisa_switch_ops counting_ops;

/* pisa_model_ops, counting row writes to see cuckoo moves happen */
static int counting_write_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	row_writes++;
	return pisa_model_ops.write_row(sw, t, i, row, len);
}

/* packet: a (4 bytes), b (2), c (1), then r0..r3 written by the tables */
static int send(uint32_t a, uint16_t b, uint8_t c, uint8_t out[16])
{
	uint8_t pkt[16] = { (uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8), (uint8_t)a,
			    (uint8_t)(b >> 8), (uint8_t)b, c };

	tb_send(m, o, 3, pkt, sizeof(pkt), 1);
	if (o->n != 1 || o->p[0].len != 16)
		return -1;
	memcpy(out, o->p[0].data, 16);
	return 0;
}

static int cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int cmd(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rc = pisa_ctl_exec(ctl, line, NULL, err, sizeof(err));
	if (rc && rc != -PISA_E_FULL)
		printf("# '%s': %s\n", line, err);
	return rc;
}

static struct pisa_rt_param p_v[] = { { "v", 8, 0 } };

static void build(void)
{
	unsigned s0, aw[4], anop, ad1, t, i;
	static struct pisa_rt_key k0[] = { { "hdr.h.b", 16, PISA_MATCH_EXACT } };
	static struct pisa_rt_key k1[] = { { "hdr.h.a", 32, PISA_MATCH_LPM } };
	static struct pisa_rt_key k2[] = { { "hdr.h.a", 32, PISA_MATCH_TERNARY },
					   { "hdr.h.c", 8, PISA_MATCH_EXACT } };
	static struct pisa_rt_key k3[] = { { "hdr.h.b", 16, PISA_MATCH_RANGE } };
	static const char *const anames[] = { "I.w0", "I.w1", "I.w2", "I.w3", "NoAction", "I.miss" };
	static const char *const tnames[] = { "I.exact", "I.lpm", "I.tern", "I.range" };
	struct pisa_rt_key *keys[] = { k0, k1, k2, k3 };
	unsigned nkeys[] = { 1, 1, 2, 1 };

	img = tb_image(256);
	h0 = tb_header(img, 96, 16);
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, h0, NO, NO, NO) });
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;
#define B(n) HB(img, h0, (n) * 8)
	for (i = 0; i < 4; i++)
		aw[i] = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(7 + i), 8), AD(0, 8), NO) }, 8);
	anop = tb_action(img, 0, NULL, 0);
	ad1 = tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(B(8), 8), K(0xEE, 8), NO) }, 0);

	t = tb_table(img, 0, PISA_MEM_HASH, 0, 8, anop);
	tb_tkey(img, t, B(4), 16, PISA_MATCH_EXACT);
	tb_hash_geom(img, t, 2, 2);
	img->tables[t].direct_counter = 0;
	img->counters[0] = (struct pisa_counter){ PISA_COUNTER_BOTH, 8, (int16_t)t };
	img->ncounters = 1;
	t = tb_table(img, 0, PISA_MEM_TCAM, 16, 8, anop);
	tb_tkey(img, t, B(0), 32, PISA_MATCH_LPM);
	tb_tact(img, t, ad1, 0, 0);
	t = tb_table(img, 0, PISA_MEM_TCAM, 8, 8, anop);
	tb_tkey(img, t, B(0), 32, PISA_MATCH_TERNARY);
	tb_tkey(img, t, B(6), 8, PISA_MATCH_EXACT);
	t = tb_table(img, 0, PISA_MEM_TCAM, 4, 8, anop);
	tb_tkey(img, t, B(4), 16, PISA_MATCH_RANGE);
	img->rt_tables = tb_alloc(4 * sizeof(*img->rt_tables));
	for (t = 0; t < 4; t++) {
		tb_tact(img, t, aw[t], 0, 0);
		tb_tact(img, t, anop, 0, 0);
		img->tables[t].next_hit = img->tables[t].next_miss = t < 3 ? (uint16_t)(t + 1) : PISA_NEXT_END;
		img->rt_tables[t] = (struct pisa_rt_table){ (char *)tnames[t], t + 1, img->tables[t].rows,
							    0, 0, (uint16_t)nkeys[t], keys[t] };
	}
	img->ingress_start = 0;
	img->rt_actions = tb_alloc(img->nactions * sizeof(*img->rt_actions));
	for (i = 0; i < img->nactions; i++)
		img->rt_actions[i] = (struct pisa_rt_action){ (char *)anames[i], 100 + i,
							      i < 4 ? 1 : 0, i < 4 ? p_v : NULL };
	img->rt_counters = tb_alloc(sizeof(*img->rt_counters));
	img->rt_counters[0] = (struct pisa_rt_named){ "I.exact_counter", 50 };
}

static void test_cuckoo(void)
{
	uint16_t keys[16];
	unsigned sent[16] = { 0 }, n = 0, i, bad = 0, cbad = 0;
	uint8_t out[16];
	uint16_t k;
	char line[64];
	unsigned j, moved = 0;

	for (j = 0; j < 100 && n < 8; j++) {
		int rc;

		k = (uint16_t)(0x100 + j * 0x9e37u);	/* spread over both bytes */
		row_writes = 0;
		rc = cmd("table_add exact w0 %u => %u", k, (k * 7) & 0xff);
		moved += !rc && row_writes > 1;

		if (rc == -PISA_E_FULL)
			continue;
		if (rc) {
			bad++;
			break;
		}
		keys[n++] = k;
		for (i = 0; i < n; i++) {
			if (send(0, keys[i], 0, out) || out[7] != ((keys[i] * 7) & 0xff)) {
				if (bad++ < 3)
					printf("# key %#x: r0 %#x after %u adds\n", keys[i], out[7], n);
			}
			sent[i]++;
		}
	}
	tb_check(bad == 0 && n == 8, "model: cuckoo fills 2 ways x 4 buckets, every key hits after every add",
		 "%u misses, %u keys placed", bad, n);
	tb_check(moved > 0, "model: some adds moved entries to other ways", "none");
	for (i = 0; i < n; i++) {
		FILE *f;
		char buf[256] = { 0 }, want[128];

		f = fmemopen(buf, sizeof(buf), "w");
		snprintf(line, sizeof(line), "counter_read exact_counter %u", i);
		pisa_ctl_exec(ctl, line, f, err, sizeof(err));
		fclose(f);
		snprintf(want, sizeof(want), "exact_counter[%u]= (%u bytes, %u packets)", i,
			 sent[i] * 16, sent[i]);
		if (!strstr(buf, want) && cbad++ < 3)
			printf("# %s: got %s\n", want, buf);
	}
	tb_check(cbad == 0, "model: direct counters followed the cuckoo moves", "%u wrong", cbad);
	/* delete half, the rest still hit, the deleted miss */
	for (i = 0; i < n; i += 2)
		cmd("table_delete exact %u", i);
	for (i = 0, bad = 0; i < n; i++) {
		int want = i % 2 ? (keys[i] * 7) & 0xff : 0;

		if (send(0, keys[i], 0, out) || out[7] != want)
			bad++;
	}
	tb_check(bad == 0, "model: deleted keys miss, others hit", "%u wrong", bad);
}

static void test_tcam(void)
{
	static const struct {
		uint32_t a;
		uint16_t b;
		uint8_t c;
		int lpm, tern, range;
	} probes[] = {
		{ 0x0A010203, 1550, 6, 3, 5, 2 },
		{ 0x0A010301, 1200, 6, 2, 5, 1 },
		{ 0x0A020000, 3000, 6, 1, 10, 0 },
		{ 0x0B000000, 1000, 6, 4, 20, 1 },
		{ 0x0A010203, 2000, 7, 3, 0, 1 },
	};
	unsigned i, bad = 0;
	uint8_t out[16];

	/* scrambled order: the control plane sorts */
	cmd("table_add lpm w1 10.1.0.0/16 => 2");	/* h0 */
	cmd("table_add lpm w1 0.0.0.0/0 => 4");		/* h1 */
	cmd("table_add lpm w1 10.1.2.0/24 => 3");	/* h2 */
	cmd("table_add lpm w1 10.0.0.0/8 => 1");	/* h3 */
	cmd("table_add tern w2 0&&&0 6 => 20 20");
	cmd("table_add tern w2 10.1.0.0&&&255.255.0.0 6 => 5 5");
	cmd("table_add tern w2 10.0.0.0&&&255.0.0.0 6 => 10 10");
	cmd("table_add range w3 1000->2000 => 1 2");
	cmd("table_add range w3 1500->1600 => 2 1");
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		if (send(probes[i].a, probes[i].b, probes[i].c, out) || out[8] != probes[i].lpm ||
		    out[9] != probes[i].tern || out[10] != probes[i].range) {
			if (bad++ < 3)
				printf("# probe %u: lpm %u tern %u range %u\n", i, out[8], out[9], out[10]);
		}
	}
	tb_check(bad == 0, "model: lpm longest prefix, ternary and range by priority", "%u wrong", bad);
	cmd("table_delete lpm 0");
	cmd("table_delete lpm 1");
	cmd("table_set_default lpm miss");
	send(0x0A010301, 0, 0, out);
	tb_check(out[8] == 1, "model: lpm after deleting the /16", "got %u", out[8]);
	send(0x0B000000, 0, 0, out);
	tb_check(out[8] == 0xEE, "model: miss runs the new default", "got %#x", out[8]);
	cmd("table_modify tern w2 1 => 0x55");
	send(0x0A010203, 0, 6, out);
	tb_check(out[9] == 0x55, "model: modified entry", "got %#x", out[9]);
}

int main(void)
{
	build();
	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL model: image refused\n");
		return 1;
	}
	counting_ops = pisa_model_ops;
	counting_ops.write_row = counting_write_row;
	ctl = pisa_ctl_new(img, &counting_ops, m);
	tb_check(ctl && pisa_ctl_init(ctl) == 0, "model: ctl init", "failed");
	test_cuckoo();
	test_tcam();
	pisa_ctl_free(ctl);
	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
