/* SPDX-License-Identifier: MIT */
/*
 * rtlu_rx.c - RX: the MAC pipeline and RX FIFO, and bulk-in aggregation
 * into the TD at the head of endpoint 1 (rules (a)-(d) of rtlu.h).
 *
 * The pump moves FIFO frames into the open transfer one at a time, each
 * no earlier than it is ready and than the IN link is idle (the link
 * carries it while the next waits: a slow USB link backs the FIFO up).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/model_fcs.h"

#include "model/model_tally.h"
#include "model/rtlu_priv.h"

#define EP_IN (RTLU_EP_BULK_IN | PLAT_USB_DIR_IN)

static struct sim *eng(const struct rtlu_dev *dev)
{
	return dev->host->sim;
}

static uint32_t usb16(const struct rtlu_dev *dev, uint16_t addr)
{
	return rtlu_rd(dev, RTLU_MCU_TYPE_USB, addr, 2);
}

static void pump_at(struct rtlu_dev *dev, sim_time_t t)
{
	if (!sim_event_pending(&dev->rx_pump_ev) ||
	    dev->rx_pump_ev.time > t)
		sim_schedule_at(eng(dev), &dev->rx_pump_ev, t);
}

void rtlu_rx_kick(struct rtlu_dev *dev)
{
	pump_at(dev, sim_now(eng(dev)));
}

static void close_open(struct rtlu_dev *dev)
{
	dev->open = false;
	dev->open_off = 0;
	dev->open_end = 0;
	dev->open_frames = 0;
	dev->open_bytes = 0;
	sim_cancel(eng(dev), &dev->aggr_ev);
	sim_cancel(eng(dev), &dev->early_ev);
}

/* End the open transfer for @why: the frames in it are delivered. */
static void end_xfer(struct rtlu_dev *dev, enum rtlu_rx_end why)
{
	struct rtlu_params *p = &dev->p;	/* the fault knobs */
	bool err;
	int64_t r;

	if (!dev->open)
		return;
	err = p->faults.rx_xfer_error_every &&
	      ++dev->xfers_ended % p->faults.rx_xfer_error_every == 0;
	if (p->faults.rx_xfer_error_next) {
		p->faults.rx_xfer_error_next--;
		err = true;
	}
	r = plat_usb_in_complete(&dev->usb, EP_IN, err ? 0 : dev->open_end,
				 err ? -EPROTO : 0);
	if (r < 0) {
		/* the TD vanished under us (cannot happen: cancel tells us) */
		dev->st.rx_cancelled += dev->open_frames;
	} else if (err) {
		dev->st.rx_xfer_error += dev->open_frames;
	} else {
		dev->st.rx_transfers++;
		dev->st.rx_end[why]++;
		dev->st.rx_xfer_bytes += dev->open_end;
		dev->st.rx_delivered += dev->open_frames;
		dev->st.rx_delivered_bytes += dev->open_bytes;
	}
	dev->st.rx_inflight -= dev->open_frames;
	close_open(dev);
	rtlu_rx_kick(dev);
}

static void aggr_fire(struct sim *s, struct sim_event *ev)
{
	(void)s;
	end_xfer(ev->arg, RTLU_END_TIMER);
}

static void early_fire(struct sim *s, struct sim_event *ev)
{
	(void)s;
	end_xfer(ev->arg, RTLU_END_EARLY);
}

static struct rtlu_rx_frame *rxq_pop(struct rtlu_dev *dev)
{
	struct rtlu_rx_frame *f = dev->rxq_head;

	if (f) {
		dev->rxq_head = f->next;
		if (!dev->rxq_head)
			dev->rxq_tail = NULL;
		dev->rxq_bytes -= f->foot;
	}
	return f;
}

/* Write frame @f into the open (or a new) transfer at open_off. */
static int put_frame(struct rtlu_dev *dev, const struct rtlu_rx_frame *f)
{
	uint32_t n = RTLU_DESC + f->len + RTLU_FCS_LEN;
	uint8_t *b = dev->scratch;
	uint32_t opts1 = (f->len + RTLU_FCS_LEN) << RTL_USB_RX2_LEN_SHIFT;
	int64_t r;

	memset(b, 0, RTLU_DESC);
	b[0] = (uint8_t)opts1;
	b[1] = (uint8_t)(opts1 >> 8);
	b[2] = (uint8_t)(opts1 >> 16);
	b[3] = (uint8_t)(opts1 >> 24);
	memcpy(b + RTLU_DESC, f->data, f->len);
	if (dev->p.rx_fcs) {
		uint32_t crc = model_fcs32(f->data, f->len);

		for (unsigned i = 0; i < 4; i++)
			b[RTLU_DESC + f->len + i] = (uint8_t)(crc >> (8 * i));
	} else {
		memset(b + RTLU_DESC + f->len, 0, RTLU_FCS_LEN);
	}
	r = plat_usb_in_write(&dev->usb, EP_IN, dev->open_off, b, n);
	return r < 0 ? (int)r : 0;
}

static void pump(struct rtlu_dev *dev)
{
	struct sim *s = eng(dev);

	for (;;) {
		struct rtlu_rx_frame *f = dev->rxq_head;
		sim_time_t now = sim_now(s), lf;
		uint32_t room, need;

		if (!f)
			return;
		if (f->ready_ns > now) {
			pump_at(dev, f->ready_ns);
			return;
		}
		room = plat_usb_in_room(&dev->usb, EP_IN);
		if (!room)
			return;                 /* wait for a doorbell */
		lf = plat_usb_in_link_free(dev->hc);
		if (lf > now) {
			pump_at(dev, lf);
			return;
		}
		need = RTLU_DESC + f->len + RTLU_FCS_LEN;
		if (dev->open && dev->open_off + need > room) {
			end_xfer(dev, RTLU_END_FULL);       /* (c) */
			continue;
		}
		if (!dev->open && need > room) {
			/* the host's buffer can never hold it */
			rxq_pop(dev);
			dev->st.rx_inflight--;
			dev->st.rx_too_long++;
			rtlu_guest_error(dev, "bulk-in buffer of %u bytes too "
					 "small for a %u-byte frame", room,
					 f->len);
			free(f);
			continue;
		}
		if (put_frame(dev, f)) {
			rxq_pop(dev);
			dev->st.rx_inflight--;
			dev->st.rx_dma_err++;
			rtlu_guest_error(dev, "bulk-in buffer not DMA-visible");
			free(f);
			continue;
		}
		rxq_pop(dev);
		model_tally_rx(&dev->tally, f->data);
		if (!dev->open) {
			dev->open = true;
			dev->open_first_ns = now;
			if (!dev->p.faults.rx_stuck)
				sim_schedule_at(s, &dev->aggr_ev, now +
						sim_clock_ns(&dev->p.clock, (uint64_t)usb16(dev,
						RTLU_USB_RX_EXTRA_AGGR_TMR) *
						RTLU_TIMER_UNIT_NS));
		}
		dev->open_frames++;
		dev->open_bytes += f->len + RTLU_FCS_LEN;
		dev->open_end = dev->open_off + need;
		dev->open_off = RTLU_ALIGN16(dev->open_end);
		free(f);
		if (usb16(dev, RTLU_USB_USB_CTRL) & RTLU_USB_CTRL_RX_AGG_DISABLE) {
			end_xfer(dev, RTLU_END_SINGLE);
			continue;
		}
		if (dev->open_end >= usb16(dev, RTLU_USB_RX_EARLY_SIZE) *
				     RTLU_EARLY_SIZE_UNIT) {
			end_xfer(dev, RTLU_END_SIZE);        /* (a) */
			continue;
		}
		if (!dev->st.mitigation && !dev->p.faults.rx_stuck)
			sim_schedule_at(s, &dev->early_ev, now +
					sim_clock_ns(&dev->p.clock, (uint64_t)usb16(dev,
					RTLU_USB_RX_EARLY_TIMEOUT) *
					RTLU_TIMER_UNIT_NS));  /* (d) */
	}
}

static void pump_fire(struct sim *s, struct sim_event *ev)
{
	(void)s;
	pump(ev->arg);
}

void rtlu_rx_doorbell(void *opaque, unsigned ep_addr)
{
	struct rtlu_dev *dev = opaque;

	if (ep_addr == EP_IN)
		rtlu_rx_kick(dev);
	else
		rtlu_intr_kick(dev);
}

void rtlu_rx_cancel(void *opaque, unsigned ep_addr, uint32_t written)
{
	struct rtlu_dev *dev = opaque;

	(void)written;
	if (ep_addr != EP_IN || !dev->open)
		return;
	dev->st.rx_cancelled += dev->open_frames;
	dev->st.rx_inflight -= dev->open_frames;
	close_open(dev);
	rtlu_rx_kick(dev);
}

/* The mitigation bits changed: (d) applies from the next frame; with
 * mitigation back on, a pending early timeout is dropped. */
void rtlu_rx_mode_changed(struct rtlu_dev *dev)
{
	if (dev->st.mitigation)
		sim_cancel(eng(dev), &dev->early_ev);
}

/* PLA_CR reset: every frame in flight is dropped. */
void rtlu_rx_reset(struct rtlu_dev *dev)
{
	struct rtlu_rx_frame *f;

	while ((f = rxq_pop(dev))) {
		dev->st.rx_reset++;
		dev->st.rx_inflight--;
		free(f);
	}
	dev->st.rx_reset += dev->open_frames;
	dev->st.rx_inflight -= dev->open_frames;
	close_open(dev);
}

static bool accept_addr(const struct rtlu_dev *dev, const uint8_t *f,
			size_t len)
{
	uint32_t rcr = rtlu_rd(dev, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, 4);
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (rcr & RTLU_RCR_AAP)
		return true;
	if (len < 6)
		return false;
	if (!memcmp(f, bcast, 6))
		return rcr & RTLU_RCR_AB;
	if (f[0] & 1)
		return rcr & RTLU_RCR_AM;       /* [I] no multicast hash */
	return (rcr & RTLU_RCR_APM) && !memcmp(f, &dev->pla[RTLU_PLA_IDR], 6);
}

int rtlu_eth_rx(struct rtlu_dev *dev, const void *frame, size_t len)
{
	struct rtlu_rx_frame *f;
	uint32_t foot;

	if (!dev || !frame || !len)
		return -EINVAL;
	dev->st.rx_offered++;
	/* [I] a frame shorter than ETH_ZLEN cannot be handed over: r8152's
	 * parser takes such a length for the end of the transfer (research
	 * s1.2), so the MAC drops runts (what a MAC does with frames under
	 * 64 bytes with FCS) */
	if (len < RTLU_ETH_ZLEN) {
		dev->st.rx_runt++;
		return -EMSGSIZE;
	}
	if (len > RTLU_MAX_FRAME) {
		dev->st.rx_too_long++;
		return -EMSGSIZE;
	}
	if (!dev->link_up) {
		dev->st.rx_link_down++;
		return -ENETDOWN;
	}
	if (!(dev->pla[RTLU_PLA_CR] & RTLU_CR_RE)) {
		dev->st.rx_disabled++;
		return -EAGAIN;
	}
	if (!accept_addr(dev, frame, len)) {
		dev->st.rx_filtered++;
		return -EPERM;
	}
	foot = RTLU_ALIGN16(RTLU_DESC + (uint32_t)len + RTLU_FCS_LEN);
	if (RTLU_DESC + len + RTLU_FCS_LEN > dev->chip->rx_buf_size) {
		dev->st.rx_too_long++;
		return -EMSGSIZE;
	}
	if (dev->rxq_bytes + foot > dev->p.rx_fifo_bytes) {
		dev->st.rx_fifo_over++;
		dev->tally.rx_missed++;
		return -ENOBUFS;
	}
	f = malloc(sizeof(*f) + len);
	if (!f) {
		dev->st.rx_fifo_over++;
		dev->tally.rx_missed++;
		return -ENOBUFS;
	}
	f->ready_ns = sim_now(eng(dev)) + dev->p.rx_proc_ns;
	f->len = (uint32_t)len;
	f->foot = foot;
	f->next = NULL;
	memcpy(f->data, frame, len);
	if (dev->rxq_tail)
		dev->rxq_tail->next = f;
	else
		dev->rxq_head = f;
	dev->rxq_tail = f;
	dev->rxq_bytes += foot;
	if (dev->rxq_bytes > dev->st.rx_fifo_max)
		dev->st.rx_fifo_max = dev->rxq_bytes;
	dev->st.rx_inflight++;
	if (f == dev->rxq_head)
		pump_at(dev, f->ready_ns);
	return 0;
}

void rtlu_rx_init(struct rtlu_dev *dev)
{
	sim_event_init(&dev->rx_pump_ev, pump_fire, dev);
	sim_event_init(&dev->aggr_ev, aggr_fire, dev);
	sim_event_init(&dev->early_ev, early_fire, dev);
}

void rtlu_rx_fini(struct rtlu_dev *dev)
{
	struct rtlu_rx_frame *f;

	sim_cancel(eng(dev), &dev->rx_pump_ev);
	while ((f = rxq_pop(dev)))
		free(f);
	close_open(dev);
}
