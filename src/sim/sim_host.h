/* SPDX-License-Identifier: MIT */
/*
 * sim_host.h - the simulated host: N CPUs, each running one thing at a
 * time by priority hardirq > softirq > tasks, with Linux's softirq and
 * ksoftirqd rules, a small fair task scheduler, hrtimers, and mpstat-style
 * time accounting.  Knows nothing about NICs.
 *
 * Execution model.  Work comes in run-to-completion units ("frames"): a
 * hardirq handler, one softirq step (e.g. one napi->poll() call), one task
 * chunk.  A frame's C code runs at the frame's start time; while it runs,
 * sim_now() advances by what the code charges (sim_charge*), so MMIO and
 * events it causes carry the right local time.  Afterwards the CPU is busy
 * for the charged time.  A hardirq arriving meanwhile preempts a softirq
 * or task frame (which then finishes later by the irq's duration);
 * hardirqs never nest, they queue (one pending per source, as an APIC IRR
 * bit: a second raise while queued is collapsed and counted).
 *
 * Softirqs (Linux kernel/softirq.c semantics, re-implemented):
 *  - on the way out of the last hardirq, pending softirqs run unless the
 *    CPU is already serving softirqs (interrupted softirq frame or
 *    ksoftirqd) — irq_exit()/invoke_softirq();
 *  - a pass runs each pending softirq's action; an action is stepped, one
 *    frame per step (see sim_softirq_action);
 *  - after a pass, if softirqs were raised again, another pass runs while
 *    less than max_softirq_time_ns (2 ms) has elapsed since the first,
 *    fewer than max_softirq_restart (10) passes ran and no task wants the
 *    CPU (need_resched); otherwise the CPU's ksoftirqd task is woken and
 *    takes over, competing with user tasks as a normal task;
 *  - softirqs raised from task context run when the task's chunk ends
 *    (local_bh_enable()); raised from outside any CPU they run as soon as
 *    the CPU is free.
 *
 * Accounting: each nanosecond of each CPU is one of usr, sys, irq, soft,
 * idle.  Softirq work done by ksoftirqd counts as soft (as the kernel's
 * IRQ time accounting does) and is also reported separately, with the
 * ksoftirqd task's own time, as top would show it.
 */
#ifndef RXSCALE_SIM_HOST_H
#define RXSCALE_SIM_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_cost.h"
#include "sim/sim_event.h"

#define SIM_CPUS_MAX 256

/* A set of CPU ids 0..SIM_CPUS_MAX-1. */
struct sim_cpuset {
	uint64_t bits[SIM_CPUS_MAX / 64];
};

static inline void sim_cpuset_zero(struct sim_cpuset *s)
{
	for (unsigned i = 0; i < SIM_CPUS_MAX / 64; i++)
		s->bits[i] = 0;
}

static inline void sim_cpuset_set(struct sim_cpuset *s, unsigned cpu)
{
	s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool sim_cpuset_test(const struct sim_cpuset *s, unsigned cpu)
{
	return cpu < SIM_CPUS_MAX && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* CPUs 0..n-1. */
void sim_cpuset_first_n(struct sim_cpuset *s, unsigned n);

/* Number of CPUs in @s. */
unsigned sim_cpuset_weight(const struct sim_cpuset *s);

/* Smallest CPU in @s that is >= @from, or SIM_CPUS_MAX if none. */
unsigned sim_cpuset_next(const struct sim_cpuset *s, unsigned from);

/*
 * Parse a CPU list "0-3,6" (Linux cpulist syntax) into @s; every id must
 * be < @ncpus.  Returns 0 or -EINVAL.
 */
int sim_cpuset_parse(struct sim_cpuset *s, const char *list, unsigned ncpus);

enum sim_acct {
	SIM_ACCT_IRQ,   /* hardirq handlers */
	SIM_ACCT_SOFT,  /* softirq work, in irq context or in ksoftirqd */
	SIM_ACCT_SYS,   /* task time in the kernel */
	SIM_ACCT_USR,   /* task time in user space */
	SIM_ACCT_IDLE,
	SIM_ACCT_NR
};

/* Cumulative counters of one CPU since the host started (ns, counts). */
struct sim_acct_sample {
	uint64_t ns[SIM_ACCT_NR];
	uint64_t ksoftirqd_ns;          /* part of ns[SOFT] run by ksoftirqd */
	uint64_t hardirqs;              /* hardirq handlers run */
	uint64_t softirq_passes;        /* passes over the pending mask */
	uint64_t ksoftirqd_wakeups;     /* hand-overs to ksoftirqd */
	uint64_t ctx_switches;
};

enum sim_ctx {
	SIM_CTX_NONE,                   /* no code running (engine events) */
	SIM_CTX_TASK,
	SIM_CTX_SOFTIRQ,
	SIM_CTX_HARDIRQ,
};

struct sim_host;
struct sim_cpu;
struct sim_idle_table;
struct sim_task;
struct sim_irq;

/* A hardirq handler; runs with sim_ctx() == SIM_CTX_HARDIRQ on irq->cpu. */
typedef void (*sim_irq_handler)(struct sim_irq *irq, void *arg);

/* An interrupt source as the CPUs see it (an MSI-X message, a timer...). */
struct sim_irq {
	char name[32];
	sim_irq_handler handler;
	void *arg;
	/* Called after each run of the handler (end of interrupt); may
	 * re-raise, as a still-asserted level-triggered line does.  May be
	 * NULL. */
	void (*eoi)(struct sim_irq *irq, void *eoi_arg);
	void *eoi_arg;
	enum sim_cost_id entry_cost;    /* SIM_COST_hardirq_entry by default */
	unsigned cpu;                   /* affinity: the CPU it is delivered to */
	bool queued;                    /* waiting on cpu's queue */
	bool running;
	uint64_t count;                 /* handler runs */
	uint64_t collapsed;             /* raises merged into a queued one */
	struct sim_irq *next;           /* in the CPU's pending queue */
	struct sim_host *host;
};

/*
 * One softirq action (e.g. NET_RX's net_rx_action), stepped: each call does
 * one unit of work (one napi->poll()) charging its cost, and returns true if
 * the action wants another step in this pass, false when the pass of this
 * action is done.  @first is true on the first step of each pass.
 */
typedef bool (*sim_softirq_action)(struct sim_host *h, unsigned cpu,
				   void *arg, bool first);

/* Softirq numbers, run in this order within a pass, as Linux's
 * HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL, TASKLET (BLOCK and
 * IRQ_POLL are not modelled).  HI and TASKLET carry the USB core's URB
 * givebacks (interrupt/isochronous and bulk/control endpoints). */
enum { SIM_SOFTIRQ_HI, SIM_SOFTIRQ_TIMER, SIM_SOFTIRQ_NET_TX,
       SIM_SOFTIRQ_NET_RX, SIM_SOFTIRQ_TASKLET, SIM_SOFTIRQ_NR };

enum sim_task_ret {
	SIM_TASK_RUNNABLE,      /* wants the CPU again */
	SIM_TASK_SLEEP,         /* blocks until sim_task_wake() */
};

/* A task runs in chunks: @run executes one chunk's code (charging sys with
 * sim_charge*() and user time with sim_charge_usr()) and says what next. */
typedef enum sim_task_ret (*sim_task_fn)(struct sim_task *t, void *arg);

enum sim_task_state { SIM_TASK_SLEEPING, SIM_TASK_QUEUED, SIM_TASK_ON_CPU };

struct sim_task {
	char name[32];                  /* "ksoftirqd/0", "iperf3" */
	unsigned pid;
	sim_task_fn run;
	void *arg;
	struct sim_cpuset allowed;
	enum sim_task_state state;
	unsigned cpu;                   /* CPU it runs or last ran on */
	bool is_ksoftirqd;
	bool percpu_kthread;            /* bound kernel thread (kworker) */
	/* EEVDF (sim_sched.c): all tasks are nice 0, so virtual time is
	 * CPU time */
	uint64_t vruntime;              /* ns of CPU time, fair-share key */
	uint64_t deadline;              /* vruntime + slice when last set */
	uint64_t vprot;                 /* deadline when picked (RUN_TO_PARITY) */
	int64_t vlag;                   /* V - vruntime when it last slept */
	uint64_t ns[SIM_ACCT_NR];       /* CPU time by class (top's %CPU) */
	uint64_t wakeups;
	bool wake_pending;              /* woken while its chunk was running */
	sim_time_t last_ran;            /* when it last left a CPU */
	uint64_t migrations;
	struct sim_task *rq_next;       /* run-queue link */
	struct sim_host *host;
};

/* Host-wide knobs, with Linux defaults (sim_host_params_default()). */
struct sim_host_params {
	unsigned ncpus;                         /* 1..SIM_CPUS_MAX */
	/* CONFIG_HZ: the tick that jiffies count (250, Debian's; kern/timer.h
	 * uses the same).  Jiffy n is [n, n+1) x 10^9/hz ns of simulated
	 * time. */
	unsigned hz;
	/* MAX_SOFTIRQ_TIME, 2 ms, which the kernel applies in jiffies: a
	 * softirq loop restarts only while jiffies < its start's jiffies +
	 * msecs_to_jiffies(2) (kernel/softirq.c handle_softirqs()).  At HZ
	 * 250 that is "until the next tick", anywhere from 0 to 4 ms. */
	sim_time_t max_softirq_time_ns;
	unsigned max_softirq_restart;           /* MAX_SOFTIRQ_RESTART 10 */
	/* Linux 4.9 to 6.4 ("softirq: Let ksoftirqd do its job", 4cd13c21b207;
	 * reverted in 6.5 by d15121be7485): irq_exit() and local_bh_enable()
	 * left pending softirqs to ksoftirqd while it was runnable, unless
	 * HI or TASKLET was among them (SOFTIRQ_NOW_MASK, 4.15 on:
	 * ksoftirqd_running()).  Off (false) is Linux >= 6.5. */
	bool defer_to_ksoftirqd;
	/* EEVDF's base slice: sysctl_sched_base_slice 0.75 ms scaled by
	 * 1 + ilog2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG,
	 * kernel/sched/fair.c); 2.25 ms on 6 CPUs */
	sim_time_t sched_base_slice_ns;
	/* CPU speed per CPU in parts per million of the preset's reference
	 * core (0 = 10^6): costs are divided by it, so 500000 = half speed. */
	uint32_t speed_ppm[SIM_CPUS_MAX];
	/* The run's seed: each CPU draws from its own stream of it
	 * (sim_rng, stream "cpuN"). */
	uint64_t seed;
	/* One DRAM access that misses every cache, ps, as measured on the
	 * platform (sim_charge_misses); 0: misses are not modelled. */
	uint64_t dram_latency_ps;
	/* The CPUs' idle states (sim_idle.h); NULL: none, an idle CPU runs
	 * new work at once. */
	const struct sim_idle_table *idle;
	/* Package C-states (sim_idle.h): a core or the package goes deep
	 * only while all its threads or cores idle, and an exit takes the
	 * latency of the level that must wake.  false: every exit takes the
	 * table's figure. */
	bool pkg_cstates;
	/* Hardware threads per core, 1 or 2 (SMT): CPU i and i + ncpus/2
	 * share a core (0 = 1). */
	unsigned smt;
	/* A thread's speed while its sibling runs, ppm of its own
	 * (SIM_SMT_SPEED_PPM by default). */
	uint32_t smt_ppm;
};

/*
 * Two busy hardware threads of one core get about 1.3 times one thread's
 * throughput: Intel's Hyper-Threading measurements, "up to 30 %" on
 * server benchmarks (Marr et al., "Hyper-Threading Technology
 * Architecture and Microarchitecture", Intel Technology Journal 6(1),
 * 2002).  So each runs at 1.3 / 2 = 0.65 of the core alone.  [I] the
 * same for Zen+ and Alder Lake and for kernel network code.
 */
#define SIM_SMT_SPEED_PPM 650000u


void sim_host_params_default(struct sim_host_params *p, unsigned ncpus);

/* EEVDF's base slice on @ncpus CPUs: 0.75 ms x (1 + ilog2(min(ncpus, 8))). */
sim_time_t sim_sched_base_slice(unsigned ncpus);

/* One simulated host.  Allocate with sim_host_create(). */
struct sim_host {
	struct sim *sim;
	struct sim_cost cost;
	struct sim_host_params params;
	struct sim_cpu *cpus;
	/* What is executing right now (valid inside frame code only). */
	int exec_cpu;                   /* -1 outside any CPU */
	enum sim_ctx exec_ctx;
	sim_time_t exec_start;
	uint64_t exec_ps[SIM_ACCT_NR];  /* charged so far, picoseconds */
	uint64_t exec_total_ps;
	struct sim_task *exec_task;
	bool exec_ksoftirqd;
	/* set by sim_exec_begin for the charges: the frame's own class, and
	 * the CPU's speed_ppm (0: the reference speed) */
	enum sim_acct exec_class;
	uint32_t exec_ppm;
	uint64_t uncharged_ps;          /* charges made outside any CPU */
	unsigned next_pid;
	struct {
		sim_softirq_action action;
		void *arg;
	} softirq[SIM_SOFTIRQ_NR];
	uint64_t zero_chunks;           /* RUNNABLE chunks that charged 0 */
	/* tasks waiting on any runqueue (the CPUs' nr_queued summed): with
	 * none, a CPU going idle has nothing to pull and scans no CPU */
	unsigned nr_queued_all;
	/* SMT: the LLC may hold a wholly idle core (sd_llc_shared's
	 * has_idle_cores hint, sim_sched.c) */
	bool has_idle_cores;
	/* the package finishes waking then (sim_idle.c) */
	sim_time_t pkg_wake_at;
};

/* @cpu's SMT sibling (itself without SMT): i and i + ncpus/2, as Linux
 * numbers the threads of x86 parts that enumerate the first thread of
 * every core first (thread_siblings_list "0,4" on a 4-core part). */
static inline unsigned sim_cpu_sibling(const struct sim_host *h, unsigned cpu)
{
	unsigned n = h->params.ncpus;

	return h->params.smt > 1 ? (cpu + n / 2) % n : cpu;
}

/*
 * Create a host with @p->ncpus CPUs on engine @sim, costs @cost (copied).
 * Creates one ksoftirqd task per CPU.  Returns NULL on bad parameters
 * (ncpus 0 or > SIM_CPUS_MAX) or out of memory.
 */
struct sim_host *sim_host_create(struct sim *sim, const struct sim_cost *cost,
				 const struct sim_host_params *p);
void sim_host_destroy(struct sim_host *h);

/* ----- charging CPU time, from inside frame code ----- */

/* Charge @ps picoseconds of class @k to the running frame; sim_now()
 * advances accordingly (by the charged time scaled to the CPU's speed).
 * Outside any CPU the charge is dropped and added to h->uncharged_ps.
 * Inline: ~10 charges per simulated frame. */
static inline void sim_charge_class_ps(struct sim_host *h, enum sim_acct k,
				       uint64_t ps)
{
	uint64_t t;

	if (h->exec_cpu < 0) {
		h->uncharged_ps += ps;
		return;
	}
	h->exec_ps[k] += ps;
	t = h->exec_total_ps += ps;
	if (h->exec_ppm)
		t = (uint64_t)((unsigned __int128)t * 1000000u / h->exec_ppm);
	h->sim->now = h->exec_start + t / 1000;
}

/* Charge @ps picoseconds to the running frame in its own class (irq for
 * hardirq, soft for softirq and ksoftirqd, sys for tasks). */
static inline void sim_charge_ps(struct sim_host *h, uint64_t ps)
{
	sim_charge_class_ps(h, h->exec_class, ps);
}

/* Charge @count times cost @id. */
static inline void sim_charge(struct sim_host *h, enum sim_cost_id id,
			      uint64_t count)
{
	uint64_t ps = h->cost.ps[id] * count;

	if (ps)         /* a zero-cost row (e.g. dma_sync on x86) changes nothing */
		sim_charge_ps(h, ps);
}

/* Charge @ps picoseconds of user time: tasks only; in irq context it is
 * charged as the frame's own class. */
void sim_charge_usr_ps(struct sim_host *h, uint64_t ps);

/* Charge the running frame a random number of cache misses that go to
 * DRAM: Poisson with mean @mean, each params.dram_latency_ps, drawn from
 * the running CPU's stream (misses are independent rare events, so their
 * count is Poisson).  Nothing when dram_latency_ps is 0 or outside any
 * CPU.  Returns the number charged. */
uint64_t sim_charge_misses(struct sim_host *h, double mean);

/* The CPU whose code is running, or -1 (smp_processor_id()). */
static inline int sim_current_cpu(const struct sim_host *h)
{
	return h->exec_cpu;
}

static inline enum sim_ctx sim_current_ctx(const struct sim_host *h)
{
	return h->exec_ctx;
}

/* The task whose chunk is running, or NULL. */
static inline struct sim_task *sim_current_task(const struct sim_host *h)
{
	return h->exec_task;
}

/* ----- interrupts ----- */

/* Initialise @irq: handler @fn(@arg), delivered to CPU @cpu. */
void sim_irq_init(struct sim_host *h, struct sim_irq *irq, const char *name,
		  sim_irq_handler fn, void *arg, unsigned cpu);

/* Deliver @irq to its CPU now: it runs as soon as no other hardirq is
 * running there, preempting softirq and task work. */
void sim_irq_raise(struct sim_irq *irq);

/* Change the CPU @irq is delivered to (smp_affinity); takes effect from
 * the next raise.  Returns 0 or -EINVAL for a CPU out of range. */
int sim_irq_set_cpu(struct sim_irq *irq, unsigned cpu);

/* Forget @irq: remove it from its CPU's queue if queued. */
void sim_irq_fini(struct sim_irq *irq);

/* ----- softirqs ----- */

/* Register the action of softirq @nr (SIM_SOFTIRQ_*). */
void sim_softirq_register(struct sim_host *h, unsigned nr,
			  sim_softirq_action action, void *arg);

/* Raise softirq @nr on the running CPU (or on @cpu when called outside any
 * CPU, e.g. from an engine event).  raise_softirq()/__raise_softirq_irqoff. */
void sim_softirq_raise(struct sim_host *h, unsigned cpu, unsigned nr);

/* Whether softirq @nr is pending on @cpu. */
bool sim_softirq_pending(const struct sim_host *h, unsigned cpu, unsigned nr);

/* Whether a task (not idle, not ksoftirqd) is waiting for @cpu, i.e. the
 * kernel's need_resched() as a softirq pass sees it. */
bool sim_need_resched(const struct sim_host *h, unsigned cpu);

/* ----- tasks ----- */

/* Initialise @t (sleeping) allowed on @allowed; wake it to start. */
void sim_task_init(struct sim_host *h, struct sim_task *t, const char *name,
		   sim_task_fn run, void *arg, const struct sim_cpuset *allowed);

/* Make a sleeping task runnable (try_to_wake_up), on the CPU Linux's
 * select_task_rq_fair() would choose (sim_sched.c).  No effect if already
 * queued.  A task woken while its chunk runs does not sleep at the end of
 * that chunk, even if the chunk asked to (no lost wakeups: Linux's task
 * state protocol).  Charges task_wakeup to the running frame.
 * sim_task_wake_sync() is a WF_SYNC wakeup (the waker is about to sleep or
 * return, as socket wakeups say: wake_up_interruptible_sync_poll). */
void sim_task_wake(struct sim_task *t);
void sim_task_wake_sync(struct sim_task *t);

/* Remove @t from the scheduler (it must not be on a CPU right now). */
void sim_task_fini(struct sim_task *t);

/* ksoftirqd of @cpu. */
struct sim_task *sim_ksoftirqd(struct sim_host *h, unsigned cpu);

/* ----- hrtimers ----- */

struct sim_hrtimer {
	struct sim_event ev;
	struct sim_irq irq;
	void (*fn)(struct sim_hrtimer *t, void *arg);
	void *arg;
};

/* Initialise @t: at expiry @fn(@t, @arg) runs in hardirq context on @cpu
 * (the CPU that arms it, as HRTIMER_MODE_*_PINNED). */
void sim_hrtimer_init(struct sim_host *h, struct sim_hrtimer *t,
		      const char *name, void (*fn)(struct sim_hrtimer *, void *),
		      void *arg, unsigned cpu);

/* Arm @t to expire @delta ns from now (re-arming moves it). */
void sim_hrtimer_start(struct sim_host *h, struct sim_hrtimer *t,
		       sim_time_t delta);

/* Disarm; returns true if it was armed. */
bool sim_hrtimer_cancel(struct sim_host *h, struct sim_hrtimer *t);

/* ----- accounting ----- */

/* Bring every CPU's accounting up to sim_now(). */
void sim_host_sync(struct sim_host *h);

/* Cumulative counters of @cpu (call sim_host_sync() first). */
void sim_host_acct(const struct sim_host *h, unsigned cpu,
		   struct sim_acct_sample *out);

/* @cpu's idle-state counters (sim_idle.h): entries per state, tick
 * wake-ups, time spent waking up. */
void sim_host_idle(const struct sim_host *h, unsigned cpu, uint64_t *usage,
		   uint64_t *ticks, uint64_t *exit_ns);

#endif /* RXSCALE_SIM_HOST_H */
