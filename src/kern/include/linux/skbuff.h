/* SPDX-License-Identifier: MIT */
/*
 * skbuff.h - a small struct sk_buff (Linux include/linux/skbuff.h):
 * one linear buffer, the receive metadata a NIC driver fills in (length,
 * protocol, RSS hash and its type, RX queue, checksum state, VLAN), and
 * a control block for the stack model.
 *
 * Allocation charges skb_alloc and freeing skb_free to the running CPU;
 * kern->skbs_live counts live buffers for leak checks.
 */
#ifndef RXSCALE_KERN_SKBUFF_H
#define RXSCALE_KERN_SKBUFF_H

#include <linux/dma-mapping.h>
#include <linux/spinlock.h>

#define NET_SKB_PAD 64          /* headroom reserved by napi_alloc_skb */
#define NET_IP_ALIGN 2
#define ETH_HLEN 14
#define ETH_ALEN 6
#define ETH_FCS_LEN 4
#define ETH_ZLEN 60
#define ETH_DATA_LEN 1500
#define ETH_FRAME_LEN 1514
#define VLAN_HLEN 4

#define ETH_P_IP 0x0800
#define ETH_P_ARP 0x0806
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88A8
#define ETH_P_IPV6 0x86DD
#define ETH_P_802_3_MIN 0x0600
#define ETH_P_802_3 0x0001
#define ETH_P_802_2 0x0004

/* skb->ip_summed */
#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define CHECKSUM_COMPLETE 2
#define CHECKSUM_PARTIAL 3

/* skb->pkt_type */
#define PACKET_HOST 0
#define PACKET_BROADCAST 1
#define PACKET_MULTICAST 2
#define PACKET_OTHERHOST 3

/* Hash type given to skb_set_hash (include/linux/skbuff.h). */
enum pkt_hash_types {
	PKT_HASH_TYPE_NONE,     /* no hash */
	PKT_HASH_TYPE_L2,
	PKT_HASH_TYPE_L3,       /* over the IP addresses */
	PKT_HASH_TYPE_L4,       /* over the 4-tuple */
};

struct net_device;
struct napi_struct;

struct sk_buff {
	/* list links (GRO, qdisc, stack, struct sk_buff_head); first, in
	 * this order, as sk_buff_head's */
	struct sk_buff *next;
	struct sk_buff *prev;
	struct net_device *dev;
	unsigned char *head;            /* buffer start */
	unsigned char *data;            /* current data start */
	unsigned int len;               /* bytes at data */
	unsigned int end;               /* buffer size at head */
	unsigned int truesize;
	u16 mac_header;                 /* offset from head, eth_type_trans */
	__be16 protocol;                /* htons(ETH_P_*), from eth_type_trans */
	u16 queue_mapping;              /* RX: queue + 1 (0 = none); TX: queue */
	u32 hash;
	u8 l4_hash:1;
	u8 sw_hash:1;
	u8 vlan_present:1;
	u8 ip_summed:2;
	u8 csum_level:2;
	u8 pkt_type:3;
	__be16 vlan_proto;
	u16 vlan_tci;
	u64 tstamp;                     /* ns: when the driver received it */
	u64 cb[6];                      /* control block for the stack (48 B) */
	/* Called when the skb is freed (Linux skb->destructor, e.g. TCP's
	 * tcp_wfree that returns TX bytes to the socket); @sk its owner. */
	void (*destructor)(struct sk_buff *skb);
	void *sk;
};

/* Allocate an skb with @size bytes of room (alloc_skb).  NULL on failure
 * (or the skb_fail_nth fault knob). */
struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp);

/* An RX skb for @napi with @len bytes of room after NET_SKB_PAD +
 * NET_IP_ALIGN headroom (napi_alloc_skb). */
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len);

/* Same for a device outside NAPI (netdev_alloc_skb). */
struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len);

/* Free: kfree_skb (drop), consume_skb (normal end), dev_kfree_skb_any,
 * napi_consume_skb (from NAPI TX completion, @budget 0 = netpoll). */
void kfree_skb(struct sk_buff *skb);
void consume_skb(struct sk_buff *skb);
void dev_kfree_skb_any(struct sk_buff *skb);
void dev_kfree_skb(struct sk_buff *skb);
void napi_consume_skb(struct sk_buff *skb, int budget);

static inline unsigned int skb_headroom(const struct sk_buff *skb)
{
	return (unsigned int)(skb->data - skb->head);
}

static inline unsigned int skb_tailroom(const struct sk_buff *skb)
{
	return skb->end - skb_headroom(skb) - skb->len;
}

/* Reserve @len bytes of headroom in an empty skb. */
void skb_reserve(struct sk_buff *skb, unsigned int len);

/* Extend the data by @len bytes at the tail; returns the old tail.  Over-
 * running the buffer is a driver bug: logged, counted, and clamped. */
void *skb_put(struct sk_buff *skb, unsigned int len);

/* Copy @len bytes from offset @offset of @skb's data to @to.  Returns 0,
 * or -EFAULT if the range is outside the data (skb_copy_bits). */
int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len);

/* Append @len bytes copied from @from (skb_put_data). */
void *skb_put_data(struct sk_buff *skb, const void *from, unsigned int len);

/* Remove @len bytes from the start; returns the new data or NULL if the
 * skb is shorter. */
void *skb_pull(struct sk_buff *skb, unsigned int len);

/* Add @len bytes at the start (headroom). */
void *skb_push(struct sk_buff *skb, unsigned int len);

/* Record the device's RSS hash (skb_set_hash). */
static inline void skb_set_hash(struct sk_buff *skb, u32 hash,
				enum pkt_hash_types type)
{
	skb->l4_hash = type == PKT_HASH_TYPE_L4;
	skb->sw_hash = 0;
	skb->hash = hash;
}

static inline u32 skb_get_hash_raw(const struct sk_buff *skb)
{
	return skb->hash;
}

static inline void skb_record_rx_queue(struct sk_buff *skb, u16 rx_queue)
{
	skb->queue_mapping = rx_queue + 1;
}

static inline bool skb_rx_queue_recorded(const struct sk_buff *skb)
{
	return skb->queue_mapping != 0;
}

static inline u16 skb_get_rx_queue(const struct sk_buff *skb)
{
	return skb->queue_mapping - 1;
}

static inline void skb_checksum_none_assert(const struct sk_buff *skb)
{
	(void)skb;
}

/* Pointer to the MAC header recorded by eth_type_trans. */
static inline unsigned char *skb_mac_header(const struct sk_buff *skb)
{
	return skb->head + skb->mac_header;
}

/*
 * struct sk_buff_head - a queue of skbs with its lock (Linux
 * include/linux/skbuff.h): @next the first skb, @prev the last, the
 * length, and a spinlock.  (Linux links the skbs in a ring through the
 * head itself; here the list is NULL-terminated, which drivers cannot
 * tell apart through these functions.)  The __ functions take no lock
 * (the caller holds it or owns the queue); the others take @list->lock
 * with interrupts saved.
 */
struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
	spinlock_t lock;
};

static inline void __skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = NULL;
	list->qlen = 0;
}

static inline void skb_queue_head_init(struct sk_buff_head *list)
{
	spin_lock_init(&list->lock);
	__skb_queue_head_init(list);
}

static inline u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

static inline bool skb_queue_empty(const struct sk_buff_head *list)
{
	return !list->next;
}

/* First skb without removing it, NULL if empty. */
static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	return list->next;
}

static inline void __skb_queue_tail(struct sk_buff_head *list,
				    struct sk_buff *skb)
{
	skb->next = NULL;
	skb->prev = list->prev;
	if (list->prev)
		list->prev->next = skb;
	else
		list->next = skb;
	list->prev = skb;
	list->qlen++;
}

static inline void __skb_queue_head(struct sk_buff_head *list,
				    struct sk_buff *skb)
{
	skb->prev = NULL;
	skb->next = list->next;
	if (list->next)
		list->next->prev = skb;
	else
		list->prev = skb;
	list->next = skb;
	list->qlen++;
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	if (skb->prev)
		skb->prev->next = skb->next;
	else
		list->next = skb->next;
	if (skb->next)
		skb->next->prev = skb->prev;
	else
		list->prev = skb->prev;
	skb->next = skb->prev = NULL;
	list->qlen--;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	if (skb)
		__skb_unlink(skb, list);
	return skb;
}

/* Move every skb of @list to the front of @head; @list ends empty. */
static inline void skb_queue_splice_init(struct sk_buff_head *list,
					 struct sk_buff_head *head)
{
	if (skb_queue_empty(list))
		return;
	list->prev->next = head->next;
	if (head->next)
		head->next->prev = list->prev;
	else
		head->prev = list->prev;
	head->next = list->next;
	head->qlen += list->qlen;
	__skb_queue_head_init(list);
}

/* Same, to the back of @head. */
static inline void skb_queue_splice_tail_init(struct sk_buff_head *list,
					      struct sk_buff_head *head)
{
	if (skb_queue_empty(list))
		return;
	list->next->prev = head->prev;
	if (head->prev)
		head->prev->next = list->next;
	else
		head->next = list->next;
	head->prev = list->prev;
	head->qlen += list->qlen;
	__skb_queue_head_init(list);
}

/* Free every skb (kfree_skb: they are dropped); skb_queue_purge() under
 * the queue's lock. */
void __skb_queue_purge(struct sk_buff_head *list);
void skb_queue_purge(struct sk_buff_head *list);

static inline void skb_queue_tail(struct sk_buff_head *list,
				  struct sk_buff *skb)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_tail(list, skb);
	spin_unlock_irqrestore(&list->lock, flags);
}

static inline struct sk_buff *skb_dequeue(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *skb;

	spin_lock_irqsave(&list->lock, flags);
	skb = __skb_dequeue(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return skb;
}

#endif /* RXSCALE_KERN_SKBUFF_H */
