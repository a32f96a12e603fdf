/* SPDX-License-Identifier: MIT */
/*
 * workqueue.h - deferred work in process context (Linux
 * include/linux/workqueue.h), the part a NIC driver uses: a work item
 * embedded in a structure, queued on the system workqueue and run by the
 * queueing CPU's kworker.
 *
 * Semantics (Documentation/core-api/workqueue.rst, kernel/workqueue.c):
 *  - schedule_work() queues the item on the system workqueue, which is
 *    per-CPU: the item runs on the CPU that queued it, in its bound
 *    kworker thread, a normal task that competes with user tasks for
 *    that CPU.  It returns false, and does nothing, if the item is
 *    already pending (queued and not yet started).
 *  - The pending bit is cleared just before the function is called, so
 *    the function may queue its own item again.
 *  - cancel_work_sync() takes a pending item off its queue (true) or
 *    finds it idle (false); with one simulated thread of execution an
 *    item is never running while another context calls it.
 *
 * In the simulator each CPU's kworker is created the first time work is
 * queued there; running one item charges `work_item` on top of what the
 * function's own kernel calls charge, as %sys of the kworker task.
 */
#ifndef RXSCALE_KERN_WORKQUEUE_H
#define RXSCALE_KERN_WORKQUEUE_H

#include <linux/types.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	unsigned long data;		/* WORK_STRUCT_PENDING */
	struct work_struct *entry;	/* next on the kworker's list */
	work_func_t func;
};

#define WORK_STRUCT_PENDING	BIT(0)

#define INIT_WORK(_work, _func)				\
	do {						\
		(_work)->data = 0;			\
		(_work)->entry = NULL;			\
		(_work)->func = (_func);		\
	} while (0)

#define work_pending(work)	(READ_ONCE((work)->data) & WORK_STRUCT_PENDING)

bool schedule_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);

/*
 * BH workqueues (Linux 6.9 on, kernel/workqueue.c, WQ_BH): an item queued
 * on system_bh_wq (system_bh_highpri_wq) runs in the TASKLET (HI) softirq
 * of the CPU that queued it, before that softirq's tasklets.  Each run of
 * the softirq's BH worker (bh_worker()) takes items one at a time while
 * some are queued, at most BH_WORKER_RESTARTS (10) of them and only while
 * jiffies is before its start + msecs_to_jiffies(BH_WORKER_JIFFIES = 2 ms);
 * what is left re-raises the softirq (kick_bh_pool()).  An item that
 * re-queues itself while it runs is taken again in the same worker run.
 * queue_work() on system_wq is schedule_work().
 */
struct workqueue_struct;
extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_bh_wq;
extern struct workqueue_struct *system_bh_highpri_wq;

bool queue_work(struct workqueue_struct *wq, struct work_struct *work);

#endif /* RXSCALE_KERN_WORKQUEUE_H */
