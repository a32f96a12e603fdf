/* SPDX-License-Identifier: MIT */
/*
 * spinlock.h - spinlock_t (Linux include/linux/spinlock.h, subset).
 *
 * A real lock: one byte taken with an atomic test-and-set (acquire) and
 * released with a release store, so it excludes real threads too.  The
 * simulator runs everything on one thread and never preempts C code, so
 * a lock found held there can only be the caller's own: that deadlock is
 * reported and the program aborts instead of spinning forever.
 *
 * The _irqsave/_irq/_bh variants take the same lock; interrupts and
 * softirqs in the simulator are events that never interrupt running code,
 * so there is nothing to mask; @flags is set to 0.  Simulated cost: none.
 */
#ifndef RXSCALE_KERN_SPINLOCK_H
#define RXSCALE_KERN_SPINLOCK_H

#include <stdbool.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

typedef struct spinlock {
	unsigned char locked;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { 0 }
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

/* Set by the simulator (kern_init): one thread, so contention is a
 * self-deadlock.  Off, a contended lock spins as on SMP. */
extern bool kern_spin_single_thread;

/* Report a lock taken twice by one thread, then abort (kern.c). */
void kern_spin_deadlock(spinlock_t *lock) __attribute__((noreturn));

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	return !__atomic_test_and_set(&lock->locked, __ATOMIC_ACQUIRE);
}

static inline void spin_lock(spinlock_t *lock)
{
	while (!spin_trylock(lock)) {
		if (kern_spin_single_thread)
			kern_spin_deadlock(lock);
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			cpu_relax();
	}
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_clear(&lock->locked, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0;
}

#define spin_lock_bh(lock) spin_lock(lock)
#define spin_unlock_bh(lock) spin_unlock(lock)
#define spin_lock_irq(lock) spin_lock(lock)
#define spin_unlock_irq(lock) spin_unlock(lock)
#define spin_lock_irqsave(lock, flags) \
	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
	do { (void)(flags); spin_unlock(lock); } while (0)

#endif /* RXSCALE_KERN_SPINLOCK_H */
