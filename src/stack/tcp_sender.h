/* SPDX-License-Identifier: MIT */
/*
 * tcp_sender.h - the sending half of an established TCP connection with
 * real loss recovery and congestion control, on the simulator's clock.
 *
 * Modelled:
 *  - MSS-sized segments (1448 bytes with timestamps) of an application
 *    that always has data (iperf3) or of a fixed byte count; the last
 *    segment of a byte count may be short; Nagle does not apply;
 *  - the peer's receive window (window field << peer_wscale); sender SWS
 *    avoidance (RFC 9293 §3.8.6.2.1): only full segments (or the tail of
 *    the data) are sent, and a window that stays closed is probed by the
 *    persist timer with a zero-length segment at SND.UNA − 1, as Linux's
 *    zero-window probe does;
 *  - slow start and congestion avoidance (RFC 5681), Reno or CUBIC
 *    (tcp_cc.h), growth only while cwnd-limited (Linux's
 *    tcp_is_cwnd_limited idea: the window must have been used);
 *  - fast retransmit on the third duplicate ACK and NewReno fast recovery
 *    (RFC 6582: ssthresh from the algorithm, cwnd = ssthresh + 3,
 *    inflation by one per further duplicate, partial ACKs retransmit the
 *    next hole and deflate, the first one re-arms the timer; the full ACK
 *    sets cwnd = ssthresh); no SACK;
 *  - the retransmission timer (RFC 6298 via tcp_rtt.h) with Karn's rule;
 *    on expiry ssthresh from the algorithm (once per loss episode),
 *    cwnd = 1, everything outstanding is sent again (go-back-N, as Linux
 *    marks it all lost), the timer backs off;
 *  - RFC 7323 timestamps: TSval from a 1 ms clock (Linux TCP_TS_HZ 1000),
 *    TSecr echoing the peer.  RTT samples come from the simulator's send
 *    time of the oldest newly ACKed segment (Linux measures with its own
 *    microsecond send stamps, not TSecr).
 * Not modelled: connection setup and teardown (the connection starts
 * established; a byte count ends with the last ACK, no FIN), SACK, PRR,
 * pacing, HyStart, TSO (the sender emits one frame per segment), ECN.
 *
 * Sequence numbers are kept internally as 64-bit stream offsets (0 = the
 * first data byte = isn) and converted at the wire.
 */
#ifndef RXSCALE_STACK_TCP_SENDER_H
#define RXSCALE_STACK_TCP_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim_event.h"
#include "stack/tcp_cc.h"
#include "stack/stack_pkt.h"
#include "stack/tcp_rtt.h"
#include "stack/tcp_seg.h"

struct sim_host;

#define TCP_APP_INFINITE UINT64_MAX    /* app_bytes: always has data */

/* Transmit one frame (@len bytes, Ethernet header first).  The callee
 * copies what it keeps; @frame is only valid during the call. */
typedef void (*tcp_xmit_fn)(void *arg, const uint8_t *frame, size_t len);

struct tcp_seg_tx;

/* Optional: transmit a segment as its description instead of its bytes
 * (@len: the frame's length); the callee builds it with tcp_seg_build()
 * when it needs the bytes, e.g. when the wire delivers it.  The
 * description's endpoint pointer stays valid while the sender lives.
 * Same @arg as the tcp_xmit_fn. */
typedef void (*tcp_xmit_seg_fn)(void *arg, const struct tcp_seg_tx *d, size_t len);

enum tcp_ca_state {
	TCP_CA_OPEN,            /* normal: slow start or congestion avoidance */
	TCP_CA_RECOVERY,        /* NewReno fast recovery */
	TCP_CA_LOSS,            /* after an RTO, until recover is ACKed */
};

/* Why a trace point was emitted. */
enum tcp_trace_ev {
	TCP_EV_ACK,             /* an ACK changed cwnd */
	TCP_EV_FAST_RETX,       /* third duplicate ACK: recovery entered */
	TCP_EV_RECOVERED,       /* full ACK: recovery left, cwnd = ssthresh */
	TCP_EV_RTO,             /* retransmission timer expired */
};

struct tcp_trace_point {
	sim_time_t now;         /* ns */
	enum tcp_trace_ev ev;
	enum tcp_ca_state state;
	uint32_t cwnd, ssthresh;        /* segments (after the event) */
	uint32_t prior_cwnd;            /* segments before the event */
	uint64_t bytes_acked;           /* cumulative */
	sim_time_t srtt;                /* ns, 0 before the first sample */
	sim_time_t rto;                 /* ns, the timer's current value */
};

typedef void (*tcp_trace_fn)(void *arg, const struct tcp_trace_point *tp);

/* May the sender hand another new segment to the local stack now?  The
 * host's TCP Small Queues / local-congestion check: when it says no, new
 * data waits (nothing is lost) until the next ACK or tcp_sender_start()
 * pushes again.  Retransmissions are not held. */
typedef bool (*tcp_can_xmit_fn)(void *arg);

/* Called after an ACK advanced SND.UNA (send-buffer space was freed), the
 * hook a writer blocked on a full send buffer waits for (Linux
 * sk_write_space).  @unsent_and_unacked is app_bytes − una, bytes. */
typedef void (*tcp_write_space_fn)(void *arg, uint64_t unsent_and_unacked);

struct tcp_sender_params {
	struct tcp_endpoint ep;         /* local MACs and tuple */
	uint32_t isn;                   /* sequence number of byte 0 */
	uint32_t peer_seq;              /* the peer's sequence (our ACK field) */
	uint32_t mss;                   /* payload bytes per segment (1448) */
	enum tcp_cc_algo cc;
	uint32_t init_cwnd;             /* segments (10, RFC 6928) */
	uint32_t cwnd_clamp;            /* segments (Linux snd_cwnd_clamp) */
	uint32_t init_ssthresh;         /* segments; 0 = infinite (Linux);
					   a finite one stands in for HyStart */
	uint64_t app_bytes;             /* bytes to send, or TCP_APP_INFINITE */
	uint8_t peer_wscale;            /* shift applied to ACKs' window (7) */
	uint32_t init_rwnd;             /* bytes usable before the first ACK */
	bool timestamps;                /* RFC 7323 option on every segment */
	sim_time_t ts_tick;             /* TSval clock period, ns (1 ms) */
	sim_time_t rto_min, rto_max, rto_init;  /* ns: 200 ms, 120 s, 1 s */
	/* Host CPU cost shape (only with a host): 0 = every segment is a
	 * full transmit (tcp_xmit); N = GSO, as Linux does for a device
	 * without TSO: the new segments one push sends go down as GSO
	 * packets of up to N segments, tcp_xmit once per packet and
	 * gso_segment per further segment (skb_segment in
	 * validate_xmit_skb).  Retransmissions are single segments.  The
	 * frames the callback sees are the same either way. */
	uint32_t gso_max_segs;
};

/* Counters (read-only for users). */
struct tcp_sender_stats {
	uint64_t segs_out;              /* data segments sent, incl. retx */
	uint64_t bytes_out;             /* payload bytes sent, incl. retx */
	uint64_t retransmits;           /* segments sent again (tcpi_total_retrans) */
	uint64_t fast_retransmits;      /* recovery episodes entered */
	uint64_t rto_count;             /* retransmission timer expiries */
	uint64_t probes;                /* zero-window probes */
	uint64_t acks_in;               /* ACK frames accepted */
	uint64_t dupacks_in;            /* of which duplicate ACKs */
	uint64_t bad_frames;            /* unparseable or not this connection */
	uint64_t bytes_acked;           /* cumulative, bytes */
	uint64_t throttled;             /* pushes stopped by can_xmit */
	uint64_t gso_packets;           /* GSO packets (gso_max_segs > 0) */
};

/* One in-flight segment's record (ring indexed by offset / mss). */
struct tcp_seg_rec {
	sim_time_t sent;                /* last transmission, ns */
	bool retx;                      /* ever retransmitted (Karn) */
};

struct tcp_sender {
	struct sim *sim;
	struct sim_host *host;          /* charged tcp_xmit if not NULL */
	struct tcp_sender_params p;
	tcp_xmit_fn xmit;
	void *xmit_arg;
	tcp_xmit_seg_fn xmit_seg;
	tcp_trace_fn trace;
	void *trace_arg;
	tcp_write_space_fn write_space;
	void *write_space_arg;
	tcp_can_xmit_fn can_xmit;
	void *can_xmit_arg;

	/* stream offsets, bytes */
	uint64_t una;                   /* oldest unacknowledged */
	uint64_t nxt;                   /* next to send */
	uint64_t max;                   /* highest ever sent + 1 */
	uint64_t rwnd_edge;             /* una + window: right edge */
	uint64_t recover;               /* RFC 6582 recover (stream offset) */
	uint64_t cwnd_usage_seq;        /* end of the window being measured */
	uint32_t max_packets_out;       /* most segments out in that window */

	struct tcp_cwnd w;
	struct tcp_cc cc;
	struct tcp_rtt rtt;
	enum tcp_ca_state state;
	uint32_t dupacks;
	bool partial_seen;              /* a partial ACK re-armed the timer */
	bool loss_ssthresh_set;         /* ssthresh taken for this RTO episode */
	uint16_t last_win;              /* window field of the last ACK */
	uint32_t ts_recent;             /* peer TSval to echo */
	uint16_t ip_id;

	struct sim_event rto_timer;
	struct sim_event persist_timer;
	unsigned persist_backoff;

	struct tcp_seg_rec *ring;       /* in-flight records */
	uint64_t ring_mask;             /* capacity - 1 (power of two) */

	struct tcp_sender_stats st;
};

/* Defaults: MSS 1448, CUBIC, init cwnd 10, clamp 65535 segments,
 * infinite data, peer wscale 7, init rwnd 64 KiB, timestamps on with a
 * 1 ms tick, RTO 200 ms / 120 s / 1 s.  The endpoint is left zero. */
void tcp_sender_params_default(struct tcp_sender_params *p);

/*
 * tcp_sender_init() - set up @s on engine @sim; @host may be NULL (the
 * peer is not CPU-limited).  Frames go to @xmit(@xmit_arg, ...).  Nothing
 * is sent until tcp_sender_start().  Returns 0, -EINVAL (mss 0 or > 1460,
 * init_cwnd 0) or -ENOMEM.
 */
int tcp_sender_init(struct tcp_sender *s, struct sim *sim,
		    struct sim_host *host, const struct tcp_sender_params *p,
		    tcp_xmit_fn xmit, void *xmit_arg);

/* Cancel the timers (then sim_purge() before freeing) and free memory. */
void tcp_sender_fini(struct tcp_sender *s);

/* Install a trace hook called at every cwnd change and loss event. */
void tcp_sender_set_trace(struct tcp_sender *s, tcp_trace_fn fn, void *arg);

/* Install the send-as-description hook (NULL: frames are built here and
 * passed to the tcp_xmit_fn). */
void tcp_sender_set_xmit_seg(struct tcp_sender *s, tcp_xmit_seg_fn fn);

/* Install the can-xmit hook (NULL: always yes). */
void tcp_sender_set_can_xmit(struct tcp_sender *s, tcp_can_xmit_fn fn,
			     void *arg);

/* Install the write-space hook (NULL to remove). */
void tcp_sender_set_write_space(struct tcp_sender *s, tcp_write_space_fn fn,
				void *arg);

/* Start sending: as much as cwnd and the window allow. */
void tcp_sender_start(struct tcp_sender *s);

/* The application stops: no new data after what was already sent (what
 * is outstanding is still recovered and retransmitted as needed). */
void tcp_sender_close(struct tcp_sender *s);

/* Let the application add @bytes more to send (not for TCP_APP_INFINITE). */
void tcp_sender_write(struct tcp_sender *s, uint64_t bytes);

/*
 * tcp_sender_rx() - consume one frame from the peer (an ACK), Ethernet
 * header first.  Returns 0 if it was this connection's ACK, -ENOENT if
 * another connection's, -EINVAL if unparseable (counted in bad_frames).
 */
int tcp_sender_rx(struct tcp_sender *s, const uint8_t *frame, size_t len);

/* The same for a parsed header (e.g. from GRO/demux on the host). */
int tcp_sender_rx_seg(struct tcp_sender *s, const struct tcp_seg *seg);

/* A stack_pkt_fn for stack_demux_add() when the host under test sends:
 * @s is the tcp_sender; a GRO'd run of ACKs counts as its first. */
void tcp_sender_input(void *s, struct stack_pkt *pkt);

/* Bytes sent and not yet acknowledged. */
static inline uint64_t tcp_sender_in_flight(const struct tcp_sender *s)
{
	return s->nxt - s->una;
}

/*
 * The connection's pacing rate, bytes/s, as Linux sets sk_pacing_rate
 * after each ACK (tcp_update_pacing_rate, net/ipv4/tcp_input.c, 6.x): the
 * MSS times max(cwnd, segments out) per smoothed RTT, times 200 % while
 * cwnd < ssthresh / 2 (net.ipv4.tcp_pacing_ss_ratio) and 120 % after
 * (tcp_pacing_ca_ratio).  Before the first RTT sample it is unbounded
 * (UINT64_MAX), as Linux does not divide by a zero srtt.  TCP Small Queues
 * sizes its per-socket limit from it.
 */
uint64_t tcp_sender_pacing_rate(const struct tcp_sender *s);

/* True when all of a finite app_bytes has been acknowledged. */
static inline bool tcp_sender_done(const struct tcp_sender *s)
{
	return s->p.app_bytes != TCP_APP_INFINITE && s->una >= s->p.app_bytes;
}

#endif /* RXSCALE_STACK_TCP_SENDER_H */
