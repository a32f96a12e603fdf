// SPDX-License-Identifier: MIT
/* stack_gro.c - GRO for one NAPI context; see stack_gro.h. */
#include <linux/skbuff.h>

#include "stack/stack_gro.h"

#include <errno.h>
#include <string.h>

#include "sim/sim_host.h"

#define FINAL_FLAGS (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)

void stack_gro_params_default(struct stack_gro_params *p)
{
	p->buckets = GRO_HASH_BUCKETS;
	p->per_bucket = MAX_GRO_SKBS;
	p->max_size = GRO_MAX_SIZE;
	p->max_segs = 65535;
}

int stack_gro_init(struct stack_gro *g, const struct stack_gro_params *p,
		   struct sim *sim, struct sim_host *host,
		   stack_pkt_fn deliver, void *arg)
{
	memset(g, 0, sizeof(*g));
	if (p)
		g->p = *p;
	else
		stack_gro_params_default(&g->p);
	if (!g->p.buckets || g->p.buckets > GRO_HASH_BUCKETS ||
	    (g->p.buckets & (g->p.buckets - 1)) || !g->p.per_bucket ||
	    g->p.per_bucket > MAX_GRO_SKBS || !g->p.max_segs ||
	    g->p.max_size > GRO_MAX_SIZE)
		return -EINVAL;
	g->sim = sim;
	g->host = host;
	g->deliver = deliver;
	g->deliver_arg = arg;
	return 0;
}

static void up(struct stack_gro *g, struct stack_pkt *pkt)
{
	g->st.packets++;
	if (g->host)
		sim_charge(g->host, SIM_COST_gro_flush, 1);
	g->deliver(g->deliver_arg, pkt);
}

_Static_assert(GRO_HASH_BUCKETS * MAX_GRO_SKBS <= 64,
	       "used_map has a bit per held packet");

static uint64_t held_bit(const struct stack_gro *g, const struct stack_gro_held *h)
{
	return 1ull << (h - &g->held[0][0]);
}

static void flush_one(struct stack_gro *g, struct stack_gro_held *h)
{
	struct stack_pkt pkt = h->pkt;

	h->used = false;
	g->used_map &= ~held_bit(g, h);
	g->count--;
	up(g, &pkt);
}

static bool same_opts(const struct tcp_seg *a, const struct tcp_seg *b)
{
	return a->has_ts == b->has_ts &&
	       (!a->has_ts || (a->tsval == b->tsval && a->tsecr == b->tsecr));
}

/* May @seg (payload > 0) join the packet held in @h? */
static bool can_merge(const struct stack_gro *g,
		      const struct stack_gro_held *h, const struct tcp_seg *seg)
{
	const struct tcp_seg *f = &h->pkt.seg;

	return seg->seq == h->next_seq && seg->ack == f->ack &&
	       !((seg->flags ^ f->flags) & ~(TCP_PSH | TCP_FIN)) &&
	       !(seg->flags & TCP_CWR) && same_opts(seg, f) &&
	       seg->payload_len <= h->seg_size &&
	       h->ip_len + seg->payload_len < g->p.max_size &&
	       h->pkt.segs < g->p.max_segs;
}

static void pass_up(struct stack_gro *g, struct sk_buff *skb,
		    const struct tcp_seg *seg, bool tcp)
{
	struct stack_pkt pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.skb = skb;
	pkt.tcp = tcp;
	if (tcp)
		pkt.seg = *seg;
	pkt.segs = 1;
	pkt.wire_len = skb->len;
	g->st.passthrough++;
	up(g, &pkt);
}

void stack_gro_receive(struct stack_gro *g, struct sk_buff *skb)
{
	struct stack_gro_held *bucket, *h = NULL, *slot = NULL, *old = NULL;
	struct tcp_seg seg;
	uint32_t hash, ip_len;
	unsigned i;

	g->st.segments++;
	if (g->host)
		sim_charge(g->host, SIM_COST_gro_segment, 1);
	if (tcp_seg_parse_ip(skb->data, skb->len, &seg)) {
		g->st.not_tcp++;
		pass_up(g, skb, NULL, false);
		return;
	}
	ip_len = seg.payload_off + seg.payload_len;
	hash = skb->hash ? skb->hash : stack_tuple_hash(&seg.t);
	bucket = g->held[hash & (g->p.buckets - 1)];
	{
		/* the bucket's held packets, the last one matching */
		uint64_t m = (g->used_map >> (hash & (g->p.buckets - 1)) * MAX_GRO_SKBS) &
			     ((1ull << MAX_GRO_SKBS) - 1);

		for (; m; m &= m - 1) {
			i = (unsigned)__builtin_ctzll(m);
			if (stack_tuple_eq(&bucket[i].pkt.seg.t, &seg.t))
				h = &bucket[i];
		}
	}
	if (h && seg.payload_len && can_merge(g, h, &seg)) {
		h->pkt.seg.payload_len += seg.payload_len;
		h->pkt.seg.flags |= seg.flags;
		h->pkt.segs++;
		h->pkt.wire_len += ip_len;
		h->ip_len += seg.payload_len;
		h->next_seq += seg.payload_len;
		g->st.merged++;
		consume_skb(skb);
		if ((seg.flags & FINAL_FLAGS) || seg.payload_len < h->seg_size) {
			g->st.flush_final++;
			flush_one(g, h);
		}
		return;
	}
	if (h) {
		g->st.flush_mismatch++;
		flush_one(g, h);
	}
	if (!seg.payload_len || (seg.flags & FINAL_FLAGS)) {
		pass_up(g, skb, &seg, true);
		return;
	}
	for (i = 0; i < g->p.per_bucket; i++) {
		if (!bucket[i].used) {
			slot = &bucket[i];
			break;
		}
		if (!old || bucket[i].age < old->age)
			old = &bucket[i];
	}
	if (!slot) {
		g->st.flush_evict++;
		flush_one(g, old);
		slot = old;
	}
	memset(slot, 0, sizeof(*slot));
	slot->used = true;
	g->used_map |= held_bit(g, slot);
	slot->pkt.skb = skb;
	slot->pkt.tcp = true;
	slot->pkt.seg = seg;
	slot->pkt.segs = 1;
	slot->pkt.wire_len = ip_len;
	slot->next_seq = seg.seq + seg.payload_len;
	slot->seg_size = seg.payload_len;
	slot->ip_len = ip_len;
	slot->age = g->next_age++;
	slot->when = g->sim ? sim_now(g->sim) : 0;
	g->count++;
}

/* The oldest held packet, optionally only if it arrived by @before. */
static struct stack_gro_held *oldest(struct stack_gro *g, bool bounded,
				     sim_time_t before)
{
	struct stack_gro_held *best = NULL, *h;

	for (uint64_t m = g->used_map; m; m &= m - 1) {
		h = &g->held[0][0] + __builtin_ctzll(m);
		if (bounded && h->when > before)
			continue;
		if (!best || h->age < best->age)
			best = h;
	}
	return best;
}

void stack_gro_flush(struct stack_gro *g)
{
	struct stack_gro_held *h;

	while (g->count && (h = oldest(g, false, 0))) {
		g->st.flush_poll++;
		flush_one(g, h);
	}
}

void stack_gro_flush_old(struct stack_gro *g, sim_time_t age)
{
	struct stack_gro_held *h;
	sim_time_t now = g->sim ? sim_now(g->sim) : SIM_TIME_MAX;
	bool bounded = g->sim != NULL;

	if (bounded && now < age)
		return;
	while (g->count && (h = oldest(g, bounded, now - age))) {
		g->st.flush_poll++;
		flush_one(g, h);
	}
}

void stack_gro_fini(struct stack_gro *g)
{
	unsigned b, i;

	for (b = 0; b < GRO_HASH_BUCKETS; b++) {
		for (i = 0; i < MAX_GRO_SKBS; i++) {
			if (g->held[b][i].used) {
				kfree_skb(g->held[b][i].pkt.skb);
				g->held[b][i].used = false;
			}
		}
	}
	g->used_map = 0;
	g->count = 0;
}

double stack_gro_efficiency(const struct stack_gro *g)
{
	return g->st.packets ? (double)g->st.segments / g->st.packets : 0;
}
