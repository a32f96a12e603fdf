/* SPDX-License-Identifier: MIT */
/*
 * netdevice.h - struct net_device and NAPI, the subset of Linux's
 * include/linux/netdevice.h that an r8169-style driver uses.
 *
 * This header is shared by the ethtool core (ethtool.h / ethtool_core.c)
 * and the NAPI/softirq implementation (napi.c). Fields keep the kernel's
 * names and meanings.
 */
#ifndef RXSCALE_KERN_NETDEVICE_H
#define RXSCALE_KERN_NETDEVICE_H

#include "kern/kern_types.h"
#include "kern/ethtool.h"

/* dev->priv_flags: the user set the RSS indirection table (ethtool -X), so
 * the driver must keep it across channel changes (Linux IFF_RXFH_CONFIGURED). */
#define IFF_RXFH_CONFIGURED BIT(0)

struct net_device {
	char name[IFNAMSIZ];            /* "eth0" */
	const struct ethtool_ops *ethtool_ops;
	unsigned int priv_flags;        /* IFF_* above */
	unsigned int num_rx_queues;     /* allocated RX queues (maximum) */
	unsigned int real_num_rx_queues;/* RX queues in use */
	unsigned int num_tx_queues;
	unsigned int real_num_tx_queues;
	unsigned int mtu;               /* bytes, L3 */
	void *priv;                     /* driver private area (netdev_priv) */
};

/* True when the user has set the indirection table (Linux helper of the same
 * name); drivers must not reset it to the default on channel changes. */
static inline bool netif_is_rxfh_configured(const struct net_device *dev)
{
	return dev->priv_flags & IFF_RXFH_CONFIGURED;
}

/* Driver private area allocated with the netdev. */
static inline void *netdev_priv(const struct net_device *dev)
{
	return dev->priv;
}

#endif /* RXSCALE_KERN_NETDEVICE_H */
