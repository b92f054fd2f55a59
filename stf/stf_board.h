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

#define STF_BOARD_MAX_PORTS 16

/* A port's MAC counters (16 bits each, wrapping): the first six as the testbench read them
 * from the MACs' registers (and the control link's READs agreed), the last three as read
 * over the control link. */
struct stf_board_mac {
	unsigned rx_frames, rx_drops, rx_fcs_errors, rx_runts, rx_giants, tx_drops;
	unsigned rx_bytes, tx_frames, tx_bytes;
};

struct stf_board_burst {
	unsigned nports;		/* ports the board has (it sent counters for) */
	struct stf_board_mac mac[STF_BOARD_MAX_PORTS];
	unsigned long long in_ns;	/* from the start to the last frame in */
	unsigned long long out_ns;	/* to the last frame out (0: none) */
	unsigned clk_ns;		/* the simulated core clock's period */
};

/* count copies of frame[p] (len[p] bytes; 0: none) into each port p < nports at once, each
 * port's back to back at line rate; out gets each frame the PHYs sent until the board is
 * quiet, res the MACs' counters afterwards (read by the testbench and over the control link,
 * which must agree) and the times. count 0 only reads the counters. */
int stf_board_burst(struct stf_board *b, unsigned nports, const uint8_t *const *frame,
		    const size_t *len, unsigned long count, stf_rtl_out_fn out, void *arg,
		    struct stf_board_burst *res);
const char *stf_board_error(const struct stf_board *b);

struct stf_file;
/* pisa-stf --burst COUNT (stf_burst.c) on the board's nports ports: the report lines to rep,
 * progress to log (may be NULL). 0: passed; 1: failed, -1: could not run (why in msg). */
int stf_burst_run(struct stf_board *b, const struct stf_file *f, unsigned nports,
		  unsigned long count, FILE *rep, FILE *log, char *msg, size_t msglen);
void stf_board_free(struct stf_board *b);

#endif
