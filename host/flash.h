/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flash.h: writing a bitstream into the SPI NOR configuration flash of an
 * iCE40 board (iCEBreaker, iCE40-HX8K Breakout) through an FT2232H whose
 * channel A runs in MPSSE mode, as pisactl flash does.
 *
 * The protocol logic only sees a byte pipe to the MPSSE engine (struct
 * mpsse_io): it builds MPSSE command bytes (FTDI AN_108) and reads back the
 * bytes the engine returns. pisactl plugs libftdi in; tests/flash plugs in a
 * model of the MPSSE engine wired to a model SPI NOR flash.
 *
 * Wiring on both boards (channel A, low byte ADBUS):
 *   bit 0 SCK, bit 1 MOSI (flash SI), bit 2 MISO (flash SO), bit 4 flash CS
 *   (active low), bit 6 CDONE (input), bit 7 CRESET_B (active low).
 * SPI mode 0, MSB first: the host changes MOSI on the falling edge of SCK,
 * the flash samples on the rising edge, and the host samples MISO on the
 * rising edge.
 */
#ifndef PISA_FLASH_H
#define PISA_FLASH_H

#include <stddef.h>
#include <stdint.h>

/* ADBUS pins */
#define FLASH_PIN_SCK 0x01
#define FLASH_PIN_MOSI 0x02
#define FLASH_PIN_MISO 0x04
#define FLASH_PIN_CS 0x10
#define FLASH_PIN_CDONE 0x40
#define FLASH_PIN_CRESET 0x80

/* MPSSE opcodes used (AN_108) */
#define MPSSE_OUT_NEG_MSB 0x11	/* clock bytes out, change on -ve edge */
#define MPSSE_IN_POS_MSB 0x20	/* clock bytes in, sample on +ve edge */
#define MPSSE_INOUT_MSB 0x31	/* out on -ve, in on +ve */
#define MPSSE_SET_LOW 0x80	/* value, direction of ADBUS0..7 */
#define MPSSE_GET_LOW 0x81	/* read ADBUS0..7 */
#define MPSSE_LOOPBACK_OFF 0x85
#define MPSSE_SET_DIVISOR 0x86	/* low, high */
#define MPSSE_SEND_IMMEDIATE 0x87
#define MPSSE_DIV5_OFF 0x8A
#define MPSSE_3PHASE_OFF 0x8D
#define MPSSE_ADAPTIVE_OFF 0x97

/* JEDEC SPI NOR commands */
#define SPI_WRITE_ENABLE 0x06
#define SPI_READ_STATUS 0x05
#define SPI_PAGE_PROGRAM 0x02
#define SPI_READ 0x03
#define SPI_BLOCK_ERASE_64K 0xD8
#define SPI_READ_JEDEC_ID 0x9F
#define SPI_RELEASE_POWER_DOWN 0xAB
#define SPI_STATUS_BUSY 0x01
#define SPI_STATUS_WEL 0x02

#define FLASH_PAGE 256u
#define FLASH_BLOCK 65536u
#define FLASH_MAX_SIZE (16u << 20)	/* 3-byte addresses */

/* Time limits, in microseconds, for the flash to clear its busy bit. */
#define FLASH_TIMEOUT_PROGRAM_US 100000ull	/* a page: typically 0.7 ms, at most 5 ms */
#define FLASH_TIMEOUT_ERASE_US 10000000ull	/* a 64 KiB block: typically 0.2 s, at most 3 s */
#define FLASH_TIMEOUT_CDONE_US 1000000ull	/* the FPGA configuring itself after CRESET_B */

/*
 * The byte pipe to an MPSSE engine. write sends n command bytes; read waits
 * for exactly n answer bytes (the engine answers reads and GET_LOW) and
 * fails rather than waiting for ever. Both return 0 or -1. now_us and
 * sleep_us are the clock (a simulated one in tests); NULL means the real
 * monotonic clock and nanosleep.
 */
struct mpsse_io {
	void *ctx;
	int (*write)(void *ctx, const uint8_t *p, size_t n);
	int (*read)(void *ctx, uint8_t *p, size_t n);
	uint64_t (*now_us)(void *ctx);
	void (*sleep_us)(void *ctx, uint64_t us);
};

/* The outcome of flash_write, one per exit code of pisactl flash. */
enum flash_result {
	FLASH_OK = 0,
	FLASH_ERR_IO,		/* the USB pipe failed (write, short read) */
	FLASH_ERR_FILE,		/* empty, or larger than the flash */
	FLASH_ERR_ID,		/* no flash answers, or its JEDEC id is unknown */
	FLASH_ERR_PROTECTED,	/* the flash refuses write enable */
	FLASH_ERR_VERIFY,	/* read back differs */
	FLASH_ERR_TIMEOUT,	/* the flash stayed busy */
	FLASH_ERR_CDONE,	/* written and verified, but the FPGA did not configure */
};

struct flash_chip {
	uint8_t id[3];		/* manufacturer, memory type, capacity */
	const char *name;	/* "Winbond W25Q128JV", or "Macronix (generic)" */
	uint32_t size;		/* bytes, at most FLASH_MAX_SIZE */
};

/*
 * Progress: step is "erase", "program" or "verify"; done and total are in
 * bytes of the step. Called at the start (done 0), after each unit of work,
 * and at the end (done == total).
 */
typedef void (*flash_progress_fn)(void *arg, const char *step, size_t done, size_t total);

struct flash_opts {
	uint32_t sck_hz;		/* 0: 6 MHz */
	int no_verify;		/* skip reading back */
	int no_reconfigure;	/* leave CRESET_B low at the end */
	flash_progress_fn progress;	/* may be NULL */
	void *progress_arg;
};

struct flash_report {
	struct flash_chip chip;	/* valid once the id was read */
	uint32_t blocks_erased;
	uint32_t pages_programmed;
	uint32_t bad_bytes;	/* verify: how many differ */
	uint32_t bad_addr;	/* verify: the first that differs */
	uint8_t bad_want, bad_got;
	int cdone;		/* CDONE after the reconfigure: 1 high, 0 low, -1 not read */
};

/*
 * Looks up a JEDEC id. Returns 0 and fills chip for a known part (or a known
 * manufacturer with a plausible capacity byte); -1 otherwise.
 */
int flash_identify(const uint8_t id[3], struct flash_chip *chip);

/* The monotonic clock in microseconds: the clock of an mpsse_io without now_us. */
uint64_t flash_mono_us(void);

/*
 * Writes data[0..len) at flash address 0: holds CRESET_B low, wakes the
 * flash, reads and checks its id, erases the 64 KiB blocks that data covers
 * (and no others), programs the pages that are not all 0xFF, reads
 * everything back, then releases CRESET_B and reads CDONE. err gets one line
 * naming the step and address when the result is not FLASH_OK.
 */
enum flash_result flash_write(const struct mpsse_io *io, const uint8_t *data, size_t len,
			      const struct flash_opts *opts, struct flash_report *rep,
			      char *err, size_t errlen);

#endif
