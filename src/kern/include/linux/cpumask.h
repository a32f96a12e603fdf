/* SPDX-License-Identifier: MIT */
/*
 * cpumask.h - CPU sets and the running CPU (Linux include/linux/cpumask.h
 * and smp.h).
 *
 * struct cpumask is a bitmap of NR_CPUS bits, as in Linux.  The CPUs are
 * the simulated host's: num_online_cpus() is its CPU count and
 * smp_processor_id() the CPU whose hardirq, softirq or task context is
 * running the caller (0 outside any).
 */
#ifndef RXSCALE_KERN_CPUMASK_H
#define RXSCALE_KERN_CPUMASK_H

#include <linux/bitops.h>
#include <linux/types.h>

#define NR_CPUS 256
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

static inline void cpumask_clear(struct cpumask *m)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		m->bits[i] = 0;
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	m->bits[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return cpu >= 0 && cpu < NR_CPUS &&
	       ((m->bits[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1);
}

/* Lowest CPU in @m, or NR_CPUS (>= nr_cpu_ids) if empty. */
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		if (m->bits[i])
			return i * BITS_PER_LONG + (unsigned int)__builtin_ctzl(m->bits[i]);
	return NR_CPUS;
}

/* The one-CPU mask of @cpu (a constant table in Linux). */
const struct cpumask *cpumask_of(unsigned int cpu);

unsigned int num_online_cpus(void);
unsigned int smp_processor_id(void);

/* The @i-th CPU to spread per-queue work on, near NUMA node @node (-1 =
 * any): the CPUs interrupts may target, round-robin. */
unsigned int cpumask_local_spread(unsigned int i, int node);

#endif /* RXSCALE_KERN_CPUMASK_H */
