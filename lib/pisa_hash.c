/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_hash.c: the hash functions the hardware computes: exact-match way
 * hashes, the v1model HashAlgorithm set, the Internet checksum and the
 * CRC-32 that frames and image sections carry. Definitions in
 * docs/architecture.md ("Hashes").
 */
#include <stdbool.h>

#include "pisa_switch.h"

/* One polynomial per exact-match way (normal form). Different polynomials,
 * because with one polynomial and different seeds the ways would differ by
 * a constant XOR and collide together. */
static const uint32_t way_poly[PISA_HASH_MAX_WAYS] = {
	0x04C11DB7u,	/* CRC-32 */
	0x1EDC6F41u,	/* CRC-32C */
	0x741B8CD7u,	/* CRC-32K */
	0x814141ABu,	/* CRC-32Q */
};

static uint32_t reflect(uint32_t v, unsigned bits)
{
	uint32_t r = 0;
	unsigned i;

	for (i = 0; i < bits; i++)
		if (v & (1u << i))
			r |= 1u << (bits - 1 - i);
	return r;
}

/* Byte tables for the reflected CRCs used on hot paths, built on first use. */
struct crc_table {
	bool ready;
	uint32_t t[256];
};

static void crc_table_build(struct crc_table *ct, uint32_t poly, unsigned width)
{
	uint32_t rpoly = reflect(poly, width);
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ rpoly : c >> 1;
		ct->t[i] = c;
	}
	ct->ready = true;
}

static uint32_t crc_reflected(struct crc_table *ct, uint32_t poly, unsigned width,
			      uint32_t crc, const uint8_t *p, size_t n)
{
	size_t i;

	if (!ct->ready)
		crc_table_build(ct, poly, width);
	for (i = 0; i < n; i++)
		crc = ct->t[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc;
}

static struct crc_table way_tables[PISA_HASH_MAX_WAYS];
static struct crc_table crc32_table, crc16_table;

uint32_t pisa_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	return ~crc_reflected(&crc32_table, 0x04C11DB7u, 32, ~crc, p, n);
}

uint32_t pisa_hash_way(unsigned way, const uint8_t *key, size_t len)
{
	way %= PISA_HASH_MAX_WAYS;
	return ~crc_reflected(&way_tables[way], way_poly[way], 32, 0xFFFFFFFFu, key, len);
}

/* Any CRC of width 16 or 32, bit by bit (crc16_custom / crc32_custom). */
static uint32_t crc_generic(const struct pisa_hash_unit *u, const uint8_t *p, size_t n)
{
	unsigned width = u->crc_width == 16 ? 16 : 32;
	uint32_t top = 1u << (width - 1);
	uint32_t mask = width == 32 ? 0xFFFFFFFFu : 0xFFFFu;
	uint32_t crc = u->init & mask;
	size_t i;
	unsigned k;

	for (i = 0; i < n; i++) {
		uint32_t b = u->reflect_in ? reflect(p[i], 8) : p[i];

		crc ^= b << (width - 8);
		for (k = 0; k < 8; k++)
			crc = (crc & top) ? (crc << 1) ^ u->poly : crc << 1;
		crc &= mask;
	}
	if (u->reflect_out)
		crc = reflect(crc, width);
	return (crc ^ u->xor_out) & mask;
}

uint16_t pisa_csum16(const uint8_t *data, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)data[i] << 8 | data[i + 1];
	if (len & 1)
		sum += (uint32_t)data[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint16_t xor16(const uint8_t *data, size_t len)
{
	uint16_t x = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		x ^= (uint16_t)(data[i] << 8 | data[i + 1]);
	if (len & 1)
		x ^= (uint16_t)(data[len - 1] << 8);
	return x;
}

/* data holds nbits bits, MSB first, zero-padded to whole bytes. RANDOM is
 * the model's business (it owns the generator); here it gives 0. */
uint64_t pisa_hash_compute(const struct pisa_hash_unit *u, const uint8_t *data, size_t nbits)
{
	size_t n = (nbits + 7) / 8;
	unsigned w;

	switch (u->algo) {
	case PISA_HASH_CRC32:
		return pisa_crc32(0, data, n);
	case PISA_HASH_CRC16:
		/* CRC-16/ARC: reflected 0x8005, init 0, xorout 0 */
		return crc_reflected(&crc16_table, 0x8005u, 16, 0, data, n);
	case PISA_HASH_CRC32_CUSTOM:
	case PISA_HASH_CRC16_CUSTOM:
		return crc_generic(u, data, n);
	case PISA_HASH_CSUM16:
		return pisa_csum16(data, n);
	case PISA_HASH_XOR16:
		return xor16(data, n);
	case PISA_HASH_IDENTITY:
		if (nbits == 0)
			return 0;
		w = nbits < 64 ? (unsigned)nbits : 64;
		return pisa_bits_get(data, nbits - w, w);
	default:
		return 0;
	}
}
