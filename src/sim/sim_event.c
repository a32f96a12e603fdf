// SPDX-License-Identifier: MIT
/*
 * sim_event.c - the event queue: a timing wheel for the near future and
 * a 4-ary min-heap for the rest, both ordered by (time, seq).
 *
 * What the simulator holds (e1-rss, rxscale run): about 30 pending events;
 * per second 2.8 M schedules, half of them an event re-arming itself, 88 %
 * less than 10 us ahead, 3 % 10-100 ms ahead (TCP RTO and delayed-ACK
 * timers, moved on almost every segment).  The lazy-deletion heap this
 * replaces spent ~200 instructions a pop on it.  Here:
 *
 *  - the wheel: SIM_WHEEL_SLOTS buckets of 2^SIM_WHEEL_SHIFT ns covering
 *    ~131 us from wheel_base, the time of the last event run (not now:
 *    code running on a simulated CPU moves now ahead while it charges
 *    time, and back when the frame ends); a bucket is a list sorted by (time, seq), found by
 *    a two-level bitmap.  A new event almost always goes last in its
 *    bucket (its seq is the largest), so schedule, cancel and pop are O(1);
 *  - the heap: events further ahead, and any event whose bucket would
 *    need a long walk to insert it (more than SIM_WHEEL_WALK entries later
 *    than it: a burst of equal-bucket events, or 10^6 pending ones), so
 *    no operation costs more than O(log n).  Each heap entry's event
 *    knows its slot, so a cancel or a move fixes the heap in place.
 *
 * The next event is the smaller of the wheel's first and the heap's root.
 * Where an event is kept never changes the order, only the cost.
 * bench-sim measures it (the "sim" mixes model the load above); the
 * figures of the structures tried are in docs/simulator.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_event.h"

#define SIM_WHEEL_MASK (SIM_WHEEL_SLOTS - 1)
#define SIM_WHEEL_WALK 8

void sim_init(struct sim *s)
{
	memset(s, 0, sizeof(*s));
	s->trace = 0xcbf29ce484222325ull;
}

void sim_fini(struct sim *s)
{
	free(s->heap_base);
	s->heap = s->heap_base = NULL;
	s->heap_len = s->heap_cap = s->live = 0;
	memset(s->wheel, 0, sizeof(s->wheel));
	memset(s->wheel_map, 0, sizeof(s->wheel_map));
	s->wheel_sum = 0;
	s->wheel_n = 0;
}

/* (time, seq) as one 128-bit key: one compare, no data-dependent branch
 * (the compiler emits cmov / sbb), which matters because heap order is
 * random and branch mispredictions dominate the cost of a sift. */
static inline unsigned __int128 ent_key(const struct sim_heap_ent *e)
{
	return (unsigned __int128)e->time << 64 | e->seq;
}

static inline bool ent_before(const struct sim_heap_ent *a,
			      const struct sim_heap_ent *b)
{
	return ent_key(a) < ent_key(b);
}

/* ----- the heap ----- */

/* 4-ary: half the depth of a binary heap, and the four children of a
 * node share one or two cache lines. */
#define ARITY 4

static inline void put(struct sim_heap_ent *h, size_t i,
		       const struct sim_heap_ent *e)
{
	h[i] = *e;
	e->ev->idx = (uint32_t)i;
}

static void sift_up(struct sim_heap_ent *h, size_t i, struct sim_heap_ent e)
{
	while (i > 0) {
		size_t p = (i - 1) / ARITY;

		if (!ent_before(&e, &h[p]))
			break;
		put(h, i, &h[p]);
		i = p;
	}
	put(h, i, &e);
}

/* Index of the smallest child of @i (which must have one). */
static inline size_t min_child(const struct sim_heap_ent *h, size_t n, size_t i)
{
	size_t c = ARITY * i + 1, best = c, end = c + ARITY < n ? c + ARITY : n;
	unsigned __int128 bk = ent_key(&h[c]);

	for (c++; c < end; c++) {
		unsigned __int128 k = ent_key(&h[c]);
		bool lt = k < bk;

		best = lt ? c : best;
		bk = lt ? k : bk;
	}
	return best;
}

static void sift_down(struct sim_heap_ent *h, size_t n, size_t i,
		      struct sim_heap_ent e)
{
	while (ARITY * i + 1 < n) {
		size_t c = min_child(h, n, i);

		if (!ent_before(&h[c], &e))
			break;
		put(h, i, &h[c]);
		i = c;
	}
	put(h, i, &e);
}

/* Remove the heap entry at @i.  The root (Floyd): move the hole down
 * along the smallest children to a leaf and let the last entry rise from
 * there -- it almost always belongs near the bottom. */
static void heap_remove(struct sim *s, size_t i)
{
	struct sim_heap_ent *h = s->heap;
	size_t n = --s->heap_len;
	struct sim_heap_ent last = h[n];

	if (i == n)
		return;
	if (i == 0) {
		while (ARITY * i + 1 < n) {
			size_t c = min_child(h, n, i);

			put(h, i, &h[c]);
			i = c;
		}
		sift_up(h, i, last);
	} else if (ent_before(&last, &h[(i - 1) / ARITY])) {
		sift_up(h, i, last);
	} else {
		sift_down(h, n, i, last);
	}
}

static int heap_insert(struct sim *s, struct sim_event *ev)
{
	if (s->heap_len == s->heap_cap) {
		size_t cap = s->heap_cap ? 2 * s->heap_cap : 64;
		struct sim_heap_ent *base;

		if (cap > SIM_EV_WHEEL)
			return -ENOMEM;
		base = aligned_alloc(128, (cap + 4) * sizeof(*base));
		if (!base)
			return -ENOMEM;
		if (s->heap_len)
			memcpy(base + 3, s->heap, s->heap_len * sizeof(*base));
		free(s->heap_base);
		s->heap_base = base;
		s->heap = base + 3;
		s->heap_cap = cap;
	}
	sift_up(s->heap, s->heap_len++,
		(struct sim_heap_ent){ ev->time, ev->seq, ev, 0 });
	return 0;
}

/* ----- the wheel ----- */

static inline unsigned wheel_slot(sim_time_t t)
{
	return (unsigned)(t >> SIM_WHEEL_SHIFT) & SIM_WHEEL_MASK;
}

/* Put @ev (time and seq set, seq the newest) in its bucket; false when it
 * is too far ahead or the bucket too long to walk. */
static bool wheel_insert(struct sim *s, struct sim_event *ev)
{
	unsigned b, steps = 0;
	struct sim_event *head, *p;

	if ((ev->time >> SIM_WHEEL_SHIFT) - (s->wheel_base >> SIM_WHEEL_SHIFT) >=
	    SIM_WHEEL_SLOTS)
		return false;
	b = wheel_slot(ev->time);
	head = s->wheel[b];
	if (!head) {
		ev->next = NULL;
		ev->prev = ev;          /* the head's prev is the tail */
		s->wheel[b] = ev;
		s->wheel_map[b >> 6] |= 1ull << (b & 63);
		s->wheel_sum |= 1ull << (b >> 6);
		s->wheel_n++;
		return true;
	}
	/* from the tail back to the last entry not later than @ev (equal
	 * times keep their order: @ev's seq is the largest) */
	for (p = head->prev; p->time > ev->time; p = p->prev) {
		if (p == head || ++steps > SIM_WHEEL_WALK) {
			if (p != head)
				return false;
			/* before the head */
			ev->next = head;
			ev->prev = head->prev;
			head->prev = ev;
			s->wheel[b] = ev;
			s->wheel_n++;
			return true;
		}
	}
	ev->next = p->next;
	ev->prev = p;
	if (p->next)
		p->next->prev = ev;
	else
		head->prev = ev;
	p->next = ev;
	s->wheel_n++;
	return true;
}

static void wheel_remove(struct sim *s, struct sim_event *ev)
{
	unsigned b = wheel_slot(ev->time);
	struct sim_event *head = s->wheel[b];

	s->wheel_n--;
	if (ev == head) {
		head = ev->next;
		s->wheel[b] = head;
		if (head) {
			head->prev = ev->prev;
			return;
		}
		s->wheel_map[b >> 6] &= ~(1ull << (b & 63));
		if (!s->wheel_map[b >> 6])
			s->wheel_sum &= ~(1ull << (b >> 6));
		return;
	}
	ev->prev->next = ev->next;
	if (ev->next)
		ev->next->prev = ev->prev;
	else
		head->prev = ev->prev;
}

/* The wheel's earliest event (the wheel must not be empty): the first
 * non-empty bucket from wheel_base's, going round once. */
static struct sim_event *wheel_first(const struct sim *s)
{
	unsigned cur = wheel_slot(s->wheel_base), w = cur >> 6;
	uint64_t bits = s->wheel_map[w] & (~0ull << (cur & 63));
	uint64_t sum;

	if (bits)
		return s->wheel[(w << 6) | (unsigned)__builtin_ctzll(bits)];
	sum = s->wheel_sum & (~1ull << w);      /* the words after w */
	if (!sum)
		sum = s->wheel_sum;             /* round: w itself last */
	w = (unsigned)__builtin_ctzll(sum);
	bits = s->wheel_map[w];
	if (w == cur >> 6)
		bits &= ~(~0ull << (cur & 63)); /* its buckets before cur */
	return s->wheel[(w << 6) | (unsigned)__builtin_ctzll(bits)];
}

/* ----- both ----- */

/* The earliest pending event, or NULL. */
static struct sim_event *first(const struct sim *s)
{
	struct sim_event *w;

	if (!s->wheel_n)
		return s->heap_len ? s->heap[0].ev : NULL;
	w = wheel_first(s);
	if (s->heap_len) {
		const struct sim_heap_ent *h = &s->heap[0];

		if (h->time < w->time || (h->time == w->time && h->seq < w->seq))
			return h->ev;
	}
	return w;
}

static void detach(struct sim *s, struct sim_event *ev)
{
	if (ev->idx == SIM_EV_WHEEL)
		wheel_remove(s, ev);
	else
		heap_remove(s, ev->idx);
}

void sim_cancel_pending(struct sim *s, struct sim_event *ev)
{
	detach(s, ev);
	ev->pending = false;
	s->live--;
}

void sim_purge(struct sim *s)
{
	/* a cancelled event leaves nothing behind */
	(void)s;
}

int sim_schedule_at(struct sim *s, struct sim_event *ev, sim_time_t t)
{
	if (t < s->now)
		t = s->now;
	if (ev->pending) {
		detach(s, ev);
		ev->pending = false;
		s->live--;
	}
	ev->time = t;
	ev->seq = s->next_seq;
	if (wheel_insert(s, ev)) {
		ev->idx = SIM_EV_WHEEL;
	} else if (heap_insert(s, ev)) {
		return -ENOMEM;
	}
	s->next_seq++;
	ev->pending = true;
	s->live++;
	return 0;
}

bool sim_next_time(struct sim *s, sim_time_t *t)
{
	const struct sim_event *ev = first(s);

	if (!ev)
		return false;
	*t = ev->time;
	return true;
}

uint64_t sim_run_until(struct sim *s, sim_time_t until)
{
	uint64_t n = 0;
	struct sim_event *ev;

	s->stop = false;
	while ((ev = first(s)) && ev->time <= until) {
		detach(s, ev);
		ev->pending = false;
		s->live--;
		s->now = s->wheel_base = ev->time;
		sim_trace_mix(s, ev->time * 0x100000001b3ull + ev->seq);
		s->executed++;
		n++;
		ev->fn(s, ev);
		if (s->stop)
			return n;
	}
	if (until != SIM_TIME_MAX && until > s->now)
		s->now = s->wheel_base = until;
	return n;
}
