/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_lpm.c: a faster exact replacement of the TCAM index for LPM-shaped
 * tables (keys of up to 64 bits).
 *
 * When every mask is a prefix and, for any two rows whose prefixes nest,
 * the longer one sits in the lower row (the order pisa_ctl keeps), the
 * lowest-index matching row is the longest matching prefix. Then a binary
 * search on the prefix lengths with markers (Waldvogel et al.) finds it in
 * log2(lengths) probes instead of one probe per length. Anything else keeps
 * the per-mask index: the result is always that of the lowest-index scan.
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static uint32_t lhash(uint64_t k, unsigned li)
{
	return (uint32_t)(((k ^ (uint64_t)li << 56) * 0x9E3779B97F4A7C15ull) >> 32);
}

static const struct lpm_slot *slot_find(const struct tcam_index *ix, unsigned li, uint64_t k)
{
	uint32_t h;

	for (h = lhash(k, li) >> ix->lhshift;; h = (h + 1) & ix->lhmask) {
		const struct lpm_slot *sl = &ix->lslots[h];

		if (!sl->used)
			return NULL;
		if (sl->li == li && sl->key == k)
			return sl;
	}
}

static void slot_add(struct tcam_index *ix, unsigned li, uint64_t k)
{
	uint32_t h;

	for (h = lhash(k, li) >> ix->lhshift;; h = (h + 1) & ix->lhmask) {
		struct lpm_slot *sl = &ix->lslots[h];

		if (!sl->used) {
			sl->used = 1;
			sl->key = k;
			sl->li = (uint8_t)li;
			sl->bmp = MODEL_NO_ROW;
			return;
		}
		if (sl->li == li && sl->key == k)
			return;
	}
}

static int cmp_len(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

int model_lpm_build(struct mtable *mt)
{
	struct tcam_index *ix = &mt->ix;
	unsigned w = mt->key_bits, n = ix->ngroups, li, t;
	uint64_t order[65];
	uint32_t r, li_of_group[65];
	size_t nent = 0, nslots, i;

	ix->lpm = 0;
	if (n == 0 || n > 65 || w == 0 || w > 64)
		return 0;
	/* every mask a prefix of the key_bits-wide key */
	for (li = 0; li < n; li++) {
		uint64_t mk = ix->mask64[li];
		unsigned len = (unsigned)__builtin_popcountll(mk);
		uint64_t want;

		if (len > w)	/* mask bits above the key's (a row may have them): no prefix */
			return 0;
		want = len ? (~0ull >> (64 - len)) << (w - len) : 0;
		if (mk != want)
			return 0;
		order[li] = (uint64_t)len << 8 | li;
	}
	qsort(order, n, sizeof(order[0]), cmp_len);
	for (li = 0; li < n; li++) {
		uint32_t g = (uint32_t)(order[li] & 0xFF);

		ix->lgrp[li] = g;
		ix->lmask[li] = ix->mask64[g];
		li_of_group[g] = li;
	}
	/* nested prefixes: the longer one must be in the lower row */
	for (r = 0; r < mt->rows; r++) {
		uint32_t g = ix->group_of[r];
		uint64_t v;

		if (g == MODEL_NO_ROW)
			continue;
		v = model_be_get(mt->mem + (size_t)r * mt->rb + PISA_ROW_HDR, mt->kb) &
		    ix->mask64[g];
		if (model_ix_find64(ix, g, v) != r)
			continue;	/* shadowed by a lower duplicate: never wins */
		for (t = 0; t < li_of_group[g]; t++) {
			uint32_t o = model_ix_find64(ix, ix->lgrp[t], v & ix->lmask[t]);

			if (o != MODEL_NO_ROW && o < r)
				return 0;
		}
		nent += 8;	/* the prefix and at most 7 markers */
	}
	for (nslots = 16; nslots < nent * 2; nslots *= 2)
		;
	if (nslots > ix->cap_lslots) {
		void *p = realloc(ix->lslots, nslots * sizeof(*ix->lslots));

		if (!p)
			return -PISA_E_NOMEM;
		ix->lslots = p;
		ix->cap_lslots = nslots;
	}
	memset(ix->lslots, 0, nslots * sizeof(*ix->lslots));
	ix->lhmask = (uint32_t)nslots - 1;
	for (ix->lhshift = 32; (1ull << (32 - ix->lhshift)) < nslots; ix->lhshift--)
		;
	ix->nlen = n;
	/* the prefixes and the markers on their search paths */
	for (r = 0; r < mt->rows; r++) {
		uint32_t g = ix->group_of[r];
		int lo = 0, hi = (int)n - 1;
		uint64_t v;

		if (g == MODEL_NO_ROW)
			continue;
		v = model_be_get(mt->mem + (size_t)r * mt->rb + PISA_ROW_HDR, mt->kb) &
		    ix->mask64[g];
		t = li_of_group[g];
		slot_add(ix, t, v);
		while (lo <= hi) {
			int mid = (lo + hi) / 2;

			if ((unsigned)mid == t)
				break;
			if ((unsigned)mid < t) {
				slot_add(ix, (unsigned)mid, v & ix->lmask[mid]);
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
	}
	/* each entry's best real prefix: the longest at or below its length */
	for (i = 0; i < nslots; i++) {
		struct lpm_slot *sl = &ix->lslots[i];
		int j;

		if (!sl->used)
			continue;
		for (j = sl->li; j >= 0; j--) {
			uint32_t o = model_ix_find64(ix, ix->lgrp[j], sl->key & ix->lmask[j]);

			if (o != MODEL_NO_ROW) {
				sl->bmp = o;
				break;
			}
		}
	}
	ix->lpm = 1;
	return 0;
}

uint32_t model_lpm_lookup(const struct tcam_index *ix, uint64_t key)
{
	uint32_t best = MODEL_NO_ROW;
	int lo = 0, hi = (int)ix->nlen - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const struct lpm_slot *sl = slot_find(ix, (unsigned)mid, key & ix->lmask[mid]);

		if (sl) {
			best = sl->bmp;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}
