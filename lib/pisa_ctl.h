/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_ctl.h: the control plane's view of one switch. It keeps a shadow of
 * everything written (entries with their handles, defaults, multicast
 * groups, clone sessions, meter rates), turns BMv2 simple_switch_CLI
 * commands into the primitive writes of pisa_switch.h, and can replay the
 * shadow into a switch that lost its state.
 */
#ifndef PISA_CTL_H
#define PISA_CTL_H

#include <stddef.h>
#include <stdio.h>

#include "pisa_image.h"
#include "pisa_switch.h"

struct pisa_ctl;

/* img must outlive the ctl. NULL on no memory. */
struct pisa_ctl *pisa_ctl_new(const struct pisa_image *img,
			      const struct pisa_switch_ops *ops, void *sw);
void pisa_ctl_free(struct pisa_ctl *c);

/* Writes the image's initial state (default rows, const entries) to the
 * switch. Call once after the switch loaded the image. */
int pisa_ctl_init(struct pisa_ctl *c);

/* Rewrites every piece of shadow state to the switch (after a reset). */
int pisa_ctl_replay(struct pisa_ctl *c);

/*
 * Runs one simple_switch_CLI command line (../shared/reference/BMV2_CLI.md),
 * e.g. "table_add ipv4_lpm ipv4_forward 10.0.1.1/32 => 08:00:00:00:01:11 1".
 * What BMv2 would print goes to out. On error returns a negative pisa_err and
 * writes a one-line reason naming the bad token into err; the shadow and the
 * switch are unchanged.
 */
int pisa_ctl_exec(struct pisa_ctl *c, const char *line, FILE *out, char *err, size_t errlen);

#endif
