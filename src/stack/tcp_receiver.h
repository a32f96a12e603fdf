/* SPDX-License-Identifier: MIT */
/*
 * tcp_receiver.h - the receiving half of an established TCP connection:
 * what decides when ACKs go out and what window they carry.
 *
 * Modelled:
 *  - in-order delivery into the socket receive queue (a byte count: the
 *    payload bytes themselves are not kept), an out-of-order queue of
 *    byte ranges, merged when a hole fills;
 *  - input is one segment or one GRO'd run (several segments merged,
 *    one header): Linux decides ACKs per skb, so a 64 KiB GRO packet is
 *    ACKed once;
 *  - delayed ACK as Linux's __tcp_ack_snd_check: ACK at once when more
 *    than one full-sized segment is unacknowledged (so every second full
 *    segment), otherwise after the delayed-ACK timer (40 ms, Linux's
 *    TCP_DELACK_MIN; the adaptive ato and quick-ACK mode are not
 *    modelled); ACK at once for out-of-order data, a segment that fills
 *    (part of) a hole, an old duplicate, data beyond the window and a
 *    zero-window probe (RFC 9293 §3.10.7.4; SACK-less duplicate ACKs);
 *  - the receive window: advertised window = free space >> wscale (7),
 *    never shrinking the right edge (RFC 7323 §2.4); data beyond the
 *    advertised edge is dropped and counted.  Free space is rcvbuf −
 *    unread − out-of-order bytes, in payload bytes, unless rx_truesize
 *    is set: then rcvbuf is socket memory (sk_rcvbuf) as Linux 6.10
 *    counts it and the window follows its rules (below);
 *  - with rx_truesize set, Linux 6.10's receive-buffer rules
 *    (net/ipv4/tcp_input.c, include/net/tcp.h of v6.10-rc1):
 *    . memory to window: window = space × scaling_ratio / 256
 *      (tcp_win_from_space, TCP_RMEM_TO_WIN_SCALE 8); the ratio starts
 *      at 1200 bytes per SKB_TRUESIZE(4096), 65/256, and is measured
 *      once, from the first in-order packet of a full segment, as
 *      payload / truesize (tcp_measure_rcv_mss); queued bytes cost
 *      rx_truesize per MSS of memory;
 *    . window_clamp, the largest window offered: at the start
 *      tcp_full_space() less one segment (tcp_init_buffer_space with
 *      tcp_app_win 31), then window = min(free space, window_clamp);
 *    . the receiver's RTT (rcv_rtt_est, tcp_rcv_rtt_update): from
 *      timestamps, TSecr's age in TSval ticks (at least one), smoothed
 *      by 1/8 (tcp_rcv_rtt_measure_ts, for packets of at least rcv_mss
 *      with a new TSecr); and from the time to receive one advertised
 *      window, taken as a minimum (tcp_rcv_rtt_measure);
 *    . autotuning (tcp_rcv_space_adjust, at each read): once per
 *      receiver RTT, if the reader took more than rcvq_space.space bytes
 *      in it (14,480 at first, TCP_INIT_CWND × MSS), rcvwin = 2 × copied
 *      + 16 MSS, plus twice rcvwin × the growth over the last RTT;
 *      sk_rcvbuf grows (never shrinks) to the memory that window takes,
 *      at most rcvbuf_max (tcp_rmem[2], 6 MiB), and window_clamp
 *      follows.  autotune false is a locked SO_RCVBUF
 *      (SOCK_RCVBUF_LOCK): the buffer stays, the clamp too;
 *    not modelled: rcv_ssthresh (the window grows to the clamp at
 *    once), memory pressure and tcp_clamp_window;
 *  - the reader: tcp_receiver_read() takes bytes from the queue; when the
 *    window it could now offer is at least twice the one advertised and
 *    2 MSS larger, a window update ACK goes out at once (Linux's
 *    tcp_cleanup_rbuf rule); otherwise the next ACK carries it;
 *  - timestamps (RFC 7323 §4.3): TS.Recent is taken from a segment with
 *    SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent, echoed in TSecr;
 *    TSval from the receiver's 1 ms clock.
 * ACKs are real frames (66 bytes: Ethernet, IPv4, TCP with timestamps).
 * CPU costs when a host is given: tcp_rcv per packet, ack_xmit per ACK,
 * sock_read per read call and copy_user_byte per byte read.
 */
#ifndef RXSCALE_STACK_TCP_RECEIVER_H
#define RXSCALE_STACK_TCP_RECEIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim_event.h"
#include "stack/stack_pkt.h"
#include "stack/tcp_sender.h"
#include "stack/tcp_seg.h"

struct sim_host;

struct tcp_receiver_params {
	struct tcp_endpoint ep;         /* local MACs and tuple */
	uint32_t isn;                   /* our sequence (ACKs' seq field) */
	uint32_t peer_isn;              /* sequence of the peer's byte 0 */
	uint32_t mss;                   /* full segment payload, bytes */
	uint32_t rcvbuf;                /* receive buffer, bytes: payload, or
					   sk_rcvbuf when rx_truesize is set */
	uint32_t rx_truesize;           /* skb truesize of one full segment
					   (0: the buffer counts payload) */
	bool autotune;                  /* tcp_moderate_rcvbuf and no
					   SO_RCVBUF (needs rx_truesize) */
	uint32_t rcvbuf_max;            /* tcp_rmem[2] */
	uint8_t wscale;                 /* our window scale shift (7) */
	sim_time_t delack;              /* delayed-ACK timeout, ns (40 ms) */
	bool timestamps;
	sim_time_t ts_tick;             /* TSval clock period, ns (1 ms) */
};

struct tcp_receiver_stats {
	uint64_t pkts_in;               /* packets (GRO runs) received */
	uint64_t segs_in;               /* segments they carried */
	uint64_t bytes_in;              /* payload bytes delivered in order */
	uint64_t bytes_read;            /* taken by the reader */
	uint64_t acks_out;              /* ACK frames sent (all kinds) */
	uint64_t quick_acks;            /* of which immediate for ooo/old/window */
	uint64_t delack_timeouts;       /* of which sent by the delack timer */
	uint64_t window_updates;        /* of which sent by the reader */
	uint64_t ooo_pkts;              /* packets queued out of order */
	uint64_t old_pkts;              /* entirely duplicate packets */
	uint64_t oow_bytes;             /* bytes dropped beyond the window */
	uint64_t probes_in;             /* zero-length old-sequence segments */
	uint64_t bad_frames;            /* unparseable frames */
	uint64_t rcvbuf_grows;          /* times autotuning raised rcvbuf */
};

/* Linux 6.10's receive-buffer state (names as in struct tcp_sock). */
struct tcp_rcvbuf_state {
	uint64_t rcvbuf;                /* sk_rcvbuf, bytes of memory */
	uint64_t window_clamp;          /* largest window offered, bytes */
	uint32_t scaling_ratio;         /* window per memory, /256 */
	uint32_t rcv_mss;               /* icsk_ack.rcv_mss */
	uint32_t rtt_us8;               /* rcv_rtt_est.rtt_us, us << 3 */
	uint64_t rtt_seq;               /* rcv_rtt_est.seq (stream offset) */
	sim_time_t rtt_time;            /* rcv_rtt_est.time (0: none yet) */
	uint32_t last_tsecr;            /* rcv_rtt_last_tsecr */
	uint64_t space;                 /* rcvq_space.space, bytes */
	uint64_t space_seq;             /* rcvq_space.seq (bytes read) */
	sim_time_t space_time;          /* rcvq_space.time */
};

struct tcp_ooo_range {
	uint64_t start, end;            /* stream offsets [start, end) */
};

/* Called when in-order data was added to the receive queue. */
typedef void (*tcp_ready_fn)(void *arg);

struct tcp_receiver {
	struct sim *sim;
	struct sim_host *host;
	struct tcp_receiver_params p;
	tcp_xmit_fn xmit;
	void *xmit_arg;
	tcp_ready_fn ready;
	void *ready_arg;

	uint64_t rcv_nxt;               /* stream offset expected next */
	uint64_t acked;                 /* rcv_nxt in the last ACK sent */
	uint64_t right;                 /* advertised right edge */
	uint64_t unread;                /* bytes queued for the reader */
	struct tcp_ooo_range *ooo;      /* sorted, disjoint, non-adjacent */
	size_t n_ooo, cap_ooo;
	uint64_t ooo_bytes;
	uint32_t ts_recent;
	uint16_t ip_id;
	struct sim_event delack_timer;
	struct tcp_rcvbuf_state rb;     /* used when p.rx_truesize != 0 */

	struct tcp_receiver_stats st;
};

/* Defaults: MSS 1448, rcvbuf 6 MiB of payload (no truesize, no
 * autotuning; rcvbuf_max 6 MiB), wscale 7, delack 40 ms, timestamps on
 * with a 1 ms tick.  The endpoint and sequence numbers are zero. */
void tcp_receiver_params_default(struct tcp_receiver_params *p);

/*
 * tcp_receiver_init() - set up @r on @sim; @host may be NULL.  ACK
 * frames go to @xmit(@xmit_arg, ...).  The initial window advertised is
 * the whole rcvbuf.  Returns 0 or -EINVAL (mss 0, wscale > 14, rcvbuf
 * larger than the scaled window can say).
 */
int tcp_receiver_init(struct tcp_receiver *r, struct sim *sim,
		      struct sim_host *host,
		      const struct tcp_receiver_params *p,
		      tcp_xmit_fn xmit, void *xmit_arg);

/* Cancel the timer (then sim_purge() before freeing) and free memory. */
void tcp_receiver_fini(struct tcp_receiver *r);

void tcp_receiver_set_ready(struct tcp_receiver *r, tcp_ready_fn fn,
			    void *arg);

/*
 * tcp_receiver_rx() - one received packet: @seg is its header (for a GRO
 * run, the first segment's, with payload_len the run's total) and @segs
 * the number of segments in it (>= 1).  Returns 0, -ENOENT if @seg is not
 * this connection's, -ENOMEM if the out-of-order queue cannot grow (the
 * data is dropped).
 */
int tcp_receiver_rx(struct tcp_receiver *r, const struct tcp_seg *seg,
		    uint32_t segs);

/* One Ethernet frame: parse, then tcp_receiver_rx(..., 1).  -EINVAL if
 * it does not parse as IPv4 TCP. */
int tcp_receiver_rx_frame(struct tcp_receiver *r, const uint8_t *frame,
			  size_t len);

/* A stack_pkt_fn for stack_demux_add(): @r is the tcp_receiver. */
void tcp_receiver_input(void *r, struct stack_pkt *pkt);

/* The reader takes up to @max bytes; returns the bytes taken. */
uint64_t tcp_receiver_read(struct tcp_receiver *r, uint64_t max);

/* Linux's tcp_win_from_space() and tcp_space_from_win() with the
 * receiver's scaling_ratio (identity when rx_truesize is 0). */
uint64_t tcp_receiver_win_from_space(const struct tcp_receiver *r,
				     uint64_t space);
uint64_t tcp_receiver_space_from_win(const struct tcp_receiver *r,
				     uint64_t win);

/* The receive buffer now (sk_rcvbuf; p.rcvbuf without rx_truesize). */
static inline uint64_t tcp_receiver_rcvbuf(const struct tcp_receiver *r)
{
	return r->p.rx_truesize ? r->rb.rcvbuf : r->p.rcvbuf;
}

/* Bytes waiting for the reader. */
static inline uint64_t tcp_receiver_avail(const struct tcp_receiver *r)
{
	return r->unread;
}

/* The window the last ACK advertised, bytes from rcv_nxt. */
static inline uint64_t tcp_receiver_window(const struct tcp_receiver *r)
{
	return r->right > r->rcv_nxt ? r->right - r->rcv_nxt : 0;
}

#endif /* RXSCALE_STACK_TCP_RECEIVER_H */
