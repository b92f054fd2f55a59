/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_proto.h: the control link between a host and a switch
 * (docs/control-protocol.md is the byte-level specification).
 *
 * Three layers, each usable alone:
 *  - framing: sync, length, seq, type, payload, CRC-32; a receiver that
 *    resynchronises after garbage (struct pisa_proto_rx);
 *  - messages: pure encoders and decoders, bytes in / struct out and back;
 *  - the switch end (struct pisa_proto_server): sequence numbers, replay
 *    window, image staging, executing writes through a pisa_switch_ops.
 * The host end is lib/pisa_link.h.
 */
#ifndef PISA_PROTO_H
#define PISA_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "pisa_image.h"
#include "pisa_switch.h"

#define PISA_PROTO_VERSION 1
#define PISA_PROTO_SYNC0 0xA5
#define PISA_PROTO_SYNC1 0xC3
#define PISA_PROTO_HDR 8		/* sync 2, len 2, seq 2, type 1, header check 1 */
#define PISA_PROTO_CRC 4
#define PISA_PROTO_MAX_PAYLOAD 10240	/* no frame is longer, whatever the peers say */
#define PISA_PROTO_MAX_FRAME (PISA_PROTO_HDR + PISA_PROTO_MAX_PAYLOAD + PISA_PROTO_CRC)
#define PISA_PROTO_MIN_PAYLOAD 64	/* the least a peer may announce as its maximum */
#define PISA_PROTO_WINDOW 16		/* replies the switch keeps for duplicates */
#define PISA_PROTO_DETAIL_MAX 120	/* bytes of text an ACK may carry */
#define PISA_PROTO_ETHERTYPE 0x88B5	/* Ethernet management frames (IEEE 802 local experimental) */

/* Frame types; bit 7 set: switch -> host. */
enum pisa_proto_type {
	PISA_MSG_HELLO = 0x01,
	PISA_MSG_IMAGE_CHUNK = 0x02,
	PISA_MSG_IMAGE_COMMIT = 0x03,
	PISA_MSG_WRITE = 0x04,
	PISA_MSG_READ = 0x05,
	PISA_MSG_PACKET_OUT = 0x06,
	PISA_MSG_RESET = 0x07,
	PISA_MSG_ACK = 0x80,
	PISA_MSG_HELLO_REPLY = 0x81,
	PISA_MSG_READ_REPLY = 0x85,
	PISA_MSG_PACKET_IN = 0x90,
	PISA_MSG_DIGEST = 0x91,
};

/* Status of a request, in ACK and READ_REPLY. */
enum pisa_proto_status {
	PISA_ST_OK = 0,
	PISA_ST_FAILED = 1,	/* ops before `failed` applied, the rest not; err says why */
	PISA_ST_SEQ = 2,	/* not the expected seq: nothing done; `expect` is */
	PISA_ST_MALFORMED = 3,	/* payload does not decode: nothing done */
	PISA_ST_UNSUPPORTED = 4,	/* unknown type: nothing done */
	PISA_ST_NO_SESSION = 5,	/* no HELLO since the switch (re)started: nothing done */
};

/* Operations in a WRITE batch (and READ kinds, which reuse 2 and 3; READ kind 4 is
 * PISA_READ_PORT). */
enum pisa_proto_opcode {
	PISA_OP_ROW = 1,
	PISA_OP_COUNTER = 2,
	PISA_OP_REGISTER = 3,
	PISA_OP_METER = 4,
	PISA_OP_MCAST = 5,
	PISA_OP_CLONE = 6,
};

#define PISA_READ_PORT 4	/* READ kind: a board port's MAC counter (no WRITE op) */
#define PISA_OP_HDR 3		/* opcode 1, body length 2 */
#define PISA_OP_NONE 0xFFFF	/* ACK.failed when no op failed */

/* ---- Framing ---- */

struct pisa_proto_frame {
	uint16_t seq;
	uint8_t type;
	uint16_t len;
	const uint8_t *payload;	/* len bytes, inside the buffer it was decoded from */
};

/* Writes a whole frame into out (cap bytes); returns its length, or 0 if
 * len > PISA_PROTO_MAX_PAYLOAD or it does not fit. */
size_t pisa_proto_frame_encode(uint8_t *out, size_t cap, uint16_t seq, uint8_t type,
			       const uint8_t *payload, size_t len);

/*
 * Decodes the frame that starts at buf[0]. Returns the frame's length and
 * fills f; 0 if more bytes are needed; -PISA_E_FORMAT if buf does not start
 * with sync or the length is out of range; -PISA_E_CRC on a bad header check
 * or CRC.
 */
long pisa_proto_frame_decode(const uint8_t *buf, size_t len, struct pisa_proto_frame *f);

/* A receiver: feed it any bytes, it calls fn for each good frame. */
typedef void (*pisa_proto_frame_fn)(void *arg, const struct pisa_proto_frame *f);

struct pisa_proto_rx {
	uint8_t buf[PISA_PROTO_MAX_FRAME];
	size_t start, end;	/* unconsumed bytes are buf[start..end) */
	uint64_t frames;	/* good frames */
	uint64_t dropped;	/* bytes skipped while hunting for a frame */
	uint64_t bad_crc;	/* candidate frames whose CRC failed */
};

void pisa_proto_rx_init(struct pisa_proto_rx *rx);
void pisa_proto_rx_feed(struct pisa_proto_rx *rx, const uint8_t *data, size_t len,
			pisa_proto_frame_fn fn, void *arg);
/* Gives up on the frame being received (after a silence): skips its first
 * byte and hunts again in what is buffered. */
void pisa_proto_rx_resync(struct pisa_proto_rx *rx, pisa_proto_frame_fn fn, void *arg);

/* ---- Messages ---- */

struct pisa_proto_hello {
	uint8_t version;
	uint8_t flags;
	uint16_t max_payload;	/* largest payload the host accepts */
};

#define PISA_HELLO_IMAGE 0x01	/* hello reply flag: an image is loaded */

struct pisa_proto_hello_reply {
	uint8_t version;	/* PISA_PROTO_VERSION */
	uint8_t flags;		/* PISA_HELLO_* */
	uint16_t hw_version;	/* bitstream (or model) version, major << 8 | minor */
	uint16_t max_payload;	/* largest payload the switch accepts */
	uint16_t window;	/* frames the host may have unacknowledged */
	uint16_t ports;		/* front-panel ports 0 .. ports-1 */
	uint16_t cpu_port;
	uint16_t stages;
	uint16_t phv_bytes;
	uint16_t mcast_groups, mcast_nodes, clone_sessions;
	uint32_t max_image;	/* largest image the switch can stage */
	uint32_t image_len;	/* the loaded image: length and CRC-32, 0 if none */
	uint32_t image_crc;
	char board[16];		/* NUL-terminated */
	char program[64];
};
#define PISA_HELLO_REPLY_LEN 114

/* One operation of a WRITE batch. */
struct pisa_proto_op {
	uint8_t op;		/* enum pisa_proto_opcode */
	uint16_t id;		/* table, counter, register, meter, group or session */
	uint32_t index;		/* row, cell; unused for mcast and clone */
	uint64_t a, b;		/* counter: packets, bytes; register: value in a */
	struct pisa_meter_cfg meter;
	struct pisa_clone_cfg clone;
	uint16_t n;		/* mcast: copies */
	const uint8_t *data;	/* row bytes, or n copies of (rid, port) as on the wire */
	size_t len;		/* row bytes */
};

struct pisa_proto_read {
	uint8_t op;		/* PISA_OP_COUNTER, PISA_OP_REGISTER or PISA_READ_PORT */
	uint16_t id;
	uint32_t index;
};

struct pisa_proto_read_reply {
	uint8_t status, err;	/* err: a positive pisa_err, 0 on success */
	uint64_t a, b;		/* packets, bytes; or value, 0; or (port) value, bits */
};

struct pisa_proto_ack {
	uint8_t status, err;
	uint16_t failed;	/* index of the first failed op, PISA_OP_NONE */
	uint16_t expect;	/* seq the switch expects next */
	char detail[PISA_PROTO_DETAIL_MAX + 1];	/* NUL-terminated, may be empty */
};

/* IMAGE_CHUNK, PACKET_OUT, PACKET_IN, DIGEST: a number and bytes. */
struct pisa_proto_blob {
	uint32_t num;		/* chunk offset, port, or digest id */
	const uint8_t *data;
	size_t len;
};

struct pisa_proto_commit {
	uint32_t len, crc;	/* of the whole image */
};

/*
 * Encoders write a payload into out (cap bytes) and return its length, or
 * -PISA_E_RANGE if it does not fit. Decoders read exactly one payload and
 * return 0 or -PISA_E_FORMAT; pointers in the result point into the payload.
 */
long pisa_proto_hello_encode(uint8_t *out, size_t cap, const struct pisa_proto_hello *h);
int pisa_proto_hello_decode(const uint8_t *p, size_t len, struct pisa_proto_hello *h);
long pisa_proto_hello_reply_encode(uint8_t *out, size_t cap,
				   const struct pisa_proto_hello_reply *r);
int pisa_proto_hello_reply_decode(const uint8_t *p, size_t len,
				  struct pisa_proto_hello_reply *r);
long pisa_proto_ack_encode(uint8_t *out, size_t cap, const struct pisa_proto_ack *a);
int pisa_proto_ack_decode(const uint8_t *p, size_t len, struct pisa_proto_ack *a);
long pisa_proto_read_encode(uint8_t *out, size_t cap, const struct pisa_proto_read *r);
int pisa_proto_read_decode(const uint8_t *p, size_t len, struct pisa_proto_read *r);
long pisa_proto_read_reply_encode(uint8_t *out, size_t cap,
				  const struct pisa_proto_read_reply *r);
int pisa_proto_read_reply_decode(const uint8_t *p, size_t len,
				 struct pisa_proto_read_reply *r);
/* numbits: 32 for IMAGE_CHUNK (offset), 16 for the others */
long pisa_proto_blob_encode(uint8_t *out, size_t cap, unsigned numbits,
			    const struct pisa_proto_blob *b);
int pisa_proto_blob_decode(const uint8_t *p, size_t len, unsigned numbits,
			   struct pisa_proto_blob *b);
long pisa_proto_commit_encode(uint8_t *out, size_t cap, const struct pisa_proto_commit *c);
int pisa_proto_commit_decode(const uint8_t *p, size_t len, struct pisa_proto_commit *c);

/*
 * WRITE batches: a u16 op count, then the ops. Build one with
 * pisa_proto_batch_init() and pisa_proto_batch_add() (which returns
 * -PISA_E_FULL when the op does not fit in cap: send and start again).
 * Read one with pisa_proto_batch_check() (whole payload, before executing
 * anything) and then pisa_proto_batch_next() op by op.
 */
size_t pisa_proto_batch_init(uint8_t *out, size_t cap);
int pisa_proto_batch_add(uint8_t *out, size_t cap, size_t *len, const struct pisa_proto_op *op);
int pisa_proto_batch_check(const uint8_t *p, size_t len, unsigned *count);
/* *pos starts at 0; returns 1 with an op, 0 at the end, -PISA_E_FORMAT */
int pisa_proto_batch_next(const uint8_t *p, size_t len, size_t *pos, struct pisa_proto_op *op);
/* Encoded size of op (header included). */
size_t pisa_proto_op_size(const struct pisa_proto_op *op);
void pisa_proto_mc_copy_get(const struct pisa_proto_op *op, uint16_t i, struct pisa_mc_copy *c);

const char *pisa_proto_type_name(uint8_t type);
const char *pisa_proto_status_name(uint8_t status);

/* ---- The switch end ---- */

struct pisa_proto_server;

struct pisa_proto_server_cb {
	/* Bytes towards the host (one whole frame per call). */
	void (*send)(void *arg, const uint8_t *frame, size_t len);
	/* The switch's capacities for HELLO_REPLY; version, window, max_payload,
	 * max_image and the image fields are filled in by the server. */
	void (*info)(void *arg, struct pisa_proto_hello_reply *r);
	/* A checked image for this board: run it from now on, with empty state.
	 * On success the callee owns img and must call
	 * pisa_proto_server_set_switch(); on failure the server frees it. */
	int (*load_image)(void *arg, struct pisa_image *img, char *detail, size_t dlen);
	/* Empty every table, counter, register, meter, group and session. */
	int (*reset)(void *arg);
	/* A packet from the host entering ingress on port. */
	int (*packet_out)(void *arg, uint16_t port, const uint8_t *data, size_t len);
};

/* board: the profile images must name. max_image: bytes it can stage.
 * NULL on no memory. */
struct pisa_proto_server *pisa_proto_server_new(const struct pisa_proto_server_cb *cb, void *arg,
						const char *board, uint32_t max_image);
void pisa_proto_server_free(struct pisa_proto_server *s);
/* Where writes and reads go (NULL ops: no image, they fail with NOTFOUND). */
void pisa_proto_server_set_switch(struct pisa_proto_server *s,
				  const struct pisa_switch_ops *ops, void *sw);
/* Announce a smaller payload limit and window than the protocol maximum
 * (a board with small buffers); longer frames are refused as malformed. */
void pisa_proto_server_set_limits(struct pisa_proto_server *s, uint16_t max_payload,
				  uint16_t window);
/* Records the loaded image's length and CRC for HELLO_REPLY. */
void pisa_proto_server_set_image(struct pisa_proto_server *s, const uint8_t *bytes, size_t len);
/* Bytes from the host. */
void pisa_proto_server_input(struct pisa_proto_server *s, const uint8_t *data, size_t len);
/* A new host on the byte stream: forget the session and the partial frame. */
void pisa_proto_server_disconnect(struct pisa_proto_server *s);
/* Pushes a PACKET_IN or DIGEST frame to the host (through cb->send). */
int pisa_proto_server_packet_in(struct pisa_proto_server *s, uint16_t port,
				const uint8_t *data, size_t len);
int pisa_proto_server_digest(struct pisa_proto_server *s, uint16_t id,
			     const uint8_t *data, size_t len);

struct pisa_proto_server_stats {
	uint64_t frames;	/* good frames received */
	uint64_t executed;	/* requests executed (once each) */
	uint64_t duplicates;	/* re-acked without executing */
	uint64_t out_of_order;	/* refused with PISA_ST_SEQ */
	uint64_t ops;		/* write ops applied */
	uint64_t dropped_bytes, bad_crc;
};
void pisa_proto_server_get_stats(const struct pisa_proto_server *s,
				 struct pisa_proto_server_stats *st);

/*
 * libFuzzer-style entry: runs data through the receiver, every decoder and a
 * server with a checking stub switch. Returns 0, or -1 if an invariant broke
 * (a write executed twice or out of order, a round trip that differs).
 */
int pisa_proto_fuzz_one(const uint8_t *data, size_t len);

#endif
