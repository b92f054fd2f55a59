/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_eth.c: the control link in Ethernet management frames
 * (docs/control-protocol.md, "Ethernet"), for boards without USB (the
 * Colorlight's management port, hw/rtl/pisa_ctl_eth.v).
 *
 *   eth:IF       frames go to broadcast; replies are taken from any source
 *   eth:IF,MAC   frames go to MAC; only replies from MAC are taken
 *
 * An AF_PACKET raw socket bound to IF and EtherType 0x88B5 (needs
 * CAP_NET_RAW). pisa_link speaks a byte stream; a thread bridges it to the
 * socket: the bytes pisa_link writes are cut into protocol frames, one per
 * Ethernet frame (zero padded to the 60-byte minimum), and the payload of
 * each reply goes back into the stream, cut to the protocol frame it holds
 * (12 + len bytes), so the padding never reaches the frame hunt. A
 * protocol frame longer than the interface's MTU allows is dropped (the
 * link then times out and says so): boards announce a max payload that
 * fits (1488 bytes at MTU 1500). When the socket fails (the interface
 * went away), the thread closes its end, the link sees the stream close
 * and pisad reconnects.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pisa_proto.h"
#include "transport.h"

#define ETH_HDR 14
#define ETH_MIN 60		/* without FCS */
#define ETH_BUF 16384

struct eth_priv {
	char ifname[IFNAMSIZ];
	uint8_t dst[6];		/* the board, or broadcast */
	int have_board;		/* replies only from dst */
	uint8_t src[6];		/* the interface's own address */
	int ifindex;
	int mtu;
	int raw, fd, peer;
	pthread_t thread;
	int running;
	atomic_int stop;
	/* bytes from pisa_link not yet cut into a frame */
	uint8_t out[2 * ETH_BUF];
	size_t out_len;
};

/* "aa:bb:cc:dd:ee:ff" into mac; 0, or -1 if it is not one. */
static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &end) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

static int send_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Sends the whole protocol frames at the start of p->out, one Ethernet
 * frame each; keeps a partial one. Bytes that cannot start a frame (pisa_link
 * writes none) are dropped one by one. -1 if the socket failed.
 */
static int send_frames(struct eth_priv *p)
{
	uint8_t fr[ETH_BUF + ETH_HDR];
	size_t off = 0;

	while (p->out_len - off >= PISA_PROTO_HDR) {
		const uint8_t *f = p->out + off;
		size_t n, len;

		if (f[0] != PISA_PROTO_SYNC0 || f[1] != PISA_PROTO_SYNC1) {
			off++;
			continue;
		}
		n = PISA_PROTO_HDR + ((size_t)f[2] | (size_t)f[3] << 8) + PISA_PROTO_CRC;
		if (n > ETH_BUF) {
			off++;
			continue;
		}
		if (p->out_len - off < n)
			break;
		off += n;
		if ((int)n > p->mtu)
			continue;	/* does not fit: the link times out and reports it */
		memcpy(fr, p->dst, 6);
		memcpy(fr + 6, p->src, 6);
		fr[12] = (uint8_t)(PISA_PROTO_ETHERTYPE >> 8);
		fr[13] = (uint8_t)PISA_PROTO_ETHERTYPE;
		memcpy(fr + ETH_HDR, f, n);
		len = ETH_HDR + n;
		if (len < ETH_MIN) {
			memset(fr + len, 0, ETH_MIN - len);
			len = ETH_MIN;
		}
		if (send(p->raw, fr, len, 0) < 0 && errno != ENOBUFS && errno != EAGAIN)
			return -1;
	}
	memmove(p->out, p->out + off, p->out_len - off);
	p->out_len -= off;
	return 0;
}

/* One frame from the socket: its protocol frame into the stream. -1 on failure. */
static int recv_frame(struct eth_priv *p)
{
	uint8_t fr[ETH_BUF];
	struct sockaddr_ll sa;
	socklen_t sl = sizeof(sa);
	ssize_t n = recvfrom(p->raw, fr, sizeof(fr), MSG_DONTWAIT, (struct sockaddr *)&sa, &sl);
	size_t len;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (sa.sll_pkttype == PACKET_OUTGOING || n < ETH_HDR + PISA_PROTO_HDR)
		return 0;
	if (((unsigned)fr[12] << 8 | fr[13]) != PISA_PROTO_ETHERTYPE)
		return 0;
	if (p->have_board && memcmp(fr + 6, p->dst, 6))
		return 0;	/* another board's */
	len = (size_t)n - ETH_HDR;
	/* cut the padding: the protocol frame is 12 + len bytes */
	if (fr[ETH_HDR] == PISA_PROTO_SYNC0 && fr[ETH_HDR + 1] == PISA_PROTO_SYNC1) {
		size_t want = PISA_PROTO_HDR + ((size_t)fr[ETH_HDR + 2] |
						(size_t)fr[ETH_HDR + 3] << 8) + PISA_PROTO_CRC;

		if (want < len)
			len = want;
	}
	return send_all(p->peer, fr + ETH_HDR, len);
}

static void *bridge(void *arg)
{
	struct eth_priv *p = arg;

	while (!atomic_load(&p->stop)) {
		struct pollfd pfd[2] = { { p->peer, POLLIN, 0 }, { p->raw, POLLIN, 0 } };
		ssize_t n;

		if (poll(pfd, 2, 20) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = recv(p->peer, p->out + p->out_len, sizeof(p->out) - p->out_len,
				 MSG_DONTWAIT);
			if (n == 0)
				break;	/* the link closed its end */
			if (n > 0) {
				p->out_len += (size_t)n;
				if (send_frames(p) < 0)
					break;
				if (p->out_len == sizeof(p->out))
					p->out_len = 0;	/* no frame in a whole buffer */
			}
		}
		if (pfd[1].revents & (POLLERR | POLLHUP | POLLNVAL))
			break;	/* the interface went away */
		if (pfd[1].revents & POLLIN && recv_frame(p) < 0)
			break;
	}
	shutdown(p->peer, SHUT_RDWR);
	return NULL;
}

static void eth_disconnect(struct transport *t)
{
	struct eth_priv *p = t->priv;

	if (p->running) {
		atomic_store(&p->stop, 1);
		pthread_join(p->thread, NULL);
		p->running = 0;
	}
	if (p->fd >= 0)
		close(p->fd);
	if (p->peer >= 0)
		close(p->peer);
	if (p->raw >= 0)
		close(p->raw);
	p->fd = p->peer = p->raw = -1;
	p->out_len = 0;
}

static int eth_connect(struct transport *t, char *err, size_t errlen)
{
	struct eth_priv *p = t->priv;
	struct sockaddr_ll sa;
	struct ifreq ifr;
	int sv[2];

	eth_disconnect(t);
	p->ifindex = (int)if_nametoindex(p->ifname);
	if (!p->ifindex) {
		snprintf(err, errlen, "eth:%s: no network interface named '%s' ('ip link' lists them)",
			 p->ifname, p->ifname);
		return -1;
	}
	p->raw = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(PISA_PROTO_ETHERTYPE));
	if (p->raw < 0) {
		if (errno == EPERM || errno == EACCES)
			snprintf(err, errlen, "eth:%s: raw Ethernet frames need CAP_NET_RAW: run pisad "
				 "as root or give it the capability (setcap cap_net_raw+ep pisad)",
				 p->ifname);
		else
			snprintf(err, errlen, "eth:%s: socket: %s", p->ifname, strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(p->raw, SIOCGIFHWADDR, &ifr) < 0) {
		snprintf(err, errlen, "eth:%s: cannot read its address: %s", p->ifname,
			 strerror(errno));
		goto fail;
	}
	memcpy(p->src, ifr.ifr_hwaddr.sa_data, 6);
	p->mtu = 1500;
	if (ioctl(p->raw, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu > 0)
		p->mtu = ifr.ifr_mtu;
	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_protocol = htons(PISA_PROTO_ETHERTYPE);
	sa.sll_ifindex = p->ifindex;
	if (bind(p->raw, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(err, errlen, "eth:%s: bind: %s", p->ifname, strerror(errno));
		goto fail;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		goto fail;
	}
	p->fd = sv[0];
	p->peer = sv[1];
	atomic_store(&p->stop, 0);
	if (pthread_create(&p->thread, NULL, bridge, p) != 0) {
		snprintf(err, errlen, "cannot start the Ethernet bridge thread");
		goto fail;
	}
	p->running = 1;
	return p->fd;
fail:
	eth_disconnect(t);
	return -1;
}

static void eth_destroy(struct transport *t)
{
	if (!t->priv)
		return;
	eth_disconnect(t);
	free(t->priv);
	t->priv = NULL;
}

static const struct transport_ops eth_ops = { eth_connect, eth_disconnect, eth_destroy };

int transport_eth_open(struct transport *t, const char *spec, char *err, size_t errlen)
{
	const char *comma = strchr(spec, ',');
	size_t iflen = comma ? (size_t)(comma - spec) : strlen(spec);
	struct eth_priv *p;

	if (iflen == 0 || iflen >= IFNAMSIZ) {
		snprintf(err, errlen, "eth:%s: not an interface name (1 .. %d characters)", spec,
			 IFNAMSIZ - 1);
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "no memory");
		return -1;
	}
	memcpy(p->ifname, spec, iflen);
	memset(p->dst, 0xff, sizeof(p->dst));
	if (comma) {
		if (parse_mac(comma + 1, p->dst) < 0) {
			snprintf(err, errlen, "eth:%s: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)",
				 spec, comma + 1);
			free(p);
			return -1;
		}
		p->have_board = 1;
	}
	p->fd = p->peer = p->raw = -1;
	atomic_init(&p->stop, 0);
	t->ops = &eth_ops;
	t->priv = p;
	if (p->have_board)
		snprintf(t->desc, sizeof(t->desc), "eth:%s (board %02x:%02x:%02x:%02x:%02x:%02x, "
			 "EtherType 0x%04x)", p->ifname, p->dst[0], p->dst[1], p->dst[2], p->dst[3],
			 p->dst[4], p->dst[5], PISA_PROTO_ETHERTYPE);
	else
		snprintf(t->desc, sizeof(t->desc), "eth:%s (broadcast, EtherType 0x%04x)",
			 p->ifname, PISA_PROTO_ETHERTYPE);
	return 0;
}
