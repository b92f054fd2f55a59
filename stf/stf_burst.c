/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf_burst.c: pisa-stf --burst N on a board simulation: every port of the board receives N
 * copies of one frame at once, back to back at line rate, and nothing may get lost unseen.
 *
 * Each port's frame is the first packet the STF file sends into that port, else the file's
 * first packet. First each frame goes in once on its own (after the STF test passed): what it
 * produces is what every copy of it must produce. Then the burst. It passes when, on every
 * port, each frame sent is counted by its MAC (to the switch, dropped for a full RX buffer, or
 * bad), some reached the switch (no port starved), every frame out is one the frames produced
 * alone, and each frame that reached the switch produced its outputs (less the frames a TX MAC
 * counted as dropped). The rates are measured, not required: the report says how far from
 * line rate the switch is.
 */
#include <stdlib.h>
#include <string.h>

#include "stf.h"
#include "stf_board.h"

#define MAX_WANT 256		/* distinct (port, frame) outputs */

/* An output of a frame alone: every copy of that frame that reaches the switch owes one. */
struct want {
	uint16_t port;
	uint8_t *d;
	size_t len;
	unsigned from;		/* the port the frame went in on */
};

struct burst {
	struct want w[MAX_WANT];
	size_t nw;
	int oom, overflow;
	unsigned in_port;	/* the frame going in alone */
	/* during the burst: frames out per port, and those no frame alone produced */
	int collecting;
	unsigned long out[STF_BOARD_MAX_PORTS], unexpected;
	uint16_t bad_port;
	char bad_hex[2 * STF_HEX_BYTES + 8];
};

static struct want *find(struct burst *b, uint16_t port, const uint8_t *d, size_t len)
{
	size_t i;

	for (i = 0; i < b->nw; i++)
		if (b->w[i].port == port && b->w[i].len == len && !memcmp(b->w[i].d, d, len))
			return &b->w[i];
	return NULL;
}

static void on_out(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct burst *b = arg;
	struct want *w;

	if (b->collecting) {
		if (!find(b, port, d, len) && b->unexpected++ == 0) {
			b->bad_port = port;
			stf_hex(b->bad_hex, sizeof(b->bad_hex), d, len, STF_HEX_BYTES);
		}
		if (port < STF_BOARD_MAX_PORTS)
			b->out[port]++;
		return;
	}
	/* a frame alone: one more output of in_port's frame (the same output twice counts 2) */
	if (b->nw == MAX_WANT) {
		b->overflow = 1;
		return;
	}
	w = &b->w[b->nw];
	w->d = malloc(len ? len : 1);
	if (!w->d) {
		b->oom = 1;
		return;
	}
	memcpy(w->d, d, len);
	w->port = port;
	w->len = len;
	w->from = b->in_port;
	b->nw++;
}

/* Each port's frame: the first packet into it, else the file's first. */
static int pick_frames(const struct stf_file *f, unsigned nports, const struct stf_stmt **in)
{
	const struct stf_stmt *first = NULL;
	size_t i;
	unsigned p;

	memset(in, 0, nports * sizeof(*in));
	for (i = 0; i < f->n; i++) {
		const struct stf_stmt *s = &f->s[i];

		if (s->kind != STF_PACKET)
			continue;
		if (!first)
			first = s;
		if (s->port < nports && !in[s->port])
			in[s->port] = s;
	}
	if (!first)
		return -1;
	for (p = 0; p < nports; p++)
		if (!in[p])
			in[p] = first;
	return 0;
}

/* Counter difference across a 16-bit wrap. */
static unsigned delta(unsigned after, unsigned before)
{
	return (after - before) & 0xFFFFu;
}

/* A frame's length on the wire as its MAC counts it: padded to 60 bytes, with its FCS. */
static size_t wire_len(size_t len)
{
	return (len < 60 ? 60 : len) + 4;
}

int stf_burst_run(struct stf_board *bd, const struct stf_file *f, unsigned nports,
		  unsigned long count, FILE *rep, FILE *log, char *msg, size_t msglen)
{
	const struct stf_stmt *in[STF_BOARD_MAX_PORTS];
	uint8_t *frame[STF_BOARD_MAX_PORTS] = { NULL };
	size_t len[STF_BOARD_MAX_PORTS];
	struct stf_board_burst before, after;
	struct stf_board_mac d[STF_BOARD_MAX_PORTS];
	struct burst *b = calloc(1, sizeof(*b));
	unsigned long delivered = 0, want_q;
	unsigned p, q;
	size_t i, lmin = 0, lmax = 0;
	int rc = -1, e = 0;

	if (!b) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	if (nports == 0 || nports > STF_BOARD_MAX_PORTS || count == 0 || count > 30000) {
		snprintf(msg, msglen, "--burst: 1 to 30000 frames on 1 to %d ports",
			 STF_BOARD_MAX_PORTS);
		goto out;
	}
	if (pick_frames(f, nports, in) < 0) {
		snprintf(msg, msglen, "--burst needs a packet in the STF file");
		goto out;
	}
	for (p = 0; p < nports; p++) {
		frame[p] = stf_packet_bytes(in[p], &len[p]);
		if (!frame[p]) {
			snprintf(msg, msglen, "out of memory");
			goto out;
		}
	}

	/* each frame alone, then the counters before the burst */
	for (p = 0; p < nports && e == 0; p++) {
		if (log)
			fprintf(log, "stf: burst: line %d's packet alone on port %u\n", in[p]->line, p);
		b->in_port = p;
		e = stf_board_inject(bd, p, frame[p], len[p], on_out, b);
	}
	if (e == 0)
		e = stf_board_burst(bd, nports, NULL, NULL, 0, on_out, b, &before);
	if (e == 0) {
		if (log)
			fprintf(log, "stf: burst: %lu frames into each of %u ports\n", count, nports);
		b->collecting = 1;
		e = stf_board_burst(bd, nports, (const uint8_t *const *)frame, len, count, on_out, b,
				    &after);
	}
	if (e < 0 || b->oom || b->overflow) {
		snprintf(msg, msglen, "%s", e < 0 ? (stf_board_error(bd) ? stf_board_error(bd) :
			 pisa_strerror(-e)) : b->oom ? "out of memory" :
			 "the frames alone produced more than 256 frames");
		goto out;
	}
	if (after.nports != nports) {
		snprintf(msg, msglen, "the board simulation has %u ports, the profile %u",
			 after.nports, nports);
		goto out;
	}

	/* the report, then the checks */
	for (p = 0; p < nports; p++) {
		const struct stf_board_mac *a = &after.mac[p], *o = &before.mac[p];

		d[p] = (struct stf_board_mac){
			delta(a->rx_frames, o->rx_frames), delta(a->rx_drops, o->rx_drops),
			delta(a->rx_fcs_errors, o->rx_fcs_errors), delta(a->rx_runts, o->rx_runts),
			delta(a->rx_giants, o->rx_giants), delta(a->tx_drops, o->tx_drops),
			delta(a->rx_bytes, o->rx_bytes), delta(a->tx_frames, o->tx_frames),
			delta(a->tx_bytes, o->tx_bytes) };
		delivered += d[p].rx_frames;
	}
	for (p = 0; p < nports; p++) {
		size_t n = wire_len(len[p]);

		lmin = p == 0 || n < lmin ? n : lmin;
		lmax = n > lmax ? n : lmax;
	}
	fprintf(rep, "burst: %lu frames of %zu..%zu bytes into each of %u ports at once, back to "
		"back: %.3f Mpps offered for %.1f us\n", count, lmin, lmax, nports,
		after.in_ns ? (double)count * nports * 1e3 / (double)after.in_ns : 0.0,
		(double)after.in_ns / 1e3);
	for (p = 0; p < nports; p++)
		fprintf(rep, "burst port %u: %lu sent, %u to the switch, %u dropped by the MAC (RX "
			"buffer full), %u bad; %lu out, %u dropped by the TX MAC\n", p, count,
			d[p].rx_frames, d[p].rx_drops,
			d[p].rx_fcs_errors + d[p].rx_runts + d[p].rx_giants, b->out[p],
			d[p].tx_drops);
	if (after.out_ns && delivered)
		fprintf(rep, "burst: %lu packets through the switch by the last frame out at %.1f us: "
			"%.3f Mpps, %.0f core cycles a packet (%u ns clock), %.1f%% of the offered "
			"rate\n", delivered, (double)after.out_ns / 1e3,
			(double)delivered * 1e3 / (double)after.out_ns,
			(double)after.out_ns / (double)after.clk_ns / (double)delivered,
			after.clk_ns, 100.0 * ((double)delivered / (double)after.out_ns) /
			((double)count * nports / (double)after.in_ns));

	rc = 1;
	for (p = 0; p < nports; p++) {
		unsigned bad = d[p].rx_fcs_errors + d[p].rx_runts + d[p].rx_giants;

		if (d[p].rx_frames + d[p].rx_drops + bad != count) {
			snprintf(msg, msglen, "burst port %u: %lu frames sent, its MAC counted %u (%u to "
				 "the switch, %u dropped, %u bad)", p, count,
				 d[p].rx_frames + d[p].rx_drops + bad, d[p].rx_frames, d[p].rx_drops,
				 bad);
			goto out;
		}
		if (d[p].rx_bytes != (d[p].rx_frames * wire_len(len[p]) & 0xFFFF)) {
			snprintf(msg, msglen, "burst port %u: its MAC counted %u bytes in %u frames of "
				 "%zu bytes", p, d[p].rx_bytes, d[p].rx_frames, wire_len(len[p]));
			goto out;
		}
		if (d[p].tx_frames != (b->out[p] & 0xFFFF)) {
			snprintf(msg, msglen, "burst port %u: %lu frames out, its MAC counted %u sent",
				 p, b->out[p], d[p].tx_frames);
			goto out;
		}
		if (d[p].rx_frames == 0 && bad < count) {
			snprintf(msg, msglen, "burst port %u: none of its frames reached the switch "
				 "(starved by the other ports)", p);
			goto out;
		}
	}
	if (b->unexpected) {
		snprintf(msg, msglen, "burst: port %u sent a frame that no frame alone produced: %s "
			 "(%lu such frames)", b->bad_port, b->bad_hex, b->unexpected);
		goto out;
	}
	/* every frame out is one that was wanted (above), so each port's count says it all */
	for (q = 0; q < STF_BOARD_MAX_PORTS; q++) {
		want_q = 0;
		for (i = 0; i < b->nw; i++)
			if (b->w[i].port == q)
				want_q += d[b->w[i].from].rx_frames;
		if (want_q != b->out[q] + (q < nports ? d[q].tx_drops : 0)) {
			snprintf(msg, msglen, "burst port %u: %lu frames out, expected %lu (one for each "
				 "output of a frame that reached the switch) less %u dropped by the TX "
				 "MAC", q, b->out[q], want_q, q < nports ? d[q].tx_drops : 0);
			goto out;
		}
	}
	rc = 0;
out:
	for (p = 0; p < STF_BOARD_MAX_PORTS; p++)
		free(frame[p]);
	for (i = 0; i < b->nw; i++)
		free(b->w[i].d);
	free(b);
	return rc;
}
