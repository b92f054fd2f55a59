// SPDX-License-Identifier: Apache-2.0
/*
 * pisa-stf: runs a p4c STF packet test (the format p4c's BMv2 runner reads)
 * against a P4 program compiled with p4lower, or an already built image,
 * on pisa-model. Prints one line: "PASS name" or "FAIL name: why".
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pisa_file.h"
#include "pisa_profile.h"
#include "stf.h"

#define PROG "pisa-stf"
#define MAX_INCLUDES 64

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options] PROG.p4 TEST.stf\n"
		"       " PROG " [options] --image IMAGE TEST.stf\n"
		"\n"
		"Runs the STF packet test TEST.stf (p4c's format, read as p4c's BMv2 runner\n"
		"bmv2stf.py reads it) on pisa-model, in-process. The first form compiles\n"
		"PROG.p4 with p4lower (found next to " PROG "); the second runs an image\n"
		"that p4lower already wrote.\n"
		"\n"
		"Statements run in file order: add/setdefault become simple_switch_CLI\n"
		"table_add/table_set_default lines, mc_*, mirroring_*, counter_*, register_*\n"
		"and meter_* go to the CLI unchanged (their replies are not checked), packets\n"
		"are injected 1 us apart in virtual time (1 s after CLI commands). At the end,\n"
		"each port named in a packet or expect line must have sent exactly its expect\n"
		"lines' packets, in order; each expect is a prefix, '*' matches any nibble and\n"
		"a final '$' forbids extra bytes. Output to other ports is ignored.\n"
		"Tables, actions and keys are found by full name or unique dotted suffix;\n"
		"tables with ternary/optional keys need a priority (larger wins, as sent\n"
		"to BMv2 as 10000 - P). remove, check_counter, wait and mc_node_update are\n"
		"ignored, as bmv2stf ignores them; no_packet is rejected. '#' starts a\n"
		"comment anywhere, also after packet data.\n"
		"\n"
		"options:\n"
		"  --image IMAGE      run this config image instead of compiling\n"
		"  --target model|rtl|board:BOARD\n"
		"                     where to run (default model). rtl runs pisa_core in\n"
		"                     Icarus: the harness sim/tb/tb_pisa_harness.v, built by\n"
		"                     'make -C hw harness' into build/sim/tb_pisa_harness.vvp.\n"
		"                     board:icebreaker, board:hx8k-breakout or\n"
		"                     board:colorlight-5a-75b runs the board's\n"
		"                     switch top in Icarus (sim/board, 'make -C sim/board'):\n"
		"                     the image and every table write go in through its UART\n"
		"                     pins (the control link, as pisad does it), packets through\n"
		"                     its PHY pins; implies --board BOARD\n"
		"                     ($PISA_BOARD_SIM: the folder of tb_board_BOARD.vvp)\n"
		"  --burst N          with a board target, after the test passed: N copies\n"
		"                     of a frame (the first packet the file sends into the\n"
		"                     port, else its first packet) into every port of the\n"
		"                     board at once, back to back at line rate (1..30000).\n"
		"                     Passes when every frame is counted by its MAC (to the\n"
		"                     switch, dropped for a full RX buffer, or bad), no port\n"
		"                     starves, and each frame that reached the switch produced\n"
		"                     what it produced alone (so a program whose forwarding\n"
		"                     changes per packet, through registers or counters it\n"
		"                     reads, fails by design); prints a line per port and\n"
		"                     the rates before the PASS/FAIL line\n"
		"  --rtl-harness VVP  that harness (default: $PISA_RTL_HARNESS, else\n"
		"                     ../sim/ or ../../sim/ beside " PROG "; a command or\n"
		"                     packet may take $PISA_RTL_TIMEOUT s, default 120)\n"
		"  --board NAME       board profile to compile for (with --image: the image\n"
		"                     must have been built for it)\n"
		"  -I DIR             include directory for p4lower (repeatable)\n"
		"  -v, --verbose      print each command, each packet in and out and the\n"
		"                     model's trace to stderr\n"
		"  -h, --help         this text\n"
		"\n"
		"Output: one line on stdout (after --burst's report), \"PASS name\" or\n"
		"\"FAIL name: first difference\"\n"
		"(name = TEST.stf's basename without .stf; packets and bytes count from 0).\n"
		"Errors go to stderr; a bad STF line as \"TEST.stf:LINE: reason\".\n"
		"\n"
		"exit status:\n"
		"  0  the test passed\n"
		"  1  the test failed\n"
		"  2  could not compile, load or run: bad arguments, p4lower missing or\n"
		"     failing, unreadable image, malformed STF line, a CLI command rejected,\n"
		"     an unsupported target, or an image that uses what the RTL core does\n"
		"     not implement yet (the message names it)\n");
}

static char *read_file(const char *path, size_t *len, char *why, size_t whylen)
{
	uint8_t *buf;
	int r = pisa_file_read(path, STF_MAX_FILE, &buf, len);

	if (r == -PISA_E_IO)
		snprintf(why, whylen, "%s", strerror(errno));
	else if (r == -PISA_E_RANGE)
		snprintf(why, whylen, "larger than %u bytes", STF_MAX_FILE);
	else if (r)
		snprintf(why, whylen, "out of memory");
	return r ? NULL : (char *)buf;
}

/* "dir/name.stf" -> "name" */
static char *test_name(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".stf"))
		n -= 4;
	return strndup(b, n);
}

/* p4lower lives next to this binary (build/bin). */
/* The folder of this executable, into buf. */
static int exe_dir(char *buf, size_t buflen)
{
	ssize_t n = readlink("/proc/self/exe", buf, buflen - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

static int find_p4lower(char *buf, size_t buflen)
{
	char self[PATH_MAX];

	if (exe_dir(self, sizeof(self)) < 0 ||
	    (size_t)snprintf(buf, buflen, "%s/p4lower", self) >= buflen)
		return -1;
	return access(buf, X_OK);
}

/* The RTL harness: $PISA_RTL_HARNESS, else build/sim beside build/bin or
 * build/san/bin. */
static int find_harness(char *buf, size_t buflen)
{
	static const char *const rel[] = { "../sim", "../../sim" };
	const char *env = getenv("PISA_RTL_HARNESS");
	char self[PATH_MAX];
	unsigned i;

	if (env && env[0]) {
		snprintf(buf, buflen, "%s", env);
		return access(buf, R_OK);
	}
	if (exe_dir(self, sizeof(self)) < 0)
		return -1;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(buf, buflen, "%s/%s/tb_pisa_harness.vvp", self, rel[i]) >= buflen)
			return -1;
		if (access(buf, R_OK) == 0)
			return 0;
	}
	return -1;
}

/* The board simulation tb_board_NAME.vvp: in $PISA_BOARD_SIM, else build/sim/board beside
 * build/bin or build/san/bin. dir gets its folder (the VPI modules are there too). */
static int find_board_sim(const char *name, char *dir, size_t dirlen, char *vvp, size_t vvplen)
{
	static const char *const rel[] = { "../sim/board", "../../sim/board" };
	const char *env = getenv("PISA_BOARD_SIM");
	char self[PATH_MAX];
	unsigned i;

	if (env && env[0]) {
		snprintf(dir, dirlen, "%s", env);
		snprintf(vvp, vvplen, "%s/tb_board_%s.vvp", env, name);
		return access(vvp, R_OK);
	}
	if (exe_dir(self, sizeof(self)) < 0)
		return -1;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(dir, dirlen, "%s/%s", self, rel[i]) >= dirlen ||
		    (size_t)snprintf(vvp, vvplen, "%s/tb_board_%s.vvp", dir, name) >= vvplen)
			return -1;
		if (access(vvp, R_OK) == 0)
			return 0;
	}
	return -1;
}

/* Runs p4lower PROG.p4 [--board B] [-I D]... -o OUT; 0 when it succeeded. */
static int compile(const char *p4lower, const char *board, char **inc, int ninc,
		   const char *p4, const char *out)
{
	char *argv[2 * MAX_INCLUDES + 8];
	int argc = 0, i, status;
	pid_t pid;

	argv[argc++] = (char *)p4lower;
	argv[argc++] = (char *)p4;
	if (board) {
		argv[argc++] = "--board";
		argv[argc++] = (char *)board;
	}
	for (i = 0; i < ninc; i++) {
		argv[argc++] = "-I";
		argv[argc++] = inc[i];
	}
	argv[argc++] = "-o";
	argv[argc++] = (char *)out;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": cannot run p4lower: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* p4lower's messages go to stderr so stdout keeps one line */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execv(p4lower, argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", p4lower, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, PROG ": waiting for p4lower: %s\n", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		fprintf(stderr, PROG ": p4lower failed on %s (exit %d%s)\n", p4, WEXITSTATUS(status),
			WEXITSTATUS(status) == 4 ? ": not implemented yet" : "");
	else
		fprintf(stderr, PROG ": p4lower failed on %s (signal %d)\n", p4,
			WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return -1;
}

/* --opt VALUE or --opt=VALUE; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name))
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

int main(int argc, char **argv)
{
	const char *image = NULL, *target = "model", *board = NULL, *harness = NULL, *v;
	char harness_buf[PATH_MAX + 64], board_vvp[PATH_MAX + 64], board_dir[PATH_MAX + 16];
	const char *pos[2] = { NULL, NULL };
	char *inc[MAX_INCLUDES];
	int ninc = 0, npos = 0, i, rc = 2, e;
	struct stf_opts o = { .log = stderr };
	struct stf_file f = { 0, NULL };
	struct pisa_image *img = NULL;
	char err[1024], tmpdir[64] = "", out[128] = "", p4lower[PATH_MAX + 16];
	char *text = NULL, *name = NULL, *msg = NULL;
	const char *stf;
	size_t len;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o.verbose = 1;
		} else if ((v = opt_value(argc, argv, &i, "--image"))) {
			image = v;
		} else if ((v = opt_value(argc, argv, &i, "--target"))) {
			target = v;
		} else if ((v = opt_value(argc, argv, &i, "--rtl-harness"))) {
			harness = v;
		} else if ((v = opt_value(argc, argv, &i, "--board"))) {
			board = v;
		} else if ((v = opt_value(argc, argv, &i, "--burst"))) {
			char *end;

			o.burst = strtoul(v, &end, 10);
			if (*end || o.burst < 1 || o.burst > 30000) {
				fprintf(stderr, PROG ": --burst %s: want 1 to 30000 frames a port\n", v);
				return 2;
			}
		} else if (!strncmp(a, "-I", 2)) {
			if (ninc == MAX_INCLUDES) {
				fprintf(stderr, PROG ": more than %d -I options\n", MAX_INCLUDES);
				return 2;
			}
			if (a[2]) {
				inc[ninc++] = argv[i] + 2;
			} else if (i + 1 < argc) {
				inc[ninc++] = argv[++i];
			} else {
				fprintf(stderr, PROG ": -I needs a directory\n");
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
			return 2;
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			fprintf(stderr, PROG ": too many arguments (see --help)\n");
			return 2;
		}
	}
	if (!strncmp(target, "board:", 6)) {
		const char *bname = target + 6;

		if (strcmp(bname, "icebreaker") && strcmp(bname, "hx8k-breakout") &&
		    strcmp(bname, "colorlight-5a-75b")) {
			fprintf(stderr, PROG ": --target board:%s: no board simulation for it "
				"(icebreaker, hx8k-breakout, colorlight-5a-75b)\n", bname);
			return 2;
		}
		if (board && strcmp(board, bname)) {
			fprintf(stderr, PROG ": --board %s does not match --target %s\n", board,
				target);
			return 2;
		}
		board = bname;
		if (find_board_sim(bname, board_dir, sizeof(board_dir), board_vvp,
				   sizeof(board_vvp)) < 0) {
			fprintf(stderr, PROG ": the board simulation is not built (make -C sim/board) "
				"or $PISA_BOARD_SIM names no folder with tb_board_%s.vvp\n", bname);
			return 2;
		}
		o.board_vvp = board_vvp;
		o.board_vpi_dir = board_dir;
		o.board_ports = pisa_profile_find(bname)->ports;
	} else if (strcmp(target, "model") && strcmp(target, "rtl")) {
		fprintf(stderr, PROG ": unknown target '%s' (model, rtl or board:BOARD)\n", target);
		return 2;
	}
	if (o.burst && !o.board_vvp) {
		fprintf(stderr, PROG ": --burst needs --target board:BOARD\n");
		return 2;
	}
	if (!strcmp(target, "rtl")) {
		if (!harness) {
			if (find_harness(harness_buf, sizeof(harness_buf)) < 0) {
				fprintf(stderr, PROG ": the RTL harness is not built (make -C hw "
					"harness) or $PISA_RTL_HARNESS names no file\n");
				return 2;
			}
			harness = harness_buf;
		} else if (access(harness, R_OK) < 0) {
			fprintf(stderr, PROG ": --rtl-harness %s: %s\n", harness, strerror(errno));
			return 2;
		}
		o.rtl_harness = harness;
	}
	if (image ? npos != 1 : npos != 2) {
		fprintf(stderr, image ? PROG ": --image takes exactly one TEST.stf\n" :
			PROG ": expected PROG.p4 TEST.stf, or --image IMAGE TEST.stf (see --help)\n");
		return 2;
	}
	stf = pos[npos - 1];

	text = read_file(stf, &len, err, sizeof(err));
	if (!text) {
		fprintf(stderr, PROG ": %s: %s\n", stf, err);
		goto out;
	}
	e = stf_parse(text, len, &f, err, sizeof(err));
	if (e < 0) {
		fprintf(stderr, "%s:%s\n", stf, err);
		goto out;
	}

	if (!image) {
		if (find_p4lower(p4lower, sizeof(p4lower)) < 0) {
			fprintf(stderr, PROG ": p4lower is not built yet; use --image\n");
			goto out;
		}
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/pisa-stf.XXXXXX");
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, PROG ": cannot make a temporary directory: %s\n",
				strerror(errno));
			tmpdir[0] = '\0';
			goto out;
		}
		snprintf(out, sizeof(out), "%s/prog.pisa", tmpdir);
		if (compile(p4lower, board, inc, ninc, pos[0], out) < 0)
			goto out;
		image = out;
	}
	o.image_path = image;
	e = pisa_image_read_file(image, &img, err, sizeof(err));
	if (e < 0) {
		fprintf(stderr, PROG ": %s: %s%s%s\n", image, pisa_strerror(-e), err[0] ? ": " : "",
			err);
		img = NULL;
		goto out;
	}
	/* (an image keeps the first 15 characters of a board name: docs/config-image.md) */
	if (board && image != out && strncmp(img->board, board, sizeof(img->board) - 1)) {
		fprintf(stderr, PROG ": %s was built for board '%.*s', not '%s'\n", image,
			(int)sizeof(img->board), img->board, board);
		goto out;
	}

	name = test_name(stf);
	msg = malloc(4096);
	if (!name || !msg) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	e = stf_run(img, &f, &o, msg, 4096);
	switch (e) {
	case 0:
		printf("PASS %s\n", name);
		rc = 0;
		break;
	case 1:
		printf("FAIL %s: %s\n", name, msg);
		rc = 1;
		break;
	case 2:
		fprintf(stderr, "%s:%s\n", stf, msg);
		break;
	default:
		fprintf(stderr, PROG ": %s: %s\n", image, msg);
		break;
	}
out:
	if (tmpdir[0]) {	/* the image and whatever p4lower wrote beside it */
		DIR *dir = opendir(tmpdir);
		struct dirent *de;
		char path[sizeof(tmpdir) + 256];

		while (dir && (de = readdir(dir)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
				unlink(path);
			}
		if (dir)
			closedir(dir);
		if (rmdir(tmpdir) < 0)
			fprintf(stderr, PROG ": cannot remove %s: %s\n", tmpdir, strerror(errno));
	}
	if (img)
		pisa_image_free(img);
	stf_file_free(&f);
	free(text);
	free(name);
	free(msg);
	return rc;
}
