/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lex.c: tokens and diagnostics for pisa-asm.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

static const char *g_file = "<input>";
static const char *g_src;
static size_t g_len;

void asm_set_source(const char *file, const char *src, size_t len)
{
	g_file = file;
	g_src = src;
	g_len = len;
}

/* Prints the offending source line and a caret under column col. */
static void show_line(int line, int col)
{
	size_t i = 0, end;
	int l = 1;

	if (!g_src || line < 1)
		return;
	while (i < g_len && l < line) {
		if (g_src[i] == '\n')
			l++;
		i++;
	}
	if (l != line)
		return;
	end = i;
	while (end < g_len && g_src[end] != '\n')
		end++;
	fputs("  ", stderr);
	for (size_t k = i; k < end; k++) {
		unsigned char c = (unsigned char)g_src[k];
		fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', stderr);
	}
	fputs("\n  ", stderr);
	for (int k = 1; k < col && i + (size_t)(k - 1) < end; k++)
		fputc(g_src[i + (size_t)(k - 1)] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

void asm_die(int line, int col, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d:%d: error: ", g_file, line, col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	show_line(line, col);
	exit(1);
}

void asm_die_tok(const struct tok *t, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	asm_die(t->line, t->col, "%s", msg);
}

const char *asm_tokdesc(const struct tok *t)
{
	static char buf[96];

	switch (t->kind) {
	case T_EOF:
		return "end of file";
	case T_STR:
		snprintf(buf, sizeof(buf), "string \"%.60s\"", t->s);
		return buf;
	default:
		snprintf(buf, sizeof(buf), "'%.60s'", t->s);
		return buf;
	}
}

/*
 * Every block stays listed in g_blocks until exit: the assembler is a
 * short-lived tool that exits from deep inside on the first error, and this
 * keeps all of its memory reachable (nothing for LeakSanitizer to report).
 */
static void **g_blocks;
static size_t g_nblocks, g_capblocks;

static void oom(void)
{
	fprintf(stderr, "pisa-asm: out of memory\n");
	exit(1);
}

void *asm_alloc(size_t n)
{
	void *p;

	if (g_nblocks == g_capblocks) {
		size_t ncap = g_capblocks ? g_capblocks * 2 : 256;
		void **nb = realloc(g_blocks, ncap * sizeof(*nb));

		if (!nb)
			oom();
		g_blocks = nb;
		g_capblocks = ncap;
	}
	p = calloc(1, n ? n : 1);
	if (!p)
		oom();
	g_blocks[g_nblocks++] = p;
	return p;
}

/* Makes room for need elements of elem bytes; new elements are zeroed. The old
 * block is left in place (see g_blocks). */
void *asm_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	char *q;

	if (need <= *cap)
		return p;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / elem)
		oom();
	q = asm_alloc(ncap * elem);
	if (p && *cap)
		memcpy(q, p, *cap * elem);
	*cap = ncap;
	return q;
}

char *asm_strdup(const char *s)
{
	size_t n = strlen(s);
	char *p = asm_alloc(n + 1);

	memcpy(p, s, n + 1);
	return p;
}

char *asm_fmt(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	p = asm_alloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static int is_id_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '@';
}

static int is_id_char(int c)
{
	return is_id_start(c) || (c >= '0' && c <= '9') || c == '.';
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

static char *substr(const char *p, size_t n)
{
	char *s = asm_alloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/*
 * Identifiers may contain dots ("MyIngress.ipv4_lpm") and a stack index
 * ("srcRoutes[2].port"): a '[' followed by digits and ']' stays in the name,
 * while "x[7:4]" (a slice) ends it before the '['.
 */
void asm_lex(const char *src, size_t len, struct toks *out)
{
	static const char *puncts[] = { "&&&", "->", "=>", "{", "}", "(", ")", ";", ",", ":", "=", "/",
					"[", "]" };
	size_t cap = 0, i = 0;
	int line = 1, col = 1;

	out->v = NULL;
	out->n = 0;
	for (;;) {
		struct tok t = { T_EOF, "", 0, 0, 0 };
		size_t start;

		/* whitespace and comments */
		while (i < len) {
			char c = src[i];

			if (c == '\n') {
				line++;
				col = 1;
				i++;
			} else if (c == ' ' || c == '\t' || c == '\r') {
				i++;
				col++;
			} else if (c == '#' || (c == '/' && i + 1 < len && src[i + 1] == '/')) {
				while (i < len && src[i] != '\n')
					i++;
			} else {
				break;
			}
		}
		t.line = line;
		t.col = col;
		if (i >= len) {
			out->v = asm_grow(out->v, &cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = t;
			return;
		}
		start = i;
		if (is_id_start((unsigned char)src[i])) {
			while (i < len) {
				if (is_id_char((unsigned char)src[i])) {
					i++;
				} else if (src[i] == '[') {
					size_t j = i + 1;

					while (j < len && src[j] >= '0' && src[j] <= '9')
						j++;
					if (j == i + 1 || j >= len || src[j] != ']')
						break;
					i = j + 1;
				} else {
					break;
				}
			}
			t.kind = T_IDENT;
			t.s = substr(src + start, i - start);
		} else if (src[i] >= '0' && src[i] <= '9') {
			unsigned base = 10;
			uint64_t v = 0;
			int ndig = 0;

			if (src[i] == '0' && i + 1 < len && (src[i + 1] == 'x' || src[i + 1] == 'X')) {
				base = 16;
				i += 2;
			} else if (src[i] == '0' && i + 1 < len &&
				   (src[i + 1] == 'b' || src[i + 1] == 'B')) {
				base = 2;
				i += 2;
			}
			while (i < len && (digit_val((unsigned char)src[i]) < 16 || src[i] == '_')) {
				int d = digit_val((unsigned char)src[i]);

				if (src[i] == '_') {
					i++;
					continue;
				}
				if ((unsigned)d >= base)
					asm_die(line, col, "bad digit '%c' in number", src[i]);
				if (v > (UINT64_MAX - (uint64_t)d) / base)
					asm_die(line, col, "number does not fit in 64 bits");
				v = v * base + (uint64_t)d;
				ndig++;
				i++;
			}
			if (ndig == 0)
				asm_die(line, col, "number has no digits");
			if (i < len && is_id_char((unsigned char)src[i]))
				asm_die(line, col, "bad character '%c' in number", src[i]);
			t.kind = T_NUM;
			t.num = v;
			t.s = substr(src + start, i - start);
		} else if (src[i] == '"') {
			i++;
			while (i < len && src[i] != '"' && src[i] != '\n')
				i++;
			if (i >= len || src[i] != '"')
				asm_die(line, col, "unterminated string");
			t.kind = T_STR;
			t.s = substr(src + start + 1, i - start - 1);
			i++;
		} else {
			size_t k;

			for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
				size_t n = strlen(puncts[k]);

				if (i + n <= len && memcmp(src + i, puncts[k], n) == 0)
					break;
			}
			if (k == sizeof(puncts) / sizeof(puncts[0])) {
				unsigned char c = (unsigned char)src[i];

				if (c >= 0x20 && c < 0x7f)
					asm_die(line, col, "unexpected character '%c'", c);
				asm_die(line, col, "unexpected byte 0x%02x", c);
			}
			t.kind = T_PUNCT;
			t.s = puncts[k];
			i += strlen(puncts[k]);
		}
		col += (int)(i - start);
		out->v = asm_grow(out->v, &cap, out->n + 1, sizeof(*out->v));
		out->v[out->n++] = t;
	}
}
