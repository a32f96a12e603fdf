/* SPDX-License-Identifier: MIT */
/* load_addr.h - the measurement's addresses: the peer 192.168.2.2 and the
 * host under test 192.168.2.1 on one link (the seeds' iperf3 setup). */
#ifndef RXSCALE_LOAD_ADDR_H
#define RXSCALE_LOAD_ADDR_H

#include <stdint.h>

static const uint8_t load_peer_ip[4] = { 192, 168, 2, 2 };
static const uint8_t load_host_ip[4] = { 192, 168, 2, 1 };
static const uint8_t load_peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

#endif /* RXSCALE_LOAD_ADDR_H */
