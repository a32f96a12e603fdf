/* SPDX-License-Identifier: MIT */
/*
 * br_virtpci.c - virt-pci device over vhost-user (see br_virtpci.h).
 */
#include "bridge/br_virtpci.h"

#include "bridge/br_pci.h"

#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct br_virtpci_msg) == 16,
	       "virtio_pcidev_msg header is 16 bytes");

/* ----- config space adapter ----- */

static const struct br_virtpci_cfg_ops default_cfg = {
	.read = plat_pci_cfg_read,
	.write = plat_pci_cfg_write,
};

/* ----- helpers ----- */

__attribute__((format(printf, 2, 3)))
static void guest_error(struct br_virtpci *vp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vp->last_error, sizeof(vp->last_error), fmt, ap);
	va_end(ap);
	vp->guest_errors++;
	if (!vp->quiet)
		fprintf(stderr, "br_virtpci: guest error: %s\n",
			vp->last_error);
}

/* ----- interrupts ----- */

/* Put @im into the next irq buffer.  1 sent, 0 no buffer, <0 error. */
static int irq_deliver(struct br_virtpci *vp,
		       const struct br_virtpci_irqmsg *im)
{
	struct br_vhost_chain c;
	uint8_t buf[sizeof(im->m) + sizeof(im->data)];
	size_t n;
	int rc = br_vhost_pop(&vp->vh, BR_VIRTPCI_IRQQ, &c);

	if (rc <= 0)
		return rc;
	memcpy(buf, &im->m, sizeof(im->m));
	memcpy(buf + sizeof(im->m), im->data, sizeof(im->data));
	n = br_vhost_chain_write(&c, 0, buf, im->len);
	if (n < im->len)
		guest_error(vp, "irq buffer of %llu bytes, message needs %u",
			    (unsigned long long)c.in_len, im->len);
	rc = br_vhost_push(&vp->vh, BR_VIRTPCI_IRQQ, &c, (uint32_t)n);
	if (rc)
		return rc;
	switch (im->m.op) {
	case BR_VIRTPCI_OP_MSI:
		vp->msis++;
		break;
	case BR_VIRTPCI_OP_INT:
		vp->ints++;
		break;
	default:
		vp->pmes++;
		break;
	}
	vp->irq_called = true;
	return 1;
}

/* Deliver what is pending while buffers last; then call the guest. */
static void irq_flush(struct br_virtpci *vp)
{
	while (vp->pend_n) {
		int rc = irq_deliver(vp, &vp->pend[vp->pend_head]);

		if (rc <= 0)
			break;
		vp->pend_head = (vp->pend_head + 1) % BR_VIRTPCI_IRQ_PENDING;
		vp->pend_n--;
	}
	if (vp->irq_called) {
		vp->irq_called = false;
		br_vhost_call(&vp->vh, BR_VIRTPCI_IRQQ);
	}
}

static int irq_send(struct br_virtpci *vp, uint8_t op, uint64_t addr,
		    const uint8_t *data, unsigned dlen)
{
	struct br_virtpci_irqmsg *im;

	if (!br_vhost_connected(&vp->vh)) {
		/* no guest (it went away): nobody to interrupt */
		vp->irq_gone++;
		return 0;
	}
	if (vp->pend_n == BR_VIRTPCI_IRQ_PENDING) {
		vp->irq_dropped++;
		guest_error(vp, "interrupt op %u dropped: %u messages wait for irq buffers",
			    op, vp->pend_n);
		return -ENOSPC;
	}
	im = &vp->pend[(vp->pend_head + vp->pend_n) % BR_VIRTPCI_IRQ_PENDING];
	memset(im, 0, sizeof(*im));
	im->m.op = op;
	im->m.size = htole32(dlen);
	im->m.addr = htole64(addr);
	if (dlen)
		memcpy(im->data, data, dlen);
	im->len = (unsigned)sizeof(im->m) + dlen;
	vp->pend_n++;
	/* while a cmd chain is served, its completion goes first */
	if (!vp->in_cmd) {
		irq_flush(vp);
		if (vp->pend_n)
			vp->irq_deferred++;
	}
	return 0;
}

int br_virtpci_send_msi(struct br_virtpci *vp, uint64_t addr,
			  uint32_t data)
{
	uint8_t d[4];

	br_put_le(d, data, 4);
	return irq_send(vp, BR_VIRTPCI_OP_MSI, addr, d, 4);
}

void br_virtpci_msi(void *opaque, uint64_t addr, uint32_t data)
{
	br_virtpci_send_msi(opaque, addr, data);
}

int br_virtpci_send_intx(struct br_virtpci *vp, unsigned pin)
{
	if (pin < 1 || pin > 4)
		return -EINVAL;
	return irq_send(vp, BR_VIRTPCI_OP_INT, pin, NULL, 0);
}

int br_virtpci_send_pme(struct br_virtpci *vp)
{
	return irq_send(vp, BR_VIRTPCI_OP_PME, 0, NULL, 0);
}

/* ----- config space ----- */

static void cfg_read(struct br_virtpci *vp, uint64_t off, unsigned size,
		     uint8_t *out)
{
	memset(out, 0xff, size);
	if (off >= BR_VIRTPCI_CFG_SIZE || size > BR_VIRTPCI_CFG_SIZE - off) {
		guest_error(vp, "config read of %u bytes at 0x%llx outside config space",
			    size, (unsigned long long)off);
		return;
	}
	vp->cfg_reads++;
	for (unsigned done = 0; done < size; done += 4) {
		unsigned n = size - done < 4 ? size - done : 4;
		uint32_t v = 0xffffffffu;
		int rc = vp->cfg.read(vp->pci, (unsigned)off + done, n, &v);

		if (rc)
			guest_error(vp, "config read of %u bytes at 0x%llx: error %d",
				    n, (unsigned long long)off + done, rc);
		else
			br_put_le(out + done, v, n);
	}
}

static void cfg_write(struct br_virtpci *vp, uint64_t off, unsigned size,
		      const uint8_t *in)
{
	if (off >= BR_VIRTPCI_CFG_SIZE || size > BR_VIRTPCI_CFG_SIZE - off) {
		guest_error(vp, "config write of %u bytes at 0x%llx outside config space",
			    size, (unsigned long long)off);
		return;
	}
	vp->cfg_writes++;
	for (unsigned done = 0; done < size; done += 4) {
		unsigned n = size - done < 4 ? size - done : 4;
		int rc = vp->cfg.write(vp->pci, (unsigned)off + done, n,
				       (uint32_t)br_get_le(in + done, n));

		if (rc)
			guest_error(vp, "config write of %u bytes at 0x%llx: error %d",
				    n, (unsigned long long)off + done, rc);
	}
}

/* ----- BARs ----- */

/* The BAR's handlers for [off, off + size), or NULL (a guest error). */
static const struct plat_pci_bar_ops *bar_ops(struct br_virtpci *vp,
					      unsigned bar, uint64_t off,
					      uint64_t size, const char *what)
{
	char why[128];

	if (br_pci_bar_check(vp->pci, bar, off, size, why, sizeof(why))) {
		guest_error(vp, "%s of %s", what, why);
		return NULL;
	}
	return vp->pci->bar[bar].ops;
}

static void mmio_read(struct br_virtpci *vp, unsigned bar, uint64_t off,
		      uint64_t size, uint8_t *out)
{
	memset(out, 0xff, size);
	if (!bar_ops(vp, bar, off, size, "MMIO read"))
		return;
	vp->mmio_reads++;
	br_pci_bar_read(vp->pci, bar, off, size, out);
}

static void mmio_write(struct br_virtpci *vp, unsigned bar, uint64_t off,
		       uint64_t size, const uint8_t *in, bool memset_byte)
{
	const struct plat_pci_bar_ops *ops;
	uint8_t pat[8];
	void *opq;

	ops = bar_ops(vp, bar, off, size, memset_byte ? "MMIO memset" :
		      "MMIO write");
	if (!ops || !ops->write)
		return;
	if (!memset_byte) {
		vp->mmio_writes++;
		br_pci_bar_write(vp->pci, bar, off, size, in);
		return;
	}
	opq = vp->pci->bar[bar].opaque;
	vp->mmio_memsets++;
	memset(pat, in[0], sizeof(pat));
	for (uint64_t pos = 0; pos < size;) {
		unsigned n = br_pci_piece(off, size, pos);

		ops->write(opq, off + pos, br_get_le(pat, n), n);
		pos += n;
	}
}

/* ----- the cmd queue ----- */

/* Serve one chain; returns bytes written into its writable buffers. */
static uint32_t serve_cmd(struct br_virtpci *vp,
			  const struct br_vhost_chain *c)
{
	struct br_virtpci_msg m;
	uint64_t dlen, size;
	uint8_t small[8];
	uint8_t *buf;
	uint32_t written = 0;

	if (br_vhost_chain_read(c, 0, &m, sizeof(m)) < sizeof(m)) {
		guest_error(vp, "virt-pci message of %llu bytes (header is 16)",
			    (unsigned long long)c->out_len);
		return 0;
	}
	size = le32toh(m.size);
	m.addr = le64toh(m.addr);
	dlen = c->out_len - sizeof(m);

	switch (m.op) {
	case BR_VIRTPCI_OP_CFG_READ:
		if (size != 1 && size != 2 && size != 4 && size != 8) {
			guest_error(vp, "config read of %llu bytes",
				    (unsigned long long)size);
			memset(small, 0xff, sizeof(small));
			return (uint32_t)br_vhost_chain_write(c, 0, small,
				c->in_len < 8 ? c->in_len : 8);
		}
		cfg_read(vp, m.addr, (unsigned)size, small);
		written = (uint32_t)br_vhost_chain_write(c, 0, small, size);
		if (written < size)
			guest_error(vp, "config read reply buffer of %llu bytes for %llu",
				    (unsigned long long)c->in_len,
				    (unsigned long long)size);
		return written;
	case BR_VIRTPCI_OP_CFG_WRITE:
		if (dlen == 1 && size != 1) {
			/* UML's memset_io: see br_virtpci.h */
			br_vhost_chain_read(c, sizeof(m), small, 1);
			if (size > BR_VIRTPCI_MAX_MMIO)
				guest_error(vp, "MMIO memset of %llu bytes",
					    (unsigned long long)size);
			else
				mmio_write(vp, m.bar, m.addr, size, small, true);
			return 0;
		}
		if ((size != 1 && size != 2 && size != 4 && size != 8) ||
		    dlen < size) {
			guest_error(vp, "config write of %llu bytes with %llu data bytes",
				    (unsigned long long)size,
				    (unsigned long long)dlen);
			return 0;
		}
		br_vhost_chain_read(c, sizeof(m), small, size);
		cfg_write(vp, m.addr, (unsigned)size, small);
		return 0;
	case BR_VIRTPCI_OP_MMIO_READ:
		if (size == 0 || size > BR_VIRTPCI_MAX_MMIO) {
			guest_error(vp, "MMIO read of %llu bytes",
				    (unsigned long long)size);
			return 0;
		}
		if (c->in_len < size) {
			guest_error(vp, "MMIO read of %llu bytes into a %llu-byte reply buffer",
				    (unsigned long long)size,
				    (unsigned long long)c->in_len);
			size = c->in_len;
			if (!size)
				return 0;
		}
		buf = size <= sizeof(small) ? small : malloc(size);
		if (!buf) {
			guest_error(vp, "MMIO read of %llu bytes: out of memory",
				    (unsigned long long)size);
			return 0;
		}
		mmio_read(vp, m.bar, m.addr, size, buf);
		written = (uint32_t)br_vhost_chain_write(c, 0, buf, size);
		if (buf != small)
			free(buf);
		return written;
	case BR_VIRTPCI_OP_MMIO_WRITE:
		if (size == 0 || size > BR_VIRTPCI_MAX_MMIO || dlen < size) {
			guest_error(vp, "MMIO write of %llu bytes with %llu data bytes",
				    (unsigned long long)size,
				    (unsigned long long)dlen);
			return 0;
		}
		buf = size <= sizeof(small) ? small : malloc(size);
		if (!buf) {
			guest_error(vp, "MMIO write of %llu bytes: out of memory",
				    (unsigned long long)size);
			return 0;
		}
		br_vhost_chain_read(c, sizeof(m), buf, size);
		mmio_write(vp, m.bar, m.addr, size, buf, false);
		if (buf != small)
			free(buf);
		return 0;
	case BR_VIRTPCI_OP_MMIO_MEMSET:
		if (size > BR_VIRTPCI_MAX_MMIO || dlen < 1) {
			guest_error(vp, "MMIO memset of %llu bytes with %llu data bytes",
				    (unsigned long long)size,
				    (unsigned long long)dlen);
			return 0;
		}
		br_vhost_chain_read(c, sizeof(m), small, 1);
		if (size)
			mmio_write(vp, m.bar, m.addr, size, small, true);
		return 0;
	default:
		guest_error(vp, "unknown virt-pci op %u on the cmd queue", m.op);
		return 0;
	}
}

/*
 * Why posted writes are held (hold_posted).  UML's virtio_pcidev.c (7.3,
 * virtio_pcidev_send_cmd) waits for a read by polling the cmd queue: it
 * takes used entries in ring order, frees each that is not its own and
 * calls udelay(1) after each, up to max_delay_us (40000) times.  Under
 * time-travel that udelay is a stop at which the guest takes the
 * interrupts the controller hands it, and their handlers (r8169's reads
 * its status register) issue commands of their own.  Such a nested poll
 * takes the used entries in front of its own, the outer command's
 * completion among them, and frees it; the outer loop then never finds
 * its completion ("um virt-pci delay: 40001", -EIO, and the register
 * read returns all ones).  The nested command also clears the waiting
 * flag that keeps the queue's callback from freeing completions.  The
 * window is open only while used entries precede the reader's own, i.e.
 * completions of posted writes the guest has not taken yet; the guest
 * takes those in its cmd-queue callback, when the device's call reaches
 * it, and under time-travel calls reach it only when it stops.
 *
 * So a posted write's completion is held until the guest stops, and is
 * then given back with a call, which the guest takes before it runs on:
 * a read's completion, pushed at once, is the first used entry the guest
 * finds, its poll ends at the first look, and no interrupt can come in
 * between.  A write that finds the guest's buffers all in use (held +
 * not yet taken >= guest_bufs) is one the guest waits for: it completes at
 * once too.  The device learns how many used entries the guest has taken
 * from the ring's used_event, so this needs RING_EVENT_IDX.
 */
static bool holding(struct br_virtpci *vp)
{
	if (vp->held_conn != vp->vh.connections) {
		vp->nheld = 0;          /* a new connection: new rings */
		vp->sync_valid = false;
		vp->held_conn = vp->vh.connections;
	}
	return vp->hold_posted && br_vhost_event_idx(&vp->vh);
}

bool br_virtpci_in_sync_wait(struct br_virtpci *vp)
{
	int n;

	if (!holding(vp) || !vp->sync_valid)
		return false;
	n = br_vhost_unconsumed(&vp->vh, BR_VIRTPCI_CMDQ);
	if (n < 0)
		return false;
	/* the waited-for entry is among the n the guest has not taken */
	return (uint16_t)(vp->vh.vq[BR_VIRTPCI_CMDQ].used_idx - vp->sync_pos) <=
	       (unsigned)n;
}

unsigned br_virtpci_release(struct br_virtpci *vp)
{
	unsigned n;

	if (!holding(vp) || !vp->nheld)
		return 0;
	if (br_virtpci_in_sync_wait(vp)) {
		vp->release_deferred++;
		return 0;
	}
	n = vp->nheld;
	/* newest first: a write the guest waits for (its buffers ran out
	 * where guest_bufs did not foresee it) is found at once */
	while (vp->nheld) {
		uint16_t head = vp->held[--vp->nheld];

		if (br_vhost_push_head(&vp->vh, BR_VIRTPCI_CMDQ, head, 0))
			return 0;
	}
	vp->posted_released += n;
	br_vhost_call(&vp->vh, BR_VIRTPCI_CMDQ);
	return n;
}

/* Whether the guest waits for the completion of chain @c (served with
 * @written bytes): a read, or a write on the guest's spare buffer. */
static bool waited_for(struct br_virtpci *vp, const struct br_vhost_chain *c)
{
	int n;

	if (c->nin)
		return true;
	n = br_vhost_unconsumed(&vp->vh, BR_VIRTPCI_CMDQ);
	if (n < 0 || vp->nheld + (unsigned)n >= vp->guest_bufs ||
	    vp->nheld == BR_VIRTPCI_HELD_MAX) {
		vp->spare_writes++;
		return true;
	}
	return false;
}

static void serve_cmdq(struct br_virtpci *vp)
{
	struct br_vhost_chain c;
	bool done = false;
	static int trace = -1;
	unsigned served = 0;

	if (trace < 0)
		trace = getenv("RXSCALE_VIRTPCI_TRACE") != NULL;

	for (;;) {
		int rc = br_vhost_pop(&vp->vh, BR_VIRTPCI_CMDQ, &c);
		uint32_t written;
		bool hold;

		if (rc <= 0)
			break;
		vp->in_cmd = true;
		written = serve_cmd(vp, &c);
		vp->in_cmd = false;
		hold = holding(vp) && !waited_for(vp, &c);
		if (hold) {
			vp->held[vp->nheld++] = c.head;
			vp->posted_held++;
		} else {
			if (br_vhost_push(&vp->vh, BR_VIRTPCI_CMDQ, &c, written))
				break;
			vp->sync_pos = (uint16_t)(vp->vh.vq[BR_VIRTPCI_CMDQ].used_idx - 1);
			vp->sync_valid = true;
			done = true;
		}
		served++;
		if (trace) {
			struct br_virtpci_msg m = { 0 };

			br_vhost_chain_read(&c, 0, &m, sizeof(m));
			fprintf(stderr, "TRACE head %u op %u bar %u addr 0x%llx size %u out %llu in %llu written %u%s\n",
				c.head, m.op, m.bar, (unsigned long long)le64toh(m.addr),
				le32toh(m.size), (unsigned long long)c.out_len,
				(unsigned long long)c.in_len, written,
				hold ? " held" : "");
		}
		/* interrupts the access raised go after its completion */
		if (vp->pend_n)
			irq_flush(vp);
	}
	if (done)
		br_vhost_call(&vp->vh, BR_VIRTPCI_CMDQ);
	if (trace)
		fprintf(stderr, "TRACE cmdq served %u last_avail %u\n", served,
			vp->vh.vq[BR_VIRTPCI_CMDQ].last_avail);
}

static void on_notify(void *opaque, struct br_vhost *vh, unsigned q)
{
	struct br_virtpci *vp = opaque;

	(void)vh;
	if (q == BR_VIRTPCI_CMDQ)
		serve_cmdq(vp);
	else if (q == BR_VIRTPCI_IRQQ)
		irq_flush(vp);
}

/* ----- setup and loop ----- */

void br_virtpci_init(struct br_virtpci *vp, struct plat_pci_dev *pci,
		       const struct br_virtpci_cfg_ops *cfg, uint64_t features,
		       bool inband)
{
	uint64_t proto = (1ull << BR_VHOST_PF_REPLY_ACK) |
			 (1ull << BR_VHOST_PF_SLAVE_REQ);

	memset(vp, 0, sizeof(*vp));
	vp->pci = pci;
	vp->cfg = cfg ? *cfg : default_cfg;
	if (inband)
		proto |= 1ull << BR_VHOST_PF_INBAND_NOTIFICATIONS;
	br_vhost_init(&vp->vh, 2,
			features | (1ull << BR_VHOST_F_VERSION_1) |
			(1ull << BR_VHOST_F_EVENT_IDX), proto,
			on_notify, vp);
	vp->guest_bufs = BR_VIRTPCI_GUEST_BUFS;
}

void br_virtpci_fini(struct br_virtpci *vp)
{
	br_vhost_fini(&vp->vh);
}

int br_virtpci_listen(struct br_virtpci *vp, const char *path)
{
	return br_vhost_listen(&vp->vh, path);
}

int br_virtpci_attach(struct br_virtpci *vp, int fd)
{
	vp->pend_n = vp->pend_head = 0;
	return br_vhost_attach(&vp->vh, fd);
}

int br_virtpci_poll(struct br_virtpci *vp)
{
	return br_vhost_poll(&vp->vh);
}

int br_virtpci_run(struct br_virtpci *vp, int timeout_ms)
{
	return br_vhost_run(&vp->vh, timeout_ms);
}

/* ----- DMA ----- */

int br_virtpci_dma_read(struct br_virtpci *vp, uint64_t addr, void *buf,
			  uint64_t len)
{
	int rc;

	if (!br_vhost_connected(&vp->vh)) {
		vp->dma_gone++;
		memset(buf, 0xff, len);
		return -ENODEV;
	}
	rc = br_vhost_gpa_read(&vp->vh, addr, buf, len);
	if (rc) {
		vp->dma_errors++;
		guest_error(vp, "DMA read of %llu bytes at 0x%llx outside guest memory",
			    (unsigned long long)len, (unsigned long long)addr);
	}
	return rc;
}

int br_virtpci_dma_write(struct br_virtpci *vp, uint64_t addr,
			   const void *buf, uint64_t len)
{
	int rc;

	if (!br_vhost_connected(&vp->vh)) {
		vp->dma_gone++;
		return -ENODEV;
	}
	rc = br_vhost_gpa_write(&vp->vh, addr, buf, len);
	if (rc) {
		vp->dma_errors++;
		guest_error(vp, "DMA write of %llu bytes at 0x%llx outside guest memory",
			    (unsigned long long)len, (unsigned long long)addr);
	}
	return rc;
}

static int dma_ops_read(void *opaque, uint64_t addr, void *dst, uint64_t len)
{
	return br_virtpci_dma_read(opaque, addr, dst, len);
}

static int dma_ops_write(void *opaque, uint64_t addr, const void *src,
			 uint64_t len)
{
	return br_virtpci_dma_write(opaque, addr, src, len);
}

const struct plat_pci_dma_ops br_virtpci_dma_ops = {
	.read = dma_ops_read,
	.write = dma_ops_write,
};
