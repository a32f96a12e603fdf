/* SPDX-License-Identifier: MIT */
/*
 * sim_host_priv.h - what the files of the simulated host (sim_host.c,
 * sim_cpu.c, sim_sched.c, sim_softirq.c, sim_irq.c, sim_hrtimer.c) share:
 * the per-CPU state and the internal calls between them.  Not for use
 * outside src/sim; the public API is sim_host.h.
 *
 * Each CPU holds a stack of frames: at most a task frame, a softirq frame
 * over it, and a hardirq frame on top.  Only the top frame consumes time.
 * A frame is popped when its remaining time reaches zero (end_ev); then
 * the dispatcher (sim_host.c) decides what runs next.
 */
#ifndef RXSCALE_SIM_HOST_PRIV_H
#define RXSCALE_SIM_HOST_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim_host.h"
#include "sim/sim_idle.h"
#include "sim/sim_rng.h"

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
	uint64_t end_jiffy;             /* restarts only while jiffies < this */
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
	bool sched_idle;                /* the scheduler last left it idle */
	bool need_resched;
	uint64_t min_vruntime;
	uint64_t carry_ps[SIM_ACCT_NR];
	struct sim_task ksoftirqd;
	struct sim_acct_sample acct;
	/* interrupt pressure: share of recent time in irq + softirq */
	sim_time_t press_at;
	uint64_t press_ns;              /* irq+soft ns at press_at */
	double pressure;                /* 0..1, decaying average */
	struct sim_rng rng;             /* this CPU's random stream */
	struct sim_idle_cpu idle;       /* its idle state and governor */
	struct sim_event idle_tick_ev;  /* the tick while idle (background) */
};

/* The host's jiffies at @t (simulated time 0 is jiffy 0). */
static inline uint64_t sim_jiffies_at(const struct sim_host *h, sim_time_t t)
{
	return t / (1000000000ull / h->params.hz);
}

static inline struct sim_frame *sim_cpu_top(struct sim_cpu *c)
{
	return c->depth ? &c->stack[c->depth - 1] : NULL;
}

/* sim_cpu.c: frames, charging, accounting */
void sim_cpu_account(struct sim_cpu *c);
void sim_cpu_arm_top(struct sim_cpu *c);
void sim_cpu_push_frame(struct sim_cpu *c, const struct sim_frame *f);
void sim_exec_begin(struct sim_cpu *c, enum sim_ctx ctx,
		    struct sim_task *task, bool ksoftirqd);
void sim_exec_end(struct sim_cpu *c, struct sim_frame *f);
void sim_cpu_kick(struct sim_cpu *c);

/* sim_sched.c: tasks */
void sim_schedule_task(struct sim_cpu *c);
/* @c's current task @t goes to sleep (dequeue: its lag is kept). */
void sim_sched_sleep(struct sim_cpu *c, struct sim_task *t);
/* @c has just gone idle (the idle-core hint, SMT). */
void sim_sched_went_idle(struct sim_cpu *c);


/* sim_softirq.c: softirq sessions, ksoftirqd */
void sim_softirq_session_begin(struct sim_cpu *c, bool ksoftirqd);
bool sim_softirq_step(struct sim_cpu *c, bool task_switch);
bool sim_softirq_may_start(const struct sim_cpu *c);
enum sim_task_ret sim_ksoftirqd_run(struct sim_task *t, void *arg);

/* sim_idle.c: the CPU found nothing to run (picks an idle state); work
 * arrives for it (ns until it can run: the state's exit latency, or what
 * is left of a wake-up under way; 0 when it is not idle); it runs again */
void sim_idle_enter(struct sim_cpu *c);
uint64_t sim_idle_wake_delay(struct sim_cpu *c);
void sim_idle_leave(struct sim_cpu *c);
void sim_idle_tick_fn(struct sim *s, struct sim_event *ev);

/* sim_irq.c: hardirq delivery */
void sim_hardirq_start(struct sim_cpu *c);
void sim_cpu_irq_fn(struct sim *s, struct sim_event *ev);

#endif /* RXSCALE_SIM_HOST_PRIV_H */
