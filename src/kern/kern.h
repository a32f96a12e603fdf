/* SPDX-License-Identifier: MIT */
/*
 * kern.h - the simulated kernel instance behind the kernel-like API.
 *
 * Linux has one kernel per machine; so does a simulation: the functions
 * of src/kern (readl, napi_schedule, request_irq...) act on the instance
 * installed with kern_init(), reachable as the global `kern`.  It binds
 * the API to a simulated host (src/sim): CPUs, DMA memory, interrupts.
 *
 * Everything here is deterministic given the seed passed to kern_init().
 */
#ifndef RXSCALE_KERN_KERN_H
#define RXSCALE_KERN_KERN_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "plat/plat_mem.h"
#include "sim/sim_host.h"
#include "sim/sim_rng.h"

#define KERN_NR_IRQS 512
#define KERN_IRQ_BASE 32        /* first Linux irq number handed out */
#define NETDEV_RSS_KEY_LEN 52   /* include/linux/netdevice.h */

/* Release @dev's managed resources, newest first (the driver core after
 * a failed probe or after remove; drivers/base/devres.c). */
struct device;
void devres_release_all(struct device *dev);

struct kern_irq_desc;
struct kern_worker;
struct kern_bh_cpu;
struct work_struct;
struct kern_timer_cpu;
struct softnet_data;
struct net_device;
struct netdev_queue;

/* Fault knobs, as netdevsim exposes them: make allocations fail so that
 * error paths and fallbacks are exercised. */
struct kern_faults {
	/* If >= 0, at most this many MSI-X vectors are available (0 = MSI-X
	 * unavailable); -1 = the device's table size. */
	int msix_avail;
	bool msi_fail;                  /* MSI allocation fails */
	/* If > 0, the Nth dma_alloc_coherent/dma_map_single from now fails
	 * (1 = the next one). */
	unsigned dma_fail_nth;
	unsigned skb_fail_nth;          /* same for skb allocation */
	/* Linux fault injection's task-filter (fault-injection.rst): a
	 * knob with its filter set counts only allocations made by a task
	 * marked make-it-fail (/proc/PID/make-it-fail), i.e. while
	 * @make_it_fail is set around such a task's system call */
	bool dma_task_filter, skb_task_filter;
	bool make_it_fail;
	unsigned irq_fail_nth;          /* same for request_irq (-ENOMEM) */
	unsigned urb_fail_nth;          /* same for usb_alloc_urb */
};

/* Counters of things a correct driver never does (napi.rst contract,
 * API misuse).  Tests assert they stay zero, or that a buggy fake driver
 * trips the right one. */
struct kern_warnings {
	uint64_t napi_over_budget;      /* poll returned > budget */
	uint64_t napi_not_completed;    /* returned < budget without napi_complete_done */
	uint64_t napi_complete_at_budget; /* completed although work == budget */
	uint64_t napi_budget0_work;     /* RX work or completion with budget 0 */
	uint64_t napi_sched_disabled;   /* __napi_schedule on a disabled napi */
	uint64_t napi_disable_disabled; /* napi_disable of a disabled (or never
					   enabled) napi: Linux waits forever */
	uint64_t napi_del_enabled;      /* netif_napi_del of an enabled napi */
	uint64_t irq_unhandled;         /* handler returned IRQ_NONE */
	uint64_t dma_unsynced_read;     /* copy from a DMA buffer the device owns */
	uint64_t bql_overcomplete;      /* completed bytes never reported sent */
	uint64_t other;
};

struct kern {
	struct sim *sim;
	struct sim_host *host;
	struct plat_mem mem;             /* DMA-visible host memory */
	struct sim_rng rng;             /* kernel randomness (RSS key...) */
	u8 rss_key[NETDEV_RSS_KEY_LEN]; /* netdev_rss_key, filled once */
	bool rss_key_filled;

	/* sysctls (net.core.*), Linux defaults */
	int netdev_budget;              /* 300 */
	unsigned netdev_budget_usecs;   /* 2 * USEC_PER_SEC / HZ = 8000 */
	int dev_weight;                 /* 64 (NAPI_POLL_WEIGHT) */
	/* netif_get_num_default_rss_queues(): the RX queues a multi-queue
	 * driver starts with (ethtool -L changes them later).  0 = the
	 * host's CPU count (Linux: the CPUs less SMT siblings, at most 8);
	 * a scenario's nic.rx_queues sets it.  Kernel policy, not a driver
	 * knob: the drivers have no module parameters. */
	unsigned default_rss_queues;

	/* CPUs interrupts may target; vectors are spread round-robin over
	 * them from the lowest (smp_affinity default). */
	struct sim_cpuset irq_cpus;
	unsigned irq_next;              /* next CPU for the round-robin */
	struct kern_irq_desc *irq_desc; /* KERN_NR_IRQS entries */

	struct softnet_data *sd;        /* per CPU */
	struct kern_worker *workers;    /* per CPU: the system workqueue's
					   kworkers (workqueue.c) */
	struct kern_timer_cpu *timer_cpu; /* per CPU: expired timer_lists */
	struct kern_bh_cpu *bh;         /* per CPU: BH work and tasklets
					   (softirq.c) */

	struct kern_faults fault;
	struct kern_warnings warn;
	unsigned ifindex_next;

	/* live object counts for leak checks */
	uint64_t skbs_live, skbs_alloced;
	/* freed skbs of the pooled size, for reuse (skbuff.c) */
	struct sk_buff *skb_pool;
	unsigned skb_pool_n;
	uint64_t dma_live;

	/* Test hook: called after each MMIO write the CPU makes, so a test
	 * can let the device (and other CPUs) act at an exact point of a
	 * driver's code, as they would in parallel on real hardware.  NULL
	 * = none. */
	void (*mmio_write_hook)(void *arg, volatile void *addr, unsigned size,
				u64 val);
	void *mmio_write_hook_arg;

	/* Test hook: called by netif_tx_stop_queue() before the stop takes
	 * effect, so a test can run a TX completion on "another CPU" in the
	 * window a real race has.  NULL = none. */
	void (*tx_stop_hook)(void *arg, struct netdev_queue *q);
	void *tx_stop_hook_arg;

	FILE *log;                      /* kernel log (dmesg); NULL = discard */
	char last_log[256];             /* last message, for tests */
	unsigned log_errors;            /* messages at KERN_ERR or worse */
};

/* The running kernel (set by kern_init, cleared by kern_fini). */
extern struct kern *kern;

/*
 * Bring up kernel @k on host @host (engine host->sim), randomness from
 * @seed.  Registers NET_RX/NET_TX softirqs.  Returns 0 or -ENOMEM.
 */
int kern_init(struct kern *k, struct sim_host *host, uint64_t seed);

/* Tear down: frees DMA memory still allocated. */
void kern_fini(struct kern *k);

/* Restrict interrupt targets to @cpus (smp_affinity for all vectors) and
 * re-spread every allocated vector over them round-robin.  Returns 0 or
 * -EINVAL for an empty set. */
int kern_irq_restrict(struct kern *k, const struct sim_cpuset *cpus);

/* The kworker of @cpu's system workqueue pool, or NULL while no work
 * was ever queued there (workqueue.c creates it on first use); and how
 * many work items it ran. */
const struct sim_task *kern_kworker(const struct kern *k, unsigned cpu);
u64 kern_kworker_runs(const struct kern *k, unsigned cpu);
/* kern_init/kern_fini's part for the workqueue (0 or -ENOMEM). */
int kern_workqueue_init(struct kern *k);
void kern_workqueue_fini(struct kern *k);

/*
 * The CPUs application threads @tasks[0..n) start on (their first
 * wakeup's "previous CPU").  Linux's fork and exec balancing
 * (sched_balance_find_dst_cpu()) puts a new task on the idlest CPU of the
 * highest capacity; before any traffic every CPU is idle and the choice is
 * arbitrary.  The model resolves it as the first seconds of traffic would:
 * the fastest allowed CPUs, and among them the one the fewest interrupt
 * vectors target (then the fewest threads placed so far, then the lowest
 * number); with SMT, counting its core's vectors and threads first.
 */
void kern_app_start_cpus(struct sim_task **tasks, unsigned n);

/* The TASKLET and HI softirqs (softirq.c): KERN_BH_LO is TASKLET and
 * system_bh_wq, KERN_BH_HI is HI and system_bh_highpri_wq. */
enum { KERN_BH_LO, KERN_BH_HI, KERN_BH_NR };
int kern_softirq_init(struct kern *k);
void kern_softirq_fini(struct kern *k);
/* Take @work off a BH worklist; true if it was queued there. */
bool kern_bh_cancel_work(struct work_struct *work);
/* BH work items and tasklets @cpu's softirq @prio ran so far. */
void kern_bh_counts(const struct kern *k, unsigned cpu, unsigned prio,
		    u64 *work_runs, u64 *tasklet_runs);

/* Charge @ps picoseconds of work to the running CPU. */
static inline void kern_charge_ps(u64 ps)
{
	sim_charge_ps(kern->host, ps);
}

/* dma_map_single() without its cost, for the kernel's own mappings whose
 * cost is part of a larger row (usb_submit). */
dma_addr_t kern_dma_map(struct device *dev, void *ptr, size_t size,
			enum dma_data_direction dir);

/* The kernel's CPU set type and the platform's are the same bitmap. */
static inline const struct sim_cpuset *kern_cpuset(const struct cpumask *m)
{
	return (const struct sim_cpuset *)(const void *)m;
}

/* Free the skbs kept for reuse (kern_fini). */
void kern_skb_pool_fini(struct kern *k);

/* Charge named cost @id once to the running CPU (no-op outside a CPU):
 * what the kernel API call that the driver made costs, so a driver costs
 * what it does.  Only src/kern charges; drivers never do. */
static inline void kern_charge(enum sim_cost_id id)
{
	sim_charge(kern->host, id, 1);
}

/* Charge @id @count times (per-byte costs). */
static inline void kern_charge_n(enum sim_cost_id id, u64 count)
{
	sim_charge(kern->host, id, count);
}


#endif /* RXSCALE_KERN_KERN_H */
