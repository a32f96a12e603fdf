/* SPDX-License-Identifier: MIT */
/*
 * timer.h - kernel timers (Linux include/linux/timer.h, jiffies.h): a
 * timer_list embedded in a driver's structure whose callback runs in the
 * TIMER softirq of the CPU that armed it, at a time in jiffies.
 *
 * HZ is 250, Debian's CONFIG_HZ; jiffies counts from boot (simulated time
 * 0).  The platform's state of a timer is opaque to drivers, as for
 * struct hrtimer.
 */
#ifndef RXSCALE_KERN_TIMER_H
#define RXSCALE_KERN_TIMER_H

#include <linux/types.h>

#define HZ 250

/* Jiffies since boot (Linux's variable `jiffies`, read-only here). */
unsigned long jiffies_read(void);
#define jiffies jiffies_read()

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return ((unsigned long)ms * HZ + 999) / 1000;
}

/* @j rounded to a whole second (Linux round_jiffies(): down when less than
 * a quarter second past one, else up; never into the past). */
unsigned long round_jiffies(unsigned long j);

struct timer_list {
	void (*function)(struct timer_list *t);
	unsigned long expires;
	u64 platform[28];	/* opaque to drivers */
};

/* Initialise @t with callback @fn (flags: none modelled). */
void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags);

/* Arm @t to run at @expires (in jiffies; now if already past), moving it
 * if armed.  Returns 1 if it was armed, 0 if not. */
int mod_timer(struct timer_list *t, unsigned long expires);

/* Disarm @t and wait for a running callback (none can run concurrently
 * here).  Returns 1 if it was armed. */
int timer_delete_sync(struct timer_list *t);

/* Whether @t is armed. */
bool timer_pending(const struct timer_list *t);

/* The structure that embeds timer @t as member @field (Linux 6.16's
 * name; from_timer() before). */
#define timer_container_of(var, t, field) \
	container_of(t, __typeof__(*(var)), field)

#endif /* RXSCALE_KERN_TIMER_H */
