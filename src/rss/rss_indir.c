/* SPDX-License-Identifier: MIT */
/* rss_indir.c - indirection table fills; see rss_indir.h. */
#include "rss/rss_indir.h"

#include <errno.h>
#include <string.h>

static int set_size(struct rss_indir *t, unsigned size)
{
	if (size == 0 || size > RSS_INDIR_MAX || (size & (size - 1)))
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->size = size;
	return 0;
}

int rss_indir_default(struct rss_indir *t, unsigned size, unsigned n_rx)
{
	return rss_indir_equal(t, size, n_rx, 0);
}

int rss_indir_equal(struct rss_indir *t, unsigned size, unsigned n,
		    unsigned start)
{
	unsigned i;

	if (n == 0 || set_size(t, size))
		return -EINVAL;
	for (i = 0; i < size; i++)
		t->tbl[i] = start + i % n;
	return 0;
}

int rss_indir_weight(struct rss_indir *t, unsigned size, const uint32_t *w,
		     unsigned n, unsigned start)
{
	uint64_t sum = 0, cum;
	unsigned i, j;

	for (j = 0; j < n; j++)
		sum += w[j];
	if (n == 0 || sum == 0 || sum > size || set_size(t, size))
		return -EINVAL;
	/* Entry i belongs to the first queue j whose cumulative weight
	 * share, scaled to the table and rounded down, lies above i (the
	 * rounding of ethtool's fill_indir_table: weights 1 2 on 128
	 * entries give 42 and 86). */
	j = 0;
	cum = w[0];
	for (i = 0; i < size; i++) {
		while (i >= cum * size / sum) {
			j++;
			cum += w[j];
		}
		t->tbl[i] = start + j;
	}
	return 0;
}

int rss_indir_check(const struct rss_indir *t, unsigned n_rx)
{
	unsigned i;

	for (i = 0; i < t->size; i++)
		if (t->tbl[i] >= n_rx)
			return -EINVAL;
	return 0;
}

unsigned rss_indir_max_queue(const struct rss_indir *t)
{
	unsigned i, m = 0;

	for (i = 0; i < t->size; i++)
		if (t->tbl[i] > m)
			m = t->tbl[i];
	return m;
}
