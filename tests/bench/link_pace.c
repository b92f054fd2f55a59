/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link_pace: a control link with a board's speed between pisad and a
 * pisa-model, for `make bench` (scripts/bench.sh): pisad connects to the
 * Unix socket LISTEN (--transport sim:LISTEN), link_pace connects to
 * pisa-model's control socket CONNECT, and every byte crosses at RATE bytes
 * a second each way (a UART at B baud moves B / 10), after LATENCY
 * microseconds (the USB round trip of an FT2232H). HELLO_REPLY is rewritten
 * to announce the board's max payload and window (--max-payload,
 * --window), so that pisad cuts its frames as it would for the board.
 *
 * usage: link_pace LISTEN CONNECT RATE [--latency-us N] [--max-payload N]
 *                  [--window N]
 * On SIGUSR1 it prints "h2s BYTES s2h BYTES" (bytes moved each way so far);
 * on SIGTERM, or when either side closes, the same, then it exits 0.
 * Exit 1: bad arguments or sockets.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "pisa_bytes.h"
#include "pisa_image.h"
#include "pisa_proto.h"

#define CHUNK 256
#define QMAX 65536		/* chunks in flight per direction */

struct chunk {
	uint64_t due_us;
	size_t n;
	uint8_t b[CHUNK];
};

struct dir {
	int from, to;
	struct chunk *q;
	size_t head, count;
	uint64_t busy_until;	/* the wire is busy until then */
	uint64_t bytes;
	/* switch -> host only: frames are parsed to find HELLO_REPLY */
	int parse;
	uint8_t acc[PISA_PROTO_MAX_FRAME];
	size_t acc_len;
};

static volatile sig_atomic_t stop, report;
static double rate;
static uint64_t latency_us;
static unsigned max_payload, window;

static void on_term(int sig)
{
	stop = 1;
}

static void on_usr1(int sig)
{
	report = 1;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static int unix_sock(const char *path, int listen_it)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (listen_it) {
		unlink(path);
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0) {
			close(fd);
			return -1;
		}
	} else if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Queues n bytes: on the wire after what is queued, delivered LATENCY later. */
static int enqueue(struct dir *d, const uint8_t *p, size_t n)
{
	while (n) {
		size_t k = n < CHUNK ? n : CHUNK;
		struct chunk *c;
		uint64_t t = now_us();

		if (d->count == QMAX)
			return -1;
		if (d->busy_until < t)
			d->busy_until = t;
		d->busy_until += (uint64_t)((double)k * 1e6 / rate);
		c = &d->q[(d->head + d->count) % QMAX];
		c->due_us = d->busy_until + latency_us;
		c->n = k;
		memcpy(c->b, p, k);
		d->count++;
		p += k;
		n -= k;
	}
	return 0;
}

/* Switch -> host: whole frames; a HELLO_REPLY gets the board's max payload and window. */
static int take_s2h(struct dir *d, const uint8_t *p, size_t n)
{
	size_t off = 0;

	if (d->acc_len + n > sizeof(d->acc))
		return -1;
	memcpy(d->acc + d->acc_len, p, n);
	d->acc_len += n;
	while (d->acc_len - off >= PISA_PROTO_HDR) {
		uint8_t *f = d->acc + off;
		size_t len, fl;

		if (f[0] != PISA_PROTO_SYNC0 || f[1] != PISA_PROTO_SYNC1) {
			if (enqueue(d, f, 1) < 0)
				return -1;
			off++;
			continue;
		}
		len = pisa_get_le16(f + 2);
		fl = PISA_PROTO_HDR + len + PISA_PROTO_CRC;
		if (d->acc_len - off < fl)
			break;
		if (f[6] == PISA_MSG_HELLO_REPLY && len >= 8) {
			uint32_t crc;

			if (max_payload)
				pisa_put_le16(f + PISA_PROTO_HDR + 4, (uint16_t)max_payload);
			if (window)
				pisa_put_le16(f + PISA_PROTO_HDR + 6, (uint16_t)window);
			crc = pisa_crc32(0, f + 2, PISA_PROTO_HDR - 2 + len);
			pisa_put_le32(f + PISA_PROTO_HDR + len, crc);
		}
		if (enqueue(d, f, fl) < 0)
			return -1;
		off += fl;
	}
	memmove(d->acc, d->acc + off, d->acc_len - off);
	d->acc_len -= off;
	return 0;
}

/* Delivers the chunks that are due; -1 if the receiver is gone. */
static int deliver(struct dir *d, uint64_t t)
{
	while (d->count && d->q[d->head].due_us <= t) {
		struct chunk *c = &d->q[d->head];
		size_t off = 0;

		while (off < c->n) {
			ssize_t w = send(d->to, c->b + off, c->n - off, MSG_NOSIGNAL);

			if (w < 0) {
				if (errno == EINTR || errno == EAGAIN)
					continue;
				return -1;
			}
			off += (size_t)w;
		}
		d->bytes += c->n;
		d->head = (d->head + 1) % QMAX;
		d->count--;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct dir dirs[2];
	struct sigaction sa;
	int lfd, host, sw, i;

	if (argc < 4) {
		fprintf(stderr, "usage: link_pace LISTEN CONNECT RATE [--latency-us N] "
			"[--max-payload N] [--window N]\n");
		return 1;
	}
	rate = strtod(argv[3], NULL);
	if (rate <= 0) {
		fprintf(stderr, "link_pace: rate '%s': not a positive number of bytes a second\n",
			argv[3]);
		return 1;
	}
	for (i = 4; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 10);

		if (!strcmp(argv[i], "--latency-us"))
			latency_us = v;
		else if (!strcmp(argv[i], "--max-payload"))
			max_payload = (unsigned)v;
		else if (!strcmp(argv[i], "--window"))
			window = (unsigned)v;
		else {
			fprintf(stderr, "link_pace: unknown option '%s'\n", argv[i]);
			return 1;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	lfd = unix_sock(argv[1], 1);
	if (lfd < 0) {
		fprintf(stderr, "link_pace: cannot listen on %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	host = accept(lfd, NULL, NULL);
	sw = unix_sock(argv[2], 0);
	if (host < 0 || sw < 0) {
		fprintf(stderr, "link_pace: cannot connect %s to %s: %s\n", argv[1], argv[2],
			strerror(errno));
		return 1;
	}
	dirs[0] = (struct dir){ .from = host, .to = sw };
	dirs[1] = (struct dir){ .from = sw, .to = host, .parse = 1 };
	for (i = 0; i < 2; i++) {
		dirs[i].q = calloc(QMAX, sizeof(struct chunk));
		if (!dirs[i].q) {
			fprintf(stderr, "link_pace: no memory\n");
			return 1;
		}
	}
	while (!stop) {
		struct pollfd pfd[2] = { { host, POLLIN, 0 }, { sw, POLLIN, 0 } };
		uint64_t t = now_us(), next = UINT64_MAX;
		int wait_ms;

		for (i = 0; i < 2; i++)
			if (dirs[i].count && dirs[i].q[dirs[i].head].due_us < next)
				next = dirs[i].q[dirs[i].head].due_us;
		wait_ms = next == UINT64_MAX ? 100 : next <= t ? 0 : (int)((next - t + 999) / 1000);
		if (poll(pfd, 2, wait_ms) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			uint8_t buf[CHUNK * 16];
			ssize_t n;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = recv(dirs[i].from, buf, sizeof(buf), MSG_DONTWAIT);
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
				stop = 1;
				break;
			}
			if (n > 0 && (dirs[i].parse ? take_s2h(&dirs[i], buf, (size_t)n) :
				      enqueue(&dirs[i], buf, (size_t)n)) < 0) {
				fprintf(stderr, "link_pace: queue overflow\n");
				return 1;
			}
		}
		t = now_us();
		if (deliver(&dirs[0], t) < 0 || deliver(&dirs[1], t) < 0)
			break;
		if (report) {
			report = 0;
			printf("h2s %llu s2h %llu\n", (unsigned long long)dirs[0].bytes,
			       (unsigned long long)dirs[1].bytes);
			fflush(stdout);
		}
	}
	printf("h2s %llu s2h %llu\n", (unsigned long long)dirs[0].bytes,
	       (unsigned long long)dirs[1].bytes);
	return 0;
}
