// SPDX-License-Identifier: MIT
/*
 * r8169_rss.c - RSS: key, indirection table and hash types, kept in a
 * shadow copy and written to RSS_CTRL (0x4500), the key (0x4600), the
 * table (0x4700) and Q_NUM_CTRL (0x4800) (research s2; vendor
 * r8127_rss.c names, K register spellings).
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "r8169.h"

/**
 * rtl_rss_init() - the default RSS key, indirection table and hash types
 * @tp: the device
 *
 * Defaults when the device comes up: the kernel's boot-random key, the
 * round-robin table unless the user set one, the chip's hash types.
 *
 * Context: probe.
 */
void rtl_rss_init(struct rtl8169_private *tp)
{
	netdev_rss_key_fill(tp->rss_key, sizeof(tp->rss_key));
	for (unsigned int i = 0; i < tp->rss_indir_size; i++)
		tp->rss_indir[i] = (u8)ethtool_rxfh_indir_default(i, tp->num_rx_queues);
	tp->rss_ht = R8169_RSS_HT_DEFAULT;
}

/**
 * rtl_rss_write() - program the RSS key, table and hash types (or RSS off)
 * @tp: the device
 *
 * Context: process; the chip is stopped or running.
 */
void rtl_rss_write(struct rtl8169_private *tp)
{
	unsigned int lq = order_base_2(tp->num_rx_queues);

	if (!tp->rss_on) {
		/* writing 0 disables RSS: every frame to queue 0 */
		rtl_w32(tp, RTL_RSS_CTRL_8125, 0);
		rtl_w16(tp, RTL_Q_NUM_CTRL_8125, 0);
		return;
	}
	/* key byte i at 0x4600 + i, written as little-endian dwords */
	for (unsigned int i = 0; i < R8169_RSS_KEY_SIZE; i += 4)
		rtl_w32(tp, RTL_RSS_KEY_BYTE(i),
			(u32)tp->rss_key[i] | (u32)tp->rss_key[i + 1] << 8 |
			(u32)tp->rss_key[i + 2] << 16 | (u32)tp->rss_key[i + 3] << 24);
	for (unsigned int i = 0; i < tp->rss_indir_size; i += 4)
		rtl_w32(tp, RTL_RSS_INDIR_BYTE(i),
			(u32)tp->rss_indir[i] | (u32)tp->rss_indir[i + 1] << 8 |
			(u32)tp->rss_indir[i + 2] << 16 | (u32)tp->rss_indir[i + 3] << 24);
	/* a what-if row: the sizes its 3-bit fields cannot hold */
	if (tp->chip->whatif)
		rtl_w32(tp, RTL_RSS_CFG_WHATIF, ilog2(tp->rss_indir_size) |
			lq << RTL_RSS_CFG_WHATIF_QNUM_SHIFT);
	rtl_w16(tp, RTL_Q_NUM_CTRL_8125, (u16)((lq << RTL_Q_NUM_SHIFT) & RTL_Q_NUM_MASK));
	rtl_w32(tp, RTL_RSS_CTRL_8125,
		(tp->rss_ht & RTL_RSS_CTRL_HASH_MASK) |
		((ilog2(tp->rss_indir_size) << RTL_RSS_CTRL_INDIR_SHIFT) &
		 RTL_RSS_CTRL_INDIR_MASK) |
		((lq << RTL_RSS_CTRL_QNUM_SHIFT) & RTL_RSS_CTRL_QNUM_MASK));
}
