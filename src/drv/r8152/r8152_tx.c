// SPDX-License-Identifier: MIT
/*
 * r8152_tx.c - TX aggregation: ndo_start_xmit only queues the skb and
 * schedules the TX tasklet (tx_tl), which packs queued skbs, each behind a
 * 16-byte v2 TX descriptor on a 16-byte boundary, into one of
 * RTL8152_MAX_TX = 4 bulk-out buffers of 16 KiB (research s1.1, s1.2) and
 * submits it.  So the skbs sent before the tasklet runs share one
 * bulk-out transfer.  As Linux's r8152 since 5.4 ("divide the tx and rx
 * bottom functions"): TX in a tasklet, RX in NAPI; a bulk-out completion
 * schedules the tasklet when skbs wait.
 *
 * Flow control follows Linux's r8152 (rtl8152_start_xmit and
 * r8152_tx_agg_fill): the queue stops when ndo_start_xmit finds every
 * buffer in flight and more than a buffer's worth (tx_qlen full-size
 * frames) already waiting, and the tasklet wakes it once it has packed
 * the wait below tx_qlen.  So while all four buffers are on the bus a
 * full buffer's worth of skbs stays queued, and a completion's buffer is
 * refilled at once by the tasklet, without waiting for the qdisc to run
 * again in NET_TX.  Each skb is freed once copied into its buffer; the
 * buffer keeps the counts, which the completion adds to the statistics.
 */
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/usb.h>
#include <net/netdev_queues.h>

#include "r8152.h"

static void write_bulk_callback(struct urb *urb);

/* Bytes one frame of @len takes in a buffer: descriptor, data, padding to
 * the next 16-byte boundary.
 */
static u32 tx_footprint(u32 len)
{
	u32 n = (u32)sizeof(struct rtlu_tx_desc_v2) + len;

	return (n + RTLU_TX_ALIGN - 1) & ~(u32)(RTLU_TX_ALIGN - 1);
}

/* The free list is shared by the completions and the poll: tp->tx_lock. */
static void tx_free_push(struct r8152 *tp, struct tx_agg *agg)
{
	unsigned long flags;

	spin_lock_irqsave(&tp->tx_lock, flags);
	agg->next = tp->tx_free;
	WRITE_ONCE(tp->tx_free, agg);
	spin_unlock_irqrestore(&tp->tx_lock, flags);
}

static struct tx_agg *tx_free_pop(struct r8152 *tp)
{
	unsigned long flags;
	struct tx_agg *agg;

	spin_lock_irqsave(&tp->tx_lock, flags);
	agg = tp->tx_free;
	if (agg) {
		WRITE_ONCE(tp->tx_free, agg->next);
		agg->next = NULL;
	}
	spin_unlock_irqrestore(&tp->tx_lock, flags);
	return agg;
}

/* Room for another skb: a buffer is free, or no more than a buffer's
 * worth waits for one.  A lockless estimate; ndo_start_xmit re-checks
 * after stopping.
 */
static bool tx_has_room(const struct r8152 *tp)
{
	return READ_ONCE(tp->tx_free) ||
	       skb_queue_len(&tp->tx_queue) <= tp->tx_qlen;
}

/* After packing: wake a stopped queue once less than a buffer's worth
 * waits, or after a failed submit (@failed): its buffer is free again and
 * maybe nothing is left in flight whose completion would schedule the
 * tasklet, so the stack's next frame must reach ndo_start_xmit, which
 * schedules it.
 */
static void tx_maybe_wake(struct r8152 *tp, bool failed)
{
	struct netdev_queue *txq = netdev_get_tx_queue(tp->netdev, 0);

	/* order the dequeues before the look at the stopped bit, pairing
	 * with the barrier in r8152_start_xmit's stop-then-recheck
	 */
	smp_mb();
	if (tp->running && netif_tx_queue_stopped(txq) &&
	    (failed || skb_queue_len(&tp->tx_queue) < tp->tx_qlen))
		netif_tx_wake_queue(txq);
}

/**
 * r8152_tx_alloc() - allocate the TX aggregation buffers and their URBs
 * @tp: the device
 *
 * Context: process, RTNL.
 * Return: 0 or -ENOMEM.
 */
int r8152_tx_alloc(struct r8152 *tp)
{
	tp->tx_free = NULL;
	/* full-size frames per buffer (K tx_qlen) */
	tp->tx_qlen = R8152_AGG_BUF_SZ / tx_footprint(tp->netdev->mtu + ETH_HLEN);
	for (unsigned int i = 0; i < RTL8152_MAX_TX; i++) {
		struct tx_agg *agg = &tp->tx_agg[RTL8152_MAX_TX - 1 - i];

		agg->tp = tp;
		agg->head = kzalloc(R8152_AGG_BUF_SZ, GFP_KERNEL);
		agg->urb = usb_alloc_urb(0, GFP_KERNEL);
		if (!agg->head || !agg->urb) {
			r8152_tx_free(tp);
			return -ENOMEM;
		}
		tx_free_push(tp, agg);
	}
	return 0;
}

/* The frames of a buffer that will not go out, counted in @drops: the
 * tasklet's (tl_drops) or the completion's and close's (drops), each under
 * its writer's @syncp (struct r8152_tx_stats).
 */
static void tx_agg_drop_skbs(struct tx_agg *agg, u64_stats_t *drops,
			     struct u64_stats_sync *syncp)
{
	u64_stats_update_begin(syncp);
	u64_stats_add(drops, agg->skb_num);
	u64_stats_update_end(syncp);
	agg->skb_num = 0;
	agg->skb_len = 0;
}

/**
 * r8152_tx_free() - free the TX aggregation buffers and URBs
 * @tp: the device
 *
 * Context: process, RTNL; the URBs are not in flight.
 */
void r8152_tx_free(struct r8152 *tp)
{
	for (unsigned int i = 0; i < RTL8152_MAX_TX; i++) {
		struct tx_agg *agg = &tp->tx_agg[i];

		usb_free_urb(agg->urb);
		tx_agg_drop_skbs(agg, &tp->tx_stats.drops, &tp->tx_stats.syncp);
		kfree(agg->head);
		agg->urb = NULL;
		agg->head = NULL;
	}
	tp->tx_free = NULL;
}

/**
 * r8152_tx_stop() - kill the bulk-out URBs and drop the queued frames
 * @tp: the device
 *
 * Kill the bulk-out URBs in flight (their completions give the buffers
 * back) and drop what was queued but not yet packed.
 *
 * Context: process, RTNL; sleeps.
 */
void r8152_tx_stop(struct r8152 *tp)
{
	struct sk_buff *skb;

	tasklet_kill(&tp->tx_tl);
	for (unsigned int i = 0; i < RTL8152_MAX_TX; i++)
		if (tp->tx_agg[i].urb)
			usb_kill_urb(tp->tx_agg[i].urb);
	while ((skb = skb_dequeue(&tp->tx_queue))) {
		u64_stats_update_begin(&tp->tx_stats.syncp);
		u64_stats_inc(&tp->tx_stats.drops);
		u64_stats_update_end(&tp->tx_stats.syncp);
		kfree_skb(skb);
	}
}

/**
 * r8152_start_xmit() - ndo_start_xmit: queue a frame for the next aggregate
 * @skb: the frame
 * @dev: the network device
 *
 * Context: softirq or process, the queue's xmit lock held.
 * Return: NETDEV_TX_OK.
 */
netdev_tx_t r8152_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct r8152 *tp = netdev_priv(dev);
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);

	if (unlikely(tx_footprint(skb->len) > R8152_AGG_BUF_SZ ||
		     skb->len > RTLU_TX_LEN_MAX)) {
		u64_stats_update_begin(&tp->tx_stats.xmit_syncp);
		u64_stats_inc(&tp->tx_stats.xmit_drops);
		u64_stats_update_end(&tp->tx_stats.xmit_syncp);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	skb_queue_tail(&tp->tx_queue, skb);
	/* pairs with the barrier in write_bulk_callback between giving a
	 * buffer back and looking at tx_queue: either this sees the free
	 * buffer or the completion sees the skb, and one of them schedules
	 * the tasklet
	 */
	smp_mb();
	if (READ_ONCE(tp->tx_free))
		tasklet_schedule(&tp->tx_tl);
	/* every buffer in flight and a buffer's worth waiting: the stack
	 * holds the next skbs until the tasklet has packed these.  Stop,
	 * then look again: a completion on another CPU may have freed a
	 * buffer after the first look (and schedules the tasklet itself).
	 */
	if (!netif_txq_maybe_stop(txq, tx_has_room(tp), 1, 1)) {
		u64_stats_update_begin(&tp->tx_stats.xmit_syncp);
		u64_stats_inc(&tp->tx_stats.stops);
		u64_stats_update_end(&tp->tx_stats.xmit_syncp);
	}
	return NETDEV_TX_OK;
}

/* Pack skbs from tx_queue into @agg while they fit; returns the bytes.
 * The queue is taken whole under its lock (ndo_start_xmit may add to it
 * meanwhile on another CPU) and what did not fit goes back to its front.
 */
static u32 tx_agg_fill(struct r8152 *tp, struct tx_agg *agg)
{
	struct sk_buff_head todo;
	unsigned long flags;
	u32 used = 0;

	__skb_queue_head_init(&todo);
	spin_lock_irqsave(&tp->tx_queue.lock, flags);
	skb_queue_splice_init(&tp->tx_queue, &todo);
	spin_unlock_irqrestore(&tp->tx_queue.lock, flags);

	while (!skb_queue_empty(&todo) &&
	       used + tx_footprint(skb_peek(&todo)->len) <= R8152_AGG_BUF_SZ) {
		struct sk_buff *skb = __skb_dequeue(&todo);
		struct rtlu_tx_desc_v2 *d = (void *)(agg->head + used);

		memset(d, 0, sizeof(*d));
		d->opts1 = cpu_to_le32(RTLU_TX_FS | RTLU_TX_LS);
		d->opts3 = cpu_to_le32(skb->len << RTLU_TX_LEN_SHIFT);
		d->opts4 = cpu_to_le32(RTLU_TX_SIG);
		skb_copy_bits(skb, 0, d + 1, (int)skb->len);
		/* pad bytes between frames are zero, not stale data */
		memset((u8 *)(d + 1) + skb->len, 0,
		       tx_footprint(skb->len) - sizeof(*d) - skb->len);
		used += tx_footprint(skb->len);
		agg->skb_num++;
		agg->skb_len += skb->len;
		/* copied: the skb goes now, not at the completion */
		dev_kfree_skb_any(skb);
	}
	if (!skb_queue_empty(&todo)) {
		spin_lock_irqsave(&tp->tx_queue.lock, flags);
		skb_queue_splice_init(&todo, &tp->tx_queue);
		spin_unlock_irqrestore(&tp->tx_queue.lock, flags);
	}
	return used;
}

/**
 * r8152_tx_bottom() - pack queued frames into free aggregates and submit them
 * @t: the tasklet embedded in the device
 *
 * Context: tasklet (softirq).
 */
void r8152_tx_bottom(struct tasklet_struct *t)
{
	struct r8152 *tp = from_tasklet(tp, t, tx_tl);
	bool failed = false;
	struct tx_agg *agg;

	while (tp->running && !skb_queue_empty(&tp->tx_queue) &&
	       (agg = tx_free_pop(tp))) {
		u32 len = tx_agg_fill(tp, agg);
		int rc;

		usb_fill_bulk_urb(agg->urb, tp->udev,
				  usb_sndbulkpipe(tp->udev, RTLU_EP_BULK_OUT),
				  agg->head, (int)len, write_bulk_callback, agg);
		rc = usb_submit_urb(agg->urb, GFP_ATOMIC);
		if (rc) {
			netdev_warn(tp->netdev, "tx submit failed: %d\n", rc);
			u64_stats_update_begin(&tp->tx_stats.tl_syncp);
			u64_stats_inc(&tp->tx_stats.tl_urb_errors);
			u64_stats_update_end(&tp->tx_stats.tl_syncp);
			tx_agg_drop_skbs(agg, &tp->tx_stats.tl_drops, &tp->tx_stats.tl_syncp);
			tx_free_push(tp, agg);
			failed = true;
			break;
		}
	}
	tx_maybe_wake(tp, failed);
}

/*
 * Bulk-out completion (softirq context): count the transfer's frames,
 * give the buffer back, and let the tasklet pack what waited.
 */
static void write_bulk_callback(struct urb *urb)
{
	struct tx_agg *agg = urb->context;
	struct r8152 *tp = agg->tp;

	if (urb->status == 0) {
		u64_stats_update_begin(&tp->tx_stats.syncp);
		u64_stats_inc(&tp->tx_stats.transfers);
		u64_stats_add(&tp->tx_stats.packets, agg->skb_num);
		u64_stats_add(&tp->tx_stats.bytes, agg->skb_len);
		u64_stats_update_end(&tp->tx_stats.syncp);
		agg->skb_num = 0;
		agg->skb_len = 0;
	} else {
		if (urb->status != -ENOENT && urb->status != -ECONNRESET &&
		    urb->status != -ESHUTDOWN) {
			u64_stats_update_begin(&tp->tx_stats.syncp);
			u64_stats_inc(&tp->tx_stats.urb_errors);
			u64_stats_update_end(&tp->tx_stats.syncp);
		}
		tx_agg_drop_skbs(agg, &tp->tx_stats.drops, &tp->tx_stats.syncp);
	}
	tx_free_push(tp, agg);
	if (!tp->running)
		return;
	/* the free buffer before the look at tx_queue; pairs with the
	 * barrier in r8152_start_xmit.  A stopped queue has skbs waiting:
	 * the tasklet packs and wakes.
	 */
	smp_mb();
	if (!skb_queue_empty(&tp->tx_queue))
		tasklet_schedule(&tp->tx_tl);
}
