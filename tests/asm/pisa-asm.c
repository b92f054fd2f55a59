/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa-asm: assembles a hand-written .pasm file into an OpenPISA config
 * image. Each statement maps onto one structure of lib/pisa_image.h; the
 * assembler only lays out the PHV and action data, resolves names and
 * derives the numbers the image repeats (key_bits, rows, ids).
 * The language is documented in tests/asm/README.md.
 *
 * Two passes over the tokens: the first lays out headers and metadata (the
 * validity bits come first, so every header must be known before any field
 * has an offset), the second reads everything else. Names that may point
 * forward (parser states, tables) are resolved at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "pisa_image.h"
#include "pisa_switch.h"

/* P4Runtime p4info id prefixes (p4info.proto enum P4Ids.Prefix); id = prefix << 24 | (index + 1). */
#define P4ID_ACTION 0x01
#define P4ID_TABLE 0x02
#define P4ID_COUNTER 0x12
#define P4ID_DIRECT_COUNTER 0x13
#define P4ID_METER 0x14
#define P4ID_DIRECT_METER 0x15
#define P4ID_REGISTER 0x16
#define P4ID_DIGEST 0x17

#define MAX_PHV_BYTES 8191	/* bit offsets are 16 bits wide */
#define MAX_ITEMS 0xFFF0	/* ids are 16 bits, a few values are reserved */
#define MAX_FIELD_BITS 4096

/* ---- Symbols ---- */

struct fdef {
	char *name;
	uint32_t off;		/* bits from the start of its header or struct */
	uint32_t width;
};

struct scope {			/* a header or a metadata struct */
	char *name;
	char *rt;		/* "hdr.ipv4", "meta" */
	int is_hdr;
	uint16_t hdr;		/* header id */
	uint16_t bytes, fixed;
	uint32_t bitoff;	/* PHV bit of its first bit */
	uint32_t bits;
	struct fdef *f;
	size_t nf, capf;
	const struct tok *at;
};

struct stackdef {
	char *name;
	uint16_t first, size;
};

struct tinfo {			/* what a table statement said, kept for the end */
	const struct tok *at;
	char *next_name, *hit_name, *miss_name;
	const struct tok *next_at, *hit_at, *miss_at;
	char **act_next;	/* per table action, or NULL */
	const struct tok **act_next_at;
	uint32_t decl;		/* declaration index */
};

enum fix_kind { FIX_ROW, FIX_HIT, FIX_MISS, FIX_ACT, FIX_ISTART, FIX_ESTART };

struct fixup {
	enum fix_kind kind;
	size_t a, b;		/* state+row, or table (declaration index) + action */
	char *name;
	const struct tok *at;
};

struct fref {			/* a resolved field: PHV bits, or action data bits */
	uint32_t bitoff, width;
	char *rt;		/* control-plane name, if it has one */
};

static struct toks g_t;
static size_t g_p;
static int g_pass;

static struct pisa_image img;
static size_t cap_hdr, cap_stk, cap_st, cap_tab, cap_act, cap_cnt, cap_reg, cap_met, cap_fl,
	cap_hu, cap_dg, cap_cs, cap_dp, cap_err;
static size_t cap_rtab, cap_ract, cap_rcnt, cap_rreg, cap_rmet, cap_rdg, cap_cat, cap_mat;
static const struct tok **cnt_at, **met_at;	/* where each counter / meter was declared */
static struct scope *scopes;
static size_t nscopes, cap_scopes;
static struct stackdef *stacks;
static char **state_names;
static const struct tok **state_at;
static size_t cap_stn, cap_sta;
static struct tinfo *tinfos;
static size_t cap_ti;
static char **fl_names, **hu_names;
static size_t cap_fln, cap_hun;
static char **err_names;
static struct fixup *fixups;
static size_t nfixups, cap_fix;
static uint32_t phv_bits_used;
static int phv_bytes_given;
static const char *parser_start_name;
static const struct tok *parser_start_at;
static char *istart_name, *estart_name;
static const struct tok *istart_at, *estart_at;
static int deparse_given;
static size_t cap_crow;

/* ---- Token helpers ---- */

static const struct tok *peek(void)
{
	return &g_t.v[g_p];
}

static const struct tok *peek2(void)
{
	return g_p + 1 < g_t.n ? &g_t.v[g_p + 1] : &g_t.v[g_t.n - 1];
}

static const struct tok *next(void)
{
	const struct tok *t = &g_t.v[g_p];

	if (t->kind != T_EOF)
		g_p++;
	return t;
}

static int is_p(const struct tok *t, const char *p)
{
	return t->kind == T_PUNCT && strcmp(t->s, p) == 0;
}

static int is_w(const struct tok *t, const char *w)
{
	return t->kind == T_IDENT && strcmp(t->s, w) == 0;
}

static int accept_p(const char *p)
{
	if (is_p(peek(), p)) {
		next();
		return 1;
	}
	return 0;
}

static int accept_w(const char *w)
{
	if (is_w(peek(), w)) {
		next();
		return 1;
	}
	return 0;
}

static void expect_p(const char *p)
{
	const struct tok *t = peek();

	if (!is_p(t, p))
		asm_die_tok(t, "expected '%s', found %s", p, asm_tokdesc(t));
	next();
}

static const struct tok *expect_ident(const char *what)
{
	const struct tok *t = peek();

	if (t->kind != T_IDENT)
		asm_die_tok(t, "expected %s, found %s", what, asm_tokdesc(t));
	return next();
}

static uint64_t expect_num(const char *what, uint64_t lo, uint64_t hi)
{
	const struct tok *t = peek();

	if (t->kind != T_NUM)
		asm_die_tok(t, "expected %s, found %s", what, asm_tokdesc(t));
	if (t->num < lo || t->num > hi)
		asm_die_tok(t, "%s %llu out of range %llu..%llu", what, (unsigned long long)t->num,
			    (unsigned long long)lo, (unsigned long long)hi);
	return next()->num;
}

static const char *expect_str(const char *what)
{
	const struct tok *t = peek();

	if (t->kind != T_STR)
		asm_die_tok(t, "expected %s (a quoted string), found %s", what, asm_tokdesc(t));
	return next()->s;
}

/* Ends a statement: ';' (optional after a '}'). */
static void end_stmt(void)
{
	expect_p(";");
}

/*
 * Skips one top-level statement: up to ';' at depth 0, or (block_ends) up to
 * the '}' closing its block. Statements that may hold an inline field list
 * ("hash h crc16 { a, b } ;") pass block_ends = 0.
 */
static void skip_stmt(int block_ends)
{
	const struct tok *open = NULL;
	int depth = 0;

	for (;;) {
		const struct tok *t = next();

		if (t->kind == T_EOF) {
			if (open)
				asm_die_tok(open, "'{' is never closed");
			asm_die_tok(t, "expected ';', found end of file");
		}
		if (is_p(t, "{")) {
			if (!depth)
				open = t;
			depth++;
		} else if (is_p(t, "}")) {
			if (!depth)
				asm_die_tok(t, "unexpected '}'");
			if (--depth == 0 && block_ends) {
				accept_p(";");
				return;
			}
		} else if (is_p(t, ";") && !depth) {
			return;
		}
	}
}

static uint64_t width_max(uint32_t w)
{
	return w >= 64 ? UINT64_MAX : (((uint64_t)1 << w) - 1);
}

/* ---- Names ---- */

/* Equal, or name ends with "." + q (BMv2-style unique suffix). */
static int name_matches(const char *name, const char *q)
{
	size_t n = strlen(name), m = strlen(q);

	if (n == m)
		return strcmp(name, q) == 0;
	return n > m && name[n - m - 1] == '.' && strcmp(name + n - m, q) == 0;
}

/* Index of the entry named q (exact, else unique suffix), -1 if none. */
static long find_named(const char *q, size_t n, const char *(*get)(size_t), const struct tok *at,
		       const char *what)
{
	long found = -1;

	for (size_t i = 0; i < n; i++) {
		const char *s = get(i);

		if (s && strcmp(s, q) == 0)
			return (long)i;
	}
	for (size_t i = 0; i < n; i++) {
		const char *s = get(i);

		if (s && name_matches(s, q)) {
			if (found >= 0)
				asm_die_tok(at, "%s name '%s' is ambiguous: '%s' or '%s'", what, q,
					    get((size_t)found), s);
			found = (long)i;
		}
	}
	return found;
}

static const char *get_table(size_t i) { return img.rt_tables[i].name; }
static const char *get_action(size_t i) { return img.rt_actions[i].name; }
static const char *get_counter(size_t i) { return img.rt_counters[i].name; }
static const char *get_register(size_t i) { return img.rt_registers[i].name; }
static const char *get_meter(size_t i) { return img.rt_meters[i].name; }
static const char *get_digest(size_t i) { return img.rt_digests[i].name; }
static const char *get_flist(size_t i) { return fl_names[i]; }
static const char *get_hunit(size_t i) { return hu_names[i]; }
static const char *get_state(size_t i) { return state_names[i]; }
static const char *get_error(size_t i) { return err_names[i]; }

static void check_unique(const char *name, size_t n, const char *(*get)(size_t),
			 const struct tok *at, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = get(i);

		if (s && strcmp(s, name) == 0)
			asm_die_tok(at, "%s '%s' is already defined", what, name);
	}
}

static uint16_t lookup(const struct tok *t, size_t n, const char *(*get)(size_t), const char *what)
{
	long i = find_named(t->s, n, get, t, what);

	if (i < 0)
		asm_die_tok(t, "unknown %s '%s'", what, t->s);
	return (uint16_t)i;
}

static struct scope *find_scope(const char *name, size_t len)
{
	for (size_t i = 0; i < nscopes; i++)
		if (strlen(scopes[i].name) == len && strncmp(scopes[i].name, name, len) == 0)
			return &scopes[i];
	return NULL;
}

static struct scope *find_header(const struct tok *t)
{
	struct scope *s = find_scope(t->s, strlen(t->s));

	if (!s && strncmp(t->s, "hdr.", 4) == 0)
		s = find_scope(t->s + 4, strlen(t->s) - 4);
	if (!s || !s->is_hdr)
		asm_die_tok(t, "unknown header '%s'", t->s);
	return s;
}

static long find_stack(const char *name)
{
	for (uint16_t i = 0; i < img.nstacks; i++)
		if (strcmp(stacks[i].name, name) == 0)
			return i;
	return -1;
}

struct smdef {
	const char *name;
	struct pisa_field f;
};

static const struct smdef sm_fields[] = {
	{ "ingress_port", PISA_SM_INGRESS_PORT },
	{ "egress_spec", PISA_SM_EGRESS_SPEC },
	{ "egress_port", PISA_SM_EGRESS_PORT },
	{ "mcast_grp", PISA_SM_MCAST_GRP },
	{ "egress_rid", PISA_SM_EGRESS_RID },
	{ "checksum_error", PISA_SM_CHECKSUM_ERROR },
	{ "priority", PISA_SM_PRIORITY },
	{ "instance_type", PISA_SM_INSTANCE_TYPE },
	{ "packet_length", PISA_SM_PACKET_LENGTH },
	{ "enq_timestamp", PISA_SM_ENQ_TIMESTAMP },
	{ "enq_qdepth", PISA_SM_ENQ_QDEPTH },
	{ "deq_timedelta", PISA_SM_DEQ_TIMEDELTA },
	{ "deq_qdepth", PISA_SM_DEQ_QDEPTH },
	{ "parser_error", PISA_SM_PARSER_ERROR },
	{ "ingress_global_timestamp", PISA_SM_INGRESS_GLOBAL_TIMESTAMP },
	{ "egress_global_timestamp", PISA_SM_EGRESS_GLOBAL_TIMESTAMP },
};

static const struct smdef im_fields[] = {
	{ "clone_session", PISA_IM_CLONE_SESSION },
	{ "clone_type", PISA_IM_CLONE_TYPE },
	{ "clone_flist", PISA_IM_CLONE_FLIST },
	{ "resubmit_flist", PISA_IM_RESUBMIT_FLIST },
	{ "recirc_flist", PISA_IM_RECIRC_FLIST },
	{ "truncate_len", PISA_IM_TRUNCATE_LEN },
};

static int find_sm(const struct smdef *tab, size_t n, const char *name, struct fref *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(tab[i].name, name) == 0) {
			out->bitoff = tab[i].f.bitoff;
			out->width = tab[i].f.width;
			return 1;
		}
	}
	return 0;
}

/* Resolves "ipv4.ttl", "meta.nhop", "sm.egress_spec" to PHV bits. */
static void resolve_field(const struct tok *t, struct fref *out)
{
	const char *name = t->s, *dot = strrchr(name, '.');
	struct scope *s;

	memset(out, 0, sizeof(*out));
	if (strncmp(name, "sm.", 3) == 0 || strncmp(name, "standard_metadata.", 18) == 0) {
		const char *f = strchr(name, '.') + 1;

		if (!find_sm(sm_fields, sizeof(sm_fields) / sizeof(sm_fields[0]), f, out))
			asm_die_tok(t, "unknown standard metadata field '%s'", f);
		out->rt = asm_fmt("standard_metadata.%s", f);
		return;
	}
	if (strncmp(name, "im.", 3) == 0) {
		if (!find_sm(im_fields, sizeof(im_fields) / sizeof(im_fields[0]), name + 3, out))
			asm_die_tok(t, "unknown intrinsic metadata field '%s'", name + 3);
		out->rt = asm_fmt("intrinsic.%s", name + 3);
		return;
	}
	if (!dot)
		asm_die_tok(t, "unknown name '%s'", name);
	s = find_scope(name, (size_t)(dot - name));
	if (!s && strncmp(name, "hdr.", 4) == 0)
		s = find_scope(name + 4, (size_t)(dot - name - 4));
	if (!s)
		asm_die_tok(t, "unknown header or metadata '%.*s' in '%s'", (int)(dot - name), name,
			    name);
	for (size_t i = 0; i < s->nf; i++) {
		if (strcmp(s->f[i].name, dot + 1) == 0) {
			out->bitoff = s->bitoff + s->f[i].off;
			out->width = s->f[i].width;
			out->rt = asm_fmt("%s.%s", s->rt, dot + 1);
			return;
		}
	}
	asm_die_tok(t, "%s '%s' has no field '%s'", s->is_hdr ? "header" : "metadata", s->name,
		    dot + 1);
}

/* ---- Layout pass: headers and metadata ---- */

/*
 * header NAME[N]? BYTES [fixed N] [name "rt"] { FIELD WIDTH; ... }
 * metadata NAME [name "rt"] { FIELD WIDTH; ... }
 */
static void parse_scope(int is_hdr)
{
	const struct tok *nt = expect_ident(is_hdr ? "header name" : "metadata name");
	char *name = asm_strdup(nt->s), *rt = NULL, *br;
	uint32_t bytes = 0, fixed = 0, count = 1, bits = 0;
	struct scope proto;
	int is_stack = 0;

	memset(&proto, 0, sizeof(proto));
	br = strchr(name, '[');
	if (br) {
		char *end;
		unsigned long v;

		if (!is_hdr)
			asm_die_tok(nt, "metadata cannot be a stack");
		v = strtoul(br + 1, &end, 10);
		if (strchr(br + 1, '[') || strchr(name, '.') || *end != ']' || end[1] || v < 1 ||
		    v > 256)
			asm_die_tok(nt, "bad header stack '%s': write name[N], N in 1..256", name);
		*br = 0;
		count = (uint32_t)v;
		is_stack = 1;
	}
	if (strchr(name, '.'))
		asm_die_tok(nt, "header and metadata names cannot contain '.'");
	if (find_scope(name, strlen(name)) || find_stack(name) >= 0 || strcmp(name, "sm") == 0 ||
	    strcmp(name, "im") == 0 || strcmp(name, "standard_metadata") == 0)
		asm_die_tok(nt, "'%s' is already defined", name);
	if (is_hdr)
		bytes = (uint32_t)expect_num("header length in bytes", 1, 1024);
	for (;;) {
		if (is_hdr && accept_w("fixed")) {
			fixed = (uint32_t)expect_num("fixed length in bytes", 0, bytes);
		} else if (accept_w("name")) {
			rt = asm_strdup(expect_str("runtime name"));
		} else {
			break;
		}
	}
	if (!fixed)
		fixed = bytes;
	proto.name = name;
	proto.is_hdr = is_hdr;
	proto.at = nt;
	expect_p("{");
	while (!accept_p("}")) {
		const struct tok *ft = expect_ident("field name");
		uint32_t w;

		if (strchr(ft->s, '.') || strchr(ft->s, '['))
			asm_die_tok(ft, "field names cannot contain '.' or '['");
		for (size_t i = 0; i < proto.nf; i++)
			if (strcmp(proto.f[i].name, ft->s) == 0)
				asm_die_tok(ft, "field '%s' is already defined", ft->s);
		w = (uint32_t)expect_num("field width in bits", 1, MAX_FIELD_BITS);
		end_stmt();
		proto.f = asm_grow(proto.f, &proto.capf, proto.nf + 1, sizeof(*proto.f));
		proto.f[proto.nf].name = asm_strdup(ft->s);
		proto.f[proto.nf].off = bits;
		proto.f[proto.nf].width = w;
		proto.nf++;
		bits += w;
		if (bits > MAX_FIELD_BITS * 2)
			asm_die_tok(ft, "too many field bits");
	}
	accept_p(";");
	if (is_hdr && bits != bytes * 8)
		asm_die_tok(nt, "header '%s' is %u bytes but its fields add up to %u bits (not %u)",
			    name, bytes, bits, bytes * 8);
	if (!is_hdr)
		bytes = (bits + 7) / 8;
	if (is_stack) {
		if (img.nstacks >= MAX_ITEMS)
			asm_die_tok(nt, "too many stacks");
		img.stacks = asm_grow(img.stacks, &cap_stk, img.nstacks + 1, sizeof(*img.stacks));
	}
	for (uint32_t k = 0; k < count; k++) {
		struct scope *s;

		if (is_hdr && img.nheaders >= 1024)
			asm_die_tok(nt, "too many headers");
		scopes = asm_grow(scopes, &cap_scopes, nscopes + 1, sizeof(*scopes));
		s = &scopes[nscopes++];
		*s = proto;
		s->name = is_stack ? asm_fmt("%s[%u]", name, k) : name;
		s->bytes = (uint16_t)bytes;
		s->fixed = (uint16_t)fixed;
		s->bits = bits;
		if (is_hdr) {
			s->hdr = img.nheaders++;
			if (rt)
				s->rt = is_stack ? asm_fmt("%s[%u]", rt, k) : rt;
			else
				s->rt = asm_fmt("hdr.%s", s->name);
		} else {
			s->rt = rt ? rt : name;
		}
	}
	if (is_stack) {
		static size_t cap_sd;

		stacks = asm_grow(stacks, &cap_sd, img.nstacks + 1, sizeof(*stacks));
		stacks[img.nstacks].name = name;
		stacks[img.nstacks].first = (uint16_t)(img.nheaders - count);
		stacks[img.nstacks].size = (uint16_t)count;
		img.stacks[img.nstacks].first_header = (uint16_t)(img.nheaders - count);
		img.stacks[img.nstacks].size = (uint16_t)count;
		img.nstacks++;
	}
}

/* Places the validity bits, then every header, then every metadata struct. */
static void layout(void)
{
	uint32_t byte = PISA_PHV_FIXED_BYTES + (img.nheaders + 7u) / 8u;

	img.headers = asm_alloc(sizeof(*img.headers) * (img.nheaders ? img.nheaders : 1));
	cap_hdr = img.nheaders;
	for (size_t i = 0; i < nscopes; i++) {
		struct scope *s = &scopes[i];

		if (!s->is_hdr)
			continue;
		s->bitoff = byte * 8;
		img.headers[s->hdr].phv_byte = (uint16_t)byte;
		img.headers[s->hdr].bytes = s->bytes;
		img.headers[s->hdr].fixed_bytes = s->fixed;
		byte += s->bytes;
		if (byte > MAX_PHV_BYTES)
			asm_die_tok(s->at, "the PHV is full (more than %d bytes)", MAX_PHV_BYTES);
	}
	for (size_t i = 0; i < nscopes; i++) {
		struct scope *s = &scopes[i];

		if (s->is_hdr)
			continue;
		s->bitoff = byte * 8;
		byte += (s->bits + 7) / 8;
		if (byte > MAX_PHV_BYTES)
			asm_die_tok(s->at, "the PHV is full (more than %d bytes)", MAX_PHV_BYTES);
	}
	phv_bits_used = byte * 8;
}

/* ---- Operands ---- */

enum { K_PHV = 1, K_CONST = 2, K_ADATA = 4, K_PKT = 8 };

struct ctx {
	int in_parser;
	uint16_t act;		/* action being assembled, if !in_parser */
	int in_action;
};

struct opnd {
	struct pisa_operand o;
	int untyped;		/* a constant written without ':width' */
	const struct tok *at;
};

static long find_param(const struct ctx *c, const char *name)
{
	struct pisa_rt_action *a;

	if (!c || !c->in_action)
		return -1;
	a = &img.rt_actions[c->act];
	for (uint16_t i = 0; i < a->nparams; i++)
		if (strcmp(a->params[i].name, name) == 0)
			return i;
	return -1;
}

static const char *kinds_desc(int allow)
{
	static char buf[64];

	buf[0] = 0;
	if (allow & K_PHV)
		strcat(buf, "/field");
	if (allow & K_CONST)
		strcat(buf, "/constant");
	if (allow & K_ADATA)
		strcat(buf, "/action parameter");
	if (allow & K_PKT)
		strcat(buf, "/pkt()");
	return buf[0] ? buf + 1 : "nothing";
}

/*
 * operand := NUM [':' WIDTH] | valid '(' HEADER ')' | phv '(' OFF ',' W ')'
 *          | adata '(' OFF ',' W ')' | pkt '(' OFF ',' W ')' | FIELD | PARAM | '$'PARAM
 *          followed by an optional slice '[' HI ':' LO ']' (not on constants)
 */
static struct opnd parse_operand(const struct ctx *c, int allow, char **rt)
{
	const struct tok *t = peek();
	struct opnd r;
	uint32_t off = 0, width = 0;
	char *name = NULL;
	int kind;

	memset(&r, 0, sizeof(r));
	r.at = t;
	if (rt)
		*rt = NULL;
	if (t->kind == T_NUM) {
		next();
		r.o.kind = PISA_OPND_CONST;
		r.o.value = t->num;
		if (accept_p(":")) {
			const struct tok *wt = peek();

			r.o.width = (uint16_t)expect_num("constant width", 1, 64);
			if (t->num > width_max(r.o.width))
				asm_die_tok(wt, "constant %s does not fit in %u bits", t->s,
					    r.o.width);
		} else {
			r.untyped = 1;
		}
		if (!(allow & K_CONST))
			asm_die_tok(t, "a constant is not allowed here (expected %s)",
				    kinds_desc(allow));
		return r;
	}
	if (t->kind != T_IDENT)
		asm_die_tok(t, "expected an operand (%s), found %s", kinds_desc(allow),
			    asm_tokdesc(t));
	next();
	if (is_p(peek(), "(") &&
	    (is_w(t, "valid") || is_w(t, "phv") || is_w(t, "adata") || is_w(t, "pkt"))) {
		next();
		if (is_w(t, "valid")) {
			const struct tok *ht = expect_ident("header name");
			struct scope *s = find_header(ht);

			kind = PISA_OPND_PHV;
			off = PISA_VALID_BIT(s->hdr);
			width = 1;
			name = asm_fmt("%s.$valid$", s->rt);
		} else {
			kind = is_w(t, "phv") ? PISA_OPND_PHV :
			       is_w(t, "adata") ? PISA_OPND_ADATA : PISA_OPND_PKT;
			off = (uint32_t)expect_num("bit offset", 0, 65535);
			expect_p(",");
			width = (uint32_t)expect_num("width", 1, 64);
			if (off + width > 65536)
				asm_die_tok(t, "bits %u..%u are out of range", off, off + width - 1);
		}
		expect_p(")");
	} else {
		const char *pn = t->s[0] == '$' ? t->s + 1 : t->s;
		long pi = find_param(c, pn);

		if (t->s[0] == '$' && pi < 0)
			asm_die_tok(t, "unknown action parameter '%s'", pn);
		if (pi >= 0) {
			struct pisa_rt_param *p = &img.rt_actions[c->act].params[pi];

			kind = PISA_OPND_ADATA;
			off = p->adata_off;
			width = p->width;
			name = asm_strdup(pn);
		} else if (!strchr(t->s, '.') && !c) {
			asm_die_tok(t, "unknown name '%s'", t->s);
		} else if (!strchr(t->s, '.')) {
			asm_die_tok(t, "unknown name '%s'%s", t->s,
				    c->in_action ? " (not a parameter of this action)" : "");
		} else {
			struct fref f;

			resolve_field(t, &f);
			kind = PISA_OPND_PHV;
			off = f.bitoff;
			width = f.width;
			name = f.rt;
		}
	}
	if (accept_p("[")) {
		const struct tok *st = peek();
		uint32_t hi = (uint32_t)expect_num("slice high bit", 0, 65535), lo;

		expect_p(":");
		lo = (uint32_t)expect_num("slice low bit", 0, 65535);
		expect_p("]");
		if (hi < lo || hi >= width)
			asm_die_tok(st, "slice [%u:%u] of a %u-bit value: need %u >= hi >= lo", hi,
				    lo, width, width - 1);
		off += width - 1 - hi;
		width = hi - lo + 1;
		if (name)
			name = asm_fmt("%s[%u:%u]", name, hi, lo);
	}
	if (width > 64)
		asm_die_tok(t, "'%s' is %u bits wide; an operand has at most 64 bits (use a slice "
			    "[hi:lo])", t->s, width);
	if ((kind == PISA_OPND_PHV && !(allow & K_PHV)) ||
	    (kind == PISA_OPND_ADATA && !(allow & K_ADATA)) ||
	    (kind == PISA_OPND_PKT && !(allow & K_PKT))) {
		const char *what = kind == PISA_OPND_PHV ? "a field" :
				   kind == PISA_OPND_ADATA ? "an action parameter" :
				   "packet lookahead";

		asm_die_tok(t, "%s is not allowed here (expected %s)", what, kinds_desc(allow));
	}
	if (kind == PISA_OPND_ADATA && (!c || !c->in_action))
		asm_die_tok(t, "action data exists only in actions");
	if (kind == PISA_OPND_PKT && (!c || !c->in_parser))
		asm_die_tok(t, "pkt() exists only in parser states");
	r.o.kind = (uint8_t)kind;
	r.o.off = (uint16_t)off;
	r.o.width = (uint16_t)width;
	if (rt)
		*rt = name;
	return r;
}

/* A PHV field for keys, field lists and checksum destinations. */
static struct pisa_field parse_field(char **rt)
{
	struct opnd o = parse_operand(NULL, K_PHV, rt);
	struct pisa_field f = { o.o.off, o.o.width };

	return f;
}

/* ---- Instructions ---- */

struct opdef {
	const char *name;
	uint8_t op;
	const char *sig;
};

/*
 * Signature letters: D dst field; A / B sources a / b; H header (imm);
 * h source header (a = its id); J skip count or forward label (imm);
 * C counter, R register, M meter, U hash unit, G digest, S stack (imm);
 * T clone type (imm); f / F field list or 'none' in a / b (as id + 1);
 * a optional index a (0 when left out).
 */
static const struct opdef opdefs[] = {
	{ "nop", PISA_NOP, "" },	{ "set", PISA_SET, "DA" },
	{ "add", PISA_ADD, "DAB" },	{ "sub", PISA_SUB, "DAB" },
	{ "addc", PISA_ADDC, "DAB" },	{ "subc", PISA_SUBC, "DAB" },
	{ "addsat", PISA_ADDSAT, "DAB" }, { "subsat", PISA_SUBSAT, "DAB" },
	{ "mul", PISA_MUL, "DAB" },	{ "and", PISA_AND, "DAB" },
	{ "or", PISA_OR, "DAB" },	{ "xor", PISA_XOR, "DAB" },
	{ "not", PISA_NOT, "DA" },	{ "shl", PISA_SHL, "DAB" },
	{ "shr", PISA_SHR, "DAB" },	{ "eq", PISA_EQ, "DAB" },
	{ "ne", PISA_NE, "DAB" },	{ "lt", PISA_LT, "DAB" },
	{ "le", PISA_LE, "DAB" },	{ "gt", PISA_GT, "DAB" },
	{ "ge", PISA_GE, "DAB" },	{ "min", PISA_MIN, "DAB" },
	{ "max", PISA_MAX, "DAB" },	{ "jz", PISA_JZ, "AJ" },
	{ "jnz", PISA_JNZ, "AJ" },	{ "setvalid", PISA_SETVALID, "H" },
	{ "setinvalid", PISA_SETINVALID, "H" }, { "copyhdr", PISA_COPYHDR, "Hh" },
	{ "exit", PISA_EXIT, "" },	{ "count", PISA_COUNT, "Ca" },
	{ "reg_read", PISA_REG_READ, "DRA" }, { "reg_write", PISA_REG_WRITE, "RAB" },
	{ "meter", PISA_METER, "DMA" }, { "dmeter", PISA_DMETER, "DM" },
	{ "hash", PISA_HASH, "DUAB" },	{ "random", PISA_RANDOM, "DAB" },
	{ "clone", PISA_CLONE, "TAF" }, { "resubmit", PISA_RESUBMIT, "f" },
	{ "recirculate", PISA_RECIRCULATE, "f" }, { "truncate", PISA_TRUNCATE, "A" },
	{ "digest", PISA_DIGEST, "G" }, { "drop", PISA_DROP, "" },
	{ "extract", PISA_EXTRACT, "H" }, { "extract_stack", PISA_EXTRACT_STACK, "S" },
	{ "extract_var", PISA_EXTRACT_VAR, "HA" }, { "advance", PISA_ADVANCE, "A" },
};

static int parser_only(uint8_t op)
{
	return op >= PISA_EXTRACT;
}

struct label {
	char *name;
	size_t at;		/* index of the instruction it stands before */
};

struct jump {
	size_t insn;
	const struct tok *t;
};

struct code {
	struct pisa_insn *v;
	size_t n, cap;
	struct label *labels;
	size_t nlabels, caplabels;
	struct jump *jumps;
	size_t njumps, capjumps;
};

static uint16_t field_list_opnd(const struct tok *t)
{
	if (is_w(t, "none"))
		return 0;
	return (uint16_t)(lookup(t, img.nfield_lists, get_flist, "field list") + 1);
}

/* Width for a constant written without one: its sibling source, else dst, else 32/64. */
static void infer_width(struct opnd *o, const struct opnd *sib, const struct opnd *dst)
{
	uint32_t w;

	if (!o->untyped)
		return;
	if (sib && sib->o.kind != PISA_OPND_NONE && !sib->untyped)
		w = sib->o.width;
	else if (dst && dst->o.kind == PISA_OPND_PHV)
		w = dst->o.width;
	else
		w = o->o.value > 0xFFFFFFFFu ? 64 : 32;
	if (o->o.value > width_max(w))
		asm_die_tok(o->at, "constant %s does not fit in %u bits (the width of the other "
			    "operand); write it as value:width", o->at->s, w);
	o->o.width = (uint16_t)w;
	o->untyped = 0;
}

static void parse_insn(const struct ctx *c, struct code *code, const struct tok *mt)
{
	char mn[32];
	const struct opdef *d = NULL;
	struct pisa_insn in;
	struct opnd dst, a, b;
	int srcs;
	size_t len = strlen(mt->s);

	memset(&in, 0, sizeof(in));
	memset(&dst, 0, sizeof(dst));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (len >= sizeof(mn))
		asm_die_tok(mt, "unknown instruction '%s'", mt->s);
	memcpy(mn, mt->s, len + 1);
	if (len > 2 && strcmp(mn + len - 2, ".s") == 0) {
		mn[len - 2] = 0;
		in.flags |= PISA_INSN_SIGNED;
	}
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (strcmp(opdefs[i].name, mn) == 0)
			d = &opdefs[i];
	if (!d)
		asm_die_tok(mt, "unknown instruction '%s'", mt->s);
	if ((in.flags & PISA_INSN_SIGNED) && (d->op < PISA_SET || d->op > PISA_MAX))
		asm_die_tok(mt, "'%s' has no signed form", d->name);
	if (c->in_parser && d->op > PISA_SETINVALID && !parser_only(d->op))
		asm_die_tok(mt, "'%s' cannot run in a parser state", d->name);
	if (!c->in_parser && parser_only(d->op))
		asm_die_tok(mt, "'%s' runs only in parser states", d->name);
	in.op = d->op;
	srcs = K_PHV | K_CONST | (c->in_action ? K_ADATA : 0) | (c->in_parser ? K_PKT : 0);
	for (const char *s = d->sig; *s; s++) {
		const struct tok *t;

		if (s != d->sig) {
			if (*s == 'a' && is_p(peek(), ";")) {
				a.o.kind = PISA_OPND_CONST;
				a.o.width = 1;
				continue;
			}
			expect_p(",");
		}
		t = peek();
		switch (*s) {
		case 'D':
			dst = parse_operand(c, K_PHV, NULL);
			break;
		case 'A':
		case 'a':
			a = parse_operand(c, srcs, NULL);
			break;
		case 'B':
			b = parse_operand(c, srcs, NULL);
			break;
		case 'H': {
			struct scope *h = find_header(expect_ident("header name"));

			in.imm = h->hdr;
			break;
		}
		case 'h': {
			struct scope *h = find_header(expect_ident("header name"));

			if (img.headers[h->hdr].bytes != img.headers[in.imm].bytes)
				asm_die_tok(t, "copyhdr needs headers of the same length (%u and %u "
					    "bytes)", img.headers[in.imm].bytes,
					    img.headers[h->hdr].bytes);
			a.o.kind = PISA_OPND_CONST;
			a.o.width = 16;
			a.o.value = h->hdr;
			break;
		}
		case 'J':
			if (t->kind == T_NUM) {
				in.imm = (uint16_t)expect_num("skip count", 0, 0xFFFF);
			} else {
				expect_ident("label or skip count");
				code->jumps = asm_grow(code->jumps, &code->capjumps, code->njumps + 1,
						       sizeof(*code->jumps));
				code->jumps[code->njumps].insn = code->n;
				code->jumps[code->njumps].t = t;
				code->njumps++;
			}
			break;
		case 'C':
			in.imm = lookup(expect_ident("counter name"), img.ncounters, get_counter,
					"counter");
			break;
		case 'R':
			in.imm = lookup(expect_ident("register name"), img.nregisters,
					get_register, "register");
			break;
		case 'M':
			in.imm = lookup(expect_ident("meter name"), img.nmeters, get_meter,
					"meter");
			if ((d->op == PISA_DMETER) != (img.meters[in.imm].direct_table != -1))
				asm_die_tok(t, "meter '%s' is %s: use '%s'", t->s,
					    d->op == PISA_DMETER ? "not direct" : "direct",
					    d->op == PISA_DMETER ? "meter" : "dmeter");
			break;
		case 'U':
			in.imm = lookup(expect_ident("hash unit name"), img.nhash_units,
					get_hunit, "hash unit");
			break;
		case 'G':
			in.imm = lookup(expect_ident("digest name"), img.ndigests, get_digest,
					"digest");
			break;
		case 'S': {
			long si;

			expect_ident("stack name");
			si = find_stack(t->s);
			if (si < 0)
				asm_die_tok(t, "unknown header stack '%s'", t->s);
			in.imm = (uint16_t)si;
			break;
		}
		case 'T':
			if (accept_w("i2e")) {
				in.imm = PISA_CLONE_I2E;
			} else if (accept_w("e2e")) {
				in.imm = PISA_CLONE_E2E;
			} else {
				asm_die_tok(t, "expected clone type i2e or e2e, found %s",
					    asm_tokdesc(t));
			}
			break;
		case 'f':
		case 'F': {
			struct opnd *o = *s == 'f' ? &a : &b;

			expect_ident("field list name or 'none'");
			o->o.kind = PISA_OPND_CONST;
			o->o.width = 8;
			o->o.value = field_list_opnd(t);
			break;
		}
		}
	}
	end_stmt();
	infer_width(&a, &b, &dst);
	infer_width(&b, &a, &dst);
	if (d->op == PISA_ADVANCE && a.o.kind == PISA_OPND_CONST && a.o.value % 8)
		asm_die_tok(a.at, "advance takes a number of bits that is a multiple of 8");
	in.dst = dst.o;
	in.a = a.o;
	in.b = b.o;
	if (code->n >= MAX_ITEMS)
		asm_die_tok(mt, "too many instructions");
	code->v = asm_grow(code->v, &code->cap, code->n + 1, sizeof(*code->v));
	code->v[code->n++] = in;
}

static void add_label(struct code *code, const struct tok *t)
{
	for (size_t i = 0; i < code->nlabels; i++)
		if (strcmp(code->labels[i].name, t->s) == 0)
			asm_die_tok(t, "label '%s' is already defined", t->s);
	code->labels = asm_grow(code->labels, &code->caplabels, code->nlabels + 1,
				sizeof(*code->labels));
	code->labels[code->nlabels].name = asm_strdup(t->s);
	code->labels[code->nlabels].at = code->n;
	code->nlabels++;
}

static void resolve_jumps(struct code *code)
{
	for (size_t j = 0; j < code->njumps; j++) {
		const struct jump *jp = &code->jumps[j];
		size_t i;

		for (i = 0; i < code->nlabels; i++)
			if (strcmp(code->labels[i].name, jp->t->s) == 0)
				break;
		if (i == code->nlabels)
			asm_die_tok(jp->t, "unknown label '%s'", jp->t->s);
		if (code->labels[i].at <= jp->insn)
			asm_die_tok(jp->t, "label '%s' is not after the jump (jumps go forward only)",
				    jp->t->s);
		code->v[jp->insn].imm = (uint16_t)(code->labels[i].at - jp->insn - 1);
	}
}

/* ---- Parser states ---- */

static void add_fixup(enum fix_kind kind, size_t a, size_t b, const char *name,
		      const struct tok *at)
{
	fixups = asm_grow(fixups, &cap_fix, nfixups + 1, sizeof(*fixups));
	fixups[nfixups].kind = kind;
	fixups[nfixups].a = a;
	fixups[nfixups].b = b;
	fixups[nfixups].name = asm_strdup(name);
	fixups[nfixups].at = at;
	nfixups++;
}

static uint16_t find_error(const struct tok *t)
{
	for (uint16_t i = 0; i < img.nerrors; i++)
		if (strcmp(err_names[i], t->s) == 0 ||
		    (strncmp(t->s, "error.", 6) == 0 && strcmp(err_names[i], t->s + 6) == 0))
			return i;
	asm_die_tok(t, "unknown error '%s' (declare it with 'error %s;')", t->s, t->s);
}

/*
 * state NAME { (insn | LABEL ':' | key OPND {, OPND} ; | row)* }
 * row := (VALUE ['&&&' MASK] | default) '->' (STATE | accept | reject ERROR) ';'
 */
static void parse_state(void)
{
	const struct tok *nt = expect_ident("state name");
	struct pisa_parser_state *st;
	struct ctx c = { 1, 0, 0 };
	struct code code;
	struct pisa_parser_row *rows = NULL;
	size_t nrows = 0, caprows = 0;
	uint32_t key_width = 0;
	int have_key = 0;
	uint16_t id;

	memset(&code, 0, sizeof(code));
	if (is_w(nt, "accept") || is_w(nt, "reject") || is_w(nt, "default"))
		asm_die_tok(nt, "'%s' is reserved", nt->s);
	check_unique(nt->s, img.nstates, get_state, nt, "state");
	if (img.nstates >= PISA_PARSER_ACCEPT - 1)
		asm_die_tok(nt, "too many states");
	id = img.nstates++;
	img.states = asm_grow(img.states, &cap_st, img.nstates, sizeof(*img.states));
	state_names = asm_grow(state_names, &cap_stn, img.nstates, sizeof(*state_names));
	state_at = asm_grow(state_at, &cap_sta, img.nstates, sizeof(*state_at));
	state_names[id] = asm_strdup(nt->s);
	state_at[id] = nt;
	st = &img.states[id];
	expect_p("{");
	while (!accept_p("}")) {
		const struct tok *t = peek();

		if (t->kind == T_NUM || is_w(t, "default")) {
			struct pisa_parser_row row = { 0, 0, 0, 0 };
			const struct tok *target;

			if (!have_key && t->kind == T_NUM)
				asm_die_tok(t, "a row needs the state's key first ('key FIELD;')");
			if (is_w(t, "default")) {
				next();
			} else {
				next();
				row.value = t->num;
				row.mask = width_max(key_width);
				if (row.value > width_max(key_width))
					asm_die_tok(t, "value %s does not fit the %u-bit key", t->s,
						    key_width);
				if (accept_p("&&&")) {
					const struct tok *mt = peek();

					row.mask = expect_num("mask", 0, UINT64_MAX);
					if (row.mask > width_max(key_width))
						asm_die_tok(mt, "mask %s does not fit the %u-bit key",
							    mt->s, key_width);
				}
			}
			expect_p("->");
			target = expect_ident("next state, 'accept' or 'reject'");
			if (is_w(target, "accept")) {
				row.next = PISA_PARSER_ACCEPT;
			} else if (is_w(target, "reject")) {
				row.next = PISA_PARSER_REJECT;
				row.error = find_error(expect_ident("error name"));
			} else {
				add_fixup(FIX_ROW, id, nrows, target->s, target);
			}
			end_stmt();
			if (nrows >= 0xFFFF)
				asm_die_tok(t, "too many rows");
			rows = asm_grow(rows, &caprows, nrows + 1, sizeof(*rows));
			rows[nrows++] = row;
		} else if (is_w(t, "key") && !is_p(peek2(), ":")) {
			next();
			if (have_key)
				asm_die_tok(t, "the state already has a key");
			if (nrows)
				asm_die_tok(t, "the key must come before the rows");
			have_key = 1;
			do {
				struct opnd o = parse_operand(&c, K_PHV | K_PKT, NULL);

				if (st->nkey >= PISA_PARSER_MAX_KEY)
					asm_die_tok(o.at, "a state key has at most %d parts",
						    PISA_PARSER_MAX_KEY);
				st->key[st->nkey++] = o.o;
				key_width += o.o.width;
				if (key_width > 64)
					asm_die_tok(o.at, "a state key has at most 64 bits");
			} while (accept_p(","));
			end_stmt();
		} else if (t->kind == T_IDENT && is_p(peek2(), ":")) {
			next();
			next();
			add_label(&code, t);
		} else if (t->kind == T_IDENT) {
			if (nrows || have_key)
				asm_die_tok(t, "instructions must come before the key and the rows");
			next();
			parse_insn(&c, &code, t);
		} else {
			asm_die_tok(t, "expected an instruction, 'key' or a row, found %s",
				    asm_tokdesc(t));
		}
	}
	accept_p(";");
	resolve_jumps(&code);
	if (!nrows)
		asm_die_tok(nt, "state '%s' has no rows (add 'default -> accept;')", nt->s);
	st->nops = (uint16_t)code.n;
	st->ops = code.v;
	st->nrows = (uint16_t)nrows;
	st->rows = rows;
}

/* ---- Actions ---- */

/* action NAME [ '(' PARAM WIDTH {, PARAM WIDTH} ')' ] { (insn | LABEL ':')* } */
static void parse_action(void)
{
	const struct tok *nt = expect_ident("action name");
	struct pisa_rt_action *ra;
	struct pisa_action *a;
	struct ctx c = { 0, 0, 1 };
	struct code code;
	size_t capp = 0;
	uint32_t bits = 0;

	memset(&code, 0, sizeof(code));
	check_unique(nt->s, img.nactions, get_action, nt, "action");
	if (img.nactions >= MAX_ITEMS)
		asm_die_tok(nt, "too many actions");
	c.act = img.nactions++;
	img.actions = asm_grow(img.actions, &cap_act, img.nactions, sizeof(*img.actions));
	img.rt_actions = asm_grow(img.rt_actions, &cap_ract, img.nactions, sizeof(*img.rt_actions));
	a = &img.actions[c.act];
	ra = &img.rt_actions[c.act];
	ra->name = asm_strdup(nt->s);
	ra->p4info_id = (uint32_t)P4ID_ACTION << 24 | (uint32_t)(c.act + 1);
	if (accept_p("(") && !accept_p(")")) {
		do {
			const struct tok *pt = expect_ident("parameter name");
			uint32_t w;

			if (strchr(pt->s, '.') || pt->s[0] == '$')
				asm_die_tok(pt, "parameter names cannot contain '.' or start with '$'");
			if (find_param(&c, pt->s) >= 0)
				asm_die_tok(pt, "parameter '%s' is already defined", pt->s);
			w = (uint32_t)expect_num("parameter width in bits", 1, 2048);
			if (bits + w > 0xFFFF)
				asm_die_tok(pt, "too much action data");
			ra->params = asm_grow(ra->params, &capp, ra->nparams + 1,
					      sizeof(*ra->params));
			ra->params[ra->nparams].name = asm_strdup(pt->s);
			ra->params[ra->nparams].width = (uint16_t)w;
			ra->params[ra->nparams].adata_off = (uint16_t)bits;
			ra->nparams++;
			bits += w;
		} while (accept_p(","));
		expect_p(")");
	}
	a->adata_bits = (uint16_t)bits;
	expect_p("{");
	while (!accept_p("}")) {
		const struct tok *t = peek();

		if (t->kind != T_IDENT)
			asm_die_tok(t, "expected an instruction, found %s", asm_tokdesc(t));
		next();
		if (is_p(peek(), ":"))
			next(), add_label(&code, t);
		else
			parse_insn(&c, &code, t);
	}
	accept_p(";");
	resolve_jumps(&code);
	a = &img.actions[c.act];
	a->ninsns = (uint16_t)code.n;
	a->insns = code.v;
}

/* ---- Externs ---- */

static int parse_counter_kind(int dflt)
{
	if (accept_w("packets"))
		return PISA_COUNTER_PACKETS;
	if (accept_w("bytes"))
		return PISA_COUNTER_BYTES;
	if (accept_w("both") || accept_w("packets_and_bytes"))
		return PISA_COUNTER_BOTH;
	return dflt;
}

static uint16_t new_counter(const struct tok *nt, int kind, uint32_t size, int direct)
{
	uint16_t id;

	check_unique(nt->s, img.ncounters, get_counter, nt, "counter");
	if (img.ncounters >= MAX_ITEMS)
		asm_die_tok(nt, "too many counters");
	id = img.ncounters++;
	img.counters = asm_grow(img.counters, &cap_cnt, img.ncounters, sizeof(*img.counters));
	img.rt_counters = asm_grow(img.rt_counters, &cap_rcnt, img.ncounters,
				   sizeof(*img.rt_counters));
	cnt_at = asm_grow(cnt_at, &cap_cat, img.ncounters, sizeof(*cnt_at));
	cnt_at[id] = nt;
	img.counters[id].kind = (uint8_t)kind;
	img.counters[id].size = size;
	/* -2: direct, table not yet known */
	img.counters[id].direct_table = direct ? -2 : -1;
	img.rt_counters[id].name = asm_strdup(nt->s);
	return id;
}

static uint16_t new_meter(const struct tok *nt, int kind, uint32_t size, int direct)
{
	uint16_t id;

	check_unique(nt->s, img.nmeters, get_meter, nt, "meter");
	if (img.nmeters >= MAX_ITEMS)
		asm_die_tok(nt, "too many meters");
	id = img.nmeters++;
	img.meters = asm_grow(img.meters, &cap_met, img.nmeters, sizeof(*img.meters));
	img.rt_meters = asm_grow(img.rt_meters, &cap_rmet, img.nmeters, sizeof(*img.rt_meters));
	met_at = asm_grow(met_at, &cap_mat, img.nmeters, sizeof(*met_at));
	met_at[id] = nt;
	img.meters[id].kind = (uint8_t)kind;
	img.meters[id].size = size;
	img.meters[id].direct_table = direct ? -2 : -1;
	img.rt_meters[id].name = asm_strdup(nt->s);
	return id;
}

/* Size of an indexed extern ('size N'), or 'direct'. Returns 1 for direct. */
static int parse_size_or_direct(uint32_t *size)
{
	const struct tok *t = peek();

	if (accept_w("direct"))
		return 1;
	if (!accept_w("size"))
		asm_die_tok(t, "expected 'size N' or 'direct', found %s", asm_tokdesc(t));
	*size = (uint32_t)expect_num("size", 1, 1u << 24);
	return 0;
}

/* counter NAME [packets|bytes|both] (size N | direct) ; */
static void parse_counter(void)
{
	const struct tok *nt = expect_ident("counter name");
	int kind = parse_counter_kind(PISA_COUNTER_BOTH);
	uint32_t size = 0;
	int direct = parse_size_or_direct(&size);

	end_stmt();
	new_counter(nt, kind, size, direct);
}

/* meter NAME [packets|bytes] (size N | direct) ; */
static void parse_meter(void)
{
	const struct tok *nt = expect_ident("meter name");
	int kind = PISA_METER_PACKETS, direct;
	uint32_t size = 0;

	if (accept_w("bytes"))
		kind = PISA_METER_BYTES;
	else
		accept_w("packets");
	direct = parse_size_or_direct(&size);
	end_stmt();
	new_meter(nt, kind, size, direct);
}

/* register NAME width W size N ; */
static void parse_register(void)
{
	const struct tok *nt = expect_ident("register name");
	uint16_t id;
	uint32_t w, size;

	check_unique(nt->s, img.nregisters, get_register, nt, "register");
	if (!accept_w("width"))
		asm_die_tok(peek(), "expected 'width W', found %s", asm_tokdesc(peek()));
	w = (uint32_t)expect_num("register width", 1, 64);
	if (!accept_w("size"))
		asm_die_tok(peek(), "expected 'size N', found %s", asm_tokdesc(peek()));
	size = (uint32_t)expect_num("register size", 1, 1u << 24);
	end_stmt();
	if (img.nregisters >= MAX_ITEMS)
		asm_die_tok(nt, "too many registers");
	id = img.nregisters++;
	img.registers = asm_grow(img.registers, &cap_reg, img.nregisters, sizeof(*img.registers));
	img.rt_registers = asm_grow(img.rt_registers, &cap_rreg, img.nregisters,
				    sizeof(*img.rt_registers));
	img.registers[id].width = (uint16_t)w;
	img.registers[id].size = size;
	img.rt_registers[id].name = asm_strdup(nt->s);
	img.rt_registers[id].p4info_id = (uint32_t)P4ID_REGISTER << 24 | (uint32_t)(id + 1);
}

/* '{' FIELD {, FIELD} '}' : a new field list, named or not. */
static uint16_t parse_flist_body(const char *name)
{
	struct pisa_field_list *fl;
	size_t capf = 0;
	uint16_t id;

	if (img.nfield_lists >= 254)	/* operands carry id + 1 in 8 bits */
		asm_die_tok(peek(), "too many field lists");
	id = img.nfield_lists++;
	img.field_lists = asm_grow(img.field_lists, &cap_fl, img.nfield_lists,
				   sizeof(*img.field_lists));
	fl_names = asm_grow(fl_names, &cap_fln, img.nfield_lists, sizeof(*fl_names));
	fl_names[id] = name ? asm_strdup(name) : NULL;
	fl = &img.field_lists[id];
	expect_p("{");
	if (!accept_p("}")) {
		do {
			struct pisa_field f = parse_field(NULL);

			if (fl->nfields >= 1024)
				asm_die_tok(peek(), "too many fields in a field list");
			fl->fields = asm_grow(fl->fields, &capf, fl->nfields + 1,
					      sizeof(*fl->fields));
			fl->fields[fl->nfields++] = f;
		} while (accept_p(","));
		expect_p("}");
	}
	return id;
}

/* A field list: a name, or an anonymous one written in braces. */
static uint16_t parse_flist_ref(void)
{
	const struct tok *t = peek();

	if (is_p(t, "{"))
		return parse_flist_body(NULL);
	expect_ident("field list name or '{'");
	return lookup(t, img.nfield_lists, get_flist, "field list");
}

/* field_list NAME { FIELD, ... } */
static void parse_field_list(void)
{
	const struct tok *nt = expect_ident("field list name");

	check_unique(nt->s, img.nfield_lists, get_flist, nt, "field list");
	parse_flist_body(nt->s);
	accept_p(";");
}

static const char *algo_names[PISA_HASH_COUNT] = {
	"crc32", "crc32_custom", "crc16", "crc16_custom", "random", "identity", "csum16", "xor16",
};

static uint8_t parse_algo(void)
{
	const struct tok *t = expect_ident("hash algorithm");

	for (int i = 0; i < PISA_HASH_COUNT; i++)
		if (strcmp(algo_names[i], t->s) == 0)
			return (uint8_t)i;
	asm_die_tok(t, "unknown hash algorithm '%s' (crc32, crc32_custom, crc16, crc16_custom, "
		    "random, identity, csum16, xor16)", t->s);
}

/* hash NAME ALGO FLIST [poly N] [init N] [xor_out N] [width 16|32] [reflect_in] [reflect_out] ; */
static void parse_hash(void)
{
	const struct tok *nt = expect_ident("hash unit name");
	struct pisa_hash_unit u;
	uint16_t id;

	memset(&u, 0, sizeof(u));
	check_unique(nt->s, img.nhash_units, get_hunit, nt, "hash unit");
	u.algo = parse_algo();
	u.field_list = parse_flist_ref();
	u.crc_width = u.algo == PISA_HASH_CRC16_CUSTOM ? 16 : 32;
	for (;;) {
		const struct tok *t = peek();
		int custom = u.algo == PISA_HASH_CRC16_CUSTOM || u.algo == PISA_HASH_CRC32_CUSTOM;

		if (is_p(t, ";"))
			break;
		if (!custom)
			asm_die_tok(t, "only crc16_custom and crc32_custom take parameters");
		if (accept_w("poly")) {
			u.poly = (uint32_t)expect_num("polynomial", 0, 0xFFFFFFFFu);
		} else if (accept_w("init")) {
			u.init = (uint32_t)expect_num("initial value", 0, 0xFFFFFFFFu);
		} else if (accept_w("xor_out")) {
			u.xor_out = (uint32_t)expect_num("final xor", 0, 0xFFFFFFFFu);
		} else if (accept_w("width")) {
			const struct tok *wt = peek();

			u.crc_width = (uint8_t)expect_num("crc width", 16, 32);
			if (u.crc_width != 16 && u.crc_width != 32)
				asm_die_tok(wt, "crc width must be 16 or 32");
		} else if (accept_w("reflect_in")) {
			u.reflect_in = 1;
		} else if (accept_w("reflect_out")) {
			u.reflect_out = 1;
		} else {
			asm_die_tok(t, "expected poly, init, xor_out, width, reflect_in, reflect_out "
				    "or ';', found %s", asm_tokdesc(t));
		}
	}
	end_stmt();
	if (u.crc_width == 16 && (u.poly > 0xFFFF || u.init > 0xFFFF || u.xor_out > 0xFFFF))
		asm_die_tok(nt, "a 16-bit crc takes 16-bit poly, init and xor_out");
	if (img.nhash_units >= MAX_ITEMS)
		asm_die_tok(nt, "too many hash units");
	id = img.nhash_units++;
	img.hash_units = asm_grow(img.hash_units, &cap_hu, img.nhash_units,
				  sizeof(*img.hash_units));
	hu_names = asm_grow(hu_names, &cap_hun, img.nhash_units, sizeof(*hu_names));
	img.hash_units[id] = u;
	hu_names[id] = asm_strdup(nt->s);
}

/* digest NAME FLIST ; */
static void parse_digest(void)
{
	const struct tok *nt = expect_ident("digest name");
	uint16_t id, fl;

	check_unique(nt->s, img.ndigests, get_digest, nt, "digest");
	fl = parse_flist_ref();
	end_stmt();
	if (img.ndigests >= MAX_ITEMS)
		asm_die_tok(nt, "too many digests");
	id = img.ndigests++;
	img.digests = asm_grow(img.digests, &cap_dg, img.ndigests, sizeof(*img.digests));
	img.rt_digests = asm_grow(img.rt_digests, &cap_rdg, img.ndigests, sizeof(*img.rt_digests));
	img.digests[id].field_list = fl;
	img.rt_digests[id].name = asm_strdup(nt->s);
	img.rt_digests[id].p4info_id = (uint32_t)P4ID_DIGEST << 24 | (uint32_t)(id + 1);
}

/* checksum (verify|update) ALGO FLIST dst FIELD [cond OPND] [with_payload] ; */
static void parse_checksum(void)
{
	const struct tok *kt = expect_ident("'verify' or 'update'");
	struct pisa_checksum cs;
	int have_dst = 0;

	memset(&cs, 0, sizeof(cs));
	if (is_w(kt, "verify"))
		cs.kind = PISA_CSUM_VERIFY;
	else if (is_w(kt, "update"))
		cs.kind = PISA_CSUM_UPDATE;
	else
		asm_die_tok(kt, "expected 'verify' or 'update', found %s", asm_tokdesc(kt));
	cs.algo = parse_algo();
	cs.field_list = parse_flist_ref();
	cs.cond.kind = PISA_OPND_CONST;
	cs.cond.width = 1;
	cs.cond.value = 1;
	for (;;) {
		const struct tok *t = peek();

		if (is_p(t, ";"))
			break;
		if (accept_w("dst")) {
			cs.dst = parse_field(NULL);
			have_dst = 1;
		} else if (accept_w("cond")) {
			struct opnd o = parse_operand(NULL, K_PHV | K_CONST, NULL);

			if (o.untyped && o.o.value <= 1) {
				o.o.width = 1;
				o.untyped = 0;
			}
			infer_width(&o, NULL, NULL);
			cs.cond = o.o;
		} else if (accept_w("with_payload")) {
			cs.with_payload = 1;
		} else {
			asm_die_tok(t, "expected dst, cond, with_payload or ';', found %s",
				    asm_tokdesc(t));
		}
	}
	if (!have_dst)
		asm_die_tok(kt, "a checksum unit needs 'dst FIELD'");
	end_stmt();
	if (img.nchecksums >= MAX_ITEMS)
		asm_die_tok(kt, "too many checksum units");
	img.checksums = asm_grow(img.checksums, &cap_cs, img.nchecksums + 1,
				 sizeof(*img.checksums));
	img.checksums[img.nchecksums++] = cs;
}

/* deparse HEADER|STACK {, HEADER|STACK} ; */
static void parse_deparse(void)
{
	const struct tok *kt = &g_t.v[g_p - 1];

	if (deparse_given)
		asm_die_tok(kt, "deparse is given twice");
	deparse_given = 1;
	do {
		const struct tok *t = expect_ident("header or stack name");
		long si = find_stack(t->s);
		uint16_t first, n;

		if (si >= 0) {
			first = stacks[si].first;
			n = stacks[si].size;
		} else {
			first = find_header(t)->hdr;
			n = 1;
		}
		for (uint16_t k = 0; k < n; k++) {
			for (uint16_t i = 0; i < img.ndeparse; i++)
				if (img.deparse[i] == first + k)
					asm_die_tok(t, "header '%s' is emitted twice", t->s);
			img.deparse = asm_grow(img.deparse, &cap_dp, img.ndeparse + 1,
					       sizeof(*img.deparse));
			img.deparse[img.ndeparse++] = (uint16_t)(first + k);
		}
	} while (accept_p(","));
	end_stmt();
}

/* ---- Tables ---- */

static const char *match_names[] = { "exact", "ternary", "lpm", "range", "optional" };

static void parse_next_target(char **name, const struct tok **at)
{
	const struct tok *t;

	accept_p("->");
	t = expect_ident("table name or 'end'");
	if (*name)
		asm_die_tok(t, "this next pointer is given twice");
	*name = asm_strdup(t->s);
	*at = t;
}

/* Default action arguments: '(' [ [NAME ':'] NUM {, [NAME ':'] NUM} ] ')' */
static uint64_t *parse_args(uint16_t act, const struct tok *at)
{
	struct pisa_rt_action *ra = &img.rt_actions[act];
	uint64_t *vals = asm_alloc(sizeof(*vals) * (ra->nparams + 1u));
	uint8_t *seen = asm_alloc(ra->nparams + 1u);
	uint16_t pos = 0;

	if (accept_p("(") && !accept_p(")")) {
		do {
			const struct tok *t = peek();
			long pi;

			if (t->kind == T_IDENT && is_p(peek2(), ":")) {
				struct ctx c = { 0, act, 1 };

				pi = find_param(&c, t->s);
				if (pi < 0)
					asm_die_tok(t, "action '%s' has no parameter '%s'", ra->name,
						    t->s);
				next();
				next();
			} else {
				pi = pos;
				if (pi >= ra->nparams)
					asm_die_tok(t, "action '%s' takes %u argument%s", ra->name,
						    ra->nparams, ra->nparams == 1 ? "" : "s");
			}
			if (seen[pi])
				asm_die_tok(t, "parameter '%s' is given twice",
					    ra->params[pi].name);
			t = peek();
			vals[pi] = expect_num("argument value", 0, UINT64_MAX);
			if (ra->params[pi].width < 64 && vals[pi] > width_max(ra->params[pi].width))
				asm_die_tok(t, "%s does not fit parameter '%s' (%u bits)", t->s,
					    ra->params[pi].name, ra->params[pi].width);
			if (ra->params[pi].width > 64)
				asm_die_tok(t, "parameter '%s' is wider than 64 bits and cannot be "
					    "given here", ra->params[pi].name);
			seen[pi] = 1;
			pos++;
		} while (accept_p(","));
		expect_p(")");
	}
	for (uint16_t i = 0; i < ra->nparams; i++)
		if (!seen[i])
			asm_die_tok(at, "missing argument '%s' of action '%s'", ra->params[i].name,
				    ra->name);
	return vals;
}

static void attach_direct(const struct tok *t, int is_meter, uint16_t table, int16_t *slot)
{
	long i = is_meter ? find_named(t->s, img.nmeters, get_meter, t, "meter") :
		 find_named(t->s, img.ncounters, get_counter, t, "counter");
	int16_t *dt;

	if (*slot >= 0)
		asm_die_tok(t, "the table already has a direct %s", is_meter ? "meter" : "counter");
	if (i < 0) {
		int kind = is_meter ? (accept_w("bytes") ? PISA_METER_BYTES :
				       (accept_w("packets"), PISA_METER_PACKETS)) :
			   parse_counter_kind(PISA_COUNTER_BOTH);

		i = is_meter ? new_meter(t, kind, 0, 1) : new_counter(t, kind, 0, 1);
	}
	dt = is_meter ? &img.meters[i].direct_table : &img.counters[i].direct_table;
	if (*dt != -2)
		asm_die_tok(t, "%s '%s' is %s", is_meter ? "meter" : "counter", t->s,
			    *dt == -1 ? "not direct (declare it with 'direct')" :
			    "already attached to another table");
	*dt = (int16_t)table;
	*slot = (int16_t)i;
}

/* Encodes one 'entry' of table id (declaration index) as a const row. */
struct keyval {
	uint64_t v, m, lo, hi;
};

/*
 * entry KEYVAL {, KEYVAL} => ACTION [(args)] ;
 * KEYVAL := VALUE | VALUE &&& MASK | VALUE / PREFIX_LEN | LO -> HI | _
 */
static void parse_entry(uint16_t id, const struct tok *et)
{
	struct pisa_table *tb = &img.tables[id];
	struct pisa_const_row *cr;
	struct keyval *kv = asm_alloc(sizeof(*kv) * (tb->nkeys + 1u));
	size_t kb = pisa_row_key_bytes(tb), rb = pisa_row_bytes(tb), off, roff;
	uint8_t *row;
	uint64_t *args;
	uint32_t index = 0;
	uint16_t act, k = 0, ai;

	if (tb->mem == PISA_MEM_NONE)
		asm_die_tok(et, "a keyless table has no entries");
	do {
		const struct tok *t = peek();
		const struct pisa_key_field *kf;
		uint64_t max;

		if (k >= tb->nkeys)
			asm_die_tok(t, "the table has %u key%s", tb->nkeys, tb->nkeys == 1 ? "" : "s");
		kf = &tb->keys[k];
		max = width_max(kf->field.width);
		if (accept_w("_")) {
			if (kf->match == PISA_MATCH_EXACT)
				asm_die_tok(t, "an exact key cannot be '_'");
			kv[k].hi = max;
		} else {
			uint64_t v = expect_num("key value", 0, UINT64_MAX), m = max;

			if (v > max)
				asm_die_tok(t, "%s does not fit the %u-bit key", t->s, kf->field.width);
			kv[k].lo = kv[k].hi = v;
			if (is_p(peek(), "&&&")) {
				if (kf->match != PISA_MATCH_TERNARY && kf->match != PISA_MATCH_OPTIONAL)
					asm_die_tok(peek(), "'&&&' is for ternary keys");
				next();
				t = peek();
				m = expect_num("mask", 0, UINT64_MAX);
				if (m > max)
					asm_die_tok(t, "mask %s does not fit the %u-bit key", t->s,
						    kf->field.width);
			} else if (is_p(peek(), "/")) {
				uint64_t len;

				if (kf->match != PISA_MATCH_LPM)
					asm_die_tok(peek(), "'/' is for lpm keys");
				next();
				len = expect_num("prefix length", 0, kf->field.width);
				m = len ? max & ~width_max((uint32_t)(kf->field.width - len)) : 0;
			} else if (is_p(peek(), "->")) {
				if (kf->match != PISA_MATCH_RANGE)
					asm_die_tok(peek(), "'->' is for range keys");
				next();
				t = peek();
				kv[k].hi = expect_num("range end", 0, UINT64_MAX);
				if (kv[k].hi > max || kv[k].hi < v)
					asm_die_tok(t, "range end %s must be in %llu..%llu", t->s,
						    (unsigned long long)v, (unsigned long long)max);
			}
			if ((v & ~m) && kf->match != PISA_MATCH_RANGE)
				asm_die_tok(t, "the value has bits outside the mask");
			kv[k].v = v;
			kv[k].m = m;
		}
		if (kf->match == PISA_MATCH_RANGE)
			kv[k].v = kv[k].m = 0;
		k++;
	} while (accept_p(","));
	if (k != tb->nkeys)
		asm_die_tok(peek(), "the table has %u keys, the entry gives %u", tb->nkeys, k);
	expect_p("=>");
	{
		const struct tok *at = expect_ident("action name");

		act = lookup(at, img.nactions, get_action, "action");
		for (ai = 0; ai < tb->nactions; ai++)
			if (tb->actions[ai].action == act)
				break;
		if (ai == tb->nactions)
			asm_die_tok(at, "action '%s' is not one of the table's actions", at->s);
		if (tb->actions[ai].flags & PISA_TA_DEFAULT_ONLY)
			asm_die_tok(at, "action '%s' is @defaultonly", at->s);
		args = parse_args(act, at);
	}
	end_stmt();

	row = asm_alloc(rb);
	row[0] = PISA_ROW_VALID;
	row[1] = (uint8_t)(act >> 8);
	row[2] = (uint8_t)act;
	off = PISA_ROW_HDR * 8 + kb * 8 - tb->key_bits;
	roff = PISA_ROW_HDR + (tb->mem == PISA_MEM_TCAM ? 2 * kb : kb);
	for (k = 0; k < tb->nkeys; k++) {
		unsigned w = tb->keys[k].field.width;

		pisa_bits_set(row, off, w, kv[k].v);
		if (tb->mem == PISA_MEM_TCAM)
			pisa_bits_set(row, off + kb * 8, w, kv[k].m);
		if (tb->mem == PISA_MEM_TCAM && tb->keys[k].match == PISA_MATCH_RANGE) {
			size_t n = (w + 7) / 8;

			pisa_bits_set(row, roff * 8 + n * 8 - w, w, kv[k].lo);
			pisa_bits_set(row, (roff + n) * 8 + n * 8 - w, w, kv[k].hi);
			roff += 2 * n;
		}
		off += w;
	}
	{
		const struct pisa_rt_action *ra = &img.rt_actions[act];
		size_t ad = PISA_ROW_HDR + pisa_row_match_bytes(tb);

		for (uint16_t i = 0; i < ra->nparams; i++)
			pisa_bits_set(row + ad, ra->params[i].adata_off, ra->params[i].width, args[i]);
	}

	/* where the row goes: TCAM in program order (first = highest priority); HASH in
	 * the first way whose bucket is free, as the hardware looks them up */
	if (tb->mem == PISA_MEM_TCAM) {
		for (uint32_t i = 0; i < img.nconst_rows; i++)
			if (img.const_rows[i].table == id)
				index++;
		if (index >= tb->rows)
			asm_die_tok(et, "more entries than the table's %u rows", tb->rows);
	} else {
		unsigned w;

		for (uint32_t i = 0; i < img.nconst_rows; i++)
			if (img.const_rows[i].table == id &&
			    memcmp(img.const_rows[i].bytes + PISA_ROW_HDR, row + PISA_ROW_HDR, kb) == 0)
				asm_die_tok(et, "the table already has an entry with this key");
		for (w = 0; w < tb->ways; w++) {
			uint32_t b = pisa_hash_way(w, row + PISA_ROW_HDR, kb) &
				     (uint32_t)width_max(tb->way_bits);
			uint32_t i;

			index = (uint32_t)w << tb->way_bits | b;
			for (i = 0; i < img.nconst_rows; i++)
				if (img.const_rows[i].table == id && img.const_rows[i].index == index)
					break;
			if (i == img.nconst_rows)
				break;
		}
		if (w == tb->ways)
			asm_die_tok(et, "no free way for this entry: every way's bucket is taken "
				    "(raise ways or way_bits)");
	}
	if (img.nconst_rows >= 1u << 20)
		asm_die_tok(et, "too many entries");
	img.const_rows = asm_grow(img.const_rows, &cap_crow, img.nconst_rows + 1u,
				  sizeof(*img.const_rows));
	cr = &img.const_rows[img.nconst_rows++];
	cr->table = id;		/* declaration index until the tables are sorted */
	cr->index = index;
	cr->len = (uint16_t)rb;
	cr->bytes = row;
}

/*
 * table NAME { item* } ; items:
 *   gress ingress|egress;  stage N;  key FIELD MATCH ["rt name"];  mem hash|tcam|none;
 *   size N;  ways N;  way_bits N;  actions A [@defaultonly|@tableonly] [-> T] {, ...};
 *   default A [(args)];  next T;  hit T;  miss T;  cond FIELD;
 *   direct_counter NAME [kind];  direct_meter NAME [kind];  const_default;  const_entries;
 *   entry KEYVAL {, KEYVAL} => ACTION [(args)];
 */
static void parse_table(void)
{
	const struct tok *nt = expect_ident("table name"), *memt = NULL, *deft = NULL;
	struct pisa_table *tb;
	struct pisa_rt_table *rt;
	struct tinfo *ti;
	size_t capk = 0, capa = 0, caprk = 0;
	uint32_t size = 0, ways = 0, way_bits = 0;
	int size_given = 0, ways_given = 0, wb_given = 0, mem = -1, cond_given = 0;
	int gress_given = 0, stage_given = 0;
	uint16_t id, defact = 0;
	uint64_t *defargs = NULL;
	uint32_t key_bits = 0, adata_bits = 0;
	size_t *entries = NULL, nentries = 0, capent = 0;

	check_unique(nt->s, img.ntables, get_table, nt, "table");
	if (img.ntables >= MAX_ITEMS)
		asm_die_tok(nt, "too many tables");
	id = img.ntables++;
	img.tables = asm_grow(img.tables, &cap_tab, img.ntables, sizeof(*img.tables));
	img.rt_tables = asm_grow(img.rt_tables, &cap_rtab, img.ntables, sizeof(*img.rt_tables));
	tinfos = asm_grow(tinfos, &cap_ti, img.ntables, sizeof(*tinfos));
	tb = &img.tables[id];
	rt = &img.rt_tables[id];
	ti = &tinfos[id];
	ti->at = nt;
	ti->decl = id;
	rt->name = asm_strdup(nt->s);
	/* at most 256 listed actions plus an added default */
	ti->act_next = asm_alloc(sizeof(*ti->act_next) * 257);
	ti->act_next_at = asm_alloc(sizeof(*ti->act_next_at) * 257);
	tb->direct_counter = -1;
	tb->direct_meter = -1;
	expect_p("{");
	while (!accept_p("}")) {
		const struct tok *t = expect_ident("table item");

		if (is_w(t, "gress")) {
			const struct tok *g = expect_ident("ingress or egress");

			if (gress_given++)
				asm_die_tok(t, "gress is given twice");
			if (is_w(g, "ingress"))
				tb->gress = 0;
			else if (is_w(g, "egress"))
				tb->gress = 1;
			else
				asm_die_tok(g, "expected ingress or egress, found %s",
					    asm_tokdesc(g));
		} else if (is_w(t, "stage")) {
			if (stage_given++)
				asm_die_tok(t, "stage is given twice");
			tb->stage = (uint8_t)expect_num("stage", 0, 63);
		} else if (is_w(t, "key")) {
			struct pisa_key_field kf;
			struct pisa_rt_key rk;
			const struct tok *mt, *kt = peek();
			char *rtname;
			int m;

			kf.field = parse_field(&rtname);
			mt = expect_ident("match kind");
			for (m = 0; m < 5; m++)
				if (strcmp(match_names[m], mt->s) == 0)
					break;
			if (m == 5)
				asm_die_tok(mt, "unknown match kind '%s' (exact, ternary, lpm, range, "
					    "optional)", mt->s);
			kf.match = (uint8_t)m;
			if (peek()->kind == T_STR)
				rtname = asm_strdup(next()->s);
			if (!rtname)
				asm_die_tok(kt, "this key needs a runtime name: add \"name\"");
			if (tb->nkeys >= 64)
				asm_die_tok(kt, "too many keys");
			key_bits += kf.field.width;
			rk.name = rtname;
			rk.width = kf.field.width;
			rk.match = kf.match;
			for (uint16_t i = 0; i < rt->nkeys; i++)
				if (strcmp(rt->keys[i].name, rtname) == 0)
					asm_die_tok(kt, "key '%s' is given twice", rtname);
			tb->keys = asm_grow(tb->keys, &capk, tb->nkeys + 1u, sizeof(*tb->keys));
			rt->keys = asm_grow(rt->keys, &caprk, rt->nkeys + 1u, sizeof(*rt->keys));
			tb->keys[tb->nkeys++] = kf;
			rt->keys[rt->nkeys++] = rk;
		} else if (is_w(t, "mem")) {
			const struct tok *m = expect_ident("hash, tcam or none");

			if (memt)
				asm_die_tok(t, "mem is given twice");
			memt = m;
			if (is_w(m, "none"))
				mem = PISA_MEM_NONE;
			else if (is_w(m, "hash"))
				mem = PISA_MEM_HASH;
			else if (is_w(m, "tcam"))
				mem = PISA_MEM_TCAM;
			else
				asm_die_tok(m, "expected hash, tcam or none, found %s",
					    asm_tokdesc(m));
		} else if (is_w(t, "size")) {
			if (size_given++)
				asm_die_tok(t, "size is given twice");
			size = (uint32_t)expect_num("table size", 1, 1u << 20);
		} else if (is_w(t, "ways")) {
			if (ways_given++)
				asm_die_tok(t, "ways is given twice");
			ways = (uint32_t)expect_num("ways", 1, PISA_HASH_MAX_WAYS);
		} else if (is_w(t, "way_bits")) {
			if (wb_given++)
				asm_die_tok(t, "way_bits is given twice");
			way_bits = (uint32_t)expect_num("way_bits", 0, 18);
		} else if (is_w(t, "actions")) {
			do {
				const struct tok *at = expect_ident("action name");
				struct pisa_table_action ta = { 0, PISA_NEXT_END, 0 };

				ta.action = lookup(at, img.nactions, get_action, "action");
				for (uint16_t i = 0; i < tb->nactions; i++)
					if (tb->actions[i].action == ta.action)
						asm_die_tok(at, "action '%s' is listed twice", at->s);
				for (;;) {
					if (accept_w("@defaultonly"))
						ta.flags |= PISA_TA_DEFAULT_ONLY;
					else if (accept_w("@tableonly"))
						ta.flags |= PISA_TA_TABLE_ONLY;
					else
						break;
				}
				if (tb->nactions >= 256)
					asm_die_tok(at, "too many actions in one table");
				tb->actions = asm_grow(tb->actions, &capa, tb->nactions + 1u,
						       sizeof(*tb->actions));
				tb->actions[tb->nactions] = ta;
				if (is_p(peek(), "->"))
					parse_next_target(&ti->act_next[tb->nactions],
							  &ti->act_next_at[tb->nactions]);
				tb->nactions++;
			} while (accept_p(","));
			end_stmt();
			continue;
		} else if (is_w(t, "default")) {
			const struct tok *at = expect_ident("action name");

			if (deft)
				asm_die_tok(t, "default is given twice");
			deft = at;
			defact = lookup(at, img.nactions, get_action, "action");
			defargs = parse_args(defact, at);
		} else if (is_w(t, "next")) {
			parse_next_target(&ti->next_name, &ti->next_at);
		} else if (is_w(t, "hit")) {
			parse_next_target(&ti->hit_name, &ti->hit_at);
		} else if (is_w(t, "miss")) {
			parse_next_target(&ti->miss_name, &ti->miss_at);
		} else if (is_w(t, "cond")) {
			if (cond_given++)
				asm_die_tok(t, "cond is given twice");
			tb->cond = parse_field(NULL);
		} else if (is_w(t, "direct_counter")) {
			attach_direct(expect_ident("counter name"), 0, id, &tb->direct_counter);
		} else if (is_w(t, "direct_meter")) {
			attach_direct(expect_ident("meter name"), 1, id, &tb->direct_meter);
		} else if (is_w(t, "const_default")) {
			rt->const_default = 1;
		} else if (is_w(t, "const_entries")) {
			rt->const_entries = 1;
		} else if (is_w(t, "entry")) {
			/* read at the end, when keys, actions and rows are known */
			entries = asm_grow(entries, &capent, nentries + 1, sizeof(*entries));
			entries[nentries++] = g_p - 1;
			while (!is_p(peek(), ";") && !is_p(peek(), "}") && peek()->kind != T_EOF)
				next();
		} else {
			asm_die_tok(t, "unknown table item '%s'", t->s);
		}
		end_stmt();
	}
	accept_p(";");
	tb = &img.tables[id];
	rt = &img.rt_tables[id];
	ti = &tinfos[id];

	/* memory kind: all exact -> hash, any other key -> tcam, no keys -> none */
	{
		int all_exact = 1;

		for (uint16_t i = 0; i < tb->nkeys; i++)
			if (tb->keys[i].match != PISA_MATCH_EXACT)
				all_exact = 0;
		if (mem < 0)
			mem = !tb->nkeys ? PISA_MEM_NONE : all_exact ? PISA_MEM_HASH : PISA_MEM_TCAM;
		if (mem == PISA_MEM_NONE && tb->nkeys)
			asm_die_tok(memt, "a table with keys cannot have mem none");
		if (mem != PISA_MEM_NONE && !tb->nkeys)
			asm_die_tok(memt, "a keyless table has mem none");
		if (mem == PISA_MEM_HASH && !all_exact)
			asm_die_tok(memt, "mem hash needs every key to be exact");
	}
	tb->mem = (uint8_t)mem;
	if (key_bits > 0xFFFF)
		asm_die_tok(nt, "the key is too wide");
	tb->key_bits = (uint16_t)key_bits;
	if (mem == PISA_MEM_HASH) {
		if (!ways_given)
			ways = 2;
		if (!wb_given) {
			if (!size_given)
				asm_die_tok(nt, "a hash table needs 'size N' or 'way_bits N'");
			while (((uint64_t)ways << way_bits) < size)
				way_bits++;
		}
		tb->ways = (uint8_t)ways;
		tb->way_bits = (uint8_t)way_bits;
		tb->rows = ways << way_bits;
		if (!size_given)
			size = tb->rows;
		if (size > tb->rows)
			asm_die_tok(nt, "size %u is more than ways << way_bits = %u rows", size,
				    tb->rows);
	} else {
		if (ways_given || wb_given)
			asm_die_tok(nt, "ways and way_bits are for hash tables only");
		if (mem == PISA_MEM_TCAM) {
			if (!size_given)
				asm_die_tok(nt, "a tcam table needs 'size N'");
			tb->rows = size;
		} else if (size_given && size != 1) {
			asm_die_tok(nt, "a keyless table has no entries (leave out 'size')");
		}
	}
	rt->size = size;
	rt->nkeys = tb->nkeys;

	/* the default action must be one of the table's actions */
	if (!deft)
		asm_die_tok(nt, "table '%s' needs a default action ('default ACTION;')", nt->s);
	{
		uint16_t i;

		for (i = 0; i < tb->nactions; i++)
			if (tb->actions[i].action == defact)
				break;
		if (i == tb->nactions) {
			if (tb->nactions >= 256)
				asm_die_tok(deft, "too many actions in one table");
			tb->actions = asm_grow(tb->actions, &capa, tb->nactions + 1u,
					       sizeof(*tb->actions));
			tb->actions[i].action = defact;
			tb->actions[i].next = PISA_NEXT_END;
			tb->actions[i].flags = PISA_TA_DEFAULT_ONLY;
			tb->nactions++;
		} else if (tb->actions[i].flags & PISA_TA_TABLE_ONLY) {
			asm_die_tok(deft, "action '%s' is @tableonly and cannot be the default",
				    deft->s);
		}
	}
	for (uint16_t i = 0; i < tb->nactions; i++)
		if (img.actions[tb->actions[i].action].adata_bits > adata_bits)
			adata_bits = img.actions[tb->actions[i].action].adata_bits;
	tb->adata_bits = (uint16_t)adata_bits;
	tb->default_action = defact;
	tb->default_adata_len = (uint16_t)((adata_bits + 7) / 8);
	if (tb->default_adata_len) {
		const struct pisa_rt_action *ra = &img.rt_actions[defact];

		tb->default_adata = asm_alloc(tb->default_adata_len);
		for (uint16_t i = 0; i < ra->nparams; i++)
			pisa_bits_set(tb->default_adata, ra->params[i].adata_off,
				      ra->params[i].width, defargs[i]);
	}

	/* next mode */
	{
		int per_action = 0;

		for (uint16_t i = 0; i < tb->nactions; i++)
			if (ti->act_next && ti->act_next[i])
				per_action = 1;
		if (per_action && (ti->hit_name || ti->miss_name || cond_given))
			asm_die_tok(nt, "per-action next pointers ('A -> T') cannot be mixed with "
				    "hit, miss or cond");
		if (cond_given && mem != PISA_MEM_NONE)
			asm_die_tok(nt, "cond is for keyless tables (gateways)");
		tb->next_mode = per_action ? PISA_NEXT_ACTION :
				cond_given ? PISA_NEXT_COND : PISA_NEXT_HITMISS;
		if (per_action) {
			for (uint16_t i = 0; i < tb->nactions; i++) {
				if (ti->act_next[i])
					add_fixup(FIX_ACT, id, i, ti->act_next[i],
						  ti->act_next_at[i]);
				else
					add_fixup(FIX_ACT, id, i,
						  ti->next_name ? ti->next_name : "end",
						  ti->next_name ? ti->next_at : nt);
			}
		}
		add_fixup(FIX_HIT, id, 0, ti->hit_name ? ti->hit_name :
			  ti->next_name ? ti->next_name : "end",
			  ti->hit_name ? ti->hit_at : ti->next_name ? ti->next_at : nt);
		add_fixup(FIX_MISS, id, 0, ti->miss_name ? ti->miss_name :
			  ti->next_name ? ti->next_name : "end",
			  ti->miss_name ? ti->miss_at : ti->next_name ? ti->next_at : nt);
	}
	if (nentries) {
		size_t resume = g_p;

		for (size_t i = 0; i < nentries; i++) {
			g_p = entries[i] + 1;
			parse_entry(id, &g_t.v[entries[i]]);
		}
		g_p = resume;
	}
}

/* ---- Top level ---- */

static void set_string(char *dst, size_t n, const char *what)
{
	const struct tok *t = peek();
	const char *s = expect_str(what);

	if (strlen(s) >= n)
		asm_die_tok(t, "%s is longer than %zu characters", what, n - 1);
	memcpy(dst, s, strlen(s) + 1);
	end_stmt();
}

static void add_error_name(const char *name, const struct tok *at)
{
	if (at)
		check_unique(name, img.nerrors, get_error, at, "error");
	if (img.nerrors >= 0xFFFF)
		asm_die_tok(at, "too many errors");
	err_names = asm_grow(err_names, &cap_err, img.nerrors + 1u, sizeof(*err_names));
	err_names[img.nerrors++] = asm_strdup(name);
}

static void parse_top(void)
{
	const struct tok *t = peek();

	if (t->kind != T_IDENT)
		asm_die_tok(t, "expected a statement, found %s", asm_tokdesc(t));
	next();
	if (is_w(t, "header") || is_w(t, "metadata")) {
		if (g_pass == 1)
			parse_scope(is_w(t, "header"));
		else
			skip_stmt(1);
		return;
	}
	if (g_pass == 1) {
		skip_stmt(!(is_w(t, "hash") || is_w(t, "digest") || is_w(t, "checksum")));
		return;
	}
	if (is_w(t, "program")) {
		set_string(img.program, sizeof(img.program), "program name");
	} else if (is_w(t, "board")) {
		set_string(img.board, sizeof(img.board), "board name");
	} else if (is_w(t, "phv_bytes")) {
		const struct tok *nt = peek();

		img.phv_bytes = (uint16_t)expect_num("PHV bytes", 64, MAX_PHV_BYTES);
		if (img.phv_bytes * 8u < phv_bits_used)
			asm_die_tok(nt, "the headers and metadata need %u PHV bytes",
				    phv_bits_used / 8);
		phv_bytes_given = 1;
		end_stmt();
	} else if (is_w(t, "cpu_port")) {
		img.cpu_port = (uint16_t)expect_num("CPU port", 0, PISA_PORT_DROP - 1);
		end_stmt();
	} else if (is_w(t, "mcast_groups")) {
		img.mcast_groups = (uint16_t)expect_num("multicast groups", 0, 0xFFFF);
		end_stmt();
	} else if (is_w(t, "mcast_nodes")) {
		img.mcast_nodes = (uint16_t)expect_num("multicast nodes", 0, 0xFFFF);
		end_stmt();
	} else if (is_w(t, "clone_sessions")) {
		img.clone_sessions = (uint16_t)expect_num("clone sessions", 0, 0xFFFF);
		end_stmt();
	} else if (is_w(t, "error")) {
		do
			add_error_name(expect_ident("error name")->s, &g_t.v[g_p - 1]);
		while (accept_p(","));
		end_stmt();
	} else if (is_w(t, "state")) {
		parse_state();
	} else if (is_w(t, "parser_start")) {
		parser_start_at = expect_ident("state name");
		parser_start_name = parser_start_at->s;
		end_stmt();
	} else if (is_w(t, "ingress_start") || is_w(t, "egress_start")) {
		const struct tok *nt = expect_ident("table name or 'end'");

		if (is_w(t, "ingress_start")) {
			istart_name = asm_strdup(nt->s);
			istart_at = nt;
		} else {
			estart_name = asm_strdup(nt->s);
			estart_at = nt;
		}
		end_stmt();
	} else if (is_w(t, "action")) {
		parse_action();
	} else if (is_w(t, "table")) {
		parse_table();
	} else if (is_w(t, "counter")) {
		parse_counter();
	} else if (is_w(t, "meter")) {
		parse_meter();
	} else if (is_w(t, "register")) {
		parse_register();
	} else if (is_w(t, "field_list")) {
		parse_field_list();
	} else if (is_w(t, "hash")) {
		parse_hash();
	} else if (is_w(t, "digest")) {
		parse_digest();
	} else if (is_w(t, "checksum")) {
		parse_checksum();
	} else if (is_w(t, "deparse")) {
		parse_deparse();
	} else {
		asm_die_tok(t, "unknown statement '%s'", t->s);
	}
}

/* ---- Finishing: sort tables, resolve names, derive the rest ---- */

static uint16_t *newid;		/* declaration index -> table id */

static int cmp_tables(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct pisa_table *x = &img.tables[a], *y = &img.tables[b];

	if (x->gress != y->gress)
		return x->gress - y->gress;
	if (x->stage != y->stage)
		return x->stage - y->stage;
	return a < b ? -1 : a > b;
}

static void sort_tables(void)
{
	uint16_t n = img.ntables;
	uint32_t *order = asm_alloc(sizeof(*order) * (n + 1u));
	struct pisa_table *nt = asm_alloc(sizeof(*nt) * (n + 1u));
	struct pisa_rt_table *nr = asm_alloc(sizeof(*nr) * (n + 1u));
	struct tinfo *ni = asm_alloc(sizeof(*ni) * (n + 1u));

	newid = asm_alloc(sizeof(*newid) * (n + 1u));
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	qsort(order, n, sizeof(*order), cmp_tables);
	for (uint16_t i = 0; i < n; i++) {
		nt[i] = img.tables[order[i]];
		nr[i] = img.rt_tables[order[i]];
		ni[i] = tinfos[order[i]];
		newid[order[i]] = i;
	}
	img.tables = nt;
	img.rt_tables = nr;
	tinfos = ni;
	for (uint16_t i = 0; i < n; i++)
		img.rt_tables[i].p4info_id = (uint32_t)P4ID_TABLE << 24 | (uint32_t)(i + 1);
	for (uint32_t i = 0; i < img.nconst_rows; i++)
		img.const_rows[i].table = newid[img.const_rows[i].table];
	for (uint16_t i = 0; i < img.ncounters; i++)
		if (img.counters[i].direct_table >= 0)
			img.counters[i].direct_table = (int16_t)newid[img.counters[i].direct_table];
	for (uint16_t i = 0; i < img.nmeters; i++)
		if (img.meters[i].direct_table >= 0)
			img.meters[i].direct_table = (int16_t)newid[img.meters[i].direct_table];
}

/* A table target: 'end' or a later table of the same gress (from < 0: a start pointer). */
static uint16_t resolve_table(const struct fixup *f, long from, int gress)
{
	long d;
	uint16_t to;

	if (strcmp(f->name, "end") == 0)
		return PISA_NEXT_END;
	d = find_named(f->name, img.ntables, get_table, f->at, "table");
	if (d < 0)
		asm_die_tok(f->at, "unknown table '%s'", f->name);
	to = (uint16_t)d;
	if (img.tables[to].gress != gress)
		asm_die_tok(f->at, "table '%s' is in %s, not %s", f->name,
			    img.tables[to].gress ? "egress" : "ingress", gress ? "egress" : "ingress");
	if (from >= 0 && to <= from)
		asm_die_tok(f->at, "table '%s' does not come after '%s' (next pointers go forward: "
			    "a later stage, or later in the same stage)", f->name,
			    img.rt_tables[from].name);
	return to;
}

static void finish(void)
{
	/* next pointers are resolved after sorting: they name final table ids */
	sort_tables();
	for (size_t i = 0; i < nfixups; i++) {
		struct fixup *f = &fixups[i];

		switch (f->kind) {
		case FIX_ROW: {
			long s = find_named(f->name, img.nstates, get_state, f->at, "state");

			if (s < 0)
				asm_die_tok(f->at, "unknown state '%s'", f->name);
			img.states[f->a].rows[f->b].next = (uint16_t)s;
			break;
		}
		case FIX_HIT:
		case FIX_MISS:
		case FIX_ACT: {
			uint16_t t = newid[f->a];
			uint16_t to = resolve_table(f, t, img.tables[t].gress);

			if (f->kind == FIX_HIT)
				img.tables[t].next_hit = to;
			else if (f->kind == FIX_MISS)
				img.tables[t].next_miss = to;
			else
				img.tables[t].actions[f->b].next = to;
			break;
		}
		default:
			break;
		}
	}
	img.ingress_start = img.egress_start = PISA_NEXT_END;
	for (uint16_t i = img.ntables; i-- > 0;) {
		if (img.tables[i].gress == 0)
			img.ingress_start = i;
		else
			img.egress_start = i;
	}
	if (istart_name) {
		struct fixup f = { FIX_ISTART, 0, 0, istart_name, istart_at };

		img.ingress_start = resolve_table(&f, -1, 0);
	}
	if (estart_name) {
		struct fixup f = { FIX_ESTART, 0, 0, estart_name, estart_at };

		img.egress_start = resolve_table(&f, -1, 1);
	}
	img.nstages = 1;
	for (uint16_t i = 0; i < img.ntables; i++)
		if (img.tables[i].stage + 1u > img.nstages)
			img.nstages = (uint16_t)(img.tables[i].stage + 1u);

	for (uint16_t i = 0; i < img.ncounters; i++) {
		struct pisa_counter *c = &img.counters[i];

		if (c->direct_table == -2)
			asm_die_tok(cnt_at[i], "direct counter '%s' is not attached to a table",
				    img.rt_counters[i].name);
		if (c->direct_table >= 0)
			c->size = img.tables[c->direct_table].rows;
		img.rt_counters[i].p4info_id = (uint32_t)(c->direct_table >= 0 ?
			P4ID_DIRECT_COUNTER : P4ID_COUNTER) << 24 | (uint32_t)(i + 1);
	}
	for (uint16_t i = 0; i < img.nmeters; i++) {
		struct pisa_meter *m = &img.meters[i];

		if (m->direct_table == -2)
			asm_die_tok(met_at[i], "direct meter '%s' is not attached to a table",
				    img.rt_meters[i].name);
		if (m->direct_table >= 0)
			m->size = img.tables[m->direct_table].rows;
		img.rt_meters[i].p4info_id = (uint32_t)(m->direct_table >= 0 ?
			P4ID_DIRECT_METER : P4ID_METER) << 24 | (uint32_t)(i + 1);
	}

	if (!img.nstates)
		asm_die(1, 1, "the program has no parser state");
	img.parser_start = 0;
	if (parser_start_name) {
		long s = find_named(parser_start_name, img.nstates, get_state, parser_start_at,
				    "state");

		if (s < 0)
			asm_die_tok(parser_start_at, "unknown state '%s'", parser_start_name);
		img.parser_start = (uint16_t)s;
	}
	if (!deparse_given) {
		img.deparse = asm_alloc(sizeof(*img.deparse) * (img.nheaders + 1u));
		for (uint16_t i = 0; i < img.nheaders; i++)
			img.deparse[i] = i;
		img.ndeparse = img.nheaders;
	}
	img.rt_headers = asm_alloc(sizeof(*img.rt_headers) * (img.nheaders + 1u));
	for (size_t i = 0; i < nscopes; i++)
		if (scopes[i].is_hdr)
			img.rt_headers[scopes[i].hdr] = scopes[i].rt;
	img.rt_errors = err_names;
	if (!phv_bytes_given)
		img.phv_bytes = (uint16_t)((phv_bits_used / 8 + 3) / 4 * 4);
}

/* ---- Dump (for reading what the assembler did) ---- */

static void dump_opnd(FILE *f, const struct pisa_operand *o)
{
	switch (o->kind) {
	case PISA_OPND_PHV:
		fprintf(f, " phv(%u,%u)", o->off, o->width);
		break;
	case PISA_OPND_CONST:
		fprintf(f, " 0x%llx:%u", (unsigned long long)o->value, o->width);
		break;
	case PISA_OPND_ADATA:
		fprintf(f, " adata(%u,%u)", o->off, o->width);
		break;
	case PISA_OPND_PKT:
		fprintf(f, " pkt(%u,%u)", o->off, o->width);
		break;
	default:
		break;
	}
}

static void dump_insns(FILE *f, const struct pisa_insn *v, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		const char *name = "?";

		for (size_t k = 0; k < sizeof(opdefs) / sizeof(opdefs[0]); k++)
			if (opdefs[k].op == v[i].op)
				name = opdefs[k].name;
		fprintf(f, "    %s%s imm=%u", name, v[i].flags & PISA_INSN_SIGNED ? ".s" : "",
			v[i].imm);
		dump_opnd(f, &v[i].dst);
		dump_opnd(f, &v[i].a);
		dump_opnd(f, &v[i].b);
		fputc('\n', f);
	}
}

static void dump(FILE *f)
{
	fprintf(f, "program \"%s\" board \"%s\" phv_bytes %u cpu_port %u stages %u\n",
		img.program, img.board, img.phv_bytes, img.cpu_port, img.nstages);
	for (size_t i = 0; i < nscopes; i++) {
		const struct scope *s = &scopes[i];

		fprintf(f, "%s %s (%s) bit %u bytes %u\n", s->is_hdr ? "header" : "metadata",
			s->name, s->rt, s->bitoff, s->is_hdr ? s->bytes : (s->bits + 7) / 8);
		for (size_t k = 0; k < s->nf; k++)
			fprintf(f, "  %s bit %u width %u\n", s->f[k].name,
				s->bitoff + s->f[k].off, s->f[k].width);
	}
	for (uint16_t i = 0; i < img.nstates; i++) {
		const struct pisa_parser_state *st = &img.states[i];

		fprintf(f, "state %u %s%s\n", i, state_names[i],
			i == img.parser_start ? " (start)" : "");
		dump_insns(f, st->ops, st->nops);
		fprintf(f, "  key");
		for (uint8_t k = 0; k < st->nkey; k++)
			dump_opnd(f, &st->key[k]);
		fputc('\n', f);
		for (uint16_t r = 0; r < st->nrows; r++)
			fprintf(f, "  0x%llx &&& 0x%llx -> %u error %u\n",
				(unsigned long long)st->rows[r].value,
				(unsigned long long)st->rows[r].mask, st->rows[r].next,
				st->rows[r].error);
	}
	for (uint16_t i = 0; i < img.nactions; i++) {
		const struct pisa_rt_action *ra = &img.rt_actions[i];

		fprintf(f, "action %u %s id 0x%08x adata_bits %u", i, ra->name, ra->p4info_id,
			img.actions[i].adata_bits);
		for (uint16_t k = 0; k < ra->nparams; k++)
			fprintf(f, " %s:%u@%u", ra->params[k].name, ra->params[k].width,
				ra->params[k].adata_off);
		fputc('\n', f);
		dump_insns(f, img.actions[i].insns, img.actions[i].ninsns);
	}
	fprintf(f, "ingress_start %u egress_start %u\n", img.ingress_start, img.egress_start);
	for (uint16_t i = 0; i < img.ntables; i++) {
		const struct pisa_table *t = &img.tables[i];
		const struct pisa_rt_table *r = &img.rt_tables[i];

		fprintf(f, "table %u %s id 0x%08x gress %u stage %u mem %u next_mode %u key_bits %u "
			"adata_bits %u ways %u way_bits %u rows %u size %u hit %u miss %u "
			"counter %d meter %d default %u/%u\n", i, r->name, r->p4info_id, t->gress,
			t->stage, t->mem, t->next_mode, t->key_bits, t->adata_bits, t->ways,
			t->way_bits, t->rows, r->size, t->next_hit, t->next_miss,
			t->direct_counter, t->direct_meter, t->default_action,
			t->default_adata_len);
		for (uint16_t k = 0; k < t->nkeys; k++)
			fprintf(f, "  key %s phv(%u,%u) %s\n", r->keys[k].name, t->keys[k].field.bitoff,
				t->keys[k].field.width, match_names[t->keys[k].match]);
		for (uint16_t k = 0; k < t->nactions; k++)
			fprintf(f, "  action %u flags %u next %u\n", t->actions[k].action,
				t->actions[k].flags, t->actions[k].next);
	}
	for (uint16_t i = 0; i < img.ncounters; i++)
		fprintf(f, "counter %u %s id 0x%08x kind %u size %u direct %d\n", i,
			img.rt_counters[i].name, img.rt_counters[i].p4info_id,
			img.counters[i].kind, img.counters[i].size, img.counters[i].direct_table);
	for (uint16_t i = 0; i < img.nregisters; i++)
		fprintf(f, "register %u %s id 0x%08x width %u size %u\n", i,
			img.rt_registers[i].name, img.rt_registers[i].p4info_id,
			img.registers[i].width, img.registers[i].size);
	for (uint16_t i = 0; i < img.nmeters; i++)
		fprintf(f, "meter %u %s id 0x%08x kind %u size %u direct %d\n", i,
			img.rt_meters[i].name, img.rt_meters[i].p4info_id, img.meters[i].kind,
			img.meters[i].size, img.meters[i].direct_table);
	for (uint16_t i = 0; i < img.nfield_lists; i++) {
		fprintf(f, "field_list %u %s", i, fl_names[i] ? fl_names[i] : "(anonymous)");
		for (uint16_t k = 0; k < img.field_lists[i].nfields; k++)
			fprintf(f, " phv(%u,%u)", img.field_lists[i].fields[k].bitoff,
				img.field_lists[i].fields[k].width);
		fputc('\n', f);
	}
	for (uint16_t i = 0; i < img.nhash_units; i++)
		fprintf(f, "hash %u %s algo %u field_list %u\n", i, hu_names[i],
			img.hash_units[i].algo, img.hash_units[i].field_list);
	for (uint16_t i = 0; i < img.ndigests; i++)
		fprintf(f, "digest %u %s id 0x%08x field_list %u\n", i, img.rt_digests[i].name,
			img.rt_digests[i].p4info_id, img.digests[i].field_list);
	for (uint16_t i = 0; i < img.nchecksums; i++) {
		const struct pisa_checksum *c = &img.checksums[i];

		fprintf(f, "checksum %u %s algo %u field_list %u dst phv(%u,%u) cond", i,
			c->kind ? "update" : "verify", c->algo, c->field_list, c->dst.bitoff,
			c->dst.width);
		dump_opnd(f, &c->cond);
		fprintf(f, "%s\n", c->with_payload ? " with_payload" : "");
	}
	for (uint32_t i = 0; i < img.nconst_rows; i++) {
		const struct pisa_const_row *cr = &img.const_rows[i];

		fprintf(f, "const_row table %u index %u len %u", cr->table, cr->index, cr->len);
		for (uint16_t k = 0; k < cr->len; k++)
			fprintf(f, "%s%02x", k ? "" : " ", cr->bytes[k]);
		fputc('\n', f);
	}
	fprintf(f, "deparse");
	for (uint16_t i = 0; i < img.ndeparse; i++)
		fprintf(f, " %u", img.deparse[i]);
	fprintf(f, "\nmcast_groups %u mcast_nodes %u clone_sessions %u errors %u\n",
		img.mcast_groups, img.mcast_nodes, img.clone_sessions, img.nerrors);
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f, "usage: pisa-asm IN.pasm [-o OUT.pisa] [--dump] [--readback]\n"
		"  Assembles IN.pasm (language: tests/asm/README.md) into a config image.\n"
		"  -o OUT      write the image to OUT\n"
		"  --dump      print the assembled structures to standard output\n"
		"  --readback  read OUT back and check that it encodes to the same bytes\n"
		"exit codes: 0 ok, 1 error in the input or while writing, 2 bad usage\n");
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		buf = asm_grow(buf, &cap, n + 4096 + 1, 1);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (n > (64u << 20)) {
			fclose(f);
			errno = EFBIG;
			return NULL;
		}
	}
	if (ferror(f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Reads the written image back; encoding it again must give the same bytes. */
static int readback(const char *path)
{
	struct pisa_image *back = NULL;
	uint8_t *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	char detail[256] = "";
	int rc, same;

	rc = pisa_image_read_file(path, &back, detail, sizeof(detail));
	if (rc < 0) {
		fprintf(stderr, "pisa-asm: %s: reading back: %s: %s\n", path, pisa_strerror(-rc),
			detail);
		return 1;
	}
	rc = pisa_image_write(&img, &a, &alen);
	if (rc == 0)
		rc = pisa_image_write(back, &b, &blen);
	same = rc == 0 && alen == blen && memcmp(a, b, alen) == 0;
	free(a);
	free(b);
	pisa_image_free(back);
	if (!same) {
		fprintf(stderr, "pisa-asm: %s: the image read back encodes differently\n", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	int do_dump = 0, do_readback = 0;
	char *src;
	size_t len = 0;
	char detail[256];
	int rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(argv[i], "--dump") == 0) {
			do_dump = 1;
		} else if (strcmp(argv[i], "--readback") == 0) {
			do_readback = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || in) {
			fprintf(stderr, "pisa-asm: bad argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			in = argv[i];
		}
	}
	if (!in || (!out && !do_dump)) {
		usage(stderr);
		return 2;
	}
	src = read_all(in, &len);
	if (!src) {
		fprintf(stderr, "pisa-asm: %s: %s\n", in, strerror(errno));
		return 1;
	}
	asm_set_source(in, src, len);
	asm_lex(src, len, &g_t);
	img.cpu_port = PISA_PORT_CPU_DEFAULT;
	snprintf(img.board, sizeof(img.board), "sim");
	for (int k = 0; k < PISA_ERROR_USER; k++) {
		static const char *core[PISA_ERROR_USER] = {
			"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds",
			"HeaderTooShort", "ParserTimeout", "ParserInvalidArgument",
		};

		add_error_name(core[k], NULL);
	}
	for (g_pass = 1; g_pass <= 2; g_pass++) {
		g_p = 0;
		while (peek()->kind != T_EOF)
			parse_top();
		if (g_pass == 1)
			layout();
	}
	if (!img.program[0]) {
		const char *base = strrchr(in, '/');
		size_t n;

		base = base ? base + 1 : in;
		n = strcspn(base, ".");
		snprintf(img.program, sizeof(img.program), "%.*s", (int)(n < 63 ? n : 63), base);
	}
	finish();
	if (do_dump)
		dump(stdout);
	if (!out)
		return 0;
	rc = pisa_image_check(&img, detail, sizeof(detail));
	if (rc < 0) {
		fprintf(stderr, "%s: error: the image is not consistent: %s\n", in, detail);
		return 1;
	}
	rc = pisa_image_write_file(&img, out);
	if (rc < 0) {
		fprintf(stderr, "pisa-asm: %s: %s\n", out, pisa_strerror(-rc));
		return 1;
	}
	return do_readback ? readback(out) : 0;
}
