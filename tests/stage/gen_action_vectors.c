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
 * PHV, 1 to 12 instructions (4 of 10 lists 1..3 long, the rest 4..12), each op drawn as
 *   74% ALU, SET .. MAX: SET a quarter of them, ADD .. MAX the rest evenly; after an
 *       ADD/SUB/ADDC/SUBC the next one is ADDC or SUBC half the time (the carry chains)
 *    6% JZ/JNZ (imm 0..4; a often zero or a 1..3-bit field; skips past the end happen)
 *    4% SETVALID/SETINVALID (imm < 32)   2% EXIT   3% DROP   1% NOP
 *    3% CLONE (imm 0..255, a an operand, b CONST with b.value 64 random bits, used raw)
 *    2% RESUBMIT, 2% RECIRCULATE (a CONST, a.value 64 random bits, used raw)
 *    3% TRUNCATE (a an operand)
 * and in 3% of cases the last instruction is an "extern" with no JZ, JNZ or EXIT before it, so
 * that it always runs (the header's extern bit is 1 exactly then). Both externs are no-ops in
 * pisa-model for this image, so the PHV after is the model's:
 *   COUNT with a random imm: the image has no counters and model_count returns for an id
 *         >= ncounters;
 *   COPYHDR with a = CONST 16 bits, a.value == imm < 32 (as p4lower emits it): copy_hdr
 *         returns when the source is the destination.
 * Flags: PISA_INSN_SIGNED on half. Operands: dst a PHV field (3% a CONST: the model writes
 * nothing) for the ALU ops; for the others usually NONE, a quarter a PHV field that must not be
 * written. a and b: 45% PHV, 30% CONST (random bits above the width), 20% ADATA (two thirds
 * starting in the data, the rest at offsets up to DATA_BYTES * 8 + 80: bits past the data read
 * 0), 5% NONE or PKT (read 0 outside the parser); the value field of a non-CONST operand is
 * random junk except where the model reads it raw (above). Widths 1..64, half of them 1, 7, 8,
 * 9, 16, 31, 32, 33, 48, 63 or 64; PHV fields a fifth in the fixed metadata (bytes 0..63), a
 * quarter placed across a 64-bit word boundary (about half of all cross one), a third
 * byte-aligned. A quarter of the compares, MIN and MAX compare all ones at two random widths
 * (equal when signed). SHL/SHR's b is usually a CONST count 0..70. A quarter of the
 * instructions whose imm means nothing carry a random imm. A tenth of the cases read after
 * write: later instructions' a or b are an earlier dst field exactly or a field that overlaps
 * it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/build.h"
#include "../../model/model_int.h"
/* After the model's headers: its mask() would shadow their parameters named mask. */
#include "gen_common.h"
#include "pisa_hwconf.h"

#define MAX_INSNS 12
#define NHEADERS 32	/* <= TB_MAX; one byte each from PHV byte HDR_BYTE */
#define HDR_BYTE 72

static unsigned phv_bits, data_bytes;

/* One rnd() per expression (or ones sequenced by ?: and declarators): the order of unsequenced
 * calls is the compiler's, and the vectors must not depend on it. */

static const unsigned edge_widths[] = { 1, 7, 8, 9, 16, 31, 32, 33, 48, 63, 64 };

static unsigned rwidth(void)
{
	if (rnd() % 2)
		return edge_widths[rnd() % (sizeof(edge_widths) / sizeof(edge_widths[0]))];
	return 1 + (unsigned)(rnd() % 64);
}

/* A w-bit value with random bits above w (the unit must mask a constant to its width). */
static uint64_t rvalue(unsigned w)
{
	uint64_t m = mask(w), v;

	switch (rnd() % 8) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = m; break;				/* all ones, -1 signed */
	case 3: v = UINT64_C(1) << (w - 1); break;	/* most negative */
	case 4: v = m >> 1; break;			/* most positive */
	case 5: v = rnd() % 72; break;
	default: v = rnd(); break;
	}
	return (v & m) | (rnd() & ~m);
}

/* A w-bit PHV field: a fifth in the fixed metadata, a quarter across a 64-bit word boundary,
 * a third byte-aligned; value is junk (the model ignores it). */
static struct pisa_operand phv_field(unsigned w)
{
	unsigned r = (unsigned)(rnd() % 20), off;
	int aligned = rnd() % 3 == 0;
	struct pisa_operand o;

	if (r < 4) {
		off = (unsigned)(rnd() % (PISA_PHV_FIXED_BYTES * 8 - w + 1));
	} else if (r < 9 && w > 1) {
		unsigned word = 1 + (unsigned)(rnd() % (phv_bits / 64 - 1));

		if (aligned && w > 8)	/* byte-aligned and still across the boundary */
			off = 64 * word - 8 * (1 + (unsigned)(rnd() % ((w - 1) / 8)));
		else
			off = 64 * word - 1 - (unsigned)(rnd() % (w - 1));
		aligned = 0;
	} else {
		off = (unsigned)(rnd() % (phv_bits - w + 1));
	}
	if (aligned)
		off &= ~7u;
	o = PHV(off, w);
	o.value = rnd();
	return o;
}

/* A source operand: PHV 45%, CONST 30%, ADATA 20%, NONE or PKT 5%. */
static struct pisa_operand operand(void)
{
	unsigned r = (unsigned)(rnd() % 100), w = rwidth();
	struct pisa_operand o;

	if (r < 45)
		return phv_field(w);
	if (r < 75)
		return K(rvalue(w), w);
	if (r < 95) {
		/* two thirds start in the data; the rest anywhere up to 80 bits past it */
		unsigned span = rnd() % 3 ? data_bytes * 8 : data_bytes * 8 + 81;

		o = AD((unsigned)(rnd() % span), w);
	} else if (r < 98) {
		o = PKT((unsigned)(rnd() % 512), w);
	} else {
		o = NO;
		if (rnd() % 2) {	/* junk in an unused operand's fields */
			o.off = (uint16_t)rnd();
			o.width = (uint16_t)w;
		}
	}
	o.value = rnd();
	return o;
}

/* An earlier dst field again, or a field that overlaps it. */
static struct pisa_operand overlap(struct pisa_operand d)
{
	unsigned w, lo, hi;

	d.value = rnd();
	if (rnd() % 2)
		return d;
	w = rwidth();
	lo = d.off + 1u > w ? d.off + 1u - w : 0;
	hi = d.off + d.width - 1u;
	if (hi > phv_bits - w)
		hi = phv_bits - w;
	d.off = (uint16_t)(lo + rnd() % (hi - lo + 1));
	d.width = (uint16_t)w;
	return d;
}

static int is_alu(unsigned op)
{
	return op >= PISA_SET && op <= PISA_MAX;
}

/* An opcode from the mix above; plain: no JZ, JNZ or EXIT. */
static unsigned pick_op(int plain)
{
	for (;;) {
		unsigned r = (unsigned)(rnd() % 100);

		if (r < 74)
			return rnd() % 4 == 0 ? PISA_SET :
				PISA_ADD + (unsigned)(rnd() % (PISA_MAX - PISA_ADD + 1));
		if (r < 80) {
			if (plain)
				continue;
			return rnd() % 2 ? PISA_JZ : PISA_JNZ;
		}
		if (r < 84)
			return rnd() % 2 ? PISA_SETVALID : PISA_SETINVALID;
		if (r < 86) {
			if (plain)
				continue;
			return PISA_EXIT;
		}
		if (r < 89)
			return PISA_DROP;
		if (r < 92)
			return PISA_CLONE;
		if (r < 94)
			return PISA_RESUBMIT;
		if (r < 96)
			return PISA_RECIRCULATE;
		if (r < 99)
			return PISA_TRUNCATE;
		return PISA_NOP;
	}
}

static struct pisa_insn make_insn(unsigned op)
{
	struct pisa_insn in;
	unsigned w;

	memset(&in, 0, sizeof(in));
	in.op = (uint8_t)op;
	in.flags = rnd() % 2 ? PISA_INSN_SIGNED : 0;
	if (rnd() % 4 == 0)	/* junk; replaced below where imm means something */
		in.imm = (uint16_t)rnd();
	if (is_alu(op)) {
		w = rwidth();
		in.dst = rnd() % 100 < 3 ? K(rnd(), w) : phv_field(w);
	} else if (rnd() % 4 == 0) {
		in.dst = phv_field(rwidth());	/* never written */
	}
	in.a = operand();
	in.b = operand();
	switch (op) {
	case PISA_EQ:
	case PISA_NE:
	case PISA_LT:
	case PISA_LE:
	case PISA_GT:
	case PISA_GE:
	case PISA_MIN:
	case PISA_MAX:
		if (rnd() % 4 == 0) {	/* equal once extended, different bits: -1 at two widths */
			w = rwidth();
			in.a = K(mask(w), w);
			w = rwidth();
			in.b = K(mask(w), w);
		}
		break;
	case PISA_SHL:
	case PISA_SHR:
		if (rnd() % 5 < 3) {	/* a count that survives its width */
			uint64_t count = rnd() % 71;

			w = 7 + (unsigned)(rnd() % 58);
			in.b = K(count | (rnd() & ~mask(w)), w);
		}
		break;
	case PISA_JZ:
	case PISA_JNZ:
		in.imm = (uint16_t)(rnd() % 5);
		switch (rnd() % 3) {
		case 0:		/* zero in its width, junk above */
			w = rwidth();
			in.a = K(rnd() & ~mask(w), w);
			break;
		case 1:
			in.a = phv_field(1 + (unsigned)(rnd() % 3));
			break;
		}
		break;
	case PISA_SETVALID:
	case PISA_SETINVALID:
		in.imm = (uint16_t)(rnd() % NHEADERS);
		break;
	case PISA_CLONE:
		in.imm = (uint16_t)(rnd() % 256);
		w = rwidth();
		in.b = K(rnd(), w);	/* the model stores b.value raw */
		break;
	case PISA_RESUBMIT:
	case PISA_RECIRCULATE:
		w = rwidth();
		in.a = K(rnd(), w);	/* a.value raw */
		break;
	}
	return in;
}

/* The last instruction of a case with an extern: a no-op in the model (top comment). */
static struct pisa_insn make_extern(void)
{
	struct pisa_insn in;
	unsigned h;

	memset(&in, 0, sizeof(in));
	in.flags = rnd() % 2 ? PISA_INSN_SIGNED : 0;
	in.b = operand();
	if (rnd() % 2) {
		in.op = PISA_COUNT;
		in.imm = (uint16_t)rnd();	/* >= ncounters (0) */
		in.a = rnd() % 4 ? operand() : K(0, 32);
	} else {
		h = (unsigned)(rnd() % NHEADERS);
		in.op = PISA_COPYHDR;
		in.imm = (uint16_t)h;
		in.a = K(h, 16);		/* a.value == imm: copy_hdr returns */
	}
	return in;
}

/* Points a or b (or both) of ins[i] at an earlier PHV dst, where the model reads them as
 * operands (not where it takes the value field raw). */
static void read_after_write(struct pisa_insn *ins, unsigned i)
{
	unsigned cand[MAX_INSNS], n = 0, j, r;
	int a_free = ins[i].op != PISA_RESUBMIT && ins[i].op != PISA_RECIRCULATE &&
		     ins[i].op != PISA_COPYHDR;
	int b_free = ins[i].op != PISA_CLONE;

	for (j = 0; j < i; j++)
		if (ins[j].dst.kind == PISA_OPND_PHV)
			cand[n++] = j;
	if (!n || rnd() % 3 == 0)
		return;
	r = (unsigned)(rnd() % 3);
	if (a_free && r != 1)
		ins[i].a = overlap(ins[cand[rnd() % n]].dst);
	if (b_free && r != 0)
		ins[i].b = overlap(ins[cand[rnd() % n]].dst);
}

/* One case's instructions into ins; returns how many; *ext: the last one is an extern. */
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

static unsigned make_case(struct pisa_insn *ins, int *ext)
{
	unsigned n = rnd() % 10 < 4 ? 1 + (unsigned)(rnd() % 3) : 4 + (unsigned)(rnd() % 9);
	int raw = rnd() % 10 == 0, chain = 0;
	unsigned i, op;

	*ext = rnd() % 100 < 3;
	for (i = 0; i < n; i++) {
		if (*ext && i == n - 1) {
			ins[i] = make_extern();
		} else {
			op = chain ? (rnd() % 2 ? PISA_ADDC : PISA_SUBC) : pick_op(*ext);
			chain = (op == PISA_ADD || op == PISA_SUB || op == PISA_ADDC ||
				 op == PISA_SUBC) && rnd() % 2;
			ins[i] = make_insn(op);
		}
		if (raw && i)
			read_after_write(ins, i);
	}
	return n;
}

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

static int parse(const char *s, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 0);
	return *s && !*end;
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
