/* SPDX-License-Identifier: MIT */
/*
 * br_rt.h - the real-time platform: the simulator's engine driven by the
 * wall clock, on a thread of its own, for a model served to a guest that
 * runs in real time on real CPUs (QEMU: vfio-user).
 *
 * The same model code that runs in virtual time runs here unchanged: its
 * timers (moderation, link, tally, the OwnBit window), RX/TX pipelines and
 * the wire are events of a struct sim; only who advances that engine
 * differs.  Virtual time here is wall time: sim time t is t ns after
 * br_rt_start() on CLOCK_MONOTONIC.
 *
 * One lock, the device lock, protects the engine and everything on it (the
 * models, the platform functions, their DMA tables), as QEMU's big lock
 * protects its device models: every thread that touches the device (a
 * transport's socket thread, a wire's reader) brackets the access with
 * br_rt_enter(), which also brings the engine up to now so that the access
 * sees the device as it is at this instant, and br_rt_leave(), which wakes
 * the clock thread in case the access scheduled something sooner than what
 * it sleeps for.  The clock thread runs due events and sleeps, with the lock
 * released, until the next one is due.
 *
 * Lateness: an event runs when the clock thread (or an enter) reaches it;
 * how late that was behind its deadline is kept (max, and how many were
 * later than 1 ms), so a report can say whether the host kept up.
 */
#ifndef RXSCALE_BR_RT_H
#define RXSCALE_BR_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_event.h"

struct br_rt {
	struct sim *sim;
	pthread_mutex_t lock;
	pthread_cond_t wake;            /* on CLOCK_MONOTONIC */
	pthread_t thread;
	bool started, stop;
	uint64_t t0;                    /* CLOCK_MONOTONIC ns at sim time 0 */
	/* figures, under the lock */
	uint64_t steps;                 /* clock thread wake-ups */
	uint64_t events;                /* events run */
	uint64_t late_max_ns;           /* worst event lateness */
	uint64_t late_1ms;              /* events run > 1 ms after their time */
};

/* Set up over @sim (nothing runs until br_rt_start()).  0 or -errno. */
int br_rt_init(struct br_rt *rt, struct sim *sim);

/* Start the clock: sim time 0 is now; start the clock thread. 0 or -errno. */
int br_rt_start(struct br_rt *rt);

/* Stop and join the clock thread (the engine stays as it is). */
void br_rt_stop(struct br_rt *rt);

void br_rt_fini(struct br_rt *rt);

/* Wall time as sim time (ns since br_rt_start()). */
uint64_t br_rt_now(const struct br_rt *rt);

/* Take the device lock and run the engine up to now. */
void br_rt_enter(struct br_rt *rt);

/* Wake the clock thread and drop the device lock. */
void br_rt_leave(struct br_rt *rt);

/* Run the engine up to now; the device lock must be held. */
void br_rt_catch_up(struct br_rt *rt);

#endif /* RXSCALE_BR_RT_H */
