/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_stage_vectors: one table of a pisa image applied to PHVs, for the testbench of
 * hw/rtl/pisa_stage.v: the key lookup in an exact (HASH) or ternary (TCAM) table or none
 * (keyless), the action the row or the default row chose run on the PHV, then the next-table
 * decision. The results are pisa-model's: each section is an image built with
 * tests/model/build.h, its rows written with pisa_model_ops.write_row, and every PHV run
 * through model_run_tables (model/model_table.c). Fixed seed.
 *
 *   gen_stage_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS ENTRIES DATA_BYTES ACTIONS IA
 *                     [CASES]
 *
 * PHV_BYTES a power of 2, 128..1024; FIELDS 1..8 key fields at most; KEY_BYTES 2..8 (a key has
 * at most 8 * KEY_BYTES - 3 bits); WAYS 1..4 and WAY_BITS 1..12 (the exact table: WAYS <<
 * WAY_BITS rows); ENTRIES 2..256 (the ternary table's rows); DATA_BYTES 1..8 (a row's action
 * data: the table's adata_bits is 8 * DATA_BYTES); ACTIONS 2..256 (the stage's action memory:
 * global action ids 0 .. ACTIONS - 1); IA 4..12 (the instruction memory: 2^IA instructions);
 * CASES per section, 300 if left out. Usage errors exit 2, other failures 1 (among them any
 * disagreement between the model and what this generator expects of it).
 *
 * Output: hex numbers separated by white space (for $fscanf("%h")):
 *   nsections (9)
 *   per section:
 *     T  kind (0 exact, 1 ternary, 2 keyless)  next_mode  next_hit  next_miss  cond_off
 *        cond_width                              (cond: 0 0 unless next_mode is 2, COND)
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
 *     ncases             then per case:
 *       in_next  PHV_BYTES bytes (2 hex digits each, 32 per line)
 *       hit  out_next  extern  PHV_BYTES bytes after
 * key, value and mask: the KB-byte key right-aligned as one hex number (lib/pisa_switch.h).
 * hit: 1 when the lookup hit a row (0 when keyless). extern: 1 when the action that ran ended
 * in an extern instruction (which always runs; the hardware reports it, the model treats it as
 * a no-op for this image). A case whose in_next is not T passes the stage: hit 0, out_next =
 * in_next, extern 0, the PHV unchanged (the model is not run). Otherwise out_next is the
 * model's: PISA_NEXT_END (ffff) when the action ran EXIT or the next the table chose is <= T
 * (pointers go forward only: the pass ends), else that next itself (T + 1 .. T + 20 or ffff;
 * the model ends the pass on a next past its last table, the stage cannot know that).
 *
 * Section s (0..8): table kind s % 3 (exact, ternary, keyless), next mode s / 3 (0 HITMISS:
 * next_hit on a hit, else next_miss; 1 ACTION: the next of the action that ran, next_miss when
 * none ran; 2 COND: next_hit when the cond field of the PHV after the action is not 0, else
 * next_miss). Each section is a fresh image and model:
 *  - tb_image(PHV_BYTES) with 32 one-byte headers at PHV bytes 72 .. 103 and no counters (what
 *    gen_insns.h's lists are made for: their externs are no-ops in the model), T keyless tables
 *    0 .. T - 1 with no actions that never run (ingress_start is T), and table T, T 1..8.
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
 * leaves must be model_exec's for that action on the PHV before (with that row's data).
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
#include "gen_keys.h"
#include "pisa_hwconf.h"

#define SECTIONS 9
#define SOURCES 64		/* PHVs the rows' keys come from */
#define MAX_ACTIONS 256
#define MAX_ENTRIES 256
#define MAX_PHV 1024
#define NEXT_SPAN 20		/* forward nexts: T + 1 .. T + NEXT_SPAN */
#define NO_ROW 0xFFFFFFFFu

struct act {
	unsigned n, addr, next;
	int ext, in_table;
	struct pisa_insn ins[MAX_INSNS];
};

struct row {
	int valid;
	uint16_t action;
	uint64_t key, mask, data;	/* mask: ternary rows only */
};

/* The run's sizes and counts. */
static unsigned fields, key_bytes, ways, way_bits, entries, nacts, ia;
static unsigned long ncases = 300;
static unsigned long hits, ran, externs, n_exit, n_end, n_back, n_fwd, n_pass;

static struct act acts[MAX_ACTIONS];
static unsigned tlist[MAX_ACTIONS], ntlist;	/* the table's actions, in its order */
static uint8_t src[SOURCES][MAX_PHV];

static int parse(const char *s, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 0);
	return *s && !*end;
}

static unsigned draw_next(unsigned t)
{
	switch (rnd() % 4) {
	case 0:
		return PISA_NEXT_END;
	case 1:
		return (unsigned)(rnd() % (t + 1));	/* ends the pass */
	default:
		return t + 1 + (unsigned)(rnd() % NEXT_SPAN);
	}
}

static void be_put(uint8_t *p, unsigned n, uint64_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Row idx of table t as r says (match: the key; a ternary row's mask after it). */
static int put_row(struct pisa_model *m, const struct pisa_image *img, unsigned t, uint32_t idx,
		   const struct row *r, unsigned kb, unsigned db)
{
	const struct pisa_table *tb = &img->tables[t];
	uint8_t match[2 * MAX_KEY], ad[8];
	struct tb_rowbuf b;

	be_put(match, kb, r->key);
	be_put(match + kb, kb, r->mask);
	be_put(ad, db, r->data);
	b = tb_mkrow(tb, r->action, match, ad);
	if (!r->valid)
		b.b[0] = 0;
	return pisa_model_ops.write_row(m, (uint16_t)t, idx, b.b, b.len);
}

static void put_phv(FILE *f, const uint8_t *p, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x%c", p[i], i % 32 == 31 || i + 1 == n ? '\n' : ' ');
}

/* COND's field: a third of them in a field an action of the table writes (if one does). */
static struct pisa_field cond_field(void)
{
	static struct pisa_operand cand[MAX_ACTIONS * MAX_INSNS];
	unsigned n = 0, i, j, one = rnd() % 2 == 0, w, off;

	for (i = 0; i < ntlist; i++)
		for (j = 0; j < acts[tlist[i]].n; j++) {
			const struct pisa_insn *in = &acts[tlist[i]].ins[j];

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
	w = one ? 1 : 1 + (unsigned)(rnd() % 64);
	off = (unsigned)(rnd() % (phv_bits - w + 1));
	return (struct pisa_field){ (uint16_t)off, (uint16_t)w };
}

/* One section: its image, model, rows and cases. Returns 0 or 1 (a failure, reported). */
static int section(FILE *f, unsigned s)
{
	unsigned kind = s % 3, mode = s / 3, pb = phv_bits / 8, db = data_bytes;
	unsigned t, i, w, na, total = 0, start, cap = 1u << ia, nrows, kb = 0, ninsns;
	static const uint8_t mems[3] = { PISA_MEM_HASH, PISA_MEM_TCAM, PISA_MEM_NONE };
	static struct row rows[4 << 12];
	static uint8_t phv[MAX_PHV + MODEL_SLACK], before[MAX_PHV + MODEL_SLACK],
		alt[MAX_PHV + MODEL_SLACK];
	struct row def, *trows = rows;
	struct pisa_image *img;
	struct pisa_table *tb;
	struct pisa_model *m = NULL;
	struct key k = { 0 };
	int ret = 1, in[MAX_ACTIONS], dvalid, rc;
	unsigned long c;
	uint16_t vlen[1] = { 0 };

	t = 1 + (unsigned)(rnd() % 8);
	img = tb_image((uint16_t)pb);
	for (i = 0; i < NHEADERS; i++)
		tb_header(img, HDR_BYTE + i, 1);
	img->actions = tb_alloc(MAX_ACTIONS * sizeof(*img->actions));	/* TB_MAX is 64 */
	for (i = 0; i < t; i++)		/* never run: the pass starts at T */
		tb_table(img, 0, PISA_MEM_NONE, 0, 0, 0);
	img->ingress_start = (uint16_t)t;
	if (kind != 2)
		k = random_key(fields, key_bytes, pb);
	kb = k.kb;

	/* the actions, one after another in the instruction memory */
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
	start = (unsigned)(rnd() % (cap - total + 1));
	for (i = 0, ninsns = start; i < na; ninsns += acts[i].n, i++) {
		acts[i].addr = ninsns;
		acts[i].in_table = 0;
		acts[i].next = 0;
		if (tb_action(img, acts[i].n, acts[i].ins, 8 * db) != i)
			goto out;
	}

	/* the table */
	nrows = kind == 0 ? ways << way_bits : kind == 1 ? entries : 0;
	if (tb_table(img, 0, mems[kind], nrows, 8 * db, 0) != t)
		goto out;
	tb = &img->tables[t];
	tb->actions = tb_alloc(MAX_ACTIONS * sizeof(*tb->actions));	/* tb_table has room for 16 */
	if (kind == 0)
		tb_hash_geom(img, t, ways, way_bits);
	for (i = 0; i < k.n; i++)
		tb_tkey(img, t, k.off[i], k.width[i],
			kind == 0 ? PISA_MATCH_EXACT : PISA_MATCH_TERNARY);
	ntlist = 0;
	for (i = 0; i < na; i++) {
		in[i] = rnd() % 2 == 0;
		ntlist += (unsigned)in[i];
	}
	if (ntlist == 0)
		in[rnd() % na] = 1;
	else if (ntlist == na)
		in[rnd() % na] = 0;
	for (i = 0, ntlist = 0; i < na; i++)
		if (in[i])
			tlist[ntlist++] = i;
	for (i = ntlist - 1; i > 0; i--) {	/* the order in the table: the model's index */
		unsigned j = (unsigned)(rnd() % (i + 1)), x = tlist[i];

		tlist[i] = tlist[j];
		tlist[j] = x;
	}
	for (i = 0; i < ntlist; i++) {
		struct act *a = &acts[tlist[i]];

		a->in_table = 1;
		a->next = draw_next(t);
		tb_tact(img, t, tlist[i], a->next, 0);
	}
	tb->next_mode = (uint8_t)mode;
	tb->next_hit = (uint16_t)draw_next(t);
	tb->next_miss = (uint16_t)draw_next(t);
	if (mode == PISA_NEXT_COND)
		tb->cond = cond_field();
	tb->default_action = (uint16_t)tlist[0];

	m = pisa_model_new(img);
	if (!m) {
		fprintf(stderr, "gen_stage_vectors: section %u: pisa_model_new failed\n", s);
		goto out;
	}
	if (pisa_row_key_bytes(tb) != kb || pisa_row_adata_bytes(tb) != db) {
		fprintf(stderr, "gen_stage_vectors: section %u: the table's key or data bytes are "
			"not the generator's\n", s);
		goto out;
	}

	/* the default row */
	memset(&def, 0, sizeof(def));
	dvalid = rnd() % 6 != 0;
	def.valid = s != 4 && dvalid;
	def.action = (uint16_t)tlist[rnd() % ntlist];
	def.data = rnd() >> (64 - 8 * db);
	rc = put_row(m, img, t, nrows, &def, kb, db);
	if (rc) {
		fprintf(stderr, "gen_stage_vectors: section %u: default row refused (%d)\n", s, rc);
		goto out;
	}

	/* the rows */
	for (c = 0; kind != 2 && c < SOURCES; c++)
		for (i = 0; i < pb; i++)
			src[c][i] = (uint8_t)rnd();
	memset(rows, 0, sizeof(rows));
	if (kind == 0) {
		for (c = 0; c < SOURCES; c++) {
			uint64_t key = key_of(&k, src[c]);
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
			r->action = (uint16_t)tlist[rnd() % ntlist];
			r->key = key;
			r->data = rnd() >> (64 - 8 * db);
		}
	} else if (kind == 1) {
		for (i = 0; i < entries; i++) {
			struct row *r = &trows[i];

			r->valid = rnd() % 8 != 0;
			r->action = (uint16_t)tlist[rnd() % ntlist];
			/* mask bits above the key's compare 0 with 0 */
			r->mask = random_mask(kb);
			r->key = key_of(&k, src[rnd() % SOURCES]);
			r->data = rnd() >> (64 - 8 * db);
		}
	}
	for (i = 0; i < nrows; i++) {
		rc = put_row(m, img, t, i, &rows[i], kb, db);
		if (rc) {
			fprintf(stderr, "gen_stage_vectors: section %u: row %u refused (%d)\n", s, i,
				rc);
			goto out;
		}
	}

	/* the section's configuration */
	fprintf(f, "%x %x %x %x %x %x %x\n", t, kind, mode, tb->next_hit, tb->next_miss,
		tb->cond.bitoff, tb->cond.width);
	print_key(f, &k);
	fprintf(f, "%x %x %" PRIx64 "\n", def.valid, def.action, def.data);
	for (i = 0; i < nacts; i++) {
		if (i < na && acts[i].in_table)
			fprintf(f, "1 %x %x %x\n", acts[i].addr, acts[i].n, acts[i].next);
		else
			fprintf(f, "0 0 0 0\n");
	}
	fprintf(f, "%x\n", total);
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
		fprintf(f, "%x %x %x %x %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", i, kb,
			trows[i].valid, trows[i].action, trows[i].key, trows[i].mask,
			trows[i].data);

	/* the cases */
	fprintf(f, "%lx\n", ncases);
	for (c = 0; c < ncases; c++) {
		unsigned in_next = t, nx, out_next;
		uint32_t hit_row = NO_ROW;
		const struct row *rr = NULL;
		const struct act *a = NULL;
		struct exec_ctx x;
		uint8_t ad[8 + MODEL_SLACK];
		char want[256], *got = NULL;
		size_t got_len = 0, n;
		uint64_t key;
		int exited = 0, hit, ext, cond = 0;
		FILE *tr;

		for (i = 0; i < pb; i++)
			phv[i] = (uint8_t)rnd();
		if (kind != 2 && rnd() % 4 != 0) {	/* a source's key, the other bits random */
			const uint8_t *sp = src[rnd() % SOURCES];

			for (i = 0; i < k.n; i++)
				pisa_bits_set(phv, k.off[i], k.width[i],
					      pisa_bits_get(sp, k.off[i], k.width[i]));
		}
		if (rnd() % 8 == 0) {	/* not this table's turn */
			do {
				unsigned r = (unsigned)(rnd() % 42);

				in_next = r == 41 ? PISA_NEXT_END : r;
			} while (in_next == t);
		}
		fprintf(f, "%x\n", in_next);
		put_phv(f, phv, pb);
		if (in_next != t) {
			fprintf(f, "0 %x 0\n", in_next);
			put_phv(f, phv, pb);
			n_pass++;
			continue;
		}

		/* what the model should do: the row, the action */
		key = key_of(&k, phv);
		if (kind == 0) {
			for (w = 0; w < ways; w++) {
				uint32_t ix = (w << way_bits) | bucket(w, key, kb, way_bits);

				if (rows[ix].valid && rows[ix].key == key) {
					hit_row = ix;
					break;
				}
			}
		} else if (kind == 1) {
			for (i = 0; i < entries; i++)
				if (trows[i].valid && (key & trows[i].mask) ==
						      (trows[i].key & trows[i].mask)) {
					hit_row = i;
					break;
				}
		}
		hit = hit_row != NO_ROW;
		rr = hit ? &rows[hit_row] : &def;
		if (rr->valid)
			a = &acts[rr->action];
		memset(ad, 0, sizeof(ad));
		be_put(ad, db, rr->data);

		/* the model */
		memcpy(before, phv, pb + MODEL_SLACK);
		tr = open_memstream(&got, &got_len);
		if (!tr) {
			perror("open_memstream");
			goto out;
		}
		pisa_model_set_trace(m, tr);
		model_run_tables(m, phv, vlen, 0);
		pisa_model_set_trace(m, NULL);
		if (fclose(tr)) {
			perror("open_memstream");
			free(got);
			goto out;
		}

		/* the action again on the PHV before: the model's PHV after must be its */
		memcpy(alt, before, pb + MODEL_SLACK);
		if (a) {
			x = (struct exec_ctx){ .phv = alt, .vlen = vlen, .adata = ad, .db = db,
					       .table = (int16_t)t, .hit_row = hit ? hit_row :
					       MODEL_NO_ROW };
			rc = model_exec(m, &x, a->ins, a->n);
			if (rc != EXEC_OK && rc != EXEC_EXIT) {
				fprintf(stderr, "gen_stage_vectors: section %u case %lu: model_exec "
					"returned %d\n", s, c, rc);
				free(got);
				goto out;
			}
			exited = rc == EXEC_EXIT;
		}
		if (memcmp(alt, phv, pb)) {
			fprintf(stderr, "gen_stage_vectors: section %u case %lu: the PHV after "
				"model_run_tables is not %s\n", s, c,
				a ? "model_exec's for the action" : "the PHV before (no action ran)");
			free(got);
			goto out;
		}

		/* the next, as model_run_tables decides it */
		if (exited) {
			nx = PISA_NEXT_END;
		} else if (mode == PISA_NEXT_ACTION) {
			nx = a ? a->next : tb->next_miss;
		} else if (mode == PISA_NEXT_COND) {
			cond = pisa_bits_get(phv, tb->cond.bitoff, tb->cond.width) != 0;
			nx = cond ? tb->next_hit : tb->next_miss;
		} else {
			nx = hit ? tb->next_hit : tb->next_miss;
		}
		out_next = exited || nx <= t ? PISA_NEXT_END : nx;

		/* the model's trace of the table must say the same */
		if (a && hit)
			snprintf(want, sizeof(want), "  ingress: table %u hit row %" PRIu32
				 ": action %u\n", t, hit_row, rr->action);
		else if (a && !(kind == 2 && mode == PISA_NEXT_COND))	/* a gateway: no line */
			snprintf(want, sizeof(want), "  ingress: table %u %s: action %u\n", t,
				 kind == 2 ? "runs" : "miss, default", rr->action);
		else if (a)
			want[0] = 0;
		else
			snprintf(want, sizeof(want), "  ingress: table %u %s, no action\n", t,
				 hit ? "hit" : "miss");
		n = strlen(want);
		if (exited)
			snprintf(want + n, sizeof(want) - n, "  ingress: exit\n");
		else if (mode == PISA_NEXT_COND)
			snprintf(want + n, sizeof(want) - n, "  ingress: table %u: condition %s\n", t,
				 cond ? "true" : "false");
		if (strcmp(want, got)) {
			fprintf(stderr, "gen_stage_vectors: section %u case %lu: the model's trace\n%s"
				"is not the expected\n%s", s, c, got, want);
			free(got);
			goto out;
		}
		free(got);

		ext = a && a->ext;
		hits += (unsigned)hit;
		ran += a != NULL;
		externs += (unsigned)ext;
		if (exited)
			n_exit++;
		else if (nx == PISA_NEXT_END)
			n_end++;
		else if (nx <= t)
			n_back++;
		else
			n_fwd++;
		fprintf(f, "%x %x %x\n", hit, out_next, ext);
		put_phv(f, phv, pb);
	}
	ret = 0;
out:
	pisa_model_free(m);
	tb_done();
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long v[10];
	unsigned s, i;
	int ret = 0;
	FILE *f;

	if (argc < 11 || argc > 12) {
		fprintf(stderr, "usage: gen_stage_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS "
			"ENTRIES DATA_BYTES ACTIONS IA [CASES]\n");
		return 2;
	}
	for (i = 0; i < 9; i++)
		if (!parse(argv[2 + i], &v[i]))
			v[0] = 0;	/* fails the checks below */
	if (argc == 12 && !parse(argv[11], &ncases))
		ncases = 0;
	if (v[0] < 128 || v[0] > MAX_PHV || (v[0] & (v[0] - 1)) || v[1] < 1 || v[1] > MAX_FIELDS ||
	    v[2] < 2 || v[2] > MAX_KEY || v[3] < 1 || v[3] > 4 || v[4] < 1 || v[4] > 12 ||
	    v[5] < 2 || v[5] > MAX_ENTRIES || v[6] < 1 || v[6] > 8 || v[7] < 2 ||
	    v[7] > MAX_ACTIONS || v[8] < 4 || v[8] > 12 || ncases < 1 || ncases > 1000000) {
		fprintf(stderr, "usage: gen_stage_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS "
			"ENTRIES DATA_BYTES ACTIONS IA [CASES]\n"
			"  PHV_BYTES a power of 2 128..1024, FIELDS 1..%d, KEY_BYTES 2..%d, WAYS 1..4, "
			"WAY_BITS 1..12, ENTRIES 2..%d, DATA_BYTES 1..8, ACTIONS 2..%d, IA 4..12, "
			"CASES 1..1000000\n", MAX_FIELDS, MAX_KEY, MAX_ENTRIES, MAX_ACTIONS);
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
		printf("gen_stage_vectors: %d sections, %lu cases in %s (%lu hits, %lu actions run, "
		       "%lu externs; next: %lu exit, %lu end, %lu back (<= T: end), %lu forward, "
		       "%lu passed through)\n", SECTIONS, SECTIONS * ncases, argv[1], hits, ran,
		       externs, n_exit, n_end, n_back, n_fwd, n_pass);
	return ret;
}
