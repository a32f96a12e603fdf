/* SPDX-License-Identifier: MIT */
/*
 * rtlu_regs.c - the adapter's register file: the PLA and USB OCP spaces
 * (rtl_usb_regs.h), reads, the power-on values, PLA_PHYSTATUS from the
 * link.  The writes and their side effects are rtlu_ctrl.c's; every part
 * reads the registers here, and this file calls none of them.
 */
#include <string.h>

#include "model/rtlu_priv.h"

uint8_t *rtlu_space(struct rtlu_dev *dev, uint16_t mcu)
{
	switch (mcu & RTLU_MCU_TYPE_MASK) {
	case RTLU_MCU_TYPE_PLA:
		return dev->pla;
	case RTLU_MCU_TYPE_USB:
		return dev->usbr;
	default:
		return NULL;
	}
}

static void put16(uint8_t *s, uint16_t addr, uint16_t v)
{
	s[addr] = (uint8_t)v;
	s[addr + 1] = (uint8_t)(v >> 8);
}

uint32_t rtlu_rd(const struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		 unsigned size)
{
	const uint8_t *s = rtlu_space((struct rtlu_dev *)dev, mcu);
	uint32_t v = 0;

	if (!s || size > 4 || (uint32_t)addr + size > RTLU_SPACE)
		return 0;
	for (unsigned i = 0; i < size; i++)
		v |= (uint32_t)s[addr + i] << (8 * i);
	return v;
}

uint32_t rtlu_reg_peek(const struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		       unsigned size)
{
	return dev ? rtlu_rd(dev, mcu, addr, size) : 0;
}

bool rtlu_mitigation_on(const struct rtlu_dev *dev)
{
	return (dev->usbr[RTLU_USB_INT_MITIGATION] & RTLU_INT_MIT_MASK) ==
	       RTLU_INT_MIT_MASK;
}

/* PLA_PHYSTATUS for the current link (rtl_usb_regs.h bits). */
void rtlu_phy_update(struct rtlu_dev *dev)
{
	static const struct { uint32_t mbps; uint16_t bit; } speeds[] = {
		{ 10, RTLU_PHY_10BPS }, { 100, RTLU_PHY_100BPS },
		{ 1000, RTLU_PHY_1000BPS }, { 2500, RTLU_PHY_2500BPS },
		{ 5000, RTLU_PHY_5000BPS }, { 10000, RTLU_PHY_10000BPS },
	};
	uint16_t v = 0;

	if (dev->link_up) {
		v = RTLU_PHY_LINK_STATUS | RTLU_PHY_FULL_DUP;
		for (unsigned i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
			if (speeds[i].mbps == dev->link_mbps)
				v |= speeds[i].bit;
	}
	put16(dev->pla, RTLU_PLA_PHYSTATUS, v);
}

/* [I] Power-on values: the registers the model gives meaning to; the
 * rest of both spaces reads 0.  Timers hold the chip row's defaults. */
void rtlu_regs_reset(struct rtlu_dev *dev)
{
	const struct rtl_usb_chip_info *c = dev->chip;
	uint32_t es = (c->rx_buf_size - RTLU_RX_RESERVED(1500u)) /
		      RTLU_EARLY_SIZE_UNIT;

	memset(dev->pla, 0, sizeof(dev->pla));
	memset(dev->usbr, 0, sizeof(dev->usbr));
	memcpy(&dev->pla[RTLU_PLA_IDR], dev->p.mac, 6);
	put16(dev->pla, RTLU_PLA_TCR1, c->hw_id);
	put16(dev->usbr, RTLU_USB_USB_CTRL, RTLU_USB_CTRL_RESET);
	put16(dev->usbr, RTLU_USB_RX_EARLY_TIMEOUT,
	      (uint16_t)(c->caps->early_timeout_ns / RTLU_TIMER_UNIT_NS));
	put16(dev->usbr, RTLU_USB_RX_EARLY_SIZE, (uint16_t)es);
	put16(dev->usbr, RTLU_USB_RX_EXTRA_AGGR_TMR,
	      (uint16_t)(c->caps->coalesce_ns / RTLU_TIMER_UNIT_NS));
	dev->usbr[RTLU_USB_INT_MITIGATION] = RTLU_INT_MIT_RESET;
	rtlu_phy_update(dev);
	dev->st.mitigation = true;
}
