/* SPDX-License-Identifier: MIT */
/*
 * p4lower: name resolution, type checking with width inference, constant folding,
 * lvalue and direction checks. Fills p4_node.type/decl/is_const/cval.
 * Declarations come before use (as P4 requires), so one walk in order suffices;
 * only parser states may be named before they are declared.
 */
#include <string.h>
#include "ast.h"

/* ---- scopes ---- */
struct sym {
	const char *name;
	struct p4_node *decl;
	struct sym *next;
};

struct scope {
	struct sym *syms;
	struct scope *up;
};

/* Type variables bound while checking one call or one specialised extern. */
#define MAX_BIND 16
struct env {
	struct p4_node *tp[MAX_BIND];
	struct p4_type *ty[MAX_BIND];
	int n;
};

struct ctx {
	struct scope *sc;
	struct scope *top;
	struct p4_node *errors;		/* error members, in declaration order */
	int nerrors;
	struct p4_node *parser;		/* the parser or control being checked */
	struct p4_node *control;
	struct p4_node *action;
	struct p4_node *func;
	struct p4_type *ret;		/* return type of the function being checked */
};

static struct p4_type t_err = { .kind = TY_ERR };
static struct p4_type t_void = { .kind = TY_VOID, .name = "void" };
static struct p4_type t_bool = { .kind = TY_BOOL };
static struct p4_type t_infint = { .kind = TY_INFINT };
static struct p4_type t_string = { .kind = TY_STRING };
static struct p4_type t_error = { .kind = TY_ERROR };
static struct p4_type t_matchkind = { .kind = TY_MATCHKIND };
static struct p4_type t_dontcare = { .kind = TY_DONTCARE };
static struct p4_type t_state = { .kind = TY_STATE };

static struct p4_node state_accept = { .kind = N_STATE, .name = "accept" };
static struct p4_node state_reject = { .kind = N_STATE, .name = "reject" };

static struct p4_type *new_type(enum p4_tkind k)
{
	struct p4_type *t = p4_alloc(sizeof(*t));

	t->kind = k;
	return t;
}

static struct p4_type *bit_type(int w, int is_signed)
{
	struct p4_type *t = new_type(is_signed ? TY_INT : TY_BIT);

	t->width = w;
	return t;
}

/* ---- type names for messages ---- */
static void tstr(char *b, size_t n, const struct p4_type *t);

static void tstr_args(char *b, size_t n, struct p4_type **a, int na)
{
	int i;
	size_t l;

	for (i = 0; i < na; i++) {
		l = strlen(b);
		if (i)
			snprintf(b + l, n - l, ", ");
		l = strlen(b);
		tstr(b + l, n - l, a[i]);
	}
}

static void tstr(char *b, size_t n, const struct p4_type *t)
{
	size_t l;

	if (n < 2)
		return;
	b[0] = 0;
	switch (t->kind) {
	case TY_ERR: snprintf(b, n, "<error>"); break;
	case TY_VOID: snprintf(b, n, "void"); break;
	case TY_BOOL: snprintf(b, n, "bool"); break;
	case TY_BIT: snprintf(b, n, "bit<%d>", t->width); break;
	case TY_INT: snprintf(b, n, "int<%d>", t->width); break;
	case TY_VARBIT: snprintf(b, n, "varbit<%d>", t->width); break;
	case TY_INFINT: snprintf(b, n, "int"); break;
	case TY_STRING: snprintf(b, n, "string"); break;
	case TY_ERROR: snprintf(b, n, "error"); break;
	case TY_MATCHKIND: snprintf(b, n, "match_kind"); break;
	case TY_DONTCARE: snprintf(b, n, "_"); break;
	case TY_STATE: snprintf(b, n, "state"); break;
	case TY_STACK:
		tstr(b, n, t->elem);
		l = strlen(b);
		snprintf(b + l, n - l, "[%d]", t->size);
		break;
	case TY_TUPLE:
	case TY_LIST:
		snprintf(b, n, t->kind == TY_TUPLE ? "tuple<" : "list<");
		l = strlen(b);
		tstr_args(b + l, n - l, t->args, t->nargs);
		l = strlen(b);
		snprintf(b + l, n - l, ">");
		break;
	case TY_SET:
		snprintf(b, n, "set<");
		l = strlen(b);
		tstr(b + l, n - l, t->elem);
		l = strlen(b);
		snprintf(b + l, n - l, ">");
		break;
	case TY_TYPE:
		snprintf(b, n, "type ");
		l = strlen(b);
		tstr(b + l, n - l, t->elem);
		break;
	case TY_APPLYRES:
		snprintf(b, n, "apply_result<%s>", t->decl ? t->decl->name : "?");
		break;
	case TY_ACTION:
		snprintf(b, n, "%s %s", t->name && !strcmp(t->name, "action_run") ? "action_run of" :
			 "action", t->decl ? t->decl->name : "?");
		break;
	case TY_TABLE: snprintf(b, n, "table %s", t->decl->name); break;
	case TY_METHOD: snprintf(b, n, "method %s", t->name); break;
	case TY_FUNC: snprintf(b, n, "function %s", t->decl->name); break;
	case TY_VALUESET:
		snprintf(b, n, "value_set<");
		l = strlen(b);
		tstr(b + l, n - l, t->elem);
		l = strlen(b);
		snprintf(b + l, n - l, ">");
		break;
	default:
		snprintf(b, n, "%s", t->name ? t->name : "?");
		if (t->nargs) {
			l = strlen(b);
			snprintf(b + l, n - l, "<");
			l = strlen(b);
			tstr_args(b + l, n - l, t->args, t->nargs);
			l = strlen(b);
			snprintf(b + l, n - l, ">");
		}
		break;
	}
}

const char *p4_type_str(const struct p4_type *t)
{
	static char bufs[4][256];
	static int i;
	char *b = bufs[i++ & 3];

	tstr(b, sizeof(bufs[0]), t);
	return b;
}

/* ---- scopes ---- */
static void push_scope(struct ctx *c)
{
	struct scope *s = p4_alloc(sizeof(*s));

	s->up = c->sc;
	c->sc = s;
}

static void pop_scope(struct ctx *c)
{
	c->sc = c->sc->up;
}

static struct p4_node *lookup_in(struct scope *s, const char *name)
{
	struct sym *y;

	for (y = s->syms; y; y = y->next)
		if (!strcmp(y->name, name))
			return y->decl;
	return NULL;
}

static struct p4_node *lookup(struct ctx *c, const char *name)
{
	struct scope *s;
	struct p4_node *d;

	for (s = c->sc; s; s = s->up)
		if ((d = lookup_in(s, name)))
			return d;
	return NULL;
}

static int is_overloadable(const struct p4_node *d)
{
	return d->kind == N_EXTERN_FUNC || d->kind == N_FUNCTION;
}

static void declare(struct ctx *c, const char *name, struct p4_node *d)
{
	struct p4_node *old = lookup_in(c->sc, name);
	struct sym *y;

	if (old && !(is_overloadable(old) && is_overloadable(d))) {
		p4_error(d->loc, "redeclaration of '%s'", name);
		if (old->loc.file)
			p4_note(old->loc, "'%s' was declared here", name);
		return;
	}
	y = p4_alloc(sizeof(*y));
	y->name = name;
	y->decl = d;
	/* appended so that overloads are tried in declaration order */
	struct sym **at = &c->sc->syms;

	while (*at)
		at = &(*at)->next;
	*at = y;
}

static int count(const struct p4_node *l)
{
	int n = 0;

	for (; l; l = l->next)
		n++;
	return n;
}

static int has_annot(const struct p4_node *n, const char *name)
{
	const struct p4_node *a;

	for (a = n->annots; a; a = a->next)
		if (!strcmp(a->name, name))
			return 1;
	return 0;
}

/* Parameters an argument must be given for: no default value, not @optional. */
static int required_params(const struct p4_node *l)
{
	int n = 0;

	for (; l; l = l->next)
		if (!l->k[1] && !has_annot(l, "optional"))
			n++;
	return n;
}

/* The overload of `name` (function or extern function) taking nargs arguments. */
static struct p4_node *lookup_overload(struct ctx *c, const char *name, int nargs)
{
	struct scope *s;
	struct sym *y;
	struct p4_node *first = NULL;

	for (s = c->sc; s; s = s->up) {
		for (y = s->syms; y; y = y->next) {
			if (strcmp(y->name, name))
				continue;
			if (!is_overloadable(y->decl))
				return first ? first : y->decl;
			if (!first)
				first = y->decl;
			if (nargs >= required_params(y->decl->list) && nargs <= count(y->decl->list))
				return y->decl;
		}
		if (first)
			return first;
	}
	return first;
}

/* ---- type helpers ---- */
static int is_num(const struct p4_type *t)
{
	return t->kind == TY_BIT || t->kind == TY_INT || t->kind == TY_INFINT;
}

static int is_fixed(const struct p4_type *t)
{
	return t->kind == TY_BIT || t->kind == TY_INT;
}

static int type_eq(const struct p4_type *a, const struct p4_type *b)
{
	int i;

	if (a == b)
		return 1;
	if (a->kind == TY_ERR || b->kind == TY_ERR)
		return 1;
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case TY_BIT: case TY_INT: case TY_VARBIT:
		return a->width == b->width;
	case TY_STACK:
		return a->size == b->size && type_eq(a->elem, b->elem);
	case TY_TUPLE: case TY_LIST:
		if (a->nargs != b->nargs)
			return 0;
		for (i = 0; i < a->nargs; i++)
			if (!type_eq(a->args[i], b->args[i]))
				return 0;
		return 1;
	case TY_HEADER: case TY_STRUCT: case TY_UNION: case TY_ENUM: case TY_EXTERN:
	case TY_PARSER: case TY_CONTROL: case TY_PACKAGE: case TY_TYPEVAR: case TY_NEWTYPE:
		if (a->decl != b->decl)
			return 0;
		if (a->nargs && b->nargs && a->nargs == b->nargs)
			for (i = 0; i < a->nargs; i++)
				if (!type_eq(a->args[i], b->args[i]))
					return 0;
		return 1;
	default:
		return 1;
	}
}

static struct p4_type *env_get(struct env *e, const struct p4_node *tp)
{
	int i;

	for (i = 0; e && i < e->n; i++)
		if (e->tp[i] == tp)
			return e->ty[i];
	return NULL;
}

static void env_bind(struct env *e, struct p4_node *tp, struct p4_type *t)
{
	int i;

	for (i = 0; i < e->n; i++)
		if (e->tp[i] == tp) {
			e->ty[i] = t;
			return;
		}
	if (e->n < MAX_BIND) {
		e->tp[e->n] = tp;
		e->ty[e->n++] = t;
	}
}

/* Replaces bound type variables. */
static struct p4_type *subst(struct p4_type *t, struct env *e)
{
	struct p4_type *r;
	int i, changed = 0;

	if (!e || !e->n)
		return t;
	if (t->kind == TY_TYPEVAR) {
		r = env_get(e, t->decl);
		return r ? r : t;
	}
	if (t->kind == TY_STACK) {
		struct p4_type *el = subst(t->elem, e);

		if (el == t->elem)
			return t;
		r = new_type(TY_STACK);
		*r = *t;
		r->elem = el;
		return r;
	}
	if (!t->nargs)
		return t;
	r = new_type(t->kind);
	*r = *t;
	r->args = p4_alloc(sizeof(*r->args) * t->nargs);
	for (i = 0; i < t->nargs; i++) {
		r->args[i] = subst(t->args[i], e);
		changed |= r->args[i] != t->args[i];
	}
	return changed ? r : t;
}

/* Bindings of an extern's (or parser's) type parameters from a specialised type. */
static void env_from_type(struct env *e, const struct p4_type *t)
{
	const struct p4_node *tp;
	int i = 0;

	if (!t->decl)
		return;
	for (tp = t->decl->list2; tp && i < t->nargs; tp = tp->next, i++)
		env_bind(e, (struct p4_node *)tp, t->args[i]);
}

/* Where an expression starts in the source: messages about a whole expression point there. */
static struct p4_loc start_loc(const struct p4_node *e)
{
	while ((e->kind == N_MEMBER || e->kind == N_INDEX || e->kind == N_SLICE || e->kind == N_CALL ||
		e->kind == N_BINARY || e->kind == N_TERNARY) && e->k[0])
		e = e->k[0];
	return e->loc;
}

/* ---- constants ---- */
static p4_int wrap(p4_int v, const struct p4_type *t)
{
	p4_uint u = (p4_uint)v, m;

	if (!is_fixed(t) || t->width >= 128)
		return v;
	m = ((p4_uint)1 << t->width) - 1;
	u &= m;
	if (t->kind == TY_INT && (u >> (t->width - 1)) & 1)
		u |= ~m;
	return (p4_int)u;
}

static void set_const(struct p4_node *e, p4_int v)
{
	e->is_const = 1;
	e->cval = e->type ? wrap(v, e->type) : v;
}

static struct p4_type *check_expr(struct ctx *c, struct p4_node *e, struct p4_type *want);
static struct p4_type *resolve_type(struct ctx *c, struct p4_node *t);
static void check_stmt(struct ctx *c, struct p4_node *s);
static void check_block(struct ctx *c, struct p4_node *b, int new_scope);

/* A compile-time integer (widths, sizes, slice bounds). Returns -1 on error. */
static long const_int(struct ctx *c, struct p4_node *e, const char *what, long lo, long hi)
{
	struct p4_type *t = check_expr(c, e, NULL);

	if (t->kind == TY_ERR)
		return -1;
	if (!is_num(t) || !e->is_const) {
		p4_error(start_loc(e), "%s must be a compile-time integer constant", what);
		return -1;
	}
	if (e->cval < lo || e->cval > hi) {
		p4_error(e->loc, "%s out of range (must be %ld..%ld)", what, lo, hi);
		return -1;
	}
	return (long)e->cval;
}

/* ---- types from syntax ---- */
static int is_type_decl(const struct p4_node *d)
{
	switch (d->kind) {
	case N_TYPEDEF: case N_NEWTYPE: case N_HEADER: case N_STRUCT: case N_UNION: case N_ENUM:
	case N_EXTERN: case N_PARSER_TYPE: case N_CONTROL_TYPE: case N_PACKAGE: case N_TYPEPARAM:
	case N_PARSER: case N_CONTROL:
		return 1;
	default:
		return 0;
	}
}

static struct p4_type *resolve_type(struct ctx *c, struct p4_node *t)
{
	struct p4_type *r;
	struct p4_node *d, *a;
	long w;
	int i;

	if (t->type)
		return t->type;
	switch (t->kind) {
	case N_TBIT:
	case N_TINT:
	case N_TVARBIT:
		w = 1;
		if (t->k[0]) {
			w = const_int(c, t->k[0], "the width of a type", t->kind == N_TINT ? 1 : 0, 65536);
			if (w < 0)
				return t->type = &t_err;
		}
		r = bit_type((int)w, t->kind == N_TINT);
		if (t->kind == N_TVARBIT)
			r->kind = TY_VARBIT;
		break;
	case N_TINFINT: r = &t_infint; break;
	case N_TBOOL: r = &t_bool; break;
	case N_TSTRING: r = &t_string; break;
	case N_TERROR: r = &t_error; break;
	case N_TMATCHKIND: r = &t_matchkind; break;
	case N_TVOID: r = &t_void; break;
	case N_TDONTCARE: r = &t_dontcare; break;
	case N_TNAME:
	case N_TSPEC:
		d = lookup(c, t->name);
		if (!d) {
			p4_error(t->loc, "unknown type '%s'", t->name);
			return t->type = &t_err;
		}
		if (!is_type_decl(d) || !d->type) {
			p4_error(t->loc, "'%s' is not a type", t->name);
			return t->type = &t_err;
		}
		r = d->type;
		if (t->kind == N_TSPEC) {
			int n = count(t->list2);

			if (!d->list2) {
				p4_error(t->loc, "type '%s' takes no type arguments", t->name);
				return t->type = &t_err;
			}
			/*
			 * Externs may leave trailing type arguments out: v1model's
			 * register<T, I> is also written register<bit<32>>, and the
			 * missing I then accepts any index type.
			 */
			if (n != count(d->list2) && !(d->kind == N_EXTERN && n < count(d->list2))) {
				p4_error(t->loc, "type '%s' takes %d type argument%s, %d given", t->name,
					 count(d->list2), count(d->list2) == 1 ? "" : "s", n);
				return t->type = &t_err;
			}
			r = new_type(d->type->kind);
			*r = *d->type;
			r->nargs = n;
			r->args = p4_alloc(sizeof(*r->args) * n);
			for (i = 0, a = t->list2; a; a = a->next, i++)
				r->args[i] = resolve_type(c, a);
		}
		break;
	case N_TSTACK: {
		struct p4_type *el = resolve_type(c, t->k[0]);

		w = const_int(c, t->k[1], "the size of a header stack", 1, 4096);
		if (w < 0 || el->kind == TY_ERR)
			return t->type = &t_err;
		if (el->kind != TY_HEADER && el->kind != TY_UNION) {
			p4_error(t->loc, "header stack of %s: elements must be headers or header unions",
				 p4_type_str(el));
			return t->type = &t_err;
		}
		r = new_type(TY_STACK);
		r->elem = el;
		r->size = (int)w;
		break;
	}
	case N_TTUPLE:
		r = new_type(TY_TUPLE);
		r->nargs = count(t->list);
		r->args = p4_alloc(sizeof(*r->args) * (r->nargs + 1));
		for (i = 0, a = t->list; a; a = a->next, i++)
			r->args[i] = resolve_type(c, a);
		break;
	case N_TLIST:
		p4_error(t->loc, "unsupported construct: list types");
		return t->type = &t_err;
	default:
		p4_error(t->loc, "expected a type");
		return t->type = &t_err;
	}
	t->type = r;
	return r;
}

/* ---- lvalues ---- */
static int lvalue(struct ctx *c, struct p4_node *e, const char **why)
{
	struct p4_node *d;

	switch (e->kind) {
	case N_DONTCARE:
		return 1;
	case N_NAME:
		d = e->decl;
		if (!d)
			return 1;
		if (d->kind == N_VARDECL)
			return 1;
		if (d->kind == N_PARAM) {
			if (d->op == D_OUT || d->op == D_INOUT)
				return 1;
			*why = d->op == D_IN ? "an 'in' parameter" : "a parameter without direction";
			return 0;
		}
		*why = d->kind == N_CONST ? "a constant" : "not a variable";
		return 0;
	case N_MEMBER: {
		struct p4_type *bt = e->k[0]->type;

		if (!bt)
			return 0;
		if (bt->kind == TY_HEADER || bt->kind == TY_STRUCT || bt->kind == TY_UNION ||
		    (bt->kind == TY_STACK && (!strcmp(e->name, "next") || !strcmp(e->name, "last"))))
			return lvalue(c, e->k[0], why);
		*why = "not a variable";
		return 0;
	}
	case N_INDEX:
	case N_SLICE:
		return lvalue(c, e->k[0], why);
	default:
		*why = "not a variable";
		return 0;
	}
}

static void need_lvalue(struct ctx *c, struct p4_node *e, const char *what)
{
	const char *why = "not a variable";

	if (e->type && e->type->kind == TY_ERR)
		return;
	if (!lvalue(c, e, &why))
		p4_error(start_loc(e), "%s: expression is %s", what, why);
}

/* ---- assignability (with width inference of integer literals) ---- */

/* Gives an untyped integer expression the type it is used at (width inference). */
static void settle_int(struct p4_node *e, struct p4_type *t)
{
	e->type = t;
	if (e->is_const)
		e->cval = wrap(e->cval, t);
	/* push the type down into operands that were plain integers */
	switch (e->kind) {
	case N_UNARY:
		if (e->k[0]->type && e->k[0]->type->kind == TY_INFINT)
			settle_int(e->k[0], t);
		break;
	case N_BINARY:
		if (e->op != P_SHL && e->op != T_NTOKS && e->k[1]->type && e->k[1]->type->kind == TY_INFINT)
			settle_int(e->k[1], t);
		if (e->k[0]->type && e->k[0]->type->kind == TY_INFINT)
			settle_int(e->k[0], t);
		break;
	case N_TERNARY:
		if (e->k[1]->type && e->k[1]->type->kind == TY_INFINT)
			settle_int(e->k[1], t);
		if (e->k[2]->type && e->k[2]->type->kind == TY_INFINT)
			settle_int(e->k[2], t);
		break;
	default:
		break;
	}
}

static int can_assign(struct p4_type *to, struct p4_type *from)
{
	if (to->kind == TY_ERR || from->kind == TY_ERR)
		return 1;
	if (to->kind == TY_TYPEVAR || from->kind == TY_TYPEVAR)
		return 1;	/* inside generic declarations: nothing more to check */
	if (type_eq(to, from))
		return 1;
	if (from->kind == TY_INFINT && (to->kind == TY_BIT || to->kind == TY_INT))
		return 1;
	/* a serializable enum converts to its underlying type */
	if (from->kind == TY_ENUM && from->elem && type_eq(to, from->elem))
		return 1;
	if (to->kind == TY_LIST || to->kind == TY_TUPLE) {
		/* lists convert element-wise */
		int i;

		if ((from->kind != TY_TUPLE && from->kind != TY_LIST) || from->nargs != to->nargs)
			return 0;
		for (i = 0; i < to->nargs; i++)
			if (!can_assign(to->args[i], from->args[i]))
				return 0;
		return 1;
	}
	return 0;
}

static struct p4_node *find_field(const struct p4_type *t, const char *name)
{
	struct p4_node *f;

	if (!t->decl)
		return NULL;
	for (f = t->decl->list; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* Checks e against `want` and converts it; reports a mismatch naming `what`. */
static void coerce(struct ctx *c, struct p4_node *e, struct p4_type *want, const char *what)
{
	struct p4_type *t = check_expr(c, e, want);

	if (!want || want->kind == TY_ERR || t->kind == TY_ERR)
		return;
	if (t->kind == TY_INFINT && (want->kind == TY_BIT || want->kind == TY_INT)) {
		settle_int(e, want);
		return;
	}
	if (!can_assign(want, t))
		p4_error(start_loc(e), "%s: expected %s, got %s", what, p4_type_str(want), p4_type_str(t));
}

/* `{a, b}` or `{f = a}` against a header, struct or tuple type. */
static struct p4_type *check_init(struct ctx *c, struct p4_node *e, struct p4_type *want)
{
	struct p4_node *x, *f;
	struct p4_type *t;
	int i, n = count(e->list);

	if (want && (want->kind == TY_HEADER || want->kind == TY_STRUCT)) {
		if (e->kind == N_LISTEXPR) {
			if (n != count(want->decl->list)) {
				p4_error(e->loc, "initializer for %s has %d element%s, the type has %d field%s",
					 p4_type_str(want), n, n == 1 ? "" : "s", count(want->decl->list),
					 count(want->decl->list) == 1 ? "" : "s");
				return e->type = &t_err;
			}
			for (x = e->list, f = want->decl->list; x; x = x->next, f = f->next)
				coerce(c, x, f->type, "initializer element");
		} else {
			for (x = e->list; x; x = x->next) {
				f = find_field(want, x->name);
				if (!f) {
					p4_error(x->loc, "%s has no field '%s'", p4_type_str(want), x->name);
					continue;
				}
				coerce(c, x->k[0], f->type, "initializer element");
				x->type = f->type;
			}
			for (f = want->decl->list; f; f = f->next) {
				for (x = e->list; x && strcmp(x->name, f->name); x = x->next)
					;
				if (!x)
					p4_error(e->loc, "initializer for %s has no value for field '%s'",
						 p4_type_str(want), f->name);
			}
		}
		return e->type = want;
	}
	if (e->kind == N_STRUCTEXPR) {
		/* a struct-valued expression without a known type: type its fields only */
		for (x = e->list; x; x = x->next)
			x->type = check_expr(c, x->k[0], NULL);
		t = new_type(TY_STRUCT);
		t->name = "struct";
		return e->type = t;
	}
	t = new_type(TY_TUPLE);
	t->nargs = n;
	t->args = p4_alloc(sizeof(*t->args) * (n + 1));
	for (i = 0, x = e->list; x; x = x->next, i++) {
		struct p4_type *w = NULL;

		if (want && want->kind == TY_TUPLE && i < want->nargs)
			w = want->args[i];
		if (w)
			coerce(c, x, w, "tuple element");
		else
			check_expr(c, x, NULL);
		t->args[i] = x->type;
	}
	if (want && want->kind == TY_TUPLE && want->nargs != n) {
		p4_error(e->loc, "expected %s, got a list of %d element%s", p4_type_str(want), n,
			 n == 1 ? "" : "s");
		return e->type = &t_err;
	}
	return e->type = want && want->kind == TY_TUPLE ? want : t;
}

/* ---- calls ---- */

static struct p4_node *find_arg(struct p4_node *args, const char *name)
{
	for (; args; args = args->next)
		if (args->kind == N_NAMEDEXPR && !strcmp(args->name, name))
			return args;
	return NULL;
}

static int is_untyped_int(struct p4_node *a)
{
	return a->kind == N_INTLIT ? !a->has_width :
	       a->kind == N_UNARY ? is_untyped_int(a->k[0]) : 0;
}

/*
 * Checks arguments against parameters, binding type variables in env.
 * Arguments whose parameter is an unbound type variable and which are plain
 * integers are checked last, so `random(x, 0, 7)` takes T from x.
 */
static void check_args(struct ctx *c, struct p4_loc loc, const char *callee, struct p4_node *params,
		       struct p4_node *args, struct env *env, int skip_params)
{
	struct p4_node *pm, *a, *arg;
	int np = count(params) - skip_params, na = count(args), i, pass;
	int named = args && args->kind == N_NAMEDEXPR;

	for (i = 0; i < skip_params && params; i++)
		params = params->next;
	if (!named && (na > np || na < required_params(params))) {
		p4_error(loc, "'%s' takes %d argument%s, %d given", callee, np, np == 1 ? "" : "s", na);
		for (a = args; a; a = a->next)
			if (a->kind != N_DONTCARE)
				check_expr(c, a->kind == N_NAMEDEXPR ? a->k[0] : a, NULL);
		return;
	}
	if (named) {
		for (a = args; a; a = a->next) {
			if (a->kind != N_NAMEDEXPR) {
				p4_error(a->loc, "cannot mix named and positional arguments");
				return;
			}
			for (pm = params; pm && strcmp(pm->name, a->name); pm = pm->next)
				;
			if (!pm) {
				p4_error(a->loc, "'%s' has no parameter '%s'", callee, a->name);
				return;
			}
		}
	}
	for (pass = 0; pass < 2; pass++) {
		for (pm = params, a = args; pm; pm = pm->next, a = a && !named ? a->next : a) {
			struct p4_type *pt;
			char what[96];

			arg = named ? find_arg(args, pm->name) : a;
			if (!arg) {
				if (!pm->k[1] && !has_annot(pm, "optional") && pass == 0)
					p4_error(loc, "'%s': no argument for parameter '%s'", callee, pm->name);
				continue;
			}
			if (arg->kind == N_NAMEDEXPR)
				arg = arg->k[0];
			pt = subst(resolve_type(c, pm->k[0]), env);
			if ((pass == 0) == (pt->kind == TY_TYPEVAR && is_untyped_int(arg)))
				continue;
			snprintf(what, sizeof(what), "argument '%s' of '%s'", pm->name, callee);
			if (arg->kind == N_DONTCARE) {
				arg->type = pt;
				if (pm->op != D_OUT)
					p4_error(arg->loc, "'_' can only be passed to an 'out' parameter");
				continue;
			}
			if (pt->kind == TY_TYPEVAR) {
				struct p4_type *at = check_expr(c, arg, NULL);

				if (at->kind == TY_VOID)
					p4_error(arg->loc, "%s: a void value", what);
				env_bind(env, pt->decl, at);
			} else {
				coerce(c, arg, pt, what);
			}
			if (pm->op == D_OUT || pm->op == D_INOUT) {
				snprintf(what, sizeof(what), "argument '%s' of '%s' is %s", pm->name, callee,
					 pm->op == D_OUT ? "'out'" : "'inout'");
				need_lvalue(c, arg, what);
			}
		}
	}
}

static struct p4_type *method_type(const char *name, struct p4_node *decl, struct p4_type *recv)
{
	struct p4_type *t = new_type(TY_METHOD);

	t->name = name;
	t->decl = decl;
	t->elem = recv;
	return t;
}

static int is_header_like(const struct p4_type *t)
{
	return t->kind == TY_HEADER || t->kind == TY_UNION;
}

static int bits_of(const struct p4_type *t)
{
	const struct p4_node *f;
	int n = 0;

	switch (t->kind) {
	case TY_BIT: case TY_INT: return t->width;
	case TY_BOOL: return 1;
	case TY_VARBIT: return 0;
	case TY_ENUM: return t->elem ? t->elem->width : 0;
	case TY_NEWTYPE: return t->elem ? bits_of(t->elem) : 0;
	case TY_HEADER: case TY_STRUCT:
		if (!t->decl)
			return 0;
		for (f = t->decl->list; f; f = f->next)
			if (f->type)
				n += bits_of(f->type);
		return n;
	default:
		return 0;
	}
}

/* The declaration of an extern method `name` of `recv` with nargs arguments. */
static struct p4_node *extern_method(const struct p4_type *recv, const char *name, int nargs, int *found)
{
	struct p4_node *m, *first = NULL;

	*found = 0;
	for (m = recv->decl->list; m; m = m->next) {
		if (m->kind != N_METHOD || strcmp(m->name, name))
			continue;
		*found = 1;
		if (!first)
			first = m;
		if (nargs >= required_params(m->list) && nargs <= count(m->list))
			return m;
	}
	return first;
}

static struct p4_type *check_call(struct ctx *c, struct p4_node *e)
{
	struct p4_node *callee = e->k[0], *d, *a, *tp;
	struct p4_type *ft, *ret;
	struct env env = { .n = 0 };
	int na = count(e->list);

	/* overloads are chosen by the number of arguments */
	if (callee->kind == N_NAME && (d = lookup(c, callee->name)) && is_overloadable(d)) {
		d = lookup_overload(c, callee->name, na);
		callee->decl = d;
		callee->type = ft = new_type(TY_FUNC);
		ft->decl = d;
	} else {
		ft = check_expr(c, callee, NULL);
	}
	if (ft->kind == TY_ERR) {
		for (a = e->list; a; a = a->next)
			if (a->kind != N_DONTCARE)
				check_expr(c, a->kind == N_NAMEDEXPR ? a->k[0] : a, NULL);
		return &t_err;
	}
	switch (ft->kind) {
	case TY_FUNC:
		d = ft->decl;
		if (d->kind == N_EXTERN_FUNC && !strcmp(d->name, "verify") &&
		    (!c->parser || c->parser->kind != N_PARSER))
			p4_error(e->loc, "verify can only be called in a parser");
		if (e->list2) {
			if (count(e->list2) != count(d->list2)) {
				p4_error(e->loc, "'%s' takes %d type argument%s", d->name, count(d->list2),
					 count(d->list2) == 1 ? "" : "s");
				return &t_err;
			}
			for (tp = d->list2, a = e->list2; tp; tp = tp->next, a = a->next)
				env_bind(&env, tp, resolve_type(c, a));
		}
		check_args(c, e->loc, d->name, d->list, e->list, &env, 0);
		ret = d->k[0] ? subst(resolve_type(c, d->k[0]), &env) : &t_void;
		return ret;
	case TY_ACTION:
		d = ft->decl;
		if (!d || d->kind != N_ACTION) {
			p4_error(e->loc, "'action_run' cannot be called");
			return &t_err;
		}
		check_args(c, e->loc, d->name, d->list, e->list, &env, 0);
		return &t_void;
	case TY_TYPE: {
		/* constructor call: an instance as an argument (`MyParser()`, `action_profile(32)`) */
		struct p4_type *it = ft->elem;
		struct p4_node *ctor = NULL, *m;

		if (it->kind == TY_EXTERN) {
			int found = 0;

			for (m = it->decl->list; m; m = m->next)
				if (m->kind == N_CTOR) {
					found = 1;
					if (na >= required_params(m->list) && na <= count(m->list)) {
						ctor = m;
						break;
					}
				}
			if (!ctor && found) {
				p4_error(e->loc, "no constructor of '%s' takes %d argument%s", it->name, na,
					 na == 1 ? "" : "s");
				return &t_err;
			}
			env_from_type(&env, it);
			if (ctor)
				check_args(c, e->loc, it->name, ctor->list, e->list, &env, 0);
			return it;
		}
		if (it->kind == TY_PARSER || it->kind == TY_CONTROL) {
			if (it->decl->kind != N_PARSER && it->decl->kind != N_CONTROL) {
				p4_error(e->loc, "'%s' is a type declaration and cannot be instantiated",
					 it->name);
				return &t_err;
			}
			check_args(c, e->loc, it->name, it->decl->list3, e->list, &env, 0);
			return it;
		}
		p4_error(e->loc, "%s cannot be called", p4_type_str(it));
		return &t_err;
	}
	case TY_METHOD: {
		struct p4_type *recv = ft->elem;
		const char *mn = ft->name;

		if (ft->decl) {
			/* an extern method */
			int found;

			d = extern_method(recv, mn, na, &found);
			env_from_type(&env, recv);
			if (e->list2) {
				if (count(e->list2) != count(d->list2)) {
					p4_error(e->loc, "'%s' takes %d type argument%s", mn, count(d->list2),
						 count(d->list2) == 1 ? "" : "s");
					return &t_err;
				}
				for (tp = d->list2, a = e->list2; tp; tp = tp->next, a = a->next)
					env_bind(&env, tp, resolve_type(c, a));
			}
			check_args(c, e->loc, mn, d->list, e->list, &env, 0);
			ret = resolve_type(c, d->k[0]);
			ret = subst(ret, &env);
			if (ret->kind == TY_TYPEVAR && !strcmp(mn, "lookahead")) {
				p4_error(e->loc, "lookahead needs a type argument, as in lookahead<bit<8>>()");
				return &t_err;
			}
			if (!strcmp(mn, "extract") && e->list) {
				struct p4_type *ht = e->list->type;

				if (ht && ht->kind != TY_ERR && ht->kind != TY_HEADER)
					p4_error(e->list->loc, "extract needs a header, got %s", p4_type_str(ht));
			}
			return ret;
		}
		/* built-in methods */
		if (!strcmp(mn, "isValid")) {
			if (na)
				p4_error(e->loc, "isValid takes no arguments");
			return &t_bool;
		}
		if (!strcmp(mn, "setValid") || !strcmp(mn, "setInvalid")) {
			if (na)
				p4_error(e->loc, "%s takes no arguments", mn);
			need_lvalue(c, callee->k[0], mn);
			return &t_void;
		}
		if (!strcmp(mn, "minSizeInBits") || !strcmp(mn, "minSizeInBytes")) {
			int b = bits_of(recv);

			if (na)
				p4_error(e->loc, "%s takes no arguments", mn);
			e->type = &t_infint;
			set_const(e, !strcmp(mn, "minSizeInBits") ? b : (b + 7) / 8);
			return &t_infint;
		}
		if (!strcmp(mn, "push_front") || !strcmp(mn, "pop_front")) {
			if (na != 1) {
				p4_error(e->loc, "%s takes 1 argument, %d given", mn, na);
				return &t_void;
			}
			const_int(c, e->list, "the count of push_front/pop_front", 1, recv->size);
			need_lvalue(c, callee->k[0], mn);
			return &t_void;
		}
		if (!strcmp(mn, "apply") && recv->kind == TY_TABLE) {
			struct p4_type *r = new_type(TY_APPLYRES);

			if (na)
				p4_error(e->loc, "a table's apply takes no arguments");
			if (c->action)
				p4_error(e->loc, "tables cannot be applied inside an action");
			r->decl = recv->decl;
			return r;
		}
		if (!strcmp(mn, "apply") && (recv->kind == TY_PARSER || recv->kind == TY_CONTROL)) {
			check_args(c, e->loc, recv->decl->name, recv->decl->list, e->list, &env, 0);
			return &t_void;
		}
		break;
	}
	default:
		break;
	}
	p4_error(callee->loc, "%s is not callable", p4_type_str(ft));
	return &t_err;
}

/* ---- members ---- */
static struct p4_type *check_member(struct ctx *c, struct p4_node *e)
{
	struct p4_node *base = e->k[0], *f, *m;
	struct p4_type *bt = check_expr(c, base, NULL);
	const char *n = e->name;
	int i;

	if (bt->kind == TY_ERR)
		return &t_err;
	if (bt->kind == TY_TYPE) {
		struct p4_type *t = bt->elem;

		if (t->kind == TY_ERROR) {
			for (m = c->errors, i = 0; m; m = m->next, i++)
				if (!strcmp(m->name, n)) {
					e->type = &t_error;
					e->decl = m;
					set_const(e, i);
					return &t_error;
				}
			p4_error(e->loc, "no error named '%s'", n);
			return &t_err;
		}
		if (t->kind == TY_ENUM) {
			for (m = t->decl->list, i = 0; m; m = m->next, i++)
				if (!strcmp(m->name, n)) {
					e->type = t;
					e->decl = m;
					set_const(e, m->k[0] ? m->k[0]->cval : i);
					return t;
				}
			p4_error(e->loc, "enum %s has no member '%s'", t->name, n);
			return &t_err;
		}
		if ((t->kind == TY_HEADER || t->kind == TY_STRUCT) &&
		    (!strcmp(n, "minSizeInBits") || !strcmp(n, "minSizeInBytes")))
			return method_type(n, NULL, t);
		/* direct type invocation: C.apply(...) without an instance */
		if ((t->kind == TY_PARSER || t->kind == TY_CONTROL) && !strcmp(n, "apply") &&
		    (t->decl->kind == N_PARSER || t->decl->kind == N_CONTROL)) {
			if (t->decl->list3)
				p4_error(e->loc, "%s has constructor parameters: instantiate it to apply it", t->name);
			if (t->decl == c->parser)
				p4_error(e->loc, "%s cannot apply itself", t->name);
			return method_type(n, NULL, t);
		}
		p4_error(e->loc, "%s has no member '%s'", p4_type_str(t), n);
		return &t_err;
	}
	switch (bt->kind) {
	case TY_HEADER:
	case TY_STRUCT:
	case TY_UNION:
		f = find_field(bt, n);
		if (f) {
			e->decl = f;
			return f->type ? f->type : &t_err;
		}
		if (bt->kind != TY_STRUCT && (!strcmp(n, "isValid") || !strcmp(n, "setValid") ||
					      !strcmp(n, "setInvalid")))
			if (bt->kind == TY_HEADER || !strcmp(n, "isValid"))
				return method_type(n, NULL, bt);
		if (!strcmp(n, "minSizeInBits") || !strcmp(n, "minSizeInBytes"))
			return method_type(n, NULL, bt);
		p4_error(e->loc, "%s %s has no field or method '%s'",
			 bt->kind == TY_HEADER ? "header" : bt->kind == TY_STRUCT ? "struct" : "header_union",
			 bt->name, n);
		return &t_err;
	case TY_STACK:
		if (!strcmp(n, "size")) {
			e->type = bit_type(32, 0);
			set_const(e, bt->size);
			return e->type;
		}
		if (!strcmp(n, "lastIndex") || !strcmp(n, "nextIndex"))
			return bit_type(32, 0);
		if (!strcmp(n, "next") || !strcmp(n, "last")) {
			if (!c->parser || c->parser->kind != N_PARSER)
				p4_error(e->loc, "'%s' of a header stack is only allowed in a parser", n);
			return bt->elem;
		}
		if (!strcmp(n, "push_front") || !strcmp(n, "pop_front"))
			return method_type(n, NULL, bt);
		p4_error(e->loc, "header stack has no member '%s' (it has size, lastIndex, next, last, push_front, pop_front)", n);
		return &t_err;
	case TY_TABLE:
		if (!strcmp(n, "apply"))
			return method_type(n, NULL, bt);
		p4_error(e->loc, "table %s has no member '%s' (only apply)", bt->decl->name, n);
		return &t_err;
	case TY_APPLYRES:
		if (!strcmp(n, "hit") || !strcmp(n, "miss"))
			return &t_bool;
		if (!strcmp(n, "action_run")) {
			struct p4_type *t = new_type(TY_ACTION);

			t->name = "action_run";
			t->decl = bt->decl;
			return t;
		}
		p4_error(e->loc, "the result of apply has no member '%s' (it has hit, miss, action_run)", n);
		return &t_err;
	case TY_EXTERN: {
		int found;

		m = extern_method(bt, n, 0, &found);
		if (!found) {
			p4_error(e->loc, "extern %s has no method '%s'", bt->name, n);
			return &t_err;
		}
		return method_type(n, m, bt);
	}
	case TY_PARSER:
	case TY_CONTROL:
		if (!strcmp(n, "apply"))
			return method_type(n, NULL, bt);
		p4_error(e->loc, "%s %s has no member '%s' (only apply)",
			 bt->kind == TY_PARSER ? "parser" : "control", bt->name, n);
		return &t_err;
	default:
		p4_error(e->loc, "%s has no members (looking for '%s')", p4_type_str(bt), n);
		return &t_err;
	}
}

/* ---- operators ---- */
static int fold_binary(struct p4_node *e, int op, p4_int a, p4_int b, struct p4_type *t, p4_int *r)
{
	p4_uint ua = (p4_uint)a, ub = (p4_uint)b;
	int inf = t->kind == TY_INFINT, w = t->width;

	switch (op) {
	case P_PLUS:
		if (inf && __builtin_add_overflow(a, b, r))
			goto ovf;
		if (!inf)
			*r = (p4_int)(ua + ub);
		return 1;
	case P_MINUS:
		if (inf && __builtin_sub_overflow(a, b, r))
			goto ovf;
		if (!inf)
			*r = (p4_int)(ua - ub);
		return 1;
	case P_STAR:
		if (inf && __builtin_mul_overflow(a, b, r))
			goto ovf;
		if (!inf)
			*r = (p4_int)(ua * ub);
		return 1;
	case P_SLASH:
	case P_PERCENT:
		if (b == 0) {
			p4_error(e->loc, "division by zero in a constant expression");
			return 0;
		}
		if (a < 0 || b < 0) {
			p4_error(e->loc, "division of negative values is not defined in P4");
			return 0;
		}
		*r = op == P_SLASH ? a / b : a % b;
		return 1;
	case P_AMP: *r = a & b; return 1;
	case P_PIPE: *r = a | b; return 1;
	case P_CARET: *r = a ^ b; return 1;
	case P_SHL:
		if (b < 0) {
			p4_error(e->loc, "negative shift amount");
			return 0;
		}
		if (inf) {
			p4_uint mag = a < 0 ? 0 - (p4_uint)a : (p4_uint)a;

			if (b >= 127 || (a != 0 && mag >> (126 - b)))
				goto ovf;
			*r = a * ((p4_int)1 << b);
			return 1;
		}
		*r = b >= w ? 0 : (p4_int)(ua << b);
		return 1;
	case T_NTOKS:	/* >> */
		if (b < 0) {
			p4_error(e->loc, "negative shift amount");
			return 0;
		}
		if (t->kind == TY_BIT) {
			p4_uint m = w >= 128 ? ~(p4_uint)0 : (((p4_uint)1 << w) - 1);

			*r = b >= 128 ? 0 : (p4_int)((ua & m) >> b);
		} else {
			*r = b >= 127 ? (a < 0 ? -1 : 0) : a >> b;
		}
		return 1;
	case P_SATADD:
	case P_SATSUB: {
		p4_int lo, hi, v;

		if (t->kind == TY_BIT) {
			lo = 0;
			hi = w >= 127 ? (p4_int)(((p4_uint)1 << 127) - 1) : ((p4_int)1 << w) - 1;
		} else {
			hi = w >= 127 ? (p4_int)(((p4_uint)1 << 127) - 1) : ((p4_int)1 << (w - 1)) - 1;
			lo = -hi - 1;
		}
		if (t->kind == TY_BIT) {
			a = (p4_int)((p4_uint)a & (p4_uint)hi);
			b = (p4_int)((p4_uint)b & (p4_uint)hi);
		}
		if (op == P_SATADD ? __builtin_add_overflow(a, b, &v) : __builtin_sub_overflow(a, b, &v))
			v = op == P_SATADD ? hi : lo;
		*r = v < lo ? lo : v > hi ? hi : v;
		return 1;
	}
	default:
		return 0;
	}
ovf:
	p4_error(e->loc, "constant expression overflows 128 bits");
	return 0;
}

static const char *opname(int op)
{
	return op == T_NTOKS ? ">>" : p4_tok_name((enum p4_tok)op);
}

/* Makes both operands of an arithmetic operator the same type. */
static struct p4_type *unify_num(struct p4_node *e, struct p4_node *l, struct p4_node *r)
{
	struct p4_type *a = l->type, *b = r->type;

	if (a->kind == TY_ENUM && a->elem)
		a = a->elem;
	if (b->kind == TY_ENUM && b->elem)
		b = b->elem;
	if (!is_num(a) || !is_num(b)) {
		p4_error(e->loc, "operator '%s' needs numbers, got %s and %s", opname(e->op),
			 p4_type_str(a), p4_type_str(b));
		return &t_err;
	}
	if (a->kind == TY_INFINT && b->kind != TY_INFINT) {
		settle_int(l, b);
		return b;
	}
	if (b->kind == TY_INFINT && a->kind != TY_INFINT) {
		settle_int(r, a);
		return a;
	}
	if (!type_eq(a, b)) {
		p4_error(e->loc, "operator '%s' on different types %s and %s (cast one of them)",
			 opname(e->op), p4_type_str(a), p4_type_str(b));
		return &t_err;
	}
	return a;
}

static struct p4_type *check_binary(struct ctx *c, struct p4_node *e, struct p4_type *want)
{
	struct p4_node *l = e->k[0], *r = e->k[1];
	struct p4_type *a, *b, *t;
	int op = e->op;
	p4_int v;

	a = check_expr(c, l, op == P_ANDAND || op == P_OROR ? &t_bool : NULL);
	b = check_expr(c, r, op == P_ANDAND || op == P_OROR ? &t_bool :
		       (op == P_SHL || op == T_NTOKS || op == P_PP) ? NULL : a);
	if (a->kind == TY_ERR || b->kind == TY_ERR)
		return &t_err;
	switch (op) {
	case P_ANDAND:
	case P_OROR:
		if (a->kind != TY_BOOL || b->kind != TY_BOOL) {
			p4_error(e->loc, "operator '%s' needs bool operands, got %s and %s", opname(op),
				 p4_type_str(a), p4_type_str(b));
			return &t_err;
		}
		e->type = &t_bool;
		if (l->is_const && r->is_const)
			set_const(e, op == P_ANDAND ? (l->cval && r->cval) : (l->cval || r->cval));
		return &t_bool;
	case P_EQ:
	case P_NE:
		if (a->kind == TY_INFINT && b->kind == TY_INFINT) {
			t = a;
		} else if (is_num(a) && is_num(b)) {
			t = unify_num(e, l, r);
		} else if (a->kind == TY_ENUM && a->elem && b->kind == TY_INFINT) {
			settle_int(r, a->elem);
			t = a;
		} else if (b->kind == TY_ENUM && b->elem && a->kind == TY_INFINT) {
			settle_int(l, b->elem);
			t = b;
		} else if (!type_eq(a, b) && !(can_assign(a, b) || can_assign(b, a))) {
			p4_error(e->loc, "cannot compare %s with %s", p4_type_str(a), p4_type_str(b));
			return &t_err;
		} else {
			t = a;
		}
		if (t->kind == TY_ERR)
			return t;
		e->type = &t_bool;
		if (l->is_const && r->is_const)
			set_const(e, op == P_EQ ? l->cval == r->cval : l->cval != r->cval);
		return &t_bool;
	case P_LT: case P_GT: case P_LE: case P_GE:
		t = unify_num(e, l, r);
		if (t->kind == TY_ERR)
			return t;
		e->type = &t_bool;
		if (l->is_const && r->is_const) {
			p4_int x = l->cval, y = r->cval;

			if (t->kind == TY_BIT && t->width >= 128) {
				p4_uint ux = (p4_uint)x, uy = (p4_uint)y;

				set_const(e, op == P_LT ? ux < uy : op == P_GT ? ux > uy :
					  op == P_LE ? ux <= uy : ux >= uy);
			} else {
				set_const(e, op == P_LT ? x < y : op == P_GT ? x > y :
					  op == P_LE ? x <= y : x >= y);
			}
		}
		return &t_bool;
	case P_PP:
		if (a->kind == TY_INFINT || b->kind == TY_INFINT) {
			p4_error(e->loc, "operator '++' needs operands of known width (use e.g. 8w1)");
			return &t_err;
		}
		if (!is_fixed(a) || !is_fixed(b)) {
			p4_error(e->loc, "operator '++' needs bit<N> or int<N> operands, got %s and %s",
				 p4_type_str(a), p4_type_str(b));
			return &t_err;
		}
		t = bit_type(a->width + b->width, a->kind == TY_INT);
		e->type = t;
		if (l->is_const && r->is_const && t->width <= 128)
			set_const(e, (p4_int)((b->width >= 128 ? 0 : (p4_uint)l->cval << b->width) |
					      ((p4_uint)r->cval & (b->width >= 128 ? ~(p4_uint)0 :
								    (((p4_uint)1 << b->width) - 1)))));
		return t;
	case P_SHL:
	case T_NTOKS:
		if (!is_num(a) || !is_num(b)) {
			p4_error(e->loc, "operator '%s' needs numbers, got %s and %s", opname(op),
				 p4_type_str(a), p4_type_str(b));
			return &t_err;
		}
		if (b->kind == TY_INT) {
			p4_error(r->loc, "shift amount must be unsigned, got %s", p4_type_str(b));
			return &t_err;
		}
		if (a->kind == TY_INFINT && !r->is_const) {
			if (want && is_fixed(want)) {
				settle_int(l, want);
				a = want;
			} else {
				p4_error(e->loc, "shifting an integer of unknown width by a variable amount (give it a width, e.g. 32w1)");
				return &t_err;
			}
		}
		if (b->kind == TY_INFINT && r->is_const && r->cval < 0) {
			p4_error(r->loc, "negative shift amount");
			return &t_err;
		}
		t = a;
		e->type = t;
		if (l->is_const && r->is_const && (t->kind == TY_INFINT || t->width <= 128) &&
		    fold_binary(e, op, l->cval, r->cval, t, &v))
			set_const(e, v);
		return t;
	default:
		break;
	}
	t = unify_num(e, l, r);
	if (t->kind == TY_ERR)
		return t;
	if ((op == P_SLASH || op == P_PERCENT) && t->kind != TY_INFINT && !(l->is_const && r->is_const)) {
		if (t->kind == TY_INT) {
			p4_error(e->loc, "operator '%s' is not defined on signed values", opname(op));
			return &t_err;
		}
	}
	if ((op == P_SATADD || op == P_SATSUB) && t->kind == TY_INFINT) {
		p4_error(e->loc, "saturating operator '%s' needs a fixed width", opname(op));
		return &t_err;
	}
	e->type = t;
	if (l->is_const && r->is_const && (t->kind == TY_INFINT || t->width <= 128) &&
	    fold_binary(e, op, l->cval, r->cval, t, &v))
		set_const(e, v);
	return t;
}

static int cast_ok(struct p4_type *to, struct p4_type *from)
{
	if (to->kind == TY_ERR || from->kind == TY_ERR || can_assign(to, from))
		return 1;
	if (to->kind == TY_TYPEVAR || from->kind == TY_TYPEVAR)
		return 1;
	if (is_fixed(to) && is_fixed(from))
		return to->kind == from->kind || to->width == from->width;
	if (to->kind == TY_BOOL && from->kind == TY_BIT && from->width == 1)
		return 1;
	if (to->kind == TY_BIT && to->width == 1 && from->kind == TY_BOOL)
		return 1;
	if (to->kind == TY_BOOL && from->kind == TY_INFINT)
		return 1;
	if (to->kind == TY_ENUM && to->elem && (is_num(from)))
		return 1;
	if (from->kind == TY_ENUM && from->elem && is_fixed(to))
		return 1;
	if (to->kind == TY_NEWTYPE && cast_ok(to->elem, from))
		return 1;
	if (from->kind == TY_NEWTYPE && cast_ok(to, from->elem))
		return 1;
	return 0;
}

/* ---- expressions ---- */
static struct p4_type *check_name(struct ctx *c, struct p4_node *e)
{
	struct p4_node *d;
	struct p4_type *t;

	if (!strcmp(e->name, "error")) {
		t = new_type(TY_TYPE);
		t->elem = &t_error;
		return t;
	}
	d = lookup(c, e->name);
	if (!d) {
		p4_error(e->loc, "'%s' is not declared", e->name);
		return &t_err;
	}
	e->decl = d;
	switch (d->kind) {
	case N_VARDECL:
	case N_PARAM:
	case N_FIELD:
		return d->type ? d->type : &t_err;
	case N_CONST:
		if (d->is_const) {
			e->type = d->type;
			set_const(e, d->cval);
		}
		return d->type ? d->type : &t_err;
	case N_MEMBER_DECL:
		return &t_matchkind;
	case N_ACTION:
		t = new_type(TY_ACTION);
		t->decl = d;
		return t;
	case N_FUNCTION:
	case N_EXTERN_FUNC:
		t = new_type(TY_FUNC);
		t->decl = d;
		return t;
	case N_TABLE:
		t = new_type(TY_TABLE);
		t->decl = d;
		return t;
	case N_INSTANCE:
		return d->type ? d->type : &t_err;
	case N_STATE:
		return &t_state;
	case N_VALUESET:
		return d->type ? d->type : &t_err;
	default:
		if (is_type_decl(d) && d->type) {
			t = new_type(TY_TYPE);
			t->elem = d->type;
			return t;
		}
		p4_error(e->loc, "'%s' cannot be used here", e->name);
		return &t_err;
	}
}

static struct p4_type *check_expr_(struct ctx *c, struct p4_node *e, struct p4_type *want)
{
	struct p4_type *t, *b;
	struct p4_node *x;

	switch (e->kind) {
	case N_INTLIT:
		if (e->has_width) {
			if (e->width > 128 && e->ival) {
				e->type = bit_type(e->width, e->is_signed);
			} else {
				e->type = bit_type(e->width, e->is_signed);
				/* 8w256 and 4s8 do not fit */
				if (e->width < 128) {
					p4_uint lim = (p4_uint)1 << (e->width - e->is_signed);

					if ((p4_uint)e->ival >= lim)
						p4_error(e->loc, "value does not fit in %s", p4_type_str(e->type));
				}
			}
			set_const(e, e->ival);
			return e->type;
		}
		e->type = &t_infint;
		set_const(e, e->ival);
		return &t_infint;
	case N_BOOLLIT:
		e->type = &t_bool;
		set_const(e, e->ival);
		return &t_bool;
	case N_STRLIT:
		return &t_string;
	case N_NAME:
		return check_name(c, e);
	case N_MEMBER:
		return check_member(c, e);
	case N_CALL:
		return check_call(c, e);
	case N_INDEX:
		b = check_expr(c, e->k[0], NULL);
		t = check_expr(c, e->k[1], NULL);
		if (b->kind == TY_ERR || t->kind == TY_ERR)
			return &t_err;
		if (b->kind == TY_STACK) {
			if (!is_num(t) || t->kind == TY_INT) {
				p4_error(e->k[1]->loc, "header stack index must be unsigned, got %s",
					 p4_type_str(t));
				return &t_err;
			}
			if (e->k[1]->is_const && (e->k[1]->cval < 0 || e->k[1]->cval >= b->size)) {
				p4_error(e->k[1]->loc, "index %d out of bounds of a stack of size %d",
					 (int)e->k[1]->cval, b->size);
				return &t_err;
			}
			return b->elem;
		}
		if (b->kind == TY_TUPLE) {
			if (!e->k[1]->is_const || e->k[1]->cval < 0 || e->k[1]->cval >= b->nargs) {
				p4_error(e->k[1]->loc, "tuple index must be a constant below %d", b->nargs);
				return &t_err;
			}
			return b->args[(int)e->k[1]->cval];
		}
		p4_error(e->loc, "%s cannot be indexed", p4_type_str(b));
		return &t_err;
	case N_SLICE: {
		long hi, lo;

		b = check_expr(c, e->k[0], NULL);
		hi = const_int(c, e->k[1], "the high bit of a slice", 0, 65535);
		lo = const_int(c, e->k[2], "the low bit of a slice", 0, 65535);
		if (b->kind == TY_ERR || hi < 0 || lo < 0)
			return &t_err;
		if (!is_fixed(b)) {
			p4_error(e->loc, "cannot slice %s (only bit<N> and int<N>)", p4_type_str(b));
			return &t_err;
		}
		if (hi < lo) {
			p4_error(e->loc, "slice [%ld:%ld]: high bit below low bit", hi, lo);
			return &t_err;
		}
		if (hi >= b->width) {
			p4_error(e->loc, "slice [%ld:%ld] out of range of %s", hi, lo, p4_type_str(b));
			return &t_err;
		}
		t = bit_type((int)(hi - lo + 1), 0);
		e->type = t;
		if (e->k[0]->is_const && lo < 128)
			set_const(e, (p4_int)((p4_uint)e->k[0]->cval >> lo));
		return t;
	}
	case N_UNARY:
		t = check_expr(c, e->k[0], e->op == P_NOT ? &t_bool : want);
		if (t->kind == TY_ERR)
			return t;
		e->type = t;
		switch (e->op) {
		case P_NOT:
			if (t->kind != TY_BOOL) {
				p4_error(e->loc, "operator '!' needs a bool, got %s", p4_type_str(t));
				return &t_err;
			}
			if (e->k[0]->is_const)
				set_const(e, !e->k[0]->cval);
			return t;
		case P_TILDE:
			if (!is_fixed(t)) {
				if (t->kind == TY_INFINT && want && is_fixed(want)) {
					settle_int(e->k[0], want);
					e->type = t = want;
				} else {
					p4_error(e->loc, "operator '~' needs bit<N> or int<N>, got %s", p4_type_str(t));
					return &t_err;
				}
			}
			if (e->k[0]->is_const)
				set_const(e, ~e->k[0]->cval);
			return t;
		default:
			if (!is_num(t)) {
				p4_error(e->loc, "operator '%s' needs a number, got %s", opname(e->op),
					 p4_type_str(t));
				return &t_err;
			}
			if (e->k[0]->is_const) {
				p4_int v = e->k[0]->cval;

				if (e->op == P_MINUS && t->kind == TY_INFINT && (p4_uint)v == (p4_uint)1 << 127) {
					p4_error(e->loc, "constant expression overflows 128 bits");
					return &t_err;
				}
				set_const(e, e->op == P_MINUS ? (p4_int)(0 - (p4_uint)v) : v);
			}
			return t;
		}
	case N_BINARY:
		return check_binary(c, e, want);
	case N_TERNARY: {
		struct p4_type *a;

		coerce(c, e->k[0], &t_bool, "condition of '?:'");
		a = check_expr(c, e->k[1], want);
		b = check_expr(c, e->k[2], a->kind == TY_INFINT ? want : a);
		if (a->kind == TY_ERR || b->kind == TY_ERR)
			return &t_err;
		if (a->kind == TY_INFINT && b->kind != TY_INFINT && is_fixed(b))
			settle_int(e->k[1], b), a = b;
		else if (b->kind == TY_INFINT && is_fixed(a))
			settle_int(e->k[2], a);
		else if (!type_eq(a, b)) {
			p4_error(e->loc, "the branches of '?:' have different types %s and %s",
				 p4_type_str(a), p4_type_str(b));
			return &t_err;
		}
		if (a->kind == TY_INFINT && !e->k[0]->is_const) {
			if (want && is_fixed(want)) {
				settle_int(e->k[1], want);
				settle_int(e->k[2], want);
				a = want;
			} else {
				p4_error(e->loc, "'?:' on integers of unknown width needs a constant condition");
				return &t_err;
			}
		}
		e->type = a;
		if (e->k[0]->is_const) {
			x = e->k[0]->cval ? e->k[1] : e->k[2];
			if (x->is_const)
				set_const(e, x->cval);
		}
		return a;
	}
	case N_CAST:
		t = resolve_type(c, e->k[0]);
		b = check_expr(c, e->k[1], t);
		if (t->kind == TY_ERR || b->kind == TY_ERR)
			return &t_err;
		if ((e->k[1]->kind == N_LISTEXPR || e->k[1]->kind == N_STRUCTEXPR))
			return t;
		if (!cast_ok(t, b)) {
			p4_error(e->loc, "cannot cast %s to %s", p4_type_str(b), p4_type_str(t));
			return &t_err;
		}
		e->type = t;
		if (e->k[1]->is_const) {
			if (t->kind == TY_BOOL)
				set_const(e, e->k[1]->cval != 0);
			else if (t->kind == TY_INFINT || is_fixed(t) || (t->kind == TY_ENUM))
				set_const(e, e->k[1]->cval);
		}
		return t;
	case N_LISTEXPR:
	case N_STRUCTEXPR:
		return check_init(c, e, want);
	case N_INVALID:
		if (!want || !is_header_like(want)) {
			p4_error(e->loc, "'{#}' (invalid header) needs a header type here");
			return &t_err;
		}
		return want;
	case N_DONTCARE:
		return &t_dontcare;
	case N_DEFAULT:
		return &t_dontcare;
	case N_TYPEEXPR:
		t = new_type(TY_TYPE);
		t->elem = resolve_type(c, e->k[0]);
		return t;
	case N_THIS:
		p4_error(e->loc, "unsupported construct: 'this'");
		return &t_err;
	case N_MASK:
	case N_RANGE:
		p4_error(e->loc, "'%s' is only allowed in select cases and table entries",
			 e->kind == N_MASK ? "&&&" : "..");
		return &t_err;
	case N_NAMEDEXPR:
		p4_error(e->loc, "unexpected named argument");
		return &t_err;
	default:
		p4_error(e->loc, "unexpected %s in an expression", p4_nkind_name(e->kind));
		return &t_err;
	}
}

static struct p4_type *check_expr(struct ctx *c, struct p4_node *e, struct p4_type *want)
{
	struct p4_type *t;

	if (e->type)
		return e->type;
	t = check_expr_(c, e, want);
	if (!e->type)
		e->type = t;
	return e->type;
}

/* ---- keysets (select cases and table entries) ---- */
static void check_simple_keyset(struct ctx *c, struct p4_node *k, struct p4_type *kt, const char *what)
{
	switch (k->kind) {
	case N_DEFAULT:
	case N_DONTCARE:
		k->type = kt;
		return;
	case N_MASK:
	case N_RANGE:
		coerce(c, k->k[0], kt, what);
		coerce(c, k->k[1], kt, what);
		if ((!k->k[0]->is_const || !k->k[1]->is_const) && k->k[0]->type->kind != TY_ERR)
			p4_error(start_loc(k), "%s must be a compile-time constant", what);
		k->type = kt;
		return;
	default:
		break;
	}
	if (k->kind == N_NAME) {
		struct p4_node *d = lookup(c, k->name);

		if (d && d->kind == N_VALUESET) {
			check_expr(c, k, NULL);
			if (!can_assign(kt, d->type->elem) && !(d->type->elem->kind == TY_STRUCT))
				p4_error(k->loc, "value_set %s of %s does not match the key %s", d->name,
					 p4_type_str(d->type->elem), p4_type_str(kt));
			return;
		}
	}
	coerce(c, k, kt, what);
	if (!k->is_const && k->type && k->type->kind != TY_ERR)
		p4_error(start_loc(k), "%s must be a compile-time constant", what);
}

/* A keyset against a list of key types. */
static void check_keyset(struct ctx *c, struct p4_node *k, struct p4_type **kts, int nk, const char *what)
{
	struct p4_node *x;
	int i;

	if (k->kind == N_TUPLEKEY) {
		if (count(k->list) != nk) {
			p4_error(k->loc, "%s has %d element%s, the key has %d", what, count(k->list),
				 count(k->list) == 1 ? "" : "s", nk);
			return;
		}
		for (i = 0, x = k->list; x; x = x->next, i++)
			check_simple_keyset(c, x, kts[i], what);
		return;
	}
	if (nk == 1) {
		check_simple_keyset(c, k, kts[0], what);
		return;
	}
	if (k->kind == N_DEFAULT || k->kind == N_DONTCARE)
		return;
	if (k->kind == N_NAME) {
		struct p4_node *d = lookup(c, k->name);

		if (d && d->kind == N_VALUESET) {
			check_expr(c, k, NULL);
			return;
		}
	}
	p4_error(k->loc, "%s must have %d elements, like (a, b)", what, nk);
}

/* ---- statements ---- */
static void check_vardecl(struct ctx *c, struct p4_node *v)
{
	struct p4_type *t = resolve_type(c, v->k[0]);

	v->type = t;
	if (t->kind == TY_VOID || t->kind == TY_EXTERN || t->kind == TY_PARSER || t->kind == TY_CONTROL ||
	    t->kind == TY_PACKAGE)
		p4_error(v->loc, "variable '%s' cannot have type %s", v->name, p4_type_str(t));
	if (v->k[1])
		coerce(c, v->k[1], t, "initializer");
	declare(c, v->name, v);
}

static void check_const(struct ctx *c, struct p4_node *v)
{
	struct p4_type *t = resolve_type(c, v->k[0]);

	int errs = p4_diag.errors;

	v->type = t;
	coerce(c, v->k[1], t, "constant initializer");
	if (v->k[1]->type && v->k[1]->type->kind != TY_ERR && t->kind != TY_ERR && errs == p4_diag.errors) {
		if (v->k[1]->is_const) {
			if (is_fixed(t) && t->width > 128)
				p4_error(v->loc, "constant '%s': constants wider than 128 bits are not supported",
					 v->name);
			v->is_const = 1;
			v->cval = wrap(v->k[1]->cval, t);
		} else if (t->kind != TY_STRUCT && t->kind != TY_HEADER && t->kind != TY_TUPLE &&
			   t->kind != TY_STRING) {
			p4_error(start_loc(v->k[1]), "the value of constant '%s' is not a compile-time constant",
				 v->name);
		}
	}
	declare(c, v->name, v);
}

static void check_switch(struct ctx *c, struct p4_node *s)
{
	struct p4_type *t = check_expr(c, s->k[0], NULL);
	struct p4_node *cs, *o;
	int is_action = t->kind == TY_ACTION && t->name && !strcmp(t->name, "action_run");

	if (t->kind == TY_ERR)
		return;
	if (!is_action && !is_fixed(t) && t->kind != TY_ENUM && t->kind != TY_ERROR) {
		p4_error(s->k[0]->loc, "switch needs a table's action_run, bit<N>, int<N>, enum or error, got %s",
			 p4_type_str(t));
		return;
	}
	for (cs = s->list; cs; cs = cs->next) {
		struct p4_node *l = cs->k[0];

		if (l->kind == N_DEFAULT) {
			if (cs->next)
				p4_error(l->loc, "'default' must be the last switch case");
		} else if (is_action) {
			struct p4_node *pr, *a, *d = NULL;

			if (l->kind != N_NAME) {
				p4_error(l->loc, "a case of switch on action_run must name an action");
				continue;
			}
			for (pr = t->decl->list; pr; pr = pr->next)
				if (pr->op == PR_ACTIONS)
					for (a = pr->list; a; a = a->next)
						if (!strcmp(a->name, l->name))
							d = a;
			if (!d) {
				p4_error(l->loc, "'%s' is not an action of table %s", l->name, t->decl->name);
				continue;
			}
			l->decl = d->decl;
			l->type = t;
		} else {
			coerce(c, l, t, "switch case");
			if (!l->is_const && l->type->kind != TY_ERR)
				p4_error(start_loc(l), "switch case must be a compile-time constant");
		}
		for (o = s->list; o != cs; o = o->next) {
			int same = 0;

			if (o->k[0]->kind == N_DEFAULT || l->kind == N_DEFAULT)
				continue;
			if (is_action)
				same = o->k[0]->kind == N_NAME && l->kind == N_NAME && !strcmp(o->k[0]->name, l->name);
			else
				same = o->k[0]->is_const && l->is_const && o->k[0]->cval == l->cval;
			if (same) {
				p4_error(l->loc, "duplicate switch case");
				break;
			}
		}
		if (cs->k[1])
			check_block(c, cs->k[1], 1);
		else if (!cs->next)
			p4_error(cs->loc, "the last switch case needs a block");
	}
}

static void check_stmt(struct ctx *c, struct p4_node *s)
{
	struct p4_type *t;

	switch (s->kind) {
	case N_BLOCK:
		check_block(c, s, 1);
		break;
	case N_ASSIGN:
		t = check_expr(c, s->k[0], NULL);
		if (t->kind == TY_ERR) {
			check_expr(c, s->k[1], NULL);
			break;
		}
		need_lvalue(c, s->k[0], "cannot assign");
		coerce(c, s->k[1], t, "assignment");
		break;
	case N_CALLSTMT:
		check_expr(c, s->k[0], NULL);
		break;
	case N_IF:
		coerce(c, s->k[0], &t_bool, "condition of 'if'");
		push_scope(c);
		check_stmt(c, s->k[1]);
		pop_scope(c);
		if (s->k[2]) {
			push_scope(c);
			check_stmt(c, s->k[2]);
			pop_scope(c);
		}
		break;
	case N_SWITCH:
		if (c->parser && c->parser->kind == N_PARSER)
			p4_error(s->loc, "switch statements are not allowed in parsers");
		check_switch(c, s);
		break;
	case N_EXIT:
		if (c->parser && c->parser->kind == N_PARSER)
			p4_error(s->loc, "'exit' is not allowed in parsers");
		break;
	case N_RETURN:
		if (c->func) {
			if (!s->k[0] && c->ret->kind != TY_VOID)
				p4_error(s->loc, "return without a value in a function returning %s",
					 p4_type_str(c->ret));
			else if (s->k[0])
				coerce(c, s->k[0], c->ret, "return value");
		} else if (s->k[0]) {
			p4_error(s->loc, "return with a value outside a function");
		} else if (c->parser && c->parser->kind == N_PARSER) {
			p4_error(s->loc, "'return' is not allowed in parsers");
		}
		break;
	case N_EMPTY:
		break;
	case N_VARDECL:
		check_vardecl(c, s);
		break;
	case N_CONST:
		check_const(c, s);
		break;
	case N_TRANSITION:
		p4_error(s->loc, "'transition' must be the last statement of a parser state");
		break;
	default:
		p4_error(s->loc, "unexpected %s", p4_nkind_name(s->kind));
		break;
	}
}

static void check_block(struct ctx *c, struct p4_node *b, int new_scope)
{
	struct p4_node *s;

	if (new_scope)
		push_scope(c);
	for (s = b->list; s; s = s->next)
		check_stmt(c, s);
	if (new_scope)
		pop_scope(c);
}

/* ---- declarations ---- */
static void check_params(struct ctx *c, struct p4_node *params, int declare_them)
{
	struct p4_node *p;

	for (p = params; p; p = p->next) {
		p->type = resolve_type(c, p->k[0]);
		if (p->type->kind == TY_VOID)
			p4_error(p->loc, "parameter '%s' cannot be void", p->name);
		if (p->k[1])
			coerce(c, p->k[1], p->type, "default value");
		if (declare_them)
			declare(c, p->name, p);
	}
}

static void declare_type_params(struct ctx *c, struct p4_node *tps)
{
	struct p4_node *tp;

	for (tp = tps; tp; tp = tp->next) {
		tp->type = new_type(TY_TYPEVAR);
		tp->type->name = tp->name;
		tp->type->decl = tp;
		declare(c, tp->name, tp);
	}
}

static int header_field_ok(const struct p4_type *t)
{
	switch (t->kind) {
	case TY_BIT: case TY_INT: case TY_VARBIT: case TY_BOOL: case TY_ERR:
		return 1;
	case TY_ENUM:
		return t->elem != NULL;
	case TY_NEWTYPE:
		return header_field_ok(t->elem);
	default:
		return 0;
	}
}

static void check_aggregate(struct ctx *c, struct p4_node *d)
{
	struct p4_node *f, *g;
	int varbits = 0;

	d->type = new_type(d->kind == N_HEADER ? TY_HEADER : d->kind == N_STRUCT ? TY_STRUCT : TY_UNION);
	d->type->name = d->name;
	d->type->decl = d;
	if (d->list2) {
		p4_error(d->loc, "unsupported construct: generic %s", p4_nkind_name(d->kind));
		return;
	}
	declare(c, d->name, d);
	for (f = d->list; f; f = f->next) {
		f->type = resolve_type(c, f->k[0]);
		for (g = d->list; g != f; g = g->next)
			if (!strcmp(g->name, f->name))
				p4_error(f->loc, "duplicate field '%s'", f->name);
		if (d->kind == N_HEADER) {
			if (!header_field_ok(f->type))
				p4_error(f->k[0]->loc, "field '%s' of header %s: type %s is not allowed in a header",
					 f->name, d->name, p4_type_str(f->type));
			if (f->type->kind == TY_VARBIT && ++varbits > 1)
				p4_error(f->loc, "header %s has more than one varbit field", d->name);
		} else if (d->kind == N_UNION) {
			if (f->type->kind != TY_HEADER && f->type->kind != TY_ERR)
				p4_error(f->k[0]->loc, "field '%s' of header_union %s must be a header", f->name,
					 d->name);
		} else {
			enum p4_tkind k = f->type->kind;

			if (k == TY_EXTERN || k == TY_PARSER || k == TY_CONTROL || k == TY_PACKAGE ||
			    k == TY_VOID || k == TY_STRING || k == TY_INFINT)
				p4_error(f->k[0]->loc, "field '%s' of struct %s cannot have type %s", f->name,
					 d->name, p4_type_str(f->type));
		}
	}
}

static void check_enum(struct ctx *c, struct p4_node *d)
{
	struct p4_node *m, *o;

	d->type = new_type(TY_ENUM);
	d->type->name = d->name;
	d->type->decl = d;
	if (d->k[0]) {
		struct p4_type *u = resolve_type(c, d->k[0]);

		if (!is_fixed(u) && u->kind != TY_ERR)
			p4_error(d->k[0]->loc, "the type of a serializable enum must be bit<N> or int<N>, got %s",
				 p4_type_str(u));
		d->type->elem = u;
	}
	for (m = d->list; m; m = m->next) {
		for (o = d->list; o != m; o = o->next)
			if (!strcmp(o->name, m->name))
				p4_error(m->loc, "duplicate enum member '%s'", m->name);
		if (m->k[0]) {
			coerce(c, m->k[0], d->type->elem, "enum value");
			if (!m->k[0]->is_const && m->k[0]->type->kind != TY_ERR)
				p4_error(start_loc(m->k[0]), "enum value must be a compile-time constant");
		}
	}
	declare(c, d->name, d);
}

static struct p4_node *table_prop(struct p4_node *t, enum p4_prop k, const char *name)
{
	struct p4_node *p;

	for (p = t->list; p; p = p->next)
		if (p->op == (int)k && (k != PR_OTHER || !strcmp(p->name, name)))
			return p;
	return NULL;
}

static struct p4_node *table_action(struct p4_node *t, const char *name)
{
	struct p4_node *acts = table_prop(t, PR_ACTIONS, NULL), *a;

	for (a = acts ? acts->list : NULL; a; a = a->next)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* `a(args)` from default_action or an entry: all parameters are given. */
static void check_action_call(struct ctx *c, struct p4_node *t, struct p4_node *e, const char *what)
{
	struct p4_node *callee = e->kind == N_CALL ? e->k[0] : e, *ref, *d;
	struct env env = { .n = 0 };

	if (callee->kind != N_NAME) {
		p4_error(e->loc, "%s must name an action", what);
		return;
	}
	ref = table_action(t, callee->name);
	if (!ref) {
		p4_error(callee->loc, "%s '%s' is not in the actions of table %s", what, callee->name, t->name);
		return;
	}
	if (has_annot(ref, "tableonly"))
		p4_error(callee->loc, "action '%s' is @tableonly in table %s and cannot be the default action",
			 callee->name, t->name);
	d = ref->decl;
	callee->decl = d;
	if (!d)
		return;
	callee->type = new_type(TY_ACTION);
	callee->type->decl = d;
	if (e->kind == N_CALL) {
		check_args(c, e->loc, d->name, d->list, e->list, &env, 0);
		e->type = &t_void;
	} else if (d->list) {
		struct p4_node *p;
		int n = 0;

		for (p = d->list; p; p = p->next)
			if (p->op == D_NONE)
				n++;
		if (n)
			p4_error(e->loc, "%s '%s' needs its %d argument%s", what, d->name, n, n == 1 ? "" : "s");
	}
}

static void check_table(struct ctx *c, struct p4_node *t)
{
	struct p4_node *p, *x, *o;
	struct p4_type *kts[64];
	int nk = 0;

	t->type = new_type(TY_TABLE);
	t->type->decl = t;
	for (p = t->list; p; p = p->next) {
		for (o = t->list; o != p; o = o->next)
			if (!strcmp(o->name, p->name))
				p4_error(p->loc, "table %s has two '%s' properties", t->name, p->name);
		switch (p->op) {
		case PR_KEY:
			for (x = p->list; x; x = x->next) {
				struct p4_type *kt = check_expr(c, x->k[0], NULL);
				struct p4_node *mk = lookup(c, x->name);

				if (kt->kind != TY_ERR && !is_fixed(kt) && kt->kind != TY_BOOL &&
				    kt->kind != TY_ENUM && kt->kind != TY_ERROR && kt->kind != TY_NEWTYPE)
					p4_error(x->k[0]->loc, "table key of type %s (must be bit<N>, int<N>, bool, enum or error)",
						 p4_type_str(kt));
				if (!mk || mk->kind != N_MEMBER_DECL)
					p4_error(x->loc, "unknown match kind '%s'", x->name);
				else
					x->decl = mk;
				x->type = kt;
				if (nk < 64)
					kts[nk++] = kt;
				else
					p4_error(x->loc, "too many key fields (64 at most)");
			}
			break;
		case PR_ACTIONS:
			for (x = p->list; x; x = x->next) {
				struct p4_node *d = lookup(c, x->name);

				for (o = p->list; o != x; o = o->next)
					if (!strcmp(o->name, x->name))
						p4_error(x->loc, "action '%s' listed twice", x->name);
				if (!d) {
					p4_error(x->loc, "'%s' is not declared", x->name);
					continue;
				}
				if (d->kind != N_ACTION) {
					p4_error(x->loc, "'%s' is not an action", x->name);
					continue;
				}
				x->decl = d;
				if (x->list) {
					/* only the directional parameters are bound here */
					struct p4_node *pm;
					int nd = 0;

					for (pm = d->list; pm && pm->op != D_NONE; pm = pm->next)
						nd++;
					if (count(x->list) > nd)
						p4_error(x->loc, "action '%s' in the actions list: %d argument%s given, it has %d directional parameter%s",
							 x->name, count(x->list), count(x->list) == 1 ? "" : "s", nd,
							 nd == 1 ? "" : "s");
					else
						for (pm = d->list, o = x->list; o; pm = pm->next, o = o->next) {
							pm->type = pm->type ? pm->type : resolve_type(c, pm->k[0]);
							coerce(c, o, pm->type, "action argument");
						}
				}
			}
			break;
		default:
			break;
		}
	}
	for (p = t->list; p; p = p->next) {
		if (p->op == PR_ENTRIES) {
			for (x = p->list; x; x = x->next) {
				struct p4_node *ar = x->k[1];
				struct p4_node *ref;
				struct env env = { .n = 0 };

				if (!nk) {
					p4_error(x->loc, "table %s has entries but no key", t->name);
					break;
				}
				check_keyset(c, x->k[0], kts, nk, "entry key");
				if (x->k[2])
					const_int(c, x->k[2], "entry priority", 0, 0x7fffffff);
				ref = table_action(t, ar->name);
				if (!ref) {
					p4_error(ar->loc, "entry action '%s' is not in the actions of table %s",
						 ar->name, t->name);
					continue;
				}
				if (has_annot(ref, "defaultonly"))
					p4_error(ar->loc, "action '%s' is @defaultonly in table %s and cannot be used in entries",
						 ar->name, t->name);
				ar->decl = ref->decl;
				if (ref->decl)
					check_args(c, ar->loc, ar->name, ref->decl->list, ar->list, &env, 0);
			}
		} else if (p->op == PR_OTHER) {
			if (!strcmp(p->name, "default_action")) {
				check_action_call(c, t, p->k[0], "default action");
			} else if (!strcmp(p->name, "size")) {
				const_int(c, p->k[0], "table size", 0, 0x7fffffff);
			} else {
				check_expr(c, p->k[0], NULL);
			}
		}
	}
	if (!table_prop(t, PR_ACTIONS, NULL))
		p4_error(t->loc, "table %s has no actions property", t->name);
	declare(c, t->name, t);
}

static void check_action(struct ctx *c, struct p4_node *a)
{
	struct p4_node *p;
	int seen_none = 0;

	declare(c, a->name, a);
	push_scope(c);
	check_params(c, a->list, 1);
	for (p = a->list; p; p = p->next) {
		if (p->op == D_NONE)
			seen_none = 1;
		else if (seen_none)
			p4_error(p->loc, "action '%s': parameters with a direction must come before those without",
				 a->name);
	}
	c->action = a;
	check_block(c, a->k[0], 0);
	c->action = NULL;
	pop_scope(c);
}

static void check_function(struct ctx *c, struct p4_node *f)
{
	if (f->list2)
		p4_error(f->loc, "unsupported construct: generic function '%s'", f->name);
	declare(c, f->name, f);
	push_scope(c);
	declare_type_params(c, f->list2);
	f->type = resolve_type(c, f->k[0]);
	check_params(c, f->list, 1);
	c->func = f;
	c->ret = f->type;
	check_block(c, f->k[1], 0);
	c->func = NULL;
	pop_scope(c);
}

/* Does the argument (a parser/control instance) fit a package parameter type? */
static void check_package_arg(struct ctx *c, struct p4_node *arg, struct p4_type *pt, struct env *env,
			      const char *pkg, const char *pname)
{
	struct p4_type *at = arg->type;
	struct p4_node *ap, *pp;
	int i;

	if (!at || at->kind == TY_ERR || pt->kind == TY_ERR)
		return;
	if (pt->kind == TY_TYPEVAR) {
		env_bind(env, pt->decl, at);
		return;
	}
	if (at->kind != pt->kind) {
		p4_error(arg->loc, "argument '%s' of %s: expected %s, got %s", pname, pkg, p4_type_str(pt),
			 p4_type_str(at));
		return;
	}
	if (pt->kind != TY_PARSER && pt->kind != TY_CONTROL) {
		if (!type_eq(pt, at))
			p4_error(arg->loc, "argument '%s' of %s: expected %s, got %s", pname, pkg,
				 p4_type_str(pt), p4_type_str(at));
		return;
	}
	/* bind the parser/control type's own type parameters from the package's */
	struct env inner = { .n = 0 };
	struct p4_node *tp;

	for (tp = pt->decl->list2, i = 0; tp && i < pt->nargs; tp = tp->next, i++)
		env_bind(&inner, tp, subst(pt->args[i], env));
	if (count(pt->decl->list) != count(at->decl->list)) {
		p4_error(arg->loc, "argument '%s' of %s: %s %s has %d parameters, %s has %d", pname, pkg,
			 at->kind == TY_PARSER ? "parser" : "control", at->decl->name, count(at->decl->list),
			 pt->decl->name, count(pt->decl->list));
		return;
	}
	for (pp = pt->decl->list, ap = at->decl->list; pp; pp = pp->next, ap = ap->next) {
		struct p4_type *want = subst(resolve_type(c, pp->k[0]), &inner);

		if (pp->op != ap->op) {
			p4_error(ap->loc, "parameter '%s' of %s: direction differs from %s's parameter '%s'",
				 ap->name, at->decl->name, pt->decl->name, pp->name);
			continue;
		}
		if (want->kind == TY_TYPEVAR) {
			/* H or M of the package: the first use binds it, later ones must agree */
			struct p4_type *b = env_get(env, want->decl);

			if (!b) {
				env_bind(env, want->decl, ap->type);
				continue;
			}
			want = b;
		}
		if (!type_eq(want, ap->type))
			p4_error(ap->loc, "parameter '%s' of %s has type %s, but %s expects %s", ap->name,
				 at->decl->name, p4_type_str(ap->type), pkg, p4_type_str(want));
	}
}

static void check_instance(struct ctx *c, struct p4_node *i)
{
	struct p4_type *t = resolve_type(c, i->k[0]);
	struct p4_node *ctor = NULL, *m, *a, *pm;
	struct env env = { .n = 0 };
	int na = count(i->list), found = 0;

	i->type = t;
	if (i->list4) {
		p4_error(i->loc, "unsupported construct: abstract method implementations in an instantiation");
		declare(c, i->name, i);
		return;
	}
	switch (t->kind) {
	case TY_ERR:
		break;
	case TY_EXTERN:
		for (m = t->decl->list; m; m = m->next)
			if (m->kind == N_CTOR) {
				found = 1;
				if (na >= required_params(m->list) && na <= count(m->list)) {
					ctor = m;
					break;
				}
			}
		if (!ctor) {
			if (found)
				p4_error(i->loc, "no constructor of %s takes %d argument%s", t->name, na,
					 na == 1 ? "" : "s");
			else if (na)
				p4_error(i->loc, "extern %s has no constructor", t->name);
			break;
		}
		env_from_type(&env, t);
		check_args(c, i->loc, t->name, ctor->list, i->list, &env, 0);
		break;
	case TY_PARSER:
	case TY_CONTROL:
		if (t->decl->kind != N_PARSER && t->decl->kind != N_CONTROL) {
			p4_error(i->k[0]->loc, "'%s' is a type declaration and cannot be instantiated", t->name);
			break;
		}
		if (t->decl == c->parser) {
			p4_error(i->k[0]->loc, "%s cannot instantiate itself", t->name);
			break;
		}
		check_args(c, i->loc, t->name, t->decl->list3, i->list, &env, 0);
		break;
	case TY_PACKAGE:
		if (c->sc != c->top)
			p4_error(i->loc, "packages can only be instantiated at the top level");
		if (na != count(t->decl->list)) {
			p4_error(i->loc, "package %s takes %d arguments, %d given", t->name,
				 count(t->decl->list), na);
			break;
		}
		/* V1Switch<headers, metadata>(...) fixes H and M up front */
		env_from_type(&env, t);
		for (a = i->list, pm = t->decl->list; a && pm; a = a->next, pm = pm->next) {
			struct p4_node *arg = a, *p = pm;

			if (a->kind == N_NAMEDEXPR) {
				/* named arguments, in any order */
				for (p = t->decl->list; p && strcmp(p->name, a->name); p = p->next)
					;
				if (!p) {
					p4_error(a->loc, "package %s has no parameter '%s'", t->name, a->name);
					continue;
				}
				if (find_arg(i->list, a->name) != a) {
					p4_error(a->loc, "argument '%s' given twice", a->name);
					continue;
				}
				arg = a->k[0];
			}
			check_expr(c, arg, NULL);
			check_package_arg(c, arg, resolve_type(c, p->k[0]), &env, t->name, p->name);
		}
		break;
	default:
		p4_error(i->k[0]->loc, "cannot instantiate %s", p4_type_str(t));
		break;
	}
	declare(c, i->name, i);
}

static void check_local(struct ctx *c, struct p4_node *d)
{
	switch (d->kind) {
	case N_CONST: check_const(c, d); break;
	case N_VARDECL: check_vardecl(c, d); break;
	case N_INSTANCE: check_instance(c, d); break;
	case N_ACTION: check_action(c, d); break;
	case N_TABLE: check_table(c, d); break;
	case N_VALUESET: {
		struct p4_type *t = new_type(TY_VALUESET);

		t->elem = resolve_type(c, d->k[0]);
		const_int(c, d->k[1], "the size of a value_set", 1, 65536);
		d->type = t;
		declare(c, d->name, d);
		break;
	}
	default:
		p4_error(d->loc, "unexpected %s here", p4_nkind_name(d->kind));
		break;
	}
}

static void check_state(struct ctx *c, struct p4_node *st)
{
	struct p4_node *s, *tr = st->k[0];

	push_scope(c);
	for (s = st->list; s; s = s->next)
		check_stmt(c, s);
	if (!tr) {
		if (strcmp(st->name, "accept") && strcmp(st->name, "reject"))
			p4_error(st->loc, "state '%s' has no transition", st->name);
		pop_scope(c);
		return;
	}
	if (tr->k[0]->kind == N_SELECT) {
		struct p4_node *sel = tr->k[0], *k, *cs;
		struct p4_type *kts[64];
		int nk = 0;

		for (k = sel->list; k; k = k->next) {
			struct p4_type *kt = check_expr(c, k, NULL);

			if (kt->kind != TY_ERR && !is_fixed(kt) && kt->kind != TY_BOOL && kt->kind != TY_ENUM &&
			    kt->kind != TY_ERROR)
				p4_error(k->loc, "select key of type %s (must be bit<N>, int<N>, bool, enum or error)",
					 p4_type_str(kt));
			if (kt->kind == TY_INFINT)
				p4_error(k->loc, "select key needs a width");
			if (nk < 64)
				kts[nk++] = kt;
		}
		for (cs = sel->list2; cs; cs = cs->next) {
			struct p4_node *d = lookup(c, cs->k[1]->name);

			check_keyset(c, cs->k[0], kts, nk, "select case");
			if (!d || d->kind != N_STATE)
				p4_error(cs->k[1]->loc, "'%s' is not a state of parser %s", cs->k[1]->name,
					 c->parser->name);
			cs->k[1]->decl = d;
			cs->k[1]->type = &t_state;
		}
	} else {
		struct p4_node *d = lookup(c, tr->k[0]->name);

		if (!d || d->kind != N_STATE)
			p4_error(tr->k[0]->loc, "'%s' is not a state of parser %s", tr->k[0]->name, c->parser->name);
		tr->k[0]->decl = d;
		tr->k[0]->type = &t_state;
	}
	pop_scope(c);
}

static void check_parser(struct ctx *c, struct p4_node *p)
{
	struct p4_node *l;
	int has_start = 0;

	p->type = new_type(p->kind == N_PARSER || p->kind == N_PARSER_TYPE ? TY_PARSER : TY_CONTROL);
	p->type->name = p->name;
	p->type->decl = p;
	declare(c, p->name, p);
	push_scope(c);
	declare_type_params(c, p->list2);
	check_params(c, p->list, 1);
	check_params(c, p->list3, 1);
	if (p->kind == N_PARSER_TYPE || p->kind == N_CONTROL_TYPE) {
		pop_scope(c);
		return;
	}
	if (p->list2)
		p4_error(p->loc, "unsupported construct: generic %s declaration",
			 p->kind == N_PARSER ? "parser" : "control");
	c->parser = p;
	if (p->kind == N_PARSER) {
		/* states may be named before they are declared */
		declare(c, "accept", &state_accept);
		declare(c, "reject", &state_reject);
		for (l = p->list4; l; l = l->next)
			if (l->kind == N_STATE) {
				if (!strcmp(l->name, "accept") || !strcmp(l->name, "reject"))
					p4_error(l->loc, "state '%s' is built in and cannot be declared", l->name);
				else
					declare(c, l->name, l);
				if (!strcmp(l->name, "start"))
					has_start = 1;
			}
		if (!has_start)
			p4_error(p->loc, "parser %s has no 'start' state", p->name);
		for (l = p->list4; l; l = l->next)
			if (l->kind == N_STATE)
				check_state(c, l);
			else
				check_local(c, l);
	} else {
		for (l = p->list4; l; l = l->next)
			check_local(c, l);
		if (p->k[0])
			check_block(c, p->k[0], 1);
	}
	c->parser = NULL;
	pop_scope(c);
}

static void check_extern(struct ctx *c, struct p4_node *e)
{
	struct p4_node *m;

	e->type = new_type(TY_EXTERN);
	e->type->name = e->name;
	e->type->decl = e;
	declare(c, e->name, e);
	push_scope(c);
	declare_type_params(c, e->list2);
	for (m = e->list; m; m = m->next) {
		push_scope(c);
		declare_type_params(c, m->list2);
		if (m->kind == N_METHOD) {
			m->type = resolve_type(c, m->k[0]);
			if (m->flags & NF_ABSTRACT)
				p4_error(m->loc, "unsupported construct: abstract method '%s'", m->name);
		} else if (strcmp(m->name, e->name)) {
			p4_error(m->loc, "constructor '%s' must be named like extern %s", m->name, e->name);
		}
		check_params(c, m->list, 0);
		pop_scope(c);
	}
	pop_scope(c);
}

static void check_decl(struct ctx *c, struct p4_node *d)
{
	struct p4_node *m, *o;

	switch (d->kind) {
	case N_CONST:
		check_const(c, d);
		break;
	case N_TYPEDEF:
		d->type = resolve_type(c, d->k[0]);
		declare(c, d->name, d);
		break;
	case N_NEWTYPE:
		d->type = new_type(TY_NEWTYPE);
		d->type->name = d->name;
		d->type->decl = d;
		d->type->elem = resolve_type(c, d->k[0]);
		declare(c, d->name, d);
		break;
	case N_HEADER:
	case N_STRUCT:
	case N_UNION:
		check_aggregate(c, d);
		break;
	case N_ENUM:
		check_enum(c, d);
		break;
	case N_ERROR_DECL:
		for (m = d->list; m; m = m->next) {
			for (o = c->errors; o; o = o->next)
				if (!strcmp(o->name, m->name))
					p4_error(m->loc, "error '%s' is declared twice", m->name);
		}
		/* errors from several declarations form one type: chain copies */
		for (m = d->list; m; m = m->next) {
			struct p4_node *cp = p4_new(N_MEMBER_DECL, m->loc), **at = &c->errors;

			cp->name = m->name;
			while (*at)
				at = &(*at)->next;
			*at = cp;
			c->nerrors++;
		}
		break;
	case N_MATCHKIND_DECL:
		for (m = d->list; m; m = m->next) {
			m->type = &t_matchkind;
			declare(c, m->name, m);
		}
		break;
	case N_EXTERN:
		check_extern(c, d);
		break;
	case N_EXTERN_FUNC:
		declare(c, d->name, d);
		push_scope(c);
		declare_type_params(c, d->list2);
		d->type = resolve_type(c, d->k[0]);
		check_params(c, d->list, 0);
		pop_scope(c);
		break;
	case N_PARSER_TYPE:
	case N_PARSER:
		check_parser(c, d);
		break;
	case N_CONTROL_TYPE:
	case N_CONTROL:
		check_parser(c, d);
		break;
	case N_PACKAGE:
		d->type = new_type(TY_PACKAGE);
		d->type->name = d->name;
		d->type->decl = d;
		declare(c, d->name, d);
		push_scope(c);
		declare_type_params(c, d->list2);
		check_params(c, d->list, 0);
		pop_scope(c);
		break;
	case N_ACTION:
		check_action(c, d);
		break;
	case N_FUNCTION:
		check_function(c, d);
		break;
	case N_INSTANCE:
		check_instance(c, d);
		break;
	default:
		p4_error(d->loc, "unexpected %s at the top level", p4_nkind_name(d->kind));
		break;
	}
}

int p4_check(struct p4_node *prog)
{
	struct ctx c;
	struct p4_node *d, *main_decl = NULL;
	int before = p4_diag.errors;

	memset(&c, 0, sizeof(c));
	push_scope(&c);
	c.top = c.sc;
	for (d = prog->list; d; d = d->next) {
		check_decl(&c, d);
		if (d->kind == N_INSTANCE && d->name && !strcmp(d->name, "main"))
			main_decl = d;
	}
	if (!main_decl && p4_diag.errors == before)
		p4_error(prog->loc, "the program has no 'main' package instance (e.g. V1Switch(...) main;)");
	return p4_diag.errors > before ? -1 : 0;
}
