// SPDX-License-Identifier: MIT
/*
 * report_replay.c - a capture replay: frames, bytes and flows per RX
 * queue, where every offered frame went, and the independent queue check.
 */
#include "report/report.h"

#include <string.h>

void report_replay(FILE *out, const struct rpt_run *r)
{
	const struct rpt_replay *rp = &r->replay;
	uint64_t dropped = 0, qb = 0;

	fprintf(out, "replay %s: %llu frames over %.6f s (%s)\n", rp->pcap,
		(unsigned long long)rp->frames, rp->secs,
		rp->line_rate ? "back to back at line rate" : "recorded gaps");
	if (r->partial)
		fprintf(out, "partial: the capture turned bad after these %llu frames (%s); "
			"this report covers them, exit status 4\n",
			(unsigned long long)rp->frames, r->partial);
	if (rp->gaps_cut)
		fprintf(out, "gaps shortened: %llu recorded gap%s longer than %g s (replay.max_gap)\n",
			(unsigned long long)rp->gaps_cut, rp->gaps_cut == 1 ? "" : "s",
			rp->max_gap_s);
	if (rp->other_link) {
		fprintf(out, "not replayed: %llu frames of interfaces whose link type is not "
			"Ethernet (", (unsigned long long)rp->other_link);
		for (unsigned i = 0; i < rp->nlinks; i++)
			fprintf(out, "%s%s: %llu", i ? ", " : "", rp->links[i].name,
				(unsigned long long)rp->links[i].n);
		fprintf(out, ")\n");
	}
	if (rp->empty)
		fprintf(out, "zero-length records: %llu (not replayed)\n",
			(unsigned long long)rp->empty);
	if (rp->cut)
		fprintf(out, "frames the capture cut: %llu (replayed as captured: the NIC sees "
			"the shorter frame)\n", (unsigned long long)rp->cut);
	fprintf(out, "\nqueue  frames      bytes  flows  share\n");
	for (unsigned q = 0; q < r->nqueues; q++)
		fprintf(out, "%-5u %7llu %10llu %6llu %5.1f%%\n", q,
			(unsigned long long)rp->q_frames[q], (unsigned long long)rp->q_bytes[q],
			(unsigned long long)rp->q_flows[q],
			rp->delivered ? 100.0 * (double)rp->q_frames[q] / (double)rp->delivered : 0);
	for (unsigned q = 0; q < r->nqueues; q++)
		qb += rp->q_bytes[q];
	/* delivered bytes: after the NIC stripped VLAN tags, without FCS */
	fprintf(out, "total %7llu %10llu\n", (unsigned long long)rp->delivered,
		(unsigned long long)qb);
	for (unsigned i = 0; i < r->ndrops; i++)
		dropped += r->drops[i].n;
	fprintf(out, "\naccounting: %llu frames (%llu bytes) offered = %llu delivered + %llu "
		"dropped", (unsigned long long)rp->frames, (unsigned long long)rp->bytes,
		(unsigned long long)rp->delivered, (unsigned long long)dropped);
	for (unsigned i = 0; i < r->ndrops; i++)
		if (r->drops[i].n)
			fprintf(out, " (%s %llu)", r->drops[i].name,
				(unsigned long long)r->drops[i].n);
	fprintf(out, "\n");
	if (strcmp(r->head.bus, "pci"))
		return;         /* one queue, no RSS: nothing to check */
	fprintf(out, "queue check: %llu frames hashed, %llu queue/hash mismatches against an "
		"independent rss_classify()\n", (unsigned long long)rp->hashed,
		(unsigned long long)rp->mismatches);
}
