/* SPDX-License-Identifier: MIT */
/*
 * plat_pci.h - the platform's PCI function: BARs routed to a device
 * model's register handlers, MSI-X / MSI / INTx delivery to host
 * interrupts, and DMA into simulated host memory.
 *
 * The device model owns a struct plat_pci_dev and fills in its BAR handlers;
 * the kernel layer (src/kern/pci.c) binds interrupt vectors and maps BARs.
 * The model never sees the driver: it calls plat_pci_msix_notify() and
 * plat_pci_dma_*(), nothing else.
 *
 * MSI-X semantics (PCI Local Bus spec 3.0 §6.8.2, as QEMU's hw/pci/msix.c
 * also models them): a message for a masked vector sets its Pending Bit
 * instead of being sent; unmasking a vector whose Pending Bit is set sends
 * the message and clears the bit.  Function-wide masking is not modelled.
 */
#ifndef RXSCALE_PLAT_PCI_H
#define RXSCALE_PLAT_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "plat/plat_mem.h"
#include "sim/sim_host.h"

#define PLAT_PCI_BARS 6
#define PLAT_PCI_MSIX_MAX 64

/* Register access handlers of one BAR; @off is relative to the BAR, @size
 * is 1, 2, 4 or 8 bytes.  They run inside the accessing CPU's frame. */
struct plat_pci_bar_ops {
	uint64_t (*read)(void *opaque, uint64_t off, unsigned size);
	void (*write)(void *opaque, uint64_t off, uint64_t val, unsigned size);
};

enum plat_pci_irq_mode {
	PLAT_PCI_IRQ_NONE,
	PLAT_PCI_IRQ_INTX,
	PLAT_PCI_IRQ_MSI,
	PLAT_PCI_IRQ_MSIX,
};

struct plat_pci_msix_ent {
	struct sim_irq *irq;            /* host interrupt it targets, or NULL */
	bool masked;                    /* Vector Control mask bit */
	bool pending;                   /* Pending Bit Array */
	uint64_t sent;                  /* messages delivered */
	uint64_t held;                  /* messages turned into pending bits */
};

struct plat_pci_dev {
	char name[32];
	uint16_t vendor, device;
	struct {
		uint64_t size;                  /* bytes, 0 = absent */
		const struct plat_pci_bar_ops *ops;
		void *opaque;
		unsigned char *window;          /* host address range of the BAR */
		bool io;                        /* I/O space BAR (not served) */
	} bar[PLAT_PCI_BARS];
	struct sim_host *host;
	struct plat_mem *mem;                    /* where DMA goes */
	unsigned msix_nvec;                     /* table size (device cap) */
	struct plat_pci_msix_ent msix[PLAT_PCI_MSIX_MAX];
	enum plat_pci_irq_mode irq_mode;
	struct sim_irq *single_irq;             /* MSI or INTx target */
	bool intx_level;                        /* INTx line asserted */
	uint64_t lost_msgs;                     /* notify with no vector bound */
	uint64_t mmio_errors;                   /* access to no BAR / bad size */
	struct plat_pci_dev *next;               /* platform's device list */
};

/*
 * Register a function @name with IDs @vendor:@device and @msix_nvec MSI-X
 * table entries (0..PLAT_PCI_MSIX_MAX) on @host, DMA into @mem.  Returns 0
 * or -EINVAL.
 */
int plat_pci_dev_init(struct plat_pci_dev *d, struct sim_host *host,
		     struct plat_mem *mem, const char *name, uint16_t vendor,
		     uint16_t device, unsigned msix_nvec);

/* Unregister and release the BAR windows. */
void plat_pci_dev_fini(struct plat_pci_dev *d);

/* Give BAR @bar @size bytes served by @ops.  Returns 0, -EINVAL, -ENOMEM. */
int plat_pci_set_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		    const struct plat_pci_bar_ops *ops, void *opaque);

/* Give BAR @bar @size bytes of I/O port space.  Port I/O is not modelled:
 * the BAR exists (its type and size are visible, as lspci shows them),
 * but an access through it reads all ones and is counted in mmio_errors.
 * Returns 0, -EINVAL, -ENOMEM. */
int plat_pci_set_bar_io(struct plat_pci_dev *d, unsigned bar, uint64_t size);

/* Host address of BAR @bar (pci_iomap); NULL if absent. */
void *plat_pci_bar_addr(struct plat_pci_dev *d, unsigned bar);

/*
 * CPU access to a mapped BAR address (readl/writel).  @size is 1, 2, 4 or
 * 8.  An address inside no BAR, or one crossing a BAR's end, reads as all
 * ones and returns -EFAULT (counted on the function when it is known).
 */
int plat_pci_mmio_read(const volatile void *addr, unsigned size, uint64_t *val);
int plat_pci_mmio_write(volatile void *addr, unsigned size, uint64_t val);

/* ----- interrupt delivery (device side) ----- */

/* The device signals MSI-X vector @vec (or its one MSI message, or nothing
 * for INTx: use plat_pci_intx_set).  Returns 0, or -EINVAL for a vector
 * beyond the table. */
int plat_pci_msix_notify(struct plat_pci_dev *d, unsigned vec);

/* Assert or deassert the INTx line (level-triggered: while asserted, the
 * interrupt is raised again after each handler run). */
void plat_pci_intx_set(struct plat_pci_dev *d, bool level);

/* ----- interrupt setup (host side) ----- */

/* Select the interrupt mode and, for MSI/INTx, the host irq. */
void plat_pci_set_irq_mode(struct plat_pci_dev *d, enum plat_pci_irq_mode mode,
			  struct sim_irq *single);

/* Point MSI-X entry @vec at host interrupt @irq (NULL unbinds). */
int plat_pci_msix_bind(struct plat_pci_dev *d, unsigned vec, struct sim_irq *irq);

/* Set or clear entry @vec's mask bit; unmasking sends a pending message. */
int plat_pci_msix_mask(struct plat_pci_dev *d, unsigned vec, bool masked);

/* ----- DMA (device side) ----- */

static inline int plat_pci_dma_read(struct plat_pci_dev *d, uint64_t dma,
				   void *dst, uint64_t len)
{
	return plat_mem_read(d->mem, dma, dst, len, d->name);
}

static inline int plat_pci_dma_write(struct plat_pci_dev *d, uint64_t dma,
				    const void *src, uint64_t len)
{
	return plat_mem_write(d->mem, dma, src, len, d->name);
}

#endif /* RXSCALE_PLAT_PCI_H */
