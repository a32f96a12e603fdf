// SPDX-License-Identifier: MIT
/*
 * br_vfio.c - a PCI function served to QEMU over vfio-user (see br_vfio.h).
 * The protocol: QEMU docs/devel/vfio-user.rst; the library calls:
 * libvfio-user's include/libvfio-user.h.
 */
#include "bridge/br_vfio.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>

#include <vfio-user/libvfio-user.h>

#include "bridge/br_pci.h"

__attribute__((format(printf, 2, 3)))
static void guest_error(struct br_vfio *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->last_error, sizeof(v->last_error), fmt, ap);
	va_end(ap);
	v->guest_errors++;
	if (!v->quiet)
		fprintf(stderr, "br_vfio: guest error: %s\n", v->last_error);
}

static struct br_vfio *of(vfu_ctx_t *ctx)
{
	return vfu_get_private(ctx);
}

/*
 * libvfio-user checks each request itself (header, size, command, region
 * index and bounds, IRQ and DMA arguments) and answers a bad one with an
 * error reply before any callback here runs; what it tells is its log.
 * Its verdict on a request it refused is one LOG_ERR line that starts
 * with the request's id ("msg0x2: cmd 99 failed: ...", "msg0x4: bad size
 * 8 in header"); lines before it give the detail, lines without an id are
 * about the connection.  Each verdict is a guest error, so the counter
 * holds every request the client got wrong, not only those the callbacks
 * saw.  (The VERSION exchange, before the client is connected, is judged
 * in serve().)  Called with the device lock held (vfu_run_ctx).
 */
static void on_log(vfu_ctx_t *ctx, int level, const char *msg)
{
	struct br_vfio *v = of(ctx);

	if (level <= LOG_ERR && v->connected && !strncmp(msg, "msg", 3)) {
		guest_error(v, "libvfio-user: %s", msg);
		return;
	}
	if (!v->quiet)
		fprintf(stderr, "br_vfio: libvfio-user: %s\n", msg);
}

/* ----- configuration space ----- */

static ssize_t cfg_access(vfu_ctx_t *ctx, char *buf, size_t count, loff_t off,
			  bool is_write)
{
	struct br_vfio *v = of(ctx);
	uint8_t *p = (uint8_t *)buf;

	if (off < 0 || (uint64_t)off >= PLAT_PCI_CFG_SIZE ||
	    count > PLAT_PCI_CFG_SIZE - (uint64_t)off) {
		guest_error(v, "config %s of %zu bytes at 0x%llx outside config space",
			    is_write ? "write" : "read", count, (long long)off);
		errno = EINVAL;
		return -1;
	}
	if (is_write)
		v->cfg_writes++;
	else
		v->cfg_reads++;
	for (size_t pos = 0; pos < count;) {
		unsigned n = br_pci_piece((uint64_t)off, count, pos);
		unsigned at = (unsigned)off + (unsigned)pos;
		uint32_t val = 0xffffffffu;
		int rc;

		if (n > 4)
			n = 4;
		if (is_write) {
			rc = plat_pci_cfg_write(v->pci, at, n,
						(uint32_t)br_get_le(p + pos, n));
		} else {
			rc = plat_pci_cfg_read(v->pci, at, n, &val);
			br_put_le(p + pos, val, n);
		}
		if (rc)
			guest_error(v, "config %s of %u bytes at 0x%x: %s",
				    is_write ? "write" : "read", n, at, strerror(-rc));
		pos += n;
	}
	return (ssize_t)count;
}

/* ----- BARs ----- */

static ssize_t bar_access(vfu_ctx_t *ctx, unsigned bar, char *buf, size_t count,
			  loff_t off, bool is_write)
{
	struct br_vfio *v = of(ctx);
	struct plat_pci_dev *d = v->pci;
	char why[128];

	if (off >= 0 && bar < PLAT_PCI_BARS && d->bar[bar].io &&
	    (uint64_t)off < d->bar[bar].size) {
		/* port I/O is not modelled (plat_pci.h): reads all ones */
		if (!is_write)
			memset(buf, 0xff, count);
		d->mmio_errors++;
		return (ssize_t)count;
	}
	if (off < 0 || br_pci_bar_check(d, bar, (uint64_t)off, count, why, sizeof(why))) {
		guest_error(v, "MMIO %s of %s", is_write ? "write" : "read",
			    off < 0 ? "a negative offset" : why);
		if (!is_write)
			memset(buf, 0xff, count);
		return (ssize_t)count;
	}
	if (is_write) {
		v->mmio_writes++;
		br_pci_bar_write(d, bar, (uint64_t)off, count, (const uint8_t *)buf);
	} else {
		v->mmio_reads++;
		br_pci_bar_read(d, bar, (uint64_t)off, count, (uint8_t *)buf);
	}
	return (ssize_t)count;
}

#define BAR_CB(n)							\
static ssize_t bar##n##_access(vfu_ctx_t *ctx, char *buf, size_t count,	\
			       loff_t off, bool is_write)		\
{									\
	return bar_access(ctx, n, buf, count, off, is_write);		\
}
BAR_CB(0)
BAR_CB(1)
BAR_CB(2)
BAR_CB(3)
BAR_CB(4)
BAR_CB(5)

static vfu_region_access_cb_t *const bar_cbs[PLAT_PCI_BARS] = {
	bar0_access, bar1_access, bar2_access, bar3_access, bar4_access,
	bar5_access,
};

/* ----- DMA ----- */

static void dma_register(vfu_ctx_t *ctx, vfu_dma_info_t *info)
{
	struct br_vfio *v = of(ctx);
	uint64_t iova = (uint64_t)(uintptr_t)info->iova.iov_base;
	struct br_vfio_dma *r = NULL;

	/* libvfio-user accepts a DMA_MAP of exactly a region it has (same
	 * fd, offset and protection) and calls this again; one DMA_UNMAP
	 * removes it, so it must have one entry here, or a stale one would
	 * point at memory libvfio-user has unmapped. */
	for (unsigned i = 0; i < v->ndma; i++)
		if (v->dma[i].iova == iova && v->dma[i].len == info->iova.iov_len)
			r = &v->dma[i];
	if (!r) {
		v->dma_maps++;
		if (v->ndma == BR_VFIO_DMA_MAX) {
			guest_error(v, "more than %u DMA regions: 0x%llx+0x%zx ignored",
				    BR_VFIO_DMA_MAX, (unsigned long long)iova,
				    info->iova.iov_len);
			return;
		}
		r = &v->dma[v->ndma++];
	}
	r->iova = iova;
	r->len = info->iova.iov_len;
	r->vaddr = info->vaddr;
	r->readable = info->prot & PROT_READ;
	r->writable = info->prot & PROT_WRITE;
}

static void dma_unregister(vfu_ctx_t *ctx, vfu_dma_info_t *info)
{
	struct br_vfio *v = of(ctx);
	uint64_t iova = (uint64_t)(uintptr_t)info->iova.iov_base;

	v->dma_unmaps++;
	for (unsigned i = 0; i < v->ndma; i++) {
		if (v->dma[i].iova == iova && v->dma[i].len == info->iova.iov_len) {
			v->dma[i] = v->dma[--v->ndma];
			return;
		}
	}
}

/* Host address of the start of [@addr, @addr + @len) and how many bytes
 * of it (*avail) lie in the shared region holding @addr; NULL if none does
 * or it is not mapped for a write (@write) or a read. */
static uint8_t *dma_span(struct br_vfio *v, uint64_t addr, uint64_t len,
			 bool write, uint64_t *avail)
{
	for (unsigned i = 0; i < v->ndma; i++) {
		const struct br_vfio_dma *r = &v->dma[i];

		if (addr >= r->iova && addr - r->iova < r->len) {
			if (!r->vaddr || !(write ? r->writable : r->readable))
				return NULL;
			*avail = r->len - (addr - r->iova);
			if (*avail > len)
				*avail = len;
			return r->vaddr + (addr - r->iova);
		}
	}
	return NULL;
}

/* Every byte of the range is in shared guest memory. */
static bool dma_ok(struct br_vfio *v, uint64_t addr, uint64_t len, bool write)
{
	uint64_t done = 0, n;

	if (addr + len < addr)
		goto bad;
	while (done < len) {
		if (!dma_span(v, addr + done, len - done, write, &n))
			goto bad;
		done += n;
	}
	return true;
bad:
	v->dma_errors++;
	guest_error(v, "DMA %s of %llu bytes at 0x%llx outside the guest memory "
		    "QEMU shared (a memory backend with share=on) %s",
		    write ? "write" : "read", (unsigned long long)len,
		    (unsigned long long)addr, write ? "for writing" : "for reading");
	return false;
}

int br_vfio_dma_read(struct br_vfio *v, uint64_t addr, void *buf, uint64_t len)
{
	uint64_t done = 0, n;

	if (!dma_ok(v, addr, len, false))
		return -EFAULT;
	while (done < len) {
		const uint8_t *src = dma_span(v, addr + done, len - done, false, &n);

		memcpy((uint8_t *)buf + done, src, n);
		done += n;
	}
	return 0;
}

int br_vfio_dma_write(struct br_vfio *v, uint64_t addr, const void *buf,
		      uint64_t len)
{
	uint64_t done = 0, n;

	if (!dma_ok(v, addr, len, true))
		return -EFAULT;
	while (done < len) {
		uint8_t *dst = dma_span(v, addr + done, len - done, true, &n);

		memcpy(dst, (const uint8_t *)buf + done, n);
		done += n;
	}
	return 0;
}

static int dma_ops_read(void *opaque, uint64_t addr, void *dst, uint64_t len)
{
	return br_vfio_dma_read(opaque, addr, dst, len);
}

static int dma_ops_write(void *opaque, uint64_t addr, const void *src,
			 uint64_t len)
{
	return br_vfio_dma_write(opaque, addr, src, len);
}

static const struct plat_pci_dma_ops dma_ops = {
	.read = dma_ops_read,
	.write = dma_ops_write,
};

/* ----- interrupts ----- */

static void on_vec(void *opaque, enum plat_pci_irq_mode mode, unsigned vec)
{
	struct br_vfio *v = opaque;

	(void)mode;
	if (!v->connected || vfu_irq_trigger(v->ctx, vec) < 0) {
		v->irq_errors++;
		return;
	}
	v->irqs++;
}

static void on_intx(void *opaque, bool level)
{
	struct br_vfio *v = opaque;
	bool rise = level && !v->intx_level;

	v->intx_level = level;
	if (rise && !v->intx_masked)
		on_vec(v, PLAT_PCI_IRQ_INTX, 0);
}

/* QEMU masks INTx when it forwards one (its eventfd is edge-like) and
 * unmasks it once the guest has serviced it (SET_IRQS ACTION_UNMASK): a
 * line still asserted then is a new interrupt, as a level would be. */
static void on_intx_state(vfu_ctx_t *ctx, uint32_t start, uint32_t count, bool mask)
{
	struct br_vfio *v = of(ctx);

	if (start != 0 || count == 0)
		return;
	v->intx_masked = mask;
	if (!mask && v->intx_level)
		on_vec(v, PLAT_PCI_IRQ_INTX, 0);
}

/* VFIO_DEVICE_RESET from the guest, an FLR, or the client gone: the
 * function's reset (plat_pci_function_reset: configuration space, the
 * MSI-X state, and the model's registers, rings and engines), so that the
 * device DMAs nowhere until a driver programs it again. */
static int on_reset(vfu_ctx_t *ctx, vfu_reset_type_t type)
{
	struct br_vfio *v = of(ctx);

	(void)type;
	v->resets++;
	plat_pci_function_reset(v->pci);
	return 0;
}

/* ----- set-up ----- */

int br_vfio_init(struct br_vfio *v, struct plat_pci_dev *pci, struct br_rt *rt,
		 const char *path)
{
	vfu_ctx_t *ctx;
	const char *step = "vfu_create_ctx";
	int err = 0;

	*v = (struct br_vfio){ .pci = pci, .rt = rt, .stop_fd = { -1, -1 } };
	if (strlen(path) >= sizeof(v->path))
		return -ENAMETOOLONG;
	snprintf(v->path, sizeof(v->path), "%s", path);
	unlink(path);           /* a stale socket file of an earlier run */
	ctx = vfu_create_ctx(VFU_TRANS_SOCK, path, LIBVFIO_USER_FLAG_ATTACH_NB, v,
			     VFU_DEV_TYPE_PCI);
	if (!ctx)
		goto fail;
	v->ctx = ctx;
	step = "vfu_setup_log";
	if (vfu_setup_log(ctx, on_log, LOG_ERR) < 0)
		goto fail;
	step = "vfu_pci_init";
	if (vfu_pci_init(ctx, VFU_PCI_TYPE_EXPRESS, PCI_HEADER_TYPE_NORMAL, 0) < 0)
		goto fail;
	vfu_pci_set_id(ctx, pci->vendor, pci->device,
		       (uint16_t)(pci->cfg[0x2c] | pci->cfg[0x2d] << 8),
		       (uint16_t)(pci->cfg[0x2e] | pci->cfg[0x2f] << 8));
	vfu_pci_set_class(ctx, pci->cfg[0x0b], pci->cfg[0x0a], pci->cfg[0x09]);
	step = "vfu_setup_region (config space)";
	if (vfu_setup_region(ctx, VFU_PCI_DEV_CFG_REGION_IDX, PLAT_PCI_CFG_SIZE,
			     cfg_access, VFU_REGION_FLAG_RW | VFU_REGION_FLAG_ALWAYS_CB,
			     NULL, 0, -1, 0) < 0)
		goto fail;
	for (unsigned b = 0; b < PLAT_PCI_BARS; b++) {
		int flags = VFU_REGION_FLAG_RW;

		if (!pci->bar[b].size || pci->bar[b].upper)
			continue;
		if (!pci->bar[b].io)
			flags |= VFU_REGION_FLAG_MEM;
		step = "vfu_setup_region (BAR)";
		if (vfu_setup_region(ctx, VFU_PCI_DEV_BAR0_REGION_IDX + (int)b,
				     pci->bar[b].size, bar_cbs[b], flags, NULL, 0,
				     -1, 0) < 0)
			goto fail;
	}
	step = "vfu_setup_device_dma";
	if (vfu_setup_device_dma(ctx, dma_register, dma_unregister) < 0)
		goto fail;
	step = "vfu_setup_device_nr_irqs";
	if (vfu_setup_device_nr_irqs(ctx, VFU_DEV_INTX_IRQ, 1) < 0 ||
	    vfu_setup_device_nr_irqs(ctx, VFU_DEV_MSI_IRQ, 1) < 0 ||
	    (pci->msix_nvec &&
	     vfu_setup_device_nr_irqs(ctx, VFU_DEV_MSIX_IRQ, pci->msix_nvec) < 0))
		goto fail;
	step = "vfu_setup_irq_state_callback";
	if (vfu_setup_irq_state_callback(ctx, VFU_DEV_INTX_IRQ, on_intx_state) < 0)
		goto fail;
	step = "vfu_setup_device_reset_cb";
	if (vfu_setup_device_reset_cb(ctx, on_reset) < 0)
		goto fail;
	step = "vfu_realize_ctx";
	if (vfu_realize_ctx(ctx) < 0)
		goto fail;
	step = "pipe";
	if (pipe2(v->stop_fd, O_CLOEXEC) < 0)
		goto fail;
	plat_pci_set_vec_transport(pci, on_vec, on_intx, v);
	plat_pci_set_dma(pci, &dma_ops, v);
	return 0;
fail:
	err = errno ? -errno : -EINVAL;
	snprintf(v->last_error, sizeof(v->last_error), "%s: %s", step, strerror(-err));
	if (v->ctx)
		vfu_destroy_ctx(v->ctx);
	v->ctx = NULL;
	unlink(path);
	return err;
}

/* Wait for @fd (or the stop pipe); false when asked to stop. */
static bool wait_for(struct br_vfio *v, int fd)
{
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = v->stop_fd[0], .events = POLLIN },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (p[1].revents)
			return false;
		if (p[0].revents)
			return true;
	}
}

static void *serve(void *arg)
{
	struct br_vfio *v = arg;

	/* the client connects */
	for (;;) {
		int rc;

		if (!wait_for(v, vfu_get_poll_fd(v->ctx)))
			return NULL;
		br_rt_enter(v->rt);
		rc = vfu_attach_ctx(v->ctx);
		if (rc == 0)
			v->connected = true;
		br_rt_leave(v->rt);
		if (rc == 0)
			break;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			int err = errno;

			br_rt_enter(v->rt);
			if (err == EINVAL)      /* a bad VERSION: a protocol error */
				guest_error(v, "the client's VERSION was refused");
			snprintf(v->last_error, sizeof(v->last_error), "attach: %s",
				 strerror(err));
			v->gone = true;
			v->failed = true;
			br_rt_leave(v->rt);
			return NULL;
		}
	}
	/* its requests, one at a time, under the device lock */
	for (;;) {
		int n, err = 0;

		if (!wait_for(v, vfu_get_poll_fd(v->ctx)))
			return NULL;
		br_rt_enter(v->rt);
		do {
			n = vfu_run_ctx(v->ctx);
		} while (n > 0);
		if (n < 0)
			err = errno;
		if (n < 0 && err != EAGAIN && err != EWOULDBLOCK && err != EINTR) {
			if (err != ENOTCONN && err != ECONNRESET) {
				snprintf(v->last_error, sizeof(v->last_error),
					 "the connection failed: %s", strerror(err));
				v->failed = true;
			}
			v->connected = false;
			v->gone = true;
			br_rt_leave(v->rt);
			return NULL;
		}
		br_rt_leave(v->rt);
	}
}

int br_vfio_start(struct br_vfio *v)
{
	int rc = pthread_create(&v->thread, NULL, serve, v);

	if (rc)
		return -rc;
	v->started = true;
	return 0;
}

void br_vfio_fini(struct br_vfio *v)
{
	if (v->started) {
		if (write(v->stop_fd[1], "x", 1) != 1)
			perror("br_vfio: stop");
		pthread_join(v->thread, NULL);
		v->started = false;
	}
	if (v->ctx) {
		br_rt_enter(v->rt);
		plat_pci_set_vec_transport(v->pci, NULL, NULL, NULL);
		plat_pci_set_dma(v->pci, NULL, NULL);
		vfu_destroy_ctx(v->ctx);
		v->ctx = NULL;
		v->ndma = 0;
		br_rt_leave(v->rt);
	}
	for (unsigned i = 0; i < 2; i++)
		if (v->stop_fd[i] >= 0)
			close(v->stop_fd[i]);
	v->stop_fd[0] = v->stop_fd[1] = -1;
	unlink(v->path);
}
