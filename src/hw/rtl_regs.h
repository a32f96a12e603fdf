/* SPDX-License-Identifier: MIT */
/*
 * rtl_regs.h - the RTL8125/8126/8127 MMIO register map, generated from
 * rtl_regs.def.  Shared by the device model (read/write dispatch, reset
 * image) and the driver (offsets); register dumps take their names from it.
 * Data only: the one function is a table lookup (rtl_regs.c).
 *
 * Sources are cited per row in rtl_regs.def; the research notes are
 * ../shared/research/rtl8127-hw.md ("s4.3" below means its section 4.3).
 *
 * Generating code from the table: include rtl_regs.def after defining
 *   RTL_REG(name, off, n, stride, width, acc, reset, wmask, flags, link, note)
 * e.g. "#define RTL_REG(name, ...) [RTL_RI_##name] = rtlm_write_##name,"
 * gives a model a designated-initializer handler table indexed like
 * rtl_regs[].
 */
#ifndef RXSCALE_HW_RTL_REGS_H
#define RXSCALE_HW_RTL_REGS_H

#include "hw/rtl_types.h"

/*
 * BAR size.  [I] No source states it.  The highest register any source
 * uses is EEE_TXIDLE_TIMER_8125 at 0x6048 (kernel r8169_main.c), so the
 * BAR is at least 32 KiB; PCI BARs are powers of two and RTL8125 boards
 * report a 64 KiB memory BAR in lspci.  The model decodes 64 KiB and
 * treats offsets outside every row as unknown (reads 0, writes ignored
 * and counted as a guest error).
 */
#define RTL_BAR_SIZE		0x10000u

/*
 * Where the registers are: the RTL8125 family's function has an I/O port
 * BAR 0 (256 bytes) and the registers in memory BAR 2; BAR 4 holds the
 * MSI-X table (lspci -v of RTL8125 boards: "Region 0: I/O ports [size=256]",
 * "Region 2: Memory ... 64-bit, non-prefetchable [size=64K]", "Region 4:
 * Memory ... [size=16K]").  Mainline r8169 maps the first memory BAR
 * (pci_select_bars(pdev, IORESOURCE_MEM)); so must any driver.
 */
#define RTL_BAR_IO		0
#define RTL_BAR_IO_SIZE		0x100u
#define RTL_BAR_MMIO		2

/*
 * The MSI-X table and PBA: memory BAR 4, 16 KiB (the lspci line above),
 * table at offset 0, PBA at 0x800.  [I] The offsets are what lspci -vv
 * prints for Realtek PCIe NICs ("Vector table: BAR=4 offset=00000000",
 * "PBA: BAR=4 offset=00000800"); no Realtek document states them.
 */
#define RTL_BAR_MSIX		4
#define RTL_BAR_MSIX_SIZE	0x4000u
#define RTL_MSIX_TABLE_OFF	0x0u
#define RTL_MSIX_PBA_OFF	0x800u

/* How a register reacts to the host (the model implements these). */
enum rtl_reg_access {
	RTL_ACC_RW,	/* read/write; bits outside wmask keep their value */
	RTL_ACC_RO,	/* read-only; writes ignored */
	RTL_ACC_WO,	/* command/doorbell: a write acts, reads return 0 */
	RTL_ACC_W1C,	/* status: read the latched bits, write 1 to clear */
	RTL_ACC_WTS,	/* write 1s to set bits of a mask; reads return it */
	RTL_ACC_WTC,	/* write 1s to clear bits of the mask held by
			 * the row named in .link; reads return that mask */
	RTL_ACC__COUNT
};

/* Row flags. */
#define RTL_RF_STICKY	(1u << 0)	/* kept across a ChipCmd reset */
#define RTL_RF_SELFCLR	(1u << 1)	/* command bits the device clears
					 * when the command completes */
#define RTL_RF_CHIP	(1u << 2)	/* reset value comes from the chip
					 * (XID, EEPROM MAC), not .reset */
#define RTL_RF_WINDOW	(1u << 3)	/* indirect-access window into
					 * another address space (OCP) */
#define RTL_RF_WHATIF	(1u << 4)	/* decoded only by a what-if chip
					 * row (rtl_chips.h); unknown on
					 * every real chip */

/*
 * One row of the register table.  A scalar register has n == 1 and
 * stride == 0.  An array row describes n elements of .width bytes at
 * offset + i * stride (stride >= width); an element is one register.
 *
 * Access size rule [I]: the drivers read and write these registers with
 * 8-, 16- and 32-bit accesses that are narrower than the register
 * (vendor RTL_R8 of IMR0 in the OwnBit re-check, DPDK RTL_W8 to ISR1,
 * byte reads of the RSS key/table), so the model accepts any naturally
 * aligned 1-, 2- or 4-byte access and applies it byte lane by byte lane;
 * a lane that no row covers is unknown.
 */
struct rtl_reg_desc {
	const char *name;	/* vendor/kernel spelling, no RTL_ prefix */
	uint32_t offset;	/* first byte of element 0 */
	uint16_t n;		/* number of elements */
	uint16_t stride;	/* bytes between elements; 0 for scalars */
	uint8_t width;		/* bytes per element: 1, 2 or 4 */
	uint8_t access;		/* enum rtl_reg_access */
	uint8_t flags;		/* RTL_RF_* */
	int16_t link;		/* RTL_RI_* of the row holding the state
				 * a WTC row clears; RTL_RI_NONE otherwise */
	uint32_t reset;		/* value after reset, per element */
	uint32_t wmask;		/* writable bits (RW); ignored otherwise */
	const char *note;	/* short meaning and source */
};

/* Offsets: RTL_<name> = offset of element 0. */
enum rtl_registers {
#define RTL_REG(name, off, n, stride, width, acc, reset, wmask, flags, link, note) \
	RTL_##name = (off),
#include "hw/rtl_regs.def"
#undef RTL_REG
};

/* Row indexes into rtl_regs[]: RTL_RI_<name>. */
enum rtl_reg_index {
#define RTL_REG(name, off, n, stride, width, acc, reset, wmask, flags, link, note) \
	RTL_RI_##name,
#include "hw/rtl_regs.def"
#undef RTL_REG
	RTL_RI__COUNT,
	RTL_RI_NONE = -1
};

extern const struct rtl_reg_desc rtl_regs[RTL_RI__COUNT];

/**
 * rtl_reg_lookup() - the row whose elements cover byte @off of the BAR.
 * Returns NULL for a byte no register covers (including the gap bytes
 * between elements of an array whose stride exceeds its width).
 * Binary search over rtl_regs[], which the .def keeps sorted by offset.
 */
const struct rtl_reg_desc *rtl_reg_lookup(uint32_t off);

/* Last byte + 1 of the last element of @d. */
static inline uint32_t rtl_reg_end(const struct rtl_reg_desc *d)
{
	return d->offset + (uint32_t)(d->n - 1) * d->stride + d->width;
}

/* Element of @d that covers @off (which must be covered by @d). */
static inline unsigned rtl_reg_elem(const struct rtl_reg_desc *d, uint32_t off)
{
	return d->stride ? (off - d->offset) / d->stride : 0;
}

/* Offset of element @i of @d. */
static inline uint32_t rtl_reg_elem_offset(const struct rtl_reg_desc *d,
					   unsigned i)
{
	return d->offset + i * d->stride;
}

/* The all-ones value of a @width-byte register. */
static inline uint32_t rtl_reg_width_mask(unsigned width)
{
	return width >= 4 ? 0xffffffffu : (1u << (8 * width)) - 1;
}

/* Aliases: the vendor drivers' names for the kernel-named rows. */
#define RTL_IMR0_8125		RTL_IntrMask_8125
#define RTL_ISR0_8125		RTL_IntrStatus_8125
#define RTL_TPPOLL_8125		RTL_TxPoll_8125
#define RTL_PHY_OCP		RTL_GPHY_OCP

/*
 * Per-queue and per-vector addresses.  Queue 0 of RX and TX uses the
 * original RTL8169 registers; queues >= 1 use the 8125 blocks.
 */

/* Legacy per-RX-queue IMR/ISR pairs, queue n = 1..3 (s4.2). */
#define RTL_IMR_8125(n)		(0x0800u + ((n) - 1) * 4u)
#define RTL_ISR_8125(n)		(0x0802u + ((n) - 1) * 4u)

/* RX descriptor ring base, queue q (s3); queues 4+ only on the what-if
 * row. */
#define RTL_RX_DESC_LOW(q)	((q) == 0 ? (uint32_t)RTL_RxDescAddrLow : \
				 (q) < RTL_WHATIF_FIRST_Q ? 0x4000u + ((q) - 1) * 8u : \
				 (uint32_t)RTL_RDSAR_Q4_WHATIF + ((q) - RTL_WHATIF_FIRST_Q) * 8u)
#define RTL_WHATIF_FIRST_Q	4u
#define RTL_RX_DESC_HIGH(q)	(RTL_RX_DESC_LOW(q) + 4u)

/* TX descriptor ring base, queue q (s3). */
#define RTL_TX_DESC_LOW(q)	((q) == 0 ? (uint32_t)RTL_TxDescStartAddrLow : \
				 0x2100u + ((q) - 1) * 8u)
#define RTL_TX_DESC_HIGH(q)	(RTL_TX_DESC_LOW(q) + 4u)

/* TX-no-close tail/close pointers, TX queue q, 8125BP/D/CP and 8127 (s3). */
#define RTL_SW_TAIL_PTR_8125BP(q)	(0x0D30u + (q) * 8u)
#define RTL_HW_CLO_PTR_8125BP(q)	(0x0D34u + (q) * 8u)

/* Per-queue moderation timers in the INT_MITI_V2 block (s5.1): one byte
 * each, 8-byte stride; see RTL_INT_MITI_* in rtl_defines.h. */
#define RTL_INT_MITI_V2_RX(q)	(0x0A00u + (q) * 8u)
#define RTL_INT_MITI_V2_TX(q)	(0x0A02u + (q) * 8u)

/* RSS key byte i and indirection entry i (s2.1): byte-addressed;
 * entries 128+ only on the what-if row. */
#define RTL_RSS_KEY_BYTE(i)	(0x4600u + (i))
#define RTL_RSS_INDIR_BYTE(i)	((i) < RTL_RSS_INDIR_REAL ? 0x4700u + (i) : \
				 (uint32_t)RTL_RSS_INDIR_WHATIF + (i) - RTL_RSS_INDIR_REAL)
#define RTL_RSS_INDIR_REAL	128u

/* Status, unmask and mask registers of message id @id in the V2 model:
 * ids 0-31 layer 1, 32-63 layer 2, 64+ the what-if words; the bit is
 * id % 32. */
#define RTL_ISR_ID(id)		((id) < 32 ? (uint32_t)RTL_ISR_V2_8125 : \
				 (id) < 64 ? (uint32_t)RTL_ISR_V4_L2_8125 : \
				 (uint32_t)RTL_ISR_WHATIF + ((id) - 64) / 32 * 4u)
#define RTL_IMR_SET_ID(id)	((id) < 32 ? (uint32_t)RTL_IMR_V2_SET_REG_8125 : \
				 (id) < 64 ? (uint32_t)RTL_IMR_V4_L2_SET_REG_8125 : \
				 (uint32_t)RTL_IMR_SET_WHATIF + ((id) - 64) / 32 * 4u)
#define RTL_IMR_CLEAR_ID(id)	((id) < 32 ? (uint32_t)RTL_IMR_V2_CLEAR_REG_8125 : \
				 (id) < 64 ? (uint32_t)RTL_IMR_V4_L2_CLEAR_REG_8125 : \
				 (uint32_t)RTL_IMR_CLEAR_WHATIF + ((id) - 64) / 32 * 4u)

/* Timer-interrupt and counter registers, timer t = 0..3 (s4.4). */
#define RTL_TIMER_INT_8125(t)	((t) == 0 ? 0x58u : (t) == 1 ? 0x5Cu : \
				 (t) == 2 ? 0x8Cu : 0xF4u)
#define RTL_TCTR_8125(t)	((t) == 0 ? 0x48u : (t) == 1 ? 0x4Cu : \
				 (t) == 2 ? 0x88u : 0x1Cu)

#endif /* RXSCALE_HW_RTL_REGS_H */
