/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_action_vectors: random action instruction lists, PHVs and action data for the testbench
 * of hw/rtl/pisa_action_unit.v, with the PHV that pisa-model's instruction engine (model_exec,
 * model/model_exec.c) leaves after running each list, and whether it exited. Fixed seed.
 *
 *   gen_action_vectors OUT.hex PHV_BYTES DATA_BYTES [COUNT]
 *
 * PHV_BYTES a power of 2, 128..1024; DATA_BYTES 1..32 (a row's action data); COUNT cases,
 * 3000 if left out. Usage errors exit 2, other failures 1.
 *
 * One 64-bit word per line, 16 hex digits (for $readmemh into reg [63:0]). Each case:
 *   header      [63:48] ninsns (1..12, so the word is never 0)  [47:40] expected exit (1 when
 *               model_exec returned EXEC_EXIT)  [39:32] expected extern (1 when an extern
 *               instruction ran: see below)  [31:0] 0
 *   ninsns x 4  the instructions as in docs/hwconf.md's "instruction" record:
 *               w0 [63:56] op [55:48] flags [47:32] imm [31:0] dst's descriptor
 *               w1 [63:32] a's descriptor [31:0] b's descriptor
 *               w2 a.value  w3 b.value (struct pisa_operand's value field, raw)
 *               a descriptor: [31:28] kind (0 NONE, 1 PHV, 2 CONST, 3 ADATA, 4 PKT)
 *               [22:16] width [15:0] bit offset (lib's pisa_hwconf_insn writes them)
 *   ceil(DATA_BYTES / 8)  the action data, byte 0 in [63:56] of the first word, zero padded
 *   PHV_BYTES / 8         the PHV before, byte 0 in [63:56] of the first word
 *   PHV_BYTES / 8         the PHV after model_exec
 * After the last case one word 0000000000000000.
 *
 * The first three cases are examples/ipv4_router's actions as p4lower lowers them (set_nhop,
 * the ingress gateway's condition, set_smac) on a random PHV, for the testbench's clock counts.
 * The image is tb_image(PHV_BYTES) (tests/model/build.h) with 32 one-byte headers at PHV bytes
 * 72 .. 103 (validity bits 512 .. 543), no counters; the action runs as a table's would:
 * no parser, no hit row, its action data DATA_BYTES random bytes. Each other case: a random
 * PHV and a list from gen_insns.h's make_case (the op and operand mix is described there): 1 to
 * 12 instructions, in 3% of cases ending in an extern (COUNT, COPYHDR) that always runs and is a
 * no-op in the model for this image (the header's extern bit is 1 exactly then).
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
#include "pisa_hwconf.h"

/* The first cases are examples/ipv4_router's actions as p4lower lowers them (p4lower --dump
 * image), for the testbench's clock counts: set_nhop, the ingress gateway's condition
 * ($block0$) and set_smac. */
static const struct pisa_insn router_set_nhop[] = {
	{ .op = PISA_SET, .dst = { PISA_OPND_PHV, 520, 48, 0 }, .a = { PISA_OPND_ADATA, 0, 48, 0 } },
	{ .op = PISA_SET, .dst = { PISA_OPND_PHV, 23, 9, 0 }, .a = { PISA_OPND_ADATA, 48, 9, 0 } },
	{ .op = PISA_SUB, .dst = { PISA_OPND_PHV, 696, 8, 0 }, .a = { PISA_OPND_PHV, 696, 8, 0 },
	  .b = { PISA_OPND_CONST, 0, 8, 1 } },
};
static const struct pisa_insn router_gateway[] = {
	{ .op = PISA_EQ, .dst = { PISA_OPND_PHV, 793, 1, 0 }, .a = { PISA_OPND_PHV, 513, 1, 0 },
	  .b = { PISA_OPND_CONST, 0, 1, 0 } },
	{ .op = PISA_NE, .dst = { PISA_OPND_PHV, 794, 1, 0 }, .a = { PISA_OPND_PHV, 288, 32, 0 },
	  .b = { PISA_OPND_CONST, 0, 32, 0 } },
	{ .op = PISA_OR, .dst = { PISA_OPND_PHV, 795, 1, 0 }, .a = { PISA_OPND_PHV, 793, 1, 0 },
	  .b = { PISA_OPND_PHV, 794, 1, 0 } },
	{ .op = PISA_EQ, .dst = { PISA_OPND_PHV, 796, 1, 0 }, .a = { PISA_OPND_PHV, 87, 1, 0 },
	  .b = { PISA_OPND_CONST, 0, 1, 1 } },
	{ .op = PISA_OR, .dst = { PISA_OPND_PHV, 797, 1, 0 }, .a = { PISA_OPND_PHV, 795, 1, 0 },
	  .b = { PISA_OPND_PHV, 796, 1, 0 } },
};
static const struct pisa_insn router_set_smac[] = {
	{ .op = PISA_SET, .dst = { PISA_OPND_PHV, 568, 48, 0 }, .a = { PISA_OPND_ADATA, 0, 48, 0 } },
};
static const struct {
	const struct pisa_insn *ins;
	unsigned n;
} router[] = {
	{ router_set_nhop, 3 }, { router_gateway, 5 }, { router_set_smac, 1 },
};
#define ROUTER_CASES (sizeof(router) / sizeof(router[0]))

static void put_word(FILE *f, uint64_t w)
{
	fprintf(f, "%016" PRIx64 "\n", w);
}

/* n bytes as ceil(n / 8) words, byte 0 most significant, zero padded. */
static void put_bytes(FILE *f, const uint8_t *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i += 8) {
		uint64_t w = 0;

		for (k = 0; k < 8; k++)
			w = w << 8 | (i + k < n ? p[i + k] : 0);
		put_word(f, w);
	}
}

int main(int argc, char **argv)
{
	unsigned long phv_bytes, db, count = 3000, c, changed = 0, exited = 0, externs = 0;
	unsigned long skipped = 0, ninsns = 0;
	struct pisa_image *img;
	struct pisa_model *m = NULL;
	uint8_t *phv, *before, *alt, *data;
	int ret = 1;
	unsigned i, k;
	FILE *f;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: gen_action_vectors OUT.hex PHV_BYTES DATA_BYTES [COUNT]\n");
		return 2;
	}
	if (!parse(argv[2], &phv_bytes) || !parse(argv[3], &db) ||
	    (argc == 5 && !parse(argv[4], &count)) || phv_bytes < 128 || phv_bytes > 1024 ||
	    (phv_bytes & (phv_bytes - 1)) || db < 1 || db > 32 || count < 1 || count > 10000000) {
		fprintf(stderr, "gen_action_vectors: PHV_BYTES a power of 2 128..1024, "
			"DATA_BYTES 1..32, COUNT 1..10000000\n");
		return 2;
	}
	phv_bits = (unsigned)phv_bytes * 8;
	data_bytes = (unsigned)db;
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}

	img = tb_image((uint16_t)phv_bytes);
	for (i = 0; i < NHEADERS; i++)
		tb_header(img, HDR_BYTE + i, 1);
	/* slack after the PHV and the data: the model reads and writes 8 bytes at a time */
	phv = calloc(1, phv_bytes + MODEL_SLACK);
	before = calloc(1, phv_bytes);
	alt = calloc(1, phv_bytes + MODEL_SLACK);
	data = calloc(1, db + MODEL_SLACK);
	if (!phv || !before || !alt || !data) {
		fprintf(stderr, "gen_action_vectors: out of memory\n");
		goto out;
	}
	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_action_vectors: pisa_model_new failed\n");
		goto out;
	}
	for (c = 0; c < count; c++) {
		struct pisa_insn ins[MAX_INSNS], nop[MAX_INSNS];
		struct exec_ctx x = { .phv = phv, .adata = data, .db = (uint32_t)db, .table = -1,
				      .hit_row = MODEL_NO_ROW };
		int ext = 0, rc, jumps = 0;
		unsigned n;

		if (c < ROUTER_CASES) {
			n = router[c].n;
			memcpy(ins, router[c].ins, n * sizeof(*ins));
		} else {
			n = make_case(ins, &ext);
		}

		for (i = 0; i < phv_bytes; i++)
			phv[i] = (uint8_t)rnd();
		for (i = 0; i < db; i++)
			data[i] = (uint8_t)rnd();
		memcpy(before, phv, phv_bytes);
		rc = model_exec(m, &x, ins, n);
		if (rc != EXEC_OK && rc != EXEC_EXIT) {
			fprintf(stderr, "gen_action_vectors: case %lu: model_exec returned %d\n", c, rc);
			goto out;
		}
		/* statistics: did a JZ/JNZ change the outcome (the list with them as NOPs)? */
		for (i = 0; i < n; i++) {
			nop[i] = ins[i];
			if (ins[i].op == PISA_JZ || ins[i].op == PISA_JNZ) {
				nop[i].op = PISA_NOP;
				jumps = 1;
			}
		}
		if (jumps) {
			struct exec_ctx y = x;
			int rc2;

			memcpy(alt, before, phv_bytes);
			y.phv = alt;
			rc2 = model_exec(m, &y, nop, n);
			if (rc2 != rc || memcmp(alt, phv, phv_bytes))
				skipped++;
		}
		changed += memcmp(before, phv, phv_bytes) != 0;
		exited += rc == EXEC_EXIT;
		externs += (unsigned)ext;
		ninsns += n;

		put_word(f, (uint64_t)n << 48 | (uint64_t)(rc == EXEC_EXIT) << 40 |
			 (uint64_t)(ext != 0) << 32);
		for (i = 0; i < n; i++) {
			uint64_t w[4];

			pisa_hwconf_insn(&ins[i], w);
			for (k = 0; k < 4; k++)
				put_word(f, w[k]);
		}
		put_bytes(f, data, db);
		put_bytes(f, before, phv_bytes);
		put_bytes(f, phv, phv_bytes);
	}
	put_word(f, 0);
	ret = 0;
out:
	if (fclose(f) && !ret) {
		perror(argv[1]);
		ret = 1;
	}
	pisa_model_free(m);
	tb_done();
	free(phv);
	free(before);
	free(alt);
	free(data);
	if (!ret)
		printf("gen_action_vectors: %lu cases in %s (%lu instructions; PHV changed in %lu, "
		       "exit in %lu, extern in %lu, a JZ/JNZ changed the result in %lu)\n", count,
		       argv[1], ninsns, changed, exited, externs, skipped);
	return ret;
}
