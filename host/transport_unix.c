/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_unix.c: the Unix-socket transports. sim:PATH connects to a
 * switch that someone else runs; model:IMAGE runs pisa-model itself, as a
 * child on a private socket, and starts it again when it died.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "transport.h"

struct unix_priv {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd;
	/* model: only */
	int model;
	char image[PATH_MAX];
	char exe[PATH_MAX];
	char dir[64];
	pid_t pid;
};

static int unix_connect_path(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(err, errlen, "cannot connect to the switch at %s: %s", path,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void unix_disconnect(struct transport *t)
{
	struct unix_priv *p = t->priv;

	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

static int sim_connect(struct transport *t, char *err, size_t errlen)
{
	struct unix_priv *p = t->priv;

	unix_disconnect(t);
	p->fd = unix_connect_path(p->path, err, errlen);
	return p->fd;
}

/* Reaps the child if it exited; describes how into why. */
static int child_gone(struct unix_priv *p, char *why, size_t n)
{
	int st;

	if (p->pid <= 0)
		return 1;
	if (waitpid(p->pid, &st, WNOHANG) != p->pid)
		return 0;
	if (WIFEXITED(st))
		snprintf(why, n, "pisa-model (pid %d) exited with status %d", (int)p->pid,
			 WEXITSTATUS(st));
	else
		snprintf(why, n, "pisa-model (pid %d) was killed by signal %d", (int)p->pid,
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	p->pid = 0;
	return 1;
}

static int spawn_model(struct unix_priv *p, char *err, size_t errlen)
{
	pid_t pid;

	if (access(p->exe, X_OK) < 0) {
		snprintf(err, errlen, "cannot run %s: %s", p->exe, strerror(errno));
		return -1;
	}
	unlink(p->path);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);	/* stderr stays: its errors reach pisad's log */
		}
		execl(p->exe, "pisa-model", p->image, "--control", p->path, (char *)NULL);
		_exit(127);
	}
	p->pid = pid;
	return 0;
}

static int model_connect(struct transport *t, char *err, size_t errlen)
{
	struct unix_priv *p = t->priv;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	char why[160];
	int i;

	unix_disconnect(t);
	if (child_gone(p, why, sizeof(why)) && spawn_model(p, err, errlen) < 0)
		return -1;
	/* the child needs a moment to read its image and listen */
	for (i = 0; i < 250; i++) {
		p->fd = unix_connect_path(p->path, err, errlen);
		if (p->fd >= 0)
			return p->fd;
		if (child_gone(p, why, sizeof(why))) {
			snprintf(err, errlen, "%s before it listened on its control socket", why);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void unix_destroy(struct transport *t)
{
	struct unix_priv *p = t->priv;
	char why[160];

	if (!p)
		return;
	unix_disconnect(t);
	if (p->model) {
		if (!child_gone(p, why, sizeof(why))) {
			kill(p->pid, SIGTERM);
			waitpid(p->pid, NULL, 0);
		}
		unlink(p->path);
		rmdir(p->dir);
	}
	free(p);
	t->priv = NULL;
}

static const struct transport_ops sim_ops = { sim_connect, unix_disconnect, unix_destroy };
static const struct transport_ops model_ops = { model_connect, unix_disconnect, unix_destroy };

int transport_sim_open(struct transport *t, const char *path, char *err, size_t errlen)
{
	struct unix_priv *p;

	if (strlen(path) >= sizeof(p->path)) {
		snprintf(err, errlen, "sim:%s: socket path longer than %zu bytes", path,
			 sizeof(p->path) - 1);
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "no memory");
		return -1;
	}
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->fd = -1;
	t->ops = &sim_ops;
	t->priv = p;
	snprintf(t->desc, sizeof(t->desc), "sim:%s", path);
	return 0;
}

int transport_model_open(struct transport *t, const char *image, const char *bindir,
			 char *err, size_t errlen)
{
	struct unix_priv *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errlen, "no memory");
		return -1;
	}
	p->fd = -1;
	p->model = 1;
	/* absolute: a daemon changes to / */
	if (!realpath(image, p->image)) {
		snprintf(err, errlen, "model:%s: %s", image, strerror(errno));
		free(p);
		return -1;
	}
	snprintf(p->exe, sizeof(p->exe), "%s/pisa-model", bindir);
	snprintf(p->dir, sizeof(p->dir), "/tmp/pisad-model-XXXXXX");
	if (!mkdtemp(p->dir)) {
		snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
		free(p);
		return -1;
	}
	snprintf(p->path, sizeof(p->path), "%s/control.sock", p->dir);
	t->ops = &model_ops;
	t->priv = p;
	snprintf(t->desc, sizeof(t->desc), "model:%.140s (%.140s)", p->image, p->exe);
	return 0;
}
