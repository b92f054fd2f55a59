/* SPDX-License-Identifier: Apache-2.0 */
/* hostcommon.c: the pisad socket's framing (hostcommon.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hostcommon.h"
#include "pisa_bytes.h"

const char *hc_default_socket(void)
{
	static char path[512];
	const char *e = getenv("PISAD_SOCKET");
	const char *x;

	if (e && *e)
		return e;
	x = getenv("XDG_RUNTIME_DIR");
	if (x && *x && strlen(x) + sizeof("/pisad.sock") <= sizeof(path)) {
		snprintf(path, sizeof(path), "%s/pisad.sock", x);
		return path;
	}
	return "/tmp/pisad.sock";
}

void hc_put_header(uint8_t out[HC_LEN_BYTES], size_t plen)
{
	pisa_put_le32(out, (uint32_t)(plen + 1));
}

long hc_parse(const uint8_t *buf, size_t len, size_t max, uint8_t *type,
	      const uint8_t **payload, size_t *plen)
{
	uint32_t n;

	if (len < HC_LEN_BYTES)
		return 0;
	n = pisa_get_le32(buf);
	if (n == 0 || n > max)
		return -1;
	if (len - HC_LEN_BYTES < n)
		return 0;
	*type = buf[HC_LEN_BYTES];
	*payload = buf + HC_LEN_BYTES + 1;
	*plen = n - 1;
	return (long)(HC_LEN_BYTES + n);
}

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);

		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, b, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int hc_send(int fd, uint8_t type, const void *a, size_t alen, const void *b, size_t blen)
{
	uint8_t hdr[HC_LEN_BYTES + 1];

	if (alen + blen + 1 > HC_MAX_MSG) {
		errno = EMSGSIZE;
		return -1;
	}
	hc_put_header(hdr, alen + blen);
	hdr[HC_LEN_BYTES] = type;
	if (write_all(fd, hdr, sizeof(hdr)) < 0)
		return -1;
	if (alen && write_all(fd, a, alen) < 0)
		return -1;
	if (blen && write_all(fd, b, blen) < 0)
		return -1;
	return 0;
}
