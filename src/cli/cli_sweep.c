// SPDX-License-Identifier: MIT
/*
 * cli_sweep.c - `rxscale run --sweep KEY=V1,V2,...`: the scenario once
 * per value, each in a fresh world, one table line per value (or one JSON
 * document, --json), and an optional gnuplot drawing of it (cli_plot.c);
 * with the scenario's regimes, a table, a verdict and a curve per regime
 * (in this process only).
 *
 * Where the points run:
 *  - in this process, one after another (-j 1, the default);
 *  - -j N: in up to N child processes at once (fork), each point's
 *    figures sent back through a pipe as they are, printed in order;
 *  - --emit parallel|slurm: nowhere yet -- one command per point is
 *    printed (GNU parallel's input, or a Slurm job-array script), each
 *    running `rxscale run ... --point I --point-json DIR/point-I.json`;
 *    `rxscale sweep-merge DIR` then prints the table, JSON or plot.
 * A point's figures do not depend on where it ran (a fresh world each,
 * nothing shared), so every way prints the same bytes.
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "report/report_sweep.h"


int cli_run_point(const struct bed_scenario *base, const char *set, bool idle_ping,
		  struct rpt_sweep_point *pt)
{
	struct bed_world *w = calloc(1, sizeof(*w));
	char err[600];
	int rc;

	if (!w) {
		cli_err("out of memory");
		return -1;
	}
	w->scn = *base;
	bed_scenario_set(&w->scn, set, err, sizeof(err));    /* validated before */
	if (idle_ping) {
		w->scn.iperf_streams = 0;
		w->scn.ping_from_host = true;
		w->scn.ping_interval_s = 0.1;
		w->scn.ping_count = 20;
		w->scn.duration_s = 2.5;
	}
	rc = bed_world_up(w) || cli_world_ethtool(w, NULL) || cli_run_iperf3(w, false, pt);
	cli_world_down(w);
	free(w);
	return rc ? -1 : 0;
}

/* Point @i: the workload's figures and the idle ping's average. */
static int sweep_point(const struct bed_scenario *base, const struct rpt_sweep *sw,
		       unsigned i, struct rpt_sweep_point *pt)
{
	struct rpt_sweep_point idle;
	char set[200];

	snprintf(set, sizeof(set), "%.63s=%.63s", sw->key, sw->vals[i]);
	bed_progress_label("sweep %u/%u, %.40s", i + 1, sw->n, set);
	if (cli_run_point(base, set, false, pt))
		return -1;
	bed_progress_label("sweep %u/%u, %.40s, idle ping", i + 1, sw->n, set);
	if (cli_run_point(base, set, true, &idle))
		return -1;
	bed_progress_done();
	pt->ping_avg_ms = idle.ping_avg_ms;
	return 0;
}

/* Split and validate @spec ("usb.rx_usecs=0,5,15") against @base; each
 * value must leave an iperf3 workload (@idle_ok: or ping alone). */
static int sweep_parse(struct rpt_sweep *sw, const struct bed_scenario *base, const char *spec,
		       bool idle_ok)
{
	char buf[2100], err[600];
	const char *eq = strchr(spec, '=');

	memset(sw, 0, sizeof(*sw));
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(sw->key) || !eq[1]) {
		cli_err("--sweep: expected section.key=V1,V2,... (e.g. usb.rx_usecs=0,5,15)");
		return -1;
	}
	memcpy(sw->key, spec, (size_t)(eq - spec));
	if (strlen(eq + 1) >= sizeof(buf)) {
		cli_err("--sweep: the value list is too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", eq + 1);
	/* split by hand: strtok would skip empty values silently */
	for (char *v = buf, *next; v; v = next) {
		struct bed_scenario t = *base;
		char set[200];

		next = strchr(v, ',');
		if (next)
			*next++ = 0;
		if (!*v) {
			cli_err("--sweep: an empty value in '%.64s'", eq + 1);
			return -1;
		}
		if (strlen(v) >= sizeof(sw->vals[0])) {
			cli_err("--sweep: value '%.20s...' is longer than 63 characters", v);
			return -1;
		}
		if (sw->n == RPT_SWEEP_MAX) {
			cli_err("--sweep: at most %d values", RPT_SWEEP_MAX);
			return -1;
		}
		snprintf(sw->vals[sw->n], sizeof(sw->vals[0]), "%.63s", v);
		snprintf(set, sizeof(set), "%.63s=%.63s", sw->key, v);
		if (bed_scenario_set(&t, set, err, sizeof(err))) {   /* validate all first */
			cli_err("--sweep: %s", err);
			return -1;
		}
		if (t.pcap[0] || (!t.iperf_streams && !(idle_ok && t.ping_count))) {
			cli_err("--sweep: %s leaves no %s workload (a sweep needs one; "
				"not a capture replay)", set, idle_ok ? "iperf3 or ping" : "iperf3");
			return -1;
		}
		sw->n++;
	}
	if (base->pcap[0] || (!base->iperf_streams && !(idle_ok && base->ping_count))) {
		cli_err("--sweep: needs an iperf3 workload (not a capture replay)");
		return -1;
	}
	snprintf(sw->chip, sizeof(sw->chip), "%.31s%s", base->chip,
		 bed_pci_chip(base->chip) && bed_pci_chip(base->chip)->whatif ?
		 " (what-if, not a real chip)" : "");
	/* what the sweep itself varies is named as such, not as the base's */
	if (!strcmp(sw->key, "nic.chip"))
		snprintf(sw->chip, sizeof(sw->chip), "chip as swept");
	sw->cpus = base->cpus;
	snprintf(sw->preset, sizeof(sw->preset), "%s",
		 strcmp(sw->key, "host.preset") ? base->preset : "as swept");
	sw->seed = (unsigned long long)base->seed;
	sw->duration_s = base->duration_s;
	return 0;
}

/* Bring every point's world up once before anything runs: a value the
 * NIC refuses fails here, with nothing half-written. */
static int sweep_check(const struct bed_scenario *base, const struct rpt_sweep *sw)
{
	char err[600];

	for (unsigned i = 0; i < sw->n; i++) {
		struct bed_world *w = calloc(1, sizeof(*w));
		char set[200];
		int bad;

		if (!w) {
			cli_err("out of memory");
			return -1;
		}
		snprintf(set, sizeof(set), "%.63s=%.63s", sw->key, sw->vals[i]);
		w->scn = *base;
		bed_scenario_set(&w->scn, set, err, sizeof(err));
		bad = bed_world_up(w) || cli_world_ethtool(w, NULL);
		cli_world_down(w);
		free(w);
		if (bad)
			return -1;
	}
	return 0;
}

/* Draw @sw (@nreg curves of sw->n points @pt, named @names, or NULL for
 * one) into @plot, titled with the chip, preset, duration and seed. */
static int sweep_plot(const struct rpt_sweep *sw, const char *plot, const char *tmp,
		      const char *const *names, const struct rpt_sweep_point *pt,
		      unsigned nreg)
{
	char title[600], dur[40];

	/* regimes set their own durations (an idle-ping regime runs 101 s) */
	snprintf(dur, sizeof(dur), "%g s each", sw->duration_s);
	snprintf(title, sizeof(title), "rxscale sweep of %s: %s, preset %s, %s, seed %llu",
		 sw->key, sw->chip, sw->preset,
		 !strcmp(sw->key, "run.duration") ? "as swept" : names ? "per regime" : dur,
		 sw->seed);
	return cli_plot_sweep(plot, tmp, title, sw->key, (char (*)[64])sw->vals, names, pt,
			      nreg, sw->n);
}

/* The whole sweep's output once every point is known: the JSON document,
 * or (the table was printed row by row) the plot. */
static int sweep_finish(const struct rpt_sweep *sw, const struct cli_sweep_opts *o,
			const char *plot_tmp)
{
	/* the plot first: a JSON document is printed only for a sweep that
	 * did not fail (else --json prints the error) */
	if (o->plot) {
		if (sweep_plot(sw, o->plot, plot_tmp, NULL, sw->pt, 1))
			return 1;       /* it removed the temporary file */
		fprintf(o->json ? stderr : stdout, "plot: %s\n", o->plot);
	}
	if (o->json) {
		report_sweep_json(sw);
		cli_json_printed();
	}
	return 0;
}

/* ----- -j N: the points in child processes ----- */

struct child {
	pid_t pid;
	int fd;                 /* read end of its pipe, -1 when done */
	unsigned point;
};

/* What a child sends: its status, then the figures. */
struct child_msg {
	int rc;
	struct rpt_sweep_point pt;
};

static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static pid_t spawn_point(const struct bed_scenario *base, const struct rpt_sweep *sw,
			 unsigned i, int *fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(stdout);         /* the child must not print the parent's buffer */
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		struct child_msg m;
		ssize_t w;

		close(p[0]);
		cli_abort_forget();     /* the parent's file and children */
		memset(&m, 0, sizeof(m));
		m.rc = sweep_point(base, sw, i, &m.pt);
		w = write(p[1], &m, sizeof(m));
		_exit(w == (ssize_t)sizeof(m) && !m.rc ? 0 : 1);
	}
	close(p[1]);
	cli_abort_child(pid, true);
	*fd = p[0];
	return pid;
}

/* Run the points in up to @jobs children, a new one as soon as any
 * finishes; print row i as soon as rows 0..i are known (the table of
 * -j 1, in order).  0, or -1 after the rows before the first failed
 * point. */
static int run_children(const struct bed_scenario *base, struct rpt_sweep *sw,
			unsigned jobs, bool rows)
{
	struct child ch[RPT_SWEEP_MAX];
	bool done[RPT_SWEEP_MAX] = { false }, ok[RPT_SWEEP_MAX] = { false };
	unsigned next = 0, printed = 0, running = 0;
	bool failed = false;    /* a point failed: start no more */
	int rc = 0;

	while (printed < sw->n) {
		while (!rc && !failed && running < jobs && next < sw->n) {
			struct child *c = &ch[running];

			c->point = next;
			c->pid = spawn_point(base, sw, next, &c->fd);
			if (c->pid < 0) {
				cli_err("--sweep -j: cannot start a process: %s", strerror(errno));
				rc = -1;
				break;
			}
			running++;
			next++;
		}
		if (!running)
			break;
		/* whichever child finishes first: a free core starts the
		 * next point at once, however long the others take */
		{
			struct pollfd pfd[RPT_SWEEP_MAX];
			struct child_msg m;
			unsigned k;
			int st = 0;

			for (k = 0; k < running; k++)
				pfd[k] = (struct pollfd){ .fd = ch[k].fd, .events = POLLIN };
			if (poll(pfd, running, -1) < 0) {
				if (errno == EINTR)
					continue;
				cli_err("--sweep -j: %s", strerror(errno));
				rc = -1;
				break;
			}
			for (k = 0; k < running && !pfd[k].revents; k++)
				;
			if (k == running)
				continue;
			if (!read_full(ch[k].fd, &m, sizeof(m)) && !m.rc) {
				sw->pt[ch[k].point] = m.pt;
				ok[ch[k].point] = true;
			}
			close(ch[k].fd);
			waitpid(ch[k].pid, &st, 0);
			cli_abort_child(ch[k].pid, false);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				ok[ch[k].point] = false;
			failed |= !ok[ch[k].point];
			done[ch[k].point] = true;
			memmove(&ch[k], &ch[k + 1], (running - 1 - k) * sizeof(ch[0]));
			running--;
		}
		while (printed < sw->n && done[printed]) {
			if (!ok[printed]) {
				rc = -1;
				break;
			}
			if (rows)
				report_sweep_row(sw, printed);
			printed++;
		}
		if (rc)
			break;
	}
	for (unsigned k = 0; k < running; k++) {      /* after a failure */
		kill(ch[k].pid, SIGTERM);
		close(ch[k].fd);
		waitpid(ch[k].pid, NULL, 0);
		cli_abort_child(ch[k].pid, false);
	}
	return rc;
}

/* ----- --emit: one command per point ----- */

/* @s single-quoted for a POSIX shell. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The command that runs point @i and writes DIR/point-I.json. */
static void put_command(FILE *f, const struct cli_sweep_opts *o, const char *cwd,
			const char *self, unsigned i)
{
	char path[PATH_MAX + 32];

	fputs("cd ", f);
	put_quoted(f, cwd);
	fputs(" && ", f);
	put_quoted(f, self);
	fputs(" run", f);
	for (int a = 0; a < o->argc; a++) {
		fputc(' ', f);
		put_quoted(f, o->argv[a]);
	}
	snprintf(path, sizeof(path), "%s/point-%03u.json", o->emit_dir, i);
	fprintf(f, " --point %u --point-json ", i);
	put_quoted(f, path);
}

static int emit(const struct rpt_sweep *sw, const struct cli_sweep_opts *o)
{
	char cwd[PATH_MAX], self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int err;

	if (n <= 0 || !getcwd(cwd, sizeof(cwd))) {
		cli_err("--emit: cannot find this program or the working directory: %s",
			strerror(errno));
		return 1;
	}
	self[n] = 0;
	if ((err = cli_mkdir(o->emit_dir))) {
		cli_err("--emit: cannot create %s: %s", o->emit_dir, strerror(-err));
		return 1;
	}
	if (!strcmp(o->emit, "slurm")) {
		printf("#!/bin/bash\n"
		       "#SBATCH --job-name=rxscale-sweep\n"
		       "#SBATCH --array=0-%u\n"
		       "#SBATCH --ntasks=1\n"
		       "#SBATCH --cpus-per-task=1\n"
		       "# rxscale sweep of %s: one point per array task, each writing\n"
		       "# %s/point-NNN.json; when all are done:\n"
		       "#   rxscale sweep-merge %s [--json] [--plot FILE]\n"
		       "case \"$SLURM_ARRAY_TASK_ID\" in\n", sw->n - 1, sw->key,
		       o->emit_dir, o->emit_dir);
		for (unsigned i = 0; i < sw->n; i++) {
			printf("%u) ", i);
			put_command(stdout, o, cwd, self, i);
			printf(" ;;\n");
		}
		printf("*) echo \"rxscale sweep: no point '$SLURM_ARRAY_TASK_ID' "
		       "(0-%u)\" >&2; exit 2 ;;\nesac\n", sw->n - 1);
		return 0;
	}
	for (unsigned i = 0; i < sw->n; i++) {
		put_command(stdout, o, cwd, self, i);
		putchar('\n');
	}
	return 0;
}

int cli_run_sweep(const struct bed_scenario *base, const char *spec,
		  const struct cli_sweep_opts *o)
{
	char plot_tmp[PATH_MAX];
	struct rpt_sweep sw;
	int rc = 1;

	if (sweep_parse(&sw, base, spec, false))
		return CLI_EXIT_USAGE;
	if (o->point >= 0 && (unsigned)o->point >= sw.n) {
		cli_err("--point: %d, but the sweep has %u points (0-%u)", o->point, sw.n,
			sw.n - 1);
		return CLI_EXIT_USAGE;
	}
	if (o->emit)
		return emit(&sw, o);
	if (o->point >= 0) {            /* one point, as its JSON file */
		unsigned i = (unsigned)o->point;
		struct bed_scenario one = *base;
		struct rpt_sweep single = sw;

		/* where the file goes must take it before the point runs */
		if (cli_dir_writable(o->point_json)) {
			cli_err("--point-json: cannot write next to %s: %s", o->point_json,
				strerror(errno));
			return 1;
		}
		/* check this point's world only */
		memcpy(single.vals[0], sw.vals[i], sizeof(sw.vals[0]));
		single.n = 1;
		if (sweep_check(&one, &single))
			return CLI_EXIT_USAGE;  /* settings no world takes */
		if (sweep_point(base, &sw, i, &sw.pt[i]))
			return 1;
		return report_sweep_point_write(o->point_json, &sw, i) ? 1 : 0;
	}
	if (o->plot && cli_plot_prepare(o->plot, plot_tmp, sizeof(plot_tmp)))
		return CLI_EXIT_USAGE;
	if (sweep_check(base, &sw)) {
		rc = CLI_EXIT_USAGE;    /* a value no world takes: bad input */
		goto fail;
	}
	if (!o->json)
		report_sweep_head(&sw);
	if (o->jobs > 1) {
		if (run_children(base, &sw, o->jobs, !o->json))
			goto fail;
	} else {
		for (unsigned i = 0; i < sw.n; i++) {
			if (sweep_point(base, &sw, i, &sw.pt[i]))
				goto fail;
			if (!o->json)
				report_sweep_row(&sw, i);
		}
	}
	return sweep_finish(&sw, o, plot_tmp);
fail:
	if (o->plot) {
		unlink(plot_tmp);
		cli_abort_file(NULL);
	}
	return rc;
}

/* ----- the scenario's regimes ----- */

/* One figure of a sweep point, and whether more of it is better. */
static double figure_of(const struct rpt_sweep_point *p, enum bed_scn_figure f, bool *higher)
{
	*higher = f == BED_SCN_FIG_GBPS;
	switch (f) {
	case BED_SCN_FIG_GBPS: return p->gbps;
	case BED_SCN_FIG_SOFT: return p->soft_max;
	case BED_SCN_FIG_IRQS: return p->irqs_per_s;
	case BED_SCN_FIG_PING: return p->ping_avg_ms;
	}
	return 0;
}

static const char *const figure_label[] = {
	[BED_SCN_FIG_GBPS] = "Gbit/s", [BED_SCN_FIG_SOFT] = "busiest CPU %soft",
	[BED_SCN_FIG_IRQS] = "interrupts/s", [BED_SCN_FIG_PING] = "ping avg ms",
};

/*
 * A regime's verdict line: the best value by its main figure, and, when a
 * value is "adaptive", how far adaptive is from the best of the others
 * (positive: worse).
 */
static void print_verdict(const struct bed_scn_regime *r, char vals[][64],
			  const struct rpt_sweep_point *pt, unsigned n)
{
	int best = -1, adaptive = -1;
	bool higher;

	for (unsigned i = 0; i < n; i++) {
		double v = figure_of(&pt[i], r->main, &higher);

		if (!strcmp(vals[i], "adaptive")) {
			adaptive = (int)i;
			continue;
		}
		if (r->main == BED_SCN_FIG_PING && v < 0)
			continue;       /* no reply */
		if (best < 0 || (higher ? v > figure_of(&pt[best], r->main, &higher) :
				 v < figure_of(&pt[best], r->main, &higher)))
			best = (int)i;
	}
	if (best < 0)
		return;
	/* the best, and every value that ties with it as printed */
	{
		char want[32], got[32];
		const char *sep = "";

		snprintf(want, sizeof(want), "%.3f", figure_of(&pt[best], r->main, &higher));
		printf("main figure %s: best ", figure_label[r->main]);
		for (unsigned i = 0; i < n; i++) {
			double v = figure_of(&pt[i], r->main, &higher);

			if ((int)i == adaptive || (r->main == BED_SCN_FIG_PING && v < 0))
				continue;
			snprintf(got, sizeof(got), "%.3f", v);
			if (!strcmp(got, want)) {
				printf("%s%s", sep, vals[i]);
				sep = ", ";
			}
		}
		printf(" %s", want);
	}
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
int cli_run_regime_sweep(const struct bed_scenario *pre, const char *const *sets,
			 unsigned nsets, const char *spec, const char *plot)
{
	static struct rpt_sweep_point pt[BED_SCN_MAX_REGIMES * RPT_SWEEP_MAX];
	static struct bed_scenario base[BED_SCN_MAX_REGIMES];
	static struct rpt_sweep sw;
	const char *names[BED_SCN_MAX_REGIMES];
	char plot_tmp[PATH_MAX], err[600];
	unsigned n, nreg = pre->n_regimes;
	int rc = 1;

	for (unsigned r = 0; r < nreg; r++) {
		base[r] = *pre;
		bed_scenario_apply_regime(&base[r], &pre->regime[r]);
		for (unsigned i = 0; i < nsets; i++)
			if (bed_scenario_set(&base[r], sets[i], err, sizeof(err))) {
				cli_err("%s", err);
				return CLI_EXIT_USAGE;
			}
		names[r] = pre->regime[r].name;
		if (sweep_parse(&sw, &base[r], spec, true))
			return CLI_EXIT_USAGE;
	}
	n = sw.n;
	if (nreg > 1 && sweep_parse(&sw, &base[0], spec, true))
		return CLI_EXIT_USAGE;  /* the heading's chip and preset: the first regime's */
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return CLI_EXIT_USAGE;
	for (unsigned r = 0; r < nreg; r++)
		if (sweep_check(&base[r], &sw)) {
			rc = CLI_EXIT_USAGE;
			goto fail;
		}
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, %u regimes\n", sw.key,
	       base[0].chip, base[0].cpus, base[0].preset, (unsigned long long)base[0].seed,
	       nreg);
	for (unsigned r = 0; r < nreg; r++) {
		const struct bed_scn_regime *rg = &pre->regime[r];

		const char *ov[BED_SCN_MAX_REGIME_SETS];

		for (unsigned i = 0; i < rg->n_set; i++)
			ov[i] = rg->set[i];
		report_regime_head(rg->name, base[r].duration_s, bed_scenario_figure_name(rg->main),
				   ov, rg->n_set, sets, nsets, sw.key);
		for (unsigned i = 0; i < n; i++) {
			struct rpt_sweep_point *p = &pt[r * n + i];
			char set[200];

			snprintf(set, sizeof(set), "%.63s=%.63s", sw.key, sw.vals[i]);
			bed_progress_label("regime %s, %u/%u, %.40s", rg->name, i + 1, n, set);
			if (cli_run_point(&base[r], set, false, p))
				goto fail;
			bed_progress_done();
			report_regime_row(sw.vals[i], p);
		}
		print_verdict(rg, sw.vals, &pt[r * n], n);
	}
	if (!plot)
		return 0;
	if (sweep_plot(&sw, plot, plot_tmp, names, pt, nreg))
		return 1;       /* it removed the temporary file */
	printf("plot: %s\n", plot);
	return 0;
fail:
	if (plot) {
		unlink(plot_tmp);
		cli_abort_file(NULL);
	}
	return rc;
}

/* ----- rxscale sweep-merge ----- */

static void merge_usage(FILE *out)
{
	fputs("usage: rxscale sweep-merge DIR|FILE... [--json] [--plot FILE]\n"
	      "\n"
	      "Assemble the points of a sweep run apart (rxscale run ... --sweep K=V1,...\n"
	      "--emit parallel|slurm, each point writing DIR/point-NNN.json) into the\n"
	      "table, the --json document or the --plot that the same sweep prints when\n"
	      "it runs in one rxscale run.  A directory stands for its point-*.json files.\n"
	      "Every point must be there once, all from the same sweep.\n", out);
}

/* Merge the files @paths (@n); print as @o says. */
static int merge(char **paths, unsigned n, const struct cli_sweep_opts *o)
{
	bool have[RPT_SWEEP_MAX] = { false };
	char plot_tmp[PATH_MAX];
	struct rpt_sweep sw;

	memset(&sw, 0, sizeof(sw));
	for (unsigned k = 0; k < n; k++)
		if (report_sweep_point_read(paths[k], &sw, k == 0, have))
			return CLI_EXIT_USAGE;
	for (unsigned i = 0; i < sw.n; i++) {
		if (!have[i]) {
			cli_err("sweep-merge: point %u (%s = %s) is missing", i, sw.key,
				sw.vals[i]);
			return CLI_EXIT_USAGE;
		}
	}
	if (o->plot && cli_plot_prepare(o->plot, plot_tmp, sizeof(plot_tmp)))
		return CLI_EXIT_USAGE;
	if (!o->json) {
		report_sweep_head(&sw);
		for (unsigned i = 0; i < sw.n; i++)
			report_sweep_row(&sw, i);
	}
	return sweep_finish(&sw, o, plot_tmp);
}

int cli_sweep_merge(int argc, char **argv)
{
	struct cli_sweep_opts o = { .jobs = 1, .point = -1 };
	char *paths[4 * RPT_SWEEP_MAX];
	glob_t g[8];
	unsigned n = 0, ng = 0;
	int rc = CLI_EXIT_USAGE;

	for (int a = 1; a < argc; a++) {
		int kind;

		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			merge_usage(stdout);
			rc = 0;
			goto out;
		}
		if (!strcmp(argv[a], "--json")) {
			o.json = true;
			cli_json_begin();
			continue;
		}
		if (!strcmp(argv[a], "--plot")) {
			if (a + 1 == argc) {
				cli_err("sweep-merge: --plot needs a file name");
				goto out;
			}
			o.plot = argv[++a];
			continue;
		}
		if (argv[a][0] == '-' && argv[a][1]) {
			cli_err("sweep-merge: unknown option '%.64s' (try --help)", argv[a]);
			goto out;
		}
		kind = cli_path_kind(argv[a]);
		if (kind < 0) {
			cli_err("sweep-merge: %s: %s", argv[a], strerror(-kind));
			goto out;
		}
		if (kind == 1) {
			char pat[PATH_MAX];

			if (ng == sizeof(g) / sizeof(g[0])) {
				cli_err("sweep-merge: at most %zu directories",
					sizeof(g) / sizeof(g[0]));
				goto out;
			}
			snprintf(pat, sizeof(pat), "%s/point-*.json", argv[a]);
			if (glob(pat, 0, NULL, &g[ng])) {
				cli_err("sweep-merge: no point-*.json in %s", argv[a]);
				goto out;
			}
			for (size_t k = 0; k < g[ng].gl_pathc; k++) {
				if (n == sizeof(paths) / sizeof(paths[0])) {
					ng++;
					cli_err("sweep-merge: too many files");
					goto out;
				}
				paths[n++] = g[ng].gl_pathv[k];
			}
			ng++;
			continue;
		}
		if (n == sizeof(paths) / sizeof(paths[0])) {
			cli_err("sweep-merge: too many files");
			goto out;
		}
		paths[n++] = argv[a];
	}
	if (!n) {
		merge_usage(stderr);
		goto out;
	}
	rc = merge(paths, n, &o);
out:
	for (unsigned k = 0; k < ng; k++)
		globfree(&g[k]);
	return cli_json_end(rc);
}
