/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_ternary_vectors: row writes and lookups for the RTL ternary-match unit
 * (hw/rtl/pisa_ternary_match.v), with the result of each lookup as lib/pisa_switch.h defines
 * it for a TCAM table: the lowest-index valid row with (key & mask) == (value & mask) hits.
 * Fixed seed.
 *
 *   gen_ternary_vectors OUT ENTRIES KEY_BYTES DATA_BYTES [OPS]
 *
 * The ops come in phases; each phase picks a key length KB (1 .. KEY_BYTES, both ends often,
 * the last phase KEY_BYTES) and writes every row (the unit's rows are laid out for one KB:
 * invalid rows holding junk),
 * then mixes row writes (masks of random bits, prefixes as an lpm table's, whole bytes, all
 * ones, rarely none), deletes (valid cleared, value and mask kept), lookups of keys made to hit a
 * row (its value, random bits where its mask is clear: a lower row may hit first), of random
 * keys and of keys longer than KEY_BYTES. The last phase ends with the bench: a row written (the
 * testbench times writing it again) and a lookup that hits it, which the testbench repeats
 * back to back.
 *
 * One op per line, eight hex fields:
 *   1 index nbytes valid action value mask data   a row write (value, mask: KB bytes)
 *   2 nbytes key hit too_long index action data   a lookup and its result (a key of
 *                                                 nbytes > KEY_BYTES: the testbench sends
 *                                                 nbytes - KEY_BYTES bytes 0xA5 first)
 *   4 index nbytes valid action value mask data   the bench row's write (as 1)
 *   3 nbytes key hit too_long index action data   the bench lookup, with its result
 *   0 0 0 0 0 0 0 0                               the end
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_common.h"

#define MAX_ENTRIES 256

struct row {
	int valid;
	uint16_t action;
	uint64_t value, mask;
	uint64_t data;
};

static unsigned entries, key_bytes, data_bytes;
static struct row rows[MAX_ENTRIES];
static unsigned long lines;	/* ops written */

static void write_row(FILE *f, int op, unsigned i, unsigned kb, struct row r)
{
	rows[i] = r;
	lines++;
	fprintf(f, "%d %x %x %x %x %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", op, i, kb, r.valid,
		r.action, r.value, r.mask, r.data);
}

/* The TCAM lookup of lib/pisa_switch.h (pisa-model's tcam_lookup in model/model_table.c). */
static int lookup(FILE *f, int op, uint64_t key, unsigned kb)
{
	unsigned i;

	lines++;
	for (i = 0; i < entries; i++) {
		const struct row *r = &rows[i];

		if (r->valid && (key & r->mask) == (r->value & r->mask)) {
			fprintf(f, "%d %x %" PRIx64 " 1 0 %x %x %" PRIx64 "\n", op, kb, key, i,
				r->action, r->data);
			return 1;
		}
	}
	fprintf(f, "%d %x %" PRIx64 " 0 0 0 0 0\n", op, kb, key);
	return 0;
}

/* A mask of KB bytes: random bits (mostly ones), a prefix (lpm), whole bytes, all ones, or
 * rarely none (a row that matches every key hides every row after it). */
static uint64_t random_mask(unsigned kb)
{
	unsigned bits = 8 * kb, b;
	uint64_t m = 0;

	if (rnd() % 32 == 0)
		return 0;
	switch (rnd() % 5) {
	case 0:
		return (rnd() | rnd()) & mask(bits);
	case 1:
	case 2:
		b = 1 + (unsigned)(rnd() % bits);	/* prefix length */
		return mask(bits) & ~mask(bits - b);
	case 3:
		for (b = 0; b < kb; b++)
			if (rnd() % 2)
				m |= UINT64_C(0xFF) << (8 * b);
		return m;
	default:
		return mask(bits);
	}
}

static struct row random_row(unsigned kb, int valid)
{
	struct row r;

	r.valid = valid;
	r.action = (uint16_t)rnd();
	r.mask = random_mask(kb);
	/* bits outside the mask stay in the row: they must not matter */
	r.value = rnd() & mask(8 * kb);
	r.data = rnd() & mask(8 * data_bytes);
	return r;
}

/* A key that row i matches, if it is valid. */
static uint64_t key_of(unsigned i, unsigned kb)
{
	const struct row *r = &rows[i];

	return ((r->value & r->mask) | (rnd() & ~r->mask)) & mask(8 * kb);
}

int main(int argc, char **argv)
{
	unsigned long ops = 3000, n = 0, hits = 0, lookups = 0;	/* n: steps */
	unsigned kb = 1;
	FILE *f;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: gen_ternary_vectors OUT ENTRIES KEY_BYTES DATA_BYTES [OPS]\n");
		return 2;
	}
	entries = (unsigned)strtoul(argv[2], NULL, 0);
	key_bytes = (unsigned)strtoul(argv[3], NULL, 0);
	data_bytes = (unsigned)strtoul(argv[4], NULL, 0);
	if (argc == 6)
		ops = strtoul(argv[5], NULL, 0);
	if (entries < 2 || entries > MAX_ENTRIES || key_bytes < 1 || key_bytes > MAX_KEY ||
	    data_bytes < 1 || data_bytes > 8) {
		fprintf(stderr, "gen_ternary_vectors: ENTRIES 2..%d, KEY_BYTES 1..%d, DATA_BYTES 1..8\n",
			MAX_ENTRIES, MAX_KEY);
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	while (n < ops) {
		/* a phase: one key length, every row written, then a mix */
		unsigned long end = n + 300 + rnd() % 700;
		unsigned i;

		/* (the last phase, the bench's, has the longest key) */
		kb = end >= ops || rnd() % 3 == 0 ? key_bytes :
			rnd() % 3 == 0 ? 1 : 1 + (unsigned)(rnd() % key_bytes);
		for (i = 0; i < entries; i++, n++)
			write_row(f, 1, i, kb, random_row(kb, rnd() % 8 == 0));
		for (; n < end; n++) {
			unsigned op = (unsigned)(rnd() % 16);

			i = (unsigned)(rnd() % entries);
			if (op < 3) {
				write_row(f, 1, i, kb, random_row(kb, 1));
			} else if (op == 3) {	/* delete: value and mask stay */
				struct row d = rows[i];

				d.valid = 0;
				write_row(f, 1, i, kb, d);
			} else if (op == 4) {	/* too long: a miss, whatever the table holds */
				lines++;
				fprintf(f, "2 %x %" PRIx64 " 0 1 0 0 0\n",
					key_bytes + 1 + (unsigned)(rnd() % 3), rnd() & mask(8 * key_bytes));
				lookups++;
			} else {
				uint64_t k = op < 7 ? rnd() & mask(8 * kb) : key_of(i, kb);

				hits += lookup(f, 2, k, kb);
				lookups++;
			}
		}
	}
	/* the bench: a valid row past the middle, a key it matches (it or a row before it hits) */
	{
		unsigned i = entries / 2 + (unsigned)(rnd() % (entries / 2));

		write_row(f, 4, i, kb, rows[i].valid ? rows[i] : random_row(kb, 1));
		lookup(f, 3, key_of(i, kb), kb);
	}
	fprintf(f, "0 0 0 0 0 0 0 0\n");
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("gen_ternary_vectors: %lu ops, %lu lookups (%lu hits) in %s\n", lines, lookups,
	       hits, argv[1]);
	return 0;
}
