/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_ctl.c: the control plane of one switch (pisa_ctl.h).
 *
 * The shadow holds, per table, every entry with its handle, the row it sits
 * in and the row's bytes, so that commands can be validated completely before
 * the first primitive write and the whole state can be replayed.
 *
 * Placement:
 *  - HASH tables: cuckoo hashing over the ways with pisa_hash_way(); a BFS over
 *    at most CUCKOO_MAX_NODES occupied rows finds a chain of moves ending in a
 *    free row. Moves run from the free end, each writing the entry to its new
 *    row before invalidating the old one, so a lookup finds it at any moment.
 *  - TCAM tables: entries sit in rows in match order (lower BMv2 priority
 *    first; without priorities longer prefix first; ties: older first),
 *    packed from row 0. Inserting shifts rows down from the bottom up,
 *    deleting shifts them up from the top down, with the same
 *    write-then-invalidate moves; inserts also cope with free rows in between
 *    (const rows, a write that failed half way).
 * A direct counter cell moves with its row (read old, add into new, zero old)
 * and a direct meter cell's configuration too.
 *
 * A table split over stages (its pieces share one P4Runtime id) is one table
 * here: the pieces' rows side by side (piece_of), TCAM order running across
 * them, an exact key free to go to any way of any piece, each piece's direct
 * counter for its rows.
 *
 * A command is validated completely before its first write and prints
 * nothing unless it succeeds. If a switch write fails part way, the shadow
 * describes what was written; pisa_ctl_replay() rewrites every row and is
 * the way to resynchronise.
 *
 * Handles are the lowest free number (BMv2's handle manager does the same),
 * per table for entries, per switch for multicast nodes, per action profile
 * for members and for groups.
 *
 * Action profiles and selectors (docs/architecture.md): a member h is the
 * member table's entry with key h; a group of n members holds n consecutive
 * slots (keys size + base ..), copies of its members in ascending handle
 * order, so that the selector's hash modulo n picks the n-th smallest member
 * as BMv2 does. A match table entry's action data is the member's key, or the
 * group's first slot and n. When a group changes, its slots are rewritten in
 * place if they can grow there, else at a new place (new slots, then the
 * entries, then the old slots go), so a packet always lands on a member of the
 * group as it was before or after the command.
 */
#include "pisa_ctl.h"
#include "pisa_p4info.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_value.h"

#define CUCKOO_MAX_NODES 500	/* rows the BFS may look at before "table full" */
#define MAX_PORT 511

struct mrate {			/* one meter cell as configured */
	struct pisa_meter_cfg cfg;
	double rate[2];
	uint32_t burst[2];
};

struct ent {
	uint8_t used;
	uint8_t fixed;		/* a const entry from the image */
	uint32_t row;
	uint16_t action;
	int32_t prio;		/* -1: the table has no priorities */
	uint32_t plen;		/* prefix length (lpm ordering) */
	uint64_t seq;		/* age, for ties */
	uint8_t *bytes;		/* the row as written */
	struct mrate meter;	/* direct meter cell */
	uint8_t ind;		/* IND_*: what an action profile's match table entry points to */
	uint32_t ind_h;		/* ... the member or group handle */
};

enum { IND_NONE, IND_MEMBER, IND_GROUP };

struct tab {
	const struct pisa_table *t;	/* a split table: its first piece */
	const struct pisa_rt_table *rt;
	size_t kb, mb, db, rb;
	const char *broken;	/* why the image's table cannot be used, or NULL */
	int has_prio;
	uint32_t *koff;		/* per rt key: bit offset inside a KB-byte key */
	uint32_t *rng;		/* per rt key: row byte offset of its lo (range keys) */
	struct ent *ents;	/* indexed by handle */
	uint32_t cap;		/* entries the table can hold */
	uint32_t count;
	uint32_t *owner;	/* per row: handle + 1, 0 = free */
	uint8_t *defrow;
	uint8_t *zero;		/* an invalid row */
	uint64_t seq;
	/* a table split over stages: np pieces (image tables piece[]), piece p's rows from
	 * row base[p]; rows in all; the last piece's default row is the table's */
	unsigned np;
	uint16_t *piece;
	uint32_t *base;
	uint32_t rows;
	const struct pisa_table *tlast;
	const struct pisa_table **pt;	/* per piece */
	int first;		/* a later piece: the table it is part of; else -1 */
	int prof;		/* action profile of this match or member table, or -1 */
	int pti;		/* its index in the profile's tables; -1: the member table */
	uint8_t def_ind;	/* IND_*: the default row's member or group */
	uint32_t def_h;
};

struct pmbr {			/* an action profile member */
	uint8_t used;
	uint8_t *row;		/* its member table row (key: the handle) */
	uint32_t refs;		/* entries, defaults and groups that use it */
};

struct pgrp {			/* an action selector group */
	uint8_t used;
	uint32_t n, *m;		/* members, ascending handles */
	uint32_t base, cnt;	/* slots base .. base + cnt - 1 hold them */
	uint32_t refs;		/* entries and defaults that use it */
};

struct prof {
	const struct pisa_rt_profile *p;
	unsigned mt;		/* member table */
	unsigned w;		/* index bits */
	struct pmbr *mbr;	/* size */
	struct pgrp *grp;	/* size */
	uint32_t *slot;		/* slots: group + 1, 0 = free */
};

struct mnode {
	uint8_t used;
	uint16_t rid;
	uint16_t nports;
	uint16_t *ports;	/* ascending, as BMv2's port map */
	uint16_t grp;		/* 0: not associated */
	uint64_t aseq;		/* association order */
};

struct pisa_ctl {
	const struct pisa_image *img;
	const struct pisa_switch_ops *ops;
	void *sw;
	struct tab *tabs;
	struct mrate **meters;	/* per indirect meter: its cells; NULL for direct ones */
	uint8_t *grp_used;	/* per group id < mcast_groups */
	uint32_t *grp_copies;	/* copies last written per group */
	struct mnode *nodes;	/* mcast_nodes */
	uint64_t aseq;
	struct pisa_clone_cfg *clones;	/* clone_sessions */
	struct prof *profs;	/* nprofiles */
};

/* One command being run. */
struct cx {
	struct pisa_ctl *c;
	FILE *o;
	char *err;
	size_t errlen;
};

static int fail(struct cx *x, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct cx *x, int code, const char *fmt, ...)
{
	va_list ap;

	if (x->err && x->errlen) {
		va_start(ap, fmt);
		vsnprintf(x->err, x->errlen, fmt, ap);
		va_end(ap);
	}
	return -code;
}

/* appends to the error message (lists of valid names) */
static void err_append(struct cx *x, const char *s)
{
	size_t n;

	if (!x->err || !x->errlen)
		return;
	n = strlen(x->err);
	if (n + 1 < x->errlen)
		snprintf(x->err + n, x->errlen - n, "%s", s);
}

static const char *errname(int rc)
{
	static const char *const names[] = {
		"ok", "out of memory", "I/O error", "bad format", "bad version", "bad CRC",
		"out of range", "not found", "full", "exists", "invalid argument",
	};

	rc = rc < 0 ? -rc : rc;
	return rc < (int)(sizeof(names) / sizeof(names[0])) ? names[rc] : "error";
}

static const char *match_name(unsigned m)
{
	switch (m) {
	case PISA_MATCH_EXACT: return "exact";
	case PISA_MATCH_LPM: return "lpm";
	case PISA_MATCH_RANGE: return "range";
	default: return "ternary";	/* optional is stored as ternary, as BMv2 does */
	}
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* ---- names ---- */

static const char *tab_name(const struct pisa_ctl *c, unsigned i)
{
	return c->img->rt_tables && c->img->rt_tables[i].name ? c->img->rt_tables[i].name : "";
}

static const char *act_name(const struct pisa_ctl *c, unsigned i)
{
	return c->img->rt_actions && c->img->rt_actions[i].name ? c->img->rt_actions[i].name : "";
}

static const char *named(const struct pisa_rt_named *arr, unsigned i)
{
	return arr && arr[i].name ? arr[i].name : "";
}

static const char *ctr_name(const struct pisa_ctl *c, unsigned i)
{
	return named(c->img->rt_counters, i);
}

static const char *reg_name(const struct pisa_ctl *c, unsigned i)
{
	return named(c->img->rt_registers, i);
}

static const char *mtr_name(const struct pisa_ctl *c, unsigned i)
{
	return named(c->img->rt_meters, i);
}

typedef const char *(*name_fn)(const struct pisa_ctl *c, unsigned i);

/* name is tok, or ends with "." tok */
static int name_is(const char *name, const char *tok, int *exact)
{
	size_t n = strlen(name), t = strlen(tok);

	*exact = n == t && !strcmp(name, tok);
	if (*exact)
		return 1;
	return t < n && name[n - t - 1] == '.' && !strcmp(name + n - t, tok);
}

/*
 * Finds tok among n objects (ids from subset when given): the full name or
 * a unique dotted suffix. what: "table"; among: "tables" or "actions of T".
 */
static int resolve(struct cx *x, const char *what, const char *among, const char *tok,
		   unsigned n, name_fn nm, const uint16_t *subset, unsigned *out)
{
	unsigned i, hits = 0, hit = 0, first;
	int exact;

	for (i = 0; i < n; i++) {
		unsigned id = subset ? subset[i] : i;

		if (name_is(nm(x->c, id), tok, &exact)) {
			if (exact) {
				*out = id;
				return 0;
			}
			hits++;
			hit = id;
		}
	}
	if (hits == 1) {
		*out = hit;
		return 0;
	}
	if (hits > 1)
		fail(x, PISA_E_NOTFOUND, "ambiguous %s '%s'; matches:", what, tok);
	else
		fail(x, PISA_E_NOTFOUND, "unknown %s '%s'; %s:", what, tok, among);
	first = 1;
	for (i = 0; i < n; i++) {
		unsigned id = subset ? subset[i] : i;

		if (hits > 1 && !name_is(nm(x->c, id), tok, &exact))
			continue;
		err_append(x, first ? " " : ", ");
		err_append(x, nm(x->c, id));
		first = 0;
	}
	if (first)
		err_append(x, " (none)");
	return -PISA_E_NOTFOUND;
}

static int find_table(struct cx *x, const char *tok, unsigned *tid)
{
	uint16_t *ids = calloc(x->c->img->ntables + 1u, sizeof(*ids));
	unsigned i, n = 0;
	int rc;

	if (!ids)
		return -PISA_E_NOMEM;
	/* a profile's member table is the profile's, not a table of its own; the later
	 * pieces of a split table are its first piece's rows */
	for (i = 0; i < x->c->img->ntables; i++)
		if ((x->c->tabs[i].prof < 0 || x->c->tabs[i].pti >= 0) && x->c->tabs[i].first < 0)
			ids[n++] = (uint16_t)i;
	rc = resolve(x, "table", "tables", tok, n, tab_name, ids, tid);
	free(ids);
	if (rc)
		return rc;
	if (x->c->tabs[*tid].broken)
		return fail(x, PISA_E_FORMAT, "table %s cannot be used: %s", tab_name(x->c, *tid),
			    x->c->tabs[*tid].broken);
	return 0;
}

/* Refuses the direct-table command cmd on an action profile's match table. */
static int not_indirect(struct cx *x, unsigned tid, const char *instead)
{
	const struct tab *tb = &x->c->tabs[tid];

	if (tb->prof < 0)
		return 0;
	return fail(x, PISA_E_INVAL, "table %s is indirect (action profile %s): use %s",
		    tab_name(x->c, tid), x->c->img->rt_profiles[tb->prof].name, instead);
}

/* actions are looked up among the table's own, so "drop" works per table */
static int find_action(struct cx *x, unsigned tid, const char *tok, unsigned *aid)
{
	const struct pisa_table *t = x->c->tabs[tid].t;
	uint16_t *ids = calloc(t->nactions + 1u, sizeof(*ids));
	char among[160];
	unsigned i;
	int rc;

	if (!ids)
		return -PISA_E_NOMEM;
	for (i = 0; i < t->nactions; i++)
		ids[i] = t->actions[i].action < x->c->img->nactions ? t->actions[i].action : 0;
	if (x->c->tabs[tid].prof >= 0 && x->c->tabs[tid].pti < 0)
		snprintf(among, sizeof(among), "actions of action profile %s",
			 x->c->img->rt_profiles[x->c->tabs[tid].prof].name);
	else
		snprintf(among, sizeof(among), "actions of %s", tab_name(x->c, tid));
	rc = resolve(x, "action", among, tok, t->nactions, act_name, ids, aid);
	free(ids);
	return rc;
}

static const struct pisa_table_action *tab_action(const struct pisa_table *t, unsigned aid)
{
	unsigned i;

	for (i = 0; i < t->nactions; i++)
		if (t->actions[i].action == aid)
			return &t->actions[i];
	return NULL;
}

/* ---- switch writes ---- */

/*
 * A table split over several stages (docs/architecture.md) is one table here: its
 * pieces' rows side by side, piece p's row r at row base[p] + r, and the default row
 * (index rows) the last piece's. Returns the piece of row and makes row the piece's.
 */
static unsigned piece_of(const struct tab *tb, uint32_t *row)
{
	unsigned p;

	if (*row >= tb->rows) {
		*row = tb->tlast->rows;
		return tb->np - 1;
	}
	for (p = tb->np - 1; p > 0 && *row < tb->base[p]; p--)
		;
	*row -= tb->base[p];
	return p;
}

static int wr_row(struct pisa_ctl *c, unsigned tid, uint32_t row, const uint8_t *bytes)
{
	const struct tab *tb = &c->tabs[tid];
	unsigned p = piece_of(tb, &row);

	return c->ops->write_row(c->sw, tb->piece[p], row, bytes, tb->rb);
}

/* The direct counter (ctr) or meter cell of table row: its piece's. -1: none. */
static int direct_cell(const struct pisa_ctl *c, const struct tab *tb, uint32_t *row, int ctr)
{
	const struct pisa_table *t = &c->img->tables[tb->piece[piece_of(tb, row)]];

	return ctr ? t->direct_counter : t->direct_meter;
}

static const struct pisa_meter_cfg unconfigured;

static int ctr_zero(struct pisa_ctl *c, const struct tab *tb, uint32_t row)
{
	int id = direct_cell(c, tb, &row, 1);

	return id < 0 ? 0 : c->ops->counter_write(c->sw, (uint16_t)id, row, 0, 0);
}

static int mtr_set(struct pisa_ctl *c, const struct tab *tb, uint32_t row,
		   const struct pisa_meter_cfg *cfg)
{
	int id = direct_cell(c, tb, &row, 0);

	return id < 0 ? 0 : c->ops->meter_write(c->sw, (uint16_t)id, row, cfg);
}

/* Moves entry h to the free (invalid) row `to`. */
static int move_ent(struct pisa_ctl *c, unsigned tid, uint32_t h, uint32_t to)
{
	struct tab *tb = &c->tabs[tid];
	struct ent *e = &tb->ents[h];
	uint32_t from = e->row, fcell = from, tcell = to;
	int fid = direct_cell(c, tb, &fcell, 1), tidc = direct_cell(c, tb, &tcell, 1);
	uint64_t p1, b1, p2, b2;
	int rc;

	if ((rc = ctr_zero(c, tb, to)) || (rc = mtr_set(c, tb, to, &e->meter.cfg)))
		return rc;
	if ((rc = wr_row(c, tid, to, e->bytes)))
		return rc;
	/* from here on the entry is at `to`; `from` holds a harmless duplicate */
	tb->owner[to] = h + 1;
	tb->owner[from] = 0;
	e->row = to;
	if ((rc = wr_row(c, tid, from, tb->zero)))
		return rc;
	if (e->meter.cfg.configured && (rc = mtr_set(c, tb, from, &unconfigured)))
		return rc;
	if (fid < 0 || tidc < 0)
		return 0;
	/* the old row no longer counts: carry its cell over (maybe into another piece) */
	if ((rc = c->ops->counter_read(c->sw, (uint16_t)fid, fcell, &p1, &b1)) ||
	    (rc = c->ops->counter_read(c->sw, (uint16_t)tidc, tcell, &p2, &b2)) ||
	    (rc = c->ops->counter_write(c->sw, (uint16_t)tidc, tcell, p1 + p2, b1 + b2)))
		return rc;
	return ctr_zero(c, tb, from);
}

/* Writes new entry h into the free row `row`: fresh counter and meter cells first. */
static int place_ent(struct pisa_ctl *c, unsigned tid, uint32_t h, uint32_t row)
{
	struct tab *tb = &c->tabs[tid];
	struct ent *e = &tb->ents[h];
	int rc;

	if ((rc = ctr_zero(c, tb, row)) || (rc = mtr_set(c, tb, row, &e->meter.cfg)))
		return rc;
	if ((rc = wr_row(c, tid, row, e->bytes)))
		return rc;
	tb->owner[row] = h + 1;
	e->row = row;
	return 0;
}

/* Invalidates row (its entry is gone) and clears its counter and meter cells. */
static int clear_row(struct pisa_ctl *c, unsigned tid, uint32_t row)
{
	struct tab *tb = &c->tabs[tid];
	const struct ent *e = tb->owner[row] ? &tb->ents[tb->owner[row] - 1] : NULL;
	int rc = wr_row(c, tid, row, tb->zero);

	if (rc)
		return rc;
	tb->owner[row] = 0;
	if (e && e->meter.cfg.configured && (rc = mtr_set(c, tb, row, &unconfigured)))
		return rc;
	return ctr_zero(c, tb, row);
}

static void free_ent(struct ent *e)
{
	free(e->bytes);
	memset(e, 0, sizeof(*e));
}

/* ---- HASH placement ---- */

#define MAX_PIECES 64
#define MAX_CANDS (MAX_PIECES * PISA_HASH_MAX_WAYS)

/* The rows key may sit in, in lookup order: each way of each piece. */
static unsigned hash_cands(const struct tab *tb, const uint8_t *key, uint32_t *out)
{
	unsigned p, w, n = 0;

	for (p = 0; p < tb->np; p++) {
		const struct pisa_table *t = tb->pt[p];
		uint32_t mask = (UINT32_C(1) << t->way_bits) - 1;

		for (w = 0; w < t->ways; w++)
			out[n++] = tb->base[p] + ((uint32_t)w << t->way_bits |
						  (pisa_hash_way(w, key, tb->kb) & mask));
	}
	return n;
}

static int hash_find(const struct tab *tb, const uint8_t *key)
{
	uint32_t cand[MAX_CANDS];
	unsigned n = hash_cands(tb, key, cand), i;

	for (i = 0; i < n; i++) {
		uint32_t r = cand[i];

		if (tb->owner[r] &&
		    !memcmp(tb->ents[tb->owner[r] - 1].bytes + PISA_ROW_HDR, key, tb->kb))
			return (int)tb->owner[r] - 1;
	}
	return -1;
}

struct bfs_node {
	uint32_t row;
	int parent;
};

/*
 * Plans the cuckoo path for key: path[0] is a row of key's ways, path[n-1] a
 * free row, and the entry in path[i] moves to path[i + 1]. -PISA_E_FULL if
 * no path within CUCKOO_MAX_NODES rows. The ways of every piece of a split
 * table are candidates, so entries move between pieces too.
 */
static int hash_plan(const struct tab *tb, const uint8_t *key, uint32_t *path, unsigned *npath)
{
	struct bfs_node q[CUCKOO_MAX_NODES];
	uint32_t cand[MAX_CANDS];
	unsigned qn = 0, i, w, n, nc = hash_cands(tb, key, cand);
	uint8_t *seen;
	int found = -1;
	uint32_t free_row = 0;

	for (w = 0; w < nc; w++) {
		uint32_t r = cand[w];

		if (!tb->owner[r]) {
			path[0] = r;
			*npath = 1;
			return 0;
		}
	}
	seen = calloc(tb->rows / 8 + 1, 1);
	if (!seen)
		return -PISA_E_NOMEM;
	for (w = 0; w < nc && qn < CUCKOO_MAX_NODES; w++) {
		uint32_t r = cand[w];

		if (seen[r / 8] & (1u << (r % 8)))
			continue;
		seen[r / 8] |= (uint8_t)(1u << (r % 8));
		q[qn].row = r;
		q[qn++].parent = -1;
	}
	for (i = 0; i < qn && found < 0; i++) {
		const uint8_t *xkey = tb->ents[tb->owner[q[i].row] - 1].bytes + PISA_ROW_HDR;

		nc = hash_cands(tb, xkey, cand);
		for (w = 0; w < nc; w++) {
			uint32_t r = cand[w];

			if (r == q[i].row || (seen[r / 8] & (1u << (r % 8))))
				continue;
			seen[r / 8] |= (uint8_t)(1u << (r % 8));
			if (!tb->owner[r]) {
				found = (int)i;
				free_row = r;
				break;
			}
			if (qn < CUCKOO_MAX_NODES) {
				q[qn].row = r;
				q[qn++].parent = (int)i;
			}
		}
	}
	free(seen);
	if (found < 0)
		return -PISA_E_FULL;
	/* the chain from the root to the free row */
	n = 0;
	for (i = (unsigned)found;; i = (unsigned)q[i].parent) {
		n++;
		if (q[i].parent < 0)
			break;
	}
	path[n] = free_row;
	*npath = n + 1;
	for (i = (unsigned)found;; i = (unsigned)q[i].parent) {
		path[--n] = q[i].row;
		if (q[i].parent < 0)
			break;
	}
	return 0;
}

/* ---- TCAM ordering ---- */

/* a new entry goes before e */
static int tcam_before(const struct tab *tb, const struct ent *n, const struct ent *e)
{
	if (tb->has_prio)
		return n->prio < e->prio || (n->prio == e->prio && n->seq < e->seq);
	return n->plen > e->plen || (n->plen == e->plen && n->seq < e->seq);
}

/*
 * Plans a TCAM insert: the new entry goes right after the last entry that
 * matches before it. *target is its row; if rows must move, *free_row is the
 * nearest free row and *dir +1 (rows target..free-1 move down) or -1 (rows
 * free+1..target move up). Free rows may sit anywhere (a failed write, const
 * rows), so this never assumes the entries are packed.
 */
static int tcam_plan(const struct tab *tb, const struct ent *ne, uint32_t *target,
		     uint32_t *free_row, int *dir)
{
	uint32_t rows = tb->rows, p = 0, r, f;

	for (r = 0; r < rows; r++)
		if (tb->owner[r] && !tcam_before(tb, ne, &tb->ents[tb->owner[r] - 1]))
			p = r + 1;
	*dir = 0;
	if (p < rows && !tb->owner[p]) {
		*target = p;
		return 0;
	}
	for (f = p + 1; f < rows; f++)
		if (!tb->owner[f]) {
			*target = p;
			*free_row = f;
			*dir = 1;
			return 0;
		}
	for (f = p; f-- > 0;)
		if (!tb->owner[f]) {
			*target = p - 1;
			*free_row = f;
			*dir = -1;
			return 0;
		}
	return -PISA_E_FULL;
}

/* ---- table setup ---- */

static const char *tab_setup(struct tab *tb)
{
	const struct pisa_table *t = tb->t;
	const struct pisa_rt_table *rt = tb->rt;
	uint32_t bits = 0, tbits, kbase;
	size_t roff;
	unsigned i, j;

	tb->kb = pisa_row_key_bytes(t);
	tb->mb = pisa_row_match_bytes(t);
	tb->db = pisa_row_adata_bytes(t);
	tb->rb = pisa_row_bytes(t);
	if (!rt)
		return "no runtime names";
	if (t->mem == PISA_MEM_NONE)
		return rt->nkeys ? "keys in a keyless table" : NULL;
	if (tb->np > MAX_PIECES)
		return "split into too many pieces";
	for (i = 0; i < tb->np; i++) {
		const struct pisa_table *q = tb->pt[i];

		if (q->mem != t->mem || q->key_bits != t->key_bits || q->nkeys != t->nkeys ||
		    q->adata_bits != t->adata_bits)
			return "the pieces of a split table differ";
		for (j = 0; j < t->nkeys; j++)
			if (q->keys[j].field.bitoff != t->keys[j].field.bitoff ||
			    q->keys[j].field.width != t->keys[j].field.width ||
			    q->keys[j].match != t->keys[j].match)
				return "the pieces of a split table differ";
		if (q->mem == PISA_MEM_HASH && (q->ways < 1 || q->ways > PISA_HASH_MAX_WAYS ||
						q->way_bits > 24 || q->rows != (uint32_t)q->ways << q->way_bits))
			return "bad hash geometry";
	}
	tb->koff = calloc(rt->nkeys + 1, sizeof(*tb->koff));
	tb->rng = calloc(rt->nkeys + 1, sizeof(*tb->rng));
	if (!tb->koff || !tb->rng)
		return "out of memory";
	for (i = 0; i < rt->nkeys; i++)
		bits += rt->keys[i].width;
	if (bits != t->key_bits)
		return "runtime key widths do not add up to the key";
	kbase = (uint32_t)tb->kb * 8 - t->key_bits;
	for (i = 0, bits = 0; i < rt->nkeys; i++) {
		const struct pisa_rt_key *k = &rt->keys[i];

		if (k->width < 1 || k->width > PISA_VALUE_MAX_BITS)
			return "key wider than 128 bits";
		if (t->mem == PISA_MEM_HASH && k->match != PISA_MATCH_EXACT)
			return "non-exact key in a hash table";
		if (k->match == PISA_MATCH_TERNARY || k->match == PISA_MATCH_RANGE ||
		    k->match == PISA_MATCH_OPTIONAL)
			tb->has_prio = 1;
		tb->koff[i] = kbase + bits;
		bits += k->width;
	}
	/* range keys: each must be exactly one range field of the table */
	roff = PISA_ROW_HDR + 2 * tb->kb;
	for (j = 0, tbits = 0; j < t->nkeys; j++) {
		const struct pisa_key_field *f = &t->keys[j];
		int ok = 0;

		if (f->match == PISA_MATCH_RANGE) {
			for (i = 0, bits = 0; i < rt->nkeys; bits += rt->keys[i].width, i++)
				if (bits == tbits && rt->keys[i].match == PISA_MATCH_RANGE &&
				    rt->keys[i].width == f->field.width) {
					tb->rng[i] = (uint32_t)roff;
					ok = 1;
				}
			if (!ok)
				return "range key split over several fields";
			roff += 2 * (((size_t)f->field.width + 7) / 8);
		}
		tbits += f->field.width;
	}
	for (i = 0; i < rt->nkeys; i++)
		if (rt->keys[i].match == PISA_MATCH_RANGE && !tb->rng[i])
			return "range key without a range field";
	return NULL;
}

static unsigned leading_ones(const uint8_t m[PISA_VALUE_BYTES], unsigned width)
{
	unsigned i, n = 0;

	for (i = 0; i < width; i++) {
		unsigned b = PISA_VALUE_MAX_BITS - width + i;

		if (!(m[b / 8] & (0x80 >> (b % 8))))
			break;
		n++;
	}
	return n;
}

/* the prefix lengths of a TCAM row's lpm keys, summed (for ordering) */
static uint32_t row_plen(const struct tab *tb, const uint8_t *row)
{
	uint8_t m[PISA_VALUE_BYTES];
	uint32_t n = 0;
	unsigned i;

	if (tb->t->mem != PISA_MEM_TCAM)
		return 0;
	for (i = 0; i < tb->rt->nkeys; i++) {
		if (tb->rt->keys[i].match != PISA_MATCH_LPM)
			continue;
		pisa_value_get(row + PISA_ROW_HDR + tb->kb, tb->koff[i], tb->rt->keys[i].width, m);
		n += leading_ones(m, tb->rt->keys[i].width);
	}
	return n;
}

static void default_row(const struct tab *tb, uint8_t *row)
{
	const struct pisa_table *t = tb->tlast;
	size_t n = t->default_adata_len < tb->db ? t->default_adata_len : tb->db;

	memset(row, 0, tb->rb);
	row[0] = PISA_ROW_VALID;
	put_be16(row + 1, t->default_action);
	if (n && t->default_adata)
		memcpy(row + PISA_ROW_HDR + tb->mb, t->default_adata, n);
}

struct pisa_ctl *pisa_ctl_new(const struct pisa_image *img,
			      const struct pisa_switch_ops *ops, void *sw)
{
	struct pisa_ctl *c = calloc(1, sizeof(*c));
	unsigned i;

	if (!c)
		return NULL;
	c->img = img;
	c->ops = ops;
	c->sw = sw;
	c->tabs = calloc(img->ntables + 1u, sizeof(*c->tabs));
	c->meters = calloc(img->nmeters + 1u, sizeof(*c->meters));
	c->grp_used = calloc(img->mcast_groups + 1u, 1);
	c->grp_copies = calloc(img->mcast_groups + 1u, sizeof(*c->grp_copies));
	c->nodes = calloc(img->mcast_nodes + 1u, sizeof(*c->nodes));
	c->clones = calloc(img->clone_sessions + 1u, sizeof(*c->clones));
	if (!c->tabs || !c->meters || !c->grp_used || !c->grp_copies || !c->nodes || !c->clones)
		goto nomem;
	/* the pieces of a table split over stages share its P4Runtime id: the later
	 * ones are the first one's rows */
	for (i = 0; i < img->ntables; i++) {
		struct tab *tb = &c->tabs[i];
		uint32_t id = img->rt_tables ? img->rt_tables[i].p4info_id : 0;
		unsigned j;

		tb->t = &img->tables[i];
		tb->rt = img->rt_tables ? &img->rt_tables[i] : NULL;
		tb->first = -1;
		tb->prof = -1;
		for (j = 0; j < i && id; j++)
			if (c->tabs[j].first < 0 && img->rt_tables[j].p4info_id == id) {
				tb->first = (int)j;
				c->tabs[j].np++;
				break;
			}
	}
	for (i = 0; i < img->ntables; i++) {
		struct tab *tb = &c->tabs[i];
		uint32_t nconst = 0, k;
		unsigned j, p = 1;

		if (tb->first >= 0)
			continue;
		tb->np++;
		tb->piece = calloc(tb->np, sizeof(*tb->piece));
		tb->base = calloc(tb->np, sizeof(*tb->base));
		tb->pt = calloc(tb->np, sizeof(*tb->pt));
		if (!tb->piece || !tb->base || !tb->pt)
			goto nomem;
		tb->piece[0] = (uint16_t)i;
		tb->pt[0] = tb->t;
		tb->rows = tb->t->mem == PISA_MEM_NONE ? 0 : tb->t->rows;
		for (j = i + 1; j < img->ntables; j++)
			if (c->tabs[j].first == (int)i) {
				tb->piece[p] = (uint16_t)j;
				tb->pt[p] = &img->tables[j];
				tb->base[p++] = tb->rows;
				tb->rows += img->tables[j].rows;
			}
		tb->tlast = tb->pt[tb->np - 1];
		tb->broken = tab_setup(tb);
		if (tb->broken && !strcmp(tb->broken, "out of memory"))
			goto nomem;
		for (k = 0; k < img->nconst_rows; k++)
			for (j = 0; j < tb->np; j++)
				nconst += img->const_rows[k].table == tb->piece[j];
		tb->cap = tb->t->mem == PISA_MEM_NONE ? 0 : tb->rows;
		if (tb->rt && tb->rt->size && tb->rt->size < tb->cap)
			tb->cap = tb->rt->size;
		if (nconst > tb->cap)
			tb->cap = nconst;
		tb->ents = calloc(tb->cap + 1, sizeof(*tb->ents));
		tb->owner = calloc(tb->rows + 1, sizeof(*tb->owner));
		tb->defrow = calloc(tb->rb, 1);
		tb->zero = calloc(tb->rb, 1);
		if (!tb->ents || !tb->owner || !tb->defrow || !tb->zero)
			goto nomem;
		default_row(tb, tb->defrow);
	}
	c->profs = calloc(img->nprofiles + 1u, sizeof(*c->profs));
	if (!c->profs)
		goto nomem;
	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];
		struct prof *pf = &c->profs[i];
		unsigned j;

		pf->p = p;
		pf->mt = p->member_table;
		pf->w = img->tables[p->member_table].keys[0].field.width;
		pf->mbr = calloc(p->size + 1u, sizeof(*pf->mbr));
		pf->grp = calloc(p->size + 1u, sizeof(*pf->grp));
		pf->slot = calloc(p->slots + 1u, sizeof(*pf->slot));
		if (!pf->mbr || !pf->grp || !pf->slot)
			goto nomem;
		c->tabs[pf->mt].prof = (int)i;
		c->tabs[pf->mt].pti = -1;
		for (j = 0; j < p->ntables; j++) {
			c->tabs[p->tables[j].table].prof = (int)i;
			c->tabs[p->tables[j].table].pti = (int)j;
		}
	}
	for (i = 0; i < img->nmeters; i++) {
		if (img->meters[i].direct_table >= 0)
			continue;
		c->meters[i] = calloc(img->meters[i].size + 1, sizeof(struct mrate));
		if (!c->meters[i])
			goto nomem;
	}
	return c;
nomem:
	pisa_ctl_free(c);
	return NULL;
}

void pisa_ctl_free(struct pisa_ctl *c)
{
	unsigned i, j;

	if (!c)
		return;
	if (c->tabs) {
		for (i = 0; i < c->img->ntables; i++) {
			struct tab *tb = &c->tabs[i];

			if (tb->ents)
				for (j = 0; j < tb->cap; j++)
					free(tb->ents[j].bytes);
			free(tb->ents);
			free(tb->owner);
			free(tb->defrow);
			free(tb->zero);
			free(tb->koff);
			free(tb->rng);
			free(tb->piece);
			free(tb->base);
			free(tb->pt);
		}
	}
	if (c->meters)
		for (i = 0; i < c->img->nmeters; i++)
			free(c->meters[i]);
	if (c->nodes)
		for (i = 0; i < c->img->mcast_nodes; i++)
			free(c->nodes[i].ports);
	if (c->profs) {
		for (i = 0; i < c->img->nprofiles; i++) {
			struct prof *pf = &c->profs[i];

			if (!pf->p)
				continue;
			for (j = 0; pf->mbr && j < pf->p->size; j++)
				free(pf->mbr[j].row);
			for (j = 0; pf->grp && j < pf->p->size; j++)
				free(pf->grp[j].m);
			free(pf->mbr);
			free(pf->grp);
			free(pf->slot);
		}
		free(c->profs);
	}
	free(c->tabs);
	free(c->meters);
	free(c->grp_used);
	free(c->grp_copies);
	free(c->nodes);
	free(c->clones);
	free(c);
}

static int alloc_handle(const struct tab *tb, uint32_t *h)
{
	uint32_t i;

	for (i = 0; i < tb->cap; i++)
		if (!tb->ents[i].used) {
			*h = i;
			return 0;
		}
	return -PISA_E_FULL;
}

/* The default rows of a split table's pieces but the last: their own (a miss
 * goes on to the next piece), as the image has them. */
static int piece_defaults(struct pisa_ctl *c, const struct tab *tb)
{
	uint8_t *row = malloc(tb->rb);
	unsigned p;
	int rc = 0;

	if (!row)
		return -PISA_E_NOMEM;
	for (p = 0; p + 1 < tb->np && !rc; p++) {
		const struct pisa_table *t = tb->pt[p];
		size_t n = t->default_adata_len < tb->db ? t->default_adata_len : tb->db;

		memset(row, 0, tb->rb);
		row[0] = PISA_ROW_VALID;
		put_be16(row + 1, t->default_action);
		if (n && t->default_adata)
			memcpy(row + PISA_ROW_HDR + tb->mb, t->default_adata, n);
		rc = c->ops->write_row(c->sw, tb->piece[p], t->rows, row, tb->rb);
	}
	free(row);
	return rc;
}

int pisa_ctl_init(struct pisa_ctl *c)
{
	const struct pisa_image *img = c->img;
	unsigned i;
	int rc;

	for (i = 0; i < img->ntables; i++)
		if (c->tabs[i].first < 0 && ((rc = wr_row(c, i, c->tabs[i].rows, c->tabs[i].defrow)) ||
					     (rc = piece_defaults(c, &c->tabs[i]))))
			return rc;
	for (i = 0; i < img->nconst_rows; i++) {
		const struct pisa_const_row *cr = &img->const_rows[i];
		struct tab *tb;
		struct ent *e;
		uint32_t h, index = cr->index;
		unsigned t, p;

		if (cr->table >= img->ntables)
			return -PISA_E_FORMAT;
		t = c->tabs[cr->table].first < 0 ? cr->table : (unsigned)c->tabs[cr->table].first;
		tb = &c->tabs[t];
		for (p = 0; p < tb->np && tb->piece[p] != cr->table; p++)
			;
		if (p == tb->np || index >= tb->pt[p]->rows || cr->len != tb->rb)
			return -PISA_E_FORMAT;
		index += tb->base[p];
		if (tb->owner[index])
			return -PISA_E_FORMAT;
		if (alloc_handle(tb, &h))
			return -PISA_E_FULL;
		e = &tb->ents[h];
		e->bytes = malloc(tb->rb);
		if (!e->bytes)
			return -PISA_E_NOMEM;
		memcpy(e->bytes, cr->bytes, tb->rb);
		e->used = 1;
		e->fixed = 1;
		e->action = get_be16(cr->bytes + 1);
		/* the program's order is the row order */
		e->prio = tb->has_prio ? (int32_t)index : -1;
		e->plen = tb->broken ? 0 : row_plen(tb, cr->bytes);
		e->seq = tb->seq++;
		tb->count++;
		if ((rc = place_ent(c, t, h, index)))
			return rc;
	}
	return 0;
}

static int write_group(struct pisa_ctl *c, unsigned g);

int pisa_ctl_replay(struct pisa_ctl *c)
{
	const struct pisa_image *img = c->img;
	unsigned i, j;
	int rc;

	for (i = 0; i < img->ntables; i++) {
		struct tab *tb = &c->tabs[i];

		if (tb->first >= 0)
			continue;
		if ((rc = wr_row(c, i, tb->rows, tb->defrow)) || (rc = piece_defaults(c, tb)))
			return rc;
		if (tb->t->mem == PISA_MEM_NONE)
			continue;
		/* every row, free ones too: the switch may hold anything */
		for (j = 0; j < tb->rows; j++) {
			struct ent *e = tb->owner[j] ? &tb->ents[tb->owner[j] - 1] : NULL;

			if (e && e->meter.cfg.configured && (rc = mtr_set(c, tb, j, &e->meter.cfg)))
				return rc;
			if ((rc = wr_row(c, i, j, e ? e->bytes : tb->zero)))
				return rc;
		}
	}
	for (i = 0; i < img->nmeters; i++) {
		if (!c->meters[i])
			continue;
		for (j = 0; j < img->meters[i].size; j++)
			if (c->meters[i][j].cfg.configured &&
			    (rc = c->ops->meter_write(c->sw, (uint16_t)i, j, &c->meters[i][j].cfg)))
				return rc;
	}
	for (i = 1; i < img->mcast_groups; i++)
		if (c->grp_used[i] && c->grp_copies[i] && (rc = write_group(c, i)))
			return rc;
	for (i = 0; i < img->clone_sessions; i++)
		if (c->clones[i].enabled && (rc = c->ops->clone_write(c->sw, (uint16_t)i, &c->clones[i])))
			return rc;
	return 0;
}

/* ---- output helpers ---- */

static void print_hex(FILE *o, const uint8_t v[PISA_VALUE_BYTES], unsigned width, const char *sep)
{
	unsigned n = (width + 7) / 8, i;

	for (i = 0; i < n; i++)
		fprintf(o, "%s%02x", i ? sep : "", v[PISA_VALUE_BYTES - n + i]);
}

static const char *tab_match_type(const struct tab *tb)
{
	unsigned i, lpm = 0, tern = 0;

	for (i = 0; tb->rt && i < tb->rt->nkeys; i++) {
		switch (tb->rt->keys[i].match) {
		case PISA_MATCH_RANGE: return "range";
		case PISA_MATCH_LPM: lpm = 1; break;
		case PISA_MATCH_EXACT: break;
		default: tern = 1; break;
		}
	}
	return tern ? "ternary" : lpm ? "lpm" : "exact";
}

/* ---- parsing keys and action data ---- */

struct kval {			/* one parsed key, as typed (for printing) */
	uint8_t v[PISA_VALUE_BYTES], m[PISA_VALUE_BYTES];	/* m: mask or range end */
	uint32_t plen;
};

static int parse_val(struct cx *x, const char *what, const char *name, const char *tok,
		     unsigned width, uint8_t v[PISA_VALUE_BYTES])
{
	const char *why = "";
	int rc = pisa_value_parse(tok, width, v, &why);

	if (rc == -PISA_E_RANGE && !strcmp(why, "value is too large"))
		return fail(x, PISA_E_RANGE, "%s %s: '%s' does not fit in %u bits", what, name, tok,
			    width);
	if (rc)
		return fail(x, -rc, "%s %s: '%s': %s", what, name, tok, why);
	return 0;
}

/* splits tok at sep into a (copied) and b; 0 if sep occurs exactly once */
static int split2(const char *tok, const char *sep, char *a, size_t alen, const char **b)
{
	const char *p = strstr(tok, sep);

	if (!p || strstr(p + strlen(sep), sep) || (size_t)(p - tok) >= alen)
		return -1;
	memcpy(a, tok, (size_t)(p - tok));
	a[p - tok] = '\0';
	*b = p + strlen(sep);
	return 0;
}

static void and_val(uint8_t *v, const uint8_t *m)
{
	unsigned i;

	for (i = 0; i < PISA_VALUE_BYTES; i++)
		v[i] &= m[i];
}

/* Encodes the match part of row from the key tokens. */
static int parse_keys(struct cx *x, struct tab *tb, char **toks, uint8_t *row,
		      struct kval *kv, uint32_t *plen)
{
	const struct pisa_rt_table *rt = tb->rt;
	int tcam = tb->t->mem == PISA_MEM_TCAM;
	uint8_t *val = row + PISA_ROW_HDR, *msk = row + PISA_ROW_HDR + tb->kb;
	unsigned i;
	int rc;

	*plen = 0;
	for (i = 0; i < rt->nkeys; i++) {
		const struct pisa_rt_key *k = &rt->keys[i];
		struct kval *q = &kv[i];
		char a[128];
		const char *b;
		uint8_t v[PISA_VALUE_BYTES], m[PISA_VALUE_BYTES];
		uint64_t n;

		switch (k->match) {
		case PISA_MATCH_EXACT:
			if ((rc = parse_val(x, "key", k->name, toks[i], k->width, q->v)))
				return rc;
			memcpy(v, q->v, sizeof(v));
			pisa_value_prefix_mask(k->width, k->width, m);
			break;
		case PISA_MATCH_LPM:
			if (split2(toks[i], "/", a, sizeof(a), &b))
				return fail(x, PISA_E_INVAL,
					    "key %s: invalid LPM value '%s', use '/' to separate prefix and length",
					    k->name, toks[i]);
			if ((rc = parse_val(x, "key", k->name, a, k->width, q->v)))
				return rc;
			if ((rc = pisa_value_parse_dec(b, k->width, &n)))
				return fail(x, -rc, "key %s: bad prefix length '%s' (0..%u)", k->name, b,
					    k->width);
			q->plen = (uint32_t)n;
			*plen += q->plen;
			pisa_value_prefix_mask(k->width, q->plen, m);
			memcpy(v, q->v, sizeof(v));
			and_val(v, m);
			break;
		case PISA_MATCH_RANGE:
			if (split2(toks[i], "->", a, sizeof(a), &b))
				return fail(x, PISA_E_INVAL,
					    "key %s: invalid range value '%s', use '->' to separate range start and range end",
					    k->name, toks[i]);
			if ((rc = parse_val(x, "key", k->name, a, k->width, q->v)) ||
			    (rc = parse_val(x, "key", k->name, b, k->width, q->m)))
				return rc;
			if (memcmp(q->v, q->m, PISA_VALUE_BYTES) > 0)
				return fail(x, PISA_E_INVAL, "key %s: range start is greater than end in '%s'",
					    k->name, toks[i]);
			break;
		default:	/* ternary, optional */
			if (split2(toks[i], "&&&", a, sizeof(a), &b))
				return fail(x, PISA_E_INVAL,
					    "key %s: invalid ternary value '%s', use '&&&' to separate key and mask",
					    k->name, toks[i]);
			if ((rc = parse_val(x, "key", k->name, a, k->width, q->v)) ||
			    (rc = parse_val(x, "key", k->name, b, k->width, q->m)))
				return rc;
			memcpy(v, q->v, sizeof(v));
			memcpy(m, q->m, sizeof(m));
			and_val(v, m);
			break;
		}
		if (k->match == PISA_MATCH_RANGE) {
			size_t n8 = ((size_t)k->width + 7) / 8;

			pisa_value_put(row + tb->rng[i], 8 * n8 - k->width, k->width, q->v);
			pisa_value_put(row + tb->rng[i] + n8, 8 * n8 - k->width, k->width, q->m);
			continue;
		}
		pisa_value_put(val, tb->koff[i], k->width, v);
		if (tcam)
			pisa_value_put(msk, tb->koff[i], k->width, m);
	}
	return 0;
}

/* Encodes action aid and its parameter tokens into row; pv gets the values. */
static int parse_params(struct cx *x, struct tab *tb, unsigned aid, char **toks, unsigned n,
			uint8_t *row, uint8_t (*pv)[PISA_VALUE_BYTES])
{
	const struct pisa_rt_action *a = &x->c->img->rt_actions[aid];
	uint8_t *ad = row + PISA_ROW_HDR + tb->mb;
	unsigned i;
	int rc;

	if (n != a->nparams)
		return fail(x, PISA_E_INVAL, "action %s needs %u parameters, got %u", a->name,
			    a->nparams, n);
	for (i = 0; i < n; i++) {
		const struct pisa_rt_param *p = &a->params[i];

		if (p->width < 1 || p->width > PISA_VALUE_MAX_BITS ||
		    (size_t)p->adata_off + p->width > tb->db * 8)
			return fail(x, PISA_E_FORMAT, "action %s: parameter %s lies outside the action data of table %s",
				    a->name, p->name, tab_name(x->c, (unsigned)(tb - x->c->tabs)));
		if ((rc = parse_val(x, "parameter", p->name, toks[i], p->width, pv[i])))
			return rc;
		pisa_value_put(ad, p->adata_off, p->width, pv[i]);
	}
	row[0] = PISA_ROW_VALID;
	put_be16(row + 1, (uint16_t)aid);
	return 0;
}

static void print_runtime_data(FILE *o, const struct pisa_rt_action *a,
			       uint8_t (*pv)[PISA_VALUE_BYTES])
{
	unsigned i;

	fprintf(o, "%-20s ", "runtime data:");
	for (i = 0; i < a->nparams; i++) {
		if (i)
			fputc('\t', o);
		print_hex(o, pv[i], a->params[i].width, ":");
	}
	fputc('\n', o);
}

static int parse_handle(struct cx *x, struct tab *tb, const char *tok, uint32_t *h)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for entry handle '%s', expected an integer",
			    tok);
	if (v >= tb->cap || !tb->ents[v].used)
		return fail(x, PISA_E_NOTFOUND, "table %s has no entry with handle %s (INVALID_HANDLE)",
			    tab_name(x->c, (unsigned)(tb - x->c->tabs)), tok);
	*h = (uint32_t)v;
	return 0;
}

static int nargs(struct cx *x, const char *cmd, int argc, int lo, int hi, const char *usage)
{
	if (argc < lo || argc > hi)
		return fail(x, PISA_E_INVAL, "%s: wrong number of arguments (%d); usage: %s %s", cmd,
			    argc, cmd, usage);
	return 0;
}

/* ---- table commands ---- */

/*
 * Places a new entry into table tid: its row (match part, action and data
 * encoded) is checked for a duplicate key, given a handle and a place, then
 * written, rows moving as needed. Takes row over on success.
 */
static int insert_entry(struct cx *x, unsigned tid, uint8_t *row, int32_t prio, uint32_t plen,
			uint32_t *hout)
{
	struct pisa_ctl *c = x->c;
	struct tab *tb = &c->tabs[tid];
	uint32_t h, path[CUCKOO_MAX_NODES + 1], pos = 0, free_row = 0, i;
	unsigned npath = 0;
	struct ent ne, *e;
	int dir = 0, rc;

	/* duplicates, room, placement: all decided before any write */
	if (tb->t->mem == PISA_MEM_HASH) {
		int d = hash_find(tb, row + PISA_ROW_HDR);

		if (d >= 0)
			return fail(x, PISA_E_EXISTS,
				    "table %s already has an entry with this key (handle %d) (DUPLICATE_ENTRY)",
				    tb->rt->name, d);
	} else {
		for (i = 0; i < tb->cap; i++) {
			e = &tb->ents[i];
			if (e->used && e->prio == prio &&
			    !memcmp(e->bytes + PISA_ROW_HDR, row + PISA_ROW_HDR, tb->mb))
				return fail(x, PISA_E_EXISTS,
					    "table %s already has an entry with this key%s (handle %u) (DUPLICATE_ENTRY)",
					    tb->rt->name, tb->has_prio ? " and priority" : "", i);
		}
	}
	if (tb->count >= tb->cap || alloc_handle(tb, &h))
		return fail(x, PISA_E_FULL, "table %s is full (%u entries) (TABLE_FULL)", tb->rt->name,
			    tb->count);
	memset(&ne, 0, sizeof(ne));
	ne.prio = prio;
	ne.plen = plen;
	ne.seq = tb->seq;
	if (tb->t->mem == PISA_MEM_HASH) {
		rc = hash_plan(tb, row + PISA_ROW_HDR, path, &npath);
		if (rc == -PISA_E_FULL)
			rc = fail(x, PISA_E_FULL,
				  "table %s is full: no free way for this key within %d moves (TABLE_FULL)",
				  tb->rt->name, CUCKOO_MAX_NODES);
		if (rc)
			return rc;
	} else if (tcam_plan(tb, &ne, &pos, &free_row, &dir)) {
		return fail(x, PISA_E_FULL, "table %s is full (TABLE_FULL)", tb->rt->name);
	}

	e = &tb->ents[h];
	*e = ne;
	e->used = 1;
	e->action = get_be16(row + 1);
	e->bytes = row;
	tb->seq++;
	tb->count++;
	if (tb->t->mem == PISA_MEM_HASH) {
		unsigned j;

		for (j = npath - 1; j > 0; j--)
			if ((rc = move_ent(c, tid, tb->owner[path[j - 1]] - 1, path[j])))
				goto wfail;
		rc = place_ent(c, tid, h, path[0]);
	} else {
		uint32_t r;

		/* each move fills the row the previous one emptied */
		if (dir > 0)
			for (r = free_row; r > pos; r--)
				if ((rc = move_ent(c, tid, tb->owner[r - 1] - 1, r)))
					goto wfail;
		if (dir < 0)
			for (r = free_row; r < pos; r++)
				if ((rc = move_ent(c, tid, tb->owner[r + 1] - 1, r)))
					goto wfail;
		rc = place_ent(c, tid, h, pos);
	}
	if (rc)
		goto wfail;
	*hout = h;
	return 0;
wfail:
	/* the shadow follows what was written; the new entry is not in */
	e->bytes = NULL;
	free_ent(e);
	tb->count--;
	return fail(x, -rc, "switch write failed while adding to %s: %s", tb->rt->name, errname(rc));
}

/* The priority at the end of argv (tables with ternary or range keys); -1 otherwise. */
static int pop_priority(struct cx *x, struct tab *tb, int *argc, char **argv, int32_t *prio)
{
	uint64_t v;

	*prio = -1;
	if (!tb->has_prio)
		return 0;
	if (*argc < 1 || pisa_value_parse_dec(argv[*argc - 1], INT32_MAX, &v))
		return fail(x, PISA_E_INVAL,
			    "table %s has ternary/range keys: the last token must be a priority (an integer), got '%s'",
			    tb->rt->name, *argc ? argv[*argc - 1] : "");
	*prio = (int32_t)v;
	(*argc)--;
	return 0;
}

static int cmd_table_add(struct cx *x, int argc, char **argv)
{
	struct pisa_ctl *c = x->c;
	unsigned tid, aid, nk, np, i;
	struct tab *tb;
	const struct pisa_table_action *ta;
	const struct pisa_rt_action *ra;
	int32_t prio;
	int sep = -1, rc;
	uint8_t *row = NULL, (*pv)[PISA_VALUE_BYTES] = NULL;
	struct kval *kv = NULL;
	uint32_t plen, h;

	if (argc < 2)
		return fail(x, PISA_E_INVAL,
			    "table_add: usage: table_add <table> <action> <keys> => <params> [priority]");
	if ((rc = find_table(x, argv[0], &tid)) || (rc = not_indirect(x, tid, "table_indirect_add")))
		return rc;
	tb = &c->tabs[tid];
	if (tb->rt->const_entries)
		return fail(x, PISA_E_INVAL, "table %s has const entries: cannot add entries",
			    tb->rt->name);
	if (tb->t->mem == PISA_MEM_NONE)
		return fail(x, PISA_E_INVAL, "table %s has no key: use table_set_default",
			    tb->rt->name);
	if ((rc = find_action(x, tid, argv[1], &aid)))
		return rc;
	ta = tab_action(tb->t, aid);
	ra = &c->img->rt_actions[aid];
	if (ta->flags & PISA_TA_DEFAULT_ONLY)
		return fail(x, PISA_E_INVAL, "action %s is default-only in table %s", ra->name,
			    tb->rt->name);
	argc -= 2;
	argv += 2;
	if ((rc = pop_priority(x, tb, &argc, argv, &prio)))
		return rc;
	for (i = 0; i < (unsigned)argc; i++)
		if (!strcmp(argv[i], "=>")) {
			sep = (int)i;
			break;
		}
	nk = sep < 0 ? (unsigned)argc : (unsigned)sep;
	np = sep < 0 ? 0 : (unsigned)(argc - sep - 1);
	if (nk != tb->rt->nkeys)
		return fail(x, PISA_E_INVAL, "table %s needs %u key fields, got %u", tb->rt->name,
			    tb->rt->nkeys, nk);
	row = calloc(tb->rb, 1);
	pv = calloc(ra->nparams + 1u, sizeof(*pv));
	kv = calloc(tb->rt->nkeys + 1u, sizeof(*kv));
	if (!row || !pv || !kv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	if ((rc = parse_params(x, tb, aid, argv + nk + 1, np, row, pv)) ||
	    (rc = parse_keys(x, tb, argv, row, kv, &plen)) ||
	    (rc = insert_entry(x, tid, row, prio, plen, &h)))
		goto out;
	row = NULL;	/* the entry's now */

	fprintf(x->o, "Adding entry to %s match table %s\n", tab_match_type(tb), argv[-2]);
	fprintf(x->o, "%-20s ", "match key:");
	for (i = 0; i < tb->rt->nkeys; i++) {
		const struct pisa_rt_key *k = &tb->rt->keys[i];

		if (i)
			fputc('\t', x->o);
		switch (k->match) {
		case PISA_MATCH_EXACT:
			fputs("EXACT-", x->o);
			print_hex(x->o, kv[i].v, k->width, ":");
			break;
		case PISA_MATCH_LPM:
			fputs("LPM-", x->o);
			print_hex(x->o, kv[i].v, k->width, ":");
			fprintf(x->o, "/%u", kv[i].plen);
			break;
		case PISA_MATCH_RANGE:
			fputs("RANGE-", x->o);
			print_hex(x->o, kv[i].v, k->width, ":");
			fputs(" -> ", x->o);
			print_hex(x->o, kv[i].m, k->width, ":");
			break;
		default:
			fputs("TERNARY-", x->o);
			print_hex(x->o, kv[i].v, k->width, ":");
			fputs(" &&& ", x->o);
			print_hex(x->o, kv[i].m, k->width, ":");
			break;
		}
	}
	fputc('\n', x->o);
	fprintf(x->o, "%-20s %s\n", "action:", argv[-1]);
	print_runtime_data(x->o, ra, pv);
	fprintf(x->o, "Entry has been added with handle %u\n", h);
out:
	free(row);
	free(pv);
	free(kv);
	return rc;
}

static int cmd_table_modify(struct cx *x, int argc, char **argv)
{
	unsigned tid, aid, np;
	struct tab *tb;
	const struct pisa_rt_action *ra;
	uint32_t h;
	uint8_t *row = NULL, (*pv)[PISA_VALUE_BYTES] = NULL;
	char **params;
	int rc;

	if (argc < 3)
		return fail(x, PISA_E_INVAL,
			    "table_modify: usage: table_modify <table> <action> <handle> [=>] <params>");
	if ((rc = find_table(x, argv[0], &tid)) ||
	    (rc = not_indirect(x, tid, "table_indirect_modify")))
		return rc;
	tb = &x->c->tabs[tid];
	if (tb->rt->const_entries)
		return fail(x, PISA_E_INVAL, "table %s has const entries: cannot modify entries",
			    tb->rt->name);
	if ((rc = find_action(x, tid, argv[1], &aid)))
		return rc;
	ra = &x->c->img->rt_actions[aid];
	if (tab_action(tb->t, aid)->flags & PISA_TA_DEFAULT_ONLY)
		return fail(x, PISA_E_INVAL, "action %s is default-only in table %s", ra->name,
			    tb->rt->name);
	if ((rc = parse_handle(x, tb, argv[2], &h)))
		return rc;
	params = argv + 3;
	np = (unsigned)argc - 3;
	if (np && !strcmp(params[0], "=>")) {
		params++;
		np--;
	}
	row = malloc(tb->rb);
	pv = calloc(ra->nparams + 1u, sizeof(*pv));
	if (!row || !pv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	/* same match part, new action and data */
	memcpy(row, tb->ents[h].bytes, tb->rb);
	memset(row + PISA_ROW_HDR + tb->mb, 0, tb->db);
	if ((rc = parse_params(x, tb, aid, params, np, row, pv)))
		goto out;
	fprintf(x->o, "Modifying entry %u for %s match table %s\n", h, tab_match_type(tb), argv[0]);
	if ((rc = wr_row(x->c, tid, tb->ents[h].row, row))) {
		rc = fail(x, -rc, "switch write failed while modifying %s: %s", tb->rt->name,
			  errname(rc));
		goto out;
	}
	memcpy(tb->ents[h].bytes, row, tb->rb);
	tb->ents[h].action = (uint16_t)aid;
out:
	free(row);
	free(pv);
	return rc;
}

/* Counts a use of a member or group by an entry, default or group (delta +1 / -1). */
static void ind_ref(struct pisa_ctl *c, const struct tab *tb, unsigned kind, uint32_t h, int delta)
{
	struct prof *pf = tb->prof >= 0 ? &c->profs[tb->prof] : NULL;

	if (!pf || h >= pf->p->size)
		return;
	if (kind == IND_MEMBER && pf->mbr[h].used)
		pf->mbr[h].refs += (uint32_t)delta;
	else if (kind == IND_GROUP && pf->grp[h].used)
		pf->grp[h].refs += (uint32_t)delta;
}

/* Removes entry h from its table (rows, counter cell, shadow). */
static int del_entry(struct pisa_ctl *c, unsigned tid, uint32_t h)
{
	struct tab *tb = &c->tabs[tid];
	uint32_t row = tb->ents[h].row, r;
	int rc;

	if ((rc = clear_row(c, tid, row)))
		return rc;
	ind_ref(c, tb, tb->ents[h].ind, tb->ents[h].ind_h, -1);
	free_ent(&tb->ents[h]);
	tb->count--;
	if (tb->t->mem != PISA_MEM_TCAM)
		return 0;
	/* close the gap, top down, up to the next free row */
	for (r = row + 1; r < tb->rows && tb->owner[r]; r++)
		if ((rc = move_ent(c, tid, tb->owner[r] - 1, r - 1)))
			return rc;
	return 0;
}

static int cmd_table_delete(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	struct tab *tb;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "table_delete", argc, 2, 2, "<table> <entry handle>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	tb = &x->c->tabs[tid];
	if (tb->rt->const_entries)
		return fail(x, PISA_E_INVAL, "table %s has const entries: cannot delete entries",
			    tb->rt->name);
	if ((rc = parse_handle(x, tb, argv[1], &h)))
		return rc;
	fprintf(x->o, "Deleting entry %u from %s\n", h, argv[0]);
	if ((rc = del_entry(x->c, tid, h)))
		return fail(x, -rc, "switch write failed while deleting from %s: %s", tb->rt->name,
			    errname(rc));
	return 0;
}

static int clear_table(struct pisa_ctl *c, unsigned tid, int keep_fixed)
{
	struct tab *tb = &c->tabs[tid];
	uint32_t h;
	int rc;

	/* from the last row up; what stays may leave gaps, which inserts handle */
	while (tb->count) {
		uint32_t best = UINT32_MAX, brow = 0;

		for (h = 0; h < tb->cap; h++)
			if (tb->ents[h].used && !(keep_fixed && tb->ents[h].fixed) &&
			    (best == UINT32_MAX || tb->ents[h].row > brow)) {
				best = h;
				brow = tb->ents[h].row;
			}
		if (best == UINT32_MAX)
			break;
		if ((rc = clear_row(c, tid, brow)))
			return rc;
		ind_ref(c, tb, tb->ents[best].ind, tb->ents[best].ind_h, -1);
		free_ent(&tb->ents[best]);
		tb->count--;
	}
	return 0;
}

static int cmd_table_clear(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	int rc;

	if ((rc = nargs(x, "table_clear", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	if (x->c->tabs[tid].rt->const_entries)
		return fail(x, PISA_E_INVAL, "table %s has const entries: cannot clear it",
			    tab_name(x->c, tid));
	if ((rc = clear_table(x->c, tid, 0)))
		return fail(x, -rc, "switch write failed while clearing %s: %s", tab_name(x->c, tid),
			    errname(rc));
	return 0;
}

static int set_default(struct cx *x, unsigned tid, const uint8_t *row)
{
	struct tab *tb = &x->c->tabs[tid];
	int rc = wr_row(x->c, tid, tb->rows, row);

	if (rc)
		return fail(x, -rc, "switch write failed while setting the default of %s: %s",
			    tb->rt->name, errname(rc));
	memcpy(tb->defrow, row, tb->rb);
	ind_ref(x->c, tb, tb->def_ind, tb->def_h, -1);
	tb->def_ind = IND_NONE;
	return 0;
}

static int cmd_table_set_default(struct cx *x, int argc, char **argv)
{
	unsigned tid, aid;
	struct tab *tb;
	const struct pisa_rt_action *ra;
	uint8_t *row = NULL, (*pv)[PISA_VALUE_BYTES] = NULL;
	int rc;

	if (argc < 2)
		return fail(x, PISA_E_INVAL,
			    "table_set_default: usage: table_set_default <table> <action> <params>");
	if ((rc = find_table(x, argv[0], &tid)) ||
	    (rc = not_indirect(x, tid, "table_indirect_set_default")))
		return rc;
	tb = &x->c->tabs[tid];
	if (tb->rt->const_default)
		return fail(x, PISA_E_INVAL, "table %s has a const default action: cannot change it",
			    tb->rt->name);
	if ((rc = find_action(x, tid, argv[1], &aid)))
		return rc;
	ra = &x->c->img->rt_actions[aid];
	if (tab_action(tb->t, aid)->flags & PISA_TA_TABLE_ONLY)
		return fail(x, PISA_E_INVAL, "action %s is table-only in table %s: not a default action",
			    ra->name, tb->rt->name);
	row = calloc(tb->rb, 1);
	pv = calloc(ra->nparams + 1u, sizeof(*pv));
	if (!row || !pv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	if ((rc = parse_params(x, tb, aid, argv + 2, (unsigned)argc - 2, row, pv)))
		goto out;
	fprintf(x->o, "Setting default action of %s\n", argv[0]);
	fprintf(x->o, "%-20s %s\n", "action:", argv[1]);
	print_runtime_data(x->o, ra, pv);
	rc = set_default(x, tid, row);
out:
	free(row);
	free(pv);
	return rc;
}

static int cmd_table_reset_default(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	uint8_t *row;
	int rc;

	if ((rc = nargs(x, "table_reset_default", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	if (x->c->tabs[tid].rt->const_default)
		return fail(x, PISA_E_INVAL, "table %s has a const default action: cannot change it",
			    tab_name(x->c, tid));
	row = malloc(x->c->tabs[tid].rb);
	if (!row)
		return -PISA_E_NOMEM;
	default_row(&x->c->tabs[tid], row);
	rc = set_default(x, tid, row);
	free(row);
	return rc;
}

static int cmd_table_num_entries(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	int rc;

	if ((rc = nargs(x, "table_num_entries", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	fprintf(x->o, "%u\n", x->c->tabs[tid].count);
	return 0;
}

static void dump_action(struct cx *x, const struct tab *tb, const uint8_t *row)
{
	unsigned aid = get_be16(row + 1), i;
	const struct pisa_rt_action *a;

	if (aid >= x->c->img->nactions) {
		fprintf(x->o, "EMPTY\n");
		return;
	}
	a = &x->c->img->rt_actions[aid];
	fprintf(x->o, "Action entry: %s - ", a->name);
	for (i = 0; i < a->nparams; i++) {
		uint8_t v[PISA_VALUE_BYTES];

		if ((size_t)a->params[i].adata_off + a->params[i].width > tb->db * 8)
			continue;
		pisa_value_get(row + PISA_ROW_HDR + tb->mb, a->params[i].adata_off,
			       a->params[i].width, v);
		if (i)
			fputs(", ", x->o);
		print_hex(x->o, v, a->params[i].width, "");
	}
	fputc('\n', x->o);
}

/* What an entry or default runs: its action, or, in an action profile's match
 * table, the member or group (no member: the member table's default action). */
static void dump_target(struct cx *x, const struct tab *tb, unsigned kind, uint32_t h,
			const uint8_t *row)
{
	const struct tab *mt;

	if (tb->prof < 0) {
		dump_action(x, tb, row);
		return;
	}
	if (kind == IND_MEMBER || kind == IND_GROUP) {
		fprintf(x->o, "Index: %s(%u)\n", kind == IND_MEMBER ? "member" : "group", h);
		return;
	}
	mt = &x->c->tabs[x->c->profs[tb->prof].mt];
	dump_action(x, mt, mt->defrow);
}

static void dump_entry(struct cx *x, const struct tab *tb, uint32_t h)
{
	const struct ent *e = &tb->ents[h];
	const struct pisa_rt_table *rt = tb->rt;
	const uint8_t *val = e->bytes + PISA_ROW_HDR, *msk = e->bytes + PISA_ROW_HDR + tb->kb;
	int w = 20;
	unsigned i;

	for (i = 0; i < rt->nkeys; i++)
		if ((int)strlen(rt->keys[i].name) > w)
			w = (int)strlen(rt->keys[i].name);
	fprintf(x->o, "Dumping entry 0x%x\n", h);
	fprintf(x->o, "Match key:\n");
	for (i = 0; i < rt->nkeys; i++) {
		const struct pisa_rt_key *k = &rt->keys[i];
		uint8_t v[PISA_VALUE_BYTES], m[PISA_VALUE_BYTES];
		size_t n8 = ((size_t)k->width + 7) / 8;

		if (k->match == PISA_MATCH_RANGE) {
			pisa_value_get(e->bytes + tb->rng[i], 8 * n8 - k->width, k->width, v);
			pisa_value_get(e->bytes + tb->rng[i] + n8, 8 * n8 - k->width, k->width, m);
		} else {
			pisa_value_get(val, tb->koff[i], k->width, v);
			if (tb->t->mem == PISA_MEM_TCAM)
				pisa_value_get(msk, tb->koff[i], k->width, m);
		}
		fprintf(x->o, "* %-*s: ", w, k->name);
		switch (k->match) {
		case PISA_MATCH_EXACT:
			fprintf(x->o, "%-10s", "EXACT");
			print_hex(x->o, v, k->width, "");
			break;
		case PISA_MATCH_LPM:
			fprintf(x->o, "%-10s", "LPM");
			print_hex(x->o, v, k->width, "");
			fprintf(x->o, "/%u", leading_ones(m, k->width));
			break;
		case PISA_MATCH_RANGE:
			fprintf(x->o, "%-10s", "RANGE");
			print_hex(x->o, v, k->width, "");
			fputs(" -> ", x->o);
			print_hex(x->o, m, k->width, "");
			break;
		default:
			fprintf(x->o, "%-10s", "TERNARY");
			print_hex(x->o, v, k->width, "");
			fputs(" &&& ", x->o);
			print_hex(x->o, m, k->width, "");
			break;
		}
		fputc('\n', x->o);
	}
	if (tb->has_prio)
		fprintf(x->o, "Priority: %d\n", e->prio);
	dump_target(x, tb, e->ind, e->ind_h, e->bytes);
}

static int cmd_table_dump(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	struct tab *tb;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "table_dump", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	tb = &x->c->tabs[tid];
	fprintf(x->o, "==========\nTABLE ENTRIES\n");
	for (h = 0; h < tb->cap; h++) {
		if (!tb->ents[h].used)
			continue;
		fprintf(x->o, "**********\n");
		dump_entry(x, tb, h);
	}
	fprintf(x->o, "==========\nDumping default entry\n");
	dump_target(x, tb, tb->def_ind, tb->def_h, tb->defrow);
	fprintf(x->o, "==========\n");
	return 0;
}

static int cmd_table_dump_entry(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "table_dump_entry", argc, 2, 2, "<table> <entry handle>")) ||
	    (rc = find_table(x, argv[0], &tid)) ||
	    (rc = parse_handle(x, &x->c->tabs[tid], argv[1], &h)))
		return rc;
	dump_entry(x, &x->c->tabs[tid], h);
	return 0;
}

/* table_dump_entry_from_key <table> <keys> [priority] */
static int cmd_table_dump_entry_from_key(struct cx *x, int argc, char **argv)
{
	unsigned tid, i;
	struct tab *tb;
	struct kval *kv = NULL;
	uint8_t *row = NULL;
	int32_t prio = -1;
	uint32_t plen;
	int rc, h = -1;

	if (argc < 1)
		return fail(x, PISA_E_INVAL,
			    "table_dump_entry_from_key: usage: table_dump_entry_from_key <table> <keys> [priority]");
	if ((rc = find_table(x, argv[0], &tid)))
		return rc;
	tb = &x->c->tabs[tid];
	argc--;
	argv++;
	if ((rc = pop_priority(x, tb, &argc, argv, &prio)))
		return rc;
	if ((unsigned)argc != tb->rt->nkeys)
		return fail(x, PISA_E_INVAL, "table %s needs %u key fields, got %d", tb->rt->name,
			    tb->rt->nkeys, argc);
	row = calloc(tb->rb, 1);
	kv = calloc(tb->rt->nkeys + 1u, sizeof(*kv));
	if (!row || !kv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	if ((rc = parse_keys(x, tb, argv, row, kv, &plen)))
		goto out;
	if (tb->t->mem == PISA_MEM_HASH) {
		h = hash_find(tb, row + PISA_ROW_HDR);
	} else {
		for (i = 0; i < tb->cap && h < 0; i++)
			if (tb->ents[i].used && tb->ents[i].prio == prio &&
			    !memcmp(tb->ents[i].bytes + PISA_ROW_HDR, row + PISA_ROW_HDR, tb->mb))
				h = (int)i;
	}
	if (h < 0)
		rc = fail(x, PISA_E_NOTFOUND, "table %s has no entry with this key (BAD_MATCH_KEY)",
			  tb->rt->name);
	else
		dump_entry(x, tb, (uint32_t)h);
out:
	free(row);
	free(kv);
	return rc;
}

/* ---- action profiles and selectors ---- */

static const char *prof_name(const struct pisa_ctl *c, unsigned i)
{
	return c->img->rt_profiles[i].name ? c->img->rt_profiles[i].name : "";
}

static int find_profile(struct cx *x, const char *tok, struct prof **pf)
{
	unsigned id;
	int rc = resolve(x, "action profile", "action profiles", tok, x->c->img->nprofiles,
			 prof_name, NULL, &id);

	if (rc)
		return rc;
	*pf = &x->c->profs[id];
	if (x->c->tabs[(*pf)->mt].broken)
		return fail(x, PISA_E_FORMAT, "action profile %s cannot be used: %s",
			    prof_name(x->c, id), x->c->tabs[(*pf)->mt].broken);
	return 0;
}

static int need_selector(struct cx *x, const struct prof *pf)
{
	if (pf->p->with_selector)
		return 0;
	return fail(x, PISA_E_INVAL, "action profile %s has no selector: groups need an action_selector",
		    pf->p->name);
}

/* A member (grp 0) or group (grp 1) handle of profile pf that exists. */
static int parse_ind(struct cx *x, const struct prof *pf, int grp, const char *tok, uint32_t *h)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for %s handle '%s', expected an integer",
			    grp ? "group" : "member", tok);
	if (v >= pf->p->size || !(grp ? pf->grp[v].used : pf->mbr[v].used))
		return fail(x, PISA_E_NOTFOUND, "action profile %s has no %s with handle %s (%s)",
			    pf->p->name, grp ? "group" : "member", tok,
			    grp ? "INVALID_GRP_HANDLE" : "INVALID_MBR_HANDLE");
	*h = (uint32_t)v;
	return 0;
}

/* The member table key of group slot i: after the members' keys. */
static uint32_t slot_key(const struct prof *pf, uint32_t i)
{
	return pf->p->size + i;
}

/* The member table entry with key idx gets the action and data of src (a member
 * table row): rewritten in place, or added. */
static int mt_set(struct cx *x, struct prof *pf, uint32_t idx, const uint8_t *src)
{
	struct tab *tb = &x->c->tabs[pf->mt];
	uint8_t *row = malloc(tb->rb);
	uint32_t h;
	int d, rc;

	if (!row)
		return -PISA_E_NOMEM;
	memcpy(row, src, tb->rb);
	memset(row + PISA_ROW_HDR, 0, tb->kb);
	pisa_bits_set(row + PISA_ROW_HDR, tb->kb * 8 - pf->w, pf->w, idx);
	d = hash_find(tb, row + PISA_ROW_HDR);
	if (d >= 0) {
		struct ent *e = &tb->ents[d];

		if ((rc = wr_row(x->c, pf->mt, e->row, row))) {
			free(row);
			return fail(x, -rc, "switch write failed while writing action profile %s: %s",
				    pf->p->name, errname(rc));
		}
		free(e->bytes);
		e->bytes = row;
		e->action = get_be16(row + 1);
		return 0;
	}
	rc = insert_entry(x, pf->mt, row, -1, 0, &h);
	if (rc)
		free(row);
	if (rc == -PISA_E_FULL)
		fail(x, PISA_E_FULL, "action profile %s: no room in its member table for index %u (TABLE_FULL)",
		     pf->p->name, idx);
	return rc;
}

/* Removes the member table entry with key idx, if there is one. */
static int mt_del(struct cx *x, struct prof *pf, uint32_t idx)
{
	struct tab *tb = &x->c->tabs[pf->mt];
	uint8_t key[8] = { 0 };
	int d, rc;

	pisa_bits_set(key, tb->kb * 8 - pf->w, pf->w, idx);
	d = hash_find(tb, key);
	if (d < 0)
		return 0;
	if ((rc = del_entry(x->c, pf->mt, (uint32_t)d)))
		return fail(x, -rc, "switch write failed while writing action profile %s: %s",
			    pf->p->name, errname(rc));
	return 0;
}

/* Action and data of a match table row that points at member or group h (an
 * empty group, or IND_NONE: the all-ones index, i.e. the default action). */
static void ind_row(const struct pisa_ctl *c, unsigned tid, unsigned kind, uint32_t h, uint8_t *row)
{
	const struct tab *tb = &c->tabs[tid];
	const struct prof *pf = &c->profs[tb->prof];
	const struct pisa_rt_profile_table *pt = &pf->p->tables[tb->pti];
	uint8_t *ad = row + PISA_ROW_HDR + tb->mb;

	memset(ad, 0, tb->db);
	row[0] = PISA_ROW_VALID;
	if (kind == IND_GROUP && pf->grp[h].n) {
		put_be16(row + 1, pt->group_action);
		pisa_bits_set(ad, 0, pf->w, slot_key(pf, pf->grp[h].base));
		pisa_bits_set(ad, pf->w, pf->w, pf->grp[h].n);
		return;
	}
	put_be16(row + 1, pt->member_action);
	pisa_bits_set(ad, 0, pf->w, kind == IND_MEMBER ? h : (UINT64_C(1) << pf->w) - 1);
}

/* Rewrites the entries and defaults that point at group g (it moved or resized). */
static int group_moved(struct cx *x, struct prof *pf, uint32_t g)
{
	unsigned j;
	uint32_t h;
	int rc = 0;

	for (j = 0; j < pf->p->ntables && !rc; j++) {
		unsigned tid = pf->p->tables[j].table;
		struct tab *tb = &x->c->tabs[tid];

		for (h = 0; h < tb->cap && !rc; h++) {
			struct ent *e = &tb->ents[h];

			if (!e->used || e->ind != IND_GROUP || e->ind_h != g)
				continue;
			ind_row(x->c, tid, IND_GROUP, g, e->bytes);
			e->action = get_be16(e->bytes + 1);
			rc = wr_row(x->c, tid, e->row, e->bytes);
		}
		if (!rc && tb->def_ind == IND_GROUP && tb->def_h == g) {
			ind_row(x->c, tid, IND_GROUP, g, tb->defrow);
			rc = wr_row(x->c, tid, tb->rows, tb->defrow);
		}
	}
	if (rc)
		return fail(x, -rc, "switch write failed while writing action profile %s: %s",
			    pf->p->name, errname(rc));
	return 0;
}

/*
 * Group g gets the n members m (ascending; the group takes the array over on
 * success): slots first, then what points at the group, then the slots it no
 * longer uses. The slots stay in place when they can grow there.
 */
static int regroup(struct cx *x, struct prof *pf, uint32_t g, uint32_t *m, uint32_t n)
{
	struct pgrp *gr = &pf->grp[g];
	uint32_t b = gr->base, k = gr->cnt, nb = b, i, run = 0;
	int in_place = k > 0, rc;

	for (i = k; in_place && i < n; i++)
		if (b + i >= pf->p->slots || pf->slot[b + i])
			in_place = 0;
	if (n && !in_place) {
		for (i = 0; i < pf->p->slots && run < n; i++)
			run = pf->slot[i] ? 0 : run + 1;
		if (run < n)
			return fail(x, PISA_E_FULL, "action profile %s: no %u free group slots in a row (%u slots) (TABLE_FULL)",
				    pf->p->name, n, pf->p->slots);
		nb = i - n;
	}
	for (i = 0; i < n; i++) {
		if ((rc = mt_set(x, pf, slot_key(pf, nb + i), pf->mbr[m[i]].row)))
			return rc;
		pf->slot[nb + i] = g + 1;
	}
	free(gr->m);
	gr->m = m;
	gr->n = n;
	gr->base = nb;
	if ((nb != b || n != k) && (rc = group_moved(x, pf, g)))
		return rc;
	for (i = 0; i < k; i++) {
		uint32_t sl = b + i;

		if (sl >= nb && sl < nb + n)
			continue;
		if ((rc = mt_del(x, pf, slot_key(pf, sl))))
			return rc;
		pf->slot[sl] = 0;
	}
	gr->cnt = n;
	return 0;
}

/*
 * act_prof_create_member <profile> <action> [params] (modify 0) and
 * act_prof_modify_member <profile> <action> <member> [=>] [params] (modify 1): the
 * member's row in the member table and, when modified, its copies in group slots.
 */
static int member_write(struct cx *x, int argc, char **argv, unsigned modify)
{
	struct prof *pf;
	struct tab *mt;
	unsigned aid, np;
	uint32_t h, g, i;
	uint8_t *row = NULL, (*pv)[PISA_VALUE_BYTES] = NULL;
	char **params;
	int rc;

	if (argc < 2 + (int)modify)
		return fail(x, PISA_E_INVAL, "%s: usage: %s <action profile> <action> %s[params]",
			    modify ? "act_prof_modify_member" : "act_prof_create_member",
			    modify ? "act_prof_modify_member" : "act_prof_create_member",
			    modify ? "<member handle> " : "");
	if ((rc = find_profile(x, argv[0], &pf)) || (rc = find_action(x, pf->mt, argv[1], &aid)) ||
	    (modify && (rc = parse_ind(x, pf, 0, argv[2], &h))))
		return rc;
	mt = &x->c->tabs[pf->mt];
	if (tab_action(mt->t, aid)->flags & PISA_TA_DEFAULT_ONLY)
		return fail(x, PISA_E_INVAL, "action %s is default-only: it cannot be a member of %s",
			    act_name(x->c, aid), pf->p->name);
	if (!modify) {
		for (h = 0; h < pf->p->size && pf->mbr[h].used; h++)
			;
		if (h == pf->p->size)
			return fail(x, PISA_E_FULL, "action profile %s is full (%u members) (TABLE_FULL)",
				    pf->p->name, pf->p->size);
	}
	params = argv + 2 + modify;
	np = (unsigned)argc - 2 - modify;
	if (modify && np && !strcmp(params[0], "=>")) {
		params++;
		np--;
	}
	row = calloc(mt->rb, 1);
	pv = calloc(x->c->img->rt_actions[aid].nparams + 1u, sizeof(*pv));
	if (!row || !pv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	if ((rc = parse_params(x, mt, aid, params, np, row, pv)) || (rc = mt_set(x, pf, h, row)))
		goto out;
	/* the member's copies in the groups' slots */
	for (g = 0; modify && g < pf->p->size && !rc; g++)
		for (i = 0; pf->grp[g].used && i < pf->grp[g].n && !rc; i++)
			if (pf->grp[g].m[i] == h)
				rc = mt_set(x, pf, slot_key(pf, pf->grp[g].base + i), row);
	free(pf->mbr[h].row);
	pf->mbr[h].row = row;
	row = NULL;
	if (!modify) {
		pf->mbr[h].used = 1;
		pf->mbr[h].refs = 0;
		fprintf(x->o, "Member has been created with handle %u\n", h);
	}
out:
	free(row);
	free(pv);
	return rc;
}

static int cmd_act_prof_delete_member(struct cx *x, int argc, char **argv)
{
	struct prof *pf;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "act_prof_delete_member", argc, 2, 2, "<action profile> <member handle>")) ||
	    (rc = find_profile(x, argv[0], &pf)) || (rc = parse_ind(x, pf, 0, argv[1], &h)))
		return rc;
	if (pf->mbr[h].refs)
		return fail(x, PISA_E_INVAL, "member %u of action profile %s is still used by %u entries or groups (MBR_STILL_USED)",
			    h, pf->p->name, pf->mbr[h].refs);
	if ((rc = mt_del(x, pf, h)))
		return rc;
	free(pf->mbr[h].row);
	memset(&pf->mbr[h], 0, sizeof(pf->mbr[h]));
	return 0;
}

static int cmd_act_prof_create_group(struct cx *x, int argc, char **argv)
{
	struct prof *pf;
	uint32_t g;
	int rc;

	if ((rc = nargs(x, "act_prof_create_group", argc, 1, 1, "<action profile>")) ||
	    (rc = find_profile(x, argv[0], &pf)) || (rc = need_selector(x, pf)))
		return rc;
	for (g = 0; g < pf->p->size && pf->grp[g].used; g++)
		;
	if (g == pf->p->size)
		return fail(x, PISA_E_FULL, "action profile %s has no room for another group (%u groups) (TABLE_FULL)",
			    pf->p->name, pf->p->size);
	memset(&pf->grp[g], 0, sizeof(pf->grp[g]));
	pf->grp[g].used = 1;
	fprintf(x->o, "Group has been created with handle %u\n", g);
	return 0;
}

static int cmd_act_prof_delete_group(struct cx *x, int argc, char **argv)
{
	struct prof *pf;
	uint32_t g, i;
	int rc;

	if ((rc = nargs(x, "act_prof_delete_group", argc, 2, 2, "<action profile> <group handle>")) ||
	    (rc = find_profile(x, argv[0], &pf)) || (rc = need_selector(x, pf)) ||
	    (rc = parse_ind(x, pf, 1, argv[1], &g)))
		return rc;
	if (pf->grp[g].refs)
		return fail(x, PISA_E_INVAL, "group %u of action profile %s is still used by %u entries (GRP_STILL_USED)",
			    g, pf->p->name, pf->grp[g].refs);
	for (i = 0; i < pf->grp[g].n; i++)
		pf->mbr[pf->grp[g].m[i]].refs--;
	if ((rc = regroup(x, pf, g, NULL, 0)))
		return rc;
	memset(&pf->grp[g], 0, sizeof(pf->grp[g]));
	return 0;
}

/* act_prof_add_member_to_group / act_prof_remove_member_from_group <profile> <member> <group> */
static int member_group(struct cx *x, int argc, char **argv, unsigned add)
{
	const char *cmd = add ? "act_prof_add_member_to_group" : "act_prof_remove_member_from_group";
	struct prof *pf;
	struct pgrp *gr;
	uint32_t h, g, i, j, *m;
	int rc, in = 0;

	if ((rc = nargs(x, cmd, argc, 3, 3, "<action profile> <member handle> <group handle>")) ||
	    (rc = find_profile(x, argv[0], &pf)) || (rc = need_selector(x, pf)) ||
	    (rc = parse_ind(x, pf, 0, argv[1], &h)) || (rc = parse_ind(x, pf, 1, argv[2], &g)))
		return rc;
	gr = &pf->grp[g];
	for (i = 0; i < gr->n; i++)
		in |= gr->m[i] == h;
	if (add && in)
		return fail(x, PISA_E_EXISTS, "member %u is already in group %u of action profile %s (MBR_ALREADY_IN_GRP)",
			    h, g, pf->p->name);
	if (!add && !in)
		return fail(x, PISA_E_NOTFOUND, "member %u is not in group %u of action profile %s (MBR_NOT_IN_GRP)",
			    h, g, pf->p->name);
	m = calloc(gr->n + 2u, sizeof(*m));
	if (!m)
		return -PISA_E_NOMEM;
	for (i = 0, j = 0; i < gr->n; i++) {
		if (add && j == i && gr->m[i] > h)
			m[j++] = h;	/* ascending handles */
		if (add || gr->m[i] != h)
			m[j++] = gr->m[i];
	}
	if (add && j == gr->n)
		m[j++] = h;
	if ((rc = regroup(x, pf, g, m, j))) {
		free(m);
		return rc;
	}
	if (add)
		pf->mbr[h].refs++;
	else
		pf->mbr[h].refs--;
	return 0;
}

static void dump_member(struct cx *x, const struct prof *pf, uint32_t h)
{
	fprintf(x->o, "Dumping member %u\n", h);
	dump_action(x, &x->c->tabs[pf->mt], pf->mbr[h].row);
}

static void dump_group(struct cx *x, const struct prof *pf, uint32_t g)
{
	uint32_t i;

	fprintf(x->o, "Dumping group %u\nMembers: [", g);
	for (i = 0; i < pf->grp[g].n; i++)
		fprintf(x->o, "%s%u", i ? ", " : "", pf->grp[g].m[i]);
	fprintf(x->o, "]\n");
}

static int cmd_act_prof_dump(struct cx *x, int argc, char **argv)
{
	struct prof *pf;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "act_prof_dump", argc, 1, 1, "<action profile>")) ||
	    (rc = find_profile(x, argv[0], &pf)))
		return rc;
	fprintf(x->o, "==========\nMEMBERS\n");
	for (h = 0; h < pf->p->size; h++)
		if (pf->mbr[h].used) {
			fprintf(x->o, "**********\n");
			dump_member(x, pf, h);
		}
	if (pf->p->with_selector) {
		fprintf(x->o, "==========\nGROUPS\n");
		for (h = 0; h < pf->p->size; h++)
			if (pf->grp[h].used) {
				fprintf(x->o, "**********\n");
				dump_group(x, pf, h);
			}
	}
	fprintf(x->o, "==========\n");
	return 0;
}

/* act_prof_dump_member / act_prof_dump_group <action profile> <handle> */
static int dump_one(struct cx *x, int argc, char **argv, unsigned grp)
{
	struct prof *pf;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, grp ? "act_prof_dump_group" : "act_prof_dump_member", argc, 2, 2,
			grp ? "<action profile> <group handle>" : "<action profile> <member handle>")) ||
	    (rc = find_profile(x, argv[0], &pf)) || (grp && (rc = need_selector(x, pf))) ||
	    (rc = parse_ind(x, pf, (int)grp, argv[1], &h)))
		return rc;
	if (grp)
		dump_group(x, pf, h);
	else
		dump_member(x, pf, h);
	return 0;
}

/* An action profile's match table; with groups (ws), one with a selector. */
static int indirect_table(struct cx *x, const char *tok, unsigned *tid, int ws)
{
	const struct tab *tb;
	int rc;

	if ((rc = find_table(x, tok, tid)))
		return rc;
	tb = &x->c->tabs[*tid];
	if (tb->prof < 0)
		return fail(x, PISA_E_INVAL, "table %s is not indirect (no action profile): use the table_ commands",
			    tab_name(x->c, *tid));
	if (ws)
		return need_selector(x, &x->c->profs[tb->prof]);
	return 0;
}

/* table_indirect_add[_with_group] <table> <keys> => <member or group> [priority] */
static int indirect_add(struct cx *x, int argc, char **argv, unsigned kind)
{
	const char *cmd = kind == IND_GROUP ? "table_indirect_add_with_group" : "table_indirect_add";
	struct pisa_ctl *c = x->c;
	struct kval *kv = NULL;
	struct tab *tb;
	uint8_t *row = NULL;
	unsigned tid;
	int32_t prio;
	uint32_t plen, h, ih;
	int sep = -1, i, rc;

	if (argc < 1)
		return fail(x, PISA_E_INVAL, "%s: usage: %s <table> <keys> => <%s handle> [priority]",
			    cmd, cmd, kind == IND_GROUP ? "group" : "member");
	if ((rc = indirect_table(x, argv[0], &tid, kind == IND_GROUP)))
		return rc;
	tb = &c->tabs[tid];
	argc--;
	argv++;
	if ((rc = pop_priority(x, tb, &argc, argv, &prio)))
		return rc;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "=>")) {
			sep = i;
			break;
		}
	if (sep < 0 || argc != sep + 2)
		return fail(x, PISA_E_INVAL, "%s: invalid arguments, expected '=> <handle>' after the keys",
			    cmd);
	if ((unsigned)sep != tb->rt->nkeys)
		return fail(x, PISA_E_INVAL, "table %s needs %u key fields, got %d", tb->rt->name,
			    tb->rt->nkeys, sep);
	if ((rc = parse_ind(x, &c->profs[tb->prof], kind == IND_GROUP, argv[sep + 1], &ih)))
		return rc;
	row = calloc(tb->rb, 1);
	kv = calloc(tb->rt->nkeys + 1u, sizeof(*kv));
	if (!row || !kv) {
		rc = -PISA_E_NOMEM;
		goto out;
	}
	if ((rc = parse_keys(x, tb, argv, row, kv, &plen)))
		goto out;
	ind_row(c, tid, kind, ih, row);
	if ((rc = insert_entry(x, tid, row, prio, plen, &h)))
		goto out;
	row = NULL;
	tb->ents[h].ind = (uint8_t)kind;
	tb->ents[h].ind_h = ih;
	ind_ref(c, tb, kind, ih, 1);
	fprintf(x->o, "Adding entry to indirect match table %s\n", argv[-1]);
	fprintf(x->o, "Entry has been added with handle %u\n", h);
out:
	free(row);
	free(kv);
	return rc;
}

static int cmd_table_indirect_delete(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	uint32_t h;
	int rc;

	if ((rc = nargs(x, "table_indirect_delete", argc, 2, 2, "<table> <entry handle>")) ||
	    (rc = indirect_table(x, argv[0], &tid, 0)) ||
	    (rc = parse_handle(x, &x->c->tabs[tid], argv[1], &h)))
		return rc;
	fprintf(x->o, "Deleting entry %u from %s\n", h, argv[0]);
	if ((rc = del_entry(x->c, tid, h)))
		return fail(x, -rc, "switch write failed while deleting from %s: %s",
			    tab_name(x->c, tid), errname(rc));
	return 0;
}

/* table_indirect_modify[_with_group] <table> <entry handle> <member or group> */
static int indirect_modify(struct cx *x, int argc, char **argv, unsigned kind)
{
	const char *cmd = kind == IND_GROUP ? "table_indirect_modify_with_group" : "table_indirect_modify";
	struct tab *tb;
	struct ent *e;
	unsigned tid;
	uint32_t h, ih;
	uint8_t *row;
	int rc;

	if ((rc = nargs(x, cmd, argc, 3, 3, "<table> <entry handle> <handle>")) ||
	    (rc = indirect_table(x, argv[0], &tid, kind == IND_GROUP)) ||
	    (rc = parse_handle(x, &x->c->tabs[tid], argv[1], &h)))
		return rc;
	tb = &x->c->tabs[tid];
	if ((rc = parse_ind(x, &x->c->profs[tb->prof], kind == IND_GROUP, argv[2], &ih)))
		return rc;
	e = &tb->ents[h];
	row = malloc(tb->rb);
	if (!row)
		return -PISA_E_NOMEM;
	memcpy(row, e->bytes, tb->rb);
	ind_row(x->c, tid, kind, ih, row);
	if ((rc = wr_row(x->c, tid, e->row, row))) {
		free(row);
		return fail(x, -rc, "switch write failed while modifying %s: %s", tb->rt->name,
			    errname(rc));
	}
	free(e->bytes);
	e->bytes = row;
	e->action = get_be16(row + 1);
	ind_ref(x->c, tb, e->ind, e->ind_h, -1);
	e->ind = (uint8_t)kind;
	e->ind_h = ih;
	ind_ref(x->c, tb, kind, ih, 1);
	return 0;
}

/* table_indirect_set_default[_with_group] <table> <member or group>;
 * table_indirect_reset_default <table> (kind IND_NONE) */
static int indirect_default(struct cx *x, int argc, char **argv, unsigned kind)
{
	const char *cmd = kind == IND_GROUP ? "table_indirect_set_default_with_group" :
			  kind == IND_MEMBER ? "table_indirect_set_default" :
			  "table_indirect_reset_default";
	struct tab *tb;
	unsigned tid;
	uint32_t ih = 0;
	uint8_t *row;
	int rc;

	if ((rc = nargs(x, cmd, argc, kind ? 2 : 1, kind ? 2 : 1,
			kind ? "<table> <handle>" : "<table>")) ||
	    (rc = indirect_table(x, argv[0], &tid, kind == IND_GROUP)))
		return rc;
	tb = &x->c->tabs[tid];
	if (tb->rt->const_default)
		return fail(x, PISA_E_INVAL, "table %s has a const default action: cannot change it",
			    tb->rt->name);
	if (kind && (rc = parse_ind(x, &x->c->profs[tb->prof], kind == IND_GROUP, argv[1], &ih)))
		return rc;
	row = malloc(tb->rb);
	if (!row)
		return -PISA_E_NOMEM;
	memcpy(row, tb->defrow, tb->rb);
	ind_row(x->c, tid, kind, ih, row);
	rc = set_default(x, tid, row);
	free(row);
	if (rc)
		return rc;
	tb->def_ind = (uint8_t)kind;
	tb->def_h = ih;
	ind_ref(x->c, tb, kind, ih, 1);
	return 0;
}

static int by_name_tab(const void *a, const void *b, void *c)
{
	return strcmp(tab_name(c, *(const unsigned *)a), tab_name(c, *(const unsigned *)b));
}

static int by_name_act(const void *a, const void *b, void *c)
{
	return strcmp(act_name(c, *(const unsigned *)a), act_name(c, *(const unsigned *)b));
}

static void table_str(struct cx *x, unsigned tid)
{
	const struct pisa_rt_table *rt = x->c->img->rt_tables ? &x->c->img->rt_tables[tid] : NULL;
	const struct tab *tb = &x->c->tabs[tid];
	unsigned j;

	fprintf(x->o, "%-30s [implementation=%s, mk=", tab_name(x->c, tid),
		tb->prof >= 0 ? x->c->img->rt_profiles[tb->prof].name : "None");
	for (j = 0; rt && j < rt->nkeys; j++)
		fprintf(x->o, "%s%s(%s, %u)", j ? ",\t" : "", rt->keys[j].name,
			match_name(rt->keys[j].match), rt->keys[j].width);
	fprintf(x->o, "]\n");
}

static void action_str(struct cx *x, unsigned aid)
{
	const struct pisa_rt_action *a = &x->c->img->rt_actions[aid];
	unsigned j;

	fprintf(x->o, "%-30s [", act_name(x->c, aid));
	for (j = 0; j < a->nparams; j++)
		fprintf(x->o, "%s%s(%u)", j ? ",\t" : "", a->params[j].name, a->params[j].width);
	fprintf(x->o, "]\n");
}

/* the table's actions by name (table_info, table_show_actions) */
static int table_actions(struct cx *x, unsigned tid)
{
	const struct pisa_table *t = x->c->tabs[tid].t;
	unsigned *ord, i;

	ord = calloc(t->nactions + 1u, sizeof(*ord));
	if (!ord)
		return -PISA_E_NOMEM;
	for (i = 0; i < t->nactions; i++)
		ord[i] = t->actions[i].action;
	qsort_r(ord, t->nactions, sizeof(*ord), by_name_act, x->c);
	for (i = 0; i < t->nactions; i++)
		action_str(x, ord[i]);
	free(ord);
	return 0;
}

static int cmd_table_info(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	int rc;

	if ((rc = nargs(x, "table_info", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	table_str(x, tid);
	fprintf(x->o, "********************************************************************************\n");
	return table_actions(x, tid);
}

static int cmd_table_show_actions(struct cx *x, int argc, char **argv)
{
	unsigned tid;
	int rc;

	if ((rc = nargs(x, "table_show_actions", argc, 1, 1, "<table>")) ||
	    (rc = find_table(x, argv[0], &tid)))
		return rc;
	return table_actions(x, tid);
}

static int cmd_show_tables(struct cx *x, int argc, char **argv)
{
	const struct pisa_image *img = x->c->img;
	unsigned *ord, i;
	int rc;

	if ((rc = nargs(x, "show_tables", argc, 0, 0, "")))
		return rc;
	ord = calloc(img->ntables + 1u, sizeof(*ord));
	if (!ord)
		return -PISA_E_NOMEM;
	for (i = 0; i < img->ntables; i++)
		ord[i] = i;
	qsort_r(ord, img->ntables, sizeof(*ord), by_name_tab, x->c);
	for (i = 0; i < img->ntables; i++)	/* gateways and code blocks are the compiler's */
		if (pisa_p4info_table_visible(img, ord[i]))
			table_str(x, ord[i]);
	free(ord);
	return 0;
}

static int cmd_show_actions(struct cx *x, int argc, char **argv)
{
	const struct pisa_image *img = x->c->img;
	unsigned *ord, i;
	int rc;

	if ((rc = nargs(x, "show_actions", argc, 0, 0, "")))
		return rc;
	if (!img->rt_actions)
		return 0;
	ord = calloc(img->nactions + 1u, sizeof(*ord));
	if (!ord)
		return -PISA_E_NOMEM;
	for (i = 0; i < img->nactions; i++)
		ord[i] = i;
	qsort_r(ord, img->nactions, sizeof(*ord), by_name_act, x->c);
	for (i = 0; i < img->nactions; i++)
		if (img->rt_actions[ord[i]].p4info_id)	/* 0: compiler-made code */
			action_str(x, ord[i]);
	free(ord);
	return 0;
}

static int cmd_switch_info(struct cx *x, int argc, char **argv)
{
	const struct pisa_image *img = x->c->img;
	int rc;

	if ((rc = nargs(x, "switch_info", argc, 0, 0, "")))
		return rc;
	/* BMv2 prints "{:{w}}: {}" with w = 5 + the longest attribute name */
	fprintf(x->o, "%-19s: %d\n", "device_id", 0);
	fprintf(x->o, "%-19s: %.*s\n", "board", (int)sizeof(img->board), img->board);
	fprintf(x->o, "%-19s: %.*s\n", "program", (int)sizeof(img->program), img->program);
	fprintf(x->o, "%-19s: %u\n", "stages", img->nstages);
	fprintf(x->o, "%-19s: %u\n", "tables", img->ntables);
	fprintf(x->o, "%-19s: %u\n", "phv_bytes", img->phv_bytes);
	fprintf(x->o, "%-19s: %u\n", "cpu_port", img->cpu_port);
	fprintf(x->o, "%-19s: %u\n", "mcast_groups", img->mcast_groups);
	fprintf(x->o, "%-19s: %u\n", "mcast_nodes", img->mcast_nodes);
	fprintf(x->o, "%-19s: %u\n", "clone_sessions", img->clone_sessions);
	return 0;
}

/* ---- counters, registers, meters ---- */

/* The table a direct counter or meter belongs to (a split table's first piece). */
static struct tab *direct_tab(const struct pisa_ctl *c, int16_t t)
{
	return &c->tabs[c->tabs[t].first < 0 ? t : c->tabs[t].first];
}

/* Counter *id's cell for index token tok; a direct counter's is its entry's (in a
 * split table, *id becomes the counter of the entry's piece). */
static int ctr_cell(struct cx *x, unsigned *id, const char *tok, uint32_t *cell)
{
	const struct pisa_counter *ct = &x->c->img->counters[*id];
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for index '%s', expected an integer", tok);
	if (ct->direct_table >= 0) {
		struct tab *tb = direct_tab(x->c, ct->direct_table);
		int c;

		if (v >= tb->cap || !tb->ents[v].used)
			return fail(x, PISA_E_NOTFOUND,
				    "counter %s is direct: table %s has no entry with handle %s (INVALID_HANDLE)",
				    ctr_name(x->c, *id), tab_name(x->c, (unsigned)ct->direct_table), tok);
		*cell = tb->ents[v].row;
		c = direct_cell(x->c, tb, cell, 1);
		*id = c < 0 ? *id : (unsigned)c;
		return 0;
	}
	if (v >= ct->size)
		return fail(x, PISA_E_RANGE, "counter %s: index %s out of range (size %u) (INVALID_INDEX)",
			    ctr_name(x->c, *id), tok, ct->size);
	*cell = (uint32_t)v;
	return 0;
}

/* Direct counters and meters by name: those of a split table's later pieces are the
 * first piece's. */
static int find_direct(struct cx *x, const char *what, const char *among, const char *tok,
		       unsigned n, name_fn nm, int ctr, unsigned *id)
{
	uint16_t *ids = calloc(n + 1u, sizeof(*ids));
	unsigned i, k = 0;
	int rc;

	if (!ids)
		return -PISA_E_NOMEM;
	for (i = 0; i < n; i++) {
		int16_t t = ctr ? x->c->img->counters[i].direct_table : x->c->img->meters[i].direct_table;

		if (t < 0 || x->c->tabs[t].first < 0)
			ids[k++] = (uint16_t)i;
	}
	rc = resolve(x, what, among, tok, k, nm, ids, id);
	free(ids);
	return rc;
}

static int find_counter(struct cx *x, const char *tok, unsigned *id)
{
	return find_direct(x, "counter", "counters", tok, x->c->img->ncounters, ctr_name, 1, id);
}

static int cmd_counter_read(struct cx *x, int argc, char **argv)
{
	const struct pisa_counter *ct;
	unsigned id;
	uint32_t cell;
	uint64_t p, b;
	int rc;

	if ((rc = nargs(x, "counter_read", argc, 2, 2, "<name> <index>")) ||
	    (rc = find_counter(x, argv[0], &id)) || (rc = ctr_cell(x, &id, argv[1], &cell)))
		return rc;
	ct = &x->c->img->counters[id];
	if ((rc = x->c->ops->counter_read(x->c->sw, (uint16_t)id, cell, &p, &b)))
		return fail(x, -rc, "switch: reading counter %s failed: %s", ctr_name(x->c, id),
			    errname(rc));
	if (ct->direct_table >= 0)
		fprintf(x->o, "this is the direct counter for table %s\n",
			tab_name(x->c, (unsigned)ct->direct_table));
	fprintf(x->o, "%s[%s]= (%llu bytes, %llu packets)\n", argv[0], argv[1],
		(unsigned long long)b, (unsigned long long)p);
	return 0;
}

static int cmd_counter_write(struct cx *x, int argc, char **argv)
{
	const struct pisa_counter *ct;
	unsigned id;
	uint32_t cell;
	uint64_t p, b;
	int rc;

	if ((rc = nargs(x, "counter_write", argc, 4, 4, "<name> <index> <packets> <bytes>")) ||
	    (rc = find_counter(x, argv[0], &id)) || (rc = ctr_cell(x, &id, argv[1], &cell)))
		return rc;
	if (pisa_value_parse_dec(argv[2], UINT64_MAX, &p))
		return fail(x, PISA_E_INVAL, "bad format for packets '%s', expected an integer", argv[2]);
	if (pisa_value_parse_dec(argv[3], UINT64_MAX, &b))
		return fail(x, PISA_E_INVAL, "bad format for bytes '%s', expected an integer", argv[3]);
	ct = &x->c->img->counters[id];
	if (ct->direct_table >= 0)
		fprintf(x->o, "writing to direct counter for table %s\n",
			tab_name(x->c, (unsigned)ct->direct_table));
	if ((rc = x->c->ops->counter_write(x->c->sw, (uint16_t)id, cell, p, b)))
		return fail(x, -rc, "switch: writing counter %s failed: %s", ctr_name(x->c, id),
			    errname(rc));
	fprintf(x->o, "%s[%s] has been updated\n", argv[0], argv[1]);
	return 0;
}

static int cmd_counter_reset(struct cx *x, int argc, char **argv)
{
	const struct pisa_counter *ct;
	unsigned id;
	uint32_t i;
	int rc;

	if ((rc = nargs(x, "counter_reset", argc, 1, 1, "<name>")) ||
	    (rc = find_counter(x, argv[0], &id)))
		return rc;
	ct = &x->c->img->counters[id];
	if (ct->direct_table >= 0) {
		struct tab *tb = direct_tab(x->c, ct->direct_table);

		fprintf(x->o, "this is the direct counter for table %s\n",
			tab_name(x->c, (unsigned)ct->direct_table));
		/* rows without an entry never count: only the entries' cells */
		for (i = 0; i < tb->cap; i++)
			if (tb->ents[i].used && (rc = ctr_zero(x->c, tb, tb->ents[i].row)))
				break;
	} else {
		for (i = 0; i < ct->size; i++)
			if ((rc = x->c->ops->counter_write(x->c->sw, (uint16_t)id, i, 0, 0)))
				break;
	}
	if (rc)
		return fail(x, -rc, "switch: resetting counter %s failed: %s", ctr_name(x->c, id),
			    errname(rc));
	return 0;
}

static int find_register(struct cx *x, const char *tok, unsigned *id)
{
	return resolve(x, "register", "registers", tok, x->c->img->nregisters, reg_name, NULL, id);
}

static int reg_index(struct cx *x, unsigned id, const char *tok, uint32_t *idx)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for index '%s', expected an integer", tok);
	if (v >= x->c->img->registers[id].size)
		return fail(x, PISA_E_RANGE, "register %s: index %s out of range (size %u) (INVALID_INDEX)",
			    reg_name(x->c, id), tok, x->c->img->registers[id].size);
	*idx = (uint32_t)v;
	return 0;
}

static int cmd_register_read(struct cx *x, int argc, char **argv)
{
	const struct pisa_register *rg;
	unsigned id;
	uint32_t i, idx;
	uint64_t v;
	int rc;

	if ((rc = nargs(x, "register_read", argc, 1, 2, "<name> [index]")) ||
	    (rc = find_register(x, argv[0], &id)))
		return rc;
	rg = &x->c->img->registers[id];
	if (argc == 2) {
		if ((rc = reg_index(x, id, argv[1], &idx)))
			return rc;
		if ((rc = x->c->ops->register_read(x->c->sw, (uint16_t)id, idx, &v)))
			return fail(x, -rc, "switch: reading register %s failed: %s",
				    reg_name(x->c, id), errname(rc));
		fprintf(x->o, "%s[%s]= %llu\n", argv[0], argv[1], (unsigned long long)v);
		return 0;
	}
	fprintf(x->o, "%s= ", argv[0]);
	for (i = 0; i < rg->size; i++) {
		if ((rc = x->c->ops->register_read(x->c->sw, (uint16_t)id, i, &v)))
			return fail(x, -rc, "switch: reading register %s failed: %s",
				    reg_name(x->c, id), errname(rc));
		fprintf(x->o, "%s%llu", i ? ", " : "", (unsigned long long)v);
	}
	fputc('\n', x->o);
	return 0;
}

static int cmd_register_write(struct cx *x, int argc, char **argv)
{
	const struct pisa_register *rg;
	unsigned id;
	uint32_t idx;
	uint64_t v, max;
	int rc;

	if ((rc = nargs(x, "register_write", argc, 3, 3, "<name> <index> <value>")) ||
	    (rc = find_register(x, argv[0], &id)) || (rc = reg_index(x, id, argv[1], &idx)))
		return rc;
	rg = &x->c->img->registers[id];
	max = rg->width >= 64 ? UINT64_MAX : (UINT64_C(1) << rg->width) - 1;
	rc = pisa_value_parse_dec(argv[2], max, &v);
	if (rc == -PISA_E_RANGE)
		return fail(x, PISA_E_RANGE, "register %s: value '%s' does not fit in %u bits",
			    reg_name(x->c, id), argv[2], rg->width);
	if (rc)
		return fail(x, PISA_E_INVAL, "bad format for value '%s', must be an integer", argv[2]);
	if ((rc = x->c->ops->register_write(x->c->sw, (uint16_t)id, idx, v)))
		return fail(x, -rc, "switch: writing register %s failed: %s", reg_name(x->c, id),
			    errname(rc));
	return 0;
}

static int reset_register(struct pisa_ctl *c, unsigned id)
{
	uint32_t i;
	int rc;

	for (i = 0; i < c->img->registers[id].size; i++)
		if ((rc = c->ops->register_write(c->sw, (uint16_t)id, i, 0)))
			return rc;
	return 0;
}

static int cmd_register_reset(struct cx *x, int argc, char **argv)
{
	unsigned id;
	int rc;

	if ((rc = nargs(x, "register_reset", argc, 1, 1, "<name>")) ||
	    (rc = find_register(x, argv[0], &id)))
		return rc;
	if ((rc = reset_register(x->c, id)))
		return fail(x, -rc, "switch: resetting register %s failed: %s", reg_name(x->c, id),
			    errname(rc));
	return 0;
}

static int find_meter(struct cx *x, const char *tok, unsigned *id)
{
	return find_direct(x, "meter", "meters", tok, x->c->img->nmeters, mtr_name, 0, id);
}

/* The shadow cell of meter *id for index token tok, and the switch cell (in a split
 * table, *id becomes the meter of the entry's piece). */
static int mtr_cell(struct cx *x, unsigned *id, const char *tok, struct mrate **mr, uint32_t *cell)
{
	const struct pisa_meter *mt = &x->c->img->meters[*id];
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for index '%s', expected an integer", tok);
	if (mt->direct_table >= 0) {
		struct tab *tb = direct_tab(x->c, mt->direct_table);
		int m;

		if (v >= tb->cap || !tb->ents[v].used)
			return fail(x, PISA_E_NOTFOUND,
				    "meter %s is direct: table %s has no entry with handle %s (INVALID_HANDLE)",
				    mtr_name(x->c, *id), tab_name(x->c, (unsigned)mt->direct_table), tok);
		*mr = &tb->ents[v].meter;
		*cell = tb->ents[v].row;
		m = direct_cell(x->c, tb, cell, 0);
		*id = m < 0 ? *id : (unsigned)m;
		return 0;
	}
	if (v >= mt->size)
		return fail(x, PISA_E_RANGE, "meter %s: index %s out of range (size %u) (INVALID_INDEX)",
			    mtr_name(x->c, *id), tok, mt->size);
	*mr = &x->c->meters[*id][v];
	*cell = (uint32_t)v;
	return 0;
}

/* "<rate>:<burst>" x 2: committed, then peak */
static int parse_rates(struct cx *x, unsigned id, int argc, char **argv, struct mrate *out)
{
	int i;

	if (argc != 2)
		return fail(x, PISA_E_INVAL, "meter %s: invalid number of rates, expected 2 but got %d",
			    mtr_name(x->c, id), argc);
	memset(out, 0, sizeof(*out));
	for (i = 0; i < 2; i++) {
		char a[64];
		const char *b;
		double r, q;
		uint64_t burst;

		if (split2(argv[i], ":", a, sizeof(a), &b) || pisa_value_parse_float(a, &r) ||
		    pisa_value_parse_dec(b, UINT32_MAX, &burst) || r < 0)
			return fail(x, PISA_E_INVAL,
				    "meter %s: error while parsing rate '%s', expected <units per microsecond>:<burst>",
				    mtr_name(x->c, id), argv[i]);
		q = r * 65536.0 + 0.5;
		if (q >= 4294967296.0)
			return fail(x, PISA_E_RANGE, "meter %s: rate '%s' is too large (at most 65535.99 per microsecond)",
				    mtr_name(x->c, id), a);
		out->rate[i] = r;
		out->burst[i] = (uint32_t)burst;
	}
	if (out->rate[0] > out->rate[1])
		return fail(x, PISA_E_INVAL,
			    "meter %s: committed rate %s is above peak rate (INVALID_INFO_RATE_VALUE)",
			    mtr_name(x->c, id), argv[0]);
	out->cfg.configured = 1;
	out->cfg.cir_q16 = (uint32_t)(out->rate[0] * 65536.0 + 0.5);
	out->cfg.pir_q16 = (uint32_t)(out->rate[1] * 65536.0 + 0.5);
	out->cfg.cbs = out->burst[0];
	out->cfg.pbs = out->burst[1];
	return 0;
}

static int cmd_meter_set_rates(struct cx *x, int argc, char **argv)
{
	struct mrate nr, *mr;
	unsigned id;
	uint32_t cell;
	int rc;

	if (argc < 2)
		return fail(x, PISA_E_INVAL,
			    "meter_set_rates: usage: meter_set_rates <name> <index> <rate1>:<burst1> <rate2>:<burst2>");
	if ((rc = find_meter(x, argv[0], &id)) || (rc = mtr_cell(x, &id, argv[1], &mr, &cell)) ||
	    (rc = parse_rates(x, id, argc - 2, argv + 2, &nr)))
		return rc;
	if ((rc = x->c->ops->meter_write(x->c->sw, (uint16_t)id, cell, &nr.cfg)))
		return fail(x, -rc, "switch: writing meter %s failed: %s", mtr_name(x->c, id),
			    errname(rc));
	*mr = nr;
	return 0;
}

static int cmd_meter_array_set_rates(struct cx *x, int argc, char **argv)
{
	const struct pisa_meter *mt;
	struct mrate nr;
	unsigned id;
	uint32_t i;
	int rc;

	if (argc < 1)
		return fail(x, PISA_E_INVAL,
			    "meter_array_set_rates: usage: meter_array_set_rates <name> <rate1>:<burst1> <rate2>:<burst2>");
	if ((rc = find_meter(x, argv[0], &id)))
		return rc;
	mt = &x->c->img->meters[id];
	if (mt->direct_table >= 0)
		return fail(x, PISA_E_INVAL,
			    "meter %s is direct (table %s): use meter_set_rates with an entry handle",
			    mtr_name(x->c, id), tab_name(x->c, (unsigned)mt->direct_table));
	if ((rc = parse_rates(x, id, argc - 1, argv + 1, &nr)))
		return rc;
	for (i = 0; i < mt->size; i++) {
		if ((rc = x->c->ops->meter_write(x->c->sw, (uint16_t)id, i, &nr.cfg)))
			return fail(x, -rc, "switch: writing meter %s failed: %s", mtr_name(x->c, id),
				    errname(rc));
		x->c->meters[id][i] = nr;
	}
	return 0;
}

static int cmd_meter_get_rates(struct cx *x, int argc, char **argv)
{
	struct mrate *mr;
	unsigned id;
	uint32_t cell;
	int rc, i;

	if ((rc = nargs(x, "meter_get_rates", argc, 2, 2, "<name> <index>")) ||
	    (rc = find_meter(x, argv[0], &id)) || (rc = mtr_cell(x, &id, argv[1], &mr, &cell)))
		return rc;
	if (!mr->cfg.configured) {
		fprintf(x->o, "WARNING: expected 2 rates but only received 0\n");
		return 0;
	}
	for (i = 0; i < 2; i++) {
		char buf[40];

		pisa_value_fmt_float(mr->rate[i], buf, sizeof(buf));
		fprintf(x->o, "%d: info rate = %s, burst size = %u\n", i, buf, mr->burst[i]);
	}
	return 0;
}

/* ---- multicast and mirroring ---- */

static int mc_group(struct cx *x, const char *tok, unsigned *g)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, 65535, &v) || v == 0)
		return fail(x, PISA_E_INVAL, "bad multicast group id '%s' (1..65535)", tok);
	if (v >= x->c->img->mcast_groups)
		return fail(x, PISA_E_RANGE, "multicast group %s: this switch has group ids 1..%d",
			    tok, (int)x->c->img->mcast_groups - 1);
	*g = (unsigned)v;
	return 0;
}

static int mc_node(struct cx *x, const char *tok, unsigned *n)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, UINT32_MAX, &v))
		return fail(x, PISA_E_INVAL, "bad format for node handle '%s'", tok);
	if (v >= x->c->img->mcast_nodes || !x->c->nodes[v].used)
		return fail(x, PISA_E_NOTFOUND, "no multicast node with handle %s (INVALID_L1_HANDLE)",
			    tok);
	*n = (unsigned)v;
	return 0;
}

/* Ports (and lags after "|") into an ascending list, BMv2's port map. */
static int mc_ports(struct cx *x, int argc, char **argv, uint16_t **ports, uint16_t *n,
		    char *map, size_t maplen)
{
	uint8_t seen[(MAX_PORT + 8) / 8] = { 0 };
	uint16_t *p;
	int i, k = 0, top = -1;
	uint64_t v;

	p = calloc((size_t)argc + 1, sizeof(*p));
	if (!p)
		return -PISA_E_NOMEM;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "|")) {
			if (i + 1 < argc) {
				free(p);
				return fail(x, PISA_E_INVAL, "lag '%s': LAGs are not supported", argv[i + 1]);
			}
			break;
		}
		if (pisa_value_parse_dec(argv[i], MAX_PORT - 1, &v)) {
			free(p);
			return fail(x, PISA_E_INVAL, "'%s' is not a valid port number (0..%d)", argv[i],
				    MAX_PORT - 1);
		}
		if (seen[v / 8] & (1u << (v % 8))) {
			free(p);
			return fail(x, PISA_E_INVAL, "found duplicate port number '%s'", argv[i]);
		}
		seen[v / 8] |= (uint8_t)(1u << (v % 8));
		if ((int)v > top)
			top = (int)v;
	}
	for (i = 0; i <= top; i++)
		if (seen[i / 8] & (1u << (i % 8)))
			p[k++] = (uint16_t)i;
	*ports = p;
	*n = (uint16_t)k;
	/* the port map string: highest port first */
	if ((size_t)top + 2 > maplen)
		top = (int)maplen - 2;
	for (i = 0; i <= top; i++)
		map[i] = (seen[(top - i) / 8] & (1u << ((top - i) % 8))) ? '1' : '0';
	map[top + 1 < 0 ? 0 : top + 1] = '\0';
	return 0;
}

/* Rewrites group g's copy list: nodes in association order, ports ascending. */
static int write_group(struct pisa_ctl *c, unsigned g)
{
	struct pisa_mc_copy *cp;
	uint64_t last = 0;
	uint32_t n = 0, i;
	int rc;

	for (i = 0; i < c->img->mcast_nodes; i++)
		if (c->nodes[i].used && c->nodes[i].grp == g)
			n += c->nodes[i].nports;
	if (n > 65535)
		return -PISA_E_RANGE;
	cp = calloc(n + 1, sizeof(*cp));
	if (!cp)
		return -PISA_E_NOMEM;
	n = 0;
	for (;;) {
		struct mnode *best = NULL;

		for (i = 0; i < c->img->mcast_nodes; i++) {
			struct mnode *m = &c->nodes[i];

			if (m->used && m->grp == g && m->aseq > last && (!best || m->aseq < best->aseq))
				best = m;
		}
		if (!best)
			break;
		last = best->aseq;
		for (i = 0; i < best->nports; i++) {
			cp[n].rid = best->rid;
			cp[n++].port = best->ports[i];
		}
	}
	rc = c->ops->mcast_write(c->sw, (uint16_t)g, (uint16_t)n, cp);
	free(cp);
	if (!rc)
		c->grp_copies[g] = n;
	return rc;
}

static int group_changed(struct cx *x, unsigned g)
{
	int rc = write_group(x->c, g);

	if (rc)
		return fail(x, -rc, "switch: writing multicast group %u failed: %s", g, errname(rc));
	return 0;
}

static int cmd_mc_mgrp_create(struct cx *x, int argc, char **argv)
{
	unsigned g, i, n = 0;
	int rc;

	if ((rc = nargs(x, "mc_mgrp_create", argc, 1, 1, "<group id>")) ||
	    (rc = mc_group(x, argv[0], &g)))
		return rc;
	if (x->c->grp_used[g])
		return fail(x, PISA_E_EXISTS, "multicast group %u already exists (DUPLICATE_MGID)", g);
	for (i = 1; i < x->c->img->mcast_groups; i++)
		n += x->c->grp_used[i];
	if (n >= x->c->img->mcast_groups)
		return fail(x, PISA_E_FULL, "no room for multicast group %u (TABLE_FULL)", g);
	fprintf(x->o, "Creating multicast group %u\n", g);
	x->c->grp_used[g] = 1;	/* empty: nothing to write */
	return 0;
}

static int cmd_mc_mgrp_destroy(struct cx *x, int argc, char **argv)
{
	unsigned g, i;
	int rc;

	if ((rc = nargs(x, "mc_mgrp_destroy", argc, 1, 1, "<group id>")) ||
	    (rc = mc_group(x, argv[0], &g)))
		return rc;
	if (!x->c->grp_used[g])
		return fail(x, PISA_E_NOTFOUND, "no multicast group %u (INVALID_MGID)", g);
	fprintf(x->o, "Destroying multicast group %u\n", g);
	if (x->c->grp_copies[g]) {
		if ((rc = x->c->ops->mcast_write(x->c->sw, (uint16_t)g, 0, NULL)))
			return fail(x, -rc, "switch: deleting multicast group %u failed: %s", g,
				    errname(rc));
		x->c->grp_copies[g] = 0;
	}
	for (i = 0; i < x->c->img->mcast_nodes; i++)
		if (x->c->nodes[i].grp == g)
			x->c->nodes[i].grp = 0;
	x->c->grp_used[g] = 0;
	return 0;
}

static int cmd_mc_node_create(struct cx *x, int argc, char **argv)
{
	struct pisa_ctl *c = x->c;
	uint16_t *ports, np;
	uint64_t rid;
	unsigned i;
	char map[MAX_PORT + 2];
	int rc;

	if (argc < 1)
		return fail(x, PISA_E_INVAL, "mc_node_create: usage: mc_node_create <rid> <ports> [| <lags>]");
	if (pisa_value_parse_dec(argv[0], 65535, &rid))
		return fail(x, PISA_E_INVAL, "bad format for rid '%s' (0..65535)", argv[0]);
	for (i = 0; i < c->img->mcast_nodes; i++)
		if (!c->nodes[i].used)
			break;
	if (i >= c->img->mcast_nodes)
		return fail(x, PISA_E_FULL, "no room for another multicast node (%u nodes) (TABLE_FULL)",
			    c->img->mcast_nodes);
	if ((rc = mc_ports(x, argc - 1, argv + 1, &ports, &np, map, sizeof(map))))
		return rc;
	fprintf(x->o, "Creating node with rid %u , port map %s and lag map \n", (unsigned)rid, map);
	c->nodes[i].used = 1;
	c->nodes[i].rid = (uint16_t)rid;
	c->nodes[i].ports = ports;
	c->nodes[i].nports = np;
	c->nodes[i].grp = 0;
	fprintf(x->o, "node was created with handle %u\n", i);
	return 0;
}

static int cmd_mc_node_update(struct cx *x, int argc, char **argv)
{
	struct mnode *m, old;
	uint16_t *ports, np;
	unsigned n;
	char map[MAX_PORT + 2];
	int rc;

	if (argc < 1)
		return fail(x, PISA_E_INVAL, "mc_node_update: usage: mc_node_update <node handle> <ports> [| <lags>]");
	if ((rc = mc_node(x, argv[0], &n)) ||
	    (rc = mc_ports(x, argc - 1, argv + 1, &ports, &np, map, sizeof(map))))
		return rc;
	fprintf(x->o, "Updating node %u with port map %s and lag map \n", n, map);
	m = &x->c->nodes[n];
	old = *m;
	m->ports = ports;
	m->nports = np;
	if (m->grp && (rc = group_changed(x, m->grp))) {
		*m = old;
		free(ports);
		return rc;
	}
	free(old.ports);
	return 0;
}

static int cmd_mc_node_associate(struct cx *x, int argc, char **argv)
{
	struct mnode *m;
	unsigned g, n;
	int rc;

	if ((rc = nargs(x, "mc_node_associate", argc, 2, 2, "<group id> <node handle>")) ||
	    (rc = mc_group(x, argv[0], &g)) || (rc = mc_node(x, argv[1], &n)))
		return rc;
	if (!x->c->grp_used[g])
		return fail(x, PISA_E_NOTFOUND, "no multicast group %u (INVALID_MGID)", g);
	m = &x->c->nodes[n];
	if (m->grp)
		return fail(x, PISA_E_EXISTS, "node %u already belongs to multicast group %u (L1_HANDLE_ASSOCIATED)",
			    n, m->grp);
	fprintf(x->o, "Associating node %u to multicast group %u\n", n, g);
	m->grp = (uint16_t)g;
	m->aseq = ++x->c->aseq;
	if ((rc = group_changed(x, g)))
		m->grp = 0;
	return rc;
}

static int cmd_mc_node_dissociate(struct cx *x, int argc, char **argv)
{
	struct mnode *m;
	unsigned g, n;
	int rc;

	if ((rc = nargs(x, "mc_node_dissociate", argc, 2, 2, "<group id> <node handle>")) ||
	    (rc = mc_group(x, argv[0], &g)) || (rc = mc_node(x, argv[1], &n)))
		return rc;
	if (!x->c->grp_used[g])
		return fail(x, PISA_E_NOTFOUND, "no multicast group %u (INVALID_MGID)", g);
	m = &x->c->nodes[n];
	if (m->grp != g)
		return fail(x, PISA_E_NOTFOUND, "node %u is not in multicast group %u (INVALID_L1_HANDLE)",
			    n, g);
	fprintf(x->o, "Dissociating node %u from multicast group %u\n", n, g);
	m->grp = 0;
	if ((rc = group_changed(x, g)))
		m->grp = (uint16_t)g;
	return rc;
}

static int cmd_mc_node_destroy(struct cx *x, int argc, char **argv)
{
	struct mnode *m;
	unsigned n, g;
	int rc;

	if ((rc = nargs(x, "mc_node_destroy", argc, 1, 1, "<node handle>")) ||
	    (rc = mc_node(x, argv[0], &n)))
		return rc;
	fprintf(x->o, "Destroying node %u\n", n);
	m = &x->c->nodes[n];
	g = m->grp;
	if (g) {
		m->grp = 0;
		if ((rc = group_changed(x, g))) {
			m->grp = (uint16_t)g;
			return rc;
		}
	}
	free(m->ports);
	memset(m, 0, sizeof(*m));
	return 0;
}

static int cmd_mc_dump(struct cx *x, int argc, char **argv)
{
	struct pisa_ctl *c = x->c;
	unsigned g, i, j;
	int rc;

	if ((rc = nargs(x, "mc_dump", argc, 0, 0, "")))
		return rc;
	fprintf(x->o, "==========\nMC ENTRIES\n");
	for (g = 1; g < c->img->mcast_groups; g++) {
		uint64_t last = 0;

		if (!c->grp_used[g])
			continue;
		fprintf(x->o, "**********\nmgrp(%u)\n", g);
		for (;;) {
			struct mnode *best = NULL;

			for (i = 0; i < c->img->mcast_nodes; i++) {
				struct mnode *m = &c->nodes[i];

				if (m->used && m->grp == g && m->aseq > last &&
				    (!best || m->aseq < best->aseq))
					best = m;
			}
			if (!best)
				break;
			last = best->aseq;
			fprintf(x->o, "  -> (L1h=%u, rid=%u) -> (ports=[", (unsigned)(best - c->nodes),
				best->rid);
			for (j = 0; j < best->nports; j++)
				fprintf(x->o, "%s%u", j ? ", " : "", best->ports[j]);
			fprintf(x->o, "], lags=[])\n");
		}
	}
	fprintf(x->o, "==========\nLAGS\n==========\n");
	return 0;
}

static int mirror_id(struct cx *x, const char *tok, unsigned *id)
{
	uint64_t v;

	if (pisa_value_parse_dec(tok, 32767, &v))
		return fail(x, PISA_E_INVAL, "bad format for mirror_id '%s', expected an integer (0..32767)",
			    tok);
	if (v >= x->c->img->clone_sessions)
		return fail(x, PISA_E_RANGE, "mirror_id %s: this switch has sessions 0..%d", tok,
			    (int)x->c->img->clone_sessions - 1);
	*id = (unsigned)v;
	return 0;
}

static int mirror_set(struct cx *x, unsigned id, const struct pisa_clone_cfg *cfg)
{
	int rc = x->c->ops->clone_write(x->c->sw, (uint16_t)id, cfg);

	if (rc)
		return fail(x, -rc, "switch: writing mirroring session %u failed: %s", id, errname(rc));
	x->c->clones[id] = *cfg;
	return 0;
}

static int cmd_mirroring_add(struct cx *x, int argc, char **argv)
{
	struct pisa_clone_cfg cfg = { 0 };
	unsigned id;
	uint64_t port;
	int rc;

	if ((rc = nargs(x, "mirroring_add", argc, 2, 2, "<mirror_id> <egress_port>")) ||
	    (rc = mirror_id(x, argv[0], &id)))
		return rc;
	if (pisa_value_parse_dec(argv[1], MAX_PORT, &port))
		return fail(x, PISA_E_INVAL, "bad format for egress_port '%s' (0..%d)", argv[1], MAX_PORT);
	/* fuzz_ctl found this: the switch refuses a session to the drop port,
	 * so say so here instead of sending a write it rejects */
	if (port == MAX_PORT)
		return fail(x, PISA_E_RANGE, "egress_port %d is the drop port: a mirror copy needs a port 0..%d",
			    MAX_PORT, MAX_PORT - 1);
	cfg.enabled = 1;
	cfg.port = (uint16_t)port;
	return mirror_set(x, id, &cfg);
}

static int cmd_mirroring_add_mc(struct cx *x, int argc, char **argv)
{
	struct pisa_clone_cfg cfg = { 0 };
	unsigned id, g;
	int rc;

	if ((rc = nargs(x, "mirroring_add_mc", argc, 2, 2, "<mirror_id> <mgrp>")) ||
	    (rc = mirror_id(x, argv[0], &id)))
		return rc;
	if ((rc = mc_group(x, argv[1], &g)))
		return rc;
	cfg.enabled = 1;
	cfg.mcast_grp = (uint16_t)g;
	return mirror_set(x, id, &cfg);
}

static int cmd_mirroring_delete(struct cx *x, int argc, char **argv)
{
	struct pisa_clone_cfg cfg = { 0 };
	unsigned id;
	int rc;

	if ((rc = nargs(x, "mirroring_delete", argc, 1, 1, "<mirror_id>")) ||
	    (rc = mirror_id(x, argv[0], &id)))
		return rc;
	if (!x->c->clones[id].enabled)
		return fail(x, PISA_E_NOTFOUND, "no mirroring session %u (SESSION_NOT_FOUND)", id);
	return mirror_set(x, id, &cfg);
}

static int cmd_mirroring_get(struct cx *x, int argc, char **argv)
{
	const struct pisa_clone_cfg *cfg;
	unsigned id;
	int rc;

	if ((rc = nargs(x, "mirroring_get", argc, 1, 1, "<mirror_id>")) ||
	    (rc = mirror_id(x, argv[0], &id)))
		return rc;
	cfg = &x->c->clones[id];
	if (!cfg->enabled)
		return fail(x, PISA_E_NOTFOUND, "no mirroring session %u (SESSION_NOT_FOUND)", id);
	if (cfg->mcast_grp)
		fprintf(x->o, "MirroringSessionConfig(port=None, mgid=%u)\n", cfg->mcast_grp);
	else
		fprintf(x->o, "MirroringSessionConfig(port=%u, mgid=None)\n", cfg->port);
	return 0;
}

/* Everything back to the image's initial state (const entries stay). */
static int reset_all(struct pisa_ctl *c)
{
	const struct pisa_image *img = c->img;
	struct pisa_clone_cfg off = { 0 };
	struct pisa_meter_cfg unconf = { 0 };
	unsigned i;
	uint32_t j;
	int rc;

	for (i = 0; i < img->ntables; i++) {
		struct tab *tb = &c->tabs[i];

		if (tb->broken || tb->first >= 0)
			continue;
		if ((rc = clear_table(c, i, 1)))
			return rc;
		default_row(tb, tb->defrow);
		tb->def_ind = IND_NONE;
		if ((rc = wr_row(c, i, tb->rows, tb->defrow)))
			return rc;
		for (j = 0; j < tb->cap; j++) {
			struct ent *e = &tb->ents[j];

			if (!e->used)
				continue;
			if ((rc = ctr_zero(c, tb, e->row)))
				return rc;
			if (e->meter.cfg.configured) {
				if ((rc = mtr_set(c, tb, e->row, &unconf)))
					return rc;
				memset(&e->meter, 0, sizeof(e->meter));
			}
		}
	}
	for (i = 0; i < img->ncounters; i++) {
		if (img->counters[i].direct_table >= 0)
			continue;
		for (j = 0; j < img->counters[i].size; j++)
			if ((rc = c->ops->counter_write(c->sw, (uint16_t)i, j, 0, 0)))
				return rc;
	}
	for (i = 0; i < img->nregisters; i++)
		if ((rc = reset_register(c, i)))
			return rc;
	for (i = 0; i < img->nmeters; i++) {
		if (!c->meters[i])
			continue;
		for (j = 0; j < img->meters[i].size; j++) {
			if (!c->meters[i][j].cfg.configured)
				continue;
			if ((rc = c->ops->meter_write(c->sw, (uint16_t)i, j, &unconf)))
				return rc;
			memset(&c->meters[i][j], 0, sizeof(struct mrate));
		}
	}
	for (i = 1; i < img->mcast_groups; i++) {
		if (c->grp_copies[i] && (rc = c->ops->mcast_write(c->sw, (uint16_t)i, 0, NULL)))
			return rc;
		c->grp_copies[i] = 0;
		c->grp_used[i] = 0;
	}
	for (i = 0; i < img->mcast_nodes; i++) {
		free(c->nodes[i].ports);
		memset(&c->nodes[i], 0, sizeof(c->nodes[i]));
	}
	for (i = 0; i < img->clone_sessions; i++) {
		if (c->clones[i].enabled && (rc = c->ops->clone_write(c->sw, (uint16_t)i, &off)))
			return rc;
		c->clones[i] = off;
	}
	/* the member tables were cleared above: members and groups are gone */
	for (i = 0; i < img->nprofiles; i++) {
		struct prof *pf = &c->profs[i];

		for (j = 0; j < pf->p->size; j++) {
			free(pf->mbr[j].row);
			free(pf->grp[j].m);
		}
		memset(pf->mbr, 0, pf->p->size * sizeof(*pf->mbr));
		memset(pf->grp, 0, pf->p->size * sizeof(*pf->grp));
		memset(pf->slot, 0, pf->p->slots * sizeof(*pf->slot));
	}
	return 0;
}

static int cmd_reset_state(struct cx *x, int argc, char **argv)
{
	int rc;

	if ((rc = nargs(x, "reset_state", argc, 0, 0, "")))
		return rc;
	if ((rc = reset_all(x->c)))
		return fail(x, -rc, "switch write failed during reset_state: %s", errname(rc));
	return 0;
}

/* ---- dispatch ---- */

struct command {
	const char *name;
	int (*fn)(struct cx *x, int argc, char **argv);
	/* or one function for several commands, told apart by k */
	int (*fnk)(struct cx *x, int argc, char **argv, unsigned k);
	unsigned k;
};

static const struct command commands[] = {
	{ "table_add", cmd_table_add, NULL, 0 },
	{ "table_modify", cmd_table_modify, NULL, 0 },
	{ "table_delete", cmd_table_delete, NULL, 0 },
	{ "table_set_default", cmd_table_set_default, NULL, 0 },
	{ "table_reset_default", cmd_table_reset_default, NULL, 0 },
	{ "table_clear", cmd_table_clear, NULL, 0 },
	{ "table_num_entries", cmd_table_num_entries, NULL, 0 },
	{ "table_dump", cmd_table_dump, NULL, 0 },
	{ "table_dump_entry", cmd_table_dump_entry, NULL, 0 },
	{ "table_dump_entry_from_key", cmd_table_dump_entry_from_key, NULL, 0 },
	{ "table_info", cmd_table_info, NULL, 0 },
	{ "table_show_actions", cmd_table_show_actions, NULL, 0 },
	{ "show_tables", cmd_show_tables, NULL, 0 },
	{ "show_actions", cmd_show_actions, NULL, 0 },
	{ "switch_info", cmd_switch_info, NULL, 0 },
	{ "counter_read", cmd_counter_read, NULL, 0 },
	{ "counter_write", cmd_counter_write, NULL, 0 },
	{ "counter_reset", cmd_counter_reset, NULL, 0 },
	{ "register_read", cmd_register_read, NULL, 0 },
	{ "register_write", cmd_register_write, NULL, 0 },
	{ "register_reset", cmd_register_reset, NULL, 0 },
	{ "meter_set_rates", cmd_meter_set_rates, NULL, 0 },
	{ "meter_get_rates", cmd_meter_get_rates, NULL, 0 },
	{ "meter_array_set_rates", cmd_meter_array_set_rates, NULL, 0 },
	{ "mc_mgrp_create", cmd_mc_mgrp_create, NULL, 0 },
	{ "mc_mgrp_destroy", cmd_mc_mgrp_destroy, NULL, 0 },
	{ "mc_node_create", cmd_mc_node_create, NULL, 0 },
	{ "mc_node_update", cmd_mc_node_update, NULL, 0 },
	{ "mc_node_associate", cmd_mc_node_associate, NULL, 0 },
	{ "mc_node_dissociate", cmd_mc_node_dissociate, NULL, 0 },
	{ "mc_node_destroy", cmd_mc_node_destroy, NULL, 0 },
	{ "mc_dump", cmd_mc_dump, NULL, 0 },
	{ "mirroring_add", cmd_mirroring_add, NULL, 0 },
	{ "mirroring_add_mc", cmd_mirroring_add_mc, NULL, 0 },
	{ "mirroring_delete", cmd_mirroring_delete, NULL, 0 },
	{ "mirroring_get", cmd_mirroring_get, NULL, 0 },
	{ "reset_state", cmd_reset_state, NULL, 0 },
	{ "act_prof_create_member", NULL, member_write, 0 },
	{ "act_prof_delete_member", cmd_act_prof_delete_member, NULL, 0 },
	{ "act_prof_modify_member", NULL, member_write, 1 },
	{ "act_prof_create_group", cmd_act_prof_create_group, NULL, 0 },
	{ "act_prof_delete_group", cmd_act_prof_delete_group, NULL, 0 },
	{ "act_prof_add_member_to_group", NULL, member_group, 1 },
	{ "act_prof_remove_member_from_group", NULL, member_group, 0 },
	{ "act_prof_dump", cmd_act_prof_dump, NULL, 0 },
	{ "act_prof_dump_member", NULL, dump_one, 0 },
	{ "act_prof_dump_group", NULL, dump_one, 1 },
	{ "table_indirect_add", NULL, indirect_add, IND_MEMBER },
	{ "table_indirect_add_with_group", NULL, indirect_add, IND_GROUP },
	{ "table_indirect_delete", cmd_table_indirect_delete, NULL, 0 },
	{ "table_indirect_modify", NULL, indirect_modify, IND_MEMBER },
	{ "table_indirect_modify_with_group", NULL, indirect_modify, IND_GROUP },
	{ "table_indirect_set_default", NULL, indirect_default, IND_MEMBER },
	{ "table_indirect_set_default_with_group", NULL, indirect_default, IND_GROUP },
	{ "table_indirect_reset_default", NULL, indirect_default, IND_NONE },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int pisa_ctl_exec(struct pisa_ctl *c, const char *line, FILE *out, char *err, size_t errlen)
{
	struct cx x = { c, NULL, err, errlen };
	char *buf, *p, *save = NULL, **argv, *obuf = NULL;
	size_t n = strlen(line), osize = 0;
	int argc = 0, rc;
	unsigned i;

	if (err && errlen)
		err[0] = '\0';
	buf = malloc(n + 1);
	argv = calloc(n / 2 + 2, sizeof(*argv));
	if (!buf || !argv) {
		free(buf);
		free(argv);
		return fail(&x, PISA_E_NOMEM, "out of memory");
	}
	memcpy(buf, line, n + 1);
	for (p = strtok_r(buf, " \t\r\n\v\f", &save); p; p = strtok_r(NULL, " \t\r\n\v\f", &save))
		argv[argc++] = p;
	if (argc == 0 || argv[0][0] == '#') {
		rc = 0;
		goto out;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[0], commands[i].name))
			break;
	if (i == NCOMMANDS) {
		unsigned j;

		rc = fail(&x, PISA_E_NOTFOUND, "unknown command '%s'; commands:", argv[0]);
		for (j = 0; j < NCOMMANDS; j++) {
			err_append(&x, j ? ", " : " ");
			err_append(&x, commands[j].name);
		}
		goto out;
	}
	/* output is held back until the command succeeded */
	x.o = open_memstream(&obuf, &osize);
	if (!x.o) {
		rc = fail(&x, PISA_E_NOMEM, "out of memory");
		goto out;
	}
	rc = commands[i].fn ? commands[i].fn(&x, argc - 1, argv + 1) :
	     commands[i].fnk(&x, argc - 1, argv + 1, commands[i].k);
	fclose(x.o);
	if (rc == -PISA_E_NOMEM && err && errlen && !err[0])
		fail(&x, PISA_E_NOMEM, "%s: out of memory", argv[0]);
	if (!rc && out && osize)
		fwrite(obuf, 1, osize, out);
	free(obuf);
out:
	free(buf);
	free(argv);
	return rc;
}
