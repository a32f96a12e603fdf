/* SPDX-License-Identifier: MIT */
/*
 * bench_thash_gfni.c - the rte_thash_gfni() leg of bench-thash.
 *
 * Compiled alone with -mgfni -mavx512f -mavx512bw -mavx512vbmi (and VL/DQ,
 * which the DPDK inline code also uses), so any function here may execute
 * AVX-512 instructions: call none of them unless the CPU has been checked
 * (bench_thash.c does, with __builtin_cpu_supports).
 */
#include <stddef.h>
#include <stdint.h>

#include <rte_thash.h>

#include "rss/rss_toeplitz.h"

#ifndef RTE_THASH_GFNI_DEFINED
#error "rte_thash_gfni is not available with these compiler flags"
#endif

/* Shared with bench_thash.c (no header: these two files are one program). */
int bench_gfni_prepare(const uint8_t *key, size_t key_len);
uint32_t bench_gfni_hash(const uint8_t *data, size_t len);
void bench_gfni_run(const uint8_t *tuples, size_t stride, size_t n,
		    size_t len, uint64_t passes, volatile uint32_t *sink);

/* One 8x8 bit matrix per key byte (rte_thash_complete_matrix). */
static uint64_t gfni_mtrx[RSS_KEY_MAX] __attribute__((aligned(64)));

int bench_gfni_prepare(const uint8_t *key, size_t key_len)
{
	if (key_len < RSS_KEY_MIN || key_len > RSS_KEY_MAX)
		return -1;
	rte_thash_complete_matrix(gfni_mtrx, key, (int)key_len);
	return 0;
}

uint32_t bench_gfni_hash(const uint8_t *data, size_t len)
{
	return rte_thash_gfni(gfni_mtrx, data, (int)len);
}

void bench_gfni_run(const uint8_t *tuples, size_t stride, size_t n,
		    size_t len, uint64_t passes, volatile uint32_t *sink)
{
	uint64_t p;
	size_t i;

	for (p = 0; p < passes; p++) {
		uint32_t acc = 0;

		/* No hoisting of the (loop-invariant) pass. */
		__asm__ volatile("" ::: "memory");
		for (i = 0; i < n; i++)
			acc ^= rte_thash_gfni(gfni_mtrx, tuples + i * stride,
					      (int)len);
		*sink ^= acc;
	}
}
