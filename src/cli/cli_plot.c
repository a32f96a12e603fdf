// SPDX-License-Identifier: MIT
/* cli_plot.c - `rxscale run --sweep ... --plot FILE`: the sweep drawn by
 * gnuplot (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

extern char **environ;

/* A label safe inside a single-quoted gnuplot string: anything but
 * letters, digits and " ._,:/+=-" becomes '_'. */
static void plot_label(char *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (isalnum((unsigned char)src[i]) || strchr(" ._,:/+=-", src[i])) ?
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
 * Draw the sweep with gnuplot into @tmp (from plot_prepare), then rename
 * it to @plot.  The script goes to gnuplot's stdin, the image comes back
 * on its stdout (no file name enters the script), its messages go to a
 * log shown only on failure.  The output format follows @plot's
 * extension: .svg, else PNG.  0, or -1 with the error printed and @tmp
 * removed.
 */
/* Write the panels of a sweep to gnuplot: @nreg curves (named by @names,
 * or one unnamed curve with the plain sweep's panels when @names is NULL)
 * of @n points each. */
static void plot_script(FILE *g, bool svg, const char *title, const char *key,
			char vals[][64],
			const char *const *names, const struct rpt_sweep_point *pt,
			unsigned nreg, unsigned n)
{
	static const char *const titles[2][4] = {
		{ "throughput (Gbit/s)", "busiest ksoftirqd (%CPU)",
		  "NIC interrupts per second", "ping avg, idle (ms)" },
		{ "throughput (Gbit/s)", "busiest CPU %soft",
		  "NIC interrupts per second", "ping avg (ms)" },
	};
	char label[96];
	bool any_ping = false;

	plot_label(label, sizeof(label), title);
	fprintf(g, "set terminal %s size 1000,700 noenhanced\n", svg ? "svg" : "pngcairo");
	fprintf(g, "set output\n");     /* stdout */
	fprintf(g, "set multiplot layout 2,2 title '%s'\n", label);
	plot_label(label, sizeof(label), key);
	fprintf(g, "set grid\nset key %s\nset xlabel '%s'\nset xtics font ',10' (",
		names ? "below font ',9' height 1.5" : "off", label);
	for (unsigned i = 0; i < n; i++) {
		plot_label(label, sizeof(label), vals[i]);
		fprintf(g, "%s'%s' %u", i ? ", " : "", label, i);
	}
	fprintf(g, ")\nset xrange [-0.3:%u.3]\nset yrange [0:*]\n", n ? n - 1 : 0);
	/* a value whose ping got no reply is missing, a gap in its line, not
	 * a 0 ms ping */
	fprintf(g, "set datafile missing 'NaN'\n");
	for (unsigned r = 0; r < nreg; r++) {
		if (names)
			fprintf(g, "$d%u << EOD\n", r);
		else
			fprintf(g, "$d << EOD\n");
		for (unsigned i = 0; i < n; i++) {
			const struct rpt_sweep_point *p = &pt[r * n + i];

			fprintf(g, "%u %.4f %.4f %.1f ", i, p->gbps,
				names ? p->soft_max : p->ksoftirqd, p->irqs_per_s);
			if (p->ping_avg_ms >= 0)
				fprintf(g, "%.4f\n", p->ping_avg_ms);
			else
				fprintf(g, "NaN\n");
			any_ping |= p->ping_avg_ms >= 0;
		}
		fprintf(g, "EOD\n");
	}
	for (unsigned col = 2; col <= 5; col++) {
		if (col == 5 && !any_ping)      /* nothing to scale the axis by */
			fprintf(g, "set yrange [0:1]\n");
		fprintf(g, "set title '%s%s'\nplot ", titles[names != NULL][col - 2],
			col == 5 && !any_ping ? ": no reply" : "");
		if (!names)
			fprintf(g, "$d using 1:%u with linespoints pt 7", col);
		for (unsigned r = 0; names && r < nreg; r++) {
			plot_label(label, sizeof(label), names[r]);
			fprintf(g, "%s$d%u using 1:%u title '%s' with linespoints pt 7",
				r ? ", " : "", r, col, label);
		}
		fprintf(g, "\n");
	}
	fprintf(g, "unset multiplot\nset output\n");
}

int cli_plot_sweep(const char *plot, const char *tmp, const char *title, const char *key,
		   char vals[][64], const char *const *names,
		   const struct rpt_sweep_point *pt, unsigned nreg, unsigned n)
{
	mode_t mask;
	const char *ext = strrchr(plot, '.');
	bool svg = ext && !strcasecmp(ext, ".svg");
	char logname[] = "/tmp/rxscale-gnuplot-XXXXXX", msg[256] = "";
	char *argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2] = { -1, -1 }, out = -1, logfd = -1, st = 0, rc = -1;
	struct stat ost;
	pid_t pid;
	FILE *g = NULL;

	out = open(tmp, O_WRONLY | O_TRUNC);
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
