/* SPDX-License-Identifier: MIT */
/*
 * hrtimer.h - high-resolution timers (Linux include/linux/hrtimer.h), the
 * part the kernel's own NAPI code uses: a timer embedded in a structure.
 *
 * The timer's state belongs to the platform (a host timer event raised as
 * a hardirq on the CPU that armed it); drivers only embed the storage,
 * which kern/napi.c checks at build time is large enough.
 */
#ifndef RXSCALE_KERN_HRTIMER_H
#define RXSCALE_KERN_HRTIMER_H

#include <linux/types.h>

struct hrtimer {
	u64 platform[24];	/* opaque to drivers */
};

#endif /* RXSCALE_KERN_HRTIMER_H */
