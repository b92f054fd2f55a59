/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_match_vectors: a stage's match for an exact table, from the PHV to the row, for the
 * testbench that joins hw/rtl/pisa_key_gather.v to hw/rtl/pisa_exact_match.v: one key field
 * list, a table of rows whose keys come from random PHVs, then PHVs to look up (most of them
 * those the rows came from, with the bits outside the key changed) and the row each must find:
 * the key built with lib's pisa_bits_get / pisa_bits_set, its buckets with pisa_hash_way, the
 * first valid way that holds it (lib/pisa_switch.h). Fixed seed.
 *
 *   gen_match_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS DATA_BYTES [CASES]
 *
 * As hex numbers: nfields, then per field its bit offset and width; the row count, then per
 * row: way bucket valid action key data; the case count, then per case the PHV's bytes and the
 * result: hit way bucket action data (zeros on a miss).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/pisa_switch.h"
#include "rnd.h"

#define MAX_FIELDS 8
#define MAX_KEY 8	/* bytes: a key travels as one uint64_t here */
#define SOURCES 64	/* PHVs the rows' keys come from */

struct row {
	int valid;
	uint16_t action;
	uint64_t key, data;
};

static unsigned phv_bytes, nfields, off[MAX_FIELDS], width[MAX_FIELDS], kb;

static uint64_t key_of(const uint8_t *phv)
{
	uint8_t key[MAX_KEY] = { 0 };
	uint64_t k = 0;
	unsigned i, bit = 8 * kb;

	for (i = 0; i < nfields; i++)
		bit -= width[i];	/* the key is right-aligned */
	for (i = 0; i < nfields; bit += width[i], i++)
		pisa_bits_set(key, bit, width[i], pisa_bits_get(phv, off[i], width[i]));
	for (i = 0; i < kb; i++)
		k = k << 8 | key[i];
	return k;
}

static uint32_t bucket(unsigned w, uint64_t key, unsigned way_bits)
{
	uint8_t b[MAX_KEY];
	unsigned i;

	for (i = 0; i < kb; i++)
		b[i] = (uint8_t)(key >> (8 * (kb - 1 - i)));
	return pisa_hash_way(w, b, kb) & ((1u << way_bits) - 1);
}

int main(int argc, char **argv)
{
	unsigned fields, key_bytes, ways, way_bits, data_bytes, i, w, k = 0;
	unsigned long cases = 2000, c, hits = 0;
	uint8_t (*src)[1024];
	struct row *rows;
	FILE *f;

	if (argc < 8 || argc > 9) {
		fprintf(stderr, "usage: gen_match_vectors OUT PHV_BYTES FIELDS KEY_BYTES WAYS WAY_BITS "
			"DATA_BYTES [CASES]\n");
		return 2;
	}
	phv_bytes = (unsigned)strtoul(argv[2], NULL, 0);
	fields = (unsigned)strtoul(argv[3], NULL, 0);
	key_bytes = (unsigned)strtoul(argv[4], NULL, 0);
	ways = (unsigned)strtoul(argv[5], NULL, 0);
	way_bits = (unsigned)strtoul(argv[6], NULL, 0);
	data_bytes = (unsigned)strtoul(argv[7], NULL, 0);
	if (argc == 9)
		cases = strtoul(argv[8], NULL, 0);
	if (phv_bytes < 8 || phv_bytes > 1024 || fields < 1 || fields > MAX_FIELDS ||
	    key_bytes < 2 || key_bytes > MAX_KEY || ways < 1 || ways > 4 || way_bits < 1 ||
	    way_bits > 12 || data_bytes < 1 || data_bytes > 8) {
		fprintf(stderr, "gen_match_vectors: PHV_BYTES 8..1024, FIELDS 1..%d, KEY_BYTES 2..%d, "
			"WAYS 1..4, WAY_BITS 1..12, DATA_BYTES 1..8\n", MAX_FIELDS, MAX_KEY);
		return 2;
	}
	src = calloc(SOURCES, sizeof(*src));
	rows = calloc((size_t)ways << way_bits, sizeof(*rows));
	f = fopen(argv[1], "w");
	if (!src || !rows || !f) {
		perror(argv[1]);
		return 1;
	}
	/* the key: up to FIELDS fields, any widths and offsets, at most KEY_BYTES bytes and not
	 * whole bytes (so that it has leading zero bits) */
	nfields = 1 + (unsigned)(rnd() % fields);
	for (i = 0; i < nfields && k < 8 * key_bytes - 3; i++) {
		width[i] = 1 + (unsigned)(rnd() % 24);
		if (k + width[i] > 8 * key_bytes - 3)
			width[i] = 8 * key_bytes - 3 - k;
		off[i] = (unsigned)(rnd() % (8 * phv_bytes - width[i] + 1));
		k += width[i];
	}
	nfields = i;
	kb = (k + 7) / 8;
	fprintf(f, "%x\n", nfields);
	for (i = 0; i < nfields; i++)
		fprintf(f, "%x %x\n", off[i], width[i]);
	/* the rows: each source PHV's key in a free way of its buckets, if it has one */
	for (c = 0; c < SOURCES; c++)
		for (i = 0; i < phv_bytes; i++)
			src[c][i] = (uint8_t)rnd();
	fprintf(f, "%x\n", SOURCES);
	for (c = 0; c < SOURCES; c++) {
		uint64_t key = key_of(src[c]);
		unsigned start = (unsigned)(rnd() % ways);

		for (w = 0; w < ways; w++) {
			unsigned way = (start + w) % ways;
			uint32_t b = bucket(way, key, way_bits);

			if (!rows[(way << way_bits) | b].valid)
				break;
		}
		w = w < ways ? (start + w) % ways : start;	/* none free: evict */
		{
			uint32_t b = bucket(w, key, way_bits);
			struct row *r = &rows[(w << way_bits) | b];

			r->valid = rnd() % 8 != 0;	/* some deleted: they keep their key */
			r->action = (uint16_t)rnd();
			r->key = key;
			r->data = rnd() >> (64 - 8 * data_bytes);
			fprintf(f, "%x %" PRIx32 " %x %x %" PRIx64 " %" PRIx64 "\n", w, b, r->valid,
				r->action, r->key, r->data);
		}
	}
	/* the lookups */
	fprintf(f, "%lx\n", cases);
	for (c = 0; c < cases; c++) {
		uint8_t phv[1024];
		uint64_t key;

		for (i = 0; i < phv_bytes; i++)
			phv[i] = (uint8_t)rnd();
		if (rnd() % 4 != 0) {	/* a source's key, the other bits changed */
			const uint8_t *s = src[rnd() % SOURCES];

			for (i = 0; i < nfields; i++)
				pisa_bits_set(phv, off[i], width[i], pisa_bits_get(s, off[i], width[i]));
		}
		key = key_of(phv);
		for (i = 0; i < phv_bytes; i++)
			fprintf(f, "%02x%c", phv[i], i % 32 == 31 || i + 1 == phv_bytes ? '\n' : ' ');
		for (w = 0; w < ways; w++) {
			uint32_t b = bucket(w, key, way_bits);
			const struct row *r = &rows[(w << way_bits) | b];

			if (r->valid && r->key == key) {
				fprintf(f, "1 %x %" PRIx32 " %x %" PRIx64 "\n", w, b, r->action, r->data);
				hits++;
				break;
			}
		}
		if (w == ways)
			fprintf(f, "0 0 0 0 0\n");
	}
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("gen_match_vectors: %u-field key of %u bytes, %d rows, %lu lookups (%lu hits) in %s\n",
	       nfields, kb, SOURCES, cases, hits, argv[1]);
	free(src);
	free(rows);
	return 0;
}
