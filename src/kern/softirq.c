// SPDX-License-Identifier: MIT
/*
 * softirq.c - the TASKLET and HI softirqs: BH workqueue items first, then
 * tasklets, per CPU, as kernel/softirq.c tasklet_action() and
 * tasklet_hi_action() run them (Linux 6.9 on: workqueue_softirq_action()
 * before tasklet_action_common()).  See interrupt.h (tasklets) and
 * workqueue.h (BH workqueues) for the rules and their sources.
 *
 * Both actions are stepped (sim_host.h): one BH work item or one tasklet
 * per step, so time advances between them and interrupts that arrive
 * meanwhile are taken.
 */
#include <string.h>

#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "kern/kern.h"

/* BH_WORKER_RESTARTS and BH_WORKER_JIFFIES (kernel/workqueue.c) */
#define BH_WORKER_RESTARTS 10
#define BH_WORKER_MSECS 2

struct workqueue_struct {
	bool bh;
	unsigned prio;                  /* KERN_BH_LO (TASKLET) or _HI */
};

static struct workqueue_struct wq_system = { false, 0 };
static struct workqueue_struct wq_bh = { true, KERN_BH_LO };
static struct workqueue_struct wq_bh_hi = { true, KERN_BH_HI };
struct workqueue_struct *system_wq = &wq_system;
struct workqueue_struct *system_bh_wq = &wq_bh;
struct workqueue_struct *system_bh_highpri_wq = &wq_bh_hi;

/* One softirq (TASKLET or HI) of one CPU. */
struct kern_bh_prio {
	/* the BH worker pool's worklist */
	struct work_struct *wq_head, *wq_tail;
	/* the CPU's tasklet list */
	struct tasklet_struct *tl_head, *tl_tail;
	/* the running action: BH worker, then the tasklets it took */
	bool in_worker;                 /* bh_worker() is running */
	bool in_tasklets;
	unsigned wq_done;               /* items this worker run */
	unsigned long wq_end;           /* jiffies */
	struct tasklet_struct *run_head;
	u64 work_runs, tasklet_runs;
};

struct kern_bh_cpu {
	struct kern_bh_prio p[KERN_BH_NR];
};

static const unsigned prio_softirq[KERN_BH_NR] = {
	[KERN_BH_LO] = SIM_SOFTIRQ_TASKLET,
	[KERN_BH_HI] = SIM_SOFTIRQ_HI,
};

static struct kern_bh_prio *bh_here(unsigned prio)
{
	return &kern->bh[smp_processor_id()].p[prio];
}

static void raise_here(unsigned prio)
{
	sim_softirq_raise(kern->host, smp_processor_id(), prio_softirq[prio]);
}

/* ----- tasklets ----- */

void tasklet_setup(struct tasklet_struct *t,
		   void (*callback)(struct tasklet_struct *))
{
	memset(t, 0, sizeof(*t));
	t->use_callback = true;
	t->callback = callback;
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	memset(t, 0, sizeof(*t));
	t->func = func;
	t->data = data;
}

static void tl_append(struct kern_bh_prio *p, struct tasklet_struct *t)
{
	t->next = NULL;
	if (p->tl_tail)
		p->tl_tail->next = t;
	else
		p->tl_head = t;
	p->tl_tail = t;
}

static void tasklet_schedule_common(struct tasklet_struct *t, unsigned prio)
{
	t->state |= BIT(TASKLET_STATE_SCHED);
	tl_append(bh_here(prio), t);
	raise_here(prio);
}

void __tasklet_schedule(struct tasklet_struct *t)
{
	tasklet_schedule_common(t, KERN_BH_LO);
}

void __tasklet_hi_schedule(struct tasklet_struct *t)
{
	tasklet_schedule_common(t, KERN_BH_HI);
}

/* Remove @t from the singly linked list at *@head (tail *@tail, may be
 * NULL for a list without one); true if it was there. */
static bool tl_unlink(struct tasklet_struct **head, struct tasklet_struct **tail,
		      struct tasklet_struct *t)
{
	struct tasklet_struct *prev = NULL;

	for (struct tasklet_struct *it = *head; it; prev = it, it = it->next) {
		if (it != t)
			continue;
		if (prev)
			prev->next = it->next;
		else
			*head = it->next;
		if (tail && *tail == it)
			*tail = prev;
		it->next = NULL;
		return true;
	}
	return false;
}

void tasklet_kill(struct tasklet_struct *t)
{
	for (unsigned cpu = 0; kern->bh && cpu < kern->host->params.ncpus; cpu++) {
		for (unsigned prio = 0; prio < KERN_BH_NR; prio++) {
			struct kern_bh_prio *p = &kern->bh[cpu].p[prio];

			if (tl_unlink(&p->tl_head, &p->tl_tail, t) ||
			    tl_unlink(&p->run_head, NULL, t))
				goto out;
		}
	}
out:
	t->state &= ~BIT(TASKLET_STATE_SCHED);
}

/* ----- BH workqueues ----- */

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	struct kern_bh_prio *p;

	if (!wq->bh)
		return schedule_work(work);
	if (work->data & WORK_STRUCT_PENDING)
		return false;
	work->data |= WORK_STRUCT_PENDING;
	work->entry = NULL;
	p = bh_here(wq->prio);
	if (p->wq_tail)
		p->wq_tail->entry = work;
	else
		p->wq_head = work;
	p->wq_tail = work;
	/* kick_pool(): not while the pool's worker runs (it counts as
	 * running and takes the item itself); else kick_bh_pool(), the local
	 * CPU's softirq */
	if (!p->in_worker)
		raise_here(wq->prio);
	return true;
}

bool kern_bh_cancel_work(struct work_struct *work)
{
	for (unsigned cpu = 0; kern->bh && cpu < kern->host->params.ncpus; cpu++) {
		for (unsigned prio = 0; prio < KERN_BH_NR; prio++) {
			struct kern_bh_prio *p = &kern->bh[cpu].p[prio];
			struct work_struct *prev = NULL;

			for (struct work_struct *it = p->wq_head; it;
			     prev = it, it = it->entry) {
				if (it != work)
					continue;
				if (prev)
					prev->entry = it->entry;
				else
					p->wq_head = it->entry;
				if (p->wq_tail == it)
					p->wq_tail = prev;
				it->entry = NULL;
				WRITE_ONCE(work->data, work->data & ~WORK_STRUCT_PENDING);
				return true;
			}
		}
	}
	return false;
}

/* ----- the TASKLET / HI softirq action ----- */

/* bh_worker(): the next queued item, if this worker run may take one. */
static struct work_struct *bh_worker_next(struct kern_bh_prio *p)
{
	struct work_struct *work = p->wq_head;

	if (!work)
		return NULL;
	/* do { one item } while (keep_working && --nr_restarts &&
	 * time_before(jiffies, end)) */
	if (p->wq_done && (p->wq_done >= BH_WORKER_RESTARTS ||
			   (long)(jiffies - p->wq_end) >= 0))
		return NULL;
	p->wq_head = work->entry;
	if (!p->wq_head)
		p->wq_tail = NULL;
	work->entry = NULL;
	return work;
}

static bool bh_action(struct sim_host *h, unsigned cpu, void *arg, bool first)
{
	unsigned prio = (unsigned)(uintptr_t)arg;
	struct kern_bh_prio *p;
	struct work_struct *work;
	struct tasklet_struct *t;

	(void)h;
	if (!kern->bh || cpu >= kern->host->params.ncpus)
		return false;
	p = &kern->bh[cpu].p[prio];
	if (first) {
		p->in_worker = p->wq_head != NULL;
		p->in_tasklets = false;
		p->wq_done = 0;
		p->wq_end = jiffies + msecs_to_jiffies(BH_WORKER_MSECS);
	}
	if (!p->in_tasklets) {
		work = bh_worker_next(p);
		if (work) {
			/* process_one_work(): PENDING cleared before the call */
			WRITE_ONCE(work->data, work->data & ~WORK_STRUCT_PENDING);
			p->wq_done++;
			p->work_runs++;
			work->func(work);
			return true;
		}
		/* worker done: what is left waits for the next pass */
		p->in_worker = false;
		if (p->wq_head)
			raise_here(prio);
		/* tasklet_action_common(): take the whole list */
		p->in_tasklets = true;
		p->run_head = p->tl_head;
		p->tl_head = p->tl_tail = NULL;
	}
	t = p->run_head;
	if (!t)
		return false;
	p->run_head = t->next;
	t->next = NULL;
	if (t->count || (t->state & BIT(TASKLET_STATE_RUN))) {
		/* disabled: back on the list, softirq raised again */
		tl_append(p, t);
		raise_here(prio);
		return p->run_head != NULL;
	}
	t->state |= BIT(TASKLET_STATE_RUN);
	t->state &= ~BIT(TASKLET_STATE_SCHED);
	p->tasklet_runs++;
	if (t->use_callback)
		t->callback(t);
	else
		t->func(t->data);
	t->state &= ~BIT(TASKLET_STATE_RUN);
	return p->run_head != NULL;
}

int kern_softirq_init(struct kern *k)
{
	k->bh = calloc(k->host->params.ncpus, sizeof(*k->bh));
	if (!k->bh)
		return -ENOMEM;
	sim_softirq_register(k->host, SIM_SOFTIRQ_TASKLET, bh_action,
			     (void *)(uintptr_t)KERN_BH_LO);
	sim_softirq_register(k->host, SIM_SOFTIRQ_HI, bh_action,
			     (void *)(uintptr_t)KERN_BH_HI);
	return 0;
}

void kern_softirq_fini(struct kern *k)
{
	free(k->bh);
	k->bh = NULL;
}

void kern_bh_counts(const struct kern *k, unsigned cpu, unsigned prio,
		    u64 *work_runs, u64 *tasklet_runs)
{
	const struct kern_bh_prio *p = &k->bh[cpu].p[prio];

	*work_runs = p->work_runs;
	*tasklet_runs = p->tasklet_runs;
}
