// SPDX-License-Identifier: MIT
/*
 * report_mpstat.c - the CPUs as mpstat shows them, and top's view of the
 * processes the seed experiments quote (iperf3, ksoftirqd/N).
 */
#include "report/report.h"

void report_mpstat(FILE *out, const struct rpt_run *r)
{
	fprintf(out, "\nCPU      %%usr    %%sys    %%irq   %%soft   %%idle  ksoftirqd%s\n",
		r->cpu_window ? "   (mean after 2 s)" : "");
	for (unsigned c = 0; c < r->ncpus; c++) {
		const struct rpt_cpu *p = &r->cpu[c];

		fprintf(out, "%-3u  %7.2f %7.2f %7.2f %7.2f %7.2f %10.2f\n", c,
			p->v[SIM_ACCT_USR], p->v[SIM_ACCT_SYS], p->v[SIM_ACCT_IRQ],
			p->v[SIM_ACCT_SOFT], p->v[SIM_ACCT_IDLE], p->ksoftirqd);
	}
}

void report_top(FILE *out, const struct rpt_run *r)
{
	if (!r->ip.up)
		return;
	fprintf(out, "\ntop (%%CPU, same window): iperf3 %.1f", r->ip.app_cpu);
	for (unsigned c = 0; c < r->ncpus; c++)
		if (r->cpu[c].ksoftirqd >= 0.05)
			fprintf(out, ", ksoftirqd/%u %.1f", c, r->cpu[c].ksoftirqd);
	fprintf(out, "\n");
}
