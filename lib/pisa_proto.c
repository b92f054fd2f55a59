/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_proto.c: control-link framing, message codec and the switch end
 * (docs/control-protocol.md). Every multi-byte field is little-endian.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "pisa_bytes.h"
#include "pisa_proto.h"

/* ---- Framing ---- */

/* Header check: the low byte of the CRC-32 of len, seq and type, i.e. of the
 * running frame CRC after byte 6, finalised: hardware gets it for free. */
static uint8_t hcheck(const uint8_t *frame)
{
	return (uint8_t)pisa_crc32(0, frame + 2, 5);
}

size_t pisa_proto_frame_encode(uint8_t *out, size_t cap, uint16_t seq, uint8_t type,
			       const uint8_t *payload, size_t len)
{
	size_t total = PISA_PROTO_HDR + len + PISA_PROTO_CRC;
	uint32_t crc;

	if (len > PISA_PROTO_MAX_PAYLOAD || total > cap)
		return 0;
	out[0] = PISA_PROTO_SYNC0;
	out[1] = PISA_PROTO_SYNC1;
	pisa_put_le16(out + 2, (uint16_t)len);
	pisa_put_le16(out + 4, seq);
	out[6] = type;
	out[7] = hcheck(out);
	if (len)
		memmove(out + PISA_PROTO_HDR, payload, len);
	crc = pisa_crc32(0, out + 2, PISA_PROTO_HDR - 2 + len);
	pisa_put_le32(out + PISA_PROTO_HDR + len, crc);
	return total;
}

long pisa_proto_frame_decode(const uint8_t *buf, size_t len, struct pisa_proto_frame *f)
{
	size_t plen, total;

	if (len >= 1 && buf[0] != PISA_PROTO_SYNC0)
		return -PISA_E_FORMAT;
	if (len >= 2 && buf[1] != PISA_PROTO_SYNC1)
		return -PISA_E_FORMAT;
	if (len < PISA_PROTO_HDR)
		return 0;
	/* the length is not trusted before the header check: a corrupted one
	 * would hold back the frames behind it */
	if (buf[7] != hcheck(buf))
		return -PISA_E_CRC;
	plen = pisa_get_le16(buf + 2);
	if (plen > PISA_PROTO_MAX_PAYLOAD)
		return -PISA_E_FORMAT;
	total = PISA_PROTO_HDR + plen + PISA_PROTO_CRC;
	if (len < total)
		return 0;
	if (pisa_crc32(0, buf + 2, PISA_PROTO_HDR - 2 + plen) !=
	    pisa_get_le32(buf + PISA_PROTO_HDR + plen))
		return -PISA_E_CRC;
	f->len = (uint16_t)plen;
	f->seq = pisa_get_le16(buf + 4);
	f->type = buf[6];
	f->payload = buf + PISA_PROTO_HDR;
	return (long)total;
}

void pisa_proto_rx_init(struct pisa_proto_rx *rx)
{
	rx->start = rx->end = 0;
	rx->frames = rx->dropped = rx->bad_crc = 0;
}

/*
 * Takes every frame out of the buffer. On a bad length or CRC only the first
 * byte is skipped: a real frame may start inside the bytes of a false one.
 */
static void rx_scan(struct pisa_proto_rx *rx, pisa_proto_frame_fn fn, void *arg)
{
	struct pisa_proto_frame f;
	long n;

	while (rx->start < rx->end) {
		uint8_t *p = rx->buf + rx->start;
		size_t avail = rx->end - rx->start;

		if (p[0] != PISA_PROTO_SYNC0) {
			uint8_t *s = memchr(p, PISA_PROTO_SYNC0, avail);
			size_t skip = s ? (size_t)(s - p) : avail;

			rx->start += skip;
			rx->dropped += skip;
			continue;
		}
		n = pisa_proto_frame_decode(p, avail, &f);
		if (n == 0)
			break;
		if (n < 0) {
			if (n == -PISA_E_CRC)
				rx->bad_crc++;
			rx->start++;
			rx->dropped++;
			continue;
		}
		/* consumed before the callback runs */
		rx->start += (size_t)n;
		rx->frames++;
		fn(arg, &f);
	}
	if (rx->start == rx->end)
		rx->start = rx->end = 0;
}

void pisa_proto_rx_resync(struct pisa_proto_rx *rx, pisa_proto_frame_fn fn, void *arg)
{
	if (rx->start == rx->end)
		return;
	rx->start++;
	rx->dropped++;
	rx_scan(rx, fn, arg);
}

void pisa_proto_rx_feed(struct pisa_proto_rx *rx, const uint8_t *data, size_t len,
			pisa_proto_frame_fn fn, void *arg)
{
	while (len) {
		size_t room, n;

		if (rx->start && rx->end == sizeof(rx->buf)) {
			memmove(rx->buf, rx->buf + rx->start, rx->end - rx->start);
			rx->end -= rx->start;
			rx->start = 0;
		}
		room = sizeof(rx->buf) - rx->end;
		n = len < room ? len : room;
		memcpy(rx->buf + rx->end, data, n);
		rx->end += n;
		data += n;
		len -= n;
		rx_scan(rx, fn, arg);
	}
}

/* ---- Messages ---- */

static void put_str(uint8_t *p, const char *s, size_t n)
{
	size_t l = strnlen(s, n);

	memset(p, 0, n);
	memcpy(p, s, l);
}

static void get_str(char *dst, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n - 1 && p[i]; i++)
		dst[i] = (char)p[i];
	dst[i] = 0;
}

long pisa_proto_hello_encode(uint8_t *out, size_t cap, const struct pisa_proto_hello *h)
{
	if (cap < 4)
		return -PISA_E_RANGE;
	out[0] = h->version;
	out[1] = h->flags;
	pisa_put_le16(out + 2, h->max_payload);
	return 4;
}

int pisa_proto_hello_decode(const uint8_t *p, size_t len, struct pisa_proto_hello *h)
{
	if (len != 4)
		return -PISA_E_FORMAT;
	h->version = p[0];
	h->flags = p[1];
	h->max_payload = pisa_get_le16(p + 2);
	return 0;
}

long pisa_proto_hello_reply_encode(uint8_t *out, size_t cap,
				   const struct pisa_proto_hello_reply *r)
{
	if (cap < PISA_HELLO_REPLY_LEN)
		return -PISA_E_RANGE;
	out[0] = r->version;
	out[1] = r->flags;
	pisa_put_le16(out + 2, r->hw_version);
	pisa_put_le16(out + 4, r->max_payload);
	pisa_put_le16(out + 6, r->window);
	pisa_put_le16(out + 8, r->ports);
	pisa_put_le16(out + 10, r->cpu_port);
	pisa_put_le16(out + 12, r->stages);
	pisa_put_le16(out + 14, r->phv_bytes);
	pisa_put_le16(out + 16, r->mcast_groups);
	pisa_put_le16(out + 18, r->mcast_nodes);
	pisa_put_le16(out + 20, r->clone_sessions);
	pisa_put_le32(out + 22, r->max_image);
	pisa_put_le32(out + 26, r->image_len);
	pisa_put_le32(out + 30, r->image_crc);
	put_str(out + 34, r->board, 16);
	put_str(out + 50, r->program, 64);
	return PISA_HELLO_REPLY_LEN;
}

/* Longer replies are accepted: later versions append fields. */
int pisa_proto_hello_reply_decode(const uint8_t *p, size_t len,
				  struct pisa_proto_hello_reply *r)
{
	if (len < PISA_HELLO_REPLY_LEN)
		return -PISA_E_FORMAT;
	r->version = p[0];
	r->flags = p[1];
	r->hw_version = pisa_get_le16(p + 2);
	r->max_payload = pisa_get_le16(p + 4);
	r->window = pisa_get_le16(p + 6);
	r->ports = pisa_get_le16(p + 8);
	r->cpu_port = pisa_get_le16(p + 10);
	r->stages = pisa_get_le16(p + 12);
	r->phv_bytes = pisa_get_le16(p + 14);
	r->mcast_groups = pisa_get_le16(p + 16);
	r->mcast_nodes = pisa_get_le16(p + 18);
	r->clone_sessions = pisa_get_le16(p + 20);
	r->max_image = pisa_get_le32(p + 22);
	r->image_len = pisa_get_le32(p + 26);
	r->image_crc = pisa_get_le32(p + 30);
	get_str(r->board, p + 34, 16);
	get_str(r->program, p + 50, 64);
	return 0;
}

long pisa_proto_ack_encode(uint8_t *out, size_t cap, const struct pisa_proto_ack *a)
{
	size_t dl = strnlen(a->detail, PISA_PROTO_DETAIL_MAX);

	if (cap < 6 + dl)
		return -PISA_E_RANGE;
	out[0] = a->status;
	out[1] = a->err;
	pisa_put_le16(out + 2, a->failed);
	pisa_put_le16(out + 4, a->expect);
	memcpy(out + 6, a->detail, dl);
	return (long)(6 + dl);
}

int pisa_proto_ack_decode(const uint8_t *p, size_t len, struct pisa_proto_ack *a)
{
	size_t i;

	if (len < 6 || len > 6 + PISA_PROTO_DETAIL_MAX)
		return -PISA_E_FORMAT;
	a->status = p[0];
	a->err = p[1];
	a->failed = pisa_get_le16(p + 2);
	a->expect = pisa_get_le16(p + 4);
	/* text for humans: anything outside printable ASCII becomes '?' */
	for (i = 0; i < len - 6; i++)
		a->detail[i] = (p[6 + i] >= 0x20 && p[6 + i] < 0x7f) ? (char)p[6 + i] : '?';
	a->detail[len - 6] = 0;
	return 0;
}

long pisa_proto_read_encode(uint8_t *out, size_t cap, const struct pisa_proto_read *r)
{
	if (cap < 7)
		return -PISA_E_RANGE;
	out[0] = r->op;
	pisa_put_le16(out + 1, r->id);
	pisa_put_le32(out + 3, r->index);
	return 7;
}

int pisa_proto_read_decode(const uint8_t *p, size_t len, struct pisa_proto_read *r)
{
	if (len != 7 || (p[0] != PISA_OP_COUNTER && p[0] != PISA_OP_REGISTER &&
			 p[0] != PISA_READ_PORT))
		return -PISA_E_FORMAT;
	r->op = p[0];
	r->id = pisa_get_le16(p + 1);
	r->index = pisa_get_le32(p + 3);
	return 0;
}

long pisa_proto_read_reply_encode(uint8_t *out, size_t cap,
				  const struct pisa_proto_read_reply *r)
{
	if (cap < 18)
		return -PISA_E_RANGE;
	out[0] = r->status;
	out[1] = r->err;
	pisa_put_le64(out + 2, r->a);
	pisa_put_le64(out + 10, r->b);
	return 18;
}

int pisa_proto_read_reply_decode(const uint8_t *p, size_t len,
				 struct pisa_proto_read_reply *r)
{
	if (len != 18)
		return -PISA_E_FORMAT;
	r->status = p[0];
	r->err = p[1];
	r->a = pisa_get_le64(p + 2);
	r->b = pisa_get_le64(p + 10);
	return 0;
}

long pisa_proto_blob_encode(uint8_t *out, size_t cap, unsigned numbits,
			    const struct pisa_proto_blob *b)
{
	size_t hl = numbits == 32 ? 4 : 2;

	if (cap < hl || b->len > cap - hl)
		return -PISA_E_RANGE;
	if (hl == 4)
		pisa_put_le32(out, b->num);
	else
		pisa_put_le16(out, (uint16_t)b->num);
	if (b->len)
		memcpy(out + hl, b->data, b->len);
	return (long)(hl + b->len);
}

int pisa_proto_blob_decode(const uint8_t *p, size_t len, unsigned numbits,
			   struct pisa_proto_blob *b)
{
	size_t hl = numbits == 32 ? 4 : 2;

	if (len < hl)
		return -PISA_E_FORMAT;
	b->num = hl == 4 ? pisa_get_le32(p) : pisa_get_le16(p);
	b->data = p + hl;
	b->len = len - hl;
	return 0;
}

long pisa_proto_commit_encode(uint8_t *out, size_t cap, const struct pisa_proto_commit *c)
{
	if (cap < 8)
		return -PISA_E_RANGE;
	pisa_put_le32(out, c->len);
	pisa_put_le32(out + 4, c->crc);
	return 8;
}

int pisa_proto_commit_decode(const uint8_t *p, size_t len, struct pisa_proto_commit *c)
{
	if (len != 8)
		return -PISA_E_FORMAT;
	c->len = pisa_get_le32(p);
	c->crc = pisa_get_le32(p + 4);
	return 0;
}

/* ---- WRITE batches ---- */

/* Body length of each op, header excluded; rows and groups vary. */
static size_t op_body_size(const struct pisa_proto_op *op)
{
	switch (op->op) {
	case PISA_OP_ROW:
		return 6 + op->len;
	case PISA_OP_COUNTER:
		return 22;
	case PISA_OP_REGISTER:
		return 14;
	case PISA_OP_METER:
		return 23;
	case PISA_OP_MCAST:
		return 4 + 4 * (size_t)op->n;
	case PISA_OP_CLONE:
		return 9;
	}
	return 0;
}

size_t pisa_proto_op_size(const struct pisa_proto_op *op)
{
	return PISA_OP_HDR + op_body_size(op);
}

size_t pisa_proto_batch_init(uint8_t *out, size_t cap)
{
	if (cap < 2)
		return 0;
	pisa_put_le16(out, 0);
	return 2;
}

int pisa_proto_batch_add(uint8_t *out, size_t cap, size_t *len, const struct pisa_proto_op *op)
{
	size_t body = op_body_size(op);
	uint16_t count;
	uint8_t *p;

	if (body == 0)
		return -PISA_E_INVAL;
	if (body > 0xFFFF)
		return -PISA_E_RANGE;
	if (*len < 2 || *len > cap || PISA_OP_HDR + body > cap - *len)
		return -PISA_E_FULL;
	count = pisa_get_le16(out);
	if (count == 0xFFFF)
		return -PISA_E_FULL;
	p = out + *len;
	p[0] = op->op;
	pisa_put_le16(p + 1, (uint16_t)body);
	p += PISA_OP_HDR;
	switch (op->op) {
	case PISA_OP_ROW:
		pisa_put_le16(p, op->id);
		pisa_put_le32(p + 2, op->index);
		if (op->len)
			memcpy(p + 6, op->data, op->len);
		break;
	case PISA_OP_COUNTER:
		pisa_put_le16(p, op->id);
		pisa_put_le32(p + 2, op->index);
		pisa_put_le64(p + 6, op->a);
		pisa_put_le64(p + 14, op->b);
		break;
	case PISA_OP_REGISTER:
		pisa_put_le16(p, op->id);
		pisa_put_le32(p + 2, op->index);
		pisa_put_le64(p + 6, op->a);
		break;
	case PISA_OP_METER:
		pisa_put_le16(p, op->id);
		pisa_put_le32(p + 2, op->index);
		p[6] = op->meter.configured;
		pisa_put_le32(p + 7, op->meter.cir_q16);
		pisa_put_le32(p + 11, op->meter.pir_q16);
		pisa_put_le32(p + 15, op->meter.cbs);
		pisa_put_le32(p + 19, op->meter.pbs);
		break;
	case PISA_OP_MCAST:
		pisa_put_le16(p, op->id);
		pisa_put_le16(p + 2, op->n);
		if (op->n)
			memcpy(p + 4, op->data, 4 * (size_t)op->n);
		break;
	case PISA_OP_CLONE:
		pisa_put_le16(p, op->id);
		p[2] = op->clone.enabled;
		pisa_put_le16(p + 3, op->clone.port);
		pisa_put_le16(p + 5, op->clone.mcast_grp);
		pisa_put_le16(p + 7, op->clone.truncate);
		break;
	}
	*len += PISA_OP_HDR + body;
	pisa_put_le16(out, (uint16_t)(count + 1));
	return 0;
}

int pisa_proto_batch_next(const uint8_t *p, size_t len, size_t *pos, struct pisa_proto_op *op)
{
	const uint8_t *b;
	size_t blen;

	if (*pos == 0) {
		if (len < 2)
			return -PISA_E_FORMAT;
		*pos = 2;
	}
	if (*pos == len)
		return 0;
	if (*pos > len || len - *pos < PISA_OP_HDR)
		return -PISA_E_FORMAT;
	memset(op, 0, sizeof(*op));
	op->op = p[*pos];
	blen = pisa_get_le16(p + *pos + 1);
	if (blen > len - *pos - PISA_OP_HDR)
		return -PISA_E_FORMAT;
	b = p + *pos + PISA_OP_HDR;
	switch (op->op) {
	case PISA_OP_ROW:
		if (blen < 6)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->index = pisa_get_le32(b + 2);
		op->data = b + 6;
		op->len = blen - 6;
		break;
	case PISA_OP_COUNTER:
		if (blen != 22)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->index = pisa_get_le32(b + 2);
		op->a = pisa_get_le64(b + 6);
		op->b = pisa_get_le64(b + 14);
		break;
	case PISA_OP_REGISTER:
		if (blen != 14)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->index = pisa_get_le32(b + 2);
		op->a = pisa_get_le64(b + 6);
		break;
	case PISA_OP_METER:
		if (blen != 23 || b[6] > 1)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->index = pisa_get_le32(b + 2);
		op->meter.configured = b[6];
		op->meter.cir_q16 = pisa_get_le32(b + 7);
		op->meter.pir_q16 = pisa_get_le32(b + 11);
		op->meter.cbs = pisa_get_le32(b + 15);
		op->meter.pbs = pisa_get_le32(b + 19);
		break;
	case PISA_OP_MCAST:
		if (blen < 4)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->n = pisa_get_le16(b + 2);
		if (blen != 4 + 4 * (size_t)op->n)
			return -PISA_E_FORMAT;
		op->data = b + 4;
		break;
	case PISA_OP_CLONE:
		if (blen != 9 || b[2] > 1)
			return -PISA_E_FORMAT;
		op->id = pisa_get_le16(b);
		op->clone.enabled = b[2];
		op->clone.port = pisa_get_le16(b + 3);
		op->clone.mcast_grp = pisa_get_le16(b + 5);
		op->clone.truncate = pisa_get_le16(b + 7);
		break;
	default:
		return -PISA_E_FORMAT;
	}
	*pos += PISA_OP_HDR + blen;
	return 1;
}

int pisa_proto_batch_check(const uint8_t *p, size_t len, unsigned *count)
{
	struct pisa_proto_op op;
	size_t pos = 0;
	unsigned n = 0;
	int r;

	while ((r = pisa_proto_batch_next(p, len, &pos, &op)) == 1)
		n++;
	if (r < 0 || n != pisa_get_le16(p))
		return -PISA_E_FORMAT;
	*count = n;
	return 0;
}

void pisa_proto_mc_copy_get(const struct pisa_proto_op *op, uint16_t i, struct pisa_mc_copy *c)
{
	c->rid = pisa_get_le16(op->data + 4 * (size_t)i);
	c->port = pisa_get_le16(op->data + 4 * (size_t)i + 2);
}

const char *pisa_proto_type_name(uint8_t type)
{
	switch (type) {
	case PISA_MSG_HELLO: return "HELLO";
	case PISA_MSG_IMAGE_CHUNK: return "IMAGE_CHUNK";
	case PISA_MSG_IMAGE_COMMIT: return "IMAGE_COMMIT";
	case PISA_MSG_WRITE: return "WRITE";
	case PISA_MSG_READ: return "READ";
	case PISA_MSG_PACKET_OUT: return "PACKET_OUT";
	case PISA_MSG_RESET: return "RESET";
	case PISA_MSG_ACK: return "ACK";
	case PISA_MSG_HELLO_REPLY: return "HELLO_REPLY";
	case PISA_MSG_READ_REPLY: return "READ_REPLY";
	case PISA_MSG_PACKET_IN: return "PACKET_IN";
	case PISA_MSG_DIGEST: return "DIGEST";
	}
	return "unknown";
}

const char *pisa_proto_status_name(uint8_t status)
{
	switch (status) {
	case PISA_ST_OK: return "ok";
	case PISA_ST_FAILED: return "failed";
	case PISA_ST_SEQ: return "out of sequence";
	case PISA_ST_MALFORMED: return "malformed";
	case PISA_ST_UNSUPPORTED: return "unsupported";
	case PISA_ST_NO_SESSION: return "no session";
	}
	return "unknown status";
}

/* ---- The switch end ---- */

#define REPLY_MAX 128		/* every stored reply (ACK, READ_REPLY) fits */

struct stored_reply {
	uint8_t valid;
	uint16_t seq;
	uint8_t type;
	uint16_t len;
	uint8_t payload[REPLY_MAX];
};

struct pisa_proto_server {
	struct pisa_proto_server_cb cb;
	void *arg;
	char board[16];
	const struct pisa_switch_ops *ops;
	void *sw;

	struct pisa_proto_rx rx;
	int session;		/* a HELLO came since the start or disconnect */
	uint16_t expect;
	uint16_t tx_seq;	/* for PACKET_IN and DIGEST */
	struct stored_reply replies[PISA_PROTO_WINDOW];

	uint8_t *stage;		/* image being received */
	size_t stage_len, stage_cap;
	uint32_t max_image;
	uint32_t image_len, image_crc;
	uint16_t max_payload, window;

	struct pisa_proto_server_stats st;
	uint16_t cur_seq;	/* of the request being executed */
	uint64_t hellos;
	uint8_t frame[PISA_PROTO_MAX_FRAME];
};

struct pisa_proto_server *pisa_proto_server_new(const struct pisa_proto_server_cb *cb, void *arg,
						const char *board, uint32_t max_image)
{
	struct pisa_proto_server *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cb = *cb;
	s->arg = arg;
	snprintf(s->board, sizeof(s->board), "%s", board);
	s->max_image = max_image;
	s->max_payload = PISA_PROTO_MAX_PAYLOAD;
	s->window = PISA_PROTO_WINDOW;
	pisa_proto_rx_init(&s->rx);
	return s;
}

void pisa_proto_server_free(struct pisa_proto_server *s)
{
	if (!s)
		return;
	free(s->stage);
	free(s);
}

void pisa_proto_server_set_switch(struct pisa_proto_server *s,
				  const struct pisa_switch_ops *ops, void *sw)
{
	s->ops = ops;
	s->sw = sw;
}

void pisa_proto_server_set_limits(struct pisa_proto_server *s, uint16_t max_payload,
				  uint16_t window)
{
	if (max_payload < PISA_PROTO_MIN_PAYLOAD)
		max_payload = PISA_PROTO_MIN_PAYLOAD;
	s->max_payload = max_payload < PISA_PROTO_MAX_PAYLOAD ? max_payload : PISA_PROTO_MAX_PAYLOAD;
	s->window = window >= 1 && window <= PISA_PROTO_WINDOW ? window : PISA_PROTO_WINDOW;
}

void pisa_proto_server_set_image(struct pisa_proto_server *s, const uint8_t *bytes, size_t len)
{
	s->image_len = (uint32_t)len;
	s->image_crc = bytes ? pisa_crc32(0, bytes, len) : 0;
}

void pisa_proto_server_disconnect(struct pisa_proto_server *s)
{
	s->session = 0;
	memset(s->replies, 0, sizeof(s->replies));
	pisa_proto_rx_init(&s->rx);
}

static void server_send(struct pisa_proto_server *s, uint16_t seq, uint8_t type,
			const uint8_t *payload, size_t len)
{
	size_t n = pisa_proto_frame_encode(s->frame, sizeof(s->frame), seq, type, payload, len);

	if (n)
		s->cb.send(s->arg, s->frame, n);
}

static int server_push(struct pisa_proto_server *s, uint8_t type, uint16_t num,
		       const uint8_t *data, size_t len)
{
	uint8_t payload[PISA_PROTO_MAX_PAYLOAD];
	struct pisa_proto_blob b = { num, data, len };
	long n = pisa_proto_blob_encode(payload, sizeof(payload), 16, &b);

	if (n < 0)
		return (int)n;
	server_send(s, s->tx_seq++, type, payload, (size_t)n);
	return 0;
}

int pisa_proto_server_packet_in(struct pisa_proto_server *s, uint16_t port,
				const uint8_t *data, size_t len)
{
	return server_push(s, PISA_MSG_PACKET_IN, port, data, len);
}

int pisa_proto_server_digest(struct pisa_proto_server *s, uint16_t id,
			     const uint8_t *data, size_t len)
{
	return server_push(s, PISA_MSG_DIGEST, id, data, len);
}

static void send_ack(struct pisa_proto_server *s, uint16_t seq, uint8_t status, int err,
		     uint16_t failed, const char *detail, int store)
{
	struct pisa_proto_ack a;
	uint8_t p[6 + PISA_PROTO_DETAIL_MAX];
	long n;

	a.status = status;
	a.err = (uint8_t)(err < 0 ? -err : err);
	a.failed = failed;
	a.expect = s->expect;
	snprintf(a.detail, sizeof(a.detail), "%s", detail ? detail : "");
	n = pisa_proto_ack_encode(p, sizeof(p), &a);
	if (n < 0)
		return;
	if (store) {
		struct stored_reply *r = &s->replies[seq % PISA_PROTO_WINDOW];

		r->valid = 1;
		r->seq = seq;
		r->type = PISA_MSG_ACK;
		r->len = (uint16_t)n;
		memcpy(r->payload, p, (size_t)n);
	}
	server_send(s, seq, PISA_MSG_ACK, p, (size_t)n);
}

static int exec_op(struct pisa_proto_server *s, const struct pisa_proto_op *op)
{
	const struct pisa_switch_ops *o = s->ops;
	struct pisa_mc_copy *copies;
	uint16_t i;
	int r;

	switch (op->op) {
	case PISA_OP_ROW:
		return o->write_row(s->sw, op->id, op->index, op->data, op->len);
	case PISA_OP_COUNTER:
		return o->counter_write(s->sw, op->id, op->index, op->a, op->b);
	case PISA_OP_REGISTER:
		return o->register_write(s->sw, op->id, op->index, op->a);
	case PISA_OP_METER:
		return o->meter_write(s->sw, op->id, op->index, &op->meter);
	case PISA_OP_MCAST:
		copies = calloc(op->n ? op->n : 1, sizeof(*copies));
		if (!copies)
			return -PISA_E_NOMEM;
		for (i = 0; i < op->n; i++)
			pisa_proto_mc_copy_get(op, i, &copies[i]);
		r = o->mcast_write(s->sw, op->id, op->n, copies);
		free(copies);
		return r;
	case PISA_OP_CLONE:
		return o->clone_write(s->sw, op->id, &op->clone);
	}
	return -PISA_E_INVAL;
}

static void do_write(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_op op;
	unsigned count, i = 0;
	size_t pos = 0;
	int r;

	if (pisa_proto_batch_check(f->payload, f->len, &count) < 0) {
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_FORMAT, 0, "bad write batch", 1);
		return;
	}
	if (!s->ops && count) {
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_NOTFOUND, 0, "no image loaded", 1);
		return;
	}
	while (pisa_proto_batch_next(f->payload, f->len, &pos, &op) == 1) {
		r = exec_op(s, &op);
		if (r < 0) {
			char d[64];

			snprintf(d, sizeof(d), "op %u: %s", i, pisa_strerror(r));
			send_ack(s, f->seq, PISA_ST_FAILED, r, (uint16_t)i, d, 1);
			return;
		}
		s->st.ops++;
		i++;
	}
	send_ack(s, f->seq, PISA_ST_OK, 0, PISA_OP_NONE, NULL, 1);
}

static void do_read(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_read rd;
	struct pisa_proto_read_reply rr = { 0 };
	struct stored_reply *sr = &s->replies[f->seq % PISA_PROTO_WINDOW];
	long n;
	int r;

	if (pisa_proto_read_decode(f->payload, f->len, &rd) < 0) {
		rr.status = PISA_ST_MALFORMED;
		rr.err = PISA_E_FORMAT;
	} else if (!s->ops) {
		rr.status = PISA_ST_FAILED;
		rr.err = PISA_E_NOTFOUND;
	} else {
		if (rd.op == PISA_OP_COUNTER)
			r = s->ops->counter_read(s->sw, rd.id, rd.index, &rr.a, &rr.b);
		else if (rd.op == PISA_OP_REGISTER)
			r = s->ops->register_read(s->sw, rd.id, rd.index, &rr.a);
		else if (s->ops->port_counter_read)
			r = s->ops->port_counter_read(s->sw, rd.id, rd.index, &rr.a, &rr.b);
		else
			r = -PISA_E_INVAL;	/* a switch without MACs, as the RTL answers */
		if (r < 0) {
			rr.status = PISA_ST_FAILED;
			rr.err = (uint8_t)-r;
			rr.a = rr.b = 0;
		}
	}
	n = pisa_proto_read_reply_encode(sr->payload, sizeof(sr->payload), &rr);
	sr->valid = 1;
	sr->seq = f->seq;
	sr->type = PISA_MSG_READ_REPLY;
	sr->len = (uint16_t)n;
	server_send(s, f->seq, PISA_MSG_READ_REPLY, sr->payload, (size_t)n);
}

static void do_chunk(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_blob b;
	uint8_t *np;

	if (pisa_proto_blob_decode(f->payload, f->len, 32, &b) < 0) {
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_FORMAT, 0, "short chunk", 1);
		return;
	}
	if (b.num == 0)
		s->stage_len = 0;	/* offset 0 starts a new image */
	if (b.num != s->stage_len) {
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_RANGE, 0,
			 "chunk offset is not the end of the staged bytes", 1);
		return;
	}
	if (b.len > s->max_image - s->stage_len) {
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_FULL, 0, "image too large", 1);
		return;
	}
	if (s->stage_len + b.len > s->stage_cap) {
		size_t cap = s->stage_cap ? s->stage_cap : 4096;

		while (cap < s->stage_len + b.len)
			cap *= 2;
		np = realloc(s->stage, cap);
		if (!np) {
			send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_NOMEM, 0, "no memory", 1);
			return;
		}
		s->stage = np;
		s->stage_cap = cap;
	}
	if (b.len)
		memcpy(s->stage + s->stage_len, b.data, b.len);
	s->stage_len += b.len;
	send_ack(s, f->seq, PISA_ST_OK, 0, PISA_OP_NONE, NULL, 1);
}

static void do_commit(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_commit c;
	struct pisa_image *img = NULL;
	char detail[PISA_PROTO_DETAIL_MAX + 1] = "";
	uint32_t crc;
	int r;

	if (pisa_proto_commit_decode(f->payload, f->len, &c) < 0) {
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_FORMAT, 0, "bad commit", 1);
		return;
	}
	if (c.len != s->stage_len) {
		snprintf(detail, sizeof(detail), "commit of %u bytes, %zu staged",
			 (unsigned)c.len, s->stage_len);
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_RANGE, 0, detail, 1);
		return;
	}
	crc = pisa_crc32(0, s->stage, s->stage_len);
	if (crc != c.crc) {
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_CRC, 0, "image CRC differs", 1);
		return;
	}
	r = pisa_image_read(s->stage, s->stage_len, &img, detail, sizeof(detail));
	if (r < 0) {
		send_ack(s, f->seq, PISA_ST_FAILED, r, 0, detail, 1);
		return;
	}
	if (strncmp(img->board, s->board, sizeof(img->board)) != 0) {
		snprintf(detail, sizeof(detail), "image is for board '%.15s', this switch is '%.15s'",
			 img->board, s->board);
		pisa_image_free(img);
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_RANGE, 0, detail, 1);
		return;
	}
	r = s->cb.load_image(s->arg, img, detail, sizeof(detail));
	if (r < 0) {
		pisa_image_free(img);
		send_ack(s, f->seq, PISA_ST_FAILED, r, 0, detail, 1);
		return;
	}
	s->image_len = c.len;
	s->image_crc = c.crc;
	s->stage_len = 0;
	send_ack(s, f->seq, PISA_ST_OK, 0, PISA_OP_NONE, NULL, 1);
}

static void do_packet_out(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_blob b;
	int r;

	if (pisa_proto_blob_decode(f->payload, f->len, 16, &b) < 0) {
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_FORMAT, 0, "short packet-out", 1);
		return;
	}
	if (!s->ops) {
		send_ack(s, f->seq, PISA_ST_FAILED, PISA_E_NOTFOUND, 0, "no image loaded", 1);
		return;
	}
	/* acked after the packet ran: its packet-ins and digests come first */
	r = s->cb.packet_out(s->arg, (uint16_t)b.num, b.data, b.len);
	send_ack(s, f->seq, r < 0 ? PISA_ST_FAILED : PISA_ST_OK, r,
		 r < 0 ? 0 : PISA_OP_NONE, NULL, 1);
}

static void do_hello(struct pisa_proto_server *s, const struct pisa_proto_frame *f)
{
	struct pisa_proto_hello h;
	struct pisa_proto_hello_reply r;
	uint8_t p[PISA_HELLO_REPLY_LEN];
	long n;

	if (pisa_proto_hello_decode(f->payload, f->len, &h) < 0) {
		/* no session is opened by a hello we cannot read */
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_FORMAT, 0, "bad hello", 0);
		return;
	}
	/* A hello (re)starts the session with any seq; a retransmitted one
	 * does the same again, which is harmless: it changes no switch state. */
	s->session = 1;
	s->hellos++;
	s->expect = (uint16_t)(f->seq + 1);
	memset(s->replies, 0, sizeof(s->replies));
	memset(&r, 0, sizeof(r));
	s->cb.info(s->arg, &r);
	r.version = PISA_PROTO_VERSION;
	r.max_payload = s->max_payload;
	r.window = s->window;
	r.max_image = s->max_image;
	r.image_len = s->ops ? s->image_len : 0;
	r.image_crc = s->ops ? s->image_crc : 0;
	if (s->ops)
		r.flags |= PISA_HELLO_IMAGE;
	snprintf(r.board, sizeof(r.board), "%s", s->board);
	n = pisa_proto_hello_reply_encode(p, sizeof(p), &r);
	s->st.executed++;
	server_send(s, f->seq, PISA_MSG_HELLO_REPLY, p, (size_t)n);
}

static void server_frame(void *arg, const struct pisa_proto_frame *f)
{
	struct pisa_proto_server *s = arg;
	uint16_t behind;

	s->st.frames++;
	if (f->type & 0x80)
		return;		/* a switch->host frame echoed back: ignore */
	if (f->type == PISA_MSG_HELLO) {
		do_hello(s, f);
		return;
	}
	if (!s->session) {
		send_ack(s, f->seq, PISA_ST_NO_SESSION, 0, 0, "send HELLO first", 0);
		return;
	}
	if (f->seq != s->expect) {
		/* modular distance: 1..WINDOW behind is a retransmission */
		behind = (uint16_t)(s->expect - f->seq);
		if (behind >= 1 && behind <= PISA_PROTO_WINDOW) {
			struct stored_reply *r = &s->replies[f->seq % PISA_PROTO_WINDOW];

			if (r->valid && r->seq == f->seq) {
				s->st.duplicates++;
				server_send(s, f->seq, r->type, r->payload, r->len);
				return;
			}
		}
		s->st.out_of_order++;
		send_ack(s, f->seq, PISA_ST_SEQ, 0, 0, NULL, 0);
		return;
	}
	s->expect++;
	s->st.executed++;
	s->cur_seq = f->seq;
	if (f->len > s->max_payload) {
		send_ack(s, f->seq, PISA_ST_MALFORMED, PISA_E_RANGE, 0,
			 "frame longer than announced", 1);
		return;
	}
	switch (f->type) {
	case PISA_MSG_WRITE:
		do_write(s, f);
		break;
	case PISA_MSG_READ:
		do_read(s, f);
		break;
	case PISA_MSG_IMAGE_CHUNK:
		do_chunk(s, f);
		break;
	case PISA_MSG_IMAGE_COMMIT:
		do_commit(s, f);
		break;
	case PISA_MSG_PACKET_OUT:
		do_packet_out(s, f);
		break;
	case PISA_MSG_RESET: {
		int r = f->len ? -PISA_E_FORMAT : s->cb.reset(s->arg);

		if (f->len)
			send_ack(s, f->seq, PISA_ST_MALFORMED, r, 0, "reset has no payload", 1);
		else
			send_ack(s, f->seq, r < 0 ? PISA_ST_FAILED : PISA_ST_OK, r,
				 r < 0 ? 0 : PISA_OP_NONE, NULL, 1);
		break;
	}
	default:
		send_ack(s, f->seq, PISA_ST_UNSUPPORTED, PISA_E_INVAL, 0, "unknown frame type", 1);
		break;
	}
}

void pisa_proto_server_input(struct pisa_proto_server *s, const uint8_t *data, size_t len)
{
	pisa_proto_rx_feed(&s->rx, data, len, server_frame, s);
}

void pisa_proto_server_get_stats(const struct pisa_proto_server *s,
				 struct pisa_proto_server_stats *st)
{
	*st = s->st;
	st->dropped_bytes = s->rx.dropped;
	st->bad_crc = s->rx.bad_crc;
}

/* ---- Fuzzing ----
 * A stub switch that accepts ids below 8 and checks that no frame's writes
 * run twice or out of order: the harness numbers the frames it feeds. */

struct fuzz_ctx {
	struct pisa_proto_server *s;
	int have_last;
	uint64_t last_exec;	/* server's request count at the last executed op */
	uint16_t last_seq;
	uint64_t last_hellos;
	int bad;
};

/* Called for every side effect: a new request must carry the seq after the
 * previous one's, unless a hello restarted the session in between. */
static int fuzz_note(struct fuzz_ctx *c)
{
	const struct pisa_proto_server *s = c->s;

	if (c->have_last && c->last_exec == s->st.executed)
		return 0;	/* a later op of the same request */
	if (c->have_last && c->last_hellos == s->hellos && s->cur_seq != (uint16_t)(c->last_seq + 1))
		c->bad = 1;
	c->have_last = 1;
	c->last_exec = s->st.executed;
	c->last_seq = s->cur_seq;
	c->last_hellos = s->hellos;
	return 0;
}

static int fuzz_chk(void *sw, uint16_t id)
{
	struct fuzz_ctx *c = sw;

	fuzz_note(c);
	return id < 8 ? 0 : -PISA_E_RANGE;
}

static int fz_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	return fuzz_chk(sw, t);
}

static int fz_cread(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	*p = id;
	*b = i;
	return id < 8 ? 0 : -PISA_E_RANGE;
}

static int fz_cwrite(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	return fuzz_chk(sw, id);
}

static int fz_rread(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	*v = i;
	return id < 8 ? 0 : -PISA_E_RANGE;
}

static int fz_rwrite(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	return fuzz_chk(sw, id);
}

static int fz_meter(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *cfg)
{
	return fuzz_chk(sw, id);
}

static int fz_mcast(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	return fuzz_chk(sw, g);
}

static int fz_clone(void *sw, uint16_t id, const struct pisa_clone_cfg *cfg)
{
	return fuzz_chk(sw, id);
}

static int fz_pread(void *sw, uint16_t port, uint32_t k, uint64_t *v, uint64_t *bits)
{
	*v = k;
	*bits = 16;
	return port < 2 && k < PISA_PORT_COUNTERS ? 0 : -PISA_E_RANGE;
}

static const struct pisa_switch_ops fuzz_ops = {
	fz_row, fz_cread, fz_cwrite, fz_rread, fz_rwrite, fz_meter, fz_mcast, fz_clone, fz_pread,
};

static void fz_send(void *arg, const uint8_t *frame, size_t len)
{
	struct fuzz_ctx *c = arg;
	struct pisa_proto_frame f;

	/* what the server sends must itself decode */
	if (pisa_proto_frame_decode(frame, len, &f) != (long)len)
		c->bad = 1;
}

static void fz_info(void *arg, struct pisa_proto_hello_reply *r)
{
	r->ports = 8;
}

static int fz_load(void *arg, struct pisa_image *img, char *detail, size_t dlen)
{
	struct fuzz_ctx *c = arg;

	pisa_image_free(img);
	pisa_proto_server_set_switch(c->s, &fuzz_ops, c);
	return 0;
}

static int fz_reset(void *arg)
{
	return fuzz_note(arg);
}

static int fz_pout(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct fuzz_ctx *c = arg;

	fuzz_note(c);
	/* a packet-in from inside a request, as a real switch sends */
	return pisa_proto_server_packet_in(c->s, port, d, len < 64 ? len : 64);
}

/* Decodes a payload as every message type and checks re-encoding. */
static int fuzz_decoders(const uint8_t *p, size_t len)
{
	uint8_t out[PISA_PROTO_MAX_PAYLOAD + 16];
	struct pisa_proto_hello h;
	struct pisa_proto_hello_reply hr, hr2;
	struct pisa_proto_ack a;
	struct pisa_proto_read rd;
	struct pisa_proto_read_reply rr;
	struct pisa_proto_commit cm;
	struct pisa_proto_blob b;
	struct pisa_proto_op op;
	size_t pos = 0, blen;
	unsigned count;
	long n;
	int r;

	if (len > PISA_PROTO_MAX_PAYLOAD)
		len = PISA_PROTO_MAX_PAYLOAD;
	if (pisa_proto_hello_decode(p, len, &h) == 0 &&
	    (pisa_proto_hello_encode(out, sizeof(out), &h) != 4 || memcmp(out, p, 4)))
		return -1;
	memset(&hr, 0, sizeof(hr));
	memset(&hr2, 0, sizeof(hr2));
	if (pisa_proto_hello_reply_decode(p, len, &hr) == 0) {
		n = pisa_proto_hello_reply_encode(out, sizeof(out), &hr);
		if (n != PISA_HELLO_REPLY_LEN ||
		    pisa_proto_hello_reply_decode(out, (size_t)n, &hr2) ||
		    memcmp(&hr, &hr2, sizeof(hr)))
			return -1;
	}
	if (pisa_proto_ack_decode(p, len, &a) == 0) {
		n = pisa_proto_ack_encode(out, sizeof(out), &a);
		if (n < 6 || memcmp(out, p, 6))
			return -1;
	}
	if (pisa_proto_read_decode(p, len, &rd) == 0 &&
	    (pisa_proto_read_encode(out, sizeof(out), &rd) != 7 || memcmp(out, p, 7)))
		return -1;
	if (pisa_proto_read_reply_decode(p, len, &rr) == 0 &&
	    (pisa_proto_read_reply_encode(out, sizeof(out), &rr) != 18 || memcmp(out, p, 18)))
		return -1;
	if (pisa_proto_commit_decode(p, len, &cm) == 0 &&
	    (pisa_proto_commit_encode(out, sizeof(out), &cm) != 8 || memcmp(out, p, 8)))
		return -1;
	if (pisa_proto_blob_decode(p, len, 32, &b) == 0 &&
	    (pisa_proto_blob_encode(out, sizeof(out), 32, &b) != (long)len || memcmp(out, p, len)))
		return -1;
	if (pisa_proto_batch_check(p, len, &count) == 0) {
		blen = pisa_proto_batch_init(out, sizeof(out));
		while ((r = pisa_proto_batch_next(p, len, &pos, &op)) == 1)
			if (pisa_proto_batch_add(out, sizeof(out), &blen, &op) < 0)
				return -1;
		if (r < 0 || blen != len || memcmp(out, p, len))
			return -1;
	}
	return 0;
}

/*
 * The first byte picks a mode. Even: the rest is a raw byte stream for the
 * server (after a valid hello, so that requests get past the session check).
 * Odd: the rest is records (type, seq delta, length, payload, a corruption
 * byte) that the harness frames with valid CRCs, then corrupts or not.
 */
int pisa_proto_fuzz_one(const uint8_t *data, size_t len)
{
	static const struct pisa_proto_server_cb cb = {
		fz_send, fz_info, fz_load, fz_reset, fz_pout,
	};
	static uint8_t frame[PISA_PROTO_MAX_FRAME];
	struct fuzz_ctx c;
	struct pisa_proto_hello h = { PISA_PROTO_VERSION, 0, 1024 };
	uint8_t hp[4];
	uint16_t seq = 0x1234;
	size_t pos = 1, n;

	if (len == 0)
		return 0;
	if (fuzz_decoders(data + 1, len - 1) < 0)
		return -1;
	memset(&c, 0, sizeof(c));
	c.s = pisa_proto_server_new(&cb, &c, "sim", 1u << 16);
	if (!c.s)
		return 0;
	pisa_proto_server_set_switch(c.s, &fuzz_ops, &c);
	pisa_proto_hello_encode(hp, sizeof(hp), &h);
	n = pisa_proto_frame_encode(frame, sizeof(frame), seq, PISA_MSG_HELLO, hp, sizeof(hp));
	pisa_proto_server_input(c.s, frame, n);
	if (!(data[0] & 1)) {
		for (; pos < len; pos++)
			pisa_proto_server_input(c.s, data + pos, 1);
		goto done;
	}
	while (pos + 3 <= len) {
		uint8_t type = data[pos], delta = data[pos + 1];
		size_t plen = data[pos + 2], corrupt;
		const uint8_t *pl;

		pos += 3;
		pl = data + pos;
		if (plen > len - pos)
			plen = len - pos;
		/* deltas 0..3 mostly: the next seq, repeats and small gaps */
		seq = (uint16_t)(seq + (delta & 0x80 ? delta : (delta & 3)));
		n = pisa_proto_frame_encode(frame, sizeof(frame), seq, type, data + pos, plen);
		pos += plen;
		corrupt = pos < len ? data[pos++] : 0;
		if (corrupt & 0x80 && n)
			frame[(corrupt & 0x7f) % n] ^= (uint8_t)(corrupt | 1);
		pisa_proto_server_input(c.s, frame, n);
		if (fuzz_decoders(pl, plen) < 0)
			c.bad = 1;
	}
done:
	pisa_proto_server_free(c.s);
	return c.bad ? -1 : 0;
}
