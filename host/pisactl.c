/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisactl.c: the command line of an OpenPISA switch. It sends
 * simple_switch_CLI commands (and load, packet-out, port-counters, listen, status) to
 * pisad and prints the answers: one command from the arguments, a commands
 * file on stdin, or an interactive prompt. flash talks to the board itself,
 * not to pisad (pisactl_flash.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "hostcommon.h"
#include "pisa_file.h"
#include "pisa_image.h"
#include "pisactl_flash.h"

#define EXIT_OK 0
#define EXIT_FAILED 1
#define EXIT_NO_PISAD 2
#define EXIT_USAGE 3

static const char usage_text[] =
"usage: pisactl [--socket PATH] [COMMAND ARGS...]\n"
"       pisactl [--socket PATH] < COMMANDS-FILE\n"
"       pisactl [--socket PATH]            (interactive, prompt 'RuntimeCmd: ')\n"
"\n"
"Talks to pisad, which owns the switch. COMMAND is any BMv2 simple_switch_CLI\n"
"command (table_add, table_dump, counter_read, mc_mgrp_create, mirroring_add,\n"
"show_tables, switch_info, ...), with BMv2's syntax and output, or one of:\n"
"  load PROG.pisa        load a compiled program (checked against the board)\n"
"  packet-out PORT HEX   inject a packet (hex bytes) into ingress on PORT\n"
"  listen                print packet-ins and digests until interrupted\n"
"  status                the daemon's state: board, link, program, restores\n"
"  port-counters [PORT...]\n"
"                        the board's MAC counters (frames, bytes, FCS errors,\n"
"                        runts, giants, drops) of those ports, else of every port\n"
"  flash BITSTREAM [--board NAME] [--device SERIAL] [--cable NAME]\n"
"                        write a bitstream into the board's configuration flash\n"
"                        (talks to the board over USB, not to pisad; see below)\n"
"\n"
"A commands file on stdin runs line by line ('#' comments and blank lines are\n"
"skipped); a failing line is reported with its number and the rest still runs.\n"
"\n"
"  --socket PATH   pisad's socket. Default: $PISAD_SOCKET, else\n"
"                  $XDG_RUNTIME_DIR/pisad.sock, else /tmp/pisad.sock.\n"
"\n"
"Exit codes:\n"
"  0  ok\n"
"  1  a command failed (for a file: at least one line failed)\n"
"  2  cannot reach pisad\n"
"  3  usage error\n"
"\n"
PISACTL_FLASH_HELP;

static const char *sock_path;
static int pisad_fd = -1;
static volatile sig_atomic_t interrupted;

static int connect_pisad(void)
{
	struct sockaddr_un sa;
	int fd;

	if (pisad_fd >= 0)
		return 0;
	if (strlen(sock_path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "pisactl: socket path too long: %s\n", sock_path);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "pisactl: cannot reach pisad at %s: %s (is pisad running? "
			"--socket or $PISAD_SOCKET)\n", sock_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	pisad_fd = fd;
	return 0;
}

/* Reads one message; returns its type, or -1 when pisad closed or lied. */
static int read_msg(uint8_t **buf, size_t *cap, const uint8_t **payload, size_t *plen)
{
	size_t have = 0;

	for (;;) {
		uint8_t type;
		long m = hc_parse(*buf, have, HC_MAX_CMD + 16, &type, payload, plen);
		ssize_t n;

		if (m < 0)
			return -1;
		if (m > 0)
			return type;
		if (have == *cap) {
			size_t nc = *cap ? *cap * 2 : 4096;
			uint8_t *nb = realloc(*buf, nc);

			if (!nb)
				return -1;
			*buf = nb;
			*cap = nc;
		}
		/* read only up to the message's end: the next one stays queued */
		if (have < HC_LEN_BYTES) {
			n = read(pisad_fd, *buf + have, HC_LEN_BYTES - have);
		} else {
			size_t want = HC_LEN_BYTES + (size_t)((*buf)[0] | (*buf)[1] << 8 |
							    (size_t)(*buf)[2] << 16 |
							    (size_t)(*buf)[3] << 24);

			if (want > *cap) {
				uint8_t *nb = realloc(*buf, want);

				if (!nb)
					return -1;
				*buf = nb;
				*cap = want;
			}
			n = read(pisad_fd, *buf + have, want - have);
		}
		if (n < 0 && errno == EINTR && !interrupted)
			continue;
		if (n <= 0)
			return -1;
		have += (size_t)n;
	}
}

/* Waits for the result of a request; prints it. 0 ok, 1 failed, 2 pisad gone. */
static int await_result(int echo_events)
{
	static uint8_t *buf;
	static size_t cap;
	const uint8_t *p;
	size_t n;
	int t;

	for (;;) {
		t = read_msg(&buf, &cap, &p, &n);
		if (t < 0 && interrupted)
			return 2;
		if (t < 0) {
			fprintf(stderr, "pisactl: pisad closed the connection\n");
			return 2;
		}
		if (t == HC_MSG_EVENT) {
			if (echo_events) {
				fwrite(p, 1, n, stdout);
				fputc('\n', stdout);
				fflush(stdout);
			}
			continue;
		}
		if (t != HC_MSG_RESULT || n < 1) {
			fprintf(stderr, "pisactl: unexpected answer from pisad\n");
			return 2;
		}
		if (p[0] == 0) {
			fwrite(p + 1, 1, n - 1, stdout);
			fflush(stdout);
			return 0;
		}
		fwrite(p + 1, 1, n - 1, stderr);
		if (n > 1 && p[n - 1] != '\n')
			fputc('\n', stderr);
		return 1;
	}
}

static int send_load(const char *path)
{
	uint8_t *data;
	size_t len;
	int rc = pisa_file_read(path, HC_MAX_MSG - 512, &data, &len);

	if (rc == -PISA_E_IO) {
		fprintf(stderr, "Error: load: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (rc == -PISA_E_RANGE) {
		fprintf(stderr, "Error: load: %s: larger than %u bytes\n", path, HC_MAX_MSG - 512);
		return 1;
	}
	if (rc)
		return 1;
	rc = hc_send(pisad_fd, HC_MSG_LOAD, path, strlen(path) + 1, data, len) < 0 ? 2 : 0;
	free(data);
	if (rc) {
		fprintf(stderr, "pisactl: sending to pisad: %s\n", strerror(errno));
		return 2;
	}
	return await_result(0);
}

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int do_listen(void)
{
	struct sigaction sa;
	int r;

	if (hc_send(pisad_fd, HC_MSG_CMD, "listen", 6, NULL, 0) < 0)
		return 2;
	r = await_result(0);
	if (r)
		return r;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;	/* no SA_RESTART: read() returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* events until pisad goes away or we are interrupted */
	while (!interrupted) {
		r = await_result(1);
		if (r == 2)
			return interrupted ? 0 : 2;
	}
	return 0;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * Runs one line. Returns 0 ok, 1 failed, 2 pisad unreachable, 3 usage;
 * -1 for a line with nothing to run.
 */
static int run_line(const char *line)
{
	char word[32];
	const char *s = skip_ws(line), *e;
	size_t n, len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		len--;
	if (!len || s[0] == '#')
		return -1;
	for (e = s; *e && *e != ' ' && *e != '\t' && e < s + len; e++)
		;
	n = (size_t)(e - s);
	snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1), s);
	if (!strcmp(word, "flash")) {
		int fr = pisactl_flash_line(s, len);

		/* a commands file counts any failure as a failed line */
		return fr == 0 ? 0 : fr == PISACTL_FLASH_EXIT_USAGE ? 3 : 1;
	}
	if (len > HC_MAX_CMD) {
		fprintf(stderr, "Error: command line longer than %u bytes\n", HC_MAX_CMD);
		return 1;
	}
	if (connect_pisad() < 0)
		return 2;
	if (!strcmp(word, "load")) {
		char path[4096];
		const char *a = skip_ws(e);
		size_t al = len - (size_t)(a - s);

		if (!al || al >= sizeof(path) || memchr(a, ' ', al) || memchr(a, '\t', al)) {
			fprintf(stderr, "Error: usage: load PROG.pisa\n");
			return 1;
		}
		snprintf(path, sizeof(path), "%.*s", (int)al, a);
		return send_load(path);
	}
	if (!strcmp(word, "listen"))
		return do_listen();
	if (hc_send(pisad_fd, HC_MSG_CMD, s, len, NULL, 0) < 0) {
		fprintf(stderr, "pisactl: sending to pisad: %s\n", strerror(errno));
		return 2;
	}
	return await_result(0);
}

/*
 * A commands file: simple_switch_CLI lines go to pisad ahead of their
 * results, up to PIPE_MAX of them (results come back in order), so that
 * pisad can put the writes of many lines into one frame of the link; load,
 * listen and flash lines wait for everything before them.
 */
#define PIPE_MAX 256

struct sent_line {
	unsigned long no;
	char *text;
};

/* The oldest line's result; 2 if pisad is gone. */
static int take_result(struct sent_line *q, unsigned *head, unsigned *count,
		       unsigned long *failed)
{
	struct sent_line *l = &q[*head];
	int r = await_result(0);

	if (r == 1) {
		(*failed)++;
		fprintf(stderr, "pisactl: line %lu failed: %s%s", l->no, skip_ws(l->text),
			strchr(l->text, '\n') ? "" : "\n");
	}
	free(l->text);
	*head = (*head + 1) % PIPE_MAX;
	(*count)--;
	return r == 2 ? 2 : 0;
}

/* A line for pisad as it is: not empty, no comment, not load, listen or flash. */
static int plain_line(const char *line, const char **cmd, size_t *cmd_len)
{
	const char *s = skip_ws(line), *e;
	size_t len = strlen(s), n;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		len--;
	if (!len || s[0] == '#' || len > HC_MAX_CMD)
		return 0;
	for (e = s; e < s + len && *e != ' ' && *e != '\t'; e++)
		;
	n = (size_t)(e - s);
	if ((n == 4 && !strncmp(s, "load", 4)) || (n == 6 && !strncmp(s, "listen", 6)) ||
	    (n == 5 && !strncmp(s, "flash", 5)))
		return 0;
	*cmd = s;
	*cmd_len = len;
	return 1;
}

static int run_file(FILE *in)
{
	struct sent_line q[PIPE_MAX];
	unsigned head = 0, count = 0;
	char *line = NULL;
	size_t cap = 0, cmd_len;
	const char *cmd;
	unsigned long no = 0, failed = 0;
	int r, gone = 0;

	while (!gone && getline(&line, &cap, in) >= 0) {
		no++;
		if (plain_line(line, &cmd, &cmd_len)) {
			if (connect_pisad() < 0) {
				gone = 1;
				break;
			}
			q[(head + count) % PIPE_MAX] = (struct sent_line){ no, strdup(line) };
			if (!q[(head + count) % PIPE_MAX].text ||
			    hc_send(pisad_fd, HC_MSG_CMD, cmd, cmd_len, NULL, 0) < 0) {
				free(q[(head + count) % PIPE_MAX].text);
				fprintf(stderr, "pisactl: sending to pisad: %s\n", strerror(errno));
				gone = 1;
				break;
			}
			count++;
			if (count == PIPE_MAX && take_result(q, &head, &count, &failed) == 2)
				gone = 1;
			continue;
		}
		while (count && !gone)
			gone = take_result(q, &head, &count, &failed) == 2;
		if (gone)
			break;
		r = run_line(line);
		if (r < 0 || r == 0)
			continue;
		if (r == 2) {
			gone = 1;
			break;
		}
		failed++;
		fprintf(stderr, "pisactl: line %lu failed: %s%s", no, skip_ws(line),
			strchr(line, '\n') ? "" : "\n");
	}
	while (count && !gone)
		gone = take_result(q, &head, &count, &failed) == 2;
	while (count) {
		free(q[head].text);
		head = (head + 1) % PIPE_MAX;
		count--;
	}
	free(line);
	if (gone)
		return EXIT_NO_PISAD;
	if (failed)
		fprintf(stderr, "pisactl: %lu of the commands failed\n", failed);
	return failed ? EXIT_FAILED : EXIT_OK;
}

static int run_interactive(void)
{
	int r;
#ifdef HAVE_READLINE
	char hist[4096];
	const char *home = getenv("HOME");
	char *line;

	hist[0] = 0;
	if (home && *home) {
		snprintf(hist, sizeof(hist), "%s/.pisactl_history", home);
		read_history(hist);
	}
	while ((line = readline("RuntimeCmd: ")) != NULL) {
		if (*skip_ws(line))
			add_history(line);
		if (!strcmp(skip_ws(line), "quit") || !strcmp(skip_ws(line), "exit") ||
		    !strcmp(skip_ws(line), "EOF")) {
			free(line);
			break;
		}
		r = run_line(line);
		free(line);
		if (r == 2)
			break;
	}
	if (hist[0])
		write_history(hist);
#else
	char *line = NULL;
	size_t cap = 0;

	for (;;) {
		fputs("RuntimeCmd: ", stdout);
		fflush(stdout);
		if (getline(&line, &cap, stdin) < 0)
			break;
		if (!strncmp(skip_ws(line), "quit", 4) || !strncmp(skip_ws(line), "exit", 4))
			break;
		r = run_line(line);
		if (r == 2)
			break;
	}
	free(line);
#endif
	fputc('\n', stdout);
	return pisad_fd >= 0 || connect_pisad() == 0 ? EXIT_OK : EXIT_NO_PISAD;
}

int main(int argc, char **argv)
{
	char *cmd;
	size_t len = 0;
	int i, first = 1, r;

	signal(SIGPIPE, SIG_IGN);
	sock_path = hc_default_socket();
	while (first < argc && argv[first][0] == '-' && argv[first][1]) {
		const char *a = argv[first];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--socket")) {
			if (first + 1 >= argc || !argv[first + 1][0]) {
				fprintf(stderr, "pisactl: --socket needs a path\nTry 'pisactl --help'.\n");
				return EXIT_USAGE;
			}
			sock_path = argv[first + 1];
			first += 2;
		} else if (!strncmp(a, "--socket=", 9) && a[9]) {
			sock_path = a + 9;
			first++;
		} else if (!strcmp(a, "--")) {
			first++;
			break;
		} else {
			fprintf(stderr, "pisactl: unknown option '%s'\nTry 'pisactl --help'.\n", a);
			return EXIT_USAGE;
		}
	}
	if (first < argc && !strcmp(argv[first], "flash"))
		return pisactl_flash(argc - first - 1, argv + first + 1);
	if (first >= argc) {
		if (isatty(0))
			return run_interactive();
		return run_file(stdin);
	}
	for (i = first; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cmd = malloc(len + 1);
	if (!cmd)
		return EXIT_FAILED;
	cmd[0] = 0;
	for (i = first; i < argc; i++) {
		strcat(cmd, argv[i]);
		if (i + 1 < argc)
			strcat(cmd, " ");
	}
	r = run_line(cmd);
	free(cmd);
	if (r < 0)
		return EXIT_USAGE;
	return r;
}
