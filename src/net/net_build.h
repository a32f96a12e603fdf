/* SPDX-License-Identifier: MIT */
/*
 * net_build.h - build Ethernet frames from a description, for tests, the
 * demo capture and (later) the simulated peer.
 *
 * The builder writes Ethernet II + up to two VLAN tags + IPv4 (optionally
 * with options, optionally a fragment) or IPv6 (optionally with a Hop-by-Hop
 * header, a Destination Options header carrying a Home Address option, a
 * routing header of type 0, 2 or 4, and a Fragment header) + TCP, UDP,
 * ICMP/ICMPv6 or raw payload.  IPv4 header and TCP/UDP/ICMP checksums are
 * filled in (RFC 791, RFC 793/768 pseudo-header, RFC 8200 s8.1), so tshark
 * decodes what it builds without complaint.  No FCS is appended.
 */
#ifndef RXSCALE_NET_BUILD_H
#define RXSCALE_NET_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define NET_BUILD_MAX	9216	/* jumbo frame, bytes */

struct net_build {
	uint8_t dmac[6], smac[6];
	uint8_t n_vlan;			/* 0..2 */
	uint16_t vlan_tpid[2];		/* 0x8100 or 0x88A8; 0 = 0x8100 */
	uint16_t vlan_tci[2];
	uint16_t ethertype;		/* only for non-IP frames (ipv == 0) */

	int ipv;			/* 4, 6, or 0 for a non-IP frame */
	uint8_t src[16], dst[16];	/* network byte order */
	uint8_t proto;			/* IP protocol number: 6, 17, 1, 58... */
	uint8_t ttl;			/* 0 = 64 */
	uint16_t ip_id;
	uint8_t ip4_opt_len;		/* IPv4 options, multiple of 4, <= 40 */
	bool df;			/* IPv4 Don't Fragment */

	/* fragments: IPv4 header fields, or an IPv6 Fragment header when
	 * frag6 is set.  A fragment with frag_off != 0 carries only payload. */
	bool frag6;
	bool mf;
	uint16_t frag_off;		/* bytes, multiple of 8 */
	uint32_t frag_id;		/* IPv6 fragment identification */

	/* IPv6 extension headers, written in RFC 8200 order */
	bool hbh;			/* an empty Hop-by-Hop header (PadN) */
	bool hao;			/* Dest Options with a Home Address */
	uint8_t hao_addr[16];
	int rh_type;			/* -1 none, 0, 2 or 4 (segment routing) */
	uint8_t rh_addr[16];		/* the one address the header carries */

	uint16_t sport, dport;		/* host byte order */
	uint32_t seq, ack;		/* TCP */
	uint8_t tcp_flags;		/* 0 = ACK */
	bool tcp_win_set;		/* write tcp_win; otherwise 65535 */
	uint16_t tcp_win;		/* TCP window field (unscaled) */
	uint8_t tcp_opt_len;		/* TCP options, multiple of 4, <= 40 */
	const uint8_t *tcp_opt;		/* tcp_opt_len option bytes, copied
					   verbatim (e.g. NOP NOP Timestamps) */
	uint8_t icmp_type, icmp_code;
	uint16_t payload_len;		/* bytes after the L4 header */
	uint8_t payload_seed;		/* payload byte i = seed + i ... */
	const uint8_t *payload;		/* ... unless this is set */
};

/**
 * net_build_init() - fill @b with defaults: fixed locally administered
 * MACs, no VLAN, IPv4, TTL 64, rh_type -1, everything else zero.
 */
void net_build_init(struct net_build *b);

/**
 * net_build_frame() - write the frame described by @b into @buf.
 * @buf: output, at least @cap bytes
 *
 * Return: frame length in bytes (>= 60: short frames are zero-padded as
 * Ethernet requires), -EINVAL for an impossible description (bad ipv,
 * more than two VLANs, IPv4 or TCP options not a multiple of 4 or longer
 * than 40 bytes, TCP options without bytes, fragment offset not a
 * multiple of 8), -ENOSPC if the frame does not fit in @cap.
 */
ssize_t net_build_frame(const struct net_build *b, uint8_t *buf, size_t cap);

/*
 * A per-flow template for IPv4 TCP frames (what a TCP connection sends:
 * Ethernet II, IPv4 with DF and TTL 64, no options; TCP with no options or
 * NOP NOP Timestamps, and a generated payload): the fixed header bytes are
 * written once, with the partial checksums of the fixed fields; a frame
 * is then the header copied, the per-segment fields patched and both
 * checksums completed from the partial sums (RFC 1071 s2: the sum is
 * associative, so fixed and varying words are summed apart; the payload's
 * sum comes from the same per-seed table as net_build_frame's).  Gives
 * the same bytes as net_build_frame() of the same description
 * (tests/test_stack.c checks it on random segments).
 */
#define NET_TCP4_HDR_MAX (14 + 20 + 20 + 12)

struct net_tcp4_tmpl {
	uint8_t hdr[NET_TCP4_HDR_MAX];  /* with Timestamps; fields 0 */
	uint32_t ip_sum;        /* IP header's fixed words */
	uint32_t tcp_sum;       /* pseudo-header addresses + proto, ports */
};

/*
 * A frame given by its builder and description instead of its bytes: the
 * holder can have the bytes made where they are needed (a device model
 * builds a peer's frame straight into the host memory its DMA writes).
 * build() writes the whole frame into @buf and returns its length (<= 0:
 * failure); the description is at most NET_FRAME_DESC_MAX bytes.
 */
#define NET_FRAME_DESC_MAX 64

struct net_frame_src {
	ssize_t (*build)(const void *desc, uint8_t *buf, size_t cap);
	const void *desc;
	size_t desc_len;
};

/* Fields that vary per segment (host byte order). */
struct net_tcp4_seg {
	uint16_t ip_id;
	uint32_t seq, ack;
	uint8_t flags;          /* 0 = ACK */
	uint16_t win;
	bool ts;                /* with the Timestamps option */
	uint32_t tsval, tsecr;
	uint16_t payload_len;
	uint8_t payload_seed;   /* payload byte i = seed + i */
	bool hdr_only;          /* leave the payload bytes unwritten */
};

/* Prepare @t for the flow smac/dmac, saddr:sport -> daddr:dport (host
 * byte order). */
void net_tcp4_tmpl_init(struct net_tcp4_tmpl *t, const uint8_t smac[6],
			const uint8_t dmac[6], uint32_t saddr, uint32_t daddr,
			uint16_t sport, uint16_t dport);

/* Write the frame of segment @g into @buf: its length (>= 60), or
 * -ENOSPC if it does not fit in @cap. */
ssize_t net_tcp4_tmpl_frame(const struct net_tcp4_tmpl *t,
			    const struct net_tcp4_seg *g, uint8_t *buf, size_t cap);

/**
 * net_csum_fold() - the Internet checksum (RFC 1071) of @len bytes at @p,
 * continued from the 32-bit partial sum @sum, folded and complemented.
 */
uint16_t net_csum_fold(const uint8_t *p, size_t len, uint32_t sum);

#endif /* RXSCALE_NET_BUILD_H */
