/* SPDX-License-Identifier: MIT */
/*
 * plat_usb.h - the platform's USB host controller: an xHCI-like model with
 * device slots, per-endpoint transfer rings, one event ring, one
 * interrupter with IMOD moderation, DMA into simulated host memory by bus
 * address, and a USB link that takes wire time.
 *
 * The split mirrors plat_pci.h.  The device model (src/model/rtlu_*) owns
 * a struct plat_usb_dev slot, enables its endpoints and registers handlers
 * (struct plat_usb_dev_ops); the kernel layer (src/kern/usb.c) queues
 * transfers (TDs) with plat_usb_submit(), drains the event ring from its
 * hardirq handler and gives URBs back.  The model never sees the driver:
 * it fills or consumes the TD at the head of an endpoint's ring through
 * plat_usb_in_*() and the out() handler, nothing else.
 *
 * Timing model (all ns of simulated time):
 *  - The USB link is dual simplex (USB 3.x: one lane pair each way), so
 *    IN and OUT each have a "link free at" time.  Moving B bytes of
 *    payload occupies a direction for
 *      (B + ceil(B / max_packet) * pkt_overhead_bytes) * 8 bits
 *    at the link's payload bit rate: link_mbps * 8/10 on Gen 1 (8b/10b
 *    line code) and link_mbps * 128/132 on Gen 2 (128b/132b), USB 3.2
 *    spec; pkt_overhead_bytes (data packet header, CRC, framing) is an
 *    [I] order of magnitude.  Times are kept in ps and rounded up to ns
 *    where an event is scheduled.
 *  - A finished TD costs xfer_overhead_ns more (handshake, event TRB
 *    write) before its event is on the event ring.
 *  - The interrupter (xHCI spec 4.17.2, IMODI/IMODC): an interrupt is
 *    asserted when the event ring holds events, the previous one has been
 *    acknowledged (the handler drained the ring: EHB clear) and at least
 *    imod_ns passed since the previous assertion.  Default 40000 ns,
 *    drivers/usb/host/xhci-pci.c imod_interval (research
 *    usb-and-coalescing.md s1.7, S19).  An assertion raises the bound
 *    host interrupt (sim_host's irq mechanism, as an MSI).
 *  - Control transfers complete at once (see usb_control_msg() in
 *    kern/usb.h): they take no link time.
 *
 * Ownership: TDs are allocated here at submit and freed when their event
 * is taken off the ring (plat_usb_event_next) or when cancelled.  The host
 * side tags each TD with an opaque @ctx (kern/usb.c: the URB).
 *
 * Determinism: events carry the engine's (time, seq) order; nothing here
 * depends on pointers or the wall clock.
 */
#ifndef RXSCALE_PLAT_USB_H
#define RXSCALE_PLAT_USB_H

#include <stdbool.h>
#include <stdint.h>

#include "plat/plat_mem.h"
#include "sim/sim_clock.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

#define PLAT_USB_EP_NUMS 16              /* endpoint numbers 0..15 */
#define PLAT_USB_DIR_IN 0x80u            /* endpoint address direction bit */
#define PLAT_USB_SLOTS 32                /* device slots per controller */

/* Endpoint types; the values are Linux's PIPE_* (kern/usb.h). */
enum plat_usb_ep_type {
	PLAT_USB_EP_ISOC = 0,
	PLAT_USB_EP_INT = 1,
	PLAT_USB_EP_CONTROL = 2,
	PLAT_USB_EP_BULK = 3,
};

/* Host controller parameters; start from plat_usb_params_default(). */
struct plat_usb_params {
	uint32_t link_mbps;             /* 5000 (Gen 1), 10000 (Gen 2x1),
	                                 * 20000 (Gen 2x2) */
	sim_time_t imod_ns;             /* interrupter IMODI, 40000; 0 = off */
	uint32_t max_packet;            /* bytes per bulk data packet, 1024 */
	uint32_t pkt_overhead_bytes;    /* per data packet on the link, 24 [I] */
	sim_time_t xfer_overhead_ns;    /* per TD, 500 [I] */
	/* the controller's and the link's oscillator (sim_clock.h): the
	 * IMOD interval, link time and per-TD overhead are in its time */
	struct sim_clock clock;
};

/* Defaults: 10000 Mbit/s (the RTL8157 author's "SuperSpeed Plus Gen
 * 2x1", research s1.6), IMOD 40000 ns, 1024-byte packets, 24 bytes of
 * overhead per packet, 500 ns per transfer. */
void plat_usb_params_default(struct plat_usb_params *p);

/* The 8-byte SETUP packet of a control transfer (USB 2.0 spec 9.3). */
struct plat_usb_setup {
	uint8_t bRequestType;           /* bit 7: 1 = device-to-host */
	uint8_t bRequest;
	uint16_t wValue;
	uint16_t wIndex;
	uint16_t wLength;               /* bytes of the data stage */
};

struct plat_usb_dev;
struct plat_usb_hc;

/*
 * Device model handlers of one slot.  They run inside the calling CPU's
 * frame (control, doorbell from a submit) or in engine events (out).
 * Any may be NULL.
 */
struct plat_usb_dev_ops {
	/*
	 * A control transfer: @data holds wLength bytes (OUT: the data
	 * stage to consume; IN: room to fill).  Return the bytes of the
	 * data stage used (0..wLength), or -EPIPE to STALL the request.
	 */
	int (*control)(void *opaque, const struct plat_usb_setup *setup,
		       uint8_t *data);
	/*
	 * A TD was queued on IN endpoint @ep_addr (a doorbell).  The device
	 * may start filling it now or later with plat_usb_in_write() and end
	 * it with plat_usb_in_complete().
	 */
	void (*in_doorbell)(void *opaque, unsigned ep_addr);
	/*
	 * The head TD of IN endpoint @ep_addr is being cancelled by the host
	 * (Stop Endpoint): whatever the device had written into it is lost
	 * to the device; @written is the bytes it wrote.  Called before the
	 * TD leaves the ring.
	 */
	void (*in_cancel)(void *opaque, unsigned ep_addr, uint32_t written);
	/*
	 * The data of the head TD of OUT endpoint @ep_addr has crossed the
	 * link (@len bytes, a copy the device may keep only during the
	 * call).  Return 0 to accept (the TD completes, status 0), -EAGAIN
	 * to NAK (the TD stays; the device calls plat_usb_out_resume() when
	 * it can take data again), or -EPIPE to STALL (the TD completes with
	 * -EPIPE).
	 */
	int (*out)(void *opaque, unsigned ep_addr, const uint8_t *data,
		   uint32_t len);
};

/* One transfer descriptor (a TD of one or more TRBs) -- read-only outside
 * plat_usb.c. */
struct plat_usb_td {
	struct plat_usb_dev *dev;
	unsigned ep_addr;
	uint64_t dma;                   /* bus address of the buffer */
	uint32_t len;                   /* buffer bytes */
	uint32_t written;               /* IN: bytes the device wrote */
	uint32_t actual;                /* bytes moved, at completion */
	int status;                     /* 0, -EPIPE, -EPROTO */
	void *ctx;                      /* host's tag */
	uint64_t id;                    /* submit sequence number */
	sim_time_t queued_ns;
	sim_time_t done_ns;             /* when its event reached the ring */
	bool completing;                /* left the ring, event scheduled */
	struct sim_event ev;            /* completion */
	struct plat_usb_td *next;
};

struct plat_usb_ep {
	bool enabled;
	enum plat_usb_ep_type type;
	uint32_t max_packet;
	unsigned interval;              /* bInterval as given */
	struct plat_usb_td *head, *tail; /* the transfer ring, oldest first */
	unsigned queued;                /* TDs on the ring */
	struct sim_event out_ev;        /* OUT: head TD's data crossed */
	bool out_nak;                   /* OUT: device NAKed, wait resume */
	uint64_t tds_done;
	uint64_t bytes;
};

/* One device slot (a device in the controller's Device Context). */
struct plat_usb_dev {
	char name[32];
	uint16_t vendor, product;
	struct plat_usb_hc *hc;
	unsigned slot;                  /* 1..PLAT_USB_SLOTS */
	const struct plat_usb_dev_ops *ops;
	void *opaque;
	bool attached;
	struct plat_usb_ep ep_in[PLAT_USB_EP_NUMS];
	struct plat_usb_ep ep_out[PLAT_USB_EP_NUMS];
	uint64_t ctrl_requests, ctrl_stalls;
};

/* One completion as the host sees it on the event ring (a Transfer
 * Event TRB). */
struct plat_usb_event {
	void *ctx;                      /* the TD's tag */
	struct plat_usb_dev *dev;
	unsigned ep_addr;
	uint32_t actual;                /* bytes moved */
	int status;                     /* 0, -EPIPE, -EPROTO */
	sim_time_t done_ns;             /* when it reached the ring */
};

struct plat_usb_stats {
	uint64_t tds_submitted;
	uint64_t tds_done;              /* events posted */
	uint64_t tds_cancelled;         /* removed before completing */
	uint64_t events_taken;
	uint64_t irqs;                  /* interrupter assertions */
	uint64_t irqs_lost;             /* asserted with no host irq bound */
	uint64_t irq_moderated;         /* assertions delayed by IMOD */
	uint64_t in_bytes, out_bytes;   /* payload across the link */
	uint64_t dma_errors;            /* TD buffers not DMA-visible */
	uint64_t ring_max;              /* most events on the ring at once */
};

/* One host controller.  Fields are read-only outside plat_usb.c except
 * hcd/hcd_free, which belong to the host-side driver. */
struct plat_usb_hc {
	char name[32];
	struct sim_host *host;
	struct plat_mem *mem;
	struct plat_usb_params params;
	uint64_t ps_per_kbyte;          /* link ps per 1000 payload bytes */
	uint64_t link_in_ps, link_out_ps;  /* each direction free at, ps */
	struct plat_usb_dev *slots[PLAT_USB_SLOTS + 1];
	/* event ring */
	struct plat_usb_td *ev_head, *ev_tail;
	unsigned ev_count;
	/* TDs off their rings whose event is scheduled (crossing the link) */
	struct plat_usb_td *cq_head, *cq_tail;
	/* interrupter */
	struct sim_irq *irq;            /* host interrupt (MSI), or NULL */
	struct sim_event imod_ev;       /* a delayed assertion */
	bool ip;                        /* asserted, not yet acknowledged */
	bool fired_once;
	uint64_t last_assert_ps;        /* exact, in host time */
	uint64_t next_td_id;
	struct plat_usb_td *td_free;     /* recycled TDs */
	struct plat_usb_stats stats;
	/* host-side driver (HCD) state, freed by hcd_free at destroy */
	void *hcd;
	void (*hcd_free)(void *hcd);
};

/* ----- controller ----- */

/* Create a controller on @host with DMA into @mem; @p NULL = defaults.
 * Returns NULL on a bad link rate (not 5000, 10000, 20000) or no memory. */
struct plat_usb_hc *plat_usb_hc_create(struct sim_host *host, struct plat_mem *mem,
				     const struct plat_usb_params *p);

/* Cancel every event, free every TD (of all slots) and the HCD state. */
void plat_usb_hc_destroy(struct plat_usb_hc *hc);

/* Point the interrupter at host interrupt @irq (NULL unbinds). */
void plat_usb_hc_bind_irq(struct plat_usb_hc *hc, struct sim_irq *irq);

/* Change the IMOD interval (ns, 0 = no moderation); from the next
 * assertion on. */
void plat_usb_set_imod(struct plat_usb_hc *hc, sim_time_t imod_ns);

/* Link time, in ps, of @bytes of payload in one transfer on @hc (the
 * packet overhead included, xfer_overhead_ns not). */
uint64_t plat_usb_link_ps(const struct plat_usb_hc *hc, uint64_t bytes);

/* ----- device slots (device side) ----- */

/*
 * Attach @d as @name with IDs @vendor:@product to @hc, handlers @ops
 * (@opaque passed back).  Endpoint 0 (control) is always there.
 * Returns 0, -EINVAL, or -ENOSPC (no free slot).
 */
int plat_usb_dev_init(struct plat_usb_dev *d, struct plat_usb_hc *hc,
		     const char *name, uint16_t vendor, uint16_t product,
		     const struct plat_usb_dev_ops *ops, void *opaque);

/* Detach: the slot's TDs are dropped (counted as cancelled) and its
 * events leave the ring. */
void plat_usb_dev_fini(struct plat_usb_dev *d);

/* Enable endpoint @ep_addr (number | PLAT_USB_DIR_IN for IN), 1..15.
 * Returns 0 or -EINVAL. */
int plat_usb_ep_enable(struct plat_usb_dev *d, unsigned ep_addr,
		      enum plat_usb_ep_type type, uint32_t max_packet,
		      unsigned interval);

/* ----- IN endpoints (device side) ----- */

/* Buffer length of the head TD of IN endpoint @ep_addr, 0 when the ring
 * is empty (the device has nowhere to put data). */
uint32_t plat_usb_in_room(const struct plat_usb_dev *d, unsigned ep_addr);

/* Bytes already written into the head TD (0 when none). */
uint32_t plat_usb_in_written(const struct plat_usb_dev *d, unsigned ep_addr);

/*
 * Move @len bytes from @src into the head TD at byte @off, over the link:
 * the IN direction is busy for plat_usb_link_ps(@len) more, starting no
 * earlier than now.  Returns the time (ns, rounded up) the bytes are
 * across, or -ENOENT (no TD), -EINVAL (beyond the buffer), -EFAULT (the
 * buffer is not DMA-visible: counted; the bytes are lost).
 */
int64_t plat_usb_in_write(struct plat_usb_dev *d, unsigned ep_addr,
			 uint32_t off, const void *src, uint32_t len);

/*
 * End the head TD of IN endpoint @ep_addr with @actual bytes and
 * @status: it leaves the ring now; its event reaches the event ring when
 * the IN link has carried everything written so far, plus
 * xfer_overhead_ns.  Returns that time (ns), or -ENOENT / -EINVAL.
 */
int64_t plat_usb_in_complete(struct plat_usb_dev *d, unsigned ep_addr,
			    uint32_t actual, int status);

/* Time (ns, rounded up) at which the IN direction is idle. */
sim_time_t plat_usb_in_link_free(const struct plat_usb_hc *hc);

/* ----- OUT endpoints (device side) ----- */

/* The device can take data again on OUT endpoint @ep_addr after a NAK:
 * the head TD is offered again (its data already crossed the link). */
void plat_usb_out_resume(struct plat_usb_dev *d, unsigned ep_addr);

/* ----- host side ----- */

/*
 * Queue a TD of @len bytes at bus address @dma on endpoint @ep_addr of
 * @d, tagged @ctx (a doorbell).  IN: the device's in_doorbell runs.  OUT:
 * the data is read from memory and crosses the link, then out() runs.
 * Returns 0, -EINVAL (endpoint not enabled, @len 0 on IN), -ENODEV (slot
 * detached), -ENOMEM.
 */
int plat_usb_submit(struct plat_usb_dev *d, unsigned ep_addr, uint64_t dma,
		   uint32_t len, void *ctx);

/*
 * Take the TD tagged @ctx back (Stop Endpoint / Set TR Dequeue Pointer).
 * Returns 1 if it had not finished (removed from its ring: it never
 * completes; IN: *@actual = bytes the device had written, and the device
 * was told through in_cancel when it was the head), 0 if it had finished
 * (its event is removed from the ring or from the link; *@actual and
 * *@status are its result), -ENOENT if no TD has that tag (its event was
 * already taken).
 */
int plat_usb_cancel(struct plat_usb_dev *d, unsigned ep_addr, void *ctx,
		   uint32_t *actual, int *status);

/*
 * A control transfer on endpoint 0 (synchronous, no link time): the
 * device's control handler runs now.  Returns the data-stage bytes,
 * -EPIPE (stall or no handler), -ENODEV (detached).
 */
int plat_usb_control(struct plat_usb_dev *d, const struct plat_usb_setup *setup,
		    uint8_t *data);

/* Take the oldest event off the ring into @ev.  Returns true, or false
 * when the ring is empty. */
bool plat_usb_event_next(struct plat_usb_hc *hc, struct plat_usb_event *ev);

/* The host's handler acknowledged the interrupt and updated the dequeue
 * pointer (IMAN.IP cleared, ERDP.EHB cleared): the next assertion may
 * follow, no earlier than imod_ns after the previous one. */
void plat_usb_irq_ack(struct plat_usb_hc *hc);

/* Events on the ring now. */
static inline unsigned plat_usb_events_pending(const struct plat_usb_hc *hc)
{
	return hc->ev_count;
}

#endif /* RXSCALE_PLAT_USB_H */
