// SPDX-License-Identifier: MIT
/*
 * rtlm_reset.c - a chip's reset: ChipCmd RST (every part of the chip back
 * to its reset state) and the register file's reset values.
 */
#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

static uint32_t chip_reset_value(struct rtlm_dev *dev, unsigned ri,
				 unsigned e)
{
	const uint8_t *m = dev->p.mac;

	switch (ri) {
	case RTL_RI_MAC0_BKP:
		return m[e];
	case RTL_RI_MAC0:
		return (uint32_t)m[0] | (uint32_t)m[1] << 8 |
		       (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
	case RTL_RI_MAC4:
		return (uint32_t)m[4] | (uint32_t)m[5] << 8;
	case RTL_RI_TxConfig:
		return (uint32_t)dev->chip->xid << RTL_TXCFG_XID_SHIFT;
	default:
		return rtl_regs[ri].reset;
	}
}

/* Every row back to its reset value; sticky rows only at power-on
 * (dev->regs freshly zeroed is not distinguishable, so the caller
 * passes through rtlm_regs_reset() for both and power-on sets sticky
 * rows first). */
void rtlm_regs_reset(struct rtlm_dev *dev)
{
	for (unsigned ri = 0; ri < RTL_RI__COUNT; ri++) {
		const struct rtl_reg_desc *d = &rtl_regs[ri];

		if ((d->flags & RTL_RF_STICKY) && dev->st.resets)
			continue;
		for (unsigned e = 0; e < d->n; e++)
			*rtlm_reg(dev, ri, e) = d->flags & RTL_RF_CHIP ?
				chip_reset_value(dev, ri, e) : d->reset;
	}
}

/*
 * ChipCmd RST (K rtl_hw_reset polls it low): registers back to reset
 * (INT_CFG0 is sticky, rtl_regs.def), rings back to index 0, frames in the
 * RX pipeline dropped (rx_reset), TX stopped, interrupt state and
 * moderation timers cleared, a tally dump abandoned.  Held OwnBit
 * write-backs land first: they were issued before the reset.  The reset
 * completes at once, so RST reads 0 right after the write.
 */
void rtlm_reset(struct rtlm_dev *dev)
{
	rtlm_wb_flush(dev);
	dev->st.resets++;
	rtlm_rx_reset(dev);
	rtlm_tx_reset(dev);
	rtlm_moder_reset(dev);
	rtlm_tally_reset(dev);
	rtlm_regs_reset(dev);
	rtlm_phy_status_set(dev);
	for (unsigned t = 0; t < 4; t++)
		dev->tctr_base[t] = sim_now(dev->sim);
	rtlm_ocp_reset(dev);
	dev->rss_dirty = true;
	rtlm_irq_reset(dev);
}
