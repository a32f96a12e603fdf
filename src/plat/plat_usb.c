/* SPDX-License-Identifier: MIT */
/*
 * plat_usb.c - the xHCI-like host controller model (plat_usb.h): transfer
 * rings per endpoint, the event ring, one IMOD-moderated interrupter, the
 * dual-simplex USB link.
 */
#include "plat/plat_usb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plat_usb_params_default(struct plat_usb_params *p)
{
	memset(p, 0, sizeof(*p));
	p->link_mbps = 10000;
	p->imod_ns = 40000;
	p->max_packet = 1024;
	p->pkt_overhead_bytes = 24;
	p->xfer_overhead_ns = 500;
}

/* ----- link time ----- */

/* Payload bit rate as num/den of link_mbps: 8b/10b on Gen 1, 128b/132b
 * on Gen 2 (USB 3.2 spec, line coding). */
static void line_code(uint32_t mbps, uint64_t *num, uint64_t *den)
{
	if (mbps == 5000) {
		*num = 8;
		*den = 10;
	} else {
		*num = 128;
		*den = 132;
	}
}

static uint64_t packets(const struct plat_usb_hc *hc, uint64_t bytes)
{
	uint64_t mp = hc->params.max_packet ? hc->params.max_packet : 1024;

	return (bytes + mp - 1) / mp;
}

/* ps to carry @wire bytes (overhead included) at the payload rate. */
static uint64_t wire_ps(const struct plat_usb_hc *hc, uint64_t wire)
{
	uint64_t num, den;
	uint64_t rate = hc->params.link_mbps;

	line_code(hc->params.link_mbps, &num, &den);
	/* bits * 10^6 ps/us / (Mbit/s * num/den), rounded up, in the
	 * link's own time */
	return sim_clock_ps(&hc->params.clock,
			    (wire * 8u * 1000000u * den + rate * num - 1) / (rate * num));
}

uint64_t plat_usb_link_ps(const struct plat_usb_hc *hc, uint64_t bytes)
{
	return wire_ps(hc, bytes + packets(hc, bytes) *
		       hc->params.pkt_overhead_bytes);
}

static sim_time_t ps_to_ns_up(uint64_t ps)
{
	return (ps + 999u) / 1000u;
}

static uint64_t now_ps(const struct plat_usb_hc *hc)
{
	return sim_now(hc->host->sim) * 1000u;
}

sim_time_t plat_usb_in_link_free(const struct plat_usb_hc *hc)
{
	uint64_t n = now_ps(hc);

	return ps_to_ns_up(hc->link_in_ps > n ? hc->link_in_ps : n);
}

/* ----- TDs ----- */

static struct plat_usb_td *td_alloc(struct plat_usb_hc *hc)
{
	struct plat_usb_td *td = hc->td_free;

	if (td)
		hc->td_free = td->next;
	else
		td = malloc(sizeof(*td));
	if (td)
		memset(td, 0, sizeof(*td));
	return td;
}

static void td_release(struct plat_usb_hc *hc, struct plat_usb_td *td)
{
	sim_cancel(hc->host->sim, &td->ev);
	td->next = hc->td_free;
	hc->td_free = td;
}

static struct plat_usb_ep *ep_of(struct plat_usb_dev *d, unsigned ep_addr)
{
	unsigned num = ep_addr & 0x0Fu;

	if (!d || num == 0 || (ep_addr & ~(PLAT_USB_DIR_IN | 0x0Fu)))
		return NULL;
	return (ep_addr & PLAT_USB_DIR_IN) ? &d->ep_in[num] : &d->ep_out[num];
}

static const struct plat_usb_ep *ep_of_c(const struct plat_usb_dev *d,
					unsigned ep_addr)
{
	return ep_of((struct plat_usb_dev *)d, ep_addr);
}

/* Unlink the head TD of @ep. */
static struct plat_usb_td *ring_pop(struct plat_usb_ep *ep)
{
	struct plat_usb_td *td = ep->head;

	if (td) {
		ep->head = td->next;
		if (!ep->head)
			ep->tail = NULL;
		ep->queued--;
		td->next = NULL;
	}
	return td;
}

/* ----- interrupter ----- */

/* When IMOD next allows an assertion, host ps: imod_ns of the
 * controller's own clock after the previous one. */
static uint64_t imod_due_ps(const struct plat_usb_hc *hc)
{
	return hc->last_assert_ps + sim_clock_ps(&hc->params.clock,
						 hc->params.imod_ns * 1000u);
}

static void intr_assert(struct plat_usb_hc *hc)
{
	uint64_t now = now_ps(hc), due = imod_due_ps(hc);

	hc->ip = true;
	/* an assertion the IMOD timer let through happened at the timer's
	 * exact expiry, not at the nanosecond the event rounds it up to:
	 * the interval does not gain a fraction of a ns each period */
	hc->last_assert_ps = hc->fired_once && hc->params.imod_ns && now >= due &&
			     now < due + 1000u ? due : now;
	hc->fired_once = true;
	hc->stats.irqs++;
	if (hc->irq) {
		sim_irq_raise(hc->irq);
	} else {
		/* nobody will acknowledge: keep the events, retry on the
		 * next one */
		hc->stats.irqs_lost++;
		hc->ip = false;
	}
}

static void intr_try(struct plat_usb_hc *hc)
{
	if (hc->ip || !hc->ev_count || sim_event_pending(&hc->imod_ev))
		return;
	if (hc->fired_once && hc->params.imod_ns && now_ps(hc) < imod_due_ps(hc)) {
		hc->stats.irq_moderated++;
		sim_schedule_at(hc->host->sim, &hc->imod_ev,
				ps_to_ns_up(imod_due_ps(hc)));
		return;
	}
	intr_assert(hc);
}

static void imod_fire(struct sim *s, struct sim_event *ev)
{
	(void)s;
	intr_try(ev->arg);
}

void plat_usb_irq_ack(struct plat_usb_hc *hc)
{
	hc->ip = false;
	intr_try(hc);
}

void plat_usb_hc_bind_irq(struct plat_usb_hc *hc, struct sim_irq *irq)
{
	hc->irq = irq;
}

void plat_usb_set_imod(struct plat_usb_hc *hc, sim_time_t imod_ns)
{
	hc->params.imod_ns = imod_ns;
}

/* ----- completion ----- */

static void ev_ring_push(struct plat_usb_hc *hc, struct plat_usb_td *td)
{
	td->next = NULL;
	if (hc->ev_tail)
		hc->ev_tail->next = td;
	else
		hc->ev_head = td;
	hc->ev_tail = td;
	hc->ev_count++;
	if (hc->ev_count > hc->stats.ring_max)
		hc->stats.ring_max = hc->ev_count;
}

/* Unlink @td from the list of TDs whose completion is scheduled. */
static void cq_unlink(struct plat_usb_hc *hc, struct plat_usb_td *td)
{
	struct plat_usb_td **pp, *prev = NULL;

	for (pp = &hc->cq_head; *pp; prev = *pp, pp = &(*pp)->next) {
		if (*pp == td) {
			*pp = td->next;
			if (hc->cq_tail == td)
				hc->cq_tail = prev;
			td->next = NULL;
			td->completing = false;
			return;
		}
	}
}

static void td_done_fire(struct sim *s, struct sim_event *ev)
{
	struct plat_usb_td *td = ev->arg;
	struct plat_usb_hc *hc = td->dev->hc;
	struct plat_usb_ep *ep = ep_of(td->dev, td->ep_addr);

	cq_unlink(hc, td);
	td->done_ns = sim_now(s);
	hc->stats.tds_done++;
	if (ep) {
		ep->tds_done++;
		ep->bytes += td->actual;
	}
	ev_ring_push(hc, td);
	intr_try(hc);
}

/* @td has left its ring; its event reaches the ring at @t. */
static void td_finish_at(struct plat_usb_hc *hc, struct plat_usb_td *td,
			 sim_time_t t)
{
	td->completing = true;
	td->next = NULL;
	if (hc->cq_tail)
		hc->cq_tail->next = td;
	else
		hc->cq_head = td;
	hc->cq_tail = td;
	sim_event_init(&td->ev, td_done_fire, td);
	sim_schedule_at(hc->host->sim, &td->ev, t);
}

/* ----- controller ----- */

struct plat_usb_hc *plat_usb_hc_create(struct sim_host *host, struct plat_mem *mem,
				     const struct plat_usb_params *p)
{
	struct plat_usb_params def;
	struct plat_usb_hc *hc;

	if (!p) {
		plat_usb_params_default(&def);
		p = &def;
	}
	if (!host || !mem || (p->link_mbps != 5000 && p->link_mbps != 10000 &&
			      p->link_mbps != 20000) || !p->max_packet)
		return NULL;
	hc = calloc(1, sizeof(*hc));
	if (!hc)
		return NULL;
	strcpy(hc->name, "xhci");
	hc->host = host;
	hc->mem = mem;
	hc->params = *p;
	hc->ps_per_kbyte = plat_usb_link_ps(hc, 1000);
	sim_event_init(&hc->imod_ev, imod_fire, hc);
	return hc;
}

static void drop_td_list(struct plat_usb_hc *hc, struct plat_usb_td *td)
{
	while (td) {
		struct plat_usb_td *n = td->next;

		hc->stats.tds_cancelled++;
		td_release(hc, td);
		td = n;
	}
}

void plat_usb_hc_destroy(struct plat_usb_hc *hc)
{
	if (!hc)
		return;
	for (unsigned i = 1; i <= PLAT_USB_SLOTS; i++)
		if (hc->slots[i])
			plat_usb_dev_fini(hc->slots[i]);
	drop_td_list(hc, hc->ev_head);
	hc->ev_head = hc->ev_tail = NULL;
	drop_td_list(hc, hc->cq_head);
	hc->cq_head = hc->cq_tail = NULL;
	hc->ev_count = 0;
	sim_cancel(hc->host->sim, &hc->imod_ev);
	sim_purge(hc->host->sim);
	while (hc->td_free) {
		struct plat_usb_td *n = hc->td_free->next;

		free(hc->td_free);
		hc->td_free = n;
	}
	if (hc->hcd && hc->hcd_free)
		hc->hcd_free(hc->hcd);
	free(hc);
}

static void out_ev_fire(struct sim *s, struct sim_event *ev);

/* ----- device slots ----- */

int plat_usb_dev_init(struct plat_usb_dev *d, struct plat_usb_hc *hc,
		     const char *name, uint16_t vendor, uint16_t product,
		     const struct plat_usb_dev_ops *ops, void *opaque)
{
	unsigned slot = 0;

	if (!d || !hc || !name)
		return -EINVAL;
	for (unsigned i = 1; i <= PLAT_USB_SLOTS; i++) {
		if (!hc->slots[i]) {
			slot = i;
			break;
		}
	}
	if (!slot)
		return -ENOSPC;
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->vendor = vendor;
	d->product = product;
	d->hc = hc;
	d->slot = slot;
	d->ops = ops;
	d->opaque = opaque;
	d->attached = true;
	hc->slots[slot] = d;
	return 0;
}

static void ep_drop(struct plat_usb_hc *hc, struct plat_usb_ep *ep)
{
	sim_cancel(hc->host->sim, &ep->out_ev);
	drop_td_list(hc, ep->head);
	ep->head = ep->tail = NULL;
	ep->queued = 0;
}

void plat_usb_dev_fini(struct plat_usb_dev *d)
{
	struct plat_usb_hc *hc;
	struct plat_usb_td **pp;

	if (!d || !d->hc || !d->attached)
		return;
	hc = d->hc;
	for (unsigned i = 0; i < PLAT_USB_EP_NUMS; i++) {
		ep_drop(hc, &d->ep_in[i]);
		ep_drop(hc, &d->ep_out[i]);
	}
	/* TDs of this slot crossing the link, then its events, go */
	pp = &hc->cq_head;
	hc->cq_tail = NULL;
	while (*pp) {
		struct plat_usb_td *td = *pp;

		if (td->dev == d) {
			*pp = td->next;
			hc->stats.tds_cancelled++;
			td_release(hc, td);
		} else {
			hc->cq_tail = td;
			pp = &td->next;
		}
	}
	pp = &hc->ev_head;
	hc->ev_tail = NULL;
	while (*pp) {
		struct plat_usb_td *td = *pp;

		if (td->dev == d) {
			*pp = td->next;
			hc->ev_count--;
			hc->stats.tds_cancelled++;
			td_release(hc, td);
		} else {
			hc->ev_tail = td;
			pp = &td->next;
		}
	}
	d->attached = false;
	hc->slots[d->slot] = NULL;
	sim_purge(hc->host->sim);
}

int plat_usb_ep_enable(struct plat_usb_dev *d, unsigned ep_addr,
		      enum plat_usb_ep_type type, uint32_t max_packet,
		      unsigned interval)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);

	if (!ep || type == PLAT_USB_EP_CONTROL || !max_packet)
		return -EINVAL;
	ep->enabled = true;
	if (!(ep_addr & PLAT_USB_DIR_IN))
		sim_event_init(&ep->out_ev, out_ev_fire, d);
	ep->type = type;
	ep->max_packet = max_packet;
	ep->interval = interval;
	return 0;
}

/* ----- IN endpoints ----- */

uint32_t plat_usb_in_room(const struct plat_usb_dev *d, unsigned ep_addr)
{
	const struct plat_usb_ep *ep = ep_of_c(d, ep_addr);

	return ep && ep->head ? ep->head->len : 0;
}

uint32_t plat_usb_in_written(const struct plat_usb_dev *d, unsigned ep_addr)
{
	const struct plat_usb_ep *ep = ep_of_c(d, ep_addr);

	return ep && ep->head ? ep->head->written : 0;
}

int64_t plat_usb_in_write(struct plat_usb_dev *d, unsigned ep_addr,
			 uint32_t off, const void *src, uint32_t len)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);
	struct plat_usb_hc *hc;
	struct plat_usb_td *td;
	uint64_t start, pk, wire;
	uint32_t end;

	if (!ep || !(ep_addr & PLAT_USB_DIR_IN))
		return -EINVAL;
	td = ep->head;
	if (!td)
		return -ENOENT;
	if ((uint64_t)off + len > td->len)
		return -EINVAL;
	hc = d->hc;
	if (plat_mem_write(hc->mem, td->dma + off, src, len, d->name)) {
		hc->stats.dma_errors++;
		return -EFAULT;
	}
	/* link time of the new packets: the transfer streams, so count the
	 * packets its byte count grows into */
	end = off + len > td->written ? off + len : td->written;
	pk = packets(hc, end) - packets(hc, td->written);
	wire = (uint64_t)(end - td->written) + pk * hc->params.pkt_overhead_bytes;
	td->written = end;
	start = hc->link_in_ps > now_ps(hc) ? hc->link_in_ps : now_ps(hc);
	hc->link_in_ps = start + wire_ps(hc, wire);
	hc->stats.in_bytes += len;
	return (int64_t)ps_to_ns_up(hc->link_in_ps);
}

int64_t plat_usb_in_complete(struct plat_usb_dev *d, unsigned ep_addr,
			    uint32_t actual, int status)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);
	struct plat_usb_hc *hc;
	struct plat_usb_td *td;
	sim_time_t t;

	if (!ep || !(ep_addr & PLAT_USB_DIR_IN))
		return -EINVAL;
	if (!ep->head)
		return -ENOENT;
	if (actual > ep->head->len)
		return -EINVAL;
	hc = d->hc;
	td = ring_pop(ep);
	td->actual = actual;
	td->status = status;
	t = plat_usb_in_link_free(hc) + sim_clock_ns(&hc->params.clock,
							  hc->params.xfer_overhead_ns);
	td_finish_at(hc, td, t);
	return (int64_t)t;
}

/* ----- OUT endpoints ----- */

static void out_start(struct plat_usb_hc *hc, struct plat_usb_ep *ep)
{
	struct plat_usb_td *td = ep->head;
	uint64_t start;

	if (!td || sim_event_pending(&ep->out_ev) || ep->out_nak)
		return;
	start = hc->link_out_ps > now_ps(hc) ? hc->link_out_ps : now_ps(hc);
	hc->link_out_ps = start + plat_usb_link_ps(hc, td->len);
	hc->stats.out_bytes += td->len;
	sim_schedule_at(hc->host->sim, &ep->out_ev,
			ps_to_ns_up(hc->link_out_ps));
}

/* The head TD's data has crossed the link: offer it to the device. */
static void out_offer(struct plat_usb_dev *d, unsigned ep_addr)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);
	struct plat_usb_hc *hc = d->hc;
	struct plat_usb_td *td;
	const uint8_t *data;
	int r;

	if (!ep || !(td = ep->head))
		return;
	data = plat_mem_ptr(hc->mem, td->dma, td->len, d->name);
	if (!data) {
		hc->stats.dma_errors++;
		r = -EPROTO;
	} else if (d->ops && d->ops->out) {
		r = d->ops->out(d->opaque, ep_addr, data, td->len);
	} else {
		r = 0;
	}
	if (r == -EAGAIN) {
		ep->out_nak = true;
		return;
	}
	ring_pop(ep);
	td->actual = r ? 0 : td->len;
	td->status = r == -EPROTO ? -EPROTO : r ? -EPIPE : 0;
	td_finish_at(hc, td, sim_now(hc->host->sim) +
		     sim_clock_ns(&hc->params.clock, hc->params.xfer_overhead_ns));
	out_start(hc, ep);
}

static void out_ev_fire(struct sim *s, struct sim_event *ev)
{
	struct plat_usb_dev *d = ev->arg;
	unsigned num;

	(void)s;
	/* which endpoint: the event is embedded in ep_out[num] */
	for (num = 1; num < PLAT_USB_EP_NUMS; num++)
		if (&d->ep_out[num].out_ev == ev)
			break;
	if (num < PLAT_USB_EP_NUMS)
		out_offer(d, num);
}

void plat_usb_out_resume(struct plat_usb_dev *d, unsigned ep_addr)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);

	if (!ep || (ep_addr & PLAT_USB_DIR_IN) || !ep->out_nak)
		return;
	ep->out_nak = false;
	if (ep->head && !sim_event_pending(&ep->out_ev))
		sim_schedule_at(d->hc->host->sim, &ep->out_ev,
				sim_now(d->hc->host->sim));
}

/* ----- host side ----- */

int plat_usb_submit(struct plat_usb_dev *d, unsigned ep_addr, uint64_t dma,
		   uint32_t len, void *ctx)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);
	struct plat_usb_hc *hc;
	struct plat_usb_td *td;
	bool in = ep_addr & PLAT_USB_DIR_IN;

	if (!d)
		return -EINVAL;
	if (!d->attached)
		return -ENODEV;
	if (!ep || !ep->enabled || (in && !len))
		return -EINVAL;
	hc = d->hc;
	td = td_alloc(hc);
	if (!td)
		return -ENOMEM;
	td->dev = d;
	td->ep_addr = ep_addr;
	td->dma = dma;
	td->len = len;
	td->ctx = ctx;
	td->id = ++hc->next_td_id;
	td->queued_ns = sim_now(hc->host->sim);
	if (ep->tail)
		ep->tail->next = td;
	else
		ep->head = td;
	ep->tail = td;
	ep->queued++;
	hc->stats.tds_submitted++;
	if (in) {
		if (d->ops && d->ops->in_doorbell)
			d->ops->in_doorbell(d->opaque, ep_addr);
	} else {
		out_start(hc, ep);
	}
	return 0;
}

int plat_usb_cancel(struct plat_usb_dev *d, unsigned ep_addr, void *ctx,
		   uint32_t *actual, int *status)
{
	struct plat_usb_ep *ep = ep_of(d, ep_addr);
	struct plat_usb_hc *hc;
	struct plat_usb_td **pp, *prev = NULL;
	uint32_t a = 0;
	int st = 0;

	if (!ep)
		return -ENOENT;
	hc = d->hc;
	/* still on the transfer ring */
	for (pp = &ep->head; *pp; prev = *pp, pp = &(*pp)->next) {
		struct plat_usb_td *td = *pp;

		if (td->ctx != ctx)
			continue;
		if (td == ep->head) {
			if ((ep_addr & PLAT_USB_DIR_IN) && d->ops &&
			    d->ops->in_cancel)
				d->ops->in_cancel(d->opaque, ep_addr, td->written);
			if (!(ep_addr & PLAT_USB_DIR_IN)) {
				sim_cancel(hc->host->sim, &ep->out_ev);
				ep->out_nak = false;
			}
		}
		/* the device callback may have completed it meanwhile */
		if (*pp != td)
			break;
		*pp = td->next;
		if (ep->tail == td)
			ep->tail = prev;
		ep->queued--;
		a = td->written;
		hc->stats.tds_cancelled++;
		td_release(hc, td);
		if (!(ep_addr & PLAT_USB_DIR_IN))
			out_start(hc, ep);
		if (actual)
			*actual = a;
		if (status)
			*status = 0;
		return 1;
	}
	/* crossing the link: its event has not reached the ring yet */
	for (struct plat_usb_td *td = hc->cq_head; td; td = td->next) {
		if (td->dev != d || td->ep_addr != ep_addr || td->ctx != ctx)
			continue;
		cq_unlink(hc, td);
		a = td->actual;
		st = td->status;
		td_release(hc, td);
		if (actual)
			*actual = a;
		if (status)
			*status = st;
		return 0;
	}
	/* on the event ring */
	prev = NULL;
	for (pp = &hc->ev_head; *pp; prev = *pp, pp = &(*pp)->next) {
		struct plat_usb_td *td = *pp;

		if (td->dev != d || td->ep_addr != ep_addr || td->ctx != ctx)
			continue;
		*pp = td->next;
		if (hc->ev_tail == td)
			hc->ev_tail = prev;
		hc->ev_count--;
		a = td->actual;
		st = td->status;
		td_release(hc, td);
		if (actual)
			*actual = a;
		if (status)
			*status = st;
		return 0;
	}
	return -ENOENT;
}

int plat_usb_control(struct plat_usb_dev *d, const struct plat_usb_setup *setup,
		    uint8_t *data)
{
	int r;

	if (!d || !setup)
		return -EINVAL;
	if (!d->attached)
		return -ENODEV;
	d->ctrl_requests++;
	if (!d->ops || !d->ops->control) {
		d->ctrl_stalls++;
		return -EPIPE;
	}
	r = d->ops->control(d->opaque, setup, data);
	if (r < 0 || r > setup->wLength) {
		d->ctrl_stalls++;
		return -EPIPE;
	}
	return r;
}

bool plat_usb_event_next(struct plat_usb_hc *hc, struct plat_usb_event *ev)
{
	struct plat_usb_td *td = hc->ev_head;

	if (!td)
		return false;
	hc->ev_head = td->next;
	if (!hc->ev_head)
		hc->ev_tail = NULL;
	hc->ev_count--;
	hc->stats.events_taken++;
	ev->ctx = td->ctx;
	ev->dev = td->dev;
	ev->ep_addr = td->ep_addr;
	ev->actual = td->actual;
	ev->status = td->status;
	ev->done_ns = td->done_ns;
	td_release(hc, td);
	return true;
}
