/* SPDX-License-Identifier: MIT */
/*
 * rtlu_tx.c - bulk-out (endpoint 2): an aggregated TX buffer of v2 TX
 * descriptors and frames (rtl_usb_regs.h), validated whole, then each
 * frame on the Ethernet wire back to back at the line rate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/rtlu_priv.h"

#define EP_OUT RTLU_EP_BULK_OUT
#define WIRE_OVERHEAD 24u       /* FCS 4 + preamble/SFD 8 + IFG 12 */
#define MIN_FRAME 60u           /* padded by the MAC */

static struct sim *eng(const struct rtlu_dev *dev)
{
	return dev->host->sim;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t now_ps(const struct rtlu_dev *dev)
{
	return sim_now(eng(dev)) * 1000u;
}

static void tx_schedule(struct rtlu_dev *dev)
{
	uint64_t t = dev->wire_free_ps > now_ps(dev) ? dev->wire_free_ps
						     : now_ps(dev);

	if (dev->txq_head && !sim_event_pending(&dev->tx_ev)) {
		dev->tx_due_ps = t;     /* exact; the event fires rounded up */
		sim_schedule_at(eng(dev), &dev->tx_ev, (t + 999u) / 1000u);
	}
}

/* The head frame starts on the wire now. */
static void tx_fire(struct sim *s, struct sim_event *ev)
{
	struct rtlu_dev *dev = ev->arg;
	struct rtlu_tx_frame *f = dev->txq_head;
	uint32_t bytes;

	(void)s;
	if (!f)
		return;
	dev->txq_head = f->next;
	if (!dev->txq_head)
		dev->txq_tail = NULL;
	dev->txq_bytes -= f->len;
	bytes = (f->len < MIN_FRAME ? MIN_FRAME : f->len) + WIRE_OVERHEAD;
	dev->wire_free_ps = dev->tx_due_ps +
			    sim_clock_ps(&dev->p.clock, (uint64_t)bytes * 8u * 1000000u /
					 dev->link_mbps);
	if (dev->link_up) {
		dev->st.tx_frames++;
		dev->tally.tx_packets++;
		dev->st.tx_bytes += f->len;
		if (dev->wire_tx)
			dev->wire_tx(dev->wire_arg, f->data, f->len);
	} else {
		dev->st.tx_dropped++;
	}
	free(f);
	tx_schedule(dev);
	if (dev->tx_naked && dev->txq_bytes < dev->p.tx_fifo_bytes) {
		dev->tx_naked = false;
		plat_usb_out_resume(&dev->usb, EP_OUT);
	}
}

/* Check the whole buffer; returns the frame count or -1 (guest error). */
static int tx_validate(struct rtlu_dev *dev, const uint8_t *data, uint32_t len)
{
	uint32_t off = 0;
	int n = 0;

	if (!len) {
		rtlu_guest_error(dev, "empty bulk-out transfer");
		return -1;
	}
	while (off < len) {
		uint32_t o1, o4, fl;

		if (len - off < RTLU_DESC) {
			rtlu_guest_error(dev, "bulk-out: truncated TX "
					 "descriptor at %u of %u", off, len);
			return -1;
		}
		o1 = le32(data + off);
		o4 = le32(data + off + 12);
		fl = (le32(data + off + 8) & RTLU_TX_LEN_MASK) >> RTLU_TX_LEN_SHIFT;
		if ((o4 & RTLU_TX_SIG_MASK) != RTLU_TX_SIG) {
			rtlu_guest_error(dev, "bulk-out: TX descriptor at %u "
					 "without TX_SIG (opts4 0x%08x)", off, o4);
			return -1;
		}
		if ((o1 & (RTLU_TX_FS | RTLU_TX_LS)) !=
		    (RTLU_TX_FS | RTLU_TX_LS) || !fl || fl > RTLU_MAX_FRAME) {
			rtlu_guest_error(dev, "bulk-out: bad TX descriptor at "
					 "%u (opts1 0x%08x)", off, o1);
			return -1;
		}
		if (fl > len - off - RTLU_DESC) {
			rtlu_guest_error(dev, "bulk-out: frame of %u bytes at "
					 "%u overruns the %u-byte transfer",
					 fl, off, len);
			return -1;
		}
		n++;
		off = RTLU_ALIGN16(off + RTLU_DESC + fl);
	}
	return n;
}

int rtlu_bulk_out(void *opaque, unsigned ep_addr, const uint8_t *data,
		  uint32_t len)
{
	struct rtlu_dev *dev = opaque;
	uint32_t off = 0;
	int n;
	bool send;

	if (ep_addr != EP_OUT)
		return -EPIPE;
	if (dev->txq_bytes >= dev->p.tx_fifo_bytes) {
		dev->st.tx_naks++;
		dev->tx_naked = true;
		return -EAGAIN;
	}
	dev->st.tx_transfers++;
	n = tx_validate(dev, data, len);
	if (n < 0) {
		dev->st.tx_bad_buf++;
		return 0;               /* consumed, nothing sent */
	}
	send = dev->link_up && (dev->pla[RTLU_PLA_CR] & RTLU_CR_TE);
	while (n--) {
		uint32_t fl = (le32(data + off + 8) & RTLU_TX_LEN_MASK) >>
			      RTLU_TX_LEN_SHIFT;
		struct rtlu_tx_frame *f;

		if (!send) {
			dev->st.tx_dropped++;
		} else if ((f = malloc(sizeof(*f) + fl))) {
			f->len = fl;
			f->next = NULL;
			memcpy(f->data, data + off + RTLU_DESC, fl);
			if (dev->txq_tail)
				dev->txq_tail->next = f;
			else
				dev->txq_head = f;
			dev->txq_tail = f;
			dev->txq_bytes += fl;
		} else {
			dev->st.tx_dropped++;
		}
		off = RTLU_ALIGN16(off + RTLU_DESC + fl);
	}
	if (dev->txq_head && !sim_event_pending(&dev->tx_ev)) {
		uint64_t t = now_ps(dev) + dev->p.tx_proc_ns * 1000u;

		if (dev->wire_free_ps < t)
			dev->wire_free_ps = t;
	}
	tx_schedule(dev);
	return 0;
}

void rtlu_tx_init(struct rtlu_dev *dev)
{
	sim_event_init(&dev->tx_ev, tx_fire, dev);
}

void rtlu_tx_fini(struct rtlu_dev *dev)
{
	sim_cancel(eng(dev), &dev->tx_ev);
	while (dev->txq_head) {
		struct rtlu_tx_frame *f = dev->txq_head;

		dev->txq_head = f->next;
		free(f);
	}
	dev->txq_tail = NULL;
	dev->txq_bytes = 0;
}
