/* SPDX-License-Identifier: MIT */
/*
 * net_flow.c - the flow dissector.  See net_flow.h for the rules.
 *
 * Every read goes through rd8/rd16/rd32 against an explicit end offset,
 * so a malformed length can at worst make the parse stop early.
 */
#include "net/net_flow.h"

#include <string.h>

#define ETH_HLEN	14
#define ETH_P_IPV4	0x0800
#define ETH_P_IPV6	0x86DD
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88A8
#define SLL_HLEN	16
#define SLL2_HLEN	20

#define IPPROTO_HOPOPTS_	0
#define IPPROTO_ICMP_		1
#define IPPROTO_TCP_		6
#define IPPROTO_UDP_		17
#define IPPROTO_ROUTING_	43
#define IPPROTO_FRAGMENT_	44
#define IPPROTO_AH_		51
#define IPPROTO_ICMPV6_		58
#define IPPROTO_NONE_		59
#define IPPROTO_DSTOPTS_	60

#define IP6_OPT_PAD1		0x00
#define IP6_OPT_HOME_ADDRESS	0xC9	/* RFC 6275 s6.3 */
#define IP6_OPT_JUMBO		0xC2	/* RFC 2675 s2 */
#define IP6_RH_TYPE2		2	/* RFC 6275 s6.4 */

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static enum net_stop stop(struct net_flow *f, enum net_stop why)
{
	f->stop = why;
	return why;
}

/* Home Address option inside a Destination Options header [p, p+n). */
static void scan_dstopts(struct net_flow *f, const uint8_t *p, size_t n)
{
	size_t i = 2;	/* after next-header and hdr-ext-len */

	while (i < n) {
		uint8_t type = p[i];
		size_t olen;

		if (type == IP6_OPT_PAD1) {
			i++;
			continue;
		}
		if (i + 2 > n)
			return;		/* option header runs off: ignore rest */
		olen = p[i + 1];
		if (i + 2 + olen > n)
			return;
		if (type == IP6_OPT_HOME_ADDRESS && olen == 16) {
			memcpy(f->ex_src, p + i + 2, 16);
			f->has_ex_src = true;
		}
		i += 2 + olen;
	}
}

/* L4 at @off of an IP packet ending at @end; bytes at or past @len
 * (the capture's) cannot be read. */
static enum net_stop parse_l4(struct net_flow *f, const uint8_t *p,
			      size_t off, size_t end, size_t len)
{
	size_t room = end - off;
	/* the header must be in the packet, and in the capture to be read */
	size_t avail = len < end ? (len > off ? len - off : 0) : room;

	f->l4_off = (uint32_t)off;
	switch (f->ip_proto) {
	case IPPROTO_TCP_:
		f->l4 = NET_L4_TCP;
		if (avail < 20)
			return stop(f, NET_STOP_L4_TRUNC);
		f->sport = rd16(p + off);
		f->dport = rd16(p + off + 2);
		{
			size_t doff = (size_t)(p[off + 12] >> 4) * 4;

			if (doff < 20 || doff > room)
				return stop(f, NET_STOP_L4_BAD);
		}
		f->l4_ok = true;
		break;
	case IPPROTO_UDP_:
		/* The UDP length field is not checked: the ports are what an
		 * RSS parser needs, and a NIC does not validate it either. */
		f->l4 = NET_L4_UDP;
		if (avail < 8)
			return stop(f, NET_STOP_L4_TRUNC);
		f->sport = rd16(p + off);
		f->dport = rd16(p + off + 2);
		f->l4_ok = true;
		break;
	case IPPROTO_ICMP_:
	case IPPROTO_ICMPV6_:
		f->l4 = f->ip_proto == IPPROTO_ICMP_ ? NET_L4_ICMP : NET_L4_ICMPV6;
		if (avail < 4)
			return stop(f, NET_STOP_L4_TRUNC);
		f->icmp_type = p[off];
		f->icmp_code = p[off + 1];
		break;
	case IPPROTO_NONE_:
		f->l4 = NET_L4_NONE;
		break;
	default:
		f->l4 = NET_L4_OTHER;
		break;
	}
	return stop(f, NET_STOP_DONE);
}

static enum net_stop parse_ipv4(struct net_flow *f, const uint8_t *p,
				size_t off, size_t len, size_t wlen)
{
	size_t ihl, tot;
	uint16_t frag;

	f->l3 = NET_L3_IPV4;
	f->l3_off = (uint16_t)off;
	if (len - off < 20)
		return stop(f, NET_STOP_L3_TRUNC);
	if ((p[off] >> 4) != 4)
		return stop(f, NET_STOP_L3_BAD);
	ihl = (size_t)(p[off] & 0x0f) * 4;
	tot = rd16(p + off + 2);
	if (ihl < 20 || tot < ihl)
		return stop(f, NET_STOP_L3_BAD);
	if (ihl > len - off)
		return stop(f, NET_STOP_L3_TRUNC);
	if (tot > wlen - off)
		return stop(f, NET_STOP_L3_LEN);

	f->l3_len = (uint32_t)tot;
	f->addr_len = 4;
	memcpy(f->src, p + off + 12, 4);
	memcpy(f->dst, p + off + 16, 4);
	f->ip_proto = p[off + 9];
	f->l3_ok = true;

	frag = rd16(p + off + 6);
	f->frag_off = (uint32_t)(frag & 0x1fff) * 8;
	f->is_frag = (frag & 0x2000) || f->frag_off;
	f->is_first_frag = f->is_frag && f->frag_off == 0;
	if (f->frag_off)
		return stop(f, NET_STOP_FRAG);
	return parse_l4(f, p, off + ihl, off + tot, len);
}

/* The Jumbo Payload option (RFC 2675 s2: Hop-by-Hop option 0xC2, a
 * 32-bit length of what follows the IPv6 header, above 65535) in the
 * Hop-by-Hop header at @hbh of @n readable bytes: its length, or 0. */
static uint32_t jumbo_len(const uint8_t *hbh, size_t n)
{
	size_t hlen = ((size_t)hbh[1] + 1) * 8, i = 2;

	if (hlen > n)
		return 0;
	while (i < hlen) {
		size_t olen;

		if (hbh[i] == IP6_OPT_PAD1) {
			i++;
			continue;
		}
		if (i + 2 > hlen)
			return 0;
		olen = hbh[i + 1];
		if (i + 2 + olen > hlen)
			return 0;
		if (hbh[i] == IP6_OPT_JUMBO && olen == 4)
			return (uint32_t)hbh[i + 2] << 24 | (uint32_t)hbh[i + 3] << 16 |
			       (uint32_t)hbh[i + 4] << 8 | hbh[i + 5];
		i += 2 + olen;
	}
	return 0;
}

static enum net_stop parse_ipv6(struct net_flow *f, const uint8_t *p,
				size_t off, size_t len, size_t wlen)
{
	size_t end, cur;
	uint8_t nh;

	f->l3 = NET_L3_IPV6;
	f->l3_off = (uint16_t)off;
	if (len - off < 40)
		return stop(f, NET_STOP_L3_TRUNC);
	if ((p[off] >> 4) != 6)
		return stop(f, NET_STOP_L3_BAD);
	end = rd16(p + off + 4);
	if (!end) {
		/* Payload length 0: a jumbogram, whose length is in the
		 * Hop-by-Hop header's Jumbo option; without one the packet
		 * is as malformed as an IPv4 total length of 0 */
		uint32_t j;

		if (p[off + 6] != IPPROTO_HOPOPTS_)
			return stop(f, NET_STOP_L3_BAD);
		if (len - off < 48)
			return stop(f, NET_STOP_L3_TRUNC);
		j = jumbo_len(p + off + 40, len - off - 40);
		if (j <= 65535)
			return stop(f, j || len - off - 40 >= ((size_t)p[off + 41] + 1) * 8 ?
					NET_STOP_L3_BAD : NET_STOP_L3_TRUNC);
		end = j;
	}
	end += off + 40;
	if (end > wlen)
		return stop(f, NET_STOP_L3_LEN);

	f->l3_len = (uint32_t)(end - off);
	f->addr_len = 16;
	memcpy(f->src, p + off + 8, 16);
	memcpy(f->dst, p + off + 24, 16);

	nh = p[off + 6];
	cur = off + 40;
	for (;;) {
		size_t hlen;

		if (nh != IPPROTO_HOPOPTS_ && nh != IPPROTO_ROUTING_ &&
		    nh != IPPROTO_DSTOPTS_ && nh != IPPROTO_FRAGMENT_ &&
		    nh != IPPROTO_AH_)
			break;
		/* MS RSS: an extension chain that cannot be skipped gets no
		 * hash, so a bad chain leaves l3_ok false. */
		if (f->n_ext == NET_EXT_MAX || end - cur < 8)
			return stop(f, NET_STOP_EXT_BAD);
		/* a header the capture cut: the chain cannot be walked */
		if (len < cur + 8)
			return stop(f, NET_STOP_L3_TRUNC);
		if (nh == IPPROTO_FRAGMENT_)
			hlen = 8;
		else if (nh == IPPROTO_AH_)
			hlen = ((size_t)p[cur + 1] + 2) * 4;
		else
			hlen = ((size_t)p[cur + 1] + 1) * 8;
		if (hlen > end - cur)
			return stop(f, NET_STOP_EXT_BAD);
		if (hlen > len - cur)
			return stop(f, NET_STOP_L3_TRUNC);
		f->n_ext++;

		if (nh == IPPROTO_DSTOPTS_) {
			scan_dstopts(f, p + cur, hlen);
		} else if (nh == IPPROTO_ROUTING_) {
			f->has_rh = true;
			if (p[cur + 2] == IP6_RH_TYPE2 && p[cur + 1] == 2) {
				memcpy(f->ex_dst, p + cur + 8, 16);
				f->has_ex_dst = true;
			}
		} else if (nh == IPPROTO_FRAGMENT_) {
			uint16_t fo = rd16(p + cur + 2);

			f->frag_off = (uint32_t)(fo & 0xfff8);
			/* offset 0 and M clear: an atomic fragment, a whole
			 * datagram (RFC 6946), hashed like any packet */
			f->is_frag = f->frag_off || (fo & 1);
			f->is_first_frag = f->is_frag && f->frag_off == 0;
		}
		nh = p[cur];
		cur += hlen;
		if (f->frag_off) {
			f->ip_proto = nh;
			f->l3_ok = true;
			return stop(f, NET_STOP_FRAG);
		}
	}
	f->ip_proto = nh;
	f->l3_ok = true;
	return parse_l4(f, p, cur, end, len);
}

static enum net_stop parse_l3(struct net_flow *f, const uint8_t *p,
			      size_t off, size_t len, size_t wlen, uint16_t ethertype)
{
	f->ethertype = ethertype;
	if (ethertype == ETH_P_IPV4)
		return parse_ipv4(f, p, off, len, wlen);
	if (ethertype == ETH_P_IPV6)
		return parse_ipv6(f, p, off, len, wlen);
	return stop(f, NET_STOP_NOT_IP);
}

enum net_stop net_dissect(const uint8_t *p, size_t len, enum net_link link,
			  struct net_flow *f)
{
	return net_dissect_cap(p, len, len, link, f);
}

enum net_stop net_dissect_cap(const uint8_t *p, size_t len, size_t wlen,
			      enum net_link link, struct net_flow *f)
{
	size_t off;
	uint16_t et;

	memset(f, 0, sizeof(*f));
	if (wlen < len)
		wlen = len;
	f->cut = wlen > len;
	switch (link) {
	case NET_LINK_ETH:
		if (len < ETH_HLEN)
			return stop(f, NET_STOP_L2_TRUNC);
		et = rd16(p + 12);
		off = ETH_HLEN;
		while (et == ETH_P_8021Q || et == ETH_P_8021AD) {
			if (f->n_vlan == NET_VLAN_MAX) {
				f->ethertype = et;
				return stop(f, NET_STOP_VLAN_DEPTH);
			}
			if (len - off < 4)
				return stop(f, NET_STOP_L2_TRUNC);
			f->vlan_tpid[f->n_vlan] = et;
			f->vlan_tci[f->n_vlan] = rd16(p + off);
			f->n_vlan++;
			et = rd16(p + off + 2);
			off += 4;
		}
		return parse_l3(f, p, off, len, wlen, et);
	case NET_LINK_SLL:
		if (len < SLL_HLEN)
			return stop(f, NET_STOP_L2_TRUNC);
		return parse_l3(f, p, SLL_HLEN, len, wlen, rd16(p + 14));
	case NET_LINK_SLL2:
		if (len < SLL2_HLEN)
			return stop(f, NET_STOP_L2_TRUNC);
		return parse_l3(f, p, SLL2_HLEN, len, wlen, rd16(p));
	case NET_LINK_RAW:
		if (len < 1)
			return stop(f, NET_STOP_L3_TRUNC);
		if ((p[0] >> 4) == 4)
			return parse_l3(f, p, 0, len, wlen, ETH_P_IPV4);
		if ((p[0] >> 4) == 6)
			return parse_l3(f, p, 0, len, wlen, ETH_P_IPV6);
		return stop(f, NET_STOP_L3_BAD);
	}
	return stop(f, NET_STOP_L2_TRUNC);
}

const char *net_stop_name(enum net_stop s)
{
	static const char *const names[NET_STOP__COUNT] = {
		[NET_STOP_DONE] = "done",
		[NET_STOP_NOT_IP] = "not-ip",
		[NET_STOP_L2_TRUNC] = "l2-trunc",
		[NET_STOP_VLAN_DEPTH] = "vlan-depth",
		[NET_STOP_L3_TRUNC] = "l3-trunc",
		[NET_STOP_L3_BAD] = "l3-bad",
		[NET_STOP_L3_LEN] = "l3-len",
		[NET_STOP_EXT_BAD] = "ext-bad",
		[NET_STOP_FRAG] = "frag",
		[NET_STOP_L4_TRUNC] = "l4-trunc",
		[NET_STOP_L4_BAD] = "l4-bad",
	};

	if ((unsigned)s >= NET_STOP__COUNT)
		return "?";
	return names[s];
}
