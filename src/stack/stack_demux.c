// SPDX-License-Identifier: MIT
/* stack_demux.c - 4-tuple socket lookup; see stack_demux.h. */
#include <linux/skbuff.h>

#include "stack/stack_demux.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host.h"

void stack_demux_init(struct stack_demux *d, struct sim_host *host)
{
	memset(d, 0, sizeof(*d));
	d->host = host;
}

void stack_demux_fini(struct stack_demux *d)
{
	free(d->socks);
	d->socks = NULL;
	d->n = d->cap = 0;
}

static struct stack_demux_sock *find(struct stack_demux *d,
				     const struct stack_tuple *t)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (stack_tuple_eq(&d->socks[i].t, t))
			return &d->socks[i];
	return NULL;
}

int stack_demux_add(struct stack_demux *d, const struct stack_tuple *t,
		    stack_pkt_fn rx, void *arg)
{
	struct stack_demux_sock *n;
	size_t cap;

	if (find(d, t))
		return -EEXIST;
	if (d->n == d->cap) {
		cap = d->cap ? 2 * d->cap : 16;
		n = realloc(d->socks, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		d->socks = n;
		d->cap = cap;
	}
	n = &d->socks[d->n++];
	memset(n, 0, sizeof(*n));
	n->t = *t;
	n->rx = rx;
	n->arg = arg;
	return 0;
}

int stack_demux_del(struct stack_demux *d, const struct stack_tuple *t)
{
	struct stack_demux_sock *s = find(d, t);

	if (!s)
		return -ENOENT;
	*s = d->socks[--d->n];
	return 0;
}

double stack_misses_per_kb(size_t conns)
{
	static const struct { double conns, misses; } pt[] = {
		{ 6, 1.83 }, { 192, 4.08 }, { 16384, 18.49 },
	};
	const unsigned n = sizeof(pt) / sizeof(pt[0]);

	if ((double)conns <= pt[0].conns)
		return pt[0].misses;
	for (unsigned i = 1; i < n; i++) {
		if ((double)conns <= pt[i].conns) {
			double f = log((double)conns / pt[i - 1].conns) /
				   log(pt[i].conns / pt[i - 1].conns);

			return pt[i - 1].misses + f * (pt[i].misses - pt[i - 1].misses);
		}
	}
	return pt[n - 1].misses;
}

void stack_demux_input(void *arg, struct stack_pkt *pkt)
{
	struct stack_demux *d = arg;
	struct stack_demux_sock *s;

	d->st.pkts++;
	d->st.segs += pkt->segs;
	if (d->host)
		sim_charge(d->host, SIM_COST_ip_rcv, 1);
	if (!pkt->tcp) {
		d->st.not_tcp++;
		if (pkt->skb)
			kfree_skb(pkt->skb);
		return;
	}
	s = find(d, &pkt->seg.t);
	if (!s) {
		d->st.no_socket++;
		d->st.no_socket_segs += pkt->segs;
		if (pkt->skb)
			kfree_skb(pkt->skb);
		return;
	}
	s->pkts++;
	s->segs += pkt->segs;
	d->st.delivered++;
	if (d->host && pkt->seg.payload_len)
		sim_charge_misses(d->host, stack_misses_per_kb(d->n) *
				  pkt->seg.payload_len / 1024.0);
	s->rx(s->arg, pkt);
	if (pkt->skb)
		consume_skb(pkt->skb);
}
