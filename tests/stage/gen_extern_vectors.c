/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_extern_vectors: COUNT, REG_READ and REG_WRITE one at a time on a stage's registers and
 * counters, for the testbench of hw/rtl/pisa_stage_externs.v, with what pisa-model's
 * instruction engine (model_exec) leaves: the value REG_READ gives and every cell. Fixed seed.
 *
 *   gen_extern_vectors OUT [CASES]
 *
 * CASES per section, 400 if left out. Usage errors exit 2, other failures 1.
 *
 * Output: hex numbers separated by white space (for $fscanf("%h")):
 *   nsections (6)
 *   per section:
 *     the layout block and the cells before (gen_stage_vectors' "ncells nregs ncounters" to
 *     the ncells words; gen_externs.h lays them out)
 *     ncases             then per case:
 *       op  imm  sgn  a  a_width  b  b_width  result  cell  value
 *     ncells words: the cells after the section's cases
 * op, imm and sgn are the instruction's (sgn its PISA_INSN_SIGNED flag); a, b and their widths
 * as pisa_action_unit gives them to the stage (x_a ..): the operand's bits right-aligned, zero
 * above the width; COUNT's b is the PHV's packet_length (32 bits), which the model counts.
 * result: REG_READ's value (the model writes it to a 64-bit PHV field), else 0. cell and value:
 * a random cell and its value after the instruction, to read through the control port.
 *
 * Each section is an image (tb_image(256), no tables) with gen_externs.h's registers and
 * counters and a model whose cells start random. Each case: one instruction, COUNT, REG_READ or
 * REG_WRITE alike, SIGNED half the time; imm an id 0 .. X_IDS (X_IDS is past the stage's) and 1
 * in 8 a random 16-bit one; a CONST of gen_insns.h's widths: half of them a small index (0 .. 7
 * cut to the width: at 1 to 3 bits negative when SIGNED and its top bit is set), half rvalue's
 * edge and random values (mostly out of range); b a CONST as rvalue draws it (SIGNED extends it
 * before REG_WRITE cuts it to the register's width); the PHV's packet_length random.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/build.h"
#include "../../model/model_int.h"
/* After the model's headers: its mask() would shadow their parameters named mask. */
#include "gen_common.h"
#include "gen_insns.h"
#include "gen_externs.h"

#define SECTIONS 6
#define PHV_BYTES 256
#define RESULT_BIT 1024		/* REG_READ's dst: 64 bits from PHV byte 128 */

static unsigned long ncases = 400;
static unsigned long n_op[3], n_changed, n_read_nonzero;

/* One section. Returns 0 or 1 (a failure, reported). */
static int section(FILE *f, unsigned s)
{
	static uint8_t phv[PHV_BYTES + MODEL_SLACK];
	uint8_t ad[8 + MODEL_SLACK];
	uint16_t vlen[1] = { 0 };
	struct pisa_image *img = tb_image(PHV_BYTES);
	struct pisa_model *m;
	uint64_t before[MAX_X_CELLS], after[MAX_X_CELLS];
	unsigned long c;
	int ret = 1;

	add_externs(img, -1);
	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_extern_vectors: section %u: pisa_model_new failed\n", s);
		goto out;
	}
	put_externs(f, m);
	fprintf(f, "%lx\n", ncases);
	memset(ad, 0, sizeof(ad));
	for (c = 0; c < ncases; c++) {
		struct exec_ctx x = { .phv = phv, .vlen = vlen, .adata = ad, .db = 0, .table = 0,
				      .hit_row = MODEL_NO_ROW };
		struct pisa_insn in;
		unsigned aw = rwidth(), bw = rwidth(), cell;
		uint64_t a, b, pktlen = rnd() & mask(32), result = 0;
		int rc;

		memset(&in, 0, sizeof(in));
		memset(phv, 0, sizeof(phv));
		in.op = (uint8_t)(PISA_COUNT + rnd() % 3);
		in.flags = rnd() % 2 ? PISA_INSN_SIGNED : 0;
		in.imm = (uint16_t)(rnd() % 8 ? rnd() % (X_IDS + 1) : rnd());
		a = (rnd() % 2 ? rnd() % 8 : rvalue(aw)) & mask(aw);
		b = rvalue(bw) & mask(bw);
		in.a = K(a, aw);
		in.b = K(b, bw);
		in.dst = PHV(RESULT_BIT, 64);
		pisa_bits_set(phv, PISA_SM_PACKET_LENGTH.bitoff, PISA_SM_PACKET_LENGTH.width, pktlen);

		cells(m, before, 0);
		rc = model_exec(m, &x, &in, 1);
		if (rc != EXEC_OK) {
			fprintf(stderr, "gen_extern_vectors: section %u case %lu: model_exec returned "
				"%d\n", s, c, rc);
			goto out;
		}
		cells(m, after, 0);
		if (in.op == PISA_REG_READ)
			result = pisa_bits_get(phv, RESULT_BIT, 64);
		n_op[in.op - PISA_COUNT]++;
		n_changed += memcmp(before, after, x_cells * sizeof(*after)) != 0;
		n_read_nonzero += result != 0;
		cell = (unsigned)(rnd() % x_cells);
		fprintf(f, "%x %x %x %" PRIx64 " %x %" PRIx64 " %x %" PRIx64 " %x %" PRIx64 "\n",
			in.op, in.imm, in.flags & PISA_INSN_SIGNED, a, aw,
			in.op == PISA_COUNT ? pktlen : b, in.op == PISA_COUNT ? 32 : bw, result, cell,
			after[cell]);
	}
	cells(m, after, 0);
	print_cells(f, after);
	ret = 0;
out:
	pisa_model_free(m);
	tb_done();
	return ret;
}

int main(int argc, char **argv)
{
	unsigned s;
	int ret = 0;
	FILE *f;

	if (argc < 2 || argc > 3 || (argc == 3 && (!parse(argv[2], &ncases) || ncases < 1 ||
						   ncases > 1000000))) {
		fprintf(stderr, "usage: gen_extern_vectors OUT [CASES]\n  CASES 1..1000000\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "%x\n", SECTIONS);
	for (s = 0; s < SECTIONS && !ret; s++)
		ret = section(f, s);
	if (fclose(f) && !ret) {
		perror(argv[1]);
		ret = 1;
	}
	if (!ret)
		printf("gen_extern_vectors: %d sections, %lu cases in %s (%lu COUNT, %lu REG_READ, "
		       "%lu REG_WRITE; %lu changed a cell, %lu read a value other than 0)\n",
		       SECTIONS, SECTIONS * ncases, argv[1], n_op[0], n_op[1], n_op[2], n_changed,
		       n_read_nonzero);
	return ret;
}
