// SPDX-License-Identifier: MIT
/*
 * r8169_ethtool.c - ethtool_ops: channels (RX queue count at run time),
 * RSS key/table/fields, ring sizes, per-queue moderation timers and
 * statistics.  The kernel core (src/kern/ethtool_core.c) has already
 * checked what it checks before any of these run.
 */
#include <linux/ethtool.h>
#include <linux/iopoll.h>
#include <linux/netdevice.h>
#include <net/netdev_queues.h>

#include "r8169.h"
#include "drv/rtl_tally.h"

/* ---- channels: RX queues each have a vector; one TX queue ---- */

static void rtl_get_channels(struct net_device *dev, struct ethtool_channels *ch)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	memset(ch, 0, sizeof(*ch));
	ch->max_rx = tp->max_rx_queues;
	ch->max_tx = tp->num_tx_queues;
	ch->rx_count = tp->num_rx_queues;
	ch->tx_count = tp->num_tx_queues;
}

static int rtl_set_channels(struct net_device *dev, struct ethtool_channels *ch)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	unsigned int n = ch->rx_count + ch->combined_count;
	struct rtl_cfg cfg;

	if (!n || n > tp->max_rx_queues || ch->tx_count != tp->num_tx_queues ||
	    ch->other_count)
		return -EINVAL;
	if (n == tp->num_rx_queues)
		return 0;
	/* under RTNL, as the ethtool core calls it: new rings and vectors
	 * first, then the swap (r8169_main.c)
	 */
	rtl_cfg_current(tp, &cfg);
	cfg.num_rx_queues = n;
	return rtl_reconfigure(tp, &cfg);
}

static u32 rtl_get_rx_ring_count(struct net_device *dev)
{
	return ((struct rtl8169_private *)netdev_priv(dev))->num_rx_queues;
}

/* ---- RSS ---- */

static u32 rtl_get_rxfh_key_size(struct net_device *dev)
{
	(void)dev;
	return R8169_RSS_KEY_SIZE;
}

static u32 rtl_get_rxfh_indir_size(struct net_device *dev)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	return tp->rss_indir_size;
}

static int rtl_get_rxfh(struct net_device *dev, struct ethtool_rxfh_param *p)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	p->hfunc = ETH_RSS_HASH_TOP;
	p->input_xfrm = 0;
	if (p->indir)
		for (unsigned int i = 0; i < tp->rss_indir_size; i++)
			p->indir[i] = tp->rss_indir[i];
	if (p->key)
		memcpy(p->key, tp->rss_key, R8169_RSS_KEY_SIZE);
	return 0;
}

static int rtl_set_rxfh(struct net_device *dev, struct ethtool_rxfh_param *p,
			struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	/* the hardware computes Toeplitz only, with no input transform */
	if (p->hfunc != ETH_RSS_HASH_NO_CHANGE && p->hfunc != ETH_RSS_HASH_TOP) {
		NL_SET_ERR_MSG(extack, "only the Toeplitz hash function is supported");
		return -EOPNOTSUPP;
	}
	if (p->input_xfrm != RXH_XFRM_NO_CHANGE && p->input_xfrm) {
		NL_SET_ERR_MSG(extack, "no input transformation is supported");
		return -EOPNOTSUPP;
	}
	if (p->indir)
		for (unsigned int i = 0; i < tp->rss_indir_size; i++) {
			if (p->indir[i] >= tp->num_rx_queues)
				return -EINVAL;
		}
	if (p->indir)
		for (unsigned int i = 0; i < tp->rss_indir_size; i++)
			tp->rss_indir[i] = (u8)p->indir[i];
	if (p->key)
		memcpy(tp->rss_key, p->key, R8169_RSS_KEY_SIZE);
	/* rewriting key and table needs no reset: "hitless" (rss_ctx.py) */
	if (netif_running(dev))
		rtl_rss_write(tp);
	return 0;
}

/* Which RSS_CTRL bits a flow type is about (vendor r8127_rss.c rules). */
static int flow_bits(u32 flow, u32 *l4bits, bool *tcp, bool *ip_only)
{
	*tcp = *ip_only = false;
	*l4bits = 0;
	switch (flow) {
	case TCP_V4_FLOW:
	case TCP_V6_FLOW:
		*tcp = true;
		return 0;
	case UDP_V4_FLOW:
		*l4bits = RTL_RSS_CTRL_UDP_IPV4;
		return 0;
	case UDP_V6_FLOW:
		*l4bits = RTL_RSS_CTRL_UDP_IPV6 | RTL_RSS_CTRL_UDP_IPV6_EXT;
		return 0;
	case IPV4_FLOW:
	case IPV6_FLOW:
		*ip_only = true;
		return 0;
	case SCTP_V4_FLOW: case SCTP_V6_FLOW: case AH_ESP_V4_FLOW:
	case AH_ESP_V6_FLOW: case AH_V4_FLOW: case AH_V6_FLOW:
	case ESP_V4_FLOW: case ESP_V6_FLOW:
		return 1;       /* not hashed by ports: nothing configurable */
	default:
		return -EINVAL;
	}
}

#define RXH_2TUPLE (RXH_IP_SRC | RXH_IP_DST)
#define RXH_4TUPLE (RXH_2TUPLE | RXH_L4_B_0_1 | RXH_L4_B_2_3)

static int rtl_get_rxfh_fields(struct net_device *dev,
			       struct ethtool_rxfh_fields *f)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	u32 l4bits;
	bool tcp, ip_only;
	int rc = flow_bits(f->flow_type, &l4bits, &tcp, &ip_only);

	if (rc < 0)
		return rc;
	if (rc > 0)
		f->data = 0;
	else if (tcp)
		f->data = RXH_4TUPLE;
	else if (ip_only)
		f->data = RXH_2TUPLE;
	else
		f->data = (tp->rss_ht & l4bits) ? RXH_4TUPLE : RXH_2TUPLE;
	return 0;
}

static int rtl_set_rxfh_fields(struct net_device *dev,
			       const struct ethtool_rxfh_fields *f,
			       struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	u32 l4bits;
	bool tcp, ip_only;
	int rc = flow_bits(f->flow_type, &l4bits, &tcp, &ip_only);

	if (rc < 0)
		return rc;
	if (rc > 0)
		return f->data ? -EINVAL : 0;
	if (tcp) {
		if (f->data != RXH_4TUPLE) {
			NL_SET_ERR_MSG(extack, "TCP always hashes the 4-tuple");
			return -EINVAL;
		}
		return 0;
	}
	if (ip_only)
		return f->data == RXH_2TUPLE ? 0 : -EINVAL;
	if (f->data == RXH_4TUPLE)
		tp->rss_ht |= l4bits;
	else if (f->data == RXH_2TUPLE)
		tp->rss_ht &= ~l4bits;
	else
		return -EINVAL;
	if (netif_running(dev))
		rtl_rss_write(tp);
	return 0;
}

/* ---- rings ---- */

static void rtl_get_ringparam(struct net_device *dev, struct ethtool_ringparam *r,
			      struct kernel_ethtool_ringparam *kr,
			      struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	(void)kr;
	(void)extack;
	r->rx_max_pending = tp->chip->caps->ring_max;
	r->tx_max_pending = tp->chip->caps->ring_max;
	r->rx_pending = tp->rx_ring_size;
	r->tx_pending = tp->tx_ring_size;
}

static int rtl_set_ringparam(struct net_device *dev, struct ethtool_ringparam *r,
			     struct kernel_ethtool_ringparam *kr,
			     struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_cfg cfg;

	(void)kr;
	if (r->rx_pending < R8169_RING_MIN || r->tx_pending < R8169_RING_MIN) {
		NL_SET_ERR_MSG(extack, "rings need at least 64 descriptors");
		return -EINVAL;
	}
	/* ring indices are masked, not taken modulo the size */
	if (!is_power_of_2(r->rx_pending) || !is_power_of_2(r->tx_pending)) {
		NL_SET_ERR_MSG(extack, "ring sizes must be powers of two");
		return -EINVAL;
	}
	if (r->rx_pending == tp->rx_ring_size && r->tx_pending == tp->tx_ring_size)
		return 0;
	rtl_cfg_current(tp, &cfg);
	cfg.rx_ring_size = r->rx_pending;
	cfg.tx_ring_size = r->tx_pending;
	return rtl_reconfigure(tp, &cfg);
}

/* ---- moderation: INT_MITI_V2 per-queue timers (research s5.1) ---- */

static u32 miti_unit_ns(const struct rtl8169_private *tp)
{
	return RTL_INT_MITI_UNIT_NS(tp->chip->miti->tick_div);
}

/**
 * rtl_coalesce_write() - program each queue's moderation timers and frame threshold
 * @tp: the device
 *
 * Write every queue's RX and TX timer (in units) and RX frame threshold;
 * 0 = an interrupt per event, what upstream programs.
 *
 * Context: process or the DIM work.
 */
void rtl_coalesce_write(struct rtl8169_private *tp)
{
	for (unsigned int q = 0; q < tp->chip->miti->queues; q++) {
		u32 v = 0;

		if (q < tp->num_rx_queues)
			v |= rtl_rx_timer_units(tp, q) << (8 * RTL_INT_MITI_RX_BYTE) |
			     tp->rx_frames << (8 * RTL_INT_MITI_RX_FRAMES_BYTE);
		if (q < tp->num_tx_queues)
			v |= tp->tx_usecs << (8 * RTL_INT_MITI_TX_BYTE);
		rtl_w32(tp, RTL_INT_MITI_V2_RX(q), v);
		rtl_w32(tp, RTL_INT_MITI_V2_RX(q) + 4, 0);
	}
}

static u32 units_to_usecs(const struct rtl8169_private *tp, u32 units)
{
	return (u32)(((u64)units * miti_unit_ns(tp) + 500) / 1000);
}

static int usecs_to_units(const struct rtl8169_private *tp, u32 usecs, u32 *units,
			  const char *what, struct netlink_ext_ack *extack)
{
	u64 u = rtl_usecs_to_units(tp, usecs);

	if (u > RTL_INT_MITI_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "%s above the maximum of %u", what,
				   units_to_usecs(tp, RTL_INT_MITI_MAX));
		return -ERANGE;
	}
	*units = (u32)u;
	return 0;
}

static int rtl_get_coalesce(struct net_device *dev, struct ethtool_coalesce *c,
			    struct kernel_ethtool_coalesce *kc,
			    struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	(void)kc;
	(void)extack;
	memset(c, 0, sizeof(*c));
	c->rx_coalesce_usecs = units_to_usecs(tp, tp->rx_usecs);
	c->tx_coalesce_usecs = units_to_usecs(tp, tp->tx_usecs);
	/* as mainline r8169's rtl_get_coalesce: in frames, and 1 rather than
	 * 0 when neither limit is set (ethtool_coalesce: usecs and frames
	 * must not both be 0)
	 */
	c->rx_max_coalesced_frames = tp->rx_usecs || tp->rx_frames ?
				     tp->rx_frames * RTL_INT_MITI_FRAMES_UNIT : 1;
	c->use_adaptive_rx_coalesce = tp->adaptive_rx;
	return 0;
}

/*
 * rx-frames as mainline r8169's rtl_set_coalesce takes it (research s5.3,
 * Linux drivers/net/ethernet/realtek/r8169_main.c): at most 60 (-ERANGE);
 * 1, what get_coalesce reports for "no limit", means 0; a frame limit
 * needs a time limit (-EINVAL); kept in units of 4 frames, rounded up.
 */
static int rx_frames_to_units(u32 frames, u32 rx_usecs, u32 *units,
			      struct netlink_ext_ack *extack)
{
	if (frames > R8169_COALESCE_FRAME_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "rx-frames above the maximum of %u",
				   R8169_COALESCE_FRAME_MAX);
		return -ERANGE;
	}
	if (frames == 1)
		frames = 0;
	if (frames && !rx_usecs) {
		NL_SET_ERR_MSG(extack, "rx-frames needs rx-usecs");
		return -EINVAL;
	}
	*units = DIV_ROUND_UP(frames, RTL_INT_MITI_FRAMES_UNIT);
	return 0;
}

/* Turn DIM on or off; the caller writes the timers afterwards. */
static void rtl_set_adaptive_rx(struct rtl8169_private *tp, bool on)
{
	if (on == tp->adaptive_rx)
		return;
	for (unsigned int q = 0; q < tp->num_rx_queues; q++) {
		struct rtl_q_vector *qv = rtl_rx_qv(tp, q);

		if (!qv)
			continue;
		/* no work may run on the old setting; start afresh */
		rtl_dim_stop(qv);
		rtl_dim_init(qv);
	}
	WRITE_ONCE(tp->adaptive_rx, on);
}

static int rtl_set_coalesce(struct net_device *dev, struct ethtool_coalesce *c,
			    struct kernel_ethtool_coalesce *kc,
			    struct netlink_ext_ack *extack)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	u32 rx, tx, frames;
	int rc;

	(void)kc;
	/* hardware moderation exists only in the per-vector model */
	if (!tp->v2_irq && (c->rx_coalesce_usecs || c->tx_coalesce_usecs ||
			    c->rx_max_coalesced_frames > 1 ||
			    c->use_adaptive_rx_coalesce)) {
		NL_SET_ERR_MSG(extack, "interrupt moderation needs MSI-X");
		return -EOPNOTSUPP;
	}
	rc = usecs_to_units(tp, c->rx_coalesce_usecs, &rx, "rx-usecs", extack);
	if (!rc)
		rc = usecs_to_units(tp, c->tx_coalesce_usecs, &tx, "tx-usecs", extack);
	if (!rc)
		rc = rx_frames_to_units(c->rx_max_coalesced_frames,
					c->rx_coalesce_usecs, &frames, extack);
	if (rc)
		return rc;
	tp->rx_usecs = rx;
	tp->tx_usecs = tx;
	tp->rx_frames = frames;
	rtl_set_adaptive_rx(tp, c->use_adaptive_rx_coalesce);
	if (netif_running(dev))
		rtl_coalesce_write(tp);
	return 0;
}

/* ---- statistics ---- */

/*
 * The chip's tally counters come first, under mainline r8169's names and
 * in its order: rtl8169_gstrings and rtl8169_get_ethtool_stats in
 * drivers/net/ethernet/realtek/r8169_main.c, Linux 6.18 (read in a
 * linux-6.18.y tree), the same list since the driver's early days.  There the
 * RTL8125 family's extended counters go to ethtool's standard groups
 * (get_eth_mac_stats, get_pause_stats), not to -S; the model has none of
 * them.  "unicast", "broadcast", "multicast" are received frames.
 */
static const char rtl_tally_names[][ETH_GSTRING_LEN] = {
	"tx_packets", "rx_packets", "tx_errors", "rx_errors", "rx_missed",
	"align_errors", "tx_single_collisions", "tx_multi_collisions",
	"unicast", "broadcast", "multicast", "tx_aborted", "tx_underrun",
};

static_assert(ARRAY_SIZE(rtl_tally_names) == RTL_TALLY_NSTATS, "one name per tally value");

/**
 * rtl_tally_cmd() - run a tally counter command and wait for the chip
 * @tp: the device
 * @cmd: RTL_COUNTER_DUMP or RTL_COUNTER_RESET
 *
 * Context: any; busy-waits up to 10 ms.
 * Return: 0 or -ETIMEDOUT.
 */
int rtl_tally_cmd(struct rtl8169_private *tp, u32 cmd)
{
	u32 v;
	int rc;

	rtl_w32(tp, RTL_CounterAddrHigh, upper_32_bits(tp->tally_dma));
	rtl_w32(tp, RTL_CounterAddrLow, lower_32_bits(tp->tally_dma) | cmd);
	/* K rtl8169_do_counters: up to 1000 polls, 10 us apart */
	rc = readl_poll_timeout_atomic(tp->mmio_addr + RTL_CounterAddrLow, v,
				       !(v & (RTL_COUNTER_RESET | RTL_COUNTER_DUMP)),
				       10, 10000);
	if (rc)
		netdev_err(tp->dev, "tally command %#x not done after 10 ms\n", cmd);
	return rc;
}

/* Fresh tally values into @d: a dump if the receiver is on (K
 * rtl8169_update_counters: some chips cannot dump with it off, and 0xff
 * is a chip that is gone), else what the last dump left.
 */
static u64 *rtl_tally_stats(struct rtl8169_private *tp, u64 *d)
{
	const struct rtl_tally *t = tp->tally;
	u8 cmd = rtl_r8(tp, RTL_ChipCmd);

	if ((cmd & RTL_CMD_RE) && cmd != 0xff)
		rtl_tally_cmd(tp, RTL_COUNTER_DUMP);
	return rtl_tally_to_stats(t, d);
}

/* Then the driver's own counters: per RX and TX queue, per vector. */
static const char *const rtl_rxq_stat_names[] = {
	"packets", "bytes", "drops", "errors", "alloc_fail", "length",
	"flushed", "csum_ok", "ownbit_rechecks",
};

static const char *const rtl_txq_stat_names[] = {
	"packets", "bytes", "drops", "stops",
};

/* With adaptive-rx on, per RX queue: DIM's profile (0..4), its time in
 * us, and how many profiles the work applied.
 */
static const char *const rtl_rxq_dim_names[] = {
	"dim_profile", "dim_usecs", "dim_changes",
};

#define RXQ_NSTATS ARRAY_SIZE(rtl_rxq_stat_names)
#define TXQ_NSTATS ARRAY_SIZE(rtl_txq_stat_names)

static unsigned int rxq_nstats(const struct rtl8169_private *tp)
{
	return (unsigned int)(RXQ_NSTATS + (tp->adaptive_rx ? ARRAY_SIZE(rtl_rxq_dim_names) : 0));
}

static int rtl_get_sset_count(struct net_device *dev, int sset)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return (int)(RTL_TALLY_NSTATS + tp->num_rx_queues * rxq_nstats(tp) +
		     tp->num_tx_queues * TXQ_NSTATS + tp->nqv + 5);
}

static void rtl_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return;
	for (unsigned int i = 0; i < RTL_TALLY_NSTATS; i++)
		ethtool_puts(&data, rtl_tally_names[i]);
	for (unsigned int q = 0; q < tp->num_rx_queues; q++) {
		for (unsigned int i = 0; i < RXQ_NSTATS; i++)
			ethtool_sprintf(&data, "rx_queue_%u_%s", q, rtl_rxq_stat_names[i]);
		for (unsigned int i = 0; tp->adaptive_rx && i < ARRAY_SIZE(rtl_rxq_dim_names); i++)
			ethtool_sprintf(&data, "rx_queue_%u_%s", q, rtl_rxq_dim_names[i]);
	}
	for (unsigned int q = 0; q < tp->num_tx_queues; q++)
		for (unsigned int i = 0; i < TXQ_NSTATS; i++)
			ethtool_sprintf(&data, "tx_queue_%u_%s", q, rtl_txq_stat_names[i]);
	for (unsigned int i = 0; i < R8169_NQV; i++)
		if (tp->qv[i].active)
			ethtool_sprintf(&data, "irq_%s", tp->qv[i].name);
	ethtool_puts(&data, "link_changes");
	ethtool_puts(&data, "watchdog_kicks");
	ethtool_puts(&data, "tx_timeout_count");
	ethtool_puts(&data, "reset_count");
	ethtool_puts(&data, "reset_failures");
}

static void rtl_get_ethtool_stats(struct net_device *dev, struct ethtool_stats *st,
				  u64 *d)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	(void)st;
	d = rtl_tally_stats(tp, d);
	for (unsigned int q = 0; q < tp->num_rx_queues; q++) {
		struct rtl_rx_snap s;

		rtl_rx_stats_fetch(&tp->rx_ring[q], &s);
		*d++ = s.packets;
		*d++ = s.bytes;
		*d++ = s.drops;
		*d++ = s.errors;
		*d++ = s.alloc_fail;
		*d++ = s.length;
		*d++ = s.flushed;
		*d++ = s.csum_ok;
		*d++ = s.ownbit_rechecks;
		if (tp->adaptive_rx) {
			const struct rtl_q_vector *qv = rtl_rx_qv(tp, q);

			*d++ = qv ? qv->dim.profile_ix : 0;
			*d++ = qv ? net_dim_get_rx_moderation(qv->dim.mode,
							      qv->dim.profile_ix).usec : 0;
			*d++ = qv ? qv->dim_changes : 0;
		}
	}
	for (unsigned int q = 0; q < tp->num_tx_queues; q++) {
		struct rtl_tx_snap s;

		rtl_tx_stats_fetch(&tp->tx_ring[q], &s);
		*d++ = s.packets;
		*d++ = s.bytes;
		*d++ = s.drops;
		*d++ = s.stops;
	}
	for (unsigned int i = 0; i < R8169_NQV; i++)
		if (tp->qv[i].active)
			*d++ = tp->qv[i].irqs;
	*d++ = tp->link_changes;
	*d++ = tp->watchdog_kicks;
	*d++ = tp->tx_timeouts;
	*d++ = tp->resets;
	*d++ = tp->reset_failures;
}

/**
 * rtl_rx_stats_fetch() - a consistent copy of one RX queue's counters
 * @ring: the queue
 * @s: filled with its counters
 *
 * Context: any; retries while the queue's poll updates them.
 */
void rtl_rx_stats_fetch(const struct rtl_rx_ring *ring, struct rtl_rx_snap *s)
{
	const struct rtl_rx_stats *st = &ring->stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		s->packets = u64_stats_read(&st->packets);
		s->bytes = u64_stats_read(&st->bytes);
		s->drops = u64_stats_read(&st->drops);
		s->errors = u64_stats_read(&st->errors);
		s->alloc_fail = u64_stats_read(&st->alloc_fail);
		s->length = u64_stats_read(&st->length);
		s->flushed = u64_stats_read(&st->flushed);
		s->csum_ok = u64_stats_read(&st->csum_ok);
		s->ownbit_rechecks = u64_stats_read(&st->ownbit_rechecks);
	} while (u64_stats_fetch_retry(&st->syncp, start));
}

/**
 * rtl_tx_stats_fetch() - a consistent copy of one TX queue's counters
 * @ring: the queue
 * @s: filled with its counters
 *
 * Context: any; each of the two writer groups is read in its own loop.
 */
void rtl_tx_stats_fetch(const struct rtl_tx_ring *ring, struct rtl_tx_snap *s)
{
	const struct rtl_tx_stats *st = &ring->stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		s->packets = u64_stats_read(&st->packets);
		s->bytes = u64_stats_read(&st->bytes);
	} while (u64_stats_fetch_retry(&st->syncp, start));
	do {
		start = u64_stats_fetch_begin(&st->xmit_syncp);
		s->drops = u64_stats_read(&st->drops);
		s->stops = u64_stats_read(&st->stops);
	} while (u64_stats_fetch_retry(&st->xmit_syncp, start));
}

/**
 * rtl_get_stats64() - ndo_get_stats64: the interface counters
 * @dev: the netdev
 * @stats: zeroed by the core; filled here
 *
 * Frames and bytes are the queues' own counts, summed over every queue
 * the device has had (so a channel change loses nothing); the errors the
 * chip alone sees come from the tally block, as mainline
 * rtl8169_get_stats64() takes tx_errors, collisions, tx_aborted_errors
 * and rx_missed_errors from it (drivers/net/ethernet/realtek/r8169_main.c).
 *
 * Context: any, beside the datapath (the fetch loops).
 */
void rtl_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	const struct rtl_tally *t = tp->tally;
	u64 tally[RTL_TALLY_NSTATS];

	for (unsigned int q = 0; q < R8169_MAX_RX_QUEUES; q++) {
		struct rtl_rx_snap s;

		rtl_rx_stats_fetch(&tp->rx_ring[q], &s);
		stats->rx_packets += s.packets;
		stats->rx_bytes += s.bytes;
		/* descriptor errors and bad lengths are bad frames; no skb
		 * and frames freed with the ring are drops
		 */
		stats->rx_errors += s.errors + s.length;
		stats->rx_length_errors += s.length;
		stats->rx_dropped += s.alloc_fail + s.flushed;
	}
	for (unsigned int q = 0; q < R8169_MAX_TX_QUEUES; q++) {
		struct rtl_tx_snap s;

		rtl_tx_stats_fetch(&tp->tx_ring[q], &s);
		stats->tx_packets += s.packets;
		stats->tx_bytes += s.bytes;
		stats->tx_dropped += s.drops;
	}
	rtl_tally_stats(tp, tally);
	stats->tx_errors = le64_to_cpu(t->tx_errors);
	stats->collisions = le32_to_cpu(t->tx_multi_collision);
	stats->tx_aborted_errors = le16_to_cpu(t->tx_aborted);
	stats->rx_missed_errors = le16_to_cpu(t->rx_missed);
}

/* ---- per-queue statistics (netdev qstats) ---- */

static void rtl_qstat_rx(const struct rtl_rx_snap *s, struct netdev_queue_stats_rx *rx)
{
	rx->packets = s->packets;
	rx->bytes = s->bytes;
	rx->alloc_fail = s->alloc_fail;
	rx->csum_unnecessary = s->csum_ok;
	rx->csum_none = s->packets - s->csum_ok;
}

static void rtl_qstat_tx(const struct rtl_tx_snap *s, struct netdev_queue_stats_tx *tx)
{
	tx->packets = s->packets;
	tx->bytes = s->bytes;
	tx->stop = s->stops;
}

static void rtl_get_queue_stats_rx(struct net_device *dev, int idx,
				   struct netdev_queue_stats_rx *rx)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_rx_snap s;

	rtl_rx_stats_fetch(&tp->rx_ring[idx], &s);
	rtl_qstat_rx(&s, rx);
}

static void rtl_get_queue_stats_tx(struct net_device *dev, int idx,
				   struct netdev_queue_stats_tx *tx)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_tx_snap s;

	rtl_tx_stats_fetch(&tp->tx_ring[idx], &s);
	rtl_qstat_tx(&s, tx);
}

/* The queues not in use now keep their counts (a channel change moves
 * none): they are the base, so base plus queues is what ndo_get_stats64
 * reports.  Every counter the queues report is set, 0 if need be.
 */
static void rtl_get_base_stats(struct net_device *dev, struct netdev_queue_stats_rx *rx,
			       struct netdev_queue_stats_tx *tx)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_rx_snap rs = { 0 }, s;
	struct rtl_tx_snap ts = { 0 }, t;

	for (unsigned int q = dev->real_num_rx_queues; q < R8169_MAX_RX_QUEUES; q++) {
		rtl_rx_stats_fetch(&tp->rx_ring[q], &s);
		rs.packets += s.packets;
		rs.bytes += s.bytes;
		rs.alloc_fail += s.alloc_fail;
		rs.csum_ok += s.csum_ok;
	}
	for (unsigned int q = dev->real_num_tx_queues; q < R8169_MAX_TX_QUEUES; q++) {
		rtl_tx_stats_fetch(&tp->tx_ring[q], &t);
		ts.packets += t.packets;
		ts.bytes += t.bytes;
		ts.stops += t.stops;
	}
	rtl_qstat_rx(&rs, rx);
	rtl_qstat_tx(&ts, tx);
}

static const struct netdev_stat_ops rtl8169_stat_ops = {
	.get_queue_stats_rx = rtl_get_queue_stats_rx,
	.get_queue_stats_tx = rtl_get_queue_stats_tx,
	.get_base_stats = rtl_get_base_stats,
};

static void rtl_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	snprintf(info->driver, sizeof(info->driver), "%s", R8169_DRV_NAME);
	snprintf(info->bus_info, sizeof(info->bus_info), "%s", pci_name(tp->pdev));
}

#ifdef RXSCALE_COMPAT_RXFH_FUNCS	/* kmod/: a kernel older than the ops below */
RXSCALE_COMPAT_RXFH_FUNCS(rtl)
#endif

static const struct ethtool_ops rtl8169_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_RX_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
	.get_drvinfo = rtl_get_drvinfo,
	.get_channels = rtl_get_channels,
	.set_channels = rtl_set_channels,
	.get_rxfh_key_size = rtl_get_rxfh_key_size,
	.get_rxfh_indir_size = rtl_get_rxfh_indir_size,
#ifdef RXSCALE_COMPAT_RXFH_OPS
	RXSCALE_COMPAT_RXFH_OPS(rtl)
#else
	.get_rx_ring_count = rtl_get_rx_ring_count,
	.get_rxfh = rtl_get_rxfh,
	.set_rxfh = rtl_set_rxfh,
	.get_rxfh_fields = rtl_get_rxfh_fields,
	.set_rxfh_fields = rtl_set_rxfh_fields,
#endif
	.get_ringparam = rtl_get_ringparam,
	.set_ringparam = rtl_set_ringparam,
	.get_coalesce = rtl_get_coalesce,
	.set_coalesce = rtl_set_coalesce,
	.get_sset_count = rtl_get_sset_count,
	.get_strings = rtl_get_strings,
	.get_ethtool_stats = rtl_get_ethtool_stats,
};

/**
 * rtl_set_ethtool_ops() - give a netdev the driver's ethtool ops
 * @dev: the netdev probe allocated
 *
 * Also the per-queue statistics ops (netdev qstats), which a kernel
 * before 6.9 does not have.
 *
 * Context: probe, before register_netdev().
 */
void rtl_set_ethtool_ops(struct net_device *dev)
{
	dev->ethtool_ops = &rtl8169_ethtool_ops;
#ifndef RXSCALE_COMPAT_NO_STAT_OPS	/* kmod/: a kernel before 6.9 */
	dev->stat_ops = &rtl8169_stat_ops;
#endif
}
