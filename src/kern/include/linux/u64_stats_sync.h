/* SPDX-License-Identifier: MIT */
/*
 * u64_stats_sync.h - 64-bit statistics a reader on another CPU can read
 * whole (Linux include/linux/u64_stats_sync.h, re-implemented): the same
 * names, signatures and rules.
 *
 *  - A counter is a u64_stats_t, touched only through u64_stats_inc/add/
 *    set/read.
 *  - The writer brackets its updates with u64_stats_update_begin/end on
 *    the counters' struct u64_stats_sync; the writers of one syncp must
 *    not run at once (one NAPI instance, one xmit lock), so a driver gives
 *    a counter set updated from two contexts two syncps.
 *  - A reader copies the counters inside
 *        do { start = u64_stats_fetch_begin(&s->syncp); ... }
 *        while (u64_stats_fetch_retry(&s->syncp, start));
 *
 * On a 64-bit Linux kernel (the simulated host is one) the sync is empty
 * and all four calls compile to nothing, a u64 load or store being
 * atomic; only 32-bit kernels run a sequence count.  So none of them is
 * charged CPU time here (kern_charge), and adding them to a hot path
 * changes no simulated timing.  The sequence this version keeps is for
 * checking alone: an odd value is a writer inside begin/end, and a fetch
 * that overlaps one is retried, as on a 32-bit kernel.
 */
#ifndef RXSCALE_KERN_U64_STATS_SYNC_H
#define RXSCALE_KERN_U64_STATS_SYNC_H

#include <linux/types.h>

typedef struct {
	u64 v;
} u64_stats_t;

struct u64_stats_sync {
	unsigned int seq;	/* odd while a writer is inside begin/end */
};

static inline u64 u64_stats_read(const u64_stats_t *p)
{
	return READ_ONCE(p->v);
}

static inline void u64_stats_set(u64_stats_t *p, u64 val)
{
	WRITE_ONCE(p->v, val);
}

static inline void u64_stats_add(u64_stats_t *p, unsigned long val)
{
	WRITE_ONCE(p->v, p->v + val);
}

static inline void u64_stats_inc(u64_stats_t *p)
{
	WRITE_ONCE(p->v, p->v + 1);
}

static inline void u64_stats_init(struct u64_stats_sync *syncp)
{
	syncp->seq = 0;
}

static inline void u64_stats_update_begin(struct u64_stats_sync *syncp)
{
	WRITE_ONCE(syncp->seq, syncp->seq + 1);
}

static inline void u64_stats_update_end(struct u64_stats_sync *syncp)
{
	WRITE_ONCE(syncp->seq, syncp->seq + 1);
}

static inline unsigned int u64_stats_fetch_begin(const struct u64_stats_sync *syncp)
{
	return READ_ONCE(syncp->seq);
}

/* True if a writer ran (or is running) since @start: read again. */
static inline bool u64_stats_fetch_retry(const struct u64_stats_sync *syncp,
					 unsigned int start)
{
	return (start & 1) || READ_ONCE(syncp->seq) != start;
}

#endif /* RXSCALE_KERN_U64_STATS_SYNC_H */
