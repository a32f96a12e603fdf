/* SPDX-License-Identifier: MIT */
/*
 * sim_idle.h - CPU idle states (cpuidle) and the governor that picks one
 * each time a CPU goes idle, so that a wake-up of an idle CPU (an
 * interrupt, a task woken onto it) waits for the state's exit latency.
 *
 * Tables are the platforms' facts as the kernel has them: exit latency
 * and target residency per state, in microseconds (see sim_idle.c for the
 * sources).  The governor follows Linux's menu governor
 * (drivers/cpuidle/governors/menu.c), reduced to what the model knows:
 *  - the predicted idle time is the "typical interval" of the CPU's last
 *    8 idle periods (sim_idle_typical_us(): the average when their
 *    standard deviation is at most 20 us or below a sixth of the average,
 *    dropping the largest values while at least 6 are left);
 *  - when there is none, menu uses the time to the next timer scaled by a
 *    correction factor, a decaying average (1/8 per sample) of how long
 *    idle periods actually were against that time; the model has no
 *    per-CPU timer list, so it uses the same decaying average of the
 *    measured idle periods directly;
 *  - the state is the deepest whose target residency is at most the
 *    prediction (no PM QoS latency limit);
 *  - NOHZ: with a prediction shorter than a tick (4 ms, HZ 250) the tick
 *    keeps running; a tick that wakes the idle CPU with nothing to do
 *    counts as a long sleep (9/10 of menu's 50 ms MAX_INTERESTING) and the
 *    governor selects again, so a CPU left idle goes deep within a few
 *    ticks.  The tick costs no CPU time in the model.
 * A wake-up during an idle period takes the chosen state's exit latency.
 * The tables' figures are what the hardware guarantees at most: for the
 * deep states of a package-C-state CPU they include leaving the package
 * state, which the hardware enters only while every core of the package
 * is idle (and a core only while all its threads are).  With
 * params.pkg_cstates the model has the levels the hardware has:
 *  - a core is in the shallowest state its threads asked for, or running
 *    (C0) while one of them runs or wakes; the package likewise over its
 *    cores (the whole host is one package), entered at once when the last
 *    core idles [I: the hardware's entry time is not published];
 *  - a thread whose core is running wakes in the exit latency of the
 *    table's shallowest hardware state (state 1, e.g. C1E 2 us): its core
 *    is already up;
 *  - a thread whose core is idle and whose package is running takes its
 *    core's core-level exit latency (the state's core_exit_us);
 *  - with the package idle too, the table's full figure of the package's
 *    state, and at least the core-level figure; a package wake-up under
 *    way holds every core that wakes before it is done.
 * Without pkg_cstates every exit takes the table's figure of the thread's
 * own state, as before.
 */
#ifndef RXSCALE_SIM_IDLE_H
#define RXSCALE_SIM_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_IDLE_MAX_STATES 8
#define SIM_IDLE_HISTORY 8              /* menu.c INTERVALS */

struct sim_idle_state {
	const char *name;               /* "C6" */
	uint32_t exit_latency_us;       /* the table's: the package's exit too */
	uint32_t target_residency_us;
	uint32_t core_exit_us;          /* the core's alone, package running */
};

struct sim_idle_table {
	const char *name;               /* "adl" */
	const char *what;               /* one line: the platform and source */
	unsigned n;                     /* states, shallowest first */
	struct sim_idle_state s[SIM_IDLE_MAX_STATES];
};

/* The table named @name, or NULL. */
const struct sim_idle_table *sim_idle_table_find(const char *name);

/* The table names, comma-separated (for messages). */
const char *sim_idle_table_names(void);

/* Menu's typical interval of @n (<= SIM_IDLE_HISTORY) idle periods @us;
 * UINT32_MAX when there is none. */
uint32_t sim_idle_typical_us(const uint32_t *us, unsigned n);

/* The deepest state of @t whose target residency is at most
 * @predicted_us (state 0 at least). */
unsigned sim_idle_select(const struct sim_idle_table *t, uint64_t predicted_us);

/* One CPU's governor data and statistics. */
struct sim_idle_cpu {
	int state;                      /* the state it is in; -1: running */
	uint64_t since;                 /* idle since (ns) */
	bool waking;                    /* a wake-up is under way ... */
	uint64_t wake_at;               /* ... and ends then (ns) */
	uint32_t hist_us[SIM_IDLE_HISTORY];
	unsigned hist_n, hist_i;
	uint64_t avg_us;                /* decaying average of idle periods */
	uint64_t usage[SIM_IDLE_MAX_STATES];    /* entries per state */
	uint64_t ticks;                 /* wake-ups by the tick alone */
	uint64_t exit_ns;               /* total time spent waking up */
	/* wake-ups by what they waited for (pkg_cstates): the thread
	 * alone (core running), the core, the package */
	uint64_t wake_thread, wake_core, wake_pkg;
};

#endif /* RXSCALE_SIM_IDLE_H */
