/* SPDX-License-Identifier: MIT */
/*
 * rtlu_priv.h - the USB adapter model's internal state, shared by:
 *   rtlu_dev.c   instance, link, interrupt endpoint, guest errors
 *   rtlu_ctrl.c  vendor control requests, PLA/USB register spaces
 *   rtlu_rx.c    RX FIFO and bulk-in aggregation
 *   rtlu_tx.c    bulk-out parsing and the Ethernet TX wire
 * Nothing here is part of the API (rtlu.h).
 */
#ifndef RXSCALE_MODEL_RTLU_PRIV_H
#define RXSCALE_MODEL_RTLU_PRIV_H

#include <stdarg.h>

#include "hw/rtl_desc.h"
#include "model/rtlu.h"

#define RTLU_SPACE		0x10000u	/* bytes per OCP register space */
#define RTLU_MAX_FRAME		16383u		/* rtlu_eth_rx() limit */
#define RTLU_DESC		16u		/* v2 RX/TX descriptor bytes */
#define RTLU_ALIGN16(x)		(((x) + 15u) & ~15u)

/* One frame in the RX FIFO (MAC pipeline included). */
struct rtlu_rx_frame {
	sim_time_t ready_ns;		/* in the FIFO from then on */
	uint32_t len;			/* frame bytes, no FCS */
	uint32_t foot;			/* FIFO bytes: align16(desc+len+FCS) */
	struct rtlu_rx_frame *next;
	uint8_t data[];
};

/* One frame waiting for the Ethernet TX wire. */
struct rtlu_tx_frame {
	uint32_t len;
	struct rtlu_tx_frame *next;
	uint8_t data[];
};

struct rtlu_dev {
	struct sim_host *host;
	struct plat_mem *mem;
	struct plat_usb_hc *hc;
	struct plat_usb_dev usb;
	const struct rtl_usb_chip_info *chip;
	struct rtlu_params p;
	struct rtlu_stats st;
	char last_error[160];

	uint8_t pla[RTLU_SPACE];	/* MCU_TYPE_PLA register bytes */
	uint8_t usbr[RTLU_SPACE];	/* MCU_TYPE_USB register bytes */

	bool link_up;
	uint32_t link_mbps;
	/* what PLA_TALLYCNT reads (model_tally.h) */
	struct rtl_tally tally;

	/* RX FIFO */
	struct rtlu_rx_frame *rxq_head, *rxq_tail;
	uint32_t rxq_bytes;
	struct sim_event rx_pump_ev;	/* next pump: frame ready / link free */
	/* the bulk-in transfer being filled */
	bool open;
	uint32_t open_off;		/* next descriptor offset (aligned) */
	uint32_t open_end;		/* end of the last frame's FCS */
	uint64_t open_frames;
	uint64_t xfers_ended;           /* for faults.rx_xfer_error_every */
	uint64_t open_bytes;
	sim_time_t open_first_ns;
	struct sim_event aggr_ev;	/* (b) USB_RX_EXTRA_AGGR_TMR */
	struct sim_event early_ev;	/* (d) USB_RX_EARLY_TIMEOUT */
	uint8_t *scratch;		/* desc + frame + FCS staging */

	/* TX */
	rtlu_wire_tx_fn wire_tx;
	void *wire_arg;
	struct rtlu_tx_frame *txq_head, *txq_tail;
	uint32_t txq_bytes;
	uint64_t wire_free_ps;		/* Ethernet TX wire idle at */
	uint64_t tx_due_ps;		/* exact start of the head frame */
	struct sim_event tx_ev;		/* head frame starts on the wire */
	bool tx_naked;			/* bulk-out NAKed, resume on room */

	/* interrupt endpoint */
	bool intr_pending;		/* a status to report */
	struct sim_event intr_ev;
};

/* ---- rtlu_err.c */
void rtlu_guest_error(struct rtlu_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- rtlu_intr.c: the interrupt endpoint */
void rtlu_intr_init(struct rtlu_dev *dev);
void rtlu_intr_fini(struct rtlu_dev *dev);
void rtlu_intr_kick(struct rtlu_dev *dev);

/* ---- rtlu_regs.c: the register file */
/* The bytes of OCP space @mcu (RTLU_MCU_TYPE_*), or NULL. */
uint8_t *rtlu_space(struct rtlu_dev *dev, uint16_t mcu);
void rtlu_regs_reset(struct rtlu_dev *dev);
void rtlu_phy_update(struct rtlu_dev *dev);
uint32_t rtlu_rd(const struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		 unsigned size);
bool rtlu_mitigation_on(const struct rtlu_dev *dev);

/* ---- rtlu_ctrl.c */
int rtlu_control(void *opaque, const struct plat_usb_setup *setup,
		 uint8_t *data);

/* ---- rtlu_rx.c */
void rtlu_rx_init(struct rtlu_dev *dev);
void rtlu_rx_fini(struct rtlu_dev *dev);
void rtlu_rx_kick(struct rtlu_dev *dev);
void rtlu_rx_doorbell(void *opaque, unsigned ep_addr);
void rtlu_rx_cancel(void *opaque, unsigned ep_addr, uint32_t written);
void rtlu_rx_reset(struct rtlu_dev *dev);
void rtlu_rx_mode_changed(struct rtlu_dev *dev);

/* ---- rtlu_tx.c */
void rtlu_tx_init(struct rtlu_dev *dev);
void rtlu_tx_fini(struct rtlu_dev *dev);
int rtlu_bulk_out(void *opaque, unsigned ep_addr, const uint8_t *data,
		  uint32_t len);

#endif /* RXSCALE_MODEL_RTLU_PRIV_H */
