/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build.h: builders for small images in C structs and a harness that runs
 * packets through pisa-model and records what comes out, for tests/model.
 * Everything is allocated from one arena, freed by tb_done().
 */
#ifndef TESTS_MODEL_BUILD_H
#define TESTS_MODEL_BUILD_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/pisa_model.h"

/* ---- arena ---- */
static void **tb_arena;
static size_t tb_n, tb_cap;

static inline void *tb_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	if (tb_n == tb_cap) {
		tb_cap = tb_cap ? tb_cap * 2 : 64;
		tb_arena = realloc(tb_arena, tb_cap * sizeof(*tb_arena));
		if (!tb_arena)
			exit(2);
	}
	tb_arena[tb_n++] = p;
	return p;
}

static inline void *tb_dup(const void *src, size_t n)
{
	void *p = tb_alloc(n);

	if (n)
		memcpy(p, src, n);
	return p;
}

static inline void tb_done(void)
{
	size_t i;

	for (i = 0; i < tb_n; i++)
		free(tb_arena[i]);
	free(tb_arena);
	tb_arena = NULL;
	tb_n = tb_cap = 0;
}

/* ---- results ---- */
static int tb_failed;

static inline void tb_check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	tb_failed = 1;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- operands and instructions ---- */
static inline struct pisa_operand PHV(unsigned off, unsigned w)
{
	return (struct pisa_operand){ .kind = PISA_OPND_PHV, .off = (uint16_t)off, .width = (uint16_t)w };
}

static inline struct pisa_operand K(uint64_t v, unsigned w)
{
	return (struct pisa_operand){ .kind = PISA_OPND_CONST, .width = (uint16_t)w, .value = v };
}

static inline struct pisa_operand AD(unsigned off, unsigned w)
{
	return (struct pisa_operand){ .kind = PISA_OPND_ADATA, .off = (uint16_t)off, .width = (uint16_t)w };
}

static inline struct pisa_operand PKT(unsigned off, unsigned w)
{
	return (struct pisa_operand){ .kind = PISA_OPND_PKT, .off = (uint16_t)off, .width = (uint16_t)w };
}

static inline struct pisa_operand FLD(struct pisa_field f)
{
	return PHV(f.bitoff, f.width);
}

#define NO ((struct pisa_operand){ 0 })

static inline struct pisa_insn INS(unsigned op, unsigned imm, struct pisa_operand d,
				   struct pisa_operand a, struct pisa_operand b)
{
	return (struct pisa_insn){ .op = (uint8_t)op, .imm = (uint16_t)imm, .dst = d, .a = a, .b = b };
}

static inline struct pisa_insn SINS(unsigned op, struct pisa_operand d, struct pisa_operand a,
				    struct pisa_operand b)
{
	struct pisa_insn i = INS(op, 0, d, a, b);

	i.flags = PISA_INSN_SIGNED;
	return i;
}

/* ---- image ---- */
#define TB_MAX 64

static inline struct pisa_image *tb_image(uint16_t phv_bytes)
{
	struct pisa_image *img = tb_alloc(sizeof(*img));

	strcpy(img->board, "sim");
	strcpy(img->program, "test");
	img->phv_bytes = phv_bytes;
	img->cpu_port = PISA_PORT_CPU_DEFAULT;
	img->headers = tb_alloc(TB_MAX * sizeof(*img->headers));
	img->stacks = tb_alloc(TB_MAX * sizeof(*img->stacks));
	img->states = tb_alloc(TB_MAX * sizeof(*img->states));
	img->tables = tb_alloc(TB_MAX * sizeof(*img->tables));
	img->actions = tb_alloc(TB_MAX * sizeof(*img->actions));
	img->counters = tb_alloc(TB_MAX * sizeof(*img->counters));
	img->registers = tb_alloc(TB_MAX * sizeof(*img->registers));
	img->meters = tb_alloc(TB_MAX * sizeof(*img->meters));
	img->field_lists = tb_alloc(TB_MAX * sizeof(*img->field_lists));
	img->hash_units = tb_alloc(TB_MAX * sizeof(*img->hash_units));
	img->digests = tb_alloc(TB_MAX * sizeof(*img->digests));
	img->checksums = tb_alloc(TB_MAX * sizeof(*img->checksums));
	img->deparse = tb_alloc(TB_MAX * sizeof(*img->deparse));
	img->const_rows = tb_alloc(TB_MAX * sizeof(*img->const_rows));
	img->parser_start = PISA_PARSER_ACCEPT;
	img->ingress_start = PISA_NEXT_END;
	img->egress_start = PISA_NEXT_END;
	img->mcast_groups = 16;
	img->mcast_nodes = 64;
	img->clone_sessions = 16;
	return img;
}

/* A header of `bytes` bytes at PHV byte phv_byte, emitted in creation order. */
static inline unsigned tb_header(struct pisa_image *img, unsigned phv_byte, unsigned bytes)
{
	unsigned h = img->nheaders++;

	img->headers[h] = (struct pisa_header){ (uint16_t)phv_byte, (uint16_t)bytes, (uint16_t)bytes };
	img->deparse[img->ndeparse++] = (uint16_t)h;
	return h;
}

/* Bit offset of byte `byte` of header h, plus bit. */
static inline unsigned HB(const struct pisa_image *img, unsigned h, unsigned bit)
{
	return img->headers[h].phv_byte * 8u + bit;
}

static inline unsigned tb_state(struct pisa_image *img, unsigned nops, const struct pisa_insn *ops)
{
	unsigned s = img->nstates++;

	img->states[s].nops = (uint16_t)nops;
	img->states[s].ops = tb_dup(ops, nops * sizeof(*ops));
	img->states[s].rows = tb_alloc(16 * sizeof(struct pisa_parser_row));
	return s;
}

static inline void tb_key(struct pisa_image *img, unsigned s, struct pisa_operand k)
{
	img->states[s].key[img->states[s].nkey++] = k;
}

static inline void tb_row(struct pisa_image *img, unsigned s, uint64_t value, uint64_t mask,
		   unsigned next, unsigned error)
{
	struct pisa_parser_state *st = &img->states[s];

	st->rows[st->nrows++] = (struct pisa_parser_row){ value, mask, (uint16_t)next, (uint16_t)error };
}

static inline unsigned tb_action(struct pisa_image *img, unsigned n, const struct pisa_insn *insns,
			  unsigned adata_bits)
{
	unsigned a = img->nactions++;

	img->actions[a].ninsns = (uint16_t)n;
	img->actions[a].insns = tb_dup(insns, n * sizeof(*insns));
	img->actions[a].adata_bits = (uint16_t)adata_bits;
	return a;
}

/* A table; keys and actions added with tb_tkey / tb_tact. */
static inline unsigned tb_table(struct pisa_image *img, unsigned gress, unsigned mem, unsigned rows,
			 unsigned adata_bits, unsigned default_action)
{
	unsigned t = img->ntables++;
	struct pisa_table *tb = &img->tables[t];

	tb->gress = (uint8_t)gress;
	tb->stage = (uint8_t)t;
	tb->mem = (uint8_t)mem;
	tb->keys = tb_alloc(16 * sizeof(*tb->keys));
	tb->actions = tb_alloc(16 * sizeof(*tb->actions));
	tb->adata_bits = (uint16_t)adata_bits;
	tb->rows = rows;
	tb->next_hit = tb->next_miss = PISA_NEXT_END;
	tb->direct_counter = -1;
	tb->direct_meter = -1;
	tb->default_action = (uint16_t)default_action;
	return t;
}

static inline void tb_hash_geom(struct pisa_image *img, unsigned t, unsigned ways, unsigned way_bits)
{
	img->tables[t].ways = (uint8_t)ways;
	img->tables[t].way_bits = (uint8_t)way_bits;
	img->tables[t].rows = ways << way_bits;
}

static inline void tb_tkey(struct pisa_image *img, unsigned t, unsigned bitoff, unsigned width,
		    unsigned match)
{
	struct pisa_table *tb = &img->tables[t];

	tb->keys[tb->nkeys++] = (struct pisa_key_field){ { (uint16_t)bitoff, (uint16_t)width },
							 (uint8_t)match };
	tb->key_bits = (uint16_t)(tb->key_bits + width);
}

static inline void tb_tact(struct pisa_image *img, unsigned t, unsigned action, unsigned next,
		    unsigned flags)
{
	struct pisa_table *tb = &img->tables[t];

	tb->actions[tb->nactions++] = (struct pisa_table_action){ (uint16_t)action, (uint16_t)next,
								  (uint8_t)flags };
}

static inline unsigned tb_flist(struct pisa_image *img, unsigned n, const struct pisa_field *f)
{
	unsigned l = img->nfield_lists++;

	img->field_lists[l].nfields = (uint16_t)n;
	img->field_lists[l].fields = tb_dup(f, n * sizeof(*f));
	return l;
}

/* ---- rows ---- */
struct tb_rowbuf {
	uint8_t b[512];
	size_t len;
};

/* A row: flags valid, action, match part bytes, action data bytes. */
static inline struct tb_rowbuf tb_mkrow(const struct pisa_table *t, unsigned action, const uint8_t *match,
				 const uint8_t *adata)
{
	struct tb_rowbuf r;
	size_t mb = pisa_row_match_bytes(t), db = pisa_row_adata_bytes(t);

	memset(&r, 0, sizeof(r));
	r.len = pisa_row_bytes(t);
	r.b[0] = PISA_ROW_VALID;
	r.b[1] = (uint8_t)(action >> 8);
	r.b[2] = (uint8_t)action;
	if (match && mb)
		memcpy(r.b + PISA_ROW_HDR, match, mb);
	if (adata && db)
		memcpy(r.b + PISA_ROW_HDR + mb, adata, db);
	return r;
}

/* ---- harness: run packets, keep what leaves ---- */
#define TB_MAX_OUT 64

struct tb_pkt {
	uint16_t port;
	size_t len;
	uint8_t data[PISA_MODEL_MAX_PACKET + 1024];
};

struct tb_out {
	unsigned n;
	struct tb_pkt p[TB_MAX_OUT];
	unsigned ndig;
	uint16_t dig_id[8];
	uint8_t dig[8][64];
	size_t dig_len[8];
};

static inline void tb_out_fn(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	struct tb_out *o = arg;

	if (o->n >= TB_MAX_OUT || len > sizeof(o->p[0].data))
		return;
	o->p[o->n].port = port;
	o->p[o->n].len = len;
	memcpy(o->p[o->n].data, data, len);
	o->n++;
}

static inline void tb_digest_fn(void *arg, uint16_t id, const uint8_t *data, size_t len)
{
	struct tb_out *o = arg;

	if (o->ndig >= 8 || len > 64)
		return;
	o->dig_id[o->ndig] = id;
	memcpy(o->dig[o->ndig], data, len);
	o->dig_len[o->ndig] = len;
	o->ndig++;
}

static inline struct tb_out *tb_outbuf(void)
{
	return tb_alloc(sizeof(struct tb_out));
}

static inline int tb_send(struct pisa_model *m, struct tb_out *o, uint16_t port, const uint8_t *p,
		   size_t len, uint64_t t)
{
	o->n = 0;
	o->ndig = 0;
	pisa_model_set_digest_cb(m, tb_digest_fn, o);
	return pisa_model_inject(m, port, p, len, t, tb_out_fn, o);
}

static inline int tb_eq(const struct tb_pkt *p, uint16_t port, const uint8_t *data, size_t len)
{
	return p->port == port && p->len == len && !memcmp(p->data, data, len);
}

static inline void tb_hex(const uint8_t *p, size_t n, char *buf, size_t cap)
{
	size_t i, k = 0;

	buf[0] = 0;
	for (i = 0; i < n && k + 3 < cap; i++)
		k += (size_t)snprintf(buf + k, cap - k, "%02x", p[i]);
}

#endif
