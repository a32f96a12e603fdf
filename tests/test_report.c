// SPDX-License-Identifier: MIT
/*
 * test_report.c - the report layer's number formats: iperf3's adaptive
 * units (src/units.c unit_snprintf in iperf3 3.12: 1024 steps for bytes,
 * 1000 for bits, "%4.2f" below 9.995, "%4.1f" below 99.95, else "%4.0f").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/report_iperf3.h"

static void expect_units(double v, bool bits, const char *want)
{
	char buf[32];

	rpt_iperf3_units(buf, sizeof(buf), v, bits);
	assert_string_equal(buf, want);
}

static void test_bytes(void **state)
{
	(void)state;
	expect_units(0, false, "0.00 Byte");
	expect_units(1023, false, "1023 Byte");
	expect_units(1024, false, "1.00 KByte");
	expect_units(9.994 * 1048576, false, "9.99 MByte");
	expect_units(9.995 * 1048576, false, "10.0 MByte");
	expect_units(99.94 * 1048576, false, "99.9 MByte");
	expect_units(99.95 * 1048576, false, " 100 MByte");
	expect_units(561.0 * 1048576, false, " 561 MByte");
	/* iperf3 moves up a unit only at 1024: "1002 MBytes" */
	expect_units(1002.0 * 1048576, false, "1002 MByte");
	expect_units(1.10 * 1073741824, false, "1.10 GByte");
	expect_units(3.0 * 1099511627776.0, false, "3.00 TByte");
}

static void test_bits(void **state)
{
	(void)state;
	/* bytes per second in, bits out */
	expect_units(1e9 / 8, true, "1.00 Gbit");
	expect_units(9.41e9 / 8, true, "9.41 Gbit");
	expect_units(100e6 / 8, true, " 100 Mbit");
	expect_units(99.9e6 / 8, true, "99.9 Mbit");
	/* 999.6 Mbit/s: four places, "1000", before the next unit at 1000 */
	expect_units(999.6e6 / 8, true, "1000 Mbit");
	expect_units(999.4e6 / 8, true, " 999 Mbit");
	expect_units(125, true, "1.00 Kbit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
