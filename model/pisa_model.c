/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_model.c: the model's life cycle, the pass loop and the traffic
 * manager (docs/architecture.md, "Traffic manager").
 *
 * One injected packet becomes a FIFO of passes (ingress passes over bytes,
 * egress passes over a PHV and payload) that run until none is left, so
 * clones, multicast copies, resubmit and recirculation never recurse. Job
 * buffers are allocated once and reused: the hot path does not malloc.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static const char *const builtin_errors[] = {
	"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds",
	"HeaderTooShort", "ParserTimeout", "ParserInvalidArgument",
};

static const char *const instance_names[] = {
	"normal", "I2E clone", "E2E clone", "coalesced", "recirculated", "replica",
	"resubmitted",
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

static const char *instance_name(uint64_t t)
{
	return t < sizeof(instance_names) / sizeof(instance_names[0]) ? instance_names[t] : "?";
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
	m->fl_bits = zalloc(img->nfield_lists, sizeof(*m->fl_bits));
	m->fl_aligned = zalloc(img->nfield_lists, 1);
	if (!m->fl_bits || !m->fl_aligned)
		goto fail;
	for (i = 0; i < img->nfield_lists; i++) {
		size_t bits = 0;

		m->fl_aligned[i] = 1;
		for (j = 0; j < img->field_lists[i].nfields; j++) {
			struct pisa_field f = img->field_lists[i].fields[j];

			if (f.width == 0 || f.width > 64)
				continue;
			if ((f.bitoff | f.width) & 7 || (size_t)f.bitoff + f.width > m->phv_bytes * 8)
				m->fl_aligned[i] = 0;
			bits += f.width;
		}
		m->fl_bits[i] = bits;
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
	for (i = 0; i < m->npool; i++) {
		free(m->pool[i]->phv);
		free(m->pool[i]->vlen);
		free(m->pool[i]->pkt);
		free(m->pool[i]);
	}
	free(m->pool);
	free(m->queue);
	free(m->free);
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
	free(m->fl_bits);
	free(m->fl_aligned);
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

/* ---- jobs ---- */

static struct job *job_get(struct pisa_model *m)
{
	struct job *j;

	if (m->nfree)
		return m->free[--m->nfree];
	if (m->npool == m->cap_pool) {
		size_t nc = m->cap_pool ? m->cap_pool * 2 : 8;
		struct job **np = realloc(m->pool, nc * sizeof(*np));
		struct job **nf;

		if (!np)
			goto nomem;
		m->pool = np;
		nf = realloc(m->free, nc * sizeof(*nf));
		if (!nf)
			goto nomem;
		m->free = nf;
		m->cap_pool = nc;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		goto nomem;
	j->phv = malloc(m->phv_bytes);
	j->vlen = zalloc(m->nvar, sizeof(*j->vlen));
	j->pkt = malloc(m->pkt_cap);
	if (!j->phv || !j->vlen || !j->pkt) {
		free(j->phv);
		free(j->vlen);
		free(j->pkt);
		free(j);
		goto nomem;
	}
	m->pool[m->npool++] = j;
	return j;
nomem:
	m->nomem = 1;
	return NULL;
}

static void job_put(struct pisa_model *m, struct job *j)
{
	m->free[m->nfree++] = j;
}

static int job_push(struct pisa_model *m, struct job *j)
{
	if (m->tail == m->cap_queue) {
		size_t nc = m->cap_queue ? m->cap_queue * 2 : 8;
		struct job **nq = realloc(m->queue, nc * sizeof(*nq));

		if (!nq) {
			m->nomem = 1;
			job_put(m, j);
			return -PISA_E_NOMEM;
		}
		m->queue = nq;
		m->cap_queue = nc;
	}
	m->queue[m->tail++] = j;
	return 0;
}

/* dst = zero PHV but for the fields of field list flist - 1 (0: none). */
static void keep_fields(struct pisa_model *m, uint8_t *dst, const uint8_t *src, uint64_t flist)
{
	const struct pisa_field_list *l;
	unsigned i;

	memset(dst, 0, m->phv_bytes);
	if (!flist || flist > m->img->nfield_lists)
		return;
	l = &m->img->field_lists[flist - 1];
	for (i = 0; i < l->nfields; i++)
		model_set(m, dst, l->fields[i], model_get(m, src, l->fields[i]));
}

static void reset_vlen(struct pisa_model *m, uint16_t *vlen)
{
	unsigned h;

	for (h = 0; h < m->img->nheaders; h++)
		if (m->var_slot[h] >= 0)
			vlen[m->var_slot[h]] = m->img->headers[h].fixed_bytes;
}

/* Queues an egress pass of a copy of phv. itype < 0 keeps instance_type. */
static void spawn_egress(struct pisa_model *m, const uint8_t *phv, const uint16_t *vlen,
			 const uint8_t *payload, size_t plen, unsigned port, unsigned rid,
			 int itype, unsigned trunc)
{
	struct job *j = job_get(m);

	if (!j)
		return;
	j->kind = JOB_EGRESS;
	j->trunc = (uint16_t)trunc;
	memcpy(j->phv, phv, m->phv_bytes);
	if (m->nvar)
		memcpy(j->vlen, vlen, m->nvar * sizeof(*vlen));
	if (plen)
		memcpy(j->pkt, payload, plen);
	j->len = plen;
	/* whole byte containers of the fixed layout (pisa_image.h) */
	model_be_put(j->phv + 4, 2, port);		/* egress_port */
	model_be_put(j->phv + 8, 2, rid);		/* egress_rid */
	if (itype >= 0)
		model_be_put(j->phv + 12, 4, (uint64_t)itype);
	/* the model drains its queues at once: depths and waits are 0 */
	model_be_put(j->phv + 20, 4, m->now);		/* enq_timestamp */
	memset(j->phv + 24, 0, 12);			/* enq_qdepth .. deq_qdepth */
	model_be_put(j->phv + 46, 6, m->now);		/* egress_global_timestamp */
	/* ingress's clone and resubmit requests were served by the TM */
	memset(j->phv + 52, 0, 5);
	job_push(m, j);
}

/* Copies to a clone session's port or to each member of its group. */
static void spawn_session(struct pisa_model *m, const struct pisa_clone_cfg *cs,
			  const uint8_t *phv, const uint16_t *vlen, const uint8_t *payload,
			  size_t plen, int itype)
{
	unsigned i;

	if (cs->mcast_grp) {
		const struct mc_group *g = &m->mc[cs->mcast_grp];

		for (i = 0; i < g->n; i++)
			spawn_egress(m, phv, vlen, payload, plen, g->copies[i].port,
				     g->copies[i].rid, itype, cs->truncate);
		return;
	}
	spawn_egress(m, phv, vlen, payload, plen, cs->port, 0, itype, cs->truncate);
}

/* Sets the pass's intrinsic state, runs the parser and the verify units;
 * the PHV holds the kept fields, ingress_port and instance_type. */
static size_t front_end(struct pisa_model *m, uint8_t *phv, uint16_t *vlen, const uint8_t *pkt,
			size_t len)
{
	size_t cur = 0;

	model_set(m, phv, PISA_SM_PACKET_LENGTH, len);
	model_set(m, phv, PISA_SM_INGRESS_GLOBAL_TIMESTAMP, m->now);
	reset_vlen(m, vlen);
	model_parse(m, phv, vlen, pkt, len, &cur);
	model_csum_verify(m, phv, pkt + cur, len - cur);
	return cur;
}

static const struct pisa_clone_cfg *session(struct pisa_model *m, uint64_t s, const char *what)
{
	if (s < m->img->clone_sessions && m->clones[s].enabled)
		return &m->clones[s];
	if (m->trace)
		model_trace(m, "  tm: %s clone to session %llu: not configured, no copy", what,
			    (unsigned long long)s);
	return NULL;
}

static void i2e_clone(struct pisa_model *m, struct job *j, uint64_t port)
{
	const uint8_t *phv = j->phv;
	const struct pisa_clone_cfg *cs;
	struct job *c;
	uint64_t s = model_get(m, phv, PISA_IM_CLONE_SESSION);
	size_t cur;

	cs = session(m, s, "I2E");
	if (!cs)
		return;
	c = job_get(m);
	if (!c)
		return;
	if (m->trace)
		model_trace(m, "  tm: I2E clone to session %llu, packet parsed again",
			    (unsigned long long)s);
	keep_fields(m, c->phv, phv, model_get(m, phv, PISA_IM_CLONE_FLIST));
	model_set(m, c->phv, PISA_SM_INGRESS_PORT, port);
	model_set(m, c->phv, PISA_SM_INSTANCE_TYPE, PISA_INSTANCE_INGRESS_CLONE);
	cur = front_end(m, c->phv, c->vlen, j->pkt, j->len);
	spawn_session(m, cs, c->phv, c->vlen, j->pkt + cur, j->len - cur, -1);
	job_put(m, c);
}

static void run_ingress(struct pisa_model *m, struct job *j)
{
	uint8_t *phv = j->phv;
	uint64_t port = model_get(m, phv, PISA_SM_INGRESS_PORT), itype, v;
	size_t cur;

	itype = model_get(m, phv, PISA_SM_INSTANCE_TYPE);
	if (m->ingress_passes >= PISA_MODEL_MAX_PASSES) {
		m->st.pass_limit++;
		model_trace(m, "  tm: pass limit (%d passes) reached: dropped",
			    PISA_MODEL_MAX_PASSES);
		return;
	}
	m->ingress_passes++;
	if (m->trace)
		model_trace(m, "ingress: port %llu, %zu bytes, %s (pass %u)",
			    (unsigned long long)port, j->len, instance_name(itype),
			    m->ingress_passes);
	cur = front_end(m, phv, j->vlen, j->pkt, j->len);
	model_run_tables(m, phv, j->vlen, 0);

	/* the traffic manager, in BMv2 simple_switch's order */
	if (model_get(m, phv, PISA_IM_CLONE_TYPE) == PISA_CLONE_I2E)
		i2e_clone(m, j, port);
	v = model_get(m, phv, PISA_IM_RESUBMIT_FLIST);
	if (v) {
		struct job *r = job_get(m);

		if (m->trace)
			model_trace(m, "  tm: resubmit");
		if (!r)
			return;
		r->kind = JOB_INGRESS;
		keep_fields(m, r->phv, phv, v);
		model_set(m, r->phv, PISA_SM_INGRESS_PORT, port);
		model_set(m, r->phv, PISA_SM_INSTANCE_TYPE, PISA_INSTANCE_RESUBMIT);
		memcpy(r->pkt, j->pkt, j->len);
		r->len = j->len;
		job_push(m, r);
		return;
	}
	v = model_get(m, phv, PISA_SM_MCAST_GRP);
	if (v) {
		const struct mc_group *g = v < m->img->mcast_groups ? &m->mc[v] : NULL;
		unsigned i;

		if (!g || !g->n) {
			m->st.dropped++;
			model_trace(m, "  tm: multicast group %llu is empty: dropped",
				    (unsigned long long)v);
			return;
		}
		if (m->trace)
			model_trace(m, "  tm: multicast group %llu, %u copies", (unsigned long long)v,
				    g->n);
		for (i = 0; i < g->n; i++)
			spawn_egress(m, phv, j->vlen, j->pkt + cur, j->len - cur, g->copies[i].port,
				     g->copies[i].rid, PISA_INSTANCE_REPLICATION, 0);
		return;
	}
	v = model_get(m, phv, PISA_SM_EGRESS_SPEC);
	if (v == PISA_PORT_DROP) {
		m->st.dropped++;
		model_trace(m, "  tm: egress_spec 511: dropped");
		return;
	}
	if (m->trace)
		model_trace(m, "  tm: to port %llu", (unsigned long long)v);
	spawn_egress(m, phv, j->vlen, j->pkt + cur, j->len - cur, (unsigned)v, 0, -1, 0);
}

static void e2e_clone(struct pisa_model *m, struct job *j)
{
	const struct pisa_clone_cfg *cs;
	struct job *c;
	uint64_t s = model_get(m, j->phv, PISA_IM_CLONE_SESSION);
	size_t i;

	cs = session(m, s, "E2E");
	if (!cs)
		return;
	if (m->e2e_passes >= PISA_MODEL_MAX_PASSES) {
		m->st.pass_limit++;
		model_trace(m, "  tm: E2E clone limit (%d) reached: no copy", PISA_MODEL_MAX_PASSES);
		return;
	}
	m->e2e_passes++;
	c = job_get(m);
	if (!c)
		return;
	if (m->trace)
		model_trace(m, "  tm: E2E clone to session %llu", (unsigned long long)s);
	/* headers as egress left them; metadata zero but the clone field list */
	keep_fields(m, c->phv, j->phv, model_get(m, j->phv, PISA_IM_CLONE_FLIST));
	for (i = 0; i < m->phv_bytes; i++)
		c->phv[i] |= j->phv[i] & m->hdr_mask[i];
	model_set(m, c->phv, PISA_SM_INSTANCE_TYPE, PISA_INSTANCE_EGRESS_CLONE);
	spawn_session(m, cs, c->phv, j->vlen, j->pkt, j->len, -1);
	job_put(m, c);
}

static void run_egress(struct pisa_model *m, struct job *j)
{
	uint8_t *phv = j->phv;
	uint64_t port = model_get(m, phv, PISA_SM_EGRESS_PORT), v, tl;
	size_t n;

	if (m->trace)
		model_trace(m, "egress: port %llu, rid %llu, %s", (unsigned long long)port,
			    (unsigned long long)model_get(m, phv, PISA_SM_EGRESS_RID),
			    instance_name(model_get(m, phv, PISA_SM_INSTANCE_TYPE)));
	model_run_tables(m, phv, j->vlen, 1);
	if (model_get(m, phv, PISA_IM_CLONE_TYPE) == PISA_CLONE_E2E)
		e2e_clone(m, j);
	if (model_get(m, phv, PISA_SM_EGRESS_SPEC) == PISA_PORT_DROP) {
		m->st.dropped++;
		model_trace(m, "  tm: dropped in egress");
		return;
	}
	model_csum_update(m, phv, j->pkt, j->len);
	n = model_deparse(m, phv, j->vlen, j->pkt, j->len, m->outbuf);
	tl = model_get(m, phv, PISA_IM_TRUNCATE_LEN);
	if (j->trunc && (!tl || j->trunc < tl))
		tl = j->trunc;
	if (tl && tl < n) {
		model_trace(m, "  deparser: %zu bytes truncated to %llu", n, (unsigned long long)tl);
		n = (size_t)tl;
	}
	v = model_get(m, phv, PISA_IM_RECIRC_FLIST);
	if (v) {
		struct job *r;

		if (n > PISA_MODEL_MAX_PACKET) {
			m->st.oversize++;
			model_trace(m, "  tm: recirculated packet of %zu bytes too long: dropped", n);
			return;
		}
		r = job_get(m);
		if (m->trace)
			model_trace(m, "  tm: recirculate, %zu bytes", n);
		if (!r)
			return;
		r->kind = JOB_INGRESS;
		keep_fields(m, r->phv, phv, v);
		model_set(m, r->phv, PISA_SM_INGRESS_PORT, model_get(m, phv, PISA_SM_INGRESS_PORT));
		model_set(m, r->phv, PISA_SM_INSTANCE_TYPE, PISA_INSTANCE_RECIRC);
		memcpy(r->pkt, m->outbuf, n);
		r->len = n;
		job_push(m, r);
		return;
	}
	m->st.tx_packets++;
	if (m->trace)
		model_trace(m, "  out: port %llu, %zu bytes", (unsigned long long)port, n);
	if (m->out)
		m->out(m->out_arg, (uint16_t)port, m->outbuf, n);
}

int pisa_model_inject(struct pisa_model *m, uint16_t port, const uint8_t *data, size_t len,
		      uint64_t time_us, pisa_model_out_fn out, void *arg)
{
	struct job *j;

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
	j = job_get(m);
	if (!j)
		return -PISA_E_NOMEM;
	j->kind = JOB_INGRESS;
	memset(j->phv, 0, m->phv_bytes);
	model_set(m, j->phv, PISA_SM_INGRESS_PORT, port);
	if (len)
		memcpy(j->pkt, data, len);
	j->len = len;
	m->head = m->tail = 0;
	job_push(m, j);
	while (m->head < m->tail) {
		j = m->queue[m->head++];
		if (j->kind == JOB_INGRESS)
			run_ingress(m, j);
		else
			run_egress(m, j);
		job_put(m, j);
	}
	m->head = m->tail = 0;
	return m->nomem ? -PISA_E_NOMEM : 0;
}
