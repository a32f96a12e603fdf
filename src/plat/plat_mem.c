// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_mem.h"

#define BASE 0x100000000ull
#define OFF_BITS 24
#define SLOT_BITS 16
#define GEN_MASK 0xfffu

void plat_mem_init(struct plat_mem *m)
{
	memset(m, 0, sizeof(*m));
}

void plat_mem_fini(struct plat_mem *m)
{
	for (unsigned i = 0; i < m->n; i++)
		if (m->r[i].used && m->r[i].owned)
			free(m->r[i].cpu);
	free(m->r);
	free(m->free);
	memset(m, 0, sizeof(*m));
}

static uint64_t addr_of(unsigned slot, unsigned gen)
{
	return BASE + ((((uint64_t)gen << SLOT_BITS) | slot) << OFF_BITS);
}

static int get_slot(struct plat_mem *m, unsigned *slot)
{
	if (m->nfree) {
		*slot = m->free[--m->nfree];
		return 0;
	}
	if (m->n == PLAT_MEM_SLOTS)
		return -ENOMEM;
	if (m->n == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 64;
		struct plat_mem_region *r = realloc(m->r, cap * sizeof(*r));
		unsigned *f;

		if (!r)
			return -ENOMEM;
		m->r = r;
		f = realloc(m->free, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		m->free = f;
		memset(&m->r[m->n], 0, (cap - m->n) * sizeof(*r));
		m->cap = cap;
	}
	*slot = m->n++;
	return 0;
}

static int install(struct plat_mem *m, void *cpu, size_t size, bool owned,
		   uint64_t *dma)
{
	unsigned slot;
	struct plat_mem_region *r;

	if (get_slot(m, &slot))
		return -ENOMEM;
	r = &m->r[slot];
	r->gen = (uint16_t)((r->gen + 1) & GEN_MASK);
	r->cpu = cpu;
	r->size = size;
	r->used = true;
	r->owned = owned;
	r->cpu_owns = false;
	m->live++;
	m->allocs++;
	*dma = addr_of(slot, r->gen);
	return 0;
}

int plat_mem_alloc(struct plat_mem *m, size_t size, void **cpu, uint64_t *dma)
{
	void *p;
	int rc;

	if (!size || size > PLAT_MEM_MAX_LEN)
		return -EINVAL;
	if (posix_memalign(&p, 4096, size))
		return -ENOMEM;
	memset(p, 0, size);
	rc = install(m, p, size, true, dma);
	if (rc) {
		free(p);
		return rc;
	}
	*cpu = p;
	return 0;
}

int plat_mem_map(struct plat_mem *m, void *cpu, size_t size, uint64_t *dma)
{
	if (!cpu || !size || size > PLAT_MEM_MAX_LEN)
		return -EINVAL;
	return install(m, cpu, size, false, dma);
}

/* Region of a bus address and the offset into it, or NULL. */
static struct plat_mem_region *lookup(struct plat_mem *m, uint64_t dma,
				     uint64_t *off)
{
	uint64_t x, slot, gen;

	if (dma < BASE)
		return NULL;
	x = dma - BASE;
	*off = x & ((1ull << OFF_BITS) - 1);
	slot = (x >> OFF_BITS) & ((1ull << SLOT_BITS) - 1);
	gen = x >> (OFF_BITS + SLOT_BITS);
	if (slot >= m->n || gen > GEN_MASK || !m->r[slot].used ||
	    m->r[slot].gen != gen)
		return NULL;
	return &m->r[slot];
}

int plat_mem_release(struct plat_mem *m, uint64_t dma)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (!r || off)
		return -EINVAL;
	if (r->owned)
		free(r->cpu);
	r->cpu = NULL;
	r->used = false;
	m->free[m->nfree++] = (unsigned)(r - m->r);
	m->live--;
	m->releases++;
	return 0;
}

void *plat_mem_ptr(struct plat_mem *m, uint64_t dma, size_t len, const char *who)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (!r || len > r->size || off > r->size - len) {
		m->guest_errors++;
		snprintf(m->last_error, sizeof(m->last_error),
			 "%s: DMA of %zu bytes at 0x%llx is outside any live buffer",
			 who ? who : "device", len, (unsigned long long)dma);
		return NULL;
	}
	return (char *)r->cpu + off;
}

int plat_mem_read(struct plat_mem *m, uint64_t dma, void *dst, size_t len,
		 const char *who)
{
	void *p = plat_mem_ptr(m, dma, len, who);

	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

int plat_mem_sync(struct plat_mem *m, uint64_t dma, bool for_cpu)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (!r || r->owned)
		return -EINVAL;
	r->cpu_owns = for_cpu;
	return 0;
}

int plat_mem_write(struct plat_mem *m, uint64_t dma, const void *src, size_t len,
		  const char *who)
{
	void *p = plat_mem_ptr(m, dma, len, who);
	uint64_t off;
	struct plat_mem_region *r;

	if (!p)
		return -EFAULT;
	r = lookup(m, dma, &off);
	if (r->cpu_owns) {
		m->owner_errors++;
		snprintf(m->last_error, sizeof(m->last_error),
			 "%s: DMA write of %zu bytes at 0x%llx into a buffer the CPU "
			 "owns (synced for the CPU, not for the device)",
			 who ? who : "device", len, (unsigned long long)dma);
	}
	memcpy(p, src, len);
	return 0;
}
