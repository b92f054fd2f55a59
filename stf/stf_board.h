/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf_board.h: a board's switch top in Icarus (sim/board/tb_board.v) as a switch: the control
 * plane through the board's UART pins (lib/pisa_link.c over the simulation's socket), packets
 * through its PHY pins (the simulation's packet socket).
 */
#ifndef STF_BOARD_H
#define STF_BOARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stf_rtl.h"

struct stf_board;

/* Starts vvp on the board's testbench (VVP; the VPI modules pisa_vpi and pisa_vpi_pkt in
 * VPI_DIR), loads the image file over the simulated UART. NULL with the reason in err. */
struct stf_board *stf_board_new(const char *vvp, const char *vpi_dir, const char *image_path,
				FILE *log, char *err, size_t errlen);
/* The link to hand to pisa_ctl with pisa_link_ops. */
void *stf_board_link(struct stf_board *b);
/* One frame into port's PHY; out gets each frame the PHYs sent until the board is quiet. */
int stf_board_inject(struct stf_board *b, unsigned port, const uint8_t *d, size_t len,
		     stf_rtl_out_fn out, void *arg);
const char *stf_board_error(const struct stf_board *b);
void stf_board_free(struct stf_board *b);

#endif
