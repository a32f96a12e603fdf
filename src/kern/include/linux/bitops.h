/* SPDX-License-Identifier: MIT */
/*
 * bitops.h - atomic bit operations on unsigned long bitmaps (Linux
 * include/linux/bitops.h, asm/bitops.h), and their non-atomic __
 * variants.
 *
 * As in Linux: set_bit/clear_bit/change_bit are atomic but order nothing
 * else (pair with smp_mb__before_atomic/after_atomic); test_and_set_bit and
 * test_and_clear_bit are atomic and fully ordered; test_bit is a plain
 * read.  Bit @nr may exceed BITS_PER_LONG: it indexes the array at @addr.
 * Simulated cost: none.
 */
#ifndef RXSCALE_KERN_BITOPS_H
#define RXSCALE_KERN_BITOPS_H

#include <stdbool.h>

#define BITS_PER_LONG ((int)(8 * sizeof(long)))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) &
		BIT_MASK(nr)) != 0;
}

/* Non-atomic: the caller excludes concurrent writers. */
static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#endif /* RXSCALE_KERN_BITOPS_H */
