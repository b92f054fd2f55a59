/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_int.h: the model's private state, shared by the engine files
 * (pisa_model.c, model_parser.c, model_exec.c, model_table.c, model_ops.c).
 */
#ifndef MODEL_INT_H
#define MODEL_INT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pisa_model.h"

#define MODEL_NO_ROW 0xFFFFFFFFu
#define MODEL_NO_ACTION 0xFFFF
#define MODEL_MAX_RANGE 64	/* range key fields checked per table */

/* Acceleration index of a TCAM table without range keys: rows grouped by
 * mask, one hash of (group, masked value) -> lowest row. Rebuilt lazily
 * after a row write; the result always equals the lowest-index scan. */
struct tcam_group {
	uint32_t min_row;	/* lowest row of the group: groups are probed in this order */
	uint32_t mask_off;	/* offset of the group's mask in tcam_index.masks */
};

/* keys of up to 64 bits: the masked key itself sits in the slot */
struct ix_slot64 {
	uint64_t key;
	uint32_t row;		/* MODEL_NO_ROW: empty */
	uint32_t group;
};

#define MODEL_IX_MAX_GROUPS 64	/* more distinct masks: the table is scanned */

struct tcam_index {
	int dirty;
	int scan;		/* too many masks: scan the rows instead */
	uint32_t ngroups;
	struct tcam_group *groups;
	uint8_t *masks;		/* ngroups * KB */
	uint64_t *mask64;	/* ngroups masks as numbers (KB <= 8) */
	uint32_t *group_of;	/* per row: group or MODEL_NO_ROW */
	uint32_t hmask;		/* hash slots - 1 */
	unsigned hshift;	/* 32 - log2(slots): 64-bit slots take the hash's top bits */
	uint32_t *slots;	/* KB > 8: row index or MODEL_NO_ROW */
	struct ix_slot64 *slots64;	/* KB <= 8 */
	size_t cap_groups, cap_slots;
	/* LPM mode (model_lpm.c): every mask a prefix and a longer prefix
	 * always in a lower row, so the lowest matching row is the longest
	 * prefix: a binary search on prefix lengths with markers */
	int lpm;
	unsigned nlen;			/* distinct prefix lengths, ascending */
	uint32_t lgrp[65];		/* group of each length */
	uint64_t lmask[65];		/* mask of each length */
	struct lpm_slot *lslots;
	uint32_t lhmask;
	unsigned lhshift;
	size_t cap_lslots;
};

struct lpm_slot {
	uint64_t key;
	uint32_t bmp;		/* best real prefix at or below this length, or MODEL_NO_ROW */
	uint8_t li;		/* length index */
	uint8_t used;
};

/* Results of recent lookups of a TCAM table with keys of up to 64 bits,
 * by whole key: valid while gen equals the table's (bumped by every row
 * write), so a hit returns exactly what the index would. */
#define MODEL_LC_BITS 12	/* entries, in sets of two */
struct lc_ent {
	uint64_t key;
	uint32_t row;
	uint32_t gen;
};

struct mtable {
	uint8_t *mem;		/* (rows + 1) rows of rb bytes; the last is the default row */
	uint16_t *aidx;		/* per row: index into the table's actions, or MODEL_NO_ACTION */
	uint32_t rows;
	uint32_t rb, kb, mb, db;
	uint16_t key_bits;
	uint16_t nrange;	/* range key fields */
	struct tcam_index ix;	/* TCAM without range keys only */
	int use_ix;
	struct lc_ent *lc;	/* use_ix and kb <= 8: 1 << MODEL_LC_BITS entries */
	uint32_t lc_gen;
};

struct meter_cell {
	struct pisa_meter_cfg cfg;
	uint64_t tc, tp, last;
};

struct mc_group {
	uint16_t n;
	struct pisa_mc_copy *copies;
};

struct fl_run {
	uint32_t bit;		/* PHV bit offset */
	uint32_t nbits;
	uint8_t zero;		/* a field outside the PHV: reads as zero */
};

struct fl_runs {
	uint32_t n;
	uint8_t aligned;	/* every run starts and ends on a byte */
	struct fl_run *r;
};

enum job_kind { JOB_INGRESS, JOB_EGRESS };

/* One pass waiting to run: an ingress pass over bytes, or an egress pass
 * over a PHV and its payload. Buffers are kept and reused across packets. */
struct job {
	uint8_t kind;
	uint16_t trunc;		/* clone session truncation, 0 none */
	uint8_t *phv;		/* ingress: the kept fields; egress: the PHV */
	uint16_t *vlen;		/* bytes of each varbit header (nvar) */
	uint8_t *pkt;		/* ingress: the whole packet; egress: the payload */
	size_t len;
};

struct pisa_model {
	const struct pisa_image *img;
	size_t phv_bytes;
	struct mtable *tables;
	uint64_t **cnt_pkts, **cnt_bytes;
	uint64_t **regs;
	struct meter_cell **meters;
	struct mc_group *mc;
	uint32_t mc_nodes_used;
	struct pisa_clone_cfg *clones;
	uint32_t rng;

	/* varbit headers: var_slot[h] = slot or -1 */
	int16_t *var_slot;
	uint16_t nvar;
	uint8_t *hdr_mask;	/* 0xFF on PHV bytes that belong to headers or validity bits */
	uint16_t *stack_next;	/* parser: next index per stack */
	/* Field lists as runs of PHV bits: fields that sit side by side in the
	 * PHV (most of a header) become one copy. */
	struct fl_runs *fl;

	/* work queue of passes for one injected packet */
	struct job **pool;	/* all jobs ever allocated */
	size_t npool, cap_pool;
	struct job **queue;	/* queue[head..tail) wait, FIFO */
	size_t head, tail, cap_queue;
	struct job **free;
	size_t nfree;
	size_t pkt_cap;		/* bytes of every job's pkt buffer */

	uint8_t *outbuf;	/* deparser output */
	uint8_t *scratch;	/* field lists (+ payload) for hashes and checksums */
	uint8_t *key;		/* table key */
	size_t key_cap;

	/* per packet */
	uint64_t now;
	unsigned ingress_passes, e2e_passes;
	int nomem;

	pisa_model_out_fn out;
	void *out_arg;
	pisa_model_digest_fn digest_fn;
	void *digest_arg;
	FILE *trace;
	struct pisa_model_stats st;
};

/* Context of one instruction list run. */
struct exec_ctx {
	uint8_t *phv;
	uint16_t *vlen;
	const uint8_t *adata;	/* action data of the row, db bytes */
	uint32_t db;
	const uint8_t *pkt;	/* parser only */
	size_t pkt_len, cursor;
	int parser;
	int16_t table;		/* table running (DMETER), -1 none */
	uint32_t hit_row;	/* MODEL_NO_ROW on a miss */
	int carry;
};

/* Instruction results */
#define EXEC_OK 0
#define EXEC_EXIT 1
/* > EXEC_EXIT: a parser error, code = r - EXEC_PERR */
#define EXEC_PERR 0x100

static inline uint64_t model_mask(unsigned w)
{
	return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

/* PHV field access that never leaves the PHV. */
/* Big-endian n-byte loads and stores (n 1..8), the byte-aligned fast path. */
static inline uint64_t model_be_get(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static inline void model_be_put(uint8_t *p, unsigned n, uint64_t v)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* 8-byte big-endian load and store. Every PHV buffer and table memory has
 * MODEL_SLACK bytes after its end so that a field near the end can be read
 * and written with one of these. */
#define MODEL_SLACK 8

static inline uint64_t model_ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void model_st64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

/* Bits [bitoff, bitoff + w) of a buffer with slack; w is 1..64. The same
 * result as pisa_bits_get. */
static inline uint64_t model_bits(const uint8_t *buf, size_t bitoff, unsigned w)
{
	unsigned skip = bitoff & 7;

	if (skip + w <= 64)
		return model_ld64(buf + bitoff / 8) << skip >> (64 - w);
	return pisa_bits_get(buf, bitoff, w);
}

/* PHV field access that never leaves the PHV. */
static inline uint64_t model_get(const struct pisa_model *m, const uint8_t *phv,
				 struct pisa_field f)
{
	if (f.width == 0 || f.width > 64 || (size_t)f.bitoff + f.width > m->phv_bytes * 8)
		return 0;
	return model_bits(phv, f.bitoff, f.width);
}

static inline void model_set(const struct pisa_model *m, uint8_t *phv, struct pisa_field f,
			     uint64_t v)
{
	unsigned skip = f.bitoff & 7, sh;
	uint64_t old, mk;

	if (f.width == 0 || f.width > 64 || (size_t)f.bitoff + f.width > m->phv_bytes * 8)
		return;
	if (skip + f.width > 64) {
		pisa_bits_set(phv, f.bitoff, f.width, v);
		return;
	}
	sh = 64 - skip - f.width;
	mk = model_mask(f.width) << sh;
	old = model_ld64(phv + f.bitoff / 8);
	model_st64(phv + f.bitoff / 8, (old & ~mk) | ((v << sh) & mk));
}

static inline int model_hdr_valid(const struct pisa_model *m, const uint8_t *phv, unsigned h)
{
	size_t b = PISA_VALID_BIT(h);

	return h < m->img->nheaders && b / 8 < m->phv_bytes && (phv[b / 8] >> (7 - b % 8)) & 1;
}

void model_hdr_set_valid(struct pisa_model *m, uint8_t *phv, unsigned h, int valid);

/* model_exec.c */
int model_exec(struct pisa_model *m, struct exec_ctx *c, const struct pisa_insn *insns,
	       unsigned n);
uint32_t model_rng_step(struct pisa_model *m);
/* Writes field list fl's bits into buf (zero padded); returns the bit count. */
size_t model_flist_bytes(const struct pisa_model *m, const uint8_t *phv, unsigned fl,
			 uint8_t *buf);

/* model_parser.c */
int model_parse(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, const uint8_t *pkt,
		size_t len, size_t *cursor);
void model_csum_verify(struct pisa_model *m, uint8_t *phv, const uint8_t *payload, size_t plen);
void model_csum_update(struct pisa_model *m, uint8_t *phv, const uint8_t *payload, size_t plen);
size_t model_deparse(struct pisa_model *m, const uint8_t *phv, const uint16_t *vlen,
		     const uint8_t *payload, size_t plen, uint8_t *out);
size_t model_hdr_len(const struct pisa_model *m, const uint16_t *vlen, unsigned h);

/* model_table.c */
void model_run_tables(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, unsigned gress);
int model_table_init(struct pisa_model *m, unsigned t);
void model_table_free(struct mtable *mt);
uint32_t model_ix_find64(const struct tcam_index *ix, uint32_t g, uint64_t k);

/* model_lpm.c */
int model_lpm_build(struct mtable *mt);
uint32_t model_lpm_lookup(const struct tcam_index *ix, uint64_t key);

/* model_tm.c */
int model_tm_run(struct pisa_model *m, uint16_t port, const uint8_t *data, size_t len);
void model_tm_free(struct pisa_model *m);

/* model_ops.c */
int model_write_row(struct pisa_model *m, uint16_t table, uint32_t index, const uint8_t *row,
		    size_t len);
unsigned model_meter_exec(struct pisa_model *m, unsigned id, uint64_t index, uint64_t pktlen);
void model_count(struct pisa_model *m, unsigned id, uint64_t index, uint64_t pktlen);

/* names for the trace */
const char *model_table_name(const struct pisa_model *m, unsigned t, char *buf, size_t n);
const char *model_action_name(const struct pisa_model *m, unsigned a, char *buf, size_t n);
const char *model_header_name(const struct pisa_model *m, unsigned h, char *buf, size_t n);
const char *model_error_name(const struct pisa_model *m, unsigned e, char *buf, size_t n);
void model_trace(struct pisa_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
