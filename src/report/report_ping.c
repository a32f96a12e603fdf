// SPDX-License-Identifier: MIT
/* report_ping.c - ping's statistics block (iputils ping's summary). */
#include "report/report.h"

void report_ping(FILE *out, const struct rpt_run *r)
{
	const struct rpt_ping *p = &r->ping;

	if (!p->up)
		return;
	fprintf(out, "\n--- %s ping statistics ---\n", p->from_host ? "192.168.2.2" : "192.168.2.1");
	fprintf(out, "%u packets transmitted, %u received, %g%% packet loss, time %.0fms\n",
		p->sent, p->received,
		p->sent ? 100.0 * (p->sent - p->received) / p->sent : 0.0, p->time_ms);
	if (p->have_stats)
		fprintf(out, "rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms\n",
			p->min, p->avg, p->max, p->mdev);
}
