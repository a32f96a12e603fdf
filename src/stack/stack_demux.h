/* SPDX-License-Identifier: MIT */
/*
 * stack_demux.h - the IP/TCP receive step after GRO: find the socket of
 * each packet by its 4-tuple (as __inet_lookup_established does) and hand
 * it over; count what matches nothing, so every frame is accounted for.
 *
 * Only IPv4 TCP is demultiplexed for now: UDP and ICMP packets, like
 * anything that is not TCP, are counted in not_tcp and freed.  The table
 * is a small array searched linearly (tens of sockets).
 * CPU cost when a host is given: ip_rcv per packet, and per packet that
 * reaches a socket the cache misses its payload costs
 * (stack_misses_per_kb(), charged by sim_charge_misses: nothing unless the
 * platform gives a DRAM latency).
 */
#ifndef RXSCALE_STACK_STACK_DEMUX_H
#define RXSCALE_STACK_STACK_DEMUX_H

#include <stddef.h>
#include <stdint.h>

#include "stack/stack_pkt.h"

struct sim_host;

struct stack_demux_sock {
	struct stack_tuple t;   /* as on received packets: saddr = remote */
	stack_pkt_fn rx;
	void *arg;
	uint64_t pkts, segs;
};

struct stack_demux_stats {
	uint64_t pkts;          /* packets in */
	uint64_t segs;          /* segments they carried */
	uint64_t delivered;     /* packets given to a socket */
	uint64_t no_socket;     /* TCP packets matching no socket */
	uint64_t no_socket_segs;
	uint64_t not_tcp;       /* not IPv4 TCP (UDP, ICMP, ... for now) */
};

struct stack_demux {
	struct sim_host *host;
	struct stack_demux_sock *socks;
	size_t n, cap;
	struct stack_demux_stats st;
};

void stack_demux_init(struct stack_demux *d, struct sim_host *host);
void stack_demux_fini(struct stack_demux *d);

/* Register @rx(@arg, pkt) for packets carrying tuple @t.  The handler
 * must not keep pkt->skb: the demux frees it when the handler returns.
 * Returns 0, -EEXIST or -ENOMEM. */
int stack_demux_add(struct stack_demux *d, const struct stack_tuple *t,
		    stack_pkt_fn rx, void *arg);

/* Remove the socket of @t: 0 or -ENOENT. */
int stack_demux_del(struct stack_demux *d, const struct stack_tuple *t);

/*
 * The cache misses (to DRAM) the stack incurs per KB of payload with
 * @conns connections: Willmann, Rixner and Cox, "An Evaluation of Network
 * Stack Parallelization Strategies in Modern Operating Systems", USENIX
 * ATC 2006, Table 2 (L2 data-cache misses per KB transmitted, the
 * uniprocessor kernel; the L2 was the Opteron's last level): 1.83 at 6
 * connections, 4.08 at 192, 18.49 at 16384 -- connection state competes
 * for the cache.  Linear in log(connections) between the points, the
 * 6-connection figure below 6, the 16384 one above.
 */
double stack_misses_per_kb(size_t conns);

/* The entry point (a stack_pkt_fn): @arg is the struct stack_demux. */
void stack_demux_input(void *arg, struct stack_pkt *pkt);

#endif /* RXSCALE_STACK_STACK_DEMUX_H */
