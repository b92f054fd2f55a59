// SPDX-License-Identifier: Apache-2.0
/*
 * stf_run.c: runs a parsed STF file the way bmv2stf.py does, on pisa-model
 * in-process: statements in file order, CLI commands through pisa_ctl,
 * packets injected with increasing virtual time, outputs collected per
 * port and compared at the end.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stf.h"
#include "pisa_ctl.h"
#include "../model/pisa_model.h"
#include "stf_rtl.h"
#include "stf_board.h"
#include "pisa_link.h"

#define STF_NPORTS (STF_MAX_PORT + 1)
#define STF_PACKET_GAP_US 1		/* between two packets */
#define STF_CLI_WAIT_US 1000000		/* bmv2stf sleeps 1 s before a packet that follows CLI commands */

struct pkt {
	unsigned char *data;
	size_t len;
};

struct port_q {
	struct pkt *p;
	size_t n, cap;
};

struct run {
	struct port_q q[STF_NPORTS];
	const struct stf_opts *o;
	int oom;
	uint64_t lost;		/* outputs to ports beyond STF_MAX_PORT */
};

static void msgf(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msgf(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
}

static void on_output(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	struct run *r = arg;
	struct port_q *q;
	struct pkt *p;
	char hex[2 * STF_HEX_BYTES + 8];

	if (r->o->verbose) {
		stf_hex(hex, sizeof(hex), data, len, STF_HEX_BYTES);
		fprintf(r->o->log, "stf: out port %u len %zu: %s\n", port, len, hex);
	}
	if (port >= STF_NPORTS) {
		r->lost++;
		return;
	}
	q = &r->q[port];
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 8;

		p = realloc(q->p, cap * sizeof(*p));
		if (!p) {
			r->oom = 1;
			return;
		}
		q->p = p;
		q->cap = cap;
	}
	p = &q->p[q->n];
	p->data = malloc(len ? len : 1);
	if (!p->data) {
		r->oom = 1;
		return;
	}
	memcpy(p->data, data, len);
	p->len = len;
	q->n++;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

unsigned char *stf_packet_bytes(const struct stf_stmt *s, size_t *len)
{
	unsigned char *d = malloc(s->ndata / 2 + 1);
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i + 1 < s->ndata; i += 2)
		d[i / 2] = (unsigned char)(hexval(s->data[i]) << 4 | hexval(s->data[i + 1]));
	*len = s->ndata / 2;
	return d;
}

static int exec_cli(struct pisa_ctl *ctl, const struct stf_stmt *s, const char *line,
		    FILE *out, const struct stf_opts *o, char *msg, size_t msglen)
{
	char err[512];
	int r;

	if (o->verbose)
		fprintf(o->log, "stf: line %d: %s\n", s->line, line);
	err[0] = '\0';
	r = pisa_ctl_exec(ctl, line, out, err, sizeof(err));
	if (r < 0) {
		msgf(msg, msglen, "%d: %s: %s", s->line, line,
		     err[0] ? err : pisa_strerror(-r));
		return -1;
	}
	return 0;
}

/* Output of each port with an interface against its expect lines. */
static int check(const struct run *r, const struct stf_file *f, const unsigned char *named,
		 char *msg, size_t msglen)
{
	char hex[2 * STF_HEX_BYTES + 8], why[256];
	size_t i, nexp, k;
	unsigned port;

	for (port = 0; port < STF_NPORTS; port++) {
		const struct port_q *q = &r->q[port];

		if (!named[port])
			continue;
		nexp = 0;
		for (i = 0; i < f->n; i++)
			nexp += f->s[i].kind == STF_EXPECT && f->s[i].port == port;
		if (q->n < nexp) {
			msgf(msg, msglen, "port %u: expected %zu packet%s, got %zu", port, nexp,
			     nexp == 1 ? "" : "s", q->n);
			return 1;
		}
		if (q->n > nexp) {
			stf_hex(hex, sizeof(hex), q->p[nexp].data, q->p[nexp].len, STF_HEX_BYTES);
			if (nexp == 0)
				msgf(msg, msglen, "port %u: unexpected packet %s", port, hex);
			else
				msgf(msg, msglen, "port %u: expected %zu packet%s, got %zu; unexpected packet %s",
				     port, nexp, nexp == 1 ? "" : "s", q->n, hex);
			return 1;
		}
		k = 0;
		for (i = 0; i < f->n; i++) {
			if (f->s[i].kind != STF_EXPECT || f->s[i].port != port)
				continue;
			if (stf_compare(&f->s[i], q->p[k].data, q->p[k].len, why, sizeof(why))) {
				msgf(msg, msglen, "port %u packet %zu: %s", port, k, why);
				return 1;
			}
			k++;
		}
	}
	return 0;
}

int stf_run(const struct pisa_image *img, const struct stf_file *f, const struct stf_opts *o,
	    char *msg, size_t msglen)
{
	struct pisa_model *m = NULL;
	struct stf_rtl *rtl = NULL;
	struct stf_board *bd = NULL;
	struct pisa_ctl *ctl = NULL;
	struct run *r;
	unsigned char *named = NULL, *data;
	FILE *out = NULL;
	uint64_t now = 0;
	int cli_since = 0, rc = 3, e;
	char err[512], hex[2 * STF_HEX_BYTES + 8];
	size_t i, len;

	msg[0] = '\0';
	r = calloc(1, sizeof(*r));
	named = calloc(STF_NPORTS, 1);
	if (!r || !named) {
		msgf(msg, msglen, "out of memory");
		goto out;
	}
	r->o = o;
	for (i = 0; i < f->n; i++)
		if (f->s[i].kind == STF_PACKET || f->s[i].kind == STF_EXPECT)
			named[f->s[i].port] = 1;

	/* the CLI's replies are only shown with --verbose, as bmv2stf never checks them */
	out = o->verbose ? o->log : fopen("/dev/null", "w");
	if (!out) {
		msgf(msg, msglen, "cannot open /dev/null");
		goto out;
	}
	if (o->board_vvp) {
		bd = stf_board_new(o->board_vvp, o->board_vpi_dir, o->image_path,
				   o->verbose ? o->log : NULL, err, sizeof(err));
		if (!bd) {
			msgf(msg, msglen, "cannot run on the board simulation: %s", err);
			goto out;
		}
		ctl = pisa_ctl_new(img, &pisa_link_ops, stf_board_link(bd));
	} else if (o->rtl_harness) {
		rtl = stf_rtl_new(img, o->rtl_harness, o->verbose ? o->log : NULL, err, sizeof(err));
		if (!rtl) {
			msgf(msg, msglen, "cannot run on the RTL: %s", err);
			goto out;
		}
		ctl = pisa_ctl_new(img, &stf_rtl_ops, rtl);
	} else {
		m = pisa_model_new(img);
		if (!m) {
			msgf(msg, msglen, "cannot create the model: out of memory");
			goto out;
		}
		if (o->verbose)
			pisa_model_set_trace(m, o->log);
		ctl = pisa_ctl_new(img, &pisa_model_ops, m);
	}
	if (!ctl) {
		msgf(msg, msglen, "cannot create the control plane: out of memory");
		goto out;
	}
	e = pisa_ctl_init(ctl);
	if (e < 0) {
		msgf(msg, msglen, "cannot write the image's initial state: %s", pisa_strerror(-e));
		goto out;
	}

	for (i = 0; i < f->n; i++) {
		const struct stf_stmt *s = &f->s[i];
		char *line;

		switch (s->kind) {
		case STF_ADD:
		case STF_SETDEFAULT:
			line = stf_xlate(img, s, err, sizeof(err));
			if (!line) {
				msgf(msg, msglen, "%d: %s", s->line, err);
				goto line_err;
			}
			e = exec_cli(ctl, s, line, out, o, msg, msglen);
			free(line);
			if (e < 0)
				goto line_err;
			cli_since = 1;
			break;
		case STF_CLI:
			if (exec_cli(ctl, s, s->cli, out, o, msg, msglen) < 0)
				goto line_err;
			cli_since = 1;
			break;
		case STF_PACKET:
			now += cli_since ? STF_CLI_WAIT_US : STF_PACKET_GAP_US;
			cli_since = 0;
			data = stf_packet_bytes(s, &len);
			if (!data) {
				msgf(msg, msglen, "out of memory");
				goto out;
			}
			if (o->verbose) {
				stf_hex(hex, sizeof(hex), data, len, STF_HEX_BYTES);
				fprintf(o->log, "stf: line %d: in port %u len %zu at %llu us: %s\n",
					s->line, s->port, len, (unsigned long long)now, hex);
			}
			if (bd)
				e = stf_board_inject(bd, s->port, data, len, on_output, r);
			else if (rtl)
				e = stf_rtl_inject(rtl, s->port, data, len, now, on_output, r);
			else
				e = pisa_model_inject(m, (uint16_t)s->port, data, len, now, on_output,
						      r);
			free(data);
			if (e < 0) {
				msgf(msg, msglen, "%d: cannot inject a packet on port %u: %s", s->line,
				     s->port, rtl && stf_rtl_error(rtl) ? stf_rtl_error(rtl) :
				     bd && stf_board_error(bd) ? stf_board_error(bd) :
				     pisa_strerror(-e));
				goto line_err;
			}
			if (r->oom) {
				msgf(msg, msglen, "out of memory");
				goto out;
			}
			break;
		case STF_EXPECT:
			break;
		case STF_IGNORED:
			if (o->verbose)
				fprintf(o->log, "stf: line %d: %s ignored (as bmv2stf does)\n",
					s->line, s->keyword);
			break;
		}
	}
	if (rtl && stf_rtl_error(rtl)) {
		msgf(msg, msglen, "%s", stf_rtl_error(rtl));
		goto out;
	}
	if (bd && stf_board_error(bd)) {
		msgf(msg, msglen, "%s", stf_board_error(bd));
		goto out;
	}
	if (o->verbose && r->lost)
		fprintf(o->log, "stf: %llu packets to ports above %d ignored\n",
			(unsigned long long)r->lost, STF_MAX_PORT);
	rc = check(r, f, named, msg, msglen);
	if (rc == 0 && bd && o->burst) {
		e = stf_burst_run(bd, f, o->board_ports, o->burst, stdout, o->verbose ? o->log : NULL,
				  msg, msglen);
		rc = e < 0 ? 3 : e;
	}
	goto out;
line_err:
	rc = 2;
out:
	if (out && out != o->log)
		fclose(out);
	if (ctl)
		pisa_ctl_free(ctl);
	if (m)
		pisa_model_free(m);
	stf_rtl_free(rtl);
	stf_board_free(bd);
	if (r) {
		for (i = 0; i < STF_NPORTS; i++) {
			for (len = 0; len < r->q[i].n; len++)
				free(r->q[i].p[len].data);
			free(r->q[i].p);
		}
	}
	free(r);
	free(named);
	return rc;
}
