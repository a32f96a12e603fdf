// SPDX-License-Identifier: MIT
/*
 * rtlm_tally.c - the tally counter block (struct rtl_tally, rtl_desc.h).
 *
 * CounterAddrLow (0x10) bit 3 (dump) DMAs the 64-byte block to
 * CounterAddrHigh:Low & ~0x3F; bit 0 (reset) zeroes the counters; the
 * device clears the bit when the command is done, and drivers poll it
 * (K rtl8169_do_counters: CounterReset | CounterDump low).  [I] Timing:
 *  - a reset moves no data: it is done when the write lands, so the bit
 *    reads 0 right after (as ChipCmd RST, rtlm_dev.c);
 *  - a dump is done when its DMA write is visible: dma_write_ns (+ the
 *    DMA-write-delay fault) after the command.  A driver that polls sees
 *    the bit set until then.  A read of CounterAddrLow at or after that
 *    time finds the dump done even when the completion event has not run
 *    yet (a CPU frame's code runs ahead of the event loop, its clock
 *    moved on by what it charged, e.g. a udelay() between two polls).
 * A dump address that is not DMA-visible is a guest error (the bit still
 * clears).  Counters are little-endian in memory; rx_missed is 16 bits
 * and wraps, as the field does.
 */
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/model_tally.h"
#include "model/rtlm_priv.h"

static void tally_dump(struct rtlm_dev *dev)
{
	uint32_t *lo = rtlm_reg(dev, RTL_RI_CounterAddrLow, 0);
	uint64_t at = (*lo & ~0x3Fu) |
		      (uint64_t)rtlm_rd(dev, RTL_RI_CounterAddrHigh) << 32;
	uint8_t b[sizeof(struct rtl_tally)];

	model_tally_image(&dev->tally, b);
	if (plat_pci_dma_write(&dev->pci, at, b, sizeof(b)))
		rtlm_guest_error(dev, "tally dump address 0x%llx is not DMA-visible",
				 (unsigned long long)at);
	*lo &= ~RTL_COUNTER_DUMP;
}

static void tally_done(struct sim *s, struct sim_event *ev)
{
	(void)s;
	tally_dump(ev->arg);
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
	if (val & RTL_COUNTER_RESET) {
		memset(&dev->tally, 0, sizeof(dev->tally));
		*rtlm_reg(dev, RTL_RI_CounterAddrLow, 0) &= ~RTL_COUNTER_RESET;
	}
	if ((val & RTL_COUNTER_DUMP) && !sim_event_pending(&dev->tally_ev))
		sim_schedule_in(dev->sim, &dev->tally_ev, dev->p.dma_write_ns +
				dev->p.faults.dma_write_delay_ns);
}

/* A dump whose time has come is done, whoever looks first. */
uint32_t rtlm_tally_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			 uint32_t stored)
{
	(void)elem;
	if (!sim_event_pending(&dev->tally_ev) ||
	    dev->tally_ev.time > sim_now(dev->sim))
		return stored;
	sim_cancel(dev->sim, &dev->tally_ev);
	tally_dump(dev);
	return *rtlm_reg(dev, ri, 0);
}

void rtlm_tally_reset(struct rtlm_dev *dev)
{
	sim_cancel(dev->sim, &dev->tally_ev);
}
