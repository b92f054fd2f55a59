/* SPDX-License-Identifier: MIT */
/* p4lower: the pass list of the front end, in one function. */
#include "ast.h"

int p4_frontend(const struct p4_src *src, enum p4_stage dump, FILE *dumpf, struct p4_node **out)
{
	jmp_buf bail;
	struct p4_tokens toks;
	struct p4_node *prog;

	if (out)
		*out = NULL;
	p4_diag.errors = 0;
	p4_diag.bail = &bail;
	if (setjmp(bail)) {
		p4_diag.bail = NULL;
		return 1;
	}
	if (p4_lex(src, &toks) < 0)
		goto fail;
	if (src->original_columns)
		p4_fix_columns(&toks);
	if (dump == ST_TOKENS) {
		p4_dump_tokens(dumpf, &toks);
		goto done;
	}
	prog = p4_parse(&toks);
	if (!prog || p4_diag.errors)
		goto fail;
	if (dump == ST_AST) {
		p4_dump_ast(dumpf, prog, 0);
		goto done;
	}
	if (p4_check(prog) < 0 || p4_diag.errors)
		goto fail;
	if (dump == ST_CHECKED)
		p4_dump_ast(dumpf, prog, 1);
	if (out)
		*out = prog;
done:
	p4_diag.bail = NULL;
	return 0;
fail:
	p4_diag.bail = NULL;
	return 1;
}
