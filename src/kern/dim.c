// SPDX-License-Identifier: MIT
/*
 * dim.c - the DIM library: measurement, comparison and the profile tuner
 * (dim.h says what it does and where the rules come from: Linux
 * lib/dim/dim.c and lib/dim/net_dim.c, whose behaviour this reproduces;
 * the code is rxscale's own).
 */
#include <linux/dim.h>

/*
 * The profile tables of lib/dim/net_dim.c, 5 per (direction, mode), from
 * the least moderation (0) to the most.  In EQE mode the packet count is
 * the same for every profile; in CQE mode it falls as the time grows.
 */
static const struct dim_cq_moder
rx_profiles[DIM_CQ_PERIOD_NUM_MODES][NET_DIM_PARAMS_NUM_PROFILES] = {
	[DIM_CQ_PERIOD_MODE_START_FROM_EQE] = {
		{ .usec = 1,   .pkts = NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE },
		{ .usec = 8,   .pkts = NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE },
		{ .usec = 64,  .pkts = NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE },
		{ .usec = 128, .pkts = NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE },
		{ .usec = 256, .pkts = NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE },
	},
	[DIM_CQ_PERIOD_MODE_START_FROM_CQE] = {
		{ .usec = 2,  .pkts = 256 },
		{ .usec = 8,  .pkts = 128 },
		{ .usec = 16, .pkts = 64 },
		{ .usec = 32, .pkts = 64 },
		{ .usec = 64, .pkts = 64 },
	},
};

static const struct dim_cq_moder
tx_profiles[DIM_CQ_PERIOD_NUM_MODES][NET_DIM_PARAMS_NUM_PROFILES] = {
	[DIM_CQ_PERIOD_MODE_START_FROM_EQE] = {
		{ .usec = 1,   .pkts = NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE },
		{ .usec = 8,   .pkts = NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE },
		{ .usec = 32,  .pkts = NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE },
		{ .usec = 64,  .pkts = NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE },
		{ .usec = 128, .pkts = NET_DIM_DEFAULT_TX_CQ_PKTS_FROM_EQE },
	},
	[DIM_CQ_PERIOD_MODE_START_FROM_CQE] = {
		{ .usec = 5,  .pkts = 128 },
		{ .usec = 8,  .pkts = 64 },
		{ .usec = 16, .pkts = 32 },
		{ .usec = 32, .pkts = 32 },
		{ .usec = 64, .pkts = 32 },
	},
};

/* Entry @ix of @table for @mode; out-of-range arguments (which the kernel
 * does not check) are clamped rather than read past the table. */
static struct dim_cq_moder profile_of(const struct dim_cq_moder
				      table[][NET_DIM_PARAMS_NUM_PROFILES],
				      u8 mode, int ix)
{
	struct dim_cq_moder m;

	if (mode >= DIM_CQ_PERIOD_NUM_MODES)
		mode = DIM_CQ_PERIOD_MODE_START_FROM_EQE;
	if (ix < 0)
		ix = 0;
	if (ix >= NET_DIM_PARAMS_NUM_PROFILES)
		ix = NET_DIM_PARAMS_NUM_PROFILES - 1;
	m = table[mode][ix];
	m.cq_period_mode = mode;
	return m;
}

struct dim_cq_moder net_dim_get_rx_moderation(u8 cq_period_mode, int ix)
{
	return profile_of(rx_profiles, cq_period_mode, ix);
}

struct dim_cq_moder net_dim_get_def_rx_moderation(u8 cq_period_mode)
{
	return net_dim_get_rx_moderation(cq_period_mode,
					 cq_period_mode == DIM_CQ_PERIOD_MODE_START_FROM_CQE ?
					 NET_DIM_DEF_PROFILE_CQE : NET_DIM_DEF_PROFILE_EQE);
}

struct dim_cq_moder net_dim_get_tx_moderation(u8 cq_period_mode, int ix)
{
	return profile_of(tx_profiles, cq_period_mode, ix);
}

struct dim_cq_moder net_dim_get_def_tx_moderation(u8 cq_period_mode)
{
	return net_dim_get_tx_moderation(cq_period_mode,
					 cq_period_mode == DIM_CQ_PERIOD_MODE_START_FROM_CQE ?
					 NET_DIM_DEF_PROFILE_CQE : NET_DIM_DEF_PROFILE_EQE);
}

/* ----- the tuner's moves (lib/dim/dim.c) ----- */

bool dim_on_top(struct dim *dim)
{
	switch (dim->tune_state) {
	case DIM_GOING_RIGHT:
		/* walked left more than once, then turned back one step */
		return dim->steps_left > 1 && dim->steps_right == 1;
	case DIM_GOING_LEFT:
		return dim->steps_right > 1 && dim->steps_left == 1;
	default:	/* parked */
		return true;
	}
}

void dim_turn(struct dim *dim)
{
	if (dim->tune_state == DIM_GOING_RIGHT) {
		dim->tune_state = DIM_GOING_LEFT;
		dim->steps_left = 0;
	} else if (dim->tune_state == DIM_GOING_LEFT) {
		dim->tune_state = DIM_GOING_RIGHT;
		dim->steps_right = 0;
	}
}

void dim_park_on_top(struct dim *dim)
{
	dim->tune_state = DIM_PARKING_ON_TOP;
	dim->steps_left = dim->steps_right = 0;
	dim->tired = 0;
}

void dim_park_tired(struct dim *dim)
{
	/* tired is kept: it counts the measurements to sit out */
	dim->tune_state = DIM_PARKING_TIRED;
	dim->steps_left = dim->steps_right = 0;
}

static u32 per_ms(u64 count, u32 us)
{
	return (u32)((count * USEC_PER_MSEC + us - 1) / us);    /* rounded up */
}

bool dim_calc_stats(const struct dim_sample *start, const struct dim_sample *end,
		    struct dim_stats *curr_stats)
{
	/* whole microseconds; 32 bits cover 71 minutes, as the kernel's */
	u32 us = (u32)ktime_us_delta(end->time, start->time);
	u64 pkts = BIT_GAP(32, end->pkt_ctr, start->pkt_ctr);
	u64 bytes = BIT_GAP(32, end->byte_ctr, start->byte_ctr);
	u64 comps = BIT_GAP(32, end->comp_ctr, start->comp_ctr);

	if (!us)
		return false;
	/* 64-bit products: a 32-bit count times 1000 overflows 32 bits (the
	 * kernel fixed this in dim_calc_stats, see its dim_kunit.c cases) */
	curr_stats->ppms = (int)per_ms(pkts, us);
	curr_stats->bpms = (int)per_ms(bytes, us);
	/* the events rate assumes exactly DIM_NEVENTS, as the kernel's */
	curr_stats->epms = (int)per_ms(DIM_NEVENTS, us);
	curr_stats->cpms = (int)per_ms(comps, us);
	curr_stats->cpe_ratio = curr_stats->epms ?
				curr_stats->cpms * 100 / curr_stats->epms : 0;
	return true;
}

/* ----- net DIM (lib/dim/net_dim.c) ----- */

static int net_dim_step(struct dim *dim)
{
	if (dim->tired == NET_DIM_PARAMS_NUM_PROFILES * 2)
		return DIM_TOO_TIRED;
	if (dim->tune_state == DIM_GOING_RIGHT) {
		if (dim->profile_ix == NET_DIM_PARAMS_NUM_PROFILES - 1)
			return DIM_ON_EDGE;
		dim->profile_ix++;
		dim->steps_right++;
	} else if (dim->tune_state == DIM_GOING_LEFT) {
		if (dim->profile_ix == 0)
			return DIM_ON_EDGE;
		dim->profile_ix--;
		dim->steps_left++;
	}
	dim->tired++;
	return DIM_STEPPED;
}

/* Leave a parking state with one step towards profile 0, or right from
 * profile 0. */
static void net_dim_exit_parking(struct dim *dim)
{
	dim->tune_state = dim->profile_ix ? DIM_GOING_LEFT : DIM_GOING_RIGHT;
	net_dim_step(dim);
}

/* One rate against its reference, higher being better: DIM_STATS_* when
 * it decides, -1 when it moved by 10 % or less and the next rate decides. */
static int rate_verdict(int curr, int prev)
{
	if (!IS_SIGNIFICANT_DIFF(curr, prev))
		return -1;
	return curr > prev ? DIM_STATS_BETTER : DIM_STATS_WORSE;
}

/* Bytes first, then packets, then events (fewer is better); the first
 * rate that moved by more than 10 % decides.  A zero reference decides at
 * once: "better" if the rate is no longer zero (bytes, packets), "same"
 * otherwise. */
static int net_dim_stats_compare(const struct dim_stats *curr,
				 const struct dim_stats *prev)
{
	int v;

	if (!prev->bpms)
		return curr->bpms ? DIM_STATS_BETTER : DIM_STATS_SAME;
	v = rate_verdict(curr->bpms, prev->bpms);
	if (v >= 0)
		return v;
	if (!prev->ppms)
		return curr->ppms ? DIM_STATS_BETTER : DIM_STATS_SAME;
	v = rate_verdict(curr->ppms, prev->ppms);
	if (v >= 0)
		return v;
	if (!prev->epms)
		return DIM_STATS_SAME;
	if (!IS_SIGNIFICANT_DIFF(curr->epms, prev->epms))
		return DIM_STATS_SAME;
	/* fewer events for the same traffic is better */
	return curr->epms < prev->epms ? DIM_STATS_BETTER : DIM_STATS_WORSE;
}

/* Update the tuner with one measurement; true if the profile changed. */
static bool net_dim_decision(const struct dim_stats *curr, struct dim *dim)
{
	u8 was_state = dim->tune_state, was_ix = dim->profile_ix;

	switch (dim->tune_state) {
	case DIM_PARKING_ON_TOP:
		if (net_dim_stats_compare(curr, &dim->prev_stats) != DIM_STATS_SAME)
			net_dim_exit_parking(dim);
		break;
	case DIM_PARKING_TIRED:
		if (!--dim->tired)
			net_dim_exit_parking(dim);
		break;
	case DIM_GOING_RIGHT:
	case DIM_GOING_LEFT:
		if (net_dim_stats_compare(curr, &dim->prev_stats) != DIM_STATS_BETTER)
			dim_turn(dim);
		if (dim_on_top(dim)) {
			dim_park_on_top(dim);
			break;
		}
		switch (net_dim_step(dim)) {
		case DIM_ON_EDGE:
			dim_park_on_top(dim);
			break;
		case DIM_TOO_TIRED:
			dim_park_tired(dim);
			break;
		}
		break;
	}
	/* parked on top, the reference stays the measurement it parked on */
	if (was_state != DIM_PARKING_ON_TOP || dim->tune_state != DIM_PARKING_ON_TOP)
		dim->prev_stats = *curr;
	return dim->profile_ix != was_ix;
}

void net_dim(struct dim *dim, const struct dim_sample *end_sample)
{
	struct dim_stats curr;

	switch (dim->state) {
	case DIM_MEASURE_IN_PROGRESS:
		if (BIT_GAP(16, end_sample->event_ctr,
			    dim->start_sample.event_ctr) < DIM_NEVENTS)
			return;
		if (!dim_calc_stats(&dim->start_sample, end_sample, &curr))
			return;
		if (net_dim_decision(&curr, dim)) {
			/* the consumer's work item applies the profile and
			 * sets DIM_START_MEASURE again */
			dim->state = DIM_APPLY_NEW_PROFILE;
			schedule_work(&dim->work);
			return;
		}
		/* same profile: the next measurement starts here */
		/* fall through */
	case DIM_START_MEASURE:
		dim_update_sample(end_sample->event_ctr, end_sample->pkt_ctr,
				  end_sample->byte_ctr, &dim->start_sample);
		dim->state = DIM_MEASURE_IN_PROGRESS;
		return;
	case DIM_APPLY_NEW_PROFILE:
	default:
		return;
	}
}
