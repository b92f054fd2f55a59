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
};

static const struct pisa_profile icebreaker = {
	.name = "icebreaker", .device = "iCE40UP5K-SG48",
	.word_bits = 16, .phv_bytes = 128, .stages = 4, .tables_per_stage = 2,
	.hash_bits = 16384, .hash_row_bits = 128, .tcam_rows = 16, .tcam_key_bits = 32,
	.max_key_bits = 64, .max_adata_bits = 64, .insns_per_stage = 64,
	.stateful_bits = 16384, .ports = 2, .cpu_port = 255,
	.mcast_groups = 16, .mcast_nodes = 32, .clone_sessions = 4,
	.clock_mhz = 30, .line_rate_kpps = 298,
};

static const struct pisa_profile hx8k = {
	.name = "hx8k-breakout", .device = "iCE40HX8K-CT256",
	.word_bits = 16, .phv_bytes = 160, .stages = 4, .tables_per_stage = 2,
	.hash_bits = 24576, .hash_row_bits = 128, .tcam_rows = 32, .tcam_key_bits = 32,
	.max_key_bits = 64, .max_adata_bits = 64, .insns_per_stage = 64,
	.stateful_bits = 8192, .ports = 4, .cpu_port = 255,
	.mcast_groups = 16, .mcast_nodes = 64, .clone_sessions = 4,
	.clock_mhz = 50, .line_rate_kpps = 595,
};

static const struct pisa_profile colorlight = {
	.name = "colorlight-5a-75b", .device = "LFE5U-25F-6BG256C",
	.word_bits = 64, .phv_bytes = 256, .stages = 8, .tables_per_stage = 4,
	.hash_bits = 92160, .hash_row_bits = 144, .tcam_rows = 64, .tcam_key_bits = 64,
	.max_key_bits = 128, .max_adata_bits = 128, .insns_per_stage = 256,
	.stateful_bits = 18432, .ports = 2, .cpu_port = 255,
	.mcast_groups = 64, .mcast_nodes = 256, .clone_sessions = 16,
	.clock_mhz = 125, .line_rate_kpps = 2976,
};

const struct pisa_profile *const pisa_profiles[] = { &sim, &icebreaker, &hx8k, &colorlight, NULL };

const struct pisa_profile *pisa_profile_find(const char *name)
{
	unsigned i;

	for (i = 0; pisa_profiles[i]; i++)
		if (strcmp(pisa_profiles[i]->name, name) == 0)
			return pisa_profiles[i];
	return NULL;
}
