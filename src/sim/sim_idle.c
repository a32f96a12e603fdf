// SPDX-License-Identifier: MIT
/*
 * sim_idle.c - cpuidle tables, the menu-style governor, and what an idle
 * CPU does when work arrives (see sim_idle.h).
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim_host_priv.h"
#include "sim/sim_idle.h"

/*
 * The platforms' idle states, exit latency / target residency in us.
 *  - adl: Intel Alder Lake desktop (family 6 model ALDERLAKE), intel_idle's
 *    adl_cstates (drivers/idle/intel_idle.c, Linux 5.19+): C1 is marked
 *    unusable by default (C1E promotion on), so POLL, C1E 2/4, C6 220/600,
 *    C8 280/800, C10 680/2000.  The seed's 6-core desktop is not named;
 *    this is the table of a 6-core Alder Lake (i5-12400) [I].
 *  - rk3588: Rockchip RK3588, arch/arm64/boot/dts/rockchip/
 *    rk3588-base.dtsi: WFI (cpuidle-psci's state 0, 1/1) and CPU_SLEEP
 *    (PSCI 0x0010000: entry-latency-us 100, exit-latency-us 120,
 *    min-residency-us 1000); the kernel's exit latency of a DT state is
 *    entry + exit (drivers/cpuidle/dt_idle_states.c), so 220/1000.
 *  - none: no idle states: a CPU runs new work at once.
 */
/*
 * Core-level exit latencies (core_exit_us: the core wakes while its
 * package runs).  The kernel's tables give the package's worst case only.
 *  - adl: C6, C8 and C10 differ in what they let the package do; the core
 *    itself is power-gated in each [I], so all three take C6's core-level
 *    exit.  No figure for Alder Lake is published; Intel measured both
 *    levels on Ice Lake server: C6 with the package in PC6 128 us, with
 *    the package running (PC0) 41 us (Linux 5.10, "intel_idle: Customize
 *    IceLake server support", Chen Yu, 2020).  That ratio, 41/128, of
 *    ADL's 220 us is 70 us [I: ICX's ratio on ADL; Sapphire Rapids'
 *    core-C6 figure, 190 of 290 us (spr_idle_state_table_update()),
 *    would give 144].  C1E involves no package state: 2.
 *  - rk3588: PSCI cpu-sleep powers one core down; the device tree has no
 *    cluster state, so the core-level figure is the table's.
 */
static const struct sim_idle_table tables[] = {
	{ "none", "no idle states: an idle CPU runs new work at once", 1,
	  { { "POLL", 0, 0, 0 } } },
	{ "adl", "Intel Alder Lake desktop, intel_idle adl_cstates", 5,
	  { { "POLL", 0, 0, 0 }, { "C1E", 2, 4, 2 }, { "C6", 220, 600, 70 },
	    { "C8", 280, 800, 70 }, { "C10", 680, 2000, 70 } } },
	{ "rk3588", "Rockchip RK3588, rk3588-base.dtsi PSCI idle states", 2,
	  { { "WFI", 1, 1, 1 }, { "cpu-sleep", 220, 1000, 220 } } },
};

const struct sim_idle_table *sim_idle_table_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].name, name))
			return &tables[i];
	return NULL;
}

const char *sim_idle_table_names(void)
{
	return "none, adl, rk3588";
}

uint32_t sim_idle_typical_us(const uint32_t *us, unsigned n)
{
	uint64_t thresh = UINT32_MAX;

	for (;;) {
		uint64_t sum = 0, var = 0, max = 0, avg;
		unsigned div = 0;

		for (unsigned i = 0; i < n; i++) {
			if (us[i] > thresh)
				continue;
			sum += us[i];
			div++;
			if (us[i] > max)
				max = us[i];
		}
		if (!div)
			return UINT32_MAX;
		avg = sum / div;
		for (unsigned i = 0; i < n; i++) {
			int64_t d = (int64_t)us[i] - (int64_t)avg;

			if (us[i] <= thresh)
				var += (uint64_t)(d * d);
		}
		var /= div;
		/* stddev <= 20 us, or below a sixth of the average with at
		 * least 3/4 of the history left */
		if (var <= 400 || (avg * avg > var * 36 && div * 4 >= SIM_IDLE_HISTORY * 3))
			return (uint32_t)avg;
		if (div * 4 <= SIM_IDLE_HISTORY * 3 || !max)
			return UINT32_MAX;
		thresh = max - 1;       /* drop the largest, try again */
	}
}

unsigned sim_idle_select(const struct sim_idle_table *t, uint64_t predicted_us)
{
	unsigned idx = 0;

	for (unsigned i = 1; i < t->n; i++)
		if (t->s[i].target_residency_us <= predicted_us)
			idx = i;
	return idx;
}

/* Sleeps longer than this count as "long enough" (menu.c MAX_INTERESTING). */
#define IDLE_MAX_INTERESTING_US 50000u
/* The tick period: HZ 250 (Debian's CONFIG_HZ, as src/kern/timer.h). */
#define IDLE_TICK_US 4000u

void sim_idle_enter(struct sim_cpu *c)
{
	const struct sim_idle_table *t = c->h->params.idle;
	struct sim_idle_cpu *d = &c->idle;
	uint64_t predicted;
	uint32_t typ;

	if (!t || d->state >= 0)
		return;
	predicted = d->hist_n ? d->avg_us : IDLE_MAX_INTERESTING_US;
	typ = sim_idle_typical_us(d->hist_us, d->hist_n);
	if (typ < predicted)
		predicted = typ;
	d->state = (int)sim_idle_select(t, predicted);
	d->since = c->h->sim->now;
	d->waking = false;
	d->usage[d->state]++;
	/* NOHZ: a prediction shorter than a tick keeps the tick, which wakes
	 * the CPU at the next jiffy to look again (menu.c, tick_nohz) */
	if (predicted < IDLE_TICK_US)
		sim_schedule_at(c->h->sim, &c->idle_tick_ev,
				(c->h->sim->now / (IDLE_TICK_US * 1000) + 1) * IDLE_TICK_US * 1000);
}

/* Add one measured idle period to the governor's history. */
static void idle_record(struct sim_idle_cpu *d, uint64_t us)
{
	if (us > IDLE_MAX_INTERESTING_US)
		us = IDLE_MAX_INTERESTING_US;
	d->hist_us[d->hist_i] = (uint32_t)us;
	d->hist_i = (d->hist_i + 1) % SIM_IDLE_HISTORY;
	if (d->hist_n < SIM_IDLE_HISTORY)
		d->hist_n++;
	/* a decaying average, 1/8 per sample (menu.c DECAY) */
	d->avg_us = d->hist_n == 1 ? us : d->avg_us - d->avg_us / 8 + us / 8;
}

void sim_idle_tick_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;
	struct sim_idle_cpu *d = &c->idle;

	(void)s;
	if (d->state < 0 || d->waking)
		return;
	/* woken by the tick although no timer was due within it: menu takes
	 * the CPU as one that could have slept long (9/10 of
	 * MAX_INTERESTING) and selects again */
	idle_record(d, IDLE_MAX_INTERESTING_US * 9 / 10);
	d->ticks++;
	d->state = -1;
	sim_idle_enter(c);
}

/* @o's idle state, or -1 while it runs or wakes. */
static int cstate_of(const struct sim_cpu *o)
{
	return o->idle.state >= 0 && !o->idle.waking ? o->idle.state : -1;
}

/*
 * The exit latency of @c leaving its state @st, with package C-states
 * (sim_idle.h): what its core and package are in decides which level
 * must wake.  Counts the level in @d.
 */
static uint64_t pkg_exit_ns(struct sim_cpu *c, unsigned st)
{
	struct sim_host *h = c->h;
	const struct sim_idle_table *t = h->params.idle;
	unsigned n = h->params.ncpus, smt = h->params.smt ? h->params.smt : 1;
	unsigned cores = n / smt, core = c->id % cores;
	uint64_t now = h->sim->now, lat;
	int core_st = (int)st, pkg_st = -2;     /* -2: none seen yet */

	/* the core: the shallowest of its threads, C0 if one runs */
	for (unsigned k = 0; k < smt; k++) {
		unsigned cpu = core + k * cores;
		int s2 = cpu == c->id ? (int)st : cstate_of(&h->cpus[cpu]);

		if (s2 < core_st)
			core_st = s2;
	}
	if (core_st < 0) {
		c->idle.wake_thread++;
		return (uint64_t)t->s[t->n > 1 ? 1 : 0].exit_latency_us * 1000;
	}
	/* the package: the shallowest core, C0 if one runs */
	for (unsigned cpu = 0; cpu < n && pkg_st != -1; cpu++) {
		int s2 = cpu == c->id ? (int)st : cstate_of(&h->cpus[cpu]);

		if (pkg_st == -2 || s2 < pkg_st)
			pkg_st = s2;
	}
	lat = (uint64_t)t->s[core_st].core_exit_us * 1000;
	if (pkg_st < 0) {
		c->idle.wake_core++;
		/* a package wake-up under way holds this core too */
		if (h->pkg_wake_at > now && h->pkg_wake_at - now > lat)
			lat = h->pkg_wake_at - now;
		return lat;
	}
	c->idle.wake_pkg++;
	if ((uint64_t)t->s[pkg_st].exit_latency_us * 1000 > lat)
		lat = (uint64_t)t->s[pkg_st].exit_latency_us * 1000;
	h->pkg_wake_at = now + lat;
	return lat;
}

uint64_t sim_idle_wake_delay(struct sim_cpu *c)
{
	const struct sim_idle_table *t = c->h->params.idle;
	struct sim_idle_cpu *d = &c->idle;
	uint64_t now = c->h->sim->now, lat, us;

	if (!t || d->state < 0)
		return 0;
	if (d->waking)
		return d->wake_at > now ? d->wake_at - now : 0;
	/* the first wake-up event of this idle period: the governor learns
	 * how long the CPU was idle, the CPU takes the state's exit latency */
	us = (now - d->since) / 1000;
	idle_record(d, us);
	sim_cancel(c->h->sim, &c->idle_tick_ev);
	lat = c->h->params.pkg_cstates ? pkg_exit_ns(c, (unsigned)d->state) :
	      (uint64_t)t->s[d->state].exit_latency_us * 1000;
	d->waking = true;
	d->wake_at = now + lat;
	d->exit_ns += lat;
	return lat;
}

void sim_idle_leave(struct sim_cpu *c)
{
	c->idle.state = -1;
	c->idle.waking = false;
	sim_cancel(c->h->sim, &c->idle_tick_ev);
}
