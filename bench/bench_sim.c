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
 * N = 10^3 and 10^6.  Each cell runs a fixed event count after a warm-up
 * and reports the median of 5 runs (CLOCK_MONOTONIC); events_per_s counts
 * fired events only, not cancels.  Target (issue 3): >= 20 M events/s at
 * N = 10^3 on one core; the text output prints the ratio to it.
 */
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

/* events/s for @n pending timers and @cancel_pct; median of REPEATS */
static double run_cell(size_t n, unsigned cancel_pct, uint64_t events)
{
	double r[REPEATS];

	for (int rep = 0; rep < REPEATS; rep++) {
		struct bench b = { .n = n, .rng = 88172645463325252ull + (uint64_t)rep,
				   .cancel_pct = cancel_pct };
		uint64_t done;
		double t0, t1;

		sim_init(&b.sim);
		b.ev = calloc(n, sizeof(*b.ev));
		if (!b.ev) {
			fprintf(stderr, "bench-sim: out of memory\n");
			exit(1);
		}
		for (size_t i = 0; i < n; i++) {
			sim_event_init(&b.ev[i], fire, &b);
			sim_schedule_at(&b.sim, &b.ev[i], 1 + xs(&b.rng) % 1000);
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
	}
	qsort(r, REPEATS, sizeof(r[0]), cmp_d);
	return r[REPEATS / 2];
}

int main(int argc, char **argv)
{
	static const struct { const char *name; unsigned pct; } mixes[] = {
		{ "hold", 0 }, { "cancel25", 25 }, { "cancel50", 50 },
	};
	static const size_t pend[] = { 1000, 1000000 };
	double res[2][3];
	int json = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else {
			fprintf(stderr, "usage: bench-sim [--json]\n");
			return !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ? 0 : 2;
		}
	}
	for (int p = 0; p < 2; p++)
		for (int m = 0; m < 3; m++)
			res[p][m] = run_cell(pend[p], mixes[m].pct,
					     p ? 3000000 : 10000000);
	if (json) {
		printf("{\"results\":[");
		for (int p = 0; p < 2; p++)
			for (int m = 0; m < 3; m++)
				printf("%s{\"pending\": %zu, \"mix\": \"%s\", \"events_per_s\": %.0f}",
				       p || m ? ", " : "", pend[p], mixes[m].name,
				       res[p][m]);
		printf("], \"target_events_per_s\": %.0f}\n", TARGET);
		return 0;
	}
	printf("%-10s %-9s %14s %10s\n", "pending", "mix", "events/s", "vs 20M");
	for (int p = 0; p < 2; p++)
		for (int m = 0; m < 3; m++)
			printf("%-10zu %-9s %14.0f %9.2fx\n", pend[p], mixes[m].name,
			       res[p][m], res[p][m] / TARGET);
	return 0;
}
