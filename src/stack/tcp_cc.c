// SPDX-License-Identifier: MIT
/* tcp_cc.c - congestion control dispatch and shared helpers. */
#include "stack/tcp_cc.h"

#include <errno.h>
#include <string.h>

int tcp_cc_parse(const char *name, enum tcp_cc_algo *algo)
{
	if (!strcmp(name, "reno"))
		*algo = TCP_CC_RENO;
	else if (!strcmp(name, "cubic"))
		*algo = TCP_CC_CUBIC;
	else
		return -EINVAL;
	return 0;
}

const char *tcp_cc_name(enum tcp_cc_algo algo)
{
	return algo == TCP_CC_CUBIC ? "cubic" : "reno";
}

void tcp_cc_init(struct tcp_cc *cc, enum tcp_cc_algo algo)
{
	memset(cc, 0, sizeof(*cc));
	cc->algo = algo;
	tcp_cubic_init(&cc->cubic);
}

uint32_t tcp_cc_ssthresh(struct tcp_cc *cc, uint32_t cwnd)
{
	if (cc->algo == TCP_CC_CUBIC)
		return tcp_cubic_ssthresh(&cc->cubic, cwnd);
	return tcp_reno_ssthresh(cwnd);
}

void tcp_cc_cong_avoid(struct tcp_cc *cc, struct tcp_cwnd *w, uint32_t acked,
		       sim_time_t now, sim_time_t rtt_min)
{
	if (cc->algo == TCP_CC_CUBIC)
		tcp_cubic_cong_avoid(&cc->cubic, w, acked, now, rtt_min);
	else
		tcp_reno_cong_avoid(w, acked);
}

/* Slow start (RFC 5681 §3.1): one segment per segment ACKed, not past
 * ssthresh; returns the ACKed segments left over for congestion
 * avoidance. */
uint32_t tcp_cc_slow_start(struct tcp_cwnd *w, uint32_t acked)
{
	uint32_t cwnd = w->cwnd + acked;

	if (cwnd > w->ssthresh)
		cwnd = w->ssthresh > w->cwnd ? w->ssthresh : w->cwnd;
	acked -= cwnd - w->cwnd;
	w->cwnd = cwnd < w->clamp ? cwnd : w->clamp;
	return acked;
}

/* Additive increase: one segment per @cnt segments ACKed. */
void tcp_cc_ai(struct tcp_cwnd *w, uint32_t cnt, uint32_t acked)
{
	uint32_t delta;

	if (cnt == 0)
		cnt = 1;
	if (w->cwnd_cnt >= cnt) {
		w->cwnd_cnt = 0;
		w->cwnd++;
	}
	w->cwnd_cnt += acked;
	if (w->cwnd_cnt >= cnt) {
		delta = w->cwnd_cnt / cnt;
		w->cwnd_cnt -= delta * cnt;
		w->cwnd += delta;
	}
	if (w->cwnd > w->clamp)
		w->cwnd = w->clamp;
}
