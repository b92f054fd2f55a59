/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stf.c: the STF parser, the add/setdefault -> simple_switch_CLI
 * translation (against a hand-made image's runtime info), the packet
 * comparison, the error sets in tests/stf/bad and tests/stf/badnames, and
 * a mutation run over all the files (for ASan). Runs from the repository root.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sources under test, included so that this test needs no library of its own. */
#include "../../stf/stf_parse.c"
#include "../../stf/stf_xlate.c"
#include "../../stf/stf_check.c"

static int failures;

static void result(int ok, const char *name, const char *fmt, const char *a, const char *b)
{
	if (ok) {
		printf("PASS stf %s\n", name);
		return;
	}
	failures++;
	printf("FAIL stf %s: ", name);
	printf(fmt, a ? a : "(null)", b ? b : "(null)");
	printf("\n");
}

/* ---- a hand-made image: only what stf_xlate reads ---- */
static struct pisa_rt_param fwd_params[] = { { "dstAddr", 48, 0 }, { "port", 9, 48 } };
static struct pisa_rt_param port_params[] = { { "port", 9, 0 } };
static struct pisa_rt_action rt_actions[] = {
	{ "MyIngress.ipv4_forward", 1, 2, fwd_params },
	{ "MyIngress.drop", 2, 0, NULL },
	{ "NoAction", 3, 0, NULL },
	{ "MyIngress.set_port", 4, 1, port_params },
	{ "MyEgress.set_port", 5, 1, port_params },
};
static struct pisa_rt_key lpm_keys[] = { { "hdr.ipv4.dstAddr", 32, PISA_MATCH_LPM } };
static struct pisa_rt_key acl_keys[] = {
	{ "hdr.ethernet.etherType", 16, PISA_MATCH_EXACT },
	{ "hdr.ipv4.srcAddr", 32, PISA_MATCH_TERNARY },
	{ "hdr.ipv4.$valid$", 1, PISA_MATCH_EXACT },
};
static struct pisa_rt_key eacl_keys[] = {
	{ "meta.x", 8, PISA_MATCH_OPTIONAL },
	{ "hdr.ipv4.isValid()", 1, PISA_MATCH_EXACT },
};
static struct pisa_rt_key rng_keys[] = { { "hdr.tcp.dport", 16, PISA_MATCH_RANGE } };
static struct pisa_rt_key stack_keys[] = {
	{ "hdr.vlan[0].vid", 12, PISA_MATCH_EXACT },
	{ "hdr.vlan[1].vid", 12, PISA_MATCH_EXACT },
	{ "meta.a.f", 8, PISA_MATCH_EXACT },
	{ "meta.b.f", 8, PISA_MATCH_EXACT },
};
static struct pisa_rt_table rt_tables[] = {
	{ "MyIngress.ipv4_lpm", 10, 1024, 0, 0, 1, lpm_keys },
	{ "MyIngress.acl", 11, 64, 0, 0, 3, acl_keys },
	{ "MyEgress.acl", 12, 64, 0, 0, 2, eacl_keys },
	{ "MyIngress.rng", 13, 16, 0, 0, 1, rng_keys },
	{ "MyIngress.stack", 14, 16, 0, 0, 4, stack_keys },
};
static struct pisa_table_action lpm_acts[] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 } };
static struct pisa_table_action acl_acts[] = { { 3, 0, 0 }, { 1, 0, 0 } };
static struct pisa_table_action eacl_acts[] = { { 4, 0, 0 }, { 2, 0, 0 } };
static struct pisa_table tables[5];
static struct pisa_image img;

static void make_image(void)
{
	tables[0].nactions = 3;
	tables[0].actions = lpm_acts;
	tables[1].nactions = 2;
	tables[1].actions = acl_acts;
	tables[2].nactions = 2;
	tables[2].actions = eacl_acts;
	tables[3].nactions = 2;
	tables[3].actions = acl_acts;
	tables[4].nactions = 2;
	tables[4].actions = acl_acts;
	img.ntables = 5;
	img.tables = tables;
	img.rt_tables = rt_tables;
	img.nactions = 5;
	img.rt_actions = rt_actions;
}

/* Parses one line; returns the error ("" if none). */
static const char *parse1(const char *text, struct stf_file *f)
{
	static char err[512];

	err[0] = '\0';
	if (stf_parse(text, strlen(text), f, err, sizeof(err)) < 0)
		return err;
	return "";
}

/* One STF add/setdefault line and the CLI line (or "error: ...") expected. */
static void xlate_case(const char *stf, const char *want)
{
	struct stf_file f;
	char err[512], got[1024];
	const char *perr = parse1(stf, &f);
	char *line;

	if (perr[0]) {
		snprintf(got, sizeof(got), "parse error: %s", perr);
	} else if (f.n != 1) {
		snprintf(got, sizeof(got), "%zu statements", f.n);
	} else {
		line = stf_xlate(&img, &f.s[0], err, sizeof(err));
		if (line)
			snprintf(got, sizeof(got), "%s", line);
		else
			snprintf(got, sizeof(got), "error: %s", err);
		free(line);
	}
	stf_file_free(&f);
	/* errors are compared by prefix, since they go on with lists of names */
	if (!strncmp(want, "error: ", 7))
		result(!strncmp(got, want, strlen(want)), stf, "got '%s', want '%s...'", got, want);
	else
		result(!strcmp(got, want), stf, "got '%s', want '%s'", got, want);
}

static void test_xlate(void)
{
	xlate_case("add ipv4_lpm hdr.ipv4.dstAddr:0x0a01**** ipv4_forward(dstAddr:0x000000000111, port:3)",
		   "table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 0x0a010000/16 => 0x000000000111 3");
	xlate_case("add MyIngress.ipv4_lpm dstAddr:0x0a010203 MyIngress.ipv4_forward(port:3,dstAddr:1)",
		   "table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 0x0a010203/32 => 1 3");
	xlate_case("add ipv4_lpm dstAddr:0b1010**** drop()",
		   "table_add MyIngress.ipv4_lpm MyIngress.drop 0b10100000/4 =>");
	xlate_case("add ipv4_lpm dstAddr:0x0a000000/8 drop()",
		   "table_add MyIngress.ipv4_lpm MyIngress.drop 0x0a000000/8 =>");
	xlate_case("add ipv4_lpm drop()", "table_add MyIngress.ipv4_lpm MyIngress.drop 0/0 =>");
	xlate_case("add ipv4_lpm dstAddr:167772160 drop()", "error: key 'hdr.ipv4.dstAddr' is lpm: decimal");
	xlate_case("ADD ipv4_lpm dstAddr:0x0a000000 drop() = h1",
		   "table_add MyIngress.ipv4_lpm MyIngress.drop 0x0a000000/32 =>");
	/* ternary table: priority 10000 - P, keys in table order, omitted keys filled */
	xlate_case("add MyIngress.acl 503 hdr.ipv4.srcAddr:0x****0101 etherType:0x0800 set_port(port:7)",
		   "table_add MyIngress.acl MyIngress.set_port 0x0800 0x00000101&&&0x0000FFFF 0 => 7 9497");
	xlate_case("add MyIngress.acl 1 srcAddr:0b1*01 set_port(port:7)",
		   "table_add MyIngress.acl MyIngress.set_port 0 0b1001&&&0b1011 0 => 7 9999");
	xlate_case("add MyIngress.acl 10 drop()", "table_add MyIngress.acl MyIngress.drop 0 0&&&0 0 => 9990");
	xlate_case("add MyIngress.acl 10 hdr.ipv4.valid:1 drop()",
		   "table_add MyIngress.acl MyIngress.drop 0 0&&&0 1 => 9990");
	xlate_case("add MyIngress.acl 10 ipv4.$valid$:1 drop()",
		   "table_add MyIngress.acl MyIngress.drop 0 0&&&0 1 => 9990");
	xlate_case("add MyIngress.acl 10 hdr.ipv4:1 drop()",
		   "table_add MyIngress.acl MyIngress.drop 0 0&&&0 1 => 9990");
	xlate_case("add MyIngress.acl 10 valid:1 drop()",
		   "table_add MyIngress.acl MyIngress.drop 0 0&&&0 1 => 9990");
	xlate_case("add MyIngress.acl srcAddr:0x01 drop()",
		   "error: table MyIngress.acl has ternary keys: add needs a priority");
	xlate_case("add MyIngress.acl 1 srcAddr:257 drop()",
		   "error: key 'hdr.ipv4.srcAddr' is ternary: decimal value 257 is not supported");
	xlate_case("add MyIngress.acl 10001 drop()", "error: priority 10001 is too large");
	xlate_case("add MyIngress.acl 1 srcAddr:0x01/8 drop()",
		   "error: key 'hdr.ipv4.srcAddr' is not lpm");
	xlate_case("add MyIngress.acl 1 etherType:0x08** drop()",
		   "error: key 'hdr.ethernet.etherType' is exact: '*' is not allowed");
	/* optional keys are ternary; isValid() key names; priority dropped on exact tables */
	xlate_case("add MyEgress.acl 5 x:0x3 ipv4.valid:1 NoAction()",
		   "table_add MyEgress.acl NoAction 0x3&&&0xF 1 => 9995");
	xlate_case("add ipv4_lpm 7 dstAddr:0x0a000000 NoAction()",
		   "table_add MyIngress.ipv4_lpm NoAction 0x0a000000/32 =>");
	/* names */
	xlate_case("add acl 1 drop()", "error: table name 'acl' is ambiguous (MyIngress.acl, MyEgress.acl)");
	xlate_case("add nosuch drop()", "error: unknown table 'nosuch' (tables: MyIngress.ipv4_lpm,");
	xlate_case("add ipv4_lpm nokey:1 drop()",
		   "error: table MyIngress.ipv4_lpm has no key 'nokey' (keys: hdr.ipv4.dstAddr)");
	xlate_case("add ipv4_lpm Addr:1 drop()", "error: table MyIngress.ipv4_lpm has no key 'Addr'");
	xlate_case("add ipv4_lpm set_port(port:1)",
		   "error: table MyIngress.ipv4_lpm has no action 'set_port' (actions: MyIngress.ipv4_forward, MyIngress.drop, NoAction)");
	xlate_case("add ipv4_lpm ipv4_forward(port:1)",
		   "error: action 'MyIngress.ipv4_forward': missing argument 'dstAddr'");
	xlate_case("add ipv4_lpm ipv4_forward(port:1, dstAddr:2, ttl:3)",
		   "error: action 'MyIngress.ipv4_forward' has no parameter 'ttl' (parameters: dstAddr, port)");
	xlate_case("add MyIngress.rng 1 dport:5 drop()",
		   "error: table MyIngress.rng has a range key 'hdr.tcp.dport'");
	xlate_case("add stack vlan$0.vid:1 hdr.vlan[1].vid:2 a.f:3 meta.b.f:4 drop()",
		   "table_add MyIngress.stack MyIngress.drop 1 2 3 4 =>");
	xlate_case("add stack vid:1 drop()", "error: key name 'vid' is ambiguous in table MyIngress.stack");
	xlate_case("add stack f:1 drop()", "error: key name 'f' is ambiguous");
	xlate_case("add stack a.f:1 a.f:5 drop()", "table_add MyIngress.stack MyIngress.drop 0 0 5 0 =>");
	xlate_case("add \"MyIngress.stack\" a.f:1 drop()",
		   "table_add MyIngress.stack MyIngress.drop 0 0 1 0 =>");
	/* setdefault */
	xlate_case("setdefault ipv4_lpm drop()", "table_set_default MyIngress.ipv4_lpm MyIngress.drop");
	xlate_case("setdefault MyIngress.ipv4_lpm MyIngress.ipv4_forward(port: 2, dstAddr: 0x1)",
		   "table_set_default MyIngress.ipv4_lpm MyIngress.ipv4_forward 0x1 2");
	xlate_case("setdefault MyEgress.acl set_port(port:1)",
		   "table_set_default MyEgress.acl MyEgress.set_port 1");
}

/* A line and the parse error expected ("" = parses). */
static void parse_case(const char *text, const char *want)
{
	struct stf_file f;
	const char *got = parse1(text, &f);
	char name[96];

	snprintf(name, sizeof(name), "parse '%.60s'", text);
	for (char *c = name; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
			*c = '?';
	if (!want[0])
		result(!got[0], name, "unexpected error '%s'%s", got, "");
	else
		result(!strncmp(got, want, strlen(want)), name, "got '%s', want '%s...'", got, want);
	stf_file_free(&f);
}

static void test_parse(void)
{
	struct stf_file f;
	const char *text =
		"# a comment\n"
		"\n"
		"PACKET 0 00000202 0000\t0303 04 # trailing\r\n"
		"expect 3 00000202 ******** **** 07 66\n"
		"expect 1 0A0b $\n"
		"expect 2\n"
		"mc_node_create   400 6   7\n"
		"Mirroring_Add 5 4\n"
		"meter_set_rates m 0 0.00002:10 0.0001:20\n"
		"remove all\n"
		"check_counter c(3) packets == 1\n"
		"wait\n"
		"mc_node_update 0 1 2\n";
	const char *err = parse1(text, &f);
	int ok = !err[0] && f.n == 11;

	ok = ok && f.s[0].kind == STF_PACKET && f.s[0].line == 3 && f.s[0].port == 0 &&
	     !strcmp(f.s[0].data, "000002020000030304");
	ok = ok && f.s[1].kind == STF_EXPECT && f.s[1].port == 3 && f.s[1].ndata == 24 &&
	     f.s[1].has_data && !f.s[1].exact;
	ok = ok && !strcmp(f.s[2].data, "0a0b") && f.s[2].exact && f.s[2].has_data;
	ok = ok && f.s[3].kind == STF_EXPECT && !f.s[3].has_data && f.s[3].port == 2;
	ok = ok && f.s[4].kind == STF_CLI && !strcmp(f.s[4].cli, "mc_node_create 400 6 7");
	ok = ok && !strcmp(f.s[5].cli, "mirroring_add 5 4");
	ok = ok && !strcmp(f.s[6].cli, "meter_set_rates m 0 0.00002:10 0.0001:20");
	ok = ok && f.s[7].kind == STF_IGNORED && f.s[10].kind == STF_IGNORED;
	result(ok, "parse a mixed file", "error '%s' %s", err, ok ? "" : "or wrong statements");
	stf_file_free(&f);

	parse_case("packet 0 0", "1: packet: odd number of hex digits (1) in packet data");
	parse_case("\n\npacket 0 abc", "3: packet: odd number of hex digits (3)");
	parse_case("packet 0", "1: packet: no packet data");
	parse_case("packet", "1: packet: missing port number");
	parse_case("packet x 00", "1: packet: bad port 'x' (decimal 0..511)");
	parse_case("packet 512 00", "1: packet: bad port '512'");
	parse_case("packet 0x1 00", "1: packet: bad port '0x1'");
	parse_case("packet 1 00 zz", "1: packet: bad character 'z' in packet data");
	parse_case("packet 1 00 **", "1: packet: bad character '*'");
	parse_case("expect 1 00 $ 00", "1: expect: '$' must end the expected data");
	parse_case("expect 1 0*0", "");
	parse_case("expect 1 $", "");
	parse_case("expect 1 0g", "1: expect: bad character 'g'");
	parse_case("frobnicate 1", "1: unknown keyword 'frobnicate'");
	parse_case("packet: 1 00", "1: unknown keyword 'packet:'");
	parse_case("no_packet", "1: no_packet is not supported");
	parse_case("add", "1: add: expected a table name, got end of line");
	parse_case("add t", "1: add: missing action");
	parse_case("add t k:1", "1: add: missing action");
	parse_case("add t k:1 a(", "1: unbalanced parenthesis in action 'a': missing ')'");
	parse_case("add t k:1 a(x:1", "1: unbalanced parenthesis in action 'a': missing ')'");
	parse_case("add t k:1 a(x:1,", "1: unbalanced parenthesis in action 'a'");
	parse_case("add t k:1 a(x:1))", "1: unbalanced parenthesis in action 'a': extra ')'");
	parse_case("add t k:1 a x:1)", "1: add: expected ':' or '(' after 'a', got 'x'");
	parse_case("add t k:1 a(x 1)", "1: action 'a': expected ':' after 'x', got '1'");
	parse_case("add t k:1 a(x:y)", "1: action 'a': argument 'x': expected a number, got 'y'");
	parse_case("add t k:1 a(x:0x1*)", "1: action 'a': argument 'x': '*' is not allowed");
	parse_case("add t k:1 a(x:1;y:2)", "1: unexpected character ';'");
	parse_case("add t k:12ab a()", "1: bad number '12ab'");
	parse_case("add t k:0x a()", "1: bad number '0x'");
	parse_case("add t k:0b102 a()", "1: bad number '0b102'");
	parse_case("add t k:0xfg a()", "1: bad number '0xfg'");
	parse_case("add t k: a()", "1: add: key 'k': expected a number, got 'a'");
	parse_case("add t k:1/x a()", "1: add: key 'k': expected a decimal prefix length after '/'");
	parse_case("add t 0x10 k:1 a()", "1: add: bad priority '0x10'");
	parse_case("add t 1 2 a()", "1: add: expected a key name or an action, got '2'");
	parse_case("add t k:1 a() junk", "1: add: unexpected 'junk' after the action");
	parse_case("add t k:1 a() = ", "1: add: expected a name after '=', got end of line");
	parse_case("add \"t k:1 a()", "1: unterminated quoted name");
	parse_case("setdefault t a(x:1) = h", "1: setdefault: unexpected '=' after the action");
	parse_case("setdefault t", "1: setdefault: expected an action, got end of line");
	parse_case("setdefault t a", "1: setdefault: expected '(' after action 'a', got end of line");
	parse_case("mirroring_add 5", "1: mirroring_add: expected at least 2 arguments, got 1");
	parse_case("counter_write c 1 2", "1: counter_write: expected at least 4 arguments, got 3");
	parse_case("mc_mgrp_create\t1", "");
	parse_case("packet 0 00\x01", "1: packet: bad byte 0x01 in packet data");
	parse_case("add t\x7f k:1 a()", "1: unexpected byte 0x7f");
	parse_case("add t k:1 a() # comment (", "");
}

static void compare_case(const char *expect, const char *hex, const char *want)
{
	struct stf_file f;
	char text[256], msg[256] = "";
	unsigned char data[64];
	size_t n = strlen(hex) / 2, i;
	unsigned v;
	int r = -1;

	for (i = 0; i < n; i++) {
		sscanf(hex + 2 * i, "%2x", &v);
		data[i] = (unsigned char)v;
	}
	snprintf(text, sizeof(text), "expect 1 %s", expect);
	if (!parse1(text, &f)[0] && f.n == 1)
		r = stf_compare(&f.s[0], data, n, msg, sizeof(msg));
	stf_file_free(&f);
	snprintf(text, sizeof(text), "compare '%s' with %s", expect, hex);
	if (!want[0])
		result(r == 0, text, "got '%s'%s", msg, "");
	else
		result(r == 1 && !strcmp(msg, want), text, "got '%s', want '%s'", msg, want);
}

static void test_compare(void)
{
	compare_case("0102", "010203", "");
	compare_case("01 02 03", "010203", "");
	compare_case("0102 03 $", "010203", "");
	compare_case("", "010203", "");
	compare_case("**b*", "a1b0", "");
	compare_case("0*02", "011202", "byte 1 (nibble 2) expected 02 got 12");
	compare_case("01*0", "0112", "byte 1 (nibble 3) expected *0 got 12");
	compare_case("000000 3f", "00000040", "byte 3 (nibble 6) expected 3f got 40");
	compare_case("0102 030", "010203", "packet too short: got 3 bytes, expected at least 4 (got 010203)");
	compare_case("0102 $", "010203", "packet too long: got 3 bytes, expected exactly 2 (extra 03)");
	compare_case("$", "", "");
	compare_case("010", "0101", "");
	compare_case("011", "0101", "byte 1 (nibble 2) expected 1 got 01");
}

/* Each file's first line is "# error: LINE: message..."; the first error
 * the file gives (parse, then translation) must start with it. */
static void test_error_files(const char *pattern, int xlate)
{
	glob_t g;
	size_t i, j;

	if (glob(pattern, 0, NULL, &g) != 0) {
		result(0, pattern, "%s%s", "no files match", "");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		char want[512] = "", got[600] = "", err[512];
		struct stf_file f;
		FILE *fp = fopen(path, "rb");
		char *text = NULL;
		size_t len = 0;

		if (fp) {
			text = calloc(1, 1 << 16);
			len = text ? fread(text, 1, (1 << 16) - 1, fp) : 0;
			fclose(fp);
		}
		if (!text || sscanf(text, "# error: %511[^\n]", want) != 1) {
			result(0, path, "%s%s", "no '# error: ' first line", "");
			free(text);
			continue;
		}
		if (stf_parse(text, len, &f, err, sizeof(err)) < 0) {
			snprintf(got, sizeof(got), "%s", err);
		} else {
			for (j = 0; xlate && j < f.n && !got[0]; j++) {
				char *line;

				if (f.s[j].kind != STF_ADD && f.s[j].kind != STF_SETDEFAULT)
					continue;
				line = stf_xlate(&img, &f.s[j], err, sizeof(err));
				if (!line)
					snprintf(got, sizeof(got), "%d: %s", f.s[j].line, err);
				free(line);
			}
			stf_file_free(&f);
		}
		result(!strncmp(got, want, strlen(want)), path, "got '%s', want '%s...'", got, want);
		free(text);
	}
	globfree(&g);
}

/* Every file in tests/stf/good must parse. */
static void test_good_files(void)
{
	glob_t g;
	size_t i;

	if (glob("tests/stf/good/*.stf", 0, NULL, &g) != 0) {
		result(0, "good files", "%s%s", "no files match", "");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		char err[512] = "";
		struct stf_file f;
		FILE *fp = fopen(g.gl_pathv[i], "rb");
		char *text = calloc(1, 1 << 16);
		size_t len = fp && text ? fread(text, 1, (1 << 16) - 1, fp) : 0;

		if (fp)
			fclose(fp);
		if (stf_parse(text ? text : "", len, &f, err, sizeof(err)) == 0)
			stf_file_free(&f);
		result(len > 0 && !err[0], g.gl_pathv[i], "parse error '%s'%s", err, "");
		free(text);
	}
	globfree(&g);
}

/* Random byte flips, insertions and cuts of every test file: the parser
 * and the translation must return (ASan watches), whatever they get. */
static void test_mutations(void)
{
	const char *pats[] = { "tests/stf/bad/*.stf", "tests/stf/badnames/*.stf",
			       "tests/stf/good/*.stf" };
	static const char alphabet[] = "0123456789abcdefx*$#:/(),= \t\n\"._[]\x01\xff";
	unsigned long seed = 12345, runs = 0;
	size_t p, i, j, k;

	for (p = 0; p < 3; p++) {
		glob_t g;

		if (glob(pats[p], 0, NULL, &g) != 0)
			continue;
		for (i = 0; i < g.gl_pathc; i++) {
			char base[4096], buf[4200], err[256];
			FILE *fp = fopen(g.gl_pathv[i], "rb");
			size_t len;

			if (!fp)
				continue;
			len = fread(base, 1, sizeof(base), fp);
			fclose(fp);
			for (j = 0; j < 1000; j++) {
				struct stf_file f;
				size_t n = len;

				memcpy(buf, base, len);
				for (k = 0; k < 3 && n; k++) {
					size_t at;

					seed = seed * 6364136223846793005ul + 1442695040888963407ul;
					at = (seed >> 33) % n;
					switch ((seed >> 20) % 3) {
					case 0:
						buf[at] = alphabet[(seed >> 40) % (sizeof(alphabet) - 1)];
						break;
					case 1:
						if (n < sizeof(buf)) {
							memmove(buf + at + 1, buf + at, n - at);
							buf[at] = alphabet[(seed >> 40) % (sizeof(alphabet) - 1)];
							n++;
						}
						break;
					default:
						n = at;
						break;
					}
				}
				if (stf_parse(buf, n, &f, err, sizeof(err)) == 0) {
					for (k = 0; k < f.n; k++) {
						if (f.s[k].kind == STF_ADD || f.s[k].kind == STF_SETDEFAULT)
							free(stf_xlate(&img, &f.s[k], err, sizeof(err)));
					}
					stf_file_free(&f);
				}
				runs++;
			}
		}
		globfree(&g);
	}
	result(runs > 0, "mutations (parser and translation return)", "%s%s", "no files", "");
}

int main(void)
{
	make_image();
	test_parse();
	test_xlate();
	test_compare();
	test_error_files("tests/stf/bad/*.stf", 0);
	test_error_files("tests/stf/badnames/*.stf", 1);
	test_good_files();
	test_mutations();
	return failures ? 1 : 0;
}
