// SPDX-License-Identifier: MIT
/* tcp_rtt.c - RFC 6298 RTO estimator; see tcp_rtt.h. */
#include "stack/tcp_rtt.h"

#include <string.h>

void tcp_rtt_init(struct tcp_rtt *r, sim_time_t rto_min, sim_time_t rto_max,
		  sim_time_t rto_init)
{
	memset(r, 0, sizeof(*r));
	r->rto_min = rto_min;
	r->rto_max = rto_max;
	r->rto_init = rto_init;
	r->rtt_min = SIM_TIME_MAX;
}

void tcp_rtt_sample(struct tcp_rtt *r, sim_time_t rtt)
{
	sim_time_t err;

	if (rtt == 0)
		rtt = 1;
	if (rtt < r->rtt_min)
		r->rtt_min = rtt;
	if (!r->has_sample) {
		r->srtt = rtt;
		r->rttvar = rtt / 2;
		r->has_sample = true;
	} else {
		err = r->srtt > rtt ? r->srtt - rtt : rtt - r->srtt;
		r->rttvar = (3 * r->rttvar + err) / 4;
		r->srtt = (7 * r->srtt + rtt) / 8;
	}
	r->backoff = 0;
	r->samples++;
}

sim_time_t tcp_rtt_rto(const struct tcp_rtt *r)
{
	sim_time_t rto, var;
	unsigned i;

	if (r->has_sample) {
		var = 4 * r->rttvar;
		rto = r->srtt + (var > 1 ? var : 1);
	} else {
		rto = r->rto_init;
	}
	if (rto < r->rto_min)
		rto = r->rto_min;
	for (i = 0; i < r->backoff && rto < r->rto_max; i++)
		rto *= 2;
	return rto < r->rto_max ? rto : r->rto_max;
}

void tcp_rtt_backoff(struct tcp_rtt *r)
{
	if (r->backoff < 32)
		r->backoff++;
}
