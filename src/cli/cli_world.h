/* SPDX-License-Identifier: MIT */
/*
 * cli_world.h - what `rxscale run` adds to the testbed's world
 * (bed/bed_world.h): the report's common part, the workloads' runs and
 * reports, the timeline and chaos, sweeps.
 */
#ifndef RXSCALE_CLI_WORLD_H
#define RXSCALE_CLI_WORLD_H

#include "bed/bed_world.h"
#include "cli/cli.h"
#include "report/report.h"

/* cli_world.c: the scenario's ethtool commands (bed_world_ethtool), then
 * the timeline's syntax; tear down the timeline, then the world; the
 * report's common part. */
int cli_world_ethtool(struct bed_world *w, FILE *out);
void cli_world_down(struct bed_world *w);
void cli_world_report(struct bed_world *w, struct rpt_run *r);

/*
 * cli_iperf3.c: run the iperf3/ping workload on @w and print its report
 * (text, or JSON); with @pt, fill the sweep point and print nothing.
 * The exit status: 0; 1 when a frame went unaccounted, or chaos found a
 * stall beyond its bound or a rejected command that changed settings; 3
 * when a timeline command was rejected (the run went on); or -1 with the
 * error printed.
 */
int cli_run_iperf3(struct bed_world *w, bool json, struct rpt_sweep_point *pt);

/* cli_iperf3.c: with --compare, run the reference run the scenario's rows
 * ask for (none, or @w->scn with one key changed) into @w->ref, before
 * @w's own world comes up (one world at a time: the kernel API has one
 * instance).  0, or -1 with the error printed. */
int cli_compare_reference(struct bed_world *w);

/* cli_replay.c: replay @w->scn.pcap into the NIC and report; the exit
 * status (1: a queue mismatch, a frame uncounted, or a bad capture). */
int cli_run_replay(struct bed_world *w, bool json);

/* cli_timeline.c: the timeline and chaos of a run.  Check the commands'
 * syntax up front (0, or -1 with ethtool's message and the entry named);
 * start it when the workload starts; after the run, fill the report's
 * timeline block.  Returns from _report how many commands failed. */
int cli_timeline_check(struct bed_world *w);
int cli_timeline_start(struct bed_world *w);
unsigned cli_timeline_report(struct bed_world *w, struct rpt_run *r);
void cli_timeline_free(struct bed_world *w);

/* How a sweep runs and prints (rxscale run's options). */
struct cli_sweep_opts {
	const char *plot;               /* --plot FILE, or NULL */
	bool json;                      /* --json: one document, no table */
	unsigned jobs;                  /* -j N: points in N processes */
	const char *emit;               /* --emit parallel|slurm, or NULL */
	const char *emit_dir;           /* --emit-dir: the points' JSON files */
	int point;                      /* --point I: only point I (-1: all) */
	const char *point_json;         /* with --point: where its JSON goes */
	/* for --emit: the run's arguments that say the scenario and the
	 * sweep (scenario file, --set, --ethtool, --preset, --seed, --pcap,
	 * --sweep), which every point's command repeats */
	int argc;
	char **argv;
};

/* cli_sweep.c: --sweep @spec over @base as @o says; the exit status.
 * With regimes: in each regime of @pre (the scenario before the --set
 * overrides @sets, which apply after each regime's own), in this process,
 * with an optional --plot. */
int cli_run_sweep(const struct bed_scenario *base, const char *spec,
		  const struct cli_sweep_opts *o);
int cli_run_regime_sweep(const struct bed_scenario *pre, const char *const *sets,
			 unsigned nsets, const char *spec, const char *plot);

#endif /* RXSCALE_CLI_WORLD_H */
