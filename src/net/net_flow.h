/* SPDX-License-Identifier: MIT */
/*
 * net_flow.h - flow dissector: one received frame -> the fields an RSS
 * engine hashes.
 *
 * The dissector walks L2 (Ethernet, up to two VLAN tags), L3 (IPv4 with
 * options, IPv6 with its extension-header chain) and the first bytes of L4
 * (TCP, UDP, ICMP, ICMPv6).  It never reads a byte at or past @len.  When a
 * header is truncated or inconsistent it stops there and says why in
 * net_flow.stop; everything it filled before that point stays valid, and the
 * l3_ok / l4_ok flags say whether the addresses and the ports may be hashed.
 *
 * Protocol facts: IPv4 RFC 791 (IHL, total length, MF, fragment offset in
 * 8-byte units); IPv6 RFC 8200 (extension headers, Fragment header, atomic
 * fragments RFC 6946; payload length 0 only with the Jumbo Payload option,
 * RFC 2675); Home Address option RFC 6275 s6.3 (option type 0xC9,
 * 16 bytes); Type 2 routing header RFC 6275 s6.4 (one address, hdr ext len 2);
 * AH RFC 4302 (length in 4-byte units minus 2); 802.1Q TPID 0x8100, 802.1ad
 * TPID 0x88A8; Linux cooked captures SLL (16-byte header, protocol at 14) and
 * SLL2 (20-byte header, protocol at 0) from libpcap's LINKTYPE list.
 */
#ifndef RXSCALE_NET_FLOW_H
#define RXSCALE_NET_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a frame starts: the link layer of a capture or of the wire. */
enum net_link {
	NET_LINK_ETH,	/* Ethernet II, optionally VLAN-tagged */
	NET_LINK_SLL,	/* Linux cooked capture v1 */
	NET_LINK_SLL2,	/* Linux cooked capture v2 */
	NET_LINK_RAW,	/* raw IP; the version nibble picks IPv4 or IPv6 */
};

enum net_l3 { NET_L3_NONE, NET_L3_IPV4, NET_L3_IPV6 };

enum net_l4 {
	NET_L4_NONE,	/* not reached (non-IP, non-first fragment, bad L3) */
	NET_L4_TCP,
	NET_L4_UDP,
	NET_L4_ICMP,
	NET_L4_ICMPV6,
	NET_L4_OTHER,	/* any other upper-layer protocol, incl. ESP, GRE */
};

/* Why the dissector stopped.  NET_STOP_DONE means the frame parsed as far
 * as this dissector goes (L4 header, or the end of a non-IP L2 header). */
enum net_stop {
	NET_STOP_DONE = 0,
	NET_STOP_NOT_IP,	/* EtherType is not IPv4/IPv6: not an error */
	NET_STOP_L2_TRUNC,	/* link or VLAN header runs past the frame */
	NET_STOP_VLAN_DEPTH,	/* more than two VLAN tags */
	NET_STOP_L3_TRUNC,	/* fixed IP header runs past the frame */
	NET_STOP_L3_BAD,	/* wrong version, IHL < 5, total length < IHL */
	NET_STOP_L3_LEN,	/* IP total/payload length beyond the frame */
	NET_STOP_EXT_BAD,	/* IPv6 extension chain runs off its packet or is
				   longer than NET_EXT_MAX headers */
	NET_STOP_FRAG,		/* non-first fragment: no L4 header to see */
	NET_STOP_L4_TRUNC,	/* L4 header runs past the IP packet */
	NET_STOP_L4_BAD,	/* TCP data offset < 5 or beyond the packet */
	NET_STOP__COUNT
};

#define NET_VLAN_MAX	2
#define NET_EXT_MAX	16	/* IPv6 extension headers walked at most */

struct net_flow {
	enum net_stop stop;
	bool cut;			/* the capture kept fewer bytes than the
					 * frame had (net_dissect_cap) */
	/* L2 */
	uint16_t ethertype;		/* innermost, after VLAN tags */
	uint8_t n_vlan;
	uint16_t vlan_tpid[NET_VLAN_MAX];
	uint16_t vlan_tci[NET_VLAN_MAX];
	/* L3 */
	enum net_l3 l3;
	bool l3_ok;			/* src/dst valid for hashing */
	uint16_t l3_off;		/* offset of the IP header in the frame */
	uint32_t l3_len;		/* IP header + payload, bytes */
	uint8_t addr_len;		/* 4 or 16 */
	uint8_t src[16], dst[16];	/* network byte order */
	bool has_ex_src, has_ex_dst;	/* IPv6: Home Address / RH type 2 */
	uint8_t ex_src[16], ex_dst[16];
	uint8_t n_ext;			/* IPv6 extension headers walked */
	bool has_rh;			/* any routing header (any type) */
	bool is_frag;			/* part of a fragmented datagram */
	bool is_first_frag;		/* ... and the fragment at offset 0 */
	uint32_t frag_off;		/* fragment offset in bytes */
	uint8_t ip_proto;		/* upper-layer protocol number */
	/* L4 */
	enum net_l4 l4;
	bool l4_ok;			/* sport/dport valid for hashing */
	uint32_t l4_off;		/* offset of the L4 header in the frame */
	uint16_t sport, dport;		/* host byte order */
	uint8_t icmp_type, icmp_code;
};

/**
 * net_dissect() - parse one frame.
 * @p:    frame bytes (for NET_LINK_ETH: from the destination MAC, no FCS
 *        needed; trailing Ethernet padding is allowed)
 * @len:  bytes available at @p; nothing at or past p[len] is read
 * @link: link type @p starts with
 * @f:    result, fully overwritten
 *
 * Return: f->stop (an enum net_stop).  Never fails otherwise.
 */
enum net_stop net_dissect(const uint8_t *p, size_t len, enum net_link link,
			  struct net_flow *f);

/**
 * net_dissect_cap() - parse a frame a capture cut at its snap length.
 * @len:  bytes captured (nothing at or past p[len] is read)
 * @wlen: bytes the frame had on the wire (>= @len)
 *
 * IP and L4 lengths are checked against @wlen, so a frame whose payload
 * the capture dropped is parsed as the frame it was: the headers that
 * were kept are hashed.  A header the capture cut stops the parse as a
 * truncated one (l3-trunc, l4-trunc).  f->cut says @wlen > @len.
 * net_dissect(p, len, ...) is net_dissect_cap(p, len, len, ...).
 */
enum net_stop net_dissect_cap(const uint8_t *p, size_t len, size_t wlen,
			      enum net_link link, struct net_flow *f);

/**
 * net_stop_name() - short lower-case name of a stop reason ("done",
 * "l3-trunc", ...) for reports; "?" for an out-of-range value.
 */
const char *net_stop_name(enum net_stop stop);

#endif /* RXSCALE_NET_FLOW_H */
