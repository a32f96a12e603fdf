// SPDX-License-Identifier: MIT
/* compare.c - EXPERIMENTS.md rows E1a-E1e, E2a-E2e and E3a-E3e (see compare.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/compare.h"

static double mean_gbps(const struct run_figures *f, double *cov)
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

static double in_band(double v, const struct compare_row *r)
{
	return v >= r->lo && v <= r->hi;
}

/* E1a: unstable per-interval throughput: min <= 5.0 and max >= 7.5 */
static double e1a(const struct run_figures *f, const struct compare_row *r,
		  bool *ok, char *note, size_t nl)
{
	double mn = 1e9, mx = 0;

	(void)r;
	for (unsigned i = 0; i < f->n_gbps; i++) {
		if (f->gbps[i] < mn)
			mn = f->gbps[i];
		if (f->gbps[i] > mx)
			mx = f->gbps[i];
	}
	if (!f->n_gbps)
		mn = 0;
	*ok = mn <= 5.0 && mx >= 7.5;
	snprintf(note, nl, "min %.2f, max %.2f Gbit/s over %u intervals", mn, mx,
		 f->n_gbps);
	return mn;
}

static double busiest_soft(const struct run_figures *f, const struct compare_row *r,
			   bool *ok, char *note, size_t nl)
{
	double mx = 0;
	unsigned at = 0;

	for (unsigned c = 0; c < f->ncpus; c++)
		if (f->soft[c] > mx) {
			mx = f->soft[c];
			at = c;
		}
	*ok = in_band(mx, r);
	snprintf(note, nl, "CPU %u", at);
	return mx;
}

static double mean_stable(const struct run_figures *f, const struct compare_row *r,
			  bool *ok, char *note, size_t nl)
{
	double cov = 0, m = mean_gbps(f, &cov);

	*ok = in_band(m, r) && cov <= 2.0;
	snprintf(note, nl, "interval CoV %.2f %% (band: <= 2 %%)", cov);
	return m;
}

static double mean_only(const struct run_figures *f, const struct compare_row *r,
			bool *ok, char *note, size_t nl)
{
	double m = mean_gbps(f, NULL);

	*ok = in_band(m, r);
	note[0] = 0;
	(void)nl;
	return m;
}

/* E1e: CPUs with %soft >= 10 */
static double spread_count(const struct run_figures *f, const struct compare_row *r,
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
static double busiest_irq_busy(const struct run_figures *f, const struct compare_row *r,
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
static double min_irq_soft(const struct run_figures *f, const struct compare_row *r,
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
static double tput_ksoftirqd(const struct run_figures *f, const struct compare_row *r,
			     bool *ok, char *note, size_t nl)
{
	double m = mean_gbps(f, NULL);
	bool k = f->ksoftirqd_max >= r->lo2 && f->ksoftirqd_max <= r->hi2;

	*ok = in_band(m, r) && k;
	snprintf(note, nl, "ksoftirqd %.1f %% (band %g ... %g: %s), iperf3 %.1f %%",
		 f->ksoftirqd_max, r->lo2, r->hi2 > 1e8 ? 100 : r->hi2,
		 k ? "in" : "out", f->app_cpu);
	return m;
}

/* E3e: ping avg (the difference between the two runs: the test) */
static double ping_avg(const struct run_figures *f, const struct compare_row *r,
		       bool *ok, char *note, size_t nl)
{
	if (!f->have_ping) {
		*ok = false;
		snprintf(note, nl, "no ping in this run");
		return 0;
	}
	*ok = in_band(f->ping_avg, r);
	snprintf(note, nl, "rtt min/avg/max %.3f/%.3f/%.3f ms", f->ping_min,
		 f->ping_avg, f->ping_max);
	return f->ping_avg;
}

const struct compare_row compare_rows[] = {
	{ "E1a", "per-interval throughput (no RSS)", "unstable, 3.76 ... 8.2 Gbit/s",
	  0, 5.0, true, e1a, 0, 0, "min <= 5, max >= 7.5" },
	{ "E1b", "busiest CPU %soft (no RSS)", "up to 96 %", 90, 100, true, busiest_soft, 0, 0, NULL },
	{ "E1c", "mean throughput (RSS)", "stable 9.42 Gbit/s", 9.30, 9.42, false,
	  mean_stable, 0, 0, NULL },
	{ "E1d", "busiest CPU %soft (RSS)", "63 %", 50, 75, false, busiest_soft, 0, 0, NULL },
	{ "E1e", "softirq spread (RSS)", "evenly distributed", 3, 1e9, false, spread_count, 0, 0, NULL },
	{ "E2a", "throughput, vanilla -P 1", "5.5 Gbit/s", 5.1, 5.9, true, mean_only, 0, 0, NULL },
	{ "E2b", "busiest A76 busy %, vanilla -P 1", "~100 %", 95, 100, true,
	  busiest_irq_busy, 0, 0, NULL },
	{ "E2c", "throughput, vanilla -P 20", "4.3 Gbit/s (below E2a)", 3.9, 4.7, false,
	  mean_only, 0, 0, NULL },
	{ "E2d", "throughput, RSS -P 20", "9.4 Gbit/s", 9.25, 9.42, false, mean_only, 0, 0, NULL },
	{ "E2e", "spread over the A76s, RSS -P 20", "across all four A76", 10, 100, false,
	  min_irq_soft, 0, 0, NULL },
	{ "E3a", "tput / ksoftirqd, mit. on, -P 1", "8.87 Gbit/s / 12.5 %", 8.6, 9.0,
	  true, tput_ksoftirqd, 8, 17, NULL },
	{ "E3b", "tput / ksoftirqd, mit. on, -P 4", "8.81 Gbit/s / 46.5 %", 8.5, 9.0,
	  false, tput_ksoftirqd, 38, 55, NULL },
	{ "E3c", "tput / ksoftirqd, mit. off, -P 1", "8.83 Gbit/s / 16.6 %", 8.6, 9.0,
	  true, tput_ksoftirqd, 11, 22, NULL },
	{ "E3d", "tput / ksoftirqd, mit. off, -P 4", "8.04 Gbit/s / 96.7 %", 7.7, 8.4,
	  false, tput_ksoftirqd, 88, 1e9, NULL },
	{ "E3e", "ping rtt avg ms, idle", "0.411 (on) / 0.388 (off)", 0.30, 0.50, false,
	  ping_avg, 0, 0, NULL },
};

const unsigned compare_rows_n = sizeof(compare_rows) / sizeof(compare_rows[0]);

const struct compare_row *compare_row_find(const char *id)
{
	for (unsigned i = 0; i < compare_rows_n; i++)
		if (!strcmp(compare_rows[i].id, id))
			return &compare_rows[i];
	return NULL;
}
