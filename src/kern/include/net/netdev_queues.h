/* SPDX-License-Identifier: MIT */
/*
 * netdev_queues.h - lockless TX queue stop/wake helpers (Linux
 * include/net/netdev_queues.h), re-implemented with the kernel's
 * semantics:
 *
 * One producer (ndo_start_xmit) stops the queue when fewer than
 * @stop_thrs descriptors are free; one consumer (TX completion in NAPI)
 * wakes it when at least @start_thrs are free.  They may run at once on
 * two CPUs.  The stopper stops first, then issues a full barrier and
 * re-reads the free count: if the consumer freed descriptors in between
 * (and so may have seen the queue still running and not woken it), the
 * stopper restarts the queue itself.  The consumer publishes its progress
 * (its ring index), issues a full barrier, then tests the stopped bit.
 * One of the two always sees the other's write, so the queue cannot stay
 * stopped with free descriptors.
 *
 * @get_desc is evaluated more than once and must re-read the ring state
 * each time (a function call or an expression over READ_ONCE values).
 *
 * Return values (as Linux):
 *   netif_txq_try_stop:      0 stopped, -1 stopped and restarted at once
 *   netif_txq_maybe_stop:    1 not stopped (enough room), else try_stop's
 *   netif_txq_completed_wake: 0 woken, 1 already running (or @down_cond),
 *                            -1 left alone (nothing completed, or fewer
 *                            than @start_thrs free)
 *
 * This kernel has no byte queue limits (BQL): the completion side's
 * barrier is issued whenever bytes were completed, as Linux does without
 * CONFIG_BQL.
 */
#ifndef RXSCALE_KERN_NETDEV_QUEUES_H
#define RXSCALE_KERN_NETDEV_QUEUES_H

#include <linux/netdevice.h>
#include <asm/barrier.h>

#define netif_txq_try_stop(txq, get_desc, start_thrs)			\
	({								\
		int _res_ts = 0;						\
									\
		netif_tx_stop_queue(txq);				\
		smp_mb__after_atomic();					\
		if (unlikely((get_desc) >= (start_thrs))) {		\
			netif_tx_start_queue(txq);			\
			_res_ts = -1;					\
		}							\
		_res_ts;							\
	})

#define netif_txq_maybe_stop(txq, get_desc, stop_thrs, start_thrs)	\
	({								\
		int _res_ms = 1;						\
									\
		if (unlikely((get_desc) < (stop_thrs)))			\
			_res_ms = netif_txq_try_stop(txq, get_desc, start_thrs); \
		_res_ms;							\
	})

/* Completion side of the stop/wake protocol: BQL accounting (Linux has
 * CONFIG_BQL on every distribution kernel) with its full barrier. */
static inline void netdev_txq_completed_mb(struct netdev_queue *txq,
					   unsigned int pkts,
					   unsigned int bytes)
{
	netdev_tx_completed_queue(txq, pkts, bytes);
}

#define __netif_txq_completed_wake(txq, pkts, bytes, get_desc,		\
				   start_thrs, down_cond)		\
	({								\
		int _res_cw = -1;						\
									\
		netdev_txq_completed_mb(txq, pkts, bytes);		\
		if ((pkts) && likely((get_desc) >= (start_thrs))) {	\
			_res_cw = 1;					\
			if (unlikely(netif_tx_queue_stopped(txq)) &&	\
			    !(down_cond)) {				\
				netif_tx_wake_queue(txq);		\
				_res_cw = 0;				\
			}						\
		}							\
		_res_cw;							\
	})

#define netif_txq_completed_wake(txq, pkts, bytes, get_desc, start_thrs) \
	__netif_txq_completed_wake(txq, pkts, bytes, get_desc, start_thrs, false)

#define netif_subqueue_try_stop(dev, idx, get_desc, start_thrs)	\
	netif_txq_try_stop(netdev_get_tx_queue(dev, idx), get_desc, start_thrs)

#define netif_subqueue_maybe_stop(dev, idx, get_desc, stop_thrs, start_thrs) \
	netif_txq_maybe_stop(netdev_get_tx_queue(dev, idx), get_desc,	\
			     stop_thrs, start_thrs)

#define netif_subqueue_completed_wake(dev, idx, pkts, bytes, get_desc,	\
				      start_thrs)			\
	netif_txq_completed_wake(netdev_get_tx_queue(dev, idx), pkts,	\
				 bytes, get_desc, start_thrs)

/*
 * Per-queue statistics (include/net/netdev_queues.h; the counters are
 * defined by Documentation/netlink/specs/netdev.yaml, "qstats").  The
 * netdev netlink family's qstats-get asks the driver for each RX and TX
 * queue in use, and for the base: whatever the per-queue answers miss
 * (queues no longer in use), so that base plus queues is the device's
 * total.  The core fills a struct with all-ones ("not reported") before
 * each call; a driver sets only what it counts, and in get_base_stats it
 * sets (to 0 if need be) every counter it reports per queue.  Called
 * under RTNL.
 */
struct netdev_queue_stats_rx {
	u64 bytes;
	u64 packets;
	u64 alloc_fail;
	u64 hw_drops;
	u64 hw_drop_overruns;
	u64 csum_complete;
	u64 csum_unnecessary;
	u64 csum_none;
	u64 csum_bad;
	u64 hw_gro_packets;
	u64 hw_gro_bytes;
	u64 hw_gro_wire_packets;
	u64 hw_gro_wire_bytes;
	u64 hw_drop_ratelimits;
};

struct netdev_queue_stats_tx {
	u64 bytes;
	u64 packets;
	u64 hw_drops;
	u64 hw_drop_errors;
	u64 csum_none;
	u64 needs_csum;
	u64 hw_gso_packets;
	u64 hw_gso_bytes;
	u64 hw_gso_wire_packets;
	u64 hw_gso_wire_bytes;
	u64 hw_drop_ratelimits;
	u64 stop;
	u64 wake;
};

struct netdev_stat_ops {
	void (*get_queue_stats_rx)(struct net_device *dev, int idx,
				   struct netdev_queue_stats_rx *stats);
	void (*get_queue_stats_tx)(struct net_device *dev, int idx,
				   struct netdev_queue_stats_tx *stats);
	void (*get_base_stats)(struct net_device *dev,
			       struct netdev_queue_stats_rx *rx,
			       struct netdev_queue_stats_tx *tx);
};

/* The value the core puts in every counter before asking the driver:
 * one left so was not reported (net/core/netdev-genl.c memsets 0xff). */
#define NETDEV_QSTAT_UNSET (~(u64)0)

/*
 * Add queues [@rx_start, @rx_end) and [@tx_start, @tx_end) of @netdev to
 * @rx_sum and @tx_sum, each asked with every counter unset first; a
 * counter unset in the sum or in a queue's answer stays as the sum has it
 * (net/core/netdev-genl.c, exported for drivers).
 */
void netdev_stat_queue_sum(struct net_device *netdev,
			   int rx_start, int rx_end,
			   struct netdev_queue_stats_rx *rx_sum,
			   int tx_start, int tx_end,
			   struct netdev_queue_stats_tx *tx_sum);

/*
 * What qstats-get with scope device reports (net/core/netdev-genl.c,
 * netdev_nl_stats_by_netdev, Linux 7.3): the base, plus every queue in
 * use (real_num_rx/tx_queues); a counter the base leaves unset is not
 * reported (NETDEV_QSTAT_UNSET in @rx/@tx).  Returns 0, or -EOPNOTSUPP
 * when the driver has no get_base_stats.  Not a kernel export: the ynl
 * tool's view, for tests.
 */
int kern_netdev_qstats_dev(struct net_device *dev,
			   struct netdev_queue_stats_rx *rx,
			   struct netdev_queue_stats_tx *tx);

#endif /* RXSCALE_KERN_NETDEV_QUEUES_H */
