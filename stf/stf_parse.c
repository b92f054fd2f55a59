// SPDX-License-Identifier: Apache-2.0
/*
 * stf_parse.c: the STF lexer and parser (p4c tools/stf grammar plus the
 * bmv2stf commands). Line oriented: every statement is one line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stf.h"

struct line {
	const char *p, *end;
	int no;
	char *err;
	size_t errlen;
};

enum tok_type { T_END, T_NAME, T_NUM, T_PUNCT };

struct tok {
	enum tok_type type;
	const char *s;		/* NAME (without quotes) and NUM text */
	size_t len;
	char c;			/* PUNCT */
};

static int fail(struct line *l, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct line *l, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(l->err, l->errlen, "%d: ", l->no);
	if (n < 0 || (size_t)n >= l->errlen)
		return -code;
	va_start(ap, fmt);
	vsnprintf(l->err + n, l->errlen - n, fmt, ap);
	va_end(ap);
	return -code;
}

static int nomem(struct line *l)
{
	return fail(l, PISA_E_NOMEM, "out of memory");
}

static int is_name_start(int c)
{
	return isalpha(c) || c == '_' || c == '$';
}

/* Qualified names are lexed as one word: a.b.c, a[3].b, h.$valid$. */
static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '[' || c == ']';
}

static void skip_ws(struct line *l)
{
	while (l->p < l->end && isspace((unsigned char)*l->p))
		l->p++;
}

/* Copies a token for an error message: cut to a readable length, bytes
 * that are not printable shown as '?'. */
static const char *show(char *buf, size_t buflen, const char *s, size_t len)
{
	size_t max = buflen > 4 ? buflen - 4 : 0, i, n = len > max ? max : len;

	if (buflen == 0)
		return "";
	for (i = 0; i < n; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (n < len && buflen >= 4) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* number := decimal | 0x[hex*]+ | 0b[01*]+ */
static int lex_number(struct line *l, struct tok *t)
{
	const char *s = l->p, *q = s;
	char b[48];

	if (q + 1 < l->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		while (q < l->end && (isxdigit((unsigned char)*q) || *q == '*'))
			q++;
		if (q == s + 2)
			goto bad;
	} else if (q + 1 < l->end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
		q += 2;
		while (q < l->end && (*q == '0' || *q == '1' || *q == '*'))
			q++;
		if (q == s + 2)
			goto bad;
	} else {
		while (q < l->end && isdigit((unsigned char)*q))
			q++;
	}
	if (q < l->end && (is_name_char((unsigned char)*q) || *q == '*'))
		goto bad;
	t->type = T_NUM;
	t->s = s;
	t->len = q - s;
	l->p = q;
	return 0;
bad:
	while (q < l->end && (is_name_char((unsigned char)*q) || *q == '*'))
		q++;
	return fail(l, PISA_E_INVAL, "bad number '%s'", show(b, sizeof(b), s, q - s));
}

static int next_tok(struct line *l, struct tok *t)
{
	const char *q;
	int c;

	skip_ws(l);
	memset(t, 0, sizeof(*t));
	if (l->p >= l->end) {
		t->type = T_END;
		return 0;
	}
	c = (unsigned char)*l->p;
	if (isdigit(c))
		return lex_number(l, t);
	if (is_name_start(c)) {
		q = l->p;
		while (q < l->end && is_name_char((unsigned char)*q))
			q++;
		t->type = T_NAME;
		t->s = l->p;
		t->len = q - l->p;
		l->p = q;
		return 0;
	}
	if (c == '"') {
		q = memchr(l->p + 1, '"', l->end - l->p - 1);
		if (!q || q == l->p + 1)
			return fail(l, PISA_E_INVAL, q ? "empty quoted name" : "unterminated quoted name");
		t->type = T_NAME;
		t->s = l->p + 1;
		t->len = q - l->p - 1;
		l->p = q + 1;
		return 0;
	}
	if (strchr("():,/=", c)) {
		t->type = T_PUNCT;
		t->c = (char)c;
		l->p++;
		return 0;
	}
	if (isprint(c))
		return fail(l, PISA_E_INVAL, "unexpected character '%c'", c);
	return fail(l, PISA_E_INVAL, "unexpected byte 0x%02x", c);
}

static int peek_tok(struct line *l, struct tok *t)
{
	const char *save = l->p;
	int r = next_tok(l, t);

	l->p = save;
	return r;
}

static int is_punct(const struct tok *t, char c)
{
	return t->type == T_PUNCT && t->c == c;
}

static const char *tok_str(char *buf, size_t buflen, const struct tok *t)
{
	switch (t->type) {
	case T_END:
		return "end of line";
	case T_PUNCT:
		snprintf(buf, buflen, "'%c'", t->c);
		return buf;
	default:
		if (buflen < 3)
			return "";
		buf[0] = '\'';
		show(buf + 1, buflen - 2, t->s, t->len);
		strcat(buf, "'");
		return buf;
	}
}

static char *tok_dup(const struct tok *t)
{
	return strndup(t->s, t->len);
}

/* A decimal number that fits in a long and is at most max. */
static int parse_decimal(const char *s, size_t len, long max, long *out)
{
	long v = 0;
	size_t i;

	if (len == 0 || len > 18)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* One whitespace-separated word (for ports). */
static void next_word(struct line *l, const char **s, size_t *len)
{
	skip_ws(l);
	*s = l->p;
	while (l->p < l->end && !isspace((unsigned char)*l->p))
		l->p++;
	*len = l->p - *s;
}

static int parse_port(struct line *l, struct stf_stmt *st)
{
	const char *s;
	size_t len;
	long v;
	char b[48];

	next_word(l, &s, &len);
	if (len == 0)
		return fail(l, PISA_E_INVAL, "%s: missing port number", st->keyword);
	if (parse_decimal(s, len, STF_MAX_PORT, &v) < 0)
		return fail(l, PISA_E_INVAL, "%s: bad port '%s' (decimal 0..%d)", st->keyword,
			    show(b, sizeof(b), s, len), STF_MAX_PORT);
	st->port = (unsigned)v;
	return 0;
}

/*
 * packet PORT hexdata       hex digits with any whitespace, an even count
 * expect PORT [data ['$']]  data may also hold '*' nibbles
 */
static int parse_packet(struct line *l, struct stf_stmt *st, int expect)
{
	size_t cap = (size_t)(l->end - l->p) + 1, n = 0;
	int c, r;

	r = parse_port(l, st);
	if (r < 0)
		return r;
	st->data = malloc(cap);
	if (!st->data)
		return nomem(l);
	for (; l->p < l->end; l->p++) {
		c = (unsigned char)*l->p;
		if (isspace(c))
			continue;
		if (isxdigit(c) || (expect && c == '*')) {
			st->data[n++] = (char)tolower(c);
			continue;
		}
		if (expect && c == '$') {
			l->p++;
			skip_ws(l);
			if (l->p < l->end)
				return fail(l, PISA_E_INVAL, "expect: '$' must end the expected data");
			st->exact = 1;
			break;
		}
		if (isprint(c))
			return fail(l, PISA_E_INVAL, "%s: bad character '%c' in packet data",
				    st->keyword, c);
		return fail(l, PISA_E_INVAL, "%s: bad byte 0x%02x in packet data", st->keyword, c);
	}
	st->data[n] = '\0';
	st->ndata = n;
	if (!expect && n == 0)
		return fail(l, PISA_E_INVAL, "packet: no packet data");
	if (!expect && n % 2)
		return fail(l, PISA_E_INVAL, "packet: odd number of hex digits (%zu) in packet data",
			    n);
	st->has_data = n > 0 || st->exact;
	return 0;
}

/* action := qualified_name '(' [ argname ':' number {',' argname ':' number} ] ')' */
static int parse_action(struct line *l, struct stf_stmt *st, const struct tok *name)
{
	struct tok t, v;
	struct stf_arg *a;
	char b[64];
	int r;

	st->action = tok_dup(name);
	if (!st->action)
		return nomem(l);
	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (!is_punct(&t, '('))
		return fail(l, PISA_E_INVAL, "%s: expected '(' after action '%s', got %s",
			    st->keyword, st->action, tok_str(b, sizeof(b), &t));
	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (is_punct(&t, ')'))
		return 0;
	for (;;) {
		if (t.type == T_END)
			goto unbalanced;
		if (t.type != T_NAME)
			return fail(l, PISA_E_INVAL, "action '%s': expected an argument name, got %s",
				    st->action, tok_str(b, sizeof(b), &t));
		a = realloc(st->args, (st->nargs + 1) * sizeof(*a));
		if (!a)
			return nomem(l);
		st->args = a;
		a = &st->args[st->nargs++];
		a->value = NULL;
		a->name = tok_dup(&t);
		if (!a->name)
			return nomem(l);
		if ((r = next_tok(l, &t)) < 0)
			return r;
		if (!is_punct(&t, ':'))
			return fail(l, PISA_E_INVAL, "action '%s': expected ':' after '%s', got %s",
				    st->action, a->name, tok_str(b, sizeof(b), &t));
		if ((r = next_tok(l, &v)) < 0)
			return r;
		if (v.type != T_NUM)
			return fail(l, PISA_E_INVAL, "action '%s': argument '%s': expected a number, got %s",
				    st->action, a->name, tok_str(b, sizeof(b), &v));
		if (memchr(v.s, '*', v.len))
			return fail(l, PISA_E_INVAL, "action '%s': argument '%s': '*' is not allowed in an action argument",
				    st->action, a->name);
		a->value = tok_dup(&v);
		if (!a->value)
			return nomem(l);
		if ((r = next_tok(l, &t)) < 0)
			return r;
		if (is_punct(&t, ')'))
			return 0;
		if (t.type == T_END)
			goto unbalanced;
		if (!is_punct(&t, ','))
			return fail(l, PISA_E_INVAL, "action '%s': expected ',' or ')', got %s",
				    st->action, tok_str(b, sizeof(b), &t));
		if ((r = next_tok(l, &t)) < 0)
			return r;
	}
unbalanced:
	return fail(l, PISA_E_INVAL, "unbalanced parenthesis in action '%s': missing ')'",
		    st->action);
}

/* The end of an add / setdefault line: nothing, or '= ID' after an add. */
static int parse_tail(struct line *l, struct stf_stmt *st, int allow_handle)
{
	struct tok t;
	char b[64];
	int r;

	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (allow_handle && is_punct(&t, '=')) {
		if ((r = next_tok(l, &t)) < 0)
			return r;
		if (t.type != T_NAME)
			return fail(l, PISA_E_INVAL, "add: expected a name after '=', got %s",
				    tok_str(b, sizeof(b), &t));
		if ((r = next_tok(l, &t)) < 0)
			return r;
	}
	if (is_punct(&t, ')'))
		return fail(l, PISA_E_INVAL, "unbalanced parenthesis in action '%s': extra ')'",
			    st->action);
	if (t.type != T_END)
		return fail(l, PISA_E_INVAL, "%s: unexpected %s after the action", st->keyword,
			    tok_str(b, sizeof(b), &t));
	return 0;
}

/*
 * add table [priority] match+ action ['=' ID]
 * match := keyname ':' (number | number '/' number)
 */
static int parse_add(struct line *l, struct stf_stmt *st)
{
	struct tok t, n;
	struct stf_match *m;
	char b[64];
	long v;
	int r;

	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (t.type != T_NAME)
		return fail(l, PISA_E_INVAL, "add: expected a table name, got %s",
			    tok_str(b, sizeof(b), &t));
	st->table = tok_dup(&t);
	if (!st->table)
		return nomem(l);
	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (t.type == T_NUM) {
		if (parse_decimal(t.s, t.len, 1000000000L, &v) < 0)
			return fail(l, PISA_E_INVAL, "add: bad priority %s (a decimal number)",
				    tok_str(b, sizeof(b), &t));
		st->prio = v;
		if ((r = next_tok(l, &t)) < 0)
			return r;
	}
	for (;;) {
		if (t.type == T_END)
			return fail(l, PISA_E_INVAL, "add: missing action");
		if (t.type != T_NAME)
			return fail(l, PISA_E_INVAL, "add: expected a key name or an action, got %s",
				    tok_str(b, sizeof(b), &t));
		if ((r = peek_tok(l, &n)) < 0)
			return r;
		if (is_punct(&n, '(')) {
			r = parse_action(l, st, &t);
			if (r < 0)
				return r;
			return parse_tail(l, st, 1);
		}
		if (!is_punct(&n, ':'))
			return fail(l, PISA_E_INVAL, "add: expected ':' or '(' after %s, got %s",
				    tok_str(b, sizeof(b), &t), tok_str(b + 32, sizeof(b) - 32, &n));
		next_tok(l, &n);
		m = realloc(st->match, (st->nmatch + 1) * sizeof(*m));
		if (!m)
			return nomem(l);
		st->match = m;
		m = &st->match[st->nmatch++];
		memset(m, 0, sizeof(*m));
		m->key = tok_dup(&t);
		if (!m->key)
			return nomem(l);
		if ((r = next_tok(l, &t)) < 0)
			return r;
		if (t.type != T_NUM)
			return fail(l, PISA_E_INVAL, "add: key '%s': expected a number, got %s",
				    m->key, tok_str(b, sizeof(b), &t));
		m->value = tok_dup(&t);
		if (!m->value)
			return nomem(l);
		if ((r = next_tok(l, &t)) < 0)
			return r;
		if (is_punct(&t, '/')) {
			if ((r = next_tok(l, &t)) < 0)
				return r;
			if (t.type != T_NUM || parse_decimal(t.s, t.len, 65535, &v) < 0)
				return fail(l, PISA_E_INVAL, "add: key '%s': expected a decimal prefix length after '/', got %s",
					    m->key, tok_str(b, sizeof(b), &t));
			m->plen = tok_dup(&t);
			if (!m->plen)
				return nomem(l);
			if ((r = next_tok(l, &t)) < 0)
				return r;
		}
	}
}

/* setdefault table action */
static int parse_setdefault(struct line *l, struct stf_stmt *st)
{
	struct tok t;
	char b[64];
	int r;

	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (t.type != T_NAME)
		return fail(l, PISA_E_INVAL, "setdefault: expected a table name, got %s",
			    tok_str(b, sizeof(b), &t));
	st->table = tok_dup(&t);
	if (!st->table)
		return nomem(l);
	if ((r = next_tok(l, &t)) < 0)
		return r;
	if (t.type != T_NAME)
		return fail(l, PISA_E_INVAL, "setdefault: expected an action, got %s",
			    tok_str(b, sizeof(b), &t));
	if ((r = parse_action(l, st, &t)) < 0)
		return r;
	return parse_tail(l, st, 0);
}

/* Commands bmv2stf hands to simple_switch_CLI as " ".join(tokens), with
 * the least number of arguments each needs. */
static const struct {
	const char *name;
	int min_args;
} cli_cmds[] = {
	{ "mirroring_add", 2 }, { "mirroring_add_mc", 2 }, { "mirroring_delete", 1 },
	{ "mirroring_get", 1 }, { "mc_mgrp_create", 1 }, { "mc_node_create", 1 },
	{ "mc_node_associate", 2 }, { "counter_read", 2 }, { "counter_write", 4 },
	{ "register_read", 1 }, { "register_write", 3 }, { "register_reset", 1 },
	{ "meter_get_rates", 2 }, { "meter_set_rates", 2 }, { "meter_array_set_rates", 1 },
	/* action profiles and selectors: OpenPISA's STF runs these simple_switch_CLI
	 * commands too (bmv2stf has no statement for them) */
	{ "act_prof_create_member", 2 }, { "act_prof_modify_member", 3 },
	{ "act_prof_delete_member", 2 }, { "act_prof_create_group", 1 },
	{ "act_prof_delete_group", 2 }, { "act_prof_add_member_to_group", 3 },
	{ "act_prof_remove_member_from_group", 3 }, { "table_indirect_add", 3 },
	{ "table_indirect_add_with_group", 3 }, { "table_indirect_delete", 2 },
	{ "table_indirect_set_default", 2 }, { "table_indirect_set_default_with_group", 2 },
	{ "table_indirect_reset_default", 1 }, { "table_indirect_modify", 3 },
	{ "table_indirect_modify_with_group", 3 },
};

/* Parsed by p4c's STF grammar and then ignored by bmv2stf. */
static const char *const ignored_cmds[] = {
	"remove", "check_counter", "wait", "mc_node_update",
};

static int parse_cli(struct line *l, struct stf_stmt *st, int min_args)
{
	size_t cap = strlen(st->keyword) + (size_t)(l->end - l->p) + 2, n;
	const char *w;
	size_t wl;
	int args = 0;
	int c;

	st->cli = malloc(cap);
	if (!st->cli)
		return nomem(l);
	n = (size_t)sprintf(st->cli, "%s", st->keyword);
	for (;;) {
		next_word(l, &w, &wl);
		if (wl == 0)
			break;
		for (size_t i = 0; i < wl; i++) {
			c = (unsigned char)w[i];
			if (!isprint(c))
				return fail(l, PISA_E_INVAL, "%s: bad byte 0x%02x", st->keyword, c);
		}
		st->cli[n++] = ' ';
		memcpy(st->cli + n, w, wl);
		n += wl;
		args++;
	}
	st->cli[n] = '\0';
	if (args < min_args)
		return fail(l, PISA_E_INVAL, "%s: expected at least %d argument%s, got %d",
			    st->keyword, min_args, min_args == 1 ? "" : "s", args);
	return 0;
}

static int parse_line(struct line *l, struct stf_stmt *st)
{
	const char *w;
	size_t wl, i;
	char b[48];

	next_word(l, &w, &wl);
	for (i = 0; i < wl; i++)
		if (!isalnum((unsigned char)w[i]) && w[i] != '_')
			break;
	if (i < wl || wl > 40)
		return fail(l, PISA_E_INVAL, "unknown keyword '%s'", show(b, sizeof(b), w, wl));
	st->keyword = strndup(w, wl);
	if (!st->keyword)
		return nomem(l);
	for (i = 0; i < wl; i++)
		st->keyword[i] = (char)tolower((unsigned char)st->keyword[i]);
	st->prio = -1;
	if (!strcmp(st->keyword, "packet")) {
		st->kind = STF_PACKET;
		return parse_packet(l, st, 0);
	}
	if (!strcmp(st->keyword, "expect")) {
		st->kind = STF_EXPECT;
		return parse_packet(l, st, 1);
	}
	if (!strcmp(st->keyword, "add")) {
		st->kind = STF_ADD;
		return parse_add(l, st);
	}
	if (!strcmp(st->keyword, "setdefault")) {
		st->kind = STF_SETDEFAULT;
		return parse_setdefault(l, st);
	}
	for (i = 0; i < sizeof(cli_cmds) / sizeof(cli_cmds[0]); i++) {
		if (!strcmp(st->keyword, cli_cmds[i].name)) {
			st->kind = STF_CLI;
			return parse_cli(l, st, cli_cmds[i].min_args);
		}
	}
	for (i = 0; i < sizeof(ignored_cmds) / sizeof(ignored_cmds[0]); i++) {
		if (!strcmp(st->keyword, ignored_cmds[i])) {
			st->kind = STF_IGNORED;
			return 0;
		}
	}
	if (!strcmp(st->keyword, "no_packet"))
		return fail(l, PISA_E_INVAL, "no_packet is not supported (bmv2stf cannot run it); list the expected packets instead");
	return fail(l, PISA_E_INVAL, "unknown keyword '%s'", st->keyword);
}

static void stmt_free(struct stf_stmt *st)
{
	size_t i;

	free(st->keyword);
	free(st->data);
	free(st->table);
	for (i = 0; i < st->nmatch; i++) {
		free(st->match[i].key);
		free(st->match[i].value);
		free(st->match[i].plen);
	}
	free(st->match);
	free(st->action);
	for (i = 0; i < st->nargs; i++) {
		free(st->args[i].name);
		free(st->args[i].value);
	}
	free(st->args);
	free(st->cli);
}

void stf_file_free(struct stf_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		stmt_free(&f->s[i]);
	free(f->s);
	f->s = NULL;
	f->n = 0;
}

/* '#' starts a comment anywhere outside a quoted name. (p4c's lexer has no
 * comments inside packet data; accepting them there is harmless, since '#'
 * can never be data.) */
static const char *comment_start(const char *p, const char *end)
{
	int quoted = 0;

	for (; p < end; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '#' && !quoted)
			return p;
	}
	return end;
}

int stf_parse(const char *text, size_t len, struct stf_file *out, char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	struct stf_stmt *s;
	size_t cap = 0;
	struct line l;
	int no = 0, r;

	out->n = 0;
	out->s = NULL;
	if (errlen)
		err[0] = '\0';
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		no++;
		l.p = p;
		l.end = comment_start(p, nl);
		l.no = no;
		l.err = err;
		l.errlen = errlen;
		p = nl < end ? nl + 1 : end;
		skip_ws(&l);
		if (l.p >= l.end)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			s = realloc(out->s, cap * sizeof(*s));
			if (!s) {
				r = nomem(&l);
				goto fail;
			}
			out->s = s;
		}
		s = &out->s[out->n++];
		memset(s, 0, sizeof(*s));
		s->line = no;
		r = parse_line(&l, s);
		if (r < 0)
			goto fail;
	}
	return 0;
fail:
	stf_file_free(out);
	return r;
}
