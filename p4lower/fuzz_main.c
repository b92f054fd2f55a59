/* SPDX-License-Identifier: MIT */
/*
 * p4lower-fuzz: replays files through LLVMFuzzerTestOneInput, and with -m N also
 * runs N random mutations of each (fixed seed: every run is the same), so the
 * front end is fuzzed under gcc's ASan without libFuzzer.
 *   p4lower-fuzz [-m N] [-s SEED] FILE|DIR...
 * Exit status 0 when every input ran (a crash aborts the process instead).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ast.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static size_t pick(size_t n)
{
	return n ? (size_t)(next_rand() % n) : 0;
}

/* Fragments that reach deeper than random bytes. */
static const char *const dict[] = {
	"{", "}", "(", ")", "[", "]", "<", ">", ";", ",", ".", ":", "=", "?", "@", "#",
	"&&&", "..", "++", "|+|", "|-|", "<<", ">>", "&&", "||", "!", "~", "-", "_",
	"8w5", "8s5", "0x", "0xffffffffffffffffffffffffffffffffff", "1", "0", "128w1",
	"bit<8>", "int<8>", "varbit<16>", "bool", "error", "tuple<bit<8>>", "{#}",
	"transition ", "select(", "state ", "default", "apply", "table ", "key = {",
	"actions = {", "const entries = {", "priority = 1:", "action ", "control ",
	"parser ", "header ", "struct ", "enum ", "extern ", "typedef ", "return ",
	"exit;", "switch (", "if (", "else ", "hdr.", ".next", ".last", "[0]", "[7:0]",
	"isValid()", "setValid()", "lookahead<bit<8>>()", "extract(", "@name(\"x\")",
	"\"", "/*", "*/", "//", "\n# 1 \"x.p4\"\n", "\n", "this", "for", "value_set<bit<8>>(4)",
};

static int is_word(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The word around a random position: [*s, *e). Returns 0 if there is none. */
static int random_word(const uint8_t *buf, size_t len, size_t *s, size_t *e)
{
	size_t i = pick(len), tries;

	for (tries = 0; tries < 64 && i < len && !is_word(buf[i]); tries++)
		i = pick(len);
	if (i >= len || !is_word(buf[i]))
		return 0;
	*s = *e = i;
	while (*s > 0 && is_word(buf[*s - 1]))
		(*s)--;
	while (*e < len && is_word(buf[*e]))
		(*e)++;
	return 1;
}

/*
 * Replaces one word with another from the same input: the result mostly still
 * parses, so the checker sees wrong names, types and arities.
 */
static size_t swap_word(uint8_t *buf, size_t len, size_t cap)
{
	size_t as, ae, bs, be, n, m;
	uint8_t word[128];

	if (!len || !random_word(buf, len, &as, &ae) || !random_word(buf, len, &bs, &be))
		return len;
	m = be - bs;
	if (m > sizeof(word))
		return len;
	memcpy(word, buf + bs, m);
	n = ae - as;
	if (len - n + m > cap)
		return len;
	memmove(buf + as + m, buf + ae, len - ae);
	memcpy(buf + as, word, m);
	return len - n + m;
}

static size_t mutate(uint8_t *buf, size_t len, size_t cap)
{
	size_t a, b, n;
	const char *d;

	switch (pick(8)) {
	case 6:
	case 7:
		return swap_word(buf, len, cap);
	case 0:	/* flip a byte */
		if (len)
			buf[pick(len)] ^= (uint8_t)(1u << pick(8));
		break;
	case 1:	/* random byte */
		if (len)
			buf[pick(len)] = (uint8_t)next_rand();
		break;
	case 2:	/* delete a range */
		if (len) {
			a = pick(len);
			n = pick(len - a > 64 ? 64 : len - a) + 1;
			memmove(buf + a, buf + a + n, len - a - n);
			len -= n;
		}
		break;
	case 3:	/* duplicate a range */
		if (len) {
			a = pick(len);
			n = pick(len - a > 64 ? 64 : len - a) + 1;
			if (len + n <= cap) {
				b = pick(len);
				memmove(buf + b + n, buf + b, len - b);
				memmove(buf + b, buf + (a >= b ? a + n : a), n);
				len += n;
			}
		}
		break;
	default:	/* insert a dictionary fragment */
		d = dict[pick(sizeof(dict) / sizeof(dict[0]))];
		n = strlen(d);
		if (len + n <= cap) {
			b = pick(len + 1);
			memmove(buf + b + n, buf + b, len - b);
			memcpy(buf + b, d, n);
			len += n;
		}
		break;
	}
	return len;
}

static int run_file(const char *path, long mutations)
{
	FILE *f = fopen(path, "rb");
	uint8_t *orig, *buf;
	size_t len, cap, n;
	long i;
	int k;

	if (!f) {
		perror(path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	cap = len + 4096;
	orig = malloc(len + 1);
	buf = malloc(cap);
	if (!orig || !buf || fread(orig, 1, len, f) != len) {
		fclose(f);
		free(orig);
		free(buf);
		fprintf(stderr, "%s: read failed\n", path);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(orig, len);
	for (i = 0; i < mutations; i++) {
		memcpy(buf, orig, len);
		n = len;
		for (k = (int)pick(4); k >= 0; k--)
			n = mutate(buf, n, cap);
		LLVMFuzzerTestOneInput(buf, n);
	}
	free(orig);
	free(buf);
	return 0;
}

static int run_path(const char *path, long mutations, int *count)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char sub[4096];
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path, mutations);
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (run_path(sub, mutations, count) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	long mutations = 0;
	int i, rc = 0, count = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			mutations = atol(argv[++i]);
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			rng = strtoull(argv[++i], NULL, 0) | 1;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: p4lower-fuzz [-m MUTATIONS] [-s SEED] FILE|DIR...\n");
			return 3;
		} else if (run_path(argv[i], mutations, &count) < 0) {
			rc = 1;
		}
	}
	printf("p4lower-fuzz: %d input%s, %ld mutation%s each\n", count, count == 1 ? "" : "s",
	       mutations, mutations == 1 ? "" : "s");
	return rc;
}
