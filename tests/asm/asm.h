/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm.h: shared pieces of pisa-asm (lexer, diagnostics, allocation).
 * The language is documented in tests/asm/README.md.
 */
#ifndef PISA_ASM_H
#define PISA_ASM_H

#include <stddef.h>
#include <stdint.h>

enum tok_kind { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *s;		/* identifier, string contents or punctuation */
	uint64_t num;		/* T_NUM */
	int line, col;
};

struct toks {
	struct tok *v;
	size_t n;
};

/* Diagnostics: print "file:line:col: error: ..." with the source line and a caret, exit 1. */
void asm_set_source(const char *file, const char *src, size_t len);
__attribute__((noreturn, format(printf, 3, 4)))
void asm_die(int line, int col, const char *fmt, ...);
__attribute__((noreturn, format(printf, 2, 3)))
void asm_die_tok(const struct tok *t, const char *fmt, ...);
const char *asm_tokdesc(const struct tok *t);

/* Allocation that never returns NULL (the assembler exits on no memory). */
void *asm_alloc(size_t n);
void *asm_grow(void *p, size_t *cap, size_t need, size_t elem);
char *asm_strdup(const char *s);
__attribute__((format(printf, 1, 2)))
char *asm_fmt(const char *fmt, ...);

/* Splits src into tokens; the last one is T_EOF. */
void asm_lex(const char *src, size_t len, struct toks *out);

#endif
