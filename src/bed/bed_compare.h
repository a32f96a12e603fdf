/* SPDX-License-Identifier: MIT */
/*
 * compare.h - the seed experiments' rows (../shared/EXPERIMENTS.md) as
 * data, and how each figure is computed from a run, for `rxscale run
 * --compare`: per row the seed's value, the simulated value, the band,
 * and whether the row was fitted or is a prediction.
 */
#ifndef RXSCALE_BED_COMPARE_H
#define RXSCALE_BED_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

/* What a run measured, over the mean window (intervals after the first
 * 2 s; EXPERIMENTS.md "Mean"). */
struct bed_figures {
	const double *gbps;             /* per-interval throughput, all */
	unsigned n_gbps;
	unsigned first_mean;            /* index of the first interval in the mean */
	unsigned ncpus;
	const double *soft;             /* per CPU %soft over the mean window */
	/* mpstat -P ALL 1: per CPU %soft of each whole 1 s interval in the
	 * mean window, [n_soft_iv * ncpus] (the seed's "up to", "maximum"
	 * figures are peaks of these) */
	const double *soft_iv;
	unsigned n_soft_iv;
	const double *idle;             /* per CPU %idle */
	const bool *irq_cpu;            /* CPUs interrupts may target */
	/* top-style %CPU over the mean window (100 = one CPU) */
	double ksoftirqd_max;           /* the busiest ksoftirqd/N thread */
	double app_cpu;                 /* the iperf3 process, all threads */
	bool have_ping;
	double ping_min, ping_avg, ping_max;    /* ms */
	/* the row's reference run (bed_compare_row.ref), when it has one */
	bool have_ref;
	const char *ref_set;            /* what the reference changed */
	double ref_gbps;                /* its mean throughput */
	bool ref_have_ping;
	double ref_ping_avg;            /* its ping avg, ms */
};

/* A second run a row compares against: the same scenario with one key
 * changed (EXPERIMENTS.md bands that relate two runs). */
enum bed_compare_ref {
	BED_COMPARE_REF_NONE,
	BED_COMPARE_REF_ONE_STREAM,         /* iperf3.streams=1 (E2c: below E2a) */
	BED_COMPARE_REF_OTHER_MITIGATION,   /* usb.mitigation flipped (E3e) */
};

struct bed_compare_row {
	const char *id;                 /* "E1a" */
	const char *figure;
	const char *seed;
	double lo, hi;                  /* band of the value */
	bool fit;
	/* value of the figure; *ok whether it is inside the band (some rows
	 * have an extra condition, e.g. E1a's max); *note: extra text */
	double (*value)(const struct bed_figures *f, const struct bed_compare_row *r,
			bool *ok, char *note, size_t nlen);
	/* a second figure in the same row (E3: ksoftirqd %CPU), its band;
	 * lo2 == hi2 == 0: none */
	double lo2, hi2;
	/* how to print the band when lo..hi does not say it (E1a); NULL:
	 * "lo ... hi" */
	const char *band_text;
	enum bed_compare_ref ref;
};

/* The mean throughput over the mean window; *@cov (if not NULL) its
 * intervals' coefficient of variation, percent. */
double bed_figures_mean_gbps(const struct bed_figures *f, double *cov);

/* The row named @id, or NULL. */
const struct bed_compare_row *bed_compare_row_find(const char *id);

/* All rows (for --help and docs). */
extern const struct bed_compare_row bed_compare_rows[];
extern const unsigned bed_compare_rows_n;

#endif /* RXSCALE_BED_COMPARE_H */
