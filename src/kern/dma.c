// SPDX-License-Identifier: MIT
#include <errno.h>

#include <linux/dma-mapping.h>
#include <linux/io.h>

#include "kern/kern.h"

/* True if the dma_fail_nth fault knob says this allocation fails. */
static bool fault_hit(unsigned *nth)
{
	if (!*nth || (kern->fault.dma_task_filter && !kern->fault.make_it_fail))
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
	kern_charge(SIM_COST_dma_map);
	return kern_dma_map(dev, ptr, size, dir);
}

/* Ownership moves for the whole mapping that holds @addr (Linux syncs a
 * range; drivers sync inside one mapping). */
static void dma_sync(struct device *dev, dma_addr_t addr, size_t size,
		     bool for_cpu, const char *what)
{
	kern_charge(SIM_COST_dma_sync);
	if (plat_mem_sync(&kern->mem, addr, for_cpu)) {
		kern->warn.other++;
		pr_err("%s: %s of %zu bytes at 0x%llx: not a streaming mapping\n",
		       dev ? dev->name : "?", what, size, (unsigned long long)addr);
	}
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	(void)dir;
	dma_sync(dev, addr, size, true, "dma_sync_single_for_cpu");
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	(void)dir;
	dma_sync(dev, addr, size, false, "dma_sync_single_for_device");
}

void kern_dma_rmb(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	kern_charge(SIM_COST_desc_read);
}

void kern_dma_wmb(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	kern_charge(SIM_COST_desc_write);
}

dma_addr_t kern_dma_map(struct device *dev, void *ptr, size_t size,
			enum dma_data_direction dir)
{
	u64 a;

	if (fault_hit(&kern->fault.dma_fail_nth))
		return DMA_MAPPING_ERROR;
	if (plat_mem_map(&kern->mem, ptr, size, &a)) {
		pr_err("%s: dma_map_single of %zu bytes failed\n",
		       dev ? dev->name : "?", size);
		return DMA_MAPPING_ERROR;
	}
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		plat_mem_set_from_device(&kern->mem, a);
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
