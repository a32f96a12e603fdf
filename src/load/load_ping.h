/* SPDX-License-Identifier: MIT */
/*
 * load_ping.h - ping from the peer to the host under test, and the host's
 * ICMP echo responder.
 *
 * The peer sends an ICMP echo request every interval (payload 56 bytes by
 * default, as ping); the host's stack answers in the softirq that
 * received it (icmp_rcv + icmp_xmit charged) through the driver's TX path,
 * the device's TX ring and the wire; the peer takes the round-trip time
 * when the reply has fully arrived.  Statistics as ping(8) prints them:
 * min/avg/max/mdev, mdev = sqrt(mean(rtt^2) - mean(rtt)^2).
 */
#ifndef RXSCALE_LOAD_PING_H
#define RXSCALE_LOAD_PING_H

#include <stdbool.h>
#include <stdint.h>

#include "kern/netdevice.h"
#include "load/load_wire.h"

#define PING_MAX 100000

struct ping_cfg {
	unsigned count;                 /* -c */
	sim_time_t interval;            /* -i, ns */
	unsigned size;                  /* -s, payload bytes */
};

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
};

int ping_init(struct ping *p, const struct ping_cfg *cfg, struct sim *sim,
	      struct load_wire *wire, const uint8_t *dut_mac);
void ping_start(struct ping *p, sim_time_t at);
void ping_fini(struct ping *p);

/* The peer got @frame: if it is an echo reply of ours, take the RTT.
 * Returns true if it was. */
bool ping_peer_rx(struct ping *p, const uint8_t *frame, size_t len);

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
