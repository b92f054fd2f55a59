/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_externs.h: a stage's registers and counters for the generators that test
 * hw/rtl/pisa_stage_externs.v (gen_stage_vectors, within a table's actions and as its direct
 * counter; gen_extern_vectors, one instruction at a time): an image's register arrays and
 * counters laid out in the x_cells 64-bit cells of a stage with X_IDS register ids and X_IDS
 * counter ids, the model's values as cells, and the layout block of the vectors
 * (gen_stage_vectors' header gives its format). Include it after gen_insns.h.
 *
 * add_externs: 2..X_IDS registers (1..6 cells of 1..64 bits) and 2..X_IDS counters (1..4 cells
 * of two words, packets then bytes; kind packets, bytes or both), one after another from a
 * random cell; given a table, one of the counters (a random id) is that table's direct
 * counter instead, with a cell per row. Ids from their number up to X_IDS - 1 have size 0; the
 * other cells hold junk that must stay. put_externs sets the model's registers to random values
 * of their width and its counters to random 64-bit values (0, 1 and all ones among them).
 */
#ifndef STAGE_GEN_EXTERNS_H
#define STAGE_GEN_EXTERNS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_X_CELLS 4096
/* the stage's register and counter cells (pisa_stage_externs' 2^XA), a power of 2 */
static unsigned x_cells = 64;
#define X_REG_CELLS 6		/* a register's cells at most */
#define X_CNT_CELLS 4		/* an indexed counter's cells at most (two words each) */
/* the most cells the registers and counters take besides a direct counter's */
#define X_OTHER_WORDS (X_IDS * X_REG_CELLS + (X_IDS - 1) * 2 * X_CNT_CELLS)

/* The stage's cells: where each register and counter id lies; the rest junk. */
static struct { unsigned base, size; } xreg[X_IDS], xcnt[X_IDS];
static uint64_t xjunk[MAX_X_CELLS];

/* The image's registers and counters (the top comment's), laid out in the cells; direct_table
 * the table (with its rows set) that has a direct counter, -1 for none. The cells must hold
 * them: X_OTHER_WORDS and two a row. */
static void add_externs(struct pisa_image *img, int direct_table)
{
	unsigned i, at, total = 0;

	memset(xreg, 0, sizeof(xreg));
	memset(xcnt, 0, sizeof(xcnt));
	img->nregisters = (uint16_t)(2 + rnd() % (X_IDS - 1));
	img->ncounters = (uint16_t)(2 + rnd() % (X_IDS - 1));
	for (i = 0; i < img->nregisters; i++) {
		unsigned w = rwidth();

		img->registers[i] = (struct pisa_register){ (uint16_t)w,
							    (uint32_t)(1 + rnd() % X_REG_CELLS) };
		total += img->registers[i].size;
	}
	for (i = 0; i < img->ncounters; i++) {
		img->counters[i] = (struct pisa_counter){ (uint8_t)(rnd() % 3),
							  (uint32_t)(1 + rnd() % X_CNT_CELLS), -1 };
		total += 2 * img->counters[i].size;
	}
	if (direct_table >= 0) {
		struct pisa_counter *k = &img->counters[rnd() % img->ncounters];

		total -= 2 * k->size;
		k->size = img->tables[direct_table].rows;
		k->direct_table = (int16_t)direct_table;
		img->tables[direct_table].direct_counter = (int16_t)(k - img->counters);
		total += 2 * k->size;
	}
	at = (unsigned)(rnd() % (x_cells - total + 1));
	for (i = 0; i < img->nregisters; i++) {
		xreg[i].base = at;
		xreg[i].size = img->registers[i].size;
		at += xreg[i].size;
	}
	for (i = 0; i < img->ncounters; i++) {
		xcnt[i].base = at;
		xcnt[i].size = img->counters[i].size;
		at += 2 * xcnt[i].size;
	}
	for (i = 0; i < x_cells; i++)
		xjunk[i] = rnd();
}

/* The cells as the model holds them (set: the model's from cell). */
static void cells(struct pisa_model *m, uint64_t *cell, int set)
{
	unsigned i, j;

	for (i = 0; i < x_cells; i++)
		if (!set)
			cell[i] = xjunk[i];
	for (i = 0; i < m->img->nregisters; i++)
		for (j = 0; j < xreg[i].size; j++) {
			uint64_t *v = &m->regs[i][j];

			if (set)
				*v = cell[xreg[i].base + j];
			else
				cell[xreg[i].base + j] = *v;
		}
	for (i = 0; i < m->img->ncounters; i++)
		for (j = 0; j < xcnt[i].size; j++) {
			uint64_t *p = &m->cnt_pkts[i][j], *b = &m->cnt_bytes[i][j];

			if (set) {
				*p = cell[xcnt[i].base + 2 * j];
				*b = cell[xcnt[i].base + 2 * j + 1];
			} else {
				cell[xcnt[i].base + 2 * j] = *p;
				cell[xcnt[i].base + 2 * j + 1] = *b;
			}
		}
}

static void print_cells(FILE *f, const uint64_t *cell)
{
	unsigned i;

	for (i = 0; i < x_cells; i++)
		fprintf(f, "%016" PRIx64 "%c", cell[i], i % 4 == 3 ? '\n' : ' ');
}

/* The layout block, and the model's first cells: random registers and counters. */
static void put_externs(FILE *f, struct pisa_model *m)
{
	const struct pisa_image *img = m->img;
	uint64_t cell[MAX_X_CELLS];
	unsigned i, j;

	fprintf(f, "%x %x %x\n", x_cells, X_IDS, X_IDS);
	for (i = 0; i < X_IDS; i++)
		fprintf(f, "%x %x %x\n", xreg[i].base, xreg[i].size,
			i < img->nregisters ? img->registers[i].width : 0);
	for (i = 0; i < X_IDS; i++)
		fprintf(f, "%x %x %x\n", xcnt[i].base, xcnt[i].size,
			i < img->ncounters ? img->counters[i].kind : 0);
	cells(m, cell, 0);
	for (i = 0; i < img->nregisters; i++)
		for (j = 0; j < xreg[i].size; j++)
			cell[xreg[i].base + j] = rvalue(64) & mask(img->registers[i].width);
	for (i = 0; i < img->ncounters; i++)
		for (j = 0; j < 2 * xcnt[i].size; j++)
			cell[xcnt[i].base + j] = rvalue(64);
	cells(m, cell, 1);
	print_cells(f, cell);
}

#endif
