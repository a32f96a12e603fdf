/* SPDX-License-Identifier: MIT */
/*
 * test_stack.c - the host stack model (src/stack): segment frames, the
 * TCP receiver's ACK rules, GRO, demux, and the TCP sender's dynamics end
 * to end over a simulated link (loopback harness below).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/skbuff.h>

#include "bed/bed_host.h"
#include "net/net_build.h"
#include "sim/sim_host.h"
#include "stack/stack_demux.h"
#include "stack/stack_gro.h"
#include "stack/tcp_receiver.h"
#include "stack/tcp_sender.h"

#define MSS TCP_MSS_TS

static const struct tcp_endpoint EP_A = {	/* the sender (peer) */
	.smac = { 2, 0, 0, 0, 0, 0xa },
	.dmac = { 2, 0, 0, 0, 0, 0xb },
	.t = { 0x0a000002, 0x0a000001, 40000, 5201 },
};
static const struct tcp_endpoint EP_B = {	/* the receiver (host) */
	.smac = { 2, 0, 0, 0, 0, 0xb },
	.dmac = { 2, 0, 0, 0, 0, 0xa },
	.t = { 0x0a000001, 0x0a000002, 5201, 40000 },
};
#define ISN_A 0xfffff000u	/* wraps early: sequence arithmetic */
#define ISN_B 0x12345678u

/* ------------------------------------------------------------------ */
/* A simulated host + kernel so skbs can be allocated: the testbed's.  */

static void kfx_init(struct bed_host *k)
{
	struct sim_host_params p;

	sim_host_params_default(&p, 1);
	assert_int_equal(bed_host_up(k, &p, 1), 0);
}

static void kfx_fini(struct bed_host *k)
{
	assert_int_equal(k->k.skbs_live, 0);
	bed_host_down(k);
}

/* An skb holding @frame after eth_type_trans: data at the IP header. */
static struct sk_buff *frame_skb(const uint8_t *frame, size_t len,
				 uint32_t hash)
{
	struct sk_buff *skb = alloc_skb((unsigned)len, GFP_ATOMIC);

	assert_non_null(skb);
	skb_put_data(skb, frame, (unsigned)len);
	skb_pull(skb, ETH_HLEN);
	skb->protocol = htons(ETH_P_IP);
	if (hash)
		skb_set_hash(skb, hash, PKT_HASH_TYPE_L4);
	return skb;
}

/* Build a data segment of flow @ep at stream offset @off. */
static size_t data_frame(uint8_t *buf, const struct tcp_endpoint *ep,
			 uint32_t isn, uint64_t off, uint32_t len,
			 uint8_t flags, uint32_t tsval)
{
	struct tcp_seg_tx d = {
		.ep = ep, .seq = isn + (uint32_t)off, .ack = ISN_B,
		.flags = flags, .win = 1000, .ts = true, .tsval = tsval,
		.tsecr = 5, .payload_len = (uint16_t)len,
		.payload_seed = (uint8_t)off,
	};
	ssize_t n = tcp_seg_build(&d, buf, TCP_FRAME_MAX + 64);

	assert_true(n > 0);
	return (size_t)n;
}

/* ------------------------------------------------------------------ */
/* Segment frames                                                     */

/* The per-flow template gives net_build_frame's bytes (and its errors)
 * on random segments: with and without Timestamps, any flags, payload
 * lengths 0..1600 (past the payload-sum table), short buffers. */
static uint64_t tmpl_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void tmpl_fill(uint64_t *s, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(tmpl_rand(s) >> 56);
}

static void test_seg_template(void **state)
{
	static uint8_t a[2048], b[2048];
	uint64_t seed = 0x5eedf00dull;
	struct tcp_endpoint tp, plain;

	(void)state;
	for (int round = 0; round < 200; round++) {
		memset(&tp, 0, sizeof(tp));
		tmpl_fill(&seed, tp.smac, 6);
		tmpl_fill(&seed, tp.dmac, 6);
		tp.t.saddr = (uint32_t)tmpl_rand(&seed);
		tp.t.daddr = (uint32_t)tmpl_rand(&seed);
		tp.t.sport = (uint16_t)tmpl_rand(&seed);
		tp.t.dport = (uint16_t)tmpl_rand(&seed);
		plain = tp;
		tcp_endpoint_prepare(&tp);
		assert_true(tp.tmpl_ok);
		assert_false(plain.tmpl_ok);
		for (int i = 0; i < 100; i++) {
			uint64_t r = tmpl_rand(&seed);
			struct tcp_seg_tx d = {
				.seq = (uint32_t)tmpl_rand(&seed), .ack = (uint32_t)(r >> 32),
				.flags = (uint8_t)(r % 3 ? r >> 8 : 0), .win = (uint16_t)(r >> 16),
				.ts = r & 0x10000, .tsval = (uint32_t)tmpl_rand(&seed),
				.tsecr = (uint32_t)tmpl_rand(&seed),
				.payload_len = (uint16_t)(tmpl_rand(&seed) % 1601),
				.payload_seed = (uint8_t)(r >> 24), .ip_id = (uint16_t)(r >> 40),
			};
			size_t cap = i % 10 ? sizeof(a) : (size_t)(tmpl_rand(&seed) % 1600);
			ssize_t na, nb;

			d.ep = &tp;
			memset(a, 0xaa, sizeof(a));
			na = tcp_seg_build(&d, a, cap);
			d.ep = &plain;
			memset(b, 0xaa, sizeof(b));
			nb = tcp_seg_build(&d, b, cap);
			assert_int_equal(na, nb);
			if (na > 0)
				assert_memory_equal(a, b, (size_t)na);
		}
		/* an endpoint changed after its template was made is built
		 * the long way */
		tp.t.dport++;
		plain.t.dport++;
		{
			struct tcp_seg_tx d = { .ep = &tp, .payload_len = 100, .ts = true };

			assert_true(tcp_seg_build(&d, a, sizeof(a)) > 0);
			d.ep = &plain;
			assert_true(tcp_seg_build(&d, b, sizeof(b)) > 0);
			assert_memory_equal(a, b, 14 + 20 + 32 + 100);
		}
	}
}

static void test_seg_roundtrip(void **state)
{
	uint8_t buf[2048];
	struct tcp_seg s;
	struct net_build b;
	size_t n;
	ssize_t m;

	(void)state;
	n = data_frame(buf, &EP_A, ISN_A, 5000, MSS, TCP_ACK | TCP_PSH, 77);
	assert_int_equal(n, 14 + 20 + 32 + 1448);
	assert_int_equal(tcp_seg_parse_eth(buf, n, &s), 0);
	assert_true(stack_tuple_eq(&s.t, &EP_A.t));
	assert_int_equal(s.seq, ISN_A + 5000);
	assert_int_equal(s.ack, ISN_B);
	assert_int_equal(s.flags, TCP_ACK | TCP_PSH);
	assert_int_equal(s.win, 1000);
	assert_true(s.has_ts);
	assert_int_equal(s.tsval, 77);
	assert_int_equal(s.tsecr, 5);
	assert_int_equal(s.payload_len, MSS);
	assert_int_equal(s.payload_off, 14 + 20 + 32);
	assert_int_equal(buf[s.payload_off], (uint8_t)5000);
	/* a pure ACK is 66 bytes */
	n = data_frame(buf, &EP_B, ISN_B, 0, 0, 0, 1);
	assert_int_equal(n, 66);
	assert_int_equal(tcp_seg_parse_eth(buf, n, &s), 0);
	assert_int_equal(s.payload_len, 0);
	/* UDP, a non-first fragment and truncation are refused */
	net_build_init(&b);
	b.proto = 17;
	b.payload_len = 20;
	m = net_build_frame(&b, buf, sizeof(buf));
	assert_true(m > 0);
	assert_int_equal(tcp_seg_parse_eth(buf, (size_t)m, &s),
			 -EPROTONOSUPPORT);
	net_build_init(&b);
	b.frag_off = 64;
	b.payload_len = 20;
	m = net_build_frame(&b, buf, sizeof(buf));
	assert_int_equal(tcp_seg_parse_eth(buf, (size_t)m, &s),
			 -EPROTONOSUPPORT);
	n = data_frame(buf, &EP_A, ISN_A, 0, 100, 0, 1);
	assert_int_equal(tcp_seg_parse_eth(buf, 14 + 30, &s), -EINVAL);
	assert_int_equal(tcp_seg_parse_eth(buf, 10, &s), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Receiver alone: delayed ACKs, out of order, window                 */

struct acks {
	unsigned n;
	struct tcp_seg last;
	sim_time_t when[64];
	uint32_t ack[64];
	struct sim *sim;
};

static void acks_xmit(void *arg, const uint8_t *frame, size_t len)
{
	struct acks *a = arg;

	assert_int_equal(len, 66);
	assert_int_equal(tcp_seg_parse_eth(frame, len, &a->last), 0);
	assert_true(stack_tuple_eq(&a->last.t, &EP_B.t));
	if (a->n < 64) {
		a->when[a->n] = sim_now(a->sim);
		a->ack[a->n] = a->last.ack;
	}
	a->n++;
}

/* The host's end of EP_A -> EP_B with @p (its endpoint and ISNs set
 * here), ACKs into @a. */
static void rcv_init_p(struct tcp_receiver *r, struct sim *sim,
		       struct acks *a, struct tcp_receiver_params *p)
{
	p->ep = EP_B;
	p->isn = ISN_B;
	p->peer_isn = ISN_A;
	memset(a, 0, sizeof(*a));
	a->sim = sim;
	assert_int_equal(tcp_receiver_init(r, sim, NULL, p, acks_xmit, a), 0);
}

static void rcv_setup(struct tcp_receiver *r, struct sim *sim,
		      struct acks *a, uint32_t rcvbuf)
{
	struct tcp_receiver_params p;

	tcp_receiver_params_default(&p);
	if (rcvbuf)
		p.rcvbuf = rcvbuf;
	rcv_init_p(r, sim, a, &p);
}

static void rx_data(struct tcp_receiver *r, uint64_t off, uint32_t len)
{
	uint8_t buf[2048];
	size_t n = data_frame(buf, &EP_A, ISN_A, off, len, 0, 1);

	assert_int_equal(tcp_receiver_rx_frame(r, buf, n), 0);
}

static void test_delayed_ack(void **state)
{
	struct tcp_receiver r;
	struct acks a;
	struct sim sim;

	(void)state;
	sim_init(&sim);
	rcv_setup(&r, &sim, &a, 0);
	/* one ACK per two full segments, sent with the second */
	rx_data(&r, 0, MSS);
	assert_int_equal(a.n, 0);
	rx_data(&r, MSS, MSS);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.last.ack, ISN_A + 2 * MSS);
	for (unsigned i = 2; i < 20; i++)
		rx_data(&r, (uint64_t)i * MSS, MSS);
	assert_int_equal(a.n, 10);
	assert_int_equal(a.last.ack, ISN_A + 20 * MSS);
	/* an isolated segment: ACKed by the timer 40 ms later */
	sim_run_until(&sim, SIM_MS(100));
	rx_data(&r, 20 * MSS, MSS);
	assert_int_equal(a.n, 10);
	sim_run_until(&sim, SIM_MS(140) - 1);
	assert_int_equal(a.n, 10);
	sim_run_until(&sim, SIM_MS(140));
	assert_int_equal(a.n, 11);
	assert_int_equal(a.when[10], SIM_MS(140));
	assert_int_equal(a.last.ack, ISN_A + 21 * MSS);
	assert_int_equal(r.st.delack_timeouts, 1);
	/* a GRO'd run of 10 segments is ACKed once, at once */
	{
		struct tcp_seg s;
		uint8_t buf[2048];
		size_t n = data_frame(buf, &EP_A, ISN_A, 21 * MSS, MSS, 0, 1);

		assert_int_equal(tcp_seg_parse_eth(buf, n, &s), 0);
		s.payload_len = 10 * MSS;
		assert_int_equal(tcp_receiver_rx(&r, &s, 10), 0);
		assert_int_equal(a.n, 12);
		assert_int_equal(a.last.ack, ISN_A + 31 * MSS);
	}
	assert_int_equal(r.st.bytes_in, 31 * MSS);
	tcp_receiver_fini(&r);
	sim_fini(&sim);
}

static void test_out_of_order(void **state)
{
	struct tcp_receiver r;
	struct acks a;
	struct sim sim;

	(void)state;
	sim_init(&sim);
	rcv_setup(&r, &sim, &a, 0);
	rx_data(&r, 0, MSS);
	rx_data(&r, MSS, MSS);			/* ACK 2 */
	rx_data(&r, 3 * MSS, MSS);		/* hole at 2: dup ACK */
	assert_int_equal(a.n, 2);
	assert_int_equal(a.last.ack, ISN_A + 2 * MSS);
	rx_data(&r, 5 * MSS, MSS);		/* another hole: dup ACK */
	rx_data(&r, 4 * MSS, MSS);		/* fills 4: dup ACK */
	assert_int_equal(a.n, 4);
	assert_int_equal(a.last.ack, ISN_A + 2 * MSS);
	assert_int_equal(r.n_ooo, 1);
	assert_int_equal(r.ooo_bytes, 3 * MSS);
	rx_data(&r, 2 * MSS, MSS);		/* fills the hole: ACK 6 at once */
	assert_int_equal(a.n, 5);
	assert_int_equal(a.last.ack, ISN_A + 6 * MSS);
	assert_int_equal(r.n_ooo, 0);
	assert_int_equal(r.ooo_bytes, 0);
	assert_int_equal(tcp_receiver_avail(&r), 6 * MSS);
	rx_data(&r, MSS, MSS);			/* old duplicate: ACK at once */
	assert_int_equal(a.n, 6);
	assert_int_equal(r.st.old_pkts, 1);
	assert_int_equal(r.st.ooo_pkts, 3);
	/* the window: free space, scaled */
	assert_int_equal(a.last.win, ((6u << 20) - 6 * MSS) >> 7);
	assert_int_equal(tcp_receiver_read(&r, 1000), 1000);
	assert_int_equal(r.st.bytes_read, 1000);
	tcp_receiver_fini(&r);
	sim_fini(&sim);
}

/* ------------------------------------------------------------------ */
/* GRO                                                                */

struct gro_out {
	unsigned n;
	uint64_t segs, bytes;
	uint32_t first_seq[64], len[64], nsegs[64];
	struct stack_tuple t[64];
};

static void gro_out_fn(void *arg, struct stack_pkt *p)
{
	struct gro_out *o = arg;

	assert_true(p->tcp);
	if (o->n < 64) {
		o->first_seq[o->n] = p->seg.seq;
		o->len[o->n] = p->seg.payload_len;
		o->nsegs[o->n] = p->segs;
		o->t[o->n] = p->seg.t;
	}
	o->n++;
	o->segs += p->segs;
	o->bytes += p->seg.payload_len;
	consume_skb(p->skb);
}

static void gro_feed(struct stack_gro *g, const struct tcp_endpoint *ep,
		     uint64_t off, uint32_t len, uint8_t flags, uint32_t tsval,
		     uint32_t hash)
{
	uint8_t buf[2048];
	size_t n = data_frame(buf, ep, ISN_A, off, len, flags, tsval);

	stack_gro_receive(g, frame_skb(buf, n, hash));
}

/* Mean segments per packet for @nflows flows sent round-robin, one
 * segment each turn, flushed every 64 segments (a NAPI poll). */
static double gro_interleave(unsigned nflows, bool same_hash,
			     struct stack_gro_stats *st)
{
	struct tcp_endpoint ep[32];
	struct stack_gro g;
	struct gro_out o;
	struct bed_host k;
	uint64_t off[32] = { 0 };
	unsigned i, f = 0;
	double eff;

	kfx_init(&k);
	memset(&o, 0, sizeof(o));
	assert_int_equal(stack_gro_init(&g, NULL, &k.sim, k.host, gro_out_fn,
					&o), 0);
	for (i = 0; i < nflows; i++) {
		ep[i] = EP_A;
		ep[i].t.sport = (uint16_t)(40000 + i);
	}
	for (i = 0; i < 6400; i++) {
		gro_feed(&g, &ep[f], off[f], MSS, 0, 1,
			 same_hash ? 0x1234 :
			 stack_tuple_hash(&ep[f].t));
		off[f] += MSS;
		f = (f + 1) % nflows;
		if (i % 64 == 63)
			stack_gro_flush(&g);
	}
	stack_gro_flush(&g);
	assert_int_equal(o.segs, 6400);
	assert_int_equal(o.bytes, 6400ull * MSS);
	assert_int_equal(g.st.segments, 6400);
	assert_int_equal(g.count, 0);
	eff = stack_gro_efficiency(&g);
	*st = g.st;
	stack_gro_fini(&g);
	kfx_fini(&k);
	return eff;
}

/* The stack's cache misses per KB of payload: Willmann et al.'s three
 * measurements, linear in log(connections) between them, flat outside. */
static void test_misses_per_kb(void **state)
{
	(void)state;
	assert_true(stack_misses_per_kb(0) == 1.83);
	assert_true(stack_misses_per_kb(1) == 1.83);
	assert_true(stack_misses_per_kb(6) == 1.83);
	assert_true(fabs(stack_misses_per_kb(192) - 4.08) < 1e-12);
	assert_true(fabs(stack_misses_per_kb(16384) - 18.49) < 1e-12);
	assert_true(stack_misses_per_kb(1000000) == 18.49);
	/* 20 connections: 1.83 + 2.25 * log(20/6) / log(32) */
	assert_true(fabs(stack_misses_per_kb(20) - (1.83 + 2.25 * log(20.0 / 6) / log(32.0))) <
		    1e-12);
	assert_true(stack_misses_per_kb(20) > 2.6 && stack_misses_per_kb(20) < 2.62);
	assert_true(stack_misses_per_kb(1000) > 4.08 && stack_misses_per_kb(1000) < 18.49);
}

static void test_gro_interleave(void **state)
{
	struct stack_gro_stats st1, st2, st20, st20s;
	double e1, e2, e20, e20s;

	(void)state;
	e1 = gro_interleave(1, false, &st1);
	e2 = gro_interleave(2, false, &st2);
	e20 = gro_interleave(20, false, &st20);
	e20s = gro_interleave(20, true, &st20s);
	/* one flow: 45 segments make a 64 KiB packet, a poll holds 64 */
	assert_true(e1 >= 30.0);
	assert_true(e2 <= e1 && e20 < e2 && e20 < e1 / 5);
	assert_true(e20 <= 64.0 / 20 + 0.5);
	assert_int_equal(st20.flush_evict, 0);
	/* 20 flows in one bucket: the table overflows, oldest flushed */
	assert_true(st20s.flush_evict > 0);
	assert_true(e20s <= e20);
	/* the 64 KiB limit: no packet above 45 segments of 1448 */
	assert_true(st1.flush_mismatch > 0);
}

static void test_gro_rules(void **state)
{
	struct stack_gro g;
	struct gro_out o;
	struct bed_host k;

	(void)state;
	kfx_init(&k);
	memset(&o, 0, sizeof(o));
	assert_int_equal(stack_gro_init(&g, NULL, &k.sim, NULL, gro_out_fn,
					&o), 0);
	/* 0 1 2 | gap | 4 5 6(PSH) | 7 */
	gro_feed(&g, &EP_A, 0 * MSS, MSS, 0, 1, 0);
	gro_feed(&g, &EP_A, 1 * MSS, MSS, 0, 1, 0);
	gro_feed(&g, &EP_A, 2 * MSS, MSS, 0, 1, 0);
	assert_int_equal(o.n, 0);
	gro_feed(&g, &EP_A, 4 * MSS, MSS, 0, 1, 0);
	assert_int_equal(o.n, 1);			/* the gap flushed */
	assert_int_equal(o.nsegs[0], 3);
	assert_int_equal(o.first_seq[0], ISN_A);
	assert_int_equal(o.len[0], 3 * MSS);
	gro_feed(&g, &EP_A, 5 * MSS, MSS, 0, 1, 0);
	gro_feed(&g, &EP_A, 6 * MSS, MSS, TCP_ACK | TCP_PSH, 1, 0);
	assert_int_equal(o.n, 2);			/* PSH ends it */
	assert_int_equal(o.nsegs[1], 3);
	assert_int_equal(o.first_seq[1], ISN_A + 4 * MSS);
	gro_feed(&g, &EP_A, 7 * MSS, MSS, 0, 1, 0);
	assert_int_equal(o.n, 2);
	/* a new TSval does not merge */
	gro_feed(&g, &EP_A, 8 * MSS, MSS, 0, 2, 0);
	assert_int_equal(o.n, 3);
	assert_int_equal(o.nsegs[2], 1);
	/* a short segment is merged and ends the packet */
	gro_feed(&g, &EP_A, 9 * MSS, 100, 0, 2, 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(o.len[3], MSS + 100);
	/* another flow is held in parallel, poll end flushes both */
	gro_feed(&g, &EP_B, 0, MSS, 0, 1, 0);
	gro_feed(&g, &EP_A, 9 * MSS + 100, MSS, 0, 2, 0);
	assert_int_equal(o.n, 4);
	stack_gro_flush(&g);
	assert_int_equal(o.n, 6);
	assert_true(stack_tuple_eq(&o.t[4], &EP_B.t));	/* oldest first */
	/* a PSH segment with nothing held goes up alone */
	gro_feed(&g, &EP_A, 10 * MSS + 100, MSS, TCP_ACK | TCP_PSH, 2, 0);
	assert_int_equal(o.n, 7);
	assert_int_equal(g.count, 0);
	/* flush_old: only packets older than the age */
	gro_feed(&g, &EP_A, 11 * MSS + 100, MSS, 0, 2, 0);
	sim_run_until(&k.sim, SIM_MS(1));
	gro_feed(&g, &EP_B, MSS, MSS, 0, 1, 0);
	stack_gro_flush_old(&g, SIM_MS(1));
	assert_int_equal(o.n, 8);
	assert_int_equal(g.count, 1);
	stack_gro_flush(&g);
	assert_int_equal(o.segs, g.st.segments);
	stack_gro_fini(&g);
	kfx_fini(&k);
}

/* ------------------------------------------------------------------ */
/* Demux                                                              */

static void count_fn(void *arg, struct stack_pkt *p)
{
	(void)p;
	(*(unsigned *)arg)++;
}

static void test_demux(void **state)
{
	struct stack_demux d;
	struct stack_gro g;
	struct net_build b;
	struct bed_host k;
	uint8_t buf[2048];
	unsigned hits = 0;
	ssize_t n;

	(void)state;
	kfx_init(&k);
	stack_demux_init(&d, k.host);
	assert_int_equal(stack_demux_add(&d, &EP_A.t, count_fn, &hits), 0);
	assert_int_equal(stack_demux_add(&d, &EP_A.t, count_fn, &hits),
			 -EEXIST);
	assert_int_equal(stack_gro_init(&g, NULL, &k.sim, NULL,
					stack_demux_input, &d), 0);
	gro_feed(&g, &EP_A, 0, MSS, 0, 1, 0);
	gro_feed(&g, &EP_A, MSS, MSS, 0, 1, 0);
	gro_feed(&g, &EP_B, 0, MSS, 0, 1, 0);		/* no socket */
	net_build_init(&b);
	b.proto = 17;
	b.payload_len = 64;
	n = net_build_frame(&b, buf, sizeof(buf));
	stack_gro_receive(&g, frame_skb(buf, (size_t)n, 0));	/* UDP */
	stack_gro_flush(&g);
	assert_int_equal(hits, 1);
	assert_int_equal(d.st.delivered, 1);
	assert_int_equal(d.st.no_socket, 1);
	assert_int_equal(d.st.not_tcp, 1);
	assert_int_equal(d.st.segs, 4);	/* every frame accounted for */
	assert_int_equal(stack_demux_del(&d, &EP_A.t), 0);
	assert_int_equal(stack_demux_del(&d, &EP_A.t), -ENOENT);
	stack_gro_fini(&g);
	stack_demux_fini(&d);
	kfx_fini(&k);
}

/* ------------------------------------------------------------------ */
/* Loopback harness: sender -> link -> [GRO] -> receiver -> link back  */

struct frame {
	struct frame *next;
	sim_time_t at;
	size_t len;
	uint8_t buf[];
};

struct link {
	struct sim *sim;
	uint64_t rate_bps;
	sim_time_t prop;
	unsigned qcap;                  /* frames waiting behind the wire */
	struct frame *qh, *qt, *cur, *wh, *wt;
	unsigned qlen;
	uint64_t line_ps;               /* when the line is free, ps */
	struct sim_event tx_done, arrive;
	void (*deliver)(void *arg, const uint8_t *f, size_t len);
	void *arg;
	uint32_t drop_seq[4];           /* drop the first copy of these */
	bool drop_used[4];
	unsigned n_drop;
	sim_time_t blk_start, blk_end;  /* drop what enters meanwhile */
	uint64_t frames, bytes, drop_queue, drop_forced, drop_blackout;
};

static void link_start(struct link *l);

static void link_tx_done(struct sim *sim, struct sim_event *ev)
{
	struct link *l = ev->arg;
	struct frame *f = l->cur;

	l->cur = NULL;
	f->at = sim_now(sim) + l->prop;
	f->next = NULL;
	if (l->wt)
		l->wt->next = f;
	else
		l->wh = f;
	l->wt = f;
	if (!sim_event_pending(&l->arrive))
		sim_schedule_at(sim, &l->arrive, l->wh->at);
	link_start(l);
}

static void link_arrive(struct sim *sim, struct sim_event *ev)
{
	struct link *l = ev->arg;
	struct frame *f = l->wh;

	l->wh = f->next;
	if (!l->wh)
		l->wt = NULL;
	l->deliver(l->arg, f->buf, f->len);
	free(f);
	if (l->wh)
		sim_schedule_at(sim, &l->arrive, l->wh->at);
}

static void link_start(struct link *l)
{
	uint64_t now_ps = sim_now(l->sim) * 1000, start, wire;
	struct frame *f = l->qh;

	if (l->cur || !f)
		return;
	l->qh = f->next;
	if (!l->qh)
		l->qt = NULL;
	l->qlen--;
	l->cur = f;
	/* FCS + preamble + inter-frame gap: 24 bytes beyond the frame */
	wire = (uint64_t)(f->len < 60 ? 60 : f->len) + 24;
	start = l->line_ps > now_ps ? l->line_ps : now_ps;
	l->line_ps = start + wire * 8 * 1000000000000ull / l->rate_bps;
	sim_schedule_at(l->sim, &l->tx_done, (l->line_ps + 999) / 1000);
}

static void link_send(void *arg, const uint8_t *buf, size_t len)
{
	struct link *l = arg;
	struct tcp_seg s;
	struct frame *f;
	sim_time_t now = sim_now(l->sim);
	unsigned i;

	if (now >= l->blk_start && now < l->blk_end) {
		l->drop_blackout++;
		return;
	}
	if (l->n_drop && !tcp_seg_parse_eth(buf, len, &s) && s.payload_len) {
		for (i = 0; i < l->n_drop; i++) {
			if (!l->drop_used[i] && s.seq == l->drop_seq[i]) {
				l->drop_used[i] = true;
				l->drop_forced++;
				return;
			}
		}
	}
	if (l->qlen >= l->qcap) {
		l->drop_queue++;
		return;
	}
	f = malloc(sizeof(*f) + len);
	assert_non_null(f);
	memcpy(f->buf, buf, len);
	f->len = len;
	f->next = NULL;
	if (l->qt)
		l->qt->next = f;
	else
		l->qh = f;
	l->qt = f;
	l->qlen++;
	l->frames++;
	l->bytes += len;
	link_start(l);
}

static void link_init(struct link *l, struct sim *sim, uint64_t rate,
		      sim_time_t prop, unsigned qcap,
		      void (*deliver)(void *, const uint8_t *, size_t),
		      void *arg)
{
	memset(l, 0, sizeof(*l));
	l->sim = sim;
	l->rate_bps = rate;
	l->prop = prop;
	l->qcap = qcap;
	l->deliver = deliver;
	l->arg = arg;
	sim_event_init(&l->tx_done, link_tx_done, l);
	sim_event_init(&l->arrive, link_arrive, l);
}

static void free_list(struct frame *f)
{
	while (f) {
		struct frame *n = f->next;

		free(f);
		f = n;
	}
}

static void link_fini(struct link *l)
{
	sim_cancel(l->sim, &l->tx_done);
	sim_cancel(l->sim, &l->arrive);
	free_list(l->qh);
	free_list(l->wh);
	free(l->cur);
}

struct cfg {
	uint64_t rate;
	sim_time_t prop;
	unsigned qcap;
	enum tcp_cc_algo cc;
	uint64_t app_bytes;
	uint32_t rcvbuf;
	uint32_t init_ssthresh;
	bool gro;
	bool no_reader;
	sim_time_t poll_delay;
};

static void cfg_default(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->rate = 10000000000ull;
	c->prop = SIM_US(20);
	c->qcap = 1000;
	c->cc = TCP_CC_CUBIC;
	c->app_bytes = TCP_APP_INFINITE;
	c->rcvbuf = 1u << 20;
	c->poll_delay = SIM_US(5);
}

struct fx {
	struct bed_host k;
	struct cfg c;
	struct tcp_sender snd;
	struct tcp_receiver rcv;
	struct stack_gro gro;
	struct stack_demux dmx;
	struct link fwd, rev;
	struct frame *rxh, *rxt;        /* received, waiting for the poll */
	struct sim_event poll;
	struct tcp_trace_point *tr;
	size_t ntr, cap_tr;
	uint64_t trace_hash;
	uint64_t payload_errors;
	sim_time_t first_data;          /* first data frame sent, ns */
	uint64_t goodput_violations;
};

static void fx_trace(void *arg, const struct tcp_trace_point *tp)
{
	struct fx *f = arg;

	if (f->ntr == f->cap_tr) {
		f->cap_tr = f->cap_tr ? 2 * f->cap_tr : 1024;
		f->tr = realloc(f->tr, f->cap_tr * sizeof(*f->tr));
		assert_non_null(f->tr);
	}
	f->tr[f->ntr++] = *tp;
	f->trace_hash = (f->trace_hash ^ (tp->now * 31 + tp->cwnd * 7 +
					  tp->ssthresh + tp->ev)) *
			0x9E3779B97F4A7C15ull;
}

/* The payload of every data frame carries byte (u8)stream offset. */
static void check_payload(struct fx *f, const uint8_t *buf, size_t len)
{
	struct tcp_seg s;
	uint32_t i, off;

	if (tcp_seg_parse_eth(buf, len, &s) || !s.payload_len)
		return;
	off = s.seq - ISN_A;
	for (i = 0; i < s.payload_len; i += 97)
		if (buf[s.payload_off + i] != (uint8_t)(off + i))
			f->payload_errors++;
}

/* Goodput can never exceed the line: bytes in order since the first
 * data frame <= line goodput x elapsed + one segment. */
static void check_goodput(struct fx *f)
{
	double el = (double)(sim_now(&f->k.sim) - f->first_data) / 1e9;
	double lim = (double)f->c.rate / 8 * MSS / 1538 * el + MSS;

	if ((double)f->rcv.st.bytes_in > lim)
		f->goodput_violations++;
}

static void fx_poll(struct sim *sim, struct sim_event *ev)
{
	struct fx *f = ev->arg;
	struct frame *fr;
	unsigned n = 0;

	while ((fr = f->rxh) && n < 64) {
		f->rxh = fr->next;
		if (!f->rxh)
			f->rxt = NULL;
		stack_gro_receive(&f->gro, frame_skb(fr->buf, fr->len, 0));
		free(fr);
		n++;
	}
	stack_gro_flush(&f->gro);
	check_goodput(f);
	if (f->rxh)
		sim_schedule_in(sim, &f->poll, 0);
}

static void fx_rx(void *arg, const uint8_t *buf, size_t len)
{
	struct fx *f = arg;
	struct frame *fr;

	check_payload(f, buf, len);
	if (!f->c.gro) {
		assert_int_equal(tcp_receiver_rx_frame(&f->rcv, buf, len), 0);
		check_goodput(f);
		return;
	}
	fr = malloc(sizeof(*fr) + len);
	assert_non_null(fr);
	memcpy(fr->buf, buf, len);
	fr->len = len;
	fr->next = NULL;
	if (f->rxt)
		f->rxt->next = fr;
	else
		f->rxh = fr;
	f->rxt = fr;
	if (!sim_event_pending(&f->poll))
		sim_schedule_in(&f->k.sim, &f->poll, f->c.poll_delay);
}

static void fx_ack_rx(void *arg, const uint8_t *buf, size_t len)
{
	struct fx *f = arg;

	assert_int_equal(tcp_sender_rx(&f->snd, buf, len), 0);
}

static void fx_ready(void *arg)
{
	struct fx *f = arg;

	if (!f->c.no_reader)
		tcp_receiver_read(&f->rcv, UINT64_MAX);
}

static void fx_send(void *arg, const uint8_t *buf, size_t len)
{
	struct fx *f = arg;

	if (!f->first_data)
		f->first_data = sim_now(&f->k.sim) ? sim_now(&f->k.sim) : 1;
	link_send(&f->fwd, buf, len);
}

static struct fx *fx_new(const struct cfg *c)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct tcp_sender_params sp;
	struct tcp_receiver_params rp;
	struct stack_tuple wire = EP_A.t;

	assert_non_null(f);
	f->c = *c;
	kfx_init(&f->k);
	link_init(&f->fwd, &f->k.sim, c->rate, c->prop, c->qcap, fx_rx, f);
	link_init(&f->rev, &f->k.sim, c->rate, c->prop, 100000, fx_ack_rx, f);
	sim_event_init(&f->poll, fx_poll, f);

	tcp_sender_params_default(&sp);
	sp.ep = EP_A;
	sp.isn = ISN_A;
	sp.peer_seq = ISN_B;
	sp.cc = c->cc;
	sp.app_bytes = c->app_bytes;
	sp.init_ssthresh = c->init_ssthresh;
	assert_int_equal(tcp_sender_init(&f->snd, &f->k.sim, NULL, &sp,
					 fx_send, f), 0);
	tcp_sender_set_trace(&f->snd, fx_trace, f);

	tcp_receiver_params_default(&rp);
	rp.ep = EP_B;
	rp.isn = ISN_B;
	rp.peer_isn = ISN_A;
	rp.rcvbuf = c->rcvbuf;
	assert_int_equal(tcp_receiver_init(&f->rcv, &f->k.sim, f->k.host, &rp,
					   link_send, &f->rev), 0);
	tcp_receiver_set_ready(&f->rcv, fx_ready, f);

	stack_demux_init(&f->dmx, f->k.host);
	assert_int_equal(stack_demux_add(&f->dmx, &wire, tcp_receiver_input,
					 &f->rcv), 0);
	assert_int_equal(stack_gro_init(&f->gro, NULL, &f->k.sim, f->k.host,
					stack_demux_input, &f->dmx), 0);
	return f;
}

static void fx_free(struct fx *f)
{
	stack_gro_flush(&f->gro);
	stack_gro_fini(&f->gro);
	stack_demux_fini(&f->dmx);
	tcp_sender_fini(&f->snd);
	tcp_receiver_fini(&f->rcv);
	link_fini(&f->fwd);
	link_fini(&f->rev);
	sim_cancel(&f->k.sim, &f->poll);
	free_list(f->rxh);
	sim_purge(&f->k.sim);
	assert_int_equal(f->payload_errors, 0);
	assert_int_equal(f->goodput_violations, 0);
	kfx_fini(&f->k);
	free(f->tr);
	free(f);
}

/* Run until the transfer is done or @until. */
static void fx_run(struct fx *f, sim_time_t until)
{
	while (sim_now(&f->k.sim) < until && !tcp_sender_done(&f->snd)) {
		sim_time_t next = sim_now(&f->k.sim) + SIM_MS(1);

		sim_run_until(&f->k.sim, next < until ? next : until);
	}
}

/* ------------------------------------------------------------------ */
/* TCP dynamics                                                       */

static void fast_retx_case(bool gro)
{
	struct cfg c;
	struct fx *f;

	cfg_default(&c);
	c.gro = gro;
	c.app_bytes = 3000ull * MSS;
	f = fx_new(&c);
	f->fwd.drop_seq[0] = ISN_A + 200 * MSS;
	f->fwd.n_drop = 1;
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_S(5));
	assert_true(tcp_sender_done(&f->snd));
	assert_int_equal(f->fwd.drop_forced, 1);
	assert_int_equal(f->fwd.drop_queue, 0);
	assert_int_equal(f->snd.st.rto_count, 0);
	assert_int_equal(f->snd.st.retransmits, 1);
	assert_int_equal(f->snd.st.fast_retransmits, 1);
	assert_int_equal(f->rcv.st.bytes_in, c.app_bytes);
	assert_int_equal(f->rcv.st.bytes_read, c.app_bytes);
	assert_true(f->rcv.st.ooo_pkts > 0);
	assert_int_equal(f->rcv.st.oow_bytes, 0);
	assert_int_equal(f->snd.state, TCP_CA_OPEN);
	/* done well before any RTO could have fired */
	assert_true(sim_now(&f->k.sim) < SIM_MS(100));
	fx_free(f);
}

static void test_fast_retransmit(void **state)
{
	(void)state;
	fast_retx_case(false);
	fast_retx_case(true);
}

static void test_rto_blackout(void **state)
{
	sim_time_t t[8] = { 0 };
	unsigned n = 0;
	uint64_t before;
	struct cfg c;
	struct fx *f;
	size_t i;

	(void)state;
	cfg_default(&c);
	c.gro = true;
	f = fx_new(&c);
	f->fwd.blk_start = SIM_MS(20);
	f->fwd.blk_end = SIM_MS(1020);
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_MS(1020));
	before = f->rcv.st.bytes_in;
	fx_run(f, SIM_S(3));
	for (i = 0; i < f->ntr && n < 8; i++) {
		if (f->tr[i].ev != TCP_EV_RTO)
			continue;
		assert_int_equal(f->tr[i].cwnd, 1);
		t[n++] = f->tr[i].now;
	}
	/* ~200 ms, then 400, then 800: the last one is after the blackout */
	assert_true(n >= 3);
	assert_true(f->snd.st.rto_count >= 3);
	assert_true(t[0] > SIM_MS(200) && t[0] < SIM_MS(300));
	for (i = 1; i + 1 < n && i < 3; i++) {
		int64_t d0 = (int64_t)(t[i] - t[i - 1]);
		int64_t d1 = (int64_t)(t[i + 1] - t[i]);

		assert_true(llabs(d1 - 2 * d0) < (int64_t)SIM_MS(1));
	}
	/* the flow recovers: plenty delivered after the blackout */
	assert_true(f->rcv.st.bytes_in > before + 100ull * 1000 * 1000);
	assert_int_equal(f->snd.state, TCP_CA_OPEN);
	assert_int_equal(f->snd.rtt.backoff, 0);
	assert_true(f->fwd.drop_blackout > 0);
	fx_free(f);
}

static void test_reno_sawtooth(void **state)
{
	unsigned losses = 0, checked = 0;
	uint64_t last_acked = 0;
	uint32_t last_cwnd = 0;
	struct cfg c;
	struct fx *f;
	size_t i;

	(void)state;
	cfg_default(&c);
	c.rate = 100000000;             /* 100 Mbit/s */
	c.prop = SIM_MS(10);
	c.qcap = 100;
	c.cc = TCP_CC_RENO;
	c.rcvbuf = 8000000;
	c.init_ssthresh = 150;
	f = fx_new(&c);
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_S(30));
	assert_int_equal(f->snd.st.rto_count, 0);
	for (i = 0; i < f->ntr; i++) {
		const struct tcp_trace_point *p = &f->tr[i];

		if (p->ev == TCP_EV_FAST_RETX) {
			/* halving on loss */
			assert_int_equal(p->ssthresh, p->prior_cwnd / 2);
			assert_true(p->prior_cwnd > 150 && p->prior_cwnd < 400);
			losses++;
			last_cwnd = 0;
		} else if (p->ev == TCP_EV_RECOVERED) {
			assert_int_equal(p->cwnd, p->ssthresh);
		} else if (p->ev == TCP_EV_ACK && p->state == TCP_CA_OPEN &&
			   p->prior_cwnd >= p->ssthresh &&
			   p->cwnd == p->prior_cwnd + 1) {
			/* linear: one segment per window ACKed */
			if (last_cwnd && last_cwnd + 1 == p->prior_cwnd) {
				uint64_t segs = (p->bytes_acked - last_acked) /
						MSS;

				assert_true(segs + 2 >= p->prior_cwnd &&
					    segs <= p->prior_cwnd + 2);
				checked++;
			}
			last_cwnd = p->prior_cwnd;
			last_acked = p->bytes_acked;
		}
	}
	assert_true(losses >= 3);
	assert_true(checked > 200);
	fx_free(f);
}

static uint32_t cwnd_at(const struct fx *f, sim_time_t t)
{
	uint32_t w = 0;
	size_t i;

	for (i = 0; i < f->ntr && f->tr[i].now <= t; i++)
		w = f->tr[i].cwnd;
	return w;
}

static void test_cubic_shape(void **state)
{
	const double beta = 717.0 / 1024, cc = 0.4;
	const struct tcp_trace_point *loss = NULL, *rec = NULL;
	double wmax, k, rtt, t, expect;
	static const double at[] = { 0.25, 0.5, 0.75, 1.0, 1.25, 1.5 };
	struct cfg c;
	struct fx *f;
	uint32_t w;
	size_t i;

	(void)state;
	cfg_default(&c);
	c.rate = 100000000;
	c.prop = SIM_MS(10);
	c.qcap = 6000;                  /* no congestion loss */
	c.cc = TCP_CC_CUBIC;
	c.rcvbuf = 8000000;
	f = fx_new(&c);
	f->fwd.drop_seq[0] = ISN_A + 1000 * MSS;
	f->fwd.n_drop = 1;
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_S(25));
	assert_int_equal(f->snd.st.rto_count, 0);
	assert_int_equal(f->snd.st.fast_retransmits, 1);
	assert_int_equal(f->fwd.drop_queue, 0);
	for (i = 0; i < f->ntr; i++) {
		if (f->tr[i].ev == TCP_EV_FAST_RETX)
			loss = &f->tr[i];
		if (f->tr[i].ev == TCP_EV_RECOVERED)
			rec = &f->tr[i];
	}
	assert_non_null(loss);
	assert_non_null(rec);
	/* multiplicative decrease by beta 0.7 */
	wmax = loss->prior_cwnd;
	assert_true(fabs(loss->ssthresh - 0.7 * wmax) <= 1.0);
	assert_int_equal(rec->cwnd, loss->ssthresh);
	/* W(t) = C (t - K)^3 + W_max, K = cbrt((W_max - cwnd_epoch) / C),
	 * t counted from the epoch (recovery end) plus one minimum RTT */
	k = cbrt((wmax - rec->cwnd) / cc);
	assert_true(k > 3.0 && sim_now(&f->k.sim) > rec->now +
		    (sim_time_t)(1.5 * k * 1e9));
	rtt = 2 * (double)c.prop / 1e9;
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		t = at[i] * k;
		expect = wmax + cc * pow(t + rtt - k, 3);
		w = cwnd_at(f, rec->now + (sim_time_t)(t * 1e9));
		assert_true(fabs((double)w - expect) <= 2 + 0.02 * wmax);
	}
	/* concave below W_max, convex above it */
	assert_true(cwnd_at(f, rec->now + (sim_time_t)(0.5 * k * 1e9)) <
		    wmax - 0.02 * wmax);
	assert_true(cwnd_at(f, rec->now + (sim_time_t)(1.5 * k * 1e9)) >
		    wmax + 0.2 * cc * pow(0.5 * k, 3));
	(void)beta;
	fx_free(f);
}

static void test_goodput_limit(void **state)
{
	uint64_t b0, b1;
	double gp, lim;
	struct cfg c;
	struct fx *f;

	(void)state;
	cfg_default(&c);
	c.gro = true;
	c.rcvbuf = 1u << 20;
	f = fx_new(&c);
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_MS(50));
	b0 = f->rcv.st.bytes_in;
	fx_run(f, SIM_MS(250));
	b1 = f->rcv.st.bytes_in;
	gp = (double)(b1 - b0) * 8 / 0.2;
	lim = (double)c.rate * 1448 / 1538;
	assert_int_equal(f->fwd.drop_queue, 0);
	assert_int_equal(f->snd.st.retransmits, 0);
	assert_true(gp <= lim + 65536.0 * 8 / 0.2);
	assert_true(gp >= 0.97 * lim);
	/* GRO merged: fewer packets than segments, one ACK per packet */
	assert_true(stack_gro_efficiency(&f->gro) > 2.0);
	assert_true(f->rcv.st.acks_out < f->rcv.st.segs_in / 2);
	fx_free(f);
}

static void test_ack_every_second(void **state)
{
	struct cfg c;
	struct fx *f;

	(void)state;
	cfg_default(&c);
	c.app_bytes = 1000ull * MSS;
	f = fx_new(&c);
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_S(1));
	assert_true(tcp_sender_done(&f->snd));
	/* no GRO: one ACK per two segments (the odd last one by timer) */
	assert_int_equal(f->rcv.st.segs_in, 1000);
	assert_int_equal(f->rcv.st.acks_out, 500);
	assert_int_equal(f->rcv.st.delack_timeouts, 0);
	fx_free(f);
}

static void test_receive_window(void **state)
{
	uint64_t stuck;
	struct cfg c;
	struct fx *f;

	(void)state;
	cfg_default(&c);
	c.gro = true;
	c.no_reader = true;
	c.rcvbuf = 256u << 10;
	f = fx_new(&c);
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_MS(600));
	stuck = f->rcv.st.bytes_in;
	/* stopped at the window: nothing beyond it, all of it used */
	assert_int_equal(f->rcv.st.oow_bytes, 0);
	assert_true(stuck <= c.rcvbuf);
	assert_true(stuck + MSS > c.rcvbuf);
	assert_int_equal(tcp_sender_in_flight(&f->snd), 0);
	assert_int_equal(f->snd.nxt, stuck);
	assert_true(f->snd.st.probes >= 1);
	assert_int_equal(f->snd.st.rto_count, 0);
	/* reading reopens it: a window update, then data flows again */
	assert_int_equal(tcp_receiver_read(&f->rcv, UINT64_MAX), stuck);
	assert_int_equal(f->rcv.st.window_updates, 1);
	fx_run(f, SIM_MS(601));
	assert_true(f->rcv.st.bytes_in >= stuck + 128 * 1024);
	assert_int_equal(f->rcv.st.oow_bytes, 0);
	fx_free(f);
}

/* ------------------------------------------------------------------ */
/* Receive-buffer autotuning (Linux 6.10 rules, tcp_receiver.h)        */

#define TRUESIZE 2176u          /* IPERF3_RX_TRUESIZE */

static void rcv_setup_linux(struct tcp_receiver *r, struct sim *sim,
			    struct acks *a, bool autotune)
{
	struct tcp_receiver_params p;

	tcp_receiver_params_default(&p);
	p.rcvbuf = 131072;              /* tcp_rmem[1] */
	p.rx_truesize = TRUESIZE;
	p.autotune = autotune;
	rcv_init_p(r, sim, a, &p);
}

/* @segs full segments at stream offset @off as one packet (a GRO run),
 * echoing @tsecr. */
static void rx_run(struct tcp_receiver *r, uint64_t off, uint32_t segs,
		   uint32_t tsecr)
{
	uint8_t buf[2048];
	size_t n = data_frame(buf, &EP_A, ISN_A, off, MSS, 0, 1);
	struct tcp_seg sg;

	assert_int_equal(tcp_seg_parse_eth(buf, n, &sg), 0);
	sg.payload_len = segs * MSS;
	sg.tsecr = tsecr;
	assert_int_equal(tcp_receiver_rx(r, &sg, segs), 0);
}

static void test_rcvbuf_autotune(void **state)
{
	struct tcp_receiver r;
	struct acks a;
	struct sim sim;
	uint64_t off;

	(void)state;
	sim_init(&sim);
	rcv_setup_linux(&r, &sim, &a, true);
	/* tcp_init_buffer_space: 131072 x 65/256 = 33280, less a segment */
	assert_int_equal(r.rb.scaling_ratio, 65);
	assert_int_equal(r.rb.window_clamp, 33280 - MSS);
	assert_int_equal(tcp_receiver_window(&r), (33280 - MSS) >> 7 << 7);
	assert_int_equal(r.rb.space, 10 * MSS);
	/* the first full segment sets the ratio, 1448 x 256 / 2176; its
	 * TSecr (1 ms tick, same tick) gives one tick: 1000 us */
	rx_run(&r, 0, 1, 1);
	assert_int_equal(r.rb.scaling_ratio, 170);
	assert_int_equal(r.rb.rcv_mss, MSS);
	assert_int_equal(r.rb.rtt_us8, 8 * 1000);
	/* a read before one receiver RTT has passed changes nothing */
	sim_run_until(&sim, SIM_US(500));
	assert_int_equal(tcp_receiver_read(&r, UINT64_MAX), MSS);
	assert_int_equal(r.rb.space, 10 * MSS);
	assert_int_equal(r.rb.rcvbuf, 131072);
	/* 30 more segments at 2 ms, read: 31 x 1448 = 44888 copied in the
	 * RTT, more than 14480; rcvwin = 2 x 44888 + 16 x 1448 = 112944,
	 * plus 2 x 112944 x 30408 / 14480 (237182): 587308; the memory for
	 * it, 587308 x 256 / 170 = 884416; the clamp follows: 587307 */
	sim_run_until(&sim, SIM_MS(2));
	for (off = MSS; off < 31 * MSS; off += 10 * MSS)
		rx_run(&r, off, 10, 1);
	assert_int_equal(r.st.oow_bytes, 0);
	/* the window sample (2 ms for one window) does not raise the
	 * minimum-seeking estimate */
	assert_int_equal(r.rb.rtt_us8, 8 * 1000);
	assert_int_equal(tcp_receiver_read(&r, UINT64_MAX), 30 * MSS);
	assert_int_equal(r.rb.space, 31 * MSS);
	assert_int_equal(r.rb.rcvbuf, 884416);
	assert_int_equal(r.rb.window_clamp, 587307);
	assert_int_equal(r.st.rcvbuf_grows, 1);
	/* the read sent a window update with the new clamp */
	assert_int_equal(r.st.window_updates, 1);
	assert_int_equal(a.last.win, 587307 >> 7);
	/* a timestamp sample is smoothed by 1/8: TSecr 8 at 10 ms (tick
	 * 11) is 3000 us; 1000 + (3000 - 1000) / 8 = 1250 us */
	sim_run_until(&sim, SIM_MS(10));
	rx_run(&r, 31 * MSS, 1, 8);
	assert_int_equal(r.rb.rtt_us8, 8 * 1000 + 2000);
	/* the same TSecr again is not sampled */
	rx_run(&r, 32 * MSS, 1, 8);
	assert_int_equal(r.rb.rtt_us8, 8 * 1000 + 2000);
	/* much more within one RTT: the buffer stops at tcp_rmem[2] */
	for (off = 33 * MSS; off < 4000 * MSS; off += 40 * MSS) {
		rx_run(&r, off, 40, 8);
		tcp_receiver_read(&r, UINT64_MAX);
	}
	sim_run_until(&sim, SIM_MS(12));
	rx_run(&r, off, 1, 8);
	assert_int_equal(tcp_receiver_read(&r, UINT64_MAX), MSS);
	assert_int_equal(r.st.oow_bytes, 0);
	assert_int_equal(r.rb.rcvbuf, 6u << 20);
	assert_int_equal(r.rb.window_clamp, (6ull << 20) * 170 >> 8);
	assert_int_equal(r.st.rcvbuf_grows, 2);
	tcp_receiver_fini(&r);
	sim_fini(&sim);
}

/* SO_RCVBUF (SOCK_RCVBUF_LOCK): the same traffic leaves the buffer and
 * the clamp where tcp_init_buffer_space put them. */
static void test_rcvbuf_locked(void **state)
{
	struct tcp_receiver r;
	struct acks a;
	struct sim sim;
	uint64_t off;

	(void)state;
	sim_init(&sim);
	rcv_setup_linux(&r, &sim, &a, false);
	rx_run(&r, 0, 1, 1);
	sim_run_until(&sim, SIM_MS(2));
	for (off = MSS; off < 21 * MSS; off += 10 * MSS)
		rx_run(&r, off, 10, 1);
	assert_int_equal(tcp_receiver_read(&r, UINT64_MAX), 21 * MSS);
	/* rcvq_space still follows the reader */
	assert_int_equal(r.rb.space, 21 * MSS);
	assert_int_equal(r.rb.rcvbuf, 131072);
	assert_int_equal(r.rb.window_clamp, 33280 - MSS);
	assert_int_equal(r.st.rcvbuf_grows, 0);
	/* the window never exceeds the clamp */
	assert_true(tcp_receiver_window(&r) <= 33280 - MSS);
	/* data beyond it is dropped and counted */
	rx_run(&r, 21 * MSS, 30, 1);
	assert_true(r.st.oow_bytes > 0);
	assert_true(r.rcv_nxt <= 21 * MSS + 33280 - MSS);
	tcp_receiver_fini(&r);
	sim_fini(&sim);
}

static void det_run(uint64_t *trace, uint64_t *ev_trace, uint64_t *acks)
{
	struct cfg c;
	struct fx *f;

	cfg_default(&c);
	c.gro = true;
	c.qcap = 200;                   /* congestion losses too */
	c.rcvbuf = 4u << 20;
	f = fx_new(&c);
	f->fwd.drop_seq[0] = ISN_A + 300 * MSS;
	f->fwd.n_drop = 1;
	tcp_sender_start(&f->snd);
	fx_run(f, SIM_MS(300));
	*trace = f->trace_hash;
	*ev_trace = f->k.sim.trace;
	*acks = f->rcv.st.acks_out ^ (f->snd.st.retransmits << 32) ^
		f->rcv.st.bytes_in;
	assert_true(f->snd.st.retransmits > 1);
	fx_free(f);
}

/* tcp_sender_pacing_rate(): Linux's tcp_update_pacing_rate rule. */
static void test_pacing_rate(void **state)
{
	struct cfg c;
	struct fx *f;

	(void)state;
	cfg_default(&c);
	f = fx_new(&c);
	/* no RTT sample yet: unbounded */
	assert_true(tcp_sender_pacing_rate(&f->snd) == UINT64_MAX);
	f->snd.rtt.has_sample = true;
	f->snd.rtt.srtt = SIM_MS(1);
	f->snd.w.cwnd = 100;
	f->snd.w.ssthresh = 1000;
	/* slow start (cwnd < ssthresh / 2): 200 % of 100 * 1448 B per ms */
	assert_int_equal(tcp_sender_pacing_rate(&f->snd), 289600000);
	/* congestion avoidance: 120 % */
	f->snd.w.ssthresh = 200;
	assert_int_equal(tcp_sender_pacing_rate(&f->snd), 173760000);
	/* more segments out than cwnd (after a reduction): those count */
	f->snd.nxt = f->snd.una + 150ull * f->snd.p.mss;
	assert_int_equal(tcp_sender_pacing_rate(&f->snd), 260640000);
	f->snd.nxt = f->snd.una;
	f->snd.rtt.has_sample = false;
	fx_free(f);
}

static void test_determinism(void **state)
{
	uint64_t a[3], b[3];

	(void)state;
	det_run(&a[0], &a[1], &a[2]);
	det_run(&b[0], &b[1], &b[2]);
	assert_int_equal(a[0], b[0]);
	assert_int_equal(a[1], b[1]);
	assert_int_equal(a[2], b[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seg_roundtrip),
		cmocka_unit_test(test_seg_template),
		cmocka_unit_test(test_delayed_ack),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_gro_rules),
		cmocka_unit_test(test_gro_interleave),
		cmocka_unit_test(test_misses_per_kb),
		cmocka_unit_test(test_demux),
		cmocka_unit_test(test_fast_retransmit),
		cmocka_unit_test(test_rto_blackout),
		cmocka_unit_test(test_reno_sawtooth),
		cmocka_unit_test(test_cubic_shape),
		cmocka_unit_test(test_goodput_limit),
		cmocka_unit_test(test_ack_every_second),
		cmocka_unit_test(test_receive_window),
		cmocka_unit_test(test_rcvbuf_autotune),
		cmocka_unit_test(test_pacing_rate),
		cmocka_unit_test(test_rcvbuf_locked),
		cmocka_unit_test(test_determinism),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
