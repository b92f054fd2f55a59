/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_alu_vectors: random vectors for the RTL ALU (hw/rtl/pisa_alu.v) with the results
 * pisa-model's instruction engine (model_exec) computes for them. Fixed seed; every opcode
 * NOP .. MAX, signed and unsigned, widths 1..64 with the edges 1, 7, 8, 31, 32, 63, 64 often,
 * carry in 0 and 1 (a preceding ADD sets the carry to 1).
 *
 *   gen_alu_vectors OUT.hex [COUNT]
 *
 * One vector per line, 64 hex digits (256 bits, MSB first):
 *   [255:248] op  [247:240] flags (bit 0 signed, bit 1 carry in)
 *   [239:232] a width  [231:224] b width  [223:216] dst width
 *   [215:208] expected carry out  [207:200] expected write (1 for SET .. MAX)  [199:192] 0
 *   [191:128] a (random bits above its width too)  [127:64] b  [63:0] expected result
 * The last line has op 0xFF and ends the list.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../model/build.h"
#include "../../model/model_int.h"

#define DST 0		/* destination field at PHV bit 0 */
#define SCRATCH 512	/* the carry-setting ADD writes here */

static uint64_t rs = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545F4914F6CDD1Dull;
}

static unsigned rwidth(void)
{
	static const unsigned edges[] = { 1, 7, 8, 31, 32, 63, 64 };

	if (rnd() % 2)
		return edges[rnd() % 7];
	return 1 + (unsigned)(rnd() % 64);
}

/* A w-bit operand value, with random bits above w (the ALU must ignore them). */
static uint64_t rvalue(unsigned w, int shift_count)
{
	uint64_t m = model_mask(w), junk = rnd() & ~m, v;

	switch (rnd() % 8) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = m; break;			/* all ones, -1 signed */
	case 3: v = UINT64_C(1) << (w - 1); break;	/* most negative */
	case 4: v = m >> 1; break;		/* most positive */
	case 5: v = rnd() % 72; break;		/* small: shift counts around the widths */
	default: v = rnd(); break;
	}
	if (shift_count && rnd() % 2)
		v = rnd() % 72;
	return (v & m) | junk;
}

int main(int argc, char **argv)
{
	struct pisa_image *img;
	struct pisa_model *m;
	static uint8_t phv[128 + MODEL_SLACK];
	unsigned long count = 12000, i;
	FILE *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gen_alu_vectors OUT.hex [COUNT]\n");
		return 2;
	}
	if (argc == 3)
		count = strtoul(argv[2], NULL, 0);
	img = tb_image(128);
	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_alu_vectors: pisa_model_new failed\n");
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < count; i++) {
		unsigned op = (unsigned)(i % (PISA_MAX + 1));	/* every opcode as often */
		int sgn = (int)(rnd() % 2), cin = (int)(rnd() % 2);
		unsigned aw = rwidth(), bw = rwidth(), dw = rwidth();
		int shift = op == PISA_SHL || op == PISA_SHR;
		uint64_t a = rvalue(aw, 0), b = rvalue(bw, shift), res;
		struct pisa_insn ins[2];
		struct exec_ctx c = { .phv = phv, .table = -1, .hit_row = MODEL_NO_ROW };
		unsigned n = 0;
		int rc;

		memset(phv, 0, sizeof(phv));
		if (cin)	/* 1 + 1 at width 1: carry := 1 */
			ins[n++] = INS(PISA_ADD, 0, PHV(SCRATCH, 1), K(1, 1), K(1, 1));
		ins[n] = INS(op, 0, PHV(DST, dw), K(a, aw), K(b, bw));
		if (sgn)
			ins[n].flags = PISA_INSN_SIGNED;
		n++;
		rc = model_exec(m, &c, ins, n);
		if (rc != EXEC_OK) {
			fprintf(stderr, "gen_alu_vectors: model_exec returned %d\n", rc);
			return 1;
		}
		res = pisa_bits_get(phv, DST, dw);
		fprintf(f, "%02x%02x%02x%02x%02x%02x%02x00%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "\n",
			op, (unsigned)(sgn | cin << 1), aw, bw, dw, (unsigned)c.carry,
			op != PISA_NOP ? 1u : 0u, a, b, res);
	}
	fprintf(f, "ff%062x\n", 0);
	if (fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	pisa_model_free(m);
	tb_done();
	printf("gen_alu_vectors: %lu vectors in %s\n", count, argv[1]);
	return 0;
}
