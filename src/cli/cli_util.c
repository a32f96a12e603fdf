/* SPDX-License-Identifier: MIT */
/* cli_util.c - error printing, number parsing and progress for the CLI. */
#include <errno.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

/* The progress line: shown while stderr is a terminal, never otherwise
 * (so what a script captures is the same either way). */
static struct {
	int tty;                /* -1: not asked yet */
	bool shown;
	char label[96];
} progress = { .tty = -1 };

void cli_progress_label(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(progress.label, sizeof(progress.label), fmt, ap);
	va_end(ap);
}

void cli_progress(double done_s, double total_s)
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

void cli_progress_done(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	cli_progress_done();
	fflush(stdout);         /* what was printed before stays before */
	fputs("rxscale: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_uint(const char *s, unsigned long lo, unsigned long hi,
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

int cli_path_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 1 : 0;
}

int cli_mkdir(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	return cli_path_kind(path) == 1 ? 0 : -ENOTDIR;
}

int cli_dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash)
		return access(".", W_OK);
	if ((size_t)(slash - path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = 0;
	return access(slash == path ? "/" : dir, W_OK);
}
