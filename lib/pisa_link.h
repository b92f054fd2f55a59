/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_link.h: the host end of the control link (docs/control-protocol.md)
 * over any connected byte stream: a Unix socket, a UART, a pipe to a
 * simulator. It implements struct pisa_switch_ops, so lib/pisa_ctl.c drives
 * a remote switch exactly as it drives pisa-model in-process.
 *
 * Writes are batched: many primitive writes travel in one WRITE frame, up to
 * `window` frames are in flight, each frame is retransmitted until the
 * switch acknowledges it, and the switch executes every frame exactly once
 * in order. A write op returns 0 once it is queued; its real status comes
 * back from pisa_link_flush(), which sends what is pending and waits for
 * every acknowledgement. Reads flush first and wait for their value.
 * With pisa_link_set_sync(l, 1) every write waits for its own status.
 *
 * Packet-in and digest callbacks run from inside whatever pisa_link call
 * is reading the stream at the time (pisa_link_poll() when idle); they must
 * not call pisa_link functions.
 *
 * Not thread-safe: one thread per link.
 */
#ifndef PISA_LINK_H
#define PISA_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "pisa_proto.h"
#include "pisa_switch.h"

struct pisa_link;

typedef void (*pisa_link_packet_fn)(void *arg, uint16_t port, const uint8_t *data, size_t len);
typedef void (*pisa_link_digest_fn)(void *arg, uint16_t id, const uint8_t *data, size_t len);

/* fd: a connected byte stream; the link sets O_NONBLOCK on it and never
 * closes it. NULL on no memory. */
struct pisa_link *pisa_link_open_fd(int fd);
/* Frees the link (pending writes are dropped: flush first). */
void pisa_link_close(struct pisa_link *l);

/* Retransmit after timeout_ms without progress, give up after tries
 * transmissions of a frame (defaults: 200 ms, 10). */
void pisa_link_set_timeout(struct pisa_link *l, unsigned timeout_ms, unsigned tries);
/* 1: every write waits for its acknowledgement and returns its status. */
void pisa_link_set_sync(struct pisa_link *l, int sync);
void pisa_link_set_packet_in_cb(struct pisa_link *l, pisa_link_packet_fn fn, void *arg);
void pisa_link_set_digest_cb(struct pisa_link *l, pisa_link_digest_fn fn, void *arg);

/* Opens the session (sync, seq numbers) and reads the switch's profile.
 * Other calls do it themselves the first time; call it again to refresh
 * info. info may be NULL. */
int pisa_link_hello(struct pisa_link *l, struct pisa_proto_hello_reply *info);

/* Sends an image in chunks and commits it; the switch checks it and runs it
 * with empty state. Pending writes are flushed first. */
int pisa_link_load_image(struct pisa_link *l, const uint8_t *image, size_t len);

/* Empties all switch state (the image stays). */
int pisa_link_reset(struct pisa_link *l);

/* Sends the pending batch and waits until every frame is acknowledged.
 * Returns the first error any write since the last flush met (those after
 * it in the same frame were not applied, later frames were). */
int pisa_link_flush(struct pisa_link *l);

/* Injects a packet into the switch's ingress on port (normally its CPU
 * port) and waits for the acknowledgement. */
int pisa_link_packet_out(struct pisa_link *l, uint16_t port, const uint8_t *data, size_t len);

/* A board port's MAC counters (enum pisa_port_counter), all from one
 * instant, and their width in bits. -PISA_E_RANGE: no MAC on that port;
 * -PISA_E_INVAL: the switch has no MACs (pisa-model, the co-simulation). */
int pisa_link_port_counters(struct pisa_link *l, uint16_t port,
			    uint64_t value[PISA_PORT_COUNTERS], uint64_t *bits);

/* Waits up to timeout_ms (0: just look, -1: forever) for frames from the
 * switch and runs the callbacks. Returns 0, or -PISA_E_IO if the stream
 * closed. */
int pisa_link_poll(struct pisa_link *l, int timeout_ms);

/* Why the last call failed, and for a failed write the op's number
 * counted from 0 since the previous flush (-1 when not a write). */
const char *pisa_link_detail(const struct pisa_link *l);
long pisa_link_failed_op(const struct pisa_link *l);

struct pisa_link_stats {
	uint64_t frames_sent, retransmits, acks, ops;
	uint64_t packet_ins, digests;
	uint64_t dropped_bytes, bad_crc;	/* from the receiver */
};
void pisa_link_get_stats(const struct pisa_link *l, struct pisa_link_stats *st);

/* sw is a struct pisa_link *. */
extern const struct pisa_switch_ops pisa_link_ops;

#endif
