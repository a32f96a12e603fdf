/* SPDX-License-Identifier: MIT */
/*
 * sim_pci.h - the platform's PCI function: BARs routed to a device
 * model's register handlers, MSI-X / MSI / INTx delivery to host
 * interrupts, and DMA into simulated host memory.
 *
 * The device model owns a struct sim_pci_dev and fills in its BAR handlers;
 * the kernel layer (src/kern/pci.c) binds interrupt vectors and maps BARs.
 * The model never sees the driver: it calls sim_pci_msix_notify() and
 * sim_pci_dma_*(), nothing else.
 *
 * MSI-X semantics (PCI Local Bus spec 3.0 §6.8.2, as QEMU's hw/pci/msix.c
 * also models them): a message for a masked vector sets its Pending Bit
 * instead of being sent; unmasking a vector whose Pending Bit is set sends
 * the message and clears the bit.  Function-wide masking is not modelled.
 */
#ifndef RXSCALE_SIM_PCI_H
#define RXSCALE_SIM_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_host.h"
#include "sim/sim_mem.h"

#define SIM_PCI_BARS 6
#define SIM_PCI_MSIX_MAX 64

/* Register access handlers of one BAR; @off is relative to the BAR, @size
 * is 1, 2, 4 or 8 bytes.  They run inside the accessing CPU's frame. */
struct sim_pci_bar_ops {
	uint64_t (*read)(void *opaque, uint64_t off, unsigned size);
	void (*write)(void *opaque, uint64_t off, uint64_t val, unsigned size);
};

enum sim_pci_irq_mode {
	SIM_PCI_IRQ_NONE,
	SIM_PCI_IRQ_INTX,
	SIM_PCI_IRQ_MSI,
	SIM_PCI_IRQ_MSIX,
};

struct sim_pci_msix_ent {
	struct sim_irq *irq;            /* host interrupt it targets, or NULL */
	bool masked;                    /* Vector Control mask bit */
	bool pending;                   /* Pending Bit Array */
	uint64_t sent;                  /* messages delivered */
	uint64_t held;                  /* messages turned into pending bits */
};

struct sim_pci_dev {
	char name[32];
	uint16_t vendor, device;
	struct {
		uint64_t size;                  /* bytes, 0 = absent */
		const struct sim_pci_bar_ops *ops;
		void *opaque;
		unsigned char *window;          /* host address range of the BAR */
		bool io;                        /* I/O space BAR (not served) */
	} bar[SIM_PCI_BARS];
	struct sim_host *host;
	struct sim_mem *mem;                    /* where DMA goes */
	unsigned msix_nvec;                     /* table size (device cap) */
	struct sim_pci_msix_ent msix[SIM_PCI_MSIX_MAX];
	enum sim_pci_irq_mode irq_mode;
	struct sim_irq *single_irq;             /* MSI or INTx target */
	bool intx_level;                        /* INTx line asserted */
	uint64_t lost_msgs;                     /* notify with no vector bound */
	uint64_t mmio_errors;                   /* access to no BAR / bad size */
	struct sim_pci_dev *next;               /* platform's device list */
};

/*
 * Register a function @name with IDs @vendor:@device and @msix_nvec MSI-X
 * table entries (0..SIM_PCI_MSIX_MAX) on @host, DMA into @mem.  Returns 0
 * or -EINVAL.
 */
int sim_pci_dev_init(struct sim_pci_dev *d, struct sim_host *host,
		     struct sim_mem *mem, const char *name, uint16_t vendor,
		     uint16_t device, unsigned msix_nvec);

/* Unregister and release the BAR windows. */
void sim_pci_dev_fini(struct sim_pci_dev *d);

/* Give BAR @bar @size bytes served by @ops.  Returns 0, -EINVAL, -ENOMEM. */
int sim_pci_set_bar(struct sim_pci_dev *d, unsigned bar, uint64_t size,
		    const struct sim_pci_bar_ops *ops, void *opaque);

/* Give BAR @bar @size bytes of I/O port space.  Port I/O is not modelled:
 * the BAR exists (its type and size are visible, as lspci shows them),
 * but an access through it reads all ones and is counted in mmio_errors.
 * Returns 0, -EINVAL, -ENOMEM. */
int sim_pci_set_bar_io(struct sim_pci_dev *d, unsigned bar, uint64_t size);

/* Host address of BAR @bar (pci_iomap); NULL if absent. */
void *sim_pci_bar_addr(struct sim_pci_dev *d, unsigned bar);

/*
 * CPU access to a mapped BAR address (readl/writel).  @size is 1, 2, 4 or
 * 8.  An address inside no BAR, or one crossing a BAR's end, reads as all
 * ones and returns -EFAULT (counted on the function when it is known).
 */
int sim_pci_mmio_read(const volatile void *addr, unsigned size, uint64_t *val);
int sim_pci_mmio_write(volatile void *addr, unsigned size, uint64_t val);

/* ----- interrupt delivery (device side) ----- */

/* The device signals MSI-X vector @vec (or its one MSI message, or nothing
 * for INTx: use sim_pci_intx_set).  Returns 0, or -EINVAL for a vector
 * beyond the table. */
int sim_pci_msix_notify(struct sim_pci_dev *d, unsigned vec);

/* Assert or deassert the INTx line (level-triggered: while asserted, the
 * interrupt is raised again after each handler run). */
void sim_pci_intx_set(struct sim_pci_dev *d, bool level);

/* ----- interrupt setup (host side) ----- */

/* Select the interrupt mode and, for MSI/INTx, the host irq. */
void sim_pci_set_irq_mode(struct sim_pci_dev *d, enum sim_pci_irq_mode mode,
			  struct sim_irq *single);

/* Point MSI-X entry @vec at host interrupt @irq (NULL unbinds). */
int sim_pci_msix_bind(struct sim_pci_dev *d, unsigned vec, struct sim_irq *irq);

/* Set or clear entry @vec's mask bit; unmasking sends a pending message. */
int sim_pci_msix_mask(struct sim_pci_dev *d, unsigned vec, bool masked);

/* ----- DMA (device side) ----- */

static inline int sim_pci_dma_read(struct sim_pci_dev *d, uint64_t dma,
				   void *dst, uint64_t len)
{
	return sim_mem_read(d->mem, dma, dst, len, d->name);
}

static inline int sim_pci_dma_write(struct sim_pci_dev *d, uint64_t dma,
				    const void *src, uint64_t len)
{
	return sim_mem_write(d->mem, dma, src, len, d->name);
}

#endif /* RXSCALE_SIM_PCI_H */
