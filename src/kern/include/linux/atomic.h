/* SPDX-License-Identifier: MIT */
/*
 * atomic.h - atomic_t (Linux include/linux/atomic.h, subset).
 *
 * Same semantics as Linux: atomic_read/atomic_set are plain (relaxed)
 * accesses; atomic_inc/dec/add/sub return nothing and order nothing;
 * the value-returning ones (atomic_inc_return, atomic_dec_and_test...)
 * are fully ordered.  Implemented with the compiler's __atomic builtins,
 * so they are correct with real threads.  Simulated cost: none.
 */
#ifndef RXSCALE_KERN_ATOMIC_H
#define RXSCALE_KERN_ATOMIC_H

#include <stdbool.h>

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	atomic_add(1, v);
}

static inline void atomic_dec(atomic_t *v)
{
	atomic_sub(1, v);
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_sub_return(int i, atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return atomic_add_return(1, v);
}

static inline int atomic_dec_return(atomic_t *v)
{
	return atomic_sub_return(1, v);
}

/* True when the decrement reached zero. */
static inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_sub_return(1, v) == 0;
}

static inline bool atomic_inc_and_test(atomic_t *v)
{
	return atomic_add_return(1, v) == 0;
}

#endif /* RXSCALE_KERN_ATOMIC_H */
