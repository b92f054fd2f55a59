/* SPDX-License-Identifier: MIT */
/* p4lower back end: the checked AST to a config image (lower.c). */
#ifndef P4LOWER_BACKEND_H
#define P4LOWER_BACKEND_H

#include <stdio.h>
#include "ast.h"

#define P4L_EXIT_OK 0
#define P4L_EXIT_PROG 1
#define P4L_EXIT_FIT 2

struct p4_backend_opts {
	const char *board;	/* profile name */
	const char *out;	/* image path, or NULL: do not write */
	const char *program;	/* program name for the image */
	FILE *dump;		/* --dump image: print the lowered program here */
};

/* Lowers a checked program; returns one of P4L_EXIT_*. Messages go to stderr. */
int p4_backend(struct p4_node *prog, const struct p4_backend_opts *o);

#endif
