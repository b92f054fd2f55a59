/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_ftdi.c: a board's FT2232H (0403:6010) through libftdi1.
 *   uart: channel B, 8N1, no flow control, PISAD_UART_BAUD (default
 *         3000000, at most 12000000).
 *   spi:  channel A in MPSSE mode as SPI master, mode 0, MSB first,
 *         SCK = PISAD_SPI_HZ (default 6000000, at most 30000000),
 *         ADBUS0 SCK, 1 MOSI, 2 MISO, 4 CS (active low), 7 CRESET held high.
 *         SPI is master-driven, so while idle the bridge clocks filler
 *         bytes (0x00) every millisecond to collect what the switch sends;
 *         the frame hunt skips filler in both directions.
 * pisa_link needs a file descriptor, libftdi has none: a thread moves bytes
 * between one end of a socketpair (the link's fd) and the USB device. When
 * the device fails or vanishes the thread closes its end, the link sees the
 * stream close, and pisad reconnects.
 * Not yet run against hardware; without a device connect() fails cleanly.
 */
#include <errno.h>
#include <ftdi.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hostcommon.h"
#include "transport.h"

#define SPI_POLL_BYTES 64
#define XFER_MAX 4096

struct ftdi_priv {
	int spi;
	char serial[64];
	unsigned long rate;
	struct ftdi_context *ctx;
	int fd, peer;
	pthread_t thread;
	int running;
	atomic_int stop;
};

static unsigned long env_rate(const char *name, unsigned long dflt, unsigned long max)
{
	const char *e = getenv(name);
	char *end;
	unsigned long v;

	if (!e || !*e)
		return dflt;
	v = strtoul(e, &end, 10);
	if (*end || v == 0 || v > max)
		return dflt;
	return v;
}

static int send_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One SPI transaction: CS low, n bytes out and in at once, CS high. */
static int spi_xfer(struct ftdi_context *ctx, const uint8_t *out, uint8_t *in, size_t n)
{
	uint8_t cmd[XFER_MAX + 16];
	size_t k = 0, got = 0;
	int tries = 0;

	cmd[k++] = 0x80; cmd[k++] = 0x80; cmd[k++] = 0x93;	/* CS low */
	cmd[k++] = 0x31;
	cmd[k++] = (uint8_t)(n - 1);
	cmd[k++] = (uint8_t)((n - 1) >> 8);
	memcpy(cmd + k, out, n);
	k += n;
	cmd[k++] = 0x80; cmd[k++] = 0x90; cmd[k++] = 0x93;	/* CS high */
	cmd[k++] = 0x87;	/* send the answer now */
	if (ftdi_write_data(ctx, cmd, (int)k) != (int)k)
		return -1;
	while (got < n) {
		int r = ftdi_read_data(ctx, in + got, (int)(n - got));

		if (r < 0 || (r == 0 && ++tries > 1000))
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static void *bridge(void *arg)
{
	struct ftdi_priv *p = arg;
	uint8_t out[XFER_MAX], in[XFER_MAX];

	while (!atomic_load(&p->stop)) {
		struct pollfd pfd = { p->peer, POLLIN, 0 };
		ssize_t n = 0;
		int r;

		if (poll(&pfd, 1, 1) > 0) {
			n = recv(p->peer, out, p->spi ? XFER_MAX : sizeof(out), MSG_DONTWAIT);
			if (n == 0)
				break;	/* the link closed its end */
			if (n < 0)
				n = 0;
		}
		if (p->spi) {
			if (n == 0) {
				memset(out, 0, SPI_POLL_BYTES);
				n = SPI_POLL_BYTES;
			}
			if (spi_xfer(p->ctx, out, in, (size_t)n) < 0)
				break;
			if (send_all(p->peer, in, (size_t)n) < 0)
				break;
			continue;
		}
		if (n > 0 && ftdi_write_data(p->ctx, out, (int)n) != (int)n)
			break;
		r = ftdi_read_data(p->ctx, in, sizeof(in));
		if (r < 0)
			break;
		if (r > 0 && send_all(p->peer, in, (size_t)r) < 0)
			break;
	}
	/* the link sees the stream close and pisad reconnects */
	shutdown(p->peer, SHUT_RDWR);
	return NULL;
}

static void ftdi_disconnect(struct transport *t)
{
	struct ftdi_priv *p = t->priv;

	if (p->running) {
		atomic_store(&p->stop, 1);
		pthread_join(p->thread, NULL);
		p->running = 0;
	}
	if (p->fd >= 0)
		close(p->fd);
	if (p->peer >= 0)
		close(p->peer);
	p->fd = p->peer = -1;
	if (p->ctx) {
		ftdi_usb_close(p->ctx);
		ftdi_free(p->ctx);
		p->ctx = NULL;
	}
}

static int setup_uart(struct ftdi_priv *p)
{
	struct ftdi_context *c = p->ctx;

	return ftdi_set_bitmode(c, 0, BITMODE_RESET) < 0 ||
	       ftdi_set_baudrate(c, (int)p->rate) < 0 ||
	       ftdi_set_line_property(c, BITS_8, STOP_BIT_1, NONE) < 0 ||
	       ftdi_setflowctrl(c, SIO_DISABLE_FLOW_CTRL) < 0 ? -1 : 0;
}

static int setup_spi(struct ftdi_priv *p)
{
	struct ftdi_context *c = p->ctx;
	/* SCK = 60 MHz / (2 * (div + 1)) with the divide-by-5 off */
	unsigned long div = (60000000ul + 2 * p->rate - 1) / (2 * p->rate) - 1;
	uint8_t cmd[] = { 0x8A, 0x97, 0x8D, 0x86, (uint8_t)div, (uint8_t)(div >> 8),
			  0x80, 0x90, 0x93 };

	if (ftdi_set_bitmode(c, 0xff, BITMODE_MPSSE) < 0)
		return -1;
	return ftdi_write_data(c, cmd, sizeof(cmd)) == (int)sizeof(cmd) ? 0 : -1;
}

static int ftdi_connect(struct transport *t, char *err, size_t errlen)
{
	struct ftdi_priv *p = t->priv;
	int sv[2];

	ftdi_disconnect(t);
	p->ctx = ftdi_new();
	if (!p->ctx) {
		snprintf(err, errlen, "libftdi: ftdi_new failed");
		return -1;
	}
	if (ftdi_set_interface(p->ctx, p->spi ? INTERFACE_A : INTERFACE_B) < 0 ||
	    ftdi_usb_open_desc(p->ctx, HC_FT2232H_VID, HC_FT2232H_PID, NULL, p->serial[0] ? p->serial : NULL) < 0) {
		snprintf(err, errlen, "no FT2232H %04x:%04x%s%s found for the %s transport: %s",
			 HC_FT2232H_VID, HC_FT2232H_PID, p->serial[0] ? " with serial " : "", p->serial,
			 p->spi ? "spi (channel A)" : "uart (channel B)",
			 ftdi_get_error_string(p->ctx));
		ftdi_free(p->ctx);
		p->ctx = NULL;
		return -1;
	}
	if (ftdi_usb_reset(p->ctx) < 0 || ftdi_tcioflush(p->ctx) < 0 ||
	    ftdi_set_latency_timer(p->ctx, 1) < 0 ||
	    (p->spi ? setup_spi(p) : setup_uart(p)) < 0) {
		snprintf(err, errlen, "FT2232H setup failed: %s", ftdi_get_error_string(p->ctx));
		ftdi_disconnect(t);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		ftdi_disconnect(t);
		return -1;
	}
	p->fd = sv[0];
	p->peer = sv[1];
	atomic_store(&p->stop, 0);
	if (pthread_create(&p->thread, NULL, bridge, p) != 0) {
		snprintf(err, errlen, "cannot start the USB bridge thread");
		ftdi_disconnect(t);
		return -1;
	}
	p->running = 1;
	return p->fd;
}

static void ftdi_destroy(struct transport *t)
{
	if (!t->priv)
		return;
	ftdi_disconnect(t);
	free(t->priv);
	t->priv = NULL;
}

static const struct transport_ops ftdi_ops = { ftdi_connect, ftdi_disconnect, ftdi_destroy };

int transport_ftdi_open(struct transport *t, int spi, const char *device, char *err,
			size_t errlen)
{
	struct ftdi_priv *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errlen, "no memory");
		return -1;
	}
	if (device && strlen(device) >= sizeof(p->serial)) {
		snprintf(err, errlen, "--device: serial number too long");
		free(p);
		return -1;
	}
	p->spi = spi;
	snprintf(p->serial, sizeof(p->serial), "%s", device ? device : "");
	p->rate = spi ? env_rate("PISAD_SPI_HZ", 6000000, 30000000) :
			env_rate("PISAD_UART_BAUD", 3000000, 12000000);
	p->fd = p->peer = -1;
	atomic_init(&p->stop, 0);
	t->ops = &ftdi_ops;
	t->priv = p;
	snprintf(t->desc, sizeof(t->desc), "%s FT2232H %s%s at %lu %s", spi ? "spi" : "uart",
		 p->serial[0] ? "serial " : "(first found)", p->serial, p->rate,
		 spi ? "Hz" : "baud");
	return 0;
}
