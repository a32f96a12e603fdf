// SPDX-License-Identifier: MIT
/*
 * sim_sched.c - the task scheduler: run queues, a small fair scheduler by
 * vruntime, wakeup placement by interrupt pressure, periodic migration off
 * interrupt-swamped CPUs, and running one task chunk as a frame.
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim_host_priv.h"

static void rq_add(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task **pp = &c->rq_head;

	while (*pp)
		pp = &(*pp)->rq_next;   /* FIFO order breaks vruntime ties */
	t->rq_next = NULL;
	*pp = t;
	c->nr_queued++;
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
			return;
		}
	}
}

static bool cpu_idle(const struct sim_cpu *c)
{
	return !c->curr && !c->nr_queued;
}

static sim_time_t slice_of(const struct sim_cpu *c)
{
	const struct sim_host_params *p = &c->h->params;
	unsigned nr = c->nr_queued + (c->curr ? 1 : 0);
	sim_time_t s = nr ? p->sched_latency_ns / nr : p->sched_latency_ns;

	return s < p->sched_min_granularity_ns ? p->sched_min_granularity_ns : s;
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
 * a CPU's capacity (scale_rt_capacity) so tasks move off CPUs busy with
 * interrupts; the wakeup placement below does the same with this. */
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

void sim_task_wake(struct sim_task *t)
{
	struct sim_host *h = t->host;
	unsigned n = h->params.ncpus, target = n;
	struct sim_cpu *c;
	uint64_t floor;

	if (t->state == SIM_TASK_ON_CPU) {
		t->wake_pending = true;
		return;
	}
	if (t->state != SIM_TASK_SLEEPING)
		return;
	/* wake_affine: the waker's CPU if it runs no task (Linux's
	 * wake_affine_idle: a CPU busy only with softirqs counts as idle), else
	 * the previous CPU if idle and not swamped by interrupts (cache
	 * affinity), else the idle allowed CPU with the least interrupt
	 * pressure (first after prev on ties).  Periodic balancing
	 * (migrate_away) later moves a task off a CPU interrupts swamp. */
	if (h->exec_cpu >= 0 && h->exec_ctx != SIM_CTX_TASK &&
	    sim_cpuset_test(&t->allowed, (unsigned)h->exec_cpu) &&
	    cpu_idle(&h->cpus[h->exec_cpu]))
		target = (unsigned)h->exec_cpu;
	if (target == n && sim_cpuset_test(&t->allowed, t->cpu) && t->cpu < n &&
	    cpu_idle(&h->cpus[t->cpu]) && cpu_pressure(&h->cpus[t->cpu]) < 0.5)
		target = t->cpu;
	for (unsigned i = 0; target == n && i < n; i++) {
		unsigned cpu = (t->cpu + 1 + i) % n;
		double best = 2.0;

		if (i == 0) {
			for (unsigned k = 0; k < n; k++) {
				unsigned cc = (t->cpu + 1 + k) % n;
				double pr;

				if (!sim_cpuset_test(&t->allowed, cc) || !cpu_idle(&h->cpus[cc]))
					continue;
				pr = cpu_pressure(&h->cpus[cc]);
				if (pr < best - 1e-9) {
					best = pr;
					target = cc;
				}
			}
		}
		(void)cpu;
		break;
	}
	if (target == n) {
		target = t->cpu;
		if (!sim_cpuset_test(&t->allowed, target) || target >= n)
			target = sim_cpuset_next(&t->allowed, 0);
		if (target >= n)
			target = 0;
	}
	c = &h->cpus[target];
	/* A sleeper may not bank more than half a latency period of credit. */
	floor = c->min_vruntime > h->params.sched_latency_ns / 2 ?
		c->min_vruntime - h->params.sched_latency_ns / 2 : 0;
	if (t->vruntime < floor)
		t->vruntime = floor;
	rq_add(c, t);
	t->wakeups++;
	sim_charge(h, SIM_COST_task_wakeup, 1);
	if (!c->curr ||
	    t->vruntime + h->params.sched_wakeup_granularity_ns < c->curr->vruntime)
		c->need_resched = true;
	sim_cpu_kick(c);
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

static void update_min_vruntime(struct sim_cpu *c)
{
	uint64_t m = UINT64_MAX;

	if (c->curr)
		m = c->curr->vruntime;
	for (struct sim_task *t = c->rq_head; t; t = t->rq_next)
		if (t->vruntime < m)
			m = t->vruntime;
	if (m != UINT64_MAX && m > c->min_vruntime)
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
 * Periodic load balancing, reduced to what matters here: a task running on
 * a CPU that interrupts keep more than half busy moves to an idle allowed
 * CPU with clearly less interrupt pressure (Linux's capacity-aware
 * balancing after scale_rt_capacity).  Checked at most once per 4 ms per
 * task.  Returns true if @t left @c.
 */
static bool migrate_away(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_host *h = c->h;
	sim_time_t now = h->sim->now;
	double here, best = 2.0;
	struct sim_cpu *to = NULL;

	if (now - t->balanced_at < SIM_MS(4))
		return false;
	t->balanced_at = now;
	here = cpu_pressure(c);
	if (here < 0.5)
		return false;
	for (unsigned k = 1; k < h->params.ncpus; k++) {
		struct sim_cpu *o = &h->cpus[(c->id + k) % h->params.ncpus];
		double pr;

		if (!sim_cpuset_test(&t->allowed, o->id) || !cpu_idle(o))
			continue;
		pr = cpu_pressure(o);
		if (pr < here - 0.25 && pr < best - 1e-9) {
			best = pr;
			to = o;
		}
	}
	if (!to)
		return false;
	if (c->curr == t)
		c->curr = NULL;
	else
		rq_del(c, t);
	rq_add(to, t);
	t->migrations++;
	to->need_resched = true;
	sim_cpu_kick(to);
	return true;
}

void sim_schedule_task(struct sim_cpu *c)
{
	for (;;) {
		struct sim_task *curr = c->curr, *next = curr;
		bool sw = false;

		update_min_vruntime(c);
		if (!curr || c->need_resched || curr->slice_used >= slice_of(c)) {
			for (struct sim_task *t = c->rq_head; t; t = t->rq_next)
				if (!next || t->vruntime < next->vruntime)
					next = t;
		}
		c->need_resched = false;
		if (!next) {
			return;         /* idle */
		}
		if (next != curr) {
			if (curr)
				rq_add(c, curr);
			rq_del(c, next);
			next->state = SIM_TASK_ON_CPU;
			next->cpu = c->id;
			next->slice_used = 0;
			c->curr = next;
			c->acct.ctx_switches++;
			sw = true;
		}
		if (!next->is_ksoftirqd && migrate_away(c, next))
			continue;
		if (next->is_ksoftirqd) {
			if (c->softirq_pending) {
				sim_softirq_session_begin(c, true);
				if (sim_softirq_step(c, sw))
					return;
			}
			if (!c->softirq_pending) {
				next->state = SIM_TASK_SLEEPING;
				c->curr = NULL;
			}
			continue;
		}
		run_task_chunk(c, next, sw);
		return;
	}
}
