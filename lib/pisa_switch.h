/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_switch.h: what a control plane can do to a switch, and how a table
 * row looks in the stage memories.
 *
 * A switch is anything that runs an image: pisa-model in-process, a board
 * over the control link, the RTL in simulation. All of them take the same
 * few primitive writes (struct pisa_switch_ops); everything above them
 * (entry handles, priorities, BMv2 command syntax) is host-side state kept
 * by lib/pisa_ctl.c.
 */
#ifndef PISA_SWITCH_H
#define PISA_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#include "pisa_image.h"

/*
 * Row layout of table t (all multi-byte values big-endian):
 *
 *   +-------+-----------+---------------------------------+-------------+
 *   | flags | action id | match part                      | action data |
 *   | 1 B   | 2 B       | HASH: key          (KB bytes)   | DB bytes    |
 *   |       |           | TCAM: value, mask  (2 x KB)     |             |
 *   |       |           |       then lo, hi of each range |             |
 *   |       |           |       key (2 x ceil(w/8) each)  |             |
 *   +-------+-----------+---------------------------------+-------------+
 *   flags bit 0: valid.  KB = ceil(key_bits / 8), DB = ceil(adata_bits / 8).
 *
 * The key is the table's key fields concatenated in order, MSB first, as one
 * key_bits-wide number right-aligned in KB bytes. In a TCAM row a range
 * field's value and mask bits are zero; it matches iff lo <= field <= hi.
 * A TCAM row matches iff (key & mask) == (value & mask) and every range field
 * is in range; the lowest-index valid matching row wins.
 * Action data: bit 0 is the MSB of the first action-data byte (ADATA operands).
 *
 * Row indices: 0 .. rows-1 are entries; index `rows` is the default row
 * (used on a miss, and always by a keyless table).
 *
 * HASH tables: way w (0 .. ways-1) looks at row (w << way_bits) | bucket,
 * bucket = pisa_hash_way(w, key, KB) & ((1 << way_bits) - 1). A key is in at
 * most one way; the first way whose row is valid and holds the key hits.
 */
#define PISA_ROW_VALID 0x01
#define PISA_ROW_HDR 3		/* flags + action id */

size_t pisa_row_key_bytes(const struct pisa_table *t);	/* KB */
size_t pisa_row_match_bytes(const struct pisa_table *t);	/* match part */
size_t pisa_row_adata_bytes(const struct pisa_table *t);	/* DB */
size_t pisa_row_bytes(const struct pisa_table *t);		/* whole row */

/* Meter configuration, in fixed point so hardware and model agree exactly:
 * rates in units (packets or bytes) per microsecond times 65536, bursts in
 * units. A meter that was never configured marks every packet GREEN. */
struct pisa_meter_cfg {
	uint8_t configured;
	uint32_t cir_q16, pir_q16;
	uint32_t cbs, pbs;
};

struct pisa_mc_copy {
	uint16_t rid;		/* egress_rid of this copy */
	uint16_t port;
};

struct pisa_clone_cfg {
	uint8_t enabled;
	uint16_t port;		/* egress port of the copy ... */
	uint16_t mcast_grp;	/* ... or, if non-zero, a multicast group */
	uint16_t truncate;	/* bytes kept, 0 = whole packet */
};

/*
 * The primitive writes and reads. Every function returns 0 or a negative
 * pisa_err. Implementations check ids and indices against the image and
 * never trust the caller.
 */
struct pisa_switch_ops {
	/* index == table rows writes the default row */
	int (*write_row)(void *sw, uint16_t table, uint32_t index,
			 const uint8_t *row, size_t len);
	int (*counter_read)(void *sw, uint16_t id, uint32_t index,
			    uint64_t *packets, uint64_t *bytes);
	int (*counter_write)(void *sw, uint16_t id, uint32_t index,
			     uint64_t packets, uint64_t bytes);
	int (*register_read)(void *sw, uint16_t id, uint32_t index, uint64_t *value);
	int (*register_write)(void *sw, uint16_t id, uint32_t index, uint64_t value);
	int (*meter_write)(void *sw, uint16_t id, uint32_t index,
			   const struct pisa_meter_cfg *cfg);
	/* replaces group's copy list; n == 0 deletes the group */
	int (*mcast_write)(void *sw, uint16_t group, uint16_t n,
			   const struct pisa_mc_copy *copies);
	int (*clone_write)(void *sw, uint16_t session, const struct pisa_clone_cfg *cfg);
	/* A board port's MAC counter (enum pisa_port_counter) and its width in bits (it wraps
	 * at 2^bits). Reading PISA_PC_RX_FRAMES copies every port's counters at one instant;
	 * the others read from the latest copy; -PISA_E_RANGE: no such port or counter. NULL:
	 * the switch has no MACs (pisa-model), and a READ of them is FAILED, INVAL. */
	int (*port_counter_read)(void *sw, uint16_t port, uint32_t counter, uint64_t *value,
				 uint64_t *bits);
};

/* A board port's MAC counters, in the order the switch numbers them (READ kind 4). */
enum pisa_port_counter {
	PISA_PC_RX_FRAMES,	/* good frames passed on to the switch */
	PISA_PC_RX_BYTES,	/* their bytes, destination address through FCS */
	PISA_PC_RX_FCS_ERRORS,	/* frames dropped: legal length, bad FCS */
	PISA_PC_RX_RUNTS,	/* ... shorter than 64 bytes */
	PISA_PC_RX_GIANTS,	/* ... longer than the MAC's maximum */
	PISA_PC_RX_DROPS,	/* ... good, but the RX buffer was full */
	PISA_PC_TX_FRAMES,	/* frames sent */
	PISA_PC_TX_BYTES,	/* their bytes, padding and FCS included */
	PISA_PC_TX_DROPS,	/* frames from the switch too long to send */
	PISA_PORT_COUNTERS
};

/* The hash functions the hardware computes (lib/pisa_hash.c). */
uint32_t pisa_hash_way(unsigned way, const uint8_t *key, size_t len);
/* A hash unit over a byte string of nbits bits (MSB first, zero padded at
 * the end to whole bytes), result right-aligned. */
uint64_t pisa_hash_compute(const struct pisa_hash_unit *u, const uint8_t *data,
			   size_t nbits);
uint16_t pisa_csum16(const uint8_t *data, size_t len);
/* CRC-32/ISO-HDLC, zlib-style: pisa_crc32(0, p, n) is the CRC of p[0..n);
 * pass a previous result to continue. Used for image sections and frames. */
uint32_t pisa_crc32(uint32_t crc, const uint8_t *p, size_t n);

/* Bit access to big-endian bit strings (PHV, rows, keys). */
uint64_t pisa_bits_get(const uint8_t *buf, size_t bitoff, unsigned width);
void pisa_bits_set(uint8_t *buf, size_t bitoff, unsigned width, uint64_t value);

#endif
