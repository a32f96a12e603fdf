// SPDX-License-Identifier: MIT
/*
 * rtlm_dev.c - one chip instance: creation, ChipCmd reset, the PHY's link
 * state, and the public accessors (ChipCmd reset: rtlm_reset.c; guest
 * errors: rtlm_err.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

void rtlm_params_default(struct rtlm_params *p)
{
	static const uint8_t mac[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x01 };

	memset(p, 0, sizeof(*p));
	memcpy(p->mac, mac, sizeof(mac));
	p->link_up = true;
	p->an_ns = 2000000000;
	p->rx_proc_ns = 300;
	p->dma_write_ns = 400;
	p->dma_read_ns = 800;
	p->tx_proc_ns = 200;
	p->rx_fifo_frames = 512;
	p->rx_fcs = true;
	p->faults.ownbit_delay_ns = 2000;
}

/*
 * The function's configuration-space identity from the chip row: 10ec and
 * the row's PCI device ID, class 020000 (Ethernet controller), revision 0
 * (the chip rows carry no revision ID).  [I] Subsystem 10ec:0123 is what
 * lspci shows on Realtek's own RTL8125 boards; other vendors' boards carry
 * their own.  [I] PCIe link x1 at the generation the line rate needs:
 * RTL8125 (2.5G) PCIe 2.x, RTL8126 (5G) 3.x, RTL8127 (10G) 4.x.
 */
static int rtlm_cfg_id(struct rtlm_dev *dev)
{
	const struct rtl_chip_info *chip = dev->chip;
	struct plat_pci_cfg_id id = {
		.revision = 0,
		.class_code = 0x020000,
		.subsys_vendor = RTL_PCI_VENDOR_REALTEK,
		.subsys_device = 0x0123,
		.link_gen = chip->caps->speed_mbps > 5000 ? 4 :
			    chip->caps->speed_mbps > 2500 ? 3 : 2,
		.link_width = 1,
	};
	int rc = plat_pci_set_cfg_id(&dev->pci, &id);

	if (!rc && dev->pci.msix_nvec)
		rc = plat_pci_set_msix_bar(&dev->pci, RTL_BAR_MSIX, RTL_BAR_MSIX_SIZE,
					  RTL_MSIX_TABLE_OFF, chip->caps->msix_pba_off);
	return rc;
}

/* A function-level reset (plat_pci_function_reset): what ChipCmd RST
 * resets (registers but sticky rows, rings, RX pipeline, TX, interrupt
 * and moderation state, a tally dump); the PHY and the link are not the
 * PCI function's and stay. */
static void rtlm_function_reset(void *opaque)
{
	rtlm_reset(opaque);
}

struct rtlm_dev *rtlm_create(struct sim_host *host, struct plat_mem *mem,
			     const struct rtl_chip_info *chip,
			     const struct rtlm_params *p)
{
	struct rtlm_dev *dev;
	unsigned total = 0;
	char name[32];

	if (!host || !mem || !chip)
		return NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	if (p)
		dev->p = *p;
	else
		rtlm_params_default(&dev->p);
	dev->host = host;
	dev->sim = host->sim;
	dev->mem = mem;
	dev->chip = chip;
	for (unsigned ri = 0; ri < RTL_RI__COUNT; ri++) {
		dev->reg_base[ri] = total;
		total += rtl_regs[ri].n;
	}
	dev->regs = calloc(total, sizeof(*dev->regs));
	dev->tx_buf = malloc(RTLM_TSO_MAX + 4);
	dev->tx_seg = malloc(RTLM_TX_MAX + 4);
	snprintf(name, sizeof(name), "%s", chip->name);
	if (!dev->regs || !dev->tx_buf || !dev->tx_seg ||
	    plat_pci_dev_init(&dev->pci, host, mem, name, RTL_PCI_VENDOR_REALTEK,
			     chip->caps->pci_device,
			     chip->caps->msix_max > PLAT_PCI_MSIX_MAX ?
			     PLAT_PCI_MSIX_MAX : chip->caps->msix_max)) {
		free(dev->regs);
		free(dev->tx_buf);
		free(dev->tx_seg);
		free(dev);
		return NULL;
	}
	if (plat_pci_set_bar_io(&dev->pci, RTL_BAR_IO, RTL_BAR_IO_SIZE) ||
	    plat_pci_set_bar(&dev->pci, RTL_BAR_MMIO, RTL_BAR_SIZE, &rtlm_bar_ops, dev) ||
	    rtlm_cfg_id(dev)) {
		plat_pci_dev_fini(&dev->pci);
		free(dev->regs);
		free(dev->tx_buf);
		free(dev->tx_seg);
		free(dev);
		return NULL;
	}
	dev->wire_up = dev->link_up = dev->p.link_up;
	dev->wire_mbps = dev->link_mbps =
		dev->p.link_mbps && dev->p.link_mbps <= chip->caps->speed_mbps ?
		dev->p.link_mbps : chip->caps->speed_mbps;
	if (rtlm_ocp_init(dev) || rtlm_phy_init(dev)) {
		rtlm_ocp_fini(dev);
		rtlm_phy_fini(dev);
		plat_pci_dev_fini(&dev->pci);
		free(dev->regs);
		free(dev->tx_buf);
		free(dev->tx_seg);
		free(dev);
		return NULL;
	}
	rtlm_tx_init(dev);
	rtlm_irq_init(dev);
	rtlm_wb_init(dev);
	rtlm_tally_init(dev);
	/* power-on: every row, sticky ones included, to its reset value */
	rtlm_regs_reset(dev);
	rtlm_reset(dev);
	dev->st.resets = 0;
	plat_pci_set_reset_fn(&dev->pci, rtlm_function_reset, dev);
	return dev;
}

void rtlm_destroy(struct rtlm_dev *dev)
{
	if (!dev)
		return;
	rtlm_rx_fini(dev);
	rtlm_tx_reset(dev);
	rtlm_moder_reset(dev);
	rtlm_tally_reset(dev);
	rtlm_wb_fini(dev);
	rtlm_phy_fini(dev);
	sim_purge(dev->sim);
	rtlm_rss_fini(dev);
	rtlm_ocp_fini(dev);
	rtlm_unknown_fini(dev);
	plat_pci_dev_fini(&dev->pci);
	free(dev->regs);
	free(dev->tx_buf);
	free(dev->tx_seg);
	free(dev);
}

struct plat_pci_dev *rtlm_pci(struct rtlm_dev *dev)
{
	return &dev->pci;
}

const struct rtl_chip_info *rtlm_chip(const struct rtlm_dev *dev)
{
	return dev->chip;
}

int rtlm_set_link(struct rtlm_dev *dev, bool up, uint32_t mbps)
{
	static const uint32_t ok[] = { 10, 100, 1000, 2500, 5000, 10000 };
	bool valid = false;

	if (!mbps)
		mbps = dev->chip->caps->speed_mbps;
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		valid |= ok[i] == mbps;
	if (!valid || mbps > dev->chip->caps->speed_mbps)
		return -EINVAL;
	dev->wire_up = up;
	dev->wire_mbps = mbps;
	rtlm_phy_link_update(dev);
	return 0;
}

void rtlm_set_wire_tx(struct rtlm_dev *dev, rtlm_wire_tx_fn fn, void *arg)
{
	dev->wire_tx = fn;
	dev->wire_arg = arg;
}

struct rtlm_faults *rtlm_faults(struct rtlm_dev *dev)
{
	return &dev->p.faults;
}

const struct rtlm_stats *rtlm_stats(const struct rtlm_dev *dev)
{
	return &dev->st;
}

uint64_t rtlm_rx_dropped(const struct rtlm_dev *dev)
{
	const struct rtlm_stats *s = &dev->st;
	uint64_t n = s->rx_link_down + s->rx_disabled + s->rx_filtered +
		     s->rx_too_long + s->rx_fifo_over + s->rx_reset;

	for (unsigned q = 0; q < dev->chip->caps->rx_queues; q++)
		n += s->rx_missed[q] + s->rx_dma_err[q] + s->rx_buf_small[q];
	return n;
}
