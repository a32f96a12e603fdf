/* SPDX-License-Identifier: MIT */
/*
 * ethtool_core.c - what the kernel's ethtool core checks before it calls
 * a driver; see ethtool.h for each rule and its source.  Written for
 * rxscale from the documented behaviour of net/ethtool/{channels,rings,
 * coalesce,ioctl,common}.c; no kernel code is reused.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "kern/kern.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rss/rss_fields.h"
#include "rss/rss_hash.h"

/* The RXH bits are uapi; rss_fields.h carries the same numbers. */
_Static_assert(RXH_IP_SRC == RSS_RXH_IP_SRC && RXH_IP_DST == RSS_RXH_IP_DST &&
	       RXH_L4_B_0_1 == RSS_RXH_L4_B_0_1 &&
	       RXH_L4_B_2_3 == RSS_RXH_L4_B_2_3 &&
	       RXH_L2DA == RSS_RXH_L2DA && RXH_VLAN == RSS_RXH_VLAN &&
	       RXH_L3_PROTO == RSS_RXH_L3_PROTO &&
	       RXH_GTP_TEID == RSS_RXH_GTP_TEID &&
	       RXH_DISCARD == RSS_RXH_DISCARD,
	       "uapi RXH bits and rss_fields.h differ");
_Static_assert(RXH_XFRM_SYM_XOR == RSS_XFRM_SYM_XOR,
	       "uapi RXH_XFRM_SYM_XOR and rss_hash.h differ");

/* ---------------------------------------------------------------- */
/* channels                                                          */
/* ---------------------------------------------------------------- */

int ethtool_core_get_channels(struct net_device *dev,
			      struct ethtool_channels *ch)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;

	if (!ops || !ops->get_channels)
		return -EOPNOTSUPP;
	memset(ch, 0, sizeof(*ch));
	ops->get_channels(dev, ch);
	return 0;
}

/* Take @val into @dst when the request names @attr; note a change. */
static void update_u32(u32 *dst, u32 val, u64 attrs, u32 attr, bool *mod)
{
	if (!(attrs & ETHTOOL_ATTR(attr)) || *dst == val)
		return;
	*dst = val;
	*mod = true;
}

/*
 * The highest RX queue a user-set indirection table uses, 0 when the table
 * is the default one; U32_MAX when the table cannot be read, so that a
 * channel change is refused rather than risk an out-of-range entry
 * (kernel ethtool_get_max_rxfh_channel()).
 */
static u32 max_rxfh_channel(struct net_device *dev)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_rxfh_param rxfh = { 0 };
	u32 size, i, max = 0;

	if (!netif_is_rxfh_configured(dev))
		return 0;
	if (!ops->get_rxfh_indir_size || !ops->get_rxfh)
		return 0;
	size = ops->get_rxfh_indir_size(dev);
	if (!size)
		return 0;
	rxfh.indir = calloc(size, sizeof(*rxfh.indir));
	if (!rxfh.indir)
		return UINT32_MAX;
	rxfh.indir_size = size;
	if (ops->get_rxfh(dev, &rxfh)) {
		free(rxfh.indir);
		return UINT32_MAX;
	}
	for (i = 0; i < size; i++)
		if (rxfh.indir[i] > max)
			max = rxfh.indir[i];
	free(rxfh.indir);
	return max;
}

int ethtool_core_set_channels(struct net_device *dev,
			      const struct ethtool_channels *req, u64 attrs,
			      struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_channels ch = { 0 };
	bool mod = false, mod_combined = false;
	u32 err_attr, max_used;

	if (!ops || !ops->get_channels || !ops->set_channels)
		return -EOPNOTSUPP;
	ops->get_channels(dev, &ch);

	update_u32(&ch.rx_count, req->rx_count, attrs,
		   ETHTOOL_A_CHANNELS_RX_COUNT, &mod);
	update_u32(&ch.tx_count, req->tx_count, attrs,
		   ETHTOOL_A_CHANNELS_TX_COUNT, &mod);
	update_u32(&ch.other_count, req->other_count, attrs,
		   ETHTOOL_A_CHANNELS_OTHER_COUNT, &mod);
	update_u32(&ch.combined_count, req->combined_count, attrs,
		   ETHTOOL_A_CHANNELS_COMBINED_COUNT, &mod_combined);
	mod |= mod_combined;
	if (!mod)
		return 0;

	/* every count within its maximum, checked in this order */
	if (ch.rx_count > ch.max_rx)
		err_attr = ETHTOOL_A_CHANNELS_RX_COUNT;
	else if (ch.tx_count > ch.max_tx)
		err_attr = ETHTOOL_A_CHANNELS_TX_COUNT;
	else if (ch.other_count > ch.max_other)
		err_attr = ETHTOOL_A_CHANNELS_OTHER_COUNT;
	else if (ch.combined_count > ch.max_combined)
		err_attr = ETHTOOL_A_CHANNELS_COMBINED_COUNT;
	else
		err_attr = 0;
	if (err_attr) {
		/* the kernel points at the attribute only if it was sent */
		if (!(attrs & ETHTOOL_ATTR(err_attr)))
			err_attr = 0;
		NL_SET_ERR_MSG_ATTR(extack, err_attr,
				    "requested channel count exceeds maximum");
		return -EINVAL;
	}

	/* at least one RX and one TX channel */
	if (!ch.combined_count && !ch.rx_count)
		err_attr = ETHTOOL_A_CHANNELS_RX_COUNT;
	else if (!ch.combined_count && !ch.tx_count)
		err_attr = ETHTOOL_A_CHANNELS_TX_COUNT;
	else
		err_attr = 0;
	if (err_attr) {
		if (mod_combined)
			err_attr = ETHTOOL_A_CHANNELS_COMBINED_COUNT;
		if (!(attrs & ETHTOOL_ATTR(err_attr)))
			err_attr = 0;
		NL_SET_ERR_MSG_ATTR(extack, err_attr,
				    "requested channel counts would result in no RX or TX channel being configured");
		return -EINVAL;
	}

	/* a user-set table must not point past the new RX count */
	max_used = max_rxfh_channel(dev);
	if ((u64)ch.combined_count + ch.rx_count <= max_used) {
		NL_SET_ERR_MSG_FMT(extack,
				   "requested channel counts are too low for existing indirection table (%d)",
				   (int)max_used);
		return -EINVAL;
	}

	return ops->set_channels(dev, &ch);
}

/* ---------------------------------------------------------------- */
/* RSS: indirection table, key, hash function, input transform       */
/* ---------------------------------------------------------------- */

int ethtool_core_get_rx_ring_count(struct net_device *dev)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	u32 n;

	if (!ops || !ops->get_rx_ring_count)
		return -EOPNOTSUPP;
	n = ops->get_rx_ring_count(dev);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int ethtool_core_get_rxfh(struct net_device *dev,
			  struct ethtool_rxfh_param *rxfh)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	u32 *indir = rxfh->indir;
	u8 *key = rxfh->key;

	if (!ops || !ops->get_rxfh)
		return -EOPNOTSUPP;
	memset(rxfh, 0, sizeof(*rxfh));
	rxfh->indir = indir;
	rxfh->key = key;
	rxfh->indir_size = ops->get_rxfh_indir_size ?
			   ops->get_rxfh_indir_size(dev) : 0;
	rxfh->key_size = ops->get_rxfh_key_size ?
			 ops->get_rxfh_key_size(dev) : 0;
	if (!rxfh->indir_size)
		rxfh->indir = NULL;
	if (!rxfh->key_size)
		rxfh->key = NULL;
	return ops->get_rxfh(dev, rxfh);
}

/* The flow types whose fields a symmetric transform constrains (kernel
 * ethtool_check_flow_types(): the hashable ones). */
static const u32 hashable_flows[] = {
	TCP_V4_FLOW, UDP_V4_FLOW, SCTP_V4_FLOW, AH_ESP_V4_FLOW,
	TCP_V6_FLOW, UDP_V6_FLOW, SCTP_V6_FLOW, AH_ESP_V6_FLOW,
	AH_V4_FLOW, ESP_V4_FLOW, AH_V6_FLOW, ESP_V6_FLOW,
	IPV4_FLOW, IPV6_FLOW,
};

/* Symmetric transforms need src/dst pairs (kernel ethtool_check_xfrm_rxfh;
 * rss_fields_check_xfrm() holds the rule). */
static int check_xfrm_fields(u32 input_xfrm, u32 data)
{
	if (input_xfrm == RXH_XFRM_NO_CHANGE ||
	    !(input_xfrm & (RXH_XFRM_SYM_XOR | RXH_XFRM_SYM_OR_XOR)))
		return 0;
	return rss_fields_check_xfrm(data, RSS_XFRM_SYM_XOR);
}

static int check_flow_types(struct net_device *dev, u32 input_xfrm)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	size_t i;
	int err;

	if (!input_xfrm || input_xfrm == RXH_XFRM_NO_CHANGE ||
	    !ops->get_rxfh_fields)
		return 0;
	for (i = 0; i < ARRAY_SIZE(hashable_flows); i++) {
		struct ethtool_rxfh_fields f = { .flow_type = hashable_flows[i] };

		if (ops->get_rxfh_fields(dev, &f))
			continue;	/* flow type the driver does not hash */
		err = check_xfrm_fields(input_xfrm, f.data);
		if (err)
			return err;
	}
	return 0;
}

int ethtool_core_set_rxfh(struct net_device *dev,
			  const struct ethtool_rxfh_param *req,
			  struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_rxfh_param p = { 0 };
	u32 dev_indir_size, dev_key_size, i;
	int rx_rings, ret;
	u32 *indir = NULL;
	u8 *key = NULL;

	if (!ops || !ops->get_rxfh_indir_size || !ops->get_rxfh_key_size ||
	    !ops->get_rxfh || !ops->set_rxfh)
		return -EOPNOTSUPP;
	dev_indir_size = ops->get_rxfh_indir_size(dev);
	dev_key_size = ops->get_rxfh_key_size(dev);

	if (req->rss_context || req->rss_delete)
		return -EOPNOTSUPP;

	/* sizes must be the device's; something must change */
	if (req->indir_size != ETH_RXFH_INDIR_NO_CHANGE &&
	    req->indir_size && req->indir_size != dev_indir_size)
		return -EINVAL;
	if (req->indir_size && req->indir_size != ETH_RXFH_INDIR_NO_CHANGE &&
	    !req->indir)
		return -EINVAL;
	/* a key of another length, a zero-length one included (the kernel
	 * flags the attribute without a message) */
	if (req->key && req->key_size != dev_key_size)
		return -EINVAL;
	if (req->indir_size == ETH_RXFH_INDIR_NO_CHANGE && !req->key &&
	    req->hfunc == ETH_RSS_HASH_NO_CHANGE &&
	    req->input_xfrm == RXH_XFRM_NO_CHANGE)
		return -EINVAL;

	/* input transform: known values, supported by the driver, and
	 * compatible with every flow type's current fields */
	if (req->input_xfrm && req->input_xfrm != RXH_XFRM_SYM_XOR &&
	    req->input_xfrm != RXH_XFRM_SYM_OR_XOR &&
	    req->input_xfrm != RXH_XFRM_NO_CHANGE)
		return -EINVAL;
	if (req->input_xfrm != RXH_XFRM_NO_CHANGE &&
	    (req->input_xfrm & ~ops->supported_input_xfrm))
		return -EOPNOTSUPP;
	ret = check_flow_types(dev, req->input_xfrm);
	if (ret)
		return ret;

	/* table: default fill, or every entry below the RX ring count */
	if (req->indir_size != ETH_RXFH_INDIR_NO_CHANGE) {
		rx_rings = ethtool_core_get_rx_ring_count(dev);
		if (rx_rings < 0)
			return rx_rings;
		if (rx_rings == 0 || !dev_indir_size)
			return -EINVAL;
		indir = calloc(dev_indir_size, sizeof(*indir));
		if (!indir)
			return -ENOMEM;
		for (i = 0; i < dev_indir_size; i++) {
			if (!req->indir_size) {
				indir[i] = ethtool_rxfh_indir_default(
						i, (u32)rx_rings);
			} else if (req->indir[i] >= (u32)rx_rings) {
				free(indir);
				return -EINVAL;
			} else {
				indir[i] = req->indir[i];
			}
		}
		p.indir = indir;
		p.indir_size = dev_indir_size;
	}
	if (req->key) {
		key = malloc(dev_key_size);
		if (!key) {
			free(indir);
			return -ENOMEM;
		}
		memcpy(key, req->key, dev_key_size);
		p.key = key;
		p.key_size = dev_key_size;
	}
	p.hfunc = req->hfunc;
	p.input_xfrm = req->input_xfrm;

	ret = ops->set_rxfh(dev, &p, extack);
	if (!ret) {
		if (req->indir_size == 0)
			dev->priv_flags &= ~IFF_RXFH_CONFIGURED;
		else if (req->indir_size != ETH_RXFH_INDIR_NO_CHANGE)
			dev->priv_flags |= IFF_RXFH_CONFIGURED;
	}
	free(indir);
	free(key);
	return ret;
}

/* ---------------------------------------------------------------- */
/* rx-flow-hash fields                                               */
/* ---------------------------------------------------------------- */

int ethtool_core_get_rxfh_fields(struct net_device *dev,
				 struct ethtool_rxfh_fields *fields)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;

	if (!ops || !ops->get_rxfh_fields)
		return -EOPNOTSUPP;
	if (fields->rss_context)
		return -EINVAL;
	fields->data = 0;
	return ops->get_rxfh_fields(dev, fields);
}

int ethtool_core_set_rxfh_fields(struct net_device *dev,
				 const struct ethtool_rxfh_fields *fields,
				 struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	int ret;

	if (!ops || !ops->set_rxfh_fields)
		return -EOPNOTSUPP;
	if (fields->rss_context)
		return -EINVAL;
	if (ops->get_rxfh) {
		struct ethtool_rxfh_param cur = { 0 };

		ret = ops->get_rxfh(dev, &cur);
		if (ret)
			return ret;
		ret = check_xfrm_fields(cur.input_xfrm, fields->data);
		if (ret)
			return ret;
	}
	return ops->set_rxfh_fields(dev, fields, extack);
}

/* ---------------------------------------------------------------- */
/* coalescing                                                        */
/* ---------------------------------------------------------------- */

int ethtool_core_get_coalesce(struct net_device *dev,
			      struct ethtool_coalesce *coal,
			      struct kernel_ethtool_coalesce *kcoal)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;

	if (!ops || !ops->get_coalesce)
		return -EOPNOTSUPP;
	memset(coal, 0, sizeof(*coal));
	memset(kcoal, 0, sizeof(*kcoal));
	return ops->get_coalesce(dev, coal, kcoal, NULL);
}

/* Where each netlink attribute's value lives: in struct ethtool_coalesce
 * (u32) or struct kernel_ethtool_coalesce (u32 or u8). */
struct coal_field {
	u32 attr;
	bool kernel;		/* in kernel_ethtool_coalesce */
	bool is_u8;
	size_t off;
};

#define CF(a, m) { a, false, false, offsetof(struct ethtool_coalesce, m) }
#define KF32(a, m) { a, true, false, \
		     offsetof(struct kernel_ethtool_coalesce, m) }
#define KF8(a, m) { a, true, true, \
		    offsetof(struct kernel_ethtool_coalesce, m) }

static const struct coal_field coal_fields[] = {
	CF(ETHTOOL_A_COALESCE_RX_USECS, rx_coalesce_usecs),
	CF(ETHTOOL_A_COALESCE_RX_MAX_FRAMES, rx_max_coalesced_frames),
	CF(ETHTOOL_A_COALESCE_RX_USECS_IRQ, rx_coalesce_usecs_irq),
	CF(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ, rx_max_coalesced_frames_irq),
	CF(ETHTOOL_A_COALESCE_TX_USECS, tx_coalesce_usecs),
	CF(ETHTOOL_A_COALESCE_TX_MAX_FRAMES, tx_max_coalesced_frames),
	CF(ETHTOOL_A_COALESCE_TX_USECS_IRQ, tx_coalesce_usecs_irq),
	CF(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ, tx_max_coalesced_frames_irq),
	CF(ETHTOOL_A_COALESCE_STATS_BLOCK_USECS, stats_block_coalesce_usecs),
	CF(ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, use_adaptive_rx_coalesce),
	CF(ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, use_adaptive_tx_coalesce),
	CF(ETHTOOL_A_COALESCE_PKT_RATE_LOW, pkt_rate_low),
	CF(ETHTOOL_A_COALESCE_RX_USECS_LOW, rx_coalesce_usecs_low),
	CF(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW, rx_max_coalesced_frames_low),
	CF(ETHTOOL_A_COALESCE_TX_USECS_LOW, tx_coalesce_usecs_low),
	CF(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW, tx_max_coalesced_frames_low),
	CF(ETHTOOL_A_COALESCE_PKT_RATE_HIGH, pkt_rate_high),
	CF(ETHTOOL_A_COALESCE_RX_USECS_HIGH, rx_coalesce_usecs_high),
	CF(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH,
	   rx_max_coalesced_frames_high),
	CF(ETHTOOL_A_COALESCE_TX_USECS_HIGH, tx_coalesce_usecs_high),
	CF(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH,
	   tx_max_coalesced_frames_high),
	CF(ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL, rate_sample_interval),
	KF8(ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, use_cqe_mode_tx),
	KF8(ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, use_cqe_mode_rx),
	KF32(ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES, tx_aggr_max_bytes),
	KF32(ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES, tx_aggr_max_frames),
	KF32(ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS, tx_aggr_time_usecs),
	KF32(ETHTOOL_A_COALESCE_RX_CQE_FRAMES, rx_cqe_frames),
	KF32(ETHTOOL_A_COALESCE_RX_CQE_NSECS, rx_cqe_nsecs),
};

static void *coal_ptr(const struct coal_field *f, const void *coal,
		      const void *kcoal)
{
	return (char *)(f->kernel ? kcoal : coal) + f->off;
}

static u32 coal_get(const struct coal_field *f, const void *coal,
		    const void *kcoal)
{
	const void *p = coal_ptr(f, coal, kcoal);

	return f->is_u8 ? *(const u8 *)p : *(const u32 *)p;
}

int ethtool_core_set_coalesce(struct net_device *dev,
			      const struct ethtool_coalesce *coal,
			      const struct kernel_ethtool_coalesce *kcoal,
			      u64 attrs, struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct kernel_ethtool_coalesce kc = { 0 };
	struct ethtool_coalesce c = { 0 };
	bool mod = false;
	size_t i;
	u32 a;
	int ret;

	if (!ops || !ops->get_coalesce || !ops->set_coalesce)
		return -EOPNOTSUPP;
	/* only supported parameters may be present, in attribute order
	 * (profiles are never supported here) */
	for (a = ETHTOOL_A_COALESCE_RX_USECS; a < __ETHTOOL_A_COALESCE_CNT;
	     a++) {
		if ((attrs & ETHTOOL_ATTR(a)) &&
		    !(ops->supported_coalesce_params &
		      __ETHTOOL_COALESCE_BIT(a))) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "cannot modify an unsupported parameter");
			return -EINVAL;
		}
	}

	ret = ops->get_coalesce(dev, &c, &kc, extack);
	if (ret < 0)
		return ret;
	for (i = 0; i < ARRAY_SIZE(coal_fields); i++) {
		const struct coal_field *f = &coal_fields[i];
		void *dst = coal_ptr(f, &c, &kc);
		u32 v;

		if (!(attrs & ETHTOOL_ATTR(f->attr)))
			continue;
		v = coal_get(f, coal, kcoal);
		if (f->is_u8) {
			if (*(u8 *)dst != (u8)v) {
				*(u8 *)dst = (u8)v;
				mod = true;
			}
		} else if (*(u32 *)dst != v) {
			*(u32 *)dst = v;
			mod = true;
		}
	}
	if (!mod)
		return 0;
	return ops->set_coalesce(dev, &c, &kc, extack);
}

int ethtool_core_set_coalesce_ioctl(struct net_device *dev,
				    const struct ethtool_coalesce *coal)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct kernel_ethtool_coalesce kc = { 0 };
	struct ethtool_coalesce cur = { 0 }, c = *coal;
	u32 nonzero = 0;
	size_t i;
	int ret;

	if (!ops || !ops->get_coalesce || !ops->set_coalesce)
		return -EOPNOTSUPP;
	ret = ops->get_coalesce(dev, &cur, &kc, NULL);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(coal_fields); i++)
		if (!coal_fields[i].kernel &&
		    coal_get(&coal_fields[i], coal, NULL))
			nonzero |= __ETHTOOL_COALESCE_BIT(coal_fields[i].attr);
	if ((ops->supported_coalesce_params & nonzero) != nonzero)
		return -EOPNOTSUPP;
	return ops->set_coalesce(dev, &c, &kc, NULL);
}

/* ---------------------------------------------------------------- */
/* rings                                                             */
/* ---------------------------------------------------------------- */

int ethtool_core_get_ringparam(struct net_device *dev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;

	if (!ops || !ops->get_ringparam)
		return -EOPNOTSUPP;
	memset(ring, 0, sizeof(*ring));
	memset(kring, 0, sizeof(*kring));
	ops->get_ringparam(dev, ring, kring, NULL);
	return 0;
}

int ethtool_core_set_ringparam(struct net_device *dev,
			       const struct ethtool_ringparam *req, u64 attrs,
			       struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct kernel_ethtool_ringparam kr = { 0 };
	struct ethtool_ringparam r = { 0 };
	bool mod = false;
	u32 err_attr;

	if (!ops || !ops->get_ringparam || !ops->set_ringparam)
		return -EOPNOTSUPP;
	ops->get_ringparam(dev, &r, &kr, extack);

	update_u32(&r.rx_pending, req->rx_pending, attrs,
		   ETHTOOL_A_RINGS_RX, &mod);
	update_u32(&r.rx_mini_pending, req->rx_mini_pending, attrs,
		   ETHTOOL_A_RINGS_RX_MINI, &mod);
	update_u32(&r.rx_jumbo_pending, req->rx_jumbo_pending, attrs,
		   ETHTOOL_A_RINGS_RX_JUMBO, &mod);
	update_u32(&r.tx_pending, req->tx_pending, attrs,
		   ETHTOOL_A_RINGS_TX, &mod);
	if (!mod)
		return 0;

	if (r.rx_pending > r.rx_max_pending)
		err_attr = ETHTOOL_A_RINGS_RX;
	else if (r.rx_mini_pending > r.rx_mini_max_pending)
		err_attr = ETHTOOL_A_RINGS_RX_MINI;
	else if (r.rx_jumbo_pending > r.rx_jumbo_max_pending)
		err_attr = ETHTOOL_A_RINGS_RX_JUMBO;
	else if (r.tx_pending > r.tx_max_pending)
		err_attr = ETHTOOL_A_RINGS_TX;
	else
		err_attr = 0;
	if (err_attr) {
		if (!(attrs & ETHTOOL_ATTR(err_attr)))
			err_attr = 0;
		NL_SET_ERR_MSG_ATTR(extack, err_attr,
				    "requested ring size exceeds maximum");
		return -EINVAL;
	}
	return ops->set_ringparam(dev, &r, &kr, extack);
}

/* ---------------------------------------------------------------- */
/* statistics                                                        */
/* ---------------------------------------------------------------- */

int ethtool_core_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	int n;

	memset(info, 0, sizeof(*info));
	info->cmd = ETHTOOL_GDRVINFO;
	snprintf(info->version, sizeof(info->version), "%s", KERN_UTS_RELEASE);
	if (!ops || !ops->get_drvinfo)
		return -EOPNOTSUPP;
	ops->get_drvinfo(dev, info);
	if (ops->get_sset_count) {
		n = ops->get_sset_count(dev, ETH_SS_STATS);
		info->n_stats = n > 0 ? (u32)n : 0;
		n = ops->get_sset_count(dev, ETH_SS_TEST);
		info->testinfo_len = n > 0 ? (u32)n : 0;
		n = ops->get_sset_count(dev, ETH_SS_PRIV_FLAGS);
		info->n_priv_flags = n > 0 ? (u32)n : 0;
	}
	return 0;
}

int ethtool_core_get_stats(struct net_device *dev, char **names,
			   u64 **values)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_stats st = { 0 };
	int n;

	*names = NULL;
	*values = NULL;
	if (!ops || !ops->get_sset_count || !ops->get_strings ||
	    !ops->get_ethtool_stats)
		return -EOPNOTSUPP;
	n = ops->get_sset_count(dev, ETH_SS_STATS);
	if (n <= 0)
		return n;
	*names = calloc((size_t)n, ETH_GSTRING_LEN);
	*values = calloc((size_t)n, sizeof(u64));
	if (!*names || !*values) {
		free(*names);
		free(*values);
		*names = NULL;
		*values = NULL;
		return -ENOMEM;
	}
	ops->get_strings(dev, ETH_SS_STATS, (u8 *)*names);
	st.n_stats = (u32)n;
	ops->get_ethtool_stats(dev, &st, *values);
	return n;
}

/* ---- get_strings helpers ---- */

void ethtool_sprintf(u8 **data, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf((char *)*data, ETH_GSTRING_LEN, fmt, ap);
	va_end(ap);
	*data += ETH_GSTRING_LEN;
}

void ethtool_puts(u8 **data, const char *str)
{
	size_t n = strnlen(str, ETH_GSTRING_LEN - 1);

	memcpy(*data, str, n);
	(*data)[n] = 0;
	*data += ETH_GSTRING_LEN;
}
