/* SPDX-License-Identifier: MIT */
/*
 * io.h - MMIO accessors and DMA barriers (Linux asm/io.h, asm/barrier.h).
 *
 * readX/writeX go through the platform to the device model that owns the
 * BAR (plat_pci_mmio_*), charging the mmio_read/mmio_write costs to the
 * running CPU.  A read is non-posted (the CPU waits a PCIe round trip); a
 * write is posted.  An access outside any BAR reads all ones and is
 * counted (kern->warn.other), as a real bus would master-abort.
 *
 * dma_rmb()/dma_wmb() order CPU accesses to coherent memory against the
 * device (kern/barrier.h: real fences, correct with real threads; the
 * simulator runs the driver and the model in one thread, so the ordering
 * they give is reviewed, not simulated).
 */
#ifndef RXSCALE_KERN_IO_H
#define RXSCALE_KERN_IO_H

#include <linux/types.h>

/* mb/rmb/wmb, smp_*, dma_rmb/dma_wmb: kern/barrier.h */
#include <asm/barrier.h>

u64 kern_mmio_read(const volatile void __iomem *addr, unsigned size);
void kern_mmio_write(volatile void __iomem *addr, unsigned size, u64 val);

static inline u8 readb(const volatile void __iomem *addr)
{
	return (u8)kern_mmio_read(addr, 1);
}

static inline u16 readw(const volatile void __iomem *addr)
{
	return (u16)kern_mmio_read(addr, 2);
}

static inline u32 readl(const volatile void __iomem *addr)
{
	return (u32)kern_mmio_read(addr, 4);
}

static inline u64 readq(const volatile void __iomem *addr)
{
	return kern_mmio_read(addr, 8);
}

static inline void writeb(u8 v, volatile void __iomem *addr)
{
	kern_mmio_write(addr, 1, v);
}

static inline void writew(u16 v, volatile void __iomem *addr)
{
	kern_mmio_write(addr, 2, v);
}

static inline void writel(u32 v, volatile void __iomem *addr)
{
	kern_mmio_write(addr, 4, v);
}

static inline void writeq(u64 v, volatile void __iomem *addr)
{
	kern_mmio_write(addr, 8, v);
}

#endif /* RXSCALE_KERN_IO_H */
