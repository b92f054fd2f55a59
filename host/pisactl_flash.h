/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisactl_flash.h: pisactl flash, which writes a bitstream into a board's
 * configuration flash over USB, without pisad: iCE40 boards through the
 * FT2232H's MPSSE (flash.c's protocol over a libftdi pipe), ECP5 boards
 * through openFPGALoader.
 */
#ifndef PISACTL_FLASH_H
#define PISACTL_FLASH_H

#include <stddef.h>

#define PISACTL_FLASH_HELP \
"flash BITSTREAM [--board NAME] [--device SERIAL] [--cable NAME]\n" \
"  --board icebreaker, hx8k-breakout (the default; both iCE40 with an FT2232H):\n" \
"      holds CRESET_B low, writes the SPI flash through the FT2232H's channel A\n" \
"      (MPSSE, 6 MHz), erasing only the 64 KiB blocks the file needs, reads it\n" \
"      back, releases CRESET_B and checks CDONE, as iceprog does.\n" \
"  --board colorlight-5a-75b (ECP5, JTAG): runs\n" \
"      openFPGALoader -b colorlight [-c CABLE] [--ftdi-serial SERIAL] -f --verify\n" \
"      BITSTREAM; --cable NAME picks its JTAG cable.\n" \
"  --device SERIAL   the FT2232H's USB serial number (default: the first\n" \
"                    0403:6010 found).\n" \
"  A progress bar on a terminal, progress lines otherwise.\n" \
"  Exit codes of flash:\n" \
"  0  written, verified, and the FPGA configured from it (CDONE high)\n" \
"  1  failed: USB error while flashing, or openFPGALoader failed\n" \
"  2  no device: no FT2232H (with that serial), or openFPGALoader not installed\n" \
"  3  usage error\n" \
"  4  bad bitstream file: cannot be read, empty, or larger than the flash\n" \
"  5  flash not usable: no flash answers, unknown JEDEC id, or write-protected\n" \
"  6  verify failed (the first differing address is printed)\n" \
"  7  timeout: the flash stayed busy (step and address printed)\n" \
"  8  written and verified, but CDONE stayed low: the FPGA did not configure\n"

#define PISACTL_FLASH_EXIT_USAGE 3

/* pisactl flash ARGS (argv[0] is the first argument after "flash"): an exit code above. */
int pisactl_flash(int argc, char **argv);
/* The same for a line "flash ARGS" of a commands file or the prompt. */
int pisactl_flash_line(const char *s, size_t len);

#endif
