// SPDX-License-Identifier: MIT
/* test_plat.c - the platform devices: DMA memory. */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "plat/plat_mem.h"

static void test_mem(void **state)
{
	struct plat_mem m;
	void *p, *q;
	uint64_t a, b, c;
	char buf[16] = "hello";

	(void)state;
	plat_mem_init(&m);
	assert_int_equal(plat_mem_alloc(&m, 4096, &p, &a), 0);
	assert_true(a >= 0x100000000ull);
	assert_int_equal((uintptr_t)p % 4096, 0);
	assert_int_equal(plat_mem_write(&m, a + 4090, buf, 6, "t"), 0);
	assert_memory_equal((char *)p + 4090, "hello", 6);
	assert_int_equal(plat_mem_write(&m, a + 4091, buf, 6, "t"), -EFAULT);
	assert_int_equal(m.guest_errors, 1);
	assert_non_null(strstr(m.last_error, "outside any live buffer"));
	assert_int_equal(plat_mem_alloc(&m, 0, &q, &b), -EINVAL);
	assert_int_equal(plat_mem_alloc(&m, PLAT_MEM_MAX_LEN + 1, &q, &b), -EINVAL);
	assert_int_equal(plat_mem_map(&m, buf, sizeof(buf), &b), 0);
	assert_int_equal(plat_mem_read(&m, b, buf + 8, 5, "t"), 0);
	assert_int_equal(m.live, 2);
	/* release, reuse the slot: the stale address is caught */
	assert_int_equal(plat_mem_release(&m, a + 1), -EINVAL);
	assert_int_equal(plat_mem_release(&m, a), 0);
	assert_int_equal(plat_mem_alloc(&m, 64, &q, &c), 0);
	assert_int_not_equal(c, a);
	assert_null(plat_mem_ptr(&m, a, 1, "t"));
	assert_non_null(plat_mem_ptr(&m, c, 64, "t"));
	assert_null(plat_mem_ptr(&m, 0x1000, 1, "t"));
	assert_int_equal(plat_mem_release(&m, b), 0);
	assert_int_equal(plat_mem_release(&m, c), 0);
	assert_int_equal(m.live, 0);
	assert_int_equal(m.allocs, m.releases);
	plat_mem_fini(&m);
}

/* DMA API ownership of streaming mappings: a device write into a buffer
 * the CPU owns, and a CPU read of a device-written buffer not synced for
 * the CPU, are both caught; the CPU-address index survives thousands of
 * maps and unmaps in scrambled order (its deletion keeps probe runs). */
static void test_mem_ownership(void **state)
{
	enum { N = 3000 };
	static char bufs[N][32];
	static uint64_t dma[N];
	static bool live[N];
	struct plat_mem m;
	uint32_t x = 12345;

	(void)state;
	plat_mem_init(&m);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(plat_mem_map(&m, bufs[i], sizeof(bufs[i]), &dma[i]), 0);
		if (i % 2)
			plat_mem_set_from_device(&m, dma[i]);
		live[i] = true;
	}
	/* device-owned after the map: reads of device-written buffers are
	 * flagged, of CPU-to-device ones not */
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), i % 2 ? -EPERM : 0);
	assert_int_equal(plat_mem_cpu_read(&m, bufs[1] + 1, 8), 0);	/* not a start */
	/* unmap two thirds in a scrambled order */
	for (unsigned k = 0; k < 2 * N; k++) {
		unsigned i;

		x = x * 1103515245u + 12345u;
		i = (x >> 8) % N;
		if (!live[i])
			continue;
		assert_int_equal(plat_mem_release(&m, dma[i]), 0);
		live[i] = false;
	}
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8),
				 live[i] && i % 2 ? -EPERM : 0);
	/* sync for the CPU: reads are fine, device writes are not */
	for (unsigned i = 1; i < N; i += 2) {
		if (!live[i])
			continue;
		assert_int_equal(plat_mem_sync(&m, dma[i], true), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), 0);
		assert_int_equal(plat_mem_write(&m, dma[i], "x", 1, "t"), 0);
		assert_int_equal(plat_mem_sync(&m, dma[i], false), 0);
		assert_int_equal(plat_mem_write(&m, dma[i], "x", 1, "t"), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), -EPERM);
		break;
	}
	assert_int_equal(m.owner_errors, 1);
	assert_int_equal(plat_mem_sync(&m, 0x1000, true), -EINVAL);
	for (unsigned i = 0; i < N; i++)
		if (live[i])
			assert_int_equal(plat_mem_release(&m, dma[i]), 0);
	assert_int_equal(m.by_cpu_n, 0);
	plat_mem_fini(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_mem_ownership),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
