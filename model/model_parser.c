/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_parser.c: the parser engine, the checksum units and the deparser
 * (docs/architecture.md, "The parser engine", "Checksum units", "Deparser").
 */
#include <string.h>

#include "model_int.h"

size_t model_hdr_len(const struct pisa_model *m, const uint16_t *vlen, unsigned h)
{
	const struct pisa_header *hd = &m->img->headers[h];

	if (vlen && m->var_slot[h] >= 0)
		return vlen[m->var_slot[h]];
	return hd->bytes;
}

static uint64_t key_bits(const struct exec_ctx *c, const struct pisa_operand *o,
			 const struct pisa_model *m)
{
	size_t bit;
	uint8_t tmp[9];
	size_t first, i;

	if (o->width == 0 || o->width > 64)
		return 0;
	if (o->kind == PISA_OPND_PHV)
		return model_get(m, c->phv, (struct pisa_field){ o->off, o->width });
	if (o->kind == PISA_OPND_CONST)
		return o->value & model_mask(o->width);
	if (o->kind != PISA_OPND_PKT)
		return 0;
	bit = c->cursor * 8 + o->off;
	if (bit + o->width <= c->pkt_len * 8)
		return pisa_bits_get(c->pkt, bit, o->width);
	/* lookahead past the end reads zero bits */
	first = bit / 8;
	for (i = 0; i < sizeof(tmp); i++)
		tmp[i] = first + i < c->pkt_len ? c->pkt[first + i] : 0;
	return pisa_bits_get(tmp, bit % 8, o->width);
}

/* Runs the parser over pkt; the PHV holds the pass's initial state. Returns
 * the parser error (0 = none) and the final cursor. */
int model_parse(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, const uint8_t *pkt,
		size_t len, size_t *cursor)
{
	const struct pisa_image *img = m->img;
	struct exec_ctx c = {
		.phv = phv, .vlen = vlen, .pkt = pkt, .pkt_len = len, .parser = 1,
		.table = -1, .hit_row = MODEL_NO_ROW,
	};
	unsigned state = img->parser_start, steps = 0, i;
	int err = PISA_ERROR_NO_ERROR;
	char nb[64];

	if (img->nstacks)
		memset(m->stack_next, 0, img->nstacks * sizeof(*m->stack_next));
	for (;;) {
		const struct pisa_parser_state *s;
		uint64_t key = 0;
		unsigned kw = 0;
		int r;

		if (state == PISA_PARSER_ACCEPT)
			break;
		if (state >= img->nstates) {
			err = PISA_ERROR_NO_MATCH;
			break;
		}
		if (++steps > PISA_PARSER_MAX_STEPS) {
			err = PISA_ERROR_PARSER_TIMEOUT;
			break;
		}
		s = &img->states[state];
		if (m->trace)
			model_trace(m, "  parser: state %u at byte %zu", state, c.cursor);
		r = model_exec(m, &c, s->ops, s->nops);
		if (r >= EXEC_PERR) {
			err = r - EXEC_PERR;
			break;
		}
		for (i = 0; i < s->nkey && i < PISA_PARSER_MAX_KEY; i++) {
			unsigned w = s->key[i].width > 64 ? 64 : s->key[i].width;

			key = (w >= 64 ? 0 : key << w) | key_bits(&c, &s->key[i], m);
			kw += w;
		}
		if (kw > 64)
			kw = 64;
		for (i = 0; i < s->nrows; i++)
			if ((key & s->rows[i].mask) == (s->rows[i].value & s->rows[i].mask))
				break;
		if (i == s->nrows) {
			err = PISA_ERROR_NO_MATCH;
			break;
		}
		state = s->rows[i].next;
		if (m->trace) {
			char kb[40] = "";

			if (kw)
				snprintf(kb, sizeof(kb), "select 0x%0*llx ", (int)(kw + 3) / 4,
					 (unsigned long long)key);
			if (state == PISA_PARSER_REJECT)
				model_trace(m, "  parser: %s-> reject (%s)", kb,
					    model_error_name(m, s->rows[i].error, nb, sizeof(nb)));
			else if (state == PISA_PARSER_ACCEPT)
				model_trace(m, "  parser: %s-> accept", kb);
			else
				model_trace(m, "  parser: %s-> state %u", kb, state);
		}
		if (state == PISA_PARSER_REJECT) {
			/* a reject with NoError is still a reject */
			err = s->rows[i].error;
			break;
		}
	}
	if (err != PISA_ERROR_NO_ERROR) {
		model_set(m, phv, PISA_SM_PARSER_ERROR, (uint64_t)err);
		m->st.parser_errors++;
		if (m->trace)
			model_trace(m, "  parser: error %s at byte %zu, going on to ingress",
				    model_error_name(m, (unsigned)err, nb, sizeof(nb)), c.cursor);
	}
	*cursor = c.cursor;
	return err;
}

/* Result of checksum unit u over its field list (and payload). */
static uint64_t csum_compute(struct pisa_model *m, const struct pisa_checksum *u,
			     const uint8_t *phv, const uint8_t *payload, size_t plen)
{
	struct pisa_hash_unit hu;
	size_t nbits;

	memset(&hu, 0, sizeof(hu));
	hu.algo = u->algo;
	hu.field_list = u->field_list;
	if (u->algo == PISA_HASH_RANDOM)
		return model_rng_step(m);
	nbits = model_flist_bytes(m, phv, u->field_list, m->scratch);
	if (u->with_payload && plen) {
		nbits = (nbits + 7) / 8 * 8;
		memcpy(m->scratch + nbits / 8, payload, plen);
		nbits += plen * 8;
	}
	return pisa_hash_compute(&hu, m->scratch, nbits);
}

static int csum_cond(const struct pisa_model *m, const struct pisa_checksum *u,
		     const uint8_t *phv)
{
	if (u->cond.kind == PISA_OPND_CONST)
		return (u->cond.value & model_mask(u->cond.width)) != 0;
	if (u->cond.kind == PISA_OPND_PHV)
		return model_get(m, phv, (struct pisa_field){ u->cond.off, u->cond.width }) != 0;
	return 0;
}

void model_csum_verify(struct pisa_model *m, uint8_t *phv, const uint8_t *payload, size_t plen)
{
	unsigned i;

	for (i = 0; i < m->img->nchecksums; i++) {
		const struct pisa_checksum *u = &m->img->checksums[i];
		uint64_t v;

		if (u->kind != PISA_CSUM_VERIFY || !csum_cond(m, u, phv))
			continue;
		v = csum_compute(m, u, phv, payload, plen) & model_mask(u->dst.width);
		if (v != model_get(m, phv, u->dst)) {
			model_set(m, phv, PISA_SM_CHECKSUM_ERROR, 1);
			if (m->trace)
				model_trace(m, "  checksum: unit %u failed: computed 0x%llx, packet 0x%llx",
					    i, (unsigned long long)v,
					    (unsigned long long)model_get(m, phv, u->dst));
		}
	}
}

void model_csum_update(struct pisa_model *m, uint8_t *phv, const uint8_t *payload, size_t plen)
{
	unsigned i;

	for (i = 0; i < m->img->nchecksums; i++) {
		const struct pisa_checksum *u = &m->img->checksums[i];
		uint64_t v;

		if (u->kind != PISA_CSUM_UPDATE || !csum_cond(m, u, phv))
			continue;
		v = csum_compute(m, u, phv, payload, plen);
		model_set(m, phv, u->dst, v);
		if (m->trace)
			model_trace(m, "  checksum: unit %u wrote 0x%llx", i,
				    (unsigned long long)(v & model_mask(u->dst.width)));
	}
}

/* Emits the valid headers in deparse order, then the payload. out holds at
 * least phv_bytes + plen bytes. */
size_t model_deparse(struct pisa_model *m, const uint8_t *phv, const uint16_t *vlen,
		     const uint8_t *payload, size_t plen, uint8_t *out)
{
	const struct pisa_image *img = m->img;
	size_t n = 0;
	unsigned i;

	for (i = 0; i < img->ndeparse; i++) {
		unsigned h = img->deparse[i];
		const struct pisa_header *hd;
		size_t hl;

		if (!model_hdr_valid(m, phv, h))
			continue;
		hd = &img->headers[h];
		hl = model_hdr_len(m, vlen, h);
		if ((size_t)hd->phv_byte + hl > m->phv_bytes || n + hl > m->phv_bytes * 2)
			continue;
		memcpy(out + n, phv + hd->phv_byte, hl);
		n += hl;
	}
	if (plen)
		memcpy(out + n, payload, plen);
	return n + plen;
}
