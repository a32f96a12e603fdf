/* SPDX-License-Identifier: MIT */
/*
 * plat_vhost.c - vhost-user back-end and split virtqueues (see plat_vhost.h).
 */
#include "plat/plat_vhost.h"

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

/* split ring layout (virtio 1.x, little endian) */
struct vring_desc_le {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

#define AVAIL_RING_OFF 4u               /* flags, idx, then ring[] */
#define USED_RING_OFF 4u                /* flags, idx, then {id, len}[] */

struct wire_vring_state {
	uint32_t index;
	uint32_t num;
};

struct wire_vring_addr {
	uint32_t index;
	uint32_t flags;
	uint64_t desc, used, avail, log;
};

struct wire_region {
	uint64_t gpa, size, uaddr, mmap_offset;
};

struct wire_config {
	uint32_t offset, size, flags;
};

#define MAX_FDS PLAT_VHOST_MAX_REGIONS

/* ----- errors ----- */

int plat_vhost_fail(struct plat_vhost *vh, int err, const char *fmt, ...)
{
	if (!vh->broken) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(vh->err, sizeof(vh->err), fmt, ap);
		va_end(ap);
		vh->broken = true;
		vh->status = err;
		if (!vh->quiet)
			fprintf(stderr, "plat_vhost: %s\n", vh->err);
	}
	return vh->status;
}

const char *plat_vhost_error(const struct plat_vhost *vh)
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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

/* Wait until @fd is ready for @events, at most until @deadline. */
static int wait_fd(int fd, short events, int64_t deadline)
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
	}
}

/*
 * write() to a pipe or socket whose reader may be gone, without dying of
 * SIGPIPE: the signal is blocked for this thread around the write and a
 * SIGPIPE it raised is consumed.
 */
static ssize_t write_nosig(int fd, const void *buf, size_t len)
{
	sigset_t pipe_set, old;
	ssize_t n;
	int saved;

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
static int write_all(struct plat_vhost *vh, int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int64_t deadline = now_ms() + vh->io_timeout_ms;

	while (len) {
		ssize_t n = write_nosig(fd, p, len);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int rc = wait_fd(fd, POLLOUT, deadline);

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
static int recv_full(struct plat_vhost *vh, void *buf, size_t len, int *fds,
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
				rc = wait_fd(vh->fd, POLLIN, deadline);
				if (rc == -ETIMEDOUT)
					return plat_vhost_fail(vh, -ETIMEDOUT,
						"message truncated: %zu of %zu bytes arrived within %d ms",
						got, len, vh->io_timeout_ms);
				if (rc)
					return plat_vhost_fail(vh, rc, "poll: %s",
							       strerror(-rc));
				continue;
			}
			return plat_vhost_fail(vh, -errno, "recvmsg: %s",
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
			return plat_vhost_fail(vh, -EPROTO,
				"too many file descriptors with one message (at most %d)",
				MAX_FDS);
		if (n == 0) {
			if (first && got == 0)
				return plat_vhost_fail(vh, -ECONNRESET,
					"front-end closed the connection");
			return plat_vhost_fail(vh, -ECONNRESET,
				"front-end closed the connection in the middle of a message");
		}
		got += (size_t)n;
	}
	return 0;
}

/* ----- memory table ----- */

static void unmap_regions(struct plat_vhost *vh)
{
	for (unsigned i = 0; i < vh->nreg; i++)
		if (vh->reg[i].map)
			munmap(vh->reg[i].map, vh->reg[i].map_len);
	memset(vh->reg, 0, sizeof(vh->reg));
	vh->nreg = 0;
}

uint8_t *plat_vhost_gpa_span(const struct plat_vhost *vh, uint64_t gpa,
			     uint64_t *avail)
{
	for (unsigned i = 0; i < vh->nreg; i++) {
		const struct plat_vhost_region *r = &vh->reg[i];

		if (gpa >= r->gpa && gpa - r->gpa < r->size) {
			*avail = r->size - (gpa - r->gpa);
			return r->base + (gpa - r->gpa);
		}
	}
	*avail = 0;
	return NULL;
}

uint8_t *plat_vhost_gpa(const struct plat_vhost *vh, uint64_t gpa,
			uint64_t len)
{
	uint64_t avail;
	uint8_t *p = plat_vhost_gpa_span(vh, gpa, &avail);

	if (!p || len > avail)
		return NULL;
	return p;
}

/* Front-end user address (ring addresses) to host address. */
static uint8_t *ua_to_host(const struct plat_vhost *vh, uint64_t ua,
			   uint64_t len)
{
	for (unsigned i = 0; i < vh->nreg; i++) {
		const struct plat_vhost_region *r = &vh->reg[i];

		if (ua >= r->uaddr && ua - r->uaddr < r->size &&
		    len <= r->size - (ua - r->uaddr))
			return r->base + (ua - r->uaddr);
	}
	return NULL;
}

static int gpa_check(const struct plat_vhost *vh, uint64_t gpa, uint64_t len)
{
	while (len) {
		uint64_t avail;

		if (!plat_vhost_gpa_span(vh, gpa, &avail))
			return -EFAULT;
		if (avail >= len)
			return 0;
		len -= avail;
		gpa += avail;
	}
	return 0;
}

int plat_vhost_gpa_read(const struct plat_vhost *vh, uint64_t gpa, void *buf,
			uint64_t len)
{
	uint8_t *d = buf;

	if (gpa_check(vh, gpa, len))
		return -EFAULT;
	while (len) {
		uint64_t avail;
		uint8_t *p = plat_vhost_gpa_span(vh, gpa, &avail);
		uint64_t n = avail < len ? avail : len;

		memcpy(d, p, n);
		d += n;
		gpa += n;
		len -= n;
	}
	return 0;
}

int plat_vhost_gpa_write(const struct plat_vhost *vh, uint64_t gpa,
			 const void *buf, uint64_t len)
{
	const uint8_t *s = buf;

	if (gpa_check(vh, gpa, len))
		return -EFAULT;
	while (len) {
		uint64_t avail;
		uint8_t *p = plat_vhost_gpa_span(vh, gpa, &avail);
		uint64_t n = avail < len ? avail : len;

		memcpy(p, s, n);
		s += n;
		gpa += n;
		len -= n;
	}
	return 0;
}

/* ----- connection state ----- */

static void reset_queues(struct plat_vhost *vh)
{
	for (unsigned q = 0; q < PLAT_VHOST_MAX_QUEUES; q++) {
		struct plat_vhost_vq *vq = &vh->vq[q];

		close_fd(&vq->kick_fd);
		close_fd(&vq->call_fd);
		close_fd(&vq->err_fd);
		memset(vq, 0, sizeof(*vq));
		vq->kick_fd = vq->call_fd = vq->err_fd = -1;
	}
}

static void disconnect(struct plat_vhost *vh)
{
	close_fd(&vh->fd);
	close_fd(&vh->req_fd);
	vh->rlen = 0;
	reset_queues(vh);
	unmap_regions(vh);
	vh->features = 0;
	vh->proto = 0;
	vh->owner = false;
}

void plat_vhost_init(struct plat_vhost *vh, unsigned nvq, uint64_t features,
		     uint64_t proto, plat_vhost_notify_fn notify, void *opaque)
{
	memset(vh, 0, sizeof(*vh));
	vh->listen_fd = vh->fd = vh->req_fd = -1;
	for (unsigned q = 0; q < PLAT_VHOST_MAX_QUEUES; q++)
		vh->vq[q].kick_fd = vh->vq[q].call_fd = vh->vq[q].err_fd = -1;
	vh->nvq = nvq > PLAT_VHOST_MAX_QUEUES ? PLAT_VHOST_MAX_QUEUES : nvq;
	vh->features_offered = features |
		(1ull << PLAT_VHOST_F_PROTOCOL_FEATURES);
	/* no event index: notifications are suppressed through the avail
	 * ring's NO_INTERRUPT flag only, so it is never offered */
	vh->features_offered &= ~(1ull << PLAT_VHOST_F_EVENT_IDX);
	vh->proto_offered = proto & ((1ull << PLAT_VHOST_PF_MQ) |
				     (1ull << PLAT_VHOST_PF_REPLY_ACK) |
				     (1ull << PLAT_VHOST_PF_SLAVE_REQ) |
				     (1ull << PLAT_VHOST_PF_CONFIG) |
				     (1ull << PLAT_VHOST_PF_INBAND_NOTIFICATIONS));
	vh->notify = notify;
	vh->opaque = opaque;
	vh->io_timeout_ms = 2000;
}

void plat_vhost_fini(struct plat_vhost *vh)
{
	disconnect(vh);
	close_fd(&vh->listen_fd);
	if (vh->path[0])
		unlink(vh->path);
	vh->path[0] = 0;
}

static void new_connection(struct plat_vhost *vh, int fd)
{
	disconnect(vh);
	vh->fd = fd;
	vh->broken = false;
	vh->status = 0;
	vh->err[0] = 0;
	vh->connections++;
}

int plat_vhost_listen(struct plat_vhost *vh, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 1) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close_fd(&vh->listen_fd);
	vh->listen_fd = fd;
	snprintf(vh->path, sizeof(vh->path), "%s", path);
	return 0;
}

int plat_vhost_attach(struct plat_vhost *vh, int fd)
{
	int rc = set_nonblock(fd);

	if (rc) {
		close(fd);
		return rc;
	}
	new_connection(vh, fd);
	return 0;
}

bool plat_vhost_connected(const struct plat_vhost *vh)
{
	return vh->fd >= 0;
}

/* ----- replies ----- */

static int send_reply(struct plat_vhost *vh, uint32_t request,
		      const void *payload, uint32_t size)
{
	uint8_t buf[sizeof(struct plat_vhost_hdr) + PLAT_VHOST_MAX_PAYLOAD];
	struct plat_vhost_hdr h = {
		.request = request,
		.flags = PLAT_VHOST_VERSION | PLAT_VHOST_FLAG_REPLY,
		.size = size,
	};
	int rc;

	if (size > PLAT_VHOST_MAX_PAYLOAD)
		return -EINVAL;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), payload, size);
	rc = write_all(vh, vh->fd, buf, sizeof(h) + size);
	if (rc)
		return plat_vhost_fail(vh, rc, "sending reply to request %u: %s",
				       request, strerror(-rc));
	vh->replies++;
	return 0;
}

static int reply_u64(struct plat_vhost *vh, uint32_t request, uint64_t v)
{
	v = htole64(v);
	return send_reply(vh, request, &v, sizeof(v));
}

/* ----- request handlers ----- */

static bool has_proto(const struct plat_vhost *vh, unsigned bit)
{
	return vh->proto & (1ull << bit);
}

static int expect_size(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
		       uint32_t size)
{
	if (h->size != size)
		return plat_vhost_fail(vh, -EPROTO,
			"request %u: payload of %u bytes, expected %u",
			h->request, h->size, size);
	return 0;
}

static int get_state(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
		     const uint8_t *pl, struct wire_vring_state *s)
{
	int rc = expect_size(vh, h, sizeof(*s));

	if (rc)
		return rc;
	memcpy(s, pl, sizeof(*s));
	s->index = le32toh(s->index);
	s->num = le32toh(s->num);
	if (s->index >= vh->nvq)
		return plat_vhost_fail(vh, -EINVAL,
			"request %u: vring index %u out of range (%u queues)",
			h->request, s->index, vh->nvq);
	return 0;
}

static int get_u64(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
		   const uint8_t *pl, uint64_t *v)
{
	int rc = expect_size(vh, h, sizeof(*v));

	if (rc)
		return rc;
	memcpy(v, pl, sizeof(*v));
	*v = le64toh(*v);
	return 0;
}

/* A SET_*FEATURES request: the front-end may accept only bits we offered. */
static int set_bits(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
		    const uint8_t *pl, const char *what, uint64_t offered,
		    uint64_t *dst)
{
	uint64_t v;
	int rc = get_u64(vh, h, pl, &v);

	if (rc)
		return rc;
	if (v & ~offered)
		return plat_vhost_fail(vh, -EINVAL, "%s 0x%llx has bits not offered (0x%llx)",
				       what, (unsigned long long)v,
				       (unsigned long long)offered);
	*dst = v;
	return 0;
}

static int set_mem_table(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
			 const uint8_t *pl, int *fds, unsigned nfds)
{
	struct plat_vhost_region nr[PLAT_VHOST_MAX_REGIONS];
	uint32_t num;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned i;

	memset(nr, 0, sizeof(nr));
	if (h->size < 8)
		return plat_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: payload of %u bytes", h->size);
	memcpy(&num, pl, sizeof(num));
	num = le32toh(num);
	if (num == 0 || num > PLAT_VHOST_MAX_REGIONS)
		return plat_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: %u regions (1..%d)", num,
			PLAT_VHOST_MAX_REGIONS);
	if (h->size < 8 + num * sizeof(struct wire_region))
		return plat_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: payload of %u bytes too short for %u regions",
			h->size, num);
	if (nfds != num)
		return plat_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: %u regions but %u file descriptors",
			num, nfds);
	for (i = 0; i < num; i++) {
		struct wire_region w;
		struct plat_vhost_region *r = &nr[i];
		uint64_t delta, off;

		memcpy(&w, pl + 8 + i * sizeof(w), sizeof(w));
		r->gpa = le64toh(w.gpa);
		r->size = le64toh(w.size);
		r->uaddr = le64toh(w.uaddr);
		r->mmap_offset = le64toh(w.mmap_offset);
		if (r->size == 0 || r->gpa + r->size < r->gpa ||
		    r->uaddr + r->size < r->uaddr ||
		    r->mmap_offset + r->size < r->mmap_offset ||
		    r->size > (uint64_t)SIZE_MAX / 2) {
			plat_vhost_fail(vh, -EINVAL,
				"SET_MEM_TABLE: region %u (gpa 0x%llx size 0x%llx) is invalid",
				i, (unsigned long long)r->gpa,
				(unsigned long long)r->size);
			goto fail;
		}
		for (unsigned j = 0; j < i; j++)
			if (r->gpa < nr[j].gpa + nr[j].size &&
			    nr[j].gpa < r->gpa + r->size) {
				plat_vhost_fail(vh, -EINVAL,
					"SET_MEM_TABLE: regions %u and %u overlap",
					j, i);
				goto fail;
			}
		delta = r->mmap_offset % (uint64_t)pg;
		off = r->mmap_offset - delta;
		r->map_len = (size_t)(r->size + delta);
		r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fds[i], (off_t)off);
		if (r->map == MAP_FAILED) {
			int e = errno;

			r->map = NULL;
			plat_vhost_fail(vh, -e,
				"SET_MEM_TABLE: mmap of region %u (size 0x%llx offset 0x%llx): %s",
				i, (unsigned long long)r->size,
				(unsigned long long)r->mmap_offset, strerror(e));
			goto fail;
		}
		r->base = (uint8_t *)r->map + delta;
	}
	unmap_regions(vh);
	memcpy(vh->reg, nr, sizeof(nr));
	vh->nreg = num;
	return 0;
fail:
	for (unsigned j = 0; j < num; j++)
		if (nr[j].map)
			munmap(nr[j].map, nr[j].map_len);
	return vh->status;
}

static int set_vring_fd(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
			const uint8_t *pl, int *fds, unsigned *nfds)
{
	uint64_t v;
	unsigned idx;
	struct plat_vhost_vq *vq;
	int rc = get_u64(vh, h, pl, &v), fd = -1;

	if (rc)
		return rc;
	idx = (unsigned)(v & PLAT_VHOST_VRING_INDEX_MASK);
	if (v & ~(uint64_t)(PLAT_VHOST_VRING_INDEX_MASK | PLAT_VHOST_VRING_NOFD))
		return plat_vhost_fail(vh, -EINVAL,
			"request %u: bad vring fd payload 0x%llx", h->request,
			(unsigned long long)v);
	if (idx >= vh->nvq)
		return plat_vhost_fail(vh, -EINVAL,
			"request %u: vring index %u out of range (%u queues)",
			h->request, idx, vh->nvq);
	if (!(v & PLAT_VHOST_VRING_NOFD)) {
		fd = fds[0];
		*nfds = 0;              /* taken */
		rc = set_nonblock(fd);
		if (rc) {
			close(fd);
			return plat_vhost_fail(vh, rc, "request %u: fd: %s",
					       h->request, strerror(-rc));
		}
	}
	vq = &vh->vq[idx];
	switch (h->request) {
	case PLAT_VHOST_SET_VRING_KICK:
		close_fd(&vq->kick_fd);
		vq->kick_fd = fd;
		/* a kick fd starts the ring: look at it once.  Without
		 * PROTOCOL_FEATURES there is no SET_VRING_ENABLE: the ring
		 * is enabled from here on (vhost-user spec, "Ring states") */
		if (!(vh->features & (1ull << PLAT_VHOST_F_PROTOCOL_FEATURES)))
			vq->enabled = true;
		vq->notify_pending = true;
		break;
	case PLAT_VHOST_SET_VRING_CALL:
		close_fd(&vq->call_fd);
		vq->call_fd = fd;
		break;
	default:
		close_fd(&vq->err_fd);
		vq->err_fd = fd;
		break;
	}
	return 0;
}

/* Expected number of fds with a request; -1 when it depends on payload
 * checked by the handler. */
static int fds_expected(const struct plat_vhost_hdr *h, const uint8_t *pl)
{
	switch (h->request) {
	case PLAT_VHOST_SET_MEM_TABLE: {
		uint32_t num = 0;

		if (h->size >= 4)
			memcpy(&num, pl, 4);
		return (int)le32toh(num);
	}
	case PLAT_VHOST_SET_VRING_KICK:
	case PLAT_VHOST_SET_VRING_CALL:
	case PLAT_VHOST_SET_VRING_ERR: {
		uint64_t v = 0;

		if (h->size == 8)
			memcpy(&v, pl, 8);
		return (le64toh(v) & PLAT_VHOST_VRING_NOFD) ? 0 : 1;
	}
	case PLAT_VHOST_SET_SLAVE_REQ_FD:
		return 1;
	default:
		return 0;
	}
}

/* Handle one request.  Returns 0, or a negative errno after failing. */
static int handle(struct plat_vhost *vh, const struct plat_vhost_hdr *h,
		  const uint8_t *pl, int *fds, unsigned *nfds)
{
	struct wire_vring_state s;
	bool replied = false;
	int rc = 0;
	int want = fds_expected(h, pl);

	if ((unsigned)want != *nfds && h->request != PLAT_VHOST_SET_MEM_TABLE)
		return plat_vhost_fail(vh, -EPROTO,
			"request %u: %u file descriptors, expected %d",
			h->request, *nfds, want);

	switch (h->request) {
	case PLAT_VHOST_GET_FEATURES:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = reply_u64(vh, h->request, vh->features_offered);
		replied = true;
		break;
	case PLAT_VHOST_SET_FEATURES:
		rc = set_bits(vh, h, pl, "SET_FEATURES", vh->features_offered,
			      &vh->features);
		break;
	case PLAT_VHOST_SET_OWNER:
		rc = expect_size(vh, h, 0);
		vh->owner = true;
		break;
	case PLAT_VHOST_RESET_OWNER:
		rc = expect_size(vh, h, 0);
		reset_queues(vh);
		vh->owner = false;
		break;
	case PLAT_VHOST_SET_MEM_TABLE:
		rc = set_mem_table(vh, h, pl, fds, *nfds);
		break;
	case PLAT_VHOST_SET_VRING_NUM:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num == 0 || s.num > PLAT_VHOST_MAX_QSIZE ||
		    (s.num & (s.num - 1))) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_NUM: queue %u size %u is not a power of 2 in 1..%d",
				s.index, s.num, PLAT_VHOST_MAX_QSIZE);
			break;
		}
		vh->vq[s.index].num = s.num;
		break;
	case PLAT_VHOST_SET_VRING_ADDR: {
		struct wire_vring_addr a;
		struct plat_vhost_vq *vq;

		if ((rc = expect_size(vh, h, sizeof(a))))
			break;
		memcpy(&a, pl, sizeof(a));
		a.index = le32toh(a.index);
		if (a.index >= vh->nvq) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_ADDR: vring index %u out of range",
				a.index);
			break;
		}
		if (le32toh(a.flags) != 0) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_ADDR: flags 0x%x (logging is not supported)",
				le32toh(a.flags));
			break;
		}
		vq = &vh->vq[a.index];
		vq->desc_ua = le64toh(a.desc);
		vq->used_ua = le64toh(a.used);
		vq->avail_ua = le64toh(a.avail);
		if ((vq->desc_ua & 15) || (vq->avail_ua & 1) ||
		    (vq->used_ua & 3)) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_ADDR: queue %u rings misaligned", a.index);
			break;
		}
		vq->addr_set = true;
		break;
	}
	case PLAT_VHOST_SET_VRING_BASE:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num > 0xffff) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_BASE: base %u > 65535", s.num);
			break;
		}
		vh->vq[s.index].last_avail = (uint16_t)s.num;
		vh->vq[s.index].used_idx = (uint16_t)s.num;
		break;
	case PLAT_VHOST_GET_VRING_BASE: {
		struct plat_vhost_vq *vq;
		struct wire_vring_state r;

		if ((rc = get_state(vh, h, pl, &s)))
			break;
		vq = &vh->vq[s.index];
		vq->enabled = false;    /* the ring stops */
		close_fd(&vq->kick_fd);
		r.index = htole32(s.index);
		r.num = htole32(vq->last_avail);
		rc = send_reply(vh, h->request, &r, sizeof(r));
		replied = true;
		break;
	}
	case PLAT_VHOST_SET_VRING_KICK:
	case PLAT_VHOST_SET_VRING_CALL:
	case PLAT_VHOST_SET_VRING_ERR:
		rc = set_vring_fd(vh, h, pl, fds, nfds);
		break;
	case PLAT_VHOST_GET_PROTOCOL_FEATURES:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = reply_u64(vh, h->request, vh->proto_offered);
		replied = true;
		break;
	case PLAT_VHOST_SET_PROTOCOL_FEATURES:
		rc = set_bits(vh, h, pl, "SET_PROTOCOL_FEATURES", vh->proto_offered,
			      &vh->proto);
		break;
	case PLAT_VHOST_GET_QUEUE_NUM:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = reply_u64(vh, h->request, vh->nvq);
		replied = true;
		break;
	case PLAT_VHOST_SET_VRING_ENABLE:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num > 1) {
			rc = plat_vhost_fail(vh, -EINVAL,
				"SET_VRING_ENABLE: value %u", s.num);
			break;
		}
		vh->vq[s.index].enabled = s.num;
		if (s.num)
			vh->vq[s.index].notify_pending = true;
		break;
	case PLAT_VHOST_SET_SLAVE_REQ_FD:
		if ((rc = expect_size(vh, h, 0)))
			break;
		close_fd(&vh->req_fd);
		vh->req_fd = fds[0];
		*nfds = 0;
		rc = set_nonblock(vh->req_fd);
		if (rc)
			rc = plat_vhost_fail(vh, rc, "SET_SLAVE_REQ_FD: %s",
					     strerror(-rc));
		break;
	case PLAT_VHOST_GET_CONFIG: {
		struct wire_config c;
		uint8_t out[PLAT_VHOST_MAX_PAYLOAD];

		if (h->size < sizeof(c)) {
			rc = plat_vhost_fail(vh, -EPROTO,
				"GET_CONFIG: payload of %u bytes", h->size);
			break;
		}
		memcpy(&c, pl, sizeof(c));
		if (le32toh(c.size) != h->size - sizeof(c)) {
			rc = plat_vhost_fail(vh, -EPROTO,
				"GET_CONFIG: config size %u in a payload of %u bytes",
				le32toh(c.size), h->size);
			break;
		}
		/* no device-specific config space: zeros */
		memset(out, 0, h->size);
		memcpy(out, &c, sizeof(c));
		rc = send_reply(vh, h->request, out, h->size);
		replied = true;
		break;
	}
	case PLAT_VHOST_SET_CONFIG:
		if (h->size < sizeof(struct wire_config))
			rc = plat_vhost_fail(vh, -EPROTO,
				"SET_CONFIG: payload of %u bytes", h->size);
		break;
	case PLAT_VHOST_VRING_KICK:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (!has_proto(vh, PLAT_VHOST_PF_INBAND_NOTIFICATIONS)) {
			rc = plat_vhost_fail(vh, -EPROTO,
				"VRING_KICK without INBAND_NOTIFICATIONS negotiated");
			break;
		}
		vh->vq[s.index].kicks++;
		/* serve the queue before the ack, so a front-end waiting for
		 * the ack finds the used ring already updated */
		if (vh->notify && plat_vhost_queue_ready(vh, s.index))
			vh->notify(vh->opaque, vh, s.index);
		if (vh->broken)
			rc = vh->status;
		break;
	default:
		rc = plat_vhost_fail(vh, -EOPNOTSUPP,
			"unsupported request %u (payload %u bytes)",
			h->request, h->size);
		break;
	}

	if ((h->flags & PLAT_VHOST_FLAG_NEED_REPLY) && !replied &&
	    has_proto(vh, PLAT_VHOST_PF_REPLY_ACK) && vh->fd >= 0) {
		/* the status of a failed request goes out before the close */
		int arc = reply_u64(vh, h->request, rc ? 1 : 0);

		if (!rc)
			rc = arc;
	}
	return rc;
}

/* Receive and handle one message.  1 if handled, 0 if none, <0 error. */
static int handle_one_message(struct plat_vhost *vh)
{
	struct plat_vhost_hdr h;
	uint8_t pl[PLAT_VHOST_MAX_PAYLOAD];
	int fds[MAX_FDS];
	unsigned nfds = 0;
	int rc;

	rc = recv_full(vh, &h, sizeof(h), fds, &nfds, true);
	if (rc == 1)
		return 0;
	if (rc)
		goto out;
	h.request = le32toh(h.request);
	h.flags = le32toh(h.flags);
	h.size = le32toh(h.size);
	vh->msgs++;
	if ((h.flags & PLAT_VHOST_VERSION_MASK) != PLAT_VHOST_VERSION ||
	    (h.flags & ~(PLAT_VHOST_VERSION_MASK | PLAT_VHOST_FLAG_NEED_REPLY))) {
		rc = plat_vhost_fail(vh, -EPROTO,
			"bad message header: request %u flags 0x%x size %u (version 1, no reply bit expected)",
			h.request, h.flags, h.size);
		goto out;
	}
	if (h.size > PLAT_VHOST_MAX_PAYLOAD) {
		rc = plat_vhost_fail(vh, -EMSGSIZE,
			"oversize message: request %u with a payload of %u bytes (at most %d)",
			h.request, h.size, PLAT_VHOST_MAX_PAYLOAD);
		goto out;
	}
	if (h.size) {
		rc = recv_full(vh, pl, h.size, fds, &nfds, false);
		if (rc)
			goto out;
	}
	rc = handle(vh, &h, pl, fds, &nfds);
	if (rc == 0)
		rc = 1;
out:
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	return rc;
}

/* ----- queues ----- */

bool plat_vhost_queue_ready(const struct plat_vhost *vh, unsigned q)
{
	const struct plat_vhost_vq *vq;

	if (q >= vh->nvq || vh->broken || vh->fd < 0)
		return false;
	vq = &vh->vq[q];
	return vq->num && vq->addr_set && vq->enabled;
}

struct rings {
	uint8_t *desc;
	uint16_t *avail_flags, *avail_idx, *avail_ring;
	uint16_t *used_idx;
	uint8_t *used_ring;
};

static int map_rings(struct plat_vhost *vh, unsigned q, struct rings *r)
{
	struct plat_vhost_vq *vq = &vh->vq[q];
	uint8_t *a, *u;

	r->desc = ua_to_host(vh, vq->desc_ua, 16ull * vq->num);
	a = ua_to_host(vh, vq->avail_ua, AVAIL_RING_OFF + 2ull * vq->num + 2);
	u = ua_to_host(vh, vq->used_ua, USED_RING_OFF + 8ull * vq->num + 2);
	if (!r->desc || !a || !u)
		return plat_vhost_fail(vh, -EFAULT,
			"queue %u: ring outside the memory table (desc 0x%llx avail 0x%llx used 0x%llx, size %u)",
			q, (unsigned long long)vq->desc_ua,
			(unsigned long long)vq->avail_ua,
			(unsigned long long)vq->used_ua, vq->num);
	if (((uintptr_t)a & 1) || ((uintptr_t)u & 3))
		return plat_vhost_fail(vh, -EFAULT,
			"queue %u: ring misaligned in the host mapping", q);
	r->avail_flags = (uint16_t *)a;
	r->avail_idx = (uint16_t *)(a + 2);
	r->avail_ring = (uint16_t *)(a + AVAIL_RING_OFF);
	r->used_idx = (uint16_t *)(u + 2);
	r->used_ring = u + USED_RING_OFF;
	return 0;
}

static int add_seg(struct plat_vhost *vh, unsigned q,
		   struct plat_vhost_chain *c, const struct vring_desc_le *d)
{
	uint64_t addr = le64toh(d->addr);
	uint32_t len = le32toh(d->len);
	bool wr = le16toh(d->flags) & PLAT_VRING_DESC_F_WRITE;
	uint8_t *p;

	if (!wr && c->nin)
		return plat_vhost_fail(vh, -EINVAL,
			"queue %u chain %u: device-readable buffer after a writable one",
			q, c->head);
	if (len == 0)
		return 0;
	p = plat_vhost_gpa(vh, addr, len);
	if (!p)
		return plat_vhost_fail(vh, -EFAULT,
			"queue %u chain %u: buffer 0x%llx+%u outside the memory table",
			q, c->head, (unsigned long long)addr, len);
	if (wr) {
		if (c->nin == PLAT_VHOST_MAX_SEGS)
			goto too_many;
		c->in[c->nin].p = p;
		c->in[c->nin++].len = len;
		c->in_len += len;
	} else {
		if (c->nout == PLAT_VHOST_MAX_SEGS)
			goto too_many;
		c->out[c->nout].p = p;
		c->out[c->nout++].len = len;
		c->out_len += len;
	}
	return 0;
too_many:
	return plat_vhost_fail(vh, -E2BIG,
		"queue %u chain %u: more than %d buffers in one direction",
		q, c->head, PLAT_VHOST_MAX_SEGS);
}

int plat_vhost_pop(struct plat_vhost *vh, unsigned q,
		   struct plat_vhost_chain *c)
{
	struct plat_vhost_vq *vq;
	struct rings r;
	uint16_t avail, head;
	const uint8_t *table;
	unsigned table_n, i, steps = 0;
	bool indirect = false;
	int rc;

	if (vh->broken)
		return vh->status;
	if (!plat_vhost_queue_ready(vh, q))
		return 0;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	avail = le16toh(__atomic_load_n(r.avail_idx, __ATOMIC_ACQUIRE));
	if ((uint16_t)(avail - vq->last_avail) > vq->num)
		return plat_vhost_fail(vh, -EINVAL,
			"queue %u: avail index %u is more than %u ahead of %u",
			q, avail, vq->num, vq->last_avail);
	if (avail == vq->last_avail)
		return 0;
	head = le16toh(__atomic_load_n(&r.avail_ring[vq->last_avail % vq->num],
				       __ATOMIC_RELAXED));
	if (head >= vq->num)
		return plat_vhost_fail(vh, -EINVAL,
			"queue %u: avail entry %u names descriptor %u (ring size %u)",
			q, vq->last_avail, head, vq->num);
	vq->last_avail++;

	c->head = head;
	c->nout = c->nin = 0;
	c->out_len = c->in_len = 0;
	table = r.desc;
	table_n = vq->num;
	i = head;
	for (;;) {
		struct vring_desc_le d;
		uint16_t flags;

		if (++steps > table_n)
			return plat_vhost_fail(vh, -ELOOP,
				"queue %u chain %u: descriptor loop (more than %u descriptors)",
				q, head, table_n);
		memcpy(&d, table + 16u * i, sizeof(d));
		flags = le16toh(d.flags);
		if (flags & PLAT_VRING_DESC_F_INDIRECT) {
			uint64_t addr = le64toh(d.addr);
			uint32_t len = le32toh(d.len);

			if (!(vh->features & (1ull << PLAT_VHOST_F_INDIRECT_DESC)))
				return plat_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect descriptor without INDIRECT_DESC",
					q, head);
			if (indirect)
				return plat_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: nested indirect descriptor",
					q, head);
			if (flags & PLAT_VRING_DESC_F_NEXT)
				return plat_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect descriptor with NEXT",
					q, head);
			if (len == 0 || len % 16 || len / 16 > PLAT_VHOST_MAX_QSIZE)
				return plat_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect table of %u bytes",
					q, head, len);
			table = plat_vhost_gpa(vh, addr, len);
			if (!table)
				return plat_vhost_fail(vh, -EFAULT,
					"queue %u chain %u: indirect table 0x%llx+%u outside the memory table",
					q, head, (unsigned long long)addr, len);
			table_n = len / 16;
			indirect = true;
			i = 0;
			steps = 0;
			continue;
		}
		if ((rc = add_seg(vh, q, c, &d)))
			return rc;
		if (!(flags & PLAT_VRING_DESC_F_NEXT))
			break;
		i = le16toh(d.next);
		if (i >= table_n)
			return plat_vhost_fail(vh, -EINVAL,
				"queue %u chain %u: next index %u out of range (%u)",
				q, head, i, table_n);
	}
	vq->chains++;
	return 1;
}

int plat_vhost_push(struct plat_vhost *vh, unsigned q,
		    const struct plat_vhost_chain *c, uint32_t written)
{
	struct plat_vhost_vq *vq;
	struct rings r;
	uint32_t elem[2];
	int rc;

	if (vh->broken)
		return vh->status;
	if (!plat_vhost_queue_ready(vh, q))
		return -ENOTCONN;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	if (written > c->in_len)
		written = (uint32_t)c->in_len;
	elem[0] = htole32(c->head);
	elem[1] = htole32(written);
	memcpy(r.used_ring + 8u * (vq->used_idx % vq->num), elem, sizeof(elem));
	vq->used_idx++;
	__atomic_store_n(r.used_idx, htole16(vq->used_idx), __ATOMIC_RELEASE);
	return 0;
}

int plat_vhost_call(struct plat_vhost *vh, unsigned q)
{
	struct plat_vhost_vq *vq;
	struct rings r;
	int rc;

	if (vh->broken)
		return vh->status;
	if (!plat_vhost_queue_ready(vh, q))
		return -ENOTCONN;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (le16toh(__atomic_load_n(r.avail_flags, __ATOMIC_RELAXED)) &
	    PLAT_VRING_AVAIL_F_NO_INTERRUPT)
		return 0;
	vq->calls++;
	if (vq->call_fd >= 0) {
		uint64_t one = 1;
		ssize_t n = write_nosig(vq->call_fd, &one, sizeof(one));

		/* a full pipe already holds a wakeup */
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return plat_vhost_fail(vh, -errno,
				"queue %u: call fd: %s", q, strerror(errno));
		return 0;
	}
	if (vh->req_fd >= 0 && has_proto(vh, PLAT_VHOST_PF_INBAND_NOTIFICATIONS) &&
	    has_proto(vh, PLAT_VHOST_PF_SLAVE_REQ)) {
		if (vh->call_hook) {
			vh->call_hook(vh->call_opaque, vh, q);
			return 0;
		}
		return plat_vhost_send_call(vh, q, false);
	}
	return 0;                       /* front-end polls */
}

int plat_vhost_send_call(struct plat_vhost *vh, unsigned q, bool need_reply)
{
	struct {
		struct plat_vhost_hdr h;
		struct wire_vring_state s;
	} __attribute__((packed)) m = {
		.h = { htole32(PLAT_VHOST_SLAVE_VRING_CALL),
		       htole32(PLAT_VHOST_VERSION |
			       (need_reply ? PLAT_VHOST_FLAG_NEED_REPLY : 0)),
		       htole32(sizeof(struct wire_vring_state)) },
		.s = { htole32(q), 0 },
	};
	int rc;

	if (vh->broken)
		return vh->status;
	if (vh->req_fd < 0 || !has_proto(vh, PLAT_VHOST_PF_INBAND_NOTIFICATIONS) ||
	    !has_proto(vh, PLAT_VHOST_PF_SLAVE_REQ))
		return -ENOTCONN;
	rc = write_all(vh, vh->req_fd, &m, sizeof(m));
	if (rc)
		return plat_vhost_fail(vh, rc, "queue %u: in-band call: %s", q,
				       strerror(-rc));
	return 0;
}

int plat_vhost_call_reply(struct plat_vhost *vh)
{
	const unsigned want = sizeof(struct plat_vhost_hdr) + 8;
	struct plat_vhost_hdr h;
	uint64_t st;
	ssize_t n;

	if (vh->broken)
		return vh->status;
	if (vh->req_fd < 0)
		return -ENOTCONN;
	n = recv(vh->req_fd, vh->rbuf + vh->rlen, want - vh->rlen, MSG_DONTWAIT);
	if (n == 0)
		return plat_vhost_fail(vh, -ECONNRESET,
			"back-end request channel closed while a call waited for its reply");
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		return plat_vhost_fail(vh, -errno, "call reply: %s", strerror(errno));
	}
	vh->rlen += (unsigned)n;
	if (vh->rlen < want)
		return 0;
	vh->rlen = 0;
	memcpy(&h, vh->rbuf, sizeof(h));
	memcpy(&st, vh->rbuf + sizeof(h), 8);
	if (le32toh(h.request) != PLAT_VHOST_SLAVE_VRING_CALL ||
	    (le32toh(h.flags) & ~PLAT_VHOST_VERSION_MASK) != PLAT_VHOST_FLAG_REPLY ||
	    (le32toh(h.flags) & PLAT_VHOST_VERSION_MASK) != PLAT_VHOST_VERSION ||
	    le32toh(h.size) != 8)
		return plat_vhost_fail(vh, -EPROTO,
			"bad call reply: request %u flags 0x%x size %u",
			le32toh(h.request), le32toh(h.flags), le32toh(h.size));
	if (le64toh(st))
		return plat_vhost_fail(vh, -EIO,
			"the front-end refused a call (status %llu)",
			(unsigned long long)le64toh(st));
	vh->call_replies++;
	return 1;
}

size_t plat_vhost_chain_read(const struct plat_vhost_chain *c, size_t off,
			     void *buf, size_t len)
{
	uint8_t *d = buf;
	size_t done = 0;

	for (unsigned i = 0; i < c->nout && done < len; i++) {
		const struct plat_vhost_seg *s = &c->out[i];
		size_t n;

		if (off >= s->len) {
			off -= s->len;
			continue;
		}
		n = s->len - off;
		if (n > len - done)
			n = len - done;
		memcpy(d + done, s->p + off, n);
		done += n;
		off = 0;
	}
	return done;
}

size_t plat_vhost_chain_write(const struct plat_vhost_chain *c, size_t off,
			      const void *buf, size_t len)
{
	const uint8_t *s8 = buf;
	size_t done = 0;

	for (unsigned i = 0; i < c->nin && done < len; i++) {
		const struct plat_vhost_seg *s = &c->in[i];
		size_t n;

		if (off >= s->len) {
			off -= s->len;
			continue;
		}
		n = s->len - off;
		if (n > len - done)
			n = len - done;
		memcpy(s->p + off, s8 + done, n);
		done += n;
		off = 0;
	}
	return done;
}

/* ----- the loop ----- */

static int drain_kick(struct plat_vhost *vh, unsigned q)
{
	struct plat_vhost_vq *vq = &vh->vq[q];
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
			close_fd(&vq->kick_fd);
			break;
		}
		return plat_vhost_fail(vh, -errno, "queue %u: kick fd: %s", q,
				       strerror(errno));
	}
	if (any)
		vq->kicks++;
	return any;
}

static int run_pending(struct plat_vhost *vh)
{
	int n = 0;

	for (unsigned q = 0; q < vh->nvq && !vh->broken; q++) {
		struct plat_vhost_vq *vq = &vh->vq[q];

		if (!vq->notify_pending)
			continue;
		vq->notify_pending = false;
		if (vh->notify && plat_vhost_queue_ready(vh, q)) {
			vh->notify(vh->opaque, vh, q);
			n++;
		}
	}
	return n;
}

/* One pass over the fds with @timeout_ms; number of events or -errno. */
/* The descriptors to wait on and, in @who, what each is: -2 the listening
 * socket, -1 the connection, q >= 0 queue q's kick eventfd. */
static unsigned wait_set(const struct plat_vhost *vh, struct pollfd *p, int *who)
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

unsigned plat_vhost_pollfds(const struct plat_vhost *vh, struct pollfd *p,
			    unsigned max)
{
	struct pollfd all[PLAT_VHOST_POLLFDS];
	int who[PLAT_VHOST_POLLFDS];
	unsigned n = vh->broken ? 0 : wait_set(vh, all, who);

	if (n > max)
		n = max;
	memcpy(p, all, n * sizeof(*p));
	return n;
}

static int poll_once(struct plat_vhost *vh, int timeout_ms)
{
	struct pollfd p[PLAT_VHOST_POLLFDS];
	int who[PLAT_VHOST_POLLFDS];
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
				new_connection(vh, fd);
				events++;
			}
		} else if (who[i] == -1) {
			/* all complete messages queued now */
			for (int k = 0; k < 4096; k++) {
				rc = handle_one_message(vh);
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
static int finish(struct plat_vhost *vh, int rc)
{
	if (vh->broken) {
		/* err and status stay for plat_vhost_error() */
		disconnect(vh);
		vh->broken = false;
		return vh->status;
	}
	return rc;
}

int plat_vhost_poll(struct plat_vhost *vh)
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

int plat_vhost_run(struct plat_vhost *vh, int timeout_ms)
{
	int rc;

	if (vh->broken)
		return finish(vh, 0);
	rc = poll_once(vh, timeout_ms);
	if (rc <= 0)
		return finish(vh, rc);
	int more = plat_vhost_poll(vh);

	return more < 0 ? more : rc + more;
}
