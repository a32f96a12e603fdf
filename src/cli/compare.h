/* SPDX-License-Identifier: MIT */
/*
 * compare.h - the seed experiments' rows (../shared/EXPERIMENTS.md) as
 * data, and how each figure is computed from a run, for `rxscale run
 * --compare`: per row the seed's value, the simulated value, the band,
 * and whether the row was fitted or is a prediction.
 */
#ifndef RXSCALE_CLI_COMPARE_H
#define RXSCALE_CLI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

/* What a run measured, over the mean window (intervals after the first
 * 2 s; EXPERIMENTS.md "Mean"). */
struct run_figures {
	const double *gbps;             /* per-interval throughput, all */
	unsigned n_gbps;
	unsigned first_mean;            /* index of the first interval in the mean */
	unsigned ncpus;
	const double *soft;             /* per CPU %soft over the mean window */
	const double *idle;             /* per CPU %idle */
	const bool *irq_cpu;            /* CPUs interrupts may target */
	/* top-style %CPU over the mean window (100 = one CPU) */
	double ksoftirqd_max;           /* the busiest ksoftirqd/N thread */
	double app_cpu;                 /* the iperf3 process, all threads */
	bool have_ping;
	double ping_min, ping_avg, ping_max;    /* ms */
};

struct compare_row {
	const char *id;                 /* "E1a" */
	const char *figure;
	const char *seed;
	double lo, hi;                  /* band of the value */
	bool fit;
	/* value of the figure; *ok whether it is inside the band (some rows
	 * have an extra condition, e.g. E1a's max); *note: extra text */
	double (*value)(const struct run_figures *f, const struct compare_row *r,
			bool *ok, char *note, size_t nlen);
	/* a second figure in the same row (E3: ksoftirqd %CPU), its band;
	 * lo2 == hi2 == 0: none */
	double lo2, hi2;
	/* how to print the band when lo..hi does not say it (E1a); NULL:
	 * "lo ... hi" */
	const char *band_text;
};

/* The row named @id, or NULL. */
const struct compare_row *compare_row_find(const char *id);

/* All rows (for --help and docs). */
extern const struct compare_row compare_rows[];
extern const unsigned compare_rows_n;

#endif /* RXSCALE_CLI_COMPARE_H */
