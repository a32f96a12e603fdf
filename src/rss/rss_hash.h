/* SPDX-License-Identifier: MIT */
/*
 * rss_hash.h - from a dissected frame to (hash type, Toeplitz input, hash,
 * RX queue), as the RSS engine of the RTL8125/8126/8127 family does it.
 *
 * Hash-type enable bits.  Their values are the bit positions of the
 * RTL8125-family RSS_CTRL register (0x4500), so the device model can pass
 * the register through unchanged.  Source: Realtek r8127 11.015.00
 * r8127_rss.c (enum of RSS_CTRL_*_SUPP bits) and DPDK drivers/net/r8169/
 * r8169_ethdev.h; see ../shared/research/rtl8127-hw.md s2.2.
 *
 * Selection rules (Microsoft "RSS hashing types", applied per packet):
 *  - IPv4: a fragment (MF set or offset != 0, the first fragment included)
 *    hashes the IP pair.  Otherwise TCP with a valid header and TCP_IPV4
 *    -> 4-tuple; UDP with UDP_IPV4 -> 4-tuple; else IPV4 -> IP pair; else
 *    no hash.  TCP with TCP_IPV4 off falls back to the IP pair.
 *  - IPv6: the same with TCP_IPV6 / UDP_IPV6 / IPV6; each *_EX bit enables
 *    its type too and additionally replaces the source by the Home Address
 *    option and the destination by the type 2 routing header's address
 *    when the packet carries them.  Type 0 and segment-routing headers
 *    change nothing.  An extension chain that cannot be walked: no hash.
 *  - Non-IP frames, IP headers that fail validation (net_flow.l3_ok false)
 *    and IP packets whose type is disabled: no hash, type NONE.  The RTL8125
 *    family then steers to queue 0 and reports no hash type in the RX
 *    descriptor (an inference, rtl8127-hw.md s2.3 [I]); rss_classify()
 *    follows that.
 *
 * Input layout (network byte order): src addr, dst addr, then for the L4
 * types src port, dst port: 8, 12, 32 or 36 bytes.  A non-TCP/UDP IP packet
 * hashes 8 or 32 bytes, never a zero-port tuple.
 */
#ifndef RXSCALE_RSS_HASH_H
#define RXSCALE_RSS_HASH_H

#include <stdbool.h>
#include <stdint.h>

#include "net/net_flow.h"
#include "rss/rss_indir.h"
#include "rss/rss_toeplitz.h"

#define RSS_HT_TCP_IPV4		(1u << 0)
#define RSS_HT_IPV4		(1u << 1)
#define RSS_HT_TCP_IPV6		(1u << 2)
#define RSS_HT_IPV6		(1u << 3)
#define RSS_HT_IPV6_EX		(1u << 4)
#define RSS_HT_TCP_IPV6_EX	(1u << 5)
#define RSS_HT_UDP_IPV4		(1u << 11)
#define RSS_HT_UDP_IPV6		(1u << 12)
#define RSS_HT_UDP_IPV6_EX	(1u << 13)
#define RSS_HT_ALL		0x383Fu

/* What the RTL8127 vendor driver enables: TCP on the 4-tuple, IPv4/IPv6 on
 * the IP pair, the IPv6 EX variants; UDP hashes the IP pair until the user
 * runs "ethtool -N ethX rx-flow-hash udp4 sdfn" (r8127_rss.c default
 * RSS_CTRL low bits 0x3F). */
#define RSS_HT_RTL8127_DEFAULT	0x003Fu

/* RXH_XFRM_SYM_XOR from the kernel's uapi ethtool.h (bit 0). */
#define RSS_XFRM_SYM_XOR	(1u << 0)

/* The hash type a NIC reports (RX descriptor L3/L4 bits, skb hash type). */
enum rss_type {
	RSS_TYPE_NONE,
	RSS_TYPE_IPV4,
	RSS_TYPE_TCP4,
	RSS_TYPE_UDP4,
	RSS_TYPE_IPV6,
	RSS_TYPE_TCP6,
	RSS_TYPE_UDP6,
	RSS_TYPE__COUNT
};

#define RSS_INPUT_MAX	36

struct rss_input {
	enum rss_type type;
	bool ex;			/* an IPv6 EX address was substituted */
	uint8_t len;			/* 0, 8, 12, 32 or 36 */
	uint8_t bytes[RSS_INPUT_MAX];
};

/**
 * rss_select() - choose the hash type and build the Toeplitz input.
 * @f:    a dissected frame
 * @ht:   enabled RSS_HT_* bits (RSS_CTRL layout; other bits ignored)
 * @xfrm: 0 or RSS_XFRM_SYM_XOR: each address is replaced by src ^ dst and
 *        each port by sport ^ dport, both copies fed to the hash (kernel
 *        RXH_XFRM_SYM_XOR semantics), so both directions hash alike
 * @in:   result; in->type NONE and in->len 0 when nothing is hashed
 */
void rss_select(const struct net_flow *f, uint32_t ht, uint32_t xfrm,
		struct rss_input *in);

/* A complete RSS engine configuration (what RSS_CTRL, the key and the
 * indirection table registers hold). */
struct rss_cfg {
	const struct rss_thash *key;	/* prepared key */
	const struct rss_indir *indir;	/* indirection table */
	uint32_t ht;			/* RSS_HT_* */
	uint32_t xfrm;			/* 0 or RSS_XFRM_SYM_XOR */
};

struct rss_result {
	struct rss_input in;
	uint32_t hash;			/* 0 when in.type is NONE */
	unsigned queue;			/* indir[hash & (size-1)], or 0 */
};

/**
 * rss_classify() - hash type, hash and RX queue of one dissected frame.
 * Frames with no hash go to queue 0 (see above).
 */
void rss_classify(const struct rss_cfg *cfg, const struct net_flow *f,
		  struct rss_result *r);

/** rss_type_name() - "none", "ipv4", "tcp4", "udp4", "ipv6", "tcp6",
 * "udp6"; "?" for an out-of-range value. */
const char *rss_type_name(enum rss_type t);

/** rss_type_parse() - inverse of rss_type_name(); -EINVAL if unknown. */
int rss_type_parse(const char *name, enum rss_type *t);

#endif /* RXSCALE_RSS_HASH_H */
