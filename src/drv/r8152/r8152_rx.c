// SPDX-License-Identifier: MIT
/*
 * r8152_rx.c - the RX half: bulk-in URBs ("rx_agg"), their completion,
 * and the NAPI poll that parses one aggregated transfer into frames.
 *
 * A bulk-in transfer carries several frames, each behind a 16-byte v2
 * descriptor and starting on a 16-byte boundary (research s1.2).  The
 * completion runs in softirq context (kern/usb.h): it only moves the URB
 * to rx_done and schedules NAPI.  The poll parses a whole transfer at a
 * time, so frames beyond the budget wait in rx_queue for the next poll
 * (research s1.1), then resubmits the URB.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include "r8152.h"

static void read_bulk_callback(struct urb *urb);

/**
 * r8152_rx_alloc() - allocate the RX aggregation buffers and their URBs
 * @tp: the device
 *
 * Context: process, RTNL.
 * Return: 0 or -ENOMEM.
 */
int r8152_rx_alloc(struct r8152 *tp)
{
	for (unsigned int i = 0; i < RTL8152_MAX_RX; i++) {
		struct rx_agg *agg = &tp->rx_agg[i];

		agg->tp = tp;
		agg->buffer = kzalloc(tp->rx_buf_sz, GFP_KERNEL);
		agg->urb = usb_alloc_urb(0, GFP_KERNEL);
		if (!agg->buffer || !agg->urb) {
			r8152_rx_free(tp);
			return -ENOMEM;
		}
		usb_fill_bulk_urb(agg->urb, tp->udev,
				  usb_rcvbulkpipe(tp->udev, RTLU_EP_BULK_IN),
				  agg->buffer, (int)tp->rx_buf_sz,
				  read_bulk_callback, agg);
	}
	return 0;
}

/**
 * r8152_rx_free() - free the RX aggregation buffers and URBs
 * @tp: the device
 *
 * Context: process, RTNL; the URBs are not in flight.
 */
void r8152_rx_free(struct r8152 *tp)
{
	for (unsigned int i = 0; i < RTL8152_MAX_RX; i++) {
		struct rx_agg *agg = &tp->rx_agg[i];

		usb_free_urb(agg->urb);
		kfree(agg->buffer);
		agg->urb = NULL;
		agg->buffer = NULL;
	}
}

static int rx_submit(struct r8152 *tp, struct rx_agg *agg, gfp_t gfp)
{
	int rc;

	agg->in_flight = true;
	rc = usb_submit_urb(agg->urb, gfp);
	if (rc) {
		agg->in_flight = false;
		/* a gone device is expected during disconnect; say the rest */
		if (rc != -ENODEV)
			netdev_warn(tp->netdev, "rx submit failed: %d\n", rc);
	}
	return rc;
}

/**
 * r8152_rx_start() - submit the bulk-in URBs
 * @tp: the device
 *
 * Context: process, RTNL.
 * Return: 0 or the first submit error.
 */
int r8152_rx_start(struct r8152 *tp)
{
	unsigned long flags;

	spin_lock_irqsave(&tp->rx_lock, flags);
	tp->rx_done = NULL;
	tp->rx_done_tail = NULL;
	spin_unlock_irqrestore(&tp->rx_lock, flags);
	for (unsigned int i = 0; i < tp->rx_pending; i++) {
		int rc = rx_submit(tp, &tp->rx_agg[i], GFP_KERNEL);

		if (rc)
			return rc;
	}
	return 0;
}

/* Bulk-in URBs beyond rx_pending (after ethtool -G made it smaller) are
 * not resubmitted when they complete.
 */
static bool rx_agg_wanted(const struct r8152 *tp, const struct rx_agg *agg)
{
	return (unsigned int)(agg - tp->rx_agg) < tp->rx_pending;
}

/* One more of the poll's counter @c (struct r8152_rx_stats). */
static void rx_count(struct r8152 *tp, u64_stats_t *c)
{
	u64_stats_update_begin(&tp->rx_stats.syncp);
	u64_stats_inc(c);
	u64_stats_update_end(&tp->rx_stats.syncp);
}

/* A frame not delivered, for @reason (struct r8152_rx_stats). */
static void rx_drop(struct r8152 *tp, u64_stats_t *reason)
{
	u64_stats_update_begin(&tp->rx_stats.syncp);
	u64_stats_inc(reason);
	u64_stats_inc(&tp->rx_stats.drops);
	u64_stats_update_end(&tp->rx_stats.syncp);
}

/* One more of a bulk-in completion's counter @c. */
static void rx_urb_count(struct r8152 *tp, u64_stats_t *c)
{
	u64_stats_update_begin(&tp->rx_urb_stats.syncp);
	u64_stats_inc(c);
	u64_stats_update_end(&tp->rx_urb_stats.syncp);
}

static void rx_queue_purge(struct r8152 *tp)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&tp->rx_queue))) {
		rx_drop(tp, &tp->rx_stats.purged);
		kfree_skb(skb);
	}
}

/* rx_done is shared by the completions and the poll: tp->rx_lock. */
static void rx_done_add(struct r8152 *tp, struct rx_agg *agg)
{
	unsigned long flags;

	spin_lock_irqsave(&tp->rx_lock, flags);
	agg->next = NULL;
	if (tp->rx_done_tail)
		tp->rx_done_tail->next = agg;
	else
		WRITE_ONCE(tp->rx_done, agg);
	tp->rx_done_tail = agg;
	spin_unlock_irqrestore(&tp->rx_lock, flags);
}

static struct rx_agg *rx_done_pop(struct r8152 *tp)
{
	unsigned long flags;
	struct rx_agg *agg;

	spin_lock_irqsave(&tp->rx_lock, flags);
	agg = tp->rx_done;
	if (agg) {
		WRITE_ONCE(tp->rx_done, agg->next);
		if (!tp->rx_done)
			tp->rx_done_tail = NULL;
		agg->next = NULL;
	}
	spin_unlock_irqrestore(&tp->rx_lock, flags);
	return agg;
}

/*
 * Bulk-in completion (softirq context).  A transfer with data goes to
 * rx_done for the poll; a short one is resubmitted at once; a killed or
 * unlinked URB, or a gone device, stays idle; other errors go through
 * rx_done too so that the poll resubmits them (research s1.1: -EPROTO is
 * re-queued), never in a tight loop here.  While closing (not running) a
 * transfer that completed before it was killed still goes to rx_done:
 * r8152_rx_stop() counts its frames.
 */
static void read_bulk_callback(struct urb *urb)
{
	struct rx_agg *agg = urb->context;
	struct r8152 *tp = agg->tp;

	agg->in_flight = false;
	switch (urb->status) {
	case 0:
		if (urb->actual_length < ETH_ZLEN) {
			rx_urb_count(tp, &tp->rx_urb_stats.short_transfers);
			if (tp->running && rx_agg_wanted(tp, agg))
				rx_submit(tp, agg, GFP_ATOMIC);
			return;
		}
		rx_done_add(tp, agg);
		break;
	case -ENOENT:
	case -ECONNRESET:
	case -ESHUTDOWN:
	case -ENODEV:
		return;
	default:
		rx_urb_count(tp, &tp->rx_urb_stats.urb_errors);
		if (!tp->running)
			return;
		urb->actual_length = 0;		/* nothing to parse */
		rx_done_add(tp, agg);
		break;
	}
	if (tp->running)
		napi_schedule(&tp->napi);
}

/* Checksum verdict of a v2 descriptor: true if the device verified the
 * TCP or UDP checksum and neither it nor the IPv4 header failed.
 */
static bool rx_csum_ok(const struct rtl_usb_rx_desc_v2 *d)
{
	u32 o3 = le32_to_cpu(d->opts3);

	if (o3 & RTL_USB_RX2_IPF)
		return false;
	if (o3 & RTL_USB_RX2_TCP_CS)
		return !(o3 & RTL_USB_RX2_TCPF);
	if (o3 & RTL_USB_RX2_UDP_CS)
		return !(o3 & RTL_USB_RX2_UDPF);
	return false;
}

/* A transfer parsed: @frames found in it. */
static void rx_transfer_done(struct r8152 *tp, u64 frames)
{
	struct r8152_rx_stats *st = &tp->rx_stats;
	unsigned int b = frames <= 1 ? 0 : frames <= 4 ? 1 : frames <= 8 ? 2 :
			 frames <= 16 ? 3 : frames <= 32 ? 4 : 5;

	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->transfers);
	u64_stats_add(&st->transfer_frames, frames);
	if (frames > u64_stats_read(&st->transfer_frames_max))
		u64_stats_set(&st->transfer_frames_max, frames);
	u64_stats_inc(&st->transfer_hist[b]);
	u64_stats_update_end(&st->syncp);
}

/* Hand a frame up; the bytes count the frame without its FCS. */
static void rx_deliver(struct r8152 *tp, struct sk_buff *skb)
{
	struct r8152_rx_stats *st = &tp->rx_stats;

	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->packets);
	u64_stats_add(&st->bytes, skb->len + ETH_HLEN);	/* eth_type_trans pulled it */
	u64_stats_update_end(&st->syncp);
	napi_gro_receive(&tp->napi, skb);
}

/*
 * Parse one completed transfer: every frame becomes an skb, delivered
 * while *@work < @budget and queued in rx_queue after that.  Returns
 * nothing: the whole transfer is always consumed.  Never reads past
 * urb->actual_length.
 */
static void rx_parse(struct r8152 *tp, struct rx_agg *agg, int budget, int *work)
{
	const u32 dsz = tp->chip->caps->rx_desc_size, align = tp->chip->caps->rx_align;
	const u32 actual = agg->urb->actual_length;
	u64 frames = 0;
	u32 off = 0;

	while (off + dsz <= actual) {
		const struct rtl_usb_rx_desc_v2 *d =
			(const void *)(agg->buffer + off);
		u32 opts1 = le32_to_cpu(d->opts1);
		/* with the FCS */
		u32 pkt_len = (opts1 & RTL_USB_RX2_LEN_MASK) >> RTL_USB_RX2_LEN_SHIFT;
		struct sk_buff *skb;
		u32 len;

		if (pkt_len < ETH_ZLEN) {
			/* the end of the data the device wrote (research s1.2:
			 * the parse stops); it counts as a frame only if the
			 * device said it was one
			 */
			if (pkt_len)
				rx_drop(tp, &tp->rx_stats.runt);
			frames += pkt_len ? 1 : 0;
			break;
		}
		frames++;
		if (pkt_len > actual - off - dsz) {
			/* the frame runs past the transfer: truncated */
			rx_drop(tp, &tp->rx_stats.length);
			break;
		}
		len = pkt_len - ETH_FCS_LEN;
		skb = napi_alloc_skb(&tp->napi, len);
		if (unlikely(!skb)) {
			rx_drop(tp, &tp->rx_stats.alloc_fail);
			goto next;
		}
		skb_put_data(skb, agg->buffer + off + dsz, len);
		if (rx_csum_ok(d)) {
			skb->ip_summed = CHECKSUM_UNNECESSARY;
			rx_count(tp, &tp->rx_stats.csum_ok);
		} else {
			skb->ip_summed = CHECKSUM_NONE;
		}
		if (opts1 & RTL_USB_RX2_VLAN_TAG)
			__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q),
					       swab16((u16)(le32_to_cpu(d->opts2) >>
							    RTL_USB_RX2_TCI_SHIFT)));
		skb->protocol = eth_type_trans(skb, tp->netdev);
		skb_record_rx_queue(skb, 0);
		if (*work < budget) {
			rx_deliver(tp, skb);
			(*work)++;
		} else {
			rx_count(tp, &tp->rx_stats.queued);
			__skb_queue_tail(&tp->rx_queue, skb);
		}
next:
		off += dsz + pkt_len;
		off = (off + align - 1) & ~(align - 1);
	}
	rx_transfer_done(tp, frames);
}

/**
 * r8152_rx_stop() - kill the bulk-in URBs and drop what they held
 * @tp: the device
 *
 * Kill every bulk-in URB (their completions see -ENOENT and do nothing).
 * Transfers completed but not parsed yet are parsed now with no budget,
 * and every frame held for the next poll is dropped and counted
 * (rx_purged), so that a close leaves no frame unaccounted for.  Call with
 * tp->running false and NAPI disabled.
 *
 * Context: process, RTNL; sleeps.
 */
void r8152_rx_stop(struct r8152 *tp)
{
	struct rx_agg *agg;
	int work = 0;

	for (unsigned int i = 0; i < RTL8152_MAX_RX; i++)
		if (tp->rx_agg[i].urb)
			usb_kill_urb(tp->rx_agg[i].urb);
	while ((agg = rx_done_pop(tp)))
		if (agg->urb->actual_length)
			rx_parse(tp, agg, 0, &work);
	rx_queue_purge(tp);
}

/* Whether @agg is neither submitted nor waiting on rx_done. */
static bool rx_agg_idle(struct r8152 *tp, const struct rx_agg *agg)
{
	unsigned long flags;
	bool idle = !agg->in_flight;

	spin_lock_irqsave(&tp->rx_lock, flags);
	for (const struct rx_agg *a = tp->rx_done; a && idle; a = a->next)
		idle = a != agg;
	spin_unlock_irqrestore(&tp->rx_lock, flags);
	return idle;
}

/**
 * r8152_rx_set_pending() - change the number of bulk-in URBs in flight (ethtool -G)
 * @tp: the device
 * @n: the new count
 *
 * ethtool -G on a running interface, as mainline r8152 changes rx_pending:
 * with NAPI paused, nothing reallocated (all RTL8152_MAX_RX buffers exist
 * while open).  More URBs: the idle ones are submitted; if a submission
 * fails, those submitted here are taken back and the old count stays.
 * Fewer: the URBs beyond the count finish their transfer (nothing in them
 * is lost) and are not resubmitted.
 *
 * Context: process, RTNL.
 * Return: 0 or -errno with the old count kept.
 */
int r8152_rx_set_pending(struct r8152 *tp, unsigned int n)
{
	bool submitted[RTL8152_MAX_RX] = { false };
	unsigned int old = tp->rx_pending;
	int rc = 0;

	napi_disable(&tp->napi);
	tp->rx_pending = n;
	for (unsigned int i = 0; i < n && !rc; i++) {
		struct rx_agg *agg = &tp->rx_agg[i];

		if (!rx_agg_idle(tp, agg))
			continue;
		rc = rx_submit(tp, agg, GFP_KERNEL);
		submitted[i] = !rc;
	}
	if (rc) {
		tp->rx_pending = old;
		for (unsigned int i = 0; i < n; i++)
			if (submitted[i])
				usb_kill_urb(tp->rx_agg[i].urb);
	}
	napi_enable(&tp->napi);
	/* completions while NAPI was paused could not schedule it */
	if (READ_ONCE(tp->rx_done))
		napi_schedule(&tp->napi);
	return rc;
}

/**
 * r8152_rx_bottom() - deliver frames from completed bulk-in transfers
 * @tp: the device
 * @budget: the NAPI budget (0: netpoll)
 *
 * Context: the NAPI poll.
 * Return: frames delivered or dropped, at most @budget.
 */
int r8152_rx_bottom(struct r8152 *tp, int budget)
{
	struct rx_agg *agg;
	struct sk_buff *skb;
	int work = 0;

	/* first what the last poll could not deliver */
	while (work < budget && (skb = __skb_dequeue(&tp->rx_queue))) {
		rx_deliver(tp, skb);
		work++;
	}
	/* then whole transfers, while budget is left; the rest stays on
	 * rx_done for the next poll
	 */
	while (work < budget && (agg = rx_done_pop(tp))) {
		if (agg->urb->actual_length)
			rx_parse(tp, agg, budget, &work);
		if (tp->running && rx_agg_wanted(tp, agg))
			rx_submit(tp, agg, GFP_ATOMIC);
	}
	return work;
}

/**
 * r8152_poll() - the NAPI poll: RX, then TX completion work
 * @napi: the NAPI instance
 * @budget: the NAPI budget (0: netpoll)
 *
 * The NAPI poll: RX within @budget (TX is the tasklet's, r8152_tx.c).
 * Budget 0 (netpoll) does no RX work and never completes.  There is no
 * device interrupt to unmask: once complete, the poll reschedules itself
 * only if a transfer or held frames are waiting.
 *
 * Context: softirq.
 * Return: RX work done, at most @budget.
 */
int r8152_poll(struct napi_struct *napi, int budget)
{
	struct r8152 *tp = container_of(napi, struct r8152, napi);
	int work = budget ? r8152_rx_bottom(tp, budget) : 0;

	/* a completion that came after the last look finds NAPI still
	 * scheduled and does not schedule it: look again
	 */
	if (work < budget && napi_complete_done(napi, work)) {
		if (READ_ONCE(tp->adaptive_rx))
			r8152_dim_sample(tp);
		if (READ_ONCE(tp->rx_done) || skb_queue_len(&tp->rx_queue))
			napi_schedule(napi);
	}
	return work;
}
