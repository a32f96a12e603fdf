// SPDX-License-Identifier: MIT
/*
 * tcp_cubic.c - CUBIC window growth (RFC 9438) with the constants Linux's
 * tcp_cubic.c uses; see tcp_cc.h for what is and is not modelled.
 *
 * Floating point is used for K and W(t): the same binary gives the same
 * results run after run, which is the determinism the simulator needs.
 */
#include "stack/tcp_cc.h"

#include <math.h>
#include <string.h>

void tcp_cubic_init(struct tcp_cubic *c)
{
	memset(c, 0, sizeof(*c));
}

/* Multiplicative decrease and fast convergence (RFC 9438 §4.6, §4.7). */
uint32_t tcp_cubic_ssthresh(struct tcp_cubic *c, uint32_t cwnd)
{
	uint32_t ss;

	c->epoch_start = 0;
	if (c->last_max_cwnd && cwnd < c->last_max_cwnd)
		c->last_max_cwnd = (uint32_t)((uint64_t)cwnd *
			(TCP_CUBIC_BETA_DEN + TCP_CUBIC_BETA_NUM) /
			(2 * TCP_CUBIC_BETA_DEN));
	else
		c->last_max_cwnd = cwnd;
	ss = (uint32_t)((uint64_t)cwnd * TCP_CUBIC_BETA_NUM /
			TCP_CUBIC_BETA_DEN);
	return ss > 2 ? ss : 2;
}

/* Segments ACKed per increase of W_est by one: cwnd / α (RFC 9438 §4.3). */
static uint32_t west_acks_per_seg(uint32_t cwnd)
{
	const double beta = (double)TCP_CUBIC_BETA_NUM / TCP_CUBIC_BETA_DEN;
	double alpha = 3.0 * (1.0 - beta) / (1.0 + beta);
	uint32_t n = (uint32_t)((double)cwnd / alpha);

	return n ? n : 1;
}

static void cubic_update(struct tcp_cubic *c, uint32_t cwnd, uint32_t acked,
			 sim_time_t now, sim_time_t rtt_min)
{
	double t, d, target;
	uint32_t tgt, per, max_cnt;

	c->ack_cnt += acked;
	if (c->epoch_start == 0) {
		c->epoch_start = now ? now : 1;
		c->ack_cnt = acked;
		c->w_est = cwnd;
		if (c->last_max_cwnd <= cwnd) {
			c->k_s = 0;
			c->origin = cwnd;
		} else {
			c->k_s = cbrt((double)(c->last_max_cwnd - cwnd) /
				      TCP_CUBIC_C);
			c->origin = c->last_max_cwnd;
		}
	}
	/* W_cubic(t + RTT), RFC 9438 §4.2 */
	t = (double)(now - c->epoch_start + rtt_min) / 1e9;
	d = t - c->k_s;
	target = (double)c->origin + TCP_CUBIC_C * d * d * d;
	if (target < 1)
		target = 1;
	tgt = target > 4e9 ? 4000000000u : (uint32_t)target;
	if (tgt > cwnd)
		c->cnt = cwnd / (tgt - cwnd);
	else
		c->cnt = 100 * cwnd;	/* hold the window on the plateau */
	if (c->last_max_cwnd == 0 && c->cnt > 20)
		c->cnt = 20;		/* no loss yet: Linux's initial growth */

	/* Reno-friendly region (RFC 9438 §4.3) */
	per = west_acks_per_seg(cwnd);
	while (c->ack_cnt > per) {
		c->ack_cnt -= per;
		c->w_est++;
	}
	if (c->w_est > cwnd) {
		max_cnt = cwnd / (c->w_est - cwnd);
		if (c->cnt > max_cnt)
			c->cnt = max_cnt;
	}
	if (c->cnt < 2)
		c->cnt = 2;		/* at most 1.5x per RTT */
}

void tcp_cubic_cong_avoid(struct tcp_cubic *c, struct tcp_cwnd *w,
			  uint32_t acked, sim_time_t now, sim_time_t rtt_min)
{
	if (w->cwnd < w->ssthresh) {
		acked = tcp_cc_slow_start(w, acked);
		if (!acked)
			return;
	}
	cubic_update(c, w->cwnd, acked, now, rtt_min);
	tcp_cc_ai(w, c->cnt, acked);
}
