// SPDX-License-Identifier: MIT
/*
 * rtlm_rx.c - the receive path: MAC checks and RSS at arrival, then, after
 * the pipeline latency, the descriptor of the chosen queue's ring, the
 * frame DMA and the write-back (s3, s8).
 *
 * Rings (s3): queue 0 at RxDescAddrLow/High (0xE4), queue n at
 * 0x4000 + (n-1)*8; no size register: the descriptor with EOR wraps the
 * device back to the base.  The ring index returns to 0 when the ring's
 * base-address low register is written and at reset [I: drivers program
 * the base after every reset, K rtl_set_rx_tx_desc_registers].
 *
 * Descriptor type (s8 "Enabling the descriptor type"): RxConfig bit 24
 * selects type 3; CFG_D8 bit 1 with RxConfig bit 24 clear selects type 4;
 * otherwise type 1 -- the rows of rtl_desc.c (rtl_rx_desc_fmt_decode),
 * which also give every offset and bit the write-back uses.  [I] A type
 * the chip row does not have (rtl_chip_info.rx_desc) is a guest error and
 * type 1 is used.
 *
 * Write-back: the frame goes to the buffer, then every descriptor word
 * but opts1, then opts1 with OWN clear (the device writes opts1 last, as
 * the driver does, s8).  Type 4 overwrites the buffer address with
 * RSSInfo/RSSResult (s2.4).  The length includes the 4-byte FCS, which
 * the model computes (IEEE 802.3 CRC-32).  [I] A frame larger than the
 * buffer (opts1 length field at refill) is dropped (rx_buf_small) and the
 * descriptor left to the device: the model does not split frames over
 * descriptors (FS/LS are always both set).
 *
 * No descriptor with OWN set at the ring index => rx_missed, the tally's
 * rx_missed, RDU status; the ring and memory are left untouched.  [I] The
 * tally's rx_missed also counts frames dropped because the RX pipeline
 * was full (rx_fifo_over): on the chip a ring that stays full backs up
 * into the FIFO, and both are frames missed for lack of room.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/model_fcs.h"
#include "model/model_tally.h"
#include "model/rtlm_priv.h"
#include "net/net_build.h"

/* IEEE 802.3 FCS (model_fcs.h: zlib's crc32(), folded with PCLMULQDQ
 * where the CPU has it: a table-driven CRC of each 1,518-byte frame was a
 * third of the real-time platform's time at line rate). */
static uint32_t fcs32(const uint8_t *p, size_t len)
{
	return model_fcs32(p, len);
}

static void rx_done(struct sim *s, struct sim_event *ev);

static void frame_unlink(struct rtlm_dev *dev, struct rtlm_rx_frame *fr)
{
	if (fr->prev)
		fr->prev->next = fr->next;
	else
		dev->rx_head = fr->next;
	if (fr->next)
		fr->next->prev = fr->prev;
	else
		dev->rx_tail = fr->prev;
	dev->st.rx_inflight--;
}

/* ---- arrival: MAC checks, classification ---- */

static bool addr_filter(struct rtlm_dev *dev, const uint8_t *p)
{
	uint32_t rcr = rtlm_rd(dev, RTL_RI_RxConfig);
	uint32_t m0 = rtlm_rd(dev, RTL_RI_MAC0), m4 = rtlm_rd(dev, RTL_RI_MAC4);
	uint8_t mac[6] = { (uint8_t)m0, (uint8_t)(m0 >> 8), (uint8_t)(m0 >> 16),
			   (uint8_t)(m0 >> 24), (uint8_t)m4, (uint8_t)(m4 >> 8) };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (rcr & RTL_RXCFG_AAP)
		return true;
	if (!memcmp(p, bcast, 6))
		return rcr & RTL_RXCFG_AB;
	/* [I] no MAR hash filter: AM accepts every multicast */
	if (p[0] & 1)
		return rcr & RTL_RXCFG_AM;
	return (rcr & RTL_RXCFG_APM) && !memcmp(p, mac, 6);
}

/* Checksum status of a dissected frame (s8 opts1/opts2 IPF/TCPF/UDPF). */
static void rx_csum(struct rtlm_rx_frame *fr, const uint8_t *p, size_t len,
		    const struct net_flow *f)
{
	if (f->l3 == NET_L3_IPV4 && f->l3_ok) {
		unsigned ihl = (p[f->l3_off] & 0x0fu) * 4u;

		fr->ipf = f->l3_off + ihl > len ||
			  net_csum_fold(p + f->l3_off, ihl, 0) != 0;
	}
	if (!f->l4_ok || (f->l4 != NET_L4_TCP && f->l4 != NET_L4_UDP))
		return;
	{
		uint32_t end = f->l3_off + f->l3_len, l4len, s;
		const uint8_t *l4 = p + f->l4_off;

		if (end > len || end < f->l4_off)
			return;
		l4len = end - f->l4_off;
		/* UDP over IPv4 with checksum 0: not computed by the sender */
		if (f->l4 == NET_L4_UDP && f->l3 == NET_L3_IPV4 &&
		    l4len >= 8 && !l4[6] && !l4[7])
			return;
		s = rtlm_sum16(f->src, f->addr_len, 0);
		s = rtlm_sum16(f->dst, f->addr_len, s);
		s += f->ip_proto + (l4len & 0xffffu) + (l4len >> 16);
		fr->l4f = net_csum_fold(l4, l4len, s) != 0;
	}
}

static int rx_drop_now(uint64_t *ctr, int err)
{
	(*ctr)++;
	return err;
}

/* Sanitizer builds allocate every frame apart, so use-after-free stays
 * visible to them. */
#if defined(__SANITIZE_ADDRESS__)
#define FR_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FR_POOL 0
#endif
#endif
#ifndef FR_POOL
#define FR_POOL 1
#endif

/* A frame for @data bytes: from the pool when it fits.  NULL when out of
 * memory.  Only the header is zeroed. */
static struct rtlm_rx_frame *fr_alloc(struct rtlm_dev *dev, size_t data)
{
	struct rtlm_rx_frame *fr;
	bool pool = FR_POOL && data <= RTLM_FR_POOL_DATA;

	if (pool && dev->fr_pool) {
		fr = dev->fr_pool;
		dev->fr_pool = fr->next;
		dev->fr_pool_n--;
	} else {
		fr = malloc(sizeof(*fr) + (pool ? RTLM_FR_POOL_DATA : data));
		if (!fr)
			return NULL;
	}
	memset(fr, 0, sizeof(*fr));
	fr->pooled = pool;
	return fr;
}

static void fr_release(struct rtlm_dev *dev, struct rtlm_rx_frame *fr)
{
	if (fr->pooled && dev->fr_pool_n < RTLM_FR_POOL_MAX) {
		fr->next = dev->fr_pool;
		dev->fr_pool = fr;
		dev->fr_pool_n++;
		return;
	}
	free(fr);
}

/* The frame @frame of @len bytes, or (@src) its headers and builder. */
static int eth_rx(struct rtlm_dev *dev, const void *frame, size_t len,
		  const struct net_frame_src *src)
{
	const uint8_t *in = frame;
	uint8_t pad[RTLM_MIN_FRAME];
	struct rtlm_rx_frame *fr;
	struct rss_result rr;
	struct net_flow f;
	uint32_t maxsz, rcr, out;
	size_t strip = 0;

	if (!dev || !frame || !len)
		return -EINVAL;
	dev->st.rx_offered++;
	if (len < RTLM_MIN_FRAME) {
		memset(pad, 0, sizeof(pad));
		memcpy(pad, in, len);
		in = pad;
		len = RTLM_MIN_FRAME;
	}
	if (!dev->link_up)
		return rx_drop_now(&dev->st.rx_link_down, -ENETDOWN);
	if (!(rtlm_rd(dev, RTL_RI_ChipCmd) & RTL_CMD_RE))
		return rx_drop_now(&dev->st.rx_disabled, -EAGAIN);
	/* [I] RxMaxSize counts the FCS; 0 (never programmed) = no limit
	 * below the 14-bit length field */
	maxsz = rtlm_rd(dev, RTL_RI_RxMaxSize);
	if (len > RTLM_RX_MAX || (maxsz && len + RTLM_FCS_LEN > maxsz))
		return rx_drop_now(&dev->st.rx_too_long, -EMSGSIZE);
	if (!addr_filter(dev, in))
		return rx_drop_now(&dev->st.rx_filtered, -EPERM);
	net_dissect(in, len, NET_LINK_ETH, &f);
	rtlm_rss_classify(dev, &f, &rr);
	if (dev->st.rx_inflight >= dev->p.rx_fifo_frames) {
		dev->st.rx_fifo_over++;
		dev->tally.rx_missed++;
		rtlm_irq_event(dev, RTLM_IRQ_RX_FIFO, rr.queue);
		return -ENOBUFS;
	}
	rcr = rtlm_rd(dev, RTL_RI_RxConfig);
	/* [I] VLAN strip (K RX_VLAN_8125 = RxConfig bits 22|23): the outer
	 * 802.1Q or 802.1ad tag leaves the frame for opts2 */
	if ((rcr & (RTL_RXCFG_VLAN_INNER | RTL_RXCFG_VLAN_OUTER)) &&
	    f.n_vlan && (f.vlan_tpid[0] == 0x8100 || f.vlan_tpid[0] == 0x88A8))
		strip = 4;
	out = (uint32_t)(len - strip);
	fr = fr_alloc(dev, out + RTLM_FCS_LEN);          /* data: written below */
	if (!fr) {
		dev->st.rx_fifo_over++;
		dev->tally.rx_missed++;
		return -ENOBUFS;
	}
	fr->dev = dev;
	fr->q = rr.queue;
	fr->hash = rr.hash;
	fr->rss_type = rr.in.type;
	fr->build = NULL;
	if (src) {
		/* the headers for the tally; the bytes are built at the DMA */
		memcpy(fr->data, in, len < RTLM_SRC_HDR ? len : RTLM_SRC_HDR);
		memcpy(fr->desc, src->desc, src->desc_len);
		fr->build = src->build;
	} else if (strip) {
		fr->vlan = true;
		fr->vlan_tci = f.vlan_tci[0];
		memcpy(fr->data, in, 12);
		memcpy(fr->data + 12, in + 16, len - 16);
	} else {
		memcpy(fr->data, in, len);
	}
	if (!src)
		rtlm_put_le32(fr->data + out, dev->p.rx_fcs ? fcs32(fr->data, out) : 0);
	fr->len = out + RTLM_FCS_LEN;
	fr->v4 = f.l3 == NET_L3_IPV4;
	fr->v6 = f.l3 == NET_L3_IPV6;
	if (f.l4_ok && f.l4 == NET_L4_TCP)
		fr->l4 = 6;
	else if (f.l4_ok && f.l4 == NET_L4_UDP)
		fr->l4 = 17;
	/* trusted frames: the sums are right by construction (ipf/l4f stay
	 * clear, as summing would leave them) */
	if ((rtlm_rd(dev, RTL_RI_CPlusCmd) & RTL_CPCMD_RX_CSUM) && !dev->p.rx_csum_trusted)
		rx_csum(fr, in, len, &f);

	fr->prev = dev->rx_tail;
	if (dev->rx_tail)
		dev->rx_tail->next = fr;
	else
		dev->rx_head = fr;
	dev->rx_tail = fr;
	dev->st.rx_inflight++;
	sim_event_init(&fr->ev, rx_done, fr);
	sim_schedule_in(dev->sim, &fr->ev, dev->p.rx_proc_ns +
			dev->p.dma_write_ns + dev->p.faults.dma_write_delay_ns);
	return 0;
}

int rtlm_eth_rx(struct rtlm_dev *dev, const void *frame, size_t len)
{
	return eth_rx(dev, frame, len, NULL);
}

/* Nothing before the DMA reads a payload byte of the frame @hdr of @len
 * bytes: no FCS, checksums not verified, no VLAN tag (which could be
 * stripped), no padding, and the frame fits the pooled buffer (built
 * there for a transport's DMA). */
static bool src_lazy_ok(struct rtlm_dev *dev, const uint8_t *hdr, size_t len,
			const struct net_frame_src *src)
{
	uint16_t type = (uint16_t)(len >= 14 ? hdr[12] << 8 | hdr[13] : 0);

	return src->desc_len <= NET_FRAME_DESC_MAX && !dev->p.rx_fcs &&
	       (dev->p.rx_csum_trusted ||
		!(rtlm_rd(dev, RTL_RI_CPlusCmd) & RTL_CPCMD_RX_CSUM)) &&
	       type != 0x8100 && type != 0x88A8 &&
	       len >= RTLM_MIN_FRAME && len + RTLM_FCS_LEN <= RTLM_FR_POOL_DATA;
}

int rtlm_eth_rx_src(struct rtlm_dev *dev, const void *hdr, size_t len,
		    const struct net_frame_src *src)
{
	static uint8_t full[RTLM_RX_MAX];
	ssize_t n;

	if (!dev || !hdr || !len || !src || !src->build)
		return -EINVAL;
	if (src_lazy_ok(dev, hdr, len, src))
		return eth_rx(dev, hdr, len, src);
	n = src->build(src->desc, full, sizeof(full));
	if (n <= 0)
		return -EINVAL;
	return eth_rx(dev, full, (size_t)n, NULL);
}

/* ---- completion: ring, DMA, write-back ---- */

/* The frame's bytes into host memory at @buf: copied, or built there. */
static int rx_dma_frame(struct rtlm_dev *dev, struct rtlm_rx_frame *fr,
			uint64_t buf)
{
	size_t n = fr->len - RTLM_FCS_LEN;
	uint8_t *p;

	if (!fr->build)
		return plat_pci_dma_write(&dev->pci, buf, fr->data, fr->len);
	if (dev->pci.dma_ops) {
		/* a transport's memory: build here, then DMA */
		if (fr->build(fr->desc, fr->data, n) != (ssize_t)n)
			return -EFAULT;
		rtlm_put_le32(fr->data + n, 0);
		return plat_pci_dma_write(&dev->pci, buf, fr->data, fr->len);
	}
	p = plat_mem_write_ptr(dev->pci.mem, buf, fr->len, dev->pci.name);
	if (!p || fr->build(fr->desc, p, n) != (ssize_t)n)
		return -EFAULT;
	rtlm_put_le32(p + n, 0);        /* no FCS computed (rx_fcs off) */
	return 0;
}

/* The RX type the registers select (rtl_rx_desc_fmt_decode). */
static const struct rtl_rx_desc_fmt *rx_desc_fmt(struct rtlm_dev *dev)
{
	const struct rtl_rx_desc_fmt *f, *basic = rtl_rx_desc_fmt_basic;
	uint32_t rcr = rtlm_rd(dev, RTL_RI_RxConfig);
	uint8_t d8 = (uint8_t)rtlm_rd(dev, RTL_RI_CFG_D8);

	if (!dev->rx_fmt || rcr != dev->rx_fmt_rcr || d8 != dev->rx_fmt_d8) {
		dev->rx_fmt = rtl_rx_desc_fmt_decode(rcr, d8);
		dev->rx_fmt_rcr = rcr;
		dev->rx_fmt_d8 = d8;
	}
	f = dev->rx_fmt;
	if (f != basic && f != dev->chip->rx_desc) {
		rtlm_guest_error(dev, "RX descriptor type %u enabled, %s has type %u: using type %u",
				 f->type, dev->chip->name, dev->chip->rx_desc->type,
				 basic->type);
		f = basic;
	}
	return f;
}

static uint64_t rx_ring_base(struct rtlm_dev *dev, unsigned q)
{
	if (!q)
		return rtlm_rd(dev, RTL_RI_RxDescAddrLow) |
		       (uint64_t)rtlm_rd(dev, RTL_RI_RxDescAddrHigh) << 32;
	if (q >= RTL_WHATIF_FIRST_Q)	/* the what-if row's queues 4..255 */
		return *rtlm_reg(dev, RTL_RI_RDSAR_Q4_WHATIF, 2 * (q - RTL_WHATIF_FIRST_Q)) |
		       (uint64_t)*rtlm_reg(dev, RTL_RI_RDSAR_Q4_WHATIF,
					   2 * (q - RTL_WHATIF_FIRST_Q) + 1) << 32;
	return *rtlm_reg(dev, RTL_RI_RDSAR_Q1_LOW_8125, 2 * (q - 1)) |
	       (uint64_t)*rtlm_reg(dev, RTL_RI_RDSAR_Q1_LOW_8125,
				   2 * (q - 1) + 1) << 32;
}

static uint32_t vlan_opts2(const struct rtlm_rx_frame *fr)
{
	uint16_t t = fr->vlan_tci;

	if (!fr->vlan)
		return 0;
	/* TCI byte-swapped: the driver applies swab16 (s8 opts2) */
	return RTL_RX_VLAN_TAG | (uint32_t)(uint16_t)(t << 8 | t >> 8);
}

/* The hash-type bits of @fr in row @f (0 where the type has none). */
static uint32_t rx_hash_type(const struct rtl_rx_desc_fmt *f,
			     const struct rtlm_rx_frame *fr)
{
	switch (fr->rss_type) {
	case RSS_TYPE_IPV4: return f->ht_ipv4;
	case RSS_TYPE_TCP4: return f->ht_ipv4 | f->ht_tcp;
	case RSS_TYPE_UDP4: return f->ht_ipv4 | f->ht_udp;
	case RSS_TYPE_IPV6: return f->ht_ipv6;
	case RSS_TYPE_TCP6: return f->ht_ipv6 | f->ht_tcp;
	case RSS_TYPE_UDP6: return f->ht_ipv6 | f->ht_udp;
	default: return 0;
	}
}

/* Build the write-back of @fr in @d (descriptor bytes as read, laid out
 * as row @f); returns opts1, which goes at f->opts1_off. */
static uint32_t rx_writeback(const struct rtlm_rx_frame *fr,
			     const struct rtl_rx_desc_fmt *f, uint8_t *d)
{
	uint32_t eor = rtlm_le32(d + f->opts1_off) & RTL_DESC_EOR;
	uint32_t ip = (fr->v4 ? RTL_RX_V4F : 0) | (fr->v6 ? RTL_RX_V6F : 0);
	uint32_t o1 = eor | fr->len | f->fs | f->ls, o2 = ip | vlan_opts2(fr);
	bool tcp = fr->l4 == 6, udp = fr->l4 == 17;
	uint32_t cs = (tcp ? f->tcpt : 0) | (udp ? f->udpt : 0) |
		      (fr->ipf ? f->ipf : 0) |
		      (fr->l4f && tcp ? f->tcpf : 0) |
		      (fr->l4f && udp ? f->udpf : 0);

	if (f->csum_off == f->opts1_off)
		o1 |= cs;
	else
		o2 |= cs;
	if (f->hash_type_off >= 0) {
		uint32_t info = rx_hash_type(f, fr);

		for (unsigned i = 0; i < f->hash_type_size; i++)
			d[f->hash_type_off + i] = (uint8_t)(info >> 8 * i);
	}
	if (f->hash_off >= 0)
		rtlm_put_le32(d + f->hash_off, fr->hash);
	rtlm_put_le32(d + f->opts2_off, o2);
	return o1;
}

static void rx_done(struct sim *s, struct sim_event *ev)
{
	struct rtlm_rx_frame *fr = ev->arg;
	struct rtlm_dev *dev = fr->dev;
	const struct rtl_rx_desc_fmt *f = rx_desc_fmt(dev);
	unsigned q = fr->q, dsz = f->size, o1off = f->opts1_off;
	uint64_t base = rx_ring_base(dev, q), at, buf;
	uint8_t d[RTL_RX_DESC_MAX_SIZE];
	uint32_t o1;

	(void)s;
	frame_unlink(dev, fr);
	at = base + (uint64_t)dev->rx[q].cur * dsz;
	if (q < 32 && (dev->p.faults.rx_ring_full >> q) & 1)
		goto missed;
	if (plat_pci_dma_read(&dev->pci, at, d, dsz)) {
		rtlm_guest_error(dev, "RX queue %u descriptor %u at 0x%llx is not DMA-visible",
				 q, dev->rx[q].cur, (unsigned long long)at);
		dev->st.rx_dma_err[q]++;
		goto out;
	}
	o1 = rtlm_le32(d + o1off);
	if (!(o1 & RTL_DESC_OWN))
		goto missed;
	if ((o1 & RTL_RX_LEN_MASK) < fr->len) {
		dev->st.rx_buf_small[q]++;
		goto out;
	}
	buf = rtlm_le64(d + f->addr_off);
	if (rx_dma_frame(dev, fr, buf)) {
		rtlm_guest_error(dev, "RX queue %u buffer 0x%llx (%u bytes) is not DMA-visible",
				 q, (unsigned long long)buf, fr->len);
		dev->st.rx_dma_err[q]++;
		goto out;
	}
	o1 = rx_writeback(fr, f, d);
	/* every word but opts1, then opts1 last */
	if (o1off)
		plat_pci_dma_write(&dev->pci, at, d, o1off);
	if (o1off + 4 < dsz)
		plat_pci_dma_write(&dev->pci, at + o1off + 4, d + o1off + 4,
				   dsz - o1off - 4);
	rtlm_wb_opts1(dev, at + o1off, o1, true);
	dev->rx[q].cur = (o1 & RTL_DESC_EOR) ? 0 : dev->rx[q].cur + 1;
	dev->st.rx_ok[q]++;
	dev->st.rx_bytes[q] += fr->len;
	model_tally_rx(&dev->tally, fr->data);
	rtlm_irq_event(dev, RTLM_IRQ_RX_OK, q);
	goto out;
missed:
	dev->st.rx_missed[q]++;
	dev->tally.rx_missed++;
	rtlm_irq_event(dev, RTLM_IRQ_RX_DU, q);
out:
	fr_release(dev, fr);
}

/* ---- registers ---- */

void rtlm_rx_ring_base_write(struct rtlm_dev *dev, unsigned ri,
			     unsigned elem, uint32_t old, uint32_t val)
{
	unsigned q = ri == RTL_RI_RDSAR_Q1_LOW_8125 ? elem / 2 + 1 :
		     ri == RTL_RI_RDSAR_Q4_WHATIF ? elem / 2 + RTL_WHATIF_FIRST_Q : 0;
	bool low = ri == RTL_RI_RxDescAddrLow ||
		   (ri != RTL_RI_RxDescAddrHigh && !(elem & 1));

	(void)old;
	if (!low)
		return;
	if (val % RTL_RING_ALIGN)
		rtlm_guest_error(dev, "RX ring %u base 0x%x not %u-byte aligned",
				 q, val, RTL_RING_ALIGN);
	dev->rx[q].cur = 0;
}

/* ChipCmd bit 0 RxBufEmpty [I]: 1 while no frame is in the RX pipeline. */
uint32_t rtlm_chipcmd_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
			   uint32_t stored)
{
	(void)ri;
	(void)elem;
	stored &= ~RTL_CMD_RX_BUF_EMPTY;
	return stored | (dev->st.rx_inflight ? 0 : RTL_CMD_RX_BUF_EMPTY);
}

static void rx_drop_all(struct rtlm_dev *dev, bool count)
{
	struct rtlm_rx_frame *fr;

	if (!dev->rx_head)
		return;
	for (fr = dev->rx_head; fr; fr = fr->next)
		sim_cancel(dev->sim, &fr->ev);
	/* no heap entry may outlive the memory it points to */
	sim_purge(dev->sim);
	while ((fr = dev->rx_head)) {
		frame_unlink(dev, fr);
		if (count)
			dev->st.rx_reset++;
		fr_release(dev, fr);
	}
}

void rtlm_rx_reset(struct rtlm_dev *dev)
{
	rx_drop_all(dev, true);
	for (unsigned q = 0; q < dev->chip->caps->rx_queues; q++)
		dev->rx[q].cur = 0;
}

void rtlm_rx_fini(struct rtlm_dev *dev)
{
	struct rtlm_rx_frame *fr;

	rx_drop_all(dev, false);
	while ((fr = dev->fr_pool)) {
		dev->fr_pool = fr->next;
		free(fr);
	}
	dev->fr_pool_n = 0;
}

/* MCU (0xD3): the driver's bits as stored, the FIFO and link-list status
 * from the model's state (rtl_regs.def). */
uint32_t rtlm_mcu_read(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		       uint32_t stored)
{
	(void)ri;
	(void)elem;
	stored &= ~(uint32_t)(RTL_MCU_TX_EMPTY | RTL_MCU_RX_EMPTY);
	if (!dev->tx_pending)
		stored |= RTL_MCU_TX_EMPTY;
	if (!dev->st.rx_inflight)
		stored |= RTL_MCU_RX_EMPTY;
	return stored | RTL_MCU_LINK_LIST_RDY;
}
