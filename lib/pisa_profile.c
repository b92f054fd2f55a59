/* SPDX-License-Identifier: Apache-2.0 */
/* pisa_profile.c: the board profiles of DESIGN.md as numbers. Why each one
 * fits its device is argued in docs/architecture.md. */
#include <string.h>

#include "pisa_profile.h"

static const struct pisa_profile sim = {
	.name = "sim", .device = "none",
	.word_bits = 64, .phv_bytes = 1024, .stages = 32, .tables_per_stage = 16,
	.hash_bits = 64u << 20, .hash_row_bits = 1024, .tcam_rows = 4096, .tcam_key_bits = 512,
	.max_key_bits = 512, .max_adata_bits = 512, .insns_per_stage = 4096,
	.stateful_bits = 64u << 20, .ports = 511, .cpu_port = 255,
	.mcast_groups = 4096, .mcast_nodes = 16384, .clone_sessions = 1024,
	.core = { .cfg_words = 65536, .banks = 2, .row_bytes = 1u << 20, .counter_cells = 16384,
		  .register_cells = 16384, .meter_cells = 4096, .key_bits = 512, .phv_bytes = 1024,
		  .pkt_max = 4096, .row_stage = 1024, .stacks = 64, .mc_groups = 256, .mc_slot = 16,
		  .digest_max = 1024, .clone_sessions = 1024 },
};

static const struct pisa_profile icebreaker = {
	.name = "icebreaker", .device = "iCE40UP5K-SG48",
	.word_bits = 16, .phv_bytes = 128, .stages = 4, .tables_per_stage = 2,
	.hash_bits = 16384, .hash_row_bits = 128, .tcam_rows = 16, .tcam_key_bits = 32,
	.max_key_bits = 64, .max_adata_bits = 64, .insns_per_stage = 64,
	.stateful_bits = 16384, .ports = 2, .cpu_port = 255,
	.mcast_groups = 16, .mcast_nodes = 32, .clone_sessions = 4,
	.clock_mhz = 30, .line_rate_kpps = 298,
	.core = { .cfg_words = 512, .banks = 1, .row_bytes = 12288, .counter_cells = 128,
		  .register_cells = 256, .meter_cells = 0, .key_bits = 64, .phv_bytes = 128,
		  .pkt_max = 2048, .row_stage = 256, .stacks = 8, .mc_groups = 16, .mc_slot = 4,
		  .digest_max = 64, .clone_sessions = 4 },
};

static const struct pisa_profile hx8k = {
	.name = "hx8k-breakout", .device = "iCE40HX8K-CT256",
	.word_bits = 16, .phv_bytes = 160, .stages = 4, .tables_per_stage = 2,
	.hash_bits = 24576, .hash_row_bits = 128, .tcam_rows = 32, .tcam_key_bits = 32,
	.max_key_bits = 64, .max_adata_bits = 64, .insns_per_stage = 64,
	.stateful_bits = 8192, .ports = 4, .cpu_port = 255,
	.mcast_groups = 16, .mcast_nodes = 64, .clone_sessions = 4,
	.clock_mhz = 50, .line_rate_kpps = 595,
	.core = { .cfg_words = 512, .banks = 1, .row_bytes = 16384, .counter_cells = 64,
		  .register_cells = 128, .meter_cells = 0, .key_bits = 64, .phv_bytes = 256,
		  .pkt_max = 2048, .row_stage = 256, .stacks = 8, .mc_groups = 16, .mc_slot = 4,
		  .digest_max = 64, .clone_sessions = 4 },
};

static const struct pisa_profile colorlight = {
	.name = "colorlight-5a-75b", .device = "LFE5U-25F-6BG256C",
	.word_bits = 64, .phv_bytes = 256, .stages = 8, .tables_per_stage = 4,
	.hash_bits = 92160, .hash_row_bits = 144, .tcam_rows = 64, .tcam_key_bits = 64,
	.max_key_bits = 128, .max_adata_bits = 128, .insns_per_stage = 256,
	.stateful_bits = 18432, .ports = 2, .cpu_port = 255,
	.mcast_groups = 64, .mcast_nodes = 256, .clone_sessions = 16,
	.clock_mhz = 125, .line_rate_kpps = 2976,
	.core = { .cfg_words = 1024, .banks = 2, .row_bytes = 49024, .counter_cells = 512,
		  .register_cells = 256, .meter_cells = 64, .key_bits = 128, .phv_bytes = 256,
		  .pkt_max = 2048, .row_stage = 512, .stacks = 8, .mc_groups = 64, .mc_slot = 8,
		  .digest_max = 128, .clone_sessions = 16 },
};

const struct pisa_profile *const pisa_profiles[] = { &sim, &icebreaker, &hx8k, &colorlight, NULL };

void pisa_profile_print_core(const struct pisa_profile *p, FILE *f)
{
	const struct pisa_core_params *c = &p->core;

	fprintf(f, "CFG_WORDS=%u\nBANKS=%u\nROW_BYTES=%u\nCNT_CELLS=%u\nREG_CELLS=%u\n"
		"MTR_CELLS=%u\nKEY_BITS=%u\nPHV_MAX=%u\nPKT_MAX=%u\nROW_STAGE=%u\nSTACKS=%u\n"
		"MC_GROUPS=%u\nMC_SLOT=%u\nDIG_MAX=%u\nCL_SESS=%u\n", c->cfg_words, c->banks,
		c->row_bytes, c->counter_cells, c->register_cells, c->meter_cells, c->key_bits,
		c->phv_bytes, c->pkt_max, c->row_stage, c->stacks, c->mc_groups, c->mc_slot,
		c->digest_max, c->clone_sessions);
}

int pisa_board_matches(const char *field, const char *name)
{
	size_t n = strnlen(field, PISA_BOARD_FIELD);

	if (n == PISA_BOARD_FIELD - 1 && strlen(name) > n)
		return strncmp(field, name, n) == 0;
	return strcmp(field, name) == 0;
}

const struct pisa_profile *pisa_profile_find(const char *name)
{
	unsigned i;

	for (i = 0; pisa_profiles[i]; i++)
		if (pisa_board_matches(name, pisa_profiles[i]->name))
			return pisa_profiles[i];
	return NULL;
}
