// SPDX-License-Identifier: MIT
/*
 * r8152_dim.c - adaptive RX moderation on the USB adapters (`ethtool -C
 * eth0 adaptive-rx on`): one DIM instance (kern/dim.h, the kernel's
 * net_dim) moves the RX aggregation timer (USB_RX_EXTRA_AGGR_TMR, the
 * rx-usecs of r8152_ethtool.c) between the DIM profiles.
 *
 * The device's "events" are its bulk-in transfers: each one ends
 * aggregation and is one URB completion, one giveback and one parse
 * (docs/model.md), what the timer trades against latency.  The timer
 * starts with a transfer's first frame, so the EQE profiles apply (1, 8,
 * 64, 128, 256 us; the default 8 us).  The sample is taken when the poll
 * completes; the work item writes the register with a vendor control
 * transfer, which sleeps in Linux (usb_control_msg): process context,
 * which is why DIM applies profiles from a work item at all.
 */
#include <linux/dim.h>
#include <linux/workqueue.h>

#include "r8152.h"

static void r8152_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct r8152 *tp = container_of(dim, struct r8152, rx_dim);

	if (!r8152_write_coalesce(tp))
		tp->rx_dim_changes++;
	dim->state = DIM_START_MEASURE;
}

/**
 * r8152_dim_init() - set up adaptive RX moderation (DIM) for the adapter
 * @tp: the device
 *
 * Context: probe or open, before the first sample.
 */
void r8152_dim_init(struct r8152 *tp)
{
	memset(&tp->rx_dim, 0, sizeof(tp->rx_dim));
	INIT_WORK(&tp->rx_dim.work, r8152_dim_work);
	tp->rx_dim.mode = DIM_CQ_PERIOD_MODE_START_FROM_EQE;
	tp->rx_dim.profile_ix = NET_DIM_DEF_PROFILE_EQE;
}

/**
 * r8152_dim_sample() - feed DIM one sample of the RX counters
 * @tp: the device
 *
 * Context: the NAPI poll, after it completed.
 */
void r8152_dim_sample(struct r8152 *tp)
{
	struct dim_sample s;

	/* the poll is the counters' writer: no fetch loop */
	dim_update_sample((u16)u64_stats_read(&tp->rx_stats.transfers),
			  u64_stats_read(&tp->rx_stats.packets),
			  u64_stats_read(&tp->rx_stats.bytes), &s);
	net_dim(&tp->rx_dim, &s);
}

/**
 * r8152_dim_stop() - stop DIM and wait for its work
 * @tp: the device
 *
 * Context: process, RTNL; sleeps.
 * Return: true if work was pending.
 */
bool r8152_dim_stop(struct r8152 *tp)
{
	return cancel_work_sync(&tp->rx_dim.work);
}

/**
 * r8152_rx_timer_ns() - the RX aggregation timer now in force
 * @tp: the device
 *
 * The RX aggregation timer in ns: DIM's profile with adaptive-rx on, else
 * the static rx-usecs.
 *
 * Return: nanoseconds: DIM's profile with adaptive-rx on, else rx-usecs.
 */
u32 r8152_rx_timer_ns(const struct r8152 *tp)
{
	if (!tp->adaptive_rx)
		return tp->coalesce;
	return net_dim_get_rx_moderation(tp->rx_dim.mode,
					 tp->rx_dim.profile_ix).usec * 1000u;
}
