/* SPDX-License-Identifier: MIT */
/*
 * stack_pkt.h - one packet as GRO hands it up the stack: the head skb and
 * its parsed TCP header, with the totals of the segments merged into it.
 */
#ifndef RXSCALE_STACK_STACK_PKT_H
#define RXSCALE_STACK_STACK_PKT_H

#include <stdbool.h>
#include <stdint.h>

#include "stack/tcp_seg.h"

struct sk_buff;

struct stack_pkt {
	/* The first segment's skb, data at the IP header.  Ownership passes
	 * with the packet; the merged segments' skbs were already consumed
	 * (their payload is not appended: the stack counts bytes only). */
	struct sk_buff *skb;
	bool tcp;               /* parsed as IPv4 TCP; seg is valid */
	struct tcp_seg seg;     /* first segment's header; payload_len is the
				   run's total, flags the OR of all */
	uint32_t segs;          /* segments merged (>= 1) */
	uint32_t wire_len;      /* sum of the IP lengths of the segments */
};

/* The next layer's entry point (GRO -> demux -> socket). */
typedef void (*stack_pkt_fn)(void *arg, struct stack_pkt *pkt);

#endif /* RXSCALE_STACK_STACK_PKT_H */
