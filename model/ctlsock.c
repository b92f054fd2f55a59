/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctlsock.c: pisa-model's control endpoint, a Unix stream socket speaking
 * the control-link protocol (docs/control-protocol.md) through
 * lib/pisa_proto's switch end. One client at a time; the others wait in the
 * listen backlog. Switch state outlives clients; each client starts a new
 * session with HELLO.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "cli.h"
#include "pisa_profile.h"
#include "pisa_proto.h"

#define CTL_MAX_IMAGE (16u << 20)
#define CTL_PUSH_LIMIT (1u << 20)	/* queued bytes beyond which packet-ins are dropped */

struct ctl {
	struct app *app;
	char *path;
	int lfd, cfd;
	struct pisa_proto_server *srv;
	uint8_t *out;
	size_t out_off, out_len, out_cap;
	uint64_t pushes_dropped;
};

static void ctl_flush_out(struct ctl *c)
{
	while (c->cfd >= 0 && c->out_off < c->out_len) {
		ssize_t n = send(c->cfd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->out_off = c->out_len;	/* the client went away */
			break;
		}
		c->out_off += (size_t)n;
	}
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
}

static void srv_send(void *arg, const uint8_t *frame, size_t len)
{
	struct ctl *c = arg;

	if (c->cfd < 0)
		return;
	/* pushed frames are best effort; replies are never dropped */
	if ((frame[6] == PISA_MSG_PACKET_IN || frame[6] == PISA_MSG_DIGEST) &&
	    c->out_len - c->out_off > CTL_PUSH_LIMIT) {
		c->pushes_dropped++;
		return;
	}
	if (c->out_off && c->out_len + len > c->out_cap) {
		memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
		c->out_len -= c->out_off;
		c->out_off = 0;
	}
	if (c->out_len + len > c->out_cap) {
		size_t cap = c->out_cap ? c->out_cap : 65536;
		uint8_t *np;

		while (cap < c->out_len + len)
			cap *= 2;
		np = realloc(c->out, cap);
		if (!np)
			return;
		c->out = np;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, frame, len);
	c->out_len += len;
	ctl_flush_out(c);
}

static void srv_info(void *arg, struct pisa_proto_hello_reply *r)
{
	struct ctl *c = arg;
	const struct pisa_profile *p = pisa_profile_find(c->app->board);
	const struct pisa_image *img = c->app->img;

	r->hw_version = PISA_IMAGE_VERSION_MAJOR << 8 | PISA_IMAGE_VERSION_MINOR;
	if (p) {
		r->ports = (uint16_t)p->ports;
		r->stages = (uint16_t)p->stages;
		r->phv_bytes = (uint16_t)p->phv_bytes;
		r->mcast_groups = (uint16_t)p->mcast_groups;
		r->mcast_nodes = (uint16_t)p->mcast_nodes;
		r->clone_sessions = (uint16_t)p->clone_sessions;
	} else {
		r->ports = PISA_PORT_DROP;
		r->stages = img->nstages;
		r->phv_bytes = img->phv_bytes;
		r->mcast_groups = img->mcast_groups;
		r->mcast_nodes = img->mcast_nodes;
		r->clone_sessions = img->clone_sessions;
	}
	r->cpu_port = img->cpu_port;
	snprintf(r->program, sizeof(r->program), "%s", img->program);
}

static int srv_load(void *arg, struct pisa_image *img, char *detail, size_t dlen)
{
	struct ctl *c = arg;

	return app_load(c->app, img, detail, dlen);
}

static int srv_reset(void *arg)
{
	struct ctl *c = arg;

	return app_reset(c->app);
}

static int srv_packet_out(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	struct ctl *c = arg;

	return app_inject(c->app, port, data, len, app_now_us());
}

static const struct pisa_proto_server_cb srv_cb = {
	srv_send, srv_info, srv_load, srv_reset, srv_packet_out,
};

struct ctl *ctl_open(struct app *a, const char *path, const uint8_t *image, size_t image_len,
		     char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	struct ctl *c;

	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "%s: path longer than %zu bytes", path,
			 sizeof(sun.sun_path) - 1);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "%s: no memory", path);
		return NULL;
	}
	c->app = a;
	c->cfd = -1;
	c->path = strdup(path);
	c->srv = pisa_proto_server_new(&srv_cb, c, a->board, CTL_MAX_IMAGE);
	c->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!c->path || !c->srv || c->lfd < 0) {
		snprintf(err, errlen, "%s: %s", path, c->lfd < 0 ? strerror(errno) : "no memory");
		goto fail;
	}
	pisa_proto_server_set_switch(c->srv, &pisa_model_ops, a->m);
	pisa_proto_server_set_image(c->srv, image, image_len);
	/* a socket left by an earlier run is replaced; anything else is not */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s: exists and is not a socket", path);
			goto fail;
		}
		unlink(path);
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	if (bind(c->lfd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		snprintf(err, errlen, "%s: bind: %s", path, strerror(errno));
		goto fail;
	}
	if (chmod(path, 0660) < 0 || listen(c->lfd, 4) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(path);
		goto fail;
	}
	return c;
fail:
	if (c->lfd >= 0)
		close(c->lfd);
	pisa_proto_server_free(c->srv);
	free(c->path);
	free(c);
	return NULL;
}

int ctl_pollfds(struct ctl *c, struct pollfd *pfd)
{
	if (c->cfd < 0) {
		pfd[0] = (struct pollfd){ c->lfd, POLLIN, 0 };
		return 1;
	}
	pfd[0] = (struct pollfd){ c->cfd, POLLIN, 0 };
	if (c->out_off < c->out_len)
		pfd[0].events |= POLLOUT;
	return 1;
}

static void client_gone(struct ctl *c)
{
	close(c->cfd);
	c->cfd = -1;
	c->out_off = c->out_len = 0;
	pisa_proto_server_disconnect(c->srv);
}

void ctl_events(struct ctl *c, const struct pollfd *pfd, int n)
{
	uint8_t buf[65536];
	ssize_t r;

	if (n < 1 || !pfd[0].revents)
		return;
	if (pfd[0].fd == c->lfd) {
		c->cfd = accept4(c->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c->cfd >= 0)
			pisa_proto_server_disconnect(c->srv);
		return;
	}
	if (pfd[0].revents & POLLOUT)
		ctl_flush_out(c);
	if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		r = recv(c->cfd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
			client_gone(c);
			return;
		}
		if (r > 0)
			pisa_proto_server_input(c->srv, buf, (size_t)r);
	}
}

int ctl_connected(const struct ctl *c)
{
	return c && c->cfd >= 0;
}

void ctl_packet_in(struct ctl *c, uint16_t port, const uint8_t *data, size_t len)
{
	pisa_proto_server_packet_in(c->srv, port, data, len);
}

void ctl_digest(struct ctl *c, uint16_t id, const uint8_t *data, size_t len)
{
	pisa_proto_server_digest(c->srv, id, data, len);
}

void ctl_set_model(struct ctl *c, struct pisa_model *m)
{
	pisa_proto_server_set_switch(c->srv, &pisa_model_ops, m);
}

void ctl_close(struct ctl *c)
{
	if (!c)
		return;
	if (c->cfd >= 0) {
		/* replies already queued still go out, as far as the socket takes them */
		ctl_flush_out(c);
		close(c->cfd);
	}
	close(c->lfd);
	unlink(c->path);
	pisa_proto_server_free(c->srv);
	free(c->out);
	free(c->path);
	free(c);
}
