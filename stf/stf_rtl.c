/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf_rtl.c: the RTL as a switch. Runs the Icarus harness
 * (sim/tb/tb_pisa_harness.v, pisa_core inside) as a child and talks to it
 * over two named pipes, one line per command or packet and its answer, so a
 * write gets its real error, a read its value, and a packet is done (with
 * everything it sent) before the call returns: the same contract as
 * pisa-model's ops and inject. Line formats: the harness's header comment.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pisa_hwconf.h"
#include "stf_rtl.h"

#define ANSWER_S 120	/* the longest a command or packet may take in simulation */
#define MAX_LINE (2 * 65536 * 3 + 64)

/* $PISA_RTL_TIMEOUT seconds, else ANSWER_S: a gate-level netlist runs far slower */
static int answer_ms(void)
{
	const char *env = getenv("PISA_RTL_TIMEOUT");
	int s = env ? atoi(env) : 0;

	return (s > 0 && s <= 86400 ? s : ANSWER_S) * 1000;
}

struct stf_rtl {
	char dir[64];
	char cfg[96], stim[96], out[96];
	pid_t pid;
	FILE *sf;		/* stimulus, to the harness */
	int of;			/* answers, from the harness */
	char *buf;		/* answer bytes not yet consumed */
	size_t nbuf;
	int dead;		/* the harness failed: every call fails */
	char why[160];
	FILE *log;
	stf_rtl_out_fn digest;	/* NULL: digests are dropped */
	void *digest_arg;
};

void stf_rtl_set_digest_cb(struct stf_rtl *r, stf_rtl_out_fn fn, void *arg)
{
	r->digest = fn;
	r->digest_arg = arg;
}

static void die(struct stf_rtl *r, const char *why)
{
	if (!r->dead)
		snprintf(r->why, sizeof(r->why), "%s", why);
	r->dead = 1;
}

/* The next answer line (NUL-terminated, without '\n'), or NULL. */
static char *get_line(struct stf_rtl *r)
{
	static char line[MAX_LINE];
	char *nl;

	while (!r->dead) {
		struct pollfd pfd = { .fd = r->of, .events = POLLIN };
		ssize_t n;

		nl = memchr(r->buf, '\n', r->nbuf);
		if (nl) {
			size_t len = (size_t)(nl - r->buf);

			memcpy(line, r->buf, len);
			line[len] = '\0';
			memmove(r->buf, nl + 1, r->nbuf - len - 1);
			r->nbuf -= len + 1;
			return line;
		}
		if (r->nbuf == MAX_LINE) {
			die(r, "the harness wrote an overlong line");
			break;
		}
		if (poll(&pfd, 1, answer_ms()) <= 0) {
			die(r, "the simulation did not answer in time (120 s, or $PISA_RTL_TIMEOUT)");
			break;
		}
		n = read(r->of, r->buf + r->nbuf, MAX_LINE - r->nbuf);
		if (n <= 0) {
			die(r, "the simulation ended (see its output with -v)");
			break;
		}
		r->nbuf += (size_t)n;
	}
	return NULL;
}

static void put_bytes(FILE *f, const uint8_t *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, " %02x", d[i]);
	fputc('\n', f);
}

/* One command; its answer's err (negated), a and b. */
static int command(struct stf_rtl *r, unsigned kind, unsigned id, uint32_t index, unsigned flag,
		   const uint8_t *d, size_t n, uint64_t *a, uint64_t *b)
{
	unsigned long long va, vb;
	unsigned e;
	char *l;

	if (r->dead)
		return -PISA_E_IO;
	fprintf(r->sf, "c %x %x %" PRIx32 " %x %zx", kind, id, index, flag, n);
	put_bytes(r->sf, d, n);
	if (fflush(r->sf) != 0) {
		die(r, "cannot write to the simulation");
		return -PISA_E_IO;
	}
	l = get_line(r);
	if (!l)
		return -PISA_E_IO;
	if (sscanf(l, "r %x %llx %llx", &e, &va, &vb) != 3 || e > 255) {
		die(r, "the simulation answered a command with something else");
		return -PISA_E_IO;
	}
	if (a)
		*a = va;
	if (b)
		*b = vb;
	return -(int)e;
}

static void le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static int op_write_row(void *sw, uint16_t table, uint32_t index, const uint8_t *row, size_t len)
{
	return command(sw, 1, table, index, 0, row, len, NULL, NULL);
}

static int op_counter_write(void *sw, uint16_t id, uint32_t index, uint64_t packets,
			    uint64_t bytes)
{
	uint8_t d[16];

	le64(d, packets);
	le64(d + 8, bytes);
	return command(sw, 2, id, index, 0, d, sizeof(d), NULL, NULL);
}

static int op_register_write(void *sw, uint16_t id, uint32_t index, uint64_t value)
{
	uint8_t d[8];

	le64(d, value);
	return command(sw, 3, id, index, 0, d, sizeof(d), NULL, NULL);
}

/* The body layouts of pisa_link_ctrl's beats (docs/control-protocol.md WRITE). */
static int op_meter_write(void *sw, uint16_t id, uint32_t index, const struct pisa_meter_cfg *c)
{
	uint8_t d[16];
	uint32_t v[4] = { c->cir_q16, c->pir_q16, c->cbs, c->pbs };
	int i;

	for (i = 0; i < 4; i++) {
		le16(d + 4 * i, (uint16_t)v[i]);
		le16(d + 4 * i + 2, (uint16_t)(v[i] >> 16));
	}
	return command(sw, 4, id, index, c->configured, d, sizeof(d), NULL, NULL);
}

static int op_mcast_write(void *sw, uint16_t group, uint16_t n, const struct pisa_mc_copy *c)
{
	uint8_t *d = malloc(4 * (size_t)n + 1);
	unsigned i;
	int e;

	if (!d)
		return -PISA_E_NOMEM;
	for (i = 0; i < n; i++) {
		le16(d + 4 * i, c[i].rid);
		le16(d + 4 * i + 2, c[i].port);
	}
	e = command(sw, 5, group, n, 0, d, 4 * (size_t)n, NULL, NULL);
	free(d);
	return e;
}

static int op_clone_write(void *sw, uint16_t session, const struct pisa_clone_cfg *c)
{
	uint8_t d[6];

	le16(d, c->port);
	le16(d + 2, c->mcast_grp);
	le16(d + 4, c->truncate);
	return command(sw, 6, session, 0, c->enabled, d, sizeof(d), NULL, NULL);
}

static int op_counter_read(void *sw, uint16_t id, uint32_t index, uint64_t *p, uint64_t *b)
{
	return command(sw, 10, id, index, 0, NULL, 0, p, b);
}

static int op_register_read(void *sw, uint16_t id, uint32_t index, uint64_t *v)
{
	return command(sw, 11, id, index, 0, NULL, 0, v, NULL);
}

const struct pisa_switch_ops stf_rtl_ops = {
	.write_row = op_write_row,
	.counter_read = op_counter_read,
	.counter_write = op_counter_write,
	.register_read = op_register_read,
	.register_write = op_register_write,
	.meter_write = op_meter_write,
	.mcast_write = op_mcast_write,
	.clone_write = op_clone_write,
};

static int write_cfg(struct stf_rtl *r, const struct pisa_image *img, uint32_t *nwords,
		     char *err, size_t errlen)
{
	struct pisa_hwconf hc;
	FILE *f;
	uint32_t i;
	int e = pisa_hwconf_build(img, &pisa_hwconf_sim_limits, &hc, err, errlen);

	if (e < 0)
		return e;
	f = fopen(r->cfg, "w");
	for (i = 0; f && i < hc.nwords; i++)
		fprintf(f, "%016" PRIx64 "\n", hc.words[i]);
	*nwords = hc.nwords;
	pisa_hwconf_free(&hc);
	if (!f || fclose(f) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", r->cfg, strerror(errno));
		return -PISA_E_IO;
	}
	return 0;
}

/* Opens the stimulus pipe once the harness opened its end; gives up when vvp
 * exited first (a bad harness file) or after the answer time. */
static FILE *open_stim(struct stf_rtl *r)
{
	int fd, i;

	for (i = 0; i < answer_ms() / 10; i++) {
		fd = open(r->stim, O_WRONLY | O_NONBLOCK);
		if (fd >= 0) {
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			return fdopen(fd, "w");
		}
		if (errno != ENXIO || waitpid(r->pid, NULL, WNOHANG) == r->pid) {
			r->pid = 0;
			return NULL;
		}
		usleep(10000);
	}
	return NULL;
}

struct stf_rtl *stf_rtl_new(const struct pisa_image *img, const char *harness, FILE *log,
			    char *err, size_t errlen)
{
	struct stf_rtl *r = calloc(1, sizeof(*r));
	char a_cfg[128], a_ncfg[32], a_stim[128], a_out[128];
	uint32_t ncfg = 0;

	if (!r || !(r->buf = malloc(MAX_LINE))) {
		free(r);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->of = -1;
	r->log = log;
	snprintf(r->dir, sizeof(r->dir), "/tmp/pisa-rtl.XXXXXX");
	if (!mkdtemp(r->dir)) {
		snprintf(err, errlen, "cannot make a temporary directory: %s", strerror(errno));
		r->dir[0] = '\0';
		goto fail;
	}
	snprintf(r->cfg, sizeof(r->cfg), "%s/cfg.hex", r->dir);
	snprintf(r->stim, sizeof(r->stim), "%s/stim", r->dir);
	snprintf(r->out, sizeof(r->out), "%s/out", r->dir);
	if (write_cfg(r, img, &ncfg, err, errlen) < 0)
		goto fail;
	if (mkfifo(r->stim, 0600) < 0 || mkfifo(r->out, 0600) < 0) {
		snprintf(err, errlen, "cannot make the pipes in %s: %s", r->dir, strerror(errno));
		goto fail;
	}
	snprintf(a_cfg, sizeof(a_cfg), "+cfg=%s", r->cfg);
	snprintf(a_ncfg, sizeof(a_ncfg), "+ncfg=%u", ncfg);
	snprintf(a_stim, sizeof(a_stim), "+stim=%s", r->stim);
	snprintf(a_out, sizeof(a_out), "+out=%s", r->out);
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(err, errlen, "cannot start vvp: %s", strerror(errno));
		goto fail;
	}
	if (r->pid == 0) {
		/* vvp's own messages go to the log (stderr with -v), else nowhere */
		int fd = log ? dup(fileno(log)) : open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		execlp("vvp", "vvp", "-n", harness, a_cfg, a_ncfg, a_stim, a_out, (char *)NULL);
		fprintf(stderr, "pisa-stf: cannot run vvp: %s\n", strerror(errno));
		_exit(127);
	}
	/* the harness opens stim, then out: the same order, or both sides wait forever */
	r->sf = open_stim(r);
	r->of = r->sf ? open(r->out, O_RDONLY) : -1;
	if (!r->sf || r->of < 0) {
		snprintf(err, errlen, "the simulation %s did not start (is it a harness built by "
			 "'make -C hw harness', and vvp installed? -v shows its output)", harness);
		goto fail;
	}
	/* the harness answers "l" when the image is loaded */
	{
		char *l = get_line(r);

		if (!l || strcmp(l, "l")) {
			snprintf(err, errlen, "the simulation of %s did not start: %s", harness,
				 l ? "unexpected answer" : r->why);
			goto fail;
		}
	}
	return r;
fail:
	stf_rtl_free(r);
	return NULL;
}

int stf_rtl_inject(struct stf_rtl *r, unsigned port, const uint8_t *d, size_t len, uint64_t now,
		   stf_rtl_out_fn out, void *arg)
{
	static uint8_t buf[65536];
	char *l;

	if (r->dead)
		return -PISA_E_IO;
	if (len == 0 || len > sizeof(buf))
		return -PISA_E_INVAL;	/* the packet stream carries 1 .. 65535 bytes */
	fprintf(r->sf, "p %x %" PRIx64 " %zx", port, now, len);
	put_bytes(r->sf, d, len);
	if (fflush(r->sf) != 0) {
		die(r, "cannot write to the simulation");
		return -PISA_E_IO;
	}
	while ((l = get_line(r)) && (l[0] == 'o' || l[0] == 'g')) {
		unsigned oport;
		size_t n, i;
		int used;
		char *p, *end;

		if (sscanf(l + 1, "%x %zx%n", &oport, &n, &used) != 2 || n > sizeof(buf))
			break;
		p = l + 1 + used;
		for (i = 0; i < n; i++, p = end) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p || v > 0xFF)
				break;
			buf[i] = (uint8_t)v;
		}
		if (i < n)
			break;
		if (l[0] == 'o')
			out(arg, (uint16_t)oport, buf, n);
		else if (r->digest)
			r->digest(r->digest_arg, (uint16_t)oport, buf, n);	/* oport: the id */
	}
	if (!l || strcmp(l, "d")) {
		die(r, "the simulation answered a packet with something else");
		return -PISA_E_IO;
	}
	return 0;
}

/* Sends a one-line statement without data and returns its answer line, or NULL
 * (the simulation is then dead). */
static char *ask(struct stf_rtl *r, const char *stmt)
{
	if (r->dead)
		return NULL;
	fprintf(r->sf, "%s\n", stmt);
	if (fflush(r->sf) != 0) {
		die(r, "cannot write to the simulation");
		return NULL;
	}
	return get_line(r);
}

int stf_rtl_backpressure(struct stf_rtl *r, int on)
{
	char *l;

	l = ask(r, on ? "b 1" : "b 0");
	if (!l || strcmp(l, "b")) {
		die(r, "the simulation answered a back-pressure request with something else");
		return -PISA_E_IO;
	}
	return 0;
}

int stf_rtl_stats(struct stf_rtl *r, struct stf_rtl_stats *st)
{
	unsigned long long v[5];
	char *l;

	l = ask(r, "s");
	if (!l || sscanf(l, "s %llx %llx %llx %llx %llx", &v[0], &v[1], &v[2], &v[3], &v[4]) != 5) {
		die(r, "the simulation answered a stats request with something else");
		return -PISA_E_IO;
	}
	st->rx = v[0];
	st->tx = v[1];
	st->drop = v[2];
	st->oversize = v[3];
	st->cycles = v[4];
	return 0;
}

const char *stf_rtl_error(const struct stf_rtl *r)
{
	return r->dead ? r->why : NULL;
}

void stf_rtl_free(struct stf_rtl *r)
{
	char *l;

	if (!r)
		return;
	if (r->sf && !r->dead) {
		fprintf(r->sf, "q\n");
		fflush(r->sf);
		l = get_line(r);
		if (l && l[0] == 'e' && r->log)
			fprintf(r->log, "stf: rtl: rx tx drop oversize cycles:%s\n", l + 1);
	}
	if (r->sf)
		fclose(r->sf);
	if (r->of >= 0)
		close(r->of);
	if (r->pid > 0) {
		if (r->dead)
			kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
	}
	unlink(r->cfg);
	unlink(r->stim);
	unlink(r->out);
	if (r->dir[0])
		rmdir(r->dir);
	free(r->buf);
	free(r);
}
