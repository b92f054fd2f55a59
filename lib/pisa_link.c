/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_link.c: the host end of the control link. Frames wait in a window
 * of `window` slots until acknowledged; on a timeout without progress (or
 * an out-of-sequence refusal) every unacknowledged frame is sent again, in
 * order, and the switch's replay window turns the repeats into re-acks.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pisa_link.h"

#define LINK_WINDOW_MAX 16
#define LINK_OUT_MAX (4u << 20)	/* bytes queued for the stream before we stop queueing */

struct inflight {
	uint16_t seq;
	uint8_t type;
	uint8_t acked;
	uint8_t reply;		/* type of the reply that acknowledged it */
	uint8_t *frame;
	size_t len;
	long first_op;		/* WRITE: number of its first op since the flush */
	struct pisa_proto_ack ack;
	struct pisa_proto_read_reply rr;
	struct pisa_proto_hello_reply hr;
};

struct pisa_link {
	int fd;
	int closed;
	int not_socket;		/* a tty or pipe: write(), not send() */
	struct pisa_proto_rx rx;

	int session;
	uint16_t next_seq;
	unsigned window;
	size_t max_payload;
	unsigned timeout_ms, tries, tries_done;
	int sync;
	uint64_t last_progress;
	int fast_rexmit_done;

	struct inflight q[LINK_WINDOW_MAX];
	unsigned head, count;

	/* the frame a call is waiting for */
	int want;
	uint16_t want_seq;
	int want_done;
	struct inflight want_res;

	uint8_t batch[PISA_PROTO_MAX_PAYLOAD];
	size_t batch_len;
	unsigned batch_ops;
	long batch_first;
	long op_no;

	uint8_t *out;
	size_t out_off, out_len, out_cap;

	int err;		/* first failure of an unwatched frame since the flush */
	long err_op;
	char err_detail[PISA_PROTO_DETAIL_MAX + 64];
	int fatal;		/* the session broke: every wait fails with it */
	char detail[PISA_PROTO_DETAIL_MAX + 64];
	long failed_op;

	pisa_link_packet_fn pkt_fn;
	void *pkt_arg;
	pisa_link_digest_fn dig_fn;
	void *dig_arg;
	struct pisa_proto_hello_reply info;
	struct pisa_link_stats st;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct pisa_link *pisa_link_open_fd(int fd)
{
	struct pisa_link *l = calloc(1, sizeof(*l));
	int fl;

	if (!l)
		return NULL;
	l->fd = fd;
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	pisa_proto_rx_init(&l->rx);
	/* a fresh start value, so that a late reply from an earlier host
	 * process on the same stream rarely matches */
	l->next_seq = (uint16_t)(getpid() * 7919u ^ (unsigned)now_ms());
	l->window = 1;
	l->max_payload = PISA_PROTO_MIN_PAYLOAD;
	l->timeout_ms = 200;
	l->tries = 10;
	l->failed_op = -1;
	return l;
}

static void drop_inflight(struct pisa_link *l)
{
	while (l->count) {
		free(l->q[l->head].frame);
		l->q[l->head].frame = NULL;
		l->head = (l->head + 1) % LINK_WINDOW_MAX;
		l->count--;
	}
}

void pisa_link_close(struct pisa_link *l)
{
	if (!l)
		return;
	drop_inflight(l);
	free(l->out);
	free(l);
}

void pisa_link_set_timeout(struct pisa_link *l, unsigned timeout_ms, unsigned tries)
{
	l->timeout_ms = timeout_ms ? timeout_ms : 1;
	l->tries = tries ? tries : 1;
}

void pisa_link_set_sync(struct pisa_link *l, int sync)
{
	l->sync = sync;
}

void pisa_link_set_packet_in_cb(struct pisa_link *l, pisa_link_packet_fn fn, void *arg)
{
	l->pkt_fn = fn;
	l->pkt_arg = arg;
}

void pisa_link_set_digest_cb(struct pisa_link *l, pisa_link_digest_fn fn, void *arg)
{
	l->dig_fn = fn;
	l->dig_arg = arg;
}

const char *pisa_link_detail(const struct pisa_link *l)
{
	return l->detail;
}

long pisa_link_failed_op(const struct pisa_link *l)
{
	return l->failed_op;
}

void pisa_link_get_stats(const struct pisa_link *l, struct pisa_link_stats *st)
{
	*st = l->st;
	st->dropped_bytes = l->rx.dropped;
	st->bad_crc = l->rx.bad_crc;
}

/* The session is gone: what is in flight will never be acknowledged. */
static int link_fail(struct pisa_link *l, int err, const char *why)
{
	snprintf(l->detail, sizeof(l->detail), "%s", why);
	l->fatal = err;
	l->session = 0;
	drop_inflight(l);
	l->batch_ops = 0;
	return err;
}

static int out_append(struct pisa_link *l, const uint8_t *p, size_t n)
{
	if (l->out_off && l->out_off == l->out_len)
		l->out_off = l->out_len = 0;
	if (l->out_len + n > l->out_cap) {
		size_t cap = l->out_cap ? l->out_cap : 16384;
		uint8_t *np;

		if (l->out_off) {
			memmove(l->out, l->out + l->out_off, l->out_len - l->out_off);
			l->out_len -= l->out_off;
			l->out_off = 0;
		}
		while (cap < l->out_len + n)
			cap *= 2;
		if (cap != l->out_cap) {
			np = realloc(l->out, cap);
			if (!np)
				return -PISA_E_NOMEM;
			l->out = np;
			l->out_cap = cap;
		}
	}
	memcpy(l->out + l->out_len, p, n);
	l->out_len += n;
	return 0;
}

static int out_write(struct pisa_link *l)
{
	while (l->out_off < l->out_len) {
		/* send() where it can: a closed socket must not raise SIGPIPE */
		ssize_t n = l->not_socket ? -1 :
			    send(l->fd, l->out + l->out_off, l->out_len - l->out_off, MSG_NOSIGNAL);

		if (n < 0 && (l->not_socket || errno == ENOTSOCK)) {
			l->not_socket = 1;
			n = write(l->fd, l->out + l->out_off, l->out_len - l->out_off);
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			l->closed = 1;
			return -PISA_E_IO;
		}
		l->out_off += (size_t)n;
		l->last_progress = now_ms();
	}
	l->out_off = l->out_len = 0;
	return 0;
}

static struct inflight *find_inflight(struct pisa_link *l, uint16_t seq)
{
	unsigned i;

	for (i = 0; i < l->count; i++) {
		struct inflight *e = &l->q[(l->head + i) % LINK_WINDOW_MAX];

		if (e->seq == seq)
			return e;
	}
	return NULL;
}

static int result_err(const struct inflight *e)
{
	uint8_t st, err;

	switch (e->reply) {
	case PISA_MSG_HELLO_REPLY:
		return 0;
	case PISA_MSG_READ_REPLY:
		st = e->rr.status;
		err = e->rr.err;
		break;
	default:
		st = e->ack.status;
		err = e->ack.err;
		break;
	}
	if (st == PISA_ST_OK)
		return 0;
	return -(err ? err : PISA_E_IO);
}

/* Pops acknowledged frames from the head, in order. */
static void complete(struct pisa_link *l)
{
	while (l->count && l->q[l->head].acked) {
		struct inflight *e = &l->q[l->head];
		int r = result_err(e);

		if (l->want && e->seq == l->want_seq) {
			l->want_res = *e;
			l->want_done = 1;
		} else if (r < 0 && !l->err) {
			l->err = r;
			l->err_op = -1;
			if (e->type == PISA_MSG_WRITE)
				l->err_op = e->first_op +
					    (e->ack.failed == PISA_OP_NONE ? 0 : e->ack.failed);
			snprintf(l->err_detail, sizeof(l->err_detail), "%s %s: %s",
				 pisa_proto_type_name(e->type),
				 pisa_proto_status_name(e->ack.status),
				 e->ack.detail[0] ? e->ack.detail : pisa_strerror(r));
		}
		free(e->frame);
		e->frame = NULL;
		l->head = (l->head + 1) % LINK_WINDOW_MAX;
		l->count--;
	}
}

static void retransmit(struct pisa_link *l)
{
	unsigned i;

	for (i = 0; i < l->count; i++) {
		struct inflight *e = &l->q[(l->head + i) % LINK_WINDOW_MAX];

		if (!e->acked && out_append(l, e->frame, e->len) == 0)
			l->st.retransmits++;
	}
}

static void on_frame(void *arg, const struct pisa_proto_frame *f)
{
	struct pisa_link *l = arg;
	struct pisa_proto_blob b;
	struct inflight *e;

	switch (f->type) {
	case PISA_MSG_PACKET_IN:
	case PISA_MSG_DIGEST:
		if (pisa_proto_blob_decode(f->payload, f->len, 16, &b) < 0)
			return;
		if (f->type == PISA_MSG_PACKET_IN) {
			l->st.packet_ins++;
			if (l->pkt_fn)
				l->pkt_fn(l->pkt_arg, (uint16_t)b.num, b.data, b.len);
		} else {
			l->st.digests++;
			if (l->dig_fn)
				l->dig_fn(l->dig_arg, (uint16_t)b.num, b.data, b.len);
		}
		return;
	case PISA_MSG_ACK:
	case PISA_MSG_READ_REPLY:
	case PISA_MSG_HELLO_REPLY:
		break;
	default:
		return;
	}
	e = find_inflight(l, f->seq);
	if (!e || e->acked)
		return;		/* a repeat of a reply we already have */
	if (f->type == PISA_MSG_ACK) {
		struct pisa_proto_ack a;

		if (pisa_proto_ack_decode(f->payload, f->len, &a) < 0)
			return;
		if (a.status == PISA_ST_SEQ) {
			/* an earlier frame was lost: resend from the oldest once,
			 * not once per refused frame */
			if (!l->fast_rexmit_done) {
				l->fast_rexmit_done = 1;
				retransmit(l);
			}
			return;
		}
		/* a hello is answered by HELLO_REPLY; an OK ack with its seq is a
		 * stale reply from an earlier host on the same stream */
		if (e->type == PISA_MSG_HELLO && a.status != PISA_ST_MALFORMED &&
		    a.status != PISA_ST_UNSUPPORTED)
			return;
		if (a.status == PISA_ST_NO_SESSION) {
			link_fail(l, -PISA_E_IO, "the switch has no session (it restarted?)");
			return;
		}
		e->ack = a;
	} else if (f->type == PISA_MSG_READ_REPLY) {
		if (e->type != PISA_MSG_READ ||
		    pisa_proto_read_reply_decode(f->payload, f->len, &e->rr) < 0)
			return;
	} else {
		if (e->type != PISA_MSG_HELLO ||
		    pisa_proto_hello_reply_decode(f->payload, f->len, &e->hr) < 0)
			return;
	}
	e->reply = f->type;
	e->acked = 1;
	l->st.acks++;
	l->last_progress = now_ms();
	l->fast_rexmit_done = 0;
	l->tries_done = 0;
	complete(l);
}

/* One round of I/O: waits up to wait_ms for the stream. */
static int pump(struct pisa_link *l, int wait_ms)
{
	struct pollfd pfd = { l->fd, POLLIN, 0 };
	uint8_t buf[16384];
	ssize_t n;
	int r;

	if (l->closed)
		return -PISA_E_IO;
	if (l->out_off < l->out_len)
		pfd.events |= POLLOUT;
	r = poll(&pfd, 1, wait_ms);
	if (r < 0)
		return errno == EINTR ? 0 : -PISA_E_IO;
	if (pfd.revents & POLLOUT && out_write(l) < 0)
		return -PISA_E_IO;
	if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
		n = read(l->fd, buf, sizeof(buf));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			l->closed = 1;
			return -PISA_E_IO;
		}
		if (n > 0)
			pisa_proto_rx_feed(&l->rx, buf, (size_t)n, on_frame, l);
	}
	return 0;
}

enum wait_for { W_ROOM, W_EMPTY, W_WANT };

static int waited(struct pisa_link *l, enum wait_for w)
{
	switch (w) {
	case W_ROOM:
		return l->count < l->window;
	case W_EMPTY:
		return l->count == 0;
	case W_WANT:
		return l->want_done;
	}
	return 1;
}

static int wait_for(struct pisa_link *l, enum wait_for w)
{
	while (!l->fatal && !waited(l, w)) {
		uint64_t t = now_ms();
		int left;

		if (l->closed)
			return link_fail(l, -PISA_E_IO, "the stream closed");
		if (t - l->last_progress >= l->timeout_ms) {
			if (++l->tries_done >= l->tries) {
				char why[96];

				snprintf(why, sizeof(why), "no reply from the switch after %u tries",
					 l->tries);
				return link_fail(l, -PISA_E_IO, why);
			}
			/* a reply may sit behind a false frame start whose length
			 * passed the header check by chance: hunt again */
			pisa_proto_rx_resync(&l->rx, on_frame, l);
			/* bytes still queued: the peer is not reading, resending would
			 * only pile up */
			if (l->out_off == l->out_len)
				retransmit(l);
			l->fast_rexmit_done = 0;
			l->last_progress = t;
			t = now_ms();
		}
		if (out_write(l) < 0)
			return link_fail(l, -PISA_E_IO, "write to the stream failed");
		left = (int)(l->last_progress + l->timeout_ms - t);
		if (left < 0)
			left = 0;
		if (pump(l, left) < 0)
			return link_fail(l, -PISA_E_IO, "the stream closed");
	}
	return l->fatal;
}

/* Queues one frame (waiting for a window slot first); *seq gets its seq. */
static int send_frame(struct pisa_link *l, uint8_t type, const uint8_t *payload, size_t len,
		      long first_op, uint16_t *seq)
{
	struct inflight *e;
	uint8_t *fr;
	size_t n;
	int r;

	r = wait_for(l, W_ROOM);
	if (r < 0)
		return r;
	fr = malloc(PISA_PROTO_HDR + len + PISA_PROTO_CRC);
	if (!fr)
		return -PISA_E_NOMEM;
	n = pisa_proto_frame_encode(fr, PISA_PROTO_HDR + len + PISA_PROTO_CRC, l->next_seq,
				    type, payload, len);
	if (!n) {
		free(fr);
		return -PISA_E_RANGE;
	}
	if (l->count == 0) {
		l->last_progress = now_ms();
		l->tries_done = 0;
	}
	e = &l->q[(l->head + l->count) % LINK_WINDOW_MAX];
	memset(e, 0, sizeof(*e));
	e->seq = l->next_seq++;
	e->type = type;
	e->frame = fr;
	e->len = n;
	e->first_op = first_op;
	l->count++;
	l->st.frames_sent++;
	if (seq)
		*seq = e->seq;
	r = out_append(l, fr, n);
	if (r < 0)
		return r;
	if (out_write(l) < 0)
		return link_fail(l, -PISA_E_IO, "write to the stream failed");
	/* a long stream of writes must still read acks and packet-ins */
	if (pump(l, 0) < 0)
		return link_fail(l, -PISA_E_IO, "the stream closed");
	return 0;
}

/* Sends a request and waits for its own reply; res gets it. */
static int request(struct pisa_link *l, uint8_t type, const uint8_t *payload, size_t len,
		   struct inflight *res)
{
	int r;

	/* set before sending: send_frame() may already read the reply */
	l->want = 1;
	l->want_seq = l->next_seq;
	l->want_done = 0;
	r = send_frame(l, type, payload, len, -1, NULL);
	if (r < 0) {
		l->want = 0;
		return r;
	}
	r = wait_for(l, W_WANT);
	l->want = 0;
	if (r < 0)
		return r;
	*res = l->want_res;
	return 0;
}

int pisa_link_hello(struct pisa_link *l, struct pisa_proto_hello_reply *info)
{
	struct pisa_proto_hello h = { PISA_PROTO_VERSION, 0, PISA_PROTO_MAX_PAYLOAD };
	struct inflight res;
	uint8_t p[4];
	long n;
	int r;

	if (l->closed)
		return -PISA_E_IO;
	if (l->session) {
		r = wait_for(l, W_EMPTY);
		if (r < 0)
			return r;
	}
	l->fatal = 0;
	drop_inflight(l);
	l->window = 1;
	n = pisa_proto_hello_encode(p, sizeof(p), &h);
	r = request(l, PISA_MSG_HELLO, p, (size_t)n, &res);
	if (r < 0)
		return r;
	if (res.reply != PISA_MSG_HELLO_REPLY) {
		snprintf(l->detail, sizeof(l->detail), "hello refused: %s: %s",
			 pisa_proto_status_name(res.ack.status), res.ack.detail);
		return -PISA_E_FORMAT;
	}
	if (res.hr.version != PISA_PROTO_VERSION) {
		snprintf(l->detail, sizeof(l->detail), "switch speaks protocol version %u, not %u",
			 res.hr.version, PISA_PROTO_VERSION);
		return -PISA_E_VERSION;
	}
	if (res.hr.max_payload < PISA_PROTO_MIN_PAYLOAD || res.hr.window == 0) {
		snprintf(l->detail, sizeof(l->detail), "switch announces max payload %u, window %u",
			 res.hr.max_payload, res.hr.window);
		return -PISA_E_FORMAT;
	}
	l->info = res.hr;
	l->window = res.hr.window < LINK_WINDOW_MAX ? res.hr.window : LINK_WINDOW_MAX;
	l->max_payload = res.hr.max_payload < PISA_PROTO_MAX_PAYLOAD ?
			 res.hr.max_payload : PISA_PROTO_MAX_PAYLOAD;
	l->session = 1;
	if (info)
		*info = res.hr;
	return 0;
}

static int ensure_session(struct pisa_link *l)
{
	if (l->session && !l->fatal)
		return 0;
	return pisa_link_hello(l, NULL);
}

static int send_batch(struct pisa_link *l)
{
	int r;

	if (!l->batch_ops)
		return 0;
	r = send_frame(l, PISA_MSG_WRITE, l->batch, l->batch_len, l->batch_first, NULL);
	l->batch_ops = 0;
	return r;
}

int pisa_link_flush(struct pisa_link *l)
{
	int r;

	if (l->closed && !l->count && !l->batch_ops)
		return -PISA_E_IO;
	r = send_batch(l);
	if (r == 0)
		r = wait_for(l, W_EMPTY);
	if (r == 0 && l->err) {
		r = l->err;
		l->failed_op = l->err_op;
		memcpy(l->detail, l->err_detail, sizeof(l->detail));
	} else {
		l->failed_op = -1;
	}
	l->err = 0;
	l->op_no = 0;
	return r;
}

static int queue_op(struct pisa_link *l, const struct pisa_proto_op *op)
{
	int r = ensure_session(l);

	if (r < 0)
		return r;
	if (pisa_proto_op_size(op) + 2 > l->max_payload) {
		snprintf(l->detail, sizeof(l->detail),
			 "a %zu-byte op does not fit in the switch's %zu-byte frames",
			 pisa_proto_op_size(op), l->max_payload);
		return -PISA_E_RANGE;
	}
	if (!l->batch_ops) {
		l->batch_len = pisa_proto_batch_init(l->batch, l->max_payload);
		l->batch_first = l->op_no;
	}
	r = pisa_proto_batch_add(l->batch, l->max_payload, &l->batch_len, op);
	if (r == -PISA_E_FULL) {
		r = send_batch(l);
		if (r < 0)
			return r;
		l->batch_len = pisa_proto_batch_init(l->batch, l->max_payload);
		l->batch_first = l->op_no;
		r = pisa_proto_batch_add(l->batch, l->max_payload, &l->batch_len, op);
	}
	if (r < 0)
		return r;
	l->batch_ops++;
	l->op_no++;
	l->st.ops++;
	if (l->sync)
		return pisa_link_flush(l);
	return 0;
}

static int do_read(struct pisa_link *l, uint8_t op, uint16_t id, uint32_t index,
		   uint64_t *a, uint64_t *b)
{
	struct pisa_proto_read rd = { op, id, index };
	struct inflight res;
	uint8_t p[8];
	long n;
	int r = ensure_session(l);

	if (r < 0)
		return r;
	r = send_batch(l);
	if (r < 0)
		return r;
	n = pisa_proto_read_encode(p, sizeof(p), &rd);
	r = request(l, PISA_MSG_READ, p, (size_t)n, &res);
	if (r < 0)
		return r;
	r = result_err(&res);
	if (r < 0) {
		snprintf(l->detail, sizeof(l->detail), "read: %s", pisa_strerror(r));
		return r;
	}
	*a = res.rr.a;
	if (b)
		*b = res.rr.b;
	return 0;
}

int pisa_link_port_counters(struct pisa_link *l, uint16_t port,
			    uint64_t value[PISA_PORT_COUNTERS], uint64_t *bits)
{
	uint32_t k;
	int r;

	/* counter 0 first: it takes the copy the others are read from */
	for (k = 0; k < PISA_PORT_COUNTERS; k++) {
		r = do_read(l, PISA_READ_PORT, port, k, &value[k], bits);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A request whose ack status is the answer. */
static int acked_request(struct pisa_link *l, uint8_t type, const uint8_t *p, size_t len)
{
	struct inflight res;
	int r = request(l, type, p, len, &res);

	if (r < 0)
		return r;
	r = result_err(&res);
	if (r < 0)
		snprintf(l->detail, sizeof(l->detail), "%s: %s", pisa_proto_type_name(type),
			 res.ack.detail[0] ? res.ack.detail : pisa_strerror(r));
	return r;
}

int pisa_link_load_image(struct pisa_link *l, const uint8_t *image, size_t len)
{
	uint8_t p[PISA_PROTO_MAX_PAYLOAD];
	struct pisa_proto_commit c;
	size_t off = 0, chunk;
	long n;
	int r = ensure_session(l);

	if (r < 0)
		return r;
	r = pisa_link_flush(l);
	if (r < 0)
		return r;
	if (len > l->info.max_image) {
		snprintf(l->detail, sizeof(l->detail), "image of %zu bytes, the switch takes %u",
			 len, (unsigned)l->info.max_image);
		return -PISA_E_FULL;
	}
	chunk = l->max_payload - 4;
	do {
		struct pisa_proto_blob b = { (uint32_t)off, image + off, len - off };

		if (b.len > chunk)
			b.len = chunk;
		n = pisa_proto_blob_encode(p, sizeof(p), 32, &b);
		r = send_frame(l, PISA_MSG_IMAGE_CHUNK, p, (size_t)n, -1, NULL);
		if (r < 0)
			return r;
		off += b.len;
	} while (off < len);
	c.len = (uint32_t)len;
	c.crc = pisa_crc32(0, image, len);
	n = pisa_proto_commit_encode(p, sizeof(p), &c);
	r = acked_request(l, PISA_MSG_IMAGE_COMMIT, p, (size_t)n);
	if (l->err) {
		/* a refused chunk is the first cause */
		r = l->err;
		memcpy(l->detail, l->err_detail, sizeof(l->detail));
		l->err = 0;
	}
	if (r == 0) {
		l->info.image_len = c.len;
		l->info.image_crc = c.crc;
		l->info.flags |= PISA_HELLO_IMAGE;
	}
	return r;
}

int pisa_link_reset(struct pisa_link *l)
{
	int r = ensure_session(l);

	if (r == 0)
		r = pisa_link_flush(l);
	if (r == 0)
		r = acked_request(l, PISA_MSG_RESET, NULL, 0);
	return r;
}

int pisa_link_packet_out(struct pisa_link *l, uint16_t port, const uint8_t *data, size_t len)
{
	uint8_t p[PISA_PROTO_MAX_PAYLOAD];
	struct pisa_proto_blob b = { port, data, len };
	long n;
	int r = ensure_session(l);

	if (r < 0)
		return r;
	if (len + 2 > l->max_payload) {
		snprintf(l->detail, sizeof(l->detail), "a %zu-byte packet does not fit in a frame",
			 len);
		return -PISA_E_RANGE;
	}
	r = send_batch(l);	/* the packet must see the writes before it */
	if (r < 0)
		return r;
	n = pisa_proto_blob_encode(p, sizeof(p), 16, &b);
	return acked_request(l, PISA_MSG_PACKET_OUT, p, (size_t)n);
}

int pisa_link_poll(struct pisa_link *l, int timeout_ms)
{
	uint64_t end = now_ms() + (timeout_ms > 0 ? (uint64_t)timeout_ms : 0);
	int r;

	do {
		int64_t d = (int64_t)(end - now_ms());
		int left = timeout_ms < 0 ? -1 : d > 0 ? (int)d : 0;

		r = pump(l, left);
		if (r < 0)
			return r;
	} while (timeout_ms != 0 && (timeout_ms < 0 || now_ms() < end));
	return 0;
}

/* ---- struct pisa_switch_ops ---- */

static int lk_write_row(void *sw, uint16_t table, uint32_t index, const uint8_t *row, size_t len)
{
	struct pisa_proto_op op = { .op = PISA_OP_ROW, .id = table, .index = index,
				    .data = row, .len = len };

	if (len > 0xFFFF - 6)
		return -PISA_E_RANGE;
	return queue_op(sw, &op);
}

static int lk_counter_read(void *sw, uint16_t id, uint32_t index, uint64_t *packets,
			   uint64_t *bytes)
{
	return do_read(sw, PISA_OP_COUNTER, id, index, packets, bytes);
}

static int lk_counter_write(void *sw, uint16_t id, uint32_t index, uint64_t packets,
			    uint64_t bytes)
{
	struct pisa_proto_op op = { .op = PISA_OP_COUNTER, .id = id, .index = index,
				    .a = packets, .b = bytes };

	return queue_op(sw, &op);
}

static int lk_register_read(void *sw, uint16_t id, uint32_t index, uint64_t *value)
{
	return do_read(sw, PISA_OP_REGISTER, id, index, value, NULL);
}

static int lk_register_write(void *sw, uint16_t id, uint32_t index, uint64_t value)
{
	struct pisa_proto_op op = { .op = PISA_OP_REGISTER, .id = id, .index = index, .a = value };

	return queue_op(sw, &op);
}

static int lk_meter_write(void *sw, uint16_t id, uint32_t index, const struct pisa_meter_cfg *cfg)
{
	struct pisa_proto_op op = { .op = PISA_OP_METER, .id = id, .index = index, .meter = *cfg };

	op.meter.configured = cfg->configured ? 1 : 0;
	return queue_op(sw, &op);
}

static int lk_mcast_write(void *sw, uint16_t group, uint16_t n, const struct pisa_mc_copy *copies)
{
	struct pisa_proto_op op = { .op = PISA_OP_MCAST, .id = group, .n = n };
	uint8_t *wire = malloc(4 * (size_t)n + 1);
	uint16_t i;
	int r;

	if (!wire)
		return -PISA_E_NOMEM;
	for (i = 0; i < n; i++) {
		wire[4 * i] = (uint8_t)copies[i].rid;
		wire[4 * i + 1] = (uint8_t)(copies[i].rid >> 8);
		wire[4 * i + 2] = (uint8_t)copies[i].port;
		wire[4 * i + 3] = (uint8_t)(copies[i].port >> 8);
	}
	op.data = wire;
	r = queue_op(sw, &op);
	free(wire);
	return r;
}

static int lk_clone_write(void *sw, uint16_t session, const struct pisa_clone_cfg *cfg)
{
	struct pisa_proto_op op = { .op = PISA_OP_CLONE, .id = session, .clone = *cfg };

	op.clone.enabled = cfg->enabled ? 1 : 0;
	return queue_op(sw, &op);
}

const struct pisa_switch_ops pisa_link_ops = {
	.write_row = lk_write_row,
	.counter_read = lk_counter_read,
	.counter_write = lk_counter_write,
	.register_read = lk_register_read,
	.register_write = lk_register_write,
	.meter_write = lk_meter_write,
	.mcast_write = lk_mcast_write,
	.clone_write = lk_clone_write,
};
