// SPDX-License-Identifier: MIT
/*
 * test_smt.c - SMT siblings in the simulated host: a hardware thread runs
 * at SIM_SMT_SPEED_PPM while its sibling is busy, and wakeups look for a
 * wholly idle core first, then the previous CPU's idle sibling, as
 * select_idle_sibling() does (sim_sched.c).  Times are exact: every
 * preset cost is zeroed, the frames charge what the test says.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "sim/sim_host.h"

struct fx {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *h;
};

static void fx_init(struct fx *x, unsigned ncpus, unsigned smt)
{
	struct sim_host_params p;

	sim_init(&x->sim);
	sim_cost_load_default(&x->cost);
	memset(x->cost.ps, 0, sizeof(x->cost.ps));
	sim_host_params_default(&p, ncpus);
	p.smt = smt;
	x->h = sim_host_create(&x->sim, &x->cost, &p);
	assert_non_null(x->h);
}

static void fx_fini(struct fx *x)
{
	sim_host_destroy(x->h);
	sim_fini(&x->sim);
}

/* ----- the slower thread ----- */

struct work_irq {
	struct sim_irq irq;
	struct sim_event ev;
	struct sim_host *h;
	uint64_t ps;                    /* what the handler charges */
};

static void work_handler(struct sim_irq *irq, void *arg)
{
	struct work_irq *w = arg;

	(void)irq;
	sim_charge_ps(w->h, w->ps);
}

static void raise_fn(struct sim *s, struct sim_event *ev)
{
	(void)s;
	sim_irq_raise(ev->arg);
}

static void work_at(struct fx *x, struct work_irq *w, unsigned cpu, uint64_t ps,
		    sim_time_t at)
{
	w->h = x->h;
	w->ps = ps;
	sim_irq_init(x->h, &w->irq, "work", work_handler, w, cpu);
	sim_event_init(&w->ev, raise_fn, &w->irq);
	sim_schedule_at(&x->sim, &w->ev, at);
}

/* CPU 1's irq time for 100 us of work that starts at @t1 while CPU 0 works
 * 1 ms from 0 (@smt 2: the two are one core's threads). */
static uint64_t irq_ns_cpu1(unsigned smt, sim_time_t t1)
{
	struct fx x;
	struct work_irq a, b;
	struct sim_acct_sample s;

	fx_init(&x, 2, smt);
	work_at(&x, &a, 0, SIM_MS(1) * 1000u, 0);
	work_at(&x, &b, 1, SIM_US(100) * 1000u, t1);
	sim_run_until(&x.sim, SIM_MS(5));
	sim_host_sync(x.h);
	sim_host_acct(x.h, 1, &s);
	sim_irq_fini(&a.irq);
	sim_irq_fini(&b.irq);
	fx_fini(&x);
	return s.ns[SIM_ACCT_IRQ];
}

/* 100 us of work on a thread whose sibling is busy takes 100 / 0.65 =
 * 153.846 us; with the sibling idle (after 1 ms) or on a core of its own,
 * 100 us. */
static void test_smt_slowdown(void **state)
{
	(void)state;
	assert_int_equal(SIM_SMT_SPEED_PPM, 650000);
	assert_int_equal(irq_ns_cpu1(2, SIM_US(10)), 153846);
	assert_int_equal(irq_ns_cpu1(2, SIM_MS(2)), 100000);
	assert_int_equal(irq_ns_cpu1(1, SIM_US(10)), 100000);
	{
		struct fx x;

		fx_init(&x, 8, 2);
		assert_int_equal(sim_cpu_sibling(x.h, 0), 4);
		assert_int_equal(sim_cpu_sibling(x.h, 5), 1);
		fx_fini(&x);
		fx_init(&x, 8, 1);
		assert_int_equal(sim_cpu_sibling(x.h, 5), 5);
		fx_fini(&x);
	}
}

/* ----- idle selection ----- */

struct hog {
	struct sim_task t;
};

static enum sim_task_ret hog_run(struct sim_task *t, void *arg)
{
	(void)arg;
	sim_charge_usr_ps(t->host, SIM_MS(1) * 1000u);
	return SIM_TASK_RUNNABLE;
}

static enum sim_task_ret nap_run(struct sim_task *t, void *arg)
{
	(void)arg;
	sim_charge_usr_ps(t->host, SIM_US(10) * 1000u);
	return SIM_TASK_SLEEP;
}

struct waker {
	struct sim_event ev;
	struct sim_task *t;
	unsigned prev;
	unsigned got;                   /* where the wakeup put it */
};

static void waker_fn(struct sim *s, struct sim_event *ev)
{
	struct waker *w = (struct waker *)ev;

	(void)s;
	w->t->cpu = w->prev;
	sim_task_wake(w->t);
	w->got = w->t->cpu;
}

/* On 6 CPUs with @smt threads per core (cores {0,3}, {1,4}, {2,5}), CPU
 * hogs run on @busy (a mask), and a sleeper whose previous CPU is @prev
 * is woken twice, from outside any CPU, at 1 and 2 ms; where did each
 * wakeup put it? */
static void wake_twice(unsigned smt, unsigned busy, unsigned prev, unsigned got[2])
{
	struct fx x;
	struct hog hogs[6];
	struct sim_task sleeper;
	struct waker w[2];
	struct sim_cpuset all, one;

	fx_init(&x, 6, smt);
	sim_cpuset_first_n(&all, 6);
	for (unsigned c = 0; c < 6; c++) {
		if (!(busy >> c & 1))
			continue;
		sim_cpuset_zero(&one);
		sim_cpuset_set(&one, c);
		sim_task_init(x.h, &hogs[c].t, "hog", hog_run, NULL, &one);
		sim_task_wake(&hogs[c].t);
	}
	sim_task_init(x.h, &sleeper, "sleeper", nap_run, NULL, &all);
	for (unsigned i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].t = &sleeper;
		w[i].prev = prev;
		sim_event_init(&w[i].ev, waker_fn, &w[i]);
		sim_schedule_at(&x.sim, &w[i].ev, SIM_MS(1 + i));
	}
	sim_run_until(&x.sim, SIM_MS(3));
	got[0] = w[0].got;
	got[1] = w[1].got;
	sim_task_fini(&sleeper);
	for (unsigned c = 0; c < 6; c++)
		if (busy >> c & 1)
			sim_task_fini(&hogs[c].t);
	fx_fini(&x);
}

/*
 * Hogs on CPUs 0 and 4, prev 0 (busy): with SMT, select_idle_cpu() from
 * CPU 1 finds core {1,4} half busy and takes the wholly idle core {2,5}:
 * CPU 2; without SMT the first idle CPU after 0: CPU 1, beside a busy
 * thread.
 * Hogs on 0, 1 and 2 (one thread of every core busy), prev 1: the idle-
 * core hint, still set from boot, sends the first wakeup scanning; it
 * finds no idle core, falls back to the first idle thread it saw (CPU 5,
 * on the way from 2) and clears the hint; the second wakeup takes prev's
 * own sibling, CPU 4 (select_idle_smt()).  Without SMT: CPU 3 both times.
 */
static void test_smt_idle_core(void **state)
{
	unsigned got[2];

	(void)state;
	wake_twice(2, 1u << 0 | 1u << 4, 0, got);
	assert_int_equal(got[0], 2);
	assert_int_equal(got[1], 2);
	wake_twice(1, 1u << 0 | 1u << 4, 0, got);
	assert_int_equal(got[0], 1);
	wake_twice(2, 7, 1, got);
	assert_int_equal(got[0], 5);
	assert_int_equal(got[1], 4);
	wake_twice(1, 7, 1, got);
	assert_int_equal(got[0], 3);
	assert_int_equal(got[1], 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_slowdown),
		cmocka_unit_test(test_smt_idle_core),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
