/* SPDX-License-Identifier: MIT */
/*
 * rtl_usb_regs.h - the RTL8157/RTL8159 (r8152 family) USB adapter's
 * "datasheet": vendor control requests, OCP register spaces and byte
 * enables, the registers the r8152 path uses, the bulk-in aggregation
 * timers, the TX descriptor v2 and the interrupt-endpoint status.  Data
 * only; shared by the device model (src/model/rtlu_*) and the driver.
 *
 * Sources: "RS s1.2" = ../shared/research/usb-and-coalescing.md section
 * 1.2 (and so on), whose [Sx] ids name the code read; "r8152" = the
 * register/bit names and values of Linux drivers/net/usb/r8152.c (mainline
 * and Realtek's r8152 2.x), read in public copies.  [I] marks an
 * inference or a modelling choice where no source decides; each is also
 * listed in docs/model.md (USB section).  The RX descriptor v2 layout is
 * in rtl_desc.h (struct rtl_usb_rx_desc_v2); chip rows in rtl_chips.c.
 */
#ifndef RXSCALE_HW_RTL_USB_REGS_H
#define RXSCALE_HW_RTL_USB_REGS_H

#include "hw/rtl_types.h"

/* ---- Endpoints (RS s1.1, r8152 rtl_check_vendor_ok): bulk-in 1 (RX),
 * bulk-out 2 (TX), interrupt-in 3 (link status). */
#define RTLU_EP_BULK_IN		1u
#define RTLU_EP_BULK_OUT	2u
#define RTLU_EP_INTR_IN		3u
/* [I] bInterval of the interrupt endpoint: not found (RS s1.5, gap 4). */
#define RTLU_INTR_INTERVAL	8u
#define RTLU_INTR_BUFSIZE	2u		/* INTBUFSIZE (RS s1.5) */
#define RTLU_RX_URBS_DEFAULT	10u		/* RTL8152_MAX_RX (RS s1.1) */

/* ---- Vendor control requests (r8152 RTL8152_REQ_* / RTL8152_REQT_*):
 * wValue = register address, wIndex = MCU type, plus byte enables on
 * writes.  r8152 reads in whole dwords at 4-aligned addresses (up to 64
 * bytes per request) and writes with byte enables for a partial first or
 * last dword. */
#define RTLU_REQ_GET_REGS	0x05u
#define RTLU_REQ_SET_REGS	0x05u
#define RTLU_REQT_READ		0xC0u		/* vendor, device-to-host */
#define RTLU_REQT_WRITE		0x40u		/* vendor, host-to-device */
#define RTLU_CTRL_MAX		64u		/* bytes per request (r8152 limit) */

/* MCU types: the register space, in wIndex (r8152 MCU_TYPE_*). */
#define RTLU_MCU_TYPE_PLA	0x0100u
#define RTLU_MCU_TYPE_USB	0x0000u
#define RTLU_MCU_TYPE_MASK	0xFF00u		/* [I] wIndex bits 15:8 */

/*
 * Byte enables, wIndex bits 7:0 on writes (r8152 BYTE_EN_*): bit i
 * enables byte i of the 8-byte window starting at the 4-aligned wValue,
 * so a dword write is 0xff... as r8152 uses them: BYTE_EN_DWORD 0xff for
 * a run of whole dwords, BYTE_EN_WORD 0x33 / BYTE_EN_BYTE 0x11 shifted
 * left by the byte offset in the dword, BYTE_EN_START_MASK 0x0f and
 * BYTE_EN_END_MASK 0xf0 for the first/last dword of a longer write.
 * [I] The model's decoding: the low nibble applies to the first dword of
 * the data stage, the high nibble to the last one (the same dword for a
 * 4-byte write); dwords in between are written whole.  A write with no
 * enabled byte is a guest error.
 */
#define RTLU_BYTE_EN_DWORD	0xFFu
#define RTLU_BYTE_EN_WORD	0x33u
#define RTLU_BYTE_EN_BYTE	0x11u
#define RTLU_BYTE_EN_SIX_BYTES	0x3Fu
#define RTLU_BYTE_EN_START_MASK	0x0Fu
#define RTLU_BYTE_EN_END_MASK	0xF0u

/* ---- PLA registers (MCU_TYPE_PLA), r8152 PLA_*. */
#define RTLU_PLA_IDR		0xC000u		/* station MAC, 6 bytes */
#define RTLU_PLA_RCR		0xC010u		/* RX config, 32 bit */
#define RTLU_PLA_TCR0		0xE610u		/* TX config 0, 16 bit */
/* Version word: r8152 reads PLA_TCR1 (0xe612) and masks VERSION_MASK
 * 0x7cf0 (r8152 *_get_version).  RS s1.6 calls it "HW id (PLA_TCR0)";
 * the driver code reads TCR1, which the model serves: 0x1030 RTL8157,
 * 0x2020 RTL8159 (rtl_usb_chips[].hw_id). */
#define RTLU_PLA_TCR1		0xE612u
#define RTLU_TCR1_VERSION_MASK	0x7CF0u
#define RTLU_PLA_CR		0xE813u		/* command, 8 bit */
#define RTLU_PLA_PHYSTATUS	0xE908u		/* link status, 16 bit */
/*
 * Tally counters (r8152 PLA_TALLYCNT, struct tally_counter): the 64-byte
 * block of struct rtl_tally (rtl_desc.h, the PCIe chips' layout), read-only,
 * read by r8152's ethtool -S in one 64-byte request (generic_ocp_read of
 * PLA_TALLYCNT, Linux 6.18).  PLA_RSTTALLY bit 0 TALLY_RESET zeroes them
 * (r8152 rtl_tally_reset, at chip init).  [I] The reset is done when the
 * write lands and the bit reads 0 after it.
 */
#define RTLU_PLA_RSTTALLY	0xE800u		/* 16 bit */
#define RTLU_TALLY_RESET	0x0001u
#define RTLU_PLA_TALLYCNT	0xE890u		/* 64 bytes, read-only */

/* PLA_RCR bits (r8152 RCR_*). */
#define RTLU_RCR_AAP		0x00000001u	/* accept all (promiscuous) */
#define RTLU_RCR_APM		0x00000002u	/* accept own MAC */
#define RTLU_RCR_AM		0x00000004u	/* accept multicast */
#define RTLU_RCR_AB		0x00000008u	/* accept broadcast */
#define RTLU_RCR_ACPT_ALL	0x0000000Fu

/* PLA_CR bits (r8152 CR_*). */
#define RTLU_CR_RST		0x10u		/* reset, self-clearing */
#define RTLU_CR_RE		0x08u		/* receiver enable */
#define RTLU_CR_TE		0x04u		/* transmitter enable */

/* PLA_PHYSTATUS bits (r8152 enum rtl_register_content; _5000bps BIT(12)
 * from the RTL8157 series, _10000bps BIT(14) from the RTL8159 series). */
#define RTLU_PHY_FULL_DUP	0x0001u
#define RTLU_PHY_LINK_STATUS	0x0002u
#define RTLU_PHY_10BPS		0x0004u
#define RTLU_PHY_100BPS		0x0008u
#define RTLU_PHY_1000BPS	0x0010u
#define RTLU_PHY_2500BPS	0x0400u
#define RTLU_PHY_5000BPS	0x1000u
#define RTLU_PHY_10000BPS	0x4000u

/* ---- USB registers (MCU_TYPE_USB). */
/* USB_USB_CTRL 0xd406 (RS s1.2): the driver clears RX_AGG_DISABLE to
 * aggregate; for RTL8157/8159 it also clears BIT 10 (mainline "16 bytes
 * Rx descriptor", OOT RX_HDR32_EN) and, for RTL8159 (OOT: both), BIT 11
 * (OOT RX_END_TRANSFER_EN; meaning not documented, RS gap 3). */
#define RTLU_USB_USB_CTRL	0xD406u
#define RTLU_USB_CTRL_RX_AGG_DISABLE	0x0010u
#define RTLU_USB_CTRL_RX_ZERO_EN	0x0080u
#define RTLU_USB_CTRL_RX_DESC_16B	0x0400u	/* BIT 10 */
#define RTLU_USB_CTRL_BIT11		0x0800u	/* BIT 11, meaning unknown */
/*
 * [I] Reset value of USB_USB_CTRL: RX_AGG_DISABLE set, so a device the
 * driver never configured sends one frame per transfer; BIT 10 and 11 set
 * (the driver clears them).  The model ignores BIT 10/11 (the v2
 * descriptor is always used) and BIT 7.
 */
#define RTLU_USB_CTRL_RESET	(RTLU_USB_CTRL_RX_AGG_DISABLE | \
				 RTLU_USB_CTRL_RX_DESC_16B | RTLU_USB_CTRL_BIT11)

/* RX aggregation timers (RS s1.3, 16-bit word registers). */
#define RTLU_USB_RX_EARLY_TIMEOUT	0xD42Cu	/* 8 ns units; 640 ns fixed */
#define RTLU_USB_RX_EARLY_SIZE		0xD42Eu	/* 16-byte units (RS s1.3) */
#define RTLU_USB_RX_EXTRA_AGGR_TMR	0xD432u	/* 8 ns units; coalesce/8 */
#define RTLU_TIMER_UNIT_NS		8u	/* RS s1.3 */
#define RTLU_EARLY_SIZE_UNIT		16u	/* bytes per EARLY_SIZE unit */
#define RTLU_AGGR_TMR_MAX		65535u	/* 524280 ns (COALESCE_SLOW) */

/*
 * 0xcf04 "interrupt mitigation" (RS s2): the RTL8159 series v1 3/4 and
 * mainline rtl8153_unload() clear bits 0, 1, 2 and 7 ("Disable Interrupt
 * Mitigation"); Realtek never documented them (RS gap 1).  8 bit.
 *
 * [I] Model hypothesis (docs/model.md): with all four bits set (the
 * power-on value, "mitigation on") the device ends a bulk-in transfer
 * only by the aggregation rules -- early size reached, the
 * USB_RX_EXTRA_AGGR_TMR timer after the transfer's first frame, or the
 * next frame not fitting.  With any of them clear ("mitigation off") it
 * also ends the transfer as soon as USB_RX_EARLY_TIMEOUT (640 ns) passes
 * after its last frame: many more, smaller transfers and xHCI events for
 * the same traffic; ping latency barely changes (xHCI IMOD still caps the
 * interrupt rate) while per-transfer host work rises (research s2: the
 * ksoftirqd doubling at equal ping).
 */
#define RTLU_USB_INT_MITIGATION		0xCF04u
#define RTLU_INT_MIT_MASK		0x87u	/* bits 0, 1, 2, 7 */
#define RTLU_INT_MIT_RESET		0x87u	/* [I] power-on: all set */

/* Other registers r8152 writes for these chips, accepted and stored by
 * the model without effect (RS s1.3, s1.6): USB_RX_BUF_TH, USB_RX_AGGR_NUM. */
#define RTLU_USB_RX_BUF_TH		0xD40Cu
#define RTLU_USB_RX_AGGR_NUM		0xD4EEu

/* ---- Interrupt endpoint (RS s1.5): a 2-byte status, le16; INTR_LINK
 * reports the link state (set = link up). */
#define RTLU_INTR_LINK		0x0004u

/* ---- Bulk-in aggregation layout (RS s1.2): each frame is a 16-byte
 * struct rtl_usb_rx_desc_v2 (rtl_desc.h) then the frame and its 4-byte
 * FCS; the length in opts1 bits 31:17 includes the FCS; the next
 * descriptor starts at the next 16-byte boundary. */
#define RTLU_FCS_LEN		4u
#define RTLU_ETH_ZLEN		60u		/* frames shorter end parsing */
/* rx_reserved_size(mtu) = mtu + 18 + 4 + desc + align (RS s1.3) */
#define RTLU_RX_RESERVED(mtu)	((mtu) + 18u + 4u + 16u + 16u)

/* ---- TX descriptor v2 (RS s1.2, [S3]): 16 bytes, each descriptor and
 * frame start 16-byte aligned in the bulk-out buffer, opts4 carries the
 * signature TX_SIG = 0x15 << 27.  The frame length is in opts3, shifted
 * left by 4 (the RTL8157 patch [S3], struct tx_desc_v2: "tx_v2_set_len(x)
 * ((x) << 4)"); opts2 holds the TCP header offset for checksum offload
 * (TCPHO_MAX_2 0x3ff, not used here).
 * [I] The width of the v2 length is not given; the model takes 18 bits
 * (v1's TX_LEN_MAX 0x3ffff).  [I] First/last-segment bits 31/30 of
 * opts1 as in the v1 tx_desc (r8152 TX_FS BIT(31), TX_LS BIT(30)); the
 * model requires both (no multi-descriptor frames). */
struct rtlu_tx_desc_v2 {
	uint32_t opts1;
	uint32_t opts2;
	uint32_t opts3;
	uint32_t opts4;
};

#define RTLU_TX_ALIGN		16u
#define RTLU_TX_FS		0x80000000u	/* opts1 */
#define RTLU_TX_LS		0x40000000u
#define RTLU_TX_LEN_SHIFT	4		/* opts3 */
#define RTLU_TX_LEN_MAX		0x0003FFFFu
#define RTLU_TX_LEN_MASK	(RTLU_TX_LEN_MAX << RTLU_TX_LEN_SHIFT)
#define RTLU_TX_SIG		(0x15u << 27)	/* opts4 */
#define RTLU_TX_SIG_MASK	(0x1Fu << 27)
/* TX aggregation buffer size (agg_buf_sz 16384, RS s1.1) -- the driver's
 * choice; the model accepts any TD length. */
#define RTLU_TX_AGG_BUF		16384u

static_assert(sizeof(struct rtlu_tx_desc_v2) == 16, "USB TX desc v2 is 16 bytes");

#endif /* RXSCALE_HW_RTL_USB_REGS_H */
