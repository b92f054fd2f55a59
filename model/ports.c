/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ports.c: pisa-model's wires: pcap files (libpcap) and Linux interfaces
 * (AF_PACKET raw sockets).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "cli.h"

#define SPEC_ERR "expected N=pcap:IN,OUT or N=if:NAME"

int port_parse(const char *spec, struct port *p, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '='), *rest;
	char *end;
	unsigned long n;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (!eq || eq == spec)
		goto bad;
	errno = 0;
	n = strtoul(spec, &end, 10);
	if (end != eq || errno || spec[0] == '-' || spec[0] == '+')
		goto bad;
	if (n >= PISA_PORT_DROP) {
		snprintf(err, errlen, "'%s': port %lu out of range (0..%d)", spec, n,
			 PISA_PORT_DROP - 1);
		return -1;
	}
	p->num = (uint16_t)n;
	rest = eq + 1;
	if (!strncmp(rest, "pcap:", 5)) {
		const char *files = rest + 5, *comma = strchr(files, ',');

		/* no comma: an input only */
		if (!comma)
			comma = files + strlen(files);
		else if (strchr(comma + 1, ','))
			goto bad;
		p->kind = PORT_PCAP;
		if (comma > files)
			p->in_path = strndup(files, (size_t)(comma - files));
		if (*comma && comma[1])
			p->out_path = strdup(comma + 1);
		if (!p->in_path && !p->out_path)
			goto bad;
	} else if (!strncmp(rest, "if:", 3) && rest[3]) {
		if (strlen(rest + 3) >= IFNAMSIZ) {
			snprintf(err, errlen, "'%s': interface name longer than %d", spec,
				 IFNAMSIZ - 1);
			return -1;
		}
		p->kind = PORT_IF;
		p->ifname = strdup(rest + 3);
	} else {
		goto bad;
	}
	p->spec = strdup(spec);
	return 0;
bad:
	free(p->in_path);
	free(p->out_path);
	p->in_path = p->out_path = NULL;
	snprintf(err, errlen, "'%s': " SPEC_ERR, spec);
	return -1;
}

static int open_pcap(struct port *p, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";

	if (p->in_path) {
		p->in = pcap_open_offline_with_tstamp_precision(p->in_path,
								PCAP_TSTAMP_PRECISION_MICRO, perr);
		if (!p->in) {
			snprintf(err, errlen, "%s: %s", p->in_path, perr);
			return -1;
		}
		if (pcap_datalink(p->in) != DLT_EN10MB) {
			snprintf(err, errlen, "%s: link type %s, expected EN10MB (Ethernet)",
				 p->in_path, pcap_datalink_val_to_name(pcap_datalink(p->in)) ?
				 pcap_datalink_val_to_name(pcap_datalink(p->in)) : "unknown");
			return -1;
		}
		if (port_pcap_advance(p, err, errlen) < 0)
			return -1;
	}
	if (p->out_path) {
		p->out_dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
								   PCAP_TSTAMP_PRECISION_MICRO);
		if (!p->out_dead) {
			snprintf(err, errlen, "%s: no memory", p->out_path);
			return -2;
		}
		p->dump = pcap_dump_open(p->out_dead, p->out_path);
		if (!p->dump) {
			snprintf(err, errlen, "%s: %s", p->out_path, pcap_geterr(p->out_dead));
			return -2;
		}
	}
	return 0;
}

static int open_if(struct port *p, char *err, size_t errlen)
{
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	int one = 1;

	p->ifindex = (int)if_nametoindex(p->ifname);
	if (!p->ifindex) {
		snprintf(err, errlen, "%s: no such interface", p->ifname);
		return -2;
	}
	p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (p->fd < 0) {
		snprintf(err, errlen, "%s: AF_PACKET socket: %s (needs CAP_NET_RAW)", p->ifname,
			 strerror(errno));
		return -2;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = p->ifindex;
	if (bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		snprintf(err, errlen, "%s: bind: %s", p->ifname, strerror(errno));
		return -2;
	}
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = p->ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if (setsockopt(p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0) {
		snprintf(err, errlen, "%s: promiscuous mode: %s", p->ifname, strerror(errno));
		return -2;
	}
#ifdef PACKET_IGNORE_OUTGOING
	/* our own transmissions must not come back in as received packets */
	setsockopt(p->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
#else
	(void)one;
#endif
	return 0;
}

int port_open(struct port *p, char *err, size_t errlen)
{
	return p->kind == PORT_PCAP ? open_pcap(p, err, errlen) : open_if(p, err, errlen);
}

int port_pcap_advance(struct port *p, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	int r;

	p->have_next = 0;
	if (!p->in)
		return 0;
	r = pcap_next_ex(p->in, &h, &d);
	if (r == PCAP_ERROR_BREAK) {
		pcap_close(p->in);
		p->in = NULL;
		return 0;
	}
	if (r != 1) {
		snprintf(err, errlen, "%s: %s", p->in_path, pcap_geterr(p->in));
		return -1;
	}
	free(p->next_data);
	p->next_data = malloc(h->caplen ? h->caplen : 1);
	if (!p->next_data) {
		snprintf(err, errlen, "%s: no memory", p->in_path);
		return -1;
	}
	memcpy(p->next_data, d, h->caplen);
	p->next_hdr = *h;
	p->next_us = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
	p->have_next = 1;
	return 1;
}

long port_if_recv(struct port *p, uint8_t *buf, size_t cap)
{
	struct sockaddr_ll from;
	socklen_t fl = sizeof(from);
	ssize_t n;

	for (;;) {
		n = recvfrom(p->fd, buf, cap, MSG_TRUNC, (struct sockaddr *)&from, &fl);
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;	/* kernels without PACKET_IGNORE_OUTGOING */
		if ((size_t)n > cap)
			continue;	/* longer than any packet the model takes */
		return (long)n;
	}
}

void port_send(struct port *p, const uint8_t *data, size_t len, uint64_t time_us)
{
	if (p->kind == PORT_PCAP) {
		struct pcap_pkthdr h;

		if (!p->dump)
			return;
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(time_us / 1000000u);
		h.ts.tv_usec = (suseconds_t)(time_us % 1000000u);
		h.caplen = h.len = (bpf_u_int32)len;
		pcap_dump((u_char *)p->dump, &h, data);
		p->tx++;
		return;
	}
	if (send(p->fd, data, len, MSG_DONTWAIT) < 0)
		p->tx_errors++;
	else
		p->tx++;
}

void port_close(struct port *p)
{
	if (p->in)
		pcap_close(p->in);
	if (p->dump) {
		pcap_dump_flush(p->dump);
		pcap_dump_close(p->dump);
	}
	if (p->out_dead)
		pcap_close(p->out_dead);
	if (p->fd >= 0)
		close(p->fd);
	free(p->next_data);
	free(p->in_path);
	free(p->out_path);
	free(p->ifname);
	free(p->spec);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}
