// SPDX-License-Identifier: MIT
/* load_responder.c - ARP and ICMP echo replies from a peer address. */
#include <string.h>

#include "load/load_responder.h"
#include "net/net_build.h"

#define ETH_HLEN 14
#define ETH_MIN 60              /* without FCS */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* ARP (RFC 826) over Ethernet/IPv4: a request for our address. */
static size_t arp(struct load_responder *r, const uint8_t *f, size_t len,
		  uint8_t *out, size_t cap)
{
	const uint8_t *a = f + ETH_HLEN;

	if (len < ETH_HLEN + 28 || cap < ETH_MIN) {
		r->malformed++;
		return 0;
	}
	/* htype 1, ptype 0x0800, hlen 6, plen 4, op 1 (request) */
	if (be16(a) != 1 || be16(a + 2) != 0x0800 || a[4] != 6 || a[5] != 4 ||
	    be16(a + 6) != 1 || memcmp(a + 24, r->ip, 4)) {
		r->ignored++;
		return 0;
	}
	memset(out, 0, ETH_MIN);
	memcpy(out, a + 8, 6);                  /* to the sender's MAC */
	memcpy(out + 6, r->mac, 6);
	put16(out + 12, 0x0806);
	put16(out + 14, 1);
	put16(out + 16, 0x0800);
	out[18] = 6;
	out[19] = 4;
	put16(out + 20, 2);                     /* reply */
	memcpy(out + 22, r->mac, 6);
	memcpy(out + 28, r->ip, 4);
	memcpy(out + 32, a + 8, 10);            /* sender MAC + IP -> target */
	r->arp_replies++;
	return ETH_MIN;
}

/* ICMP echo request (RFC 792) to our address, IPv4 without options or
 * with them (IHL honoured); the reply carries the same id, seq and data. */
static size_t icmp(struct load_responder *r, const uint8_t *f, size_t len,
		   uint8_t *out, size_t cap)
{
	const uint8_t *ip = f + ETH_HLEN;
	size_t ihl, tot;
	uint8_t *oip, *ic;

	if (len < ETH_HLEN + 20) {
		r->malformed++;
		return 0;
	}
	ihl = (size_t)(ip[0] & 15) * 4;
	tot = be16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < 20 || tot < ihl + 8 ||
	    ETH_HLEN + tot > len || ETH_HLEN + tot > cap) {
		r->malformed++;
		return 0;
	}
	if (ip[9] != 1 || memcmp(ip + 16, r->ip, 4) || ip[ihl] != 8 ||
	    (be16(ip + 6) & 0x3fff)) {          /* not echo, or a fragment */
		r->ignored++;
		return 0;
	}
	memcpy(out, f + 6, 6);
	memcpy(out + 6, r->mac, 6);
	put16(out + 12, 0x0800);
	oip = out + ETH_HLEN;
	memcpy(oip, ip, tot);
	memcpy(oip + 12, r->ip, 4);
	memcpy(oip + 16, ip + 12, 4);
	oip[8] = 64;                            /* TTL */
	put16(oip + 10, 0);
	put16(oip + 10, net_csum_fold(oip, ihl, 0));
	ic = oip + ihl;
	ic[0] = 0;                              /* echo reply */
	put16(ic + 2, 0);
	put16(ic + 2, net_csum_fold(ic, tot - ihl, 0));
	r->echo_replies++;
	if (ETH_HLEN + tot < ETH_MIN) {
		if (cap < ETH_MIN)
			return 0;
		memset(out + ETH_HLEN + tot, 0, ETH_MIN - ETH_HLEN - tot);
		return ETH_MIN;
	}
	return ETH_HLEN + tot;
}

size_t load_responder_rx(struct load_responder *r, const uint8_t *frame,
			 size_t len, uint8_t *reply, size_t cap)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (len < ETH_HLEN) {
		r->malformed++;
		return 0;
	}
	if (memcmp(frame, r->mac, 6) && memcmp(frame, bcast, 6)) {
		r->ignored++;
		return 0;
	}
	switch (be16(frame + 12)) {
	case 0x0806:
		return arp(r, frame, len, reply, cap);
	case 0x0800:
		return icmp(r, frame, len, reply, cap);
	default:
		r->ignored++;
		return 0;
	}
}
