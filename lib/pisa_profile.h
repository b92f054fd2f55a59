/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_profile.h: board profiles, the resources one build of the pipeline
 * has (docs/architecture.md, "Board profiles"). The compiler places programs
 * within them; the RTL is built with the same numbers as parameters.
 */
#ifndef PISA_PROFILE_H
#define PISA_PROFILE_H

#include <stdint.h>
#include <stdio.h>

/*
 * The parameters hw/rtl/pisa_core.v is elaborated with for a profile (the
 * board top passes them down; `p4lower --board NAME --core-params` prints
 * them). lib/pisa_hwconf.c lays an image out within them, so an image built
 * for a board is refused by p4lower, not by the board, when it needs more.
 */
struct pisa_core_params {
	uint32_t cfg_words;		/* CFG_WORDS: configuration words per bank */
	uint32_t banks;			/* BANKS: 2 stages an image while one runs */
	uint32_t row_bytes;		/* ROW_BYTES: all tables' rows */
	uint32_t counter_cells;		/* CNT_CELLS */
	uint32_t register_cells;	/* REG_CELLS */
	uint32_t meter_cells;		/* MTR_CELLS (0: no meters) */
	uint32_t key_bits;		/* KEY_BITS: widest table key */
	uint32_t phv_bytes;		/* PHV_MAX */
	uint32_t pkt_max;		/* PKT_MAX: longest packet */
	uint32_t row_stage;		/* ROW_STAGE: longest row a command writes */
	uint32_t stacks;		/* STACKS: header stacks */
	uint32_t mc_groups, mc_slot;	/* MC_GROUPS groups of MC_SLOT copies */
	uint32_t digest_max;		/* DIG_MAX: longest digest, bytes */
	uint32_t clone_sessions;	/* CL_SESS */
};

struct pisa_profile {
	const char *name;		/* --board NAME */
	const char *device;		/* FPGA, or "none" */
	unsigned word_bits;		/* W: PHV datapath width per cycle */
	unsigned phv_bytes;		/* PHV size; P = phv_bytes * 8 / W words */
	unsigned stages;		/* stage engines (each serves ingress and egress) */
	unsigned tables_per_stage;	/* logical tables (incl. gateways) per stage and gress */
	uint32_t hash_bits;		/* exact-match row memory per stage, bits */
	unsigned hash_row_bits;		/* widest exact-match row */
	unsigned tcam_rows;		/* ternary/lpm/range rows per stage */
	unsigned tcam_key_bits;		/* widest ternary key */
	unsigned max_key_bits;		/* widest exact key */
	unsigned max_adata_bits;	/* action data per row */
	unsigned insns_per_stage;	/* action instruction memory per stage */
	uint32_t stateful_bits;		/* counters, registers, meters per stage, bits */
	unsigned ports;			/* front-panel ports 0 .. ports-1 (sim: any 0..510) */
	unsigned cpu_port;
	unsigned mcast_groups, mcast_nodes, clone_sessions;
	unsigned clock_mhz;		/* target clock (0: none) */
	unsigned line_rate_kpps;	/* all ports at 64-byte frames (0: none) */
	struct pisa_core_params core;	/* the RTL core of this profile */
};

/*
 * Writes the core's parameters as NAME=VALUE lines, the names those of
 * pisa_core's Verilog parameters.
 */
void pisa_profile_print_core(const struct pisa_profile *p, FILE *f);
/*
 * Board names travel in 16-byte fields (an image's board, the HELLO reply), so a longer
 * profile name ("colorlight-5a-75b") arrives cut to its first 15 characters; that still
 * names the profile. pisa_board_matches() says whether such a field names the board name.
 */
#define PISA_BOARD_FIELD 16
int pisa_board_matches(const char *field, const char *name);
/* NULL if there is no such profile (name may be cut to a board field). */
const struct pisa_profile *pisa_profile_find(const char *name);
/* The profiles, NULL-terminated, in a stable order (sim first). */
extern const struct pisa_profile *const pisa_profiles[];

#endif
