/* SPDX-License-Identifier: MIT */
/*
 * bench_sim.c - events per second of the event engine (src/sim).
 *
 *   build/bench/bench-sim [--json]
 *
 * The classic "hold" model: N timers pending; each event that fires
 * re-arms itself a pseudo-random 1..1000 ns later, so the heap keeps N
 * entries.  Mixes:
 *   hold        only that;
 *   cancel25    a quarter of the events also cancel and re-arm another
 *               random pending timer (a moved timeout, as TCP RTO and
 *               moderation timers do);
 *   cancel50    half of them do.
 * N = 10^3 and 10^6.  And what the simulator holds (issue 17: e1-rss has
 * ~30 pending events; 88 % of its schedules are < 10 us ahead, 3 % are
 * TCP timers 10-100 ms ahead that move on every segment):
 *   sim         N = 32 or 128 timers; each re-arms itself a log-uniform
 *               1 ns .. 100 us later, and every 30th event also moves one
 *               of N/4 far timers (10-100 ms ahead, never firing first).
 * Each cell runs a fixed event count after a warm-up
 * and reports the median of 5 runs (CLOCK_MONOTONIC); events_per_s counts
 * fired events only, not cancels.  Target (issue 3): >= 20 M events/s at
 * N = 10^3 on one core; the text output prints the ratio to it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim_event.h"

#define REPEATS 5
#define TARGET 20e6

struct bench {
	struct sim sim;
	struct sim_event *ev;
	size_t n;
	uint64_t rng;
	unsigned cancel_pct;
	struct sim_event *far;  /* "sim" mix: far timers (NULL otherwise) */
	size_t nfar;
	uint64_t fired;
};

static inline uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fire(struct sim *s, struct sim_event *ev)
{
	struct bench *b = ev->arg;
	uint64_t r = xs(&b->rng);

	sim_schedule_in(s, ev, 1 + r % 1000);
	if ((r >> 32) % 100 < b->cancel_pct) {
		struct sim_event *o = &b->ev[(r >> 12) % b->n];

		if (o != ev) {
			sim_cancel(s, o);
			sim_schedule_in(s, o, 1 + (r >> 40) % 1000);
		}
	}
}

/* "sim" mix: 1 ns .. 100 us, log-uniform (10^(r/2^32 * 5) ns) */
static uint64_t sim_delay(uint64_t r)
{
	static const uint64_t dec[6] = { 1, 10, 100, 1000, 10000, 100000 };
	unsigned d = (unsigned)((r >> 32) % 5);

	return dec[d] + (r & 0xffff) * (dec[d + 1] - dec[d]) / 0x10000;
}

static void far_fire(struct sim *s, struct sim_event *ev)
{
	(void)s;
	(void)ev;
}

static void fire_sim(struct sim *s, struct sim_event *ev)
{
	struct bench *b = ev->arg;
	uint64_t r = xs(&b->rng);

	sim_schedule_in(s, ev, sim_delay(r));
	if (++b->fired % 30 == 0) {
		struct sim_event *o = &b->far[(r >> 20) % b->nfar];

		sim_schedule_in(s, o, 10000000 + (r >> 8) % 90000000);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* events/s for @n pending timers and @cancel_pct (or the "sim" mix);
 * median of REPEATS */
static double run_cell(size_t n, unsigned cancel_pct, bool sim_mix,
		       uint64_t events)
{
	double r[REPEATS];

	for (int rep = 0; rep < REPEATS; rep++) {
		struct bench b = { .n = n, .rng = 88172645463325252ull + (uint64_t)rep,
				   .cancel_pct = cancel_pct };
		uint64_t done;
		double t0, t1;

		sim_init(&b.sim);
		b.ev = calloc(n, sizeof(*b.ev));
		b.nfar = sim_mix ? n / 4 : 0;
		b.far = calloc(b.nfar + 1, sizeof(*b.far));
		if (!b.ev || !b.far) {
			fprintf(stderr, "bench-sim: out of memory\n");
			exit(1);
		}
		for (size_t i = 0; i < n; i++) {
			sim_event_init(&b.ev[i], sim_mix ? fire_sim : fire, &b);
			sim_schedule_at(&b.sim, &b.ev[i], 1 + xs(&b.rng) % 1000);
		}
		for (size_t i = 0; i < b.nfar; i++) {
			sim_event_init(&b.far[i], far_fire, &b);
			sim_schedule_at(&b.sim, &b.far[i], 10000000 + xs(&b.rng) % 90000000);
		}
		/* warm-up: let the heap reach its steady shape */
		while (b.sim.executed < n && b.sim.executed < events / 4) {
			sim_stop(&b.sim);
			sim_run_until(&b.sim, b.sim.now + 1000);
		}
		done = b.sim.executed;
		t0 = now_s();
		/* windows of ~200 events per pending thousand, so a window
		 * holds ~10^5 events whatever n is */
		while (b.sim.executed - done < events)
			sim_run_until(&b.sim, b.sim.now + 1 + 100000000 / n);
		t1 = now_s();
		r[rep] = (double)(b.sim.executed - done) / (t1 - t0);
		sim_fini(&b.sim);
		free(b.ev);
		free(b.far);
	}
	qsort(r, REPEATS, sizeof(r[0]), cmp_d);
	return r[REPEATS / 2];
}

int main(int argc, char **argv)
{
	static const struct {
		size_t pending;
		const char *mix;
		unsigned pct;
		bool sim_mix;
		uint64_t events;
	} cells[] = {
		{ 32, "sim", 0, true, 10000000 },
		{ 128, "sim", 0, true, 10000000 },
		{ 1000, "hold", 0, false, 10000000 },
		{ 1000, "cancel25", 25, false, 10000000 },
		{ 1000, "cancel50", 50, false, 10000000 },
		{ 1000000, "hold", 0, false, 3000000 },
		{ 1000000, "cancel25", 25, false, 3000000 },
		{ 1000000, "cancel50", 50, false, 3000000 },
	};
	enum { NCELLS = sizeof(cells) / sizeof(cells[0]) };
	double res[NCELLS];
	int json = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else {
			fprintf(stderr, "usage: bench-sim [--json]\n");
			return !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ? 0 : 2;
		}
	}
	for (int c = 0; c < NCELLS; c++)
		res[c] = run_cell(cells[c].pending, cells[c].pct, cells[c].sim_mix,
				  cells[c].events);
	if (json) {
		printf("{\"results\":[");
		for (int c = 0; c < NCELLS; c++)
			printf("%s{\"pending\": %zu, \"mix\": \"%s\", \"events_per_s\": %.0f}",
			       c ? ", " : "", cells[c].pending, cells[c].mix, res[c]);
		printf("], \"target_events_per_s\": %.0f}\n", TARGET);
		return 0;
	}
	printf("%-10s %-9s %14s %10s\n", "pending", "mix", "events/s", "vs 20M");
	for (int c = 0; c < NCELLS; c++)
		printf("%-10zu %-9s %14.0f %9.2fx\n", cells[c].pending, cells[c].mix,
		       res[c], res[c] / TARGET);
	return 0;
}
