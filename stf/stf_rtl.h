/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stf_rtl.h: the RTL core in Icarus as a switch, with the contract of
 * pisa-model: struct pisa_switch_ops for the control plane, and an inject
 * that returns when the packet and everything it sent are done.
 */
#ifndef STF_RTL_H
#define STF_RTL_H

#include <stdint.h>
#include <stdio.h>

#include "pisa_switch.h"

struct stf_rtl;

extern const struct pisa_switch_ops stf_rtl_ops;

typedef void (*stf_rtl_out_fn)(void *arg, uint16_t port, const uint8_t *data, size_t len);

/* Lays img out for the core (lib/pisa_hwconf.c) and starts the harness (a
 * vvp file) with it loaded; vvp's output and the core's counters at the end
 * go to log (NULL: nowhere). NULL with the reason in err when the core
 * cannot run img or the simulation does not start. */
struct stf_rtl *stf_rtl_new(const struct pisa_image *img, const char *harness, FILE *log,
			    char *err, size_t errlen);
/* Digests the core sends while a packet runs go to fn (port = digest id). */
void stf_rtl_set_digest_cb(struct stf_rtl *r, stf_rtl_out_fn fn, void *arg);
/* Runs one packet (1 .. 65535 bytes) arriving at time now (us); out gets
 * each packet that left, in order. 0 or a negative pisa_err. */
int stf_rtl_inject(struct stf_rtl *r, unsigned port, const uint8_t *d, size_t len, uint64_t now,
		   stf_rtl_out_fn out, void *arg);
/* The packet sink's random back-pressure on (the start) or off (always
 * ready: benchmarks measure the core, not the sink). 0 or -PISA_E_IO. */
int stf_rtl_backpressure(struct stf_rtl *r, int on);
/* The core's counters: packets taken, sent, dropped (by the program, or no
 * image), too long; clock cycles spent on packets. */
struct stf_rtl_stats {
	uint64_t rx, tx, drop, oversize, cycles;
};
int stf_rtl_stats(struct stf_rtl *r, struct stf_rtl_stats *st);
/* Why the simulation stopped answering, or NULL while it runs. */
const char *stf_rtl_error(const struct stf_rtl *r);
void stf_rtl_free(struct stf_rtl *r);

#endif
