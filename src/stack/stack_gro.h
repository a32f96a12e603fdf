/* SPDX-License-Identifier: MIT */
/*
 * stack_gro.h - generic receive offload for one NAPI context, as Linux's
 * dev_gro_receive / tcp_gro_receive behave (re-implemented from their
 * documented behaviour):
 *
 *  - held packets live in GRO_HASH_BUCKETS (8) buckets chosen by the
 *    skb's RSS hash (or a hash of the 4-tuple when there is none), at
 *    most MAX_GRO_SKBS (8) per bucket; when a bucket is full its oldest
 *    packet is flushed to make room (gro_flush_oldest);
 *  - an IPv4 TCP segment merges into the held packet of its flow (same
 *    4-tuple) when it is the next in sequence, carries the same ACK
 *    number, the same flags (CWR ends a packet) and the same TCP options
 *    (so the same timestamps), is not larger than the first segment, and
 *    the result stays within 64 KiB of IP packet (GRO_MAX_SIZE 65536) and
 *    max_segs segments;
 *  - a segment that does not merge flushes the held packet of its flow
 *    and starts a new one; a merged segment that is shorter than the
 *    first, or carries PSH, FIN, URG, RST or SYN, is the packet's last
 *    (flushed at once); such a segment with nothing held, a segment
 *    without payload and anything that is not IPv4 TCP go up at once;
 *  - packets of other flows stay held in parallel: interleaving only
 *    hurts through the poll-end flush and bucket overflow, as in Linux.
 * The owner calls stack_gro_flush() at the end of each NAPI poll (the
 * kern rx_flush hook), or stack_gro_flush_old() for packets older than a
 * jiffy when the poll used its whole budget (napi_gro_flush(flush_old)).
 *
 * CPU costs when a host is given: gro_segment per skb received and
 * gro_flush per packet handed up.
 */
#ifndef RXSCALE_STACK_STACK_GRO_H
#define RXSCALE_STACK_STACK_GRO_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_event.h"
#include "stack/stack_pkt.h"

struct sim_host;
struct sk_buff;

#define GRO_HASH_BUCKETS 8
#define MAX_GRO_SKBS 8
#define GRO_MAX_SIZE 65536      /* bytes of merged IP packet, exclusive */

struct stack_gro_params {
	unsigned buckets;       /* 1..GRO_HASH_BUCKETS (8) */
	unsigned per_bucket;    /* 1..MAX_GRO_SKBS (8) */
	uint32_t max_size;      /* IP packet bytes, < this (65536) */
	uint32_t max_segs;      /* segments per packet (65535: size rules) */
};

struct stack_gro_held {
	struct stack_pkt pkt;
	bool used;
	uint32_t next_seq;      /* sequence the next segment must carry */
	uint32_t seg_size;      /* the first segment's payload (gso_size) */
	uint32_t ip_len;        /* merged IP packet length so far */
	uint64_t age;           /* arrival order of the first segment */
	sim_time_t when;        /* arrival time of the first segment, ns */
};

struct stack_gro_stats {
	uint64_t segments;      /* skbs received */
	uint64_t packets;       /* packets handed up */
	uint64_t merged;        /* segments merged into a held packet */
	uint64_t flush_poll;    /* packets flushed by stack_gro_flush*() */
	uint64_t flush_evict;   /* ... because their bucket was full */
	uint64_t flush_mismatch;/* ... by a segment that did not merge */
	uint64_t flush_final;   /* ... ended by PSH/FIN/short segment */
	uint64_t passthrough;   /* went up without being held */
	uint64_t not_tcp;       /* of which not IPv4 TCP */
};

struct stack_gro {
	struct sim *sim;
	struct sim_host *host;
	struct stack_gro_params p;
	stack_pkt_fn deliver;
	void *deliver_arg;
	struct stack_gro_held held[GRO_HASH_BUCKETS][MAX_GRO_SKBS];
	/* bit b * MAX_GRO_SKBS + i: held[b][i] is used (the scans visit only
	 * held packets) */
	uint64_t used_map;
	unsigned count;         /* packets held */
	uint64_t next_age;
	struct stack_gro_stats st;
};

void stack_gro_params_default(struct stack_gro_params *p);

/*
 * stack_gro_init() - @p NULL for the defaults; @sim gives arrival times
 * (may be NULL: then flush_old flushes everything); @host may be NULL.
 * Returns 0 or -EINVAL for out-of-range parameters.
 */
int stack_gro_init(struct stack_gro *g, const struct stack_gro_params *p,
		   struct sim *sim, struct sim_host *host,
		   stack_pkt_fn deliver, void *arg);

/* Hand one received skb (data at the IP header, as after
 * eth_type_trans) to GRO; ownership passes. */
void stack_gro_receive(struct stack_gro *g, struct sk_buff *skb);

/* Flush every held packet, oldest first (end of a NAPI poll). */
void stack_gro_flush(struct stack_gro *g);

/* Flush the held packets that arrived @age ns or more before now. */
void stack_gro_flush_old(struct stack_gro *g, sim_time_t age);

/* Free held packets without delivering them. */
void stack_gro_fini(struct stack_gro *g);

/* Mean segments per packet handed up so far (0 if none). */
double stack_gro_efficiency(const struct stack_gro *g);

#endif /* RXSCALE_STACK_STACK_GRO_H */
