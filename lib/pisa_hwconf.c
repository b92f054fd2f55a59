/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_hwconf.c: an image laid out as 64-bit configuration words for the
 * RTL core (docs/hwconf.md). Everything the core reads while a packet runs
 * is a fixed-width record at a known word address, so the Verilog needs no
 * parser of the .pisa format: a header word block gives the base of each
 * record array, records point at their sub-arrays by word address.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_hwconf.h"
#include "pisa_profile.h"
#include "pisa_switch.h"

const struct pisa_hwconf_limits pisa_hwconf_sim_limits = {
	.cfg_words = 65536,
	.row_bytes = 1u << 20,
	.counter_cells = 16384,
	.register_cells = 16384,
	.meter_cells = 4096,
	.key_bits = 512,
	.phv_bytes = 1024,
	.stacks = 64,
};

void pisa_hwconf_limits_for(const char *board, struct pisa_hwconf_limits *lim)
{
	const struct pisa_profile *p = pisa_profile_find(board);

	*lim = pisa_hwconf_sim_limits;
	if (!p || strcmp(p->name, "sim") == 0)
		return;
	lim->cfg_words = p->core.cfg_words;
	lim->row_bytes = p->core.row_bytes;
	lim->counter_cells = p->core.counter_cells;
	lim->register_cells = p->core.register_cells;
	lim->meter_cells = p->core.meter_cells;
	lim->key_bits = (uint16_t)p->core.key_bits;
	lim->phv_bytes = (uint16_t)p->core.phv_bytes;
	lim->stacks = (uint16_t)p->core.stacks;
}

/* Hash classes of the core's hash engine (W0[63:56] of a hash record). */
enum { HC_CRC = 0, HC_CSUM16 = 1, HC_XOR16 = 2, HC_IDENTITY = 3, HC_RANDOM = 4 };

#define HDR_WORDS 10

struct build {
	uint64_t *w;
	uint32_t n, cap;
	const struct pisa_hwconf_limits *lim;
	char *err;
	size_t errlen;
	int rc;
};

static void fail(struct build *b, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct build *b, int rc, const char *fmt, ...)
{
	va_list ap;

	if (b->rc)
		return;
	b->rc = rc;
	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
}

/* Reserves n words; returns the address of the first. */
static uint32_t alloc_words(struct build *b, uint32_t n)
{
	uint32_t at = b->n;

	if (b->rc)
		return 0;
	if ((uint64_t)b->n + n > b->lim->cfg_words || (uint64_t)b->n + n > 0xFFFF) {
		fail(b, -PISA_E_RANGE, "the image needs more than %u configuration words",
		     b->lim->cfg_words < 0xFFFF ? b->lim->cfg_words : 0xFFFF);
		return 0;
	}
	if (b->n + n > b->cap) {
		uint32_t cap = b->cap ? b->cap : 1024;
		uint64_t *w;

		while (cap < b->n + n)
			cap *= 2;
		w = realloc(b->w, (size_t)cap * sizeof(*w));
		if (!w) {
			fail(b, -PISA_E_NOMEM, "out of memory");
			return 0;
		}
		memset(w + b->cap, 0, (size_t)(cap - b->cap) * sizeof(*w));
		b->w = w;
		b->cap = cap;
	}
	b->n += n;
	return at;
}

static void put(struct build *b, uint32_t at, uint64_t v)
{
	if (!b->rc)
		b->w[at] = v;
}

/* Operand descriptor: kind [31:28], width [22:16], offset [15:0]. */
static uint32_t desc(unsigned kind, unsigned off, unsigned width)
{
	return (uint32_t)(kind & 0xF) << 28 | (uint32_t)(width > 64 ? 64 : width) << 16 |
	       (off & 0xFFFF);
}

static uint32_t opnd_desc(const struct pisa_operand *o)
{
	return desc(o->kind, o->off, o->width);
}

void pisa_hwconf_insn(const struct pisa_insn *in, uint64_t w[4])
{
	w[0] = (uint64_t)in->op << 56 | (uint64_t)in->flags << 48 | (uint64_t)in->imm << 32 |
	       opnd_desc(&in->dst);
	w[1] = (uint64_t)opnd_desc(&in->a) << 32 | opnd_desc(&in->b);
	w[2] = in->a.value;
	w[3] = in->b.value;
}

static uint32_t field_desc(struct pisa_field f)
{
	return desc(PISA_OPND_PHV, f.bitoff, f.width);
}

/* A field list's entries with neighbours in the PHV joined (up to 64 bits, what the core
 * reads in one go): every use of a list (hash, checksum, digest, clone fields) takes the
 * concatenation of its bits, so the join changes nothing but the core's time: one entry
 * instead of several, and whole bytes where IPv4's version/ihl and flags/offset are not.
 * Puts each entry in the next word allocated; returns how many there are. */
static uint32_t put_joined_fields(struct build *b, const struct pisa_field_list *l)
{
	uint32_t n = 0;
	unsigned k = 0;

	while (k < l->nfields) {
		struct pisa_field f = l->fields[k++];

		while (k < l->nfields && f.width + l->fields[k].width <= 64 &&
		       (unsigned)f.bitoff + f.width == l->fields[k].bitoff)
			f.width = (uint16_t)(f.width + l->fields[k++].width);
		put(b, alloc_words(b, 1), field_desc(f));
		n++;
	}
	return n;
}

static const char *unsupported_op(unsigned op)
{
	switch (op) {
	case PISA_RECIRCULATE: return "recirculate";
	case PISA_EXTRACT_VAR: return "extract of a varbit header";
	default: return NULL;
	}
}

static uint32_t put_insns(struct build *b, const struct pisa_insn *in, unsigned n,
			  const char *where, unsigned id)
{
	uint32_t at = alloc_words(b, 4 * n);
	uint64_t w[4];
	unsigned i, k;

	for (i = 0; i < n && !b->rc; i++) {
		const char *u = unsupported_op(in[i].op);

		if (in[i].op == PISA_CLONE && in[i].imm == PISA_CLONE_E2E)
			u = "an egress-to-egress clone";

		if (u) {
			fail(b, -PISA_E_INVAL, "%s %u uses %s, which the RTL core does not implement yet",
			     where, id, u);
			break;
		}
		pisa_hwconf_insn(&in[i], w);
		for (k = 0; k < 4; k++)
			put(b, at + 4 * i + k, w[k]);
	}
	return at;
}

/* A hash record, 3 words: class, CRC parameters. */
static void put_hash(struct build *b, uint32_t at, unsigned algo, unsigned field_list,
		     const struct pisa_hash_unit *custom)
{
	unsigned cls = HC_CRC, width = 32, refin = 1, refout = 1;
	uint32_t poly = 0x04C11DB7u, init = 0xFFFFFFFFu, xo = 0xFFFFFFFFu;

	switch (algo) {
	case PISA_HASH_CRC32:
		break;
	case PISA_HASH_CRC16:
		width = 16, poly = 0x8005, init = 0, xo = 0;
		break;
	case PISA_HASH_CRC32_CUSTOM:
	case PISA_HASH_CRC16_CUSTOM:
		if (!custom) {
			fail(b, -PISA_E_INVAL, "a checksum unit with a custom CRC");
			return;
		}
		width = custom->crc_width == 16 ? 16 : 32;
		refin = custom->reflect_in, refout = custom->reflect_out;
		poly = custom->poly, init = custom->init, xo = custom->xor_out;
		break;
	case PISA_HASH_CSUM16: cls = HC_CSUM16; break;
	case PISA_HASH_XOR16: cls = HC_XOR16; break;
	case PISA_HASH_IDENTITY: cls = HC_IDENTITY; break;
	case PISA_HASH_RANDOM: cls = HC_RANDOM; break;
	default:
		fail(b, -PISA_E_INVAL, "hash algorithm %u", algo);
		return;
	}
	if (width == 16) {
		poly &= 0xFFFF, init &= 0xFFFF, xo &= 0xFFFF;
	}
	put(b, at, (uint64_t)cls << 56 | (uint64_t)width << 48 | (uint64_t)(refin ? 1 : 0) << 47 |
		(uint64_t)(refout ? 1 : 0) << 46 | (uint64_t)field_list << 16);
	put(b, at + 1, (uint64_t)poly << 32 | init);
	put(b, at + 2, xo);
}

int pisa_hwconf_build(const struct pisa_image *img, const struct pisa_hwconf_limits *lim,
		      struct pisa_hwconf *out, char *err, size_t errlen)
{
	struct build b = { .lim = lim, .err = err, .errlen = errlen };
	uint32_t hdr_base, stack_base, state_base, table_base, action_base, deparse_base;
	uint32_t csum_base, flist_base, hash_base, counter_base, register_base, digest_base;
	uint32_t meter_base;
	uint64_t mtr_next = 0;
	uint64_t row_next = 0, cnt_next = 0, reg_next = 0;
	unsigned i, k;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (img->nstacks > lim->stacks) {
		fail(&b, -PISA_E_RANGE, "the program has %u header stacks, the core %u", img->nstacks,
		     lim->stacks);
		goto done;
	}
	if (img->phv_bytes > lim->phv_bytes) {
		fail(&b, -PISA_E_RANGE, "the PHV has %u bytes, the core %u", img->phv_bytes,
		     lim->phv_bytes);
		goto done;
	}
	for (i = 0; i < img->nheaders; i++)
		if (img->headers[i].fixed_bytes != img->headers[i].bytes) {
			fail(&b, -PISA_E_INVAL, "header %u is a varbit header, which the RTL core "
			     "does not implement yet", i);
			goto done;
		}
	alloc_words(&b, HDR_WORDS);
	hdr_base = alloc_words(&b, img->nheaders);
	stack_base = alloc_words(&b, img->nstacks);
	state_base = alloc_words(&b, 2 * img->nstates);
	table_base = alloc_words(&b, 5 * img->ntables);
	action_base = alloc_words(&b, img->nactions);
	deparse_base = alloc_words(&b, img->ndeparse);
	csum_base = alloc_words(&b, 6 * img->nchecksums);
	flist_base = alloc_words(&b, img->nfield_lists);
	hash_base = alloc_words(&b, 3 * img->nhash_units);
	counter_base = alloc_words(&b, img->ncounters);
	register_base = alloc_words(&b, img->nregisters);
	digest_base = alloc_words(&b, img->ndigests);
	meter_base = alloc_words(&b, img->nmeters);
	if (b.rc)
		goto done;

	put(&b, 0, PISA_HWCONF_MAGIC);
	put(&b, 1, (uint64_t)img->nheaders << 48 | (uint64_t)img->nstates << 32 |
		(uint64_t)img->ntables << 16 | img->phv_bytes);
	put(&b, 2, (uint64_t)img->parser_start << 48 | (uint64_t)img->ingress_start << 32 |
		(uint64_t)img->egress_start << 16 | img->ndeparse);
	put(&b, 3, (uint64_t)img->nchecksums << 48 | (uint64_t)img->nstacks << 32 |
		(uint64_t)img->nactions << 16 | img->ncounters);
	put(&b, 4, (uint64_t)hdr_base << 48 | (uint64_t)state_base << 32 |
		(uint64_t)table_base << 16 | action_base);
	put(&b, 5, (uint64_t)deparse_base << 48 | (uint64_t)csum_base << 32 |
		(uint64_t)flist_base << 16 | hash_base);
	put(&b, 6, (uint64_t)counter_base << 48 | (uint64_t)register_base << 32 |
		(uint64_t)stack_base << 16 | img->nregisters);

	for (i = 0; i < img->nheaders; i++)
		put(&b, hdr_base + i, (uint64_t)img->headers[i].phv_byte << 48 |
			(uint64_t)img->headers[i].bytes << 32);
	for (i = 0; i < img->nstacks; i++)
		put(&b, stack_base + i, (uint64_t)img->stacks[i].first_header << 48 |
			(uint64_t)img->stacks[i].size << 32);

	for (i = 0; i < img->nstates && !b.rc; i++) {
		const struct pisa_parser_state *s = &img->states[i];
		uint32_t ops = put_insns(&b, s->ops, s->nops, "parser state", i);
		uint32_t keys = alloc_words(&b, 2 * s->nkey);
		uint32_t rows = alloc_words(&b, 3 * s->nrows);

		put(&b, state_base + 2 * i, (uint64_t)ops << 48 | (uint64_t)s->nops << 32 |
			(uint64_t)rows << 16 | s->nrows);
		put(&b, state_base + 2 * i + 1, (uint64_t)s->nkey << 56 | (uint64_t)keys << 40);
		for (k = 0; k < s->nkey; k++) {
			put(&b, keys + 2 * k, opnd_desc(&s->key[k]));
			put(&b, keys + 2 * k + 1, s->key[k].value);
		}
		for (k = 0; k < s->nrows; k++) {
			put(&b, rows + 3 * k, s->rows[k].value);
			put(&b, rows + 3 * k + 1, s->rows[k].mask);
			put(&b, rows + 3 * k + 2, (uint64_t)s->rows[k].next << 16 | s->rows[k].error);
		}
	}

	for (i = 0; i < img->ntables && !b.rc; i++) {
		const struct pisa_table *t = &img->tables[i];
		uint32_t rb = (uint32_t)pisa_row_bytes(t), keys, acts, defrow;
		uint32_t kb = (uint32_t)pisa_row_key_bytes(t);
		uint32_t mb = (uint32_t)pisa_row_match_bytes(t);
		uint32_t db = (uint32_t)pisa_row_adata_bytes(t);
		uint64_t need = (uint64_t)(t->rows + 1) * rb;

		if (t->key_bits > lim->key_bits) {
			fail(&b, -PISA_E_RANGE, "table %u has a %u-bit key, the core takes %u bits",
			     i, t->key_bits, lim->key_bits);
			break;
		}
		if (row_next + need > lim->row_bytes) {
			fail(&b, -PISA_E_RANGE, "the tables need more than the core's %u bytes of "
			     "row memory (table %u)", lim->row_bytes, i);
			break;
		}
		keys = alloc_words(&b, t->nkeys);
		acts = alloc_words(&b, t->nactions);
		defrow = alloc_words(&b, (rb + 7) / 8);
		{
			/* the initial default row (pisa-model's write_default_row): the core
			 * writes it when the image starts and on RESET */
			uint8_t row[8 * 256] = { 0 };
			uint32_t n = t->default_adata_len < db ? t->default_adata_len : db;

			if (rb > sizeof(row)) {
				fail(&b, -PISA_E_RANGE, "table %u has %u-byte rows, the core takes %zu",
				     i, rb, sizeof(row));
				break;
			}
			row[0] = PISA_ROW_VALID;
			row[1] = (uint8_t)(t->default_action >> 8);
			row[2] = (uint8_t)t->default_action;
			if (n && t->default_adata)
				memcpy(row + PISA_ROW_HDR + mb, t->default_adata, n);
			for (k = 0; k < (rb + 7) / 8; k++) {
				uint64_t wv = 0;
				unsigned j;

				for (j = 0; j < 8; j++)
					wv = wv << 8 | row[8 * k + j];
				put(&b, defrow + k, wv);
			}
		}
		put(&b, table_base + 5 * i, (uint64_t)(t->gress & 1) << 63 |
			(uint64_t)(t->mem & 3) << 61 | (uint64_t)(t->next_mode & 3) << 59 |
			(uint64_t)(t->ways & 7) << 56 | (uint64_t)t->way_bits << 48 |
			(uint64_t)t->key_bits << 32 | (uint64_t)(t->nkeys & 0xFF) << 24 |
			(uint64_t)(t->nactions & 0xFF) << 16 | kb);
		put(&b, table_base + 5 * i + 1, (uint64_t)t->rows << 32 | (uint32_t)row_next);
		put(&b, table_base + 5 * i + 2, (uint64_t)rb << 48 | (uint64_t)mb << 32 |
			(uint64_t)db << 16 | (uint16_t)t->direct_counter);
		put(&b, table_base + 5 * i + 3, (uint64_t)t->next_hit << 48 |
			(uint64_t)t->next_miss << 32 | field_desc(t->cond));
		put(&b, table_base + 5 * i + 4, (uint64_t)keys << 48 | (uint64_t)acts << 32 |
			(uint64_t)defrow << 16);
		if (t->nkeys > 0xFF || t->nactions > 0xFF) {
			fail(&b, -PISA_E_RANGE, "table %u has more than 255 keys or actions", i);
			break;
		}
		for (k = 0; k < t->nkeys; k++)
			put(&b, keys + k, (uint64_t)t->keys[k].match << 56 |
				field_desc(t->keys[k].field));
		for (k = 0; k < t->nactions; k++)
			put(&b, acts + k, (uint64_t)t->actions[k].action << 48 |
				(uint64_t)t->actions[k].next << 32 |
				(uint64_t)t->actions[k].flags << 24);
		row_next += need;
	}

	for (i = 0; i < img->nactions && !b.rc; i++) {
		uint32_t at = put_insns(&b, img->actions[i].insns, img->actions[i].ninsns,
					"action", i);

		put(&b, action_base + i, (uint64_t)at << 48 | (uint64_t)img->actions[i].ninsns << 32);
	}
	for (i = 0; i < img->ndeparse; i++)
		put(&b, deparse_base + i, (uint64_t)img->deparse[i] << 48);
	for (i = 0; i < img->nchecksums && !b.rc; i++) {
		const struct pisa_checksum *c = &img->checksums[i];
		uint32_t at = csum_base + 6 * i;

		put(&b, at, (uint64_t)(c->kind == PISA_CSUM_UPDATE) << 63 |
			(uint64_t)(c->with_payload ? 1 : 0) << 62 | field_desc(c->dst));
		put(&b, at + 1, (uint64_t)opnd_desc(&c->cond) << 32 | (uint64_t)c->field_list << 16);
		put(&b, at + 2, c->cond.value);
		put_hash(&b, at + 3, c->algo, c->field_list, NULL);
	}
	for (i = 0; i < img->nfield_lists && !b.rc; i++) {
		const struct pisa_field_list *l = &img->field_lists[i];
		uint32_t at = b.n, n = put_joined_fields(&b, l);

		put(&b, flist_base + i, (uint64_t)at << 48 | (uint64_t)n << 32);
	}
	for (i = 0; i < img->nhash_units && !b.rc; i++)
		put_hash(&b, hash_base + 3 * i, img->hash_units[i].algo, img->hash_units[i].field_list,
			 &img->hash_units[i]);
	for (i = 0; i < img->ncounters && !b.rc; i++) {
		const struct pisa_counter *c = &img->counters[i];

		if (cnt_next + c->size > lim->counter_cells) {
			fail(&b, -PISA_E_RANGE, "the counters need more than the core's %u cells",
			     lim->counter_cells);
			break;
		}
		put(&b, counter_base + i, (uint64_t)(c->kind & 3) << 62 | cnt_next << 32 | c->size);
		cnt_next += c->size;
	}
	for (i = 0; i < img->nregisters && !b.rc; i++) {
		const struct pisa_register *r = &img->registers[i];

		if (reg_next + r->size > lim->register_cells) {
			fail(&b, -PISA_E_RANGE, "the registers need more than the core's %u cells",
			     lim->register_cells);
			break;
		}
		put(&b, register_base + i, (uint64_t)r->width << 56 | reg_next << 32 | r->size);
		reg_next += r->size;
	}
	/* what the core empties when the image is loaded */
	put(&b, 7, (uint64_t)img->nhash_units << 48 | (uint64_t)img->nfield_lists << 32 |
		(uint32_t)row_next);
	put(&b, 8, cnt_next << 32 | reg_next);
	for (i = 0; i < img->nmeters && !b.rc; i++) {
		const struct pisa_meter *mt = &img->meters[i];

		if (mtr_next + mt->size > lim->meter_cells) {
			fail(&b, -PISA_E_RANGE, "the meters need more than the core's %u cells",
			     lim->meter_cells);
			break;
		}
		put(&b, meter_base + i, (uint64_t)(mt->kind & 3) << 62 | mtr_next << 32 | mt->size);
		mtr_next += mt->size;
	}
	put(&b, 9, (uint64_t)digest_base << 48 | (uint64_t)img->ndigests << 32 |
		(uint64_t)meter_base << 16 | img->nmeters);
	for (i = 0; i < img->ndigests; i++)
		put(&b, digest_base + i, (uint64_t)img->digests[i].field_list << 48);
done:
	if (b.rc) {
		free(b.w);
		return b.rc;
	}
	out->words = b.w;
	out->nwords = b.n;
	out->row_bytes = (uint32_t)row_next;
	return 0;
}

void pisa_hwconf_free(struct pisa_hwconf *hc)
{
	free(hc->words);
	memset(hc, 0, sizeof(*hc));
}
