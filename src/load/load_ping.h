/* SPDX-License-Identifier: MIT */
/*
 * load_ping.h - ping between the peer and the host under test, either way.
 *
 * From the peer (the default):
 * The peer sends an ICMP echo request every interval (payload 56 bytes by
 * default, as ping); the host's stack answers in the softirq that
 * received it (icmp_rcv + icmp_xmit charged) through the driver's TX path,
 * the device's TX ring and the wire; the peer takes the round-trip time
 * when the reply has fully arrived.  Statistics as ping(8) prints them:
 * min/avg/max/mdev, mdev = sqrt(mean(rtt^2) - mean(rtt)^2).
 *
 * From the host (seed 002: the DUT runs `ping PEER`): a ping task on the
 * host wakes every interval (a timer), sends the request (sock_write +
 * icmp_xmit) through the driver's TX path and sleeps.  The peer answers
 * @peer_reply_ns after the request has fully arrived: its own NIC and
 * stack, not simulated; the default, 25 us, is the AQC107 peer of seed
 * 002 at 10 Gbit/s: an RX interrupt 12 us after a lone frame (atlantic
 * hw_atl_b0 auto-moderation table, 10G row: RX min timer 6 x 2 us) plus
 * about 13 us of stack and TX [I].  The RTT is taken when the host's
 * stack receives the reply (ping uses the kernel's receive timestamp,
 * SO_TIMESTAMP), which then wakes the task.
 */
#ifndef RXSCALE_LOAD_PING_H
#define RXSCALE_LOAD_PING_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/netdevice.h>

#include "load/load_wire.h"

#define PING_MAX 100000

struct ping_cfg {
	unsigned count;                 /* -c */
	sim_time_t interval;            /* -i, ns */
	unsigned size;                  /* -s, payload bytes */
	bool from_host;                 /* the host pings the peer */
	sim_time_t peer_reply_ns;       /* from_host: the peer's turnaround
					   (0 = 25000) */
};

#define PING_PEER_REPLY_NS 25000
#define PING_PEER_PENDING 8             /* replies the peer holds at once */

struct ping {
	struct ping_cfg cfg;
	struct sim *sim;
	struct load_wire *wire;
	const uint8_t *dut_mac;
	struct sim_event ev;
	unsigned sent;
	sim_time_t *t_sent;             /* by sequence number */
	unsigned received;
	double sum_ms, sum2_ms, min_ms, max_ms;
	uint8_t frame[1600];
	/* from_host */
	struct sim_host *host;
	struct net_device *dev;
	struct sim_task task;           /* the ping process */
	bool task_up, task_waiting;
	unsigned due;                   /* requests the timer released */
	struct ping_reply {
		struct sim_event ev;
		struct ping *p;
		uint8_t frame[1600];
		size_t len;
	} reply[PING_PEER_PENDING];     /* the peer's pending replies */
	unsigned reply_next;
	uint64_t peer_busy;             /* requests dropped: all slots busy */
	uint64_t peer_frames;           /* frames the peer put on the wire
					 * (requests, or replies) */
	uint64_t tx_fail;               /* requests the host could not send */
};

/* Set up; @host and @dev are needed with cfg->from_host (else NULL).
 * Returns 0, -EINVAL (count 0 or > PING_MAX, interval 0, size not
 * 8..1472) or -ENOMEM. */
int ping_init(struct ping *p, const struct ping_cfg *cfg, struct sim *sim,
	      struct load_wire *wire, const uint8_t *dut_mac,
	      struct sim_host *host, struct net_device *dev);
void ping_start(struct ping *p, sim_time_t at);
void ping_fini(struct ping *p);

/* The peer got @frame: from the peer, an echo reply of ours (the RTT is
 * taken); from the host, the host's echo request (answered after
 * peer_reply_ns).  Returns true if it was one. */
bool ping_peer_rx(struct ping *p, const uint8_t *frame, size_t len);

/* from_host: the host's stack got @skb (past eth_type_trans): if it is
 * the peer's echo reply to us, take the RTT now, wake the task and
 * consume it.  Returns true if it was. */
bool ping_host_reply_rx(struct ping *p, struct sk_buff *skb);

/* ping's summary numbers, ms; false if nothing came back. */
bool ping_stats(const struct ping *p, double *min, double *avg, double *max,
		double *mdev);

/*
 * The host's ICMP: answer an echo request addressed to it.  @skb is past
 * eth_type_trans (data at the IP header).  Returns true if @skb was an
 * echo request (consumed: a reply was sent or counted as failed).
 */
bool ping_host_rx(struct net_device *dev, struct sk_buff *skb);

#endif /* RXSCALE_LOAD_PING_H */
