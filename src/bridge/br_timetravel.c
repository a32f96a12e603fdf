/* SPDX-License-Identifier: MIT */
/*
 * br_timetravel.c - UML time-travel controller on the simulator's clock
 * (see br_timetravel.h).
 */
#include "bridge/br_timetravel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *const op_names[] = {
	"ACK", "START", "REQUEST", "WAIT", "GET", "UPDATE", "RUN",
	"FREE_UNTIL", "GET_TOD", "BROADCAST",
};

static const char *op_name(uint32_t op)
{
	return op < sizeof(op_names) / sizeof(op_names[0]) ? op_names[op] : "?";
}

static int fail(struct br_tt *tt, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct br_tt *tt, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tt->err, sizeof(tt->err), fmt, ap);
	va_end(ap);
	if (!tt->quiet)
		fprintf(stderr, "rxscale time-travel: %s\n", tt->err);
	return err;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t br_tt_now(const struct br_tt *tt)
{
	return sim_now(tt->sim);
}

const char *br_tt_error(const struct br_tt *tt)
{
	return tt->err;
}

void br_tt_init(struct br_tt *tt, struct sim *sim,
		  const struct br_tt_ops *ops, void *opaque)
{
	memset(tt, 0, sizeof(*tt));
	tt->listen_fd = -1;
	tt->sim = sim;
	tt->running = -1;
	tt->timeout_ms = 30000;
	/* 2025-01-01T00:00:00Z: the guests' wall clock, the same every run */
	tt->tod_base = UINT64_C(1735689600) * 1000000000u;
	if (ops)
		tt->ops = *ops;
	tt->opaque = opaque;
}

static void drop(struct br_tt *tt, unsigned ci)
{
	if (tt->cl[ci].fd >= 0)
		close(tt->cl[ci].fd);
	if (tt->running == (int)ci)
		tt->running = -1;
	else if (tt->running > (int)ci)
		tt->running--;
	memmove(&tt->cl[ci], &tt->cl[ci + 1],
		(tt->ncl - ci - 1) * sizeof(tt->cl[0]));
	tt->ncl--;
	tt->dropped++;
}

void br_tt_fini(struct br_tt *tt)
{
	while (tt->ncl)
		drop(tt, tt->ncl - 1);
	if (tt->listen_fd >= 0)
		close(tt->listen_fd);
	tt->listen_fd = -1;
	if (tt->path[0])
		unlink(tt->path);
	tt->path[0] = 0;
}

int br_tt_listen(struct br_tt *tt, const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	if (!stat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 8)) {
		int e = -errno;

		close(fd);
		return e;
	}
	tt->listen_fd = fd;
	strcpy(tt->path, path);
	return 0;
}

int br_tt_attach(struct br_tt *tt, int fd)
{
	struct br_tt_client *c;

	if (tt->ncl == BR_TT_MAX_CLIENTS) {
		close(fd);
		return fail(tt, -ENOSPC, "more than %d time-travel clients",
			    BR_TT_MAX_CLIENTS);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	c = &tt->cl[tt->ncl];
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->id = BR_TT_NO_ID;
	c->state = BR_TT_NEW;
	return (int)tt->ncl++;
}

int br_tt_find(const struct br_tt *tt, uint64_t id)
{
	for (unsigned i = 0; i < tt->ncl; i++)
		if (tt->cl[i].state != BR_TT_NEW && tt->cl[i].id == id)
			return (int)i;
	return -1;
}

static void accept_new(struct br_tt *tt)
{
	for (;;) {
		int fd;

		if (tt->listen_fd < 0)
			return;
		fd = accept4(tt->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return;
		br_tt_attach(tt, fd);
	}
}

/* ----- sending ----- */

static int send_msg(struct br_tt *tt, unsigned ci, uint32_t op,
		    uint32_t seq, uint64_t time)
{
	struct br_tt_msg m = { op, seq, time };
	ssize_t n = send(tt->cl[ci].fd, &m, sizeof(m),
			 MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n != (ssize_t)sizeof(m)) {
		int e = n < 0 ? -errno : -EIO;
		uint64_t id = tt->cl[ci].id;

		drop(tt, ci);
		return fail(tt, e == -EPIPE ? -ECONNRESET : e,
			    "client %lld: cannot send %s: %s", (long long)id,
			    op_name(op), n < 0 ? strerror(-e) : "short write");
	}
	return 0;
}

/* The START ACK: the client ID in the low 16 bits, and two fds of a
 * zero-filled memfd (see the header: the client declines shared memory). */
static int send_start_ack(struct br_tt *tt, unsigned ci, uint32_t seq)
{
	struct br_tt_msg m = { BR_TT_ACK, seq, ci & 0xffff };
	struct iovec iov = { &m, sizeof(m) };
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fds[2];
	ssize_t n;
	int mfd = memfd_create("rxscale-tt-noshm", MFD_CLOEXEC);

	if (mfd < 0 || ftruncate(mfd, 65536)) {
		int e = -errno;

		if (mfd >= 0)
			close(mfd);
		return fail(tt, e, "memfd for the START ACK: %s", strerror(-e));
	}
	fds[0] = fds[1] = mfd;
	memset(u.buf, 0, sizeof(u.buf));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	n = sendmsg(tt->cl[ci].fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(mfd);
	if (n != (ssize_t)sizeof(m)) {
		int e = n < 0 ? -errno : -EIO;
		uint64_t id = tt->cl[ci].id;

		drop(tt, ci);
		return fail(tt, e, "client %lld: cannot ACK START: %s",
			    (long long)id, strerror(-e));
	}
	return 0;
}

/* ----- receiving ----- */

static int proto_error(struct br_tt *tt, unsigned ci, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int proto_error(struct br_tt *tt, unsigned ci, const char *fmt, ...)
{
	char why[200];
	uint64_t id = tt->cl[ci].id;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	drop(tt, ci);
	return fail(tt, -EPROTO, "client %lld sent a bad message, dropped: %s",
		    (long long)id, why);
}

static int handle_msg(struct br_tt *tt, unsigned ci,
		      const struct br_tt_msg *m)
{
	struct br_tt_client *c = &tt->cl[ci];
	uint64_t now = br_tt_now(tt);
	uint64_t t;

	c->n_msgs++;
	tt->msgs++;
	if (c->state == BR_TT_NEW && m->op != BR_TT_START)
		return proto_error(tt, ci, "%s (op %u) before START",
				   op_name(m->op), m->op);
	switch (m->op) {
	case BR_TT_START:
		if (c->state != BR_TT_NEW)
			return proto_error(tt, ci, "a second START");
		c->id = m->time;
		c->seq = 0;
		c->state = BR_TT_STARTING;
		c->ack_due = m->seq;    /* the START's seq, ACKed when it runs */
		return 1;
	default:
		break;
	}
	if (c->state == BR_TT_STARTING)
		return proto_error(tt, ci, "%s while its START is not answered",
				   op_name(m->op));
	switch (m->op) {
	case BR_TT_REQUEST:
		c->n_req++;
		t = m->time;
		if (t < now) {
			tt->late_requests++;
			t = now;
		}
		c->req = t;
		c->req_valid = true;
		return send_msg(tt, ci, BR_TT_ACK, m->seq, 0) ?: 1;
	case BR_TT_WAIT:
		if (c->state != BR_TT_RUNNING)
			return proto_error(tt, ci, "WAIT while not running");
		c->n_wait++;
		c->state = BR_TT_WAITING;
		if (tt->running == (int)ci)
			tt->running = -1;
		return send_msg(tt, ci, BR_TT_ACK, m->seq, 0) ?: 1;
	case BR_TT_GET:
		c->n_get++;
		c->time = now;
		return send_msg(tt, ci, BR_TT_ACK, m->seq, now) ?: 1;
	case BR_TT_UPDATE:
		c->n_update++;
		if (m->time < c->time)
			return proto_error(tt, ci, "UPDATE to %llu ns, before its time %llu ns",
					   (unsigned long long)m->time,
					   (unsigned long long)c->time);
		if (c->state != BR_TT_RUNNING && m->time > now)
			return proto_error(tt, ci, "UPDATE to %llu ns while waiting at %llu ns",
					   (unsigned long long)m->time,
					   (unsigned long long)now);
		if (m->time > now) {
			/* the client ran ahead on its own: bring the models */
			tt->update_ahead++;
			sim_run_until(tt->sim, m->time);
		}
		c->time = m->time;
		return send_msg(tt, ci, BR_TT_ACK, m->seq, 0) ?: 1;
	case BR_TT_GET_TOD:
		return send_msg(tt, ci, BR_TT_ACK, m->seq,
				tt->tod_base + now) ?: 1;
	case BR_TT_BROADCAST:
		return send_msg(tt, ci, BR_TT_ACK, m->seq, 0) ?: 1;
	case BR_TT_ACK:
		if (!c->ack_due || m->seq != c->ack_due)
			return proto_error(tt, ci, "ACK with seq %u (expected %u)",
					   m->seq, c->ack_due);
		c->ack_due = 0;
		return 1;
	default:
		return proto_error(tt, ci, "op %u (%s) is not for the controller",
				   m->op, op_name(m->op));
	}
}

/* Read and handle what client @ci has sent.  >= 0 messages handled, or a
 * negative errno (the client was dropped; -ECONNRESET when it closed). */
static int read_client(struct br_tt *tt, unsigned ci)
{
	int handled = 0;

	for (;;) {
		struct br_tt_client *c = &tt->cl[ci];
		struct br_tt_msg m;
		ssize_t n = recv(c->fd, c->buf + c->blen, sizeof(c->buf) - c->blen,
				 MSG_DONTWAIT);
		int rc;

		if (n == 0) {
			uint64_t id = c->id;
			bool partial = c->blen != 0;

			drop(tt, ci);
			tt->left++;
			if (!partial)
				return -ENOTCONN;       /* e.g. a guest that powered off */
			return fail(tt, -ECONNRESET,
				    "client %lld closed its socket in the middle of a message",
				    (long long)id);
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return handled;
			{
				int e = -errno;
				uint64_t id = c->id;

				drop(tt, ci);
				return fail(tt, e, "client %lld: %s", (long long)id,
					    strerror(-e));
			}
		}
		c->blen += (unsigned)n;
		if (c->blen < sizeof(c->buf))
			continue;
		c->blen = 0;
		memcpy(&m, c->buf, sizeof(m));
		rc = handle_msg(tt, ci, &m);
		if (rc < 0)
			return rc;
		handled++;
	}
}

/* Wait up to @timeout_ms for input on the clients (all, or only @only
 * when >= 0), the listening socket and @extra; handle client messages and
 * connections.  Returns >0 if anything happened, 0 on timeout, <0 error.
 * *@extra_ready says whether @extra became readable. */
static int wait_input(struct br_tt *tt, int only, int timeout_ms,
		      const struct pollfd *extra, unsigned nextra,
		      bool *extra_ready)
{
	struct pollfd p[BR_TT_MAX_CLIENTS + 1 + 16];
	int who[BR_TT_MAX_CLIENTS];
	unsigned n = 0, nc = 0, base;
	int rc, got = 0;

	if (extra_ready)
		*extra_ready = false;
	if (tt->listen_fd >= 0)
		p[n++] = (struct pollfd){ tt->listen_fd, POLLIN, 0 };
	for (unsigned i = 0; i < tt->ncl; i++) {
		if (only >= 0 && (int)i != only)
			continue;
		who[nc++] = (int)i;
		p[n++] = (struct pollfd){ tt->cl[i].fd, POLLIN, 0 };
	}
	base = n;
	if (nextra > 16)
		nextra = 16;
	for (unsigned i = 0; i < nextra; i++)
		p[n++] = extra[i];
	rc = poll(p, n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (rc == 0)
		return 0;
	if (tt->listen_fd >= 0 && p[0].revents) {
		accept_new(tt);
		got++;
	}
	/* clients in index order; indexes shift when one is dropped */
	for (int k = (int)nc - 1; k >= 0; k--) {
		unsigned pi = (tt->listen_fd >= 0 ? 1 : 0) + (unsigned)k;

		if (!p[pi].revents)
			continue;
		rc = read_client(tt, (unsigned)who[k]);
		if (rc < 0 && rc != -ENOTCONN)
			return rc;
		got++;
	}
	for (unsigned i = base; i < n; i++)
		if (p[i].revents) {
			if (extra_ready)
				*extra_ready = true;
			got++;
		}
	return got;
}

int br_tt_wait_fd(struct br_tt *tt, unsigned ci, int fd)
{
	int64_t deadline = mono_ms() + tt->timeout_ms;
	uint64_t id;

	if (ci >= tt->ncl)
		return -ENOTCONN;
	id = tt->cl[ci].id;
	for (;;) {
		struct pollfd x = { fd, POLLIN, 0 };
		int64_t left = deadline - mono_ms();
		bool ready;
		int rc;

		if (left < 0)
			return fail(tt, -ETIMEDOUT,
				    "client %lld did not take an interrupt within %d ms",
				    (long long)id, tt->timeout_ms);
		/* the client's own messages first: they come before its reply */
		rc = wait_input(tt, (int)ci, 0, NULL, 0, NULL);
		if (rc < 0)
			return rc;
		if (br_tt_find(tt, id) != (int)ci)
			return fail(tt, -ECONNRESET,
				    "client %lld went away while taking an interrupt",
				    (long long)id);
		rc = wait_input(tt, (int)ci, (int)left, &x, 1, &ready);
		if (rc < 0)
			return rc;
		if (br_tt_find(tt, id) != (int)ci)
			return fail(tt, -ECONNRESET,
				    "client %lld went away while taking an interrupt",
				    (long long)id);
		if (ready) {
			/* drain what the client sent before its reply */
			rc = wait_input(tt, (int)ci, 0, NULL, 0, NULL);
			if (rc < 0)
				return rc;
			return 1;
		}
	}
}

/* ----- scheduling ----- */

static int start_client(struct br_tt *tt, unsigned ci)
{
	struct br_tt_client *c = &tt->cl[ci];
	uint32_t seq = c->ack_due;
	int rc;

	c->ack_due = 0;
	rc = send_start_ack(tt, ci, seq);
	if (rc)
		return rc;
	c->state = BR_TT_RUNNING;
	c->time = br_tt_now(tt);
	tt->running = (int)ci;
	tt->started++;
	return 1;
}

static int run_client(struct br_tt *tt, unsigned ci, uint64_t t)
{
	struct br_tt_client *c = &tt->cl[ci];
	int rc;

	if (t > br_tt_now(tt))
		sim_run_until(tt->sim, t);
	c->req_valid = false;
	c->seq++;
	if (!c->seq)
		c->seq = 1;
	rc = send_msg(tt, ci, BR_TT_RUN, c->seq, t);
	if (rc)
		return rc;
	c->ack_due = c->seq;
	c->n_run++;
	c->state = BR_TT_RUNNING;
	c->time = t;
	tt->running = (int)ci;
	tt->runs++;
	return 1;
}

int br_tt_step(struct br_tt *tt, int timeout_ms)
{
	struct pollfd xp[16];
	unsigned nx = 0;
	uint64_t now = br_tt_now(tt), best_t = 0;
	int best = -2;          /* -2 none, -1 the simulator, >= 0 a client */
	unsigned starting = 0;
	sim_time_t ts;
	bool ready;
	int rc;

	if (tt->running >= 0) {
		if (tt->ops.fds)
			nx = tt->ops.fds(tt->opaque, xp, 16);
		rc = wait_input(tt, -1, timeout_ms, xp, nx, &ready);
		if (rc <= 0)
			return rc;
		if (tt->ops.io) {
			int r = tt->ops.io(tt->opaque);

			if (r < 0)
				return r;
		}
		return rc;
	}

	/* nobody runs: take what is already there, deliver interrupts */
	rc = wait_input(tt, -1, 0, NULL, 0, NULL);
	if (rc < 0)
		return rc;
	if (tt->running >= 0)
		return 1;
	if (tt->ops.deliver) {
		rc = tt->ops.deliver(tt->opaque, tt);
		if (rc < 0)
			return rc;
	}

	for (unsigned i = 0; i < tt->ncl; i++)
		starting += tt->cl[i].state == BR_TT_STARTING;
	/* nothing moves before the expected clients are there */
	if (tt->started + starting < tt->expect)
		return wait_input(tt, -1, timeout_ms, NULL, 0, NULL);
	if (sim_next_time(tt->sim, &ts)) {
		best = -1;
		best_t = ts < now ? now : ts;
	}
	for (unsigned i = 0; i < tt->ncl; i++) {
		const struct br_tt_client *c = &tt->cl[i];
		uint64_t t;

		if (c->state == BR_TT_STARTING) {
			t = now;
		} else if (c->state == BR_TT_WAITING && c->req_valid &&
			   c->req < BR_TT_NEVER) {
			t = c->req < now ? now : c->req;
		} else {
			continue;
		}
		if (best == -2 || t < best_t ||
		    (t == best_t && best >= 0 && c->id < tt->cl[best].id)) {
			best = (int)i;
			best_t = t;
		}
	}
	if (best == -1) {
		sim_run_until(tt->sim, best_t);
		tt->sim_steps++;
		return 1;
	}
	if (best >= 0)
		return tt->cl[best].state == BR_TT_STARTING ?
			start_client(tt, (unsigned)best) :
			run_client(tt, (unsigned)best, best_t);

	/* nothing to run */
	{
		bool anyone = false;

		for (unsigned i = 0; i < tt->ncl; i++)
			if (tt->cl[i].state == BR_TT_WAITING)
				anyone = true;
		if (anyone && !starting)
			return fail(tt, -EDEADLK,
				    "every client waits with no request and the simulator "
				    "has no event at %llu ns", (unsigned long long)now);
	}
	return wait_input(tt, -1, timeout_ms, NULL, 0, NULL);
}
