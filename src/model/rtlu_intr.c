/* SPDX-License-Identifier: MIT */
/*
 * rtlu_intr.c - the interrupt-in endpoint: the link status the adapter
 * reports when a TD waits and a status is pending (rtl_usb_regs.h
 * RTLU_INTR_*).
 */
#include "model/rtlu_priv.h"

#define EP_INTR (RTLU_EP_INTR_IN | PLAT_USB_DIR_IN)

/* Report the link state on the interrupt endpoint if a TD waits. */
static void intr_fire(struct sim *s, struct sim_event *ev)
{
	struct rtlu_dev *dev = ev->arg;
	uint8_t st[RTLU_INTR_BUFSIZE] = { 0 };
	uint32_t room;

	(void)s;
	if (!dev->intr_pending || dev->p.faults.intr_silent)
		return;
	room = plat_usb_in_room(&dev->usb, EP_INTR);
	if (!room)
		return;
	if (dev->link_up)
		st[0] = (uint8_t)RTLU_INTR_LINK;
	if (room > sizeof(st))
		room = sizeof(st);
	if (plat_usb_in_write(&dev->usb, EP_INTR, 0, st, room) < 0) {
		rtlu_guest_error(dev, "interrupt buffer not DMA-visible");
		plat_usb_in_complete(&dev->usb, EP_INTR, 0, 0);
		return;
	}
	plat_usb_in_complete(&dev->usb, EP_INTR, room, 0);
	dev->intr_pending = false;
	dev->st.intr_sent++;
}

void rtlu_intr_init(struct rtlu_dev *dev)
{
	sim_event_init(&dev->intr_ev, intr_fire, dev);
	dev->intr_pending = true;       /* [I] first poll reports the link */
}

void rtlu_intr_fini(struct rtlu_dev *dev)
{
	sim_cancel(dev->host->sim, &dev->intr_ev);
}

void rtlu_intr_kick(struct rtlu_dev *dev)
{
	if (dev->intr_pending && !sim_event_pending(&dev->intr_ev))
		sim_schedule_at(dev->host->sim, &dev->intr_ev,
				sim_now(dev->host->sim));
}
