/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf_board.c: the board-level simulation as a switch (stf_board.h). The simulation serves two
 * Unix sockets in a temporary folder: "ctl" carries the control link's bytes to and from the
 * top's UART pins (sim/cosim/pisa_vpi.c), "pkt" the frames to and from its PHY pins
 * (sim/board/pisa_vpi_pkt.c: "b PORT COUNT LEN B.." per port, then "g"; "o PORT LEN B.." per
 * frame out, "c" and "t" lines, then "d").
 * The image is loaded and every table write made with lib/pisa_link.c, synchronously, exactly
 * as pisad does it over a board's UART.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pisa_file.h"
#include "pisa_link.h"
#include "stf_board.h"

#define START_MS 60000		/* the simulation serves its sockets */
#define ANSWER_MS 300000	/* a frame and what it caused */
#define MAX_LINE (65536 * 3 + 64)

struct stf_board {
	char dir[64], ctl[96], pkt[96];
	pid_t pid;
	int cfd, pfd;
	struct pisa_link *link;
	char *buf;
	size_t nbuf;
	int dead;
	char why[200];
};

static void die(struct stf_board *b, const char *why)
{
	if (!b->dead)
		snprintf(b->why, sizeof(b->why), "%s", why);
	b->dead = 1;
}

/* Connects to the socket at path once the simulation serves it. */
static int connect_to(struct stf_board *b, const char *path)
{
	struct sockaddr_un sa;
	int i, fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	for (i = 0; i < START_MS / 10; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		close(fd);
		if (waitpid(b->pid, NULL, WNOHANG) == b->pid) {
			b->pid = 0;
			return -1;
		}
		usleep(10000);
	}
	return -1;
}

struct stf_board *stf_board_new(const char *vvp, const char *vpi_dir, const char *image_path,
				FILE *log, char *err, size_t errlen)
{
	struct stf_board *b = calloc(1, sizeof(*b));
	char a_sock[128], a_pkt[128];
	uint8_t *img = NULL;
	size_t len;
	int e;

	if (!b || !(b->buf = malloc(MAX_LINE))) {
		free(b);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->cfd = b->pfd = -1;
	snprintf(b->dir, sizeof(b->dir), "/tmp/pisa-board.XXXXXX");
	if (!mkdtemp(b->dir)) {
		snprintf(err, errlen, "cannot make a temporary directory: %s", strerror(errno));
		b->dir[0] = '\0';
		goto fail;
	}
	snprintf(b->ctl, sizeof(b->ctl), "%s/ctl", b->dir);
	snprintf(b->pkt, sizeof(b->pkt), "%s/pkt", b->dir);
	snprintf(a_sock, sizeof(a_sock), "+sock=%s", b->ctl);
	snprintf(a_pkt, sizeof(a_pkt), "+pkt=%s", b->pkt);
	e = pisa_file_read(image_path, 64u << 20, &img, &len);
	if (e < 0) {
		snprintf(err, errlen, "cannot read the image %s: %s", image_path, pisa_strerror(-e));
		goto fail;
	}
	fflush(NULL);
	b->pid = fork();
	if (b->pid < 0) {
		snprintf(err, errlen, "cannot start vvp: %s", strerror(errno));
		goto fail;
	}
	if (b->pid == 0) {
		int fd = log ? dup(fileno(log)) : open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		execlp("vvp", "vvp", "-n", "-M", vpi_dir, "-m", "pisa_vpi", "-m", "pisa_vpi_pkt", vvp,
		       a_sock, a_pkt, (char *)NULL);
		fprintf(stderr, "pisa-stf: cannot run vvp: %s\n", strerror(errno));
		_exit(127);
	}
	b->cfd = connect_to(b, b->ctl);
	b->pfd = b->cfd >= 0 ? connect_to(b, b->pkt) : -1;
	if (b->cfd < 0 || b->pfd < 0) {
		snprintf(err, errlen, "the board simulation %s did not start (built by 'make -C "
			 "sim/board'? -v shows its output)", vvp);
		goto fail;
	}
	b->link = pisa_link_open_fd(b->cfd);
	if (!b->link) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* simulated time runs some thousand times slower than a board's */
	pisa_link_set_timeout(b->link, 5000, 20);
	pisa_link_set_sync(b->link, 1);
	e = pisa_link_hello(b->link, NULL);
	if (e == 0)
		e = pisa_link_load_image(b->link, img, len);
	if (e < 0) {
		snprintf(err, errlen, "loading the image over the board's UART: %s (%s)",
			 pisa_strerror(-e), pisa_link_detail(b->link));
		goto fail;
	}
	free(img);
	return b;
fail:
	free(img);
	stf_board_free(b);
	return NULL;
}

void *stf_board_link(struct stf_board *b)
{
	return b->link;
}

/* The next line from the packet socket (NUL-terminated, without '\n'), or NULL. */
static char *get_line(struct stf_board *b)
{
	static char line[MAX_LINE];
	char *nl;

	while (!b->dead) {
		struct pollfd pfd = { .fd = b->pfd, .events = POLLIN };
		ssize_t n;

		nl = memchr(b->buf, '\n', b->nbuf);
		if (nl) {
			size_t len = (size_t)(nl - b->buf);

			memcpy(line, b->buf, len);
			line[len] = '\0';
			memmove(b->buf, nl + 1, b->nbuf - len - 1);
			b->nbuf -= len + 1;
			return line;
		}
		if (b->nbuf == MAX_LINE) {
			die(b, "the board simulation wrote an overlong line");
			break;
		}
		/* the control link may have sent something meanwhile (PACKET_IN, DIGEST) */
		pisa_link_poll(b->link, 0);
		if (poll(&pfd, 1, ANSWER_MS) <= 0) {
			die(b, "the board simulation did not answer a frame within 300 s");
			break;
		}
		n = read(b->pfd, b->buf + b->nbuf, MAX_LINE - b->nbuf);
		if (n <= 0) {
			die(b, "the board simulation ended (see its output with -v)");
			break;
		}
		b->nbuf += (size_t)n;
	}
	return NULL;
}

/* Writes a request line: the letter, its numbers, then the frame's bytes (if any). */
static int put_request(struct stf_board *b, const char *head, const uint8_t *d, size_t len)
{
	FILE *f = fdopen(dup(b->pfd), "w");
	size_t i;

	if (!f) {
		die(b, "cannot write to the board simulation");
		return -PISA_E_IO;
	}
	fputs(head, f);
	for (i = 0; i < len; i++)
		fprintf(f, " %02x", d[i]);
	fputc('\n', f);
	if (fclose(f) != 0) {
		die(b, "cannot write to the board simulation");
		return -PISA_E_IO;
	}
	return 0;
}

/* An "o PORT LEN B.." line to out; 0, or -1 when it is malformed. */
static int frame_out(char *line, stf_rtl_out_fn out, void *arg)
{
	static uint8_t frame[65536];
	unsigned oport;
	size_t i, n;
	char *p, *end;
	int used;

	if (sscanf(line + 1, "%x %zx%n", &oport, &n, &used) != 2 || n > sizeof(frame))
		return -1;
	p = line + 1 + used;
	for (i = 0; i < n; i++, p = end) {
		unsigned long v = strtoul(p, &end, 16);

		if (end == p || v > 0xFF)
			return -1;
		frame[i] = (uint8_t)v;
	}
	out(arg, (uint16_t)oport, frame, n);
	return 0;
}

/* "g" and its answer: frames to out, counters and times into res, up to the "d" line. */
static int go(struct stf_board *b, stf_rtl_out_fn out, void *arg, struct stf_board_burst *res)
{
	char *line = NULL;
	int ok = put_request(b, "g", NULL, 0) == 0;

	memset(res, 0, sizeof(*res));
	while (ok && (line = get_line(b)) && strcmp(line, "d")) {
		unsigned v[7];
		unsigned long long t[3];

		if (line[0] == 'o') {
			ok = frame_out(line, out, arg) == 0;
		} else if (line[0] == 'c' && sscanf(line + 1, "%x %x %x %x %x %x %x", &v[0], &v[1],
				&v[2], &v[3], &v[4], &v[5], &v[6]) == 7 && v[0] < STF_BOARD_MAX_PORTS) {
			res->mac[v[0]] = (struct stf_board_mac){ v[1], v[2], v[3], v[4], v[5], v[6],
								 0, 0, 0 };
			if (v[0] >= res->nports)
				res->nports = v[0] + 1;
		} else if (line[0] == 't' &&
			   sscanf(line + 1, "%llx %llx %llx", &t[0], &t[1], &t[2]) == 3) {
			res->in_ns = t[0];
			res->out_ns = t[1];
			res->clk_ns = (unsigned)t[2];
		} else {
			ok = 0;
		}
	}
	if (b->dead)
		return -PISA_E_IO;
	if (!ok || !line) {
		die(b, "the board simulation answered a request with something else");
		return -PISA_E_IO;
	}
	return 0;
}

/* "b PORT COUNT LEN B..": count copies of a frame staged for port. */
static int stage(struct stf_board *b, unsigned port, unsigned long count, const uint8_t *d,
		 size_t len)
{
	char head[64];

	if (len == 0 || len > 65535)
		return -PISA_E_INVAL;
	snprintf(head, sizeof(head), "b %x %lx %zx", port, count, len);
	return put_request(b, head, d, len);
}

int stf_board_inject(struct stf_board *b, unsigned port, const uint8_t *d, size_t len,
		     stf_rtl_out_fn out, void *arg)
{
	struct stf_board_burst res;
	int e;

	if (b->dead)
		return -PISA_E_IO;
	e = stage(b, port, 1, d, len);
	return e < 0 ? e : go(b, out, arg, &res);
}

/* The MAC counters of port p as a host reads them (READ kind 4 over the UART, as pisactl
 * port-counters does): the ones the testbench read from the MACs' registers must agree. */
static int link_counters(struct stf_board *b, unsigned p, struct stf_board_mac *m)
{
	uint64_t v[PISA_PORT_COUNTERS], bits;
	char why[200];
	int e = pisa_link_port_counters(b->link, (uint16_t)p, v, &bits);

	if (e < 0) {
		snprintf(why, sizeof(why), "reading port %u's MAC counters over the control link: %s",
			 p, pisa_link_detail(b->link));
		die(b, why);
		return e;
	}
	if (bits != 16 || v[PISA_PC_RX_FRAMES] != m->rx_frames ||
	    v[PISA_PC_RX_DROPS] != m->rx_drops || v[PISA_PC_RX_FCS_ERRORS] != m->rx_fcs_errors ||
	    v[PISA_PC_RX_RUNTS] != m->rx_runts || v[PISA_PC_RX_GIANTS] != m->rx_giants ||
	    v[PISA_PC_TX_DROPS] != m->tx_drops) {
		snprintf(why, sizeof(why), "port %u's MAC counters over the control link (%llu bits: "
			 "rx %llu, drops %llu, FCS %llu, runts %llu, giants %llu, tx drops %llu) "
			 "differ from the MAC's own (%u, %u, %u, %u, %u, %u)", p,
			 (unsigned long long)bits, (unsigned long long)v[PISA_PC_RX_FRAMES],
			 (unsigned long long)v[PISA_PC_RX_DROPS],
			 (unsigned long long)v[PISA_PC_RX_FCS_ERRORS],
			 (unsigned long long)v[PISA_PC_RX_RUNTS],
			 (unsigned long long)v[PISA_PC_RX_GIANTS],
			 (unsigned long long)v[PISA_PC_TX_DROPS], m->rx_frames, m->rx_drops,
			 m->rx_fcs_errors, m->rx_runts, m->rx_giants, m->tx_drops);
		die(b, why);
		return -PISA_E_IO;
	}
	m->rx_bytes = (unsigned)v[PISA_PC_RX_BYTES];
	m->tx_frames = (unsigned)v[PISA_PC_TX_FRAMES];
	m->tx_bytes = (unsigned)v[PISA_PC_TX_BYTES];
	return 0;
}

int stf_board_burst(struct stf_board *b, unsigned nports, const uint8_t *const *frame,
		    const size_t *len, unsigned long count, stf_rtl_out_fn out, void *arg,
		    struct stf_board_burst *res)
{
	unsigned p;
	int e;

	if (b->dead)
		return -PISA_E_IO;
	if (nports > STF_BOARD_MAX_PORTS || count > 0xFFFFFF)
		return -PISA_E_INVAL;
	for (p = 0; count && p < nports; p++) {
		e = len[p] ? stage(b, p, count, frame[p], len[p]) : 0;
		if (e < 0)
			return e;
	}
	e = go(b, out, arg, res);
	for (p = 0; e == 0 && p < res->nports; p++)
		e = link_counters(b, p, &res->mac[p]);
	return e;
}

const char *stf_board_error(const struct stf_board *b)
{
	return b->dead ? b->why : NULL;
}

void stf_board_free(struct stf_board *b)
{
	if (!b)
		return;
	if (b->link)
		pisa_link_close(b->link);
	if (b->pfd >= 0)
		close(b->pfd);	/* the simulation finishes when its packet peer goes */
	if (b->cfd >= 0)
		close(b->cfd);
	if (b->pid > 0) {
		int i;

		for (i = 0; i < 500 && waitpid(b->pid, NULL, WNOHANG) == 0; i++)
			usleep(10000);
		if (i == 500) {
			kill(b->pid, SIGKILL);
			waitpid(b->pid, NULL, 0);
		}
	}
	unlink(b->ctl);
	unlink(b->pkt);
	if (b->dir[0])
		rmdir(b->dir);
	free(b->buf);
	free(b);
}
