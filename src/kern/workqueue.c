// SPDX-License-Identifier: MIT
/*
 * workqueue.c - the system workqueue: one bound kworker task per CPU that
 * runs the work items queued on that CPU, in order (see workqueue.h for
 * the semantics and their sources).
 */
#include <stdio.h>

#include <linux/workqueue.h>

#include "kern/kern.h"

/* One CPU's worker pool, reduced to its one worker. */
struct kern_worker {
	struct sim_task task;		/* "kworker/N:1", bound to CPU N */
	bool created;
	struct work_struct *head, *tail;	/* pending items, FIFO */
	u64 runs;			/* items run */
};

static enum sim_task_ret worker_run(struct sim_task *t, void *arg)
{
	struct kern_worker *w = arg;
	struct work_struct *work = w->head;

	(void)t;
	if (!work)
		return SIM_TASK_SLEEP;
	w->head = work->entry;
	if (!w->head)
		w->tail = NULL;
	work->entry = NULL;
	/* process_one_work(): the pending bit is cleared before the call,
	 * so the function may queue the item again */
	WRITE_ONCE(work->data, work->data & ~WORK_STRUCT_PENDING);
	kern_charge(SIM_COST_work_item);
	w->runs++;
	work->func(work);
	return w->head ? SIM_TASK_RUNNABLE : SIM_TASK_SLEEP;
}

static struct kern_worker *worker_of(unsigned cpu)
{
	struct kern_worker *w = &kern->workers[cpu];

	if (!w->created) {
		struct sim_cpuset one;
		char name[32];

		sim_cpuset_zero(&one);
		sim_cpuset_set(&one, cpu);
		snprintf(name, sizeof(name), "kworker/%u:1", cpu);
		sim_task_init(kern->host, &w->task, name, worker_run, w, &one);
		w->task.percpu_kthread = true;
		w->created = true;
	}
	return w;
}

bool schedule_work(struct work_struct *work)
{
	int cpu = sim_current_cpu(kern->host);
	struct kern_worker *w;

	if (work->data & WORK_STRUCT_PENDING)
		return false;
	/* system_wq is per-CPU: the local CPU's pool (CPU 0 from outside any
	 * CPU, e.g. an engine event in a test) */
	w = worker_of(cpu < 0 ? 0u : (unsigned)cpu);
	work->data |= WORK_STRUCT_PENDING;
	work->entry = NULL;
	if (w->tail)
		w->tail->entry = work;
	else
		w->head = work;
	w->tail = work;
	sim_task_wake(&w->task);
	return true;
}

bool cancel_work_sync(struct work_struct *work)
{
	if (!(work->data & WORK_STRUCT_PENDING))
		return false;
	if (kern_bh_cancel_work(work))
		return true;
	for (unsigned cpu = 0; cpu < kern->host->params.ncpus; cpu++) {
		struct kern_worker *w = &kern->workers[cpu];
		struct work_struct *prev = NULL;

		for (struct work_struct *it = w->head; it; prev = it, it = it->entry) {
			if (it != work)
				continue;
			if (prev)
				prev->entry = it->entry;
			else
				w->head = it->entry;
			if (w->tail == it)
				w->tail = prev;
			it->entry = NULL;
			WRITE_ONCE(work->data, work->data & ~WORK_STRUCT_PENDING);
			return true;
		}
	}
	/* pending but on no list: cannot happen */
	kern->warn.other++;
	return false;
}

int kern_workqueue_init(struct kern *k)
{
	k->workers = calloc(k->host->params.ncpus, sizeof(*k->workers));
	return k->workers ? 0 : -ENOMEM;
}

void kern_workqueue_fini(struct kern *k)
{
	for (unsigned cpu = 0; k->workers && cpu < k->host->params.ncpus; cpu++)
		if (k->workers[cpu].created)
			sim_task_fini(&k->workers[cpu].task);
	free(k->workers);
	k->workers = NULL;
}

const struct sim_task *kern_kworker(const struct kern *k, unsigned cpu)
{
	if (!k->workers || cpu >= k->host->params.ncpus || !k->workers[cpu].created)
		return NULL;
	return &k->workers[cpu].task;
}

u64 kern_kworker_runs(const struct kern *k, unsigned cpu)
{
	if (!k->workers || cpu >= k->host->params.ncpus)
		return 0;
	return k->workers[cpu].runs;
}
