/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_p4info.h: the P4Runtime P4Info of a config image, written in protobuf
 * text format (p4/config/v1/p4info.proto), from the image's runtime info
 * alone. p4lower calls it after writing an image; any tool may.
 */
#ifndef PISA_P4INFO_H
#define PISA_P4INFO_H

#include <stdio.h>

#include "pisa_image.h"

/* P4Ids.Prefix: the most significant byte of every P4Runtime id. */
#define PISA_P4ID_ACTION 0x01u
#define PISA_P4ID_TABLE 0x02u
#define PISA_P4ID_VALUE_SET 0x03u
#define PISA_P4ID_ACTION_PROFILE 0x11u
#define PISA_P4ID_COUNTER 0x12u
#define PISA_P4ID_DIRECT_COUNTER 0x13u
#define PISA_P4ID_METER 0x14u
#define PISA_P4ID_DIRECT_METER 0x15u
#define PISA_P4ID_REGISTER 0x16u
#define PISA_P4ID_DIGEST 0x17u
#define PISA_P4ID_PREFIX(id) ((uint32_t)(id) >> 24)

/*
 * Which image tables a controller sees. Compiler-made tables (gateways,
 * statement blocks between applies) carry p4info_id 0 or use PISA_NEXT_COND;
 * they are left out, and so are actions only they use. The pieces of a P4
 * table split over several stages share one p4info_id and appear once.
 */
int pisa_p4info_table_visible(const struct pisa_image *img, unsigned t);

/*
 * Writes the P4Info of img to f. Deterministic: objects in image order,
 * each id once. Returns 0, -PISA_E_INVAL (no runtime info), -PISA_E_NOMEM
 * or -PISA_E_IO (a write to f failed).
 */
int pisa_p4info_write(const struct pisa_image *img, FILE *f);

#endif
