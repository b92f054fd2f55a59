/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_key_vectors: PHVs, key field lists and the key bytes lib/pisa_switch.h defines for
 * them (the fields concatenated in order, most significant first, right-aligned in
 * ceil(K / 8) bytes; fields read with lib's pisa_bits_get, as pisa-model builds a key), for
 * the testbench of hw/rtl/pisa_key_gather.v. Fixed seed.
 *
 *   gen_key_vectors OUT PHV_BYTES FIELDS KEY_BYTES [CASES]
 *
 * Field widths 1 .. 64 (1, 8, 9, 16, 32, 48 and 64 often), at any bit offset or byte-aligned,
 * at most FIELDS of them and 8 KEY_BYTES bits in all. Each case, as hex numbers:
 *   nfields, then per field: bit offset, width
 *   the PHV: PHV_BYTES bytes
 *   the pieces (PHV bytes read: a field of w bits at bit b takes ceil((b % 8 + w) / 8))
 *   KB, then the KB key bytes
 * The list ends with nfields ffff.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_common.h"

static unsigned rwidth(void)
{
	static const unsigned often[] = { 1, 8, 9, 16, 32, 48, 64 };

	return rnd() % 2 ? often[rnd() % 7] : 1 + (unsigned)(rnd() % 64);
}

int main(int argc, char **argv)
{
	unsigned phv_bytes, fields, key_bytes;
	unsigned long cases = 3000, c;
	uint8_t *phv, *key;
	FILE *f;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: gen_key_vectors OUT PHV_BYTES FIELDS KEY_BYTES [CASES]\n");
		return 2;
	}
	phv_bytes = (unsigned)strtoul(argv[2], NULL, 0);
	fields = (unsigned)strtoul(argv[3], NULL, 0);
	key_bytes = (unsigned)strtoul(argv[4], NULL, 0);
	if (argc == 6)
		cases = strtoul(argv[5], NULL, 0);
	if (phv_bytes < 8 || phv_bytes > 8192 || fields < 1 || fields > 64 || key_bytes < 1 ||
	    key_bytes > 1024) {
		fprintf(stderr, "gen_key_vectors: PHV_BYTES 8..8192, FIELDS 1..64, KEY_BYTES 1..1024\n");
		return 2;
	}
	phv = malloc(phv_bytes);
	key = malloc(key_bytes);
	f = fopen(argv[1], "w");
	if (!phv || !key || !f) {
		perror(argv[1]);
		return 1;
	}
	for (c = 0; c < cases; c++) {
		unsigned n = 1 + (unsigned)(rnd() % fields), off[64], w[64], i, k = 0, pieces = 0, kb;
		int aligned = rnd() % 3 == 0;

		for (i = 0; i < phv_bytes; i++)
			phv[i] = (uint8_t)rnd();
		for (i = 0; i < n; i++) {
			w[i] = rwidth();
			if (k + w[i] > 8 * key_bytes)
				w[i] = 8 * key_bytes - k;
			if (w[i] == 0)
				break;
			off[i] = (unsigned)(rnd() % (8 * phv_bytes - w[i] + 1));
			if (aligned)
				off[i] &= ~7u;
			k += w[i];
			pieces += (off[i] % 8 + w[i] + 7) / 8;
		}
		n = i;
		kb = (k + 7) / 8;
		memset(key, 0, key_bytes);
		for (i = 0, k = 8 * kb - k; i < n; k += w[i], i++)
			pisa_bits_set(key, k, w[i], pisa_bits_get(phv, off[i], w[i]));
		fprintf(f, "%x\n", n);
		for (i = 0; i < n; i++)
			fprintf(f, "%x %x\n", off[i], w[i]);
		print_bytes(f, phv, phv_bytes);
		fprintf(f, "%x\n%x\n", pieces, kb);
		print_bytes(f, key, kb);
	}
	fprintf(f, "ffff\n");
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("gen_key_vectors: %lu keys in %s\n", cases, argv[1]);
	free(phv);
	free(key);
	return 0;
}
