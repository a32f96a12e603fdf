// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "kern/kern.h"

/* skbs with up to SKB_POOL_DATA bytes of buffer (every frame at MTU 1500)
 * are allocated at that size and recycled through kern->skb_pool, up to
 * SKB_POOL_MAX of them: a malloc/free pair per frame was ~7 % of a
 * 10 Gbit/s run (glibc's bins for 2 KiB chunks).  Sanitizer builds
 * allocate every skb apart, so use-after-free stays visible to them. */
#if defined(__SANITIZE_ADDRESS__)
#define SKB_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SKB_POOL 0
#endif
#endif
#ifndef SKB_POOL
#define SKB_POOL 1
#endif
#define SKB_POOL_DATA 2048u
#define SKB_POOL_MAX 4096u

void kern_skb_pool_fini(struct kern *k)
{
	struct sk_buff *skb;

	while ((skb = k->skb_pool)) {
		k->skb_pool = skb->next;
		free(skb);
	}
	k->skb_pool_n = 0;
}

struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp)
{
	struct sk_buff *skb;
	bool pool = SKB_POOL && size <= SKB_POOL_DATA;

	(void)gfp;
	if (kern->fault.skb_fail_nth &&
	    (!kern->fault.skb_task_filter || kern->fault.make_it_fail) &&
	    --kern->fault.skb_fail_nth == 0)
		return NULL;
	/* the struct and its buffer in one allocation (the buffer is never
	 * reallocated here); only the struct is zeroed */
	if (pool && kern->skb_pool) {
		skb = kern->skb_pool;
		kern->skb_pool = skb->next;
		kern->skb_pool_n--;
	} else {
		skb = malloc(sizeof(*skb) + (pool ? SKB_POOL_DATA : size ? size : 1));
		if (!skb)
			return NULL;
	}
	memset(skb, 0, sizeof(*skb));
	skb->head = (unsigned char *)(skb + 1);
	skb->data = skb->head;
	skb->end = size;
	skb->truesize = size + (unsigned int)sizeof(*skb);
	kern_charge(SIM_COST_skb_alloc);
	kern->skbs_live++;
	kern->skbs_alloced++;
	return skb;
}

struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(len + NET_SKB_PAD + NET_IP_ALIGN,
					GFP_ATOMIC);

	if (skb) {
		skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
		skb->dev = napi ? napi->dev : NULL;
	}
	return skb;
}

struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(len + NET_SKB_PAD, GFP_ATOMIC);

	if (skb) {
		skb_reserve(skb, NET_SKB_PAD);
		skb->dev = dev;
	}
	return skb;
}

static void free_skb(struct sk_buff *skb)
{
	if (!skb)
		return;
	kern_charge(SIM_COST_skb_free);
	if (skb->destructor)
		skb->destructor(skb);
	kern->skbs_live--;
	if (SKB_POOL && skb->end <= SKB_POOL_DATA && kern->skb_pool_n < SKB_POOL_MAX) {
		skb->next = kern->skb_pool;
		kern->skb_pool = skb;
		kern->skb_pool_n++;
		return;
	}
	free(skb);
}

void kfree_skb(struct sk_buff *skb)
{
	free_skb(skb);
}

void consume_skb(struct sk_buff *skb)
{
	free_skb(skb);
}

void skb_reserve(struct sk_buff *skb, unsigned int len)
{
	if (len > skb_tailroom(skb)) {
		kern->warn.other++;
		pr_err("skb_reserve: %u bytes exceed the tailroom\n", len);
		len = skb_tailroom(skb);
	}
	skb->data += len;
}

void *skb_put(struct sk_buff *skb, unsigned int len)
{
	unsigned char *tail = skb->data + skb->len;

	if (len > skb_tailroom(skb)) {
		kern->warn.other++;
		pr_err("skb_over_panic: put %u bytes with %u of tailroom\n",
		       len, skb_tailroom(skb));
		len = skb_tailroom(skb);
	}
	skb->len += len;
	return tail;
}

void *skb_put_data(struct sk_buff *skb, const void *from, unsigned int len)
{
	unsigned int room = skb_tailroom(skb);
	void *p = skb_put(skb, len);

	kern_charge_n(SIM_COST_copy_byte, len);
	if (unlikely(plat_mem_cpu_read(&kern->mem, from, len))) {
		kern->warn.dma_unsynced_read++;
		pr_err("skb_put_data: %s\n", kern->mem.last_error);
	}
	memcpy(p, from, len < room ? len : room);
	return p;
}

int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len)
{
	if (offset < 0 || len < 0 || (unsigned int)offset + (unsigned int)len > skb->len)
		return -EFAULT;
	kern_charge_n(SIM_COST_copy_byte, (u64)len);
	memcpy(to, skb->data + offset, (size_t)len);
	return 0;
}

void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	if (len > skb->len)
		return NULL;
	skb->data += len;
	skb->len -= len;
	return skb->data;
}

void *skb_push(struct sk_buff *skb, unsigned int len)
{
	if (len > skb_headroom(skb)) {
		kern->warn.other++;
		pr_err("skb_under_panic: push %u bytes with %u of headroom\n",
		       len, skb_headroom(skb));
		len = skb_headroom(skb);
	}
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	const unsigned char *d = skb->data;
	u16 proto;

	kern_charge(SIM_COST_eth_type_trans);
	skb->dev = dev;
	if (skb->len < ETH_HLEN)
		return 0;
	skb->mac_header = (u16)(skb->data - skb->head);
	if (d[0] & 1) {
		static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

		skb->pkt_type = memcmp(d, bcast, ETH_ALEN) ? PACKET_MULTICAST :
							     PACKET_BROADCAST;
	} else if (dev && memcmp(d, dev->dev_addr, ETH_ALEN)) {
		skb->pkt_type = PACKET_OTHERHOST;
	} else {
		skb->pkt_type = PACKET_HOST;
	}
	proto = (u16)(d[12] << 8 | d[13]);
	skb_pull(skb, ETH_HLEN);
	if (proto >= ETH_P_802_3_MIN)
		return htons(proto);
	/* a length field: raw 802.3 (IPX's 0xFFFF) or 802.2 LLC */
	return skb->len >= 2 && skb->data[0] == 0xff && skb->data[1] == 0xff ?
	       htons(ETH_P_802_3) : htons(ETH_P_802_2);
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
	consume_skb(skb);
}

void dev_kfree_skb(struct sk_buff *skb)
{
	consume_skb(skb);
}

void napi_consume_skb(struct sk_buff *skb, int budget)
{
	(void)budget;
	consume_skb(skb);
}

void __skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)))
		kfree_skb(skb);
}

void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(list)))
		kfree_skb(skb);
}
