// SPDX-License-Identifier: MIT
/*
 * rtlm_tx.c - the transmit engine (s3, s8.4).
 *
 * Rings: queue 0 at TxDescStartAddrLow/High (0x20), queue 1 at
 * TNPDS_Q1_LOW_8125 (0x2100); EOR wraps; the index returns to 0 when the
 * base-address low register is written and at reset.  Descriptors are 16
 * bytes (K's format) or 32 when MAC OCP 0xEB58 bit 0 is set (vendor):
 * the rows of rtl_desc.c (rtl_tx_desc_fmt_decode).
 * Enabled TX rings: 2^(MAC OCP 0xE63E bits 11:10), capped at the chip's.
 *
 * Doorbells: TxPoll_8125 (0x90) bit q, or a write of SW_TAIL_PTRq (the
 * vendor's TX-no-close doorbell; [I] the value is not used: the engine
 * runs until it finds a descriptor it does not own).  HW_CLO_PTRq reads
 * the number of descriptors the queue has completed ([I] free-running).
 *
 * Timing: a doorbell on an idle engine starts it tx_proc_ns +
 * 2 * dma_read_ns later (descriptor fetch, then data); each frame is
 * handed to the wire callback then, its descriptors get OWN cleared and
 * TxOK is raised at the same instant, and the next frame starts after the
 * frame's time on the link ((len + FCS + 20 bytes preamble/IFG) at the
 * link rate).  Queues with work are served round-robin, one frame each.
 *
 * A frame is FS .. LS (at most 64 descriptors, RTLM_TX_MAX bytes [I]); a
 * chain not yet complete (a later descriptor not owned) waits for the
 * next doorbell.  A chain without FS, too long, or with a buffer that is
 * not DMA-visible is a guest error and TxErr; the first two are consumed
 * (OWN cleared, not sent), a DMA fault stops the queue until the next
 * doorbell.  VLAN insertion (opts2 bit 17), checksum offload and giant
 * send (TSO, one frame per segment on the wire, one TxOK for the lot) are
 * applied (rtlm_txoff.c).
 */
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

#define TX_CHAIN_MAX	64

static unsigned tx_rings(struct rtlm_dev *dev)
{
	unsigned lg = (rtlm_mac_ocp(dev, RTL_OCP_TX_Q_NUM) &
		       RTL_OCP_TX_Q_NUM_MASK) >> RTL_OCP_TX_Q_NUM_SHIFT;
	unsigned n = 1u << lg;

	return n < dev->chip->caps->tx_queues ? n : dev->chip->caps->tx_queues;
}

static const struct rtl_tx_desc_fmt *tx_desc_fmt(struct rtlm_dev *dev)
{
	return rtl_tx_desc_fmt_decode(rtlm_mac_ocp(dev, RTL_OCP_TX_DESC_FMT));
}

static uint64_t tx_ring_base(struct rtlm_dev *dev, unsigned q)
{
	if (!q)
		return rtlm_rd(dev, RTL_RI_TxDescStartAddrLow) |
		       (uint64_t)rtlm_rd(dev, RTL_RI_TxDescStartAddrHigh) << 32;
	return *rtlm_reg(dev, RTL_RI_TNPDS_Q1_LOW_8125, 0) |
	       (uint64_t)*rtlm_reg(dev, RTL_RI_TNPDS_Q1_LOW_8125, 1) << 32;
}

static sim_time_t wire_ns(struct rtlm_dev *dev, size_t len)
{
	uint64_t bits = (uint64_t)(len + RTLM_FCS_LEN + 20) * 8 * 1000;
	uint64_t mbps = dev->link_mbps ? dev->link_mbps : 1000;

	/* the bit time of the NIC's own transmit clock, rounded up */
	return (sim_clock_ps(&dev->p.clock,
			      (bits * 1000u + mbps - 1) / mbps) + 999u) / 1000u;
}

enum tx_res { TX_EMPTY, TX_SENT, TX_BAD, TX_STOP };

/* Hand back @n descriptors of queue @q starting at index @first. */
static void tx_complete(struct rtlm_dev *dev, unsigned q,
			const struct rtl_tx_desc_fmt *f, const uint64_t *at,
			const uint32_t *o1, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		rtlm_wb_opts1(dev, at[i] + f->opts1_off, o1[i] & ~RTL_DESC_OWN,
			      false);
	dev->tx[q].closed += n;
}

/* Fetch the next frame of queue @q into tx_buf: its length and the first
 * descriptor's opts1/opts2 (offloads, VLAN tag). */
static enum tx_res tx_one(struct rtlm_dev *dev, unsigned q, size_t *out_len,
			  uint32_t *first_opts1, uint32_t *first_opts2)
{
	uint64_t base = tx_ring_base(dev, q), at[TX_CHAIN_MAX];
	uint32_t o1[TX_CHAIN_MAX], opts2 = 0, idx = dev->tx[q].cur, max = RTLM_TX_MAX;
	const struct rtl_tx_desc_fmt *f = tx_desc_fmt(dev);
	unsigned dsz = f->size, n = 0;
	size_t total = 0;
	bool bad = false;
	uint8_t d[sizeof(struct rtl_tx_desc)];	/* what both formats share */

	for (;;) {
		uint32_t len;
		uint64_t buf;

		at[n] = base + (uint64_t)idx * dsz;
		if (plat_pci_dma_read(&dev->pci, at[n], d, sizeof(d))) {
			rtlm_guest_error(dev, "TX queue %u descriptor %u at 0x%llx is not DMA-visible",
					 q, idx, (unsigned long long)at[n]);
			return TX_STOP;
		}
		o1[n] = rtlm_le32(d + f->opts1_off);
		if (!(o1[n] & RTL_DESC_OWN))
			return TX_EMPTY;	/* nothing, or chain not complete */
		if (!n) {
			opts2 = rtlm_le32(d + f->opts2_off);
			if (o1[0] & (RTL_TX_GTSENV4 | RTL_TX_GTSENV6))
				max = RTLM_TSO_MAX;     /* giant send */
			if (!(o1[n] & RTL_TX_FS)) {
				rtlm_guest_error(dev, "TX queue %u descriptor %u: chain without FS",
						 q, idx);
				bad = true;
			}
		}
		len = o1[n] & RTL_TX_LEN_MASK;
		buf = rtlm_le64(d + f->addr_off);
		if (!bad && total + len > max) {
			rtlm_guest_error(dev, "TX queue %u: frame longer than %u bytes",
					 q, max);
			bad = true;
		}
		if (!bad && plat_pci_dma_read(&dev->pci, buf, dev->tx_buf + total,
					     len)) {
			rtlm_guest_error(dev, "TX queue %u buffer 0x%llx (%u bytes) is not DMA-visible",
					 q, (unsigned long long)buf, len);
			return TX_STOP;
		}
		total += len;
		idx = (o1[n] & RTL_DESC_EOR) ? 0 : idx + 1;
		n++;
		if (bad || (o1[n - 1] & RTL_TX_LS))
			break;
		if (n == TX_CHAIN_MAX) {
			rtlm_guest_error(dev, "TX queue %u: no LS within %u descriptors",
					 q, TX_CHAIN_MAX);
			bad = true;
			break;
		}
	}
	tx_complete(dev, q, f, at, o1, n);
	dev->tx[q].cur = idx;
	if (bad)
		return TX_BAD;
	*out_len = total;
	*first_opts1 = o1[0];
	*first_opts2 = opts2;
	return TX_SENT;
}

/* What one fetched frame put on the wire. */
struct tx_out {
	unsigned q;
	uint32_t opts2;
	sim_time_t wire;
};

/* A frame leaves: the VLAN tag inserted (opts2 bit 17), to the wire. */
static void tx_emit(struct rtlm_dev *dev, uint8_t *f, size_t len, void *arg)
{
	struct tx_out *o = arg;

	if ((o->opts2 & RTL_TX_VLAN_TAG) && len >= 12) {
		uint16_t tci = (uint16_t)(o->opts2 & RTL_TX_VLAN_TCI_MASK);

		tci = (uint16_t)(tci << 8 | tci >> 8);
		memmove(f + 16, f + 12, len - 12);
		f[12] = 0x81;
		f[13] = 0x00;
		f[14] = (uint8_t)(tci >> 8);
		f[15] = (uint8_t)tci;
		len += 4;
	}
	if (dev->link_up) {
		if (dev->wire_tx)
			dev->wire_tx(dev->wire_arg, f, len);
	} else {
		dev->st.tx_link_down++;
	}
	dev->st.tx_ok[o->q]++;
	dev->st.tx_bytes[o->q] += len;
	dev->tally.tx_packets++;
	o->wire += wire_ns(dev, len);
}

static void tx_step(struct sim *s, struct sim_event *ev)
{
	struct rtlm_dev *dev = ev->arg;

	if (dev->p.faults.tx_hang)
		return;		/* until the reset; the rings keep their doorbells */
	while (dev->tx_pending) {
		unsigned q = dev->tx_rr;
		struct tx_out o = { .q = q };
		uint32_t opts1 = 0;
		size_t len = 0;

		dev->tx_rr = (q + 1) % RTL_MAX_TX_QUEUES;
		if (!((dev->tx_pending >> q) & 1))
			continue;
		switch (tx_one(dev, q, &len, &opts1, &o.opts2)) {
		case TX_EMPTY:
			dev->tx_pending &= ~(1u << q);
			break;
		case TX_STOP:
			dev->tx_pending &= ~(1u << q);
			dev->st.tx_err[q]++;
			dev->tally.tx_errors++;
			rtlm_irq_event(dev, RTLM_IRQ_TX_ERR, q);
			break;
		case TX_BAD:
			dev->st.tx_err[q]++;
			dev->tally.tx_errors++;
			rtlm_irq_event(dev, RTLM_IRQ_TX_ERR, q);
			break;
		case TX_SENT:
			if (rtlm_tx_offload(dev, opts1, o.opts2, dev->tx_buf, len,
					    tx_emit, &o) < 0) {
				/* offsets that do not fit: not sent */
				dev->st.tx_err[q]++;
				dev->tally.tx_errors++;
				rtlm_irq_event(dev, RTLM_IRQ_TX_ERR, q);
				break;
			}
			rtlm_irq_event(dev, RTLM_IRQ_TX_OK, q);
			sim_schedule_in(s, ev, o.wire);
			return;
		}
	}
}

void rtlm_tx_init(struct rtlm_dev *dev)
{
	sim_event_init(&dev->tx_ev, tx_step, dev);
}

static void tx_kick(struct rtlm_dev *dev, unsigned q)
{
	if (!(rtlm_rd(dev, RTL_RI_ChipCmd) & RTL_CMD_TE)) {
		rtlm_guest_error(dev, "TX doorbell for queue %u with ChipCmd TE clear",
				 q);
		return;
	}
	if (q >= tx_rings(dev)) {
		rtlm_guest_error(dev, "TX doorbell for queue %u, %u TX rings enabled",
				 q, tx_rings(dev));
		return;
	}
	dev->tx_pending |= 1u << q;
	if (dev->p.faults.tx_hang)
		return;
	if (!sim_event_pending(&dev->tx_ev))
		sim_schedule_in(dev->sim, &dev->tx_ev,
				dev->p.tx_proc_ns + 2 * dev->p.dma_read_ns);
}

void rtlm_tx_doorbell_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			    uint32_t old, uint32_t val)
{
	(void)ri;
	(void)elem;
	(void)old;
	for (unsigned q = 0; q < 16; q++)
		if ((val >> q) & 1)
			tx_kick(dev, q);
}

void rtlm_tx_tail_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t old, uint32_t val)
{
	(void)elem;
	(void)old;
	(void)val;
	tx_kick(dev, ri == RTL_RI_SW_TAIL_PTR0_8125BP ? 0 : 1);
}

void rtlm_tx_ring_base_write(struct rtlm_dev *dev, unsigned ri,
			     unsigned elem, uint32_t old, uint32_t val)
{
	unsigned q = ri == RTL_RI_TNPDS_Q1_LOW_8125 ? 1 : 0;
	bool low = ri == RTL_RI_TxDescStartAddrLow ||
		   (ri == RTL_RI_TNPDS_Q1_LOW_8125 && elem == 0);

	(void)old;
	if (!low)
		return;
	if (val % RTL_RING_ALIGN)
		rtlm_guest_error(dev, "TX ring %u base 0x%x not %u-byte aligned",
				 q, val, RTL_RING_ALIGN);
	dev->tx[q].cur = 0;
}

uint32_t rtlm_tx_clo_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			  uint32_t stored)
{
	(void)elem;
	(void)stored;
	return dev->tx[ri == RTL_RI_HW_CLO_PTR0_8125BP ? 0 : 1].closed;
}

void rtlm_tx_reset(struct rtlm_dev *dev)
{
	sim_cancel(dev->sim, &dev->tx_ev);
	dev->p.faults.tx_hang = false;
	dev->tx_pending = 0;
	dev->tx_rr = 0;
	for (unsigned q = 0; q < RTL_MAX_TX_QUEUES; q++)
		dev->tx[q].cur = dev->tx[q].closed = 0;
}
