/* SPDX-License-Identifier: MIT */
/*
 * rtl_tally.h - the chip's tally counters (struct rtl_tally, rtl_desc.h:
 * little-endian in the block the PCIe chips DMA and the USB adapters
 * return from PLA_TALLYCNT) as ethtool -S values, in the order both
 * mainline drivers print them (rtl8169_get_ethtool_stats,
 * rtl8152_get_ethtool_stats, Linux 6.18).  Each driver keeps its own
 * names for them.
 */
#ifndef RXSCALE_DRV_RTL_TALLY_H
#define RXSCALE_DRV_RTL_TALLY_H

#include <linux/types.h>

#include "hw/rtl_desc.h"

#define RTL_TALLY_NSTATS	13

/* The 13 values of @t into @d; returns @d past them. */
static inline u64 *rtl_tally_to_stats(const struct rtl_tally *t, u64 *d)
{
	*d++ = le64_to_cpu(t->tx_packets);
	*d++ = le64_to_cpu(t->rx_packets);
	*d++ = le64_to_cpu(t->tx_errors);
	*d++ = le32_to_cpu(t->rx_errors);
	*d++ = le16_to_cpu(t->rx_missed);
	*d++ = le16_to_cpu(t->align_errors);
	*d++ = le32_to_cpu(t->tx_one_collision);
	*d++ = le32_to_cpu(t->tx_multi_collision);
	*d++ = le64_to_cpu(t->rx_unicast);
	*d++ = le64_to_cpu(t->rx_broadcast);
	*d++ = le32_to_cpu(t->rx_multicast);
	*d++ = le16_to_cpu(t->tx_aborted);
	*d++ = le16_to_cpu(t->tx_underrun);
	return d;
}

#endif /* RXSCALE_DRV_RTL_TALLY_H */
