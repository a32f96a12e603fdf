// SPDX-License-Identifier: MIT
/*
 * sim_event.c - 4-ary min-heap of (time, seq) keys with lazy deletion.
 *
 * Why a heap: O(log n) schedule and pop with one contiguous array; at 10^3
 * pending timers the whole heap stays in L1.  Cancelled or moved
 * events leave stale entries that are discarded when popped; when stale
 * entries outnumber live ones the heap is rebuilt so memory stays
 * proportional to the live events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_event.h"

void sim_init(struct sim *s)
{
	*s = (struct sim){ .trace = 0xcbf29ce484222325ull };
}

void sim_fini(struct sim *s)
{
	free(s->heap_base);
	s->heap = s->heap_base = NULL;
	s->heap_len = s->heap_cap = s->live = s->live_bg = 0;
}

/* (time, seq) as one 128-bit key: one compare, no data-dependent branch
 * (the compiler emits cmov / sbb), which matters because heap order is
 * random and branch mispredictions dominate the cost of a pop. */
static inline unsigned __int128 ent_key(const struct sim_heap_ent *e)
{
	return (unsigned __int128)e->time << 64 | e->seq;
}

static inline bool ent_before(const struct sim_heap_ent *a,
			      const struct sim_heap_ent *b)
{
	return ent_key(a) < ent_key(b);
}

/* A 4-ary heap: half the depth of a binary one, and the four children of
 * a node share one or two cache lines. */
#ifndef ARITY
#define ARITY 4
#endif

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

/* Remove the root (Floyd): move the hole down along the smallest
 * children to a leaf, put the last entry there and let it rise — the
 * last entry almost always belongs near the bottom. */
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

static inline bool ent_live(const struct sim_heap_ent *e)
{
	return e->ev->pending && e->ev->seq == e->seq;
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

void sim_purge(struct sim *s)
{
	compact(s);
}

int sim_schedule_at(struct sim *s, struct sim_event *ev, sim_time_t t)
{
	if (t < s->now)
		t = s->now;
	if (s->root_running && s->heap[0].ev == ev) {
		/* The running event re-arms itself (the common case: a
		 * periodic or self-clocked timer): reuse its root entry with
		 * one sift-down instead of a pop plus a push. */
		s->root_running = false;
		if (!ev->pending) {
			s->live++;
			s->live_bg += ev->background;
		}
		ev->pending = true;
		ev->time = t;
		ev->seq = s->next_seq++;
		replace_root(s->heap, s->heap_len,
			     (struct sim_heap_ent){ t, ev->seq, ev, 0 });
		return 0;
	}
	if (s->heap_len == s->heap_cap) {
		if (s->heap_len > 64 && s->heap_len - s->live > s->live)
			compact(s);
		if (s->heap_len == s->heap_cap) {
			size_t cap = s->heap_cap ? 2 * s->heap_cap : 64;
			struct sim_heap_ent *base;

			base = aligned_alloc(128, (cap + 4) * sizeof(*base));
			if (!base) {
				sim_cancel(s, ev);
				return -ENOMEM;
			}
			if (s->heap_len)
				memcpy(base + 3, s->heap, s->heap_len * sizeof(*base));
			free(s->heap_base);
			s->heap_base = base;
			s->heap = base + 3;
			s->heap_cap = cap;
		}
	}
	if (!ev->pending) {
		s->live++;
		s->live_bg += ev->background;
	}
	ev->pending = true;
	ev->time = t;
	ev->seq = s->next_seq++;
	s->heap[s->heap_len] = (struct sim_heap_ent){ t, ev->seq, ev, 0 };
	sift_up(s->heap, s->heap_len++);
	return 0;
}

bool sim_next_time(struct sim *s, sim_time_t *t)
{
	while (s->heap_len && !ent_live(&s->heap[0]) && !s->root_running)
		pop_root(s);
	if (!s->heap_len || !ent_live(&s->heap[0]))
		return false;
	*t = s->heap[0].time;
	return true;
}

uint64_t sim_run_until(struct sim *s, sim_time_t until)
{
	uint64_t n = 0;

	s->stop = false;
	while (s->heap_len) {
		struct sim_heap_ent top = s->heap[0];

		if (until == SIM_TIME_MAX && s->live == s->live_bg)
			break;

		if (!ent_live(&top)) {
			pop_root(s);
			continue;
		}
		if (top.time > until)
			break;
		/* The entry stays at the root while the callback runs (nothing
		 * it schedules can sort before it); popped afterwards unless
		 * the callback re-armed the event into it. */
		top.ev->pending = false;
		s->live--;
		s->live_bg -= top.ev->background;
		s->now = top.time;
		sim_trace_mix(s, top.time * 0x100000001b3ull + top.seq);
		s->executed++;
		n++;
		s->root_running = true;
		top.ev->fn(s, top.ev);
		if (s->root_running) {
			s->root_running = false;
			pop_root(s);
		}
		if (s->stop)
			return n;
	}
	if (until != SIM_TIME_MAX && until > s->now)
		s->now = until;
	return n;
}
