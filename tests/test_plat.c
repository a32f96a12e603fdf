// SPDX-License-Identifier: MIT
/* test_plat.c - the platform devices: DMA memory. */
#include <errno.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
