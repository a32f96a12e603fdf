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

#include "kern/barrier.h"
#include "kern/netdevice.h"

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

#endif /* RXSCALE_KERN_NETDEV_QUEUES_H */
