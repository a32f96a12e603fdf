/* SPDX-License-Identifier: MIT */
/*
 * tcp_seg.h - TCP segments as real frames: Ethernet II + IPv4 + TCP with
 * the Timestamps option (RFC 7323 §3, laid out NOP NOP TS as Linux does),
 * built with net_build and parsed back.
 *
 * With timestamps a segment's TCP header is 32 bytes, so at MTU 1500 the
 * payload is 1500 - 20 - 32 = 1448 bytes (TCP_MSS_TS) and a full frame is
 * 1514 bytes on the host side, 1538 bytes on the wire with FCS, preamble
 * and inter-frame gap.
 *
 * Addresses and ports are kept in host byte order; IPv4 only for now.
 */
#ifndef RXSCALE_STACK_TCP_SEG_H
#define RXSCALE_STACK_TCP_SEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/net_build.h"

#define TCP_MSS_TS	1448	/* payload bytes per segment at MTU 1500 */
#define TCP_HDR_TS_LEN	32	/* TCP header with NOP NOP Timestamps */
#define TCP_FRAME_MAX	1514	/* largest frame the stack builds, bytes */

/* TCP header flags (RFC 9293 §3.1). */
#define TCP_FIN	0x01
#define TCP_SYN	0x02
#define TCP_RST	0x04
#define TCP_PSH	0x08
#define TCP_ACK	0x10
#define TCP_URG	0x20
#define TCP_ECE	0x40
#define TCP_CWR	0x80

/* Sequence-space comparisons modulo 2^32 (RFC 9293 §3.4). */
static inline bool tcp_seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static inline bool tcp_seq_after(uint32_t a, uint32_t b)
{
	return tcp_seq_before(b, a);
}

/* An IPv4 TCP 4-tuple, host byte order.  For an endpoint: saddr/sport are
 * the local side; for a received segment: those of its sender. */
struct stack_tuple {
	uint32_t saddr, daddr;
	uint16_t sport, dport;
};

static inline bool stack_tuple_eq(const struct stack_tuple *a,
				  const struct stack_tuple *b)
{
	return a->saddr == b->saddr && a->daddr == b->daddr &&
	       a->sport == b->sport && a->dport == b->dport;
}

/* The same connection seen from the other end. */
static inline struct stack_tuple stack_tuple_rev(const struct stack_tuple *t)
{
	struct stack_tuple r = { t->daddr, t->saddr, t->dport, t->sport };

	return r;
}

/* A deterministic 32-bit hash of a tuple (not Toeplitz; for tables). */
uint32_t stack_tuple_hash(const struct stack_tuple *t);

/* One end of a connection: its MACs and its tuple (saddr = local), and
 * the frame template made from them (tcp_endpoint_prepare). */
struct tcp_endpoint {
	uint8_t smac[6], dmac[6];
	struct stack_tuple t;
	/* tmpl_for: the MACs and tuple the template was made for; a
	 * segment from an endpoint changed since is built the long way */
	struct {
		uint8_t smac[6], dmac[6];
		struct stack_tuple t;
	} tmpl_for;
	bool tmpl_ok;
	struct net_tcp4_tmpl tmpl;
};

/* Make @ep's frame template (after setting its MACs and tuple). */
void tcp_endpoint_prepare(struct tcp_endpoint *ep);

/* A parsed TCP segment header (or the merged header of a GRO run). */
struct tcp_seg {
	struct stack_tuple t;   /* as on the wire: saddr = the sender */
	uint32_t seq, ack;
	uint8_t flags;          /* TCP_* */
	uint16_t win;           /* raw window field (unscaled) */
	bool has_ts;
	uint32_t tsval, tsecr;
	uint32_t payload_len;   /* bytes of payload */
	uint16_t payload_off;   /* offset of the payload in the parsed buffer */
};

/* What to put in one outgoing segment. */
struct tcp_seg_tx {
	const struct tcp_endpoint *ep;
	uint32_t seq, ack;
	uint8_t flags;          /* 0 = ACK only */
	uint16_t win;           /* raw window field */
	bool ts;                /* add the Timestamps option */
	uint32_t tsval, tsecr;
	uint16_t payload_len;   /* bytes */
	uint8_t payload_seed;   /* payload byte i = seed + i (net_build) */
	uint16_t ip_id;
};

/**
 * tcp_seg_build() - write the Ethernet frame for @d into @buf.
 * Return: frame length in bytes (>= 60), -EINVAL or -ENOSPC from net_build.
 */
ssize_t tcp_seg_build(const struct tcp_seg_tx *d, uint8_t *buf, size_t cap);

/**
 * tcp_seg_build_hdr() - as tcp_seg_build(), but the payload bytes may be
 * left unwritten (headers, checksums and length as the whole frame's).
 */
ssize_t tcp_seg_build_hdr(const struct tcp_seg_tx *d, uint8_t *buf, size_t cap);

/* The length tcp_seg_build() gives @d's frame, bytes (at least 60). */
static inline size_t tcp_seg_frame_len(const struct tcp_seg_tx *d)
{
	size_t n = 14 + 20 + 20 + (d->ts ? 12u : 0u) + d->payload_len;

	return n < 60 ? 60 : n;
}

/**
 * tcp_seg_parse_ip() - parse an IPv4 packet holding TCP (e.g. skb->data
 * after eth_type_trans).  @len may include Ethernet padding: the IP total
 * length bounds the payload.  The Timestamps option is found anywhere in
 * the option list.  payload_off is relative to @ip.
 * Return: 0; -EPROTONOSUPPORT for non-IPv4, non-TCP or a non-first
 * fragment; -EINVAL for a truncated or inconsistent header.
 */
int tcp_seg_parse_ip(const uint8_t *ip, size_t len, struct tcp_seg *s);

/**
 * tcp_seg_parse_eth() - the same for an untagged Ethernet II frame;
 * payload_off is then relative to @frame.
 */
int tcp_seg_parse_eth(const uint8_t *frame, size_t len, struct tcp_seg *s);

#endif /* RXSCALE_STACK_TCP_SEG_H */
