// SPDX-License-Identifier: MIT
/* r8169_tx.c - the TX ring: transmit, doorbell, completion. */
#include <linux/dma-mapping.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/netdev_queues.h>

#include "r8169.h"

/**
 * rtl_tx_ring_alloc() - lay out an empty TX ring
 * @tp: the device
 * @ring: the ring
 * @n: number of descriptors, a power of two
 *
 * Context: process.
 * Return: 0, -EINVAL (not a power of two) or -ENOMEM.
 */
int rtl_tx_ring_alloc(struct rtl8169_private *tp, struct rtl_tx_ring *ring,
		      unsigned int n)
{
	struct device *d = &tp->pdev->dev;

	/* indices are free-running, masked with num_desc - 1 */
	if (!is_power_of_2(n))
		return -EINVAL;
	ring->tp = tp;
	ring->num_desc = n;
	ring->cur_tx = 0;
	ring->dirty_tx = 0;
	ring->desc = dma_alloc_coherent(d, (size_t)n * sizeof(*ring->desc),
					&ring->desc_dma, GFP_KERNEL);
	if (!ring->desc)
		return -ENOMEM;
	ring->skb = kcalloc(n, sizeof(*ring->skb), GFP_KERNEL);
	ring->skb_dma = kcalloc(n, sizeof(*ring->skb_dma), GFP_KERNEL);
	if (!ring->skb || !ring->skb_dma) {
		rtl_tx_ring_free(tp, ring);
		return -ENOMEM;
	}
	/* the device wraps at EOR; every other descriptor starts empty */
	ring->desc[n - 1].opts1 = cpu_to_le32(RTL_DESC_EOR);
	return 0;
}

/**
 * rtl_tx_ring_free() - unmap and free a TX ring and the frames still in it
 * @tp: the device
 * @ring: the ring
 *
 * Context: process; the device no longer uses the ring.
 */
void rtl_tx_ring_free(struct rtl8169_private *tp, struct rtl_tx_ring *ring)
{
	struct device *d = &tp->pdev->dev;

	if (ring->skb) {
		for (unsigned int i = 0; i < ring->num_desc; i++) {
			if (!ring->skb[i])
				continue;
			dma_unmap_single(d, ring->skb_dma[i], ring->skb[i]->len,
					 DMA_TO_DEVICE);
			dev_kfree_skb_any(ring->skb[i]);
		}
	}
	kfree(ring->skb);
	kfree(ring->skb_dma);
	ring->skb = NULL;
	ring->skb_dma = NULL;
	if (ring->desc)
		dma_free_coherent(d, (size_t)ring->num_desc * sizeof(*ring->desc),
				  ring->desc, ring->desc_dma);
	ring->desc = NULL;
}

/**
 * rtl_tx_ring_flush() - reclaim what was sent and count the rest as dropped
 * @ring: the ring
 *
 * Context: process; the device is stopped.
 */
void rtl_tx_ring_flush(struct rtl_tx_ring *ring)
{
	struct net_device *dev = ring->tp->dev;

	if (!ring->desc)
		return;
	rtl_tx_clean(ring, 0);
	/* what never completed is freed with the ring */
	u64_stats_update_begin(&ring->stats.xmit_syncp);
	for (unsigned int i = ring->dirty_tx; i != ring->cur_tx; i++)
		if (ring->skb[i & (ring->num_desc - 1)])
			u64_stats_inc(&ring->stats.drops);
	u64_stats_update_end(&ring->stats.xmit_syncp);
	netdev_tx_reset_queue(netdev_get_tx_queue(dev, ring->index));
}

/* Free descriptors.  ndo_start_xmit (advancing cur_tx) and the NAPI TX
 * completion (advancing dirty_tx) may run at once on two CPUs, so both
 * indices are read fresh each time (netdev_queues.h's get_desc rule).
 */
static unsigned int tx_free(const struct rtl_tx_ring *ring)
{
	return ring->num_desc - (READ_ONCE(ring->cur_tx) - READ_ONCE(ring->dirty_tx));
}

/* The doorbell: the device fetches ring @q (K writes 16 bits). */
static void rtl_tx_doorbell(struct rtl8169_private *tp, unsigned int q)
{
	rtl_w16(tp, RTL_TxPoll_8125, (u16)RTL_TXPOLL_Q(q));
}

/**
 * rtl_start_xmit() - ndo_start_xmit: one frame into the TX ring, doorbell unless more follow
 * @skb: the frame
 * @dev: the network device
 *
 * Context: softirq or process, the queue's xmit lock held.
 * Return: NETDEV_TX_OK, or NETDEV_TX_BUSY if the ring was full while awake (a bug).
 */
netdev_tx_t rtl_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	unsigned int q = skb->queue_mapping % tp->num_tx_queues;
	struct rtl_tx_ring *ring = &tp->tx_ring[q];
	struct netdev_queue *txq = netdev_get_tx_queue(dev, q);
	struct device *d = &tp->pdev->dev;
	unsigned int entry;
	dma_addr_t mapping;
	bool ring_it;
	u32 opts1;

	if (unlikely(!tx_free(ring))) {
		/* the queue should have been stopped: a driver bug */
		netif_tx_stop_queue(txq);
		netdev_err(dev, "BUG! TX ring full when queue awake\n");
		return NETDEV_TX_BUSY;
	}
	entry = ring->cur_tx & (ring->num_desc - 1);
	mapping = dma_map_single(d, skb->data, skb->len, DMA_TO_DEVICE);
	if (unlikely(dma_mapping_error(d, mapping))) {
		u64_stats_update_begin(&ring->stats.xmit_syncp);
		u64_stats_inc(&ring->stats.drops);
		u64_stats_update_end(&ring->stats.xmit_syncp);
		dev_kfree_skb_any(skb);
		/* frames posted before it with xmit_more still wait for it */
		if (!netdev_xmit_more())
			rtl_tx_doorbell(tp, q);
		return NETDEV_TX_OK;
	}
	ring->skb[entry] = skb;
	ring->skb_dma[entry] = mapping;
	ring->desc[entry].addr = cpu_to_le64(mapping);
	ring->desc[entry].opts2 = 0;
	opts1 = RTL_DESC_OWN | RTL_TX_FS | RTL_TX_LS | (skb->len & RTL_TX_LEN_MASK);
	if (entry == ring->num_desc - 1)
		opts1 |= RTL_DESC_EOR;
	/* byte queue limits: what the completion will report done, counted
	 * before the device may see the descriptor (a completion on another
	 * CPU must never report bytes not yet queued: dql_completed() BUG()s);
	 * with more frames right behind this one the doorbell can wait
	 */
	ring_it = __netdev_tx_sent_queue(txq, skb->len, netdev_xmit_more());
	dma_wmb();      /* descriptor body before OWN */
	WRITE_ONCE(ring->desc[entry].opts1, cpu_to_le32(opts1));
	WRITE_ONCE(ring->cur_tx, ring->cur_tx + 1);
	/* stop, then re-check against a completion on another CPU */
	if (!netif_subqueue_maybe_stop(dev, q, tx_free(ring), R8169_TX_STOP_THRS,
				       R8169_TX_START_THRS)) {
		u64_stats_update_begin(&ring->stats.xmit_syncp);
		u64_stats_inc(&ring->stats.stops);
		u64_stats_update_end(&ring->stats.xmit_syncp);
		ring_it = true; /* no later call would ring it */
	}
	if (ring_it)
		rtl_tx_doorbell(tp, q);
	return NETDEV_TX_OK;
}

/**
 * rtl_tx_clean() - reclaim TX descriptors the device completed and wake the queue
 * @ring: the ring
 * @budget: the NAPI budget (0: netpoll)
 *
 * Reclaim completed descriptors; TX work ignores the NAPI budget
 * (napi.rst), but @budget 0 means netpoll: free with that in mind.
 *
 * Context: the NAPI poll of the TX ring's vector.
 */
void rtl_tx_clean(struct rtl_tx_ring *ring, int budget)
{
	struct rtl8169_private *tp = ring->tp;
	struct device *d = &tp->pdev->dev;
	unsigned int done = 0, pkts = 0, bytes = 0;

	while (ring->dirty_tx != ring->cur_tx) {
		unsigned int entry = ring->dirty_tx & (ring->num_desc - 1);
		u32 status = le32_to_cpu(READ_ONCE(ring->desc[entry].opts1));
		struct sk_buff *skb;

		if (status & RTL_DESC_OWN)
			break;
		dma_rmb();
		skb = ring->skb[entry];
		ring->skb[entry] = NULL;
		if (skb) {
			dma_unmap_single(d, ring->skb_dma[entry], skb->len, DMA_TO_DEVICE);
			bytes += skb->len;
			pkts++;
			napi_consume_skb(skb, budget);
		}
		WRITE_ONCE(ring->dirty_tx, ring->dirty_tx + 1);
		done++;
	}
	u64_stats_update_begin(&ring->stats.syncp);
	u64_stats_add(&ring->stats.packets, pkts);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_update_end(&ring->stats.syncp);
	/* publish dirty_tx, barrier, then look at the stopped bit */
	netif_subqueue_completed_wake(tp->dev, ring->index, done, bytes,
				      tx_free(ring), R8169_TX_START_THRS);
}
