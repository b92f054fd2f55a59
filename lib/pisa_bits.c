/* SPDX-License-Identifier: Apache-2.0 */
/* pisa_bits.c: reading and writing bit fields of big-endian bit strings. */
#include "pisa_switch.h"

/* Bit 0 is the MSB of buf[0]; width is 1..64; the result is right-aligned. */
uint64_t pisa_bits_get(const uint8_t *buf, size_t bitoff, unsigned width)
{
	const uint8_t *p = buf + (bitoff >> 3);
	unsigned skip = bitoff & 7;
	unsigned nbytes = (skip + width + 7) >> 3;
	uint64_t v = 0;
	unsigned i;

	if (nbytes <= 8) {
		for (i = 0; i < nbytes; i++)
			v = v << 8 | p[i];
		v >>= nbytes * 8 - skip - width;
	} else {
		/* 9 bytes: gather the 64 bits starting at bitoff, keep the top width */
		for (i = 0; i < 8; i++)
			v = v << 8 | p[i];
		v = v << skip | (uint64_t)(p[8] >> (8 - skip));
		v >>= 64 - width;
	}
	if (width < 64)
		v &= (UINT64_C(1) << width) - 1;
	return v;
}

/* Writes the low width bits of value; the other bits of buf are kept. */
void pisa_bits_set(uint8_t *buf, size_t bitoff, unsigned width, uint64_t value)
{
	size_t end = bitoff + width;	/* one past the last bit */

	if (((bitoff | width) & 7) == 0) {
		/* whole bytes, the common case for header fields */
		uint8_t *p = buf + (bitoff >> 3);
		unsigned n = width >> 3;

		while (n--) {
			p[n] = (uint8_t)value;
			value >>= 8;
		}
		return;
	}
	/* walk from the least significant end, one byte's worth at a time */
	while (width > 0) {
		size_t last = end - 1;
		unsigned lo = 7 - (unsigned)(last & 7);	/* position of `last` from the byte's LSB */
		unsigned n = 8 - lo;
		uint8_t mask;

		if (n > width)
			n = width;
		mask = (uint8_t)(((1u << n) - 1) << lo);
		buf[last >> 3] = (uint8_t)((buf[last >> 3] & ~mask) |
					   (((unsigned)value << lo) & mask));
		value >>= n;
		width -= n;
		end -= n;
	}
}
