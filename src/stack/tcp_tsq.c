// SPDX-License-Identifier: MIT
/*
 * tcp_tsq.c - TCP Small Queues for one socket (see tcp_tsq.h).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "stack/tcp_sender.h"
#include "stack/tcp_tsq.h"

void tcp_tsq_init(struct tcp_tsq *q, struct tcp_sender *snd,
		  struct net_device *dev)
{
	q->snd = snd;
	q->dev = dev;
	q->bytes = 0;
	q->throttled = false;
}

/* A data skb of socket @skb->sk was freed (sent, or dropped). */
static void tcp_tsq_wfree(struct sk_buff *skb)
{
	struct tcp_tsq *q = skb->sk;

	q->bytes -= skb->len;
}

bool tcp_tsq_host_can_xmit(void *arg)
{
	struct tcp_tsq *q = arg;
	const struct netdev_queue *txq = netdev_get_tx_queue(q->dev, 0);

	return q->bytes < TCP_TSQ_LIMIT && txq->q_len + 1 < KERN_QDISC_LEN;
}

void tcp_tsq_host_own(struct tcp_tsq *q, struct sk_buff *skb)
{
	skb->sk = q;
	skb->destructor = tcp_tsq_wfree;
	q->bytes += skb->len;
}

bool tcp_tsq_peer_can_xmit(void *arg)
{
	struct tcp_tsq *q = arg;
	uint64_t limit = tcp_sender_pacing_rate(q->snd) >> 10;

	if (limit < 2 * TCP_TSQ_PEER_TSO_BYTES)
		limit = 2 * TCP_TSQ_PEER_TSO_BYTES;
	if (limit > TCP_TSQ_PEER_CAP)
		limit = TCP_TSQ_PEER_CAP;
	if (q->bytes > limit) {
		q->throttled = true;
		return false;
	}
	return true;
}

void tcp_tsq_peer_queued(struct tcp_tsq *q, size_t len)
{
	q->bytes += len;
}

void tcp_tsq_peer_sent(void *owner, size_t len)
{
	struct tcp_tsq *q = owner;

	q->bytes -= len;
	if (q->throttled) {
		q->throttled = false;
		tcp_sender_start(q->snd);
	}
}
