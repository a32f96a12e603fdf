// SPDX-License-Identifier: MIT
/*
 * sim_event.c - binary min-heap of (time, seq) keys with lazy deletion.
 *
 * Why a binary heap: O(log n) schedule and pop with one contiguous array;
 * at 10^3 pending timers the whole heap stays in L1.  Cancelled or moved
 * events leave stale entries that are discarded when popped; when stale
 * entries outnumber live ones the heap is rebuilt so memory stays
 * proportional to the live events.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim_event.h"

void sim_init(struct sim *s)
{
	*s = (struct sim){ .trace = 0xcbf29ce484222325ull };
}

void sim_fini(struct sim *s)
{
	free(s->heap);
	s->heap = NULL;
	s->heap_len = s->heap_cap = s->live = 0;
}

static inline bool ent_before(const struct sim_heap_ent *a,
			      const struct sim_heap_ent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sift_up(struct sim_heap_ent *h, size_t i)
{
	struct sim_heap_ent e = h[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!ent_before(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

static void sift_down(struct sim_heap_ent *h, size_t n, size_t i)
{
	struct sim_heap_ent e = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ent_before(&h[c + 1], &h[c]))
			c++;
		if (!ent_before(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

static inline bool ent_live(const struct sim_heap_ent *e)
{
	return e->ev->pending && e->ev->seq == e->seq;
}

/* Drop stale entries and re-heapify (Floyd), O(n). */
static void compact(struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->heap_len; i++)
		if (ent_live(&s->heap[i]))
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
	if (s->heap_len == s->heap_cap) {
		if (s->heap_len > 64 && s->heap_len - s->live > s->live)
			compact(s);
		if (s->heap_len == s->heap_cap) {
			size_t cap = s->heap_cap ? 2 * s->heap_cap : 64;
			struct sim_heap_ent *h;

			h = realloc(s->heap, cap * sizeof(*h));
			if (!h) {
				sim_cancel(s, ev);
				return -ENOMEM;
			}
			s->heap = h;
			s->heap_cap = cap;
		}
	}
	if (!ev->pending)
		s->live++;
	ev->pending = true;
	ev->time = t;
	ev->seq = s->next_seq++;
	s->heap[s->heap_len] = (struct sim_heap_ent){ t, ev->seq, ev };
	sift_up(s->heap, s->heap_len++);
	return 0;
}

uint64_t sim_run_until(struct sim *s, sim_time_t until)
{
	uint64_t n = 0;

	s->stop = false;
	while (s->heap_len) {
		struct sim_heap_ent top = s->heap[0];

		if (!ent_live(&top)) {
			s->heap[0] = s->heap[--s->heap_len];
			if (s->heap_len)
				sift_down(s->heap, s->heap_len, 0);
			continue;
		}
		if (top.time > until)
			break;
		s->heap[0] = s->heap[--s->heap_len];
		if (s->heap_len)
			sift_down(s->heap, s->heap_len, 0);
		top.ev->pending = false;
		s->live--;
		s->now = top.time;
		sim_trace_mix(s, top.time);
		sim_trace_mix(s, top.seq);
		s->executed++;
		n++;
		top.ev->fn(s, top.ev);
		if (s->stop)
			return n;
	}
	if (until != SIM_TIME_MAX && until > s->now)
		s->now = until;
	return n;
}
