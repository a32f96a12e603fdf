// SPDX-License-Identifier: MIT
/*
 * r8152_main.c - register access over vendor control transfers, probe by
 * USB id and version word, open/close, the interrupt URB (link).
 *
 * Choices where the drivers differ or the research leaves a gap:
 *  - the chip is the rtl_usb_chips[] row of its vendor:product; the
 *    version word must match the row, or probe refuses the device (no
 *    "closest version" guess);
 *  - USB_USB_CTRL: RX_AGG_DISABLE, BIT 10 and BIT 11 are cleared on both
 *    chips, as Realtek's driver does (research s1.2: mainline clears BIT
 *    11 only on the RTL8159, meaning undocumented), so no version test;
 *  - 0xcf04 is left as the device resets it unless mitigation_off asks
 *    for "mitigation off" (research s2; r8152.h);
 *  - no firmware, PHY, EEE, power-management or suspend code: the model
 *    has none of it.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include "r8152.h"

/* ---- OCP register access (research s1; rtl_usb_regs.h) ---- */

#define R8152_CTRL_TIMEOUT_MS	500

/**
 * generic_ocp_read() - read @size bytes of OCP registers through a vendor control transfer
 * @tp: the device
 * @index: OCP register address
 * @size: bytes to read
 * @data: where they go
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 *
 * Context: process; sleeps (usb_control_msg).
 * Return: 0, or -errno with the bytes not read set to all ones.
 */
int generic_ocp_read(struct r8152 *tp, u16 index, u16 size, void *data, u16 type)
{
	/* control transfer buffers are DMA-able heap memory, never the
	 * stack
	 */
	u8 *tmp, *out = data;
	int rc = 0;

	if ((index & 3u) || (size & 3u) || !size || (u32)index + size > 0x10000u)
		return -EINVAL;
	tmp = kzalloc(RTLU_CTRL_MAX, GFP_KERNEL);
	if (!tmp)
		rc = -ENOMEM;
	while (size && !rc) {
		u16 n = size < RTLU_CTRL_MAX ? size : RTLU_CTRL_MAX;

		rc = usb_control_msg(tp->udev, usb_rcvctrlpipe(tp->udev, 0),
				     RTLU_REQ_GET_REGS, RTLU_REQT_READ, index, type,
				     tmp, n, R8152_CTRL_TIMEOUT_MS);
		if (rc != n) {
			rc = rc < 0 ? rc : -EIO;
			break;
		}
		memcpy(out, tmp, n);
		out += n;
		index = (u16)(index + n);
		size = (u16)(size - n);
		rc = 0;
	}
	if (rc)
		memset(out, 0xff, size);
	kfree(tmp);
	return rc;
}

/* Read the dword at 4-aligned @addr of MCU @type. */
static int get_dword(struct r8152 *tp, u16 type, u16 addr, u32 *val)
{
	__le32 le;
	int rc = generic_ocp_read(tp, addr, sizeof(le), &le, type);

	*val = le32_to_cpu(le);
	return rc;
}

/* Write @val to the dword at 4-aligned @addr, bytes selected by @byen
 * (the same nibble for the first and last dword of a 4-byte write).
 */
static int set_dword(struct r8152 *tp, u16 type, u16 addr, u8 byen, u32 val)
{
	__le32 *tmp = kzalloc(sizeof(*tmp), GFP_KERNEL);
	int rc;

	if (!tmp)
		return -ENOMEM;
	*tmp = cpu_to_le32(val);
	rc = usb_control_msg(tp->udev, usb_sndctrlpipe(tp->udev, 0),
			     RTLU_REQ_SET_REGS, RTLU_REQT_WRITE, addr,
			     (u16)(type | byen), tmp, sizeof(*tmp),
			     R8152_CTRL_TIMEOUT_MS);
	kfree(tmp);
	if (rc < 0) {
		netdev_warn(tp->netdev, "ocp write %04x:%04x failed: %d\n",
			    type, addr, rc);
		return rc;
	}
	return rc == (int)sizeof(*tmp) ? 0 : -EIO;
}

/**
 * ocp_read_dword() - read a 32-bit OCP register
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 *
 * Context: process; sleeps.
 * Return: the value (all ones if the transfer failed).
 */
u32 ocp_read_dword(struct r8152 *tp, u16 type, u16 index)
{
	u32 v;

	get_dword(tp, type, index & ~3u, &v);
	return v;
}

/**
 * ocp_read_word() - read a 16-bit OCP register (from its dword)
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 *
 * Context: process; sleeps.
 * Return: the value.
 */
u16 ocp_read_word(struct r8152 *tp, u16 type, u16 index)
{
	return (u16)(ocp_read_dword(tp, type, index) >> (8 * (index & 2u)));
}

/**
 * ocp_read_byte() - read an 8-bit OCP register (from its dword)
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 *
 * Context: process; sleeps.
 * Return: the value.
 */
u8 ocp_read_byte(struct r8152 *tp, u16 type, u16 index)
{
	return (u8)(ocp_read_dword(tp, type, index) >> (8 * (index & 3u)));
}

/**
 * ocp_write_dword() - write a 32-bit OCP register
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 * @data: the value
 *
 * Context: process; sleeps.
 * Return: 0 or -errno.
 */
int ocp_write_dword(struct r8152 *tp, u16 type, u16 index, u32 data)
{
	return set_dword(tp, type, index & ~3u, RTLU_BYTE_EN_DWORD, data);
}

/**
 * ocp_write_word() - write a 16-bit OCP register with byte enables
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 * @data: the value
 *
 * Context: process; sleeps.
 * Return: 0 or -errno.
 */
int ocp_write_word(struct r8152 *tp, u16 type, u16 index, u16 data)
{
	unsigned int shift = index & 2u;

	return set_dword(tp, type, index & ~3u,
			 (u8)(RTLU_BYTE_EN_WORD << shift), (u32)data << (8 * shift));
}

/**
 * ocp_write_byte() - write an 8-bit OCP register with a byte enable
 * @tp: the device
 * @type: RTLU_MCU_TYPE_PLA or RTLU_MCU_TYPE_USB
 * @index: OCP register address
 * @data: the value
 *
 * Context: process; sleeps.
 * Return: 0 or -errno.
 */
int ocp_write_byte(struct r8152 *tp, u16 type, u16 index, u8 data)
{
	unsigned int shift = index & 3u;

	return set_dword(tp, type, index & ~3u,
			 (u8)(RTLU_BYTE_EN_BYTE << shift), (u32)data << (8 * shift));
}

static int ocp_word_clr_bits(struct r8152 *tp, u16 type, u16 index, u16 clr)
{
	return ocp_write_word(tp, type, index,
			      (u16)(ocp_read_word(tp, type, index) & ~clr));
}

/* ---- hardware setup ---- */

/**
 * r8152_write_coalesce() - program the RX aggregation timer
 * @tp: the device
 *
 * Context: process; sleeps.
 * Return: 0 or -errno.
 */
int r8152_write_coalesce(struct r8152 *tp)
{
	return ocp_write_word(tp, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EXTRA_AGGR_TMR,
			      (u16)(r8152_rx_timer_ns(tp) / tp->chip->caps->coalesce_unit_ns));
}

/* Bytes kept free at the end of an RX buffer: one more full-size frame
 * with its descriptor and alignment (research s1.3 rx_reserved_size).
 */
static u32 rx_early_size(const struct r8152 *tp)
{
	return (tp->rx_buf_sz - RTLU_RX_RESERVED(tp->netdev->mtu)) /
	       tp->chip->caps->early_size_div;
}

static u32 rtl_rcr(const struct r8152 *tp)
{
	u32 rcr = RTLU_RCR_APM | RTLU_RCR_AB | RTLU_RCR_AM;

	if (tp->netdev->flags & IFF_PROMISC)
		rcr |= RTLU_RCR_AAP;
	return rcr;
}

/*
 * RX aggregation on, its three timers/thresholds (research s1.3 for
 * RTL8156 and later: EARLY_TIMEOUT fixed at 640 ns, EARLY_SIZE in the
 * row's units, EXTRA_AGGR_TMR = coalesce / 8), the 0xcf04 choice,
 * address filter, receiver and transmitter on.
 */
static int r8152_hw_enable(struct r8152 *tp)
{
	const struct rtl_usb_chip_info *c = tp->chip;
	int rc;

	rc = ocp_word_clr_bits(tp, RTLU_MCU_TYPE_USB, RTLU_USB_USB_CTRL,
			       RTLU_USB_CTRL_RX_AGG_DISABLE |
			       RTLU_USB_CTRL_RX_DESC_16B | RTLU_USB_CTRL_BIT11);
	if (!rc)
		rc = ocp_write_word(tp, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_TIMEOUT,
				    (u16)(c->caps->early_timeout_ns / c->caps->coalesce_unit_ns));
	if (!rc)
		rc = ocp_write_word(tp, RTLU_MCU_TYPE_USB, RTLU_USB_RX_EARLY_SIZE,
				    (u16)rx_early_size(tp));
	if (!rc)
		rc = r8152_write_coalesce(tp);
	if (!rc && tp->mitigation_off)
		/* the dropped RFC patch's "Disable Interrupt Mitigation" */
		rc = ocp_write_byte(tp, RTLU_MCU_TYPE_USB, RTLU_USB_INT_MITIGATION,
				    (u8)(ocp_read_byte(tp, RTLU_MCU_TYPE_USB,
						       RTLU_USB_INT_MITIGATION) &
					 ~RTLU_INT_MIT_MASK));
	if (!rc)
		rc = ocp_write_dword(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, rtl_rcr(tp));
	if (!rc)
		rc = ocp_write_byte(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR,
				    RTLU_CR_RE | RTLU_CR_TE);
	return rc;
}

static void r8152_hw_disable(struct r8152 *tp)
{
	ocp_write_byte(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_CR, 0);
}

/* ---- link: the interrupt URB (research s1.5) ---- */

static void r8152_set_link(struct r8152 *tp, bool up)
{
	if (up == tp->link_up && up == netif_carrier_ok(tp->netdev))
		return;
	if (up != tp->link_up) {
		u64_stats_update_begin(&tp->intr_stats.syncp);
		u64_stats_inc(&tp->intr_stats.link_changes);
		u64_stats_update_end(&tp->intr_stats.syncp);
	}
	tp->link_up = up;
	if (up)
		netif_carrier_on(tp->netdev);
	else
		netif_carrier_off(tp->netdev);
}

static void intr_callback(struct urb *urb)
{
	struct r8152 *tp = urb->context;
	int rc;

	switch (urb->status) {
	case 0:
		break;
	case -ENOENT:
	case -ECONNRESET:
	case -ESHUTDOWN:
	case -EPROTO:
	case -ENODEV:
		/* killed, unplugged or broken: stop submitting (research
		 * s1.5)
		 */
		return;
	default:
		goto resubmit;
	}
	u64_stats_update_begin(&tp->intr_stats.syncp);
	u64_stats_inc(&tp->intr_stats.intr);
	u64_stats_update_end(&tp->intr_stats.syncp);
	if (urb->actual_length >= 2) {
		u16 st = (u16)(tp->intr_buff[0] | tp->intr_buff[1] << 8);

		r8152_set_link(tp, st & RTLU_INTR_LINK);
	}
resubmit:
	if (!tp->running)
		return;
	rc = usb_submit_urb(urb, GFP_ATOMIC);
	if (rc && rc != -ENODEV)
		netdev_warn(tp->netdev, "intr submit failed: %d\n", rc);
}

/* ---- open / close ---- */

static void r8152_free_urbs(struct r8152 *tp)
{
	r8152_rx_free(tp);
	r8152_tx_free(tp);
	usb_free_urb(tp->intr_urb);
	kfree(tp->intr_buff);
	tp->intr_urb = NULL;
	tp->intr_buff = NULL;
}

static int r8152_alloc_urbs(struct r8152 *tp)
{
	int rc = r8152_rx_alloc(tp);

	if (!rc)
		rc = r8152_tx_alloc(tp);
	if (rc)
		goto err;
	tp->intr_buff = kzalloc(RTLU_INTR_BUFSIZE, GFP_KERNEL);
	tp->intr_urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!tp->intr_buff || !tp->intr_urb) {
		rc = -ENOMEM;
		goto err;
	}
	usb_fill_int_urb(tp->intr_urb, tp->udev,
			 usb_rcvintpipe(tp->udev, RTLU_EP_INTR_IN),
			 tp->intr_buff, RTLU_INTR_BUFSIZE, intr_callback, tp,
			 RTLU_INTR_INTERVAL);
	return 0;
err:
	r8152_free_urbs(tp);
	return rc;
}

/* Stop everything in flight: URBs killed (their completions do nothing),
 * unparsed transfers and held frames counted, queued TX dropped.
 */
static void r8152_stop_urbs(struct r8152 *tp)
{
	tp->running = false;
	if (tp->intr_urb)
		usb_kill_urb(tp->intr_urb);
	r8152_rx_stop(tp);
	r8152_tx_stop(tp);
}

/**
 * r8152_open() - ndo_open: allocate URBs, start RX and TX, enable NAPI
 * @dev: the network device
 *
 * Context: process, RTNL.
 * Return: 0 or -errno, with nothing left allocated.
 */
int r8152_open(struct net_device *dev)
{
	struct r8152 *tp = netdev_priv(dev);
	int rc;

	rc = r8152_alloc_urbs(tp);
	if (rc)
		return rc;
	r8152_dim_init(tp);             /* a fresh tuner at each open */
	rc = r8152_hw_enable(tp);
	if (rc)
		goto err_free;
	tp->running = true;
	tp->link_up = ocp_read_word(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_PHYSTATUS) &
		      RTLU_PHY_LINK_STATUS;
	if (tp->link_up)
		netif_carrier_on(dev);
	else
		netif_carrier_off(dev);
	rc = usb_submit_urb(tp->intr_urb, GFP_KERNEL);
	if (!rc)
		rc = r8152_rx_start(tp);
	if (rc) {
		netdev_err(dev, "cannot submit URBs: %d\n", rc);
		goto err_stop;
	}
	napi_enable(&tp->napi);
	netif_tx_start_all_queues(dev);
	return 0;

err_stop:
	r8152_stop_urbs(tp);
	r8152_hw_disable(tp);
err_free:
	r8152_free_urbs(tp);
	return rc;
}

/**
 * r8152_close() - ndo_stop: stop transfers and NAPI, free the URBs
 * @dev: the network device
 *
 * Context: process, RTNL.
 * Return: 0.
 */
int r8152_close(struct net_device *dev)
{
	struct r8152 *tp = netdev_priv(dev);

	netif_tx_stop_all_queues(dev);
	napi_disable(&tp->napi);
	r8152_dim_stop(tp);
	/* receiver off first, then take the URBs back */
	if (tp->udev->state != USB_STATE_NOTATTACHED)
		r8152_hw_disable(tp);
	r8152_stop_urbs(tp);
	r8152_free_urbs(tp);
	netif_carrier_off(dev);
	return 0;
}

static void r8152_set_rx_mode(struct net_device *dev)
{
	struct r8152 *tp = netdev_priv(dev);

	if (netif_running(dev))
		ocp_write_dword(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_RCR, rtl_rcr(tp));
}

static const struct net_device_ops r8152_netdev_ops = {
	.ndo_open = r8152_open,
	.ndo_stop = r8152_close,
	.ndo_start_xmit = r8152_start_xmit,
	.ndo_set_rx_mode = r8152_set_rx_mode,
	.ndo_get_stats64 = r8152_get_stats64,
};

/* ---- probe / disconnect ---- */

/* Probe in mainline's shape, as r8169's: the netdev is a managed
 * allocation of the interface (the driver core frees it after a failed
 * probe or after disconnect), intfdata is set before the netdev is
 * registered.
 */
static int rtl8152_probe(struct usb_interface *intf, const struct usb_device_id *id)
{
	struct usb_device *udev = interface_to_usbdev(intf);
	const struct rtl_usb_chip_info *chip;
	struct net_device *dev;
	struct r8152 *tp;
	u32 idr0, idr4;
	u8 mac[ETH_ALEN];
	u16 ver;
	int rc;

	chip = rtl_usb_chip_lookup(id->idVendor, id->idProduct);
	if (!chip) {
		dev_err(&intf->dev, "no chip row for %04x:%04x\n",
			id->idVendor, id->idProduct);
		return -ENODEV;
	}
	/* freed by the driver core after a failed probe or after disconnect */
	dev = devm_alloc_etherdev_mqs(&intf->dev, sizeof(*tp), 1, 1);
	if (!dev)
		return -ENOMEM;
	tp = netdev_priv(dev);
	tp->udev = udev;
	tp->intf = intf;
	tp->netdev = dev;
	tp->chip = chip;
	spin_lock_init(&tp->rx_lock);
	spin_lock_init(&tp->tx_lock);
	skb_queue_head_init(&tp->rx_queue);
	skb_queue_head_init(&tp->tx_queue);
	tasklet_setup(&tp->tx_tl, r8152_tx_bottom);
	u64_stats_init(&tp->rx_stats.syncp);
	u64_stats_init(&tp->rx_urb_stats.syncp);
	u64_stats_init(&tp->tx_stats.syncp);
	u64_stats_init(&tp->tx_stats.tl_syncp);
	u64_stats_init(&tp->tx_stats.xmit_syncp);
	u64_stats_init(&tp->intr_stats.syncp);
	SET_NETDEV_DEV(dev, &intf->dev);

	ver = ocp_read_word(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_TCR1) &
	      RTLU_TCR1_VERSION_MASK;
	if (ver != chip->hw_id) {
		dev_err(&intf->dev, "%s: version word %04x, expected %04x\n",
			chip->name, ver, chip->hw_id);
		return -ENODEV;
	}
	tp->version_word = ver;
	/* the tally counts from zero (K rtl_tally_reset, at chip init) */
	ocp_write_word(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_RSTTALLY,
		       ocp_read_word(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_RSTTALLY) |
		       RTLU_TALLY_RESET);
	tp->rx_buf_sz = chip->rx_buf_size;
	tp->rx_pending = chip->caps->rx_urbs <= RTL8152_MAX_RX ? chip->caps->rx_urbs :
							   RTL8152_MAX_RX;
	tp->coalesce = chip->caps->coalesce_ns;

	idr0 = ocp_read_dword(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_IDR);
	idr4 = ocp_read_dword(tp, RTLU_MCU_TYPE_PLA, RTLU_PLA_IDR + 4);
	for (int i = 0; i < 4; i++)
		mac[i] = (u8)(idr0 >> (8 * i));
	mac[4] = (u8)idr4;
	mac[5] = (u8)(idr4 >> 8);
	eth_hw_addr_set(dev, mac);

	dev->netdev_ops = &r8152_netdev_ops;
	r8152_set_ethtool_ops(dev);
	netif_napi_add_weight(dev, &tp->napi, r8152_poll, NAPI_POLL_WEIGHT);
	usb_set_intfdata(intf, tp);
	rc = register_netdev(dev);
	if (rc) {
		usb_set_intfdata(intf, NULL);
		netif_napi_del(&tp->napi);
		return rc;
	}
	netdev_info(dev, "%s (version %04x), %u x %u KiB RX URBs, rx-usecs %u\n",
		    chip->name, ver, tp->rx_pending, tp->rx_buf_sz / 1024,
		    tp->coalesce / 1000);
	return 0;
}

static void rtl8152_disconnect(struct usb_interface *intf)
{
	struct r8152 *tp = usb_get_intfdata(intf);

	if (!tp)
		return;
	usb_set_intfdata(intf, NULL);
	unregister_netdev(tp->netdev);	/* closes it if open */
	netif_napi_del(&tp->napi);
}

/**
 * r8152_netdev() - the network device bound to a USB interface
 * @intf: the USB interface
 *
 * Return: the netdev, or NULL if the driver is not bound to @intf.
 */
struct net_device *r8152_netdev(struct usb_interface *intf)
{
	struct r8152 *tp = usb_get_intfdata(intf);

	return tp ? tp->netdev : NULL;
}

/* One entry per rtl_usb_chips[] row (tests/test_r8152.c checks that). */
static const struct usb_device_id rtl8152_table[] = {
	{ USB_DEVICE(RTL_USB_VENDOR_REALTEK, 0x8157) },	/* RTL8157 */
	{ USB_DEVICE(RTL_USB_VENDOR_REALTEK, 0x815a) },	/* RTL8159 */
	{ 0 }
};

MODULE_DEVICE_TABLE(usb, rtl8152_table);

static struct usb_driver r8152_driver = {
	.name = R8152_DRV_NAME,
	.id_table = rtl8152_table,
	.probe = rtl8152_probe,
	.disconnect = rtl8152_disconnect,
};

module_usb_driver(r8152_driver);

MODULE_DESCRIPTION("rxscale r8152-style driver for RTL8157/RTL8159 USB adapters");
MODULE_LICENSE("Dual MIT/GPL");
