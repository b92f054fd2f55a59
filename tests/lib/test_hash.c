/* SPDX-License-Identifier: Apache-2.0 */
/* test_hash.c: known-answer tests for lib/pisa_hash.c and lib/pisa_bits.c. */
#include <stdio.h>
#include <string.h>

#include "pisa_switch.h"

static int failures;

static void check(const char *name, uint64_t got, uint64_t want)
{
	if (got == want) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s: got 0x%llx, want 0x%llx\n", name,
		       (unsigned long long)got, (unsigned long long)want);
		failures++;
	}
}

int main(void)
{
	static const uint8_t check9[] = "123456789";
	/* a real IPv4 header with its checksum field zeroed; the checksum is 0xb861 */
	static const uint8_t ipv4[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	struct pisa_hash_unit u = { 0 };
	uint8_t buf[16];
	unsigned off, w;
	int bits_ok = 1;

	/* check values of the catalogued CRCs over "123456789" */
	check("crc32 check value", pisa_crc32(0, check9, 9), 0xCBF43926u);
	check("crc32 continues", pisa_crc32(pisa_crc32(0, check9, 4), check9 + 4, 5), 0xCBF43926u);
	check("way 0 is CRC-32", pisa_hash_way(0, check9, 9), 0xCBF43926u);
	check("way 1 is CRC-32C", pisa_hash_way(1, check9, 9), 0xE3069283u);
	check("way 2 is CRC-32K (reflected Koopman)", pisa_hash_way(2, check9, 9), 0x2D3DD0AEu);
	u.algo = PISA_HASH_CRC16;
	check("crc16 is CRC-16/ARC", pisa_hash_compute(&u, check9, 72), 0xBB3D);
	u.algo = PISA_HASH_CRC16_CUSTOM;	/* CRC-16/CCITT-FALSE */
	u.crc_width = 16;
	u.poly = 0x1021;
	u.init = 0xFFFF;
	check("crc16_custom CCITT-FALSE", pisa_hash_compute(&u, check9, 72), 0x29B1);
	u.algo = PISA_HASH_CRC32_CUSTOM;	/* CRC-32/BZIP2 */
	u.crc_width = 32;
	u.poly = 0x04C11DB7;
	u.init = 0xFFFFFFFF;
	u.xor_out = 0xFFFFFFFF;
	check("crc32_custom BZIP2", pisa_hash_compute(&u, check9, 72), 0xFC891918u);
	u.reflect_in = u.reflect_out = 1;
	check("crc32_custom reflected = crc32", pisa_hash_compute(&u, check9, 72), 0xCBF43926u);
	/* way 3 (reflected 0x814141AB) is no catalogued CRC: check it, and ways
	 * 1-2, against the independent bit-by-bit engine */
	for (w = 1; w < PISA_HASH_MAX_WAYS; w++) {
		static const uint32_t poly[] = { 0, 0x1EDC6F41u, 0x741B8CD7u, 0x814141ABu };
		char name[64];

		u.poly = poly[w];
		snprintf(name, sizeof(name), "way %u equals the bitwise CRC", w);
		check(name, pisa_hash_way(w, check9, 9), pisa_hash_compute(&u, check9, 72));
	}
	u.algo = PISA_HASH_CSUM16;
	check("csum16 of an IPv4 header", pisa_hash_compute(&u, ipv4, 160), 0xB861);
	check("csum16 odd length", pisa_csum16((const uint8_t *)"\x01\x02\x03", 3), (uint16_t)~0x0402);
	u.algo = PISA_HASH_XOR16;
	check("xor16", pisa_hash_compute(&u, (const uint8_t *)"\x12\x34\x0f\x0f\xff", 40), 0xe23b) /* 0x1234 ^ 0x0f0f ^ 0xff00 */;
	u.algo = PISA_HASH_IDENTITY;
	check("identity low bits", pisa_hash_compute(&u, (const uint8_t *)"\x01\x02\x03", 24), 0x010203);

	/* bits: every offset and width round-trips and leaves neighbours alone */
	for (off = 0; off < 40 && bits_ok; off++) {
		for (w = 1; w <= 64 && bits_ok; w++) {
			uint64_t v = 0xA5C3F00F12345678ull ^ ((uint64_t)off << 32 | w);
			uint64_t want = w == 64 ? v : v & ((1ull << w) - 1);

			memset(buf, 0x5A, sizeof(buf));
			pisa_bits_set(buf, off, w, v);
			if (pisa_bits_get(buf, off, w) != want)
				bits_ok = 0;
			if (off > 0 && pisa_bits_get(buf, 0, off > 64 ? 64 : off) !=
			    (pisa_bits_get((const uint8_t *)"ZZZZZZZZZ", 0, off) ))
				bits_ok = 0;
			if (off + w < 128 && pisa_bits_get(buf, off + w, 1) !=
			    pisa_bits_get((const uint8_t *)"ZZZZZZZZZZZZZZZZ", off + w, 1))
				bits_ok = 0;
		}
	}
	check("bits set/get round trip at every offset and width", bits_ok, 1);
	return failures ? 1 : 0;
}
