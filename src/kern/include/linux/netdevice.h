/* SPDX-License-Identifier: MIT */
/*
 * netdevice.h - struct net_device and NAPI, the subset of Linux's
 * include/linux/netdevice.h that an r8169-style driver uses.
 *
 * NAPI follows Documentation/networking/napi.rst and net/core/dev.c
 * semantics (re-implemented, not copied):
 *  - napi_schedule_prep() claims the instance (SCHED) or, if already
 *    scheduled, records MISSED so that completion polls once more;
 *  - __napi_schedule() puts it on the running CPU's poll list and raises
 *    NET_RX there, unless that CPU is inside net_rx_action(), which then
 *    serves it before it returns (sd->in_net_rx_action, Linux 6.4 on);
 *  - net_rx_action() polls each instance with its weight, within
 *    netdev_budget packets and netdev_budget_usecs per softirq pass
 *    (counted in jiffies: it stops once jiffies reaches its start +
 *    usecs_to_jiffies(netdev_budget_usecs)); an instance that used its
 *    whole weight goes to the tail and is polled again; leftovers
 *    re-raise NET_RX;
 *  - the poll method returns the RX work done; it returns exactly the
 *    budget if work remains and must then not complete; otherwise it
 *    calls napi_complete_done(), and re-enables interrupts only if that
 *    returns true; with budget 0 it does no RX work and never completes.
 * Violations are counted in kern->warn (napi_*) and logged.
 *
 * Software interrupt coalescing: dev->napi_defer_hard_irqs and
 * dev->gro_flush_timeout (ns) make napi_complete_done() return false and
 * arm a per-NAPI timer that reschedules the poll, keeping the device's
 * interrupt masked (net/core/dev.c behaviour since Linux 5.10).
 */
#ifndef RXSCALE_KERN_NETDEVICE_H
#define RXSCALE_KERN_NETDEVICE_H

#include <linux/bitops.h>
#include <linux/ethtool.h>
#include <linux/hrtimer.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>

/* Fill @buf with @len (<= 52) bytes of the boot-time random RSS key
 * (netdev_rss_key_fill): every device gets the same key, as in Linux. */
void netdev_rss_key_fill(void *buf, size_t len);

/* dev->priv_flags: the user set the RSS indirection table (ethtool -X), so
 * the driver must keep it across channel changes (Linux IFF_RXFH_CONFIGURED). */
#define IFF_RXFH_CONFIGURED BIT(0)

/* Offload feature bits (Linux netdev_features_t). Only the one the drivers
 * use: NETIF_F_RXHASH, "receive-hashing" in `ethtool -k`: the device puts
 * its RSS hash on each skb (skb_set_hash). A driver sets it in hw_features
 * (user-switchable) and features (on now), and honours features. */
typedef u64 netdev_features_t;
#define NETIF_F_RXHASH ((netdev_features_t)1 << 0)

/* dev->flags (uapi IFF_*) */
#define IFF_UP BIT(0)
#define IFF_PROMISC BIT(8)

#define NAPI_POLL_WEIGHT 64
#define MAX_ADDR_LEN 32         /* hardware address storage */

/* napi->state bits */
enum {
	NAPI_STATE_SCHED,       /* scheduled or being polled */
	NAPI_STATE_MISSED,      /* scheduled again while scheduled */
	NAPI_STATE_DISABLE,     /* napi_disable() in effect */
	NAPI_STATE_LISTED,      /* netif_napi_add() done */
};

struct napi_struct {
	unsigned long state;
	int weight;
	int (*poll)(struct napi_struct *napi, int budget);
	struct net_device *dev;
	struct napi_struct *poll_next;  /* link in a CPU's poll list */
	bool on_list;
	int list_cpu;                   /* CPU whose list holds it */
	int defer_hard_irqs_count;
	struct hrtimer timer;           /* gro_flush_timeout watchdog */
	/* contract tracking while the poll method runs */
	bool in_poll;
	int poll_budget;
	bool completed;
	/* statistics */
	u64 polls;
	u64 work;                       /* packets reported by poll */
	u64 timer_fires;
	unsigned int napi_id;
};

enum netdev_tx {
	NETDEV_TX_OK = 0x00,
	NETDEV_TX_BUSY = 0x10,
};
typedef enum netdev_tx netdev_tx_t;

/* netdev_queue->state bits */
enum { __QUEUE_STATE_DRV_XOFF };

#define KERN_QDISC_LEN 1000     /* txqueuelen default */

struct netdev_queue {
	struct net_device *dev;
	unsigned long state;
	unsigned int index;
	/* a pfifo qdisc in front of the driver (txqueuelen packets) */
	struct sk_buff *q_head, *q_tail;
	unsigned int q_len;
	u64 q_drops;
	/* __QDISC_STATE_SCHED: on a CPU's output queue for NET_TX */
	bool q_sched;
	struct netdev_queue *q_out_next;
	/* byte queue limits: bytes the driver reported sent and completed
	 * (netdev_tx_sent_queue/_completed_queue) */
	u64 bql_queued, bql_completed;
	struct napi_struct *napi;       /* netif_queue_set_napi() */
	/* jiffies of the last frame the driver took (txq_trans_update) and
	 * the TX watchdog's timeouts of this queue */
	unsigned long trans_start;
	unsigned long trans_timeout;
};

/*
 * Byte queue limits (include/linux/netdevice.h, lib/dynamic_queue_limits.c):
 * the driver reports the bytes it hands the device and, on completion, the
 * bytes the device is done with.  Completing more than was reported sent
 * is a driver bug that Linux stops on (BUG in dql_completed); here it is
 * counted in kern->warn.bql_overcomplete and logged.  The dynamic limit
 * itself is not modelled: BQL never stops a queue here.
 */
void netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes);
/*
 * The same, for a driver that defers its doorbell while the stack has more
 * frames for it (netdev_xmit_more()): with @xmit_more the bytes are only
 * counted, and the return says whether the doorbell must ring anyway (the
 * queue is stopped, so no later call will come to ring it); without it,
 * netdev_tx_sent_queue() and true (include/linux/netdevice.h).
 */
bool __netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes,
			    bool xmit_more);
/*
 * True while the caller of ndo_start_xmit has further frames for the
 * device right behind this one (Linux: a GSO segment list, or a bulk
 * qdisc dequeue), so a driver may leave the doorbell for the last one.
 * The simulated stack hands the driver one frame per qdisc run step and
 * builds no segment lists (load_iperf3.h), so here it is always false.
 */
static inline bool netdev_xmit_more(void)
{
	return false;
}
void netdev_tx_completed_queue(struct netdev_queue *q, unsigned int pkts,
			       unsigned int bytes);
/* Forget what was in flight (after the driver dropped its ring). */
void netdev_tx_reset_queue(struct netdev_queue *q);

/* Interface counters as `ip -s link` and /proc/net/dev show them (Linux
 * uapi <linux/if_link.h>, the same members in the same order). */
struct rtnl_link_stats64 {
	u64 rx_packets;
	u64 tx_packets;
	u64 rx_bytes;
	u64 tx_bytes;
	u64 rx_errors;
	u64 tx_errors;
	u64 rx_dropped;
	u64 tx_dropped;
	u64 multicast;
	u64 collisions;
	u64 rx_length_errors;
	u64 rx_over_errors;
	u64 rx_crc_errors;
	u64 rx_frame_errors;
	u64 rx_fifo_errors;
	u64 rx_missed_errors;
	u64 tx_aborted_errors;
	u64 tx_carrier_errors;
	u64 tx_fifo_errors;
	u64 tx_heartbeat_errors;
	u64 tx_window_errors;
	u64 rx_compressed;
	u64 tx_compressed;
	u64 rx_nohandler;
	u64 rx_otherhost_dropped;
};

struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	void (*ndo_set_rx_mode)(struct net_device *dev);
	/* fill @storage (zeroed by the caller, dev_get_stats) from the
	 * driver's counters; may run on any CPU, beside the datapath */
	void (*ndo_get_stats64)(struct net_device *dev,
				struct rtnl_link_stats64 *storage);
	/* the TX watchdog found queue @txqueue stopped for longer than
	 * watchdog_timeo; called in the watchdog timer (softirq) */
	void (*ndo_tx_timeout)(struct net_device *dev, unsigned int txqueue);
};

/* The kind of queue netif_queue_set_napi() names (uapi <linux/netdev.h>). */
enum netdev_queue_type {
	NETDEV_QUEUE_TYPE_RX,
	NETDEV_QUEUE_TYPE_TX,
};

/* An RX queue of the device as the core keeps it (Linux struct
 * netdev_rx_queue, the member used here). */
struct netdev_rx_queue {
	struct net_device *dev;
	struct napi_struct *napi;       /* netif_queue_set_napi() */
};

struct netdev_stat_ops;

/* The stack's receive hook: gets every skb napi_gro_receive() hands up
 * (ownership passes), with the NAPI it came from. */
typedef void (*netdev_rx_handler_t)(struct sk_buff *skb,
				    struct napi_struct *napi, void *data);
/* The stack's poll-end hook (GRO flush), may be NULL. */
typedef void (*netdev_rx_flush_t)(struct napi_struct *napi, void *data);

/* Core counters kept by the kernel itself (not the driver). */
struct net_device_core_stats {
	u64 rx_nohandler;       /* received with no stack hook installed */
	u64 tx_dropped;         /* qdisc full or driver refused */
	u64 rx_packets;         /* handed to the stack by napi_gro_receive */
	u64 rx_bytes;
};

struct net_device {
	char name[IFNAMSIZ];            /* "eth0" */
	int ifindex;
	const struct ethtool_ops *ethtool_ops;
	const struct net_device_ops *netdev_ops;
	/* per-queue statistics (netdev_queues.h), may be NULL */
	const struct netdev_stat_ops *stat_ops;
	unsigned int priv_flags;        /* IFF_RXFH_CONFIGURED */
	unsigned int flags;             /* IFF_UP, IFF_PROMISC */
	netdev_features_t features;     /* NETIF_F_* on now */
	netdev_features_t hw_features;  /* NETIF_F_* the user may switch */
	unsigned int num_rx_queues;     /* allocated RX queues (maximum) */
	unsigned int real_num_rx_queues;/* RX queues in use */
	unsigned int num_tx_queues;
	unsigned int real_num_tx_queues;
	unsigned int mtu;               /* bytes, L3 */
	unsigned int min_mtu, max_mtu;
	/* Read-only for drivers since Linux 5.17: set it with
	 * eth_hw_addr_set(); points at dev_addr_shadow. */
	const unsigned char *dev_addr;
	unsigned char addr_assign_type; /* NET_ADDR_PERM, NET_ADDR_RANDOM */
	unsigned char dev_addr_shadow[MAX_ADDR_LEN];
	bool registered, running, carrier;
	u64 carrier_changes;
	struct netdev_queue *_tx;       /* num_tx_queues */
	struct netdev_rx_queue *_rx;    /* num_rx_queues */
	struct device dev;              /* .parent: the bus device (SET_NETDEV_DEV) */
	/* software IRQ coalescing (sysfs napi_defer_hard_irqs,
	 * gro_flush_timeout in ns) */
	int napi_defer_hard_irqs;
	u64 gro_flush_timeout;
	netdev_rx_handler_t rx_handler;
	netdev_rx_flush_t rx_flush;
	void *rx_handler_data;
	struct net_device_core_stats core_stats;
	/* the TX watchdog (ndo_tx_timeout): its period and limit in jiffies
	 * (5 s when the driver leaves it 0), and its timer */
	int watchdog_timeo;
	struct timer_list watchdog_timer;
	int promiscuity;
	void *priv;                     /* driver private area (netdev_priv) */
};

/* True when the user has set the indirection table (Linux helper of the same
 * name); drivers must not reset it to the default on channel changes. */
static inline bool netif_is_rxfh_configured(const struct net_device *dev)
{
	return dev->priv_flags & IFF_RXFH_CONFIGURED;
}

/* Tie @net to its bus device @pdev (before register_netdev). */
#define SET_NETDEV_DEV(net, pdev) ((net)->dev.parent = (pdev))

/* Set the hardware address: @len bytes (dev_addr_set; an Ethernet
 * address: eth_hw_addr_set, <linux/etherdevice.h>). */
static inline void dev_addr_set(struct net_device *dev, const u8 *addr,
				unsigned int len)
{
	for (unsigned int i = 0; i < len && i < MAX_ADDR_LEN; i++)
		dev->dev_addr_shadow[i] = addr[i];
}

/* dev->addr_assign_type (uapi <linux/netdevice.h>) */
#define NET_ADDR_PERM 0         /* from the device */
#define NET_ADDR_RANDOM 1       /* eth_hw_addr_random() */

/* Driver private area allocated with the netdev. */
static inline void *netdev_priv(const struct net_device *dev)
{
	return dev->priv;
}

/* ----- allocation and registration ----- */

void free_netdev(struct net_device *dev);

/* Name it "ethN" (N = lowest free index) and make it visible.  Returns 0
 * or -EINVAL if already registered. */
int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);

/* Bring the interface up (ip link set up): ndo_open.  Returns the
 * driver's result, 0 if already up; @extack may be NULL (Linux
 * dev_open(dev, extack)). */
int dev_open(struct net_device *dev, struct netlink_ext_ack *extack);
/* Bring it down (ip link set down): ndo_stop, then the queued TX packets
 * are dropped.  Nothing to report, as in Linux. */
void dev_close(struct net_device *dev);

/* Add @inc (+1/-1) to the promiscuity count (dev_set_promiscuity):
 * IFF_PROMISC follows it and the driver's ndo_set_rx_mode is told. */
void dev_set_promiscuity(struct net_device *dev, int inc);

static inline bool netif_running(const struct net_device *dev)
{
	return dev->running;
}

/* The RX queue count a multi-queue driver starts with (Linux: the CPUs
 * less SMT siblings, at most DEFAULT_MAX_NUM_RSS_QUEUES): here the
 * simulated kernel's kern->default_rss_queues, or the host's CPU count. */
int netif_get_num_default_rss_queues(void);

/* Set the queue counts in use; Returns 0 or -EINVAL if above the
 * allocated number or zero. */
int netif_set_real_num_rx_queues(struct net_device *dev, unsigned int rxq);
int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int txq);

/* Software interrupt coalescing on by default (Linux
 * netdev_sw_irq_coalesce_default_on, used by r8169): gro_flush_timeout
 * 20000 ns, napi_defer_hard_irqs 1 (net/core/dev.c). */
static inline void netdev_sw_irq_coalesce_default_on(struct net_device *dev)
{
	dev->gro_flush_timeout = 20000;
	dev->napi_defer_hard_irqs = 1;
}

/*
 * The device's counters (dev_get_stats): @storage zeroed, the driver's
 * ndo_get_stats64 if it has one, then the core's own drops added
 * (tx_dropped, rx_nohandler), as net/core/dev.c does.  Returns @storage.
 */
struct rtnl_link_stats64 *dev_get_stats(struct net_device *dev,
					struct rtnl_link_stats64 *storage);

/*
 * Name @napi as the instance that serves queue @queue_index of @type (or
 * none: NULL), for the netdev netlink family's queue-get
 * (net/core/dev.c).  Called under RTNL with @napi added
 * (netif_napi_add); a NULL napi->dev is refused and counted as a warning,
 * as Linux WARNs.  A pointer store: not charged.
 */
void netif_queue_set_napi(struct net_device *dev, unsigned int queue_index,
			  enum netdev_queue_type type, struct napi_struct *napi);

/* ----- carrier ----- */

void netif_carrier_on(struct net_device *dev);
void netif_carrier_off(struct net_device *dev);
static inline bool netif_carrier_ok(const struct net_device *dev)
{
	return dev->carrier;
}

/* ----- TX queues ----- */

static inline struct netdev_queue *netdev_get_tx_queue(
	const struct net_device *dev, unsigned int index)
{
	return &dev->_tx[index];
}

/* The queue-state bit is set and cleared atomically (set_bit/clear_bit):
 * ndo_start_xmit and the TX completion may run at once on two CPUs. */
static inline bool netif_tx_queue_stopped(const struct netdev_queue *q)
{
	return test_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

/* Stop the queue: the stack hands it nothing until it is woken. */
void netif_tx_stop_queue(struct netdev_queue *q);

static inline void netif_tx_start_queue(struct netdev_queue *q)
{
	clear_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

/* Restart a stopped queue and feed it what waited in its qdisc. */
void netif_tx_wake_queue(struct netdev_queue *q);

void netif_tx_start_all_queues(struct net_device *dev);
void netif_tx_stop_all_queues(struct net_device *dev);
/* Stop every TX queue after any start_xmit running on it has returned
 * (Linux takes each queue's xmit lock; one thread runs here). */
void netif_tx_disable(struct net_device *dev);
void netif_tx_wake_all_queues(struct net_device *dev);

/*
 * Transmit @skb on skb->dev (dev_queue_xmit): queue skb->queue_mapping
 * (modulo the queues in use).  A stopped queue holds it in the qdisc;
 * a full qdisc, a down device or NETDEV_TX_BUSY with a full qdisc drops
 * it (core_stats.tx_dropped).  Returns 0 or -ENETDOWN/-ENOBUFS (dropped).
 */
int dev_queue_xmit(struct sk_buff *skb);

/* ----- NAPI ----- */

/* Add @napi for @dev with poll method @poll and weight 64
 * (netif_napi_add); it starts disabled (napi_enable to use). */
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int));
void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight);
void netif_napi_del(struct napi_struct *napi);

void napi_enable(struct napi_struct *napi);
/* Stop polling: takes the instance off any poll list and leaves it
 * claimed so napi_schedule() fails until napi_enable(). */
void napi_disable(struct napi_struct *napi);

/* Claim @napi for scheduling; false if disabled or already scheduled
 * (then MISSED is recorded). */
bool napi_schedule_prep(struct napi_struct *napi);

/* Put a claimed @napi on the running CPU's poll list and raise NET_RX. */
void __napi_schedule(struct napi_struct *napi);
static inline void __napi_schedule_irqoff(struct napi_struct *napi)
{
	__napi_schedule(napi);
}

/* prep + __napi_schedule; returns whether it was scheduled now. */
bool napi_schedule(struct napi_struct *napi);

static inline bool napi_is_scheduled(const struct napi_struct *napi)
{
	return napi->state & BIT(NAPI_STATE_SCHED);
}

/*
 * Mark @napi done after @work_done packets of RX work.  Returns false when
 * the driver must not re-enable interrupts: MISSED was set (the instance
 * is rescheduled) or software coalescing armed the watchdog timer.
 */
bool napi_complete_done(struct napi_struct *napi, int work_done);
static inline bool napi_complete(struct napi_struct *napi)
{
	return napi_complete_done(napi, 0);
}

/* Hand @skb up the stack (GRO is the stack model's job).  Counts
 * rx_packets/rx_bytes; with no rx_handler the skb is dropped and counted
 * in rx_nohandler. */
void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);

/* Install the stack's receive and flush hooks on @dev. */
void kern_netdev_set_rx_handler(struct net_device *dev,
				netdev_rx_handler_t rx, netdev_rx_flush_t flush,
				void *data);

/*
 * Call @napi's poll method directly with @budget, as netpoll does (budget
 * 0) or a contract test would, with the napi.rst checks applied.  Returns
 * the poll's result.
 */
int kern_napi_poll_direct(struct napi_struct *napi, int budget);

/* Per-CPU NAPI state (Linux struct softnet_data subset). */
struct softnet_data {
	struct napi_struct *poll_head, *poll_tail;      /* scheduled */
	/* net_rx_action() pass state */
	struct napi_struct *list_head, *list_tail;      /* being served */
	struct napi_struct *repoll_head, *repoll_tail;  /* used full weight */
	int budget;
	unsigned long time_limit;       /* jiffies */
	/* qdiscs waiting for NET_TX (softnet_data.output_queue) */
	struct netdev_queue *out_head, *out_tail;
	struct netdev_queue *tx_run_head;       /* net_tx_action's list */
	/* inside net_rx_action() on this CPU: __napi_schedule() adds to
	 * poll_list without raising NET_RX, the running action picks it up
	 * (net/core/dev.c, Linux 6.4 on) */
	bool in_net_rx_action;
	/* /proc/net/softnet_stat columns */
	u64 processed;          /* packets reported by polls */
	u64 time_squeeze;       /* passes cut by budget or time */
	u64 polls;
};

#endif /* RXSCALE_KERN_NETDEVICE_H */
