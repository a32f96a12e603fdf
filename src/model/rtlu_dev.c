/* SPDX-License-Identifier: MIT */
/*
 * rtlu_dev.c - the RTL8157/RTL8159 adapter instance: creation, the USB
 * slot and its endpoints, link state, counters.  Guest errors are
 * rtlu_err.c's, the interrupt endpoint rtlu_intr.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rtlu_priv.h"

#define EP_INTR (RTLU_EP_INTR_IN | PLAT_USB_DIR_IN)

void rtlu_params_default(struct rtlu_params *p)
{
	static const uint8_t mac[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x01 };

	memset(p, 0, sizeof(*p));
	memcpy(p->mac, mac, 6);
	p->link_up = true;
	p->rx_proc_ns = 300;
	p->rx_fifo_bytes = 65536;
	p->rx_fcs = true;
	p->tx_proc_ns = 200;
	p->tx_fifo_bytes = 65536;
}

static const struct plat_usb_dev_ops rtlu_usb_ops = {
	.control = rtlu_control,
	.in_doorbell = rtlu_rx_doorbell,
	.in_cancel = rtlu_rx_cancel,
	.out = rtlu_bulk_out,
};

static bool speed_ok(const struct rtlu_dev *dev, uint32_t mbps)
{
	static const uint32_t ok[] = { 10, 100, 1000, 2500, 5000, 10000 };

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (ok[i] == mbps)
			return mbps <= dev->chip->speed_mbps;
	return false;
}

struct rtlu_dev *rtlu_create(struct sim_host *host, struct plat_mem *mem,
			     struct plat_usb_hc *hc,
			     const struct rtl_usb_chip_info *chip,
			     const struct rtlu_params *p)
{
	struct rtlu_params def;
	struct rtlu_dev *dev;

	if (!p) {
		rtlu_params_default(&def);
		p = &def;
	}
	if (!host || !mem || !hc || !chip || !chip->rx_buf_size ||
	    (p->link_mbps && p->link_mbps > chip->speed_mbps))
		return NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->scratch = malloc(RTLU_DESC + RTLU_MAX_FRAME + RTLU_FCS_LEN);
	if (!dev->scratch) {
		free(dev);
		return NULL;
	}
	dev->host = host;
	dev->mem = mem;
	dev->hc = hc;
	dev->chip = chip;
	dev->p = *p;
	dev->link_up = p->link_up;
	dev->link_mbps = p->link_mbps ? p->link_mbps : chip->speed_mbps;
	if (!speed_ok(dev, dev->link_mbps) ||
	    plat_usb_dev_init(&dev->usb, hc, chip->name, chip->vendor,
			     chip->product, &rtlu_usb_ops, dev)) {
		free(dev->scratch);
		free(dev);
		return NULL;
	}
	plat_usb_ep_enable(&dev->usb, RTLU_EP_BULK_IN | PLAT_USB_DIR_IN,
			  PLAT_USB_EP_BULK, hc->params.max_packet, 0);
	plat_usb_ep_enable(&dev->usb, RTLU_EP_BULK_OUT, PLAT_USB_EP_BULK,
			  hc->params.max_packet, 0);
	plat_usb_ep_enable(&dev->usb, EP_INTR, PLAT_USB_EP_INT,
			  RTLU_INTR_BUFSIZE, RTLU_INTR_INTERVAL);
	rtlu_rx_init(dev);
	rtlu_tx_init(dev);
	rtlu_intr_init(dev);
	rtlu_regs_reset(dev);
	return dev;
}

void rtlu_destroy(struct rtlu_dev *dev)
{
	if (!dev)
		return;
	rtlu_rx_fini(dev);
	rtlu_tx_fini(dev);
	rtlu_intr_fini(dev);
	plat_usb_dev_fini(&dev->usb);
	sim_purge(dev->host->sim);
	free(dev->scratch);
	free(dev);
}

struct plat_usb_dev *rtlu_usb(struct rtlu_dev *dev)
{
	return dev ? &dev->usb : NULL;
}

const struct rtl_usb_chip_info *rtlu_chip(const struct rtlu_dev *dev)
{
	return dev ? dev->chip : NULL;
}

void rtlu_set_wire_tx(struct rtlu_dev *dev, rtlu_wire_tx_fn fn, void *arg)
{
	dev->wire_tx = fn;
	dev->wire_arg = arg;
}

int rtlu_set_link(struct rtlu_dev *dev, bool up, uint32_t mbps)
{
	bool changed;

	if (!mbps)
		mbps = dev->chip->speed_mbps;
	if (!speed_ok(dev, mbps))
		return -EINVAL;
	changed = up != dev->link_up;
	dev->link_up = up;
	dev->link_mbps = mbps;
	rtlu_phy_update(dev);
	if (changed) {
		dev->intr_pending = true;
		rtlu_intr_kick(dev);
	}
	return 0;
}

struct rtlu_faults *rtlu_faults(struct rtlu_dev *dev)
{
	return &dev->p.faults;
}

const struct rtlu_stats *rtlu_stats(const struct rtlu_dev *dev)
{
	return &dev->st;
}

uint64_t rtlu_rx_dropped(const struct rtlu_dev *dev)
{
	const struct rtlu_stats *s = &dev->st;

	return s->rx_link_down + s->rx_disabled + s->rx_filtered +
	       s->rx_too_long + s->rx_runt + s->rx_fifo_over + s->rx_cancelled +
	       s->rx_dma_err + s->rx_reset + s->rx_xfer_error;
}
