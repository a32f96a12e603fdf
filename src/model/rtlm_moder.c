// SPDX-License-Identifier: MIT
/*
 * rtlm_moder.c - interrupt moderation: the per-queue INT_MITI_V2 timers
 * (0x0A00 + 8q: RX timer byte 0, TX timer byte 2; s5.1), applied to the
 * message id a queue's event uses in the per-message-id model.
 *
 * Semantics (rtl_defines.h, [I]): 0 = the id's message goes out at once;
 * n > 0 = the first event on an idle id starts an n-unit hold-off timer,
 * and the message goes out when it expires (if the id's level is still
 * up), covering every event in between -- a delay timer per vector, as
 * QEMU's igb EITR timer and SimBricks' int_ev are.  An unmask that
 * re-raises a latched status is not a new event: it is sent at once
 * unless a timer is running.  One unit is miti->tick_div timer ticks
 * of 8 ns (RTL_INT_MITI_UNIT_NS): 4096 ns on RTL8125BP/D and RTL8127A,
 * 2048 ns on RTL8125A/B and RTL8126A.  [I] Byte 1, when not 0, ends a
 * running RX hold-off once 4 x byte 1 frames came in it (the frame
 * threshold hypothesis in rtl_defines.h).  INT_CFG0 MITIGATION_BYPASS set =
 * timers ignored.  [I] The legacy model has no moderation (the 8125's
 * IntrMitigate is not a coalescing register any more, s5.2).
 */
#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

void rtlm_moder_init(struct rtlm_dev *dev, sim_event_fn expire)
{
	for (unsigned id = 0; id < RTL_MSIX_MAX_VECTORS; id++)
		sim_event_init(&dev->moder_ev[id], expire, dev);
}

void rtlm_moder_expired(struct rtlm_dev *dev, const struct sim_event *ev)
{
	unsigned id = (unsigned)(ev - dev->moder_ev);

	dev->moder_held &= ~(1ull << id);
}

/* [I] One more RX frame in @id's running hold-off: at the threshold of
 * INT_MITI byte 1 (units of 4 frames, rtl_defines.h) the hold-off ends
 * now and the caller's rtlm_irq_update() sends the message. */
static void moder_count_frame(struct rtlm_dev *dev, unsigned id, unsigned q)
{
	unsigned thr = rtlm_reg_byte(dev, RTL_RI_INT_MITI_V2,
				     q * RTL_INT_MITI_STRIDE + RTL_INT_MITI_RX_FRAMES_BYTE);

	if (!thr || ++dev->moder_frames[id] < thr * RTL_INT_MITI_FRAMES_UNIT)
		return;
	sim_cancel(dev->sim, &dev->moder_ev[id]);
	dev->moder_held &= ~(1ull << id);
	dev->st.moder_frames_early++;
}

bool rtlm_moder_event(struct rtlm_dev *dev, unsigned id, unsigned q, bool tx)
{
	unsigned off = q * RTL_INT_MITI_STRIDE +
		       (tx ? RTL_INT_MITI_TX_BYTE : RTL_INT_MITI_RX_BYTE);
	uint64_t bit;
	unsigned units;

	/* ids 64+ (the what-if row's) are never held: no record, no timer */
	if (id >= RTL_MSIX_MAX_VECTORS || q >= dev->chip->miti->queues ||
	    (rtlm_rd(dev, RTL_RI_INT_CFG0_8125) & RTL_INT_CFG0_MITIGATION_BYPASS))
		return false;
	bit = 1ull << id;
	units = rtlm_reg_byte(dev, RTL_RI_INT_MITI_V2, off);
	if (!units)
		return false;
	if (dev->moder_held & bit) {
		if (!tx)
			moder_count_frame(dev, id, q);
		return true;
	}
	dev->moder_held |= bit;
	dev->moder_frames[id] = tx ? 0 : 1;
	dev->st.moder_deferred++;
	/* the timer counts the NIC's own clock */
	sim_schedule_in(dev->sim, &dev->moder_ev[id],
			sim_clock_ns(&dev->p.clock, (uint64_t)units *
				     RTL_INT_MITI_UNIT_NS(dev->chip->miti->tick_div)));
	return true;
}

void rtlm_moder_reset(struct rtlm_dev *dev)
{
	for (unsigned id = 0; id < RTL_MSIX_MAX_VECTORS; id++)
		sim_cancel(dev->sim, &dev->moder_ev[id]);
	dev->moder_held = 0;
}
