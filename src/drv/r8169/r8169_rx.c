// SPDX-License-Identifier: MIT
/*
 * r8169_rx.c - RX rings, the three RX descriptor formats, and the RX half
 * of the NAPI poll, with the RTL8127 OwnBit re-check.
 */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "r8169.h"

/* ---- descriptor formats (rtl_desc.h; research s8) ---- */

static u32 v1_opts1(const void *d)
{
	return le32_to_cpu(READ_ONCE(((const struct rtl_rx_desc *)d)->opts1));
}

static bool v1_csum_ok(const void *d)
{
	u32 o1 = le32_to_cpu(((const struct rtl_rx_desc *)d)->opts1);
	u32 proto = o1 & RTL_RX1_PROTO_MASK;

	/* TCP or UDP (not "other IP", which sets both) and no failure */
	if (proto == RTL_RX1_TCPT)
		return !(o1 & (RTL_RX1_IPF | RTL_RX1_TCPF));
	if (proto == RTL_RX1_UDPT)
		return !(o1 & (RTL_RX1_IPF | RTL_RX1_UDPF));
	return false;
}

static bool vlan_from_opts2(u32 o2, u16 *tci)
{
	if (!(o2 & RTL_RX_VLAN_TAG))
		return false;
	*tci = swab16((u16)(o2 & RTL_RX_VLAN_TCI_MASK));  /* big-endian in desc */
	return true;
}

static bool v1_vlan(const void *d, u16 *tci)
{
	return vlan_from_opts2(le32_to_cpu(((const struct rtl_rx_desc *)d)->opts2), tci);
}

static bool no_hash(const void *d, u32 *hash, bool *l4)
{
	(void)d; (void)hash; (void)l4;
	return false;
}

static void v1_refill(void *desc, dma_addr_t dma, u32 size, bool eor)
{
	struct rtl_rx_desc *d = desc;

	d->addr = cpu_to_le64(dma);
	d->opts2 = 0;
	dma_wmb();      /* address before ownership */
	WRITE_ONCE(d->opts1, cpu_to_le32(RTL_DESC_OWN | (eor ? RTL_DESC_EOR : 0) |
					 (size & RTL_RX_LEN_MASK)));
}

static const struct rtl_rx_desc_ops rtl_rx_desc_ops_v1 = {
	.fmt = &rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V1],
	.opts1 = v1_opts1,
	.csum_ok = v1_csum_ok,
	.vlan = v1_vlan,
	.hash = no_hash,
	.refill = v1_refill,
};

static u32 v3_opts1(const void *d)
{
	return le32_to_cpu(READ_ONCE(((const struct rtl_rx_desc_v3 *)d)->opts1));
}

static bool v3_csum_ok(const void *d)
{
	u32 o2 = le32_to_cpu(((const struct rtl_rx_desc_v3 *)d)->opts2);

	if (o2 & RTL_RX3_TCPT)
		return !(o2 & (RTL_RX3_IPF | RTL_RX3_TCPF));
	if (o2 & RTL_RX3_UDPT)
		return !(o2 & (RTL_RX3_IPF | RTL_RX3_UDPF));
	return false;
}

static bool v3_vlan(const void *d, u16 *tci)
{
	return vlan_from_opts2(le32_to_cpu(((const struct rtl_rx_desc_v3 *)d)->opts2), tci);
}

static bool v3_hash(const void *desc, u32 *hash, bool *l4)
{
	const struct rtl_rx_desc_v3 *d = desc;
	u16 hi = le16_to_cpu(d->header_info);

	if (!(hi & RTL_RX3_HI_L3_MASK))
		return false;
	*hash = le32_to_cpu(d->rss_result);
	*l4 = hi & RTL_RX3_HI_L4_MASK;
	return true;
}

static void v3_refill(void *desc, dma_addr_t dma, u32 size, bool eor)
{
	struct rtl_rx_desc_v3 *d = desc;

	d->addr = cpu_to_le64(dma);
	d->opts2 = 0;
	d->rss_result = 0;
	d->header_info = 0;
	dma_wmb();
	WRITE_ONCE(d->opts1, cpu_to_le32(RTL_DESC_OWN | (eor ? RTL_DESC_EOR : 0) |
					 (size & RTL_RX_LEN_MASK)));
}

static const struct rtl_rx_desc_ops rtl_rx_desc_ops_v3 = {
	.fmt = &rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V3],
	.opts1 = v3_opts1,
	.csum_ok = v3_csum_ok,
	.vlan = v3_vlan,
	.hash = v3_hash,
	.refill = v3_refill,
};

static u32 v4_opts1(const void *d)
{
	return le32_to_cpu(READ_ONCE(((const struct rtl_rx_desc_v4 *)d)->opts1));
}

static bool v4_csum_ok(const void *d)
{
	u32 o1 = le32_to_cpu(((const struct rtl_rx_desc_v4 *)d)->opts1);

	if (o1 & RTL_RX4_TCPT)
		return !(o1 & (RTL_RX4_IPF | RTL_RX4_TCPF));
	if (o1 & RTL_RX4_UDPT)
		return !(o1 & (RTL_RX4_IPF | RTL_RX4_UDPF));
	return false;
}

static bool v4_vlan(const void *d, u16 *tci)
{
	return vlan_from_opts2(le32_to_cpu(((const struct rtl_rx_desc_v4 *)d)->opts2), tci);
}

static bool v4_hash(const void *desc, u32 *hash, bool *l4)
{
	const struct rtl_rx_desc_v4 *d = desc;
	u32 ri = le32_to_cpu(d->rss_info);

	if (!(ri & RTL_RX4_RI_L3_MASK))
		return false;
	*hash = le32_to_cpu(d->rss_result);
	*l4 = ri & RTL_RX4_RI_L4_MASK;
	return true;
}

/* Type 4 write-back replaced the buffer address with the hash, so the
 * address is written again on every refill (research s8; the vendor and
 * DPDK do the same).
 */
static void v4_refill(void *desc, dma_addr_t dma, u32 size, bool eor)
{
	struct rtl_rx_desc_v4 *d = desc;

	d->addr = cpu_to_le64(dma);
	d->opts2 = 0;
	dma_wmb();
	WRITE_ONCE(d->opts1, cpu_to_le32(RTL_DESC_OWN | (eor ? RTL_DESC_EOR : 0) |
					 (size & RTL_RX_LEN_MASK)));
}

static const struct rtl_rx_desc_ops rtl_rx_desc_ops_v4 = {
	.fmt = &rtl_rx_desc_fmts[RTL_RX_DESC_FMT_V4],
	.opts1 = v4_opts1,
	.csum_ok = v4_csum_ok,
	.vlan = v4_vlan,
	.hash = v4_hash,
	.refill = v4_refill,
};

static const struct rtl_rx_desc_ops *const rtl_rx_desc_ops_all[] = {
	&rtl_rx_desc_ops_v1, &rtl_rx_desc_ops_v3, &rtl_rx_desc_ops_v4,
};

/**
 * rtl_rx_desc_ops_for() - the accessors for an RX descriptor format
 * @fmt: the datasheet row of a descriptor format
 *
 * The accessors for descriptor row @fmt; type 1's for a row without.
 *
 * Return: the format's ops; type 1's for a row without.
 */
const struct rtl_rx_desc_ops *rtl_rx_desc_ops_for(const struct rtl_rx_desc_fmt *fmt)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(rtl_rx_desc_ops_all); i++)
		if (rtl_rx_desc_ops_all[i]->fmt == fmt)
			return rtl_rx_desc_ops_all[i];
	return &rtl_rx_desc_ops_v1;
}

/* ---- rings ---- */

/**
 * rtl_rx_ops_for_queues() - the RX descriptor format for a queue count
 * @tp: the device
 * @nrx: number of RX queues
 *
 * Return: the chip's RSS format with two queues or more, else type 1's.
 */
const struct rtl_rx_desc_ops *rtl_rx_ops_for_queues(const struct rtl8169_private *tp,
						    unsigned int nrx)
{
	return rtl_rx_desc_ops_for(nrx >= 2 ? tp->chip->rx_desc : rtl_rx_desc_fmt_basic);
}

static void *rx_desc(struct rtl_rx_ring *ring, unsigned int i)
{
	return (u8 *)ring->desc + (size_t)i * ring->ops->fmt->size;
}

/**
 * rtl_rx_ring_alloc() - lay out an RX ring with mapped buffers, all given to the device
 * @tp: the device
 * @ring: the ring
 * @ops: the descriptor format
 * @size: number of descriptors, a power of two
 *
 * Lay out @ring: @size descriptors of format @ops, each with a mapped
 * buffer, all given to the device.  The ring's index and statistics are
 * the caller's.
 *
 * The ring's index and statistics are the caller's.
 *
 * Context: process.
 * Return: 0, -EINVAL (size not a power of two) or -ENOMEM.
 */
int rtl_rx_ring_alloc(struct rtl8169_private *tp, struct rtl_rx_ring *ring,
		      const struct rtl_rx_desc_ops *ops, unsigned int size)
{
	struct device *d = &tp->pdev->dev;
	size_t bytes = (size_t)size * ops->fmt->size;
	unsigned int i;

	/* cur_rx is free-running, masked with num_desc - 1 */
	if (!is_power_of_2(size))
		return -EINVAL;
	ring->tp = tp;
	ring->ops = ops;
	ring->num_desc = size;
	ring->cur_rx = 0;
	/* dma_alloc_coherent memory is page aligned: 256-byte alignment of
	 * the ring base (K "Rx and Tx descriptors needs 256 bytes
	 * alignment") holds.
	 */
	ring->desc = dma_alloc_coherent(d, bytes, &ring->desc_dma, GFP_KERNEL);
	if (!ring->desc)
		return -ENOMEM;
	ring->buf = kcalloc(size, sizeof(*ring->buf), GFP_KERNEL);
	ring->buf_dma = kcalloc(size, sizeof(*ring->buf_dma), GFP_KERNEL);
	if (!ring->buf || !ring->buf_dma)
		goto err_free;
	for (i = 0; i < size; i++) {
		ring->buf[i] = kzalloc(R8169_RX_BUF_SIZE, GFP_KERNEL);
		if (!ring->buf[i])
			goto err_free;
		ring->buf_dma[i] = dma_map_single(d, ring->buf[i], R8169_RX_BUF_SIZE,
						  DMA_FROM_DEVICE);
		if (dma_mapping_error(d, ring->buf_dma[i])) {
			kfree(ring->buf[i]);
			ring->buf[i] = NULL;
			goto err_free;
		}
		ops->refill(rx_desc(ring, i), ring->buf_dma[i], R8169_RX_BUF_SIZE,
			    i == size - 1);
	}
	return 0;

err_free:
	rtl_rx_ring_free(tp, ring);
	return -ENOMEM;
}

/**
 * rtl_rx_ring_free() - unmap and free an RX ring and its buffers
 * @tp: the device
 * @ring: the ring
 *
 * Context: process; the device no longer uses the ring.
 */
void rtl_rx_ring_free(struct rtl8169_private *tp, struct rtl_rx_ring *ring)
{
	struct device *d = &tp->pdev->dev;

	if (ring->buf) {
		for (unsigned int i = 0; i < ring->num_desc; i++) {
			if (!ring->buf[i])
				continue;
			dma_unmap_single(d, ring->buf_dma[i], R8169_RX_BUF_SIZE,
					 DMA_FROM_DEVICE);
			kfree(ring->buf[i]);
		}
	}
	kfree(ring->buf);
	kfree(ring->buf_dma);
	ring->buf = NULL;
	ring->buf_dma = NULL;
	if (ring->desc)
		dma_free_coherent(d, (size_t)ring->num_desc * ring->ops->fmt->size,
				  ring->desc, ring->desc_dma);
	ring->desc = NULL;
}

/*
 * The device is stopped and NAPI disabled: descriptors it completed that
 * no poll took are frames that reached host memory and will never reach
 * the stack.  Mainline drivers free such buffers uncounted when they tear
 * a ring down (igc_clean_rx_ring, ice_clean_rx_ring, mlx5e_free_rx_descs
 * release the buffers only); here each is counted, so that every frame
 * the device delivered is in packets or in one drop reason.
 */
/* A frame not delivered: @reason and drops, one update. */
static void rtl_rx_drop(struct rtl_rx_ring *ring, u64_stats_t *reason)
{
	u64_stats_update_begin(&ring->stats.syncp);
	u64_stats_inc(reason);
	u64_stats_inc(&ring->stats.drops);
	u64_stats_update_end(&ring->stats.syncp);
}

/**
 * rtl_rx_pending() - whether the device completed a descriptor no poll took yet
 * @ring: the ring
 *
 * Context: any (the service timer reads it beside the poll).
 * Return: true if one is waiting.
 */
bool rtl_rx_pending(struct rtl_rx_ring *ring)
{
	return ring->desc &&
	       !(ring->ops->opts1(rx_desc(ring, READ_ONCE(ring->cur_rx) & (ring->num_desc - 1))) &
		 RTL_DESC_OWN);
}

/**
 * rtl_rx_ring_flush() - count descriptors completed but never polled before the ring is freed
 * @ring: the ring
 *
 * Context: process; the device is stopped and NAPI disabled.
 */
void rtl_rx_ring_flush(struct rtl_rx_ring *ring)
{
	if (!ring->desc)
		return;
	for (unsigned int n = 0; n < ring->num_desc; n++) {
		void *desc = rx_desc(ring, (ring->cur_rx + n) & (ring->num_desc - 1));

		if (ring->ops->opts1(desc) & RTL_DESC_OWN)
			break;
		rtl_rx_drop(ring, &ring->stats.flushed);
	}
}

/*
 * OWN still set: is the descriptor really the device's?  The RTL8127 may
 * raise the interrupt before its descriptor write-back reaches memory
 * (seeds/000, the RFC's rtl8127_desc_quirk).  A read from the device
 * cannot pass the device's earlier posted writes (PCIe ordering), so one
 * MMIO read flushes them; then OWN is read again (research s6; the
 * vendor drivers read IMR0 with an 8-bit access).
 */
static __always_inline u32 rtl_recheck_own(struct rtl_rx_ring *ring,
					   const struct rtl_rx_desc_ops *ops,
					   const void *desc, u32 st)
{
	struct rtl8169_private *tp = ring->tp;

	if (!tp->recheck_ownbit)
		return st;
	(void)rtl_r8(tp, RTL_IntrMask_8125);
	st = ops->opts1(desc);
	if (!(st & RTL_DESC_OWN)) {
		u64_stats_update_begin(&ring->stats.syncp);
		u64_stats_inc(&ring->stats.ownbit_rechecks);
		u64_stats_update_end(&ring->stats.syncp);
	}
	return st;
}

/* The RX poll's body for descriptor format @ops, a constant at each of
 * the three call sites below: inlined there, every ops-> call becomes a
 * direct (inlinable) call, so no frame costs an indirect call (a
 * retpoline with the Spectre v2 mitigations on).
 */
static __always_inline int __rtl_rx(struct rtl_rx_ring *ring, struct napi_struct *napi,
				    int budget, const struct rtl_rx_desc_ops *ops)
{
	struct rtl8169_private *tp = ring->tp;
	const u32 fs_ls = ops->fmt->fs | ops->fmt->ls;
	struct device *d = &tp->pdev->dev;
	unsigned int packets = 0, csum_ok = 0;
	u64 bytes = 0;
	int count;

	for (count = 0; count < budget; count++) {
		unsigned int entry = ring->cur_rx & (ring->num_desc - 1);
		void *desc = rx_desc(ring, entry);
		u32 status = ops->opts1(desc);
		unsigned int len;
		struct sk_buff *skb;
		u32 hash;
		bool l4;
		u16 tci;

		if (status & RTL_DESC_OWN) {
			status = rtl_recheck_own(ring, ops, desc, status);
			if (status & RTL_DESC_OWN)
				break;
		}
		/* read the rest of the descriptor only after OWN */
		dma_rmb();
		len = status & RTL_RX_LEN_MASK;
		if (unlikely(status & ops->fmt->err_mask)) {
			rtl_rx_drop(ring, &ring->stats.errors);
			goto release;
		}
		/* A frame spanning descriptors (longer than the buffer) is not
		 * supported: RxMaxSize keeps the device from making one.
		 */
		if (unlikely((status & fs_ls) != fs_ls ||
			     len < ETH_HLEN + ETH_FCS_LEN || len > R8169_RX_BUF_SIZE)) {
			rtl_rx_drop(ring, &ring->stats.length);
			goto release;
		}
		len -= ETH_FCS_LEN;
		skb = napi_alloc_skb(napi, len);
		if (unlikely(!skb)) {
			rtl_rx_drop(ring, &ring->stats.alloc_fail);
			goto release;
		}
		dma_sync_single_for_cpu(d, ring->buf_dma[entry], len, DMA_FROM_DEVICE);
		/* copy out and recycle the buffer at once, as r8169 does: the
		 * device owns it again before its descriptor is given back
		 */
		skb_put_data(skb, ring->buf[entry], len);
		dma_sync_single_for_device(d, ring->buf_dma[entry], len, DMA_FROM_DEVICE);
		if ((tp->dev->features & NETIF_F_RXHASH) && ops->hash(desc, &hash, &l4))
			skb_set_hash(skb, hash, l4 ? PKT_HASH_TYPE_L4 : PKT_HASH_TYPE_L3);
		if (ops->csum_ok(desc)) {
			skb->ip_summed = CHECKSUM_UNNECESSARY;
			csum_ok++;
		} else {
			skb->ip_summed = CHECKSUM_NONE;
		}
		if (ops->vlan(desc, &tci))
			__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), tci);
		skb->protocol = eth_type_trans(skb, tp->dev);
		skb_record_rx_queue(skb, (u16)ring->index);
		packets++;
		bytes += len;
		napi_gro_receive(napi, skb);
release:
		ops->refill(desc, ring->buf_dma[entry], R8169_RX_BUF_SIZE,
			    entry == ring->num_desc - 1);
		/* the service timer reads it on another CPU (rtl_watchdog) */
		WRITE_ONCE(ring->cur_rx, ring->cur_rx + 1);
	}
	u64_stats_update_begin(&ring->stats.syncp);
	u64_stats_add(&ring->stats.packets, packets);
	u64_stats_add(&ring->stats.bytes, bytes);
	u64_stats_add(&ring->stats.csum_ok, csum_ok);
	u64_stats_update_end(&ring->stats.syncp);
	return count;
}

static int rtl_rx_v1(struct rtl_rx_ring *ring, struct napi_struct *napi, int budget)
{
	return __rtl_rx(ring, napi, budget, &rtl_rx_desc_ops_v1);
}

static int rtl_rx_v3(struct rtl_rx_ring *ring, struct napi_struct *napi, int budget)
{
	return __rtl_rx(ring, napi, budget, &rtl_rx_desc_ops_v3);
}

static int rtl_rx_v4(struct rtl_rx_ring *ring, struct napi_struct *napi, int budget)
{
	return __rtl_rx(ring, napi, budget, &rtl_rx_desc_ops_v4);
}

/**
 * rtl_rx() - the RX half of the NAPI poll
 * @ring: the RX queue
 * @napi: its NAPI instance (skb allocation, GRO)
 * @budget: at most this many descriptors
 *
 * One poll per descriptor format (rtl_rx_v1/v3/v4), chosen once per call
 * by a compare, not an indirect call.
 *
 * Context: NAPI poll of @ring's vector.
 * Return: descriptors consumed (frames delivered or dropped).
 */
int rtl_rx(struct rtl_rx_ring *ring, struct napi_struct *napi, int budget)
{
	if (ring->ops == &rtl_rx_desc_ops_v4)
		return rtl_rx_v4(ring, napi, budget);
	if (ring->ops == &rtl_rx_desc_ops_v3)
		return rtl_rx_v3(ring, napi, budget);
	return rtl_rx_v1(ring, napi, budget);
}
