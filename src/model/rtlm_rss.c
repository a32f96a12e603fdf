// SPDX-License-Identifier: MIT
/*
 * rtlm_rss.c - the RSS engine: RSS_CTRL (0x4500), the 40-byte key at
 * 0x4600, the 128-entry indirection table at 0x4700 and Q_NUM_CTRL
 * (0x4800), s2.  The hash and the hash-type rules are src/rss's
 * (rss_classify over a src/net dissection): one hash implementation in
 * the project.  The register bytes are turned into src/rss objects when
 * a frame needs them after a write (rss_dirty).
 *
 * Contract from rtl_defines.h (the [I] choices made in src/hw):
 *  - RSS is on when any hash-type bit of RSS_CTRL is set (no enable bit);
 *    off => every frame to queue 0, no hash;
 *  - queue = indir[hash & (2^RSS_CTRL[10:8] - 1)], the low hash bits;
 *  - a frame no enabled type matches goes to queue 0 with no hash;
 *  - an entry >= the enabled RX rings is a driver error: reported, and
 *    the frame goes to queue 0.
 * The model's own choices: the enabled RX rings are 2^Q_NUM_CTRL[4:2]
 * (the RX DMA's ring count, V127 rtl8127_set_rx_q_num) capped at the
 * chip's rings; RSS_CTRL[18:16] is stored but not used (the drivers write
 * the same count into both).  A table-size field above the chip's table
 * (2^7 = 128) is a guest error and clipped.  A chip row without RSS
 * (rss_indir_size 0, RTL8125A) keeps the registers but never hashes.
 * The what-if row (rtl_chips.h) takes both sizes from RSS_CFG_WHATIF and
 * entries 128..255 from RSS_INDIR_WHATIF.
 */
#include <string.h>

#include "hw/rtl_defines.h"
#include "model/rtlm_priv.h"

void rtlm_rss_write(struct rtlm_dev *dev, unsigned ri, unsigned elem,
		    uint32_t old, uint32_t val)
{
	(void)ri;
	(void)elem;
	(void)old;
	(void)val;
	dev->rss_dirty = true;
}

unsigned rtlm_rx_rings(struct rtlm_dev *dev)
{
	uint32_t lg = dev->chip->whatif ?
		(rtlm_rd(dev, RTL_RI_RSS_CFG_WHATIF) & RTL_RSS_CFG_WHATIF_QNUM_MASK) >>
		RTL_RSS_CFG_WHATIF_QNUM_SHIFT :
		(rtlm_rd(dev, RTL_RI_Q_NUM_CTRL_8125) & RTL_Q_NUM_MASK) >> RTL_Q_NUM_SHIFT;
	unsigned n = 1u << lg;

	return n < dev->chip->caps->rx_queues ? n : dev->chip->caps->rx_queues;
}

static void rss_rebuild(struct rtlm_dev *dev)
{
	uint32_t ctrl = rtlm_rd(dev, RTL_RI_RSS_CTRL_8125);
	unsigned lg = dev->chip->whatif ?
		rtlm_rd(dev, RTL_RI_RSS_CFG_WHATIF) & RTL_RSS_CFG_WHATIF_INDIR_MASK :
		(ctrl & RTL_RSS_CTRL_INDIR_MASK) >> RTL_RSS_CTRL_INDIR_SHIFT;
	unsigned size = dev->chip->caps->rss_indir_size;
	uint8_t key[RTLM_RSS_KEY_MAX];
	unsigned klen = dev->chip->caps->rss_key_size;

	dev->rss_dirty = false;
	if (!size || !dev->chip->caps->rss_key_size)
		return;
	if ((1u << lg) > size) {
		rtlm_guest_error(dev, "RSS_CTRL table size 2^%u > %u entries",
				 lg, size);
		while ((1u << lg) > size)
			lg--;
	}
	dev->rss_indir.size = 1u << lg;
	for (unsigned i = 0; i < dev->rss_indir.size; i++)
		dev->rss_indir.tbl[i] = i < RTL_RSS_INDIR_REAL ?
			rtlm_reg_byte(dev, RTL_RI_RSS_INDIRECTION_TBL_8125_V2, i) :
			rtlm_reg_byte(dev, RTL_RI_RSS_INDIR_WHATIF, i - RTL_RSS_INDIR_REAL);
	if (klen > sizeof(key))
		klen = sizeof(key);
	for (unsigned i = 0; i < klen; i++)
		key[i] = rtlm_reg_byte(dev, RTL_RI_RSS_KEY_8125, i);
	if (dev->rss_key_ok)
		rss_thash_fini(&dev->rss_key);
	dev->rss_key_ok = rss_thash_init(&dev->rss_key, key, klen) == 0;
}

void rtlm_rss_classify(struct rtlm_dev *dev, const struct net_flow *f,
		       struct rss_result *r)
{
	uint32_t ht = rtlm_rd(dev, RTL_RI_RSS_CTRL_8125) & RTL_RSS_CTRL_HASH_MASK;
	struct rss_cfg cfg;
	unsigned rings;

	if (dev->rss_dirty)
		rss_rebuild(dev);
	memset(r, 0, sizeof(*r));
	if (!ht || !dev->rss_key_ok || !dev->rss_indir.size)
		return;		/* RSS off: queue 0, no hash */
	cfg.key = &dev->rss_key;
	cfg.indir = &dev->rss_indir;
	cfg.ht = ht;
	cfg.xfrm = 0;
	rss_classify(&cfg, f, r);
	rings = rtlm_rx_rings(dev);
	if (r->queue >= rings) {
		rtlm_guest_error(dev, "indirection entry %u -> queue %u, only %u RX rings enabled",
				 r->hash & (dev->rss_indir.size - 1), r->queue,
				 rings);
		dev->st.rx_bad_indir++;
		r->queue = 0;
	}
}

void rtlm_rss_fini(struct rtlm_dev *dev)
{
	if (dev->rss_key_ok)
		rss_thash_fini(&dev->rss_key);
	dev->rss_key_ok = false;
}
