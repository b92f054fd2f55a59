/* SPDX-License-Identifier: Apache-2.0 */
/* test_file.c: lib/pisa_file.c reads whole files, and refuses what it must. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pisa_file.h"
#include "pisa_image.h"

static int failures;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("PASS file %s\n", name);
	} else {
		printf("FAIL file %s: %s\n", name, why);
		failures++;
	}
}

static int write_bytes(const char *path, size_t n)
{
	FILE *f = fopen(path, "wb");
	size_t i;

	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fputc((int)(i * 7 & 0xff), f);
	return fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/pisa-test-file.XXXXXX", path[64];
	uint8_t *d = NULL;
	size_t len = 0, i;
	int r, same = 1;

	if (!mkdtemp(dir)) {
		printf("FAIL file setup: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/f", dir);

	/* bigger than the first 64 KiB buffer, so it grows */
	write_bytes(path, 200000);
	r = pisa_file_read(path, 200000, &d, &len);
	for (i = 0; !r && i < len; i++)
		same &= d[i] == (uint8_t)(i * 7);
	check("whole file, exactly max bytes", r == 0 && len == 200000 && same && d[len] == 0,
	      "wrong length or bytes");
	free(d);

	r = pisa_file_read(path, 199999, &d, &len);
	check("one byte over max is RANGE", r == -PISA_E_RANGE && !d, "not refused");

	write_bytes(path, 0);
	r = pisa_file_read(path, 10, &d, &len);
	check("empty file: 0 bytes, terminated", r == 0 && len == 0 && d && d[0] == 0, "not empty");
	free(d);

	unlink(path);
	r = pisa_file_read(path, 10, &d, &len);
	check("missing file is IO with errno ENOENT", r == -PISA_E_IO && errno == ENOENT && !d,
	      "wrong error");

	r = pisa_file_read(dir, 10, &d, &len);
	check("a directory is IO", r == -PISA_E_IO && !d, "read a directory");

	rmdir(dir);
	return failures ? 1 : 0;
}
