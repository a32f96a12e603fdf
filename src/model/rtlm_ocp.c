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
 * The PHY: its IEEE 802.3 clause 22 registers sit in the PHY OCP window at
 * RTL_PHY_OCP_STD_BASE + 2 * reg (K: page 0 of the internal PHY is at OCP
 * 0xA400).  The model answers the standard registers from its link state
 * so that a PHY library (Linux phylib's generic driver) finds a PHY,
 * negotiates and sees the link: PHY ID 001c:c800 (a Realtek internal PHY
 * id the generic driver accepts [I]), BMSR/LPA/STAT1000 with link and
 * autonegotiation complete while the link is up, and Realtek's PHY status
 * register (0x1a: link, full duplex, 1000 Mbit/s, the generic PHY's best).
 * BMCR, ADVERTISE and
 * CTRL1000 keep what is written (reset and restart-autoneg self-clear).
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

/* Clause 22 registers (IEEE 802.3 22.2.4) and bits the model uses. */
enum {
	MII_BMCR = 0, MII_BMSR = 1, MII_PHYSID1 = 2, MII_PHYSID2 = 3,
	MII_ADVERTISE = 4, MII_LPA = 5, MII_EXPANSION = 6, MII_CTRL1000 = 9,
	MII_STAT1000 = 10, MII_ESTATUS = 15,
	/* Realtek's PHY-specific status (Linux realtek PHY driver RTL_PHYSR,
	 * MII_RESV2; also page 0xa43 register 0x12, the same OCP address) */
	MII_RTL_PHYSR = 0x1a,
};
#define PHYSR_LINK		0x0004u
#define PHYSR_DUPLEX		0x0008u
#define PHYSR_SPEED_1000	0x0020u	/* speed bits 5:4 = 2 */
#define BMCR_RESET		0x8000u
#define BMCR_ANRESTART		0x0200u
/* 100BASE-TX FD/HD, 10BASE-T FD/HD, extended status, preamble
 * suppression, autoneg ability, extended capabilities */
#define BMSR_ABILITIES		0x7949u
#define BMSR_LSTATUS		0x0004u
#define BMSR_ANEGCOMPLETE	0x0020u
#define LPA_LINK_PARTNER	0x45e1u	/* ack, pause, 10/100 FD/HD, 802.3 */
#define STAT1000_LINK		0x3800u	/* local/remote RX ok, LP 1000 FD */
#define ESTATUS_1000_TFULL	0x2000u
#define ESTATUS_1000_THALF	0x1000u

static bool phy_std_reg(uint16_t addr, unsigned *reg)
{
	if (addr < RTL_PHY_OCP_STD_BASE || addr >= RTL_PHY_OCP_STD_BASE + 2 * 32)
		return false;
	*reg = (addr - RTL_PHY_OCP_STD_BASE) / 2;
	return true;
}

/* Read-side value of standard PHY register @reg; @stored is what the
 * host last wrote (0 if never). */
static uint16_t phy_read(struct rtlm_dev *dev, unsigned reg, const uint16_t *stored)
{
	bool up = dev->link_up;

	switch (reg) {
	case MII_BMCR:
		return stored ? *stored : 0x1000u;     /* autoneg enabled */
	case MII_BMSR:
		return BMSR_ABILITIES | (up ? BMSR_LSTATUS | BMSR_ANEGCOMPLETE : 0);
	case MII_PHYSID1:
		return 0x001cu;
	case MII_PHYSID2:
		return 0xc800u;
	case MII_ADVERTISE:
		return stored ? *stored : 0x01e1u;
	case MII_LPA:
		return up ? LPA_LINK_PARTNER : 0;
	case MII_EXPANSION:
		return up ? 0x0001u : 0;               /* partner can autoneg */
	case MII_CTRL1000:
		return stored ? *stored : 0x0200u;     /* advertise 1000 FD */
	case MII_STAT1000:
		return up ? STAT1000_LINK : 0;
	case MII_ESTATUS:
		return ESTATUS_1000_TFULL | ESTATUS_1000_THALF;
	case MII_RTL_PHYSR:     /* what the generic PHY negotiates: 1000 FD */
		return up ? PHYSR_LINK | PHYSR_DUPLEX | PHYSR_SPEED_1000 : 0;
	default:
		return stored ? *stored : 0;
	}
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
		uint16_t data = (uint16_t)(val & RTL_OCP_DATA_MASK);
		unsigned reg;

		/* BMCR reset and restart-autoneg complete at once */
		if (w && phy_std_reg(addr, &reg) && reg == MII_BMCR)
			data &= (uint16_t)~(BMCR_RESET | BMCR_ANRESTART);
		slot = ocp_slot(dev, w, addr, true);
		if (slot)
			*slot = data;
		/* write done: the busy/flag bit reads 0 */
		*r = val & ~RTL_OCP_FLAG;
		return;
	}
	slot = ocp_slot(dev, w, addr, false);
	{
		unsigned reg;
		uint16_t data = slot ? *slot : 0;

		if (w && phy_std_reg(addr, &reg))
			data = phy_read(dev, reg, slot);
		*r = (val & ~RTL_OCP_DATA_MASK) | data | (w ? RTL_OCP_FLAG : 0);
	}
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
