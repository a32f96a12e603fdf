/* SPDX-License-Identifier: MIT */
/*
 * br_vfio.h - a PCI function (struct plat_pci_dev) served to QEMU as a
 * vfio-user device (`-device vfio-user-pci,socket=PATH`, QEMU >= 10.1),
 * through libvfio-user, the protocol's reference server library, in real
 * time (br_rt).
 *
 * What QEMU sees, and from where:
 *  - configuration space: every access goes to plat_pci_cfg_read/write
 *    (the function's header, BAR sizing, MSI, PCIe and MSI-X capabilities);
 *  - BARs: one vfio region per BAR of the function, memory or I/O as the
 *    function declares it, each access checked and split by br_pci;
 *  - DMA: QEMU maps guest RAM into this process (a memory backend with
 *    share=on hands libvfio-user its file descriptors); the regions are
 *    kept in a table, and the function's DMA copies through them.  A DMA
 *    outside every region, into a region QEMU did not share, or against
 *    the region's protection (a write into a region mapped without
 *    VFIO_USER_F_DMA_REGION_WRITE, which libvfio-user maps read-only) is
 *    a guest error: counted, logged, nothing copied;
 *  - interrupts: QEMU emulates the MSI-X table and PBA itself (its guest's
 *    table writes never reach the device), so the function sends MSI-X
 *    messages by vector index (plat_pci_set_vec_transport) and
 *    vfu_irq_trigger() fires the eventfd QEMU registered for that vector;
 *    MSI is vector 0; INTx fires on each rising edge of the line.
 *
 * Threads: libvfio-user serves one socket; here a thread of this server
 * waits on it and runs every request with the device lock held
 * (br_rt_enter/leave), so region callbacks, DMA table changes and the
 * model's interrupts (vfu_irq_trigger, from whichever thread runs the
 * model) are serialised by that one lock; libvfio-user's context is never
 * used by two threads at once.  QEMU waits for each reply (its
 * x-msg-timeout, 5 s by default): nothing here holds the lock for long.
 *
 * A misbehaving guest or client (an access outside a BAR or of a size the
 * function cannot take, DMA outside guest memory, a protocol error, the
 * socket closing) is logged and counted; it never crashes the server.  A
 * protocol error or a closed socket ends the connection: gone is set and
 * the owner exits cleanly.
 */
#ifndef RXSCALE_BR_VFIO_H
#define RXSCALE_BR_VFIO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "bridge/br_rt.h"
#include "plat/plat_pci.h"

#define BR_VFIO_DMA_MAX 64              /* DMA regions QEMU may register */

struct br_vfio_dma {
	uint64_t iova, len;
	uint8_t *vaddr;                 /* NULL: not shared with us */
	bool readable, writable;        /* as mapped (DMA_MAP's flags) */
};

struct br_vfio {
	void *ctx;                      /* vfu_ctx_t */
	struct plat_pci_dev *pci;
	struct br_rt *rt;
	char path[108];
	pthread_t thread;
	bool started;
	int stop_fd[2];
	/* under the device lock */
	struct br_vfio_dma dma[BR_VFIO_DMA_MAX];
	unsigned ndma;
	bool connected, gone;
	bool failed;                    /* the connection ended in an error */
	bool intx_level;
	bool intx_masked;               /* by QEMU, until the guest's EOI */
	uint64_t cfg_reads, cfg_writes, mmio_reads, mmio_writes;
	uint64_t irqs, irq_errors;      /* vfu_irq_trigger ok / failed */
	uint64_t dma_maps, dma_unmaps, resets;
	uint64_t guest_errors, dma_errors;
	char last_error[192];
	bool quiet;                     /* no stderr log of guest errors */
};

/*
 * Serve @pci on unix socket @path (replacing a stale socket file), on
 * @rt's device lock: creates the libvfio-user context, its regions, DMA
 * and interrupt set-up, and routes the function's DMA and interrupts here.
 * Returns 0 or -errno (nothing left behind), with a reason in last_error.
 */
int br_vfio_init(struct br_vfio *v, struct plat_pci_dev *pci, struct br_rt *rt,
		 const char *path);

/* Start the socket thread: wait for QEMU to connect, then serve it until
 * it goes.  0 or -errno. */
int br_vfio_start(struct br_vfio *v);

/* Stop the thread, destroy the context, unlink the socket. */
void br_vfio_fini(struct br_vfio *v);

/* DMA into / out of guest memory (the function's DMA route); 0 or -EFAULT
 * (a guest error: counted, nothing copied).  Device lock held. */
int br_vfio_dma_read(struct br_vfio *v, uint64_t addr, void *buf, uint64_t len);
int br_vfio_dma_write(struct br_vfio *v, uint64_t addr, const void *buf,
		      uint64_t len);

#endif /* RXSCALE_BR_VFIO_H */
