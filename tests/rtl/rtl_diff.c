/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rtl_diff: differential test of the RTL core against pisa-model. Both get
 * the same control-plane commands (an STF test's entries, then random
 * default actions and random entries) and the same packets (the STF test's,
 * mutated, and random ones; the test's CLI lines, multicast groups and
 * mirroring sessions, go to both too); every packet that leaves (port and bytes, in
 * order), every drop, every digest, and at the end every counter and
 * register cell must be equal. Prints "PASS rtl-diff/NAME (...)" or "FAIL rtl-diff/NAME: first
 * difference".
 *
 * usage: rtl_diff [--seed S] [--packets N] [--entries N] [--name NAME]
 *                 [--bench N] HARNESS.vvp IMAGE [TEST.stf]
 *
 * --bench N: after the STF test's entries, N copies of its first packet cut or
 * zero-padded to 64 bytes, no random entries, the packet sink always ready;
 * prints the core's cycles per packet and the simulation's speed in cycles per
 * second (benchmarks).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pisa_ctl.h"
#include "pisa_file.h"
#include "pisa_model.h"
#include "stf.h"
#include "stf_rtl.h"

#define MAX_PKT 1600
#define MAX_SEEDS 256

struct out_pkt {
	uint16_t port;
	size_t len;
	uint8_t *data;
};

struct outs {
	struct out_pkt *p;
	size_t n, cap;
};

static const char *name = "?";
static uint64_t rs = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	/* splitmix64: seeded, so a failure can be replayed with --seed */
	uint64_t z = (rs += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void failf(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL rtl-diff/%s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void collect(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	struct outs *o = arg;

	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->p = realloc(o->p, o->cap * sizeof(*o->p));
		if (!o->p)
			failf("out of memory");
	}
	o->p[o->n].port = port;
	o->p[o->n].len = len;
	o->p[o->n].data = malloc(len ? len : 1);
	if (!o->p[o->n].data)
		failf("out of memory");
	memcpy(o->p[o->n].data, data, len);
	o->n++;
}

/* A random value of w bits as 0x... */
static void hexval(char *buf, size_t n, unsigned w)
{
	unsigned nib = (w + 3) / 4, i;
	size_t o = (size_t)snprintf(buf, n, "0x");

	for (i = 0; i < nib && o + 1 < n; i++) {
		unsigned v = (unsigned)(rnd() & 0xF);

		if (i == 0 && w % 4)
			v &= (1u << (w % 4)) - 1;
		buf[o++] = "0123456789abcdef"[v];
	}
	buf[o] = '\0';
}

/* A random table_add or table_set_default line for table t, or 0. */
static int random_command(const struct pisa_image *img, unsigned t, int deflt, char *line,
			  size_t n)
{
	const struct pisa_table *tb = &img->tables[t];
	const struct pisa_rt_table *rt = &img->rt_tables[t];
	const struct pisa_table_action *ta;
	const struct pisa_rt_action *ra;
	size_t o;
	unsigned k, prio = 0;
	char v[80], m[80];

	if (!rt->name || !tb->nactions || (deflt ? rt->const_default : rt->const_entries))
		return 0;
	if (!deflt && tb->mem == PISA_MEM_NONE)
		return 0;
	ta = &tb->actions[rnd() % tb->nactions];
	if (ta->flags & (deflt ? PISA_TA_TABLE_ONLY : PISA_TA_DEFAULT_ONLY))
		return 0;
	ra = &img->rt_actions[ta->action];
	if (!ra->name)
		return 0;
	o = (size_t)snprintf(line, n, "%s %s %s", deflt ? "table_set_default" : "table_add",
			     rt->name, ra->name);
	for (k = 0; !deflt && k < rt->nkeys && o < n; k++) {
		unsigned w = rt->keys[k].width;

		hexval(v, sizeof(v), w);
		switch (rt->keys[k].match) {
		case PISA_MATCH_LPM:
			o += (size_t)snprintf(line + o, n - o, " %s/%u", v,
					      (unsigned)(rnd() % (w + 1)));
			break;
		case PISA_MATCH_TERNARY:
		case PISA_MATCH_OPTIONAL:
			hexval(m, sizeof(m), w);
			o += (size_t)snprintf(line + o, n - o, " %s&&&%s", v, m);
			prio = 1;
			break;
		case PISA_MATCH_RANGE:
			o += (size_t)snprintf(line + o, n - o, " 0->%s", v);
			prio = 1;
			break;
		default:
			o += (size_t)snprintf(line + o, n - o, " %s", v);
			break;
		}
	}
	if (!deflt || ra->nparams)
		o += (size_t)snprintf(line + o, n - o, " =>");
	for (k = 0; k < ra->nparams && o < n; k++) {
		hexval(v, sizeof(v), ra->params[k].width);
		o += (size_t)snprintf(line + o, n - o, " %s", v);
	}
	if (prio && o < n)
		snprintf(line + o, n - o, " %u", (unsigned)(rnd() % 1000) + 1);
	return o < n;
}

struct seedpkt {
	unsigned port;
	size_t len;
	uint8_t d[MAX_PKT];
};

int main(int argc, char **argv)
{
	const char *harness = NULL, *image = NULL, *stfpath = NULL;
	unsigned long seed = 1, npackets = 200, nentries = 64, bench = 0;
	struct pisa_image *img = NULL;
	struct pisa_model *m;
	struct stf_rtl *rtl;
	struct pisa_ctl *cm, *cr;
	struct stf_file f = { 0, NULL };
	static struct seedpkt seeds[MAX_SEEDS];
	unsigned nseeds = 0, i, k, cmds = 0, cells = 0;
	struct outs om = { 0 }, orr = { 0 }, dm = { 0 }, dr = { 0 };
	char err[1024], line[2048];
	int e;
	uint64_t now = 0;
	FILE *null = fopen("/dev/null", "w");

	for (i = 1; i < (unsigned)argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < (unsigned)argc)
			seed = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--packets") && i + 1 < (unsigned)argc)
			npackets = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--entries") && i + 1 < (unsigned)argc)
			nentries = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--bench") && i + 1 < (unsigned)argc)
			bench = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--name") && i + 1 < (unsigned)argc)
			name = argv[++i];
		else if (!harness)
			harness = argv[i];
		else if (!image)
			image = argv[i];
		else if (!stfpath)
			stfpath = argv[i];
		else
			failf("usage: rtl_diff [--seed S] [--packets N] [--entries N] [--name NAME] "
			      "HARNESS.vvp IMAGE [TEST.stf]");
	}
	if (!harness || !image || !null)
		failf("usage: rtl_diff [--seed S] [--packets N] [--entries N] [--name NAME] "
		      "HARNESS.vvp IMAGE [TEST.stf]");
	rs ^= seed * 0xD1B54A32D192ED03ull;
	e = pisa_image_read_file(image, &img, err, sizeof(err));
	if (e < 0)
		failf("%s: %s %s", image, pisa_strerror(-e), err);
	m = pisa_model_new(img);
	rtl = stf_rtl_new(img, harness, NULL, err, sizeof(err));
	if (!m || !rtl)
		failf("cannot set up: %s", rtl ? "out of memory" : err);
	pisa_model_set_digest_cb(m, collect, &dm);
	stf_rtl_set_digest_cb(rtl, collect, &dr);
	cm = pisa_ctl_new(img, &pisa_model_ops, m);
	cr = pisa_ctl_new(img, &stf_rtl_ops, rtl);
	if (!cm || !cr || pisa_ctl_init(cm) < 0 || pisa_ctl_init(cr) < 0)
		failf("cannot write the initial state");

	/* the STF test's entries and packets */
	if (stfpath) {
		uint8_t *text;
		size_t len;

		if (pisa_file_read(stfpath, STF_MAX_FILE, &text, &len) < 0 ||
		    stf_parse((char *)text, len, &f, err, sizeof(err)) < 0)
			failf("%s: cannot read: %s", stfpath, err);
		free(text);
		for (i = 0; i < f.n; i++) {
			const struct stf_stmt *s = &f.s[i];
			char *l;

			if (s->kind == STF_ADD || s->kind == STF_SETDEFAULT || s->kind == STF_CLI) {
				l = s->kind == STF_CLI ? strdup(s->cli) :
				    stf_xlate(img, s, err, sizeof(err));
				if (l && pisa_ctl_exec(cm, l, null, err, sizeof(err)) == 0) {
					if (pisa_ctl_exec(cr, l, null, err, sizeof(err)) < 0)
						failf("%s: the model took it, the RTL side not: %s", l, err);
					cmds++;
				}
				free(l);
			} else if (s->kind == STF_PACKET && nseeds < MAX_SEEDS && s->ndata / 2 <= MAX_PKT &&
				   s->ndata >= 2) {
				struct seedpkt *p = &seeds[nseeds++];

				p->port = s->port;
				p->len = s->ndata / 2;
				for (k = 0; k < p->len; k++) {
					char h[3] = { s->data[2 * k], s->data[2 * k + 1], 0 };

					p->d[k] = (uint8_t)strtoul(h, NULL, 16);
				}
			}
		}
	}
	if (bench) {
		struct stf_rtl_stats s0, s1;
		struct timespec t0, t1;
		double secs;

		if (!nseeds)
			failf("--bench needs a TEST.stf with a packet");
		if (seeds[0].len < 64)
			memset(seeds[0].d + seeds[0].len, 0, 64 - seeds[0].len);
		if (stf_rtl_backpressure(rtl, 0) < 0 || stf_rtl_stats(rtl, &s0) < 0)
			failf("%s", stf_rtl_error(rtl));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < bench; i++)
			if (stf_rtl_inject(rtl, seeds[0].port, seeds[0].d, 64, ++now, collect, &orr) < 0)
				failf("packet %u: %s", i, stf_rtl_error(rtl));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (stf_rtl_stats(rtl, &s1) < 0)
			failf("%s", stf_rtl_error(rtl));
		secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		printf("BENCH rtl/%s: %.1f cycles per 64-byte packet (%lu packets, %" PRIu64
		       " sent, %" PRIu64 " dropped), %.0f simulated cycles/s\n", name,
		       (double)(s1.cycles - s0.cycles) / (double)bench, bench, s1.tx - s0.tx,
		       s1.drop - s0.drop, (double)(s1.cycles - s0.cycles) / secs);
		stf_rtl_free(rtl);
		return 0;
	}
	/* random default actions and entries; what the model refuses is not sent */
	for (i = 0; i < img->ntables; i++)
		if (rnd() % 2 && random_command(img, i, 1, line, sizeof(line)) &&
		    pisa_ctl_exec(cm, line, null, err, sizeof(err)) == 0) {
			if (pisa_ctl_exec(cr, line, null, err, sizeof(err)) < 0)
				failf("%s: the model took it, the RTL side not: %s", line, err);
			cmds++;
		}
	for (i = 0; img->ntables && i < nentries; i++)
		if (random_command(img, (unsigned)(rnd() % img->ntables), 0, line, sizeof(line)) &&
		    pisa_ctl_exec(cm, line, null, err, sizeof(err)) == 0) {
			if (pisa_ctl_exec(cr, line, null, err, sizeof(err)) < 0)
				failf("%s: the model took it, the RTL side not: %s", line, err);
			cmds++;
		}

	/* packets: seeds mutated in a few bytes, cut or extended, or random */
	for (i = 0; i < npackets; i++) {
		struct seedpkt p;
		unsigned nm;

		if (nseeds && rnd() % 8) {
			p = seeds[rnd() % nseeds];
			for (nm = (unsigned)(rnd() % 4); nm; nm--)
				p.d[rnd() % p.len] ^= (uint8_t)(1u << (rnd() % 8));
			if (rnd() % 8 == 0)
				p.len = 1 + (size_t)(rnd() % p.len);
			if (rnd() % 8 == 0 && p.len < MAX_PKT - 64) {
				for (k = 0; k < 64; k++)
					p.d[p.len + k] = (uint8_t)rnd();
				p.len += 1 + (size_t)(rnd() % 64);
			}
			if (rnd() % 8 == 0)
				p.port = (unsigned)(rnd() % 8);
		} else {
			p.port = (unsigned)(rnd() % 8);
			p.len = 1 + (size_t)(rnd() % 128);
			for (k = 0; k < p.len; k++)
				p.d[k] = (uint8_t)rnd();
		}
		now += 1 + rnd() % 1000;
		if (pisa_model_inject(m, (uint16_t)p.port, p.d, p.len, now, collect, &om) < 0)
			failf("the model refused packet %u", i);
		if (stf_rtl_inject(rtl, p.port, p.d, p.len, now, collect, &orr) < 0)
			failf("packet %u: %s", i, stf_rtl_error(rtl) ? stf_rtl_error(rtl) : "refused");
	}
	for (i = 0; i < om.n || i < orr.n; i++) {
		if (i >= om.n)
			failf("output %u: the RTL sent a packet to port %u that the model did not", i,
			      orr.p[i].port);
		if (i >= orr.n)
			failf("output %u: the model sent a packet to port %u, the RTL did not", i,
			      om.p[i].port);
		if (om.p[i].port != orr.p[i].port || om.p[i].len != orr.p[i].len)
			failf("output %u: model port %u len %zu, RTL port %u len %zu", i, om.p[i].port,
			      om.p[i].len, orr.p[i].port, orr.p[i].len);
		for (k = 0; k < om.p[i].len; k++)
			if (om.p[i].data[k] != orr.p[i].data[k])
				failf("output %u: byte %u: model %02x, RTL %02x", i, k, om.p[i].data[k],
				      orr.p[i].data[k]);
	}
	for (i = 0; i < dm.n || i < dr.n; i++) {
		if (i >= dm.n || i >= dr.n)
			failf("digest %u: %s sent it, the %s did not", i, i >= dm.n ? "the RTL" :
			      "the model", i >= dm.n ? "model" : "RTL");
		if (dm.p[i].port != dr.p[i].port || dm.p[i].len != dr.p[i].len ||
		    memcmp(dm.p[i].data, dr.p[i].data, dm.p[i].len))
			failf("digest %u: model id %u, %zu bytes; RTL id %u, %zu bytes, or other bytes", i,
			      dm.p[i].port, dm.p[i].len, dr.p[i].port, dr.p[i].len);
	}
	/* every counter and register cell */
	for (i = 0; i < img->ncounters + img->nregisters; i++) {
		int reg = i >= img->ncounters;
		unsigned id = reg ? i - img->ncounters : i;
		uint32_t size = reg ? img->registers[id].size : img->counters[id].size;

		for (k = 0; k < size; k++, cells++) {
			uint64_t a = 0, b = 0, ma = 0, mb = 0;
			int er, em;

			if (reg) {
				em = pisa_model_ops.register_read(m, (uint16_t)id, k, &ma);
				er = stf_rtl_ops.register_read(rtl, (uint16_t)id, k, &a);
			} else {
				em = pisa_model_ops.counter_read(m, (uint16_t)id, k, &ma, &mb);
				er = stf_rtl_ops.counter_read(rtl, (uint16_t)id, k, &a, &b);
			}
			if (er != em || a != ma || b != mb)
				failf("%s %u cell %u: model %" PRIu64 "/%" PRIu64 " (%d), RTL %" PRIu64
				      "/%" PRIu64 " (%d)", reg ? "register" : "counter", id, k, ma, mb,
				      em, a, b, er);
		}
	}
	printf("PASS rtl-diff/%s (seed %lu: %lu packets, %zu out, %zu digests, %u commands, %u cells)\n",
	       name, seed, npackets, om.n, dm.n, cmds, cells);
	for (i = 0; i < om.n; i++)
		free(om.p[i].data);
	for (i = 0; i < orr.n; i++)
		free(orr.p[i].data);
	for (i = 0; i < dm.n; i++)
		free(dm.p[i].data);
	for (i = 0; i < dr.n; i++)
		free(dr.p[i].data);
	free(om.p);
	free(orr.p);
	free(dm.p);
	free(dr.p);
	stf_file_free(&f);
	pisa_ctl_free(cm);
	pisa_ctl_free(cr);
	stf_rtl_free(rtl);
	pisa_model_free(m);
	pisa_image_free(img);
	fclose(null);
	return 0;
}
