/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_vring.c - vhost-user back-end: split virtqueues: chains popped and pushed, calls
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

/* ----- queues ----- */

bool br_vhost_queue_ready(const struct br_vhost *vh, unsigned q)
{
	const struct br_vhost_vq *vq;

	if (q >= vh->nvq || vh->broken || vh->fd < 0)
		return false;
	vq = &vh->vq[q];
	return vq->num && vq->addr_set && vq->enabled;
}

static int map_rings(struct br_vhost *vh, unsigned q, struct rings *r)
{
	struct br_vhost_vq *vq = &vh->vq[q];
	uint8_t *a, *u;

	r->desc = brv_ua_to_host(vh, vq->desc_ua, 16ull * vq->num);
	a = brv_ua_to_host(vh, vq->avail_ua, AVAIL_RING_OFF + 2ull * vq->num + 2);
	u = brv_ua_to_host(vh, vq->used_ua, USED_RING_OFF + 8ull * vq->num + 2);
	if (!r->desc || !a || !u)
		return br_vhost_fail(vh, -EFAULT,
			"queue %u: ring outside the memory table (desc 0x%llx avail 0x%llx used 0x%llx, size %u)",
			q, (unsigned long long)vq->desc_ua,
			(unsigned long long)vq->avail_ua,
			(unsigned long long)vq->used_ua, vq->num);
	if (((uintptr_t)a & 1) || ((uintptr_t)u & 3))
		return br_vhost_fail(vh, -EFAULT,
			"queue %u: ring misaligned in the host mapping", q);
	r->avail_flags = (uint16_t *)a;
	r->avail_idx = (uint16_t *)(a + 2);
	r->avail_ring = (uint16_t *)(a + AVAIL_RING_OFF);
	r->used_event = (uint16_t *)(a + AVAIL_RING_OFF + 2u * vq->num);
	r->used_idx = (uint16_t *)(u + 2);
	r->used_ring = u + USED_RING_OFF;
	r->avail_event = (uint16_t *)(u + USED_RING_OFF + 8u * vq->num);
	return 0;
}

bool br_vhost_event_idx(const struct br_vhost *vh)
{
	return vh->features & (1ull << BR_VHOST_F_EVENT_IDX);
}

/* With the event index: tell the front-end the next avail entry we will
 * look at, so it kicks for every buffer it adds from now on. */
static void publish_avail_event(struct br_vhost *vh, unsigned q,
				const struct rings *r)
{
	if (br_vhost_event_idx(vh))
		__atomic_store_n(r->avail_event, htole16(vh->vq[q].last_avail),
				 __ATOMIC_RELEASE);
}

/* The virtio spec's vring_need_event(): whether moving the used index from
 * @old to @new passes @event. */
static bool need_event(uint16_t event, uint16_t new_idx, uint16_t old)
{
	return (uint16_t)(new_idx - event - 1) < (uint16_t)(new_idx - old);
}

int br_vhost_unconsumed(struct br_vhost *vh, unsigned q)
{
	struct rings r;
	uint16_t ev, n;

	if (!br_vhost_event_idx(vh) || !br_vhost_queue_ready(vh, q) ||
	    map_rings(vh, q, &r))
		return -1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ev = le16toh(__atomic_load_n(r.used_event, __ATOMIC_RELAXED));
	n = (uint16_t)(vh->vq[q].used_idx - ev);
	/* a used_event from the future (a confused front-end) means nothing
	 * is known: count everything as not taken */
	return n > vh->vq[q].num ? (int)vh->vq[q].num : (int)n;
}

bool br_vhost_call_wanted(struct br_vhost *vh, unsigned q)
{
	struct rings r;

	if (!br_vhost_queue_ready(vh, q) || map_rings(vh, q, &r))
		return false;
	if (br_vhost_event_idx(vh))
		return br_vhost_unconsumed(vh, q) > 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return !(le16toh(__atomic_load_n(r.avail_flags, __ATOMIC_RELAXED)) &
		 BR_VRING_AVAIL_F_NO_INTERRUPT);
}

static int add_seg(struct br_vhost *vh, unsigned q,
		   struct br_vhost_chain *c, const struct vring_desc_le *d)
{
	uint64_t addr = le64toh(d->addr);
	uint32_t len = le32toh(d->len);
	bool wr = le16toh(d->flags) & BR_VRING_DESC_F_WRITE;
	uint8_t *p;

	if (!wr && c->nin)
		return br_vhost_fail(vh, -EINVAL,
			"queue %u chain %u: device-readable buffer after a writable one",
			q, c->head);
	if (len == 0)
		return 0;
	p = br_vhost_gpa(vh, addr, len);
	if (!p)
		return br_vhost_fail(vh, -EFAULT,
			"queue %u chain %u: buffer 0x%llx+%u outside the memory table",
			q, c->head, (unsigned long long)addr, len);
	if (wr) {
		if (c->nin == BR_VHOST_MAX_SEGS)
			goto too_many;
		c->in[c->nin].p = p;
		c->in[c->nin++].len = len;
		c->in_len += len;
	} else {
		if (c->nout == BR_VHOST_MAX_SEGS)
			goto too_many;
		c->out[c->nout].p = p;
		c->out[c->nout++].len = len;
		c->out_len += len;
	}
	return 0;
too_many:
	return br_vhost_fail(vh, -E2BIG,
		"queue %u chain %u: more than %d buffers in one direction",
		q, c->head, BR_VHOST_MAX_SEGS);
}

int br_vhost_pop(struct br_vhost *vh, unsigned q,
		   struct br_vhost_chain *c)
{
	struct br_vhost_vq *vq;
	struct rings r;
	uint16_t avail, head;
	const uint8_t *table;
	unsigned table_n, i, steps = 0;
	bool indirect = false;
	int rc;

	if (vh->broken)
		return vh->status;
	if (!br_vhost_queue_ready(vh, q))
		return 0;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	avail = le16toh(__atomic_load_n(r.avail_idx, __ATOMIC_ACQUIRE));
	if ((uint16_t)(avail - vq->last_avail) > vq->num)
		return br_vhost_fail(vh, -EINVAL,
			"queue %u: avail index %u is more than %u ahead of %u",
			q, avail, vq->num, vq->last_avail);
	if (avail == vq->last_avail) {
		publish_avail_event(vh, q, &r);
		return 0;
	}
	head = le16toh(__atomic_load_n(&r.avail_ring[vq->last_avail % vq->num],
				       __ATOMIC_RELAXED));
	if (head >= vq->num)
		return br_vhost_fail(vh, -EINVAL,
			"queue %u: avail entry %u names descriptor %u (ring size %u)",
			q, vq->last_avail, head, vq->num);
	vq->last_avail++;
	publish_avail_event(vh, q, &r);

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
			return br_vhost_fail(vh, -ELOOP,
				"queue %u chain %u: descriptor loop (more than %u descriptors)",
				q, head, table_n);
		memcpy(&d, table + 16u * i, sizeof(d));
		flags = le16toh(d.flags);
		if (flags & BR_VRING_DESC_F_INDIRECT) {
			uint64_t addr = le64toh(d.addr);
			uint32_t len = le32toh(d.len);

			if (!(vh->features & (1ull << BR_VHOST_F_INDIRECT_DESC)))
				return br_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect descriptor without INDIRECT_DESC",
					q, head);
			if (indirect)
				return br_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: nested indirect descriptor",
					q, head);
			if (flags & BR_VRING_DESC_F_NEXT)
				return br_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect descriptor with NEXT",
					q, head);
			if (len == 0 || len % 16 || len / 16 > BR_VHOST_MAX_QSIZE)
				return br_vhost_fail(vh, -EINVAL,
					"queue %u chain %u: indirect table of %u bytes",
					q, head, len);
			table = br_vhost_gpa(vh, addr, len);
			if (!table)
				return br_vhost_fail(vh, -EFAULT,
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
		if (!(flags & BR_VRING_DESC_F_NEXT))
			break;
		i = le16toh(d.next);
		if (i >= table_n)
			return br_vhost_fail(vh, -EINVAL,
				"queue %u chain %u: next index %u out of range (%u)",
				q, head, i, table_n);
	}
	vq->chains++;
	return 1;
}

int br_vhost_push(struct br_vhost *vh, unsigned q,
		    const struct br_vhost_chain *c, uint32_t written)
{
	if (written > c->in_len)
		written = (uint32_t)c->in_len;
	return br_vhost_push_head(vh, q, c->head, written);
}

int br_vhost_push_head(struct br_vhost *vh, unsigned q, uint16_t head,
			 uint32_t written)
{
	struct br_vhost_vq *vq;
	struct rings r;
	uint32_t elem[2];
	int rc;

	if (vh->broken)
		return vh->status;
	if (!br_vhost_queue_ready(vh, q))
		return -ENOTCONN;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	elem[0] = htole32(head);
	elem[1] = htole32(written);
	memcpy(r.used_ring + 8u * (vq->used_idx % vq->num), elem, sizeof(elem));
	vq->used_idx++;
	__atomic_store_n(r.used_idx, htole16(vq->used_idx), __ATOMIC_RELEASE);
	return 0;
}

int br_vhost_call(struct br_vhost *vh, unsigned q)
{
	struct br_vhost_vq *vq;
	struct rings r;
	int rc;

	if (vh->broken)
		return vh->status;
	if (!br_vhost_queue_ready(vh, q))
		return -ENOTCONN;
	vq = &vh->vq[q];
	if ((rc = map_rings(vh, q, &r)))
		return rc;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (vh->call_hook && vq->call_fd < 0 && vh->req_fd >= 0 &&
	    brv_has_proto(vh, BR_VHOST_PF_INBAND_NOTIFICATIONS) &&
	    brv_has_proto(vh, BR_VHOST_PF_SLAVE_REQ)) {
		/* the owner delivers it later and decides then */
		vq->calls++;
		vh->call_hook(vh->call_opaque, vh, q);
		return 0;
	}
	if (br_vhost_event_idx(vh)) {
		uint16_t ev = le16toh(__atomic_load_n(r.used_event, __ATOMIC_RELAXED));

		if (vq->signalled_valid &&
		    !need_event(ev, vq->used_idx, vq->signalled_used))
			return 0;
		vq->signalled_used = vq->used_idx;
		vq->signalled_valid = true;
	} else if (le16toh(__atomic_load_n(r.avail_flags, __ATOMIC_RELAXED)) &
		   BR_VRING_AVAIL_F_NO_INTERRUPT) {
		return 0;
	}
	vq->calls++;
	if (vq->call_fd >= 0) {
		uint64_t one = 1;
		ssize_t n = brv_write_nosig(vq->call_fd, &one, sizeof(one));

		/* a full pipe already holds a wakeup */
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return br_vhost_fail(vh, -errno,
				"queue %u: call fd: %s", q, strerror(errno));
		return 0;
	}
	if (vh->req_fd >= 0 && brv_has_proto(vh, BR_VHOST_PF_INBAND_NOTIFICATIONS) &&
	    brv_has_proto(vh, BR_VHOST_PF_SLAVE_REQ))
		return br_vhost_send_call(vh, q, false);
	return 0;                       /* front-end polls */
}

int br_vhost_send_call(struct br_vhost *vh, unsigned q, bool need_reply)
{
	struct {
		struct br_vhost_hdr h;
		struct wire_vring_state s;
	} __attribute__((packed)) m = {
		.h = { htole32(BR_VHOST_SLAVE_VRING_CALL),
		       htole32(BR_VHOST_VERSION |
			       (need_reply ? BR_VHOST_FLAG_NEED_REPLY : 0)),
		       htole32(sizeof(struct wire_vring_state)) },
		.s = { htole32(q), 0 },
	};
	int rc;

	if (vh->broken)
		return vh->status;
	if (vh->req_fd < 0 || !brv_has_proto(vh, BR_VHOST_PF_INBAND_NOTIFICATIONS) ||
	    !brv_has_proto(vh, BR_VHOST_PF_SLAVE_REQ))
		return -ENOTCONN;
	rc = brv_write_all(vh, vh->req_fd, &m, sizeof(m));
	if (rc)
		return br_vhost_fail(vh, rc, "queue %u: in-band call: %s", q,
				       strerror(-rc));
	return 0;
}

int br_vhost_call_reply(struct br_vhost *vh)
{
	const unsigned want = sizeof(struct br_vhost_hdr) + 8;
	struct br_vhost_hdr h;
	uint64_t st;
	ssize_t n;

	if (vh->broken)
		return vh->status;
	if (vh->req_fd < 0)
		return -ENOTCONN;
	n = recv(vh->req_fd, vh->rbuf + vh->rlen, want - vh->rlen, MSG_DONTWAIT);
	if (n == 0)
		return br_vhost_fail(vh, -ECONNRESET,
			"back-end request channel closed while a call waited for its reply");
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		return br_vhost_fail(vh, -errno, "call reply: %s", strerror(errno));
	}
	vh->rlen += (unsigned)n;
	if (vh->rlen < want)
		return 0;
	vh->rlen = 0;
	memcpy(&h, vh->rbuf, sizeof(h));
	memcpy(&st, vh->rbuf + sizeof(h), 8);
	if (le32toh(h.request) != BR_VHOST_SLAVE_VRING_CALL ||
	    (le32toh(h.flags) & ~BR_VHOST_VERSION_MASK) != BR_VHOST_FLAG_REPLY ||
	    (le32toh(h.flags) & BR_VHOST_VERSION_MASK) != BR_VHOST_VERSION ||
	    le32toh(h.size) != 8)
		return br_vhost_fail(vh, -EPROTO,
			"bad call reply: request %u flags 0x%x size %u",
			le32toh(h.request), le32toh(h.flags), le32toh(h.size));
	if (le64toh(st))
		return br_vhost_fail(vh, -EIO,
			"the front-end refused a call (status %llu)",
			(unsigned long long)le64toh(st));
	vh->call_replies++;
	return 1;
}

size_t br_vhost_chain_read(const struct br_vhost_chain *c, size_t off,
			     void *buf, size_t len)
{
	uint8_t *d = buf;
	size_t done = 0;

	for (unsigned i = 0; i < c->nout && done < len; i++) {
		const struct br_vhost_seg *s = &c->out[i];
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

size_t br_vhost_chain_write(const struct br_vhost_chain *c, size_t off,
			      const void *buf, size_t len)
{
	const uint8_t *s8 = buf;
	size_t done = 0;

	for (unsigned i = 0; i < c->nin && done < len; i++) {
		const struct br_vhost_seg *s = &c->in[i];
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
