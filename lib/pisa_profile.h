/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_profile.h: board profiles, the resources one build of the pipeline
 * has (docs/architecture.md, "Board profiles"). The compiler places programs
 * within them; the RTL is built with the same numbers as parameters.
 */
#ifndef PISA_PROFILE_H
#define PISA_PROFILE_H

#include <stdint.h>

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
};

/* NULL if there is no such profile. */
const struct pisa_profile *pisa_profile_find(const char *name);
/* The profiles, NULL-terminated, in a stable order (sim first). */
extern const struct pisa_profile *const pisa_profiles[];

#endif
