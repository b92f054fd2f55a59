// SPDX-License-Identifier: Apache-2.0
/*
 * stf_xlate.c: STF add / setdefault -> the simple_switch_CLI line that
 * bmv2stf.py generates, with names resolved through the image's runtime
 * info (full name or unique dotted suffix), keys in table key order,
 * omitted keys filled in, ternary and lpm wildcards converted.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stf.h"
#include "pisa_p4info.h"

/* bmv2stf sends 10000 - P, BMv2 picks the smallest: larger STF P wins. */
#define STF_PRIO_BASE 10000

struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		p = realloc(b->s, b->cap + (size_t)n + 256);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap += (size_t)n + 256;
	}
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

typedef const char *(*name_fn)(const void *ctx, size_t i);

/* name == cand, or cand ends with "." name. */
static int suffix_match(const char *cand, const char *name)
{
	size_t cl = strlen(cand), nl = strlen(name);

	return cl > nl && cand[cl - nl - 1] == '.' && !strcmp(cand + cl - nl, name);
}

/*
 * Finds name among n candidates: an exact match first, else the one
 * candidate it is a dotted suffix of. Returns the index, -1 if none,
 * -2 if several (amb then holds two of them).
 */
static long lookup(const char *name, size_t n, name_fn get, const void *ctx, size_t amb[2])
{
	long found = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (get(ctx, i) && !strcmp(get(ctx, i), name))
			return (long)i;
	for (i = 0; i < n; i++) {
		if (!get(ctx, i) || !suffix_match(get(ctx, i), name))
			continue;
		if (found >= 0) {
			amb[0] = (size_t)found;
			amb[1] = i;
			return -2;
		}
		found = (long)i;
	}
	return found;
}

/* "(what: a, b, c)" with the first few names, for error messages. */
static void list_names(char *buf, size_t buflen, const char *what, size_t n, name_fn get,
		       const void *ctx)
{
	struct sbuf b = { 0 };
	size_t i;

	sb_add(&b, "(%s: ", what);
	for (i = 0; i < n && i < 8; i++)
		sb_add(&b, "%s%s", i ? ", " : "", get(ctx, i) ? get(ctx, i) : "?");
	if (n == 0)
		sb_add(&b, "none");
	else if (n > 8)
		sb_add(&b, ", ...");
	sb_add(&b, ")");
	snprintf(buf, buflen, "%s", b.oom ? "" : b.s);
	free(b.s);
}

static const char *table_name(const void *ctx, size_t i)
{
	const struct pisa_image *img = ctx;

	/* not the compiler's tables, nor the later pieces of a table split over stages */
	if (!pisa_p4info_table_visible(img, (unsigned)i))
		return NULL;
	return img->rt_tables ? img->rt_tables[i].name : NULL;
}

struct action_ctx {
	const struct pisa_image *img;
	const struct pisa_table *t;
};

static const char *action_name(const void *ctx, size_t i)
{
	const struct action_ctx *a = ctx;
	uint16_t id = a->t->actions[i].action;

	if (!a->img->rt_actions || id >= a->img->nactions)
		return NULL;
	return a->img->rt_actions[id].name;
}

static const char *key_name(const void *ctx, size_t i)
{
	const char *const *names = ctx;

	return names[i];
}

static const char *rt_key_name(const void *ctx, size_t i)
{
	const struct pisa_rt_table *rt = ctx;

	return rt->keys[i].name;
}

static const char *param_name(const void *ctx, size_t i)
{
	const struct pisa_rt_action *a = ctx;

	return a->params[i].name;
}

/*
 * Key names compared in one spelling: "x$0.h" (the way STF writes stack
 * elements) becomes "x[0].h", and "h.valid", "h.isValid()" and
 * "h.$valid$" all become "h.$valid$", as bmv2stf accepts them.
 */
static char *canon_key(const char *s)
{
	size_t n = strlen(s), o = 0, tail;
	char *r = malloc(2 * n + 16);
	const char *p;

	if (!r)
		return NULL;
	for (p = s; *p; p++) {
		if (*p == '$' && isdigit((unsigned char)p[1])) {
			r[o++] = '[';
			while (isdigit((unsigned char)p[1]))
				r[o++] = *++p;
			r[o++] = ']';
			continue;
		}
		r[o++] = *p;
	}
	r[o] = '\0';
	tail = strlen(".isValid()");
	if (o >= tail && !strcmp(r + o - tail, ".isValid()"))
		strcpy(r + o - tail, ".$valid$");
	else if (o >= 6 && !strcmp(r + o - 6, ".valid"))
		strcpy(r + o - 6, ".$valid$");
	else if (!strcmp(r, "valid") || !strcmp(r, "isValid()"))
		strcpy(r, "$valid$");
	return r;
}

static int is_hex(const char *v)
{
	return v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
}

static int is_bin(const char *v)
{
	return v[0] == '0' && (v[1] == 'b' || v[1] == 'B');
}

/* ternary: each written digit gives mask F (hex) or 1 (bin), each '*' 0. */
static int ternary_value(struct sbuf *b, const char *key, const char *v, char *err, size_t errlen)
{
	const char *d;
	char one;

	if (is_hex(v))
		one = 'F';
	else if (is_bin(v))
		one = '1';
	else {
		seterr(err, errlen, "key '%s' is ternary: decimal value %s is not supported (write it in hex 0x.. or binary 0b..)",
		       key, v);
		return -1;
	}
	sb_add(b, " %.2s", v);
	for (d = v + 2; *d; d++)
		sb_add(b, "%c", *d == '*' ? '0' : *d);
	sb_add(b, "&&&%.2s", v);
	for (d = v + 2; *d; d++)
		sb_add(b, "%c", *d == '*' ? '0' : one);
	return 0;
}

/* lpm: '*' digits are outside the prefix; the rest count 4 (hex) or 1 (bin) bits each. */
static int lpm_value(struct sbuf *b, const char *key, const struct stf_match *m, char *err,
		     size_t errlen)
{
	const char *v = m->value, *d;
	size_t digits = 0;
	unsigned bits;

	if (m->plen) {
		if (strchr(v, '*')) {
			seterr(err, errlen, "key '%s': '*' and '/' cannot be combined", key);
			return -1;
		}
		sb_add(b, " %s/%s", v, m->plen);
		return 0;
	}
	if (is_hex(v))
		bits = 4;
	else if (is_bin(v))
		bits = 1;
	else {
		seterr(err, errlen, "key '%s' is lpm: decimal value %s is not supported (write it in hex 0x.. with '*' digits, or as value/length)",
		       key, v);
		return -1;
	}
	sb_add(b, " %.2s", v);
	for (d = v + 2; *d; d++) {
		sb_add(b, "%c", *d == '*' ? '0' : *d);
		digits += *d != '*';
	}
	sb_add(b, "/%zu", digits * bits);
	return 0;
}

static int key_value(struct sbuf *b, const struct pisa_rt_key *k, const struct stf_match *m,
		     char *err, size_t errlen)
{
	if (m->plen && k->match != PISA_MATCH_LPM) {
		seterr(err, errlen, "key '%s' is not lpm: value/length is only for lpm keys", k->name);
		return -1;
	}
	switch (k->match) {
	case PISA_MATCH_EXACT:
		if (strchr(m->value, '*')) {
			seterr(err, errlen, "key '%s' is exact: '*' is not allowed in %s", k->name,
			       m->value);
			return -1;
		}
		sb_add(b, " %s", m->value);
		return 0;
	case PISA_MATCH_TERNARY:
	case PISA_MATCH_OPTIONAL:
		return ternary_value(b, k->name, m->value, err, errlen);
	case PISA_MATCH_LPM:
		return lpm_value(b, k->name, m, err, errlen);
	default:
		seterr(err, errlen, "key '%s' is a range key: STF add cannot set it (bmv2stf)", k->name);
		return -1;
	}
}

static int action_args(struct sbuf *b, const struct pisa_rt_action *a, const struct stf_stmt *s,
		       char *err, size_t errlen)
{
	char names[256];
	size_t i, j;
	long p;

	for (j = 0; j < s->nargs; j++) {
		p = -1;
		for (i = 0; i < a->nparams; i++)
			if (a->params[i].name && !strcmp(a->params[i].name, s->args[j].name))
				p = (long)i;
		if (p < 0) {
			list_names(names, sizeof(names), "parameters", a->nparams, param_name, a);
			seterr(err, errlen, "action '%s' has no parameter '%s' %s", a->name,
			       s->args[j].name, names);
			return -1;
		}
	}
	for (i = 0; i < a->nparams; i++) {
		const char *v = NULL;

		for (j = 0; j < s->nargs; j++)	/* the last one given wins, as in bmv2stf */
			if (!strcmp(a->params[i].name, s->args[j].name))
				v = s->args[j].value;
		if (!v) {
			seterr(err, errlen, "action '%s': missing argument '%s'", a->name,
			       a->params[i].name);
			return -1;
		}
		sb_add(b, " %s", v);
	}
	return 0;
}

static long find_table(const struct pisa_image *img, const char *name, char *err, size_t errlen)
{
	char names[256];
	size_t amb[2];
	long t;

	if (!img->rt_tables) {
		seterr(err, errlen, "the image has no table names (runtime info)");
		return -1;
	}
	t = lookup(name, img->ntables, table_name, img, amb);
	if (t == -2) {
		seterr(err, errlen, "table name '%s' is ambiguous (%s, %s)", name,
		       img->rt_tables[amb[0]].name, img->rt_tables[amb[1]].name);
		return -1;
	}
	if (t < 0) {
		list_names(names, sizeof(names), "tables", img->ntables, table_name, img);
		seterr(err, errlen, "unknown table '%s' %s", name, names);
		return -1;
	}
	return t;
}

static const struct pisa_rt_action *find_action(const struct pisa_image *img, long t,
						const char *name, char *err, size_t errlen)
{
	struct action_ctx ctx = { img, &img->tables[t] };
	char names[256];
	size_t amb[2];
	long a;

	a = lookup(name, ctx.t->nactions, action_name, &ctx, amb);
	if (a == -2) {
		seterr(err, errlen, "action name '%s' is ambiguous in table %s (%s, %s)", name,
		       img->rt_tables[t].name, action_name(&ctx, amb[0]), action_name(&ctx, amb[1]));
		return NULL;
	}
	if (a < 0) {
		list_names(names, sizeof(names), "actions", ctx.t->nactions, action_name, &ctx);
		seterr(err, errlen, "table %s has no action '%s' %s", img->rt_tables[t].name, name,
		       names);
		return NULL;
	}
	return &img->rt_actions[ctx.t->actions[a].action];
}

static int xlate_add(struct sbuf *b, const struct pisa_image *img, long t,
		     const struct pisa_rt_action *a, const struct stf_stmt *s, char *err,
		     size_t errlen)
{
	const struct pisa_rt_table *rt = &img->rt_tables[t];
	char **canon = NULL;
	const struct stf_match **given = NULL;
	char names[256];
	int ternary = 0, r = -1;
	size_t i, j, amb[2];
	long k;

	canon = calloc(rt->nkeys + 1, sizeof(*canon));
	given = calloc(rt->nkeys + 1, sizeof(*given));
	if (!canon || !given)
		goto nomem;
	for (i = 0; i < rt->nkeys; i++) {
		canon[i] = canon_key(rt->keys[i].name ? rt->keys[i].name : "");
		if (!canon[i])
			goto nomem;
		if (rt->keys[i].match == PISA_MATCH_TERNARY ||
		    rt->keys[i].match == PISA_MATCH_OPTIONAL)
			ternary = 1;
		if (rt->keys[i].match == PISA_MATCH_RANGE) {
			seterr(err, errlen, "table %s has a range key '%s': STF add cannot set range keys (bmv2stf); use const entries",
			       rt->name, rt->keys[i].name);
			goto out;
		}
	}
	for (j = 0; j < s->nmatch; j++) {
		char *c = canon_key(s->match[j].key);

		if (!c)
			goto nomem;
		k = lookup(c, rt->nkeys, key_name, canon, amb);
		if (k == -1) {
			/* bmv2stf also takes a header's name for its validity key */
			char *v = malloc(strlen(c) + sizeof(".$valid$"));

			if (!v) {
				free(c);
				goto nomem;
			}
			sprintf(v, "%s.$valid$", c);
			k = lookup(v, rt->nkeys, key_name, canon, amb);
			free(v);
		}
		free(c);
		if (k == -2) {
			seterr(err, errlen, "key name '%s' is ambiguous in table %s (%s, %s)",
			       s->match[j].key, rt->name, rt->keys[amb[0]].name,
			       rt->keys[amb[1]].name);
			goto out;
		}
		if (k < 0) {
			list_names(names, sizeof(names), "keys", rt->nkeys, rt_key_name, rt);
			seterr(err, errlen, "table %s has no key '%s' %s", rt->name, s->match[j].key,
			       names);
			goto out;
		}
		given[k] = &s->match[j];	/* the last one given wins, as in bmv2stf */
	}
	sb_add(b, "table_add %s %s", rt->name, a->name);
	for (i = 0; i < rt->nkeys; i++) {
		if (given[i]) {
			if (key_value(b, &rt->keys[i], given[i], err, errlen) < 0)
				goto out;
			continue;
		}
		switch (rt->keys[i].match) {
		case PISA_MATCH_LPM:
			sb_add(b, " 0/0");
			break;
		case PISA_MATCH_TERNARY:
		case PISA_MATCH_OPTIONAL:
			sb_add(b, " 0&&&0");
			break;
		default:
			sb_add(b, " 0");
			break;
		}
	}
	sb_add(b, " =>");
	if (action_args(b, a, s, err, errlen) < 0)
		goto out;
	if (ternary) {
		if (s->prio < 0) {
			seterr(err, errlen, "table %s has ternary keys: add needs a priority after the table name (larger wins)",
			       rt->name);
			goto out;
		}
		if (s->prio > STF_PRIO_BASE) {
			seterr(err, errlen, "priority %ld is too large (at most %d)", s->prio,
			       STF_PRIO_BASE);
			goto out;
		}
		sb_add(b, " %ld", STF_PRIO_BASE - s->prio);
	}
	r = 0;
	goto out;
nomem:
	seterr(err, errlen, "out of memory");
out:
	if (canon)
		for (i = 0; i < rt->nkeys; i++)
			free(canon[i]);
	free(canon);
	free(given);
	return r;
}

char *stf_xlate(const struct pisa_image *img, const struct stf_stmt *s, char *err, size_t errlen)
{
	const struct pisa_rt_action *a;
	struct sbuf b = { 0 };
	long t;

	if (s->kind != STF_ADD && s->kind != STF_SETDEFAULT) {
		seterr(err, errlen, "not an add or setdefault statement");
		return NULL;
	}
	t = find_table(img, s->table, err, errlen);
	if (t < 0)
		return NULL;
	if (!img->rt_actions) {
		seterr(err, errlen, "the image has no action names (runtime info)");
		return NULL;
	}
	a = find_action(img, t, s->action, err, errlen);
	if (!a)
		return NULL;
	if (s->kind == STF_ADD) {
		if (xlate_add(&b, img, t, a, s, err, errlen) < 0)
			goto fail;
	} else {
		sb_add(&b, "table_set_default %s %s", img->rt_tables[t].name, a->name);
		if (action_args(&b, a, s, err, errlen) < 0)
			goto fail;
	}
	if (b.oom) {
		seterr(err, errlen, "out of memory");
		goto fail;
	}
	return b.s;
fail:
	free(b.s);
	return NULL;
}
