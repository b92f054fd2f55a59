/* SPDX-License-Identifier: Apache-2.0 */
/*
 * img.h: a small L2 forwarding image for the link and CLI tests.
 *
 *   parser: extract ethernet (14 bytes, PHV bytes 80..93), accept
 *   table 0 "fwd" (ingress, stage 0, exact on dst MAC, 1 way x 16 rows):
 *     action 0 "forward(port)": egress_spec = port; count(0, index 0)
 *     action 1 "drop": mark_to_drop
 *     default: forward(DEFAULT_PORT)
 *   counter 0 "hits" (16 cells), register 0 "r" (32 bits x 16 cells)
 *   deparse ethernet
 */
#ifndef TESTS_PROTO_IMG_H
#define TESTS_PROTO_IMG_H

#include <stdlib.h>
#include <string.h>

#include "pisa_image.h"
#include "pisa_switch.h"

#define IMG_ETH_BYTE 80
#define IMG_DEFAULT_PORT 3
#define IMG_ACT_FORWARD 0
#define IMG_ACT_DROP 1

struct img_store {
	struct pisa_image img;
	struct pisa_header hdr;
	struct pisa_parser_state st;
	struct pisa_insn pops[1];
	struct pisa_parser_row prow;
	struct pisa_table tab;
	struct pisa_key_field key;
	struct pisa_table_action tacts[2];
	uint8_t dadata[2];
	struct pisa_action acts[2];
	struct pisa_insn fwd[2], drop[1];
	struct pisa_counter ctr;
	struct pisa_register reg;
	uint16_t deparse[1];
	struct pisa_rt_table rtt;
	struct pisa_rt_key rtk;
	struct pisa_rt_action rta[2];
	struct pisa_rt_param rtp;
	struct pisa_rt_named rtc, rtr;
	char *rth[1];
};

static inline struct pisa_operand img_opnd(uint8_t kind, unsigned off, unsigned w, uint64_t v)
{
	struct pisa_operand o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.off = (uint16_t)off;
	o.width = (uint16_t)w;
	o.value = v;
	return o;
}

/* Fills s with the image; board names the profile ("sim" normally). */
static inline struct pisa_image *img_build(struct img_store *s, const char *board)
{
	struct pisa_image *img = &s->img;
	struct pisa_field es = PISA_SM_EGRESS_SPEC;

	memset(s, 0, sizeof(*s));
	strncpy(img->board, board, sizeof(img->board) - 1);
	strcpy(img->program, "l2fwd");
	img->phv_bytes = 96;
	img->cpu_port = PISA_PORT_CPU_DEFAULT;
	img->nstages = 1;

	s->hdr.phv_byte = IMG_ETH_BYTE;
	s->hdr.bytes = s->hdr.fixed_bytes = 14;
	img->nheaders = 1;
	img->headers = &s->hdr;
	s->rth[0] = "hdr.ethernet";
	img->rt_headers = s->rth;

	s->pops[0].op = PISA_EXTRACT;
	s->pops[0].imm = 0;
	s->st.nops = 1;
	s->st.ops = s->pops;
	s->prow.next = PISA_PARSER_ACCEPT;
	s->st.nrows = 1;
	s->st.rows = &s->prow;
	img->nstates = 1;
	img->states = &s->st;
	img->parser_start = 0;

	s->fwd[0].op = PISA_SET;
	s->fwd[0].dst = img_opnd(PISA_OPND_PHV, es.bitoff, es.width, 0);
	s->fwd[0].a = img_opnd(PISA_OPND_ADATA, 7, 9, 0);
	s->fwd[1].op = PISA_COUNT;
	s->fwd[1].imm = 0;
	s->fwd[1].a = img_opnd(PISA_OPND_CONST, 0, 4, 0);
	s->drop[0].op = PISA_DROP;
	s->acts[0].ninsns = 2;
	s->acts[0].insns = s->fwd;
	s->acts[0].adata_bits = 16;
	s->acts[1].ninsns = 1;
	s->acts[1].insns = s->drop;
	img->nactions = 2;
	img->actions = s->acts;
	s->rtp.name = "port";
	s->rtp.width = 9;
	s->rtp.adata_off = 7;
	s->rta[0].name = "MyIngress.forward";
	s->rta[0].p4info_id = 1;
	s->rta[0].nparams = 1;
	s->rta[0].params = &s->rtp;
	s->rta[1].name = "MyIngress.drop";
	s->rta[1].p4info_id = 2;
	img->rt_actions = s->rta;

	s->tab.gress = 0;
	s->tab.stage = 0;
	s->tab.mem = PISA_MEM_HASH;
	s->tab.next_mode = PISA_NEXT_HITMISS;
	s->key.field.bitoff = IMG_ETH_BYTE * 8;
	s->key.field.width = 48;
	s->key.match = PISA_MATCH_EXACT;
	s->tab.nkeys = 1;
	s->tab.keys = &s->key;
	s->tab.key_bits = 48;
	s->tab.adata_bits = 16;
	s->tab.ways = 1;
	s->tab.way_bits = 4;
	s->tab.rows = 16;
	s->tacts[0].action = IMG_ACT_FORWARD;
	s->tacts[1].action = IMG_ACT_DROP;
	s->tacts[0].next = s->tacts[1].next = PISA_NEXT_END;
	s->tab.nactions = 2;
	s->tab.actions = s->tacts;
	s->tab.next_hit = s->tab.next_miss = PISA_NEXT_END;
	s->tab.direct_counter = -1;
	s->tab.direct_meter = -1;
	s->tab.default_action = IMG_ACT_FORWARD;
	s->dadata[1] = IMG_DEFAULT_PORT;
	s->tab.default_adata_len = 2;
	s->tab.default_adata = s->dadata;
	img->ntables = 1;
	img->tables = &s->tab;
	img->ingress_start = 0;
	img->egress_start = PISA_NEXT_END;
	s->rtk.name = "hdr.ethernet.dstAddr";
	s->rtk.width = 48;
	s->rtt.name = "MyIngress.fwd";
	s->rtt.p4info_id = 10;
	s->rtt.size = 16;
	s->rtt.nkeys = 1;
	s->rtt.keys = &s->rtk;
	img->rt_tables = &s->rtt;

	s->ctr.kind = PISA_COUNTER_BOTH;
	s->ctr.size = 16;
	s->ctr.direct_table = -1;
	img->ncounters = 1;
	img->counters = &s->ctr;
	s->rtc.name = "MyIngress.hits";
	img->rt_counters = &s->rtc;
	s->reg.width = 32;
	s->reg.size = 16;
	img->nregisters = 1;
	img->registers = &s->reg;
	s->rtr.name = "MyIngress.r";
	img->rt_registers = &s->rtr;

	s->deparse[0] = 0;
	img->ndeparse = 1;
	img->deparse = s->deparse;
	img->mcast_groups = 16;
	img->mcast_nodes = 64;
	img->clone_sessions = 16;
	return img;
}

/* A row of the fwd table: valid, forward(port), key = mac. */
static inline size_t img_row(const struct pisa_image *img, uint8_t *row, const uint8_t mac[6],
			     uint16_t port)
{
	const struct pisa_table *t = &img->tables[0];
	size_t n = pisa_row_bytes(t);

	memset(row, 0, n);
	row[0] = PISA_ROW_VALID;
	row[1] = 0;
	row[2] = IMG_ACT_FORWARD;
	memcpy(row + PISA_ROW_HDR, mac, 6);
	row[PISA_ROW_HDR + 6] = (uint8_t)(port >> 8);
	row[PISA_ROW_HDR + 7] = (uint8_t)port;
	return n;
}

/* The bucket a key goes to in way 0 of the fwd table. */
static inline uint32_t img_bucket(const uint8_t mac[6])
{
	return pisa_hash_way(0, mac, 6) & 15;
}

#endif
