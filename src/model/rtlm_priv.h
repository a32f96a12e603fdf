/* SPDX-License-Identifier: MIT */
/*
 * rtlm_priv.h - the model's internal state, shared by its files:
 *   rtlm_dev.c    instance, link, accessors
 *   rtlm_reset.c  ChipCmd reset, the registers' reset values
 *   rtlm_err.c    guest errors, unknown-register notes (a leaf: every
 *                 file reports through it, it calls none of them)
 *   rtlm_mmio.c   register file and table-driven MMIO dispatch
 *   rtlm_rx.c     RX pipeline, rings, descriptor write-back
 *   rtlm_rss.c    RSS engine (src/rss over the RSS registers)
 *   rtlm_tx.c     TX engine, doorbells
 *   rtlm_irq.c    legacy and per-message-id interrupt models
 *   rtlm_moder.c  INT_MITI_V2 per-queue moderation timers
 *   rtlm_wb.c     posted write-backs: the OwnBit erratum hold queue
 *   rtlm_tally.c  tally counter dump
 *   rtlm_ocp.c    MAC/PHY OCP windows, TCTR timer counters
 * Nothing here is part of the API (rtlm.h).
 */
#ifndef RXSCALE_MODEL_RTLM_PRIV_H
#define RXSCALE_MODEL_RTLM_PRIV_H

#include <stdarg.h>

#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"
#include "model/rtlm.h"
#include "rss/rss_hash.h"

/* Bytes the MAC accepts at most: the 14-bit length field holds the frame
 * plus its 4-byte FCS (s8). */
#define RTLM_FCS_LEN		4u
#define RTLM_RX_MAX		(RTL_RX_LEN_MASK - RTLM_FCS_LEN)
#define RTLM_TX_MAX		16384u	/* [I] one frame's bytes, all segments */
/* A giant send (TSO) frame before segmentation: K's RTL_GSO_MAX_SIZE_V2
 * is 64000 bytes; [I] the device takes up to 64 KiB. */
#define RTLM_TSO_MAX		65536u
#define RTLM_MIN_FRAME		60u	/* Ethernet minimum without FCS */
#define RTLM_RSS_KEY_MAX	40u	/* RSS_KEY_8125: 10 dwords */
#define RTLM_OCP_WORDS		32768u	/* 16-bit registers of an OCP space */
#define RTLM_EPHY_PAGES		16u	/* EPHY pages (register 0x7e), rtl_regs.def */
#define RTLM_EPHY_REGS		128u

/* Interrupt sources: one per event kind and queue. */
enum rtlm_irq_src {
	RTLM_IRQ_RX_OK,		/* frame written back on RX queue q */
	RTLM_IRQ_RX_DU,		/* RX queue q had no descriptor */
	RTLM_IRQ_RX_FIFO,	/* RX pipeline overflow */
	RTLM_IRQ_TX_OK,		/* TX queue q completed a frame */
	RTLM_IRQ_TX_ERR,	/* TX queue q hit a bad descriptor/DMA */
	RTLM_IRQ_TX_DU,		/* doorbell on TX queue q found nothing */
	RTLM_IRQ_LINK,		/* link change */
};

/* One frame in the RX pipeline. */
struct rtlm_rx_frame {
	struct sim_event ev;
	struct rtlm_dev *dev;
	struct rtlm_rx_frame *prev, *next;	/* dev->rx_inflight list */
	unsigned q;
	uint32_t hash;
	enum rss_type rss_type;
	uint32_t opts1_bits;	/* type-independent status, see rtlm_rx.c */
	bool vlan;		/* a tag was stripped */
	uint16_t vlan_tci;
	bool v4, v6;
	uint8_t l4;		/* 0, 6 (TCP) or 17 (UDP) */
	bool ipf, l4f;		/* checksum failures */
	uint32_t len;		/* bytes in data[], FCS included */
	bool pooled;		/* data[] holds RTLM_FR_POOL_DATA bytes */
	/* built at the DMA (rtlm_eth_rx_src): data[] holds only the first
	 * RTLM_SRC_HDR bytes; the builder and its description */
	ssize_t (*build)(const void *desc, uint8_t *buf, size_t cap);
	uint8_t desc[NET_FRAME_DESC_MAX];
	uint8_t data[];
};

#define RTLM_SRC_HDR 64u

/* RX frame buffers up to this many data bytes are recycled through a
 * per-device free list (a malloc/free pair per frame was ~5 % of a
 * 10 Gbit/s run); longer frames are allocated apart. */
#define RTLM_FR_POOL_DATA 2048
#define RTLM_FR_POOL_MAX 1024

/* One write-back held by the OwnBit erratum. */
struct rtlm_wb_ent {
	uint64_t dma;
	uint32_t val;
	sim_time_t due;
};

/* A list of unknown registers of one space (rtlm.h), grown as needed. */
struct rtlm_unknown_list {
	struct rtlm_unknown_reg *v;
	unsigned n, cap;
};

/* The internal PHY (rtlm_phy.c): its OCP space and its state. */
struct rtlm_phy_sram {
	uint16_t addr, val;
};

struct rtlm_phy {
	uint16_t *ocp;		/* RTLM_OCP_WORDS, index addr / 2 */
	bool an_busy;		/* autonegotiation running (an_ev pending) */
	struct sim_event an_ev;
	/* the two indirect windows (0xA436/0xA438, 0xB87C/0xB87E), each an
	 * address space of its own: what was written, by address */
	struct rtlm_phy_sram *sram[2];
	unsigned sram_n[2], sram_cap[2];
};

struct rtlm_rx_ring {
	uint32_t cur;		/* next descriptor the device fills */
};

struct rtlm_tx_ring {
	uint32_t cur;		/* next descriptor the device fetches */
	uint32_t closed;	/* descriptors completed (HW_CLO_PTR) */
};

struct rtlm_dev {
	struct plat_pci_dev pci;
	struct sim_host *host;
	struct sim *sim;
	struct plat_mem *mem;
	const struct rtl_chip_info *chip;
	struct rtlm_params p;
	struct rtlm_stats st;
	char last_error[192];
	/* what a driver touched that the model does not know: BAR offsets,
	 * MAC OCP and PHY OCP addresses (rtlm_mmio.c); every one kept */
	struct rtlm_unknown_list unknown[RTLM_UNKNOWN__SPACES];
	void (*log)(void *arg, const char *msg);
	void *log_arg;

	/* register file: element e of row r is regs[reg_base[r] + e] */
	uint32_t *regs;
	unsigned reg_base[RTL_RI__COUNT];

	/* link: what the PHY reports (rtlm_phy.c), from the wire's state
	 * (rtlm_set_link) and the PHY's own (power, autonegotiation) */
	bool link_up;
	uint32_t link_mbps;
	bool wire_up;
	uint32_t wire_mbps;
	struct rtlm_phy phy;

	/* RX */
	struct rtlm_rx_ring rx[RTL_MAX_RX_QUEUES];
	struct rtlm_rx_frame *rx_head, *rx_tail;	/* in flight */
	struct rtlm_rx_frame *fr_pool;	/* free frame buffers (next link) */
	unsigned fr_pool_n;
	/* the RX descriptor row last decoded, and the RxConfig and CFG_D8
	 * values it was decoded from (rx_desc_fmt, once per frame) */
	const struct rtl_rx_desc_fmt *rx_fmt;
	uint32_t rx_fmt_rcr;
	uint8_t rx_fmt_d8;

	/* RSS: src/rss objects rebuilt from the registers when dirty */
	bool rss_dirty;
	bool rss_key_ok;
	struct rss_thash rss_key;
	struct rss_indir rss_indir;

	/* TX */
	struct rtlm_tx_ring tx[RTL_MAX_TX_QUEUES];
	uint32_t tx_pending;	/* bit q: doorbell rung, work may remain */
	unsigned tx_rr;		/* next queue to serve */
	struct sim_event tx_ev;
	rtlm_wire_tx_fn wire_tx;
	void *wire_arg;
	uint8_t *tx_buf;	/* RTLM_TSO_MAX + VLAN tag */
	uint8_t *tx_seg;	/* one TSO segment: RTLM_TX_MAX + VLAN tag */

	/* interrupts */
	uint64_t irq_sent;	/* V2: id's message sent, level not fallen */
	uint32_t irq_sent_whatif[RTL_MSIX_WHATIF_WORDS];	/* ids 64+ */
	bool legacy_sent;
	uint64_t msix_count;	/* messages attempted (for drop_every) */
	struct sim_event moder_ev[RTL_MSIX_MAX_VECTORS];
	uint64_t moder_held;	/* id's timer running */
	uint32_t moder_frames[RTL_MSIX_MAX_VECTORS];	/* RX events in it */

	/* OwnBit erratum hold queue (FIFO ring) */
	struct rtlm_wb_ent *wb;
	unsigned wb_cap, wb_head, wb_len;
	uint64_t wb_seq;
	struct sim_event wb_ev;

	/* tally dump in progress */
	struct sim_event tally_ev;
	struct rtl_tally tally;

	/* OCP windows: every address of each space, as written */
	uint16_t *mac_ocp;	/* RTLM_OCP_WORDS, index addr / 2 */

	/* EPHY (PCIe PHY) registers behind EPHYAR, 16 pages of 128 */
	uint16_t ephy[RTLM_EPHY_PAGES][RTLM_EPHY_REGS];

	/* TCTR0..3 restart times */
	sim_time_t tctr_base[4];
};

/* ---- rtlm_err.c */
void rtlm_guest_error(struct rtlm_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- rtlm_reset.c */
void rtlm_reset(struct rtlm_dev *dev);
void rtlm_regs_reset(struct rtlm_dev *dev);

/* ---- rtlm_mmio.c */
extern const struct plat_pci_bar_ops rtlm_bar_ops;

static inline uint32_t *rtlm_reg(struct rtlm_dev *dev, unsigned ri,
				 unsigned elem)
{
	return &dev->regs[dev->reg_base[ri] + elem];
}

static inline uint32_t rtlm_rd(struct rtlm_dev *dev, unsigned ri)
{
	return *rtlm_reg(dev, ri, 0);
}

/* Byte @off of an array row of 32-bit elements (RSS key, indir). */
static inline uint8_t rtlm_reg_byte(struct rtlm_dev *dev, unsigned ri,
				    unsigned off)
{
	return (uint8_t)(*rtlm_reg(dev, ri, off / 4) >> (8 * (off % 4)));
}

/* Write hooks run after the register value changed: @old and the new
 * value (for WO rows: the written bits). */
typedef void (*rtlm_wr_hook)(struct rtlm_dev *dev, unsigned ri,
			     unsigned elem, uint32_t old, uint32_t val);
/* Read hooks return the value a read sees instead of the stored one. */
typedef uint32_t (*rtlm_rd_hook)(struct rtlm_dev *dev, unsigned ri,
				 unsigned elem, uint32_t stored);

/* ---- rtlm_rx.c */
void rtlm_rx_ring_base_write(struct rtlm_dev *dev, unsigned ri,
			     unsigned elem, uint32_t old, uint32_t val);
/* 16-bit big-endian words of @p added to the partial checksum @s (RFC
 * 1071), for pseudo-headers; the result goes to net_csum_fold(). */
static inline uint32_t rtlm_sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

/* rtlm_txoff.c: a frame the TX engine sends, after offloads. */
typedef void (*rtlm_txoff_emit)(struct rtlm_dev *dev, uint8_t *frame,
				size_t len, void *arg);
/* Apply the checksum offload or giant send the first descriptor's
 * @opts1/@opts2 ask for to the frame @f of @len bytes and hand each frame
 * to leave (one, or one per TSO segment; each buffer has 4 bytes of room
 * for a VLAN tag) to @emit.  The number of frames, or -EINVAL after a
 * guest error (nothing emitted). */
int rtlm_tx_offload(struct rtlm_dev *dev, uint32_t opts1, uint32_t opts2,
		    uint8_t *f, size_t len, rtlm_txoff_emit emit, void *arg);
uint32_t rtlm_mcu_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		       uint32_t stored);
uint32_t rtlm_chipcmd_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			   uint32_t stored);
void rtlm_rx_reset(struct rtlm_dev *dev);
void rtlm_rx_fini(struct rtlm_dev *dev);

/* ---- rtlm_rss.c */
void rtlm_rss_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val);
void rtlm_rss_classify(struct rtlm_dev *dev, const struct net_flow *f,
		       struct rss_result *r);
unsigned rtlm_rx_rings(struct rtlm_dev *dev);
void rtlm_rss_fini(struct rtlm_dev *dev);

/* ---- rtlm_tx.c */
void rtlm_tx_doorbell_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			    uint32_t old, uint32_t val);
void rtlm_tx_tail_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t old, uint32_t val);
void rtlm_tx_ring_base_write(struct rtlm_dev *dev, unsigned ri,
			     unsigned elem, uint32_t old, uint32_t val);
uint32_t rtlm_tx_clo_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			  uint32_t stored);
void rtlm_tx_reset(struct rtlm_dev *dev);
void rtlm_tx_init(struct rtlm_dev *dev);

/* ---- rtlm_irq.c */
void rtlm_irq_event(struct rtlm_dev *dev, enum rtlm_irq_src src, unsigned q);
void rtlm_irq_update(struct rtlm_dev *dev);
void rtlm_irq_reg_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t old, uint32_t val);
void rtlm_irq_send(struct rtlm_dev *dev, unsigned vec);
void rtlm_irq_reset(struct rtlm_dev *dev);
/* At creation: the moderation timers, whose expiry sends (rtlm_moder.c). */
void rtlm_irq_init(struct rtlm_dev *dev);
bool rtlm_irq_v2(struct rtlm_dev *dev);

/* ---- rtlm_moder.c */
/* The hold-off timers, each firing @expire (rtlm_irq.c sends what waited). */
void rtlm_moder_init(struct rtlm_dev *dev, sim_event_fn expire);
/* Hold-off timer @ev fired: its message id is no longer held. */
void rtlm_moder_expired(struct rtlm_dev *dev, const struct sim_event *ev);
/* An event for message id @id from queue @q (RX if !tx); returns true
 * if the id's message must wait for its timer. */
bool rtlm_moder_event(struct rtlm_dev *dev, unsigned id, unsigned q, bool tx);
void rtlm_moder_reset(struct rtlm_dev *dev);

/* ---- rtlm_wb.c */
void rtlm_wb_init(struct rtlm_dev *dev);
/* Write the 32-bit descriptor word @val at @dma: now, or held when the
 * erratum applies (@may_hold) or earlier writes are held. */
void rtlm_wb_opts1(struct rtlm_dev *dev, uint64_t dma, uint32_t val,
		   bool may_hold);
void rtlm_wb_flush(struct rtlm_dev *dev);	/* an MMIO read */
void rtlm_wb_fini(struct rtlm_dev *dev);

/* ---- rtlm_tally.c */
void rtlm_tally_init(struct rtlm_dev *dev);
void rtlm_tally_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		      uint32_t old, uint32_t val);
uint32_t rtlm_tally_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			 uint32_t stored);
void rtlm_tally_reset(struct rtlm_dev *dev);

/* ---- rtlm_ocp.c */
void rtlm_ocp_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val);
uint16_t rtlm_mac_ocp(struct rtlm_dev *dev, uint16_t addr);
int rtlm_ocp_init(struct rtlm_dev *dev);
void rtlm_ocp_fini(struct rtlm_dev *dev);
void rtlm_ocp_reset(struct rtlm_dev *dev);

/* ---- rtlm_phy.c */
int rtlm_phy_init(struct rtlm_dev *dev);
void rtlm_phy_fini(struct rtlm_dev *dev);
uint16_t rtlm_phy_read(struct rtlm_dev *dev, uint16_t addr);
void rtlm_phy_write(struct rtlm_dev *dev, uint16_t addr, uint16_t val);
/* The link the PHY reports from the wire and its own state; raises
 * LinkChg and updates PHYstatus when it changed. */
void rtlm_phy_link_update(struct rtlm_dev *dev);
void rtlm_phy_status_set(struct rtlm_dev *dev);

/* ---- rtlm_win.c: the EPHY and CSI windows */
void rtlm_ephy_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		     uint32_t old, uint32_t val);
void rtlm_csi_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val);

/* ---- rtlm_err.c: unknown-register notes */
void rtlm_unknown_note(struct rtlm_dev *dev, enum rtlm_unknown_space sp,
		       uint32_t off, bool write, uint32_t val);
void rtlm_unknown_fini(struct rtlm_dev *dev);
void rtlm_tctr_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		     uint32_t old, uint32_t val);
uint32_t rtlm_tctr_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t stored);

/* little-endian helpers for descriptor words in host memory */
static inline uint32_t rtlm_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void rtlm_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t rtlm_le64(const uint8_t *p)
{
	return rtlm_le32(p) | (uint64_t)rtlm_le32(p + 4) << 32;
}

#endif /* RXSCALE_MODEL_RTLM_PRIV_H */
