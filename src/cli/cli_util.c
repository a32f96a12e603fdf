/* SPDX-License-Identifier: MIT */
/* cli_util.c - the CLI's error line (bed_util.c prints it), files and
 * paths, what an interrupted command leaves behind. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bed/bed_util.h"
#include "cli/cli.h"
#include "report/report.h"

void cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bed_verr(fmt, ap);
	va_end(ap);
}

static struct {
	bool on, printed;
} json_state;

void cli_json_begin(void)
{
	json_state.on = true;
	json_state.printed = false;
}

void cli_json_printed(void)
{
	json_state.printed = true;
}

int cli_json_end(int rc)
{
	if (json_state.on && rc && !json_state.printed) {
		const char *m = bed_err_last();

		/* a failure whose line another process printed (-j) */
		report_json_error(stdout, m[0] ? m : "the command failed (its error is on stderr)");
	}
	json_state.on = false;
	return rc;
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

/* ----- cleanup when interrupted ----- */

#define ABORT_MAX_CHILDREN 256

static struct {
	char file[4096];                /* "" = none */
	pid_t child[ABORT_MAX_CHILDREN];
	unsigned nchild;
	bool installed;
} abort_state;

/* Only async-signal-safe calls here: kill, unlink, signal, raise. */
static void abort_handler(int sig)
{
	for (unsigned i = 0; i < abort_state.nchild; i++)
		kill(abort_state.child[i], SIGTERM);
	if (abort_state.file[0])
		unlink(abort_state.file);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void abort_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (abort_state.installed)
		return;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa = { .sa_handler = abort_handler };

		sigemptyset(&sa.sa_mask);
		for (size_t j = 0; j < sizeof(sigs) / sizeof(sigs[0]); j++)
			sigaddset(&sa.sa_mask, sigs[j]);
		sigaction(sigs[i], &sa, NULL);
	}
	abort_state.installed = true;
}

void cli_abort_file(const char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (path && strlen(path) < sizeof(abort_state.file)) {
		strcpy(abort_state.file, path);
		abort_install();
	} else {
		abort_state.file[0] = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void cli_abort_child(pid_t pid, bool add)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (add && abort_state.nchild < ABORT_MAX_CHILDREN) {
		abort_state.child[abort_state.nchild++] = pid;
		abort_install();
	} else if (!add) {
		for (unsigned i = 0; i < abort_state.nchild; i++)
			if (abort_state.child[i] == pid) {
				abort_state.child[i] = abort_state.child[--abort_state.nchild];
				break;
			}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void cli_abort_forget(void)
{
	abort_state.nchild = 0;
	abort_state.file[0] = 0;
}
