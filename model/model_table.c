/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_table.c: table lookup by memory kind, actions, direct resources and
 * next pointers (docs/architecture.md, "Stages and tables").
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

int model_table_init(struct pisa_model *m, unsigned t)
{
	const struct pisa_table *tb = &m->img->tables[t];
	struct mtable *mt = &m->tables[t];
	unsigned i;

	mt->kb = (uint32_t)pisa_row_key_bytes(tb);
	mt->mb = (uint32_t)pisa_row_match_bytes(tb);
	mt->db = (uint32_t)pisa_row_adata_bytes(tb);
	mt->rb = (uint32_t)pisa_row_bytes(tb);
	mt->key_bits = tb->key_bits;
	mt->rows = tb->rows;
	if (tb->mem == PISA_MEM_HASH)	/* an absurd geometry gets no rows: every lookup misses */
		mt->rows = tb->way_bits < 28 ? (uint32_t)tb->ways << tb->way_bits : 0;
	for (i = 0; i < tb->nkeys; i++)
		if (tb->keys[i].match == PISA_MATCH_RANGE)
			mt->nrange++;
	mt->use_ix = tb->mem == PISA_MEM_TCAM && mt->nrange == 0 && mt->kb > 0;
	mt->ix.dirty = 1;
	mt->mem = calloc(((size_t)mt->rows + 1) * mt->rb + MODEL_SLACK, 1);
	mt->aidx = malloc(((size_t)mt->rows + 1) * sizeof(*mt->aidx));
	if (!mt->mem || !mt->aidx)
		return -PISA_E_NOMEM;
	for (i = 0; i <= mt->rows; i++)
		mt->aidx[i] = MODEL_NO_ACTION;
	if (mt->use_ix) {
		mt->ix.group_of = malloc(((size_t)mt->rows + 1) * sizeof(*mt->ix.group_of));
		if (!mt->ix.group_of)
			return -PISA_E_NOMEM;
		if (mt->kb <= 8) {
			mt->lc = calloc((size_t)1 << MODEL_LC_BITS, sizeof(*mt->lc));
			if (!mt->lc)
				return -PISA_E_NOMEM;
			mt->lc_gen = 1;
		}
	}
	return 0;
}

void model_table_free(struct mtable *mt)
{
	free(mt->mem);
	free(mt->aidx);
	free(mt->ix.groups);
	free(mt->ix.masks);
	free(mt->ix.group_of);
	free(mt->ix.slots);
	free(mt->ix.slots64);
	free(mt->ix.mask64);
	free(mt->lc);
	free(mt->ix.lslots);
}

/* The table's key, right-aligned in kb bytes (and as a number when it has
 * at most 64 bits); range field values on the side. */
static uint64_t build_key(struct pisa_model *m, const struct pisa_table *tb,
			  const struct mtable *mt, const uint8_t *phv, uint8_t *key, uint64_t *rv)
{
	size_t pos = (size_t)mt->kb * 8 - tb->key_bits;
	uint64_t kv = 0;
	unsigned i, r = 0;

	if (tb->key_bits <= 64) {
		for (i = 0; i < tb->nkeys; i++) {
			struct pisa_field f = tb->keys[i].field;
			uint64_t v = model_get(m, phv, f);

			if (f.width == 0 || f.width > 64)
				continue;
			kv = (f.width == 64 ? 0 : kv << f.width) | v;
			if (tb->keys[i].match == PISA_MATCH_RANGE && r < MODEL_MAX_RANGE)
				rv[r++] = v;
		}
		model_be_put(key, mt->kb, kv);
		return kv;
	}
	memset(key, 0, mt->kb);
	for (i = 0; i < tb->nkeys; i++) {
		struct pisa_field f = tb->keys[i].field;
		uint64_t v = model_get(m, phv, f);

		if (f.width == 0 || f.width > 64)
			continue;
		if (pos + f.width <= (size_t)mt->kb * 8)
			pisa_bits_set(key, pos, f.width, v);
		pos += f.width;
		if (tb->keys[i].match == PISA_MATCH_RANGE && r < MODEL_MAX_RANGE)
			rv[r++] = v;
	}
	return 0;
}

static int tcam_match(const struct pisa_table *tb, const struct mtable *mt, const uint8_t *row,
		      const uint8_t *key, const uint64_t *rv)
{
	const uint8_t *val = row + PISA_ROW_HDR, *mask = val + mt->kb, *rg;
	unsigned i, r = 0;

	for (i = 0; i < mt->kb; i++)
		if ((key[i] & mask[i]) != (val[i] & mask[i]))
			return 0;
	if (!mt->nrange)
		return 1;
	rg = mask + mt->kb;
	for (i = 0; i < tb->nkeys; i++) {
		unsigned n;
		uint64_t lo, hi;

		if (tb->keys[i].match != PISA_MATCH_RANGE)
			continue;
		if (r >= MODEL_MAX_RANGE)
			break;
		n = (tb->keys[i].field.width + 7) / 8;
		lo = model_be_get(rg, n > 8 ? 8 : n);
		hi = model_be_get(rg + n, n > 8 ? 8 : n);
		if (rv[r] < lo || rv[r] > hi)
			return 0;
		r++;
		rg += 2 * n;
	}
	return 1;
}

/* ---- TCAM acceleration index ---- */

static uint32_t ix_hash(const uint8_t *p, unsigned n, uint32_t g)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ g;
	unsigned i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001B3ull;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return (uint32_t)(h ^ (h >> 32));
}

static inline uint32_t ix_hash64(uint64_t k, uint32_t g)
{
	/* Fibonacci hashing: the top bits of the product depend on every key
	 * bit; callers shift them down (ix_slot_of) */
	return (uint32_t)(((k ^ (uint64_t)g << 40) * 0x9E3779B97F4A7C15ull) >> 32);
}

/* Groups are built; fill the 64-bit slots, lowest row first per (group, key). */
static int ix_build64(struct mtable *mt, size_t nslots)
{
	struct tcam_index *ix = &mt->ix;
	uint32_t r, g;
	size_t i;

	for (i = 0; i < nslots; i++)
		ix->slots64[i].row = MODEL_NO_ROW;
	for (g = 0; g < ix->ngroups; g++)
		ix->mask64[g] = model_be_get(ix->masks + ix->groups[g].mask_off, mt->kb);
	for (r = 0; r < mt->rows; r++) {
		const uint8_t *val = mt->mem + (size_t)r * mt->rb + PISA_ROW_HDR;
		uint64_t k;
		uint32_t h;

		g = ix->group_of[r];
		if (g == MODEL_NO_ROW)
			continue;
		k = model_be_get(val, mt->kb) & ix->mask64[g];
		for (h = ix_hash64(k, g) >> ix->hshift;; h = (h + 1) & ix->hmask) {
			struct ix_slot64 *sl = &ix->slots64[h];

			if (sl->row == MODEL_NO_ROW) {
				sl->key = k;
				sl->row = r;
				sl->group = g;
				break;
			}
			if (sl->group == g && sl->key == k)
				break;	/* a lower row with the same (mask, value) shadows r */
		}
	}
	ix->lpm = 0;
	if (model_lpm_build(mt) < 0)
		return -PISA_E_NOMEM;
	ix->dirty = 0;
	return 0;
}

uint32_t model_ix_find64(const struct tcam_index *ix, uint32_t g, uint64_t k)
{
	uint32_t h;

	for (h = ix_hash64(k, g) >> ix->hshift;; h = (h + 1) & ix->hmask) {
		const struct ix_slot64 *sl = &ix->slots64[h];

		if (sl->row == MODEL_NO_ROW)
			return MODEL_NO_ROW;
		if (sl->group == g && sl->key == k)
			return sl->row;
	}
}

static uint32_t ix_lookup64(const struct tcam_index *ix, uint64_t key)
{
	uint32_t best = MODEL_NO_ROW, g;

	if (ix->lpm)
		return model_lpm_lookup(ix, key);
	for (g = 0; g < ix->ngroups && ix->groups[g].min_row < best; g++) {
		uint64_t k = key & ix->mask64[g];
		uint32_t h;

		for (h = ix_hash64(k, g) >> ix->hshift;; h = (h + 1) & ix->hmask) {
			const struct ix_slot64 *sl = &ix->slots64[h];

			if (sl->row == MODEL_NO_ROW)
				break;
			if (sl->group == g && sl->key == k) {
				if (sl->row < best)
					best = sl->row;
				break;
			}
		}
	}
	return best;
}

static int ix_build(struct mtable *mt)
{
	struct tcam_index *ix = &mt->ix;
	uint32_t r, nvalid = 0, g;
	size_t nslots;

	ix->ngroups = 0;
	ix->scan = 0;
	for (r = 0; r < mt->rows; r++) {
		const uint8_t *row = mt->mem + (size_t)r * mt->rb;
		const uint8_t *mask = row + PISA_ROW_HDR + mt->kb;

		ix->group_of[r] = MODEL_NO_ROW;
		if (!(row[0] & PISA_ROW_VALID))
			continue;
		nvalid++;
		/* rows are scanned in index order, so a group's first row is its min */
		for (g = 0; g < ix->ngroups; g++)
			if (!memcmp(ix->masks + ix->groups[g].mask_off, mask, mt->kb))
				break;
		if (g == ix->ngroups && g >= MODEL_IX_MAX_GROUPS) {
			/* so many masks that probing each costs more than a scan */
			ix->scan = 1;
			ix->dirty = 0;
			return 0;
		}
		if (g == ix->ngroups) {
			if (ix->ngroups == ix->cap_groups) {
				size_t nc = ix->cap_groups ? ix->cap_groups * 2 : 8;
				void *ng = realloc(ix->groups, nc * sizeof(*ix->groups));
				void *nm;

				if (!ng)
					return -PISA_E_NOMEM;
				ix->groups = ng;
				nm = realloc(ix->masks, nc * mt->kb);
				if (!nm)
					return -PISA_E_NOMEM;
				ix->masks = nm;
				nm = realloc(ix->mask64, nc * sizeof(*ix->mask64));
				if (!nm)
					return -PISA_E_NOMEM;
				ix->mask64 = nm;
				ix->cap_groups = nc;
			}
			ix->groups[g].min_row = r;
			ix->groups[g].mask_off = g * mt->kb;
			memcpy(ix->masks + (size_t)g * mt->kb, mask, mt->kb);
			ix->ngroups++;
		}
		ix->group_of[r] = g;
	}
	for (nslots = 16; nslots < (size_t)nvalid * 2; nslots *= 2)
		;
	if (nslots > ix->cap_slots) {
		void *ns;

		if (mt->kb <= 8) {
			ns = realloc(ix->slots64, nslots * sizeof(*ix->slots64));
			if (!ns)
				return -PISA_E_NOMEM;
			ix->slots64 = ns;
		} else {
			ns = realloc(ix->slots, nslots * sizeof(*ix->slots));
			if (!ns)
				return -PISA_E_NOMEM;
			ix->slots = ns;
		}
		ix->cap_slots = nslots;
	}
	ix->hmask = (uint32_t)nslots - 1;
	for (ix->hshift = 32; (1ull << (32 - ix->hshift)) < nslots; ix->hshift--)
		;
	if (mt->kb <= 8)
		return ix_build64(mt, nslots);
	memset(ix->slots, 0xFF, nslots * sizeof(*ix->slots));
	for (r = 0; r < mt->rows; r++) {
		const uint8_t *row = mt->mem + (size_t)r * mt->rb;
		const uint8_t *val = row + PISA_ROW_HDR, *mask = val + mt->kb;
		uint8_t mv[256];
		uint32_t h;
		unsigned i;

		g = ix->group_of[r];
		if (g == MODEL_NO_ROW)
			continue;
		for (i = 0; i < mt->kb; i++)
			mv[i] = val[i] & mask[i];
		h = ix_hash(mv, mt->kb, g) & ix->hmask;
		for (;; h = (h + 1) & ix->hmask) {
			uint32_t o = ix->slots[h];
			const uint8_t *orow;

			if (o == MODEL_NO_ROW) {
				ix->slots[h] = r;
				break;
			}
			if (ix->group_of[o] != g)
				continue;
			orow = mt->mem + (size_t)o * mt->rb + PISA_ROW_HDR;
			for (i = 0; i < mt->kb; i++)
				if ((orow[i] & mask[i]) != mv[i])
					break;
			if (i == mt->kb)
				break;	/* a lower row with the same (mask, value) shadows r */
		}
	}
	ix->dirty = 0;
	return 0;
}

static uint32_t ix_lookup(struct mtable *mt, const uint8_t *key)
{
	struct tcam_index *ix = &mt->ix;
	uint32_t best = MODEL_NO_ROW, g;
	uint8_t mk[256];

	for (g = 0; g < ix->ngroups; g++) {
		const uint8_t *mask = ix->masks + ix->groups[g].mask_off;
		uint32_t h;
		unsigned i;

		if (ix->groups[g].min_row >= best)
			break;
		for (i = 0; i < mt->kb; i++)
			mk[i] = key[i] & mask[i];
		h = ix_hash(mk, mt->kb, g) & ix->hmask;
		for (;; h = (h + 1) & ix->hmask) {
			uint32_t o = ix->slots[h];
			const uint8_t *val;

			if (o == MODEL_NO_ROW)
				break;
			if (ix->group_of[o] != g)
				continue;
			val = mt->mem + (size_t)o * mt->rb + PISA_ROW_HDR;
			for (i = 0; i < mt->kb; i++)
				if ((val[i] & mask[i]) != mk[i])
					break;
			if (i == mt->kb) {
				if (o < best)
					best = o;
				break;
			}
		}
	}
	return best;
}

static uint32_t tcam_lookup(const struct pisa_table *tb, struct mtable *mt, const uint8_t *key,
			    uint64_t kv, const uint64_t *rv)
{
	uint32_t r;

	if (mt->use_ix && mt->kb <= 256 && (!mt->ix.dirty || ix_build(mt) == 0) && !mt->ix.scan)
		return mt->kb <= 8 ? ix_lookup64(&mt->ix, kv) : ix_lookup(mt, key);
	for (r = 0; r < mt->rows; r++) {
		const uint8_t *row = mt->mem + (size_t)r * mt->rb;

		if ((row[0] & PISA_ROW_VALID) && tcam_match(tb, mt, row, key, rv))
			return r;
	}
	return MODEL_NO_ROW;
}

/* Returns the row that hits or MODEL_NO_ROW. */
static uint32_t lookup(struct pisa_model *m, const struct pisa_table *tb, struct mtable *mt,
		       const uint8_t *key, uint64_t kv, const uint64_t *rv)
{
	uint32_t r;

	if (tb->mem == PISA_MEM_HASH) {
		unsigned w;
		uint32_t bmask = (uint32_t)model_mask(tb->way_bits);

		for (w = 0; w < tb->ways; w++) {
			const uint8_t *row;

			r = (uint32_t)w << tb->way_bits | (pisa_hash_way(w, key, mt->kb) & bmask);
			if (r >= mt->rows)
				break;
			row = mt->mem + (size_t)r * mt->rb;
			if ((row[0] & PISA_ROW_VALID) && !memcmp(row + PISA_ROW_HDR, key, mt->kb))
				return r;
		}
		return MODEL_NO_ROW;
	}
	if (tb->mem != PISA_MEM_TCAM)
		return MODEL_NO_ROW;
	if (mt->lc) {
		/* two-way sets; a new result goes first, the older one second */
		struct lc_ent *e = &mt->lc[(kv * 0x9E3779B97F4A7C15ull) >> (65 - MODEL_LC_BITS) << 1];

		if (e[0].gen == mt->lc_gen && e[0].key == kv)
			return e[0].row;
		if (e[1].gen == mt->lc_gen && e[1].key == kv)
			return e[1].row;
		e[1] = e[0];
		e[0].key = kv;
		e[0].row = tcam_lookup(tb, mt, key, kv, rv);
		e[0].gen = mt->lc_gen;
		return e[0].row;
	}
	return tcam_lookup(tb, mt, key, kv, rv);
}

void model_run_tables(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, unsigned gress)
{
	const struct pisa_image *img = m->img;
	unsigned next = gress ? img->egress_start : img->ingress_start;
	const char *gname = gress ? "egress" : "ingress";
	uint64_t rv[MODEL_MAX_RANGE];
	char tn[96], an[96];

	while (next != PISA_NEXT_END && next < img->ntables) {
		const struct pisa_table *tb = &img->tables[next];
		struct mtable *mt = &m->tables[next];
		struct exec_ctx c = { .phv = phv, .vlen = vlen, .table = (int16_t)next };
		uint32_t row;
		const uint8_t *rp;
		unsigned ai, nx;
		int r = EXEC_OK, hit, cond;
		/* a gateway's trace line is its condition */
		int gateway = tb->next_mode == PISA_NEXT_COND && tb->mem == PISA_MEM_NONE;

		if (tb->gress != gress)
			break;
		row = MODEL_NO_ROW;
		if (tb->mem != PISA_MEM_NONE && mt->kb <= m->key_cap) {
			uint64_t kv = build_key(m, tb, mt, phv, m->key, rv);

			row = lookup(m, tb, mt, m->key, kv, rv);
		}
		hit = row != MODEL_NO_ROW;
		c.hit_row = row;
		rp = mt->mem + (size_t)(hit ? row : mt->rows) * mt->rb;
		ai = mt->aidx[hit ? row : mt->rows];
		if (!(rp[0] & PISA_ROW_VALID))
			ai = MODEL_NO_ACTION;
		if (hit && tb->direct_counter >= 0)
			model_count(m, (unsigned)tb->direct_counter, row,
				    model_get(m, phv, PISA_SM_PACKET_LENGTH));
		if (ai != MODEL_NO_ACTION) {
			unsigned act = tb->actions[ai].action;

			if (m->trace && !gateway) {
				if (hit)
					model_trace(m, "  %s: %s hit row %u: %s", gname,
						    model_table_name(m, next, tn, sizeof(tn)), row,
						    model_action_name(m, act, an, sizeof(an)));
				else
					model_trace(m, "  %s: %s %s: %s", gname,
						    model_table_name(m, next, tn, sizeof(tn)),
						    tb->mem == PISA_MEM_NONE ? "runs" : "miss, default",
						    model_action_name(m, act, an, sizeof(an)));
			}
			if (act < img->nactions) {
				c.adata = rp + PISA_ROW_HDR + mt->mb;
				c.db = mt->db;
				r = model_exec(m, &c, img->actions[act].insns, img->actions[act].ninsns);
			}
		} else if (m->trace) {
			model_trace(m, "  %s: %s %s, no action", gname,
				    model_table_name(m, next, tn, sizeof(tn)), hit ? "hit" : "miss");
		}
		if (r == EXEC_EXIT) {
			if (m->trace)
				model_trace(m, "  %s: exit", gname);
			break;
		}
		switch (tb->next_mode) {
		case PISA_NEXT_ACTION:
			nx = ai != MODEL_NO_ACTION ? tb->actions[ai].next : tb->next_miss;
			break;
		case PISA_NEXT_COND:
			cond = model_get(m, phv, tb->cond) != 0;
			nx = cond ? tb->next_hit : tb->next_miss;
			if (m->trace)
				model_trace(m, "  %s: %s: condition %s", gname,
					    model_table_name(m, next, tn, sizeof(tn)),
					    cond ? "true" : "false");
			break;
		default:
			nx = hit ? tb->next_hit : tb->next_miss;
			break;
		}
		/* next pointers go forward only; anything else ends the pass */
		if (nx <= next)
			break;
		next = nx;
	}
}
