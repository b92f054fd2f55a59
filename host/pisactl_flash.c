/* SPDX-License-Identifier: Apache-2.0 */
/* pisactl_flash.c: pisactl flash (see pisactl_flash.h). */
#include <errno.h>
#include <ftdi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flash.h"
#include "hostcommon.h"
#include "pisa_file.h"
#include "pisa_image.h"
#include "pisactl_flash.h"

#define FLASH_EXIT_FAILED 1
#define FLASH_EXIT_NO_DEVICE 2
#define FLASH_EXIT_USAGE PISACTL_FLASH_EXIT_USAGE
#define FLASH_EXIT_FILE 4
#define FLASH_EXIT_CHIP 5
#define FLASH_EXIT_VERIFY 6
#define FLASH_EXIT_TIMEOUT 7
#define FLASH_EXIT_CDONE 8

#define USB_READ_TIMEOUT_US 2000000ull

/* The libftdi side of struct mpsse_io. */
static int ftdi_pipe_write(void *ctx, const uint8_t *p, size_t n)
{
	struct ftdi_context *c = ctx;

	while (n) {
		int chunk = n > 65536 ? 65536 : (int)n;
		int w = ftdi_write_data(c, p, chunk);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int ftdi_pipe_read(void *ctx, uint8_t *p, size_t n)
{
	struct ftdi_context *c = ctx;
	uint64_t deadline = flash_mono_us() + USB_READ_TIMEOUT_US;

	while (n) {
		int r = ftdi_read_data(c, p, n > 65536 ? 65536 : (int)n);

		if (r < 0)
			return -1;
		if (r == 0) {
			struct timespec ts = { 0, 100000 };

			if (flash_mono_us() > deadline)
				return -1;
			nanosleep(&ts, NULL);
			continue;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

struct flash_bar {
	int tty;
	const char *step;
	int last;	/* percent last shown */
};

static void flash_progress(void *arg, const char *step, size_t done, size_t total)
{
	struct flash_bar *b = arg;
	int pct = total ? (int)((done * 100) / total) : 100;

	if (b->step != step && (!b->step || strcmp(b->step, step))) {
		b->step = step;
		b->last = -1;
	}
	if (b->tty) {
		char bar[41];
		int i, fill = pct * 40 / 100;

		for (i = 0; i < 40; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[40] = 0;
		printf("\r%-8s [%s] %3d%%  %zu/%zu KiB ", step, bar, pct, (done + 1023) / 1024,
		       (total + 1023) / 1024);
		if (done == total)
			putchar('\n');
		fflush(stdout);
		b->last = pct;
		return;
	}
	/* not a terminal: a line at the start, at each quarter and at the end */
	if (b->last >= 0 && (pct == b->last || (pct / 25 == b->last / 25 && done != total)))
		return;
	b->last = pct;
	printf("flash: %s %3d%% (%zu/%zu bytes)\n", step, pct, done, total);
	fflush(stdout);
}

/* Reads the bitstream; 0, or an exit code after a message. */
static int flash_read_file(const char *path, uint8_t **data, size_t *len)
{
	int r = pisa_file_read(path, FLASH_MAX_SIZE, data, len);

	if (r == -PISA_E_RANGE) {
		fprintf(stderr, "pisactl: flash: %s: larger than %u bytes, more than any "
			"board's flash holds; nothing written\n", path, FLASH_MAX_SIZE);
		return FLASH_EXIT_FILE;
	}
	if (r) {
		fprintf(stderr, "pisactl: flash: %s: %s\n", path,
			r == -PISA_E_IO ? strerror(errno) : "out of memory");
		return r == -PISA_E_IO ? FLASH_EXIT_FILE : FLASH_EXIT_FAILED;
	}
	if (!*len) {
		fprintf(stderr, "pisactl: flash: %s: the file is empty; nothing written\n", path);
		free(*data);
		return FLASH_EXIT_FILE;
	}
	return 0;
}

static int flash_ice40(const char *path, const char *serial)
{
	struct ftdi_context *c;
	struct mpsse_io io;
	struct flash_opts o;
	struct flash_report rep;
	struct flash_bar bar = { isatty(1), NULL, -1 };
	enum flash_result r;
	uint8_t *data;
	size_t len;
	char err[512];
	int rc = flash_read_file(path, &data, &len);

	if (rc)
		return rc;
	c = ftdi_new();
	if (!c) {
		fprintf(stderr, "pisactl: flash: libftdi: ftdi_new failed\n");
		free(data);
		return FLASH_EXIT_FAILED;
	}
	if (ftdi_set_interface(c, INTERFACE_A) < 0 ||
	    ftdi_usb_open_desc(c, HC_FT2232H_VID, HC_FT2232H_PID, NULL, serial) < 0) {
		fprintf(stderr, "pisactl: flash: no FT2232H %04x:%04x%s%s found: %s (is the board "
			"plugged in, and may this user open it? see --device)\n", HC_FT2232H_VID,
			HC_FT2232H_PID, serial ? " with serial " : "", serial ? serial : "",
			ftdi_get_error_string(c));
		ftdi_free(c);
		free(data);
		return FLASH_EXIT_NO_DEVICE;
	}
	if (ftdi_usb_reset(c) < 0 || ftdi_set_latency_timer(c, 1) < 0 ||
	    ftdi_set_bitmode(c, 0, BITMODE_RESET) < 0 || ftdi_set_bitmode(c, 0, BITMODE_MPSSE) < 0 ||
	    ftdi_tcioflush(c) < 0) {
		fprintf(stderr, "pisactl: flash: FT2232H setup failed: %s\n", ftdi_get_error_string(c));
		ftdi_usb_close(c);
		ftdi_free(c);
		free(data);
		return FLASH_EXIT_FAILED;
	}
	memset(&io, 0, sizeof(io));
	io.ctx = c;
	io.write = ftdi_pipe_write;
	io.read = ftdi_pipe_read;
	memset(&o, 0, sizeof(o));
	o.progress = flash_progress;
	o.progress_arg = &bar;
	printf("flash: %s, %zu bytes, to the iCE40 board's flash (FT2232H channel A)\n", path, len);
	r = flash_write(&io, data, len, &o, &rep, err, sizeof(err));
	ftdi_usb_close(c);
	ftdi_free(c);
	free(data);
	if (bar.tty && bar.step && bar.last != 100)
		putchar('\n');
	if (rep.chip.name)
		printf("flash: chip %s (JEDEC id %02x %02x %02x), %u KiB\n", rep.chip.name,
		       rep.chip.id[0], rep.chip.id[1], rep.chip.id[2], rep.chip.size / 1024);
	fflush(stdout);
	if (r == FLASH_OK) {
		printf("flash: %zu bytes written and verified (%u blocks erased, %u pages "
		       "programmed); CDONE high, the FPGA configured\n", len, rep.blocks_erased,
		       rep.pages_programmed);
		return 0;
	}
	fprintf(stderr, "pisactl: flash: %s\n", err);
	switch (r) {
	case FLASH_ERR_FILE:
		return FLASH_EXIT_FILE;
	case FLASH_ERR_ID:
	case FLASH_ERR_PROTECTED:
		return FLASH_EXIT_CHIP;
	case FLASH_ERR_VERIFY:
		return FLASH_EXIT_VERIFY;
	case FLASH_ERR_TIMEOUT:
		return FLASH_EXIT_TIMEOUT;
	case FLASH_ERR_CDONE:
		return FLASH_EXIT_CDONE;
	default:
		return FLASH_EXIT_FAILED;
	}
}

/* The full path of prog on $PATH, or 0. */
static int find_on_path(const char *prog, char *out, size_t outlen)
{
	const char *path = getenv("PATH"), *p, *e;

	if (!path || !*path)
		return 0;
	for (p = path; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p)
			continue;
		if ((size_t)snprintf(out, outlen, "%.*s/%s", (int)(e - p), p, prog) < outlen &&
		    access(out, X_OK) == 0)
			return 1;
	}
	return 0;
}

static int flash_ecp5(const char *path, const char *serial, const char *cable)
{
	char exe[4096];
	const char *argv[16];
	uint8_t *data;
	size_t len;
	int n = 0, rc, st;
	pid_t pid;

	rc = flash_read_file(path, &data, &len);
	if (rc)
		return rc;
	free(data);
	if (!find_on_path("openFPGALoader", exe, sizeof(exe))) {
		fprintf(stderr, "pisactl: flash: colorlight-5a-75b is an ECP5 board, flashed over "
			"JTAG with openFPGALoader, which is not on PATH.\n"
			"  Install it: apt-get install openfpgaloader (Debian 12, Ubuntu 22.04 "
			"and later),\n"
			"  or build it from https://github.com/trabucayre/openFPGALoader\n");
		return FLASH_EXIT_NO_DEVICE;
	}
	argv[n++] = "openFPGALoader";
	argv[n++] = "-b";
	argv[n++] = "colorlight";
	if (cable) {
		argv[n++] = "-c";
		argv[n++] = cable;
	}
	if (serial) {
		argv[n++] = "--ftdi-serial";
		argv[n++] = serial;
	}
	argv[n++] = "-f";
	argv[n++] = "--verify";
	argv[n++] = path;
	argv[n] = NULL;
	printf("flash: running");
	for (rc = 0; rc < n; rc++)
		printf(" %s", argv[rc]);
	printf("\n");
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "pisactl: flash: fork: %s\n", strerror(errno));
		return FLASH_EXIT_FAILED;
	}
	if (pid == 0) {
		execv(exe, (char *const *)argv);
		fprintf(stderr, "pisactl: flash: %s: %s\n", exe, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "pisactl: flash: waitpid: %s\n", strerror(errno));
			return FLASH_EXIT_FAILED;
		}
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("flash: openFPGALoader wrote and verified %s\n", path);
		return 0;
	}
	if (WIFEXITED(st))
		fprintf(stderr, "pisactl: flash: openFPGALoader failed (exit %d)\n", WEXITSTATUS(st));
	else
		fprintf(stderr, "pisactl: flash: openFPGALoader killed by signal %d\n",
			WTERMSIG(st));
	return FLASH_EXIT_FAILED;
}

static int flash_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "pisactl: flash: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: pisactl flash BITSTREAM [--board NAME] [--device SERIAL] "
		"[--cable NAME]\nTry 'pisactl flash --help'.\n");
	return FLASH_EXIT_USAGE;
}

/* pisactl flash ARGS: argv[0] is the first argument after "flash". */
int pisactl_flash(int argc, char **argv)
{
	const char *file = NULL, *serial = NULL, *board = NULL, *cable = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], **opt = NULL;
		size_t l = 0;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs("usage: pisactl " PISACTL_FLASH_HELP, stdout);
			return 0;
		}
		if (!strncmp(a, "--device", 8)) {
			opt = &serial;
			l = 8;
		} else if (!strncmp(a, "--board", 7)) {
			opt = &board;
			l = 7;
		} else if (!strncmp(a, "--cable", 7)) {
			opt = &cable;
			l = 7;
		}
		if (opt && a[l] == '=') {
			*opt = a + l + 1;
		} else if (opt && !a[l]) {
			if (i + 1 >= argc)
				return flash_usage("%s needs a value", a);
			*opt = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return flash_usage("unknown option '%s'", a);
		} else if (file) {
			return flash_usage("one BITSTREAM only ('%s' is a second)", a);
		} else {
			file = a;
		}
		if (opt && !**opt)
			return flash_usage("%s needs a value", a);
	}
	if (!file)
		return flash_usage("%s", "no BITSTREAM given");
	if (!board || !strcmp(board, "icebreaker") || !strcmp(board, "hx8k-breakout")) {
		if (cable)
			return flash_usage("%s", "--cable is for the ECP5 board (openFPGALoader)");
		return flash_ice40(file, serial);
	}
	if (!strcmp(board, "colorlight-5a-75b"))
		return flash_ecp5(file, serial, cable);
	if (!strcmp(board, "sim"))
		return flash_usage("%s", "board sim has no flash");
	return flash_usage("unknown board '%s' (icebreaker, hx8k-breakout, colorlight-5a-75b)",
			   board);
}

/* flash from a commands file or the prompt: split the line into words. */
int pisactl_flash_line(const char *s, size_t len)
{
	char *copy = strndup(s, len), *save = NULL, *w;
	char *argv[32];
	int argc = 0, r;

	if (!copy)
		return FLASH_EXIT_FAILED;
	w = strtok_r(copy, " \t", &save);	/* "flash" */
	while ((w = strtok_r(NULL, " \t", &save)) && argc < 32)
		argv[argc++] = w;
	r = pisactl_flash(argc, argv);
	free(copy);
	return r;
}
