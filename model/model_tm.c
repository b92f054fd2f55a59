/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_tm.c: the pass loop and the traffic manager (docs/architecture.md,
 * "Traffic manager").
 *
 * One injected packet becomes a FIFO of passes (ingress passes over bytes,
 * egress passes over a PHV and payload) that run until none is left, so
 * clones, multicast copies, resubmit and recirculation never recurse. Job
 * buffers are allocated once and reused: the hot path does not malloc.
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static const char *const instance_names[] = {
	"normal", "I2E clone", "E2E clone", "coalesced", "recirculated", "replica",
	"resubmitted",
};

static const char *instance_name(uint64_t t)
{
	return t < sizeof(instance_names) / sizeof(instance_names[0]) ? instance_names[t] : "?";
}

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
	j->phv = malloc(m->phv_bytes + MODEL_SLACK);
	j->vlen = calloc(m->nvar ? m->nvar : 1, sizeof(*j->vlen));
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

/* Runs one packet and everything it spawns. */
int model_tm_run(struct pisa_model *m, uint16_t port, const uint8_t *data, size_t len)
{
	struct job *j = job_get(m);

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

void model_tm_free(struct pisa_model *m)
{
	size_t i;

	for (i = 0; i < m->npool; i++) {
		free(m->pool[i]->phv);
		free(m->pool[i]->vlen);
		free(m->pool[i]->pkt);
		free(m->pool[i]);
	}
	free(m->pool);
	free(m->queue);
	free(m->free);
}
