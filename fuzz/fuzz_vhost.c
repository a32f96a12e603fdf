/* SPDX-License-Identifier: MIT */
/*
 * fuzz_vhost.c - libFuzzer target for the vhost-user back-end and the
 * virt-pci device on it (src/bridge/br_vhost_*.c, br_virtpci.c): what a
 * misbehaving User-Mode Linux guest can send.  Messages of any request,
 * flags and size (with the file descriptors each request takes attached:
 * a memfd of guest memory for SET_MEM_TABLE, eventfds for the vring fds, a
 * socket for the back-end channel), guest memory the rings and virt-pci
 * commands are read from, kicks, the device's interrupts and DMA, replies
 * to its in-band calls.  The back-end must never crash (ASan/UBSan), hang
 * or leak a descriptor; once it reports an error the connection is closed
 * and stays closed.
 *
 * Input: byte 0 = mode (bit 0: start from a correct negotiation, as
 * virtio_uml's; bit 1: in-band notifications offered; bit 2: indirect
 * descriptors offered; bit 3: posted writes held until the guest stops,
 * as under time-travel), then operations of one opcode byte plus operands
 * until the input runs out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge/br_virtpci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) abort(); } while (0)

#define GPA_BASE 0x40000000ull
#define UA_BASE 0x7f1200000000ull
#define MEM_OFF 4096u
#define MEM_SIZE (64u << 10)           /* the memfd: MEM_OFF + MEM_SIZE */
#define QN 16u

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint64_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* ----- a PCI function with one BAR of plain registers ----- */

static uint8_t regs[256];
static struct br_virtpci *g_vp;

static uint64_t f_read(void *opaque, uint64_t off, unsigned size)
{
	uint64_t v = 0;

	(void)opaque;
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)regs[(off + i) % sizeof(regs)] << (8 * i);
	return v;
}

static void f_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
	(void)opaque;
	for (unsigned i = 0; i < size; i++)
		regs[(off + i) % sizeof(regs)] = (uint8_t)(val >> (8 * i));
	/* a doorbell raises an MSI from inside the write, and DMAs */
	if (off == 0x38) {
		uint8_t b[16];

		br_virtpci_msi(g_vp, 0xa0000, (uint32_t)val);
		br_virtpci_dma_read(g_vp, GPA_BASE + (val & 0xffff), b, sizeof(b));
		br_virtpci_dma_write(g_vp, GPA_BASE + ((val >> 16) & 0xffff), b,
				     sizeof(b));
	}
}

static const struct plat_pci_bar_ops f_ops = { .read = f_read, .write = f_write };

static uint8_t cfg[256];

static int c_read(struct plat_pci_dev *d, unsigned off, unsigned size,
		  uint32_t *val)
{
	(void)d;
	if (off + size > sizeof(cfg))
		return -EINVAL;
	*val = 0;
	for (unsigned i = 0; i < size; i++)
		*val |= (uint32_t)cfg[off + i] << (8 * i);
	return 0;
}

static int c_write(struct plat_pci_dev *d, unsigned off, unsigned size,
		   uint32_t val)
{
	(void)d;
	if (off + size > sizeof(cfg))
		return -EINVAL;
	for (unsigned i = 0; i < size; i++)
		cfg[off + i] = (uint8_t)(val >> (8 * i));
	return 0;
}

static const struct br_virtpci_cfg_ops c_ops = { .read = c_read, .write = c_write };

/* ----- the front-end side ----- */

struct fe {
	int sock;                       /* our end of the vhost-user socket */
	int memfd;
	uint8_t *mem;                   /* the memfd, mapped */
	int req;                        /* our end of the back-end channel, or -1 */
	int fds[16];                    /* fds we keep until the end */
	unsigned nfds;
	bool inband;
};

static void keep(struct fe *f, int fd)
{
	if (fd < 0)
		return;
	if (f->nfds < 16)
		f->fds[f->nfds++] = fd;
	else
		close(fd);
}

static void drain(int fd)
{
	uint8_t b[4096];

	if (fd < 0)
		return;
	while (recv(fd, b, sizeof(b), MSG_DONTWAIT) > 0)
		;
}

/* Send header + payload with the fds the request takes. */
static void send_msg(struct fe *f, uint32_t req, uint32_t flags, const void *pl,
		     uint32_t size, uint32_t claimed)
{
	uint8_t buf[12 + BR_VHOST_MAX_PAYLOAD + 64];
	struct br_vhost_hdr h = { req, flags, claimed };
	int fds[8], drop = -1;
	unsigned nfds = 0;
	union {
		char b[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr a;
	} ctl;
	struct iovec iov = { buf, 12 + size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (size > sizeof(buf) - 12)
		size = sizeof(buf) - 12;
	iov.iov_len = 12 + size;
	memcpy(buf, &h, 12);
	if (size)
		memcpy(buf + 12, pl, size);
	switch (req) {
	case BR_VHOST_SET_MEM_TABLE: {
		uint32_t num = 0;

		if (size >= 4)
			memcpy(&num, pl, 4);
		num = num > 8 ? 8 : num;
		for (unsigned i = 0; i < num; i++)
			fds[nfds++] = f->memfd;
		break;
	}
	case BR_VHOST_SET_VRING_KICK:
	case BR_VHOST_SET_VRING_CALL:
	case BR_VHOST_SET_VRING_ERR: {
		uint64_t v = 0;

		if (size >= 8)
			memcpy(&v, pl, 8);
		if (!(v & BR_VHOST_VRING_NOFD)) {
			int e = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

			if (e >= 0) {
				fds[nfds++] = e;
				keep(f, e);
			}
		}
		break;
	}
	case BR_VHOST_SET_SLAVE_REQ_FD: {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
			fds[nfds++] = sv[1];
			drop = sv[1];           /* the back-end has its own copy */
			if (f->req >= 0)
				close(f->req);
			f->req = sv[0];
		}
		break;
	}
	default:
		break;
	}
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
	(void)sendmsg(f->sock, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (drop >= 0)
		close(drop);
}

static void req(struct fe *f, uint32_t r, const void *pl, uint32_t size)
{
	send_msg(f, r, BR_VHOST_VERSION | BR_VHOST_FLAG_NEED_REPLY, pl, size, size);
}

static void state(struct fe *f, uint32_t r, uint32_t idx, uint32_t num)
{
	uint32_t s[2] = { idx, num };

	req(f, r, s, sizeof(s));
}

static uint64_t q_desc(unsigned q) { return GPA_BASE + q * 0x4000; }

/* The correct start: virtio_uml's order. */
static void negotiate(struct fe *f, bool indirect)
{
	uint64_t v;
	struct {
		uint32_t num, pad;
		uint64_t gpa, size, ua, off;
	} mt = { 1, 0, GPA_BASE, MEM_SIZE, UA_BASE, MEM_OFF };

	req(f, BR_VHOST_SET_OWNER, NULL, 0);
	send_msg(f, BR_VHOST_GET_FEATURES, BR_VHOST_VERSION, NULL, 0, 0);
	send_msg(f, BR_VHOST_GET_PROTOCOL_FEATURES, BR_VHOST_VERSION, NULL, 0, 0);
	v = (1ull << BR_VHOST_PF_REPLY_ACK) | (1ull << BR_VHOST_PF_SLAVE_REQ) |
	    (f->inband ? 1ull << BR_VHOST_PF_INBAND_NOTIFICATIONS : 0);
	req(f, BR_VHOST_SET_PROTOCOL_FEATURES, &v, 8);
	req(f, BR_VHOST_SET_SLAVE_REQ_FD, NULL, 0);
	v = (1ull << BR_VHOST_F_VERSION_1) | (1ull << BR_VHOST_F_PROTOCOL_FEATURES) |
	    (1ull << BR_VHOST_F_EVENT_IDX) |
	    (indirect ? 1ull << BR_VHOST_F_INDIRECT_DESC : 0);
	req(f, BR_VHOST_SET_FEATURES, &v, 8);
	req(f, BR_VHOST_SET_MEM_TABLE, &mt, sizeof(mt));
	for (unsigned q = 0; q < 2; q++) {
		struct {
			uint32_t index, flags;
			uint64_t desc, used, avail, log;
		} a = { q, 0, UA_BASE + (q_desc(q) - GPA_BASE),
			UA_BASE + (q_desc(q) + 0x2000 - GPA_BASE),
			UA_BASE + (q_desc(q) + 0x1000 - GPA_BASE), 0 };

		if (!f->inband) {
			v = q;
			req(f, BR_VHOST_SET_VRING_CALL, &v, 8);
		}
		state(f, BR_VHOST_SET_VRING_NUM, q, QN);
		state(f, BR_VHOST_SET_VRING_BASE, q, 0);
		req(f, BR_VHOST_SET_VRING_ADDR, &a, sizeof(a));
	}
	for (unsigned q = 0; q < 2; q++) {
		if (!f->inband) {
			v = q;
			req(f, BR_VHOST_SET_VRING_KICK, &v, 8);
		}
		state(f, BR_VHOST_SET_VRING_ENABLE, q, 1);
	}
}

/* Let the device run; false once it has closed the connection. */
static bool pump(struct br_virtpci *vp, struct fe *f)
{
	int rc = br_virtpci_poll(vp);

	drain(f->sock);
	if (rc < 0) {
		/* an error names its reason and closes the connection */
		CHECK(br_vhost_error(&vp->vh)[0]);
		CHECK(!br_vhost_connected(&vp->vh));
		return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int memfd = -1;
	static uint8_t *mem;
	struct in in = { data, size };
	/* static: big, and fresh stack pages per run cost page faults */
	static struct plat_pci_dev pci;
	static struct br_virtpci vp;
	struct fe f;
	int sv[2];
	unsigned mode;
	bool alive = true;

	if (memfd < 0) {
		memfd = memfd_create("fuzz-guest", MFD_CLOEXEC);
		CHECK(memfd >= 0);
		CHECK(ftruncate(memfd, MEM_OFF + MEM_SIZE) == 0);
		mem = mmap(NULL, MEM_OFF + MEM_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED, memfd, 0);
		CHECK(mem != MAP_FAILED);
	}
	if (size < 1)
		return 0;
	mode = (unsigned)take(&in, 1);
	memset(mem, 0, MEM_OFF + MEM_SIZE);
	memset(regs, 0, sizeof(regs));
	memset(cfg, 0, sizeof(cfg));
	cfg[0] = 0xec;
	cfg[1] = 0x10;
	memset(&pci, 0, sizeof(pci));
	pci.bar[2].size = sizeof(regs);
	pci.bar[2].ops = &f_ops;
	br_virtpci_init(&vp, &pci, &c_ops,
			(mode & 4) ? 1ull << BR_VHOST_F_INDIRECT_DESC : 0, mode & 2);
	g_vp = &vp;
	vp.quiet = true;
	vp.vh.quiet = true;
	vp.vh.io_timeout_ms = 0;
	vp.hold_posted = mode & 8;      /* as under time-travel */
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(br_virtpci_attach(&vp, sv[1]) == 0);
	memset(&f, 0, sizeof(f));
	f.sock = sv[0];
	f.memfd = memfd;
	f.mem = mem;
	f.req = -1;
	f.inband = mode & 2;
	if (mode & 1) {
		negotiate(&f, mode & 4);
		alive = pump(&vp, &f);
	}

	while (in.n && alive) {
		uint8_t op = (uint8_t)take(&in, 1);

		switch (op % 8) {
		case 0: {	/* a message: header, then what of its payload we have */
			uint32_t r = (uint32_t)take(&in, 1), fl = (uint32_t)take(&in, 1);
			uint32_t claimed = (uint32_t)take(&in, 2);
			uint32_t have = claimed < in.n ? claimed : (uint32_t)in.n;

			if (!(op & 0x80))
				claimed = have;         /* mostly whole messages */
			if (op & 0x40)
				r += 256;
			send_msg(&f, r, fl, in.p, have, claimed);
			in.p += have;
			in.n -= have;
			if (have < claimed)
				shutdown(f.sock, SHUT_WR);     /* it ends mid-message */
			break;
		}
		case 1: {	/* guest memory */
			uint32_t off = (uint32_t)take(&in, 2);
			uint32_t len = (uint32_t)take(&in, 1);

			len = len < in.n ? len : (uint32_t)in.n;
			if (off + len > MEM_SIZE)
				len = MEM_SIZE - off;
			memcpy(mem + MEM_OFF + off, in.p, len);
			in.p += len;
			in.n -= len;
			break;
		}
		case 2: {	/* a kick */
			unsigned q = (unsigned)take(&in, 1) % 3;

			if (f.inband)
				state(&f, BR_VHOST_VRING_KICK, q, 0);
			else if (q < 2 && vp.vh.vq[q].kick_fd >= 0) {
				/* our eventfds are the kick fds: any of them */
				uint64_t one = 1;

				for (unsigned i = 0; i < f.nfds; i++)
					(void)!write(f.fds[i], &one, 8);
			}
			break;
		}
		case 3:		/* an interrupt from the device */
			br_virtpci_msi(&vp, 0xa0000, (uint32_t)take(&in, 2));
			break;
		case 4: {	/* DMA from the device */
			uint8_t b[64];
			uint64_t a = GPA_BASE - 64 + take(&in, 2) * 2;
			uint32_t len = (uint32_t)take(&in, 1) % sizeof(b);

			memset(b, 0xa5, sizeof(b));
			if (op & 0x10)
				br_virtpci_dma_write(&vp, a, b, len);
			else
				br_virtpci_dma_read(&vp, a, b, len);
			break;
		}
		case 5:		/* an in-band call asking for a reply, then its reply */
			br_vhost_send_call(&vp.vh, (unsigned)take(&in, 1) % 2, true);
			if (f.req >= 0) {
				struct {
					struct br_vhost_hdr h;
					uint64_t st;
				} __attribute__((packed)) r = {
					{ BR_VHOST_SLAVE_VRING_CALL,
					  BR_VHOST_VERSION | BR_VHOST_FLAG_REPLY, 8 },
					take(&in, 1) & 1 };

				drain(f.req);
				if (op & 0x20)
					r.h.flags = (uint32_t)take(&in, 1);
				(void)send(f.req, &r, op & 0x40 ? 7 : sizeof(r),
					   MSG_NOSIGNAL | MSG_DONTWAIT);
				br_vhost_call_reply(&vp.vh);
			}
			break;
		case 6:		/* a call from the device, or the guest stops */
			if (op & 0x80)
				br_virtpci_release(&vp);
			else
				br_vhost_call(&vp.vh, (unsigned)take(&in, 1) % 2);
			CHECK(vp.nheld <= BR_VIRTPCI_HELD_MAX);
			break;
		default:	/* the guest goes away */
			if (op & 0x80)
				shutdown(f.sock, SHUT_WR);
			break;
		}
		/* the device runs on what the front-end sent it */
		if (op % 8 == 0 || op % 8 == 2 || op % 8 == 5 || op % 8 == 7) {
			drain(f.req);
			alive = pump(&vp, &f);
		}
	}
	/* the front-end goes: the back-end notices and closes, within a
	 * bounded number of polls */
	shutdown(f.sock, SHUT_WR);
	for (int i = 0; i < 8 && br_vhost_connected(&vp.vh); i++)
		pump(&vp, &f);
	CHECK(!br_vhost_connected(&vp.vh));
	if (getenv("FUZZ_VHOST_COUNTERS"))	/* how deep a seed gets */
		fprintf(stderr, "fuzz-vhost: %llu messages, %llu config reads, %llu MMIO reads, "
			"%llu MMIO writes, %llu MSIs, %llu guest errors, %llu DMA errors; %s\n",
			(unsigned long long)vp.vh.msgs, (unsigned long long)vp.cfg_reads,
			(unsigned long long)vp.mmio_reads, (unsigned long long)vp.mmio_writes,
			(unsigned long long)vp.msis, (unsigned long long)vp.guest_errors,
			(unsigned long long)vp.dma_errors, br_vhost_error(&vp.vh));
	br_virtpci_fini(&vp);
	close(f.sock);
	if (f.req >= 0)
		close(f.req);
	for (unsigned i = 0; i < f.nfds; i++)
		close(f.fds[i]);
	return 0;
}
