// SPDX-License-Identifier: MIT
/* bed_compare.c - EXPERIMENTS.md rows E1a-E1e, E2a-E2e and E3a-E3e (see bed_compare.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bed/bed_compare.h"

double bed_figures_mean_gbps(const struct bed_figures *f, double *cov)
{
	double s = 0, s2 = 0;
	unsigned n = 0;

	for (unsigned i = f->first_mean; i < f->n_gbps; i++, n++) {
		s += f->gbps[i];
		s2 += f->gbps[i] * f->gbps[i];
	}
	if (!n)
		return 0;
	if (cov) {
		double m = s / n, v = s2 / n - m * m;

		*cov = m > 0 ? 100.0 * sqrt(v > 0 ? v : 0) / m : 0;
	}
	return s / n;
}

static double in_band(double v, const struct bed_compare_row *r)
{
	return v >= r->lo && v <= r->hi;
}

/* E1a: unstable per-interval throughput: min <= 5.0 and max >= 7.5, over
 * the intervals of the mean window (the seed's 3600 s run fluctuated in
 * steady state; the first seconds' slow start is not the instability) */
static double e1a(const struct bed_figures *f, const struct bed_compare_row *r,
		  bool *ok, char *note, size_t nl)
{
	double mn = 1e9, mx = 0;
	unsigned n = 0;

	(void)r;
	for (unsigned i = f->first_mean; i < f->n_gbps; i++, n++) {
		if (f->gbps[i] < mn)
			mn = f->gbps[i];
		if (f->gbps[i] > mx)
			mx = f->gbps[i];
	}
	if (!n)
		mn = 0;
	*ok = mn <= 5.0 && mx >= 7.5;
	snprintf(note, nl, "min %.2f, max %.2f Gbit/s over %u intervals after %u s", mn, mx,
		 n, f->first_mean);
	return mn;
}

/* E1b, E1d: the busiest CPU's %soft as the seed read it off mpstat -P ALL
 * 1: the peak of the per-second values (mean window) */
static double peak_soft(const struct bed_figures *f, const struct bed_compare_row *r,
			bool *ok, char *note, size_t nl)
{
	double mx = 0, mean = 0;
	unsigned at = 0, when = 0;

	for (unsigned i = 0; i < f->n_soft_iv; i++)
		for (unsigned c = 0; c < f->ncpus; c++)
			if (f->soft_iv[i * f->ncpus + c] > mx) {
				mx = f->soft_iv[i * f->ncpus + c];
				at = c;
				when = i;
			}
	mean = f->ncpus ? f->soft[at] : 0;
	*ok = f->n_soft_iv && in_band(mx, r);
	snprintf(note, nl, "CPU %u in second %u; its mean %.1f %% over %u s", at,
		 f->first_mean + when + 1, mean, f->n_soft_iv);
	return mx;
}

static double mean_stable(const struct bed_figures *f, const struct bed_compare_row *r,
			  bool *ok, char *note, size_t nl)
{
	double cov = 0, m = bed_figures_mean_gbps(f, &cov);

	*ok = in_band(m, r) && cov <= 2.0;
	snprintf(note, nl, "interval CoV %.2f %% (band: <= 2 %%)", cov);
	return m;
}

static double mean_only(const struct bed_figures *f, const struct bed_compare_row *r,
			bool *ok, char *note, size_t nl)
{
	double m = bed_figures_mean_gbps(f, NULL);

	*ok = in_band(m, r);
	note[0] = 0;
	(void)nl;
	return m;
}

/* E2c: the mean in its band, and below the reference run's (E2a: the same
 * host with one stream) */
static double mean_below_ref(const struct bed_figures *f, const struct bed_compare_row *r,
			     bool *ok, char *note, size_t nl)
{
	double m = bed_figures_mean_gbps(f, NULL);
	bool below = f->have_ref && m < f->ref_gbps;

	*ok = in_band(m, r) && below;
	if (f->have_ref)
		snprintf(note, nl, "%s: %.2f Gbit/s, this run below it: %s", f->ref_set,
			 f->ref_gbps, below ? "yes" : "no");
	else
		snprintf(note, nl, "no reference run");
	return m;
}

/* E1e: CPUs with %soft >= 10 */
static double spread_count(const struct bed_figures *f, const struct bed_compare_row *r,
			   bool *ok, char *note, size_t nl)
{
	unsigned n = 0;

	for (unsigned c = 0; c < f->ncpus; c++)
		n += f->soft[c] >= 10.0;
	*ok = in_band(n, r);
	snprintf(note, nl, "CPUs with %%soft >= 10");
	return n;
}

/* E2b: the busiest interrupt CPU's busy % (100 - idle) */
static double busiest_irq_busy(const struct bed_figures *f, const struct bed_compare_row *r,
			       bool *ok, char *note, size_t nl)
{
	double mx = 0;
	unsigned at = 0;

	for (unsigned c = 0; c < f->ncpus; c++)
		if (f->irq_cpu[c] && 100.0 - f->idle[c] > mx) {
			mx = 100.0 - f->idle[c];
			at = c;
		}
	*ok = in_band(mx, r);
	snprintf(note, nl, "CPU %u", at);
	return mx;
}

/* E2e: the least softirq-loaded interrupt CPU's %soft */
static double min_irq_soft(const struct bed_figures *f, const struct bed_compare_row *r,
			   bool *ok, char *note, size_t nl)
{
	double mn = 1e9;

	for (unsigned c = 0; c < f->ncpus; c++)
		if (f->irq_cpu[c] && f->soft[c] < mn)
			mn = f->soft[c];
	if (mn > 1e8)
		mn = 0;
	*ok = in_band(mn, r);
	snprintf(note, nl, "lowest %%soft among the interrupt CPUs");
	return mn;
}

/* E3a-E3d: throughput and the busiest ksoftirqd thread's %CPU, both in
 * their bands */
static double tput_ksoftirqd(const struct bed_figures *f, const struct bed_compare_row *r,
			     bool *ok, char *note, size_t nl)
{
	double m = bed_figures_mean_gbps(f, NULL);
	bool k = f->ksoftirqd_max >= r->lo2 && f->ksoftirqd_max <= r->hi2;

	*ok = in_band(m, r) && k;
	snprintf(note, nl, "ksoftirqd %.1f %% (band %g ... %g: %s), iperf3 %.1f %%",
		 f->ksoftirqd_max, r->lo2, r->hi2 > 1e8 ? 100 : r->hi2,
		 k ? "in" : "out", f->app_cpu);
	return m;
}

/* E3e: ping avg in its band in this run and in the reference run (the
 * other mitigation setting), and the two differ by <= 0.05 ms */
static double ping_avg(const struct bed_figures *f, const struct bed_compare_row *r,
		       bool *ok, char *note, size_t nl)
{
	bool both;

	if (!f->have_ping || !f->have_ref || !f->ref_have_ping) {
		*ok = false;
		snprintf(note, nl, "no ping in this run or its reference run");
		return f->have_ping ? f->ping_avg : 0;
	}
	both = in_band(f->ping_avg, r) && in_band(f->ref_ping_avg, r);
	*ok = both && fabs(f->ping_avg - f->ref_ping_avg) <= 0.05;
	snprintf(note, nl, "rtt min/avg/max %.3f/%.3f/%.3f ms; %s: avg %.3f ms, "
		 "difference %.3f ms (band <= 0.05)", f->ping_min, f->ping_avg, f->ping_max,
		 f->ref_set, f->ref_ping_avg, fabs(f->ping_avg - f->ref_ping_avg));
	return f->ping_avg;
}

const struct bed_compare_row bed_compare_rows[] = {
	{ "E1a", "per-interval throughput (no RSS)", "unstable, 3.76 ... 8.2 Gbit/s",
	  0, 5.0, true, e1a, 0, 0, "min <= 5, max >= 7.5", BED_COMPARE_REF_NONE },
	{ "E1b", "busiest CPU %soft peak/s (no RSS)", "up to 96 %", 90, 100, true, peak_soft,
	  0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E1c", "mean throughput (RSS)", "stable 9.42 Gbit/s", 9.30, 9.42, false,
	  mean_stable, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E1d", "busiest CPU %soft peak/s (RSS)", "63 %", 50, 75, false, peak_soft, 0, 0,
	  NULL, BED_COMPARE_REF_NONE },
	{ "E1e", "softirq spread (RSS)", "evenly distributed", 3, 1e9, false, spread_count, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E2a", "throughput, vanilla -P 1", "5.5 Gbit/s", 5.1, 5.9, true, mean_only, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E2b", "busiest A76 busy %, vanilla -P 1", "~100 %", 95, 100, true,
	  busiest_irq_busy, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E2c", "throughput, vanilla -P 20", "4.3 Gbit/s (below E2a)", 3.9, 4.7, false,
	  mean_below_ref, 0, 0, "3.9 ... 4.7, < E2a", BED_COMPARE_REF_ONE_STREAM },
	{ "E2d", "throughput, RSS -P 20", "9.4 Gbit/s", 9.25, 9.42, false, mean_only, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E2e", "spread over the A76s, RSS -P 20", "across all four A76", 10, 100, false,
	  min_irq_soft, 0, 0, NULL, BED_COMPARE_REF_NONE },
	{ "E3a", "tput / ksoftirqd, mit. on, -P 1", "8.87 Gbit/s / 12.5 %", 8.6, 9.0,
	  true, tput_ksoftirqd, 8, 17, NULL, BED_COMPARE_REF_NONE },
	{ "E3b", "tput / ksoftirqd, mit. on, -P 4", "8.81 Gbit/s / 46.5 %", 8.5, 9.0,
	  false, tput_ksoftirqd, 38, 55, NULL, BED_COMPARE_REF_NONE },
	{ "E3c", "tput / ksoftirqd, mit. off, -P 1", "8.83 Gbit/s / 16.6 %", 8.6, 9.0,
	  true, tput_ksoftirqd, 11, 22, NULL, BED_COMPARE_REF_NONE },
	{ "E3d", "tput / ksoftirqd, mit. off, -P 4", "8.04 Gbit/s / 96.7 %", 7.7, 8.4,
	  false, tput_ksoftirqd, 88, 1e9, NULL, BED_COMPARE_REF_NONE },
	/* in the seed, 0.411 ms is the run with the patch's code, which clears
	 * the bits: mitigation off */
	{ "E3e", "ping rtt avg ms, idle", "0.411 (mit. off) / 0.388 (on)", 0.30, 0.50, false,
	  ping_avg, 0, 0, "0.3...0.5, diff<=.05", BED_COMPARE_REF_OTHER_MITIGATION },
};

const unsigned bed_compare_rows_n = sizeof(bed_compare_rows) / sizeof(bed_compare_rows[0]);

const struct bed_compare_row *bed_compare_row_find(const char *id)
{
	for (unsigned i = 0; i < bed_compare_rows_n; i++)
		if (!strcmp(bed_compare_rows[i].id, id))
			return &bed_compare_rows[i];
	return NULL;
}
