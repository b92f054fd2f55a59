/* SPDX-License-Identifier: MIT */
/* p4lower: stable text dumps of the tokens and of the (checked) AST, for golden tests. */
#include <stdlib.h>
#include <string.h>
#include "ast.h"

static int from_include(const struct p4_loc *l)
{
	/* the standard includes are the same for every program: leave them out */
	return l->file && strstr(l->file, "p4include/");
}

void p4_dump_tokens(FILE *f, const struct p4_tokens *toks)
{
	int i;

	for (i = 0; i < toks->n; i++) {
		const struct p4_token *t = &toks->v[i];

		if (from_include(&t->loc))
			continue;
		fprintf(f, "%s:%d:%d ", t->loc.file ? t->loc.file : "<input>", t->loc.line, t->loc.col);
		switch (t->kind) {
		case T_IDENT:
			fprintf(f, "ident %s\n", t->text);
			break;
		case T_INT:
			fprintf(f, "int %.*s\n", t->len, t->text);
			break;
		case T_STRING:
			fprintf(f, "string \"%s\"\n", t->text);
			break;
		case T_EOF:
			fprintf(f, "eof\n");
			break;
		default:
			if (t->kind >= K_ABSTRACT && t->kind <= K_DONTCARE)
				fprintf(f, "keyword %s\n", p4_tok_name(t->kind));
			else
				fprintf(f, "punct %s\n", p4_tok_name(t->kind));
		}
	}
}

static void put_int(FILE *f, p4_int v)
{
	char buf[64];
	int i = sizeof(buf) - 1, neg = v < 0;
	p4_uint u = neg ? -(p4_uint)v : (p4_uint)v;

	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (neg)
		buf[--i] = '-';
	fputs(buf + i, f);
}

/* A folded value as its type reads it: bit<N> unsigned, bool as true/false. */
static void put_val(FILE *f, p4_int v, const struct p4_type *t)
{
	char buf[64];
	int i = sizeof(buf) - 1;
	p4_uint u = (p4_uint)v;

	if (t && t->kind == TY_BOOL) {
		fputs(v ? "true" : "false", f);
		return;
	}
	if (!t || t->kind != TY_BIT) {
		put_int(f, v);
		return;
	}
	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	fputs(buf + i, f);
}

static void tnode(FILE *f, const struct p4_node *t);

static void tnode_list(FILE *f, const struct p4_node *l)
{
	for (; l; l = l->next) {
		tnode(f, l);
		if (l->next)
			fputs(", ", f);
	}
}

static void width(FILE *f, const struct p4_node *w)
{
	if (!w)
		return;
	if (w->kind == N_INTLIT)
		put_int(f, w->ival);
	else if (w->kind == N_NAME)
		fputs(w->name, f);
	else
		fputs("(expr)", f);
}

/* A syntactic type, written as in the source. */
static void tnode(FILE *f, const struct p4_node *t)
{
	switch (t->kind) {
	case N_TBIT: fputs("bit", f); if (t->k[0]) { fputc('<', f); width(f, t->k[0]); fputc('>', f); } break;
	case N_TINT: fputs("int<", f); width(f, t->k[0]); fputc('>', f); break;
	case N_TVARBIT: fputs("varbit<", f); width(f, t->k[0]); fputc('>', f); break;
	case N_TINFINT: fputs("int", f); break;
	case N_TBOOL: fputs("bool", f); break;
	case N_TSTRING: fputs("string", f); break;
	case N_TERROR: fputs("error", f); break;
	case N_TMATCHKIND: fputs("match_kind", f); break;
	case N_TVOID: fputs("void", f); break;
	case N_TDONTCARE: fputs("_", f); break;
	case N_TNAME: fputs(t->name, f); break;
	case N_TSPEC: fprintf(f, "%s<", t->name); tnode_list(f, t->list2); fputc('>', f); break;
	case N_TSTACK: tnode(f, t->k[0]); fputc('[', f); width(f, t->k[1]); fputc(']', f); break;
	case N_TTUPLE: fputs("tuple<", f); tnode_list(f, t->list); fputc('>', f); break;
	case N_TLIST: fputs("list<", f); tnode_list(f, t->list); fputc('>', f); break;
	default: fputs("?", f); break;
	}
}

static int type_in_k0(enum p4_nkind k)
{
	switch (k) {
	case N_CONST: case N_TYPEDEF: case N_NEWTYPE: case N_FIELD: case N_ENUM: case N_METHOD:
	case N_EXTERN_FUNC: case N_FUNCTION: case N_INSTANCE: case N_VARDECL: case N_PARAM:
	case N_VALUESET: case N_CAST: case N_TYPEEXPR:
		return 1;
	default:
		return 0;
	}
}

static const char *op_str(int op)
{
	if (op == T_NTOKS)
		return ">>";
	return p4_tok_name((enum p4_tok)op);
}

static void node(FILE *f, const struct p4_node *n, int depth, int checked);

static void nodes(FILE *f, const struct p4_node *l, int depth, int checked)
{
	for (; l; l = l->next)
		node(f, l, depth, checked);
}

static const char *const dir_names[] = { "", "in ", "out ", "inout " };

static void node(FILE *f, const struct p4_node *n, int depth, int checked)
{
	int i, is_decl = n->kind < N_TBIT;

	fprintf(f, "%*s%s", depth * 2, "", p4_nkind_name(n->kind));
	if (n->kind == N_PARAM)
		fprintf(f, " %s", dir_names[n->op & 3]);
	else
		fputc(' ', f);
	if (type_in_k0(n->kind) && n->k[0]) {
		tnode(f, n->k[0]);
		fputc(' ', f);
	}
	if (n->kind >= N_TBIT && n->kind <= N_TMATCHKIND) {
		tnode(f, n);
		fputc(' ', f);
	}
	if (n->name)
		fprintf(f, "%s ", n->name);
	switch (n->kind) {
	case N_INTLIT:
		if (n->has_width)
			fprintf(f, "%d%c", n->width, n->is_signed ? 's' : 'w');
		if (n->has_width && !n->is_signed) {
			static const struct p4_type ubits = { .kind = TY_BIT };

			put_val(f, n->ival, &ubits);
		} else {
			put_int(f, n->ival);
		}
		fputc(' ', f);
		break;
	case N_BOOLLIT:
		fputs(n->ival ? "true " : "false ", f);
		break;
	case N_STRLIT:
		fprintf(f, "\"%s\" ", n->text);
		break;
	case N_ANNOT:
		if (n->text)
			fprintf(f, n->flags & NF_STRUCTURED ? "[%s] " : "(%s) ", n->text);
		break;
	case N_UNARY:
	case N_BINARY:
		fprintf(f, "%s ", op_str(n->op));
		break;
	case N_PROP:
		if (n->flags & (NF_CONST_ENTRIES | NF_DEFAULT_CONST))
			fputs("const ", f);
		break;
	case N_ENTRY:
		if (n->flags & NF_CONST_ENTRIES)
			fputs("const ", f);
		if (n->k[2] && n->k[2]->kind == N_INTLIT) {
			fputs("priority=", f);
			put_int(f, n->k[2]->ival);
			fputc(' ', f);
		}
		break;
	case N_METHOD:
		if (n->flags & NF_ABSTRACT)
			fputs("abstract ", f);
		break;
	default:
		break;
	}
	if ((n->kind == N_CALL || n->kind == N_TSPEC) && n->list2) {
		fputc('<', f);
		tnode_list(f, n->list2);
		fputs("> ", f);
	}
	if (checked && n->type && (n->kind >= N_INTLIT || n->kind == N_FIELD || n->kind == N_VARDECL ||
				   n->kind == N_PARAM || n->kind == N_CONST || n->kind == N_TYPEDEF ||
				   n->kind == N_KEYELEM))
		fprintf(f, ": %s ", p4_type_str(n->type));
	if (checked && n->is_const && n->kind >= N_INTLIT && n->kind != N_INTLIT) {
		fputs("= ", f);
		put_val(f, n->cval, n->type);
		fputc(' ', f);
	}
	if (checked && n->decl && n->kind == N_NAME)
		fprintf(f, "-> %s ", p4_nkind_name(n->decl->kind));
	if (checked && n->kind == N_CONST && n->is_const) {
		fputs("= ", f);
		put_val(f, n->cval, n->type);
		fputc(' ', f);
	}
	fputc('\n', f);
	nodes(f, n->annots, depth + 1, checked);
	if (is_decl) {
		if (n->kind != N_TSPEC)
			nodes(f, n->list2, depth + 1, checked);
		nodes(f, n->list, depth + 1, checked);
		nodes(f, n->list3, depth + 1, checked);
		nodes(f, n->list4, depth + 1, checked);
	}
	for (i = type_in_k0(n->kind) ? 1 : 0; i < 4; i++) {
		/* a literal entry priority is already on the entry's line */
		if (n->kind == N_ENTRY && i == 2 && n->k[2] && n->k[2]->kind == N_INTLIT)
			continue;
		if (n->k[i])
			node(f, n->k[i], depth + 1, checked);
	}
	if (!is_decl) {
		nodes(f, n->list, depth + 1, checked);
		if (n->kind != N_CALL)
			nodes(f, n->list2, depth + 1, checked);
	}
}

void p4_dump_ast(FILE *out, const struct p4_node *prog, int checked)
{
	const struct p4_node *d;
	char *buf = NULL, *p, *q;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	for (d = prog->list; d; d = d->next)
		if (!from_include(&d->loc))
			node(f, d, 0, checked);
	fclose(f);
	/* the node printer leaves a space after each item: drop it at line ends */
	for (p = q = buf; p < buf + len; p++) {
		if (*p == ' ' && (p + 1 == buf + len || p[1] == '\n'))
			continue;
		*q++ = *p;
	}
	fwrite(buf, 1, q - buf, out);
	free(buf);
}
