// SPDX-License-Identifier: MIT
/*
 * rtlm_phy.c - the chip's internal PHY, as a driver sees it through the
 * PHY OCP window (GPHY_OCP 0xB8, rtlm_ocp.c): its OCP register space, its
 * identity and abilities, autonegotiation and the link it reports.
 *
 * Addresses (src/hw/rtl_ocp.def): clause 22 page 0 at 0xA400 + 2 * reg
 * (K OCP_STD_PHY_BASE); Realtek page p register r (r >= 16) at p * 16 +
 * (r - 16) * 2 (K r8168g_mdio_read), so page 0xa42 register 0x10 is
 * 0xA420 and page 0xa43 register 0x12 is 0xA434; and the MDIO_MMD_VEND2
 * registers Linux's realtek PHY driver (R, realtek_main.c 7.3) reads
 * with the OCP address as register number (K r8169_mdio_read_reg_c45).
 * Every address stores what is written; the registers below also have
 * the meaning their comment gives.
 *
 * Identity (PHYSID1/2): the chip row's phy_id (rtl_chips.c).  The
 * multi-gig ability R reads to decide the speeds (R rtl822x_get_features:
 * PMA_SPEED 0xA616), the multi-gig advertisement (0xA5D4, R
 * rtl822x_config_aneg) and link partner ability (0xA5D6, R
 * rtl822x_read_status), and the speed R takes the link to run at
 * (PHYSR 0xA434, R rtlgen_decode_physr: bits 10:9 and 5:4 = 0x0210
 * 2.5G, 0x0220 5G, 0x0200 10G, 0x0020 1G; bit 3 full duplex, bit 2 link,
 * bit 11 master).  MMD access over clause 22 (registers 13/14) reads 0,
 * as R says the internal PHYs do (rtlgen_supports_mmd), which is how R
 * tells an internal PHY from the external chips with the same ID.
 *
 * Power state (0xA420 bits 2:0): 3 = LAN_ON once the PHY is powered up
 * (D rtl_wait_phy_ups_resume(3) after BMCR = ANENABLE; vendor
 * HW_PHY_STATUS_LAN_ON 3).  [gap] No source gives the code while BMCR
 * power-down is set: the model reads 0 then.
 *
 * Autonegotiation: the link partner (the model's wire, rtlm_set_link)
 * [I] offers every speed up to the wire's; the link comes up at the
 * fastest speed both sides advertise (ADVERTISE 10/100, CTRL1000 1000 FD,
 * 0xA5D4 2.5G/5G/10G), limited by the chip's PMA ability.  Advertisement
 * changes take effect at the next restart (IEEE 28.2.4.1).  A restart --
 * BMCR restart-autoneg, BMCR reset, clearing power-down, enabling
 * autoneg -- while the wire is up drops the link at once (LinkChg when it
 * was up) and brings it back rtlm_params.an_ns later (LinkChg again).
 * With autoneg off (BMCR bit 12 clear) the link runs at the forced speed
 * of BMCR bits 6/13 at once (IEEE 22.2.4.1.3).  [I] No link pulses,
 * downshift, master/slave resolution (the model is always master) or
 * EEE.
 *
 * PHY MCU patch handshake: 0xB800 bit 6 (patch ready) follows 0xB820 bit
 * 4 (patch request) at once (D rtl_set_phy_mcu_patch_request polls it).
 * Indirect windows: 0xA436/0xA438 (page 0xa43 registers 0x13/0x14, used
 * by D and the vendor for the PHY RAM code version at 0x801E) and
 * 0xB87C/0xB87E (K r8168g_phy_param): writing the first register sets
 * the address, the second reads and writes the word at that address
 * ([I] no auto-increment: K's read-modify-write through it needs none).
 */
#include <errno.h>
#include <stdlib.h>

#include "hw/rtl_defines.h"
#include "hw/rtl_ocp.h"
#include "model/rtlm_priv.h"

/* Clause 22 registers (IEEE 802.3 22.2.4) at 0xA400 + 2 * reg. */
#define C22(reg)		(RTL_PHY_OCP_STD_BASE + 2u * (reg))
enum {
	MII_BMCR = 0, MII_BMSR = 1, MII_PHYSID1 = 2, MII_PHYSID2 = 3,
	MII_ADVERTISE = 4, MII_LPA = 5, MII_EXPANSION = 6, MII_CTRL1000 = 9,
	MII_STAT1000 = 10, MII_MMD_CTRL = 13, MII_MMD_DATA = 14,
	MII_ESTATUS = 15,
};
#define BMCR_RESET		0x8000u
#define BMCR_SPEED100		0x2000u
#define BMCR_ANENABLE		0x1000u
#define BMCR_PDOWN		0x0800u
#define BMCR_ANRESTART		0x0200u
#define BMCR_FULLDPLX		0x0100u
#define BMCR_SPEED1000		0x0040u
#define BMCR_DEFAULT		BMCR_ANENABLE	/* [I] reset value */
/* 100BASE-TX FD/HD, 10BASE-T FD/HD, extended status, preamble
 * suppression, autoneg ability, extended capabilities */
#define BMSR_ABILITIES		0x7949u
#define BMSR_LSTATUS		0x0004u
#define BMSR_ANEGCOMPLETE	0x0020u
#define ADV_DEFAULT		0x01e1u	/* 10/100 FD/HD, 802.3 selector */
#define ADV_10FULL		0x0040u
#define ADV_100FULL		0x0100u
#define LPA_ACK			0x4000u
#define LPA_PAUSE		0x0400u
#define LPA_SELECTOR		0x0001u
#define LPA_10			0x0060u	/* 10 HD/FD */
#define LPA_100			0x0180u	/* 100 HD/FD */
#define CTRL1000_FULL		0x0200u
#define STAT1000_LOCAL_OK	0x2000u
#define STAT1000_REMOTE_OK	0x1000u
#define STAT1000_LP_FULL	0x0800u
#define ESTATUS_1000		0x3000u	/* 1000BASE-T FD and HD */

/* Realtek registers (R, D; rtl_ocp.def). */
#define PHY_STATE		0xA420u	/* page 0xa42 reg 0x10 */
#define PHY_STATE_MASK		0x0007u
#define PHY_STATE_LAN_ON	3u
#define PHY_SRAM_ADDR		0xA436u	/* page 0xa43 reg 0x13 */
#define PHY_SRAM_DATA		0xA438u
#define PHYSR			0xA434u	/* page 0xa43 reg 0x12 */
#define PHYSR_LINK		0x0004u
#define PHYSR_DUPLEX		0x0008u
#define PHYSR_MASTER		0x0800u
#define AN_10GBT_CTRL		0xA5D4u
#define ADV_2500		0x0080u
#define ADV_5000		0x0100u
#define ADV_10000		0x1000u
#define AN_10GBT_STAT		0xA5D6u
#define LP_2500			0x0020u
#define LP_5000			0x0040u
#define LP_10000		0x0800u
#define LP_LOCAL_OK		0x2000u
#define LP_REMOTE_OK		0x1000u
#define PMA_SPEED		0xA616u
#define PMA_SPEED_2500		0x2000u
#define PMA_SPEED_5000		0x4000u
#define PMA_SPEED_10000		0x0001u
#define MCU_PATCH_STATE		0xB800u
#define MCU_PATCH_READY		0x0040u
#define MCU_PATCH_REQ		0xB820u
#define MCU_PATCH_REQ_BIT	0x0010u
#define PARAM_ADDR		0xB87Cu
#define PARAM_DATA		0xB87Eu

/* EEE registers: the model has no EEE, so abilities and partner read 0. */
static bool eee_zero(uint16_t addr)
{
	return addr == RTL_OCPA_PCS_EEE_ABLE || addr == RTL_OCPA_PCS_EEE_ABLE2 ||
	       addr == RTL_OCPA_AN_EEE_LPABLE2 || addr == RTL_OCPA_AN_EEE_ADV + 2;
}

static uint16_t *reg(struct rtlm_dev *dev, uint16_t addr)
{
	return &dev->phy.ocp[addr / 2];
}

/* The speed (bit 10:9, 5:4 code of PHYSR) of @mbps. */
static uint16_t physr_speed(uint32_t mbps)
{
	switch (mbps) {
	case 100:
		return 0x0010;
	case 1000:
		return 0x0020;
	case 2500:
		return 0x0210;
	case 5000:
		return 0x0220;
	case 10000:
		return 0x0200;
	default:
		return 0;
	}
}

/* The chip's multi-gig PMA abilities (0xA616) from its line rate. */
static uint16_t pma_speed(const struct rtlm_dev *dev)
{
	uint32_t r = dev->chip->caps->speed_mbps;

	return (r >= 2500 ? PMA_SPEED_2500 : 0) | (r >= 5000 ? PMA_SPEED_5000 : 0) |
	       (r >= 10000 ? PMA_SPEED_10000 : 0);
}

static uint16_t adv_mgig_default(const struct rtlm_dev *dev)
{
	uint32_t r = dev->chip->caps->speed_mbps;

	return (r >= 2500 ? ADV_2500 : 0) | (r >= 5000 ? ADV_5000 : 0) |
	       (r >= 10000 ? ADV_10000 : 0);
}

/* What the link runs at: the fastest speed both the PHY and the partner
 * (every speed up to the wire's) advertise; 0 for none. */
static uint32_t negotiate(struct rtlm_dev *dev)
{
	uint16_t bmcr = *reg(dev, C22(MII_BMCR));
	uint16_t adv = *reg(dev, C22(MII_ADVERTISE));
	uint16_t c1000 = *reg(dev, C22(MII_CTRL1000));
	uint16_t mg = *reg(dev, AN_10GBT_CTRL);
	uint32_t cap = dev->chip->caps->speed_mbps, lim = dev->wire_mbps;
	static const struct { uint32_t mbps; int which; uint16_t bit; } s[] = {
		{ 10000, 2, ADV_10000 }, { 5000, 2, ADV_5000 },
		{ 2500, 2, ADV_2500 }, { 1000, 1, CTRL1000_FULL },
		{ 100, 0, ADV_100FULL | 0x0080u }, { 10, 0, ADV_10FULL | 0x0020u },
	};

	if (!(bmcr & BMCR_ANENABLE)) {
		uint32_t f = bmcr & BMCR_SPEED1000 ? 1000 : bmcr & BMCR_SPEED100 ? 100 : 10;

		return f <= lim && f <= cap ? f : 0;
	}
	for (unsigned i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		uint16_t r = s[i].which == 2 ? mg : s[i].which == 1 ? c1000 : adv;

		if (s[i].mbps <= cap && s[i].mbps <= lim && (r & s[i].bit))
			return s[i].mbps;
	}
	return 0;
}

static bool powered(struct rtlm_dev *dev)
{
	return !(*reg(dev, C22(MII_BMCR)) & BMCR_PDOWN);
}

/* PHYstatus (0x6C) bits 23:0 for the current link (D PHYstatus bit
 * values). */
static uint32_t phy_status(const struct rtlm_dev *dev)
{
	static const struct { uint32_t mbps, bit; } speeds[] = {
		{ 10, RTL_PHY_10M }, { 100, RTL_PHY_100M },
		{ 1000, RTL_PHY_1000MF }, { 2500, RTL_PHY_2500MF },
		{ 5000, RTL_PHY_5000MF }, { 10000, RTL_PHY_10000MF },
	};
	uint32_t v;

	if (!dev->link_up)
		return 0;
	v = RTL_PHY_LINK | RTL_PHY_FULL_DUP;
	for (unsigned i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].mbps == dev->link_mbps)
			v |= speeds[i].bit;
	return v;
}

/* Set the status bits; byte 3 (PMCH) keeps what the driver wrote. */
void rtlm_phy_status_set(struct rtlm_dev *dev)
{
	uint32_t *r = rtlm_reg(dev, RTL_RI_PHYstatus, 0);

	*r = (*r & ~RTL_PHYSTATUS_MASK) | phy_status(dev);
}

void rtlm_phy_link_update(struct rtlm_dev *dev)
{
	uint32_t mbps = 0;
	bool up = false, changed;

	if (dev->wire_up && powered(dev) && !dev->phy.an_busy) {
		mbps = negotiate(dev);
		up = mbps != 0;
	}
	if (!up)
		mbps = dev->wire_mbps;	/* what TX pacing uses while down */
	changed = up != dev->link_up || (up && mbps != dev->link_mbps);
	dev->link_up = up;
	dev->link_mbps = mbps;
	rtlm_phy_status_set(dev);
	if (changed)
		rtlm_irq_event(dev, RTLM_IRQ_LINK, 0);
}

static void an_done(struct sim *s, struct sim_event *ev)
{
	struct rtlm_dev *dev = ev->arg;

	(void)s;
	dev->phy.an_busy = false;
	rtlm_phy_link_update(dev);
}

/* A restart of autonegotiation (or a reset / power-up, which restart it). */
static void an_restart(struct rtlm_dev *dev)
{
	if (!(*reg(dev, C22(MII_BMCR)) & BMCR_ANENABLE) || !powered(dev)) {
		rtlm_phy_link_update(dev);
		return;
	}
	sim_cancel(dev->sim, &dev->phy.an_ev);
	dev->phy.an_busy = true;
	rtlm_phy_link_update(dev);	/* down now (LinkChg if it was up) */
	sim_schedule_in(dev->sim, &dev->phy.an_ev, dev->p.an_ns);
}

static uint16_t *sram(struct rtlm_dev *dev, unsigned w, uint16_t addr,
		      bool create)
{
	struct rtlm_phy *p = &dev->phy;

	for (unsigned i = 0; i < p->sram_n[w]; i++)
		if (p->sram[w][i].addr == addr)
			return &p->sram[w][i].val;
	if (!create)
		return NULL;
	if (p->sram_n[w] == p->sram_cap[w]) {
		unsigned cap = p->sram_cap[w] ? 2 * p->sram_cap[w] : 64;
		struct rtlm_phy_sram *v = realloc(p->sram[w], cap * sizeof(*v));

		if (!v)
			return NULL;
		p->sram[w] = v;
		p->sram_cap[w] = cap;
	}
	p->sram[w][p->sram_n[w]].addr = addr;
	p->sram[w][p->sram_n[w]].val = 0;
	return &p->sram[w][p->sram_n[w]++].val;
}

/* The power-on state of the PHY's registers. */
static void phy_defaults(struct rtlm_dev *dev)
{
	*reg(dev, C22(MII_BMCR)) = BMCR_DEFAULT;
	*reg(dev, C22(MII_ADVERTISE)) = ADV_DEFAULT;
	*reg(dev, C22(MII_CTRL1000)) = CTRL1000_FULL;
	*reg(dev, AN_10GBT_CTRL) = adv_mgig_default(dev);
	*reg(dev, PHY_STATE) = PHY_STATE_LAN_ON;
}

int rtlm_phy_init(struct rtlm_dev *dev)
{
	dev->phy.ocp = calloc(RTLM_OCP_WORDS, sizeof(uint16_t));
	if (!dev->phy.ocp)
		return -ENOMEM;
	sim_event_init(&dev->phy.an_ev, an_done, dev);
	phy_defaults(dev);
	return 0;
}

void rtlm_phy_fini(struct rtlm_dev *dev)
{
	sim_cancel(dev->sim, &dev->phy.an_ev);
	free(dev->phy.ocp);
	free(dev->phy.sram[0]);
	free(dev->phy.sram[1]);
}

uint16_t rtlm_phy_read(struct rtlm_dev *dev, uint16_t addr)
{
	uint16_t stored = *reg(dev, addr);
	bool up = dev->link_up;
	uint32_t m = dev->link_mbps;
	uint16_t *s;

	switch (addr) {
	case C22(MII_BMSR):
		return BMSR_ABILITIES | (up ? BMSR_LSTATUS | BMSR_ANEGCOMPLETE : 0);
	case C22(MII_PHYSID1):
		return (uint16_t)(dev->chip->phy_id >> 16);
	case C22(MII_PHYSID2):
		return (uint16_t)dev->chip->phy_id;
	case C22(MII_LPA):
		return up ? LPA_ACK | LPA_PAUSE | LPA_SELECTOR | LPA_10 |
			    (dev->wire_mbps >= 100 ? LPA_100 : 0) : 0;
	case C22(MII_EXPANSION):
		return up ? 0x0001u : 0;	/* partner can autoneg */
	case C22(MII_STAT1000):
		return up && dev->wire_mbps >= 1000 ?
		       STAT1000_LOCAL_OK | STAT1000_REMOTE_OK | STAT1000_LP_FULL : 0;
	case C22(MII_MMD_CTRL):
	case C22(MII_MMD_DATA):
		return 0;
	case C22(MII_ESTATUS):
		return ESTATUS_1000;
	case PHY_STATE:
		return (uint16_t)((stored & ~PHY_STATE_MASK) |
				  (powered(dev) ? PHY_STATE_LAN_ON : 0));
	case PHYSR:
		return up ? (uint16_t)(PHYSR_LINK | PHYSR_DUPLEX | PHYSR_MASTER |
				       physr_speed(m)) : 0;
	case AN_10GBT_STAT:
		if (!up || dev->wire_mbps < 2500)
			return 0;
		return LP_LOCAL_OK | LP_REMOTE_OK | LP_2500 |
		       (dev->wire_mbps >= 5000 ? LP_5000 : 0) |
		       (dev->wire_mbps >= 10000 ? LP_10000 : 0);
	case PMA_SPEED:
		return pma_speed(dev);
	case MCU_PATCH_STATE:
		return (uint16_t)((stored & ~MCU_PATCH_READY) |
				  (*reg(dev, MCU_PATCH_REQ) & MCU_PATCH_REQ_BIT ?
				   MCU_PATCH_READY : 0));
	case PHY_SRAM_DATA:
		s = sram(dev, 0, *reg(dev, PHY_SRAM_ADDR), false);
		return s ? *s : 0;
	case PARAM_DATA:
		s = sram(dev, 1, *reg(dev, PARAM_ADDR), false);
		return s ? *s : 0;
	default:
		return eee_zero(addr) ? 0 : stored;
	}
}

void rtlm_phy_write(struct rtlm_dev *dev, uint16_t addr, uint16_t val)
{
	uint16_t *r = reg(dev, addr), old = *r;
	uint16_t *s;

	switch (addr) {
	case C22(MII_BMCR):
		if (val & BMCR_RESET) {
			/* [I] a reset returns BMCR to its default and
			 * restarts autonegotiation; the advertisement
			 * registers keep their values (phylib rewrites them) */
			*r = BMCR_DEFAULT;
			an_restart(dev);
			return;
		}
		*r = val & (uint16_t)~BMCR_ANRESTART;
		if ((val & BMCR_ANRESTART) ||
		    ((old & BMCR_PDOWN) && !(val & BMCR_PDOWN)) ||
		    (!(old & BMCR_ANENABLE) && (val & BMCR_ANENABLE)))
			an_restart(dev);
		else if ((val ^ old) & (BMCR_PDOWN | BMCR_ANENABLE | BMCR_SPEED100 |
				       BMCR_SPEED1000 | BMCR_FULLDPLX)) {
			if (val & BMCR_PDOWN) {
				sim_cancel(dev->sim, &dev->phy.an_ev);
				dev->phy.an_busy = false;
			}
			rtlm_phy_link_update(dev);
		}
		return;
	case PMA_SPEED:
		return;			/* read-only ability */
	case PHY_SRAM_DATA:
		s = sram(dev, 0, *reg(dev, PHY_SRAM_ADDR), true);
		if (s)
			*s = val;
		return;
	case PARAM_DATA:
		s = sram(dev, 1, *reg(dev, PARAM_ADDR), true);
		if (s)
			*s = val;
		return;
	default:
		*r = val;
		return;
	}
}
