// SPDX-License-Identifier: MIT
/*
 * test_scenario.c - the scenario keys' table (src/bed/bed_scn_keys.c)
 * against the parser that reads it and the documentation printed from it:
 * every default shown is the one bed_scenario_default() sets, every
 * range shown is what the parser takes at its ends and refuses past
 * them, and the man page's SCENARIO KEYS block is what the table prints.
 * Scenario files: an error names the real line (a NUL byte included).
 *
 * "test-scenario --man" prints the man page's block; "test-scenario
 * --update docs/rxscale.1.scd" rewrites it there; "test-scenario PAGE"
 * runs the tests, comparing PAGE's block.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bed/bed_scenario.h"
#include "bed/bed_scn_keys.h"

#define MAN_BEGIN "; keys: generated from src/bed/bed_scn_keys.c by build/tests/test-scenario " \
		  "--update docs/rxscale.1.scd; do not edit\n"
#define MAN_END "; keys: end\n"

static const char *man_path;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, 4096, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* What the table prints for the man page, in a malloc'd string. */
static char *man_block(void)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	assert_non_null(f);
	bed_scn_keys_print(f, true);
	fclose(f);
	return text;
}

/* Every default the documentation shows as a value is the default: set
 * to it, a default scenario stays the same, byte for byte. */
static void test_defaults(void **state)
{
	struct bed_scenario def, t;
	unsigned values = 0;

	(void)state;
	bed_scenario_default(&def);
	assert_true(bed_scn_nkeys() > 50);
	for (unsigned i = 0; i < bed_scn_nkeys(); i++) {
		struct bed_scn_key_doc d;
		char set[700], err[600];

		bed_scn_key_doc(i, &d);
		assert_non_null(d.help);
		assert_true(d.help[0] && d.range[0] && d.def[0]);
		if (!d.def_is_value)
			continue;
		t = def;
		snprintf(set, sizeof(set), "%s=%s", d.name, d.def);
		if (bed_scenario_set(&t, set, err, sizeof(err)))
			fail_msg("%s: the documented default is refused: %s", set, err);
		if (memcmp(&t, &def, sizeof(t)))
			fail_msg("%s: the documented default is not the default", set);
		values++;
	}
	/* the notes are the few keys without a value for "nothing" */
	assert_true(values + 10 >= bed_scn_nkeys());
}

/* The number around ".." in @range, as text: [@a, @b). */
static bool range_ends(const char *range, char *lo, char *hi, size_t n)
{
	const char *dd = strstr(range, "..");
	const char *a, *b;

	if (!dd)
		return false;
	for (a = dd; a > range && strchr("0123456789.e", a[-1]); a--)
		;
	for (b = dd + 2; *b && strchr("0123456789.e", *b); b++)
		;
	if (a == dd || b == dd + 2 || (size_t)(dd - a) >= n || (size_t)(b - dd - 2) >= n)
		return false;
	snprintf(lo, n, "%.*s", (int)(dd - a), a);
	snprintf(hi, n, "%.*s", (int)(b - dd - 2), dd + 2);
	return true;
}

static int try_set(const char *name, const char *v)
{
	struct bed_scenario t;
	char set[200], err[600];

	bed_scenario_default(&t);
	snprintf(set, sizeof(set), "%s=%s", name, v);
	return bed_scenario_set(&t, set, err, sizeof(err));
}

/* Every "LO..HI" a key's documentation shows: both ends taken, one step
 * past either refused. */
static void test_ranges(void **state)
{
	unsigned checked = 0;

	(void)state;
	for (unsigned i = 0; i < bed_scn_nkeys(); i++) {
		struct bed_scn_key_doc d;
		char lo[40], hi[40], past[64];
		bool whole;

		bed_scn_key_doc(i, &d);
		if (!range_ends(d.range, lo, hi, sizeof(lo)))
			continue;
		/* timeline.at's range is of its first word */
		if (!strcmp(d.name, "timeline.at")) {
			char v[80];

			snprintf(v, sizeof(v), "%s -l eth0", hi);
			assert_int_equal(try_set(d.name, v), 0);
			snprintf(v, sizeof(v), "%s.5 -l eth0", hi);
			assert_int_not_equal(try_set(d.name, v), 0);
			continue;
		}
		if (try_set(d.name, lo) || try_set(d.name, hi))
			fail_msg("%s: an end of %s..%s is refused", d.name, lo, hi);
		whole = !strpbrk(lo, ".e") && !strpbrk(hi, ".e");
		if (whole) {
			unsigned long long h = strtoull(hi, NULL, 10), l = strtoull(lo, NULL, 10);

			if (h != ULLONG_MAX) {
				snprintf(past, sizeof(past), "%llu", h + 1);
				if (!try_set(d.name, past))
					fail_msg("%s: %s, past %s, is taken", d.name, past, hi);
			}
			/* below lo, unless -1 means something of its own */
			if (l > 0 && !strstr(d.range, "-1")) {
				snprintf(past, sizeof(past), "%llu", l - 1);
				if (!try_set(d.name, past))
					fail_msg("%s: %s, below %s, is taken", d.name, past, lo);
			}
		} else {
			snprintf(past, sizeof(past), "%.17g", strtod(hi, NULL) * 1.001 + 1);
			if (!try_set(d.name, past))
				fail_msg("%s: %s, past %s, is taken", d.name, past, hi);
			if (strtod(lo, NULL) > 0) {
				snprintf(past, sizeof(past), "%.17g", strtod(lo, NULL) / 2);
				if (!try_set(d.name, past))
					fail_msg("%s: %s, below %s, is taken", d.name, past, lo);
			}
		}
		checked++;
	}
	assert_true(checked > 30);
	/* a key the table does not have is refused, and says where to look */
	{
		struct bed_scenario t;
		char err[600];

		bed_scenario_default(&t);
		assert_int_not_equal(bed_scenario_set(&t, "nic.rx_queue=2", err, sizeof(err)), 0);
		assert_non_null(strstr(err, "--help-keys"));
	}
}

/* The man page's SCENARIO KEYS block is what the table prints. */
static void test_man_block(void **state)
{
	char *page, *want, *a, *b;
	size_t len;

	(void)state;
	if (!man_path)
		skip();
	page = slurp(man_path, &len);
	if (!page)
		fail_msg("cannot read %s", man_path);
	a = strstr(page, MAN_BEGIN);
	b = a ? strstr(a, MAN_END) : NULL;
	if (!a || !b)
		fail_msg("%s: no block between '%.20s...' and '%s'", man_path, MAN_BEGIN, MAN_END);
	a += strlen(MAN_BEGIN);
	want = man_block();
	if ((size_t)(b - a) != strlen(want) || memcmp(a, want, strlen(want)))
		fail_msg("%s: the scenario keys are stale: run build/tests/test-scenario "
			 "--update %s", man_path, man_path);
	free(want);
	free(page);
}

/* A scenario file's errors name the line they are on. */
static void test_file_lines(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		const char *line;
	} cases[] = {
		{ "\0[run]\n", 7, ":1: a NUL byte" },
		{ "[run]\nduration = 1\n\0", 20, ":3: a NUL byte" },
		{ "[run]\nseed = 1\x00" "2\n", 16, ":2: a NUL byte" },
		{ "[run]\nduration = 1\nbogus\n", 25, ":3: not a section" },
		{ "[run]\n\n[host]\ncpus = 0\n", 23, ":4: host.cpus" },
		{ "[run]\nduration = 1", 18, NULL },
	};
	char path[] = "/tmp/rxscale-test-scenario-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bed_scenario s;
		char err[700], want[400];
		FILE *f = fopen(path, "wb");
		int rc;

		assert_non_null(f);
		assert_int_equal(fwrite(cases[i].text, 1, cases[i].len, f), cases[i].len);
		fclose(f);
		bed_scenario_default(&s);
		rc = bed_scenario_load(&s, path, err, sizeof(err));
		if (!cases[i].line) {
			assert_int_equal(rc, 0);
			continue;
		}
		snprintf(want, sizeof(want), "%s%s", path, cases[i].line);
		if (rc == 0 || strncmp(err, want, strlen(want)))
			fail_msg("case %zu: '%s', want '%s...'", i, rc ? err : "(no error)", want);
	}
	unlink(path);
}

/* --update PAGE: put the table's block into PAGE between the markers. */
static int update(const char *path)
{
	char *page, *want, *a, *b, tmp[PATH_MAX];
	size_t len;
	FILE *f;

	page = slurp(path, &len);
	a = page ? strstr(page, MAN_BEGIN) : NULL;
	b = a ? strstr(a, MAN_END) : NULL;
	if (!a || !b) {
		fprintf(stderr, "test-scenario: %s: no generated block to update\n", path);
		return 1;
	}
	a += strlen(MAN_BEGIN);
	want = man_block();
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fwrite(page, 1, (size_t)(a - page), f) != (size_t)(a - page) ||
	    fputs(want, f) < 0 || fputs(b, f) < 0 || fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "test-scenario: cannot write %s\n", path);
		return 1;
	}
	free(want);
	free(page);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_man_block),
		cmocka_unit_test(test_file_lines),
	};

	if (argc > 1 && !strcmp(argv[1], "--man")) {
		bed_scn_keys_print(stdout, true);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "--update"))
		return update(argv[2]);
	if (argc > 1)
		man_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
