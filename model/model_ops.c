/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_ops.c: the primitive switch writes of pisa_switch.h on the model's
 * memories, and the stateful externs they configure (counters, meters).
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static int row_action_ok(const struct pisa_table *tb, int is_default, uint16_t act,
			 uint16_t *ai)
{
	unsigned i;

	for (i = 0; i < tb->nactions; i++) {
		if (tb->actions[i].action != act)
			continue;
		/* @defaultonly actions never sit in entries, @tableonly never in the default */
		if (!is_default && (tb->actions[i].flags & PISA_TA_DEFAULT_ONLY))
			return 0;
		if (is_default && (tb->actions[i].flags & PISA_TA_TABLE_ONLY))
			return 0;
		*ai = (uint16_t)i;
		return 1;
	}
	return 0;
}

int model_write_row(struct pisa_model *m, uint16_t table, uint32_t index, const uint8_t *row,
		    size_t len)
{
	const struct pisa_table *tb;
	struct mtable *mt;
	uint16_t ai = MODEL_NO_ACTION;

	if (!m || table >= m->img->ntables)
		return -PISA_E_RANGE;
	tb = &m->img->tables[table];
	mt = &m->tables[table];
	if (index > mt->rows)
		return -PISA_E_RANGE;
	if (!row || len != mt->rb)
		return -PISA_E_INVAL;
	if (row[0] & PISA_ROW_VALID) {
		uint16_t act = (uint16_t)(row[1] << 8 | row[2]);

		if (!row_action_ok(tb, index == mt->rows, act, &ai))
			return -PISA_E_INVAL;
		if (row[0] & ~PISA_ROW_VALID)
			return -PISA_E_INVAL;
	}
	memcpy(mt->mem + (size_t)index * mt->rb, row, len);
	mt->aidx[index] = ai;
	if (index < mt->rows) {
		mt->ix.dirty = 1;
		if (mt->lc && ++mt->lc_gen == 0) {
			/* generation wrapped: forget everything */
			memset(mt->lc, 0, sizeof(*mt->lc) << MODEL_LC_BITS);
			mt->lc_gen = 1;
		}
	}
	return 0;
}

static int op_write_row(void *sw, uint16_t table, uint32_t index, const uint8_t *row,
			size_t len)
{
	return model_write_row(sw, table, index, row, len);
}

void model_count(struct pisa_model *m, unsigned id, uint64_t index, uint64_t pktlen)
{
	const struct pisa_counter *c;

	if (id >= m->img->ncounters)
		return;
	c = &m->img->counters[id];
	if (c->size == 1)
		index = 0;
	if (index >= c->size)
		return;
	if (c->kind != PISA_COUNTER_BYTES)
		m->cnt_pkts[id][index]++;
	if (c->kind != PISA_COUNTER_PACKETS)
		m->cnt_bytes[id][index] += pktlen;
}

static int op_counter_read(void *sw, uint16_t id, uint32_t index, uint64_t *packets,
			   uint64_t *bytes)
{
	struct pisa_model *m = sw;

	if (!m || id >= m->img->ncounters)
		return -PISA_E_RANGE;
	if (index >= m->img->counters[id].size)
		return -PISA_E_RANGE;
	if (packets)
		*packets = m->cnt_pkts[id][index];
	if (bytes)
		*bytes = m->cnt_bytes[id][index];
	return 0;
}

static int op_counter_write(void *sw, uint16_t id, uint32_t index, uint64_t packets,
			    uint64_t bytes)
{
	struct pisa_model *m = sw;

	if (!m || id >= m->img->ncounters)
		return -PISA_E_RANGE;
	if (index >= m->img->counters[id].size)
		return -PISA_E_RANGE;
	m->cnt_pkts[id][index] = packets;
	m->cnt_bytes[id][index] = bytes;
	return 0;
}

static int op_register_read(void *sw, uint16_t id, uint32_t index, uint64_t *value)
{
	struct pisa_model *m = sw;

	if (!m || id >= m->img->nregisters || index >= m->img->registers[id].size)
		return -PISA_E_RANGE;
	if (!value)
		return -PISA_E_INVAL;
	*value = m->regs[id][index];
	return 0;
}

/* A value wider than the register is refused, not truncated. */
static int op_register_write(void *sw, uint16_t id, uint32_t index, uint64_t value)
{
	struct pisa_model *m = sw;

	if (!m || id >= m->img->nregisters || index >= m->img->registers[id].size)
		return -PISA_E_RANGE;
	if (value & ~model_mask(m->img->registers[id].width))
		return -PISA_E_RANGE;
	m->regs[id][index] = value;
	return 0;
}

static int op_meter_write(void *sw, uint16_t id, uint32_t index, const struct pisa_meter_cfg *cfg)
{
	struct pisa_model *m = sw;
	struct meter_cell *mc;

	if (!m || id >= m->img->nmeters || index >= m->img->meters[id].size)
		return -PISA_E_RANGE;
	if (!cfg)
		return -PISA_E_INVAL;
	mc = &m->meters[id][index];
	memset(mc, 0, sizeof(*mc));
	if (!cfg->configured)
		return 0;
	mc->cfg = *cfg;
	mc->cfg.configured = 1;
	/* buckets start full */
	mc->tc = (uint64_t)cfg->cbs << 16;
	mc->tp = (uint64_t)cfg->pbs << 16;
	mc->last = m->now;
	return 0;
}

/* Refills b towards cap at rate q16 units/µs over dt µs, without overflow. */
static uint64_t refill(uint64_t b, uint64_t cap, uint64_t q16, uint64_t dt)
{
	if (b >= cap)
		return cap;
	if (dt && q16 > (cap - b) / dt)
		return cap;
	return b + q16 * dt;
}

unsigned model_meter_exec(struct pisa_model *m, unsigned id, uint64_t index, uint64_t pktlen)
{
	struct meter_cell *mc;
	uint64_t s, dt;

	if (id >= m->img->nmeters || index >= m->img->meters[id].size)
		return PISA_GREEN;
	mc = &m->meters[id][index];
	if (!mc->cfg.configured)
		return PISA_GREEN;
	s = (m->img->meters[id].kind == PISA_METER_BYTES ? pktlen : 1) << 16;
	dt = m->now > mc->last ? m->now - mc->last : 0;
	mc->tc = refill(mc->tc, (uint64_t)mc->cfg.cbs << 16, mc->cfg.cir_q16, dt);
	mc->tp = refill(mc->tp, (uint64_t)mc->cfg.pbs << 16, mc->cfg.pir_q16, dt);
	mc->last = m->now;
	if (mc->tp < s)
		return PISA_RED;
	if (mc->tc < s) {
		mc->tp -= s;
		return PISA_YELLOW;
	}
	mc->tp -= s;
	mc->tc -= s;
	return PISA_GREEN;
}

static int op_mcast_write(void *sw, uint16_t group, uint16_t n, const struct pisa_mc_copy *copies)
{
	struct pisa_model *m = sw;
	struct mc_group *g;
	struct pisa_mc_copy *nc = NULL;
	unsigned i;

	if (!m || group >= m->img->mcast_groups)
		return -PISA_E_RANGE;
	if (n && !copies)
		return -PISA_E_INVAL;
	for (i = 0; i < n; i++)
		if (copies[i].port >= PISA_PORT_DROP)
			return -PISA_E_RANGE;
	g = &m->mc[group];
	if ((uint32_t)m->mc_nodes_used - g->n + n > m->img->mcast_nodes)
		return -PISA_E_FULL;
	if (n) {
		nc = malloc(n * sizeof(*nc));
		if (!nc)
			return -PISA_E_NOMEM;
		memcpy(nc, copies, n * sizeof(*nc));
	}
	free(g->copies);
	m->mc_nodes_used = m->mc_nodes_used - g->n + n;
	g->copies = nc;
	g->n = n;
	return 0;
}

static int op_clone_write(void *sw, uint16_t session, const struct pisa_clone_cfg *cfg)
{
	struct pisa_model *m = sw;

	if (!m || session >= m->img->clone_sessions)
		return -PISA_E_RANGE;
	if (!cfg)
		return -PISA_E_INVAL;
	if (cfg->enabled && cfg->port >= PISA_PORT_DROP && !cfg->mcast_grp)
		return -PISA_E_RANGE;
	if (cfg->mcast_grp && cfg->mcast_grp >= m->img->mcast_groups)
		return -PISA_E_RANGE;
	m->clones[session] = *cfg;
	m->clones[session].enabled = cfg->enabled ? 1 : 0;
	return 0;
}

const struct pisa_switch_ops pisa_model_ops = {
	.write_row = op_write_row,
	.counter_read = op_counter_read,
	.counter_write = op_counter_write,
	.register_read = op_register_read,
	.register_write = op_register_write,
	.meter_write = op_meter_write,
	.mcast_write = op_mcast_write,
	.clone_write = op_clone_write,
};
