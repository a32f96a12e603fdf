/* SPDX-License-Identifier: MIT */
/*
 * test_virtpci.c - br_vhost + br_virtpci against a vhost-user front-end
 * written here, which negotiates the way UML's virtio_uml does (SET_OWNER,
 * GET_FEATURES, GET/SET_PROTOCOL_FEATURES, SET_SLAVE_REQ_FD, SET_FEATURES,
 * SET_MEM_TABLE, per queue CALL/NUM/BASE/ADDR, then KICK/ENABLE), with guest
 * memory in a memfd and the two virt-pci queues ("cmd", "irq").  One thread:
 * the front-end sends, then lets the device run (br_virtpci_poll), then
 * reads the answer with a timeout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bridge/br_virtpci.h"

#define GPA_BASE 0x40000000ull
#define UA_BASE 0x7f1200000000ull       /* ring addresses: user addresses */
#define MEM_SIZE (2u << 20)
#define MEM_OFF 4096u                   /* region's mmap_offset */
#define QN 16u
#define BUF_BASE (GPA_BASE + 0x10000)

/* ----- the fake PCI function ----- */

struct fake {
	uint8_t cfg[256];
	uint8_t regs[0x1000];
	struct acc { uint64_t off; unsigned size; bool wr; } log[64];
	unsigned nlog;
	struct br_virtpci *vp;
	uint16_t *irq_used_idx;         /* ordering check */
	bool msi_delivered_in_write;
	unsigned doorbells;
};

static uint64_t fake_read(void *opaque, uint64_t off, unsigned size)
{
	struct fake *f = opaque;
	uint64_t v = 0;

	if (f->nlog < 64)
		f->log[f->nlog++] = (struct acc){ off, size, false };
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)f->regs[off + i] << (8 * i);
	return v;
}

static void fake_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
	struct fake *f = opaque;

	if (f->nlog < 64)
		f->log[f->nlog++] = (struct acc){ off, size, true };
	for (unsigned i = 0; i < size; i++)
		f->regs[off + i] = (uint8_t)(val >> (8 * i));
	if (off == 0x38 && val == 1) {
		/* a doorbell: the device raises an MSI from inside the write */
		uint16_t before = f->irq_used_idx ? *f->irq_used_idx : 0;

		br_virtpci_msi(f->vp, 0xa0000, 66);
		if (f->irq_used_idx && *f->irq_used_idx != before)
			f->msi_delivered_in_write = true;
		f->doorbells++;
	}
}

static const struct plat_pci_bar_ops fake_ops = {
	.read = fake_read, .write = fake_write,
};

static struct fake *g_fake;

static int fake_cfg_read(struct plat_pci_dev *d, unsigned off, unsigned size,
			 uint32_t *val)
{
	(void)d;
	if (off + size > sizeof(g_fake->cfg))
		return -EINVAL;
	*val = 0;
	for (unsigned i = 0; i < size; i++)
		*val |= (uint32_t)g_fake->cfg[off + i] << (8 * i);
	return 0;
}

static int fake_cfg_write(struct plat_pci_dev *d, unsigned off, unsigned size,
			  uint32_t val)
{
	(void)d;
	if (off + size > sizeof(g_fake->cfg))
		return -EINVAL;
	for (unsigned i = 0; i < size; i++)
		g_fake->cfg[off + i] = (uint8_t)(val >> (8 * i));
	return 0;
}

static const struct br_virtpci_cfg_ops fake_cfg = {
	.read = fake_cfg_read, .write = fake_cfg_write,
};

/* ----- the front-end ----- */

struct vdesc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags, next;
};

struct master {
	int sock;
	int memfd;
	uint8_t *mem;                   /* the whole memfd */
	int req_rd, req_wr;
	int kick[2], call_rd[2];
	bool inband;
	bool event_idx;                 /* accept RING_EVENT_IDX */
	uint64_t proto, features;
	uint16_t avail_idx[2], used_seen[2];
	uint64_t bump;                  /* buffer allocator (gpa) */
	struct br_virtpci vp;
	struct plat_pci_dev pci;
	struct fake fake;
};

static uint8_t *g2h(struct master *m, uint64_t gpa)
{
	return m->mem + MEM_OFF + (gpa - GPA_BASE);
}

static uint64_t q_desc(unsigned q) { return GPA_BASE + q * 0x4000; }
static uint64_t q_avail(unsigned q) { return q_desc(q) + 0x1000; }
static uint64_t q_used(unsigned q) { return q_desc(q) + 0x2000; }

static uint64_t galloc(struct master *m, uint32_t len)
{
	uint64_t a = m->bump;

	m->bump += (len + 63) & ~63u;
	assert_true(m->bump < GPA_BASE + MEM_SIZE);
	return a;
}

static void pump(struct master *m)
{
	(void)br_virtpci_poll(&m->vp);
}

static void m_send(struct master *m, uint32_t req, uint32_t flags,
		   const void *pl, uint32_t size, const int *fds, unsigned nfds)
{
	uint8_t buf[12 + 512];
	struct br_vhost_hdr h = { req, flags, size };
	union {
		char b[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr a;
	} ctl;
	struct iovec iov = { buf, 12 + size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	memcpy(buf, &h, 12);
	if (size)
		memcpy(buf + 12, pl, size);
	if (nfds) {
		struct cmsghdr *cm;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.b;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
	}
	assert_int_equal(sendmsg(m->sock, &mh, MSG_NOSIGNAL), 12 + size);
}

/* Read one reply (after letting the device run); 0 or -1 on timeout/EOF. */
static int m_recv(struct master *m, struct br_vhost_hdr *h, void *pl,
		  size_t max)
{
	struct pollfd p = { .fd = m->sock, .events = POLLIN };

	pump(m);
	if (poll(&p, 1, 1000) != 1)
		return -1;
	if (recv(m->sock, h, 12, MSG_WAITALL) != 12)
		return -1;
	assert_true(h->size <= max);
	if (h->size && recv(m->sock, pl, h->size, MSG_WAITALL) != (ssize_t)h->size)
		return -1;
	return 0;
}

static uint64_t m_get_u64(struct master *m, uint32_t req)
{
	struct br_vhost_hdr h;
	uint64_t v = 0;

	m_send(m, req, BR_VHOST_VERSION, NULL, 0, NULL, 0);
	assert_int_equal(m_recv(m, &h, &v, sizeof(v)), 0);
	assert_int_equal(h.request, req);
	assert_int_equal(h.flags, BR_VHOST_VERSION | BR_VHOST_FLAG_REPLY);
	assert_int_equal(h.size, 8);
	return v;
}

/* Send a request; with REPLY_ACK negotiated, wait for a 0 status. */
static void m_req(struct master *m, uint32_t req, const void *pl,
		  uint32_t size, const int *fds, unsigned nfds)
{
	bool ack = m->proto & (1ull << BR_VHOST_PF_REPLY_ACK);
	struct br_vhost_hdr h;
	uint64_t st = 99;

	m_send(m, req, BR_VHOST_VERSION | (ack ? BR_VHOST_FLAG_NEED_REPLY : 0),
	       pl, size, fds, nfds);
	if (!ack) {
		pump(m);
		return;
	}
	assert_int_equal(m_recv(m, &h, &st, sizeof(st)), 0);
	assert_int_equal(h.request, req);
	assert_int_equal(st, 0);
}

static void m_state(struct master *m, uint32_t req, uint32_t idx, uint32_t num)
{
	uint32_t s[2] = { idx, num };

	m_req(m, req, s, sizeof(s), NULL, 0);
}

static void m_setup(struct master *m, bool inband, bool indirect)
{
	int sv[2];

	memset(m, 0, sizeof(*m));
	m->req_rd = m->req_wr = -1;
	for (int q = 0; q < 2; q++)
		m->kick[q] = m->call_rd[q] = -1;
	m->inband = inband;
	m->bump = BUF_BASE;
	m->fake.vp = &m->vp;
	g_fake = &m->fake;
	m->fake.cfg[0] = 0xec;
	m->fake.cfg[1] = 0x10;
	m->fake.cfg[2] = 0x27;
	m->fake.cfg[3] = 0x81;
	m->fake.cfg[0x0a] = 0x00;
	m->fake.cfg[0x0b] = 0x02;
	snprintf(m->pci.name, sizeof(m->pci.name), "fake");
	m->pci.bar[2].size = sizeof(m->fake.regs);
	m->pci.bar[2].ops = &fake_ops;
	m->pci.bar[2].opaque = &m->fake;

	br_virtpci_init(&m->vp, &m->pci, &fake_cfg,
			  indirect ? 1ull << BR_VHOST_F_INDIRECT_DESC : 0,
			  inband);
	m->vp.vh.io_timeout_ms = 200;
	m->vp.vh.quiet = true;
	m->vp.quiet = true;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	m->sock = sv[0];
	assert_int_equal(br_virtpci_attach(&m->vp, sv[1]), 0);

	m->memfd = memfd_create("guest", MFD_CLOEXEC);
	assert_true(m->memfd >= 0);
	assert_int_equal(ftruncate(m->memfd, MEM_OFF + MEM_SIZE), 0);
	m->mem = mmap(NULL, MEM_OFF + MEM_SIZE, PROT_READ | PROT_WRITE,
		      MAP_SHARED, m->memfd, 0);
	assert_true(m->mem != MAP_FAILED);
}

/* Negotiate as virtio_uml does. */
static void m_negotiate(struct master *m)
{
	int pfd[2];
	uint64_t f, pf;
	struct {
		uint32_t num, pad;
		struct { uint64_t gpa, size, ua, off; } r[2];
	} mt;

	m_req(m, BR_VHOST_SET_OWNER, NULL, 0, NULL, 0);
	f = m_get_u64(m, BR_VHOST_GET_FEATURES);
	assert_true(f & (1ull << BR_VHOST_F_VERSION_1));
	assert_true(f & (1ull << BR_VHOST_F_PROTOCOL_FEATURES));
	assert_true(f & (1ull << BR_VHOST_F_EVENT_IDX));
	pf = m_get_u64(m, BR_VHOST_GET_PROTOCOL_FEATURES);
	assert_true(pf & (1ull << BR_VHOST_PF_REPLY_ACK));
	assert_true(pf & (1ull << BR_VHOST_PF_SLAVE_REQ));
	assert_int_equal(!!(pf & (1ull << BR_VHOST_PF_INBAND_NOTIFICATIONS)),
			 m->inband);
	/* UML keeps REPLY_ACK | SLAVE_REQ | CONFIG | INBAND and asks for an
	 * ack of SET_PROTOCOL_FEATURES itself */
	m->proto = pf & ((1ull << BR_VHOST_PF_REPLY_ACK) |
			 (1ull << BR_VHOST_PF_SLAVE_REQ) |
			 (1ull << BR_VHOST_PF_CONFIG) |
			 (1ull << BR_VHOST_PF_INBAND_NOTIFICATIONS));
	m_req(m, BR_VHOST_SET_PROTOCOL_FEATURES, &m->proto, 8, NULL, 0);
	assert_int_equal(pipe2(pfd, O_CLOEXEC | O_NONBLOCK), 0);
	m->req_rd = pfd[0];
	m_req(m, BR_VHOST_SET_SLAVE_REQ_FD, NULL, 0, &pfd[1], 1);
	close(pfd[1]);
	m->features = f & ((1ull << BR_VHOST_F_VERSION_1) |
			   (1ull << BR_VHOST_F_PROTOCOL_FEATURES) |
			   (1ull << BR_VHOST_F_INDIRECT_DESC) |
			   (m->event_idx ? 1ull << BR_VHOST_F_EVENT_IDX : 0));
	m_req(m, BR_VHOST_SET_FEATURES, &m->features, 8, NULL, 0);

	memset(&mt, 0, sizeof(mt));
	mt.num = 1;
	mt.r[0].gpa = GPA_BASE;
	mt.r[0].size = MEM_SIZE;
	mt.r[0].ua = UA_BASE;
	mt.r[0].off = MEM_OFF;
	m_req(m, BR_VHOST_SET_MEM_TABLE, &mt, sizeof(mt), &m->memfd, 1);

	for (unsigned q = 0; q < 2; q++) {
		struct {
			uint32_t index, flags;
			uint64_t desc, used, avail, log;
		} a = { q, 0, UA_BASE + (q_desc(q) - GPA_BASE),
			UA_BASE + (q_used(q) - GPA_BASE),
			UA_BASE + (q_avail(q) - GPA_BASE), ~0ull };

		if (!m->inband) {
			uint64_t v = q;

			assert_int_equal(pipe2(pfd, O_CLOEXEC | O_NONBLOCK), 0);
			m->call_rd[q] = pfd[0];
			m_req(m, BR_VHOST_SET_VRING_CALL, &v, 8, &pfd[1], 1);
			close(pfd[1]);
		}
		m_state(m, BR_VHOST_SET_VRING_NUM, q, QN);
		m_state(m, BR_VHOST_SET_VRING_BASE, q, 0);
		m_req(m, BR_VHOST_SET_VRING_ADDR, &a, sizeof(a), NULL, 0);
	}
	for (unsigned q = 0; q < 2; q++) {
		if (!m->inband) {
			uint64_t v = q;

			m->kick[q] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
			assert_true(m->kick[q] >= 0);
			m_req(m, BR_VHOST_SET_VRING_KICK, &v, 8, &m->kick[q], 1);
		}
		m_state(m, BR_VHOST_SET_VRING_ENABLE, q, 1);
	}
	assert_true(br_vhost_queue_ready(&m->vp.vh, 0));
	assert_true(br_vhost_queue_ready(&m->vp.vh, 1));
}

static void m_teardown(struct master *m)
{
	br_virtpci_fini(&m->vp);
	if (m->sock >= 0)
		close(m->sock);
	for (int q = 0; q < 2; q++) {
		if (m->kick[q] >= 0)
			close(m->kick[q]);
		if (m->call_rd[q] >= 0)
			close(m->call_rd[q]);
	}
	if (m->req_rd >= 0)
		close(m->req_rd);
	munmap(m->mem, MEM_OFF + MEM_SIZE);
	close(m->memfd);
}

static void set_desc(struct master *m, uint64_t table_gpa, unsigned i,
		     uint64_t addr, uint32_t len, uint16_t flags, uint16_t next)
{
	struct vdesc d = { addr, len, flags, next };

	memcpy(g2h(m, table_gpa) + 16 * i, &d, sizeof(d));
}

static void publish(struct master *m, unsigned q, uint16_t head)
{
	uint8_t *a = g2h(m, q_avail(q));
	uint16_t idx = m->avail_idx[q];

	memcpy(a + 4 + 2 * (idx % QN), &head, 2);
	m->avail_idx[q] = ++idx;
	__atomic_store_n((uint16_t *)(a + 2), idx, __ATOMIC_RELEASE);
}

static void kick(struct master *m, unsigned q)
{
	if (m->inband) {
		m_state(m, BR_VHOST_VRING_KICK, q, 0);
	} else {
		uint64_t one = 1;

		assert_int_equal(write(m->kick[q], &one, 8), 8);
		pump(m);
	}
}

/* Next used entry of queue @q: 1 and id/len, or 0 when none. */
static int used(struct master *m, unsigned q, uint32_t *id, uint32_t *len)
{
	uint8_t *u = g2h(m, q_used(q));
	uint16_t idx = __atomic_load_n((uint16_t *)(u + 2), __ATOMIC_ACQUIRE);
	uint32_t e[2];

	if (idx == m->used_seen[q])
		return 0;
	memcpy(e, u + 4 + 8 * (m->used_seen[q] % QN), 8);
	m->used_seen[q]++;
	*id = e[0];
	*len = e[1];
	return 1;
}

/* A call for queue @q arrived (call pipe or in-band message). */
static bool called(struct master *m, unsigned q)
{
	if (m->inband) {
		struct { struct br_vhost_hdr h; uint32_t idx, num; } msg;
		bool got = false;

		while (read(m->req_rd, &msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
			assert_int_equal(msg.h.request, BR_VHOST_SLAVE_VRING_CALL);
			assert_int_equal(msg.h.flags, BR_VHOST_VERSION);
			assert_int_equal(msg.h.size, 8);
			if (msg.idx == q)
				got = true;
		}
		return got;
	} else {
		uint64_t v;
		bool got = false;

		while (read(m->call_rd[q], &v, 8) == 8)
			got = true;
		return got;
	}
}

/* Post the irq queue's 10 buffers of 20 bytes (descriptors 0..9). */
static uint64_t irq_bufs;

static void post_irq_bufs(struct master *m)
{
	irq_bufs = galloc(m, 10 * 20);
	for (unsigned i = 0; i < 10; i++) {
		set_desc(m, q_desc(1), i, irq_bufs + 20 * i, 20,
			 BR_VRING_DESC_F_WRITE, 0);
		publish(m, 1, (uint16_t)i);
	}
	kick(m, 1);
}

/* One cmd: out = header (+ data in the same buffer), in = @in_len bytes.
 * Returns the reply's gpa; checks completion and its length. */
static uint64_t cmd(struct master *m, uint8_t op, uint8_t bar, uint32_t size,
		    uint64_t addr, const void *data, uint32_t dlen,
		    uint32_t in_len, bool indirect)
{
	struct br_virtpci_msg hdr = { op, bar, 0, size, addr };
	uint64_t out = galloc(m, 16 + dlen), in = in_len ? galloc(m, in_len) : 0;
	uint32_t id, len;

	memcpy(g2h(m, out), &hdr, 16);
	if (dlen)
		memcpy(g2h(m, out) + 16, data, dlen);
	if (in_len)
		memset(g2h(m, in), 0x5a, in_len);
	if (indirect) {
		uint64_t tbl = galloc(m, 32);

		set_desc(m, tbl, 0, out, 16 + dlen,
			 in_len ? BR_VRING_DESC_F_NEXT : 0, 1);
		if (in_len)
			set_desc(m, tbl, 1, in, in_len, BR_VRING_DESC_F_WRITE, 0);
		set_desc(m, q_desc(0), 0, tbl, in_len ? 32 : 16,
			 BR_VRING_DESC_F_INDIRECT, 0);
	} else {
		set_desc(m, q_desc(0), 0, out, 16 + dlen,
			 in_len ? BR_VRING_DESC_F_NEXT : 0, 1);
		if (in_len)
			set_desc(m, q_desc(0), 1, in, in_len,
				 BR_VRING_DESC_F_WRITE, 0);
	}
	publish(m, 0, 0);
	kick(m, 0);
	assert_int_equal(used(m, 0, &id, &len), 1);
	assert_int_equal(id, 0);
	assert_int_equal(len, op == BR_VIRTPCI_OP_CFG_READ ||
			 op == BR_VIRTPCI_OP_MMIO_READ ? size : 0);
	return in;
}

static uint64_t cfg_read(struct master *m, uint32_t off, uint32_t size,
			 bool indirect)
{
	uint64_t v = 0;
	uint64_t in = cmd(m, BR_VIRTPCI_OP_CFG_READ, 0, size, off, NULL, 0, 8,
			  indirect);

	memcpy(&v, g2h(m, in), size);
	return v;
}

static uint64_t mmio_read(struct master *m, uint32_t off, uint32_t size)
{
	uint64_t v = 0;
	uint64_t in = cmd(m, BR_VIRTPCI_OP_MMIO_READ, 2, size, off, NULL, 0,
			  size, false);

	memcpy(&v, g2h(m, in), size);
	return v;
}

static void mmio_write(struct master *m, uint32_t off, uint32_t size,
		       uint64_t v)
{
	cmd(m, BR_VIRTPCI_OP_MMIO_WRITE, 2, size, off, &v, size, 0, false);
}

static void check_irq_msg(struct master *m, unsigned slot, uint8_t op,
			  uint64_t addr, uint32_t data)
{
	struct br_virtpci_msg msg;
	uint32_t d;

	memcpy(&msg, g2h(m, irq_bufs + 20 * slot), 16);
	memcpy(&d, g2h(m, irq_bufs + 20 * slot) + 16, 4);
	assert_int_equal(msg.op, op);
	assert_int_equal(msg.addr, addr);
	if (op == BR_VIRTPCI_OP_MSI) {
		assert_int_equal(msg.size, 4);
		assert_int_equal(d, data);
	}
}

/* The whole happy path, in either notification mode. */
static void happy_path(bool inband, bool indirect)
{
	struct master *m = calloc(1, sizeof(*m));
	uint32_t id, len;
	uint8_t b;
	uint8_t dma[64], back[64];

	assert_non_null(m);
	m_setup(m, inband, indirect);
	m_negotiate(m);
	post_irq_bufs(m);

	/* config space: vendor, device, both, 8 bytes, class */
	assert_int_equal(cfg_read(m, 0, 2, indirect), 0x10ec);
	assert_int_equal(cfg_read(m, 2, 2, indirect), 0x8127);
	assert_int_equal(cfg_read(m, 0, 4, indirect), 0x812710ec);
	assert_int_equal(cfg_read(m, 0, 8, false), 0x812710ecull);
	assert_int_equal(cfg_read(m, 0x0b, 1, false), 0x02);
	{
		uint32_t v = 0x0406;

		cmd(m, BR_VIRTPCI_OP_CFG_WRITE, 0, 2, 4, &v, 2, 0, false);
		assert_int_equal(cfg_read(m, 4, 2, false), 0x0406);
	}
	assert_int_equal(m->vp.cfg_reads, 6);
	assert_true(called(m, 0));

	/* MMIO write then read on BAR 2 */
	mmio_write(m, 0x10, 4, 0xdeadbeef);
	assert_int_equal(mmio_read(m, 0x10, 4), 0xdeadbeef);
	assert_int_equal(mmio_read(m, 0x12, 2), 0xdead);
	mmio_write(m, 0x20, 8, 0x1122334455667788ull);
	assert_int_equal(mmio_read(m, 0x20, 8), 0x1122334455667788ull);
	/* an unaligned copy is split into naturally aligned pieces */
	m->fake.nlog = 0;
	{
		uint64_t in = cmd(m, BR_VIRTPCI_OP_MMIO_READ, 2, 6, 0x21, NULL,
				  0, 6, false);
		const uint8_t want[6] = { 0x77, 0x66, 0x55, 0x44, 0x33, 0x22 };

		assert_memory_equal(g2h(m, in), want, 6);
	}
	assert_int_equal(m->fake.nlog, 4);
	assert_int_equal(m->fake.log[0].size, 1);
	assert_int_equal(m->fake.log[1].off, 0x22);
	assert_int_equal(m->fake.log[1].size, 2);
	assert_int_equal(m->fake.log[2].off, 0x24);
	assert_int_equal(m->fake.log[3].size, 1);
	/* MMIO_MEMSET, and UML's memset_io (CFG_WRITE with one byte) */
	b = 0xab;
	cmd(m, BR_VIRTPCI_OP_MMIO_MEMSET, 2, 8, 0x40, &b, 1, 0, false);
	assert_int_equal(mmio_read(m, 0x40, 8), 0xababababababababull);
	b = 0xcd;
	cmd(m, BR_VIRTPCI_OP_CFG_WRITE, 2, 6, 0x50, &b, 1, 0, false);
	assert_int_equal(mmio_read(m, 0x50, 8), 0x0000cdcdcdcdcdcdull);
	assert_int_equal(m->vp.mmio_memsets, 2);
	assert_int_equal(m->vp.guest_errors, 0);

	/* guest errors: all ones, counted, the connection lives */
	assert_int_equal(mmio_read(m, 0xffe, 4), 0xffffffffu);
	{
		uint64_t in = cmd(m, BR_VIRTPCI_OP_MMIO_READ, 0, 4, 0, NULL, 0,
				  4, false);
		uint32_t v;

		memcpy(&v, g2h(m, in), 4);
		assert_int_equal(v, 0xffffffffu);
	}
	assert_int_equal(cfg_read(m, 4094, 4, false), 0xffffffffu);
	cmd(m, 42, 0, 0, 0, NULL, 0, 0, false);
	assert_int_equal(m->vp.guest_errors, 4);
	assert_true(br_vhost_connected(&m->vp.vh));

	/* an MSI from the device lands in the first irq buffer */
	(void)called(m, 1);
	br_virtpci_msi(&m->vp, 0xa0000, 65);
	assert_int_equal(used(m, 1, &id, &len), 1);
	assert_int_equal(id, 0);
	assert_int_equal(len, 20);
	check_irq_msg(m, 0, BR_VIRTPCI_OP_MSI, 0xa0000, 65);
	assert_true(called(m, 1));
	/* INTx and PME */
	assert_int_equal(br_virtpci_send_intx(&m->vp, 1), 0);
	assert_int_equal(used(m, 1, &id, &len), 1);
	assert_int_equal(len, 16);
	check_irq_msg(m, 1, BR_VIRTPCI_OP_INT, 1, 0);
	assert_int_equal(br_virtpci_send_pme(&m->vp), 0);
	assert_int_equal(used(m, 1, &id, &len), 1);
	check_irq_msg(m, 2, BR_VIRTPCI_OP_PME, 0, 0);

	/* a write whose handler raises an MSI: the write completes first */
	m->fake.irq_used_idx = (uint16_t *)(g2h(m, q_used(1)) + 2);
	{
		mmio_write(m, 0x38, 4, 1);
		assert_int_equal(m->fake.doorbells, 1);
		assert_false(m->fake.msi_delivered_in_write);
		assert_int_equal(used(m, 1, &id, &len), 1);
		assert_int_equal(id, 3);
		check_irq_msg(m, 3, BR_VIRTPCI_OP_MSI, 0xa0000, 66);
	}
	assert_int_equal(m->vp.msis, 2);

	/* out of irq buffers: messages wait for the guest's next kick */
	for (unsigned i = 0; i < 6; i++)
		br_virtpci_msi(&m->vp, 0xa0000, 100 + i);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(used(m, 1, &id, &len), 1);
	br_virtpci_msi(&m->vp, 0xa0000, 200);
	br_virtpci_msi(&m->vp, 0xa0000, 201);
	assert_int_equal(m->vp.pend_n, 2);
	assert_int_equal(used(m, 1, &id, &len), 0);
	publish(m, 1, 0);               /* the guest recycles buffer 0 */
	kick(m, 1);
	assert_int_equal(used(m, 1, &id, &len), 1);
	assert_int_equal(id, 0);
	check_irq_msg(m, 0, BR_VIRTPCI_OP_MSI, 0xa0000, 200);
	assert_int_equal(m->vp.pend_n, 1);

	/* DMA through the memory table */
	for (unsigned i = 0; i < sizeof(dma); i++)
		dma[i] = (uint8_t)(i * 7);
	assert_int_equal(br_virtpci_dma_write(&m->vp, GPA_BASE + 0x100000,
						dma, sizeof(dma)), 0);
	assert_memory_equal(g2h(m, GPA_BASE + 0x100000), dma, sizeof(dma));
	assert_int_equal(br_virtpci_dma_read(&m->vp, GPA_BASE + 0x100000,
					       back, sizeof(back)), 0);
	assert_memory_equal(back, dma, sizeof(dma));
	assert_int_equal(br_virtpci_dma_write(&m->vp, GPA_BASE + MEM_SIZE - 8,
						dma, 16), -EFAULT);
	assert_int_equal(br_virtpci_dma_read(&m->vp, 0x1000, back, 4),
			 -EFAULT);
	assert_int_equal(m->vp.dma_errors, 2);

	/* GET_VRING_BASE stops the ring and reports where it is */
	{
		uint32_t s[2] = { 0, 0 }, r[2];
		struct br_vhost_hdr h;

		m_send(m, BR_VHOST_GET_VRING_BASE, BR_VHOST_VERSION, s, 8,
		       NULL, 0);
		assert_int_equal(m_recv(m, &h, r, sizeof(r)), 0);
		assert_int_equal(r[0], 0);
		assert_int_equal(r[1], m->avail_idx[0]);
		assert_false(br_vhost_queue_ready(&m->vp.vh, 0));
	}
	/* the front-end goes away: a clear error, the connection closed */
	close(m->sock);
	m->sock = -1;
	assert_int_equal(br_virtpci_poll(&m->vp), -ECONNRESET);
	assert_non_null(strstr(br_vhost_error(&m->vp.vh), "closed"));
	assert_false(br_vhost_connected(&m->vp.vh));
	assert_true(br_virtpci_poll(&m->vp) < 0);
	m_teardown(m);
	free(m);
}

static void test_fd_notifications(void **state)
{
	(void)state;
	happy_path(false, false);
}

static void test_inband_indirect(void **state)
{
	(void)state;
	happy_path(true, true);
}

/* A unix socket in a temp dir: listen, the front-end connects. */
static void test_unix_socket(void **state)
{
	struct master *m = calloc(1, sizeof(*m));
	char dir[] = "/tmp/rxs-virtpci-XXXXXX", path[64];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int rc;

	(void)state;
	assert_non_null(m);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dev.sock", dir);
	m_setup(m, true, false);
	/* drop the socketpair connection; use the listener */
	close(m->sock);
	assert_int_equal(br_virtpci_poll(&m->vp), -ECONNRESET);
	assert_int_equal(br_virtpci_listen(&m->vp, path), 0);
	assert_int_equal(br_virtpci_poll(&m->vp), 0);
	m->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(connect(m->sock, (struct sockaddr *)&sa, sizeof(sa)), 0);
	rc = br_virtpci_run(&m->vp, 1000);
	assert_true(rc >= 1);
	assert_true(br_vhost_connected(&m->vp.vh));
	assert_int_equal(m->vp.vh.err[0], 0);
	m_negotiate(m);
	post_irq_bufs(m);
	assert_int_equal(cfg_read(m, 0, 4, false), 0x812710ec);
	/* the guest dies; the listener waits for the next one */
	close(m->sock);
	m->sock = -1;
	assert_int_equal(br_virtpci_poll(&m->vp), -ECONNRESET);
	assert_int_equal(br_virtpci_poll(&m->vp), 0);
	assert_int_equal(br_virtpci_run(&m->vp, 50), 0);
	m_teardown(m);
	assert_int_equal(access(path, F_OK), -1);
	rmdir(dir);
	free(m);
}

/* ----- bad input ----- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The device reports error @err (and a message containing @what), and the
 * front-end sees the connection closed. */
static void expect_failure(struct master *m, int err, const char *what)
{
	double t0 = now_s();
	int rc = br_virtpci_poll(&m->vp);
	char c;

	assert_true(now_s() - t0 < 2.0);
	if (rc != err)
		fprintf(stderr, "got %d (%s), expected %d\n", rc,
			br_vhost_error(&m->vp.vh), err);
	assert_int_equal(rc, err);
	if (!strstr(br_vhost_error(&m->vp.vh), what))
		fprintf(stderr, "error '%s' lacks '%s'\n",
			br_vhost_error(&m->vp.vh), what);
	assert_non_null(strstr(br_vhost_error(&m->vp.vh), what));
	assert_false(br_vhost_connected(&m->vp.vh));
	/* the front-end reads EOF (a failure ack may come first) */
	for (;;) {
		struct pollfd p = { .fd = m->sock, .events = POLLIN };
		ssize_t n;

		assert_int_equal(poll(&p, 1, 1000), 1);
		n = recv(m->sock, &c, 1, 0);
		if (n <= 0)
			break;
	}
	/* and the device stays down, without crashing */
	assert_true(br_virtpci_poll(&m->vp) < 0);
}

static void test_bad_garbage_header(void **state)
{
	struct master m;
	uint32_t junk[3] = { 0x12345678, 0x55, 4 };

	(void)state;
	m_setup(&m, false, false);
	assert_int_equal(write(m.sock, junk, sizeof(junk)), sizeof(junk));
	expect_failure(&m, -EPROTO, "bad message header");
	m_teardown(&m);
}

static void test_bad_oversize(void **state)
{
	struct master m;

	(void)state;
	m_setup(&m, false, false);
	m_send(&m, BR_VHOST_GET_FEATURES, BR_VHOST_VERSION, NULL, 0, NULL, 0);
	{
		struct br_vhost_hdr h = { BR_VHOST_SET_CONFIG,
					    BR_VHOST_VERSION, 1u << 20 };

		assert_int_equal(write(m.sock, &h, sizeof(h)), sizeof(h));
	}
	expect_failure(&m, -EMSGSIZE, "oversize");
	m_teardown(&m);
}

static void test_bad_fd_count(void **state)
{
	struct master m;
	int fd;
	struct {
		uint32_t num, pad;
		uint64_t r[4];
	} mt = { 1, 0, { GPA_BASE, MEM_SIZE, UA_BASE, MEM_OFF } };

	(void)state;
	/* a request that takes no fd, with one */
	m_setup(&m, false, false);
	fd = eventfd(0, EFD_CLOEXEC);
	m_send(&m, BR_VHOST_SET_OWNER, BR_VHOST_VERSION, NULL, 0, &fd, 1);
	close(fd);
	expect_failure(&m, -EPROTO, "file descriptors");
	m_teardown(&m);
	/* a memory table of one region with no fd */
	m_setup(&m, false, false);
	m_send(&m, BR_VHOST_SET_MEM_TABLE, BR_VHOST_VERSION, &mt, sizeof(mt),
	       NULL, 0);
	expect_failure(&m, -EPROTO, "file descriptors");
	m_teardown(&m);
	/* a kick fd announced but not sent */
	m_setup(&m, false, false);
	{
		uint64_t v = 0;

		m_send(&m, BR_VHOST_SET_VRING_KICK, BR_VHOST_VERSION, &v, 8,
		       NULL, 0);
	}
	expect_failure(&m, -EPROTO, "file descriptors");
	m_teardown(&m);
}

static void test_bad_truncated(void **state)
{
	struct master m;
	struct br_vhost_hdr h = { BR_VHOST_SET_FEATURES, BR_VHOST_VERSION, 8 };

	(void)state;
	m_setup(&m, false, false);
	/* the header promises 8 bytes that never come: bounded wait */
	assert_int_equal(write(m.sock, &h, sizeof(h)), sizeof(h));
	expect_failure(&m, -ETIMEDOUT, "truncated");
	m_teardown(&m);
	/* half a header, then nothing */
	m_setup(&m, false, false);
	assert_int_equal(write(m.sock, &h, 6), 6);
	expect_failure(&m, -ETIMEDOUT, "truncated");
	m_teardown(&m);
}

static void test_bad_requests(void **state)
{
	struct master m;
	uint64_t v;

	(void)state;
	/* unknown request, with an ack asked for: status 1 then close */
	m_setup(&m, false, false);
	m_send(&m, 77, BR_VHOST_VERSION, NULL, 0, NULL, 0);
	expect_failure(&m, -EOPNOTSUPP, "unsupported request 77");
	m_teardown(&m);
	/* features not offered */
	m_setup(&m, false, false);
	v = 1ull << 35;                 /* IN_ORDER: never offered */
	m_send(&m, BR_VHOST_SET_FEATURES, BR_VHOST_VERSION, &v, 8, NULL, 0);
	expect_failure(&m, -EINVAL, "not offered");
	m_teardown(&m);
	/* vring index out of range */
	m_setup(&m, false, false);
	{
		uint32_t s[2] = { 5, 16 };

		m_send(&m, BR_VHOST_SET_VRING_NUM, BR_VHOST_VERSION, s, 8,
		       NULL, 0);
	}
	expect_failure(&m, -EINVAL, "out of range");
	m_teardown(&m);
	/* wrong payload size */
	m_setup(&m, false, false);
	m_send(&m, BR_VHOST_SET_FEATURES, BR_VHOST_VERSION, &v, 4, NULL, 0);
	expect_failure(&m, -EPROTO, "expected 8");
	m_teardown(&m);
	/* a reply sent to the device */
	m_setup(&m, false, false);
	m_send(&m, BR_VHOST_GET_FEATURES,
	       BR_VHOST_VERSION | BR_VHOST_FLAG_REPLY, NULL, 0, NULL, 0);
	expect_failure(&m, -EPROTO, "bad message header");
	m_teardown(&m);
}

/* Negotiated device with a cmd chain built by @build, then a kick. */
static void bad_ring(bool inband, void (*build)(struct master *m), int err,
		     const char *what)
{
	struct master m;

	m_setup(&m, inband, false);
	m_negotiate(&m);
	build(&m);
	if (inband) {
		uint32_t s[2] = { 0, 0 };

		m_send(&m, BR_VHOST_VRING_KICK,
		       BR_VHOST_VERSION | BR_VHOST_FLAG_NEED_REPLY, s, 8,
		       NULL, 0);
	} else {
		uint64_t one = 1;

		assert_int_equal(write(m.kick[0], &one, 8), 8);
	}
	expect_failure(&m, err, what);
	m_teardown(&m);
}

static void build_outside(struct master *m)
{
	set_desc(m, q_desc(0), 0, 0xdead00000ull, 16, 0, 0);
	publish(m, 0, 0);
}

static void build_loop(struct master *m)
{
	uint64_t b = galloc(m, 32);

	set_desc(m, q_desc(0), 0, b, 16, BR_VRING_DESC_F_NEXT, 1);
	set_desc(m, q_desc(0), 1, b + 16, 16, BR_VRING_DESC_F_NEXT, 0);
	publish(m, 0, 0);
}

static void build_head_range(struct master *m)
{
	publish(m, 0, 40);
}

static void build_next_range(struct master *m)
{
	uint64_t b = galloc(m, 16);

	set_desc(m, q_desc(0), 0, b, 16, BR_VRING_DESC_F_NEXT, 300);
	publish(m, 0, 0);
}

static void build_avail_jump(struct master *m)
{
	uint8_t *a = g2h(m, q_avail(0));
	uint16_t idx = 1000;

	memcpy(a + 2, &idx, 2);
}

static void build_indirect_unnegotiated(struct master *m)
{
	uint64_t t = galloc(m, 16);

	set_desc(m, q_desc(0), 0, t, 16, BR_VRING_DESC_F_INDIRECT, 0);
	publish(m, 0, 0);
}

static void build_read_after_write(struct master *m)
{
	uint64_t b = galloc(m, 32);

	set_desc(m, q_desc(0), 0, b, 16,
		 BR_VRING_DESC_F_WRITE | BR_VRING_DESC_F_NEXT, 1);
	set_desc(m, q_desc(0), 1, b + 16, 16, 0, 0);
	publish(m, 0, 0);
}

static void test_bad_descriptors(void **state)
{
	(void)state;
	bad_ring(false, build_outside, -EFAULT, "outside the memory table");
	bad_ring(true, build_outside, -EFAULT, "outside the memory table");
	bad_ring(false, build_loop, -ELOOP, "loop");
	bad_ring(true, build_loop, -ELOOP, "loop");
	bad_ring(false, build_head_range, -EINVAL, "names descriptor 40");
	bad_ring(false, build_next_range, -EINVAL, "next index 300");
	bad_ring(false, build_avail_jump, -EINVAL, "avail index");
	bad_ring(false, build_indirect_unnegotiated, -EINVAL, "INDIRECT_DESC");
	bad_ring(false, build_read_after_write, -EINVAL, "readable buffer after");
}

static void test_bad_ring_address(void **state)
{
	struct master m;
	struct {
		uint32_t index, flags;
		uint64_t desc, used, avail, log;
	} a = { 0, 0, 0x1000, 0x2000, 0x3000, ~0ull };

	(void)state;
	m_setup(&m, false, false);
	m_negotiate(&m);
	m_req(&m, BR_VHOST_SET_VRING_ADDR, &a, sizeof(a), NULL, 0);
	kick(&m, 0);
	assert_int_equal(br_virtpci_poll(&m.vp), -ENOTCONN);
	assert_non_null(strstr(br_vhost_error(&m.vp.vh), "ring outside"));
	m_teardown(&m);
	/* a memory table whose fd cannot be mapped at that size */
	m_setup(&m, false, false);
	{
		struct {
			uint32_t num, pad;
			uint64_t r[4];
		} mt = { 1, 0, { GPA_BASE, 1ull << 44, UA_BASE, 0 } };
		int fd = eventfd(0, EFD_CLOEXEC);

		m_send(&m, BR_VHOST_SET_MEM_TABLE, BR_VHOST_VERSION, &mt,
		       sizeof(mt), &fd, 1);
		close(fd);
	}
	expect_failure(&m, -ENODEV, "mmap");
	m_teardown(&m);
}


/* Random bytes on the socket and random rings: an error or nothing, never
 * a crash or a hang (deterministic seed). */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_bad_random(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int it = 0; it < 200; it++) {
		struct master *m = calloc(1, sizeof(*m));
		uint8_t blob[96];
		double t0;
		int rc;

		assert_non_null(m);
		m_setup(m, it & 1, it & 2);
		m->vp.vh.io_timeout_ms = 20;
		if (it % 3 == 0) {
			/* garbage on the socket */
			size_t n = 1 + rnd(&x) % sizeof(blob);

			for (size_t i = 0; i < n; i++)
				blob[i] = (uint8_t)rnd(&x);
			if (it % 6 == 0)        /* plausible header */
				memcpy(blob, &(uint32_t[]){ (uint32_t)(rnd(&x) % 40),
							    BR_VHOST_VERSION,
							    (uint32_t)(rnd(&x) % 80) }, 12);
			assert_int_equal(write(m->sock, blob, n), (ssize_t)n);
		} else {
			/* garbage in the rings and buffers of a live device */
			m_negotiate(m);
			post_irq_bufs(m);
			for (unsigned i = 0; i < 16 * 16; i++)
				g2h(m, q_desc(0))[i] = (uint8_t)rnd(&x);
			for (unsigned i = 0; i < 16; i++) {
				uint64_t a = GPA_BASE + rnd(&x) % (MEM_SIZE + 0x10000);
				struct vdesc d;

				memcpy(&d, g2h(m, q_desc(0)) + 16 * i, 16);
				if (rnd(&x) & 1)
					d.addr = a;
				d.len %= 256;
				d.next %= 20;
				d.flags &= 7;
				if (it % 4 != 2)
					d.flags &= ~BR_VRING_DESC_F_INDIRECT;
				memcpy(g2h(m, q_desc(0)) + 16 * i, &d, 16);
			}
			for (unsigned i = 0; i < 1 + rnd(&x) % 16; i++)
				publish(m, 0, (uint16_t)(rnd(&x) % 18));
			if (m->inband) {
				uint32_t s[2] = { 0, 0 };

				m_send(m, BR_VHOST_VRING_KICK, BR_VHOST_VERSION,
				       s, 8, NULL, 0);
			} else {
				uint64_t one = 1;

				assert_int_equal(write(m->kick[0], &one, 8), 8);
			}
		}
		t0 = now_s();
		rc = br_virtpci_poll(&m->vp);
		assert_true(now_s() - t0 < 1.0);
		/* still answers or cleanly down */
		assert_true(rc >= 0 || !br_vhost_connected(&m->vp.vh));
		m_teardown(m);
		free(m);
	}
}

/* ----- the event index and posted writes held to a stop ----- */

static uint16_t used_idx(struct master *m, unsigned q)
{
	uint16_t v;

	memcpy(&v, g2h(m, q_used(q)) + 2, 2);
	return v;
}

/* The device's avail_event (after the used ring) and the front-end's
 * used_event (after the avail ring), as Linux's virtio_ring keeps them. */
static uint16_t avail_event(struct master *m, unsigned q)
{
	uint16_t v;

	memcpy(&v, g2h(m, q_used(q)) + 4 + 8 * QN, 2);
	return v;
}

static void set_used_event(struct master *m, unsigned q, uint16_t v)
{
	memcpy(g2h(m, q_avail(q)) + 4 + 2 * QN, &v, 2);
}

/* A posted MMIO write on descriptor @head, without waiting. */
static void post_write(struct master *m, uint16_t head, uint32_t off, uint32_t v)
{
	struct br_virtpci_msg hdr = { BR_VIRTPCI_OP_MMIO_WRITE, 2, 0, 4, off };
	uint64_t out = galloc(m, 20);

	memcpy(g2h(m, out), &hdr, 16);
	memcpy(g2h(m, out) + 16, &v, 4);
	set_desc(m, q_desc(0), head, out, 20, 0, 0);
	publish(m, 0, head);
	kick(m, 0);
}

static unsigned hook_calls[2];

static void count_call(void *opaque, struct br_vhost *vh, unsigned q)
{
	(void)opaque;
	(void)vh;
	if (q < 2)
		hook_calls[q]++;
}

static void test_held_posted_writes(void **state)
{
	struct master *m = calloc(1, sizeof(*m));
	struct br_virtpci_msg hdr = { BR_VIRTPCI_OP_MMIO_READ, 2, 0, 4, 0x10 };
	uint64_t out, in;
	uint32_t id, len, v;

	(void)state;
	assert_non_null(m);
	m_setup(m, true, false);
	m->event_idx = true;
	m->vp.hold_posted = true;
	m->vp.guest_bufs = 4;
	m->vp.vh.call_hook = count_call;
	memset(hook_calls, 0, sizeof(hook_calls));
	m_negotiate(m);
	assert_true(br_vhost_event_idx(&m->vp.vh));
	post_irq_bufs(m);

	/* two posted writes: done at once, their completions held */
	post_write(m, 1, 0x10, 0x11);
	post_write(m, 2, 0x14, 0x22);
	assert_int_equal(m->fake.regs[0x10], 0x11);
	assert_int_equal(m->fake.regs[0x14], 0x22);
	assert_int_equal(used_idx(m, 0), 0);
	assert_int_equal(m->vp.nheld, 2);
	/* the device tells the front-end to kick for the next buffer */
	assert_int_equal(avail_event(m, 0), 2);

	/* a read completes at once, and is the first used entry */
	out = galloc(m, 16);
	in = galloc(m, 4);
	memcpy(g2h(m, out), &hdr, 16);
	set_desc(m, q_desc(0), 3, out, 16, BR_VRING_DESC_F_NEXT, 4);
	set_desc(m, q_desc(0), 4, in, 4, BR_VRING_DESC_F_WRITE, 0);
	publish(m, 0, 3);
	kick(m, 0);
	assert_int_equal(used_idx(m, 0), 1);
	assert_int_equal(used(m, 0, &id, &len), 1);
	assert_int_equal(id, 3);
	assert_int_equal(len, 4);
	memcpy(&v, g2h(m, in), 4);
	assert_int_equal(v, 0x11);
	/* the guest has not taken it yet (used_event 0): it still polls, and
	 * the held completions wait */
	assert_true(br_virtpci_in_sync_wait(&m->vp));
	assert_int_equal(br_virtpci_release(&m->vp), 0);
	assert_int_equal(m->vp.release_deferred, 1);
	assert_int_equal(used_idx(m, 0), 1);

	/* it has: at its next stop the two come back, newest first, with a
	 * call */
	set_used_event(m, 0, 1);
	assert_false(br_virtpci_in_sync_wait(&m->vp));
	assert_int_equal(br_vhost_unconsumed(&m->vp.vh, 0), 0);
	assert_false(br_vhost_call_wanted(&m->vp.vh, 0));
	hook_calls[0] = 0;
	assert_int_equal(br_virtpci_release(&m->vp), 2);
	assert_int_equal(hook_calls[0], 1);
	assert_int_equal(br_vhost_unconsumed(&m->vp.vh, 0), 2);
	assert_true(br_vhost_call_wanted(&m->vp.vh, 0));
	assert_int_equal(used(m, 0, &id, &len), 1);
	assert_int_equal(id, 2);
	assert_int_equal(used(m, 0, &id, &len), 1);
	assert_int_equal(id, 1);
	assert_int_equal(len, 0);
	set_used_event(m, 0, 3);
	assert_false(br_vhost_call_wanted(&m->vp.vh, 0));
	assert_int_equal(m->vp.posted_released, 2);
	assert_int_equal(br_virtpci_release(&m->vp), 0);

	/* the guest's buffers (4 here) all held: the next write is one it
	 * waits for, and completes at once */
	for (uint16_t h = 5; h < 9; h++)
		post_write(m, h, 0x20, h);
	assert_int_equal(m->vp.nheld, 4);
	assert_int_equal(used_idx(m, 0), 3);
	post_write(m, 9, 0x20, 9);
	assert_int_equal(m->vp.spare_writes, 1);
	assert_int_equal(used_idx(m, 0), 4);
	assert_int_equal(used(m, 0, &id, &len), 1);
	assert_int_equal(id, 9);
	assert_int_equal(m->fake.regs[0x20], 9);
	/* taken: the held ones go at the next stop */
	set_used_event(m, 0, 4);
	assert_int_equal(br_virtpci_release(&m->vp), 4);
	assert_int_equal(used_idx(m, 0), 8);
	m_teardown(m);
	free(m);
}

/* Calls with the event index: one only when the front-end's used_event
 * asks for it. */
static void test_event_idx_calls(void **state)
{
	struct master *m = calloc(1, sizeof(*m));

	(void)state;
	assert_non_null(m);
	m_setup(m, false, false);
	m->event_idx = true;
	m_negotiate(m);
	(void)called(m, 0);
	assert_int_equal(cfg_read(m, 0, 2, false), 0x10ec);
	assert_true(called(m, 0));              /* the first: nothing signalled */
	assert_int_equal(cfg_read(m, 2, 2, false), 0x8127);
	assert_false(called(m, 0));             /* used_event 0 already passed */
	set_used_event(m, 0, 2);                /* interrupt me at entry 2 */
	assert_int_equal(cfg_read(m, 0, 1, false), 0xec);
	assert_true(called(m, 0));
	m_teardown(m);
	free(m);
}

/* A memory-table region past the end of its file: refused (it would map,
 * and the first access there would be a SIGBUS). */
static void test_bad_region_past_eof(void **state)
{
	struct master m;
	struct {
		uint32_t num, pad;
		uint64_t r[4];
	} mt = { 1, 0, { GPA_BASE, 2 * MEM_SIZE, UA_BASE, MEM_OFF } };

	(void)state;
	m_setup(&m, false, false);
	m_send(&m, BR_VHOST_SET_MEM_TABLE, BR_VHOST_VERSION, &mt, sizeof(mt),
	       &m.memfd, 1);
	expect_failure(&m, -EINVAL, "past the end of its file");
	m_teardown(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fd_notifications),
		cmocka_unit_test(test_inband_indirect),
		cmocka_unit_test(test_unix_socket),
		cmocka_unit_test(test_bad_garbage_header),
		cmocka_unit_test(test_bad_oversize),
		cmocka_unit_test(test_bad_fd_count),
		cmocka_unit_test(test_bad_truncated),
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_bad_descriptors),
		cmocka_unit_test(test_bad_ring_address),
		cmocka_unit_test(test_bad_random),
		cmocka_unit_test(test_held_posted_writes),
		cmocka_unit_test(test_event_idx_calls),
		cmocka_unit_test(test_bad_region_past_eof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
