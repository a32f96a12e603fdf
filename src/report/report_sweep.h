/* SPDX-License-Identifier: MIT */
/*
 * report_sweep.h - how `rxscale run --sweep` prints a sweep: its table
 * (row by row, as points finish), its JSON document, and one point as a
 * JSON file (--point-json) that `rxscale sweep-merge` reads back.  A
 * figure a point does not have is "-" in a table, null in JSON (as
 * iperf3 and sysstat leave them).  A point file holds its figures exactly ("%.17g" reads back bit for bit),
 * so a merged sweep prints the bytes an in-process one does.
 */
#ifndef RXSCALE_REPORT_SWEEP_H
#define RXSCALE_REPORT_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

/* Values a sweep takes at most. */
#define RPT_SWEEP_MAX 32

/* One point of `rxscale run --sweep`: the run's headline figures. */
struct rpt_sweep_point {
	double gbps;                    /* iperf3 throughput, Gbit/s */
	double gbps_mean;               /* the same over the mean window (the
					   --compare figure) */
	double ksoftirqd;               /* busiest ksoftirqd thread, %CPU,
					   mean window */
	double soft_max;                /* busiest CPU's %soft, mean window */
	double irqs_per_s;              /* the NIC's host interrupts */
	double ping_avg_ms;             /* idle ping average; -1: no reply */
	uint64_t retransmits;
	bool no_iperf3;                 /* no iperf3 ran: no gbps, retransmits */
	bool udp;                       /* iperf3 -u: no retransmits */
};

/* A sweep: what its heading says, the values and each point's figures. */
struct rpt_sweep {
	char key[64];
	char chip[64];
	unsigned cpus;
	char preset[256];
	unsigned long long seed;
	double duration_s;
	char vals[RPT_SWEEP_MAX][64];
	unsigned n;
	struct rpt_sweep_point pt[RPT_SWEEP_MAX];
};

/* The heading and column titles; one row (point @i), flushed. */
void report_sweep_head(const struct rpt_sweep *sw);
void report_sweep_row(const struct rpt_sweep *sw, unsigned i);

/*
 * A regime's table: its heading (regime @name, @secs seconds a run, judged
 * by @figure, its @n overrides @ov, each with what wins over it: the last
 * of the @nsets --set assignments @sets of its key, or the swept key
 * @swept), the column titles; one row (value @val), flushed.  A figure
 * the point does not have (no ping reply, no iperf3) is "-".
 */
void report_regime_head(const char *name, double secs, const char *figure,
			const char *const *ov, unsigned n, const char *const *sets,
			unsigned nsets, const char *swept);
void report_regime_row(const char *val, const struct rpt_sweep_point *pt);

/* The whole sweep as one JSON document on stdout; a figure a point does
 * not have is null. */
void report_sweep_json(const struct rpt_sweep *sw);

/* Point @i as a JSON file at @path, written through a temporary file next
 * to it (all or nothing).  0, or -1 with the error printed. */
int report_sweep_point_write(const char *path, const struct rpt_sweep *sw, unsigned i);

/*
 * Read the point file @path into @sw: its point's figures, and have[its
 * index] set.  The first file (@first) fixes the sweep; each later one
 * must be of the same sweep, and no index may come twice.  0, or -1 with
 * the error printed (not a point file, another sweep, a duplicate).
 */
int report_sweep_point_read(const char *path, struct rpt_sweep *sw, bool first,
			    bool *have);

#endif /* RXSCALE_REPORT_SWEEP_H */
