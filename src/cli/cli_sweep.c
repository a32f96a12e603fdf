// SPDX-License-Identifier: MIT
/*
 * cli_sweep.c - `rxscale run --sweep KEY=V1,V2,...`: the scenario once
 * per value, each in a fresh world, one table line per value, and an
 * optional gnuplot drawing of it (cli_plot.c); with the scenario's
 * regimes, a table, a verdict and a curve per regime.
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
	rc = cli_world_up(w) || cli_world_ethtool(w, NULL) || cli_run_iperf3(w, false, pt) < 0;
	cli_world_down(w);
	free(w);
	return rc ? -1 : 0;
}

/*
 * Split @spec ("usb.rx_usecs=0,5,15") into @key and its values (at most
 * SWEEP_MAX); 0, or CLI_EXIT_USAGE with the error printed.
 */
static int sweep_parse(const char *spec, char key[64], char vals[SWEEP_MAX][64],
		       unsigned *nvals)
{
	const char *eq = strchr(spec, '=');
	char buf[2100];
	unsigned n = 0;

	if (!eq || eq == spec || (size_t)(eq - spec) >= 64 || !eq[1]) {
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
		next = strchr(v, ',');
		if (next)
			*next++ = 0;
		if (!*v) {
			cli_err("--sweep: an empty value in '%.64s'", eq + 1);
			return CLI_EXIT_USAGE;
		}
		if (strlen(v) >= 64) {
			cli_err("--sweep: value '%.20s...' is longer than 63 characters", v);
			return CLI_EXIT_USAGE;
		}
		if (n == SWEEP_MAX) {
			cli_err("--sweep: at most %d values", SWEEP_MAX);
			return CLI_EXIT_USAGE;
		}
		snprintf(vals[n++], 64, "%s", v);
	}
	*nvals = n;
	return 0;
}

/* @base with @key=@val applied: 0, or CLI_EXIT_USAGE with the error
 * printed, also when it leaves no workload (@idle_ok: ping alone will do,
 * else iperf3 is needed). */
static int sweep_check(const struct scenario *base, const char *key, const char *val,
		       bool idle_ok)
{
	struct scenario t = *base;
	char set[200], err[600];

	snprintf(set, sizeof(set), "%.63s=%.63s", key, val);
	if (scenario_set(&t, set, err, sizeof(err))) {
		cli_err("--sweep: %s", err);
		return CLI_EXIT_USAGE;
	}
	if (t.pcap[0] || (!t.iperf_streams && !(idle_ok && t.ping_count))) {
		cli_err("--sweep: %s leaves no %s workload (a sweep needs one; "
			"not a capture replay)", set, idle_ok ? "iperf3 or ping" : "iperf3");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* Bring @base with @key=@val up once, with its ethtool commands, and down:
 * a value the NIC refuses fails here, before anything is printed. */
static int sweep_try(const struct scenario *base, const char *key, const char *val)
{
	struct world *w = calloc(1, sizeof(*w));
	char set[200], err[600];
	int bad;

	if (!w) {
		cli_err("out of memory");
		return -1;
	}
	snprintf(set, sizeof(set), "%.63s=%.63s", key, val);
	w->scn = *base;
	scenario_set(&w->scn, set, err, sizeof(err));
	bad = cli_world_up(w) || cli_world_ethtool(w, NULL);
	cli_world_down(w);
	free(w);
	return bad ? -1 : 0;
}

/* The end of a sweep of @base: its plot if asked for (cli_plot_sweep),
 * titled with the chip, preset, duration and seed, and named. */
static int sweep_plot(const struct scenario *base, const char *plot, const char *tmp,
		      const char *key, char vals[][64], const char *const *names,
		      const struct cli_sweep_point *pt, unsigned nreg, unsigned n)
{
	char title[600], dur[40];

	if (!plot)
		return 0;
	snprintf(dur, sizeof(dur), "%g s each", base->duration_s);
	snprintf(title, sizeof(title), "rxscale sweep of %s: %s, preset %s, %s, seed %llu",
		 key, base->chip, base->preset, strcmp(key, "run.duration") ? dur : "as swept",
		 (unsigned long long)base->seed);
	if (cli_plot_sweep(plot, tmp, title, key, vals, names, pt, nreg, n))
		return 1;       /* it removed the temporary file */
	printf("plot: %s\n", plot);
	return 0;
}

/*
 * Run the scenario once per value of @spec ("usb.rx_usecs=0,5,15"), each
 * in a fresh world, and print one line per value; the ping column comes
 * from a second, idle run per value (sweep_one).
 */
int cli_run_sweep(const struct scenario *base, const char *spec, const char *plot)
{
	char key[64], vals[SWEEP_MAX][64], plot_tmp[PATH_MAX];
	struct cli_sweep_point pt[SWEEP_MAX];
	unsigned n = 0;
	int rc = sweep_parse(spec, key, vals, &n);

	if (rc)
		return rc;
	for (unsigned i = 0; i < n; i++)        /* validate all first */
		if (sweep_check(base, key, vals[i], false))
			return CLI_EXIT_USAGE;
	if (base->pcap[0] || !base->iperf_streams) {
		cli_err("--sweep: needs an iperf3 workload (not a capture replay)");
		return CLI_EXIT_USAGE;
	}
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return 1;
	/* bring every point's world up once before printing anything: a value
	 * the NIC refuses fails here, with nothing half-written */
	for (unsigned i = 0; i < n; i++)
		if (sweep_try(base, key, vals[i]))
			goto fail;
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
		cli_progress_label("sweep %u/%u, %.40s", i + 1, n, set);
		if (sweep_one(base, set, false, &pt[i]))
			goto fail;
		cli_progress_label("sweep %u/%u, %.40s, idle ping", i + 1, n, set);
		if (sweep_one(base, set, true, &idle))
			goto fail;
		cli_progress_done();
		pt[i].ping_avg_ms = idle.ping_avg_ms;
		printf("%-12s %10.2f %11.1f %13.0f %13.3f %8llu\n", vals[i], pt[i].gbps,
		       pt[i].ksoftirqd, pt[i].irqs_per_s, pt[i].ping_avg_ms,
		       (unsigned long long)pt[i].retransmits);
		fflush(stdout);
	}
	return sweep_plot(base, plot, plot_tmp, key, vals, NULL, pt, 1, n);
fail:
	if (plot)
		unlink(plot_tmp);
	return 1;
}

/* One figure of a sweep point, and whether more of it is better. */
static double figure_of(const struct cli_sweep_point *p, enum scn_figure f, bool *higher)
{
	*higher = f == SCN_FIG_GBPS;
	switch (f) {
	case SCN_FIG_GBPS: return p->gbps;
	case SCN_FIG_SOFT: return p->soft_max;
	case SCN_FIG_IRQS: return p->irqs_per_s;
	case SCN_FIG_PING: return p->ping_avg_ms;
	}
	return 0;
}

static const char *const figure_label[] = {
	[SCN_FIG_GBPS] = "Gbit/s", [SCN_FIG_SOFT] = "busiest CPU %soft",
	[SCN_FIG_IRQS] = "interrupts/s", [SCN_FIG_PING] = "ping avg ms",
};

/*
 * A regime's verdict line: the best value by its main figure, and, when a
 * value is "adaptive", how far adaptive is from the best of the others
 * (positive: worse).
 */
static void print_verdict(const struct scn_regime *r, char vals[][64],
			  const struct cli_sweep_point *pt, unsigned n)
{
	int best = -1, adaptive = -1;
	bool higher;

	for (unsigned i = 0; i < n; i++) {
		double v = figure_of(&pt[i], r->main, &higher);

		if (!strcmp(vals[i], "adaptive")) {
			adaptive = (int)i;
			continue;
		}
		if (r->main == SCN_FIG_PING && v < 0)
			continue;       /* no reply */
		if (best < 0 || (higher ? v > figure_of(&pt[best], r->main, &higher) :
				 v < figure_of(&pt[best], r->main, &higher)))
			best = (int)i;
	}
	if (best < 0)
		return;
	printf("main figure %s: best %s %.3f", figure_label[r->main], vals[best],
	       figure_of(&pt[best], r->main, &higher));
	if (adaptive >= 0) {
		double b = figure_of(&pt[best], r->main, &higher);
		double a = figure_of(&pt[adaptive], r->main, &higher);
		double worse = b ? (higher ? b - a : a - b) / b * 100 : 0;

		printf("; adaptive %.3f, %.1f %% %s", a, worse < 0 ? -worse : worse,
		       worse <= 0 ? "better" : "worse");
	}
	printf("\n");
}

/*
 * A sweep in the scenario's regimes: for each regime, the scenario
 * @pre (file and options) with the regime's overrides, then the --set
 * overrides @sets, then each value; one table per regime, its verdict,
 * and one plot with a curve per regime.  Ping comes from the run itself.
 */
int cli_run_regime_sweep(const struct scenario *pre, const char *const *sets,
			 unsigned nsets, const char *spec, const char *plot)
{
	char key[64], vals[SWEEP_MAX][64], plot_tmp[PATH_MAX], err[600];
	static struct cli_sweep_point pt[SCN_MAX_REGIMES * SWEEP_MAX];
	static struct scenario base[SCN_MAX_REGIMES];
	const char *names[SCN_MAX_REGIMES];
	unsigned n = 0, nreg = pre->n_regimes;
	int rc = sweep_parse(spec, key, vals, &n);

	if (rc)
		return rc;
	for (unsigned r = 0; r < nreg; r++) {
		base[r] = *pre;
		scenario_apply_regime(&base[r], &pre->regime[r]);
		for (unsigned i = 0; i < nsets; i++)
			if (scenario_set(&base[r], sets[i], err, sizeof(err))) {
				cli_err("%s", err);
				return CLI_EXIT_USAGE;
			}
		names[r] = pre->regime[r].name;
		for (unsigned i = 0; i < n; i++)
			if (sweep_check(&base[r], key, vals[i], true))
				return CLI_EXIT_USAGE;
	}
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return 1;
	for (unsigned r = 0; r < nreg; r++)
		for (unsigned i = 0; i < n; i++)
			if (sweep_try(&base[r], key, vals[i]))
				goto fail;
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, %u regimes\n", key,
	       base[0].chip, base[0].cpus, base[0].preset, (unsigned long long)base[0].seed,
	       nreg);
	for (unsigned r = 0; r < nreg; r++) {
		const struct scn_regime *rg = &pre->regime[r];

		printf("\nregime %s (%g s each, main figure: %s):", rg->name,
		       base[r].duration_s, scenario_figure_name(rg->main));
		for (unsigned i = 0; i < rg->n_set; i++)
			printf(" %s", rg->set[i]);
		printf("\n%-12s %10s %10s %11s %13s %13s %8s\n", key, "Gbit/s", "%soft max",
		       "ksoftirqd%", "interrupts/s", "ping avg ms", "retrans");
		for (unsigned i = 0; i < n; i++) {
			struct cli_sweep_point *p = &pt[r * n + i];
			char set[200];

			snprintf(set, sizeof(set), "%.63s=%.63s", key, vals[i]);
			if (sweep_one(&base[r], set, false, p))
				goto fail;
			printf("%-12s %10.2f %10.1f %11.1f %13.0f %13.3f %8llu\n", vals[i],
			       p->gbps, p->soft_max, p->ksoftirqd, p->irqs_per_s,
			       p->ping_avg_ms, (unsigned long long)p->retransmits);
			fflush(stdout);
		}
		print_verdict(rg, vals, &pt[r * n], n);
	}
	return sweep_plot(&base[0], plot, plot_tmp, key, vals, names, pt, nreg, n);
fail:
	if (plot)
		unlink(plot_tmp);
	return 1;
}
