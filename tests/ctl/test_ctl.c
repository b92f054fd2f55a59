/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ctl.c: lib/pisa_ctl.c and lib/pisa_value.c against a fake switch that
 * keeps its own row memory, counters, registers, meters, multicast groups and
 * clone sessions, and logs every primitive write.
 *
 * Golden transcripts (commands and what they print) live in tests/ctl/golden/,
 * one .txt per session. To regenerate them after an intended change, run from
 * the repository root:
 *     PISA_REGEN=1 build/san/tests/ctl/test_ctl
 * and review the diff before committing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_ctl.h"
#include "pisa_value.h"

static int failures;

static void ok(int cond, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ok(int cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		printf("PASS %s\n", name);
		return;
	}
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

/* ---- the image ---- */

enum { T_FWD, T_LPM, T_ACL, T_RANGE, T_TINY, T_FIXED, T_V6, T_GW, T_IND, T_MBR, T_SPL0, T_SPL1, NT };
enum { A_SET_PORT, A_DROP, A_FWD, A_ALLOW, A_DENY, A_CLASS, A_EDROP, A_MBR, A_GRP, NA };
enum { C_FWD, C_ACL, C_TINY, C_PKTS, C_SPL0, C_SPL1, NC };
enum { M_IND, M_LPM, NM };

static struct pisa_key_field k_fwd[] = { { { 1000, 32 }, PISA_MATCH_EXACT },
					 { { 1040, 9 }, PISA_MATCH_EXACT } };
static struct pisa_key_field k_lpm[] = { { { 1000, 32 }, PISA_MATCH_LPM } };
static struct pisa_key_field k_acl[] = { { { 1100, 32 }, PISA_MATCH_TERNARY },
					 { { 1140, 8 }, PISA_MATCH_EXACT } };
static struct pisa_key_field k_range[] = { { { 1200, 16 }, PISA_MATCH_RANGE } };
static struct pisa_key_field k_tiny[] = { { { 1300, 16 }, PISA_MATCH_EXACT } };
static struct pisa_key_field k_fixed[] = { { { 1400, 8 }, PISA_MATCH_EXACT } };
static struct pisa_key_field k_v6[] = { { { 1500, 64 }, PISA_MATCH_LPM },
					{ { 1564, 64 }, PISA_MATCH_LPM } };

/* an action selector: ind (lpm) points into mbr (exact on a 4-bit index): members
 * 0..5, group slots 6..11, 15 = no member */
static struct pisa_key_field k_ind[] = { { { 1000, 32 }, PISA_MATCH_LPM } };
static struct pisa_key_field k_mbr[] = { { { 1600, 4 }, PISA_MATCH_EXACT } };
/* a ternary table split over two stages: pieces of 2 rows, each with its counter */
static struct pisa_key_field k_spl[] = { { { 1700, 8 }, PISA_MATCH_TERNARY } };

static struct pisa_rt_key rk_fwd[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_EXACT },
				       { "meta.port", 9, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_lpm[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_acl[] = { { "hdr.ipv4.srcAddr", 32, PISA_MATCH_TERNARY },
				       { "hdr.ipv4.protocol", 8, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_range[] = { { "hdr.tcp.dstPort", 16, PISA_MATCH_RANGE } };
static struct pisa_rt_key rk_tiny[] = { { "meta.k", 16, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_fixed[] = { { "meta.f", 8, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_v6[] = { { "hdr.ipv6.dstAddr", 128, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_ind[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_mbr[] = { { "index", 4, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_spl[] = { { "meta.s", 8, PISA_MATCH_TERNARY } };

static struct pisa_table_action ta_fwd[] = { { A_SET_PORT, 0, 0 }, { A_DROP, 0, 0 } };
static struct pisa_table_action ta_lpm[] = { { A_FWD, 0, 0 }, { A_DROP, 0, 0 } };
static struct pisa_table_action ta_acl[] = { { A_ALLOW, 0, PISA_TA_TABLE_ONLY },
					     { A_DENY, 0, PISA_TA_DEFAULT_ONLY } };
static struct pisa_table_action ta_range[] = { { A_CLASS, 0, 0 } };
static struct pisa_table_action ta_port[] = { { A_SET_PORT, 0, 0 } };
static struct pisa_table_action ta_gw[] = { { A_SET_PORT, 0, 0 }, { A_DROP, 0, 0 } };
static struct pisa_table_action ta_ind[] = { { A_MBR, 0, 0 }, { A_GRP, 0, 0 } };
static struct pisa_table_action ta_mbr[] = { { A_SET_PORT, 0, 0 }, { A_DROP, 0, 0 } };

static uint8_t ind_default[] = { 0xf0 };	/* $member(15): no member */
static struct pisa_table_action ta_spl0[] = { { A_SET_PORT, 0, 0 }, { A_DROP, 0, PISA_TA_DEFAULT_ONLY } };
static struct pisa_table_action ta_spl1[] = { { A_SET_PORT, 0, 0 } };
static uint8_t spl_default[] = { 0x00, 0x80 };	/* set_port(1) */

static uint8_t gw_default[] = { 0x03, 0x80 };	/* set_port(7) */

static struct pisa_table tables[NT] = {
	[T_FWD] = { .mem = PISA_MEM_HASH, .nkeys = 2, .keys = k_fwd, .key_bits = 41,
		    .adata_bits = 9, .ways = 2, .way_bits = 3, .rows = 16, .nactions = 2,
		    .actions = ta_fwd, .direct_counter = C_FWD, .direct_meter = -1,
		    .default_action = A_DROP },
	[T_LPM] = { .mem = PISA_MEM_TCAM, .nkeys = 1, .keys = k_lpm, .key_bits = 32,
		    .adata_bits = 57, .rows = 8, .nactions = 2, .actions = ta_lpm,
		    .direct_counter = -1, .direct_meter = M_LPM, .default_action = A_DROP },
	[T_ACL] = { .mem = PISA_MEM_TCAM, .nkeys = 2, .keys = k_acl, .key_bits = 40,
		    .adata_bits = 0, .rows = 8, .nactions = 2, .actions = ta_acl,
		    .direct_counter = C_ACL, .direct_meter = -1, .default_action = A_DENY },
	[T_RANGE] = { .mem = PISA_MEM_TCAM, .nkeys = 1, .keys = k_range, .key_bits = 16,
		      .adata_bits = 8, .rows = 4, .nactions = 1, .actions = ta_range,
		      .direct_counter = -1, .direct_meter = -1, .default_action = A_CLASS },
	[T_TINY] = { .mem = PISA_MEM_HASH, .nkeys = 1, .keys = k_tiny, .key_bits = 16,
		     .adata_bits = 9, .ways = 2, .way_bits = 2, .rows = 8, .nactions = 1,
		     .actions = ta_port, .direct_counter = C_TINY, .direct_meter = -1,
		     .default_action = A_SET_PORT },
	[T_FIXED] = { .mem = PISA_MEM_HASH, .nkeys = 1, .keys = k_fixed, .key_bits = 8,
		      .adata_bits = 9, .ways = 1, .way_bits = 2, .rows = 4, .nactions = 1,
		      .actions = ta_port, .direct_counter = -1, .direct_meter = -1,
		      .default_action = A_SET_PORT },
	[T_V6] = { .mem = PISA_MEM_TCAM, .nkeys = 2, .keys = k_v6, .key_bits = 128,
		   .adata_bits = 9, .rows = 4, .nactions = 1, .actions = ta_port,
		   .direct_counter = -1, .direct_meter = -1, .default_action = A_SET_PORT },
	[T_GW] = { .mem = PISA_MEM_NONE, .adata_bits = 9, .nactions = 2, .actions = ta_gw, .direct_counter = -1,
		   .direct_meter = -1, .default_action = A_SET_PORT, .default_adata_len = 2,
		   .default_adata = gw_default },
	[T_IND] = { .mem = PISA_MEM_TCAM, .nkeys = 1, .keys = k_ind, .key_bits = 32,
		    .adata_bits = 8, .rows = 4, .nactions = 2, .actions = ta_ind,
		    .direct_counter = -1, .direct_meter = -1, .default_action = A_MBR,
		    .default_adata_len = 1, .default_adata = ind_default },
	[T_MBR] = { .mem = PISA_MEM_HASH, .nkeys = 1, .keys = k_mbr, .key_bits = 4,
		    .adata_bits = 9, .ways = 2, .way_bits = 3, .rows = 16, .nactions = 2,
		    .actions = ta_mbr, .direct_counter = -1, .direct_meter = -1,
		    .default_action = A_DROP },
	/* piece 0 misses into piece 1 (its default: drop, as the compiler's $piece_miss);
	 * piece 1's default is the table's */
	[T_SPL0] = { .mem = PISA_MEM_TCAM, .nkeys = 1, .keys = k_spl, .key_bits = 8,
		     .adata_bits = 9, .rows = 2, .nactions = 2, .actions = ta_spl0,
		     .direct_counter = C_SPL0, .direct_meter = -1, .default_action = A_DROP,
		     .stage = 1 },
	[T_SPL1] = { .mem = PISA_MEM_TCAM, .nkeys = 1, .keys = k_spl, .key_bits = 8,
		     .adata_bits = 9, .rows = 2, .nactions = 1, .actions = ta_spl1,
		     .direct_counter = C_SPL1, .direct_meter = -1, .default_action = A_SET_PORT,
		     .default_adata_len = 2, .default_adata = spl_default, .stage = 2 },
};

static struct pisa_rt_table rt_tables[NT] = {
	[T_FWD] = { "MyIngress.fwd", 1, 16, 0, 0, 2, rk_fwd },
	[T_LPM] = { "MyIngress.ipv4_lpm", 2, 8, 0, 0, 1, rk_lpm },
	[T_ACL] = { "MyIngress.acl", 3, 8, 0, 0, 2, rk_acl },
	[T_RANGE] = { "MyIngress.port_range", 4, 4, 0, 0, 1, rk_range },
	[T_TINY] = { "MyIngress.tiny", 5, 8, 0, 0, 1, rk_tiny },
	[T_FIXED] = { "MyIngress.fixed", 6, 4, 1, 1, 1, rk_fixed },
	[T_V6] = { "MyIngress.v6", 7, 4, 0, 0, 1, rk_v6 },
	[T_GW] = { "MyEgress.gw", 8, 0, 0, 0, 0, NULL },
	[T_IND] = { "MyIngress.ind", 9, 4, 0, 0, 1, rk_ind },
	[T_MBR] = { "MyIngress.sel$members", 0, 12, 1, 1, 1, rk_mbr },
	[T_SPL0] = { "MyIngress.split", 60, 4, 0, 0, 1, rk_spl },
	[T_SPL1] = { "MyIngress.split", 60, 4, 0, 0, 1, rk_spl },
};

static struct pisa_rt_param p_port[] = { { "port", 9, 0 } };
static struct pisa_rt_param p_fwd[] = { { "dstAddr", 48, 0 }, { "port", 9, 48 } };
static struct pisa_rt_param p_class[] = { { "class", 8, 0 } };
static struct pisa_rt_param p_mbr[] = { { "index", 4, 0 } };
static struct pisa_rt_param p_grp[] = { { "base", 4, 0 }, { "size", 4, 4 } };

static struct pisa_action actions[NA];
static struct pisa_rt_action rt_actions[NA] = {
	[A_SET_PORT] = { "MyIngress.set_port", 10, 1, p_port },
	[A_DROP] = { "MyIngress.drop", 11, 0, NULL },
	[A_FWD] = { "MyIngress.ipv4_forward", 12, 2, p_fwd },
	[A_ALLOW] = { "MyIngress.allow", 13, 0, NULL },
	[A_DENY] = { "MyIngress.deny", 14, 0, NULL },
	[A_CLASS] = { "MyIngress.set_class", 15, 1, p_class },
	[A_EDROP] = { "MyEgress.drop", 16, 0, NULL },
	[A_MBR] = { "MyIngress.ind$member", 0, 1, p_mbr },
	[A_GRP] = { "MyIngress.ind$group", 0, 2, p_grp },
};

static struct pisa_rt_profile_table prof_tables[] = { { T_IND, A_MBR, A_GRP } };
static struct pisa_rt_profile profiles[] = {
	{ "MyIngress.sel", 50, 1, 6, 6, 0, T_MBR, 1, prof_tables },
};

static struct pisa_counter counters[NC] = {
	[C_FWD] = { PISA_COUNTER_BOTH, 16, T_FWD },
	[C_ACL] = { PISA_COUNTER_BOTH, 8, T_ACL },
	[C_TINY] = { PISA_COUNTER_PACKETS, 8, T_TINY },
	[C_PKTS] = { PISA_COUNTER_BOTH, 4, -1 },
	[C_SPL0] = { PISA_COUNTER_PACKETS, 2, T_SPL0 },
	[C_SPL1] = { PISA_COUNTER_PACKETS, 2, T_SPL1 },
};
static struct pisa_rt_named rt_counters[NC] = {
	{ "MyIngress.fwd_counter", 20 }, { "MyIngress.acl_counter", 21 },
	{ "MyIngress.tiny_counter", 22 }, { "MyIngress.pkts", 23 },
	{ "MyIngress.split_hits", 24 }, { "MyIngress.split_hits", 24 },
};
static struct pisa_register registers[] = { { 32, 4 }, { 8, 3 }, { 16, 1 }, { 16, 1 } };
static struct pisa_rt_named rt_registers[] = { { "MyIngress.reg_a", 30 }, { "MyEgress.reg_b", 31 },
					       { "MyIngress.x.idx", 32 }, { "MyEgress.x.idx", 33 } };
static struct pisa_meter meters[NM] = { [M_IND] = { PISA_METER_PACKETS, 4, -1 },
					[M_LPM] = { PISA_METER_BYTES, 8, T_LPM } };
static struct pisa_rt_named rt_meters[NM] = { { "MyIngress.m_ind", 40 }, { "MyIngress.m_lpm", 41 } };

/* fixed: key 0x2a -> set_port(9), placed where way 0 hashes it */
static uint8_t fixed_row[3 + 1 + 2] = { 0x01, 0x00, A_SET_PORT, 0x2a, 0x04, 0x80 };
static struct pisa_const_row const_rows[] = { { T_FIXED, 0, sizeof(fixed_row), fixed_row } };

static struct pisa_image img = {
	.board = "sim", .program = "ctl_test", .phv_bytes = 256, .cpu_port = 255, .nstages = 4,
	.ntables = NT, .tables = tables, .nactions = NA, .actions = actions,
	.ncounters = NC, .counters = counters, .nregisters = 4, .registers = registers,
	.nmeters = NM, .meters = meters,
	.mcast_groups = 8, .mcast_nodes = 4, .clone_sessions = 4,
	.rt_tables = rt_tables, .rt_actions = rt_actions, .rt_counters = rt_counters,
	.rt_registers = rt_registers, .rt_meters = rt_meters,
	.nconst_rows = 1, .const_rows = const_rows,
	.nprofiles = 1, .rt_profiles = profiles,
};

/* ---- the fake switch ---- */

#define MAXROWS 17
#define MAXRB 64
#define MAXLOG 8192

struct wlog {
	char op;		/* R row, C counter, G register, M meter, T mcast, S clone */
	uint16_t id;
	uint32_t index;
};

struct fsw {
	uint8_t rows[NT][MAXROWS][MAXRB];
	uint64_t cp[NC][16], cb[NC][16];
	uint64_t regs[4][4];
	struct pisa_meter_cfg mcfg[NM][8];
	uint16_t mc_n[8];
	struct pisa_mc_copy mc[8][64];
	struct pisa_clone_cfg clones[4];
	struct wlog log[MAXLOG];
	int nlog;
	int fail_at;		/* the write with this log number fails (-1 never) */
	/* when set, every row write is followed by a lookup of these keys in T_TINY */
	int check_keys;
	int nkeys;
	uint16_t keys[16];
	int lookup_failures;
};

static int fsw_log(struct fsw *s, char op, uint16_t id, uint32_t index)
{
	if (s->nlog == s->fail_at)
		return -PISA_E_IO;
	if (s->nlog < MAXLOG) {
		s->log[s->nlog].op = op;
		s->log[s->nlog].id = id;
		s->log[s->nlog].index = index;
	}
	s->nlog++;
	return 0;
}

/* HASH lookup over the fake row memory, as the hardware does it */
static int hash_lookup(struct fsw *s, unsigned tid, const uint8_t *key)
{
	const struct pisa_table *t = &tables[tid];
	size_t kb = pisa_row_key_bytes(t);
	unsigned w;

	for (w = 0; w < t->ways; w++) {
		uint32_t r = (uint32_t)w << t->way_bits |
			     (pisa_hash_way(w, key, kb) & ((1u << t->way_bits) - 1));

		if ((s->rows[tid][r][0] & PISA_ROW_VALID) && !memcmp(s->rows[tid][r] + 3, key, kb))
			return (int)r;
	}
	return -1;
}

static int f_write_row(void *sw, uint16_t table, uint32_t index, const uint8_t *row, size_t len)
{
	struct fsw *s = sw;
	int i, rc;

	if (table >= NT || index > tables[table].rows || len != pisa_row_bytes(&tables[table]) ||
	    len > MAXRB)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'R', table, index)))
		return rc;
	memcpy(s->rows[table][index], row, len);
	if (s->check_keys && table == T_TINY)
		for (i = 0; i < s->nkeys; i++) {
			uint8_t k[2] = { (uint8_t)(s->keys[i] >> 8), (uint8_t)s->keys[i] };

			if (hash_lookup(s, T_TINY, k) < 0)
				s->lookup_failures++;
		}
	return 0;
}

static int f_counter_read(void *sw, uint16_t id, uint32_t index, uint64_t *p, uint64_t *b)
{
	struct fsw *s = sw;

	if (id >= NC || index >= counters[id].size)
		return -PISA_E_RANGE;
	*p = s->cp[id][index];
	*b = s->cb[id][index];
	return 0;
}

static int f_counter_write(void *sw, uint16_t id, uint32_t index, uint64_t p, uint64_t b)
{
	struct fsw *s = sw;
	int rc;

	if (id >= NC || index >= counters[id].size)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'C', id, index)))
		return rc;
	s->cp[id][index] = p;
	s->cb[id][index] = b;
	return 0;
}

static int f_register_read(void *sw, uint16_t id, uint32_t index, uint64_t *v)
{
	struct fsw *s = sw;

	if (id >= 4 || index >= registers[id].size)
		return -PISA_E_RANGE;
	*v = s->regs[id][index];
	return 0;
}

static int f_register_write(void *sw, uint16_t id, uint32_t index, uint64_t v)
{
	struct fsw *s = sw;
	int rc;

	if (id >= 4 || index >= registers[id].size)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'G', id, index)))
		return rc;
	s->regs[id][index] = v;
	return 0;
}

static int f_meter_write(void *sw, uint16_t id, uint32_t index, const struct pisa_meter_cfg *cfg)
{
	struct fsw *s = sw;
	int rc;

	if (id >= NM || index >= meters[id].size)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'M', id, index)))
		return rc;
	s->mcfg[id][index] = *cfg;
	return 0;
}

static int f_mcast_write(void *sw, uint16_t group, uint16_t n, const struct pisa_mc_copy *c)
{
	struct fsw *s = sw;
	int rc;

	if (group >= img.mcast_groups || n > 64)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'T', group, n)))
		return rc;
	s->mc_n[group] = n;
	memset(s->mc[group], 0, sizeof(s->mc[group]));
	if (n)
		memcpy(s->mc[group], c, n * sizeof(*c));
	return 0;
}

static int f_clone_write(void *sw, uint16_t session, const struct pisa_clone_cfg *cfg)
{
	struct fsw *s = sw;
	int rc;

	if (session >= img.clone_sessions)
		return -PISA_E_RANGE;
	if ((rc = fsw_log(s, 'S', session, 0)))
		return rc;
	s->clones[session] = *cfg;
	return 0;
}

static const struct pisa_switch_ops fops = {
	f_write_row, f_counter_read, f_counter_write, f_register_read, f_register_write,
	f_meter_write, f_mcast_write, f_clone_write, NULL,	/* no MACs */
};

/* the state without the log, for "nothing changed" checks */
static int same_state(const struct fsw *a, const struct fsw *b)
{
	return !memcmp(a->rows, b->rows, sizeof(a->rows)) && !memcmp(a->cp, b->cp, sizeof(a->cp)) &&
	       !memcmp(a->cb, b->cb, sizeof(a->cb)) && !memcmp(a->regs, b->regs, sizeof(a->regs)) &&
	       !memcmp(a->mcfg, b->mcfg, sizeof(a->mcfg)) && !memcmp(a->mc_n, b->mc_n, sizeof(a->mc_n)) &&
	       !memcmp(a->mc, b->mc, sizeof(a->mc)) && !memcmp(a->clones, b->clones, sizeof(a->clones));
}

static struct fsw *fsw_new(void)
{
	struct fsw *s = calloc(1, sizeof(*s));

	s->fail_at = -1;
	return s;
}

/* ---- helpers ---- */

static char errbuf[1024];
static char outbuf[65536];

/* runs a command; output in outbuf */
static int run(struct pisa_ctl *c, const char *line)
{
	FILE *f;
	int rc;

	outbuf[0] = '\0';
	f = fmemopen(outbuf, sizeof(outbuf), "w");

	rc = pisa_ctl_exec(c, line, f, errbuf, sizeof(errbuf));
	fclose(f);
	return rc;
}

static void must(struct pisa_ctl *c, const char *line)
{
	int rc = run(c, line);

	if (rc) {
		printf("FAIL command '%s': %d %s\n", line, rc, errbuf);
		failures++;
	}
}

static void hexstr(char *dst, const uint8_t *p, size_t n)
{
	size_t i;

	dst[0] = '\0';
	for (i = 0; i < n; i++)
		sprintf(dst + strlen(dst), "%s%02x", i ? " " : "", p[i]);
}

static void check_row(struct fsw *s, unsigned tid, uint32_t row, const char *want,
		      const char *name)
{
	char got[MAXRB * 3 + 1];

	hexstr(got, s->rows[tid][row], pisa_row_bytes(&tables[tid]));
	ok(!strcmp(got, want), name, "row %u is '%s', want '%s'", row, got, want);
}

/* a transcript of commands and what they printed, compared with a golden file */
static void golden(struct pisa_ctl *c, const char *file, const char *const *cmds)
{
	char path[256], *got = NULL, *want = NULL;
	size_t gotlen = 0, wantlen = 0;
	FILE *f = open_memstream(&got, &gotlen);
	int i;

	for (i = 0; cmds[i]; i++) {
		int rc = run(c, cmds[i]);

		fprintf(f, "RuntimeCmd: %s\n", cmds[i]);
		if (rc)
			fprintf(f, "error %d: %s\n", rc, errbuf);
		else
			fputs(outbuf, f);
	}
	fclose(f);
	snprintf(path, sizeof(path), "tests/ctl/golden/%s", file);
	if (getenv("PISA_REGEN")) {
		FILE *g = fopen(path, "w");

		if (g) {
			fwrite(got, 1, gotlen, g);
			fclose(g);
		}
		printf("PASS golden %s (regenerated)\n", file);
		free(got);
		return;
	}
	f = fopen(path, "r");
	if (f) {
		want = calloc(1, 1 << 16);
		wantlen = fread(want, 1, (1 << 16) - 1, f);
		fclose(f);
	}
	if (want && wantlen == gotlen && !memcmp(want, got, gotlen)) {
		printf("PASS golden %s\n", file);
	} else {
		size_t k = 0;

		while (want && k < wantlen && k < gotlen && want[k] == got[k])
			k++;
		printf("FAIL golden %s: differs at byte %zu (%s); got:\n%s\n", file, k,
		       want ? "see diff" : "no golden file", got);
		failures++;
	}
	free(want);
	free(got);
}

/* ---- pisa_value ---- */

static void test_values(void)
{
	static const struct {
		const char *s;
		unsigned width;
		int rc;
		const char *hex;	/* the low bytes of the 128-bit value */
	} cases[] = {
		{ "0", 8, 0, "00" }, { "255", 8, 0, "ff" }, { "256", 8, -PISA_E_RANGE, NULL },
		{ "0x1ff", 9, 0, "01 ff" }, { "0x200", 9, -PISA_E_RANGE, NULL },
		{ "0b101", 4, 0, "05" }, { "0o17", 8, 0, "0f" }, { "0O17", 8, 0, "0f" },
		{ "010", 8, -PISA_E_INVAL, NULL }, { "00", 8, 0, "00" }, { "0_0", 8, 0, "00" },
		{ "1_000", 16, 0, "03 e8" }, { "1__0", 16, -PISA_E_INVAL, NULL },
		{ "_1", 16, -PISA_E_INVAL, NULL }, { "1_", 16, -PISA_E_INVAL, NULL },
		{ "0x_ff", 8, 0, "ff" }, { "0x", 8, -PISA_E_INVAL, NULL }, { "", 8, -PISA_E_INVAL, NULL },
		{ "-1", 8, -PISA_E_RANGE, NULL }, { "-0", 8, 0, "00" }, { "+7", 8, 0, "07" },
		{ "12a", 8, -PISA_E_INVAL, NULL }, { "0xG", 8, -PISA_E_INVAL, NULL },
		{ "10.0.1.1", 32, 0, "0a 00 01 01" }, { "10.0.1.256", 32, -PISA_E_INVAL, NULL },
		{ "10.0.1", 32, -PISA_E_INVAL, NULL }, { "10.0.1.1", 31, -PISA_E_INVAL, NULL },
		{ "08:00:00:00:01:11", 48, 0, "08 00 00 00 01 11" },
		{ "8:0:0:0:1:aB", 48, 0, "08 00 00 00 01 ab" },
		{ "08:00:00:00:01", 48, -PISA_E_INVAL, NULL },
		{ "08:00:00:00:01:111", 48, -PISA_E_INVAL, NULL },
		{ "fe80::1", 128, 0, "fe 80 00 00 00 00 00 00 00 00 00 00 00 00 00 01" },
		{ "::ffff:10.0.0.1", 128, 0, "00 00 00 00 00 00 00 00 00 00 ff ff 0a 00 00 01" },
		{ "fe80:::1", 128, -PISA_E_INVAL, NULL },
		{ "0xffffffffffffffffffffffffffffffff", 128, 0,
		  "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff" },
		{ "0x1ffffffffffffffffffffffffffffffff", 128, -PISA_E_RANGE, NULL },
		{ "340282366920938463463374607431768211455", 128, 0,
		  "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff" },
		{ "18446744073709551616", 65, 0, "01 00 00 00 00 00 00 00 00" },
		{ "18446744073709551616", 64, -PISA_E_RANGE, NULL },
		{ "0x0a000101", 32, 0, "0a 00 01 01" }, { "1", 1, 0, "01" }, { "2", 1, -PISA_E_RANGE, NULL },
	};
	static const struct {
		double v;
		const char *s;
	} floats[] = {
		{ 1.0, "1.0" }, { 0.5, "0.5" }, { 0.1, "0.1" }, { 1e-5, "1e-05" }, { 1e16, "1e+16" },
		{ 100000.0, "100000.0" }, { 123.456, "123.456" }, { 0.0001, "0.0001" },
		{ 2.5e-7, "2.5e-07" }, { 1234567890123456.0, "1234567890123456.0" },
	};
	unsigned i;
	int good = 1;
	uint64_t d;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t v[PISA_VALUE_BYTES];
		const char *why = "";
		int rc = pisa_value_parse(cases[i].s, cases[i].width, v, &why);
		char got[64];

		if (rc != cases[i].rc) {
			printf("FAIL value '%s' width %u: rc %d (%s), want %d\n", cases[i].s,
			       cases[i].width, rc, why, cases[i].rc);
			good = 0;
			continue;
		}
		if (!cases[i].hex)
			continue;
		hexstr(got, v + PISA_VALUE_BYTES - (cases[i].width + 7) / 8, (cases[i].width + 7) / 8);
		if (strcmp(got, cases[i].hex)) {
			printf("FAIL value '%s': got '%s', want '%s'\n", cases[i].s, got, cases[i].hex);
			good = 0;
		}
	}
	ok(good, "value parse (decimal, 0x, 0b, 0o, IPv4, MAC, IPv6, widths, errors)", "see above");
	good = 1;
	for (i = 0; i < sizeof(floats) / sizeof(floats[0]); i++) {
		char buf[40];

		pisa_value_fmt_float(floats[i].v, buf, sizeof(buf));
		if (strcmp(buf, floats[i].s)) {
			printf("FAIL float %s: got %s\n", floats[i].s, buf);
			good = 0;
		}
	}
	ok(good, "float repr like Python", "see above");
	ok(pisa_value_parse_dec("42", 100, &d) == 0 && d == 42 &&
	   pisa_value_parse_dec("0x2a", 100, &d) == -PISA_E_INVAL &&
	   pisa_value_parse_dec("101", 100, &d) == -PISA_E_RANGE &&
	   pisa_value_parse_dec("", 100, &d) == -PISA_E_INVAL,
	   "decimal-only integers (handles, indices)", "mismatch");
}

/* ---- tables ---- */

static void test_init(struct pisa_ctl *c, struct fsw *s)
{
	uint32_t fixed_idx = pisa_hash_way(0, fixed_row + 3, 1) & 3;

	const_rows[0].index = fixed_idx;
	ok(pisa_ctl_init(c) == 0, "init", "failed");
	check_row(s, T_FWD, 16, "01 00 01 00 00 00 00 00 00 00 00", "init: fwd default row (drop)");
	check_row(s, T_GW, 0, "01 00 00 03 80", "init: keyless default row with image adata");
	check_row(s, T_FIXED, fixed_idx, "01 00 00 2a 04 80", "init: const row written");
	ok(run(c, "table_num_entries fixed") == 0 && !strcmp(outbuf, "1\n"),
	   "init: const entry is in the shadow", "got '%s'", outbuf);
}

static void test_exact(struct pisa_ctl *c, struct fsw *s)
{
	uint8_t key[6] = { 0x00, 0x14, 0x00, 0x02, 0x02, 0x05 };
	int r;

	ok(run(c, "table_add fwd set_port 10.0.1.1 5 => 3") == 0 &&
	   strstr(outbuf, "Entry has been added with handle 0\n"), "exact: add, handle 0",
	   "rc/out: %s %s", errbuf, outbuf);
	r = hash_lookup(s, T_FWD, key);
	ok(r >= 0, "exact: entry findable by hashing its key", "not found");
	if (r >= 0)
		check_row(s, T_FWD, (uint32_t)r, "01 00 00 00 14 00 02 02 05 01 80",
			  "exact: row bytes (41-bit key right-aligned, 9-bit param MSB first)");
	ok(run(c, "table_add MyIngress.fwd MyIngress.drop 10.0.1.2 0x1ff =>") == 0 &&
	   strstr(outbuf, "handle 1\n"), "exact: second add, full names, handle 1", "%s", errbuf);
	ok(run(c, "table_add fwd drop 10.0.1.3 7") == 0 && strstr(outbuf, "handle 2\n"),
	   "exact: add without '=>' when there are no params", "%s", errbuf);
	must(c, "table_delete fwd 1");
	ok(run(c, "table_add fwd drop 10.0.1.4 7") == 0 && strstr(outbuf, "handle 1\n"),
	   "exact: lowest free handle is reused", "%s", outbuf);
	must(c, "table_modify fwd set_port 1 => 0x100");
	{
		uint8_t k4[6] = { 0x00, 0x14, 0x00, 0x02, 0x08, 0x07 };

		r = hash_lookup(s, T_FWD, k4);
		ok(r >= 0, "exact: modified entry still found", "not found");
		if (r >= 0)
			check_row(s, T_FWD, (uint32_t)r, "01 00 00 00 14 00 02 08 07 80 00",
				  "exact: modify rewrites action and data in place");
	}
}

static void test_lpm(struct pisa_ctl *c, struct fsw *s)
{
	static const char *const plens[] = { "16", "24", "32", "8", "24" };
	char line[160];
	unsigned i;
	int good = 1;

	for (i = 0; i < 5; i++) {
		snprintf(line, sizeof(line),
			 "table_add ipv4_lpm ipv4_forward 10.0.1.1/%s => 08:00:00:00:01:11 %u",
			 plens[i], i);
		if (i == 4)	/* same prefix as handle 1 but different value */
			snprintf(line, sizeof(line),
				 "table_add ipv4_lpm ipv4_forward 10.0.2.1/24 => 08:00:00:00:01:11 %u", i);
		if (run(c, line)) {
			printf("FAIL %s: %s\n", line, errbuf);
			good = 0;
		}
	}
	ok(good, "lpm: five adds", "see above");
	/* rows: /32 (h2), /24 (h1), /24 (h4, younger), /16 (h0), /8 (h3) */
	check_row(s, T_LPM, 0, "01 00 02 0a 00 01 01 ff ff ff ff 08 00 00 00 01 11 01 00",
		  "lpm: row 0 is the /32");
	check_row(s, T_LPM, 1, "01 00 02 0a 00 01 00 ff ff ff 00 08 00 00 00 01 11 00 80",
		  "lpm: row 1 the older /24, value masked");
	check_row(s, T_LPM, 2, "01 00 02 0a 00 02 00 ff ff ff 00 08 00 00 00 01 11 02 00",
		  "lpm: row 2 the younger /24");
	check_row(s, T_LPM, 3, "01 00 02 0a 00 00 00 ff ff 00 00 08 00 00 00 01 11 00 00",
		  "lpm: row 3 the /16");
	check_row(s, T_LPM, 4, "01 00 02 0a 00 00 00 ff 00 00 00 08 00 00 00 01 11 01 80",
		  "lpm: row 4 the /8");
	check_row(s, T_LPM, 5, "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
		  "lpm: row 5 invalid");
	/* a direct meter on the /8 entry moves with it */
	must(c, "meter_set_rates m_lpm 3 0.5:1000 1.25:2000");
	ok(s->mcfg[M_LPM][4].configured && s->mcfg[M_LPM][4].cir_q16 == 32768 &&
	   s->mcfg[M_LPM][4].pir_q16 == 81920 && s->mcfg[M_LPM][4].cbs == 1000 &&
	   s->mcfg[M_LPM][4].pbs == 2000, "meter: direct rates to the entry's row in q16",
	   "cir %u pir %u", s->mcfg[M_LPM][4].cir_q16, s->mcfg[M_LPM][4].pir_q16);
	must(c, "table_add ipv4_lpm drop 10.0.0.0/12 =>");	/* goes between /16 and /8 */
	check_row(s, T_LPM, 4, "01 00 01 0a 00 00 00 ff f0 00 00 00 00 00 00 00 00 00 00",
		  "lpm: insert shifts rows down");
	check_row(s, T_LPM, 5, "01 00 02 0a 00 00 00 ff 00 00 00 08 00 00 00 01 11 01 80",
		  "lpm: the /8 moved to row 5");
	ok(s->mcfg[M_LPM][5].configured && s->mcfg[M_LPM][5].cir_q16 == 32768 &&
	   !s->mcfg[M_LPM][4].configured, "meter: direct meter moved with its row",
	   "row5 %d row4 %d", s->mcfg[M_LPM][5].configured, s->mcfg[M_LPM][4].configured);
	must(c, "table_delete ipv4_lpm 1");
	check_row(s, T_LPM, 1, "01 00 02 0a 00 02 00 ff ff ff 00 08 00 00 00 01 11 02 00",
		  "lpm: delete shifts rows up");
	check_row(s, T_LPM, 4, "01 00 02 0a 00 00 00 ff 00 00 00 08 00 00 00 01 11 01 80",
		  "lpm: the /8 moved up to row 4");
	check_row(s, T_LPM, 5, "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
		  "lpm: last row invalidated");
}

static void test_ternary(struct pisa_ctl *c, struct fsw *s)
{
	uint64_t p, b;

	must(c, "table_add acl allow 10.0.0.0&&&255.0.0.0 6 => 10");
	check_row(s, T_ACL, 0, "01 00 03 0a 00 00 00 06 ff 00 00 00 ff",
		  "ternary: row bytes (value, mask, exact key fully masked)");
	must(c, "counter_write acl_counter 0 7 700");
	must(c, "table_add acl allow 10.1.0.0&&&0xffff0000 17 => 5");	/* h1 */
	must(c, "table_add acl allow 0&&&0 0 => 20");			/* h2 */
	must(c, "table_add acl allow 10.1.2.3&&&255.255.255.255 6 => 5");	/* h3 */
	/* order: prio 5 (h1), 5 (h3, younger), 10 (h0), 20 (h2) */
	check_row(s, T_ACL, 0, "01 00 03 0a 01 00 00 11 ff ff 00 00 ff", "ternary: row 0 prio 5 older");
	check_row(s, T_ACL, 1, "01 00 03 0a 01 02 03 06 ff ff ff ff ff", "ternary: row 1 prio 5 younger");
	check_row(s, T_ACL, 2, "01 00 03 0a 00 00 00 06 ff 00 00 00 ff", "ternary: row 2 prio 10");
	check_row(s, T_ACL, 3, "01 00 03 00 00 00 00 00 00 00 00 00 ff", "ternary: row 3 prio 20");
	ok(s->cp[C_ACL][2] == 7 && s->cb[C_ACL][2] == 700 && s->cp[C_ACL][0] == 0,
	   "counter: direct cell moved with its row", "cells %llu %llu",
	   (unsigned long long)s->cp[C_ACL][2], (unsigned long long)s->cp[C_ACL][0]);
	ok(run(c, "counter_read acl_counter 0") == 0 &&
	   !strcmp(outbuf, "this is the direct counter for table MyIngress.acl\nacl_counter[0]= (700 bytes, 7 packets)\n"),
	   "counter: direct read by entry handle", "got '%s' %s", outbuf, errbuf);
	f_counter_read(s, C_ACL, 2, &p, &b);
	must(c, "table_delete acl 1");
	ok(s->cp[C_ACL][1] == 7 && s->cp[C_ACL][2] == 0, "counter: cell follows delete shift",
	   "%llu", (unsigned long long)s->cp[C_ACL][1]);
	must(c, "table_add port_range set_class 1024->65535 => 3 1");
	check_row(s, T_RANGE, 0, "01 00 05 00 00 00 00 04 00 ff ff 03", "range: row bytes (lo, hi)");
	must(c, "table_add v6 set_port fe80::/16 => 1");
	must(c, "table_add v6 set_port fe80::1:0/112 => 2");
	check_row(s, T_V6, 0,
		  "01 00 00 fe 80 00 00 00 00 00 00 00 00 00 00 00 01 00 00 ff ff ff ff ff ff ff ff ff ff ff ff ff ff 00 00 01 00",
		  "lpm 128-bit over two key fields: /112 first");
	check_row(s, T_V6, 1,
		  "01 00 00 fe 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80",
		  "lpm 128-bit: /16 second");
}

static void test_cuckoo(struct pisa_ctl *c, struct fsw *s)
{
	static const uint16_t bases[] = { 1, 1000, 30000, 50000 };
	char line[128];
	unsigned i, t, added = 0, nwrites, moved = 0, fulls = 0, full_ok = 1, filled = 1;
	int good = 1, rc = 0;
	struct fsw *snap = malloc(sizeof(*snap));
	uint16_t key;
	unsigned j;

	/* several fills of the 2-way x 4-bucket table, each until it is full */
	for (t = 0; t < sizeof(bases) / sizeof(bases[0]); t++) {
		must(c, "table_clear tiny");
		s->check_keys = 1;
		s->nkeys = 0;
		added = 0;
		for (j = 0; j < 200 && added < 8; j++) {
			int n0;

			/* spread over both key bytes (an odd step visits distinct keys) */
			key = (uint16_t)(bases[t] + j * 0x9e37u);

			/* a distinct count per entry shows cells following their rows */
			for (i = 0; i < added; i++) {
				snprintf(line, sizeof(line), "counter_write tiny_counter %u %u 0", i, 100 + i);
				must(c, line);
			}
			memcpy(snap, s, sizeof(*snap));
			n0 = s->nlog;
			snprintf(line, sizeof(line), "table_add tiny set_port %u => %u", key, key & 0x1ff);
			rc = run(c, line);
			if (rc) {
				fulls++;
				if (rc != -PISA_E_FULL || !same_state(snap, s) || !strstr(errbuf, "TABLE_FULL"))
					full_ok = 0;
				continue;
			}
			nwrites = 0;
			for (i = (unsigned)n0; i < (unsigned)s->nlog && i < MAXLOG; i++)
				nwrites += s->log[i].op == 'R';
			moved += nwrites > 1;
			s->keys[s->nkeys++] = key;
			added++;
			for (i = 0; i < added; i++) {
				uint64_t p = 0, b = 0;
				uint8_t k[2] = { (uint8_t)(s->keys[i] >> 8), (uint8_t)s->keys[i] };
				int r = hash_lookup(s, T_TINY, k);

				if (r < 0) {
					good = 0;
					continue;
				}
				f_counter_read(s, C_TINY, (uint32_t)r, &p, &b);
				if (i + 1 < added && p != 100 + i) {
					printf("FAIL cuckoo: key %u counter %llu, want %u\n", s->keys[i],
					       (unsigned long long)p, 100 + i);
					good = 0;
				}
			}
		}
		s->check_keys = 0;
		filled &= added == 8;
		ok(run(c, "table_num_entries tiny") == 0 && (unsigned)atoi(outbuf) == added,
		   "cuckoo: entry count", "%s", outbuf);
	}
	ok(good, "cuckoo: every entry findable by its hash, counters moved along", "see above");
	ok(s->lookup_failures == 0, "cuckoo: every key found after every single row write",
	   "%d misses", s->lookup_failures);
	ok(moved >= 3, "cuckoo: adds that needed moves", "only %u", moved);
	ok(filled, "cuckoo: 2 ways x 4 buckets filled to capacity (8 of 8) every time", "no");
	ok(fulls > 0 && full_ok, "cuckoo: failed adds change nothing and say TABLE_FULL",
	   "%u failures, ok %d: %s", fulls, full_ok, errbuf);
	memcpy(snap, s, sizeof(*snap));
	ok(run(c, "table_add tiny set_port 999 => 1") == -PISA_E_FULL && same_state(snap, s) &&
	   !strcmp(errbuf, "table MyIngress.tiny is full (8 entries) (TABLE_FULL)"),
	   "cuckoo: full table refuses", "%s", errbuf);
	snprintf(line, sizeof(line), "table_add tiny set_port %u => 1", s->keys[0]);
	ok(run(c, line) == -PISA_E_EXISTS &&
	   !strcmp(errbuf, "table MyIngress.tiny already has an entry with this key (handle 0) (DUPLICATE_ENTRY)"),
	   "cuckoo: duplicate key", "%s", errbuf);
	free(snap);
}

static void test_errors(struct pisa_ctl *c, struct fsw *s)
{
	static const struct {
		const char *cmd;
		int rc;
		const char *err;
	} cases[] = {
		{ "table_add ipv4_lpmx drop 1/1", -PISA_E_NOTFOUND,
		  "unknown table 'ipv4_lpmx'; tables: MyIngress.fwd, MyIngress.ipv4_lpm, MyIngress.acl, MyIngress.port_range, MyIngress.tiny, MyIngress.fixed, MyIngress.v6, MyEgress.gw, MyIngress.ind, MyIngress.split" },
		{ "table_add fwd drp 1 1", -PISA_E_NOTFOUND,
		  "unknown action 'drp'; actions of MyIngress.fwd: MyIngress.set_port, MyIngress.drop" },
		{ "table_add fwd ipv4_forward 1 1", -PISA_E_NOTFOUND,
		  "unknown action 'ipv4_forward'; actions of MyIngress.fwd: MyIngress.set_port, MyIngress.drop" },
		{ "table_add fwd set_port 10.0.0.1 => 1", -PISA_E_INVAL,
		  "table MyIngress.fwd needs 2 key fields, got 1" },
		{ "table_add fwd set_port 10.0.0.1 1 =>", -PISA_E_INVAL,
		  "action MyIngress.set_port needs 1 parameters, got 0" },
		{ "table_add fwd set_port 10.0.0.1 1 => 1 2", -PISA_E_INVAL,
		  "action MyIngress.set_port needs 1 parameters, got 2" },
		{ "table_add fwd set_port 10.0.0.1 512 => 1", -PISA_E_RANGE,
		  "key meta.port: '512' does not fit in 9 bits" },
		{ "table_add fwd set_port 10.0.0.1 1 => 0x200", -PISA_E_RANGE,
		  "parameter port: '0x200' does not fit in 9 bits" },
		{ "table_add fwd set_port 10.0.0.300 1 => 1", -PISA_E_INVAL,
		  "key hdr.ipv4.dstAddr: '10.0.0.300': invalid IPv4 address" },
		{ "table_add fwd set_port 010 1 => 1", -PISA_E_INVAL,
		  "key hdr.ipv4.dstAddr: '010': could not cast to integer, try in hex with 0x prefix" },
		{ "table_add fwd set_port 10.0.1.1 5 => 3", -PISA_E_EXISTS,
		  "table MyIngress.fwd already has an entry with this key (handle 0) (DUPLICATE_ENTRY)" },
		{ "table_add ipv4_lpm drop 10.0.0.0 =>", -PISA_E_INVAL,
		  "key hdr.ipv4.dstAddr: invalid LPM value '10.0.0.0', use '/' to separate prefix and length" },
		{ "table_add ipv4_lpm drop 10.0.0.0/33 =>", -PISA_E_RANGE,
		  "key hdr.ipv4.dstAddr: bad prefix length '33' (0..32)" },
		{ "table_add ipv4_lpm drop 10.0.0.0/8 => 5", -PISA_E_INVAL,
		  "action MyIngress.drop needs 0 parameters, got 1" },
		{ "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 08:00:00:00:01 1", -PISA_E_INVAL,
		  "parameter dstAddr: '08:00:00:00:01': invalid MAC address" },
		{ "table_add acl allow 10.0.0.0&&&255.0.0.0 6 =>", -PISA_E_INVAL,
		  "table MyIngress.acl has ternary/range keys: the last token must be a priority (an integer), got '=>'" },
		{ "table_add acl allow 10.0.0.0 6 => 1", -PISA_E_INVAL,
		  "key hdr.ipv4.srcAddr: invalid ternary value '10.0.0.0', use '&&&' to separate key and mask" },
		{ "table_add acl deny 10.0.0.0&&&0 6 => 1", -PISA_E_INVAL,
		  "action MyIngress.deny is default-only in table MyIngress.acl" },
		{ "table_add acl allow 10.0.0.0&&&255.0.0.0 6 => 10", -PISA_E_EXISTS,
		  "table MyIngress.acl already has an entry with this key and priority (handle 0) (DUPLICATE_ENTRY)" },
		{ "table_set_default acl allow", -PISA_E_INVAL,
		  "action MyIngress.allow is table-only in table MyIngress.acl: not a default action" },
		{ "table_add port_range set_class 5->4 => 3 1", -PISA_E_INVAL,
		  "key hdr.tcp.dstPort: range start is greater than end in '5->4'" },
		{ "table_add port_range set_class 5-4 => 3 1", -PISA_E_INVAL,
		  "key hdr.tcp.dstPort: invalid range value '5-4', use '->' to separate range start and range end" },
		{ "table_add fixed set_port 1 => 1", -PISA_E_INVAL,
		  "table MyIngress.fixed has const entries: cannot add entries" },
		{ "table_delete fixed 0", -PISA_E_INVAL,
		  "table MyIngress.fixed has const entries: cannot delete entries" },
		{ "table_modify fixed set_port 0 1", -PISA_E_INVAL,
		  "table MyIngress.fixed has const entries: cannot modify entries" },
		{ "table_set_default fixed set_port 1", -PISA_E_INVAL,
		  "table MyIngress.fixed has a const default action: cannot change it" },
		{ "table_add gw drop =>", -PISA_E_INVAL, "table MyEgress.gw has no key: use table_set_default" },
		{ "table_delete fwd 9", -PISA_E_NOTFOUND,
		  "table MyIngress.fwd has no entry with handle 9 (INVALID_HANDLE)" },
		{ "table_delete fwd x", -PISA_E_INVAL, "bad format for entry handle 'x', expected an integer" },
		{ "table_delete fwd", -PISA_E_INVAL,
		  "table_delete: wrong number of arguments (1); usage: table_delete <table> <entry handle>" },
		{ "table_modify fwd set_port 0 => 1 2", -PISA_E_INVAL,
		  "action MyIngress.set_port needs 1 parameters, got 2" },
		{ "table_dump_entry fwd 12", -PISA_E_NOTFOUND,
		  "table MyIngress.fwd has no entry with handle 12 (INVALID_HANDLE)" },
		{ "show_actions x", -PISA_E_INVAL,
		  "show_actions: wrong number of arguments (1); usage: show_actions " },
		{ "frobnicate", -PISA_E_NOTFOUND, NULL },
		{ "counter_read nope 0", -PISA_E_NOTFOUND,
		  "unknown counter 'nope'; counters: MyIngress.fwd_counter, MyIngress.acl_counter, MyIngress.tiny_counter, MyIngress.pkts, MyIngress.split_hits" },
		{ "counter_read pkts 4", -PISA_E_RANGE, "counter MyIngress.pkts: index 4 out of range (size 4) (INVALID_INDEX)" },
		{ "counter_read fwd_counter 7", -PISA_E_NOTFOUND,
		  "counter MyIngress.fwd_counter is direct: table MyIngress.fwd has no entry with handle 7 (INVALID_HANDLE)" },
		{ "counter_write pkts 0 x 1", -PISA_E_INVAL, "bad format for packets 'x', expected an integer" },
		{ "register_read reg_c", -PISA_E_NOTFOUND,
		  "unknown register 'reg_c'; registers: MyIngress.reg_a, MyEgress.reg_b, MyIngress.x.idx, MyEgress.x.idx" },
		{ "register_read x.idx", -PISA_E_NOTFOUND,
		  "ambiguous register 'x.idx'; matches: MyIngress.x.idx, MyEgress.x.idx" },
		{ "register_read Ingress.x.idx", -PISA_E_NOTFOUND, NULL },
		{ "table_add lpm drop 1/1 =>", -PISA_E_NOTFOUND, NULL },
		{ "register_write reg_b 0 256", -PISA_E_RANGE, "register MyEgress.reg_b: value '256' does not fit in 8 bits" },
		{ "register_write reg_b 0 0x10", -PISA_E_INVAL, "bad format for value '0x10', must be an integer" },
		{ "register_write reg_b 3 1", -PISA_E_RANGE,
		  "register MyEgress.reg_b: index 3 out of range (size 3) (INVALID_INDEX)" },
		{ "meter_set_rates m_ind 0 1:10", -PISA_E_INVAL,
		  "meter MyIngress.m_ind: invalid number of rates, expected 2 but got 1" },
		{ "meter_set_rates m_ind 0 1:10 x:5", -PISA_E_INVAL,
		  "meter MyIngress.m_ind: error while parsing rate 'x:5', expected <units per microsecond>:<burst>" },
		{ "meter_set_rates m_ind 0 2:10 1:5", -PISA_E_INVAL,
		  "meter MyIngress.m_ind: committed rate 2:10 is above peak rate (INVALID_INFO_RATE_VALUE)" },
		{ "meter_set_rates m_ind 0 1:10 70000:5", -PISA_E_RANGE,
		  "meter MyIngress.m_ind: rate '70000' is too large (at most 65535.99 per microsecond)" },
		{ "meter_set_rates m_lpm 9 1:10 2:5", -PISA_E_NOTFOUND,
		  "meter MyIngress.m_lpm is direct: table MyIngress.ipv4_lpm has no entry with handle 9 (INVALID_HANDLE)" },
		{ "meter_array_set_rates m_lpm 1:10 2:5", -PISA_E_INVAL,
		  "meter MyIngress.m_lpm is direct (table MyIngress.ipv4_lpm): use meter_set_rates with an entry handle" },
		{ "drop", -PISA_E_NOTFOUND, NULL },
		{ "mc_mgrp_create 0", -PISA_E_INVAL, "bad multicast group id '0' (1..65535)" },
		{ "mc_mgrp_create 8", -PISA_E_RANGE, "multicast group 8: this switch has group ids 1..7" },
		{ "mc_node_create 1 2 2", -PISA_E_INVAL, "found duplicate port number '2'" },
		{ "mc_node_create 1 2 | 3", -PISA_E_INVAL, "lag '3': LAGs are not supported" },
		{ "mc_node_create 1 511", -PISA_E_INVAL, "'511' is not a valid port number (0..510)" },
		{ "mc_node_associate 1 3", -PISA_E_NOTFOUND, "no multicast node with handle 3 (INVALID_L1_HANDLE)" },
		{ "mc_mgrp_destroy 5", -PISA_E_NOTFOUND, "no multicast group 5 (INVALID_MGID)" },
		{ "mirroring_add 4 1", -PISA_E_RANGE, "mirror_id 4: this switch has sessions 0..3" },
		{ "mirroring_add 1 512", -PISA_E_INVAL, "bad format for egress_port '512' (0..511)" },
		{ "mirroring_delete 2", -PISA_E_NOTFOUND, "no mirroring session 2 (SESSION_NOT_FOUND)" },
		{ "mirroring_get 2", -PISA_E_NOTFOUND, "no mirroring session 2 (SESSION_NOT_FOUND)" },
		{ "mirroring_add_mc 1 9", -PISA_E_RANGE, "multicast group 9: this switch has group ids 1..7" },
		{ "mirroring_add x 1", -PISA_E_INVAL,
		  "bad format for mirror_id 'x', expected an integer (0..32767)" },
		{ "mc_node_dissociate 1 0", -PISA_E_NOTFOUND, "no multicast node with handle 0 (INVALID_L1_HANDLE)" },
		{ "mc_node_create x 1", -PISA_E_INVAL, "bad format for rid 'x' (0..65535)" },
		{ "mc_node_update 0 1", -PISA_E_NOTFOUND, "no multicast node with handle 0 (INVALID_L1_HANDLE)" },
		{ "table_modify fwd set_port x 1", -PISA_E_INVAL,
		  "bad format for entry handle 'x', expected an integer" },
		{ "table_modify acl deny 0", -PISA_E_INVAL, "action MyIngress.deny is default-only in table MyIngress.acl" },
		{ "table_modify fwd set_port 0 => 0x1000", -PISA_E_RANGE,
		  "parameter port: '0x1000' does not fit in 9 bits" },
		{ "table_set_default fwd set_port", -PISA_E_INVAL,
		  "action MyIngress.set_port needs 1 parameters, got 0" },
		{ "table_dump_entry_from_key fwd 1", -PISA_E_INVAL, "table MyIngress.fwd needs 2 key fields, got 1" },
		{ "table_dump_entry_from_key acl 0&&&0 6", -PISA_E_INVAL,
		  "table MyIngress.acl needs 2 key fields, got 1" },
		{ "table_dump_entry_from_key acl 0&&&0 6 x", -PISA_E_INVAL,
		  "table MyIngress.acl has ternary/range keys: the last token must be a priority (an integer), got 'x'" },
		{ "meter_get_rates m_ind 4", -PISA_E_RANGE,
		  "meter MyIngress.m_ind: index 4 out of range (size 4) (INVALID_INDEX)" },
		{ "meter_get_rates nope 0", -PISA_E_NOTFOUND,
		  "unknown meter 'nope'; meters: MyIngress.m_ind, MyIngress.m_lpm" },
		{ "counter_write fwd_counter 5 1 1", -PISA_E_NOTFOUND,
		  "counter MyIngress.fwd_counter is direct: table MyIngress.fwd has no entry with handle 5 (INVALID_HANDLE)" },
		{ "register_read reg_a 1 2", -PISA_E_INVAL,
		  "register_read: wrong number of arguments (3); usage: register_read <name> [index]" },
		{ "reset_state now", -PISA_E_INVAL,
		  "reset_state: wrong number of arguments (1); usage: reset_state " },
		{ "table_clear fixed", -PISA_E_INVAL, "table MyIngress.fixed has const entries: cannot clear it" },
		{ "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 1:2:3:4:5:6:7 1", -PISA_E_INVAL,
		  "parameter dstAddr: '1:2:3:4:5:6:7': invalid MAC address" },
		{ "table_add v6 set_port fe80::g/16 => 1", -PISA_E_INVAL,
		  "key hdr.ipv6.dstAddr: 'fe80::g': invalid IPv6 address" },
	};
	struct fsw *snap = malloc(sizeof(*snap));
	unsigned i;
	int good = 1, unchanged = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n0 = s->nlog, rc;

		memcpy(snap, s, sizeof(*snap));
		rc = run(c, cases[i].cmd);
		if (rc != cases[i].rc || (cases[i].err && strcmp(errbuf, cases[i].err))) {
			printf("FAIL error '%s': rc %d '%s', want %d '%s'\n", cases[i].cmd, rc, errbuf,
			       cases[i].rc, cases[i].err ? cases[i].err : "");
			good = 0;
		}
		if (s->nlog != n0 || !same_state(snap, s)) {
			printf("FAIL error '%s' wrote to the switch\n", cases[i].cmd);
			unchanged = 0;
		}
	}
	ok(good, "errors: codes and messages", "see above");
	ok(unchanged, "errors: nothing written on any error", "see above");
	ok(run(c, "frobnicate") == -PISA_E_NOTFOUND &&
	   !strncmp(errbuf, "unknown command 'frobnicate'; commands: table_add, table_modify,", 63),
	   "errors: unknown command lists the commands", "%s", errbuf);
	ok(run(c, "") == 0 && run(c, "   # comment") == 0, "empty and comment lines are no-ops", "%s",
	   errbuf);
	free(snap);
}

static const char *const tables_session[] = {
	"show_tables",
	"show_actions",
	"table_dump fwd",
	"table_dump_entry MyIngress.fwd 0",
	"table_dump ipv4_lpm",
	"table_dump acl",
	"table_dump port_range",
	"table_dump v6",
	"table_dump fixed",
	"table_set_default ipv4_lpm ipv4_forward 00:11:22:33:44:55 0x1ff",
	"table_dump_entry ipv4_lpm 0",
	"table_num_entries ipv4_lpm",
	"table_set_default MyEgress.gw drop",
	"table_dump gw",
	"table_reset_default gw",
	"table_dump gw",
	"table_add fwd set_port 192.168.0.1 1 => 2",
	"table_modify fwd drop 3",
	"table_delete fwd 3",
	"table_add acl allow 10.0.0.0&&&255.0.0.0 17 => 1",
	"table_add port_range set_class 0->1023 => 1 0",
	"switch_info",
	"table_info acl",
	"table_show_actions ipv4_lpm",
	"table_dump_entry_from_key fwd 10.0.1.1 5",
	"table_dump_entry_from_key acl 10.0.0.0&&&255.0.0.0 6 10",
	"table_dump_entry_from_key ipv4_lpm 10.0.0.0/12",
	"table_dump_entry_from_key ipv4_lpm 10.0.0.0/13",
	NULL
};

static const char *const externs_session[] = {
	"counter_write pkts 2 3 1500",
	"counter_read pkts 2",
	"counter_read MyIngress.pkts 0",
	"counter_write fwd_counter 0 9 900",
	"counter_read fwd_counter 0",
	"counter_reset fwd_counter",
	"counter_read fwd_counter 0",
	"counter_reset pkts",
	"counter_read pkts 2",
	"register_write reg_a 1 4294967295",
	"register_write MyEgress.reg_b 2 200",
	"register_read reg_a",
	"register_read reg_a 1",
	"register_read reg_b",
	"register_write MyEgress.x.idx 0 7",
	"register_read MyEgress.x.idx 0",
	"register_reset reg_a",
	"register_read reg_a",
	"meter_set_rates m_ind 1 0.1:10 0.25:20",
	"meter_get_rates m_ind 1",
	"meter_get_rates m_ind 2",
	"meter_array_set_rates m_ind 1:100 2:200",
	"meter_get_rates m_ind 3",
	"meter_get_rates m_lpm 3",
	NULL
};

static const char *const mc_session[] = {
	"mc_mgrp_create 1",
	"mc_mgrp_create 2",
	"mc_node_create 1 1 2 3 4",
	"mc_node_create 2 7 5",
	"mc_node_create 3 6",
	"mc_node_associate 1 1",
	"mc_node_associate 1 0",
	"mc_node_associate 2 2",
	"mc_node_associate 2 0",
	"mc_dump",
	"mc_node_update 1 9 8",
	"mc_node_dissociate 1 0",
	"mc_dump",
	"mc_node_destroy 2",
	"mc_mgrp_destroy 1",
	"mc_dump",
	"mirroring_add 1 510",
	"mirroring_add_mc 2 5",
	"mirroring_get 1",
	"mirroring_get 2",
	"mirroring_delete 1",
	"mirroring_get 1",
	NULL
};

static const char *const profiles_session[] = {
	"act_prof_create_member sel set_port 2",
	"act_prof_create_member MyIngress.sel set_port 3",
	"act_prof_create_member sel set_port 4",
	"act_prof_create_member sel nosuch 1",
	"act_prof_create_member sel set_port",
	"act_prof_create_member nosuch set_port 1",
	"act_prof_create_group sel",
	"act_prof_add_member_to_group sel 2 0",
	"act_prof_add_member_to_group sel 0 0",
	"act_prof_add_member_to_group sel 2 0",
	"act_prof_add_member_to_group sel 9 0",
	"act_prof_add_member_to_group sel 0 3",
	"table_indirect_add ind 10.0.0.0/8 => 1",
	"table_indirect_add_with_group ind 10.1.0.0/16 => 0",
	"table_indirect_add_with_group ind 10.2.0.0/16 => 5",
	"table_indirect_add ind 10.3.0.0/16 1",
	"table_add ind set_port 10.3.0.0/16 => 1",
	"table_set_default ind drop",
	"table_indirect_add fwd 1 2 => 0",
	"table_add sel$members set_port 1 => 1",
	"act_prof_delete_member sel 1",
	"act_prof_delete_group sel 0",
	"table_dump ind",
	"act_prof_dump sel",
	"table_indirect_set_default ind 2",
	"table_indirect_set_default_with_group ind 0",
	"table_dump_entry ind 1",
	"act_prof_remove_member_from_group sel 0 0",
	"act_prof_remove_member_from_group sel 0 0",
	"act_prof_dump_group sel 0",
	"act_prof_modify_member sel drop 2",
	"act_prof_dump_member sel 2",
	"table_indirect_delete ind 0",
	"act_prof_delete_member sel 1",
	"table_indirect_reset_default ind",
	"table_dump ind",
	NULL
};

/* rows: ind entries point at members and groups; mbr holds members and slots */
static void test_profiles(struct pisa_ctl *c, struct fsw *s)
{
	uint8_t k[1];
	int r;

	golden(c, "profiles.txt", profiles_session);
	/* state now: members 0 (port 2) and 2 (drop); group 0 = { 2 } in slot 0 (key 6);
	 * ind: 10.1/16 -> group 0; default: no member */
	check_row(s, T_IND, 0, "01 00 08 0a 01 00 00 ff ff 00 00 61", "profile: entry -> group 0 (base 6, 1 member)");
	check_row(s, T_IND, 4, "01 00 07 00 00 00 00 00 00 00 00 f0", "profile: default -> no member (15)");
	k[0] = 6;
	r = hash_lookup(s, T_MBR, k);
	ok(r >= 0 && s->rows[T_MBR][r][2] == A_DROP, "profile: slot 6 holds member 2's new action",
	   "row %d", r);
	k[0] = 1;
	ok(hash_lookup(s, T_MBR, k) < 0, "profile: deleted member 1 is gone from the member table", "found");
	must(c, "act_prof_create_member sel set_port 5");	/* 1 */
	must(c, "act_prof_add_member_to_group sel 1 0");	/* { 1, 2 }: slots 0-1 */
	must(c, "act_prof_create_group sel");			/* 1 */
	must(c, "act_prof_add_member_to_group sel 0 1");	/* { 0 }: slot 2 */
	check_row(s, T_IND, 0, "01 00 08 0a 01 00 00 ff ff 00 00 62", "profile: group grown in place (base 6, 2)");
	must(c, "act_prof_add_member_to_group sel 0 0");	/* slot 2 is taken: to 3-5 */
	check_row(s, T_IND, 0, "01 00 08 0a 01 00 00 ff ff 00 00 93", "profile: group moved (base 9, 3)");
	k[0] = 9;
	r = hash_lookup(s, T_MBR, k);
	ok(r >= 0 && s->rows[T_MBR][r][2] == A_SET_PORT && s->rows[T_MBR][r][4] == 0x01 &&
	   s->rows[T_MBR][r][5] == 0x00, "profile: first slot = member 0 (port 2), the smallest handle",
	   "row %d", r);
	k[0] = 6;
	ok(hash_lookup(s, T_MBR, k) < 0, "profile: the old slots are gone", "found");
	must(c, "table_indirect_add_with_group ind 10.4.0.0/16 => 1");
	check_row(s, T_IND, 1, "01 00 08 0a 04 00 00 ff ff 00 00 81", "profile: entry -> group 1 (base 8, 1)");
	must(c, "act_prof_add_member_to_group sel 2 1");	/* slot 3 is taken: to 0-1 */
	check_row(s, T_IND, 1, "01 00 08 0a 04 00 00 ff ff 00 00 62", "profile: second group moved (base 6, 2)");
	must(c, "act_prof_create_member sel set_port 6");	/* 3 */
	must(c, "act_prof_add_member_to_group sel 3 1");	/* slot 2 is free again: in place */
	check_row(s, T_IND, 1, "01 00 08 0a 04 00 00 ff ff 00 00 63", "profile: grown in place (base 6, 3)");
	ok(run(c, "act_prof_add_member_to_group sel 3 0") == -PISA_E_FULL && strstr(errbuf, "TABLE_FULL"),
	   "profile: no room for a larger group", "%s", errbuf);
	check_row(s, T_IND, 0, "01 00 08 0a 01 00 00 ff ff 00 00 93", "profile: a refused change changes nothing");
	ok(run(c, "act_prof_delete_member sel 3") == -PISA_E_INVAL && strstr(errbuf, "MBR_STILL_USED"),
	   "profile: a member in a group is in use", "%s", errbuf);
}

/* a table split in two pieces: one table to the CLI, rows across both pieces */
static void test_split(struct pisa_ctl *c, struct fsw *s)
{
	check_row(s, T_SPL0, 2, "01 00 01 00 00 00 00", "split: piece 0 default is its own (drop)");
	check_row(s, T_SPL1, 2, "01 00 00 00 00 00 80", "split: the table's default in the last piece");
	must(c, "table_add split set_port 0x10&&&0xf0 => 3 30");	/* h0 */
	must(c, "table_add split set_port 0x20&&&0xf0 => 4 20");	/* h1 */
	must(c, "counter_write split_hits 0 5 0");
	ok(s->cp[C_SPL0][1] == 5, "split: entry 0 sits in piece 0 row 1", "%llu",
	   (unsigned long long)s->cp[C_SPL0][1]);
	/* two higher-priority entries push entry 0 into piece 1, its count with it */
	must(c, "table_add split set_port 0x30&&&0xf0 => 5 10");	/* h2 */
	must(c, "table_add split set_port 0x40&&&0xf0 => 6 5");	/* h3 */
	check_row(s, T_SPL0, 0, "01 00 00 40 f0 03 00", "split: the best entry in piece 0 row 0");
	check_row(s, T_SPL1, 1, "01 00 00 10 f0 01 80", "split: the worst entry in piece 1 row 1");
	ok(s->cp[C_SPL1][1] == 5 && s->cp[C_SPL0][1] == 0,
	   "split: the counter cell moved across pieces", "%llu %llu",
	   (unsigned long long)s->cp[C_SPL1][1], (unsigned long long)s->cp[C_SPL0][1]);
	ok(run(c, "counter_read split_hits 0") == 0 && strstr(outbuf, "(0 bytes, 5 packets)"),
	   "split: counter_read by handle finds the piece", "%s %s", outbuf, errbuf);
	ok(run(c, "table_add split set_port 0x50&&&0xf0 => 7 1") == -PISA_E_FULL,
	   "split: full when both pieces are", "%s", errbuf);
	must(c, "table_delete split 3");
	check_row(s, T_SPL1, 1, "00 00 00 00 00 00 00", "split: a delete closes the gap across pieces");
	ok(run(c, "table_num_entries split") == 0 && !strcmp(outbuf, "3\n"),
	   "split: one table of 3 entries", "%s", outbuf);
	ok(run(c, "show_tables") == 0 && strstr(outbuf, "MyIngress.split ") &&
	   !strstr(strstr(outbuf, "MyIngress.split ") + 1, "MyIngress.split "),
	   "split: show_tables lists it once", "%s", outbuf);
	must(c, "table_set_default split set_port 9");
	check_row(s, T_SPL1, 2, "01 00 00 00 00 04 80", "split: set_default writes the last piece");
}

static void test_mc(struct pisa_ctl *c, struct fsw *s)
{
	must(c, "mc_mgrp_create 3");
	must(c, "mc_node_create 7 4 3");	/* handle 0 */
	must(c, "mc_node_create 8 1");		/* handle 1 */
	must(c, "mc_node_associate 3 1");
	must(c, "mc_node_associate 3 0");
	ok(s->mc_n[3] == 3 && s->mc[3][0].rid == 8 && s->mc[3][0].port == 1 &&
	   s->mc[3][1].rid == 7 && s->mc[3][1].port == 3 && s->mc[3][2].port == 4,
	   "mc: copies in association order, ports ascending", "n %u", s->mc_n[3]);
	ok(run(c, "mc_node_associate 3 0") == -PISA_E_EXISTS, "mc: node in one group only", "%s",
	   errbuf);
	must(c, "mc_node_dissociate 3 1");
	ok(s->mc_n[3] == 2 && s->mc[3][0].rid == 7, "mc: dissociate rewrites the group", "n %u",
	   s->mc_n[3]);
	must(c, "mc_mgrp_destroy 3");
	ok(s->mc_n[3] == 0, "mc: destroy deletes the group in the switch", "n %u", s->mc_n[3]);
	must(c, "mc_node_destroy 0");
	must(c, "mc_node_destroy 1");
	golden(c, "mc.txt", mc_session);
	ok(s->clones[2].enabled && s->clones[2].mcast_grp == 5 && !s->clones[1].enabled,
	   "mirroring: clone_write with the session config", "en %d grp %u", s->clones[2].enabled,
	   s->clones[2].mcast_grp);
}

static void test_replay(struct pisa_ctl *c, struct fsw *s)
{
	struct fsw *fresh = fsw_new();
	struct pisa_ctl *c2 = pisa_ctl_new(&img, &fops, fresh);
	unsigned t, r;
	int same = 1;

	(void)c2;
	pisa_ctl_free(c2);
	/* point the same ctl at a reset switch and replay */
	{
		struct fsw *keep = malloc(sizeof(*keep));

		memcpy(keep, s, sizeof(*keep));
		memset(s->rows, 0, sizeof(s->rows));
		memset(s->mcfg, 0, sizeof(s->mcfg));
		memset(s->mc_n, 0, sizeof(s->mc_n));
		memset(s->mc, 0, sizeof(s->mc));
		memset(s->clones, 0, sizeof(s->clones));
		ok(pisa_ctl_replay(c) == 0, "replay: runs", "failed");
		for (t = 0; t < NT; t++)
			for (r = 0; r <= tables[t].rows; r++)
				if (memcmp(s->rows[t][r], keep->rows[t][r], MAXRB)) {
					printf("FAIL replay: table %u row %u differs\n", t, r);
					same = 0;
				}
		ok(same, "replay: every row and default restored", "see above");
		ok(!memcmp(s->mcfg, keep->mcfg, sizeof(s->mcfg)) &&
		   !memcmp(s->mc_n, keep->mc_n, sizeof(s->mc_n)) &&
		   !memcmp(s->mc, keep->mc, sizeof(s->mc)) &&
		   !memcmp(s->clones, keep->clones, sizeof(s->clones)),
		   "replay: meters, multicast groups, clone sessions restored", "differ: %d %d %d %d",
		   !memcmp(s->mcfg, keep->mcfg, sizeof(s->mcfg)), !memcmp(s->mc_n, keep->mc_n, sizeof(s->mc_n)),
		   !memcmp(s->mc, keep->mc, sizeof(s->mc)), !memcmp(s->clones, keep->clones, sizeof(s->clones)));
		free(keep);
	}
	free(fresh);
}

static void test_reset_state(struct pisa_ctl *c, struct fsw *s)
{
	unsigned r;
	int inval = 1;

	must(c, "counter_write acl_counter 0 3 300");
	must(c, "table_clear acl");
	inval = !(s->rows[T_ACL][0][0] & PISA_ROW_VALID) && !(s->rows[T_ACL][1][0] & PISA_ROW_VALID) &&
		!(s->rows[T_ACL][2][0] & PISA_ROW_VALID) && s->cp[C_ACL][0] == 0 &&
		s->cp[C_ACL][1] == 0 && s->cp[C_ACL][2] == 0;
	ok(inval && run(c, "table_num_entries acl") == 0 && !strcmp(outbuf, "0\n"),
	   "table_clear: rows invalid, counter cells zero, no entries", "%s", outbuf);
	check_row(s, T_ACL, 8, "01 00 04 00 00 00 00 00 00 00 00 00 00", "table_clear: default kept");
	inval = 1;
	must(c, "register_write reg_b 1 5");
	must(c, "mc_mgrp_create 4");
	must(c, "mc_node_create 1 2");
	must(c, "mc_node_associate 4 0");
	must(c, "reset_state");
	for (r = 0; r < tables[T_LPM].rows; r++)
		inval &= !(s->rows[T_LPM][r][0] & PISA_ROW_VALID);
	ok(inval && run(c, "table_num_entries ipv4_lpm") == 0 && !strcmp(outbuf, "0\n"),
	   "reset_state: entries gone", "%s", outbuf);
	check_row(s, T_LPM, 8, "01 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
		  "reset_state: default back to the image's");
	ok(run(c, "table_num_entries fixed") == 0 && !strcmp(outbuf, "1\n"),
	   "reset_state: const entries stay", "%s", outbuf);
	ok(s->regs[1][1] == 0 && s->mc_n[4] == 0, "reset_state: registers and groups cleared",
	   "reg %llu", (unsigned long long)s->regs[1][1]);
	ok(run(c, "mc_node_create 1 2") == 0 && strstr(outbuf, "handle 0\n"),
	   "reset_state: node handles restart at 0", "%s", outbuf);
	ok(run(c, "table_add fwd drop 1 1") == 0 && strstr(outbuf, "handle 0\n"),
	   "reset_state: entry handles restart at 0", "%s", outbuf);
	ok(run(c, "act_prof_create_member sel drop") == 0 && strstr(outbuf, "handle 0\n") &&
	   run(c, "act_prof_create_group sel") == 0 && strstr(outbuf, "handle 0\n"),
	   "reset_state: profile members and groups gone", "%s", outbuf);
}

static void test_write_failure(void)
{
	struct fsw *s = fsw_new();
	struct pisa_ctl *c = pisa_ctl_new(&img, &fops, s);
	int rc;

	pisa_ctl_init(c);
	s->fail_at = s->nlog;	/* the next write fails */
	rc = run(c, "table_add ipv4_lpm drop 10.0.0.0/8 =>");
	ok(rc == -PISA_E_IO && strstr(errbuf, "switch write failed"),
	   "switch failure: reported", "rc %d %s", rc, errbuf);
	s->fail_at = -1;
	ok(run(c, "table_num_entries ipv4_lpm") == 0 && !strcmp(outbuf, "0\n"),
	   "switch failure: entry not in the shadow", "%s", outbuf);
	ok(run(c, "table_add ipv4_lpm drop 10.0.0.0/8 =>") == 0 && strstr(outbuf, "handle 0\n"),
	   "switch failure: next add works", "%s", errbuf);
	/* a delete that fails half way leaves a gap in the TCAM; inserts cope */
	must(c, "table_add port_range set_class 1->1 => 2 2");	/* h0 */
	must(c, "table_add port_range set_class 2->2 => 3 3");	/* h1 */
	must(c, "table_add port_range set_class 0->0 => 1 1");	/* h2 */
	must(c, "table_add port_range set_class 3->3 => 4 4");	/* h3: rows 1 2 3 4 */
	s->fail_at = s->nlog + 1;	/* invalidating row 0 works, moving row 1 up fails */
	rc = run(c, "table_delete port_range 2");
	s->fail_at = -1;
	ok(rc == -PISA_E_IO && !(s->rows[T_RANGE][0][0] & PISA_ROW_VALID),
	   "switch failure: delete stopped after invalidating", "rc %d", rc);
	ok(run(c, "table_add port_range set_class 5->5 => 5 5") == 0,
	   "switch failure: insert into a table with a gap", "%s", errbuf);
	{
		unsigned r;
		char got[32] = "";

		for (r = 0; r < 4; r++)
			sprintf(got + strlen(got), "%d", (s->rows[T_RANGE][r][0] & PISA_ROW_VALID) ?
				s->rows[T_RANGE][r][11] : 0);
		ok(!strcmp(got, "2345"), "switch failure: rows moved up to make room at the end",
		   "classes by row %s", got);
	}
	pisa_ctl_free(c);
	free(s);
}

int main(void)
{
	struct fsw *s = fsw_new();
	struct pisa_ctl *c = pisa_ctl_new(&img, &fops, s);

	if (!c) {
		printf("FAIL ctl_new\n");
		return 1;
	}
	test_values();
	test_init(c, s);
	test_exact(c, s);
	test_lpm(c, s);
	test_ternary(c, s);
	test_cuckoo(c, s);
	test_errors(c, s);
	golden(c, "tables.txt", tables_session);
	golden(c, "externs.txt", externs_session);
	test_profiles(c, s);
	test_split(c, s);
	test_mc(c, s);
	test_replay(c, s);
	test_reset_state(c, s);
	pisa_ctl_free(c);
	free(s);
	test_write_failure();
	return failures ? 1 : 0;
}
