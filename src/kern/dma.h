/* SPDX-License-Identifier: MIT */
/*
 * dma.h - the DMA API subset (Linux include/linux/dma-mapping.h).
 *
 * Coherent memory (rings) comes from dma_alloc_coherent(); buffers the
 * driver allocated itself are made device-visible with dma_map_single().
 * Both return bus addresses in the simulated host memory (sim_mem) that
 * device models read and write by address.  Mapping and sync calls cost
 * nothing here; drivers still make them where Linux requires.
 */
#ifndef RXSCALE_KERN_DMA_H
#define RXSCALE_KERN_DMA_H

#include "kern/kern.h"

typedef unsigned int gfp_t;
#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define __GFP_NOWARN 0x4u

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

static inline void dma_sync_single_for_cpu(struct device *dev, dma_addr_t a,
					   size_t size,
					   enum dma_data_direction dir)
{
	(void)dev; (void)a; (void)size; (void)dir;
}

static inline void dma_sync_single_for_device(struct device *dev,
					      dma_addr_t a, size_t size,
					      enum dma_data_direction dir)
{
	(void)dev; (void)a; (void)size; (void)dir;
}

static inline u32 lower_32_bits(u64 v)
{
	return (u32)v;
}

static inline u32 upper_32_bits(u64 v)
{
	return (u32)(v >> 32);
}

#endif /* RXSCALE_KERN_DMA_H */
