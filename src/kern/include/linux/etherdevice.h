/* SPDX-License-Identifier: MIT */
/*
 * etherdevice.h - the Ethernet helpers of Linux's
 * include/linux/etherdevice.h a driver uses: allocating an Ethernet
 * netdev, its hardware address (set, checked, random), and
 * eth_type_trans().
 */
#ifndef RXSCALE_KERN_ETHERDEVICE_H
#define RXSCALE_KERN_ETHERDEVICE_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

/* A netdev with @sizeof_priv bytes of zeroed private area, @txqs TX and
 * @rxqs RX queues (alloc_etherdev_mqs); MTU 1500.  NULL on failure. */
struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs,
				      unsigned int rxqs);

/* The same, freed with @dev's managed resources (net/devres.c); @dev is
 * the bus device. */
struct net_device *devm_alloc_etherdev_mqs(struct device *dev, int sizeof_priv,
					   unsigned int txqs, unsigned int rxqs);

static inline void eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	dev_addr_set(dev, addr, ETH_ALEN);
}

/* An all-zero address; a group address (the
 * I/G bit, first octet bit 0); valid = neither (a unicast station). */
static inline bool is_zero_ether_addr(const u8 *addr)
{
	return !(addr[0] | addr[1] | addr[2] | addr[3] | addr[4] | addr[5]);
}

static inline bool is_multicast_ether_addr(const u8 *addr)
{
	return addr[0] & 0x01;
}

static inline bool is_valid_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr) && !is_zero_ether_addr(addr);
}

/* A random unicast, locally administered address (eth_random_addr), from
 * the kernel's seeded randomness. */
void eth_random_addr(u8 *addr);

/* Give @dev a random address and mark it so (NET_ADDR_RANDOM), as
 * drivers do when the device has no valid one. */
void eth_hw_addr_random(struct net_device *dev);

/*
 * Set skb->dev, classify the destination MAC (pkt_type), pull the
 * Ethernet header and return the protocol (eth_type_trans): the
 * EtherType, or for a length field (< 0x600) ETH_P_802_3 (payload starts
 * 0xFFFF) or ETH_P_802_2, as Linux does.  A frame shorter than ETH_HLEN
 * returns 0 and pulls nothing.  Protocols are in host order here.
 */
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);

#endif /* RXSCALE_KERN_ETHERDEVICE_H */
