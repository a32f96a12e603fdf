/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_msg.c - vhost-user back-end: the front-end request handlers
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

/* ----- request handlers ----- */

static int expect_size(struct br_vhost *vh, const struct br_vhost_hdr *h,
		       uint32_t size)
{
	if (h->size != size)
		return br_vhost_fail(vh, -EPROTO,
			"request %u: payload of %u bytes, expected %u",
			h->request, h->size, size);
	return 0;
}

static int get_state(struct br_vhost *vh, const struct br_vhost_hdr *h,
		     const uint8_t *pl, struct wire_vring_state *s)
{
	int rc = expect_size(vh, h, sizeof(*s));

	if (rc)
		return rc;
	memcpy(s, pl, sizeof(*s));
	s->index = le32toh(s->index);
	s->num = le32toh(s->num);
	if (s->index >= vh->nvq)
		return br_vhost_fail(vh, -EINVAL,
			"request %u: vring index %u out of range (%u queues)",
			h->request, s->index, vh->nvq);
	return 0;
}

static int get_u64(struct br_vhost *vh, const struct br_vhost_hdr *h,
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
static int set_bits(struct br_vhost *vh, const struct br_vhost_hdr *h,
		    const uint8_t *pl, const char *what, uint64_t offered,
		    uint64_t *dst)
{
	uint64_t v;
	int rc = get_u64(vh, h, pl, &v);

	if (rc)
		return rc;
	if (v & ~offered)
		return br_vhost_fail(vh, -EINVAL, "%s 0x%llx has bits not offered (0x%llx)",
				       what, (unsigned long long)v,
				       (unsigned long long)offered);
	*dst = v;
	return 0;
}

static int set_mem_table(struct br_vhost *vh, const struct br_vhost_hdr *h,
			 const uint8_t *pl, int *fds, unsigned nfds)
{
	struct br_vhost_region nr[BR_VHOST_MAX_REGIONS];
	uint32_t num;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned i;

	memset(nr, 0, sizeof(nr));
	if (h->size < 8)
		return br_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: payload of %u bytes", h->size);
	memcpy(&num, pl, sizeof(num));
	num = le32toh(num);
	if (num == 0 || num > BR_VHOST_MAX_REGIONS)
		return br_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: %u regions (1..%d)", num,
			BR_VHOST_MAX_REGIONS);
	if (h->size < 8 + num * sizeof(struct wire_region))
		return br_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: payload of %u bytes too short for %u regions",
			h->size, num);
	if (nfds != num)
		return br_vhost_fail(vh, -EPROTO,
			"SET_MEM_TABLE: %u regions but %u file descriptors",
			num, nfds);
	for (i = 0; i < num; i++) {
		struct wire_region w;
		struct br_vhost_region *r = &nr[i];
		uint64_t delta, off;
		struct stat st;

		memcpy(&w, pl + 8 + i * sizeof(w), sizeof(w));
		r->gpa = le64toh(w.gpa);
		r->size = le64toh(w.size);
		r->uaddr = le64toh(w.uaddr);
		r->mmap_offset = le64toh(w.mmap_offset);
		if (r->size == 0 || r->gpa + r->size < r->gpa ||
		    r->uaddr + r->size < r->uaddr ||
		    r->mmap_offset + r->size < r->mmap_offset ||
		    r->size > (uint64_t)SIZE_MAX / 2) {
			br_vhost_fail(vh, -EINVAL,
				"SET_MEM_TABLE: region %u (gpa 0x%llx size 0x%llx) is invalid",
				i, (unsigned long long)r->gpa,
				(unsigned long long)r->size);
			goto fail;
		}
		for (unsigned j = 0; j < i; j++)
			if (r->gpa < nr[j].gpa + nr[j].size &&
			    nr[j].gpa < r->gpa + r->size) {
				br_vhost_fail(vh, -EINVAL,
					"SET_MEM_TABLE: regions %u and %u overlap",
					j, i);
				goto fail;
			}
		/* a mapping past the end of the file would fault (SIGBUS) at
		 * the first ring or DMA access there */
		if (fstat(fds[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    (r->mmap_offset > (uint64_t)st.st_size ||
		     r->size > (uint64_t)st.st_size - r->mmap_offset)) {
			br_vhost_fail(vh, -EINVAL,
				"SET_MEM_TABLE: region %u (offset 0x%llx size 0x%llx) goes past the end of its file (0x%llx bytes)",
				i, (unsigned long long)r->mmap_offset,
				(unsigned long long)r->size,
				(unsigned long long)st.st_size);
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
			br_vhost_fail(vh, -e,
				"SET_MEM_TABLE: mmap of region %u (size 0x%llx offset 0x%llx): %s",
				i, (unsigned long long)r->size,
				(unsigned long long)r->mmap_offset, strerror(e));
			goto fail;
		}
		r->base = (uint8_t *)r->map + delta;
	}
	brv_unmap_regions(vh);
	memcpy(vh->reg, nr, sizeof(nr));
	vh->nreg = num;
	return 0;
fail:
	for (unsigned j = 0; j < num; j++)
		if (nr[j].map)
			munmap(nr[j].map, nr[j].map_len);
	return vh->status;
}

static int set_vring_fd(struct br_vhost *vh, const struct br_vhost_hdr *h,
			const uint8_t *pl, int *fds, unsigned *nfds)
{
	uint64_t v;
	unsigned idx;
	struct br_vhost_vq *vq;
	int rc = get_u64(vh, h, pl, &v), fd = -1;

	if (rc)
		return rc;
	idx = (unsigned)(v & BR_VHOST_VRING_INDEX_MASK);
	if (v & ~(uint64_t)(BR_VHOST_VRING_INDEX_MASK | BR_VHOST_VRING_NOFD))
		return br_vhost_fail(vh, -EINVAL,
			"request %u: bad vring fd payload 0x%llx", h->request,
			(unsigned long long)v);
	if (idx >= vh->nvq)
		return br_vhost_fail(vh, -EINVAL,
			"request %u: vring index %u out of range (%u queues)",
			h->request, idx, vh->nvq);
	if (!(v & BR_VHOST_VRING_NOFD)) {
		fd = fds[0];
		*nfds = 0;              /* taken */
		rc = brv_set_nonblock(fd);
		if (rc) {
			close(fd);
			return br_vhost_fail(vh, rc, "request %u: fd: %s",
					       h->request, strerror(-rc));
		}
	}
	vq = &vh->vq[idx];
	switch (h->request) {
	case BR_VHOST_SET_VRING_KICK:
		brv_close_fd(&vq->kick_fd);
		vq->kick_fd = fd;
		/* a kick fd starts the ring: look at it once.  Without
		 * PROTOCOL_FEATURES there is no SET_VRING_ENABLE: the ring
		 * is enabled from here on (vhost-user spec, "Ring states") */
		if (!(vh->features & (1ull << BR_VHOST_F_PROTOCOL_FEATURES)))
			vq->enabled = true;
		vq->notify_pending = true;
		break;
	case BR_VHOST_SET_VRING_CALL:
		brv_close_fd(&vq->call_fd);
		vq->call_fd = fd;
		break;
	default:
		brv_close_fd(&vq->err_fd);
		vq->err_fd = fd;
		break;
	}
	return 0;
}

/* Expected number of fds with a request; -1 when it depends on payload
 * checked by the handler. */
static int fds_expected(const struct br_vhost_hdr *h, const uint8_t *pl)
{
	switch (h->request) {
	case BR_VHOST_SET_MEM_TABLE: {
		uint32_t num = 0;

		if (h->size >= 4)
			memcpy(&num, pl, 4);
		return (int)le32toh(num);
	}
	case BR_VHOST_SET_VRING_KICK:
	case BR_VHOST_SET_VRING_CALL:
	case BR_VHOST_SET_VRING_ERR: {
		uint64_t v = 0;

		if (h->size == 8)
			memcpy(&v, pl, 8);
		return (le64toh(v) & BR_VHOST_VRING_NOFD) ? 0 : 1;
	}
	case BR_VHOST_SET_SLAVE_REQ_FD:
		return 1;
	default:
		return 0;
	}
}

/* Handle one request.  Returns 0, or a negative errno after failing. */
static int handle(struct br_vhost *vh, const struct br_vhost_hdr *h,
		  const uint8_t *pl, int *fds, unsigned *nfds)
{
	struct wire_vring_state s;
	bool replied = false;
	int rc = 0;
	int want = fds_expected(h, pl);

	if ((unsigned)want != *nfds && h->request != BR_VHOST_SET_MEM_TABLE)
		return br_vhost_fail(vh, -EPROTO,
			"request %u: %u file descriptors, expected %d",
			h->request, *nfds, want);

	switch (h->request) {
	case BR_VHOST_GET_FEATURES:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = brv_reply_u64(vh, h->request, vh->features_offered);
		replied = true;
		break;
	case BR_VHOST_SET_FEATURES:
		rc = set_bits(vh, h, pl, "SET_FEATURES", vh->features_offered,
			      &vh->features);
		break;
	case BR_VHOST_SET_OWNER:
		rc = expect_size(vh, h, 0);
		vh->owner = true;
		break;
	case BR_VHOST_RESET_OWNER:
		rc = expect_size(vh, h, 0);
		brv_reset_queues(vh);
		vh->owner = false;
		break;
	case BR_VHOST_SET_MEM_TABLE:
		rc = set_mem_table(vh, h, pl, fds, *nfds);
		break;
	case BR_VHOST_SET_VRING_NUM:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num == 0 || s.num > BR_VHOST_MAX_QSIZE ||
		    (s.num & (s.num - 1))) {
			rc = br_vhost_fail(vh, -EINVAL,
				"SET_VRING_NUM: queue %u size %u is not a power of 2 in 1..%d",
				s.index, s.num, BR_VHOST_MAX_QSIZE);
			break;
		}
		vh->vq[s.index].num = s.num;
		break;
	case BR_VHOST_SET_VRING_ADDR: {
		struct wire_vring_addr a;
		struct br_vhost_vq *vq;

		if ((rc = expect_size(vh, h, sizeof(a))))
			break;
		memcpy(&a, pl, sizeof(a));
		a.index = le32toh(a.index);
		if (a.index >= vh->nvq) {
			rc = br_vhost_fail(vh, -EINVAL,
				"SET_VRING_ADDR: vring index %u out of range",
				a.index);
			break;
		}
		if (le32toh(a.flags) != 0) {
			rc = br_vhost_fail(vh, -EINVAL,
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
			rc = br_vhost_fail(vh, -EINVAL,
				"SET_VRING_ADDR: queue %u rings misaligned", a.index);
			break;
		}
		vq->addr_set = true;
		break;
	}
	case BR_VHOST_SET_VRING_BASE:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num > 0xffff) {
			rc = br_vhost_fail(vh, -EINVAL,
				"SET_VRING_BASE: base %u > 65535", s.num);
			break;
		}
		vh->vq[s.index].last_avail = (uint16_t)s.num;
		vh->vq[s.index].used_idx = (uint16_t)s.num;
		break;
	case BR_VHOST_GET_VRING_BASE: {
		struct br_vhost_vq *vq;
		struct wire_vring_state r;

		if ((rc = get_state(vh, h, pl, &s)))
			break;
		vq = &vh->vq[s.index];
		vq->enabled = false;    /* the ring stops */
		brv_close_fd(&vq->kick_fd);
		r.index = htole32(s.index);
		r.num = htole32(vq->last_avail);
		rc = brv_send_reply(vh, h->request, &r, sizeof(r));
		replied = true;
		break;
	}
	case BR_VHOST_SET_VRING_KICK:
	case BR_VHOST_SET_VRING_CALL:
	case BR_VHOST_SET_VRING_ERR:
		rc = set_vring_fd(vh, h, pl, fds, nfds);
		break;
	case BR_VHOST_GET_PROTOCOL_FEATURES:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = brv_reply_u64(vh, h->request, vh->proto_offered);
		replied = true;
		break;
	case BR_VHOST_SET_PROTOCOL_FEATURES:
		rc = set_bits(vh, h, pl, "SET_PROTOCOL_FEATURES", vh->proto_offered,
			      &vh->proto);
		break;
	case BR_VHOST_GET_QUEUE_NUM:
		if ((rc = expect_size(vh, h, 0)))
			break;
		rc = brv_reply_u64(vh, h->request, vh->nvq);
		replied = true;
		break;
	case BR_VHOST_SET_VRING_ENABLE:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (s.num > 1) {
			rc = br_vhost_fail(vh, -EINVAL,
				"SET_VRING_ENABLE: value %u", s.num);
			break;
		}
		vh->vq[s.index].enabled = s.num;
		if (s.num)
			vh->vq[s.index].notify_pending = true;
		break;
	case BR_VHOST_SET_SLAVE_REQ_FD:
		if ((rc = expect_size(vh, h, 0)))
			break;
		brv_close_fd(&vh->req_fd);
		vh->req_fd = fds[0];
		*nfds = 0;
		rc = brv_set_nonblock(vh->req_fd);
		if (rc)
			rc = br_vhost_fail(vh, rc, "SET_SLAVE_REQ_FD: %s",
					     strerror(-rc));
		break;
	case BR_VHOST_GET_CONFIG: {
		struct wire_config c;
		uint8_t out[BR_VHOST_MAX_PAYLOAD];

		if (h->size < sizeof(c)) {
			rc = br_vhost_fail(vh, -EPROTO,
				"GET_CONFIG: payload of %u bytes", h->size);
			break;
		}
		memcpy(&c, pl, sizeof(c));
		if (le32toh(c.size) != h->size - sizeof(c)) {
			rc = br_vhost_fail(vh, -EPROTO,
				"GET_CONFIG: config size %u in a payload of %u bytes",
				le32toh(c.size), h->size);
			break;
		}
		/* no device-specific config space: zeros */
		memset(out, 0, h->size);
		memcpy(out, &c, sizeof(c));
		rc = brv_send_reply(vh, h->request, out, h->size);
		replied = true;
		break;
	}
	case BR_VHOST_SET_CONFIG:
		if (h->size < sizeof(struct wire_config))
			rc = br_vhost_fail(vh, -EPROTO,
				"SET_CONFIG: payload of %u bytes", h->size);
		break;
	case BR_VHOST_VRING_KICK:
		if ((rc = get_state(vh, h, pl, &s)))
			break;
		if (!brv_has_proto(vh, BR_VHOST_PF_INBAND_NOTIFICATIONS)) {
			rc = br_vhost_fail(vh, -EPROTO,
				"VRING_KICK without INBAND_NOTIFICATIONS negotiated");
			break;
		}
		vh->vq[s.index].kicks++;
		/* serve the queue before the ack, so a front-end waiting for
		 * the ack finds the used ring already updated */
		if (vh->notify && br_vhost_queue_ready(vh, s.index))
			vh->notify(vh->opaque, vh, s.index);
		if (vh->broken)
			rc = vh->status;
		break;
	default:
		rc = br_vhost_fail(vh, -EOPNOTSUPP,
			"unsupported request %u (payload %u bytes)",
			h->request, h->size);
		break;
	}

	if ((h->flags & BR_VHOST_FLAG_NEED_REPLY) && !replied &&
	    brv_has_proto(vh, BR_VHOST_PF_REPLY_ACK) && vh->fd >= 0) {
		/* the status of a failed request goes out before the close */
		int arc = brv_reply_u64(vh, h->request, rc ? 1 : 0);

		if (!rc)
			rc = arc;
	}
	return rc;
}

/* Receive and handle one message.  1 if handled, 0 if none, <0 error. */
int brv_handle_one_message(struct br_vhost *vh)
{
	struct br_vhost_hdr h;
	uint8_t pl[BR_VHOST_MAX_PAYLOAD];
	int fds[MAX_FDS];
	unsigned nfds = 0;
	int rc;

	rc = brv_recv_full(vh, &h, sizeof(h), fds, &nfds, true);
	if (rc == 1)
		return 0;
	if (rc)
		goto out;
	h.request = le32toh(h.request);
	h.flags = le32toh(h.flags);
	h.size = le32toh(h.size);
	vh->msgs++;
	if ((h.flags & BR_VHOST_VERSION_MASK) != BR_VHOST_VERSION ||
	    (h.flags & ~(BR_VHOST_VERSION_MASK | BR_VHOST_FLAG_NEED_REPLY))) {
		rc = br_vhost_fail(vh, -EPROTO,
			"bad message header: request %u flags 0x%x size %u (version 1, no reply bit expected)",
			h.request, h.flags, h.size);
		goto out;
	}
	if (h.size > BR_VHOST_MAX_PAYLOAD) {
		rc = br_vhost_fail(vh, -EMSGSIZE,
			"oversize message: request %u with a payload of %u bytes (at most %d)",
			h.request, h.size, BR_VHOST_MAX_PAYLOAD);
		goto out;
	}
	if (h.size) {
		rc = brv_recv_full(vh, pl, h.size, fds, &nfds, false);
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
