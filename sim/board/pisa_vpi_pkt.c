/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_vpi_pkt.c: the packet channel of the board-level simulation (sim/board/tb_board.v): a
 * Unix stream socket that pisa-stf --target board:NAME (stf/stf_board.c) connects to, one line
 * per request and answer, numbers in hex:
 *   -> "b PORT COUNT LEN B0 .. B(LEN-1)"   stage COUNT copies of this frame for PORT
 *   -> "g"                           send every staged frame: all ports at once, each port's
 *                                    copies back to back at the minimum gap (line rate)
 *   <- "o PORT LEN B0 .."            a frame the switch sent on PORT's PHY (one per frame)
 *   <- "c PORT RXF RXDROP FCS RUNT GIANT TXDROP"   then each port's MAC counters
 *   <- "t IN_NS OUT_NS CLK_NS"       simulated ns from the start to the last frame in, and to
 *                                    the last frame out (0: none came out); the core clock's
 *                                    period
 *   <- "d"                           the request and everything it caused are done
 *
 *   $pkt_open(path)    removes a stale socket file, listens; returns 0
 *   $pkt_poll          accepts the connection, reads what is there; returns 1 when a "g" came
 *                      (send what is staged), 0 when none, -1 when the peer closed (the test
 *                      is over)
 *   $pkt_count(port)   copies to send into port (0: none);  $pkt_len(port)  their length
 *   $pkt_byte(port, i) byte i of port's frame
 *   $pkt_obyte(b)      appends b to the answer frame;  $pkt_osend(port)  writes it as "o"
 *   $pkt_ocount(port, rxf, rxdrop, fcs, runt, giant, txdrop)   writes a "c" line
 *   $pkt_otime(in_ns, out_ns, clk_ns)   writes the "t" line
 *   $pkt_done          writes "d"; nothing stays staged
 * Errors end the simulation with "pisa_vpi_pkt: error: ...". Nothing blocks except a write
 * to a peer that does not read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <vpi_user.h>

#define MAX_LEN 65536
#define MAX_PORTS 16		/* frames for ports beyond go nowhere, as on a board without them */
#define LINE_MAX (MAX_LEN * 3 + 64)

extern void vpip_set_return_value(int value) __attribute__((weak));

static struct {
	int lfd, cfd;
	char path[108];
	char in[LINE_MAX];
	size_t nin;
	struct {
		unsigned char d[MAX_LEN];
		long len, count;
	} port[MAX_PORTS];
	unsigned char out[MAX_LEN];
	long nout;
} P = { .lfd = -1, .cfd = -1 };

static void fatal(const char *msg)
{
	vpi_printf("pisa_vpi_pkt: error: %s\n", msg);
	if (vpip_set_return_value)
		vpip_set_return_value(1);
	vpi_control(vpiFinish, 1);
}

static void put_int(vpiHandle call, long v)
{
	s_vpi_value val;

	val.format = vpiIntVal;
	val.value.integer = (PLI_INT32)v;
	vpi_put_value(call, &val, NULL, vpiNoDelay);
}

/* Argument i (0-based) as an integer, or a string into buf. */
static vpiHandle arg(vpiHandle call, int i)
{
	vpiHandle it = vpi_iterate(vpiArgument, call), a = NULL;
	int k;

	for (k = 0; it && (a = vpi_scan(it)) != NULL; k++)
		if (k == i) {
			vpi_free_object(it);
			return a;
		}
	return NULL;
}

static long arg_int(vpiHandle call, int i)
{
	vpiHandle a = arg(call, i);
	s_vpi_value val;

	if (!a)
		return -1;
	val.format = vpiIntVal;
	vpi_get_value(a, &val);
	return val.value.integer;
}

static void send_all(const char *s, size_t n)
{
	while (n > 0 && P.cfd >= 0) {
		ssize_t w = send(P.cfd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(P.cfd);
			P.cfd = -1;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

static PLI_INT32 open_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL), a = arg(call, 0);
	struct sockaddr_un sa;
	s_vpi_value val;

	(void)user;
	val.format = vpiStringVal;
	if (!a) {
		fatal("$pkt_open(path): no path");
		return 0;
	}
	vpi_get_value(a, &val);
	if (!val.value.str || strlen(val.value.str) >= sizeof(sa.sun_path)) {
		fatal("$pkt_open: bad or too long a path");
		return 0;
	}
	snprintf(P.path, sizeof(P.path), "%s", val.value.str);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, P.path, strlen(P.path));
	unlink(P.path);
	P.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (P.lfd < 0 || bind(P.lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(P.lfd, 1) < 0) {
		fatal("$pkt_open: cannot listen on the path");
		return 0;
	}
	put_int(call, 0);
	return 0;
}

/* A "b" line's frame (after the letter), staged for its port; 1 on success. */
static int stage(char *p)
{
	static unsigned char d[MAX_LEN];
	long port, count, len, i;
	char *end;

	port = strtol(p, &end, 16);
	if (end == p || port < 0)
		return 0;
	p = end;
	count = strtol(p, &end, 16);
	if (end == p || count < 1 || count > 0xFFFFFF)
		return 0;
	p = end;
	len = strtol(p, &end, 16);
	if (end == p || len < 1 || len > MAX_LEN)
		return 0;
	for (i = 0; i < len; i++) {
		p = end;
		d[i] = (unsigned char)strtoul(p, &end, 16);
		if (end == p)
			return 0;
	}
	if (port < MAX_PORTS) {
		memcpy(P.port[port].d, d, (size_t)len);
		P.port[port].len = len;
		P.port[port].count = count;
	}
	return 1;
}

/* A whole line in P.in: 1 for "g", 0 when it staged a frame, -1 when it is malformed. */
static int parse(char *line)
{
	if (line[0] == 'b')
		return stage(line + 1) ? 0 : -1;
	return !strcmp(line, "g") ? 1 : -1;
}

static PLI_INT32 poll_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	char *nl;
	ssize_t n;
	int ready;

	(void)user;
	if (P.lfd < 0) {
		fatal("$pkt_poll before $pkt_open");
		return 0;
	}
	if (P.cfd < 0) {
		P.cfd = accept4(P.lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (P.cfd >= 0) {
			/* answers are written blocking */
			fcntl(P.cfd, F_SETFL, fcntl(P.cfd, F_GETFL) & ~O_NONBLOCK);
			P.nin = 0;
		}
		put_int(call, 0);
		return 0;
	}
	nl = memchr(P.in, '\n', P.nin);
	if (!nl && P.nin < sizeof(P.in)) {
		n = recv(P.cfd, P.in + P.nin, sizeof(P.in) - P.nin, MSG_DONTWAIT);
		if (n == 0) {
			put_int(call, -1);
			return 0;
		}
		if (n > 0)
			P.nin += (size_t)n;
		nl = memchr(P.in, '\n', P.nin);
	}
	if (!nl) {
		if (P.nin == sizeof(P.in))
			fatal("an overlong request line");
		put_int(call, 0);
		return 0;
	}
	*nl = '\0';
	ready = parse(P.in);
	if (ready < 0) {
		fatal("a malformed request line (want \"b PORT COUNT LEN BYTES\" or \"g\")");
		return 0;
	}
	memmove(P.in, nl + 1, P.nin - (size_t)(nl + 1 - P.in));
	P.nin -= (size_t)(nl + 1 - P.in);
	put_int(call, ready);
	return 0;
}

/* Argument 0 as a port that can have a staged frame, else -1. */
static long port_arg(vpiHandle call)
{
	long port = arg_int(call, 0);

	return port >= 0 && port < MAX_PORTS ? port : -1;
}

static PLI_INT32 count_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	long port = port_arg(call);

	(void)user;
	put_int(call, port < 0 ? 0 : P.port[port].count);
	return 0;
}

static PLI_INT32 len_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	long port = port_arg(call);

	(void)user;
	put_int(call, port < 0 ? 0 : P.port[port].len);
	return 0;
}

static PLI_INT32 byte_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	long port = port_arg(call), i = arg_int(call, 1);

	(void)user;
	put_int(call, port >= 0 && i >= 0 && i < P.port[port].len ? P.port[port].d[i] : 0);
	return 0;
}

static PLI_INT32 obyte_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);

	(void)user;
	if (P.nout < MAX_LEN)
		P.out[P.nout++] = (unsigned char)arg_int(call, 0);
	put_int(call, 0);
	return 0;
}

static PLI_INT32 osend_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	static char line[MAX_LEN * 3 + 64];
	size_t n;
	long i;

	(void)user;
	n = (size_t)snprintf(line, sizeof(line), "o %lx %lx", arg_int(call, 0), P.nout);
	for (i = 0; i < P.nout; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %02x", P.out[i]);
	line[n++] = '\n';
	send_all(line, n);
	P.nout = 0;
	put_int(call, 0);
	return 0;
}

/* Writes a line: the letter, then the call's NARGS integer arguments in hex. */
static void send_ints(vpiHandle call, char letter, int nargs)
{
	char line[16 * 12];
	size_t n = 0;
	int i;

	line[n++] = letter;
	for (i = 0; i < nargs; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %lx",
				      (unsigned long)arg_int(call, i) & 0xFFFFFFFFul);
	line[n++] = '\n';
	send_all(line, n);
	put_int(call, 0);
}

static PLI_INT32 ocount_calltf(PLI_BYTE8 *user)
{
	(void)user;
	send_ints(vpi_handle(vpiSysTfCall, NULL), 'c', 7);
	return 0;
}

static PLI_INT32 otime_calltf(PLI_BYTE8 *user)
{
	(void)user;
	send_ints(vpi_handle(vpiSysTfCall, NULL), 't', 3);
	return 0;
}

static PLI_INT32 done_calltf(PLI_BYTE8 *user)
{
	int i;

	(void)user;
	for (i = 0; i < MAX_PORTS; i++)
		P.port[i].count = 0;
	send_all("d\n", 2);
	put_int(vpi_handle(vpiSysTfCall, NULL), 0);
	return 0;
}

static PLI_INT32 size32(PLI_BYTE8 *user)
{
	(void)user;
	return 32;
}

static void reg(const char *name, PLI_INT32 (*fn)(PLI_BYTE8 *))
{
	s_vpi_systf_data tf;

	memset(&tf, 0, sizeof(tf));
	tf.type = vpiSysFunc;
	tf.sysfunctype = vpiIntFunc;
	tf.tfname = (PLI_BYTE8 *)name;
	tf.calltf = fn;
	tf.sizetf = size32;
	vpi_register_systf(&tf);
}

static PLI_INT32 end_cb(p_cb_data cb)
{
	(void)cb;
	if (P.cfd >= 0)
		close(P.cfd);
	if (P.lfd >= 0) {
		close(P.lfd);
		unlink(P.path);
	}
	return 0;
}

static void pkt_register(void)
{
	s_cb_data cb;

	reg("$pkt_open", open_calltf);
	reg("$pkt_poll", poll_calltf);
	reg("$pkt_count", count_calltf);
	reg("$pkt_len", len_calltf);
	reg("$pkt_byte", byte_calltf);
	reg("$pkt_obyte", obyte_calltf);
	reg("$pkt_osend", osend_calltf);
	reg("$pkt_ocount", ocount_calltf);
	reg("$pkt_otime", otime_calltf);
	reg("$pkt_done", done_calltf);
	memset(&cb, 0, sizeof(cb));
	cb.reason = cbEndOfSimulation;
	cb.cb_rtn = end_cb;
	vpi_register_cb(&cb);
}

void (*vlog_startup_routines[])(void) = { pkt_register, NULL };
