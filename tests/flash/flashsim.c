/* SPDX-License-Identifier: Apache-2.0 */
/* flashsim.c: see flashsim.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashsim.h"

#define USB_ROUND_TRIP_NS 125000ull	/* a high-speed USB read costs a microframe */
#define CONFIG_NS 30000000ull		/* the FPGA reading its bitstream */

static void violation(struct fsim *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->errors++) {
		va_start(ap, fmt);
		vsnprintf(s->error, sizeof(s->error), fmt, ap);
		va_end(ap);
	}
}

int fsim_init(struct fsim *s, uint32_t size, uint8_t id0, uint8_t id1, uint8_t id2,
	      uint8_t fill)
{
	memset(s, 0, sizeof(*s));
	s->mem = malloc(size ? size : 1);
	if (!s->mem)
		return -1;
	memset(s->mem, fill, size);
	s->size = size;
	s->id[0] = id0;
	s->id[1] = id1;
	s->id[2] = id2;
	s->erase_ns = 150000000ull;	/* 150 ms a block */
	s->page_ns = 700000ull;		/* 0.7 ms a page */
	/* after power on: pins inputs, divide-by-5 on, loopback off */
	s->div5 = 1;
	s->divisor = 0xffff;
	s->creset_level = 1;
	s->config_ok = 0;
	s->powered_down = 0;
	return 0;
}

void fsim_free(struct fsim *s)
{
	free(s->mem);
	free(s->in);
	free(s->out);
	s->mem = s->in = s->out = NULL;
}

uint8_t fsim_peek(const struct fsim *s, uint32_t addr)
{
	uint8_t b = s->mem[addr % s->size];

	if (s->stuck_mask && addr % s->size == s->stuck_addr)
		b = (uint8_t)((b & ~s->stuck_mask) | (s->stuck_val & s->stuck_mask));
	return b;
}

int fsim_cdone(const struct fsim *s)
{
	return s->creset_level && s->config_ok && s->now_ns >= s->cdone_at_ns;
}

static int busy(const struct fsim *s)
{
	return s->busy_from_start || s->busy_stuck || s->now_ns < s->busy_until_ns;
}

static void emit(struct fsim *s, uint8_t b)
{
	if (s->out_len == s->out_cap) {
		size_t nc = s->out_cap ? s->out_cap * 2 : 4096;
		uint8_t *nb = realloc(s->out, nc);

		if (!nb) {
			violation(s, "out of memory");
			return;
		}
		s->out = nb;
		s->out_cap = nc;
	}
	s->out[s->out_len++] = b;
}

/* ---- the flash ---- */

static void flash_begin(struct fsim *s)
{
	s->nbytes = 0;
	s->ignore = 0;
	memset(s->latched, 0, sizeof(s->latched));
}

static void flash_end(struct fsim *s)
{
	uint32_t base, i;

	if (!s->nbytes || s->ignore)
		return;
	switch (s->op) {
	case SPI_WRITE_ENABLE:
		if (s->nbytes == 1 && !s->write_protect) {
			s->wel = 1;
			s->wel_sets++;
		}
		break;
	case 0x04:	/* write disable */
		s->wel = 0;
		break;
	case 0xB9:	/* power down */
		s->powered_down = 1;
		break;
	case SPI_RELEASE_POWER_DOWN:
		s->powered_down = 0;
		break;
	case SPI_BLOCK_ERASE_64K:
		/* accepted only with exactly the opcode and three address bytes */
		if (s->nbytes != 4 || !s->wel)
			break;
		base = (s->addr & ~(FLASH_BLOCK - 1)) % s->size;
		memset(s->mem + base, 0xff, FLASH_BLOCK < s->size ? FLASH_BLOCK : s->size);
		if (base / FLASH_BLOCK < 256)
			s->block_erases[base / FLASH_BLOCK]++;
		s->erases_total++;
		s->wel = 0;
		s->busy_until_ns = s->now_ns + s->erase_ns;
		if (s->busy_after_erase)
			s->busy_stuck = 1;
		break;
	case SPI_PAGE_PROGRAM:
		if (s->nbytes < 5 || !s->wel)
			break;
		base = (s->addr & ~(FLASH_PAGE - 1)) % s->size;
		for (i = 0; i < FLASH_PAGE; i++)
			if (s->latched[i])
				s->mem[base + i] &= s->latch[i];	/* NOR: program clears bits */
		s->pages_programmed++;
		s->wel = 0;
		s->busy_until_ns = s->now_ns + s->page_ns;
		break;
	default:
		break;
	}
}

/* One byte clocked while CS is low: mosi in, returns what the flash drives on MISO. */
static uint8_t flash_byte(struct fsim *s, uint8_t mosi)
{
	size_t k = s->nbytes++;
	uint8_t miso = 0xff;	/* SO is high impedance: the pull-up */

	if (k == 0) {
		s->op = mosi;
		s->addr = 0;
		if (s->powered_down && mosi != SPI_RELEASE_POWER_DOWN)
			s->ignore = 1;
		else if (busy(s) && mosi != SPI_READ_STATUS) {
			s->ignore = 1;
			s->ignored_busy++;
		}
		if (mosi == SPI_READ_STATUS)
			s->status_polls++;
		return miso;
	}
	if (s->ignore)
		return miso;
	switch (s->op) {
	case SPI_READ_STATUS:
		miso = (uint8_t)((busy(s) ? SPI_STATUS_BUSY : 0) | (s->wel ? SPI_STATUS_WEL : 0));
		break;
	case SPI_READ_JEDEC_ID:
		miso = k <= 3 ? s->id[k - 1] : 0;
		break;
	case SPI_RELEASE_POWER_DOWN:
		if (k >= 4)
			miso = (uint8_t)(s->id[2] - 1);	/* an electronic signature */
		break;
	case SPI_READ:
	case SPI_PAGE_PROGRAM:
	case SPI_BLOCK_ERASE_64K:
		if (k <= 3) {
			s->addr = (s->addr << 8 | mosi) & 0xffffff;
			if (k == 3) {
				s->addr %= s->size;
				if (s->op == SPI_READ)
					s->reads++;
			}
			break;
		}
		if (s->op == SPI_READ) {
			miso = fsim_peek(s, s->addr);
			s->addr = (s->addr + 1) % s->size;
		} else if (s->op == SPI_PAGE_PROGRAM) {
			/* the column wraps inside the page */
			uint32_t col = (uint32_t)((s->addr + (k - 4)) & (FLASH_PAGE - 1));

			s->latch[col] = mosi;
			s->latched[col] = 1;
		}
		break;
	default:
		break;
	}
	return miso;
}

/* ---- the pins ---- */

static int level(const struct fsim *s, uint8_t pin, int pulled)
{
	return (s->dir & pin) ? !!(s->val & pin) : pulled;
}

static void set_low(struct fsim *s, uint8_t val, uint8_t dir)
{
	int cs_was_low = s->cs_low, creset_was = s->creset_level;
	int cs, creset;

	s->val = val;
	s->dir = dir;
	creset = level(s, FLASH_PIN_CRESET, 1);	/* pull-up on the board */
	cs = level(s, FLASH_PIN_CS, 1);
	if (creset && (dir & (FLASH_PIN_SCK | FLASH_PIN_MOSI | FLASH_PIN_CS)))
		violation(s, "the FT2232H drives the SPI bus (dir 0x%02x) while CRESET_B is "
			  "high and the FPGA owns it", dir);
	if (dir & FLASH_PIN_MISO)
		violation(s, "MISO (ADBUS2) driven as an output");
	if (creset_was && !creset) {
		s->config_ok = 0;	/* FPGA in reset, off the bus */
	} else if (!creset_was && creset) {
		uint32_t i;

		/* the FPGA reads its configuration: an iCE40 image has 7e aa 99 7e near the start */
		s->config_ok = 0;
		s->reconfigs++;
		for (i = 0; i + 3 < s->size && i < 1024; i++)
			if (fsim_peek(s, i) == 0x7e && fsim_peek(s, i + 1) == 0xaa &&
			    fsim_peek(s, i + 2) == 0x99 && fsim_peek(s, i + 3) == 0x7e)
				s->config_ok = !s->powered_down && !busy(s);
		s->cdone_at_ns = s->now_ns + CONFIG_NS;
	}
	s->creset_level = creset;
	s->mosi_level = !!(val & FLASH_PIN_MOSI);
	if (!cs_was_low && !cs) {
		if (level(s, FLASH_PIN_SCK, 0))
			violation(s, "CS fell with SCK high (SPI mode 0 idles SCK low)");
		s->cs_low = 1;
		flash_begin(s);
	} else if (cs_was_low && cs) {
		s->cs_low = 0;
		flash_end(s);
	}
}

static uint32_t sck_hz(const struct fsim *s)
{
	return (s->div5 ? 12000000u : 60000000u) / (2 * (s->divisor + 1));
}

/* One data byte through the engine. */
static uint8_t clock_byte(struct fsim *s, uint8_t mosi, int write)
{
	uint8_t miso = 0xff;

	s->now_ns += 8ull * 1000000000ull / sck_hz(s);
	if (!write)
		mosi = s->mosi_level ? 0xff : 0x00;
	if ((s->dir & (FLASH_PIN_SCK | FLASH_PIN_MOSI)) != (FLASH_PIN_SCK | FLASH_PIN_MOSI)) {
		violation(s, "data clocked with SCK or MOSI not an output (dir 0x%02x)", s->dir);
		return miso;
	}
	if (s->cs_low && !s->creset_level)
		miso = flash_byte(s, mosi);
	if (write)
		s->mosi_level = mosi & 1;
	return s->loopback ? mosi : miso;
}

/* Length of the command at p (have bytes), or 0 when it is not complete yet. */
static size_t cmd_len(const uint8_t *p, size_t have)
{
	uint8_t op = p[0];

	if (op < 0x80 && !(op & 0x40) && (op & 0x30)) {
		size_t n;

		if (op & 0x02)	/* bit mode: one length byte, one data byte */
			return (op & 0x10) ? 3 : 2;
		if (have < 3)
			return 0;
		n = (size_t)(p[1] | p[2] << 8) + 1;
		return 3 + ((op & 0x10) ? n : 0);
	}
	switch (op) {
	case 0x80: case 0x82: case 0x86: case 0x8F:
		return 3;
	case 0x8E:
		return 2;
	default:
		return 1;
	}
}

static void run_cmd(struct fsim *s, const uint8_t *p)
{
	uint8_t op = p[0];
	size_t n, i;

	if (op < 0x80 && !(op & 0x40) && (op & 0x30)) {
		int write = !!(op & 0x10), read = !!(op & 0x20);

		if (op & 0x02) {
			violation(s, "bit-mode data opcode 0x%02x", op);
			if (read)
				emit(s, 0xff);
			return;
		}
		if (op != MPSSE_OUT_NEG_MSB && op != MPSSE_IN_POS_MSB && op != MPSSE_INOUT_MSB)
			violation(s, "data opcode 0x%02x: SPI mode 0 MSB first wants 0x11, 0x20 "
				  "or 0x31", op);
		n = (size_t)(p[1] | p[2] << 8) + 1;
		for (i = 0; i < n; i++) {
			uint8_t b = clock_byte(s, write ? p[3 + i] : 0, write);

			if (read)
				emit(s, b);
		}
		return;
	}
	switch (op) {
	case MPSSE_SET_LOW:
		set_low(s, p[1], p[2]);
		break;
	case MPSSE_GET_LOW: {
		uint8_t v = (uint8_t)(s->val & s->dir);

		if (!(s->dir & FLASH_PIN_CRESET))
			v |= FLASH_PIN_CRESET;
		if (!(s->dir & FLASH_PIN_CS))
			v |= FLASH_PIN_CS;
		v |= FLASH_PIN_MISO;
		if (fsim_cdone(s))
			v |= FLASH_PIN_CDONE;
		emit(s, v);
		break;
	}
	case 0x82:
		break;
	case 0x83:
		emit(s, 0xff);
		break;
	case 0x84:
		s->loopback = 1;
		break;
	case MPSSE_LOOPBACK_OFF:
		s->loopback = 0;
		break;
	case MPSSE_SET_DIVISOR:
		s->divisor = (uint32_t)(p[1] | p[2] << 8);
		break;
	case MPSSE_SEND_IMMEDIATE:
	case MPSSE_ADAPTIVE_OFF:
	case 0x96: case 0x8C: case MPSSE_3PHASE_OFF: case 0x8E: case 0x8F:
		break;
	case MPSSE_DIV5_OFF:
		s->div5 = 0;
		break;
	case 0x8B:
		s->div5 = 1;
		break;
	default:	/* AN_108: a bad command is answered with 0xFA and the opcode */
		s->bad_opcodes++;
		emit(s, 0xFA);
		emit(s, op);
		break;
	}
	s->sck_hz = sck_hz(s);
}

static int sim_write(void *ctx, const uint8_t *p, size_t n)
{
	struct fsim *s = ctx;
	size_t pos = 0;

	if (s->in_len + n > s->in_cap) {
		size_t nc = s->in_len + n + 4096;
		uint8_t *nb = realloc(s->in, nc);

		if (!nb)
			return -1;
		s->in = nb;
		s->in_cap = nc;
	}
	memcpy(s->in + s->in_len, p, n);
	s->in_len += n;
	s->now_ns += 20000;	/* a bulk-out transfer */
	while (pos < s->in_len) {
		size_t l = cmd_len(s->in + pos, s->in_len - pos);

		if (!l || pos + l > s->in_len)
			break;
		run_cmd(s, s->in + pos);
		pos += l;
	}
	memmove(s->in, s->in + pos, s->in_len - pos);
	s->in_len -= pos;
	return 0;
}

static int sim_read(void *ctx, uint8_t *p, size_t n)
{
	struct fsim *s = ctx;

	s->now_ns += USB_ROUND_TRIP_NS;
	if (s->out_len - s->out_pos < n) {
		violation(s, "host waited for %zu bytes, the engine had %zu (missing send "
			  "immediate or a read command?)", n, s->out_len - s->out_pos);
		return -1;
	}
	memcpy(p, s->out + s->out_pos, n);
	s->out_pos += n;
	if (s->out_pos == s->out_len)
		s->out_pos = s->out_len = 0;
	return 0;
}

static uint64_t sim_now(void *ctx)
{
	return ((struct fsim *)ctx)->now_ns / 1000u;
}

static void sim_sleep(void *ctx, uint64_t us)
{
	((struct fsim *)ctx)->now_ns += us * 1000u;
}

struct mpsse_io fsim_io(struct fsim *s)
{
	struct mpsse_io io = { s, sim_write, sim_read, sim_now, sim_sleep };

	return io;
}
