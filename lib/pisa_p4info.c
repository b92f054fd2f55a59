/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_p4info.c: P4Info (P4Runtime 1.x, p4/config/v1/p4info.proto and
 * p4types.proto) in protobuf text format, from a config image.
 *
 * Format facts, checked against p4lang/p4runtime proto/p4/config/v1/ and
 * p4lang/p4c control-plane/p4RuntimeSymbolTable.cpp:
 *  - P4Info fields in number order: pkg_info 1, tables 2, actions 3,
 *    action_profiles 4, counters 5, direct_counters 6, meters 7,
 *    direct_meters 8, controller_packet_metadata 9, value_sets 10,
 *    registers 11, digests 12. Text format prints set fields in field-number
 *    order; proto3 scalars equal to their default (0, false, "") are omitted.
 *  - Id prefixes (P4Ids.Prefix, top byte): ACTION 0x01, TABLE 0x02,
 *    VALUE_SET 0x03, ACTION_PROFILE 0x11, COUNTER 0x12, DIRECT_COUNTER 0x13,
 *    METER 0x14, DIRECT_METER 0x15, REGISTER 0x16, DIGEST 0x17. Id 0 is
 *    invalid. The image's rt_*.p4info_id carry them already.
 *  - Preamble: id 1, name 2, alias 3, annotations 4. The alias p4c writes is
 *    the shortest dot-separated suffix of the name that is unique among ALL
 *    the names it exports (one suffix set for every kind of object); a name
 *    that is a suffix of another keeps all its components.
 *  - Table: preamble 1, match_fields 2, action_refs 3,
 *    const_default_action_id 4, implementation_id 6, direct_resource_ids 7,
 *    size 8 (int64), idle_timeout_behavior 9, is_const_table 10.
 *  - MatchField: id 1, name 2, bitwidth 4, match_type 5 with EXACT 2, LPM 3,
 *    TERNARY 4, RANGE 5, OPTIONAL 6 (printed by name). Ids from 1 in key order.
 *  - ActionRef: id 1, annotations 2, scope 3 (TABLE_AND_DEFAULT 0 = omitted,
 *    TABLE_ONLY 1, DEFAULT_ONLY 2); p4c also writes the annotation
 *    "@defaultonly" / "@tableonly" beside the scope, so do we.
 *  - Action: preamble 1, params 2; Param: id 1, name 2, bitwidth 4.
 *  - CounterSpec.unit: BYTES 1, PACKETS 2, BOTH 3. Counter: preamble, spec,
 *    size 3. DirectCounter: preamble, spec, direct_table_id 3.
 *  - MeterSpec.unit: BYTES 1, PACKETS 2. Meter: preamble, spec, size 3.
 *    DirectMeter: preamble, spec, direct_table_id 3.
 *  - Register: preamble 1, type_spec 2 (P4DataTypeSpec), size 3;
 *    bit<W> is `bitstring { bit { bitwidth: W } }`.
 *  - Digest: preamble 1, type_spec 2. P4DataTypeSpec's oneof has
 *    bitstring 1, bool 2, tuple 3 (P4TupleTypeSpec: repeated members 1),
 *    struct 4 (a name into type_info).
 *  - ActionProfile: preamble 1, table_ids 2, with_selector 3, size 4 (int64),
 *    max_group_size 5 (int32). A table with one names it in implementation_id;
 *    its action_refs are the profile's actions (here: the member table's) and
 *    its match_fields leave out the `selector` keys, as p4c does.
 *
 * Simplifications, because an image keeps no P4 types:
 *  - A digest's type_spec is a tuple of bit<W> members, one per field of its
 *    field list, in order (p4c writes this shape for digests of a list
 *    expression; for a struct it would name the struct and fill type_info).
 *    A P4 field wider than 64 bits lies in the PHV as several fields and so
 *    shows as several members.
 *  - No value_sets, controller_packet_metadata or type_info: the image does
 *    not describe them (yet).
 *  - pkg_info holds arch "v1model" and the program name.
 */
#include <stdlib.h>
#include <string.h>

#include "pisa_p4info.h"

struct names {
	const char **v;
	unsigned n, cap;
};

static int names_add(struct names *s, const char *name)
{
	unsigned i;

	if (!name || !*name)
		return 0;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return 0;
	if (s->n == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 64;
		const char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -PISA_E_NOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = name;
	return 0;
}

/* Start of the last k dot-separated components of name, or NULL if it has fewer. */
static const char *suffix(const char *name, unsigned k)
{
	const char *p = name + strlen(name);

	while (p > name) {
		p--;
		if (*p == '.' && --k == 0)
			return p + 1;
	}
	return k == 1 ? name : NULL;
}

/* p4c's shortest unique suffix over the set of exported names. */
static const char *alias_of(const struct names *s, const char *name)
{
	unsigned k, i, count;
	const char *suf, *other;

	for (k = 1; (suf = suffix(name, k)) != NULL; k++) {
		count = 0;
		for (i = 0; i < s->n; i++) {
			other = suffix(s->v[i], k);
			if (other && !strcmp(other, suf))
				count++;
		}
		if (count < 2)
			return suf;
	}
	return name;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void preamble(FILE *f, const struct names *s, uint32_t id, const char *name)
{
	fprintf(f, "  preamble {\n    id: %u\n    name: ", (unsigned)id);
	put_str(f, name);
	fputs("\n    alias: ", f);
	put_str(f, alias_of(s, name));
	fputs("\n  }\n", f);
}

static const char *const match_names[] = {
	[PISA_MATCH_EXACT] = "EXACT", [PISA_MATCH_TERNARY] = "TERNARY",
	[PISA_MATCH_LPM] = "LPM", [PISA_MATCH_RANGE] = "RANGE",
	[PISA_MATCH_OPTIONAL] = "OPTIONAL",
};

int pisa_p4info_table_visible(const struct pisa_image *img, unsigned t)
{
	const struct pisa_rt_table *rt;
	unsigned i;

	if (!img->rt_tables || t >= img->ntables)
		return 0;
	rt = &img->rt_tables[t];
	if (!rt->p4info_id || !rt->name || img->tables[t].next_mode == PISA_NEXT_COND)
		return 0;
	for (i = 0; i < t; i++)	/* a later piece of a split table */
		if (img->rt_tables[i].p4info_id == rt->p4info_id &&
		    img->tables[i].next_mode != PISA_NEXT_COND)
			return 0;
	return 1;
}

/* The profile whose member table or match table t is, or NULL. */
static const struct pisa_rt_profile *profile_of(const struct pisa_image *img, unsigned t,
						int *is_member)
{
	unsigned i, j;

	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];

		*is_member = p->member_table == t;
		if (*is_member)
			return p;
		for (j = 0; j < p->ntables; j++)
			if (p->tables[j].table == t)
				return p;
	}
	return NULL;
}

/* The table whose actions a controller sees for table t: a profile's match
 * table shows the actions of the member table; a table split over stages, its
 * last piece's (the others miss into the next piece with a compiler action). */
static const struct pisa_table *action_table(const struct pisa_image *img, unsigned t)
{
	int m;
	const struct pisa_rt_profile *p = profile_of(img, t, &m);
	unsigned i, last;

	if (p && p->member_table < img->ntables)
		t = p->member_table;
	for (i = t + 1, last = t; img->rt_tables[t].p4info_id && i < img->ntables; i++)
		if (img->rt_tables[i].p4info_id == img->rt_tables[t].p4info_id)
			last = i;
	return &img->tables[last];
}

/* Actions a controller may name: those of the visible tables. */
static int action_visible(const struct pisa_image *img, unsigned a)
{
	const struct pisa_table *at;
	unsigned t, j;

	if (!img->rt_actions[a].p4info_id || !img->rt_actions[a].name)
		return 0;
	for (t = 0; t < img->ntables; t++) {
		if (!pisa_p4info_table_visible(img, t))
			continue;
		at = action_table(img, t);
		for (j = 0; j < at->nactions; j++)
			if (at->actions[j].action == a)
				goto used;
	}
	return 0;
used:
	for (j = 0; j < a; j++)	/* the same id twice: write it once */
		if (img->rt_actions[j].p4info_id == img->rt_actions[a].p4info_id)
			return 0;
	return 1;
}

/* First index before i in v[] with the same p4info_id, i.e. i is a duplicate. */
static int named_dup(const struct pisa_rt_named *v, unsigned i)
{
	unsigned j;

	if (!v[i].p4info_id || !v[i].name)
		return 1;
	for (j = 0; j < i; j++)
		if (v[j].p4info_id == v[i].p4info_id)
			return 1;
	return 0;
}

static uint32_t table_id(const struct pisa_image *img, int16_t t)
{
	return t >= 0 && t < img->ntables ? img->rt_tables[t].p4info_id : 0;
}

static int collect_names(const struct pisa_image *img, struct names *s)
{
	unsigned i;
	int ret = 0;

	for (i = 0; i < img->ntables && !ret; i++)
		if (pisa_p4info_table_visible(img, i))
			ret = names_add(s, img->rt_tables[i].name);
	for (i = 0; i < img->nactions && !ret; i++)
		if (action_visible(img, i))
			ret = names_add(s, img->rt_actions[i].name);
	for (i = 0; i < img->ncounters && !ret; i++)
		if (!named_dup(img->rt_counters, i))
			ret = names_add(s, img->rt_counters[i].name);
	for (i = 0; i < img->nmeters && !ret; i++)
		if (!named_dup(img->rt_meters, i))
			ret = names_add(s, img->rt_meters[i].name);
	for (i = 0; i < img->nregisters && !ret; i++)
		if (!named_dup(img->rt_registers, i))
			ret = names_add(s, img->rt_registers[i].name);
	for (i = 0; i < img->ndigests && !ret; i++)
		if (!named_dup(img->rt_digests, i))
			ret = names_add(s, img->rt_digests[i].name);
	for (i = 0; i < img->nprofiles && !ret; i++)
		ret = names_add(s, img->rt_profiles[i].name);
	return ret;
}

static void write_table(const struct pisa_image *img, const struct names *s, FILE *f,
			unsigned ti)
{
	const struct pisa_table *t = &img->tables[ti], *at = action_table(img, ti);
	const struct pisa_rt_table *rt = &img->rt_tables[ti];
	int member;
	const struct pisa_rt_profile *prof = profile_of(img, ti, &member);
	unsigned j;

	fputs("tables {\n", f);
	preamble(f, s, rt->p4info_id, rt->name);
	for (j = 0; j < rt->nkeys; j++) {
		const struct pisa_rt_key *k = &rt->keys[j];

		fprintf(f, "  match_fields {\n    id: %u\n    name: ", j + 1);
		put_str(f, k->name);
		fprintf(f, "\n    bitwidth: %u\n    match_type: %s\n  }\n", k->width,
			k->match <= PISA_MATCH_OPTIONAL ? match_names[k->match] : "UNSPECIFIED");
	}
	for (j = 0; j < at->nactions; j++) {
		const struct pisa_table_action *ta = &at->actions[j];

		if (ta->action >= img->nactions)
			continue;
		fprintf(f, "  action_refs {\n    id: %u\n", (unsigned)img->rt_actions[ta->action].p4info_id);
		if (ta->flags & PISA_TA_DEFAULT_ONLY)
			fputs("    annotations: \"@defaultonly\"\n    scope: DEFAULT_ONLY\n", f);
		else if (ta->flags & PISA_TA_TABLE_ONLY)
			fputs("    annotations: \"@tableonly\"\n    scope: TABLE_ONLY\n", f);
		fputs("  }\n", f);
	}
	if (rt->const_default && at->default_action < img->nactions)
		fprintf(f, "  const_default_action_id: %u\n",
			(unsigned)img->rt_actions[at->default_action].p4info_id);
	if (prof)
		fprintf(f, "  implementation_id: %u\n", (unsigned)prof->p4info_id);
	if (t->direct_counter >= 0 && t->direct_counter < img->ncounters)
		fprintf(f, "  direct_resource_ids: %u\n",
			(unsigned)img->rt_counters[t->direct_counter].p4info_id);
	if (t->direct_meter >= 0 && t->direct_meter < img->nmeters)
		fprintf(f, "  direct_resource_ids: %u\n",
			(unsigned)img->rt_meters[t->direct_meter].p4info_id);
	if (rt->size)
		fprintf(f, "  size: %u\n", (unsigned)rt->size);
	if (rt->const_entries)
		fputs("  is_const_table: true\n", f);
	fputs("}\n", f);
}

static void write_action(const struct pisa_image *img, const struct names *s, FILE *f,
			 unsigned ai)
{
	const struct pisa_rt_action *ra = &img->rt_actions[ai];
	unsigned j;

	fputs("actions {\n", f);
	preamble(f, s, ra->p4info_id, ra->name);
	for (j = 0; j < ra->nparams; j++) {
		fprintf(f, "  params {\n    id: %u\n    name: ", j + 1);
		put_str(f, ra->params[j].name);
		fprintf(f, "\n    bitwidth: %u\n  }\n", ra->params[j].width);
	}
	fputs("}\n", f);
}

static const char *const counter_units[] = {
	[PISA_COUNTER_PACKETS] = "PACKETS", [PISA_COUNTER_BYTES] = "BYTES",
	[PISA_COUNTER_BOTH] = "BOTH",
};

static void write_counters(const struct pisa_image *img, const struct names *s, FILE *f,
			   int direct)
{
	unsigned i;

	for (i = 0; i < img->ncounters; i++) {
		const struct pisa_counter *c = &img->counters[i];

		if ((c->direct_table >= 0) != direct || named_dup(img->rt_counters, i))
			continue;
		fputs(direct ? "direct_counters {\n" : "counters {\n", f);
		preamble(f, s, img->rt_counters[i].p4info_id, img->rt_counters[i].name);
		fprintf(f, "  spec {\n    unit: %s\n  }\n",
			c->kind <= PISA_COUNTER_BOTH ? counter_units[c->kind] : "UNSPECIFIED");
		if (direct)
			fprintf(f, "  direct_table_id: %u\n", (unsigned)table_id(img, c->direct_table));
		else
			fprintf(f, "  size: %u\n", (unsigned)c->size);
		fputs("}\n", f);
	}
}

static void write_meters(const struct pisa_image *img, const struct names *s, FILE *f,
			 int direct)
{
	unsigned i;

	for (i = 0; i < img->nmeters; i++) {
		const struct pisa_meter *m = &img->meters[i];

		if ((m->direct_table >= 0) != direct || named_dup(img->rt_meters, i))
			continue;
		fputs(direct ? "direct_meters {\n" : "meters {\n", f);
		preamble(f, s, img->rt_meters[i].p4info_id, img->rt_meters[i].name);
		fprintf(f, "  spec {\n    unit: %s\n  }\n",
			m->kind == PISA_METER_BYTES ? "BYTES" : "PACKETS");
		if (direct)
			fprintf(f, "  direct_table_id: %u\n", (unsigned)table_id(img, m->direct_table));
		else
			fprintf(f, "  size: %u\n", (unsigned)m->size);
		fputs("}\n", f);
	}
}

static void write_bits(FILE *f, const char *ind, unsigned width)
{
	fprintf(f, "%sbitstring {\n%s  bit {\n%s    bitwidth: %u\n%s  }\n%s}\n", ind, ind, ind,
		width, ind, ind);
}

int pisa_p4info_write(const struct pisa_image *img, FILE *f)
{
	struct names s = { 0 };
	unsigned i, j;
	int ret;

	if (!img || !f || (img->ntables && !img->rt_tables) || (img->nactions && !img->rt_actions) ||
	    (img->ncounters && !img->rt_counters) || (img->nmeters && !img->rt_meters) ||
	    (img->nregisters && !img->rt_registers) || (img->ndigests && !img->rt_digests))
		return -PISA_E_INVAL;
	if ((ret = collect_names(img, &s)))
		goto out;

	fputs("pkg_info {\n  name: ", f);
	put_str(f, img->program);
	fputs("\n  arch: \"v1model\"\n}\n", f);
	for (i = 0; i < img->ntables; i++)
		if (pisa_p4info_table_visible(img, i))
			write_table(img, &s, f, i);
	for (i = 0; i < img->nactions; i++)
		if (action_visible(img, i))
			write_action(img, &s, f, i);
	for (i = 0; i < img->nprofiles; i++) {
		const struct pisa_rt_profile *p = &img->rt_profiles[i];

		fputs("action_profiles {\n", f);
		preamble(f, &s, p->p4info_id, p->name);
		for (j = 0; j < p->ntables; j++)
			if (p->tables[j].table < img->ntables)
				fprintf(f, "  table_ids: %u\n",
					(unsigned)img->rt_tables[p->tables[j].table].p4info_id);
		if (p->with_selector)
			fputs("  with_selector: true\n", f);
		fprintf(f, "  size: %u\n", (unsigned)p->size);
		if (p->max_group_size)
			fprintf(f, "  max_group_size: %u\n", (unsigned)p->max_group_size);
		fputs("}\n", f);
	}
	write_counters(img, &s, f, 0);
	write_counters(img, &s, f, 1);
	write_meters(img, &s, f, 0);
	write_meters(img, &s, f, 1);
	for (i = 0; i < img->nregisters; i++) {
		if (named_dup(img->rt_registers, i))
			continue;
		fputs("registers {\n", f);
		preamble(f, &s, img->rt_registers[i].p4info_id, img->rt_registers[i].name);
		fputs("  type_spec {\n", f);
		write_bits(f, "    ", img->registers[i].width);
		fprintf(f, "  }\n  size: %u\n}\n", (unsigned)img->registers[i].size);
	}
	for (i = 0; i < img->ndigests; i++) {
		const struct pisa_field_list *fl;

		if (named_dup(img->rt_digests, i))
			continue;
		fputs("digests {\n", f);
		preamble(f, &s, img->rt_digests[i].p4info_id, img->rt_digests[i].name);
		fputs("  type_spec {\n    tuple {\n", f);
		if (img->digests[i].field_list < img->nfield_lists) {
			fl = &img->field_lists[img->digests[i].field_list];
			for (j = 0; j < fl->nfields; j++) {
				fputs("      members {\n", f);
				write_bits(f, "        ", fl->fields[j].width);
				fputs("      }\n", f);
			}
		}
		fputs("    }\n  }\n}\n", f);
	}
	ret = ferror(f) ? -PISA_E_IO : 0;
out:
	free(s.v);
	return ret;
}
