/* SPDX-License-Identifier: Apache-2.0 */
#include "pisa_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "pisa_image.h"

int pisa_file_read(const char *path, size_t max, uint8_t **data, size_t *len)
{
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, got;
	int ret = 0, err;
	FILE *f;

	*data = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (!f)
		return -PISA_E_IO;
	for (;;) {
		if (n == cap) {
			uint8_t *p;

			/* room for one byte past max: that is how a longer file shows */
			cap = cap ? cap * 2 : 65536;
			if (max < SIZE_MAX && cap > max + 1)
				cap = max + 1;
			p = realloc(buf, cap + 1);
			if (!p) {
				ret = -PISA_E_NOMEM;
				break;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n > max) {
			ret = -PISA_E_RANGE;
			break;
		}
		if (got == 0)
			break;
	}
	if (!ret && ferror(f))
		ret = -PISA_E_IO;
	err = errno;
	fclose(f);
	if (ret) {
		free(buf);
		errno = err;
		return ret;
	}
	if (!buf && !(buf = malloc(1)))
		return -PISA_E_NOMEM;
	buf[n] = 0;
	*data = buf;
	*len = n;
	return 0;
}
