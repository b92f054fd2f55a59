/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_hwconf.h: an image as the RTL core (hw/rtl/pisa_core.v) holds it:
 * fixed-width 64-bit words in its configuration memory, plus where each
 * table's rows, each counter's and each register's cells sit in the core's
 * memories. docs/hwconf.md is the word layout; this file and pisa_core.v
 * must agree on it bit for bit.
 */
#ifndef PISA_HWCONF_H
#define PISA_HWCONF_H

#include <stddef.h>
#include <stdint.h>

#include "pisa_image.h"

#define PISA_HWCONF_MAGIC 0x5048574300000001ull	/* "PHWC", layout 1 */

/* What one elaboration of pisa_core holds (its parameters). */
struct pisa_hwconf_limits {
	uint32_t cfg_words;	/* CFG_WORDS */
	uint32_t row_bytes;	/* ROW_BYTES: all tables' rows, default rows included */
	uint32_t counter_cells;	/* CNT_CELLS */
	uint32_t register_cells;	/* REG_CELLS */
	uint32_t meter_cells;	/* MTR_CELLS */
	uint16_t key_bits;	/* KEY_BITS: widest table key */
	uint16_t phv_bytes;	/* PHV_MAX */
	uint16_t stacks;	/* STACKS */
};

/* The limits of the simulation harness (sim/tb/tb_pisa_harness.v). */
extern const struct pisa_hwconf_limits pisa_hwconf_sim_limits;
/*
 * The limits of the core built for board (lib/pisa_profile.c), or the
 * simulation harness's for a board no profile names.
 */
void pisa_hwconf_limits_for(const char *board, struct pisa_hwconf_limits *lim);

struct pisa_hwconf {
	uint64_t *words;
	uint32_t nwords;
	uint32_t row_bytes;	/* row memory used */
};

/*
 * Lays img out for a core with limits lim. Returns 0, or a negative
 * pisa_err with the reason in err: -PISA_E_RANGE when img needs more than
 * the core holds, -PISA_E_INVAL when it uses something the core does not
 * implement yet (the construct is named).
 */
int pisa_hwconf_build(const struct pisa_image *img, const struct pisa_hwconf_limits *lim,
		      struct pisa_hwconf *out, char *err, size_t errlen);
void pisa_hwconf_free(struct pisa_hwconf *hc);
/* One instruction as its 4-word record (docs/hwconf.md): w0 op, flags, imm, dst's descriptor;
 * w1 a's and b's descriptors; w2 and w3 their values. */
void pisa_hwconf_insn(const struct pisa_insn *in, uint64_t w[4]);

#endif
