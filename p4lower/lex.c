/* SPDX-License-Identifier: MIT */
/* p4lower: hand-written lexer over the preprocessed text; follows cpp line markers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"

static const struct {
	const char *s;
	enum p4_tok k;
} keywords[] = {
	{ "abstract", K_ABSTRACT }, { "action", K_ACTION }, { "actions", K_ACTIONS },
	{ "apply", K_APPLY }, { "bool", K_BOOL }, { "bit", K_BIT }, { "break", K_BREAK },
	{ "const", K_CONST }, { "continue", K_CONTINUE }, { "control", K_CONTROL },
	{ "default", K_DEFAULT }, { "else", K_ELSE }, { "entries", K_ENTRIES },
	{ "enum", K_ENUM }, { "error", K_ERROR }, { "exit", K_EXIT }, { "extern", K_EXTERN },
	{ "false", K_FALSE }, { "for", K_FOR }, { "header", K_HEADER },
	{ "header_union", K_HEADER_UNION }, { "if", K_IF }, { "in", K_IN },
	{ "inout", K_INOUT }, { "int", K_INT }, { "key", K_KEY }, { "list", K_LIST },
	{ "match_kind", K_MATCH_KIND }, { "out", K_OUT }, { "package", K_PACKAGE },
	{ "parser", K_PARSER }, { "priority", K_PRIORITY }, { "return", K_RETURN },
	{ "select", K_SELECT }, { "state", K_STATE }, { "string", K_STRING },
	{ "struct", K_STRUCT }, { "switch", K_SWITCH }, { "table", K_TABLE },
	{ "this", K_THIS }, { "transition", K_TRANSITION }, { "true", K_TRUE },
	{ "tuple", K_TUPLE }, { "type", K_TYPE }, { "typedef", K_TYPEDEF },
	{ "value_set", K_VALUE_SET }, { "varbit", K_VARBIT }, { "void", K_VOID },
	{ "_", K_DONTCARE },
};

static const char *const tok_names[T_NTOKS] = {
	[T_EOF] = "end of file", [T_IDENT] = "identifier", [T_INT] = "integer",
	[T_STRING] = "string",
	[P_LBRACE] = "{", [P_RBRACE] = "}", [P_LPAREN] = "(", [P_RPAREN] = ")",
	[P_LBRACK] = "[", [P_RBRACK] = "]", [P_LT] = "<", [P_GT] = ">", [P_LE] = "<=",
	[P_GE] = ">=", [P_EQ] = "==", [P_NE] = "!=", [P_SEMI] = ";", [P_COMMA] = ",",
	[P_DOT] = ".", [P_COLON] = ":", [P_QUESTION] = "?", [P_PLUS] = "+",
	[P_MINUS] = "-", [P_STAR] = "*", [P_SLASH] = "/", [P_PERCENT] = "%",
	[P_AMP] = "&", [P_PIPE] = "|", [P_CARET] = "^", [P_TILDE] = "~", [P_NOT] = "!",
	[P_ANDAND] = "&&", [P_OROR] = "||", [P_MASK] = "&&&", [P_PP] = "++",
	[P_SATADD] = "|+|", [P_SATSUB] = "|-|", [P_SHL] = "<<", [P_ASSIGN] = "=",
	[P_AT] = "@", [P_RANGE] = "..", [P_HASH] = "#",
};

const char *p4_tok_name(enum p4_tok k)
{
	size_t i;

	if (k < T_NTOKS && tok_names[k])
		return tok_names[k];
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (keywords[i].k == k)
			return keywords[i].s;
	return "?";
}

/* Longest first, so `&&&` wins over `&&` and `&`. */
static const struct {
	const char *s;
	enum p4_tok k;
} puncts[] = {
	{ "&&&", P_MASK }, { "|+|", P_SATADD }, { "|-|", P_SATSUB },
	{ "<=", P_LE }, { ">=", P_GE }, { "==", P_EQ }, { "!=", P_NE },
	{ "&&", P_ANDAND }, { "||", P_OROR }, { "++", P_PP }, { "<<", P_SHL },
	{ "..", P_RANGE },
	{ "{", P_LBRACE }, { "}", P_RBRACE }, { "(", P_LPAREN }, { ")", P_RPAREN },
	{ "[", P_LBRACK }, { "]", P_RBRACK }, { "<", P_LT }, { ">", P_GT },
	{ ";", P_SEMI }, { ",", P_COMMA }, { ".", P_DOT }, { ":", P_COLON },
	{ "?", P_QUESTION }, { "+", P_PLUS }, { "-", P_MINUS }, { "*", P_STAR },
	{ "/", P_SLASH }, { "%", P_PERCENT }, { "&", P_AMP }, { "|", P_PIPE },
	{ "^", P_CARET }, { "~", P_TILDE }, { "!", P_NOT }, { "=", P_ASSIGN },
	{ "@", P_AT }, { "#", P_HASH },
};

struct lexer {
	const char *p, *end;
	const char *linep;
	const char *file;
	int line;
	struct p4_tokens *out;
	int cap;
};

static struct p4_loc here(struct lexer *lx, const char *p)
{
	struct p4_loc l = { lx->file, lx->line, (int)(p - lx->linep) + 1, lx->linep };

	return l;
}

static struct p4_token *push(struct lexer *lx, enum p4_tok k, const char *start)
{
	struct p4_tokens *o = lx->out;

	if (o->n == lx->cap) {
		int cap = lx->cap ? lx->cap * 2 : 1024;
		struct p4_token *v = p4_alloc(sizeof(*v) * cap);

		if (o->n)
			memcpy(v, o->v, sizeof(*v) * o->n);
		o->v = v;
		lx->cap = cap;
	}
	struct p4_token *t = &o->v[o->n++];

	memset(t, 0, sizeof(*t));
	t->kind = k;
	t->loc = here(lx, start);
	t->text = start;
	t->width = -1;
	return t;
}

static void newline(struct lexer *lx, const char *after)
{
	lx->line++;
	lx->linep = after;
}

/* `# 12 "file" flags` or `#line 12 "file"` at the start of a line. Returns 1 if handled. */
static int line_marker(struct lexer *lx)
{
	const char *p = lx->p + 1, *e = lx->end;
	long n = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p >= 4 && !strncmp(p, "line", 4))
		p += 4;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= e || !isdigit((unsigned char)*p)) {
		/* #pragma and friends: not P4, skip the whole line */
		if (p < e && isalpha((unsigned char)*p)) {
			while (lx->p < e && *lx->p != '\n')
				lx->p++;
			return 1;
		}
		return 0;
	}
	while (p < e && isdigit((unsigned char)*p) && n < 100000000)
		n = n * 10 + (*p++ - '0');
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '"') {
		const char *s = ++p;

		while (p < e && *p != '"' && *p != '\n')
			p++;
		lx->file = p4_strndup(s, p - s);
	}
	while (p < e && *p != '\n')
		p++;
	/* the marker names the line that follows it */
	lx->p = p;
	lx->line = (int)n - 1;
	return 1;
}

static int digit_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Reads digits in `base` (underscores allowed); 0 on overflow past 128 bits. */
static int read_digits(struct lexer *lx, int base, p4_uint *v, int *ndig)
{
	p4_uint acc = 0;
	int ok = 1;

	*ndig = 0;
	while (lx->p < lx->end) {
		int c = *lx->p;

		if (c == '_') {
			lx->p++;
			continue;
		}
		int d = digit_val(c);

		if (d >= base)
			break;
		if (acc > (~(p4_uint)0 - d) / base)
			ok = 0;
		acc = acc * base + d;
		(*ndig)++;
		lx->p++;
	}
	*v = acc;
	return ok;
}

static int read_base(struct lexer *lx)
{
	if (lx->end - lx->p >= 2 && lx->p[0] == '0') {
		switch (lx->p[1]) {
		case 'x': case 'X': lx->p += 2; return 16;
		case 'b': case 'B': lx->p += 2; return 2;
		case 'o': case 'O': lx->p += 2; return 8;
		case 'd': case 'D': lx->p += 2; return 10;
		}
	}
	return 10;
}

static void lex_number(struct lexer *lx)
{
	const char *start = lx->p;
	struct p4_token *t = push(lx, T_INT, start);
	p4_uint v;
	int nd, ok;
	int base = read_base(lx);

	ok = read_digits(lx, base, &v, &nd);
	if (base == 10 && lx->p < lx->end && (*lx->p == 'w' || *lx->p == 's') && lx->p + 1 < lx->end &&
	    isalnum((unsigned char)lx->p[1])) {
		/* width prefix: 8w5, 16s0x10 */
		if (!ok || v == 0 || v > 65536) {
			p4_error(t->loc, "invalid width in integer literal");
			v = 32;
		}
		t->width = (int)v;
		t->is_signed = *lx->p == 's';
		lx->p++;
		base = read_base(lx);
		ok = read_digits(lx, base, &v, &nd);
	}
	t->base = base;
	if (nd == 0)
		p4_error(t->loc, "integer literal has no digits");
	if (!ok || (t->width < 0 && v > ((~(p4_uint)0) >> 1)))
		p4_error(t->loc, "integer literal too large (constants are limited to 128 bits)");
	t->value = (p4_int)v;
	while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '_')) {
		p4_error(here(lx, lx->p), "invalid character '%c' in integer literal", *lx->p);
		while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '_'))
			lx->p++;
	}
	t->len = (int)(lx->p - start);
}

int p4_lex(const struct p4_src *src, struct p4_tokens *out)
{
	struct lexer lx = { src->text, src->text + src->len, src->text, src->name, 1, out, 0 };
	int errs = p4_diag.errors;
	int at_bol = 1;
	size_t i;

	out->v = NULL;
	out->n = 0;
	while (lx.p < lx.end) {
		const char *s = lx.p;
		int c = (unsigned char)*s;

		if (c == '\n') {
			lx.p++;
			newline(&lx, lx.p);
			at_bol = 1;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx.p++;
			continue;
		}
		if (c == '#' && at_bol && line_marker(&lx))
			continue;
		at_bol = 0;
		if (c == '/' && s + 1 < lx.end && s[1] == '/') {
			while (lx.p < lx.end && *lx.p != '\n')
				lx.p++;
			continue;
		}
		if (c == '/' && s + 1 < lx.end && s[1] == '*') {
			struct p4_loc l = here(&lx, s);

			lx.p += 2;
			while (lx.p < lx.end && !(lx.p[0] == '*' && lx.p + 1 < lx.end && lx.p[1] == '/')) {
				if (*lx.p == '\n')
					newline(&lx, lx.p + 1);
				lx.p++;
			}
			if (lx.p >= lx.end) {
				p4_error(l, "unterminated comment");
				break;
			}
			lx.p += 2;
			continue;
		}
		/* only `>>` cares: is the previous byte the `>` before this one? */
		int spaced = s == src->text || s[-1] != '>';

		if (isalpha(c) || c == '_') {
			while (lx.p < lx.end && (isalnum((unsigned char)*lx.p) || *lx.p == '_'))
				lx.p++;
			struct p4_token *t = push(&lx, T_IDENT, s);

			t->len = (int)(lx.p - s);
			t->space_before = spaced;
			for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
				if ((int)strlen(keywords[i].s) == t->len &&
				    !memcmp(keywords[i].s, s, t->len)) {
					t->kind = keywords[i].k;
					break;
				}
			t->text = p4_strndup(s, t->len);
			continue;
		}
		if (isdigit(c)) {
			lex_number(&lx);
			out->v[out->n - 1].space_before = spaced;
			continue;
		}
		if (c == '"') {
			struct p4_token *t = push(&lx, T_STRING, s);

			lx.p++;
			while (lx.p < lx.end && *lx.p != '"' && *lx.p != '\n') {
				if (*lx.p == '\\' && lx.p + 1 < lx.end && lx.p[1] != '\n')
					lx.p++;
				lx.p++;
			}
			if (lx.p >= lx.end || *lx.p != '"') {
				p4_error(t->loc, "unterminated string literal");
				t->text = p4_strndup(s + 1, lx.p - s - 1);
				t->len = (int)(lx.p - s);
				continue;
			}
			t->text = p4_strndup(s + 1, lx.p - s - 1);
			lx.p++;
			t->len = (int)(lx.p - s);
			t->space_before = spaced;
			continue;
		}
		for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
			size_t n = strlen(puncts[i].s);

			if ((size_t)(lx.end - s) >= n && !memcmp(puncts[i].s, s, n))
				break;
		}
		if (i == sizeof(puncts) / sizeof(puncts[0])) {
			if (isprint(c))
				p4_error(here(&lx, s), "unexpected character '%c'", c);
			else
				p4_error(here(&lx, s), "unexpected byte 0x%02x", c);
			lx.p++;
			continue;
		}
		struct p4_token *t = push(&lx, puncts[i].k, s);

		t->len = (int)strlen(puncts[i].s);
		t->space_before = spaced;
		lx.p += t->len;
	}
	struct p4_token *t = push(&lx, T_EOF, lx.p);

	t->text = "";
	return p4_diag.errors > errs ? -1 : 0;
}
