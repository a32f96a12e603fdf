// SPDX-License-Identifier: MIT
/*
 * sim_host.c - CPUs, preemption by priority, softirq passes and
 * ksoftirqd, a small fair scheduler, hrtimers and time accounting.
 *
 * Each CPU holds a stack of frames: at most a task frame, a softirq frame
 * over it, and a hardirq frame on top.  Only the top frame consumes time.
 * A frame is popped when its remaining time reaches zero (end_ev); then
 * cpu_resume() decides what runs next.  See sim_host.h for the rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host.h"

struct sim_frame {
	enum sim_ctx ctx;
	uint64_t rem[SIM_ACCT_NR];      /* ns still to run, per class */
	struct sim_task *task;          /* task frames (incl. ksoftirqd) */
	struct sim_irq *irq;            /* hardirq frames */
	bool ksoftirqd;
	bool sleep_after;               /* task chunk returned SLEEP */
};

/* One __do_softirq() invocation, in irq context or in ksoftirqd. */
struct softirq_session {
	bool active;
	bool ksoftirqd;
	bool entry_due;                 /* charge softirq_entry on next step */
	bool nr_done;                   /* current action finished its pass */
	bool first;
	int nr;                         /* current softirq, -1 before any */
	uint32_t mask;                  /* this pass's pending snapshot */
	unsigned restart_left;
	sim_time_t start;
};

struct sim_cpu {
	unsigned id;
	struct sim_host *h;
	struct sim_frame stack[4];
	int depth;
	sim_time_t acct_at;             /* accounted up to this time */
	struct sim_event end_ev, irq_ev, kick_ev;
	struct sim_irq *irq_head, *irq_tail;
	uint32_t softirq_pending;
	struct softirq_session ss;
	bool raised_in_task;            /* softirq raised by a task chunk */
	struct sim_task *rq_head;       /* queued (runnable, not on CPU) */
	unsigned nr_queued;
	struct sim_task *curr;          /* task on this CPU, or NULL (idle) */
	bool need_resched;
	uint64_t min_vruntime;
	uint64_t carry_ps[SIM_ACCT_NR];
	struct sim_task ksoftirqd;
	struct sim_acct_sample acct;
	/* interrupt pressure: share of recent time in irq + softirq */
	sim_time_t press_at;
	uint64_t press_ns;              /* irq+soft ns at press_at */
	double pressure;                /* 0..1, decaying average */
};

/* ----- cpusets ----- */

void sim_cpuset_first_n(struct sim_cpuset *s, unsigned n)
{
	sim_cpuset_zero(s);
	for (unsigned i = 0; i < n && i < SIM_CPUS_MAX; i++)
		sim_cpuset_set(s, i);
}

unsigned sim_cpuset_weight(const struct sim_cpuset *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < SIM_CPUS_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

unsigned sim_cpuset_next(const struct sim_cpuset *s, unsigned from)
{
	for (unsigned c = from; c < SIM_CPUS_MAX; c++)
		if (sim_cpuset_test(s, c))
			return c;
	return SIM_CPUS_MAX;
}

static int parse_uint(const char **p, unsigned *v)
{
	unsigned long x = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		x = x * 10 + (unsigned long)(*s - '0');
		if (x >= SIM_CPUS_MAX)
			return -EINVAL;
	}
	*v = (unsigned)x;
	*p = s;
	return 0;
}

int sim_cpuset_parse(struct sim_cpuset *s, const char *list, unsigned ncpus)
{
	struct sim_cpuset r;
	const char *p = list;

	sim_cpuset_zero(&r);
	for (;;) {
		unsigned a, b;

		if (parse_uint(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &b) || b < a)
				return -EINVAL;
		}
		if (b >= ncpus)
			return -EINVAL;
		for (unsigned c = a; c <= b; c++)
			sim_cpuset_set(&r, c);
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*s = r;
	return 0;
}

/* ----- parameters ----- */

void sim_host_params_default(struct sim_host_params *p, unsigned ncpus)
{
	memset(p, 0, sizeof(*p));
	p->ncpus = ncpus;
	p->max_softirq_time_ns = SIM_MS(2);     /* kernel/softirq.c */
	p->max_softirq_restart = 10;            /* kernel/softirq.c */
	p->defer_to_ksoftirqd = false;          /* Linux >= 6.5 */
	p->sched_latency_ns = SIM_MS(6);
	p->sched_min_granularity_ns = SIM_US(750);
	p->sched_wakeup_granularity_ns = SIM_MS(1);
}

/* ----- frames and accounting ----- */

static struct sim_frame *top(struct sim_cpu *c)
{
	return c->depth ? &c->stack[c->depth - 1] : NULL;
}

static uint64_t frame_left(const struct sim_frame *f)
{
	uint64_t n = 0;

	for (int i = 0; i < SIM_ACCT_NR; i++)
		n += f->rem[i];
	return n;
}

/* Account the CPU's time from acct_at to now. */
static void cpu_account(struct sim_cpu *c)
{
	sim_time_t now = c->h->sim->now;
	uint64_t dt = now - c->acct_at;
	struct sim_frame *f = top(c);

	c->acct_at = now;
	if (!dt)
		return;
	if (!f) {
		c->acct.ns[SIM_ACCT_IDLE] += dt;
		return;
	}
	for (int k = 0; k < SIM_ACCT_NR && dt; k++) {
		uint64_t take = f->rem[k] < dt ? f->rem[k] : dt;

		if (!take)
			continue;
		f->rem[k] -= take;
		dt -= take;
		c->acct.ns[k] += take;
		if (f->ksoftirqd)
			c->acct.ksoftirqd_ns += take;
		if (f->task) {
			f->task->ns[k] += take;
			f->task->vruntime += take;
			f->task->slice_used += take;
		}
	}
	/* The end event fires exactly when the frame is used up. */
	if (dt) {
		fprintf(stderr, "sim: cpu%u accounting overrun of %llu ns\n",
			c->id, (unsigned long long)dt);
		abort();
	}
}

static void arm_top(struct sim_cpu *c)
{
	sim_schedule_in(c->h->sim, &c->end_ev, frame_left(top(c)));
}

static void push_frame(struct sim_cpu *c, const struct sim_frame *f)
{
	if (c->depth == (int)(sizeof(c->stack) / sizeof(c->stack[0]))) {
		fprintf(stderr, "sim: cpu%u frame stack overflow\n", c->id);
		abort();
	}
	c->stack[c->depth++] = *f;
	arm_top(c);
}

/* ----- executing frame code ----- */

static uint64_t scale_ps(const struct sim_host *h, unsigned cpu, uint64_t ps)
{
	uint32_t ppm = h->params.speed_ppm[cpu];

	if (!ppm || ppm == 1000000)
		return ps;
	return (uint64_t)((unsigned __int128)ps * 1000000u / ppm);
}

static void exec_begin(struct sim_cpu *c, enum sim_ctx ctx,
		       struct sim_task *task, bool ksoftirqd)
{
	struct sim_host *h = c->h;

	if (h->exec_cpu >= 0) {
		fprintf(stderr, "sim: nested frame execution on cpu%u\n", c->id);
		abort();
	}
	h->exec_cpu = (int)c->id;
	h->exec_ctx = ctx;
	h->exec_start = h->sim->now;
	memset(h->exec_ps, 0, sizeof(h->exec_ps));
	h->exec_total_ps = 0;
	h->exec_task = task;
	h->exec_ksoftirqd = ksoftirqd;
}

static void exec_end(struct sim_cpu *c, struct sim_frame *f)
{
	struct sim_host *h = c->h;

	for (int k = 0; k < SIM_ACCT_NR; k++) {
		uint64_t ps = scale_ps(h, c->id, h->exec_ps[k]) + c->carry_ps[k];

		f->rem[k] = ps / 1000;
		c->carry_ps[k] = ps % 1000;
	}
	h->sim->now = h->exec_start;
	h->exec_cpu = -1;
	h->exec_ctx = SIM_CTX_NONE;
	h->exec_task = NULL;
	h->exec_ksoftirqd = false;
}

static void charge_class(struct sim_host *h, int k, uint64_t ps)
{
	if (h->exec_cpu < 0) {
		h->uncharged_ps += ps;
		return;
	}
	h->exec_ps[k] += ps;
	h->exec_total_ps += ps;
	h->sim->now = h->exec_start +
		scale_ps(h, (unsigned)h->exec_cpu, h->exec_total_ps) / 1000;
}

void sim_charge_ps(struct sim_host *h, uint64_t ps)
{
	int k;

	switch (h->exec_ctx) {
	case SIM_CTX_HARDIRQ:
		k = SIM_ACCT_IRQ;
		break;
	case SIM_CTX_SOFTIRQ:
		k = SIM_ACCT_SOFT;
		break;
	default:
		k = h->exec_ksoftirqd ? SIM_ACCT_SOFT : SIM_ACCT_SYS;
		break;
	}
	charge_class(h, k, ps);
}

void sim_charge_usr_ps(struct sim_host *h, uint64_t ps)
{
	if (h->exec_ctx == SIM_CTX_TASK && !h->exec_ksoftirqd)
		charge_class(h, SIM_ACCT_USR, ps);
	else
		sim_charge_ps(h, ps);
}

/* ----- scheduler ----- */

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

static void kick(struct sim_cpu *c)
{
	if (!c->depth && !sim_event_pending(&c->kick_ev))
		sim_schedule_in(c->h->sim, &c->kick_ev, 0);
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
	kick(c);
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

struct sim_task *sim_ksoftirqd(struct sim_host *h, unsigned cpu)
{
	return &h->cpus[cpu].ksoftirqd;
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

/* ----- softirq passes ----- */

static void wakeup_softirqd(struct sim_cpu *c)
{
	if (c->ksoftirqd.state == SIM_TASK_SLEEPING) {
		c->acct.ksoftirqd_wakeups++;
		sim_task_wake(&c->ksoftirqd);
	}
}

static void pass_begin(struct sim_cpu *c)
{
	struct softirq_session *ss = &c->ss;

	ss->mask = c->softirq_pending;
	c->softirq_pending = 0;
	ss->nr = -1;
	ss->nr_done = false;
	ss->entry_due = true;
	c->acct.softirq_passes++;
}

static void session_begin(struct sim_cpu *c, bool ksoftirqd)
{
	struct softirq_session *ss = &c->ss;

	ss->active = true;
	ss->ksoftirqd = ksoftirqd;
	ss->start = c->h->sim->now;
	ss->restart_left = c->h->params.max_softirq_restart;
	pass_begin(c);
}

/* Run the next step of the CPU's softirq session as a frame.  Returns
 * false (nothing pushed) when the session has ended. */
static bool softirq_step(struct sim_cpu *c, bool task_switch)
{
	struct sim_host *h = c->h;
	struct softirq_session *ss = &c->ss;
	struct sim_frame f = { 0 };
	bool more;

	for (;;) {
		if (ss->nr >= 0 && !ss->nr_done)
			break;
		int next = -1;

		for (int b = ss->nr + 1; b < SIM_SOFTIRQ_NR; b++) {
			if (ss->mask & (1u << b) && h->softirq[b].action) {
				next = b;
				break;
			}
		}
		if (next >= 0) {
			ss->nr = next;
			ss->nr_done = false;
			ss->first = true;
			break;
		}
		/* End of a pass: restart, or hand over to ksoftirqd. */
		if (!c->softirq_pending) {
			ss->active = false;
			return false;
		}
		if (h->sim->now - ss->start < h->params.max_softirq_time_ns &&
		    !sim_need_resched(h, c->id) && --ss->restart_left) {
			pass_begin(c);
			continue;
		}
		wakeup_softirqd(c);
		ss->active = false;
		return false;
	}
	if (ss->ksoftirqd)
		exec_begin(c, SIM_CTX_TASK, &c->ksoftirqd, true);
	else
		exec_begin(c, SIM_CTX_SOFTIRQ, NULL, false);
	if (task_switch)
		sim_charge(h, SIM_COST_task_switch, 1);
	if (ss->entry_due) {
		sim_charge(h, SIM_COST_softirq_entry, 1);
		ss->entry_due = false;
	}
	more = h->softirq[ss->nr].action(h, c->id, h->softirq[ss->nr].arg,
					 ss->first);
	ss->first = false;
	ss->nr_done = !more;
	f.ctx = ss->ksoftirqd ? SIM_CTX_TASK : SIM_CTX_SOFTIRQ;
	f.ksoftirqd = ss->ksoftirqd;
	f.task = ss->ksoftirqd ? &c->ksoftirqd : NULL;
	exec_end(c, &f);
	push_frame(c, &f);
	return true;
}

static bool softirq_may_start(const struct sim_cpu *c)
{
	if (!c->softirq_pending || c->ss.active)
		return false;
	if (c->h->params.defer_to_ksoftirqd &&
	    c->ksoftirqd.state != SIM_TASK_SLEEPING)
		return false;
	return true;
}

/* ----- dispatch ----- */

static void start_hardirq(struct sim_cpu *c)
{
	struct sim_host *h = c->h;
	struct sim_irq *irq = c->irq_head;
	struct sim_frame f = { .ctx = SIM_CTX_HARDIRQ };

	c->irq_head = irq->next;
	if (!c->irq_head)
		c->irq_tail = NULL;
	irq->next = NULL;
	irq->queued = false;
	irq->running = true;
	f.irq = irq;
	exec_begin(c, SIM_CTX_HARDIRQ, NULL, false);
	sim_charge(h, irq->entry_cost, 1);
	if (irq->handler)
		irq->handler(irq, irq->arg);
	sim_charge(h, SIM_COST_hardirq_exit, 1);
	exec_end(c, &f);
	push_frame(c, &f);
}

static void run_task_chunk(struct sim_cpu *c, struct sim_task *t, bool sw)
{
	struct sim_host *h = c->h;
	struct sim_frame f = { .ctx = SIM_CTX_TASK, .task = t };
	enum sim_task_ret ret;

	exec_begin(c, SIM_CTX_TASK, t, false);
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
	exec_end(c, &f);
	push_frame(c, &f);
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
	kick(to);
	return true;
}

static void schedule_task(struct sim_cpu *c)
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
				session_begin(c, true);
				if (softirq_step(c, sw))
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

/*
 * Decide what the CPU runs next after its top frame ended (or it was
 * kicked while idle).  @may_softirq: pending softirqs may start a new pass
 * here, which is only so on the way out of a hardirq (irq_exit), after a
 * task chunk that raised them (local_bh_enable), or on a kick from outside
 * any CPU; never right after a pass handed over to ksoftirqd.
 */
static void cpu_resume(struct sim_cpu *c, bool may_softirq)
{
	struct sim_frame *f = top(c);

	if (c->irq_head && (!f || f->ctx != SIM_CTX_HARDIRQ)) {
		start_hardirq(c);
		return;
	}
	if (f && f->ctx == SIM_CTX_HARDIRQ) {
		arm_top(c);     /* cannot happen: hardirqs are not preempted */
		return;
	}
	if (c->ss.active && !c->ss.ksoftirqd) {
		if (f && f->ctx == SIM_CTX_SOFTIRQ) {
			arm_top(c);
			return;
		}
		if (softirq_step(c, false))
			return;
	}
	if (f) {
		/* A preempted task chunk or ksoftirqd step: irq_exit() runs
		 * pending softirqs first unless already serving them. */
		if (may_softirq && !f->ksoftirqd && softirq_may_start(c)) {
			session_begin(c, false);
			if (softirq_step(c, false))
				return;
		}
		arm_top(c);
		return;
	}
	if (may_softirq && softirq_may_start(c)) {
		session_begin(c, false);
		if (softirq_step(c, false))
			return;
	}
	if (c->ss.active && c->ss.ksoftirqd) {
		if (softirq_step(c, false))
			return;
		/* ksoftirqd's __do_softirq() returned; it stays runnable while
		 * work is pending (smpboot thread loop), else sleeps. */
		if (!c->softirq_pending && c->curr == &c->ksoftirqd) {
			c->ksoftirqd.state = SIM_TASK_SLEEPING;
			c->curr = NULL;
		} else {
			c->need_resched = true;   /* cond_resched() */
		}
	}
	schedule_task(c);
}

static void end_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;
	struct sim_frame f;
	bool may;

	(void)s;
	cpu_account(c);
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
			f.task->state = SIM_TASK_SLEEPING;
			c->curr = NULL;
		}
	}
	cpu_resume(c, may);
}

static void irq_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;
	struct sim_frame *f = top(c);

	(void)s;
	if (!c->irq_head || (f && f->ctx == SIM_CTX_HARDIRQ))
		return;         /* taken when the running handler ends */
	cpu_account(c);
	if (f)
		sim_cancel(c->h->sim, &c->end_ev);
	start_hardirq(c);
}

static void kick_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;

	(void)s;
	if (c->depth)
		return;
	cpu_account(c);
	cpu_resume(c, true);
}

/* ----- interrupts ----- */

void sim_irq_init(struct sim_host *h, struct sim_irq *irq, const char *name,
		  sim_irq_handler fn, void *arg, unsigned cpu)
{
	memset(irq, 0, sizeof(*irq));
	snprintf(irq->name, sizeof(irq->name), "%s", name);
	irq->handler = fn;
	irq->arg = arg;
	irq->entry_cost = SIM_COST_hardirq_entry;
	irq->cpu = cpu < h->params.ncpus ? cpu : 0;
	irq->host = h;
}

void sim_irq_raise(struct sim_irq *irq)
{
	struct sim_cpu *c = &irq->host->cpus[irq->cpu];

	if (irq->queued) {
		irq->collapsed++;
		return;
	}
	irq->queued = true;
	irq->next = NULL;
	if (c->irq_tail)
		c->irq_tail->next = irq;
	else
		c->irq_head = irq;
	c->irq_tail = irq;
	if (!sim_event_pending(&c->irq_ev))
		sim_schedule_in(irq->host->sim, &c->irq_ev, 0);
}

int sim_irq_set_cpu(struct sim_irq *irq, unsigned cpu)
{
	if (cpu >= irq->host->params.ncpus)
		return -EINVAL;
	irq->cpu = cpu;
	return 0;
}

void sim_irq_fini(struct sim_irq *irq)
{
	if (!irq->host)
		return;
	for (unsigned i = 0; i < irq->host->params.ncpus && irq->queued; i++) {
		struct sim_cpu *c = &irq->host->cpus[i];
		struct sim_irq *prev = NULL;

		for (struct sim_irq *q = c->irq_head; q; prev = q, q = q->next) {
			if (q != irq)
				continue;
			if (prev)
				prev->next = q->next;
			else
				c->irq_head = q->next;
			if (c->irq_tail == q)
				c->irq_tail = prev;
			irq->queued = false;
			break;
		}
	}
	/* A running handler's frame still points at @irq: keep it valid
	 * until the frame ends (callers free irqs only when quiescent). */
}

/* ----- softirqs ----- */

void sim_softirq_register(struct sim_host *h, unsigned nr,
			  sim_softirq_action action, void *arg)
{
	if (nr < SIM_SOFTIRQ_NR) {
		h->softirq[nr].action = action;
		h->softirq[nr].arg = arg;
	}
}

void sim_softirq_raise(struct sim_host *h, unsigned cpu, unsigned nr)
{
	struct sim_cpu *c;

	if (h->exec_cpu >= 0)
		cpu = (unsigned)h->exec_cpu;
	if (cpu >= h->params.ncpus || nr >= SIM_SOFTIRQ_NR)
		return;
	c = &h->cpus[cpu];
	c->softirq_pending |= 1u << nr;
	if (h->exec_cpu < 0)
		kick(c);
	else if (h->exec_ctx == SIM_CTX_TASK && !h->exec_ksoftirqd)
		c->raised_in_task = true;
}

bool sim_softirq_pending(const struct sim_host *h, unsigned cpu, unsigned nr)
{
	return (h->cpus[cpu].softirq_pending >> nr) & 1;
}

/* ----- hrtimers ----- */

static void hrtimer_irq(struct sim_irq *irq, void *arg)
{
	struct sim_hrtimer *t = arg;

	(void)irq;
	t->fn(t, t->arg);
}

static void hrtimer_expire(struct sim *s, struct sim_event *ev)
{
	struct sim_hrtimer *t = ev->arg;

	(void)s;
	sim_irq_raise(&t->irq);
}

void sim_hrtimer_init(struct sim_host *h, struct sim_hrtimer *t,
		      const char *name, void (*fn)(struct sim_hrtimer *, void *),
		      void *arg, unsigned cpu)
{
	sim_event_init(&t->ev, hrtimer_expire, t);
	sim_irq_init(h, &t->irq, name, hrtimer_irq, t, cpu);
	t->irq.entry_cost = SIM_COST_timer_irq;
	t->fn = fn;
	t->arg = arg;
}

void sim_hrtimer_start(struct sim_host *h, struct sim_hrtimer *t,
		       sim_time_t delta)
{
	sim_schedule_in(h->sim, &t->ev, delta);
}

bool sim_hrtimer_cancel(struct sim_host *h, struct sim_hrtimer *t)
{
	bool was = sim_event_pending(&t->ev);

	sim_cancel(h->sim, &t->ev);
	return was;
}

/* ----- host ----- */

static enum sim_task_ret ksoftirqd_run(struct sim_task *t, void *arg)
{
	(void)t;
	(void)arg;
	return SIM_TASK_SLEEP;  /* never called: the dispatcher runs sessions */
}

struct sim_host *sim_host_create(struct sim *sim, const struct sim_cost *cost,
				 const struct sim_host_params *p)
{
	struct sim_host *h;

	if (!p->ncpus || p->ncpus > SIM_CPUS_MAX || !p->max_softirq_restart)
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
		sim_event_init(&c->irq_ev, irq_fn, c);
		sim_event_init(&c->kick_ev, kick_fn, c);
		sim_cpuset_zero(&one);
		sim_cpuset_set(&one, i);
		snprintf(name, sizeof(name), "ksoftirqd/%u", i);
		sim_task_init(h, &c->ksoftirqd, name, ksoftirqd_run, c, &one);
		c->ksoftirqd.is_ksoftirqd = true;
	}
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
	}
	sim_purge(h->sim);
	free(h->cpus);
	free(h);
}

void sim_host_sync(struct sim_host *h)
{
	for (unsigned i = 0; i < h->params.ncpus; i++)
		cpu_account(&h->cpus[i]);
}

void sim_host_acct(const struct sim_host *h, unsigned cpu,
		   struct sim_acct_sample *out)
{
	*out = h->cpus[cpu].acct;
}
