/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf.h: p4c's STF packet test format as p4c's BMv2 runner (bmv2stf.py)
 * reads it (../shared/reference/STF_FORMAT.md): the parsed statements, the
 * translation of add/setdefault into simple_switch_CLI lines, the packet
 * comparison, and the runner over pisa-model.
 */
#ifndef STF_H
#define STF_H

#include <stddef.h>
#include <stdio.h>

#include "pisa_image.h"

#define STF_MAX_PORT 511	/* 9-bit v1model ports */
#define STF_MAX_FILE (64u << 20)
#define STF_HEX_BYTES 32	/* packet bytes shown in a message */

enum stf_kind {
	STF_PACKET,
	STF_EXPECT,
	STF_ADD,
	STF_SETDEFAULT,
	STF_CLI,	/* passed to the CLI unchanged (mc_*, mirroring_*, counter_* ...) */
	STF_IGNORED,	/* parsed, ignored by bmv2stf (remove, check_counter, wait, ...) */
};

struct stf_match {
	char *key;
	char *value;
	char *plen;	/* "v/len" form: the part after '/', else NULL */
};

struct stf_arg {
	char *name;
	char *value;
};

struct stf_stmt {
	enum stf_kind kind;
	int line;
	char *keyword;		/* lowercased first word */
	/* packet, expect */
	unsigned port;
	char *data;		/* lowercase nibbles; expect may hold '*' */
	size_t ndata;		/* nibbles */
	int has_data;		/* expect without data matches any packet */
	int exact;		/* expect ended with '$' */
	/* add, setdefault */
	char *table;
	long prio;		/* -1: none */
	size_t nmatch;
	struct stf_match *match;
	char *action;
	size_t nargs;
	struct stf_arg *args;
	/* STF_CLI: the command line for simple_switch_CLI */
	char *cli;
};

struct stf_file {
	size_t n;
	struct stf_stmt *s;
};

/* Parses a whole STF text. On error returns a negative pisa_err and writes
 * "LINE: reason" into err (the caller adds the file name). */
int stf_parse(const char *text, size_t len, struct stf_file *out, char *err, size_t errlen);
void stf_file_free(struct stf_file *f);

/* Translates an add / setdefault statement into the simple_switch_CLI line
 * bmv2stf would send, using the image's runtime info for names and order.
 * Returns a malloc'ed line, or NULL with a reason in err. */
char *stf_xlate(const struct pisa_image *img, const struct stf_stmt *s, char *err, size_t errlen);

/* Compares one received packet with an expect statement (prefix, '*'
 * nibbles, '$'). Returns 0 on a match, else 1 with the first difference in
 * msg. */
int stf_compare(const struct stf_stmt *exp, const unsigned char *data, size_t len,
		char *msg, size_t msglen);

/* A packet statement's bytes (malloc'ed, *len of them), or NULL when out of memory. */
unsigned char *stf_packet_bytes(const struct stf_stmt *s, size_t *len);

/* Writes at most max_bytes of data as hex, then "..." if longer. */
void stf_hex(char *buf, size_t buflen, const unsigned char *data, size_t len, size_t max_bytes);

struct stf_opts {
	int verbose;		/* commands, packets and the model trace to log */
	FILE *log;
	const char *rtl_harness;	/* NULL: run on pisa-model; else on the RTL, this
					 * Icarus harness (stf_rtl.c) */
	const char *board_vvp;		/* non-NULL: on a board-level simulation, this vvp
					 * file (stf_board.c), its VPI modules in board_vpi_dir,
					 * the image loaded from image_path over its UART */
	const char *board_vpi_dir;
	const char *image_path;
	unsigned long burst;		/* board only: after the test, a burst of this many
					 * frames into each of board_ports ports (stf_burst.c),
					 * its report to stdout */
	unsigned board_ports;
};

/*
 * Runs a parsed STF file on pisa-model (or the RTL, or a board) with img. Returns 0 (pass),
 * 1 (fail, first difference in msg), 2 (a statement could not run: "LINE: reason" in
 * msg) or 3 (the switch could not be set up, or the burst could not run: a reason in msg).
 */
int stf_run(const struct pisa_image *img, const struct stf_file *f, const struct stf_opts *o,
	    char *msg, size_t msglen);

#endif
