/* SPDX-License-Identifier: MIT */
/*
 * load_responder.h - the smallest peer host: it answers ARP requests for
 * its IPv4 address and ICMP echo requests to it (RFC 826, RFC 792), so a
 * real guest kernel on the other end of the wire can resolve it and ping
 * it.  Everything else it is sent is counted and ignored.
 */
#ifndef RXSCALE_LOAD_RESPONDER_H
#define RXSCALE_LOAD_RESPONDER_H

#include <stddef.h>
#include <stdint.h>

struct load_responder {
	uint8_t mac[6];
	uint8_t ip[4];
	uint64_t arp_replies, echo_replies, ignored, malformed;
};

/*
 * Look at @frame (Ethernet, no FCS) sent to the responder; if it calls for
 * an answer, write it to @reply (room for @cap bytes) and return its
 * length, else return 0.
 */
size_t load_responder_rx(struct load_responder *r, const uint8_t *frame,
			 size_t len, uint8_t *reply, size_t cap);

#endif /* RXSCALE_LOAD_RESPONDER_H */
