/* SPDX-License-Identifier: MIT */
/*
 * tcp_rtt.h - the retransmission timer's estimator, RFC 6298.
 *
 *  - before any sample RTO = rto_init (1 s, RFC 6298 §2.1);
 *  - first sample R: SRTT = R, RTTVAR = R/2 (§2.2);
 *  - later: RTTVAR = 3/4·RTTVAR + 1/4·|SRTT − R|, SRTT = 7/8·SRTT + 1/8·R
 *    (§2.3);
 *  - RTO = SRTT + max(G, 4·RTTVAR), at least rto_min (200 ms as Linux's
 *    TCP_RTO_MIN, instead of the RFC's 1 s), at most rto_max (120 s,
 *    TCP_RTO_MAX); G is the clock granularity (1 ns here);
 *  - each expiry doubles the timer (§5.5, "back off"); the backoff ends
 *    with the next valid sample (§5.7) - samples follow Karn's rule: the
 *    caller never passes one taken from a retransmitted segment.
 * All times in ns.
 */
#ifndef RXSCALE_STACK_TCP_RTT_H
#define RXSCALE_STACK_TCP_RTT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_event.h"

struct tcp_rtt {
	sim_time_t srtt, rttvar;        /* ns; valid once has_sample */
	sim_time_t rtt_min;             /* smallest sample, ns */
	sim_time_t rto_min, rto_max, rto_init;
	bool has_sample;
	unsigned backoff;               /* expiries since the last sample */
	uint64_t samples;
};

void tcp_rtt_init(struct tcp_rtt *r, sim_time_t rto_min, sim_time_t rto_max,
		  sim_time_t rto_init);

/* Feed one RTT measurement @rtt (ns); ends any backoff. */
void tcp_rtt_sample(struct tcp_rtt *r, sim_time_t rtt);

/* The current timeout including backoff, ns. */
sim_time_t tcp_rtt_rto(const struct tcp_rtt *r);

/* The timer expired: back off (double, bounded by rto_max). */
void tcp_rtt_backoff(struct tcp_rtt *r);

#endif /* RXSCALE_STACK_TCP_RTT_H */
