/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostcommon.h: what pisad and pisactl share: the default socket path, the
 * framing of their Unix socket (docs/host-tools.md, "The pisad socket") and
 * the USB id of the boards' FT2232H.
 *
 * Every message is a u32 little-endian length n, then n bytes: one type
 * byte and n - 1 bytes of payload.
 *   client -> pisad  'C' a command line (text, no newline needed)
 *                    'L' load: a file name, a NUL, then the image's bytes
 *   pisad -> client  'R' the result: a status byte (0 ok, 1 failed), then
 *                        the output text (what simple_switch_CLI prints, or
 *                        the error message)
 *                    'E' an event for a `listen` client: one text line
 */
#ifndef HOSTCOMMON_H
#define HOSTCOMMON_H

#include <stddef.h>
#include <stdint.h>

/* The FT2232H on the iCE40 boards: FTDI's default vendor and product ids. */
#define HC_FT2232H_VID 0x0403
#define HC_FT2232H_PID 0x6010

#define HC_MSG_CMD 'C'
#define HC_MSG_LOAD 'L'
#define HC_MSG_RESULT 'R'
#define HC_MSG_EVENT 'E'

#define HC_LEN_BYTES 4
#define HC_MAX_MSG (16u << 20)	/* an image is at most this big; longer is refused */
#define HC_MAX_CMD 65536	/* a command line, or a result's text */

/* $PISAD_SOCKET, else $XDG_RUNTIME_DIR/pisad.sock, else /tmp/pisad.sock. */
const char *hc_default_socket(void);

/* Writes the 4-byte length header for a message of type + plen payload bytes. */
void hc_put_header(uint8_t out[HC_LEN_BYTES], size_t plen);

/*
 * Looks at buf (len bytes): returns the whole message's length (header
 * included) and sets *type, *payload, *plen when one is complete; 0 when
 * more bytes are needed; -1 when the length is 0 or above max.
 */
long hc_parse(const uint8_t *buf, size_t len, size_t max, uint8_t *type,
	      const uint8_t **payload, size_t *plen);

/* Blocking send of a whole message on fd (EINTR-safe); 0 or -1 (errno). */
int hc_send(int fd, uint8_t type, const void *a, size_t alen, const void *b, size_t blen);

#endif
