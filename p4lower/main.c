/* SPDX-License-Identifier: MIT */
/* p4lower: command line, preprocessing with the system cpp, then the front end. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <limits.h>
#include "ast.h"
#include "backend.h"
#include "pisa_layout.h"
#include "pisa_p4info.h"
#include "pisa_profile.h"

#ifndef P4INCLUDE_DIR
#define P4INCLUDE_DIR "p4include"
#endif

#define EXIT_PROG 1
#define EXIT_USAGE 3
#define MAX_ARGS 256

static const char *const boards[] = { "sim", "icebreaker", "hx8k-breakout", "colorlight-5a-75b" };

static void usage(FILE *f)
{
	fputs("usage: p4lower PROG.p4 [-o OUT.pisa] [--board NAME] [-I DIR]... [-D NAME[=VAL]]...\n"
	      "               [--dump tokens|ast|checked|image] [-E]\n"
	      "       p4lower --board NAME --core-params\n"
	      "Compiles a P4-16 (spec 1.2.x) v1model program for the OpenPISA pipeline.\n"
	      "The program is preprocessed with the system cpp (p4include/ and each -I DIR on the\n"
	      "include path, each -D passed through).\n"
	      "  -o OUT.pisa      where the config image goes (default: PROG.pisa); beside it\n"
	      "                   go OUT.p4info.txtpb (P4Runtime P4Info, protobuf text format),\n"
	      "                   OUT.layout.txt (placement: tables, stages, memory blocks, PHV,\n"
	      "                   parser states, budget per stage) and OUT.layout.svg (the same\n"
	      "                   as a picture)\n"
	      "  --board NAME     board profile: sim (default), icebreaker, hx8k-breakout,\n"
	      "                   colorlight-5a-75b\n"
	      "  -I DIR           add DIR to the include path\n"
	      "  -D NAME[=VAL]    define a preprocessor macro\n"
	      "  --dump STAGE     print the output of a stage and stop: tokens, ast (parsed),\n"
	      "                   checked (with types and constants) or image (the lowered\n"
	      "                   program: PHV layout, parser states, tables, actions)\n"
	      "  -E               print the preprocessed program and stop\n"
	      "  --core-params    print the parameters the board's RTL core is built with\n"
	      "                   (NAME=VALUE lines, hw/rtl/pisa_core.v's names) and stop\n"
	      "  -h, --help       this text\n"
	      "P4LOWER_INCLUDE=DIR in the environment replaces p4include/ (where core.p4 and\n"
	      "v1model.p4 are found).\n"
	      "Exit status: 0 ok, 1 error in the program (file:line:col messages on stderr,\n"
	      "unsupported constructs named), 2 the program does not fit the board (the message\n"
	      "names the table or resource, what it needs, what the board has), 3 usage error.\n", f);
}

/*
 * The reports next to the image (OUT.pisa -> OUT.p4info.txtpb, OUT.layout.txt,
 * OUT.layout.svg), written from the image as it was written, so they describe exactly
 * what a switch will run. A report that cannot be written is an error (exit 1).
 */
static int write_reports(const char *image_path, const char *board)
{
	static const char *const suffix[] = { ".p4info.txtpb", ".layout.txt", ".layout.svg" };
	const struct pisa_profile *p = pisa_profile_find(board);
	struct pisa_image *img = NULL;
	char detail[256], path[PATH_MAX];
	size_t n = strlen(image_path);
	int rc = 0, i;

	if (pisa_image_read_file(image_path, &img, detail, sizeof(detail)) < 0) {
		fprintf(stderr, "p4lower: %s: cannot read back the image: %s\n", image_path, detail);
		return EXIT_PROG;
	}
	if (n > 5 && !strcmp(image_path + n - 5, ".pisa"))
		n -= 5;
	for (i = 0; i < 3 && !rc; i++) {
		FILE *f;
		int err;

		if (snprintf(path, sizeof(path), "%.*s%s", (int)n, image_path, suffix[i]) >=
		    (int)sizeof(path)) {
			fprintf(stderr, "p4lower: %s: path too long for the reports\n", image_path);
			rc = EXIT_PROG;
			break;
		}
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "p4lower: %s: %s\n", path, strerror(errno));
			rc = EXIT_PROG;
			break;
		}
		err = i == 0 ? pisa_p4info_write(img, f) :
		      i == 1 ? pisa_layout_write_txt(img, p, f) : pisa_layout_write_svg(img, p, f);
		if (fclose(f) != 0 && !err)
			err = -PISA_E_IO;
		if (err) {
			fprintf(stderr, "p4lower: %s: %s\n", path, pisa_strerror(-err));
			rc = EXIT_PROG;
		}
	}
	pisa_image_free(img);
	return rc;
}

static int usage_err(const char *fmt, const char *arg)
{
	fputs("p4lower: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'p4lower --help'.\n", stderr);
	return EXIT_USAGE;
}

static int is_dir_with_core(const char *d)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/core.p4", d);
	return stat(path, &st) == 0;
}

/* p4include/ beside the source tree the binary was built from: build/bin or build/san/bin. */
static const char *find_include_dir(void)
{
	static char dir[PATH_MAX];
	static const char *const up[] = { "/../../p4include", "/../../../p4include", "/../p4include" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("P4LOWER_INCLUDE");
	size_t i;

	if (env && *env)
		return env;
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		for (i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
			char cand[PATH_MAX + 32];

			snprintf(cand, sizeof(cand), "%s%s", exe, up[i]);
			/* canonical, so messages in the includes name a plain path */
			if (is_dir_with_core(cand) && realpath(cand, dir))
				return dir;
		}
	}
	return P4INCLUDE_DIR;
}

/* Runs cpp on the program and returns its output (NUL-terminated) in the arena. */
static char *preprocess(const char *prog, char **extra, int nextra, size_t *len)
{
	const char *argv[MAX_ARGS + 16];
	int argc = 0, i, fd[2], status;
	char *buf = NULL, inc[PATH_MAX + 3];
	size_t cap = 0, n = 0;
	pid_t pid;

	snprintf(inc, sizeof(inc), "-I%s", find_include_dir());
	argv[argc++] = "cpp";
	argv[argc++] = "-undef";
	argv[argc++] = "-nostdinc";
	argv[argc++] = "-w";	/* P4 is not C: cpp's warnings would only confuse */
	argv[argc++] = "-D__p4lower__=1";
	argv[argc++] = "-D__TARGET_OPENPISA__=1";
	for (i = 0; i < nextra; i++)
		argv[argc++] = extra[i];
	argv[argc++] = inc;
	argv[argc++] = prog;
	argv[argc] = NULL;
	if (pipe(fd) < 0) {
		fprintf(stderr, "p4lower: pipe: %s\n", strerror(errno));
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "p4lower: fork: %s\n", strerror(errno));
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp("cpp", (char *const *)argv);
		fprintf(stderr, "p4lower: cannot run cpp: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		ssize_t r;

		if (n + 65536 + 1 > cap) {
			char *nb;

			cap = (cap + 65536) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd[0]);
				waitpid(pid, &status, 0);
				fputs("p4lower: out of memory\n", stderr);
				return NULL;
			}
			buf = nb;
		}
		r = read(fd[0], buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(buf);
		return NULL;
	}
	char *out = p4_strndup(buf ? buf : "", n);

	free(buf);
	*len = n;
	return out;
}

int main(int argc, char **argv)
{
	const char *prog = NULL, *board = "sim", *out = NULL;
	int dump_image = 0;
	struct p4_node *ast = NULL;
	char *extra[MAX_ARGS];
	int nextra = 0, only_pp = 0, core_params = 0, i, rc;
	enum p4_stage dump = ST_NONE;
	struct p4_src src;
	size_t len = 0, b;
	char *text;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--board") || !strcmp(a, "--dump")) {
			if (i + 1 >= argc)
				return usage_err("option '%s' needs an argument", a);
			const char *v = argv[++i];

			if (!strcmp(a, "--board")) {
				for (b = 0; b < sizeof(boards) / sizeof(boards[0]); b++)
					if (!strcmp(v, boards[b]))
						break;
				if (b == sizeof(boards) / sizeof(boards[0]))
					return usage_err("unknown board '%s' (valid: sim, icebreaker, hx8k-breakout, colorlight-5a-75b)", v);
				board = v;
			} else if (!strcmp(a, "--dump")) {
				if (!strcmp(v, "tokens"))
					dump = ST_TOKENS;
				else if (!strcmp(v, "ast"))
					dump = ST_AST;
				else if (!strcmp(v, "checked"))
					dump = ST_CHECKED;
				else if (!strcmp(v, "image"))
					dump_image = 1;
				else
					return usage_err("unknown stage '%s' for --dump (valid: tokens, ast, checked, image)", v);
			} else {
				out = v;
			}
		} else if (!strcmp(a, "-I") || !strcmp(a, "-D")) {
			if (i + 1 >= argc)
				return usage_err("option '%s' needs an argument", a);
			if (nextra + 2 > MAX_ARGS)
				return usage_err("too many %s options", a);
			extra[nextra++] = argv[i];
			extra[nextra++] = argv[++i];
		} else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2)) {
			if (nextra + 1 > MAX_ARGS)
				return usage_err("too many %s options", a);
			extra[nextra++] = argv[i];
		} else if (!strcmp(a, "-E")) {
			only_pp = 1;
		} else if (!strcmp(a, "--core-params")) {
			core_params = 1;
		} else if (a[0] == '-' && a[1]) {
			return usage_err("unknown option '%s'", a);
		} else if (prog) {
			return usage_err("more than one program given ('%s')", a);
		} else {
			prog = a;
		}
	}
	if (core_params) {
		if (prog)
			return usage_err("--core-params takes no program ('%s')", prog);
		pisa_profile_print_core(pisa_profile_find(board), stdout);
		return 0;
	}
	if (!prog)
		return usage_err("%s", "no program given");
	if (access(prog, R_OK) != 0) {
		fprintf(stderr, "p4lower: %s: %s\n", prog, strerror(errno));
		return EXIT_PROG;
	}
	text = preprocess(prog, extra, nextra, &len);
	if (!text) {
		fprintf(stderr, "p4lower: %s: preprocessing failed\n", prog);
		p4_arena_free();
		return EXIT_PROG;
	}
	if (only_pp) {
		fwrite(text, 1, len, stdout);
		p4_arena_free();
		return 0;
	}
	src.name = prog;
	src.text = text;
	src.len = len;
	src.original_columns = 1;
	p4_diag.out = stderr;
	rc = p4_frontend(&src, dump, stdout, &ast);
	if (rc) {
		p4_arena_free();
		return EXIT_PROG;
	}
	if (dump != ST_NONE) {
		p4_arena_free();
		return 0;
	}
	{
		struct p4_backend_opts bo;
		char *defout = NULL, *name;
		const char *base = strrchr(prog, '/');
		size_t n;

		base = base ? base + 1 : prog;
		n = strlen(base);
		if (n > 3 && !strcmp(base + n - 3, ".p4"))
			n -= 3;
		name = p4_strndup(base, n);
		if (!out) {
			size_t pl = strlen(prog);

			if (pl > 3 && !strcmp(prog + pl - 3, ".p4"))
				pl -= 3;
			defout = p4_alloc(pl + 6);
			memcpy(defout, prog, pl);
			memcpy(defout + pl, ".pisa", 6);
			out = defout;
		}
		bo.board = board;
		bo.out = dump_image ? NULL : out;
		bo.program = name;
		bo.dump = dump_image ? stdout : NULL;
		rc = p4_backend(ast, &bo);
		if (rc == 0 && bo.out)
			rc = write_reports(bo.out, board);
	}
	p4_arena_free();
	return rc;
}
