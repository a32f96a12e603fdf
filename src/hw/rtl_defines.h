/* SPDX-License-Identifier: MIT */
/*
 * rtl_defines.h - bit fields of the RTL8125/8126/8127 registers in
 * rtl_regs.def.  Data only.  Source tags as in rtl_regs.def (K kernel
 * r8169_main.c, D DPDK r8169_compat.h / r8169_ethdev.h, V127/V125 Realtek
 * vendor drivers); "sN" = section N of ../shared/research/rtl8127-hw.md;
 * [I] marks a choice this project made where no source decides.
 */
#ifndef RXSCALE_HW_RTL_DEFINES_H
#define RXSCALE_HW_RTL_DEFINES_H

#define RTL_BIT(n)		(1u << (n))

/* ChipCmd (0x37), K and D ChipCmd bits. */
#define RTL_CMD_RX_BUF_EMPTY	RTL_BIT(0)	/* RO status */
#define RTL_CMD_TE		RTL_BIT(2)	/* transmitter enable */
#define RTL_CMD_RE		RTL_BIT(3)	/* receiver enable */
#define RTL_CMD_RST		RTL_BIT(4)	/* reset; self-clears */
#define RTL_CMD_STOP_REQ	RTL_BIT(7)

/* Cfg9346 (0x50): config-register write lock (K, D). */
#define RTL_CFG9346_LOCK	0x00u
#define RTL_CFG9346_UNLOCK	0xC0u

/* Legacy IntrMask_8125 / IntrStatus_8125 (0x38/0x3C) bits (s4.2; V127
 * r8127.h, K rtl_register_content, D). */
#define RTL_INT_ROK		RTL_BIT(0)	/* RX OK */
#define RTL_INT_RER		RTL_BIT(1)	/* RX error */
#define RTL_INT_TOK		RTL_BIT(2)	/* TX OK */
#define RTL_INT_TER		RTL_BIT(3)	/* TX error */
#define RTL_INT_RDU		RTL_BIT(4)	/* RX desc unavailable (K: RxOverflow) */
#define RTL_INT_LINK_CHG	RTL_BIT(5)
#define RTL_INT_RX_FIFO_OVER	RTL_BIT(6)
#define RTL_INT_TDU		RTL_BIT(7)	/* TX desc unavailable */
#define RTL_INT_SW		RTL_BIT(8)	/* software interrupt */
#define RTL_INT_PCS_TIMEOUT	RTL_BIT(14)	/* TIMER_INT expired */
#define RTL_INT_SYS_ERR		RTL_BIT(15)
/* What K enables (rtl_set_irq_mask). */
#define RTL_INT_MASK_K		(RTL_INT_ROK | RTL_INT_RER | RTL_INT_TOK | \
				 RTL_INT_TER | RTL_INT_LINK_CHG)
/* What the vendor enables in ISR v1 mode (V127 intr_mask). */
#define RTL_INT_MASK_VENDOR_V1	(RTL_INT_LINK_CHG | RTL_INT_RDU | \
				 RTL_INT_TOK | RTL_INT_ROK | RTL_INT_SW)

/* Legacy per-queue IMRn/ISRn (0x800 + 4(n-1) / 0x802 + 4(n-1)), V127
 * RxOK1/RxDU1, D rtl8125_clear_rdu. */
#define RTL_INTQ_ROK		RTL_BIT(0)
#define RTL_INTQ_RDU		RTL_BIT(1)

/*
 * V2 per-message-id registers (0xD00..0xD18): bit id = MSI-X message id
 * = MSI-X table entry (s4.3).  Which id means what depends on the ISR
 * layout version: struct rtl_irq_map in rtl_chips.h.  Ids 32..63 live in
 * the layer-2 registers as bit (id - 32).
 */
#define RTL_MSIX_ID_L2_BASE	32u
/*
 * [gap] V2 mode defines no RDU, RX-error or TX-error ids.  [I] The model
 * raises a queue's RX id for RX errors and descriptor exhaustion as well
 * as for completions (the driver's poll finds the ring state either way),
 * and latches RDU/TDU per queue in RDU_STA_8125/TDU_STA_8125.
 */

/* INT_CFG0_8125 (0x34), s4.1 (V127 r8127.h, V125, K, D). */
#define RTL_INT_CFG0_ENABLE		RTL_BIT(0)	/* V2 message-id map */
#define RTL_INT_CFG0_TIMEOUT0_BYPASS	RTL_BIT(1)
#define RTL_INT_CFG0_MITIGATION_BYPASS	RTL_BIT(2)
#define RTL_INT_CFG0_CLKREQEN		RTL_BIT(3)	/* K, VER_70/80 */
#define RTL_INT_CFG0_RDU_BYPASS_8126	RTL_BIT(4)
#define RTL_INT_CFG0_MSIX_ENTRY_NUM_MODE RTL_BIT(5)	/* ISR v4/v5 */
#define RTL_INT_CFG0_AUTO_CLEAR_IMR	RTL_BIT(5)	/* ISR v6/v7 */
#define RTL_INT_CFG0_AVOID_MISS_INTR	RTL_BIT(6)	/* ISR v6/v7 */
/*
 * [I] Bypass bits: every driver clears them and none says what they do
 * when set.  The model reads MITIGATION_BYPASS as "ignore the INT_MITI_V2
 * timers" and TIMEOUT0_BYPASS as "ignore TIMER_INT0" -- the names' plain
 * meaning -- and ignores the other bits.
 */

/* TxConfig (0x40): the XID is (TxConfig >> 20) & 0xfcf (K rtl_init_one). */
#define RTL_TXCFG_XID_SHIFT	20
#define RTL_TXCFG_XID_MASK	0xFCFu
#define RTL_TXCFG_XID_BITS	(RTL_TXCFG_XID_MASK << RTL_TXCFG_XID_SHIFT)
#define RTL_TXCFG_XID(txcfg)	(((txcfg) >> RTL_TXCFG_XID_SHIFT) & RTL_TXCFG_XID_MASK)
/* The vendor drivers split it into a MAC id and an IC version (V125,
 * V126, V127 *_get_mac_version). */
#define RTL_TXCFG_VENDOR_MAC_MASK 0x7C800000u
#define RTL_TXCFG_VENDOR_IC_MASK  0x00700000u
#define RTL_TXCFG_DMA_SHIFT	8	/* TX DMA burst, 3 bits (D TxDMAShift) */
#define RTL_TXCFG_LOOPBACK	RTL_BIT(17)	/* D TxMACLoopBack */
#define RTL_TXCFG_IFG_SHIFT	24	/* inter-frame gap (D) */

/* RxConfig (0x44): K rtl_init_rxcfg, D, V127 rtl_chip_info RCR values. */
#define RTL_RXCFG_AAP		RTL_BIT(0)	/* accept all (promisc) */
#define RTL_RXCFG_APM		RTL_BIT(1)	/* accept my unicast */
#define RTL_RXCFG_AM		RTL_BIT(2)	/* accept multicast */
#define RTL_RXCFG_AB		RTL_BIT(3)	/* accept broadcast */
#define RTL_RXCFG_AR		RTL_BIT(4)	/* accept runt */
#define RTL_RXCFG_AER		RTL_BIT(5)	/* accept error */
#define RTL_RXCFG_ACCEPT_MASK	0x3Fu
#define RTL_RXCFG_DMA_SHIFT	8		/* RX DMA burst, bits 10:8 */
#define RTL_RXCFG_DMA_MASK	(7u << RTL_RXCFG_DMA_SHIFT)
#define RTL_RXCFG_PAUSE_SLOT	RTL_BIT(11)
#define RTL_RXCFG_CLOSE_MULTIPLE RTL_BIT(21)	/* vendor Rx_Close_Multiple */
#define RTL_RXCFG_VLAN_INNER	RTL_BIT(22)	/* K RX_VLAN_INNER_8125 */
#define RTL_RXCFG_VLAN_OUTER	RTL_BIT(23)	/* K RX_VLAN_OUTER_8125 */
#define RTL_RXCFG_DESC_V3	RTL_BIT(24)	/* EnableRxDescV3 (s8) */
#define RTL_RXCFG_FETCH_SHIFT	27		/* K RX_FETCH_DFLT_8125 = 8 << 27 */
/* CFG_D8 (0xD8) bit 1: with RTL_RXCFG_DESC_V3 clear, RX desc type 4. */
#define RTL_CFG_D8_DESC_V4	RTL_BIT(1)	/* EnableRxDescV4_0 */

/* CPlusCmd (0xE0), K and D. */
#define RTL_CPCMD_RX_CSUM	RTL_BIT(5)
#define RTL_CPCMD_RX_VLAN	RTL_BIT(6)
#define RTL_CPCMD_PKT_CNTR_DIS	RTL_BIT(7)

/* IntrMitigate (0xE2) on the 8125 family: both FIFOs empty (s5.2). */
#define RTL_RXTX_EMPTY		0x0103u

/* MCU (0xD3), K r8169_main.c bit names. */
#define RTL_MCU_NOW_IS_OOB	RTL_BIT(7)
#define RTL_MCU_TX_EMPTY	RTL_BIT(5)
#define RTL_MCU_RX_EMPTY	RTL_BIT(4)
#define RTL_MCU_EN_NDP		RTL_BIT(3)
#define RTL_MCU_EN_OOB_RESET	RTL_BIT(2)
#define RTL_MCU_LINK_LIST_RDY	RTL_BIT(1)

/* PHYstatus (0x6C), D bit values, in bits 23:0; byte 3 is PMCH. */
#define RTL_PHYSTATUS_MASK	0x00FFFFFFu
#define RTL_PHY_FULL_DUP	RTL_BIT(0)
#define RTL_PHY_LINK		RTL_BIT(1)
#define RTL_PHY_10M		RTL_BIT(2)
#define RTL_PHY_100M		RTL_BIT(3)
#define RTL_PHY_1000MF		RTL_BIT(4)
#define RTL_PHY_RX_FLOW		RTL_BIT(5)
#define RTL_PHY_TX_FLOW		RTL_BIT(6)
#define RTL_PHY_2500MF		RTL_BIT(10)
#define RTL_PHY_5000MF		RTL_BIT(12)
#define RTL_PHY_10000MF		RTL_BIT(14)

/* CounterAddrLow (0x10) command bits (K, D). */
#define RTL_COUNTER_RESET	RTL_BIT(0)
#define RTL_COUNTER_DUMP	RTL_BIT(3)

/* TxPoll_8125 (0x90): bit q rings TX queue q (K BIT(0); vendor BIT(ring)). */
#define RTL_TXPOLL_Q(q)		RTL_BIT(q)

/* MAC/PHY OCP windows (0xB0/0xB8), K r8168_mac_ocp_write/_read. */
#define RTL_OCP_FLAG		RTL_BIT(31)	/* write; read busy/done */
/* The internal PHY's standard (IEEE 802.3 clause 22) registers, page 0,
 * in the PHY OCP window: register r at OCP address base + 2 * r (K
 * OCP_STD_PHY_BASE, r8168g_mdio_read). */
#define RTL_PHY_OCP_STD_BASE	0xa400u
#define RTL_OCP_ADDR_SHIFT	15		/* even addr << 15 = addr/2 << 16 */
#define RTL_OCP_DATA_MASK	0xFFFFu
/* IEEE 802.3 clause 22.2.4.1: the Basic Mode Control Register (register 0)
 * bits a driver uses to power the PHY up and restart autonegotiation. */
#define RTL_MII_BMCR		0u
#define RTL_BMCR_ANRESTART	RTL_BIT(9)
#define RTL_BMCR_PDOWN		RTL_BIT(11)
#define RTL_BMCR_ANENABLE	RTL_BIT(12)
/* MAC OCP addresses the multi-queue driver uses. */
#define RTL_OCP_TX_Q_NUM	0xE63Eu		/* bits 11:10 = ilog2(TX queues) (V127) */
#define RTL_OCP_TX_Q_NUM_SHIFT	10
#define RTL_OCP_TX_Q_NUM_MASK	(3u << RTL_OCP_TX_Q_NUM_SHIFT)
#define RTL_OCP_TX_DESC_FMT	0xEB58u		/* bit 0 = 32-byte TX desc (s8.4) */
#define RTL_OCP_TX_DESC_32B	RTL_BIT(0)

/* EPHYAR (0x80), rtl_regs.def: K EPHYAR_*, V125/V126/D EPHYAR_Reg_Mask_v2,
 * OpenBSD rge RGE_EPHYAR_*. */
#define RTL_EPHYAR_FLAG		RTL_BIT(31)	/* write command / done */
#define RTL_EPHYAR_REG_SHIFT	16
#define RTL_EPHYAR_REG_MASK	0x7Fu
#define RTL_EPHYAR_DATA_MASK	0xFFFFu
/* The RTL8127's extended EPHY address register: D EPHYAR_EXT_ADDR 0x0ffe,
 * written through the 7-bit field, so register 0x7e. */
#define RTL_EPHY_EXT_PAGE	(0x0FFEu & RTL_EPHYAR_REG_MASK)

/* CSIAR (0x68) / CSIDR (0x64), rtl_regs.def: K CSIAR_*, OpenBSD rge. */
#define RTL_CSIAR_FLAG		RTL_BIT(31)	/* write command / done */
#define RTL_CSIAR_ADDR_MASK	0x0FFFu
#define RTL_CSIAR_BYTE_EN_SHIFT	12
#define RTL_CSIAR_BYTE_EN	0xFu
#define RTL_CSIAR_FUNC_SHIFT	16		/* K CSIAR_FUNC_NIC = 2 << 16 */
#define RTL_CSIAR_FUNC_MASK	0x3u

/* RSS_CTRL_8125 (0x4500), s2.2 (V127 r8127_rss.c, D r8169_ethdev.h).
 * The hash-type bits sit where src/rss/rss_hash.h's RSS_HT_* do (the
 * test checks they agree; hw includes nothing from rss). */
#define RTL_RSS_CTRL_TCP_IPV4		RTL_BIT(0)
#define RTL_RSS_CTRL_IPV4		RTL_BIT(1)
#define RTL_RSS_CTRL_TCP_IPV6		RTL_BIT(2)
#define RTL_RSS_CTRL_IPV6		RTL_BIT(3)
#define RTL_RSS_CTRL_IPV6_EXT		RTL_BIT(4)
#define RTL_RSS_CTRL_TCP_IPV6_EXT	RTL_BIT(5)
#define RTL_RSS_CTRL_HALF		RTL_BIT(7)	/* defined, never set */
#define RTL_RSS_CTRL_UDP_IPV4		RTL_BIT(11)
#define RTL_RSS_CTRL_UDP_IPV6		RTL_BIT(12)
#define RTL_RSS_CTRL_UDP_IPV6_EXT	RTL_BIT(13)
#define RTL_RSS_CTRL_HQ_Q_SUP_R		RTL_BIT(31)	/* defined, never set */
#define RTL_RSS_CTRL_HASH_MASK		0x383Fu
#define RTL_RSS_CTRL_INDIR_SHIFT	8	/* ilog2(indir entries), 10:8 */
#define RTL_RSS_CTRL_INDIR_MASK		(7u << RTL_RSS_CTRL_INDIR_SHIFT)
#define RTL_RSS_CTRL_QNUM_SHIFT		16	/* ilog2(RX queues), 18:16 */
#define RTL_RSS_CTRL_QNUM_MASK		(7u << RTL_RSS_CTRL_QNUM_SHIFT)
/* What the vendor writes: 128 entries, the six TCP/IP types, plus UDP
 * bits on request.  4 queues -> 0x0002073F. */
#define RTL_RSS_CTRL_DEFAULT(log2q)	(((unsigned)(log2q) << RTL_RSS_CTRL_QNUM_SHIFT) | \
					 (7u << RTL_RSS_CTRL_INDIR_SHIFT) | 0x3Fu)
/*
 * Enable: there is no enable bit; writing 0 disables RSS (V127
 * rtl8127_disable_rss, K).  [I] The model treats RSS as on when any
 * hash-type bit is set; a frame no enabled type matches goes to queue 0
 * with no hash (s2.3).  [I] The queue-count field does not clip the
 * table: queue = indir[hash & (2^INDIR - 1)], and an entry >= the number
 * of enabled RX rings is a driver error the model reports and maps to
 * queue 0.  [I] Hash bits index the table from bit 0 (Microsoft RSS).
 */

/* RSS_CFG_WHATIF (0x8A00, what-if row only): the table size and ring
 * count fields RSS_CTRL (3 bits: 128 entries) and Q_NUM_CTRL (3 bits:
 * 128 rings) cannot hold; on that row they replace those fields. */
#define RTL_RSS_CFG_WHATIF_INDIR_MASK	0xFu
#define RTL_RSS_CFG_WHATIF_QNUM_SHIFT	8
#define RTL_RSS_CFG_WHATIF_QNUM_MASK	(0xFu << RTL_RSS_CFG_WHATIF_QNUM_SHIFT)

/* Q_NUM_CTRL_8125 (0x4800): bits 4:2 = ilog2(RX queues) (V127, D). */
#define RTL_Q_NUM_SHIFT		2
#define RTL_Q_NUM_MASK		(7u << RTL_Q_NUM_SHIFT)

/*
 * Timers (s4.4, s5.1).
 *
 * [I] Tick = 8 ns: ML-T measured the TIMER_INT/TCTR clock of an RTL8125
 * at 125 MHz.  One observation, not a specification; everything below
 * scales with it.
 */
#define RTL_TIMER_TICK_NS	8u
#define RTL_TIMER_COUNT_DEFAULT	0x2600u		/* vendor timer_count, ~78 us */

/*
 * INT_MITI_V2 per-queue timers: byte 0 (RX) and byte 2 (TX) of queue q's
 * 8-byte record at 0xA00 + 8q.  The vendor writes timer_count / div with
 * div = 0x100 (8125A/B, 8126) or 0x200 (8125BP/D/CP, 8127: "timer unit is
 * double") -- struct rtl_miti_block.tick_div.  So one unit is div
 * ticks: 2048 ns or 4096 ns [I, from the divisors and the 8 ns tick], and
 * the vendor default (0x26 or 0x13) is ~78 us on every chip.
 *
 * [I] Semantics the model implements: 0 = raise the vector at once; n > 0
 * = the first event on an idle vector starts an n-unit hold-off timer and
 * the vector is raised when it expires, covering every event in between.
 *
 * [I] Byte 1, the RX frame threshold: a hypothesis, no source documents
 * it (research s5.1 "likely frame-count thresholds" [gap]).  It is read
 * like the RX frames field of the pre-8125 IntrMitigate register that
 * mainline r8169 programs (research s5.3: units of 4 frames, at most 15
 * there): n > 0 ends a running RX hold-off early once 4n frames arrived
 * in it.  Without a running timer it has no effect (mainline's rule "a
 * frame limit needs a time limit").
 * [gap] Bytes 3, 4..7 of each record: stored, no effect.
 */
#define RTL_INT_MITI_STRIDE	8u
#define RTL_INT_MITI_RX_BYTE	0u
#define RTL_INT_MITI_RX_FRAMES_BYTE	1u	/* [I] units of 4 frames */
#define RTL_INT_MITI_TX_BYTE	2u
#define RTL_INT_MITI_MAX	0xFFu
#define RTL_INT_MITI_FRAMES_UNIT	4u
#define RTL_INT_MITI_UNIT_NS(div)	((div) * RTL_TIMER_TICK_NS)

#endif /* RXSCALE_HW_RTL_DEFINES_H */
