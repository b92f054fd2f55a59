/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_exec.c: the instruction engine shared by parser states, actions and
 * gateways (docs/architecture.md, "Instructions" and "Action instruction
 * externs").
 */
#include <string.h>

#include "model_int.h"

uint32_t model_rng_step(struct pisa_model *m)
{
	uint32_t x = m->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	m->rng = x;
	return x;
}

/* Appends the w (<= 56) low bits of v; fewer than 8 bits stay in acc. */
static inline void acc_put(uint64_t *acc, unsigned *nacc, uint8_t *buf, size_t *o, uint64_t v,
			   unsigned w)
{
	*acc = *acc << w | v;
	*nacc += w;
	while (*nacc >= 8) {
		*nacc -= 8;
		buf[(*o)++] = (uint8_t)(*acc >> *nacc);
	}
	*acc &= model_mask(*nacc);
}

size_t model_flist_bytes(const struct pisa_model *m, const uint8_t *phv, unsigned fl,
			 uint8_t *buf)
{
	const struct fl_runs *fr;
	uint64_t acc = 0;
	unsigned nacc = 0, i;
	size_t pos = 0, o = 0;

	if (fl >= m->img->nfield_lists)
		return 0;
	fr = &m->fl[fl];
	if (fr->aligned) {
		for (i = 0; i < fr->n; i++) {
			const struct fl_run *r = &fr->r[i];

			if (r->zero)
				memset(buf + pos / 8, 0, r->nbits / 8);
			else
				memcpy(buf + pos / 8, phv + r->bit / 8, r->nbits / 8);
			pos += r->nbits;
		}
		return pos;
	}
	/* bit runs: gather through an accumulator, emit whole bytes */
	for (i = 0; i < fr->n; i++) {
		const struct fl_run *r = &fr->r[i];
		uint32_t done;

		for (done = 0; done < r->nbits; ) {
			unsigned w = r->nbits - done > 56 ? 56 : r->nbits - done;

			acc_put(&acc, &nacc, buf, &o, r->zero ? 0 : model_bits(phv, r->bit + done, w), w);
			done += w;
		}
		pos += r->nbits;
	}
	if (nacc)
		buf[o] = (uint8_t)(acc << (8 - nacc));
	return pos;
}

/* Bits of a byte string that may end early: missing bits read as zero. */
static uint64_t bits_or_zero(const uint8_t *p, size_t len, size_t bitoff, unsigned w)
{
	uint8_t tmp[9];
	size_t first = bitoff / 8, i;

	if (w == 0 || w > 64)
		return 0;
	if (bitoff + w <= len * 8)
		return model_bits(p, bitoff, w);
	for (i = 0; i < sizeof(tmp); i++)
		tmp[i] = first + i < len ? p[first + i] : 0;
	return pisa_bits_get(tmp, bitoff % 8, w);
}

static uint64_t rd(const struct pisa_model *m, const struct exec_ctx *c,
		   const struct pisa_operand *o)
{
	switch (o->kind) {
	case PISA_OPND_PHV:
		return model_get(m, c->phv, (struct pisa_field){ o->off, o->width });
	case PISA_OPND_CONST:
		return o->value & model_mask(o->width);
	case PISA_OPND_ADATA:
		return c->adata ? bits_or_zero(c->adata, c->db, o->off, o->width) : 0;
	case PISA_OPND_PKT:
		if (!c->parser)
			return 0;
		return bits_or_zero(c->pkt, c->pkt_len, c->cursor * 8 + o->off, o->width);
	default:
		return 0;
	}
}

static uint64_t sext(uint64_t v, unsigned w)
{
	if (w == 0 || w >= 64)
		return v;
	if (v >> (w - 1) & 1)
		v |= ~model_mask(w);
	return v;
}

static unsigned opnd_width(const struct pisa_operand *o)
{
	return o->width > 64 ? 64 : o->width;
}

static void wr(const struct pisa_model *m, struct exec_ctx *c, const struct pisa_operand *o,
	       uint64_t v)
{
	if (o->kind == PISA_OPND_PHV)
		model_set(m, c->phv, (struct pisa_field){ o->off, o->width }, v);
}

__extension__ typedef __int128 i128;

/* Saturating add/sub at width w (1..64). */
static uint64_t sat(i128 r, unsigned w, int sgn)
{
	i128 lo, hi;

	if (sgn) {
		lo = -((i128)1 << (w - 1));
		hi = ((i128)1 << (w - 1)) - 1;
	} else {
		lo = 0;
		hi = ((i128)1 << w) - 1;
	}
	if (r < lo)
		r = lo;
	if (r > hi)
		r = hi;
	return (uint64_t)r;
}

static int cmp(uint64_t a, uint64_t b, int sgn)
{
	if (sgn)
		return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
	return a < b ? -1 : a > b;
}

void model_hdr_set_valid(struct pisa_model *m, uint8_t *phv, unsigned h, int valid)
{
	size_t b = PISA_VALID_BIT(h);

	if (h >= m->img->nheaders || b / 8 >= m->phv_bytes)
		return;
	if (valid)
		phv[b / 8] |= (uint8_t)(0x80 >> (b % 8));
	else
		phv[b / 8] &= (uint8_t)~(0x80 >> (b % 8));
}

static void copy_hdr(struct pisa_model *m, struct exec_ctx *c, unsigned dst, unsigned src)
{
	const struct pisa_header *hd, *hs;
	size_t n;

	if (dst >= m->img->nheaders || src >= m->img->nheaders || dst == src)
		return;
	hd = &m->img->headers[dst];
	hs = &m->img->headers[src];
	n = hd->bytes < hs->bytes ? hd->bytes : hs->bytes;
	if ((size_t)hd->phv_byte + n <= m->phv_bytes && (size_t)hs->phv_byte + n <= m->phv_bytes)
		memmove(c->phv + hd->phv_byte, c->phv + hs->phv_byte, n);
	model_hdr_set_valid(m, c->phv, dst, model_hdr_valid(m, c->phv, src));
	if (c->vlen && m->var_slot[dst] >= 0) {
		size_t l = model_hdr_len(m, c->vlen, src);

		c->vlen[m->var_slot[dst]] = (uint16_t)(l < hd->bytes ? l : hd->bytes);
	}
}

static void digest(struct pisa_model *m, struct exec_ctx *c, unsigned id)
{
	size_t nbits;
	char nb[64];

	if (id >= m->img->ndigests)
		return;
	nbits = model_flist_bytes(m, c->phv, m->img->digests[id].field_list, m->scratch);
	m->st.digests++;
	if (m->trace) {
		const char *name = m->img->rt_digests && m->img->rt_digests[id].name ?
			m->img->rt_digests[id].name : NULL;

		if (!name) {
			snprintf(nb, sizeof(nb), "digest %u", id);
			name = nb;
		}
		model_trace(m, "  digest %s: %zu bytes to the CPU", name, (nbits + 7) / 8);
	}
	if (m->digest_fn)
		m->digest_fn(m->digest_arg, (uint16_t)id, m->scratch, (nbits + 7) / 8);
}

static uint64_t hash_insn(struct pisa_model *m, struct exec_ctx *c, unsigned id)
{
	const struct pisa_hash_unit *u;
	size_t nbits;

	if (id >= m->img->nhash_units)
		return 0;
	u = &m->img->hash_units[id];
	if (u->algo == PISA_HASH_RANDOM)
		return model_rng_step(m);
	nbits = model_flist_bytes(m, c->phv, u->field_list, m->scratch);
	return pisa_hash_compute(u, m->scratch, nbits);
}

/* Parser-only extraction into header h of n bytes at the cursor. */
static int extract(struct pisa_model *m, struct exec_ctx *c, unsigned h, size_t n)
{
	const struct pisa_header *hd = &m->img->headers[h];
	char hb[64];

	if (n > c->pkt_len || c->cursor > c->pkt_len - n)
		return EXEC_PERR + PISA_ERROR_PACKET_TOO_SHORT;
	if ((size_t)hd->phv_byte + hd->bytes <= m->phv_bytes) {
		memcpy(c->phv + hd->phv_byte, c->pkt + c->cursor, n);
		memset(c->phv + hd->phv_byte + n, 0, hd->bytes - n);
	}
	model_hdr_set_valid(m, c->phv, h, 1);
	if (c->vlen && m->var_slot[h] >= 0)
		c->vlen[m->var_slot[h]] = (uint16_t)n;
	if (m->trace)
		model_trace(m, "  parser: extract %s, %zu bytes at offset %zu",
			    model_header_name(m, h, hb, sizeof(hb)), n, c->cursor);
	c->cursor += n;
	return EXEC_OK;
}

static int parser_op(struct pisa_model *m, struct exec_ctx *c, const struct pisa_insn *in)
{
	const struct pisa_image *img = m->img;
	const struct pisa_header *hd;
	uint64_t a;

	switch (in->op) {
	case PISA_EXTRACT:
		if (in->imm >= img->nheaders)
			return EXEC_PERR + PISA_ERROR_PARSER_INVALID_ARGUMENT;
		return extract(m, c, in->imm, img->headers[in->imm].bytes);
	case PISA_EXTRACT_STACK: {
		const struct pisa_stack *s;
		unsigned h;

		if (in->imm >= img->nstacks)
			return EXEC_PERR + PISA_ERROR_PARSER_INVALID_ARGUMENT;
		s = &img->stacks[in->imm];
		if (m->stack_next[in->imm] >= s->size)
			return EXEC_PERR + PISA_ERROR_STACK_OUT_OF_BOUNDS;
		h = s->first_header + m->stack_next[in->imm];
		if (h >= img->nheaders)
			return EXEC_PERR + PISA_ERROR_PARSER_INVALID_ARGUMENT;
		{
			int r = extract(m, c, h, img->headers[h].bytes);

			if (r == EXEC_OK)
				m->stack_next[in->imm]++;
			return r;
		}
	}
	case PISA_EXTRACT_VAR:
		if (in->imm >= img->nheaders)
			return EXEC_PERR + PISA_ERROR_PARSER_INVALID_ARGUMENT;
		hd = &img->headers[in->imm];
		a = rd(m, c, &in->a);
		if (a % 8 || a / 8 > hd->bytes || hd->fixed_bytes + a / 8 > hd->bytes)
			return EXEC_PERR + PISA_ERROR_HEADER_TOO_SHORT;
		return extract(m, c, in->imm, hd->fixed_bytes + (size_t)(a / 8));
	case PISA_ADVANCE:
		a = rd(m, c, &in->a);
		if (a % 8)
			return EXEC_PERR + PISA_ERROR_PARSER_INVALID_ARGUMENT;
		if (a / 8 > c->pkt_len - c->cursor)
			return EXEC_PERR + PISA_ERROR_PACKET_TOO_SHORT;
		c->cursor += (size_t)(a / 8);
		return EXEC_OK;
	}
	return EXEC_OK;
}

int model_exec(struct pisa_model *m, struct exec_ctx *c, const struct pisa_insn *insns,
	       unsigned n)
{
	unsigned i;

	c->carry = 0;
	for (i = 0; i < n; i++) {
		const struct pisa_insn *in = &insns[i];
		int sgn = in->flags & PISA_INSN_SIGNED;
		unsigned w = opnd_width(&in->dst);
		uint64_t a, b, r, mk = model_mask(w);
		i128 s;

		if (in->op >= PISA_EXTRACT) {
			int e;

			if (!c->parser)
				continue;
			e = parser_op(m, c, in);
			if (e != EXEC_OK)
				return e;
			continue;
		}
		a = rd(m, c, &in->a);
		b = rd(m, c, &in->b);
		if (sgn) {
			a = sext(a, opnd_width(&in->a));
			b = sext(b, opnd_width(&in->b));
		}
		switch (in->op) {
		case PISA_NOP:
			break;
		case PISA_SET:
			wr(m, c, &in->dst, a);
			break;
		case PISA_ADD:
		case PISA_ADDC: {
			uint64_t cin = in->op == PISA_ADDC ? (uint64_t)c->carry : 0;
			uint64_t am = a & mk, bm = b & mk;

			r = a + b + cin;
			if (w >= 64)
				c->carry = am + bm < am || am + bm + cin < am + bm;
			else
				c->carry = am + bm + cin > mk;
			wr(m, c, &in->dst, r);
			break;
		}
		case PISA_SUB:
		case PISA_SUBC: {
			uint64_t bin = in->op == PISA_SUBC ? (uint64_t)c->carry : 0;
			uint64_t am = a & mk, bm = b & mk;

			r = a - b - bin;
			c->carry = am < bm || (am == bm && bin);
			wr(m, c, &in->dst, r);
			break;
		}
		case PISA_ADDSAT:
		case PISA_SUBSAT:
			if (w == 0)
				break;
			if (sgn)
				s = (i128)(int64_t)a;
			else
				s = (i128)a;
			if (in->op == PISA_ADDSAT)
				s += sgn ? (i128)(int64_t)b : (i128)b;
			else
				s -= sgn ? (i128)(int64_t)b : (i128)b;
			wr(m, c, &in->dst, sat(s, w, sgn));
			break;
		case PISA_MUL:
			wr(m, c, &in->dst, a * b);
			break;
		case PISA_AND:
			wr(m, c, &in->dst, a & b);
			break;
		case PISA_OR:
			wr(m, c, &in->dst, a | b);
			break;
		case PISA_XOR:
			wr(m, c, &in->dst, a ^ b);
			break;
		case PISA_NOT:
			wr(m, c, &in->dst, ~a);
			break;
		case PISA_SHL:
			wr(m, c, &in->dst, b >= w ? 0 : a << b);
			break;
		case PISA_SHR:
			if (sgn)
				r = b >= w ? (uint64_t)((int64_t)a >> 63) : (uint64_t)((int64_t)a >> b);
			else
				r = b >= w ? 0 : a >> b;
			wr(m, c, &in->dst, r);
			break;
		case PISA_EQ:
			wr(m, c, &in->dst, a == b);
			break;
		case PISA_NE:
			wr(m, c, &in->dst, a != b);
			break;
		case PISA_LT:
			wr(m, c, &in->dst, cmp(a, b, sgn) < 0);
			break;
		case PISA_LE:
			wr(m, c, &in->dst, cmp(a, b, sgn) <= 0);
			break;
		case PISA_GT:
			wr(m, c, &in->dst, cmp(a, b, sgn) > 0);
			break;
		case PISA_GE:
			wr(m, c, &in->dst, cmp(a, b, sgn) >= 0);
			break;
		case PISA_MIN:
			wr(m, c, &in->dst, cmp(a, b, sgn) <= 0 ? a : b);
			break;
		case PISA_MAX:
			wr(m, c, &in->dst, cmp(a, b, sgn) >= 0 ? a : b);
			break;
		case PISA_JZ:
			if (a == 0)
				i += in->imm;
			break;
		case PISA_JNZ:
			if (a != 0)
				i += in->imm;
			break;
		case PISA_SETVALID:
		case PISA_SETINVALID:
			model_hdr_set_valid(m, c->phv, in->imm, in->op == PISA_SETVALID);
			break;
		case PISA_COPYHDR:
			copy_hdr(m, c, in->imm, (unsigned)in->a.value);
			break;
		case PISA_EXIT:
			return EXEC_EXIT;
		case PISA_COUNT:
			model_count(m, in->imm, a, model_get(m, c->phv, PISA_SM_PACKET_LENGTH));
			break;
		case PISA_REG_READ:
			r = 0;
			if (in->imm < m->img->nregisters && a < m->img->registers[in->imm].size)
				r = m->regs[in->imm][a];
			wr(m, c, &in->dst, r);
			break;
		case PISA_REG_WRITE:
			if (in->imm < m->img->nregisters && a < m->img->registers[in->imm].size)
				m->regs[in->imm][a] = b & model_mask(m->img->registers[in->imm].width);
			break;
		case PISA_METER:
			wr(m, c, &in->dst, model_meter_exec(m, in->imm, a,
				model_get(m, c->phv, PISA_SM_PACKET_LENGTH)));
			break;
		case PISA_DMETER:
			r = PISA_GREEN;
			if (c->hit_row != MODEL_NO_ROW)
				r = model_meter_exec(m, in->imm, c->hit_row,
					model_get(m, c->phv, PISA_SM_PACKET_LENGTH));
			wr(m, c, &in->dst, r);
			break;
		case PISA_HASH:
			r = hash_insn(m, c, in->imm);
			wr(m, c, &in->dst, a + (b ? r % b : r));
			break;
		case PISA_RANDOM: {
			uint64_t x = model_rng_step(m), range = b - a + 1;

			if (cmp(b, a, sgn) < 0)
				r = a;
			else
				r = range ? a + x % range : a + x;
			wr(m, c, &in->dst, r);
			break;
		}
		case PISA_CLONE:
			model_set(m, c->phv, PISA_IM_CLONE_TYPE, in->imm);
			model_set(m, c->phv, PISA_IM_CLONE_SESSION, a);
			model_set(m, c->phv, PISA_IM_CLONE_FLIST, in->b.value);
			break;
		case PISA_RESUBMIT:
			model_set(m, c->phv, PISA_IM_RESUBMIT_FLIST, in->a.value);
			break;
		case PISA_RECIRCULATE:
			model_set(m, c->phv, PISA_IM_RECIRC_FLIST, in->a.value);
			break;
		case PISA_TRUNCATE:
			model_set(m, c->phv, PISA_IM_TRUNCATE_LEN, a > 0xFFFF ? 0xFFFF : a);
			break;
		case PISA_DIGEST:
			digest(m, c, in->imm);
			break;
		case PISA_DROP:
			model_set(m, c->phv, PISA_SM_EGRESS_SPEC, PISA_PORT_DROP);
			model_set(m, c->phv, PISA_SM_MCAST_GRP, 0);
			break;
		default:
			break;
		}
	}
	return EXEC_OK;
}
