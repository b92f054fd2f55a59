/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_match_vectors: a stage's match, from the PHV to the row, for the testbench of
 * hw/rtl/pisa_stage_match.v (pisa_key_gather into pisa_exact_match or pisa_ternary_match): an
 * exact table and a ternary table, each with its own key field list and rows whose keys come
 * from random PHVs, then PHVs to look up in one table or the other (most of them those the rows
 * came from, with the bits outside the key changed) and the row each must find. The keys are
 * built with lib's pisa_bits_get / pisa_bits_set; the exact table's buckets come from
 * pisa_hash_way and its first valid way that holds the key hits; the ternary table's lowest
 * valid row with (key & mask) == (value & mask) hits (lib/pisa_switch.h). Fixed seed.
 *
 *   gen_match_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS ENTRIES DATA_BYTES [CASES]
 *
 * As hex numbers: for the exact table then the ternary one, nfields, then per field its bit
 * offset and width; the exact rows' count, then per row: way bucket valid action key data; the
 * ternary rows' count (ENTRIES), then per row: index nbytes valid action value mask data; the
 * case count, then per case the table (0 exact, 1 ternary), the PHV's bytes and the result: hit
 * index action data (index: (way << WAY_BITS) | bucket, or the ternary row; zeros on a miss).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_common.h"
#include "gen_keys.h"

#define MAX_ENTRIES 256
#define SOURCES 64	/* PHVs the rows' keys come from */

int main(int argc, char **argv)
{
	unsigned phv_bytes, fields, key_bytes, ways, way_bits, entries, data_bytes, i, w;
	unsigned long cases = 2000, c, hits = 0;
	uint8_t (*src)[1024];
	struct row *rows, trows[MAX_ENTRIES];
	struct key ek, tk;
	FILE *f;

	if (argc < 9 || argc > 10) {
		fprintf(stderr, "usage: gen_match_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS "
			"ENTRIES DATA_BYTES [CASES]\n");
		return 2;
	}
	phv_bytes = (unsigned)strtoul(argv[2], NULL, 0);
	fields = (unsigned)strtoul(argv[3], NULL, 0);
	key_bytes = (unsigned)strtoul(argv[4], NULL, 0);
	ways = (unsigned)strtoul(argv[5], NULL, 0);
	way_bits = (unsigned)strtoul(argv[6], NULL, 0);
	entries = (unsigned)strtoul(argv[7], NULL, 0);
	data_bytes = (unsigned)strtoul(argv[8], NULL, 0);
	if (argc == 10)
		cases = strtoul(argv[9], NULL, 0);
	if (phv_bytes < 8 || phv_bytes > 1024 || fields < 1 || fields > MAX_FIELDS ||
	    key_bytes < 2 || key_bytes > MAX_KEY || ways < 1 || ways > 4 || way_bits < 1 ||
	    way_bits > 12 || entries < 2 || entries > MAX_ENTRIES || data_bytes < 1 ||
	    data_bytes > 8) {
		fprintf(stderr, "gen_match_vectors: PHV_BYTES 8..1024, FIELDS 1..%d, KEY_BYTES 2..%d, "
			"WAYS 1..4, WAY_BITS 1..12, ENTRIES 2..%d, DATA_BYTES 1..8\n", MAX_FIELDS,
			MAX_KEY, MAX_ENTRIES);
		return 2;
	}
	src = calloc(SOURCES, sizeof(*src));
	rows = calloc((size_t)ways << way_bits, sizeof(*rows));
	f = fopen(argv[1], "w");
	if (!src || !rows || !f) {
		perror(argv[1]);
		return 1;
	}
	ek = random_key(fields, key_bytes, phv_bytes);
	tk = random_key(fields, key_bytes, phv_bytes);
	print_key(f, &ek);
	print_key(f, &tk);
	for (c = 0; c < SOURCES; c++)
		for (i = 0; i < phv_bytes; i++)
			src[c][i] = (uint8_t)rnd();
	/* the exact rows: each source PHV's key in a free way of its buckets, if it has one */
	fprintf(f, "%x\n", SOURCES);
	for (c = 0; c < SOURCES; c++) {
		uint64_t key = key_of(&ek, src[c]);
		unsigned start = (unsigned)(rnd() % ways);
		uint32_t b;
		struct row *r;

		for (w = 0; w < ways; w++) {
			unsigned way = (start + w) % ways;

			if (!rows[(way << way_bits) | bucket(way, key, ek.kb, way_bits)].valid)
				break;
		}
		w = w < ways ? (start + w) % ways : start;	/* none free: evict */
		b = bucket(w, key, ek.kb, way_bits);
		r = &rows[(w << way_bits) | b];
		r->valid = rnd() % 8 != 0;	/* some deleted: they keep their key */
		r->action = (uint16_t)rnd();
		r->key = key;
		r->data = rnd() >> (64 - 8 * data_bytes);
		fprintf(f, "%x %" PRIx32 " %x %x %" PRIx64 " %" PRIx64 "\n", w, b, r->valid,
			r->action, r->key, r->data);
	}
	/* the ternary rows: a source's key under a mask, every row written */
	fprintf(f, "%x\n", entries);
	for (i = 0; i < entries; i++) {
		struct row *r = &trows[i];

		r->valid = rnd() % 8 != 0;
		r->action = (uint16_t)rnd();
		r->mask = random_mask(tk.kb);
		r->key = key_of(&tk, src[rnd() % SOURCES]);
		r->data = rnd() >> (64 - 8 * data_bytes);
		fprintf(f, "%x %x %x %x %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", i, tk.kb, r->valid,
			r->action, r->key, r->mask, r->data);
	}
	/* the lookups */
	fprintf(f, "%lx\n", cases);
	for (c = 0; c < cases; c++) {
		unsigned ternary = (unsigned)(rnd() % 2);
		const struct key *k = ternary ? &tk : &ek;
		uint8_t phv[1024];
		uint64_t key;

		for (i = 0; i < phv_bytes; i++)
			phv[i] = (uint8_t)rnd();
		if (rnd() % 4 != 0) {	/* a source's key, the other bits changed */
			const uint8_t *s = src[rnd() % SOURCES];

			for (i = 0; i < k->n; i++)
				pisa_bits_set(phv, k->off[i], k->width[i],
					      pisa_bits_get(s, k->off[i], k->width[i]));
		}
		key = key_of(k, phv);
		fprintf(f, "%x\n", ternary);
		print_bytes(f, phv, phv_bytes);
		if (ternary) {
			for (i = 0; i < entries; i++) {
				const struct row *r = &trows[i];

				if (r->valid && (key & r->mask) == (r->key & r->mask))
					break;
			}
			if (i < entries)
				fprintf(f, "1 %x %x %" PRIx64 "\n", i, trows[i].action, trows[i].data);
			else
				fprintf(f, "0 0 0 0\n");
			hits += i < entries;
			continue;
		}
		for (w = 0; w < ways; w++) {
			uint32_t b = bucket(w, key, ek.kb, way_bits);
			const struct row *r = &rows[(w << way_bits) | b];

			if (r->valid && r->key == key) {
				fprintf(f, "1 %" PRIx32 " %x %" PRIx64 "\n", (w << way_bits) | b,
					r->action, r->data);
				hits++;
				break;
			}
		}
		if (w == ways)
			fprintf(f, "0 0 0 0\n");
	}
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("gen_match_vectors: keys of %u and %u fields, %u and %u bytes, %d exact and %u "
	       "ternary rows, %lu lookups (%lu hits) in %s\n", ek.n, tk.n, ek.kb, tk.kb, SOURCES,
	       entries, cases, hits, argv[1]);
	free(src);
	free(rows);
	return 0;
}
