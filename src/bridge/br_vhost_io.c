/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_io.c - vhost-user back-end: socket I/O: errors, bounded waits, whole-message reads and writes with file descriptors
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

/* ----- errors ----- */

int br_vhost_fail(struct br_vhost *vh, int err, const char *fmt, ...)
{
	if (!vh->broken) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(vh->err, sizeof(vh->err), fmt, ap);
		va_end(ap);
		vh->broken = true;
		vh->status = err;
		if (!vh->quiet)
			fprintf(stderr, "br_vhost: %s\n", vh->err);
	}
	return vh->status;
}

const char *br_vhost_error(const struct br_vhost *vh)
{
	return vh->err;
}

/* ----- time and fds ----- */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void brv_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int brv_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

/* Wait until @fd is ready for @events, at most until @deadline, or until
 * a signal arrives while the owner's stop flag is set (-EINTR). */
static int wait_fd(const struct br_vhost *vh, int fd, short events,
		   int64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline - now_ms();
		int rc;

		if (left < 0)
			left = 0;
		rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 0;
		if (rc == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
		if (vh->stop && *vh->stop)
			return -EINTR;
	}
}

/*
 * write() to a pipe or socket whose reader may be gone, without dying of
 * SIGPIPE: the signal is blocked for this thread around the write and a
 * SIGPIPE it raised is consumed.
 */
ssize_t brv_write_nosig(int fd, const void *buf, size_t len)
{
	sigset_t pipe_set, old;
	ssize_t n;
	int saved;

	/* a socket (the connection, UML's back-end channel): no signal */
	n = send(fd, buf, len, MSG_NOSIGNAL);
	if (n >= 0 || errno != ENOTSOCK)
		return n;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	n = write(fd, buf, len);
	saved = errno;
	if (n < 0 && saved == EPIPE) {
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
			;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return n;
}

/* Write all of @buf within the I/O timeout. */
int brv_write_all(struct br_vhost *vh, int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int64_t deadline = now_ms() + vh->io_timeout_ms;

	while (len) {
		ssize_t n = brv_write_nosig(fd, p, len);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int rc = wait_fd(vh, fd, POLLOUT, deadline);

			if (rc)
				return rc;
			continue;
		}
		return n < 0 ? -errno : -EIO;
	}
	return 0;
}

/*
 * Read exactly @len bytes (collecting SCM_RIGHTS fds into @fds/@nfds).
 * @first: a read of the first byte of a message, which may find nothing
 * (returns 1 then); later bytes are waited for up to the I/O timeout.
 */
int brv_recv_full(struct br_vhost *vh, void *buf, size_t len, int *fds,
		     unsigned *nfds, bool first)
{
	uint8_t *p = buf;
	size_t got = 0;
	int64_t deadline = now_ms() + vh->io_timeout_ms;

	while (got < len) {
		union {
			char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
			struct cmsghdr align;
		} ctl;
		struct iovec iov = { .iov_base = p + got, .iov_len = len - got };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		ssize_t n = recvmsg(vh->fd, &mh, MSG_CMSG_CLOEXEC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				int rc;

				if (first && got == 0)
					return 1;
				rc = wait_fd(vh, vh->fd, POLLIN, deadline);
				if (rc == -EINTR)
					return br_vhost_fail(vh, -EINTR,
						"stopped by a signal with %zu of %zu bytes of a message read",
						got, len);
				if (rc == -ETIMEDOUT)
					return br_vhost_fail(vh, -ETIMEDOUT,
						"message truncated: %zu of %zu bytes arrived within %d ms",
						got, len, vh->io_timeout_ms);
				if (rc)
					return br_vhost_fail(vh, rc, "poll: %s",
							       strerror(-rc));
				continue;
			}
			return br_vhost_fail(vh, -errno, "recvmsg: %s",
					       strerror(errno));
		}
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
		     cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level != SOL_SOCKET ||
			    cm->cmsg_type != SCM_RIGHTS)
				continue;
			size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < k; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
				       sizeof(int));
				if (*nfds < MAX_FDS)
					fds[(*nfds)++] = fd;
				else
					close(fd);
			}
		}
		if (mh.msg_flags & MSG_CTRUNC)
			return br_vhost_fail(vh, -EPROTO,
				"too many file descriptors with one message (at most %d)",
				MAX_FDS);
		if (n == 0) {
			if (first && got == 0)
				return br_vhost_fail(vh, -ECONNRESET,
					"front-end closed the connection");
			return br_vhost_fail(vh, -ECONNABORTED,
				"front-end closed the connection in the middle of a message (%zu of %zu bytes)",
				got, len);
		}
		got += (size_t)n;
	}
	return 0;
}
