/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_insns.h: random action instruction lists for the stage generators that run them through
 * pisa-model (gen_action_vectors, gen_stage_vectors): make_case() draws one list of 1 to 12
 * instructions. Include it after the model's headers (gen_common.h's mask() would shadow their
 * parameters named mask) and set phv_bits and data_bytes first. The numbers come from rnd()
 * (gen_common.h), so a generator's vectors depend on the order of its calls only.
 *
 * The image the lists are made for: tb_image() with NHEADERS one-byte headers at PHV bytes
 * HDR_BYTE .. HDR_BYTE + NHEADERS - 1 (validity bits 512 .. 543) and no counters; the action
 * runs as a table's would: no parser, its action data data_bytes bytes. A list: 1 to 12
 * instructions (4 of 10 lists 1..3 long, the rest 4..12), each op drawn as
 *   74% ALU, SET .. MAX: SET a quarter of them, ADD .. MAX the rest evenly; after an
 *       ADD/SUB/ADDC/SUBC the next one is ADDC or SUBC half the time (the carry chains)
 *    6% JZ/JNZ (imm 0..4; a often zero or a 1..3-bit field; skips past the end happen)
 *    4% SETVALID/SETINVALID (imm < 32)   2% EXIT   3% DROP   1% NOP
 *    3% CLONE (imm 0..255, a an operand, b CONST with b.value 64 random bits, used raw)
 *    2% RESUBMIT, 2% RECIRCULATE (a CONST, a.value 64 random bits, used raw)
 *    3% TRUNCATE (a an operand)
 * and in 3% of lists the last instruction is an "extern" with no JZ, JNZ or EXIT before it, so
 * that it always runs (make_case's *ext is 1 exactly then). Both externs are no-ops in
 * pisa-model for this image, so the PHV after is the model's:
 *   COUNT with a random imm: the image has no counters and model_count returns for an id
 *         >= ncounters (not with stage_externs);
 *   COPYHDR with a = CONST 16 bits, a.value == imm < 32 (as p4lower emits it): copy_hdr
 *         returns when the source is the destination.
 * With stage_externs set (gen_stage_vectors: the stage runs COUNT, REG_READ and REG_WRITE on its
 * counters and registers, ids 0 .. X_IDS - 1), 1 op in 5 is one of those three, drawn before
 * the mix above: imm an id 0 .. X_IDS - 1, 1 in 8 a random 16-bit one (past the stage's ids),
 * a the index: 3/4 a CONST, a third of them 1 in 1 bit or 2..3 in 2 (in range unsigned,
 * negative when SIGNED), the rest 0..4 in 4..64 bits, and the other quarter any operand;
 * REG_READ's dst as an ALU op's, REG_WRITE's b any operand; half the lists (not those of one
 * reported extern) start with a COUNT or REG_WRITE of id 0 or 1 at index 0, which the image
 * always has; and the always-running extern, in 20% of lists, is COPYHDR.
 * Flags: PISA_INSN_SIGNED on half. Operands: dst a PHV field (3% a CONST: the model writes
 * nothing) for the ALU ops; for the others usually NONE, a quarter a PHV field that must not be
 * written. a and b: 45% PHV, 30% CONST (random bits above the width), 20% ADATA (two thirds
 * starting in the data, the rest at offsets up to data_bytes * 8 + 80: bits past the data read
 * 0), 5% NONE or PKT (read 0 outside the parser); the value field of a non-CONST operand is
 * random junk except where the model reads it raw (above). Widths 1..64, half of them 1, 7, 8,
 * 9, 16, 31, 32, 33, 48, 63 or 64; PHV fields a fifth in the fixed metadata (bytes 0..63), a
 * quarter placed across a 64-bit word boundary (about half of all cross one), a third
 * byte-aligned. A quarter of the compares, MIN and MAX compare all ones at two random widths
 * (equal when signed). SHL/SHR's b is usually a CONST count 0..70. A quarter of the
 * instructions whose imm means nothing carry a random imm. A tenth of the lists read after
 * write: later instructions' a or b are an earlier dst field exactly or a field that overlaps
 * it.
 */
#ifndef STAGE_GEN_INSNS_H
#define STAGE_GEN_INSNS_H

#include <stdint.h>
#include <string.h>

#include "../model/build.h"
#include "gen_common.h"

#define MAX_INSNS 12
#define NHEADERS 32	/* <= TB_MAX; one byte each from PHV byte HDR_BYTE */
#define HDR_BYTE 72

static unsigned phv_bits, data_bytes;
static int stage_externs;	/* the lists also run COUNT, REG_READ and REG_WRITE (top comment) */
#define X_IDS 4			/* the stage's register ids and counter ids */

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
	if (stage_externs && rnd() % 5 == 0)
		return PISA_COUNT + (unsigned)(rnd() % 3);	/* COUNT, REG_READ, REG_WRITE */
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
	if (is_alu(op) || op == PISA_REG_READ) {
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
	case PISA_COUNT:
	case PISA_REG_READ:
	case PISA_REG_WRITE:
		in.imm = (uint16_t)(rnd() % 8 ? rnd() % X_IDS : rnd());
		if (rnd() % 4) {
			uint64_t index;

			if (rnd() % 3 == 0) {	/* negative when SIGNED */
				w = 1 + (unsigned)(rnd() % 2);
				index = w == 1 ? 1 : 2 + rnd() % 2;
			} else {
				w = 4 + (unsigned)(rnd() % 61);
				index = rnd() % 5;
			}
			in.a = K(index, w);
		}
		break;
	}
	return in;
}

/* The last instruction of a list with an extern: a no-op in the model (top comment). */
static struct pisa_insn make_extern(void)
{
	struct pisa_insn in;
	unsigned h;

	memset(&in, 0, sizeof(in));
	in.flags = rnd() % 2 ? PISA_INSN_SIGNED : 0;
	in.b = operand();
	if (!stage_externs && rnd() % 2) {
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

/* One list of instructions into ins (MAX_INSNS long); returns how many; *ext: the last one is
 * an extern that always runs. (inline: gen_extern_vectors includes this file for rwidth and
 * rvalue only, and an unused static function would warn.) */
static inline unsigned make_case(struct pisa_insn *ins, int *ext)
{
	unsigned n = rnd() % 10 < 4 ? 1 + (unsigned)(rnd() % 3) : 4 + (unsigned)(rnd() % 9);
	int raw = rnd() % 10 == 0, chain = 0;
	unsigned i, op;

	*ext = rnd() % 100 < (stage_externs ? 20 : 3);
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
	if (stage_externs && rnd() % 2 && !(*ext && n == 1)) {	/* always reaches a cell */
		unsigned w = 8 + (unsigned)(rnd() % 57);

		ins[0].op = rnd() % 2 ? PISA_COUNT : PISA_REG_WRITE;
		ins[0].flags = 0;
		ins[0].imm = (uint16_t)(rnd() % 2);
		ins[0].a = K(0, w);
	}
	return n;
}

#endif
