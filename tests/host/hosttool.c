/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hosttool.c: helpers for test_host.sh.
 *   hosttool pcap FILE          one line per packet: its bytes in hex
 *   hosttool poke SOCKET HEX    connects to a Unix socket, sends the bytes,
 *                               prints what comes back (hex) until EOF or
 *                               1 s of silence; exit 0 if the peer answered
 *                               or closed cleanly
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "pisa_bytes.h"

static int pcap_dump_hex(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t h[24], rec[16], *buf;
	uint32_t n, i;

	if (!f) {
		fprintf(stderr, "hosttool: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (fread(h, 1, 24, f) != 24 || pisa_get_le32(h) != 0xa1b2c3d4u) {
		fprintf(stderr, "hosttool: %s: not a little-endian pcap file\n", path);
		fclose(f);
		return 1;
	}
	while (fread(rec, 1, 16, f) == 16) {
		n = pisa_get_le32(rec + 8);
		if (n > 65536 || !(buf = malloc(n ? n : 1)))
			break;
		if (fread(buf, 1, n, f) != n) {
			free(buf);
			break;
		}
		for (i = 0; i < n; i++)
			printf("%02x", buf[i]);
		printf("\n");
		free(buf);
	}
	fclose(f);
	return 0;
}

static int poke(const char *path, const char *hex)
{
	struct sockaddr_un sa;
	uint8_t out[4096], in[4096];
	size_t n = 0, i;
	int fd;

	for (i = 0; hex[i] && hex[i + 1] && n < sizeof(out); i += 2) {
		unsigned v;

		if (sscanf(hex + i, "%2x", &v) != 1)
			return 3;
		out[n++] = (uint8_t)v;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "hosttool: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (n && send(fd, out, n, MSG_NOSIGNAL) != (ssize_t)n) {
		close(fd);
		return 1;
	}
	shutdown(fd, SHUT_WR);
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t r;

		if (poll(&p, 1, 1000) <= 0)
			break;
		r = read(fd, in, sizeof(in));
		if (r <= 0)
			break;
		for (i = 0; i < (size_t)r; i++)
			printf("%02x", in[i]);
	}
	printf("\n");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pcap"))
		return pcap_dump_hex(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "poke"))
		return poke(argv[2], argv[3]);
	fprintf(stderr, "usage: hosttool pcap FILE | hosttool poke SOCKET HEX\n");
	return 3;
}
