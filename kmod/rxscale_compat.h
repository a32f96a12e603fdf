/* SPDX-License-Identifier: MIT */
/*
 * rxscale_compat.h - the one compat header of the kernel module build.
 *
 * src/drv is written against the current mainline API (the one whose
 * r8169 knows the RTL8127A, Linux 6.18+) and includes Linux's headers by
 * their own names; src/kern serves the same names to the simulator.  The
 * module build (kmod/Makefile) includes this file first in every driver
 * file (-include), and it fills in what an older kernel lacks, keyed on
 * LINUX_VERSION_CODE; a current kernel needs none of it:
 *
 *   6.2   NL_SET_ERR_MSG_FMT, netdev_sw_irq_coalesce_default_on,
 *         timer_delete_sync (del_timer_sync before)
 *   6.3   netif_subqueue_completed_wake and friends (net/netdev_queues.h;
 *         Debian's 6.1 has the stop helpers only)
 *   6.8   netif_queue_set_napi, enum netdev_queue_type
 *   6.9   per-queue statistics: struct netdev_stat_ops and the
 *         netdev_queue_stats_rx/tx it fills, dev->stat_ops (before: the
 *         types only, so the driver builds, and RXSCALE_COMPAT_NO_STAT_OPS)
 *   6.8   get_rxfh/set_rxfh take struct ethtool_rxfh_param, input_xfrm
 *   6.9   ethtool_puts
 *   (DIM) NET_DIM_DEF_PROFILE_EQE: in <linux/dim.h> in 7.3, only in
 *         lib/dim/net_dim.c in 6.1
 *   6.13  net_dim() takes the sample by reference (before: by value)
 *   6.17  get_rxfh_fields/set_rxfh_fields (older: get_rxnfc/set_rxnfc
 *         with ETHTOOL_GRXFH/ETHTOOL_SRXFH); also in 6.12.y from 6.12.111
 *         (a stable backport: Debian's linux-source-6.12 6.12.117 has them)
 *   6.16  timer_container_of (from_timer before)
 *   6.18  get_rx_ring_count (older: ETHTOOL_GRXRINGS through get_rxnfc)
 *
 * For the ethtool ops the driver names its functions <prefix>_get_rxfh
 * etc. and, only when this header says so, puts RXSCALE_COMPAT_RXFH_FUNCS
 * (adapters) and RXSCALE_COMPAT_RXFH_OPS (the ops members) in its tables.
 */
#ifndef RXSCALE_COMPAT_H
#define RXSCALE_COMPAT_H

/* what the fallbacks below are written against */
#include <linux/version.h>
#include <linux/dim.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/printk.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <net/netdev_queues.h>

/* ---- netlink, netdev (6.2) ---- */

#ifndef NL_SET_ERR_MSG_FMT
/* No formatted extack before 6.2: the format text is the message, the
 * formatted one goes to the kernel log. */
#define NL_SET_ERR_MSG_FMT(extack, fmt, ...) do {			\
	NL_SET_ERR_MSG(extack, fmt);					\
	pr_info(KBUILD_MODNAME ": " fmt "\n", ##__VA_ARGS__);		\
} while (0)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define timer_delete_sync del_timer_sync
#endif

/* ---- timers (6.16) ---- */

#ifndef timer_container_of
#define timer_container_of from_timer
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
static inline void netdev_sw_irq_coalesce_default_on(struct net_device *dev)
{
	/* what 6.2's helper sets, before register_netdev() */
	dev->gro_flush_timeout = 20000;
	dev->napi_defer_hard_irqs = 1;
}
#endif

/* ---- TX queue helpers (net/netdev_queues.h, 6.3) ---- */

#ifndef netif_subqueue_completed_wake
static inline void rxscale_txq_completed_mb(struct netdev_queue *txq,
					    unsigned int pkts,
					    unsigned int bytes)
{
	/* no BQL accounting in this driver: just the barrier */
	if (bytes)
		smp_mb();
}

#define netif_subqueue_completed_wake(dev, idx, pkts, bytes, get_desc,	\
				      start_thrs)			\
	({								\
		struct netdev_queue *_txq_cw = netdev_get_tx_queue(dev, idx); \
		int _res_cw = -1;					\
									\
		rxscale_txq_completed_mb(_txq_cw, pkts, bytes);	\
		if ((pkts) && likely((get_desc) >= (start_thrs))) {	\
			_res_cw = 1;					\
			if (unlikely(netif_tx_queue_stopped(_txq_cw))) { \
				netif_tx_wake_queue(_txq_cw);		\
				_res_cw = 0;				\
			}						\
		}							\
		_res_cw;						\
	})
#endif

/* ---- queue-to-NAPI mapping (6.8) ---- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
enum netdev_queue_type {
	NETDEV_QUEUE_TYPE_RX,
	NETDEV_QUEUE_TYPE_TX,
};

/* nothing to tell a kernel without the netdev queue-get */
static inline void netif_queue_set_napi(struct net_device *dev,
					unsigned int queue_index,
					enum netdev_queue_type type,
					struct napi_struct *napi)
{
}
#endif

/* ---- per-queue statistics (netdev qstats, 6.9) ---- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
/* The driver fills these; with no dev->stat_ops nothing asks for them. */
struct netdev_queue_stats_rx {
	u64 bytes;
	u64 packets;
	u64 alloc_fail;
	u64 csum_unnecessary;
	u64 csum_none;
};

struct netdev_queue_stats_tx {
	u64 bytes;
	u64 packets;
	u64 stop;
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

#define RXSCALE_COMPAT_NO_STAT_OPS 1
#endif

/* ---- DIM (the default profile's name; 6.13) ---- */

#ifndef NET_DIM_DEF_PROFILE_EQE
#define NET_DIM_DEF_PROFILE_EQE 1	/* lib/dim/net_dim.c's default */
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
/* the sample by value (a function-like macro does not expand itself) */
#define net_dim(dim, sample) net_dim(dim, *(sample))
#endif

/* ---- ethtool strings (6.9) ---- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
static inline void ethtool_puts(u8 **data, const char *str)
{
	strscpy(*data, str, ETH_GSTRING_LEN);
	*data += ETH_GSTRING_LEN;
}
#endif

/* ---- RSS ops: struct ethtool_rxfh_param (6.8) ---- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
#define RXH_XFRM_NO_CHANGE 0xff
struct ethtool_rxfh_param {
	u8 hfunc;
	u32 indir_size;
	u32 *indir;
	u32 key_size;
	u8 *key;
	u32 rss_context;
	u8 rss_delete;
	u8 input_xfrm;
};

#define RXSCALE_COMPAT_RXFH_PARAM_FUNCS(p)				\
static int p##_compat_get_rxfh(struct net_device *dev, u32 *indir,	\
			       u8 *key, u8 *hfunc)			\
{									\
	struct ethtool_rxfh_param prm = { .indir = indir, .key = key };	\
	int rc = p##_get_rxfh(dev, &prm);				\
									\
	if (!rc && hfunc)						\
		*hfunc = prm.hfunc;					\
	return rc;							\
}									\
static int p##_compat_set_rxfh(struct net_device *dev,			\
			       const u32 *indir, const u8 *key,		\
			       const u8 hfunc)				\
{									\
	struct ethtool_rxfh_param prm = {				\
		.hfunc = hfunc, .input_xfrm = RXH_XFRM_NO_CHANGE,	\
		.indir = (u32 *)indir, .key = (u8 *)key,		\
	};								\
									\
	return p##_set_rxfh(dev, &prm, NULL);				\
}
#define RXSCALE_COMPAT_RXFH_PARAM_OPS(p)				\
	.get_rxfh = p##_compat_get_rxfh,				\
	.set_rxfh = p##_compat_set_rxfh,
#else
#define RXSCALE_COMPAT_RXFH_PARAM_FUNCS(p)
#define RXSCALE_COMPAT_RXFH_PARAM_OPS(p)				\
	.get_rxfh = p##_get_rxfh,					\
	.set_rxfh = p##_set_rxfh,
#endif

/* ---- RSS hash fields and ring count (6.17, 6.18) ---- */

/* The fields ops (and struct ethtool_rxfh_fields) came in 6.17 and were
 * backported to 6.12.111 ("net: ethtool: add dedicated callbacks for
 * getting and setting rxfh fields"); get_rx_ring_count was not. Another
 * stable series with the backport shows as a redefinition of struct
 * ethtool_rxfh_fields below: add its first version here. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0) ||			\
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 111) &&		\
	 LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0))
#define RXSCALE_HAVE_RXFH_FIELDS_OPS 1
#else
#define RXSCALE_HAVE_RXFH_FIELDS_OPS 0
#endif

#if !RXSCALE_HAVE_RXFH_FIELDS_OPS
struct ethtool_rxfh_fields {
	u32 data;
	u32 flow_type;
	u32 rss_context;
};

/* ETHTOOL_GRXRINGS, GRXFH and SRXFH through the rxnfc ops. */
#define RXSCALE_COMPAT_RXNFC_FUNCS(p)					\
static int p##_compat_get_rxnfc(struct net_device *dev,		\
				struct ethtool_rxnfc *nfc, u32 *rules)	\
{									\
	struct ethtool_rxfh_fields f = { .flow_type = nfc->flow_type };	\
	int rc;								\
									\
	switch (nfc->cmd) {						\
	case ETHTOOL_GRXRINGS:						\
		nfc->data = p##_get_rx_ring_count(dev);			\
		return 0;						\
	case ETHTOOL_GRXFH:						\
		if (nfc->flow_type & FLOW_RSS)				\
			return -EOPNOTSUPP;				\
		rc = p##_get_rxfh_fields(dev, &f);			\
		if (!rc)						\
			nfc->data = f.data;				\
		return rc;						\
	default:							\
		return -EOPNOTSUPP;					\
	}								\
}									\
static int p##_compat_set_rxnfc(struct net_device *dev,		\
				struct ethtool_rxnfc *nfc)		\
{									\
	struct ethtool_rxfh_fields f = {				\
		.flow_type = nfc->flow_type, .data = (u32)nfc->data,	\
	};								\
									\
	if (nfc->cmd != ETHTOOL_SRXFH || (nfc->flow_type & FLOW_RSS))	\
		return -EOPNOTSUPP;					\
	return p##_set_rxfh_fields(dev, &f, NULL);			\
}
#define RXSCALE_COMPAT_RXNFC_OPS(p)					\
	.get_rxnfc = p##_compat_get_rxnfc,				\
	.set_rxnfc = p##_compat_set_rxnfc,
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
/* fields ops exist (6.17, 6.12.111+); the ring count still comes through
 * get_rxnfc */
#define RXSCALE_COMPAT_RXNFC_FUNCS(p)					\
static int p##_compat_get_rxnfc(struct net_device *dev,		\
				struct ethtool_rxnfc *nfc, u32 *rules)	\
{									\
	if (nfc->cmd != ETHTOOL_GRXRINGS)				\
		return -EOPNOTSUPP;					\
	nfc->data = p##_get_rx_ring_count(dev);				\
	return 0;							\
}
#define RXSCALE_COMPAT_RXNFC_OPS(p)					\
	.get_rxnfc = p##_compat_get_rxnfc,				\
	.get_rxfh_fields = p##_get_rxfh_fields,				\
	.set_rxfh_fields = p##_set_rxfh_fields,
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
#define RXSCALE_COMPAT_RXFH_FUNCS(p)					\
	RXSCALE_COMPAT_RXFH_PARAM_FUNCS(p)				\
	RXSCALE_COMPAT_RXNFC_FUNCS(p)
#define RXSCALE_COMPAT_RXFH_OPS(p)					\
	RXSCALE_COMPAT_RXFH_PARAM_OPS(p)				\
	RXSCALE_COMPAT_RXNFC_OPS(p)
#endif

#endif /* RXSCALE_COMPAT_H */
