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

#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/types.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

struct kern_devres;

/* A device as the DMA API and the driver core see it. */
struct device {
	char name[32];                  /* "0000:01:00.0" */
	struct device *parent;          /* e.g. a netdev's bus device */
	/* managed resources (devres.c), newest first */
	struct kern_devres *devres;
	/* dma_set_mask_and_coherent(); 0 until set */
	u64 dma_mask_val, coherent_dma_mask;
};

/*
 * Managed resources (Linux drivers/base/devres.c): @action(@data) runs
 * when the driver core releases @dev's resources, newest first, after a
 * failed probe or after remove.  Returns 0 or -ENOMEM; the _or_reset form
 * runs @action at once when it cannot register it.
 */
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *),
			     void *data);

/* The n low bits set (include/linux/dma-mapping.h). */
#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

/*
 * The bus addresses @dev can reach, for streaming and coherent DMA.
 * Returns 0, or -EIO when the platform cannot keep its DMA within @mask:
 * simulated DMA memory lies above 4 GiB and there is no bounce buffering,
 * so only DMA_BIT_MASK(64) is met.
 */
int dma_set_mask_and_coherent(struct device *dev, u64 mask);

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

/* dma_alloc_coherent(), freed by the driver core with @dev's other
 * managed resources (dmam_alloc_coherent). */
void *dmam_alloc_coherent(struct device *dev, size_t size,
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
