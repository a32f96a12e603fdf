// SPDX-License-Identifier: MIT
/*
 * rtlm_ocp.c - the MAC and PHY OCP windows (MACOCP 0xB0, GPHY_OCP 0xB8)
 * and the TCTR timer counters.
 *
 * OCP window (K r8168_mac_ocp_write/_read, r8168_phy_ocp_*): bit 31 set =
 * write data [15:0] to OCP address [30:16] * 2; bit 31 clear = read: the
 * register then shows the data in [15:0] and, for the PHY window, bit 31
 * set = done (K polls it).  Both complete at once.
 *
 * MAC OCP: every address stores what is written and reads it back (reset
 * 0, and 0 again after a ChipCmd reset, as before); the model gives
 * meaning to 0xE63E (TX queue count) and 0xEB58 (TX descriptor format),
 * rtl_defines.h.  PHY OCP: the internal PHY's space (rtlm_phy.c), which
 * a ChipCmd reset leaves alone (the PHY has its own reset, BMCR).
 * An address no row of src/hw/rtl_ocp.def names is noted in the
 * unknown-register report of its space (rtlm_unknown_in()).
 *
 * TCTR0..3 [I] (rtl_regs.def): count 8 ns ticks up from the last write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_defines.h"
#include "hw/rtl_ocp.h"
#include "model/rtlm_priv.h"

int rtlm_ocp_init(struct rtlm_dev *dev)
{
	dev->mac_ocp = calloc(RTLM_OCP_WORDS, sizeof(uint16_t));
	return dev->mac_ocp ? 0 : -ENOMEM;
}

void rtlm_ocp_fini(struct rtlm_dev *dev)
{
	free(dev->mac_ocp);
}

void rtlm_ocp_reset(struct rtlm_dev *dev)
{
	memset(dev->mac_ocp, 0, RTLM_OCP_WORDS * sizeof(uint16_t));
}

uint16_t rtlm_mac_ocp(struct rtlm_dev *dev, uint16_t addr)
{
	return dev->mac_ocp[addr / 2];
}

void rtlm_ocp_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val)
{
	bool phy = ri == RTL_RI_GPHY_OCP;
	uint16_t addr = (uint16_t)(((val >> 16) & 0x7fffu) << 1);
	uint32_t *r = rtlm_reg(dev, ri, elem);
	bool write = val & RTL_OCP_FLAG;
	uint16_t data = (uint16_t)(val & RTL_OCP_DATA_MASK);

	(void)old;
	if (!rtl_ocp_lookup(phy ? RTL_OCP_PHY : RTL_OCP_MAC, addr))
		rtlm_unknown_note(dev, phy ? RTLM_UNKNOWN_PHY_OCP : RTLM_UNKNOWN_MAC_OCP,
				  addr, write, data);
	if (write) {
		if (phy)
			rtlm_phy_write(dev, addr, data);
		else
			dev->mac_ocp[addr / 2] = data;
		/* write done: the busy/flag bit reads 0 */
		*r = val & ~RTL_OCP_FLAG;
		return;
	}
	data = phy ? rtlm_phy_read(dev, addr) : dev->mac_ocp[addr / 2];
	*r = (val & ~RTL_OCP_DATA_MASK) | data | (phy ? RTL_OCP_FLAG : 0);
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
