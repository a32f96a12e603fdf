/* SPDX-License-Identifier: MIT */
/*
 * tcp_tsq.h - TCP Small Queues for one socket, as Linux keeps a sender's
 * local queues short (tcp_small_queue_check, net/ipv4/tcp_output.c): a
 * socket sends new data only while the bytes of its frames that have not
 * left the host stay under a limit; when they are freed it may send again.
 *
 * Two sides, as the workloads need them:
 *  - a host socket whose segments go one skb each through
 *    dev_queue_xmit (tcp_tsq_host_*): the skb's destructor gives its bytes
 *    back when the driver or the qdisc frees it (sock_wfree); a socket may
 *    send while under TCP_TSQ_LIMIT and the device queue's qdisc has room,
 *    else it waits for the next ACK;
 *  - a peer socket on a TSO NIC (tcp_tsq_peer_*): its frames are the
 *    wire's until they have left the peer's NIC; the limit follows the
 *    pacing rate (TCP_TSQ_PEER_*) and a throttled socket sends again when
 *    one of its frames has left (tcp_tsq_write, Linux's TSQ handler).
 */
#ifndef RXSCALE_STACK_TCP_TSQ_H
#define RXSCALE_STACK_TCP_TSQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_device;
struct sk_buff;
struct tcp_sender;

/* A host socket's bytes in the qdisc and TX ring (Linux TSQ: about 1 ms
 * at the pacing rate, capped by net.ipv4.tcp_limit_output_bytes; 1 ms at
 * 10 Gbit/s is 1.25 MB, so the cap, 1 MiB, applies). */
#define TCP_TSQ_LIMIT (1u << 20)
/* The peer's TCP Small Queues (a Linux peer with a TSO NIC and the
 * default fq_codel qdisc, which does not pace): a socket may have
 * max(2 TSO packets, 1/1024 s at its pacing rate) bytes in its qdisc and
 * NIC, capped by net.ipv4.tcp_limit_output_bytes (tcp_small_queue_check,
 * net/ipv4/tcp_output.c; sk_pacing_shift 10).  On a LAN (min RTT under
 * 512 us, net.ipv4.tcp_tso_rtt_log 9) a TSO packet is gso_max_size, 64 KiB:
 * 45 segments of 1448 bytes.  The cap is 4 MiB (Documentation/networking/
 * ip-sysctl.rst since Linux 6.8; 1 MiB before). */
#define TCP_TSQ_PEER_TSO_BYTES (45u * 1448u)
#define TCP_TSQ_PEER_CAP (4u << 20)

struct tcp_tsq {
	struct tcp_sender *snd;         /* the socket's sender */
	struct net_device *dev;         /* host side: its device (queue 0) */
	uint64_t bytes;                 /* host: frame bytes of the socket's
					   skbs not yet freed by the driver;
					   peer: frame bytes not yet sent by
					   its NIC */
	bool throttled;                 /* peer: waits for TX completions */
};

/* Bind @q to @snd; @dev for a host socket (NULL for a peer's). */
void tcp_tsq_init(struct tcp_tsq *q, struct tcp_sender *snd,
		  struct net_device *dev);

/* Host: may the socket queue another skb?  A tcp_can_xmit_fn of @arg, a
 * struct tcp_tsq. */
bool tcp_tsq_host_can_xmit(void *arg);

/* Host: @skb carries the socket's data: it is charged to @q until it is
 * freed (skb->sk = @q, skb->destructor). */
void tcp_tsq_host_own(struct tcp_tsq *q, struct sk_buff *skb);

/* Peer: may the socket queue another segment for its NIC?  A
 * tcp_can_xmit_fn of @arg, a struct tcp_tsq; marks it throttled if not. */
bool tcp_tsq_peer_can_xmit(void *arg);

/* Peer: @len bytes of the socket were queued for its NIC. */
void tcp_tsq_peer_queued(struct tcp_tsq *q, size_t len);

/* Peer: @len bytes of socket @owner (a struct tcp_tsq) have left its NIC;
 * a throttled socket sends again (a load_wire peer_sent callback). */
void tcp_tsq_peer_sent(void *owner, size_t len);

#endif /* RXSCALE_STACK_TCP_TSQ_H */
