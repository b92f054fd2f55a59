/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_keys.h: a table's random key for the stage generators that look keys up (gen_match_vectors,
 * gen_stage_vectors): its fields in the PHV, the key a PHV gives (lib's bit fields, right-aligned
 * as lib/pisa_switch.h lays a row's key out), its field list as the vector files print it, and a
 * ternary row's random mask. Random numbers from gen_common.h's rnd().
 */
#ifndef STAGE_GEN_KEYS_H
#define STAGE_GEN_KEYS_H

#include <stdint.h>
#include <stdio.h>

#include "gen_common.h"

#define MAX_FIELDS 8

struct key {		/* a table's key: its fields in the PHV, its bytes */
	unsigned n, off[MAX_FIELDS], width[MAX_FIELDS], kb;
};

struct row {		/* a row of a table with such a key */
	int valid;
	uint16_t action;
	uint64_t key, mask, data;	/* mask: ternary rows only */
};

/* Up to FIELDS fields, widths 1..24 anywhere in a PHV of PHV_BYTES bytes, at most KEY_BYTES
 * bytes and not whole bytes (so that it has leading zero bits). */
static struct key random_key(unsigned fields, unsigned key_bytes, unsigned phv_bytes)
{
	struct key k = { 0 };
	unsigned i, bits = 0, n = 1 + (unsigned)(rnd() % fields);

	for (i = 0; i < n && bits < 8 * key_bytes - 3; i++) {
		k.width[i] = 1 + (unsigned)(rnd() % 24);
		if (bits + k.width[i] > 8 * key_bytes - 3)
			k.width[i] = 8 * key_bytes - 3 - bits;
		k.off[i] = (unsigned)(rnd() % (8 * phv_bytes - k.width[i] + 1));
		bits += k.width[i];
	}
	k.n = i;
	k.kb = (bits + 7) / 8;
	return k;
}

static uint64_t key_of(const struct key *k, const uint8_t *phv)
{
	uint8_t key[MAX_KEY] = { 0 };
	uint64_t v = 0;
	unsigned i, bit = 8 * k->kb;

	for (i = 0; i < k->n; i++)
		bit -= k->width[i];	/* the key is right-aligned */
	for (i = 0; i < k->n; bit += k->width[i], i++)
		pisa_bits_set(key, bit, k->width[i], pisa_bits_get(phv, k->off[i], k->width[i]));
	for (i = 0; i < k->kb; i++)
		v = v << 8 | key[i];
	return v;
}

/* nfields, then per field its bit offset and width. */
static void print_key(FILE *f, const struct key *k)
{
	unsigned i;

	fprintf(f, "%x\n", k->n);
	for (i = 0; i < k->n; i++)
		fprintf(f, "%x %x\n", k->off[i], k->width[i]);
}

/* A ternary row's mask over KB bytes: a prefix, random bits (mostly ones) or all ones. */
static uint64_t random_mask(unsigned kb)
{
	unsigned bits = 8 * kb;

	switch (rnd() % 3) {
	case 0:
		return mask(bits) & ~mask(bits - 1 - (unsigned)(rnd() % bits));
	case 1:
		return (rnd() | rnd()) & mask(bits);
	default:
		return mask(bits);
	}
}

#endif
