// SPDX-License-Identifier: MIT
/*
 * rtlm_tally.c - the tally counter block (struct rtl_tally, rtl_desc.h).
 *
 * CounterAddrLow (0x10) bit 3 (dump) DMAs the 64-byte block to
 * CounterAddrHigh:Low & ~0x3F; bit 0 (reset) zeroes the counters; the
 * device clears the bit when the command is done (K rtl8169_do_counters
 * polls it).  [I] Done = dma_write_ns (+ the DMA-write-delay fault) after
 * the write, so a driver that polls sees the bit set for a while; a dump
 * address that is not DMA-visible is a guest error (the bit still
 * clears).  Counters are little-endian in memory; rx_missed is 16 bits
 * and wraps, as the field does.
 */
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void tally_image(const struct rtl_tally *t, uint8_t *b)
{
	memset(b, 0, sizeof(struct rtl_tally));
#define PUT(f) put_le(b + offsetof(struct rtl_tally, f), t->f, sizeof(t->f))
	PUT(tx_packets);
	PUT(rx_packets);
	PUT(tx_errors);
	PUT(rx_errors);
	PUT(rx_missed);
	PUT(align_errors);
	PUT(tx_one_collision);
	PUT(tx_multi_collision);
	PUT(rx_unicast);
	PUT(rx_broadcast);
	PUT(rx_multicast);
	PUT(tx_aborted);
	PUT(tx_underrun);
#undef PUT
}

static void tally_done(struct sim *s, struct sim_event *ev)
{
	struct rtlm_dev *dev = ev->arg;
	uint32_t *lo = rtlm_reg(dev, RTL_RI_CounterAddrLow, 0);
	uint64_t at = (*lo & ~0x3Fu) |
		      (uint64_t)rtlm_rd(dev, RTL_RI_CounterAddrHigh) << 32;
	uint8_t b[sizeof(struct rtl_tally)];

	(void)s;
	if (*lo & RTL_COUNTER_RESET)
		memset(&dev->tally, 0, sizeof(dev->tally));
	if (*lo & RTL_COUNTER_DUMP) {
		tally_image(&dev->tally, b);
		if (plat_pci_dma_write(&dev->pci, at, b, sizeof(b)))
			rtlm_guest_error(dev, "tally dump address 0x%llx is not DMA-visible",
					 (unsigned long long)at);
	}
	*lo &= ~(RTL_COUNTER_RESET | RTL_COUNTER_DUMP);
}

void rtlm_tally_init(struct rtlm_dev *dev)
{
	sim_event_init(&dev->tally_ev, tally_done, dev);
}

void rtlm_tally_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		      uint32_t old, uint32_t val)
{
	(void)ri;
	(void)elem;
	(void)old;
	if ((val & (RTL_COUNTER_RESET | RTL_COUNTER_DUMP)) &&
	    !sim_event_pending(&dev->tally_ev))
		sim_schedule_in(dev->sim, &dev->tally_ev, dev->p.dma_write_ns +
				dev->p.faults.dma_write_delay_ns);
}

void rtlm_tally_reset(struct rtlm_dev *dev)
{
	sim_cancel(dev->sim, &dev->tally_ev);
}
