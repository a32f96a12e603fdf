// SPDX-License-Identifier: MIT
/*
 * r8152_ethtool.c - ethtool_ops: -i, -c/-C (the RX aggregation timer),
 * -g/-G (bulk-in URBs in flight), -S (driver counters).
 *
 * rx-usecs is in microseconds, as ethtool documents it.  Mainline r8152
 * stores the value the user gives straight into its nanosecond variable,
 * so "rx-usecs 15" there means 15 ns and -c prints 15000 (research s1.4,
 * a known bug); Realtek's driver converts (N * 1000 ns, -EINVAL above
 * 524280 ns, so at most 524).  This driver converts as Realtek's does.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "r8152.h"
#include "drv/rtl_tally.h"

static void r8152_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	struct r8152 *tp = netdev_priv(dev);

	snprintf(info->driver, sizeof(info->driver), "%s", R8152_DRV_NAME);
	snprintf(info->version, sizeof(info->version), "%s", R8152_DRV_VERSION);
	snprintf(info->fw_version, sizeof(info->fw_version), "%s %04x",
		 tp->chip->name, tp->version_word);
	snprintf(info->bus_info, sizeof(info->bus_info), "usb-%.27s",
		 dev_name(&tp->udev->dev));
}

/* ---- coalescing (research s1.3, s1.4) ---- */

static int r8152_get_coalesce(struct net_device *dev, struct ethtool_coalesce *c,
			      struct kernel_ethtool_coalesce *kc,
			      struct netlink_ext_ack *extack)
{
	struct r8152 *tp = netdev_priv(dev);

	(void)kc;
	(void)extack;
	memset(c, 0, sizeof(*c));
	/* the static value, what applies with adaptive-rx off; DIM's
	 * current one is in -S (rx_dim_usecs)
	 */
	c->rx_coalesce_usecs = tp->coalesce / 1000;
	c->use_adaptive_rx_coalesce = tp->adaptive_rx;
	return 0;
}

/*
 * Applying a new timer: one 16-bit write of USB_RX_EXTRA_AGGR_TMR while
 * RX keeps running.  Mainline instead stops the queue, disables NAPI and
 * the device, restarts RX and re-enables (research s1.3); that kills the
 * URBs in flight and frees the frames held for the next poll.  The
 * aggregation timer is read when a transfer starts aggregating [I], so a
 * live write takes effect from the next transfer and loses nothing
 * (tests/test_r8152.c, test_coalesce_under_load).
 */
static int r8152_set_coalesce(struct net_device *dev, struct ethtool_coalesce *c,
			      struct kernel_ethtool_coalesce *kc,
			      struct netlink_ext_ack *extack)
{
	struct r8152 *tp = netdev_priv(dev);
	u32 max_us = tp->chip->caps->coalesce_max_ns / 1000;
	bool on = c->use_adaptive_rx_coalesce, old_on = tp->adaptive_rx, requeue = false;
	u32 ns, old;

	(void)kc;
	if (c->rx_coalesce_usecs > max_us) {
		NL_SET_ERR_MSG_FMT(extack, "rx-usecs above the maximum of %u", max_us);
		return -EINVAL;
	}
	/* TX is not coalesced (research s1.4: mainline accepts and ignores
	 * tx-usecs); refuse a value rather than pretend
	 */
	if (c->tx_coalesce_usecs) {
		NL_SET_ERR_MSG(extack, "tx-usecs is not supported: TX is not coalesced");
		return -EINVAL;
	}
	ns = c->rx_coalesce_usecs * 1000;
	if (ns == tp->coalesce && on == old_on)
		return 0;
	if (on && !old_on)
		r8152_dim_init(tp);     /* a fresh tuner, unused while off */
	else if (!on && old_on)
		requeue = r8152_dim_stop(tp);   /* no work may write DIM's value */
	old = tp->coalesce;
	tp->coalesce = ns;
	WRITE_ONCE(tp->adaptive_rx, on);
	if (netif_running(dev)) {
		int rc = r8152_write_coalesce(tp);

		/* the device kept its timer: so does the driver */
		if (rc) {
			tp->coalesce = old;
			WRITE_ONCE(tp->adaptive_rx, old_on);
			if (requeue)
				schedule_work(&tp->rx_dim.work);
			return rc;
		}
	}
	return 0;
}

/* ---- rings: bulk-in URBs in flight ---- */

static void r8152_get_ringparam(struct net_device *dev, struct ethtool_ringparam *r,
				struct kernel_ethtool_ringparam *kr,
				struct netlink_ext_ack *extack)
{
	struct r8152 *tp = netdev_priv(dev);

	(void)kr;
	(void)extack;
	memset(r, 0, sizeof(*r));
	r->rx_max_pending = RTL8152_MAX_RX;
	r->rx_pending = tp->rx_pending;
}

static int r8152_set_ringparam(struct net_device *dev, struct ethtool_ringparam *r,
			       struct kernel_ethtool_ringparam *kr,
			       struct netlink_ext_ack *extack)
{
	struct r8152 *tp = netdev_priv(dev);

	(void)kr;
	if (r->rx_pending < R8152_RX_PENDING_MIN) {
		NL_SET_ERR_MSG_FMT(extack, "rx below the minimum of %u",
				   R8152_RX_PENDING_MIN);
		return -EINVAL;
	}
	if (r->tx_pending || r->rx_mini_pending || r->rx_jumbo_pending)
		return -EINVAL;
	if (r->rx_pending == tp->rx_pending)
		return 0;
	if (!netif_running(dev)) {
		tp->rx_pending = r->rx_pending;
		return 0;
	}
	/* on the running interface, nothing reallocated (r8152_rx.c) */
	return r8152_rx_set_pending(tp, r->rx_pending);
}

/* ---- statistics ---- */

/*
 * The adapter's tally counters come first, under mainline r8152's names
 * and in its order: rtl8152_gstrings and rtl8152_get_ethtool_stats in
 * drivers/net/usb/r8152.c, Linux 6.18 (read in a linux-6.18.y tree),
 * read from PLA_TALLYCNT in one 64-byte request (generic_ocp_read).
 */
static const char r8152_tally_names[][ETH_GSTRING_LEN] = {
	"tx_packets", "rx_packets", "tx_errors", "rx_errors", "rx_missed",
	"align_errors", "tx_single_collisions", "tx_multi_collisions",
	"rx_unicast", "rx_broadcast", "rx_multicast", "tx_aborted", "tx_underrun",
};

static_assert(ARRAY_SIZE(r8152_tally_names) == RTL_TALLY_NSTATS, "one name per tally value");

/* Then the driver's own counters: the one RX and TX queue's (named as
 * r8169's per-queue ones), the transfers, the link.
 */
#define R8152_STAT(name, field) { name, offsetof(struct r8152_stats, field) }

static const struct {
	const char *name;
	size_t off;
} r8152_stat_table[] = {
	R8152_STAT("rx_queue_0_packets", rx_packets),
	R8152_STAT("rx_queue_0_bytes", rx_bytes),
	R8152_STAT("rx_queue_0_drops", rx_drops),
	R8152_STAT("rx_queue_0_alloc_fail", rx_alloc_fail),
	R8152_STAT("rx_queue_0_length", rx_length),
	R8152_STAT("rx_queue_0_runt", rx_runt),
	R8152_STAT("rx_queue_0_purged", rx_purged),
	R8152_STAT("rx_queue_0_csum_ok", rx_csum_ok),
	R8152_STAT("rx_transfers", rx_transfers),
	R8152_STAT("rx_transfer_frames", rx_transfer_frames),
	R8152_STAT("rx_transfer_frames_max", rx_transfer_frames_max),
	R8152_STAT("rx_short_transfers", rx_short_transfers),
	R8152_STAT("rx_queued", rx_queued),
	R8152_STAT("rx_urb_errors", rx_urb_errors),
	R8152_STAT("tx_queue_0_packets", tx_packets),
	R8152_STAT("tx_queue_0_bytes", tx_bytes),
	R8152_STAT("tx_queue_0_drops", tx_drops),
	R8152_STAT("tx_transfers", tx_transfers),
	R8152_STAT("tx_queue_0_stops", tx_stops),
	R8152_STAT("tx_urb_errors", tx_urb_errors),
	R8152_STAT("intr", intr),
	R8152_STAT("link_changes", link_changes),
};

static const char *const r8152_hist_names[] = {
	"rx_transfers_1_frame", "rx_transfers_2_4_frames",
	"rx_transfers_5_8_frames", "rx_transfers_9_16_frames",
	"rx_transfers_17_32_frames", "rx_transfers_33_plus_frames",
};

/* With adaptive-rx on: DIM's profile (0..4), its time in us, and how
 * many profiles the work applied.
 */
static const char *const r8152_dim_names[] = {
	"rx_dim_profile", "rx_dim_usecs", "rx_dim_changes",
};

#define R8152_NSTATS (RTL_TALLY_NSTATS + ARRAY_SIZE(r8152_stat_table) + \
		      ARRAY_SIZE(r8152_hist_names))

static int r8152_get_sset_count(struct net_device *dev, int sset)
{
	struct r8152 *tp = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return (int)(R8152_NSTATS + (tp->adaptive_rx ? ARRAY_SIZE(r8152_dim_names) : 0));
}

static void r8152_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct r8152 *tp = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return;
	for (size_t i = 0; i < RTL_TALLY_NSTATS; i++)
		ethtool_puts(&data, r8152_tally_names[i]);
	for (size_t i = 0; i < ARRAY_SIZE(r8152_stat_table); i++)
		ethtool_puts(&data, r8152_stat_table[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(r8152_hist_names); i++)
		ethtool_puts(&data, r8152_hist_names[i]);
	for (size_t i = 0; tp->adaptive_rx && i < ARRAY_SIZE(r8152_dim_names); i++)
		ethtool_puts(&data, r8152_dim_names[i]);
}

static void r8152_get_ethtool_stats(struct net_device *dev, struct ethtool_stats *st,
				    u64 *d)
{
	struct r8152 *tp = netdev_priv(dev);
	struct r8152_stats s;
	const u8 *base = (const u8 *)&s;
	struct rtl_tally tally;

	(void)st;
	r8152_stats_fetch(tp, &s);
	/* a failed read shows all ones, as mainline's does */
	generic_ocp_read(tp, RTLU_PLA_TALLYCNT, sizeof(tally), &tally, RTLU_MCU_TYPE_PLA);
	d = rtl_tally_to_stats(&tally, d);
	for (size_t i = 0; i < ARRAY_SIZE(r8152_stat_table); i++) {
		u64 v;

		memcpy(&v, base + r8152_stat_table[i].off, sizeof(v));
		*d++ = v;
	}
	for (size_t i = 0; i < ARRAY_SIZE(r8152_hist_names); i++)
		*d++ = s.rx_transfer_hist[i];
	if (tp->adaptive_rx) {
		*d++ = tp->rx_dim.profile_ix;
		*d++ = r8152_rx_timer_ns(tp) / 1000;
		*d++ = tp->rx_dim_changes;
	}
}

/**
 * r8152_stats_fetch() - a consistent copy of the driver's counters
 * @tp: the device
 * @s: filled with them
 *
 * Each writer's group (struct r8152_rx_stats, r8152_rx_urb_stats,
 * r8152_tx_stats, r8152_intr_stats) is read in its own fetch loop.
 *
 * Context: any.
 */
void r8152_stats_fetch(const struct r8152 *tp, struct r8152_stats *s)
{
	const struct r8152_rx_stats *rx = &tp->rx_stats;
	const struct r8152_rx_urb_stats *ru = &tp->rx_urb_stats;
	const struct r8152_tx_stats *tx = &tp->tx_stats;
	const struct r8152_intr_stats *in = &tp->intr_stats;
	u64 drops, urb_errors;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&rx->syncp);
		s->rx_packets = u64_stats_read(&rx->packets);
		s->rx_bytes = u64_stats_read(&rx->bytes);
		s->rx_drops = u64_stats_read(&rx->drops);
		s->rx_alloc_fail = u64_stats_read(&rx->alloc_fail);
		s->rx_length = u64_stats_read(&rx->length);
		s->rx_runt = u64_stats_read(&rx->runt);
		s->rx_purged = u64_stats_read(&rx->purged);
		s->rx_csum_ok = u64_stats_read(&rx->csum_ok);
		s->rx_transfers = u64_stats_read(&rx->transfers);
		s->rx_transfer_frames = u64_stats_read(&rx->transfer_frames);
		s->rx_transfer_frames_max = u64_stats_read(&rx->transfer_frames_max);
		s->rx_queued = u64_stats_read(&rx->queued);
		for (unsigned int i = 0; i < R8152_RX_HIST; i++)
			s->rx_transfer_hist[i] = u64_stats_read(&rx->transfer_hist[i]);
	} while (u64_stats_fetch_retry(&rx->syncp, start));
	do {
		start = u64_stats_fetch_begin(&ru->syncp);
		s->rx_short_transfers = u64_stats_read(&ru->short_transfers);
		s->rx_urb_errors = u64_stats_read(&ru->urb_errors);
	} while (u64_stats_fetch_retry(&ru->syncp, start));
	do {
		start = u64_stats_fetch_begin(&tx->syncp);
		s->tx_packets = u64_stats_read(&tx->packets);
		s->tx_bytes = u64_stats_read(&tx->bytes);
		s->tx_transfers = u64_stats_read(&tx->transfers);
		urb_errors = u64_stats_read(&tx->urb_errors);
		drops = u64_stats_read(&tx->drops);
	} while (u64_stats_fetch_retry(&tx->syncp, start));
	s->tx_urb_errors = urb_errors;
	s->tx_drops = drops;
	do {
		start = u64_stats_fetch_begin(&tx->tl_syncp);
		urb_errors = u64_stats_read(&tx->tl_urb_errors);
		drops = u64_stats_read(&tx->tl_drops);
	} while (u64_stats_fetch_retry(&tx->tl_syncp, start));
	s->tx_urb_errors += urb_errors;
	s->tx_drops += drops;
	do {
		start = u64_stats_fetch_begin(&tx->xmit_syncp);
		drops = u64_stats_read(&tx->xmit_drops);
		s->tx_stops = u64_stats_read(&tx->stops);
	} while (u64_stats_fetch_retry(&tx->xmit_syncp, start));
	s->tx_drops += drops;
	do {
		start = u64_stats_fetch_begin(&in->syncp);
		s->intr = u64_stats_read(&in->intr);
		s->link_changes = u64_stats_read(&in->link_changes);
	} while (u64_stats_fetch_retry(&in->syncp, start));
}

/**
 * r8152_get_stats64() - ndo_get_stats64: the interface counters
 * @dev: the netdev
 * @stats: zeroed by the core; filled here
 *
 * Frames and bytes as the driver counted them (received: handed to the
 * stack; sent: bulk-out transfers completed); dropped, every frame the
 * driver could not deliver or send; errors, the URB completions with an
 * error status (and failed bulk-out submissions).  The adapter's own
 * error counters are in the tally (ethtool -S), which takes a control
 * transfer and so cannot be read here.
 *
 * Context: any.
 */
void r8152_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats)
{
	struct r8152_stats s;

	r8152_stats_fetch(netdev_priv(dev), &s);
	stats->rx_packets = s.rx_packets;
	stats->rx_bytes = s.rx_bytes;
	stats->rx_dropped = s.rx_drops;
	stats->rx_errors = s.rx_urb_errors;
	stats->tx_packets = s.tx_packets;
	stats->tx_bytes = s.tx_bytes;
	stats->tx_dropped = s.tx_drops;
	stats->tx_errors = s.tx_urb_errors;
}

static const struct ethtool_ops r8152_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
	.get_drvinfo = r8152_get_drvinfo,
	.get_coalesce = r8152_get_coalesce,
	.set_coalesce = r8152_set_coalesce,
	.get_ringparam = r8152_get_ringparam,
	.set_ringparam = r8152_set_ringparam,
	.get_sset_count = r8152_get_sset_count,
	.get_strings = r8152_get_strings,
	.get_ethtool_stats = r8152_get_ethtool_stats,
};

/**
 * r8152_set_ethtool_ops() - give a netdev the driver's ethtool ops
 * @dev: the netdev probe allocated
 *
 * Context: probe, before register_netdev().
 */
void r8152_set_ethtool_ops(struct net_device *dev)
{
	dev->ethtool_ops = &r8152_ethtool_ops;
}
