/* SPDX-License-Identifier: MIT */
/*
 * r8169.h - the r8169-style driver for the RTL8125/8126/8127 family with
 * multi-queue RX, one NAPI and one MSI-X vector per queue, RSS, ethtool
 * and the RTL8127 descriptor-OwnBit erratum workaround.
 *
 * The driver sees only the datasheet (src/hw) and the kernel-like API
 * (src/kern): registers through readl/writel on its BAR, rings in
 * dma_alloc_coherent memory, interrupts through request_irq.  It never
 * calls the device model.
 *
 * What differs between chips is read from the chip row (struct
 * rtl_chip_info) once at probe and turned into two ops tables: the RX
 * descriptor format (types 1, 3, 4) and the interrupt register model
 * (legacy IMR/ISR or per-message-id "V2").  No version switches below.
 */
#ifndef RXSCALE_DRV_R8169_H
#define RXSCALE_DRV_R8169_H

#include <linux/dim.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"

/* KBUILD_MODNAME: "rxscale_r8169" as a kernel module (kmod/), "r8169" in
 * the simulator (src/drv/meson.build), so the module's driver name cannot
 * collide with mainline r8169's.
 */
#define R8169_DRV_NAME		KBUILD_MODNAME
#define R8169_MAX_RX_QUEUES	RTL_MAX_RX_QUEUES
/* One TX queue: v2 of the RFC series dropped multi-TX ("remove multi tx
 * queue patch", seeds/000).
 */
#define R8169_MAX_TX_QUEUES	1
/* RX buffer: a 1500-byte MTU frame with two VLAN tags and the FCS fits
 * (vendor RX_BUF_SIZE 0x5F6 = 1526, rounded to 2 KiB).
 */
#define R8169_RX_BUF_SIZE	2048
#define R8169_RING_MIN		64
#define R8169_TX_STOP_THRS	2	/* stop the queue below this many free */
#define R8169_TX_START_THRS	R8169_TX_STOP_THRS	/* wake at this many */
/* rx-frames limit of mainline r8169 (RTL_COALESCE_FRAME_MAX: a 4-bit
 * field in units of 4 frames, research s5.3)
 */
#define R8169_COALESCE_FRAME_MAX	60u
#define R8169_RSS_KEY_SIZE	40
#define R8169_RSS_INDIR_SIZE	128
/* the largest table of any row: the what-if row's 256 (rtl_chips.h) */
#define R8169_RSS_INDIR_MAX	256
/* Kernel-default hash types of the RTL8127 RFC: TCP and IP, v4 and v6 with
 * extension headers; UDP hashes the IP pair until -N asks (vendor
 * r8127_rss.c, research s2.2).
 */
#define R8169_RSS_HT_DEFAULT	(RTL_RSS_CTRL_TCP_IPV4 | RTL_RSS_CTRL_IPV4 | \
				 RTL_RSS_CTRL_TCP_IPV6 | RTL_RSS_CTRL_IPV6 | \
				 RTL_RSS_CTRL_IPV6_EXT | RTL_RSS_CTRL_TCP_IPV6_EXT)

struct rtl8169_private;

/**
 * struct rtl_rx_stats - one RX queue's counters
 * @packets: frames handed to the stack
 * @bytes: their bytes, FCS excluded
 * @drops: every frame the driver could not deliver (the sum of the four
 *	reasons below)
 * @errors: of which: error bits in the descriptor
 * @alloc_fail: of which: no skb
 * @length: of which: multi-descriptor or bad length
 * @flushed: of which: completed by the device, not polled yet when the
 *	ring was freed (close, ethtool -L/-G)
 * @csum_ok: frames given CHECKSUM_UNNECESSARY
 * @ownbit_rechecks: OWN seen, MMIO flush, OWN clear (the RTL8127 erratum)
 * @syncp: the queue's NAPI poll is the one writer
 *
 * Reported by ethtool -S (rx_queue_N_*), summed into ndo_get_stats64 and
 * the netdev qstats (netdev_stat_ops).  Written inside
 * u64_stats_update_begin/end, read with u64_stats_fetch_begin/retry.
 */
struct rtl_rx_stats {
	u64_stats_t packets, bytes;
	u64_stats_t drops;
	u64_stats_t errors;
	u64_stats_t alloc_fail;
	u64_stats_t length;
	u64_stats_t flushed;
	u64_stats_t csum_ok;
	u64_stats_t ownbit_rechecks;
	struct u64_stats_sync syncp;
};

/**
 * struct rtl_tx_stats - one TX queue's counters
 * @packets: frames the device sent (reclaimed)
 * @bytes: their bytes
 * @syncp: for @packets and @bytes, written by the TX completion (NAPI)
 * @drops: DMA mapping failures, and frames not sent when the ring was
 *	freed (close, -L/-G)
 * @stops: queue stopped for lack of descriptors
 * @xmit_syncp: for @drops and @stops, written by ndo_start_xmit under the
 *	queue's xmit lock
 *
 * The two writers may run at once on two CPUs, hence two syncps.
 */
struct rtl_tx_stats {
	u64_stats_t packets, bytes;
	struct u64_stats_sync syncp;
	u64_stats_t drops;
	u64_stats_t stops;
	struct u64_stats_sync xmit_syncp;
};

/**
 * struct rtl_rx_ring - one RX queue's descriptor ring
 * @tp: the device
 * @index: the queue number
 * @ops: the descriptor format this ring was laid out in
 * @desc: @num_desc descriptors of @ops->fmt->size bytes
 * @desc_dma: their bus address
 * @num_desc: ring size, a power of two
 * @cur_rx: next descriptor to look at (free-running, masked with
 *	@num_desc - 1); the poll writes it (WRITE_ONCE), the service timer
 *	reads it (READ_ONCE)
 * @buf: @num_desc RX buffers
 * @buf_dma: their bus addresses
 * @stats: the queue's counters; they stay with the queue number across
 *	ring changes
 */
struct rtl_rx_ring {
	struct rtl8169_private *tp;
	unsigned int index;
	const struct rtl_rx_desc_ops *ops;
	void *desc;
	dma_addr_t desc_dma;
	unsigned int num_desc;
	unsigned int cur_rx;
	void **buf;
	dma_addr_t *buf_dma;
	struct rtl_rx_stats stats;
};

/**
 * struct rtl_tx_ring - one TX queue's descriptor ring
 * @tp: the device
 * @index: the queue number
 * @desc: @num_desc descriptors
 * @desc_dma: their bus address
 * @num_desc: ring size, a power of two
 * @cur_tx: next free descriptor (free-running); ndo_start_xmit writes it
 * @dirty_tx: next to reclaim (free-running); the completion writes it
 * @skb: the frame each descriptor carries, NULL if none
 * @skb_dma: its mapping
 * @stats: the queue's counters
 *
 * @cur_tx and @dirty_tx are written with WRITE_ONCE and read with
 * READ_ONCE by the other side and the service timer.
 */
struct rtl_tx_ring {
	struct rtl8169_private *tp;
	unsigned int index;
	struct rtl_tx_desc *desc;
	dma_addr_t desc_dma;
	unsigned int num_desc;
	unsigned int cur_tx;
	unsigned int dirty_tx;
	struct sk_buff **skb;
	dma_addr_t *skb_dma;
	struct rtl_tx_stats stats;
};

enum rtl_vec_kind {
	RTL_VEC_RX,		/* one RX queue */
	RTL_VEC_TX,		/* one TX queue */
	RTL_VEC_LINK,		/* link change only, no NAPI */
	RTL_VEC_ALL,		/* legacy single vector: RX 0, TX 0, link */
};

/*
 * One interrupt vector and the NAPI instance it schedules.  The slots of
 * tp->qv[] are fixed: qv[q] serves RX queue q, qv[R8169_QV_TX] the TX
 * ring (unless a "ring vector" of the map serves it), qv[R8169_QV_LINK]
 * link changes; with the legacy model qv[0] serves everything.  A slot
 * keeps its NAPI instance (and address) while it is active, so a channel
 * change adds or removes only the RX queues that change.
 */
#define R8169_QV_TX	R8169_MAX_RX_QUEUES
#define R8169_QV_LINK	(R8169_MAX_RX_QUEUES + R8169_MAX_TX_QUEUES)
#define R8169_NQV	(R8169_QV_LINK + 1)

/**
 * struct rtl_q_vector - one interrupt vector and the NAPI instance it schedules
 * @tp: the device
 * @active: in use for the current queue counts
 * @kind: what the vector serves
 * @id: message id = MSI-X entry (V2 model), 0 legacy
 * @irq: Linux irq number, < 0 if none
 * @irq_requested: request_irq() done
 * @napi: the NAPI instance
 * @napi_added: netif_napi_add() done
 * @napi_enabled: napi_enable()d and not disabled since
 * @rx: the RX ring it serves, or NULL
 * @tx: the TX ring it serves, or NULL
 * @name: the irq's name, "eth0-rx-0"
 * @irqs: interrupts taken
 * @wd_pending: the service timer saw work waiting at its last check
 * @wd_progress: descriptors done by then
 * @wd_kicked: the service timer scheduled its NAPI for a stall, and no
 *	descriptor was done since
 * @dim: RX vectors: adaptive moderation (r8169_dim.c)
 * @dim_changes: profiles applied by the DIM work
 */
struct rtl_q_vector {
	struct rtl8169_private *tp;
	bool active;
	enum rtl_vec_kind kind;
	unsigned int id;
	int irq;
	bool irq_requested;
	struct napi_struct napi;
	bool napi_added;
	bool napi_enabled;
	struct rtl_rx_ring *rx;
	struct rtl_tx_ring *tx;
	char name[IFNAMSIZ + 16];
	u64 irqs;
	bool wd_pending;
	u64 wd_progress;
	bool wd_kicked;
	struct dim dim;
	u64 dim_changes;
};

/**
 * struct rtl_rx_desc_ops - field access for one RX descriptor type
 * @fmt: the datasheet row: size, offsets, FS/LS, error bits, and the
 *	register bits that select the type
 * @opts1: the first status word, host order
 * @csum_ok: checksum verdict: true if the device verified TCP/UDP
 * @vlan: VLAN stripped: true and the TCI (host order)
 * @hash: the RSS hash and whether it covered L4 ports; false if none
 * @refill: give the descriptor to the device with buffer @dma of @size
 *	(@eor: the last of the ring)
 */
struct rtl_rx_desc_ops {
	const struct rtl_rx_desc_fmt *fmt;
	u32 (*opts1)(const void *desc);
	bool (*csum_ok)(const void *desc);
	bool (*vlan)(const void *desc, u16 *tci);
	bool (*hash)(const void *desc, u32 *hash, bool *l4);
	void (*refill)(void *desc, dma_addr_t dma, u32 size, bool eor);
};

/**
 * struct rtl_rings - a set of rings, laid out but not yet the device's
 * @rx: the RX rings
 * @tx: the TX rings
 *
 * What open, ethtool -L and -G lay out, or the set just swapped out, to
 * be freed.  In the private struct, not on the stack: with 256 queues it
 * is 35 KB.
 */
struct rtl_rings {
	struct rtl_rx_ring rx[R8169_MAX_RX_QUEUES];
	struct rtl_tx_ring tx[R8169_MAX_TX_QUEUES];
};

/**
 * struct rtl_irq_ops - an interrupt register model
 * @name: "legacy" (IMR/ISR) or the per-message-id model's
 * @handler: the hard interrupt handler of each vector
 * @enable_all: unmask every source the driver uses
 * @disable_all: mask them all
 * @unmask: unmask one vector's sources, after its NAPI completed
 * @mask: mask one vector's sources, before its NAPI runs
 */
struct rtl_irq_ops {
	const char *name;
	irq_handler_t handler;
	void (*enable_all)(struct rtl8169_private *tp);
	void (*disable_all)(struct rtl8169_private *tp);
	void (*unmask)(struct rtl_q_vector *qv);
	void (*mask)(struct rtl_q_vector *qv);
};

/**
 * struct rtl8169_private - the driver's per-device state (netdev_priv)
 * @pdev: the PCI function
 * @dev: the network device
 * @mmio_addr: the register BAR
 * @chip: the chip's row (src/hw/rtl_chips.h)
 * @map: its interrupt message-id map
 * @irq_ops: the interrupt register model in use
 * @rx_ops: the RX descriptor format in use
 * @v2_irq: the per-message-id model is in use
 * @link_irq: link changes have a vector (else the service timer polls the
 *	link)
 * @nvec: vectors allocated
 * @max_rx_queues: RX queues the vectors allow
 * @num_rx_queues: RX queues in use (ethtool -L)
 * @num_tx_queues: TX queues in use
 * @rx_ring_size: RX descriptors per ring (ethtool -G), a power of two
 * @tx_ring_size: TX descriptors per ring, a power of two
 * @rx_ring: the RX rings, one per possible queue; the counters of queues
 *	not in use stay here (the qstats base)
 * @tx_ring: the TX rings
 * @spare: open/close/reconfigure's other set of rings; they run under
 *	RTNL, one at a time
 * @qv: the vector slots (see R8169_QV_TX, R8169_QV_LINK)
 * @nqv: active slots
 * @legacy_mask: IntrMask_8125 value when enabled (legacy model)
 * @rss_on: RSS in use (two RX queues or more)
 * @rss_key: the RSS key
 * @rss_indir: the indirection table
 * @rss_indir_size: its size: R8169_RSS_INDIR_SIZE, or a what-if row's
 *	larger table
 * @rss_ht: RTL_RSS_CTRL_* hash-type bits
 * @rx_usecs: RX moderation, INT_MITI_V2 units per queue (ethtool -C)
 * @tx_usecs: TX moderation, the same units
 * @rx_frames: RX frame threshold, units of 4
 * @adaptive_rx: DIM moves each RX queue's timer
 * @recheck_ownbit: the row's RTL_QUIRK_OWNBIT_ERRATUM
 * @mac: the station address
 * @link_changes: carrier changes seen
 * @watchdog: the service timer: lost interrupts (and the link, when it has
 *	no vector)
 * @watchdog_kicks: stalled vectors whose NAPI the service timer scheduled
 * @reset_work: the reset task: chip reset and rings rebuilt, under RTNL
 * @tx_timeouts: TX queues the stack's watchdog found stuck (ndo_tx_timeout)
 * @resets: resets the reset task completed
 * @reset_failures: resets that could not get new rings (the old ones stay;
 *	the next stall or timeout tries again)
 * @tally: the block the chip dumps its tally counters into
 * @tally_dma: its bus address
 * @tally_reset_done: the tally was zeroed, once, at the first open
 */
struct rtl8169_private {
	struct pci_dev *pdev;
	struct net_device *dev;
	void __iomem *mmio_addr;
	const struct rtl_chip_info *chip;
	const struct rtl_irq_map *map;
	const struct rtl_irq_ops *irq_ops;
	const struct rtl_rx_desc_ops *rx_ops;
	bool v2_irq;
	bool link_irq;
	unsigned int nvec;
	unsigned int max_rx_queues;
	unsigned int num_rx_queues;
	unsigned int num_tx_queues;
	unsigned int rx_ring_size, tx_ring_size;
	struct rtl_rx_ring rx_ring[R8169_MAX_RX_QUEUES];
	struct rtl_tx_ring tx_ring[R8169_MAX_TX_QUEUES];
	struct rtl_rings spare;
	struct rtl_q_vector qv[R8169_NQV];
	unsigned int nqv;
	u32 legacy_mask;
	bool rss_on;
	u8 rss_key[R8169_RSS_KEY_SIZE];
	u8 rss_indir[R8169_RSS_INDIR_MAX];
	unsigned int rss_indir_size;
	u32 rss_ht;
	u32 rx_usecs, tx_usecs;
	u32 rx_frames;
	bool adaptive_rx;
	bool recheck_ownbit;
	u8 mac[ETH_ALEN];
	u64 link_changes;
	struct timer_list watchdog;
	u64 watchdog_kicks;
	struct work_struct reset_work;
	u64 tx_timeouts;
	u64 resets;
	u64 reset_failures;
	struct rtl_tally *tally;
	dma_addr_t tally_dma;
	bool tally_reset_done;
};

/**
 * struct rtl_cfg - a datapath configuration: what open and ethtool -L/-G set up
 * @num_rx_queues: RX queues
 * @rx_ring_size: descriptors per RX ring
 * @tx_ring_size: descriptors per TX ring
 */
struct rtl_cfg {
	unsigned int num_rx_queues;
	unsigned int rx_ring_size, tx_ring_size;
};

/* ---- r8169_main.c ---- */
void rtl_hw_start(struct rtl8169_private *tp);
int rtl_open(struct net_device *dev);
int rtl_close(struct net_device *dev);
/* Switch a running interface to @cfg: the new rings (and vectors) are
 * allocated first, then the device is quiesced, the rings swapped and the
 * old ones freed.  On failure returns -errno with the old configuration
 * intact and running.
 */
int rtl_reconfigure(struct rtl8169_private *tp, const struct rtl_cfg *cfg);
void rtl_cfg_current(const struct rtl8169_private *tp, struct rtl_cfg *cfg);

/* ---- r8169_irq.c ---- */
int rtl_alloc_vectors(struct rtl8169_private *tp);
void rtl_free_vectors(struct rtl8169_private *tp);
/* Activate the vector slots @nrx RX queues need that are not active yet
 * (NAPI added, IRQ requested; NAPI stays disabled).  On failure those it
 * activated are released again and -errno returned.
 */
int rtl_q_vectors_up(struct rtl8169_private *tp, unsigned int nrx);
/* Release the RX slots from @nrx on (all slots: @nrx 0 and @all). */
void rtl_q_vectors_down(struct rtl8169_private *tp, unsigned int nrx, bool all);
void rtl_queues_set_napi(struct rtl8169_private *tp, bool set);
void rtl_napi_enable_all(struct rtl8169_private *tp);
void rtl_napi_disable_all(struct rtl8169_private *tp);
void rtl_sync_irqs(struct rtl8169_private *tp);
void rtl_link_check(struct rtl8169_private *tp);
void rtl_phy_power_up(struct rtl8169_private *tp);
/* The service timer: every R8169_WATCHDOG_PERIOD while up. */
#define R8169_WATCHDOG_PERIOD	HZ
void rtl_watchdog(struct timer_list *t);
/* The stack's TX watchdog limit: mainline r8169's RTL8169_TX_TIMEOUT. */
#define R8169_TX_TIMEOUT	(6 * HZ)
void rtl_tx_timeout(struct net_device *dev, unsigned int txqueue);
void rtl_reset_task(struct work_struct *work);

/* ---- r8169_rx.c ---- */
const struct rtl_rx_desc_ops *rtl_rx_desc_ops_for(const struct rtl_rx_desc_fmt *fmt);
/* The RX descriptor format for @nrx queues: the chip's RSS format, or
 * type 1 with RSS off.
 */
const struct rtl_rx_desc_ops *rtl_rx_ops_for_queues(const struct rtl8169_private *tp,
						    unsigned int nrx);
int rtl_rx_ring_alloc(struct rtl8169_private *tp, struct rtl_rx_ring *ring,
		      const struct rtl_rx_desc_ops *ops, unsigned int size);
void rtl_rx_ring_free(struct rtl8169_private *tp, struct rtl_rx_ring *ring);
/* Count what the device completed and nobody polled (device stopped,
 * NAPI disabled), before the ring is freed.
 */
void rtl_rx_ring_flush(struct rtl_rx_ring *ring);
int rtl_rx(struct rtl_rx_ring *ring, struct napi_struct *napi, int budget);
/* Whether the device completed a descriptor no poll took yet. */
bool rtl_rx_pending(struct rtl_rx_ring *ring);

/* ---- r8169_tx.c ---- */
int rtl_tx_ring_alloc(struct rtl8169_private *tp, struct rtl_tx_ring *ring,
		      unsigned int size);
void rtl_tx_ring_free(struct rtl8169_private *tp, struct rtl_tx_ring *ring);
/* Reclaim what the device sent and drop (count) the rest; the device is
 * stopped.
 */
void rtl_tx_ring_flush(struct rtl_tx_ring *ring);
netdev_tx_t rtl_start_xmit(struct sk_buff *skb, struct net_device *dev);
void rtl_tx_clean(struct rtl_tx_ring *ring, int budget);

/* ---- r8169_rss.c ---- */
void rtl_rss_init(struct rtl8169_private *tp);
void rtl_rss_write(struct rtl8169_private *tp);

/* ---- r8169_ethtool.c ---- */
void rtl_set_ethtool_ops(struct net_device *dev);

/**
 * struct rtl_rx_snap - a copy of one RX queue's counters
 * @packets: &struct rtl_rx_stats
 * @bytes: &struct rtl_rx_stats
 * @drops: &struct rtl_rx_stats
 * @errors: &struct rtl_rx_stats
 * @alloc_fail: &struct rtl_rx_stats
 * @length: &struct rtl_rx_stats
 * @flushed: &struct rtl_rx_stats
 * @csum_ok: &struct rtl_rx_stats
 * @ownbit_rechecks: &struct rtl_rx_stats
 */
struct rtl_rx_snap {
	u64 packets, bytes, drops, errors, alloc_fail, length, flushed;
	u64 csum_ok, ownbit_rechecks;
};

/**
 * struct rtl_tx_snap - a copy of one TX queue's counters
 * @packets: &struct rtl_tx_stats
 * @bytes: &struct rtl_tx_stats
 * @drops: &struct rtl_tx_stats
 * @stops: &struct rtl_tx_stats
 */
struct rtl_tx_snap {
	u64 packets, bytes, drops, stops;
};

void rtl_rx_stats_fetch(const struct rtl_rx_ring *ring, struct rtl_rx_snap *s);
void rtl_tx_stats_fetch(const struct rtl_tx_ring *ring, struct rtl_tx_snap *s);
void rtl_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats);
void rtl_coalesce_write(struct rtl8169_private *tp);
/* Tally command @cmd (RTL_COUNTER_DUMP into tp->tally, RTL_COUNTER_RESET)
 * and the wait for the chip to finish it: 0 or -ETIMEDOUT.
 */
int rtl_tally_cmd(struct rtl8169_private *tp, u32 cmd);

/* ---- r8169_dim.c ---- */
void rtl_dim_init(struct rtl_q_vector *qv);
void rtl_dim_sample(struct rtl_q_vector *qv);
void rtl_dim_stop(struct rtl_q_vector *qv);
struct rtl_q_vector *rtl_rx_qv(struct rtl8169_private *tp, unsigned int q);
u32 rtl_rx_timer_units(struct rtl8169_private *tp, unsigned int q);

/* @usecs in INT_MITI_V2 units, rounded to the nearest (unbounded). */
static inline u64 rtl_usecs_to_units(const struct rtl8169_private *tp, u32 usecs)
{
	u32 unit = RTL_INT_MITI_UNIT_NS(tp->chip->miti->tick_div);

	return ((u64)usecs * 1000 + unit / 2) / unit;
}

/* Register helpers. */
static inline u8 rtl_r8(struct rtl8169_private *tp, unsigned int reg)
{
	return readb(tp->mmio_addr + reg);
}

static inline u16 rtl_r16(struct rtl8169_private *tp, unsigned int reg)
{
	return readw(tp->mmio_addr + reg);
}

static inline u32 rtl_r32(struct rtl8169_private *tp, unsigned int reg)
{
	return readl(tp->mmio_addr + reg);
}

static inline void rtl_w8(struct rtl8169_private *tp, unsigned int reg, u8 v)
{
	writeb(v, tp->mmio_addr + reg);
}

static inline void rtl_w16(struct rtl8169_private *tp, unsigned int reg, u16 v)
{
	writew(v, tp->mmio_addr + reg);
}

static inline void rtl_w32(struct rtl8169_private *tp, unsigned int reg, u32 v)
{
	writel(v, tp->mmio_addr + reg);
}

#endif /* RXSCALE_DRV_R8169_H */
