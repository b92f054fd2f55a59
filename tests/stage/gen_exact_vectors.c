/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_exact_vectors: row writes and lookups for the RTL exact-match unit
 * (hw/rtl/pisa_exact_match.v), with the result of each lookup as lib/pisa_switch.h defines
 * it: way w looks at bucket pisa_hash_way(w, key, KB) & (2^WAY_BITS - 1), and the first way
 * whose row is valid and holds the key hits. Fixed seed.
 *
 *   gen_exact_vectors OUT WAYS WAY_BITS KEY_BYTES DATA_BYTES [OPS]
 *
 * The ops come in phases; each phase picks a key length KB (1 .. KEY_BYTES, both ends often),
 * empties every row (invalid rows that hold junk, and some that hold a key of the phase), then
 * mixes inserts (a free way of the key's, else one evicted), deletes (valid cleared, key
 * kept), lookups of keys from a small pool (so that buckets collide, and present, deleted and
 * absent keys are all looked up) and lookups of keys longer than KEY_BYTES.
 *
 * One op per line, nine hex fields:
 *   1 way bucket valid action key data 0 0          a row write
 *   2 nbytes key hit too_long way bucket action data  a lookup and its result (a key of
 *                                                     nbytes > KEY_BYTES: the testbench sends
 *                                                     nbytes - KEY_BYTES bytes 0xA5 first)
 *   3 nbytes key hit too_long way bucket action data  the bench lookup (last), with its result:
 *                                                     a key the table holds, which the
 *                                                     testbench repeats back to back
 *   0 0 0 0 0 0 0 0 0                                 the end
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_common.h"

#define MAX_WAYS 4
#define POOL 48

struct row {
	int valid;
	uint16_t action;
	uint64_t key;
	uint64_t data;
};

static unsigned ways, way_bits, key_bytes, data_bytes;
static struct row *rows;	/* ways << way_bits */
static unsigned long lines;	/* ops written */

static void write_row(FILE *f, unsigned w, uint32_t b, struct row r)
{
	rows[(w << way_bits) | b] = r;
	lines++;
	fprintf(f, "1 %x %" PRIx32 " %x %x %" PRIx64 " %" PRIx64 " 0 0\n", w, b, r.valid,
		r.action, r.key, r.data);
}

/* The lookup of lib/pisa_switch.h (pisa-model's lookup() in model/model_table.c). */
static int lookup(FILE *f, int op, uint64_t key, unsigned kb)
{
	unsigned w;

	lines++;
	for (w = 0; w < ways; w++) {
		uint32_t b = bucket(w, key, kb, way_bits);
		const struct row *r = &rows[(w << way_bits) | b];

		if (r->valid && r->key == key) {
			fprintf(f, "%d %x %" PRIx64 " 1 0 %x %" PRIx32 " %x %" PRIx64 "\n", op, kb,
				key, w, b, r->action, r->data);
			return 1;
		}
	}
	fprintf(f, "%d %x %" PRIx64 " 0 0 0 0 0 0\n", op, kb, key);
	return 0;
}

static struct row random_row(uint64_t key, int valid)
{
	struct row r;

	r.valid = valid;
	r.action = (uint16_t)rnd();
	r.key = key;
	r.data = rnd() & mask(8 * data_bytes);
	return r;
}

int main(int argc, char **argv)
{
	unsigned long ops = 20000, n = 0, hits = 0, lookups = 0;	/* n: steps */
	unsigned kb = 1;
	uint64_t pool[POOL];
	FILE *f;

	if (argc < 6 || argc > 7) {
		fprintf(stderr, "usage: gen_exact_vectors OUT WAYS WAY_BITS KEY_BYTES DATA_BYTES [OPS]\n");
		return 2;
	}
	ways = (unsigned)strtoul(argv[2], NULL, 0);
	way_bits = (unsigned)strtoul(argv[3], NULL, 0);
	key_bytes = (unsigned)strtoul(argv[4], NULL, 0);
	data_bytes = (unsigned)strtoul(argv[5], NULL, 0);
	if (argc == 7)
		ops = strtoul(argv[6], NULL, 0);
	if (ways < 1 || ways > MAX_WAYS || way_bits < 1 || way_bits > 12 || key_bytes < 1 ||
	    key_bytes > MAX_KEY || data_bytes < 1 || data_bytes > 8) {
		fprintf(stderr, "gen_exact_vectors: WAYS 1..%d, WAY_BITS 1..12, KEY_BYTES 1..%d, "
			"DATA_BYTES 1..8\n", MAX_WAYS, MAX_KEY);
		return 2;
	}
	rows = calloc((size_t)ways << way_bits, sizeof(*rows));
	f = fopen(argv[1], "w");
	if (!rows || !f) {
		perror(argv[1]);
		return 1;
	}
	while (n < ops) {
		/* a phase: one key length, the rows emptied, then a mix */
		unsigned long end = n + 500 + rnd() % 1500;
		/* (the last phase, the bench's, mostly has the longest key) */
		kb = end >= ops || rnd() % 3 == 0 ? key_bytes :
			rnd() % 3 == 0 ? 1 : 1 + (unsigned)(rnd() % key_bytes);
		unsigned w, i;
		uint32_t b;

		for (i = 0; i < POOL; i++)
			pool[i] = rnd() & mask(8 * kb);
		for (w = 0; w < ways; w++)
			for (b = 0; b < (1u << way_bits); b++) {
				/* an invalid row never hits, even when it holds the key looked up */
				uint64_t k = rnd() % 4 ? rnd() & mask(8 * kb) : pool[rnd() % POOL];

				write_row(f, w, b, (struct row){ 0 });
				if (rnd() % 2)
					write_row(f, w, b, random_row(k, 0));
				n++;
			}
		for (; n < end; n++) {
			unsigned op = (unsigned)(rnd() % 16);
			uint64_t k = pool[rnd() % POOL];

			if (op < 4) {	/* insert: a free way of the key's, else evict one */
				unsigned free_ways[MAX_WAYS], nfree = 0;

				for (w = 0; w < ways; w++) {
					const struct row *r = &rows[(w << way_bits) | bucket(w, k, kb, way_bits)];

					if (r->valid && r->key == k)
						break;	/* a key is in one way at most */
					if (!r->valid)
						free_ways[nfree++] = w;
				}
				if (w < ways)	/* present: a new action and data in its row */
					write_row(f, w, bucket(w, k, kb, way_bits), random_row(k, 1));
				else {
					w = nfree ? free_ways[rnd() % nfree] : (unsigned)(rnd() % ways);
					write_row(f, w, bucket(w, k, kb, way_bits), random_row(k, 1));
				}
			} else if (op == 4) {
				/* the key in a second way too, as a move between ways leaves it for a
				 * while: the first way that holds it still wins */
				w = (unsigned)(rnd() % ways);
				write_row(f, w, bucket(w, k, kb, way_bits), random_row(k, 1));
			} else if (op < 6) {	/* delete: the row keeps its key */
				for (w = 0; w < ways; w++) {
					struct row *r = &rows[(w << way_bits) | bucket(w, k, kb, way_bits)];

					if (r->valid && r->key == k) {
						struct row d = *r;

						d.valid = 0;
						write_row(f, w, bucket(w, k, kb, way_bits), d);
					}
				}
			} else if (op == 6) {	/* too long: a miss, whatever the table holds */
				lines++;
				fprintf(f, "2 %x %" PRIx64 " 0 1 0 0 0 0\n",
					key_bytes + 1 + (unsigned)(rnd() % 3),
					pool[rnd() % POOL] & mask(8 * key_bytes));
				lookups++;
			} else {
				if (op == 7)
					k = rnd() & mask(8 * kb);	/* most likely absent */
				hits += lookup(f, 2, k, kb);
				lookups++;
			}
		}
	}
	{	/* the bench: a key of the last phase put in a way, then looked up */
		uint64_t k = pool[rnd() % POOL];
		unsigned w = (unsigned)(rnd() % ways);

		write_row(f, w, bucket(w, k, kb, way_bits), random_row(k, 1));
		lookup(f, 3, k, kb);
	}
	fprintf(f, "0 0 0 0 0 0 0 0 0\n");
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("gen_exact_vectors: %lu ops, %lu lookups (%lu hits) in %s\n", lines, lookups,
	       hits, argv[1]);
	free(rows);
	return 0;
}
