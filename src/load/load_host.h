/* SPDX-License-Identifier: MIT */
/*
 * load_host.h - the host's receive dispatch and the peer's: which
 * workload a delivered frame belongs to.
 *
 * Host: every skb the driver hands up is charged ip_rcv, then goes to the
 * ICMP echo responder, the iperf3 sockets, or is counted as "no socket"
 * and freed -- so every frame is accounted for.  Peer: frames from the
 * wire go to ping, or are counted.
 */
#ifndef RXSCALE_LOAD_HOST_H
#define RXSCALE_LOAD_HOST_H

#include "load/load_iperf3.h"
#include "load/load_ping.h"

struct load_host {
	struct net_device *dev;
	struct iperf3 *ip;              /* or NULL */
	struct ping *ping;              /* or NULL */
	uint64_t no_socket;             /* host frames no workload took */
	uint64_t icmp_in;               /* echo requests or replies the
					 * host's stack took */
	uint64_t peer_other;            /* peer frames no workload took */
};

/* Install the dispatch as @dev's receive hook. */
void load_host_init(struct load_host *h, struct net_device *dev,
		    struct iperf3 *ip, struct ping *ping);

/* The wire's peer receive callback (arg = struct load_host *). */
void load_host_peer_rx(void *arg, const uint8_t *frame, size_t len);

#endif /* RXSCALE_LOAD_HOST_H */
