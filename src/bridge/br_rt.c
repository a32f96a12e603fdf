// SPDX-License-Identifier: MIT
/*
 * br_rt.c - the simulator's engine on the wall clock (see br_rt.h).
 */
#include "bridge/br_rt.h"

#include <errno.h>
#include <time.h>

/* The longest the clock thread sleeps with nothing due: a stop request
 * or a clock jump is seen within this. */
#define BR_RT_IDLE_NS 10000000ull
/* The shortest it sleeps: events due sooner run together when it wakes
 * (at 10GbE line rate a frame ends every 1.23 us; a wake-up per frame
 * would cost more than the frame).  Lateness up to this is the price. */
#define BR_RT_GRAIN_NS 50000ull

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int br_rt_init(struct br_rt *rt, struct sim *sim)
{
	pthread_condattr_t ca;
	int rc;

	*rt = (struct br_rt){ .sim = sim };
	rc = pthread_mutex_init(&rt->lock, NULL);
	if (rc)
		return -rc;
	rc = pthread_condattr_init(&ca);
	if (!rc)
		rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(&rt->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&rt->lock);
		return -rc;
	}
	return 0;
}

uint64_t br_rt_now(const struct br_rt *rt)
{
	return mono_ns() - rt->t0;
}

void br_rt_catch_up(struct br_rt *rt)
{
	uint64_t now = br_rt_now(rt);
	sim_time_t next;

	if (sim_next_time(rt->sim, &next) && (uint64_t)next < now) {
		uint64_t late = now - (uint64_t)next;

		if (late > rt->late_max_ns)
			rt->late_max_ns = late;
		if (late > 1000000u)
			rt->late_1ms++;
	}
	if ((sim_time_t)now > sim_now(rt->sim))
		rt->events += sim_run_until(rt->sim, (sim_time_t)now);
}

void br_rt_enter(struct br_rt *rt)
{
	pthread_mutex_lock(&rt->lock);
	br_rt_catch_up(rt);
}

void br_rt_leave(struct br_rt *rt)
{
	pthread_cond_signal(&rt->wake);
	pthread_mutex_unlock(&rt->lock);
}

static void *clock_thread(void *arg)
{
	struct br_rt *rt = arg;

	pthread_mutex_lock(&rt->lock);
	while (!rt->stop) {
		uint64_t now, until;
		sim_time_t next;
		struct timespec ts;

		br_rt_catch_up(rt);
		rt->steps++;
		now = br_rt_now(rt);
		until = now + BR_RT_IDLE_NS;
		if (sim_next_time(rt->sim, &next) && (uint64_t)next < until)
			until = (uint64_t)next;
		if (until < now + BR_RT_GRAIN_NS)
			until = now + BR_RT_GRAIN_NS;
		until += rt->t0;
		ts.tv_sec = (time_t)(until / 1000000000ull);
		ts.tv_nsec = (long)(until % 1000000000ull);
		pthread_cond_timedwait(&rt->wake, &rt->lock, &ts);
	}
	pthread_mutex_unlock(&rt->lock);
	return NULL;
}

int br_rt_start(struct br_rt *rt)
{
	int rc;

	pthread_mutex_lock(&rt->lock);
	rt->t0 = mono_ns() - (uint64_t)sim_now(rt->sim);
	rt->stop = false;
	pthread_mutex_unlock(&rt->lock);
	rc = pthread_create(&rt->thread, NULL, clock_thread, rt);
	if (rc)
		return -rc;
	rt->started = true;
	return 0;
}

void br_rt_stop(struct br_rt *rt)
{
	if (!rt->started)
		return;
	pthread_mutex_lock(&rt->lock);
	rt->stop = true;
	pthread_cond_signal(&rt->wake);
	pthread_mutex_unlock(&rt->lock);
	pthread_join(rt->thread, NULL);
	rt->started = false;
}

void br_rt_fini(struct br_rt *rt)
{
	br_rt_stop(rt);
	pthread_cond_destroy(&rt->wake);
	pthread_mutex_destroy(&rt->lock);
}
