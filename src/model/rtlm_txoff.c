// SPDX-License-Identifier: MIT
/*
 * rtlm_txoff.c - TX checksum offload and giant send (TSO) of the PCIe
 * family, as a frame's first descriptor asks for them.
 *
 * Facts (K drivers/net/ethernet/realtek/r8169_main.c 7.3, the
 * rtl_tx_desc_bit_1 enum and rtl8169_tso_csum_v2; mainline turns SG, TSO
 * and IP checksum offload on for the RTL8125/8126/8127):
 * - giant send: opts1 GTSENV4 (bit 26) or GTSENV6 (bit 25), the offset of
 *   the TCP header from the start of the frame in opts1 bits 24:18, the
 *   MSS in opts2 bits 28:18; up to 64000 bytes (RTL_GSO_MAX_SIZE_V2);
 * - checksum only: opts2 IPv4_CS (bit 29), IPv6_CS (28), TCP_CS (30),
 *   UDP_CS (31), the L4 header offset in opts2 bits 27:18.
 * Each segment of a giant send leaves as a frame of its own: the headers
 * repeated, the IPv4 total length, identification (+1 a segment) and
 * header checksum, or the IPv6 payload length; the TCP sequence number
 * (+MSS a segment); FIN and PSH only on the last segment and CWR only on
 * the first (the rule Linux's own software segmentation follows,
 * net/ipv4/tcp_offload.c tcp_gso_segment); the TCP checksum over the
 * pseudo-header.  [I] The device computes every checksum it is asked for
 * from scratch: whatever the driver left in the field (K seeds IPv6 TCP
 * with the pseudo-header sum) is ignored.  A UDP checksum that comes out
 * 0 is sent as 0xffff (RFC 768).
 */
#include <errno.h>
#include <string.h>

#include "hw/rtl_desc.h"
#include "model/rtlm_priv.h"
#include "net/net_build.h"

#define ETH_HLEN	14
#define TCP_FIN		0x01u
#define TCP_PSH		0x08u
#define TCP_CWR		0x80u

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Where the IP header starts (after Ethernet and in-band VLAN tags) and
 * which version it is; 0 when the frame is not IP. */
static unsigned ip_start(const uint8_t *f, size_t len, unsigned *ver)
{
	unsigned off = 12;

	while (off + 2 <= len &&
	       (get16(f + off) == 0x8100 || get16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 > len)
		return 0;
	*ver = get16(f + off) == 0x0800 ? 4 : get16(f + off) == 0x86dd ? 6 : 0;
	return *ver ? off + 2 : 0;
}

/* IPv4 header checksum of the header at @ip. */
static void ipv4_csum(uint8_t *ip)
{
	unsigned ihl = (ip[0] & 0x0fu) * 4u;

	put16(ip + 10, 0);
	put16(ip + 10, net_csum_fold(ip, ihl, 0));
}

/* L4 checksum (at @csum_at inside the L4 header at @l4) over the
 * pseudo-header of the IP header at @ip. */
static void l4_csum(uint8_t *ip, unsigned ver, uint8_t *l4, size_t l4len,
		    unsigned csum_at, uint8_t proto)
{
	uint32_t s;
	uint16_t c;

	if (ver == 4)
		s = rtlm_sum16(ip + 12, 8, 0);
	else
		s = rtlm_sum16(ip + 8, 32, 0);
	s += proto + (uint32_t)(l4len & 0xffffu) + (uint32_t)(l4len >> 16);
	put16(l4 + csum_at, 0);
	c = net_csum_fold(l4, l4len, s);
	if (proto == 17 && !c)
		c = 0xffff;
	put16(l4 + csum_at, c);
}

/* Checksum offload in place.  0, or -EINVAL (a guest error) when the
 * offsets do not fit the frame. */
static int csum_only(struct rtlm_dev *dev, uint32_t opts2, uint8_t *f,
		     size_t len)
{
	unsigned ver = 0, l3 = ip_start(f, len, &ver);
	unsigned l4 = (opts2 >> RTL_TX_TCPHO_SHIFT) & RTL_TX_TCPHO_MAX;
	bool tcp = opts2 & RTL_TX_TCP_CS, udp = opts2 & RTL_TX_UDP_CS;

	if (!l3 || (ver == 4 && l3 + 20 > len) || (ver == 6 && l3 + 40 > len)) {
		rtlm_guest_error(dev, "TX checksum offload on a frame that is not IP");
		return -EINVAL;
	}
	if ((opts2 & RTL_TX_IPV4_CS) && ver == 4)
		ipv4_csum(f + l3);
	if (!tcp && !udp)
		return 0;
	if (l4 <= l3 || l4 + (tcp ? 20u : 8u) > len) {
		rtlm_guest_error(dev, "TX checksum offload: L4 offset %u in a %zu-byte frame",
				 l4, len);
		return -EINVAL;
	}
	l4_csum(f + l3, ver, f + l4, len - l4, tcp ? 16 : 6, tcp ? 6 : 17);
	return 0;
}

int rtlm_tx_offload(struct rtlm_dev *dev, uint32_t opts1, uint32_t opts2,
		    uint8_t *f, size_t len, rtlm_txoff_emit emit, void *arg)
{
	unsigned ver = 0, l3, l4, hdr, mss, nseg;
	uint32_t seq;
	uint16_t id;
	uint8_t flags;

	if (!(opts1 & (RTL_TX_GTSENV4 | RTL_TX_GTSENV6))) {
		if ((opts2 & (RTL_TX_TCP_CS | RTL_TX_UDP_CS | RTL_TX_IPV4_CS |
			      RTL_TX_IPV6_CS)) && csum_only(dev, opts2, f, len))
			return -EINVAL;
		emit(dev, f, len, arg);
		return 1;
	}
	l3 = ip_start(f, len, &ver);
	l4 = (opts1 >> RTL_TX_GTTCPHO_SHIFT) & RTL_TX_GTTCPHO_MAX;
	mss = (opts2 >> RTL_TX_MSS_SHIFT) & RTL_TX_MSS_MAX;
	if (!l3 || ver != ((opts1 & RTL_TX_GTSENV4) ? 4u : 6u) || l4 <= l3 ||
	    l4 + 20 > len || !mss) {
		rtlm_guest_error(dev, "TX giant send: IPv%u frame of %zu bytes, TCP "
				 "header at %u, MSS %u", ver, len, l4, mss);
		return -EINVAL;
	}
	hdr = l4 + (f[l4 + 12] >> 4) * 4u;
	if (hdr > len || hdr + mss > RTLM_TX_MAX) {
		rtlm_guest_error(dev, "TX giant send: headers of %u bytes, MSS %u, "
				 "frame %zu", hdr, mss, len);
		return -EINVAL;
	}
	nseg = len > hdr ? (unsigned)((len - hdr + mss - 1) / mss) : 1;
	seq = (uint32_t)get16(f + l4 + 4) << 16 | get16(f + l4 + 6);
	id = get16(f + l3 + 4);
	flags = f[l4 + 13];
	for (unsigned i = 0; i < nseg; i++) {
		size_t pay = len - hdr - (size_t)i * mss;
		uint8_t *s = dev->tx_seg;
		uint32_t sq = seq + i * mss;

		if (pay > mss)
			pay = mss;
		memcpy(s, f, hdr);
		memcpy(s + hdr, f + hdr + (size_t)i * mss, pay);
		if (ver == 4) {
			put16(s + l3 + 2, (uint16_t)(hdr - l3 + pay));
			put16(s + l3 + 4, (uint16_t)(id + i));
			ipv4_csum(s + l3);
		} else {
			put16(s + l3 + 4, (uint16_t)(hdr - l3 - 40 + pay));
		}
		put16(s + l4 + 4, (uint16_t)(sq >> 16));
		put16(s + l4 + 6, (uint16_t)sq);
		s[l4 + 13] = flags;
		if (i + 1 < nseg)
			s[l4 + 13] &= (uint8_t)~(TCP_FIN | TCP_PSH);
		if (i)
			s[l4 + 13] &= (uint8_t)~TCP_CWR;
		l4_csum(s + l3, ver, s + l4, hdr - l4 + pay, 16, 6);
		emit(dev, s, hdr + pay, arg);
	}
	return (int)nseg;
}
