/* SPDX-License-Identifier: MIT */
/*
 * rss_fields.h - "ethtool -N ethX rx-flow-hash FLOW FIELDS": which header
 * fields each flow type hashes, and how the RTL8125 family maps that onto
 * its hash-type bits.
 *
 * RXH_* values are those of the kernel's uapi linux/ethtool.h; the letters
 * are ethtool's (ethtool.8: m v t s d f n e r).
 */
#ifndef RXSCALE_RSS_FIELDS_H
#define RXSCALE_RSS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#define RSS_RXH_L2DA		(1u << 1)	/* m */
#define RSS_RXH_VLAN		(1u << 2)	/* v */
#define RSS_RXH_L3_PROTO	(1u << 3)	/* t */
#define RSS_RXH_IP_SRC		(1u << 4)	/* s */
#define RSS_RXH_IP_DST		(1u << 5)	/* d */
#define RSS_RXH_L4_B_0_1	(1u << 6)	/* f */
#define RSS_RXH_L4_B_2_3	(1u << 7)	/* n */
#define RSS_RXH_GTP_TEID	(1u << 8)	/* e */
#define RSS_RXH_DISCARD		(1u << 31)	/* r */

#define RSS_RXH_IP	(RSS_RXH_IP_SRC | RSS_RXH_IP_DST)
#define RSS_RXH_L4	(RSS_RXH_L4_B_0_1 | RSS_RXH_L4_B_2_3)

/* ethtool's flow-type names for rx-flow-hash. */
enum rss_flow {
	RSS_FLOW_TCP4, RSS_FLOW_UDP4, RSS_FLOW_SCTP4, RSS_FLOW_AH4,
	RSS_FLOW_ESP4, RSS_FLOW_IP4,
	RSS_FLOW_TCP6, RSS_FLOW_UDP6, RSS_FLOW_SCTP6, RSS_FLOW_AH6,
	RSS_FLOW_ESP6, RSS_FLOW_IP6,
	RSS_FLOW__COUNT
};

/** rss_flow_parse() - "tcp4" ... "ip6" -> enum.  Return 0 or -EINVAL. */
int rss_flow_parse(const char *name, enum rss_flow *flow);

/** rss_flow_name() - enum -> "tcp4" ...; "?" if out of range. */
const char *rss_flow_name(enum rss_flow flow);

/**
 * rss_fields_parse() - ethtool's field letters -> RXH bits.  "r" (discard)
 * yields RSS_RXH_DISCARD alone, as ethtool does.
 * Return: 0, or -EINVAL for an empty string or an unknown letter.
 */
int rss_fields_parse(const char *letters, uint32_t *rxh);

/**
 * rss_fields_format() - RXH bits -> letters ("sdfn"), or "r".
 * @buf: at least 12 bytes.  Return: @buf.
 */
char *rss_fields_format(uint32_t rxh, char *buf);

/**
 * rss_fields_check_xfrm() - the kernel ethtool core's check of a field set
 * against the input transform (net/ethtool/ioctl.c, with symmetric-xor on:
 * only IP src/dst and L4 ports, each pair complete or absent).
 * @xfrm: 0 or RSS_XFRM_SYM_XOR.  Return: 0 or -EINVAL.
 */
int rss_fields_check_xfrm(uint32_t rxh, uint32_t xfrm);

/**
 * rss_fields_get() - the fields a flow type hashes under hash-type bits
 * @ht (what ETHTOOL_GRXFH reports on the RTL8125 family: TCP the 4-tuple,
 * UDP the 4-tuple if its UDP bit is set else the IP pair, IPv4/IPv6 the IP
 * pair, other flow types nothing; vendor r8127_rss.c get_rxnfc).
 */
uint32_t rss_fields_get(uint32_t ht, enum rss_flow flow);

/**
 * rss_fields_set() - apply "rx-flow-hash FLOW FIELDS" to hash-type bits as
 * the RTL8125 family can: TCP must be s+d+f+n; UDP s+d or s+d+f+n (sets or
 * clears UDP_IPV4, or UDP_IPV6 and UDP_IPV6_EX together); IPv4/IPv6 only
 * s+d; SCTP/AH/ESP only the empty set (vendor r8127_rss.c set_rxnfc).
 * @ht: in/out; unchanged on error.
 * Return: 0 or -EINVAL.
 */
int rss_fields_set(uint32_t *ht, enum rss_flow flow, uint32_t rxh);

/**
 * rss_flow_hash_apply() - parse "FLOW LETTERS" (the arguments ethtool takes
 * after rx-flow-hash) and apply it with rss_fields_check_xfrm() and
 * rss_fields_set().  Return: 0 or -EINVAL (unknown flow, bad letters, or a
 * set the chip or the kernel refuses); @ht unchanged on error.
 */
int rss_flow_hash_apply(uint32_t *ht, uint32_t xfrm, const char *arg);

#endif /* RXSCALE_RSS_FIELDS_H */
