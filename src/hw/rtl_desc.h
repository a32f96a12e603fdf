/* SPDX-License-Identifier: MIT */
/*
 * rtl_desc.h - DMA layouts shared by the device model and the driver:
 * RX descriptors types 1, 3 and 4, the TX descriptor, the tally counter
 * block, and the RTL8157/8159 USB RX descriptor.  Data only.
 *
 * Every field is little-endian in memory (the drivers use __le32/__le64);
 * here they are uint32_t/uint64_t, converted by the user.  The driver
 * writes opts1 last, after a write barrier, with OWN set; the device
 * writes opts1 last on completion with OWN clear (s8 of
 * ../shared/research/rtl8127-hw.md; V127 rtl8127_mark_to_asic_v1/v3/v4,
 * K rtl8169_mark_to_asic).  Rings are 256-byte aligned and have no size
 * register: EOR on the last descriptor wraps the device to the base (s3).
 *
 * Besides the structs, one row per descriptor type (struct
 * rtl_rx_desc_fmt, struct rtl_tx_desc_fmt, rows in rtl_desc.c): where each
 * word sits, what its bits mean, and the register bits that select the
 * type.  The model reads descriptors through the rows; the driver picks
 * its per-type accessors through them.  No code compares type numbers.
 */
#ifndef RXSCALE_HW_RTL_DESC_H
#define RXSCALE_HW_RTL_DESC_H

#include "hw/rtl_types.h"

#include "hw/rtl_defines.h"

/* Bits common to opts1 of every PCIe descriptor (RX and TX). */
#define RTL_DESC_OWN		(1u << 31)	/* device owns it */
#define RTL_DESC_EOR		(1u << 30)	/* last in ring: wrap */
/* RX length, every type: bits 13:0, includes the 4-byte FCS on
 * write-back; on refill the driver puts the buffer size there. */
#define RTL_RX_LEN_MASK		0x3FFFu

#define RTL_RING_ALIGN		256u		/* K, D RTL_RING_ALIGN */

/* ---- RX type 1 (16 bytes): all chips; K always; vendor with RSS off. */
struct rtl_rx_desc {
	uint32_t opts1;
	uint32_t opts2;
	uint64_t addr;
};

/* opts1 write-back, type 1 (K rtl_rx_desc_bit, OpenBSD RGE_RDCMDSTS_*). */
#define RTL_RX1_FS		(1u << 29)	/* first segment */
#define RTL_RX1_LS		(1u << 28)	/* last segment */
#define RTL_RX1_RWT		(1u << 22)	/* receive watchdog timer */
#define RTL_RX1_RES		(1u << 21)	/* error summary */
#define RTL_RX1_RUNT		(1u << 20)
#define RTL_RX1_CRC		(1u << 19)
#define RTL_RX1_UDPT		(1u << 18)	/* K PID1 */
#define RTL_RX1_TCPT		(1u << 17)	/* K PID0 */
#define RTL_RX1_PROTO_MASK	(RTL_RX1_UDPT | RTL_RX1_TCPT)	/* both = other IP */
#define RTL_RX1_IPF		(1u << 16)	/* IP checksum failed */
#define RTL_RX1_UDPF		(1u << 15)
#define RTL_RX1_TCPF		(1u << 14)

/* opts2 write-back, types 1 and 4 (V127 r8127.h, K). */
#define RTL_RX_V6F		(1u << 31)	/* IPv6 frame */
#define RTL_RX_V4F		(1u << 30)	/* IPv4 frame */
#define RTL_RX_VLAN_TAG		(1u << 16)	/* VLAN stripped, TCI below */
#define RTL_RX_VLAN_TCI_MASK	0xFFFFu		/* byte-swapped (driver swab16) */

/* ---- RX type 3 (32 bytes): 8125A/B, 8126A XID 0x648. */
struct rtl_rx_desc_v3 {
	uint32_t rsvd0;
	uint32_t rsvd1;
	uint32_t rss_result;	/* Toeplitz hash (write-back) */
	uint16_t hdr_buf_len;
	uint16_t header_info;	/* RSS hash type, RTL_RX3_HI_* */
	uint64_t addr;		/* buffer; PTP timestamp on write-back */
	uint32_t opts2;
	uint32_t opts1;
};

/* opts1 write-back, type 3: FS/LS moved down, checksum bits in opts2. */
#define RTL_RX3_FS		(1u << 25)
#define RTL_RX3_LS		(1u << 24)
#define RTL_RX3_RES		(1u << 20)
#define RTL_RX3_RUNT		(1u << 19)
#define RTL_RX3_RWT		(1u << 18)
#define RTL_RX3_CRC		(1u << 17)
/* opts2 write-back, type 3 (V6F, V4F, VLAN as RTL_RX_* above). */
#define RTL_RX3_UDPT		(1u << 29)
#define RTL_RX3_TCPT		(1u << 28)
#define RTL_RX3_SCTP		(1u << 27)
#define RTL_RX3_IPF		(1u << 26)
#define RTL_RX3_UDPF		(1u << 25)
#define RTL_RX3_TCPF		(1u << 24)
#define RTL_RX3_SCTPF		(1u << 23)
/* header_info, hash type (V127 rtl8127_rx_hash_v3). */
#define RTL_RX3_HI_UDP		(1u << 9)	/* RXS_8125B_RSS_UDP */
#define RTL_RX3_HI_IPV4		(1u << 10)
#define RTL_RX3_HI_IPV6		(1u << 12)
#define RTL_RX3_HI_TCP		(1u << 13)
#define RTL_RX3_HI_L3_MASK	(RTL_RX3_HI_IPV4 | RTL_RX3_HI_IPV6)
#define RTL_RX3_HI_L4_MASK	(RTL_RX3_HI_TCP | RTL_RX3_HI_UDP)

/* ---- RX type 4 (16 bytes): 8125BP/D/CP, 8126A 0x649/0x64a, 8127.
 * The device overwrites the buffer address with the hash on write-back,
 * so the driver must write addr again before every refill (V127 release
 * path, D rtl_map_to_asic). */
struct rtl_rx_desc_v4 {
	union {
		uint64_t addr;			/* driver -> device */
		struct {
			uint32_t rss_info;	/* hash type, RTL_RX4_RI_* */
			uint32_t rss_result;	/* Toeplitz hash */
		};				/* device -> driver */
	};
	uint32_t opts2;
	uint32_t opts1;
};

/* opts1 write-back, type 4. */
#define RTL_RX4_FS		(1u << 29)
#define RTL_RX4_LS		(1u << 28)
#define RTL_RX4_RES		(1u << 22)
#define RTL_RX4_RUNT		(1u << 21)
#define RTL_RX4_CRC		(1u << 20)
/* [I] Bit 19: the vendor header names both UDPT and SCTP/SCTPF there.
 * This project reads it as UDPT -- the type 1 layout, one bit above TCPT
 * -- and does not report SCTP at all (no checksum-offload bits for SCTP). */
#define RTL_RX4_UDPT		(1u << 19)
#define RTL_RX4_TCPT		(1u << 18)
#define RTL_RX4_IPF		(1u << 17)
#define RTL_RX4_UDPF		(1u << 16)
#define RTL_RX4_TCPF		(1u << 15)
/* rss_info, hash type (V127 rtl8127_rx_hash_v4).  [gap] Other bits
 * (queue number? hash valid?) unknown: the model writes them 0. */
#define RTL_RX4_RI_UDP		(1u << 27)	/* RXS_8125B_RSS_UDP_V4 */
#define RTL_RX4_RI_IPV4		(1u << 28)
#define RTL_RX4_RI_IPV6		(1u << 29)
#define RTL_RX4_RI_TCP		(1u << 30)
#define RTL_RX4_RI_L3_MASK	(RTL_RX4_RI_IPV4 | RTL_RX4_RI_IPV6)
#define RTL_RX4_RI_L4_MASK	(RTL_RX4_RI_TCP | RTL_RX4_RI_UDP)

/* ---- TX (16 bytes): K's format, "new TX desc" off (MAC OCP 0xEB58 bit 0
 * clear).  The vendor's 32-byte variant appends four reserved dwords. */
struct rtl_tx_desc {
	uint32_t opts1;
	uint32_t opts2;
	uint64_t addr;
};

struct rtl_tx_desc32 {
	uint32_t opts1;
	uint32_t opts2;
	uint64_t addr;
	uint32_t rsvd[4];
};

/* opts1 (K rtl_tx_desc_bit*; OWN and EOR as above). */
#define RTL_TX_FS		(1u << 29)
#define RTL_TX_LS		(1u << 28)
#define RTL_TX_LSO		(1u << 27)	/* TSO */
#define RTL_TX_GTSENV4		(1u << 26)
#define RTL_TX_GTSENV6		(1u << 25)
#define RTL_TX_GTTCPHO_SHIFT	18		/* TCP header offset, 24:18 */
#define RTL_TX_GTTCPHO_MAX	0x7Fu
/* [I] Length bits 15:0: no source states the width; the older TX format
 * kept checksum flags at opts1 bits 16-18 (K TD0_*_CS), so the length
 * field ends at bit 15. */
#define RTL_TX_LEN_MASK		0xFFFFu
/* opts2. */
#define RTL_TX_UDP_CS		(1u << 31)
#define RTL_TX_TCP_CS		(1u << 30)
#define RTL_TX_IPV4_CS		(1u << 29)
#define RTL_TX_IPV6_CS		(1u << 28)
#define RTL_TX_MSS_SHIFT	18		/* TSO MSS, 28:18 */
#define RTL_TX_MSS_MAX		0x7FFu
#define RTL_TX_TCPHO_SHIFT	18		/* csum offload L4 offset, 27:18 */
#define RTL_TX_TCPHO_MAX	0x3FFu
#define RTL_TX_VLAN_TAG		(1u << 17)	/* insert TCI below */
#define RTL_TX_VLAN_TCI_MASK	0xFFFFu		/* byte-swapped */

/* ---- Tally counters: what a CounterDump DMAs (K struct
 * rtl8169_counters, D struct rtl_counters). */
struct rtl_tally {
	uint64_t tx_packets;
	uint64_t rx_packets;
	uint64_t tx_errors;
	uint32_t rx_errors;
	uint16_t rx_missed;
	uint16_t align_errors;
	uint32_t tx_one_collision;
	uint32_t tx_multi_collision;
	uint64_t rx_unicast;
	uint64_t rx_broadcast;
	uint32_t rx_multicast;
	uint16_t tx_aborted;
	uint16_t tx_underrun;
};

/* ---- RTL8157/RTL8159 (USB) RX descriptor "v2": 16 bytes, each frame
 * 16-byte aligned in the bulk-in transfer (usb-and-coalescing.md s1.2;
 * mainline r8152 RTL8157 patch, Realtek r8152 2.22.1). */
struct rtl_usb_rx_desc_v2 {
	uint32_t opts1;
	uint32_t opts2;
	uint32_t opts3;
	uint32_t opts4;
};

#define RTL_USB_RX_ALIGN	16u
#define RTL_USB_RX2_LEN_SHIFT	17		/* opts1 31:17, includes FCS */
#define RTL_USB_RX2_LEN_MASK	0xFFFE0000u
#define RTL_USB_RX2_VLAN_TAG	(1u << 3)	/* opts1 */
#define RTL_USB_RX2_VER_MASK	0x3u		/* opts1; meaning unknown */
#define RTL_USB_RX2_TCI_SHIFT	16		/* opts2 31:16, byte-swapped */
#define RTL_USB_RX2_TCP_CS	(1u << 10)	/* opts3 */
#define RTL_USB_RX2_UDP_CS	(1u << 11)
#define RTL_USB_RX2_IPV4_CS	(1u << 14)
#define RTL_USB_RX2_IPV6_CS	(1u << 15)
#define RTL_USB_RX2_TCPF	(1u << 24)
#define RTL_USB_RX2_UDPF	(1u << 25)
#define RTL_USB_RX2_IPF		(1u << 26)

/* ---- One row per RX descriptor type (rows in rtl_desc.c). */

/* Register bits that take part in selecting the RX type (s8 "Enabling
 * the descriptor type"): the driver clears these, then sets the row's. */
#define RTL_RX_DESC_SEL_RXCFG	RTL_RXCFG_DESC_V3
#define RTL_RX_DESC_SEL_CFG_D8	RTL_CFG_D8_DESC_V4

/* Largest RX descriptor (type 3). */
#define RTL_RX_DESC_MAX_SIZE	32u

enum rtl_rx_desc_fmt_id {
	RTL_RX_DESC_FMT_V1,	/* type 1 */
	RTL_RX_DESC_FMT_V3,	/* type 3 */
	RTL_RX_DESC_FMT_V4,	/* type 4 */
	RTL_RX_DESC_FMT_COUNT
};

struct rtl_rx_desc_fmt {
	uint8_t type;		/* 1, 3 or 4: the vendor's name, for messages */
	uint8_t size;		/* bytes */
	uint8_t opts1_off;	/* OWN, EOR, length, FS/LS, errors */
	uint8_t opts2_off;	/* V4F/V6F, VLAN */
	uint8_t addr_off;	/* buffer address, driver -> device */
	bool addr_overwritten;	/* write-back replaces addr (refill rewrites it) */
	int8_t hash_off;	/* u32 Toeplitz hash on write-back; -1: none */
	int8_t hash_type_off;	/* hash-type word on write-back; -1: none */
	uint8_t hash_type_size;	/* its bytes: 2 or 4 */
	/* opts1 write-back */
	uint32_t fs, ls;	/* first/last segment */
	uint32_t err_mask;	/* any set: receive error */
	/* L4 type and checksum-failure bits, in the word at csum_off */
	uint8_t csum_off;	/* opts1_off or opts2_off */
	uint32_t tcpt, udpt, ipf, tcpf, udpf;
	/* hash-type bits (0 where the type has no hash) */
	uint32_t ht_ipv4, ht_ipv6, ht_tcp, ht_udp;
	/* The device uses this type when (RxConfig & rxcfg_mask) ==
	 * rxcfg_val and (CFG_D8 & cfg_d8_mask) == cfg_d8_val; exactly one
	 * row matches any register value. */
	uint32_t rxcfg_mask, rxcfg_val;
	uint8_t cfg_d8_mask, cfg_d8_val;
};

extern const struct rtl_rx_desc_fmt rtl_rx_desc_fmts[RTL_RX_DESC_FMT_COUNT];

/* Type 1: every chip has it, and uses it with RSS off. */
#define rtl_rx_desc_fmt_basic	(&rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V1])

/** rtl_rx_desc_fmt_decode() - the row the device uses for these
 * RxConfig and CFG_D8 values (never NULL). */
const struct rtl_rx_desc_fmt *rtl_rx_desc_fmt_decode(uint32_t rxconfig,
						     uint8_t cfg_d8);
/** rtl_rx_desc_fmt_type() - the row of RX type @type, or NULL. */
const struct rtl_rx_desc_fmt *rtl_rx_desc_fmt_type(unsigned type);

/* ---- One row per TX descriptor size (rows in rtl_desc.c): MAC OCP
 * RTL_OCP_TX_DESC_FMT selects it (s8.4). */
enum rtl_tx_desc_fmt_id {
	RTL_TX_DESC_FMT_16,	/* K's format, struct rtl_tx_desc */
	RTL_TX_DESC_FMT_32,	/* the vendor's, struct rtl_tx_desc32 */
	RTL_TX_DESC_FMT_COUNT
};

struct rtl_tx_desc_fmt {
	uint8_t size;		/* bytes */
	uint8_t opts1_off, opts2_off, addr_off;
	/* selected when (OCP 0xEB58 & ocp_mask) == ocp_val */
	uint16_t ocp_mask, ocp_val;
};

extern const struct rtl_tx_desc_fmt rtl_tx_desc_fmts[RTL_TX_DESC_FMT_COUNT];

/** rtl_tx_desc_fmt_decode() - the row for a MAC OCP 0xEB58 value. */
const struct rtl_tx_desc_fmt *rtl_tx_desc_fmt_decode(uint16_t ocp_fmt);

/* ---- Layout checks. */
static_assert(sizeof(struct rtl_rx_desc) == 16, "RX type 1 is 16 bytes");
static_assert(offsetof(struct rtl_rx_desc, opts1) == 0, "type 1 opts1 @0");
static_assert(offsetof(struct rtl_rx_desc, opts2) == 4, "type 1 opts2 @4");
static_assert(offsetof(struct rtl_rx_desc, addr) == 8, "type 1 addr @8");

static_assert(sizeof(struct rtl_rx_desc_v3) == 32, "RX type 3 is 32 bytes");
static_assert(offsetof(struct rtl_rx_desc_v3, rss_result) == 8, "v3 hash @8");
static_assert(offsetof(struct rtl_rx_desc_v3, header_info) == 14, "v3 type @14");
static_assert(offsetof(struct rtl_rx_desc_v3, addr) == 16, "v3 addr @16");
static_assert(offsetof(struct rtl_rx_desc_v3, opts2) == 24, "v3 opts2 @24");
static_assert(offsetof(struct rtl_rx_desc_v3, opts1) == 28, "v3 opts1 @28");

static_assert(sizeof(struct rtl_rx_desc_v4) == 16, "RX type 4 is 16 bytes");
static_assert(offsetof(struct rtl_rx_desc_v4, addr) == 0, "v4 addr @0");
static_assert(offsetof(struct rtl_rx_desc_v4, rss_info) == 0, "v4 info @0");
static_assert(offsetof(struct rtl_rx_desc_v4, rss_result) == 4, "v4 hash @4");
static_assert(offsetof(struct rtl_rx_desc_v4, opts2) == 8, "v4 opts2 @8");
static_assert(offsetof(struct rtl_rx_desc_v4, opts1) == 12, "v4 opts1 @12");

static_assert(sizeof(struct rtl_tx_desc) == 16, "TX desc is 16 bytes");
static_assert(offsetof(struct rtl_tx_desc, addr) == 8, "TX addr @8");
static_assert(sizeof(struct rtl_tx_desc32) == 32, "vendor TX desc is 32 bytes");

static_assert(sizeof(struct rtl_tally) == 64, "tally block is 64 bytes");
static_assert(offsetof(struct rtl_tally, rx_errors) == 24, "tally rx_errors @24");
static_assert(offsetof(struct rtl_tally, rx_unicast) == 40, "tally rx_unicast @40");
static_assert(offsetof(struct rtl_tally, tx_underrun) == 62, "tally tx_underrun @62");

static_assert(sizeof(struct rtl_usb_rx_desc_v2) == 16, "USB RX desc v2 is 16 bytes");

/* RING_ALIGN keeps every descriptor size dividing it. */
static_assert(RTL_RING_ALIGN % sizeof(struct rtl_rx_desc_v3) == 0, "ring alignment");
static_assert(sizeof(struct rtl_rx_desc_v3) == RTL_RX_DESC_MAX_SIZE, "largest RX type");
static_assert(sizeof(struct rtl_rx_desc) <= RTL_RX_DESC_MAX_SIZE &&
	      sizeof(struct rtl_rx_desc_v4) <= RTL_RX_DESC_MAX_SIZE, "largest RX type");
static_assert(offsetof(struct rtl_tx_desc32, opts2) == 4 &&
	      offsetof(struct rtl_tx_desc32, addr) == 8, "TX formats share the first 16 bytes");

#endif /* RXSCALE_HW_RTL_DESC_H */
