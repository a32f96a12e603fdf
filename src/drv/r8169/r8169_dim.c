// SPDX-License-Identifier: MIT
/*
 * r8169_dim.c - adaptive RX moderation (`ethtool -C eth0 adaptive-rx on`):
 * one DIM instance (kern/dim.h, the kernel's net_dim) per RX queue, which
 * moves that queue's INT_MITI_V2 RX timer between the DIM profiles.
 *
 * As mainline DIM users do it (e.g. ice: the interrupt counts events,
 * the poll samples after napi_complete_done() and before the interrupt
 * is unmasked, a work item programs the hardware):
 *  - events are the vector's hardirqs (qv->irqs), packets and bytes the
 *    RX ring's counters;
 *  - the timer starts at the first event of a hold-off (rtlm_moder.c,
 *    rtl_defines.h), so the EQE profiles apply: 1, 8, 64, 128, 256 us,
 *    starting from the default profile 1 (8 us);
 *  - the work item writes the queue's RX timer byte and nothing else:
 *    a profile's packet count (256) is beyond the frame threshold the
 *    hardware may have (60 frames, rtl_set_coalesce), so rx-frames stays
 *    what the user set.  1 us is below half a 4096 ns unit: profile 0 is
 *    "no timer" on the RTL8125BP/D and RTL8127A.
 */
#include <linux/dim.h>
#include <linux/workqueue.h>

#include "r8169.h"

static struct rtl_q_vector *rtl_dim_qv(struct dim *dim)
{
	return container_of(dim, struct rtl_q_vector, dim);
}

/* The RX timer, in INT_MITI units, for the profile @dim is at. */
static u8 rtl_dim_units(struct rtl_q_vector *qv)
{
	struct dim_cq_moder m = net_dim_get_rx_moderation(qv->dim.mode,
							  qv->dim.profile_ix);

	return (u8)rtl_usecs_to_units(qv->tp, m.usec);
}

/* Process context (a kworker): program the new profile, start measuring
 * again.
 */
static void rtl_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct rtl_q_vector *qv = rtl_dim_qv(dim);
	unsigned int q = (unsigned int)(qv->rx - qv->tp->rx_ring);

	/* a queue past the moderation block (a what-if row's 32+) has
	 * no timer to move
	 */
	if (q < qv->tp->chip->miti->queues)
		rtl_w8(qv->tp, RTL_INT_MITI_V2_RX(q) + RTL_INT_MITI_RX_BYTE,
		       rtl_dim_units(qv));
	qv->dim_changes++;
	dim->state = DIM_START_MEASURE;
}

/**
 * rtl_dim_init() - set up adaptive RX moderation (DIM) for an RX vector
 * @qv: the vector
 *
 * Context: process, RTNL.
 */
void rtl_dim_init(struct rtl_q_vector *qv)
{
	memset(&qv->dim, 0, sizeof(qv->dim));
	INIT_WORK(&qv->dim.work, rtl_dim_work);
	qv->dim.mode = DIM_CQ_PERIOD_MODE_START_FROM_EQE;
	qv->dim.profile_ix = NET_DIM_DEF_PROFILE_EQE;
	qv->dim_changes = 0;
}

/**
 * rtl_dim_sample() - feed DIM one sample of the vector's RX counters
 * @qv: the vector
 *
 * After napi_complete_done() succeeded, before the unmask.
 *
 * Context: the NAPI poll, after napi_complete_done() succeeded.
 */
void rtl_dim_sample(struct rtl_q_vector *qv)
{
	struct dim_sample s;

	/* the poll that writes them is this context: no fetch loop */
	dim_update_sample((u16)qv->irqs, u64_stats_read(&qv->rx->stats.packets),
			  u64_stats_read(&qv->rx->stats.bytes), &s);
	net_dim(&qv->dim, &s);
}

/**
 * rtl_dim_stop() - stop DIM on a vector and wait for its work
 * @qv: the vector
 *
 * Stop it: no work may touch the registers after this.
 *
 * Context: process, RTNL; sleeps.
 */
void rtl_dim_stop(struct rtl_q_vector *qv)
{
	cancel_work_sync(&qv->dim.work);
}

/**
 * rtl_rx_qv() - the active RX vector that serves an RX queue
 * @tp: the device
 * @q: RX queue index
 *
 * The vector of RX queue @q (the V2 model has one per queue, in slot q),
 * or NULL.
 *
 * Return: the vector, or NULL.
 */
struct rtl_q_vector *rtl_rx_qv(struct rtl8169_private *tp, unsigned int q)
{
	struct rtl_q_vector *qv = q < R8169_QV_TX ? &tp->qv[q] : NULL;

	return qv && qv->active && qv->kind == RTL_VEC_RX ? qv : NULL;
}

/**
 * rtl_rx_timer_units() - the RX interrupt timer of a queue, in INT_MITI_V2 units
 * @tp: the device
 * @q: RX queue index
 *
 * RX timer units of queue @q: DIM's profile with adaptive-rx on, else
 * the static rx-usecs.
 *
 * Return: DIM's profile with adaptive-rx on, else rx-usecs converted.
 */
u32 rtl_rx_timer_units(struct rtl8169_private *tp, unsigned int q)
{
	struct rtl_q_vector *qv = tp->adaptive_rx ? rtl_rx_qv(tp, q) : NULL;

	return qv ? rtl_dim_units(qv) : tp->rx_usecs;
}
