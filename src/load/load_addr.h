/* SPDX-License-Identifier: MIT */
/* load_addr.h - the measurement's addresses: the peer 192.168.2.2 and the
 * host under test 192.168.2.1 on one link (the seeds' iperf3 setup). */
#ifndef RXSCALE_LOAD_ADDR_H
#define RXSCALE_LOAD_ADDR_H

#include <stdint.h>
#include <string.h>

#include "net/net_build.h"

static const uint8_t load_peer_ip[4] = { 192, 168, 2, 2 };
static const uint8_t load_host_ip[4] = { 192, 168, 2, 1 };
static const uint8_t load_peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

/* Start a frame the peer sends to the host (NIC MAC @dut_mac): IPv4,
 * protocol @proto, peer -> host addresses. */
static inline void load_build_peer(struct net_build *b, const uint8_t *dut_mac,
				   uint8_t proto)
{
	net_build_init(b);
	memcpy(b->dmac, dut_mac, 6);
	memcpy(b->smac, load_peer_mac, 6);
	b->ipv = 4;
	memcpy(b->src, load_peer_ip, 4);
	memcpy(b->dst, load_host_ip, 4);
	b->proto = proto;
}

#endif /* RXSCALE_LOAD_ADDR_H */
