/* SPDX-License-Identifier: MIT */
/*
 * rtl_whatif.c - the what-if chip rows: chips that do not exist, for the
 * simulator's questions the real ones cannot answer.  Not part of a
 * kernel-module build (src/drv/r8169/Kbuild does not list it).
 */
#include "hw/rtl_whatif.h"

#include "hw/rtl_types.h"

#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"

/*
 * The what-if row.  NOT A REAL CHIP: an RTL8127A with 256 RX queues and
 * a message id per queue, so a simulated host of up to 256 CPUs can take
 * its receive work on every CPU (issue 17: does the simulator's cost per
 * frame grow with the CPUs that work?).  Everything a real 8127A has
 * (descriptors, key, moderation block, line rate) is the 8127A's; what
 * the real register map has no room for lives in what-if registers above
 * 0x8000 (RTL_RF_WHATIF rows of rtl_regs.def): RX ring bases 4..255,
 * indirection entries 128..255, the table size and ring count fields
 * (RSS_CFG_WHATIF), status and masks of message ids 64..319.  Queues 32
 * and up have no moderation record (the block has 32) and are never
 * held off.  The MSI-X table (259 entries) would overrun the 8127A's PBA
 * offset, so the PBA sits at 0x2000.  PCI device 10ec:8127 with XID
 * 0x7c9, which [I] no Realtek part in the research uses: the driver
 * binds as to an RTL8127A and finds the row by its XID, but only through
 * rtl_chip_lookup_whatif(), which the simulator hands to the driver's
 * lookup (rtl_chip_lookup_extra, rtl_chips.h): rtl_chip_lookup_xid()
 * never returns it, and a kernel-module build has no what-if rows (this
 * file is not in it: a real device with that XID is an unknown chip
 * there, as before).
 */
static const struct rtl_family_caps rtl_family_whatif = {
	.family = "what-if", .pci_device = 0x8127, .speed_mbps = 10000,
	.rx_queues = 256, .tx_queues = 2, .msix_max = 259,
	.rss_key_size = 40, .rss_indir_size = 256,
	.tx_desc = &rtl_tx_desc_fmts[RTL_TX_DESC_FMT_16],
	.ring_default = 256, .ring_max = 1024,
	.msix_pba_off = 0x2000,
};

const struct rtl_chip_info rtl_whatif_chips[] = {
	{
		.xid_mask = 0x7cf, .xid = 0x7c9,
		.mac_version = RTL_MAC_VER_80, .name = "WHATIF-256Q",
		.caps = &rtl_family_whatif, .msix_min = 259,
		.irq_map = &rtl_irq_maps[RTL_IRQ_MAP_WHATIF],
		.rx_desc = &rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V4], .miti = &rtl_miti_blocks[6],
		.whatif = "what-if chip, not real hardware: an RTL8127A with "
			  "256 RX queues and vectors",
		.phy_id = 0x001cc890u,	/* the RTL8127A's (rtl_chips.c) */
	},
};

const unsigned rtl_whatif_chips_count =
	sizeof(rtl_whatif_chips) / sizeof(rtl_whatif_chips[0]);

const struct rtl_chip_info *rtl_chip_lookup_whatif(uint16_t pci_device,
						   uint32_t txconfig)
{
	uint32_t xid = RTL_TXCFG_XID(txconfig);

	for (unsigned i = 0; i < rtl_whatif_chips_count; i++)
		if (rtl_whatif_chips[i].caps->pci_device == pci_device &&
		    (xid & rtl_whatif_chips[i].xid_mask) == rtl_whatif_chips[i].xid)
			return &rtl_whatif_chips[i];
	return NULL;
}
