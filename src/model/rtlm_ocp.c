// SPDX-License-Identifier: MIT
/*
 * rtlm_ocp.c - the MAC and PHY OCP windows (MACOCP 0xB0, GPHY_OCP 0xB8)
 * and the TCTR timer counters.
 *
 * OCP window (K r8168_mac_ocp_write/_read, r8168_phy_ocp_*): bit 31 set =
 * write data [15:0] to OCP address [30:16] * 2; bit 31 clear = read: the
 * register then shows the data in [15:0] and, for the PHY window, bit 31
 * set = done (K polls it).  The model keeps what was written (up to
 * RTLM_OCP_SLOTS addresses per window; more is a guest error) and reads
 * back 0 for anything else: [I] no PHY or MAC OCP semantics besides the
 * two MAC registers the model uses, 0xE63E (TX queue count) and 0xEB58
 * (TX descriptor format), rtl_defines.h.
 *
 * TCTR0..3 [I] (rtl_regs.def): count 8 ns ticks up from the last write.
 */
#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

static uint16_t *ocp_slot(struct rtlm_dev *dev, unsigned w, uint16_t addr,
			  bool create)
{
	for (unsigned i = 0; i < dev->ocp_n[w]; i++)
		if (dev->ocp[w][i].addr == addr)
			return &dev->ocp[w][i].val;
	if (!create)
		return NULL;
	if (dev->ocp_n[w] == RTLM_OCP_SLOTS) {
		rtlm_guest_error(dev, "OCP write to 0x%04x: more than %u addresses",
				 addr, RTLM_OCP_SLOTS);
		return NULL;
	}
	dev->ocp[w][dev->ocp_n[w]].addr = addr;
	dev->ocp[w][dev->ocp_n[w]].val = 0;
	return &dev->ocp[w][dev->ocp_n[w]++].val;
}

uint16_t rtlm_mac_ocp(struct rtlm_dev *dev, uint16_t addr)
{
	uint16_t *v = ocp_slot(dev, 0, addr, false);

	return v ? *v : 0;
}

void rtlm_ocp_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val)
{
	unsigned w = ri == RTL_RI_GPHY_OCP;
	uint16_t addr = (uint16_t)(((val >> 16) & 0x7fffu) << 1);
	uint32_t *r = rtlm_reg(dev, ri, elem);
	uint16_t *slot;

	(void)old;
	if (val & RTL_OCP_FLAG) {
		slot = ocp_slot(dev, w, addr, true);
		if (slot)
			*slot = (uint16_t)(val & RTL_OCP_DATA_MASK);
		/* write done: the busy/flag bit reads 0 */
		*r = val & ~RTL_OCP_FLAG;
		return;
	}
	slot = ocp_slot(dev, w, addr, false);
	*r = (val & ~RTL_OCP_DATA_MASK) | (slot ? *slot : 0) |
	     (w ? RTL_OCP_FLAG : 0);
}

static unsigned tctr_index(unsigned ri)
{
	return ri == RTL_RI_TCTR0_8125 ? 0 : ri == RTL_RI_TCTR1_8125 ? 1 :
	       ri == RTL_RI_TCTR2_8125 ? 2 : 3;
}

void rtlm_tctr_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		     uint32_t old, uint32_t val)
{
	(void)elem;
	(void)old;
	(void)val;
	dev->tctr_base[tctr_index(ri)] = sim_now(dev->sim);
}

uint32_t rtlm_tctr_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			uint32_t stored)
{
	(void)elem;
	(void)stored;
	return (uint32_t)((sim_now(dev->sim) - dev->tctr_base[tctr_index(ri)]) /
			  RTL_TIMER_TICK_NS);
}
