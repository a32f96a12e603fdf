// SPDX-License-Identifier: MIT
/* tcp_receiver.c - TCP receiver, delayed ACKs, window; see tcp_receiver.h. */
#include "stack/tcp_receiver.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host.h"

void tcp_receiver_params_default(struct tcp_receiver_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mss = TCP_MSS_TS;
	p->rcvbuf = 6u << 20;
	p->rcvbuf_max = 6u << 20;       /* tcp_rmem[2] of Linux 6.10 */
	p->wscale = 7;
	p->delack = SIM_MS(40);
	p->timestamps = true;
	p->ts_tick = SIM_MS(1);
}

/* Linux 6.10 include/net/tcp.h: TCP_RMEM_TO_WIN_SCALE, and the default
 * scaling_ratio, 1200 bytes of payload per SKB_TRUESIZE(4096) = 4096 +
 * 256 (struct sk_buff) + 320 (skb_shared_info) on 64-bit hosts. */
#define RMEM_TO_WIN_SCALE 8
#define DEFAULT_SCALING_RATIO ((1200u << RMEM_TO_WIN_SCALE) / 4672u)
#define INIT_CWND 10            /* TCP_INIT_CWND */
#define TCP_MSS_DEFAULT 536     /* the first rcv_mss guess */

uint64_t tcp_receiver_win_from_space(const struct tcp_receiver *r,
				     uint64_t space)
{
	if (!r->p.rx_truesize)
		return space;
	return (space * r->rb.scaling_ratio) >> RMEM_TO_WIN_SCALE;
}

uint64_t tcp_receiver_space_from_win(const struct tcp_receiver *r,
				     uint64_t win)
{
	if (!r->p.rx_truesize)
		return win;
	return (win << RMEM_TO_WIN_SCALE) / r->rb.scaling_ratio;
}

/* The window the socket could offer now, bytes. */
static uint64_t free_space(const struct tcp_receiver *r)
{
	uint64_t used = r->unread + r->ooo_bytes, mem, win;

	if (!r->p.rx_truesize)
		return r->p.rcvbuf > used ? r->p.rcvbuf - used : 0;
	/* tcp_space(): the memory left (queued bytes cost their skbs'
	 * truesize), as a window; __tcp_select_window() never offers
	 * more than window_clamp */
	mem = used * r->p.rx_truesize / r->p.mss;
	win = r->rb.rcvbuf > mem ?
	      tcp_receiver_win_from_space(r, r->rb.rcvbuf - mem) : 0;
	return win < r->rb.window_clamp ? win : r->rb.window_clamp;
}

/* The window field for the next ACK; moves r->right (never back). */
static uint16_t select_window(struct tcp_receiver *r)
{
	unsigned ws = r->p.wscale;
	uint64_t field = free_space(r) >> ws, held;

	if (r->rcv_nxt + (field << ws) < r->right) {
		/* keep the edge already offered; the scale can only say it
		 * to 2^ws bytes, so round down (RFC 7323 §2.4) - the data up
		 * to r->right stays acceptable */
		held = r->right - r->rcv_nxt;
		field = held >> ws;
	}
	if (field > 0xffff)
		field = 0xffff;
	if (r->rcv_nxt + (field << ws) > r->right)
		r->right = r->rcv_nxt + (field << ws);
	return (uint16_t)field;
}

static void send_ack(struct tcp_receiver *r)
{
	uint8_t buf[128];
	struct tcp_seg_tx d = {
		.ep = &r->p.ep,
		.seq = r->p.isn,
		.ack = r->p.peer_isn + (uint32_t)r->rcv_nxt,
		.flags = TCP_ACK,
		.ts = r->p.timestamps,
		.tsval = (uint32_t)(sim_now(r->sim) / r->p.ts_tick) + 1,
		.tsecr = r->ts_recent,
		.ip_id = r->ip_id++,
	};
	ssize_t n;

	d.win = select_window(r);
	n = tcp_seg_build(&d, buf, sizeof(buf));
	r->acked = r->rcv_nxt;
	sim_cancel(r->sim, &r->delack_timer);
	r->st.acks_out++;
	if (r->host)
		sim_charge(r->host, SIM_COST_ack_xmit, 1);
	if (n > 0)
		r->xmit(r->xmit_arg, buf, (size_t)n);
}

static void quick_ack(struct tcp_receiver *r)
{
	r->st.quick_acks++;
	send_ack(r);
}

static void delack_fire(struct sim *sim, struct sim_event *ev)
{
	struct tcp_receiver *r = ev->arg;

	(void)sim;
	r->st.delack_timeouts++;
	send_ack(r);
}

/* Linux 6.10 tcp_init_buffer_space(), when the connection is up: the
 * clamp is the whole buffer's window less one segment (tcp_app_win 31
 * reserves maxwin >> 31 = 0, then "force reservation of one segment"),
 * and the first measure expects TCP_INIT_CWND segments. */
static void rcvbuf_init(struct tcp_receiver *r)
{
	struct tcp_rcvbuf_state *rb = &r->rb;
	uint64_t mss = r->p.mss, maxwin, wnd;

	rb->rcvbuf = r->p.rcvbuf;
	rb->scaling_ratio = DEFAULT_SCALING_RATIO;
	rb->rcv_mss = TCP_MSS_DEFAULT < mss ? TCP_MSS_DEFAULT : (uint32_t)mss;
	maxwin = tcp_receiver_win_from_space(r, rb->rcvbuf);
	rb->window_clamp = maxwin;
	if (maxwin > 2 * mss)
		rb->window_clamp = maxwin - mss > 2 * mss ? maxwin - mss : 2 * mss;
	/* the SYN's window (tcp_select_initial_window): whole segments */
	wnd = maxwin > mss ? maxwin / mss * mss : maxwin;
	if (wnd > rb->window_clamp)
		wnd = rb->window_clamp;
	rb->space = wnd < INIT_CWND * mss ? wnd : INIT_CWND * mss;
	rb->space_time = sim_now(r->sim);
}

static uint32_t now_us(const struct tcp_receiver *r)
{
	return (uint32_t)(sim_now(r->sim) / 1000);
}

/* tcp_rcv_rtt_update(): timestamp samples are smoothed by 1/8, window
 * samples (@win_dep) only lower the estimate.  rtt_us8 is us << 3. */
static void rcv_rtt_update(struct tcp_receiver *r, uint32_t sample_us,
			   bool win_dep)
{
	struct tcp_rcvbuf_state *rb = &r->rb;
	int64_t m = sample_us;

	if (!rb->rtt_us8) {
		rb->rtt_us8 = (uint32_t)(m << 3);
	} else if (!win_dep) {
		m -= rb->rtt_us8 >> 3;
		rb->rtt_us8 = (uint32_t)((int64_t)rb->rtt_us8 + m);
	} else if ((m << 3) < rb->rtt_us8) {
		rb->rtt_us8 = (uint32_t)(m << 3);
	}
}

/* An in-order data packet of @len bytes in @segs segments, rcv_nxt
 * already advanced (tcp_event_data_recv: tcp_measure_rcv_mss and
 * tcp_rcv_rtt_measure; tcp_rcv_established: tcp_rcv_rtt_measure_ts). */
static void rcvbuf_data_in(struct tcp_receiver *r, const struct tcp_seg *seg,
			   uint32_t segs)
{
	struct tcp_rcvbuf_state *rb = &r->rb;
	uint32_t len = segs > 1 ? r->p.mss : seg->payload_len, tick_us;
	uint64_t ratio;
	sim_time_t now = sim_now(r->sim);
	uint32_t ts_now, delta;

	/* tcp_rcv_rtt_measure_ts(): a new TSecr on a full segment */
	if (r->p.timestamps && seg->has_ts && seg->tsecr != rb->last_tsecr) {
		rb->last_tsecr = seg->tsecr;
		if (seg->payload_len >= rb->rcv_mss) {
			ts_now = (uint32_t)(now / r->p.ts_tick) + 1;
			delta = ts_now - seg->tsecr;
			tick_us = (uint32_t)(r->p.ts_tick / 1000);
			if (delta < INT32_MAX / (tick_us ? tick_us : 1))
				rcv_rtt_update(r, (delta ? delta : 1) * tick_us,
					       false);
		}
	}
	/* tcp_measure_rcv_mss(): the ratio is taken when rcv_mss changes */
	if (len >= rb->rcv_mss) {
		if (len != rb->rcv_mss) {
			ratio = ((uint64_t)seg->payload_len << RMEM_TO_WIN_SCALE) /
				((uint64_t)(segs ? segs : 1) * r->p.rx_truesize);
			rb->scaling_ratio = ratio ? (ratio > 255 ? 255 :
						     (uint32_t)ratio) : 1;
		}
		rb->rcv_mss = len < r->p.mss ? len : r->p.mss;
	}
	/* tcp_rcv_rtt_measure(): the time to receive one window */
	if (rb->rtt_time && r->rcv_nxt < rb->rtt_seq)
		return;
	if (rb->rtt_time) {
		delta = (uint32_t)((now - rb->rtt_time) / 1000);
		rcv_rtt_update(r, delta ? delta : 1, true);
	}
	rb->rtt_seq = r->rcv_nxt + (r->right - r->acked);
	rb->rtt_time = now ? now : 1;
}

/* tcp_rcv_space_adjust(), after the reader took bytes. */
static void rcvbuf_space_adjust(struct tcp_receiver *r)
{
	struct tcp_rcvbuf_state *rb = &r->rb;
	uint64_t copied, rcvwin, grow, rcvbuf, mss = r->p.mss;
	uint32_t elapsed = now_us(r) - (uint32_t)(rb->space_time / 1000);

	if (!rb->rtt_us8 || elapsed < (rb->rtt_us8 >> 3))
		return;
	copied = r->st.bytes_read - rb->space_seq;
	if (copied > rb->space) {
		if (r->p.autotune) {
			/* twice a round's bytes and 16 segments of slack,
			 * plus room for the sender doubling its rate */
			rcvwin = 2 * copied + 16 * mss;
			grow = rcvwin * (copied - rb->space) / rb->space;
			rcvwin += grow << 1;
			rcvbuf = tcp_receiver_space_from_win(r, rcvwin);
			if (rcvbuf > r->p.rcvbuf_max)
				rcvbuf = r->p.rcvbuf_max;
			if (rcvbuf > rb->rcvbuf) {
				rb->rcvbuf = rcvbuf;
				rb->window_clamp =
					tcp_receiver_win_from_space(r, rcvbuf);
				r->st.rcvbuf_grows++;
			}
		}
		rb->space = copied;
	}
	rb->space_seq = r->st.bytes_read;
	rb->space_time = sim_now(r->sim);
}

int tcp_receiver_init(struct tcp_receiver *r, struct sim *sim,
		      struct sim_host *host,
		      const struct tcp_receiver_params *p,
		      tcp_xmit_fn xmit, void *xmit_arg)
{
	memset(r, 0, sizeof(*r));
	if (!p->mss || p->wscale > 14 || !p->ts_tick ||
	    ((uint64_t)p->rcvbuf >> p->wscale) > 0xffff ||
	    (p->autotune && (!p->rx_truesize ||
			     ((uint64_t)p->rcvbuf_max >> p->wscale) > 0xffff)))
		return -EINVAL;
	r->sim = sim;
	r->host = host;
	r->p = *p;
	tcp_endpoint_prepare(&r->p.ep);
	r->xmit = xmit;
	r->xmit_arg = xmit_arg;
	if (p->rx_truesize)
		rcvbuf_init(r);
	r->right = free_space(r) >> p->wscale << p->wscale;
	sim_event_init(&r->delack_timer, delack_fire, r);
	return 0;
}

void tcp_receiver_fini(struct tcp_receiver *r)
{
	if (r->sim)
		sim_cancel(r->sim, &r->delack_timer);
	free(r->ooo);
	r->ooo = NULL;
}

void tcp_receiver_set_ready(struct tcp_receiver *r, tcp_ready_fn fn,
			    void *arg)
{
	r->ready = fn;
	r->ready_arg = arg;
}

/* Add [start, end) to the out-of-order queue, merging neighbours. */
static int ooo_add(struct tcp_receiver *r, uint64_t start, uint64_t end)
{
	struct tcp_ooo_range *n;
	size_t i = 0, j, cap;

	while (i < r->n_ooo && r->ooo[i].end < start)
		i++;
	j = i;
	while (j < r->n_ooo && r->ooo[j].start <= end) {
		if (r->ooo[j].start < start)
			start = r->ooo[j].start;
		if (r->ooo[j].end > end)
			end = r->ooo[j].end;
		r->ooo_bytes -= r->ooo[j].end - r->ooo[j].start;
		j++;
	}
	if (i == j) {           /* no overlap: insert at i */
		if (r->n_ooo == r->cap_ooo) {
			cap = r->cap_ooo ? 2 * r->cap_ooo : 16;
			n = realloc(r->ooo, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			r->ooo = n;
			r->cap_ooo = cap;
		}
		memmove(r->ooo + i + 1, r->ooo + i,
			(r->n_ooo - i) * sizeof(*r->ooo));
		r->n_ooo++;
	} else if (j > i + 1) { /* several merged into slot i */
		memmove(r->ooo + i + 1, r->ooo + j,
			(r->n_ooo - j) * sizeof(*r->ooo));
		r->n_ooo -= j - i - 1;
	}
	r->ooo[i].start = start;
	r->ooo[i].end = end;
	r->ooo_bytes += end - start;
	return 0;
}

/* Move now-contiguous out-of-order ranges into the receive queue. */
static void ooo_drain(struct tcp_receiver *r)
{
	size_t k = 0;
	uint64_t add;

	while (k < r->n_ooo && r->ooo[k].start <= r->rcv_nxt) {
		if (r->ooo[k].end > r->rcv_nxt) {
			add = r->ooo[k].end - r->rcv_nxt;
			r->unread += add;
			r->st.bytes_in += add;
			r->rcv_nxt = r->ooo[k].end;
		}
		r->ooo_bytes -= r->ooo[k].end - r->ooo[k].start;
		k++;
	}
	if (k) {
		memmove(r->ooo, r->ooo + k, (r->n_ooo - k) * sizeof(*r->ooo));
		r->n_ooo -= k;
	}
}

int tcp_receiver_rx(struct tcp_receiver *r, const struct tcp_seg *seg,
		    uint32_t segs)
{
	struct stack_tuple peer = stack_tuple_rev(&r->p.ep.t);
	int64_t start, end;
	bool had_ooo;
	int rc;

	if (!stack_tuple_eq(&seg->t, &peer))
		return -ENOENT;
	r->st.pkts_in++;
	r->st.segs_in += segs ? segs : 1;
	if (r->host)
		sim_charge(r->host, SIM_COST_tcp_rcv, 1);
	start = (int64_t)r->rcv_nxt +
		(int32_t)(seg->seq - (r->p.peer_isn + (uint32_t)r->rcv_nxt));
	end = start + seg->payload_len;
	/* RFC 7323 §4.3: remember the TSval to echo */
	if (seg->has_ts && !tcp_seq_before(seg->tsval, r->ts_recent) &&
	    start <= (int64_t)r->acked)
		r->ts_recent = seg->tsval;
	if (seg->payload_len == 0) {
		if (start < (int64_t)r->rcv_nxt) {
			r->st.probes_in++;
			quick_ack(r);
		}
		return 0;
	}
	if (end <= (int64_t)r->rcv_nxt) {
		r->st.old_pkts++;
		quick_ack(r);
		return 0;
	}
	if (end > (int64_t)r->right) {
		r->st.oow_bytes += (uint64_t)(end - (start > (int64_t)r->right ?
					      start : (int64_t)r->right));
		end = (int64_t)r->right;
		if (end <= start) {
			quick_ack(r);
			return 0;
		}
	}
	if (start > (int64_t)r->rcv_nxt) {
		r->st.ooo_pkts++;
		rc = ooo_add(r, (uint64_t)start, (uint64_t)end);
		quick_ack(r);
		return rc;
	}
	r->unread += (uint64_t)end - r->rcv_nxt;
	r->st.bytes_in += (uint64_t)end - r->rcv_nxt;
	r->rcv_nxt = (uint64_t)end;
	had_ooo = r->n_ooo > 0;
	if (had_ooo)
		ooo_drain(r);
	if (r->p.rx_truesize)
		rcvbuf_data_in(r, seg, segs);
	if (r->ready)
		r->ready(r->ready_arg);
	if (had_ooo)
		quick_ack(r);
	else if (r->rcv_nxt - r->acked > r->p.mss)
		send_ack(r);
	else if (r->rcv_nxt != r->acked &&
		 !sim_event_pending(&r->delack_timer))
		sim_schedule_in(r->sim, &r->delack_timer, r->p.delack);
	return 0;
}

int tcp_receiver_rx_frame(struct tcp_receiver *r, const uint8_t *frame,
			  size_t len)
{
	struct tcp_seg seg;

	if (tcp_seg_parse_eth(frame, len, &seg)) {
		r->st.bad_frames++;
		return -EINVAL;
	}
	return tcp_receiver_rx(r, &seg, 1);
}

uint64_t tcp_receiver_read(struct tcp_receiver *r, uint64_t max)
{
	uint64_t n = max < r->unread ? max : r->unread, cur, now;

	if (!n)
		return 0;
	r->unread -= n;
	r->st.bytes_read += n;
	if (r->host) {
		sim_charge(r->host, SIM_COST_sock_read, 1);
		sim_charge(r->host, SIM_COST_copy_user_byte, n);
	}
	/* tcp_recvmsg_locked(): autotuning after the copy, then
	 * tcp_cleanup_rbuf() */
	if (r->p.rx_truesize)
		rcvbuf_space_adjust(r);
	/* window update (Linux tcp_cleanup_rbuf): the window we could
	 * offer now is at least double the one offered, and 2 MSS more */
	cur = tcp_receiver_window(r);
	now = free_space(r) >> r->p.wscale << r->p.wscale;
	if (now >= 2 * cur && now >= cur + 2 * (uint64_t)r->p.mss) {
		r->st.window_updates++;
		send_ack(r);
	}
	return n;
}

void tcp_receiver_input(void *arg, struct stack_pkt *pkt)
{
	struct tcp_receiver *r = arg;

	if (pkt->tcp)
		tcp_receiver_rx(r, &pkt->seg, pkt->segs);
}
