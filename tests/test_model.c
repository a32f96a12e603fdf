// SPDX-License-Identifier: MIT
/*
 * test_model.c - the RTL8125/8126/8127 device model, tested the way QEMU's
 * qtest tests a device: only through MMIO on BAR 0, descriptor rings and
 * buffers in simulated host memory, and MSI-X messages arriving at host
 * interrupt handlers (which record the time and the vector).  No model
 * internals are touched; rtlm_stats() is the model's own "ethtool -S".
 *
 * Argument 1: the directory of real captures (meson option pcaps); the
 * steering test skips cleanly without it.
 */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_whatif.h"
#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"
#include "model/model_fcs.h"
#include "model/rtlm.h"
#include "rss/rss_toeplitz.h"
#include "sim/sim_cost.h"

static const char *pcaps_dir;

#define NVEC	RTL_MSIX_MAX_IDS	/* the what-if row has 259 */
#define MAXLOG	4096
#define BUFSZ	2048u

struct ring {
	uint8_t *desc;		/* CPU view of the descriptors */
	uint64_t desc_dma;
	uint8_t *buf;		/* n * bufsz bytes */
	uint64_t buf_dma;
	unsigned n, dsz, type, bufsz, ntc;
};

struct fx {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct rtlm_dev *dev;
	struct plat_pci_dev *pci;
	uint8_t *bar;
	const struct rtl_chip_info *chip;
	struct sim_irq irq[NVEC];
	struct { sim_time_t t; unsigned vec; } log[MAXLOG];
	unsigned nlog;
	void (*on_irq)(struct fx *f, unsigned vec);
	struct ring rx[4], tx[2];
	/* wire */
	uint8_t wire[4][2048];
	size_t wire_len[4];
	sim_time_t wire_t[4];
	unsigned nwire;
	/* erratum probe */
	int own_in_handler, own_after_read;
};

static const struct rtl_chip_info *chip_named(const char *name)
{
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcmp(rtl_chips[i].name, name))
			return &rtl_chips[i];
	fail_msg("no chip %s", name);
	return NULL;
}

static void irq_fn(struct sim_irq *irq, void *arg)
{
	struct fx *f = arg;
	unsigned vec = (unsigned)(irq - f->irq);

	if (f->nlog < MAXLOG) {
		/* the frame starts when the message is dispatched */
		f->log[f->nlog].t = f->host->exec_start;
		f->log[f->nlog].vec = vec;
		f->nlog++;
	}
	if (f->on_irq)
		f->on_irq(f, vec);
}

static void wire_fn(void *arg, const uint8_t *frame, size_t len)
{
	struct fx *f = arg;

	if (f->nwire < 4) {
		memcpy(f->wire[f->nwire], frame, len < 2048 ? len : 2048);
		f->wire_len[f->nwire] = len;
		f->wire_t[f->nwire] = sim_now(&f->sim);
	}
	f->nwire++;
}

static struct fx *fx_new_p(const struct rtl_chip_info *chip,
			   const struct rtlm_params *p)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct sim_host_params hp;

	assert_non_null(f);
	sim_init(&f->sim);
	sim_cost_load_default(&f->cost);
	sim_host_params_default(&hp, 1);
	f->host = sim_host_create(&f->sim, &f->cost, &hp);
	assert_non_null(f->host);
	plat_mem_init(&f->mem);
	f->chip = chip;
	f->dev = rtlm_create(f->host, &f->mem, chip, p);
	assert_non_null(f->dev);
	f->pci = rtlm_pci(f->dev);
	f->bar = plat_pci_bar_addr(f->pci, RTL_BAR_MMIO);
	for (unsigned v = 0; v < f->pci->msix_nvec; v++) {
		char name[16];

		snprintf(name, sizeof(name), "v%u", v);
		sim_irq_init(f->host, &f->irq[v], name, irq_fn, f, 0);
		assert_int_equal(plat_pci_msix_bind(f->pci, v, &f->irq[v]), 0);
	}
	plat_pci_set_irq_mode(f->pci, PLAT_PCI_IRQ_MSIX, NULL);
	for (unsigned v = 0; v < f->pci->msix_nvec; v++)
		assert_int_equal(plat_pci_msix_mask(f->pci, v, false), 0);
	rtlm_set_wire_tx(f->dev, wire_fn, f);
	return f;
}

static struct fx *fx_new(const char *chip)
{
	return fx_new_p(chip_named(chip), NULL);
}

static void fx_free(struct fx *f)
{
	rtlm_destroy(f->dev);
	for (unsigned v = 0; v < NVEC; v++)
		sim_irq_fini(&f->irq[v]);
	sim_host_destroy(f->host);
	plat_mem_fini(&f->mem);
	sim_fini(&f->sim);
	free(f);
}

static uint32_t rd(struct fx *f, uint32_t off, unsigned size)
{
	uint64_t v;

	assert_int_equal(plat_pci_mmio_read(f->bar + off, size, &v), 0);
	return (uint32_t)v;
}

static void wr(struct fx *f, uint32_t off, unsigned size, uint32_t v)
{
	assert_int_equal(plat_pci_mmio_write(f->bar + off, size, v), 0);
}

static void run_for(struct fx *f, sim_time_t d)
{
	sim_run_until(&f->sim, sim_now(&f->sim) + d);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ---- driver-side ring helpers (what a driver would write) ---- */

static unsigned o1_off(unsigned type)
{
	return type == 1 ? 0 : type == 3 ? 28 : 12;
}

static unsigned addr_off(unsigned type)
{
	return type == 1 ? 8 : type == 3 ? 16 : 0;
}

static uint8_t *rx_desc(struct ring *r, unsigned i)
{
	return r->desc + (size_t)i * r->dsz;
}

static uint32_t rx_o1(struct ring *r, unsigned i)
{
	return le32(rx_desc(r, i) + o1_off(r->type));
}

static void rx_arm(struct ring *r, unsigned i)
{
	uint8_t *d = rx_desc(r, i);

	memset(d, 0, r->dsz);
	put64(d + addr_off(r->type), r->buf_dma + (uint64_t)i * r->bufsz);
	put32(d + o1_off(r->type), RTL_DESC_OWN |
	      (i == r->n - 1 ? RTL_DESC_EOR : 0) | r->bufsz);
}

static void rx_ring(struct fx *f, unsigned q, unsigned n, unsigned type,
		    unsigned bufsz)
{
	struct ring *r = &f->rx[q];
	void *cpu;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->type = type;
	r->dsz = type == 3 ? 32 : 16;
	r->bufsz = bufsz;
	assert_int_equal(plat_mem_alloc(&f->mem, n * r->dsz, &cpu, &r->desc_dma), 0);
	r->desc = cpu;
	assert_int_equal(plat_mem_alloc(&f->mem, (size_t)n * bufsz, &cpu, &r->buf_dma), 0);
	r->buf = cpu;
	for (unsigned i = 0; i < n; i++)
		rx_arm(r, i);
	wr(f, RTL_RX_DESC_HIGH(q), 4, (uint32_t)(r->desc_dma >> 32));
	wr(f, RTL_RX_DESC_LOW(q), 4, (uint32_t)r->desc_dma);
}

/* RX on, promiscuous, descriptor @type, @nq rings of @n descriptors. */
static void rx_setup(struct fx *f, unsigned type, unsigned nq, unsigned n,
		     unsigned bufsz)
{
	uint32_t rcr = RTL_RXCFG_AAP | RTL_RXCFG_APM | RTL_RXCFG_AB |
		       RTL_RXCFG_AM;

	if (type == 3)
		rcr |= RTL_RXCFG_DESC_V3;
	wr(f, RTL_RxConfig, 4, rcr);
	wr(f, RTL_CFG_D8, 1, type == 4 ? RTL_CFG_D8_DESC_V4 : 0);
	wr(f, RTL_RxMaxSize, 2, 0x4000);
	wr(f, RTL_CPlusCmd, 2, RTL_CPCMD_RX_CSUM);
	for (unsigned q = 0; q < nq; q++)
		rx_ring(f, q, n, type, bufsz);
	wr(f, RTL_Q_NUM_CTRL_8125, 2, (nq == 4 ? 2u : nq == 2 ? 1u : 0u) <<
	   RTL_Q_NUM_SHIFT);
	wr(f, RTL_ChipCmd, 1, RTL_CMD_RE | RTL_CMD_TE);
}

static void rss_program(struct fx *f, const uint8_t *key, const uint8_t *indir,
			uint32_t ht, unsigned nq)
{
	unsigned lg = nq == 4 ? 2 : nq == 2 ? 1 : 0;

	for (unsigned i = 0; i < 40; i += 4)
		wr(f, RTL_RSS_KEY_8125 + i, 4, le32(key + i));
	for (unsigned i = 0; i < 128; i += 4)
		wr(f, RTL_RSS_INDIRECTION_TBL_8125_V2 + i, 4, le32(indir + i));
	wr(f, RTL_RSS_CTRL_8125, 4, ht ? (lg << RTL_RSS_CTRL_QNUM_SHIFT) |
	   (7u << RTL_RSS_CTRL_INDIR_SHIFT) | ht : 0);
}

static void indir_all(uint8_t *t, unsigned q)
{
	memset(t, (int)q, 128);
}

/* V2 interrupt model, every id unmasked. */
static void irq_v2(struct fx *f)
{
	wr(f, RTL_INT_CFG0_8125, 1, RTL_INT_CFG0_ENABLE);
	wr(f, RTL_IMR_V2_SET_REG_8125, 4, 0xffffffffu);
}

static size_t tcp4_frame(uint8_t *buf, uint16_t sport, uint16_t dport,
			 uint16_t payload)
{
	struct net_build b;
	ssize_t n;

	net_build_init(&b);
	tu_ip4(b.src, "66.9.149.187");
	tu_ip4(b.dst, "161.142.100.80");
	b.proto = 6;
	b.sport = sport;
	b.dport = dport;
	b.payload_len = payload;
	n = net_build_frame(&b, buf, NET_BUILD_MAX);
	assert_true(n > 0);
	return (size_t)n;
}

/* ------------------------------------------------------------------ */

/* Every element of every row reads its reset value, with its own width;
 * no read of a known register is a guest error. */
static void test_reset_values(void **state)
{
	struct rtlm_params p;
	struct fx *f;

	(void)state;
	rtlm_params_default(&p);
	p.link_up = false;
	for (unsigned c = 0; c < rtl_chips_count; c++) {
		f = fx_new_p(&rtl_chips[c], &p);
		for (unsigned ri = 0; ri < RTL_RI__COUNT; ri++) {
			const struct rtl_reg_desc *d = &rtl_regs[ri];

			if (d->flags & RTL_RF_WHATIF)
				continue;       /* unknown here: test_whatif_regs */
			for (unsigned e = 0; e < d->n; e++) {
				uint32_t off = rtl_reg_elem_offset(d, e), want;

				want = d->reset;
				if (d->access == RTL_ACC_WO)
					want = 0;
				if (ri == RTL_RI_MAC0)
					want = 0x684ce000;
				else if (ri == RTL_RI_MAC4)
					want = 0x0100;
				else if (ri == RTL_RI_TxConfig)
					want = (uint32_t)rtl_chips[c].xid << 20;
				else if (ri == RTL_RI_MAC0_BKP)
					want = (uint32_t[]){ 0x00, 0xe0, 0x4c, 0x68,
							     0x00, 0x01 }[e];
				else if (ri == RTL_RI_MCU)  /* idle: status bits */
					want = RTL_MCU_TX_EMPTY | RTL_MCU_RX_EMPTY |
					       RTL_MCU_LINK_LIST_RDY;
				assert_int_equal(rd(f, off, d->width), want);
			}
		}
		assert_int_equal(RTL_TXCFG_XID(rd(f, RTL_TxConfig, 4)),
				 rtl_chips[c].xid);
		assert_ptr_equal(rtl_chip_lookup_xid(rd(f, RTL_TxConfig, 4)),
				 &rtl_chips[c]);
		assert_int_equal(rtlm_stats(f->dev)->guest_errors, 0);
		fx_free(f);
	}
}

/* The what-if row (not a real chip): found only by its own lookup; its
 * registers above 0x8000 are unknown on every real chip (a guest error,
 * nothing stored) and hold their values on the what-if row, where the
 * status and mask words of ids 64+ behave as layers 1 and 2 do. */
static void test_whatif_regs(void **state)
{
	const struct rtl_chip_info *w = &rtl_whatif_chips[0];
	uint32_t txcfg = (uint32_t)w->xid << RTL_TXCFG_XID_SHIFT;
	const uint32_t offs[] = { RTL_RX_DESC_LOW(4), RTL_RX_DESC_HIGH(255),
				  RTL_RSS_INDIR_BYTE(128), RTL_RSS_CFG_WHATIF };
	struct fx *f;

	(void)state;
	assert_non_null(w->whatif);
	assert_null(rtl_chip_lookup_xid(txcfg));
	assert_ptr_equal(rtl_chip_lookup_whatif(0x8127, txcfg), w);
	assert_null(rtl_chip_lookup_whatif(0x8125, txcfg));
	assert_null(rtl_chip_lookup_whatif(0x8127, (uint32_t)0x6c9 << RTL_TXCFG_XID_SHIFT));
	/* the driver's lookup: the real rows, the what-if ones only through
	 * the hook a simulator sets (never in a kernel module) */
	rtl_chip_lookup_extra = NULL;
	assert_null(rtl_chip_lookup(0x8127, txcfg));
	assert_ptr_equal(rtl_chip_lookup(0x8127, (uint32_t)0x6c9 << RTL_TXCFG_XID_SHIFT),
			 rtl_chip_lookup_xid((uint32_t)0x6c9 << RTL_TXCFG_XID_SHIFT));
	rtl_chip_lookup_extra = rtl_chip_lookup_whatif;
	assert_ptr_equal(rtl_chip_lookup(0x8127, txcfg), w);
	assert_null(rtl_chip_lookup(0x8125, txcfg));
	rtl_chip_lookup_extra = NULL;
	for (unsigned c = 0; c < rtl_chips_count; c++) {
		assert_null(rtl_chips[c].whatif);
		assert_true(rtl_chips[c].caps->rx_queues <= RTL_HW_RX_QUEUES);
		assert_int_equal(rtl_chips[c].irq_map->whatif_words, 0);
	}

	f = fx_new("RTL8127A");
	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		uint64_t ge = rtlm_stats(f->dev)->guest_errors;

		wr(f, offs[i], 4, 0x100);
		assert_int_equal(rd(f, offs[i], 4), 0);
		assert_int_equal(rtlm_stats(f->dev)->guest_errors, ge + 2);
	}
	fx_free(f);

	f = fx_new_p(w, NULL);
	assert_int_equal(f->pci->msix_nvec, 259);
	assert_int_equal(RTL_TXCFG_XID(rd(f, RTL_TxConfig, 4)), 0x7c9);
	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		wr(f, offs[i], 4, 0x100);
		assert_int_equal(rd(f, offs[i], 4), 0x100);
	}
	/* id 300: word 7 bit 12 of the mask, set and cleared by two doors */
	assert_int_equal(RTL_IMR_SET_ID(300), RTL_IMR_SET_WHATIF + 28);
	wr(f, RTL_IMR_SET_ID(300), 4, 1u << 12);
	assert_int_equal(rd(f, RTL_IMR_CLEAR_ID(300), 4), 1u << 12);
	wr(f, RTL_IMR_CLEAR_ID(300), 4, 1u << 12);
	assert_int_equal(rd(f, RTL_IMR_SET_ID(300), 4), 0);
	assert_int_equal(rtlm_stats(f->dev)->guest_errors, 0);
	fx_free(f);
}

/* RW keeps bits outside wmask; RO, WO, W1C, WTS/WTC; unknown and
 * misaligned accesses are counted, never fatal. */
static void test_access_semantics(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint64_t ge;

	(void)state;
	for (unsigned ri = 0; ri < RTL_RI__COUNT; ri++) {
		const struct rtl_reg_desc *d = &rtl_regs[ri];
		uint32_t m = rtl_reg_width_mask(d->width), pat = 0xA5A55A5Au & m;

		/* rows whose writes act (reset, doorbells, windows, counters)
		 * are tested by their own cases */
		if (d->access != RTL_ACC_RW || (d->flags & RTL_RF_WHATIF) ||
		    ri == RTL_RI_ChipCmd ||
		    ri == RTL_RI_CounterAddrLow || ri == RTL_RI_MACOCP ||
		    ri == RTL_RI_GPHY_OCP || ri == RTL_RI_TCTR0_8125 ||
		    ri == RTL_RI_TCTR1_8125 || ri == RTL_RI_TCTR2_8125 ||
		    ri == RTL_RI_TCTR3_8125 || ri == RTL_RI_SW_TAIL_PTR0_8125BP ||
		    ri == RTL_RI_SW_TAIL_PTR1_8125BP || ri == RTL_RI_CSIAR ||
		    ri == RTL_RI_EPHYAR)
			continue;
		for (unsigned e = 0; e < d->n; e++) {
			uint32_t off = rtl_reg_elem_offset(d, e);
			uint32_t old = rd(f, off, d->width);

			wr(f, off, d->width, pat);
			assert_int_equal(rd(f, off, d->width),
					 ((old & ~d->wmask) | (pat & d->wmask)) & m);
		}
	}
	wr(f, RTL_INT_CFG0_8125, 1, 0);

	/* PHYstatus: bits 23:0 keep the PHY's value; byte 3 is PMCH, which
	 * mainline 7.3 sets with an 8-bit read-modify-write (D3_NO_PLL_DOWN) */
	ge = st->guest_errors;
	wr(f, RTL_PHYstatus, 4, 0);
	assert_int_equal(rd(f, RTL_PHYstatus, 4),
			 RTL_PHY_LINK | RTL_PHY_FULL_DUP | RTL_PHY_10000MF);
	wr(f, RTL_PHYstatus + 3, 1, rd(f, RTL_PHYstatus + 3, 1) | 0xC0);
	assert_int_equal(rd(f, RTL_PHYstatus, 4), 0xC0000000u |
			 RTL_PHY_LINK | RTL_PHY_FULL_DUP | RTL_PHY_10000MF);
	rtlm_set_link(f->dev, false, 0);
	assert_int_equal(rd(f, RTL_PHYstatus, 4), 0xC0000000u);
	rtlm_set_link(f->dev, true, 10000);
	assert_int_equal(st->guest_errors, ge);
	/* RO: a write to HW_CLO_PTR0 is a guest error and changes nothing */
	wr(f, RTL_HW_CLO_PTR0_8125BP, 4, 5);
	assert_int_equal(rd(f, RTL_HW_CLO_PTR0_8125BP, 4), 0);
	assert_int_equal(st->guest_errors, ge + 1);
	/* MCU: the driver's bits are kept, the status bits are the model's
	 * (K polls RXTX_EMPTY and LINK_LIST_RDY around a reset) */
	wr(f, RTL_MCU, 1, 0xFF);
	assert_int_equal(rd(f, RTL_MCU, 1), RTL_MCU_NOW_IS_OOB | RTL_MCU_EN_NDP |
			 RTL_MCU_EN_OOB_RESET | RTL_MCU_TX_EMPTY |
			 RTL_MCU_RX_EMPTY | RTL_MCU_LINK_LIST_RDY);
	wr(f, RTL_MCU, 1, 0);
	assert_int_equal(rd(f, RTL_MCU, 1), RTL_MCU_TX_EMPTY | RTL_MCU_RX_EMPTY |
			 RTL_MCU_LINK_LIST_RDY);
	assert_int_equal(rd(f, RTL_IntrMitigate, 2), RTL_RXTX_EMPTY);

	/* W1C: link down latches LinkChg; 0 and other bits change nothing */
	assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4), RTL_INT_LINK_CHG);
	wr(f, RTL_IntrStatus_8125, 4, 0);
	wr(f, RTL_IntrStatus_8125, 4, ~RTL_INT_LINK_CHG);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4), RTL_INT_LINK_CHG);
	wr(f, RTL_IntrStatus_8125, 1, RTL_INT_LINK_CHG);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4), 0);

	/* WO: the doorbell reads 0 */
	assert_int_equal(rd(f, RTL_TxPoll_8125, 2), 0);

	/* WTS/WTC: one mask behind two doors, both read it */
	wr(f, RTL_IMR_V2_SET_REG_8125, 4, 0x8 | 0x100);
	assert_int_equal(rd(f, RTL_IMR_V2_SET_REG_8125, 4), 0x108);
	assert_int_equal(rd(f, RTL_IMR_V2_CLEAR_REG_8125, 4), 0x108);
	wr(f, RTL_IMR_V2_CLEAR_REG_8125, 4, 0x8);
	assert_int_equal(rd(f, RTL_IMR_V2_SET_REG_8125, 4), 0x100);
	wr(f, RTL_IMR_V4_L2_SET_REG_8125, 1, 0x3);
	assert_int_equal(rd(f, RTL_IMR_V4_L2_CLEAR_REG_8125, 4), 0x3);

	/* byte access to the key and the table, read back wider */
	for (unsigned i = 0; i < 40; i++)
		wr(f, RTL_RSS_KEY_BYTE(i), 1, (uint8_t)(i * 7 + 1));
	assert_int_equal(rd(f, RTL_RSS_KEY_8125, 4), 0x160f0801);
	assert_int_equal(rd(f, RTL_RSS_KEY_8125 + 38, 2),
			 (uint32_t)(uint8_t)(38 * 7 + 1) |
			 (uint32_t)(uint8_t)(39 * 7 + 1) << 8);
	for (unsigned i = 0; i < 128; i++)
		wr(f, RTL_RSS_INDIR_BYTE(i), 1, i & 3);
	for (unsigned i = 0; i < 128; i += 4)
		assert_int_equal(rd(f, RTL_RSS_INDIRECTION_TBL_8125_V2 + i, 4),
				 0x03020100);
	wr(f, RTL_RSS_INDIRECTION_TBL_8125_V2 + 2, 2, 0x0101);
	assert_int_equal(rd(f, RTL_RSS_INDIR_BYTE(3), 1), 1);
	assert_int_equal(rd(f, RTL_RSS_INDIR_BYTE(1), 1), 1);

	/* one dword over two rows: IMR1 (RW) and ISR1 (W1C) */
	wr(f, RTL_IMR1_8125, 4, 0xffff0003);
	assert_int_equal(rd(f, RTL_IMR1_8125, 2), 0x0003);
	assert_int_equal(rd(f, RTL_ISR1_8125, 2), 0);

	/* the OCP window: write, then read back through the data field */
	wr(f, RTL_MACOCP, 4, RTL_OCP_FLAG | (0xE63Eu << RTL_OCP_ADDR_SHIFT) | 0x0400);
	wr(f, RTL_MACOCP, 4, 0xE63Eu << RTL_OCP_ADDR_SHIFT);
	assert_int_equal(rd(f, RTL_MACOCP, 4) & 0xffff, 0x0400);

	/* unknown, misaligned, and wrong-size accesses */
	ge = st->guest_errors;
	assert_int_equal(rd(f, 0x0200, 4), 0);
	wr(f, 0x0200, 4, 1);
	assert_int_equal(rd(f, RTL_RSS_KEY_8125 + 1, 4), 0);
	wr(f, RTL_RSS_KEY_8125 + 2, 4, 1);
	assert_int_equal(st->guest_errors, ge + 4);
	assert_true(strstr(rtlm_last_error(f->dev), "alignment") != NULL);
	/* a dword over INT_CFG0, two holes and ChipCmd: the known lanes
	 * act, the unknown ones are one guest error */
	ge = st->guest_errors;
	assert_int_equal(rd(f, 0x34, 4), 0x01000000u);
	assert_int_equal(st->guest_errors, ge + 1);
	/* TCTR counts 8 ns ticks from its last write */
	wr(f, RTL_TCTR0_8125, 4, 0);
	run_for(f, 800);
	assert_int_equal(rd(f, RTL_TCTR0_8125, 4), 100);
	fx_free(f);
}

/* ChipCmd RST: registers back to reset, INT_CFG0 sticky, RST reads 0. */
static void test_chip_reset(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);

	(void)state;
	rx_setup(f, 1, 1, 4, BUFSZ);
	wr(f, RTL_INT_CFG0_8125, 1, RTL_INT_CFG0_ENABLE);
	wr(f, RTL_IntrMask_8125, 4, 0x3f);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	assert_int_equal(rd(f, RTL_ChipCmd, 1) & RTL_CMD_RX_BUF_EMPTY, 0);
	wr(f, RTL_ChipCmd, 1, RTL_CMD_RST);
	assert_int_equal(rd(f, RTL_ChipCmd, 1), 0x01);
	assert_int_equal(rd(f, RTL_IntrMask_8125, 4), 0);
	assert_int_equal(rd(f, RTL_RxDescAddrLow, 4), 0);
	assert_int_equal(rd(f, RTL_INT_CFG0_8125, 1), RTL_INT_CFG0_ENABLE);
	sim_run(&f->sim);
	assert_int_equal(rtlm_stats(f->dev)->rx_reset, 1);
	assert_int_equal(rtlm_stats(f->dev)->rx_ok[0], 0);
	assert_int_equal(rx_o1(&f->rx[0], 0) & RTL_DESC_OWN, RTL_DESC_OWN);
	fx_free(f);
}

/* Decode a written-back descriptor into what a driver reads. */
struct wb {
	uint32_t len, hash, htype;
	bool own, fs_ls, tcp, udp, v4, v6, ipf, l4f, vlan;
	uint16_t tci;
};

static void wb_decode(struct ring *r, unsigned i, struct wb *w)
{
	uint8_t *d = rx_desc(r, i);
	uint32_t o1 = rx_o1(r, i), o2;

	memset(w, 0, sizeof(*w));
	w->own = o1 & RTL_DESC_OWN;
	w->len = o1 & RTL_RX_LEN_MASK;
	switch (r->type) {
	case 1:
		o2 = le32(d + 4);
		w->fs_ls = (o1 & (RTL_RX1_FS | RTL_RX1_LS)) == (RTL_RX1_FS | RTL_RX1_LS);
		w->tcp = o1 & RTL_RX1_TCPT;
		w->udp = o1 & RTL_RX1_UDPT;
		w->ipf = o1 & RTL_RX1_IPF;
		w->l4f = o1 & (RTL_RX1_TCPF | RTL_RX1_UDPF);
		break;
	case 3:
		o2 = le32(d + 24);
		w->fs_ls = (o1 & (RTL_RX3_FS | RTL_RX3_LS)) == (RTL_RX3_FS | RTL_RX3_LS);
		w->tcp = o2 & RTL_RX3_TCPT;
		w->udp = o2 & RTL_RX3_UDPT;
		w->ipf = o2 & RTL_RX3_IPF;
		w->l4f = o2 & (RTL_RX3_TCPF | RTL_RX3_UDPF);
		w->hash = le32(d + 8);
		w->htype = (uint32_t)d[14] | (uint32_t)d[15] << 8;
		break;
	default:
		o2 = le32(d + 8);
		w->fs_ls = (o1 & (RTL_RX4_FS | RTL_RX4_LS)) == (RTL_RX4_FS | RTL_RX4_LS);
		w->tcp = o1 & RTL_RX4_TCPT;
		w->udp = o1 & RTL_RX4_UDPT;
		w->ipf = o1 & RTL_RX4_IPF;
		w->l4f = o1 & (RTL_RX4_TCPF | RTL_RX4_UDPF);
		w->hash = le32(d + 4);
		w->htype = le32(d + 0);
		break;
	}
	w->v4 = o2 & RTL_RX_V4F;
	w->v6 = o2 & RTL_RX_V6F;
	w->vlan = o2 & RTL_RX_VLAN_TAG;
	w->tci = (uint16_t)(o2 & 0xffff);
}

/* The Toeplitz input built by hand: src, dst, sport, dport. */
static uint32_t ref_hash4(const uint8_t *key, const char *s, const char *d,
			  uint16_t sp, uint16_t dp, bool ports)
{
	uint8_t in[12];

	tu_ip4(in, s);
	tu_ip4(in + 4, d);
	in[8] = (uint8_t)(sp >> 8);
	in[9] = (uint8_t)sp;
	in[10] = (uint8_t)(dp >> 8);
	in[11] = (uint8_t)dp;
	return rss_toeplitz_ref(key, 40, in, ports ? 12 : 8);
}

/* One TCP/IPv4 frame into each queue, for each descriptor type; exact
 * visibility time; every write-back field. */
static void one_frame(const char *chip, unsigned type)
{
	static const unsigned nq_of[] = { 4 };
	uint8_t frame[NET_BUILD_MAX], indir[128];
	uint32_t want_hash = ref_hash4(rss_key_microsoft, "66.9.149.187",
				       "161.142.100.80", 2794, 1766, true);

	(void)nq_of;
	assert_int_equal(want_hash, 0x51ccc178);	/* Microsoft vector */
	for (unsigned q = 0; q < 4; q++) {
		struct fx *f = fx_new(chip);
		size_t n = tcp4_frame(frame, 2794, 1766, 100);
		struct wb w;
		sim_time_t t0;

		rx_setup(f, type, 4, 4, BUFSZ);
		indir_all(indir, q);
		rss_program(f, rss_key_microsoft, indir, RSS_HT_RTL8127_DEFAULT, 4);
		run_for(f, 1000);
		t0 = sim_now(&f->sim);
		assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
		/* not visible one ns before rx_proc_ns + dma_write_ns */
		sim_run_until(&f->sim, t0 + 699);
		assert_true(rx_o1(&f->rx[q], 0) & RTL_DESC_OWN);
		sim_run_until(&f->sim, t0 + 700);
		wb_decode(&f->rx[q], 0, &w);
		assert_false(w.own);
		assert_true(w.fs_ls);
		assert_int_equal(w.len, n + 4);
		assert_memory_equal(f->rx[q].buf, frame, n);
		assert_true(w.tcp && !w.udp && w.v4 && !w.v6);
		assert_false(w.ipf || w.l4f || w.vlan);
		if (type == 3) {
			assert_int_equal(w.hash, want_hash);
			assert_int_equal(w.htype, RTL_RX3_HI_IPV4 | RTL_RX3_HI_TCP);
		} else if (type == 4) {
			/* the buffer address was overwritten */
			assert_int_equal(w.hash, want_hash);
			assert_int_equal(w.htype, RTL_RX4_RI_IPV4 | RTL_RX4_RI_TCP);
		}
		for (unsigned o = 0; o < 4; o++)
			if (o != q)
				assert_true(rx_o1(&f->rx[o], 0) & RTL_DESC_OWN);
		assert_int_equal(rtlm_stats(f->dev)->rx_ok[q], 1);
		assert_int_equal(rtlm_stats(f->dev)->guest_errors, 0);
		fx_free(f);
	}
}

/* rx_csum_trusted (the rxscale run shortcut) writes back exactly what
 * summing does for frames net_build made: TCP and UDP, IPv4 and IPv6,
 * with and without payload, 20 frames each way. */
static void test_rx_csum_trusted(void **state)
{
	struct rtlm_params p;
	struct wb got[2][4];

	(void)state;
	memset(got, 0, sizeof(got));
	for (int trust = 0; trust < 2; trust++) {
		struct fx *f;

		rtlm_params_default(&p);
		p.rx_csum_trusted = trust;
		f = fx_new_p(chip_named("RTL8127A"), &p);
		rx_setup(f, 1, 1, 4, BUFSZ);
		for (unsigned k = 0; k < 4; k++) {
			uint8_t frame[NET_BUILD_MAX];
			struct net_build b;
			ssize_t n;

			net_build_init(&b);
			b.ipv = k & 1 ? 6 : 4;
			b.proto = k & 2 ? 17 : 6;
			b.payload_len = (uint16_t)(k * 500);
			b.payload_seed = (uint8_t)k;
			b.sport = 1000;
			b.dport = (uint16_t)(2000 + k);
			n = net_build_frame(&b, frame, sizeof(frame));
			assert_true(n > 0);
			assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
			run_for(f, 10000);
			wb_decode(&f->rx[0], k, &got[trust][k]);
			assert_false(got[trust][k].own);
			assert_false(got[trust][k].ipf || got[trust][k].l4f);
		}
		fx_free(f);
	}
	assert_memory_equal(got[0], got[1], sizeof(got[0]));
}

/* rtlm_eth_rx_src: frames given by headers and builder land in host
 * memory with the bytes, write-backs and counts of rtlm_eth_rx -- built
 * at the DMA (no FCS, trusted checksums) or at once (FCS on, checksums
 * verified, a VLAN tag to strip, a frame short of 60 bytes).  The payload
 * bytes handed in are garbage: they must come from the builder. */
static uint8_t src_frames[6][NET_BUILD_MAX];
static size_t src_lens[6];

static ssize_t src_build(const void *desc, uint8_t *buf, size_t cap)
{
	unsigned k;

	memcpy(&k, desc, sizeof(k));
	if (src_lens[k] > cap)
		return -ENOSPC;
	memcpy(buf, src_frames[k], src_lens[k]);
	return (ssize_t)src_lens[k];
}

static void test_rx_built_at_dma(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 6; k++) {
		struct net_build b;
		ssize_t n;

		net_build_init(&b);
		b.ipv = k & 1 ? 6 : 4;
		b.proto = k & 2 ? 17 : 6;
		b.payload_len = (uint16_t)(k == 5 ? 0 : 100 + k * 300);
		b.payload_seed = (uint8_t)(k * 7);
		b.sport = 1000;
		b.dport = (uint16_t)(2000 + k);
		if (k == 4) {
			b.n_vlan = 1;
			b.vlan_tci[0] = 5;
		}
		n = net_build_frame(&b, src_frames[k], sizeof(src_frames[k]));
		assert_true(n > 0);
		/* k == 5: cut to a 42-byte runt that the model pads */
		src_lens[k] = k == 5 ? 42 : (size_t)n;
	}
	for (int mode = 0; mode < 3; mode++) {
		struct rtlm_params p;
		struct fx *f[2];

		rtlm_params_default(&p);
		p.rx_fcs = mode == 0;
		p.rx_csum_trusted = mode != 1;
		for (int via = 0; via < 2; via++) {
			f[via] = fx_new_p(chip_named("RTL8127A"), &p);
			rx_setup(f[via], 4, 1, 8, BUFSZ);
			for (unsigned k = 0; k < 6; k++) {
				uint8_t hdr[NET_BUILD_MAX];
				unsigned desc = k;

				memcpy(hdr, src_frames[k], src_lens[k]);
				memset(hdr + 54, 0xee, src_lens[k] > 54 ? src_lens[k] - 54 : 0);
				if (via)
					assert_int_equal(rtlm_eth_rx_src(f[via]->dev, hdr,
						src_lens[k], &(struct net_frame_src){
							src_build, &desc, sizeof(desc) }), 0);
				else
					assert_int_equal(rtlm_eth_rx(f[via]->dev, src_frames[k],
								     src_lens[k]), 0);
				run_for(f[via], 10000);
			}
		}
		for (unsigned k = 0; k < 6; k++) {
			struct wb w[2];

			memset(w, 0, sizeof(w));
			wb_decode(&f[0]->rx[0], k, &w[0]);
			wb_decode(&f[1]->rx[0], k, &w[1]);
			assert_false(w[0].own);
			assert_memory_equal(&w[0], &w[1], sizeof(w[0]));
			assert_memory_equal(f[0]->rx[0].buf + k * BUFSZ,
					    f[1]->rx[0].buf + k * BUFSZ, w[0].len);
		}
		assert_memory_equal(rtlm_stats(f[0]->dev), rtlm_stats(f[1]->dev),
				    sizeof(*rtlm_stats(f[0]->dev)));
		fx_free(f[0]);
		fx_free(f[1]);
	}
}

static void test_rx_type1(void **state)
{
	(void)state;
	one_frame("RTL8127A", 1);
}

static void test_rx_type3(void **state)
{
	(void)state;
	one_frame("RTL8125B", 3);
}

static void test_rx_type4(void **state)
{
	(void)state;
	one_frame("RTL8127A", 4);
	one_frame("RTL8126A", 4);
}

/* UDP on the 2-tuple until bit 11, then the 4-tuple; IPv6 TCP; a VLAN
 * tag stripped into opts2; a bad checksum flagged; RSS off = no hash. */
static void test_rx_hash_types(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX], indir[128], in[36];
	struct net_build b;
	struct wb w;
	ssize_t n;
	unsigned i = 0;

	(void)state;
	rx_setup(f, 4, 1, 8, BUFSZ);
	indir_all(indir, 0);
	rss_program(f, rss_key_microsoft, indir, RSS_HT_RTL8127_DEFAULT, 1);
	net_build_init(&b);
	tu_ip4(b.src, "10.0.0.1");
	tu_ip4(b.dst, "10.0.0.2");
	b.proto = 17;
	b.sport = 5000;
	b.dport = 53;
	n = net_build_frame(&b, frame, sizeof(frame));
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i++, &w);
	assert_int_equal(w.hash, ref_hash4(rss_key_microsoft, "10.0.0.1",
					   "10.0.0.2", 5000, 53, false));
	assert_int_equal(w.htype, RTL_RX4_RI_IPV4);
	assert_true(w.udp);
	wr(f, RTL_RSS_CTRL_8125, 4, rd(f, RTL_RSS_CTRL_8125, 4) | RTL_RSS_CTRL_UDP_IPV4);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i++, &w);
	assert_int_equal(w.hash, ref_hash4(rss_key_microsoft, "10.0.0.1",
					   "10.0.0.2", 5000, 53, true));
	assert_int_equal(w.htype, RTL_RX4_RI_IPV4 | RTL_RX4_RI_UDP);

	/* IPv6 TCP: the Microsoft IPv6 vector */
	net_build_init(&b);
	b.ipv = 6;
	tu_ip6(b.src, "3ffe:2501:200:1fff::7");
	tu_ip6(b.dst, "3ffe:2501:200:3::1");
	b.proto = 6;
	b.sport = 2794;
	b.dport = 1766;
	n = net_build_frame(&b, frame, sizeof(frame));
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i++, &w);
	memcpy(in, b.src, 16);
	memcpy(in + 16, b.dst, 16);
	in[32] = 2794 >> 8; in[33] = 2794 & 0xff; in[34] = 1766 >> 8; in[35] = 1766 & 0xff;
	assert_int_equal(w.hash, rss_toeplitz_ref(rss_key_microsoft, 40, in, 36));
	assert_int_equal(w.hash, 0x40207d3d);
	assert_int_equal(w.htype, RTL_RX4_RI_IPV6 | RTL_RX4_RI_TCP);
	assert_true(w.v6 && w.tcp);

	/* VLAN strip: RxConfig bits 22/23; opts2 holds the swapped TCI */
	wr(f, RTL_RxConfig, 4, rd(f, RTL_RxConfig, 4) | RTL_RXCFG_VLAN_INNER |
	   RTL_RXCFG_VLAN_OUTER);
	net_build_init(&b);
	tu_ip4(b.src, "10.0.0.1");
	tu_ip4(b.dst, "10.0.0.2");
	b.proto = 6;
	b.n_vlan = 1;
	b.vlan_tci[0] = 0x0123;
	b.payload_len = 40;
	n = net_build_frame(&b, frame, sizeof(frame));
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i, &w);
	assert_true(w.vlan);
	assert_int_equal(w.tci, 0x2301);
	assert_int_equal(w.len, (uint32_t)n - 4 + 4);
	assert_memory_equal(f->rx[0].buf + (size_t)i * BUFSZ, frame, 12);
	assert_memory_equal(f->rx[0].buf + (size_t)i * BUFSZ + 12, frame + 16,
			    (size_t)n - 16);
	assert_true(w.tcp && !w.l4f && !w.ipf);
	i++;

	/* a corrupted TCP checksum: TCPF */
	wr(f, RTL_RxConfig, 4, rd(f, RTL_RxConfig, 4) & ~(RTL_RXCFG_VLAN_INNER |
	   RTL_RXCFG_VLAN_OUTER));
	n = (ssize_t)tcp4_frame(frame, 1, 2, 20);
	frame[14 + 20 + 16] ^= 0x55;
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i++, &w);
	assert_true(w.tcp && w.l4f && !w.ipf);

	/* RSS off: no hash, no type, queue 0 */
	wr(f, RTL_RSS_CTRL_8125, 4, 0);
	n = (ssize_t)tcp4_frame(frame, 1, 2, 20);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, (size_t)n), 0);
	sim_run(&f->sim);
	wb_decode(&f->rx[0], i++, &w);
	assert_int_equal(w.hash, 0);
	assert_int_equal(w.htype, 0);
	assert_int_equal(rtlm_stats(f->dev)->guest_errors, 0);
	fx_free(f);
}

/* EOR wraps the device to the base; a full ring drops and counts, and
 * changes nothing in memory. */
static void test_rx_wrap_and_full(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint8_t frame[NET_BUILD_MAX], snap[4 * 16];
	size_t n;

	(void)state;
	rx_setup(f, 1, 1, 4, BUFSZ);
	wr(f, RTL_IntrMask_8125, 4, RTL_INT_ROK | RTL_INT_RDU);
	for (unsigned i = 0; i < 4; i++) {
		n = tcp4_frame(frame, (uint16_t)(100 + i), 80, 10);
		assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	}
	sim_run(&f->sim);
	for (unsigned i = 0; i < 4; i++)
		assert_false(rx_o1(&f->rx[0], i) & RTL_DESC_OWN);
	assert_true(rx_o1(&f->rx[0], 3) & RTL_DESC_EOR);
	/* full: the 5th frame is dropped, memory untouched */
	memcpy(snap, f->rx[0].desc, sizeof(snap));
	n = tcp4_frame(frame, 200, 80, 10);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_memory_equal(snap, f->rx[0].desc, sizeof(snap));
	assert_int_equal(st->rx_missed[0], 1);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4) & RTL_INT_RDU, RTL_INT_RDU);
	assert_int_equal(rd(f, RTL_RDU_STA_8125, 2), 1);
	/* refill descriptor 0 only: the next frame wraps there */
	rx_arm(&f->rx[0], 0);
	n = tcp4_frame(frame, 300, 80, 10);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_false(rx_o1(&f->rx[0], 0) & RTL_DESC_OWN);
	assert_memory_equal(f->rx[0].buf, frame, n);
	/* exhaustion fault on an armed ring */
	rx_arm(&f->rx[0], 1);
	rtlm_faults(f->dev)->rx_ring_full = 1;
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(st->rx_missed[0], 2);
	assert_true(rx_o1(&f->rx[0], 1) & RTL_DESC_OWN);
	rtlm_faults(f->dev)->rx_ring_full = 0;
	/* conservation */
	assert_int_equal(st->rx_offered, 7);
	assert_int_equal(st->rx_ok[0] + rtlm_rx_dropped(f->dev) + st->rx_inflight, 7);
	/* tally: dump to memory */
	{
		void *cpu;
		uint64_t dma;
		struct rtl_tally *t;

		assert_int_equal(plat_mem_alloc(&f->mem, 64, &cpu, &dma), 0);
		wr(f, RTL_CounterAddrHigh, 4, (uint32_t)(dma >> 32));
		wr(f, RTL_CounterAddrLow, 4, (uint32_t)dma | RTL_COUNTER_DUMP);
		assert_true(rd(f, RTL_CounterAddrLow, 4) & RTL_COUNTER_DUMP);
		sim_run(&f->sim);
		assert_false(rd(f, RTL_CounterAddrLow, 4) & RTL_COUNTER_DUMP);
		t = cpu;
		assert_int_equal(t->rx_packets, 5);
		assert_int_equal(t->rx_missed, 2);
		assert_int_equal(t->rx_unicast, 5);
		wr(f, RTL_CounterAddrLow, 4, (uint32_t)dma | RTL_COUNTER_RESET |
		   RTL_COUNTER_DUMP);
		sim_run(&f->sim);
		assert_int_equal(t->rx_packets, 0);
	}
	fx_free(f);
}

/* Frames dropped at the MAC: each in its counter. */
static void test_rx_mac_drops(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);

	(void)state;
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), -EAGAIN);
	rx_setup(f, 1, 1, 4, BUFSZ);
	wr(f, RTL_RxConfig, 4, RTL_RXCFG_APM);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), -EPERM);
	/* to our station address: accepted */
	memcpy(frame, "\x00\xe0\x4c\x68\x00\x01", 6);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	wr(f, RTL_RxMaxSize, 2, 64);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), -EMSGSIZE);
	assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), -ENETDOWN);
	assert_int_equal(rtlm_eth_rx(f->dev, NULL, 10), -EINVAL);
	sim_run(&f->sim);
	assert_int_equal(st->rx_disabled, 1);
	assert_int_equal(st->rx_filtered, 1);
	assert_int_equal(st->rx_too_long, 1);
	assert_int_equal(st->rx_link_down, 1);
	assert_int_equal(st->rx_ok[0], 1);
	assert_int_equal(st->rx_offered, 5);
	assert_int_equal(st->rx_ok[0] + rtlm_rx_dropped(f->dev), 5);
	/* a ring base that is not DMA-visible: guest error, counted drop */
	assert_int_equal(rtlm_set_link(f->dev, true, 0), 0);
	wr(f, RTL_RxMaxSize, 2, 0x4000);
	wr(f, RTL_RxDescAddrLow, 4, 0);
	wr(f, RTL_RxDescAddrHigh, 4, 0);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(st->rx_dma_err[0], 1);
	assert_true(st->guest_errors >= 1);
	fx_free(f);
}

/* ---- RSS steering over real captures ---- */

struct steer_cfg {
	const char *name;
	uint8_t key[40];
	uint8_t indir[128];
	uint32_t ht;
};

static unsigned steer_file(struct fx *f, const char *path,
			   const struct steer_cfg *c, unsigned *hashed)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned frames = 0;
	pcap_t *p = pcap_open_offline(path, err);

	if (!p)
		return 0;
	if (pcap_datalink(p) != DLT_EN10MB) {
		pcap_close(p);
		return 0;
	}
	while (pcap_next_ex(p, &h, &data) == 1) {
		struct net_flow fl;
		struct rss_input in;
		uint32_t want_hash = 0;
		unsigned want_q = 0, got = 4;
		uint8_t pad[60];
		const uint8_t *fr = data;
		size_t len = h->caplen;

		if (!len || len > RTL_RX_LEN_MASK - 4 || len > BUFSZ - 4)
			continue;
		if (len < 60) {	/* the wire pads; hash the frame as sent */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, data, len);
			fr = pad;
			len = 60;
		}
		/* independent expectation: dissect, select, reference hash */
		net_dissect(fr, len, NET_LINK_ETH, &fl);
		rss_select(&fl, c->ht, 0, &in);
		if (c->ht && in.type != RSS_TYPE_NONE) {
			want_hash = rss_toeplitz_ref(c->key, 40, in.bytes, in.len);
			want_q = c->indir[want_hash & 127];
			(*hashed)++;
		}
		assert_int_equal(rtlm_eth_rx(f->dev, fr, len), 0);
		sim_run(&f->sim);
		for (unsigned q = 0; q < 4; q++) {
			struct ring *r = &f->rx[q];
			struct wb w;

			if (rx_o1(r, r->ntc) & RTL_DESC_OWN)
				continue;
			assert_int_equal(got, 4);	/* exactly one queue */
			got = q;
			wb_decode(r, r->ntc, &w);
			assert_int_equal(w.hash, want_hash);
			assert_int_equal(w.len, len + 4);
			assert_memory_equal(r->buf + (size_t)r->ntc * r->bufsz, fr, len);
			rx_arm(r, r->ntc);
			r->ntc = (r->ntc + 1) % r->n;
		}
		if (got != want_q)
			fail_msg("%s frame %u: queue %u, want %u (hash %08x)",
				 path, frames + 1, got, want_q, want_hash);
		frames++;
	}
	pcap_close(p);
	return frames;
}

static void test_rss_steering_pcaps(void **state)
{
	struct steer_cfg cfg[4];
	uint64_t seed = 0x5eed;
	unsigned total = 0, hashed = 0, nf = 0;
	struct dirent **ents;
	int ne;

	(void)state;
	if (!pcaps_dir || (ne = scandir(pcaps_dir, &ents, NULL, alphasort)) < 0) {
		skip();
		return;
	}
	/* microsoft key, default table, the vendor's types */
	cfg[0].name = "ms-default";
	memcpy(cfg[0].key, rss_key_microsoft, 40);
	for (unsigned i = 0; i < 128; i++)
		cfg[0].indir[i] = (uint8_t)(i % 4);
	cfg[0].ht = RSS_HT_RTL8127_DEFAULT;
	/* random key, random table, every type */
	cfg[1].name = "random-all";
	tu_fill(&seed, cfg[1].key, 40);
	for (unsigned i = 0; i < 128; i++)
		cfg[1].indir[i] = (uint8_t)(tu_rand(&seed) % 4);
	cfg[1].ht = RSS_HT_ALL;
	/* another key, "equal 2 start 2", IPv4/IPv6 pairs only */
	cfg[2].name = "ip-only";
	tu_fill(&seed, cfg[2].key, 40);
	for (unsigned i = 0; i < 128; i++)
		cfg[2].indir[i] = (uint8_t)(2 + i % 2);
	cfg[2].ht = RSS_HT_IPV4 | RSS_HT_IPV6 | RSS_HT_UDP_IPV4;
	/* RSS off: queue 0 */
	cfg[3] = cfg[1];
	cfg[3].name = "off";
	cfg[3].ht = 0;

	for (unsigned c = 0; c < 4; c++) {
		struct fx *f = fx_new("RTL8127A");

		rx_setup(f, 4, 4, 8, BUFSZ);
		rss_program(f, cfg[c].key, cfg[c].indir, cfg[c].ht, 4);
		for (int i = 0; i < ne; i++) {
			char path[1024];
			const char *nm = ents[i]->d_name;
			size_t l = strlen(nm);

			if (!((l > 5 && !strcmp(nm + l - 5, ".pcap")) ||
			      (l > 7 && !strcmp(nm + l - 7, ".pcapng"))))
				continue;
			snprintf(path, sizeof(path), "%s/%s", pcaps_dir, nm);
			total += steer_file(f, path, &cfg[c], &hashed);
			nf += !c;
		}
		{
			const struct rtlm_stats *st = rtlm_stats(f->dev);
			uint64_t ok = 0;

			for (unsigned q = 0; q < 4; q++)
				ok += st->rx_ok[q];
			assert_int_equal(st->rx_offered, ok);
			assert_int_equal(rtlm_rx_dropped(f->dev), 0);
			assert_int_equal(st->guest_errors, 0);
		}
		fx_free(f);
	}
	for (int i = 0; i < ne; i++)
		free(ents[i]);
	free(ents);
	if (!total) {
		skip();
		return;
	}
	print_message("steered %u frames from %u captures x 4 configs, %u hashed\n",
		      total, nf, hashed);
	assert_true(hashed > total / 4);
}

/* ---- interrupts ---- */

static void txq_enable(struct fx *f, unsigned nq)
{
	wr(f, RTL_MACOCP, 4, RTL_OCP_FLAG | (RTL_OCP_TX_Q_NUM << RTL_OCP_ADDR_SHIFT) |
	   ((nq == 2 ? 1u : 0u) << RTL_OCP_TX_Q_NUM_SHIFT));
}

static void tx_ring(struct fx *f, unsigned q, unsigned n)
{
	struct ring *r = &f->tx[q];
	void *cpu;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->dsz = 16;
	r->bufsz = BUFSZ;
	assert_int_equal(plat_mem_alloc(&f->mem, n * 16, &cpu, &r->desc_dma), 0);
	r->desc = cpu;
	assert_int_equal(plat_mem_alloc(&f->mem, (size_t)n * BUFSZ, &cpu, &r->buf_dma), 0);
	r->buf = cpu;
	if (!q) {
		wr(f, RTL_TxDescStartAddrHigh, 4, (uint32_t)(r->desc_dma >> 32));
		wr(f, RTL_TxDescStartAddrLow, 4, (uint32_t)r->desc_dma);
	} else {
		wr(f, RTL_TNPDS_Q1_LOW_8125 + 4, 4, (uint32_t)(r->desc_dma >> 32));
		wr(f, RTL_TNPDS_Q1_LOW_8125, 4, (uint32_t)r->desc_dma);
	}
}

/* Driver side: put @len bytes in descriptor @i with @o1 flags. */
static void tx_put(struct ring *r, unsigned i, const void *p, uint32_t len,
		   uint32_t flags, uint32_t opts2)
{
	uint8_t *d = r->desc + (size_t)i * 16;

	memcpy(r->buf + (size_t)i * BUFSZ, p, len);
	put32(d + 4, opts2);
	put64(d + 8, r->buf_dma + (size_t)i * BUFSZ);
	put32(d, RTL_DESC_OWN | flags | (i == r->n - 1 ? RTL_DESC_EOR : 0) | len);
}

/* Each chip's message-id map: RX queue q, TX queue q, link. */
static void test_irq_maps(void **state)
{
	uint8_t frame[NET_BUILD_MAX], indir[128];

	(void)state;
	for (unsigned c = 0; c < rtl_chips_count; c++) {
		const struct rtl_chip_info *ch = &rtl_chips[c];
		const struct rtl_irq_map *m = ch->irq_map;
		unsigned nq = ch->caps->rx_queues;
		size_t n;

		for (unsigned q = 0; q < nq; q++) {
			struct fx *f = fx_new_p(ch, NULL);

			rx_setup(f, ch->rx_desc->type, nq, 4, BUFSZ);
			if (ch->caps->rss_indir_size) {
				indir_all(indir, q);
				rss_program(f, rss_key_microsoft, indir,
					    RSS_HT_RTL8127_DEFAULT, nq);
			}
			if (m->legacy) {
				wr(f, RTL_IntrMask_8125, 4, RTL_INT_ROK);
			} else {
				irq_v2(f);
			}
			n = tcp4_frame(frame, 7, 8, 10);
			assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
			sim_run(&f->sim);
			assert_int_equal(f->nlog, 1);
			assert_int_equal(f->log[0].vec, m->legacy ? 0 : m->rx[q]);
			if (m->legacy)
				assert_int_equal(rd(f, RTL_IntrStatus_8125, 4), RTL_INT_ROK);
			else
				assert_int_equal(rd(f, RTL_ISR_V2_8125, 4), 1u << m->rx[q]);
			fx_free(f);
		}
		for (unsigned q = 0; q < ch->caps->tx_queues; q++) {
			struct fx *f = fx_new_p(ch, NULL);

			rx_setup(f, 1, 1, 4, BUFSZ);
			txq_enable(f, ch->caps->tx_queues);
			if (m->legacy)
				wr(f, RTL_IntrMask_8125, 4, RTL_INT_TOK);
			else
				irq_v2(f);
			tx_ring(f, q, 4);
			n = tcp4_frame(frame, 7, 8, 10);
			tx_put(&f->tx[q], 0, frame, (uint32_t)n, RTL_TX_FS | RTL_TX_LS, 0);
			wr(f, RTL_TxPoll_8125, 2, 1u << q);
			sim_run(&f->sim);
			assert_int_equal(f->nwire, 1);
			assert_int_equal(f->nlog, 1);
			assert_int_equal(f->log[0].vec, m->legacy ? 0 : m->tx[q]);
			fx_free(f);
		}
		{
			struct fx *f = fx_new_p(ch, NULL);

			if (m->legacy)
				wr(f, RTL_IntrMask_8125, 4, RTL_INT_LINK_CHG);
			else
				irq_v2(f);
			assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
			sim_run(&f->sim);
			assert_int_equal(f->nlog, 1);
			assert_int_equal(f->log[0].vec, m->legacy ? 0 : m->link);
			assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
			fx_free(f);
		}
	}
	/* RTL8127A: the research's numbers */
	{
		const struct rtl_irq_map *m = chip_named("RTL8127A")->irq_map;

		assert_int_equal(m->rx[3], 3);
		assert_int_equal(m->tx[0], 8);
		assert_int_equal(m->tx[1], 9);
		assert_int_equal(m->link, 29);
	}
}

/* Configuration space from the chip row: 10ec:<row's device>, class
 * 020000, MSI-X table size msix_max in BAR 4 (table 0, PBA 0x800). */
static uint32_t cfg32(struct fx *f, unsigned off)
{
	uint32_t v;

	assert_int_equal(plat_pci_cfg_read(f->pci, off, 4, &v), 0);
	return v;
}

static unsigned msg_n;
static uint64_t msg_addr;
static uint32_t msg_data;

static void msg_fn(void *opaque, uint64_t addr, uint32_t data)
{
	(void)opaque;
	msg_n++;
	msg_addr = addr;
	msg_data = data;
}

/* The internal PHY's clause 22 registers through the PHY OCP window, as
 * a PHY library reads them: ID, abilities, link and autonegotiation
 * follow the model's link; BMCR reset self-clears. */
static uint16_t phy_rd(struct fx *f, unsigned reg)
{
	uint32_t v;

	wr(f, RTL_GPHY_OCP, 4, ((RTL_PHY_OCP_STD_BASE + 2 * reg) / 2) << 16);
	v = rd(f, RTL_GPHY_OCP, 4);
	assert_true(v & RTL_OCP_FLAG);          /* done */
	return (uint16_t)v;
}

static void phy_wr(struct fx *f, unsigned reg, uint16_t val)
{
	wr(f, RTL_GPHY_OCP, 4, RTL_OCP_FLAG |
	   ((RTL_PHY_OCP_STD_BASE + 2 * reg) / 2) << 16 | val);
}

static uint16_t phy_ocp_rd(struct fx *f, uint16_t addr)
{
	uint32_t v;

	wr(f, RTL_GPHY_OCP, 4, (uint32_t)(addr / 2) << 16);
	v = rd(f, RTL_GPHY_OCP, 4);
	assert_true(v & RTL_OCP_FLAG);          /* done */
	return (uint16_t)v;
}

static void phy_ocp_wr(struct fx *f, uint16_t addr, uint16_t val)
{
	wr(f, RTL_GPHY_OCP, 4, RTL_OCP_FLAG | (uint32_t)(addr / 2) << 16 | val);
	assert_false(rd(f, RTL_GPHY_OCP, 4) & RTL_OCP_FLAG);
}

static void test_phy_regs(void **state)
{
	struct fx *f = fx_new("RTL8127A");

	(void)state;
	assert_int_equal(phy_rd(f, 2), 0x001c);
	assert_int_equal(phy_rd(f, 3), 0xc890);
	assert_int_equal(phy_rd(f, 1), 0x7949 | 0x0024);        /* link, AN done */
	assert_int_equal(phy_rd(f, 10) & 0x0800, 0x0800);       /* LP 1000 FD */
	/* Realtek PHYSR (page 0 reg 0x1a = 0xA434): 10G (0x0200), master,
	 * full duplex, link */
	assert_int_equal(phy_rd(f, 0x1a), 0x0a0c);
	assert_int_equal(phy_rd(f, 0), 0x1000);
	assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
	assert_int_equal(phy_rd(f, 1), 0x7949);
	assert_int_equal(phy_rd(f, 5), 0);
	assert_int_equal(phy_rd(f, 10), 0);
	assert_int_equal(phy_rd(f, 0x1a), 0);
	fx_free(f);
}

/* Per chip: the identity Linux's realtek PHY driver matches ("Realtek
 * Internal NBASE-T PHY": one of its IDs, 2.5G ability in page 0xa61 reg
 * 0x13, MMD over clause 22 reading 0) and the abilities, partner and
 * PHYSR speed that make the link run at the part's own rate. */
static void test_phy_identity(void **state)
{
	static const struct {
		const char *chip;
		uint32_t id, mbps;
		uint16_t pma, adv, lp, physr;
	} c[] = {
		{ "RTL8125A", 0x001cc800, 2500, 0x2000, 0x0080, 0x3020, 0x0210 },
		{ "RTL8125B", 0x001cc840, 2500, 0x2000, 0x0080, 0x3020, 0x0210 },
		{ "RTL8126A", 0x001cc862, 5000, 0x6000, 0x0180, 0x3060, 0x0220 },
		{ "RTL8127A", 0x001cc890, 10000, 0x6001, 0x1180, 0x3860, 0x0200 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fx *f = fx_new(c[i].chip);

		assert_int_equal((uint32_t)phy_rd(f, 2) << 16 | phy_rd(f, 3), c[i].id);
		assert_int_equal(phy_ocp_rd(f, 0xa616), c[i].pma);
		phy_ocp_wr(f, 0xa616, 0);                       /* read-only */
		assert_int_equal(phy_ocp_rd(f, 0xa616), c[i].pma);
		/* the page-select way the realtek driver reads it: page 0xa61
		 * register 0x13 is OCP 0xa610 + (0x13 - 0x10) * 2 */
		assert_int_equal(phy_ocp_rd(f, 0xa610 + 2 * 3), c[i].pma);
		/* clause-22 MMD access (regs 13/14) reads 0 on internal PHYs */
		phy_wr(f, 13, 3);
		phy_wr(f, 14, 0x14);
		phy_wr(f, 13, 0x4003);
		assert_int_equal(phy_rd(f, 14), 0);
		assert_int_equal(phy_ocp_rd(f, 0xa5d4), c[i].adv);
		assert_int_equal(phy_ocp_rd(f, 0xa5d6), c[i].lp);
		assert_int_equal(phy_ocp_rd(f, 0xa434), 0x080c | c[i].physr);
		assert_int_equal(phy_rd(f, 0x1a), 0x080c | c[i].physr);
		assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHYSTATUS_MASK,
				 RTL_PHY_LINK | RTL_PHY_FULL_DUP |
				 (c[i].mbps == 2500 ? RTL_PHY_2500MF :
				  c[i].mbps == 5000 ? RTL_PHY_5000MF : RTL_PHY_10000MF));
		fx_free(f);
	}
}

static unsigned link_msgs(struct fx *f)
{
	unsigned n = 0;

	for (unsigned k = 0; k < f->nlog; k++)
		n += f->log[k].vec == f->chip->irq_map->link;
	return n;
}

/* BMCR restart-autoneg: the link drops at once (LinkChg) and comes back
 * an_ns later (LinkChg again), at the fastest speed both sides
 * advertise; BMCR power-down takes it down and 0xA420 leaves LAN_ON; a
 * power-up restarts autonegotiation and 0xA420 reads LAN_ON (3). */
static void test_phy_autoneg(void **state)
{
	struct rtlm_params p;
	struct fx *f;
	unsigned n0;

	(void)state;
	rtlm_params_default(&p);
	p.an_ns = 1000000;                                      /* 1 ms */
	f = fx_new_p(chip_named("RTL8127A"), &p);
	irq_v2(f);
	assert_int_equal(phy_ocp_rd(f, 0xa420) & 7, 3);         /* LAN_ON */
	n0 = link_msgs(f);
	phy_wr(f, 0, 0x1200);                                   /* AN enable + restart */
	assert_int_equal(phy_rd(f, 0), 0x1000);                 /* restart self-clears */
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	assert_int_equal(phy_rd(f, 1) & 0x0024, 0);             /* no link, AN busy */
	assert_int_equal(phy_rd(f, 0x1a), 0);
	run_for(f, 10000);
	assert_int_equal(link_msgs(f), n0 + 1);                 /* the drop */
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);
	run_for(f, 500000);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	run_for(f, 600000);                                     /* past 1 ms */
	assert_int_equal(link_msgs(f), n0 + 2);                 /* done: LinkChg */
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHYSTATUS_MASK,
			 RTL_PHY_LINK | RTL_PHY_FULL_DUP | RTL_PHY_10000MF);
	assert_int_equal(phy_rd(f, 1) & 0x0024, 0x0024);
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);

	/* advertise up to 2.5G only: after the restart the link runs at 2.5G */
	phy_ocp_wr(f, 0xa5d4, 0x0080);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_10000MF, RTL_PHY_10000MF);
	phy_wr(f, 0, 0x1200);
	run_for(f, 10000);
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);	/* ack the drop */
	run_for(f, 2000000);
	assert_int_equal(link_msgs(f), n0 + 4);
	assert_int_equal(phy_rd(f, 0x1a), 0x080c | 0x0210);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHYSTATUS_MASK,
			 RTL_PHY_LINK | RTL_PHY_FULL_DUP | RTL_PHY_2500MF);
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);

	/* power down: link down, state no longer LAN_ON; power up restarts */
	phy_wr(f, 0, 0x1800);
	assert_int_equal(phy_ocp_rd(f, 0xa420) & 7, 0);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	run_for(f, 2000000);
	assert_int_equal(link_msgs(f), n0 + 5);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);
	phy_wr(f, 0, 0x1000);
	assert_int_equal(phy_ocp_rd(f, 0xa420) & 7, 3);
	run_for(f, 2000000);
	assert_int_equal(link_msgs(f), n0 + 6);		/* up (it was down) */
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, RTL_PHY_LINK);
	/* BMCR reset: back to the default, restarts autonegotiation */
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);
	phy_wr(f, 0, 0x8000);
	assert_int_equal(phy_rd(f, 0), 0x1000);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	run_for(f, 10000);
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);
	run_for(f, 2000000);
	assert_int_equal(link_msgs(f), n0 + 8);
	/* the wire going down while negotiating: no link when it ends */
	wr(f, RTL_ISR_V2_8125, 4, 0xffffffffu);
	phy_wr(f, 0, 0x1200);
	assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
	run_for(f, 2000000);
	assert_int_equal(rd(f, RTL_PHYstatus, 4) & RTL_PHY_LINK, 0);
	assert_int_equal(link_msgs(f), n0 + 9);
	/* PHY MCU patch handshake: 0xB800 bit 6 follows 0xB820 bit 4 */
	phy_ocp_wr(f, 0xb820, 0x0010);
	assert_int_equal(phy_ocp_rd(f, 0xb800) & 0x40, 0x40);
	phy_ocp_wr(f, 0xb820, 0);
	assert_int_equal(phy_ocp_rd(f, 0xb800) & 0x40, 0);
	/* the parameter window: address, then data, per address */
	phy_ocp_wr(f, 0xb87c, 0x8011);
	phy_ocp_wr(f, 0xb87e, 0x1234);
	phy_ocp_wr(f, 0xb87c, 0x8012);
	phy_ocp_wr(f, 0xb87e, 0x5678);
	phy_ocp_wr(f, 0xb87c, 0x8011);
	assert_int_equal(phy_ocp_rd(f, 0xb87e), 0x1234);
	fx_free(f);
}

/* EPHYAR: a write completes with the flag clear, a read with the flag set
 * and the register's data; 7-bit register numbers (0x22 and 0x62 are two
 * registers); register 0x7e selects the page of the extended addresses. */
static void test_ephyar(void **state)
{
	struct fx *f = fx_new("RTL8125B");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint64_t ge = st->guest_errors;
	uint32_t v;

	(void)state;
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x22u << 16 | 0x0020);
	assert_int_equal(rd(f, RTL_EPHYAR, 4) & RTL_EPHYAR_FLAG, 0);     /* done */
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x62u << 16 | 0xa908);
	wr(f, RTL_EPHYAR, 4, 0x22u << 16);
	v = rd(f, RTL_EPHYAR, 4);
	assert_true(v & RTL_EPHYAR_FLAG);
	assert_int_equal(v & 0xffff, 0x0020);
	wr(f, RTL_EPHYAR, 4, 0x62u << 16);
	assert_int_equal(rd(f, RTL_EPHYAR, 4), RTL_EPHYAR_FLAG | 0x62u << 16 | 0xa908);
	/* page 8 (RTL8127 extended address 0x8088 = page 8, reg 0x08) */
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x7eu << 16 | 8);
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x08u << 16 | 0x0064);
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x7eu << 16 | 0);
	wr(f, RTL_EPHYAR, 4, 0x08u << 16);
	assert_int_equal(rd(f, RTL_EPHYAR, 4) & 0xffff, 0);
	wr(f, RTL_EPHYAR, 4, RTL_EPHYAR_FLAG | 0x7eu << 16 | 8);
	wr(f, RTL_EPHYAR, 4, 0x08u << 16);
	assert_int_equal(rd(f, RTL_EPHYAR, 4) & 0xffff, 0x0064);
	assert_int_equal(st->guest_errors, ge);
	fx_free(f);
}

/* CSIAR/CSIDR: reads give the function's own configuration space through
 * plat_pci (the flag set when CSIDR holds the dword, byte enables), writes
 * land in it (flag clear when done); another function is nobody. */
static void test_csi(void **state)
{
	struct fx *f = fx_new("RTL8126A");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint64_t ge = st->guest_errors;
	uint32_t v;

	(void)state;
	wr(f, RTL_CSIAR, 4, 0xfu << 12 | 0x000);
	assert_true(rd(f, RTL_CSIAR, 4) & RTL_CSIAR_FLAG);
	assert_int_equal(rd(f, RTL_CSIDR, 4), 0x812610ec);
	assert_int_equal(rd(f, RTL_CSIDR, 4), cfg32(f, 0));
	wr(f, RTL_CSIAR, 4, 0x3u << 12 | 0x008);                 /* bytes 0-1 */
	assert_int_equal(rd(f, RTL_CSIDR, 4), cfg32(f, 8) & 0xffff);
	wr(f, RTL_CSIAR, 4, 0xfu << 12 | 0x02c);
	assert_int_equal(rd(f, RTL_CSIDR, 4), 0x012310ec);      /* subsystem */
	/* write: cache line size (byte 0 of 0x0c), the other bytes untouched */
	v = cfg32(f, 0x0c);
	wr(f, RTL_CSIDR, 4, 0x00000010);
	wr(f, RTL_CSIAR, 4, RTL_CSIAR_FLAG | 0x1u << 12 | 0x00c);
	assert_int_equal(rd(f, RTL_CSIAR, 4) & RTL_CSIAR_FLAG, 0);
	assert_int_equal(cfg32(f, 0x0c), (v & ~0xffu) | 0x10);
	/* an extended-space dword (K rtl_csi_read reaches up to 0xfff) */
	wr(f, RTL_CSIAR, 4, 0xfu << 12 | 0x100);
	assert_true(rd(f, RTL_CSIAR, 4) & RTL_CSIAR_FLAG);
	assert_int_equal(rd(f, RTL_CSIDR, 4), cfg32(f, 0x100));
	assert_int_equal(st->guest_errors, ge);
	/* function 2 (K CSIAR_FUNC_NIC): no such function */
	wr(f, RTL_CSIAR, 4, 0x2u << 16 | 0xfu << 12 | 0x000);
	assert_true(rd(f, RTL_CSIAR, 4) & RTL_CSIAR_FLAG);
	assert_int_equal(rd(f, RTL_CSIDR, 4), 0xffffffffu);
	assert_int_equal(st->guest_errors, ge + 1);
	fx_free(f);
}

/* The unknown-register report keeps every offset (no limit) and sees MAC
 * OCP and PHY OCP addresses no row names; what it names is not reported,
 * and the offsets an RTL8127A driver touched (issue 28) are rows. */
static void test_unknown_report(void **state)
{
	static const uint32_t rows[] = { 0x18, 0x57, 0x64, 0x68, 0x80, 0xd0, 0xd2,
					 0x402, 0x1000, 0x20e4 };
	struct fx *f = fx_new("RTL8127A");
	const struct rtlm_unknown_reg *u;
	unsigned n;

	(void)state;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_non_null(rtl_reg_lookup(rows[i]));
		(void)rd(f, rows[i], 1);
	}
	u = rtlm_unknown_regs(f->dev, &n);
	assert_int_equal(n, 0);
	/* 200 distinct unknown offsets: all kept, in first-touch order */
	for (unsigned i = 0; i < 200; i++)
		(void)rd(f, 0x7000 + 4 * i, 4);
	wr(f, 0x7000, 4, 0x55);
	u = rtlm_unknown_regs(f->dev, &n);
	assert_int_equal(n, 200);
	assert_int_equal(u[0].off, 0x7000);
	assert_int_equal(u[0].reads, 1);
	assert_int_equal(u[0].writes, 1);
	assert_int_equal(u[0].last_write, 0x55);
	assert_int_equal(u[199].off, 0x7000 + 4 * 199);
	/* OCP: known addresses are not reported, others are (and still
	 * store what is written) */
	wr(f, RTL_MACOCP, 4, RTL_OCP_FLAG | (0xE63Eu / 2) << 16 | 0);
	wr(f, RTL_MACOCP, 4, RTL_OCP_FLAG | (0xF800u / 2) << 16 | 0x1234);
	wr(f, RTL_MACOCP, 4, (0xF800u / 2) << 16);
	assert_int_equal(rd(f, RTL_MACOCP, 4) & 0xffff, 0x1234);
	(void)phy_ocp_rd(f, 0xa402);
	(void)phy_ocp_rd(f, 0xa616);
	phy_ocp_wr(f, 0xf000, 7);
	assert_int_equal(phy_ocp_rd(f, 0xf000), 7);
	u = rtlm_unknown_in(f->dev, RTLM_UNKNOWN_MAC_OCP, &n);
	assert_int_equal(n, 1);
	assert_int_equal(u[0].off, 0xF800);
	assert_int_equal(u[0].reads, 1);
	assert_int_equal(u[0].writes, 1);
	u = rtlm_unknown_in(f->dev, RTLM_UNKNOWN_PHY_OCP, &n);
	assert_int_equal(n, 1);
	assert_int_equal(u[0].off, 0xf000);
	assert_int_equal(u[0].reads, 1);
	assert_int_equal(u[0].last_write, 7);
	fx_free(f);
}

static void test_pci_config(void **state)
{
	(void)state;
	for (unsigned c = 0; c < rtl_chips_count; c++) {
		const struct rtl_chip_info *ch = &rtl_chips[c];
		struct fx *f = fx_new_p(ch, NULL);

		assert_int_equal(cfg32(f, 0x00), (uint32_t)ch->caps->pci_device << 16 | 0x10ec);
		assert_int_equal(cfg32(f, 0x08) >> 8, 0x020000);
		assert_int_equal(cfg32(f, 0x10), 0x1);                  /* I/O */
		assert_int_equal(cfg32(f, 0x18), 0x4);                  /* 64-bit mem */
		assert_int_equal(cfg32(f, 0x20), 0x4);
		assert_int_equal(cfg32(f, PLAT_PCI_CAP_MSIX) & 0xff, 0x11);
		assert_int_equal(cfg32(f, PLAT_PCI_CAP_MSIX) >> 16 & 0x7ff,
				 ch->caps->msix_max - 1);
		assert_int_equal(cfg32(f, PLAT_PCI_CAP_MSIX + 4), RTL_BAR_MSIX);
		assert_int_equal(cfg32(f, PLAT_PCI_CAP_MSIX + 8),
				 RTL_MSIX_PBA_OFF | RTL_BAR_MSIX);
		/* fx_new put it in MSI-X mode (the kern path): the enable shows */
		assert_true(cfg32(f, PLAT_PCI_CAP_MSIX) & 0x80000000u);
		fx_free(f);
	}
	/* RTL8127A; a link change through the transport: the message carries
	 * the address and data a guest put in the link vector's entry */
	{
		const struct rtl_chip_info *ch = chip_named("RTL8127A");
		struct fx *f = fx_new_p(ch, NULL);
		unsigned v = ch->irq_map->link;
		unsigned char *t = plat_pci_bar_addr(f->pci, RTL_BAR_MSIX);

		assert_int_equal(cfg32(f, 0x00), 0x812710ec);
		assert_int_equal(cfg32(f, 0x08) >> 8, 0x020000);
		assert_int_equal(cfg32(f, 0x2c), 0x012310ec);
		msg_n = 0;
		plat_pci_set_transport(f->pci, msg_fn, NULL, NULL);
		assert_int_equal(plat_pci_cfg_write(f->pci, 0x04, 2, 0x6), 0);
		assert_int_equal(plat_pci_mmio_write(t + 16 * v, 4, 0xfee00000), 0);
		assert_int_equal(plat_pci_mmio_write(t + 16 * v + 8, 4, 0x4029), 0);
		irq_v2(f);
		assert_int_equal(rtlm_set_link(f->dev, false, 0), 0);
		sim_run(&f->sim);
		assert_int_equal(msg_n, 1);
		assert_int_equal(msg_addr, 0xfee00000);
		assert_int_equal(msg_data, 0x4029);
		assert_int_equal(f->nlog, 1);           /* the sim_irq as well */
		assert_int_equal(f->log[0].vec, v);
		assert_int_equal(f->pci->cfg_errors, 0);
		fx_free(f);
	}
}

/* Mask, unmask with status latched (re-raise), W1C, no second message
 * while latched, MSI-X table mask with the PBA; the legacy model too. */
static void test_irq_mask_unmask(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);
	sim_time_t t;

	(void)state;
	rx_setup(f, 1, 1, 16, BUFSZ);
	irq_v2(f);
	wr(f, RTL_IMR_V2_CLEAR_REG_8125, 4, 1);		/* mask id 0 */
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 0);
	assert_int_equal(rd(f, RTL_ISR_V2_8125, 4), 1);
	run_for(f, 5000);
	t = sim_now(&f->sim);
	wr(f, RTL_IMR_V2_SET_REG_8125, 4, 1);		/* unmask: re-raise */
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(f->log[0].t, t);
	assert_int_equal(f->log[0].vec, 0);
	/* status still latched: another frame sends nothing */
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	/* ack (W1C) with nothing new: silent; next frame: a message */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	assert_int_equal(rd(f, RTL_ISR_V2_8125, 4), 0);
	wr(f, RTL_IMR_V2_SET_REG_8125, 4, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 2);
	/* MSI-X table mask: the message becomes a pending bit */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	assert_int_equal(plat_pci_msix_mask(f->pci, 0, true), 0);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 2);
	assert_true(f->pci->msix[0].pending);
	assert_int_equal(plat_pci_msix_mask(f->pci, 0, false), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 3);
	/* a dropped message (fault): status set, nothing arrives */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	rtlm_faults(f->dev)->msix_drop_next = 1;
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 3);
	assert_int_equal(rtlm_stats(f->dev)->msix_dropped, 1);
	assert_int_equal(rd(f, RTL_ISR_V2_8125, 4), 1);

	/* legacy model on the same chip: one vector, IMR/ISR at 0x38/0x3C,
	 * queue 1..3 status in ISRn */
	wr(f, RTL_INT_CFG0_8125, 1, 0);
	f->nlog = 0;
	wr(f, RTL_IntrMask_8125, 4, 0);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 0);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4) & RTL_INT_ROK, RTL_INT_ROK);
	wr(f, RTL_IntrMask_8125, 4, RTL_INT_ROK);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(f->log[0].vec, 0);
	fx_free(f);
}

/* Per-queue INT_MITI_V2 timers delay the message by n units exactly. */
static void moder_case(const char *chip, sim_time_t unit)
{
	struct fx *f = fx_new(chip);
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);
	sim_time_t t0;

	rx_setup(f, 1, 1, 16, BUFSZ);
	irq_v2(f);
	/* zeroed block: a message per event, at visibility time */
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(f->log[0].t, t0 + 700);
	wr(f, RTL_ISR_V2_8125, 4, 1);

	/* RX timer of queue 0 = 3 units */
	wr(f, RTL_INT_MITI_V2_RX(0), 1, 3);
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run_until(&f->sim, t0 + 1000);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);	/* covered */
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 2);
	assert_int_equal(f->log[1].t, t0 + 700 + 3 * unit);
	assert_int_equal(rtlm_stats(f->dev)->rx_ok[0], 3);
	/* ack; a later frame starts a new hold-off */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	run_for(f, 100000);
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 3);
	assert_int_equal(f->log[2].t, t0 + 700 + 3 * unit);
	/* MITIGATION_BYPASS: timers ignored */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	wr(f, RTL_INT_CFG0_8125, 1, RTL_INT_CFG0_ENABLE |
	   RTL_INT_CFG0_MITIGATION_BYPASS);
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 4);
	assert_int_equal(f->log[3].t, t0 + 700);
	/* TX timer (byte 2) on the TX id */
	wr(f, RTL_INT_CFG0_8125, 1, RTL_INT_CFG0_ENABLE);
	wr(f, RTL_INT_MITI_V2_TX(0), 1, 2);
	tx_ring(f, 0, 4);
	tx_put(&f->tx[0], 0, frame, (uint32_t)n, RTL_TX_FS | RTL_TX_LS, 0);
	t0 = sim_now(&f->sim);
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 5);
	assert_int_equal(f->log[4].vec, f->chip->irq_map->tx[0]);
	assert_int_equal(f->log[4].t, t0 + 200 + 2 * 800 + 2 * unit);
	fx_free(f);
}

static void test_moderation(void **state)
{
	(void)state;
	moder_case("RTL8127A", 4096);	/* tick div 0x200 */
	moder_case("RTL8125B", 2048);	/* tick div 0x100 */
}

/* [I] INT_MITI byte 1, the RX frame threshold (rtl_defines.h): 4n frames
 * in a running hold-off end it early; the next frame starts a new one;
 * without a timer it does nothing. */
static void test_moderation_frames(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);
	sim_time_t t0;

	(void)state;
	rx_setup(f, 1, 1, 64, BUFSZ);
	irq_v2(f);
	/* timer 10 units (41 us), threshold 2: 8 frames */
	wr(f, RTL_INT_MITI_V2_RX(0), 2, 10 | 2 << 8);
	t0 = sim_now(&f->sim);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
		run_for(f, 1000);
	}
	assert_int_equal(f->nlog, 0);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);	/* the 8th */
	sim_run_until(&f->sim, t0 + 7000 + 700);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(f->log[0].t, t0 + 7000 + 700);
	assert_int_equal(rtlm_stats(f->dev)->moder_frames_early, 1);
	/* ack; 3 frames do not reach it: the timer ends this hold-off */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	run_for(f, 100000);
	t0 = sim_now(&f->sim);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 2);
	assert_int_equal(f->log[1].t, t0 + 700 + 10 * 4096);
	assert_int_equal(rtlm_stats(f->dev)->moder_frames_early, 1);
	/* no timer: a message per event, the threshold unused */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	wr(f, RTL_INT_MITI_V2_RX(0), 2, 0 | 2 << 8);
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 3);
	assert_int_equal(f->log[2].t, t0 + 700);
	fx_free(f);
}

/* The OwnBit erratum: the handler sees OWN still set; after an MMIO read
 * it is clear.  Without a read the write lands ownbit_delay_ns later. */
static void erratum_handler(struct fx *f, unsigned vec)
{
	(void)vec;
	f->own_in_handler = !!(rx_o1(&f->rx[0], f->rx[0].ntc) & RTL_DESC_OWN);
	(void)rd(f, RTL_IntrMask_8125, 1);	/* the vendor's dummy read */
	f->own_after_read = !!(rx_o1(&f->rx[0], f->rx[0].ntc) & RTL_DESC_OWN);
	f->rx[0].ntc++;
}

static void test_ownbit_erratum(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 10);
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	sim_time_t t0;

	(void)state;
	rx_setup(f, 4, 1, 16, BUFSZ);
	irq_v2(f);
	f->on_irq = erratum_handler;
	/* erratum off: OWN already clear in the handler */
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 1);
	assert_int_equal(f->own_in_handler, 0);
	wr(f, RTL_ISR_V2_8125, 4, 1);
	/* erratum on: the window is visible, the MMIO read closes it */
	rtlm_faults(f->dev)->ownbit_erratum = true;
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run(&f->sim);
	assert_int_equal(f->nlog, 2);
	assert_int_equal(f->own_in_handler, 1);
	assert_int_equal(f->own_after_read, 0);
	assert_int_equal(st->ownbit_held, 1);
	assert_int_equal(st->ownbit_flush_mmio, 1);
	/* everything else of the descriptor was already there */
	wr(f, RTL_ISR_V2_8125, 4, 1);
	/* no MMIO read: the write lands after ownbit_delay_ns */
	f->on_irq = NULL;
	t0 = sim_now(&f->sim);
	assert_int_equal(rtlm_eth_rx(f->dev, frame, n), 0);
	sim_run_until(&f->sim, t0 + 700);
	assert_int_equal(f->nlog, 3);
	assert_true(rx_o1(&f->rx[0], 2) & RTL_DESC_OWN);
	/* the data is already in the buffer, only OWN lags */
	assert_memory_equal(f->rx[0].buf + 2 * BUFSZ, frame, n);
	sim_run_until(&f->sim, t0 + 700 + 2000 - 1);
	assert_true(rx_o1(&f->rx[0], 2) & RTL_DESC_OWN);
	sim_run_until(&f->sim, t0 + 700 + 2000);
	assert_false(rx_o1(&f->rx[0], 2) & RTL_DESC_OWN);
	assert_int_equal(st->ownbit_flush_timer, 1);
	fx_free(f);
}

/* TX: a two-descriptor frame, the wire callback, OWN cleared, HW close
 * pointer, VLAN insertion, the second queue, and the timing. */
static void test_tx(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	uint8_t frame[NET_BUILD_MAX];
	size_t n = tcp4_frame(frame, 1, 2, 200);
	sim_time_t t0;

	(void)state;
	rx_setup(f, 1, 1, 4, BUFSZ);
	txq_enable(f, 2);
	wr(f, RTL_IntrMask_8125, 4, RTL_INT_TOK);
	tx_ring(f, 0, 4);
	tx_ring(f, 1, 4);
	tx_put(&f->tx[0], 0, frame, 100, RTL_TX_FS, 0);
	tx_put(&f->tx[0], 1, frame + 100, (uint32_t)n - 100, RTL_TX_LS, 0);
	t0 = sim_now(&f->sim);
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 1);
	assert_int_equal(f->wire_len[0], n);
	assert_memory_equal(f->wire[0], frame, n);
	assert_int_equal(f->wire_t[0], t0 + 200 + 2 * 800);
	assert_false(le32(f->tx[0].desc) & RTL_DESC_OWN);
	assert_false(le32(f->tx[0].desc + 16) & RTL_DESC_OWN);
	assert_int_equal(rd(f, RTL_HW_CLO_PTR0_8125BP, 4), 2);
	assert_int_equal(rd(f, RTL_IntrStatus_8125, 4) & RTL_INT_TOK, RTL_INT_TOK);
	assert_int_equal(f->nlog, 1);
	/* VLAN insertion on queue 1, two frames back to back at 10G */
	tx_put(&f->tx[1], 0, frame, (uint32_t)n, RTL_TX_FS | RTL_TX_LS,
	       RTL_TX_VLAN_TAG | 0x2301);
	tx_put(&f->tx[1], 1, frame, (uint32_t)n, RTL_TX_FS | RTL_TX_LS, 0);
	t0 = sim_now(&f->sim);
	wr(f, RTL_TxPoll_8125, 2, 2);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 3);
	assert_int_equal(f->wire_len[1], n + 4);
	assert_memory_equal(f->wire[1] + 12, "\x81\x00\x01\x23", 4);
	assert_memory_equal(f->wire[1] + 16, frame + 12, n - 12);
	/* (len + 4 + FCS + 20) bytes at 10 Gbit/s */
	assert_int_equal(f->wire_t[2] - f->wire_t[1],
			 ((n + 4 + 24) * 8 * 1000 + 9999) / 10000);
	assert_int_equal(f->wire_t[1], t0 + 200 + 1600);
	assert_int_equal(rtlm_stats(f->dev)->tx_ok[1], 2);
	/* a doorbell with nothing owned: nothing sent; TE off: guest error */
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 3);
	wr(f, RTL_ChipCmd, 1, RTL_CMD_RE);
	wr(f, RTL_TxPoll_8125, 2, 1);
	assert_true(strstr(rtlm_last_error(f->dev), "TE clear") != NULL);
	fx_free(f);
}

/* A TCP or UDP frame from @b with payload bytes seed + i. */
static size_t build(struct net_build *b, uint8_t *buf)
{
	ssize_t n = net_build_frame(b, buf, NET_BUILD_MAX);

	assert_true(n > 0);
	return (size_t)n;
}

/* Checksum offload and giant send as mainline r8169 asks for them (K
 * rtl8169_tso_csum_v2): each frame on the wire must equal what
 * net_build, an independent writer of the same headers, makes of it. */
static void test_tx_offload(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	static uint8_t frame[NET_BUILD_MAX], want[NET_BUILD_MAX],
		payload[3000];
	struct net_build b;
	size_t n, w;

	(void)state;
	rx_setup(f, 1, 1, 4, BUFSZ);
	txq_enable(f, 1);
	wr(f, RTL_IntrMask_8125, 4, RTL_INT_TOK | RTL_INT_TER);
	tx_ring(f, 0, 8);
	for (unsigned i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 3);

	/* giant send: 3000 bytes at MSS 1448 in three segments; the driver
	 * left both checksums 0 */
	net_build_init(&b);
	b.ipv = 4;
	tu_ip4(b.src, "10.0.0.1");
	tu_ip4(b.dst, "10.0.0.2");
	b.proto = 6;
	b.sport = 40000;
	b.dport = 5201;
	b.seq = 0xfffff000u;            /* wraps in the third segment */
	b.ip_id = 0xfffe;               /* so does the IPv4 ID */
	b.df = true;
	b.tcp_flags = 0x19;             /* FIN PSH ACK */
	b.payload = payload;
	b.payload_len = sizeof(payload);
	n = build(&b, frame);
	memset(frame + 14 + 10, 0, 2);
	memset(frame + 34 + 16, 0, 2);
	tx_put(&f->tx[0], 0, frame, 2000, RTL_TX_FS | RTL_TX_GTSENV4 |
	       34u << RTL_TX_GTTCPHO_SHIFT, 1448u << RTL_TX_MSS_SHIFT);
	tx_put(&f->tx[0], 1, frame + 2000, (uint32_t)(n - 2000), RTL_TX_LS, 0);
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 3);
	for (unsigned i = 0; i < 3; i++) {
		b.seq = 0xfffff000u + i * 1448u;
		b.ip_id = (uint16_t)(0xfffe + i);
		b.tcp_flags = i < 2 ? 0x10 : 0x19;
		b.payload = payload + i * 1448;
		b.payload_len = i < 2 ? 1448 : 3000 - 2 * 1448;
		w = build(&b, want);
		assert_int_equal(f->wire_len[i], w);
		assert_memory_equal(f->wire[i], want, w);
	}
	assert_int_equal(rtlm_stats(f->dev)->tx_ok[0], 3);
	assert_int_equal(rd(f, RTL_HW_CLO_PTR0_8125BP, 4), 2);

	/* checksum only, IPv4 TCP: IP and TCP checksums filled in */
	f->nwire = 0;
	b.payload_len = 200;
	b.payload = payload;
	n = build(&b, want);
	memcpy(frame, want, n);
	memset(frame + 14 + 10, 0, 2);
	memset(frame + 34 + 16, 0xab, 2);
	tx_put(&f->tx[0], 2, frame, (uint32_t)n, RTL_TX_FS | RTL_TX_LS,
	       RTL_TX_IPV4_CS | RTL_TX_TCP_CS | 34u << RTL_TX_TCPHO_SHIFT);
	/* ... and IPv6 UDP */
	net_build_init(&b);
	b.ipv = 6;
	b.src[15] = 1;
	b.dst[15] = 2;
	b.proto = 17;
	b.sport = 1234;
	b.dport = 5201;
	b.payload = payload;
	b.payload_len = 333;
	w = build(&b, frame + 4096);
	memcpy(want + 4096, frame + 4096, w);
	memset(frame + 4096 + 54 + 6, 0, 2);
	tx_put(&f->tx[0], 3, frame + 4096, (uint32_t)w, RTL_TX_FS | RTL_TX_LS,
	       RTL_TX_IPV6_CS | RTL_TX_UDP_CS | 54u << RTL_TX_TCPHO_SHIFT);
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 2);
	assert_int_equal(f->wire_len[0], n);
	assert_memory_equal(f->wire[0], want, n);
	assert_int_equal(f->wire_len[1], w);
	assert_memory_equal(f->wire[1], want + 4096, w);

	/* a giant send whose TCP header offset is not past the IP header:
	 * a guest error and TxErr, nothing on the wire */
	f->nwire = 0;
	tx_put(&f->tx[0], 4, want, (uint32_t)n, RTL_TX_FS | RTL_TX_LS |
	       RTL_TX_GTSENV4 | 10u << RTL_TX_GTTCPHO_SHIFT,
	       1448u << RTL_TX_MSS_SHIFT);
	wr(f, RTL_TxPoll_8125, 2, 1);
	sim_run(&f->sim);
	assert_int_equal(f->nwire, 0);
	assert_true(strstr(rtlm_last_error(f->dev), "giant send") != NULL);
	assert_int_equal(rtlm_stats(f->dev)->tx_err[0], 1);
	assert_true(rd(f, RTL_IntrStatus_8125, 4) & RTL_INT_TER);
	fx_free(f);
}

/* Random traffic, small rings, refills, resets and faults: every offered
 * frame is delivered or counted in exactly one drop counter. */
static void test_conservation(void **state)
{
	struct fx *f = fx_new("RTL8127A");
	const struct rtlm_stats *st = rtlm_stats(f->dev);
	uint8_t frame[NET_BUILD_MAX], indir[128];
	uint64_t seed = 42, ok, seen[4] = { 0 };

	(void)state;
	rx_setup(f, 4, 4, 8, BUFSZ);
	for (unsigned i = 0; i < 128; i++)
		indir[i] = (uint8_t)(i % 4);
	rss_program(f, rss_key_microsoft, indir, RSS_HT_RTL8127_DEFAULT, 4);
	irq_v2(f);
	for (unsigned i = 0; i < 5000; i++) {
		uint64_t r = tu_rand(&seed);
		size_t n = tcp4_frame(frame, (uint16_t)r, (uint16_t)(r >> 16),
				      (uint16_t)(r >> 32) % 1400);

		rtlm_eth_rx(f->dev, frame, n);
		if (r % 97 == 0)
			rtlm_faults(f->dev)->rx_ring_full ^= 1u << (r >> 8) % 4;
		if (r % 1013 == 0) {	/* a driver reset: reprogram */
			wr(f, RTL_ChipCmd, 1, RTL_CMD_RST);
			rx_setup(f, 4, 4, 8, BUFSZ);
			rss_program(f, rss_key_microsoft, indir,
				    RSS_HT_RTL8127_DEFAULT, 4);
			irq_v2(f);
		}
		run_for(f, r % 3 ? 100 : 2000);
		/* the driver cleans some rings */
		for (unsigned q = 0; q < 4; q++) {
			struct ring *rg = &f->rx[q];

			if ((r >> (40 + q)) & 1)
				continue;
			while (!(rx_o1(rg, rg->ntc) & RTL_DESC_OWN)) {
				rx_arm(rg, rg->ntc);
				rg->ntc = (rg->ntc + 1) % rg->n;
				seen[q]++;
			}
		}
		ok = st->rx_ok[0] + st->rx_ok[1] + st->rx_ok[2] + st->rx_ok[3];
		assert_int_equal(st->rx_offered,
				 ok + rtlm_rx_dropped(f->dev) + st->rx_inflight);
	}
	sim_run(&f->sim);
	ok = st->rx_ok[0] + st->rx_ok[1] + st->rx_ok[2] + st->rx_ok[3];
	assert_int_equal(st->rx_inflight, 0);
	assert_int_equal(st->rx_offered, 5000);
	assert_int_equal(ok + rtlm_rx_dropped(f->dev), 5000);
	assert_true(st->rx_missed[0] + st->rx_missed[1] > 0);
	assert_true(ok > 1000);
	fx_free(f);
}

/* The FCS: the check value of "123456789" (0xCBF43926, the standard
 * CRC-32's published check), the all-ones frame tail property (the CRC of a
 * frame followed by its own FCS is the residue 0x2144DF1C), and the
 * folded path equal to zlib's on every length 0..2048 at every alignment
 * 0..15 of random bytes. */
static void test_fcs(void **state)
{
	static uint8_t buf[2048 + 16 + 4];
	uint32_t x = 0x12345678u;

	(void)state;
	assert_int_equal(model_fcs32((const uint8_t *)"123456789", 9), 0xCBF43926u);
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	for (size_t len = 0; len <= 2048; len++)
		for (size_t off = 0; off < 16; off++)
			assert_int_equal(model_fcs32(buf + off, len),
					 model_fcs32_ref(buf + off, len));
	{
		uint32_t fcs = model_fcs32(buf, 1514);

		for (unsigned i = 0; i < 4; i++)
			buf[1514 + i] = (uint8_t)(fcs >> (8 * i));
		assert_int_equal(model_fcs32(buf, 1518), 0x2144DF1Cu);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_values),
		cmocka_unit_test(test_pci_config),
		cmocka_unit_test(test_phy_regs),
		cmocka_unit_test(test_phy_identity),
		cmocka_unit_test(test_phy_autoneg),
		cmocka_unit_test(test_ephyar),
		cmocka_unit_test(test_csi),
		cmocka_unit_test(test_unknown_report),
		cmocka_unit_test(test_access_semantics),
		cmocka_unit_test(test_whatif_regs),
		cmocka_unit_test(test_chip_reset),
		cmocka_unit_test(test_rx_type1),
		cmocka_unit_test(test_rx_csum_trusted),
		cmocka_unit_test(test_rx_built_at_dma),
		cmocka_unit_test(test_rx_type3),
		cmocka_unit_test(test_rx_type4),
		cmocka_unit_test(test_rx_hash_types),
		cmocka_unit_test(test_rx_wrap_and_full),
		cmocka_unit_test(test_rx_mac_drops),
		cmocka_unit_test(test_rss_steering_pcaps),
		cmocka_unit_test(test_irq_maps),
		cmocka_unit_test(test_irq_mask_unmask),
		cmocka_unit_test(test_moderation),
		cmocka_unit_test(test_moderation_frames),
		cmocka_unit_test(test_ownbit_erratum),
		cmocka_unit_test(test_tx),
		cmocka_unit_test(test_tx_offload),
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_fcs),
	};

	if (argc > 1)
		pcaps_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
