/* SPDX-License-Identifier: MIT */
/*
 * if_vlan.h - the 802.1Q helper of Linux's include/linux/if_vlan.h a
 * driver uses: the tag the NIC stripped, handed to the stack with the skb
 * (skb->vlan_proto, skb->vlan_tci, skb->vlan_present).
 */
#ifndef RXSCALE_KERN_IF_VLAN_H
#define RXSCALE_KERN_IF_VLAN_H

#include <linux/skbuff.h>

/* Hardware-accelerated VLAN tag (the NIC stripped it). */
static inline void __vlan_hwaccel_put_tag(struct sk_buff *skb,
					  __be16 vlan_proto, u16 vlan_tci)
{
	skb->vlan_proto = vlan_proto;
	skb->vlan_tci = vlan_tci;
	skb->vlan_present = 1;
}

#endif /* RXSCALE_KERN_IF_VLAN_H */
