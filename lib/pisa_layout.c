/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_layout.c: the placement report (pisa_layout.h), text and SVG.
 *
 * Memory placement inside a stage is not in the image: a stage's exact
 * (HASH) rows and TCAM rows are shared by its ingress and egress tables, so
 * the report lays them out in table id order, each table's rows after the
 * previous one's, and names the span it takes (bits or rows, and cells of
 * PISA_LAYOUT_CELLS per stage). That is the order the hardware's stage
 * memories are filled in.
 */
#include <stdlib.h>
#include <string.h>

#include "pisa_layout.h"
#include "pisa_p4info.h"
#include "pisa_switch.h"

static const char *const mem_names[] = { "none", "hash", "tcam" };
static const char *const match_names[] = { "exact", "ternary", "lpm", "range", "optional" };
static const char *const counter_kinds[] = { "packets", "bytes", "packets and bytes" };

/* Per table: derived sizes and its place in its stage's memory. */
struct tinfo {
	uint32_t row_bits;
	uint64_t hash_bits;	/* HASH: rows x row bits */
	uint64_t hash_off;	/* first bit in the stage's exact memory */
	uint32_t tcam_rows;
	uint32_t tcam_off;
	unsigned insns;		/* of its actions, each action once */
};

struct sinfo {
	unsigned tables[2];
	uint64_t hash_bits;
	uint64_t tcam_rows;
	uint64_t insns;
	uint64_t stateful;
};

struct lay {
	const struct pisa_image *img;
	const struct pisa_profile *p;
	unsigned nstages;	/* rows of the stage table: stages used, at least 1 */
	struct tinfo *t;
	struct sinfo *s;
	uint8_t *phv_cat;	/* per PHV byte: enum cat */
	uint16_t *phv_hdr;	/* per PHV byte: header id when CAT_HDR */
	unsigned phv_used;	/* bytes up to the last one used */
};

enum cat { CAT_FREE = 0, CAT_FIXED, CAT_VALID, CAT_HDR, CAT_META };

static const char *tname(const struct pisa_image *img, unsigned t)
{
	return img->rt_tables && img->rt_tables[t].name ? img->rt_tables[t].name : "?";
}

static const char *aname(const struct pisa_image *img, unsigned a)
{
	if (a >= img->nactions)
		return "?";
	return img->rt_actions && img->rt_actions[a].name ? img->rt_actions[a].name : "?";
}

static const char *hname(const struct pisa_image *img, unsigned h)
{
	return img->rt_headers && h < img->nheaders && img->rt_headers[h] ? img->rt_headers[h] : "?";
}

static const char *named(const struct pisa_rt_named *v, unsigned n, unsigned i)
{
	return v && i < n && v[i].name ? v[i].name : "?";
}

static int is_gateway(const struct pisa_table *t)
{
	return t->next_mode == PISA_NEXT_COND;
}

static void mark_phv(struct lay *l, unsigned bitoff, unsigned width)
{
	unsigned b, last;

	if (!width)
		return;
	last = (bitoff + width - 1) / 8;
	for (b = bitoff / 8; b <= last && b < l->img->phv_bytes; b++)
		if (l->phv_cat[b] == CAT_FREE)
			l->phv_cat[b] = CAT_META;
}

static void mark_opnd(struct lay *l, const struct pisa_operand *o)
{
	if (o->kind == PISA_OPND_PHV)
		mark_phv(l, o->off, o->width);
}

static void mark_insns(struct lay *l, const struct pisa_insn *v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		mark_opnd(l, &v[i].dst);
		mark_opnd(l, &v[i].a);
		mark_opnd(l, &v[i].b);
	}
}

static void phv_map(struct lay *l)
{
	const struct pisa_image *img = l->img;
	unsigned i, j, b, vb = PISA_PHV_FIXED_BYTES + (img->nheaders + 7u) / 8;

	for (b = 0; b < img->phv_bytes && b < PISA_PHV_FIXED_BYTES; b++)
		l->phv_cat[b] = CAT_FIXED;
	for (; b < img->phv_bytes && b < vb; b++)
		l->phv_cat[b] = CAT_VALID;
	for (i = 0; i < img->nheaders; i++)
		for (b = img->headers[i].phv_byte;
		     b < (unsigned)img->headers[i].phv_byte + img->headers[i].bytes && b < img->phv_bytes; b++) {
			l->phv_cat[b] = CAT_HDR;
			l->phv_hdr[b] = (uint16_t)i;
		}
	/* whatever else a field touches is metadata or a temporary */
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];

		for (j = 0; j < t->nkeys; j++)
			mark_phv(l, t->keys[j].field.bitoff, t->keys[j].field.width);
		if (is_gateway(t))
			mark_phv(l, t->cond.bitoff, t->cond.width);
	}
	for (i = 0; i < img->nactions; i++)
		mark_insns(l, img->actions[i].insns, img->actions[i].ninsns);
	for (i = 0; i < img->nstates; i++) {
		mark_insns(l, img->states[i].ops, img->states[i].nops);
		for (j = 0; j < img->states[i].nkey && j < PISA_PARSER_MAX_KEY; j++)
			mark_opnd(l, &img->states[i].key[j]);
	}
	for (i = 0; i < img->nfield_lists; i++)
		for (j = 0; j < img->field_lists[i].nfields; j++)
			mark_phv(l, img->field_lists[i].fields[j].bitoff,
				 img->field_lists[i].fields[j].width);
	for (i = 0; i < img->nchecksums; i++) {
		mark_opnd(l, &img->checksums[i].cond);
		mark_phv(l, img->checksums[i].dst.bitoff, img->checksums[i].dst.width);
	}
	l->phv_used = 0;
	for (b = 0; b < img->phv_bytes; b++)
		if (l->phv_cat[b] != CAT_FREE)
			l->phv_used = b + 1;
}

/* Stateful bits of one extern cell array. */
static uint64_t counter_bits(const struct pisa_counter *c)
{
	return (uint64_t)c->size * PISA_LAYOUT_COUNT_BITS * (c->kind == PISA_COUNTER_BOTH ? 2 : 1);
}

static uint64_t meter_bits(const struct pisa_meter *m)
{
	return (uint64_t)m->size * PISA_LAYOUT_METER_CELL_BITS;
}

/* The stateful bits a stage's actions use; seen[] marks externs (per kind) once per stage. */
static uint64_t stage_stateful(const struct pisa_image *img, unsigned stage, uint8_t *seen)
{
	unsigned nc = img->ncounters, nr = img->nregisters, i, j, k;
	uint64_t bits = 0;

	memset(seen, 0, (size_t)nc + nr + img->nmeters + 1);
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];

		if (t->stage != stage)
			continue;
		if (t->direct_counter >= 0 && (unsigned)t->direct_counter < nc && !seen[t->direct_counter]++)
			bits += counter_bits(&img->counters[t->direct_counter]);
		if (t->direct_meter >= 0 && t->direct_meter < img->nmeters &&
		    !seen[nc + nr + t->direct_meter]++)
			bits += meter_bits(&img->meters[t->direct_meter]);
		for (j = 0; j < t->nactions; j++) {
			const struct pisa_action *a;

			if (t->actions[j].action >= img->nactions)
				continue;
			a = &img->actions[t->actions[j].action];
			for (k = 0; k < a->ninsns; k++) {
				unsigned id = a->insns[k].imm;

				switch (a->insns[k].op) {
				case PISA_COUNT:
					if (id < nc && !seen[id]++)
						bits += counter_bits(&img->counters[id]);
					break;
				case PISA_REG_READ:
				case PISA_REG_WRITE:
					if (id < nr && !seen[nc + id]++)
						bits += (uint64_t)img->registers[id].width *
							img->registers[id].size;
					break;
				case PISA_METER:
					if (id < img->nmeters && !seen[nc + nr + id]++)
						bits += meter_bits(&img->meters[id]);
					break;
				default:
					break;
				}
			}
		}
	}
	return bits;
}

static void lay_free(struct lay *l)
{
	free(l->t);
	free(l->s);
	free(l->phv_cat);
	free(l->phv_hdr);
}

static int lay_build(struct lay *l, const struct pisa_image *img, const struct pisa_profile *p)
{
	unsigned i, j, k, ns = 1;
	uint16_t *acts;
	uint8_t *seen;

	memset(l, 0, sizeof(*l));
	if (!img || (img->ntables && !img->tables) || (img->nactions && !img->actions))
		return -PISA_E_INVAL;
	l->img = img;
	l->p = p ? p : pisa_profile_find(img->board);
	for (i = 0; i < img->ntables; i++)
		if (img->tables[i].stage + 1u > ns)
			ns = img->tables[i].stage + 1u;
	if (img->nstages > ns)
		ns = img->nstages;
	l->nstages = ns;
	l->t = calloc(img->ntables + 1u, sizeof(*l->t));
	l->s = calloc(ns, sizeof(*l->s));
	l->phv_cat = calloc(img->phv_bytes + 1u, 1);
	l->phv_hdr = calloc(img->phv_bytes + 1u, sizeof(*l->phv_hdr));
	acts = calloc(img->nactions + 1u, sizeof(*acts));
	seen = calloc((size_t)img->ncounters + img->nregisters + img->nmeters + 1, 1);
	if (!l->t || !l->s || !l->phv_cat || !l->phv_hdr || !acts || !seen) {
		free(acts);
		free(seen);
		lay_free(l);
		return -PISA_E_NOMEM;
	}
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];
		struct tinfo *ti = &l->t[i];
		struct sinfo *si = &l->s[t->stage];

		si->tables[t->gress & 1]++;
		ti->row_bits = (uint32_t)pisa_row_bytes(t) * 8;
		if (t->mem == PISA_MEM_HASH) {
			ti->hash_bits = (uint64_t)t->rows * ti->row_bits;
			ti->hash_off = si->hash_bits;
			si->hash_bits += ti->hash_bits;
		} else if (t->mem == PISA_MEM_TCAM) {
			ti->tcam_rows = t->rows;
			ti->tcam_off = (uint32_t)si->tcam_rows;
			si->tcam_rows += t->rows;
		}
		for (j = 0; j < t->nactions; j++) {
			unsigned a = t->actions[j].action;

			if (a >= img->nactions)
				continue;
			for (k = 0; k < j; k++)
				if (t->actions[k].action == a)
					break;
			if (k == j)
				ti->insns += img->actions[a].ninsns;
		}
	}
	/* instruction memory per stage: each action's code once, whichever gress */
	for (k = 0; k < ns; k++) {
		memset(acts, 0, (img->nactions + 1u) * sizeof(*acts));
		for (i = 0; i < img->ntables; i++) {
			const struct pisa_table *t = &img->tables[i];

			if (t->stage != k)
				continue;
			for (j = 0; j < t->nactions; j++) {
				unsigned a = t->actions[j].action;

				if (a < img->nactions && !acts[a]++)
					l->s[k].insns += img->actions[a].ninsns;
			}
		}
		l->s[k].stateful = stage_stateful(img, k, seen);
	}
	free(acts);
	free(seen);
	phv_map(l);
	return 0;
}

/* ---------------------------------------------------------------- text */

static void budget(FILE *f, uint64_t used, uint64_t have, int known)
{
	if (!known) {
		fprintf(f, "%llu", (unsigned long long)used);
		return;
	}
	fprintf(f, "%llu of %llu", (unsigned long long)used, (unsigned long long)have);
	if (used > have)
		fputs(" OVER", f);
}

static void cells(FILE *f, uint64_t off, uint64_t n, uint64_t total)
{
	uint64_t a, b;

	if (!total || !n)
		return;
	a = off * PISA_LAYOUT_CELLS / total;
	b = (off + n - 1) * PISA_LAYOUT_CELLS / total;
	if (b >= PISA_LAYOUT_CELLS)
		b = PISA_LAYOUT_CELLS - 1;
	if (a >= PISA_LAYOUT_CELLS)
		a = PISA_LAYOUT_CELLS - 1;
	fprintf(f, ", cells %llu-%llu of %u", (unsigned long long)a, (unsigned long long)b,
		PISA_LAYOUT_CELLS);
}

/* Which header (or fixed region) a PHV bit is in, for key descriptions. */
static void where(FILE *f, const struct lay *l, unsigned bitoff)
{
	const struct pisa_image *img = l->img;
	unsigned b = bitoff / 8;

	if (b >= img->phv_bytes) {
		fputs("outside the PHV", f);
		return;
	}
	switch (l->phv_cat[b]) {
	case CAT_FIXED:
		fputs("standard metadata", f);
		break;
	case CAT_VALID:
		if (bitoff >= PISA_VALID_BIT(0) && bitoff < PISA_VALID_BIT(img->nheaders))
			fprintf(f, "%s validity", hname(img, bitoff - PISA_VALID_BIT(0)));
		else
			fputs("validity bits", f);
		break;
	case CAT_HDR:
		fprintf(f, "%s bit %u", hname(img, l->phv_hdr[b]),
			bitoff - img->headers[l->phv_hdr[b]].phv_byte * 8u);
		break;
	default:
		fputs("metadata", f);
		break;
	}
}

static void next_name(FILE *f, const struct pisa_image *img, unsigned n)
{
	if (n == PISA_NEXT_END)
		fputs("end", f);
	else if (n < img->ntables)
		fputs(tname(img, n), f);
	else
		fprintf(f, "table %u?", n);
}

/* The action profile a table belongs to: its members' or its entries'. */
static void txt_profile(FILE *f, const struct pisa_image *img, unsigned t)
{
	unsigned i, j;

	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];

		if (p->member_table == t) {
			fprintf(f, "  action %s %s: members at keys 0-%u", p->with_selector ?
				"selector" : "profile", p->name, p->size - 1);
			if (p->slots)
				fprintf(f, ", group slots at keys %u-%u", p->size,
					p->size + p->slots - 1);
			fputc('\n', f);
		}
		for (j = 0; j < p->ntables; j++)
			if (p->tables[j].table == t)
				fprintf(f, "  action %s %s: entries point at %s (member table ",
					p->with_selector ? "selector" : "profile", p->name,
					p->with_selector ? "members or groups" : "members");
		for (j = 0; j < p->ntables; j++)
			if (p->tables[j].table == t) {
				next_name(f, img, p->member_table);
				fputs(")\n", f);
			}
	}
}

static void txt_table(FILE *f, const struct lay *l, unsigned i)
{
	const struct pisa_image *img = l->img;
	const struct pisa_profile *p = l->p;
	const struct pisa_table *t = &img->tables[i];
	const struct pisa_rt_table *rt = img->rt_tables ? &img->rt_tables[i] : NULL;
	const struct tinfo *ti = &l->t[i];
	unsigned j;

	fprintf(f, "table %u %s%s\n", i, tname(img, i),
		is_gateway(t) ? " (gateway)" :
		!pisa_p4info_table_visible(img, i) && rt && rt->p4info_id ? " (piece)" :
		rt && !rt->p4info_id ? " (compiler)" : "");
	fprintf(f, "  placed: %s stage %u, next ", t->gress ? "egress" : "ingress", t->stage);
	switch (t->next_mode) {
	case PISA_NEXT_COND:
		fprintf(f, "phv %u+%u != 0 ? ", t->cond.bitoff, t->cond.width);
		next_name(f, img, t->next_hit);
		fputs(" : ", f);
		next_name(f, img, t->next_miss);
		break;
	case PISA_NEXT_ACTION:
		fputs("by action", f);
		break;
	default:
		fputs("hit ", f);
		next_name(f, img, t->next_hit);
		fputs(", miss ", f);
		next_name(f, img, t->next_miss);
		break;
	}
	fputc('\n', f);
	fprintf(f, "  key: %u bits", t->key_bits);
	if (p && t->mem == PISA_MEM_HASH && t->key_bits > p->max_key_bits)
		fprintf(f, " OVER (widest exact key %u)", p->max_key_bits);
	if (p && t->mem == PISA_MEM_TCAM && t->key_bits > p->tcam_key_bits)
		fprintf(f, " OVER (widest ternary key %u)", p->tcam_key_bits);
	fputc('\n', f);
	for (j = 0; j < t->nkeys; j++) {
		const struct pisa_key_field *k = &t->keys[j];

		fprintf(f, "    %-8s phv %u+%u (", k->match <= PISA_MATCH_OPTIONAL ?
			match_names[k->match] : "?", k->field.bitoff, k->field.width);
		where(f, l, k->field.bitoff);
		fputc(')', f);
		if (rt && rt->nkeys == t->nkeys && rt->keys[j].name)
			fprintf(f, " %s", rt->keys[j].name);
		fputc('\n', f);
	}
	fprintf(f, "  memory: %s", t->mem <= PISA_MEM_TCAM ? mem_names[t->mem] : "?");
	if (t->mem == PISA_MEM_HASH)
		fprintf(f, ", %u ways x %u buckets (way_bits %u)", t->ways, 1u << t->way_bits,
			t->way_bits);
	if (t->mem != PISA_MEM_NONE)
		fprintf(f, ", %u rows of %u bits", (unsigned)t->rows, (unsigned)ti->row_bits);
	else
		fputs(" (keyless: runs its default row)", f);
	fputc('\n', f);
	fprintf(f, "  capacity: %u entries", t->mem == PISA_MEM_NONE ? 0u : (unsigned)t->rows);
	if (rt && rt->size)
		fprintf(f, " (program asked %u)", (unsigned)rt->size);
	if (rt && rt->const_entries)
		fputs(", const entries", f);
	fputc('\n', f);
	txt_profile(f, img, i);
	if (t->mem == PISA_MEM_HASH) {
		fputs("  uses: exact bits ", f);
		fprintf(f, "%llu-%llu, ", (unsigned long long)ti->hash_off,
			(unsigned long long)(ti->hash_off + ti->hash_bits - 1));
		budget(f, ti->hash_bits, p ? p->hash_bits : 0, p != NULL);
		if (p)
			cells(f, ti->hash_off, ti->hash_bits, p->hash_bits);
		if (p && ti->row_bits > p->hash_row_bits)
			fprintf(f, ", row OVER (widest %u)", p->hash_row_bits);
		fputc('\n', f);
	} else if (t->mem == PISA_MEM_TCAM) {
		fprintf(f, "  uses: tcam rows %u-%u, ", (unsigned)ti->tcam_off,
			(unsigned)(ti->tcam_off + ti->tcam_rows - 1));
		budget(f, ti->tcam_rows, p ? p->tcam_rows : 0, p != NULL);
		if (p)
			cells(f, ti->tcam_off, ti->tcam_rows, p->tcam_rows);
		fprintf(f, " (%llu bits)\n", (unsigned long long)t->rows * ti->row_bits);
	}
	fprintf(f, "  action data: %u bits", t->adata_bits);
	if (p && t->adata_bits > p->max_adata_bits)
		fprintf(f, " OVER (at most %u)", p->max_adata_bits);
	fprintf(f, "; actions (%u insns):\n", ti->insns);
	for (j = 0; j < t->nactions; j++) {
		const struct pisa_table_action *ta = &t->actions[j];

		fprintf(f, "    %s (%u insns)%s%s%s\n", aname(img, ta->action),
			ta->action < img->nactions ? img->actions[ta->action].ninsns : 0u,
			ta->action == t->default_action ? " default" : "",
			ta->flags & PISA_TA_DEFAULT_ONLY ? " @defaultonly" : "",
			ta->flags & PISA_TA_TABLE_ONLY ? " @tableonly" : "");
	}
	if (t->direct_counter >= 0 && t->direct_counter < img->ncounters) {
		const struct pisa_counter *c = &img->counters[t->direct_counter];

		fprintf(f, "  direct counter: %s (%s, %u cells)\n",
			named(img->rt_counters, img->ncounters, (unsigned)t->direct_counter),
			c->kind <= PISA_COUNTER_BOTH ? counter_kinds[c->kind] : "?", (unsigned)c->size);
	}
	if (t->direct_meter >= 0 && t->direct_meter < img->nmeters) {
		const struct pisa_meter *m = &img->meters[t->direct_meter];

		fprintf(f, "  direct meter: %s (%s, %u cells)\n",
			named(img->rt_meters, img->nmeters, (unsigned)t->direct_meter),
			m->kind == PISA_METER_BYTES ? "bytes" : "packets", (unsigned)m->size);
	}
}

static void txt_stages(FILE *f, const struct lay *l)
{
	const struct pisa_profile *p = l->p;
	unsigned k, tps = p ? p->tables_per_stage : 0;

	fputs("\n== stages ==\n", f);
	if (p)
		fprintf(f, "used %u of %u%s; budget per stage: %u tables per gress, %u exact bits, "
			"%u tcam rows, %u insns, %u stateful bits\n", l->nstages, p->stages,
			l->nstages > p->stages ? " OVER" : "", tps, (unsigned)p->hash_bits,
			p->tcam_rows, p->insns_per_stage, (unsigned)p->stateful_bits);
	else
		fprintf(f, "used %u (no profile: budgets not checked)\n", l->nstages);
	for (k = 0; k < l->nstages; k++) {
		const struct sinfo *s = &l->s[k];

		fprintf(f, "stage %u: tables %u ingress, %u egress%s; exact bits ", k, s->tables[0],
			s->tables[1], p && (s->tables[0] > tps || s->tables[1] > tps) ? " OVER" : "");
		budget(f, s->hash_bits, p ? p->hash_bits : 0, p != NULL);
		fputs("; tcam rows ", f);
		budget(f, s->tcam_rows, p ? p->tcam_rows : 0, p != NULL);
		fputs("; insns ", f);
		budget(f, s->insns, p ? p->insns_per_stage : 0, p != NULL);
		fputs("; stateful bits ", f);
		budget(f, s->stateful, p ? p->stateful_bits : 0, p != NULL);
		fputc('\n', f);
	}
}

static void txt_phv(FILE *f, const struct lay *l)
{
	const struct pisa_image *img = l->img;
	unsigned b = 0, e, n[5] = { 0 };

	for (b = 0; b < img->phv_bytes; b++)
		n[l->phv_cat[b] < 5 ? l->phv_cat[b] : 0]++;
	fprintf(f, "\n== phv ==\nused %u of %u bytes", l->phv_used, img->phv_bytes);
	if (l->p)
		fprintf(f, " (board %u)%s", l->p->phv_bytes,
			img->phv_bytes > l->p->phv_bytes ? " OVER" : "");
	fprintf(f, ": fixed %u, validity %u, headers %u, metadata %u, free %u\n", n[CAT_FIXED],
		n[CAT_VALID], n[CAT_HDR], n[CAT_META], n[CAT_FREE]);
	for (b = 0; b < img->phv_bytes; b = e) {
		uint8_t c = l->phv_cat[b];

		for (e = b + 1; e < img->phv_bytes && l->phv_cat[e] == c &&
		     (c != CAT_HDR || l->phv_hdr[e] == l->phv_hdr[b]); e++)
			;
		fprintf(f, "  bytes %4u-%-4u ", b, e - 1);
		switch (c) {
		case CAT_FIXED:
			fputs("standard metadata and intrinsics\n", f);
			break;
		case CAT_VALID:
			fprintf(f, "validity bits (%u headers)\n", img->nheaders);
			break;
		case CAT_HDR:
			fprintf(f, "%s (%u bytes)\n", hname(img, l->phv_hdr[b]), e - b);
			break;
		case CAT_META:
			fputs("metadata and temporaries\n", f);
			break;
		default:
			fputs("free\n", f);
			break;
		}
	}
}

static void txt_parser(FILE *f, const struct pisa_image *img)
{
	unsigned i, rows = 0, ops = 0;

	for (i = 0; i < img->nstates; i++) {
		rows += img->states[i].nrows;
		ops += img->states[i].nops;
	}
	fprintf(f, "\n== parser ==\n%u states, %u rows, %u ops; start ", img->nstates, rows, ops);
	if (img->parser_start == PISA_PARSER_ACCEPT)
		fputs("accept\n", f);
	else if (img->parser_start == PISA_PARSER_REJECT)
		fputs("reject\n", f);
	else
		fprintf(f, "state %u\n", img->parser_start);
	for (i = 0; i < img->nstates; i++) {
		const struct pisa_parser_state *s = &img->states[i];
		unsigned j, kb = 0;

		for (j = 0; j < s->nkey && j < PISA_PARSER_MAX_KEY; j++)
			kb += s->key[j].width;
		fprintf(f, "  state %u: %u ops, key %u bits, %u rows", i, s->nops, kb, s->nrows);
		for (j = 0; j < s->nops; j++)
			if (s->ops[j].op == PISA_EXTRACT || s->ops[j].op == PISA_EXTRACT_VAR)
				fprintf(f, ", extracts %s", hname(img, s->ops[j].imm));
			else if (s->ops[j].op == PISA_EXTRACT_STACK)
				fprintf(f, ", extracts stack %u", s->ops[j].imm);
		fputc('\n', f);
	}
}

static void txt_deparser(FILE *f, const struct pisa_image *img)
{
	unsigned i;

	fprintf(f, "\n== deparser ==\nemit order (%u):", img->ndeparse);
	for (i = 0; i < img->ndeparse; i++)
		fprintf(f, "%s %s", i ? "," : "", hname(img, img->deparse[i]));
	fputc('\n', f);
	for (i = 0; i < img->nchecksums; i++) {
		const struct pisa_checksum *c = &img->checksums[i];

		fprintf(f, "checksum %u: %s%s into phv %u+%u\n", i,
			c->kind == PISA_CSUM_VERIFY ? "verify" : "update",
			c->with_payload ? " with payload" : "", c->dst.bitoff, c->dst.width);
	}
}

int pisa_layout_write_txt(const struct pisa_image *img, const struct pisa_profile *p, FILE *f)
{
	struct lay l;
	unsigned i;
	int ret;

	if (!f)
		return -PISA_E_INVAL;
	if ((ret = lay_build(&l, img, p)))
		return ret;
	fprintf(f, "layout of %s, image for board %s, measured against %s\n", img->program,
		img->board, l.p ? l.p->name : "no profile");
	fprintf(f, "%u tables, %u actions, %u stages, phv %u bytes\n\n== tables ==\n",
		img->ntables, img->nactions, l.nstages, img->phv_bytes);
	for (i = 0; i < img->ntables; i++)
		txt_table(f, &l, i);
	txt_stages(f, &l);
	txt_phv(f, &l);
	txt_parser(f, img);
	txt_deparser(f, img);
	lay_free(&l);
	return ferror(f) ? -PISA_E_IO : 0;
}

/* ---------------------------------------------------------------- SVG */

/* Distinct at a glance, dark text readable on all of them. */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#8cd17d", "#a0cbe8", "#ffbe7d",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f); break;
		}
}

static void svg_label(FILE *f, double x, double y, const char *attrs, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s>", x, y, attrs);
	xml_text(f, s);
	fputs("</text>\n", f);
}

#define COL_W 150.0
#define COL_GAP 16.0
#define CELL_H 14.0
#define MARGIN 20.0

/* One memory box: PISA_LAYOUT_CELLS cells; tables drawn as spans in proportion. */
static void svg_mem(FILE *f, const struct lay *l, unsigned stage, int tcam, double x, double y)
{
	const struct pisa_image *img = l->img;
	double h = CELL_H * PISA_LAYOUT_CELLS, w = COL_W - 40;
	uint64_t total, used = tcam ? l->s[stage].tcam_rows : l->s[stage].hash_bits;
	unsigned i;

	total = l->p ? (tcam ? l->p->tcam_rows : l->p->hash_bits) : used;
	if (!total)
		total = 1;
	if (used > total)	/* over budget: scale to what is there, outline red */
		total = used;
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\" "
		"stroke=\"%s\"/>\n", x, y, w, h,
		l->p && used > (tcam ? l->p->tcam_rows : l->p->hash_bits) ? "#d00000" : "#888888");
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];
		uint64_t off, n;
		double y0, hh;

		if (t->stage != stage || t->mem != (tcam ? PISA_MEM_TCAM : PISA_MEM_HASH))
			continue;
		off = tcam ? l->t[i].tcam_off : l->t[i].hash_off;
		n = tcam ? l->t[i].tcam_rows : l->t[i].hash_bits;
		y0 = y + h * (double)off / (double)total;
		hh = h * (double)n / (double)total;
		if (hh < 3)
			hh = 3;
		if (y0 + hh > y + h)
			y0 = y + h - hh;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			"<title>", x, y0, w, hh, palette[i % NPAL]);
		xml_text(f, tname(img, i));
		fprintf(f, ": %llu %s</title></rect>\n", (unsigned long long)n,
			tcam ? "tcam rows" : "exact bits");
		if (hh >= 12) {
			char buf[24];

			snprintf(buf, sizeof(buf), "%u", i);
			svg_label(f, x + w / 2, y0 + hh / 2 + 4, " text-anchor=\"middle\" font-size=\"10\"",
				  buf);
		}
	}
	for (i = 1; i < PISA_LAYOUT_CELLS; i++)	/* cell grid over the spans */
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ffffff\" "
			"stroke-opacity=\"0.6\"/>\n", x, y + i * CELL_H, x + w, y + i * CELL_H);
	svg_label(f, x + w + 4, y + 10, " font-size=\"9\" fill=\"#555555\"", tcam ? "tcam" : "exact");
}

int pisa_layout_write_svg(const struct pisa_image *img, const struct pisa_profile *p, FILE *f)
{
	struct lay l;
	unsigned cols, k, i, nleg = 0, perline;
	double width, y_mem, y_tab, y_phv, y_leg, height, bar_w;
	char buf[160];
	int ret;

	if (!f)
		return -PISA_E_INVAL;
	if ((ret = lay_build(&l, img, p)))
		return ret;
	cols = l.nstages;
	if (l.p && l.p->stages > cols && l.p->stages <= 16)
		cols = l.p->stages;	/* small boards: show the free stages too */
	width = 2 * MARGIN + cols * (COL_W + COL_GAP);
	if (width < 720)
		width = 720;
	{
		unsigned most = 0;

		for (k = 0; k < l.nstages; k++)
			if (l.s[k].tables[0] + l.s[k].tables[1] > most)
				most = l.s[k].tables[0] + l.s[k].tables[1];
		y_mem = MARGIN + 50;
		y_tab = y_mem + 2 * (CELL_H * PISA_LAYOUT_CELLS + 12) + 10;
		y_phv = y_tab + 14.0 * most + 30;
	}
	for (i = 0; i < img->nheaders; i++)
		nleg++;
	perline = (unsigned)((width - 2 * MARGIN) / 240);
	if (!perline)
		perline = 1;
	y_leg = y_phv + 60 + 16.0 * ((nleg + perline - 1) / perline);
	height = y_leg + 30 + 16.0 * img->ntables;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height, width, height);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		width, height);
	snprintf(buf, sizeof(buf), "%s on %s: %u tables, %u of %u stages, phv %u of %u bytes",
		 img->program, l.p ? l.p->name : img->board, img->ntables, l.nstages,
		 l.p ? l.p->stages : l.nstages, l.phv_used, img->phv_bytes);
	svg_label(f, MARGIN, MARGIN + 12, " font-size=\"16\" font-weight=\"bold\"", buf);

	for (k = 0; k < cols; k++) {
		double x = MARGIN + k * (COL_W + COL_GAP), ty = y_tab;

		snprintf(buf, sizeof(buf), "stage %u", k);
		svg_label(f, x, y_mem - 20, " font-weight=\"bold\"", buf);
		if (k >= l.nstages) {
			svg_label(f, x, y_mem - 6, " font-size=\"10\" fill=\"#888888\"", "unused");
			continue;
		}
		snprintf(buf, sizeof(buf), "%llu insns", (unsigned long long)l.s[k].insns);
		svg_label(f, x, y_mem - 6, " font-size=\"10\" fill=\"#555555\"", buf);
		svg_mem(f, &l, k, 0, x, y_mem);
		svg_mem(f, &l, k, 1, x, y_mem + CELL_H * PISA_LAYOUT_CELLS + 12);
		for (i = 0; i < img->ntables; i++) {
			const struct pisa_table *t = &img->tables[i];

			if (t->stage != k)
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x, ty - 9, palette[i % NPAL]);
			snprintf(buf, sizeof(buf), "%c %u %s", t->gress ? 'E' : 'I', i, tname(img, i));
			svg_label(f, x + 14, ty, is_gateway(t) ?
				  " font-size=\"10\" font-style=\"italic\"" : " font-size=\"10\"", buf);
			ty += 14;
		}
	}

	/* the PHV as one bar, headers coloured, fixed and validity grey */
	svg_label(f, MARGIN, y_phv - 8, " font-weight=\"bold\"", "PHV");
	bar_w = width - 2 * MARGIN;
	if (img->phv_bytes) {
		double bw = bar_w / img->phv_bytes;
		unsigned b, e;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\" fill=\"#ffffff\" "
			"stroke=\"#888888\"/>\n", MARGIN, y_phv, bar_w);
		for (b = 0; b < img->phv_bytes; b = e) {
			uint8_t c = l.phv_cat[b];
			const char *fill;

			for (e = b + 1; e < img->phv_bytes && l.phv_cat[e] == c &&
			     (c != CAT_HDR || l.phv_hdr[e] == l.phv_hdr[b]); e++)
				;
			if (c == CAT_FREE)
				continue;
			fill = c == CAT_FIXED ? "#bbbbbb" : c == CAT_VALID ? "#888888" :
			       c == CAT_META ? "#dddddd" : palette[(l.phv_hdr[b] + 3) % NPAL];
			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"24\" fill=\"%s\">"
				"<title>bytes %u-%u ", MARGIN + b * bw, y_phv, (e - b) * bw, fill, b, e - 1);
			xml_text(f, c == CAT_FIXED ? "standard metadata" : c == CAT_VALID ? "validity" :
				 c == CAT_META ? "metadata" : hname(img, l.phv_hdr[b]));
			fputs("</title></rect>\n", f);
		}
		snprintf(buf, sizeof(buf), "%u of %u bytes used; grey: standard metadata, validity, "
			 "metadata", l.phv_used, img->phv_bytes);
		svg_label(f, MARGIN, y_phv + 40, " font-size=\"10\" fill=\"#555555\"", buf);
		for (i = 0; i < img->nheaders; i++) {
			double x = MARGIN + (i % perline) * 240.0, y = y_phv + 60 + 16.0 * (i / perline);

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x, y - 9, palette[(i + 3) % NPAL]);
			snprintf(buf, sizeof(buf), "%s: bytes %u-%u", hname(img, i),
				 img->headers[i].phv_byte,
				 img->headers[i].phv_byte + img->headers[i].bytes - 1);
			svg_label(f, x + 14, y, " font-size=\"10\"", buf);
		}
	}

	/* legend: every table with its colour */
	svg_label(f, MARGIN, y_leg, " font-weight=\"bold\"", "Tables");
	for (i = 0; i < img->ntables; i++) {
		const struct pisa_table *t = &img->tables[i];
		double y = y_leg + 18 + 16.0 * i;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			MARGIN, y - 10, palette[i % NPAL]);
		snprintf(buf, sizeof(buf), "%u %s: %s stage %u, %s, %u entries%s", i, tname(img, i),
			 t->gress ? "egress" : "ingress", t->stage,
			 t->mem <= PISA_MEM_TCAM ? mem_names[t->mem] : "?",
			 t->mem == PISA_MEM_NONE ? 0u : (unsigned)t->rows,
			 is_gateway(t) ? " (gateway)" : "");
		svg_label(f, MARGIN + 18, y, "", buf);
	}
	fputs("</svg>\n", f);
	lay_free(&l);
	return ferror(f) ? -PISA_E_IO : 0;
}
