/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flashsim.h: a simulated iCE40 board for host/flash.c. An FT2232H MPSSE
 * engine (channel A, low byte GPIO, byte-wise data clocking, bad-opcode
 * echo, send immediate, clock divisor) decodes the command bytes the host
 * writes; its pins drive a SPI NOR flash model (CS from GPIO bit 4, JEDEC
 * id, status register with BUSY and WEL, write enable, 64 KiB block erase,
 * 256-byte page program with wrap inside the page, read, power-down and
 * release) and an FPGA model (CRESET_B on bit 7, CDONE on bit 6; after
 * CRESET_B rises it "configures" when the flash holds an iCE40 sync word).
 * Time is simulated: SPI bytes cost their clock periods, each host read
 * costs a USB round trip, sleeps advance the clock.
 * Protocol violations (wrong clock edges, driving the bus while the FPGA is
 * out of reset, SCK high when CS falls, reads the engine cannot answer)
 * are counted in errors and the first one is described in error.
 */
#ifndef FLASHSIM_H
#define FLASHSIM_H

#include <stddef.h>
#include <stdint.h>

#include "flash.h"

struct fsim {
	/* configuration, set before use */
	uint32_t size;		/* flash bytes */
	uint8_t id[3];		/* JEDEC id */
	uint32_t stuck_addr;	/* a byte whose bits in stuck_mask read as stuck_val */
	uint8_t stuck_mask, stuck_val;
	int busy_from_start;	/* BUSY never clears, from power on */
	int busy_after_erase;	/* BUSY never clears after the first erase */
	int write_protect;	/* write enable never sets WEL */
	uint64_t erase_ns, page_ns;	/* busy times */

	/* flash */
	uint8_t *mem;
	int cs_low;
	uint8_t op;
	size_t nbytes;		/* bytes in this transaction */
	uint32_t addr;
	int ignore;		/* this transaction is ignored (busy, powered down) */
	uint8_t latch[FLASH_PAGE];
	uint8_t latched[FLASH_PAGE];
	int wel, busy_stuck;
	int powered_down;	/* set to 1 to start in deep power-down: only 0xAB wakes it */
	uint64_t busy_until_ns;

	/* MPSSE engine */
	uint8_t val, dir;
	int div5, loopback;
	uint32_t divisor;
	int mosi_level;
	uint8_t *in;		/* command bytes not yet complete */
	size_t in_len, in_cap;
	uint8_t *out;		/* answer bytes */
	size_t out_len, out_pos, out_cap;

	/* FPGA */
	int creset_level;
	int config_ok;
	uint64_t cdone_at_ns;

	uint64_t now_ns;

	/* what happened */
	unsigned block_erases[256];	/* per 64 KiB block */
	unsigned erases_total, pages_programmed, wel_sets;
	unsigned ignored_busy, bad_opcodes, reads, status_polls, reconfigs;
	uint32_t sck_hz;
	unsigned errors;
	char error[256];
};

/* Sets up a board with a size-byte flash of this id, filled with fill. */
int fsim_init(struct fsim *s, uint32_t size, uint8_t id0, uint8_t id1, uint8_t id2,
	      uint8_t fill);
void fsim_free(struct fsim *s);

/* The host side: a struct mpsse_io wired to s. */
struct mpsse_io fsim_io(struct fsim *s);

/* The flash's array, as a read would return it (stuck bits applied). */
uint8_t fsim_peek(const struct fsim *s, uint32_t addr);

/* CDONE as the pin reads now. */
int fsim_cdone(const struct fsim *s);

#endif
