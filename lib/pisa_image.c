/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_image.c: the config image's byte encoding (docs/config-image.md),
 * its reader and writer, and the consistency check of an image in memory
 * (docs/architecture.md).
 *
 * The reader trusts nothing: every read goes through a bounds-checked
 * cursor (pisa_bytes.h), every count is checked against the bytes left
 * before anything is allocated, and the decoded image is checked as a whole
 * before it is returned. Errors say "section NAME, byte OFFSET: why".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_bytes.h"
#include "pisa_image.h"
#include "pisa_file.h"
#include "pisa_hwconf.h"
#include "pisa_switch.h"

/* ---- Layout constants (docs/config-image.md) ---- */
#define HDR_BYTES 20		/* file header */
#define SEC_ENT_BYTES 16	/* one section table entry */
#define MAX_NAME 1024		/* longest runtime name, bytes, without NUL */
#define MAX_ROWS (1u << 24)	/* table rows, extern cells */
#define MAX_WAY_BITS 24
#define MAX_PHV_BYTES 8192	/* bit offsets are 16 bits */
#define MAX_FILE (256u << 20)	/* pisa_image_read_file refuses bigger files */

/* Section types are the index + 1. The first SEC_REQUIRED are in every image;
 * HWCONF (1.1) and PROFILES (1.2) are written by every writer of their version
 * and optional to a reader. */
enum sec_id {
	SEC_BOARD, SEC_HEADERS, SEC_PARSER, SEC_TABLES, SEC_ACTIONS,
	SEC_EXTERNS, SEC_DEPARSER, SEC_TM, SEC_RUNTIME, SEC_CONST_ROWS,
	SEC_REQUIRED,
	SEC_HWCONF = SEC_REQUIRED,
	SEC_PROFILES,
	SEC_COUNT,
	SEC_FILE_HEADER = -1,	/* for errors in the header and section table */
};

static const char *const sec_names[SEC_COUNT] = {
	"BOARD", "HEADERS", "PARSER", "TABLES", "ACTIONS",
	"EXTERNS", "DEPARSER", "TM", "RUNTIME", "CONST_ROWS", "HWCONF", "PROFILES",
};

static const char *sec_name(int sec)
{
	return sec >= 0 && sec < SEC_COUNT ? sec_names[sec] : "HEADER";
}

/* Encoded sizes, for "is there room for n of these" before allocating. */
#define OPND_BYTES 13
#define INSN_BYTES (4 + 3 * OPND_BYTES)
#define FIELD_BYTES 4
#define MIN_STATE 5
#define PROW_BYTES 20
#define MIN_TABLE 34
#define KEY_BYTES 5
#define TACT_BYTES 5
#define MIN_ACTION 4
#define COUNTER_BYTES 7
#define REGISTER_BYTES 6
#define METER_BYTES 7
#define MIN_FLIST 2
#define HASH_BYTES 18
#define CSUM_BYTES (3 + OPND_BYTES + 2 + FIELD_BYTES)
#define MIN_RT_TABLE 14
#define MIN_RT_KEY 5
#define MIN_RT_ACTION 8
#define MIN_RT_PARAM 6
#define MIN_RT_NAMED 6
#define MIN_STR 2
#define MIN_CONST_ROW 8
#define MIN_PROFILE 23
#define PROF_TABLE_BYTES 6

/*
 * Where each record started in the file, so that the consistency check can
 * point at the bytes when it runs on a decoded image.
 */
enum loc_kind {
	LK_HEADER, LK_STACK, LK_STATE, LK_TABLE, LK_ACTION, LK_COUNTER,
	LK_REGISTER, LK_METER, LK_FLIST, LK_HASH, LK_DIGEST, LK_CSUM,
	LK_RT_TABLE, LK_RT_ACTION, LK_CONST_ROW, LK_PROFILE,
	LK_COUNT,
	LK_NONE = -1,
};

struct locator {
	size_t sec_off[SEC_COUNT];
	uint32_t *elem[LK_COUNT];
	uint32_t nelem[LK_COUNT];
};

static void loc_free(struct locator *loc)
{
	int k;

	for (k = 0; k < LK_COUNT; k++)
		free(loc->elem[k]);
}

static void loc_set(struct locator *loc, int kind, uint32_t i, size_t off)
{
	if (loc->elem[kind] && i < loc->nelem[kind])
		loc->elem[kind][i] = (uint32_t)off;
}

/* ---- Errors ---- */
const char *pisa_strerror(int err)
{
	static const char *const msg[] = {
		[PISA_OK] = "success",
		[PISA_E_NOMEM] = "out of memory",
		[PISA_E_IO] = "input/output error",
		[PISA_E_FORMAT] = "malformed image",
		[PISA_E_VERSION] = "unsupported image version",
		[PISA_E_CRC] = "CRC mismatch",
		[PISA_E_RANGE] = "value out of range",
		[PISA_E_NOTFOUND] = "not found",
		[PISA_E_FULL] = "no space left",
		[PISA_E_EXISTS] = "already exists",
		[PISA_E_INVAL] = "invalid argument",
	};

	if (err < 0)
		err = -err;
	if (err >= (int)(sizeof(msg) / sizeof(msg[0])) || !msg[err])
		return "unknown error";
	return msg[err];
}

/* ---- Freeing (works on partly decoded images too) ---- */
static void free_strs(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_named(struct pisa_rt_named *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static void free_runtime(struct pisa_image *img)
{
	unsigned i, j;

	if (img->rt_tables) {
		for (i = 0; i < img->ntables; i++) {
			struct pisa_rt_table *t = &img->rt_tables[i];

			free(t->name);
			if (t->keys)
				for (j = 0; j < t->nkeys; j++)
					free(t->keys[j].name);
			free(t->keys);
		}
		free(img->rt_tables);
	}
	if (img->rt_actions) {
		for (i = 0; i < img->nactions; i++) {
			struct pisa_rt_action *a = &img->rt_actions[i];

			free(a->name);
			if (a->params)
				for (j = 0; j < a->nparams; j++)
					free(a->params[j].name);
			free(a->params);
		}
		free(img->rt_actions);
	}
	free_named(img->rt_counters, img->ncounters);
	free_named(img->rt_registers, img->nregisters);
	free_named(img->rt_meters, img->nmeters);
	free_named(img->rt_digests, img->ndigests);
	free_strs(img->rt_headers, img->nheaders);
	free_strs(img->rt_errors, img->nerrors);
	if (img->rt_profiles) {
		for (i = 0; i < img->nprofiles; i++) {
			free(img->rt_profiles[i].name);
			free(img->rt_profiles[i].tables);
		}
		free(img->rt_profiles);
	}
}

void pisa_image_free(struct pisa_image *img)
{
	unsigned i;

	if (!img)
		return;
	free_runtime(img);
	free(img->headers);
	free(img->stacks);
	if (img->states) {
		for (i = 0; i < img->nstates; i++) {
			free(img->states[i].ops);
			free(img->states[i].rows);
		}
		free(img->states);
	}
	if (img->tables) {
		for (i = 0; i < img->ntables; i++) {
			free(img->tables[i].keys);
			free(img->tables[i].actions);
			free(img->tables[i].default_adata);
		}
		free(img->tables);
	}
	if (img->actions) {
		for (i = 0; i < img->nactions; i++)
			free(img->actions[i].insns);
		free(img->actions);
	}
	free(img->counters);
	free(img->registers);
	free(img->meters);
	if (img->field_lists) {
		for (i = 0; i < img->nfield_lists; i++)
			free(img->field_lists[i].fields);
		free(img->field_lists);
	}
	free(img->hash_units);
	free(img->digests);
	free(img->checksums);
	free(img->deparse);
	if (img->const_rows) {
		for (i = 0; i < img->nconst_rows; i++)
			free(img->const_rows[i].bytes);
		free(img->const_rows);
	}
	free(img);
}

/* ======================================================================
 * Consistency check: one helper per structure. Each helper first says
 * where it is (section, record kind, index) so that bad() can point at the
 * record's bytes when the image came from a file.
 * ====================================================================== */

struct chk {
	const struct pisa_image *img;
	char *detail;
	size_t dlen;
	const struct locator *loc;	/* NULL when not decoded from bytes */
	int sec, kind;
	uint32_t idx;
};

static void at(struct chk *c, int sec, int kind, uint32_t idx)
{
	c->sec = sec;
	c->kind = kind;
	c->idx = idx;
}

static int bad(struct chk *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct chk *c, int err, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	size_t off;

	if (!c->detail || !c->dlen)
		return -err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->loc) {
		off = c->loc->sec_off[c->sec];
		if (c->kind != LK_NONE && c->idx < c->loc->nelem[c->kind] &&
		    c->loc->elem[c->kind])
			off = c->loc->elem[c->kind][c->idx];
		snprintf(c->detail, c->dlen, "section %s, byte %zu: %s",
			 sec_name(c->sec), off, msg);
	} else {
		snprintf(c->detail, c->dlen, "section %s: %s", sec_name(c->sec), msg);
	}
	return -err;
}

#define RANGE PISA_E_RANGE

static uint32_t phv_bits(const struct chk *c)
{
	return (uint32_t)c->img->phv_bytes * 8;
}

static int chk_name(struct chk *c, const char *what, const char *s)
{
	if (!s)
		return bad(c, PISA_E_INVAL, "%s has no name", what);
	if (strnlen(s, MAX_NAME + 1) > MAX_NAME)
		return bad(c, RANGE, "%s name longer than %d bytes", what, MAX_NAME);
	return 0;
}

static int chk_field(struct chk *c, const char *what, struct pisa_field f)
{
	if (f.width < 1 || f.width > 64)
		return bad(c, RANGE, "%s width %u (1..64)", what, f.width);
	if ((uint32_t)f.bitoff + f.width > phv_bits(c))
		return bad(c, RANGE, "%s bits %u..%u outside the PHV (%u bits)", what,
			   f.bitoff, f.bitoff + f.width - 1, phv_bits(c));
	return 0;
}

static int chk_fields(struct chk *c, const char *what, const struct pisa_field *f,
		      unsigned n)
{
	char w[96];
	unsigned i;
	int ret;

	if (n && !f)
		return bad(c, PISA_E_INVAL, "%s: %u fields but no array", what, n);
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s field %u", what, i);
		ret = chk_field(c, w, f[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Where instructions run: parser states, or actions (incl. gateways). */
enum code_place { IN_PARSER, IN_ACTION };

static int chk_operand(struct chk *c, const char *what, const struct pisa_operand *o,
		       enum code_place place, unsigned adata_bits)
{
	if (o->kind == PISA_OPND_NONE)
		return 0;
	if (o->kind > PISA_OPND_PKT)
		return bad(c, RANGE, "%s kind %u (0..4)", what, o->kind);
	if (o->width < 1 || o->width > 64)
		return bad(c, RANGE, "%s width %u (1..64)", what, o->width);
	switch (o->kind) {
	case PISA_OPND_PHV:
		return chk_field(c, what, (struct pisa_field){ o->off, o->width });
	case PISA_OPND_ADATA:
		if (place != IN_ACTION)
			return bad(c, RANGE, "%s reads action data outside an action", what);
		if ((uint32_t)o->off + o->width > adata_bits)
			return bad(c, RANGE, "%s action data bits %u..%u past the action's %u",
				   what, o->off, o->off + o->width - 1, adata_bits);
		return 0;
	case PISA_OPND_PKT:
		if (place != IN_PARSER)
			return bad(c, RANGE, "%s reads packet bits outside the parser", what);
		return 0;
	default:
		return 0;
	}
}

/* What each opcode needs: operands that must be present, what imm names. */
enum {
	OP_D = 0x01,		/* writes dst: must be a PHV operand */
	OP_A = 0x02,		/* reads a: must be present */
	OP_B = 0x04,		/* reads b: must be present */
	OP_PARSER = 0x08,	/* parser states only */
};

enum imm_kind {
	IMM_NONE, IMM_HEADER, IMM_STACK, IMM_COUNTER, IMM_REGISTER, IMM_METER,
	IMM_HASH, IMM_DIGEST, IMM_CLONE, IMM_SKIP,
};

struct op_rule {
	uint8_t flags;
	uint8_t imm;
};

#define ALU2 { OP_D | OP_A | OP_B, IMM_NONE }

static const struct op_rule op_rules[PISA_OPCODE_COUNT] = {
	[PISA_NOP] = { 0, IMM_NONE },
	[PISA_SET] = { OP_D | OP_A, IMM_NONE },
	[PISA_ADD] = ALU2, [PISA_SUB] = ALU2, [PISA_ADDC] = ALU2, [PISA_SUBC] = ALU2,
	[PISA_ADDSAT] = ALU2, [PISA_SUBSAT] = ALU2, [PISA_MUL] = ALU2,
	[PISA_AND] = ALU2, [PISA_OR] = ALU2, [PISA_XOR] = ALU2,
	[PISA_NOT] = { OP_D | OP_A, IMM_NONE },
	[PISA_SHL] = ALU2, [PISA_SHR] = ALU2,
	[PISA_EQ] = ALU2, [PISA_NE] = ALU2, [PISA_LT] = ALU2, [PISA_LE] = ALU2,
	[PISA_GT] = ALU2, [PISA_GE] = ALU2, [PISA_MIN] = ALU2, [PISA_MAX] = ALU2,
	[PISA_JZ] = { OP_A, IMM_SKIP },
	[PISA_JNZ] = { OP_A, IMM_SKIP },
	[PISA_SETVALID] = { 0, IMM_HEADER },
	[PISA_SETINVALID] = { 0, IMM_HEADER },
	[PISA_COPYHDR] = { OP_A, IMM_HEADER },
	[PISA_EXIT] = { 0, IMM_NONE },
	[PISA_COUNT] = { 0, IMM_COUNTER },
	[PISA_REG_READ] = { OP_D, IMM_REGISTER },
	[PISA_REG_WRITE] = { OP_B, IMM_REGISTER },
	[PISA_METER] = { OP_D, IMM_METER },
	[PISA_DMETER] = { OP_D, IMM_METER },
	[PISA_HASH] = { OP_D, IMM_HASH },
	[PISA_RANDOM] = { OP_D | OP_A | OP_B, IMM_NONE },
	[PISA_CLONE] = { OP_A, IMM_CLONE },
	[PISA_RESUBMIT] = { OP_A, IMM_NONE },
	[PISA_RECIRCULATE] = { OP_A, IMM_NONE },
	[PISA_TRUNCATE] = { OP_A, IMM_NONE },
	[PISA_DIGEST] = { 0, IMM_DIGEST },
	[PISA_DROP] = { 0, IMM_NONE },
	[PISA_EXTRACT] = { OP_PARSER, IMM_HEADER },
	[PISA_EXTRACT_STACK] = { OP_PARSER, IMM_STACK },
	[PISA_EXTRACT_VAR] = { OP_PARSER | OP_A, IMM_HEADER },
	[PISA_ADVANCE] = { OP_PARSER | OP_A, IMM_NONE },
};

static int chk_imm(struct chk *c, const char *what, const struct pisa_insn *in,
		   unsigned i, unsigned n)
{
	const struct pisa_image *img = c->img;
	unsigned limit;
	const char *name;

	switch (op_rules[in->op].imm) {
	case IMM_HEADER: limit = img->nheaders; name = "header"; break;
	case IMM_STACK: limit = img->nstacks; name = "stack"; break;
	case IMM_COUNTER: limit = img->ncounters; name = "counter"; break;
	case IMM_REGISTER: limit = img->nregisters; name = "register"; break;
	case IMM_METER: limit = img->nmeters; name = "meter"; break;
	case IMM_HASH: limit = img->nhash_units; name = "hash unit"; break;
	case IMM_DIGEST: limit = img->ndigests; name = "digest"; break;
	case IMM_CLONE:
		if (in->imm != PISA_CLONE_I2E && in->imm != PISA_CLONE_E2E)
			return bad(c, RANGE, "%s clone type %u (1 I2E, 2 E2E)", what, in->imm);
		return 0;
	case IMM_SKIP:
		/* forward only, and not past the end of the list */
		if ((unsigned long)i + 1 + in->imm > n)
			return bad(c, RANGE, "%s skips %u of the %u instructions left",
				   what, in->imm, n - i - 1);
		return 0;
	default:
		return 0;
	}
	if (in->imm >= limit)
		return bad(c, RANGE, "%s %s %u (image has %u)", what, name, in->imm, limit);
	return 0;
}

/* A CONST operand holding a field list id + 1 (0 = none). */
static int chk_flist_ref(struct chk *c, const char *what, const struct pisa_operand *o)
{
	if (o->kind == PISA_OPND_NONE)
		return 0;
	if (o->kind != PISA_OPND_CONST)
		return bad(c, RANGE, "%s field list must be a constant", what);
	if (o->value > c->img->nfield_lists)
		return bad(c, RANGE, "%s field list %llu (image has %u, numbered from 1)",
			   what, (unsigned long long)o->value, c->img->nfield_lists);
	return 0;
}

static int chk_insn(struct chk *c, const char *where, const struct pisa_insn *v,
		    unsigned i, unsigned n, enum code_place place, unsigned adata_bits)
{
	const struct pisa_image *img = c->img;
	const struct pisa_insn *in = &v[i];
	const struct op_rule *r;
	char w[96], wo[112];
	int ret;

	snprintf(w, sizeof(w), "%s insn %u", where, i);
	if (in->op >= PISA_OPCODE_COUNT)
		return bad(c, RANGE, "%s opcode %u (0..%d)", w, in->op, PISA_OPCODE_COUNT - 1);
	r = &op_rules[in->op];
	if ((r->flags & OP_PARSER) && place != IN_PARSER)
		return bad(c, RANGE, "%s opcode %u is for parser states only", w, in->op);
	/* parser states run the ALU opcodes, skips, validity and their own ops */
	if (place == IN_PARSER && in->op > PISA_SETINVALID && !(r->flags & OP_PARSER))
		return bad(c, RANGE, "%s opcode %u is not allowed in parser states", w, in->op);
	if (in->flags & ~PISA_INSN_SIGNED)
		return bad(c, RANGE, "%s flags 0x%02x (only 0x01 signed)", w, in->flags);

	snprintf(wo, sizeof(wo), "%s dst", w);
	if ((ret = chk_operand(c, wo, &in->dst, place, adata_bits)))
		return ret;
	if ((r->flags & OP_D) && in->dst.kind != PISA_OPND_PHV)
		return bad(c, RANGE, "%s must be a PHV field", wo);
	snprintf(wo, sizeof(wo), "%s a", w);
	if ((ret = chk_operand(c, wo, &in->a, place, adata_bits)))
		return ret;
	if ((r->flags & OP_A) && in->a.kind == PISA_OPND_NONE)
		return bad(c, RANGE, "%s missing", wo);
	snprintf(wo, sizeof(wo), "%s b", w);
	if ((ret = chk_operand(c, wo, &in->b, place, adata_bits)))
		return ret;
	if ((r->flags & OP_B) && in->b.kind == PISA_OPND_NONE)
		return bad(c, RANGE, "%s missing", wo);
	if ((ret = chk_imm(c, w, in, i, n)))
		return ret;

	switch (in->op) {
	case PISA_COPYHDR:
		if (in->a.kind != PISA_OPND_CONST || in->a.value >= img->nheaders)
			return bad(c, RANGE, "%s source header must be a constant below %u",
				   w, img->nheaders);
		if (img->headers[in->a.value].bytes != img->headers[in->imm].bytes)
			return bad(c, RANGE, "%s copies header %llu (%u bytes) onto header %u (%u bytes)",
				   w, (unsigned long long)in->a.value,
				   img->headers[in->a.value].bytes, in->imm,
				   img->headers[in->imm].bytes);
		return 0;
	case PISA_CLONE:
		snprintf(wo, sizeof(wo), "%s b", w);
		return chk_flist_ref(c, wo, &in->b);
	case PISA_RESUBMIT:
	case PISA_RECIRCULATE:
		snprintf(wo, sizeof(wo), "%s a", w);
		return chk_flist_ref(c, wo, &in->a);
	default:
		return 0;
	}
}

static int chk_code(struct chk *c, const char *where, const struct pisa_insn *v,
		    unsigned n, enum code_place place, unsigned adata_bits)
{
	unsigned i;
	int ret;

	if (n && !v)
		return bad(c, PISA_E_INVAL, "%s: %u instructions but no array", where, n);
	for (i = 0; i < n; i++)
		if ((ret = chk_insn(c, where, v, i, n, place, adata_bits)))
			return ret;
	return 0;
}

#define CHK_ARRAY(c, n, p, what) \
	do { \
		if ((n) && !(p)) \
			return bad((c), PISA_E_INVAL, "%u %s but no array", (unsigned)(n), (what)); \
	} while (0)

/* Every top-level array that has a count, before anything follows an id. */
static int chk_arrays(struct chk *c)
{
	const struct pisa_image *img = c->img;

	at(c, SEC_HEADERS, LK_NONE, 0);
	CHK_ARRAY(c, img->nheaders, img->headers, "headers");
	CHK_ARRAY(c, img->nstacks, img->stacks, "stacks");
	at(c, SEC_PARSER, LK_NONE, 0);
	CHK_ARRAY(c, img->nstates, img->states, "states");
	at(c, SEC_TABLES, LK_NONE, 0);
	CHK_ARRAY(c, img->ntables, img->tables, "tables");
	at(c, SEC_ACTIONS, LK_NONE, 0);
	CHK_ARRAY(c, img->nactions, img->actions, "actions");
	at(c, SEC_EXTERNS, LK_NONE, 0);
	CHK_ARRAY(c, img->ncounters, img->counters, "counters");
	CHK_ARRAY(c, img->nregisters, img->registers, "registers");
	CHK_ARRAY(c, img->nmeters, img->meters, "meters");
	CHK_ARRAY(c, img->nfield_lists, img->field_lists, "field lists");
	CHK_ARRAY(c, img->nhash_units, img->hash_units, "hash units");
	CHK_ARRAY(c, img->ndigests, img->digests, "digests");
	CHK_ARRAY(c, img->nchecksums, img->checksums, "checksums");
	at(c, SEC_DEPARSER, LK_NONE, 0);
	CHK_ARRAY(c, img->ndeparse, img->deparse, "deparser entries");
	at(c, SEC_CONST_ROWS, LK_NONE, 0);
	CHK_ARRAY(c, img->nconst_rows, img->const_rows, "const rows");
	return 0;
}

static int chk_board(struct chk *c)
{
	const struct pisa_image *img = c->img;
	uint32_t need = PISA_PHV_FIXED_BYTES + (img->nheaders + 7u) / 8;

	at(c, SEC_BOARD, LK_NONE, 0);
	if (!memchr(img->board, 0, sizeof(img->board)))
		return bad(c, RANGE, "board name not terminated (max %zu bytes)",
			   sizeof(img->board) - 1);
	if (!memchr(img->program, 0, sizeof(img->program)))
		return bad(c, RANGE, "program name not terminated (max %zu bytes)",
			   sizeof(img->program) - 1);
	if (img->phv_bytes < need || img->phv_bytes > MAX_PHV_BYTES)
		return bad(c, RANGE, "phv_bytes %u (%u..%d: fixed part and %u validity bits)",
			   img->phv_bytes, need, MAX_PHV_BYTES, img->nheaders);
	if (img->cpu_port >= PISA_PORT_DROP)
		return bad(c, RANGE, "cpu_port %u (0..%d)", img->cpu_port, PISA_PORT_DROP - 1);
	return 0;
}

static int chk_header(struct chk *c, unsigned h)
{
	const struct pisa_image *img = c->img;
	const struct pisa_header *hd = &img->headers[h];
	/* header bytes live after the fixed part and the validity bits */
	unsigned first = PISA_PHV_FIXED_BYTES + (img->nheaders + 7u) / 8;

	at(c, SEC_HEADERS, LK_HEADER, h);
	if (hd->bytes < 1)
		return bad(c, RANGE, "header %u has 0 bytes", h);
	if (hd->fixed_bytes > hd->bytes)
		return bad(c, RANGE, "header %u fixed_bytes %u > bytes %u", h,
			   hd->fixed_bytes, hd->bytes);
	if (hd->phv_byte < first || (uint32_t)hd->phv_byte + hd->bytes > img->phv_bytes)
		return bad(c, RANGE, "header %u bytes %u..%u outside the PHV's header area %u..%u",
			   h, hd->phv_byte, hd->phv_byte + hd->bytes - 1, first,
			   img->phv_bytes - 1);
	return 0;
}

static int chk_stack(struct chk *c, unsigned s)
{
	const struct pisa_image *img = c->img;
	const struct pisa_stack *st = &img->stacks[s];
	unsigned j;

	at(c, SEC_HEADERS, LK_STACK, s);
	if (st->size < 1 || (uint32_t)st->first_header + st->size > img->nheaders)
		return bad(c, RANGE, "stack %u headers %u..+%u (image has %u headers)",
			   s, st->first_header, st->size, img->nheaders);
	for (j = 1; j < st->size; j++)
		if (img->headers[st->first_header + j].bytes !=
		    img->headers[st->first_header].bytes)
			return bad(c, RANGE, "stack %u element %u differs in length", s, j);
	return 0;
}

static int chk_state(struct chk *c, unsigned s)
{
	const struct pisa_image *img = c->img;
	const struct pisa_parser_state *st = &img->states[s];
	char w[64], wk[80];
	unsigned j, bits = 0;
	int ret;

	at(c, SEC_PARSER, LK_STATE, s);
	snprintf(w, sizeof(w), "state %u", s);
	if ((ret = chk_code(c, w, st->ops, st->nops, IN_PARSER, 0)))
		return ret;
	if (st->nkey > PISA_PARSER_MAX_KEY)
		return bad(c, RANGE, "state %u has %u key operands (0..%d)", s, st->nkey,
			   PISA_PARSER_MAX_KEY);
	for (j = 0; j < st->nkey; j++) {
		const struct pisa_operand *k = &st->key[j];

		snprintf(wk, sizeof(wk), "state %u key %u", s, j);
		if (k->kind != PISA_OPND_PHV && k->kind != PISA_OPND_PKT)
			return bad(c, RANGE, "%s kind %u (PHV or PKT)", wk, k->kind);
		if ((ret = chk_operand(c, wk, k, IN_PARSER, 0)))
			return ret;
		bits += k->width;
	}
	if (bits > 64)
		return bad(c, RANGE, "state %u key is %u bits (max 64)", s, bits);
	if (st->nrows && !st->rows)
		return bad(c, PISA_E_INVAL, "state %u: %u rows but no array", s, st->nrows);
	for (j = 0; j < st->nrows; j++) {
		const struct pisa_parser_row *r = &st->rows[j];

		if (r->next >= img->nstates && r->next != PISA_PARSER_ACCEPT &&
		    r->next != PISA_PARSER_REJECT)
			return bad(c, RANGE, "state %u row %u next %u (image has %u states)",
				   s, j, r->next, img->nstates);
		if (r->next == PISA_PARSER_REJECT && img->nerrors && r->error >= img->nerrors)
			return bad(c, RANGE, "state %u row %u error %u (image has %u errors)",
				   s, j, r->error, img->nerrors);
	}
	return 0;
}

static int chk_parser(struct chk *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;
	int ret;

	for (i = 0; i < img->nheaders; i++)
		if ((ret = chk_header(c, i)))
			return ret;
	for (i = 0; i < img->nstacks; i++)
		if ((ret = chk_stack(c, i)))
			return ret;

	at(c, SEC_PARSER, LK_NONE, 0);
	if (img->parser_start >= img->nstates && img->parser_start != PISA_PARSER_ACCEPT &&
	    img->parser_start != PISA_PARSER_REJECT)
		return bad(c, RANGE, "parser_start %u (image has %u states)",
			   img->parser_start, img->nstates);
	for (i = 0; i < img->nstates; i++)
		if ((ret = chk_state(c, i)))
			return ret;
	return 0;
}

static int chk_action(struct chk *c, unsigned a)
{
	const struct pisa_action *ac = &c->img->actions[a];
	char w[32];

	at(c, SEC_ACTIONS, LK_ACTION, a);
	snprintf(w, sizeof(w), "action %u", a);
	return chk_code(c, w, ac->insns, ac->ninsns, IN_ACTION, ac->adata_bits);
}

/* A next pointer: the end, or a later table of the same gress. */
static int chk_next(struct chk *c, unsigned t, const char *what, uint16_t next)
{
	const struct pisa_image *img = c->img;

	if (next == PISA_NEXT_END)
		return 0;
	if (next <= t || next >= img->ntables)
		return bad(c, RANGE, "table %u %s %u is not a later table (%u..%u or %u end)",
			   t, what, next, t + 1, img->ntables - 1, PISA_NEXT_END);
	if (img->tables[next].gress != img->tables[t].gress)
		return bad(c, RANGE, "table %u %s %u is in the other gress", t, what, next);
	return 0;
}

static int chk_table_keys(struct chk *c, unsigned t)
{
	const struct pisa_table *tb = &c->img->tables[t];
	char w[48];
	unsigned j, bits = 0, exact = 0;
	int ret;

	if (tb->nkeys && !tb->keys)
		return bad(c, PISA_E_INVAL, "table %u: %u keys but no array", t, tb->nkeys);
	for (j = 0; j < tb->nkeys; j++) {
		snprintf(w, sizeof(w), "table %u key %u", t, j);
		if ((ret = chk_field(c, w, tb->keys[j].field)))
			return ret;
		if (tb->keys[j].match > PISA_MATCH_OPTIONAL)
			return bad(c, RANGE, "%s match kind %u (0..4)", w, tb->keys[j].match);
		bits += tb->keys[j].field.width;
		exact += tb->keys[j].match == PISA_MATCH_EXACT;
	}
	if (bits != tb->key_bits)
		return bad(c, RANGE, "table %u key_bits %u but its keys add up to %u",
			   t, tb->key_bits, bits);
	switch (tb->mem) {
	case PISA_MEM_NONE:
		if (tb->nkeys || tb->rows)
			return bad(c, RANGE, "table %u is keyless but has %u keys, %u rows",
				   t, tb->nkeys, tb->rows);
		return 0;
	case PISA_MEM_HASH:
		if (!tb->nkeys || exact != tb->nkeys)
			return bad(c, RANGE, "table %u is HASH: needs keys, all exact", t);
		if (tb->ways < 1 || tb->ways > PISA_HASH_MAX_WAYS || tb->way_bits > MAX_WAY_BITS)
			return bad(c, RANGE, "table %u ways %u (1..%d), way_bits %u (0..%d)", t,
				   tb->ways, PISA_HASH_MAX_WAYS, tb->way_bits, MAX_WAY_BITS);
		if (tb->rows != (uint32_t)tb->ways << tb->way_bits)
			return bad(c, RANGE, "table %u rows %u, not ways %u << way_bits %u",
				   t, tb->rows, tb->ways, tb->way_bits);
		return 0;
	case PISA_MEM_TCAM:
		/* exact-only keys are allowed here too (small tables) */
		if (!tb->nkeys)
			return bad(c, RANGE, "table %u is TCAM without keys", t);
		if (tb->rows > MAX_ROWS)
			return bad(c, RANGE, "table %u rows %u (max %u)", t, tb->rows, MAX_ROWS);
		return 0;
	default:
		return bad(c, RANGE, "table %u memory kind %u (0..2)", t, tb->mem);
	}
}

static int chk_table_actions(struct chk *c, unsigned t)
{
	const struct pisa_image *img = c->img;
	const struct pisa_table *tb = &img->tables[t];
	unsigned j, dflt = 0;
	int ret;

	if (!tb->nactions || !tb->actions)
		return bad(c, RANGE, "table %u has no actions", t);
	for (j = 0; j < tb->nactions; j++) {
		const struct pisa_table_action *ta = &tb->actions[j];

		if (ta->action >= img->nactions)
			return bad(c, RANGE, "table %u action %u id %u (image has %u)", t, j,
				   ta->action, img->nactions);
		if (ta->flags & ~(PISA_TA_DEFAULT_ONLY | PISA_TA_TABLE_ONLY))
			return bad(c, RANGE, "table %u action %u flags 0x%02x", t, j, ta->flags);
		if (img->actions[ta->action].adata_bits > tb->adata_bits)
			return bad(c, RANGE, "table %u action %u needs %u action data bits, rows have %u",
				   t, j, img->actions[ta->action].adata_bits, tb->adata_bits);
		if (ta->action == tb->default_action && !(ta->flags & PISA_TA_TABLE_ONLY))
			dflt = 1;
		if ((ret = chk_next(c, t, "action next", ta->next)))
			return ret;
	}
	if (!dflt)
		return bad(c, RANGE, "table %u default action %u is not one of its actions",
			   t, tb->default_action);
	if (tb->default_adata_len > pisa_row_adata_bytes(tb))
		return bad(c, RANGE, "table %u default action data %u bytes (max %zu)", t,
			   tb->default_adata_len, pisa_row_adata_bytes(tb));
	if (tb->default_adata_len && !tb->default_adata)
		return bad(c, PISA_E_INVAL, "table %u: default action data missing", t);
	return 0;
}

static int chk_table(struct chk *c, unsigned t)
{
	const struct pisa_image *img = c->img;
	const struct pisa_table *tb = &img->tables[t];
	int ret;

	at(c, SEC_TABLES, LK_TABLE, t);
	if (tb->gress > 1)
		return bad(c, RANGE, "table %u gress %u (0 ingress, 1 egress)", t, tb->gress);
	if (tb->stage >= img->nstages)
		return bad(c, RANGE, "table %u stage %u (image uses %u stages)", t, tb->stage,
			   img->nstages);
	if (t > 0 && (tb->gress < tb[-1].gress ||
		      (tb->gress == tb[-1].gress && tb->stage < tb[-1].stage)))
		return bad(c, RANGE, "table %u (gress %u, stage %u) is not sorted after table %u",
			   t, tb->gress, tb->stage, t - 1);
	if (tb->next_mode > PISA_NEXT_COND)
		return bad(c, RANGE, "table %u next mode %u (0..2)", t, tb->next_mode);
	if ((ret = chk_table_keys(c, t)) || (ret = chk_table_actions(c, t)))
		return ret;
	if ((ret = chk_next(c, t, "next_hit", tb->next_hit)) ||
	    (ret = chk_next(c, t, "next_miss", tb->next_miss)))
		return ret;
	if (tb->next_mode == PISA_NEXT_COND) {
		char w[32];

		snprintf(w, sizeof(w), "table %u cond", t);
		if ((ret = chk_field(c, w, tb->cond)))
			return ret;
	}
	if (tb->direct_counter >= 0 &&
	    (tb->direct_counter >= img->ncounters ||
	     img->counters[tb->direct_counter].direct_table != (int)t))
		return bad(c, RANGE, "table %u direct counter %d is not a counter of this table",
			   t, tb->direct_counter);
	if (tb->direct_meter >= 0 &&
	    (tb->direct_meter >= img->nmeters ||
	     img->meters[tb->direct_meter].direct_table != (int)t))
		return bad(c, RANGE, "table %u direct meter %d is not a meter of this table",
			   t, tb->direct_meter);
	if (tb->direct_counter < -1 || tb->direct_meter < -1)
		return bad(c, RANGE, "table %u direct counter/meter below -1", t);
	return 0;
}

static int chk_start(struct chk *c, const char *what, uint16_t start, unsigned gress)
{
	const struct pisa_image *img = c->img;

	if (start == PISA_NEXT_END)
		return 0;
	if (start >= img->ntables || img->tables[start].gress != gress)
		return bad(c, RANGE, "%s %u is not a table of %s", what, start,
			   gress ? "egress" : "ingress");
	return 0;
}

static int chk_tables(struct chk *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;
	int ret;

	for (i = 0; i < img->nactions; i++)
		if ((ret = chk_action(c, i)))
			return ret;

	at(c, SEC_TABLES, LK_NONE, 0);
	if ((ret = chk_start(c, "ingress_start", img->ingress_start, 0)) ||
	    (ret = chk_start(c, "egress_start", img->egress_start, 1)))
		return ret;
	for (i = 0; i < img->ntables; i++)
		if ((ret = chk_table(c, i)))
			return ret;
	return 0;
}

/* Direct counters and meters: the table must point back, cells = its rows. */
static int chk_direct(struct chk *c, const char *what, unsigned id, int16_t table,
		      uint32_t size, int back)
{
	const struct pisa_image *img = c->img;

	if (table < 0) {
		if (table != -1)
			return bad(c, RANGE, "%s %u direct table %d", what, id, table);
		if (size < 1 || size > MAX_ROWS)
			return bad(c, RANGE, "%s %u size %u (1..%u)", what, id, size, MAX_ROWS);
		return 0;
	}
	if (table >= img->ntables || back != (int)id)
		return bad(c, RANGE, "%s %u direct table %d does not point back at it",
			   what, id, table);
	if (size != img->tables[table].rows)
		return bad(c, RANGE, "%s %u has %u cells, its table %d has %u rows", what, id,
			   size, table, img->tables[table].rows);
	return 0;
}

static int chk_counter(struct chk *c, unsigned i)
{
	const struct pisa_image *img = c->img;
	const struct pisa_counter *k = &img->counters[i];
	int back = -1;

	at(c, SEC_EXTERNS, LK_COUNTER, i);
	if (k->kind > PISA_COUNTER_BOTH)
		return bad(c, RANGE, "counter %u kind %u (0..2)", i, k->kind);
	if (k->direct_table >= 0 && k->direct_table < img->ntables)
		back = img->tables[k->direct_table].direct_counter;
	return chk_direct(c, "counter", i, k->direct_table, k->size, back);
}

static int chk_meter(struct chk *c, unsigned i)
{
	const struct pisa_image *img = c->img;
	const struct pisa_meter *m = &img->meters[i];
	int back = -1;

	at(c, SEC_EXTERNS, LK_METER, i);
	if (m->kind > PISA_METER_BYTES)
		return bad(c, RANGE, "meter %u kind %u (0..1)", i, m->kind);
	if (m->direct_table >= 0 && m->direct_table < img->ntables)
		back = img->tables[m->direct_table].direct_meter;
	return chk_direct(c, "meter", i, m->direct_table, m->size, back);
}

static int chk_register(struct chk *c, unsigned i)
{
	const struct pisa_register *r = &c->img->registers[i];

	at(c, SEC_EXTERNS, LK_REGISTER, i);
	if (r->width < 1 || r->width > 64)
		return bad(c, RANGE, "register %u width %u (1..64)", i, r->width);
	if (r->size < 1 || r->size > MAX_ROWS)
		return bad(c, RANGE, "register %u size %u (1..%u)", i, r->size, MAX_ROWS);
	return 0;
}

static int chk_flist_id(struct chk *c, const char *what, unsigned i, uint16_t fl)
{
	if (fl >= c->img->nfield_lists)
		return bad(c, RANGE, "%s %u field list %u (image has %u)", what, i, fl,
			   c->img->nfield_lists);
	return 0;
}

static int chk_hash_unit(struct chk *c, unsigned i)
{
	const struct pisa_hash_unit *u = &c->img->hash_units[i];
	uint32_t top;

	at(c, SEC_EXTERNS, LK_HASH, i);
	if (u->algo >= PISA_HASH_COUNT)
		return bad(c, RANGE, "hash unit %u algorithm %u (0..%d)", i, u->algo,
			   PISA_HASH_COUNT - 1);
	if (u->algo == PISA_HASH_CRC16_CUSTOM || u->algo == PISA_HASH_CRC32_CUSTOM) {
		if (u->crc_width != 16 && u->crc_width != 32)
			return bad(c, RANGE, "hash unit %u crc width %u (16 or 32)", i, u->crc_width);
		if (u->reflect_in > 1 || u->reflect_out > 1)
			return bad(c, RANGE, "hash unit %u reflect flags must be 0 or 1", i);
		top = u->crc_width == 16 ? 0xFFFFu : 0xFFFFFFFFu;
		if ((u->poly | u->init | u->xor_out) > top)
			return bad(c, RANGE, "hash unit %u poly/init/xor_out wider than %u bits",
				   i, u->crc_width);
	}
	return chk_flist_id(c, "hash unit", i, u->field_list);
}

static int chk_checksum(struct chk *c, unsigned i)
{
	const struct pisa_checksum *k = &c->img->checksums[i];
	char w[32];
	int ret;

	at(c, SEC_EXTERNS, LK_CSUM, i);
	if (k->kind > PISA_CSUM_UPDATE || k->with_payload > 1 || k->algo >= PISA_HASH_COUNT)
		return bad(c, RANGE, "checksum %u kind %u, with_payload %u, algorithm %u",
			   i, k->kind, k->with_payload, k->algo);
	snprintf(w, sizeof(w), "checksum %u cond", i);
	if (k->cond.kind != PISA_OPND_PHV && k->cond.kind != PISA_OPND_CONST)
		return bad(c, RANGE, "%s kind %u (PHV or CONST)", w, k->cond.kind);
	if ((ret = chk_operand(c, w, &k->cond, IN_ACTION, 0)))
		return ret;
	snprintf(w, sizeof(w), "checksum %u dst", i);
	if ((ret = chk_field(c, w, k->dst)))
		return ret;
	return chk_flist_id(c, "checksum", i, k->field_list);
}

static int chk_externs(struct chk *c)
{
	const struct pisa_image *img = c->img;
	char w[32];
	unsigned i;
	int ret;

	at(c, SEC_EXTERNS, LK_NONE, 0);
	for (i = 0; i < img->ncounters; i++)
		if ((ret = chk_counter(c, i)))
			return ret;
	for (i = 0; i < img->nregisters; i++)
		if ((ret = chk_register(c, i)))
			return ret;
	for (i = 0; i < img->nmeters; i++)
		if ((ret = chk_meter(c, i)))
			return ret;
	for (i = 0; i < img->nfield_lists; i++) {
		at(c, SEC_EXTERNS, LK_FLIST, i);
		snprintf(w, sizeof(w), "field list %u", i);
		if ((ret = chk_fields(c, w, img->field_lists[i].fields,
				      img->field_lists[i].nfields)))
			return ret;
	}
	for (i = 0; i < img->nhash_units; i++)
		if ((ret = chk_hash_unit(c, i)))
			return ret;
	for (i = 0; i < img->ndigests; i++) {
		at(c, SEC_EXTERNS, LK_DIGEST, i);
		if ((ret = chk_flist_id(c, "digest", i, img->digests[i].field_list)))
			return ret;
	}
	for (i = 0; i < img->nchecksums; i++)
		if ((ret = chk_checksum(c, i)))
			return ret;
	return 0;
}

static int chk_deparser(struct chk *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;

	at(c, SEC_DEPARSER, LK_NONE, 0);
	for (i = 0; i < img->ndeparse; i++)
		if (img->deparse[i] >= img->nheaders)
			return bad(c, RANGE, "entry %u header %u (image has %u)", i,
				   img->deparse[i], img->nheaders);
	return 0;
}

static int chk_rt_table(struct chk *c, unsigned i)
{
	const struct pisa_rt_table *t = &c->img->rt_tables[i];
	char w[48];
	unsigned j;
	int ret;

	at(c, SEC_RUNTIME, LK_RT_TABLE, i);
	snprintf(w, sizeof(w), "table %u", i);
	if ((ret = chk_name(c, w, t->name)))
		return ret;
	if (t->const_entries > 1 || t->const_default > 1)
		return bad(c, RANGE, "table %u const flags must be 0 or 1", i);
	if (t->nkeys && !t->keys)
		return bad(c, PISA_E_INVAL, "table %u: %u keys but no array", i, t->nkeys);
	for (j = 0; j < t->nkeys; j++) {
		snprintf(w, sizeof(w), "table %u key %u", i, j);
		if ((ret = chk_name(c, w, t->keys[j].name)))
			return ret;
		if (t->keys[j].width < 1 || t->keys[j].match > PISA_MATCH_OPTIONAL)
			return bad(c, RANGE, "%s width %u, match kind %u", w, t->keys[j].width,
				   t->keys[j].match);
	}
	return 0;
}

static int chk_rt_action(struct chk *c, unsigned i)
{
	const struct pisa_rt_action *a = &c->img->rt_actions[i];
	unsigned j, bits = c->img->actions[i].adata_bits;
	char w[48];
	int ret;

	at(c, SEC_RUNTIME, LK_RT_ACTION, i);
	snprintf(w, sizeof(w), "action %u", i);
	if ((ret = chk_name(c, w, a->name)))
		return ret;
	if (a->nparams && !a->params)
		return bad(c, PISA_E_INVAL, "action %u: %u params but no array", i, a->nparams);
	for (j = 0; j < a->nparams; j++) {
		const struct pisa_rt_param *p = &a->params[j];

		snprintf(w, sizeof(w), "action %u param %u", i, j);
		if ((ret = chk_name(c, w, p->name)))
			return ret;
		if (p->width < 1 || (uint32_t)p->adata_off + p->width > bits)
			return bad(c, RANGE, "%s bits %u+%u outside the action's %u data bits",
				   w, p->adata_off, p->width, bits);
	}
	return 0;
}

static int chk_rt_named(struct chk *c, const char *what, const struct pisa_rt_named *v,
			unsigned n)
{
	char w[48];
	unsigned i;
	int ret;

	if (n && !v)
		return bad(c, PISA_E_INVAL, "%u %ss but no runtime names", n, what);
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s %u", what, i);
		if ((ret = chk_name(c, w, v[i].name)))
			return ret;
	}
	return 0;
}

static int chk_rt_strs(struct chk *c, const char *what, char *const *v, unsigned n)
{
	char w[48];
	unsigned i;
	int ret;

	if (n && !v)
		return bad(c, PISA_E_INVAL, "%u %ss but no runtime names", n, what);
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s %u", what, i);
		if ((ret = chk_name(c, w, v[i])))
			return ret;
	}
	return 0;
}

static int chk_runtime(struct chk *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;
	int ret;

	at(c, SEC_RUNTIME, LK_NONE, 0);
	if (img->ntables && !img->rt_tables)
		return bad(c, PISA_E_INVAL, "%u tables but no runtime names", img->ntables);
	if (img->nactions && !img->rt_actions)
		return bad(c, PISA_E_INVAL, "%u actions but no runtime names", img->nactions);
	for (i = 0; i < img->ntables; i++)
		if ((ret = chk_rt_table(c, i)))
			return ret;
	for (i = 0; i < img->nactions; i++)
		if ((ret = chk_rt_action(c, i)))
			return ret;
	at(c, SEC_RUNTIME, LK_NONE, 0);
	if ((ret = chk_rt_named(c, "counter", img->rt_counters, img->ncounters)) ||
	    (ret = chk_rt_named(c, "register", img->rt_registers, img->nregisters)) ||
	    (ret = chk_rt_named(c, "meter", img->rt_meters, img->nmeters)) ||
	    (ret = chk_rt_named(c, "digest", img->rt_digests, img->ndigests)) ||
	    (ret = chk_rt_strs(c, "header", img->rt_headers, img->nheaders)) ||
	    (ret = chk_rt_strs(c, "error", img->rt_errors, img->nerrors)))
		return ret;
	return 0;
}

static int chk_const_row(struct chk *c, unsigned i)
{
	const struct pisa_image *img = c->img;
	const struct pisa_const_row *r = &img->const_rows[i];
	const struct pisa_table *t;
	unsigned j, aid;

	at(c, SEC_CONST_ROWS, LK_CONST_ROW, i);
	if (r->table >= img->ntables)
		return bad(c, RANGE, "row %u table %u (image has %u)", i, r->table, img->ntables);
	t = &img->tables[r->table];
	if (r->index > t->rows)
		return bad(c, RANGE, "row %u index %u (table %u: 0..%u, %u = default)", i,
			   r->index, r->table, t->rows, t->rows);
	if (r->len != pisa_row_bytes(t))
		return bad(c, RANGE, "row %u is %u bytes, table %u rows are %zu", i, r->len,
			   r->table, pisa_row_bytes(t));
	if (!r->bytes)
		return bad(c, PISA_E_INVAL, "row %u has no bytes", i);
	if (!(r->bytes[0] & PISA_ROW_VALID))
		return 0;
	/* a valid row runs one of the table's actions, allowed in that place */
	aid = (unsigned)r->bytes[1] << 8 | r->bytes[2];
	for (j = 0; j < t->nactions; j++) {
		uint8_t f = t->actions[j].flags;

		if (t->actions[j].action != aid)
			continue;
		if (r->index == t->rows ? !(f & PISA_TA_TABLE_ONLY) : !(f & PISA_TA_DEFAULT_ONLY))
			return 0;
	}
	return bad(c, RANGE, "row %u action %u is not allowed in table %u %s", i, aid,
		   r->table, r->index == t->rows ? "as default" : "as an entry");
}

static int chk_const_rows(struct chk *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;
	int ret;

	at(c, SEC_CONST_ROWS, LK_NONE, 0);
	for (i = 0; i < img->nconst_rows; i++)
		if ((ret = chk_const_row(c, i)))
			return ret;
	return 0;
}

/* The action a profile's table runs to point into it: one of the table's, with
 * nparams parameters of the member table's key width, packed from bit 0. */
static int chk_prof_action(struct chk *c, unsigned i, unsigned t, uint16_t aid,
			   unsigned nparams, unsigned width)
{
	const struct pisa_image *img = c->img;
	const struct pisa_rt_action *a;
	unsigned j;

	for (j = 0; j < img->tables[t].nactions; j++)
		if (img->tables[t].actions[j].action == aid)
			break;
	if (j == img->tables[t].nactions)
		return bad(c, RANGE, "profile %u: action %u is not one of table %u's", i, aid, t);
	a = &img->rt_actions[aid];
	if (a->nparams != nparams)
		return bad(c, RANGE, "profile %u: action %u has %u parameters, %u expected", i,
			   aid, a->nparams, nparams);
	for (j = 0; j < nparams; j++)
		if (a->params[j].width != width || a->params[j].adata_off != j * width)
			return bad(c, RANGE, "profile %u: action %u parameter %u is not %u bits at bit %u",
				   i, aid, j, width, j * width);
	return 0;
}

static int chk_profile(struct chk *c, unsigned i)
{
	const struct pisa_image *img = c->img;
	const struct pisa_rt_profile *p = &img->rt_profiles[i];
	const struct pisa_table *m;
	unsigned j, k, w;
	char what[48];
	int ret;

	at(c, SEC_PROFILES, LK_PROFILE, i);
	snprintf(what, sizeof(what), "profile %u", i);
	if ((ret = chk_name(c, what, p->name)))
		return ret;
	if (p->with_selector > 1 || (!p->with_selector && p->slots))
		return bad(c, RANGE, "profile %u: with_selector %u, %u slots", i, p->with_selector,
			   p->slots);
	if (p->member_table >= img->ntables)
		return bad(c, RANGE, "profile %u: member table %u (image has %u)", i,
			   p->member_table, img->ntables);
	m = &img->tables[p->member_table];
	if (m->mem != PISA_MEM_HASH || m->nkeys != 1)
		return bad(c, RANGE, "profile %u: member table %u is not exact on one key", i,
			   p->member_table);
	w = m->keys[0].field.width;
	if (w > 32 || p->size < 1 || (uint64_t)p->size + p->slots >= (UINT64_C(1) << w))
		return bad(c, RANGE, "profile %u: %u members and %u slots do not leave the all-ones "
			   "index of a %u-bit key free", i, p->size, p->slots, w);
	if ((uint64_t)p->size + p->slots > m->rows)
		return bad(c, RANGE, "profile %u: %u members and %u slots in a member table of %u rows",
			   i, p->size, p->slots, m->rows);
	if (!p->ntables || !p->tables)
		return bad(c, PISA_E_INVAL, "profile %u has no tables", i);
	for (j = 0; j < p->ntables; j++) {
		const struct pisa_rt_profile_table *pt = &p->tables[j];

		if (pt->table >= img->ntables || pt->table == p->member_table)
			return bad(c, RANGE, "profile %u: table %u", i, pt->table);
		if ((ret = chk_prof_action(c, i, pt->table, pt->member_action, 1, w)))
			return ret;
		if (!p->with_selector && pt->group_action != PISA_NO_ACTION)
			return bad(c, RANGE, "profile %u: a group action without a selector", i);
		if (p->with_selector &&
		    (ret = chk_prof_action(c, i, pt->table, pt->group_action, 2, w)))
			return ret;
		for (k = 0; k < i; k++) {
			unsigned q;

			for (q = 0; q < img->rt_profiles[k].ntables; q++)
				if (img->rt_profiles[k].tables[q].table == pt->table)
					return bad(c, RANGE, "profile %u: table %u is already in profile %u",
						   i, pt->table, k);
		}
	}
	return 0;
}

static int chk_profiles(struct chk *c)
{
	unsigned i;
	int ret;

	at(c, SEC_PROFILES, LK_NONE, 0);
	if (c->img->nprofiles && !c->img->rt_profiles)
		return bad(c, PISA_E_INVAL, "%u profiles but no array", c->img->nprofiles);
	for (i = 0; i < c->img->nprofiles; i++)
		if ((ret = chk_profile(c, i)))
			return ret;
	return 0;
}

/* Structures first, then what refers to them. */
static int check(const struct pisa_image *img, char *detail, size_t detail_len,
		 const struct locator *loc)
{
	struct chk c = { img, detail, detail_len, loc, SEC_BOARD, LK_NONE, 0 };
	int ret;

	if (detail && detail_len)
		detail[0] = '\0';
	if (!img) {
		if (detail && detail_len)
			snprintf(detail, detail_len, "no image");
		return -PISA_E_INVAL;
	}
	if ((ret = chk_arrays(&c)) || (ret = chk_board(&c)) || (ret = chk_parser(&c)) ||
	    (ret = chk_tables(&c)) || (ret = chk_externs(&c)) ||
	    (ret = chk_deparser(&c)) || (ret = chk_runtime(&c)) ||
	    (ret = chk_const_rows(&c)) || (ret = chk_profiles(&c)))
		return ret;
	return 0;
}

int pisa_image_check(const struct pisa_image *img, char *detail, size_t detail_len)
{
	return check(img, detail, detail_len, NULL);
}

/* ======================================================================
 * Writer: a growing buffer; an allocation failure is remembered and
 * reported once at the end.
 * ====================================================================== */

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static uint8_t *w_room(struct wbuf *w, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (w->oom)
		return NULL;
	if (n > w->cap - w->len) {
		cap = w->cap ? w->cap : 4096;
		while (cap - w->len < n) {
			if (cap > SIZE_MAX / 2) {
				w->oom = 1;
				return NULL;
			}
			cap *= 2;
		}
		p = realloc(w->p, cap);
		if (!p) {
			w->oom = 1;
			return NULL;
		}
		w->p = p;
		w->cap = cap;
	}
	p = w->p + w->len;
	w->len += n;
	return p;
}

static void w_u8(struct wbuf *w, uint8_t v)
{
	uint8_t *p = w_room(w, 1);

	if (p)
		*p = v;
}

static void w_u16(struct wbuf *w, uint16_t v)
{
	uint8_t *p = w_room(w, 2);

	if (p)
		pisa_put_le16(p, v);
}

static void w_u32(struct wbuf *w, uint32_t v)
{
	uint8_t *p = w_room(w, 4);

	if (p)
		pisa_put_le32(p, v);
}

static void w_u64(struct wbuf *w, uint64_t v)
{
	uint8_t *p = w_room(w, 8);

	if (p)
		pisa_put_le64(p, v);
}

static void w_bytes(struct wbuf *w, const void *src, size_t n)
{
	uint8_t *p = w_room(w, n);

	if (p && n)
		memcpy(p, src, n);
}

static void w_str(struct wbuf *w, const char *s)
{
	size_t n = strlen(s);	/* checked: <= MAX_NAME or the fixed array */

	w_u16(w, (uint16_t)n);
	w_bytes(w, s, n);
}

static void w_field(struct wbuf *w, struct pisa_field f)
{
	w_u16(w, f.bitoff);
	w_u16(w, f.width);
}

static void w_operand(struct wbuf *w, const struct pisa_operand *o)
{
	w_u8(w, o->kind);
	w_u16(w, o->off);
	w_u16(w, o->width);
	w_u64(w, o->value);
}

static void w_insns(struct wbuf *w, const struct pisa_insn *v, unsigned n)
{
	unsigned i;

	w_u16(w, (uint16_t)n);
	for (i = 0; i < n; i++) {
		w_u8(w, v[i].op);
		w_u8(w, v[i].flags);
		w_u16(w, v[i].imm);
		w_operand(w, &v[i].dst);
		w_operand(w, &v[i].a);
		w_operand(w, &v[i].b);
	}
}

static void w_board(struct wbuf *w, const struct pisa_image *img)
{
	w_str(w, img->board);
	w_str(w, img->program);
	w_u16(w, img->phv_bytes);
	w_u16(w, img->cpu_port);
	w_u16(w, img->nstages);
}

static void w_headers(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i;

	w_u16(w, img->nheaders);
	for (i = 0; i < img->nheaders; i++) {
		w_u16(w, img->headers[i].phv_byte);
		w_u16(w, img->headers[i].bytes);
		w_u16(w, img->headers[i].fixed_bytes);
	}
	w_u16(w, img->nstacks);
	for (i = 0; i < img->nstacks; i++) {
		w_u16(w, img->stacks[i].first_header);
		w_u16(w, img->stacks[i].size);
	}
}

static void w_parser(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i, j;

	w_u16(w, img->parser_start);
	w_u16(w, img->nstates);
	for (i = 0; i < img->nstates; i++) {
		const struct pisa_parser_state *s = &img->states[i];

		w_insns(w, s->ops, s->nops);
		w_u8(w, s->nkey);
		for (j = 0; j < s->nkey; j++)
			w_operand(w, &s->key[j]);
		w_u16(w, s->nrows);
		for (j = 0; j < s->nrows; j++) {
			w_u64(w, s->rows[j].value);
			w_u64(w, s->rows[j].mask);
			w_u16(w, s->rows[j].next);
			w_u16(w, s->rows[j].error);
		}
	}
}

static void w_tables(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i, j;

	w_u16(w, img->ingress_start);
	w_u16(w, img->egress_start);
	w_u16(w, img->ntables);
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];

		w_u8(w, t->gress);
		w_u8(w, t->stage);
		w_u8(w, t->mem);
		w_u8(w, t->next_mode);
		w_u16(w, t->key_bits);
		w_u16(w, t->adata_bits);
		w_u8(w, t->ways);
		w_u8(w, t->way_bits);
		w_u32(w, t->rows);
		w_u16(w, t->next_hit);
		w_u16(w, t->next_miss);
		w_field(w, t->cond);
		w_u16(w, (uint16_t)t->direct_counter);
		w_u16(w, (uint16_t)t->direct_meter);
		w_u16(w, t->default_action);
		w_u16(w, t->nkeys);
		for (j = 0; j < t->nkeys; j++) {
			w_field(w, t->keys[j].field);
			w_u8(w, t->keys[j].match);
		}
		w_u16(w, t->nactions);
		for (j = 0; j < t->nactions; j++) {
			w_u16(w, t->actions[j].action);
			w_u16(w, t->actions[j].next);
			w_u8(w, t->actions[j].flags);
		}
		w_u16(w, t->default_adata_len);
		w_bytes(w, t->default_adata, t->default_adata_len);
	}
}

static void w_actions(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i;

	w_u16(w, img->nactions);
	for (i = 0; i < img->nactions; i++) {
		w_u16(w, img->actions[i].adata_bits);
		w_insns(w, img->actions[i].insns, img->actions[i].ninsns);
	}
}

static void w_externs(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i, j;

	w_u16(w, img->ncounters);
	for (i = 0; i < img->ncounters; i++) {
		w_u8(w, img->counters[i].kind);
		w_u32(w, img->counters[i].size);
		w_u16(w, (uint16_t)img->counters[i].direct_table);
	}
	w_u16(w, img->nregisters);
	for (i = 0; i < img->nregisters; i++) {
		w_u16(w, img->registers[i].width);
		w_u32(w, img->registers[i].size);
	}
	w_u16(w, img->nmeters);
	for (i = 0; i < img->nmeters; i++) {
		w_u8(w, img->meters[i].kind);
		w_u32(w, img->meters[i].size);
		w_u16(w, (uint16_t)img->meters[i].direct_table);
	}
	w_u16(w, img->nfield_lists);
	for (i = 0; i < img->nfield_lists; i++) {
		w_u16(w, img->field_lists[i].nfields);
		for (j = 0; j < img->field_lists[i].nfields; j++)
			w_field(w, img->field_lists[i].fields[j]);
	}
	w_u16(w, img->nhash_units);
	for (i = 0; i < img->nhash_units; i++) {
		const struct pisa_hash_unit *u = &img->hash_units[i];

		w_u8(w, u->algo);
		w_u16(w, u->field_list);
		w_u8(w, u->crc_width);
		w_u8(w, u->reflect_in);
		w_u8(w, u->reflect_out);
		w_u32(w, u->poly);
		w_u32(w, u->init);
		w_u32(w, u->xor_out);
	}
	w_u16(w, img->ndigests);
	for (i = 0; i < img->ndigests; i++)
		w_u16(w, img->digests[i].field_list);
	w_u16(w, img->nchecksums);
	for (i = 0; i < img->nchecksums; i++) {
		const struct pisa_checksum *k = &img->checksums[i];

		w_u8(w, k->kind);
		w_u8(w, k->with_payload);
		w_u8(w, k->algo);
		w_operand(w, &k->cond);
		w_u16(w, k->field_list);
		w_field(w, k->dst);
	}
}

static void w_deparser(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i;

	w_u16(w, img->ndeparse);
	for (i = 0; i < img->ndeparse; i++)
		w_u16(w, img->deparse[i]);
}

static void w_tm(struct wbuf *w, const struct pisa_image *img)
{
	w_u16(w, img->mcast_groups);
	w_u16(w, img->mcast_nodes);
	w_u16(w, img->clone_sessions);
}

static void w_named(struct wbuf *w, const struct pisa_rt_named *v, unsigned n)
{
	unsigned i;

	w_u16(w, (uint16_t)n);
	for (i = 0; i < n; i++) {
		w_str(w, v[i].name);
		w_u32(w, v[i].p4info_id);
	}
}

static void w_strs(struct wbuf *w, char *const *v, unsigned n)
{
	unsigned i;

	w_u16(w, (uint16_t)n);
	for (i = 0; i < n; i++)
		w_str(w, v[i]);
}

static void w_runtime(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i, j;

	w_u16(w, img->ntables);
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_rt_table *t = &img->rt_tables[i];

		w_str(w, t->name);
		w_u32(w, t->p4info_id);
		w_u32(w, t->size);
		w_u8(w, t->const_entries);
		w_u8(w, t->const_default);
		w_u16(w, t->nkeys);
		for (j = 0; j < t->nkeys; j++) {
			w_str(w, t->keys[j].name);
			w_u16(w, t->keys[j].width);
			w_u8(w, t->keys[j].match);
		}
	}
	w_u16(w, img->nactions);
	for (i = 0; i < img->nactions; i++) {
		const struct pisa_rt_action *a = &img->rt_actions[i];

		w_str(w, a->name);
		w_u32(w, a->p4info_id);
		w_u16(w, a->nparams);
		for (j = 0; j < a->nparams; j++) {
			w_str(w, a->params[j].name);
			w_u16(w, a->params[j].width);
			w_u16(w, a->params[j].adata_off);
		}
	}
	w_named(w, img->rt_counters, img->ncounters);
	w_named(w, img->rt_registers, img->nregisters);
	w_named(w, img->rt_meters, img->nmeters);
	w_named(w, img->rt_digests, img->ndigests);
	w_strs(w, img->rt_headers, img->nheaders);
	w_strs(w, img->rt_errors, img->nerrors);
}

static void w_const_rows(struct wbuf *w, const struct pisa_image *img)
{
	uint32_t i;

	w_u32(w, img->nconst_rows);
	for (i = 0; i < img->nconst_rows; i++) {
		w_u16(w, img->const_rows[i].table);
		w_u32(w, img->const_rows[i].index);
		w_u16(w, img->const_rows[i].len);
		w_bytes(w, img->const_rows[i].bytes, img->const_rows[i].len);
	}
}

/* HWCONF: u32 status, then the RTL core's configuration words (status 0,
 * u64 each) or why the core cannot run the image (a positive pisa_err and
 * its reason as text). Derived from the rest; a reader only checks its CRC. */
static void w_hwconf(struct wbuf *w, const struct pisa_image *img)
{
	struct pisa_hwconf_limits lim;
	struct pisa_hwconf hc;
	char why[256];
	uint32_t i;
	int e;

	pisa_hwconf_limits_for(img->board, &lim);	/* the core of the board it is for */
	e = pisa_hwconf_build(img, &lim, &hc, why, sizeof(why));
	if (e < 0) {
		w_u32(w, (uint32_t)-e);
		w_bytes(w, (const uint8_t *)why, strlen(why));
		return;
	}
	w_u32(w, 0);
	for (i = 0; i < hc.nwords; i++) {
		w_u32(w, (uint32_t)hc.words[i]);
		w_u32(w, (uint32_t)(hc.words[i] >> 32));
	}
	pisa_hwconf_free(&hc);
}

static void w_profiles(struct wbuf *w, const struct pisa_image *img)
{
	unsigned i, j;

	w_u16(w, img->nprofiles);
	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];

		w_str(w, p->name);
		w_u32(w, p->p4info_id);
		w_u8(w, p->with_selector);
		w_u32(w, p->size);
		w_u32(w, p->slots);
		w_u32(w, p->max_group_size);
		w_u16(w, p->member_table);
		w_u16(w, p->ntables);
		for (j = 0; j < p->ntables; j++) {
			w_u16(w, p->tables[j].table);
			w_u16(w, p->tables[j].member_action);
			w_u16(w, p->tables[j].group_action);
		}
	}
}

static void (*const writers[SEC_COUNT])(struct wbuf *, const struct pisa_image *) = {
	w_board, w_headers, w_parser, w_tables, w_actions,
	w_externs, w_deparser, w_tm, w_runtime, w_const_rows, w_hwconf, w_profiles,
};

int pisa_image_write(const struct pisa_image *img, uint8_t **buf, size_t *len)
{
	struct wbuf w = { 0 };
	size_t table = HDR_BYTES, start[SEC_COUNT], end[SEC_COUNT];
	uint32_t crc;
	uint8_t *p;
	int s, ret;

	if (!buf || !len)
		return -PISA_E_INVAL;
	*buf = NULL;
	*len = 0;
	ret = pisa_image_check(img, NULL, 0);
	if (ret)
		return ret;

	w_room(&w, HDR_BYTES + SEC_COUNT * SEC_ENT_BYTES);	/* filled in below */
	for (s = 0; s < SEC_COUNT; s++) {
		start[s] = w.len;
		writers[s](&w, img);
		end[s] = w.len;
	}
	if (w.oom) {
		free(w.p);
		return -PISA_E_NOMEM;
	}
	if (w.len > UINT32_MAX) {
		free(w.p);
		return -PISA_E_RANGE;
	}

	p = w.p;
	pisa_put_le32(p, PISA_IMAGE_MAGIC);
	pisa_put_le16(p + 4, PISA_IMAGE_VERSION_MAJOR);
	pisa_put_le16(p + 6, PISA_IMAGE_VERSION_MINOR);
	pisa_put_le32(p + 8, (uint32_t)w.len);
	pisa_put_le16(p + 12, SEC_COUNT);
	pisa_put_le16(p + 14, 0);
	for (s = 0; s < SEC_COUNT; s++) {
		uint8_t *e = p + table + (size_t)s * SEC_ENT_BYTES;

		pisa_put_le16(e, (uint16_t)(s + 1));
		pisa_put_le16(e + 2, 0);
		pisa_put_le32(e + 4, (uint32_t)start[s]);
		pisa_put_le32(e + 8, (uint32_t)(end[s] - start[s]));
		pisa_put_le32(e + 12, pisa_crc32(0, p + start[s], end[s] - start[s]));
	}
	/* the header CRC covers the header before it and the section table */
	crc = pisa_crc32(0, p, 16);
	crc = pisa_crc32(crc, p + table, SEC_COUNT * SEC_ENT_BYTES);
	pisa_put_le32(p + 16, crc);

	*buf = w.p;
	*len = w.len;
	return 0;
}

int pisa_image_write_file(const struct pisa_image *img, const char *path)
{
	uint8_t *buf;
	size_t len, plen;
	char *tmp;
	FILE *f;
	int ret;

	if (!path)
		return -PISA_E_INVAL;
	ret = pisa_image_write(img, &buf, &len);
	if (ret)
		return ret;
	/* write next to the target, then rename: a reader never sees half */
	plen = strlen(path);
	tmp = malloc(plen + 5);
	if (!tmp) {
		ret = -PISA_E_NOMEM;
		goto out_buf;
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp", 5);
	f = fopen(tmp, "wb");
	if (!f) {
		ret = -PISA_E_IO;
		goto out_tmp;
	}
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		ret = -PISA_E_IO;
		goto out_unlink;
	}
	if (fclose(f) != 0) {
		ret = -PISA_E_IO;
		goto out_unlink;
	}
	if (rename(tmp, path) != 0) {
		ret = -PISA_E_IO;
		goto out_unlink;
	}
	ret = 0;
	goto out_tmp;
out_unlink:
	remove(tmp);
out_tmp:
	free(tmp);
out_buf:
	free(buf);
	return ret;
}

/* ======================================================================
 * Reader
 * ====================================================================== */

struct rctx {
	const uint8_t *buf;
	size_t len;
	char *detail;
	size_t dlen;
	uint16_t minor;		/* the image's minor version */
	int sec;		/* section being decoded */
	struct locator *loc;
};

static int rfail(struct rctx *r, int err, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rfail(struct rctx *r, int err, size_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (r->detail && r->dlen) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		snprintf(r->detail, r->dlen, "section %s, byte %zu: %s", sec_name(r->sec),
			 off, msg);
	}
	return -err;
}

#define NO_INDEX UINT32_MAX	/* a record that is the only one of its kind */

/* "what i", or "what" for NO_INDEX */
static const char *label(char *buf, size_t n, const char *what, uint32_t i)
{
	if (i == NO_INDEX)
		snprintf(buf, n, "%s", what);
	else
		snprintf(buf, n, "%s %u", what, i);
	return buf;
}

/* The cursor ran out inside `what`. */
static int rshort(struct rctx *r, const struct pisa_rd *rd, const char *what, uint32_t i)
{
	char l[48];

	return rfail(r, PISA_E_FORMAT, rd->short_pos,
		     "%s runs past the end of the section (byte %zu)",
		     label(l, sizeof(l), what, i), rd->end);
}

/* Is there room for n records of at least min bytes each? */
static int rcount(struct rctx *r, const struct pisa_rd *rd, size_t at_off,
		  const char *what, size_t n, size_t min)
{
	if (rd->short_read)
		return rfail(r, PISA_E_FORMAT, rd->short_pos, "%s count runs past the end of the section", what);
	if (n > pisa_rd_left(rd) / min)
		return rfail(r, PISA_E_FORMAT, at_off,
			     "%zu %s need at least %zu bytes, %zu left in the section",
			     n, what, n * min, pisa_rd_left(rd));
	return 0;
}

/* calloc for n records, the locator entries alongside. */
static void *ralloc(struct rctx *r, size_t n, size_t size, int kind, int *ret)
{
	void *p;

	*ret = 0;
	if (!n)
		return NULL;
	p = calloc(n, size);
	if (!p) {
		*ret = -PISA_E_NOMEM;
		return NULL;
	}
	if (kind != LK_NONE) {
		r->loc->elem[kind] = calloc(n, sizeof(uint32_t));
		if (!r->loc->elem[kind]) {
			free(p);
			*ret = -PISA_E_NOMEM;
			return NULL;
		}
		r->loc->nelem[kind] = (uint32_t)n;
	}
	return p;
}

/* A length-prefixed string: no NUL inside, at most max bytes. */
static int rd_str(struct rctx *r, struct pisa_rd *rd, char *dst, size_t max,
		  char **out, const char *what, uint32_t i)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	const uint8_t *p;
	char l[48];

	if (rd->short_read)
		return rshort(r, rd, what, i);
	if (n > max)
		return rfail(r, PISA_E_FORMAT, off, "%s name is %u bytes (max %zu)",
			     label(l, sizeof(l), what, i), n, max);
	p = pisa_rd_bytes(rd, n);
	if (!p)
		return rshort(r, rd, what, i);
	if (memchr(p, 0, n))
		return rfail(r, PISA_E_FORMAT, off, "%s name contains a NUL byte",
			     label(l, sizeof(l), what, i));
	if (!dst) {
		dst = malloc((size_t)n + 1);
		if (!dst)
			return -PISA_E_NOMEM;
		*out = dst;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

static void rd_field(struct pisa_rd *rd, struct pisa_field *f)
{
	f->bitoff = pisa_rd_u16(rd);
	f->width = pisa_rd_u16(rd);
}

static void rd_operand(struct pisa_rd *rd, struct pisa_operand *o)
{
	o->kind = pisa_rd_u8(rd);
	o->off = pisa_rd_u16(rd);
	o->width = pisa_rd_u16(rd);
	o->value = pisa_rd_u64(rd);
}

static int rd_insns(struct rctx *r, struct pisa_rd *rd, struct pisa_insn **out,
		    uint16_t *nout, const char *what, unsigned idx)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	struct pisa_insn *v;
	unsigned i;
	int ret;

	if ((ret = rcount(r, rd, off, "instructions", n, INSN_BYTES)))
		return ret;
	v = ralloc(r, n, sizeof(*v), LK_NONE, &ret);
	if (ret)
		return ret;
	*out = v;
	*nout = n;
	for (i = 0; i < n; i++) {
		v[i].op = pisa_rd_u8(rd);
		v[i].flags = pisa_rd_u8(rd);
		v[i].imm = pisa_rd_u16(rd);
		rd_operand(rd, &v[i].dst);
		rd_operand(rd, &v[i].a);
		rd_operand(rd, &v[i].b);
	}
	if (rd->short_read)
		return rshort(r, rd, what, idx);
	return 0;
}

static int dec_board(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	int ret;

	if ((ret = rd_str(r, rd, img->board, sizeof(img->board) - 1, NULL, "board",
			  NO_INDEX)) ||
	    (ret = rd_str(r, rd, img->program, sizeof(img->program) - 1, NULL, "program",
			  NO_INDEX)))
		return ret;
	img->phv_bytes = pisa_rd_u16(rd);
	img->cpu_port = pisa_rd_u16(rd);
	img->nstages = pisa_rd_u16(rd);
	if (rd->short_read)
		return rshort(r, rd, "board record", NO_INDEX);
	return 0;
}

static int dec_headers(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	unsigned i;
	int ret;

	if ((ret = rcount(r, rd, off, "headers", n, 6)))
		return ret;
	img->headers = ralloc(r, n, sizeof(*img->headers), LK_HEADER, &ret);
	if (ret)
		return ret;
	img->nheaders = n;
	for (i = 0; i < n; i++) {
		loc_set(r->loc, LK_HEADER, i, rd->pos);
		img->headers[i].phv_byte = pisa_rd_u16(rd);
		img->headers[i].bytes = pisa_rd_u16(rd);
		img->headers[i].fixed_bytes = pisa_rd_u16(rd);
	}
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "stacks", n, 4)))
		return ret;
	img->stacks = ralloc(r, n, sizeof(*img->stacks), LK_STACK, &ret);
	if (ret)
		return ret;
	img->nstacks = n;
	for (i = 0; i < n; i++) {
		loc_set(r->loc, LK_STACK, i, rd->pos);
		img->stacks[i].first_header = pisa_rd_u16(rd);
		img->stacks[i].size = pisa_rd_u16(rd);
	}
	if (rd->short_read)
		return rshort(r, rd, "stack list", NO_INDEX);
	return 0;
}

static int dec_state(struct rctx *r, struct pisa_rd *rd, struct pisa_parser_state *s,
		     unsigned i)
{
	size_t off;
	unsigned j;
	int ret;

	if ((ret = rd_insns(r, rd, &s->ops, &s->nops, "state", i)))
		return ret;
	off = rd->pos;
	s->nkey = pisa_rd_u8(rd);
	if (s->nkey > PISA_PARSER_MAX_KEY)
		return rfail(r, PISA_E_FORMAT, off, "state %u has %u key operands (0..%d)", i,
			     s->nkey, PISA_PARSER_MAX_KEY);
	for (j = 0; j < s->nkey; j++)
		rd_operand(rd, &s->key[j]);
	off = rd->pos;
	s->nrows = 0;
	{
		uint16_t n = pisa_rd_u16(rd);

		if ((ret = rcount(r, rd, off, "parser rows", n, PROW_BYTES)))
			return ret;
		s->rows = ralloc(r, n, sizeof(*s->rows), LK_NONE, &ret);
		if (ret)
			return ret;
		s->nrows = n;
	}
	for (j = 0; j < s->nrows; j++) {
		s->rows[j].value = pisa_rd_u64(rd);
		s->rows[j].mask = pisa_rd_u64(rd);
		s->rows[j].next = pisa_rd_u16(rd);
		s->rows[j].error = pisa_rd_u16(rd);
	}
	if (rd->short_read)
		return rshort(r, rd, "state", i);
	return 0;
}

static int dec_parser(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off;
	uint16_t n;
	unsigned i;
	int ret;

	img->parser_start = pisa_rd_u16(rd);
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "states", n, MIN_STATE)))
		return ret;
	img->states = ralloc(r, n, sizeof(*img->states), LK_STATE, &ret);
	if (ret)
		return ret;
	img->nstates = n;
	for (i = 0; i < n; i++) {
		loc_set(r->loc, LK_STATE, i, rd->pos);
		if ((ret = dec_state(r, rd, &img->states[i], i)))
			return ret;
	}
	return 0;
}

static int dec_table(struct rctx *r, struct pisa_rd *rd, struct pisa_table *t, unsigned i)
{
	const uint8_t *p;
	size_t off;
	uint16_t n;
	unsigned j;
	int ret;

	t->gress = pisa_rd_u8(rd);
	t->stage = pisa_rd_u8(rd);
	t->mem = pisa_rd_u8(rd);
	t->next_mode = pisa_rd_u8(rd);
	t->key_bits = pisa_rd_u16(rd);
	t->adata_bits = pisa_rd_u16(rd);
	t->ways = pisa_rd_u8(rd);
	t->way_bits = pisa_rd_u8(rd);
	t->rows = pisa_rd_u32(rd);
	t->next_hit = pisa_rd_u16(rd);
	t->next_miss = pisa_rd_u16(rd);
	rd_field(rd, &t->cond);
	t->direct_counter = (int16_t)pisa_rd_u16(rd);
	t->direct_meter = (int16_t)pisa_rd_u16(rd);
	t->default_action = pisa_rd_u16(rd);

	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "keys", n, KEY_BYTES)))
		return ret;
	t->keys = ralloc(r, n, sizeof(*t->keys), LK_NONE, &ret);
	if (ret)
		return ret;
	t->nkeys = n;
	for (j = 0; j < n; j++) {
		rd_field(rd, &t->keys[j].field);
		t->keys[j].match = pisa_rd_u8(rd);
	}

	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "table actions", n, TACT_BYTES)))
		return ret;
	t->actions = ralloc(r, n, sizeof(*t->actions), LK_NONE, &ret);
	if (ret)
		return ret;
	t->nactions = n;
	for (j = 0; j < n; j++) {
		t->actions[j].action = pisa_rd_u16(rd);
		t->actions[j].next = pisa_rd_u16(rd);
		t->actions[j].flags = pisa_rd_u8(rd);
	}

	n = pisa_rd_u16(rd);
	p = pisa_rd_bytes(rd, n);
	if (!p)
		return rshort(r, rd, "table", i);
	if (n) {
		t->default_adata = malloc(n);
		if (!t->default_adata)
			return -PISA_E_NOMEM;
		memcpy(t->default_adata, p, n);
		t->default_adata_len = n;
	}
	return 0;
}

static int dec_tables(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off;
	uint16_t n;
	unsigned i;
	int ret;

	img->ingress_start = pisa_rd_u16(rd);
	img->egress_start = pisa_rd_u16(rd);
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "tables", n, MIN_TABLE)))
		return ret;
	img->tables = ralloc(r, n, sizeof(*img->tables), LK_TABLE, &ret);
	if (ret)
		return ret;
	img->ntables = n;
	for (i = 0; i < n; i++) {
		loc_set(r->loc, LK_TABLE, i, rd->pos);
		if ((ret = dec_table(r, rd, &img->tables[i], i)))
			return ret;
	}
	return 0;
}

static int dec_actions(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	unsigned i;
	int ret;

	if ((ret = rcount(r, rd, off, "actions", n, MIN_ACTION)))
		return ret;
	img->actions = ralloc(r, n, sizeof(*img->actions), LK_ACTION, &ret);
	if (ret)
		return ret;
	img->nactions = n;
	for (i = 0; i < n; i++) {
		struct pisa_action *a = &img->actions[i];

		loc_set(r->loc, LK_ACTION, i, rd->pos);
		a->adata_bits = pisa_rd_u16(rd);
		if ((ret = rd_insns(r, rd, &a->insns, &a->ninsns, "action", i)))
			return ret;
	}
	return 0;
}

/* Reads an extern array's count and allocates it; *n is set on success. */
static void *dec_array(struct rctx *r, struct pisa_rd *rd, const char *what, size_t min,
		       size_t size, int kind, uint16_t *n, int *ret)
{
	size_t off = rd->pos;
	uint16_t cnt = pisa_rd_u16(rd);
	void *p;

	if ((*ret = rcount(r, rd, off, what, cnt, min)))
		return NULL;
	p = ralloc(r, cnt, size, kind, ret);
	if (!*ret)
		*n = cnt;
	return p;
}

static int dec_externs(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	unsigned i, j;
	int ret;

	img->counters = dec_array(r, rd, "counters", COUNTER_BYTES, sizeof(*img->counters),
				  LK_COUNTER, &img->ncounters, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->ncounters; i++) {
		loc_set(r->loc, LK_COUNTER, i, rd->pos);
		img->counters[i].kind = pisa_rd_u8(rd);
		img->counters[i].size = pisa_rd_u32(rd);
		img->counters[i].direct_table = (int16_t)pisa_rd_u16(rd);
	}
	img->registers = dec_array(r, rd, "registers", REGISTER_BYTES,
				   sizeof(*img->registers), LK_REGISTER, &img->nregisters, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nregisters; i++) {
		loc_set(r->loc, LK_REGISTER, i, rd->pos);
		img->registers[i].width = pisa_rd_u16(rd);
		img->registers[i].size = pisa_rd_u32(rd);
	}
	img->meters = dec_array(r, rd, "meters", METER_BYTES, sizeof(*img->meters),
				LK_METER, &img->nmeters, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nmeters; i++) {
		loc_set(r->loc, LK_METER, i, rd->pos);
		img->meters[i].kind = pisa_rd_u8(rd);
		img->meters[i].size = pisa_rd_u32(rd);
		img->meters[i].direct_table = (int16_t)pisa_rd_u16(rd);
	}
	img->field_lists = dec_array(r, rd, "field lists", MIN_FLIST,
				     sizeof(*img->field_lists), LK_FLIST, &img->nfield_lists, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nfield_lists; i++) {
		struct pisa_field_list *fl = &img->field_lists[i];

		loc_set(r->loc, LK_FLIST, i, rd->pos);
		fl->fields = dec_array(r, rd, "fields", FIELD_BYTES, sizeof(*fl->fields),
				       LK_NONE, &fl->nfields, &ret);
		if (ret)
			return ret;
		for (j = 0; j < fl->nfields; j++)
			rd_field(rd, &fl->fields[j]);
	}
	img->hash_units = dec_array(r, rd, "hash units", HASH_BYTES, sizeof(*img->hash_units),
				    LK_HASH, &img->nhash_units, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nhash_units; i++) {
		struct pisa_hash_unit *u = &img->hash_units[i];

		loc_set(r->loc, LK_HASH, i, rd->pos);
		u->algo = pisa_rd_u8(rd);
		u->field_list = pisa_rd_u16(rd);
		u->crc_width = pisa_rd_u8(rd);
		u->reflect_in = pisa_rd_u8(rd);
		u->reflect_out = pisa_rd_u8(rd);
		u->poly = pisa_rd_u32(rd);
		u->init = pisa_rd_u32(rd);
		u->xor_out = pisa_rd_u32(rd);
	}
	img->digests = dec_array(r, rd, "digests", 2, sizeof(*img->digests), LK_DIGEST,
				 &img->ndigests, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->ndigests; i++) {
		loc_set(r->loc, LK_DIGEST, i, rd->pos);
		img->digests[i].field_list = pisa_rd_u16(rd);
	}
	img->checksums = dec_array(r, rd, "checksums", CSUM_BYTES, sizeof(*img->checksums),
				   LK_CSUM, &img->nchecksums, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nchecksums; i++) {
		struct pisa_checksum *k = &img->checksums[i];

		loc_set(r->loc, LK_CSUM, i, rd->pos);
		k->kind = pisa_rd_u8(rd);
		k->with_payload = pisa_rd_u8(rd);
		k->algo = pisa_rd_u8(rd);
		rd_operand(rd, &k->cond);
		k->field_list = pisa_rd_u16(rd);
		rd_field(rd, &k->dst);
	}
	if (rd->short_read)
		return rshort(r, rd, "extern list", NO_INDEX);
	return 0;
}

static int dec_deparser(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	unsigned i;
	int ret;

	img->deparse = dec_array(r, rd, "deparser entries", 2, sizeof(*img->deparse),
				 LK_NONE, &img->ndeparse, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->ndeparse; i++)
		img->deparse[i] = pisa_rd_u16(rd);
	return 0;
}

static int dec_tm(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	img->mcast_groups = pisa_rd_u16(rd);
	img->mcast_nodes = pisa_rd_u16(rd);
	img->clone_sessions = pisa_rd_u16(rd);
	if (rd->short_read)
		return rshort(r, rd, "TM record", NO_INDEX);
	return 0;
}

/* A runtime list must have exactly as many entries as what it names. */
static int rt_count(struct rctx *r, struct pisa_rd *rd, const char *what, unsigned want,
		    size_t min)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	int ret;

	if ((ret = rcount(r, rd, off, what, n, min)))
		return ret;
	if (n != want)
		return rfail(r, PISA_E_FORMAT, off, "%u names for %u %s", n, want, what);
	return 0;
}

static int dec_rt_table(struct rctx *r, struct pisa_rd *rd, struct pisa_rt_table *t,
			unsigned i)
{
	size_t off;
	uint16_t n;
	unsigned j;
	int ret;

	if ((ret = rd_str(r, rd, NULL, MAX_NAME, &t->name, "table", i)))
		return ret;
	t->p4info_id = pisa_rd_u32(rd);
	t->size = pisa_rd_u32(rd);
	t->const_entries = pisa_rd_u8(rd);
	t->const_default = pisa_rd_u8(rd);
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "table keys", n, MIN_RT_KEY)))
		return ret;
	t->keys = ralloc(r, n, sizeof(*t->keys), LK_NONE, &ret);
	if (ret)
		return ret;
	t->nkeys = n;
	for (j = 0; j < n; j++) {
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &t->keys[j].name, "table key", j)))
			return ret;
		t->keys[j].width = pisa_rd_u16(rd);
		t->keys[j].match = pisa_rd_u8(rd);
	}
	if (rd->short_read)
		return rshort(r, rd, "table", i);
	return 0;
}

static int dec_rt_action(struct rctx *r, struct pisa_rd *rd, struct pisa_rt_action *a,
			 unsigned i)
{
	size_t off;
	uint16_t n;
	unsigned j;
	int ret;

	if ((ret = rd_str(r, rd, NULL, MAX_NAME, &a->name, "action", i)))
		return ret;
	a->p4info_id = pisa_rd_u32(rd);
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "action params", n, MIN_RT_PARAM)))
		return ret;
	a->params = ralloc(r, n, sizeof(*a->params), LK_NONE, &ret);
	if (ret)
		return ret;
	a->nparams = n;
	for (j = 0; j < n; j++) {
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &a->params[j].name, "action param", j)))
			return ret;
		a->params[j].width = pisa_rd_u16(rd);
		a->params[j].adata_off = pisa_rd_u16(rd);
	}
	if (rd->short_read)
		return rshort(r, rd, "action", i);
	return 0;
}

static int dec_rt_named(struct rctx *r, struct pisa_rd *rd, const char *what,
			unsigned n, struct pisa_rt_named **out)
{
	struct pisa_rt_named *v;
	unsigned i;
	int ret;

	if ((ret = rt_count(r, rd, what, n, MIN_RT_NAMED)))
		return ret;
	v = ralloc(r, n, sizeof(*v), LK_NONE, &ret);
	if (ret)
		return ret;
	*out = v;
	for (i = 0; i < n; i++) {
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &v[i].name, what, i)))
			return ret;
		v[i].p4info_id = pisa_rd_u32(rd);
	}
	if (rd->short_read)
		return rshort(r, rd, what, n ? n - 1 : 0);
	return 0;
}

static int dec_rt_strs(struct rctx *r, struct pisa_rd *rd, const char *what,
		       unsigned n, char ***out)
{
	char **v;
	unsigned i;
	int ret;

	v = ralloc(r, n, sizeof(*v), LK_NONE, &ret);
	if (ret)
		return ret;
	*out = v;
	for (i = 0; i < n; i++)
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &v[i], what, i)))
			return ret;
	return 0;
}

static int dec_runtime(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off;
	uint16_t n;
	unsigned i;
	int ret;

	if ((ret = rt_count(r, rd, "tables", img->ntables, MIN_RT_TABLE)))
		return ret;
	img->rt_tables = ralloc(r, img->ntables, sizeof(*img->rt_tables), LK_RT_TABLE, &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->ntables; i++) {
		loc_set(r->loc, LK_RT_TABLE, i, rd->pos);
		if ((ret = dec_rt_table(r, rd, &img->rt_tables[i], i)))
			return ret;
	}
	if ((ret = rt_count(r, rd, "actions", img->nactions, MIN_RT_ACTION)))
		return ret;
	img->rt_actions = ralloc(r, img->nactions, sizeof(*img->rt_actions), LK_RT_ACTION,
				 &ret);
	if (ret)
		return ret;
	for (i = 0; i < img->nactions; i++) {
		loc_set(r->loc, LK_RT_ACTION, i, rd->pos);
		if ((ret = dec_rt_action(r, rd, &img->rt_actions[i], i)))
			return ret;
	}
	if ((ret = dec_rt_named(r, rd, "counters", img->ncounters, &img->rt_counters)) ||
	    (ret = dec_rt_named(r, rd, "registers", img->nregisters, &img->rt_registers)) ||
	    (ret = dec_rt_named(r, rd, "meters", img->nmeters, &img->rt_meters)) ||
	    (ret = dec_rt_named(r, rd, "digests", img->ndigests, &img->rt_digests)))
		return ret;
	if ((ret = rt_count(r, rd, "headers", img->nheaders, MIN_STR)) ||
	    (ret = dec_rt_strs(r, rd, "header", img->nheaders, &img->rt_headers)))
		return ret;
	/* errors are the only list without a parallel array: its own count */
	off = rd->pos;
	n = pisa_rd_u16(rd);
	if ((ret = rcount(r, rd, off, "errors", n, MIN_STR)))
		return ret;
	/* the count goes in first, so that a failure below frees the names */
	img->rt_errors = ralloc(r, n, sizeof(*img->rt_errors), LK_NONE, &ret);
	if (ret)
		return ret;
	img->nerrors = n;
	for (i = 0; i < n; i++)
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &img->rt_errors[i], "error", i)))
			return ret;
	return 0;
}

static int dec_const_rows(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off = rd->pos;
	uint32_t n = pisa_rd_u32(rd), i;
	int ret;

	if ((ret = rcount(r, rd, off, "const rows", n, MIN_CONST_ROW)))
		return ret;
	img->const_rows = ralloc(r, n, sizeof(*img->const_rows), LK_CONST_ROW, &ret);
	if (ret)
		return ret;
	img->nconst_rows = n;
	for (i = 0; i < n; i++) {
		struct pisa_const_row *c = &img->const_rows[i];
		const uint8_t *p;
		uint16_t len;

		loc_set(r->loc, LK_CONST_ROW, i, rd->pos);
		c->table = pisa_rd_u16(rd);
		c->index = pisa_rd_u32(rd);
		len = pisa_rd_u16(rd);
		p = pisa_rd_bytes(rd, len);
		if (!p)
			return rshort(r, rd, "const row", i);
		c->bytes = malloc(len ? len : 1);
		if (!c->bytes)
			return -PISA_E_NOMEM;
		memcpy(c->bytes, p, len);
		c->len = len;
	}
	return 0;
}

static int dec_profiles(struct rctx *r, struct pisa_rd *rd, struct pisa_image *img)
{
	size_t off = rd->pos;
	uint16_t n = pisa_rd_u16(rd);
	unsigned i, j;
	int ret;

	if ((ret = rcount(r, rd, off, "profiles", n, MIN_PROFILE)))
		return ret;
	img->rt_profiles = ralloc(r, n, sizeof(*img->rt_profiles), LK_PROFILE, &ret);
	if (ret)
		return ret;
	img->nprofiles = n;
	for (i = 0; i < n; i++) {
		struct pisa_rt_profile *p = &img->rt_profiles[i];
		uint16_t nt;

		loc_set(r->loc, LK_PROFILE, i, rd->pos);
		if ((ret = rd_str(r, rd, NULL, MAX_NAME, &p->name, "profile", i)))
			return ret;
		p->p4info_id = pisa_rd_u32(rd);
		p->with_selector = pisa_rd_u8(rd);
		p->size = pisa_rd_u32(rd);
		p->slots = pisa_rd_u32(rd);
		p->max_group_size = pisa_rd_u32(rd);
		p->member_table = pisa_rd_u16(rd);
		off = rd->pos;
		nt = pisa_rd_u16(rd);
		if ((ret = rcount(r, rd, off, "profile tables", nt, PROF_TABLE_BYTES)))
			return ret;
		p->tables = ralloc(r, nt, sizeof(*p->tables), LK_NONE, &ret);
		if (ret)
			return ret;
		p->ntables = nt;
		for (j = 0; j < nt; j++) {
			p->tables[j].table = pisa_rd_u16(rd);
			p->tables[j].member_action = pisa_rd_u16(rd);
			p->tables[j].group_action = pisa_rd_u16(rd);
		}
		if (rd->short_read)
			return rshort(r, rd, "profile", i);
	}
	return 0;
}

static int (*const decoders[SEC_REQUIRED])(struct rctx *, struct pisa_rd *,
					   struct pisa_image *) = {
	dec_board, dec_headers, dec_parser, dec_tables, dec_actions,
	dec_externs, dec_deparser, dec_tm, dec_runtime, dec_const_rows,
};

struct sec_ent {
	size_t off, len;
	int present;
};

/* Header and section table: version, lengths, CRCs, where each section is. */
static int read_layout(struct rctx *r, struct sec_ent *ent)
{
	const uint8_t *b = r->buf;
	uint32_t magic, total, crc, want;
	uint16_t major, nsec, i;
	size_t table_end, prev_end;

	r->sec = SEC_FILE_HEADER;
	if (r->len < HDR_BYTES)
		return rfail(r, PISA_E_FORMAT, 0, "file is %zu bytes, the header alone is %d",
			     r->len, HDR_BYTES);
	magic = pisa_get_le32(b);
	if (magic != PISA_IMAGE_MAGIC)
		return rfail(r, PISA_E_FORMAT, 0, "magic 0x%08x is not \"PISA\" (0x%08x)",
			     magic, PISA_IMAGE_MAGIC);
	major = pisa_get_le16(b + 4);
	r->minor = pisa_get_le16(b + 6);
	if (major != PISA_IMAGE_VERSION_MAJOR)
		return rfail(r, PISA_E_VERSION, 4, "version %u.%u, this reader reads %d.x",
			     major, r->minor, PISA_IMAGE_VERSION_MAJOR);
	total = pisa_get_le32(b + 8);
	if (total != r->len)
		return rfail(r, PISA_E_FORMAT, 8, "total length %u but the file is %zu bytes",
			     total, r->len);
	nsec = pisa_get_le16(b + 12);
	table_end = HDR_BYTES + (size_t)nsec * SEC_ENT_BYTES;
	if (table_end > r->len)
		return rfail(r, PISA_E_FORMAT, 12, "%u sections need a %zu-byte table, file is %zu bytes",
			     nsec, table_end - HDR_BYTES, r->len);
	crc = pisa_crc32(pisa_crc32(0, b, 16), b + HDR_BYTES, table_end - HDR_BYTES);
	want = pisa_get_le32(b + 16);
	if (crc != want)
		return rfail(r, PISA_E_CRC, 16, "header CRC 0x%08x, computed 0x%08x", want, crc);
	if (pisa_get_le16(b + 14) != 0)
		return rfail(r, PISA_E_FORMAT, 14, "reserved field is not zero");

	prev_end = table_end;
	for (i = 0; i < nsec; i++) {
		const uint8_t *e = b + HDR_BYTES + (size_t)i * SEC_ENT_BYTES;
		size_t eoff = HDR_BYTES + (size_t)i * SEC_ENT_BYTES;
		uint16_t type = pisa_get_le16(e);
		uint32_t off = pisa_get_le32(e + 4), len = pisa_get_le32(e + 8);
		int s = type >= 1 && type <= SEC_COUNT ? type - 1 : SEC_FILE_HEADER;

		/* HWCONF is a 1.1 section, PROFILES a 1.2 one: in an older image
		 * they are unknown types */
		if ((s == SEC_HWCONF && r->minor < 1) || (s == SEC_PROFILES && r->minor < 2))
			s = SEC_FILE_HEADER;

		r->sec = s;
		if (s == SEC_FILE_HEADER && r->minor <= PISA_IMAGE_VERSION_MINOR)
			return rfail(r, PISA_E_FORMAT, eoff, "unknown section type %u in a %u.%u image",
				     type, major, r->minor);
		if (pisa_get_le16(e + 2) != 0)
			return rfail(r, PISA_E_FORMAT, eoff + 2, "reserved field is not zero");
		/* bodies follow the table in order, without gaps: CRCs cover every byte */
		if (off != prev_end || len > r->len - off)
			return rfail(r, PISA_E_FORMAT, eoff + 4,
				     "table entry %u: bytes %u+%u, expected to start at %zu and end by %zu",
				     i, off, len, prev_end, r->len);
		prev_end = (size_t)off + len;
		crc = pisa_crc32(0, b + off, len);
		want = pisa_get_le32(e + 12);
		if (crc != want)
			return rfail(r, PISA_E_CRC, off, "CRC 0x%08x, computed 0x%08x", want, crc);
		if (s == SEC_FILE_HEADER)
			continue;	/* newer minor version: skip what we do not know */
		if (ent[s].present)
			return rfail(r, PISA_E_FORMAT, eoff, "appears twice");
		ent[s].present = 1;
		ent[s].off = off;
		ent[s].len = len;
	}
	r->sec = SEC_FILE_HEADER;
	if (prev_end != r->len)
		return rfail(r, PISA_E_FORMAT, prev_end, "%zu bytes after the last section",
			     r->len - prev_end);
	for (i = 0; i < SEC_REQUIRED; i++) {
		if (!ent[i].present) {
			r->sec = i;
			return rfail(r, PISA_E_FORMAT, HDR_BYTES, "missing from the section table");
		}
	}
	return 0;
}

/* HWCONF is derived from the rest: it must be what this writer makes of the
 * image (a newer minor version may append to it). */
static int check_hwconf(struct rctx *r, const struct pisa_image *img, const struct sec_ent *e)
{
	struct wbuf w = { 0 };
	size_t n;
	int ret = 0;

	w_hwconf(&w, img);
	if (w.oom) {
		free(w.p);
		return -PISA_E_NOMEM;
	}
	r->sec = SEC_HWCONF;
	n = w.len < e->len ? w.len : e->len;
	if (e->len < w.len || (e->len > w.len && r->minor <= PISA_IMAGE_VERSION_MINOR) ||
	    memcmp(r->buf + e->off, w.p, n)) {
		size_t i = 0;

		while (i < n && r->buf[e->off + i] == w.p[i])
			i++;
		ret = rfail(r, PISA_E_FORMAT, e->off + i, "does not match the image (%zu bytes, "
			    "%zu expected): written by another version?", e->len, w.len);
	}
	free(w.p);
	return ret;
}

int pisa_image_read(const uint8_t *buf, size_t len, struct pisa_image **out,
		    char *detail, size_t detail_len)
{
	struct sec_ent ent[SEC_COUNT] = { { 0 } };
	struct locator loc;
	struct rctx r = { buf, len, detail, detail_len, 0, SEC_FILE_HEADER, &loc };
	struct pisa_image *img = NULL;
	struct pisa_rd rd;
	int s, ret;

	memset(&loc, 0, sizeof(loc));
	if (detail && detail_len)
		detail[0] = '\0';
	if (!out)
		return -PISA_E_INVAL;
	*out = NULL;
	if (!buf)
		r.len = 0;
	ret = read_layout(&r, ent);
	if (ret)
		return ret;
	img = calloc(1, sizeof(*img));
	if (!img)
		return -PISA_E_NOMEM;
	/* in type order, whatever the file order: RUNTIME needs the counts */
	for (s = 0; s < SEC_REQUIRED; s++) {
		r.sec = s;
		loc.sec_off[s] = ent[s].off;
		pisa_rd_init(&rd, buf, ent[s].off, ent[s].off + ent[s].len);
		ret = decoders[s](&r, &rd, img);
		if (ret)
			goto fail;
		/* a newer minor version may append fields to a section */
		if (pisa_rd_left(&rd) && r.minor <= PISA_IMAGE_VERSION_MINOR) {
			ret = rfail(&r, PISA_E_FORMAT, rd.pos, "%zu bytes after the last field",
				    pisa_rd_left(&rd));
			goto fail;
		}
	}
	if (ent[SEC_PROFILES].present) {
		r.sec = SEC_PROFILES;
		loc.sec_off[SEC_PROFILES] = ent[SEC_PROFILES].off;
		pisa_rd_init(&rd, buf, ent[SEC_PROFILES].off,
			     ent[SEC_PROFILES].off + ent[SEC_PROFILES].len);
		ret = dec_profiles(&r, &rd, img);
		if (!ret && pisa_rd_left(&rd) && r.minor <= PISA_IMAGE_VERSION_MINOR)
			ret = rfail(&r, PISA_E_FORMAT, rd.pos, "%zu bytes after the last field",
				    pisa_rd_left(&rd));
		if (ret)
			goto fail;
	}
	ret = check(img, detail, detail_len, &loc);
	if (ret)
		goto fail;
	if (ent[SEC_HWCONF].present) {
		ret = check_hwconf(&r, img, &ent[SEC_HWCONF]);
		if (ret)
			goto fail;
	}
	loc_free(&loc);
	*out = img;
	return 0;
fail:
	if (ret == -PISA_E_NOMEM && detail && detail_len)
		snprintf(detail, detail_len, "section %s: out of memory", sec_name(r.sec));
	loc_free(&loc);
	pisa_image_free(img);
	return ret;
}

int pisa_image_read_file(const char *path, struct pisa_image **out,
			 char *detail, size_t detail_len)
{
	uint8_t *buf;
	size_t len;
	int ret;

	if (detail && detail_len)
		detail[0] = '\0';
	if (!out || !path)
		return -PISA_E_INVAL;
	*out = NULL;
	ret = pisa_file_read(path, MAX_FILE, &buf, &len);
	if (ret == -PISA_E_IO && detail && detail_len)
		snprintf(detail, detail_len, "file %s: %s", path, strerror(errno));
	else if (ret == -PISA_E_RANGE && detail && detail_len)
		snprintf(detail, detail_len, "file %s: larger than %u bytes", path, MAX_FILE);
	if (ret)
		return ret;
	ret = pisa_image_read(buf, len, out, detail, detail_len);
	free(buf);
	return ret;
}
