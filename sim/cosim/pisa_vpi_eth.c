/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_vpi_eth.c: the simulated board's Ethernet ports as Linux interfaces (AF_PACKET, so
 * root or CAP_NET_RAW), for sim/cosim/tb_cosim.v. Whole frames, without preamble and FCS,
 * as the kernel hands them over; a port without an interface drops what it sends.
 *
 *   $pisa_eth_open(port, ifname)   binds port (0 .. 510) to interface ifname; returns 0
 *   $pisa_eth_recv                 the length of the next frame received on any port
 *                                  (round robin), 0 when none; it becomes the current frame
 *   $pisa_eth_rx_port              the current frame's port
 *   $pisa_eth_rx_byte(i)           its byte i
 *   $pisa_eth_tx_byte(b)           appends b to the frame being sent
 *   $pisa_eth_tx_send(port)        sends it on port's interface; returns 1, or 0 when the
 *                                  port has none (dropped); the frame starts again empty
 * Errors (bad arguments, an interface that cannot be opened) print "pisa_vpi: error: ..."
 * and end the simulation. Nothing blocks.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vpi_user.h>

#include "pisa_vpi.h"

#define MAX_PORTS 16
#define FRAME_MAX 16384

static struct {
	int n;
	int port[MAX_PORTS];
	int fd[MAX_PORTS];
	int next;			/* round robin */
	unsigned char rx[FRAME_MAX];
	int rx_len, rx_port;
	unsigned char tx[FRAME_MAX];
	int tx_len;
	unsigned long rx_frames, tx_frames, tx_dropped;
} E;

int pisa_eth_pollfds(struct pollfd *p, int max)
{
	int i, n = 0;

	for (i = 0; i < E.n && n < max; i++, n++) {
		p[n].fd = E.fd[i];
		p[n].events = POLLIN;
		p[n].revents = 0;
	}
	return n;
}

static int port_index(int port)
{
	int i;

	for (i = 0; i < E.n; i++)
		if (E.port[i] == port)
			return i;
	return -1;
}

static PLI_INT32 open_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL), args[2];
	struct sockaddr_ll sa;
	char ifname[IF_NAMESIZE + 1];
	long port;
	int ok, fd;
	unsigned idx;

	(void)user;
	if (pisa_vpi_args(call, args, 2) != 2) {
		pisa_vpi_fatal("$pisa_eth_open takes a port and an interface name");
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	port = pisa_vpi_arg_int(args[0], &ok);
	if (!ok || port < 0 || port > 510 || port_index((int)port) >= 0 || E.n == MAX_PORTS) {
		pisa_vpi_fatal("$pisa_eth_open: port %ld is not a free port 0 .. 510 (at most %d)",
			       port, MAX_PORTS);
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	if (pisa_vpi_arg_str(args[1], ifname, sizeof(ifname)) < 0 || !(idx = if_nametoindex(ifname))) {
		pisa_vpi_fatal("$pisa_eth_open: port %ld: no interface named '%s'", port, ifname);
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0) {
		pisa_vpi_fatal("$pisa_eth_open: port %ld (%s): %s%s", port, ifname, strerror(errno),
			       errno == EPERM ? " (raw sockets need root or CAP_NET_RAW)" : "");
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_protocol = htons(ETH_P_ALL);
	sa.sll_ifindex = (int)idx;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		pisa_vpi_fatal("$pisa_eth_open: port %ld (%s): bind: %s", port, ifname,
			       strerror(errno));
		close(fd);
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	E.port[E.n] = (int)port;
	E.fd[E.n] = fd;
	E.n++;
	pisa_vpi_say("port %ld is interface %s", port, ifname);
	pisa_vpi_put_int(call, 0);
	return 0;
}

static PLI_INT32 recv_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	int k;

	(void)user;
	E.rx_len = 0;
	for (k = 0; k < E.n; k++) {
		int i = (E.next + k) % E.n;
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(E.fd[i], E.rx, sizeof(E.rx), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &fl);

		/* our own transmissions come back as PACKET_OUTGOING: not for the switch */
		if (n <= 0 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		E.rx_len = (int)n;
		E.rx_port = E.port[i];
		E.next = (i + 1) % E.n;
		E.rx_frames++;
		break;
	}
	pisa_vpi_put_int(call, E.rx_len);
	return 0;
}

static PLI_INT32 rx_port_calltf(PLI_BYTE8 *user)
{
	(void)user;
	pisa_vpi_put_int(vpi_handle(vpiSysTfCall, NULL), E.rx_port);
	return 0;
}

static PLI_INT32 rx_byte_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL), args[1];
	long i;
	int ok;

	(void)user;
	if (pisa_vpi_args(call, args, 1) != 1 || (i = pisa_vpi_arg_int(args[0], &ok), !ok) ||
	    i < 0 || i >= E.rx_len) {
		pisa_vpi_fatal("$pisa_eth_rx_byte: no byte at that index of the current frame");
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	pisa_vpi_put_int(call, E.rx[i]);
	return 0;
}

static PLI_INT32 tx_byte_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL), args[1];
	long b;
	int ok;

	(void)user;
	if (pisa_vpi_args(call, args, 1) != 1 || (b = pisa_vpi_arg_int(args[0], &ok), !ok) ||
	    b < 0 || b > 255) {
		pisa_vpi_fatal("$pisa_eth_tx_byte takes a byte (0 .. 255)");
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	if (E.tx_len < FRAME_MAX)
		E.tx[E.tx_len++] = (unsigned char)b;
	pisa_vpi_put_int(call, 1);
	return 0;
}

static PLI_INT32 tx_send_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL), args[1];
	long port;
	int ok, i, sent = 0;

	(void)user;
	if (pisa_vpi_args(call, args, 1) != 1 || (port = pisa_vpi_arg_int(args[0], &ok), !ok)) {
		pisa_vpi_fatal("$pisa_eth_tx_send takes a port");
		pisa_vpi_put_int(call, -1);
		return 0;
	}
	i = port_index((int)port);
	if (i >= 0 && E.tx_len > 0 && send(E.fd[i], E.tx, (size_t)E.tx_len, MSG_DONTWAIT) > 0)
		sent = 1;
	if (sent)
		E.tx_frames++;
	else
		E.tx_dropped++;
	E.tx_len = 0;
	pisa_vpi_put_int(call, sent);
	return 0;
}

void pisa_vpi_eth_register(void)
{
	pisa_vpi_func("$pisa_eth_open", open_calltf, 2);
	pisa_vpi_func("$pisa_eth_recv", recv_calltf, 0);
	pisa_vpi_func("$pisa_eth_rx_port", rx_port_calltf, 0);
	pisa_vpi_func("$pisa_eth_rx_byte", rx_byte_calltf, 1);
	pisa_vpi_func("$pisa_eth_tx_byte", tx_byte_calltf, 1);
	pisa_vpi_func("$pisa_eth_tx_send", tx_send_calltf, 1);
}
