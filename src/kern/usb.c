/* SPDX-License-Identifier: MIT */
/*
 * usb.c - the USB core and xHCI host controller driver (HCD) subset behind
 * kern/usb.h, on the platform's xHCI model (plat/plat_usb.h).
 *
 * One HCD per plat_usb controller, created at the first kern_usb_dev_init()
 * on it: it takes a Linux irq (round-robin over the interrupt CPU set, as
 * an MSI vector would be), requests it as "xhci_hcd" and points the
 * controller's interrupter at it.  xhci_irq() drains the event ring in
 * hardirq context, unmaps each URB and hands it to usb_hcd_giveback_urb().
 *
 * Givebacks in BH context, as drivers/usb/core/hcd.c does for HCD_BH
 * controllers (xHCI), with the BH workqueue of Linux 6.10 and later
 * (before: the same logic in a tasklet):
 *  - usb_hcd_giveback_urb() appends the URB to the HCD's high-priority
 *    (interrupt and isochronous endpoints) or low-priority (the others)
 *    giveback list and, unless that list's BH is running, queues its work
 *    item on system_bh_highpri_wq / system_bh_wq: the HI / TASKLET
 *    softirq of the CPU that took the interrupt;
 *  - usb_giveback_urb_bh() takes the whole list and gives each URB back
 *    (urb->complete()); URBs that complete meanwhile wait on the list, and
 *    the BH queues itself again for them when it is done.
 * Each URB charges urb_giveback, and a bulk URB the driver's completion
 * bookkeeping (urb_complete_in/_out), before complete() runs.
 */
#include <linux/interrupt.h>
#include <linux/usb.h>
#include <linux/workqueue.h>

#include "kern/kern.h"

#include <stdint.h>
#include <string.h>

#include "kern/irq_internal.h"
#include "plat/plat_usb.h"

/* One giveback list and its BH (struct giveback_urb_bh). */
struct usb_giveback_bh {
	struct urb *head, *tail;
	bool running;
	bool high_prio;
	struct work_struct bh;
};

struct kern_usb_hcd {
	struct plat_usb_hc *hc;
	struct kern_irq_desc *irq;
	struct usb_giveback_bh high_prio_bh, low_prio_bh;
};

static void bhq_push(struct usb_giveback_bh *q, struct urb *urb)
{
	urb->hcd_next = NULL;
	if (q->tail)
		q->tail->hcd_next = urb;
	else
		q->head = urb;
	q->tail = urb;
}

static struct kern_usb_hcd *hcd_of(const struct urb *urb)
{
	if (!urb->dev || !urb->dev->sim || !urb->dev->sim->hc)
		return NULL;
	return urb->dev->sim->hc->hcd;
}

/* Find @urb on its HCD's giveback lists and, if @unlink, remove it; true
 * if found. */
static bool bh_find(struct urb *urb, bool unlink)
{
	struct kern_usb_hcd *hcd = hcd_of(urb);
	struct usb_giveback_bh *lists[2];

	if (!hcd)
		return false;
	lists[0] = &hcd->high_prio_bh;
	lists[1] = &hcd->low_prio_bh;
	for (unsigned i = 0; i < 2; i++) {
		struct usb_giveback_bh *q = lists[i];
		struct urb *prev = NULL;

		for (struct urb *u = q->head; u; prev = u, u = u->hcd_next) {
			if (u != urb)
				continue;
			if (!unlink)
				return true;
			if (prev)
				prev->hcd_next = u->hcd_next;
			else
				q->head = u->hcd_next;
			if (q->tail == u)
				q->tail = prev;
			u->hcd_next = NULL;
			return true;
		}
	}
	return false;
}

static unsigned ep_addr_of(unsigned int pipe)
{
	return usb_pipeendpoint(pipe) | (usb_pipein(pipe) ? PLAT_USB_DIR_IN : 0);
}

static void urb_unmap(struct urb *urb)
{
	if (urb->dma) {
		dma_unmap_single(&urb->dev->dev, urb->dma,
				 urb->transfer_buffer_length,
				 usb_pipein(urb->pipe) ? DMA_FROM_DEVICE
						       : DMA_TO_DEVICE);
		urb->dma = 0;
	}
}

/* Hand @urb back to its driver now, in the caller's context. */
static void giveback(struct urb *urb)
{
	urb->submitted = false;
	urb->hcd_next = NULL;
	if (urb->complete)
		urb->complete(urb);
}

static void bh_queue(struct usb_giveback_bh *bh)
{
	queue_work(bh->high_prio ? system_bh_highpri_wq : system_bh_wq,
		   &bh->bh);
}

/* usb_hcd_giveback_urb(): @urb (unmapped, status set) goes on its list;
 * the list's BH is queued on the running CPU unless it is running. */
static void hcd_giveback_urb(struct kern_usb_hcd *hcd, struct urb *urb)
{
	unsigned t = usb_pipetype(urb->pipe);
	struct usb_giveback_bh *bh = t == PIPE_INTERRUPT || t == PIPE_ISOCHRONOUS ?
				     &hcd->high_prio_bh : &hcd->low_prio_bh;

	bhq_push(bh, urb);
	if (!bh->running)
		bh_queue(bh);
}

/* usb_giveback_urb_bh(): give back what is on the list now; what
 * completes meanwhile waits for the BH's next run. */
static void usb_giveback_urb_bh(struct work_struct *work)
{
	struct usb_giveback_bh *bh = container_of(work, struct usb_giveback_bh, bh);
	struct urb *local = bh->head;

	bh->running = true;
	bh->head = bh->tail = NULL;
	while (local) {
		struct urb *urb = local;

		local = urb->hcd_next;
		kern_charge(SIM_COST_urb_giveback);
		/* the driver's completion handler: its bookkeeping per bulk
		 * transfer (requeue, stats, napi_schedule) */
		if (usb_pipetype(urb->pipe) == PIPE_BULK)
			kern_charge(usb_pipein(urb->pipe) ? SIM_COST_urb_complete_in :
							    SIM_COST_urb_complete_out);
		giveback(urb);
	}
	if (bh->head)
		bh_queue(bh);
	bh->running = false;
}

/* The xHCI interrupt: drain the event ring, acknowledge. */
static irqreturn_t xhci_irq(int irq, void *dev_id)
{
	struct kern_usb_hcd *hcd = dev_id;
	struct plat_usb_event ev;
	bool any = false;

	(void)irq;
	kern_charge(SIM_COST_xhci_irq);
	while (plat_usb_event_next(hcd->hc, &ev)) {
		struct urb *urb = ev.ctx;

		any = true;
		kern_charge(SIM_COST_xhci_event);
		if (!urb)
			continue;
		urb_unmap(urb);
		urb->actual_length = ev.actual;
		urb->status = ev.status;
		hcd_giveback_urb(hcd, urb);
	}
	plat_usb_irq_ack(hcd->hc);
	return any ? IRQ_HANDLED : IRQ_NONE;
}

static void hcd_free(void *p)
{
	struct kern_usb_hcd *hcd = p;

	if (kern) {
		cancel_work_sync(&hcd->high_prio_bh.bh);
		cancel_work_sync(&hcd->low_prio_bh.bh);
	}
	if (kern && hcd->irq && hcd->irq->allocated) {
		free_irq(hcd->irq->irq, hcd);
		kern_irq_release(hcd->irq);
	}
	free(hcd);
}

static struct kern_usb_hcd *hcd_get(struct plat_usb_hc *hc)
{
	struct kern_usb_hcd *hcd = hc->hcd;

	if (hcd)
		return hcd;
	hcd = calloc(1, sizeof(*hcd));
	if (!hcd)
		return NULL;
	hcd->hc = hc;
	INIT_WORK(&hcd->high_prio_bh.bh, usb_giveback_urb_bh);
	hcd->high_prio_bh.high_prio = true;
	INIT_WORK(&hcd->low_prio_bh.bh, usb_giveback_urb_bh);
	hcd->irq = kern_irq_alloc(NULL, -1);
	if (!hcd->irq || request_irq(hcd->irq->irq, xhci_irq, 0, "xhci_hcd",
				     hcd)) {
		if (hcd->irq)
			kern_irq_release(hcd->irq);
		free(hcd);
		return NULL;
	}
	plat_usb_hc_bind_irq(hc, &hcd->irq->sim);
	hc->hcd = hcd;
	hc->hcd_free = hcd_free;
	return hcd;
}

/* ----- devices and drivers ----- */

void kern_usb_dev_init(struct usb_device *udev, struct usb_interface *intf,
		       struct plat_usb_dev *sim, const char *name)
{
	memset(udev, 0, sizeof(*udev));
	memset(intf, 0, sizeof(*intf));
	snprintf(udev->dev.name, sizeof(udev->dev.name), "%s", name);
	snprintf(intf->dev.name, sizeof(intf->dev.name), "%s:1.0", name);
	udev->sim = sim;
	intf->udev = udev;
	if (!sim || !sim->hc) {
		udev->state = USB_STATE_NOTATTACHED;
		return;
	}
	udev->idVendor = sim->vendor;
	udev->idProduct = sim->product;
	udev->speed = sim->hc->params.link_mbps == 5000 ? USB_SPEED_SUPER
							: USB_SPEED_SUPER_PLUS;
	udev->rx_lanes = udev->tx_lanes =
		sim->hc->params.link_mbps == 20000 ? 2 : 1;
	udev->state = USB_STATE_CONFIGURED;
	if (!hcd_get(sim->hc)) {
		pr_err("%s: no interrupt for the host controller\n", name);
		udev->state = USB_STATE_NOTATTACHED;
	}
}

/* ----- URBs ----- */

struct urb *usb_alloc_urb(int iso_packets, gfp_t gfp)
{
	(void)gfp;
	if (iso_packets)
		return NULL;
	if (kern->fault.urb_fail_nth && !--kern->fault.urb_fail_nth)
		return NULL;
	return calloc(1, sizeof(struct urb));
}

void usb_free_urb(struct urb *urb)
{
	if (!urb)
		return;
	if (urb->submitted) {
		kern->warn.other++;
		pr_err("%s: usb_free_urb of a submitted URB\n",
		       urb->dev ? urb->dev->dev.name : "?");
		usb_kill_urb(urb);
	}
	free(urb);
}

int usb_submit_urb(struct urb *urb, gfp_t gfp)
{
	unsigned type;
	dma_addr_t dma;
	int r;

	(void)gfp;
	if (!urb || !urb->dev)
		return -EINVAL;
	if (urb->reject)
		return -EPERM;
	if (urb->submitted)
		return -EBUSY;
	if (urb->dev->state == USB_STATE_NOTATTACHED || !urb->dev->sim)
		return -ENODEV;
	type = usb_pipetype(urb->pipe);
	if (type != PIPE_BULK && type != PIPE_INTERRUPT)
		return -EINVAL;
	if (!urb->transfer_buffer ||
	    (usb_pipein(urb->pipe) && !urb->transfer_buffer_length))
		return -EINVAL;
	kern_charge(SIM_COST_usb_submit);
	dma = kern_dma_map(&urb->dev->dev, urb->transfer_buffer,
			     urb->transfer_buffer_length ?
			     urb->transfer_buffer_length : 1,
			     usb_pipein(urb->pipe) ? DMA_FROM_DEVICE
						   : DMA_TO_DEVICE);
	if (dma_mapping_error(&urb->dev->dev, dma))
		return -ENOMEM;
	urb->dma = dma;
	urb->actual_length = 0;
	urb->status = -EINPROGRESS;
	urb->submitted = true;
	urb->hcd_next = NULL;
	urb->submit_ns = ktime_get_ns();
	r = plat_usb_submit(urb->dev->sim, ep_addr_of(urb->pipe), dma,
			   urb->transfer_buffer_length, urb);
	if (r) {
		urb->submitted = false;
		urb->status = 0;
		urb_unmap(urb);
		return r == -ENOMEM ? -ENOMEM : r == -ENODEV ? -ENODEV : -EINVAL;
	}
	return 0;
}

/*
 * Take @urb away from the controller.  Returns true if it is now owned
 * here (status/actual_length set, unmapped), false if it was not found
 * (it is on a giveback list: see the callers).
 */
static bool hcd_dequeue(struct urb *urb, int cancel_status)
{
	uint32_t actual = 0;
	int status = 0;
	int r = plat_usb_cancel(urb->dev->sim, ep_addr_of(urb->pipe), urb,
			       &actual, &status);

	if (r < 0)
		return false;
	urb_unmap(urb);
	urb->actual_length = actual;
	urb->status = r == 1 ? cancel_status : status;
	return true;
}

void usb_kill_urb(struct urb *urb)
{
	if (!urb || !urb->submitted)
		return;
	urb->reject++;
	if (bh_find(urb, true) || hcd_dequeue(urb, -ENOENT))
		giveback(urb);
	urb->reject--;
}

int usb_unlink_urb(struct urb *urb)
{
	if (!urb || !urb->submitted)
		return -EIDRM;
	/* already completed and waiting for its giveback: it comes back
	 * there with its own status */
	if (bh_find(urb, false) || !hcd_dequeue(urb, -ECONNRESET))
		return 0;
	hcd_giveback_urb(hcd_of(urb), urb);
	return 0;
}

int usb_control_msg(struct usb_device *dev, unsigned int pipe, u8 request,
		    u8 requesttype, u16 value, u16 index, void *data,
		    u16 size, int timeout)
{
	struct plat_usb_setup s;
	int r;

	(void)timeout;
	if (!dev)
		return -EINVAL;
	if (dev->state == USB_STATE_NOTATTACHED || !dev->sim)
		return -ENODEV;
	if (usb_pipetype(pipe) != PIPE_CONTROL || (size && !data))
		return -EINVAL;
	kern_charge(SIM_COST_usb_ctrl);
	s.bRequestType = requesttype;
	s.bRequest = request;
	s.wValue = value;
	s.wIndex = index;
	s.wLength = size;
	r = plat_usb_control(dev->sim, &s, data);
	if (r == -ENODEV)
		return -ENODEV;
	return r < 0 ? -EPIPE : r;
}
