/* SPDX-License-Identifier: MIT */
/* p4lower: the arena and gcc-style diagnostics (file:line:col, source line, caret). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"

struct p4_diag p4_diag = { NULL, 0, P4_MAX_ERRORS, NULL };

/* Arena: a chain of big blocks; the front end never frees anything on its own. */
struct block {
	struct block *prev;
	size_t used, cap;
	max_align_t data[];
};

static struct block *arena;

void *p4_alloc(size_t n)
{
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!arena || arena->used + n > arena->cap) {
		size_t cap = n > (1u << 20) ? n : (1u << 20);
		struct block *b = malloc(sizeof(*b) + cap);

		if (!b) {
			fputs("p4lower: out of memory\n", stderr);
			abort();
		}
		b->prev = arena;
		b->used = 0;
		b->cap = cap;
		arena = b;
	}
	void *p = (char *)arena->data + arena->used;

	arena->used += n;
	memset(p, 0, n);
	return p;
}

char *p4_strndup(const char *s, size_t n)
{
	char *p = p4_alloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *p4_strdup(const char *s)
{
	return p4_strndup(s, strlen(s));
}

void p4_arena_free(void)
{
	while (arena) {
		struct block *b = arena->prev;

		free(arena);
		arena = b;
	}
}

static void show_line(FILE *f, struct p4_loc loc)
{
	const char *p = loc.linep, *e;
	int i;

	if (!p)
		return;
	for (e = p; *e && *e != '\n'; e++)
		;
	if (e == p)
		return;	/* at the end of the file: nothing to show */
	fprintf(f, "%.*s\n", (int)(e - p), p);
	/* keep tabs so the caret lines up under the column in any tab setting */
	for (i = 1; i < loc.col && p + i - 1 < e; i++)
		fputc(p[i - 1] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

static void vreport(const char *what, struct p4_loc loc, const char *fmt, va_list ap)
{
	FILE *f = p4_diag.out;

	if (!f)
		return;
	fprintf(f, "%s:%d:%d: %s: ", loc.file ? loc.file : "<input>", loc.line, loc.col, what);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	show_line(f, loc);
}

void p4_error(struct p4_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error", loc, fmt, ap);
	va_end(ap);
	if (++p4_diag.errors >= p4_diag.max_errors && p4_diag.bail) {
		if (p4_diag.out)
			fprintf(p4_diag.out, "p4lower: too many errors, stopping\n");
		longjmp(*p4_diag.bail, 1);
	}
}

void p4_note(struct p4_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note", loc, fmt, ap);
	va_end(ap);
}

/*
 * cpp collapses runs of blanks and drops comments, so columns counted in its
 * output are not the columns of the source. Each token is looked up again in
 * the line of the file cpp read (line markers give file and line), left to
 * right; tokens that came from a macro expansion are not found and keep the
 * column after the previous token. Errors then show the real source line.
 */
struct srcfile {
	const char *name;
	char *text;		/* NUL-terminated contents, NULL if unreadable */
	const char **lines;	/* start of each line, 1-based */
	int nlines;
};

#define MAX_SRCFILES 64

static struct srcfile *load_file(struct srcfile *files, int *nfiles, const char *name)
{
	struct srcfile *f;
	FILE *fp;
	long n;
	int i;

	for (i = 0; i < *nfiles; i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	if (*nfiles == MAX_SRCFILES)
		return NULL;
	f = &files[(*nfiles)++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	fp = fopen(name, "rb");
	if (!fp)
		return f;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && n < (64L << 20) &&
	    fseek(fp, 0, SEEK_SET) == 0) {
		f->text = p4_alloc((size_t)n + 1);
		if (fread(f->text, 1, (size_t)n, fp) != (size_t)n) {
			f->text = NULL;
		} else {
			char *p;
			int k = 1;

			f->text[n] = 0;
			for (p = f->text; *p; p++)
				if (*p == '\n')
					k++;
			f->lines = p4_alloc(sizeof(*f->lines) * (k + 1));
			f->lines[1] = f->text;
			for (p = f->text, k = 1; *p; p++)
				if (*p == '\n')
					f->lines[++k] = p + 1;
			f->nlines = k;
		}
	}
	fclose(fp);
	return f;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A name or number must not match inside a longer word (`9` in `hop9`). */
static int whole_word(const char *line, size_t j, size_t len)
{
	if (!word_char(line[j]))
		return 1;
	return (j == 0 || !word_char(line[j - 1])) && !word_char(line[j + len]);
}

void p4_fix_columns(struct p4_tokens *toks)
{
	struct srcfile files[MAX_SRCFILES];
	int nfiles = 0, i, cur_line = -1;
	const char *cur_file = NULL, *line = NULL;
	size_t cursor = 0;

	for (i = 0; i < toks->n; i++) {
		struct p4_token *t = &toks->v[i];
		const char *raw = t->loc.linep + t->loc.col - 1;
		size_t j, len = (size_t)t->len;

		if (!t->loc.file)
			continue;
		if (t->loc.file != cur_file || t->loc.line != cur_line) {
			struct srcfile *f = load_file(files, &nfiles, t->loc.file);

			cur_file = t->loc.file;
			cur_line = t->loc.line;
			cursor = 0;
			line = f && f->text && cur_line >= 1 && cur_line <= f->nlines ? f->lines[cur_line] : NULL;
		}
		if (!line)
			continue;
		for (j = cursor; line[j] && line[j] != '\n'; j++) {
			if (line[j] == '/' && line[j + 1] == '/')
				break;
			if (line[j] == '/' && line[j + 1] == '*') {
				for (j += 2; line[j] && line[j] != '\n' && !(line[j] == '*' && line[j + 1] == '/'); j++)
					;
				if (!line[j] || line[j] == '\n')
					break;
				j++;
				continue;
			}
			if (len && !strncmp(line + j, raw, len) && whole_word(line, j, len))
				break;
		}
		t->loc.linep = line;
		if (len && line[j] && line[j] != '\n' && !strncmp(line + j, raw, len)) {
			t->loc.col = (int)j + 1;
			cursor = j + len;
		} else {
			t->loc.col = (int)cursor + 1;
		}
	}
}
