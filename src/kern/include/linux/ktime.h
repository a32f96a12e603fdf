/* SPDX-License-Identifier: MIT */
/*
 * ktime.h - the kernel's monotonic time as a ktime_t (Linux
 * include/linux/ktime.h, timekeeping.h): signed nanoseconds.  In the
 * simulator it is the engine's virtual time.
 */
#ifndef RXSCALE_KERN_KTIME_H
#define RXSCALE_KERN_KTIME_H

#include <linux/types.h>

typedef s64 ktime_t;

#define NSEC_PER_USEC	1000L
#define USEC_PER_MSEC	1000L

ktime_t ktime_get(void);

/* @later - @earlier in whole microseconds (truncated, as the kernel's). */
static inline s64 ktime_us_delta(ktime_t later, ktime_t earlier)
{
	return (later - earlier) / NSEC_PER_USEC;
}

#endif /* RXSCALE_KERN_KTIME_H */
