/* SPDX-License-Identifier: MIT */
/*
 * rtl_chips.c - the chip rows and interrupt message-id maps.
 *
 * Sources (../shared/research/rtl8127-hw.md s0): K = kernel r8169_main.c
 * rtl_chip_infos[]; V125/V126/V127 = Realtek r8125 9.016.01, r8126
 * 10.015.00, r8127 11.015.00 (*_n.c probe setup of HwSuppNumRxQueues,
 * HwSuppIsrVer, HwSuppRxDescType, HwSuppIntMitiVer, *_try_msi, and the
 * R81xx_MAX/MIN_MSIX_VEC_* constants in *.h); D = DPDK r8169.
 */
#include "hw/rtl_chips.h"

#include "hw/rtl_types.h"

#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"

/*
 * Message-id maps, s4.3 (V125 r8125.h and V127 r8127.h ISRIMR_* enums,
 * *_vec_2_rx_q_num / *_vec_2_tx_q_num, *_get_linkchg_message_id).
 */
/* What-if map: RX queue q is id q (0..255), TX 256/257, link 258. */
#define ID4(b)		(b), (b) + 1, (b) + 2, (b) + 3
#define ID16(b)		ID4(b), ID4((b) + 4), ID4((b) + 8), ID4((b) + 12)
#define ID64(b)		ID16(b), ID16((b) + 16), ID16((b) + 32), ID16((b) + 48)

const struct rtl_irq_map rtl_irq_maps[9] = {
	[1] = {
		.isr_ver = 1, .legacy = true,
		.l2_summary = -1, .misc = -1,
		.src = "legacy: one vector, IntrStatus_8125 bits (K, V127)",
	},
	[2] = {	/* 8125B, 8126A XID 0x648: ids 0..15 reserved for RX */
		.isr_ver = 2,
		.rx = { 0, 1, 2, 3 }, .tx = { 16, 18 }, .link = 21,
		.l2_summary = -1, .misc = -1,
		.src = "V125 ISRIMR_V2_*; D ISRIMR_TOK_Q0/Q1, ISRIMR_V2_LINKCHG",
	},
	[3] = {	/* 8126A 0x649/0x64a: combined RX+TX "ring" vectors */
		.isr_ver = 3, .ring_vectors = true,
		.rx = { 0, 1, 2, 3 }, .tx = { 0, 1 }, .link = 21,
		.l2_summary = -1, .misc = -1,
		.src = "V126 ISRIMR_V3_*, rtl8126_poll_msix_ring",
	},
	[4] = {	/* 8125BP: as v3, link moved, layer-2 summary in bit 31 */
		.isr_ver = 4, .ring_vectors = true,
		.rx = { 0, 1, 2, 3 }, .tx = { 0, 1 }, .link = 29,
		.l2_summary = 31, .misc = 32 + 17,	/* L2 IPC2, L2 bit 17 */
		.src = "V125 ISRIMR_V4_*",
	},
	[5] = {	/* 8125D: ids 0..15 reserved for RX */
		.isr_ver = 5,
		.rx = { 0, 1, 2, 3 }, .tx = { 16, 17 }, .link = 18,
		.l2_summary = -1, .misc = -1,
		.src = "V125 ISRIMR_V5_*",
	},
	[6] = {	/* 8127A: ids 0..7 reserved for RX (R8127_MAX_RX_QUEUES_VEC_V4) */
		.isr_ver = 6,
		.rx = { 0, 1, 2, 3 }, .tx = { 8, 9 }, .link = 29,
		.l2_summary = 31, .misc = 48,	/* MSIX_ID_V6_L2_MISC_INTR */
		.src = "V127 ISRIMR_V6_*, rtl8127_setup_interrupt_mask",
	},
	[7] = {	/* 8125CP (no row below: no K MAC version in the research) */
		.isr_ver = 7,
		.rx = { 0, 1, 2, 3 }, .tx = { 27, 28 }, .link = 29,
		.l2_summary = -1, .misc = -1,
		.src = "V125 ISRIMR_V7_*",
	},
	[RTL_IRQ_MAP_WHATIF] = {	/* what-if, not a vendor version */
		.isr_ver = RTL_IRQ_MAP_WHATIF,
		.rx = { ID64(0), ID64(64), ID64(128), ID64(192) },
		.tx = { 256, 257 }, .link = 258,
		.l2_summary = -1, .misc = -1,
		.whatif_words = RTL_MSIX_WHATIF_WORDS,
		.src = "what-if: id = RX queue; ids 64+ in the ISR_WHATIF block",
	},
};

/*
 * Moderation blocks, s5.1: the records the drivers clear, 0xA00-0xAFF (32)
 * for IntMiti v3 and v6, 0xA00-0xA7F (16) for v4 and v5.  The timer
 * divisor is 0x100, or 0x200 where the vendor says "timer unit is double"
 * (8125BP/D/CP, 8127).  [I] The vendor keys the divisor by chip, not by
 * IntMiti version; every chip with a row and v6 has 0x200 and no other
 * does, so the block of the version carries it.
 */
const struct rtl_miti_block rtl_miti_blocks[7] = {
	[3] = { .ver = 3, .queues = 32, .tick_div = 0x100 },	/* 8125A */
	[4] = { .ver = 4, .queues = 16, .tick_div = 0x100 },	/* 8125B */
	[5] = { .ver = 5, .queues = 16, .tick_div = 0x100 },	/* 8126A */
	[6] = { .ver = 6, .queues = 32, .tick_div = 0x200 },	/* 8125BP/D, 8127A */
};

/*
 * Family capabilities, shared by the chip rows below:
 *
 * - pci_device: K's PCI table lists 10ec:8125, 8126 and 8127.  [I] Every
 *   8125 variant uses 0x8125.
 * - 4 RX / 2 TX queues, MSI-X max 32, 40-byte key and 128-entry table on
 *   every chip but the RTL8125A (one queue, no RSS: HwSuppRssVer not set
 *   for 8125A; MSI-X max 4), which has its own row.
 * - tx_desc: K's 16-byte format (MAC OCP 0xEB58 bit 0 clear).
 * - ring_default 256 is K's NUM_RX_DESC/NUM_TX_DESC; ring_max 1024 is
 *   the vendor's maximum (V127 r8127.h).
 * - No DMA latency default: no source gives one.
 */
#define RTL_FAMILY_RINGS						\
	.tx_desc = &rtl_tx_desc_fmts[RTL_TX_DESC_FMT_16],		\
	.ring_default = 256, .ring_max = 1024,				\
	.msix_pba_off = RTL_MSIX_PBA_OFF

static const struct rtl_family_caps rtl_family_8125 = {	/* B, BP, D */
	.family = "RTL8125", .pci_device = 0x8125, .speed_mbps = 2500,
	.rx_queues = 4, .tx_queues = 2, .msix_max = 32,
	.rss_key_size = 40, .rss_indir_size = 128,
	RTL_FAMILY_RINGS,
};

static const struct rtl_family_caps rtl_family_8125a = {
	.family = "RTL8125", .pci_device = 0x8125, .speed_mbps = 2500,
	.rx_queues = 1, .tx_queues = 1, .msix_max = 4,
	.rss_key_size = 0, .rss_indir_size = 0,
	RTL_FAMILY_RINGS,
};

static const struct rtl_family_caps rtl_family_8126 = {
	.family = "RTL8126", .pci_device = 0x8126, .speed_mbps = 5000,
	.rx_queues = 4, .tx_queues = 2, .msix_max = 32,
	.rss_key_size = 40, .rss_indir_size = 128,
	RTL_FAMILY_RINGS,
};

static const struct rtl_family_caps rtl_family_8127 = {
	.family = "RTL8127", .pci_device = 0x8127, .speed_mbps = 10000,
	.rx_queues = 4, .tx_queues = 2, .msix_max = 32,
	.rss_key_size = 40, .rss_indir_size = 128,
	RTL_FAMILY_RINGS,
};

#define RX_DESC(t)	(&rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V##t])

/*
 * phy_id: the internal PHY's identifier.  Linux 7.3's realtek PHY driver
 * (drivers/net/phy/realtek/realtek_main.c) binds "Realtek Internal
 * NBASE-T PHY" to a clause-22 PHY whose ID is one of 0x001cc800 (the
 * generic Realtek ID the RTL8125A's PHY reports, RTL_GENERIC_PHYID),
 * 0x001cc840 (RTL_8221B: the RTL8125B's), 0x001cc841 (upstream commit
 * 8989bad54113 "add RTL8125D-internal PHY"), 0x001cc862 (RTL_8251B: the
 * RTL8126A's 5G PHY) or 0x001cc890 (RTL_8261C: the RTL8127A's 10G PHY),
 * that reports 2.5G ability in page 0xa61 register 0x13 and reads 0
 * through clause-22 MMD access (rtl_internal_nbaset_match_phy_device;
 * the same list is compiled into Debian's 7.3.4 realtek.ko).  [I] The
 * RTL8125BP's internal PHY ID is in no source: 0x001cc840 as the 8125B.
 */
#define PHY_ID_8125A	0x001cc800u
#define PHY_ID_8125B	0x001cc840u
#define PHY_ID_8125D	0x001cc841u
#define PHY_ID_8126A	0x001cc862u
#define PHY_ID_8127A	0x001cc890u

/*
 * Chip rows.  XID mask 0x7cf and values exactly as K's rtl_chip_infos[]
 * (one row per K row).  [I] Vendor-only XIDs (0x608, 0x640, 0x680, 0x648,
 * 0x6c8 early parts; 0x708 RTL8125CP; 0x68a/0x68b RTL8125K/RTL9151A, whose
 * queue and ISR parameters no source gives) have no row, so
 * rtl_chip_lookup_xid() refuses them rather than model them wrongly.
 * rx_desc is the type the vendor uses with RSS on; with RSS off every chip
 * uses type 1 (V127 12437-12455).
 */
const struct rtl_chip_info rtl_chips[] = {
	{
		/* V127 r8127.h MSI-X 32/30; 64/49 with DASH ("8127AP"),
		 * not modelled.  Quirk: see RTL_QUIRK_OWNBIT_ERRATUM below. */
		.xid_mask = 0x7cf, .xid = 0x6c9,
		.mac_version = RTL_MAC_VER_80, .name = "RTL8127A",
		.caps = &rtl_family_8127, .msix_min = 30,
		.irq_map = &rtl_irq_maps[6], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[6],
		.quirks = RTL_QUIRK_OWNBIT_ERRATUM,
		.phy_id = PHY_ID_8127A,
	},
	{
		/* V126 r8126_n.c 12021-12122, r8126.h 722-728 */
		.xid_mask = 0x7cf, .xid = 0x64a,
		.mac_version = RTL_MAC_VER_70, .name = "RTL8126A",
		.caps = &rtl_family_8126, .msix_min = 22,
		.irq_map = &rtl_irq_maps[3], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[5],
		.phy_id = PHY_ID_8126A,
	},
	{
		.xid_mask = 0x7cf, .xid = 0x649,
		.mac_version = RTL_MAC_VER_70, .name = "RTL8126A",
		.caps = &rtl_family_8126, .msix_min = 22,
		.irq_map = &rtl_irq_maps[3], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[5],
		.phy_id = PHY_ID_8126A,
	},
	{
		/* V125 CFG_9; MSI-X 32/32 per V125 (the V127 header says
		 * min 31; V125 is the 8125BP's own driver). */
		.xid_mask = 0x7cf, .xid = 0x681,
		.mac_version = RTL_MAC_VER_66, .name = "RTL8125BP",
		.caps = &rtl_family_8125, .msix_min = 32,
		.irq_map = &rtl_irq_maps[4], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[6],
		.phy_id = PHY_ID_8125B,
	},
	{
		/* V125 CFG_11 */
		.xid_mask = 0x7cf, .xid = 0x689,
		.mac_version = RTL_MAC_VER_64, .name = "RTL8125D",
		.caps = &rtl_family_8125, .msix_min = 20,
		.irq_map = &rtl_irq_maps[5], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[6],
		.phy_id = PHY_ID_8125D,
	},
	{
		/* V125 CFG_10 */
		.xid_mask = 0x7cf, .xid = 0x688,
		.mac_version = RTL_MAC_VER_64, .name = "RTL8125D",
		.caps = &rtl_family_8125, .msix_min = 20,
		.irq_map = &rtl_irq_maps[5], .rx_desc = RX_DESC(4),
		.miti = &rtl_miti_blocks[6],
		.phy_id = PHY_ID_8125D,
	},
	{
		/* V125 CFG_5 */
		.xid_mask = 0x7cf, .xid = 0x641,
		.mac_version = RTL_MAC_VER_63, .name = "RTL8125B",
		.caps = &rtl_family_8125, .msix_min = 22,
		.irq_map = &rtl_irq_maps[2], .rx_desc = RX_DESC(3),
		.miti = &rtl_miti_blocks[4],
		.phy_id = PHY_ID_8125B,
	},
	{
		/* V125 CFG_3.  One queue, no RSS (rtl_family_8125a).
		 * [I] msix_min 1: the vendor gives no minimum because the
		 * chip only runs ISR v1 (one vector). */
		.xid_mask = 0x7cf, .xid = 0x609,
		.mac_version = RTL_MAC_VER_61, .name = "RTL8125A",
		.caps = &rtl_family_8125a, .msix_min = 1,
		.irq_map = &rtl_irq_maps[1], .rx_desc = RX_DESC(3),
		.miti = &rtl_miti_blocks[3],
		.phy_id = PHY_ID_8125A,
	},
};

const unsigned rtl_chips_count = sizeof(rtl_chips) / sizeof(rtl_chips[0]);

/*
 * RTL_QUIRK_OWNBIT_ERRATUM (s6): the interrupt may arrive before the
 * descriptor write-back that clears OWN is visible in host memory; the
 * driver re-checks OWN after a flushing MMIO read.  [I] Set on RTL8127A
 * only: the kernel RFC scopes the workaround to the 8127 (per the brief),
 * while the vendor re-check (since r8125 9.014.01) sits in code shared by
 * every chip and so says nothing about which silicon needs it.  The
 * model's fault injection can still enable the late write-back on any
 * chip.
 */

const struct rtl_chip_info *rtl_chip_lookup_xid(uint32_t txconfig)
{
	uint32_t xid = RTL_TXCFG_XID(txconfig);

	for (unsigned i = 0; i < rtl_chips_count; i++)
		if ((xid & rtl_chips[i].xid_mask) == rtl_chips[i].xid)
			return &rtl_chips[i];
	return NULL;
}

const struct rtl_chip_info *(*rtl_chip_lookup_extra)(uint16_t pci_device,
						      uint32_t txconfig);

const struct rtl_chip_info *rtl_chip_lookup(uint16_t pci_device, uint32_t txconfig)
{
	const struct rtl_chip_info *c = rtl_chip_lookup_xid(txconfig);

	if (!c && rtl_chip_lookup_extra)
		c = rtl_chip_lookup_extra(pci_device, txconfig);
	return c;
}

/*
 * USB rows: usb-and-coalescing.md s1.1-s1.6 (mainline r8152 with the
 * RTL8157 series, Realtek r8152 2.22.1, the RTL8159 series).
 * [I] RTL8159 at 10000 Mbit/s: it needs the rtl8159-1.fw PHY firmware
 * for 10G (5G without); the model assumes the firmware is loaded.
 */
static const struct rtl_usb_family_caps rtl_usb_family_815x = {
	.rx_desc_size = 16, .rx_align = 16, .rx_urbs = 10,
	.coalesce_ns = 15000, .coalesce_max_ns = 524280,
	.coalesce_unit_ns = 8, .early_timeout_ns = 640,
	.early_size_div = 16,
};

const struct rtl_usb_chip_info rtl_usb_chips[] = {
	{
		.vendor = RTL_USB_VENDOR_REALTEK, .product = 0x8157,
		.hw_id = 0x1030, .version = RTL_VER_16, .name = "RTL8157",
		.speed_mbps = 5000, .rx_buf_size = 32768,
		.caps = &rtl_usb_family_815x,
	},
	{
		.vendor = RTL_USB_VENDOR_REALTEK, .product = 0x815a,
		.hw_id = 0x2020, .version = RTL_VER_17, .name = "RTL8159",
		.speed_mbps = 10000, .rx_buf_size = 49152,
		.caps = &rtl_usb_family_815x,
	},
};

const unsigned rtl_usb_chips_count =
	sizeof(rtl_usb_chips) / sizeof(rtl_usb_chips[0]);

const struct rtl_usb_chip_info *rtl_usb_chip_lookup(uint16_t vendor,
						     uint16_t product)
{
	for (unsigned i = 0; i < rtl_usb_chips_count; i++)
		if (rtl_usb_chips[i].vendor == vendor &&
		    rtl_usb_chips[i].product == product)
			return &rtl_usb_chips[i];
	return NULL;
}
