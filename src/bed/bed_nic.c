// SPDX-License-Identifier: MIT
/*
 * bed_nic.c - the testbed's two NIC kinds (see bed_world.h):
 * a PCIe chip (rtlm + r8169) and a USB adapter (xHCI + rtlu + r8152).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bed/bed_util.h"
#include "bed/bed_world.h"
#include "ethtool/ethtool_cmd.h"
#include "hw/rtl_whatif.h"
#include "kern/kern_modules.h"

/* ----- PCIe: RTL8125/8126/8127 on the r8169-style driver ----- */

static int pci_up(struct bed_world *w)
{
	struct rtlm_params mp;
	int rc;

	rtlm_params_default(&mp);
	mp.faults.ownbit_erratum = w->scn.ownbit_erratum;
	mp.faults.ownbit_every = w->scn.fault.ownbit_every;
	if (w->scn.fault.ownbit_delay_ns)
		mp.faults.ownbit_delay_ns = w->scn.fault.ownbit_delay_ns;
	/* the driver never reads the FCS: skip computing it (docs/run.md) */
	mp.rx_fcs = false;
	mp.clock = w->clk_nic;
	/* the peer's frames carry correct checksums by construction; a
	 * capture's are verified (docs/run.md) */
	mp.rx_csum_trusted = !w->scn.pcap[0];
	w->m = rtlm_create(w->host, &w->k.mem, w->chip, &mp);
	if (!w->m) {
		bed_err("cannot create the device model");
		return -1;
	}
	kern_pci_dev_init(&w->pdev, rtlm_pci(w->m), "0000:01:00.0");
	/* the kernel's default RSS queue count, which the driver starts
	 * with (0: the host's CPUs) */
	w->k.default_rss_queues = w->scn.rx_queues;
	/* the driver finds a what-if chip's row through its lookup's hook */
	rtl_chip_lookup_extra = rtl_chip_lookup_whatif;
	rc = kern_pci_probe(kmod_r8169_pci_driver, &w->pdev);
	if (rc) {
		bed_err("driver probe failed: %s (%s)", strerror(-rc), w->k.last_log);
		return -1;
	}
	w->dev = pci_get_drvdata(&w->pdev);
	w->tp = netdev_priv(w->dev);
	/* nic.ownbit_workaround 0 or 1: a what-if against the chip row the
	 * driver follows (it has no module parameter), set in its private
	 * state between probe and open */
	if (w->scn.ownbit_workaround >= 0)
		w->tp->recheck_ownbit = w->scn.ownbit_workaround > 0;
	return 0;
}

static void pci_down(struct bed_world *w)
{
	if (w->dev)
		kern_pci_remove(kmod_r8169_pci_driver, &w->pdev);
	w->dev = NULL;
	if (w->m)
		rtlm_destroy(w->m);
	w->m = NULL;
}

static const char *pci_chip_name(const struct bed_world *w)
{
	return w->chip->name;
}

static uint32_t pci_mbps(const struct bed_world *w)
{
	return w->chip->caps->speed_mbps;
}

static unsigned pci_nqueues(const struct bed_world *w)
{
	return w->tp->num_rx_queues;
}

static bool pci_rss_on(const struct bed_world *w)
{
	return w->tp->rss_on;
}

static void pci_queue(const struct bed_world *w, unsigned q, u64 *packets,
		      u64 *bytes, u64 *drops)
{
	struct rtl_rx_snap st;

	rtl_rx_stats_fetch(&w->tp->rx_ring[q], &st);
	*packets = st.packets;
	*bytes = st.bytes;
	*drops = st.drops;
}

static unsigned pci_drop_reasons(const struct bed_world *w, struct bed_drop_reason *d)
{
	const struct rtlm_stats *s = rtlm_stats(w->m);
	u64 missed = 0, dma = 0, small = 0, err = 0, alloc = 0, len = 0, flushed = 0;
	unsigned n = 0;

	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++) {
		missed += s->rx_missed[q];
		dma += s->rx_dma_err[q];
		small += s->rx_buf_small[q];
		err += u64_stats_read(&w->tp->rx_ring[q].stats.errors);
		alloc += u64_stats_read(&w->tp->rx_ring[q].stats.alloc_fail);
		len += u64_stats_read(&w->tp->rx_ring[q].stats.length);
		flushed += u64_stats_read(&w->tp->rx_ring[q].stats.flushed);
	}
	d[n++] = (struct bed_drop_reason){ "rx_missed", missed };
	d[n++] = (struct bed_drop_reason){ "rx_dma_error", dma };
	d[n++] = (struct bed_drop_reason){ "rx_buffer_too_small", small };
	d[n++] = (struct bed_drop_reason){ "rx_too_long", s->rx_too_long };
	d[n++] = (struct bed_drop_reason){ "rx_fifo_overflow", s->rx_fifo_over };
	d[n++] = (struct bed_drop_reason){ "rx_filtered", s->rx_filtered };
	d[n++] = (struct bed_drop_reason){ "rx_link_down", s->rx_link_down };
	d[n++] = (struct bed_drop_reason){ "rx_disabled", s->rx_disabled };
	d[n++] = (struct bed_drop_reason){ "rx_reset", s->rx_reset };
	d[n++] = (struct bed_drop_reason){ "driver_rx_errors", err };
	d[n++] = (struct bed_drop_reason){ "driver_skb_alloc", alloc };
	d[n++] = (struct bed_drop_reason){ "driver_length", len };
	d[n++] = (struct bed_drop_reason){ "driver_flushed", flushed };
	d[n++] = (struct bed_drop_reason){ "no_handler", w->dev->core_stats.rx_nohandler };
	return n;
}

static void pci_set_link(struct bed_world *w, bool up)
{
	rtlm_set_link(w->m, up, 0);
}

/* Frames in the device's pipeline, and frames it wrote into the rings
 * that the driver has not taken yet (a stalled queue holds them). */
static u64 pci_model_inflight(const struct bed_world *w)
{
	const struct rtlm_stats *s = rtlm_stats(w->m);
	u64 ok = 0, took = 0;

	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++) {
		ok += s->rx_ok[q];
		took += u64_stats_read(&w->tp->rx_ring[q].stats.packets) +
			u64_stats_read(&w->tp->rx_ring[q].stats.drops);
	}
	return s->rx_inflight + ok - took;
}

static u64 pci_tx_inflight(const struct bed_world *w, u64 *drops)
{
	const struct rtlm_stats *s = rtlm_stats(w->m);
	u64 took = 0, out = 0;

	*drops = s->tx_link_down;
	for (unsigned q = 0; q < R8169_MAX_TX_QUEUES; q++) {
		const struct rtl_tx_ring *r = &w->tp->tx_ring[q];

		/* reclaimed after the device sent them, or still in the ring */
		took += u64_stats_read(&r->stats.packets);
		for (unsigned i = r->dirty_tx; r->skb && i != r->cur_tx; i++)
			took += r->skb[i % r->num_desc] != NULL;
		*drops += u64_stats_read(&r->stats.drops);
	}
	for (unsigned q = 0; q < RTL_MAX_TX_QUEUES; q++)
		out += s->tx_ok[q];
	return took - out;
}

static struct load_wire_nic pci_port(struct bed_world *w)
{
	return load_wire_nic_rtlm(w->m);
}

/* Interrupts the host took for the NIC: every vector's count (MSI-X),
 * or the one MSI/INTx line's. */
static u64 pci_interrupts(const struct bed_world *w)
{
	u64 n = 0;

	if (w->pdev.msix_enabled)
		for (unsigned v = 0; v < w->pdev.nvec; v++)
			n += kern_irq_count(w->pdev.vec_irq[v]);
	else if (w->pdev.irq)
		n = kern_irq_count(w->pdev.irq);
	return n;
}

static const struct bed_nic_ops pci_nic = {
	.bus = "pci",
	.up = pci_up,
	.down = pci_down,
	.chip_name = pci_chip_name,
	.mbps = pci_mbps,
	.nqueues = pci_nqueues,
	.rss_on = pci_rss_on,
	.queue = pci_queue,
	.drop_reasons = pci_drop_reasons,
	.model_inflight = pci_model_inflight,
	.tx_inflight = pci_tx_inflight,
	.port = pci_port,
	.interrupts = pci_interrupts,
	.set_link = pci_set_link,
};

/* ----- USB: RTL8157/8159 on the r8152-style driver, behind xHCI ----- */

static int usb_up(struct bed_world *w)
{
	struct plat_usb_params hp;
	struct rtlu_params up;
	int rc;

	plat_usb_params_default(&hp);
	hp.link_mbps = w->scn.usb_link_mbps;
	hp.imod_ns = w->scn.usb_imod_ns;
	hp.clock = w->clk_xhci;
	w->hc = plat_usb_hc_create(w->host, &w->k.mem, &hp);
	if (!w->hc) {
		bed_err("cannot create the xHCI model");
		return -1;
	}
	rtlu_params_default(&up);
	/* the driver never reads the FCS: skip computing it (docs/run.md) */
	up.rx_fcs = false;
	up.clock = w->clk_nic;
	w->u = rtlu_create(w->host, &w->k.mem, w->hc, w->uchip, &up);
	if (!w->u) {
		bed_err("cannot create the USB device model");
		return -1;
	}
	kern_usb_dev_init(&w->udev, &w->intf, rtlu_usb(w->u), "2-1");
	rc = kern_usb_probe(kmod_r8152_usb_driver, &w->intf);
	if (rc) {
		bed_err("driver probe failed: %s (%s)", strerror(-rc), w->k.last_log);
		return -1;
	}
	w->usb_bound = true;
	w->dev = r8152_netdev(&w->intf);
	w->utp = netdev_priv(w->dev);
	/* usb.mitigation = off: the dropped RFC's 0xcf04 choice (r8152.h),
	 * no module parameter: set in the driver's state before open */
	w->utp->mitigation_off = w->scn.usb_mitigation_off;
	if (w->scn.usb_rx_usecs >= 0) {
		/* as a user sets it: ethtool -C eth0 rx-usecs N (microseconds) */
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "-C %s rx-usecs %d", w->dev->name,
			 w->scn.usb_rx_usecs);
		if (ethtool_cmd_run(w->dev, cmd, stdout, stderr)) {
			bed_err("usb.rx_usecs: ethtool %s failed", cmd);
			return -1;
		}
	}
	return 0;
}

static void usb_down(struct bed_world *w)
{
	if (w->usb_bound)
		kern_usb_disconnect(kmod_r8152_usb_driver, &w->intf);
	w->usb_bound = false;
	w->dev = NULL;
	if (w->u)
		rtlu_destroy(w->u);
	w->u = NULL;
	if (w->hc)
		plat_usb_hc_destroy(w->hc);
	w->hc = NULL;
}

static const char *usb_chip_name(const struct bed_world *w)
{
	return w->uchip->name;
}

static uint32_t usb_mbps(const struct bed_world *w)
{
	return w->uchip->speed_mbps;
}

static unsigned usb_nqueues(const struct bed_world *w)
{
	(void)w;
	return 1;
}

static bool usb_rss_on(const struct bed_world *w)
{
	(void)w;
	return false;
}

static void usb_queue(const struct bed_world *w, unsigned q, u64 *packets,
		      u64 *bytes, u64 *drops)
{
	struct r8152_stats t;

	(void)q;
	r8152_stats_fetch(w->utp, &t);
	*packets = t.rx_packets;
	*bytes = t.rx_bytes;
	*drops = t.rx_drops;
}

static unsigned usb_drop_reasons(const struct bed_world *w, struct bed_drop_reason *d)
{
	const struct rtlu_stats *s = rtlu_stats(w->u);
	struct r8152_stats t;
	unsigned n = 0;

	r8152_stats_fetch(w->utp, &t);

	d[n++] = (struct bed_drop_reason){ "rx_link_down", s->rx_link_down };
	d[n++] = (struct bed_drop_reason){ "rx_disabled", s->rx_disabled };
	d[n++] = (struct bed_drop_reason){ "rx_filtered", s->rx_filtered };
	d[n++] = (struct bed_drop_reason){ "rx_runt", s->rx_runt };
	d[n++] = (struct bed_drop_reason){ "rx_too_long", s->rx_too_long };
	d[n++] = (struct bed_drop_reason){ "rx_fifo_overflow", s->rx_fifo_over };
	d[n++] = (struct bed_drop_reason){ "rx_cancelled", s->rx_cancelled };
	d[n++] = (struct bed_drop_reason){ "rx_dma_error", s->rx_dma_err };
	d[n++] = (struct bed_drop_reason){ "rx_reset", s->rx_reset };
	d[n++] = (struct bed_drop_reason){ "rx_usb_xfer_error", s->rx_xfer_error };
	d[n++] = (struct bed_drop_reason){ "driver_skb_alloc", t.rx_alloc_fail };
	d[n++] = (struct bed_drop_reason){ "driver_length", t.rx_length };
	d[n++] = (struct bed_drop_reason){ "driver_runt", t.rx_runt };
	d[n++] = (struct bed_drop_reason){ "driver_purged", t.rx_purged };
	d[n++] = (struct bed_drop_reason){ "no_handler", w->dev->core_stats.rx_nohandler };
	return n;
}

static void usb_set_link(struct bed_world *w, bool up)
{
	rtlu_set_link(w->u, up, 0);
}

/* Frames in the adapter, and in transfers the driver has not parsed. */
static u64 usb_model_inflight(const struct bed_world *w)
{
	const struct rtlu_stats *s = rtlu_stats(w->u);
	struct r8152_stats t;

	r8152_stats_fetch(w->utp, &t);
	return s->rx_inflight + s->rx_delivered - (t.rx_packets + t.rx_drops);
}

static u64 usb_tx_inflight(const struct bed_world *w, u64 *drops)
{
	const struct rtlu_stats *s = rtlu_stats(w->u);
	const struct r8152 *tp = w->utp;
	struct r8152_stats t;
	u64 took;

	r8152_stats_fetch(tp, &t);
	/* queued, packed in a buffer in flight, or in a completed transfer */
	took = skb_queue_len(&tp->tx_queue) + t.tx_packets;
	for (unsigned i = 0; i < RTL8152_MAX_TX; i++)
		took += tp->tx_agg[i].skb_num;
	*drops = t.tx_drops + s->tx_dropped;
	return took - s->tx_frames - s->tx_dropped;
}

static int rtlu_port_rx(void *dev, const void *frame, size_t len)
{
	return rtlu_eth_rx(dev, frame, len);
}

static void rtlu_port_tx(void *dev, load_wire_rx_fn fn, void *arg)
{
	rtlu_set_wire_tx(dev, fn, arg);
}

static struct load_wire_nic usb_port(struct bed_world *w)
{
	return (struct load_wire_nic){ .dev = w->u, .eth_rx = rtlu_port_rx,
				       .set_wire_tx = rtlu_port_tx };
}

static u64 usb_interrupts(const struct bed_world *w)
{
	return w->hc->stats.irqs;
}

static const struct bed_nic_ops usb_nic = {
	.bus = "usb",
	.up = usb_up,
	.down = usb_down,
	.chip_name = usb_chip_name,
	.mbps = usb_mbps,
	.nqueues = usb_nqueues,
	.rss_on = usb_rss_on,
	.queue = usb_queue,
	.drop_reasons = usb_drop_reasons,
	.model_inflight = usb_model_inflight,
	.tx_inflight = usb_tx_inflight,
	.port = usb_port,
	.interrupts = usb_interrupts,
	.set_link = usb_set_link,
};

const struct rtl_chip_info *bed_pci_chip(const char *name)
{
	const struct rtl_chip_info *c = NULL;

	/* the last row of that name (several XIDs share one), as before */
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcasecmp(rtl_chips[i].name, name))
			c = &rtl_chips[i];
	for (unsigned i = 0; !c && i < rtl_whatif_chips_count; i++)
		if (!strcasecmp(rtl_whatif_chips[i].name, name))
			c = &rtl_whatif_chips[i];
	return c;
}

const struct bed_nic_ops *bed_nic_for_chip(const char *name)
{
	if (bed_pci_chip(name))
		return &pci_nic;
	for (unsigned i = 0; i < rtl_usb_chips_count; i++)
		if (!strcasecmp(rtl_usb_chips[i].name, name))
			return &usb_nic;
	return NULL;
}
