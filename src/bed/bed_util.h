/* SPDX-License-Identifier: MIT */
/* bed_util.h - what the testbed prints and parses: the one error line of
 * rxscale, the progress line, whole numbers. */
#ifndef RXSCALE_BED_UTIL_H
#define RXSCALE_BED_UTIL_H

#include <stdarg.h>

/** bed_err() - print "rxscale: " + message + newline on stderr (the
 * progress line cleared first, stdout flushed). */
void bed_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bed_verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The message of the last bed_err() line ("" before any), without
 * "rxscale: " and the newline. */
const char *bed_err_last(void);

/*
 * Progress on stderr while it is a terminal: bed_progress() shows "LABEL:
 * D of T simulated seconds" on one line, bed_progress_done() clears it
 * (bed_err() does too); bed_progress_label() names what runs.
 */
void bed_progress_label(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bed_progress(double done_s, double total_s);
void bed_progress_done(void);

/**
 * bed_parse_uint() - a whole decimal number in [lo, hi].
 * Return: 0, or -EINVAL (prints nothing).
 */
int bed_parse_uint(const char *s, unsigned long lo, unsigned long hi,
		   unsigned long *out);

#endif /* RXSCALE_BED_UTIL_H */
