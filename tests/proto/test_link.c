/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_link.c: pisa_link (host end) against a pisa_proto_server running
 * pisa-model in a thread, over a socketpair. The switch thread can drop,
 * corrupt, duplicate and insert bytes in both directions; every write the
 * host issued must then reach the model exactly once, in order.
 */
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pisa_link.h"
#include "../../model/pisa_model.h"
#include "pisa_profile.h"
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

/* ---- the switch side ---- */
#define LOG_MAX 20000

struct logent {
	uint8_t kind;
	uint16_t id;
	uint32_t index;
	uint64_t a;
};

struct sw {
	int fd;
	pthread_t th;
	struct pisa_proto_server *s;
	struct pisa_image *img;
	struct pisa_model *m;
	unsigned fault_per;	/* one fault per this many bytes, 0 none */
	uint32_t rng;
	uint64_t faults;
	unsigned nlog;
	struct logent log[LOG_MAX];
	unsigned mac_copies;	/* port counter 0 reads: each takes a copy */
};

static uint32_t rnd(struct sw *w)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 17;
	w->rng ^= w->rng << 5;
	return w->rng;
}

/* Copies p to out with faults; returns the new length. */
static size_t mangle(struct sw *w, const uint8_t *p, size_t n, uint8_t *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (w->fault_per && rnd(w) % w->fault_per == 0) {
			w->faults++;
			switch (rnd(w) % 4) {
			case 0:
				continue;		/* drop */
			case 1:
				out[k++] = (uint8_t)(p[i] ^ (1 + rnd(w) % 255));
				continue;		/* corrupt */
			case 2:
				out[k++] = p[i];	/* duplicate */
				break;
			case 3:
				out[k++] = PISA_PROTO_SYNC0;	/* insert */
				break;
			}
		}
		out[k++] = p[i];
	}
	return k;
}

static void sw_send(void *arg, const uint8_t *f, size_t len)
{
	struct sw *w = arg;
	static uint8_t buf[2 * PISA_PROTO_MAX_FRAME];	/* the switch thread only */
	size_t n = mangle(w, f, len, buf), off = 0;

	while (off < n) {
		ssize_t r = send(w->fd, buf + off, n - off, MSG_NOSIGNAL);

		if (r <= 0)
			return;
		off += (size_t)r;
	}
}

static void sw_info(void *arg, struct pisa_proto_hello_reply *r)
{
	const struct pisa_profile *p = pisa_profile_find("sim");

	r->ports = (uint16_t)p->ports;
	r->cpu_port = (uint16_t)p->cpu_port;
	r->stages = (uint16_t)p->stages;
	r->phv_bytes = (uint16_t)p->phv_bytes;
}

static void logit(struct sw *w, uint8_t kind, uint16_t id, uint32_t index, uint64_t a)
{
	if (w->nlog < LOG_MAX)
		w->log[w->nlog] = (struct logent){ kind, id, index, a };
	w->nlog++;
}

/* pisa_model_ops with a log in front: what the link made the switch do */
static int l_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	struct sw *w = sw;

	logit(w, PISA_OP_ROW, t, i, pisa_crc32(0, row, len));
	return pisa_model_ops.write_row(w->m, t, i, row, len);
}

static int l_cread(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	return pisa_model_ops.counter_read(((struct sw *)sw)->m, id, i, p, b);
}

static int l_cwrite(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	struct sw *w = sw;

	logit(w, PISA_OP_COUNTER, id, i, p ^ b << 32);
	return pisa_model_ops.counter_write(w->m, id, i, p, b);
}

static int l_rread(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	return pisa_model_ops.register_read(((struct sw *)sw)->m, id, i, v);
}

static int l_rwrite(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	struct sw *w = sw;

	logit(w, PISA_OP_REGISTER, id, i, v);
	return pisa_model_ops.register_write(w->m, id, i, v);
}

static int l_meter(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *c)
{
	struct sw *w = sw;

	logit(w, PISA_OP_METER, id, i, c->cir_q16);
	return pisa_model_ops.meter_write(w->m, id, i, c);
}

static int l_mcast(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	struct sw *w = sw;

	logit(w, PISA_OP_MCAST, g, n, n ? c[n - 1].port : 0);
	return pisa_model_ops.mcast_write(w->m, g, n, c);
}

static int l_clone(void *sw, uint16_t id, const struct pisa_clone_cfg *c)
{
	struct sw *w = sw;

	logit(w, PISA_OP_CLONE, id, c->port, c->truncate);
	return pisa_model_ops.clone_write(w->m, id, c);
}

/* two MAC ports whose counter k reads 1000 x copies + 100 x port + k */
static int l_pread(void *sw, uint16_t port, uint32_t k, uint64_t *v, uint64_t *bits)
{
	struct sw *w = sw;

	if (port > 1 || k >= PISA_PORT_COUNTERS)
		return -PISA_E_RANGE;
	w->mac_copies += k == 0;
	*v = 1000 * w->mac_copies + 100 * port + k;
	*bits = 16;
	return 0;
}

static const struct pisa_switch_ops logged_ops = {
	l_row, l_cread, l_cwrite, l_rread, l_rwrite, l_meter, l_mcast, l_clone, l_pread,
};

static int sw_load(void *arg, struct pisa_image *img, char *d, size_t dl)
{
	struct sw *w = arg;
	struct pisa_model *m = pisa_model_new(img);

	if (!m) {
		snprintf(d, dl, "no memory");
		return -PISA_E_NOMEM;
	}
	pisa_model_free(w->m);
	pisa_image_free(w->img);
	w->m = m;
	w->img = img;
	pisa_proto_server_set_switch(w->s, &logged_ops, w);
	return 0;
}

static int sw_reset(void *arg)
{
	struct sw *w = arg;
	struct pisa_model *m = pisa_model_new(w->img);

	if (!m)
		return -PISA_E_NOMEM;
	pisa_model_free(w->m);
	w->m = m;
	return 0;
}

static void sw_out(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct sw *w = arg;

	pisa_proto_server_packet_in(w->s, port, d, len);
}

static void sw_digest(void *arg, uint16_t id, const uint8_t *d, size_t len)
{
	struct sw *w = arg;

	pisa_proto_server_digest(w->s, id, d, len);
}

static int sw_pout(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct sw *w = arg;

	pisa_model_set_digest_cb(w->m, sw_digest, w);
	return pisa_model_inject(w->m, port, d, len, 0, sw_out, w);
}

static void *sw_thread(void *arg)
{
	static uint8_t buf[8192], mb[2 * 8192];
	struct sw *w = arg;

	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		pisa_proto_server_input(w->s, mb, mangle(w, buf, (size_t)n, mb));
	}
	return NULL;
}

static const struct pisa_proto_server_cb sw_cb = {
	sw_send, sw_info, sw_load, sw_reset, sw_pout,
};

static struct sw *sw_start(int fd, unsigned fault_per, uint32_t seed, uint16_t max_payload,
			   uint16_t window)
{
	struct sw *w = calloc(1, sizeof(*w));

	w->fd = fd;
	w->fault_per = fault_per;
	w->rng = seed ? seed : 1;
	w->s = pisa_proto_server_new(&sw_cb, w, "sim", 1u << 20);
	pisa_proto_server_set_limits(w->s, max_payload, window);
	pthread_create(&w->th, NULL, sw_thread, w);
	return w;
}

static void sw_stop(struct sw *w)
{
	pthread_join(w->th, NULL);
	close(w->fd);
	pisa_proto_server_free(w->s);
	pisa_model_free(w->m);
	pisa_image_free(w->img);
	free(w);
}

/* ---- host side ---- */
struct pins {
	unsigned n;
	uint16_t port[16];
	size_t len[16];
	uint8_t data[16][128];
};

static void on_pin(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct pins *p = arg;

	if (p->n < 16) {
		p->port[p->n] = port;
		p->len[p->n] = len;
		memcpy(p->data[p->n], d, len < 128 ? len : 128);
		p->n++;
	}
}

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0x0b };

static size_t eth(uint8_t *p, const uint8_t dst[6])
{
	memset(p, 0, 64);
	memcpy(p, dst, 6);
	p[6] = 0x02;
	p[11] = 0x99;
	p[12] = 0x88;
	p[13] = 0xb5;
	p[20] = 0x42;
	return 64;
}

static int load_l2fwd(struct pisa_link *l, const char *board)
{
	struct img_store is;
	uint8_t *buf;
	size_t len;
	int r = pisa_image_write(img_build(&is, board), &buf, &len);

	if (r < 0)
		return r;
	r = pisa_link_load_image(l, buf, len);
	free(buf);
	return r;
}

static int pkt_to(struct pisa_link *l, struct pins *pi, const uint8_t mac[6])
{
	uint8_t p[64];
	size_t n = eth(p, mac);

	pi->n = 0;
	if (pisa_link_packet_out(l, 1, p, n) < 0)
		return -1;
	return pi->n == 1 && pi->len[0] == n && !memcmp(pi->data[0], p, n) ? pi->port[0] : -2;
}

static void test_clean(void)
{
	struct img_store is;
	struct pisa_image *img = img_build(&is, "sim");
	struct pisa_proto_hello_reply info;
	struct pisa_link *l;
	struct pins pi = { 0 };
	uint8_t row[64];
	uint64_t pk = 0, by = 0, v = 0;
	int sv[2], r, port;
	size_t n;
	struct sw *w;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	w = sw_start(sv[1], 0, 0, PISA_PROTO_MAX_PAYLOAD, PISA_PROTO_WINDOW);
	l = pisa_link_open_fd(sv[0]);
	pisa_link_set_packet_in_cb(l, on_pin, &pi);

	r = pisa_link_hello(l, &info);
	check(r == 0 && !strcmp(info.board, "sim") && info.version == PISA_PROTO_VERSION &&
	      !(info.flags & PISA_HELLO_IMAGE) && info.cpu_port == 255 && info.window == 16,
	      "link_hello", "r %d board '%s' %s", r, info.board, pisa_link_detail(l));
	r = pisa_link_ops.register_write(l, 0, 0, 1);
	if (r == 0)
		r = pisa_link_flush(l);
	check(r == -PISA_E_NOTFOUND, "link_write_before_image", "r %d: %s", r,
	      pisa_link_detail(l));

	r = load_l2fwd(l, "icebreaker");
	check(r < 0 && strstr(pisa_link_detail(l), "icebreaker"), "link_image_wrong_board",
	      "r %d: %s", r, pisa_link_detail(l));
	r = load_l2fwd(l, "sim");
	check(r == 0, "link_image_load", "r %d: %s", r, pisa_link_detail(l));
	r = pisa_link_hello(l, &info);
	check(r == 0 && (info.flags & PISA_HELLO_IMAGE) && info.image_len > 0, "link_hello_image",
	      "r %d flags %u", r, info.flags);

	port = pkt_to(l, &pi, mac_a);
	check(port == IMG_DEFAULT_PORT, "link_default_route", "port %d", port);
	pi.n = 0;
	n = img_row(img, row, mac_a, 5);
	r = pisa_link_ops.write_row(l, 0, img_bucket(mac_a), row, n);
	n = img_row(img, row, mac_b, 6);
	if (r == 0)
		r = pisa_link_ops.write_row(l, 0, img_bucket(mac_b), row, n);
	check(r == 0 && pi.n == 0, "link_row_queued", "r %d", r);
	r = pisa_link_flush(l);
	check(r == 0, "link_flush", "r %d: %s", r, pisa_link_detail(l));
	port = pkt_to(l, &pi, mac_a);
	check(port == 5, "link_row_hit_a", "port %d", port);
	port = pkt_to(l, &pi, mac_b);
	check(port == 6, "link_row_hit_b", "port %d", port);

	r = pisa_link_ops.counter_read(l, 0, 0, &pk, &by);
	check(r == 0 && pk == 3 && by == 3 * 64, "link_counter_read", "r %d packets %llu bytes %llu",
	      r, (unsigned long long)pk, (unsigned long long)by);
	r = pisa_link_ops.register_write(l, 0, 7, 0xabcdef);
	if (r == 0)
		r = pisa_link_ops.register_read(l, 0, 7, &v);
	check(r == 0 && v == 0xabcdef, "link_register_rw", "r %d v %llx", r, (unsigned long long)v);
	r = pisa_link_ops.counter_read(l, 0, 99, &pk, &by);
	check(r < 0, "link_read_error", "r %d", r);
	{
		uint64_t mac[PISA_PORT_COUNTERS], bits = 0;
		unsigned k, bad = 0;

		r = pisa_link_port_counters(l, 1, mac, &bits);
		for (k = 0; k < PISA_PORT_COUNTERS; k++)
			bad += mac[k] != 1000 + 100 + k;	/* one copy, taken first */
		check(r == 0 && bad == 0 && bits == 16, "link_port_counters",
		      "r %d, %u wrong, first %llu, bits %llu", r, bad, (unsigned long long)mac[0],
		      (unsigned long long)bits);
		r = pisa_link_port_counters(l, 2, mac, &bits);
		check(r == -PISA_E_RANGE, "link_port_counters_no_mac", "r %d", r);
	}

	/* a batch with a bad op in the middle: flush names it */
	pisa_link_flush(l);
	pisa_link_ops.register_write(l, 0, 1, 1);
	pisa_link_ops.register_write(l, 0, 2, 2);
	pisa_link_ops.register_write(l, 5, 3, 3);
	pisa_link_ops.register_write(l, 0, 4, 4);
	r = pisa_link_flush(l);
	check(r < 0 && pisa_link_failed_op(l) == 2, "link_flush_failed_op", "r %d op %ld: %s", r,
	      pisa_link_failed_op(l), pisa_link_detail(l));
	v = 0;
	pisa_link_ops.register_read(l, 0, 2, &v);
	check(v == 2, "link_ops_before_failure_applied", "v %llu", (unsigned long long)v);
	r = pisa_link_flush(l);
	check(r == 0, "link_flush_clears_error", "r %d", r);

	pisa_link_set_sync(l, 1);
	r = pisa_link_ops.register_write(l, 9, 0, 0);
	check(r < 0, "link_sync_write_error", "r %d", r);
	pisa_link_set_sync(l, 0);

	r = pisa_link_reset(l);
	port = pkt_to(l, &pi, mac_a);
	check(r == 0 && port == IMG_DEFAULT_PORT, "link_reset", "r %d port %d", r, port);

	pisa_link_close(l);
	close(sv[0]);
	sw_stop(w);
}

/* Many writes through a faulty stream: all applied once, in order. */
static void test_faults(unsigned fault_per, uint32_t seed, uint16_t max_payload, const char *name)
{
	static struct logent want[LOG_MAX];
	struct img_store is;
	struct pisa_image *img = img_build(&is, "sim");
	struct pisa_link *l;
	struct pisa_link_stats st;
	unsigned nwant = 0, i, bad = 0, stale = 0;
	uint64_t last[16] = { 0 }, v;
	uint8_t row[64];
	int sv[2], r;
	size_t n;
	struct sw *w;
	char nm[64];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	w = sw_start(sv[1], 0, seed, max_payload, 8);
	l = pisa_link_open_fd(sv[0]);
	pisa_link_set_timeout(l, 5, 200);
	r = load_l2fwd(l, "sim");
	w->fault_per = fault_per;	/* the image goes in clean; faults from here on */
	for (i = 0; r == 0 && i < 4000; i++) {
		switch (i % 3) {
		case 0:
			r = pisa_link_ops.register_write(l, 0, i % 16, i);
			last[i % 16] = i;
			want[nwant++] = (struct logent){ PISA_OP_REGISTER, 0, i % 16, i };
			break;
		case 1:
			r = pisa_link_ops.counter_write(l, 0, i % 16, i, 2 * i);
			want[nwant++] = (struct logent){ PISA_OP_COUNTER, 0, i % 16,
							 i ^ (uint64_t)(2 * i) << 32 };
			break;
		case 2: {
			uint8_t mac[6] = { 2, 0, 0, 0, (uint8_t)(i >> 8), (uint8_t)i };

			n = img_row(img, row, mac, (uint16_t)(i % 500));
			r = pisa_link_ops.write_row(l, 0, i % 16, row, n);
			want[nwant++] = (struct logent){ PISA_OP_ROW, 0, i % 16,
							 pisa_crc32(0, row, n) };
			break;
		}
		}
	}
	if (r == 0)
		r = pisa_link_flush(l);
	snprintf(nm, sizeof(nm), "%s_flush", name);
	check(r == 0, nm, "r %d: %s", r, pisa_link_detail(l));
	for (i = 0; i < nwant && i < w->nlog; i++)
		if (memcmp(&want[i], &w->log[i], sizeof(want[i])) != 0)
			bad++;
	pisa_link_get_stats(l, &st);
	snprintf(nm, sizeof(nm), "%s_exactly_once", name);
	check(r == 0 && w->nlog == nwant && bad == 0, nm,
	      "issued %u, applied %u, %u differ", nwant, w->nlog, bad);
	printf("# %s: %llu faults, %llu frames, %llu retransmits, %llu bytes skipped\n", name,
	       (unsigned long long)w->faults, (unsigned long long)st.frames_sent,
	       (unsigned long long)st.retransmits, (unsigned long long)st.dropped_bytes);
	/* reads through the same faulty stream see the last value written */
	for (i = 0; i < 16; i++)
		if (pisa_link_ops.register_read(l, 0, i, &v) < 0 || v != last[i])
			stale++;
	snprintf(nm, sizeof(nm), "%s_final_state", name);
	check(stale == 0, nm, "%u registers read wrong: %s", stale, pisa_link_detail(l));
	if (fault_per) {
		snprintf(nm, sizeof(nm), "%s_faults_happened", name);
		check(w->faults > 10 && st.retransmits > 0, nm, "%llu faults",
		      (unsigned long long)w->faults);
	}
	pisa_link_close(l);
	close(sv[0]);
	sw_stop(w);
}

static void test_closed(void)
{
	int sv[2], r;
	struct pisa_link *l;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	close(sv[1]);
	l = pisa_link_open_fd(sv[0]);
	r = pisa_link_hello(l, NULL);
	check(r == -PISA_E_IO, "link_peer_closed", "r %d", r);
	pisa_link_close(l);
	close(sv[0]);

	/* a peer that never answers: the link gives up after its tries */
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	l = pisa_link_open_fd(sv[0]);
	pisa_link_set_timeout(l, 5, 3);
	r = pisa_link_hello(l, NULL);
	check(r == -PISA_E_IO && strstr(pisa_link_detail(l), "tries"), "link_no_reply",
	      "r %d: %s", r, pisa_link_detail(l));
	pisa_link_close(l);
	close(sv[0]);
	close(sv[1]);
}

struct digs {
	unsigned n;
	uint16_t id;
	size_t len;
};

static void on_dig(void *arg, uint16_t id, const uint8_t *d, size_t len)
{
	struct digs *g = arg;

	g->n++;
	g->id = id;
	g->len = len;
}

/* Frames the switch pushes while the host is idle reach the callbacks. */
static void test_poll(void)
{
	uint8_t fr[256], p[80];
	struct pisa_proto_blob b = { 9, p, 70 };
	struct pins pi = { 0 };
	struct digs dg = { 0 };
	struct pisa_link *l;
	int sv[2], r;
	size_t n = 0;
	long m;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	l = pisa_link_open_fd(sv[0]);
	pisa_link_set_packet_in_cb(l, on_pin, &pi);
	pisa_link_set_digest_cb(l, on_dig, &dg);
	memset(p, 0x77, sizeof(p));
	fr[n++] = 0x13;		/* garbage first */
	fr[n++] = PISA_PROTO_SYNC0;
	m = pisa_proto_blob_encode(p + 72, 0, 16, &b);	/* too small: refused */
	check(m < 0, "link_blob_cap", "m %ld", m);
	{
		uint8_t pl[128];

		m = pisa_proto_blob_encode(pl, sizeof(pl), 16, &b);
		n += pisa_proto_frame_encode(fr + n, sizeof(fr) - n, 1, PISA_MSG_PACKET_IN, pl,
					     (size_t)m);
		b.num = 4;
		b.len = 6;
		m = pisa_proto_blob_encode(pl, sizeof(pl), 16, &b);
		n += pisa_proto_frame_encode(fr + n, sizeof(fr) - n, 2, PISA_MSG_DIGEST, pl,
					     (size_t)m);
	}
	r = (int)write(sv[1], fr, n);
	r = r == (int)n ? pisa_link_poll(l, 200) : -1;
	check(r == 0 && pi.n == 1 && pi.port[0] == 9 && pi.len[0] == 70 && dg.n == 1 && dg.id == 4 &&
	      dg.len == 6, "link_poll_callbacks", "r %d packet-ins %u digests %u", r, pi.n, dg.n);
	close(sv[1]);
	r = pisa_link_poll(l, 200);
	check(r == -PISA_E_IO, "link_poll_closed", "r %d", r);
	pisa_link_close(l);
	close(sv[0]);
}

int main(void)
{
	(void)pisa_crc32(0, NULL, 0);	/* build the CRC table before threads share it */
	(void)pisa_hash_way(0, NULL, 0);
	test_clean();
	test_faults(0, 1, PISA_PROTO_MAX_PAYLOAD, "link_batch_big_frames");
	test_faults(0, 2, 256, "link_batch_small_frames");
	test_faults(3000, 3, 512, "link_faults_a");
	test_faults(1500, 4, 256, "link_faults_b");
	test_faults(700, 5, 128, "link_faults_c");
	test_closed();
	test_poll();
	return failed;
}
