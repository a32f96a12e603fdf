// SPDX-License-Identifier: MIT
/*
 * devres.c - managed device resources (Linux drivers/base/devres.c,
 * re-implemented): a driver registers what it acquired in probe against
 * its struct device, and the driver core releases it all, newest first,
 * when probe fails or after remove returns.  Also the managed forms of
 * the PCI, DMA and netdev allocations the drivers use (pcim_*, dmam_*,
 * devm_alloc_etherdev_mqs), and the DMA mask.
 *
 * The bookkeeping is host memory and costs the simulated CPU nothing:
 * each managed call charges what its unmanaged form charges, no more (in
 * Linux the devres node is a small kmalloc on the probe path, outside any
 * datapath).
 */
#include <errno.h>
#include <stdlib.h>

#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#include "kern/kern.h"

struct kern_devres {
	struct kern_devres *next;       /* older entries */
	void (*action)(void *data);
	void *data;
};

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	struct kern_devres *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->action = action;
	r->data = data;
	r->next = dev->devres;
	dev->devres = r;
	return 0;
}

int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	int rc = devm_add_action(dev, action, data);

	if (rc)
		action(data);
	return rc;
}

void devres_release_all(struct device *dev)
{
	while (dev->devres) {
		struct kern_devres *r = dev->devres;

		dev->devres = r->next;
		r->action(r->data);
		free(r);
	}
}

/* ---- DMA ---- */

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	/* plat_mem hands out bus addresses above 4 GiB (from
	 * 0x1_0000_0000, plat_mem.h) and the simulated host has neither
	 * bounce buffers nor a DMA32 zone: only a 64-bit mask can be met
	 * (Linux would fall back to swiotlb; a driver asking for less here
	 * gets the error a host without it returns)
	 */
	if (mask != DMA_BIT_MASK(64))
		return -EIO;
	dev->dma_mask_val = mask;
	dev->coherent_dma_mask = mask;
	return 0;
}

struct dmam_coherent {
	struct device *dev;
	size_t size;
	void *vaddr;
	dma_addr_t dma;
};

static void dmam_release(void *data)
{
	struct dmam_coherent *m = data;

	dma_free_coherent(m->dev, m->size, m->vaddr, m->dma);
	free(m);
}

void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
			  gfp_t gfp)
{
	struct dmam_coherent *m = calloc(1, sizeof(*m));
	void *vaddr;

	if (!m)
		return NULL;
	vaddr = dma_alloc_coherent(dev, size, dma_handle, gfp);
	if (!vaddr) {
		free(m);
		return NULL;
	}
	*m = (struct dmam_coherent){ dev, size, vaddr, *dma_handle };
	if (devm_add_action_or_reset(dev, dmam_release, m))
		return NULL;
	return vaddr;
}

/* ---- PCI ---- */

static void pcim_disable(void *data)
{
	pci_disable_device(data);
}

int pcim_enable_device(struct pci_dev *pdev)
{
	int rc = pci_enable_device(pdev);

	if (rc)
		return rc;
	return devm_add_action_or_reset(&pdev->dev, pcim_disable, pdev);
}

struct pcim_map {
	struct pci_dev *pdev;
	void __iomem *addr;
};

static void pcim_unmap(void *data)
{
	struct pcim_map *m = data;

	pci_iounmap(m->pdev, m->addr);
	free(m);
}

void __iomem *pcim_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen)
{
	struct pcim_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pdev = pdev;
	m->addr = pci_iomap(pdev, bar, maxlen);
	if (!m->addr) {
		free(m);
		return NULL;
	}
	if (devm_add_action_or_reset(&pdev->dev, pcim_unmap, m))
		return NULL;
	return m->addr;
}

/* ---- netdev ---- */

static void devm_free_netdev(void *data)
{
	free_netdev(data);
}

struct net_device *devm_alloc_etherdev_mqs(struct device *dev, int sizeof_priv,
					   unsigned int txqs, unsigned int rxqs)
{
	struct net_device *ndev = alloc_etherdev_mqs(sizeof_priv, txqs, rxqs);

	if (!ndev)
		return NULL;
	if (devm_add_action_or_reset(dev, devm_free_netdev, ndev))
		return NULL;
	return ndev;
}
