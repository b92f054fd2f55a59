/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_bytes.h: explicit little-endian put/get helpers and a bounds-checked
 * reader cursor, for every parser of untrusted bytes (images, link frames).
 *
 * The cursor never reads outside [pos, end). A read that would go past the
 * end returns zero, leaves the cursor where it was and marks it short; the
 * mark is sticky, so a decoder can read a group of fields and test once.
 * Offsets are always from `base`, the start of the whole buffer, so error
 * messages can name the byte where a problem is.
 */
#ifndef PISA_BYTES_H
#define PISA_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline void pisa_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void pisa_put_le32(uint8_t *p, uint32_t v)
{
	pisa_put_le16(p, (uint16_t)v);
	pisa_put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void pisa_put_le64(uint8_t *p, uint64_t v)
{
	pisa_put_le32(p, (uint32_t)v);
	pisa_put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t pisa_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t pisa_get_le32(const uint8_t *p)
{
	return pisa_get_le16(p) | (uint32_t)pisa_get_le16(p + 2) << 16;
}

static inline uint64_t pisa_get_le64(const uint8_t *p)
{
	return pisa_get_le32(p) | (uint64_t)pisa_get_le32(p + 4) << 32;
}

struct pisa_rd {
	const uint8_t *base;	/* start of the whole buffer */
	size_t pos;		/* next byte to read, from base */
	size_t end;		/* one past the last byte this cursor may read */
	int short_read;		/* a read ran past end (sticky) */
	size_t short_pos;	/* where the first such read started */
};

static inline void pisa_rd_init(struct pisa_rd *r, const uint8_t *base,
				size_t pos, size_t end)
{
	r->base = base;
	r->pos = pos;
	r->end = end < pos ? pos : end;
	r->short_read = 0;
	r->short_pos = 0;
}

static inline size_t pisa_rd_left(const struct pisa_rd *r)
{
	return r->end - r->pos;
}

/* n bytes at the cursor, or NULL (and the cursor marked short) */
static inline const uint8_t *pisa_rd_bytes(struct pisa_rd *r, size_t n)
{
	const uint8_t *p;

	if (r->short_read || n > r->end - r->pos) {
		if (!r->short_read)
			r->short_pos = r->pos;
		r->short_read = 1;
		return NULL;
	}
	p = r->base + r->pos;
	r->pos += n;
	return p;
}

static inline uint8_t pisa_rd_u8(struct pisa_rd *r)
{
	const uint8_t *p = pisa_rd_bytes(r, 1);

	return p ? p[0] : 0;
}

static inline uint16_t pisa_rd_u16(struct pisa_rd *r)
{
	const uint8_t *p = pisa_rd_bytes(r, 2);

	return p ? pisa_get_le16(p) : 0;
}

static inline uint32_t pisa_rd_u32(struct pisa_rd *r)
{
	const uint8_t *p = pisa_rd_bytes(r, 4);

	return p ? pisa_get_le32(p) : 0;
}

static inline uint64_t pisa_rd_u64(struct pisa_rd *r)
{
	const uint8_t *p = pisa_rd_bytes(r, 8);

	return p ? pisa_get_le64(p) : 0;
}

#endif
