// SPDX-License-Identifier: MIT
/* tcp_receiver.c - TCP receiver, delayed ACKs, window; see tcp_receiver.h. */
#include "stack/tcp_receiver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host.h"

void tcp_receiver_params_default(struct tcp_receiver_params *p)
{
	memset(p, 0, sizeof(*p));
	p->mss = TCP_MSS_TS;
	p->rcvbuf = 6u << 20;
	p->wscale = 7;
	p->delack = SIM_MS(40);
	p->timestamps = true;
	p->ts_tick = SIM_MS(1);
}

static uint64_t free_space(const struct tcp_receiver *r)
{
	uint64_t used = r->unread + r->ooo_bytes;

	return r->p.rcvbuf > used ? r->p.rcvbuf - used : 0;
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

int tcp_receiver_init(struct tcp_receiver *r, struct sim *sim,
		      struct sim_host *host,
		      const struct tcp_receiver_params *p,
		      tcp_xmit_fn xmit, void *xmit_arg)
{
	memset(r, 0, sizeof(*r));
	if (!p->mss || p->wscale > 14 || !p->ts_tick ||
	    ((uint64_t)p->rcvbuf >> p->wscale) > 0xffff)
		return -EINVAL;
	r->sim = sim;
	r->host = host;
	r->p = *p;
	tcp_endpoint_prepare(&r->p.ep);
	r->xmit = xmit;
	r->xmit_arg = xmit_arg;
	r->right = p->rcvbuf >> p->wscale << p->wscale;
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
