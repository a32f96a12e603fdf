// SPDX-License-Identifier: MIT
/*
 * test_dim.c - the DIM library (src/kern/dim.c) and the system workqueue
 * (src/kern/workqueue.c) it queues its work on.
 *
 * A test consumer feeds net_dim() measurements with chosen rates: each
 * spans exactly DIM_NEVENTS events over a duration that sets the events
 * rate, with the bytes and packets that set the other two.  When net_dim()
 * picks a profile it queues the consumer's work item, which runs on CPU
 * 0's kworker when the engine runs; it records the profile and starts the
 * next measurement, as a driver's work function does.
 *
 * The expected profile paths are traced by hand from the rules in
 * src/kern/dim.h (the kernel's lib/dim): the tuner starts parked on top
 * at the default profile 1 with a zero reference, as drivers leave it
 * (ice_init_moderation, axienet: INIT_WORK, mode, profile_ix only).
 */
#include <stdlib.h>

#include <linux/dim.h>

#include "test_util.h"
#include "bed/bed_host.h"

struct fx {
	struct bed_host h;
	struct dim dim;
	u16 events;
	u64 pkts, bytes;
	unsigned applied;		/* work runs */
	int applied_ix[64];
};

static void work_fn(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct fx *f = dim->priv;

	assert_true(f->applied < ARRAY_SIZE(f->applied_ix));
	f->applied_ix[f->applied++] = dim->profile_ix;
	dim->state = DIM_START_MEASURE;
}

static struct fx *fx_new(void)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct sim_host_params p;

	assert_non_null(f);
	sim_host_params_default(&p, 2);
	assert_int_equal(bed_host_up(&f->h, &p, 1), 0);
	INIT_WORK(&f->dim.work, work_fn);
	f->dim.mode = DIM_CQ_PERIOD_MODE_START_FROM_EQE;
	f->dim.profile_ix = NET_DIM_DEF_PROFILE_EQE;
	f->dim.priv = f;
	return f;
}

static void fx_free(struct fx *f)
{
	bed_host_down(&f->h);
	free(f);
}

static void feed(struct fx *f)
{
	struct dim_sample s;

	dim_update_sample(f->events, f->pkts, f->bytes, &s);
	net_dim(&f->dim, &s);
}

/* Let @us microseconds pass (the kworker runs what is queued). */
static void pass(struct fx *f, u64 us)
{
	sim_run_until(&f->h.sim, f->h.sim.now + us * 1000);
}

/*
 * One measurement of DIM_NEVENTS events at @epms events, @ppms packets and
 * @bpms bytes per ms (epms divides 64000: the duration is whole us), then
 * the sample that ends it.  If that picks a profile, the work runs and
 * the next sample starts a new measurement.  Returns the profile after.
 */
static int measure(struct fx *f, u32 bpms, u32 ppms, u32 epms)
{
	u64 us = DIM_NEVENTS * 1000u / epms;

	assert_int_equal(DIM_NEVENTS * 1000u % epms, 0);
	if (f->dim.state == DIM_START_MEASURE)
		feed(f);
	pass(f, us);
	f->events = (u16)(f->events + DIM_NEVENTS);
	f->pkts += (u64)ppms * us / 1000;
	f->bytes += (u64)bpms * us / 1000;
	feed(f);
	if (f->dim.state == DIM_APPLY_NEW_PROFILE) {
		assert_true(work_pending(&f->dim.work));
		pass(f, 100);           /* the kworker runs the work */
		assert_false(work_pending(&f->dim.work));
		assert_int_equal(f->dim.state, DIM_START_MEASURE);
	}
	return f->dim.profile_ix;
}

/* ----- measurement ----- */

static void test_calc_stats(void **state)
{
	static const struct {
		u32 us, pkts0, pkts1, bytes0, bytes1;
		int ppms, bpms, epms;
	} c[] = {
		/* 900 packets of 1500 bytes in 1.5 ms */
		{ 1500, 0, 900, 0, 1350000, 600, 900000, 43 },
		/* rates round up: 10 packets in 3 ms is 3.33 -> 4 */
		{ 3000, 0, 10, 0, 10, 4, 4, 22 },
		/* 32-bit counters that wrapped */
		{ 1000, 0xffffff00u, 0x100, 0xfffff000u, 0x1000, 0x200, 0x2000, 64 },
		/* 40 MB in 16 ms: bytes x 1000 needs 64 bits */
		{ 16000, 0, 27000, 0, 40000000, 1688, 2500000, 4 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		struct dim_sample a = { .time = 5000, .pkt_ctr = c[i].pkts0,
					.byte_ctr = c[i].bytes0 };
		struct dim_sample b = { .time = 5000 + (ktime_t)c[i].us * 1000,
					.pkt_ctr = c[i].pkts1, .byte_ctr = c[i].bytes1 };
		struct dim_stats st;

		assert_true(dim_calc_stats(&a, &b, &st));
		assert_int_equal(st.ppms, c[i].ppms);
		assert_int_equal(st.bpms, c[i].bpms);
		/* 64 events whatever the counters say, rounded up */
		assert_int_equal(st.epms, c[i].epms);
	}
	/* under a microsecond apart: no rates, nothing written */
	{
		struct dim_sample a = { .time = 1000 }, b = { .time = 1999 };
		struct dim_stats st = { .ppms = -7 };

		assert_false(dim_calc_stats(&a, &b, &st));
		assert_int_equal(st.ppms, -7);
	}
}

static void test_profiles(void **state)
{
	static const u16 rx_eqe[] = { 1, 8, 64, 128, 256 };
	static const u16 rx_cqe[] = { 2, 8, 16, 32, 64 }, rx_cqe_pkts[] = { 256, 128, 64, 64, 64 };
	static const u16 tx_eqe[] = { 1, 8, 32, 64, 128 };
	static const u16 tx_cqe[] = { 5, 8, 16, 32, 64 }, tx_cqe_pkts[] = { 128, 64, 32, 32, 32 };

	(void)state;
	for (int i = 0; i < NET_DIM_PARAMS_NUM_PROFILES; i++) {
		struct dim_cq_moder m = net_dim_get_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE, i);

		assert_int_equal(m.usec, rx_eqe[i]);
		assert_int_equal(m.pkts, 256);
		assert_int_equal(m.cq_period_mode, DIM_CQ_PERIOD_MODE_START_FROM_EQE);
		m = net_dim_get_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_CQE, i);
		assert_int_equal(m.usec, rx_cqe[i]);
		assert_int_equal(m.pkts, rx_cqe_pkts[i]);
		assert_int_equal(m.cq_period_mode, DIM_CQ_PERIOD_MODE_START_FROM_CQE);
		m = net_dim_get_tx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE, i);
		assert_int_equal(m.usec, tx_eqe[i]);
		assert_int_equal(m.pkts, 128);
		m = net_dim_get_tx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_CQE, i);
		assert_int_equal(m.usec, tx_cqe[i]);
		assert_int_equal(m.pkts, tx_cqe_pkts[i]);
	}
	assert_int_equal(net_dim_get_def_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE).usec, 8);
	assert_int_equal(net_dim_get_def_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_CQE).usec, 8);
	assert_int_equal(net_dim_get_def_tx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_CQE).usec, 8);
	/* out of range: clamped, never read past the table */
	assert_int_equal(net_dim_get_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE, 9).usec, 256);
	assert_int_equal(net_dim_get_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE, -1).usec, 1);
}

/* A measurement needs DIM_NEVENTS events, counted modulo 2^16. */
static void test_needs_nevents(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	f->events = 65500;              /* wraps during the measurement */
	feed(f);
	assert_int_equal(f->dim.state, DIM_MEASURE_IN_PROGRESS);
	pass(f, 1000);
	f->events = (u16)(f->events + DIM_NEVENTS - 1);
	f->bytes += 1000000;
	f->pkts += 700;
	feed(f);
	/* 63 events: not yet a measurement */
	assert_int_equal(f->dim.tune_state, DIM_PARKING_ON_TOP);
	assert_int_equal(f->dim.prev_stats.bpms, 0);
	f->events++;
	feed(f);
	/* 64: compared with the zero reference, "better": leave the top
	 * towards profile 0 */
	assert_int_equal(f->dim.state, DIM_APPLY_NEW_PROFILE);
	assert_int_equal(f->dim.profile_ix, 0);
	assert_int_equal(f->dim.tune_state, DIM_GOING_LEFT);
	assert_int_equal(f->dim.prev_stats.bpms, 1000000);
	/* while the profile is being applied, samples are ignored */
	f->events += 200;
	feed(f);
	assert_int_equal(f->dim.state, DIM_APPLY_NEW_PROFILE);
	pass(f, 10);
	assert_int_equal(f->applied, 1);
	assert_int_equal(f->applied_ix[0], 0);
	fx_free(f);
}

/* The byte rate is compared first, and a zero reference decides at once:
 * no bytes then and now is "same", whatever the packets or events did
 * (e.g. a queue that only sees interrupts without data). */
static void test_zero_bytes_is_same(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(measure(f, 0, i ? 500 : 0, i ? 1000 : 4), 1);
	assert_int_equal(f->dim.tune_state, DIM_PARKING_ON_TOP);
	assert_int_equal(f->applied, 0);
	fx_free(f);
}

/* ----- decisions on rate sequences ----- */

/* Steady traffic at line rate; more moderation only lowers the events
 * rate (as a NIC's timer does): the tuner walks right to the last
 * profile and parks there for as long as nothing changes. */
static const u32 flat_epms[NET_DIM_PARAMS_NUM_PROFILES] = { 1000, 125, 16, 8, 4 };

static int flat_load(struct fx *f)
{
	return measure(f, 1200000, 800, flat_epms[f->dim.profile_ix]);
}

static void test_flat_load_walks_right(void **state)
{
	/* M1 vs zero: better -> left to 0; M2 events up: worse, turn right
	 * -> 1; M3..M5 fewer events: better -> 2, 3, 4; M6 better but on
	 * the edge: parked on top at 4; then the same measurement again */
	static const int path[] = { 0, 1, 2, 3, 4, 4, 4, 4, 4 };
	struct fx *f = fx_new();

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(path); i++)
		assert_int_equal(flat_load(f), path[i]);
	assert_int_equal(f->dim.tune_state, DIM_PARKING_ON_TOP);
	assert_int_equal(f->applied, 5);
	/* parked on top: the reference stays the measurement it parked on */
	assert_int_equal(f->dim.prev_stats.epms, 4);
	fx_free(f);
}

/* Rates that rise by 20 % every measurement: "better" each time. */
static void test_rising(void **state)
{
	/* M1 -> 0 (left); M2 better, left again: the edge, parked at 0;
	 * M3 differs from the parked reference: leave right -> 1; M4-M6
	 * better -> 2, 3, 4; M7: the edge, parked at 4 */
	static const int path[] = { 0, 0, 1, 2, 3, 4, 4 };
	struct fx *f = fx_new();
	double b = 100000;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(path); i++, b *= 1.2)
		assert_int_equal(measure(f, (u32)b, (u32)b / 1000, 100), path[i]);
	assert_int_equal(f->dim.tune_state, DIM_PARKING_ON_TOP);
	fx_free(f);
}

/* Rates that fall by 20 % every measurement: "worse" each time, so the
 * tuner turns at every step and swings between 0 and 1 until it has
 * taken 10 steps; tired, it parks for 10 measurements, then leaves
 * towards profile 0. */
static void test_falling_gets_tired(void **state)
{
	static const int path[] = {
		0, 1, 0, 1, 0, 1, 0, 1, 0, 1,   /* 10 steps */
		1,                              /* too tired: parked */
		1, 1, 1, 1, 1, 1, 1, 1, 1,      /* sitting out 10 measurements */
		0,                              /* the 10th: leaves, left */
	};
	struct fx *f = fx_new();
	double b = 1e6;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(path); i++, b *= 0.8) {
		assert_int_equal(measure(f, (u32)b, (u32)b / 1000, 100), path[i]);
		if (i == 10)
			assert_int_equal(f->dim.tune_state, DIM_PARKING_TIRED);
	}
	assert_int_equal(f->dim.tune_state, DIM_GOING_LEFT);
	assert_int_equal(f->applied, 11);
	fx_free(f);
}

/* While tired, even a large change does nothing. */
static void test_tired_ignores_traffic(void **state)
{
	struct fx *f = fx_new();
	double b = 1e6;

	(void)state;
	for (int i = 0; i < 11; i++, b *= 0.8)
		measure(f, (u32)b, (u32)b / 1000, 100);
	assert_int_equal(f->dim.tune_state, DIM_PARKING_TIRED);
	for (int i = 0; i < 9; i++) {
		u32 bpms = i % 2 ? 1000 : 5000000;

		assert_int_equal(measure(f, bpms, bpms / 1000 + 1, 100), 1);
		assert_int_equal(f->dim.tune_state, DIM_PARKING_TIRED);
	}
	assert_int_equal(f->applied, 10);
	fx_free(f);
}

/* Traffic that alternates between two rates: the tuner finds a top
 * (more than one step one way, exactly one back), parks, and leaves again
 * at the next change. */
static void test_oscillating(void **state)
{
	/* M1 1000 -> 0; M2 2000 better, edge: parked at 0; M3 1000 leaves
	 * right -> 1; M4 2000 better -> 2; M5 1000 worse, turn -> 1; M6 2000
	 * better after 2 right and 1 left: on top, parked at 1; M7 1000
	 * leaves left -> 0; M8 2000 better, edge: parked at 0; and again */
	static const int path[] = { 0, 0, 1, 2, 1, 1, 0, 0, 1, 2, 1, 1, 0, 0 };
	struct fx *f = fx_new();

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(path); i++) {
		u32 bpms = i % 2 ? 2000000 : 1000000;

		assert_int_equal(measure(f, bpms, bpms / 1000, 100), path[i]);
	}
	fx_free(f);
}

/* Flat traffic on which moderation has no effect (a ping: one event per
 * packet whatever the profile): after a load parked it at 4, the tuner
 * leaves the top when the rates fall, then swings between 3 and 4 until
 * tired -- it does not come back down to low moderation. */
static void test_load_then_idle_stays_high(void **state)
{
	static const int path[] = { 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 4, 4 };
	struct fx *f = fx_new();

	(void)state;
	for (int i = 0; i < 6; i++)
		flat_load(f);
	assert_int_equal(f->dim.profile_ix, 4);
	for (size_t i = 0; i < ARRAY_SIZE(path); i++)
		assert_int_equal(measure(f, 200, 2, 2), path[i]);
	assert_int_equal(f->dim.tune_state, DIM_PARKING_TIRED);
	fx_free(f);
}

/* ----- the workqueue ----- */

struct wctx {
	struct work_struct w;
	int runs;
	int cpu, ctx;
	bool requeue;
};

static void wfn(struct work_struct *w)
{
	struct wctx *c = container_of(w, struct wctx, w);

	c->runs++;
	c->cpu = sim_current_cpu(kern->host);
	c->ctx = sim_current_ctx(kern->host);
	if (c->requeue) {
		c->requeue = false;
		/* the pending bit is clear while the function runs */
		assert_true(schedule_work(w));
	}
}

/* A frame on CPU 1 that queues a work item, as a NAPI poll would. */
struct on_cpu {
	struct sim_irq irq;
	struct wctx *c;
	bool queued;
};

static void irq_queue(struct sim_irq *irq, void *arg)
{
	struct on_cpu *o = arg;

	(void)irq;
	o->queued = schedule_work(&o->c->w);
}

static void test_workqueue(void **state)
{
	struct fx *f = fx_new();
	struct wctx c = { 0 };
	struct on_cpu o = { .c = &c };
	struct sim_acct_sample a0, a1;

	(void)state;
	INIT_WORK(&c.w, wfn);
	assert_false(cancel_work_sync(&c.w));
	/* queued from CPU 1: runs on CPU 1's kworker, in task context */
	sim_irq_init(f->h.host, &o.irq, "q", irq_queue, &o, 1);
	sim_host_sync(f->h.host);
	sim_host_acct(f->h.host, 1, &a0);
	sim_irq_raise(&o.irq);
	pass(f, 50);
	assert_true(o.queued);
	assert_int_equal(c.runs, 1);
	assert_int_equal(c.cpu, 1);
	assert_int_equal(c.ctx, SIM_CTX_TASK);
	assert_null(kern_kworker(&f->h.k, 0));
	assert_non_null(kern_kworker(&f->h.k, 1));
	assert_string_equal(kern_kworker(&f->h.k, 1)->name, "kworker/1:1");
	assert_int_equal(kern_kworker_runs(&f->h.k, 1), 1);
	/* the item cost work_item, as %sys of the kworker */
	sim_host_sync(f->h.host);
	sim_host_acct(f->h.host, 1, &a1);
	assert_true(a1.ns[SIM_ACCT_SYS] - a0.ns[SIM_ACCT_SYS] >=
		    f->h.cost.ps[SIM_COST_work_item] / 1000);
	assert_int_equal(kern_kworker(&f->h.k, 1)->ns[SIM_ACCT_SYS],
			 a1.ns[SIM_ACCT_SYS] - a0.ns[SIM_ACCT_SYS]);

	/* pending once: a second schedule is a no-op; cancel takes it off */
	assert_true(schedule_work(&c.w));
	assert_false(schedule_work(&c.w));
	assert_true(work_pending(&c.w));
	assert_true(cancel_work_sync(&c.w));
	assert_false(work_pending(&c.w));
	pass(f, 50);
	assert_int_equal(c.runs, 1);

	/* a function may queue its own item again */
	c.requeue = true;
	assert_true(schedule_work(&c.w));
	pass(f, 50);
	assert_int_equal(c.runs, 3);
	assert_false(work_pending(&c.w));
	assert_int_equal(f->h.k.warn.other, 0);
	sim_irq_fini(&o.irq);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc_stats),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_needs_nevents),
		cmocka_unit_test(test_zero_bytes_is_same),
		cmocka_unit_test(test_flat_load_walks_right),
		cmocka_unit_test(test_rising),
		cmocka_unit_test(test_falling_gets_tired),
		cmocka_unit_test(test_tired_ignores_traffic),
		cmocka_unit_test(test_oscillating),
		cmocka_unit_test(test_load_then_idle_stays_high),
		cmocka_unit_test(test_workqueue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
