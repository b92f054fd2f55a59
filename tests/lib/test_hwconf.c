/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_hwconf.c: lib/pisa_hwconf.c lays a small image out as docs/hwconf.md
 * says, and refuses, naming the construct, what the RTL core cannot run or
 * hold. (The layout as a whole is checked by running images on the core:
 * make -C hw stf-rtl, make -C tests/rtl test.)
 */
#include <stdio.h>
#include <string.h>

#include "pisa_hwconf.h"

static int failures;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("PASS hwconf %s\n", name);
	} else {
		printf("FAIL hwconf %s: %s\n", name, why);
		failures++;
	}
}

int main(void)
{
	struct pisa_header hdr[2] = { { 65, 14, 14 }, { 79, 20, 20 } };
	struct pisa_insn ins[1];
	struct pisa_action act = { 1, ins, 0 };
	struct pisa_table_action ta = { 0, PISA_NEXT_END, 0 };
	struct pisa_table tab;
	struct pisa_image img;
	struct pisa_hwconf hc;
	struct pisa_hwconf_limits lim = pisa_hwconf_sim_limits;
	struct pisa_field fields[6] = { { 0, 4 }, { 4, 4 }, { 8, 8 }, { 24, 8 }, { 32, 60 },
					{ 92, 8 } };
	struct pisa_field_list flist = { 6, fields };
	char err[256], why[512];
	int e;

	memset(&img, 0, sizeof(img));
	memset(&tab, 0, sizeof(tab));
	memset(ins, 0, sizeof(ins));
	ins[0].op = PISA_DROP;
	tab.mem = PISA_MEM_NONE;
	tab.nactions = 1;
	tab.actions = &ta;
	tab.next_hit = tab.next_miss = PISA_NEXT_END;
	tab.direct_counter = tab.direct_meter = -1;
	img.phv_bytes = 128;
	img.nheaders = 2;
	img.headers = hdr;
	img.parser_start = PISA_PARSER_ACCEPT;
	img.ntables = 1;
	img.tables = &tab;
	img.ingress_start = 0;
	img.egress_start = PISA_NEXT_END;
	img.nactions = 1;
	img.actions = &act;

	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("small image", e == 0, why);
	if (e == 0) {
		uint64_t hdr_base = hc.words[4] >> 48, table_base = hc.words[4] >> 16 & 0xFFFF;
		uint64_t action_base = hc.words[4] & 0xFFFF, w;

		check("magic", hc.words[0] == PISA_HWCONF_MAGIC, "word 0");
		check("counts", hc.words[1] == ((uint64_t)2 << 48 | (uint64_t)1 << 16 | 128),
		      "word 1: nheaders, nstates, ntables, phv_bytes");
		check("starts", hc.words[2] == ((uint64_t)PISA_PARSER_ACCEPT << 48 |
						(uint64_t)PISA_NEXT_END << 16), "word 2");
		check("header record", hc.words[hdr_base + 1] == ((uint64_t)79 << 48 | (uint64_t)20 << 32),
		      "header 1: phv_byte 79, 20 bytes");
		w = hc.words[table_base + 1];
		check("table rows", w >> 32 == 0 && (uint32_t)w == 0, "keyless: 0 rows at byte 0");
		w = hc.words[table_base + 2];
		check("table row bytes", w >> 48 == 3 && (w & 0xFFFF) == 0xFFFF,
		      "a 3-byte row (flags, action id), no direct counter");
		w = hc.words[action_base];
		check("action", (w >> 32 & 0xFFFF) == 1 && hc.words[w >> 48] >> 56 == PISA_DROP,
		      "one instruction, DROP");
		check("row memory", hc.row_bytes == 3 && (uint32_t)hc.words[7] == 3,
		      "the default row's 3 bytes, in word 7 too");
		pisa_hwconf_free(&hc);
	}

	/* a field list's PHV neighbours become one entry of at most 64 bits */
	img.nfield_lists = 1;
	img.field_lists = &flist;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("field list", e == 0, why);
	if (e == 0) {
		uint64_t l = hc.words[hc.words[5] >> 16 & 0xFFFF];
		uint32_t want[4] = { 1u << 28 | 16u << 16 | 0, 1u << 28 | 8u << 16 | 24,
				     1u << 28 | 60u << 16 | 32, 1u << 28 | 8u << 16 | 92 };
		unsigned k, same = (l >> 32 & 0xFFFF) == 4;

		for (k = 0; same && k < 4; k++)
			same = hc.words[(l >> 48) + k] == want[k];
		check("field list joined", same, "(0,4)(4,4)(8,8) (24,8) (32,60) (92,8): 4 entries, "
		      "the first three joined, the last two would pass 64 bits");
		pisa_hwconf_free(&hc);
	}
	img.nfield_lists = 0;

	ins[0].op = PISA_RESUBMIT;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("resubmit taken", e == 0, why);
	if (e == 0)
		pisa_hwconf_free(&hc);
	ins[0].op = PISA_RECIRCULATE;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("recirculate refused", e == -PISA_E_INVAL && strstr(err, "action 0 uses recirculate"),
	      why);
	ins[0].op = PISA_CLONE;
	ins[0].imm = PISA_CLONE_E2E;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("E2E clone refused", e == -PISA_E_INVAL && strstr(err, "egress-to-egress clone"), why);
	ins[0].imm = PISA_CLONE_I2E;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("I2E clone taken", e == 0, why);
	if (e == 0)
		pisa_hwconf_free(&hc);
	ins[0].op = PISA_DROP;
	ins[0].imm = 0;

	hdr[1].fixed_bytes = 4;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("varbit refused", e == -PISA_E_INVAL && strstr(err, "header 1 is a varbit"), why);
	hdr[1].fixed_bytes = 20;

	lim.phv_bytes = 64;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("PHV too big", e == -PISA_E_RANGE && strstr(err, "128 bytes, the core 64"), why);
	lim = pisa_hwconf_sim_limits;

	lim.cfg_words = 12;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("configuration memory too small", e == -PISA_E_RANGE &&
	      strstr(err, "more than 12 configuration words"), why);
	lim = pisa_hwconf_sim_limits;

	lim.row_bytes = 2;
	e = pisa_hwconf_build(&img, &lim, &hc, err, sizeof(err));
	snprintf(why, sizeof(why), "returned %d: %s", e, err);
	check("row memory too small", e == -PISA_E_RANGE && strstr(err, "row memory (table 0)"),
	      why);
	return failures ? 1 : 0;
}
