/* SPDX-License-Identifier: MIT */
/*
 * sim_event.h - the discrete-event engine.
 *
 * Virtual time is an integer count of nanoseconds (sim_time_t).  Events
 * are ordered by (time, insertion sequence): two events scheduled for the
 * same instant run in the order they were scheduled, so a run never
 * depends on heap layout, pointer values or the wall clock (the ns-3
 * EventKey rule, research/aesthetics.md §1.7).
 *
 * Events are intrusive: the owner embeds a struct sim_event and the
 * engine never allocates per event.  A pending event is in a timing-wheel
 * bucket or in a heap (sim_event.c); cancelling takes it out of the
 * wheel, or leaves its heap entry stale (skipped when it reaches the top:
 * lazy deletion); re-scheduling a pending event moves it.  An event must
 * not be re-initialised (sim_event_init) while it is pending.
 *
 * The engine also keeps a running 64-bit trace hash of every event it
 * runs (time, sequence) plus whatever components mix in, so a test can
 * prove that two runs with the same inputs and seed were identical.
 */
#ifndef RXSCALE_SIM_EVENT_H
#define RXSCALE_SIM_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Virtual time or a duration, in nanoseconds. */
typedef uint64_t sim_time_t;

#define SIM_TIME_MAX UINT64_MAX
#define SIM_NS(x) ((sim_time_t)(x))
#define SIM_US(x) ((sim_time_t)(x) * 1000u)
#define SIM_MS(x) ((sim_time_t)(x) * 1000000u)
#define SIM_S(x) ((sim_time_t)(x) * 1000000000u)

struct sim;
struct sim_event;

/* Called at the event's time with sim_now() == that time. */
typedef void (*sim_event_fn)(struct sim *s, struct sim_event *ev);

struct sim_event {
	sim_event_fn fn;
	void *arg;              /* owner's context, free for the callback */
	sim_time_t time;        /* when it fires (valid while pending) */
	uint64_t seq;           /* insertion sequence, the tie-break */
	struct sim_event *next, *prev;  /* wheel bucket list (while there) */
	bool in_wheel;          /* pending in the wheel (else in the heap) */
	bool pending;
	/* Housekeeping (a kernel's periodic timers): sim_run() does not wait
	 * for it.  Set before scheduling, never while pending. */
	bool background;
};

/* The timing wheel: 1024 buckets of 128 ns, ~131 us ahead of now. */
#define SIM_WHEEL_SHIFT 7
#define SIM_WHEEL_SLOTS 1024u

/* One heap slot: the key is copied in so sift loops touch one array.
 * Padded to 32 bytes so that, with the array offset by 3 slots, the four
 * children of every node fill exactly two aligned cache lines. */
struct sim_heap_ent {
	sim_time_t time;
	uint64_t seq;
	struct sim_event *ev;
	uint64_t pad;
};

struct sim {
	sim_time_t now;         /* current virtual time, ns */
	uint64_t next_seq;      /* insertion counter, never reused */
	struct sim_heap_ent *heap;      /* heap_base + 3 */
	struct sim_heap_ent *heap_base; /* 128-byte aligned allocation */
	size_t heap_len, heap_cap;
	size_t live;            /* pending events */
	size_t live_bg;         /* of which background */
	size_t heap_live;       /* of them in the heap (heap_len minus stale) */
	struct sim_event *wheel[SIM_WHEEL_SLOTS];       /* bucket heads */
	uint64_t wheel_map[SIM_WHEEL_SLOTS / 64];       /* non-empty buckets */
	uint64_t wheel_sum;     /* non-zero words of wheel_map */
	size_t wheel_n;         /* events in the wheel */
	sim_time_t wheel_base;  /* where the wheel starts: the last event's time */
	uint64_t executed;      /* events run so far */
	uint64_t trace;         /* running trace hash */
	bool stop;              /* set by sim_stop(), cleared by sim_run_*() */
	bool running;           /* inside sim_run_until(): events are being run */
	bool root_running;      /* heap[0] is the entry of the running event */
};

/* Initialise an engine at time 0.  Cannot fail. */
void sim_init(struct sim *s);

/* Release the heap.  Pending events are forgotten, not run. */
void sim_fini(struct sim *s);

/* Prepare an event: callback @fn, owner context @arg.  Not pending. */
static inline void sim_event_init(struct sim_event *ev, sim_event_fn fn,
				  void *arg)
{
	ev->fn = fn;
	ev->arg = arg;
	ev->time = 0;
	ev->seq = 0;
	ev->next = ev->prev = NULL;
	ev->in_wheel = false;
	ev->pending = false;
	ev->background = false;
}

/* Current virtual time in ns. */
static inline sim_time_t sim_now(const struct sim *s)
{
	return s->now;
}

static inline bool sim_event_pending(const struct sim_event *ev)
{
	return ev->pending;
}

/*
 * Schedule @ev at absolute time @t (ns).  A time in the past is clamped to
 * now (the event runs after everything already queued for now).  If @ev
 * is pending it is moved.  Returns 0, or -ENOMEM if the heap cannot grow
 * (the event is then left not pending).
 */
int sim_schedule_at(struct sim *s, struct sim_event *ev, sim_time_t t);

/* Schedule @ev @delta ns from now.  Same rules as sim_schedule_at(). */
static inline int sim_schedule_in(struct sim *s, struct sim_event *ev,
				  sim_time_t delta)
{
	return sim_schedule_at(s, ev, s->now + delta);
}

/* Take pending @ev out of the heap (sim_cancel's slow half). */
void sim_cancel_pending(struct sim *s, struct sim_event *ev);

/* Cancel @ev if pending (O(1)).  Safe on a non-pending event. */
static inline void sim_cancel(struct sim *s, struct sim_event *ev)
{
	if (ev->pending)
		sim_cancel_pending(s, ev);
}

/*
 * Run events in order until the next one would be later than @until (ns)
 * or none is left (with @until SIM_TIME_MAX: none but background ones) or
 * sim_stop() is called; then set now = @until unless
 * stopped early or @until is SIM_TIME_MAX.  Returns the number of events
 * run.
 */
uint64_t sim_run_until(struct sim *s, sim_time_t until);

/* Time of the earliest pending event in *@t; false when none is pending.
 * (Drops cancelled entries from the top of the heap on the way.) */
bool sim_next_time(struct sim *s, sim_time_t *t);

/* Run until no event is pending but background ones (or sim_stop()):
 * a system whose only future is periodic housekeeping is done; a test
 * that wants housekeeping to act runs until a time.  Returns events run. */
static inline uint64_t sim_run(struct sim *s)
{
	return sim_run_until(s, SIM_TIME_MAX);
}

/* Whether sim_run_until() is on the stack: code called from an event
 * cannot run the engine itself; code called from outside (a test, the
 * CLI between runs) can make time pass with sim_run_until(). */
static inline bool sim_running(const struct sim *s)
{
	return s->running;
}

/* Make the running sim_run_until() return after the current event. */
static inline void sim_stop(struct sim *s)
{
	s->stop = true;
}

/* Drop the heap entries of cancelled events now (O(n)).  Call it after
 * cancelling the events of an object that is about to be freed: the heap
 * must never hold an entry that points to freed memory. */
void sim_purge(struct sim *s);

/* Number of pending (not cancelled) events. */
static inline size_t sim_pending(const struct sim *s)
{
	return s->live;
}

/* Mix a 64-bit value into the trace hash (components add their own facts,
 * e.g. a frame's queue).  Never mix pointers: they change between runs. */
static inline void sim_trace_mix(struct sim *s, uint64_t v)
{
	uint64_t h = (s->trace ^ v) * 0x9E3779B97F4A7C15ull;

	s->trace = h ^ (h >> 29);
}

#endif /* RXSCALE_SIM_EVENT_H */
