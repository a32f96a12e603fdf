// SPDX-License-Identifier: MIT
/*
 * test_hostvar.c - what makes a simulated host vary and wait like a real
 * one: Poisson cache-miss stalls drawn from each CPU's seeded stream, the
 * cpuidle tables, the menu-style governor and the exit latency an idle
 * CPU takes before it runs an interrupt; the devices' own oscillators.
 */
#include <math.h>
#include <stdlib.h>

#include "test_util.h"
#include "sim/sim_clock.h"
#include "sim/sim_host.h"
#include "sim/sim_idle.h"
#include "sim/sim_rng.h"

/* ----- Poisson counts ----- */

static void test_poisson_moments(void **state)
{
	struct sim_rng r;
	const double means[] = { 0.3, 2.6, 16, 40.5 };

	(void)state;
	sim_rng_init(&r, 7, 1);
	assert_int_equal(sim_rng_poisson(&r, 0), 0);
	assert_int_equal(sim_rng_poisson(&r, -1), 0);
	for (unsigned m = 0; m < sizeof(means) / sizeof(means[0]); m++) {
		double s = 0, s2 = 0;
		const int n = 200000;

		for (int i = 0; i < n; i++) {
			double x = (double)sim_rng_poisson(&r, means[m]);

			s += x;
			s2 += x * x;
		}
		/* a Poisson count's variance equals its mean */
		s /= n;
		s2 = s2 / n - s * s;
		assert_true(fabs(s - means[m]) < 0.02 * means[m] + 0.01);
		assert_true(fabs(s2 - means[m]) < 0.04 * means[m] + 0.01);
	}
}

/* ----- a host with idle states ----- */

struct hv {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *h;
	struct sim_irq irq;
	sim_time_t ran[64];
	unsigned nran;
	double misses;                  /* the handler charges these */
	uint64_t charged;
};

static void hv_handler(struct sim_irq *irq, void *arg)
{
	struct hv *v = arg;

	(void)irq;
	if (v->nran < 64)
		v->ran[v->nran++] = sim_now(&v->sim);
	if (v->misses > 0)
		v->charged += sim_charge_misses(v->h, v->misses);
}

static void raise_fn(struct sim *s, struct sim_event *ev)
{
	(void)s;
	sim_irq_raise(ev->arg);
}

/* A host of 2 CPUs; @smt 2 makes them one core's two threads, @pkg
 * false turns package C-states off. */
static struct hv *hv_new_topo(const char *idle, uint64_t seed, uint64_t dram_ps,
			      bool pkg, unsigned smt)
{
	struct hv *v = calloc(1, sizeof(*v));
	struct sim_host_params p;

	assert_non_null(v);
	sim_init(&v->sim);
	sim_cost_load_default(&v->cost);
	sim_host_params_default(&p, 2);
	p.pkg_cstates = pkg;
	p.smt = smt;
	p.seed = seed;
	p.dram_latency_ps = dram_ps;
	p.idle = idle ? sim_idle_table_find(idle) : NULL;
	v->h = sim_host_create(&v->sim, &v->cost, &p);
	assert_non_null(v->h);
	sim_irq_init(v->h, &v->irq, "t", hv_handler, v, 1);
	return v;
}

static struct hv *hv_new(const char *idle, uint64_t seed, uint64_t dram_ps)
{
	return hv_new_topo(idle, seed, dram_ps, true, 1);
}

static void hv_free(struct hv *v)
{
	sim_host_destroy(v->h);
	sim_fini(&v->sim);
	free(v);
}

/* Raise the irq at each of @n times @at (ns), run to @end. */
static void hv_raise_at(struct hv *v, const sim_time_t *at, unsigned n, sim_time_t end)
{
	struct sim_event *ev = calloc(n, sizeof(*ev));

	assert_non_null(ev);
	for (unsigned i = 0; i < n; i++) {
		sim_event_init(&ev[i], raise_fn, &v->irq);
		sim_schedule_at(&v->sim, &ev[i], at[i]);
	}
	sim_run_until(&v->sim, end);
	free(ev);
}

/* The tables are the kernel's figures. */
static void test_idle_tables(void **state)
{
	const struct sim_idle_table *adl = sim_idle_table_find("adl");
	const struct sim_idle_table *rk = sim_idle_table_find("rk3588");

	(void)state;
	assert_null(sim_idle_table_find("c10"));
	assert_non_null(adl);
	assert_int_equal(adl->n, 5);
	assert_string_equal(adl->s[4].name, "C10");
	assert_int_equal(adl->s[4].exit_latency_us, 680);
	assert_int_equal(adl->s[4].target_residency_us, 2000);
	assert_int_equal(adl->s[2].exit_latency_us, 220);
	assert_non_null(rk);
	/* DT entry 100 + exit 120, min-residency 1000 */
	assert_int_equal(rk->s[1].exit_latency_us, 220);
	assert_int_equal(rk->s[1].target_residency_us, 1000);
	/* the deepest state whose target residency fits the prediction */
	assert_int_equal(sim_idle_select(adl, 0), 0);
	assert_int_equal(sim_idle_select(adl, 4), 1);
	assert_int_equal(sim_idle_select(adl, 799), 2);
	assert_int_equal(sim_idle_select(adl, 800), 3);
	assert_int_equal(sim_idle_select(adl, 1999), 3);
	assert_int_equal(sim_idle_select(adl, 50000), 4);
}

/* menu.c's repeating-interval detector */
static void test_idle_typical(void **state)
{
	const uint32_t steady[8] = { 100, 110, 90, 100, 105, 95, 100, 100 };
	const uint32_t noisy_small[8] = { 10, 30, 20, 40, 10, 30, 20, 40 };
	const uint32_t two_outliers[8] = { 100, 100, 100, 100, 100, 100, 50000, 40000 };
	const uint32_t three_outliers[8] = { 100, 100, 100, 100, 100, 50000, 40000, 30000 };
	const uint32_t spread[8] = { 10, 1000, 20000, 300, 5000, 70, 45000, 2 };

	(void)state;
	assert_int_equal(sim_idle_typical_us(NULL, 0), UINT32_MAX);
	/* stddev below a sixth of the average */
	assert_int_equal(sim_idle_typical_us(steady, 8), 100);
	/* stddev <= 20 us, whatever the average */
	assert_int_equal(sim_idle_typical_us(noisy_small, 8), 25);
	/* up to two outliers above are dropped (6 of 8 left) ... */
	assert_int_equal(sim_idle_typical_us(two_outliers, 8), 100);
	/* ... a third is not */
	assert_int_equal(sim_idle_typical_us(three_outliers, 8), UINT32_MAX);
	assert_int_equal(sim_idle_typical_us(spread, 8), UINT32_MAX);
}

/* An interrupt on a CPU idle since boot waits for the deepest state's exit
 * latency (no history: a long prediction); without a table, not at all. */
static void test_idle_exit_latency(void **state)
{
	const sim_time_t at[] = { SIM_MS(100) };
	struct hv *v = hv_new("adl", 1, 0), *w = hv_new(NULL, 1, 0);

	(void)state;
	hv_raise_at(v, at, 1, SIM_MS(200));
	assert_int_equal(v->nran, 1);
	hv_raise_at(w, at, 1, SIM_MS(200));
	/* the handler sees the clock after hardirq_entry either way */
	assert_int_equal(w->ran[0], SIM_MS(100) + v->cost.ps[SIM_COST_hardirq_entry] / 1000);
	assert_int_equal(v->ran[0] - w->ran[0], SIM_US(680));
	hv_free(v);
	hv_free(w);
}

/* Interrupts every millisecond teach the governor short idle periods, so
 * it stops picking C10 (680 us) and some wake-ups come out of a shallower
 * state; left idle afterwards, the tick wakes the CPU every 4 ms with
 * nothing to do, each such wake-up counts as a long sleep, and within a
 * few ticks the CPU is in C10 again with the tick stopped. */
static void test_idle_tick_deepens(void **state)
{
	sim_time_t at[17], fastest = SIM_S(1);
	struct hv *v = hv_new("adl", 1, 0);
	sim_time_t entry = v->cost.ps[SIM_COST_hardirq_entry] / 1000;
	uint64_t usage[SIM_IDLE_MAX_STATES], ticks, exit_ns;

	(void)state;
	for (unsigned i = 0; i < 16; i++)
		at[i] = SIM_MS(10) + i * SIM_MS(1);
	at[16] = SIM_MS(500);
	hv_raise_at(v, at, 17, SIM_S(1));
	assert_int_equal(v->nran, 17);
	assert_int_equal(v->ran[0] - at[0] - entry, SIM_US(680));       /* from boot */
	for (unsigned i = 1; i < 16; i++)
		if (v->ran[i] - at[i] - entry < fastest)
			fastest = v->ran[i] - at[i] - entry;
	assert_true(fastest < SIM_US(680));
	/* after 0.47 s of quiet: C10 again */
	assert_int_equal(v->ran[16] - at[16] - entry, SIM_US(680));
	sim_host_idle(v->h, 1, usage, &ticks, &exit_ns);
	assert_true(ticks >= 1 && ticks <= 20);
	assert_true(usage[4] >= 2);
	hv_free(v);
}

static enum sim_task_ret task_run(struct sim_task *t, void *arg)
{
	sim_time_t *ran = arg;

	*ran = sim_now(t->host->sim);
	sim_charge(t->host, SIM_COST_task_switch, 1);
	return SIM_TASK_SLEEP;
}

static void wake_fn(struct sim *s, struct sim_event *ev)
{
	(void)s;
	sim_task_wake(ev->arg);
}

/* A task woken onto an idle CPU starts after the same exit latency. */
static void test_idle_task_wake(void **state)
{
	struct hv *v = hv_new("adl", 1, 0), *w = hv_new(NULL, 1, 0);
	struct hv *h[2] = { v, w };
	sim_time_t ran[2] = { 0, 0 };
	struct sim_task t[2];
	struct sim_event ev[2];
	struct sim_cpuset one;

	(void)state;
	sim_cpuset_zero(&one);
	sim_cpuset_set(&one, 1);
	for (int i = 0; i < 2; i++) {
		sim_task_init(h[i]->h, &t[i], "t", task_run, &ran[i], &one);
		sim_event_init(&ev[i], wake_fn, &t[i]);
		sim_schedule_at(&h[i]->sim, &ev[i], SIM_MS(50));
		sim_run_until(&h[i]->sim, SIM_MS(60));
		sim_task_fini(&t[i]);
	}
	assert_true(ran[1] >= SIM_MS(50) && ran[1] < SIM_MS(50) + SIM_US(20));
	assert_int_equal(ran[0] - ran[1], SIM_US(680));
	hv_free(v);
	hv_free(w);
}

/* CPU 0's interrupt handler: 1 ms of work. */
static void busy_handler(struct sim_irq *irq, void *arg)
{
	(void)irq;
	sim_charge_ps(arg, SIM_MS(1) * 1000u);
}

/* When did CPU 1's handler run after an interrupt at @t1, with CPU 0
 * idle until an interrupt at 100 ms that keeps it busy for 1 ms (after
 * its own wake-up)?  Relative to @t1 and the hardirq entry. */
static sim_time_t wake_after(bool pkg, unsigned smt, sim_time_t t1)
{
	struct hv *v = hv_new_topo("adl", 1, 0, pkg, smt);
	struct sim_irq busy;
	struct sim_event ev;
	sim_time_t entry = v->cost.ps[SIM_COST_hardirq_entry] / 1000, r;

	sim_irq_init(v->h, &busy, "busy", busy_handler, v->h, 0);
	sim_event_init(&ev, raise_fn, &busy);
	sim_schedule_at(&v->sim, &ev, SIM_MS(100));
	hv_raise_at(v, &t1, 1, SIM_MS(200));
	assert_int_equal(v->nran, 1);
	r = v->ran[0] - t1 - entry;
	sim_irq_fini(&busy);
	hv_free(v);
	return r;
}

/* Package C-states: both CPUs in C10 since boot, CPU 0 takes the package
 * out of PC10 (680 us) at 100 ms and runs 100.68 .. 101.68 ms.
 *  - CPU 1 woken at 101 ms, its package running: the core-level exit of
 *    C10, 70 us;
 *  - at 100.1 ms, during the package's wake-up: held to its end, 580 us;
 *  - at 150 ms, all idle again: the package's C10, 680 us;
 *  - without package C-states: the table's 680 us at 101 ms too;
 *  - CPU 1 as CPU 0's SMT sibling at 101 ms: its core runs, so only the
 *    thread wakes, C1E's 2 us (its handler then runs at SMT speed). */
static void test_pkg_cstates(void **state)
{
	(void)state;
	assert_int_equal(wake_after(true, 1, SIM_MS(101)), SIM_US(70));
	assert_int_equal(wake_after(true, 1, SIM_US(100100)), SIM_US(580));
	assert_int_equal(wake_after(true, 1, SIM_MS(150)), SIM_US(680));
	assert_int_equal(wake_after(false, 1, SIM_MS(101)), SIM_US(680));
	/* ... and its hardirq entry runs at the busy core's thread speed,
	 * 0.65: 300 / 0.65 = 461 ns instead of 300 */
	assert_int_equal(wake_after(true, 2, SIM_MS(101)), SIM_US(2) + 461 - 300);
	/* a 2-thread core needs an even CPU count */
	{
		struct sim sim;
		struct sim_cost cost;
		struct sim_host_params p;

		sim_init(&sim);
		sim_cost_load_default(&cost);
		sim_host_params_default(&p, 3);
		p.smt = 2;
		assert_null(sim_host_create(&sim, &cost, &p));
		sim_fini(&sim);
	}
}

/* Misses: Poisson counts from the running CPU's stream of the run's seed,
 * each the platform's DRAM latency; the same seed, the same draws. */
static void test_misses_seeded(void **state)
{
	sim_time_t at[40];
	struct hv *a = hv_new(NULL, 3, 90000), *b = hv_new(NULL, 3, 90000);
	struct hv *c = hv_new(NULL, 4, 90000), *z = hv_new(NULL, 3, 0);

	(void)state;
	for (unsigned i = 0; i < 40; i++)
		at[i] = SIM_US(100) * (i + 1);
	a->misses = b->misses = c->misses = z->misses = 5.0;
	hv_raise_at(a, at, 40, SIM_MS(10));
	hv_raise_at(b, at, 40, SIM_MS(10));
	hv_raise_at(c, at, 40, SIM_MS(10));
	hv_raise_at(z, at, 40, SIM_MS(10));
	assert_int_equal(a->charged, b->charged);
	assert_int_not_equal(a->charged, c->charged);
	assert_true(a->charged > 120 && a->charged < 280);      /* mean 200 */
	assert_int_equal(z->charged, 0);                        /* no latency: none */
	/* each miss took 90 ns of the CPU: irq time grew by that much */
	{
		struct sim_acct_sample sa, sz;

		sim_host_sync(a->h);
		sim_host_sync(z->h);
		sim_host_acct(a->h, 1, &sa);
		sim_host_acct(z->h, 1, &sz);
		assert_int_equal(sa.ns[SIM_ACCT_IRQ] - sz.ns[SIM_ACCT_IRQ], a->charged * 90);
	}
	hv_free(a);
	hv_free(b);
	hv_free(c);
	hv_free(z);
}

/* A device interval in host time: D x 10^9 / (10^9 + ppb), to the
 * nearest ps; 0 ppb is the identity.  The per-run offsets are drawn from
 * the seed within the bound, the same for the same seed and name. */
static void test_clock(void **state)
{
	struct sim_clock fast = { 300000 }, slow = { -100000 }, none = { 0 };
	int32_t lo = 0, hi = 0;

	(void)state;
	/* 40 us of an xHC 300 ppm fast: 40e6 / 1.0003 = 39988003.6 ps */
	assert_int_equal(sim_clock_ps(&fast, 40000000), 39988004);
	assert_int_equal(sim_clock_ns(&fast, 40000), 39988);
	/* 100 ppm slow: 40e6 / 0.9999 = 40004000.4 ps */
	assert_int_equal(sim_clock_ps(&slow, 40000000), 40004000);
	assert_int_equal(sim_clock_ns(&slow, 40000), 40004);
	assert_int_equal(sim_clock_ps(&none, 40000000), 40000000);
	assert_int_equal(sim_clock_ps(NULL, 123), 123);
	/* 4 ms of host ticks hold 100.03 periods of the fast IMOD: its
	 * phase to the tick moves 1.2 us per tick */
	assert_int_equal(4000000000ull - 100 * sim_clock_ps(&fast, 40000000), 1199600);
	assert_int_equal(sim_clock_draw(1, "xhci", 300, 1).ppb, 215505);
	assert_int_equal(sim_clock_draw(1, "xhci", 300, 1).ppb,
			 sim_clock_draw(1, "xhci", 300, 1).ppb);
	assert_int_equal(sim_clock_draw(1, "nic", 100, 1).ppb, -95497);
	assert_int_equal(sim_clock_draw(2, "xhci", 300, 1).ppb, -271876);
	assert_int_equal(sim_clock_draw(1, "xhci", 300, 0).ppb, 0);
	assert_int_equal(sim_clock_draw(1, "xhci", 0, 1).ppb, 0);
	for (uint64_t seed = 0; seed < 2000; seed++) {
		int32_t p = sim_clock_draw(seed, "peer", 100, 1).ppb;

		assert_true(p >= -100000 && p <= 100000);
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	/* the draws fill the band */
	assert_true(lo < -99000 && hi > 99000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poisson_moments),
		cmocka_unit_test(test_idle_tables),
		cmocka_unit_test(test_idle_typical),
		cmocka_unit_test(test_idle_exit_latency),
		cmocka_unit_test(test_idle_tick_deepens),
		cmocka_unit_test(test_idle_task_wake),
		cmocka_unit_test(test_misses_seeded),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_pkg_cstates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
