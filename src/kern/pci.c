// SPDX-License-Identifier: MIT
/* pci.c - BAR mapping, MMIO accessors and interrupt vector allocation. */
#include <errno.h>
#include <string.h>

#include <linux/io.h>

#include "kern/kern.h"
#include "kern/irq_internal.h"

void kern_pci_dev_init(struct pci_dev *pdev, struct plat_pci_dev *sim,
		       const char *name)
{
	memset(pdev, 0, sizeof(*pdev));
	snprintf(pdev->dev.name, sizeof(pdev->dev.name), "%s", name);
	pdev->vendor = sim->vendor;
	pdev->device = sim->device;
	pdev->sim = sim;
}

void __iomem *pci_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen)
{
	(void)maxlen;
	if (bar < 0 || bar >= PLAT_PCI_BARS)
		return NULL;
	return plat_pci_bar_addr(pdev->sim, (unsigned)bar);
}

unsigned long pci_resource_flags(struct pci_dev *pdev, int bar)
{
	if (bar < 0 || bar >= PLAT_PCI_BARS || !pdev->sim->bar[bar].size)
		return 0;
	return pdev->sim->bar[bar].io ? IORESOURCE_IO : IORESOURCE_MEM;
}

unsigned long long pci_resource_len(struct pci_dev *pdev, int bar)
{
	if (bar < 0 || bar >= PLAT_PCI_BARS)
		return 0;
	return pdev->sim->bar[bar].size;
}

int pci_select_bars(struct pci_dev *pdev, unsigned long flags)
{
	int bars = 0;

	for (int i = 0; i < PCI_STD_NUM_BARS; i++)
		if (pci_resource_flags(pdev, i) & flags)
			bars |= 1 << i;
	return bars;
}

void pci_iounmap(struct pci_dev *pdev, void __iomem *addr)
{
	(void)pdev;
	(void)addr;
}

u64 kern_mmio_read(const volatile void __iomem *addr, unsigned size)
{
	u64 v;

	kern_charge(SIM_COST_mmio_read);
	if (plat_pci_mmio_read(addr, size, &v))
		kern->warn.other++;
	return v;
}

void kern_mmio_write(volatile void __iomem *addr, unsigned size, u64 val)
{
	kern_charge(SIM_COST_mmio_write);
	if (plat_pci_mmio_write(addr, size, val))
		kern->warn.other++;
	if (unlikely(kern->mmio_write_hook))
		kern->mmio_write_hook(kern->mmio_write_hook_arg, addr, size, val);
}

static void release_all(struct pci_dev *pdev)
{
	for (unsigned i = 0; i < pdev->nvec; i++) {
		struct kern_irq_desc *d = kern_irq_to_desc(pdev->vec_irq[i]);

		if (!d)
			continue;
		if (d->msix_entry >= 0) {
			plat_pci_msix_mask(pdev->sim, (unsigned)d->msix_entry, true);
			plat_pci_msix_bind(pdev->sim, (unsigned)d->msix_entry, NULL);
		}
		kern_irq_release(d);
	}
	pdev->nvec = 0;
	pdev->irq = 0;
	pdev->msix_enabled = pdev->msi_enabled = false;
	plat_pci_set_irq_mode(pdev->sim, PLAT_PCI_IRQ_NONE, NULL);
}

static int alloc_msix(struct pci_dev *pdev, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct kern_irq_desc *d = kern_irq_alloc(pdev, (int)i);

		if (!d) {
			release_all(pdev);
			return -ENOSPC;
		}
		pdev->vec_irq[i] = d->irq;
		pdev->nvec = i + 1;
		plat_pci_msix_bind(pdev->sim, i, &d->sim);
		plat_pci_msix_mask(pdev->sim, i, true);
	}
	pdev->msix_enabled = true;
	pdev->irq = pdev->vec_irq[0];
	plat_pci_set_irq_mode(pdev->sim, PLAT_PCI_IRQ_MSIX, NULL);
	return (int)n;
}

static int alloc_single(struct pci_dev *pdev, bool msi)
{
	struct kern_irq_desc *d = kern_irq_alloc(pdev, -1);

	if (!d)
		return -ENOSPC;
	pdev->vec_irq[0] = d->irq;
	pdev->nvec = 1;
	pdev->irq = d->irq;
	if (msi) {
		pdev->msi_enabled = true;
		plat_pci_set_irq_mode(pdev->sim, PLAT_PCI_IRQ_MSI, &d->sim);
	} else {
		plat_pci_set_irq_mode(pdev->sim, PLAT_PCI_IRQ_INTX, &d->sim);
		kern_irq_make_intx(d);
	}
	return 1;
}

int pci_alloc_irq_vectors(struct pci_dev *pdev, unsigned int min_vecs,
			  unsigned int max_vecs, unsigned int flags)
{
	if (!min_vecs || max_vecs < min_vecs || pdev->nvec ||
	    !(flags & PCI_IRQ_ALL_TYPES))
		return -EINVAL;
	if (flags & PCI_IRQ_MSIX && pdev->sim->msix_nvec) {
		unsigned avail = pdev->sim->msix_nvec;

		if (kern->fault.msix_avail >= 0 &&
		    (unsigned)kern->fault.msix_avail < avail)
			avail = (unsigned)kern->fault.msix_avail;
		if (avail >= min_vecs) {
			int rc = alloc_msix(pdev, max_vecs < avail ? max_vecs : avail);

			if (rc > 0)
				return rc;
		}
	}
	if (min_vecs > 1)
		return -ENOSPC;
	if (flags & PCI_IRQ_MSI && !kern->fault.msi_fail)
		return alloc_single(pdev, true);
	if (flags & PCI_IRQ_INTX)
		return alloc_single(pdev, false);
	return -ENOSPC;
}

void pci_free_irq_vectors(struct pci_dev *pdev)
{
	for (unsigned i = 0; i < pdev->nvec; i++) {
		struct kern_irq_desc *d = kern_irq_to_desc(pdev->vec_irq[i]);

		if (d && d->handler) {
			kern->warn.other++;
			pr_warn("%s: freeing vector %u with handler still installed\n",
				pdev->dev.name, i);
		}
	}
	release_all(pdev);
}

int pci_irq_vector(struct pci_dev *pdev, unsigned int nr)
{
	if (nr >= pdev->nvec)
		return -EINVAL;
	return (int)pdev->vec_irq[nr];
}

