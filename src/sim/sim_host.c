// SPDX-License-Identifier: MIT
/*
 * sim_host.c - the host: its parameters, creation, and the dispatcher that
 * decides what each CPU runs next (hardirq > softirq > tasks).
 *
 * Each CPU holds a stack of frames: at most a task frame, a softirq frame
 * over it, and a hardirq frame on top.  Only the top frame consumes time.
 * A frame is popped when its remaining time reaches zero (end_ev); then
 * cpu_resume() decides what runs next.  See sim_host.h for the rules.
 *
 * The rest of the host is split by concern, sharing sim_host_priv.h:
 * sim_cpu.c (frames, charging, accounting), sim_sched.c (tasks),
 * sim_softirq.c (softirq passes, ksoftirqd), sim_irq.c (hardirq delivery),
 * sim_hrtimer.c, sim_cpuset.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host_priv.h"

/* ----- parameters ----- */

void sim_host_params_default(struct sim_host_params *p, unsigned ncpus)
{
	memset(p, 0, sizeof(*p));
	p->ncpus = ncpus;
	p->hz = 250;                            /* CONFIG_HZ (Debian) */
	p->max_softirq_time_ns = SIM_MS(2);     /* kernel/softirq.c */
	p->max_softirq_restart = 10;            /* kernel/softirq.c */
	p->defer_to_ksoftirqd = false;          /* Linux >= 6.5 */
	p->sched_base_slice_ns = sim_sched_base_slice(ncpus);
	p->pkg_cstates = true;                  /* the hardware's rule */
	p->smt = 1;
	p->smt_ppm = SIM_SMT_SPEED_PPM;
}

/* ----- dispatch ----- */

/*
 * Decide what the CPU runs next after its top frame ended (or it was
 * kicked while idle).  @may_softirq: pending softirqs may start a new pass
 * here, which is only so on the way out of a hardirq (irq_exit), after a
 * task chunk that raised them (local_bh_enable), or on a kick from outside
 * any CPU; never right after a pass handed over to ksoftirqd.
 */
static void cpu_resume(struct sim_cpu *c, bool may_softirq)
{
	struct sim_frame *f = sim_cpu_top(c);

	if (c->irq_head && (!f || f->ctx != SIM_CTX_HARDIRQ)) {
		sim_hardirq_start(c);
		return;
	}
	if (f && f->ctx == SIM_CTX_HARDIRQ) {
		sim_cpu_arm_top(c);     /* cannot happen: hardirqs are not preempted */
		return;
	}
	if (c->ss.active && !c->ss.ksoftirqd) {
		if (f && f->ctx == SIM_CTX_SOFTIRQ) {
			sim_cpu_arm_top(c);
			return;
		}
		if (sim_softirq_step(c, false))
			return;
	}
	if (f) {
		/* A preempted task chunk or ksoftirqd step: irq_exit() runs
		 * pending softirqs first unless already serving them. */
		if (may_softirq && !f->ksoftirqd && sim_softirq_may_start(c)) {
			sim_softirq_session_begin(c, false);
			if (sim_softirq_step(c, false))
				return;
		}
		sim_cpu_arm_top(c);
		return;
	}
	if (may_softirq && sim_softirq_may_start(c)) {
		sim_softirq_session_begin(c, false);
		if (sim_softirq_step(c, false))
			return;
	}
	if (c->ss.active && c->ss.ksoftirqd) {
		if (sim_softirq_step(c, false))
			return;
		/* ksoftirqd's __do_softirq() returned; it stays runnable while
		 * work is pending (smpboot thread loop), else sleeps. */
		if (!c->softirq_pending && c->curr == &c->ksoftirqd) {
			sim_sched_sleep(c, &c->ksoftirqd);
		} else {
			c->need_resched = true;   /* cond_resched() */
		}
	}
	sim_schedule_task(c);
}

static void end_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;
	struct sim_frame f;
	bool may;

	(void)s;
	sim_cpu_account(c);
	f = c->stack[--c->depth];
	may = f.ctx == SIM_CTX_HARDIRQ;
	if (f.ctx == SIM_CTX_TASK && !f.ksoftirqd && c->raised_in_task) {
		c->raised_in_task = false;
		may = true;
	}
	if (f.ctx == SIM_CTX_HARDIRQ) {
		f.irq->running = false;
		f.irq->count++;
		c->acct.hardirqs++;
		if (f.irq->eoi)
			f.irq->eoi(f.irq, f.irq->eoi_arg);
	} else if (f.ctx == SIM_CTX_TASK && !f.ksoftirqd && f.sleep_after &&
		   c->curr == f.task) {
		if (f.task->wake_pending) {
			/* woken while deciding to sleep: keep running */
			f.task->wake_pending = false;
		} else {
			sim_sched_sleep(c, f.task);
		}
	}
	cpu_resume(c, may);
	if (!c->depth)
		sim_idle_enter(c);
}

static void kick_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;

	(void)s;
	if (c->depth)
		return;
	sim_idle_leave(c);
	sim_cpu_account(c);
	cpu_resume(c, true);
	if (!c->depth)
		sim_idle_enter(c);
}

/* ----- host ----- */

struct sim_host *sim_host_create(struct sim *sim, const struct sim_cost *cost,
				 const struct sim_host_params *p)
{
	struct sim_host *h;

	if (!p->ncpus || p->ncpus > SIM_CPUS_MAX || !p->max_softirq_restart ||
	    !p->hz || p->hz > 10000 || p->smt > 2 ||
	    (p->smt > 1 && p->ncpus % p->smt))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->cpus = calloc(p->ncpus, sizeof(*h->cpus));
	if (!h->cpus) {
		free(h);
		return NULL;
	}
	h->sim = sim;
	h->cost = *cost;
	h->params = *p;
	if (!h->params.smt_ppm)
		h->params.smt_ppm = SIM_SMT_SPEED_PPM;
	h->exec_cpu = -1;
	h->next_pid = 1;
	for (unsigned i = 0; i < p->ncpus; i++) {
		struct sim_cpu *c = &h->cpus[i];
		struct sim_cpuset one;
		char name[32];

		c->id = i;
		c->h = h;
		c->acct_at = sim->now;
		sim_event_init(&c->end_ev, end_fn, c);
		sim_event_init(&c->irq_ev, sim_cpu_irq_fn, c);
		sim_event_init(&c->kick_ev, kick_fn, c);
		sim_event_init(&c->idle_tick_ev, sim_idle_tick_fn, c);
		c->idle_tick_ev.background = true;
		sim_cpuset_zero(&one);
		sim_cpuset_set(&one, i);
		snprintf(name, sizeof(name), "cpu%u", i);
		sim_rng_init(&c->rng, p->seed, sim_rng_stream_id(name));
		snprintf(name, sizeof(name), "ksoftirqd/%u", i);
		sim_task_init(h, &c->ksoftirqd, name, sim_ksoftirqd_run, c, &one);
		c->ksoftirqd.is_ksoftirqd = true;
		c->ksoftirqd.percpu_kthread = true;
		c->idle.state = -1;
		sim_idle_enter(c);      /* idle since boot */
		c->sched_idle = true;
	}
	h->has_idle_cores = h->params.smt > 1;
	return h;
}

void sim_host_destroy(struct sim_host *h)
{
	if (!h)
		return;
	for (unsigned i = 0; i < h->params.ncpus; i++) {
		struct sim_cpu *c = &h->cpus[i];

		sim_cancel(h->sim, &c->end_ev);
		sim_cancel(h->sim, &c->irq_ev);
		sim_cancel(h->sim, &c->kick_ev);
		sim_cancel(h->sim, &c->idle_tick_ev);
	}
	sim_purge(h->sim);
	free(h->cpus);
	free(h);
}
