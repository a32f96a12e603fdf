/* SPDX-License-Identifier: MIT */
/*
 * r8152.h - the r8152-style driver for the RTL8157/RTL8159 USB adapters:
 * vendor control transfers for registers (OCP access with byte enables),
 * RX aggregation over 10 bulk-in URBs parsed in one NAPI poll, TX
 * aggregation into 4 bulk-out buffers filled by a tasklet, the interrupt
 * URB for link, the device's RX aggregation timer as ethtool's rx-usecs.
 *
 * The driver sees only the datasheet (src/hw: rtl_chips.h rows,
 * rtl_usb_regs.h) and the kernel-like API (src/kern/usb.h, netdevice.h).
 * It never calls the device model or the simulated host controller.
 *
 * Hardware facts come from ../shared/research/usb-and-coalescing.md (cited
 * as "research sN"); the code is written for rxscale.
 *
 * How a test or the CLI binds it to a device (tests/test_r8152.c):
 *
 *     kern_usb_dev_init(&udev, &intf, <the model's USB slot>, "2-1");
 *     rc = kern_usb_probe(kmod_r8152_usb_driver, &intf);   0 or -errno
 *     dev = r8152_netdev(&intf);                     "eth0"
 *     dev_open(dev, NULL);  ...  kern_usb_disconnect(kmod_r8152_usb_driver, &intf);
 *
 * There are no module parameters: the RX aggregation timer starts at the
 * chip row's default and ethtool -C rx-usecs changes it.
 */
#ifndef RXSCALE_DRV_R8152_H
#define RXSCALE_DRV_R8152_H

#include <linux/dim.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <linux/usb.h>
#include <linux/workqueue.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_usb_regs.h"

/* KBUILD_MODNAME: "rxscale_r8152" as a kernel module (kmod/), "r8152" in
 * the simulator (src/drv/meson.build).
 */
#define R8152_DRV_NAME		KBUILD_MODNAME
/* ethtool -i's version: mainline r8152 sets its own DRIVER_VERSION string
 * in get_drvinfo (drivers/net/usb/r8152.c through 6.19; a January 2026
 * net-next patch, "net: usb: remove unnecessary get_drvinfo code and driver
 * versions", drops it), while r8169 leaves it empty and the ethtool core
 * fills in the kernel release.  So the two drivers differ here on purpose.
 */
#define R8152_DRV_VERSION	"rxscale-1"

/* URBs and buffers (research s1.1) */
#define RTL8152_MAX_RX		10	/* bulk-in URBs kept in flight */
#define RTL8152_MAX_TX		4	/* bulk-out aggregation buffers */
#define R8152_AGG_BUF_SZ	16384	/* bytes per bulk-out buffer */
/* Endpoints, the interrupt URB's size and interval: rtl_usb_regs.h. */
/* ethtool -G rx: URBs in flight, 2..RTL8152_MAX_RX (our own range: the
 * mainline pool of spare buffers, research s1.1, is not modelled).
 */
#define R8152_RX_PENDING_MIN	2
/* rx_transfer_hist buckets (struct r8152_rx_stats) */
#define R8152_RX_HIST		6

/**
 * struct rx_agg - one bulk-in URB and its buffer
 * @tp: the device
 * @urb: the URB
 * @buffer: rx_buf_sz bytes
 * @next: the link on rx_done
 * @in_flight: submitted, not given back
 */
struct rx_agg {
	struct r8152 *tp;
	struct urb *urb;
	u8 *buffer;
	struct rx_agg *next;
	bool in_flight;
};

/**
 * struct tx_agg - one bulk-out aggregation buffer
 * @tp: the device
 * @urb: the URB
 * @head: R8152_AGG_BUF_SZ bytes
 * @skb_num: frames packed in it
 * @skb_len: their bytes
 * @next: the link on tx_free
 *
 * The skbs are copied in and freed when it is filled; the counts stay for
 * the completion.
 */
struct tx_agg {
	struct r8152 *tp;
	struct urb *urb;
	u8 *head;
	u32 skb_num, skb_len;
	struct tx_agg *next;
};

/**
 * struct r8152_rx_stats - the receive counters the NAPI poll writes
 * @packets: frames handed to the stack
 * @bytes: their bytes, FCS excluded
 * @drops: frames not delivered, the sum of the four reasons below
 * @alloc_fail: of which: no skb
 * @length: of which: the frame overruns its transfer
 * @runt: of which: a descriptor length below ETH_ZLEN
 * @purged: of which: held for the next poll, freed by close
 * @csum_ok: frames given CHECKSUM_UNNECESSARY
 * @transfers: bulk-in transfers parsed
 * @transfer_frames: frames found in them
 * @transfer_frames_max: most frames in one transfer
 * @queued: frames held over to the next poll
 * @transfer_hist: transfers by the frames in them: 1, 2-4, 5-8, 9-16,
 *	17-32, more
 * @syncp: the poll is the one writer (close writes with NAPI disabled)
 *
 * Every frame the device put in a bulk-in transfer ends in @packets or in
 * exactly one of the drop reasons.
 */
struct r8152_rx_stats {
	u64_stats_t packets, bytes;
	u64_stats_t drops;
	u64_stats_t alloc_fail;
	u64_stats_t length;
	u64_stats_t runt;
	u64_stats_t purged;
	u64_stats_t csum_ok;
	u64_stats_t transfers;
	u64_stats_t transfer_frames;
	u64_stats_t transfer_frames_max;
	u64_stats_t queued;
	u64_stats_t transfer_hist[R8152_RX_HIST];
	struct u64_stats_sync syncp;
};

/**
 * struct r8152_rx_urb_stats - what the bulk-in completions count
 * @short_transfers: completed with fewer than ETH_ZLEN bytes
 * @urb_errors: completions with an error status
 * @syncp: the completions are the one writer (one endpoint's givebacks
 *	run one at a time)
 */
struct r8152_rx_urb_stats {
	u64_stats_t short_transfers;
	u64_stats_t urb_errors;
	struct u64_stats_sync syncp;
};

/**
 * struct r8152_tx_stats - the transmit counters, by writer
 * @packets: frames the device took (bulk-out transfers completed)
 * @bytes: their bytes
 * @transfers: bulk-out transfers completed
 * @urb_errors: bulk-out completions with an error status
 * @drops: frames of failed transfers, and those close freed unsent
 * @syncp: for the five above: the bulk-out completion, and close
 * @tl_urb_errors: submissions the TX tasklet saw fail
 * @tl_drops: the frames of those buffers
 * @tl_syncp: for the two above: the TX tasklet
 * @xmit_drops: frames ndo_start_xmit refused (too big)
 * @stops: queue stopped: no free buffer
 * @xmit_syncp: for the two above: ndo_start_xmit, under the queue's xmit
 *	lock
 *
 * The three writers may run at once on three CPUs, hence three syncps.
 */
struct r8152_tx_stats {
	u64_stats_t packets, bytes;
	u64_stats_t transfers;
	u64_stats_t urb_errors;
	u64_stats_t drops;
	struct u64_stats_sync syncp;
	u64_stats_t tl_urb_errors;
	u64_stats_t tl_drops;
	struct u64_stats_sync tl_syncp;
	u64_stats_t xmit_drops;
	u64_stats_t stops;
	struct u64_stats_sync xmit_syncp;
};

/**
 * struct r8152_intr_stats - what the interrupt URB's completion counts
 * @intr: completions with a status
 * @link_changes: link up or down
 * @syncp: the completion is the one writer
 */
struct r8152_intr_stats {
	u64_stats_t intr;
	u64_stats_t link_changes;
	struct u64_stats_sync syncp;
};

/**
 * struct r8152_stats - a copy of every driver counter (ethtool -S)
 * @rx_packets: &struct r8152_rx_stats
 * @rx_bytes: &struct r8152_rx_stats
 * @rx_drops: the sum of rx_alloc_fail, rx_length, rx_runt and rx_purged
 * @rx_alloc_fail: &struct r8152_rx_stats
 * @rx_length: &struct r8152_rx_stats
 * @rx_runt: &struct r8152_rx_stats
 * @rx_purged: &struct r8152_rx_stats
 * @rx_csum_ok: &struct r8152_rx_stats
 * @rx_transfers: &struct r8152_rx_stats
 * @rx_transfer_frames: &struct r8152_rx_stats
 * @rx_transfer_frames_max: &struct r8152_rx_stats
 * @rx_short_transfers: &struct r8152_rx_urb_stats
 * @rx_queued: &struct r8152_rx_stats
 * @rx_urb_errors: &struct r8152_rx_urb_stats
 * @tx_packets: &struct r8152_tx_stats
 * @tx_bytes: &struct r8152_tx_stats
 * @tx_drops: every writer's drops together
 * @tx_transfers: &struct r8152_tx_stats
 * @tx_stops: &struct r8152_tx_stats
 * @tx_urb_errors: the completions' and the tasklet's together
 * @intr: &struct r8152_intr_stats
 * @link_changes: &struct r8152_intr_stats
 * @rx_transfer_hist: &struct r8152_rx_stats
 *
 * Filled by r8152_stats_fetch().
 */
struct r8152_stats {
	u64 rx_packets, rx_bytes;
	u64 rx_drops;
	u64 rx_alloc_fail;
	u64 rx_length;
	u64 rx_runt;
	u64 rx_purged;
	u64 rx_csum_ok;
	u64 rx_transfers;
	u64 rx_transfer_frames;
	u64 rx_transfer_frames_max;
	u64 rx_short_transfers;
	u64 rx_queued;
	u64 rx_urb_errors;
	u64 tx_packets, tx_bytes;
	u64 tx_drops;
	u64 tx_transfers;
	u64 tx_stops;
	u64 tx_urb_errors;
	u64 intr;
	u64 link_changes;
	u64 rx_transfer_hist[R8152_RX_HIST];
};

/**
 * struct r8152 - the driver's per-device state (netdev_priv)
 * @udev: the USB device
 * @intf: the interface the driver is bound to
 * @netdev: the network device
 * @chip: the adapter's row (src/hw/rtl_chips.h)
 * @napi: the one NAPI instance: RX parsing and delivery
 * @version_word: what probe read (PLA_TCR0 on K)
 * @rx_buf_sz: bytes per bulk-in buffer (the row's)
 * @rx_pending: bulk-in URBs in use, at most RTL8152_MAX_RX (ethtool -G)
 * @coalesce: the RX aggregation timer, ns (the static value, ethtool -C)
 * @adaptive_rx: DIM moves the timer (r8152_dim.c)
 * @rx_dim: DIM's state
 * @rx_dim_changes: profiles the DIM work applied
 * @mitigation_off: false (probe's choice): leave USB 0xcf04 as the device
 *	resets it ("mitigation on", what the merged RTL8157/9 code does at
 *	init); true: clear its bits 0, 1, 2 and 7 at open, as the dropped
 *	RFC patch "r8152: Add irq mitigation for RTL8157/9" did (research
 *	s2, seeds/002).  No module parameter sets it: the simulator's
 *	usb.mitigation = off does, between probe and open
 * @running: URBs allocated and submitted
 * @rx_agg: the bulk-in URBs
 * @rx_lock: guards @rx_done and @rx_done_tail: URB completions add to the
 *	list (any CPU, BH or hardirq), the poll takes from it
 * @rx_done: transfers given back, to parse
 * @rx_done_tail: the last of them
 * @rx_queue: frames parsed beyond the budget (the poll's alone: no lock)
 * @tx_agg: the bulk-out aggregation buffers
 * @tx_lock: guards @tx_free: completions give buffers back, the tasklet
 *	takes them
 * @tx_free: buffers not in flight
 * @tx_qlen: full-size frames per buffer
 * @tx_queue: accepted by ndo_start_xmit, not yet in a buffer; its own
 *	lock (xmit and the TX tasklet run on different CPUs)
 * @tx_tl: the TX bottom half, which fills and submits buffers
 * @intr_urb: the interrupt URB (link)
 * @intr_buff: its buffer
 * @link_up: the link as the last interrupt status told it
 * @rx_stats: the poll's counters
 * @rx_urb_stats: the bulk-in completions' counters
 * @tx_stats: the transmit counters
 * @intr_stats: the interrupt URB's counters
 */
struct r8152 {
	struct usb_device *udev;
	struct usb_interface *intf;
	struct net_device *netdev;
	const struct rtl_usb_chip_info *chip;
	struct napi_struct napi;
	u16 version_word;
	u32 rx_buf_sz;
	unsigned int rx_pending;
	u32 coalesce;
	bool adaptive_rx;
	struct dim rx_dim;
	u64 rx_dim_changes;
	bool mitigation_off;
	bool running;
	struct rx_agg rx_agg[RTL8152_MAX_RX];
	spinlock_t rx_lock;		/* rx_done, rx_done_tail */
	struct rx_agg *rx_done, *rx_done_tail;
	struct sk_buff_head rx_queue;
	struct tx_agg tx_agg[RTL8152_MAX_TX];
	spinlock_t tx_lock;		/* tx_free */
	struct tx_agg *tx_free;
	unsigned int tx_qlen;
	struct sk_buff_head tx_queue;
	struct tasklet_struct tx_tl;
	struct urb *intr_urb;
	u8 *intr_buff;
	bool link_up;
	struct r8152_rx_stats rx_stats;
	struct r8152_rx_urb_stats rx_urb_stats;
	struct r8152_tx_stats tx_stats;
	struct r8152_intr_stats intr_stats;
};

/* The net_device a probe created on @intf (NULL if none). */
struct net_device *r8152_netdev(struct usb_interface *intf);

/* ---- r8152_main.c: register access (research s1; K generic_ocp_*) ---- */

/*
 * ocp_read_word()/ocp_write_word() and the byte/dword variants: one vendor
 * control transfer to a register of MCU @type (RTLU_MCU_TYPE_PLA or
 * RTLU_MCU_TYPE_USB) at byte address @index.  The transfer is a dword at the
 * 4-byte-aligned address with byte enables selecting the bytes.  Reads
 * return the value (all ones if the transfer failed); writes return 0 or
 * -errno from usb_control_msg().
 */
u32 ocp_read_dword(struct r8152 *tp, u16 type, u16 index);
/* @size bytes (a multiple of 4) at 4-aligned @index of MCU @type into
 * @data, in requests of up to RTLU_CTRL_MAX bytes.  0 or -errno; after a
 * failed request the bytes not read are all ones.
 */
int generic_ocp_read(struct r8152 *tp, u16 index, u16 size, void *data, u16 type);
u16 ocp_read_word(struct r8152 *tp, u16 type, u16 index);
u8 ocp_read_byte(struct r8152 *tp, u16 type, u16 index);
int ocp_write_dword(struct r8152 *tp, u16 type, u16 index, u32 data);
int ocp_write_word(struct r8152 *tp, u16 type, u16 index, u16 data);
int ocp_write_byte(struct r8152 *tp, u16 type, u16 index, u8 data);

/* Write USB_RX_EXTRA_AGGR_TMR from r8152_rx_timer_ns() (ns / 8).  0 or
 * -errno.
 */
int r8152_write_coalesce(struct r8152 *tp);

/* ndo_open/ndo_stop, also called by ethtool ops that rebuild the URBs */
int r8152_open(struct net_device *dev);
int r8152_close(struct net_device *dev);

/* ---- r8152_rx.c ---- */
int r8152_rx_alloc(struct r8152 *tp);		/* 0 or -ENOMEM */
void r8152_rx_free(struct r8152 *tp);
int r8152_rx_start(struct r8152 *tp);		/* submit; 0 or -errno */
void r8152_rx_stop(struct r8152 *tp);		/* kill, purge queues */
/* Change the bulk-in URBs in flight on a running interface (ethtool -G):
 * 0, or -errno with the old count kept.
 */
int r8152_rx_set_pending(struct r8152 *tp, unsigned int n);
/* Parse what completed and deliver up to @budget frames; returns them. */
int r8152_rx_bottom(struct r8152 *tp, int budget);
int r8152_poll(struct napi_struct *napi, int budget);

/* ---- r8152_tx.c ---- */
int r8152_tx_alloc(struct r8152 *tp);
void r8152_tx_free(struct r8152 *tp);
void r8152_tx_stop(struct r8152 *tp);		/* kill, free pending skbs */
netdev_tx_t r8152_start_xmit(struct sk_buff *skb, struct net_device *dev);
/* The TX tasklet: fill free aggregation buffers from tx_queue and submit
 * them.
 */
void r8152_tx_bottom(struct tasklet_struct *t);

/* ---- r8152_ethtool.c ---- */
void r8152_set_ethtool_ops(struct net_device *dev);
void r8152_stats_fetch(const struct r8152 *tp, struct r8152_stats *s);
void r8152_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *stats);

/* ---- r8152_dim.c: adaptive-rx ---- */
void r8152_dim_init(struct r8152 *tp);
void r8152_dim_sample(struct r8152 *tp);	/* the poll completed */
/* No work runs after it; true if a profile change was pending (and is
 * now dropped).
 */
bool r8152_dim_stop(struct r8152 *tp);
u32 r8152_rx_timer_ns(const struct r8152 *tp);

#endif /* RXSCALE_DRV_R8152_H */
