/* SPDX-License-Identifier: MIT */
/*
 * rss_indir.h - the RSS indirection table: hash -> RX queue.
 *
 * queue = tbl[hash & (size - 1)]: the low bits of the hash index a
 * power-of-two table (RTL8125 family: 128 one-byte entries at 0x4700,
 * RSS_CTRL[10:8] = log2(size); rtl8127-hw.md s2.1-2.3; QEMU igb/e1000e and
 * virtio-net index the same way).  This differs from hash % n whenever n
 * does not divide the table size.
 *
 * The fill helpers follow ethtool's -X semantics (ethtool.8, ethtool.c
 * fill_indir_table): "default" is the kernel's ethtool_rxfh_indir_default()
 * (i % n), "equal N" is start + i % N, "weight W0 W1 ..." gives queue
 * start + j a contiguous run of entries in proportion to Wj.
 */
#ifndef RXSCALE_RSS_INDIR_H
#define RXSCALE_RSS_INDIR_H

#include <stdint.h>

#define RSS_INDIR_MAX	512	/* entries; the RTL8125 family has 128 */

struct rss_indir {
	unsigned size;			/* entries, a power of two */
	uint32_t tbl[RSS_INDIR_MAX];	/* RX queue per entry */
};

/**
 * rss_indir_default() - tbl[i] = i % n_rx (ethtool_rxfh_indir_default).
 * @size: entries, power of two, 1..RSS_INDIR_MAX
 * @n_rx: RX queues, >= 1
 * Return: 0 or -EINVAL.
 */
int rss_indir_default(struct rss_indir *t, unsigned size, unsigned n_rx);

/**
 * rss_indir_equal() - "ethtool -X equal N [start S]": tbl[i] = S + i % N.
 * Return: 0, or -EINVAL for a bad size or N == 0.  Whether S + N - 1 is a
 * valid queue is rss_indir_check()'s job, as in the kernel.
 */
int rss_indir_equal(struct rss_indir *t, unsigned size, unsigned n,
		    unsigned start);

/**
 * rss_indir_weight() - "ethtool -X weight W0 W1 ... [start S]".
 * @w: @n weights
 * Return: 0, or -EINVAL for a bad size, n == 0, all weights zero, or a
 * total weight above the table size (ethtool's "At least one weight must
 * be non-zero" / "Total weight exceeds the size of the indirection table").
 */
int rss_indir_weight(struct rss_indir *t, unsigned size, const uint32_t *w,
		     unsigned n, unsigned start);

/**
 * rss_indir_check() - the kernel ethtool core's validation of a table
 * before it reaches a driver (ethtool_copy_validate_indir): every entry
 * must be < @n_rx.  Return: 0 or -EINVAL.
 */
int rss_indir_check(const struct rss_indir *t, unsigned n_rx);

/** rss_indir_max_queue() - the highest queue the table uses. */
unsigned rss_indir_max_queue(const struct rss_indir *t);

/** rss_indir_queue() - the RX queue for @hash. */
static inline unsigned rss_indir_queue(const struct rss_indir *t,
				       uint32_t hash)
{
	return t->tbl[hash & (t->size - 1)];
}

#endif /* RXSCALE_RSS_INDIR_H */
