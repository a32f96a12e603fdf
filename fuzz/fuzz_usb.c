/* SPDX-License-Identifier: MIT */
/*
 * fuzz_usb.c - libFuzzer target for the USB adapter model on the xHCI
 * model: fuzzed bytes become vendor control requests (any type, address,
 * byte enables, length), bulk-out buffers, bulk-in TDs of any size,
 * cancels, frames from the wire, link flaps and time advance.  The model
 * must never crash (ASan/UBSan) and must keep its accounting after every
 * operation: offered = delivered + in flight + dropped.
 *
 * Input: byte 0 picks the chip; then operations of 1 opcode byte plus
 * operands, until the input runs out.
 */
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_usb_regs.h"
#include "model/rtlu.h"
#include "plat/plat_usb.h"
#include "sim/sim_cost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define NTD 8

struct in {
	const uint8_t *p;
	size_t n;
};

static uint32_t take(struct in *in, unsigned bytes)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint32_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* Registers with side effects, for a better hit rate. */
static const uint16_t hot[] = {
	RTLU_PLA_CR & ~3u, RTLU_PLA_RCR, RTLU_PLA_TCR1 & ~3u,
	RTLU_PLA_PHYSTATUS, RTLU_USB_USB_CTRL & ~3u,
	RTLU_USB_RX_EARLY_TIMEOUT, RTLU_USB_RX_EXTRA_AGGR_TMR & ~3u,
	RTLU_USB_INT_MITIGATION, RTLU_PLA_IDR, 0xfffc,
};

struct td {
	void *cpu;
	uint64_t dma;
	uint32_t len;
	bool busy;
};

static struct plat_usb_hc *g_hc;
static struct td g_td[NTD];

static void irq_fn(struct sim_irq *irq, void *arg)
{
	struct plat_usb_event ev;

	(void)irq;
	(void)arg;
	while (plat_usb_event_next(g_hc, &ev))
		if (ev.ctx)
			((struct td *)ev.ctx)->busy = false;
	plat_usb_irq_ack(g_hc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_cost cost;
	static int ready;
	struct in in = { data, size };
	struct sim sim;
	struct sim_host_params hp;
	struct sim_host *host;
	struct plat_mem mem;
	struct sim_irq irq;
	struct rtlu_dev *dev;
	struct plat_usb_dev *usb;
	struct plat_usb_params up;
	void *obuf;
	uint64_t odma;
	uint8_t frame[2048];

	if (!ready) {
		sim_cost_load_default(&cost);
		ready = 1;
	}
	sim_init(&sim);
	sim_host_params_default(&hp, 1);
	host = sim_host_create(&sim, &cost, &hp);
	CHECK(host);
	plat_mem_init(&mem);
	plat_usb_params_default(&up);
	up.link_mbps = (take(&in, 1) & 1) ? 5000 : 20000;
	g_hc = plat_usb_hc_create(host, &mem, &up);
	CHECK(g_hc);
	dev = rtlu_create(host, &mem, g_hc,
			  &rtl_usb_chips[take(&in, 1) % rtl_usb_chips_count],
			  NULL);
	CHECK(dev);
	usb = rtlu_usb(dev);
	sim_irq_init(host, &irq, "xhci-fuzz", irq_fn, NULL, 0);
	plat_usb_hc_bind_irq(g_hc, &irq);
	memset(g_td, 0, sizeof(g_td));
	CHECK(!plat_mem_alloc(&mem, 16384, &obuf, &odma));

	while (in.n) {
		unsigned op = take(&in, 1) % 8;

		switch (op) {
		case 0: {       /* control request */
			struct plat_usb_setup s;
			uint8_t buf[64];
			uint32_t a = take(&in, 1);

			s.bRequestType = (a & 1) ? RTLU_REQT_READ
						 : RTLU_REQT_WRITE;
			if (a & 2)
				s.bRequestType = (uint8_t)take(&in, 1);
			s.bRequest = (a & 4) ? (uint8_t)take(&in, 1)
					     : RTLU_REQ_GET_REGS;
			s.wValue = (a & 8) ? (uint16_t)take(&in, 2)
					   : hot[(a >> 4) % (sizeof(hot) /
							      sizeof(hot[0]))];
			s.wIndex = (uint16_t)((a & 0x80 ? RTLU_MCU_TYPE_PLA
						       : RTLU_MCU_TYPE_USB) |
					      take(&in, 1));
			s.wLength = (uint16_t)(take(&in, 1) % 65);
			for (unsigned i = 0; i < s.wLength; i++)
				buf[i] = (uint8_t)take(&in, 1);
			plat_usb_control(usb, &s, buf);
			break;
		}
		case 1: {       /* bulk-out buffer */
			uint32_t len = take(&in, 2) % 16384;

			for (uint32_t i = 0; i < len && in.n; i++)
				((uint8_t *)obuf)[i] = (uint8_t)take(&in, 1);
			plat_usb_submit(usb, RTLU_EP_BULK_OUT, odma, len, NULL);
			break;
		}
		case 2: {       /* a bulk-in TD */
			struct td *t = &g_td[take(&in, 1) % NTD];
			uint32_t len = 1 + take(&in, 2) % 49152;

			if (t->busy)
				break;
			if (t->cpu && t->len != len) {
				plat_mem_release(&mem, t->dma);
				t->cpu = NULL;
			}
			if (!t->cpu) {
				CHECK(!plat_mem_alloc(&mem, len, &t->cpu, &t->dma));
				t->len = len;
			}
			if (!plat_usb_submit(usb, RTLU_EP_BULK_IN | PLAT_USB_DIR_IN,
					    t->dma, len, t))
				t->busy = true;
			break;
		}
		case 3: {       /* cancel a TD */
			struct td *t = &g_td[take(&in, 1) % NTD];
			uint32_t a;
			int st;

			if (t->busy &&
			    plat_usb_cancel(usb, RTLU_EP_BULK_IN | PLAT_USB_DIR_IN,
					   t, &a, &st) >= 0)
				t->busy = false;
			break;
		}
		case 4:
		case 5: {       /* a frame from the wire */
			uint32_t len = 1 + take(&in, 2) % sizeof(frame);

			memset(frame, (int)take(&in, 1), len);
			if (take(&in, 1) & 1)
				memcpy(frame, "\x00\xe0\x4c\x68\x00\x01",
				       len < 6 ? len : 6);
			rtlu_eth_rx(dev, frame, len);
			break;
		}
		case 6:         /* link flap */
			rtlu_set_link(dev, take(&in, 1) & 1,
				      (take(&in, 1) & 1) ? 0 : 1000);
			break;
		case 7:         /* time */
			sim_run_until(&sim, sim_now(&sim) + take(&in, 2) * 16u);
			break;
		}
		{
			const struct rtlu_stats *st = rtlu_stats(dev);

			CHECK(st->rx_offered == st->rx_delivered +
			      st->rx_inflight + rtlu_rx_dropped(dev));
		}
	}
	sim_run_until(&sim, sim_now(&sim) + 1000000);
	rtlu_destroy(dev);
	plat_usb_hc_destroy(g_hc);
	sim_irq_fini(&irq);
	sim_host_destroy(host);
	plat_mem_fini(&mem);
	sim_fini(&sim);
	return 0;
}
