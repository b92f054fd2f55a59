/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport.h: how pisad reaches its switch. Every transport hands pisad a
 * connected byte stream (a file descriptor) that lib/pisa_link.h runs the
 * control protocol over; what is behind it differs:
 *   sim:PATH     a Unix stream socket a simulated switch listens on
 *                (pisa-model --control PATH, the Icarus co-simulation)
 *   model:IMAGE  a pisa-model child started by pisad on a private socket
 *   uart         FT2232H channel B as a UART (libftdi), bridged to a socketpair
 *   spi          FT2232H channel A as an MPSSE SPI master, bridged likewise
 *   eth:IF[,MAC] Ethernet management frames on interface IF (AF_PACKET, EtherType
 *                0x88B5) to the board MAC or broadcast, bridged likewise
 */
#ifndef HOST_TRANSPORT_H
#define HOST_TRANSPORT_H

#include <stddef.h>

struct transport;

struct transport_ops {
	/* Opens the stream; returns its fd (the transport owns it), or -1 with
	 * a one-line reason in err. */
	int (*connect)(struct transport *t, char *err, size_t errlen);
	/* Closes the stream (the switch may stay up). */
	void (*disconnect)(struct transport *t);
	/* Frees everything, stops any child. */
	void (*destroy)(struct transport *t);
};

struct transport {
	const struct transport_ops *ops;
	char desc[300];		/* for logs and `status` */
	void *priv;
};

/*
 * spec: "uart", "spi", "eth:IF[,MAC]", "sim:PATH" or "model:IMAGE". device: an FT2232H
 * serial number or NULL (the first one). bindir: where pisa-model is.
 * Returns 0, or -1 with a reason in err.
 */
int transport_open(struct transport *t, const char *spec, const char *device,
		   const char *bindir, char *err, size_t errlen);

/* The implementations' constructors (transport_unix.c, transport_ftdi.c). */
int transport_sim_open(struct transport *t, const char *path, char *err, size_t errlen);
int transport_model_open(struct transport *t, const char *image, const char *bindir,
			 char *err, size_t errlen);
int transport_ftdi_open(struct transport *t, int spi, const char *device, char *err,
			size_t errlen);
/* spec: what follows "eth:", an interface name and optionally ",MAC" (transport_eth.c). */
int transport_eth_open(struct transport *t, const char *spec, char *err, size_t errlen);

#endif
