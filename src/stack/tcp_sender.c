// SPDX-License-Identifier: MIT
/* tcp_sender.c - TCP sender with loss recovery; see tcp_sender.h. */
#include "stack/tcp_sender.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host.h"

#define RING_INIT 1024u

void tcp_sender_params_default(struct tcp_sender_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mss = TCP_MSS_TS;
	p->cc = TCP_CC_CUBIC;
	p->init_cwnd = 10;
	p->cwnd_clamp = 65535;
	p->app_bytes = TCP_APP_INFINITE;
	p->peer_wscale = 7;
	p->init_rwnd = 65535;
	p->timestamps = true;
	p->ts_tick = SIM_MS(1);
	p->rto_min = SIM_MS(200);
	p->rto_max = SIM_S(120);
	p->rto_init = SIM_S(1);
}

static uint32_t seq_of(const struct tcp_sender *s, uint64_t off)
{
	return s->p.isn + (uint32_t)off;
}

static uint32_t ts_now(const struct tcp_sender *s)
{
	return (uint32_t)(sim_now(s->sim) / s->p.ts_tick) + 1;
}

static uint64_t seg_idx(const struct tcp_sender *s, uint64_t off)
{
	return off / s->p.mss;
}

/* Segments between two offsets on segment boundaries (the last may be
 * short, so round up). */
static uint32_t segs_between(const struct tcp_sender *s, uint64_t a,
			     uint64_t b)
{
	return (uint32_t)((b + s->p.mss - 1) / s->p.mss -
			  (a + s->p.mss - 1) / s->p.mss);
}

static uint32_t packets_out(const struct tcp_sender *s)
{
	return segs_between(s, s->una, s->nxt);
}

static struct tcp_seg_rec *rec(struct tcp_sender *s, uint64_t off)
{
	return &s->ring[seg_idx(s, off) & s->ring_mask];
}

/* Make room for the record of the segment at @off. */
static int ring_fit(struct tcp_sender *s, uint64_t off)
{
	uint64_t first = seg_idx(s, s->una), last = seg_idx(s, off), i;
	uint64_t cap = s->ring_mask + 1, ncap = cap;
	struct tcp_seg_rec *n;

	if (last - first < cap)
		return 0;
	while (last - first >= ncap)
		ncap *= 2;
	n = calloc(ncap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (i = first; i <= seg_idx(s, s->max) && i - first < cap; i++)
		n[i & (ncap - 1)] = s->ring[i & s->ring_mask];
	free(s->ring);
	s->ring = n;
	s->ring_mask = ncap - 1;
	return 0;
}

static uint64_t app_end(const struct tcp_sender *s)
{
	return s->p.app_bytes;
}

static uint32_t seg_len(const struct tcp_sender *s, uint64_t off)
{
	uint64_t left = app_end(s) - off;

	return left < s->p.mss ? (uint32_t)left : s->p.mss;
}

static void emit(struct tcp_sender *s, enum tcp_trace_ev ev, uint32_t prior)
{
	struct tcp_trace_point tp;

	if (!s->trace)
		return;
	tp.now = sim_now(s->sim);
	tp.ev = ev;
	tp.state = s->state;
	tp.cwnd = s->w.cwnd;
	tp.ssthresh = s->w.ssthresh;
	tp.prior_cwnd = prior;
	tp.bytes_acked = s->st.bytes_acked;
	tp.srtt = s->rtt.has_sample ? s->rtt.srtt : 0;
	tp.rto = tcp_rtt_rto(&s->rtt);
	s->trace(s->trace_arg, &tp);
}

static void xmit_frame(struct tcp_sender *s, uint64_t off, uint32_t len,
		       uint32_t seq, uint8_t flags)
{
	uint8_t buf[TCP_FRAME_MAX + 64];
	struct tcp_seg_tx d = {
		.ep = &s->p.ep,
		.seq = seq,
		.ack = s->p.peer_seq,
		.flags = flags,
		.win = 0xffff,
		.ts = s->p.timestamps,
		.tsval = ts_now(s),
		.tsecr = s->ts_recent,
		.payload_len = (uint16_t)len,
		.payload_seed = (uint8_t)off,
		.ip_id = s->ip_id++,
	};
	ssize_t n;

	if (s->xmit_seg) {
		s->xmit_seg(s->xmit_arg, &d, tcp_seg_frame_len(&d));
		return;
	}
	n = tcp_seg_build(&d, buf, sizeof(buf));
	if (n > 0)
		s->xmit(s->xmit_arg, buf, (size_t)n);
}

void tcp_sender_set_xmit_seg(struct tcp_sender *s, tcp_xmit_seg_fn fn)
{
	s->xmit_seg = fn;
}

static void arm_rto(struct tcp_sender *s)
{
	sim_schedule_in(s->sim, &s->rto_timer, tcp_rtt_rto(&s->rtt));
}

/* Send the segment starting at stream offset @off; @gso_first: false
 * when it continues a GSO packet of the same push (charged gso_segment,
 * not tcp_xmit). */
static int send_segment_gso(struct tcp_sender *s, uint64_t off, bool gso_first)
{
	uint32_t len = seg_len(s, off);
	bool again = off < s->max;
	struct tcp_seg_rec *r;
	uint8_t flags = TCP_ACK;

	if (ring_fit(s, off))
		return -ENOMEM;
	if (off + len == app_end(s))
		flags |= TCP_PSH;
	xmit_frame(s, off, len, seq_of(s, off), flags);
	r = rec(s, off);
	r->sent = sim_now(s->sim);
	r->retx = again;
	s->st.segs_out++;
	s->st.bytes_out += len;
	if (again)
		s->st.retransmits++;
	if (s->host)
		sim_charge(s->host, gso_first ? SIM_COST_tcp_xmit : SIM_COST_gso_segment, 1);
	if (gso_first && s->p.gso_max_segs)
		s->st.gso_packets++;
	if (!sim_event_pending(&s->rto_timer))
		arm_rto(s);
	return 0;
}

static int send_segment(struct tcp_sender *s, uint64_t off)
{
	return send_segment_gso(s, off, true);
}

/* Track how much of cwnd is really used (Linux tcp_cwnd_validate idea). */
static void cwnd_usage(struct tcp_sender *s)
{
	uint32_t out = packets_out(s);

	if (s->una >= s->cwnd_usage_seq || out > s->max_packets_out) {
		s->max_packets_out = out;
		s->cwnd_usage_seq = s->nxt;
	}
}

static bool cwnd_limited(const struct tcp_sender *s)
{
	if (s->w.cwnd < s->w.ssthresh)
		return s->w.cwnd < 2 * s->max_packets_out;
	return s->max_packets_out >= s->w.cwnd;
}

static void push(struct tcp_sender *s)
{
	uint32_t len, run = 0;

	while (s->nxt < app_end(s)) {
		if (packets_out(s) >= s->w.cwnd)
			break;
		len = seg_len(s, s->nxt);
		if (s->nxt + len > s->rwnd_edge) {
			/* window closed for a full segment: probe it later */
			if (s->nxt == s->una &&
			    !sim_event_pending(&s->persist_timer))
				sim_schedule_in(s->sim, &s->persist_timer,
						tcp_rtt_rto(&s->rtt));
			break;
		}
		if (s->can_xmit && !s->can_xmit(s->can_xmit_arg)) {
			s->st.throttled++;
			break;
		}
		if (send_segment_gso(s, s->nxt, !s->p.gso_max_segs ||
				     run % s->p.gso_max_segs == 0))
			break;
		run++;
		s->nxt += len;
		if (s->nxt > s->max)
			s->max = s->nxt;
	}
	cwnd_usage(s);
}

static void rto_fire(struct sim *sim, struct sim_event *ev)
{
	struct tcp_sender *s = ev->arg;
	uint32_t prior = s->w.cwnd;

	(void)sim;
	if (s->una >= s->max)
		return;
	s->st.rto_count++;
	/* one ssthresh reduction per loss episode (Linux tcp_enter_loss) */
	if (s->state == TCP_CA_OPEN)
		s->w.ssthresh = tcp_cc_ssthresh(&s->cc, s->w.cwnd);
	s->w.cwnd = 1;
	s->w.cwnd_cnt = 0;
	s->state = TCP_CA_LOSS;
	s->recover = s->max;
	s->dupacks = 0;
	s->nxt = s->una;        /* go-back-N: all outstanding is lost */
	tcp_rtt_backoff(&s->rtt);
	emit(s, TCP_EV_RTO, prior);
	push(s);
	if (!sim_event_pending(&s->rto_timer))
		arm_rto(s);
}

static void persist_fire(struct sim *sim, struct sim_event *ev)
{
	struct tcp_sender *s = ev->arg;
	sim_time_t d;
	unsigned i;

	(void)sim;
	if (s->nxt != s->una || s->nxt >= app_end(s) ||
	    s->nxt + seg_len(s, s->nxt) <= s->rwnd_edge)
		return;
	/* zero-window probe: no data, an already acknowledged sequence
	 * number, so the receiver answers with an ACK carrying its window */
	xmit_frame(s, s->una, 0, seq_of(s, s->una) - 1, TCP_ACK);
	s->st.probes++;
	if (s->persist_backoff < 16)
		s->persist_backoff++;
	d = tcp_rtt_rto(&s->rtt);
	for (i = 0; i < s->persist_backoff && d < s->p.rto_max; i++)
		d *= 2;
	sim_schedule_in(s->sim, &s->persist_timer,
			d < s->p.rto_max ? d : s->p.rto_max);
}

int tcp_sender_init(struct tcp_sender *s, struct sim *sim,
		    struct sim_host *host, const struct tcp_sender_params *p,
		    tcp_xmit_fn xmit, void *xmit_arg)
{
	memset(s, 0, sizeof(*s));
	if (!p->mss || p->mss > 1460 || !p->init_cwnd || !p->ts_tick ||
	    !p->cwnd_clamp)
		return -EINVAL;
	s->ring = calloc(RING_INIT, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	s->ring_mask = RING_INIT - 1;
	s->sim = sim;
	s->host = host;
	s->p = *p;
	tcp_endpoint_prepare(&s->p.ep);
	s->xmit = xmit;
	s->xmit_arg = xmit_arg;
	s->w.cwnd = p->init_cwnd;
	/* Linux TCP_INFINITE_SSTHRESH unless given */
	s->w.ssthresh = p->init_ssthresh ? p->init_ssthresh : UINT32_MAX;
	s->w.clamp = p->cwnd_clamp;
	s->rwnd_edge = p->init_rwnd;
	s->last_win = (uint16_t)(p->init_rwnd >> p->peer_wscale);
	tcp_cc_init(&s->cc, p->cc);
	tcp_rtt_init(&s->rtt, p->rto_min, p->rto_max, p->rto_init);
	sim_event_init(&s->rto_timer, rto_fire, s);
	sim_event_init(&s->persist_timer, persist_fire, s);
	return 0;
}

void tcp_sender_fini(struct tcp_sender *s)
{
	if (s->sim) {
		sim_cancel(s->sim, &s->rto_timer);
		sim_cancel(s->sim, &s->persist_timer);
	}
	free(s->ring);
	s->ring = NULL;
}

void tcp_sender_set_trace(struct tcp_sender *s, tcp_trace_fn fn, void *arg)
{
	s->trace = fn;
	s->trace_arg = arg;
}

void tcp_sender_set_can_xmit(struct tcp_sender *s, tcp_can_xmit_fn fn,
			     void *arg)
{
	s->can_xmit = fn;
	s->can_xmit_arg = arg;
}

void tcp_sender_set_write_space(struct tcp_sender *s, tcp_write_space_fn fn,
				void *arg)
{
	s->write_space = fn;
	s->write_space_arg = arg;
}

uint64_t tcp_sender_pacing_rate(const struct tcp_sender *s)
{
	uint64_t segs = s->w.cwnd > packets_out(s) ? s->w.cwnd : packets_out(s);
	unsigned ratio = s->w.cwnd < s->w.ssthresh / 2 ? 200 : 120;

	if (!s->rtt.has_sample || !s->rtt.srtt)
		return UINT64_MAX;
	/* bytes per second: mss * segs * ratio % / (srtt ns / 1e9); at most
	 * 1448 * 65535 * 200 * 1e7, well inside 64 bits */
	return (uint64_t)s->p.mss * segs * ratio * 10000000u /
	       (uint64_t)s->rtt.srtt;
}

void tcp_sender_start(struct tcp_sender *s)
{
	push(s);
}

void tcp_sender_close(struct tcp_sender *s)
{
	s->p.app_bytes = s->max;
}

void tcp_sender_write(struct tcp_sender *s, uint64_t bytes)
{
	if (s->p.app_bytes == TCP_APP_INFINITE)
		return;
	s->p.app_bytes += bytes;
	push(s);
}

/* RTT sample from the oldest newly ACKed segment, unless any of them was
 * retransmitted (Karn's algorithm). */
static void take_rtt(struct tcp_sender *s, uint64_t ack_off)
{
	uint64_t off;

	for (off = s->una; off < ack_off; off += s->p.mss)
		if (rec(s, off)->retx)
			return;
	tcp_rtt_sample(&s->rtt, sim_now(s->sim) - rec(s, s->una)->sent);
}

static void new_data_acked(struct tcp_sender *s, uint64_t ack_off)
{
	uint32_t acked = segs_between(s, s->una, ack_off);
	uint32_t prior = s->w.cwnd;
	bool limited = cwnd_limited(s), rearm = true;

	take_rtt(s, ack_off);
	s->st.bytes_acked += ack_off - s->una;
	s->una = ack_off;
	if (s->nxt < s->una)
		s->nxt = s->una;
	s->dupacks = 0;
	if (s->state == TCP_CA_RECOVERY) {
		if (s->una >= s->recover) {
			/* full ACK (RFC 6582 §3.2 step 3) */
			s->w.cwnd = s->w.ssthresh;
			s->w.cwnd_cnt = 0;
			s->state = TCP_CA_OPEN;
			emit(s, TCP_EV_RECOVERED, prior);
		} else {
			/* partial ACK: retransmit the next hole, deflate by
			 * what was ACKed, add one back (step 3) */
			send_segment(s, s->una);
			s->w.cwnd = s->w.cwnd > acked ? s->w.cwnd - acked : 0;
			s->w.cwnd += 1;
			rearm = !s->partial_seen;
			s->partial_seen = true;
		}
	} else {
		/* after a timeout: slow start again until recover is ACKed */
		if (s->state == TCP_CA_LOSS && s->una >= s->recover)
			s->state = TCP_CA_OPEN;
		if (limited)
			tcp_cc_cong_avoid(&s->cc, &s->w, acked,
					  sim_now(s->sim), s->rtt.rtt_min ==
					  SIM_TIME_MAX ? 0 : s->rtt.rtt_min);
		if (s->w.cwnd != prior)
			emit(s, TCP_EV_ACK, prior);
	}
	if (s->una >= s->max)
		sim_cancel(s->sim, &s->rto_timer);
	else if (rearm)
		arm_rto(s);
}

static void dup_ack(struct tcp_sender *s)
{
	uint32_t prior = s->w.cwnd;

	s->st.dupacks_in++;
	s->dupacks++;
	if (s->state == TCP_CA_OPEN && s->dupacks == 3) {
		/* fast retransmit (RFC 5681 §3.2, RFC 6582 §3.2 step 2) */
		s->w.ssthresh = tcp_cc_ssthresh(&s->cc, s->w.cwnd);
		s->w.cwnd = s->w.ssthresh + 3;
		s->w.cwnd_cnt = 0;
		s->recover = s->max;
		s->state = TCP_CA_RECOVERY;
		s->partial_seen = false;
		s->st.fast_retransmits++;
		send_segment(s, s->una);
		arm_rto(s);
		emit(s, TCP_EV_FAST_RETX, prior);
	} else if (s->state == TCP_CA_RECOVERY) {
		if (s->w.cwnd < s->w.clamp)
			s->w.cwnd++;    /* inflation: one segment left the net */
	}
}

int tcp_sender_rx_seg(struct tcp_sender *s, const struct tcp_seg *seg)
{
	struct stack_tuple peer = stack_tuple_rev(&s->p.ep.t);
	uint64_t ack_off, win;
	int32_t diff;
	bool advanced;

	if (!stack_tuple_eq(&seg->t, &peer))
		return -ENOENT;
	if (!(seg->flags & TCP_ACK))
		return 0;
	s->st.acks_in++;
	if (seg->has_ts)
		s->ts_recent = seg->tsval;
	diff = (int32_t)(seg->ack - seq_of(s, s->una));
	if (diff < 0)
		return 0;               /* old ACK */
	ack_off = s->una + (uint32_t)diff;
	if (ack_off > s->max)
		return 0;               /* ACKs data never sent: ignore */
	win = (uint64_t)seg->win << s->p.peer_wscale;
	advanced = ack_off > s->una;
	if (advanced)
		new_data_acked(s, ack_off);
	else if (seg->payload_len == 0 && seg->win == s->last_win &&
		 s->max > s->una)
		dup_ack(s);
	s->last_win = seg->win;
	s->rwnd_edge = ack_off + win;
	if (s->nxt < s->rwnd_edge && s->nxt + seg_len(s, s->nxt) <=
	    s->rwnd_edge) {
		sim_cancel(s->sim, &s->persist_timer);
		s->persist_backoff = 0;
	}
	push(s);
	if (advanced && s->write_space && s->p.app_bytes != TCP_APP_INFINITE)
		s->write_space(s->write_space_arg, s->p.app_bytes - s->una);
	return 0;
}

int tcp_sender_rx(struct tcp_sender *s, const uint8_t *frame, size_t len)
{
	struct tcp_seg seg;

	if (tcp_seg_parse_eth(frame, len, &seg)) {
		s->st.bad_frames++;
		return -EINVAL;
	}
	return tcp_sender_rx_seg(s, &seg);
}

void tcp_sender_input(void *arg, struct stack_pkt *pkt)
{
	struct tcp_sender *s = arg;

	if (pkt->tcp)
		tcp_sender_rx_seg(s, &pkt->seg);
}
