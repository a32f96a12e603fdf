// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "plat/plat_pci.h"

/* The platform's functions, searched by BAR address on MMIO.  A handful at
 * most, so a list is enough. */
static struct plat_pci_dev *dev_list;

int plat_pci_dev_init(struct plat_pci_dev *d, struct sim_host *host,
		     struct plat_mem *mem, const char *name, uint16_t vendor,
		     uint16_t device, unsigned msix_nvec)
{
	if (msix_nvec > PLAT_PCI_MSIX_MAX || !host || !mem)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->vendor = vendor;
	d->device = device;
	d->host = host;
	d->mem = mem;
	d->msix_nvec = msix_nvec;
	for (unsigned i = 0; i < msix_nvec; i++)
		d->msix[i].masked = true;       /* reset state of the table */
	d->next = dev_list;
	dev_list = d;
	return 0;
}

void plat_pci_dev_fini(struct plat_pci_dev *d)
{
	for (struct plat_pci_dev **pp = &dev_list; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	for (unsigned b = 0; b < PLAT_PCI_BARS; b++) {
		free(d->bar[b].window);
		d->bar[b].window = NULL;
	}
}

/* Reserve a unique host address range of @size bytes for BAR @bar. */
static int bar_reserve(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		       const struct plat_pci_bar_ops *ops, void *opaque, bool io)
{
	free(d->bar[bar].window);
	d->bar[bar].window = malloc(size);
	if (!d->bar[bar].window)
		return -ENOMEM;
	d->bar[bar].size = size;
	d->bar[bar].ops = ops;
	d->bar[bar].opaque = opaque;
	d->bar[bar].io = io;
	return 0;
}

int plat_pci_set_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		    const struct plat_pci_bar_ops *ops, void *opaque)
{
	if (bar >= PLAT_PCI_BARS || !size || size > (1u << 24) || !ops)
		return -EINVAL;
	/* The window only reserves a unique host address range: registers
	 * are served by @ops, the bytes are never touched. */
	return bar_reserve(d, bar, size, ops, opaque, false);
}

int plat_pci_set_bar_io(struct plat_pci_dev *d, unsigned bar, uint64_t size)
{
	if (bar >= PLAT_PCI_BARS || !size || size > 256)
		return -EINVAL;
	return bar_reserve(d, bar, size, NULL, NULL, true);
}

void *plat_pci_bar_addr(struct plat_pci_dev *d, unsigned bar)
{
	return bar < PLAT_PCI_BARS ? d->bar[bar].window : NULL;
}

static struct plat_pci_dev *find(const volatile void *addr, unsigned size,
				unsigned *bar, uint64_t *off)
{
	uintptr_t a = (uintptr_t)addr;

	for (struct plat_pci_dev *d = dev_list; d; d = d->next) {
		for (unsigned b = 0; b < PLAT_PCI_BARS; b++) {
			uintptr_t base = (uintptr_t)d->bar[b].window;

			if (!base || a < base || a - base >= d->bar[b].size)
				continue;
			*bar = b;
			*off = a - base;
			if (*off + size > d->bar[b].size || d->bar[b].io) {
				d->mmio_errors++;
				return NULL;
			}
			return d;
		}
	}
	return NULL;
}

static bool size_ok(unsigned size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

int plat_pci_mmio_read(const volatile void *addr, unsigned size, uint64_t *val)
{
	unsigned bar;
	uint64_t off;
	struct plat_pci_dev *d = size_ok(size) ? find(addr, size, &bar, &off) : NULL;

	if (!d) {
		*val = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
		return -EFAULT;
	}
	*val = d->bar[bar].ops->read(d->bar[bar].opaque, off, size);
	if (size < 8)
		*val &= (1ull << (8 * size)) - 1;
	return 0;
}

int plat_pci_mmio_write(volatile void *addr, unsigned size, uint64_t val)
{
	unsigned bar;
	uint64_t off;
	struct plat_pci_dev *d = size_ok(size) ? find(addr, size, &bar, &off) : NULL;

	if (!d)
		return -EFAULT;
	if (size < 8)
		val &= (1ull << (8 * size)) - 1;
	d->bar[bar].ops->write(d->bar[bar].opaque, off, val, size);
	return 0;
}

static void send(struct plat_pci_dev *d, unsigned vec)
{
	struct plat_pci_msix_ent *e = &d->msix[vec];

	if (!e->irq) {
		d->lost_msgs++;
		return;
	}
	e->sent++;
	sim_irq_raise(e->irq);
}

int plat_pci_msix_notify(struct plat_pci_dev *d, unsigned vec)
{
	switch (d->irq_mode) {
	case PLAT_PCI_IRQ_MSIX:
		if (vec >= d->msix_nvec)
			return -EINVAL;
		if (d->msix[vec].masked) {
			d->msix[vec].pending = true;
			d->msix[vec].held++;
			return 0;
		}
		send(d, vec);
		return 0;
	case PLAT_PCI_IRQ_MSI:
		if (d->single_irq)
			sim_irq_raise(d->single_irq);
		else
			d->lost_msgs++;
		return 0;
	default:
		d->lost_msgs++;
		return 0;
	}
}

static void intx_eoi(struct sim_irq *irq, void *arg)
{
	struct plat_pci_dev *d = arg;

	if (d->irq_mode == PLAT_PCI_IRQ_INTX && d->intx_level)
		sim_irq_raise(irq);
}

void plat_pci_intx_set(struct plat_pci_dev *d, bool level)
{
	bool rise = level && !d->intx_level;

	d->intx_level = level;
	if (rise && d->irq_mode == PLAT_PCI_IRQ_INTX && d->single_irq)
		sim_irq_raise(d->single_irq);
}

void plat_pci_set_irq_mode(struct plat_pci_dev *d, enum plat_pci_irq_mode mode,
			  struct sim_irq *single)
{
	d->irq_mode = mode;
	d->single_irq = single;
	if (mode == PLAT_PCI_IRQ_INTX && single) {
		single->eoi = intx_eoi;
		single->eoi_arg = d;
	}
}

int plat_pci_msix_bind(struct plat_pci_dev *d, unsigned vec, struct sim_irq *irq)
{
	if (vec >= d->msix_nvec)
		return -EINVAL;
	d->msix[vec].irq = irq;
	return 0;
}

int plat_pci_msix_mask(struct plat_pci_dev *d, unsigned vec, bool masked)
{
	struct plat_pci_msix_ent *e;

	if (vec >= d->msix_nvec)
		return -EINVAL;
	e = &d->msix[vec];
	e->masked = masked;
	if (!masked && e->pending && d->irq_mode == PLAT_PCI_IRQ_MSIX) {
		e->pending = false;
		send(d, vec);
	}
	return 0;
}
