// SPDX-License-Identifier: MIT
/*
 * cli_sweep.c - `rxscale run --sweep KEY=V1,V2,...`: the scenario once
 * per value, each in a fresh world, one table line per value, and an
 * optional gnuplot drawing of it (cli_plot.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_world.h"

#define SWEEP_MAX 32

/*
 * One sweep point: @base with @set applied, in a fresh world.  @idle_ping:
 * instead of the workload, the host pings the idle peer 20 times, 0.1 s
 * apart (the seed measured ping on an idle link).
 */
static int sweep_one(const struct scenario *base, const char *set, bool idle_ping,
		     struct cli_sweep_point *pt)
{
	struct world *w = calloc(1, sizeof(*w));
	char err[600];
	int rc;

	if (!w) {
		cli_err("out of memory");
		return -1;
	}
	w->scn = *base;
	scenario_set(&w->scn, set, err, sizeof(err));    /* validated before */
	if (idle_ping) {
		w->scn.iperf_streams = 0;
		w->scn.ping_from_host = true;
		w->scn.ping_interval_s = 0.1;
		w->scn.ping_count = 20;
		w->scn.duration_s = 2.5;
	}
	rc = cli_world_up(w) || cli_world_ethtool(w, NULL) || cli_run_iperf3(w, false, pt);
	cli_world_down(w);
	free(w);
	return rc ? -1 : 0;
}

/*
 * Run the scenario once per value of @spec ("usb.rx_usecs=0,5,15"), each
 * in a fresh world, and print one line per value; the ping column comes
 * from a second, idle run per value (sweep_one).
 */
int cli_run_sweep(const struct scenario *base, const char *spec, const char *plot)
{
	char key[64], vals[SWEEP_MAX][64], buf[2100], err[600], plot_tmp[PATH_MAX];
	const char *eq = strchr(spec, '=');
	struct cli_sweep_point pt[SWEEP_MAX];
	unsigned n = 0;

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(key) || !eq[1]) {
		cli_err("--sweep: expected section.key=V1,V2,... (e.g. usb.rx_usecs=0,5,15)");
		return CLI_EXIT_USAGE;
	}
	memcpy(key, spec, (size_t)(eq - spec));
	key[eq - spec] = 0;
	if (strlen(eq + 1) >= sizeof(buf)) {
		cli_err("--sweep: the value list is too long");
		return CLI_EXIT_USAGE;
	}
	snprintf(buf, sizeof(buf), "%s", eq + 1);
	/* split by hand: strtok would skip empty values silently */
	for (char *v = buf, *next; v; v = next) {
		struct scenario t = *base;
		char set[200];

		next = strchr(v, ',');
		if (next)
			*next++ = 0;
		if (!*v) {
			cli_err("--sweep: an empty value in '%.64s'", eq + 1);
			return CLI_EXIT_USAGE;
		}
		if (strlen(v) >= sizeof(vals[0])) {
			cli_err("--sweep: value '%.20s...' is longer than 63 characters", v);
			return CLI_EXIT_USAGE;
		}
		if (n == SWEEP_MAX) {
			cli_err("--sweep: at most %d values", SWEEP_MAX);
			return CLI_EXIT_USAGE;
		}
		snprintf(vals[n], sizeof(vals[n]), "%s", v);
		snprintf(set, sizeof(set), "%.63s=%s", key, v);
		if (scenario_set(&t, set, err, sizeof(err))) {   /* validate all first */
			cli_err("--sweep: %s", err);
			return CLI_EXIT_USAGE;
		}
		if (t.pcap[0] || !t.iperf_streams) {
			cli_err("--sweep: %s leaves no iperf3 workload (a sweep needs one; "
				"not a capture replay)", set);
			return CLI_EXIT_USAGE;
		}
		n++;
	}
	if (base->pcap[0] || !base->iperf_streams) {
		cli_err("--sweep: needs an iperf3 workload (not a capture replay)");
		return CLI_EXIT_USAGE;
	}
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return 1;
	/* bring every point's world up once before printing anything: a value
	 * the NIC refuses fails here, with nothing half-written */
	for (unsigned i = 0; i < n; i++) {
		struct world *w = calloc(1, sizeof(*w));
		char set[200];
		int bad;

		if (!w) {
			cli_err("out of memory");
			goto fail;
		}
		snprintf(set, sizeof(set), "%.63s=%.63s", key, vals[i]);
		w->scn = *base;
		scenario_set(&w->scn, set, err, sizeof(err));
		bad = cli_world_up(w) || cli_world_ethtool(w, NULL);
		cli_world_down(w);
		free(w);
		if (bad)
			goto fail;
	}
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, ", key, base->chip,
	       base->cpus, base->preset, (unsigned long long)base->seed);
	if (strcmp(key, "run.duration"))
		printf("%g s each (ping: idle, 20 probes)\n", base->duration_s);
	else
		printf("(ping: idle, 20 probes)\n");
	printf("%-12s %10s %11s %13s %13s %8s\n", key, "Gbit/s", "ksoftirqd%",
	       "interrupts/s", "ping avg ms", "retrans");
	for (unsigned i = 0; i < n; i++) {
		struct cli_sweep_point idle;
		char set[200];

		snprintf(set, sizeof(set), "%.63s=%.63s", key, vals[i]);
		if (sweep_one(base, set, false, &pt[i]) || sweep_one(base, set, true, &idle))
			goto fail;
		pt[i].ping_avg_ms = idle.ping_avg_ms;
		printf("%-12s %10.2f %11.1f %13.0f %13.3f %8llu\n", vals[i], pt[i].gbps,
		       pt[i].ksoftirqd, pt[i].irqs_per_s, pt[i].ping_avg_ms,
		       (unsigned long long)pt[i].retransmits);
		fflush(stdout);
	}
	if (plot && cli_plot_sweep(plot, plot_tmp, key, vals, pt, n))
		return 1;       /* it removed the temporary file */
	if (plot)
		printf("plot: %s\n", plot);
	return 0;
fail:
	if (plot)
		unlink(plot_tmp);
	return 1;
}
