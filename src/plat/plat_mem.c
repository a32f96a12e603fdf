// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_mem.h"

#define BASE PLAT_MEM_BASE
#define OFF_BITS PLAT_MEM_OFF_BITS
#define SLOT_BITS PLAT_MEM_SLOT_BITS
#define GEN_MASK PLAT_MEM_GEN_MASK

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
	free(m->by_cpu);
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
		   uint64_t *dma, unsigned *slotp)
{
	unsigned slot;
	struct plat_mem_region *r;

	if (get_slot(m, &slot))
		return -ENOMEM;
	if (slotp)
		*slotp = slot;
	r = &m->r[slot];
	r->gen = (uint16_t)((r->gen + 1) & GEN_MASK);
	r->cpu = cpu;
	r->size = size;
	r->used = true;
	r->owned = owned;
	r->cpu_owns = false;
	r->from_device = false;
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
	rc = install(m, p, size, true, dma, NULL);
	if (rc) {
		free(p);
		return rc;
	}
	*cpu = p;
	return 0;
}

static struct plat_mem_region *lookup(struct plat_mem *m, uint64_t dma,
				      uint64_t *off);

/* ----- streaming mappings by CPU address ----- */

static unsigned cpu_hash(const void *cpu, unsigned cap)
{
	uint64_t h = (uint64_t)(uintptr_t)cpu * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 32) & (cap - 1);
}

static int by_cpu_add(struct plat_mem *m, unsigned slot);

static int by_cpu_grow(struct plat_mem *m)
{
	uint32_t *old = m->by_cpu;
	unsigned ocap = m->by_cpu_cap, cap = ocap ? 2 * ocap : 1024;

	m->by_cpu = calloc(cap, sizeof(*m->by_cpu));
	if (!m->by_cpu) {
		m->by_cpu = old;
		return -ENOMEM;
	}
	m->by_cpu_cap = cap;
	m->by_cpu_n = 0;
	for (unsigned i = 0; i < ocap; i++)
		if (old[i])
			by_cpu_add(m, old[i] - 1);
	free(old);
	return 0;
}

static int by_cpu_add(struct plat_mem *m, unsigned slot)
{
	unsigned i;

	if (2 * (m->by_cpu_n + 1) > m->by_cpu_cap && by_cpu_grow(m))
		return -ENOMEM;
	for (i = cpu_hash(m->r[slot].cpu, m->by_cpu_cap); m->by_cpu[i];
	     i = (i + 1) & (m->by_cpu_cap - 1))
		;
	m->by_cpu[i] = slot + 1;
	m->by_cpu_n++;
	return 0;
}

/* Remove @slot, shifting later entries of its probe run back so that no
 * lookup stops early at the hole. */
static void by_cpu_del(struct plat_mem *m, unsigned slot)
{
	unsigned mask = m->by_cpu_cap - 1, i, j;

	if (!m->by_cpu_cap)
		return;
	for (i = cpu_hash(m->r[slot].cpu, m->by_cpu_cap); m->by_cpu[i] != slot + 1;
	     i = (i + 1) & mask)
		if (!m->by_cpu[i])
			return;
	m->by_cpu[i] = 0;
	m->by_cpu_n--;
	for (j = (i + 1) & mask; m->by_cpu[j]; j = (j + 1) & mask) {
		unsigned h = cpu_hash(m->r[m->by_cpu[j] - 1].cpu, m->by_cpu_cap);

		/* move j into the hole unless its home lies in (i, j] */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			m->by_cpu[i] = m->by_cpu[j];
			m->by_cpu[j] = 0;
			i = j;
		}
	}
}

int plat_mem_map(struct plat_mem *m, void *cpu, size_t size, uint64_t *dma)
{
	unsigned slot;
	int rc;

	if (!cpu || !size || size > PLAT_MEM_MAX_LEN)
		return -EINVAL;
	rc = install(m, cpu, size, false, dma, &slot);
	if (rc)
		return rc;
	if (by_cpu_add(m, slot)) {
		plat_mem_release(m, *dma);
		return -ENOMEM;
	}
	return 0;
}

void plat_mem_set_from_device(struct plat_mem *m, uint64_t dma)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (r && !r->owned)
		r->from_device = true;
}

int plat_mem_cpu_read(struct plat_mem *m, const void *cpu, size_t len)
{
	unsigned mask = m->by_cpu_cap - 1;

	/* the buffer synced last, owned by the CPU: what the probe below
	 * finds for it (a pointer mapped twice at once aside, itself a
	 * driver bug) */
	if (m->last_cpu_sync) {
		const struct plat_mem_region *r = &m->r[m->last_cpu_sync - 1];

		if (r->used && r->cpu == cpu && r->cpu_owns && !r->owned)
			return 0;
	}

	if (!m->by_cpu_cap)
		return 0;
	for (unsigned i = cpu_hash(cpu, m->by_cpu_cap); m->by_cpu[i]; i = (i + 1) & mask) {
		const struct plat_mem_region *r = &m->r[m->by_cpu[i] - 1];

		if (r->cpu != cpu)
			continue;
		if (!r->from_device || r->cpu_owns)
			return 0;
		snprintf(m->last_error, sizeof(m->last_error),
			 "CPU read of %zu bytes at a DMA buffer the device owns "
			 "(no dma_sync_single_for_cpu)", len);
		return -EPERM;
	}
	return 0;
}

/* Region of a bus address and the offset into it, or NULL. */
static struct plat_mem_region *lookup(struct plat_mem *m, uint64_t dma,
				     uint64_t *off)
{
	return plat_mem_region_of(m, dma, off);
}

int plat_mem_release(struct plat_mem *m, uint64_t dma)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (!r || off)
		return -EINVAL;
	if (r->owned)
		free(r->cpu);
	else
		by_cpu_del(m, (unsigned)(r - m->r));
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

int plat_mem_read_slow(struct plat_mem *m, uint64_t dma, void *dst, size_t len,
		       const char *who)
{
	void *p = plat_mem_ptr(m, dma, len, who);

	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

void *plat_mem_write_ptr_slow(struct plat_mem *m, uint64_t dma, size_t len,
			      const char *who)
{
	uint64_t off;
	struct plat_mem_region *r = lookup(m, dma, &off);

	if (!r || len > r->size || off > r->size - len)
		return plat_mem_ptr(m, dma, len, who); /* counts and says why */
	if (r->cpu_owns) {
		m->owner_errors++;
		snprintf(m->last_error, sizeof(m->last_error),
			 "%s: DMA write of %zu bytes at 0x%llx into a buffer the CPU "
			 "owns (synced for the CPU, not for the device)",
			 who ? who : "device", len, (unsigned long long)dma);
	}
	return (char *)r->cpu + off;
}
