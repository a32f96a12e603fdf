/* SPDX-License-Identifier: MIT */
/*
 * rtlu_ctrl.c - vendor control requests on endpoint 0: reads and writes of
 * the PLA and USB OCP register spaces (rtl_usb_regs.h), byte enables,
 * register side effects.
 */
#include <errno.h>
#include <string.h>

#include "model/model_tally.h"
#include "model/rtlu_priv.h"

static uint8_t *space(struct rtlu_dev *dev, uint16_t mcu)
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
	const uint8_t *s = space((struct rtlu_dev *)dev, mcu);
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

/* One byte written by the host, with its side effects. */
static void write_byte(struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		       uint8_t v)
{
	uint8_t *s = space(dev, mcu);
	bool pla = (mcu & RTLU_MCU_TYPE_MASK) == RTLU_MCU_TYPE_PLA;

	if (pla && (addr == RTLU_PLA_PHYSTATUS ||
		    addr == RTLU_PLA_PHYSTATUS + 1)) {
		rtlu_guest_error(dev, "write to read-only PLA_PHYSTATUS");
		return;
	}
	if (pla && addr >= RTLU_PLA_TALLYCNT &&
	    addr < RTLU_PLA_TALLYCNT + sizeof(struct rtl_tally)) {
		rtlu_guest_error(dev, "write to read-only PLA_TALLYCNT");
		return;
	}
	if (pla && addr == RTLU_PLA_RSTTALLY) {
		if (v & RTLU_TALLY_RESET)
			memset(&dev->tally, 0, sizeof(dev->tally));
		s[addr] = v & (uint8_t)~RTLU_TALLY_RESET;      /* self-clearing */
		return;
	}
	if (pla && (addr == RTLU_PLA_TCR1 || addr == RTLU_PLA_TCR1 + 1)) {
		/* the version bits are read-only */
		uint8_t ro = (uint8_t)(RTLU_TCR1_VERSION_MASK >>
				       (8 * (addr - RTLU_PLA_TCR1)));

		s[addr] = (uint8_t)((s[addr] & ro) | (v & ~ro));
		return;
	}
	if (pla && addr == RTLU_PLA_CR) {
		if (v & RTLU_CR_RST) {
			dev->st.resets++;
			rtlu_rx_reset(dev);
		}
		s[addr] = v & (uint8_t)~RTLU_CR_RST;   /* self-clearing */
		rtlu_rx_kick(dev);
		return;
	}
	s[addr] = v;
	if (!pla && addr == RTLU_USB_INT_MITIGATION) {
		bool on = rtlu_mitigation_on(dev);

		if (on != dev->st.mitigation) {
			dev->st.mitigation = on;
			rtlu_rx_mode_changed(dev);
		}
	}
}

/*
 * The vendor request (rtl_usb_regs.h): read @len bytes at @addr, or
 * write dwords with byte enables.  Returns data-stage bytes or -EPIPE.
 */
int rtlu_control(void *opaque, const struct plat_usb_setup *setup,
		 uint8_t *data)
{
	struct rtlu_dev *dev = opaque;
	uint16_t mcu = setup->wIndex & RTLU_MCU_TYPE_MASK;
	uint16_t addr = setup->wValue;
	uint16_t len = setup->wLength;
	uint8_t *s = space(dev, mcu);

	if (dev->p.faults.ctrl_stall_next) {
		dev->p.faults.ctrl_stall_next--;
		dev->st.ctrl_stalls++;
		return -EPIPE;
	}
	if (setup->bRequest != RTLU_REQ_GET_REGS ||
	    (setup->bRequestType != RTLU_REQT_READ &&
	     setup->bRequestType != RTLU_REQT_WRITE)) {
		rtlu_guest_error(dev, "control request 0x%02x type 0x%02x: "
				 "not a register access", setup->bRequest,
				 setup->bRequestType);
		goto stall;
	}
	if (!s || !len || len > RTLU_CTRL_MAX ||
	    (uint32_t)addr + len > RTLU_SPACE || (len && !data)) {
		rtlu_guest_error(dev, "register access 0x%04x+%u in space "
				 "0x%04x: out of range", addr, len,
				 setup->wIndex);
		goto stall;
	}
	if (setup->bRequestType == RTLU_REQT_READ) {
		dev->st.ctrl_reads++;
		/* the counters as they are now, where the read covers them */
		if (mcu == RTLU_MCU_TYPE_PLA &&
		    addr < RTLU_PLA_TALLYCNT + sizeof(struct rtl_tally) &&
		    addr + len > RTLU_PLA_TALLYCNT)
			model_tally_image(&dev->tally, dev->pla + RTLU_PLA_TALLYCNT);
		memcpy(data, s + addr, len);
		return len;
	}
	/* writes: whole dwords at a 4-aligned address, byte enables */
	if ((addr & 3u) || (len & 3u)) {
		rtlu_guest_error(dev, "register write 0x%04x+%u: not whole "
				 "aligned dwords", addr, len);
		goto stall;
	}
	{
		uint8_t be = (uint8_t)setup->wIndex;
		unsigned n = len / 4u;

		if (!be) {
			rtlu_guest_error(dev, "register write 0x%04x: no byte "
					 "enabled", addr);
			goto stall;
		}
		dev->st.ctrl_writes++;
		for (unsigned d = 0; d < n; d++) {
			unsigned m;

			if (n == 1)
				m = (be & 0x0Fu) | (be >> 4);
			else if (d == 0)
				m = be & 0x0Fu;
			else if (d == n - 1)
				m = be >> 4;
			else
				m = 0x0Fu;
			for (unsigned b = 0; b < 4; b++)
				if (m & (1u << b))
					write_byte(dev, mcu,
						   (uint16_t)(addr + 4 * d + b),
						   data[4 * d + b]);
		}
		return len;
	}
stall:
	dev->st.ctrl_stalls++;
	return -EPIPE;
}
