/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_model.c: the model's life cycle, its initial state (default rows,
 * const rows), stats, trace and names, and the entry point for packets.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static const char *const builtin_errors[] = {
	"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds",
	"HeaderTooShort", "ParserTimeout", "ParserInvalidArgument",
};

void model_trace(struct pisa_model *m, const char *fmt, ...)
{
	va_list ap;

	if (!m->trace)
		return;
	va_start(ap, fmt);
	vfprintf(m->trace, fmt, ap);
	va_end(ap);
	fputc('\n', m->trace);
}

const char *model_table_name(const struct pisa_model *m, unsigned t, char *buf, size_t n)
{
	if (m->img->rt_tables && t < m->img->ntables && m->img->rt_tables[t].name)
		return m->img->rt_tables[t].name;
	snprintf(buf, n, "table %u", t);
	return buf;
}

const char *model_action_name(const struct pisa_model *m, unsigned a, char *buf, size_t n)
{
	if (m->img->rt_actions && a < m->img->nactions && m->img->rt_actions[a].name)
		return m->img->rt_actions[a].name;
	snprintf(buf, n, "action %u", a);
	return buf;
}

const char *model_header_name(const struct pisa_model *m, unsigned h, char *buf, size_t n)
{
	if (m->img->rt_headers && h < m->img->nheaders && m->img->rt_headers[h])
		return m->img->rt_headers[h];
	snprintf(buf, n, "header %u", h);
	return buf;
}

const char *model_error_name(const struct pisa_model *m, unsigned e, char *buf, size_t n)
{
	if (m->img->rt_errors && e < m->img->nerrors && m->img->rt_errors[e])
		return m->img->rt_errors[e];
	if (e < sizeof(builtin_errors) / sizeof(builtin_errors[0]))
		return builtin_errors[e];
	snprintf(buf, n, "error %u", e);
	return buf;
}

/* ---- life cycle ---- */

static void *zalloc(size_t n, size_t sz)
{
	return calloc(n ? n : 1, sz);
}

static void write_default_row(struct pisa_model *m, unsigned t)
{
	const struct pisa_table *tb = &m->img->tables[t];
	struct mtable *mt = &m->tables[t];
	uint8_t *row = mt->mem + (size_t)mt->rows * mt->rb;
	unsigned i, n;

	memset(row, 0, mt->rb);
	row[0] = PISA_ROW_VALID;
	row[1] = (uint8_t)(tb->default_action >> 8);
	row[2] = (uint8_t)tb->default_action;
	n = tb->default_adata_len < mt->db ? tb->default_adata_len : mt->db;
	if (n && tb->default_adata)
		memcpy(row + PISA_ROW_HDR + mt->mb, tb->default_adata, n);
	mt->aidx[mt->rows] = MODEL_NO_ACTION;
	for (i = 0; i < tb->nactions; i++)
		if (tb->actions[i].action == tb->default_action) {
			mt->aidx[mt->rows] = (uint16_t)i;
			break;
		}
}

struct pisa_model *pisa_model_new(const struct pisa_image *img)
{
	struct pisa_model *m;
	size_t maxfl = 0, vbytes;
	unsigned i, j;

	if (!img)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->img = img;
	vbytes = PISA_PHV_FIXED_BYTES + (img->nheaders + 7) / 8;
	m->phv_bytes = img->phv_bytes > vbytes ? img->phv_bytes : vbytes;
	m->rng = 1;
	m->pkt_cap = PISA_MODEL_MAX_PACKET + 2 * m->phv_bytes;

	m->tables = zalloc(img->ntables, sizeof(*m->tables));
	m->cnt_pkts = zalloc(img->ncounters, sizeof(*m->cnt_pkts));
	m->cnt_bytes = zalloc(img->ncounters, sizeof(*m->cnt_bytes));
	m->regs = zalloc(img->nregisters, sizeof(*m->regs));
	m->meters = zalloc(img->nmeters, sizeof(*m->meters));
	m->mc = zalloc(img->mcast_groups, sizeof(*m->mc));
	m->clones = zalloc(img->clone_sessions, sizeof(*m->clones));
	m->var_slot = zalloc(img->nheaders, sizeof(*m->var_slot));
	m->hdr_mask = zalloc(m->phv_bytes, 1);
	m->stack_next = zalloc(img->nstacks, sizeof(*m->stack_next));
	m->outbuf = malloc(m->pkt_cap);
	if (!m->tables || !m->cnt_pkts || !m->cnt_bytes || !m->regs || !m->meters || !m->mc ||
	    !m->clones || !m->var_slot || !m->hdr_mask || !m->stack_next || !m->outbuf)
		goto fail;

	for (i = 0; i < img->ntables; i++) {
		if (model_table_init(m, i))
			goto fail;
		if (m->tables[i].kb > m->key_cap)
			m->key_cap = m->tables[i].kb;
		write_default_row(m, i);
	}
	m->key = zalloc(m->key_cap, 1);
	for (i = 0; i < img->ncounters; i++) {
		m->cnt_pkts[i] = zalloc(img->counters[i].size, sizeof(uint64_t));
		m->cnt_bytes[i] = zalloc(img->counters[i].size, sizeof(uint64_t));
		if (!m->cnt_pkts[i] || !m->cnt_bytes[i])
			goto fail;
	}
	for (i = 0; i < img->nregisters; i++)
		if (!(m->regs[i] = zalloc(img->registers[i].size, sizeof(uint64_t))))
			goto fail;
	for (i = 0; i < img->nmeters; i++)
		if (!(m->meters[i] = zalloc(img->meters[i].size, sizeof(struct meter_cell))))
			goto fail;
	m->fl = zalloc(img->nfield_lists, sizeof(*m->fl));
	if (!m->fl)
		goto fail;
	for (i = 0; i < img->nfield_lists; i++) {
		const struct pisa_field_list *l = &img->field_lists[i];
		struct fl_runs *fr = &m->fl[i];
		size_t bits = 0;

		fr->r = zalloc(l->nfields, sizeof(*fr->r));
		if (!fr->r)
			goto fail;
		fr->aligned = 1;
		for (j = 0; j < l->nfields; j++) {
			struct pisa_field f = l->fields[j];
			int out = (size_t)f.bitoff + f.width > m->phv_bytes * 8;
			struct fl_run *last = fr->n ? &fr->r[fr->n - 1] : NULL;

			if (f.width == 0 || f.width > 64)
				continue;
			bits += f.width;
			if (last && !out && !last->zero && last->bit + last->nbits == f.bitoff) {
				last->nbits += f.width;
				continue;
			}
			fr->r[fr->n++] = (struct fl_run){ f.bitoff, f.width, (uint8_t)out };
		}
		for (j = 0; j < fr->n; j++)
			if ((fr->r[j].bit | fr->r[j].nbits) & 7)
				fr->aligned = 0;
		if (bits > maxfl)
			maxfl = bits;
	}
	m->scratch = malloc((maxfl + 7) / 8 + 8 + m->pkt_cap);
	if (!m->key || !m->scratch)
		goto fail;

	/* headers, validity bits: what an E2E clone keeps; varbit headers */
	memset(m->hdr_mask + PISA_PHV_FIXED_BYTES, 0xFF, vbytes - PISA_PHV_FIXED_BYTES);
	for (i = 0; i < img->nheaders; i++) {
		const struct pisa_header *h = &img->headers[i];

		if ((size_t)h->phv_byte + h->bytes <= m->phv_bytes)
			memset(m->hdr_mask + h->phv_byte, 0xFF, h->bytes);
		m->var_slot[i] = -1;
		if (h->fixed_bytes < h->bytes)
			m->var_slot[i] = (int16_t)m->nvar++;
	}

	for (i = 0; i < img->nconst_rows; i++) {
		const struct pisa_const_row *cr = &img->const_rows[i];

		/* a bad const row is the image's fault: it is left out */
		model_write_row(m, cr->table, cr->index, cr->bytes, cr->len);
	}
	return m;
fail:
	pisa_model_free(m);
	return NULL;
}

void pisa_model_free(struct pisa_model *m)
{
	unsigned i;

	if (!m)
		return;
	if (m->tables)
		for (i = 0; i < m->img->ntables; i++)
			model_table_free(&m->tables[i]);
	for (i = 0; m->cnt_pkts && i < m->img->ncounters; i++)
		free(m->cnt_pkts[i]);
	for (i = 0; m->cnt_bytes && i < m->img->ncounters; i++)
		free(m->cnt_bytes[i]);
	for (i = 0; m->regs && i < m->img->nregisters; i++)
		free(m->regs[i]);
	for (i = 0; m->meters && i < m->img->nmeters; i++)
		free(m->meters[i]);
	for (i = 0; m->mc && i < m->img->mcast_groups; i++)
		free(m->mc[i].copies);
	model_tm_free(m);
	free(m->tables);
	free(m->cnt_pkts);
	free(m->cnt_bytes);
	free(m->regs);
	free(m->meters);
	free(m->mc);
	free(m->clones);
	free(m->var_slot);
	free(m->hdr_mask);
	free(m->stack_next);
	for (i = 0; m->fl && i < m->img->nfield_lists; i++)
		free(m->fl[i].r);
	free(m->fl);
	free(m->outbuf);
	free(m->scratch);
	free(m->key);
	free(m);
}

void pisa_model_set_digest_cb(struct pisa_model *m, pisa_model_digest_fn fn, void *arg)
{
	if (!m)
		return;
	m->digest_fn = fn;
	m->digest_arg = arg;
}

void pisa_model_set_trace(struct pisa_model *m, FILE *f)
{
	if (m)
		m->trace = f;
}

void pisa_model_get_stats(const struct pisa_model *m, struct pisa_model_stats *st)
{
	if (m && st)
		*st = m->st;
}

int pisa_model_inject(struct pisa_model *m, uint16_t port, const uint8_t *data, size_t len,
		      uint64_t time_us, pisa_model_out_fn out, void *arg)
{
	if (!m)
		return -PISA_E_INVAL;
	m->st.rx_packets++;
	if (port >= PISA_PORT_DROP) {
		m->st.bad_port++;
		model_trace(m, "packet in on port %u: no such port, dropped", port);
		return -PISA_E_RANGE;
	}
	if (len > PISA_MODEL_MAX_PACKET) {
		m->st.oversize++;
		model_trace(m, "packet in on port %u: %zu bytes is over %d, dropped", port, len,
			    PISA_MODEL_MAX_PACKET);
		return 0;
	}
	if (len && !data)
		return -PISA_E_INVAL;
	m->now = time_us;
	m->out = out;
	m->out_arg = arg;
	m->ingress_passes = 0;
	m->e2e_passes = 0;
	m->nomem = 0;
	return model_tm_run(m, port, data, len);
}
