/* SPDX-License-Identifier: Apache-2.0 */
/* gen_common.h: what the stage generators share: their random numbers (xorshift64*: the same
 * vectors on every run), low-bit masks, an exact row's bucket as lib's way hash gives it, their
 * number arguments and the byte lists (PHVs, keys) they print. */
#ifndef STAGE_GEN_COMMON_H
#define STAGE_GEN_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../lib/pisa_switch.h"

#define MAX_KEY 8	/* bytes: keys are handled as uint64_t */

static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;

static inline uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545F4914F6CDD1Dull;
}

/* The low BITS bits set (all 64 for 64 or more). */
static inline uint64_t mask(unsigned bits)
{
	return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* Way w's bucket of a KB-byte key: lib's hash of its bytes, most significant first as the key
 * streams, cut to WAY_BITS bits (lib/pisa_switch.h). */
static inline uint32_t bucket(unsigned w, uint64_t key, unsigned kb, unsigned way_bits)
{
	uint8_t b[MAX_KEY];
	unsigned i;

	for (i = 0; i < kb; i++)
		b[i] = (uint8_t)(key >> (8 * (kb - 1 - i)));
	return pisa_hash_way(w, b, kb) & (uint32_t)mask(way_bits);
}

/* A whole number argument (decimal, 0x hex or 0 octal) into *v: 1, or 0 when s is not one. */
static inline int parse(const char *s, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 0);
	return *s && !*end;
}

/* n bytes as two hex digits each, 32 to a line. */
static inline void print_bytes(FILE *f, const uint8_t *p, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x%c", p[i], i % 32 == 31 || i + 1 == n ? '\n' : ' ');
}

#endif
