/* SPDX-License-Identifier: MIT */
/*
 * rtlu.h - model of the RTL8157 / RTL8159 USB Ethernet adapters (r8152
 * family): the device half of the USB seam (DESIGN.md s2).
 *
 * The model owns one device slot on the platform's xHCI model (plat_usb.h)
 * with these endpoints (rtl_usb_regs.h):
 *  - ep0 control: vendor requests read and write the PLA and USB OCP
 *    register spaces (RTLU_REQ_*, byte enables on writes);
 *  - ep1 bulk-in: RX aggregation.  Frames from the Ethernet wire are
 *    packed into the TD at the head of the ring, each as a 16-byte v2
 *    descriptor (length incl. FCS in opts1 31:17) plus frame plus FCS,
 *    16-byte aligned.  A transfer ends when
 *      (a) the filled bytes reach USB_RX_EARLY_SIZE * 16,
 *      (b) USB_RX_EXTRA_AGGR_TMR * 8 ns passed since its first frame,
 *      (c) the next frame does not fit in the TD's buffer (it starts the
 *          next transfer), or
 *      (d) "mitigation off" only: USB_RX_EARLY_TIMEOUT * 8 ns (640 ns)
 *          passed since its last frame,
 *    or, with USB_USB_CTRL.RX_AGG_DISABLE set, after every frame.  With no
 *    TD queued frames wait in a bounded RX FIFO (rx_fifo_bytes) and are
 *    dropped beyond it.  Moving bytes to the host takes USB link time
 *    (plat_usb), so a slow link backs the FIFO up;
 *  - ep2 bulk-out: a TX aggregation buffer of v2 TX descriptors + frames;
 *    each frame goes on the wire at the Ethernet line rate (chip row
 *    speed, or the link speed set); a malformed buffer is a counted guest
 *    error (its remaining frames are dropped), never a crash;
 *  - ep3 interrupt-in: a 2-byte status with INTR_LINK, sent when the link
 *    state changes (and on the first TD queued after power-on).
 *
 * The 0xcf04 "mitigation" bits (0, 1, 2, 7; meaning unknown, research
 * usb-and-coalescing.md s2): the model's hypothesis is rule (d) above.
 * Set (power-on default) = "mitigation on": rules (a)-(c) only.  Any of
 * them clear = "mitigation off": (d) too, so transfers end 640 ns after
 * the last frame -- many more, smaller transfers and xHCI events; ping
 * latency barely moves (IMOD caps interrupts) while per-transfer host
 * work (giveback, resubmit, parse) rises.  rtlu_stats.mitigation says
 * which mode is active.
 *
 * Hardware facts cite rtl_usb_regs.h / rtl_chips.c (and through them the
 * research file); modelling choices are listed in docs/model.md.  Units:
 * times in ns (sim_time_t), sizes in bytes, errors -errno.  A
 * misprogramming host is forgiven: unknown registers read as zero and
 * ignore writes (not an error: the driver pokes many undocumented ones),
 * bad requests stall, bad TX buffers are dropped -- each counted in
 * rtlu_stats.guest_errors with the last message kept (rtlu_last_error()).
 *
 * Accounting (exact, at any instant):
 *   rx_offered = rx_delivered + rx_inflight + rtlu_rx_dropped()
 * where rx_delivered counts frames in bulk-in transfers that completed
 * (handed to plat_usb_in_complete), rx_inflight the frames in the MAC
 * pipeline, in the RX FIFO or in the transfer being filled, and every
 * dropped frame is in exactly one drop counter.
 */
#ifndef RXSCALE_MODEL_RTLU_H
#define RXSCALE_MODEL_RTLU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_usb_regs.h"
#include "plat/plat_mem.h"
#include "plat/plat_usb.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

struct rtlu_dev;

/* Fault knobs: read and changed at any time through rtlu_faults(). */
struct rtlu_faults {
	unsigned ctrl_stall_next;       /* STALL the next N control requests */
	bool intr_silent;               /* never complete interrupt TDs */
	bool rx_stuck;                  /* never end a bulk-in transfer by
	                                 * timer (only size/full) */
	/* every Nth bulk-in transfer ends in a transaction error (-EPROTO,
	 * what xHCI reports when a transaction failed its retries): its
	 * frames are lost, counted in rx_xfer_error (0 = off) */
	unsigned rx_xfer_error_every;
	unsigned rx_xfer_error_next;    /* the same for the next N transfers */
};

/* Device parameters; start from rtlu_params_default(). */
struct rtlu_params {
	uint8_t mac[6];                 /* PLA_IDR at power-on */
	bool link_up;                   /* link state at power-on */
	uint32_t link_mbps;             /* 0 = the chip row's speed */
	/* A frame fully received at the MAC at t is in the RX FIFO at
	 * t + rx_proc_ns. */
	sim_time_t rx_proc_ns;          /* 300 */
	uint32_t rx_fifo_bytes;         /* FIFO capacity (desc+frame+FCS,
	                                 * aligned), 65536 [I] */
	/* Write each frame's real CRC-32 after it (else four zero bytes,
	 * as rtlm_params.rx_fcs). */
	bool rx_fcs;
	/* A bulk-out TD takes tx_proc_ns from its data crossing the link to
	 * its first frame starting on the wire. */
	sim_time_t tx_proc_ns;          /* 200 */
	uint32_t tx_fifo_bytes;         /* frames waiting for the wire before
	                                 * bulk-out NAKs, 65536 [I] */
	/* The adapter's crystal (sim_clock.h): its aggregation and early
	 * timers and its transmitter's bit time are in its own time. */
	struct sim_clock clock;
	struct rtlu_faults faults;
};

/* Why bulk-in transfers ended. */
enum rtlu_rx_end {
	RTLU_END_SIZE,                  /* (a) early size reached */
	RTLU_END_TIMER,                 /* (b) aggregation timer */
	RTLU_END_FULL,                  /* (c) next frame did not fit */
	RTLU_END_EARLY,                 /* (d) early timeout, mitigation off */
	RTLU_END_SINGLE,                /* RX_AGG_DISABLE: one frame */
	RTLU_END_NR
};

struct rtlu_stats {
	uint64_t guest_errors;
	bool mitigation;                /* 0xcf04 bits all set: "on" */
	/* RX accounting: offered = delivered + inflight + rtlu_rx_dropped() */
	uint64_t rx_offered;
	uint64_t rx_delivered;          /* frames in completed transfers */
	uint64_t rx_delivered_bytes;    /* frame bytes incl. FCS */
	uint64_t rx_inflight;
	/* drops, each frame in exactly one */
	uint64_t rx_link_down;          /* arrived with the link down */
	uint64_t rx_disabled;           /* PLA_CR RE clear */
	uint64_t rx_filtered;           /* PLA_RCR address filter */
	uint64_t rx_too_long;           /* over 16383 bytes, or never fits a
					 * transfer buffer */
	uint64_t rx_runt;               /* shorter than ETH_ZLEN (60 bytes) */
	uint64_t rx_fifo_over;          /* RX FIFO full */
	uint64_t rx_cancelled;          /* in a transfer the host cancelled */
	uint64_t rx_xfer_error;         /* in a transfer that ended in error
					 * (faults.rx_xfer_error_every) */
	uint64_t rx_dma_err;            /* TD buffer not DMA-visible */
	uint64_t rx_reset;              /* in flight at a PLA_CR reset */
	/* bulk-in transfers */
	uint64_t rx_transfers;          /* completed */
	uint64_t rx_end[RTLU_END_NR];   /* by reason */
	uint64_t rx_xfer_bytes;         /* actual_length summed */
	uint32_t rx_fifo_max;           /* high-water mark, bytes */
	/* bulk-out */
	uint64_t tx_transfers;          /* TDs consumed */
	uint64_t tx_frames;             /* put on the wire */
	uint64_t tx_bytes;              /* frame bytes on the wire */
	uint64_t tx_bad_buf;            /* malformed TX buffers */
	uint64_t tx_dropped;            /* frames lost to a bad buffer, TE
	                                 * clear or link down */
	uint64_t tx_naks;               /* bulk-out NAKs (TX FIFO full) */
	/* interrupt endpoint and control */
	uint64_t intr_sent;
	uint64_t ctrl_reads, ctrl_writes, ctrl_stalls;
	uint64_t resets;                /* PLA_CR RST */
};

/* Defaults: MAC 00:e0:4c:68:00:01, link up at the chip speed,
 * rx_proc_ns 300, rx_fifo_bytes 65536, rx_fcs on, tx_proc_ns 200,
 * tx_fifo_bytes 65536, faults off. */
void rtlu_params_default(struct rtlu_params *p);

/**
 * rtlu_create() - power on an adapter and plug it into @hc.
 * @host: the simulated host (its engine schedules the model's events)
 * @mem:  host memory (the controller DMAs into it)
 * @hc:   the xHCI model the device attaches to
 * @chip: the chip row (rtl_usb_chips[]): version word, speed, buffers
 * @p:    parameters, copied; NULL = rtlu_params_default()
 *
 * Attaches a slot @chip->vendor:@chip->product with endpoints 1 IN bulk,
 * 2 OUT bulk, 3 IN interrupt, registers at their reset values.
 * Return: the device, or NULL (bad arguments, no free slot, no memory).
 */
struct rtlu_dev *rtlu_create(struct sim_host *host, struct plat_mem *mem,
			     struct plat_usb_hc *hc,
			     const struct rtl_usb_chip_info *chip,
			     const struct rtlu_params *p);

/** rtlu_destroy() - cancel the model's events, detach the slot, free. */
void rtlu_destroy(struct rtlu_dev *dev);

/** rtlu_usb() - the device's slot (for kern_usb_dev_init()). */
struct plat_usb_dev *rtlu_usb(struct rtlu_dev *dev);

/** rtlu_chip() - the chip row it was created with. */
const struct rtl_usb_chip_info *rtlu_chip(const struct rtlu_dev *dev);

/**
 * rtlu_eth_rx() - a frame arrives from the Ethernet wire now (fully
 * received).
 * @frame: from the destination MAC, without FCS (short frames are the
 *         sender's job to pad)
 * @len:   bytes, 1..16383
 *
 * Return: 0 accepted (in flight); -ENETDOWN (link down), -EAGAIN (RX
 * disabled), -EPERM (filtered), -EMSGSIZE (a runt under 60 bytes, or
 * over 16383 bytes, or cannot fit any transfer), -ENOBUFS (RX FIFO full)
 * -- each counted in its drop counter; -EINVAL for no frame (NULL or 0
 * bytes; not counted, not offered).
 */
int rtlu_eth_rx(struct rtlu_dev *dev, const void *frame, size_t len);

/* Called with each transmitted frame (no FCS) at the instant it starts
 * on the wire. */
typedef void (*rtlu_wire_tx_fn)(void *arg, const uint8_t *frame, size_t len);

/** rtlu_set_wire_tx() - where TX frames go (NULL: counted, discarded). */
void rtlu_set_wire_tx(struct rtlu_dev *dev, rtlu_wire_tx_fn fn, void *arg);

/**
 * rtlu_set_link() - the PHY reports link @up at @mbps (0 = chip speed).
 * Updates PLA_PHYSTATUS and, on a change, sends INTR_LINK status on the
 * interrupt endpoint (when a TD is queued there, else when one is).
 * Return: 0, or -EINVAL for a speed the chip does not support (RTL8157:
 * up to 5000; RTL8159: up to 10000; one of 10/100/1000/2500/5000/10000).
 */
int rtlu_set_link(struct rtlu_dev *dev, bool up, uint32_t mbps);

/** rtlu_faults() - the live fault knobs. */
struct rtlu_faults *rtlu_faults(struct rtlu_dev *dev);

/** rtlu_stats() - the model's counters. */
const struct rtlu_stats *rtlu_stats(const struct rtlu_dev *dev);

/** rtlu_rx_dropped() - the sum of every RX drop counter. */
uint64_t rtlu_rx_dropped(const struct rtlu_dev *dev);

/** rtlu_last_error() - text of the latest guest error ("" if none). */
const char *rtlu_last_error(const struct rtlu_dev *dev);

/**
 * rtlu_reg_peek() - a register's current value as the device holds it
 * (tests and reports; no side effects, no accounting).
 * @mcu:  RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @addr: byte address; @size 1, 2 or 4 (little-endian)
 */
uint32_t rtlu_reg_peek(const struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		       unsigned size);

#endif /* RXSCALE_MODEL_RTLU_H */
