/* SPDX-License-Identifier: Apache-2.0 */
/* pisa_row.c: sizes of a table row (layout in pisa_switch.h). */
#include "pisa_switch.h"

size_t pisa_row_key_bytes(const struct pisa_table *t)
{
	return ((size_t)t->key_bits + 7) / 8;
}

size_t pisa_row_match_bytes(const struct pisa_table *t)
{
	size_t n;
	unsigned i;

	switch (t->mem) {
	case PISA_MEM_HASH:
		return pisa_row_key_bytes(t);
	case PISA_MEM_TCAM:
		n = 2 * pisa_row_key_bytes(t);
		for (i = 0; i < t->nkeys; i++)
			if (t->keys[i].match == PISA_MATCH_RANGE)
				n += 2 * (((size_t)t->keys[i].field.width + 7) / 8);
		return n;
	default:
		return 0;
	}
}

size_t pisa_row_adata_bytes(const struct pisa_table *t)
{
	return ((size_t)t->adata_bits + 7) / 8;
}

size_t pisa_row_bytes(const struct pisa_table *t)
{
	return PISA_ROW_HDR + pisa_row_match_bytes(t) + pisa_row_adata_bytes(t);
}
