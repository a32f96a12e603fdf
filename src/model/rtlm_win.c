// SPDX-License-Identifier: MIT
/*
 * rtlm_win.c - two indirect windows of the MAC: EPHYAR (0x80) onto the
 * PCIe PHY's registers and CSIAR/CSIDR (0x68/0x64) onto the function's
 * own PCIe configuration space.  Layouts and sources: the rows in
 * src/hw/rtl_regs.def.  Both complete at once ([I] no source gives a
 * latency; K and the vendor poll the flag with 10-100 us between reads,
 * which a completed command satisfies on the first read).
 */
#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

/*
 * EPHYAR: a write (bit 31 set) stores the data in EPHY register [22:16]
 * of the current page and reads back with bit 31 clear; a read (bit 31
 * clear) reads back with bit 31 set and the register in [15:0].
 * Register 0x7e selects the page (the RTL8127's extended addresses).
 */
void rtlm_ephy_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		     uint32_t old, uint32_t val)
{
	uint32_t *r = rtlm_reg(dev, ri, elem);
	unsigned a = (val >> RTL_EPHYAR_REG_SHIFT) & RTL_EPHYAR_REG_MASK;
	unsigned page = dev->ephy[0][RTL_EPHY_EXT_PAGE] % RTLM_EPHY_PAGES;

	(void)old;
	if (a == RTL_EPHY_EXT_PAGE)
		page = 0;	/* the page register itself: on page 0 [I] */
	if (val & RTL_EPHYAR_FLAG) {
		dev->ephy[page][a] = (uint16_t)(val & RTL_EPHYAR_DATA_MASK);
		*r = val & ~RTL_EPHYAR_FLAG;
		return;
	}
	*r = (val & ~RTL_EPHYAR_DATA_MASK) | RTL_EPHYAR_FLAG | dev->ephy[page][a];
}

/*
 * CSIAR: a write command (bit 31 set) writes CSIDR to the dword at
 * [11:0] & ~3 of configuration space, the bytes whose enable [15:12] is
 * set, and reads back with bit 31 clear; a read (bit 31 clear) puts that
 * dword in CSIDR (bytes not enabled read 0 [I]) and reads back with bit
 * 31 set.  The model is one function: [I] a command for function [17:16]
 * != 0 reaches nothing, a read gives all ones (what a PCI read that no
 * function claims returns) and a write is dropped, each a guest error.
 */
void rtlm_csi_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val)
{
	uint32_t *r = rtlm_reg(dev, ri, elem);
	uint32_t *dr = rtlm_reg(dev, RTL_RI_CSIDR, 0);
	unsigned addr = val & RTL_CSIAR_ADDR_MASK & ~3u;
	unsigned be = (val >> RTL_CSIAR_BYTE_EN_SHIFT) & RTL_CSIAR_BYTE_EN;
	unsigned func = (val >> RTL_CSIAR_FUNC_SHIFT) & RTL_CSIAR_FUNC_MASK;
	bool write = val & RTL_CSIAR_FLAG;
	uint32_t v = 0;

	(void)old;
	if (func) {
		rtlm_guest_error(dev, "CSI %s of config 0x%03x for function %u: no such function",
				 write ? "write" : "read", addr, func);
		if (!write)
			*dr = 0xffffffffu;
		*r = write ? val & ~RTL_CSIAR_FLAG : val | RTL_CSIAR_FLAG;
		return;
	}
	if (write) {
		if (be == 0xf) {
			plat_pci_cfg_write(&dev->pci, addr, 4, *dr);
		} else {
			for (unsigned b = 0; b < 4; b++)
				if (be & (1u << b))
					plat_pci_cfg_write(&dev->pci, addr + b, 1,
							   (*dr >> (8 * b)) & 0xffu);
		}
		*r = val & ~RTL_CSIAR_FLAG;
		return;
	}
	if (plat_pci_cfg_read(&dev->pci, addr, 4, &v))
		v = 0xffffffffu;
	for (unsigned b = 0; b < 4; b++)
		if (!(be & (1u << b)))
			v &= ~(0xffu << (8 * b));
	*dr = v;
	*r = val | RTL_CSIAR_FLAG;
}
