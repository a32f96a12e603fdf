/* SPDX-License-Identifier: MIT */
/*
 * test_hw.c - the datasheet layer (src/hw): register table invariants and
 * lookup, bit definitions against the research and against src/rss, chip
 * rows and message-id maps, descriptor layouts, and docs/registers.md
 * against the table.
 *
 * Facts checked here are cited to ../shared/research/rtl8127-hw.md
 * ("sN" = its section N), which cites the kernel, vendor and DPDK code.
 *
 * "test-hw --regdoc" prints docs/registers.md; the test compares the file
 * named by its first argument with that output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_whatif.h"
#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_ocp.h"
#include "hw/rtl_regs.h"
#include "rss/rss_hash.h"

static const char *regdoc_path;

/* ---- register table ---------------------------------------------- */

/* The enum and the array come from the same .def: same offsets. */
static const struct { const char *name; uint32_t off; } def_rows[] = {
#define RTL_REG(name, off, n, stride, width, acc, reset, wmask, flags, link, note) \
	{ #name, RTL_##name },
#include "hw/rtl_regs.def"
#undef RTL_REG
};

static void test_regs_sorted_disjoint(void **state)
{
	(void)state;
	assert_int_equal(sizeof(def_rows) / sizeof(def_rows[0]), RTL_RI__COUNT);
	for (unsigned i = 0; i < RTL_RI__COUNT; i++) {
		const struct rtl_reg_desc *d = &rtl_regs[i];

		assert_non_null(d->name);
		assert_string_equal(d->name, def_rows[i].name);
		assert_int_equal(d->offset, def_rows[i].off);
		assert_true(rtl_reg_end(d) <= RTL_BAR_SIZE);
		if (i + 1 < RTL_RI__COUNT) {
			assert_true(d->offset < rtl_regs[i + 1].offset);
			assert_true(rtl_reg_end(d) <= rtl_regs[i + 1].offset);
		}
		for (unsigned j = 0; j < i; j++)
			assert_string_not_equal(d->name, rtl_regs[j].name);
		assert_non_null(d->note);
		assert_true(strlen(d->note) > 0);
	}
}

static void test_regs_widths_values(void **state)
{
	(void)state;
	for (unsigned i = 0; i < RTL_RI__COUNT; i++) {
		const struct rtl_reg_desc *d = &rtl_regs[i];
		uint32_t wm = rtl_reg_width_mask(d->width);

		assert_true(d->width == 1 || d->width == 2 || d->width == 4);
		assert_int_equal(d->offset % d->width, 0);
		assert_true(d->n >= 1);
		if (d->n == 1) {
			assert_int_equal(d->stride, 0);
		} else {
			assert_true(d->stride >= d->width);
			assert_int_equal(d->stride % d->width, 0);
		}
		assert_true(d->access < RTL_ACC__COUNT);
		/* reset and writable bits fit the register */
		assert_int_equal(d->reset & ~wm, 0);
		assert_int_equal(d->wmask & ~wm, 0);
		/* wmask only means something for RW rows */
		if (d->access != RTL_ACC_RW)
			assert_int_equal(d->wmask, 0);
		/* a WTC row names the WTS row whose mask it clears */
		if (d->access == RTL_ACC_WTC) {
			assert_true(d->link >= 0 && d->link < RTL_RI__COUNT);
			assert_int_equal(rtl_regs[d->link].access, RTL_ACC_WTS);
			assert_int_equal(rtl_regs[d->link].width, d->width);
		} else {
			assert_int_equal(d->link, RTL_RI_NONE);
		}
	}
}

static const struct rtl_reg_desc *lookup_slow(uint32_t off)
{
	for (unsigned i = 0; i < RTL_RI__COUNT; i++) {
		const struct rtl_reg_desc *d = &rtl_regs[i];

		for (unsigned e = 0; e < d->n; e++) {
			uint32_t o = rtl_reg_elem_offset(d, e);

			if (off >= o && off < o + d->width)
				return d;
		}
	}
	return NULL;
}

/* Every byte of the BAR: the binary search agrees with a linear scan,
 * and the element index points back at the covering element. */
static void test_regs_lookup_every_byte(void **state)
{
	unsigned covered = 0;

	(void)state;
	for (uint32_t off = 0; off < RTL_BAR_SIZE; off++) {
		const struct rtl_reg_desc *d = rtl_reg_lookup(off);

		assert_ptr_equal(d, lookup_slow(off));
		if (!d)
			continue;
		covered++;
		unsigned e = rtl_reg_elem(d, off);
		uint32_t o = rtl_reg_elem_offset(d, e);

		assert_true(e < d->n);
		assert_true(off >= o && off < o + d->width);
	}
	assert_null(rtl_reg_lookup(RTL_BAR_SIZE));
	assert_null(rtl_reg_lookup(0xFFFFFFFFu));
	/* the covered bytes are exactly the rows' bytes */
	unsigned sum = 0;

	for (unsigned i = 0; i < RTL_RI__COUNT; i++)
		sum += rtl_regs[i].n * rtl_regs[i].width;
	assert_int_equal(covered, sum);
}

static void assert_reg(uint32_t off, enum rtl_reg_index ri, unsigned elem)
{
	const struct rtl_reg_desc *d = rtl_reg_lookup(off);

	assert_ptr_equal(d, &rtl_regs[ri]);
	assert_int_equal(rtl_reg_elem(d, off), elem);
}

/* Offsets and sizes the research gives (s2.1, s3, s4, s5). */
static void test_regs_research_offsets(void **state)
{
	(void)state;
	/* s2.1: RSS block */
	assert_int_equal(RTL_RSS_CTRL_8125, 0x4500);
	assert_int_equal(RTL_RSS_KEY_8125, 0x4600);
	assert_int_equal(RTL_RSS_INDIRECTION_TBL_8125_V2, 0x4700);
	assert_int_equal(RTL_Q_NUM_CTRL_8125, 0x4800);
	assert_int_equal(rtl_reg_end(&rtl_regs[RTL_RI_RSS_KEY_8125]) - 0x4600, 40);
	assert_int_equal(rtl_reg_end(&rtl_regs[RTL_RI_RSS_INDIRECTION_TBL_8125_V2])
			 - 0x4700, 128);
	for (unsigned i = 0; i < 40; i++)
		assert_reg(RTL_RSS_KEY_BYTE(i), RTL_RI_RSS_KEY_8125, i / 4);
	for (unsigned i = 0; i < 128; i++)
		assert_reg(RTL_RSS_INDIR_BYTE(i),
			   RTL_RI_RSS_INDIRECTION_TBL_8125_V2, i / 4);
	assert_null(rtl_reg_lookup(RTL_RSS_KEY_BYTE(40)));
	for (unsigned i = 128; i < 256; i++)
		assert_reg(RTL_RSS_INDIR_BYTE(i), RTL_RI_RSS_INDIR_WHATIF, (i - 128) / 4);
	assert_null(rtl_reg_lookup(RTL_RSS_INDIR_BYTE(256)));

	/* s3: ring bases */
	assert_int_equal(RTL_RX_DESC_LOW(0), 0xE4);
	assert_int_equal(RTL_RX_DESC_HIGH(0), 0xE8);
	assert_int_equal(RTL_RX_DESC_LOW(1), 0x4000);
	assert_int_equal(RTL_RX_DESC_HIGH(3), 0x4014);
	assert_int_equal(RTL_TX_DESC_LOW(0), 0x20);
	assert_int_equal(RTL_TX_DESC_LOW(1), 0x2100);
	assert_int_equal(RTL_TX_DESC_HIGH(1), 0x2104);
	assert_reg(RTL_RX_DESC_LOW(0), RTL_RI_RxDescAddrLow, 0);
	assert_reg(RTL_RX_DESC_HIGH(0), RTL_RI_RxDescAddrHigh, 0);
	for (unsigned q = 1; q < RTL_HW_RX_QUEUES; q++) {
		assert_reg(RTL_RX_DESC_LOW(q), RTL_RI_RDSAR_Q1_LOW_8125, 2 * (q - 1));
		assert_reg(RTL_RX_DESC_HIGH(q), RTL_RI_RDSAR_Q1_LOW_8125,
			   2 * (q - 1) + 1);
	}
	/* queues 4+ and entries 128+: the what-if row's registers */
	for (unsigned q = RTL_HW_RX_QUEUES; q < RTL_MAX_RX_QUEUES; q++) {
		assert_reg(RTL_RX_DESC_LOW(q), RTL_RI_RDSAR_Q4_WHATIF, 2 * (q - 4));
		assert_reg(RTL_RX_DESC_HIGH(q), RTL_RI_RDSAR_Q4_WHATIF, 2 * (q - 4) + 1);
	}
	assert_true(rtl_regs[RTL_RI_RDSAR_Q4_WHATIF].flags & RTL_RF_WHATIF);
	assert_null(rtl_reg_lookup(RTL_RX_DESC_LOW(RTL_MAX_RX_QUEUES)));
	assert_reg(RTL_TX_DESC_LOW(0), RTL_RI_TxDescStartAddrLow, 0);
	assert_reg(RTL_TX_DESC_HIGH(1), RTL_RI_TNPDS_Q1_LOW_8125, 1);
	assert_int_equal(RTL_TxPoll_8125, 0x90);
	assert_int_equal(RTL_SW_TAIL_PTR_8125BP(1), 0x0D38);
	assert_int_equal(RTL_HW_CLO_PTR_8125BP(1), 0x0D3C);

	/* s4.2: legacy interrupt registers */
	assert_int_equal(RTL_IMR0_8125, 0x38);
	assert_int_equal(RTL_ISR0_8125, 0x3C);
	assert_int_equal(rtl_regs[RTL_RI_IntrStatus_8125].access, RTL_ACC_W1C);
	assert_reg(RTL_IMR_8125(1), RTL_RI_IMR1_8125, 0);
	assert_reg(RTL_ISR_8125(2), RTL_RI_ISR2_8125, 0);
	assert_int_equal(RTL_ISR_8125(3), 0x80A);
	assert_int_equal(rtl_regs[RTL_RI_ISR3_8125].access, RTL_ACC_W1C);
	/* s4.1 */
	assert_int_equal(RTL_INT_CFG0_8125, 0x34);
	assert_int_equal(rtl_regs[RTL_RI_INT_CFG0_8125].width, 1);
	assert_int_equal(RTL_INT_CFG1_8125, 0x7A);
	/* s4.3: per-vector registers */
	assert_int_equal(RTL_IMR_V2_CLEAR_REG_8125, 0x0D00);
	assert_int_equal(RTL_ISR_V2_8125, 0x0D04);
	assert_int_equal(RTL_IMR_V2_SET_REG_8125, 0x0D0C);
	assert_int_equal(RTL_IMR_V4_L2_CLEAR_REG_8125, 0x0D10);
	assert_int_equal(RTL_ISR_V4_L2_8125, 0x0D14);
	assert_int_equal(RTL_IMR_V4_L2_SET_REG_8125, 0x0D18);
	assert_int_equal(rtl_regs[RTL_RI_ISR_V2_8125].access, RTL_ACC_W1C);
	assert_int_equal(rtl_regs[RTL_RI_IMR_V2_CLEAR_REG_8125].link,
			 RTL_RI_IMR_V2_SET_REG_8125);
	/* s4.4 timers */
	for (unsigned t = 0; t < 4; t++) {
		assert_non_null(rtl_reg_lookup(RTL_TIMER_INT_8125(t)));
		assert_non_null(rtl_reg_lookup(RTL_TCTR_8125(t)));
	}
	/* s5.1: per-queue timers, 8-byte stride, within 0xA00-0xAFF */
	assert_int_equal(RTL_INT_MITI_V2_RX(0), 0x0A00);
	assert_int_equal(RTL_INT_MITI_V2_TX(0), 0x0A02);
	assert_int_equal(RTL_INT_MITI_V2_RX(1), 0x0A08);
	assert_int_equal(RTL_INT_MITI_V2_TX(1), 0x0A0A);
	for (unsigned q = 0; q < 32; q++) {
		assert_reg(RTL_INT_MITI_V2_RX(q), RTL_RI_INT_MITI_V2, 2 * q);
		assert_reg(RTL_INT_MITI_V2_TX(q), RTL_RI_INT_MITI_V2, 2 * q);
	}
	assert_int_equal(rtl_reg_end(&rtl_regs[RTL_RI_INT_MITI_V2]), 0x0B00);
	/* s5.2 */
	assert_int_equal(RTL_IntrMitigate, 0xE2);
	assert_int_equal(rtl_regs[RTL_RI_IntrMitigate].reset, RTL_RXTX_EMPTY);
	/* s8: RxConfig, 0xD8 */
	assert_int_equal(RTL_RxConfig, 0x44);
	assert_int_equal(RTL_CFG_D8, 0xD8);
	assert_int_equal(RTL_RXCFG_DESC_V3, 1u << 24);
	assert_int_equal(RTL_RxMaxSize, 0xDA);
	/* tally, PHY status, Cfg9346, ChipCmd (D r8169_compat.h) */
	assert_int_equal(RTL_CounterAddrLow, 0x10);
	assert_int_equal(RTL_CounterAddrHigh, 0x14);
	assert_int_equal(RTL_PHYstatus, 0x6C);
	assert_int_equal(RTL_Cfg9346, 0x50);
	assert_int_equal(RTL_ChipCmd, 0x37);
	assert_int_equal(RTL_TxConfig, 0x40);
}

/* ---- bit definitions --------------------------------------------- */

static void test_defines(void **state)
{
	(void)state;
	/* K: XID = (TxConfig >> 20) & 0xfcf; the XID bits are not writable */
	assert_int_equal(RTL_TXCFG_XID(0x6c9u << 20), 0x6c9);
	assert_int_equal(RTL_TXCFG_XID((0x6c9u << 20) | 0x0300FFFFu), 0x6c9);
	assert_int_equal(RTL_TXCFG_XID_BITS, 0xFCF00000u);
	assert_int_equal(rtl_regs[RTL_RI_TxConfig].wmask, (uint32_t)~RTL_TXCFG_XID_BITS);

	/* s2.2: the RSS_CTRL hash-type bits are src/rss's RSS_HT_* */
	assert_int_equal(RTL_RSS_CTRL_TCP_IPV4, RSS_HT_TCP_IPV4);
	assert_int_equal(RTL_RSS_CTRL_IPV4, RSS_HT_IPV4);
	assert_int_equal(RTL_RSS_CTRL_TCP_IPV6, RSS_HT_TCP_IPV6);
	assert_int_equal(RTL_RSS_CTRL_IPV6, RSS_HT_IPV6);
	assert_int_equal(RTL_RSS_CTRL_IPV6_EXT, RSS_HT_IPV6_EX);
	assert_int_equal(RTL_RSS_CTRL_TCP_IPV6_EXT, RSS_HT_TCP_IPV6_EX);
	assert_int_equal(RTL_RSS_CTRL_UDP_IPV4, RSS_HT_UDP_IPV4);
	assert_int_equal(RTL_RSS_CTRL_UDP_IPV6, RSS_HT_UDP_IPV6);
	assert_int_equal(RTL_RSS_CTRL_UDP_IPV6_EXT, RSS_HT_UDP_IPV6_EX);
	assert_int_equal(RTL_RSS_CTRL_HASH_MASK, RSS_HT_ALL);
	/* s2.2: the vendor's value for 4 queues */
	assert_int_equal(RTL_RSS_CTRL_DEFAULT(2), 0x0002073Fu);
	assert_int_equal(RTL_RSS_CTRL_DEFAULT(2) & RTL_RSS_CTRL_HASH_MASK,
			 RSS_HT_RTL8127_DEFAULT);
	assert_int_equal((RTL_RSS_CTRL_DEFAULT(2) & RTL_RSS_CTRL_INDIR_MASK)
			 >> RTL_RSS_CTRL_INDIR_SHIFT, 7);	/* 128 entries */
	assert_int_equal(RTL_Q_NUM_MASK, 0x1C);

	/* s4.2 legacy bits */
	assert_int_equal(RTL_INT_ROK | RTL_INT_RER | RTL_INT_TOK | RTL_INT_TER |
			 RTL_INT_RDU | RTL_INT_LINK_CHG, 0x3F);
	assert_int_equal(RTL_INT_PCS_TIMEOUT, 0x4000);
	assert_int_equal(RTL_INT_SYS_ERR, 0x8000);
	/* s5.1: timer units; vendor default 0x2600 ticks ~= 78 us either way */
	assert_int_equal(RTL_INT_MITI_UNIT_NS(0x100), 2048);
	assert_int_equal(RTL_INT_MITI_UNIT_NS(0x200), 4096);
	assert_int_equal(0x26 * RTL_INT_MITI_UNIT_NS(0x100),
			 0x13 * RTL_INT_MITI_UNIT_NS(0x200));
	assert_int_equal(RTL_TIMER_COUNT_DEFAULT * RTL_TIMER_TICK_NS, 77824);
	/* ChipCmd writable bits: RE, TE, RST, StopReq */
	assert_int_equal(rtl_regs[RTL_RI_ChipCmd].wmask,
			 RTL_CMD_RE | RTL_CMD_TE | RTL_CMD_RST | RTL_CMD_STOP_REQ);
	assert_int_equal(RTL_CFG9346_UNLOCK, 0xC0);
}

/* ---- descriptors -------------------------------------------------- */

static void test_desc(void **state)
{
	struct rtl_rx_desc_v4 d4;

	(void)state;
	assert_int_equal(sizeof(struct rtl_rx_desc), 16);
	assert_int_equal(sizeof(struct rtl_rx_desc_v3), 32);
	assert_int_equal(sizeof(struct rtl_rx_desc_v4), 16);
	assert_int_equal(sizeof(struct rtl_tx_desc), 16);
	/* type 4: the hash overlays the buffer address (s2.4) */
	memset(&d4, 0, sizeof(d4));
	d4.addr = 0x1122334455667788ull;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	assert_int_equal(d4.rss_info, 0x55667788u);
	assert_int_equal(d4.rss_result, 0x11223344u);
#endif
	/* the 14-bit length leaves room for every flag (s8) */
	assert_int_equal(RTL_RX_LEN_MASK & (RTL_RX1_TCPF | RTL_RX4_TCPF |
					    RTL_RX3_CRC), 0);
	assert_int_equal(RTL_TX_LEN_MASK & (RTL_TX_LSO | RTL_TX_FS |
		(RTL_TX_GTTCPHO_MAX << RTL_TX_GTTCPHO_SHIFT)), 0);
	/* hash-type bits of types 3 and 4 (s2.4) */
	assert_int_equal(RTL_RX3_HI_L3_MASK | RTL_RX3_HI_L4_MASK, 0x3600);
	assert_int_equal(RTL_RX4_RI_L3_MASK | RTL_RX4_RI_L4_MASK, 0x78000000u);
}

/* ---- chips -------------------------------------------------------- */

/* Research s1 table; XIDs as K rtl_chip_infos[] (mask 0x7cf). */
static const struct {
	uint16_t xid;
	const char *name;
	enum rtl_mac_version ver;
	uint32_t speed;
	uint8_t rxq, txq, vmax, vmin, isr, desc, miti;
} research[] = {
	{ 0x609, "RTL8125A",  RTL_MAC_VER_61, 2500, 1, 1, 4, 1, 1, 3, 3 },
	{ 0x641, "RTL8125B",  RTL_MAC_VER_63, 2500, 4, 2, 32, 22, 2, 3, 4 },
	{ 0x681, "RTL8125BP", RTL_MAC_VER_66, 2500, 4, 2, 32, 32, 4, 4, 6 },
	{ 0x688, "RTL8125D",  RTL_MAC_VER_64, 2500, 4, 2, 32, 20, 5, 4, 6 },
	{ 0x689, "RTL8125D",  RTL_MAC_VER_64, 2500, 4, 2, 32, 20, 5, 4, 6 },
	{ 0x649, "RTL8126A",  RTL_MAC_VER_70, 5000, 4, 2, 32, 22, 3, 4, 5 },
	{ 0x64a, "RTL8126A",  RTL_MAC_VER_70, 5000, 4, 2, 32, 22, 3, 4, 5 },
	{ 0x6c9, "RTL8127A",  RTL_MAC_VER_80, 10000, 4, 2, 32, 30, 6, 4, 6 },
};

static void test_chip_lookup(void **state)
{
	(void)state;
	assert_int_equal(rtl_chips_count, sizeof(research) / sizeof(research[0]));
	for (unsigned i = 0; i < sizeof(research) / sizeof(research[0]); i++) {
		/* other TxConfig bits (DMA burst, IFG) must not matter */
		uint32_t txcfg = ((uint32_t)research[i].xid << 20) | 0x03000700u;
		const struct rtl_chip_info *c = rtl_chip_lookup_xid(txcfg);

		assert_non_null(c);
		assert_int_equal(c->xid, research[i].xid);
		assert_string_equal(c->name, research[i].name);
		assert_int_equal(c->mac_version, research[i].ver);
		assert_int_equal(c->caps->speed_mbps, research[i].speed);
		assert_int_equal(c->caps->rx_queues, research[i].rxq);
		assert_int_equal(c->caps->tx_queues, research[i].txq);
		assert_int_equal(c->caps->msix_max, research[i].vmax);
		assert_int_equal(c->msix_min, research[i].vmin);
		assert_int_equal(c->irq_map->isr_ver, research[i].isr);
		assert_int_equal(c->rx_desc->type, research[i].desc);
		assert_int_equal(c->miti->ver, research[i].miti);
	}
	/* unknown: zero, the vendor-only early 8127A, an RTL8168fp, 8125K */
	assert_null(rtl_chip_lookup_xid(0));
	assert_null(rtl_chip_lookup_xid(0x6c8u << 20));
	assert_null(rtl_chip_lookup_xid(0x54bu << 20));
	assert_null(rtl_chip_lookup_xid(0x68au << 20));
	/* the bits outside the 0xfcf XID mask are ignored: 0x6c9 | 0x030 */
	assert_non_null(rtl_chip_lookup_xid(0x6f9u << 20));
}

/* The descriptor rows: the datasheet numbers (s8), and exactly one row
 * for every value of the selecting register bits. */
static void test_desc_rows(void **state)
{
	static const struct {
		unsigned type, size, o1, o2, addr;
		int hash, htype;
		unsigned htsize;
		uint32_t rxcfg;
		uint8_t d8;
	} want[] = {
		{ 1, 16, 0, 4, 8, -1, -1, 0, 0, 0 },
		{ 3, 32, 28, 24, 16, 8, 14, 2, RTL_RXCFG_DESC_V3, 0 },
		{ 4, 16, 12, 8, 0, 4, 0, 4, 0, RTL_CFG_D8_DESC_V4 },
	};

	(void)state;
	for (unsigned i = 0; i < RTL_RX_DESC_FMT_COUNT; i++) {
		const struct rtl_rx_desc_fmt *f = rtl_rx_desc_fmt_type(want[i].type);

		assert_ptr_equal(f, &rtl_rx_desc_fmts[i]);
		assert_int_equal(f->size, want[i].size);
		assert_true(f->size <= RTL_RX_DESC_MAX_SIZE);
		assert_int_equal(f->opts1_off, want[i].o1);
		assert_int_equal(f->opts2_off, want[i].o2);
		assert_int_equal(f->addr_off, want[i].addr);
		assert_int_equal(f->hash_off, want[i].hash);
		assert_int_equal(f->hash_type_off, want[i].htype);
		assert_int_equal(f->hash_type_size, want[i].htsize);
		assert_true(f->csum_off == f->opts1_off ||
			    f->csum_off == f->opts2_off);
		assert_int_equal(f->addr_overwritten, f->hash_off == f->addr_off + 4);
		assert_true(f->fs && f->ls && f->err_mask);
		/* selecting bits within the driver's clear masks */
		assert_int_equal(f->rxcfg_mask & ~RTL_RX_DESC_SEL_RXCFG, 0);
		assert_int_equal(f->cfg_d8_mask & ~RTL_RX_DESC_SEL_CFG_D8, 0);
		/* what the driver writes selects this row */
		assert_ptr_equal(rtl_rx_desc_fmt_decode(want[i].rxcfg | 0x0000CF0Fu,
							want[i].d8 | 0x01),
				 f);
		assert_ptr_equal(rtl_rx_desc_fmt_decode(f->rxcfg_val, f->cfg_d8_val), f);
	}
	assert_null(rtl_rx_desc_fmt_type(2));
	assert_ptr_equal(rtl_rx_desc_fmt_basic, rtl_rx_desc_fmt_type(1));
	/* every combination of the selecting bits: exactly one row */
	for (unsigned v3 = 0; v3 < 2; v3++)
		for (unsigned v4 = 0; v4 < 2; v4++) {
			uint32_t rc = v3 ? RTL_RXCFG_DESC_V3 : 0;
			uint8_t d8 = v4 ? RTL_CFG_D8_DESC_V4 : 0;
			unsigned hits = 0;

			for (unsigned i = 0; i < RTL_RX_DESC_FMT_COUNT; i++) {
				const struct rtl_rx_desc_fmt *f = &rtl_rx_desc_fmts[i];

				hits += (rc & f->rxcfg_mask) == f->rxcfg_val &&
					(d8 & f->cfg_d8_mask) == f->cfg_d8_val;
			}
			assert_int_equal(hits, 1);
			assert_int_equal(rtl_rx_desc_fmt_decode(rc, d8)->type,
					 v3 ? 3 : v4 ? 4 : 1);
		}
	/* TX: 16 bytes with OCP 0xEB58 bit 0 clear, 32 with it set */
	assert_int_equal(rtl_tx_desc_fmt_decode(0)->size, 16);
	assert_int_equal(rtl_tx_desc_fmt_decode(0xFFFE)->size, 16);
	assert_int_equal(rtl_tx_desc_fmt_decode(RTL_OCP_TX_DESC_32B)->size, 32);
	for (unsigned i = 0; i < RTL_TX_DESC_FMT_COUNT; i++) {
		assert_int_equal(rtl_tx_desc_fmts[i].opts1_off, 0);
		assert_int_equal(rtl_tx_desc_fmts[i].opts2_off, 4);
		assert_int_equal(rtl_tx_desc_fmts[i].addr_off, 8);
	}
}

static void test_chip_rows(void **state)
{
	(void)state;
	for (unsigned i = 0; i < rtl_chips_count; i++) {
		const struct rtl_chip_info *c = &rtl_chips[i];
		const struct rtl_irq_map *m = c->irq_map;

		assert_int_equal(c->xid & ~c->xid_mask, 0);
		for (unsigned j = 0; j < i; j++)
			assert_false((rtl_chips[j].xid & c->xid_mask) == c->xid &&
				     rtl_chips[j].xid_mask == c->xid_mask);
		/* shared rows: the family, the moderation block of the version */
		assert_non_null(c->caps);
		assert_ptr_equal(c->miti, &rtl_miti_blocks[c->miti->ver]);
		for (unsigned j = 0; j < i; j++)
			if (rtl_chips[j].mac_version == c->mac_version) {
				assert_ptr_equal(rtl_chips[j].caps, c->caps);
				assert_ptr_equal(rtl_chips[j].irq_map, c->irq_map);
				assert_ptr_equal(rtl_chips[j].rx_desc, c->rx_desc);
				assert_ptr_equal(rtl_chips[j].miti, c->miti);
			}
		assert_int_equal(strncmp(c->name, c->caps->family, 7), 0);
		assert_true(c->irq_map->isr_ver >= 1 && c->irq_map->isr_ver <= 7);
		assert_ptr_equal(m, &rtl_irq_maps[c->irq_map->isr_ver]);
		assert_int_equal(m->isr_ver, c->irq_map->isr_ver);
		assert_true(c->caps->rx_queues >= 1 && c->caps->rx_queues <= RTL_MAX_RX_QUEUES);
		assert_true(c->caps->tx_queues >= 1 && c->caps->tx_queues <= RTL_MAX_TX_QUEUES);
		assert_true(c->msix_min >= 1 && c->msix_min <= c->caps->msix_max);
		assert_true(c->caps->msix_max <= RTL_MSIX_MAX_VECTORS);
		assert_true(c->rx_desc->type == 3 || c->rx_desc->type == 4);
		assert_true(c->rx_desc->hash_off >= 0);	/* RSS needs the hash */
		assert_ptr_equal(c->caps->tx_desc, &rtl_tx_desc_fmts[RTL_TX_DESC_FMT_16]);
		assert_int_equal(c->caps->tx_desc->size, sizeof(struct rtl_tx_desc));
		assert_true(c->miti->ver >= 3 && c->miti->ver <= 6);
		assert_true(c->miti->queues * RTL_INT_MITI_STRIDE <= 0x100);
		assert_true(c->miti->tick_div == 0x100 ||
			    c->miti->tick_div == 0x200);
		/* RSS: 40-byte key, 128 entries (s2.3), or none at all */
		if (c->caps->rss_indir_size) {
			assert_int_equal(c->caps->rss_key_size, 40);
			assert_int_equal(c->caps->rss_indir_size, 128);
			assert_true(c->caps->rx_queues > 1);
			assert_true(c->irq_map->isr_ver > 1);
		} else {
			assert_int_equal(c->caps->rss_key_size, 0);
		}
		assert_true(c->caps->ring_default && c->caps->ring_default <= c->caps->ring_max);
		assert_int_equal(c->caps->ring_default & (c->caps->ring_default - 1), 0);
		/* the minimum allocation covers every vector the map uses */
		if (!m->legacy) {
			for (unsigned q = 0; q < c->caps->rx_queues; q++)
				assert_true(m->rx[q] < c->msix_min);
			for (unsigned q = 0; q < c->caps->tx_queues; q++)
				assert_true(m->tx[q] < c->msix_min);
			assert_true(m->link < c->msix_min);
		}
		assert_int_equal(c->caps->pci_device >> 8, 0x81);
	}
	/* RTL8127A specifics (s1, s6) */
	const struct rtl_chip_info *c = rtl_chip_lookup_xid(0x6c9u << 20);

	assert_true(c->quirks & RTL_QUIRK_OWNBIT_ERRATUM);
	assert_int_equal(c->miti->tick_div, 0x200);
	assert_int_equal(c->caps->pci_device, 0x8127);
	assert_int_equal(c->irq_map->rx[3], 3);
	assert_int_equal(c->irq_map->tx[0], 8);
	assert_int_equal(c->irq_map->tx[1], 9);
	assert_int_equal(c->irq_map->link, 29);
	/* s4.3: the vendor's RTL8127 mask, 4 RX + 2 TX queues */
	uint32_t mask = 1u << c->irq_map->link;

	for (unsigned q = 0; q < 4; q++)
		mask |= 1u << c->irq_map->rx[q];
	for (unsigned q = 0; q < 2; q++)
		mask |= 1u << c->irq_map->tx[q];
	assert_int_equal(mask, 0x2000030Fu);
}

/* Each map: distinct ids for distinct events (v3/v4 ring vectors share
 * RX q and TX q by design), layer-1 ids below 32. */
static void test_irq_maps(void **state)
{
	(void)state;
	assert_true(rtl_irq_maps[1].legacy);
	for (unsigned v = 2; v <= 7; v++) {
		const struct rtl_irq_map *m = &rtl_irq_maps[v];
		unsigned seen = 0, n = 0;
		uint32_t ids = 0;

		assert_int_equal(m->isr_ver, v);
		assert_false(m->legacy);
		assert_non_null(m->src);
		for (unsigned q = 0; q < RTL_HW_RX_QUEUES; q++) {
			assert_true(m->rx[q] < RTL_MSIX_ID_L2_BASE);
			ids |= 1u << m->rx[q];
			n++;
		}
		for (unsigned q = 0; q < RTL_MAX_TX_QUEUES; q++) {
			assert_true(m->tx[q] < RTL_MSIX_ID_L2_BASE);
			if (m->ring_vectors) {
				assert_int_equal(m->tx[q], m->rx[q]);
			} else {
				ids |= 1u << m->tx[q];
				n++;
			}
		}
		assert_true(m->link < RTL_MSIX_ID_L2_BASE);
		ids |= 1u << m->link;
		n++;
		for (uint32_t b = ids; b; b &= b - 1)
			seen++;
		assert_int_equal(seen, n);
		if (m->l2_summary >= 0) {
			assert_true(m->l2_summary < (int)RTL_MSIX_ID_L2_BASE);
			assert_int_equal(ids & (1u << m->l2_summary), 0);
		}
		if (m->misc >= 0) {
			assert_true(m->misc >= (int)RTL_MSIX_ID_L2_BASE);
			assert_true(m->misc < RTL_MSIX_MAX_VECTORS);
		}
	}
}

/* The what-if map: a distinct id per RX queue, then TX and link, all
 * within the ids its what-if words reach and its vectors. */
static void test_irq_map_whatif(void **state)
{
	const struct rtl_irq_map *m = &rtl_irq_maps[RTL_IRQ_MAP_WHATIF];
	const struct rtl_chip_info *c = &rtl_whatif_chips[0];

	(void)state;
	assert_ptr_equal(c->irq_map, m);
	assert_int_equal(c->caps->rx_queues, RTL_MAX_RX_QUEUES);
	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		assert_int_equal(m->rx[q], q);
	assert_int_equal(m->tx[0], 256);
	assert_int_equal(m->link, 258);
	assert_true(m->link < RTL_MSIX_MAX_VECTORS + 32u * m->whatif_words);
	assert_int_equal(c->caps->msix_max, m->link + 1);
	assert_int_equal(c->msix_min, c->caps->msix_max);
	/* the MSI-X table (16 bytes an entry) ends before the PBA */
	assert_true(16u * c->caps->msix_max <= c->caps->msix_pba_off);
	assert_true(c->caps->rss_indir_size >= c->caps->rx_queues);
}

static void test_usb_chips(void **state)
{
	const struct rtl_usb_chip_info *u;

	(void)state;
	/* usb-and-coalescing.md s1.6 */
	u = rtl_usb_chip_lookup(0x0bda, 0x8157);
	assert_non_null(u);
	assert_int_equal(u->version, RTL_VER_16);
	assert_int_equal(u->hw_id, 0x1030);
	assert_int_equal(u->speed_mbps, 5000);
	assert_int_equal(u->rx_buf_size, 32 * 1024);
	u = rtl_usb_chip_lookup(0x0bda, 0x815a);
	assert_non_null(u);
	assert_int_equal(u->version, RTL_VER_17);
	assert_int_equal(u->hw_id, 0x2020);
	assert_int_equal(u->rx_buf_size, 48 * 1024);
	assert_null(rtl_usb_chip_lookup(0x0bda, 0x8156));
	assert_null(rtl_usb_chip_lookup(0x10ec, 0x8157));
	for (unsigned i = 0; i < rtl_usb_chips_count; i++) {
		u = &rtl_usb_chips[i];
		assert_int_equal(u->caps->rx_desc_size, sizeof(struct rtl_usb_rx_desc_v2));
		assert_int_equal(u->caps->rx_align, RTL_USB_RX_ALIGN);
		/* 16-bit timer register in 8 ns units */
		assert_int_equal(u->caps->coalesce_max_ns / u->caps->coalesce_unit_ns, 0xFFFF);
		assert_true(u->caps->coalesce_ns <= u->caps->coalesce_max_ns);
		/* one family row for the RTL8157 and RTL8159 */
		assert_ptr_equal(u->caps, rtl_usb_chips[0].caps);
	}
}

/* ---- docs/registers.md -------------------------------------------- */

static const char *const acc_names[RTL_ACC__COUNT] = {
	[RTL_ACC_RW] = "RW", [RTL_ACC_RO] = "RO", [RTL_ACC_WO] = "WO",
	[RTL_ACC_W1C] = "W1C", [RTL_ACC_WTS] = "WTS", [RTL_ACC_WTC] = "WTC",
};

static void render_ocpdoc(FILE *f);

static void render_regdoc(FILE *f)
{
	fputs("# RTL8125/8126/8127 register map\n\n"
	      "Generated from `src/hw/rtl_regs.def` by `build/tests/test-hw "
	      "--regdoc`; the `hw` test fails when this file is stale. The "
	      "reasons for every inferred choice are comments next to the "
	      "row in the .def; the facts and their sources are in "
	      "`../shared/research/rtl8127-hw.md`.\n\n"
	      "Access: RW read/write (only the writable bits change), RO "
	      "read-only, WO command/doorbell (reads 0), W1C write 1 to "
	      "clear, WTS write 1s to set bits of a mask (reads the mask), "
	      "WTC write 1s to clear bits of the mask held by the linked "
	      "WTS row. Flags: sticky = kept across a ChipCmd reset, selfclr "
	      "= command bits clear when done, chip = reset value from the "
	      "chip (XID, MAC address), window = indirect-access window. "
	      "Arrays: n elements, stride bytes apart. Any aligned 1/2/4-byte "
	      "access inside a register is accepted. BAR size 64 KiB.\n\n"
	      "Source tags: K kernel r8169_main.c, D DPDK r8169_compat.h, "
	      "V125/V127 Realtek r8125/r8127 vendor drivers.\n\n"
	      "| offset | name | n x stride | width | access | reset | "
	      "writable | flags | note |\n"
	      "|---|---|---|---|---|---|---|---|---|\n", f);
	for (unsigned i = 0; i < RTL_RI__COUNT; i++) {
		const struct rtl_reg_desc *d = &rtl_regs[i];
		char arr[32] = "-", wm[16] = "-", flags[64] = "";

		if (d->n > 1)
			snprintf(arr, sizeof(arr), "%u x %u", d->n, d->stride);
		if (d->access == RTL_ACC_RW)
			snprintf(wm, sizeof(wm), "0x%0*X", 2 * d->width, d->wmask);
		if (d->flags & RTL_RF_STICKY)
			strcat(flags, "sticky ");
		if (d->flags & RTL_RF_SELFCLR)
			strcat(flags, "selfclr ");
		if (d->flags & RTL_RF_CHIP)
			strcat(flags, "chip ");
		if (d->flags & RTL_RF_WINDOW)
			strcat(flags, "window ");
		if (d->link != RTL_RI_NONE) {
			strcat(flags, "link=");
			strcat(flags, rtl_regs[d->link].name);
			strcat(flags, " ");
		}
		if (flags[0])
			flags[strlen(flags) - 1] = '\0';
		else
			strcpy(flags, "-");
		fprintf(f, "| 0x%04X | %s | %s | %u | %s | 0x%0*X | %s | %s | %s |\n",
			d->offset, d->name, arr, d->width, acc_names[d->access],
			2 * d->width, d->reset, wm, flags, d->note);
	}
	render_ocpdoc(f);
}

/* The OCP rows (rtl_ocp.def): sorted, disjoint, even, per space; the
 * lookup finds each row at both ends and nothing between rows. */
static void test_ocp_rows(void **state)
{
	(void)state;
	for (unsigned i = 0; i < RTL_OI__COUNT; i++) {
		const struct rtl_ocp_desc *d = &rtl_ocp_regs[i];

		assert_true(d->first % 2 == 0 && d->last % 2 == 0);
		assert_true(d->first <= d->last);
		assert_ptr_equal(rtl_ocp_lookup(d->space, d->first), d);
		assert_ptr_equal(rtl_ocp_lookup(d->space, d->last), d);
		for (unsigned j = i + 1; j < RTL_OI__COUNT; j++)
			if (rtl_ocp_regs[j].space == d->space) {
				assert_true(rtl_ocp_regs[j].first > d->last);
				break;
			}
	}
	assert_null(rtl_ocp_lookup(RTL_OCP_MAC, 0xF800));
	assert_null(rtl_ocp_lookup(RTL_OCP_PHY, 0xF000));
	assert_non_null(rtl_ocp_lookup(RTL_OCP_PHY, 0xA420));
	assert_null(rtl_ocp_lookup(RTL_OCP_MAC, 0xA420));
}

static void render_ocpdoc(FILE *f)
{
	static const char *const sp[RTL_OCP__SPACES] = { "MAC", "PHY" };

	fputs("\n## OCP registers\n\n"
	      "Generated from `src/hw/rtl_ocp.def`. The MAC OCP (window 0xB0) "
	      "and PHY OCP (window 0xB8) spaces store every address written; "
	      "these rows are the addresses a source names (an access "
	      "elsewhere is reported as an unknown OCP register). Tags as "
	      "above, plus R = Linux's realtek PHY driver, KP = "
	      "r8169_phy_config.c, IEEE = 802.3; [gap] = touched by mainline "
	      "7.3 on the model, no source names it.\n\n"
	      "| space | first | last | name | note |\n"
	      "|---|---|---|---|---|\n", f);
	for (unsigned i = 0; i < RTL_OI__COUNT; i++) {
		const struct rtl_ocp_desc *d = &rtl_ocp_regs[i];

		fprintf(f, "| %s | 0x%04X | 0x%04X | %s | %s |\n", sp[d->space],
			d->first, d->last, d->name, d->note);
	}
}

static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap);

	assert_non_null(buf);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	*len = n;
	return buf;
}

static void test_regdoc_current(void **state)
{
	size_t want_len, have_len;
	char *want, *have;
	FILE *f;

	(void)state;
	if (!regdoc_path)
		skip();
	f = tmpfile();
	assert_non_null(f);
	render_regdoc(f);
	rewind(f);
	want = slurp(f, &want_len);
	fclose(f);
	f = fopen(regdoc_path, "r");
	if (!f)
		fail_msg("cannot open %s", regdoc_path);
	have = slurp(f, &have_len);
	fclose(f);
	if (want_len != have_len || memcmp(want, have, want_len) != 0)
		fail_msg("%s is stale: run build/tests/test-hw --regdoc > "
			 "docs/registers.md", regdoc_path);
	/* and every register name appears in it */
	for (unsigned i = 0; i < RTL_RI__COUNT; i++)
		assert_non_null(memmem(have, have_len, rtl_regs[i].name,
				       strlen(rtl_regs[i].name)));
	free(want);
	free(have);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs_sorted_disjoint),
		cmocka_unit_test(test_regs_widths_values),
		cmocka_unit_test(test_regs_lookup_every_byte),
		cmocka_unit_test(test_regs_research_offsets),
		cmocka_unit_test(test_defines),
		cmocka_unit_test(test_desc),
		cmocka_unit_test(test_chip_lookup),
		cmocka_unit_test(test_desc_rows),
		cmocka_unit_test(test_chip_rows),
		cmocka_unit_test(test_irq_maps),
		cmocka_unit_test(test_irq_map_whatif),
		cmocka_unit_test(test_usb_chips),
		cmocka_unit_test(test_ocp_rows),
		cmocka_unit_test(test_regdoc_current),
	};

	if (argc > 1 && strcmp(argv[1], "--regdoc") == 0) {
		render_regdoc(stdout);
		return 0;
	}
	if (argc > 1)
		regdoc_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
