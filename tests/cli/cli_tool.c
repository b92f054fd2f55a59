/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli_tool.c: fixtures and probes for the pisa-model CLI tests (test_cli.sh).
 *
 *   cli_tool mkimage OUT BOARD          the l2fwd image of tests/proto/img.h
 *   cli_tool mkpcap OUT TS:DST:TAG...   64-byte frames to 02:00:00:00:00:DST
 *                                       (hex), payload byte TAG, at TS us
 *   cli_tool dump PCAP                  one line per packet: TS LEN DST TAG
 *   cli_tool ctl SOCK IMAGE OTHERIMAGE  drives pisa-model over --control
 *   cli_tool ctl2 SOCK                  a second client: hello, a read
 *   cli_tool ifpair IN OUT              a frame sent into IN must come out of OUT
 *
 * ctl and ifpair print PASS/FAIL lines; the others exit non-zero on error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "pisa_link.h"
#include "../proto/img.h"

static int failed;

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failed = 1;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static size_t frame(uint8_t *p, unsigned dst, unsigned tag)
{
	memset(p, 0, 64);
	p[0] = 0x02;
	p[5] = (uint8_t)dst;
	p[6] = 0x02;
	p[11] = 0x99;
	p[12] = 0x88;
	p[13] = 0xb5;
	p[14] = (uint8_t)tag;
	return 64;
}

static int mkimage(const char *out, const char *board)
{
	struct img_store is;
	int r = pisa_image_write_file(img_build(&is, board), out);

	if (r < 0)
		fprintf(stderr, "cli_tool: %s: %s\n", out, pisa_strerror(r));
	return r < 0;
}

static int mkpcap(const char *out, int n, char **specs)
{
	pcap_t *pd = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d = pd ? pcap_dump_open(pd, out) : NULL;
	int i;

	if (!d) {
		fprintf(stderr, "cli_tool: %s: cannot write\n", out);
		return 1;
	}
	for (i = 0; i < n; i++) {
		unsigned long long ts;
		unsigned dst, tag;
		struct pcap_pkthdr h;
		uint8_t p[64];

		if (sscanf(specs[i], "%llu:%x:%x", &ts, &dst, &tag) != 3) {
			fprintf(stderr, "cli_tool: bad packet spec '%s'\n", specs[i]);
			return 1;
		}
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(ts / 1000000);
		h.ts.tv_usec = (suseconds_t)(ts % 1000000);
		h.caplen = h.len = (bpf_u_int32)frame(p, dst, tag);
		pcap_dump((u_char *)d, &h, p);
	}
	pcap_dump_close(d);
	pcap_close(pd);
	return 0;
}

static int dump(const char *path)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	struct pcap_pkthdr *h;
	const u_char *d;

	if (!p) {
		fprintf(stderr, "cli_tool: %s\n", err);
		return 1;
	}
	while (pcap_next_ex(p, &h, &d) == 1)
		printf("%llu %u %02x %02x\n",
		       (unsigned long long)h->ts.tv_sec * 1000000ull + (unsigned long long)h->ts.tv_usec,
		       h->caplen, h->caplen > 5 ? d[5] : 0, h->caplen > 14 ? d[14] : 0);
	pcap_close(p);
	return 0;
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sun;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), tries;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	for (tries = 0; tries < 200; tries++) {
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
			return fd;
		usleep(10000);
	}
	close(fd);
	return -1;
}

struct pins {
	unsigned n;
	uint16_t port;
	uint8_t tag, dst;
};

static void on_pin(void *arg, uint16_t port, const uint8_t *d, size_t len)
{
	struct pins *p = arg;

	p->n++;
	p->port = port;
	p->dst = len > 5 ? d[5] : 0;
	p->tag = len > 14 ? d[14] : 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];

	if (!f)
		return NULL;
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

static int ctl(const char *sock, const char *image, const char *other)
{
	struct img_store is;
	struct pisa_image *img = img_build(&is, "sim");
	struct pisa_proto_hello_reply info;
	const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
	struct pisa_link *l;
	struct pins pi = { 0 };
	uint8_t row[64], p[64], *bytes;
	size_t n, blen = 0;
	uint64_t v = 0;
	int fd = connect_unix(sock), r;

	check(fd >= 0, "cli_control_connect", "%s: %s", sock, strerror(errno));
	if (fd < 0)
		return 1;
	l = pisa_link_open_fd(fd);
	pisa_link_set_packet_in_cb(l, on_pin, &pi);
	bytes = slurp(image, &blen);
	r = pisa_link_hello(l, &info);
	check(r == 0 && !strcmp(info.board, "sim") && !strcmp(info.program, "l2fwd") &&
	      (info.flags & PISA_HELLO_IMAGE) && bytes && info.image_len == blen &&
	      info.image_crc == pisa_crc32(0, bytes, blen) && info.cpu_port == 255,
	      "cli_control_hello", "r %d board '%s' program '%s' len %u: %s", r, info.board,
	      info.program, (unsigned)info.image_len, pisa_link_detail(l));

	/* dst 0x0a has no entry yet: default port 3, unattached, so packet-in */
	pisa_link_packet_out(l, 1, p, frame(p, 0x0a, 0x51));
	check(pi.n == 1 && pi.port == IMG_DEFAULT_PORT && pi.tag == 0x51,
	      "cli_control_packet_in_unattached", "n %u port %u", pi.n, pi.port);
	n = img_row(img, row, mac_a, 2);
	r = pisa_link_ops.write_row(l, 0, img_bucket(mac_a), row, n);
	if (r == 0)
		r = pisa_link_flush(l);
	check(r == 0, "cli_control_write_row", "r %d: %s", r, pisa_link_detail(l));
	/* now it goes to port 2, the pcap file: no packet-in */
	pi.n = 0;
	r = pisa_link_packet_out(l, 1, p, frame(p, 0x0a, 0x52));
	check(r == 0 && pi.n == 0, "cli_control_row_to_pcap_port", "r %d, %u packet-ins", r, pi.n);
	r = pisa_link_ops.register_write(l, 0, 3, 4242);
	if (r == 0)
		r = pisa_link_ops.register_read(l, 0, 3, &v);
	check(r == 0 && v == 4242, "cli_control_register", "r %d v %llu", r,
	      (unsigned long long)v);

	bytes = slurp(other, &blen);
	r = bytes ? pisa_link_load_image(l, bytes, blen) : -1;
	check(r < 0 && strstr(pisa_link_detail(l), "icebreaker"), "cli_control_wrong_board",
	      "r %d: %s", r, pisa_link_detail(l));
	bytes = slurp(image, &blen);
	r = bytes ? pisa_link_load_image(l, bytes, blen) : -1;
	check(r == 0, "cli_control_load_image", "r %d: %s", r, pisa_link_detail(l));
	/* a fresh image has empty tables: back to the default port */
	pi.n = 0;
	pisa_link_packet_out(l, 1, p, frame(p, 0x0a, 0x53));
	check(pi.n == 1 && pi.port == IMG_DEFAULT_PORT && pi.tag == 0x53,
	      "cli_control_load_clears_state", "n %u port %u", pi.n, pi.port);
	/* leave an entry for the second client to see */
	n = img_row(img, row, mac_a, 2);
	pisa_link_ops.write_row(l, 0, img_bucket(mac_a), row, n);
	pisa_link_ops.register_write(l, 0, 5, 777);
	r = pisa_link_flush(l);
	check(r == 0, "cli_control_flush", "r %d: %s", r, pisa_link_detail(l));
	pisa_link_close(l);
	close(fd);
	return failed;
}

static int ctl2(const char *sock)
{
	struct pisa_link *l;
	struct pins pi = { 0 };
	uint64_t v = 0;
	uint8_t p[64];
	int fd = connect_unix(sock), r;

	check(fd >= 0, "cli_control_second_connect", "%s", strerror(errno));
	if (fd < 0)
		return 1;
	l = pisa_link_open_fd(fd);
	pisa_link_set_packet_in_cb(l, on_pin, &pi);
	r = pisa_link_ops.register_read(l, 0, 5, &v);
	check(r == 0 && v == 777, "cli_control_state_outlives_client", "r %d v %llu: %s", r,
	      (unsigned long long)v, pisa_link_detail(l));
	r = pisa_link_packet_out(l, 1, p, frame(p, 0x0a, 0x54));
	check(r == 0 && pi.n == 0, "cli_control_second_packet_out", "r %d n %u", r, pi.n);
	pisa_link_close(l);
	close(fd);
	return failed;
}

static int raw_socket(const char *ifname)
{
	struct sockaddr_ll sll;
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	if (fd < 0)
		return -1;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int ifpair(const char *in, const char *out)
{
	int fi = raw_socket(in), fo = raw_socket(out), got = 0, tries;
	uint8_t p[64], b[2048];

	check(fi >= 0 && fo >= 0, "cli_if_sockets", "%s", strerror(errno));
	if (fi < 0 || fo < 0)
		return 1;
	/* the model may still be opening its sockets: send until one arrives */
	for (tries = 0; tries < 20 && !got; tries++) {
		struct pollfd pfd = { fo, POLLIN, 0 };

		send(fi, p, frame(p, 0x0c, 0x60 + tries), 0);
		while (!got && poll(&pfd, 1, 100) > 0) {
			ssize_t n = recv(fo, b, sizeof(b), 0);

			/* the kernel's own frames (IPv6 ND...) pass by too */
			if (n >= 64 && b[12] == 0x88 && b[13] == 0xb5 && b[5] == 0x0c)
				got = 1;
		}
	}
	check(got, "cli_if_forward", "no frame came out of %s", out);
	close(fi);
	close(fo);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "mkimage"))
		return mkimage(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "mkpcap"))
		return mkpcap(argv[2], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "ctl"))
		return ctl(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "ctl2"))
		return ctl2(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "ifpair"))
		return ifpair(argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of tests/cli/cli_tool.c\n");
	return 3;
}
