/* SPDX-License-Identifier: MIT */
/*
 * usb.h - the USB driver API subset (Linux include/linux/usb.h) that an
 * r8152-style driver is written against.
 *
 * Shape of the simulated USB stack (DESIGN.md s2, the seam):
 *
 *   driver --usb_submit_urb()--> kern/usb.c --> plat_usb (xHCI model:
 *   transfer rings, event ring, IMOD interrupt moderation, one MSI-X
 *   interrupter) --endpoint handlers--> device model (src/model/rtlu_*)
 *
 * A completed transfer becomes an xHCI event; the interrupter raises the
 * host interrupt no more often than its IMOD interval (default 40000 ns,
 * drivers/usb/host/xhci-pci.c imod_interval, research
 * usb-and-coalescing.md S19).  The hardirq handler (xhci_irq) drains the
 * event ring and queues each URB for giveback; givebacks run in softirq
 * context (the kernel's HCD_BH flag: xHCI gives URBs back from a BH), on
 * the CPU that took the interrupt, so URB completion cost lands in %soft
 * and, under load, in ksoftirqd.  urb->complete() runs there; it may
 * resubmit the URB and call napi_schedule().
 *
 * Transfer buffers are driver memory (kmalloc-like, or pages); the
 * simulated HCD maps them for DMA at submit time, so the device model only
 * ever sees bus addresses through plat_usb, never a driver pointer.
 *
 * Units: lengths in bytes, intervals and timeouts as Linux does (bInterval
 * as given; @timeout in ms), simulated times in ns.  Errors are -errno.
 */
#ifndef RXSCALE_KERN_USB_H
#define RXSCALE_KERN_USB_H

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/printk.h>

struct plat_usb_dev;     /* the platform's device slot (plat/plat_usb.h) */

enum usb_device_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW, USB_SPEED_FULL, USB_SPEED_HIGH,
	USB_SPEED_WIRELESS,
	USB_SPEED_SUPER,                /* 5 Gbit/s, Gen 1 */
	USB_SPEED_SUPER_PLUS,           /* 10 Gbit/s Gen 2x1 or 20 Gbit/s Gen 2x2 */
};

/* Device states (Linux enum usb_device_state, include/uapi/linux/usb/ch9.h;
 * the simulated bus knows attached-and-configured and gone). */
enum usb_device_state {
	USB_STATE_NOTATTACHED = 0,
	USB_STATE_ATTACHED,
	USB_STATE_POWERED,
	USB_STATE_RECONNECTING,
	USB_STATE_UNAUTHENTICATED,
	USB_STATE_DEFAULT,
	USB_STATE_ADDRESS,
	USB_STATE_CONFIGURED,
	USB_STATE_SUSPENDED,
};

/* One attached device (Linux struct usb_device subset). */
struct usb_device {
	struct device dev;              /* name: "2-1" */
	u16 idVendor, idProduct;        /* descriptor ids, e.g. 0bda:815a */
	enum usb_device_speed speed;
	unsigned int rx_lanes, tx_lanes;/* 2 on a Gen 2x2 (20 Gbit/s) link */
	struct plat_usb_dev *sim;        /* platform slot */
	/* USB_STATE_NOTATTACHED once unplugged: submits fail with -ENODEV */
	enum usb_device_state state;
};

/* The bound interface (Linux struct usb_interface subset). */
struct usb_interface {
	struct device dev;
	struct usb_device *udev;
	void *drvdata;
};

static inline struct usb_device *interface_to_usbdev(struct usb_interface *i)
{
	return i->udev;
}

static inline void usb_set_intfdata(struct usb_interface *i, void *d)
{
	i->drvdata = d;
}

static inline void *usb_get_intfdata(struct usb_interface *i)
{
	return i->drvdata;
}

struct usb_device_id {
	u16 idVendor, idProduct;
	unsigned long driver_info;
};

#define USB_DEVICE(v, p) .idVendor = (v), .idProduct = (p)

/* A USB interface driver (Linux struct usb_driver subset). */
struct usb_driver {
	const char *name;
	const struct usb_device_id *id_table;   /* ends with idVendor 0 */
	int (*probe)(struct usb_interface *intf, const struct usb_device_id *id);
	void (*disconnect)(struct usb_interface *intf);
};

/* The module's one driver (usb_register in Linux), reachable as
 * kmod_<module>_usb_driver: module_pci_driver() in <linux/pci.h>. */
#define module_usb_driver(drv) KERN_MODULE_DRIVER(__KBUILD_MODNAME, usb, drv)

/*
 * Bind @drv to @intf as the USB core would: match the device's
 * vendor:product in the id table and call probe; a failed probe's managed
 * resources (devm_*) on @intf->dev are released.  Returns probe's result
 * or -ENODEV when no entry matches.
 */
int kern_usb_probe(struct usb_driver *drv, struct usb_interface *intf);

/* Unbind: mark the device disconnected, call disconnect(), release the
 * managed resources of @intf->dev. */
void kern_usb_disconnect(struct usb_driver *drv, struct usb_interface *intf);

/* Wrap platform slot @sim (already attached to a plat_usb host controller
 * by the device model) as a usb_device + usb_interface named @name. */
void kern_usb_dev_init(struct usb_device *udev, struct usb_interface *intf,
		       struct plat_usb_dev *sim, const char *name);

/* ---- pipes: endpoint number, direction and type packed as in Linux. */
#define PIPE_ISOCHRONOUS 0u
#define PIPE_INTERRUPT 1u
#define PIPE_CONTROL 2u
#define PIPE_BULK 3u
#define USB_DIR_OUT 0x00u
#define USB_DIR_IN 0x80u

static inline unsigned int kern_usb_pipe(unsigned type, unsigned ep, bool in)
{
	return (type << 30) | ((ep & 0xfu) << 15) | (in ? USB_DIR_IN : 0u);
}

#define usb_sndctrlpipe(d, ep) kern_usb_pipe(PIPE_CONTROL, (ep), false)
#define usb_rcvctrlpipe(d, ep) kern_usb_pipe(PIPE_CONTROL, (ep), true)
#define usb_sndbulkpipe(d, ep) kern_usb_pipe(PIPE_BULK, (ep), false)
#define usb_rcvbulkpipe(d, ep) kern_usb_pipe(PIPE_BULK, (ep), true)
#define usb_rcvintpipe(d, ep) kern_usb_pipe(PIPE_INTERRUPT, (ep), true)

static inline unsigned usb_pipetype(unsigned int pipe) { return pipe >> 30; }
static inline unsigned usb_pipeendpoint(unsigned int pipe)
{
	return (pipe >> 15) & 0xfu;
}
static inline bool usb_pipein(unsigned int pipe)
{
	return (pipe & USB_DIR_IN) != 0;
}

/* ---- URBs */
struct urb;
typedef void (*usb_complete_t)(struct urb *urb);

/* Linux struct urb subset.  Fields above "private" are the driver's. */
struct urb {
	struct usb_device *dev;
	unsigned int pipe;
	void *transfer_buffer;
	u32 transfer_buffer_length;     /* bytes */
	u32 actual_length;              /* bytes moved, set before complete() */
	int status;                     /* 0, -EINPROGRESS while submitted,
	                                 * -ENOENT killed, -ECONNRESET unlinked,
	                                 * -ESHUTDOWN device gone, -EPROTO,
	                                 * -EOVERFLOW (babble) */
	int interval;                   /* interrupt URBs: bInterval */
	usb_complete_t complete;
	void *context;
	/* private to kern/usb.c and the HCD */
	bool submitted;                 /* owned by the HCD until giveback */
	int reject;                     /* >0 while usb_kill_urb() holds it */
	dma_addr_t dma;                 /* mapping of transfer_buffer */
	struct urb *hcd_next;           /* HCD queue link */
	u64 submit_ns;                  /* when it was queued */
};

/* Allocate a zeroed URB (@iso_packets must be 0).  NULL on failure or
 * when the kern->fault.urb_fail_nth knob fires. */
struct urb *usb_alloc_urb(int iso_packets, gfp_t gfp);

/* Free an URB that is not submitted (a submitted one is logged and
 * counted in kern->warn.other, then killed first). */
void usb_free_urb(struct urb *urb);

static inline void usb_fill_bulk_urb(struct urb *urb, struct usb_device *dev,
				     unsigned int pipe, void *buf, int len,
				     usb_complete_t complete, void *context)
{
	urb->dev = dev;
	urb->pipe = pipe;
	urb->transfer_buffer = buf;
	urb->transfer_buffer_length = (u32)len;
	urb->complete = complete;
	urb->context = context;
}

static inline void usb_fill_int_urb(struct urb *urb, struct usb_device *dev,
				    unsigned int pipe, void *buf, int len,
				    usb_complete_t complete, void *context,
				    int interval)
{
	usb_fill_bulk_urb(urb, dev, pipe, buf, len, complete, context);
	urb->interval = interval;
}

/*
 * Queue @urb on its endpoint.  From any context (the HCD work is charged
 * to the caller as cost usb_submit).  Bulk and interrupt pipes only
 * (control goes through usb_control_msg(); isochronous is not modelled).
 * Returns 0, -EINVAL (no buffer, zero length on an IN pipe, bad pipe
 * type, no such endpoint), -EBUSY (already submitted), -ENODEV (device
 * disconnected), -EPERM (being killed), -ENOMEM (mapping failed, or the
 * kern->fault.dma_fail_nth knob).
 */
int usb_submit_urb(struct urb *urb, gfp_t gfp);

/*
 * Cancel @urb and wait: if it was submitted it is given back (complete()
 * runs, synchronously, in the caller's context) and cannot be resubmitted
 * until usb_kill_urb() returns.  The status is -ENOENT if the controller
 * had not finished it (IN: actual_length = bytes the device had written),
 * else the status it finished with (it was crossing the link, on the event
 * ring or waiting for its BH giveback; as in Linux, a URB that completed
 * before the kill keeps its result).  No effect on an URB that is not
 * submitted, including from inside its own complete().
 */
void usb_kill_urb(struct urb *urb);

/* Asynchronous cancel: given back later, in BH on the calling CPU, with
 * -ECONNRESET (or with its own result if it had already completed).
 * Returns 0, or -EIDRM when the URB is not submitted. */
int usb_unlink_urb(struct urb *urb);

/*
 * A control transfer (vendor register access: r8152 uses request 0x05,
 * type 0xc0 to read and 0x40 to write, wValue = address, wIndex =
 * MCU type | byte enables; research usb-and-coalescing.md s1).
 * Synchronous in Linux (it sleeps); here it completes at once in
 * simulated time and charges cost usb_ctrl to the calling context, an
 * approximation documented in docs/simulator.md.  @data is @size bytes
 * (read into / written from).  Returns the bytes transferred or -errno:
 * -ENODEV (disconnected), -EPIPE (the device stalled the request),
 * -EINVAL.
 */
int usb_control_msg(struct usb_device *dev, unsigned int pipe, u8 request,
		    u8 requesttype, u16 value, u16 index, void *data,
		    u16 size, int timeout);

#endif /* RXSCALE_KERN_USB_H */
