// SPDX-License-Identifier: Apache-2.0
/*
 * gen_frames: stimulus and expected results for the control-link RTL testbenches
 * (sim/tb/tb_pisa_frame_rx.v, tb_pisa_link_ctrl.v, tb_pisa_ctl_link.v).
 *
 * usage: gen_frames OUTDIR
 *
 * Everything is built with lib/pisa_proto.c, so the RTL is checked against the C
 * reference byte for byte:
 *  rx_in.hex     a byte stream for pisa_frame_rx: good frames, every single-byte
 *                corruption of a WRITE frame, garbage, a real frame inside a false one;
 *  rx_out.hex    the frames pisa_proto_rx finds in it (header and payload records);
 *  link_in.hex   a session for the switch end: NO_SESSION, HELLO, writes, reads,
 *                duplicates, gaps, corruptions, malformed requests, image chunks,
 *                packet-out, reset, a new session, seq wrap;
 *  link_cmd.hex  the control-bus command beats pisa_proto_server issues for it (through a
 *                recording pisa_switch_ops), link_req.hex the forwarded requests,
 *                link_reply.hex the reply bytes it sends (ACK detail text removed: the RTL
 *                sends none);
 *  short_*.hex   the same for a shorter session (the PHY tests of tb_pisa_ctl_link);
 *  *_meta.hex    counts and values the testbenches need (see main).
 * Every file holds one hex word per line for $readmemh. The record layouts are documented
 * at the functions that write them and in the testbenches.
 *
 * Switch stub rules, mirrored by the testbenches' consumer: an op, read or packet-out on id
 * (or port) 0x0BAD fails with PISA_E_RANGE; a read returns a = 0x5A5A << 48 | id << 32 |
 * index, b = ~a (counters, port counters) or 0 (registers).
 *
 * Exit status: 0, or 1 if an output file cannot be written or the C switch end did not
 * behave as the scenario assumes (so the expected files would test nothing).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_bytes.h"
#include "pisa_proto.h"

#define BAD_ID 0x0BAD
#define MAX_PAYLOAD 1024	/* what the RTL under test is built with */
#define MAX_IMAGE 65536
#define FAIL_ERR PISA_E_RANGE

struct vec {
	char *buf;
	size_t len, cap;
	size_t n;		/* records */
};

static void vec_printf(struct vec *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vec_printf(struct vec *v, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(v->buf + v->len, v->cap - v->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < v->cap - v->len)
			break;
		v->cap = v->cap ? v->cap * 2 : 65536;
		v->buf = realloc(v->buf, v->cap);
		if (!v->buf) {
			fprintf(stderr, "gen_frames: out of memory\n");
			exit(1);
		}
	}
	v->len += (size_t)n;
	v->n++;
}

static struct vec rx_in, rx_out, link_in, link_cmd, link_req, link_reply;
static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "gen_frames: scenario broken: %s\n", what);
		failures++;
	}
}

static void bytes_out(struct vec *v, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		vec_printf(v, "%02x\n", p[i]);
}

/* ---- the recording switch ---- */

/*
 * One command beat, 112 bits:
 *   [111:108] last  [107:104] kind  [103:88] id  [87:56] index  [55:48] flag
 *   [47:32] len  [31:0] data (bytes little-endian: byte 0 in [7:0])
 * kind 1..6 = opcode, 8 = port (MAC) counter read, 10 = counter read, 11 = register read.
 * An op has max(1, ceil(len / 4)) beats; len counts its data bytes.
 */
static void cmd_beats(unsigned kind, uint16_t id, uint32_t index, uint8_t flag,
		      const uint8_t *data, size_t len)
{
	size_t i, beats = len ? (len + 3) / 4 : 1;

	for (i = 0; i < beats; i++) {
		uint32_t w = 0;
		size_t j;

		for (j = 0; j < 4 && 4 * i + j < len; j++)
			w |= (uint32_t)data[4 * i + j] << (8 * j);
		vec_printf(&link_cmd, "%x%x%04x%08x%02x%04x%08x\n", i + 1 == beats ? 1u : 0u,
			   kind, id, index, flag, (unsigned)len, w);
	}
}

static int rc(uint16_t id)
{
	return id == BAD_ID ? -FAIL_ERR : 0;
}

static int r_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	cmd_beats(PISA_OP_ROW, t, i, 0, row, len);
	return rc(t);
}

static uint64_t read_a(uint16_t id, uint32_t index)
{
	return 0x5A5AULL << 48 | (uint64_t)id << 32 | index;
}

static int r_cread(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	cmd_beats(8 | PISA_OP_COUNTER, id, i, 0, NULL, 0);
	*p = read_a(id, i);
	*b = ~*p;
	return rc(id);
}

static int r_cwrite(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	uint8_t d[16];

	pisa_put_le64(d, p);
	pisa_put_le64(d + 8, b);
	cmd_beats(PISA_OP_COUNTER, id, i, 0, d, 16);
	return rc(id);
}

static int r_rread(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	cmd_beats(8 | PISA_OP_REGISTER, id, i, 0, NULL, 0);
	*v = read_a(id, i);
	return rc(id);
}

static int r_rwrite(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	uint8_t d[8];

	pisa_put_le64(d, v);
	cmd_beats(PISA_OP_REGISTER, id, i, 0, d, 8);
	return rc(id);
}

static int r_meter(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *c)
{
	uint8_t d[16];

	pisa_put_le32(d, c->cir_q16);
	pisa_put_le32(d + 4, c->pir_q16);
	pisa_put_le32(d + 8, c->cbs);
	pisa_put_le32(d + 12, c->pbs);
	cmd_beats(PISA_OP_METER, id, i, c->configured, d, 16);
	return rc(id);
}

static int r_mcast(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	uint8_t *d = malloc(4 * (size_t)n + 1);
	uint16_t i;

	if (!d)
		exit(1);
	for (i = 0; i < n; i++) {
		pisa_put_le16(d + 4 * i, c[i].rid);
		pisa_put_le16(d + 4 * i + 2, c[i].port);
	}
	cmd_beats(PISA_OP_MCAST, g, n, 0, d, 4 * (size_t)n);
	free(d);
	return rc(g);
}

static int r_clone(void *sw, uint16_t s, const struct pisa_clone_cfg *c)
{
	uint8_t d[6];

	pisa_put_le16(d, c->port);
	pisa_put_le16(d + 2, c->mcast_grp);
	pisa_put_le16(d + 4, c->truncate);
	cmd_beats(PISA_OP_CLONE, s, 0, c->enabled, d, 6);
	return rc(s);
}

static int r_pread(void *sw, uint16_t port, uint32_t k, uint64_t *v, uint64_t *bits)
{
	cmd_beats(8 | 0, port, k, 0, NULL, 0);
	*v = read_a(port, k);
	*bits = ~*v;
	return rc(port);
}

static const struct pisa_switch_ops rec_ops = {
	r_row, r_cread, r_cwrite, r_rread, r_rwrite, r_meter, r_mcast, r_clone, r_pread,
};

/*
 * One forwarded request beat, 40 bits:
 *   [39:36] last  [35:28] type  [27:12] len  [11:8] 0  [7:0] data
 * A request with len 0 (RESET) is one beat with data 0.
 */
static void req_beats(uint8_t type, const uint8_t *p, size_t len)
{
	size_t i;

	if (!len) {
		vec_printf(&link_req, "1%02x%04x000\n", type, 0u);
		return;
	}
	for (i = 0; i < len; i++)
		vec_printf(&link_req, "%x%02x%04x0%02x\n", i + 1 == len ? 1u : 0u, type,
			   (unsigned)len, p[i]);
}

/* ACK detail text is for humans and the RTL sends none: strip it before comparing. */
static void c_send(void *arg, const uint8_t *frame, size_t len)
{
	struct pisa_proto_frame f;
	struct pisa_proto_ack a;
	uint8_t p[6 + PISA_PROTO_DETAIL_MAX], out[PISA_PROTO_HDR + 256];
	long n;
	size_t fl;

	n = pisa_proto_frame_decode(frame, len, &f);
	check(n == (long)len, "server sent a frame that does not decode");
	if (f.type != PISA_MSG_ACK) {
		bytes_out(&link_reply, frame, len);
		return;
	}
	check(pisa_proto_ack_decode(f.payload, f.len, &a) == 0, "server ACK does not decode");
	a.detail[0] = 0;
	n = pisa_proto_ack_encode(p, sizeof(p), &a);
	fl = pisa_proto_frame_encode(out, sizeof(out), f.seq, PISA_MSG_ACK, p, (size_t)n);
	bytes_out(&link_reply, out, fl);
}

static void c_info(void *arg, struct pisa_proto_hello_reply *r)
{
	/* the same values as tb_pisa_link_ctrl's parameters */
	r->hw_version = 0x0102;
	r->ports = 8;
	r->cpu_port = 8;
	r->stages = 4;
	r->phv_bytes = 128;
	r->mcast_groups = 64;
	r->mcast_nodes = 256;
	r->clone_sessions = 8;
	snprintf(r->program, sizeof(r->program), "%s", "hwlink");
}

static int c_load(void *arg, struct pisa_image *img, char *detail, size_t dlen)
{
	check(0, "an image was loaded");
	return -PISA_E_INVAL;
}

static int c_reset(void *arg)
{
	req_beats(PISA_MSG_RESET, NULL, 0);
	return 0;
}

static int c_pout(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	uint8_t p[2 + PISA_PROTO_MAX_PAYLOAD];

	pisa_put_le16(p, port);
	memcpy(p + 2, d, len);
	req_beats(PISA_MSG_PACKET_OUT, p, len + 2);
	return rc(port);
}

static struct pisa_proto_server *srv;

/* Feeds bytes to the C switch end and appends them to the stimulus. */
static void link_bytes(const uint8_t *p, size_t n)
{
	bytes_out(&link_in, p, n);
	pisa_proto_server_input(srv, p, n);
}

static uint8_t frame_buf[PISA_PROTO_MAX_FRAME];

static size_t mkframe(uint16_t seq, uint8_t type, const uint8_t *p, size_t len)
{
	size_t n = pisa_proto_frame_encode(frame_buf, sizeof(frame_buf), seq, type, p, len);

	check(n != 0, "frame does not encode");
	return n;
}

/* A whole good frame; image chunks and commits that execute are recorded as requests
 * (the C end stages them itself, the RTL forwards them). */
static void link_frame(uint16_t seq, uint8_t type, const uint8_t *p, size_t len)
{
	struct pisa_proto_server_stats a, b;
	size_t n = mkframe(seq, type, p, len);

	pisa_proto_server_get_stats(srv, &a);
	link_bytes(frame_buf, n);
	pisa_proto_server_get_stats(srv, &b);
	if (b.executed != a.executed &&
	    ((type == PISA_MSG_IMAGE_CHUNK && len >= 4) || (type == PISA_MSG_IMAGE_COMMIT && len == 8)))
		req_beats(type, p, len);
}

static void garbage(struct vec *v, unsigned n, unsigned *seed, int to_link)
{
	uint8_t g[64];
	unsigned i;

	for (i = 0; i < n && i < sizeof(g); i++) {
		*seed = *seed * 1103515245u + 12345u;
		g[i] = (uint8_t)(*seed >> 16);
		/* plenty of false starts */
		if ((*seed >> 8) % 5 == 0)
			g[i] = 0xA5;
		else if (i && g[i - 1] == 0xA5 && (*seed >> 8) % 3 == 0)
			g[i] = 0xC3;
	}
	if (to_link)
		link_bytes(g, i);
	else
		bytes_out(v, g, i);
}

/* ---- batches ---- */

struct batch {
	uint8_t p[PISA_PROTO_MAX_PAYLOAD];
	size_t len;
	size_t at[16];		/* where each op starts */
	unsigned n;
};

static void b_init(struct batch *b)
{
	b->len = pisa_proto_batch_init(b->p, MAX_PAYLOAD);
	b->n = 0;
}

static void b_add(struct batch *b, const struct pisa_proto_op *op)
{
	if (b->n < 16)
		b->at[b->n++] = b->len;
	check(pisa_proto_batch_add(b->p, MAX_PAYLOAD, &b->len, op) == 0, "op does not fit");
}

static void op_row(struct batch *b, uint16_t t, uint32_t i, size_t len, uint8_t fill)
{
	static uint8_t row[MAX_PAYLOAD];
	struct pisa_proto_op op = { .op = PISA_OP_ROW, .id = t, .index = i };
	size_t k;

	for (k = 0; k < len; k++)
		row[k] = (uint8_t)(fill + 7 * k);
	op.data = row;
	op.len = len;
	b_add(b, &op);
}

static void op_reg(struct batch *b, uint16_t id, uint32_t i, uint64_t v)
{
	struct pisa_proto_op op = { .op = PISA_OP_REGISTER, .id = id, .index = i, .a = v };

	b_add(b, &op);
}

static void full_batch(struct batch *b)
{
	struct pisa_proto_op op;
	static const uint8_t copies[8] = { 1, 0, 3, 0, 2, 0, 0x55, 0x01 };

	b_init(b);
	op_row(b, 1, 5, 7, 0x10);
	memset(&op, 0, sizeof(op));
	op.op = PISA_OP_COUNTER;
	op.id = 2;
	op.index = 0x01020304;
	op.a = 0x1122334455667788ULL;
	op.b = 0x99AABBCCDDEEFF00ULL;
	b_add(b, &op);
	op_reg(b, 3, 77, 0xDEADBEEFCAFEF00DULL);
	memset(&op, 0, sizeof(op));
	op.op = PISA_OP_METER;
	op.id = 4;
	op.index = 9;
	op.meter.configured = 1;
	op.meter.cir_q16 = 0x00010000;
	op.meter.pir_q16 = 0x00020000;
	op.meter.cbs = 1500;
	op.meter.pbs = 3000;
	b_add(b, &op);
	memset(&op, 0, sizeof(op));
	op.op = PISA_OP_MCAST;
	op.id = 6;
	op.n = 2;
	op.data = copies;
	b_add(b, &op);
	memset(&op, 0, sizeof(op));
	op.op = PISA_OP_CLONE;
	op.id = 3;
	op.clone.enabled = 1;
	op.clone.port = 5;
	op.clone.mcast_grp = 0;
	op.clone.truncate = 64;
	b_add(b, &op);
	op_row(b, 2, 16, 0, 0);		/* a row of no bytes: one beat, len 0 */
	memset(&op, 0, sizeof(op));
	op.op = PISA_OP_MCAST;		/* n = 0 deletes the group */
	op.id = 7;
	b_add(b, &op);
	op_row(b, 0, 1, 13, 0x80);
}

/* ---- the receiver scenario ---- */

static void rx_frame_cb(void *arg, const struct pisa_proto_frame *f)
{
	uint16_t i;

	/* header record: [47:40] 1, [39:24] seq, [23:16] type, [15:0] len;
	 * payload record: [47:40] 2, [8] last, [7:0] byte */
	vec_printf(&rx_out, "01%04x%02x%04x\n", f->seq, f->type, f->len);
	for (i = 0; i < f->len; i++)
		vec_printf(&rx_out, "020000000%03x\n", (i + 1 == f->len ? 0x100u : 0u) | f->payload[i]);
}

static void rx_scenario(struct pisa_proto_rx *rx)
{
	uint8_t p[4096], c[64];
	struct batch b;
	unsigned seed = 1, k;
	size_t n, i, j;

	for (i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 37 + 1);
	/* good frames: empty, short, one of every type, a long one */
	n = mkframe(1, PISA_MSG_RESET, NULL, 0);
	bytes_out(&rx_in, frame_buf, n);
	for (k = 1; k <= 12; k++) {
		n = mkframe((uint16_t)(100 + k), (uint8_t)k, p + k, k * 3);
		bytes_out(&rx_in, frame_buf, n);
		garbage(&rx_in, k % 4 * 7, &seed, 0);
	}
	n = mkframe(0xFFFF, PISA_MSG_PACKET_OUT, p, 3000);
	bytes_out(&rx_in, frame_buf, n);
	/* every single-byte corruption of a WRITE frame, then the frame itself */
	b_init(&b);
	op_reg(&b, 1, 2, 0x0102030405060708ULL);
	n = mkframe(200, PISA_MSG_WRITE, b.p, b.len);
	for (i = 0; i < n; i++) {
		memcpy(c, frame_buf, n);
		c[i] ^= (uint8_t)(1u << (i % 8));
		bytes_out(&rx_in, c, n);
	}
	bytes_out(&rx_in, frame_buf, n);
	/* a good frame inside a false candidate (valid header check, length 20): found when
	 * the false candidate's CRC fails and the scan goes on one byte later */
	memcpy(c, frame_buf, n);
	j = n;
	mkframe(0x4242, 0x33, p, 20);
	bytes_out(&rx_in, frame_buf, PISA_PROTO_HDR);
	bytes_out(&rx_in, c, j);
	/* truncated frames followed by good ones */
	for (k = 0; k < 3; k++) {
		n = mkframe((uint16_t)(300 + k), PISA_MSG_WRITE, b.p, b.len);
		bytes_out(&rx_in, frame_buf, n - 1 - k);
		n = mkframe((uint16_t)(400 + k), PISA_MSG_READ, p, 7);
		bytes_out(&rx_in, frame_buf, n);
	}
	garbage(&rx_in, 60, &seed, 0);
	for (k = 0; k < 4; k++) {
		n = mkframe((uint16_t)(500 + k), PISA_MSG_ACK, p + 100 * k, 6 + k);
		bytes_out(&rx_in, frame_buf, n);
	}
	/* feed the C receiver the same bytes, one at a time as they arrive */
	for (j = 0; j < rx_in.len; j += 3) {
		uint8_t byte = (uint8_t)strtoul(rx_in.buf + j, NULL, 16);

		pisa_proto_rx_feed(rx, &byte, 1, rx_frame_cb, NULL);
	}
}

/* ---- the switch scenario ---- */

static void link_scenario(int full)
{
	static const uint8_t hello[4] = { 1, 0, 0x00, 0x04 };
	struct pisa_proto_server_stats st0, st1;
	struct pisa_proto_read rd;
	struct pisa_proto_commit cm;
	struct batch b, bw;
	uint8_t p[1100], c[64];
	unsigned seed = 7, k;
	size_t n, i, cmds0;

	for (i = 0; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 11 + 3);
	/* no session yet; a hello that does not decode opens none */
	b_init(&b);
	op_reg(&b, 1, 1, 1);
	link_frame(7, PISA_MSG_WRITE, b.p, b.len);
	link_frame(8, PISA_MSG_HELLO, hello, 3);
	link_frame(9, PISA_MSG_WRITE, b.p, b.len);
	link_frame(100, PISA_MSG_HELLO, hello, 4);
	/* every kind of op */
	full_batch(&b);
	link_frame(101, PISA_MSG_WRITE, b.p, b.len);
	link_frame(101, PISA_MSG_WRITE, b.p, b.len);	/* duplicate: re-acked only */
	/* every single-byte corruption of a WRITE frame: nothing runs; then it runs once */
	b_init(&bw);
	op_reg(&bw, 1, 2, 0x0102030405060708ULL);
	n = mkframe(102, PISA_MSG_WRITE, bw.p, bw.len);
	memcpy(c, frame_buf, n);
	pisa_proto_server_get_stats(srv, &st0);
	cmds0 = link_cmd.n;
	for (i = 0; i < n; i++) {
		uint8_t bad[64];

		/* the short run (PHY tests) corrupts the sync, header, payload and CRC only */
		if (!full && i != 0 && i != 1 && i != 3 && i != 5 && i != 7 && i != 12 && i != n - 1)
			continue;
		memcpy(bad, c, n);
		bad[i] ^= (uint8_t)(1u << (i % 8));
		link_bytes(bad, n);
	}
	pisa_proto_server_get_stats(srv, &st1);
	check(st1.executed == st0.executed && link_cmd.n == cmds0, "a corrupted frame ran");
	link_bytes(c, n);
	check(link_cmd.n == cmds0 + 2, "the good frame after the corrupted ones did not run");
	garbage(NULL, 50, &seed, 1);
	link_frame(110, PISA_MSG_WRITE, bw.p, bw.len);	/* a gap: SEQ */
	garbage(NULL, 20, &seed, 1);
	/* reads */
	rd.op = PISA_OP_COUNTER;
	rd.id = 3;
	rd.index = 9;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(103, PISA_MSG_READ, c, 7);
	if (!full) {
		link_frame(103, PISA_MSG_READ, c, 7);
		pisa_put_le16(p, 3);
		link_frame(104, PISA_MSG_PACKET_OUT, p, 40);
		link_frame(105, PISA_MSG_RESET, NULL, 0);
		link_frame(101, PISA_MSG_WRITE, bw.p, bw.len);
		return;
	}
	rd.op = PISA_OP_REGISTER;
	rd.id = 0x1234;
	rd.index = 0xABCDEF01;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(104, PISA_MSG_READ, c, 7);
	c[0] = 5;
	link_frame(105, PISA_MSG_READ, c, 7);		/* bad kind: MALFORMED */
	rd.op = PISA_OP_COUNTER;
	rd.id = BAD_ID;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(106, PISA_MSG_READ, c, 7);		/* the switch refuses: FAILED */
	link_frame(107, PISA_MSG_READ, c, 6);		/* short: MALFORMED */
	rd.id = 3;
	rd.index = 9;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(103, PISA_MSG_READ, c, 7);		/* duplicate read: the kept reply */
	/* a batch whose second op fails: the first runs, the third does not */
	b_init(&b);
	op_reg(&b, 1, 10, 10);
	op_reg(&b, BAD_ID, 11, 11);
	op_reg(&b, 1, 12, 12);
	link_frame(108, PISA_MSG_WRITE, b.p, b.len);
	/* malformed batches: nothing runs */
	b_init(&b);
	op_reg(&b, 1, 1, 1);
	pisa_put_le16(b.p, 2);				/* count says 2, one op */
	link_frame(109, PISA_MSG_WRITE, b.p, b.len);
	full_batch(&b);
	b.p[b.at[3] + PISA_OP_HDR + 6] = 2;		/* meter flag 2 */
	link_frame(110, PISA_MSG_WRITE, b.p, b.len);
	b_init(&b);
	op_reg(&b, 1, 1, 1);
	b.p[2] = 9;					/* unknown opcode */
	link_frame(111, PISA_MSG_WRITE, b.p, b.len);
	full_batch(&b);
	b.p[b.at[4] + 1] = 9;				/* mcast body length 9 */
	link_frame(112, PISA_MSG_WRITE, b.p, b.len);
	link_frame(113, PISA_MSG_WRITE, b.p, 1);		/* no count */
	b_init(&b);
	link_frame(114, PISA_MSG_WRITE, b.p, b.len);	/* empty batch: OK */
	op_reg(&b, 1, 1, 1);
	link_frame(115, PISA_MSG_WRITE, b.p, b.len - 3);	/* truncated op */
	/* types: unknown, and a switch->host frame (ignored, no reply) */
	link_frame(116, 0x09, p, 5);
	link_frame(116, PISA_MSG_ACK, p, 6);
	/* image chunks and commits, forwarded */
	pisa_put_le32(c, 0);
	memcpy(c + 4, p, 20);
	link_frame(117, PISA_MSG_IMAGE_CHUNK, c, 24);
	pisa_put_le32(c, 20);
	memcpy(c + 4, p + 20, 10);
	link_frame(118, PISA_MSG_IMAGE_CHUNK, c, 14);
	pisa_put_le32(c, 5);
	link_frame(119, PISA_MSG_IMAGE_CHUNK, c, 14);	/* not consecutive: RANGE */
	link_frame(120, PISA_MSG_IMAGE_CHUNK, c, 3);		/* short: MALFORMED */
	cm.len = 99;
	cm.crc = 0x12345678;
	pisa_proto_commit_encode(c, sizeof(c), &cm);
	link_frame(121, PISA_MSG_IMAGE_COMMIT, c, 8);	/* wrong length: RANGE */
	link_frame(122, PISA_MSG_IMAGE_COMMIT, c, 7);	/* MALFORMED */
	/* packet-out */
	pisa_put_le16(p, 3);
	link_frame(123, PISA_MSG_PACKET_OUT, p, 40);
	pisa_put_le16(p, BAD_ID);
	link_frame(124, PISA_MSG_PACKET_OUT, p, 10);	/* refused: FAILED */
	link_frame(125, PISA_MSG_PACKET_OUT, p, 1);		/* MALFORMED */
	/* reset */
	link_frame(126, PISA_MSG_RESET, NULL, 0);
	link_frame(127, PISA_MSG_RESET, p, 1);		/* MALFORMED */
	pisa_put_le32(c, 20);
	memcpy(c + 4, p + 20, 10);
	link_frame(118, PISA_MSG_IMAGE_CHUNK, c, 14);	/* duplicate: kept ACK, not forwarded */
	link_frame(101, PISA_MSG_WRITE, bw.p, bw.len);	/* 27 behind: SEQ */
	link_frame(200, PISA_MSG_WRITE, bw.p, bw.len);	/* ahead: SEQ */
	/* the window: 16 writes, then each of them again (kept ACKs), one too old */
	for (k = 0; k < 16; k++) {
		b_init(&b);
		op_reg(&b, (uint16_t)(k == 5 ? BAD_ID : 1), k, k);
		link_frame((uint16_t)(128 + k), PISA_MSG_WRITE, b.p, b.len);
	}
	for (k = 0; k < 17; k++)
		link_frame((uint16_t)(127 + k), PISA_MSG_WRITE, b.p, b.len);
	/* a long batch */
	b_init(&b);
	op_row(&b, 9, 3, MAX_PAYLOAD - 2 - 9, 0x33);
	link_frame(144, PISA_MSG_WRITE, b.p, b.len);
	/* a new session forgets the window; seq wraps */
	link_frame(5000, PISA_MSG_HELLO, hello, 4);
	link_frame(4999, PISA_MSG_WRITE, bw.p, bw.len);
	link_frame(144, PISA_MSG_WRITE, bw.p, bw.len);
	link_frame(5001, PISA_MSG_WRITE, bw.p, bw.len);
	link_frame(0xFFFF, PISA_MSG_HELLO, hello, 4);
	link_frame(0, PISA_MSG_WRITE, bw.p, bw.len);
	link_frame(0xFFFF, PISA_MSG_HELLO, hello, 4);	/* hello again: harmless */
	link_frame(0xFFFF, PISA_MSG_WRITE, bw.p, bw.len);	/* not a duplicate any more */
	link_frame(0, PISA_MSG_WRITE, bw.p, bw.len);
	link_frame(0, PISA_MSG_WRITE, bw.p, bw.len);
	garbage(NULL, 30, &seed, 1);
	link_frame(1, PISA_MSG_RESET, NULL, 0);
	rd.op = PISA_READ_PORT;
	rd.id = 1;
	rd.index = 8;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(2, PISA_MSG_READ, c, 7);		/* a MAC counter: kind 8, a and b */
	rd.id = BAD_ID;
	pisa_proto_read_encode(c, sizeof(c), &rd);
	link_frame(3, PISA_MSG_READ, c, 7);		/* no such port: FAILED */
	pisa_proto_server_get_stats(srv, &st1);
	check(st1.duplicates >= 19 && st1.out_of_order >= 5, "duplicates or gaps not seen");
}

static int write_file(const char *dir, const char *name, const struct vec *v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || (v->len && fwrite(v->buf, 1, v->len, f) != v->len) || fclose(f)) {
		fprintf(stderr, "gen_frames: %s: cannot write\n", path);
		return -1;
	}
	return 0;
}

static int write_files(const char *dir, const char *pre, const char *what, const struct vec *v)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s.hex", pre, what);
	return write_file(dir, name, v);
}

int main(int argc, char **argv)
{
	static const struct pisa_proto_server_cb cb = {
		c_send, c_info, c_load, c_reset, c_pout,
	};
	static const uint8_t image[] = "a stand-in for the running image";
	static struct pisa_proto_rx rx;
	struct vec rx_meta = { 0 }, link_meta = { 0 };
	struct pisa_proto_server_stats st;
	const char *dir;
	int r = 0, full;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_frames OUTDIR\n");
		return 2;
	}
	dir = argv[1];
	pisa_proto_rx_init(&rx);
	rx_scenario(&rx);
	/* meta: input bytes, output records, frames, bad candidates, dropped bytes */
	vec_printf(&rx_meta, "%08zx\n%08zx\n%08llx\n%08llx\n%08llx\n", rx_in.n, rx_out.n,
		   (unsigned long long)rx.frames, (unsigned long long)rx.bad_crc,
		   (unsigned long long)rx.dropped);

	if (write_file(dir, "rx_in.hex", &rx_in) || write_file(dir, "rx_out.hex", &rx_out) ||
	    write_file(dir, "rx_meta.hex", &rx_meta))
		r = 1;
	/* the whole session for tb_pisa_link_ctrl, a short one for the PHY tests */
	for (full = 1; full >= 0; full--) {
		const char *pre = full ? "link" : "short";

		srv = pisa_proto_server_new(&cb, NULL, "sim", MAX_IMAGE);
		if (!srv)
			return 1;
		pisa_proto_server_set_switch(srv, &rec_ops, NULL);
		pisa_proto_server_set_limits(srv, MAX_PAYLOAD, PISA_PROTO_WINDOW);
		pisa_proto_server_set_image(srv, image, sizeof(image) - 1);
		link_scenario(full);
		pisa_proto_server_get_stats(srv, &st);
		/* meta: input bytes, command beats, request beats, reply bytes, image length,
		 * image CRC, good frames */
		link_meta.len = link_meta.n = 0;
		vec_printf(&link_meta, "%08zx\n%08zx\n%08zx\n%08zx\n%08zx\n%08x\n%08llx\n",
			   link_in.n, link_cmd.n, link_req.n, link_reply.n, sizeof(image) - 1,
			   pisa_crc32(0, image, sizeof(image) - 1), (unsigned long long)st.frames);
		pisa_proto_server_free(srv);
		if (write_files(dir, pre, "in", &link_in) || write_files(dir, pre, "cmd", &link_cmd) ||
		    write_files(dir, pre, "req", &link_req) ||
		    write_files(dir, pre, "reply", &link_reply) ||
		    write_files(dir, pre, "meta", &link_meta))
			r = 1;
		link_in.len = link_in.n = link_cmd.len = link_cmd.n = 0;
		link_req.len = link_req.n = link_reply.len = link_reply.n = 0;
	}
	free(rx_meta.buf);
	free(link_meta.buf);
	if (failures)
		r = 1;
	return r;
}
