/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_loop.c - vhost-user back-end: the event loop: kicks, pending notifications, poll and run
 * (see br_vhost.h).
 */
#include "bridge/br_vhost_priv.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ----- the loop ----- */

static int drain_kick(struct br_vhost *vh, unsigned q)
{
	struct br_vhost_vq *vq = &vh->vq[q];
	uint8_t buf[64];
	int any = 0;

	for (;;) {
		ssize_t n = read(vq->kick_fd, buf, sizeof(buf));

		if (n > 0) {
			any = 1;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n == 0) {
			/* the front-end closed its end: no more kicks */
			brv_close_fd(&vq->kick_fd);
			break;
		}
		return br_vhost_fail(vh, -errno, "queue %u: kick fd: %s", q,
				       strerror(errno));
	}
	if (any)
		vq->kicks++;
	return any;
}

static int run_pending(struct br_vhost *vh)
{
	int n = 0;

	for (unsigned q = 0; q < vh->nvq && !vh->broken; q++) {
		struct br_vhost_vq *vq = &vh->vq[q];

		if (!vq->notify_pending)
			continue;
		vq->notify_pending = false;
		if (vh->notify && br_vhost_queue_ready(vh, q)) {
			vh->notify(vh->opaque, vh, q);
			n++;
		}
	}
	return n;
}

/* One pass over the fds with @timeout_ms; number of events or -errno. */
/* The descriptors to wait on and, in @who, what each is: -2 the listening
 * socket, -1 the connection, q >= 0 queue q's kick eventfd. */
static unsigned wait_set(const struct br_vhost *vh, struct pollfd *p, int *who)
{
	unsigned n = 0;

	if (vh->fd < 0 && vh->listen_fd >= 0) {
		p[n].fd = vh->listen_fd;
		p[n].events = POLLIN;
		who[n++] = -2;
	}
	if (vh->fd >= 0) {
		p[n].fd = vh->fd;
		p[n].events = POLLIN;
		who[n++] = -1;
		for (unsigned q = 0; q < vh->nvq; q++)
			if (vh->vq[q].kick_fd >= 0) {
				p[n].fd = vh->vq[q].kick_fd;
				p[n].events = POLLIN;
				who[n++] = (int)q;
			}
	}
	return n;
}

unsigned br_vhost_pollfds(const struct br_vhost *vh, struct pollfd *p,
			    unsigned max)
{
	struct pollfd all[BR_VHOST_POLLFDS];
	int who[BR_VHOST_POLLFDS];
	unsigned n = vh->broken ? 0 : wait_set(vh, all, who);

	if (n > max)
		n = max;
	memcpy(p, all, n * sizeof(*p));
	return n;
}

static int poll_once(struct br_vhost *vh, int timeout_ms)
{
	struct pollfd p[BR_VHOST_POLLFDS];
	int who[BR_VHOST_POLLFDS];
	unsigned n = wait_set(vh, p, who);
	int events = 0, rc;

	if (n == 0)
		return vh->listen_fd < 0 ? -ENOTCONN : 0;
	rc = poll(p, n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (rc == 0)
		return 0;
	for (unsigned i = 0; i < n && !vh->broken; i++) {
		if (!p[i].revents)
			continue;
		if (who[i] == -2) {
			int fd = accept4(vh->listen_fd, NULL, NULL,
					 SOCK_CLOEXEC | SOCK_NONBLOCK);

			if (fd >= 0) {
				brv_new_connection(vh, fd);
				events++;
			}
		} else if (who[i] == -1) {
			/* all complete messages queued now */
			for (int k = 0; k < 4096; k++) {
				rc = brv_handle_one_message(vh);
				if (rc <= 0)
					break;
				events++;
			}
			if (rc < 0)
				return rc;
		} else {
			unsigned q = (unsigned)who[i];

			if (vh->vq[q].kick_fd < 0)
				continue;
			rc = drain_kick(vh, q);
			if (rc < 0)
				return rc;
			if (rc > 0) {
				vh->vq[q].notify_pending = true;
				events++;
			}
		}
	}
	events += run_pending(vh);
	return vh->broken ? vh->status : events;
}

/* After an error: close this connection (a listener accepts the next). */
static int finish(struct br_vhost *vh, int rc)
{
	if (vh->broken) {
		/* err and status stay for br_vhost_error() */
		brv_disconnect(vh);
		vh->broken = false;
		return vh->status;
	}
	return rc;
}

int br_vhost_poll(struct br_vhost *vh)
{
	int total = 0;

	if (vh->broken)
		return finish(vh, 0);
	/* bounded: a front-end that never stops sending cannot starve the
	 * caller's simulator */
	for (int pass = 0; pass < 64; pass++) {
		int rc = poll_once(vh, 0);

		if (rc < 0)
			return finish(vh, rc);
		if (rc == 0)
			break;
		total += rc;
	}
	return finish(vh, total);
}

int br_vhost_run(struct br_vhost *vh, int timeout_ms)
{
	int rc;

	if (vh->broken)
		return finish(vh, 0);
	rc = poll_once(vh, timeout_ms);
	if (rc <= 0)
		return finish(vh, rc);
	int more = br_vhost_poll(vh);

	return more < 0 ? more : rc + more;
}
