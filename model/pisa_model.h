/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_model.h: the OpenPISA pipeline in software. It executes a config image
 * exactly as docs/architecture.md says the hardware does, packet by packet.
 */
#ifndef PISA_MODEL_H
#define PISA_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "pisa_image.h"
#include "pisa_switch.h"

#define PISA_MODEL_MAX_PACKET 9216	/* larger packets are dropped, counted as oversize */
#define PISA_MODEL_MAX_PASSES 16	/* ingress passes of one packet and all it spawns (and,
					 * separately, E2E clones) before the rest is dropped */

struct pisa_model;

/* Called for every packet that leaves the switch (CPU port included). */
typedef void (*pisa_model_out_fn)(void *arg, uint16_t port, const uint8_t *data, size_t len);
/* Called for every digest: id and the field list's bytes (MSB first, padded). */
typedef void (*pisa_model_digest_fn)(void *arg, uint16_t digest, const uint8_t *data, size_t len);

struct pisa_model_stats {
	uint64_t rx_packets, tx_packets;
	uint64_t dropped;		/* by the program (egress_spec 511, no copies) */
	uint64_t oversize;		/* longer than PISA_MODEL_MAX_PACKET */
	uint64_t parser_errors;		/* parser passes (clones' too) ending with an error */
	uint64_t pass_limit;		/* passes or E2E clones refused at PISA_MODEL_MAX_PASSES */
	uint64_t digests;
	uint64_t bad_port;		/* inject() refused: port > 510 */
};

/* The model keeps a pointer to img, which must outlive it. NULL on no memory. */
struct pisa_model *pisa_model_new(const struct pisa_image *img);
void pisa_model_free(struct pisa_model *m);

/* Runs one packet that arrives on port at time_us (the timestamp clock, in
 * microseconds, non-decreasing) to completion, calling out for each packet
 * that leaves. Returns 0 or a negative pisa_err: -PISA_E_RANGE for a port
 * over 510 (counted in bad_port), -PISA_E_NOMEM. A packet over
 * PISA_MODEL_MAX_PACKET is dropped, counted as oversize, and returns 0. */
int pisa_model_inject(struct pisa_model *m, uint16_t port, const uint8_t *data, size_t len,
		      uint64_t time_us, pisa_model_out_fn out, void *arg);

void pisa_model_set_digest_cb(struct pisa_model *m, pisa_model_digest_fn fn, void *arg);
/* Writes one line per pipeline event (parser states, tables, actions, TM
 * decisions) to f; NULL turns tracing off. */
void pisa_model_set_trace(struct pisa_model *m, FILE *f);
void pisa_model_get_stats(const struct pisa_model *m, struct pisa_model_stats *st);

/* The primitive writes of pisa_switch.h; sw is a struct pisa_model *. */
extern const struct pisa_switch_ops pisa_model_ops;

#endif
