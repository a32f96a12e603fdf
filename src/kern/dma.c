// SPDX-License-Identifier: MIT
#include <errno.h>

#include "kern/dma.h"

/* True if the dma_fail_nth fault knob says this allocation fails. */
static bool fault_hit(unsigned *nth)
{
	if (!*nth)
		return false;
	return --*nth == 0;
}

void *dma_alloc_coherent(struct device *dev, size_t size,
			 dma_addr_t *dma_handle, gfp_t gfp)
{
	void *p;
	u64 a;

	(void)gfp;
	if (fault_hit(&kern->fault.dma_fail_nth))
		return NULL;
	if (plat_mem_alloc(&kern->mem, size, &p, &a)) {
		pr_err("%s: dma_alloc_coherent of %zu bytes failed\n",
		       dev ? dev->name : "?", size);
		return NULL;
	}
	kern->dma_live++;
	*dma_handle = a;
	return p;
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle)
{
	(void)cpu_addr;
	if (plat_mem_release(&kern->mem, dma_handle)) {
		kern->warn.other++;
		pr_err("%s: dma_free_coherent of %zu bytes at 0x%llx: not allocated\n",
		       dev ? dev->name : "?", size, (unsigned long long)dma_handle);
		return;
	}
	kern->dma_live--;
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir)
{
	u64 a;

	(void)dir;
	if (fault_hit(&kern->fault.dma_fail_nth))
		return DMA_MAPPING_ERROR;
	if (plat_mem_map(&kern->mem, ptr, size, &a)) {
		pr_err("%s: dma_map_single of %zu bytes failed\n",
		       dev ? dev->name : "?", size);
		return DMA_MAPPING_ERROR;
	}
	kern->dma_live++;
	return a;
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir)
{
	(void)dir;
	if (plat_mem_release(&kern->mem, addr)) {
		kern->warn.other++;
		pr_err("%s: dma_unmap_single of %zu bytes at 0x%llx: not mapped\n",
		       dev ? dev->name : "?", size, (unsigned long long)addr);
		return;
	}
	kern->dma_live--;
}
