// SPDX-License-Identifier: MIT
/*
 * rtlm_mmio.c - the register file and BAR 0 dispatch, driven by the
 * rtl_regs[] table of src/hw (QEMU igb style: the table decides, handlers
 * only add side effects).
 *
 * An access is split into byte lanes (rtl_regs.h "Access size rule"):
 * each lane is looked up in the table, lanes of one register element are
 * applied together with the row's access semantics, and the element's
 * hook (below) runs after its value changed.  A lane no row covers is an
 * unknown register: it reads 0, a write to it is dropped, and either is a
 * guest error.  So is a write to a RO row, a misaligned access, or a size
 * other than 1/2/4/8 (8 = two aligned dwords, low first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

static void chipcmd_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			  uint32_t old, uint32_t val)
{
	(void)ri;
	(void)elem;
	if (val & RTL_CMD_RST) {
		rtlm_reset(dev);
		return;
	}
	/* TE turned on: rings whose doorbell was rung while it was off
	 * stay idle until rung again (the doorbell was a guest error). */
	(void)old;
}

/* Side effects after a write, by row. */
static const rtlm_wr_hook wr_hooks[RTL_RI__COUNT] = {
	[RTL_RI_CounterAddrLow] = rtlm_tally_write,
	[RTL_RI_TCTR3_8125] = rtlm_tctr_write,
	[RTL_RI_TxDescStartAddrLow] = rtlm_tx_ring_base_write,
	[RTL_RI_TxDescStartAddrHigh] = rtlm_tx_ring_base_write,
	[RTL_RI_INT_CFG0_8125] = rtlm_irq_reg_write,
	[RTL_RI_ChipCmd] = chipcmd_write,
	[RTL_RI_IntrMask_8125] = rtlm_irq_reg_write,
	[RTL_RI_IntrStatus_8125] = rtlm_irq_reg_write,
	[RTL_RI_TCTR0_8125] = rtlm_tctr_write,
	[RTL_RI_TCTR1_8125] = rtlm_tctr_write,
	[RTL_RI_CSIAR] = rtlm_csi_write,
	[RTL_RI_EPHYAR] = rtlm_ephy_write,
	[RTL_RI_TCTR2_8125] = rtlm_tctr_write,
	[RTL_RI_TxPoll_8125] = rtlm_tx_doorbell_write,
	[RTL_RI_MACOCP] = rtlm_ocp_write,
	[RTL_RI_GPHY_OCP] = rtlm_ocp_write,
	[RTL_RI_RxDescAddrLow] = rtlm_rx_ring_base_write,
	[RTL_RI_RxDescAddrHigh] = rtlm_rx_ring_base_write,
	[RTL_RI_IMR1_8125] = rtlm_irq_reg_write,
	[RTL_RI_ISR1_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR2_8125] = rtlm_irq_reg_write,
	[RTL_RI_ISR2_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR3_8125] = rtlm_irq_reg_write,
	[RTL_RI_ISR3_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR_V2_CLEAR_REG_8125] = rtlm_irq_reg_write,
	[RTL_RI_ISR_V2_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR_V2_SET_REG_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR_V4_L2_CLEAR_REG_8125] = rtlm_irq_reg_write,
	[RTL_RI_ISR_V4_L2_8125] = rtlm_irq_reg_write,
	[RTL_RI_IMR_V4_L2_SET_REG_8125] = rtlm_irq_reg_write,
	[RTL_RI_SW_TAIL_PTR0_8125BP] = rtlm_tx_tail_write,
	[RTL_RI_SW_TAIL_PTR1_8125BP] = rtlm_tx_tail_write,
	[RTL_RI_TNPDS_Q1_LOW_8125] = rtlm_tx_ring_base_write,
	[RTL_RI_RDSAR_Q1_LOW_8125] = rtlm_rx_ring_base_write,
	[RTL_RI_RSS_CTRL_8125] = rtlm_rss_write,
	[RTL_RI_RSS_KEY_8125] = rtlm_rss_write,
	[RTL_RI_RSS_INDIRECTION_TBL_8125_V2] = rtlm_rss_write,
	[RTL_RI_Q_NUM_CTRL_8125] = rtlm_rss_write,
	[RTL_RI_RDSAR_Q4_WHATIF] = rtlm_rx_ring_base_write,
	[RTL_RI_IMR_CLEAR_WHATIF] = rtlm_irq_reg_write,
	[RTL_RI_ISR_WHATIF] = rtlm_irq_reg_write,
	[RTL_RI_IMR_SET_WHATIF] = rtlm_irq_reg_write,
	[RTL_RI_RSS_INDIR_WHATIF] = rtlm_rss_write,
	[RTL_RI_RSS_CFG_WHATIF] = rtlm_rss_write,
};

/* The row covering each byte of the BAR (row index + 1; 0: none), made
 * once from rtl_reg_lookup(): an access costs one load instead of a binary
 * search over the ~70 rows (the driver touches IntrStatus, IntrMask and a
 * doorbell about every second frame). */
static uint8_t reg_row[RTL_BAR_SIZE];
static bool reg_row_ok;

_Static_assert(RTL_RI__COUNT < 256, "reg_row holds a row index in a byte");

static const struct rtl_reg_desc *reg_at(uint32_t off)
{
	if (!reg_row_ok) {
		for (uint32_t o = 0; o < RTL_BAR_SIZE; o++) {
			const struct rtl_reg_desc *d = rtl_reg_lookup(o);

			reg_row[o] = d ? (uint8_t)(d - rtl_regs + 1) : 0;
		}
		reg_row_ok = true;
	}
	return reg_row[off] ? &rtl_regs[reg_row[off] - 1] : NULL;
}

/* The row covering @off on this chip: what-if rows only on a what-if
 * chip row, unknown registers on every real one. */
static const struct rtl_reg_desc *reg_lookup(const struct rtlm_dev *dev, uint32_t off)
{
	const struct rtl_reg_desc *d = reg_at(off);

	return d && (d->flags & RTL_RF_WHATIF) && !dev->chip->whatif ? NULL : d;
}

/* Values computed at read time, by row. */
static const rtlm_rd_hook rd_hooks[RTL_RI__COUNT] = {
	[RTL_RI_TCTR3_8125] = rtlm_tctr_read,
	[RTL_RI_ChipCmd] = rtlm_chipcmd_read,
	[RTL_RI_TCTR0_8125] = rtlm_tctr_read,
	[RTL_RI_TCTR1_8125] = rtlm_tctr_read,
	[RTL_RI_TCTR2_8125] = rtlm_tctr_read,
	[RTL_RI_HW_CLO_PTR0_8125BP] = rtlm_tx_clo_read,
	[RTL_RI_HW_CLO_PTR1_8125BP] = rtlm_tx_clo_read,
	[RTL_RI_MCU] = rtlm_mcu_read,
	[RTL_RI_CounterAddrLow] = rtlm_tally_read,
};

static uint32_t elem_read(struct rtlm_dev *dev, unsigned ri, unsigned e)
{
	const struct rtl_reg_desc *d = &rtl_regs[ri];
	uint32_t v;

	switch (d->access) {
	case RTL_ACC_WO:
		return 0;
	case RTL_ACC_WTC:
		return *rtlm_reg(dev, (unsigned)d->link, e);
	default:
		v = *rtlm_reg(dev, ri, e);
		return rd_hooks[ri] ? rd_hooks[ri](dev, ri, e, v) : v;
	}
}

static void unknown_note(struct rtlm_dev *dev, uint32_t off, bool write,
			 uint32_t val)
{
	rtlm_unknown_note(dev, RTLM_UNKNOWN_BAR, off, write, val);
}

/* Apply @val on the byte lanes @lanes (bit mask in element bit positions)
 * of element @e of row @ri. */
static void elem_write(struct rtlm_dev *dev, unsigned ri, unsigned e,
		       uint32_t val, uint32_t lanes)
{
	const struct rtl_reg_desc *d = &rtl_regs[ri];
	uint32_t *r = rtlm_reg(dev, ri, e), old = *r, nv;
	unsigned hook_ri = ri;

	val &= lanes;
	switch (d->access) {
	case RTL_ACC_RW:
		nv = (old & ~(d->wmask & lanes)) | (val & d->wmask);
		break;
	case RTL_ACC_RO:
		unknown_note(dev, rtl_reg_elem_offset(d, e), true, val);
		rtlm_guest_error(dev, "write 0x%x to read-only %s[%u]", val,
				 d->name, e);
		return;
	case RTL_ACC_WO:
		if (wr_hooks[ri])
			wr_hooks[ri](dev, ri, e, 0, val);
		return;
	case RTL_ACC_W1C:
		nv = old & ~val;
		break;
	case RTL_ACC_WTS:
		nv = old | val;
		break;
	case RTL_ACC_WTC:
		r = rtlm_reg(dev, (unsigned)d->link, e);
		old = *r;
		nv = old & ~val;
		break;
	default:
		return;
	}
	*r = nv;
	if (wr_hooks[hook_ri])
		wr_hooks[hook_ri](dev, hook_ri, e, old, nv);
}

static bool access_ok(struct rtlm_dev *dev, uint64_t off, unsigned size,
		      bool write)
{
	if ((size != 1 && size != 2 && size != 4) || off % size ||
	    off + size > RTL_BAR_SIZE) {
		rtlm_guest_error(dev, "%s of %u bytes at 0x%llx: bad size or alignment",
				 write ? "write" : "read", size,
				 (unsigned long long)off);
		return false;
	}
	return true;
}

static uint32_t mmio_read32(struct rtlm_dev *dev, uint32_t off, unsigned size)
{
	uint32_t v = 0;
	bool unknown = false;
	unsigned i = 0;

	while (i < size) {
		const struct rtl_reg_desc *d = reg_lookup(dev, off + i);
		unsigned ri, e;
		uint32_t eo, ev;

		if (!d) {
			unknown = true;
			i++;
			continue;
		}
		ri = (unsigned)(d - rtl_regs);
		e = rtl_reg_elem(d, off + i);
		eo = rtl_reg_elem_offset(d, e);
		ev = elem_read(dev, ri, e);
		if (!i && off == eo && size == d->width)
			return ev & rtl_reg_width_mask(size);   /* the whole element */
		for (; i < size && off + i < eo + d->width; i++)
			v |= ((ev >> (8 * (off + i - eo))) & 0xffu) << (8 * i);
	}
	if (unknown) {
		unknown_note(dev, off, false, 0);
		rtlm_guest_error(dev, "read of %u bytes at 0x%x: unknown register",
				 size, off);
	}
	return v;
}

static void mmio_write32(struct rtlm_dev *dev, uint32_t off, uint32_t val,
			 unsigned size)
{
	bool unknown = false;
	unsigned i = 0;

	while (i < size) {
		const struct rtl_reg_desc *d = reg_lookup(dev, off + i);
		uint32_t eo, ev = 0, lanes = 0;
		unsigned ri, e;

		if (!d) {
			unknown = true;
			i++;
			continue;
		}
		ri = (unsigned)(d - rtl_regs);
		e = rtl_reg_elem(d, off + i);
		eo = rtl_reg_elem_offset(d, e);
		if (!i && off == eo && size == d->width) {
			/* the whole element at once (almost every access) */
			elem_write(dev, ri, e, val, rtl_reg_width_mask(size));
			return;
		}
		for (; i < size && off + i < eo + d->width; i++) {
			unsigned sh = 8 * (off + i - eo);

			ev |= ((val >> (8 * i)) & 0xffu) << sh;
			lanes |= 0xffu << sh;
		}
		elem_write(dev, ri, e, ev, lanes);
	}
	if (unknown) {
		unknown_note(dev, off, true, val);
		rtlm_guest_error(dev, "write 0x%x of %u bytes at 0x%x: unknown register",
				 val, size, off);
	}
}

static uint64_t bar_read(void *opaque, uint64_t off, unsigned size)
{
	struct rtlm_dev *dev = opaque;

	/* a read completion pushes the device's earlier posted writes (s6) */
	rtlm_wb_flush(dev);
	if (size == 8 && off % 8 == 0 && off + 8 <= RTL_BAR_SIZE)
		return mmio_read32(dev, (uint32_t)off, 4) |
		       (uint64_t)mmio_read32(dev, (uint32_t)off + 4, 4) << 32;
	if (!access_ok(dev, off, size, false))
		return 0;
	return mmio_read32(dev, (uint32_t)off, size);
}

static void bar_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
	struct rtlm_dev *dev = opaque;

	if (size == 8 && off % 8 == 0 && off + 8 <= RTL_BAR_SIZE) {
		mmio_write32(dev, (uint32_t)off, (uint32_t)val, 4);
		mmio_write32(dev, (uint32_t)off + 4, (uint32_t)(val >> 32), 4);
		return;
	}
	if (!access_ok(dev, off, size, true))
		return;
	mmio_write32(dev, (uint32_t)off, (uint32_t)val, size);
}

const struct plat_pci_bar_ops rtlm_bar_ops = {
	.read = bar_read,
	.write = bar_write,
};
