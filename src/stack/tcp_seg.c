// SPDX-License-Identifier: MIT
/* tcp_seg.c - TCP segment frames; see tcp_seg.h. */
#include "stack/tcp_seg.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "net/net_build.h"

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t stack_tuple_hash(const struct stack_tuple *t)
{
	uint64_t h = t->saddr;

	h = h * 0x9E3779B97F4A7C15ull ^ t->daddr;
	h = h * 0x9E3779B97F4A7C15ull ^ ((uint32_t)t->sport << 16 | t->dport);
	h *= 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 32);
}

void tcp_endpoint_prepare(struct tcp_endpoint *ep)
{
	memset(&ep->tmpl_for, 0, sizeof(ep->tmpl_for));
	memcpy(ep->tmpl_for.smac, ep->smac, 6);
	memcpy(ep->tmpl_for.dmac, ep->dmac, 6);
	ep->tmpl_for.t = ep->t;
	net_tcp4_tmpl_init(&ep->tmpl, ep->smac, ep->dmac, ep->t.saddr, ep->t.daddr,
			   ep->t.sport, ep->t.dport);
	ep->tmpl_ok = true;
}

/* The MACs and the tuple lie back to back, in the endpoint as in
 * tmpl_for: one 24-byte compare (three words) per segment built. */
_Static_assert(offsetof(struct tcp_endpoint, t) == 12 &&
	       sizeof(struct stack_tuple) == 12 &&
	       offsetof(struct tcp_endpoint, tmpl_for.t) -
	       offsetof(struct tcp_endpoint, tmpl_for) == 12 &&
	       offsetof(struct tcp_endpoint, tmpl_for.smac) ==
	       offsetof(struct tcp_endpoint, tmpl_for),
	       "tcp_endpoint: MACs and tuple contiguous");

static bool tmpl_current(const struct tcp_endpoint *ep)
{
	return ep->tmpl_ok && !memcmp(&ep->tmpl_for, ep->smac, 24);
}

static ssize_t seg_build(const struct tcp_seg_tx *d, uint8_t *buf, size_t cap,
			 bool hdr_only)
{
	uint8_t opt[12];
	struct net_build b;

	if (tmpl_current(d->ep)) {
		struct net_tcp4_seg g = {
			.ip_id = d->ip_id, .seq = d->seq, .ack = d->ack,
			.flags = d->flags ? d->flags : TCP_ACK, .win = d->win,
			.ts = d->ts, .tsval = d->tsval, .tsecr = d->tsecr,
			.payload_len = d->payload_len, .payload_seed = d->payload_seed,
			.hdr_only = hdr_only,
		};
		ssize_t n = net_tcp4_tmpl_frame(&d->ep->tmpl, &g, buf, cap);

		if (n >= 0)
			return n;
		/* the long way says why not */
	}

	net_build_init(&b);
	memcpy(b.smac, d->ep->smac, 6);
	memcpy(b.dmac, d->ep->dmac, 6);
	wr32(b.src, d->ep->t.saddr);
	wr32(b.dst, d->ep->t.daddr);
	b.df = true;
	b.ip_id = d->ip_id;
	b.sport = d->ep->t.sport;
	b.dport = d->ep->t.dport;
	b.seq = d->seq;
	b.ack = d->ack;
	b.tcp_flags = d->flags ? d->flags : TCP_ACK;
	b.tcp_win_set = true;
	b.tcp_win = d->win;
	if (d->ts) {
		/* NOP, NOP, kind 8 length 10, TSval, TSecr (RFC 7323 §3.2) */
		opt[0] = 1;
		opt[1] = 1;
		opt[2] = 8;
		opt[3] = 10;
		wr32(opt + 4, d->tsval);
		wr32(opt + 8, d->tsecr);
		b.tcp_opt = opt;
		b.tcp_opt_len = sizeof(opt);
	}
	b.payload_len = d->payload_len;
	b.payload_seed = d->payload_seed;
	return net_build_frame(&b, buf, cap);
}

ssize_t tcp_seg_build(const struct tcp_seg_tx *d, uint8_t *buf, size_t cap)
{
	return seg_build(d, buf, cap, false);
}

ssize_t tcp_seg_build_hdr(const struct tcp_seg_tx *d, uint8_t *buf, size_t cap)
{
	return seg_build(d, buf, cap, true);
}

/* Walk the option list for Timestamps (RFC 9293 §3.1 option format). */
static void parse_opts(const uint8_t *o, size_t len, struct tcp_seg *s)
{
	size_t i = 0;

	/* the layout every Linux segment with timestamps carries (NOP, NOP,
	 * TS: RFC 7323 Appendix A): read it without the walk */
	if (len == 12 && o[0] == 1 && o[1] == 1 && o[2] == 8 && o[3] == 10) {
		s->has_ts = true;
		s->tsval = rd32(o + 4);
		s->tsecr = rd32(o + 8);
		return;
	}
	while (i < len) {
		if (o[i] == 0)
			return;
		if (o[i] == 1) {
			i++;
			continue;
		}
		if (i + 1 >= len || o[i + 1] < 2 || i + o[i + 1] > len)
			return;
		if (o[i] == 8 && o[i + 1] == 10) {
			s->has_ts = true;
			s->tsval = rd32(o + i + 2);
			s->tsecr = rd32(o + i + 6);
		}
		i += o[i + 1];
	}
}

int tcp_seg_parse_ip(const uint8_t *ip, size_t len, struct tcp_seg *s)
{
	size_t ihl, tot, doff;
	const uint8_t *th;

	memset(s, 0, sizeof(*s));
	if (len < 20)
		return -EINVAL;
	if (ip[0] >> 4 != 4)
		return -EPROTONOSUPPORT;
	ihl = (size_t)(ip[0] & 15) * 4;
	tot = rd16(ip + 2);
	if (ihl < 20 || tot < ihl || tot > len)
		return -EINVAL;
	if (ip[9] != 6 || (rd16(ip + 6) & 0x1fff))
		return -EPROTONOSUPPORT;
	if (tot < ihl + 20)
		return -EINVAL;
	th = ip + ihl;
	doff = (size_t)(th[12] >> 4) * 4;
	if (doff < 20 || ihl + doff > tot)
		return -EINVAL;
	s->t.saddr = rd32(ip + 12);
	s->t.daddr = rd32(ip + 16);
	s->t.sport = rd16(th);
	s->t.dport = rd16(th + 2);
	s->seq = rd32(th + 4);
	s->ack = rd32(th + 8);
	s->flags = th[13];
	s->win = rd16(th + 14);
	parse_opts(th + 20, doff - 20, s);
	s->payload_off = (uint16_t)(ihl + doff);
	s->payload_len = (uint32_t)(tot - ihl - doff);
	return 0;
}

int tcp_seg_parse_eth(const uint8_t *frame, size_t len, struct tcp_seg *s)
{
	int rc;

	if (len < 14) {
		memset(s, 0, sizeof(*s));
		return -EINVAL;
	}
	if (rd16(frame + 12) != 0x0800) {
		memset(s, 0, sizeof(*s));
		return -EPROTONOSUPPORT;
	}
	rc = tcp_seg_parse_ip(frame + 14, len - 14, s);
	if (!rc)
		s->payload_off = (uint16_t)(s->payload_off + 14);
	return rc;
}
