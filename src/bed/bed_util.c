// SPDX-License-Identifier: MIT
/* bed_util.c - the testbed's error line, progress line and number
 * parsing (bed_util.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bed/bed_util.h"

/* The progress line: shown while stderr is a terminal, never otherwise
 * (so what a script captures is the same either way). */
static struct {
	int tty;                /* -1: not asked yet */
	bool shown;
	char label[96];
} progress = { .tty = -1 };

void bed_progress_label(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(progress.label, sizeof(progress.label), fmt, ap);
	va_end(ap);
}

void bed_progress(double done_s, double total_s)
{
	if (progress.tty < 0)
		progress.tty = isatty(STDERR_FILENO);
	if (!progress.tty)
		return;
	fprintf(stderr, "\rrxscale: %s%s%.0f of %g simulated seconds\033[K", progress.label,
		progress.label[0] ? ": " : "", done_s, total_s);
	fflush(stderr);
	progress.shown = true;
}

void bed_progress_done(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

/* The last error line, for a caller that reports it again (--json). */
static char last_err[4096];

void bed_verr(const char *fmt, va_list ap)
{
	bed_progress_done();
	fflush(stdout);         /* what was printed before stays before */
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	fprintf(stderr, "rxscale: %s\n", last_err);
}

const char *bed_err_last(void)
{
	return last_err;
}

void bed_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bed_verr(fmt, ap);
	va_end(ap);
}

int bed_parse_uint(const char *s, unsigned long lo, unsigned long hi,
		   unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}
