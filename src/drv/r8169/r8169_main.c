// SPDX-License-Identifier: MIT
/*
 * r8169_main.c - probe by chip table, open/close, hardware start.
 *
 * Where the upstream driver and Realtek's differ, this follows what keeps
 * the driver correct and small:
 *  - the chip is identified from TxConfig's XID through one table row
 *    (upstream's approach) and unknown chips are refused, instead of the
 *    vendor's "guess the closest version" fallback;
 *  - the RX queue count can change while running (ethtool -L), re-planning
 *    NAPI, IRQs and rings through close/open; the vendor fixes it at
 *    probe;
 *  - RX buffers are copied into fresh skbs and recycled in place, as
 *    upstream does, so a ring never runs dry because of allocation
 *    failure (the frame is dropped and counted instead).
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#include "r8169.h"

/* ---- hardware start ---- */

static void rtl_hw_reset(struct rtl8169_private *tp)
{
	u8 v;

	rtl_w8(tp, RTL_ChipCmd, RTL_CMD_RST);
	/* K rtl_hw_reset: poll until RST self-clears, 100 times 100 us */
	if (readb_poll_timeout_atomic(tp->mmio_addr + RTL_ChipCmd, v,
				      !(v & RTL_CMD_RST), 100, 10000))
		netdev_err(tp->dev, "chip reset did not complete\n");
}

/**
 * rtl_hw_start() - program the chip from the driver's state and start it
 * @tp: the device
 *
 * Program rings, RX configuration, RSS, moderation and interrupts, and
 * start the receiver and transmitter.
 *
 * Context: process, RTNL; NAPI enabled first.
 */
void rtl_hw_start(struct rtl8169_private *tp)
{
	u32 rxcfg;
	u8 d8;

	rtl_hw_reset(tp);
	rtl_w8(tp, RTL_Cfg9346, RTL_CFG9346_UNLOCK);
	rtl_w8(tp, RTL_INT_CFG0_8125, tp->v2_irq ? RTL_INT_CFG0_ENABLE : 0);
	rtl_w16(tp, RTL_INT_CFG1_8125, 0);
	for (unsigned int q = 0; q < tp->num_rx_queues; q++) {
		rtl_w32(tp, RTL_RX_DESC_HIGH(q), upper_32_bits(tp->rx_ring[q].desc_dma));
		rtl_w32(tp, RTL_RX_DESC_LOW(q), lower_32_bits(tp->rx_ring[q].desc_dma));
	}
	for (unsigned int q = 0; q < tp->num_tx_queues; q++) {
		rtl_w32(tp, RTL_TX_DESC_HIGH(q), upper_32_bits(tp->tx_ring[q].desc_dma));
		rtl_w32(tp, RTL_TX_DESC_LOW(q), lower_32_bits(tp->tx_ring[q].desc_dma));
	}
	rtl_w16(tp, RTL_RxMaxSize, R8169_RX_BUF_SIZE);
	rtl_w16(tp, RTL_CPlusCmd, RTL_CPCMD_RX_CSUM | RTL_CPCMD_RX_VLAN);
	/* K rtl_init_rxcfg for VER_63+: fetch 8, DMA burst 7, pause slot;
	 * VLAN strip; accept mine, broadcast, multicast (+ all if promisc)
	 */
	rxcfg = (8u << RTL_RXCFG_FETCH_SHIFT) | (7u << RTL_RXCFG_DMA_SHIFT) |
		RTL_RXCFG_PAUSE_SLOT | RTL_RXCFG_VLAN_INNER | RTL_RXCFG_VLAN_OUTER |
		RTL_RXCFG_APM | RTL_RXCFG_AB | RTL_RXCFG_AM;
	if (tp->dev->flags & IFF_PROMISC)
		rxcfg |= RTL_RXCFG_AAP;
	/* the descriptor type: the register bits of its row */
	rxcfg = (rxcfg & ~RTL_RX_DESC_SEL_RXCFG) | tp->rx_ops->fmt->rxcfg_val;
	rtl_w32(tp, RTL_RxConfig, rxcfg);
	d8 = rtl_r8(tp, RTL_CFG_D8);
	d8 = (d8 & (u8)~RTL_RX_DESC_SEL_CFG_D8) | tp->rx_ops->fmt->cfg_d8_val;
	rtl_w8(tp, RTL_CFG_D8, d8);
	rtl_w32(tp, RTL_TxConfig, (7u << RTL_TXCFG_DMA_SHIFT) | (3u << RTL_TXCFG_IFG_SHIFT));
	rtl_rss_write(tp);
	rtl_coalesce_write(tp);
	rtl_w8(tp, RTL_ChipCmd, RTL_CMD_RE | RTL_CMD_TE);
	rtl_w8(tp, RTL_Cfg9346, RTL_CFG9346_LOCK);
	tp->irq_ops->enable_all(tp);
}

/* ---- open / close / reconfigure ---- */

static void rtl_rings_free(struct rtl8169_private *tp, struct rtl_rings *r)
{
	for (unsigned int q = 0; q < R8169_MAX_RX_QUEUES; q++)
		rtl_rx_ring_free(tp, &r->rx[q]);
	for (unsigned int q = 0; q < R8169_MAX_TX_QUEUES; q++)
		rtl_tx_ring_free(tp, &r->tx[q]);
}

static int rtl_rings_alloc(struct rtl8169_private *tp, const struct rtl_cfg *cfg,
			   struct rtl_rings *r)
{
	const struct rtl_rx_desc_ops *ops = rtl_rx_ops_for_queues(tp, cfg->num_rx_queues);
	int rc = 0;

	memset(r, 0, sizeof(*r));
	for (unsigned int q = 0; q < cfg->num_rx_queues && !rc; q++)
		rc = rtl_rx_ring_alloc(tp, &r->rx[q], ops, cfg->rx_ring_size);
	for (unsigned int q = 0; q < tp->num_tx_queues && !rc; q++)
		rc = rtl_tx_ring_alloc(tp, &r->tx[q], cfg->tx_ring_size);
	if (rc)
		rtl_rings_free(tp, r);
	return rc;
}

/* Make @r the device's rings: each queue keeps its index and statistics;
 * what the queue had before goes into @r, to be freed.
 */
static void rtl_rings_swap(struct rtl8169_private *tp, struct rtl_rings *r)
{
	for (unsigned int q = 0; q < R8169_MAX_RX_QUEUES; q++) {
		struct rtl_rx_ring old = tp->rx_ring[q];

		r->rx[q].index = q;
		r->rx[q].stats = old.stats;
		tp->rx_ring[q] = r->rx[q];
		r->rx[q] = old;
	}
	for (unsigned int q = 0; q < R8169_MAX_TX_QUEUES; q++) {
		struct rtl_tx_ring old = tp->tx_ring[q];

		r->tx[q].index = q;
		r->tx[q].stats = old.stats;
		tp->tx_ring[q] = r->tx[q];
		r->tx[q] = old;
	}
}

/* Take @cfg as the current configuration (rings already in place). */
static void rtl_cfg_apply(struct rtl8169_private *tp, const struct rtl_cfg *cfg)
{
	tp->num_rx_queues = cfg->num_rx_queues;
	tp->rx_ring_size = cfg->rx_ring_size;
	tp->tx_ring_size = cfg->tx_ring_size;
	tp->rss_on = cfg->num_rx_queues >= 2;
	tp->rx_ops = rtl_rx_ops_for_queues(tp, cfg->num_rx_queues);
	/* the kernel core refused a count below the user's table; keep a
	 * user table, re-spread the default one
	 */
	if (!netif_is_rxfh_configured(tp->dev))
		for (unsigned int i = 0; i < tp->rss_indir_size; i++)
			tp->rss_indir[i] = (u8)ethtool_rxfh_indir_default(i, cfg->num_rx_queues);
}

/**
 * rtl_cfg_current() - the datapath configuration in force
 * @tp: the device
 * @cfg: filled with it
 */
void rtl_cfg_current(const struct rtl8169_private *tp, struct rtl_cfg *cfg)
{
	cfg->num_rx_queues = tp->num_rx_queues;
	cfg->rx_ring_size = tp->rx_ring_size;
	cfg->tx_ring_size = tp->tx_ring_size;
}

/* Start the datapath on the rings in place: NAPI first, since
 * rtl_hw_start() unmasks the interrupts and one taken at once on another
 * CPU must find its NAPI ready to schedule.
 */
static void rtl_up(struct rtl8169_private *tp)
{
	netif_set_real_num_rx_queues(tp->dev, tp->num_rx_queues);
	netif_set_real_num_tx_queues(tp->dev, tp->num_tx_queues);
	rtl_napi_enable_all(tp);
	rtl_queues_set_napi(tp, true);
	rtl_hw_start(tp);
	netif_tx_wake_all_queues(tp->dev);
	rtl_link_check(tp);
	for (unsigned int i = 0; i < R8169_NQV; i++)
		tp->qv[i].wd_pending = false;
	mod_timer(&tp->watchdog, jiffies + R8169_WATCHDOG_PERIOD);
}

/* Stop the datapath: no TX from the stack, no interrupt, no poll, the
 * DMA engines stopped (frames still in the device's pipeline are dropped
 * and counted by it); then count what completed and was not polled.
 */
static void rtl_quiesce(struct rtl8169_private *tp)
{
	timer_delete_sync(&tp->watchdog);
	/* takes each queue's xmit lock: a start_xmit running on another CPU
	 * finishes before the rings go
	 */
	netif_tx_disable(tp->dev);
	tp->irq_ops->disable_all(tp);
	rtl_sync_irqs(tp);
	rtl_queues_set_napi(tp, false);
	rtl_napi_disable_all(tp);
	rtl_w8(tp, RTL_ChipCmd, 0);
	rtl_hw_reset(tp);
	for (unsigned int q = 0; q < R8169_MAX_RX_QUEUES; q++)
		rtl_rx_ring_flush(&tp->rx_ring[q]);
	for (unsigned int q = 0; q < R8169_MAX_TX_QUEUES; q++)
		rtl_tx_ring_flush(&tp->tx_ring[q]);
}

/**
 * rtl_open() - ndo_open: rings, vectors and NAPI up, chip started
 * @dev: the network device
 *
 * Context: process, RTNL.
 * Return: 0 or -errno, with nothing left allocated.
 */
int rtl_open(struct net_device *dev)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_rings *r = &tp->spare;
	struct rtl_cfg cfg;
	int rc;

	rtl_cfg_current(tp, &cfg);
	rc = rtl_rings_alloc(tp, &cfg, r);
	if (rc)
		return rc;
	rtl_rings_swap(tp, r);
	rtl_cfg_apply(tp, &cfg);
	rc = rtl_q_vectors_up(tp, cfg.num_rx_queues);
	if (rc) {
		rtl_rings_swap(tp, r);
		rtl_rings_free(tp, r);
		return rc;
	}
	rtl_up(tp);
	if (!netif_carrier_ok(dev))
		rtl_phy_power_up(tp);
	/* as mainline r8169 does for the chips that can (K
	 * rtl8169_init_counter_offsets): the tally starts from zero at the
	 * first open, and counts on across close/open after that
	 */
	if (!tp->tally_reset_done) {
		rtl_tally_cmd(tp, RTL_COUNTER_RESET);
		tp->tally_reset_done = true;
	}
	return 0;
}

/**
 * rtl_close() - ndo_stop: quiesce, release vectors, free rings
 * @dev: the network device
 *
 * Context: process, RTNL.
 * Return: 0.
 */
int rtl_close(struct net_device *dev)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	struct rtl_rings *r = &tp->spare;

	rtl_quiesce(tp);
	rtl_q_vectors_down(tp, 0, true);
	memset(r, 0, sizeof(*r));
	rtl_rings_swap(tp, r);
	rtl_rings_free(tp, r);
	netif_carrier_off(dev);
	return 0;
}

/**
 * rtl_reconfigure() - switch a running interface to a new configuration (ethtool -L/-G)
 * @tp: the device
 * @cfg: the datapath configuration
 *
 * What modern drivers do for a live ring or channel change (mlx5e's
 * mlx5e_safe_switch_params, ice_vsi_realloc_stat_arrays/ice_vsi_rebuild):
 * everything that can fail is done before the running configuration is
 * touched; the swap itself cannot fail.
 *   1. allocate the new rings, and activate the vectors of new queues
 *      (IRQs requested, their NAPI disabled, their ids masked);
 *   2. quiesce: stop TX, mask, disable NAPI, stop and reset the chip;
 *      count what the old rings hold unpolled;
 *   3. swap rings, release the vectors of removed queues;
 *   4. start the chip on the new rings, then free the old ones.
 * A failure in 1 returns its errno with nothing changed: the interface
 * stays up on its old configuration.
 *
 * Context: process, RTNL.
 * Return: 0, or -errno with the old configuration intact and running.
 */
int rtl_reconfigure(struct rtl8169_private *tp, const struct rtl_cfg *cfg)
{
	struct rtl_rings *r = &tp->spare;
	int rc;

	if (!netif_running(tp->dev)) {
		rtl_cfg_apply(tp, cfg);
		return 0;
	}
	rc = rtl_rings_alloc(tp, cfg, r);
	if (rc)
		return rc;
	rc = rtl_q_vectors_up(tp, cfg->num_rx_queues);
	if (rc) {
		rtl_rings_free(tp, r);
		return rc;
	}
	rtl_quiesce(tp);
	rtl_rings_swap(tp, r);
	rtl_q_vectors_down(tp, cfg->num_rx_queues, false);
	rtl_cfg_apply(tp, cfg);
	rtl_up(tp);
	rtl_rings_free(tp, r);
	return 0;
}

/**
 * rtl_reset_task() - the reset task: reset the chip and rebuild its rings
 * @work: the device's reset_work
 *
 * Queued by the TX timeout and by the service timer for a vector whose
 * poll made no progress.  As mainline r8169's reset work does (rtl_task,
 * rtl_reset_work), under RTNL and only while the interface runs: the
 * datapath is quiesced (what the old rings held unpolled is counted in
 * rx_queue_N_flushed and tx_queue_N_drops, what the chip held in its
 * pipeline by the chip), the chip reset, and started again on fresh rings
 * of the same configuration.  RSS key and table, moderation and the
 * interrupt map are programmed again from the driver's state, since the
 * reset returns the chip's to their defaults.
 *
 * Context: process (kworker); takes RTNL.
 */
void rtl_reset_task(struct work_struct *work)
{
	struct rtl8169_private *tp = container_of(work, struct rtl8169_private, reset_work);
	struct rtl_cfg cfg;
	int rc;

	rtnl_lock();
	if (!netif_running(tp->dev))
		goto out;
	rtl_cfg_current(tp, &cfg);
	rc = rtl_reconfigure(tp, &cfg);
	if (rc) {
		tp->reset_failures++;
		netdev_err(tp->dev, "reset: no rings (%d); still on the old ones\n", rc);
		goto out;
	}
	tp->resets++;
	netdev_info(tp->dev, "reset: chip reset, rings rebuilt\n");
out:
	rtnl_unlock();
}

static void rtl_set_rx_mode(struct net_device *dev)
{
	struct rtl8169_private *tp = netdev_priv(dev);
	u32 rxcfg = rtl_r32(tp, RTL_RxConfig);

	if (dev->flags & IFF_PROMISC)
		rxcfg |= RTL_RXCFG_AAP;
	else
		rxcfg &= ~RTL_RXCFG_AAP;
	rtl_w32(tp, RTL_RxConfig, rxcfg);
}

static const struct net_device_ops rtl_netdev_ops = {
	.ndo_open = rtl_open,
	.ndo_stop = rtl_close,
	.ndo_start_xmit = rtl_start_xmit,
	.ndo_set_rx_mode = rtl_set_rx_mode,
	.ndo_get_stats64 = rtl_get_stats64,
	.ndo_tx_timeout = rtl_tx_timeout,
};

/* ---- probe / remove ---- */

/* The registers are in the first memory BAR; BAR 0 is I/O ports on the
 * RTL8125 family (src/hw/rtl_regs.h).  Mapped managed (pcim_iomap): the
 * driver core unmaps it after remove or a failed probe.
 */
static void __iomem *rtl_map_bar(struct pci_dev *pdev)
{
	int region = ffs(pci_select_bars(pdev, IORESOURCE_MEM)) - 1;

	if (region < 0 || pci_resource_len(pdev, region) < RTL_BAR_SIZE / 2)
		return NULL;
	return pcim_iomap(pdev, region, 0);
}

/* The address the chip was given (MAC0..MAC5, loaded from its EEPROM or
 * OTP at reset), or a random one if that is not a valid station address,
 * as mainline rtl_init_mac_address() does.
 */
static void rtl_init_mac_address(struct rtl8169_private *tp)
{
	struct net_device *dev = tp->dev;
	u32 mac0 = rtl_r32(tp, RTL_MAC0);
	u32 mac4 = rtl_r32(tp, RTL_MAC4);

	for (int i = 0; i < 4; i++)
		tp->mac[i] = (u8)(mac0 >> (8 * i));
	tp->mac[4] = (u8)mac4;
	tp->mac[5] = (u8)(mac4 >> 8);
	if (is_valid_ether_addr(tp->mac)) {
		eth_hw_addr_set(dev, tp->mac);
		return;
	}
	eth_hw_addr_random(dev);
	memcpy(tp->mac, dev->dev_addr, ETH_ALEN);
	dev_warn(&tp->pdev->dev, "no valid MAC address, using a random one\n");
}

/* Probe in mainline's shape: managed enable, BAR mapping, netdev and
 * tally block (the driver core releases them after a failed probe or
 * after remove), the 64-bit DMA mask, drvdata set before the netdev is
 * registered.
 */
static int rtl_init_one(struct pci_dev *pdev, const struct pci_device_id *id)
{
	const struct rtl_chip_info *chip;
	struct rtl8169_private *tp;
	struct net_device *dev;
	void __iomem *mmio;
	u32 txcfg;
	int rc;

	(void)id;
	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;
	pci_set_master(pdev);
	mmio = rtl_map_bar(pdev);
	if (!mmio) {
		dev_err(&pdev->dev, "no MMIO BAR\n");
		return -ENODEV;
	}
	txcfg = readl(mmio + RTL_TxConfig);
	chip = rtl_chip_lookup(pdev->device, txcfg);
	if (!chip) {
		dev_err(&pdev->dev, "unknown chip XID %03x, contact Realtek\n",
			RTL_TXCFG_XID(txcfg));
		return -ENODEV;
	}
	dev = devm_alloc_etherdev_mqs(&pdev->dev, sizeof(*tp), R8169_MAX_TX_QUEUES,
				      chip->caps->rx_queues);
	if (!dev)
		return -ENOMEM;
	tp = netdev_priv(dev);
	tp->pdev = pdev;
	tp->dev = dev;
	tp->mmio_addr = mmio;
	tp->chip = chip;
	tp->map = chip->irq_map;
	tp->rss_indir_size = chip->caps->rss_indir_size > R8169_RSS_INDIR_SIZE ?
			     chip->caps->rss_indir_size : R8169_RSS_INDIR_SIZE;
	tp->num_tx_queues = 1;
	tp->rx_ring_size = chip->caps->ring_default;
	tp->tx_ring_size = chip->caps->ring_default;
	tp->recheck_ownbit = !!(chip->quirks & RTL_QUIRK_OWNBIT_ERRATUM);
	dev->netdev_ops = &rtl_netdev_ops;
	rtl_set_ethtool_ops(dev);
	for (unsigned int q = 0; q < R8169_MAX_RX_QUEUES; q++)
		u64_stats_init(&tp->rx_ring[q].stats.syncp);
	for (unsigned int q = 0; q < R8169_MAX_TX_QUEUES; q++) {
		u64_stats_init(&tp->tx_ring[q].stats.syncp);
		u64_stats_init(&tp->tx_ring[q].stats.xmit_syncp);
	}
	timer_setup(&tp->watchdog, rtl_watchdog, 0);
	INIT_WORK(&tp->reset_work, rtl_reset_task);
	dev->watchdog_timeo = R8169_TX_TIMEOUT;
	SET_NETDEV_DEV(dev, &pdev->dev);
	rtl_init_mac_address(tp);
	/* the RTL8125 family's descriptors and tally address take 64-bit
	 * bus addresses (RX/TX_DESC_HIGH, CounterAddrHigh)
	 */
	rc = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (rc) {
		dev_err(&pdev->dev, "no usable DMA configuration\n");
		return rc;
	}
	/* page-aligned, so the 64-byte alignment the dump address needs
	 * holds (its low 6 bits are the command bits)
	 */
	tp->tally = dmam_alloc_coherent(&pdev->dev, sizeof(*tp->tally), &tp->tally_dma,
					GFP_KERNEL);
	if (!tp->tally)
		return -ENOMEM;

	rc = rtl_alloc_vectors(tp);
	if (rc)
		return rc;
	tp->num_rx_queues = min_t(unsigned int, tp->max_rx_queues,
				  netif_get_num_default_rss_queues());
	rtl_rss_init(tp);
	/* the RSS hash reaches the stack (skb_set_hash), so say so: without
	 * NETIF_F_RXHASH `ethtool -k` shows "receive-hashing: off [fixed]"
	 * and the kernel's toeplitz.py refuses the device. With one queue
	 * RSS is off and the descriptors carry no hash.
	 */
	if (tp->max_rx_queues >= 2) {
		dev->hw_features |= NETIF_F_RXHASH;
		dev->features |= NETIF_F_RXHASH;
	}
	/* what current r8169 does for the 8125 family: hardware moderation
	 * off, software coalescing on (research s5.3)
	 */
	netdev_sw_irq_coalesce_default_on(dev);
	pci_set_drvdata(pdev, dev);
	rc = register_netdev(dev);
	if (rc) {
		pci_set_drvdata(pdev, NULL);
		rtl_free_vectors(tp);
		return rc;
	}
	netdev_info(dev, "%s, XID %03x, %s interrupts, %u RX queue%s, %u vector%s\n",
		    chip->name, RTL_TXCFG_XID(txcfg), tp->irq_ops->name,
		    tp->num_rx_queues, tp->num_rx_queues == 1 ? "" : "s",
		    tp->nvec, tp->nvec == 1 ? "" : "s");
	return 0;
}

/* What probe set up by hand goes here; the managed rest (tally, BAR
 * mapping, netdev, enable) the driver core releases after this returns.
 */
static void rtl_remove_one(struct pci_dev *pdev)
{
	struct net_device *dev = pci_get_drvdata(pdev);
	struct rtl8169_private *tp;

	if (!dev)
		return;
	tp = netdev_priv(dev);
	unregister_netdev(dev);         /* closes it if open */
	/* after the close: a reset queued before finds it down */
	cancel_work_sync(&tp->reset_work);
	rtl_free_vectors(tp);
	pci_set_drvdata(pdev, NULL);
}

static const struct pci_device_id rtl8169_pci_tbl[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REALTEK, 0x8125) },
	{ PCI_DEVICE(PCI_VENDOR_ID_REALTEK, 0x8126) },
	{ PCI_DEVICE(PCI_VENDOR_ID_REALTEK, 0x8127) },
	{ 0 }
};

MODULE_DEVICE_TABLE(pci, rtl8169_pci_tbl);

static struct pci_driver rtl8169_pci_driver = {
	.name = R8169_DRV_NAME,
	.id_table = rtl8169_pci_tbl,
	.probe = rtl_init_one,
	.remove = rtl_remove_one,
};

module_pci_driver(rtl8169_pci_driver);

MODULE_DESCRIPTION("rxscale r8169-style driver for RTL8125/8126/8127 with multi-queue RSS");
MODULE_LICENSE("Dual MIT/GPL");
