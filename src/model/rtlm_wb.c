// SPDX-License-Identifier: MIT
/*
 * rtlm_wb.c - the opts1 write-back that hands a descriptor back (OWN
 * clear), and the RTL8127 OwnBit erratum (s6, rtlm_faults.ownbit_*).
 *
 * With the erratum on, an RX write-back's opts1 is held in a FIFO and the
 * interrupt goes out first; the held words land in host memory on the
 * next MMIO read of the BAR (a PCIe read completion may not pass the
 * device's earlier posted writes -- the reason the vendor driver's dummy
 * RTL_R8(IMR0) re-check works, s6) or ownbit_delay_ns later, whichever
 * is first.  While anything is held, later write-backs queue behind it so
 * descriptors still become visible in ring order.
 */
#include <stdlib.h>

#include "model/rtlm_priv.h"

static void wb_write(struct rtlm_dev *dev, const struct rtlm_wb_ent *e)
{
	uint8_t b[4];

	rtlm_put_le32(b, e->val);
	if (plat_pci_dma_write(&dev->pci, e->dma, b, sizeof(b)))
		rtlm_guest_error(dev, "descriptor write-back at 0x%llx is not DMA-visible",
				 (unsigned long long)e->dma);
}

/* Land every held write due by @until. */
static void wb_drain(struct rtlm_dev *dev, sim_time_t until, uint64_t *ctr)
{
	while (dev->wb_len && dev->wb[dev->wb_head].due <= until) {
		wb_write(dev, &dev->wb[dev->wb_head]);
		dev->wb_head = (dev->wb_head + 1) % dev->wb_cap;
		dev->wb_len--;
		(*ctr)++;
	}
	if (dev->wb_len)
		sim_schedule_at(dev->sim, &dev->wb_ev, dev->wb[dev->wb_head].due);
	else
		sim_cancel(dev->sim, &dev->wb_ev);
}

static void wb_timer(struct sim *s, struct sim_event *ev)
{
	struct rtlm_dev *dev = ev->arg;

	wb_drain(dev, sim_now(s), &dev->st.ownbit_flush_timer);
}

void rtlm_wb_init(struct rtlm_dev *dev)
{
	sim_event_init(&dev->wb_ev, wb_timer, dev);
}

#define RTLM_WB_MAX 4096        /* held write-backs at most */

static bool wb_grow(struct rtlm_dev *dev)
{
	unsigned cap = dev->wb_cap ? dev->wb_cap * 2 : 64;
	struct rtlm_wb_ent *n = malloc(cap * sizeof(*n));

	if (!n)
		return false;
	for (unsigned i = 0; i < dev->wb_len; i++)
		n[i] = dev->wb[(dev->wb_head + i) % dev->wb_cap];
	free(dev->wb);
	dev->wb = n;
	dev->wb_cap = cap;
	dev->wb_head = 0;
	return true;
}

void rtlm_wb_opts1(struct rtlm_dev *dev, uint64_t dma, uint32_t val,
		   bool may_hold)
{
	const struct rtlm_faults *f = &dev->p.faults;
	struct rtlm_wb_ent e = { .dma = dma, .val = val };
	bool hold = dev->wb_len > 0;

	if (may_hold && f->ownbit_erratum &&
	    dev->wb_seq++ % (f->ownbit_every ? f->ownbit_every : 1) == 0)
		hold = true;
	/* a posted-write buffer is finite: when RTLM_WB_MAX writes are held,
	 * the oldest lands before a new one queues (the fuzzer found an
	 * unbounded queue) */
	if (hold && dev->wb_len >= RTLM_WB_MAX) {
		wb_write(dev, &dev->wb[dev->wb_head]);
		dev->wb_head = (dev->wb_head + 1) % dev->wb_cap;
		dev->wb_len--;
		dev->st.ownbit_flush_timer++;
	}
	if (!hold || (dev->wb_len == dev->wb_cap && !wb_grow(dev))) {
		wb_write(dev, &e);
		return;
	}
	e.due = sim_now(dev->sim) + f->ownbit_delay_ns;
	/* keep the FIFO ordered by due time: a knob may change mid-run */
	if (dev->wb_len) {
		sim_time_t last = dev->wb[(dev->wb_head + dev->wb_len - 1) %
					  dev->wb_cap].due;

		if (e.due < last)
			e.due = last;
	}
	dev->wb[(dev->wb_head + dev->wb_len) % dev->wb_cap] = e;
	dev->wb_len++;
	dev->st.ownbit_held++;
	if (!sim_event_pending(&dev->wb_ev))
		sim_schedule_at(dev->sim, &dev->wb_ev, dev->wb[dev->wb_head].due);
}

void rtlm_wb_flush(struct rtlm_dev *dev)
{
	if (dev->wb_len)
		wb_drain(dev, SIM_TIME_MAX, &dev->st.ownbit_flush_mmio);
}

void rtlm_wb_fini(struct rtlm_dev *dev)
{
	sim_cancel(dev->sim, &dev->wb_ev);
	free(dev->wb);
	dev->wb = NULL;
	dev->wb_cap = dev->wb_len = dev->wb_head = 0;
}
