/* SPDX-License-Identifier: MIT */
/* ethtool.h - placeholder; the ethtool structs, ethtool_ops and the core
 * validation live here (owned by the ethtool core work). */
#ifndef RXSCALE_KERN_ETHTOOL_H
#define RXSCALE_KERN_ETHTOOL_H
struct net_device;
struct ethtool_ops;
#endif
