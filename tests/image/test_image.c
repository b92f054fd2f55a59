/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_image.c: the config image reader, writer and check
 * (lib/pisa_image.c, docs/config-image.md).
 *
 * Builds a non-trivial image in C, round-trips it through bytes and files,
 * then attacks the reader: truncation at every length, every byte flipped,
 * random bit flips, random mutations with the CRCs fixed up (so the
 * decoders and the check see them), bad magic / version / CRC, and the
 * regression corpus in tests/image/corpus/. Run from the repository root.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pisa_bytes.h"
#include "pisa_image.h"
#include "pisa_switch.h"

#define CORPUS_DIR "tests/image/corpus"

static int failures;

static void pass(const char *name)
{
	printf("PASS %s\n", name);
}

static void fail(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

/* ---- Building an image ---- */

static void *dup_mem(const void *p, size_t n)
{
	void *q = malloc(n);

	if (!q) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	memcpy(q, p, n);
	return q;
}

#define DUP(arr) dup_mem((arr), sizeof(arr))
#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

static char *str(const char *s)
{
	return dup_mem(s, strlen(s) + 1);
}

/* PHV byte offsets of the test program's headers and metadata. */
#define ETH 65			/* 14 bytes; 64 + one byte of validity bits */
#define IP4 79			/* 20 bytes */
#define TAG0 99			/* 4 bytes, stack of two */
#define TAG1 103
#define META 107		/* m16 107-108, m8 109, m1 110, m32 111-114 */
#define PHV_BYTES 128

static struct pisa_field fld(unsigned byte, unsigned width)
{
	return (struct pisa_field){ (uint16_t)(byte * 8), (uint16_t)width };
}

static struct pisa_operand phv(unsigned byte, unsigned width)
{
	return (struct pisa_operand){ PISA_OPND_PHV, (uint16_t)(byte * 8), (uint16_t)width, 0 };
}

static struct pisa_operand cst(uint64_t v, unsigned width)
{
	return (struct pisa_operand){ PISA_OPND_CONST, 0, (uint16_t)width, v };
}

static struct pisa_operand adata(unsigned off, unsigned width)
{
	return (struct pisa_operand){ PISA_OPND_ADATA, (uint16_t)off, (uint16_t)width, 0 };
}

static struct pisa_operand pkt(unsigned off, unsigned width)
{
	return (struct pisa_operand){ PISA_OPND_PKT, (uint16_t)off, (uint16_t)width, 0 };
}

static const struct pisa_operand none;

static struct pisa_insn insn(unsigned op, unsigned imm, struct pisa_operand dst,
			     struct pisa_operand a, struct pisa_operand b)
{
	return (struct pisa_insn){ (uint8_t)op, 0, (uint16_t)imm, dst, a, b };
}

static void build_parser(struct pisa_image *img)
{
	struct pisa_insn ops0[] = {
		insn(PISA_EXTRACT, 0, none, none, none),
	};
	struct pisa_parser_row rows0[] = {
		{ 0x0800, 0xFFFF, 1, 0 },
		{ 0, 0, PISA_PARSER_ACCEPT, 0 },
	};
	struct pisa_insn ops1[] = {
		insn(PISA_EXTRACT, 1, none, none, none),
		insn(PISA_EXTRACT_STACK, 0, none, none, none),
		insn(PISA_SET, 0, phv(META + 2, 8), pkt(0, 8), none),
		insn(PISA_ADVANCE, 0, none, cst(8, 16), none),
		insn(PISA_ADD, 0, phv(META + 4, 32), phv(META + 4, 32), cst(1, 32)),
	};
	struct pisa_parser_row rows1[] = {
		{ 0x45, 0xFF, PISA_PARSER_ACCEPT, 0 },
		{ 0, 0, PISA_PARSER_REJECT, PISA_ERROR_USER },
	};

	img->parser_start = 0;
	img->nstates = 2;
	img->states = calloc(2, sizeof(*img->states));
	img->states[0].nops = N(ops0);
	img->states[0].ops = DUP(ops0);
	img->states[0].nkey = 1;
	img->states[0].key[0] = phv(ETH + 12, 16);
	img->states[0].nrows = N(rows0);
	img->states[0].rows = DUP(rows0);
	img->states[1].nops = N(ops1);
	img->states[1].ops = DUP(ops1);
	img->states[1].nkey = 2;
	img->states[1].key[0] = pkt(0, 4);
	img->states[1].key[1] = phv(IP4, 4);
	img->states[1].nrows = N(rows1);
	img->states[1].rows = DUP(rows1);
}

static void build_actions(struct pisa_image *img)
{
	struct pisa_insn fwd[] = {
		insn(PISA_SET, 0, (struct pisa_operand){ PISA_OPND_PHV, 2 * 8 + 7, 9, 0 },
		     adata(7, 9), none),
		insn(PISA_COUNT, 1, none, cst(3, 8), none),
	};
	struct pisa_insn drop[] = {
		insn(PISA_DROP, 0, none, none, none),
	};
	struct pisa_insn set_meta[] = {
		insn(PISA_SET, 0, phv(META, 16), adata(0, 16), none),
		insn(PISA_DMETER, 1, phv(META + 2, 8), none, none),
	};
	struct pisa_insn ext[] = {
		insn(PISA_REG_READ, 0, phv(META + 4, 32), cst(2, 8), none),
		insn(PISA_ADD, 0, phv(META + 4, 32), phv(META + 4, 32), cst(0xFFFFFFFF, 32)),
		insn(PISA_JZ, 1, none, phv(META + 3, 8), none),
		insn(PISA_REG_WRITE, 0, none, cst(2, 8), phv(META + 4, 32)),
		insn(PISA_HASH, 1, phv(META, 16), cst(0, 16), cst(1024, 16)),
		insn(PISA_RANDOM, 0, phv(META + 2, 8), cst(1, 8), cst(200, 8)),
		insn(PISA_METER, 0, phv(META + 3, 8), cst(1, 8), none),
		insn(PISA_CLONE, PISA_CLONE_E2E, none, cst(5, 16), cst(2, 8)),
		insn(PISA_RECIRCULATE, 0, none, cst(1, 8), none),
		insn(PISA_TRUNCATE, 0, none, cst(64, 16), none),
		insn(PISA_DIGEST, 0, none, none, none),
		insn(PISA_SETVALID, 3, none, none, none),
		insn(PISA_COPYHDR, 3, none, cst(2, 16), none),
		insn(PISA_SETINVALID, 2, none, none, none),
		insn(PISA_SHR, 0, phv(META, 16), phv(META, 16), cst(3, 4)),
		insn(PISA_EXIT, 0, none, none, none),
	};
	struct pisa_insn gate[] = {
		insn(PISA_EQ, 0, phv(META + 3, 8), phv(IP4 + 8, 8), cst(0, 8)),
	};

	ext[1].flags = PISA_INSN_SIGNED;
	img->nactions = 5;
	img->actions = calloc(5, sizeof(*img->actions));
	img->actions[0] = (struct pisa_action){ N(fwd), DUP(fwd), 16 };
	img->actions[1] = (struct pisa_action){ N(drop), DUP(drop), 0 };
	img->actions[2] = (struct pisa_action){ N(set_meta), DUP(set_meta), 16 };
	img->actions[3] = (struct pisa_action){ N(ext), DUP(ext), 0 };
	img->actions[4] = (struct pisa_action){ N(gate), DUP(gate), 0 };
}

static void build_tables(struct pisa_image *img)
{
	struct pisa_key_field k0[] = { { fld(IP4 + 16, 16), PISA_MATCH_EXACT } };
	struct pisa_table_action a0[] = {
		{ 0, PISA_NEXT_END, 0 }, { 1, PISA_NEXT_END, 0 },
	};
	struct pisa_key_field k1[] = {
		{ fld(IP4 + 12, 32), PISA_MATCH_TERNARY },
		{ fld(IP4 + 9, 8), PISA_MATCH_EXACT },
		{ fld(TAG0, 16), PISA_MATCH_RANGE },
	};
	struct pisa_table_action a1[] = {
		{ 2, 2, PISA_TA_TABLE_ONLY }, { 1, PISA_NEXT_END, PISA_TA_DEFAULT_ONLY },
	};
	struct pisa_table_action a2[] = { { 4, PISA_NEXT_END, 0 } };
	struct pisa_table_action a3[] = { { 3, PISA_NEXT_END, 0 } };
	uint8_t dflt0[2] = { 0x01, 0x02 };
	struct pisa_table *t;

	img->ingress_start = 0;
	img->egress_start = 3;
	img->ntables = 4;
	img->tables = calloc(4, sizeof(*img->tables));
	t = &img->tables[0];	/* HASH, ingress stage 0 */
	t->gress = 0;
	t->stage = 0;
	t->mem = PISA_MEM_HASH;
	t->next_mode = PISA_NEXT_HITMISS;
	t->nkeys = N(k0);
	t->keys = DUP(k0);
	t->key_bits = 16;
	t->adata_bits = 16;
	t->ways = 2;
	t->way_bits = 4;
	t->rows = 32;
	t->nactions = N(a0);
	t->actions = DUP(a0);
	t->next_hit = 1;
	t->next_miss = 2;
	t->direct_counter = 0;
	t->direct_meter = -1;
	t->default_action = 0;
	t->default_adata_len = sizeof(dflt0);
	t->default_adata = DUP(dflt0);

	t = &img->tables[1];	/* TCAM, ingress stage 1, switch on action_run */
	t->gress = 0;
	t->stage = 1;
	t->mem = PISA_MEM_TCAM;
	t->next_mode = PISA_NEXT_ACTION;
	t->nkeys = N(k1);
	t->keys = DUP(k1);
	t->key_bits = 56;
	t->adata_bits = 16;
	t->rows = 16;
	t->nactions = N(a1);
	t->actions = DUP(a1);
	t->next_hit = PISA_NEXT_END;
	t->next_miss = PISA_NEXT_END;
	t->direct_counter = -1;
	t->direct_meter = 1;
	t->default_action = 1;

	t = &img->tables[2];	/* gateway, ingress stage 2 */
	t->gress = 0;
	t->stage = 2;
	t->mem = PISA_MEM_NONE;
	t->next_mode = PISA_NEXT_COND;
	t->nactions = N(a2);
	t->actions = DUP(a2);
	t->next_hit = PISA_NEXT_END;
	t->next_miss = PISA_NEXT_END;
	t->cond = fld(META + 3, 8);
	t->direct_counter = -1;
	t->direct_meter = -1;
	t->default_action = 4;

	t = &img->tables[3];	/* keyless, egress stage 0 */
	t->gress = 1;
	t->stage = 0;
	t->mem = PISA_MEM_NONE;
	t->nactions = N(a3);
	t->actions = DUP(a3);
	t->next_hit = PISA_NEXT_END;
	t->next_miss = PISA_NEXT_END;
	t->direct_counter = -1;
	t->direct_meter = -1;
	t->default_action = 3;
}

static void build_externs(struct pisa_image *img)
{
	struct pisa_counter counters[] = {
		{ PISA_COUNTER_BOTH, 32, 0 }, { PISA_COUNTER_PACKETS, 8, -1 },
	};
	struct pisa_register registers[] = { { 32, 16 } };
	struct pisa_meter meters[] = {
		{ PISA_METER_PACKETS, 4, -1 }, { PISA_METER_BYTES, 16, 1 },
	};
	struct pisa_field fl0[] = { fld(IP4 + 12, 32), fld(IP4 + 16, 32) };
	struct pisa_field fl1[] = { fld(META, 16), fld(META + 4, 32) };
	struct pisa_field fl2[] = {
		fld(IP4, 64), fld(IP4 + 8, 16), fld(IP4 + 12, 64),
	};
	struct pisa_hash_unit hashes[] = {
		{ PISA_HASH_CRC16, 0, 0, 0, 0, 0, 0, 0 },
		{ PISA_HASH_CRC32_CUSTOM, 1, 32, 1, 0, 0x1EDC6F41, 0xFFFFFFFF, 0x12345678 },
	};
	struct pisa_digest digests[] = { { 1 } };
	struct pisa_checksum csums[] = {
		{ PISA_CSUM_VERIFY, 0, PISA_HASH_CSUM16,
		  { PISA_OPND_PHV, PISA_VALID_BIT(1), 1, 0 }, 2, fld(IP4 + 10, 16) },
		{ PISA_CSUM_UPDATE, 1, PISA_HASH_CSUM16, cst(1, 1), 2, fld(IP4 + 10, 16) },
	};

	img->ncounters = N(counters);
	img->counters = DUP(counters);
	img->nregisters = N(registers);
	img->registers = DUP(registers);
	img->nmeters = N(meters);
	img->meters = DUP(meters);
	img->nfield_lists = 3;
	img->field_lists = calloc(3, sizeof(*img->field_lists));
	img->field_lists[0] = (struct pisa_field_list){ N(fl0), DUP(fl0) };
	img->field_lists[1] = (struct pisa_field_list){ N(fl1), DUP(fl1) };
	img->field_lists[2] = (struct pisa_field_list){ N(fl2), DUP(fl2) };
	img->nhash_units = N(hashes);
	img->hash_units = DUP(hashes);
	img->ndigests = N(digests);
	img->digests = DUP(digests);
	img->nchecksums = N(csums);
	img->checksums = DUP(csums);
}

static struct pisa_rt_named *named(const char *const *names, uint32_t first_id, unsigned n)
{
	struct pisa_rt_named *v = calloc(n, sizeof(*v));
	unsigned i;

	for (i = 0; i < n; i++) {
		v[i].name = str(names[i]);
		v[i].p4info_id = first_id + i;
	}
	return v;
}

static char **strs(const char *const *names, unsigned n)
{
	char **v = calloc(n, sizeof(*v));
	unsigned i;

	for (i = 0; i < n; i++)
		v[i] = str(names[i]);
	return v;
}

static void build_runtime(struct pisa_image *img)
{
	static const char *const tables[] = {
		"MyIngress.ipv4_exact", "MyIngress.acl", "MyIngress.gw_0", "MyEgress.tail",
	};
	static const char *const actions[] = {
		"MyIngress.forward", "MyIngress.drop", "MyIngress.set_meta", "MyEgress.ext",
		"gateway_0",
	};
	static const char *const counters[] = { "MyIngress.hits", "MyIngress.pkts" };
	static const char *const registers[] = { "MyEgress.reg" };
	static const char *const meters[] = { "MyEgress.m", "MyIngress.acl_meter" };
	static const char *const digests[] = { "learn_t" };
	static const char *const headers[] = {
		"hdr.ethernet", "hdr.ipv4", "hdr.tags[0]", "hdr.tags[1]",
	};
	static const char *const errors[] = {
		"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds", "HeaderTooShort",
		"ParserTimeout", "ParserInvalidArgument", "BadVersion",
	};
	unsigned i;

	img->rt_tables = calloc(img->ntables, sizeof(*img->rt_tables));
	for (i = 0; i < img->ntables; i++) {
		img->rt_tables[i].name = str(tables[i]);
		img->rt_tables[i].p4info_id = 0x02000001 + i;
		img->rt_tables[i].size = 16 + i;
	}
	img->rt_tables[1].const_entries = 1;
	img->rt_tables[1].const_default = 1;
	img->rt_tables[0].nkeys = 1;
	img->rt_tables[0].keys = calloc(1, sizeof(struct pisa_rt_key));
	img->rt_tables[0].keys[0] = (struct pisa_rt_key){ str("hdr.ipv4.dstAddr"), 16, 0 };
	img->rt_tables[1].nkeys = 3;
	img->rt_tables[1].keys = calloc(3, sizeof(struct pisa_rt_key));
	img->rt_tables[1].keys[0] = (struct pisa_rt_key){ str("hdr.ipv4.srcAddr"), 32, 1 };
	img->rt_tables[1].keys[1] = (struct pisa_rt_key){ str("hdr.ipv4.protocol"), 8, 0 };
	img->rt_tables[1].keys[2] = (struct pisa_rt_key){ str("hdr.tags[0].v"), 16, 3 };

	img->rt_actions = calloc(img->nactions, sizeof(*img->rt_actions));
	for (i = 0; i < img->nactions; i++) {
		img->rt_actions[i].name = str(actions[i]);
		img->rt_actions[i].p4info_id = 0x01000001 + i;
	}
	img->rt_actions[0].nparams = 1;
	img->rt_actions[0].params = calloc(1, sizeof(struct pisa_rt_param));
	img->rt_actions[0].params[0] = (struct pisa_rt_param){ str("port"), 9, 7 };
	img->rt_actions[2].nparams = 1;
	img->rt_actions[2].params = calloc(1, sizeof(struct pisa_rt_param));
	img->rt_actions[2].params[0] = (struct pisa_rt_param){ str("v"), 16, 0 };

	img->rt_counters = named(counters, 0x12000001, img->ncounters);
	img->rt_registers = named(registers, 0x13000001, img->nregisters);
	img->rt_meters = named(meters, 0x15000001, img->nmeters);
	img->rt_digests = named(digests, 0x17000001, img->ndigests);
	img->rt_headers = strs(headers, img->nheaders);
	img->nerrors = N(errors);
	img->rt_errors = strs(errors, img->nerrors);
	/* table 1 points into an action profile whose members are table 0's rows */
	img->nprofiles = 1;
	img->rt_profiles = calloc(1, sizeof(*img->rt_profiles));
	img->rt_profiles[0].name = str("MyIngress.prof");
	img->rt_profiles[0].p4info_id = 0x11000001;
	img->rt_profiles[0].size = 20;
	img->rt_profiles[0].max_group_size = 7;
	img->rt_profiles[0].member_table = 0;
	img->rt_profiles[0].ntables = 1;
	img->rt_profiles[0].tables = calloc(1, sizeof(struct pisa_rt_profile_table));
	img->rt_profiles[0].tables[0] = (struct pisa_rt_profile_table){ 1, 2, PISA_NO_ACTION };
}

static void build_const_rows(struct pisa_image *img)
{
	/* table 1 row 0: valid, action 2, value/mask (7+7), lo/hi (2+2), data 2 */
	static const uint8_t r0[23] = {
		PISA_ROW_VALID, 0, 2,
		10, 0, 0, 1, 6, 0, 0,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0,
		0, 1, 0, 9,
		0xAB, 0xCD,
	};
	/* table 1 default row (index 16): action 1 */
	static const uint8_t r1[23] = { PISA_ROW_VALID, 0, 1 };
	/* table 0 default row: action 0 with data */
	static const uint8_t r2[7] = { PISA_ROW_VALID, 0, 0, 0, 0, 0x01, 0x02 };

	img->nconst_rows = 3;
	img->const_rows = calloc(3, sizeof(*img->const_rows));
	img->const_rows[0] = (struct pisa_const_row){ 1, 0, sizeof(r0), DUP(r0) };
	img->const_rows[1] = (struct pisa_const_row){ 1, 16, sizeof(r1), DUP(r1) };
	img->const_rows[2] = (struct pisa_const_row){ 0, 32, sizeof(r2), DUP(r2) };
}

static struct pisa_image *build_image(void)
{
	struct pisa_header headers[] = {
		{ ETH, 14, 14 }, { IP4, 20, 20 }, { TAG0, 4, 4 }, { TAG1, 4, 4 },
	};
	struct pisa_stack stacks[] = { { 2, 2 } };
	uint16_t deparse[] = { 0, 1, 2, 3 };
	struct pisa_image *img = calloc(1, sizeof(*img));

	strcpy(img->board, "sim");
	strcpy(img->program, "test_image.p4");
	img->phv_bytes = PHV_BYTES;
	img->cpu_port = PISA_PORT_CPU_DEFAULT;
	img->nstages = 4;
	img->nheaders = N(headers);
	img->headers = DUP(headers);
	img->nstacks = N(stacks);
	img->stacks = DUP(stacks);
	build_parser(img);
	build_actions(img);
	build_tables(img);
	build_externs(img);
	img->ndeparse = N(deparse);
	img->deparse = DUP(deparse);
	img->mcast_groups = 16;
	img->mcast_nodes = 64;
	img->clone_sessions = 8;
	build_runtime(img);
	build_const_rows(img);
	return img;
}

/* ---- Deep compare: the first difference as a path, or NULL ---- */

static char diff[256];

#define CMP(path_fmt, x, y, ...) \
	do { \
		if ((x) != (y)) { \
			snprintf(diff, sizeof(diff), path_fmt " (%lld vs %lld)", __VA_ARGS__, \
				 (long long)(x), (long long)(y)); \
			return 1; \
		} \
	} while (0)

#define CMPMEM(path_fmt, x, y, n, ...) \
	do { \
		if ((n) && memcmp((x), (y), (n))) { \
			snprintf(diff, sizeof(diff), path_fmt " bytes differ", __VA_ARGS__); \
			return 1; \
		} \
	} while (0)

#define CMPSTR(path_fmt, x, y, ...) \
	do { \
		if (strcmp((x), (y))) { \
			snprintf(diff, sizeof(diff), path_fmt " \"%s\" vs \"%s\"", __VA_ARGS__, \
				 (x), (y)); \
			return 1; \
		} \
	} while (0)

static int cmp_field(const char *w, unsigned i, struct pisa_field a, struct pisa_field b)
{
	CMP("%s %u bitoff", a.bitoff, b.bitoff, w, i);
	CMP("%s %u width", a.width, b.width, w, i);
	return 0;
}

static int cmp_opnd(const char *w, unsigned i, const struct pisa_operand *a,
		    const struct pisa_operand *b)
{
	CMP("%s %u kind", a->kind, b->kind, w, i);
	CMP("%s %u off", a->off, b->off, w, i);
	CMP("%s %u width", a->width, b->width, w, i);
	CMP("%s %u value", a->value, b->value, w, i);
	return 0;
}

static int cmp_insns(const char *w, unsigned i, const struct pisa_insn *a,
		     const struct pisa_insn *b, unsigned n)
{
	unsigned j;

	for (j = 0; j < n; j++) {
		CMP("%s %u insn %u op", a[j].op, b[j].op, w, i, j);
		CMP("%s %u insn %u flags", a[j].flags, b[j].flags, w, i, j);
		CMP("%s %u insn %u imm", a[j].imm, b[j].imm, w, i, j);
		if (cmp_opnd("insn dst", j, &a[j].dst, &b[j].dst) ||
		    cmp_opnd("insn a", j, &a[j].a, &b[j].a) ||
		    cmp_opnd("insn b", j, &a[j].b, &b[j].b))
			return 1;
	}
	return 0;
}

static int cmp_parser(const struct pisa_image *a, const struct pisa_image *b)
{
	unsigned i, j;

	CMP("nheaders%s", a->nheaders, b->nheaders, "");
	for (i = 0; i < a->nheaders; i++) {
		CMP("header %u phv_byte", a->headers[i].phv_byte, b->headers[i].phv_byte, i);
		CMP("header %u bytes", a->headers[i].bytes, b->headers[i].bytes, i);
		CMP("header %u fixed", a->headers[i].fixed_bytes, b->headers[i].fixed_bytes, i);
	}
	CMP("nstacks%s", a->nstacks, b->nstacks, "");
	for (i = 0; i < a->nstacks; i++) {
		CMP("stack %u first", a->stacks[i].first_header, b->stacks[i].first_header, i);
		CMP("stack %u size", a->stacks[i].size, b->stacks[i].size, i);
	}
	CMP("parser_start%s", a->parser_start, b->parser_start, "");
	CMP("nstates%s", a->nstates, b->nstates, "");
	for (i = 0; i < a->nstates; i++) {
		const struct pisa_parser_state *x = &a->states[i], *y = &b->states[i];

		CMP("state %u nops", x->nops, y->nops, i);
		if (cmp_insns("state", i, x->ops, y->ops, x->nops))
			return 1;
		CMP("state %u nkey", x->nkey, y->nkey, i);
		for (j = 0; j < x->nkey; j++)
			if (cmp_opnd("state key", j, &x->key[j], &y->key[j]))
				return 1;
		CMP("state %u nrows", x->nrows, y->nrows, i);
		for (j = 0; j < x->nrows; j++) {
			CMP("state %u row %u value", x->rows[j].value, y->rows[j].value, i, j);
			CMP("state %u row %u mask", x->rows[j].mask, y->rows[j].mask, i, j);
			CMP("state %u row %u next", x->rows[j].next, y->rows[j].next, i, j);
			CMP("state %u row %u error", x->rows[j].error, y->rows[j].error, i, j);
		}
	}
	return 0;
}

static int cmp_table(unsigned i, const struct pisa_table *x, const struct pisa_table *y)
{
	unsigned j;

	CMP("table %u gress", x->gress, y->gress, i);
	CMP("table %u stage", x->stage, y->stage, i);
	CMP("table %u mem", x->mem, y->mem, i);
	CMP("table %u next_mode", x->next_mode, y->next_mode, i);
	CMP("table %u nkeys", x->nkeys, y->nkeys, i);
	for (j = 0; j < x->nkeys; j++) {
		if (cmp_field("table key", j, x->keys[j].field, y->keys[j].field))
			return 1;
		CMP("table %u key %u match", x->keys[j].match, y->keys[j].match, i, j);
	}
	CMP("table %u key_bits", x->key_bits, y->key_bits, i);
	CMP("table %u adata_bits", x->adata_bits, y->adata_bits, i);
	CMP("table %u ways", x->ways, y->ways, i);
	CMP("table %u way_bits", x->way_bits, y->way_bits, i);
	CMP("table %u rows", x->rows, y->rows, i);
	CMP("table %u nactions", x->nactions, y->nactions, i);
	for (j = 0; j < x->nactions; j++) {
		CMP("table %u action %u id", x->actions[j].action, y->actions[j].action, i, j);
		CMP("table %u action %u next", x->actions[j].next, y->actions[j].next, i, j);
		CMP("table %u action %u flags", x->actions[j].flags, y->actions[j].flags, i, j);
	}
	CMP("table %u next_hit", x->next_hit, y->next_hit, i);
	CMP("table %u next_miss", x->next_miss, y->next_miss, i);
	if (cmp_field("table cond", i, x->cond, y->cond))
		return 1;
	CMP("table %u direct_counter", x->direct_counter, y->direct_counter, i);
	CMP("table %u direct_meter", x->direct_meter, y->direct_meter, i);
	CMP("table %u default_action", x->default_action, y->default_action, i);
	CMP("table %u default_adata_len", x->default_adata_len, y->default_adata_len, i);
	CMPMEM("table %u default_adata", x->default_adata, y->default_adata,
	       x->default_adata_len, i);
	return 0;
}

static int cmp_pipeline(const struct pisa_image *a, const struct pisa_image *b)
{
	unsigned i;

	CMP("ingress_start%s", a->ingress_start, b->ingress_start, "");
	CMP("egress_start%s", a->egress_start, b->egress_start, "");
	CMP("ntables%s", a->ntables, b->ntables, "");
	for (i = 0; i < a->ntables; i++)
		if (cmp_table(i, &a->tables[i], &b->tables[i]))
			return 1;
	CMP("nactions%s", a->nactions, b->nactions, "");
	for (i = 0; i < a->nactions; i++) {
		CMP("action %u ninsns", a->actions[i].ninsns, b->actions[i].ninsns, i);
		CMP("action %u adata_bits", a->actions[i].adata_bits, b->actions[i].adata_bits, i);
		if (cmp_insns("action", i, a->actions[i].insns, b->actions[i].insns,
			      a->actions[i].ninsns))
			return 1;
	}
	return 0;
}

static int cmp_externs(const struct pisa_image *a, const struct pisa_image *b)
{
	unsigned i, j;

	CMP("ncounters%s", a->ncounters, b->ncounters, "");
	for (i = 0; i < a->ncounters; i++) {
		CMP("counter %u kind", a->counters[i].kind, b->counters[i].kind, i);
		CMP("counter %u size", a->counters[i].size, b->counters[i].size, i);
		CMP("counter %u direct", a->counters[i].direct_table, b->counters[i].direct_table, i);
	}
	CMP("nregisters%s", a->nregisters, b->nregisters, "");
	for (i = 0; i < a->nregisters; i++) {
		CMP("register %u width", a->registers[i].width, b->registers[i].width, i);
		CMP("register %u size", a->registers[i].size, b->registers[i].size, i);
	}
	CMP("nmeters%s", a->nmeters, b->nmeters, "");
	for (i = 0; i < a->nmeters; i++) {
		CMP("meter %u kind", a->meters[i].kind, b->meters[i].kind, i);
		CMP("meter %u size", a->meters[i].size, b->meters[i].size, i);
		CMP("meter %u direct", a->meters[i].direct_table, b->meters[i].direct_table, i);
	}
	CMP("nfield_lists%s", a->nfield_lists, b->nfield_lists, "");
	for (i = 0; i < a->nfield_lists; i++) {
		CMP("field list %u n", a->field_lists[i].nfields, b->field_lists[i].nfields, i);
		for (j = 0; j < a->field_lists[i].nfields; j++)
			if (cmp_field("field list field", j, a->field_lists[i].fields[j],
				      b->field_lists[i].fields[j]))
				return 1;
	}
	CMP("nhash_units%s", a->nhash_units, b->nhash_units, "");
	for (i = 0; i < a->nhash_units; i++) {
		const struct pisa_hash_unit *x = &a->hash_units[i], *y = &b->hash_units[i];

		CMP("hash %u algo", x->algo, y->algo, i);
		CMP("hash %u field_list", x->field_list, y->field_list, i);
		CMP("hash %u crc_width", x->crc_width, y->crc_width, i);
		CMP("hash %u reflect_in", x->reflect_in, y->reflect_in, i);
		CMP("hash %u reflect_out", x->reflect_out, y->reflect_out, i);
		CMP("hash %u poly", x->poly, y->poly, i);
		CMP("hash %u init", x->init, y->init, i);
		CMP("hash %u xor_out", x->xor_out, y->xor_out, i);
	}
	CMP("ndigests%s", a->ndigests, b->ndigests, "");
	for (i = 0; i < a->ndigests; i++)
		CMP("digest %u", a->digests[i].field_list, b->digests[i].field_list, i);
	CMP("nchecksums%s", a->nchecksums, b->nchecksums, "");
	for (i = 0; i < a->nchecksums; i++) {
		const struct pisa_checksum *x = &a->checksums[i], *y = &b->checksums[i];

		CMP("checksum %u kind", x->kind, y->kind, i);
		CMP("checksum %u with_payload", x->with_payload, y->with_payload, i);
		CMP("checksum %u algo", x->algo, y->algo, i);
		CMP("checksum %u field_list", x->field_list, y->field_list, i);
		if (cmp_opnd("checksum cond", i, &x->cond, &y->cond) ||
		    cmp_field("checksum dst", i, x->dst, y->dst))
			return 1;
	}
	return 0;
}

static int cmp_runtime(const struct pisa_image *a, const struct pisa_image *b)
{
	unsigned i, j;

	for (i = 0; i < a->ntables; i++) {
		const struct pisa_rt_table *x = &a->rt_tables[i], *y = &b->rt_tables[i];

		CMPSTR("rt table %u name", x->name, y->name, i);
		CMP("rt table %u id", x->p4info_id, y->p4info_id, i);
		CMP("rt table %u size", x->size, y->size, i);
		CMP("rt table %u const_entries", x->const_entries, y->const_entries, i);
		CMP("rt table %u const_default", x->const_default, y->const_default, i);
		CMP("rt table %u nkeys", x->nkeys, y->nkeys, i);
		for (j = 0; j < x->nkeys; j++) {
			CMPSTR("rt table %u key %u name", x->keys[j].name, y->keys[j].name, i, j);
			CMP("rt table %u key %u width", x->keys[j].width, y->keys[j].width, i, j);
			CMP("rt table %u key %u match", x->keys[j].match, y->keys[j].match, i, j);
		}
	}
	for (i = 0; i < a->nactions; i++) {
		const struct pisa_rt_action *x = &a->rt_actions[i], *y = &b->rt_actions[i];

		CMPSTR("rt action %u name", x->name, y->name, i);
		CMP("rt action %u id", x->p4info_id, y->p4info_id, i);
		CMP("rt action %u nparams", x->nparams, y->nparams, i);
		for (j = 0; j < x->nparams; j++) {
			CMPSTR("rt action %u param %u", x->params[j].name, y->params[j].name, i, j);
			CMP("rt action %u param %u width", x->params[j].width,
			    y->params[j].width, i, j);
			CMP("rt action %u param %u off", x->params[j].adata_off,
			    y->params[j].adata_off, i, j);
		}
	}
#define CMP_NAMED(what, arr, n) \
	for (i = 0; i < (n); i++) { \
		CMPSTR("rt " what " %u name", a->arr[i].name, b->arr[i].name, i); \
		CMP("rt " what " %u id", a->arr[i].p4info_id, b->arr[i].p4info_id, i); \
	}
	CMP_NAMED("counter", rt_counters, a->ncounters)
	CMP_NAMED("register", rt_registers, a->nregisters)
	CMP_NAMED("meter", rt_meters, a->nmeters)
	CMP_NAMED("digest", rt_digests, a->ndigests)
#undef CMP_NAMED
	for (i = 0; i < a->nheaders; i++)
		CMPSTR("rt header %u", a->rt_headers[i], b->rt_headers[i], i);
	CMP("nerrors%s", a->nerrors, b->nerrors, "");
	for (i = 0; i < a->nerrors; i++)
		CMPSTR("rt error %u", a->rt_errors[i], b->rt_errors[i], i);
	CMP("nprofiles%s", a->nprofiles, b->nprofiles, "");
	for (i = 0; i < a->nprofiles; i++) {
		const struct pisa_rt_profile *x = &a->rt_profiles[i], *y = &b->rt_profiles[i];
		size_t tbytes = x->ntables * sizeof(*x->tables);

		CMPSTR("profile %u name", x->name, y->name, i);
		CMP("profile %u id", x->p4info_id, y->p4info_id, i);
		CMP("profile %u with_selector", x->with_selector, y->with_selector, i);
		CMP("profile %u size", x->size, y->size, i);
		CMP("profile %u slots", x->slots, y->slots, i);
		CMP("profile %u max_group_size", x->max_group_size, y->max_group_size, i);
		CMP("profile %u member_table", x->member_table, y->member_table, i);
		CMP("profile %u ntables", x->ntables, y->ntables, i);
		CMPMEM("profile %u tables", x->tables, y->tables, tbytes, i);
	}
	return 0;
}

static int cmp_image(const struct pisa_image *a, const struct pisa_image *b)
{
	unsigned i;

	diff[0] = '\0';
	CMPSTR("board%s", a->board, b->board, "");
	CMPSTR("program%s", a->program, b->program, "");
	CMP("phv_bytes%s", a->phv_bytes, b->phv_bytes, "");
	CMP("cpu_port%s", a->cpu_port, b->cpu_port, "");
	CMP("nstages%s", a->nstages, b->nstages, "");
	if (cmp_parser(a, b) || cmp_pipeline(a, b) || cmp_externs(a, b))
		return 1;
	CMP("ndeparse%s", a->ndeparse, b->ndeparse, "");
	for (i = 0; i < a->ndeparse; i++)
		CMP("deparse %u", a->deparse[i], b->deparse[i], i);
	CMP("mcast_groups%s", a->mcast_groups, b->mcast_groups, "");
	CMP("mcast_nodes%s", a->mcast_nodes, b->mcast_nodes, "");
	CMP("clone_sessions%s", a->clone_sessions, b->clone_sessions, "");
	if (cmp_runtime(a, b))
		return 1;
	CMP("nconst_rows%s", a->nconst_rows, b->nconst_rows, "");
	for (i = 0; i < a->nconst_rows; i++) {
		CMP("const row %u table", a->const_rows[i].table, b->const_rows[i].table, i);
		CMP("const row %u index", a->const_rows[i].index, b->const_rows[i].index, i);
		CMP("const row %u len", a->const_rows[i].len, b->const_rows[i].len, i);
		CMPMEM("const row %u", a->const_rows[i].bytes, b->const_rows[i].bytes,
		       a->const_rows[i].len, i);
	}
	return 0;
}

/* ---- Byte surgery on encoded images (layout in docs/config-image.md) ---- */

#define HDR 20
#define ENT 16
#define NSEC 12			/* sections a 1.2 writer emits */

static const char *const sec_names[NSEC] = {
	"BOARD", "HEADERS", "PARSER", "TABLES", "ACTIONS",
	"EXTERNS", "DEPARSER", "TM", "RUNTIME", "CONST_ROWS", "HWCONF", "PROFILES",
};

static unsigned nsections(const uint8_t *b)
{
	return pisa_get_le16(b + 12);
}

static uint8_t *entry(uint8_t *b, unsigned i)
{
	return b + HDR + i * ENT;
}

/* Section offset and length by type (1..NSEC); the writer emits each once. */
static int section(const uint8_t *b, size_t len, unsigned type, size_t *off, size_t *slen)
{
	unsigned i;

	for (i = 0; i < nsections(b) && HDR + (i + 1) * ENT <= len; i++) {
		const uint8_t *e = b + HDR + i * ENT;

		if (pisa_get_le16(e) == type) {
			*off = pisa_get_le32(e + 4);
			*slen = pisa_get_le32(e + 8);
			return 0;
		}
	}
	return -1;
}

/* Recompute every CRC and the total length, so the decoders see the bytes. */
static void reseal(uint8_t *b, size_t len)
{
	unsigned i, n;
	uint32_t crc;

	if (len < HDR)
		return;
	pisa_put_le32(b + 8, (uint32_t)len);
	n = nsections(b);
	if (HDR + (size_t)n * ENT > len)
		return;
	for (i = 0; i < n; i++) {
		uint8_t *e = entry(b, i);
		uint32_t off = pisa_get_le32(e + 4), l = pisa_get_le32(e + 8);

		if (off <= len && l <= len - off)
			pisa_put_le32(e + 12, pisa_crc32(0, b + off, l));
	}
	crc = pisa_crc32(0, b, 16);
	crc = pisa_crc32(crc, b + HDR, (size_t)n * ENT);
	pisa_put_le32(b + 16, crc);
}

/* Copy with section `type` cut to l bytes (later sections move up), resealed. */
static uint8_t *shrink_section(const uint8_t *b, size_t len, unsigned type, size_t l,
			       size_t *nlen)
{
	size_t off, slen, cut;
	uint8_t *nb;
	unsigned i;

	if (section(b, len, type, &off, &slen) || l > slen)
		return NULL;
	cut = slen - l;
	nb = malloc(len);
	memcpy(nb, b, off + l);
	memcpy(nb + off + l, b + off + slen, len - off - slen);
	*nlen = len - cut;
	for (i = 0; i < nsections(b); i++) {
		uint8_t *e = entry(nb, i);

		if (pisa_get_le16(e) == type)
			pisa_put_le32(e + 8, (uint32_t)l);
		else if (pisa_get_le32(e + 4) > off)
			pisa_put_le32(e + 4, pisa_get_le32(e + 4) - (uint32_t)cut);
	}
	reseal(nb, *nlen);
	return nb;
}

static uint32_t rng_state = 12345;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* ---- Tests ---- */

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_roundtrip(const uint8_t *buf, size_t len, const struct pisa_image *ref)
{
	struct pisa_image *img = NULL;
	char detail[256];
	uint8_t *buf2;
	size_t len2;
	int ret;

	ret = pisa_image_read(buf, len, &img, detail, sizeof(detail));
	if (ret) {
		fail("roundtrip read", "%s: %s", pisa_strerror(ret), detail);
		return;
	}
	if (cmp_image(ref, img))
		fail("roundtrip compare", "%s", diff);
	else
		pass("roundtrip compare");
	ret = pisa_image_write(img, &buf2, &len2);
	if (ret || len2 != len || memcmp(buf, buf2, len))
		fail("roundtrip rewrite", "ret %d, %zu vs %zu bytes", ret, len2, len);
	else
		pass("roundtrip rewrite");
	if (!ret)
		free(buf2);
	pisa_image_free(img);
}

static void test_files(const struct pisa_image *ref)
{
	char path[] = "/tmp/test_image_XXXXXX";
	struct pisa_image *img = NULL;
	char detail[256];
	int fd, ret;

	fd = mkstemp(path);
	if (fd < 0) {
		fail("file roundtrip", "mkstemp failed");
		return;
	}
	close(fd);
	ret = pisa_image_write_file(ref, path);
	if (!ret)
		ret = pisa_image_read_file(path, &img, detail, sizeof(detail));
	if (ret)
		fail("file roundtrip", "%s: %s", pisa_strerror(ret), detail);
	else if (cmp_image(ref, img))
		fail("file roundtrip", "%s", diff);
	else
		pass("file roundtrip");
	pisa_image_free(img);
	unlink(path);

	img = NULL;
	ret = pisa_image_read_file("/nonexistent/dir/x.pisa", &img, detail, sizeof(detail));
	if (ret != -PISA_E_IO || img || !strstr(detail, "/nonexistent/dir/x.pisa"))
		fail("file missing", "ret %d, detail \"%s\"", ret, detail);
	else
		pass("file missing");
	ret = pisa_image_write_file(ref, "/nonexistent/dir/x.pisa");
	if (ret != -PISA_E_IO)
		fail("file write to a missing dir", "ret %d", ret);
	else
		pass("file write to a missing dir");
}

/* Every failure is clean: negative, no image, a detail naming a section. */
static int expect_fail(const uint8_t *b, size_t len, char *detail, size_t dlen)
{
	struct pisa_image *img = (struct pisa_image *)&img;	/* must become NULL */
	int ret = pisa_image_read(b, len, &img, detail, dlen);

	if (ret >= 0) {
		pisa_image_free(img);
		return 1;
	}
	if (img)
		return 2;
	if (!starts_with(detail, "section ") || !strstr(detail, ", byte "))
		return 3;
	return 0;
}

static void test_truncation(const uint8_t *buf, size_t len)
{
	char detail[256];
	size_t l, nlen, off, slen;
	unsigned t;
	int bad = 0;
	uint8_t *nb;

	for (l = 0; l < len && !bad; l++) {
		/* a copy of exactly l bytes, so ASan sees any read past it */
		uint8_t *cp = malloc(l ? l : 1);

		memcpy(cp, buf, l);
		if ((bad = expect_fail(cp, l, detail, sizeof(detail))))
			fail("truncate file", "length %zu: case %d, \"%s\"", l, bad, detail);
		free(cp);
	}
	if (!bad)
		pass("truncate file at every length");

	/* the same inside each section, CRCs fixed up: the decoders must notice */
	for (t = 1; t <= NSEC && !bad; t++) {
		char want[32];

		snprintf(want, sizeof(want), "section %s, byte ", sec_names[t - 1]);
		section(buf, len, t, &off, &slen);
		for (l = 0; l < slen && !bad; l++) {
			struct pisa_image *img = NULL;
			int ret;

			nb = shrink_section(buf, len, t, l, &nlen);
			ret = pisa_image_read(nb, nlen, &img, detail, sizeof(detail));
			if (ret != -PISA_E_FORMAT || img || !starts_with(detail, want)) {
				fail("truncate section", "%s to %zu bytes: ret %d, \"%s\"",
				     sec_names[t - 1], l, ret, detail);
				bad = 1;
			}
			pisa_image_free(img);
			free(nb);
		}
	}
	if (!bad)
		pass("truncate each section at every length (resealed)");
}

static void test_flips(const uint8_t *buf, size_t len)
{
	char detail[256];
	uint8_t *cp = malloc(len);
	size_t i;
	int bad = 0, k;

	memcpy(cp, buf, len);
	for (i = 0; i < len && !bad; i++) {
		cp[i] ^= 0xFF;
		if ((bad = expect_fail(cp, len, detail, sizeof(detail))))
			fail("flip every byte", "byte %zu: case %d, \"%s\"", i, bad, detail);
		cp[i] ^= 0xFF;
	}
	if (!bad)
		pass("flip every byte");
	rng_state = 12345;
	for (k = 0; k < 4000 && !bad; k++) {
		size_t bit = rnd() % (len * 8);

		cp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		if ((bad = expect_fail(cp, len, detail, sizeof(detail))))
			fail("random bit flips", "bit %zu: case %d, \"%s\"", bit, bad, detail);
		cp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	if (!bad)
		pass("4000 random bit flips");
	free(cp);
}

/*
 * Mutations behind valid CRCs: the reader must never crash or leak; when
 * it accepts the bytes, the image must pass the check and write again.
 */
static void test_resealed_fuzz(const uint8_t *buf, size_t len)
{
	char detail[256];
	uint8_t *cp = malloc(len);
	unsigned accepted = 0, rejected = 0;
	int k, j, bad = 0;

	rng_state = 777;
	for (k = 0; k < 6000 && !bad; k++) {
		struct pisa_image *img = NULL;
		int ret, nmut = 1 + rnd() % 3;

		memcpy(cp, buf, len);
		for (j = 0; j < nmut; j++) {
			size_t at = HDR + NSEC * ENT + rnd() % (len - HDR - NSEC * ENT);

			switch (rnd() % 4) {
			case 0: cp[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
			case 1: cp[at] = (uint8_t)rnd(); break;
			case 2: cp[at] = 0xFF; break;
			default: cp[at] = 0; break;
			}
		}
		reseal(cp, len);
		ret = pisa_image_read(cp, len, &img, detail, sizeof(detail));
		if (ret == 0) {
			uint8_t *out;
			size_t olen;

			accepted++;
			/* the encoding is canonical: what is accepted writes back the same */
			if (pisa_image_check(img, detail, sizeof(detail)) ||
			    pisa_image_write(img, &out, &olen)) {
				fail("resealed fuzz", "accepted image fails check: %s", detail);
				bad = 1;
			} else {
				if (olen != len || memcmp(out, cp, len)) {
					fail("resealed fuzz", "accepted image writes back differently");
					bad = 1;
				}
				free(out);
			}
			pisa_image_free(img);
		} else {
			rejected++;
			if (img || !starts_with(detail, "section ")) {
				fail("resealed fuzz", "ret %d, detail \"%s\"", ret, detail);
				bad = 1;
			}
		}
	}
	free(cp);
	if (!bad) {
		printf("PASS 6000 resealed random mutations (%u accepted and written back "
		       "identically, %u rejected)\n", accepted, rejected);
	}
}

/* A needle built from enum values (one at a time: a static buffer). */
static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static const char *fmt(const char *f, ...)
{
	static char buf[2][160];
	static int which;
	va_list ap;

	which ^= 1;
	va_start(ap, f);
	vsnprintf(buf[which], sizeof(buf[which]), f, ap);
	va_end(ap);
	return buf[which];
}

static void expect_code(const char *name, const uint8_t *b, size_t len, int code,
			const char *needle)
{
	struct pisa_image *img = NULL;
	char detail[256];
	int ret = pisa_image_read(b, len, &img, detail, sizeof(detail));

	if (ret != -code || img || !strstr(detail, needle))
		fail(name, "ret %d (%s), want %d, detail \"%s\", want \"%s\"", ret,
		     pisa_strerror(ret), -code, detail, needle);
	else
		pass(name);
	if (ret == 0)
		pisa_image_free(img);
}

static void test_header_errors(const uint8_t *buf, size_t len)
{
	uint8_t *cp = malloc(len);
	size_t off, slen;
	unsigned i;

	memcpy(cp, buf, len);
	cp[0] = 'X';
	reseal(cp, len);
	expect_code("wrong magic", cp, len, PISA_E_FORMAT, "section HEADER, byte 0: magic");

	memcpy(cp, buf, len);
	pisa_put_le16(cp + 4, PISA_IMAGE_VERSION_MAJOR + 1);
	reseal(cp, len);
	expect_code("wrong major version", cp, len, PISA_E_VERSION, "section HEADER, byte 4:");

	memcpy(cp, buf, len);
	section(cp, len, 4, &off, &slen);
	cp[off + slen / 2] ^= 0x10;
	expect_code("bad section CRC", cp, len, PISA_E_CRC, "section TABLES, byte ");

	memcpy(cp, buf, len);
	cp[HDR + 3 * ENT + 5] ^= 0x01;	/* a section offset */
	expect_code("bad header CRC", cp, len, PISA_E_CRC, "section HEADER, byte 16:");

	memcpy(cp, buf, len);
	pisa_put_le16(cp + HDR + 2 * ENT, 99);	/* an unknown type in a 1.0 image */
	reseal(cp, len);
	expect_code("unknown section, same minor", cp, len, PISA_E_FORMAT, "unknown section type 99");

	memcpy(cp, buf, len);
	pisa_put_le16(cp + HDR + 8 * ENT, 3);	/* RUNTIME claims to be PARSER */
	reseal(cp, len);
	expect_code("duplicate section", cp, len, PISA_E_FORMAT, "section PARSER, byte 148: appears twice");

	memcpy(cp, buf, len);
	pisa_put_le32(cp + 8, (uint32_t)len + 1);
	expect_code("total length", cp, len, PISA_E_FORMAT, "section HEADER, byte 8: total length");
	free(cp);

	/* a byte after the last section, lengths and CRCs fixed: not covered, refused */
	cp = calloc(1, len + 1);
	memcpy(cp, buf, len);
	reseal(cp, len + 1);
	expect_code("bytes after the last section", cp, len + 1, PISA_E_FORMAT,
		    fmt("section HEADER, byte %zu: 1 bytes after the last section", len));
	/* a gap between two sections */
	memmove(cp + HDR + NSEC * ENT + 1, cp + HDR + NSEC * ENT, len - HDR - NSEC * ENT);
	for (i = 0; i < NSEC; i++)
		pisa_put_le32(entry(cp, i) + 4, pisa_get_le32(entry(cp, i) + 4) + 1);
	reseal(cp, len + 1);
	expect_code("gap before the first section", cp, len + 1, PISA_E_FORMAT,
		    fmt("section BOARD, byte 24: table entry 0: bytes %d+", HDR + NSEC * ENT + 1));
	free(cp);
}

/*
 * A newer minor version: an extra section of unknown type is skipped, and
 * bytes appended to a known section are ignored. The same with our minor
 * version is refused.
 */
static void test_minor_version(const uint8_t *buf, size_t len, const struct pisa_image *ref)
{
	size_t tbl = HDR + NSEC * ENT, nlen = len + ENT + 8 + 3, off, slen, i;
	uint8_t *nb = calloc(1, nlen);
	struct pisa_image *img = NULL;
	char detail[256];
	int ret;

	/* header, one more entry, old sections moved by one entry, 8 new bytes */
	memcpy(nb, buf, tbl);
	memcpy(nb + tbl + ENT, buf + tbl, len - tbl);
	for (i = 0; i < NSEC; i++) {
		uint8_t *e = entry(nb, (unsigned)i);

		pisa_put_le32(e + 4, pisa_get_le32(e + 4) + ENT);
	}
	pisa_put_le16(entry(nb, NSEC), 200);
	pisa_put_le32(entry(nb, NSEC) + 4, (uint32_t)(len + ENT));
	pisa_put_le32(entry(nb, NSEC) + 8, 8);
	memcpy(nb + len + ENT, "FUTURE!!", 8);
	pisa_put_le16(nb + 12, NSEC + 1);
	/* 3 bytes appended to CONST_ROWS (the last required section); the sections after
	 * it (HWCONF, PROFILES, the new one) move up */
	section(nb, nlen, 10, &off, &slen);
	memmove(nb + off + slen + 3, nb + off + slen, nlen - 3 - off - slen);
	memset(nb + off + slen, 0xEE, 3);
	pisa_put_le32(entry(nb, 9) + 8, (uint32_t)slen + 3);
	for (i = 10; i < NSEC; i++)
		pisa_put_le32(entry(nb, (unsigned)i) + 4, pisa_get_le32(entry(nb, (unsigned)i) + 4) + 3);
	pisa_put_le32(entry(nb, NSEC) + 4, (uint32_t)(len + ENT + 3));

	pisa_put_le16(nb + 6, PISA_IMAGE_VERSION_MINOR + 1);
	reseal(nb, nlen);
	ret = pisa_image_read(nb, nlen, &img, detail, sizeof(detail));
	if (ret || cmp_image(ref, img))
		fail("newer minor: unknown section skipped", "ret %d: %s %s", ret, detail, diff);
	else
		pass("newer minor: unknown section skipped");
	pisa_image_free(img);

	pisa_put_le16(nb + 6, PISA_IMAGE_VERSION_MINOR);
	reseal(nb, nlen);
	expect_code("same minor: unknown section refused", nb, nlen, PISA_E_FORMAT,
		    "unknown section type 200");
	free(nb);
}

/* Check failures found by the reader point at the record's byte. */
static void test_reader_check_offsets(const uint8_t *buf, size_t len)
{
	uint8_t *cp = malloc(len);
	char want[96];
	size_t off, slen;

	/* TABLES: ingress_start, egress_start, ntables, then table 0 */
	memcpy(cp, buf, len);
	section(cp, len, 4, &off, &slen);
	pisa_put_le16(cp + off + 6 + 14, 0);	/* table 0 next_hit = itself */
	reseal(cp, len);
	snprintf(want, sizeof(want), "section TABLES, byte %zu: table 0 next_hit 0", off + 6);
	expect_code("reader: backward next pointer", cp, len, PISA_E_RANGE, want);

	/* table 0 key 0 width (record: 28 fixed bytes, nkeys, key bitoff, width) */
	memcpy(cp, buf, len);
	pisa_put_le16(cp + off + 6 + 32, 0);
	reseal(cp, len);
	snprintf(want, sizeof(want), "section TABLES, byte %zu: table 0 key 0 width 0 (1..64)",
		 off + 6);
	expect_code("reader: key width 0", cp, len, PISA_E_RANGE, want);

	/* ACTIONS: count, action 0 = adata_bits, ninsns, insn 0 op */
	memcpy(cp, buf, len);
	section(cp, len, 5, &off, &slen);
	cp[off + 2 + 4] = PISA_EXTRACT;
	reseal(cp, len);
	snprintf(want, sizeof(want), "section ACTIONS, byte %zu: action 0 insn 0", off + 2);
	expect_code("reader: parser op in an action", cp, len, PISA_E_RANGE, want);

	/* RUNTIME: a NUL inside table 0's name */
	memcpy(cp, buf, len);
	section(cp, len, 9, &off, &slen);
	cp[off + 2 + 2 + 3] = 0;
	reseal(cp, len);
	snprintf(want, sizeof(want), "section RUNTIME, byte %zu: table 0 name contains a NUL",
		 off + 2);
	expect_code("reader: NUL in a name", cp, len, PISA_E_FORMAT, want);

	/* a huge count is refused before allocating */
	memcpy(cp, buf, len);
	section(cp, len, 10, &off, &slen);
	pisa_put_le32(cp + off, 0xFFFFFFFFu);
	reseal(cp, len);
	snprintf(want, sizeof(want), "section CONST_ROWS, byte %zu: 4294967295 const rows need",
		 off);
	expect_code("reader: huge count", cp, len, PISA_E_FORMAT, want);
	free(cp);
}

/* Breaks one thing in a fresh image and expects pisa_image_check to say so. */
static void expect_check(const char *name, void (*breakit)(struct pisa_image *),
			 int code, const char *needle)
{
	struct pisa_image *img = build_image();
	char detail[256];
	uint8_t *out = NULL;
	size_t olen;
	int ret, wret;

	breakit(img);
	ret = pisa_image_check(img, detail, sizeof(detail));
	wret = pisa_image_write(img, &out, &olen);
	if (ret != -code || !strstr(detail, needle))
		fail(name, "ret %d, want %d, detail \"%s\", want \"%s\"", ret, -code, detail,
		     needle);
	else if (wret != ret || out)
		fail(name, "the writer returned %d for it", wret);
	else
		pass(name);
	free(out);
	pisa_image_free(img);
}

static void brk_backward(struct pisa_image *img) { img->tables[1].next_hit = 0; }
static void brk_self(struct pisa_image *img) { img->tables[1].actions[0].next = 1; }
static void brk_gress(struct pisa_image *img) { img->tables[0].next_miss = 3; }
static void brk_phv(struct pisa_image *img) { img->tables[1].keys[0].field.bitoff = PHV_BYTES * 8 - 8; }
static void brk_width(struct pisa_image *img) { img->field_lists[2].fields[0].width = 65; }
static void brk_parser_op(struct pisa_image *img) { img->actions[3].insns[5].op = PISA_EXTRACT_STACK; }
static void brk_stage_op(struct pisa_image *img) { img->states[1].ops[1].op = PISA_DROP; }
static void brk_opcode(struct pisa_image *img) { img->actions[0].insns[0].op = PISA_OPCODE_COUNT; }
static void brk_sorted(struct pisa_image *img) { img->tables[1].stage = 0; img->tables[0].stage = 1; }
static void brk_hash_rows(struct pisa_image *img) { img->tables[0].rows = 31; }
static void brk_hash_ways(struct pisa_image *img) { img->tables[0].ways = 5; img->tables[0].rows = 5 << 4; }
static void brk_hash_ternary(struct pisa_image *img) { img->tables[0].keys[0].match = PISA_MATCH_LPM; }
static void brk_key_bits(struct pisa_image *img) { img->tables[1].key_bits = 57; }
static void brk_keyless(struct pisa_image *img)
{
	img->tables[2].nkeys = 1;
	img->tables[2].key_bits = 16;
	img->tables[2].keys = dup_mem(img->tables[0].keys, sizeof(struct pisa_key_field));
}
static void brk_default(struct pisa_image *img) { img->tables[0].default_action = 4; }
static void brk_no_actions(struct pisa_image *img) { img->tables[3].nactions = 0; }
static void brk_const_len(struct pisa_image *img) { img->const_rows[0].len = 22; }
static void brk_const_index(struct pisa_image *img) { img->const_rows[1].index = 17; }
static void brk_const_action(struct pisa_image *img) { img->const_rows[0].bytes[2] = 1; }
static void brk_start(struct pisa_image *img) { img->egress_start = 0; }
static void brk_header_phv(struct pisa_image *img) { img->headers[1].phv_byte = PHV_BYTES - 10; }
static void brk_header_fixed(struct pisa_image *img) { img->headers[0].phv_byte = 60; }
static void brk_state_next(struct pisa_image *img) { img->states[0].rows[0].next = 2; }
static void brk_ext_id(struct pisa_image *img) { img->actions[3].insns[0].imm = 1; }
static void brk_adata(struct pisa_image *img) { img->actions[0].insns[0].a.off = 8; }
static void brk_skip(struct pisa_image *img) { img->actions[3].insns[2].imm = 14; }
static void brk_direct(struct pisa_image *img) { img->counters[0].direct_table = 1; }
static void brk_direct2(struct pisa_image *img) { img->counters[1].direct_table = 2; }
static void brk_rt_name(struct pisa_image *img) { free(img->rt_actions[2].name); img->rt_actions[2].name = NULL; }
static void brk_rt_missing(struct pisa_image *img)
{
	unsigned i;

	for (i = 0; i < img->nmeters; i++)
		free(img->rt_meters[i].name);
	free(img->rt_meters);
	img->rt_meters = NULL;
}
static void brk_null_array(struct pisa_image *img) { free(img->digests); img->digests = NULL; }
static void brk_copyhdr(struct pisa_image *img) { img->actions[3].insns[12].a.value = 1; }
static void brk_hash_poly(struct pisa_image *img) { img->hash_units[1].crc_width = 16; }
static void brk_board(struct pisa_image *img) { memset(img->board, 'x', sizeof(img->board)); }
static void brk_prof_member(struct pisa_image *img) { img->rt_profiles[0].member_table = 1; }
static void brk_prof_size(struct pisa_image *img) { img->rt_profiles[0].size = 65536; }
static void brk_prof_action(struct pisa_image *img) { img->rt_profiles[0].tables[0].member_action = 0; }
static void brk_prof_group(struct pisa_image *img) { img->rt_profiles[0].tables[0].group_action = 2; }

static void test_check(void)
{
	expect_check("check: backward next pointer", brk_backward, PISA_E_RANGE,
		     "section TABLES: table 1 next_hit 0 is not a later table");
	expect_check("check: action next to itself", brk_self, PISA_E_RANGE,
		     "table 1 action next 1 is not a later table");
	expect_check("check: next into the other gress", brk_gress, PISA_E_RANGE,
		     "table 0 next_miss 3 is in the other gress");
	expect_check("check: field outside the PHV", brk_phv, PISA_E_RANGE,
		     "table 1 key 0 bits 1016..1047 outside the PHV (1024 bits)");
	expect_check("check: field width 65", brk_width, PISA_E_RANGE,
		     "section EXTERNS: field list 2 field 0 width 65 (1..64)");
	expect_check("check: parser-only opcode in an action", brk_parser_op, PISA_E_RANGE,
		     fmt("section ACTIONS: action 3 insn 5 opcode %d is for parser states only",
		         PISA_EXTRACT_STACK));
	expect_check("check: stage opcode in a parser state", brk_stage_op, PISA_E_RANGE,
		     fmt("section PARSER: state 1 insn 1 opcode %d is not allowed in parser states",
		         PISA_DROP));
	expect_check("check: unknown opcode", brk_opcode, PISA_E_RANGE, fmt("action 0 insn 0 opcode %d (0..%d)", PISA_OPCODE_COUNT, PISA_OPCODE_COUNT - 1));
	expect_check("check: tables not sorted", brk_sorted, PISA_E_RANGE, "table 1 (gress 0, stage 0) is not sorted");
	expect_check("check: hash rows", brk_hash_rows, PISA_E_RANGE, "table 0 rows 31, not ways 2 << way_bits 4");
	expect_check("check: hash ways", brk_hash_ways, PISA_E_RANGE, "table 0 ways 5 (1..4)");
	expect_check("check: hash with lpm key", brk_hash_ternary, PISA_E_RANGE, "table 0 is HASH: needs keys, all exact");
	expect_check("check: key_bits", brk_key_bits, PISA_E_RANGE, "table 1 key_bits 57 but its keys add up to 56");
	expect_check("check: keyless with a key", brk_keyless, PISA_E_RANGE, "table 2 is keyless but has 1 keys");
	expect_check("check: default action", brk_default, PISA_E_RANGE, "table 0 default action 4 is not one of its actions");
	expect_check("check: no actions", brk_no_actions, PISA_E_RANGE, "table 3 has no actions");
	expect_check("check: const row length", brk_const_len, PISA_E_RANGE, "section CONST_ROWS: row 0 is 22 bytes, table 1 rows are 23");
	expect_check("check: const row index", brk_const_index, PISA_E_RANGE, "row 1 index 17 (table 1: 0..16, 16 = default)");
	expect_check("check: const row action", brk_const_action, PISA_E_RANGE, "row 0 action 1 is not allowed in table 1 as an entry");
	expect_check("check: egress_start", brk_start, PISA_E_RANGE, "egress_start 0 is not a table of egress");
	expect_check("check: header outside the PHV", brk_header_phv, PISA_E_RANGE, "header 1 bytes 118..137 outside");
	expect_check("check: header in the fixed area", brk_header_fixed, PISA_E_RANGE, "header 0 bytes 60..73 outside");
	expect_check("check: parser next state", brk_state_next, PISA_E_RANGE, "state 0 row 0 next 2 (image has 2 states)");
	expect_check("check: extern id", brk_ext_id, PISA_E_RANGE, "action 3 insn 0 register 1 (image has 1)");
	expect_check("check: action data", brk_adata, PISA_E_RANGE, "action 0 insn 0 a action data bits 8..16 past the action's 16");
	expect_check("check: skip past the end", brk_skip, PISA_E_RANGE, "action 3 insn 2 skips 14 of the 13");
	expect_check("check: direct counter", brk_direct, PISA_E_RANGE, "table 0 direct counter 0 is not a counter of this table");
	expect_check("check: direct counter back pointer", brk_direct2, PISA_E_RANGE, "counter 1 direct table 2 does not point back");
	expect_check("check: runtime name missing", brk_rt_name, PISA_E_INVAL, "section RUNTIME: action 2 has no name");
	expect_check("check: runtime array missing", brk_rt_missing, PISA_E_INVAL, "2 meters but no runtime names");
	expect_check("check: NULL array", brk_null_array, PISA_E_INVAL, "section EXTERNS: 1 digests but no array");
	expect_check("check: copy header lengths", brk_copyhdr, PISA_E_RANGE, "copies header 1 (20 bytes) onto header 3 (4 bytes)");
	expect_check("check: crc16 custom poly", brk_hash_poly, PISA_E_RANGE, "hash unit 1 poly/init/xor_out wider than 16 bits");
	expect_check("check: board name", brk_board, PISA_E_RANGE, "section BOARD: board name not terminated");
	expect_check("check: profile member table", brk_prof_member, PISA_E_RANGE,
		     "section PROFILES: profile 0: member table 1 is not exact on one key");
	expect_check("check: profile size", brk_prof_size, PISA_E_RANGE,
		     "profile 0: 65536 members and 0 slots do not leave the all-ones index of a 16-bit key free");
	expect_check("check: profile member action", brk_prof_action, PISA_E_RANGE,
		     "profile 0: action 0 is not one of table 1's");
	expect_check("check: profile group action", brk_prof_group, PISA_E_RANGE,
		     "profile 0: a group action without a selector");
}

static void test_corpus(void)
{
	DIR *d = opendir(CORPUS_DIR);
	struct dirent *de;
	unsigned n = 0;
	int bad = 0;

	if (!d) {
		fail("corpus", "cannot open %s (run from the repository root)", CORPUS_DIR);
		return;
	}
	while ((de = readdir(d))) {
		struct pisa_image *img = NULL;
		char path[512], detail[256];
		size_t len = strlen(de->d_name);
		int ret;

		if (len < 6 || strcmp(de->d_name + len - 5, ".pisa"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, de->d_name);
		ret = pisa_image_read_file(path, &img, detail, sizeof(detail));
		n++;
		if (ret >= 0 || img || !starts_with(detail, "section ")) {
			fail("corpus", "%s: ret %d, detail \"%s\"", de->d_name, ret, detail);
			pisa_image_free(img);
			bad = 1;
		}
	}
	closedir(d);
	if (!n)
		fail("corpus", "no .pisa files in %s", CORPUS_DIR);
	else if (!bad)
		printf("PASS corpus: %u images rejected cleanly\n", n);
}

/* Everything empty: no headers, no states, no tables, no names. */
static void test_minimal(void)
{
	struct pisa_image *img = calloc(1, sizeof(*img)), *back = NULL;
	char detail[256];
	uint8_t *buf;
	size_t len;
	int ret;

	strcpy(img->board, "icebreaker");
	img->phv_bytes = PISA_PHV_FIXED_BYTES;
	img->parser_start = PISA_PARSER_ACCEPT;
	img->ingress_start = PISA_NEXT_END;
	img->egress_start = PISA_NEXT_END;
	ret = pisa_image_write(img, &buf, &len);
	if (ret) {
		fail("minimal image", "write: %s", pisa_strerror(ret));
	} else {
		ret = pisa_image_read(buf, len, &back, detail, sizeof(detail));
		if (ret)
			fail("minimal image", "read: %s", detail);
		else if (cmp_image(img, back))
			fail("minimal image", "%s", diff);
		else
			pass("minimal image roundtrip");
		free(buf);
	}
	pisa_image_free(back);
	pisa_image_free(img);
}

static void test_misc(void)
{
	struct pisa_image *img = (struct pisa_image *)&img;
	char detail[64];
	int ret;

	ret = pisa_image_read(NULL, 0, &img, detail, sizeof(detail));
	if (ret != -PISA_E_FORMAT || img)
		fail("read NULL", "ret %d", ret);
	else
		pass("read NULL");
	ret = pisa_image_read((const uint8_t *)"PISA", 4, &img, NULL, 0);
	if (ret != -PISA_E_FORMAT)
		fail("read without detail buffer", "ret %d", ret);
	else
		pass("read without detail buffer");
	pisa_image_free(NULL);
	if (pisa_image_check(NULL, detail, sizeof(detail)) != -PISA_E_INVAL)
		fail("check NULL", "no error");
	else
		pass("check NULL");
	if (strcmp(pisa_strerror(-PISA_E_CRC), "CRC mismatch") ||
	    strcmp(pisa_strerror(PISA_E_CRC), "CRC mismatch") ||
	    strcmp(pisa_strerror(-999), "unknown error") || strcmp(pisa_strerror(0), "success"))
		fail("strerror", "unexpected strings");
	else
		pass("strerror");
}

/* Writes the regression corpus (run by hand: test_image --write-corpus). */
static int write_corpus(const uint8_t *buf, size_t len);

int main(int argc, char **argv)
{
	struct pisa_image *ref = build_image();
	char detail[256];
	uint8_t *buf;
	size_t len;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines survive a sanitizer abort */
	ret = pisa_image_check(ref, detail, sizeof(detail));
	if (ret) {
		fail("reference image check", "%s", detail);
		return 1;
	}
	pass("reference image check");
	ret = pisa_image_write(ref, &buf, &len);
	if (ret) {
		fail("write", "%s", pisa_strerror(ret));
		return 1;
	}
	pass("write");
	if (argc > 1 && !strcmp(argv[1], "--write-corpus")) {
		ret = write_corpus(buf, len);
		free(buf);
		pisa_image_free(ref);
		return ret;
	}

	test_roundtrip(buf, len, ref);
	test_files(ref);
	test_truncation(buf, len);
	test_flips(buf, len);
	test_resealed_fuzz(buf, len);
	test_header_errors(buf, len);
	test_minor_version(buf, len, ref);
	test_reader_check_offsets(buf, len);
	test_check();
	test_corpus();
	test_minimal();
	test_misc();

	free(buf);
	pisa_image_free(ref);
	return failures ? 1 : 0;
}

/* ---- Corpus generation ---- */

static int save(const char *name, const uint8_t *b, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.pisa", CORPUS_DIR, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b, 1, len, f) != len) {
		fprintf(stderr, "cannot write %s\n", path);
		if (f)
			fclose(f);
		return 1;
	}
	return fclose(f) != 0;
}

/* Section type `type`'s offset in a copy of buf, for patching. */
static uint8_t *patched(const uint8_t *buf, size_t len, unsigned type, size_t *off)
{
	uint8_t *cp = dup_mem(buf, len);
	size_t slen;

	section(cp, len, type, off, &slen);
	return cp;
}

static int write_corpus(const uint8_t *buf, size_t len)
{
	size_t off, slen, nlen;
	uint8_t *cp;
	int err = 0;

	/* Broke the reader (LSan): error names freed by a count set too late. */
	section(buf, len, 9, &off, &slen);
	cp = shrink_section(buf, len, 9, slen - 3, &nlen);
	err |= save("leak-rt-error-name-cut", cp, nlen);
	free(cp);

	/* Hostile inputs kept as regressions for the checks that stop them. */
	cp = patched(buf, len, 10, &off);
	pisa_put_le32(cp + off, 0xFFFFFFFFu);	/* 4G const rows */
	reseal(cp, len);
	err |= save("huge-const-row-count", cp, len);
	free(cp);

	cp = dup_mem(buf, len);
	pisa_put_le32(entry(cp, 4) + 4, pisa_get_le32(entry(cp, 4) + 4) - 4);
	reseal(cp, len);	/* ACTIONS starts inside TABLES */
	err |= save("sections-overlap", cp, len);
	free(cp);

	cp = dup_mem(buf, len);
	pisa_put_le32(entry(cp, 9) + 8, 0xFFFFFFF0u);	/* CONST_ROWS length wraps */
	reseal(cp, len);
	err |= save("section-length-wraps", cp, len);
	free(cp);

	cp = patched(buf, len, 1, &off);
	pisa_put_le16(cp + off, 0xFFFF);	/* board name 65535 bytes */
	reseal(cp, len);
	err |= save("board-name-too-long", cp, len);
	free(cp);

	cp = patched(buf, len, 3, &off);
	/* state 0: nops, one insn, then nkey = 200 */
	cp[off + 4 + 2 + 43] = 200;
	reseal(cp, len);
	err |= save("parser-nkey-200", cp, len);
	free(cp);

	cp = patched(buf, len, 4, &off);
	pisa_put_le16(cp + off + 6 + 14, 0);	/* table 0 next_hit = itself */
	reseal(cp, len);
	err |= save("table-next-self", cp, len);
	free(cp);

	cp = patched(buf, len, 6, &off);
	pisa_put_le16(cp + off + 2 + 5, 0x7FFF);	/* counter 0 direct_table */
	reseal(cp, len);
	err |= save("counter-direct-table-7fff", cp, len);
	free(cp);

	cp = dup_mem(buf, len);
	pisa_put_le16(cp + 12, 0xFFFF);	/* 65535 sections */
	reseal(cp, len);
	err |= save("section-count-65535", cp, len);
	free(cp);
	return err;
}
