/* SPDX-License-Identifier: MIT */
/*
 * tcp_cc.h - congestion control: the window arithmetic of Reno and CUBIC,
 * kept apart from the sender's loss detection (as Linux separates
 * tcp_congestion_ops from tcp_input.c).
 *
 * Units: windows in segments (as Linux's snd_cwnd), time in ns.
 *
 *  - Reno: RFC 5681 — slow start adds one segment per segment ACKed up to
 *    ssthresh, congestion avoidance adds one segment per window ACKed
 *    (counted as Linux's tcp_cong_avoid_ai does), ssthresh = cwnd / 2
 *    (at least 2) on loss.
 *  - CUBIC: RFC 9438 with the Linux tcp_cubic.c constants: β = 717/1024
 *    (≈ 0.7), C = 0.4, fast convergence on; W(t) = C·(t − K)³ + W_max
 *    with K = ∛(W_max·(1 − β)/C) evaluated one minimum RTT ahead
 *    (t + RTT_min, as both Linux and RFC 9438 §4.2 do), the Reno-friendly
 *    estimate of RFC 9438 §4.3 (α = 3(1 − β)/(1 + β)), growth capped at
 *    1.5× per RTT (an increase of at most one segment per two ACKed,
 *    Linux's cnt >= 2), and a cnt of at most 20 before the first loss
 *    (Linux).  HyStart is not modelled.
 */
#ifndef RXSCALE_STACK_TCP_CC_H
#define RXSCALE_STACK_TCP_CC_H

#include <stdint.h>

#include "sim/sim_event.h"

enum tcp_cc_algo { TCP_CC_RENO, TCP_CC_CUBIC };

/* The window state the congestion control acts on (segments). */
struct tcp_cwnd {
	uint32_t cwnd;          /* congestion window */
	uint32_t cwnd_cnt;      /* segments ACKed towards the next increase */
	uint32_t ssthresh;      /* slow-start threshold */
	uint32_t clamp;         /* cwnd never grows above this */
};

/* CUBIC's per-connection state (RFC 9438 §4 names in comments). */
struct tcp_cubic {
	uint32_t last_max_cwnd; /* W_max after fast convergence, segments */
	uint32_t origin;        /* the plateau of W(t), segments */
	sim_time_t epoch_start; /* start of the epoch; 0 = none yet */
	double k_s;             /* K, seconds */
	uint32_t ack_cnt;       /* segments ACKed in the epoch (W_est) */
	uint32_t w_est;         /* Reno-friendly estimate W_est, segments */
	uint32_t cnt;           /* segments ACKed per cwnd increase */
};

struct tcp_cc {
	enum tcp_cc_algo algo;
	struct tcp_cubic cubic;
};

/* "reno" or "cubic" -> 0 and *algo, else -EINVAL. */
int tcp_cc_parse(const char *name, enum tcp_cc_algo *algo);
const char *tcp_cc_name(enum tcp_cc_algo algo);

void tcp_cc_init(struct tcp_cc *cc, enum tcp_cc_algo algo);

/*
 * A loss was detected (fast retransmit or RTO) with window @cwnd:
 * returns the new ssthresh (segments, >= 2) and records W_max.
 */
uint32_t tcp_cc_ssthresh(struct tcp_cc *cc, uint32_t cwnd);

/*
 * @acked segments were newly ACKed at @now while the sender was cwnd-
 * limited; grow @w (slow start below ssthresh, then the algorithm's
 * congestion avoidance).  @rtt_min is the smallest RTT seen (ns).
 */
void tcp_cc_cong_avoid(struct tcp_cc *cc, struct tcp_cwnd *w, uint32_t acked,
		       sim_time_t now, sim_time_t rtt_min);

/* Shared helpers (Linux tcp_slow_start / tcp_cong_avoid_ai semantics). */
uint32_t tcp_cc_slow_start(struct tcp_cwnd *w, uint32_t acked);
void tcp_cc_ai(struct tcp_cwnd *w, uint32_t cnt, uint32_t acked);

/* Per-algorithm parts (tcp_reno.c, tcp_cubic.c). */
uint32_t tcp_reno_ssthresh(uint32_t cwnd);
void tcp_reno_cong_avoid(struct tcp_cwnd *w, uint32_t acked);
void tcp_cubic_init(struct tcp_cubic *c);
uint32_t tcp_cubic_ssthresh(struct tcp_cubic *c, uint32_t cwnd);
void tcp_cubic_cong_avoid(struct tcp_cubic *c, struct tcp_cwnd *w,
			  uint32_t acked, sim_time_t now, sim_time_t rtt_min);

/* CUBIC constants (RFC 9438 §4.1; Linux tcp_cubic.c beta 717/1024). */
#define TCP_CUBIC_BETA_NUM	717u
#define TCP_CUBIC_BETA_DEN	1024u
#define TCP_CUBIC_C		0.4

#endif /* RXSCALE_STACK_TCP_CC_H */
