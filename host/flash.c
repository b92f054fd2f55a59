/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flash.c: the SPI NOR programming sequence of pisactl flash, spoken as
 * MPSSE command bytes over a struct mpsse_io (see flash.h).
 *
 *   1. MPSSE set up (clock divisor, no divide-by-5, no adaptive or 3-phase
 *      clocking), then a deliberately bad opcode to check that the engine
 *      answers (0xFA, opcode) and that the pipe is in step.
 *   2. CRESET_B driven low with the SPI pins still inputs, so the FPGA lets
 *      go of the flash before we drive it; then SCK, MOSI and CS driven.
 *   3. Release power-down, read the JEDEC id, look it up.
 *   4. For each 64 KiB block the data covers: write enable (checked in the
 *      status register), block erase, wait for busy to clear.
 *   5. For each 256-byte page that is not all 0xFF: write enable, page
 *      program, wait for busy to clear.
 *   6. Read everything back and compare.
 *   7. SPI pins back to inputs, CRESET_B released, CDONE read until high.
 * Every wait has a time limit; every error names its step and address.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "flash.h"

#define CMD_MAX 1024		/* one transaction's command bytes */
#define READ_CHUNK 4096u	/* verify reads per transaction */

struct fctx {
	const struct mpsse_io *io;
	const struct flash_opts *opts;
	uint8_t cmd[CMD_MAX];
	size_t n;
	char *err;
	size_t errlen;
};

/* ---- JEDEC ids ---- */

static const struct flash_chip known_chips[] = {
	{ { 0xEF, 0x40, 0x14 }, "Winbond W25Q80", 1u << 20 },
	{ { 0xEF, 0x40, 0x15 }, "Winbond W25Q16", 2u << 20 },
	{ { 0xEF, 0x40, 0x16 }, "Winbond W25Q32", 4u << 20 },
	{ { 0xEF, 0x40, 0x17 }, "Winbond W25Q64", 8u << 20 },
	{ { 0xEF, 0x40, 0x18 }, "Winbond W25Q128 (iCEBreaker)", 16u << 20 },
	{ { 0xEF, 0x70, 0x18 }, "Winbond W25Q128JV-M", 16u << 20 },
	{ { 0x20, 0xBA, 0x16 }, "Micron N25Q032 (iCE40-HX8K Breakout)", 4u << 20 },
	{ { 0x20, 0xBA, 0x17 }, "Micron N25Q064", 8u << 20 },
	{ { 0x20, 0xBA, 0x18 }, "Micron N25Q128", 16u << 20 },
	{ { 0x20, 0x20, 0x14 }, "Micron M25P80", 1u << 20 },
	{ { 0xC2, 0x20, 0x15 }, "Macronix MX25L1606E", 2u << 20 },
	{ { 0xC2, 0x20, 0x16 }, "Macronix MX25L3233F", 4u << 20 },
	{ { 0xC2, 0x20, 0x18 }, "Macronix MX25L12835F", 16u << 20 },
	{ { 0xC8, 0x40, 0x15 }, "GigaDevice GD25Q16", 2u << 20 },
	{ { 0xC8, 0x40, 0x16 }, "GigaDevice GD25Q32", 4u << 20 },
	{ { 0xC8, 0x40, 0x18 }, "GigaDevice GD25Q128", 16u << 20 },
	{ { 0x9D, 0x60, 0x16 }, "ISSI IS25LP032", 4u << 20 },
	{ { 0x9D, 0x60, 0x18 }, "ISSI IS25LP128", 16u << 20 },
};

/* Manufacturers whose capacity byte is log2(bytes): accepted as generic parts. */
static const struct {
	uint8_t id;
	const char *name;
} known_makers[] = {
	{ 0xEF, "Winbond" }, { 0x20, "Micron" }, { 0xC2, "Macronix" }, { 0xC8, "GigaDevice" },
	{ 0x9D, "ISSI" }, { 0x01, "Cypress/Spansion" }, { 0x85, "Puya" }, { 0x68, "Boya" },
	{ 0x0B, "XTX" },
};

int flash_identify(const uint8_t id[3], struct flash_chip *chip)
{
	size_t i;

	for (i = 0; i < sizeof(known_chips) / sizeof(known_chips[0]); i++) {
		if (!memcmp(known_chips[i].id, id, 3)) {
			*chip = known_chips[i];
			return 0;
		}
	}
	for (i = 0; i < sizeof(known_makers) / sizeof(known_makers[0]); i++) {
		if (known_makers[i].id == id[0] && id[2] >= 0x11 && id[2] <= 0x19) {
			memcpy(chip->id, id, 3);
			chip->name = known_makers[i].name;
			chip->size = id[2] >= 0x18 ? FLASH_MAX_SIZE : 1u << id[2];
			return 0;
		}
	}
	return -1;
}

/* ---- the byte pipe ---- */

static void fail(struct fctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
}

uint64_t flash_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t now_us(struct fctx *c)
{
	return c->io->now_us ? c->io->now_us(c->io->ctx) : flash_mono_us();
}

static void sleep_us(struct fctx *c, uint64_t us)
{
	struct timespec ts;

	if (c->io->sleep_us) {
		c->io->sleep_us(c->io->ctx, us);
		return;
	}
	ts.tv_sec = (time_t)(us / 1000000u);
	ts.tv_nsec = (long)(us % 1000000u) * 1000;
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void q1(struct fctx *c, uint8_t b)
{
	if (c->n < CMD_MAX)
		c->cmd[c->n++] = b;
}

static void qn(struct fctx *c, const uint8_t *p, size_t n)
{
	if (c->n + n <= CMD_MAX) {
		memcpy(c->cmd + c->n, p, n);
		c->n += n;
	}
}

static void q_low(struct fctx *c, uint8_t value, uint8_t dir)
{
	q1(c, MPSSE_SET_LOW);
	q1(c, value);
	q1(c, dir);
}

#define BUS_DIR (FLASH_PIN_SCK | FLASH_PIN_MOSI | FLASH_PIN_CS | FLASH_PIN_CRESET)

/* CS low or high with the FPGA held in reset and SCK idle low (mode 0). */
static void q_cs(struct fctx *c, int low)
{
	q_low(c, low ? 0 : FLASH_PIN_CS, BUS_DIR);
}

/* Sends the queued commands; then reads n answer bytes into in. */
static int xfer(struct fctx *c, const char *step, uint8_t *in, size_t n)
{
	size_t len = c->n;

	c->n = 0;
	if (len && c->io->write(c->io->ctx, c->cmd, len) < 0) {
		fail(c, "%s: writing to the FT2232H failed", step);
		return -1;
	}
	if (n && c->io->read(c->io->ctx, in, n) < 0) {
		fail(c, "%s: the FT2232H did not answer (%zu bytes expected)", step, n);
		return -1;
	}
	return 0;
}

/*
 * One SPI transaction: CS low, out[0..nout) clocked out, nin bytes clocked
 * in, CS high. Reads are answered at once (send immediate).
 */
static int spi(struct fctx *c, const char *step, const uint8_t *out, size_t nout, uint8_t *in,
	       size_t nin)
{
	q_cs(c, 1);
	if (nout) {
		q1(c, MPSSE_OUT_NEG_MSB);
		q1(c, (uint8_t)(nout - 1));
		q1(c, (uint8_t)((nout - 1) >> 8));
		qn(c, out, nout);
	}
	if (nin) {
		q1(c, MPSSE_IN_POS_MSB);
		q1(c, (uint8_t)(nin - 1));
		q1(c, (uint8_t)((nin - 1) >> 8));
	}
	q_cs(c, 0);
	if (nin)
		q1(c, MPSSE_SEND_IMMEDIATE);
	return xfer(c, step, in, nin);
}

static int spi_cmd_addr(struct fctx *c, const char *step, uint8_t op, uint32_t addr,
			const uint8_t *data, size_t ndata, uint8_t *in, size_t nin)
{
	uint8_t out[4 + FLASH_PAGE];

	out[0] = op;
	out[1] = (uint8_t)(addr >> 16);
	out[2] = (uint8_t)(addr >> 8);
	out[3] = (uint8_t)addr;
	if (ndata > FLASH_PAGE)
		ndata = FLASH_PAGE;
	if (ndata)
		memcpy(out + 4, data, ndata);
	return spi(c, step, out, 4 + ndata, in, nin);
}

static int read_status(struct fctx *c, const char *step, uint8_t *sr)
{
	uint8_t op = SPI_READ_STATUS;

	return spi(c, step, &op, 1, sr, 1);
}

/* Waits for the busy bit to clear. 0 done, -1 pipe error, -2 timeout. */
static int wait_ready(struct fctx *c, const char *step, uint32_t addr, uint64_t limit_us)
{
	uint64_t start = now_us(c), pause = 20;
	uint8_t sr;

	for (;;) {
		if (read_status(c, step, &sr) < 0)
			return -1;
		if (!(sr & SPI_STATUS_BUSY))
			return 0;
		if (now_us(c) - start > limit_us) {
			fail(c, "%s: flash still busy at address 0x%06x after %llu ms "
			     "(status register 0x%02x)", step, addr,
			     (unsigned long long)(limit_us / 1000), sr);
			return -2;
		}
		sleep_us(c, pause);
		if (pause < 1000)
			pause *= 2;
	}
}

/* Write enable, checked: a protected or absent flash leaves WEL clear. */
static enum flash_result write_enable(struct fctx *c, const char *step, uint32_t addr, int check)
{
	uint8_t op = SPI_WRITE_ENABLE, sr;

	if (spi(c, step, &op, 1, NULL, 0) < 0)
		return FLASH_ERR_IO;
	if (!check)
		return FLASH_OK;
	if (read_status(c, step, &sr) < 0)
		return FLASH_ERR_IO;
	if (!(sr & SPI_STATUS_WEL)) {
		fail(c, "%s: flash refused write enable at address 0x%06x (status register "
		     "0x%02x; write-protected?)", step, addr, sr);
		return FLASH_ERR_PROTECTED;
	}
	return FLASH_OK;
}

static void progress(struct fctx *c, const char *step, size_t done, size_t total)
{
	if (c->opts && c->opts->progress)
		c->opts->progress(c->opts->progress_arg, step, done, total);
}

/* ---- the steps ---- */

static enum flash_result setup(struct fctx *c)
{
	uint32_t hz = c->opts && c->opts->sck_hz ? c->opts->sck_hz : 6000000u;
	uint32_t div;
	uint8_t echo[2];

	if (hz > 30000000u)
		hz = 30000000u;
	/* SCK = 60 MHz / (2 * (div + 1)), rounded down to at most hz */
	div = (60000000u + 2 * hz - 1) / (2 * hz) - 1;
	if (div > 0xffff)
		div = 0xffff;
	q1(c, MPSSE_DIV5_OFF);
	q1(c, MPSSE_ADAPTIVE_OFF);
	q1(c, MPSSE_3PHASE_OFF);
	q1(c, MPSSE_LOOPBACK_OFF);
	q1(c, MPSSE_SET_DIVISOR);
	q1(c, (uint8_t)div);
	q1(c, (uint8_t)(div >> 8));
	/* FPGA into reset, SPI pins not driven yet */
	q_low(c, 0, FLASH_PIN_CRESET);
	/* a bad opcode: the engine answers 0xFA and the opcode, proving it is in step */
	q1(c, 0xAA);
	q1(c, MPSSE_SEND_IMMEDIATE);
	if (xfer(c, "setup", echo, 2) < 0)
		return FLASH_ERR_IO;
	if (echo[0] != 0xFA || echo[1] != 0xAA) {
		fail(c, "setup: the FT2232H MPSSE engine answered %02x %02x, not fa aa "
		     "(channel A not in MPSSE mode?)", echo[0], echo[1]);
		/* do not leave the FPGA in reset */
		(void)c->io->write(c->io->ctx, (const uint8_t[]){ MPSSE_SET_LOW, FLASH_PIN_CRESET,
								  FLASH_PIN_CRESET }, 3);
		return FLASH_ERR_IO;
	}
	/* CRESET_B low for a while so the FPGA has let go of the bus */
	sleep_us(c, 10000);
	q_cs(c, 0);
	if (xfer(c, "setup", NULL, 0) < 0)
		return FLASH_ERR_IO;
	sleep_us(c, 100);
	return FLASH_OK;
}

static enum flash_result identify(struct fctx *c, struct flash_report *rep)
{
	uint8_t op = SPI_RELEASE_POWER_DOWN, id[3];

	if (spi(c, "wake", &op, 1, NULL, 0) < 0)
		return FLASH_ERR_IO;
	sleep_us(c, 100);	/* tRES1: 3 us on most parts, 30 us on a few */
	op = SPI_READ_JEDEC_ID;
	if (spi(c, "read id", &op, 1, id, 3) < 0)
		return FLASH_ERR_IO;
	if (id[0] == 0xff && id[1] == 0xff && id[2] == 0xff) {
		uint8_t sr;
		int w;

		/* a flash busy with an erase (an earlier run interrupted) ignores
		 * the id command; its status register still answers */
		if (read_status(c, "read id", &sr) < 0)
			return FLASH_ERR_IO;
		if (sr != 0xff && (sr & SPI_STATUS_BUSY)) {
			w = wait_ready(c, "read id", 0, FLASH_TIMEOUT_ERASE_US);
			if (w == -1)
				return FLASH_ERR_IO;
			if (w == -2)
				return FLASH_ERR_TIMEOUT;
			if (spi(c, "read id", &op, 1, id, 3) < 0)
				return FLASH_ERR_IO;
		}
	}
	memcpy(rep->chip.id, id, 3);
	if ((id[0] == 0xff && id[1] == 0xff && id[2] == 0xff) ||
	    (id[0] == 0 && id[1] == 0 && id[2] == 0)) {
		fail(c, "read id: no flash answers (JEDEC id %02x %02x %02x): is the board "
		     "powered, and is it an iCE40 board with its flash on channel A?",
		     id[0], id[1], id[2]);
		return FLASH_ERR_ID;
	}
	if (flash_identify(id, &rep->chip) < 0) {
		fail(c, "read id: unknown flash, JEDEC id %02x %02x %02x (manufacturer, "
		     "type, capacity); not written", id[0], id[1], id[2]);
		return FLASH_ERR_ID;
	}
	return FLASH_OK;
}

static enum flash_result erase(struct fctx *c, size_t len, struct flash_report *rep)
{
	uint32_t blocks = (uint32_t)((len + FLASH_BLOCK - 1) / FLASH_BLOCK), b;
	size_t total = (size_t)blocks * FLASH_BLOCK;
	enum flash_result r;

	progress(c, "erase", 0, total);
	/* a flash still busy from before would ignore write enable */
	switch (wait_ready(c, "erase", 0, FLASH_TIMEOUT_ERASE_US)) {
	case -1:
		return FLASH_ERR_IO;
	case -2:
		return FLASH_ERR_TIMEOUT;
	}
	for (b = 0; b < blocks; b++) {
		uint32_t addr = b * FLASH_BLOCK;
		int w;

		r = write_enable(c, "erase", addr, 1);
		if (r != FLASH_OK)
			return r;
		if (spi_cmd_addr(c, "erase", SPI_BLOCK_ERASE_64K, addr, NULL, 0, NULL, 0) < 0)
			return FLASH_ERR_IO;
		w = wait_ready(c, "erase", addr, FLASH_TIMEOUT_ERASE_US);
		if (w == -1)
			return FLASH_ERR_IO;
		if (w == -2)
			return FLASH_ERR_TIMEOUT;
		rep->blocks_erased++;
		progress(c, "erase", (size_t)(b + 1) * FLASH_BLOCK, total);
	}
	return FLASH_OK;
}

static int all_ff(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != 0xff)
			return 0;
	return 1;
}

static enum flash_result program(struct fctx *c, const uint8_t *data, size_t len,
				 struct flash_report *rep)
{
	size_t off;
	enum flash_result r;
	int first = 1;

	progress(c, "program", 0, len);
	for (off = 0; off < len; off += FLASH_PAGE) {
		size_t n = len - off < FLASH_PAGE ? len - off : FLASH_PAGE;
		int w;

		if (!all_ff(data + off, n)) {	/* erased already */
			r = write_enable(c, "program", (uint32_t)off, first);
			if (r != FLASH_OK)
				return r;
			first = 0;
			if (spi_cmd_addr(c, "program", SPI_PAGE_PROGRAM, (uint32_t)off,
					 data + off, n, NULL, 0) < 0)
				return FLASH_ERR_IO;
			w = wait_ready(c, "program", (uint32_t)off, FLASH_TIMEOUT_PROGRAM_US);
			if (w == -1)
				return FLASH_ERR_IO;
			if (w == -2)
				return FLASH_ERR_TIMEOUT;
			rep->pages_programmed++;
		}
		progress(c, "program", off + n, len);
	}
	return FLASH_OK;
}

static enum flash_result verify(struct fctx *c, const uint8_t *data, size_t len,
				struct flash_report *rep)
{
	static uint8_t buf[READ_CHUNK];
	size_t off, i;

	progress(c, "verify", 0, len);
	for (off = 0; off < len; off += READ_CHUNK) {
		size_t n = len - off < READ_CHUNK ? len - off : READ_CHUNK;

		if (spi_cmd_addr(c, "verify", SPI_READ, (uint32_t)off, NULL, 0, buf, n) < 0)
			return FLASH_ERR_IO;
		for (i = 0; i < n; i++) {
			if (buf[i] == data[off + i])
				continue;
			if (!rep->bad_bytes) {
				rep->bad_addr = (uint32_t)(off + i);
				rep->bad_want = data[off + i];
				rep->bad_got = buf[i];
			}
			rep->bad_bytes++;
		}
		progress(c, "verify", off + n, len);
	}
	if (rep->bad_bytes) {
		fail(c, "verify: %u of %zu bytes differ, the first at address 0x%06x (wrote "
		     "0x%02x, read back 0x%02x)", rep->bad_bytes, len, rep->bad_addr,
		     rep->bad_want, rep->bad_got);
		return FLASH_ERR_VERIFY;
	}
	return FLASH_OK;
}

/* SPI pins back to inputs (the FPGA's bus again), CRESET_B high; reads CDONE. */
static enum flash_result reconfigure(struct fctx *c, struct flash_report *rep, int wait_cdone)
{
	uint64_t start;
	uint8_t pins;

	q_cs(c, 0);
	q_low(c, FLASH_PIN_CS, FLASH_PIN_CRESET);	/* bus released, still in reset */
	q_low(c, FLASH_PIN_CRESET | FLASH_PIN_CS, FLASH_PIN_CRESET);
	if (xfer(c, "reconfigure", NULL, 0) < 0)
		return FLASH_ERR_IO;
	if (!wait_cdone)
		return FLASH_OK;
	start = now_us(c);
	for (;;) {
		q1(c, MPSSE_GET_LOW);
		q1(c, MPSSE_SEND_IMMEDIATE);
		if (xfer(c, "reconfigure", &pins, 1) < 0)
			return FLASH_ERR_IO;
		if (pins & FLASH_PIN_CDONE) {
			rep->cdone = 1;
			return FLASH_OK;
		}
		if (now_us(c) - start > FLASH_TIMEOUT_CDONE_US)
			break;
		sleep_us(c, 10000);
	}
	rep->cdone = 0;
	fail(c, "reconfigure: flash written and verified, but CDONE stayed low %llu ms after "
	     "releasing CRESET_B: the FPGA did not take the bitstream (built for this "
	     "board's FPGA?)", (unsigned long long)(FLASH_TIMEOUT_CDONE_US / 1000));
	return FLASH_ERR_CDONE;
}

enum flash_result flash_write(const struct mpsse_io *io, const uint8_t *data, size_t len,
			      const struct flash_opts *opts, struct flash_report *rep,
			      char *err, size_t errlen)
{
	struct fctx c;
	struct flash_report dummy;
	enum flash_result r;

	memset(&c, 0, sizeof(c));
	c.io = io;
	c.opts = opts;
	c.err = err;
	c.errlen = errlen;
	if (!rep)
		rep = &dummy;
	memset(rep, 0, sizeof(*rep));
	rep->cdone = -1;
	if (errlen)
		err[0] = 0;
	if (!len) {
		fail(&c, "the bitstream is empty; nothing written");
		return FLASH_ERR_FILE;
	}
	if (len > FLASH_MAX_SIZE) {
		fail(&c, "the bitstream is %zu bytes, larger than any 3-byte-address flash "
		     "(%u bytes); nothing written", len, FLASH_MAX_SIZE);
		return FLASH_ERR_FILE;
	}
	r = setup(&c);
	if (r != FLASH_OK)
		return r;
	r = identify(&c, rep);
	if (r == FLASH_OK && len > rep->chip.size) {
		fail(&c, "the bitstream is %zu bytes, larger than the %u-byte flash (%s); "
		     "nothing written", len, rep->chip.size, rep->chip.name);
		r = FLASH_ERR_FILE;
	}
	if (r == FLASH_OK)
		r = erase(&c, len, rep);
	if (r == FLASH_OK)
		r = program(&c, data, len, rep);
	if (r == FLASH_OK && !(opts && opts->no_verify))
		r = verify(&c, data, len, rep);
	if (r == FLASH_ERR_IO)
		return r;
	if (r == FLASH_OK) {
		if (opts && opts->no_reconfigure)
			return FLASH_OK;
		return reconfigure(&c, rep, 1);
	}
	/* after an error: let the FPGA have its bus back, keep the first error */
	{
		char keep[1];
		struct fctx q = c;

		q.err = keep;
		q.errlen = sizeof(keep);
		reconfigure(&q, rep, 0);
	}
	return r;
}
