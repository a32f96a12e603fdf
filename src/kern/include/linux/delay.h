/* SPDX-License-Identifier: MIT */
/*
 * delay.h - busy waits (Linux include/linux/delay.h) and the monotonic
 * clock (timekeeping.h).  udelay() keeps the running CPU busy for that
 * long: the simulated CPU is charged the time.
 */
#ifndef RXSCALE_KERN_DELAY_H
#define RXSCALE_KERN_DELAY_H

#include <linux/types.h>

void udelay(unsigned long usecs);

/* Monotonic time in ns. */
u64 ktime_get_ns(void);

#endif /* RXSCALE_KERN_DELAY_H */
