/* SPDX-License-Identifier: MIT */
/* net_build.c - frame builder; see net_build.h. */
#include "net/net_build.h"

#include <errno.h>
#include <string.h>

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, (uint16_t)(v >> 16));
	wr16(p + 2, (uint16_t)v);
}

/* One's-complement partial sum (RFC 1071) of @p in network byte order,
 * added to @sum.  The bulk is summed as native 32-bit words in four
 * independent accumulators (2^16 = 1 mod 0xffff, so 32-bit words fold to
 * the 16-bit sum) and byte-swapped once at the end: RFC 1071 s2(B), the
 * sum is independent of byte order up to a swap.  The result is folded
 * to 16 bits so callers can keep adding small terms. */
static uint32_t csum_add(const uint8_t *p, size_t len, uint32_t sum)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, acc;
	size_t i = 0;

	for (; i + 16 <= len; i += 16) {
		uint32_t w[4];

		memcpy(w, p + i, 16);
		a0 += w[0];
		a1 += w[1];
		a2 += w[2];
		a3 += w[3];
	}
	for (; i + 4 <= len; i += 4) {
		uint32_t w;

		memcpy(&w, p + i, 4);
		a0 += w;
	}
	acc = a0 + a1 + a2 + a3;
	while (acc >> 16)
		acc = (acc & 0xffffu) + (acc >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	acc = __builtin_bswap16((uint16_t)acc);
#endif
	for (; i + 1 < len; i += 2)
		acc += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		acc += (uint32_t)p[len - 1] << 8;
	acc += sum;
	while (acc >> 16)
		acc = (acc & 0xffffu) + (acc >> 16);
	return (uint32_t)acc;
}

uint16_t net_csum_fold(const uint8_t *p, size_t len, uint32_t sum)
{
	sum = csum_add(p, len, sum);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void net_build_init(struct net_build *b)
{
	static const uint8_t dmac[6] = { 0x02, 0x00, 0x00, 0x00, 0x81, 0x27 };
	static const uint8_t smac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

	memset(b, 0, sizeof(*b));
	memcpy(b->dmac, dmac, 6);
	memcpy(b->smac, smac, 6);
	b->ipv = 4;
	b->proto = 6;
	b->rh_type = -1;
}

/* bytes 0, 1, ..., 255, 0, 1, ... : any run of the seeded pattern is a
 * slice of this table (memcpy instead of a byte loop: the TCP peer builds
 * ~800k segments per simulated second) */
#define RAMP_CHUNK 4096
static uint8_t ramp[256 + RAMP_CHUNK];

static void fill_payload(const struct net_build *b, uint8_t *p)
{
	size_t done = 0;

	if (b->payload) {
		memcpy(p, b->payload, b->payload_len);
		return;
	}
	if (!ramp[1])
		for (size_t i = 0; i < sizeof(ramp); i++)
			ramp[i] = (uint8_t)i;
	while (done < b->payload_len) {
		size_t n = b->payload_len - done < RAMP_CHUNK ? b->payload_len - done :
								 RAMP_CHUNK;

		memcpy(p + done, ramp + (uint8_t)(b->payload_seed + done), n);
		done += n;
	}
}

/* L4 header + payload at p; returns its length. */
static size_t build_l4(const struct net_build *b, uint8_t *p, bool frag_tail)
{
	size_t h = 0;

	if (!frag_tail) {
		switch (b->proto) {
		case 6:
			wr16(p, b->sport);
			wr16(p + 2, b->dport);
			wr32(p + 4, b->seq);
			wr32(p + 8, b->ack);
			p[12] = (uint8_t)((5 + b->tcp_opt_len / 4) << 4);
			p[13] = b->tcp_flags ? b->tcp_flags : 0x10;
			wr16(p + 14, b->tcp_win_set ? b->tcp_win : 65535);
			wr16(p + 16, 0);
			wr16(p + 18, 0);
			if (b->tcp_opt_len)
				memcpy(p + 20, b->tcp_opt, b->tcp_opt_len);
			h = 20u + b->tcp_opt_len;
			break;
		case 17:
			wr16(p, b->sport);
			wr16(p + 2, b->dport);
			wr16(p + 4, (uint16_t)(8 + b->payload_len));
			wr16(p + 6, 0);
			h = 8;
			break;
		case 1:
		case 58:
			p[0] = b->icmp_type;
			p[1] = b->icmp_code;
			wr16(p + 2, 0);
			wr16(p + 4, b->ip_id);	/* echo identifier */
			wr16(p + 6, (uint16_t)b->seq);
			h = 8;
			break;
		default:
			break;
		}
	}
	fill_payload(b, p + h);
	return h + b->payload_len;
}

/* Fill the L4 checksum given the pseudo-header partial sum. */
/* The ones'-complement sum (folded, not inverted) of the generated
 * payload of @len bytes from @seed, as csum_add(payload, len, 0) gives
 * it; each seed's row of prefix sums is computed once.  Only for
 * len <= RAMP_CSUM_MAX. */
#define RAMP_CSUM_MAX 1500
static uint16_t ramp_csum_tab[256][RAMP_CSUM_MAX + 1];
static bool ramp_csum_ok[256];

static uint32_t ramp_csum(uint8_t seed, size_t len)
{
	uint16_t *row = ramp_csum_tab[seed];

	if (!ramp_csum_ok[seed]) {
		uint64_t words = 0;

		row[0] = 0;
		for (size_t l = 1; l <= RAMP_CSUM_MAX; l++) {
			uint64_t v;
			uint8_t last = (uint8_t)(seed + l - 1);

			if (!(l & 1))   /* a whole word (bytes l-2, l-1) */
				words += (uint32_t)((uint8_t)(seed + l - 2) << 8 | last);
			v = words + ((l & 1) ? (uint32_t)last << 8 : 0);
			while (v >> 16)
				v = (v & 0xffffu) + (v >> 16);
			row[l] = (uint16_t)v;
		}
		ramp_csum_ok[seed] = true;
	}
	return row[len];
}

static void l4_csum(const struct net_build *b, uint8_t *l4, size_t len,
		    uint32_t pseudo)
{
	uint16_t c;
	size_t hl = len - b->payload_len;

	/* a generated payload at an even offset: its sum is known, sum only
	 * the header */
	if ((b->proto == 6 || b->proto == 17) && !b->payload &&
	    b->payload_len <= RAMP_CSUM_MAX && b->payload_len <= len && !(hl & 1)) {
		pseudo += ramp_csum(b->payload_seed, b->payload_len);
		len = hl;
	}

	switch (b->proto) {
	case 6:
		c = net_csum_fold(l4, len, pseudo);
		wr16(l4 + 16, c);
		break;
	case 17:
		c = net_csum_fold(l4, len, pseudo);
		wr16(l4 + 6, c ? c : 0xffff);
		break;
	case 1:
		wr16(l4 + 2, net_csum_fold(l4, len, 0));
		break;
	case 58:
		wr16(l4 + 2, net_csum_fold(l4, len, pseudo));
		break;
	default:
		break;
	}
}

static ssize_t build_ipv4(const struct net_build *b, uint8_t *p, size_t cap)
{
	size_t ihl = 20 + b->ip4_opt_len, l4len, need;
	bool tail = b->frag_off != 0;
	uint32_t pseudo;

	need = ihl + 20 + b->tcp_opt_len + b->payload_len;
	if (need > cap)
		return -ENOSPC;
	memset(p, 0, ihl);
	p[0] = (uint8_t)(0x40 | ihl / 4);
	wr16(p + 4, b->ip_id);
	wr16(p + 6, (uint16_t)((b->df ? 0x4000 : 0) | (b->mf ? 0x2000 : 0) |
			       (b->frag_off / 8)));
	p[8] = b->ttl ? b->ttl : 64;
	p[9] = b->proto;
	memcpy(p + 12, b->src, 4);
	memcpy(p + 16, b->dst, 4);
	/* options: NOPs ending in End of Option List */
	if (b->ip4_opt_len) {
		memset(p + 20, 1, b->ip4_opt_len);
		p[ihl - 1] = 0;
	}
	l4len = build_l4(b, p + ihl, tail);
	wr16(p + 2, (uint16_t)(ihl + l4len));
	wr16(p + 10, net_csum_fold(p, ihl, 0));
	if (!tail && !b->mf) {
		pseudo = csum_add(p + 12, 8, 0) + b->proto + (uint32_t)l4len;
		l4_csum(b, p + ihl, l4len, pseudo);
	}
	return (ssize_t)(ihl + l4len);
}

static ssize_t build_ipv6(const struct net_build *b, uint8_t *p, size_t cap)
{
	uint8_t *nhp = p + 6;	/* where the next "next header" goes */
	size_t off = 40, l4len;
	bool tail = b->frag6 && b->frag_off != 0;
	const uint8_t *final_dst = b->dst;
	uint32_t pseudo;

	if (40 + 8 + 24 + 24 + 8 + 20 + (size_t)b->tcp_opt_len +
	    (size_t)b->payload_len > cap)
		return -ENOSPC;
	memset(p, 0, 40);
	p[0] = 0x60;
	p[7] = b->ttl ? b->ttl : 64;
	memcpy(p + 8, b->src, 16);
	memcpy(p + 24, b->dst, 16);

	if (b->hbh) {
		*nhp = 0;
		nhp = p + off;
		memset(p + off, 0, 8);
		p[off + 2] = 1;		/* PadN, 4 bytes of padding */
		p[off + 3] = 4;
		off += 8;
	}
	if (b->hao) {			/* Dest Options: Pad4 + Home Address */
		*nhp = 60;
		nhp = p + off;
		memset(p + off, 0, 24);
		p[off + 1] = 2;		/* (2 + 1) * 8 = 24 bytes */
		p[off + 2] = 1;		/* PadN, 2 bytes */
		p[off + 3] = 2;
		p[off + 6] = 0xC9;
		p[off + 7] = 16;
		memcpy(p + off + 8, b->hao_addr, 16);
		off += 24;
	}
	if (b->rh_type >= 0) {		/* one-address routing header */
		*nhp = 43;
		nhp = p + off;
		memset(p + off, 0, 24);
		p[off + 1] = 2;
		p[off + 2] = (uint8_t)b->rh_type;
		p[off + 3] = 1;		/* segments left */
		memcpy(p + off + 8, b->rh_addr, 16);
		if (b->rh_type == 2)
			final_dst = b->rh_addr;
		off += 24;
	}
	if (b->frag6) {
		*nhp = 44;
		nhp = p + off;
		memset(p + off, 0, 8);
		wr16(p + off + 2, (uint16_t)(b->frag_off | (b->mf ? 1 : 0)));
		wr32(p + off + 4, b->frag_id);
		off += 8;
	}
	*nhp = b->proto;
	l4len = build_l4(b, p + off, tail);
	wr16(p + 4, (uint16_t)(off - 40 + l4len));
	if (!tail && !(b->frag6 && b->mf)) {
		/* RFC 8200 s8.1: the pseudo-header uses the final destination */
		pseudo = csum_add(b->hao ? b->hao_addr : p + 8, 16, 0);
		pseudo = csum_add(final_dst, 16, pseudo);
		pseudo += (uint32_t)l4len + b->proto;
		l4_csum(b, p + off, l4len, pseudo);
	}
	return (ssize_t)(off + l4len);
}

ssize_t net_build_frame(const struct net_build *b, uint8_t *buf, size_t cap)
{
	size_t off = 12;
	ssize_t l3;
	unsigned i;

	if (b->n_vlan > 2 || (b->ipv != 0 && b->ipv != 4 && b->ipv != 6) ||
	    b->ip4_opt_len % 4 || b->ip4_opt_len > 40 || b->frag_off % 8 ||
	    b->tcp_opt_len % 4 || b->tcp_opt_len > 40 ||
	    (b->tcp_opt_len && !b->tcp_opt))
		return -EINVAL;
	if (cap > NET_BUILD_MAX)
		cap = NET_BUILD_MAX;
	if (cap < 18 + 4u * b->n_vlan)
		return -ENOSPC;
	memcpy(buf, b->dmac, 6);
	memcpy(buf + 6, b->smac, 6);
	for (i = 0; i < b->n_vlan; i++) {
		wr16(buf + off, b->vlan_tpid[i] ? b->vlan_tpid[i] : 0x8100);
		wr16(buf + off + 2, b->vlan_tci[i]);
		off += 4;
	}
	if (b->ipv == 4) {
		wr16(buf + off, 0x0800);
		l3 = build_ipv4(b, buf + off + 2, cap - off - 2);
	} else if (b->ipv == 6) {
		wr16(buf + off, 0x86DD);
		l3 = build_ipv6(b, buf + off + 2, cap - off - 2);
	} else {
		wr16(buf + off, b->ethertype);
		if (off + 2 + (size_t)b->payload_len > cap)
			return -ENOSPC;
		fill_payload(b, buf + off + 2);
		l3 = b->payload_len;
	}
	if (l3 < 0)
		return l3;
	off += 2 + (size_t)l3;
	if (off < 60) {
		if (cap < 60)
			return -ENOSPC;
		memset(buf + off, 0, 60 - off);
		off = 60;
	}
	return (ssize_t)off;
}

/* ----- per-flow IPv4 TCP templates ----- */

#define T_IP 14
#define T_TCP (14 + 20)

static uint32_t sum32(uint32_t v)
{
	return (v >> 16) + (v & 0xffffu);
}

void net_tcp4_tmpl_init(struct net_tcp4_tmpl *t, const uint8_t smac[6],
			const uint8_t dmac[6], uint32_t saddr, uint32_t daddr,
			uint16_t sport, uint16_t dport)
{
	uint8_t *p = t->hdr;

	memset(t, 0, sizeof(*t));
	memcpy(p, dmac, 6);
	memcpy(p + 6, smac, 6);
	wr16(p + 12, 0x0800);
	p[T_IP] = 0x45;
	wr16(p + T_IP + 6, 0x4000);             /* DF */
	p[T_IP + 8] = 64;
	p[T_IP + 9] = 6;
	wr32(p + T_IP + 12, saddr);
	wr32(p + T_IP + 16, daddr);
	wr16(p + T_TCP, sport);
	wr16(p + T_TCP + 2, dport);
	p[T_TCP + 20] = 1;                      /* NOP NOP TS(10) */
	p[T_TCP + 21] = 1;
	p[T_TCP + 22] = 8;
	p[T_TCP + 23] = 10;
	t->ip_sum = 0x4500 + 0x4000 + (64 << 8 | 6) + sum32(saddr) + sum32(daddr);
	t->tcp_sum = sum32(saddr) + sum32(daddr) + 6 + sport + dport;
}

static uint16_t fold_not(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)~s;
}

/* Big-endian stores without byte loops (the template path runs twice per
 * frame at 800k frames a simulated second). */
static inline void st16(uint8_t *p, uint16_t v)
{
	v = __builtin_bswap16(v);
	memcpy(p, &v, 2);
}

static inline void st32(uint8_t *p, uint32_t v)
{
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

ssize_t net_tcp4_tmpl_frame(const struct net_tcp4_tmpl *t,
			    const struct net_tcp4_seg *g, uint8_t *buf, size_t cap)
{
	size_t thl = g->ts ? 32 : 20, l4len = thl + g->payload_len;
	size_t len = T_TCP + l4len, out = len < 60 ? 60 : len;
	uint8_t doff_flags = g->flags ? g->flags : 0x10;
	uint64_t sum;

	if (out > cap || out > NET_BUILD_MAX || g->payload_len > RAMP_CSUM_MAX)
		return -ENOSPC;
	if (cap >= NET_TCP4_HDR_MAX)
		memcpy(buf, t->hdr, NET_TCP4_HDR_MAX);  /* the tail of a short
							   one is overwritten */
	else
		memcpy(buf, t->hdr, T_TCP + thl);
	st16(buf + T_IP + 2, (uint16_t)(20 + l4len));
	st16(buf + T_IP + 4, g->ip_id);
	st16(buf + T_IP + 10, fold_not((uint64_t)t->ip_sum + 20 + l4len + g->ip_id));
	st32(buf + T_TCP + 4, g->seq);
	st32(buf + T_TCP + 8, g->ack);
	buf[T_TCP + 12] = (uint8_t)(thl / 4 << 4);
	buf[T_TCP + 13] = doff_flags;
	st16(buf + T_TCP + 14, g->win);
	sum = (uint64_t)t->tcp_sum + l4len + sum32(g->seq) + sum32(g->ack) +
	      (uint32_t)(thl / 4 << 12) + doff_flags + g->win +
	      ramp_csum(g->payload_seed, g->payload_len);
	if (g->ts) {
		st32(buf + T_TCP + 24, g->tsval);
		st32(buf + T_TCP + 28, g->tsecr);
		sum += 0x0101u + 0x080au + sum32(g->tsval) + sum32(g->tsecr);
	}
	st16(buf + T_TCP + 16, fold_not(sum));
	if (!g->hdr_only) {
		if (!ramp[1])
			for (size_t i = 0; i < sizeof(ramp); i++)
				ramp[i] = (uint8_t)i;
		memcpy(buf + T_TCP + thl, ramp + g->payload_seed, g->payload_len);
	}
	if (len < 60)
		memset(buf + len, 0, 60 - len);
	return (ssize_t)out;
}
