/* SPDX-License-Identifier: MIT */
/*
 * barrier.h - memory barriers with Linux's names (asm/barrier.h).
 *
 * They are real fences (C11 atomic thread fences), so code that uses them
 * is correct with real threads, not only in the single-threaded simulator:
 *  - mb()/smp_mb(): full fence, loads and stores on both sides ordered;
 *  - rmb()/smp_rmb()/dma_rmb(): earlier loads before later loads (an
 *    acquire fence, which is at least that);
 *  - wmb()/smp_wmb()/dma_wmb(): earlier stores before later stores (a
 *    release fence, at least that).
 * The device "DMA" in the simulator is another piece of code in the same
 * address space, so the dma_* variants need nothing stronger.  On x86-64
 * the acquire and release fences cost no instruction (TSO); the full
 * fence is an mfence-class instruction.  Simulated cost: none, except
 * dma_rmb()/dma_wmb() (below).
 */
#ifndef RXSCALE_KERN_BARRIER_H
#define RXSCALE_KERN_BARRIER_H

#define barrier() __asm__ __volatile__("" ::: "memory")

#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb() mb()
#define smp_rmb() rmb()
#define smp_wmb() wmb()
/* dma_rmb()/dma_wmb() are fences too (see kern/dma.c), and each marks
 * one descriptor handed between CPU and device, which the platform
 * charges (desc_read and desc_write rows of the cost model): drivers
 * cost what their descriptor hand-offs cost. */
void kern_dma_rmb(void);
void kern_dma_wmb(void);
#define dma_rmb() kern_dma_rmb()
#define dma_wmb() kern_dma_wmb()
/* Around the atomic bit operations (kern/bitops.h), which are relaxed
 * like Linux's non-value-returning atomics. */
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()

#endif /* RXSCALE_KERN_BARRIER_H */
