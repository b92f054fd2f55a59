/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_vpi.h: what pisa_vpi.c (the control socket) shares with pisa_vpi_eth.c (the
 * Ethernet ports): argument helpers, messages, registration, and the packet sockets that an
 * idle wait must also watch.
 */
#ifndef PISA_VPI_H
#define PISA_VPI_H

#include <poll.h>
#include <stddef.h>

#include <vpi_user.h>

void pisa_vpi_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pisa_vpi_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pisa_vpi_put_int(vpiHandle call, int v);
int pisa_vpi_args(vpiHandle call, vpiHandle *args, int max);
long pisa_vpi_arg_int(vpiHandle a, int *ok);
int pisa_vpi_arg_str(vpiHandle a, char *out, size_t cap);
/* Registers an integer system function taking exactly nargs arguments. */
void pisa_vpi_func(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *), int nargs);

/* pisa_vpi_eth.c */
void pisa_vpi_eth_register(void);
int pisa_eth_pollfds(struct pollfd *p, int max);

#endif
