/* SPDX-License-Identifier: Apache-2.0 */
/* test_proto.c: control-link framing, message codec and the switch end,
 * without a real switch (a stub records what is executed). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pisa_proto.h"
#include "img.h"

static int failed;

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failed = 1;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- a receiver that keeps copies of the frames ---- */
struct got {
	unsigned n;
	struct {
		struct pisa_proto_frame f;
		uint8_t payload[PISA_PROTO_MAX_PAYLOAD];
	} fr[16];
};

static void got_fn(void *arg, const struct pisa_proto_frame *f)
{
	struct got *g = arg;

	if (g->n >= 16)
		return;
	g->fr[g->n].f = *f;
	memcpy(g->fr[g->n].payload, f->payload, f->len);
	g->fr[g->n].f.payload = g->fr[g->n].payload;
	g->n++;
}

static void test_frame(void)
{
	/* the example in docs/control-protocol.md */
	static const uint8_t hello[] = { 0x01, 0x00, 0x00, 0x28 };
	static const uint8_t want[] = { 0xa5, 0xc3, 0x04, 0x00, 0x01, 0x00, 0x01, 0x7c,
					0x01, 0x00, 0x00, 0x28, 0x66, 0xd9, 0xbc, 0x5c };
	uint8_t buf[64], crc[4];
	struct pisa_proto_frame f;
	size_t n = pisa_proto_frame_encode(buf, sizeof(buf), 1, PISA_MSG_HELLO, hello, 4);
	uint32_t c = pisa_crc32(0, buf + 2, 10);
	long r;

	crc[0] = (uint8_t)c;
	crc[1] = (uint8_t)(c >> 8);
	crc[2] = (uint8_t)(c >> 16);
	crc[3] = (uint8_t)(c >> 24);
	check(n == 16 && !memcmp(buf, want, 16) && !memcmp(buf + 12, crc, 4) &&
	      buf[7] == (uint8_t)pisa_crc32(0, buf + 2, 5), "frame_encode_bytes", "n %zu", n);
	printf("# example hello frame:");
	for (size_t i = 0; i < n; i++)
		printf(" %02x", buf[i]);
	printf("\n");
	r = pisa_proto_frame_decode(buf, n, &f);
	check(r == 16 && f.seq == 1 && f.type == PISA_MSG_HELLO && f.len == 4 &&
	      !memcmp(f.payload, hello, 4), "frame_decode", "r %ld", r);
	check(pisa_proto_frame_decode(buf, 10, &f) == 0, "frame_decode_short", "");
	buf[9] ^= 1;
	check(pisa_proto_frame_decode(buf, n, &f) == -PISA_E_CRC, "frame_decode_crc", "");
	buf[0] = 0;
	check(pisa_proto_frame_decode(buf, n, &f) == -PISA_E_FORMAT, "frame_decode_sync", "");
	buf[9] ^= 1;
	buf[0] = PISA_PROTO_SYNC0;
	buf[2] = 0x05;
	check(pisa_proto_frame_decode(buf, 8, &f) == -PISA_E_CRC, "frame_decode_header_check", "");
	buf[2] = 0xff;
	buf[3] = 0xff;
	buf[7] = (uint8_t)pisa_crc32(0, buf + 2, 5);
	check(pisa_proto_frame_decode(buf, n, &f) == -PISA_E_FORMAT, "frame_decode_len", "");
	check(pisa_proto_frame_encode(buf, sizeof(buf), 1, 1, hello, 60) == 0, "frame_encode_cap",
	      "");
}

static size_t mkframe(uint8_t *buf, uint16_t seq, uint8_t type, size_t len, uint8_t fill)
{
	uint8_t p[PISA_PROTO_MAX_PAYLOAD];

	memset(p, fill, len);
	return pisa_proto_frame_encode(buf, PISA_PROTO_MAX_FRAME, seq, type, p, len);
}

static void test_rx(void)
{
	static struct pisa_proto_rx rx;
	static struct got g;
	static uint8_t stream[4 * PISA_PROTO_MAX_FRAME + 256];
	uint8_t fr[PISA_PROTO_MAX_FRAME];
	size_t n, len = 0, i, pos, a_len;
	unsigned bad = 0, pos_i;

	/* garbage (with false syncs), frame A, garbage, frame B, fed in odd chunks */
	for (i = 0; i < 50; i++)
		stream[len++] = (uint8_t)(i % 3 ? 0xa5 : i);
	len += (a_len = mkframe(stream + len, 7, PISA_MSG_ACK, 30, 0xa5));
	stream[len++] = PISA_PROTO_SYNC0;
	stream[len++] = PISA_PROTO_SYNC1;
	stream[len++] = 0x10;
	len += mkframe(stream + len, 8, PISA_MSG_WRITE, PISA_PROTO_MAX_PAYLOAD, 0xc3);
	pisa_proto_rx_init(&rx);
	memset(&g, 0, sizeof(g));
	for (pos = 0; pos < len; pos += n) {
		n = 1 + pos % 7;
		if (n > len - pos)
			n = len - pos;
		pisa_proto_rx_feed(&rx, stream + pos, n, got_fn, &g);
	}
	check(g.n == 2 && g.fr[0].f.seq == 7 && g.fr[0].f.len == 30 && g.fr[1].f.seq == 8 &&
	      g.fr[1].f.len == PISA_PROTO_MAX_PAYLOAD && g.fr[1].payload[100] == 0xc3,
	      "rx_resync_garbage", "got %u frames", g.n);
	check(rx.dropped == 53, "rx_dropped_count", "dropped %llu", (unsigned long long)rx.dropped);

	/* a frame whose length field claims more than is there swallows the
	 * next frames for a while; they must still come out */
	pisa_proto_rx_init(&rx);
	memset(&g, 0, sizeof(g));
	len = mkframe(stream, 1, PISA_MSG_ACK, 100, 1);
	len = 20;		/* truncated */
	len += mkframe(stream + len, 2, PISA_MSG_ACK, 30, 2);
	len += mkframe(stream + len, 3, PISA_MSG_ACK, 100, 3);
	pisa_proto_rx_feed(&rx, stream, len, got_fn, &g);
	check(g.n == 2 && g.fr[0].f.seq == 2 && g.fr[1].f.seq == 3, "rx_truncated_then_good",
	      "got %u", g.n);

	/* every single-byte corruption is caught, and the next frame gets through */
	n = mkframe(fr, 5, PISA_MSG_WRITE, 40, 0x5a);
	for (pos_i = 0; pos_i < n; pos_i++) {
		for (i = 1; i < 256; i += 37) {
			memcpy(stream, fr, n);
			stream[pos_i] ^= (uint8_t)i;
			len = n + mkframe(stream + n, 6, PISA_MSG_ACK, 10, 0);
			/* a length made longer holds the next frame back until
			 * enough bytes came (the host's retransmissions do that) */
			memset(stream + len, 0, PISA_PROTO_MAX_FRAME);
			len += PISA_PROTO_MAX_FRAME;
			pisa_proto_rx_init(&rx);
			memset(&g, 0, sizeof(g));
			pisa_proto_rx_feed(&rx, stream, len, got_fn, &g);
			if (g.n != 1 || g.fr[0].f.seq != 6)
				bad++;
		}
	}
	check(bad == 0, "rx_single_byte_corruption", "%u cases went wrong", bad);
}

static void test_messages(void)
{
	uint8_t p[256];
	struct pisa_proto_hello h = { 1, 0, 1234 }, h2;
	struct pisa_proto_hello_reply r, r2;
	struct pisa_proto_ack a, a2;
	struct pisa_proto_read rd = { PISA_OP_REGISTER, 3, 0x01020304 }, rd2;
	struct pisa_proto_read_reply rr = { 0, 0, 0x1122334455667788ull, 42 }, rr2;
	struct pisa_proto_blob b = { 0x10203040, (const uint8_t *)"abc", 3 }, b2;
	struct pisa_proto_commit c = { 99, 0xdeadbeef }, c2;
	long n;

	n = pisa_proto_hello_encode(p, sizeof(p), &h);
	check(n == 4 && pisa_proto_hello_decode(p, 4, &h2) == 0 && h2.max_payload == 1234 &&
	      pisa_proto_hello_decode(p, 5, &h2) < 0, "msg_hello", "");
	memset(&r, 0, sizeof(r));
	r.version = 1;
	r.flags = 1;
	r.hw_version = 0x0102;
	r.max_payload = 512;
	r.stages = 4;
	r.phv_bytes = 128;
	r.mcast_groups = 16;
	r.mcast_nodes = 32;
	r.clone_sessions = 4;
	r.image_len = 1000;
	r.image_crc = 0x12345678;
	r.window = 16;
	r.max_image = 1u << 20;
	r.ports = 8;
	r.cpu_port = 255;
	strcpy(r.board, "icebreaker");
	strcpy(r.program, "basic");
	n = pisa_proto_hello_reply_encode(p, sizeof(p), &r);
	memset(&r2, 0, sizeof(r2));
	check(n == PISA_HELLO_REPLY_LEN && pisa_proto_hello_reply_decode(p, (size_t)n, &r2) == 0 &&
	      !memcmp(&r, &r2, sizeof(r)) && pisa_proto_hello_reply_decode(p, 50, &r2) < 0,
	      "msg_hello_reply", "n %ld", n);
	memset(&a, 0, sizeof(a));
	a.status = PISA_ST_FAILED;
	a.err = PISA_E_RANGE;
	a.failed = 7;
	a.expect = 300;
	strcpy(a.detail, "op 7: bad index");
	n = pisa_proto_ack_encode(p, sizeof(p), &a);
	check(n == 6 + 15 && pisa_proto_ack_decode(p, (size_t)n, &a2) == 0 && a2.failed == 7 &&
	      a2.expect == 300 && !strcmp(a2.detail, a.detail) && pisa_proto_ack_decode(p, 5, &a2) < 0,
	      "msg_ack", "");
	n = pisa_proto_read_encode(p, sizeof(p), &rd);
	check(n == 7 && pisa_proto_read_decode(p, 7, &rd2) == 0 && rd2.index == rd.index &&
	      rd2.id == 3, "msg_read", "");
	p[0] = PISA_READ_PORT;
	check(pisa_proto_read_decode(p, 7, &rd2) == 0 && rd2.op == PISA_READ_PORT, "msg_read_port",
	      "");
	p[0] = 5;
	check(pisa_proto_read_decode(p, 7, &rd2) < 0, "msg_read_bad_kind", "");
	n = pisa_proto_read_reply_encode(p, sizeof(p), &rr);
	check(n == 18 && pisa_proto_read_reply_decode(p, 18, &rr2) == 0 && rr2.a == rr.a &&
	      rr2.b == 42, "msg_read_reply", "");
	n = pisa_proto_blob_encode(p, sizeof(p), 32, &b);
	check(n == 7 && pisa_proto_blob_decode(p, 7, 32, &b2) == 0 && b2.num == b.num &&
	      b2.len == 3 && !memcmp(b2.data, "abc", 3) && pisa_proto_blob_decode(p, 3, 32, &b2) < 0,
	      "msg_blob32", "");
	b.num = 0x1ff;
	n = pisa_proto_blob_encode(p, sizeof(p), 16, &b);
	check(n == 5 && p[0] == 0xff && p[1] == 1 && pisa_proto_blob_decode(p, 5, 16, &b2) == 0 &&
	      b2.num == 0x1ff, "msg_blob16", "");
	n = pisa_proto_commit_encode(p, sizeof(p), &c);
	check(n == 8 && pisa_proto_commit_decode(p, 8, &c2) == 0 && c2.crc == c.crc &&
	      c2.len == 99, "msg_commit", "");
}

static void test_batch(void)
{
	uint8_t p[512], row[20], mc[8] = { 1, 0, 2, 0, 3, 0, 4, 0 };
	struct pisa_proto_op ops[6], op;
	size_t len, pos = 0;
	unsigned count, i, same = 0;
	int r;

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < sizeof(row); i++)
		row[i] = (uint8_t)i;
	ops[0] = (struct pisa_proto_op){ .op = PISA_OP_ROW, .id = 2, .index = 17, .data = row,
					 .len = sizeof(row) };
	ops[1] = (struct pisa_proto_op){ .op = PISA_OP_COUNTER, .id = 1, .index = 2, .a = 3, .b = 4 };
	ops[2] = (struct pisa_proto_op){ .op = PISA_OP_REGISTER, .id = 5, .index = 6,
					 .a = 0x8000000000000001ull };
	ops[3] = (struct pisa_proto_op){ .op = PISA_OP_METER, .id = 7, .index = 8 };
	ops[3].meter = (struct pisa_meter_cfg){ 1, 100, 200, 300, 400 };
	ops[4] = (struct pisa_proto_op){ .op = PISA_OP_MCAST, .id = 9, .n = 2, .data = mc };
	ops[5] = (struct pisa_proto_op){ .op = PISA_OP_CLONE, .id = 10 };
	ops[5].clone = (struct pisa_clone_cfg){ 1, 4, 0, 64 };
	len = pisa_proto_batch_init(p, sizeof(p));
	for (i = 0; i < 6; i++)
		if (pisa_proto_batch_add(p, sizeof(p), &len, &ops[i]) < 0)
			break;
	check(i == 6 && pisa_proto_batch_check(p, len, &count) == 0 && count == 6, "batch_build",
	      "added %u", i);
	for (i = 0; (r = pisa_proto_batch_next(p, len, &pos, &op)) == 1; i++) {
		const struct pisa_proto_op *o = &ops[i];

		if (op.op == o->op && op.id == o->id && op.a == o->a && op.b == o->b &&
		    (o->op == PISA_OP_MCAST || o->op == PISA_OP_CLONE || op.index == o->index) &&
		    !memcmp(&op.meter, &o->meter, sizeof(op.meter)) &&
		    !memcmp(&op.clone, &o->clone, sizeof(op.clone)) && op.n == o->n &&
		    op.len == o->len && (!o->len || !memcmp(op.data, o->data, o->len)))
			same++;
	}
	check(r == 0 && same == 6, "batch_roundtrip", "r %d, %u of 6 equal", r, same);
	{
		struct pisa_mc_copy c;

		pisa_proto_mc_copy_get(&ops[4], 1, &c);
		check(c.rid == 3 && c.port == 4, "batch_mc_copy", "rid %u port %u", c.rid, c.port);
	}
	p[0]++;
	check(pisa_proto_batch_check(p, len, &count) < 0, "batch_bad_count", "");
	p[0]--;
	check(pisa_proto_batch_check(p, len - 1, &count) < 0, "batch_truncated", "");
	p[2 + PISA_OP_HDR + 26] = 0xee;	/* opcode of op 1 */
	check(pisa_proto_batch_check(p, len, &count) < 0, "batch_bad_opcode", "");
	/* full: the op does not fit, nothing changes */
	len = pisa_proto_batch_init(p, 40);
	r = pisa_proto_batch_add(p, 40, &len, &ops[0]);
	check(r == 0, "batch_fits", "r %d", r);
	r = pisa_proto_batch_add(p, 40, &len, &ops[1]);
	check(r == -PISA_E_FULL && len == 2 + 29 && p[0] == 1, "batch_full", "r %d len %zu", r, len);
}

/* ---- server with a recording stub switch ---- */
struct rec {
	unsigned n;
	uint32_t idx[64];
	uint64_t val[64];
	uint8_t out[8192];
	size_t out_len;
	struct pisa_proto_server *s;
	unsigned loads;
};

static int r_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	return -PISA_E_NOTFOUND;
}

static int r_cread(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	*p = 11;
	*b = 22;
	return 0;
}

static int r_cwrite(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	return 0;
}

static int r_rread(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	struct rec *r = sw;

	*v = r->n ? r->val[r->n - 1] : 0;
	return id == 0 ? 0 : -PISA_E_RANGE;
}

static int r_rwrite(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	struct rec *r = sw;

	if (id != 0)
		return -PISA_E_RANGE;
	if (r->n < 64) {
		r->idx[r->n] = i;
		r->val[r->n] = v;
	}
	r->n++;
	return 0;
}

static int r_meter(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *c)
{
	return 0;
}

static int r_mcast(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	return 0;
}

static int r_clone(void *sw, uint16_t id, const struct pisa_clone_cfg *c)
{
	return 0;
}

static const struct pisa_switch_ops rec_ops = {
	r_row, r_cread, r_cwrite, r_rread, r_rwrite, r_meter, r_mcast, r_clone, NULL, /* no MACs */
};

static void rec_send(void *arg, const uint8_t *f, size_t len)
{
	struct rec *r = arg;

	if (r->out_len + len <= sizeof(r->out)) {
		memcpy(r->out + r->out_len, f, len);
		r->out_len += len;
	}
}

static void rec_info(void *arg, struct pisa_proto_hello_reply *h)
{
	h->ports = 4;
}

static int rec_load(void *arg, struct pisa_image *img, char *d, size_t dl)
{
	struct rec *r = arg;

	r->loads++;
	pisa_image_free(img);
	pisa_proto_server_set_switch(r->s, &rec_ops, r);
	return 0;
}

static int rec_reset(void *arg)
{
	return 0;
}

static int rec_pout(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct rec *r = arg;

	return pisa_proto_server_packet_in(r->s, (uint16_t)(port + 1), d, len);
}

/* Sends one request frame, returns the replies the server sent. */
static void req(struct rec *r, struct got *g, uint16_t seq, uint8_t type, const uint8_t *p,
		size_t len)
{
	uint8_t fr[PISA_PROTO_MAX_FRAME];
	struct pisa_proto_rx rx;
	size_t n = pisa_proto_frame_encode(fr, sizeof(fr), seq, type, p, len);

	r->out_len = 0;
	pisa_proto_server_input(r->s, fr, n);
	pisa_proto_rx_init(&rx);
	memset(g, 0, sizeof(*g));
	pisa_proto_rx_feed(&rx, r->out, r->out_len, got_fn, g);
}

static void reg_batch(uint8_t *p, size_t *len, uint16_t id, uint32_t idx, uint64_t v)
{
	struct pisa_proto_op op = { .op = PISA_OP_REGISTER, .id = id, .index = idx, .a = v };

	*len = pisa_proto_batch_init(p, 64);
	pisa_proto_batch_add(p, 64, len, &op);
}

static int ack_is(const struct got *g, uint16_t seq, uint8_t status, struct pisa_proto_ack *a)
{
	if (g->n != 1 || g->fr[0].f.type != PISA_MSG_ACK || g->fr[0].f.seq != seq)
		return 0;
	if (pisa_proto_ack_decode(g->fr[0].payload, g->fr[0].f.len, a) < 0)
		return 0;
	return a->status == status;
}

static void test_server(void)
{
	static const struct pisa_proto_server_cb cb = {
		rec_send, rec_info, rec_load, rec_reset, rec_pout,
	};
	static struct rec r;
	static struct got g;
	struct pisa_proto_hello h = { 1, 0, 1024 };
	struct pisa_proto_hello_reply hr;
	struct pisa_proto_ack a;
	struct pisa_proto_read_reply rr;
	struct pisa_proto_read rd = { PISA_OP_REGISTER, 0, 0 };
	struct pisa_proto_server_stats st;
	uint8_t p[256];
	size_t len;
	long n;

	memset(&r, 0, sizeof(r));
	r.s = pisa_proto_server_new(&cb, &r, "sim", 1u << 20);
	pisa_proto_server_set_switch(r.s, &rec_ops, &r);

	reg_batch(p, &len, 0, 1, 100);
	req(&r, &g, 10, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 10, PISA_ST_NO_SESSION, &a) && r.n == 0, "server_needs_hello", "n %u", r.n);

	n = pisa_proto_hello_encode(p, sizeof(p), &h);
	req(&r, &g, 500, PISA_MSG_HELLO, p, (size_t)n);
	check(g.n == 1 && g.fr[0].f.type == PISA_MSG_HELLO_REPLY && g.fr[0].f.seq == 500 &&
	      pisa_proto_hello_reply_decode(g.fr[0].payload, g.fr[0].f.len, &hr) == 0 &&
	      hr.ports == 4 && !strcmp(hr.board, "sim") && hr.window == PISA_PROTO_WINDOW &&
	      (hr.flags & PISA_HELLO_IMAGE), "server_hello", "");

	reg_batch(p, &len, 0, 1, 100);
	req(&r, &g, 501, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 501, PISA_ST_OK, &a) && a.expect == 502 && r.n == 1 && r.val[0] == 100,
	      "server_write", "n %u", r.n);
	req(&r, &g, 501, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 501, PISA_ST_OK, &a) && r.n == 1, "server_duplicate_not_executed",
	      "n %u", r.n);
	reg_batch(p, &len, 0, 2, 200);
	req(&r, &g, 503, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 503, PISA_ST_SEQ, &a) && a.expect == 502 && r.n == 1,
	      "server_gap_refused", "n %u", r.n);
	req(&r, &g, 502, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 502, PISA_ST_OK, &a) && r.n == 2, "server_in_order_after_gap", "");
	req(&r, &g, 503, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 503, PISA_ST_OK, &a) && r.n == 3, "server_then_next", "");
	/* an old frame beyond the replay window */
	req(&r, &g, 400, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 400, PISA_ST_SEQ, &a) && r.n == 3, "server_old_seq_refused", "");

	/* first op fails: the ack names it, the op after it is not run */
	{
		struct pisa_proto_op ops[3] = {
			{ .op = PISA_OP_REGISTER, .id = 0, .index = 5, .a = 1 },
			{ .op = PISA_OP_REGISTER, .id = 9, .index = 5, .a = 2 },
			{ .op = PISA_OP_REGISTER, .id = 0, .index = 5, .a = 3 },
		};
		len = pisa_proto_batch_init(p, sizeof(p));
		for (int i = 0; i < 3; i++)
			pisa_proto_batch_add(p, sizeof(p), &len, &ops[i]);
		req(&r, &g, 504, PISA_MSG_WRITE, p, len);
		check(ack_is(&g, 504, PISA_ST_FAILED, &a) && a.failed == 1 && a.err == PISA_E_RANGE &&
		      r.n == 4 && r.val[3] == 1, "server_failed_op_index", "failed %u n %u",
		      a.failed, r.n);
	}
	p[0] = 7;	/* count that does not match */
	req(&r, &g, 505, PISA_MSG_WRITE, p, len);
	check(ack_is(&g, 505, PISA_ST_MALFORMED, &a) && r.n == 4 && a.expect == 506,
	      "server_malformed_consumes_seq", "");
	req(&r, &g, 506, 0x55, p, 3);
	check(ack_is(&g, 506, PISA_ST_UNSUPPORTED, &a), "server_unknown_type", "");

	n = pisa_proto_read_encode(p, sizeof(p), &rd);
	req(&r, &g, 507, PISA_MSG_READ, p, (size_t)n);
	check(g.n == 1 && g.fr[0].f.type == PISA_MSG_READ_REPLY &&
	      pisa_proto_read_reply_decode(g.fr[0].payload, g.fr[0].f.len, &rr) == 0 &&
	      rr.status == 0 && rr.a == 1, "server_read", "");
	rd.id = 3;
	n = pisa_proto_read_encode(p, sizeof(p), &rd);
	req(&r, &g, 508, PISA_MSG_READ, p, (size_t)n);
	check(g.n == 1 && pisa_proto_read_reply_decode(g.fr[0].payload, g.fr[0].f.len, &rr) == 0 &&
	      rr.status == PISA_ST_FAILED && rr.err == PISA_E_RANGE, "server_read_error", "");
	rd.op = PISA_READ_PORT;	/* these ops have no MACs */
	rd.id = 0;
	n = pisa_proto_read_encode(p, sizeof(p), &rd);
	req(&r, &g, 509, PISA_MSG_READ, p, (size_t)n);
	check(g.n == 1 && pisa_proto_read_reply_decode(g.fr[0].payload, g.fr[0].f.len, &rr) == 0 &&
	      rr.status == PISA_ST_FAILED && rr.err == PISA_E_INVAL && rr.a == 0,
	      "server_read_port_without_macs", "status %u err %u", rr.status, rr.err);

	/* packet-out: its packet-in comes before the ack */
	{
		struct pisa_proto_blob b = { 7, (const uint8_t *)"pkt", 3 };

		n = pisa_proto_blob_encode(p, sizeof(p), 16, &b);
		req(&r, &g, 510, PISA_MSG_PACKET_OUT, p, (size_t)n);
		check(g.n == 2 && g.fr[0].f.type == PISA_MSG_PACKET_IN && g.fr[0].payload[0] == 8 &&
		      g.fr[1].f.type == PISA_MSG_ACK && g.fr[1].f.seq == 510, "server_packet_out",
		      "got %u", g.n);
	}

	/* image: chunks, commit; wrong board refused, bad CRC refused */
	{
		struct img_store is;
		struct pisa_image *img = img_build(&is, "sim");
		uint8_t *buf, cp[PISA_PROTO_MAX_PAYLOAD];
		size_t blen, off;
		uint16_t seq = 511;
		struct pisa_proto_commit c;
		int ok = 1, wr;

		char det[200] = "";

		pisa_image_check(img, det, sizeof(det));
		wr = pisa_image_write(img, &buf, &blen);
		check(wr == 0, "image_write", "%s: %s", pisa_strerror(wr), det);
		if (wr == 0) {
			for (off = 0; off < blen; off += 100) {
				struct pisa_proto_blob b = { (uint32_t)off, buf + off,
							     blen - off < 100 ? blen - off : 100 };

				n = pisa_proto_blob_encode(cp, sizeof(cp), 32, &b);
				req(&r, &g, seq, PISA_MSG_IMAGE_CHUNK, cp, (size_t)n);
				ok &= ack_is(&g, seq, PISA_ST_OK, &a);
				seq++;
			}
			c.len = (uint32_t)blen;
			c.crc = pisa_crc32(0, buf, blen) ^ 1;
			n = pisa_proto_commit_encode(cp, sizeof(cp), &c);
			req(&r, &g, seq, PISA_MSG_IMAGE_COMMIT, cp, (size_t)n);
			check(ok && ack_is(&g, seq, PISA_ST_FAILED, &a) && a.err == PISA_E_CRC &&
			      r.loads == 0, "server_image_bad_crc", "%s", a.detail);
			seq++;
			c.crc ^= 1;
			n = pisa_proto_commit_encode(cp, sizeof(cp), &c);
			req(&r, &g, seq, PISA_MSG_IMAGE_COMMIT, cp, (size_t)n);
			check(ack_is(&g, seq, PISA_ST_OK, &a) && r.loads == 1, "server_image_load",
			      "%s", a.detail);
			seq++;
			free(buf);
		}
		img = img_build(&is, "icebreaker");
		if (pisa_image_write(img, &buf, &blen) == 0) {
			struct pisa_proto_blob b = { 0, buf, blen };

			n = pisa_proto_blob_encode(cp, sizeof(cp), 32, &b);
			req(&r, &g, seq++, PISA_MSG_IMAGE_CHUNK, cp, (size_t)n);
			c.len = (uint32_t)blen;
			c.crc = pisa_crc32(0, buf, blen);
			n = pisa_proto_commit_encode(cp, sizeof(cp), &c);
			req(&r, &g, seq, PISA_MSG_IMAGE_COMMIT, cp, (size_t)n);
			check(ack_is(&g, seq, PISA_ST_FAILED, &a) && r.loads == 1 &&
			      strstr(a.detail, "icebreaker"), "server_image_wrong_board", "%s",
			      a.detail);
			seq++;
			free(buf);
		}
		/* a chunk that leaves a gap */
		{
			struct pisa_proto_blob b = { 5000, cp, 10 };

			n = pisa_proto_blob_encode(p, sizeof(p), 32, &b);
			req(&r, &g, seq, PISA_MSG_IMAGE_CHUNK, p, (size_t)n);
			check(ack_is(&g, seq, PISA_ST_FAILED, &a), "server_chunk_gap", "");
		}
	}
	pisa_proto_server_get_stats(r.s, &st);
	check(st.duplicates == 1 && st.out_of_order >= 2, "server_stats", "dup %llu ooo %llu",
	      (unsigned long long)st.duplicates, (unsigned long long)st.out_of_order);
	pisa_proto_server_free(r.s);
}

int main(void)
{
	test_frame();
	test_rx();
	test_messages();
	test_batch();
	test_server();
	return failed;
}
