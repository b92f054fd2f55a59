/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisad.c: the OpenPISA switch daemon. It owns one switch through one
 * transport, keeps the loaded image and a shadow of every write
 * (lib/pisa_ctl.h over lib/pisa_link.h), serves pisactl on a Unix socket
 * and restores the switch after a link error or a reset.
 * One thread, one poll() loop; requests run to completion in turn.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "hostcommon.h"
#include "pisa_file.h"
#include "pisa_ctl.h"
#include "pisa_hwconf.h"
#include "pisa_image.h"
#include "pisa_link.h"
#include "pisa_profile.h"
#include "pisa_proto.h"
#include "transport.h"

#define EXIT_OK 0
#define EXIT_SWITCH 1		/* cannot reach the switch, or it is the wrong board */
#define EXIT_SYSTEM 2		/* socket, memory */
#define EXIT_USAGE 3

#define HEARTBEAT_MS 5000	/* idle HELLO: notices a switch that lost its image */
#define RETRY_MIN_MS 100
#define RETRY_MAX_MS 2000
#define LISTEN_OUT_MAX (4u << 20)	/* queued event bytes per listener before dropping */
#define MAX_CLIENTS 64

static unsigned link_timeout_ms;	/* --link-timeout; 0: the library's default */

static const char usage_text[] =
"usage: pisad --board NAME [--device SERIAL]\n"
"             [--transport uart|spi|eth:IF[,MAC]|sim:PATH|model:IMAGE]\n"
"             [--socket PATH] [--log-level err|warn|info|debug] [--link-timeout MS]\n"
"             [--foreground]\n"
"\n"
"Owns one OpenPISA switch and keeps it programmed; pisactl talks to it.\n"
"\n"
"  --board NAME        the board profile (sim, icebreaker, hx8k-breakout,\n"
"                      colorlight-5a-75b); the switch must report the same one.\n"
"  --transport T       how to reach the switch (default uart):\n"
"                        uart         FT2232H channel B (PISAD_UART_BAUD, default 3000000)\n"
"                        spi          FT2232H channel A, MPSSE SPI (PISAD_SPI_HZ, default 6000000)\n""                        eth:IF[,MAC] Ethernet management frames (EtherType 0x88B5) on\n"
"                                     interface IF, to the board MAC or broadcast; needs\n"
"                                     CAP_NET_RAW (root)\n"
"                        sim:PATH     a simulated switch on the Unix socket PATH\n"
"                                     (pisa-model IMAGE --control PATH, the co-simulation)\n"
"                        model:IMAGE  starts pisa-model IMAGE next to pisad and adopts IMAGE\n"
"  --device SERIAL     the FT2232H's serial number (default: the first one).\n"
"  --socket PATH       where pisactl connects (mode 0660). Default: $PISAD_SOCKET,\n"
"                      else $XDG_RUNTIME_DIR/pisad.sock, else /tmp/pisad.sock.\n"
"  --log-level L       err, warn, info (default) or debug; also $PISAD_LOG_LEVEL.\n"
"  --link-timeout MS   wait this long for a reply before sending again (default\n"
"                      200; 10 tries). A co-simulated board wants more (2000).\n"
"  --foreground        stay in the foreground and log to stderr (else: a daemon\n"
"                      logging to syslog once it has started).\n"
"\n"
"After a link error, a reconnect or a switch that lost its image, pisad loads\n"
"the image again and replays every entry, default, group, session and meter.\n"
"\n"
"Exit codes:\n"
"  0  stopped by SIGINT or SIGTERM\n"
"  1  cannot reach the switch at start, or it is another board\n"
"  2  system error (socket, memory)\n"
"  3  usage error\n";

enum { L_ERR, L_WARN, L_INFO, L_DEBUG };
static const char *const level_names[] = { "err", "warn", "info", "debug" };
static int log_level = L_INFO;
static int log_syslog;

static void logm(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void logm(int level, const char *fmt, ...)
{
	static const int prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
	char msg[1024];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_syslog) {
		syslog(prio[level], "%s", msg);
	} else {
		struct timespec ts;
		struct tm tm;

		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		fprintf(stderr, "%02d:%02d:%02d.%03ld pisad[%s]: %s\n", tm.tm_hour, tm.tm_min,
			tm.tm_sec, ts.tv_nsec / 1000000, level_names[level], msg);
	}
}

static int parse_level(const char *s)
{
	int i;

	for (i = 0; i <= L_DEBUG; i++)
		if (!strcmp(s, level_names[i]))
			return i;
	return -1;
}

/*
 * A command whose writes went into the link's batch but are not flushed yet:
 * its output waits until the batch is acknowledged. A client that sends
 * commands ahead of their results (pisactl with a commands file) gets the
 * writes of up to BATCH_MAX of them, and of all that arrived together, put
 * into as few frames as the link's max payload allows, one round trip for
 * all; results still go back one per command, in order.
 */
#define BATCH_MAX 256

struct pending {
	char *out;		/* what the command printed */
	size_t olen;
	char *line;
	uint64_t op0, op1;	/* its ops: link op counts before and after */
};

struct client {
	int fd;
	uint8_t *in;
	size_t in_len, in_cap;
	uint8_t *out;
	size_t out_off, out_len, out_cap;
	int listen;
	int dead;
	uint64_t dropped;	/* events dropped because the client did not read */
	struct pending pend[BATCH_MAX];
	unsigned npend;
	struct client *next;
};

struct daemon {
	const char *board;
	struct transport tr;
	struct pisa_link *link;
	int link_fd;
	int connected;
	struct pisa_proto_hello_reply info;
	char down_why[640];	/* why it is not connected now */
	char lost_why[640];	/* what broke the last connection */
	uint64_t retry_at, heartbeat_at;
	unsigned backoff_ms;
	int refused;		/* the switch is another board */

	/* the program and the shadow; the ctl's sw is the daemon itself so
	 * that it survives reconnects (forwarding ops below) */
	struct pisa_image *img;
	uint8_t *img_bytes;
	size_t img_len;
	char img_name[256];
	struct pisa_ctl *ctl;
	int needs_init;		/* ctl is new: pisa_ctl_init, not replay, after the load */
	int diverged;		/* the switch refused a write the shadow holds */

	unsigned long connects, restores, link_errors;
	char last_restore[256];

	int lfd;
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct client *clients;
	unsigned nclients;
	uint64_t events_dropped;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- pisa_switch_ops that follow the current link ---- */

static struct pisa_link *cur(void *sw)
{
	struct daemon *d = sw;

	return d->connected ? d->link : NULL;
}

static int fw_write_row(void *sw, uint16_t t, uint32_t i, const uint8_t *row, size_t len)
{
	return cur(sw) ? pisa_link_ops.write_row(cur(sw), t, i, row, len) : -PISA_E_IO;
}

static int fw_counter_read(void *sw, uint16_t id, uint32_t i, uint64_t *p, uint64_t *b)
{
	return cur(sw) ? pisa_link_ops.counter_read(cur(sw), id, i, p, b) : -PISA_E_IO;
}

static int fw_counter_write(void *sw, uint16_t id, uint32_t i, uint64_t p, uint64_t b)
{
	return cur(sw) ? pisa_link_ops.counter_write(cur(sw), id, i, p, b) : -PISA_E_IO;
}

static int fw_register_read(void *sw, uint16_t id, uint32_t i, uint64_t *v)
{
	return cur(sw) ? pisa_link_ops.register_read(cur(sw), id, i, v) : -PISA_E_IO;
}

static int fw_register_write(void *sw, uint16_t id, uint32_t i, uint64_t v)
{
	return cur(sw) ? pisa_link_ops.register_write(cur(sw), id, i, v) : -PISA_E_IO;
}

static int fw_meter_write(void *sw, uint16_t id, uint32_t i, const struct pisa_meter_cfg *c)
{
	return cur(sw) ? pisa_link_ops.meter_write(cur(sw), id, i, c) : -PISA_E_IO;
}

static int fw_mcast_write(void *sw, uint16_t g, uint16_t n, const struct pisa_mc_copy *c)
{
	return cur(sw) ? pisa_link_ops.mcast_write(cur(sw), g, n, c) : -PISA_E_IO;
}

static int fw_clone_write(void *sw, uint16_t s, const struct pisa_clone_cfg *c)
{
	return cur(sw) ? pisa_link_ops.clone_write(cur(sw), s, c) : -PISA_E_IO;
}

static const struct pisa_switch_ops fw_ops = {
	.write_row = fw_write_row,
	.counter_read = fw_counter_read,
	.counter_write = fw_counter_write,
	.register_read = fw_register_read,
	.register_write = fw_register_write,
	.meter_write = fw_meter_write,
	.mcast_write = fw_mcast_write,
	.clone_write = fw_clone_write,
};

/* ---- clients ---- */

static int out_append(struct client *c, const uint8_t *p, size_t n)
{
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	if (c->out_len + n > c->out_cap) {
		size_t cap = c->out_cap ? c->out_cap : 4096;
		uint8_t *np;

		if (c->out_off) {
			memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
			c->out_len -= c->out_off;
			c->out_off = 0;
		}
		while (cap < c->out_len + n)
			cap *= 2;
		if (cap != c->out_cap) {
			np = realloc(c->out, cap);
			if (!np)
				return -1;
			c->out = np;
			c->out_cap = cap;
		}
	}
	memcpy(c->out + c->out_len, p, n);
	c->out_len += n;
	return 0;
}

static void client_flush(struct client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->dead = 1;
			return;
		}
		c->out_off += (size_t)n;
	}
}

static void client_msg(struct client *c, uint8_t type, int status, const char *text, size_t len)
{
	uint8_t hdr[HC_LEN_BYTES + 2];
	size_t h = HC_LEN_BYTES + 1;

	if (len > HC_MAX_CMD)
		len = HC_MAX_CMD;
	hdr[HC_LEN_BYTES] = type;
	if (type == HC_MSG_RESULT)
		hdr[h++] = (uint8_t)status;
	hc_put_header(hdr, len + h - HC_LEN_BYTES - 1);
	if (out_append(c, hdr, h) < 0 || out_append(c, (const uint8_t *)text, len) < 0)
		c->dead = 1;
	client_flush(c);
}

static void reply(struct client *c, int status, const char *text)
{
	client_msg(c, HC_MSG_RESULT, status, text, strlen(text));
}

static void replyf(struct client *c, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void replyf(struct client *c, int status, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0) {
		reply(c, 1, "Error: no memory\n");
		return;
	}
	reply(c, status, buf);
	free(buf);
}

static void hex_append(char *dst, size_t cap, const uint8_t *p, size_t n)
{
	size_t k = strlen(dst), i;

	for (i = 0; i < n && k + 3 < cap; i++, k += 2)
		snprintf(dst + k, cap - k, "%02x", p[i]);
}

static void broadcast(struct daemon *d, const char *what, unsigned num, const uint8_t *p,
		      size_t n)
{
	static char line[2 * PISA_PROTO_MAX_PAYLOAD + 128];
	struct client *c;

	snprintf(line, sizeof(line), "%s %u len %zu: ", what, num, n);
	hex_append(line, sizeof(line), p, n);
	for (c = d->clients; c; c = c->next) {
		if (!c->listen || c->dead)
			continue;
		if (c->out_len - c->out_off > LISTEN_OUT_MAX) {
			c->dropped++;
			d->events_dropped++;
			continue;
		}
		client_msg(c, HC_MSG_EVENT, 0, line, strlen(line));
	}
}

/* Link callbacks: they run inside pisa_link calls and must not call it. */
static void on_packet_in(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	logm(L_DEBUG, "packet-in on port %u, %zu bytes", port, len);
	broadcast(arg, "packet-in port", port, data, len);
}

static void on_digest(void *arg, uint16_t id, const uint8_t *data, size_t len)
{
	logm(L_DEBUG, "digest %u, %zu bytes", id, len);
	broadcast(arg, "digest id", id, data, len);
}

/* ---- the switch ---- */

static void link_down(struct daemon *d, const char *why)
{
	if (d->link) {
		pisa_link_close(d->link);
		d->link = NULL;
	}
	if (d->connected)
		logm(L_WARN, "lost the switch: %s", why);
	d->tr.ops->disconnect(&d->tr);
	d->connected = 0;
	d->link_fd = -1;
	snprintf(d->down_why, sizeof(d->down_why), "%s", why);
	snprintf(d->lost_why, sizeof(d->lost_why), "%s", why);
	d->retry_at = now_ms();
	d->backoff_ms = RETRY_MIN_MS;
}

static void link_error(struct daemon *d, const char *what, int r)
{
	char why[512];

	d->link_errors++;
	snprintf(why, sizeof(why), "%s: %s", what,
		 d->link && pisa_link_detail(d->link)[0] ? pisa_link_detail(d->link) :
		 pisa_strerror(-r));
	link_down(d, why);
}

/*
 * Puts the program and the shadow into a switch that was just (re)connected:
 * load the image (the switch starts it with empty state), then the initial
 * state for a new program, or everything the shadow holds. A protocol
 * version 1 switch cannot say whether it kept its entries, so this runs on
 * every connect: cheap next to a lost entry.
 */
static int restore(struct daemon *d, const char *why)
{
	char detail[256];
	int r;

	if (!d->img || !d->ctl)
		return 0;
	r = pisa_link_load_image(d->link, d->img_bytes, d->img_len);
	if (r < 0) {
		snprintf(detail, sizeof(detail), "loading %.200s again", d->img_name);
		if (r == -PISA_E_IO) {
			link_error(d, detail, r);
		} else {
			logm(L_ERR, "%s: the switch refused it: %s", detail,
			     pisa_link_detail(d->link));
			d->diverged = 1;
		}
		return r;
	}
	r = d->needs_init ? pisa_ctl_init(d->ctl) : pisa_ctl_replay(d->ctl);
	if (r == 0)
		r = pisa_link_flush(d->link);
	if (r < 0) {
		if (r == -PISA_E_IO) {
			link_error(d, "replaying the shadow", r);
		} else {
			logm(L_ERR, "replaying the shadow: the switch refused a write: %s",
			     d->link ? pisa_link_detail(d->link) : pisa_strerror(-r));
			d->diverged = 1;
		}
		return r;
	}
	if (!d->needs_init) {
		d->restores++;
		snprintf(d->last_restore, sizeof(d->last_restore), "%s", why);
		logm(L_WARN, "restored the switch (%s): image '%s' from %s (%zu bytes) and "
		     "every table entry, default, group, session and meter rate", why,
		     d->img->program, d->img_name, d->img_len);
	} else {
		logm(L_INFO, "loaded image '%s' from %s (%zu bytes)", d->img->program,
		     d->img_name, d->img_len);
	}
	d->needs_init = 0;
	d->diverged = 0;
	return 0;
}

/* 0 connected; -1 not reachable (retry later); -2 the wrong board. */
static int try_connect(struct daemon *d, int quiet)
{
	char err[512];
	int fd, r;

	fd = d->tr.ops->connect(&d->tr, err, sizeof(err));
	if (fd < 0) {
		logm(quiet ? L_DEBUG : L_WARN, "%s", err);
		snprintf(d->down_why, sizeof(d->down_why), "%s", err);
		return -1;
	}
	d->link = pisa_link_open_fd(fd);
	if (!d->link) {
		d->tr.ops->disconnect(&d->tr);
		snprintf(d->down_why, sizeof(d->down_why), "no memory");
		return -1;
	}
	d->link_fd = fd;
	if (link_timeout_ms)
		pisa_link_set_timeout(d->link, link_timeout_ms, 10);
	pisa_link_set_packet_in_cb(d->link, on_packet_in, d);
	pisa_link_set_digest_cb(d->link, on_digest, d);
	r = pisa_link_hello(d->link, &d->info);
	if (r < 0) {
		snprintf(err, sizeof(err), "hello: %s", pisa_link_detail(d->link));
		logm(quiet ? L_DEBUG : L_WARN, "%s", err);
		pisa_link_close(d->link);
		d->link = NULL;
		d->tr.ops->disconnect(&d->tr);
		snprintf(d->down_why, sizeof(d->down_why), "%s", err);
		return -1;
	}
	d->info.board[sizeof(d->info.board) - 1] = 0;
	d->info.program[sizeof(d->info.program) - 1] = 0;
	if (!pisa_board_matches(d->info.board, d->board)) {
		snprintf(err, sizeof(err), "the switch at %s reports board profile '%s', but pisad "
			 "was started with --board %s: refusing it", d->tr.desc, d->info.board,
			 d->board);
		if (!d->refused)
			logm(L_ERR, "%s", err);
		d->refused = 1;
		pisa_link_close(d->link);
		d->link = NULL;
		d->tr.ops->disconnect(&d->tr);
		snprintf(d->down_why, sizeof(d->down_why), "%s", err);
		return -2;
	}
	d->refused = 0;
	d->connected = 1;
	d->connects++;
	d->heartbeat_at = now_ms() + HEARTBEAT_MS;
	logm(L_INFO, "connected to the switch at %s: board %s, version %u.%u, %u ports, "
	     "cpu port %u, running %s", d->tr.desc, d->info.board, d->info.hw_version >> 8,
	     d->info.hw_version & 0xff, d->info.ports, d->info.cpu_port,
	     d->info.flags & PISA_HELLO_IMAGE ? d->info.program : "no image");
	if (d->img) {
		char why[320];

		snprintf(why, sizeof(why), "%s after %.200s", d->connects > 1 ? "reconnected" :
			 "connected", d->connects > 1 ? d->lost_why : "start");
		if (restore(d, why) < 0 && !d->connected)
			return -1;
	}
	return 0;
}

/* A HELLO when idle: a switch that restarted shows no image or another one. */
static void heartbeat(struct daemon *d)
{
	struct pisa_proto_hello_reply info;
	int r = pisa_link_hello(d->link, &info);

	d->heartbeat_at = now_ms() + HEARTBEAT_MS;
	if (r < 0) {
		link_error(d, "heartbeat", r);
		return;
	}
	if (d->img && (!(info.flags & PISA_HELLO_IMAGE) || info.image_len != d->img_len ||
		       info.image_crc != pisa_crc32(0, d->img_bytes, d->img_len))) {
		logm(L_WARN, "the switch no longer runs '%s' (it reset?)", d->img->program);
		restore(d, "the switch lost its image");
	}
	d->info = info;
}

/* ---- requests ---- */

static int image_accept(struct daemon *d, const uint8_t *bytes, size_t len, const char *name,
			struct pisa_image **out, char *err, size_t errlen)
{
	char detail[512] = "";
	int r = pisa_image_read(bytes, len, out, detail, sizeof(detail));

	if (r < 0) {
		snprintf(err, errlen, "%s: not a valid image: %s", name,
			 detail[0] ? detail : pisa_strerror(-r));
		return -1;
	}
	if (!pisa_board_matches((*out)->board, d->board)) {
		snprintf(err, errlen, "%s: built for board '%.16s', this switch is '%s' "
			 "(compile it with --board %s)", name, (*out)->board, d->board, d->board);
		pisa_image_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

static void adopt(struct daemon *d, struct pisa_image *img, uint8_t *bytes, size_t len,
		  const char *name, struct pisa_ctl *ctl)
{
	pisa_ctl_free(d->ctl);
	pisa_image_free(d->img);
	free(d->img_bytes);
	d->img = img;
	d->img_bytes = bytes;
	d->img_len = len;
	d->ctl = ctl;
	snprintf(d->img_name, sizeof(d->img_name), "%s", name);
}

/*
 * The RTL board's loader refuses an image whose HWCONF section says the core
 * cannot run it, with that status as err but without the text (an ACK detail
 * would cost the loader a 120-byte buffer). The text follows from the image,
 * so say it here: "" unless the layout fails with the switch's error r.
 */
static void refusal_reason(const struct pisa_image *img, int r, char *out, size_t n)
{
	struct pisa_hwconf_limits lim;
	struct pisa_hwconf hc;
	char why[256];

	out[0] = 0;
	pisa_hwconf_limits_for(img->board, &lim);
	if (pisa_hwconf_build(img, &lim, &hc, why, sizeof(why)) == r)
		snprintf(out, n, " (the RTL core cannot run it: %.200s)", why);
	else
		pisa_hwconf_free(&hc);
}

static void do_load(struct daemon *d, struct client *c, const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, 0, n < 256 ? n : 256);
	char name[256], err[768];
	struct pisa_image *img = NULL;
	struct pisa_ctl *ctl;
	uint8_t *bytes;
	size_t len;
	int r;

	if (!nul) {
		reply(c, 1, "Error: malformed load request (no file name)\n");
		return;
	}
	snprintf(name, sizeof(name), "%s", (const char *)p);
	len = n - (size_t)(nul - p) - 1;
	p = nul + 1;
	if (image_accept(d, p, len, name, &img, err, sizeof(err)) < 0) {
		replyf(c, 1, "Error: %s\n", err);
		return;
	}
	if (!d->connected) {
		pisa_image_free(img);
		replyf(c, 1, "Error: the switch is not connected (%s)\n", d->down_why);
		return;
	}
	bytes = malloc(len ? len : 1);
	ctl = bytes ? pisa_ctl_new(img, &fw_ops, d) : NULL;
	if (!ctl) {
		free(bytes);
		pisa_image_free(img);
		reply(c, 1, "Error: no memory\n");
		return;
	}
	memcpy(bytes, p, len);
	r = pisa_link_load_image(d->link, bytes, len);
	if (r < 0) {
		char hw_why[256];

		refusal_reason(img, r, hw_why, sizeof(hw_why));
		replyf(c, 1, "Error: the switch refused %s: %s%s\n", name, pisa_link_detail(d->link),
		       hw_why);
		pisa_ctl_free(ctl);
		pisa_image_free(img);
		free(bytes);
		if (r == -PISA_E_IO)
			link_error(d, "loading an image", r);	/* restores the old one */
		return;
	}
	/* the switch runs the new program now: the old shadow is void */
	adopt(d, img, bytes, len, name, ctl);
	d->needs_init = 1;
	r = pisa_ctl_init(d->ctl);
	if (r == 0)
		r = pisa_link_flush(d->link);
	if (r < 0) {
		replyf(c, 1, "Error: writing the initial state of %s: %s\n", name,
		       d->link ? pisa_link_detail(d->link) : pisa_strerror(-r));
		/* a fresh shadow, initialised at the next restore */
		pisa_ctl_free(d->ctl);
		d->ctl = pisa_ctl_new(d->img, &fw_ops, d);
		if (r == -PISA_E_IO)
			link_error(d, "writing the initial state", r);
		else
			d->diverged = 1;
		return;
	}
	d->needs_init = 0;
	d->diverged = 0;
	logm(L_INFO, "loaded '%s' from %s (%zu bytes)", img->program, name, len);
	replyf(c, 0, "Loaded program '%s' (%zu bytes, board %s)\n", img->program, len, d->board);
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static void do_packet_out(struct daemon *d, struct client *c, char **argv, int argc)
{
	static uint8_t pkt[PISA_PROTO_MAX_PAYLOAD];
	size_t n = 0;
	unsigned long port;
	char *end;
	int i, r;

	if (argc < 3) {
		reply(c, 1, "Error: usage: packet-out PORT HEX (the packet's bytes in hex)\n");
		return;
	}
	errno = 0;
	port = strtoul(argv[1], &end, 0);
	if (*end || errno || port > 0xFFFF || argv[1][0] == '-') {
		replyf(c, 1, "Error: packet-out: bad port '%s'\n", argv[1]);
		return;
	}
	for (i = 2; i < argc; i++) {
		const char *s = argv[i];

		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		for (; *s; s++) {
			int hi, lo;

			if (*s == ':' || *s == '.' || *s == '-')
				continue;
			hi = hexval(s[0]);
			lo = s[1] ? hexval(s[1]) : -1;
			if (hi < 0 || lo < 0) {
				replyf(c, 1, "Error: packet-out: '%s' is not hex bytes\n", argv[i]);
				return;
			}
			if (n == sizeof(pkt)) {
				reply(c, 1, "Error: packet-out: packet too long\n");
				return;
			}
			pkt[n++] = (uint8_t)(hi << 4 | lo);
			s++;
		}
	}
	if (!d->connected) {
		replyf(c, 1, "Error: the switch is not connected (%s)\n", d->down_why);
		return;
	}
	r = pisa_link_packet_out(d->link, (uint16_t)port, pkt, n);
	if (r < 0) {
		replyf(c, 1, "Error: packet-out: %s\n", pisa_link_detail(d->link));
		if (r == -PISA_E_IO)
			link_error(d, "packet-out", r);
		return;
	}
	replyf(c, 0, "Sent %zu bytes into port %lu\n", n, port);
}

/* Appends to a reply being built in char buf[] at k (the two functions below). */
#define ADD(...) do { if (k < sizeof(buf)) k += (size_t)snprintf(buf + k, sizeof(buf) - k, __VA_ARGS__); } while (0)

/* port-counters [PORT...]: the MACs' counters of the ports named, else of every port. */
static void do_port_counters(struct daemon *d, struct client *c, char **argv, int argc)
{
	static const char *const head[PISA_PORT_COUNTERS] = {
		"rx_frames", "rx_bytes", "rx_fcs", "rx_runts", "rx_giants", "rx_drops",
		"tx_frames", "tx_bytes", "tx_drops"
	};
	uint64_t v[PISA_PORT_COUNTERS], bits = 0;
	unsigned long port[64];
	char buf[8192], *end;
	size_t k = 0;
	int i, j, n = 0, r;

	for (i = 1; i < argc; i++) {
		errno = 0;
		port[n] = strtoul(argv[i], &end, 0);
		if (*end || errno || port[n] > 0xFFFF || argv[i][0] == '-') {
			replyf(c, 1, "Error: port-counters: bad port '%s'\n", argv[i]);
			return;
		}
		n++;
	}
	if (!d->connected) {
		replyf(c, 1, "Error: the switch is not connected (%s)\n", d->down_why);
		return;
	}
	if (n == 0)	/* every port; only boards have MACs, and none more than 64 ports */
		for (; n < (int)d->info.ports && n < 64; n++)
			port[n] = (unsigned long)n;
	ADD("port");
	for (j = 0; j < PISA_PORT_COUNTERS; j++)
		ADD(" %10s", head[j]);
	ADD("\n");
	for (i = 0; i < n; i++) {
		r = pisa_link_port_counters(d->link, (uint16_t)port[i], v, &bits);
		if (r == -PISA_E_RANGE) {
			replyf(c, 1, "Error: port-counters: port %lu has no MAC (the switch has %u "
			       "ports)\n", port[i], d->info.ports);
			return;
		}
		if (r == -PISA_E_INVAL) {
			replyf(c, 1, "Error: port-counters: the switch has no MAC counters (pisa-model, "
			       "the co-simulation and a board top built with MAC_COUNTERS = 0 have "
			       "none)\n");
			return;
		}
		if (r < 0) {
			replyf(c, 1, "Error: port-counters: %s\n", pisa_link_detail(d->link));
			if (r == -PISA_E_IO)
				link_error(d, "port-counters", r);
			return;
		}
		ADD("%4lu", port[i]);
		for (j = 0; j < PISA_PORT_COUNTERS; j++)
			ADD(" %10llu", (unsigned long long)v[j]);
		ADD("\n");
	}
	ADD("(the MACs' counters, %llu bits wide: they wrap at %llu)\n", (unsigned long long)bits,
	    bits < 64 ? 1ull << bits : 0ull);
	reply(c, 0, buf);
}

static void do_status(struct daemon *d, struct client *c)
{
	struct pisa_link_stats st = { 0 };
	char buf[4096];
	size_t k = 0;
	struct client *o;
	unsigned lis = 0;

	for (o = d->clients; o; o = o->next)
		lis += o->listen ? 1 : 0;
	if (d->link)
		pisa_link_get_stats(d->link, &st);
	ADD("board: %s\n", d->board);
	ADD("transport: %s\n", d->tr.desc);
	if (d->connected) {
		ADD("switch: connected (board %s, version %u.%u, %u ports, cpu port %u, "
		    "%u stages, window %u, max payload %u)\n", d->info.board,
		    d->info.hw_version >> 8, d->info.hw_version & 0xff, d->info.ports,
		    d->info.cpu_port, d->info.stages, d->info.window, d->info.max_payload);
	} else {
		ADD("switch: not connected (%s)\n", d->down_why);
	}
	if (d->img)
		ADD("program: %s from %s (%zu bytes, crc 0x%08x)%s\n", d->img->program,
		    d->img_name, d->img_len, pisa_crc32(0, d->img_bytes, d->img_len),
		    d->diverged ? ", SWITCH DIFFERS FROM THE SHADOW (see the log)" :
		    d->needs_init ? ", not yet written" : "");
	else
		ADD("program: none (pisactl load PROG.pisa)\n");
	ADD("connects: %lu, link errors: %lu, restores: %lu%s%s%s\n", d->connects,
	    d->link_errors, d->restores, d->restores ? " (last: " : "", d->last_restore,
	    d->restores ? ")" : "");
	ADD("link: %llu frames, %llu retransmits, %llu acks, %llu ops, %llu packet-ins, "
	    "%llu digests, %llu bad crc\n", (unsigned long long)st.frames_sent,
	    (unsigned long long)st.retransmits, (unsigned long long)st.acks,
	    (unsigned long long)st.ops, (unsigned long long)st.packet_ins,
	    (unsigned long long)st.digests, (unsigned long long)st.bad_crc);
	ADD("clients: %u (%u listening, %llu events dropped)\n", d->nclients, lis,
	    (unsigned long long)d->events_dropped);
#undef ADD
	reply(c, 0, buf);
}

static uint64_t link_ops(struct daemon *d)
{
	struct pisa_link_stats st = { 0 };

	if (d->link)
		pisa_link_get_stats(d->link, &st);
	return st.ops;
}

/*
 * Flushes the link for the client's pending commands and sends their
 * results, in order: all done; or up to the one with the op the switch
 * refused, that one failed, the ones after it not confirmed (later frames
 * of the batch may have run: the shadow has them, and pisad marks the
 * switch as diverged); or, when the link failed, as for a single command.
 */
static void flush_pending(struct daemon *d, struct client *c)
{
	uint64_t base;
	long failed = -1;
	unsigned i;
	int r = 0, relinked = 0;

	if (!c->npend)
		return;
	base = c->pend[0].op0;
	if (d->connected) {
		r = pisa_link_flush(d->link);
		failed = pisa_link_failed_op(d->link);
		if (r == -PISA_E_IO) {
			link_error(d, "writing", r);
			relinked = try_connect(d, 0) == 0 && d->connected;
		} else if (r < 0) {
			d->diverged = 1;
			logm(L_ERR, "the switch refused a write of '%s': %s",
			     c->pend[0].line, pisa_link_detail(d->link));
		}
	}
	for (i = 0; i < c->npend; i++) {
		struct pending *pc = &c->pend[i];
		const char *out = pc->out ? pc->out : "";

		if (r == 0 || (r == -PISA_E_IO && relinked)) {
			client_msg(c, HC_MSG_RESULT, 0, out, pc->olen);
		} else if (r == -PISA_E_IO) {
			replyf(c, 1, "%sError: the link to the switch failed; pisad holds the change "
			       "and writes it when the switch is back\n", out);
		} else if (failed >= 0 && (uint64_t)failed < pc->op0 - base) {
			client_msg(c, HC_MSG_RESULT, 0, out, pc->olen);
		} else if (failed < 0 || (uint64_t)failed < pc->op1 - base) {
			replyf(c, 1, "%sError: the switch refused the write: %s\n", out,
			       pisa_link_detail(d->link));
		} else {
			replyf(c, 1, "%sError: not confirmed: the switch refused an earlier write in "
			       "the same batch\n", out);
		}
		free(pc->out);
		free(pc->line);
	}
	c->npend = 0;
}

/*
 * Runs a simple_switch_CLI command through the shadow; its writes join the
 * client's pending batch (flush_pending sends the result).
 */
static void do_ctl(struct daemon *d, struct client *c, const char *line)
{
	char err[2048] = "", *out = NULL;
	size_t olen = 0;
	uint64_t op0 = link_ops(d);
	FILE *f;
	int r;

	if (!d->ctl) {
		flush_pending(d, c);
		reply(c, 1, "Error: no program loaded (pisactl load PROG.pisa)\n");
		return;
	}
	f = open_memstream(&out, &olen);
	if (!f) {
		flush_pending(d, c);
		reply(c, 1, "Error: no memory\n");
		return;
	}
	r = pisa_ctl_exec(d->ctl, line, f, err, sizeof(err));
	fclose(f);
	if (r == 0 && d->connected) {
		struct pending *pc = &c->pend[c->npend++];

		pc->out = out;
		pc->olen = olen;
		pc->line = strdup(line);
		pc->op0 = op0;
		pc->op1 = link_ops(d);
		if (c->npend == BATCH_MAX)
			flush_pending(d, c);
		return;
	}
	flush_pending(d, c);
	if (r < 0) {
		if (r == -PISA_E_IO && d->connected)
			link_error(d, "a request", r);
		if (r == -PISA_E_IO && !d->connected)
			replyf(c, 1, "%sError: %s (the switch is not connected: %s)\n", out ? out : "",
			       err[0] ? err : pisa_strerror(-r), d->down_why);
		else
			replyf(c, 1, "%sError: %s\n", out ? out : "", err[0] ? err : pisa_strerror(-r));
		free(out);
		return;
	}
	/* not connected: the shadow has it, a restore writes it */
	client_msg(c, HC_MSG_RESULT, 0, out ? out : "", olen);
	free(out);
}

static void handle_cmd(struct daemon *d, struct client *c, const uint8_t *p, size_t n)
{
	char line[HC_MAX_CMD + 1], copy[HC_MAX_CMD + 1];
	char *argv[64], *save = NULL, *tok;
	int argc = 0;

	if (n > HC_MAX_CMD) {
		reply(c, 1, "Error: command line too long\n");
		return;
	}
	if (memchr(p, 0, n)) {
		reply(c, 1, "Error: a NUL byte in the command line\n");
		return;
	}
	memcpy(line, p, n);
	line[n] = 0;
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	memcpy(copy, line, n + 1);
	for (tok = strtok_r(copy, " \t", &save); tok && argc < 64; tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	logm(L_DEBUG, "request: %s", line);
	if (argc == 0 || !strcmp(argv[0], "status") || !strcmp(argv[0], "listen") ||
	    !strcmp(argv[0], "packet-out") || !strcmp(argv[0], "load") ||
	    !strcmp(argv[0], "port-counters"))
		flush_pending(d, c);	/* the results before this one go first */
	if (argc == 0) {
		reply(c, 0, "");
	} else if (!strcmp(argv[0], "status")) {
		do_status(d, c);
	} else if (!strcmp(argv[0], "listen")) {
		c->listen = 1;
		reply(c, 0, "Listening for packet-in and digests\n");
	} else if (!strcmp(argv[0], "packet-out")) {
		do_packet_out(d, c, argv, argc);
	} else if (!strcmp(argv[0], "port-counters")) {
		do_port_counters(d, c, argv, argc);
	} else if (!strcmp(argv[0], "load")) {
		reply(c, 1, "Error: load: the client sends the image's bytes (pisactl load FILE)\n");
	} else {
		do_ctl(d, c, line);
	}
}

static void client_read(struct daemon *d, struct client *c)
{
	for (;;) {
		const uint8_t *payload;
		uint8_t type;
		size_t plen;
		ssize_t n;
		long m;

		if (c->in_cap - c->in_len < 65536 && c->in_cap < HC_MAX_MSG + HC_LEN_BYTES) {
			size_t cap = c->in_cap ? c->in_cap * 2 : 65536;
			uint8_t *np;

			if (cap > HC_MAX_MSG + HC_LEN_BYTES)
				cap = HC_MAX_MSG + HC_LEN_BYTES;
			np = realloc(c->in, cap);
			if (!np) {
				c->dead = 1;
				return;
			}
			c->in = np;
			c->in_cap = cap;
		}
		n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			c->dead = 1;
			return;
		}
		if (n < 0)
			return;
		c->in_len += (size_t)n;
		while ((m = hc_parse(c->in, c->in_len, HC_MAX_MSG, &type, &payload, &plen)) != 0) {
			if (m < 0) {
				logm(L_WARN, "client sent a message with a bad length: dropped it");
				flush_pending(d, c);
				reply(c, 1, "Error: bad message length\n");
				c->dead = 1;
				return;
			}
			if (type == HC_MSG_CMD) {
				handle_cmd(d, c, payload, plen);
			} else {
				flush_pending(d, c);
				if (type == HC_MSG_LOAD)
					do_load(d, c, payload, plen);
				else
					replyf(c, 1, "Error: unknown message type 0x%02x\n", type);
			}
			memmove(c->in, c->in + m, c->in_len - (size_t)m);
			c->in_len -= (size_t)m;
			if (c->dead) {
				flush_pending(d, c);
				return;
			}
		}
		/* everything that arrived is done: its writes go out together */
		flush_pending(d, c);
	}
}

static void accept_clients(struct daemon *d)
{
	for (;;) {
		int fd = accept4(d->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct client *c;

		if (fd < 0)
			return;
		if (d->nclients >= MAX_CLIENTS) {
			logm(L_WARN, "too many clients: refused one");
			close(fd);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->next = d->clients;
		d->clients = c;
		d->nclients++;
		logm(L_DEBUG, "client connected");
	}
}

static void reap_clients(struct daemon *d)
{
	struct client **pp = &d->clients;

	while (*pp) {
		struct client *c = *pp;

		if (!c->dead) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		close(c->fd);
		free(c->in);
		free(c->out);
		free(c);
		d->nclients--;
		logm(L_DEBUG, "client gone");
	}
}

/* ---- setup ---- */

static int open_socket(struct daemon *d, const char *path)
{
	struct sockaddr_un sa;
	struct stat sb;
	mode_t old;
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		logm(L_ERR, "--socket %s: longer than %zu bytes", path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (lstat(path, &sb) == 0) {
		if (!S_ISSOCK(sb.st_mode)) {
			logm(L_ERR, "%s exists and is not a socket", path);
			return -1;
		}
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(fd);
			logm(L_ERR, "another pisad is serving %s", path);
			return -1;
		}
		if (fd >= 0)
			close(fd);
		unlink(path);	/* a stale socket from a pisad that died */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		logm(L_ERR, "socket: %s", strerror(errno));
		return -1;
	}
	old = umask(0117);	/* owner and group only, from the start */
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0 || chmod(path, 0660) < 0 || listen(fd, 16) < 0) {
		logm(L_ERR, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	d->lfd = fd;
	snprintf(d->sock_path, sizeof(d->sock_path), "%s", path);
	return 0;
}

/* pisa-model lives next to pisad (build/bin). */
static void self_dir(char *out, size_t n, const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (k <= 0) {
		snprintf(buf, sizeof(buf), "%s", argv0);
		k = (ssize_t)strlen(buf);
	}
	buf[k] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(buf, sizeof(buf), ".");
	snprintf(out, n, "%s", buf);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "pisad: %s%s\nTry 'pisad --help'.\n", msg, arg ? arg : "");
	return EXIT_USAGE;
}

/* The model: transport runs IMAGE: pisad takes it as its program. */
static int adopt_model_image(struct daemon *d, const char *path)
{
	struct pisa_image *img = NULL;
	struct pisa_ctl *ctl;
	char err[768];
	uint8_t *buf;
	size_t len;
	int r = pisa_file_read(path, HC_MAX_MSG, &buf, &len);

	if (r == -PISA_E_IO) {
		logm(L_ERR, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (r) {
		logm(L_ERR, "%s: too big or no memory", path);
		return -1;
	}
	if (image_accept(d, buf, len, path, &img, err, sizeof(err)) < 0) {
		logm(L_ERR, "%s", err);
		free(buf);
		return -1;
	}
	ctl = pisa_ctl_new(img, &fw_ops, d);
	if (!ctl) {
		pisa_image_free(img);
		free(buf);
		return -1;
	}
	adopt(d, img, buf, len, path, ctl);
	d->needs_init = 1;
	return 0;
}

/* Without --foreground: the parent waits for the start to succeed or fail
 * (through a pipe on the child's stderr) and exits with its outcome. */
static int daemonize(void)
{
	int pfd[2];
	pid_t pid;
	char buf[512];
	ssize_t n;
	int ok = 0, st;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		setsid();
		dup2(pfd[1], 2);
		close(pfd[1]);
		return 0;
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (buf[n - 1] == 1) {
			ok = 1;
			n--;
		}
		fwrite(buf, 1, (size_t)n, stderr);
		/* a pisa-model child keeps the pipe open: do not wait for EOF */
		if (ok)
			break;
	}
	if (ok)
		exit(EXIT_OK);
	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		exit(WEXITSTATUS(st));
	exit(EXIT_SYSTEM);
}

static void started(int foreground)
{
	int nul;

	if (foreground)
		return;
	openlog("pisad", LOG_PID, LOG_DAEMON);
	log_syslog = 1;
	fputc(1, stderr);
	fflush(stderr);
	nul = open("/dev/null", O_RDWR);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
		if (nul > 2)
			close(nul);
	}
	if (chdir("/") < 0)
		logm(L_WARN, "chdir /: %s", strerror(errno));
}

static void run(struct daemon *d)
{
	struct pollfd pfd[MAX_CLIENTS + 2];
	struct client *c;

	while (!stop) {
		uint64_t t = now_ms(), due;
		int n = 0, timeout, r, link_i = -1, i;

		pfd[n++] = (struct pollfd){ d->lfd, POLLIN, 0 };
		if (d->connected) {
			link_i = n;
			pfd[n++] = (struct pollfd){ d->link_fd, POLLIN, 0 };
		}
		for (c = d->clients; c && n < MAX_CLIENTS + 2; c = c->next)
			pfd[n++] = (struct pollfd){ c->fd,
				(short)(POLLIN | (c->out_off < c->out_len ? POLLOUT : 0)), 0 };
		due = d->connected ? d->heartbeat_at : d->retry_at;
		timeout = due > t ? (int)(due - t) : 0;
		r = poll(pfd, (nfds_t)n, timeout);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			logm(L_ERR, "poll: %s", strerror(errno));
			return;
		}
		if (link_i >= 0 && pfd[link_i].revents && d->connected) {
			r = pisa_link_poll(d->link, 0);
			if (r < 0) {
				d->link_errors++;
				link_down(d, "the switch closed the stream");
			}
		}
		if (pfd[0].revents & POLLIN)
			accept_clients(d);
		for (i = link_i >= 0 ? 2 : 1; i < n; i++) {
			for (c = d->clients; c && c->fd != pfd[i].fd; c = c->next)
				;
			if (!c || c->dead || !pfd[i].revents)
				continue;
			if (pfd[i].revents & POLLOUT)
				client_flush(c);
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				client_read(d, c);
		}
		t = now_ms();
		if (!d->connected && t >= d->retry_at) {
			if (try_connect(d, 1) < 0 && !d->connected) {
				d->retry_at = now_ms() + d->backoff_ms;
				d->backoff_ms = d->backoff_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS :
						d->backoff_ms * 2;
			}
		} else if (d->connected && t >= d->heartbeat_at) {
			heartbeat(d);
		}
		reap_clients(d);
	}
}

int main(int argc, char **argv)
{
	static struct daemon dm;
	struct daemon *d = &dm;
	const char *transport = "uart", *device = NULL, *sock = NULL, *lvl;
	char bindir[PATH_MAX], err[512];
	struct sigaction sa;
	int foreground = 0, i, r, rc = EXIT_OK;

	lvl = getenv("PISAD_LOG_LEVEL");
	if (lvl && *lvl && (log_level = parse_level(lvl)) < 0)
		return usage_error("PISAD_LOG_LEVEL: not err, warn, info or debug: ", lvl);
	if (log_level < 0)
		log_level = L_INFO;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--foreground")) {
			foreground = 1;
			continue;
		}
		if (strcmp(a, "--board") && strcmp(a, "--device") && strcmp(a, "--transport") &&
		    strcmp(a, "--socket") && strcmp(a, "--log-level") && strcmp(a, "--link-timeout"))
			return usage_error(a[0] == '-' ? "unknown option " : "unexpected argument ", a);
		if (!v || !*v)
			return usage_error("needs a value: ", a);
		i++;
		if (!strcmp(a, "--board"))
			d->board = v;
		else if (!strcmp(a, "--device"))
			device = v;
		else if (!strcmp(a, "--transport"))
			transport = v;
		else if (!strcmp(a, "--socket"))
			sock = v;
		else if (!strcmp(a, "--link-timeout")) {
			char *end;
			unsigned long ms = strtoul(v, &end, 10);

			if (*end || ms < 10 || ms > 60000)
				return usage_error("--link-timeout: not a number of ms (10 .. 60000): ", v);
			link_timeout_ms = (unsigned)ms;
		} else if ((log_level = parse_level(v)) < 0)
			return usage_error("--log-level: not err, warn, info or debug: ", v);
	}
	if (!d->board)
		return usage_error("--board NAME is required", NULL);
	if (!pisa_profile_find(d->board))
		return usage_error("--board: no such board profile: ", d->board);
	if (!sock)
		sock = hc_default_socket();

	if (!foreground && daemonize() < 0) {
		fprintf(stderr, "pisad: fork: %s\n", strerror(errno));
		return EXIT_SYSTEM;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	d->lfd = -1;
	d->link_fd = -1;
	self_dir(bindir, sizeof(bindir), argv[0]);
	if (transport_open(&d->tr, transport, device, bindir, err, sizeof(err)) < 0) {
		logm(L_ERR, "%s", err);
		return EXIT_USAGE;
	}
	if (!strncmp(transport, "model:", 6) && adopt_model_image(d, transport + 6) < 0) {
		rc = EXIT_SWITCH;
		goto out;
	}
	if (open_socket(d, sock) < 0) {
		rc = EXIT_SYSTEM;
		goto out;
	}
	r = try_connect(d, 0);
	if (r < 0 || !d->connected) {
		if (r != -2)
			logm(L_ERR, "cannot reach the switch through %s: %s", d->tr.desc, d->down_why);
		rc = EXIT_SWITCH;
		goto out;
	}
	logm(L_INFO, "serving %s (board %s, transport %s)", d->sock_path, d->board, d->tr.desc);
	started(foreground);
	run(d);
	logm(L_INFO, "stopping");
out:
	while (d->clients) {
		d->clients->dead = 1;
		reap_clients(d);
	}
	if (d->link)
		pisa_link_close(d->link);
	if (d->tr.ops)
		d->tr.ops->destroy(&d->tr);
	if (d->lfd >= 0) {
		close(d->lfd);
		unlink(d->sock_path);
	}
	pisa_ctl_free(d->ctl);
	pisa_image_free(d->img);
	free(d->img_bytes);
	return rc;
}
