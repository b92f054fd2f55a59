/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_vpi.c: a Unix stream socket for an Icarus Verilog 11 simulation, so that
 * pisad (--transport sim:PATH) can talk to a simulated board (sim/cosim/tb_cosim.v).
 * The simulation serves the socket; pisad connects to it. One connection at a time;
 * when it closes, the socket goes back to listening and pisad can connect again.
 *
 *   $pisa_sock_open(path [, idle_calls])
 *       removes a stale socket file at path (a socket nobody serves), binds and listens,
 *       non-blocking; returns 0. idle_calls (default 5000): after that many idle calls of
 *       $pisa_sock_getc in a row, each further idle call waits up to 1 ms for the socket
 *       (so an idle co-simulation does not burn a core; while it waits, about a thousand
 *       clock cycles pass a second). Call $pisa_sock_getc once a clock cycle.
 *   $pisa_sock_getc [ (busy) ]
 *       the next byte received (0 .. 255), or -1 when there is none. Accepts a connection
 *       when none is open; a connection closed by the peer goes back to listening. A call
 *       is idle when no byte came, no $pisa_sock_putc happened since the last call and busy
 *       (default 0) is 0: pass the design's "still working" signals as busy.
 *   $pisa_sock_putc(byte)
 *       queues byte (0 .. 255) for the peer; returns 1, or 0 when it was dropped because
 *       nobody is connected (or the peer stopped reading and 64 KiB are queued).
 *   $pisa_sock_connected
 *       1 while a connection is open, else 0.
 * (Verilog-2005 calls a system function without arguments without parentheses.)
 *
 * Errors (bad arguments, a path that cannot be served, a call before $pisa_sock_open)
 * print "pisa_vpi: error: ..." and end the simulation (vvp exits with status 1); the
 * function returns -1.
 * Nothing blocks for longer than 1 ms. Build with iverilog-vpi (sim/cosim/Makefile),
 * load with vvp -M DIR -m pisa_vpi.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <vpi_user.h>

#include "pisa_vpi.h"

#define IDLE_CALLS_DEFAULT 5000
#define CHECK_EVERY 8
#define IN_CAP 16384
#define OUT_CAP 65536

static struct {
	int open;		/* $pisa_sock_open succeeded */
	int lfd, cfd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	long idle_calls;	/* idle getc calls before waiting */
	long idle;		/* idle calls so far */
	unsigned long calls;	/* getc calls */
	unsigned char in[IN_CAP];
	size_t in_off, in_len;
	unsigned char out[OUT_CAP];
	size_t out_off, out_len;
	unsigned long connects, dropped;
	int drop_warned;
} S = { .lfd = -1, .cfd = -1, .idle_calls = IDLE_CALLS_DEFAULT };

/* ---- helpers ---- */

/* vvp's exit status (Icarus' own, what $fatal uses); weak: absent in other simulators */
extern void vpip_set_return_value(int value) __attribute__((weak));

#define say pisa_vpi_say
#define fatal pisa_vpi_fatal
#define put_int pisa_vpi_put_int
#define get_args pisa_vpi_args
#define arg_int pisa_vpi_arg_int
#define arg_str pisa_vpi_arg_str

/* A line for the simulation's log, flushed: the log is often a file. */
void pisa_vpi_say(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vpi_printf("pisa_vpi: %s\n", msg);
	vpi_flush();
}

void pisa_vpi_fatal(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("error: %s", msg);
	if (vpip_set_return_value)
		vpip_set_return_value(1);
	vpi_control(vpiFinish, 1);
}

void pisa_vpi_put_int(vpiHandle call, int v)
{
	s_vpi_value val;

	val.format = vpiIntVal;
	val.value.integer = v;
	vpi_put_value(call, &val, NULL, vpiNoDelay);
}

static PLI_INT32 sizetf32(PLI_BYTE8 *user)
{
	(void)user;
	return 32;
}

/* The call's arguments (at most max, fills args[]); returns their number, or -1. */
int pisa_vpi_args(vpiHandle call, vpiHandle *args, int max)
{
	vpiHandle it = vpi_iterate(vpiArgument, call), a;
	int n = 0;

	if (!it)
		return 0;
	while ((a = vpi_scan(it)) != NULL) {
		if (n == max) {
			vpi_free_object(it);
			return -1;
		}
		args[n++] = a;
	}
	return n;
}

/* An argument that has no value: a scope, a whole array, an event, a task. */
static int has_value(vpiHandle a)
{
	switch (vpi_get(vpiType, a)) {
	case vpiModule: case vpiMemory: case vpiNamedEvent: case vpiNamedBegin:
	case vpiNamedFork: case vpiTask: case vpiFunction: case vpiRegArray: case vpiNetArray:
		return 0;
	default:
		return 1;
	}
}

/* compiletf: the argument count is min .. max and every argument has a value. */
static int check_args(const char *name, int min, int max)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle args[4];
	int n, i;

	n = get_args(call, args, max < 4 ? max : 4);
	if (n < 0 || n < min) {
		if (min == max)
			fatal("%s takes %d argument%s (%s:%d)", name, min, min == 1 ? "" : "s",
			      vpi_get_str(vpiFile, call), (int)vpi_get(vpiLineNo, call));
		else
			fatal("%s takes %d to %d arguments (%s:%d)", name, min, max,
			      vpi_get_str(vpiFile, call), (int)vpi_get(vpiLineNo, call));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!has_value(args[i])) {
			fatal("%s: argument %d has no value (%s:%d)", name, i + 1,
			      vpi_get_str(vpiFile, call), (int)vpi_get(vpiLineNo, call));
			return -1;
		}
	return 0;
}

/* The integer value of a (LONG_MAX if it does not fit in 32 bits); -1 with *ok = 0 if
 * it has x or z bits. */
long pisa_vpi_arg_int(vpiHandle a, int *ok)
{
	s_vpi_value val;
	int n = vpi_get(vpiSize, a), sgn = vpi_get(vpiSigned, a) == 1, words, i;
	uint32_t lo;
	long v;

	if (n <= 0)
		n = 32;
	words = (n + 31) / 32;
	val.format = vpiVectorVal;
	vpi_get_value(a, &val);
	*ok = 0;
	if (val.format != vpiVectorVal || !val.value.vector)
		return -1;
	for (i = 0; i < words; i++)
		if (val.value.vector[i].bval)
			return -1;
	*ok = 1;
	lo = (uint32_t)val.value.vector[0].aval;
	if (n < 32) {
		lo &= (1u << n) - 1u;
		v = (long)lo;
		if (sgn && (lo >> (n - 1)) & 1u)
			v -= 1L << n;
		return v;
	}
	v = sgn ? (long)(int32_t)lo : (long)lo;
	for (i = 1; i < words; i++)
		if ((uint32_t)val.value.vector[i].aval != (sgn && (int32_t)lo < 0 ? 0xffffffffu : 0u))
			return LONG_MAX;
	return v;
}

/* The string in a: a string constant, or a reg filled by $value$plusargs("x=%s", r)
 * (right-aligned; vpiStringVal leaves out the NUL bytes on its left). Returns 0, -1 if it
 * is not text, -2 if it does not fit in cap. */
int pisa_vpi_arg_str(vpiHandle a, char *out, size_t cap)
{
	s_vpi_value val;
	const char *s;
	size_t n;

	val.format = vpiStringVal;
	vpi_get_value(a, &val);
	if (val.format != vpiStringVal || !val.value.str)
		return -1;
	s = val.value.str;
	n = strlen(s);
	if (n >= cap)
		return -2;
	memcpy(out, s, n + 1);
	return 0;
}

/* ---- the socket ---- */

static void conn_close(const char *why)
{
	if (S.cfd < 0)
		return;
	close(S.cfd);
	S.cfd = -1;
	S.in_off = S.in_len = 0;
	S.out_off = S.out_len = 0;
	say("connection closed (%s); listening on %s again", why, S.path);
}

static void try_accept(void)
{
	int fd;

	if (S.cfd >= 0 || S.lfd < 0)
		return;
	fd = accept4(S.lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	S.cfd = fd;
	S.connects++;
	S.idle = 0;
	S.drop_warned = 0;
	say("connection %lu accepted on %s", S.connects, S.path);
}

static void flush_out(void)
{
	while (S.cfd >= 0 && S.out_off < S.out_len) {
		ssize_t n = send(S.cfd, S.out + S.out_off, S.out_len - S.out_off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				conn_close(strerror(errno));
			return;
		}
		S.out_off += (size_t)n;
	}
	if (S.out_off == S.out_len)
		S.out_off = S.out_len = 0;
}

/* Reads what is there; returns 1 if bytes arrived. */
static int fill_in(void)
{
	ssize_t n;

	if (S.cfd < 0)
		return 0;
	for (;;) {
		n = recv(S.cfd, S.in, sizeof(S.in), MSG_DONTWAIT);
		if (n > 0) {
			S.in_off = 0;
			S.in_len = (size_t)n;
			return 1;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			conn_close("the peer closed it");
		else if (errno != EAGAIN && errno != EWOULDBLOCK)
			conn_close(strerror(errno));
		return 0;
	}
}

/* Waits up to 1 ms for a byte, a connection or a frame on an Ethernet port. */
static void idle_wait(void)
{
	struct pollfd p[17];
	int n;

	p[0].fd = S.cfd >= 0 ? S.cfd : S.lfd;
	p[0].events = POLLIN;
	p[0].revents = 0;
	if (S.cfd >= 0 && S.out_off < S.out_len)
		p[0].events |= POLLOUT;
	n = 1 + pisa_eth_pollfds(p + 1, 16);
	poll(p, (nfds_t)n, 1);
}

static int serve(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd;

	if (strlen(path) == 0) {
		fatal("$pisa_sock_open: empty socket path");
		return -1;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fatal("$pisa_sock_open: socket path longer than %zu bytes: %s",
		      sizeof(sa.sun_path) - 1, path);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fatal("$pisa_sock_open: %s exists and is not a socket", path);
			return -1;
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(fd);
			fatal("$pisa_sock_open: something already serves %s", path);
			return -1;
		}
		if (fd >= 0)
			close(fd);
		unlink(path);	/* stale: left by a simulation that was killed */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fatal("$pisa_sock_open: socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4) < 0) {
		fatal("$pisa_sock_open: %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	S.lfd = fd;
	snprintf(S.path, sizeof(S.path), "%s", path);
	S.open = 1;
	say("listening on %s", S.path);
	return 0;
}

/* ---- the system functions ---- */

static PLI_INT32 open_compiletf(PLI_BYTE8 *user)
{
	(void)user;
	check_args("$pisa_sock_open", 1, 2);
	return 0;
}

static PLI_INT32 open_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle args[2];
	char path[256];
	int n = get_args(call, args, 2), ok, r;
	long v;

	(void)user;
	if (n < 1) {
		fatal("$pisa_sock_open takes 1 or 2 arguments");
		put_int(call, -1);
		return 0;
	}
	if (S.open) {
		fatal("$pisa_sock_open: already serving %s", S.path);
		put_int(call, -1);
		return 0;
	}
	r = arg_str(args[0], path, sizeof(path));
	if (r < 0) {
		fatal(r == -2 ? "$pisa_sock_open: the path is too long" :
		      "$pisa_sock_open: the first argument is not a string");
		put_int(call, -1);
		return 0;
	}
	if (n == 2) {
		v = arg_int(args[1], &ok);
		if (!ok || v < 1) {
			fatal("$pisa_sock_open: idle_calls must be a positive number");
			put_int(call, -1);
			return 0;
		}
		S.idle_calls = v;
	}
	put_int(call, serve(path));
	return 0;
}

static PLI_INT32 noargs_compiletf(PLI_BYTE8 *user)
{
	check_args(user, 0, 0);
	return 0;
}

static int need_open(const char *name)
{
	if (S.open)
		return 0;
	fatal("%s before $pisa_sock_open", name);
	return -1;
}

static PLI_INT32 getc_compiletf(PLI_BYTE8 *user)
{
	(void)user;
	check_args("$pisa_sock_getc", 0, 1);
	return 0;
}

static PLI_INT32 getc_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle args[1];
	int n, ok;
	long busy = 0;

	(void)user;
	if (need_open("$pisa_sock_getc") < 0) {
		put_int(call, -1);
		return 0;
	}
	n = get_args(call, args, 1);
	if (n == 1) {
		busy = arg_int(args[0], &ok);
		if (!ok)
			busy = 1;	/* x: the design is not settled, certainly not idle */
	}
	S.calls++;
	if (busy)
		S.idle = 0;
	/* nothing buffered: look at the socket on every CHECK_EVERY-th call only (a system
	 * call every clock cycle would cost more than the rest of the simulation), and on
	 * every call once idle */
	if (S.in_off == S.in_len && (S.calls % CHECK_EVERY == 0 || S.idle >= S.idle_calls)) {
		if (S.cfd < 0)
			try_accept();
		flush_out();
		fill_in();
	}
	if (S.in_off < S.in_len) {
		S.idle = 0;
		put_int(call, S.in[S.in_off++]);
		return 0;
	}
	if (++S.idle > S.idle_calls) {
		S.idle = S.idle_calls;
		idle_wait();
	}
	put_int(call, -1);
	return 0;
}

static PLI_INT32 putc_compiletf(PLI_BYTE8 *user)
{
	(void)user;
	check_args("$pisa_sock_putc", 1, 1);
	return 0;
}

static PLI_INT32 putc_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
	vpiHandle args[1];
	long v;
	int ok;

	(void)user;
	if (need_open("$pisa_sock_putc") < 0) {
		put_int(call, -1);
		return 0;
	}
	if (get_args(call, args, 1) != 1) {
		fatal("$pisa_sock_putc takes 1 argument");
		put_int(call, -1);
		return 0;
	}
	v = arg_int(args[0], &ok);
	if (!ok || v < 0 || v > 255) {
		if (ok)
			fatal("$pisa_sock_putc: %ld is not a byte (0 .. 255)", v);
		else
			fatal("$pisa_sock_putc: the byte has x or z bits");
		put_int(call, -1);
		return 0;
	}
	S.idle = 0;
	if (S.cfd < 0)
		try_accept();
	if (S.cfd < 0 || S.out_len == sizeof(S.out)) {
		S.dropped++;
		if (S.cfd >= 0 && !S.drop_warned) {
			say("the peer does not read: dropping bytes");
			S.drop_warned = 1;
		}
		put_int(call, 0);
		return 0;
	}
	S.out[S.out_len++] = (unsigned char)v;
	flush_out();
	put_int(call, 1);
	return 0;
}

static PLI_INT32 connected_calltf(PLI_BYTE8 *user)
{
	vpiHandle call = vpi_handle(vpiSysTfCall, NULL);

	(void)user;
	if (need_open("$pisa_sock_connected") < 0) {
		put_int(call, -1);
		return 0;
	}
	if (S.cfd < 0)
		try_accept();
	put_int(call, S.cfd >= 0);
	return 0;
}

/* At the end of the simulation: close and remove the socket file. */
static PLI_INT32 end_cb(p_cb_data cb)
{
	(void)cb;
	if (S.cfd >= 0)
		close(S.cfd);
	S.cfd = -1;
	if (S.lfd >= 0) {
		close(S.lfd);
		unlink(S.path);
	}
	S.lfd = -1;
	return 0;
}

/* An integer system function; user goes to its calltf and compiletf. */
static void register_func(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *),
			  PLI_INT32 (*compiletf)(PLI_BYTE8 *), void *user)
{
	s_vpi_systf_data tf;

	memset(&tf, 0, sizeof(tf));
	tf.type = vpiSysFunc;
	tf.sysfunctype = vpiIntFunc;
	tf.tfname = (PLI_BYTE8 *)name;
	tf.calltf = calltf;
	tf.compiletf = compiletf;
	tf.sizetf = sizetf32;
	tf.user_data = user;
	vpi_register_systf(&tf);
}

static void reg_func(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *),
		     PLI_INT32 (*compiletf)(PLI_BYTE8 *))
{
	register_func(name, calltf, compiletf, (void *)name);
}

/* compiletf of pisa_vpi_func's functions: user is the name, nargs after it. */
struct func_info {
	const char *name;
	int nargs;
};

static PLI_INT32 fixed_compiletf(PLI_BYTE8 *user)
{
	const struct func_info *fi = (const struct func_info *)user;

	check_args(fi->name, fi->nargs, fi->nargs);
	return 0;
}

void pisa_vpi_func(const char *name, PLI_INT32 (*calltf)(PLI_BYTE8 *), int nargs)
{
	static struct func_info infos[32];
	static int ninfos;

	if (ninfos == 32)
		return;
	infos[ninfos].name = name;
	infos[ninfos].nargs = nargs;
	register_func(name, calltf, fixed_compiletf, &infos[ninfos++]);
}

static void pisa_vpi_register(void)
{
	s_cb_data cb;

	/* a peer that vanishes must not kill the simulation */
	signal(SIGPIPE, SIG_IGN);
	reg_func("$pisa_sock_open", open_calltf, open_compiletf);
	reg_func("$pisa_sock_getc", getc_calltf, getc_compiletf);
	reg_func("$pisa_sock_putc", putc_calltf, putc_compiletf);
	reg_func("$pisa_sock_connected", connected_calltf, noargs_compiletf);
	pisa_vpi_eth_register();
	memset(&cb, 0, sizeof(cb));
	cb.reason = cbEndOfSimulation;
	cb.cb_rtn = end_cb;
	vpi_register_cb(&cb);
}

void (*vlog_startup_routines[])(void) = { pisa_vpi_register, NULL };
