// SPDX-License-Identifier: MIT
/* test_responder.c - the wire peer that answers ARP and ping (rxscale uml). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "load/load_responder.h"
#include "net/net_build.h"

static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t host_mac[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x01 };
static const uint8_t peer_ip[4] = { 10, 0, 0, 2 }, host_ip[4] = { 10, 0, 0, 1 };

static void init(struct load_responder *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->mac, peer_mac, 6);
	memcpy(r->ip, peer_ip, 4);
}

static size_t arp_request(uint8_t *f, const uint8_t target[4])
{
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	memcpy(f + 6, host_mac, 6);
	f[12] = 0x08; f[13] = 0x06;
	f[15] = 1; f[16] = 0x08; f[18] = 6; f[19] = 4; f[21] = 1;
	memcpy(f + 22, host_mac, 6);
	memcpy(f + 28, host_ip, 4);
	memcpy(f + 38, target, 4);
	return 60;
}

static size_t echo_request(uint8_t *f, uint16_t seq, size_t payload)
{
	uint8_t *ip = f + 14, *ic = ip + 20;
	size_t tot = 20 + 8 + payload;

	memcpy(f, peer_mac, 6);
	memcpy(f + 6, host_mac, 6);
	f[12] = 0x08; f[13] = 0x00;
	memset(ip, 0, tot);
	ip[0] = 0x45; ip[2] = (uint8_t)(tot >> 8); ip[3] = (uint8_t)tot;
	ip[6] = 0x40; ip[8] = 64; ip[9] = 1;
	memcpy(ip + 12, host_ip, 4);
	memcpy(ip + 16, peer_ip, 4);
	ip[10] = 0; ip[11] = 0;
	{
		uint16_t c = net_csum_fold(ip, 20, 0);

		ip[10] = (uint8_t)(c >> 8); ip[11] = (uint8_t)c;
	}
	ic[0] = 8; ic[4] = 0x12; ic[5] = 0x34; ic[6] = (uint8_t)(seq >> 8); ic[7] = (uint8_t)seq;
	for (size_t i = 0; i < payload; i++)
		ic[8 + i] = (uint8_t)i;
	{
		uint16_t c = net_csum_fold(ic, 8 + payload, 0);

		ic[2] = (uint8_t)(c >> 8); ic[3] = (uint8_t)c;
	}
	return 14 + tot;
}

static void test_arp(void **state)
{
	struct load_responder r;
	uint8_t f[64], out[1600];
	static const uint8_t other[4] = { 10, 0, 0, 3 };

	(void)state;
	init(&r);
	assert_int_equal(load_responder_rx(&r, f, arp_request(f, peer_ip), out, sizeof(out)), 60);
	assert_memory_equal(out, host_mac, 6);          /* to the asker */
	assert_memory_equal(out + 6, peer_mac, 6);
	assert_int_equal(out[21], 2);                   /* reply */
	assert_memory_equal(out + 22, peer_mac, 6);     /* sender: us */
	assert_memory_equal(out + 28, peer_ip, 4);
	assert_memory_equal(out + 32, host_mac, 6);     /* target: them */
	assert_memory_equal(out + 38, host_ip, 4);
	/* for another address: ignored; too short: malformed */
	assert_int_equal(load_responder_rx(&r, f, arp_request(f, other), out, sizeof(out)), 0);
	assert_int_equal(load_responder_rx(&r, f, 20, out, sizeof(out)), 0);
	assert_int_equal(r.arp_replies, 1);
	assert_int_equal(r.ignored, 1);
	assert_int_equal(r.malformed, 1);
}

static void test_echo(void **state)
{
	struct load_responder r;
	uint8_t f[1600], out[1600];
	size_t n;

	(void)state;
	init(&r);
	n = echo_request(f, 7, 56);
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), n);
	assert_memory_equal(out, host_mac, 6);
	assert_memory_equal(out + 14 + 12, peer_ip, 4);
	assert_memory_equal(out + 14 + 16, host_ip, 4);
	assert_int_equal(net_csum_fold(out + 14, 20, 0), 0);            /* IP sum */
	assert_int_equal(out[34], 0);                                   /* echo reply */
	assert_int_equal(net_csum_fold(out + 34, 8 + 56, 0), 0);        /* ICMP sum */
	assert_memory_equal(out + 34 + 4, f + 34 + 4, 4 + 56);          /* id, seq, data */
	/* a small one is padded to 60 bytes */
	n = echo_request(f, 8, 0);
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), 60);
	/* bad: total length past the frame, IHL < 5, version 6, a fragment */
	n = echo_request(f, 9, 56);
	f[17] = 0xff;
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), 0);
	n = echo_request(f, 9, 56);
	f[14] = 0x44;
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), 0);
	n = echo_request(f, 9, 56);
	f[14] = 0x65;
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), 0);
	n = echo_request(f, 9, 56);
	f[14 + 6] = 0x20;                                               /* MF */
	assert_int_equal(load_responder_rx(&r, f, n, out, sizeof(out)), 0);
	/* a reply that would not fit the caller's buffer is not written */
	n = echo_request(f, 10, 56);
	assert_int_equal(load_responder_rx(&r, f, n, out, 40), 0);
	assert_int_equal(r.echo_replies, 2);
	assert_int_equal(r.malformed, 4);
	assert_int_equal(r.ignored, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arp),
		cmocka_unit_test(test_echo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
