/* SPDX-License-Identifier: MIT */
/*
 * p4lower back end: lowers the checked AST of a v1model program onto the
 * OpenPISA pipeline (docs/architecture.md) and fills a struct pisa_image.
 *
 *  - layout: headers after the validity bits in declaration order, then user
 *    metadata, then locals, then scratch temporaries for expressions;
 *  - controls: actions and functions are inlined (arguments copied in);
 *    straight-line code and table-free if/else become one keyless table
 *    whose action skips with JZ; an if/else around tables becomes a gateway
 *    (keyless table, COND), apply().hit/miss a HITMISS table, a switch on
 *    action_run an ACTION table;
 *  - parser: one image state per (P4 state, stack indices), so next/last
 *    of header stacks are constant; verify splits a state;
 *  - a table with an action profile or selector becomes a match table and a
 *    member table (indirect_apply); header unions are their members side by
 *    side, kept one valid at a time (only_valid); a varbit field ends its header;
 *  - placement: tables in program order, a new stage when a table depends
 *    on one before it or the stage is full; a table larger than a stage's
 *    memory is split into pieces in consecutive stages (place, split_tables);
 *    board limits are checked.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "pisa_hwconf.h"
#include "backend.h"
#include "pisa_image.h"
#include "pisa_profile.h"
#include "pisa_switch.h"

/* ---- allocation (everything lives in the front end's arena) ---- */
static void *zalloc(size_t n)
{
	void *p = p4_alloc(n ? n : 1);

	memset(p, 0, n ? n : 1);
	return p;
}

/* grow a vector v of n elements to hold n + 1 */
#define VPUSH(v, n, cap) do { \
	if ((n) >= (cap)) { \
		size_t nc_ = (cap) ? (size_t)(cap) * 2 : 8; \
		void *nv_ = zalloc(nc_ * sizeof(*(v))); \
		if (n) \
			memcpy(nv_, (v), (size_t)(n) * sizeof(*(v))); \
		(v) = nv_; \
		(cap) = nc_; \
	} \
} while (0)

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	return p4_strdup(buf);
}

static jmp_buf *bail;

/* An error in the program (or a construct the back end does not lower): stop. */
static void die(struct p4_loc loc, const char *f, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(struct p4_loc loc, const char *f, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	p4_error(loc, "%s", buf);
	longjmp(*bail, 1);
}

static int fit_failed;
static char fit_msg[512];

/* ---- values: operands of at most 64 bits ---- */
struct val {
	uint8_t kind;		/* PISA_OPND_* */
	uint8_t sgn;		/* signed type */
	uint16_t off;
	uint32_t width;		/* may exceed 64 for a wide field (copy only) */
	uint64_t v;
};

static struct val vconst(uint64_t v, unsigned w)
{
	struct val r = { .kind = PISA_OPND_CONST, .width = w };

	if (w < 64)
		v &= (1ull << w) - 1;
	r.v = v;
	return r;
}

static struct val vphv(unsigned off, unsigned w)
{
	struct val r = { .kind = PISA_OPND_PHV, .off = (uint16_t)off, .width = w };

	return r;
}

/* ---- objects: what a P4 name or path stands for ---- */
enum { O_FIELD, O_HDR, O_STRUCT, O_STACK, O_UNION };

struct obj {
	int kind;
	const struct p4_type *type;
	struct val v;		/* O_FIELD */
	int hdr;		/* O_HDR: header id; O_STACK: first header */
	int stack;		/* O_STACK: stack id (its next index in parser states) */
	struct obj *parent;	/* O_HDR in a header_union: the union */
	int varbit;		/* O_FIELD: a varbit field (extract and emit only); O_HDR: has one */
	int n;			/* fields / elements */
	struct obj **kids;
	const char **names;
	const char *path;	/* runtime name: "hdr.ipv4", "meta.x" */
};

static struct obj *obj_kid(const struct obj *o, const char *name)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (o->names[i] && !strcmp(o->names[i], name))
			return o->kids[i];
	return NULL;
}

/* ---- the image under construction ---- */
struct code {
	struct pisa_insn *v;
	int n, cap;
};

struct ltab {
	struct pisa_table t;
	struct pisa_rt_table rt;
	int block;		/* keyless code block (or gateway) */
	struct code code;	/* block: its action's code */
	struct p4_node *decl;	/* P4 table */
	struct p4_loc loc;
	uint8_t *rd, *wr;	/* PHV bits read / written (placement) */
	uint8_t ind;		/* the match table of an action profile */
	uint8_t hidden;		/* no P4Runtime object (a profile's member table) */
};

/* A table with an action profile or selector (indirect_apply). */
struct ind {
	const struct p4_node *table;
	const struct p4_node *inst;	/* the instance, or the constructor call */
	const char *pname;	/* the profile's control-plane name */
	int selector, algo;
	unsigned size, slots;	/* members; selector: group slots */
	unsigned tsize;		/* entries of the match table */
	unsigned max_group;	/* @max_group_size, 0 = not given */
	struct val idx, hit;	/* member table index; the match table hit (hit/miss only) */
};

struct lact {
	struct pisa_action a;
	struct pisa_rt_action rt;
	struct p4_node *decl;
};

struct bind {
	const struct p4_node *decl;
	struct obj *o;
};

struct ext {
	const struct p4_node *decl;
	int kind;		/* 0 counter, 1 register, 2 meter, 3 direct counter, 4 direct meter */
	int id;			/* image index, -1 until attached (direct) */
	const char *name;
	int ctype;		/* CounterType / MeterType */
};

struct be {
	const struct pisa_profile *prof;
	struct p4_node *prog;
	/* layout */
	unsigned nhdr, nstack;
	unsigned nstackids;	/* header stacks and stacks of header unions */
	struct pisa_header *hdrs;
	char **hdr_names;
	struct pisa_stack *stacks;
	unsigned bit;		/* next free PHV bit */
	unsigned scratch_lo, scratch, scratch_hi;
	struct obj *root_hdr, *root_meta, *root_sm;
	const struct p4_type *t_hdr, *t_meta;
	/* locals (VARDECL) */
	struct bind *locals;
	int nlocals, caplocals;
	/* current bindings (params, inlined arguments) */
	struct bind *binds;
	int nbinds, capbinds;
	/* tables, actions */
	struct ltab *tabs;
	int ntabs, captabs;
	struct lact *acts;
	int nacts, capacts;
	int gress;
	const char *ctl_name;
	/* externs */
	struct ext *exts;
	int nexts, capexts;
	struct pisa_counter *ctrs;
	struct pisa_rt_named *rt_ctrs;
	int nctrs, capctrs, capctrs2;
	struct pisa_register *regs;
	struct pisa_rt_named *rt_regs;
	int nregs, capregs, capregs2;
	struct pisa_meter *mtrs;
	struct pisa_rt_named *rt_mtrs;
	int nmtrs, capmtrs, capmtrs2;
	struct pisa_field_list *flists;
	int nflists, capflists;
	struct pisa_hash_unit *hunits;
	int nhunits, caphunits;
	struct pisa_digest *digests;
	struct pisa_rt_named *rt_digests;
	int ndigests, capdigests, capdigests2;
	struct pisa_checksum *csums;
	int ncsums, capcsums;
	uint16_t *deparse;
	int ndeparse, capdeparse;
	/* parser */
	struct pisa_parser_state *states;
	int nstates, capstates;
	/* const rows */
	struct pisa_const_row *crows;
	int ncrows, capcrows;
	/* error names */
	char **errors;
	int nerrors;
	int blocks;		/* counter for block names */
	/* action profiles and selectors */
	struct ind *inds;
	int ninds, capinds;
	struct pisa_rt_profile *profs;
	int nprofs, capprofs;
	uint16_t istart, estart;	/* ingress_start, egress_start */
};

static struct be B;

/* ---- types ---- */
static const struct p4_type *tres(const struct p4_type *t)
{
	while (t && t->kind == TY_NEWTYPE && t->elem)
		t = t->elem;
	return t;
}

/* Bits of a scalar type, -1 for anything else. */
static int twidth(const struct p4_type *t)
{
	t = tres(t);
	if (!t)
		return -1;
	switch (t->kind) {
	case TY_BIT: case TY_INT: return t->width;
	case TY_BOOL: return 1;
	case TY_ERROR: return 32;
	case TY_ENUM: return t->elem ? twidth(t->elem) : 32;
	default: return -1;
	}
}

static int tsigned(const struct p4_type *t)
{
	t = tres(t);
	if (t && t->kind == TY_ENUM && t->elem)
		t = tres(t->elem);
	return t && t->kind == TY_INT;
}

static int has_annot(const struct p4_node *n, const char *name)
{
	const struct p4_node *a;

	for (a = n ? n->annots : NULL; a; a = a->next)
		if (!strcmp(a->name, name))
			return 1;
	return 0;
}

/* The string of @name("...") or NULL. */
static const char *annot_name(const struct p4_node *n)
{
	const struct p4_node *a;

	for (a = n ? n->annots : NULL; a; a = a->next)
		if (!strcmp(a->name, "name") && a->text) {
			const char *s = a->text, *e;

			while (*s == ' ' || *s == '"')
				s++;
			e = s + strlen(s);
			while (e > s && (e[-1] == ' ' || e[-1] == '"'))
				e--;
			return p4_strndup(s, (size_t)(e - s));
		}
	return NULL;
}

/* Control-plane name: CONTROL.NAME, or what @name says (a leading '.' is global). */
static const char *rt_name(const struct p4_node *d, const char *ctl)
{
	const char *n = annot_name(d);

	if (n && n[0] == '.')
		return n + 1;
	if (!n)
		n = d->name;
	return ctl ? fmt("%s.%s", ctl, n) : n;
}

/* ---- layout ---- */
static int count_headers(const struct p4_type *t, struct p4_loc loc)
{
	const struct p4_node *f;
	int n = 0;

	t = tres(t);
	switch (t->kind) {
	case TY_HEADER:
		return 1;
	case TY_STACK:
		return t->size * count_headers(t->elem, loc);
	case TY_UNION:
		for (f = t->decl->list; f; f = f->next) {
			if (tres(f->type)->kind != TY_HEADER)
				die(f->loc, "unsupported construct: %s in a header_union",
				    p4_type_str(f->type));
			n++;
		}
		return n;
	case TY_STRUCT:
		for (f = t->decl->list; f; f = f->next)
			n += count_headers(f->type, f->loc);
		return n;
	default:
		die(loc, "unsupported construct: %s in the headers struct", p4_type_str(t));
	}
}

static struct obj *new_obj(int kind, const struct p4_type *t, const char *path, int n)
{
	struct obj *o = zalloc(sizeof(*o));

	o->kind = kind;
	o->type = t;
	o->path = path;
	o->n = n;
	o->kids = zalloc(sizeof(*o->kids) * (size_t)(n + 1));
	o->names = zalloc(sizeof(*o->names) * (size_t)(n + 1));
	return o;
}

static int nfields(const struct p4_type *t)
{
	const struct p4_node *f;
	int n = 0;

	for (f = t->decl->list; f; f = f->next)
		n++;
	return n;
}

/* One header: bytes from B.bit (byte aligned), fields MSB first. */
static struct obj *lay_header(const struct p4_type *t, const char *path, struct p4_loc loc)
{
	struct obj *o = new_obj(O_HDR, t, path, nfields(t));
	const struct p4_node *f;
	unsigned start = B.bit, bits = 0, fixed = 0;
	int i = 0;

	for (f = t->decl->list; f; f = f->next, i++) {
		const struct p4_type *ft = tres(f->type);
		int w = twidth(ft);
		struct obj *k;

		if (ft->kind == TY_VARBIT) {
			/* the variable part ends the header: fixed_bytes, then up to its maximum */
			if (f->next)
				die(f->loc, "unsupported construct: varbit field '%s' before other fields of header %s",
				    f->name, t->name);
			if (ft->width % 8 || bits % 8)
				die(f->loc, "unsupported construct: varbit field '%s' that does not start and end on a byte",
				    f->name);
			w = ft->width;
			o->varbit = 1;
		}
		if (w <= 0)
			die(f->loc, "unsupported construct: field '%s' of type %s in a header", f->name,
			    p4_type_str(ft));
		k = new_obj(O_FIELD, f->type, fmt("%s.%s", path, f->name), 0);
		k->v = vphv(start + bits, (unsigned)w);
		k->v.sgn = (uint8_t)tsigned(ft);
		k->varbit = ft->kind == TY_VARBIT;
		o->kids[i] = k;
		o->names[i] = f->name;
		fixed = bits;
		bits += (unsigned)w;
	}
	if (bits % 8)
		die(loc, "header %s is %u bits, not a whole number of bytes", t->name, bits);
	if (!o->varbit)
		fixed = bits;
	o->hdr = (int)B.nhdr;
	B.hdrs[B.nhdr].phv_byte = (uint16_t)(start / 8);
	B.hdrs[B.nhdr].bytes = (uint16_t)(bits / 8);
	B.hdrs[B.nhdr].fixed_bytes = (uint16_t)(fixed / 8);
	B.hdr_names[B.nhdr] = (char *)path;
	B.nhdr++;
	B.bit += bits;
	return o;
}

static struct obj *lay_headers(const struct p4_type *t, const char *path, struct p4_loc loc)
{
	const struct p4_node *f;
	struct obj *o;
	int i;

	t = tres(t);
	if (t->kind == TY_HEADER)
		return lay_header(t, path, loc);
	if (t->kind == TY_STACK) {
		o = new_obj(O_STACK, t, path, t->size);
		if (B.nstackids >= 64)
			die(loc, "too many header stacks (64 at most)");
		o->stack = (int)B.nstackids++;
		o->hdr = (int)B.nhdr;
		/* the image knows stacks of headers (a stack of unions is its headers) */
		if (tres(t->elem)->kind == TY_HEADER) {
			B.stacks[B.nstack].first_header = (uint16_t)B.nhdr;
			B.stacks[B.nstack++].size = (uint16_t)t->size;
		}
		for (i = 0; i < t->size; i++)
			o->kids[i] = lay_headers(t->elem, fmt("%s[%d]", path, i), loc);
		return o;
	}
	/* a header_union: its members side by side, at most one of them valid */
	o = new_obj(t->kind == TY_UNION ? O_UNION : O_STRUCT, t, path, nfields(t));
	for (f = t->decl->list, i = 0; f; f = f->next, i++) {
		o->kids[i] = lay_headers(f->type, fmt("%s.%s", path, f->name), f->loc);
		o->names[i] = f->name;
		if (o->kind == O_UNION)
			o->kids[i]->parent = o;
	}
	return o;
}

/* Metadata and locals: scalars packed bit by bit, structs recursively. */
static struct obj *lay_meta(const struct p4_type *t, const char *path, struct p4_loc loc)
{
	const struct p4_node *f;
	struct obj *o;
	int i, w;

	t = tres(t);
	w = twidth(t);
	if (w > 0) {
		o = new_obj(O_FIELD, t, path, 0);
		o->v = vphv(B.bit, (unsigned)w);
		o->v.sgn = (uint8_t)tsigned(t);
		B.bit += (unsigned)w;
		return o;
	}
	if (t->kind != TY_STRUCT)
		die(loc, "unsupported construct: %s as metadata or a local variable", p4_type_str(t));
	o = new_obj(O_STRUCT, t, path, nfields(t));
	for (f = t->decl->list, i = 0; f; f = f->next, i++) {
		o->kids[i] = lay_meta(f->type, fmt("%s.%s", path, f->name), f->loc);
		o->names[i] = f->name;
	}
	return o;
}

static const struct {
	const char *name;
	struct pisa_field f;
} sm_fields[] = {
	{ "ingress_port", PISA_SM_INGRESS_PORT }, { "egress_spec", PISA_SM_EGRESS_SPEC },
	{ "egress_port", PISA_SM_EGRESS_PORT }, { "instance_type", PISA_SM_INSTANCE_TYPE },
	{ "packet_length", PISA_SM_PACKET_LENGTH }, { "enq_timestamp", PISA_SM_ENQ_TIMESTAMP },
	{ "enq_qdepth", PISA_SM_ENQ_QDEPTH }, { "deq_timedelta", PISA_SM_DEQ_TIMEDELTA },
	{ "deq_qdepth", PISA_SM_DEQ_QDEPTH },
	{ "ingress_global_timestamp", PISA_SM_INGRESS_GLOBAL_TIMESTAMP },
	{ "egress_global_timestamp", PISA_SM_EGRESS_GLOBAL_TIMESTAMP },
	{ "mcast_grp", PISA_SM_MCAST_GRP }, { "egress_rid", PISA_SM_EGRESS_RID },
	{ "checksum_error", PISA_SM_CHECKSUM_ERROR }, { "parser_error", PISA_SM_PARSER_ERROR },
	{ "priority", PISA_SM_PRIORITY },
};

static struct obj *lay_sm(const struct p4_type *t, struct p4_loc loc)
{
	const struct p4_node *f;
	struct obj *o = new_obj(O_STRUCT, t, "standard_metadata", nfields(t));
	int i;
	size_t k;

	for (f = t->decl->list, i = 0; f; f = f->next, i++) {
		struct obj *kid;

		for (k = 0; k < sizeof(sm_fields) / sizeof(sm_fields[0]); k++)
			if (!strcmp(sm_fields[k].name, f->name))
				break;
		if (k == sizeof(sm_fields) / sizeof(sm_fields[0]))
			continue;	/* not in the PHV: using it is an error (no kid) */
		kid = new_obj(O_FIELD, f->type, fmt("standard_metadata.%s", f->name), 0);
		kid->v = vphv(sm_fields[k].f.bitoff, sm_fields[k].f.width);
		/* PortId_t etc. are 9 bits here even if declared wider */
		o->kids[i] = kid;
		o->names[i] = f->name;
	}
	(void)loc;
	return o;
}

/* Every local variable of the program gets its own PHV bits (no recursion in P4). */
static void lay_locals(struct p4_node *n)
{
	int i;

	for (; n; n = n->next) {
		if (n->kind == N_VARDECL && n->type) {
			VPUSH(B.locals, B.nlocals, B.caplocals);
			B.locals[B.nlocals].decl = n;
			B.locals[B.nlocals].o = lay_meta(n->type, n->name, n->loc);
			B.nlocals++;
		}
		for (i = 0; i < 4; i++)
			lay_locals(n->k[i]);
		lay_locals(n->list);
		lay_locals(n->list3);
		lay_locals(n->list4);
	}
}

/* ---- names ---- */
static void bind_push(const struct p4_node *decl, struct obj *o)
{
	VPUSH(B.binds, B.nbinds, B.capbinds);
	B.binds[B.nbinds].decl = decl;
	B.binds[B.nbinds].o = o;
	B.nbinds++;
}

static struct obj *lookup(const struct p4_node *decl)
{
	int i;

	for (i = B.nbinds - 1; i >= 0; i--)
		if (B.binds[i].decl == decl)
			return B.binds[i].o;
	for (i = 0; i < B.nlocals; i++)
		if (B.locals[i].decl == decl)
			return B.locals[i].o;
	return NULL;
}

/* Parser state context: next index of every stack (header stacks' next/last). */
static int *stack_ctx;

/*
 * The object a path expression names, or NULL if it is not a path. quiet: never an
 * error; a stack element it cannot tell is the whole stack (peek(), for "may this
 * touch that" questions).
 */
static struct obj *resolve_path(struct p4_node *e, int quiet)
{
	struct obj *b;

	switch (e->kind) {
	case N_NAME:
		return e->decl ? lookup(e->decl) : NULL;
	case N_MEMBER:
		b = resolve_path(e->k[0], quiet);
		if (!b)
			return NULL;
		if (b->kind == O_STACK && quiet)
			return b;
		if (b->kind == O_STACK) {
			int i;

			if (!strcmp(e->name, "next") || !strcmp(e->name, "last")) {
				if (!stack_ctx)
					die(e->loc, "unsupported construct: '%s' of a header stack outside a parser",
					    e->name);
				i = stack_ctx[b->stack] - (e->name[0] == 'l');
				if (i < 0)
					die(e->loc, "'last' of header stack %s before any element was extracted",
					    b->path);
				if (i >= b->n)
					return NULL;	/* the caller reports StackOutOfBounds */
				return b->kids[i];
			}
			return NULL;
		}
		if (b->kind == O_FIELD)
			return NULL;
		{
			struct obj *k = obj_kid(b, e->name);

			if (!k && b == B.root_sm && !quiet)
				die(e->loc, "unsupported construct: standard_metadata.%s", e->name);
			return k;
		}
	case N_INDEX:
		b = resolve_path(e->k[0], quiet);
		if (!b || b->kind != O_STACK)
			return NULL;
		if (quiet && (!e->k[1]->is_const || e->k[1]->cval < 0 || e->k[1]->cval >= b->n))
			return b;
		if (!e->k[1]->is_const)
			die(e->loc, "unsupported construct: header stack index that is not a constant");
		if (e->k[1]->cval < 0 || e->k[1]->cval >= b->n)
			die(e->loc, "header stack index %d out of range (size %d)", (int)e->k[1]->cval, b->n);
		return b->kids[(int)e->k[1]->cval];
	default:
		return NULL;
	}
}

static struct obj *resolve(struct p4_node *e)
{
	return resolve_path(e, 0);
}

static struct obj *peek(struct p4_node *e)
{
	return resolve_path(e, 1);
}

/* ---- code ---- */
static int emit(struct code *c, int op, int flags, int imm, struct val d, struct val a, struct val b)
{
	struct pisa_insn *in;
	struct val *vs[3] = { &d, &a, &b };
	struct pisa_operand *os[3];
	int i;

	VPUSH(c->v, c->n, c->cap);
	in = &c->v[c->n];
	in->op = (uint8_t)op;
	in->flags = (uint8_t)flags;
	in->imm = (uint16_t)imm;
	os[0] = &in->dst;
	os[1] = &in->a;
	os[2] = &in->b;
	for (i = 0; i < 3; i++) {
		os[i]->kind = vs[i]->kind;
		if (vs[i]->kind == PISA_OPND_NONE)
			continue;
		os[i]->off = vs[i]->off;
		os[i]->width = (uint16_t)vs[i]->width;
		os[i]->value = vs[i]->kind == PISA_OPND_CONST ? vs[i]->v : 0;
	}
	return c->n++;
}

static const struct val NONE;

static struct val tmp(unsigned w, struct p4_loc loc)
{
	struct val r = vphv(B.scratch, w);

	B.scratch += w;
	if (B.scratch > B.scratch_hi)
		B.scratch_hi = B.scratch;
	if (B.scratch > 8u * 4096)
		die(loc, "expression needs too many temporaries");
	return r;
}

static void need64(struct val v, struct p4_loc loc)
{
	if (v.width > 64)
		die(loc, "unsupported construct: a %u-bit value in an expression (64 bits at most; "
		    "wide fields can only be copied)", (unsigned)v.width);
}

/* Forward jump over what follows: patch with patch_jump. */
static int jump_if_zero(struct code *c, struct val cond)
{
	return emit(c, PISA_JZ, 0, 0, NONE, cond, NONE);
}

static int jump_always(struct code *c)
{
	return emit(c, PISA_JZ, 0, 0, NONE, vconst(0, 1), NONE);
}

static void patch_jump(struct code *c, int at)
{
	c->v[at].imm = (uint16_t)(c->n - at - 1);
}

static struct val compile_expr(struct code *c, struct p4_node *e);
static struct val inline_call(struct code *c, struct p4_node *call);
static void no_varbit(const struct obj *o, struct p4_loc loc);
static void compile_into(struct code *c, struct p4_node *e, struct val d);

static int expr_width(struct p4_node *e)
{
	int w = twidth(e->type);

	return w > 0 ? w : 64;
}

/* A value of the full width of its type (casts leave narrower values zero-extended). */
static struct val full(struct code *c, struct val v, unsigned w, struct p4_loc loc)
{
	struct val t;

	if (v.width >= w || v.kind == PISA_OPND_CONST) {
		if (v.kind == PISA_OPND_CONST)
			v.width = w;
		return v;
	}
	t = tmp(w, loc);
	emit(c, PISA_SET, v.sgn ? PISA_INSN_SIGNED : 0, 0, t, v, NONE);
	return t;
}

static struct val slice(struct val v, unsigned W, unsigned hi, unsigned lo)
{
	if (v.kind == PISA_OPND_CONST)
		return vconst(lo >= 64 ? 0 : v.v >> lo, hi - lo + 1);
	v.off = (uint16_t)(v.off + (W - 1 - hi));
	v.width = hi - lo + 1;
	v.sgn = 0;
	return v;
}

static int binop(int tok, int *is_cmp)
{
	*is_cmp = 0;
	switch (tok) {
	case P_PLUS: return PISA_ADD;
	case P_MINUS: return PISA_SUB;
	case P_STAR: return PISA_MUL;
	case P_AMP: return PISA_AND;
	case P_PIPE: return PISA_OR;
	case P_CARET: return PISA_XOR;
	case P_SHL: return PISA_SHL;
	case T_NTOKS: return PISA_SHR;
	case P_SATADD: return PISA_ADDSAT;
	case P_SATSUB: return PISA_SUBSAT;
	case P_ANDAND: return PISA_AND;
	case P_OROR: return PISA_OR;
	}
	*is_cmp = 1;
	switch (tok) {
	case P_EQ: return PISA_EQ;
	case P_NE: return PISA_NE;
	case P_LT: return PISA_LT;
	case P_LE: return PISA_LE;
	case P_GT: return PISA_GT;
	case P_GE: return PISA_GE;
	}
	return -1;
}

static const char *tokname(int op)
{
	return op == T_NTOKS ? ">>" : p4_tok_name((enum p4_tok)op);
}

/* Operand for one side of a binary operator: constants take the other side's width. */
static struct val operand(struct code *c, struct p4_node *e, unsigned w)
{
	struct val v = compile_expr(c, e);

	if (v.kind == PISA_OPND_CONST && (v.width > 64 || twidth(e->type) <= 0))
		v = vconst(v.v, w ? w : 64);
	need64(v, e->loc);
	return v;
}

static int is_method_call(struct p4_node *e, const char *m)
{
	return e->kind == N_CALL && e->k[0]->kind == N_MEMBER && !strcmp(e->k[0]->name, m);
}

/* The header object a method's receiver names. */
static struct obj *recv_header(struct p4_node *e)
{
	struct obj *o = resolve(e);

	if (!o)
		die(e->loc, "unsupported construct: this header expression");
	if (o->kind != O_HDR)
		die(e->loc, "unsupported construct: validity of a %s here",
		    o->kind == O_STACK ? "header stack" : o->kind == O_UNION ? "header_union" : "struct");
	return o;
}

/* Header h of a header_union becomes the valid one: its siblings become invalid. */
static void only_valid(struct code *c, const struct obj *h)
{
	int i;

	for (i = 0; h->parent && i < h->parent->n; i++)
		if (h->parent->kids[i] != h)
			emit(c, PISA_SETINVALID, 0, h->parent->kids[i]->hdr, NONE, NONE, NONE);
}

/* Every header of o (a header, a union, a stack, a struct) becomes invalid. */
static void invalidate(struct code *c, const struct obj *o)
{
	int i;

	if (o->kind == O_HDR) {
		emit(c, PISA_SETINVALID, 0, o->hdr, NONE, NONE, NONE);
		return;
	}
	for (i = 0; i < o->n; i++)
		if (o->kids[i])
			invalidate(c, o->kids[i]);
}

static struct val compile_binary(struct code *c, struct p4_node *e, struct val *dst)
{
	int cmp, op = binop(e->op, &cmp), flags;
	unsigned w = (unsigned)expr_width(e), ow;
	struct val a, b, d;

	if (e->op == P_PP) {
		unsigned wa = (unsigned)expr_width(e->k[0]), wb = (unsigned)expr_width(e->k[1]);

		d = dst ? *dst : tmp(w, e->loc);
		need64(d, e->loc);
		compile_into(c, e->k[0], slice(d, w, w - 1, wb));
		compile_into(c, e->k[1], slice(d, w, wb - 1, 0));
		(void)wa;
		return d;
	}
	if (op < 0)
		die(e->loc, "unsupported construct: operator '%s' on values not known at compile time",
		    tokname(e->op));
	ow = cmp ? (unsigned)expr_width(e->k[0]) : w;
	if (cmp && twidth(e->k[0]->type) <= 0)
		ow = (unsigned)expr_width(e->k[1]);
	a = operand(c, e->k[0], ow);
	b = operand(c, e->k[1], (op == PISA_SHL || op == PISA_SHR) ? 8 : ow);
	a = full(c, a, ow, e->loc);
	if (op != PISA_SHL && op != PISA_SHR)
		b = full(c, b, ow, e->loc);
	flags = tsigned(cmp ? e->k[0]->type : e->type) ? PISA_INSN_SIGNED : 0;
	d = dst ? *dst : tmp(w, e->loc);
	emit(c, op, flags, 0, d, a, b);
	return d;
}

static struct val compile_expr(struct code *c, struct p4_node *e)
{
	struct obj *o;
	struct val v, t;
	int w = expr_width(e);

	if (e->is_const) {
		v = vconst((uint64_t)e->cval, (unsigned)w);
		v.sgn = (uint8_t)tsigned(e->type);
		if (twidth(e->type) <= 0)
			v.width = 65;	/* untyped: the user decides */
		return v;
	}
	switch (e->kind) {
	case N_BOOLLIT:
		return vconst(e->ival != 0, 1);
	case N_NAME:
	case N_MEMBER:
	case N_INDEX:
		o = resolve(e);
		if (!o)
			die(e->loc, "unsupported construct: this expression ('%s')", e->name ? e->name : "?");
		if (o->kind != O_FIELD)
			die(e->loc, "unsupported construct: a header or struct used as a value");
		no_varbit(o, e->loc);
		return o->v;
	case N_SLICE: {
		unsigned W = (unsigned)expr_width(e->k[0]);

		v = full(c, compile_expr(c, e->k[0]), W, e->loc);
		return slice(v, W, (unsigned)e->k[1]->cval, (unsigned)e->k[2]->cval);
	}
	case N_CAST: {
		int sw = expr_width(e->k[1]);

		v = compile_expr(c, e->k[1]);
		if (v.kind == PISA_OPND_CONST)
			return vconst(v.v, (unsigned)w);
		need64(v, e->loc);
		if (w < sw)
			return slice(full(c, v, (unsigned)sw, e->loc), (unsigned)sw, (unsigned)w - 1, 0);
		if (w > sw && tsigned(e->k[1]->type)) {
			t = tmp((unsigned)w, e->loc);
			emit(c, PISA_SET, PISA_INSN_SIGNED, 0, t, v, NONE);
			return t;
		}
		v.sgn = (uint8_t)tsigned(e->type);
		return v;	/* zero extension is implicit */
	}
	case N_UNARY:
		v = operand(c, e->k[0], (unsigned)w);
		v = full(c, v, (unsigned)w, e->loc);
		t = tmp((unsigned)w, e->loc);
		if (e->op == P_NOT)
			emit(c, PISA_EQ, 0, 0, t, v, vconst(0, 1));
		else if (e->op == P_TILDE)
			emit(c, PISA_NOT, 0, 0, t, v, NONE);
		else if (e->op == P_MINUS)
			emit(c, PISA_SUB, 0, 0, t, vconst(0, (unsigned)w), v);
		else if (e->op == P_PLUS)
			emit(c, PISA_SET, 0, 0, t, v, NONE);
		else
			die(e->loc, "unsupported construct: unary '%s'", tokname(e->op));
		return t;
	case N_BINARY:
		return compile_binary(c, e, NULL);
	case N_TERNARY: {
		int j1, j2;

		v = operand(c, e->k[0], 1);
		t = tmp((unsigned)w, e->loc);
		j1 = jump_if_zero(c, v);
		compile_into(c, e->k[1], t);
		j2 = jump_always(c);
		patch_jump(c, j1);
		compile_into(c, e->k[2], t);
		patch_jump(c, j2);
		return t;
	}
	case N_CALL:
		if (is_method_call(e, "isValid")) {
			int i;

			o = resolve(e->k[0]->k[0]);
			if (!o || o->kind != O_UNION) {
				o = recv_header(e->k[0]->k[0]);
				return vphv(PISA_VALID_BIT(o->hdr), 1);
			}
			/* a header_union is valid when one of its members is */
			t = tmp(1, e->loc);
			emit(c, PISA_SET, 0, 0, t, vphv(PISA_VALID_BIT(o->kids[0]->hdr), 1), NONE);
			for (i = 1; i < o->n; i++)
				emit(c, PISA_OR, 0, 0, t, t, vphv(PISA_VALID_BIT(o->kids[i]->hdr), 1));
			return t;
		}
		if (is_method_call(e, "lookahead")) {
			if (!stack_ctx)
				die(e->loc, "lookahead outside a parser");
			v.kind = PISA_OPND_PKT;
			v.sgn = 0;
			v.off = 0;
			v.width = (unsigned)w;
			v.v = 0;
			need64(v, e->loc);
			return v;
		}
		if (e->k[0]->kind == N_NAME && e->k[0]->decl && e->k[0]->decl->kind == N_FUNCTION) {
			v = inline_call(c, e);
			if (!v.kind)
				die(e->loc, "a function without a result used as a value");
			return v;
		}
		if (is_method_call(e, "hit") || is_method_call(e, "miss"))
			die(e->loc, "unsupported construct: apply().hit/miss inside a larger expression");
		die(e->loc, "unsupported construct: this call in an expression");
	default:
		die(e->loc, "unsupported construct: %s in an expression", p4_nkind_name(e->kind));
	}
}

/* d = e, computing straight into d when one instruction does it. */
static void compile_into(struct code *c, struct p4_node *e, struct val d)
{
	struct val v;

	if (!e->is_const && e->kind == N_BINARY && e->op != P_PP && (unsigned)expr_width(e) == d.width) {
		compile_binary(c, e, &d);
		return;
	}
	v = compile_expr(c, e);
	if (v.kind == PISA_OPND_CONST && v.width > 64)
		v.width = d.width > 64 ? 64 : d.width;
	if (v.width > 64 || d.width > 64) {
		/* wide copy: 64-bit pieces */
		unsigned done = 0;

		if (v.width != d.width || v.kind == PISA_OPND_CONST)
			die(e->loc, "unsupported construct: assignment of a %u-bit value", (unsigned)d.width);
		while (done < d.width) {
			unsigned n = d.width - done > 64 ? 64 : d.width - done;
			struct val a = v, b = d;

			a.off = (uint16_t)(a.off + done);
			a.width = n;
			b.off = (uint16_t)(b.off + done);
			b.width = n;
			emit(c, PISA_SET, 0, 0, b, a, NONE);
			done += n;
		}
		return;
	}
	if (v.kind == d.kind && v.off == d.off && v.width == d.width)
		return;
	emit(c, PISA_SET, v.sgn && v.width < d.width ? PISA_INSN_SIGNED : 0, 0, d, v, NONE);
}

/* A varbit field (or a header with one) is only extracted and emitted. */
static void no_varbit(const struct obj *o, struct p4_loc loc)
{
	if (o->varbit)
		die(loc, "unsupported construct: %s %s used other than by extract and emit",
		    o->kind == O_FIELD ? "varbit field" : "header with a varbit field", o->path);
}

/* The PHV bits an assignment writes. */
static struct val lvalue(struct code *c, struct p4_node *e)
{
	struct obj *o;

	if (e->kind == N_SLICE) {
		struct val v = lvalue(c, e->k[0]);

		return slice(v, v.width, (unsigned)e->k[1]->cval, (unsigned)e->k[2]->cval);
	}
	o = resolve(e);
	if (!o)
		die(e->loc, "unsupported construct: assignment to this expression");
	if (o->kind != O_FIELD)
		die(e->loc, "unsupported construct: a header or struct where a field is expected");
	no_varbit(o, e->loc);
	if (o->v.kind != PISA_OPND_PHV)
		die(e->loc, "assignment to an action parameter");
	return o->v;
}

/* ---- statements without tables ---- */
struct sctx {
	int kind;		/* 0 control apply (return = exit), 1 action/function, 2 parser */
	int *rets, nrets, caprets;	/* jumps to the end of the inlined body */
	struct val retv;	/* function result */
};

static void cstmt(struct code *c, struct p4_node *s, struct sctx *x);

static struct obj *field_obj(struct val v, const struct p4_type *t)
{
	struct obj *o = new_obj(O_FIELD, t, NULL, 0);

	o->v = v;
	return o;
}

static void copy_obj(struct code *c, struct obj *d, struct obj *s, struct p4_loc loc)
{
	int i;

	if (d->kind != s->kind || d->n != s->n)
		die(loc, "unsupported construct: assignment between different shapes");
	no_varbit(d, loc);
	no_varbit(s, loc);
	switch (d->kind) {
	case O_FIELD:
		if (d->v.width != s->v.width)
			die(loc, "unsupported construct: assignment between different widths");
		if (d->v.width > 64) {
			unsigned done = 0;

			while (done < d->v.width) {
				unsigned n = d->v.width - done > 64 ? 64 : d->v.width - done;

				emit(c, PISA_SET, 0, 0, slice(d->v, d->v.width, d->v.width - 1 - done, d->v.width - done - n),
				     slice(s->v, s->v.width, s->v.width - 1 - done, s->v.width - done - n), NONE);
				done += n;
			}
		} else {
			emit(c, PISA_SET, 0, 0, d->v, s->v, NONE);
		}
		return;
	case O_HDR:
		if (d->hdr != s->hdr)
			emit(c, PISA_COPYHDR, 0, d->hdr, NONE, vconst((uint64_t)s->hdr, 16), NONE);
		if (d->parent) {
			/* a valid copy into a union member invalidates its siblings */
			int j = jump_if_zero(c, vphv(PISA_VALID_BIT(d->hdr), 1));

			only_valid(c, d);
			patch_jump(c, j);
		}
		return;
	default:
		for (i = 0; i < d->n; i++)
			copy_obj(c, d->kids[i], s->kids[i], loc);
	}
}

static void assign(struct code *c, struct p4_node *l, struct p4_node *r)
{
	struct obj *d = l->kind == N_SLICE ? NULL : resolve(l);

	if (d && d->kind != O_FIELD) {
		struct obj *s = resolve(r);
		int i;

		if (r->kind == N_INVALID && (d->kind == O_HDR || d->kind == O_UNION)) {
			invalidate(c, d);
			return;
		}
		if (r->kind == N_STRUCTEXPR && d->kind != O_STACK && d->kind != O_UNION) {
			struct p4_node *ne;

			if (d->kind == O_HDR) {
				emit(c, PISA_SETVALID, 0, d->hdr, NONE, NONE, NONE);
				only_valid(c, d);
			}
			for (ne = r->list; ne; ne = ne->next) {
				struct obj *k = obj_kid(d, ne->name);

				if (!k || k->kind != O_FIELD)
					die(ne->loc, "unsupported construct: nested initializer for '%s'", ne->name);
				compile_into(c, ne->k[0], k->v);
			}
			return;
		}
		if (r->kind == N_LISTEXPR && d->kind == O_STRUCT) {
			struct p4_node *ne;

			for (ne = r->list, i = 0; ne && i < d->n; ne = ne->next, i++) {
				if (d->kids[i]->kind != O_FIELD)
					die(ne->loc, "unsupported construct: nested list initializer");
				compile_into(c, ne, d->kids[i]->v);
			}
			return;
		}
		if (!s)
			die(r->loc, "unsupported construct: this value for a %s", d->kind == O_HDR ? "header" : "struct");
		copy_obj(c, d, s, l->loc);
		return;
	}
	compile_into(c, r, lvalue(c, l));
}

/* ---- field lists ---- */
static void flist_add(struct pisa_field_list *fl, int *cap, struct val v, struct p4_loc loc)
{
	unsigned done = 0;

	if (v.kind != PISA_OPND_PHV)
		die(loc, "unsupported construct: a constant or action parameter in a field list");
	while (done < v.width) {
		unsigned n = v.width - done > 64 ? 64 : v.width - done;

		VPUSH(fl->fields, fl->nfields, *cap);
		fl->fields[fl->nfields].bitoff = (uint16_t)(v.off + done);
		fl->fields[fl->nfields].width = (uint16_t)n;
		fl->nfields++;
		done += n;
	}
}

/*
 * A varbit field in a field list: allowed last in the list of a csum16 or xor16
 * checksum (flist_varbit), where its whole area counts: the bytes past the
 * extracted length are zero (EXTRACT_VAR), and trailing zero bytes change
 * neither sum. flist_varbit_end: the list's length after it, to check it is last.
 */
static int flist_varbit;
static int flist_varbit_end;

static void flist_obj(struct pisa_field_list *fl, int *cap, struct obj *o, struct p4_loc loc)
{
	int i;

	if (o->kind == O_FIELD && o->varbit && flist_varbit) {
		flist_add(fl, cap, o->v, loc);
		flist_varbit_end = fl->nfields;
		return;
	}
	if (o->kind != O_HDR || !flist_varbit)
		no_varbit(o, loc);
	if (o->kind == O_FIELD) {
		flist_add(fl, cap, o->v, loc);
		return;
	}
	for (i = 0; i < o->n; i++)
		if (o->kids[i])
			flist_obj(fl, cap, o->kids[i], loc);
}

static int new_flist(struct pisa_field_list *fl)
{
	VPUSH(B.flists, B.nflists, B.capflists);
	B.flists[B.nflists] = *fl;
	return B.nflists++;
}

/* A field list from `{ a, b }` or a struct / header. */
static int make_flist(struct code *c, struct p4_node *e)
{
	struct pisa_field_list fl = { 0, NULL };
	int cap = 0;
	struct p4_node *x;

	if (e->kind == N_LISTEXPR || e->kind == N_STRUCTEXPR) {
		for (x = e->list; x; x = x->next) {
			struct p4_node *y = x->kind == N_NAMEDEXPR ? x->k[0] : x;
			struct obj *o = resolve(y);

			if (o)
				flist_obj(&fl, &cap, o, y->loc);
			else
				flist_add(&fl, &cap, compile_expr(c, y), y->loc);
		}
	} else {
		struct obj *o = resolve(e);

		if (o)
			flist_obj(&fl, &cap, o, e->loc);
		else
			flist_add(&fl, &cap, compile_expr(c, e), e->loc);
	}
	if (!fl.nfields)
		die(e->loc, "unsupported construct: an empty field list");
	if (flist_varbit_end && flist_varbit_end != fl.nfields)
		die(e->loc, "unsupported construct: a varbit field that is not the last of a checksum's field list");
	return new_flist(&fl);
}

/* Metadata fields annotated @field_list(index), for the *_preserving_field_list externs. */
static void flist_annot(struct pisa_field_list *fl, int *cap, struct obj *o, long idx)
{
	const struct p4_node *f;
	int i;

	if (!o || o->kind != O_STRUCT || !o->type || !o->type->decl)
		return;
	for (f = o->type->decl->list, i = 0; f && i < o->n; f = f->next, i++) {
		const struct p4_node *a;

		for (a = f->annots; a; a = a->next)
			if (!strcmp(a->name, "field_list") && a->text) {
				const char *p = a->text;

				while (*p) {
					char *end;
					long v;

					while (*p && (*p < '0' || *p > '9'))
						p++;
					if (!*p)
						break;
					v = strtol(p, &end, 0);
					p = end;
					if (v == idx) {
						flist_obj(fl, cap, o->kids[i], f->loc);
						break;
					}
				}
			}
		if (o->kids[i] && o->kids[i]->kind == O_STRUCT)
			flist_annot(fl, cap, o->kids[i], idx);
	}
}

static struct val preserving_flist(struct p4_node *e)
{
	struct pisa_field_list fl = { 0, NULL };
	int cap = 0;

	if (!e->is_const)
		die(e->loc, "the field list index must be a constant");
	flist_annot(&fl, &cap, B.root_meta, (long)e->cval);
	if (!fl.nfields)
		return vconst(0, 8);
	return vconst((uint64_t)new_flist(&fl) + 1, 8);
}

/*
 * crc16_custom and crc32_custom start, in BMv2, as crc16 and crc32 (simple_switch's
 * set_crc16_parameters / set_crc32_parameters change them at run time, which no
 * switch here does): the hash unit carries those parameters.
 */
static void custom_crc(struct pisa_hash_unit *u)
{
	if (u->algo == PISA_HASH_CRC16_CUSTOM) {
		u->crc_width = 16;
		u->poly = 0x8005;
		u->init = 0;
		u->xor_out = 0;
	} else if (u->algo == PISA_HASH_CRC32_CUSTOM) {
		u->crc_width = 32;
		u->poly = 0x04C11DB7;
		u->init = 0xFFFFFFFF;
		u->xor_out = 0xFFFFFFFF;
	} else {
		return;
	}
	u->reflect_in = u->reflect_out = 1;
}

/* ---- externs ---- */
static struct ext *ext_of(struct p4_node *e)
{
	int i;

	if (e->kind == N_NAME && e->decl)
		for (i = 0; i < B.nexts; i++)
			if (B.exts[i].decl == e->decl)
				return &B.exts[i];
	die(e->loc, "unsupported construct: this extern object");
}

static struct p4_node *nth_arg(struct p4_node *call, int n)
{
	struct p4_node *a = call->list;

	while (a && n--)
		a = a->next;
	if (!a)
		die(call->loc, "missing argument");
	return a->kind == N_NAMEDEXPR ? a->k[0] : a;
}

static void extern_call(struct code *c, struct p4_node *e, const char *name)
{
	struct val a, b;

	if (!strcmp(name, "mark_to_drop")) {
		emit(c, PISA_DROP, 0, 0, NONE, NONE, NONE);
	} else if (!strcmp(name, "hash")) {
		struct pisa_hash_unit u;
		struct p4_node *algo = nth_arg(e, 1);

		memset(&u, 0, sizeof(u));
		if (!algo->is_const)
			die(algo->loc, "the hash algorithm must be a constant");
		u.algo = (uint8_t)algo->cval;
		custom_crc(&u);
		u.field_list = (uint16_t)make_flist(c, nth_arg(e, 3));
		VPUSH(B.hunits, B.nhunits, B.caphunits);
		B.hunits[B.nhunits] = u;
		a = operand(c, nth_arg(e, 2), 32);
		b = operand(c, nth_arg(e, 4), 32);
		emit(c, PISA_HASH, 0, B.nhunits++, lvalue(c, nth_arg(e, 0)), a, b);
	} else if (!strcmp(name, "random")) {
		struct val d = lvalue(c, nth_arg(e, 0));

		a = operand(c, nth_arg(e, 1), d.width);
		b = operand(c, nth_arg(e, 2), d.width);
		emit(c, PISA_RANDOM, 0, 0, d, a, b);
	} else if (!strcmp(name, "digest")) {
		struct p4_node *data = nth_arg(e, 1);
		const struct p4_type *t = tres(data->type);
		struct pisa_digest dg;

		dg.field_list = (uint16_t)make_flist(c, data);
		VPUSH(B.digests, B.ndigests, B.capdigests);
		VPUSH(B.rt_digests, B.ndigests, B.capdigests2);
		B.digests[B.ndigests] = dg;
		B.rt_digests[B.ndigests].name = (char *)(t && t->name ? t->name : fmt("digest_%d", B.ndigests));
		B.rt_digests[B.ndigests].p4info_id = 0x17u << 24 | (uint32_t)(B.ndigests + 1);
		emit(c, PISA_DIGEST, 0, B.ndigests++, NONE, NONE, NONE);
	} else if (!strcmp(name, "clone") || !strcmp(name, "clone_preserving_field_list")) {
		struct p4_node *ty = nth_arg(e, 0);

		if (!ty->is_const)
			die(ty->loc, "the clone type must be a constant");
		a = operand(c, nth_arg(e, 1), 32);
		b = name[5] ? preserving_flist(nth_arg(e, 2)) : vconst(0, 8);
		emit(c, PISA_CLONE, 0, (int)ty->cval + 1, NONE, a, b);
	} else if (!strcmp(name, "resubmit_preserving_field_list")) {
		emit(c, PISA_RESUBMIT, 0, 0, NONE, preserving_flist(nth_arg(e, 0)), NONE);
	} else if (!strcmp(name, "recirculate_preserving_field_list")) {
		emit(c, PISA_RECIRCULATE, 0, 0, NONE, preserving_flist(nth_arg(e, 0)), NONE);
	} else if (!strcmp(name, "truncate")) {
		emit(c, PISA_TRUNCATE, 0, 0, NONE, operand(c, nth_arg(e, 0), 32), NONE);
	} else if (!strcmp(name, "log_msg") || !strcmp(name, "assume") || !strcmp(name, "assert")) {
		/* no effect on the pipeline (BMv2 only logs; assert is not checked here) */
	} else {
		die(e->loc, "unsupported construct: extern %s here", name);
	}
}

static void method_call(struct code *c, struct p4_node *e)
{
	struct p4_node *callee = e->k[0], *base = callee->k[0];
	const char *m = callee->name;
	const struct p4_type *bt = tres(base->type);
	struct obj *o;
	struct ext *x;

	if (!strcmp(m, "setValid") || !strcmp(m, "setInvalid")) {
		o = recv_header(base);
		emit(c, m[3] == 'V' ? PISA_SETVALID : PISA_SETINVALID, 0, o->hdr, NONE, NONE, NONE);
		if (m[3] == 'V')
			only_valid(c, o);
		return;
	}
	if (!strcmp(m, "push_front") || !strcmp(m, "pop_front")) {
		int n = (int)e->list->cval, i, sz;

		o = resolve(base);
		if (!o || o->kind != O_STACK)
			die(e->loc, "unsupported construct: %s on this expression", m);
		sz = o->n;
		if (m[1] == 'u') {
			for (i = sz - 1; i >= n; i--)
				copy_obj(c, o->kids[i], o->kids[i - n], e->loc);
			for (i = 0; i < n && i < sz; i++)
				invalidate(c, o->kids[i]);
		} else {
			for (i = 0; i + n < sz; i++)
				copy_obj(c, o->kids[i], o->kids[i + n], e->loc);
			for (i = sz - n; i < sz; i++)
				if (i >= 0)
					invalidate(c, o->kids[i]);
		}
		return;
	}
	if (bt && bt->kind == TY_EXTERN) {
		x = ext_of(base);
		if (x->kind == 3 && !strcmp(m, "count"))
			return;	/* direct counters count by themselves on a hit */
		if (x->kind == 0 && !strcmp(m, "count")) {
			emit(c, PISA_COUNT, 0, x->id, NONE, e->list ? operand(c, nth_arg(e, 0), 32) : vconst(0, 32), NONE);
			return;
		}
		if (x->kind == 1 && !strcmp(m, "read")) {
			emit(c, PISA_REG_READ, 0, x->id, lvalue(c, nth_arg(e, 0)), operand(c, nth_arg(e, 1), 32), NONE);
			return;
		}
		if (x->kind == 1 && !strcmp(m, "write")) {
			struct val i = operand(c, nth_arg(e, 0), 32);

			emit(c, PISA_REG_WRITE, 0, x->id, NONE, i, operand(c, nth_arg(e, 1), 64));
			return;
		}
		if (x->kind == 2 && !strcmp(m, "execute_meter")) {
			struct val i = operand(c, nth_arg(e, 0), 32);

			emit(c, PISA_METER, 0, x->id, lvalue(c, nth_arg(e, 1)), i, NONE);
			return;
		}
		if (x->kind == 4 && !strcmp(m, "read")) {
			if (x->id < 0)
				die(e->loc, "direct meter %s is read before a table attaches it", x->name);
			emit(c, PISA_DMETER, 0, x->id, lvalue(c, nth_arg(e, 0)), NONE, NONE);
			return;
		}
		die(e->loc, "unsupported construct: method %s of extern %s", m, bt->name);
	}
	if (!strcmp(m, "apply") && bt && bt->kind == TY_TABLE)
		die(e->loc, "unsupported construct: a table applied inside an action or function");
	if (!strcmp(m, "apply"))
		die(e->loc, "unsupported construct: applying a parser or control from another one");
	die(e->loc, "unsupported construct: method %s here", m);
}

static void call_stmt(struct code *c, struct p4_node *e)
{
	struct p4_node *callee = e->k[0];

	if (callee->kind == N_MEMBER) {
		method_call(c, e);
		return;
	}
	if (callee->kind == N_NAME && callee->decl) {
		switch (callee->decl->kind) {
		case N_ACTION:
		case N_FUNCTION:
			inline_call(c, e);
			return;
		case N_EXTERN_FUNC:
			extern_call(c, e, callee->decl->name);
			return;
		default:
			break;
		}
	}
	die(e->loc, "unsupported construct: this call");
}

/* ---- aliasing of header and struct arguments ---- */

/* Marks o's PHV bits in set (mark), or sets *hit when one of them is set. */
static void obj_bits(const struct obj *o, uint8_t *set, int mark, int *hit)
{
	unsigned off = 0, w = 0, i;
	int k;

	if (o->kind == O_FIELD && o->v.kind == PISA_OPND_PHV) {
		off = o->v.off;
		w = o->v.width;
	} else if (o->kind == O_HDR) {
		off = B.hdrs[o->hdr].phv_byte * 8u;
		w = B.hdrs[o->hdr].bytes * 8u;
		i = PISA_VALID_BIT(o->hdr);
		if (mark)
			set[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		else if (set && set[i / 8] & (0x80 >> (i % 8)))
			*hit = 1;
	} else {
		for (k = 0; k < o->n; k++)
			if (o->kids[k])
				obj_bits(o->kids[k], set, mark, hit);
		return;
	}
	for (i = off; set && i < off + w; i++) {
		if (mark)
			set[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		else if (set[i / 8] & (0x80 >> (i % 8)))
			*hit = 1;
	}
}

static int touches(struct p4_node *n, uint8_t *set, int writes, int w, int depth);

/* touches() on n alone, not on the nodes after it */
static int touches1(struct p4_node *n, uint8_t *set, int writes, int w, int depth)
{
	struct p4_node *nx;
	int r;

	if (!n)
		return 0;
	nx = n->next;
	n->next = NULL;
	r = touches(n, set, writes, w, depth);
	n->next = nx;
	return r;
}

/* A call: its receiver, its arguments (written through out/inout parameters) and,
 * for an action or function, what its body touches. */
static int call_touches(struct p4_node *e, uint8_t *set, int writes, int depth)
{
	struct p4_node *callee = e->k[0], *d = NULL, *x, *p, *body;
	int i;

	if (callee->kind == N_MEMBER) {
		const char *m = callee->name;
		const struct p4_type *bt = tres(callee->k[0]->type);
		int wr = !strcmp(m, "setValid") || !strcmp(m, "setInvalid") ||
			 !strcmp(m, "push_front") || !strcmp(m, "pop_front");

		if (touches1(callee->k[0], set, writes, wr, depth))
			return 1;
		if (bt && bt->kind == TY_EXTERN && bt->decl)
			for (d = bt->decl->list; d; d = d->next)
				if (d->kind == N_METHOD && !strcmp(d->name, m))
					break;
	} else {
		d = callee->decl;
	}
	for (x = e->list, i = 0; x; x = x->next, i++) {
		struct p4_node *a = x->kind == N_NAMEDEXPR ? x->k[0] : x;
		int k = 0;

		/* the parameter: by name or by place; unknown ones may write */
		for (p = d ? d->list : NULL; p; p = p->next, k++)
			if (x->kind == N_NAMEDEXPR ? !strcmp(p->name, x->name) : k == i)
				break;
		if (touches1(a, set, writes, !p || p->op == D_OUT || p->op == D_INOUT, depth))
			return 1;
	}
	if (d && (d->kind == N_ACTION || d->kind == N_FUNCTION) && depth < 16) {
		body = d->kind == N_FUNCTION ? d->k[1] : d->k[0];
		return touches(body, set, writes, 0, depth + 1);
	}
	return 0;
}

/*
 * Does code n reach a PHV bit of set through a name (writes only: by writing it)?
 * The parameters of the action being inlined are not bound yet, so what the body
 * reaches through them does not count: only the other names do.
 */
static int touches(struct p4_node *n, uint8_t *set, int writes, int w, int depth)
{
	int hit = 0, i;

	for (; n && !hit; n = n->next) {
		struct obj *o = NULL;

		if (n->kind == N_NAME || n->kind == N_MEMBER || n->kind == N_INDEX)
			o = peek(n);
		if (o) {
			if (w || !writes)
				obj_bits(o, set, 0, &hit);
			continue;
		}
		if (n->kind == N_ASSIGN) {
			hit = touches1(n->k[0], set, writes, 1, depth) ||
			      touches1(n->k[1], set, writes, 0, depth);
			continue;
		}
		if (n->kind == N_CALL) {
			hit = call_touches(n, set, writes, depth);
			continue;
		}
		for (i = 0; i < 4 && !hit; i++)
			hit = touches1(n->k[i], set, writes, w, depth);
		if (!hit)
			hit = touches(n->list, set, writes, 0, depth);
	}
	return hit;
}

/*
 * Whether header or struct argument o of parameter p needs a copy: the body of d
 * (or another argument of the call) reaches o's bits through another name. An in
 * parameter only minds writes through other names.
 */
static int aliased(struct p4_node *call, struct p4_node *d, struct p4_node *p, struct obj *o,
		   struct p4_node *arg)
{
	uint8_t *set = zalloc(8192);
	struct p4_node *x;
	int hit = 0;

	obj_bits(o, set, 1, NULL);
	for (x = call->list; x && !hit; x = x->next) {
		struct p4_node *a = x->kind == N_NAMEDEXPR ? x->k[0] : x;
		struct obj *ao = a == arg ? NULL : peek(a);

		if (ao)
			obj_bits(ao, set, 0, &hit);
	}
	return hit || touches(d->kind == N_FUNCTION ? d->k[1] : d->k[0], set, p->op == D_IN, 0, 0);
}

static int has_headers(const struct obj *o)
{
	int i;

	if (o->kind == O_HDR)
		return 1;
	for (i = 0; i < o->n; i++)
		if (o->kids[i] && has_headers(o->kids[i]))
			return 1;
	return 0;
}

/* A struct of scalars shaped like o, in temporaries. */
static struct obj *tmp_obj(const struct obj *o, struct p4_loc loc)
{
	struct obj *t;
	int i;

	if (o->kind == O_FIELD) {
		t = field_obj(tmp(o->v.width, loc), o->type);
		t->v.sgn = o->v.sgn;
		return t;
	}
	t = new_obj(o->kind, o->type, o->path, o->n);
	for (i = 0; i < o->n; i++) {
		t->names[i] = o->names[i];
		t->kids[i] = o->kids[i] ? tmp_obj(o->kids[i], loc) : NULL;
	}
	return t;
}

/* The entry state of an out argument: fields 0 (as BMv2 initializes locals),
 * headers invalid. */
static void out_init(struct code *c, const struct obj *o)
{
	unsigned done;
	int i;

	if (o->kind == O_HDR) {
		emit(c, PISA_SETINVALID, 0, o->hdr, NONE, NONE, NONE);
		return;
	}
	if (o->kind == O_FIELD) {
		for (done = 0; done < o->v.width; done += 64)
			emit(c, PISA_SET, 0, 0, slice(o->v, o->v.width, o->v.width - 1 - done,
			     o->v.width - done > 64 ? o->v.width - done - 64 : 0), vconst(0, 1), NONE);
		return;
	}
	for (i = 0; i < o->n; i++)
		if (o->kids[i])
			out_init(c, o->kids[i]);
}

/*
 * Inlines an action or function with the spec's copy-in/copy-out: every scalar
 * argument gets a temporary; inout ones are copied in, out ones start at 0 (as BMv2
 * initializes locals), and both are copied back to the caller's lvalue when the body
 * ends, so writes through another name during the call are overwritten as the spec
 * says. A header or struct argument is the caller's object itself unless the body
 * (or another argument) reaches that object through another name (aliased()): then
 * a struct of scalars is copied in and out like a scalar, and a header is refused
 * by name. An out argument starts as out_init() says.
 */
#define MAX_COPY_OUT 64

/* What parameter p of d binds to for header or struct argument o (expression a). */
static struct obj *copy_in(struct code *c, struct p4_node *call, struct p4_node *d,
			   struct p4_node *p, struct obj *o, struct p4_node *a,
			   struct obj **out_dst, struct obj **out_tmp, int *nout)
{
	struct obj *t;

	if (o->kind == O_FIELD)
		return o;
	if (!aliased(call, d, p, o, a)) {
		if (p->op == D_OUT)
			out_init(c, o);
		return o;
	}
	if (has_headers(o))
		die(a->loc, "unsupported construct: %s %s is also reached through another name in %s: copy-in/copy-out of headers",
		    p->op == D_IN ? "in argument" : "argument", o->path ? o->path : p->name, d->name);
	t = tmp_obj(o, a->loc);
	if (p->op == D_OUT)
		out_init(c, t);
	else
		copy_obj(c, t, o, a->loc);
	if (p->op != D_IN) {
		if (*nout == MAX_COPY_OUT)
			die(a->loc, "unsupported construct: more than %d out/inout arguments", MAX_COPY_OUT);
		out_dst[*nout] = o;
		out_tmp[(*nout)++] = t;
	}
	return t;
}

static struct val inline_call(struct code *c, struct p4_node *call)
{
	struct p4_node *d = call->k[0]->decl, *p, *body;
	struct sctx in = { .kind = 1 };
	struct obj *out_dst[MAX_COPY_OUT], *out_tmp[MAX_COPY_OUT];
	int mark = B.nbinds, i, n, nout = 0;

	for (p = d->list, n = 0; p; p = p->next, n++) {
		struct p4_node *a = NULL, *x;
		struct obj *o;

		for (x = call->list, i = 0; x; x = x->next, i++)
			if (x->kind == N_NAMEDEXPR ? !strcmp(x->name, p->name) : i == n) {
				a = x->kind == N_NAMEDEXPR ? x->k[0] : x;
				break;
			}
		if (!a)
			a = p->k[1];
		if (!a)
			die(call->loc, "unsupported construct: parameter '%s' without an argument", p->name);
		if (p->op == D_OUT || p->op == D_INOUT) {
			if (a->kind == N_DONTCARE) {
				int w = twidth(p->type);

				if (w <= 0)
					die(a->loc, "unsupported construct: _ for a non-scalar argument");
				o = field_obj(tmp((unsigned)w, a->loc), p->type);
			} else if (twidth(p->type) > 0) {
				struct val dst = lvalue(c, a), t = tmp(dst.width, a->loc);

				if (nout == MAX_COPY_OUT)
					die(a->loc, "unsupported construct: more than %d out/inout arguments",
					    MAX_COPY_OUT);
				out_dst[nout] = field_obj(dst, p->type);
				o = field_obj(t, p->type);
				if (p->op == D_INOUT) {
					copy_obj(c, o, out_dst[nout], a->loc);
				} else {
					unsigned done;

					for (done = 0; done < t.width; done += 64)
						emit(c, PISA_SET, 0, 0, slice(t, t.width, t.width - 1 - done,
						     t.width - done > 64 ? t.width - done - 64 : 0),
						     vconst(0, 1), NONE);
				}
				o->v.sgn = (uint8_t)tsigned(p->type);
				out_tmp[nout++] = o;
			} else {
				o = resolve(a);
				if (!o)
					die(a->loc, "unsupported construct: this out argument");
				o = copy_in(c, call, d, p, o, a, out_dst, out_tmp, &nout);
			}
		} else if (twidth(p->type) > 0) {
			int w = twidth(p->type);

			if (a->is_const) {
				o = field_obj(vconst((uint64_t)a->cval, (unsigned)w), p->type);
			} else {
				o = field_obj(tmp((unsigned)w, a->loc), p->type);
				compile_into(c, a, o->v);
			}
			o->v.sgn = (uint8_t)tsigned(p->type);
		} else {
			o = resolve(a);
			if (!o)
				die(a->loc, "unsupported construct: this argument");
			o = copy_in(c, call, d, p, o, a, out_dst, out_tmp, &nout);
		}
		bind_push(p, o);
	}
	if (d->kind == N_FUNCTION) {
		int w = d->k[0] ? twidth(d->k[0]->type) : -1;

		body = d->k[1];
		if (w > 0)
			in.retv = tmp((unsigned)w, call->loc);
	} else {
		body = d->k[0];
	}
	if (body)
		cstmt(c, body, &in);
	for (i = 0; i < in.nrets; i++)
		patch_jump(c, in.rets[i]);
	for (i = 0; i < nout; i++)
		copy_obj(c, out_dst[i], out_tmp[i], call->loc);
	B.nbinds = mark;
	return in.retv;
}

static void switch_value(struct code *c, struct p4_node *s, struct sctx *x)
{
	struct val v = operand(c, s->k[0], (unsigned)expr_width(s->k[0]));
	struct p4_node *cs, *g;
	int ends[256], nends = 0, i;
	unsigned w = (unsigned)expr_width(s->k[0]);

	v = full(c, v, w, s->loc);
	for (cs = s->list; cs; ) {
		/* a group of labels sharing one body */
		struct p4_node *first = cs, *body;
		int dflt = 0, j;
		struct val hit = tmp(1, s->loc), t1 = tmp(1, s->loc);

		while (cs && !cs->k[1])
			cs = cs->next;
		body = cs ? cs->k[1] : NULL;
		emit(c, PISA_SET, 0, 0, hit, vconst(0, 1), NONE);
		for (g = first; g; g = g->next) {
			if (g->k[0]->kind == N_DEFAULT) {
				dflt = 1;
			} else {
				emit(c, PISA_EQ, 0, 0, t1, v, operand(c, g->k[0], w));
				emit(c, PISA_OR, 0, 0, hit, hit, t1);
			}
			if (g == cs)
				break;
		}
		if (dflt)
			emit(c, PISA_SET, 0, 0, hit, vconst(1, 1), NONE);
		j = jump_if_zero(c, hit);
		if (body)
			cstmt(c, body, x);
		if (nends >= 256)
			die(s->loc, "switch too large");
		ends[nends++] = jump_always(c);
		patch_jump(c, j);
		if (cs)
			cs = cs->next;
	}
	for (i = 0; i < nends; i++)
		patch_jump(c, ends[i]);
}

static void cstmt(struct code *c, struct p4_node *s, struct sctx *x)
{
	unsigned mark = B.scratch;
	struct p4_node *k;
	int j1, j2;

	switch (s->kind) {
	case N_BLOCK:
		for (k = s->list; k; k = k->next)
			cstmt(c, k, x);
		break;
	case N_ASSIGN:
		assign(c, s->k[0], s->k[1]);
		break;
	case N_CALLSTMT:
		call_stmt(c, s->k[0]);
		break;
	case N_IF:
		j1 = jump_if_zero(c, operand(c, s->k[0], 1));
		cstmt(c, s->k[1], x);
		if (s->k[2]) {
			j2 = jump_always(c);
			patch_jump(c, j1);
			cstmt(c, s->k[2], x);
			patch_jump(c, j2);
		} else {
			patch_jump(c, j1);
		}
		break;
	case N_SWITCH:
		if (s->k[0]->type && s->k[0]->type->kind == TY_ACTION)
			die(s->loc, "unsupported construct: switch on action_run here");
		switch_value(c, s, x);
		break;
	case N_EXIT:
		emit(c, PISA_EXIT, 0, 0, NONE, NONE, NONE);
		break;
	case N_RETURN:
		if (x->kind == 0) {
			emit(c, PISA_EXIT, 0, 0, NONE, NONE, NONE);
			break;
		}
		if (x->kind == 2)
			die(s->loc, "unsupported construct: return in a parser");
		if (s->k[0] && x->retv.kind)
			compile_into(c, s->k[0], x->retv);
		VPUSH(x->rets, x->nrets, x->caprets);
		x->rets[x->nrets++] = jump_always(c);
		break;
	case N_VARDECL:
		if (s->k[1]) {
			struct obj *o = lookup(s);

			if (!o)
				die(s->loc, "unsupported construct: local variable of this type");
			if (o->kind == O_FIELD)
				compile_into(c, s->k[1], o->v);
			else {
				struct p4_node nm = *s;

				nm.kind = N_NAME;
				nm.decl = s;
				assign(c, &nm, s->k[1]);
			}
		}
		break;
	case N_CONST:
	case N_EMPTY:
		break;
	default:
		die(s->loc, "unsupported construct: %s statement", p4_nkind_name(s->kind));
	}
	B.scratch = mark;
}

/* ---- tables ---- */
static struct p4_node *noaction_decl;
static struct p4_node *toplevel;

static int is_toplevel(const struct p4_node *d)
{
	const struct p4_node *n;

	for (n = toplevel; n; n = n->next)
		if (n == d)
			return 1;
	return 0;
}

static const char *expr_str(struct p4_node *e)
{
	switch (e->kind) {
	case N_NAME: return e->name;
	case N_MEMBER: return fmt("%s.%s", expr_str(e->k[0]), e->name);
	case N_INDEX: return fmt("%s[%d]", expr_str(e->k[0]), (int)e->k[1]->cval);
	case N_SLICE:
		return fmt("%s[%d:%d]", expr_str(e->k[0]), (int)e->k[1]->cval, (int)e->k[2]->cval);
	case N_CALL:
		if (is_method_call(e, "isValid"))
			return fmt("%s.$valid$", expr_str(e->k[0]->k[0]));
		break;
	default:
		break;
	}
	die(e->loc, "unsupported construct: this table key expression");
}

/* The image action for a P4 action used by a table: parameters come from action data. */
static int table_action_id(struct p4_node *d)
{
	struct lact *la;
	struct p4_node *p;
	struct sctx in = { .kind = 1 };
	struct code c = { 0 };
	int mark = B.nbinds, i, np = 0;
	unsigned off = 0;

	for (i = 0; i < B.nacts; i++)
		if (B.acts[i].decl == d)
			return i;
	for (p = d->list; p; p = p->next)
		np++;
	VPUSH(B.acts, B.nacts, B.capacts);
	la = &B.acts[B.nacts];
	la->decl = d;
	la->rt.name = (char *)(is_toplevel(d) ? rt_name(d, NULL) : rt_name(d, B.ctl_name));
	la->rt.p4info_id = 0x01u << 24 | (uint32_t)(B.nacts + 1);
	la->rt.params = zalloc(sizeof(*la->rt.params) * (size_t)(np + 1));
	for (p = d->list; p; p = p->next) {
		int w = twidth(p->type);
		struct val v = { .kind = PISA_OPND_ADATA };

		if (p->op != D_NONE)
			die(p->loc, "unsupported construct: directional parameter '%s' of an action a table runs", p->name);
		if (w <= 0)
			die(p->loc, "unsupported construct: action parameter of type %s", p4_type_str(p->type));
		if (w > 64)
			die(p->loc, "unsupported construct: action parameter wider than 64 bits");
		v.off = (uint16_t)off;
		v.width = (unsigned)w;
		v.sgn = (uint8_t)tsigned(p->type);
		la->rt.params[la->rt.nparams].name = (char *)p->name;
		la->rt.params[la->rt.nparams].width = (uint16_t)w;
		la->rt.params[la->rt.nparams].adata_off = (uint16_t)off;
		la->rt.nparams++;
		off += (unsigned)w;
		bind_push(p, field_obj(v, p->type));
	}
	la->a.adata_bits = (uint16_t)off;
	B.nacts++;
	if (d->k[0])
		cstmt(&c, d->k[0], &in);
	for (i = 0; i < in.nrets; i++)
		patch_jump(&c, in.rets[i]);
	B.nbinds = mark;
	la = &B.acts[B.nacts - 1];
	la->a.insns = c.v;
	la->a.ninsns = (uint16_t)c.n;
	return B.nacts - 1;
}

static struct p4_node *prop(struct p4_node *t, int kind, const char *name)
{
	struct p4_node *p;

	for (p = t->list; p; p = p->next)
		if (p->op == kind && (!name || !strcmp(p->name, name)))
			return p;
	return NULL;
}

static unsigned kb_of(const struct pisa_table *t)
{
	return (t->key_bits + 7u) / 8u;
}

/* Action data of a call `a(args)` with action a's parameter layout. */
static void fill_adata(uint8_t *buf, struct p4_node *call, int aid)
{
	const struct pisa_rt_action *ra = &B.acts[aid].rt;
	struct p4_node *x;
	int i = 0;

	if (!call || call->kind != N_CALL)
		return;
	for (x = call->list; x; x = x->next, i++) {
		struct p4_node *v = x->kind == N_NAMEDEXPR ? x->k[0] : x;
		int k = i, j;

		if (x->kind == N_NAMEDEXPR)
			for (j = 0; j < ra->nparams; j++)
				if (!strcmp(ra->params[j].name, x->name))
					k = j;
		if (k >= ra->nparams)
			continue;
		if (!v->is_const)
			die(v->loc, "unsupported construct: action argument that is not a constant");
		pisa_bits_set(buf, ra->params[k].adata_off, ra->params[k].width, (uint64_t)v->cval);
	}
}

static int find_table_action(const struct pisa_table *t, int aid)
{
	int i;

	for (i = 0; i < t->nactions; i++)
		if (t->actions[i].action == aid)
			return i;
	return -1;
}

/* Set key bits: value/mask of a simple keyset for a w-bit key field. */
static void keyset_vm(struct p4_node *k, unsigned w, uint64_t *v, uint64_t *m, int *is_range,
		      uint64_t *lo, uint64_t *hi, int match)
{
	uint64_t all = w >= 64 ? ~0ull : (1ull << w) - 1;

	*is_range = 0;
	if (k->kind == N_DEFAULT || k->kind == N_DONTCARE) {
		*v = 0;
		*m = 0;
		*lo = 0;
		*hi = all;
		return;
	}
	if (k->kind == N_MASK) {
		if (!k->k[0]->is_const || !k->k[1]->is_const)
			die(k->loc, "unsupported construct: a keyset that is not constant");
		*v = (uint64_t)k->k[0]->cval & all;
		*m = (uint64_t)k->k[1]->cval & all;
		return;
	}
	if (k->kind == N_RANGE) {
		if (!k->k[0]->is_const || !k->k[1]->is_const)
			die(k->loc, "unsupported construct: a range that is not constant");
		*is_range = 1;
		*lo = (uint64_t)k->k[0]->cval & all;
		*hi = (uint64_t)k->k[1]->cval & all;
		*v = 0;
		*m = 0;
		return;
	}
	if (k->kind == N_NAME && k->decl && k->decl->kind == N_VALUESET)
		die(k->loc, "unsupported construct: value_set");
	if (!k->is_const)
		die(k->loc, "unsupported construct: a keyset that is not constant");
	*v = (uint64_t)k->cval & all;
	*m = all;
	if (match == PISA_MATCH_RANGE) {
		*is_range = 1;
		*lo = *hi = *v;
		*v = *m = 0;
	}
}

static void add_crow(int tid, uint32_t index, uint8_t *row, unsigned len)
{
	VPUSH(B.crows, B.ncrows, B.capcrows);
	B.crows[B.ncrows].table = (uint16_t)tid;
	B.crows[B.ncrows].index = index;
	B.crows[B.ncrows].len = (uint16_t)len;
	B.crows[B.ncrows].bytes = row;
	B.ncrows++;
}

static void const_entries(int tid, struct p4_node *ents)
{
	struct pisa_table *t = &B.tabs[tid].t;
	unsigned kb = kb_of(t), rl = (unsigned)pisa_row_bytes(t), nrange = 0, i;
	uint8_t *used = zalloc(t->rows + 1);
	struct p4_node *en, *order[4096];
	uint32_t next_row = 0;
	int n = 0, a, b;

	for (i = 0; i < t->nkeys; i++)
		nrange += t->keys[i].match == PISA_MATCH_RANGE;
	for (en = ents->list; en; en = en->next) {
		if (n >= 4096)
			die(en->loc, "too many entries");
		order[n++] = en;
	}
	/* explicit priorities: lower value first (P4: smaller number = higher priority
	 * unless the largest_priority_wins annotation says otherwise); stable */
	for (a = 1; a < n; a++)
		for (b = a; b > 0 && order[b - 1]->k[2] && order[b]->k[2] &&
		     order[b - 1]->k[2]->cval > order[b]->k[2]->cval; b--) {
			struct p4_node *tmpn = order[b];

			order[b] = order[b - 1];
			order[b - 1] = tmpn;
		}
	for (a = 0; a < n; a++) {
		struct p4_node *ks, *ar, *kx[64];
		uint8_t *row = zalloc(rl), *key = row + PISA_ROW_HDR, *mask = key + kb;
		uint8_t *rng = key + 2 * kb;
		unsigned bit = 0, ri = 0;
		int aid, nk = 0;
		uint32_t index;

		en = order[a];
		ks = en->k[0];
		ar = en->k[1];
		if (ks->kind == N_TUPLEKEY)
			for (ks = ks->list; ks && nk < 64; ks = ks->next)
				kx[nk++] = ks;
		else
			kx[nk++] = ks;
		if (nk != t->nkeys && !(nk == 1 && (kx[0]->kind == N_DEFAULT || kx[0]->kind == N_DONTCARE)))
			die(en->loc, "entry has %d keys, the table %d", nk, t->nkeys);
		for (i = 0; i < t->nkeys; i++) {
			struct p4_node *k = nk == 1 && t->nkeys > 1 ? kx[0] : kx[i];
			unsigned w = t->keys[i].field.width;
			uint64_t v, m, lo, hi;
			int isr;

			keyset_vm(k, w, &v, &m, &isr, &lo, &hi, t->keys[i].match);
			if (t->mem == PISA_MEM_HASH && m != (w >= 64 ? ~0ull : (1ull << w) - 1))
				die(k->loc, "a wildcard or mask in an entry of an exact-match table");
			pisa_bits_set(key, (size_t)(kb * 8 - t->key_bits + bit), w, v);
			if (t->mem == PISA_MEM_TCAM)
				pisa_bits_set(mask, (size_t)(kb * 8 - t->key_bits + bit), w, m);
			if (t->keys[i].match == PISA_MATCH_RANGE) {
				unsigned bw = (w + 7) / 8;

				if (!isr) {
					lo = v & m;
					hi = m ? v | ~m : ~0ull;
					if (w < 64)
						hi &= (1ull << w) - 1;
				}
				pisa_bits_set(rng + ri, bw * 8 - w, w, lo);
				pisa_bits_set(rng + ri + bw, bw * 8 - w, w, hi);
				ri += 2 * bw;
			}
			bit += w;
		}
		aid = table_action_id(ar->decl);
		if (find_table_action(t, aid) < 0)
			die(ar->loc, "entry action is not one of the table's");
		row[0] = PISA_ROW_VALID;
		row[1] = (uint8_t)(aid >> 8);
		row[2] = (uint8_t)aid;
		fill_adata(row + PISA_ROW_HDR + pisa_row_match_bytes(t), ar->list ? ar : NULL, aid);
		if (ar->list) {
			/* fill_adata wants a call: the ACTREF carries the args */
			struct p4_node call = *ar;

			call.kind = N_CALL;
			fill_adata(row + PISA_ROW_HDR + pisa_row_match_bytes(t), &call, aid);
		}
		if (t->mem == PISA_MEM_HASH) {
			unsigned w;

			index = UINT32_MAX;
			for (w = 0; w < t->ways; w++) {
				uint32_t bk = pisa_hash_way(w, key, kb) & ((1u << t->way_bits) - 1);
				uint32_t r = (w << t->way_bits) | bk;

				if (!used[r]) {
					index = r;
					break;
				}
			}
			if (index == UINT32_MAX)
				die(en->loc, "const entry does not fit table %s: every hash way is taken",
				    B.tabs[tid].rt.name);
		} else {
			if (next_row >= t->rows)
				die(en->loc, "table %s has more entries than its size", B.tabs[tid].rt.name);
			index = next_row++;
		}
		used[index] = 1;
		add_crow(tid, index, row, rl);
	}
}

/* pending next pointers: (table, which): 0 hit, 1 miss, 2 + k action k; table -1: the start */
struct slot {
	int tab, which;
};

static struct slot *pend;
static int npend, cappend;
static int cur_block = -1;
static uint16_t gress_start;

static void set_slot(struct slot s, uint16_t to)
{
	struct pisa_table *t;

	if (s.tab < 0) {
		gress_start = to;
		return;
	}
	t = &B.tabs[s.tab].t;
	if (s.which == 0)
		t->next_hit = to;
	else if (s.which == 1)
		t->next_miss = to;
	else
		t->actions[s.which - 2].next = to;
}

static void pend_add(int tab, int which)
{
	VPUSH(pend, npend, cappend);
	pend[npend].tab = tab;
	pend[npend].which = which;
	npend++;
}

static void pend_end(void)
{
	int i;

	for (i = 0; i < npend; i++)
		set_slot(pend[i], PISA_NEXT_END);
	npend = 0;
}

static int new_table(struct p4_loc loc)
{
	struct ltab *lt;
	int i, id;

	VPUSH(B.tabs, B.ntabs, B.captabs);
	id = B.ntabs++;
	lt = &B.tabs[id];
	memset(lt, 0, sizeof(*lt));
	lt->loc = loc;
	lt->t.gress = (uint8_t)B.gress;
	lt->t.next_hit = lt->t.next_miss = PISA_NEXT_END;
	lt->t.direct_counter = lt->t.direct_meter = -1;
	for (i = 0; i < npend; i++)
		set_slot(pend[i], (uint16_t)id);
	npend = 0;
	return id;
}

static int block_get(struct p4_loc loc)
{
	if (cur_block < 0) {
		cur_block = new_table(loc);
		B.tabs[cur_block].block = 1;
		B.tabs[cur_block].rt.name = fmt("%s.$block%d", B.ctl_name, B.blocks++);
		B.tabs[cur_block].rt.const_default = 1;
	}
	return cur_block;
}

static void block_close(void)
{
	if (cur_block < 0)
		return;
	pend_add(cur_block, 0);
	pend_add(cur_block, 1);
	cur_block = -1;
}

static struct ext *ext_by_decl(const struct p4_node *d)
{
	int i;

	for (i = 0; i < B.nexts; i++)
		if (B.exts[i].decl == d)
			return &B.exts[i];
	return NULL;
}

/* The key elements of table d into t and its runtime keys; `selector` keys go to
 * sel (the action selector's hash inputs) when sel is given. */
static void table_keys(struct ltab *lt, struct p4_node *d, struct pisa_field_list *sel, int *selcap)
{
	struct pisa_table *t = &lt->t;
	struct p4_node *p = prop(d, PR_KEY, NULL), *x;
	unsigned kbits = 0;
	int nk = 0;

	for (x = p ? p->list : NULL; x; x = x->next)
		nk++;
	t->keys = zalloc(sizeof(*t->keys) * (size_t)(nk + 1));
	lt->rt.keys = zalloc(sizeof(*lt->rt.keys) * (size_t)(nk + 1));
	t->mem = PISA_MEM_NONE;
	for (x = p ? p->list : NULL; x; x = x->next) {
		struct pisa_key_field *kf = &t->keys[t->nkeys];
		struct p4_node *ke = x->k[0];
		struct val v;
		struct obj *o;
		const char *an = annot_name(x);

		if (is_method_call(ke, "isValid")) {
			v = vphv(PISA_VALID_BIT(recv_header(ke->k[0]->k[0])->hdr), 1);
		} else if (ke->kind == N_SLICE) {
			struct code dummy = { 0 };

			v = lvalue(&dummy, ke);
		} else {
			o = resolve(ke);
			if (!o || o->kind != O_FIELD || o->v.kind != PISA_OPND_PHV)
				die(ke->loc, "unsupported construct: table key that is not a field, slice or isValid()");
			v = o->v;
		}
		if (v.width > 64)
			die(ke->loc, "unsupported construct: table key field wider than 64 bits");
		if (!strcmp(x->name, "selector")) {
			if (!sel)
				die(x->loc, "a selector key in table %s, which has no action_selector",
				    d->name);
			flist_add(sel, selcap, v, ke->loc);
			continue;
		}
		kf->field.bitoff = v.off;
		kf->field.width = (uint16_t)v.width;
		if (!strcmp(x->name, "exact"))
			kf->match = PISA_MATCH_EXACT;
		else if (!strcmp(x->name, "ternary"))
			kf->match = PISA_MATCH_TERNARY;
		else if (!strcmp(x->name, "lpm"))
			kf->match = PISA_MATCH_LPM;
		else if (!strcmp(x->name, "range"))
			kf->match = PISA_MATCH_RANGE;
		else if (!strcmp(x->name, "optional"))
			kf->match = PISA_MATCH_OPTIONAL;
		else
			die(x->loc, "unsupported construct: match kind %s", x->name);
		if (t->mem == PISA_MEM_NONE)
			t->mem = PISA_MEM_HASH;
		if (kf->match != PISA_MATCH_EXACT)
			t->mem = PISA_MEM_TCAM;
		lt->rt.keys[t->nkeys].name = (char *)(an ? an : expr_str(ke));
		lt->rt.keys[t->nkeys].width = (uint16_t)v.width;
		lt->rt.keys[t->nkeys].match = kf->match;
		kbits += v.width;
		t->nkeys++;
	}
	lt->rt.nkeys = t->nkeys;
	t->key_bits = (uint16_t)kbits;
}

/* Rows for `size` entries: a hash table gets up to 4 ways of a power of two each. */
static void table_rows(struct pisa_table *t, unsigned size)
{
	if (t->mem == PISA_MEM_HASH) {
		unsigned ways = size < 4 ? size : 4, per = (size + ways - 1) / ways, wb = 0;

		while ((1u << wb) < per)
			wb++;
		t->ways = (uint8_t)ways;
		t->way_bits = (uint8_t)wb;
		t->rows = ways << wb;
	} else if (t->mem == PISA_MEM_TCAM) {
		t->rows = size;
	}
}

/* The actions list and default action of P4 table d, into image table id. */
static void table_actions(int id, struct p4_node *d)
{
	struct p4_node *p = prop(d, PR_ACTIONS, NULL), *x;
	struct p4_node *dflt = prop(d, PR_OTHER, "default_action");
	struct p4_node *dc = dflt ? dflt->k[0] : NULL;
	struct p4_node *dd = dc ? (dc->kind == N_CALL ? dc->k[0]->decl : dc->decl) : noaction_decl;
	struct pisa_table *t;
	unsigned adata = 0;
	int na = 0, aid;

	for (x = p ? p->list : NULL; x; x = x->next)
		na++;
	B.tabs[id].t.actions = zalloc(sizeof(struct pisa_table_action) * (size_t)(na + 2));
	for (x = p ? p->list : NULL; x; x = x->next) {
		if (x->list)
			die(x->loc, "unsupported construct: directional arguments in a table's actions list");
		aid = table_action_id(x->decl);
		t = &B.tabs[id].t;
		t->actions[t->nactions].action = (uint16_t)aid;
		t->actions[t->nactions].next = PISA_NEXT_END;
		t->actions[t->nactions].flags = (uint8_t)((has_annot(x, "defaultonly") ? PISA_TA_DEFAULT_ONLY : 0) |
							 (has_annot(x, "tableonly") ? PISA_TA_TABLE_ONLY : 0));
		t->nactions++;
		if (B.acts[aid].a.adata_bits > adata)
			adata = B.acts[aid].a.adata_bits;
	}
	if (!dd)
		die(d->loc, "table %s has no default action and NoAction is not declared", d->name);
	aid = table_action_id(dd);
	t = &B.tabs[id].t;
	if (find_table_action(t, aid) < 0) {
		t->actions[t->nactions].action = (uint16_t)aid;
		t->actions[t->nactions].next = PISA_NEXT_END;
		t->actions[t->nactions].flags = PISA_TA_DEFAULT_ONLY;
		t->nactions++;
	}
	if (B.acts[aid].a.adata_bits > adata)
		adata = B.acts[aid].a.adata_bits;
	t->adata_bits = (uint16_t)adata;
	t->default_action = (uint16_t)aid;
	t->default_adata_len = (uint16_t)((adata + 7) / 8);
	t->default_adata = zalloc(t->default_adata_len + 1u);
	fill_adata(t->default_adata, dc, aid);
	B.tabs[id].rt.const_default = dflt && (dflt->flags & NF_DEFAULT_CONST) ? 1 : 0;
}

/* The direct counter and meter of P4 table d, attached to image table id. */
static void table_direct(int id, struct p4_node *d)
{
	struct pisa_table *t = &B.tabs[id].t;
	struct p4_node *p;

	if ((p = prop(d, PR_OTHER, "counters"))) {
		struct ext *xe = p->k[0]->decl ? ext_by_decl(p->k[0]->decl) : NULL;

		if (!xe || xe->kind != 3)
			die(p->loc, "counters must name a direct_counter");
		if (xe->id >= 0)
			die(p->loc, "unsupported construct: direct counter %s shared by two tables", xe->name);
		VPUSH(B.ctrs, B.nctrs, B.capctrs);
		VPUSH(B.rt_ctrs, B.nctrs, B.capctrs2);
		B.ctrs[B.nctrs].kind = (uint8_t)xe->ctype;
		B.ctrs[B.nctrs].size = t->mem == PISA_MEM_NONE ? 0 : t->rows;
		B.ctrs[B.nctrs].direct_table = (int16_t)id;
		B.rt_ctrs[B.nctrs].name = (char *)xe->name;
		B.rt_ctrs[B.nctrs].p4info_id = 0x13u << 24 | (uint32_t)(B.nctrs + 1);
		xe->id = B.nctrs;
		t->direct_counter = (int16_t)B.nctrs++;
	}
	if ((p = prop(d, PR_OTHER, "meters"))) {
		struct ext *xe = p->k[0]->decl ? ext_by_decl(p->k[0]->decl) : NULL;

		if (!xe || xe->kind != 4)
			die(p->loc, "meters must name a direct_meter");
		if (xe->id >= 0)
			die(p->loc, "unsupported construct: direct meter %s shared by two tables", xe->name);
		if (B.tabs[id].ind)
			die(p->loc, "unsupported construct: a direct meter on table %s, which has an action profile",
			    d->name);
		VPUSH(B.mtrs, B.nmtrs, B.capmtrs);
		VPUSH(B.rt_mtrs, B.nmtrs, B.capmtrs2);
		B.mtrs[B.nmtrs].kind = (uint8_t)xe->ctype;
		B.mtrs[B.nmtrs].size = t->mem == PISA_MEM_NONE ? 0 : t->rows;
		B.mtrs[B.nmtrs].direct_table = (int16_t)id;
		B.rt_mtrs[B.nmtrs].name = (char *)xe->name;
		B.rt_mtrs[B.nmtrs].p4info_id = 0x15u << 24 | (uint32_t)(B.nmtrs + 1);
		xe->id = B.nmtrs;
		t->direct_meter = (int16_t)B.nmtrs++;
	}
}

/* A compiler-made action of table id: params of w bits each, packed from bit 0. */
static int made_action(int id, const char *name, const char *const *params, int np, unsigned w,
		       struct code *c)
{
	struct pisa_table *t;
	struct lact *la;
	int i;

	VPUSH(B.acts, B.nacts, B.capacts);
	la = &B.acts[B.nacts];
	memset(la, 0, sizeof(*la));
	la->a.insns = c->v;
	la->a.ninsns = (uint16_t)c->n;
	la->a.adata_bits = (uint16_t)(w * (unsigned)np);
	la->rt.name = (char *)name;
	la->rt.params = zalloc(sizeof(*la->rt.params) * (size_t)(np + 1));
	for (i = 0; i < np; i++) {
		la->rt.params[i].name = (char *)params[i];
		la->rt.params[i].width = (uint16_t)w;
		la->rt.params[i].adata_off = (uint16_t)(w * (unsigned)i);
	}
	la->rt.nparams = (uint16_t)np;
	t = &B.tabs[id].t;
	t->actions[t->nactions].action = (uint16_t)B.nacts;
	t->actions[t->nactions].next = PISA_NEXT_END;
	t->nactions++;
	if (la->a.adata_bits > t->adata_bits)
		t->adata_bits = la->a.adata_bits;
	return B.nacts++;
}

/*
 * A table with an action profile or selector (docs/architecture.md, "Action
 * profiles and selectors"): the match table T, whose entries run $member(index)
 * or $group(base, size) (a hash of the selector keys picks one of the group's
 * slots), then the member table M, exact on that index, which runs the P4 action.
 * An index with no member (the all-ones index, T's initial default) misses in M,
 * which runs the P4 default action. Returns M, or, when hit/miss is asked for, a
 * gateway on a flag that T's hit sets.
 */
static int indirect_apply(struct p4_node *call, struct p4_node *d, struct ind *in, int want_hit)
{
	static const char *const mparams[] = { "index" }, *const gparams[] = { "base", "size" };
	struct pisa_field_list sel = { 0, NULL };
	struct pisa_rt_profile *pr;
	struct code cm = { 0 }, cg = { 0 };
	struct p4_node *p;
	int tid, mid, selcap = 0, h, gid = -1, mbr;
	unsigned w = in->idx.width, n = in->size + in->slots;
	uint64_t none = (1ull << w) - 1;

	if ((p = prop(d, PR_ENTRIES, NULL)))
		die(p->loc, "unsupported construct: entries in table %s, which has an action profile",
		    d->name);
	tid = new_table(call->loc);
	B.tabs[tid].decl = d;
	B.tabs[tid].ind = 1;
	B.tabs[tid].rt.name = (char *)rt_name(d, B.ctl_name);
	table_keys(&B.tabs[tid], d, in->selector ? &sel : NULL, &selcap);
	if (in->selector && !sel.nfields)
		die(d->loc, "table %s has an action_selector but no selector keys", d->name);
	B.tabs[tid].rt.size = in->tsize;
	table_rows(&B.tabs[tid].t, in->tsize);
	B.tabs[tid].t.actions = zalloc(sizeof(struct pisa_table_action) * 3);
	/* $member: the member's (or the no-member) index */
	emit(&cm, PISA_SET, 0, 0, in->idx, (struct val){ .kind = PISA_OPND_ADATA, .width = w }, NONE);
	mbr = made_action(tid, fmt("%s$member", B.tabs[tid].rt.name), mparams, 1, w, &cm);
	if (in->selector) {
		struct val base = { .kind = PISA_OPND_ADATA, .width = w };
		struct val size = { .kind = PISA_OPND_ADATA, .off = (uint16_t)w, .width = w };

		VPUSH(B.hunits, B.nhunits, B.caphunits);
		memset(&B.hunits[B.nhunits], 0, sizeof(B.hunits[B.nhunits]));
		B.hunits[B.nhunits].algo = (uint8_t)in->algo;
		custom_crc(&B.hunits[B.nhunits]);
		B.hunits[B.nhunits].field_list = (uint16_t)new_flist(&sel);
		h = B.nhunits++;
		emit(&cg, PISA_HASH, 0, h, in->idx, base, size);
		gid = made_action(tid, fmt("%s$group", B.tabs[tid].rt.name), gparams, 2, w, &cg);
	}
	B.tabs[tid].t.default_action = (uint16_t)mbr;
	B.tabs[tid].t.default_adata_len = (uint16_t)((B.tabs[tid].t.adata_bits + 7) / 8);
	B.tabs[tid].t.default_adata = zalloc(B.tabs[tid].t.default_adata_len + 1u);
	pisa_bits_set(B.tabs[tid].t.default_adata, 0, w, none);
	{
		struct p4_node *dflt = prop(d, PR_OTHER, "default_action");

		B.tabs[tid].rt.const_default = dflt && (dflt->flags & NF_DEFAULT_CONST) ? 1 : 0;
	}
	table_direct(tid, d);
	/* T -> (flag) -> M */
	npend = 0;
	if (want_hit) {
		int hb;

		pend_add(tid, 0);
		hb = block_get(call->loc);
		emit(&B.tabs[hb].code, PISA_SET, 0, 0, in->hit, vconst(1, 1), NONE);
		block_close();
		pend_add(tid, 1);
	} else {
		pend_add(tid, 0);
		pend_add(tid, 1);
	}
	mid = new_table(call->loc);
	B.tabs[mid].decl = d;
	B.tabs[mid].hidden = 1;
	B.tabs[mid].rt.name = fmt("%s$members", in->pname);
	B.tabs[mid].rt.size = n;
	B.tabs[mid].t.mem = PISA_MEM_HASH;
	B.tabs[mid].t.nkeys = 1;
	B.tabs[mid].t.keys = zalloc(sizeof(struct pisa_key_field));
	B.tabs[mid].t.keys[0].field.bitoff = in->idx.off;
	B.tabs[mid].t.keys[0].field.width = (uint16_t)w;
	B.tabs[mid].t.key_bits = (uint16_t)w;
	B.tabs[mid].rt.nkeys = 1;
	B.tabs[mid].rt.keys = zalloc(sizeof(struct pisa_rt_key));
	B.tabs[mid].rt.keys[0].name = "index";
	B.tabs[mid].rt.keys[0].width = (uint16_t)w;
	/* a quarter more rows than indices: cuckoo placement needs some room */
	table_rows(&B.tabs[mid].t, n + n / 4 + 1);
	table_actions(mid, d);
	B.tabs[mid].rt.const_default = 1;
	VPUSH(B.profs, B.nprofs, B.capprofs);
	pr = &B.profs[B.nprofs];
	memset(pr, 0, sizeof(*pr));
	pr->name = (char *)in->pname;
	pr->p4info_id = 0x11u << 24 | (uint32_t)(B.nprofs + 1);
	pr->with_selector = (uint8_t)in->selector;
	pr->size = in->size;
	pr->slots = in->slots;
	pr->max_group_size = in->max_group;
	pr->member_table = (uint16_t)mid;
	pr->ntables = 1;
	pr->tables = zalloc(sizeof(*pr->tables));
	pr->tables[0].table = (uint16_t)tid;
	pr->tables[0].member_action = (uint16_t)mbr;
	pr->tables[0].group_action = gid < 0 ? PISA_NO_ACTION : (uint16_t)gid;
	B.nprofs++;
	if (!want_hit)
		return mid;
	npend = 0;
	pend_add(mid, 0);
	pend_add(mid, 1);
	h = block_get(call->loc);
	B.tabs[h].t.next_mode = PISA_NEXT_COND;
	B.tabs[h].t.cond.bitoff = in->hit.off;
	B.tabs[h].t.cond.width = 1;
	cur_block = -1;
	return h;
}

static struct ind *ind_of(const struct p4_node *d)
{
	int i;

	for (i = 0; i < B.ninds; i++)
		if (B.inds[i].table == d)
			return &B.inds[i];
	return NULL;
}

/* Applies table d; returns the image table whose hit/miss or action says what ran. */
static int table_apply(struct p4_node *call, int want_hit)
{
	struct p4_node *d = call->k[0]->k[0]->decl, *p, *x;
	struct pisa_table *t;
	struct ltab *lt;
	struct ind *in;
	int id, i;
	unsigned size = 1024;

	if (!d || d->kind != N_TABLE)
		die(call->loc, "unsupported construct: this apply");
	block_close();
	for (i = 0; i < B.ntabs; i++)
		if (B.tabs[i].decl == d)
			die(call->loc, "unsupported construct: table %s applied twice", d->name);
	if ((in = ind_of(d)))
		return indirect_apply(call, d, in, want_hit);
	id = new_table(call->loc);
	lt = &B.tabs[id];
	lt->decl = d;
	lt->rt.name = (char *)rt_name(d, B.ctl_name);
	t = &lt->t;
	if ((p = prop(d, PR_OTHER, "size")))
		size = (unsigned)p->k[0]->cval;
	if (!size)
		size = 1;
	table_keys(lt, d, NULL, NULL);
	lt->rt.size = size;
	/* const entries never change: rows for them alone, whatever size says, so immutable
	 * tables fit small boards; a hash table gets 4 rows per entry because const entries
	 * are placed in the first free way only (no cuckoo moves) */
	if ((p = prop(d, PR_ENTRIES, NULL)) && (p->flags & NF_CONST_ENTRIES) && t->mem != PISA_MEM_NONE) {
		unsigned n = 0;

		for (x = p->list; x; x = x->next)
			n++;
		n = t->mem == PISA_MEM_HASH ? 4 * n : n;
		if (n < size)
			size = n ? n : 1;
	}
	table_rows(t, size);
	table_actions(id, d);
	table_direct(id, d);
	if ((p = prop(d, PR_ENTRIES, NULL))) {
		B.tabs[id].rt.const_entries = (p->flags & NF_CONST_ENTRIES) ? 1 : 0;
		if (B.tabs[id].t.mem == PISA_MEM_NONE)
			die(p->loc, "entries in a keyless table");
		const_entries(id, p);
	}
	return id;
}

/* ---- controls: statements with tables ---- */
static int has_table(struct p4_node *n)
{
	int i;

	for (; n; n = n->next) {
		if (n->kind == N_CALL && n->k[0]->kind == N_MEMBER && !strcmp(n->k[0]->name, "apply") &&
		    n->k[0]->k[0]->type && tres(n->k[0]->k[0]->type)->kind == TY_TABLE)
			return 1;
		for (i = 0; i < 4; i++)
			if (n->k[i] && has_table(n->k[i]))
				return 1;
		if (n->kind != N_CALL && has_table(n->list))
			return 1;
		if (n->kind == N_CALL && has_table(n->list))
			return 1;
	}
	return 0;
}

static int one_has_table(struct p4_node *n)
{
	struct p4_node *nx;
	int r;

	if (!n)
		return 0;
	nx = n->next;
	n->next = NULL;
	r = has_table(n);
	n->next = nx;
	return r;
}

/* `t.apply().hit`, `.miss`, with any number of `!`: the table call and whether hit is true. */
static struct p4_node *hit_cond(struct p4_node *e, int *on_hit)
{
	int neg = 0;

	while (e->kind == N_UNARY && e->op == P_NOT) {
		neg ^= 1;
		e = e->k[0];
	}
	if (e->kind == N_MEMBER && (!strcmp(e->name, "hit") || !strcmp(e->name, "miss")) &&
	    e->k[0]->kind == N_CALL && is_method_call(e->k[0], "apply")) {
		*on_hit = (e->name[0] == 'h') ^ neg;
		return e->k[0];
	}
	return NULL;
}

static void tstmt(struct p4_node *s);

static void branches(struct slot *yes, int nyes, struct slot *no, int nno, struct p4_node *s1,
		     struct p4_node *s2)
{
	struct slot *p1;
	int n1, i;

	npend = 0;
	for (i = 0; i < nyes; i++)
		pend_add(yes[i].tab, yes[i].which);
	if (s1)
		tstmt(s1);
	block_close();
	n1 = npend;
	p1 = zalloc(sizeof(*p1) * (size_t)(n1 + 1));
	memcpy(p1, pend, sizeof(*p1) * (size_t)n1);
	npend = 0;
	for (i = 0; i < nno; i++)
		pend_add(no[i].tab, no[i].which);
	if (s2)
		tstmt(s2);
	block_close();
	for (i = 0; i < n1; i++)
		pend_add(p1[i].tab, p1[i].which);
}

static struct sctx apply_ctx = { .kind = 0 };

static void tstmt(struct p4_node *s)
{
	struct p4_node *k, *tc;
	int on_hit, id;

	if ((s->kind == N_EXIT || s->kind == N_RETURN) && cur_block < 0) {
		pend_end();	/* the pass ends here: nothing to run */
		return;
	}
	if (!one_has_table(s)) {
		id = block_get(s->loc);
		cstmt(&B.tabs[id].code, s, &apply_ctx);
		if (s->kind == N_EXIT || s->kind == N_RETURN) {
			/* nothing after this runs */
			cur_block = -1;
		}
		return;
	}
	switch (s->kind) {
	case N_BLOCK:
		for (k = s->list; k; k = k->next)
			tstmt(k);
		return;
	case N_CALLSTMT:
		if (is_method_call(s->k[0], "apply")) {
			id = table_apply(s->k[0], 0);
			pend_add(id, 0);
			pend_add(id, 1);
			return;
		}
		break;
	case N_IF: {
		struct slot yes, no;

		tc = hit_cond(s->k[0], &on_hit);
		if (tc) {
			id = table_apply(tc, 1);
			yes.tab = no.tab = id;
			yes.which = on_hit ? 0 : 1;
			no.which = on_hit ? 1 : 0;
		} else {
			struct val v;
			struct code *c;
			unsigned mark = B.scratch;

			if (has_table(s->k[0]))
				die(s->k[0]->loc, "unsupported construct: a table applied inside a condition");
			id = block_get(s->loc);
			c = &B.tabs[id].code;
			v = operand(c, s->k[0], 1);
			if (v.kind != PISA_OPND_PHV) {
				struct val t = tmp(1, s->loc);

				emit(c, PISA_SET, 0, 0, t, v, NONE);
				v = t;
			}
			B.scratch = mark;	/* read at the end of this table's action */
			if (v.off >= B.scratch_lo) {
				/* keep it away from later temporaries of this block: it is the last write */
			}
			B.tabs[id].t.next_mode = PISA_NEXT_COND;
			B.tabs[id].t.cond.bitoff = v.off;
			B.tabs[id].t.cond.width = (uint16_t)v.width;
			cur_block = -1;
			yes.tab = no.tab = id;
			yes.which = 0;
			no.which = 1;
		}
		branches(&yes, 1, &no, 1, s->k[1], s->k[2]);
		return;
	}
	case N_SWITCH: {
		struct p4_node *e = s->k[0], *cs, *g;
		struct pisa_table *t;
		struct slot *all, *grp, *rest;
		int nall = 0, ngrp, i, j, *covered, nrest = 0;

		if (!(e->kind == N_MEMBER && !strcmp(e->name, "action_run") && is_method_call(e->k[0], "apply")))
			die(s->loc, "unsupported construct: switch on a value around table applies");
		id = table_apply(e->k[0], 0);
		t = &B.tabs[id].t;
		t->next_mode = PISA_NEXT_ACTION;
		covered = zalloc(sizeof(int) * (size_t)(t->nactions + 1));
		all = zalloc(sizeof(*all) * (size_t)(t->nactions + 1));
		grp = zalloc(sizeof(*grp) * (size_t)(t->nactions + 1));
		rest = zalloc(sizeof(*rest) * (size_t)(t->nactions + 1));
		/* first the labelled groups, in order; default takes what is left */
		for (cs = s->list; cs; ) {
			struct p4_node *first = cs, *body;
			int dflt = 0;

			while (cs && !cs->k[1])
				cs = cs->next;
			body = cs ? cs->k[1] : NULL;
			ngrp = 0;
			for (g = first; g; g = g->next) {
				if (g->k[0]->kind == N_DEFAULT) {
					dflt = 1;
				} else {
					int aid = table_action_id(g->k[0]->decl);

					t = &B.tabs[id].t;
					j = find_table_action(t, aid);
					if (j < 0)
						die(g->loc, "action %s is not one of table %s's", g->k[0]->name,
						    B.tabs[id].rt.name);
					covered[j] = 1;
					grp[ngrp].tab = id;
					grp[ngrp++].which = 2 + j;
				}
				if (g == cs)
					break;
			}
			if (dflt) {
				t = &B.tabs[id].t;
				for (j = 0; j < t->nactions; j++)
					if (!covered[j]) {
						/* labels after default are still theirs: mark later */
						struct p4_node *h;
						int later = 0;

						for (h = cs ? cs->next : NULL; h; h = h->next)
							if (h->k[0]->kind != N_DEFAULT &&
							    find_table_action(t, table_action_id(h->k[0]->decl)) == j)
								later = 1;
						if (later)
							continue;
						covered[j] = 1;
						grp[ngrp].tab = id;
						grp[ngrp++].which = 2 + j;
					}
			}
			/* each group is one branch; results join */
			{
				int save = npend, k2;
				struct slot *keep = zalloc(sizeof(*keep) * (size_t)(npend + 1));

				memcpy(keep, pend, sizeof(*keep) * (size_t)npend);
				npend = 0;
				for (k2 = 0; k2 < ngrp; k2++)
					pend_add(grp[k2].tab, grp[k2].which);
				if (body)
					tstmt(body);
				block_close();
				for (k2 = 0; k2 < save; k2++)
					pend_add(keep[k2].tab, keep[k2].which);
			}
			if (cs)
				cs = cs->next;
		}
		t = &B.tabs[id].t;
		for (j = 0; j < t->nactions; j++)
			if (!covered[j]) {
				rest[nrest].tab = id;
				rest[nrest++].which = 2 + j;
			}
		for (i = 0; i < nrest; i++)
			pend_add(rest[i].tab, rest[i].which);
		(void)all;
		(void)nall;
		return;
	}
	default:
		break;
	}
	die(s->loc, "unsupported construct: a table applied in this statement");
}

/* ---- externs declared in a control ---- */
static void declare_externs(struct p4_node *ctl)
{
	struct p4_node *d;

	for (d = ctl->list4; d; d = d->next) {
		const struct p4_type *t;
		struct ext x;
		struct p4_node *a1, *a2;

		if (d->kind != N_INSTANCE)
			continue;
		t = tres(d->type);
		if (!t || t->kind != TY_EXTERN)
			die(d->loc, "unsupported construct: instantiating %s inside a control",
			    t ? p4_type_str(t) : "this");
		memset(&x, 0, sizeof(x));
		x.decl = d;
		x.id = -1;
		x.name = rt_name(d, B.ctl_name);
		a1 = d->list;
		a2 = a1 ? a1->next : NULL;
		if (!strcmp(t->name, "counter") || !strcmp(t->name, "meter")) {
			int m = t->name[0] == 'm';

			if (!a1 || !a1->is_const || !a2 || !a2->is_const)
				die(d->loc, "%s needs a constant size and type", t->name);
			x.kind = m ? 2 : 0;
			x.ctype = (int)a2->cval;
			if (m) {
				VPUSH(B.mtrs, B.nmtrs, B.capmtrs);
				VPUSH(B.rt_mtrs, B.nmtrs, B.capmtrs2);
				B.mtrs[B.nmtrs].kind = (uint8_t)x.ctype;
				B.mtrs[B.nmtrs].size = (uint32_t)a1->cval;
				B.mtrs[B.nmtrs].direct_table = -1;
				B.rt_mtrs[B.nmtrs].name = (char *)x.name;
				B.rt_mtrs[B.nmtrs].p4info_id = 0x14u << 24 | (uint32_t)(B.nmtrs + 1);
				x.id = B.nmtrs++;
			} else {
				VPUSH(B.ctrs, B.nctrs, B.capctrs);
				VPUSH(B.rt_ctrs, B.nctrs, B.capctrs2);
				B.ctrs[B.nctrs].kind = (uint8_t)x.ctype;
				B.ctrs[B.nctrs].size = (uint32_t)a1->cval;
				B.ctrs[B.nctrs].direct_table = -1;
				B.rt_ctrs[B.nctrs].name = (char *)x.name;
				B.rt_ctrs[B.nctrs].p4info_id = 0x12u << 24 | (uint32_t)(B.nctrs + 1);
				x.id = B.nctrs++;
			}
		} else if (!strcmp(t->name, "direct_counter") || !strcmp(t->name, "direct_meter")) {
			if (!a1 || !a1->is_const)
				die(d->loc, "%s needs a constant type", t->name);
			x.kind = t->name[7] == 'm' ? 4 : 3;
			x.ctype = (int)a1->cval;
		} else if (!strcmp(t->name, "action_profile") || !strcmp(t->name, "action_selector")) {
			continue;	/* lowered with the table that names it (find_indirect) */
		} else if (!strcmp(t->name, "register")) {
			int w = t->nargs > 0 ? twidth(t->args[0]) : -1;

			if (!a1 || !a1->is_const)
				die(d->loc, "register needs a constant size");
			if (w <= 0 || w > 64)
				die(d->loc, "unsupported construct: register of %s (bit<1..64> only)",
				    t->nargs > 0 ? p4_type_str(t->args[0]) : "?");
			x.kind = 1;
			VPUSH(B.regs, B.nregs, B.capregs);
			VPUSH(B.rt_regs, B.nregs, B.capregs2);
			B.regs[B.nregs].width = (uint16_t)w;
			B.regs[B.nregs].size = (uint32_t)a1->cval;
			B.rt_regs[B.nregs].name = (char *)x.name;
			B.rt_regs[B.nregs].p4info_id = 0x16u << 24 | (uint32_t)(B.nregs + 1);
			x.id = B.nregs++;
		} else {
			die(d->loc, "unsupported construct: extern %s", t->name);
		}
		VPUSH(B.exts, B.nexts, B.capexts);
		B.exts[B.nexts++] = x;
	}
}

/* A constant argument of a profile's constructor. */
static unsigned prof_arg(struct p4_node *args, int n, struct p4_node *at, const char *what)
{
	while (args && n--)
		args = args->next;
	if (args && args->kind == N_NAMEDEXPR)
		args = args->k[0];
	if (!args || !args->is_const || args->cval < 1 || args->cval > (1 << 20))
		die(args ? args->loc : at->loc, "the %s of an action profile must be a constant 1..%d",
		    what, 1 << 20);
	return (unsigned)args->cval;
}

/*
 * The tables of control ctl with an `implementation`: their profiles, and PHV
 * bits for the member index and the hit flag (laid out before the scratch area,
 * so that placement sees the match table write what the member table reads).
 */
static void find_indirect(struct p4_node *ctl)
{
	const char *cname = rt_name(ctl, NULL);
	struct p4_node *d, *p, *v, *args;
	const struct p4_node *a;
	int i;

	for (d = ctl->list4; d; d = d->next) {
		struct ind in;
		unsigned n;

		if (d->kind != N_TABLE || !(p = prop(d, PR_OTHER, "implementation")))
			continue;
		memset(&in, 0, sizeof(in));
		in.table = d;
		v = p->k[0];
		if (v->kind == N_CALL && v->k[0]->kind == N_NAME) {
			/* an anonymous profile has its table's name, as in p4c's P4Info */
			in.inst = v;
			in.pname = rt_name(d, cname);
			args = v->list;
			in.selector = !strcmp(v->k[0]->name, "action_selector");
			if (!in.selector && strcmp(v->k[0]->name, "action_profile"))
				die(v->loc, "implementation must be an action_profile or action_selector");
		} else if (v->kind == N_NAME && v->decl && v->decl->kind == N_INSTANCE &&
			   v->decl->type && v->decl->type->name &&
			   (!strcmp(v->decl->type->name, "action_profile") ||
			    !strcmp(v->decl->type->name, "action_selector"))) {
			in.inst = v->decl;
			in.pname = rt_name(v->decl, cname);
			args = v->decl->list;
			in.selector = !strcmp(v->decl->type->name, "action_selector");
		} else {
			die(v->loc, "implementation must be an action_profile or action_selector");
		}
		for (i = 0; i < B.ninds; i++)
			if (B.inds[i].inst == in.inst)
				die(p->loc, "unsupported construct: action profile %s shared by tables %s and %s",
				    in.pname, B.inds[i].table->name, d->name);
		if (in.selector) {
			struct p4_node *algo = args;

			if (algo && algo->kind == N_NAMEDEXPR)
				algo = algo->k[0];
			if (!algo || !algo->is_const)
				die(v->loc, "the hash algorithm of an action_selector must be a constant");
			in.algo = (int)algo->cval;
			in.size = prof_arg(args, 1, v, "size");
			/* as many group slots as members: a group holds each member once */
			in.slots = in.size;
		} else {
			in.size = prof_arg(args, 0, v, "size");
		}
		/* @max_group_size on the instance, or on the table of an anonymous one */
		for (a = in.inst->kind == N_INSTANCE ? in.inst->annots : d->annots; a; a = a->next)
			if (!strcmp(a->name, "max_group_size") && a->text)
				in.max_group = (unsigned)strtoul(a->text, NULL, 0);
		in.tsize = 1024;
		if ((p = prop(d, PR_OTHER, "size")))
			in.tsize = p->k[0]->cval > 0 ? (unsigned)p->k[0]->cval : 1;
		/* indices 0 .. size + slots - 1, and all ones for no member */
		n = in.size + in.slots;
		for (i = 1; (1ull << i) <= n; i++)
			;
		in.idx = vphv(B.bit, (unsigned)i);
		B.bit += (unsigned)i;
		in.hit = vphv(B.bit, 1);
		B.bit++;
		VPUSH(B.inds, B.ninds, B.capinds);
		B.inds[B.ninds++] = in;
	}
}

/* Binds a control's or parser's parameters to the headers, metadata and standard metadata. */
static void bind_params(struct p4_node *blk)
{
	struct p4_node *p;

	for (p = blk->list; p; p = p->next) {
		const struct p4_type *t = tres(p->type);

		if (!t)
			continue;
		if (t == B.t_hdr || (t->decl && B.t_hdr && t->decl == B.t_hdr->decl))
			bind_push(p, B.root_hdr);
		else if (t == B.t_meta || (t->decl && B.t_meta && t->decl == B.t_meta->decl))
			bind_push(p, B.root_meta);
		else if (t->name && !strcmp(t->name, "standard_metadata_t"))
			bind_push(p, B.root_sm);
	}
}

static void lower_control(struct p4_node *ctl, int gress, uint16_t *start)
{
	int mark = B.nbinds;

	B.gress = gress;
	B.ctl_name = rt_name(ctl, NULL);
	bind_params(ctl);
	declare_externs(ctl);
	npend = 0;
	cur_block = -1;
	pend_add(-1, 0);
	gress_start = PISA_NEXT_END;
	if (ctl->k[0])
		tstmt(ctl->k[0]);
	block_close();
	pend_end();
	*start = gress_start;
	B.nbinds = mark;
}

/* verify / update checksum controls */
static void lower_checksums(struct p4_node *ctl, int kind)
{
	struct p4_node *s;
	int mark = B.nbinds;

	bind_params(ctl);
	for (s = ctl->k[0] ? ctl->k[0]->list : NULL; s; s = s->next) {
		struct p4_node *e, *callee;
		struct pisa_checksum ck;
		struct code dummy = { 0 };
		struct val cond, dst;
		const char *n;

		if (s->kind == N_EMPTY)
			continue;
		if (s->kind != N_CALLSTMT)
			die(s->loc, "unsupported construct: only verify_checksum/update_checksum calls in a checksum control");
		e = s->k[0];
		callee = e->k[0];
		n = callee->kind == N_NAME ? callee->name : "";
		memset(&ck, 0, sizeof(ck));
		ck.kind = (uint8_t)kind;
		if (!strcmp(n, kind ? "update_checksum" : "verify_checksum"))
			ck.with_payload = 0;
		else if (!strcmp(n, kind ? "update_checksum_with_payload" : "verify_checksum_with_payload"))
			ck.with_payload = 1;
		else
			die(e->loc, "unsupported construct: %s in a %s checksum control", n[0] ? n : "this call",
			    kind ? "compute" : "verify");
		cond = compile_expr(&dummy, nth_arg(e, 0));
		if (dummy.n || (cond.kind != PISA_OPND_PHV && cond.kind != PISA_OPND_CONST))
			die(nth_arg(e, 0)->loc, "unsupported construct: a checksum condition other than a field, isValid() or a constant");
		if (cond.kind == PISA_OPND_CONST)
			cond.width = 1;
		ck.cond.kind = cond.kind;
		ck.cond.off = cond.off;
		ck.cond.width = (uint16_t)cond.width;
		ck.cond.value = cond.v;
		if (!nth_arg(e, 3)->is_const)
			die(e->loc, "the checksum algorithm must be a constant");
		ck.algo = (uint8_t)nth_arg(e, 3)->cval;
		/* a checksum unit has no CRC parameters: the custom CRCs as they start */
		if (ck.algo == PISA_HASH_CRC16_CUSTOM)
			ck.algo = PISA_HASH_CRC16;
		if (ck.algo == PISA_HASH_CRC32_CUSTOM)
			ck.algo = PISA_HASH_CRC32;
		flist_varbit = ck.algo == PISA_HASH_CSUM16 || ck.algo == PISA_HASH_XOR16;
		flist_varbit_end = 0;
		ck.field_list = (uint16_t)make_flist(&dummy, nth_arg(e, 1));
		flist_varbit = 0;
		flist_varbit_end = 0;
		dst = lvalue(&dummy, nth_arg(e, 2));
		need64(dst, e->loc);
		ck.dst.bitoff = dst.off;
		ck.dst.width = (uint16_t)dst.width;
		VPUSH(B.csums, B.ncsums, B.capcsums);
		B.csums[B.ncsums++] = ck;
	}
	B.nbinds = mark;
}

static void deparse_obj(struct obj *o)
{
	int i;

	if (o->kind == O_HDR) {
		VPUSH(B.deparse, B.ndeparse, B.capdeparse);
		B.deparse[B.ndeparse++] = (uint16_t)o->hdr;
		return;
	}
	for (i = 0; i < o->n; i++)
		if (o->kids[i])
			deparse_obj(o->kids[i]);
}

static void lower_deparser(struct p4_node *ctl)
{
	struct p4_node *s;
	int mark = B.nbinds;

	bind_params(ctl);
	for (s = ctl->k[0] ? ctl->k[0]->list : NULL; s; s = s->next) {
		struct p4_node *e;
		struct obj *o;

		if (s->kind == N_EMPTY)
			continue;
		if (s->kind != N_CALLSTMT || !is_method_call(s->k[0], "emit"))
			die(s->loc, "unsupported construct: only emit calls in the deparser");
		e = s->k[0];
		o = resolve(nth_arg(e, 0));
		if (!o || o->kind == O_FIELD)
			die(e->loc, "unsupported construct: emit of this expression");
		deparse_obj(o);
	}
	B.nbinds = mark;
}

/* ---- parser ---- */
struct pinst {
	struct p4_node *st;
	int ctx[64];
	int id;
};

static struct pinst *pinsts;
static int npinsts, cappinsts;
static struct p4_node **pstates;
static int npstates;
static int *preach;	/* P4 state can reach a state that uses next/last */

static int uses_stack(struct p4_node *n)
{
	int i;

	for (; n; n = n->next) {
		if (n->kind == N_MEMBER && (!strcmp(n->name, "next") || !strcmp(n->name, "last") ||
					    !strcmp(n->name, "lastIndex")) &&
		    n->k[0]->type && tres(n->k[0]->type)->kind == TY_STACK)
			return 1;
		for (i = 0; i < 4; i++)
			if (n->k[i] && uses_stack(n->k[i]))
				return 1;
		if (uses_stack(n->list) || uses_stack(n->list2))
			return 1;
	}
	return 0;
}

static int pstate_index(const struct p4_node *st)
{
	int i;

	for (i = 0; i < npstates; i++)
		if (pstates[i] == st)
			return i;
	return -1;
}

static struct p4_node *trans_target(struct p4_node *n)
{
	return n && n->decl ? n->decl : NULL;
}

static struct p4_node *st_trans(struct p4_node *st)
{
	struct p4_node *t = st->k[0];

	return t && t->kind == N_TRANSITION ? t->k[0] : t;
}

static uint16_t state_id(struct p4_node *st, const int *ctx)
{
	int i, k = pstate_index(st), c[64];

	if (!st || k < 0) {
		if (st && !strcmp(st->name, "accept"))
			return PISA_PARSER_ACCEPT;
		return PISA_PARSER_REJECT;
	}
	memcpy(c, ctx, sizeof(c));
	if (!preach[k])
		memset(c, 0, sizeof(c));
	for (i = 0; i < npinsts; i++)
		if (pinsts[i].st == st && !memcmp(pinsts[i].ctx, c, sizeof(c)))
			return (uint16_t)pinsts[i].id;
	VPUSH(pinsts, npinsts, cappinsts);
	pinsts[npinsts].st = st;
	memcpy(pinsts[npinsts].ctx, c, sizeof(c));
	VPUSH(B.states, B.nstates, B.capstates);
	pinsts[npinsts].id = B.nstates++;
	if (B.nstates > 4000)
		die(st->loc, "the parser unrolls into too many states");
	return (uint16_t)pinsts[npinsts++].id;
}

struct prows {
	struct pisa_parser_row *v;
	int n, cap;
};

static void prow_add(struct prows *r, uint64_t v, uint64_t m, uint16_t next, uint16_t err)
{
	VPUSH(r->v, r->n, r->cap);
	r->v[r->n].value = v & m;
	r->v[r->n].mask = m;
	r->v[r->n].next = next;
	r->v[r->n].error = err;
	r->n++;
}

static void finish_state(int id, struct code *c, int nkey, struct val *key, struct prows *rows)
{
	struct pisa_parser_state *s = &B.states[id];
	int i;

	s->nops = (uint16_t)c->n;
	s->ops = c->v;
	s->nkey = (uint8_t)nkey;
	for (i = 0; i < nkey; i++) {
		s->key[i].kind = key[i].kind;
		s->key[i].off = key[i].off;
		s->key[i].width = (uint16_t)key[i].width;
	}
	s->nrows = (uint16_t)rows->n;
	s->rows = rows->v;
}

/* value/mask pairs of one simple keyset over w bits (ranges become prefixes) */
static int keyset_pairs(struct p4_node *k, unsigned w, uint64_t *vs, uint64_t *ms, int max)
{
	uint64_t all = w >= 64 ? ~0ull : (1ull << w) - 1, lo, hi;
	int n = 0;

	if (k->kind == N_DEFAULT || k->kind == N_DONTCARE) {
		vs[0] = ms[0] = 0;
		return 1;
	}
	if (k->kind == N_MASK) {
		if (!k->k[0]->is_const || !k->k[1]->is_const)
			die(k->loc, "unsupported construct: a select keyset that is not constant");
		vs[0] = (uint64_t)k->k[0]->cval & all;
		ms[0] = (uint64_t)k->k[1]->cval & all;
		return 1;
	}
	if (k->kind == N_NAME && k->decl && k->decl->kind == N_VALUESET)
		die(k->loc, "unsupported construct: value_set in select");
	if (k->kind != N_RANGE) {
		if (!k->is_const)
			die(k->loc, "unsupported construct: a select keyset that is not constant");
		vs[0] = (uint64_t)k->cval & all;
		ms[0] = all;
		return 1;
	}
	if (!k->k[0]->is_const || !k->k[1]->is_const)
		die(k->loc, "unsupported construct: a select range that is not constant");
	lo = (uint64_t)k->k[0]->cval & all;
	hi = (uint64_t)k->k[1]->cval & all;
	while (lo <= hi) {
		uint64_t size = 1;

		while (size < all && !(lo & size) && (lo | (size * 2 - 1)) <= hi && size * 2 != 0)
			size *= 2;
		if (n >= max)
			die(k->loc, "select range expands to too many rows");
		vs[n] = lo;
		ms[n++] = ~(size - 1) & all;
		if (lo + size - 1 >= hi)
			break;
		lo += size;
	}
	return n;
}

static void parse_from(int id, struct p4_node *stmts, struct p4_node *trans, int *ctx);

static void select_rows(struct p4_node *sel, int nkey, unsigned *kw, struct prows *rows, int *ctx)
{
	struct p4_node *cs;

	for (cs = sel->list2; cs; cs = cs->next) {
		struct p4_node *ks = cs->k[0], *el[4];
		uint64_t vs[4][128], ms[4][128];
		int cnt[4], ne = 0, i, idx[4] = { 0, 0, 0, 0 };
		uint16_t next = state_id(trans_target(cs->k[1]), ctx);
		/* transition reject records no error (docs/architecture.md, "The parser engine") */
		uint16_t err = PISA_ERROR_NO_ERROR;

		if (ks->kind == N_TUPLEKEY)
			for (ks = ks->list; ks && ne < 4; ks = ks->next)
				el[ne++] = ks;
		else
			el[ne++] = ks;
		if (ne == 1 && nkey > 1 && (el[0]->kind == N_DEFAULT || el[0]->kind == N_DONTCARE)) {
			prow_add(rows, 0, 0, next, err);
			continue;
		}
		if (ne != nkey)
			die(cs->loc, "select case has %d keys, the select %d", ne, nkey);
		for (i = 0; i < ne; i++)
			cnt[i] = keyset_pairs(el[i], kw[i], vs[i], ms[i], 128);
		for (;;) {
			uint64_t v = 0, m = 0;

			for (i = 0; i < ne; i++) {
				v = (kw[i] >= 64 ? 0 : v << kw[i]) | vs[i][idx[i]];
				m = (kw[i] >= 64 ? 0 : m << kw[i]) | ms[i][idx[i]];
			}
			prow_add(rows, v, m, next, err);
			for (i = ne - 1; i >= 0; i--) {
				if (++idx[i] < cnt[i])
					break;
				idx[i] = 0;
			}
			if (i < 0)
				break;
			if (rows->n > 4096)
				die(cs->loc, "select expands to too many rows");
		}
	}
}

static void parse_from(int id, struct p4_node *stmts, struct p4_node *trans, int *ctx0)
{
	struct code c = { 0 };
	struct prows rows = { 0 };
	struct sctx px = { .kind = 2 };
	struct val key[4];
	unsigned kw[4];
	int nkey = 0, ctx[64];
	struct p4_node *s;

	memcpy(ctx, ctx0, sizeof(ctx));
	stack_ctx = ctx;
	for (s = stmts; s; s = s->next) {
		struct p4_node *e = s->kind == N_CALLSTMT ? s->k[0] : NULL;

		if (e && is_method_call(e, "extract")) {
			struct p4_node *a = nth_arg(e, 0);
			struct obj *o;

			struct p4_node *nx = a;

			/* s.next, or s.next.member of a stack of header unions */
			if (a->kind == N_MEMBER && strcmp(a->name, "next") && a->k[0]->kind == N_MEMBER &&
			    !strcmp(a->k[0]->name, "next"))
				nx = a->k[0];
			if (nx->kind == N_MEMBER && !strcmp(nx->name, "next")) {
				struct obj *so = resolve(nx->k[0]);

				if (!so || so->kind != O_STACK)
					die(a->loc, "unsupported construct: this extract");
				if (ctx[so->stack] >= so->n) {
					prow_add(&rows, 0, 0, PISA_PARSER_REJECT, PISA_ERROR_STACK_OUT_OF_BOUNDS);
					finish_state(id, &c, 0, key, &rows);
					stack_ctx = NULL;
					return;
				}
				o = so->kids[ctx[so->stack]++];
				if (nx != a)
					o = obj_kid(o, a->name);
			} else {
				o = resolve(a);
			}
			if (!o || o->kind != O_HDR)
				die(a->loc, "unsupported construct: extract of this expression");
			if (o->varbit != (e->list->next != NULL))
				die(e->loc, o->varbit ? "header %s has a varbit field: extract it with its length in bits" :
				    "header %s has no varbit field: extract it without a length", o->path);
			if (o->varbit)
				emit(&c, PISA_EXTRACT_VAR, 0, o->hdr, NONE, operand(&c, nth_arg(e, 1), 32), NONE);
			else
				emit(&c, PISA_EXTRACT, 0, o->hdr, NONE, NONE, NONE);
			only_valid(&c, o);
			continue;
		}
		if (e && is_method_call(e, "advance")) {
			emit(&c, PISA_ADVANCE, 0, 0, NONE, operand(&c, nth_arg(e, 0), 32), NONE);
			continue;
		}
		if (e && e->k[0]->kind == N_NAME && !strcmp(e->k[0]->name, "verify")) {
			struct val v = operand(&c, nth_arg(e, 0), 1);
			struct p4_node *er = nth_arg(e, 1);
			int cont;

			if (!er->is_const)
				die(er->loc, "unsupported construct: verify with an error that is not a constant");
			if (v.kind == PISA_OPND_CONST) {
				if (v.v)
					continue;
				prow_add(&rows, 0, 0, PISA_PARSER_REJECT, (uint16_t)er->cval);
				finish_state(id, &c, 0, key, &rows);
				stack_ctx = NULL;
				return;
			}
			if (v.kind == PISA_OPND_PKT || v.width != 1) {
				struct val t = tmp(1, s->loc);

				emit(&c, PISA_NE, 0, 0, t, v, vconst(0, 1));
				v = t;
			}
			VPUSH(B.states, B.nstates, B.capstates);
			cont = B.nstates++;
			prow_add(&rows, 1, 1, (uint16_t)cont, 0);
			prow_add(&rows, 0, 0, PISA_PARSER_REJECT, (uint16_t)er->cval);
			key[0] = v;
			finish_state(id, &c, 1, key, &rows);
			parse_from(cont, s->next, trans, ctx);
			return;
		}
		cstmt(&c, s, &px);
	}
	if (!trans || trans->kind == N_NAME) {
		prow_add(&rows, 0, 0, state_id(trans_target(trans), ctx), 0);
	} else if (trans->kind == N_SELECT) {
		struct p4_node *k;
		unsigned total = 0;

		for (k = trans->list; k; k = k->next) {
			struct val v;

			if (nkey >= 4)
				die(k->loc, "unsupported construct: select on more than 4 keys");
			v = compile_expr(&c, k);
			if (v.kind == PISA_OPND_CONST || v.kind == PISA_OPND_ADATA) {
				struct val t = tmp((unsigned)expr_width(k), k->loc);

				emit(&c, PISA_SET, 0, 0, t, v, NONE);
				v = t;
			}
			v = full(&c, v, (unsigned)expr_width(k), k->loc);
			need64(v, k->loc);
			kw[nkey] = v.width;
			key[nkey++] = v;
			total += v.width;
		}
		if (total > 64)
			die(trans->loc, "unsupported construct: select key of %u bits (64 at most)", total);
		select_rows(trans, nkey, kw, &rows, ctx);
	} else {
		die(trans->loc, "unsupported construct: this transition");
	}
	finish_state(id, &c, nkey, key, &rows);
	stack_ctx = NULL;
}

static void lower_parser(struct p4_node *p)
{
	struct p4_node *st, *start = NULL;
	int i, changed, zero[64];
	int mark = B.nbinds, done = 0;

	bind_params(p);
	npstates = 0;
	for (st = p->list4; st; st = st->next)
		if (st->kind == N_STATE)
			npstates++;
	pstates = zalloc(sizeof(*pstates) * (size_t)(npstates + 1));
	preach = zalloc(sizeof(int) * (size_t)(npstates + 1));
	npstates = 0;
	for (st = p->list4; st; st = st->next)
		if (st->kind == N_STATE) {
			if (!strcmp(st->name, "start"))
				start = st;
			preach[npstates] = uses_stack(st->list) || uses_stack(st->k[0]);
			pstates[npstates++] = st;
		}
	if (!start)
		die(p->loc, "parser %s has no start state", p->name);
	do {
		changed = 0;
		for (i = 0; i < npstates; i++) {
			struct p4_node *t = st_trans(pstates[i]), *cs;
			int k;

			if (preach[i] || !t)
				continue;
			if (t->kind == N_NAME) {
				k = pstate_index(trans_target(t));
				if (k >= 0 && preach[k])
					preach[i] = changed = 1;
			} else if (t->kind == N_SELECT) {
				for (cs = t->list2; cs; cs = cs->next) {
					k = pstate_index(trans_target(cs->k[1]));
					if (k >= 0 && preach[k])
						preach[i] = changed = 1;
				}
			}
		}
	} while (changed);
	memset(zero, 0, sizeof(zero));
	state_id(start, zero);
	/* instances are appended while we go */
	while (done < npinsts) {
		struct pinst pi = pinsts[done++];

		parse_from(pi.id, pi.st->list, st_trans(pi.st), pi.ctx);
	}
	B.nbinds = mark;
}

/* ---- placement ---- */
static unsigned dep_bits;	/* PHV bits tracked for dependencies (below the scratch area) */

static void mark_bits(uint8_t *set, unsigned off, unsigned w)
{
	unsigned i;

	for (i = off; i < off + w && i < dep_bits; i++)
		set[i / 8] |= (uint8_t)(1u << (i % 8));
}

static void mark_opnd(uint8_t *set, const struct pisa_operand *o)
{
	if (o->kind == PISA_OPND_PHV)
		mark_bits(set, o->off, o->width);
}

static void mark_hdr(uint8_t *set, unsigned h)
{
	mark_bits(set, PISA_VALID_BIT(h), 1);
	mark_bits(set, B.hdrs[h].phv_byte * 8u, B.hdrs[h].bytes * 8u);
}

static void mark_code(struct ltab *lt, const struct pisa_action *a)
{
	int i;

	for (i = 0; i < a->ninsns; i++) {
		const struct pisa_insn *in = &a->insns[i];

		switch (in->op) {
		case PISA_SETVALID:
		case PISA_SETINVALID:
			mark_bits(lt->wr, PISA_VALID_BIT(in->imm), 1);
			break;
		case PISA_COPYHDR:
			mark_hdr(lt->wr, in->imm);
			mark_hdr(lt->rd, (unsigned)in->a.value);
			break;
		case PISA_DROP:
			mark_bits(lt->wr, PISA_SM_EGRESS_SPEC.bitoff, PISA_SM_EGRESS_SPEC.width);
			mark_bits(lt->wr, PISA_SM_MCAST_GRP.bitoff, PISA_SM_MCAST_GRP.width);
			break;
		case PISA_CLONE: case PISA_RESUBMIT: case PISA_RECIRCULATE: case PISA_TRUNCATE:
			mark_bits(lt->wr, 52 * 8, 8 * 8);
			break;
		case PISA_DIGEST:
			if (in->imm < B.ndigests) {
				const struct pisa_field_list *fl = &B.flists[B.digests[in->imm].field_list];
				int k;

				for (k = 0; k < fl->nfields; k++)
					mark_bits(lt->rd, fl->fields[k].bitoff, fl->fields[k].width);
			}
			break;
		case PISA_HASH:
			if (in->imm < B.nhunits) {
				const struct pisa_field_list *fl = &B.flists[B.hunits[in->imm].field_list];
				int k;

				for (k = 0; k < fl->nfields; k++)
					mark_bits(lt->rd, fl->fields[k].bitoff, fl->fields[k].width);
			}
			break;
		default:
			break;
		}
		if (in->op != PISA_JZ && in->op != PISA_JNZ)
			mark_opnd(lt->wr, &in->dst);
		mark_opnd(lt->rd, &in->a);
		mark_opnd(lt->rd, &in->b);
	}
}

static int overlaps(const uint8_t *a, const uint8_t *b)
{
	unsigned i;

	for (i = 0; i < (dep_bits + 7) / 8; i++)
		if (a[i] & b[i])
			return 1;
	return 0;
}

static unsigned row_bits(const struct pisa_table *t)
{
	return (unsigned)pisa_row_bytes(t) * 8u;
}

/* Rows of one piece of table t when t does not fit one stage of profile p, with its
 * geometry in g; 0 when t fits one stage (or cannot be split: const entries, whose
 * rows are placed for one geometry, direct meters, which DMETER names per table, and
 * a profile's member table). */
static uint32_t piece_rows(const struct ltab *lt, const struct pisa_profile *p,
			   struct pisa_table *g)
{
	const struct pisa_table *t = &lt->t;
	uint64_t per;
	unsigned wb = 0;
	int i;

	/* the control plane finds a table's pieces by their P4Runtime id: a profile's
	 * member table has none */
	if (t->direct_meter >= 0 || lt->hidden)
		return 0;
	for (i = 0; i < B.ncrows; i++)
		if (B.crows[i].table == (uint16_t)(lt - B.tabs))
			return 0;
	if (t->mem == PISA_MEM_TCAM && t->rows > p->tcam_rows && p->tcam_rows) {
		g->rows = p->tcam_rows;
		return g->rows;
	}
	if (t->mem != PISA_MEM_HASH || (uint64_t)row_bits(t) * t->rows <= p->hash_bits)
		return 0;
	per = p->hash_bits / row_bits(t);
	g->ways = t->ways;
	while (g->ways > 1 && g->ways > per)
		g->ways--;
	if (!per)
		return 0;
	while ((uint64_t)g->ways << (wb + 1) <= per)
		wb++;
	g->way_bits = (uint8_t)wb;
	g->rows = (uint32_t)g->ways << wb;
	return g->rows;
}

static void split_tables(const int *np, int *const *st, const struct pisa_table *geo);

/*
 * Stages for every table within profile p; the number of stages, or -1 with why in
 * msg. A table larger than one stage's memory is split into pieces in consecutive
 * stages (docs/architecture.md); with report, the pieces become tables of the image.
 */
static int place(const struct pisa_profile *p, char *msg, size_t n, int report)
{
	int i, j, k, maxst = -1;
	unsigned phv = (B.scratch_hi + 7) / 8, ns = p->stages;
	int *np = zalloc(sizeof(int) * (size_t)(B.ntabs + 1));
	int **st = zalloc(sizeof(int *) * (size_t)(B.ntabs + 1));
	int *last = zalloc(sizeof(int) * (size_t)(B.ntabs + 1));
	struct pisa_table *geo = zalloc(sizeof(*geo) * (size_t)(B.ntabs + 1));
	unsigned *cnt[2], *tcam = zalloc(sizeof(unsigned) * (ns + 1));
	uint64_t *hbits = zalloc(sizeof(uint64_t) * (ns + 1));

	cnt[0] = zalloc(sizeof(unsigned) * (ns + 1));
	cnt[1] = zalloc(sizeof(unsigned) * (ns + 1));
	phv = (phv + 3) & ~3u;
	if (phv > p->phv_bytes) {
		snprintf(msg, n, "the PHV needs %u bytes, board %s has %u", phv, p->name, p->phv_bytes);
		return -1;
	}
	for (i = 0; i < B.ntabs; i++) {
		struct ltab *lt = &B.tabs[i];
		struct pisa_table *t = &lt->t;
		unsigned kb = t->key_bits, rb = row_bits(t);
		uint32_t prows = piece_rows(lt, p, &geo[i]), rows;
		int s = 0;

		if (t->mem == PISA_MEM_TCAM && kb > p->tcam_key_bits) {
			snprintf(msg, n, "table %s needs a %u-bit ternary key, board %s has %u",
				 lt->rt.name, kb, p->name, p->tcam_key_bits);
			return -1;
		}
		if (t->mem == PISA_MEM_TCAM && t->rows > p->tcam_rows && !prows) {
			snprintf(msg, n, "table %s needs %u TCAM rows, board %s has %u per stage",
				 lt->rt.name, t->rows, p->name, p->tcam_rows);
			return -1;
		}
		if (t->mem == PISA_MEM_HASH && kb > p->max_key_bits) {
			snprintf(msg, n, "table %s needs a %u-bit exact key, board %s has %u",
				 lt->rt.name, kb, p->name, p->max_key_bits);
			return -1;
		}
		if (t->mem == PISA_MEM_HASH && rb > p->hash_row_bits) {
			snprintf(msg, n, "table %s needs %u-bit exact-match rows, board %s has %u",
				 lt->rt.name, rb, p->name, p->hash_row_bits);
			return -1;
		}
		if (t->mem == PISA_MEM_HASH && (uint64_t)rb * t->rows > p->hash_bits && !prows) {
			snprintf(msg, n, "table %s needs %u exact-match rows of %u bits (%llu bits), board %s has %u bits per stage",
				 lt->rt.name, t->rows, rb, (unsigned long long)rb * t->rows, p->name, (unsigned)p->hash_bits);
			return -1;
		}
		if (t->adata_bits > p->max_adata_bits) {
			snprintf(msg, n, "table %s needs %u bits of action data, board %s has %u",
				 lt->rt.name, t->adata_bits, p->name, p->max_adata_bits);
			return -1;
		}
		np[i] = prows ? (int)((t->rows + prows - 1) / prows) : 1;
		st[i] = zalloc(sizeof(int) * (size_t)np[i]);
		for (j = 0; j < i; j++) {
			if (B.tabs[j].t.gress != t->gress)
				continue;
			if (last[j] > s)
				s = last[j];	/* program order is stage order */
			if (overlaps(B.tabs[j].wr, lt->rd) || overlaps(B.tabs[j].wr, lt->wr) ||
			    overlaps(B.tabs[j].rd, lt->wr))
				if (last[j] + 1 > s)
					s = last[j] + 1;
		}
		/* piece k in a later stage than piece k - 1: each fills a stage's memory */
		for (k = 0; k < np[i]; k++) {
			rows = prows ? (k < np[i] - 1 ? prows : t->rows - prows * (uint32_t)k) : t->rows;
			if (prows && t->mem == PISA_MEM_HASH)
				rows = prows;
			for (; s < (int)ns; s++) {
				if (cnt[t->gress][s] >= p->tables_per_stage)
					continue;
				if (t->mem == PISA_MEM_TCAM && tcam[s] + rows > p->tcam_rows)
					continue;
				if (t->mem == PISA_MEM_HASH && hbits[s] + (uint64_t)rb * rows > p->hash_bits)
					continue;
				break;
			}
			if (s >= (int)ns) {
				if (np[i] > 1)
					snprintf(msg, n, "table %s (split into %d pieces of %u rows) needs stage %d, board %s has %u stages (%u tables per stage)",
						 lt->rt.name, np[i], (unsigned)prows, s + 1, p->name, p->stages,
						 p->tables_per_stage);
				else
					snprintf(msg, n, "table %s needs stage %d, board %s has %u stages (%u tables per stage)",
						 lt->rt.name, s + 1, p->name, p->stages, p->tables_per_stage);
				return -1;
			}
			st[i][k] = s;
			cnt[t->gress][s]++;
			if (t->mem == PISA_MEM_TCAM)
				tcam[s] += rows;
			if (t->mem == PISA_MEM_HASH)
				hbits[s] += (uint64_t)rb * rows;
			if (s > maxst)
				maxst = s;
			s++;
		}
		last[i] = st[i][np[i] - 1];
	}
	if (report) {
		for (i = 0; i < B.ntabs; i++)
			B.tabs[i].t.stage = (uint8_t)st[i][0];
		split_tables(np, st, geo);
	}
	return maxst + 1;
}

/* The new id of a table, pieces inserted (PISA_NEXT_END stays). */
static uint16_t remap(const int *newid, uint16_t id)
{
	return id == PISA_NEXT_END || id >= B.ntabs ? id : (uint16_t)newid[id];
}

/* A table's next pointers under the new ids. */
static void remap_nexts(struct pisa_table *t, const int *newid)
{
	int a;

	t->next_hit = remap(newid, t->next_hit);
	t->next_miss = remap(newid, t->next_miss);
	for (a = 0; a < t->nactions; a++)
		t->actions[a].next = remap(newid, t->actions[a].next);
}

/*
 * Table i becomes np[i] tables, piece k in stage st[i][k] with geo[i]'s rows: piece k
 * misses into piece k + 1 through a compiler-made empty default action; only the last
 * piece keeps the real default; each piece of a table with a direct counter has a
 * counter of its own (the same control-plane name). The rest of the image follows the
 * new table ids.
 */
static void split_tables(const int *np, int *const *st, const struct pisa_table *geo)
{
	int *newid = zalloc(sizeof(int) * (size_t)(B.ntabs + 1)), total = 0, i, k, nop = -1;
	struct ltab *nt;

	for (i = 0; i < B.ntabs; i++) {
		newid[i] = total;
		total += np[i];
	}
	if (total == B.ntabs)
		return;
	/* direct counters and meters name piece 0 (pieces' own counters come below) */
	for (i = 0; i < B.nctrs; i++)
		if (B.ctrs[i].direct_table >= 0)
			B.ctrs[i].direct_table = (int16_t)remap(newid, (uint16_t)B.ctrs[i].direct_table);
	for (i = 0; i < B.nmtrs; i++)
		if (B.mtrs[i].direct_table >= 0)
			B.mtrs[i].direct_table = (int16_t)remap(newid, (uint16_t)B.mtrs[i].direct_table);
	nt = zalloc(sizeof(*nt) * (size_t)(total + 1));
	for (i = 0; i < B.ntabs; i++) {
		struct ltab *lt = &B.tabs[i];
		uint32_t left = lt->t.rows;

		remap_nexts(&lt->t, newid);
		for (k = 0; k < np[i]; k++) {
			struct ltab *pc = &nt[newid[i] + k];
			struct pisa_table *t = &pc->t;

			*pc = *lt;
			t->stage = (uint8_t)st[i][k];
			if (np[i] == 1)
				continue;
			t->rows = k < np[i] - 1 || lt->t.mem == PISA_MEM_HASH ? geo[i].rows : left;
			left -= k < np[i] - 1 ? geo[i].rows : 0;
			if (lt->t.mem == PISA_MEM_HASH) {
				t->ways = geo[i].ways;
				t->way_bits = geo[i].way_bits;
			}
			if (k > 0 && lt->t.direct_counter >= 0) {
				VPUSH(B.ctrs, B.nctrs, B.capctrs);
				VPUSH(B.rt_ctrs, B.nctrs, B.capctrs2);
				B.ctrs[B.nctrs] = B.ctrs[lt->t.direct_counter];
				B.rt_ctrs[B.nctrs] = B.rt_ctrs[lt->t.direct_counter];
				B.ctrs[B.nctrs].direct_table = (int16_t)(newid[i] + k);
				t->direct_counter = (int16_t)B.nctrs++;
			}
			if (t->direct_counter >= 0)
				B.ctrs[t->direct_counter].size = t->rows;
			if (k == np[i] - 1)
				continue;
			/* not the last piece: a miss goes on to the next piece */
			if (nop < 0) {
				struct code none = { 0 };

				VPUSH(B.acts, B.nacts, B.capacts);
				memset(&B.acts[B.nacts], 0, sizeof(B.acts[B.nacts]));
				B.acts[B.nacts].a.insns = none.v;
				B.acts[B.nacts].rt.name = "$piece_miss";
				nop = B.nacts++;
			}
			t->actions = zalloc(sizeof(*t->actions) * (size_t)(lt->t.nactions + 1));
			memcpy(t->actions, lt->t.actions, sizeof(*t->actions) * lt->t.nactions);
			t->actions[t->nactions].action = (uint16_t)nop;
			t->actions[t->nactions].next = t->next_mode == PISA_NEXT_ACTION ?
						       (uint16_t)(newid[i] + k + 1) : PISA_NEXT_END;
			t->actions[t->nactions++].flags = PISA_TA_DEFAULT_ONLY;
			t->default_action = (uint16_t)nop;
			t->default_adata_len = 0;
			t->next_miss = (uint16_t)(newid[i] + k + 1);
		}
	}
	for (i = 0; i < B.ncrows; i++)
		B.crows[i].table = remap(newid, B.crows[i].table);
	for (i = 0; i < B.nprofs; i++) {
		B.profs[i].member_table = remap(newid, B.profs[i].member_table);
		for (k = 0; k < B.profs[i].ntables; k++)
			B.profs[i].tables[k].table = remap(newid, B.profs[i].tables[k].table);
	}
	B.istart = remap(newid, B.istart);
	B.estart = remap(newid, B.estart);
	B.tabs = nt;
	B.ntabs = total;
	B.captabs = total + 1;
}

/* ---- the whole program ---- */
static struct p4_node *find_main(struct p4_node *prog)
{
	struct p4_node *d;

	for (d = prog->list; d; d = d->next)
		if (d->kind == N_INSTANCE && d->type && d->type->kind == TY_PACKAGE)
			return d;
	return NULL;
}

static struct p4_node *block_of(struct p4_node *arg)
{
	struct p4_node *a = arg->kind == N_NAMEDEXPR ? arg->k[0] : arg;

	if (a->kind == N_CALL && a->k[0]->kind == N_NAME && a->k[0]->decl)
		return a->k[0]->decl;
	if (a->kind == N_NAME && a->decl && a->decl->kind == N_INSTANCE && a->decl->k[0])
		return a->decl->type ? a->decl->type->decl : NULL;
	die(a->loc, "unsupported construct: this package argument");
}

static void collect_errors(struct p4_node *prog)
{
	struct p4_node *d, *m;
	int n = 0;

	for (d = prog->list; d; d = d->next)
		if (d->kind == N_ERROR_DECL)
			for (m = d->list; m; m = m->next)
				n++;
	B.errors = zalloc(sizeof(char *) * (size_t)(n + 1));
	for (d = prog->list; d; d = d->next)
		if (d->kind == N_ERROR_DECL)
			for (m = d->list; m; m = m->next)
				B.errors[B.nerrors++] = (char *)m->name;
}

static void finalize_blocks(void)
{
	int i;

	for (i = 0; i < B.ntabs; i++) {
		struct ltab *lt = &B.tabs[i];
		struct lact *la;

		if (!lt->block)
			continue;
		VPUSH(B.acts, B.nacts, B.capacts);
		la = &B.acts[B.nacts];
		memset(la, 0, sizeof(*la));
		la->a.insns = lt->code.v;
		la->a.ninsns = (uint16_t)lt->code.n;
		la->rt.name = fmt("%s$", lt->rt.name);
		la->rt.p4info_id = 0;	/* compiler-made: no P4Runtime object */
		lt->t.mem = PISA_MEM_NONE;
		lt->t.actions = zalloc(sizeof(*lt->t.actions));
		lt->t.actions[0].action = (uint16_t)B.nacts;
		lt->t.actions[0].next = PISA_NEXT_END;
		lt->t.actions[0].flags = PISA_TA_DEFAULT_ONLY;
		lt->t.nactions = 1;
		lt->t.default_action = (uint16_t)B.nacts;
		B.nacts++;
	}
	for (i = 0; i < B.ntabs; i++) {
		struct ltab *lt = &B.tabs[i];
		int k;

		if (!lt->block && !lt->hidden && lt->t.next_mode != PISA_NEXT_COND)
			lt->rt.p4info_id = 0x02u << 24 | (uint32_t)(i + 1);
		lt->rd = zalloc((dep_bits + 7) / 8 + 1);
		lt->wr = zalloc((dep_bits + 7) / 8 + 1);
		for (k = 0; k < lt->t.nkeys; k++)
			mark_bits(lt->rd, lt->t.keys[k].field.bitoff, lt->t.keys[k].field.width);
		if (lt->t.next_mode == PISA_NEXT_COND)
			mark_bits(lt->rd, lt->t.cond.bitoff, lt->t.cond.width);
		for (k = 0; k < lt->t.nactions; k++)
			mark_code(lt, &B.acts[lt->t.actions[k].action].a);
	}
}

static struct pisa_image *build_image(const struct p4_backend_opts *o, int nstages)
{
	struct pisa_image *img = zalloc(sizeof(*img));
	int i;
	unsigned phv = (B.scratch_hi + 7) / 8;

	snprintf(img->board, sizeof(img->board), "%s", B.prof->name);
	snprintf(img->program, sizeof(img->program), "%s", o->program ? o->program : "");
	img->phv_bytes = (uint16_t)((phv + 3) & ~3u);
	img->cpu_port = (uint16_t)B.prof->cpu_port;
	img->nstages = (uint16_t)(nstages ? nstages : 1);
	img->nheaders = (uint16_t)B.nhdr;
	img->headers = B.hdrs;
	img->nstacks = (uint16_t)B.nstack;
	img->stacks = B.stacks;
	img->parser_start = 0;
	img->nstates = (uint16_t)B.nstates;
	img->states = B.states;
	img->ntables = (uint16_t)B.ntabs;
	img->tables = zalloc(sizeof(*img->tables) * (size_t)(B.ntabs + 1));
	img->rt_tables = zalloc(sizeof(*img->rt_tables) * (size_t)(B.ntabs + 1));
	for (i = 0; i < B.ntabs; i++) {
		img->tables[i] = B.tabs[i].t;
		img->rt_tables[i] = B.tabs[i].rt;
	}
	img->nactions = (uint16_t)B.nacts;
	img->actions = zalloc(sizeof(*img->actions) * (size_t)(B.nacts + 1));
	img->rt_actions = zalloc(sizeof(*img->rt_actions) * (size_t)(B.nacts + 1));
	for (i = 0; i < B.nacts; i++) {
		img->actions[i] = B.acts[i].a;
		img->rt_actions[i] = B.acts[i].rt;
	}
	img->ncounters = (uint16_t)B.nctrs;
	img->counters = B.ctrs;
	img->rt_counters = B.rt_ctrs;
	img->nregisters = (uint16_t)B.nregs;
	img->registers = B.regs;
	img->rt_registers = B.rt_regs;
	img->nmeters = (uint16_t)B.nmtrs;
	img->meters = B.mtrs;
	img->rt_meters = B.rt_mtrs;
	img->nfield_lists = (uint16_t)B.nflists;
	img->field_lists = B.flists;
	img->nhash_units = (uint16_t)B.nhunits;
	img->hash_units = B.hunits;
	img->ndigests = (uint16_t)B.ndigests;
	img->digests = B.digests;
	img->rt_digests = B.rt_digests;
	img->nchecksums = (uint16_t)B.ncsums;
	img->checksums = B.csums;
	img->ndeparse = (uint16_t)B.ndeparse;
	img->deparse = B.deparse;
	img->mcast_groups = (uint16_t)B.prof->mcast_groups;
	img->mcast_nodes = (uint16_t)B.prof->mcast_nodes;
	img->clone_sessions = (uint16_t)B.prof->clone_sessions;
	img->rt_headers = B.hdr_names;
	img->nerrors = (uint16_t)B.nerrors;
	img->rt_errors = B.errors;
	img->nconst_rows = (uint32_t)B.ncrows;
	img->const_rows = B.crows;
	img->nprofiles = (uint16_t)B.nprofs;
	img->rt_profiles = B.profs;
	return img;
}

static void dump_image(FILE *f, const struct pisa_image *img)
{
	int i, k;

	fprintf(f, "phv_bytes %u, headers %u, states %u, tables %u, actions %u, stages %u\n",
		img->phv_bytes, img->nheaders, img->nstates, img->ntables, img->nactions, img->nstages);
	for (i = 0; i < img->nheaders; i++)
		fprintf(f, "header %d %s byte %u len %u\n", i, img->rt_headers[i], img->headers[i].phv_byte,
			img->headers[i].bytes);
	for (i = 0; i < img->nstates; i++) {
		const struct pisa_parser_state *s = &img->states[i];

		fprintf(f, "state %d: %u ops, key", i, s->nops);
		for (k = 0; k < s->nkey; k++)
			fprintf(f, " %s(%u,%u)", s->key[k].kind == PISA_OPND_PKT ? "pkt" : "phv", s->key[k].off,
				s->key[k].width);
		for (k = 0; k < s->nrows; k++)
			fprintf(f, "; %#llx&%#llx->%#x", (unsigned long long)s->rows[k].value,
				(unsigned long long)s->rows[k].mask, s->rows[k].next);
		fputc('\n', f);
	}
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];

		fprintf(f, "table %d %s gress %u stage %u mem %u mode %u keys %u rows %u hit %#x miss %#x actions",
			i, img->rt_tables[i].name, t->gress, t->stage, t->mem, t->next_mode, t->nkeys,
			t->rows, t->next_hit, t->next_miss);
		for (k = 0; k < t->nactions; k++)
			fprintf(f, " %s->%#x", img->rt_actions[t->actions[k].action].name, t->actions[k].next);
		fputc('\n', f);
	}
	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];

		fprintf(f, "profile %d %s selector %u size %u slots %u member table %u, table", i,
			p->name, p->with_selector, p->size, p->slots, p->member_table);
		for (k = 0; k < p->ntables; k++)
			fprintf(f, " %u (member %u, group %#x)", p->tables[k].table, p->tables[k].member_action,
				p->tables[k].group_action);
		fputc('\n', f);
	}
	for (i = 0; i < img->nactions; i++) {
		fprintf(f, "action %d %s: %u insns\n", i, img->rt_actions[i].name, img->actions[i].ninsns);
		for (k = 0; k < img->actions[i].ninsns; k++) {
			const struct pisa_insn *in = &img->actions[i].insns[k];

			fprintf(f, "  op %u imm %u dst %u(%u,%u) a %u(%u,%u,%llu) b %u(%u,%u,%llu)\n", in->op, in->imm,
				in->dst.kind, in->dst.off, in->dst.width, in->a.kind, in->a.off, in->a.width,
				(unsigned long long)in->a.value, in->b.kind, in->b.off, in->b.width,
				(unsigned long long)in->b.value);
		}
	}
}

/*
 * A board's RTL core holds fewer cells than its profile's budgets suggest (every register
 * cell is 64 bits there) and implements less than pisa-model: an image it cannot run does not
 * fit that board. The checks are lib/pisa_hwconf.c's, with the board's core parameters.
 */
static int core_refuses(const struct p4_backend_opts *o, const struct pisa_image *img)
{
	struct pisa_hwconf_limits lim;
	struct pisa_hwconf hc;
	char why[256];

	pisa_hwconf_limits_for(B.prof->name, &lim);
	if (pisa_hwconf_build(img, &lim, &hc, why, sizeof(why)) < 0) {
		fprintf(stderr, "p4lower: %s: does not fit board %s: its RTL core: %s\n",
			o->program ? o->program : "program", B.prof->name, why);
		return 1;
	}
	pisa_hwconf_free(&hc);
	return 0;
}

int p4_backend(struct p4_node *prog, const struct p4_backend_opts *o)
{
	jmp_buf jb;
	struct p4_node *m, *a, *blk[6];
	int i, nst;
	char detail[256];
	struct pisa_image *img;
	const struct p4_type *ht, *mt;

	memset(&B, 0, sizeof(B));
	npend = cappend = 0;
	pend = NULL;
	npinsts = cappinsts = 0;
	pinsts = NULL;
	stack_ctx = NULL;
	B.prof = pisa_profile_find(o->board ? o->board : "sim");
	if (!B.prof) {
		fprintf(stderr, "p4lower: unknown board %s\n", o->board);
		return P4L_EXIT_PROG;
	}
	bail = &jb;
	if (setjmp(jb))
		return P4L_EXIT_PROG;
	B.prog = prog;
	toplevel = prog->list;
	noaction_decl = NULL;
	for (a = prog->list; a; a = a->next)
		if (a->kind == N_ACTION && !strcmp(a->name, "NoAction"))
			noaction_decl = a;
	m = find_main(prog);
	if (!m)
		die(prog->loc, "no package instance 'main'");
	if (strcmp(m->type->name, "V1Switch"))
		die(m->loc, "unsupported construct: package %s (only V1Switch)", m->type->name);
	for (a = m->list, i = 0; a && i < 6; a = a->next, i++)
		blk[i] = block_of(a);
	if (i != 6)
		die(m->loc, "V1Switch takes 6 blocks");
	collect_errors(prog);
	/* the types of hdr and meta: the parser's 2nd and 3rd parameters */
	{
		struct p4_node *p1 = blk[0]->list ? blk[0]->list->next : NULL;
		struct p4_node *p2 = p1 ? p1->next : NULL, *p3 = p2 ? p2->next : NULL;

		if (!p1 || !p2 || !p3)
			die(blk[0]->loc, "the parser needs the v1model parameters");
		ht = tres(p1->type);
		mt = tres(p2->type);
		B.t_hdr = ht;
		B.t_meta = mt;
		if (ht->kind != TY_STRUCT && ht->kind != TY_HEADER)
			die(p1->loc, "unsupported construct: headers of type %s", p4_type_str(ht));
		B.nhdr = (unsigned)count_headers(ht, p1->loc);
		B.hdrs = zalloc(sizeof(*B.hdrs) * (B.nhdr + 1));
		B.hdr_names = zalloc(sizeof(char *) * (B.nhdr + 1));
		B.stacks = zalloc(sizeof(*B.stacks) * 65);
		B.bit = (PISA_PHV_FIXED_BYTES + (B.nhdr + 7) / 8) * 8;
		B.nhdr = 0;
		B.root_hdr = lay_headers(ht, p1->name, p1->loc);
		B.bit = (B.bit + 7) & ~7u;
		B.root_meta = lay_meta(mt, p2->name, p2->loc);
		B.root_sm = lay_sm(tres(p3->type), p3->loc);
		lay_locals(prog->list);
		find_indirect(blk[2]);
		find_indirect(blk[3]);
		B.bit = (B.bit + 7) & ~7u;
		B.scratch_lo = B.scratch = B.scratch_hi = B.bit;
	}
	lower_parser(blk[0]);
	lower_checksums(blk[1], PISA_CSUM_VERIFY);
	{
		lower_control(blk[2], 0, &B.istart);
		lower_control(blk[3], 1, &B.estart);
		dep_bits = B.scratch_lo;
		lower_checksums(blk[4], PISA_CSUM_UPDATE);
		lower_deparser(blk[5]);
		finalize_blocks();
		nst = place(B.prof, fit_msg, sizeof(fit_msg), 1);
		if (nst < 0) {
			size_t k;
			char dummy[256];

			fit_failed = 1;
			fprintf(stderr, "p4lower: %s: does not fit board %s: %s", o->program ? o->program : "program",
				B.prof->name, fit_msg);
			/* name every board it fits (sim last: it is not a board one can buy) */
			int nfit = 0, sim_fits = 0;

			for (k = 0; pisa_profiles[k]; k++) {
				const struct pisa_profile *pk = pisa_profiles[k];

				if (pk == B.prof || place(pk, dummy, sizeof(dummy), 0) < 0)
					continue;
				if (!strcmp(pk->name, "sim"))
					sim_fits = 1;
				else
					fprintf(stderr, "%s%s", nfit++ ? ", " : "; it fits ", pk->name);
			}
			if (!nfit)
				fputs(sim_fits ? "; it fits only sim" : "; it fits no board profile", stderr);
			fputc('\n', stderr);
			return P4L_EXIT_FIT;
		}
		img = build_image(o, nst);
		img->ingress_start = B.istart;
		img->egress_start = B.estart;
	}
	if (strcmp(B.prof->name, "sim") != 0 && core_refuses(o, img))
		return P4L_EXIT_FIT;
	if (o->dump)
		dump_image(o->dump, img);
	if (pisa_image_check(img, detail, sizeof(detail)) < 0) {
		fprintf(stderr, "p4lower: internal error: the image is inconsistent: %s\n", detail);
		return P4L_EXIT_PROG;
	}
	if (o->out) {
		int rc = pisa_image_write_file(img, o->out);

		if (rc < 0) {
			fprintf(stderr, "p4lower: %s: %s\n", o->out, pisa_strerror(-rc));
			return P4L_EXIT_PROG;
		}
	}
	return P4L_EXIT_OK;
}
