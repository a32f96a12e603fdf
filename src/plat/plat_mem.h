/* SPDX-License-Identifier: MIT */
/*
 * plat_mem.h - simulated host memory as a device sees it (DMA).
 *
 * Every DMA-visible buffer (a coherent allocation or a streaming mapping of
 * driver memory) gets a bus address.  Addresses are built from a slot index
 * and a generation, so a lookup is O(1), addresses are above 4 GiB (the
 * 64-bit descriptor halves are exercised) and a device that DMAs into a
 * buffer after it was freed and its slot reused hits a different generation
 * and is caught:
 *
 *   dma = 0x1_0000_0000 + ((gen << 18 | slot) << 24) + offset,
 *   offset < 16 MiB, slot < 2^18, gen < 4096.
 *
 * A device access outside any live buffer is a guest error: counted, the
 * message kept, never a crash (QEMU's LOG_GUEST_ERROR idea).
 */
#ifndef RXSCALE_PLAT_MEM_H
#define RXSCALE_PLAT_MEM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PLAT_MEM_MAX_LEN (16u << 20)     /* bytes per buffer */
#define PLAT_MEM_SLOTS 262144u        /* 2^SLOT_BITS: 256 RX rings of 256
					 * buffers fit (the what-if chip) */

struct plat_mem_region {
	void *cpu;              /* host pointer */
	size_t size;            /* bytes */
	uint16_t gen;           /* generation of the current use */
	bool used;
	bool owned;             /* coherent: freed by plat_mem_release */
	bool cpu_owns;          /* streaming map synced for the CPU */
	bool from_device;       /* streaming map the device may write */
};

struct plat_mem {
	struct plat_mem_region *r;
	unsigned n;                     /* slots ever used */
	unsigned cap;                   /* slots allocated */
	unsigned *free;                 /* LIFO of free slots */
	unsigned nfree;
	unsigned live;                  /* buffers currently allocated/mapped */
	uint64_t allocs, releases;      /* totals, for leak checks */
	uint64_t guest_errors;
	/* device writes into a streaming buffer the CPU owns (synced for the
	 * CPU and not given back with a sync for the device): a driver bug
	 * that corrupts data on non-coherent platforms, as QEMU logs guest
	 * errors */
	uint64_t owner_errors;
	/* index of streaming mappings by CPU address (open addressing:
	 * slot + 1, 0 = empty) for plat_mem_cpu_read() */
	uint32_t *by_cpu;
	unsigned by_cpu_cap, by_cpu_n;
	/* slot + 1 of the streaming mapping last synced for the CPU (0:
	 * none): the driver reads that buffer next, and plat_mem_cpu_read()
	 * finds it there without the probe (a cache miss per frame) */
	unsigned last_cpu_sync;
	char last_error[160];
};

void plat_mem_init(struct plat_mem *m);

/* Free every owned buffer and the tables. */
void plat_mem_fini(struct plat_mem *m);

/*
 * Allocate @size bytes (1..PLAT_MEM_MAX_LEN) of zeroed, 4096-byte aligned,
 * DMA-visible memory: host pointer in *@cpu, bus address in *@dma.
 * Returns 0, -EINVAL (bad size) or -ENOMEM.
 */
int plat_mem_alloc(struct plat_mem *m, size_t size, void **cpu, uint64_t *dma);

/* Make existing memory @cpu of @size bytes DMA-visible (streaming map).
 * Returns 0, -EINVAL or -ENOMEM. */
int plat_mem_map(struct plat_mem *m, void *cpu, size_t size, uint64_t *dma);

/*
 * The CPU is about to read @len bytes at @cpu, the start of a buffer.  If
 * that is a live streaming mapping the device may write (mapped from the
 * device) and the CPU does not own it (no dma_sync_single_for_cpu since
 * the mapping or the last sync for the device), the read may see stale
 * data on a non-coherent platform: returns -EPERM and sets last_error.
 * Returns 0 otherwise (not a mapping start, or owned by the CPU).
 */
int plat_mem_cpu_read(struct plat_mem *m, const void *cpu, size_t len);

/* Mark the streaming mapping at @dma as one the device writes
 * (DMA_FROM_DEVICE or bidirectional). */
void plat_mem_set_from_device(struct plat_mem *m, uint64_t dma);

/* End an allocation or mapping by the address it started at.  Returns 0,
 * or -EINVAL if @dma is not the start of a live buffer. */
int plat_mem_release(struct plat_mem *m, uint64_t dma);

/*
 * Host pointer for @len bytes at bus address @dma, or NULL (guest error
 * counted, message in last_error, tagged with @who) if the range is not
 * inside one live buffer.
 */
void *plat_mem_ptr(struct plat_mem *m, uint64_t dma, size_t len, const char *who);

/* The address layout above. */
#define PLAT_MEM_BASE 0x100000000ull
#define PLAT_MEM_OFF_BITS 24
#define PLAT_MEM_SLOT_BITS 18
#define PLAT_MEM_GEN_MASK 0xfffu

/* The live buffer of bus address @dma and the offset into it, or NULL.
 * Inline, with the accesses below: a frame's DMA touches host memory
 * about eight times (descriptor read and write-back, the frame, syncs). */
static inline struct plat_mem_region *plat_mem_region_of(const struct plat_mem *m,
							 uint64_t dma,
							 uint64_t *off)
{
	uint64_t x = dma - PLAT_MEM_BASE, slot, gen;

	if (dma < PLAT_MEM_BASE)
		return NULL;
	*off = x & ((1ull << PLAT_MEM_OFF_BITS) - 1);
	slot = (x >> PLAT_MEM_OFF_BITS) & ((1ull << PLAT_MEM_SLOT_BITS) - 1);
	gen = x >> (PLAT_MEM_OFF_BITS + PLAT_MEM_SLOT_BITS);
	if (slot >= m->n || gen > PLAT_MEM_GEN_MASK || !m->r[slot].used ||
	    m->r[slot].gen != gen)
		return NULL;
	return &m->r[slot];
}

/* The host pointer of @len bytes at @dma if they lie in one live buffer
 * (with the buffer in *@rp), else NULL; counts nothing. */
static inline void *plat_mem_find(const struct plat_mem *m, uint64_t dma,
				  size_t len, const struct plat_mem_region **rp)
{
	uint64_t off;
	const struct plat_mem_region *r = plat_mem_region_of(m, dma, &off);

	if (!r || len > r->size || off > r->size - len)
		return NULL;
	*rp = r;
	return (char *)r->cpu + off;
}

/* Out-of-line halves of the accesses below: the same checks, and the
 * guest error or owner error counted and explained. */
int plat_mem_read_slow(struct plat_mem *m, uint64_t dma, void *dst, size_t len,
		       const char *who);
void *plat_mem_write_ptr_slow(struct plat_mem *m, uint64_t dma, size_t len,
			      const char *who);

/* Device reads/writes; 0 or -EFAULT (guest error).  A write into a
 * streaming buffer the CPU owns still lands, and is counted in
 * owner_errors. */
static inline int plat_mem_read(struct plat_mem *m, uint64_t dma, void *dst,
				size_t len, const char *who)
{
	const struct plat_mem_region *r;
	void *p = plat_mem_find(m, dma, len, &r);

	if (!p)
		return plat_mem_read_slow(m, dma, dst, len, who);
	memcpy(dst, p, len);
	return 0;
}

/* Where a device write of @len bytes at @dma lands, for a device that
 * makes the bytes in place: the checks and counts of plat_mem_write(),
 * then the host pointer; NULL (guest error counted) if out of bounds. */
static inline void *plat_mem_write_ptr(struct plat_mem *m, uint64_t dma,
				       size_t len, const char *who)
{
	const struct plat_mem_region *r;
	void *p = plat_mem_find(m, dma, len, &r);

	if (!p || r->cpu_owns)
		return plat_mem_write_ptr_slow(m, dma, len, who);
	return p;
}

static inline int plat_mem_write(struct plat_mem *m, uint64_t dma,
				 const void *src, size_t len, const char *who)
{
	void *p = plat_mem_write_ptr(m, dma, len, who);

	if (!p)
		return -EFAULT;
	memcpy(p, src, len);
	return 0;
}

/*
 * Ownership of a streaming mapping (the DMA API's rule: after
 * dma_sync_single_for_cpu() the CPU owns the buffer until
 * dma_sync_single_for_device() or unmap).  @for_cpu true hands the mapping
 * that holds @dma to the CPU, false back to the device.  Returns 0, or
 * -EINVAL if @dma is not in a live streaming mapping.
 */
static inline int plat_mem_sync(struct plat_mem *m, uint64_t dma, bool for_cpu)
{
	uint64_t off;
	struct plat_mem_region *r = plat_mem_region_of(m, dma, &off);

	if (!r || r->owned)
		return -EINVAL;
	r->cpu_owns = for_cpu;
	if (for_cpu)
		m->last_cpu_sync = (unsigned)(r - m->r) + 1;
	return 0;
}

#endif /* RXSCALE_PLAT_MEM_H */
