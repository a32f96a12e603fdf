/* SPDX-License-Identifier: MIT */
/*
 * iopoll.h - poll a register until a condition holds, with a bound
 * (Linux include/linux/iopoll.h, the _atomic variants: busy waits with
 * udelay(), for code that may not sleep).
 *
 * read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us,
 *                          delay_before_read, args...)
 *   sets val = op(args) until cond holds, with a udelay(delay_us) between
 *   two reads (and one before the first if delay_before_read).  As
 *   Linux's does, it bounds the waiting by counting the delays it made
 *   (timeout_us of them; 0 = no bound), not by reading a clock, and reads
 *   once more when the bound is passed.  Returns 0, or -ETIMEDOUT; val
 *   holds the last value read either way.
 * readb/readw/readl_poll_timeout_atomic(addr, val, cond, delay_us,
 *                                      timeout_us)
 *   the same with readb/readw/readl(addr).
 *
 * Each read and each udelay() costs what it costs on the CPU that polls
 * (kern/io.h, kern/delay.h), and the device sees the time go by.
 */
#ifndef RXSCALE_KERN_IOPOLL_H
#define RXSCALE_KERN_IOPOLL_H

#include <errno.h>

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/types.h>

#define read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us,	\
				 delay_before_read, ...)		\
({									\
	const unsigned long __rp_delay_us = (delay_us);			\
	const u64 __rp_bound_ns = (u64)(timeout_us) * 1000u;		\
	u64 __rp_waited_ns = 0;						\
									\
	if ((delay_before_read) && __rp_delay_us) {			\
		udelay(__rp_delay_us);					\
		__rp_waited_ns += (u64)__rp_delay_us * 1000u;		\
	}								\
	for (;;) {							\
		(val) = op(__VA_ARGS__);				\
		if (cond)						\
			break;						\
		if (__rp_bound_ns && __rp_waited_ns > __rp_bound_ns) {	\
			(val) = op(__VA_ARGS__);			\
			break;						\
		}							\
		if (__rp_delay_us) {					\
			udelay(__rp_delay_us);				\
			__rp_waited_ns += (u64)__rp_delay_us * 1000u;	\
		}							\
		__rp_waited_ns++;	/* the pause between reads */	\
	}								\
	(cond) ? 0 : -ETIMEDOUT;					\
})

#define readb_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	read_poll_timeout_atomic(readb, val, cond, delay_us, timeout_us, false, addr)
#define readw_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	read_poll_timeout_atomic(readw, val, cond, delay_us, timeout_us, false, addr)
#define readl_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	read_poll_timeout_atomic(readl, val, cond, delay_us, timeout_us, false, addr)

#endif /* RXSCALE_KERN_IOPOLL_H */
