// SPDX-License-Identifier: MIT
/*
 * sim_sched.c - the task scheduler: run queues with Linux's EEVDF rules
 * for nice-0 tasks, wakeup placement as select_task_rq_fair() does it,
 * active balancing off CPUs whose capacity interrupts take, and running
 * one task chunk as a frame.
 *
 * Facts from kernel/sched/fair.c (Linux 6.6 and later, EEVDF), all tasks
 * nice 0 so that virtual time is CPU time:
 *  - V, avg_vruntime(): the mean vruntime of the run queue's entities,
 *    the running one included; an entity is eligible when its vruntime is
 *    not after V (entity_eligible()); on an empty queue V is the queue's
 *    floor (min_vruntime);
 *  - its virtual deadline is vruntime + base slice, set when it is placed
 *    and again each time it runs past it (update_deadline(), which then
 *    asks for a reschedule);
 *  - pick_eevdf(): the eligible entity with the earliest deadline; with
 *    RUN_TO_PARITY the running entity keeps the CPU while it is eligible
 *    and has not yet reached the deadline it had when picked;
 *  - a wakeup preempts the running task when pick_eevdf() would now pick
 *    the woken one (check_preempt_wakeup_fair()); an idle CPU is always
 *    preempted;
 *  - a sleeping entity keeps its lag, V - vruntime, clamped to
 *    max(2 x slice, one tick) (update_entity_lag()); at wakeup it is
 *    placed at V - lag x (n + 1) / n with n entities queued, or at V on an
 *    empty queue (place_entity(), PLACE_LAG);
 *  - base slice: sysctl_sched_base_slice 0.75 ms x (1 + ilog2(min(ncpus,
 *    8))) (update_sysctl(), SCHED_TUNABLESCALING_LOG).
 * Not modelled: DELAY_DEQUEUE (6.12: a sleeper with negative lag stays
 * queued until eligible), nice levels, cgroups.  SMT: the idle-core
 * search of select_idle_sibling() (below) and the sibling first in the
 * idle pull.
 *
 * Preemption takes effect at frame boundaries: a task chunk or a
 * ksoftirqd step runs to its end.
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim_host_priv.h"

/* sd->imbalance_pct of the LLC (MC) domain: 117 (sd_init()) */
#define IMBALANCE_PCT 117

sim_time_t sim_sched_base_slice(unsigned ncpus)
{
	unsigned n = ncpus < 8 ? ncpus : 8, log = 0;

	while (n >>= 1)
		log++;
	return SIM_US(750) * (1 + log);
}

static void rq_add(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task **pp = &c->rq_head;

	while (*pp)
		pp = &(*pp)->rq_next;   /* FIFO order breaks deadline ties */
	t->rq_next = NULL;
	*pp = t;
	c->nr_queued++;
	c->h->nr_queued_all++;
	t->state = SIM_TASK_QUEUED;
	t->cpu = c->id;
}

static void rq_del(struct sim_cpu *c, struct sim_task *t)
{
	for (struct sim_task **pp = &c->rq_head; *pp; pp = &(*pp)->rq_next) {
		if (*pp == t) {
			*pp = t->rq_next;
			t->rq_next = NULL;
			c->nr_queued--;
			c->h->nr_queued_all--;
			return;
		}
	}
}

static unsigned nr_running(const struct sim_cpu *c)
{
	return c->nr_queued + (c->curr ? 1u : 0u);
}

/* idle_cpu(): no task running or queued.  A CPU busy with hardirqs and
 * softirqs on top of its idle task counts as idle, as in Linux. */
static bool cpu_idle(const struct sim_cpu *c)
{
	return !c->curr && !c->nr_queued;
}

/* V: the mean vruntime of @c's entities (running one included), or the
 * queue's floor when it has none; *@n gets their number. */
static uint64_t avg_vruntime(const struct sim_cpu *c, unsigned *n)
{
	uint64_t base = c->min_vruntime;
	int64_t sum = 0;
	unsigned k = 0;

	if (c->curr) {
		sum += (int64_t)(c->curr->vruntime - base);
		k++;
	}
	for (const struct sim_task *t = c->rq_head; t; t = t->rq_next) {
		sum += (int64_t)(t->vruntime - base);
		k++;
	}
	*n = k;
	if (!k)
		return base;
	/* floor division, as the kernel rounds V down */
	return base + (uint64_t)(sum >= 0 ? sum / (int64_t)k
				 : -((-sum + (int64_t)k - 1) / (int64_t)k));
}

static bool eligible(const struct sim_task *t, uint64_t v)
{
	return (int64_t)(t->vruntime - v) <= 0;
}

/* pick_eevdf(): NULL on an empty queue. */
static struct sim_task *pick_eevdf(const struct sim_cpu *c)
{
	struct sim_task *curr = c->curr, *best = NULL;
	unsigned n;
	uint64_t v = avg_vruntime(c, &n);

	if (curr && curr->deadline == curr->vprot && eligible(curr, v))
		return curr;            /* RUN_TO_PARITY */
	/* the queued ones first: the running entity wins only with a
	 * strictly earlier deadline (__pick_eevdf()) */
	for (struct sim_task *t = c->rq_head; t; t = t->rq_next)
		if (eligible(t, v) &&
		    (!best || (int64_t)(t->deadline - best->deadline) < 0))
			best = t;
	if (curr && eligible(curr, v) &&
	    (!best || (int64_t)(curr->deadline - best->deadline) < 0))
		best = curr;
	if (!best) {
		/* cannot happen (the minimum vruntime is always eligible);
		 * fall back to it */
		best = curr;
		for (struct sim_task *t = c->rq_head; t; t = t->rq_next)
			if (!best || (int64_t)(t->vruntime - best->vruntime) < 0)
				best = t;
	}
	return best;
}

/* place_entity(): @t (not on any queue) joins @c's queue. */
static void place(struct sim_cpu *c, struct sim_task *t)
{
	const struct sim_host_params *p = &c->h->params;
	unsigned n;
	uint64_t v = avg_vruntime(c, &n);
	int64_t lag = 0;

	if (n && t->vlag)
		lag = t->vlag * (int64_t)(n + 1) / (int64_t)n;
	t->vruntime = v - (uint64_t)lag;
	t->deadline = t->vruntime + p->sched_base_slice_ns;
	rq_add(c, t);
}

/* update_entity_lag() for @t leaving @c (sleep or migration); @t is
 * still counted in V. */
static void save_lag(const struct sim_cpu *c, struct sim_task *t)
{
	const struct sim_host_params *p = &c->h->params;
	int64_t limit = (int64_t)(2 * p->sched_base_slice_ns);
	int64_t tick = (int64_t)(1000000000ull / p->hz);
	unsigned n;
	int64_t lag = (int64_t)(avg_vruntime(c, &n) - t->vruntime);

	if (limit < tick)
		limit = tick;
	t->vlag = lag > limit ? limit : lag < -limit ? -limit : lag;
}

void sim_sched_sleep(struct sim_cpu *c, struct sim_task *t)
{
	save_lag(c, t);
	t->last_ran = c->h->sim->now;
	t->state = SIM_TASK_SLEEPING;
	if (c->curr == t)
		c->curr = NULL;
}

void sim_task_init(struct sim_host *h, struct sim_task *t, const char *name,
		   sim_task_fn run, void *arg, const struct sim_cpuset *allowed)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->pid = h->next_pid++;
	t->run = run;
	t->arg = arg;
	t->allowed = *allowed;
	t->state = SIM_TASK_SLEEPING;
	t->cpu = sim_cpuset_next(allowed, 0);
	if (t->cpu >= h->params.ncpus)
		t->cpu = 0;
	t->host = h;
}

/* Update and return @c's interrupt pressure: the share of time spent in
 * hardirq and softirq, averaged over ~4 ms.  Linux takes that time out of
 * a CPU's capacity (scale_rt_capacity(): capacity_of() = 1 - pressure). */
static double cpu_pressure(struct sim_cpu *c)
{
	sim_time_t now = c->h->sim->now;
	uint64_t busy = c->acct.ns[SIM_ACCT_IRQ] + c->acct.ns[SIM_ACCT_SOFT];
	sim_time_t dt = now - c->press_at;

	if (dt >= SIM_US(500)) {
		double share = (double)(busy - c->press_ns) / (double)dt;
		double a = dt >= SIM_MS(4) ? 1.0 : (double)dt / (double)SIM_MS(4);

		c->pressure += a * (share - c->pressure);
		c->press_at = now;
		c->press_ns = busy;
	}
	return c->pressure;
}

static double capacity_of(struct sim_cpu *c)
{
	return 1.0 - cpu_pressure(c);
}

/*
 * wake_affine(): between the waker's CPU @this and @t's previous CPU
 * @prev.  wake_affine_idle(): if @this is idle, @prev if that is idle too,
 * else @this; a sync wakeup from a CPU whose only task is the waker goes
 * there; else @prev if idle.  Otherwise wake_affine_weight() with loads
 * as runnable task counts: @this if its load, scaled by @prev's capacity,
 * is below @prev's, scaled by @this's capacity and the half imbalance
 * margin (WA_BIAS).
 */
static unsigned wake_affine(struct sim_host *h, struct sim_task *t,
			    unsigned this, unsigned prev, bool sync)
{
	struct sim_cpu *tc = &h->cpus[this], *pc = &h->cpus[prev];
	double this_load, prev_load;

	(void)t;
	if (cpu_idle(tc))
		return cpu_idle(pc) ? prev : this;
	if (sync && nr_running(tc) == 1)
		return this;
	if (cpu_idle(pc))
		return prev;
	this_load = nr_running(tc) - (sync ? 1.0 : 0.0);
	prev_load = nr_running(pc);
	if (this_load * 100.0 * capacity_of(pc) <
	    prev_load * (100.0 + (IMBALANCE_PCT - 100) / 2) * capacity_of(tc))
		return this;
	return prev;
}

/* Whether every thread of @cpu's core is idle. */
static bool core_idle(const struct sim_host *h, unsigned cpu)
{
	return cpu_idle(&h->cpus[cpu]) && cpu_idle(&h->cpus[sim_cpu_sibling(h, cpu)]);
}

/*
 * __update_idle_core(): a CPU that has just gone idle marks the LLC as
 * holding an idle core when all its siblings are idle too
 * (set_idle_cores(); the hint is cleared only by a select_idle_cpu() scan
 * that finds none, so it may be stale-true, as in Linux).
 */
void sim_sched_went_idle(struct sim_cpu *c)
{
	struct sim_host *h = c->h;

	if (h->params.smt > 1 && core_idle(h, c->id))
		h->has_idle_cores = true;
}

/*
 * select_idle_core(): @core's threads (the CPU and its sibling, ascending)
 * all idle: @core.  Else the first idle allowed thread seen becomes the
 * fallback *@idle_cpu if none was found yet, the core's threads leave
 * the scan (@done) and -1.
 */
static int select_idle_core(struct sim_host *h, struct sim_task *t, unsigned core,
			    bool *done, int *idle_cpu)
{
	unsigned a = core, b = sim_cpu_sibling(h, core);
	unsigned thr[2] = { a < b ? a : b, a < b ? b : a };
	bool idle = true;

	for (unsigned k = 0; k < 2; k++) {
		unsigned cpu = thr[k];

		if (!cpu_idle(&h->cpus[cpu])) {
			idle = false;
			if (*idle_cpu == -1)
				continue;       /* no SCHED_IDLE tasks here */
			break;
		}
		if (*idle_cpu == -1 && sim_cpuset_test(&t->allowed, cpu))
			*idle_cpu = (int)cpu;
	}
	if (idle)
		return (int)core;
	done[a] = done[b] = true;
	return -1;
}

/*
 * select_idle_cpu(): from @target + 1 on, wrapping, over the allowed CPUs
 * of the last-level cache (here all).  With an idle core hinted, the
 * first wholly idle core (select_idle_core()), else the first idle thread
 * seen on the way; the hint is cleared when no idle core turned up.
 * Without one, the first idle CPU.  SIS_UTIL's limit on how many CPUs are
 * scanned is not modelled (it scans all of them on a lightly loaded
 * LLC).
 */
static int select_idle_cpu(struct sim_host *h, struct sim_task *t, bool has_idle_core,
			   unsigned target)
{
	unsigned n = h->params.ncpus;
	bool done[SIM_CPUS_MAX] = { false };
	int idle_cpu = -1;

	for (unsigned k = 1; k <= n; k++) {
		unsigned cpu = (target + k) % n;

		if (!sim_cpuset_test(&t->allowed, cpu) || done[cpu])
			continue;
		if (has_idle_core) {
			int i = select_idle_core(h, t, cpu, done, &idle_cpu);

			if (i >= 0)
				return i;
		} else if (cpu_idle(&h->cpus[cpu])) {
			idle_cpu = (int)cpu;
			break;
		}
	}
	if (has_idle_core)
		h->has_idle_cores = false;
	return idle_cpu;
}

/*
 * select_idle_sibling(): @target if idle; else @prev if idle; else, for a
 * wakeup by a bound kernel thread in task context on @prev, @prev (it
 * stacks with the kworker); with SMT and no idle core hinted, an idle
 * sibling of @prev (select_idle_smt()); else select_idle_cpu() from
 * @target; else @target.  recent_used_cpu is not modelled.
 */
static unsigned select_idle_sibling(struct sim_host *h, struct sim_task *t,
				    unsigned prev, unsigned target)
{
	bool has_idle_core = false;
	int i;

	if (cpu_idle(&h->cpus[target]))
		return target;
	if (prev != target && sim_cpuset_test(&t->allowed, prev) &&
	    cpu_idle(&h->cpus[prev]))
		return prev;
	if (h->exec_cpu >= 0 && (unsigned)h->exec_cpu == prev &&
	    h->exec_ctx == SIM_CTX_TASK && !h->exec_ksoftirqd && h->exec_task &&
	    h->exec_task->percpu_kthread && nr_running(&h->cpus[prev]) <= 1)
		return prev;
	if (h->params.smt > 1) {
		unsigned sib = sim_cpu_sibling(h, prev);

		has_idle_core = h->has_idle_cores;
		if (!has_idle_core && sim_cpuset_test(&t->allowed, sib) &&
		    cpu_idle(&h->cpus[sib]))
			return sib;     /* select_idle_smt(prev) */
	}
	i = select_idle_cpu(h, t, has_idle_core, target);
	return i >= 0 ? (unsigned)i : target;
}

/* select_task_rq_fair() for a wakeup. */
static unsigned select_cpu(struct sim_host *h, struct sim_task *t, bool sync)
{
	unsigned n = h->params.ncpus, prev = t->cpu, target;

	if (prev >= n || !sim_cpuset_test(&t->allowed, prev)) {
		prev = sim_cpuset_next(&t->allowed, 0);
		if (prev >= n)
			prev = 0;
	}
	target = prev;
	/* want_affine: the waker's CPU is allowed (wake_wide() not
	 * modelled: one waker per wakee here) */
	if (h->exec_cpu >= 0 && sim_cpuset_test(&t->allowed, (unsigned)h->exec_cpu) &&
	    (unsigned)h->exec_cpu != prev)
		target = wake_affine(h, t, (unsigned)h->exec_cpu, prev, sync);
	return select_idle_sibling(h, t, prev, target);
}

static void task_wake(struct sim_task *t, bool sync)
{
	struct sim_host *h = t->host;
	struct sim_cpu *c;

	if (t->state == SIM_TASK_ON_CPU) {
		t->wake_pending = true;
		return;
	}
	if (t->state != SIM_TASK_SLEEPING)
		return;
	c = &h->cpus[select_cpu(h, t, sync)];
	/* enqueue_entity() first brings the running entity's vruntime up to
	 * date (update_curr()).  Done for wakeups from engine events, which
	 * run at the global time; frame code runs ahead of other CPUs'
	 * events, and accounting another CPU from there would move its clock
	 * past events still to come: there the running entity counts as of
	 * its last accounting. */
	if (h->exec_cpu < 0)
		sim_cpu_account(c);
	place(c, t);
	t->wakeups++;
	sim_charge(h, SIM_COST_task_wakeup, 1);
	/* check_preempt_wakeup_fair() */
	if (!c->curr || pick_eevdf(c) == t)
		c->need_resched = true;
	sim_cpu_kick(c);
}

void sim_task_wake(struct sim_task *t)
{
	task_wake(t, false);
}

void sim_task_wake_sync(struct sim_task *t)
{
	task_wake(t, true);
}

void sim_task_fini(struct sim_task *t)
{
	struct sim_host *h = t->host;

	if (t->state == SIM_TASK_QUEUED)
		rq_del(&h->cpus[t->cpu], t);
	else if (t->state == SIM_TASK_ON_CPU && h->cpus[t->cpu].curr == t)
		h->cpus[t->cpu].curr = NULL;
	t->state = SIM_TASK_SLEEPING;
}

bool sim_need_resched(const struct sim_host *h, unsigned cpu)
{
	const struct sim_cpu *c = &h->cpus[cpu];

	return c->need_resched && c->nr_queued;
}

/* The queue's floor only moves forward (V on an empty queue). */
static void update_min_vruntime(struct sim_cpu *c)
{
	uint64_t m = UINT64_MAX;

	if (c->curr)
		m = c->curr->vruntime;
	for (struct sim_task *t = c->rq_head; t; t = t->rq_next)
		if (t->vruntime < m)
			m = t->vruntime;
	if (m != UINT64_MAX && (int64_t)(m - c->min_vruntime) > 0)
		c->min_vruntime = m;
}

static void run_task_chunk(struct sim_cpu *c, struct sim_task *t, bool sw)
{
	struct sim_host *h = c->h;
	struct sim_frame f = { .ctx = SIM_CTX_TASK, .task = t };
	enum sim_task_ret ret;

	sim_exec_begin(c, SIM_CTX_TASK, t, false);
	if (sw)
		sim_charge(h, SIM_COST_task_switch, 1);
	t->wake_pending = false;        /* this chunk sees whatever woke it */
	ret = t->run(t, t->arg);
	if (ret == SIM_TASK_RUNNABLE && !h->exec_total_ps) {
		/* A runnable chunk that costs nothing would spin forever at
		 * one instant: treat it as a sleep and count the defect. */
		if (!h->zero_chunks++)
			fprintf(stderr, "sim: task %s ran a zero-cost chunk; put to sleep\n",
				t->name);
		ret = SIM_TASK_SLEEP;
	}
	f.sleep_after = ret == SIM_TASK_SLEEP;
	sim_exec_end(c, &f);
	sim_cpu_push_frame(c, &f);
}

/*
 * Load balancing, reduced to the pull an idle CPU does
 * (sched_balance_newidle(), then load_balance() on the LLC domain): when a
 * CPU goes idle it takes a task that waits, queued behind another, on a
 * CPU with two or more runnable tasks, if the task may run here, is not a
 * bound kernel thread and is not cache hot (it last ran at least
 * sysctl_sched_migration_cost, 0.5 ms, ago: task_hot()).  A task alone on
 * its CPU is never moved, however much of that CPU interrupts take:
 * sched_balance_find_src_group() treats a busiest group with one running
 * task as balanced on symmetric CPUs (the capacity-based "misfit" path is
 * for asymmetric ones).  With no task waiting on any runqueue there is
 * nothing to pull, and no CPU is looked at (Linux bails out the same way
 * when the root domain is not overloaded: sched_balance_newidle() tests
 * rd->overloaded, which add_nr_running() sets when a runqueue holds two
 * tasks): the idle path stays O(1) in the number of CPUs.
 */
static bool newidle_pull(struct sim_cpu *c)
{
	struct sim_host *h = c->h;
	sim_time_t now = h->sim->now;

	if (!h->nr_queued_all)
		return false;
	/* the lowest domain first: the SMT sibling, then the LLC */
	for (unsigned k = h->params.smt > 1 ? 0 : 1; k < h->params.ncpus; k++) {
		unsigned sib = sim_cpu_sibling(h, c->id);
		unsigned cpu = !k ? sib : (c->id + k) % h->params.ncpus;
		struct sim_cpu *o = &h->cpus[cpu];

		if (k && cpu == sib && h->params.smt > 1)
			continue;       /* looked at first */

		if (nr_running(o) < 2)
			continue;
		for (struct sim_task *t = o->rq_head; t; t = t->rq_next) {
			if (t->percpu_kthread || !sim_cpuset_test(&t->allowed, c->id) ||
			    now - t->last_ran < SIM_US(500))
				continue;
			save_lag(o, t);
			rq_del(o, t);
			place(c, t);
			t->migrations++;
			return true;
		}
	}
	return false;
}

void sim_schedule_task(struct sim_cpu *c)
{
	const struct sim_host_params *p = &c->h->params;

	for (;;) {
		struct sim_task *curr = c->curr, *next = curr;
		bool sw = false;

		update_min_vruntime(c);
		/* update_deadline(): past its deadline, a new slice and a
		 * reschedule */
		if (curr && (int64_t)(curr->vruntime - curr->deadline) >= 0) {
			curr->deadline = curr->vruntime + p->sched_base_slice_ns;
			c->need_resched = true;
		}
		if (!curr || c->need_resched)
			next = pick_eevdf(c);
		c->need_resched = false;
		if (!next) {
			if (newidle_pull(c))
				continue;
			if (!c->sched_idle) {
				c->sched_idle = true;
				sim_sched_went_idle(c);
			}
			return;         /* idle */
		}
		c->sched_idle = false;
		if (next != curr) {
			if (curr) {
				curr->last_ran = c->h->sim->now;
				rq_add(c, curr);
			}
			rq_del(c, next);
			next->state = SIM_TASK_ON_CPU;
			next->cpu = c->id;
			next->vprot = next->deadline;   /* set_next_entity() */
			c->curr = next;
			c->acct.ctx_switches++;
			sw = true;
		}
		if (next->is_ksoftirqd) {
			if (c->softirq_pending) {
				sim_softirq_session_begin(c, true);
				if (sim_softirq_step(c, sw))
					return;
			}
			if (!c->softirq_pending)
				sim_sched_sleep(c, next);
			continue;
		}
		run_task_chunk(c, next, sw);
		return;
	}
}
