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


static void send_fn(struct sim *s, struct sim_event *ev)
{
	struct ping *p = ev->arg;
	struct net_build b;
	ssize_t n;

	load_build_peer(&b, p->dut_mac, 1);
	b.icmp_type = 8;
	b.ip_id = PING_ID;
	b.seq = p->sent;
	b.payload_len = (uint16_t)p->cfg.size;
	n = net_build_frame(&b, p->frame, sizeof(p->frame));
	if (n > 0) {
		p->t_sent[p->sent] = sim_now(s);
		load_wire_peer_send(p->wire, p->frame, (size_t)n);
	}
	if (++p->sent < p->cfg.count)
		sim_schedule_in(s, ev, p->cfg.interval);
}

int ping_init(struct ping *p, const struct ping_cfg *cfg, struct sim *sim,
	      struct load_wire *wire, const uint8_t *dut_mac)
{
	if (!cfg->count || cfg->count > PING_MAX || !cfg->interval ||
	    cfg->size < 8 || cfg->size > 1472)
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
	return 0;
}

void ping_start(struct ping *p, sim_time_t at)
{
	sim_schedule_at(p->sim, &p->ev, at);
}

void ping_fini(struct ping *p)
{
	sim_cancel(p->sim, &p->ev);
	sim_purge(p->sim);
	free(p->t_sent);
	p->t_sent = NULL;
}

bool ping_peer_rx(struct ping *p, const uint8_t *f, size_t len)
{
	unsigned ihl, seq;
	double ms;

	if (len < 14 + 20 + 8 || f[12] != 0x08 || f[13] != 0x00 || f[14 + 9] != 1)
		return false;
	ihl = (f[14] & 15u) * 4;
	if (len < 14 + ihl + 8 || f[14 + ihl] != 0 ||
	    (f[14 + ihl + 4] << 8 | f[14 + ihl + 5]) != PING_ID)
		return false;
	seq = (unsigned)(f[14 + ihl + 6] << 8 | f[14 + ihl + 7]);
	if (seq >= p->sent)
		return true;    /* not one we sent (or a duplicate later) */
	ms = (double)(sim_now(p->sim) - p->t_sent[seq]) / 1e6;
	if (!p->received || ms < p->min_ms)
		p->min_ms = ms;
	if (!p->received || ms > p->max_ms)
		p->max_ms = ms;
	p->received++;
	p->sum_ms += ms;
	p->sum2_ms += ms * ms;
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

	if (skb->protocol != ETH_P_IP || skb->len < 28 || ip[9] != 1)
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
