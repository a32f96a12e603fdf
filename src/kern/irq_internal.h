/* SPDX-License-Identifier: MIT */
/* irq_internal.h - irq descriptors shared by irq.c and pci.c (not API). */
#ifndef RXSCALE_KERN_IRQ_INTERNAL_H
#define RXSCALE_KERN_IRQ_INTERNAL_H

#include <linux/pci.h>

#include "kern/kern.h"
#include "plat/plat_pci.h"

struct kern_irq_desc {
	bool allocated;
	unsigned int irq;               /* Linux irq number */
	struct sim_irq sim;
	irq_handler_t handler;
	void *dev_id;
	char name[32];
	struct pci_dev *pdev;
	int msix_entry;                 /* -1 for MSI and INTx */
	int depth;                      /* disable_irq nesting */
	bool pending;                   /* arrived while lazily disabled */
};

struct kern_irq_desc *kern_irq_to_desc(unsigned int irq);

/* A free descriptor for @pdev's MSI-X entry @msix_entry (-1: MSI/INTx),
 * its CPU taken round-robin from the interrupt CPU set; NULL if none. */
struct kern_irq_desc *kern_irq_alloc(struct pci_dev *pdev, int msix_entry);

/* Give @d INTx (level) end-of-interrupt behaviour. */
void kern_irq_make_intx(struct kern_irq_desc *d);

void kern_irq_release(struct kern_irq_desc *d);

#endif /* RXSCALE_KERN_IRQ_INTERNAL_H */
