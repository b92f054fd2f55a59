/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_file.h: reading a whole file (images, bitstreams, STF tests) into memory.
 */
#ifndef PISA_FILE_H
#define PISA_FILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reads the file at path to its end, without trusting a size from stat (pipes,
 * growing files), into a new buffer of *len bytes plus a terminating 0 byte (so
 * text can be used as a C string). Returns 0, or with *data NULL:
 *   -PISA_E_IO     it cannot be opened or read (errno says why),
 *   -PISA_E_RANGE  it is longer than max bytes,
 *   -PISA_E_NOMEM  no memory.
 */
int pisa_file_read(const char *path, size_t max, uint8_t **data, size_t *len);

#endif
