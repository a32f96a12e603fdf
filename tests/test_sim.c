// SPDX-License-Identifier: MIT
/* test_sim.c - the event engine, PRNG streams and the cost model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "test_util.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_rng.h"

/* ----- engine ----- */

struct rec {
	struct sim_event ev;
	int id;
	int *log;
	int *n;
};

static void rec_fn(struct sim *s, struct sim_event *ev)
{
	struct rec *r = ev->arg;

	(void)s;
	r->log[(*r->n)++] = r->id;
}

static void test_ties_fifo(void **state)
{
	struct sim s;
	struct rec r[8];
	int log[8], n = 0;

	(void)state;
	sim_init(&s);
	/* Same time: insertion order; earlier time first regardless. */
	for (int i = 0; i < 8; i++) {
		r[i] = (struct rec){ .id = i, .log = log, .n = &n };
		sim_event_init(&r[i].ev, rec_fn, &r[i]);
	}
	sim_schedule_at(&s, &r[3].ev, 100);
	sim_schedule_at(&s, &r[1].ev, 100);
	sim_schedule_at(&s, &r[2].ev, 50);
	sim_schedule_at(&s, &r[0].ev, 100);
	sim_schedule_at(&s, &r[4].ev, 100);
	assert_int_equal(sim_pending(&s), 5);
	assert_int_equal(sim_run(&s), 5);
	int want[] = { 2, 3, 1, 0, 4 };
	assert_int_equal(n, 5);
	assert_memory_equal(log, want, sizeof(want));
	assert_int_equal(sim_now(&s), 100);
	sim_fini(&s);
}

static void test_cancel_and_move(void **state)
{
	struct sim s;
	struct rec r[4];
	int log[8], n = 0;

	(void)state;
	sim_init(&s);
	for (int i = 0; i < 4; i++) {
		r[i] = (struct rec){ .id = i, .log = log, .n = &n };
		sim_event_init(&r[i].ev, rec_fn, &r[i]);
		sim_schedule_at(&s, &r[i].ev, 10 * (uint64_t)(i + 1));
	}
	sim_cancel(&s, &r[1].ev);
	sim_cancel(&s, &r[1].ev);               /* idempotent */
	assert_false(sim_event_pending(&r[1].ev));
	sim_schedule_at(&s, &r[0].ev, 35);      /* move: old entry goes stale */
	assert_int_equal(sim_pending(&s), 3);
	/* run_until stops before later events and sets now */
	assert_int_equal(sim_run_until(&s, 34), 1);
	assert_int_equal(sim_now(&s), 34);
	assert_int_equal(sim_run(&s), 2);
	int want[] = { 2, 0, 3 };
	assert_int_equal(n, 3);
	assert_memory_equal(log, want, sizeof(want));
	/* past times are clamped to now and run after what is queued */
	sim_schedule_at(&s, &r[1].ev, 0);
	assert_int_equal(r[1].ev.time, sim_now(&s));
	sim_run(&s);
	assert_int_equal(log[3], 1);
	sim_fini(&s);
}

/* A self-rescheduling chain plus random cancels: determinism. */
struct chain {
	struct sim_event ev[64];
	struct sim_rng rng;
	uint64_t fired;
};

static void chain_fn(struct sim *s, struct sim_event *ev)
{
	struct chain *c = ev->arg;
	uint64_t r = sim_rng_u64(&c->rng);

	c->fired++;
	sim_trace_mix(s, r & 0xff);
	if (c->fired < 1000000)
		sim_schedule_in(s, ev, r % 1000);
	if ((r >> 20) % 7 == 0) {
		struct sim_event *o = &c->ev[(r >> 32) % 64];

		if (o != ev) {
			sim_cancel(s, o);
			sim_schedule_in(s, o, (r >> 40) % 500);
		}
	}
}

static uint64_t chain_run(uint64_t seed, uint64_t *executed)
{
	struct sim s;
	struct chain *c = calloc(1, sizeof(*c));

	sim_init(&s);
	sim_rng_init(&c->rng, seed, 1);
	for (int i = 0; i < 64; i++) {
		sim_event_init(&c->ev[i], chain_fn, c);
		sim_schedule_at(&s, &c->ev[i], (uint64_t)i);
	}
	sim_run(&s);
	*executed = s.executed;
	uint64_t h = s.trace;

	sim_fini(&s);
	free(c);
	return h;
}

static void test_determinism_1m(void **state)
{
	uint64_t n1, n2, n3;
	uint64_t a = chain_run(42, &n1);
	uint64_t b = chain_run(42, &n2);
	uint64_t c = chain_run(43, &n3);

	(void)state;
	assert_true(n1 >= 1000000);
	assert_int_equal(n1, n2);
	assert_int_equal(a, b);
	assert_int_not_equal(a, c);
}

/* Heap order against a sorted reference on random keys, with cancels. */
static void test_heap_vs_sort(void **state)
{
	enum { N = 20000 };
	struct sim s;
	struct rec *r = calloc(N, sizeof(*r));
	int *log = calloc(N, sizeof(int)), n = 0;
	uint64_t seed = 7;
	uint64_t *key = calloc(N, sizeof(*key));

	(void)state;
	sim_init(&s);
	for (int i = 0; i < N; i++) {
		r[i] = (struct rec){ .id = i, .log = log, .n = &n };
		sim_event_init(&r[i].ev, rec_fn, &r[i]);
		key[i] = tu_rand(&seed) % 5000;
		sim_schedule_at(&s, &r[i].ev, key[i]);
	}
	for (int i = 0; i < N; i += 3)
		sim_cancel(&s, &r[i].ev);
	sim_run(&s);
	/* expected: non-cancelled, by (key, index) */
	int m = 0;
	for (uint64_t t = 0; t < 5000; t++)
		for (int i = 0; i < N; i++)
			if (i % 3 && key[i] == t)
				assert_int_equal(log[m++], i);
	assert_int_equal(m, n);
	sim_fini(&s);
	free(r);
	free(log);
	free(key);
}

/* ----- PRNG ----- */

static void test_rng_streams(void **state)
{
	struct sim_rng a, b, c;
	uint64_t hist[10] = { 0 };

	(void)state;
	sim_rng_init(&a, 1, 5);
	sim_rng_init(&b, 1, 5);
	sim_rng_init(&c, 1, 6);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = sim_rng_u64(&a);

		assert_int_equal(x, sim_rng_u64(&b));
		assert_int_not_equal(x, sim_rng_u64(&c));
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = sim_rng_below(&a, 10);

		assert_true(v < 10);
		hist[v]++;
	}
	for (int i = 0; i < 10; i++)
		assert_true(hist[i] > 9500 && hist[i] < 10500);
	for (int i = 0; i < 1000; i++) {
		double u = sim_rng_unit(&a);

		assert_true(u >= 0.0 && u < 1.0);
	}
	assert_int_equal(sim_rng_stream_id("a"), 0xaf63dc4c8601ec8cull); /* FNV-1a */
}

/* ----- cost model ----- */

static void test_cost_parse(void **state)
{
	uint64_t ps;

	(void)state;
	assert_int_equal(sim_cost_parse_ns("120", &ps), 0);
	assert_int_equal(ps, 120000);
	assert_int_equal(sim_cost_parse_ns("0.085", &ps), 0);
	assert_int_equal(ps, 85);
	assert_int_equal(sim_cost_parse_ns("1.5", &ps), 0);
	assert_int_equal(ps, 1500);
	assert_int_equal(sim_cost_parse_ns("1000000000", &ps), 0);
	const char *bad[] = { "", ".", "1.", "-1", "1e3", "0.0001", "12ns",
			      "1000000001", " 1", "0x10" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sim_cost_parse_ns(bad[i], &ps), -EINVAL);
}

static void test_cost_default(void **state)
{
	struct sim_cost c;

	(void)state;
	sim_cost_load_default(&c);
	assert_string_equal(c.name, "default");
	for (int i = 0; i < SIM_COST_NR; i++)
		assert_string_not_equal(sim_cost_key(i), "?");
	assert_int_equal(c.ps[SIM_COST_mmio_read], 700000);
	assert_int_equal(c.ps[SIM_COST_copy_user_byte], 100);
}

/* Build a full preset text, optionally replacing/adding lines. */
static char *preset_text(const char *extra, const char *skip)
{
	size_t cap = 8192, len = 0;
	char *t = malloc(cap);

	len += (size_t)snprintf(t + len, cap - len,
				"[preset]\nname = t\n[cost]\n");
	for (int i = 0; i < SIM_COST_NR; i++) {
		if (skip && !strcmp(skip, sim_cost_key(i)))
			continue;
		len += (size_t)snprintf(t + len, cap - len, "%s = %d\n",
					sim_cost_key(i), i + 1);
	}
	if (extra)
		snprintf(t + len, cap - len, "%s", extra);
	return t;
}

static void test_cost_errors(void **state)
{
	struct sim_cost c, orig;
	char err[256];
	char *t;

	(void)state;
	sim_cost_load_default(&c);
	orig = c;

	t = preset_text(NULL, NULL);
	assert_int_equal(sim_cost_load_string(&c, t, "x.ini", err, sizeof(err)), 0);
	assert_int_equal(c.ps[SIM_COST_hardirq_entry], 1000);
	free(t);
	c = orig;

	/* unknown key: file and line named (line = 4 + SIM_COST_NR) */
	t = preset_text("bogus = 3\n", NULL);
	assert_int_equal(sim_cost_load_string(&c, t, "x.ini", err, sizeof(err)), -EINVAL);
	char want[128];
	snprintf(want, sizeof(want), "x.ini:%d: unknown cost 'bogus' in [cost]",
		 4 + SIM_COST_NR);
	assert_string_equal(err, want);
	assert_memory_equal(&c, &orig, sizeof(c));
	free(t);

	t = preset_text(NULL, "mmio_read");
	assert_int_equal(sim_cost_load_string(&c, t, "y.ini", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "y.ini: cost 'mmio_read' is missing"));
	free(t);

	t = preset_text("mmio_read = 5\n", NULL);
	assert_int_equal(sim_cost_load_string(&c, t, "z.ini", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "given twice"));
	free(t);

	t = preset_text("[other]\nx = 1\n", NULL);
	assert_int_equal(sim_cost_load_string(&c, t, "z.ini", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown section [other]"));
	free(t);

	/* [platform]: optional facts, each checked */
	t = preset_text("[platform]\ndram_latency_ns = 66.5\ncpuidle = adl\n", NULL);
	assert_int_equal(sim_cost_load_string(&c, t, "p.ini", err, sizeof(err)), 0);
	assert_int_equal(c.dram_latency_ps, 66500);
	assert_string_equal(c.cpuidle, "adl");
	free(t);
	c = orig;
	assert_int_equal(orig.dram_latency_ps, 0);      /* the default has none */
	assert_string_equal(orig.cpuidle, "");
	{
		static const char *const bad[][2] = {
			{ "[platform]\nsmt = 2\n", "unknown key 'smt' in [platform]" },
			{ "[platform]\ndram_latency_ns = slow\n", "dram_latency_ns: bad value 'slow'" },
			{ "[platform]\ncpuidle = c42\n", "cpuidle: no table 'c42' (none, adl, rk3588)" },
			{ "[platform]\ncpuidle = adl\ncpuidle = adl\n", "cpuidle given twice" },
		};

		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			t = preset_text(bad[i][0], NULL);
			assert_int_equal(sim_cost_load_string(&c, t, "p.ini", err, sizeof(err)),
					 -EINVAL);
			assert_non_null(strstr(err, bad[i][1]));
			assert_memory_equal(&c, &orig, sizeof(c));
			free(t);
		}
	}

	assert_int_equal(sim_cost_load_string(&c, "[cost]\nmmio_read = fast\n", "b.ini",
					      err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "b.ini:2: cost 'mmio_read': bad value 'fast' (want ns, e.g. 120 or 0.085)");
	assert_int_equal(sim_cost_load_string(&c, "[cost\n", "s.ini", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "s.ini:1: syntax error");
	assert_int_equal(sim_cost_load_file(&c, "/nonexistent/p.ini", err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/p.ini: "));
	assert_memory_equal(&c, &orig, sizeof(c));
}

static void test_cost_files(void **state)
{
	/* Every preset shipped in presets/ loads. */
	struct sim_cost c;
	char err[256], path[512];
	const char *dir = getenv("RXSCALE_PRESETS");

	(void)state;
	if (!dir)
		skip();
	snprintf(path, sizeof(path), "%s/default.ini", dir);
	assert_int_equal(sim_cost_load_file(&c, path, err, sizeof(err)), 0);
	struct sim_cost d;
	sim_cost_load_default(&d);
	assert_memory_equal(c.ps, d.ps, sizeof(c.ps));
	/* every other preset loads too, and says how it was calibrated */
	DIR *dp = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp))) {
		if (!strstr(e->d_name, ".ini"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (sim_cost_load_file(&c, path, err, sizeof(err)))
			fail_msg("%s", err);
		assert_true(strlen(c.calibration) > 10);
		n++;
	}
	closedir(dp);
	assert_true(n >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_fifo),
		cmocka_unit_test(test_cancel_and_move),
		cmocka_unit_test(test_determinism_1m),
		cmocka_unit_test(test_heap_vs_sort),
		cmocka_unit_test(test_rng_streams),
		cmocka_unit_test(test_cost_parse),
		cmocka_unit_test(test_cost_default),
		cmocka_unit_test(test_cost_errors),
		cmocka_unit_test(test_cost_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
