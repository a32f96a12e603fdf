// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kern/kern.h"
#include "load/load_ping.h"
#include "load/load_addr.h"
#include "net/net_build.h"

#define PING_ID 0x5249          /* "RI" */


/* from_host: the ping process sends each request the timer released,
 * then sleeps until the next. */
static enum sim_task_ret ping_task_run(struct sim_task *t, void *arg)
{
	struct ping *p = arg;
	struct net_build b;
	struct sk_buff *skb;
	ssize_t n;

	(void)t;
	if (p->sent >= p->due) {
		p->task_waiting = true;
		return SIM_TASK_SLEEP;
	}
	net_build_init(&b);
	memcpy(b.dmac, load_peer_mac, 6);
	memcpy(b.smac, p->dev->dev_addr, 6);
	b.ipv = 4;
	memcpy(b.src, load_host_ip, 4);
	memcpy(b.dst, load_peer_ip, 4);
	b.proto = 1;
	b.icmp_type = 8;
	b.ip_id = PING_ID;
	b.seq = p->sent;
	b.payload_len = (uint16_t)p->cfg.size;
	n = net_build_frame(&b, p->frame, sizeof(p->frame));
	sim_charge(p->host, SIM_COST_sock_write, 1);
	sim_charge(p->host, SIM_COST_icmp_xmit, 1);
	/* ping reads the clock just before sendmsg() */
	p->t_sent[p->sent++] = sim_now(p->sim);
	skb = n > 0 ? alloc_skb((unsigned)n, GFP_KERNEL) : NULL;
	if (!skb) {
		p->tx_fail++;
	} else {
		memcpy(skb_put(skb, (unsigned)n), p->frame, (size_t)n);	/* cost in icmp_xmit */
		skb->dev = p->dev;
		skb->queue_mapping = 0;
		if (dev_queue_xmit(skb))
			p->tx_fail++;
	}
	return SIM_TASK_RUNNABLE;
}

static void send_fn(struct sim *s, struct sim_event *ev)
{
	struct ping *p = ev->arg;
	struct net_build b;
	ssize_t n;

	if (p->cfg.from_host) {
		/* the interval timer: release one request to the task */
		p->due++;
		if (p->task_waiting) {
			p->task_waiting = false;
			sim_task_wake(&p->task);
		}
		if (p->due < p->cfg.count)
			sim_schedule_in(s, ev, p->cfg.interval);
		return;
	}

	load_build_peer(&b, p->dut_mac, 1);
	b.icmp_type = 8;
	b.ip_id = PING_ID;
	b.seq = p->sent;
	b.payload_len = (uint16_t)p->cfg.size;
	n = net_build_frame(&b, p->frame, sizeof(p->frame));
	if (n > 0) {
		p->t_sent[p->sent] = sim_now(s);
		p->peer_frames++;
		load_wire_peer_send(p->wire, p->frame, (size_t)n);
	}
	if (++p->sent < p->cfg.count)
		sim_schedule_in(s, ev, p->cfg.interval);
}

/* The peer's reply leaves now. */
static void reply_fn(struct sim *s, struct sim_event *ev)
{
	struct ping_reply *r = ev->arg;

	(void)s;
	r->p->peer_frames++;
	load_wire_peer_send(r->p->wire, r->frame, r->len);
}

int ping_init(struct ping *p, const struct ping_cfg *cfg, struct sim *sim,
	      struct load_wire *wire, const uint8_t *dut_mac,
	      struct sim_host *host, struct net_device *dev)
{
	if (!cfg->count || cfg->count > PING_MAX || !cfg->interval ||
	    cfg->size < 8 || cfg->size > 1472 || (cfg->from_host && (!host || !dev)))
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->sim = sim;
	p->wire = wire;
	p->dut_mac = dut_mac;
	p->t_sent = calloc(cfg->count, sizeof(*p->t_sent));
	if (!p->t_sent)
		return -ENOMEM;
	sim_event_init(&p->ev, send_fn, p);
	if (cfg->from_host) {
		struct sim_cpuset all;

		p->host = host;
		p->dev = dev;
		if (!p->cfg.peer_reply_ns)
			p->cfg.peer_reply_ns = PING_PEER_REPLY_NS;
		for (unsigned i = 0; i < PING_PEER_PENDING; i++) {
			p->reply[i].p = p;
			sim_event_init(&p->reply[i].ev, reply_fn, &p->reply[i]);
		}
		sim_cpuset_first_n(&all, host->params.ncpus);
		sim_task_init(host, &p->task, "ping", ping_task_run, p, &all);
		p->task_up = true;
		p->task_waiting = true;
	}
	return 0;
}

void ping_start(struct ping *p, sim_time_t at)
{
	sim_schedule_at(p->sim, &p->ev, at);
}

void ping_fini(struct ping *p)
{
	sim_cancel(p->sim, &p->ev);
	for (unsigned i = 0; p->cfg.from_host && i < PING_PEER_PENDING; i++)
		sim_cancel(p->sim, &p->reply[i].ev);
	if (p->task_up)
		sim_task_fini(&p->task);
	p->task_up = false;
	sim_purge(p->sim);
	free(p->t_sent);
	p->t_sent = NULL;
}

/* Take an RTT sample of @ms for sequence @seq. */
static void rtt_sample(struct ping *p, double ms)
{
	if (!p->received || ms < p->min_ms)
		p->min_ms = ms;
	if (!p->received || ms > p->max_ms)
		p->max_ms = ms;
	p->received++;
	p->sum_ms += ms;
	p->sum2_ms += ms * ms;
}

/* from_host: the peer answers the host's request @f after its
 * turnaround: the reply is the request with addresses swapped, type 0. */
static void peer_answer(struct ping *p, const uint8_t *f, size_t len, unsigned ihl)
{
	unsigned i = p->reply_next;
	uint8_t *o;
	uint16_t c;

	if (len > sizeof(p->reply[i].frame) || sim_event_pending(&p->reply[i].ev)) {
		p->peer_busy++;
		return;
	}
	p->reply_next = (i + 1) % PING_PEER_PENDING;
	o = p->reply[i].frame;
	memcpy(o, f, len);
	memcpy(o, f + 6, 6);
	memcpy(o + 6, f, 6);
	memcpy(o + 14 + 12, f + 14 + 16, 4);
	memcpy(o + 14 + 16, f + 14 + 12, 4);
	o[14 + ihl] = 0;
	o[14 + ihl + 2] = o[14 + ihl + 3] = 0;
	c = net_csum_fold(o + 14 + ihl, len - 14 - ihl, 0);
	o[14 + ihl + 2] = (uint8_t)(c >> 8);
	o[14 + ihl + 3] = (uint8_t)c;
	p->reply[i].len = len;
	sim_schedule_in(p->sim, &p->reply[i].ev, p->cfg.peer_reply_ns);
}

bool ping_peer_rx(struct ping *p, const uint8_t *f, size_t len)
{
	unsigned ihl, seq;
	double ms;

	if (len < 14 + 20 + 8 || f[12] != 0x08 || f[13] != 0x00 || f[14 + 9] != 1)
		return false;
	ihl = (f[14] & 15u) * 4;
	if (p->cfg.from_host) {
		if (len < 14 + ihl + 8 || f[14 + ihl] != 8 ||
		    (f[14 + ihl + 4] << 8 | f[14 + ihl + 5]) != PING_ID)
			return false;
		peer_answer(p, f, len, ihl);
		return true;
	}
	if (len < 14 + ihl + 8 || f[14 + ihl] != 0 ||
	    (f[14 + ihl + 4] << 8 | f[14 + ihl + 5]) != PING_ID)
		return false;
	seq = (unsigned)(f[14 + ihl + 6] << 8 | f[14 + ihl + 7]);
	if (seq >= p->sent)
		return true;    /* not one we sent (or a duplicate later) */
	ms = (double)(sim_now(p->sim) - p->t_sent[seq]) / 1e6;
	rtt_sample(p, ms);
	return true;
}

bool ping_host_reply_rx(struct ping *p, struct sk_buff *skb)
{
	const uint8_t *ip = skb->data;
	unsigned ihl, seq;

	if (!p->cfg.from_host || skb->protocol != htons(ETH_P_IP) || skb->len < 28 ||
	    ip[9] != 1)
		return false;
	ihl = (ip[0] & 15u) * 4;
	if (ihl < 20 || skb->len < ihl + 8 || ip[ihl] != 0 ||
	    (ip[ihl + 4] << 8 | ip[ihl + 5]) != PING_ID)
		return false;
	kern_charge(SIM_COST_icmp_rcv);
	seq = (unsigned)(ip[ihl + 6] << 8 | ip[ihl + 7]);
	if (seq < p->sent)
		rtt_sample(p, (double)(sim_now(p->sim) - p->t_sent[seq]) / 1e6);
	kern_charge(SIM_COST_sock_wakeup);
	consume_skb(skb);
	return true;
}

bool ping_stats(const struct ping *p, double *min, double *avg, double *max,
		double *mdev)
{
	double a, v;

	if (!p->received)
		return false;
	a = p->sum_ms / p->received;
	v = p->sum2_ms / p->received - a * a;
	*min = p->min_ms;
	*avg = a;
	*max = p->max_ms;
	*mdev = v > 0 ? sqrt(v) : 0;
	return true;
}

bool ping_host_rx(struct net_device *dev, struct sk_buff *skb)
{
	const uint8_t *ip = skb->data, *mac = skb_mac_header(skb);
	unsigned ihl, len;
	struct sk_buff *r;
	uint8_t *o;
	uint16_t c;

	if (skb->protocol != htons(ETH_P_IP) || skb->len < 28 || ip[9] != 1)
		return false;
	ihl = (ip[0] & 15u) * 4;
	len = (unsigned)(ip[2] << 8 | ip[3]);
	if (ihl < 20 || len < ihl + 8 || len > skb->len || ip[ihl] != 8)
		return false;
	kern_charge(SIM_COST_icmp_rcv);
	r = alloc_skb(ETH_HLEN + len, GFP_ATOMIC);
	if (!r) {
		kfree_skb(skb);
		return true;
	}
	kern_charge(SIM_COST_icmp_xmit);
	o = skb_put(r, ETH_HLEN + len);
	memcpy(o, mac + 6, 6);                  /* back to the sender */
	memcpy(o + 6, dev->dev_addr, 6);
	o[12] = 0x08;
	o[13] = 0x00;
	memcpy(o + 14, ip, len);
	memcpy(o + 14 + 12, ip + 16, 4);        /* swap addresses */
	memcpy(o + 14 + 16, ip + 12, 4);
	o[14 + 8] = 64;                         /* TTL */
	o[14 + 10] = o[14 + 11] = 0;
	c = net_csum_fold(o + 14, ihl, 0);
	o[14 + 10] = (uint8_t)(c >> 8);
	o[14 + 11] = (uint8_t)c;
	o[14 + ihl] = 0;                        /* echo reply */
	o[14 + ihl + 2] = o[14 + ihl + 3] = 0;
	c = net_csum_fold(o + 14 + ihl, len - ihl, 0);
	o[14 + ihl + 2] = (uint8_t)(c >> 8);
	o[14 + ihl + 3] = (uint8_t)c;
	r->dev = dev;
	r->queue_mapping = 0;
	consume_skb(skb);
	dev_queue_xmit(r);
	return true;
}
