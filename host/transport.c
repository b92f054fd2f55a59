/* SPDX-License-Identifier: Apache-2.0 */
/* transport.c: picks a transport from its --transport spec. */
#include <stdio.h>
#include <string.h>

#include "transport.h"

int transport_open(struct transport *t, const char *spec, const char *device,
		   const char *bindir, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (!strcmp(spec, "uart"))
		return transport_ftdi_open(t, 0, device, err, errlen);
	if (!strcmp(spec, "spi"))
		return transport_ftdi_open(t, 1, device, err, errlen);
	if (!strncmp(spec, "eth:", 4) && spec[4])
		return transport_eth_open(t, spec + 4, err, errlen);
	if (!strncmp(spec, "sim:", 4) && spec[4])
		return transport_sim_open(t, spec + 4, err, errlen);
	if (!strncmp(spec, "model:", 6) && spec[6])
		return transport_model_open(t, spec + 6, bindir, err, errlen);
	snprintf(err, errlen, "unknown transport '%s' (uart, spi, eth:IF[,MAC], sim:PATH or model:IMAGE)",
		 spec);
	return -1;
}
