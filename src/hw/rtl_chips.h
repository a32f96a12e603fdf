/* SPDX-License-Identifier: MIT */
/*
 * rtl_chips.h - what differs between the chips, as data: one row per
 * XID (PCIe RTL8125/8126/8127) or per USB id (RTL8157/8159), holding only
 * what differs between chips and pointing to shared rows: the family's
 * capabilities (struct rtl_family_caps, struct rtl_usb_family_caps), the
 * interrupt message-id map of each ISR/IMR layout version, the moderation
 * block of each IntMiti version, the RX descriptor row.  No logic
 * beyond table lookups; behaviour that truly differs belongs in a
 * per-family ops struct chosen once at probe (DESIGN.md s2).
 *
 * Facts: ../shared/research/rtl8127-hw.md s1 (chip table) and s4.3
 * (message-id maps); ../shared/research/usb-and-coalescing.md s1.6.
 */
#ifndef RXSCALE_HW_RTL_CHIPS_H
#define RXSCALE_HW_RTL_CHIPS_H

#include "hw/rtl_types.h"

struct rtl_rx_desc_fmt;		/* rtl_desc.h */
struct rtl_tx_desc_fmt;

#define RTL_PCI_VENDOR_REALTEK	0x10ECu
#define RTL_USB_VENDOR_REALTEK	0x0BDAu

#define RTL_HW_RX_QUEUES	4	/* HwSuppNumRxQueues on every real chip */
#define RTL_MAX_TX_QUEUES	2
#define RTL_MSIX_MAX_VECTORS	64	/* ids 0..63 incl. layer 2 */

/*
 * The what-if row (rtl_whatif_chips[], not a real chip): 256 RX queues,
 * one message id each, and the ids 64 and up in what-if registers
 * (RTL_RF_WHATIF rows of rtl_regs.def).  These bound the arrays; every
 * real chip stays within RTL_HW_RX_QUEUES and RTL_MSIX_MAX_VECTORS.
 */
#define RTL_MAX_RX_QUEUES	256	/* array bound: the what-if row */
#define RTL_MSIX_WHATIF_WORDS	8	/* what-if ids 64..319, 32 per word */
#define RTL_MSIX_MAX_IDS	(RTL_MSIX_MAX_VECTORS + 32 * RTL_MSIX_WHATIF_WORDS)

/*
 * MAC versions: the kernel's RTL_GIGA_MAC_VER_* numbers (K r8169.h /
 * rtl_chip_infos[]), so rtl_is_8125()-style range checks read as in K.
 */
enum rtl_mac_version {
	RTL_MAC_VER_NONE = 0,
	RTL_MAC_VER_61 = 61,	/* RTL8125A */
	RTL_MAC_VER_63 = 63,	/* RTL8125B */
	RTL_MAC_VER_64 = 64,	/* RTL8125D (and 8125K/9151A in K) */
	RTL_MAC_VER_66 = 66,	/* RTL8125BP */
	RTL_MAC_VER_70 = 70,	/* RTL8126A */
	RTL_MAC_VER_80 = 80,	/* RTL8127A */
};

/*
 * The interrupt message-id map of one ISR/IMR layout version
 * (vendor HwSuppIsrVer 1..7).  In the V2 model (INT_CFG0 bit 0 set) the
 * id is both the MSI-X vector and the bit in ISR_V2/IMR_V2 (ids >= 32:
 * bit id-32 of the layer-2 registers).  Version 1 is the legacy model:
 * one vector, events are IntrStatus bits, and every field below is 0.
 */
struct rtl_irq_map {
	uint8_t isr_ver;
	bool legacy;		/* v1: single vector, IntrStatus bits */
	bool ring_vectors;	/* v3/v4: id q serves RX q and TX q */
	uint16_t rx[RTL_MAX_RX_QUEUES];	/* id of RX queue q */
	uint16_t tx[RTL_MAX_TX_QUEUES];	/* id of TX queue q */
	uint16_t link;		/* link change */
	int8_t l2_summary;	/* id whose bit summarizes layer 2, or -1 */
	int8_t misc;		/* firmware/IPC id (layer 2), or -1 */
	/* what-if maps only: 32-id words of ids 64 and up in the what-if
	 * registers (ISR_WHATIF...); 0 on every real chip */
	uint8_t whatif_words;
	const char *src;
};

/* Indexed by ISR version; [0] is unused (isr_ver 0).  [8] is the what-if
 * map (no vendor version 8 exists). */
#define RTL_IRQ_MAP_WHATIF	8
extern const struct rtl_irq_map rtl_irq_maps[9];

/* Chip quirks. */
#define RTL_QUIRK_OWNBIT_ERRATUM (1u << 0)	/* see rtl_chips.c */

/*
 * The interrupt-moderation block of one IntMiti version (vendor
 * HwSuppIntMitiVer; s5.1), shared by every chip with that version.
 */
struct rtl_miti_block {
	uint8_t ver;		/* 3..6 */
	uint8_t queues;		/* 8-byte records at 0xA00 */
	uint16_t tick_div;	/* timer ticks per INT_MITI unit */
};

/* Indexed by IntMiti version; [0..2] are unused. */
extern const struct rtl_miti_block rtl_miti_blocks[7];

/*
 * What every chip of a PCIe family shares: PCI id, line rate, queues,
 * MSI-X request, RSS sizes, TX descriptor format, ring sizes.
 */
struct rtl_family_caps {
	const char *family;	/* "RTL8125" */
	uint16_t pci_device;	/* 10ec:xxxx */
	uint32_t speed_mbps;	/* line rate */
	uint16_t rx_queues;	/* hardware RX rings */
	uint8_t tx_queues;	/* hardware TX rings */
	uint16_t msix_max;	/* vectors the vendor asks for */
	uint16_t msix_pba_off;	/* PBA offset in the MSI-X BAR */
	uint8_t rss_key_size;	/* bytes; 0 = no RSS */
	uint16_t rss_indir_size;	/* entries; 0 = no RSS */
	const struct rtl_tx_desc_fmt *tx_desc;	/* K's 16-byte format */
	uint16_t ring_default;	/* descriptors per ring */
	uint16_t ring_max;
};

/* One row per XID: what differs between chips of a family. */
struct rtl_chip_info {
	uint16_t xid_mask;	/* (TxConfig >> 20) & xid_mask == xid */
	uint16_t xid;
	enum rtl_mac_version mac_version;
	const char *name;
	const struct rtl_family_caps *caps;	/* shared by the family */
	uint16_t msix_min;	/* fewer -> fall back to ISR v1, 1 queue */
	/* ISR/IMR layout: &rtl_irq_maps[isr_ver], isr_ver 1..7 */
	const struct rtl_irq_map *irq_map;
	/* RX type with RSS on (3 or 4); rtl_rx_desc_fmt_basic otherwise */
	const struct rtl_rx_desc_fmt *rx_desc;
	const struct rtl_miti_block *miti;	/* &rtl_miti_blocks[ver] */
	uint32_t quirks;	/* RTL_QUIRK_* */
	/* The internal PHY's identifier (PHYSID1 << 16 | PHYSID2): what
	 * Linux's realtek PHY driver matches (rtl_chips.c) */
	uint32_t phy_id;
	/* NULL on a real chip; on a what-if row, why it exists (not a real
	 * chip: reports flag it, --compare and the UML bridge refuse it) */
	const char *whatif;
};

extern const struct rtl_chip_info rtl_chips[];
extern const unsigned rtl_chips_count;

/**
 * rtl_chip_lookup_xid() - the first real row matching a TxConfig value.
 * @txconfig: the raw 32-bit TxConfig register (0x40)
 * Returns NULL for an XID no row knows.
 */
const struct rtl_chip_info *rtl_chip_lookup_xid(uint32_t txconfig);

/**
 * rtl_chip_lookup() - the row of a PCI function, as the driver finds it
 * @pci_device: its PCI device id
 * @txconfig: the raw 32-bit TxConfig register (0x40)
 * Returns the real row of the XID (rtl_chip_lookup_xid()), else what
 * rtl_chip_lookup_extra finds, else NULL.
 */
const struct rtl_chip_info *rtl_chip_lookup(uint16_t pci_device, uint32_t txconfig);

/*
 * Rows beyond the datasheet's, searched after it by rtl_chip_lookup():
 * NULL (none) unless a simulator sets it before a probe, as the testbed
 * does with rtl_chip_lookup_whatif() (rtl_whatif.h).  Never set in a
 * kernel module, which has no such rows.
 */
extern const struct rtl_chip_info *(*rtl_chip_lookup_extra)(uint16_t pci_device,
							     uint32_t txconfig);

/* ---- USB: RTL8157 / RTL8159 (r8152 family). */

/* r8152's own version numbers (RTL_VER_16, RTL_VER_17). */
enum rtl_usb_version {
	RTL_VER_16 = 16,	/* RTL8157 */
	RTL_VER_17 = 17,	/* RTL8159 */
};

/* What the RTL8157 and RTL8159 share: RX descriptors, URBs, coalescing. */
struct rtl_usb_family_caps {
	uint8_t rx_desc_size;	/* struct rtl_usb_rx_desc_v2 */
	uint8_t rx_align;	/* each descriptor/frame start */
	uint8_t rx_urbs;	/* bulk-in URBs in flight */
	uint32_t coalesce_ns;	/* default USB_RX_EXTRA_AGGR_TMR, ns */
	uint32_t coalesce_max_ns;
	uint8_t coalesce_unit_ns;	/* register unit */
	uint32_t early_timeout_ns;	/* fixed USB_RX_EARLY_TIMEOUT */
	uint8_t early_size_div;	/* EARLY_SIZE = (buf - reserved) / div */
};

struct rtl_usb_chip_info {
	uint16_t vendor;
	uint16_t product;
	uint16_t hw_id;		/* version word: PLA_TCR1 & VERSION_MASK (rtl_usb_regs.h) */
	enum rtl_usb_version version;
	const char *name;
	uint32_t speed_mbps;
	uint32_t rx_buf_size;	/* bytes per bulk-in URB buffer */
	const struct rtl_usb_family_caps *caps;	/* shared by the family */
};

extern const struct rtl_usb_chip_info rtl_usb_chips[];
extern const unsigned rtl_usb_chips_count;

/** rtl_usb_chip_lookup() - the row for a USB vendor:product, or NULL. */
const struct rtl_usb_chip_info *rtl_usb_chip_lookup(uint16_t vendor,
						     uint16_t product);

#endif /* RXSCALE_HW_RTL_CHIPS_H */
