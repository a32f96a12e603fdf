// SPDX-License-Identifier: MIT
/* tcp_reno.c - Reno window arithmetic (RFC 5681 §3.1). */
#include "stack/tcp_cc.h"

uint32_t tcp_reno_ssthresh(uint32_t cwnd)
{
	return cwnd / 2 > 2 ? cwnd / 2 : 2;
}

void tcp_reno_cong_avoid(struct tcp_cwnd *w, uint32_t acked)
{
	if (w->cwnd < w->ssthresh) {
		acked = tcp_cc_slow_start(w, acked);
		if (!acked)
			return;
	}
	/* congestion avoidance: one segment per window of ACKed segments */
	tcp_cc_ai(w, w->cwnd, acked);
}
