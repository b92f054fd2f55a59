/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_ctl.c: a fuzz target for the control plane's command parser
 * (pisa_ctl_exec in lib/pisa_ctl.c) over the real pisa-model.
 *
 * An input is a command file: lines separated by '\n', each handed to
 * pisa_ctl_exec() against a fresh switch (a new pisa-model and a new ctl on
 * one image, built below in C, with tables of every match kind, direct and
 * indirect counters, registers, meters, multicast groups and clone sessions).
 * A line that starts with '!' must fail and one that starts with '?' may do
 * either; the marker is removed before the line runs and only checked when
 * replaying the corpus (every other corpus line must succeed).
 *
 * Checked for every command, not only "no crash":
 *  - rc is 0 or a negative pisa_err;
 *  - on error: err is one non-empty line inside errlen, nothing is printed,
 *    no primitive write was sent (not even one the switch refused), and
 *    the switch (rows, counters, registers, meters, groups, clones) and the
 *    control plane's view of it (table_dump of every table, meter rates,
 *    mc_dump, mirroring_get) are as before;
 *  - after a success: the output is whole lines, hash rows sit where their
 *    key hashes, lpm rows are in prefix order, and every table's valid rows
 *    are its entries.
 * After every input: pisa_ctl_replay() into a second, fresh switch gives
 * the same rows, meters, groups and clones, and a packet runs through.
 *
 * Built with gcc, main() replays tests/fuzz_ctl/corpus/ and crashers/, then
 * mutates the corpus with a fixed seed (README.md). With clang and
 * -DPISA_FUZZ_LIBFUZZER the same entry is a libFuzzer target.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "../model/build.h"
#include "pisa_ctl.h"

int pisa_ctl_fuzz_one(const uint8_t *data, size_t len);

#define MAX_LINES 64		/* commands run per input; the rest is ignored */
#define MAX_LINE 65536		/* longer lines are cut (a very long line still runs) */
#define ERRLEN 512
#define GUARD 64
#define OUTCAP (1 << 20)

/* ---- the image ---- */

enum { T_FWD, T_LPM, T_ACL, T_RANGE, T_MAC, T_V6, T_OPT, T_MIX, T_CONST, T_GW, NT };
enum { A_SET_PORT, A_DROP, A_FWD, A_ALLOW, A_DENY, A_CLASS, A_NOP, A_EDROP, A_PAIR, NA };
enum { C_FWD, C_ACL, C_PKTS, C_BYTES, NC };
enum { R_A, R_B, R_W, R_X1, R_X2, NR };
enum { M_IND, M_LPM, NM };

#define NGROUPS 8
#define NNODES 6
#define NSESSIONS 4
#define MAXCOPIES 64

static struct pisa_image *img;
static uint8_t const_row[3 + 1 + 2];

/* header h0 at PHV byte HDR: the keys' and the actions' fields */
#define HDR 72
#define F(byte) ((HDR + (byte)) * 8)

static struct pisa_rt_key rk_fwd[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_EXACT },
				       { "meta.port", 9, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_lpm[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_acl[] = { { "hdr.ipv4.srcAddr", 32, PISA_MATCH_TERNARY },
				       { "hdr.ipv4.protocol", 8, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_range[] = { { "hdr.tcp.dstPort", 16, PISA_MATCH_RANGE } };
static struct pisa_rt_key rk_mac[] = { { "hdr.ethernet.dstAddr", 48, PISA_MATCH_EXACT } };
static struct pisa_rt_key rk_v6[] = { { "hdr.ipv6.dstAddr", 128, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_opt[] = { { "meta.e", 8, PISA_MATCH_EXACT },
				       { "meta.o", 16, PISA_MATCH_OPTIONAL } };
static struct pisa_rt_key rk_mix[] = { { "meta.t", 8, PISA_MATCH_TERNARY },
				       { "meta.r", 16, PISA_MATCH_RANGE },
				       { "meta.l", 8, PISA_MATCH_LPM } };
static struct pisa_rt_key rk_const[] = { { "meta.k", 8, PISA_MATCH_EXACT } };

static struct pisa_rt_param p_port[] = { { "port", 9, 0 } };
static struct pisa_rt_param p_fwd[] = { { "dstAddr", 48, 0 }, { "port", 9, 48 } };
static struct pisa_rt_param p_class[] = { { "class", 8, 0 } };
static struct pisa_rt_param p_pair[] = { { "hi", 64, 0 }, { "lo", 16, 64 } };

static const char *const tnames[NT] = {
	"MyIngress.fwd", "MyIngress.ipv4_lpm", "MyIngress.acl", "MyIngress.port_range",
	"MyIngress.mac", "MyIngress.v6", "MyIngress.opt", "MyIngress.mixed", "MyIngress.fixed",
	"MyEgress.gw",
};

static void add_table(unsigned t, unsigned gress, unsigned mem, unsigned rows, unsigned adata,
		      unsigned def, struct pisa_rt_key *rk, unsigned nrk, uint32_t size)
{
	unsigned id = tb_table(img, gress, mem, rows, adata, def);

	if (id != t)
		exit(2);
	img->rt_tables[t] = (struct pisa_rt_table){ (char *)tnames[t], 1 + t, size, 0, 0,
						    (uint16_t)nrk, rk };
}

static void build_image(void)
{
	static const char *const anames[NA] = {
		"MyIngress.set_port", "MyIngress.drop", "MyIngress.ipv4_forward", "MyIngress.allow",
		"MyIngress.deny", "MyIngress.set_class", "NoAction", "MyEgress.drop",
		"MyIngress.set_pair",
	};
	static struct pisa_rt_param *aparams[NA] = { p_port, NULL, p_fwd, NULL, NULL, p_class,
						     NULL, NULL, p_pair };
	static const unsigned anparams[NA] = { 1, 0, 2, 0, 0, 1, 0, 0, 2 };
	struct pisa_operand espec = FLD(PISA_SM_EGRESS_SPEC);
	unsigned h0, s0, t, i;
	char detail[256];

	img = tb_image(256);
	img->mcast_groups = NGROUPS;
	img->mcast_nodes = NNODES;
	img->clone_sessions = NSESSIONS;
	h0 = tb_header(img, HDR, 64);
	img->rt_headers = tb_alloc(sizeof(*img->rt_headers));
	img->rt_headers[0] = "hdr.h";
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, h0, NO, NO, NO) });
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;

	tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, espec, AD(0, 9), NO) }, 9);
	tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_DROP, 0, NO, NO, NO) }, 0);
	tb_action(img, 2, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(F(43), 48), AD(0, 48), NO),
						 INS(PISA_SET, 0, espec, AD(48, 9), NO) }, 57);
	tb_action(img, 0, NULL, 0);
	tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_DROP, 0, NO, NO, NO) }, 0);
	tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(F(19), 8), AD(0, 8), NO) }, 8);
	tb_action(img, 0, NULL, 0);
	tb_action(img, 1, (struct pisa_insn[]){ INS(PISA_DROP, 0, NO, NO, NO) }, 0);
	tb_action(img, 2, (struct pisa_insn[]){ INS(PISA_SET, 0, PHV(F(20), 64), AD(0, 64), NO),
						 INS(PISA_SET, 0, PHV(F(36), 16), AD(64, 16), NO) }, 80);
	img->rt_actions = tb_alloc(NA * sizeof(*img->rt_actions));
	for (i = 0; i < NA; i++)
		img->rt_actions[i] = (struct pisa_rt_action){ (char *)anames[i], 100 + i,
							      (uint16_t)anparams[i], aparams[i] };

	img->rt_tables = tb_alloc(NT * sizeof(*img->rt_tables));
	add_table(T_FWD, 0, PISA_MEM_HASH, 0, 9, A_DROP, rk_fwd, 2, 0);
	tb_tkey(img, T_FWD, F(0), 32, PISA_MATCH_EXACT);
	tb_tkey(img, T_FWD, F(4) + 7, 9, PISA_MATCH_EXACT);
	tb_hash_geom(img, T_FWD, 2, 3);
	tb_tact(img, T_FWD, A_SET_PORT, PISA_NEXT_END, 0);
	tb_tact(img, T_FWD, A_DROP, PISA_NEXT_END, 0);
	tb_tact(img, T_FWD, A_NOP, PISA_NEXT_END, 0);

	add_table(T_LPM, 0, PISA_MEM_TCAM, 8, 57, A_DROP, rk_lpm, 1, 0);
	tb_tkey(img, T_LPM, F(0), 32, PISA_MATCH_LPM);
	tb_tact(img, T_LPM, A_FWD, PISA_NEXT_END, 0);
	tb_tact(img, T_LPM, A_DROP, PISA_NEXT_END, 0);

	add_table(T_ACL, 0, PISA_MEM_TCAM, 8, 0, A_DENY, rk_acl, 2, 0);
	tb_tkey(img, T_ACL, F(12), 32, PISA_MATCH_TERNARY);
	tb_tkey(img, T_ACL, F(16), 8, PISA_MATCH_EXACT);
	tb_tact(img, T_ACL, A_ALLOW, PISA_NEXT_END, PISA_TA_TABLE_ONLY);
	tb_tact(img, T_ACL, A_DENY, PISA_NEXT_END, PISA_TA_DEFAULT_ONLY);
	tb_tact(img, T_ACL, A_NOP, PISA_NEXT_END, 0);

	add_table(T_RANGE, 0, PISA_MEM_TCAM, 4, 8, A_NOP, rk_range, 1, 0);
	tb_tkey(img, T_RANGE, F(17), 16, PISA_MATCH_RANGE);
	tb_tact(img, T_RANGE, A_CLASS, PISA_NEXT_END, 0);
	tb_tact(img, T_RANGE, A_NOP, PISA_NEXT_END, 0);

	/* the program asked for 3 entries in 4 rows */
	add_table(T_MAC, 0, PISA_MEM_HASH, 0, 9, A_DROP, rk_mac, 1, 3);
	tb_tkey(img, T_MAC, F(6), 48, PISA_MATCH_EXACT);
	tb_hash_geom(img, T_MAC, 1, 2);
	tb_tact(img, T_MAC, A_SET_PORT, PISA_NEXT_END, 0);
	tb_tact(img, T_MAC, A_DROP, PISA_NEXT_END, 0);

	/* one 128-bit runtime key over two 64-bit PHV fields */
	add_table(T_V6, 0, PISA_MEM_TCAM, 4, 80, A_NOP, rk_v6, 1, 0);
	tb_tkey(img, T_V6, F(20), 64, PISA_MATCH_LPM);
	tb_tkey(img, T_V6, F(28), 64, PISA_MATCH_LPM);
	tb_tact(img, T_V6, A_PAIR, PISA_NEXT_END, 0);
	tb_tact(img, T_V6, A_NOP, PISA_NEXT_END, 0);

	add_table(T_OPT, 0, PISA_MEM_TCAM, 4, 8, A_NOP, rk_opt, 2, 0);
	tb_tkey(img, T_OPT, F(38), 8, PISA_MATCH_EXACT);
	tb_tkey(img, T_OPT, F(36), 16, PISA_MATCH_OPTIONAL);
	tb_tact(img, T_OPT, A_CLASS, PISA_NEXT_END, 0);
	tb_tact(img, T_OPT, A_NOP, PISA_NEXT_END, 0);

	add_table(T_MIX, 0, PISA_MEM_TCAM, 4, 8, A_CLASS, rk_mix, 3, 0);
	tb_tkey(img, T_MIX, F(40), 8, PISA_MATCH_TERNARY);
	tb_tkey(img, T_MIX, F(41), 16, PISA_MATCH_RANGE);
	tb_tkey(img, T_MIX, F(39), 8, PISA_MATCH_LPM);
	tb_tact(img, T_MIX, A_CLASS, PISA_NEXT_END, 0);

	add_table(T_CONST, 0, PISA_MEM_HASH, 0, 9, A_SET_PORT, rk_const, 1, 0);
	tb_tkey(img, T_CONST, F(39), 8, PISA_MATCH_EXACT);
	tb_hash_geom(img, T_CONST, 1, 2);
	tb_tact(img, T_CONST, A_SET_PORT, PISA_NEXT_END, 0);
	img->rt_tables[T_CONST].const_entries = 1;
	img->rt_tables[T_CONST].const_default = 1;
	img->tables[T_CONST].default_adata_len = 2;
	img->tables[T_CONST].default_adata = tb_dup((uint8_t[]){ 0x00, 0x80 }, 2);	/* port 1 */
	/* key 0x2a -> set_port(9), in the row way 0 hashes it to */
	const_row[0] = PISA_ROW_VALID;
	const_row[2] = A_SET_PORT;
	const_row[3] = 0x2a;
	const_row[4] = 0x04;
	const_row[5] = 0x80;
	img->const_rows[0] = (struct pisa_const_row){ T_CONST, pisa_hash_way(0, const_row + 3, 1) & 3,
						      sizeof(const_row), const_row };
	img->nconst_rows = 1;

	add_table(T_GW, 1, PISA_MEM_NONE, 0, 9, A_SET_PORT, NULL, 0, 0);
	tb_tact(img, T_GW, A_SET_PORT, PISA_NEXT_END, 0);
	tb_tact(img, T_GW, A_EDROP, PISA_NEXT_END, 0);
	img->tables[T_GW].default_adata_len = 2;
	img->tables[T_GW].default_adata = tb_dup((uint8_t[]){ 0x03, 0x80 }, 2);	/* port 7 */

	for (t = 0; t < NT; t++) {
		struct pisa_table *tb = &img->tables[t];

		tb->next_hit = tb->next_miss = t + 1 < T_GW ? (uint16_t)(t + 1) : PISA_NEXT_END;
	}
	img->nstages = NT;
	img->ingress_start = 0;
	img->egress_start = T_GW;

	img->counters[C_FWD] = (struct pisa_counter){ PISA_COUNTER_BOTH, 16, T_FWD };
	img->counters[C_ACL] = (struct pisa_counter){ PISA_COUNTER_BOTH, 8, T_ACL };
	img->counters[C_PKTS] = (struct pisa_counter){ PISA_COUNTER_BOTH, 4, -1 };
	img->counters[C_BYTES] = (struct pisa_counter){ PISA_COUNTER_BYTES, 2, -1 };
	img->ncounters = NC;
	img->tables[T_FWD].direct_counter = C_FWD;
	img->tables[T_ACL].direct_counter = C_ACL;
	img->rt_counters = tb_alloc(NC * sizeof(*img->rt_counters));
	img->rt_counters[C_FWD] = (struct pisa_rt_named){ "MyIngress.fwd_counter", 20 };
	img->rt_counters[C_ACL] = (struct pisa_rt_named){ "MyIngress.acl_counter", 21 };
	img->rt_counters[C_PKTS] = (struct pisa_rt_named){ "MyIngress.pkts", 22 };
	img->rt_counters[C_BYTES] = (struct pisa_rt_named){ "MyEgress.pkts", 23 };

	img->registers[R_A] = (struct pisa_register){ 32, 4 };
	img->registers[R_B] = (struct pisa_register){ 8, 3 };
	img->registers[R_W] = (struct pisa_register){ 64, 2 };
	img->registers[R_X1] = (struct pisa_register){ 16, 1 };
	img->registers[R_X2] = (struct pisa_register){ 16, 1 };
	img->nregisters = NR;
	img->rt_registers = tb_alloc(NR * sizeof(*img->rt_registers));
	img->rt_registers[R_A] = (struct pisa_rt_named){ "MyIngress.reg_a", 30 };
	img->rt_registers[R_B] = (struct pisa_rt_named){ "MyEgress.reg_b", 31 };
	img->rt_registers[R_W] = (struct pisa_rt_named){ "MyIngress.reg_w", 32 };
	img->rt_registers[R_X1] = (struct pisa_rt_named){ "MyIngress.x.idx", 33 };
	img->rt_registers[R_X2] = (struct pisa_rt_named){ "MyEgress.x.idx", 34 };

	img->meters[M_IND] = (struct pisa_meter){ PISA_METER_PACKETS, 4, -1 };
	img->meters[M_LPM] = (struct pisa_meter){ PISA_METER_BYTES, 8, T_LPM };
	img->nmeters = NM;
	img->tables[T_LPM].direct_meter = M_LPM;
	img->rt_meters = tb_alloc(NM * sizeof(*img->rt_meters));
	img->rt_meters[M_IND] = (struct pisa_rt_named){ "MyIngress.m_ind", 40 };
	img->rt_meters[M_LPM] = (struct pisa_rt_named){ "MyIngress.m_lpm", 41 };

	if (pisa_image_check(img, detail, sizeof(detail))) {
		printf("FAIL fuzz_ctl image: pisa_image_check: %s\n", detail);
		exit(1);
	}
}

/* ---- the switch: pisa-model behind a shim that mirrors every write ---- */

struct mirror {
	uint8_t *rows[NT];		/* (rows + 1) * rb bytes each */
	struct pisa_meter_cfg mcfg[NM][16];
	uint16_t mc_n[NGROUPS];
	struct pisa_mc_copy mc[NGROUPS][MAXCOPIES];
	struct pisa_clone_cfg clones[NSESSIONS];
};

struct shim {
	struct pisa_model *m;
	struct mirror mir;
	unsigned long writes;	/* primitive writes the model accepted */
	unsigned long tries;	/* primitive writes the ctl sent, refused ones too */
	long row_calls;		/* write_row calls since pisa_ctl_init */
	int overflow;		/* a write the mirror could not hold */
};

static size_t rbytes(unsigned t)
{
	return pisa_row_bytes(&img->tables[t]);
}

static void mirror_init(struct mirror *mi)
{
	unsigned t;

	memset(mi, 0, sizeof(*mi));
	for (t = 0; t < NT; t++)
		mi->rows[t] = calloc(img->tables[t].rows + 1, rbytes(t));
}

static void mirror_free(struct mirror *mi)
{
	unsigned t;

	for (t = 0; t < NT; t++)
		free(mi->rows[t]);
}

/* self-test: this write_row call fails as a broken link would (-1: none) */
static long inject_row_fail = -1;

static int s_write_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	if (s->row_calls++ == inject_row_fail)
		return -PISA_E_IO;
	rc = pisa_model_ops.write_row(s->m, t, i, row, len);
	if (rc)
		return rc;
	s->writes++;
	if (t < NT && i <= img->tables[t].rows && len == rbytes(t))
		memcpy(s->mir.rows[t] + (size_t)i * len, row, len);
	else
		s->overflow = 1;
	return 0;
}

static int s_counter_read(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	return pisa_model_ops.counter_read(((struct shim *)sw)->m, id, i, p, b);
}

static int s_counter_write(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	rc = pisa_model_ops.counter_write(s->m, id, i, p, b);

	s->writes += !rc;
	return rc;
}

static int s_register_read(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	return pisa_model_ops.register_read(((struct shim *)sw)->m, id, i, v);
}

static int s_register_write(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	rc = pisa_model_ops.register_write(s->m, id, i, v);

	s->writes += !rc;
	return rc;
}

static int s_meter_write(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *cfg)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	rc = pisa_model_ops.meter_write(s->m, id, i, cfg);

	if (rc)
		return rc;
	s->writes++;
	if (id < NM && i < 16)
		s->mir.mcfg[id][i] = cfg->configured ? *cfg : (struct pisa_meter_cfg){ 0 };
	else
		s->overflow = 1;
	return 0;
}

static int s_mcast_write(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	rc = pisa_model_ops.mcast_write(s->m, g, n, c);

	if (rc)
		return rc;
	s->writes++;
	if (g < NGROUPS && n <= MAXCOPIES) {
		s->mir.mc_n[g] = n;
		memset(s->mir.mc[g], 0, sizeof(s->mir.mc[g]));
		if (n)
			memcpy(s->mir.mc[g], c, n * sizeof(*c));
	} else {
		s->overflow = 1;
	}
	return 0;
}

static int s_clone_write(void *sw, uint16_t id, const struct pisa_clone_cfg *cfg)
{
	struct shim *s = sw;
	int rc;

	s->tries++;
	rc = pisa_model_ops.clone_write(s->m, id, cfg);

	if (rc)
		return rc;
	s->writes++;
	if (id < NSESSIONS)
		s->mir.clones[id] = cfg->enabled ? *cfg : (struct pisa_clone_cfg){ 0 };
	else
		s->overflow = 1;
	return 0;
}

static const struct pisa_switch_ops shim_ops = {
	s_write_row, s_counter_read, s_counter_write, s_register_read, s_register_write,
	s_meter_write, s_mcast_write, s_clone_write, NULL,	/* no MACs */
};

/* ---- property bookkeeping ---- */

enum {
	P_RC,		/* rc is 0 or a negative pisa_err */
	P_ERR,		/* err: one non-empty line inside errlen */
	P_QUIET,	/* nothing printed on error */
	P_LINES,	/* output of a success is whole lines */
	P_NOWRITE,	/* no primitive write on error */
	P_SWITCH,	/* switch state unchanged on error */
	P_SHADOW,	/* control plane's view unchanged on error */
	P_LAYOUT,	/* rows where they belong, one per entry */
	P_REPLAY,	/* replay rebuilds the same switch */
	P_EXPECT,	/* corpus lines fail or succeed as marked */
	NP
};

static const char *const pnames[NP] = {
	"rc is 0 or a negative pisa_err",
	"on error err is one non-empty line within errlen",
	"on error nothing is printed",
	"on success the output is whole lines",
	"on error no write was sent to the switch",
	"on error the switch state is unchanged",
	"on error table_dump, registers, meters, mc_dump, mirroring_get are unchanged",
	"after success rows sit where their keys hash / in prefix order, one per entry",
	"pisa_ctl_replay rebuilds the same rows, meters, groups and clones",
	"corpus lines succeed, or fail where marked '!'",
};

static unsigned long pfail[NP];
static unsigned long ncommands, nfailed_cmds;
static int expect_mode;		/* check '!' / '?' markers */
static size_t cur_errlen = ERRLEN;
static const char *cur_name = "input";
static int input_bad;		/* this input broke a property */
static int quiet_reports;	/* only count, print nothing */

static void violate(unsigned p, unsigned lineno, const char *line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void violate(unsigned p, unsigned lineno, const char *line, const char *fmt, ...)
{
	va_list ap;

	input_bad = 1;
	if (pfail[p]++ >= (p == P_EXPECT ? 50u : 3u) || quiet_reports)
		return;
	printf("# %s: line %u '%.120s': %s: ", cur_name, lineno, line, pnames[p]);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- running commands ---- */

static FILE *outf;
static char *outmem;
static char errbuf[ERRLEN + GUARD];

/* runs line, output into outmem (returned length in *olen) */
static int exec_line(struct pisa_ctl *c, const char *line, size_t errlen, size_t *olen)
{
	int rc;

	memset(errbuf, 0xA5, sizeof(errbuf));
	rewind(outf);
	rc = pisa_ctl_exec(c, line, outf, errlen ? errbuf : NULL, errlen);
	fflush(outf);
	*olen = (size_t)ftell(outf);
	return rc;
}

/* growable text */
struct text {
	char *p;
	size_t n, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p)
			exit(2);
	}
	memcpy(t->p + t->n, s, n);
	t->n += n;
	t->p[t->n] = '\0';
}

/* one command's output and result, appended to t */
static void snap_cmd(struct pisa_ctl *c, struct text *t, const char *cmd)
{
	size_t olen;
	int rc = exec_line(c, cmd, ERRLEN, &olen);
	char hdr[64];

	text_add(t, cmd, strlen(cmd));
	snprintf(hdr, sizeof(hdr), " -> %d\n", rc);
	text_add(t, hdr, strlen(hdr));
	if (rc)
		text_add(t, errbuf, strnlen(errbuf, ERRLEN));
	else
		text_add(t, outmem, olen);
}

/*
 * The control plane's view; per table entry counts into nent. Registers are
 * read from the switch, so snap_sw() has them.
 */
static void snap_ctl(struct pisa_ctl *c, struct text *t, unsigned nent[NT])
{
	char cmd[128], *lpm_dump = NULL;
	unsigned i;

	t->n = 0;
	for (i = 0; i < NT; i++) {
		size_t start = t->n;
		const char *p;

		snprintf(cmd, sizeof(cmd), "table_dump %s", tnames[i]);
		snap_cmd(c, t, cmd);
		nent[i] = 0;
		for (p = t->p + start; (p = strstr(p, "Dumping entry ")); p++)
			nent[i]++;
		if (i == T_LPM)
			lpm_dump = strdup(t->p + start);
	}
	for (i = 0; i < img->meters[M_IND].size; i++) {
		snprintf(cmd, sizeof(cmd), "meter_get_rates MyIngress.m_ind %u", i);
		snap_cmd(c, t, cmd);
	}
	/* the direct meter's cells of the entries table_dump listed */
	for (i = 0; i < img->tables[T_LPM].rows; i++) {
		snprintf(cmd, sizeof(cmd), "Dumping entry 0x%x\n", i);
		if (!strstr(lpm_dump, cmd))
			continue;
		snprintf(cmd, sizeof(cmd), "meter_get_rates MyIngress.m_lpm %u", i);
		snap_cmd(c, t, cmd);
	}
	free(lpm_dump);
	snap_cmd(c, t, "mc_dump");
	for (i = 0; i < NSESSIONS; i++) {
		snprintf(cmd, sizeof(cmd), "mirroring_get %u", i);
		snap_cmd(c, t, cmd);
	}
}

/* the switch itself: mirrored rows, meters, groups, clones; counters and registers read back */
static void snap_sw(struct shim *s, struct text *t)
{
	unsigned i, j;

	t->n = 0;
	for (i = 0; i < NT; i++)
		text_add(t, (const char *)s->mir.rows[i], (img->tables[i].rows + 1) * rbytes(i));
	text_add(t, (const char *)s->mir.mcfg, sizeof(s->mir.mcfg));
	text_add(t, (const char *)s->mir.mc_n, sizeof(s->mir.mc_n));
	text_add(t, (const char *)s->mir.mc, sizeof(s->mir.mc));
	text_add(t, (const char *)s->mir.clones, sizeof(s->mir.clones));
	for (i = 0; i < NC; i++)
		for (j = 0; j < img->counters[i].size; j++) {
			uint64_t v[2] = { 0, 0 };

			pisa_model_ops.counter_read(s->m, (uint16_t)i, j, &v[0], &v[1]);
			text_add(t, (const char *)v, sizeof(v));
		}
	for (i = 0; i < NR; i++)
		for (j = 0; j < img->registers[i].size; j++) {
			uint64_t v = 0;

			pisa_model_ops.register_read(s->m, (uint16_t)i, j, &v);
			text_add(t, (const char *)&v, sizeof(v));
		}
}

static unsigned mask_ones(const uint8_t *m, size_t kb, unsigned key_bits)
{
	unsigned b, n = 0;

	for (b = (unsigned)kb * 8 - key_bits; b < kb * 8; b++) {
		if (!(m[b / 8] & (0x80 >> (b % 8))))
			break;
		n++;
	}
	return n;
}

/* rows of every table against its entry count and layout rules; 0 or a reason */
static const char *check_layout(struct shim *s, const unsigned nent[NT], char *why, size_t wl)
{
	unsigned t;

	for (t = 0; t < NT; t++) {
		const struct pisa_table *tb = &img->tables[t];
		size_t rb = rbytes(t), kb = pisa_row_key_bytes(tb);
		unsigned valid = 0, lastplen = ~0u;
		uint32_t r, q;

		for (r = 0; r < tb->rows; r++) {
			const uint8_t *row = s->mir.rows[t] + (size_t)r * rb;

			if (!(row[0] & PISA_ROW_VALID))
				continue;
			valid++;
			if (tb->mem == PISA_MEM_HASH) {
				unsigned way = r >> tb->way_bits;
				uint32_t want = (uint32_t)way << tb->way_bits |
						(pisa_hash_way(way, row + PISA_ROW_HDR, kb) &
						 ((1u << tb->way_bits) - 1));

				if (want != r) {
					snprintf(why, wl, "%s row %u holds a key of row %u", tnames[t], r, want);
					return why;
				}
				for (q = 0; q < r; q++) {
					const uint8_t *o = s->mir.rows[t] + (size_t)q * rb;

					if ((o[0] & PISA_ROW_VALID) &&
					    !memcmp(o + PISA_ROW_HDR, row + PISA_ROW_HDR, kb)) {
						snprintf(why, wl, "%s rows %u and %u hold the same key",
							 tnames[t], q, r);
						return why;
					}
				}
			}
			if (t == T_LPM || t == T_V6) {
				unsigned pl = mask_ones(row + PISA_ROW_HDR + kb, kb, tb->key_bits);

				if (pl > lastplen) {
					snprintf(why, wl, "%s row %u: /%u after /%u", tnames[t], r, pl,
						 lastplen);
					return why;
				}
				lastplen = pl;
			}
		}
		if (valid != nent[t]) {
			snprintf(why, wl, "%s has %u valid rows but table_dump shows %u entries",
				 tnames[t], valid, nent[t]);
			return why;
		}
	}
	return NULL;
}

/* What the replay must rebuild, compared between two mirrors. */
static const char *same_mirror(const struct mirror *a, const struct mirror *b, char *why, size_t wl)
{
	unsigned t, g;

	for (t = 0; t < NT; t++) {
		size_t rb = rbytes(t);
		uint32_t r;

		for (r = 0; r <= img->tables[t].rows; r++)
			if (memcmp(a->rows[t] + r * rb, b->rows[t] + r * rb, rb)) {
				snprintf(why, wl, "%s row %u differs", tnames[t], r);
				return why;
			}
	}
	if (memcmp(a->mcfg, b->mcfg, sizeof(a->mcfg)))
		return "meter configuration differs";
	for (g = 0; g < NGROUPS; g++)
		if (a->mc_n[g] != b->mc_n[g] ||
		    memcmp(a->mc[g], b->mc[g], a->mc_n[g] * sizeof(a->mc[g][0]))) {
			snprintf(why, wl, "multicast group %u differs (%u vs %u copies)", g, a->mc_n[g],
				 b->mc_n[g]);
			return why;
		}
	if (memcmp(a->clones, b->clones, sizeof(a->clones)))
		return "clone sessions differ";
	return NULL;
}

static void count_pkt(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	(*(unsigned *)arg)++;
}

/* Checks one command's result; before/after texts are the state around it. */
static void check_cmd(struct pisa_ctl *c, struct shim *s, unsigned lineno, const char *line,
		      int mark, struct text *ctl_snap, struct text *sw_snap, struct text *tmp)
{
	unsigned long w0 = s->writes, t0 = s->tries;
	size_t olen, k;
	unsigned nent[NT];
	int rc;
	char why[160];
	const char *bad;

	rc = exec_line(c, line, cur_errlen, &olen);
	ncommands++;
	if (rc > 0 || rc < -PISA_E_INVAL)
		violate(P_RC, lineno, line, "rc %d", rc);
	if (expect_mode && mark != '?' && (mark == '!') != (rc != 0))
		violate(P_EXPECT, lineno, line, "rc %d (%s)", rc,
			rc ? errbuf : "succeeded, marked '!'");
	if (cur_errlen) {
		for (k = cur_errlen; k < sizeof(errbuf); k++)
			if ((uint8_t)errbuf[k] != 0xA5) {
				violate(P_ERR, lineno, line, "wrote past errlen %zu", cur_errlen);
				break;
			}
		if (!memchr(errbuf, '\0', cur_errlen))
			violate(P_ERR, lineno, line, "err not terminated within errlen %zu", cur_errlen);
	}
	if (rc == 0) {
		if (olen && (olen >= OUTCAP || outmem[olen - 1] != '\n' || memchr(outmem, '\0', olen)))
			violate(P_LINES, lineno, line, "%zu bytes, not newline-terminated text", olen);
		/* the new state is the baseline for the next command */
		snap_ctl(c, ctl_snap, nent);
		snap_sw(s, sw_snap);
		if ((bad = check_layout(s, nent, why, sizeof(why))))
			violate(P_LAYOUT, lineno, line, "%s", bad);
		if (s->overflow)
			violate(P_LAYOUT, lineno, line, "a write outside the image's tables/cells");
		return;
	}
	nfailed_cmds++;
	if (cur_errlen > 1 && memchr(errbuf, '\0', cur_errlen)) {
		if (!errbuf[0])
			violate(P_ERR, lineno, line, "rc %d with an empty err", rc);
		else if (strpbrk(errbuf, "\n\r"))
			violate(P_ERR, lineno, line, "err has several lines: '%s'", errbuf);
	}
	if (olen)
		violate(P_QUIET, lineno, line, "printed %zu bytes: '%.60s'", olen, outmem);
	/* validation comes first: a failing command has not even tried to write */
	if (s->tries != t0)
		violate(P_NOWRITE, lineno, line, "%lu writes sent, %lu accepted (rc %d: %s)",
			s->tries - t0, s->writes - w0, rc, cur_errlen > 1 ? errbuf : "");
	snap_sw(s, tmp);
	if (tmp->n != sw_snap->n || memcmp(tmp->p, sw_snap->p, tmp->n))
		violate(P_SWITCH, lineno, line, "the switch changed (rc %d)", rc);
	snap_ctl(c, tmp, nent);
	if (tmp->n != ctl_snap->n || memcmp(tmp->p, ctl_snap->p, tmp->n)) {
		for (k = 0; k < tmp->n && k < ctl_snap->n && tmp->p[k] == ctl_snap->p[k]; k++)
			;
		violate(P_SHADOW, lineno, line, "state differs at byte %zu: '%.80s' was '%.80s'", k,
			tmp->p + (k > 40 ? k - 40 : 0), ctl_snap->p + (k > 40 ? k - 40 : 0));
	}
}

static struct text init_ctl, init_sw;

/* Runs one input; returns non-zero if it broke a property. */
static int fuzz_run(const uint8_t *data, size_t len)
{
	struct shim *s = calloc(1, sizeof(*s)), *s2 = calloc(1, sizeof(*s2));
	struct text ctl_snap = { 0 }, sw_snap = { 0 }, tmp = { 0 };
	struct pisa_ctl *c = NULL;
	struct pisa_model *m1;
	struct mirror mir1;
	unsigned nent[NT], lineno = 0, npkt = 0;
	size_t pos = 0;
	char *line = malloc(MAX_LINE + 1);
	char why[160];
	const char *bad;
	uint8_t pkt[80];
	int rc;

	input_bad = 0;
	if (!s || !s2 || !line)
		exit(2);
	s->row_calls = s2->row_calls = -1000000;	/* init and replay never fail */
	mirror_init(&s->mir);
	mirror_init(&s2->mir);
	s->m = pisa_model_new(img);
	s2->m = pisa_model_new(img);
	if (!s->m || !s2->m) {
		printf("FAIL fuzz_ctl: pisa_model_new refused the image\n");
		exit(1);
	}
	c = pisa_ctl_new(img, &shim_ops, s);
	if (!c || (rc = pisa_ctl_init(c))) {
		printf("FAIL fuzz_ctl: ctl init: %d\n", c ? rc : -PISA_E_NOMEM);
		exit(1);
	}
	s->row_calls = 0;
	/* every input starts from the same state: snapshot it once */
	if (!init_ctl.p) {
		snap_ctl(c, &init_ctl, nent);
		snap_sw(s, &init_sw);
		if ((bad = check_layout(s, nent, why, sizeof(why))))
			violate(P_LAYOUT, 0, "(init)", "%s", bad);
	}
	text_add(&ctl_snap, init_ctl.p, init_ctl.n);
	text_add(&sw_snap, init_sw.p, init_sw.n);
	while (pos < len && lineno < MAX_LINES) {
		const uint8_t *nl = memchr(data + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
		size_t keep = n < MAX_LINE ? n : MAX_LINE;
		int mark = 0;
		char *cmd = line;

		memcpy(line, data + pos, keep);
		line[keep] = '\0';	/* an embedded NUL ends the command early, as in C */
		pos += n + 1;
		lineno++;
		if (line[0] == '!' || line[0] == '?')
			mark = *cmd++;
		check_cmd(c, s, lineno, cmd, mark, &ctl_snap, &sw_snap, &tmp);
	}
	/* the shadow, replayed into a fresh switch, is the switch */
	m1 = s->m;
	mir1 = s->mir;
	s->row_calls = -1000000;
	s->m = s2->m;
	s->mir = s2->mir;
	if (pisa_ctl_replay(c))
		violate(P_REPLAY, lineno, "(replay)", "pisa_ctl_replay failed");
	else if ((bad = same_mirror(&mir1, &s->mir, why, sizeof(why))))
		violate(P_REPLAY, lineno, "(replay)", "%s", bad);
	s2->mir = s->mir;
	s->mir = mir1;
	s->m = m1;
	/* and runs packets */
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 10;
	pkt[3] = 1;
	pisa_model_inject(s2->m, 1, pkt, sizeof(pkt), 1, count_pkt, &npkt);
	pisa_ctl_free(c);
	pisa_model_free(s->m);
	pisa_model_free(s2->m);
	mirror_free(&s->mir);
	mirror_free(&s2->mir);
	free(s);
	free(s2);
	free(ctl_snap.p);
	free(sw_snap.p);
	free(tmp.p);
	free(line);
	return input_bad;
}

static void setup(void)
{
	if (img)
		return;
	build_image();
	outmem = calloc(1, OUTCAP + 1);
	outf = outmem ? fmemopen(outmem, OUTCAP, "w") : NULL;
	if (!outf)
		exit(2);
}

int pisa_ctl_fuzz_one(const uint8_t *data, size_t len)
{
	setup();
	return fuzz_run(data, len);
}

#ifdef PISA_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (pisa_ctl_fuzz_one(data, len))
		abort();
	return 0;
}
#else
/* ---- gcc: replay the corpus and crashers, then mutate ---- */

static const char *const dict[] = {
	/* commands */
	"table_add", "table_modify", "table_delete", "table_set_default", "table_reset_default",
	"table_clear", "table_num_entries", "table_dump", "table_dump_entry",
	"table_dump_entry_from_key", "table_info", "table_show_actions", "show_tables",
	"show_actions", "switch_info", "counter_read", "counter_write", "counter_reset",
	"register_read", "register_write", "register_reset", "meter_set_rates", "meter_get_rates",
	"meter_array_set_rates", "mc_mgrp_create", "mc_mgrp_destroy", "mc_node_create",
	"mc_node_update", "mc_node_associate", "mc_node_dissociate", "mc_node_destroy", "mc_dump",
	"mirroring_add", "mirroring_add_mc", "mirroring_delete", "mirroring_get", "reset_state",
	"table_set_timeout", "pvs_add", "#",
	/* names, full, suffixes and ambiguous ones */
	"fwd", "MyIngress.fwd", "ipv4_lpm", "acl", "port_range", "mac", "v6", "opt", "mixed",
	"fixed", "gw", "MyEgress.gw", "Ingress.fwd", ".fwd", "MyIngress.", "set_port", "drop",
	"MyIngress.drop", "MyEgress.drop", "ipv4_forward", "allow", "deny", "set_class", "NoAction",
	"set_pair", "fwd_counter", "acl_counter", "pkts", "MyIngress.pkts", "MyEgress.pkts",
	"reg_a", "reg_b", "reg_w", "idx", "x.idx", "MyIngress.x.idx", "m_ind", "m_lpm",
	/* syntax */
	"=>", "&&&", "->", "/", "|", ":", "0x", "0b", "0o", "0X", "_", "+", "-", "", " ", "\t",
	"\r", "\n",
	/* values */
	"0", "1", "2", "7", "9", "255", "256", "511", "510", "512", "65535", "65536", "-1", "+1",
	"-0", "010", "00", "0_0", "1_000", "1__0", "0x_ff", "0x1ff", "0b101", "0o17", "0xG",
	"4294967295", "4294967296", "2147483647", "2147483648", "18446744073709551615",
	"18446744073709551616", "340282366920938463463374607431768211455",
	"340282366920938463463374607431768211456", "0xffffffffffffffffffffffffffffffff",
	"0x1ffffffffffffffffffffffffffffffff", "99999999999999999999999999999999999999999999",
	"10.0.1.1", "10.0.0.0", "0.0.0.0", "255.255.255.255", "10.0.1.256", "10.0.1", "1.2.3.4.5",
	"10.0.0.0/8", "10.1.0.0/16", "0.0.0.0/0", "10.0.1.1/32", "10.0.1.1/33", "1/", "/8",
	"08:00:00:00:01:11", "ff:ff:ff:ff:ff:ff", "8:0:0:0:1:aB", "08:00:00:00:01",
	"08:00:00:00:01:111", "fe80::1", "::", "::ffff:10.0.0.1", "fe80:::1", "2001:db8::/32",
	"::/0", "fe80::1/129", "0&&&0", "10.0.0.0&&&255.0.0.0", "0xff&&&0xf0", "1&&&&2",
	"1000->2000", "0->65535", "5->1", "1->2->3", "0x10->0x20", "0.5:10", "1:1", "2:2",
	"1e-5:1", "1e400:1", "nan:1", "inf:1", "-1:1", "65536:1", "0:0", "1:4294967296", ":",
	"1.5", "1e16",
};

#define NDICT (sizeof(dict) / sizeof(dict[0]))
#define MAXIN (256 * 1024)

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64*: fixed seed, same inputs on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * UINT64_C(2685821657736338717)) >> 32);
}

static unsigned rn(unsigned n)
{
	return n ? rnd() % n : 0;
}

struct buf {
	uint8_t *p;
	size_t n;
};

static int is_sp(uint8_t ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* replaces [at, at + del) with n bytes of s (or fill repeated when s is NULL) */
static void splice(struct buf *b, size_t at, size_t del, const void *s, size_t n, uint8_t fill)
{
	if (at > b->n)
		at = b->n;
	if (del > b->n - at)
		del = b->n - at;
	if (b->n - del + n > MAXIN)
		return;
	memmove(b->p + at + n, b->p + at + del, b->n - at - del);
	if (s)
		memcpy(b->p + at, s, n);
	else
		memset(b->p + at, fill, n);
	b->n = b->n - del + n;
}

/* a token around a random position: [*s, *e) */
static void pick_token(const struct buf *b, size_t *s, size_t *e)
{
	size_t i = b->n ? rn((unsigned)b->n) : 0;

	while (i < b->n && is_sp(b->p[i]))
		i++;
	*s = i;
	while (*s > 0 && !is_sp(b->p[*s - 1]))
		(*s)--;
	*e = i;
	while (*e < b->n && !is_sp(b->p[*e]))
		(*e)++;
}

static void gen_number(char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	unsigned len = 1 + rn(rn(4) ? 12 : 60), i, k = 0;
	int kind = (int)rn(6);

	if (kind == 1 && cap > 2) {
		out[k++] = '0';
		out[k++] = 'x';
	}
	for (i = 0; i < len && k + 1 < cap; i++)
		out[k++] = kind == 1 ? hex[rn(22)] : (char)('0' + rn(10));
	out[k] = '\0';
	if (kind >= 3 && k + 24 < cap) {	/* a compound key around it */
		static const char *const seps[] = { "/", "&&&", "->", ":" };

		snprintf(out + k, cap - k, "%s%u", seps[kind - 3 + rn(2)], rn(rn(2) ? 40 : 200));
	}
}

static void mutate_once(struct buf *b, const struct buf *corpus, unsigned ncorpus)
{
	static const char interesting[] = " \t\n/&>-:.x0123456789#!?_+|=";
	char tmp[256];
	size_t s, e, i;
	const char *d;

	switch (rn(12)) {
	case 0:		/* bit flip */
		if (b->n)
			b->p[rn((unsigned)b->n)] ^= (uint8_t)(1u << rn(8));
		break;
	case 1:		/* an interesting byte */
		if (b->n)
			b->p[rn((unsigned)b->n)] = (uint8_t)interesting[rn(sizeof(interesting) - 1)];
		break;
	case 2:		/* token swap from the dictionary */
		pick_token(b, &s, &e);
		d = dict[rn(NDICT)];
		splice(b, s, e - s, d, strlen(d), 0);
		break;
	case 3:		/* insert a dictionary token */
		pick_token(b, &s, &e);
		d = dict[rn(NDICT)];
		snprintf(tmp, sizeof(tmp), " %s ", d);
		splice(b, rn(2) ? s : e, 0, tmp, strlen(tmp), 0);
		break;
	case 4:		/* delete a token */
		pick_token(b, &s, &e);
		splice(b, s, e - s, "", 0, 0);
		break;
	case 5:		/* duplicate a line */
		pick_token(b, &s, &e);
		while (s > 0 && b->p[s - 1] != '\n')
			s--;
		for (e = s; e < b->n && b->p[e] != '\n'; e++)
			;
		if (e - s < sizeof(tmp) - 1) {
			memcpy(tmp, b->p + s, e - s);
			tmp[e - s] = '\n';
			splice(b, s, 0, tmp, e - s + 1, 0);
		}
		break;
	case 6:		/* splice in a line of another corpus file */
		if (ncorpus) {
			const struct buf *o = &corpus[rn(ncorpus)];
			size_t a = o->n ? rn((unsigned)o->n) : 0, z;

			while (a > 0 && o->p[a - 1] != '\n')
				a--;
			for (z = a; z < o->n && o->p[z] != '\n'; z++)
				;
			if (z < o->n)
				z++;
			for (i = 0; i < b->n && rn(4); i++)
				;
			while (i < b->n && b->p[i] != '\n')
				i++;
			if (i < b->n)
				i++;
			splice(b, i, 0, o->p + a, z - a, 0);
		}
		break;
	case 7:		/* a number: huge, hex, or inside a compound key */
		pick_token(b, &s, &e);
		gen_number(tmp, sizeof(tmp));
		splice(b, s, e - s, tmp, strlen(tmp), 0);
		break;
	case 8:		/* a very long token */
		pick_token(b, &s, &e);
		splice(b, s, e - s, NULL, 100 + rn(rn(2) ? 300 : 20000),
		       (uint8_t)"1a0:/.f"[rn(7)]);
		break;
	case 9:		/* a very long line: many tokens */
		{
			size_t k, at = b->n;
			const char *head = rn(2) ? "table_add fwd set_port" : "mc_node_create 1";

			splice(b, at, 0, head, strlen(head), 0);
			for (k = rn(3000); k > 0; k--) {
				snprintf(tmp, sizeof(tmp), " %u", rn(rn(2) ? 520 : 10));
				splice(b, b->n, 0, tmp, strlen(tmp), 0);
			}
			splice(b, b->n, 0, "\n", 1, 0);
		}
		break;
	case 10:	/* swap two tokens */
		{
			size_t s2, e2;
			char t1[128], t2[128];

			pick_token(b, &s, &e);
			pick_token(b, &s2, &e2);
			if (s2 < e || e - s >= sizeof(t1) || e2 - s2 >= sizeof(t2))
				break;
			memcpy(t1, b->p + s, e - s);
			memcpy(t2, b->p + s2, e2 - s2);
			splice(b, s2, e2 - s2, t1, e - s, 0);
			splice(b, s, e - s, t2, e2 - s2, 0);
		}
		break;
	default:	/* insert or delete a random byte */
		if (rn(2)) {
			uint8_t ch = (uint8_t)rnd();

			splice(b, b->n ? rn((unsigned)b->n + 1) : 0, 0, &ch, 1, 0);
		} else if (b->n) {
			splice(b, rn((unsigned)b->n), 1, "", 0, 0);
		}
		break;
	}
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every regular file of dir, sorted by name */
static unsigned load_dir(const char *dir, struct buf **out, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **nm = NULL;
	unsigned n = 0, i;

	*out = NULL;
	*names = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nm = realloc(nm, (n + 1) * sizeof(*nm));
		nm[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (!n)
		return 0;
	qsort(nm, n, sizeof(*nm), by_str);
	*out = calloc(n, sizeof(**out));
	for (i = 0; i < n; i++) {
		char path[1024];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, nm[i]);
		(*out)[i].p = malloc(MAXIN);
		f = fopen(path, "rb");
		if (f) {
			(*out)[i].n = fread((*out)[i].p, 1, MAXIN, f);
			fclose(f);
		}
	}
	*names = nm;
	return n;
}

static unsigned replay(const char *what, const char *dir, int expect, unsigned *ncmds)
{
	struct buf *in;
	char **names, name[512];
	unsigned n = load_dir(dir, &in, &names), i, bad = 0;
	unsigned long c0 = ncommands;

	expect_mode = expect;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/%s", what, names[i]);
		cur_name = name;
		if (fuzz_run(in[i].p, in[i].n))
			bad++;
		free(in[i].p);
		free(names[i]);
	}
	free(in);
	free(names);
	expect_mode = 0;
	*ncmds = (unsigned)(ncommands - c0);
	return n * 1000u + bad;	/* files and failures, unpacked by the caller */
}

static void save_failure(const char *dir, unsigned k, const struct buf *b)
{
	char path[1024];
	FILE *f;

	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/fail-%u.txt", dir, k);
	f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(b->p, 1, b->n, f);
	fclose(f);
	printf("# a failing input was saved to %s (add it to tests/fuzz_ctl/crashers/)\n", path);
}

static int write_dict(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned i;

	if (!f)
		return 1;
	fprintf(f, "# libFuzzer dictionary for fuzz_ctl (written by fuzz_ctl --write-dict)\n");
	for (i = 0; i < NDICT; i++) {
		const char *p;

		if (!dict[i][0])
			continue;
		fputc('"', f);
		for (p = dict[i]; *p; p++) {
			if (*p == '"' || *p == '\\' || *p < 0x20)
				fprintf(f, "\\x%02x", (uint8_t)*p);
			else
				fputc(*p, f);
		}
		fputs("\"\n", f);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *corpus_dir = "tests/fuzz_ctl/corpus", *crash_dir = "tests/fuzz_ctl/crashers";
	const char *fail_dir = "build/fuzz_ctl";
	unsigned long count = 20000, seed = 1, i, mbad = 0;
	struct buf *corpus, b;
	char **names;
	unsigned ncorpus, r, files, nc, p, failures = 0, saved = 0;
	struct timespec t0, t1;
	double secs;
	const char *env = getenv("PISA_FUZZ_COUNT");
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--write-dict") && a + 1 < argc)
			return write_dict(argv[a + 1]);
		else if (!strcmp(argv[a], "--count") && a + 1 < argc)
			count = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--corpus") && a + 1 < argc)
			corpus_dir = argv[++a];
		else if (!strcmp(argv[a], "--crashers") && a + 1 < argc)
			crash_dir = argv[++a];
		else if (!strcmp(argv[a], "--save") && a + 1 < argc)
			fail_dir = argv[++a];
		else {
			fprintf(stderr,
				"usage: fuzz_ctl [--count N] [--seed S] [--corpus DIR] [--crashers DIR] [--save DIR] | --write-dict FILE\n");
			return 2;
		}
	}
	if (env)
		count = strtoul(env, NULL, 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	clock_gettime(CLOCK_MONOTONIC, &t0);

	/* the checks can fail: a switch write that fails half way through a move */
	{
		static const char self[] = "table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 0 1\n"
					   "table_add ipv4_lpm ipv4_forward 10.1.0.0/16 => 0 2\n";
		unsigned long before = pfail[P_NOWRITE] + pfail[P_SWITCH];

		quiet_reports = 1;
		inject_row_fail = 3;
		cur_name = "self-test";
		fuzz_run((const uint8_t *)self, sizeof(self) - 1);
		inject_row_fail = -1;
		quiet_reports = 0;
		tb_check(pfail[P_NOWRITE] + pfail[P_SWITCH] > before,
			 "fuzz_ctl self-test: a write that fails half way is caught",
			 "a failed command's writes went unnoticed");
		memset(pfail, 0, sizeof(pfail));
		ncommands = nfailed_cmds = 0;
	}

	r = replay("corpus", corpus_dir, 1, &nc);
	files = r / 1000;
	tb_check(files > 0 && r % 1000 == 0, "fuzz_ctl corpus replay",
		 "%u of %u files broke a property (%s)", r % 1000, files, corpus_dir);
	printf("# corpus: %u files, %u commands\n", files, nc);
	r = replay("crashers", crash_dir, 0, &nc);
	tb_check(r % 1000 == 0, "fuzz_ctl crashers replay", "%u of %u files broke a property",
		 r % 1000, r / 1000);
	printf("# crashers: %u files, %u commands\n", r / 1000, nc);

	ncorpus = load_dir(corpus_dir, &corpus, &names);
	b.p = malloc(MAXIN);
	rng_state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
	cur_name = "mutant";
	for (i = 0; i < count && ncorpus; i++) {
		const struct buf *src = &corpus[rn(ncorpus)];
		unsigned k, nmut = 1 + rn(4);

		/* mostly a few consecutive lines (fast), sometimes the whole file (deep state) */
		if (i % 16) {
			size_t from = src->n ? rn((unsigned)src->n) : 0, z;
			unsigned nl = 1 + rn(6);

			while (from > 0 && src->p[from - 1] != '\n')
				from--;
			for (z = from; z < src->n && nl; z++)
				nl -= src->p[z] == '\n';
			memcpy(b.p, src->p + from, z - from);
			b.n = z - from;
		} else {
			memcpy(b.p, src->p, src->n);
			b.n = src->n;
		}
		for (k = 0; k < nmut; k++)
			mutate_once(&b, corpus, ncorpus);
		/* small errlens test truncation and the guard bytes */
		cur_errlen = i % 16 == 7 ? 24 : i % 16 == 15 ? 1 : ERRLEN;
		quiet_reports = mbad >= 3;
		if (fuzz_run(b.p, b.n)) {
			if (saved < 5)
				save_failure(fail_dir, saved++, &b);
			mbad++;
		}
	}
	cur_errlen = ERRLEN;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tb_check(ncorpus && mbad == 0, "fuzz_ctl mutator", "%lu of %lu mutated inputs broke a property",
		 mbad, count);
	printf("# mutator: %lu inputs (seed %lu), %lu commands, %lu failed as they should; %.1f s\n",
	       count, seed, ncommands, nfailed_cmds, secs);
	for (p = 0; p < NP; p++) {
		char name[160];

		snprintf(name, sizeof(name), "fuzz_ctl: %s", pnames[p]);
		tb_check(pfail[p] == 0, name, "%lu violations", pfail[p]);
		failures += pfail[p] != 0;
	}
	for (i = 0; i < ncorpus; i++) {
		free(corpus[i].p);
		free(names[i]);
	}
	free(corpus);
	free(names);
	free(b.p);
	free(init_ctl.p);
	free(init_sw.p);
	fclose(outf);
	free(outmem);
	tb_done();
	return tb_failed || failures ? 1 : 0;
}
#endif
