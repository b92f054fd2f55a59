/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_layout.h: the placement report of a config image (where every table,
 * header and extern sits, and how much of the board's budget it takes), as
 * text (PROG.layout.txt) and as an SVG picture (PROG.layout.svg). Both work
 * from the image alone; p4lower calls them after writing an image.
 */
#ifndef PISA_LAYOUT_H
#define PISA_LAYOUT_H

#include <stdio.h>

#include "pisa_image.h"
#include "pisa_profile.h"

/*
 * Stateful memory cost model (bits per cell) used for the per-stage
 * stateful budget; the placer should charge the same. A counter keeps a
 * 64-bit count per counted unit (as BMv2 does); a meter cell holds two
 * 32-bit buckets and a 32-bit timestamp; a register cell is its width.
 * An indirect extern is charged to every stage whose actions use it.
 */
#define PISA_LAYOUT_COUNT_BITS 64
#define PISA_LAYOUT_METER_CELL_BITS 96

/* Cells each stage's exact and TCAM memory is drawn as (and named by in
 * the text report: "cells 0-3 of 16"). */
#define PISA_LAYOUT_CELLS 16

/*
 * p is the profile to measure against; NULL looks up img->board (and
 * leaves budgets out if there is no such profile). Output is deterministic.
 * Return 0, -PISA_E_INVAL or -PISA_E_IO (a write to f failed), -PISA_E_NOMEM.
 */
int pisa_layout_write_txt(const struct pisa_image *img, const struct pisa_profile *p, FILE *f);
int pisa_layout_write_svg(const struct pisa_image *img, const struct pisa_profile *p, FILE *f);

#endif
