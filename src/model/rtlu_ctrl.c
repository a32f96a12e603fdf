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

/* One byte written by the host, with its side effects. */
static void write_byte(struct rtlu_dev *dev, uint16_t mcu, uint16_t addr,
		       uint8_t v)
{
	uint8_t *s = rtlu_space(dev, mcu);
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
	uint8_t *s = rtlu_space(dev, mcu);

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
