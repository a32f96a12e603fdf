// SPDX-License-Identifier: MIT
/*
 * rtlm_irq.c - the two interrupt models of s4, selected by INT_CFG0 bit 0
 * (s4.1), and message signalling through the platform.
 *
 * Legacy model (bit 0 clear, and always on chips whose map is ISR v1):
 * IntrMask_8125/IntrStatus_8125 (0x38/0x3C) for the device and RX queue
 * 0, IMRn/ISRn (0x800 + 4(n-1) / 0x802 + 4(n-1)) for RX queues 1..3 (s4.2;
 * [I] their events show only there, as DPDK's per-queue RDU ack implies).
 * One vector (MSI-X entry 0, or MSI, or the INTx line): its level is
 * "any status bit with its mask bit set".
 *
 * Per-message-id model (bit 0 set, ISR v2..v7): one status bit per
 * message id in ISR_V2_8125 (0xD04, W1C; ids 32..63 in ISR_V4_L2_8125),
 * one mask bit per id behind two doors, IMR_V2_SET (0xD0C, unmask) and
 * IMR_V2_CLEAR (0xD00, mask); id = MSI-X entry (s4.3).  The what-if row's
 * ids 64..319 behave the same in its ISR_WHATIF/IMR_*_WHATIF words.  Which id an event
 * uses is the chip's struct rtl_irq_map.  [I] RDU, RX FIFO overflow and TX
 * errors raise the queue's RX/TX id (no ids exist for them, rtl_defines.h);
 * RDU/TDU also latch per queue in RDU_STA/TDU_STA (both models).
 *
 * Signalling, both models: a message is sent when a vector's level
 * (status & mask) rises -- a status bit set while unmasked, or an unmask
 * while status is latched ([I] s4.3 "re-fire") -- and not again until the
 * level has fallen.  In the V2 model a running INT_MITI timer
 * (rtlm_moder.c) holds a rising level back until it expires.  The INTx
 * line follows the level.  MSI-X table masking and the PBA are the
 * platform's (plat_pci.c).
 */
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

/* Legacy per-RX-queue mask/status rows, queue 1..3 (index q - 1). */
static const unsigned legacy_imr[3] = {
	RTL_RI_IMR1_8125, RTL_RI_IMR2_8125, RTL_RI_IMR3_8125,
};
static const unsigned legacy_isr[3] = {
	RTL_RI_ISR1_8125, RTL_RI_ISR2_8125, RTL_RI_ISR3_8125,
};

bool rtlm_irq_v2(struct rtlm_dev *dev)
{
	return (rtlm_rd(dev, RTL_RI_INT_CFG0_8125) & RTL_INT_CFG0_ENABLE) &&
	       !dev->chip->irq_map->legacy;
}

void rtlm_irq_send(struct rtlm_dev *dev, unsigned vec)
{
	struct rtlm_faults *f = &dev->p.faults;
	enum plat_pci_irq_mode mode = dev->pci.irq_mode;

	if (mode != PLAT_PCI_IRQ_MSIX && mode != PLAT_PCI_IRQ_MSI)
		return;		/* INTx follows the level; none: nothing */
	dev->msix_count++;
	if (f->msix_drop_next) {
		f->msix_drop_next--;
		dev->st.msix_dropped++;
		return;
	}
	if (f->msix_drop_every && dev->msix_count % f->msix_drop_every == 0) {
		dev->st.msix_dropped++;
		return;
	}
	if (plat_pci_msix_notify(&dev->pci, vec) == 0 &&
	    vec < RTL_MSIX_MAX_IDS)
		dev->st.msix_sent[vec]++;
}

static void legacy_set(struct rtlm_dev *dev, enum rtlm_irq_src src,
		       unsigned q)
{
	static const uint32_t isr0[] = {
		[RTLM_IRQ_RX_OK] = RTL_INT_ROK,
		[RTLM_IRQ_RX_DU] = RTL_INT_RDU,
		[RTLM_IRQ_RX_FIFO] = RTL_INT_RX_FIFO_OVER,
		[RTLM_IRQ_TX_OK] = RTL_INT_TOK,
		[RTLM_IRQ_TX_ERR] = RTL_INT_TER,
		[RTLM_IRQ_TX_DU] = RTL_INT_TDU,
		[RTLM_IRQ_LINK] = RTL_INT_LINK_CHG,
	};

	if (q && q < RTL_HW_RX_QUEUES &&
	    (src == RTLM_IRQ_RX_OK || src == RTLM_IRQ_RX_DU)) {
		*rtlm_reg(dev, legacy_isr[q - 1], 0) |=
			src == RTLM_IRQ_RX_OK ? RTL_INTQ_ROK : RTL_INTQ_RDU;
		return;
	}
	*rtlm_reg(dev, RTL_RI_IntrStatus_8125, 0) |= isr0[src];
}

void rtlm_irq_event(struct rtlm_dev *dev, enum rtlm_irq_src src, unsigned q)
{
	const struct rtl_irq_map *m = dev->chip->irq_map;
	bool tx = src == RTLM_IRQ_TX_OK || src == RTLM_IRQ_TX_ERR ||
		  src == RTLM_IRQ_TX_DU;
	unsigned id;

	/* one bit per queue of a 16-bit register: the what-if row's queues
	 * 16+ have none */
	if (src == RTLM_IRQ_RX_DU && q < 16)
		*rtlm_reg(dev, RTL_RI_RDU_STA_8125, 0) |= 1u << q;
	if (src == RTLM_IRQ_TX_DU)
		*rtlm_reg(dev, RTL_RI_TDU_STA_8125, 0) |= 1u << q;
	if (!rtlm_irq_v2(dev)) {
		legacy_set(dev, src, q);
		rtlm_irq_update(dev);
		return;
	}
	if (src == RTLM_IRQ_TX_DU)
		return;		/* [I] status only, no message id */
	if (src == RTLM_IRQ_LINK)
		id = m->link;
	else if (tx)
		id = m->tx[q < RTL_MAX_TX_QUEUES ? q : 0];
	else
		id = m->rx[q < RTL_MAX_RX_QUEUES ? q : 0];
	if (id < 32)
		*rtlm_reg(dev, RTL_RI_ISR_V2_8125, 0) |= 1u << id;
	else if (id < 64)
		*rtlm_reg(dev, RTL_RI_ISR_V4_L2_8125, 0) |= 1u << (id - 32);
	else
		*rtlm_reg(dev, RTL_RI_ISR_WHATIF, (id - 64) / 32) |= 1u << (id % 32);
	if (src != RTLM_IRQ_LINK)
		rtlm_moder_event(dev, id, q, tx);
	rtlm_irq_update(dev);
}

void rtlm_irq_update(struct rtlm_dev *dev)
{
	uint64_t lvl, rise;
	bool any;

	if (rtlm_irq_v2(dev)) {
		lvl = (rtlm_rd(dev, RTL_RI_ISR_V2_8125) |
		       (uint64_t)rtlm_rd(dev, RTL_RI_ISR_V4_L2_8125) << 32) &
		      (rtlm_rd(dev, RTL_RI_IMR_V2_SET_REG_8125) |
		       (uint64_t)rtlm_rd(dev, RTL_RI_IMR_V4_L2_SET_REG_8125) << 32);
		dev->irq_sent &= lvl;
		dev->legacy_sent = false;
		rise = lvl & ~dev->irq_sent & ~dev->moder_held;
		dev->irq_sent |= rise;
		for (unsigned id = 0; rise; id++, rise >>= 1)
			if (rise & 1)
				rtlm_irq_send(dev, id);
		any = lvl != 0;
		/* the what-if row's ids 64+ (no moderation: no record) */
		for (unsigned w = 0; w < dev->chip->irq_map->whatif_words; w++) {
			uint32_t l, r;

			l = *rtlm_reg(dev, RTL_RI_ISR_WHATIF, w) &
			    *rtlm_reg(dev, RTL_RI_IMR_SET_WHATIF, w);
			dev->irq_sent_whatif[w] &= l;
			r = l & ~dev->irq_sent_whatif[w];
			dev->irq_sent_whatif[w] |= r;
			for (unsigned b = 0; r; b++, r >>= 1)
				if (r & 1)
					rtlm_irq_send(dev, 64 + 32 * w + b);
			any |= l != 0;
		}
	} else {
		any = rtlm_rd(dev, RTL_RI_IntrStatus_8125) &
		      rtlm_rd(dev, RTL_RI_IntrMask_8125);
		for (unsigned i = 0; i < 3; i++)
			any |= (rtlm_rd(dev, legacy_isr[i]) &
				rtlm_rd(dev, legacy_imr[i]) & 0xffffu) != 0;
		dev->irq_sent = 0;
		memset(dev->irq_sent_whatif, 0, sizeof(dev->irq_sent_whatif));
		if (!any) {
			dev->legacy_sent = false;
		} else if (!dev->legacy_sent) {
			dev->legacy_sent = true;
			rtlm_irq_send(dev, 0);
		}
	}
	plat_pci_intx_set(&dev->pci, any);
}

void rtlm_irq_reg_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t old, uint32_t val)
{
	(void)ri;
	(void)elem;
	(void)old;
	(void)val;
	rtlm_irq_update(dev);
}

/* A hold-off timer ended: its message goes out if its level is still up. */
static void irq_moder_expire(struct sim *s, struct sim_event *ev)
{
	struct rtlm_dev *dev = ev->arg;

	(void)s;
	rtlm_moder_expired(dev, ev);
	rtlm_irq_update(dev);
}

void rtlm_irq_init(struct rtlm_dev *dev)
{
	rtlm_moder_init(dev, irq_moder_expire);
}

void rtlm_irq_reset(struct rtlm_dev *dev)
{
	dev->irq_sent = 0;
	memset(dev->irq_sent_whatif, 0, sizeof(dev->irq_sent_whatif));
	dev->legacy_sent = false;
	plat_pci_intx_set(&dev->pci, false);
}
