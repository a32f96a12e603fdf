// SPDX-License-Identifier: MIT
/*
 * sim_softirq.c - softirqs as Linux's kernel/softirq.c runs them: passes
 * over the pending mask, one action step per frame, restart limits and the
 * hand-over to the per-CPU ksoftirqd task.
 *
 * The rules, from kernel/softirq.c as of Linux 6.5 and later (the
 * version the seed hosts ran; 7.x unchanged):
 *  - handle_softirqs() snapshots and clears the pending mask, runs each
 *    pending action once (a pass), and restarts while softirqs were raised
 *    again, jiffies is still before its start's jiffies plus
 *    msecs_to_jiffies(MAX_SOFTIRQ_TIME = 2 ms), need_resched() is clear
 *    and fewer than MAX_SOFTIRQ_RESTART (10) passes ran; otherwise, with
 *    work still pending, wakeup_softirqd();
 *  - invoke_softirq() (irq_exit) and do_softirq() (local_bh_enable) run
 *    handle_softirqs() whenever softirqs are pending and the CPU is not
 *    already in one; from 4.9 to 6.4 both first skipped it while ksoftirqd
 *    was runnable, unless HI or TASKLET was pending (ksoftirqd_running(),
 *    SOFTIRQ_NOW_MASK): params.defer_to_ksoftirqd;
 *  - run_ksoftirqd() runs handle_softirqs() with the same limits, and the
 *    thread stays runnable while anything is pending.
 */
#include "sim/sim_host_priv.h"

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

void sim_softirq_session_begin(struct sim_cpu *c, bool ksoftirqd)
{
	struct softirq_session *ss = &c->ss;

	ss->active = true;
	ss->ksoftirqd = ksoftirqd;
	ss->start = c->h->sim->now;
	/* end = jiffies + msecs_to_jiffies(MAX_SOFTIRQ_TIME), rounded up as
	 * msecs_to_jiffies() rounds */
	ss->end_jiffy = sim_jiffies_at(c->h, ss->start) +
			(c->h->params.max_softirq_time_ns * c->h->params.hz +
			 999999999ull) / 1000000000ull;
	ss->restart_left = c->h->params.max_softirq_restart;
	pass_begin(c);
}

/* Run the next step of the CPU's softirq session as a frame.  Returns
 * false (nothing pushed) when the session has ended. */
bool sim_softirq_step(struct sim_cpu *c, bool task_switch)
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
		if (sim_jiffies_at(h, h->sim->now) < ss->end_jiffy &&
		    !sim_need_resched(h, c->id) && --ss->restart_left) {
			pass_begin(c);
			continue;
		}
		wakeup_softirqd(c);
		ss->active = false;
		return false;
	}
	if (ss->ksoftirqd)
		sim_exec_begin(c, SIM_CTX_TASK, &c->ksoftirqd, true);
	else
		sim_exec_begin(c, SIM_CTX_SOFTIRQ, NULL, false);
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
	sim_exec_end(c, &f);
	sim_cpu_push_frame(c, &f);
	return true;
}

/* HI and TASKLET: the softirqs that ran at once even while ksoftirqd was
 * runnable (SOFTIRQ_NOW_MASK, Linux 4.15 to 6.4). */
#define SOFTIRQ_NOW_MASK (1u << SIM_SOFTIRQ_HI | 1u << SIM_SOFTIRQ_TASKLET)

bool sim_softirq_may_start(const struct sim_cpu *c)
{
	if (!c->softirq_pending || c->ss.active)
		return false;
	/* ksoftirqd_running(pending), before 6.5 */
	if (c->h->params.defer_to_ksoftirqd &&
	    !(c->softirq_pending & SOFTIRQ_NOW_MASK) &&
	    c->ksoftirqd.state != SIM_TASK_SLEEPING)
		return false;
	return true;
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
		sim_cpu_kick(c);
	else if (h->exec_ctx == SIM_CTX_TASK && !h->exec_ksoftirqd)
		c->raised_in_task = true;
}

bool sim_softirq_pending(const struct sim_host *h, unsigned cpu, unsigned nr)
{
	return (h->cpus[cpu].softirq_pending >> nr) & 1;
}

struct sim_task *sim_ksoftirqd(struct sim_host *h, unsigned cpu)
{
	return &h->cpus[cpu].ksoftirqd;
}

enum sim_task_ret sim_ksoftirqd_run(struct sim_task *t, void *arg)
{
	(void)t;
	(void)arg;
	return SIM_TASK_SLEEP;  /* never called: the dispatcher runs sessions */
}
