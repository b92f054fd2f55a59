/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_stage_vectors: one table of a pisa image (or, --chain, a row of them) applied to PHVs,
 * for the testbenches of hw/rtl/pisa_stage.v: the key lookup in an exact (HASH) or ternary
 * (TCAM) table or none (keyless), the action the row or the default row chose run on the PHV,
 * then the next-table decision. The results are pisa-model's: each section is an image built with
 * tests/model/build.h, its rows written with pisa_model_ops.write_row, and every PHV run
 * through model_run_tables (model/model_table.c). Fixed seed.
 *
 *   gen_stage_vectors [--chain STAGES] OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS ENTRIES
 *                     DATA_BYTES ACTIONS IA XA [CASES]
 *
 * Without --chain: nine sections of one table each (below). With --chain STAGES (2..8): a row
 * of STAGES pisa_stage instances, stage i configured with table i (the chain mode section at the
 * end).
 *
 * PHV_BYTES a power of 2, 128..1024; FIELDS 1..8 key fields at most; KEY_BYTES 2..8 (a key has
 * at most 8 * KEY_BYTES - 3 bits); WAYS 1..4 and WAY_BITS 1..12 (the exact table: WAYS <<
 * WAY_BITS rows); ENTRIES 2..256 (the ternary table's rows); DATA_BYTES 1..8 (a row's action
 * data: the table's adata_bits is 8 * DATA_BYTES); ACTIONS 2..256 (the stage's action memory:
 * global action ids 0 .. ACTIONS - 1); IA 4..12 (the instruction memory: 2^IA instructions);
 * XA 6..12 (the register and counter cells: 2^XA, room for a direct counter of the larger
 * table's rows, two cells a row, and 48 more; chain mode has none); CASES per section, 300 if
 * left out. Usage errors exit 2, other failures 1 (among them any
 * disagreement between the model and what this generator expects of it).
 *
 * Output: hex numbers separated by white space (for $fscanf("%h")):
 *   nsections (9)
 *   per section:
 *     T  kind (0 exact, 1 ternary, 2 keyless)  next_mode  next_hit  next_miss  cond_off
 *        cond_width  direct                      (cond: 0 0 unless next_mode is 2, COND;
 *                                                 direct: the direct counter's id, ffff none)
 *     nfields            then per field: bit_offset width          (0 fields when keyless)
 *     default_valid  default_action  default_data
 *                        (data: DATA_BYTES bytes as one hex number, byte 0 most significant)
 *     ACTIONS lines, for id 0 .. ACTIONS - 1: in_table  insn_addr  ninsns  next
 *                        (in_table 0: the rest 0)
 *     ninsn_records      then per record: addr w0 w1 w2 w3
 *                        (lib's pisa_hwconf_insn's 4 words, 16 hex digits each; docs/hwconf.md)
 *     nexact             then per row: way bucket valid action key data
 *                        (kind 0: all WAYS << WAY_BITS rows, way by way; else 0 rows)
 *     nternary           then per row: index nbytes valid action value mask data
 *                        (kind 1: all ENTRIES rows, nbytes the key's bytes KB; else 0 rows)
 *     ncells  nregs  ncounters        (2^XA, X_IDS 4 and 4: pisa_stage_externs')
 *     nregs lines, per register id: base size width          (size 0: no such register)
 *     ncounters lines, per counter id: base size kind        (size in cells of two words)
 *     ncells words: the cells before the cases (a register's cells, then a counter's as
 *                   packets, bytes; the rest junk that must stay)
 *     ncases             then per case:
 *       in_next  PHV_BYTES bytes (2 hex digits each, 32 per line)
 *       hit  out_next  extern  PHV_BYTES bytes after
 *     ncells words: the cells after the cases, the model's
 * key, value and mask: the KB-byte key right-aligned as one hex number (lib/pisa_switch.h).
 * hit: 1 when the lookup hit a row (0 when keyless). extern: 1 when the action that ran ended
 * in an extern the stage does not run (COPYHDR, which always runs; the hardware reports it,
 * the model treats it as a no-op for this image); the lists' COUNT, REG_READ and REG_WRITE
 * (gen_insns.h's stage_externs) run on the image's registers and counters, and a hit in a
 * table with a direct counter counts its row there before the action runs. A case whose
 * in_next is not T passes the stage: hit 0, out_next = in_next, extern 0, the PHV unchanged
 * (the model is not run). Otherwise out_next is the
 * model's: PISA_NEXT_END (ffff) when the action ran EXIT or the next the table chose is <= T
 * (pointers go forward only: the pass ends), else that next itself (T + 1 .. T + 20 or ffff;
 * the model ends the pass on a next past its last table, the stage cannot know that).
 *
 * Section s (0..8): table kind s % 3 (exact, ternary, keyless), next mode s / 3 (0 HITMISS:
 * next_hit on a hit, else next_miss; 1 ACTION: the next of the action that ran, next_miss when
 * none ran; 2 COND: next_hit when the cond field of the PHV after the action is not 0, else
 * next_miss). Each section is a fresh image and model:
 *  - tb_image(PHV_BYTES) with 32 one-byte headers at PHV bytes 72 .. 103 (what gen_insns.h's
 *    lists are made for), registers and counters with random values laid out in the stage's
 *    cells as gen_externs.h lays them out (one of the counters table T's direct counter when
 *    the table has a key and its next mode is not ACTION: sections 0, 1, 6 and 7), T keyless
 *    tables 0 .. T - 1 with no actions that never run (ingress_start is T), and table T, T 1..8.
 *    Its key (not when keyless): gen_keys.h's random_key, 1..FIELDS fields of 1..24 bits
 *    anywhere in the PHV, match kind EXACT (HASH table) or TERNARY (TCAM table).
 *  - NA = 2 + rnd() % (ACTIONS - 1) global actions 0 .. NA - 1, each a list from gen_insns.h's
 *    make_case (1..12 instructions), one after another in the instruction memory from a random
 *    address. When the next list would not fit in the 2^IA instructions the actions end there
 *    (NA is its id); the first two are drawn again until they fit, so NA >= 2.
 *  - The table's actions: a random subset of 0 .. NA - 1, neither empty nor all of them, in a
 *    random order (the model's action index is not the id), each with its own next. next_hit,
 *    next_miss and each action's next: 1/4 PISA_NEXT_END, 1/4 0 .. T (they end the pass), 1/2
 *    T + 1 .. T + 20.
 *  - COND's field: 1 bit half the time, else 1..64 bits; a third of them a field (or one bit of
 *    it) that an ALU instruction of one of the table's actions writes, the rest anywhere.
 *  - The default row (index rows; 0 when keyless): valid with a random action of the table's
 *    and random data, except with chance 1/6 and always in section 4 (ternary, next by action:
 *    a miss that runs nothing takes next_miss), where it is invalid (its action and data are
 *    still drawn and written: the hardware must ignore them).
 *  - Exact rows: the keys of 64 random source PHVs placed as gen_match_vectors places them (a
 *    free way of the key's buckets from a random way on, else evicting that way's row); 1/8 of
 *    them invalid (keeping key, action and data); the rows with no key invalid and all zero.
 *    Every row is written. Ternary rows: all ENTRIES, each a source's key under gen_keys.h's
 *    random_mask (bits above the key's included), 1/8 invalid. Rows' actions: the
 *    table's.
 *  - Cases: a random PHV, for a keyed table 3/4 of them with a source's key fields; in_next T
 *    for 7/8, the rest another of 0 .. 40 or ffff.
 * For each case run, the generator works out the row that hits (lib's way hash; the lowest
 * matching valid ternary row), the action and the next itself and checks them against the
 * model: the model's trace of the table must be the one those give, and the PHV the model
 * leaves must be model_exec's for that action on the PHV before (with that row's data), run on
 * the registers and counters as they were before (and leaving them as the model did).
 *
 * Chain mode (--chain STAGES): the hardware is STAGES pisa_stage instances in a row, stage i
 * with cfg_table = i; a PHV enters stage 0 with its next table and leaves the last one.
 * Output, hex as above:
 *   nsections (4)
 *   per section:
 *     nstages (STAGES)
 *     per stage i (0 .. STAGES - 1): table i's configuration block, exactly as a section's above
 *        (from "T kind next_mode ..." with T = i to the ternary rows; the action lines'
 *        in_table and next are table i's; every stage has the same instruction records)
 *     ncases             then per case:
 *       in_next  PHV_BYTES bytes
 *       out_next  PHV_BYTES bytes after
 * Each section is one image (headers and actions as above: NA global actions in the 2^IA
 * instruction memory, but no registers or counters and no stage_externs: the lists are
 * gen_action_vectors') with tables 0 .. STAGES - 1 and no dummies, ingress_start 0. Table i:
 * kind (exact, ternary, keyless) and next mode (HITMISS, ACTION, COND) each drawn uniformly, its
 * own key, rows, default row (invalid with chance 1/6), COND field and action list (a random
 * subset of the NA actions, neither empty nor all, random order, each with its own next), all
 * drawn as above; next_hit, next_miss and its actions' nexts: 1/16 PISA_NEXT_END, 1/16 0 .. i
 * (they end the pass), 3/16 i + 1 .. STAGES + 1 (some skip stages, some go past the last
 * table), 11/16 i + 1 (the next stage's table: PHVs go through several tables).
 * Cases: a random PHV, 3/4 of them with the key fields of a source PHV of a random keyed table
 * of the section (when there is one); in_next 0 for 3/4, else 1 .. STAGES + 1 or ffff. The
 * PHV after is the model's: model_run_tables run once with ingress_start = in_next (it reads
 * it every run). out_next is the generator's: it walks the tables as model_run_tables does (from
 * in_next while the next is < STAGES and not END: the table's row, action and next as in single
 * mode, the action run with model_exec on its own copy of the PHV; EXIT or a next <= the table
 * ends the pass: ffff), and checks that its copy is the model's PHV and its trace lines the
 * model's trace; out_next is ffff when the pass ended, else the next the walk left with
 * (STAGES .. STAGES + 1, or in_next itself when that is >= STAGES: it passes every stage).
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
#include "gen_keys.h"
#include "pisa_hwconf.h"

#define SECTIONS 9
#define CHAIN_SECTIONS 4
#define MAX_STAGES 8
#define SOURCES 64		/* PHVs the rows' keys come from */
#define MAX_ACTIONS 256
#define MAX_ENTRIES 256
#define MAX_PHV 1024
#define NEXT_SPAN 20		/* forward nexts: T + 1 .. T + NEXT_SPAN */
#define NO_ROW 0xFFFFFFFFu

struct act {		/* a global action: its instructions, where they are */
	unsigned n, addr;
	int ext;
	struct pisa_insn ins[MAX_INSNS];
};

struct tbl {		/* a table as the generator made it */
	unsigned t, kind, mode, nrows;
	struct key k;
	struct pisa_field cond;			/* COND: its field (else width 0) */
	unsigned list[MAX_ACTIONS], nlist;	/* its actions, in its order (the model's index) */
	int in[MAX_ACTIONS];			/* per global action: the table lists it */
	unsigned anext[MAX_ACTIONS];		/* per global action: its next in this table */
	struct row def, rows[4 << 12];		/* the ternary rows are rows[0 .. ENTRIES - 1] */
	uint8_t src[SOURCES][MAX_PHV];		/* keyed: the PHVs the rows' keys come from */
};

struct step {		/* one table applied to a PHV */
	uint32_t hit_row;	/* NO_ROW on a miss */
	int hit, exited, cond;
	const struct act *a;	/* the action that ran, NULL when none */
	unsigned nx;		/* the next the table chose (before "forward only") */
	unsigned next;		/* the pass's next: END on EXIT or a next <= the table, else nx */
};

/* The run's sizes and counts. */
static unsigned fields, key_bytes, ways, way_bits, entries, nacts, ia;
static unsigned long ncases = 300;
static unsigned long hits, ran, externs, n_exit, n_end, n_back, n_fwd, n_pass, cells_changed,
	direct_counts;
/* chain mode's counts */
static unsigned long c_ran[MAX_STAGES + 1], c_tables, c_exit, c_end, c_back, c_past;

static struct act acts[MAX_ACTIONS];
static unsigned na, ninsns_total;	/* the image's actions 0 .. na - 1, their instructions */
static struct tbl tbls[MAX_STAGES];

/* A next for table t. Single mode (stages 0): 1/4 END, 1/4 0 .. t, 1/2 t + 1 .. t + NEXT_SPAN.
 * Chain mode: 1/16 END, 1/16 0 .. t, 3/16 t + 1 .. stages + 1, 11/16 t + 1. */
static unsigned draw_next(unsigned t, unsigned stages)
{
	if (stages) {
		switch (rnd() % 16) {
		case 0:
			return PISA_NEXT_END;
		case 1:
			return (unsigned)(rnd() % (t + 1));
		case 2:
		case 3:
		case 4:
			return t + 1 + (unsigned)(rnd() % (stages + 1 - t));
		default:
			return t + 1;
		}
	}
	switch (rnd() % 4) {
	case 0:
		return PISA_NEXT_END;
	case 1:
		return (unsigned)(rnd() % (t + 1));	/* ends the pass */
	default:
		return t + 1 + (unsigned)(rnd() % NEXT_SPAN);
	}
}

/* Row idx of table t as r says (match: the key; a ternary row's mask after it). */
static int put_row(struct pisa_model *m, const struct pisa_image *img, unsigned t, uint32_t idx,
		   const struct row *r, unsigned kb, unsigned db)
{
	const struct pisa_table *tb = &img->tables[t];
	uint8_t match[2 * MAX_KEY], ad[8];
	struct tb_rowbuf b;

	model_be_put(match, kb, r->key);
	model_be_put(match + kb, kb, r->mask);
	model_be_put(ad, db, r->data);
	b = tb_mkrow(tb, r->action, match, ad);
	if (!r->valid)
		b.b[0] = 0;
	return pisa_model_ops.write_row(m, (uint16_t)t, idx, b.b, b.len);
}

/* COND's field: a third of them in a field an action of the table writes (if one does); of
 * the others half across a word boundary, so that its second word counts. */
static struct pisa_field cond_field(const struct tbl *tl)
{
	static struct pisa_operand cand[MAX_ACTIONS * MAX_INSNS];
	unsigned n = 0, i, j, one = rnd() % 2 == 0, w, off;

	for (i = 0; i < tl->nlist; i++)
		for (j = 0; j < acts[tl->list[i]].n; j++) {
			const struct pisa_insn *in = &acts[tl->list[i]].ins[j];

			if (is_alu(in->op) && in->dst.kind == PISA_OPND_PHV)
				cand[n++] = in->dst;
		}
	if (n && rnd() % 3 == 0) {
		struct pisa_operand d = cand[rnd() % n];

		if (!one)
			return (struct pisa_field){ d.off, d.width };
		off = d.off + (unsigned)(rnd() % d.width);
		return (struct pisa_field){ (uint16_t)off, 1 };
	}
	if (!one && rnd() % 2 == 0) {	/* 1 .. w - 1 of its w bits in the first word */
		w = 2 + (unsigned)(rnd() % 63);
		off = 64 * (1 + (unsigned)(rnd() % (phv_bits / 64 - 1))) - 1 -
		      (unsigned)(rnd() % (w - 1));
		return (struct pisa_field){ (uint16_t)off, (uint16_t)w };
	}
	w = one ? 1 : 1 + (unsigned)(rnd() % 64);
	off = (unsigned)(rnd() % (phv_bits - w + 1));
	return (struct pisa_field){ (uint16_t)off, (uint16_t)w };
}

/* A fresh image: PHV_BYTES, the 32 one-byte headers, room for all the actions. */
static struct pisa_image *new_image(void)
{
	struct pisa_image *img = tb_image((uint16_t)(phv_bits / 8));
	unsigned i;

	for (i = 0; i < NHEADERS; i++)
		tb_header(img, HDR_BYTE + i, 1);
	img->actions = tb_alloc(MAX_ACTIONS * sizeof(*img->actions));	/* TB_MAX is 64 */
	return img;
}

/* The image's global actions 0 .. na - 1, one after another in the instruction memory. */
static int make_actions(struct pisa_image *img)
{
	unsigned i, total = 0, start, cap = 1u << ia, at;

	na = 2 + (unsigned)(rnd() % (nacts - 1));
	for (i = 0; i < na; i++) {
		struct act *a = &acts[i];

		do
			a->n = make_case(a->ins, &a->ext);
		while (i < 2 && total + a->n > cap);
		if (total + a->n > cap) {
			na = i;
			break;
		}
		total += a->n;
	}
	ninsns_total = total;
	start = (unsigned)(rnd() % (cap - total + 1));
	for (i = 0, at = start; i < na; at += acts[i].n, i++) {
		acts[i].addr = at;
		if (tb_action(img, acts[i].n, acts[i].ins, 8 * data_bytes) != i)
			return 1;
	}
	return 0;
}

/* Table tl->t of the image (the next it gets from tb_table) of kind tl->kind, next mode
 * tl->mode and key tl->k, set by the caller: its actions, nexts and COND field (stages as
 * draw_next's). */
static int add_table(struct pisa_image *img, struct tbl *tl, unsigned stages)
{
	static const uint8_t mems[3] = { PISA_MEM_HASH, PISA_MEM_TCAM, PISA_MEM_NONE };
	unsigned t = tl->t, i;
	struct pisa_table *tb;

	tl->nrows = tl->kind == 0 ? ways << way_bits : tl->kind == 1 ? entries : 0;
	if (tb_table(img, 0, mems[tl->kind], tl->nrows, 8 * data_bytes, 0) != t)
		return 1;
	tb = &img->tables[t];
	tb->actions = tb_alloc(MAX_ACTIONS * sizeof(*tb->actions));	/* tb_table has room for 16 */
	if (tl->kind == 0)
		tb_hash_geom(img, t, ways, way_bits);
	for (i = 0; i < tl->k.n; i++)
		tb_tkey(img, t, tl->k.off[i], tl->k.width[i],
			tl->kind == 0 ? PISA_MATCH_EXACT : PISA_MATCH_TERNARY);
	tl->nlist = 0;
	for (i = 0; i < na; i++) {
		tl->in[i] = rnd() % 2 == 0;
		tl->nlist += (unsigned)tl->in[i];
		tl->anext[i] = 0;
	}
	if (tl->nlist == 0)
		tl->in[rnd() % na] = 1;
	else if (tl->nlist == na)
		tl->in[rnd() % na] = 0;
	for (i = 0, tl->nlist = 0; i < na; i++)
		if (tl->in[i])
			tl->list[tl->nlist++] = i;
	for (i = tl->nlist - 1; i > 0; i--) {	/* the order in the table: the model's index */
		unsigned j = (unsigned)(rnd() % (i + 1)), x = tl->list[i];

		tl->list[i] = tl->list[j];
		tl->list[j] = x;
	}
	for (i = 0; i < tl->nlist; i++) {
		unsigned id = tl->list[i];

		tl->anext[id] = draw_next(t, stages);
		tb_tact(img, t, id, tl->anext[id], 0);
	}
	tb->next_mode = (uint8_t)tl->mode;
	tb->next_hit = (uint16_t)draw_next(t, stages);
	tb->next_miss = (uint16_t)draw_next(t, stages);
	tl->cond = (struct pisa_field){ 0, 0 };
	if (tl->mode == PISA_NEXT_COND)
		tl->cond = tb->cond = cond_field(tl);
	tb->default_action = (uint16_t)tl->list[0];
	return 0;
}

/* The table's default row (invalid with chance 1/6, always when no_default) and rows, drawn and
 * written to the model. what names the table in messages. */
static int fill_rows(struct pisa_model *m, const struct pisa_image *img, struct tbl *tl,
		     int no_default, const char *what)
{
	const struct pisa_table *tb = &img->tables[tl->t];
	unsigned i, w, kb = tl->k.kb, db = data_bytes, pb = phv_bits / 8;
	struct row *rows = tl->rows;
	unsigned long c;
	int dvalid, rc;

	if (pisa_row_key_bytes(tb) != kb || pisa_row_adata_bytes(tb) != db) {
		fprintf(stderr, "gen_stage_vectors: %s: the table's key or data bytes are "
			"not the generator's\n", what);
		return 1;
	}

	/* the default row */
	memset(&tl->def, 0, sizeof(tl->def));
	dvalid = rnd() % 6 != 0;
	tl->def.valid = !no_default && dvalid;
	tl->def.action = (uint16_t)tl->list[rnd() % tl->nlist];
	tl->def.data = rnd() >> (64 - 8 * db);
	rc = put_row(m, img, tl->t, tl->nrows, &tl->def, kb, db);
	if (rc) {
		fprintf(stderr, "gen_stage_vectors: %s: default row refused (%d)\n", what, rc);
		return 1;
	}

	/* the rows */
	for (c = 0; tl->kind != 2 && c < SOURCES; c++)
		for (i = 0; i < pb; i++)
			tl->src[c][i] = (uint8_t)rnd();
	memset(rows, 0, sizeof(tl->rows));
	if (tl->kind == 0) {
		for (c = 0; c < SOURCES; c++) {
			uint64_t key = key_of(&tl->k, tl->src[c]);
			unsigned st = (unsigned)(rnd() % ways);
			struct row *r;

			for (w = 0; w < ways; w++) {
				unsigned way = (st + w) % ways;

				if (!rows[(way << way_bits) | bucket(way, key, kb, way_bits)].valid)
					break;
			}
			w = w < ways ? (st + w) % ways : st;	/* none free: evict */
			r = &rows[(w << way_bits) | bucket(w, key, kb, way_bits)];
			r->valid = rnd() % 8 != 0;	/* some deleted: they keep their key */
			r->action = (uint16_t)tl->list[rnd() % tl->nlist];
			r->key = key;
			r->data = rnd() >> (64 - 8 * db);
		}
	} else if (tl->kind == 1) {
		for (i = 0; i < entries; i++) {
			struct row *r = &rows[i];

			r->valid = rnd() % 8 != 0;
			r->action = (uint16_t)tl->list[rnd() % tl->nlist];
			/* mask bits above the key's compare 0 with 0 */
			r->mask = random_mask(kb);
			r->key = key_of(&tl->k, tl->src[rnd() % SOURCES]);
			r->data = rnd() >> (64 - 8 * db);
		}
	}
	for (i = 0; i < tl->nrows; i++) {
		rc = put_row(m, img, tl->t, i, &rows[i], kb, db);
		if (rc) {
			fprintf(stderr, "gen_stage_vectors: %s: row %u refused (%d)\n", what, i, rc);
			return 1;
		}
	}
	return 0;
}

/* The table's configuration block (the header comment's, from "T kind ..." to the ternary
 * rows). */
static void put_config(FILE *f, const struct pisa_image *img, const struct tbl *tl)
{
	const struct pisa_table *tb = &img->tables[tl->t];
	const struct row *rows = tl->rows;
	unsigned i, kind = tl->kind, nrows = tl->nrows;

	fprintf(f, "%x %x %x %x %x %x %x %x\n", tl->t, kind, tl->mode, tb->next_hit,
		tb->next_miss, tb->cond.bitoff, tb->cond.width, (uint16_t)tb->direct_counter);
	print_key(f, &tl->k);
	fprintf(f, "%x %x %" PRIx64 "\n", tl->def.valid, tl->def.action, tl->def.data);
	for (i = 0; i < nacts; i++) {
		if (i < na && tl->in[i])
			fprintf(f, "1 %x %x %x\n", acts[i].addr, acts[i].n, tl->anext[i]);
		else
			fprintf(f, "0 0 0 0\n");
	}
	fprintf(f, "%x\n", ninsns_total);
	for (i = 0; i < na; i++) {
		unsigned j;

		for (j = 0; j < acts[i].n; j++) {
			uint64_t iw[4];

			pisa_hwconf_insn(&acts[i].ins[j], iw);
			fprintf(f, "%x %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n",
				acts[i].addr + j, iw[0], iw[1], iw[2], iw[3]);
		}
	}
	fprintf(f, "%x\n", kind == 0 ? nrows : 0);
	for (i = 0; kind == 0 && i < nrows; i++)
		fprintf(f, "%x %x %x %x %" PRIx64 " %" PRIx64 "\n", i >> way_bits,
			i & (unsigned)mask(way_bits), rows[i].valid, rows[i].action, rows[i].key,
			rows[i].data);
	fprintf(f, "%x\n", kind == 1 ? nrows : 0);
	for (i = 0; kind == 1 && i < nrows; i++)
		fprintf(f, "%x %x %x %x %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", i, tl->k.kb,
			rows[i].valid, rows[i].action, rows[i].key, rows[i].mask, rows[i].data);
}

/* A PHV: random bytes, for a keyed table (tl, NULL for none) 3/4 of them with the key fields of
 * one of its sources; for a COND table half of them with its field's bits in its first word, in
 * its second or in both cleared (random bits would make it true almost always). */
static void random_phv(uint8_t *phv, const struct tbl *tl)
{
	unsigned i;

	for (i = 0; i < phv_bits / 8; i++)
		phv[i] = (uint8_t)rnd();
	if (tl && tl->cond.width && rnd() % 2 == 0) {
		unsigned off = tl->cond.bitoff, w = tl->cond.width, first = 64 - off % 64;

		if (first > w)
			first = w;
		switch (rnd() % 3) {
		case 0:
			pisa_bits_set(phv, off, first, 0);
			break;
		case 1:
			if (w > first)
				pisa_bits_set(phv, off + first, w - first, 0);
			break;
		default:
			pisa_bits_set(phv, off, w, 0);
		}
	}
	if (tl && tl->kind != 2 && rnd() % 4 != 0) {	/* a source's key, the other bits random */
		const uint8_t *sp = tl->src[rnd() % SOURCES];

		for (i = 0; i < tl->k.n; i++)
			pisa_bits_set(phv, tl->k.off[i], tl->k.width[i],
				      pisa_bits_get(sp, tl->k.off[i], tl->k.width[i]));
	}
}

/* Table tl applied to phv as model_run_tables applies it, reckoned by the generator: the row
 * that hits (lib's way hash; the lowest matching valid ternary row), the action model_exec runs
 * on phv with the row's data, the next the table chooses. The model's trace lines for it are
 * appended to want. Returns 0, or model_exec's result when it is neither OK nor EXIT. */
static int step(struct pisa_model *m, const struct pisa_image *img, const struct tbl *tl,
		uint8_t *phv, uint16_t *vlen, struct step *st, char *want, size_t wsz)
{
	const struct pisa_table *tb = &img->tables[tl->t];
	unsigned t = tl->t, kind = tl->kind, kb = tl->k.kb, db = data_bytes, i, w;
	const struct row *rows = tl->rows, *rr;
	uint8_t ad[8 + MODEL_SLACK];
	uint64_t key = key_of(&tl->k, phv);
	size_t n;

	memset(st, 0, sizeof(*st));
	st->hit_row = NO_ROW;
	if (kind == 0) {
		for (w = 0; w < ways; w++) {
			uint32_t ix = (w << way_bits) | bucket(w, key, kb, way_bits);

			if (rows[ix].valid && rows[ix].key == key) {
				st->hit_row = ix;
				break;
			}
		}
	} else if (kind == 1) {
		for (i = 0; i < entries; i++)
			if (rows[i].valid && (key & rows[i].mask) == (rows[i].key & rows[i].mask)) {
				st->hit_row = i;
				break;
			}
	}
	st->hit = st->hit_row != NO_ROW;
	if (st->hit && tb->direct_counter >= 0) {	/* before the action, as the model counts */
		model_count(m, (unsigned)tb->direct_counter, st->hit_row,
			    model_get(m, phv, PISA_SM_PACKET_LENGTH));
		direct_counts++;
	}
	rr = st->hit ? &rows[st->hit_row] : &tl->def;
	if (rr->valid)
		st->a = &acts[rr->action];
	memset(ad, 0, sizeof(ad));
	model_be_put(ad, db, rr->data);
	if (st->a) {
		struct exec_ctx x = { .phv = phv, .vlen = vlen, .adata = ad, .db = db,
				      .table = (int16_t)t, .hit_row = st->hit ? st->hit_row :
				      MODEL_NO_ROW };
		int rc = model_exec(m, &x, st->a->ins, st->a->n);

		if (rc != EXEC_OK && rc != EXEC_EXIT)
			return rc;
		st->exited = rc == EXEC_EXIT;
	}

	/* the next, as model_run_tables decides it */
	if (st->exited) {
		st->nx = PISA_NEXT_END;
	} else if (tl->mode == PISA_NEXT_ACTION) {
		st->nx = st->a ? tl->anext[rr->action] : tb->next_miss;
	} else if (tl->mode == PISA_NEXT_COND) {
		st->cond = pisa_bits_get(phv, tb->cond.bitoff, tb->cond.width) != 0;
		st->nx = st->cond ? tb->next_hit : tb->next_miss;
	} else {
		st->nx = st->hit ? tb->next_hit : tb->next_miss;
	}
	st->next = st->exited || st->nx <= t ? PISA_NEXT_END : st->nx;

	/* the model's trace of the table */
	n = strlen(want);
	if (st->a && st->hit)
		snprintf(want + n, wsz - n, "  ingress: table %u hit row %" PRIu32 ": action %u\n",
			 t, st->hit_row, rr->action);
	else if (st->a && !(kind == 2 && tl->mode == PISA_NEXT_COND))	/* a gateway: no line */
		snprintf(want + n, wsz - n, "  ingress: table %u %s: action %u\n", t,
			 kind == 2 ? "runs" : "miss, default", rr->action);
	else if (!st->a)
		snprintf(want + n, wsz - n, "  ingress: table %u %s, no action\n", t,
			 st->hit ? "hit" : "miss");
	n = strlen(want);
	if (st->exited)
		snprintf(want + n, wsz - n, "  ingress: exit\n");
	else if (tl->mode == PISA_NEXT_COND)
		snprintf(want + n, wsz - n, "  ingress: table %u: condition %s\n", t,
			 st->cond ? "true" : "false");
	return 0;
}

/* model_run_tables on phv (ingress) with its trace: *got (the caller frees it) or NULL. */
static int run_model(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, char **got)
{
	size_t got_len = 0;
	FILE *tr;

	*got = NULL;
	tr = open_memstream(got, &got_len);
	if (!tr) {
		perror("open_memstream");
		return 1;
	}
	pisa_model_set_trace(m, tr);
	model_run_tables(m, phv, vlen, 0);
	pisa_model_set_trace(m, NULL);
	if (fclose(tr)) {
		perror("open_memstream");
		free(*got);
		*got = NULL;
		return 1;
	}
	return 0;
}

/* The PHV the model left and its trace (got, freed here) must be the generator's: 0, or 1
 * (reported). */
static int agree(const uint8_t *model_phv, const uint8_t *own_phv, unsigned pb, char *got,
		 const char *want, const char *mode, unsigned s, unsigned long c)
{
	int bad = 0;

	if (memcmp(model_phv, own_phv, pb)) {
		fprintf(stderr, "gen_stage_vectors: %ssection %u case %lu: the PHV model_run_tables "
			"leaves is not the generator's\n", mode, s, c);
		bad = 1;
	} else if (strcmp(want, got)) {
		fprintf(stderr, "gen_stage_vectors: %ssection %u case %lu: the model's trace\n%s"
			"is not the expected\n%s", mode, s, c, got, want);
		bad = 1;
	}
	free(got);
	return bad;
}

/* One section: its image, model, rows and cases. Returns 0 or 1 (a failure, reported). */
static int section(FILE *f, unsigned s)
{
	unsigned pb = phv_bits / 8, t, i;
	static uint8_t phv[MAX_PHV + MODEL_SLACK], alt[MAX_PHV + MODEL_SLACK];
	struct tbl *tl = &tbls[0];
	struct pisa_image *img;
	struct pisa_model *m = NULL;
	int ret = 1, rc;
	unsigned long c;
	uint16_t vlen[1] = { 0 };
	static uint64_t before[MAX_X_CELLS], after[MAX_X_CELLS], own[MAX_X_CELLS];
	char what[32];

	snprintf(what, sizeof(what), "section %u", s);
	t = 1 + (unsigned)(rnd() % 8);
	img = new_image();
	for (i = 0; i < t; i++)		/* never run: the pass starts at T */
		tb_table(img, 0, PISA_MEM_NONE, 0, 0, 0);
	img->ingress_start = (uint16_t)t;
	memset(&tl->k, 0, sizeof(tl->k));
	tl->t = t;
	tl->kind = s % 3;
	tl->mode = s / 3;
	if (tl->kind != 2)
		tl->k = random_key(fields, key_bytes, pb);
	if (make_actions(img) || add_table(img, tl, 0))
		goto out;
	add_externs(img, tl->kind != 2 && tl->mode != PISA_NEXT_ACTION ? (int)t : -1);

	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_stage_vectors: section %u: pisa_model_new failed\n", s);
		goto out;
	}
	if (fill_rows(m, img, tl, s == 4, what))
		goto out;
	put_config(f, img, tl);
	put_externs(f, m);

	/* the cases */
	fprintf(f, "%lx\n", ncases);
	for (c = 0; c < ncases; c++) {
		unsigned in_next = t, out_next;
		struct step st;
		char want[256], *got;

		random_phv(phv, tl);
		if (rnd() % 8 == 0) {	/* not this table's turn */
			do {
				unsigned r = (unsigned)(rnd() % 42);

				in_next = r == 41 ? PISA_NEXT_END : r;
			} while (in_next == t);
		}
		fprintf(f, "%x\n", in_next);
		print_bytes(f, phv, pb);
		if (in_next != t) {
			fprintf(f, "0 %x 0\n", in_next);
			print_bytes(f, phv, pb);
			n_pass++;
			continue;
		}

		/* the model, then the generator's reckoning on the PHV and cells before */
		memcpy(alt, phv, pb + MODEL_SLACK);
		cells(m, before, 0);
		if (run_model(m, phv, vlen, &got))
			goto out;
		cells(m, after, 0);
		cells(m, before, 1);
		want[0] = 0;
		rc = step(m, img, tl, alt, vlen, &st, want, sizeof(want));
		if (rc) {
			fprintf(stderr, "gen_stage_vectors: section %u case %lu: model_exec "
				"returned %d\n", s, c, rc);
			free(got);
			goto out;
		}
		cells(m, own, 0);
		if (memcmp(own, after, x_cells * sizeof(*own))) {
			fprintf(stderr, "gen_stage_vectors: section %u case %lu: the registers and "
				"counters model_run_tables leaves are not the generator's\n", s, c);
			free(got);
			goto out;
		}
		cells_changed += memcmp(before, after, x_cells * sizeof(*after)) != 0;
		if (agree(phv, alt, pb, got, want, "", s, c))
			goto out;
		out_next = st.next;

		hits += (unsigned)st.hit;
		ran += st.a != NULL;
		externs += (unsigned)(st.a && st.a->ext);
		if (st.exited)
			n_exit++;
		else if (st.nx == PISA_NEXT_END)
			n_end++;
		else if (st.nx <= t)
			n_back++;
		else
			n_fwd++;
		fprintf(f, "%x %x %x\n", st.hit, out_next, st.a && st.a->ext);
		print_bytes(f, phv, pb);
	}
	cells(m, after, 0);
	print_cells(f, after);
	ret = 0;
out:
	pisa_model_free(m);
	tb_done();
	return ret;
}

/* One chain section: an image of STAGES tables 0 .. STAGES - 1, PHVs through all of them.
 * Returns 0 or 1 (a failure, reported). */
static int chain_section(FILE *f, unsigned s, unsigned stages)
{
	unsigned pb = phv_bits / 8, i, nkeyed = 0, keyed[MAX_STAGES];
	static uint8_t phv[MAX_PHV + MODEL_SLACK], alt[MAX_PHV + MODEL_SLACK];
	struct pisa_image *img;
	struct pisa_model *m = NULL;
	int ret = 1, rc;
	unsigned long c;
	uint16_t vlen[1] = { 0 };
	char what[48];

	img = new_image();
	img->ingress_start = 0;
	if (make_actions(img))
		goto out;
	for (i = 0; i < stages; i++) {
		struct tbl *tl = &tbls[i];

		memset(&tl->k, 0, sizeof(tl->k));
		tl->t = i;
		tl->kind = (unsigned)(rnd() % 3);
		tl->mode = (unsigned)(rnd() % 3);
		if (tl->kind != 2) {
			tl->k = random_key(fields, key_bytes, pb);
			keyed[nkeyed++] = i;
		}
		if (add_table(img, tl, stages))
			goto out;
	}
	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_stage_vectors: chain section %u: pisa_model_new failed\n", s);
		goto out;
	}
	fprintf(f, "%x\n", stages);
	for (i = 0; i < stages; i++) {
		snprintf(what, sizeof(what), "chain section %u table %u", s, i);
		if (fill_rows(m, img, &tbls[i], 0, what))
			goto out;
		put_config(f, img, &tbls[i]);
	}

	/* the cases */
	fprintf(f, "%lx\n", ncases);
	for (c = 0; c < ncases; c++) {
		unsigned in_next = 0, next, ntab = 0;
		char want[2048], *got;

		random_phv(phv, nkeyed ? &tbls[keyed[rnd() % nkeyed]] : NULL);
		if (rnd() % 4 == 0) {	/* 1 .. STAGES + 1 or END */
			unsigned r = (unsigned)(rnd() % (stages + 2));

			in_next = r == 0 ? PISA_NEXT_END : r;
		}
		fprintf(f, "%x\n", in_next);
		print_bytes(f, phv, pb);

		/* the model from in_next */
		memcpy(alt, phv, pb + MODEL_SLACK);
		img->ingress_start = (uint16_t)in_next;	/* model_run_tables reads it every run */
		if (run_model(m, phv, vlen, &got))
			goto out;

		/* the generator's walk, as model_run_tables walks */
		want[0] = 0;
		for (next = in_next; next != PISA_NEXT_END && next < stages;) {
			struct step st;

			rc = step(m, img, &tbls[next], alt, vlen, &st, want, sizeof(want));
			if (rc) {
				fprintf(stderr, "gen_stage_vectors: chain section %u case %lu: "
					"model_exec returned %d in table %u\n", s, c, rc, next);
				free(got);
				goto out;
			}
			ntab++;
			hits += (unsigned)st.hit;
			ran += st.a != NULL;
			externs += (unsigned)(st.a && st.a->ext);
			if (st.exited)
				c_exit++;
			else if (st.nx == PISA_NEXT_END)
				c_end++;
			else if (st.nx <= next)	/* back (or itself): ends the pass */
				c_back++;
			next = st.next;
		}
		if (next == PISA_NEXT_END && ntab == 0)
			c_end++;	/* came in as END */
		else if (next != PISA_NEXT_END)
			c_past++;
		if (agree(phv, alt, pb, got, want, "chain ", s, c))
			goto out;
		c_ran[ntab]++;
		c_tables += ntab;
		fprintf(f, "%x\n", next);
		print_bytes(f, phv, pb);
	}
	ret = 0;
out:
	pisa_model_free(m);
	tb_done();
	return ret;
}

#define USAGE "usage: gen_stage_vectors [--chain STAGES] OUT PHV_BYTES FIELDS KEY_BYTES WAYS " \
	"WAY_BITS ENTRIES DATA_BYTES ACTIONS IA XA [CASES]\n"

int main(int argc, char **argv)
{
	unsigned long v[10], stages = 0, rows;
	unsigned s, i;
	int ret = 0;
	FILE *f;

	if (argc > 1 && !strcmp(argv[1], "--chain")) {
		if (argc < 3 || !parse(argv[2], &stages) || stages < 2 || stages > MAX_STAGES) {
			fprintf(stderr, USAGE "  STAGES 2..%d\n", MAX_STAGES);
			return 2;
		}
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	if (argc < 12 || argc > 13) {
		fprintf(stderr, USAGE);
		return 2;
	}
	for (i = 0; i < 10; i++)
		if (!parse(argv[2 + i], &v[i]))
			v[0] = 0;	/* fails the checks below */
	if (argc == 13 && !parse(argv[12], &ncases))
		ncases = 0;
	if (v[0] < 128 || v[0] > MAX_PHV || (v[0] & (v[0] - 1)) || v[1] < 1 || v[1] > MAX_FIELDS ||
	    v[2] < 2 || v[2] > MAX_KEY || v[3] < 1 || v[3] > 4 || v[4] < 1 || v[4] > 12 ||
	    v[5] < 2 || v[5] > MAX_ENTRIES || v[6] < 1 || v[6] > 8 || v[7] < 2 ||
	    v[7] > MAX_ACTIONS || v[8] < 4 || v[8] > 12 || v[9] < 6 || v[9] > 12 || ncases < 1 ||
	    ncases > 1000000) {
		fprintf(stderr, USAGE
			"  PHV_BYTES a power of 2 128..1024, FIELDS 1..%d, KEY_BYTES 2..%d, WAYS 1..4, "
			"WAY_BITS 1..12, ENTRIES 2..%d, DATA_BYTES 1..8, ACTIONS 2..%d, IA 4..12, "
			"XA 6..12, CASES 1..1000000, STAGES 2..%d\n", MAX_FIELDS, MAX_KEY, MAX_ENTRIES,
			MAX_ACTIONS, MAX_STAGES);
		return 2;
	}
	rows = v[3] << v[4] > v[5] ? v[3] << v[4] : v[5];
	if (!stages && 2 * rows + X_OTHER_WORDS > 1ul << v[9]) {
		fprintf(stderr, USAGE "  XA: 2^XA cells must hold a direct counter of %lu rows and "
			"%d cells more\n", rows, X_OTHER_WORDS);
		return 2;
	}
	phv_bits = (unsigned)v[0] * 8;
	fields = (unsigned)v[1];
	key_bytes = (unsigned)v[2];
	ways = (unsigned)v[3];
	way_bits = (unsigned)v[4];
	entries = (unsigned)v[5];
	data_bytes = (unsigned)v[6];
	nacts = (unsigned)v[7];
	ia = (unsigned)v[8];
	x_cells = 1u << v[9];

	stage_externs = !stages;
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "%x\n", stages ? CHAIN_SECTIONS : SECTIONS);
	if (stages)
		for (s = 0; s < CHAIN_SECTIONS && !ret; s++)
			ret = chain_section(f, s, (unsigned)stages);
	else
		for (s = 0; s < SECTIONS && !ret; s++)
			ret = section(f, s);
	if (fclose(f) && !ret) {
		perror(argv[1]);
		ret = 1;
	}
	if (!ret && !stages && (!externs || !cells_changed || !direct_counts)) {
		/* the vectors would test less */
		fprintf(stderr, "gen_stage_vectors: no case ran an extern the stage reports, none "
			"changed a register or counter, or none was counted by a direct counter: draw "
			"them differently\n");
		ret = 1;
	}
	if (!ret && !stages)
		printf("gen_stage_vectors: %d sections, %lu cases in %s (%lu hits, %lu counted by a "
		       "direct counter, %lu actions run, %lu externs reported, %lu changed a register "
		       "or counter; next: %lu exit, %lu end, %lu back (<= T: end), %lu forward, %lu "
		       "passed through)\n", SECTIONS, SECTIONS * ncases, argv[1], hits,
		       direct_counts, ran, externs, cells_changed, n_exit, n_end, n_back, n_fwd,
		       n_pass);
	if (!ret && stages) {
		printf("gen_stage_vectors: chain of %lu stages, %d sections, %lu cases in %s "
		       "(tables run per case:", stages, CHAIN_SECTIONS, CHAIN_SECTIONS * ncases,
		       argv[1]);
		for (i = 0; i <= stages; i++)
			printf(" %u: %lu%s", i, c_ran[i], i < stages ? "," : ";");
		printf(" %lu tables run, %lu hits, %lu actions run, %lu externs; out: %lu exit, "
		       "%lu end, %lu back (<= the table: end), %lu past the last table)\n", c_tables,
		       hits, ran, externs, c_exit, c_end, c_back, c_past);
	}
	return ret;
}
