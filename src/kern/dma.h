/* SPDX-License-Identifier: MIT */
/*
 * dma.h - the DMA API subset (Linux include/linux/dma-mapping.h).
 *
 * Coherent memory (rings) comes from dma_alloc_coherent(); buffers the
 * driver allocated itself are made device-visible with dma_map_single().
 * Both return bus addresses in host memory that device models read and
 * write by address.  The calls charge the running CPU what they cost on
 * the platform (dma_map, dma_sync rows of the cost model).
 */
#ifndef RXSCALE_KERN_DMA_H
#define RXSCALE_KERN_DMA_H

#include <errno.h>

#include "kern/types.h"
#include "kern/printk.h"
#include "kern/slab.h"

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

/* A device as the DMA API sees it. */
struct device {
	char name[32];                  /* "0000:01:00.0" */
	struct device *parent;          /* e.g. a netdev's bus device */
};

/* The device's name ("0000:01:00.0", "2-1:1.0"), Linux dev_name(). */
static inline const char *dev_name(const struct device *dev)
{
	return dev->name;
}

/*
 * Allocate @size bytes of zeroed coherent memory for @dev; the bus address
 * goes to *@dma_handle.  Returns the CPU address, or NULL (size 0 or over
 * 16 MiB, out of memory, or the dma_fail_nth fault knob).
 */
void *dma_alloc_coherent(struct device *dev, size_t size,
			 dma_addr_t *dma_handle, gfp_t gfp);

/* Free memory from dma_alloc_coherent(); @size and @dma_handle as
 * returned.  A bad handle is logged and counted (kern->warn.other). */
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle);

/* Map @size bytes at @ptr for the device.  Returns the bus address or
 * DMA_MAPPING_ERROR (check with dma_mapping_error()). */
dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir);

/* Unmap a dma_map_single() mapping. */
void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir);

static inline int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	(void)dev;
	return addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

/* Hand a streaming mapping to the CPU before it reads what the device
 * wrote, and back to the device before the device may write it again. */
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir);

static inline u32 lower_32_bits(u64 v)
{
	return (u32)v;
}

static inline u32 upper_32_bits(u64 v)
{
	return (u32)(v >> 32);
}

#endif /* RXSCALE_KERN_DMA_H */
