/* SPDX-License-Identifier: MIT */
/*
 * p4lower: libFuzzer-compatible entry point for the front end. Inputs are
 * preprocessed P4 text (what cpp would hand over, line markers included), so
 * the corpus holds ok programs with core.p4 and v1model.p4 already inlined.
 * Link with fuzz_main.c for replay and mutation without clang, or with
 * -fsanitize=fuzzer for libFuzzer.
 */
#include <string.h>
#include "ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct p4_src src;
	char *text;

	if (!sink)
		sink = fopen("/dev/null", "w");
	text = p4_alloc(size + 1);
	memcpy(text, data, size);
	src.name = "fuzz.p4";
	src.text = text;
	src.len = size;
	/* messages are formatted (that code runs too) but thrown away */
	p4_diag.out = sink;
	p4_frontend(&src, ST_CHECKED, sink, NULL);
	p4_arena_free();
	return 0;
}
