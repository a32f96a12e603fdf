/* SPDX-License-Identifier: MIT */
/*
 * test_usb_model.c - the RTL8157/RTL8159 adapter model (src/model/rtlu_*)
 * on the xHCI model (src/plat/plat_usb), driven only through the platform's
 * USB API, simulated memory and, end to end, the kernel USB API
 * (kern/usb.h).  Times are exact: default costs, default link (10 Gbit/s
 * Gen 2: 825 ps per byte, 24 bytes per 1024-byte packet, 500 ns per
 * transfer), rx_proc_ns 300.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include <linux/usb.h>

#include "bed/bed_host.h"
#include "hw/rtl_chips.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_usb_regs.h"
#include "kern/kern.h"
#include "model/rtlu.h"
#include "plat/plat_usb.h"

#define EP_IN (RTLU_EP_BULK_IN | PLAT_USB_DIR_IN)
#define EP_OUT RTLU_EP_BULK_OUT
#define EP_INTR (RTLU_EP_INTR_IN | PLAT_USB_DIR_IN)
#define MAXTD 32

static uint64_t rs(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* ----- raw fixture: plat_usb + model, a test-owned interrupt ----- */

struct td_buf {
	void *cpu;
	uint64_t dma;
	uint32_t len;
	bool busy;
};

struct xfer_rec {
	sim_time_t done_ns;
	uint32_t actual;
	int status;
	unsigned frames;
};

struct fx {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct plat_usb_hc *hc;
	struct rtlu_dev *dev;
	struct plat_usb_dev *usb;
	struct sim_irq irq;
	bool resubmit;
	bool use_irq;
	struct td_buf td[MAXTD];
	unsigned ntd;
	struct xfer_rec rec[4096];
	unsigned nrec;
	sim_time_t irq_at[256];
	unsigned nirq;
	uint64_t parsed_frames;
	uint64_t parsed_hash;
	/* TX wire */
	sim_time_t tx_at[64];
	uint32_t tx_len[64];
	unsigned ntx;
};

/* The r8152 parse of one bulk-in transfer: count frames, check each
 * descriptor's length, CRC and bounds, hash the frame bytes. */
static unsigned parse(struct fx *f, const uint8_t *b, uint32_t actual,
		      bool check_fcs)
{
	uint32_t off = 0;
	unsigned n = 0;

	while (off + 16 <= actual) {
		uint32_t o1 = (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 |
			      (uint32_t)b[off + 2] << 16 |
			      (uint32_t)b[off + 3] << 24;
		uint32_t len = (o1 & RTL_USB_RX2_LEN_MASK) >> RTL_USB_RX2_LEN_SHIFT;

		if (len < RTLU_ETH_ZLEN || off + 16 + len > actual)
			break;
		if (check_fcs) {
			uint32_t crc = (uint32_t)crc32(0L, b + off + 16, len - 4);
			uint32_t got = (uint32_t)b[off + 16 + len - 4] |
				       (uint32_t)b[off + 16 + len - 3] << 8 |
				       (uint32_t)b[off + 16 + len - 2] << 16 |
				       (uint32_t)b[off + 16 + len - 1] << 24;

			assert_int_equal(crc, got);
		}
		for (uint32_t i = 0; i < len - 4; i++)
			f->parsed_hash = (f->parsed_hash ^ b[off + 16 + i]) *
					 0x100000001b3ull;
		n++;
		off = (off + 16 + len + 15) & ~15u;
	}
	return n;
}

static void submit_td(struct fx *f, struct td_buf *t)
{
	assert_false(t->busy);
	assert_int_equal(plat_usb_submit(f->usb, EP_IN, t->dma, t->len, t), 0);
	t->busy = true;
}

static void take_events(struct fx *f)
{
	struct plat_usb_event ev;

	while (plat_usb_event_next(f->hc, &ev)) {
		struct td_buf *t = ev.ctx;
		struct xfer_rec *r = &f->rec[f->nrec < 4096 ? f->nrec : 4095];

		if (ev.ep_addr != EP_IN)
			continue;
		t->busy = false;
		r->done_ns = ev.done_ns;
		r->actual = ev.actual;
		r->status = ev.status;
		r->frames = parse(f, t->cpu, ev.actual, true);
		f->parsed_frames += r->frames;
		if (f->nrec < 4096)
			f->nrec++;
		if (f->resubmit)
			submit_td(f, t);
	}
}

static void irq_fn(struct sim_irq *irq, void *arg)
{
	struct fx *f = arg;

	(void)irq;
	if (f->nirq < 256)
		f->irq_at[f->nirq++] = sim_now(&f->sim);
	take_events(f);
	plat_usb_irq_ack(f->hc);
}

static void wire_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct fx *f = arg;

	(void)frame;
	if (f->ntx < 64) {
		f->tx_at[f->ntx] = sim_now(&f->sim);
		f->tx_len[f->ntx++] = (uint32_t)len;
	}
}

static int ctrl(struct fx *f, uint8_t type, uint16_t addr, uint16_t index,
		void *data, uint16_t len)
{
	struct plat_usb_setup s = {
		.bRequestType = type, .bRequest = RTLU_REQ_GET_REGS,
		.wValue = addr, .wIndex = index, .wLength = len,
	};

	return plat_usb_control(f->usb, &s, data);
}

/* r8152-style word/byte/dword writes: byte enables shifted by offset */
static void wr(struct fx *f, uint16_t mcu, uint16_t addr, unsigned size,
	       uint32_t v)
{
	uint8_t d[4];
	unsigned sh = addr & 3u;
	uint8_t be = size == 4 ? RTLU_BYTE_EN_DWORD :
		     size == 2 ? (uint8_t)(RTLU_BYTE_EN_WORD << sh) :
				 (uint8_t)(RTLU_BYTE_EN_BYTE << sh);
	uint32_t x = v << (8 * sh);

	for (int i = 0; i < 4; i++)
		d[i] = (uint8_t)(x >> (8 * i));
	assert_int_equal(ctrl(f, RTLU_REQT_WRITE, addr & ~3u, mcu | be, d, 4), 4);
}

static uint32_t rd(struct fx *f, uint16_t mcu, uint16_t addr, unsigned size)
{
	uint8_t d[4];
	uint32_t v = 0;

	assert_int_equal(ctrl(f, RTLU_REQT_READ, addr & ~3u, mcu, d, 4), 4);
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)d[i] << (8 * i);
	v >>= 8 * (addr & 3u);
	return size == 4 ? v : v & ((1u << (8 * size)) - 1);
}

static struct fx *fx_new(unsigned chip, const struct rtlu_params *p,
			 unsigned ntd, uint32_t tdlen)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct sim_host_params hp;

	assert_non_null(f);
	sim_init(&f->sim);
	sim_cost_load_default(&f->cost);
	sim_host_params_default(&hp, 2);
	f->host = sim_host_create(&f->sim, &f->cost, &hp);
	assert_non_null(f->host);
	plat_mem_init(&f->mem);
	f->hc = plat_usb_hc_create(f->host, &f->mem, NULL);
	assert_non_null(f->hc);
	f->dev = rtlu_create(f->host, &f->mem, f->hc, &rtl_usb_chips[chip], p);
	assert_non_null(f->dev);
	f->usb = rtlu_usb(f->dev);
	rtlu_set_wire_tx(f->dev, wire_tx, f);
	sim_irq_init(f->host, &f->irq, "xhci-test", irq_fn, f, 0);
	plat_usb_hc_bind_irq(f->hc, &f->irq);
	f->ntd = ntd;
	for (unsigned i = 0; i < ntd; i++) {
		f->td[i].len = tdlen;
		assert_int_equal(plat_mem_alloc(&f->mem, tdlen, &f->td[i].cpu,
					       &f->td[i].dma), 0);
	}
	/* the r8152 bring-up the model cares about */
	wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, 4, RTLU_RCR_ACPT_ALL);
	wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR, 1, RTLU_CR_RE | RTLU_CR_TE);
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_USB_CTRL, 2, 0);
	return f;
}

static void fx_free(struct fx *f)
{
	rtlu_destroy(f->dev);
	plat_usb_hc_destroy(f->hc);
	sim_irq_fini(&f->irq);
	sim_host_destroy(f->host);
	plat_mem_fini(&f->mem);
	sim_fini(&f->sim);
	free(f);
}

static void frame_at(struct fx *f, sim_time_t t, uint32_t len, uint64_t seed)
{
	uint8_t b[16384];
	uint64_t s = seed | 1;

	sim_run_until(&f->sim, t);
	for (uint32_t i = 0; i < len; i++)
		b[i] = (uint8_t)(rs(&s) >> 56);
	memcpy(b, "\x00\xe0\x4c\x68\x00\x01", 6);
	assert_int_equal(rtlu_eth_rx(f->dev, b, len), 0);
}

/* ----- control transfers ----- */

static void test_ctrl_registers(void **state)
{
	struct fx *f = fx_new(0, NULL, 0, 0);
	uint8_t d[8];

	(void)state;
	/* version word, masked as r8152 does */
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TCR1, 2) &
			 RTLU_TCR1_VERSION_MASK, 0x1030);
	/* MAC: a 8-byte read at PLA_IDR */
	assert_int_equal(ctrl(f, RTLU_REQT_READ, RTLU_PLA_IDR,
			      RTLU_MCU_TYPE_PLA, d, 8), 8);
	assert_memory_equal(d, "\x00\xe0\x4c\x68\x00\x01", 6);
	/* link: up, full duplex, 5 Gbit/s on the RTL8157 */
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_PHYSTATUS, 2),
			 RTLU_PHY_LINK_STATUS | RTLU_PHY_FULL_DUP |
			 RTLU_PHY_5000BPS);
	/* timers at their power-on values */
	assert_int_equal(rd(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EXTRA_AGGR_TMR, 2),
			 15000 / 8);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_TIMEOUT, 2),
			 640 / 8);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_SIZE, 2),
			 (32768 - 1554) / 16);
	/* a word write to the upper half (byte enables 0xcc) leaves the
	 * lower half alone */
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_SIZE, 2, 0x1234);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_TIMEOUT, 2),
			 80);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_SIZE, 2),
			 0x1234);
	/* explicit enables: only byte 1 of the dword */
	memset(d, 0xab, 4);
	assert_int_equal(ctrl(f, RTLU_REQT_WRITE, 0xd400, RTLU_MCU_TYPE_USB |
			      (RTLU_BYTE_EN_BYTE << 1), d, 4), 4);
	assert_int_equal(rtlu_reg_peek(f->dev, RTLU_MCU_TYPE_USB, 0xd400, 4),
			 0x0000ab00);
	/* an 8-byte write: first dword bytes 2-3, second dword bytes 0-1 */
	memset(d, 0x5a, 8);
	assert_int_equal(ctrl(f, RTLU_REQT_WRITE, 0xd410, RTLU_MCU_TYPE_USB |
			      0x3c, d, 8), 8);
	assert_int_equal(rtlu_reg_peek(f->dev, RTLU_MCU_TYPE_USB, 0xd410, 4),
			 0x5a5a0000);
	assert_int_equal(rtlu_reg_peek(f->dev, RTLU_MCU_TYPE_USB, 0xd414, 4),
			 0x00005a5a);
	/* the version bits of TCR1 are read-only */
	wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TCR1, 2, 0xffff);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TCR1, 2) &
			 RTLU_TCR1_VERSION_MASK, 0x1030);
	/* mitigation: on at power-on, off when a bit is cleared */
	assert_true(rtlu_stats(f->dev)->mitigation);
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1, 0x80);
	assert_false(rtlu_stats(f->dev)->mitigation);
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1, 0x87);
	assert_true(rtlu_stats(f->dev)->mitigation);
	/* bad requests stall and count */
	uint64_t ge = rtlu_stats(f->dev)->guest_errors;
	struct plat_usb_setup s = { .bRequestType = 0xc0, .bRequest = 0x06,
				   .wValue = 0, .wIndex = 0x100, .wLength = 4 };

	assert_int_equal(plat_usb_control(f->usb, &s, d), -EPIPE);
	assert_int_equal(ctrl(f, RTLU_REQT_READ, 0xfffc, 0x100, d, 8), -EPIPE);
	assert_int_equal(ctrl(f, RTLU_REQT_READ, 0, 0x200, d, 4), -EPIPE);
	assert_int_equal(ctrl(f, RTLU_REQT_WRITE, 0xd402, 0xff, d, 4), -EPIPE);
	assert_int_equal(ctrl(f, RTLU_REQT_WRITE, 0xd400, 0x00, d, 4), -EPIPE);
	assert_int_equal(rtlu_stats(f->dev)->guest_errors, ge + 5);
	assert_int_equal(rtlu_stats(f->dev)->ctrl_stalls, 5);
	/* the 8159 row */
	fx_free(f);
	f = fx_new(1, NULL, 0, 0);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TCR1, 2) &
			 RTLU_TCR1_VERSION_MASK, 0x2020);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_PHYSTATUS, 2),
			 RTLU_PHY_LINK_STATUS | RTLU_PHY_FULL_DUP |
			 RTLU_PHY_10000BPS);
	fx_free(f);
}

/* ----- the tally: PLA_TALLYCNT, PLA_RSTTALLY ----- */

/* A @len-byte frame to @dmac at the current time; rtlu_eth_rx()'s result. */
static int frame_to(struct fx *f, const uint8_t *dmac, uint32_t len)
{
	uint8_t b[2048] = { 0 };

	memcpy(b, dmac, 6);
	memcpy(b + 6, "\x02\x00\x00\x00\x00\x07", 6);
	b[12] = 0x08;
	return rtlu_eth_rx(f->dev, b, len);
}

static struct rtl_tally tally_read(struct fx *f)
{
	uint8_t d[64];
	struct rtl_tally t;

	/* one 64-byte request, as r8152's generic_ocp_read makes it */
	assert_int_equal(ctrl(f, RTLU_REQT_READ, RTLU_PLA_TALLYCNT, RTLU_MCU_TYPE_PLA,
			      d, sizeof(d)), 64);
	memcpy(&t, d, sizeof(t));       /* little-endian host */
	return t;
}

/*
 * 7 unicast, 2 broadcast and 3 multicast frames handed to the host; then
 * 100 full-size frames at once into the 64 KiB RX FIFO: 42 fit (1536
 * bytes each with descriptor, FCS and alignment), 58 are missed.  Bulk-out
 * frames count as tx_packets when they go on the wire.  The block is
 * read-only; PLA_RSTTALLY bit 0 zeroes it and reads back 0.
 */
static void test_tally(void **state)
{
	static const uint8_t me[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x01 };
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mc[6] = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 };
	struct fx *f = fx_new(0, NULL, 4, 32768);
	unsigned missed = 0;
	uint64_t ge;
	struct rtl_tally t;

	(void)state;
	f->resubmit = true;
	for (unsigned i = 0; i < 4; i++)
		submit_td(f, &f->td[i]);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(frame_to(f, me, 200), 0);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(frame_to(f, bc, 200), 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(frame_to(f, mc, 200), 0);
	sim_run_until(&f->sim, SIM_MS(1));
	for (unsigned i = 0; i < 100; i++)
		missed += frame_to(f, me, 1514) == -ENOBUFS;
	assert_int_equal(missed, 58);
	sim_run_until(&f->sim, SIM_MS(10));
	assert_int_equal(f->parsed_frames, 12 + 42);
	t = tally_read(f);
	assert_int_equal(t.rx_packets, 54);
	assert_int_equal(t.rx_unicast, 49);
	assert_int_equal(t.rx_broadcast, 2);
	assert_int_equal(t.rx_multicast, 3);
	assert_int_equal(t.rx_missed, 58);
	assert_int_equal(t.tx_packets, 0);
	assert_int_equal(t.tx_errors + t.rx_errors + t.align_errors + t.tx_one_collision +
			 t.tx_multi_collision + t.tx_aborted + t.tx_underrun, 0);
	/* a dword of it: rx_packets' low half */
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TALLYCNT + 8, 4), 54);
	ge = rtlu_stats(f->dev)->guest_errors;
	wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_TALLYCNT + 8, 4, 0);
	assert_int_equal(rtlu_stats(f->dev)->guest_errors, ge + 4);
	assert_int_equal(tally_read(f).rx_packets, 54);
	wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RSTTALLY, 2, RTLU_TALLY_RESET);
	assert_int_equal(rd(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RSTTALLY, 2), 0);
	t = tally_read(f);
	assert_int_equal(t.rx_packets + t.rx_unicast + t.rx_missed, 0);
	fx_free(f);
}

/* ----- the three ends of a bulk-in transfer, exact ----- */

/*
 * Frames of 1000 bytes at t = 0, 1000, 2000...: each in the FIFO 300 ns
 * later; 1020 bytes in the transfer (desc 16 + frame + FCS), 1024 aligned.
 * Link: first frame 1044 wire bytes (one packet) = 861.3 ns, the next
 * ones 1024 + 24 = 1048 bytes = 864.6 ns.
 */
static void test_end_timer(void **state)
{
	struct fx *f = fx_new(0, NULL, 2, 32768);

	(void)state;
	submit_td(f, &f->td[0]);
	frame_at(f, 0, 1000, 1);
	frame_at(f, 1000, 1000, 2);
	frame_at(f, 2000, 1000, 3);
	sim_run_until(&f->sim, 100000);
	assert_int_equal(f->nrec, 1);
	/* timer 15000 ns after the first frame (in at 300) = 15300, link idle
	 * since 3164.6, + 500 ns per transfer */
	assert_int_equal(f->rec[0].done_ns, 15800);
	assert_int_equal(f->rec[0].actual, 2048 + 1020);
	assert_int_equal(f->rec[0].frames, 3);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_TIMER], 1);
	assert_int_equal(rtlu_stats(f->dev)->rx_delivered, 3);
	assert_int_equal(f->nirq, 1);
	fx_free(f);
}

static void test_end_size(void **state)
{
	struct fx *f = fx_new(0, NULL, 2, 32768);

	(void)state;
	/* early size 4096 bytes: the 5th frame ends at 5116 >= 4096 */
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_SIZE, 2, 4096 / 16);
	submit_td(f, &f->td[0]);
	for (unsigned i = 0; i < 6; i++)
		frame_at(f, 1000 * i, 1000, i + 1);
	sim_run_until(&f->sim, 100000);
	assert_true(f->nrec >= 1);
	/* 5th in at 4300, across at 4300 + 864.6 = 5164.6 -> 5165, + 500 */
	assert_int_equal(f->rec[0].done_ns, 5665);
	assert_int_equal(f->rec[0].actual, 4096 + 1020);
	assert_int_equal(f->rec[0].frames, 5);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_SIZE], 1);
	/* the 6th waits in the FIFO: no TD */
	assert_int_equal(rtlu_stats(f->dev)->rx_inflight, 1);
	fx_free(f);
}

static void test_end_full_exact(void **state)
{
	/* a 4092-byte buffer: the 4th frame ends exactly at its end */
	struct fx *f = fx_new(0, NULL, 2, 4092);

	(void)state;
	submit_td(f, &f->td[0]);
	submit_td(f, &f->td[1]);
	for (unsigned i = 0; i < 5; i++)
		frame_at(f, 1000 * i, 1000, i + 1);
	sim_run_until(&f->sim, 100000);
	assert_int_equal(f->nrec, 2);
	/* the 5th frame (in at 4300) does not fit: the transfer ends then */
	assert_int_equal(f->rec[0].done_ns, 4800);
	assert_int_equal(f->rec[0].actual, 4092);
	assert_int_equal(f->rec[0].frames, 4);
	/* the 5th starts the next transfer; its timer ends it */
	assert_int_equal(f->rec[1].frames, 1);
	assert_int_equal(f->rec[1].done_ns, 4300 + 15000 + 500);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_FULL], 1);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_TIMER], 1);
	fx_free(f);
}

/* RX_AGG_DISABLE (power-on) sends one frame per transfer; a frame no TD
 * could hold is dropped, counted. */
static void test_agg_disable_and_small_buffer(void **state)
{
	struct fx *f = fx_new(0, NULL, 2, 512);

	(void)state;
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_USB_CTRL, 2,
	   RTLU_USB_CTRL_RX_AGG_DISABLE);
	f->resubmit = true;
	submit_td(f, &f->td[0]);
	submit_td(f, &f->td[1]);
	frame_at(f, 0, 100, 1);
	frame_at(f, 100, 100, 2);
	frame_at(f, 200, 1000, 3);      /* 1020 > 512 */
	sim_run_until(&f->sim, 100000);
	assert_int_equal(f->parsed_frames, 2);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_SINGLE], 2);
	assert_int_equal(rtlu_stats(f->dev)->rx_too_long, 1);
	fx_free(f);
}

/* ----- IMOD ----- */

static void run_stream(struct fx *f, unsigned n, sim_time_t gap,
		       uint32_t len)
{
	for (unsigned i = 0; i < n; i++)
		frame_at(f, gap * i, len, i + 7);
	sim_run_until(&f->sim, gap * n + 1000000);
}

static void test_imod_spacing(void **state)
{
	struct fx *f = fx_new(1, NULL, 32, 49152);

	(void)state;
	f->resubmit = true;
	for (unsigned i = 0; i < 32; i++)
		submit_td(f, &f->td[i]);
	/* mitigation off: a transfer every 2 us, interrupts every 40 us */
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1, 0);
	run_stream(f, 100, 2000, 200);
	assert_int_equal(f->nrec, 100);
	assert_int_equal(rtlu_stats(f->dev)->rx_end[RTLU_END_EARLY], 100);
	/* first event: in at 300, 232 bytes across by 300 + 211.2, early
	 * timeout 640 after 300 -> 940, + 500 */
	assert_int_equal(f->rec[0].done_ns, 1440);
	assert_true(f->nirq >= 2);
	for (unsigned i = 1; i < f->nirq; i++)
		assert_int_equal(f->irq_at[i] - f->irq_at[i - 1], 40000);
	/* 100 events at 1440 + 2000 k: interrupts at 1440 + 40000 k */
	assert_int_equal(f->nirq, 6);
	assert_int_equal(f->hc->stats.irqs, 6);
	fx_free(f);
}

/* The controller's own clock, 250 ppm fast: the IMOD interval is 40 us of
 * its time, 39990002 ps of the host's (40e6 / 1.00025, to the ps).  The
 * assertions fall at the exact expiries, so the interrupts, whole ns,
 * come 39990 or 39991 ns apart and never lose the fraction: five
 * intervals take 199951 ns (199950.01 exact), against 200000 on the
 * host's clock.  The first transfer completes at 1440 as without drift
 * (the adapter's clock is the host's here); each handler records its
 * time after the 300 ns hardirq entry. */
static void test_imod_drift(void **state)
{
	struct fx *f = fx_new(1, NULL, 32, 49152);
	static const sim_time_t want[6] = {
		1740, 41731, 81721, 121711, 161701, 201691,
	};

	(void)state;
	f->hc->params.clock.ppb = 250000;
	f->resubmit = true;
	for (unsigned i = 0; i < 32; i++)
		submit_td(f, &f->td[i]);
	wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1, 0);
	run_stream(f, 100, 2000, 200);
	assert_int_equal(f->nrec, 100);
	assert_int_equal(f->nirq, 6);
	assert_int_equal(f->rec[0].done_ns, 1440);
	for (unsigned i = 0; i < f->nirq; i++)
		assert_int_equal(f->irq_at[i], want[i]);
	fx_free(f);
}

/* ----- mitigation on vs off ----- */

static unsigned transfers_for(bool mitigation)
{
	struct fx *f = fx_new(1, NULL, 32, 49152);
	unsigned n;

	f->resubmit = true;
	for (unsigned i = 0; i < 32; i++)
		submit_td(f, &f->td[i]);
	if (!mitigation)
		wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1, 0x07);
	assert_int_equal(rtlu_stats(f->dev)->mitigation, mitigation);
	run_stream(f, 200, 2000, 1000);
	assert_int_equal(f->parsed_frames, 200);
	assert_int_equal(rtlu_stats(f->dev)->rx_delivered, 200);
	n = f->nrec;
	fx_free(f);
	return n;
}

static void test_mitigation_on_off(void **state)
{
	(void)state;
	/* on: 8 frames per 15 us timer window (2 us apart) -> 25 transfers;
	 * off: every frame is its own transfer */
	assert_int_equal(transfers_for(true), 25);
	assert_int_equal(transfers_for(false), 200);
}

/* ----- bulk-out ----- */

static uint32_t put_tx(uint8_t *b, uint32_t off, uint32_t len, uint32_t o1,
		       uint32_t o4)
{
	uint32_t w[4] = { o1, 0, len << RTLU_TX_LEN_SHIFT, o4 };

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			b[off + 4 * i + j] = (uint8_t)(w[i] >> (8 * j));
	memset(b + off + 16, 0x11, len);
	return (off + 16 + len + 15) & ~15u;
}

static void out_td(struct fx *f, void *buf, uint64_t dma, uint32_t len)
{
	(void)buf;
	assert_int_equal(plat_usb_submit(f->usb, EP_OUT, dma, len, f), 0);
}

static void test_bulk_out(void **state)
{
	struct fx *f = fx_new(0, NULL, 0, 0);
	void *cpu;
	uint64_t dma;
	uint8_t *b;
	uint32_t n = 0, first;
	uint32_t fsls = RTLU_TX_FS | RTLU_TX_LS;

	(void)state;
	assert_int_equal(plat_mem_alloc(&f->mem, 16384, &cpu, &dma), 0);
	b = cpu;
	/* three good frames */
	n = put_tx(b, n, 1000, fsls, RTLU_TX_SIG);
	n = put_tx(b, n, 60, fsls, RTLU_TX_SIG);
	n = put_tx(b, n, 1514, fsls, RTLU_TX_SIG);
	n -= (16 - (1514 % 16)) % 16;   /* the buffer ends at the last byte */
	out_td(f, b, dma, n);
	sim_run_until(&f->sim, 100000);
	assert_int_equal(f->ntx, 3);
	/* across the link: plat_usb_link_ps(n) rounded up, + tx_proc 200 */
	first = (uint32_t)((plat_usb_link_ps(f->hc, n) + 999) / 1000) + 200;
	assert_int_equal(f->tx_at[0], first);
	/* 5 Gbit/s: (1000 + 24) bytes = 1638.4 ns; (60 + 24) = 134.4 ns */
	assert_int_equal(f->tx_at[1], (first * 1000ull + 1638400 + 999) / 1000);
	assert_int_equal(f->tx_at[2], (first * 1000ull + 1638400 + 134400 +
				       999) / 1000);
	assert_int_equal(f->tx_len[2], 1514);
	assert_int_equal(rtlu_stats(f->dev)->tx_frames, 3);
	assert_int_equal(rtlu_stats(f->dev)->tx_bad_buf, 0);

	/* malformed buffers: each counted, nothing sent, no crash */
	uint32_t bad[5];

	n = put_tx(b, 0, 100, fsls, 0);                 /* no signature */
	bad[0] = n;
	out_td(f, b, dma, bad[0]);
	sim_run_until(&f->sim, 200000);
	n = put_tx(b, 0, 100, RTLU_TX_FS, RTLU_TX_SIG); /* no LS */
	out_td(f, b, dma, n);
	sim_run_until(&f->sim, 300000);
	n = put_tx(b, 0, 100, fsls, RTLU_TX_SIG);
	n = put_tx(b, n, 200, fsls, RTLU_TX_SIG);
	out_td(f, b, dma, n - 50);                      /* truncated last frame */
	sim_run_until(&f->sim, 400000);
	n = put_tx(b, 0, 100, fsls, RTLU_TX_SIG);
	out_td(f, b, dma, n + 8);                       /* half a descriptor */
	sim_run_until(&f->sim, 500000);
	put_tx(b, 0, 0, fsls, RTLU_TX_SIG);             /* zero length */
	out_td(f, b, dma, 32);
	sim_run_until(&f->sim, 600000);
	assert_int_equal(rtlu_stats(f->dev)->tx_bad_buf, 5);
	assert_int_equal(rtlu_stats(f->dev)->guest_errors, 5);
	assert_int_equal(rtlu_stats(f->dev)->tx_frames, 3);
	assert_int_equal(rtlu_stats(f->dev)->tx_transfers, 6);
	assert_non_null(strstr(rtlu_last_error(f->dev), "bulk-out"));
	fx_free(f);
}

/* ----- accounting and determinism ----- */

struct run_sum {
	uint64_t trace, parsed_hash, parsed_frames, delivered, offered;
	uint64_t dropped, transfers;
};

static struct run_sum random_run(uint64_t seed)
{
	struct fx *f = fx_new(1, NULL, 16, 49152);
	struct run_sum r;
	uint64_t s = seed;
	sim_time_t t = 0;
	uint8_t b[1600];

	f->resubmit = true;
	for (unsigned i = 0; i < 16; i++)
		submit_td(f, &f->td[i]);
	for (unsigned i = 0; i < 5000; i++) {
		uint64_t x = rs(&s);
		uint32_t len = 60 + (uint32_t)(x % 1455);
		const struct rtlu_stats *st;

		t += (x >> 20) % 2500;
		sim_run_until(&f->sim, t);
		for (uint32_t k = 0; k < len; k++)
			b[k] = (uint8_t)(rs(&s) >> 56);
		memcpy(b, (x >> 40) % 16 ? "\x00\xe0\x4c\x68\x00\x01"
					 : "\x02\x00\x00\x00\x00\x09", 6);
		switch ((x >> 44) % 256) {
		case 0:
			wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, 4, RTLU_RCR_APM);
			break;
		case 1:
			wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, 4,
			   RTLU_RCR_ACPT_ALL);
			break;
		case 2:
			rtlu_set_link(f->dev, false, 0);
			break;
		case 6:
		case 7:
		case 8:
			rtlu_set_link(f->dev, true, 0);
			break;
		case 3:
			wr(f, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION, 1,
			   (x >> 51) & 1 ? 0x87 : 0x00);
			break;
		case 4: {
			/* the host takes a TD back */
			for (unsigned k = 0; k < f->ntd; k++) {
				uint32_t a;
				int stt, c;

				if (!f->td[k].busy)
					continue;
				c = plat_usb_cancel(f->usb, EP_IN, &f->td[k], &a,
						   &stt);
				assert_true(c >= 0);
				if (c == 0)
					f->parsed_frames += parse(f, f->td[k].cpu,
								  a, true);
				f->td[k].busy = false;
				submit_td(f, &f->td[k]);
				break;
			}
			break;
		}
		case 5:
			wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR, 1,
			   RTLU_CR_RST);
			wr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR, 1,
			   RTLU_CR_RE | RTLU_CR_TE);
			break;
		default:
			break;
		}
		rtlu_eth_rx(f->dev, b, len);
		st = rtlu_stats(f->dev);
		assert_int_equal(st->rx_offered, st->rx_delivered +
				 st->rx_inflight + rtlu_rx_dropped(f->dev));
	}
	rtlu_set_link(f->dev, true, 0);
	sim_run_until(&f->sim, t + 2000000);
	{
		const struct rtlu_stats *st = rtlu_stats(f->dev);

		assert_int_equal(st->rx_inflight, 0);
		assert_int_equal(st->rx_offered, 5000);
		assert_int_equal(st->rx_offered, st->rx_delivered +
				 rtlu_rx_dropped(f->dev));
		/* every delivered frame was parsed back by the host */
		assert_int_equal(f->parsed_frames, st->rx_delivered);
		assert_true(st->rx_delivered > 2500);
		assert_true(st->rx_filtered > 0);
		assert_true(st->rx_link_down > 0);
		r.trace = f->sim.trace;
		r.parsed_hash = f->parsed_hash;
		r.parsed_frames = f->parsed_frames;
		r.delivered = st->rx_delivered;
		r.offered = st->rx_offered;
		r.dropped = rtlu_rx_dropped(f->dev);
		r.transfers = st->rx_transfers;
	}
	fx_free(f);
	return r;
}

static void test_conservation_determinism(void **state)
{
	struct run_sum a = random_run(0x5eed), b = random_run(0x5eed);
	struct run_sum c = random_run(0xbeef);

	(void)state;
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.parsed_hash != c.parsed_hash);
}

/* ----- end to end through kern/usb.h ----- */

struct kfx {
	struct bed_host h;
	struct plat_usb_hc *hc;
	struct rtlu_dev *dev;
	struct usb_device udev;
	struct usb_interface intf;
	struct urb *rx[4];
	void *rxbuf[4];
	struct urb *intr;
	uint8_t intbuf[2];
	unsigned done, killed, intr_done;
	int last_status;
	uint32_t last_actual;
	uint16_t last_intr;
	sim_time_t done_at[64];
	int ctx_at[64];
	int cpu_at[64];
	uint64_t frames;
	bool resubmit;
};

static void k_rx_complete(struct urb *urb)
{
	struct kfx *f = urb->context;

	if (f->done < 64) {
		f->done_at[f->done] = ktime_get_ns();
		f->ctx_at[f->done] = sim_current_ctx(f->h.host);
		f->cpu_at[f->done] = sim_current_cpu(f->h.host);
	}
	f->done++;
	f->last_status = urb->status;
	f->last_actual = urb->actual_length;
	if (urb->status == -ENOENT)
		f->killed++;
	if (!urb->status && f->resubmit)
		assert_int_equal(usb_submit_urb(urb, 0), 0);
}

static void k_intr_complete(struct urb *urb)
{
	struct kfx *f = urb->context;

	f->intr_done++;
	f->last_intr = (uint16_t)(f->intbuf[0] | f->intbuf[1] << 8);
	if (!urb->status)
		usb_submit_urb(urb, 0);
}

static int kwr(struct kfx *f, uint16_t mcu, uint16_t addr, uint8_t be,
	       uint32_t v)
{
	uint8_t d[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };

	return usb_control_msg(&f->udev, usb_sndctrlpipe(&f->udev, 0),
			       RTLU_REQ_SET_REGS, RTLU_REQT_WRITE, addr,
			       mcu | be, d, 4, 500);
}

static void test_kern_end_to_end(void **state)
{
	struct kfx *f = calloc(1, sizeof(*f));
	struct sim_host_params hp;
	uint8_t d[4];
	uint8_t frame[1000];

	(void)state;
	sim_host_params_default(&hp, 2);
	assert_int_equal(bed_host_up(&f->h, &hp, 1), 0);
	f->hc = plat_usb_hc_create(f->h.host, &f->h.k.mem, NULL);
	f->dev = rtlu_create(f->h.host, &f->h.k.mem, f->hc, &rtl_usb_chips[1], NULL);
	assert_non_null(f->dev);
	kern_usb_dev_init(&f->udev, &f->intf, rtlu_usb(f->dev), "2-1");
	assert_int_equal(f->udev.idProduct, 0x815a);
	assert_int_equal(f->udev.speed, USB_SPEED_SUPER_PLUS);

	/* control: read the version, enable RX */
	assert_int_equal(usb_control_msg(&f->udev, usb_rcvctrlpipe(&f->udev, 0),
					 RTLU_REQ_GET_REGS, RTLU_REQT_READ,
					 RTLU_PLA_TCR1 & ~3u, RTLU_MCU_TYPE_PLA,
					 d, 4, 500), 4);
	assert_int_equal((d[2] | d[3] << 8) & RTLU_TCR1_VERSION_MASK, 0x2020);
	assert_int_equal(kwr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, 0xff,
			     RTLU_RCR_ACPT_ALL), 4);
	assert_int_equal(kwr(f, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR & ~3u,
			     RTLU_BYTE_EN_BYTE << 3,
			     (uint32_t)(RTLU_CR_RE | RTLU_CR_TE) << 24), 4);
	assert_int_equal(kwr(f, RTLU_MCU_TYPE_USB, RTLU_USB_USB_CTRL & ~3u,
			     RTLU_BYTE_EN_WORD << 2, 0), 4);
	/* a stalled request */
	rtlu_faults(f->dev)->ctrl_stall_next = 1;
	assert_int_equal(kwr(f, RTLU_MCU_TYPE_USB, 0xd400, 0xff, 0), -EPIPE);

	/* URBs: submit errors first */
	for (int i = 0; i < 4; i++) {
		f->rx[i] = usb_alloc_urb(0, 0);
		f->rxbuf[i] = calloc(1, 49152);
		usb_fill_bulk_urb(f->rx[i], &f->udev,
				  usb_rcvbulkpipe(&f->udev, 1), f->rxbuf[i],
				  49152, k_rx_complete, f);
	}
	f->rx[0]->transfer_buffer_length = 0;
	assert_int_equal(usb_submit_urb(f->rx[0], 0), -EINVAL);
	f->rx[0]->transfer_buffer_length = 49152;
	f->rx[0]->pipe = usb_rcvbulkpipe(&f->udev, 5);
	assert_int_equal(usb_submit_urb(f->rx[0], 0), -EINVAL);
	f->rx[0]->pipe = usb_rcvbulkpipe(&f->udev, 1);
	f->h.k.fault.urb_fail_nth = 1;
	assert_null(usb_alloc_urb(0, 0));
	f->resubmit = true;
	for (int i = 0; i < 4; i++)
		assert_int_equal(usb_submit_urb(f->rx[i], 0), 0);
	assert_int_equal(usb_submit_urb(f->rx[0], 0), -EBUSY);
	f->intr = usb_alloc_urb(0, 0);
	usb_fill_int_urb(f->intr, &f->udev, usb_rcvintpipe(&f->udev, 3),
			 f->intbuf, 2, k_intr_complete, f, 8);
	assert_int_equal(usb_submit_urb(f->intr, 0), 0);
	sim_run_until(&f->h.sim, 10000);
	assert_int_equal(f->intr_done, 1);
	assert_int_equal(f->last_intr, RTLU_INTR_LINK);

	/* one frame (after the IMOD window of the interrupt-endpoint
	 * event): timer end at 300 + 15000, event at +500, then the
	 * interrupt, xhci_irq, and the giveback in TASKLET softirq */
	memset(frame, 0x42, sizeof(frame));
	sim_run_until(&f->h.sim, 50000);
	assert_int_equal(rtlu_eth_rx(f->dev, frame, sizeof(frame)), 0);
	sim_run_until(&f->h.sim, 100000);
	assert_int_equal(f->done, 1);
	assert_int_equal(f->last_status, 0);
	assert_int_equal(f->ctx_at[0], SIM_CTX_SOFTIRQ);
	assert_int_equal(f->last_actual, 1020);
	{
		uint64_t c = (f->h.cost.ps[SIM_COST_hardirq_entry] +
			      f->h.cost.ps[SIM_COST_xhci_irq] +
			      f->h.cost.ps[SIM_COST_xhci_event] +
			      f->h.cost.ps[SIM_COST_hardirq_exit] +
			      f->h.cost.ps[SIM_COST_softirq_entry] +
			      f->h.cost.ps[SIM_COST_urb_giveback] +
			      /* the driver's complete() is charged on entry */
			      f->h.cost.ps[SIM_COST_urb_complete_in]) / 1000;

		assert_int_equal(f->done_at[0], 50000 + 300 + 15000 + 500 + c);
	}

	/* link down: the interrupt URB reports it */
	assert_int_equal(rtlu_set_link(f->dev, false, 0), 0);
	sim_run_until(&f->h.sim, 200000);
	assert_int_equal(f->intr_done, 2);
	assert_int_equal(f->last_intr, 0);
	assert_int_equal(rtlu_set_link(f->dev, true, 0), 0);
	sim_run_until(&f->h.sim, 300000);

	/* kill an URB the device is filling: -ENOENT, frames counted */
	assert_int_equal(rtlu_eth_rx(f->dev, frame, sizeof(frame)), 0);
	sim_run_until(&f->h.sim, 302000);
	/* the head TD is rx[1] (rx[0] was resubmitted behind the others) */
	usb_kill_urb(f->rx[1]);
	assert_int_equal(f->killed, 1);
	assert_int_equal(f->last_actual, 1020);
	assert_int_equal(rtlu_stats(f->dev)->rx_cancelled, 1);
	usb_kill_urb(f->rx[1]);         /* not submitted: no effect */
	assert_int_equal(f->killed, 1);
	/* unlink: given back later with -ECONNRESET */
	assert_int_equal(usb_unlink_urb(f->rx[2]), 0);
	assert_int_equal(usb_unlink_urb(f->rx[1]), -EIDRM);
	sim_run_until(&f->h.sim, 400000);
	assert_int_equal(f->last_status, -ECONNRESET);

	/* disconnect */
	f->udev.state = USB_STATE_NOTATTACHED;
	assert_int_equal(usb_submit_urb(f->rx[1], 0), -ENODEV);
	assert_int_equal(kwr(f, RTLU_MCU_TYPE_USB, 0xd400, 0xff, 0), -ENODEV);
	f->udev.state = USB_STATE_CONFIGURED;

	for (int i = 0; i < 4; i++) {
		usb_kill_urb(f->rx[i]);
		usb_free_urb(f->rx[i]);
		free(f->rxbuf[i]);
	}
	usb_free_urb(f->intr);          /* submitted: warned, killed, freed */
	assert_int_equal(f->h.k.warn.other, 1);
	assert_int_equal(f->h.k.dma_live, 0);
	rtlu_destroy(f->dev);
	plat_usb_hc_destroy(f->hc);
	bed_host_down(&f->h);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctrl_registers),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_end_timer),
		cmocka_unit_test(test_end_size),
		cmocka_unit_test(test_end_full_exact),
		cmocka_unit_test(test_agg_disable_and_small_buffer),
		cmocka_unit_test(test_imod_spacing),
		cmocka_unit_test(test_imod_drift),
		cmocka_unit_test(test_mitigation_on_off),
		cmocka_unit_test(test_bulk_out),
		cmocka_unit_test(test_conservation_determinism),
		cmocka_unit_test(test_kern_end_to_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
