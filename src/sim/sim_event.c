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
 *    no operation costs more than O(log n).  Lazy deletion, as before:
 *    a cancelled or moved event's entry goes stale and is dropped when it
 *    reaches the root, or when stale entries outnumber live ones.
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
	s->heap_len = s->heap_cap = s->live = s->live_bg = 0;
	s->heap_live = 0;
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

/* A heap entry is live while its event is pending with the entry's seq:
 * a cancel only clears the flag, a move gives the event a new seq, and
 * the stale entry is dropped when it reaches the root or when the heap
 * is compacted (lazy deletion: a sift never touches the events, which
 * matters at 10^6 pending). */
static inline bool ent_live(const struct sim_heap_ent *e)
{
	return e->ev->pending && e->ev->seq == e->seq;
}

static void sift_up(struct sim_heap_ent *h, size_t i)
{
	struct sim_heap_ent e = h[i];

	while (i > 0) {
		size_t p = (i - 1) / ARITY;

		if (!ent_before(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
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

static void sift_down(struct sim_heap_ent *h, size_t n, size_t i)
{
	struct sim_heap_ent e = h[i];

	while (ARITY * i + 1 < n) {
		size_t c = min_child(h, n, i);

		if (!ent_before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/* Put @e at the root (Floyd): move the hole down along the smallest
 * children to a leaf, put @e there and let it rise -- for the last entry
 * of the heap, which almost always belongs near the bottom. */
static void replace_root(struct sim_heap_ent *h, size_t n,
			 struct sim_heap_ent e)
{
	size_t i = 0;

	while (ARITY * i + 1 < n) {
		size_t c = min_child(h, n, i);

		h[i] = h[c];
		i = c;
	}
	h[i] = e;
	sift_up(h, i);
}

static void pop_root(struct sim *s)
{
	size_t n = --s->heap_len;

	if (n)
		replace_root(s->heap, n, s->heap[n]);
}

/* Drop stale entries and re-heapify (Floyd), O(n).  The running event's
 * root entry is kept: it is the minimum, so it stays at index 0. */
static void compact(struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->heap_len; i++)
		if (ent_live(&s->heap[i]) || (i == 0 && s->root_running))
			s->heap[n++] = s->heap[i];
	s->heap_len = n;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(s->heap, n, i);
}

static int heap_push(struct sim *s, struct sim_event *ev)
{
	if (s->heap_len == s->heap_cap) {
		if (s->heap_len > 64 && s->heap_len - s->heap_live > s->heap_live)
			compact(s);
		if (s->heap_len == s->heap_cap) {
			size_t cap = s->heap_cap ? 2 * s->heap_cap : 64;
			struct sim_heap_ent *base;

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
	}
	s->heap[s->heap_len] = (struct sim_heap_ent){ ev->time, ev->seq, ev, 0 };
	sift_up(s->heap, s->heap_len++);
	s->heap_live++;
	return 0;
}

/* The root entry, after dropping stale ones above it; NULL if none.
 * (While an event runs its entry stays at the root: not dropped.) */
static const struct sim_heap_ent *heap_first(struct sim *s)
{
	while (s->heap_len && !ent_live(&s->heap[0]) && !s->root_running)
		pop_root(s);
	return s->heap_len && ent_live(&s->heap[0]) ? &s->heap[0] : NULL;
}

/* ----- the wheel ----- */

static inline unsigned wheel_slot(sim_time_t t)
{
	return (unsigned)(t >> SIM_WHEEL_SHIFT) & SIM_WHEEL_MASK;
}

/* Put @ev (time and seq set, seq the newest) in its bucket; false when it
 * is too far ahead or the bucket too long to walk. */
static inline bool wheel_insert(struct sim *s, struct sim_event *ev)
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

/* Take the head of bucket @b out (the event about to run, or one
 * cancelled there). */
static inline void wheel_pop_head(struct sim *s, unsigned b)
{
	struct sim_event *ev = s->wheel[b], *next = ev->next;

	s->wheel_n--;
	s->wheel[b] = next;
	if (next) {
		next->prev = ev->prev;
		return;
	}
	s->wheel_map[b >> 6] &= ~(1ull << (b & 63));
	if (!s->wheel_map[b >> 6])
		s->wheel_sum &= ~(1ull << (b >> 6));
}

static void wheel_remove(struct sim *s, struct sim_event *ev)
{
	unsigned b = wheel_slot(ev->time);
	struct sim_event *head = s->wheel[b];

	if (ev == head) {
		wheel_pop_head(s, b);
		return;
	}
	s->wheel_n--;
	ev->prev->next = ev->next;
	if (ev->next)
		ev->next->prev = ev->prev;
	else
		head->prev = ev->prev;
}

/* The wheel's earliest bucket (the wheel must not be empty): the first
 * non-empty one from wheel_base's, going round once. */
static inline unsigned wheel_first_slot(const struct sim *s)
{
	unsigned cur = wheel_slot(s->wheel_base), w = cur >> 6;
	uint64_t bits = s->wheel_map[w] & (~0ull << (cur & 63));
	uint64_t sum;

	if (bits)
		return (w << 6) | (unsigned)__builtin_ctzll(bits);
	sum = s->wheel_sum & (~1ull << w);      /* the words after w */
	if (!sum)
		sum = s->wheel_sum;             /* round: w itself last */
	w = (unsigned)__builtin_ctzll(sum);
	bits = s->wheel_map[w];
	if (w == cur >> 6)
		bits &= ~(~0ull << (cur & 63)); /* its buckets before cur */
	return (w << 6) | (unsigned)__builtin_ctzll(bits);
}

static struct sim_event *wheel_first(const struct sim *s)
{
	return s->wheel[wheel_first_slot(s)];
}

/* ----- both ----- */

/* The earliest pending event (@from_heap: it is the heap's root), or
 * NULL. */
static struct sim_event *first(struct sim *s, bool *from_heap)
{
	const struct sim_heap_ent *h = heap_first(s);
	struct sim_event *w;

	*from_heap = false;
	if (!s->wheel_n) {
		*from_heap = h != NULL;
		return h ? h->ev : NULL;
	}
	w = wheel_first(s);
	if (h && (h->time < w->time || (h->time == w->time && h->seq < w->seq))) {
		*from_heap = true;
		return h->ev;
	}
	return w;
}

/* Take pending @ev out: unlinked from the wheel, or its heap entry left
 * stale. */
static void detach(struct sim *s, struct sim_event *ev)
{
	if (ev->in_wheel)
		wheel_remove(s, ev);
	else
		s->heap_live--;
	ev->in_wheel = false;
	ev->pending = false;
	s->live--;
	s->live_bg -= ev->background;
}

void sim_cancel_pending(struct sim *s, struct sim_event *ev)
{
	detach(s, ev);
}

void sim_purge(struct sim *s)
{
	compact(s);
}

int sim_schedule_at(struct sim *s, struct sim_event *ev, sim_time_t t)
{
	bool running = s->root_running && s->heap[0].ev == ev;

	if (t < s->now)
		t = s->now;
	if (ev->pending)
		detach(s, ev);
	ev->time = t;
	ev->seq = s->next_seq;
	if (running) {
		/* The running event (from the heap) re-arms itself: its root
		 * entry is reused -- one pass down instead of a pop plus a
		 * push -- or dropped if the wheel takes it. */
		s->root_running = false;
		if (wheel_insert(s, ev)) {
			ev->in_wheel = true;
			pop_root(s);
		} else {
			replace_root(s->heap, s->heap_len,
				     (struct sim_heap_ent){ t, ev->seq, ev, 0 });
			s->heap_live++;
		}
	} else if (wheel_insert(s, ev)) {
		ev->in_wheel = true;
	} else if (heap_push(s, ev)) {
		return -ENOMEM;
	}
	s->next_seq++;
	ev->pending = true;
	s->live++;
	s->live_bg += ev->background;
	return 0;
}

bool sim_next_time(struct sim *s, sim_time_t *t)
{
	bool from_heap;
	const struct sim_event *ev = first(s, &from_heap);

	if (!ev)
		return false;
	*t = ev->time;
	return true;
}

uint64_t sim_run_until(struct sim *s, sim_time_t until)
{
	uint64_t n = 0;

	s->stop = false;
	s->running = true;
	for (;;) {
		/* first(), with the wheel's bucket kept for the unlink */
		const struct sim_heap_ent *h = s->heap_len ? heap_first(s) : NULL;
		struct sim_event *ev = NULL;
		unsigned b = 0;
		bool from_heap;

		if (s->wheel_n) {
			b = wheel_first_slot(s);
			ev = s->wheel[b];
		}
		from_heap = h && (!ev || h->time < ev->time ||
				  (h->time == ev->time && h->seq < ev->seq));
		if (from_heap)
			ev = h->ev;
		if (!ev || ev->time > until)
			break;
		/* only housekeeping left: a run to the end is done */
		if (until == SIM_TIME_MAX && s->live == s->live_bg)
			break;
		/* A heap event's entry stays at the root while the callback
		 * runs (nothing it schedules can sort before it); popped
		 * afterwards unless the callback re-armed the event. */
		if (from_heap)
			s->heap_live--;
		else
			wheel_pop_head(s, b);
		ev->in_wheel = false;
		ev->pending = false;
		s->live--;
		s->live_bg -= ev->background;
		s->now = s->wheel_base = ev->time;
		sim_trace_mix(s, ev->time * 0x100000001b3ull + ev->seq);
		s->executed++;
		n++;
		s->root_running = from_heap;
		ev->fn(s, ev);
		if (s->root_running) {
			s->root_running = false;
			pop_root(s);
		}
		if (s->stop)
			break;
	}
	s->running = false;
	if (s->stop)
		return n;
	if (until != SIM_TIME_MAX && until > s->now)
		s->now = s->wheel_base = until;
	return n;
}
