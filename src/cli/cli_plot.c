// SPDX-License-Identifier: MIT
/* cli_plot.c - `rxscale run --sweep ... --plot FILE`: the sweep drawn by
 * gnuplot (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bed/bed_scn_keys.h"
#include "cli/cli.h"

extern char **environ;

/* A label safe inside a single-quoted gnuplot string: anything but
 * letters, digits and " ._,:;/+=-()" becomes '_'. */
static void plot_label(char *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (isalnum((unsigned char)src[i]) || strchr(" ._,:;/+=-()", src[i])) ?
			 src[i] : '_';
	dst[i] = 0;
}

/*
 * Before any run: make sure the plot can be written.  @plot must not name
 * anything but a regular file; a temporary file is created next to it
 * (*@tmp, PATH_MAX), which the plot is written to and renamed over @plot
 * only when gnuplot succeeds.  0, or -1 with the error printed.
 */
int cli_plot_prepare(const char *plot, char *tmp, size_t n)
{
	struct stat st;
	int fd;

	if (!plot[0]) {
		cli_err("--plot: an empty file name");
		return -1;
	}
	if (!stat(plot, &st) && !S_ISREG(st.st_mode)) {
		cli_err("--plot: %s exists and is not a regular file", plot);
		return -1;
	}
	if ((size_t)snprintf(tmp, n, "%s.XXXXXX", plot) >= n) {
		cli_err("--plot: the file name is too long");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		cli_err("--plot: cannot create a file next to %s: %s", plot, strerror(errno));
		return -1;
	}
	close(fd);
	cli_abort_file(tmp);    /* an interrupted sweep removes it */
	return 0;
}

/*
 * Where each value of the sweep goes on the x axis (@x[i]), and how the
 * axis is labelled (@xlabel).  Two or more numbers: a true scale, or a log
 * scale when they span 20x and more (a 0 among them: log10(v + c), c half
 * the smallest step above 0, so 0 fits), ticks at the values; a word among
 * numbers ("adaptive") goes right of them, past a dashed line (*@sep), as a
 * marker of its own (@word[i]).  Fewer than two numbers: evenly spaced
 * categories, as given (a word still a marker of its own).  @xr: the axis's range, with a margin either
 * side (5 % of it, or 0.3 of a category).
 */
static void plot_axis(char vals[][64], unsigned n, const char *key, double *x, bool *word,
		      double *sep, double *xr, char *xlabel, size_t xl)
{
	double v[RPT_SWEEP_MAX], lo = 0, hi = 0, minpos = 0, c = 0, end;
	unsigned nnum = 0, nword = 0;
	const char *unit = bed_scn_key_unit(key);
	bool logx;

	for (unsigned i = 0; i < n; i++) {
		char *e;

		v[i] = strtod(vals[i], &e);
		word[i] = e == vals[i] || *e || !isfinite(v[i]);
		if (word[i])
			continue;
		if (!nnum++ || v[i] < lo)
			lo = v[i];
		if (nnum == 1 || v[i] > hi)
			hi = v[i];
		if (v[i] > 0 && (!minpos || v[i] < minpos))
			minpos = v[i];
	}
	*sep = NAN;
	if (nnum < 2 || hi == lo) {     /* categories; words stay markers */
		for (unsigned i = 0; i < n; i++)
			x[i] = i;
		snprintf(xlabel, xl, "%s%s%s", key, unit[0] ? ", " : "", unit);
		xr[0] = -0.3;
		xr[1] = (n ? n - 1 : 0) + 0.3;
		return;
	}
	logx = lo >= 0 && minpos > 0 && hi / minpos >= 20;
	if (logx && lo == 0)
		c = minpos / 2;
	for (unsigned i = 0; i < n; i++)
		if (!word[i])
			x[i] = logx ? log10(v[i] + c) : v[i];
	if (logx && c)
		snprintf(xlabel, xl, "%s%s%s (log scale of x + %g, so that 0 fits)", key,
			 unit[0] ? ", " : "", unit, c);
	else
		snprintf(xlabel, xl, "%s%s%s%s", key, unit[0] ? ", " : "", unit,
			 logx ? " (log scale)" : "");
	lo = logx ? log10(lo + c) : lo;
	hi = logx ? log10(hi + c) : hi;
	end = hi;
	for (unsigned i = 0; i < n; i++) {
		if (!word[i])
			continue;
		if (!nword++)
			*sep = hi + 0.08 * (hi - lo);
		end = hi + (0.04 + 0.12 * nword) * (hi - lo);
		x[i] = end;
	}
	xr[0] = lo - 0.05 * (end - lo);
	xr[1] = end + 0.05 * (end - lo);
}

/* One point's figures as a data line: x, throughput, CPU, interrupts/s,
 * ping, retransmits; NaN for a figure it has not (a gap, not a 0). */
static void plot_row(FILE *g, double x, const struct rpt_sweep_point *p, bool regimes)
{
	fprintf(g, "%.6f ", x);
	if (p->no_iperf3)
		fprintf(g, "NaN ");
	else
		fprintf(g, "%.4f ", p->gbps);
	fprintf(g, "%.4f %.1f ", regimes ? p->soft_max : p->ksoftirqd, p->irqs_per_s);
	if (p->ping_avg_ms >= 0)
		fprintf(g, "%.4f ", p->ping_avg_ms);
	else
		fprintf(g, "NaN ");
	if (p->no_iperf3 || p->udp)
		fprintf(g, "NaN\n");
	else
		fprintf(g, "%llu\n", (unsigned long long)p->retransmits);
}

/* Write the panels of a sweep to gnuplot: @nreg curves (named by @names,
 * or one unnamed curve with the plain sweep's panels when @names is NULL)
 * of @n points each.  The script goes to gnuplot's stdin, the image comes
 * back on its stdout (no file name enters the script). */
static void plot_script(FILE *g, bool svg, const char *title, const char *key,
			char vals[][64],
			const char *const *names, const struct rpt_sweep_point *pt,
			unsigned nreg, unsigned n)
{
	static const char *const titles[2][5] = {
		{ "throughput (Gbit/s)", "busiest ksoftirqd (%CPU)",
		  "NIC interrupts per second", "ping avg, idle (ms)", "TCP retransmits" },
		{ "throughput (Gbit/s)", "busiest CPU %soft",
		  "NIC interrupts per second", "ping avg (ms)", "TCP retransmits" },
	};
	/* each panel's y axis: from 0, at least this tall (a few tenths of a
	 * percent of noise is not drawn as a mountain) */
	static const char *const yrange[5] = {
		"[0:*]", "[0:10<*]", "[0:1<*]", "[0:*]", "[0:10<*]",
	};
	double x[RPT_SWEEP_MAX], sep, xr[2];
	bool word[RPT_SWEEP_MAX], any[5] = { false }, any_word = false;
	unsigned order[RPT_SWEEP_MAX], nnum = 0;
	char label[160], xlabel[160];

	plot_axis(vals, n, key, x, word, &sep, xr, xlabel, sizeof(xlabel));
	plot_label(label, sizeof(label), title);
	fprintf(g, "set terminal %s size 1000,1000 noenhanced\n", svg ? "svg" : "pngcairo");
	fprintf(g, "set output\n");     /* stdout */
	fprintf(g, "set multiplot layout 3,2 title '%s'\n", label);
	plot_label(label, sizeof(label), xlabel);
	fprintf(g, "set grid\nset key %s\nset xlabel '%s'\nset xtics font ',10' (",
		names ? "below font ',9' height 1.5" : "off", label);
	for (unsigned i = 0; i < n; i++) {
		plot_label(label, sizeof(label), vals[i]);
		fprintf(g, "%s'%s' %.6f", i ? ", " : "", label, x[i]);
	}
	fprintf(g, ")\nset xrange [%.6f:%.6f]\n", xr[0], xr[1]);
	/* the numbers' curve, left to right, whatever order they came in */
	for (unsigned i = 0; i < n; i++) {
		unsigned k = nnum++;

		if (word[i]) {
			nnum--;
			any_word = true;
			continue;
		}
		while (k && x[order[k - 1]] > x[i]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	if (!isnan(sep))        /* the words are not on the numbers' scale */
		fprintf(g, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 2\n", sep, sep);
	/* a value without a figure is missing, a gap in its line */
	fprintf(g, "set datafile missing 'NaN'\n");
	for (unsigned r = 0; r < nreg; r++) {
		fprintf(g, "$d%u << EOD\n", r);
		for (unsigned k = 0; k < nnum; k++)
			plot_row(g, x[order[k]], &pt[r * n + order[k]], names != NULL);
		fprintf(g, "EOD\n$w%u << EOD\n", r);
		for (unsigned i = 0; i < n; i++)
			if (word[i])
				plot_row(g, x[i], &pt[r * n + i], names != NULL);
		fprintf(g, "EOD\n");
		for (unsigned i = 0; i < n; i++) {
			const struct rpt_sweep_point *p = &pt[r * n + i];

			any[0] |= !p->no_iperf3;
			any[1] = any[2] = true;
			any[3] |= p->ping_avg_ms >= 0;
			any[4] |= !p->no_iperf3 && !p->udp;
		}
	}
	for (unsigned col = 2; col <= 6; col++) {
		unsigned f = col - 2;

		/* nothing to scale the axis by: a fixed one, and the title says why */
		fprintf(g, "set yrange %s\n", any[f] ? yrange[f] : "[0:1]");
		fprintf(g, "set title '%s%s'\nplot ", titles[names != NULL][f],
			any[f] ? "" : f == 3 ? ": no reply" : ": none (no TCP)");
		for (unsigned r = 0; r < nreg; r++) {
			if (names)
				plot_label(label, sizeof(label), names[r]);
			fprintf(g, "%s$d%u using 1:%u title '%s' with linespoints pt 7 lc %u",
				r ? ", " : "", r, col, names ? label : "", r + 1);
			if (any_word)
				fprintf(g, ", $w%u using 1:%u notitle with points pt 6 ps 2 lc %u",
					r, col, r + 1);
		}
		fprintf(g, "\n");
	}
	fprintf(g, "unset multiplot\nset output\n");
}

/*
 * Draw the sweep with gnuplot into @tmp (from plot_prepare), then rename
 * it to @plot.  The script goes to gnuplot's stdin, the image comes back
 * on its stdout (no file name enters the script), its messages go to a
 * log shown only on failure.  The output format follows @plot's
 * extension: .svg, else PNG.  0, or -1 with the error printed and @tmp
 * removed.
 */
int cli_plot_sweep(const char *plot, const char *tmp, const char *title, const char *key,
		   char vals[][64], const char *const *names,
		   const struct rpt_sweep_point *pt, unsigned nreg, unsigned n)
{
	mode_t mask;
	const char *ext = strrchr(plot, '.');
	bool svg = ext && !strcasecmp(ext, ".svg");
	bool gp = ext && !strcasecmp(ext, ".gp");      /* the script itself */
	char logname[] = "/tmp/rxscale-gnuplot-XXXXXX", msg[256] = "";
	char *argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2] = { -1, -1 }, out = -1, logfd = -1, st = 0, rc = -1;
	struct stat ost;
	pid_t pid;
	FILE *g = NULL;

	out = open(tmp, O_WRONLY | O_TRUNC);
	if (gp) {
		int fd = out < 0 ? -1 : dup(out);

		g = fd < 0 ? NULL : fdopen(fd, "w");
		if (!g) {
			cli_err("--plot: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			goto done;
		}
		fprintf(g, "# rxscale's gnuplot script of the sweep: gnuplot %s > sweep.png\n",
			"FILE.gp");
		plot_script(g, false, title, key, vals, names, pt, nreg, n);
		if (fclose(g)) {
			cli_err("--plot: %s: %s", tmp, strerror(errno));
			goto done;
		}
		goto written;
	}
	logfd = mkstemp(logname);
	if (out < 0 || logfd < 0 || pipe(pfd)) {
		cli_err("--plot: %s", strerror(errno));
		goto done;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, logfd, 2);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	errno = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	pfd[0] = -1;
	if (errno) {
		cli_err("--plot: cannot run gnuplot (%s); Debian: apt-get install gnuplot-nox",
			strerror(errno));
		goto done;
	}
	g = fdopen(pfd[1], "w");
	if (!g) {
		cli_err("--plot: %s", strerror(errno));
		close(pfd[1]);          /* gnuplot reads end of input and exits */
		pfd[1] = -1;
		waitpid(pid, &st, 0);
		goto done;
	}
	pfd[1] = -1;
	plot_script(g, svg, title, key, vals, names, pt, nreg, n);
	fclose(g);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		ssize_t k = pread(logfd, msg, sizeof(msg) - 1, 0);

		msg[k > 0 ? k : 0] = 0;
		msg[strcspn(msg, "\n")] = 0;
		cli_err("--plot: gnuplot failed (%s %d)%s%s",
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), msg[0] ? ": " : "", msg);
		goto done;
	}
written:
	if (fsync(out) || fstat(out, &ost) || ost.st_size == 0) {
		cli_err("--plot: gnuplot wrote nothing");
		goto done;
	}
	/* mkstemp made it 0600: give it the mode any new file gets */
	mask = umask(0);
	umask(mask);
	if (fchmod(out, 0666 & ~mask)) {
		cli_err("--plot: %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (rename(tmp, plot)) {
		cli_err("--plot: cannot rename %s to %s: %s", tmp, plot, strerror(errno));
		goto done;
	}
	rc = 0;
done:
	if (rc)
		unlink(tmp);
	cli_abort_file(NULL);
	if (out >= 0)
		close(out);
	if (logfd >= 0) {
		close(logfd);
		unlink(logname);
	}
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return rc;
}
