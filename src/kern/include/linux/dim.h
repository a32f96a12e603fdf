/* SPDX-License-Identifier: MIT */
/*
 * dim.h - Dynamic Interrupt Moderation, the kernel's DIM library (Linux
 * include/linux/dim.h, lib/dim/dim.c, lib/dim/net_dim.c), the "net DIM"
 * part a NIC driver uses for `ethtool -C DEV adaptive-rx on`.
 *
 * How a driver uses it (Documentation/networking/net_dim.rst):
 *  - one struct dim per interrupt source (per RX queue here), with
 *    INIT_WORK(&dim->work, fn) and dim->mode set, state
 *    DIM_START_MEASURE;
 *  - at the end of each NAPI cycle it takes a sample of its running
 *    counters (events = interrupts, packets, bytes) with
 *    dim_update_sample() and hands it to net_dim();
 *  - when net_dim() picks another profile it moves to
 *    DIM_APPLY_NEW_PROFILE and queues dim->work; the work function reads
 *    net_dim_get_rx_moderation(dim->mode, dim->profile_ix), programs the
 *    hardware and sets dim->state back to DIM_START_MEASURE.
 *
 * The algorithm, as lib/dim implements it (facts; the code in dim.c is
 * rxscale's own):
 *  - a measurement spans DIM_NEVENTS (64) events; its rates are per
 *    millisecond, rounded up: bytes (bpms), packets (ppms), events (epms);
 *  - a new measurement is compared with the previous one: "better" if
 *    bpms rose by more than 10 %, else "worse" if it fell by more than
 *    10 %, else the same test on ppms, else on epms where fewer is
 *    better; a previous rate of 0 makes any non-zero rate better;
 *  - the tuner walks the 5 profiles (0 = least moderation).  Going right
 *    or left, it keeps its direction while the result is better and
 *    turns otherwise; once it has taken more than one step one way and
 *    exactly one step back, it is on top and parks there; hitting an end
 *    of the table parks it too; 10 steps without parking (2 x the number
 *    of profiles) make it "tired": it parks for as many measurements as
 *    it stepped, then walks again;
 *  - parked on top, it stays until a measurement differs from the one it
 *    parked on (which is kept as the reference), then leaves towards
 *    profile 0 (right, if already there) with one step.
 */
#ifndef RXSCALE_KERN_DIM_H
#define RXSCALE_KERN_DIM_H

#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/* Events one measurement spans (DIM_NEVENTS). */
#define DIM_NEVENTS 64

/* @val differs from @ref by more than 10 % of @ref (@ref != 0). */
#define IS_SIGNIFICANT_DIFF(val, ref)					\
	((ref) && (100UL * (unsigned long)((val) > (ref) ? (val) - (ref) :	\
					   (ref) - (val)) / (unsigned long)(ref) > 10))

/* @end - @start of a @bits-wide counter that may have wrapped once. */
#define BIT_GAP(bits, end, start)					\
	(((u64)(end) - (u64)(start)) & (BIT_ULL(bits) - 1))

#define NET_DIM_PARAMS_NUM_PROFILES 5
#define NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE 256
#define NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE 128
#define NET_DIM_DEF_PROFILE_CQE 1
#define NET_DIM_DEF_PROFILE_EQE 1

/* One moderation profile: a time and a packet count. */
struct dim_cq_moder {
	u16 usec;
	u16 pkts;
	u16 comps;
	u8 cq_period_mode;
};

/* A snapshot of a consumer's running counters. */
struct dim_sample {
	ktime_t time;
	u32 pkt_ctr;
	u32 byte_ctr;
	u16 event_ctr;
	u32 comp_ctr;
};

/* Rates of one measurement, per millisecond. */
struct dim_stats {
	int ppms;
	int bpms;
	int epms;
	int cpms;
	int cpe_ratio;
};

struct dim {
	u8 state;			/* enum dim_state */
	struct dim_stats prev_stats;	/* the measurement compared against */
	struct dim_sample start_sample;	/* counters when this one began */
	struct dim_sample measuring_sample;
	struct work_struct work;	/* applies profile_ix */
	void *priv;
	u8 profile_ix;
	u8 mode;			/* enum dim_cq_period_mode */
	u8 tune_state;			/* enum dim_tune_state */
	u8 steps_right;
	u8 steps_left;
	u8 tired;
};

enum dim_cq_period_mode {
	/* the moderation timer starts at the first event (interrupt) */
	DIM_CQ_PERIOD_MODE_START_FROM_EQE = 0x0,
	/* ... restarts at every completion */
	DIM_CQ_PERIOD_MODE_START_FROM_CQE = 0x1,
	DIM_CQ_PERIOD_NUM_MODES
};

enum dim_state {
	DIM_START_MEASURE,
	DIM_MEASURE_IN_PROGRESS,
	DIM_APPLY_NEW_PROFILE,
};

enum dim_tune_state {
	DIM_PARKING_ON_TOP,
	DIM_PARKING_TIRED,
	DIM_GOING_RIGHT,
	DIM_GOING_LEFT,
};

enum dim_stats_state {
	DIM_STATS_WORSE,
	DIM_STATS_SAME,
	DIM_STATS_BETTER,
};

enum dim_step_result {
	DIM_STEPPED,
	DIM_TOO_TIRED,
	DIM_ON_EDGE,
};

bool dim_on_top(struct dim *dim);
void dim_turn(struct dim *dim);
void dim_park_on_top(struct dim *dim);
void dim_park_tired(struct dim *dim);

/* Rates between @start and @end; false (nothing written) if less than a
 * microsecond passed. */
bool dim_calc_stats(const struct dim_sample *start, const struct dim_sample *end,
		    struct dim_stats *curr_stats);

static inline void dim_update_sample(u16 event_ctr, u64 packets, u64 bytes,
				     struct dim_sample *s)
{
	s->time = ktime_get();
	s->pkt_ctr = (u32)packets;
	s->byte_ctr = (u32)bytes;
	s->event_ctr = event_ctr;
}

static inline void dim_update_sample_with_comps(u16 event_ctr, u64 packets,
						u64 bytes, u64 comps,
						struct dim_sample *s)
{
	dim_update_sample(event_ctr, packets, bytes, s);
	s->comp_ctr = (u32)comps;
}

/* Profile @ix (0..NET_DIM_PARAMS_NUM_PROFILES-1) of @cq_period_mode's
 * table, and the default one. */
struct dim_cq_moder net_dim_get_rx_moderation(u8 cq_period_mode, int ix);
struct dim_cq_moder net_dim_get_def_rx_moderation(u8 cq_period_mode);
struct dim_cq_moder net_dim_get_tx_moderation(u8 cq_period_mode, int ix);
struct dim_cq_moder net_dim_get_def_tx_moderation(u8 cq_period_mode);

/* Feed one sample; may pick a profile and queue dim->work. */
void net_dim(struct dim *dim, const struct dim_sample *end_sample);

#endif /* RXSCALE_KERN_DIM_H */
