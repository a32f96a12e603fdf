/* SPDX-License-Identifier: MIT */
/*
 * test_dpdk.c - rxscale's Toeplitz (reference and byte tables) against
 * DPDK's rte_softrss and rte_softrss_be (lib/hash/rte_thash.h, Debian
 * libdpdk-dev), an independent implementation, on random tuples.  DPDK is
 * a test oracle only; rxscale never links it.
 */
#include <rte_thash.h>

#include "test_util.h"

#define N_TUPLES 200000

/* DPDK takes the tuple as host-order 32-bit words. */
static void to_words(const uint8_t *in, size_t len, uint32_t *w)
{
	for (size_t i = 0; i < len / 4; i++)
		w[i] = (uint32_t)in[4 * i] << 24 | (uint32_t)in[4 * i + 1] << 16 |
		       (uint32_t)in[4 * i + 2] << 8 | in[4 * i + 3];
}

static void check_key(const uint8_t *key, uint64_t *seed)
{
	static const size_t lens[] = { 8, 12, 32, 36 };
	uint8_t be_key[40], in[36];
	uint32_t w[9];
	struct rss_thash t;
	size_t l, i;

	assert_int_equal(rss_thash_init(&t, key, 40), 0);
	memcpy(be_key, key, 40);
	rte_convert_rss_key((const uint32_t *)(const void *)key,
			    (uint32_t *)(void *)be_key, 40);
	for (l = 0; l < 4; l++) {
		for (i = 0; i < N_TUPLES; i++) {
			uint32_t want, got;

			tu_fill(seed, in, lens[l]);
			to_words(in, lens[l], w);
			want = rte_softrss(w, (uint32_t)lens[l] / 4, key);
			got = rss_thash_lut(&t, in, lens[l]);
			if (rss_thash_gfni_cpu() &&
			    rss_thash_gfni(&t, in, lens[l]) != want)
				fail_msg("len %zu tuple %zu: rxscale gfni 0x%08x, "
					 "rte_softrss 0x%08x", lens[l], i,
					 rss_thash_gfni(&t, in, lens[l]), want);
			if (got != want || rte_softrss_be(w, (uint32_t)lens[l] / 4,
							  be_key) != want ||
			    rss_toeplitz_ref(key, 40, in, lens[l]) != want)
				fail_msg("len %zu tuple %zu: rxscale 0x%08x, "
					 "rte_softrss 0x%08x", lens[l], i, got,
					 want);
		}
	}
	rss_thash_fini(&t);
}

static void test_vs_rte_softrss(void **state)
{
	uint64_t seed = 0xfeedfacecafebeefull;
	uint8_t key[40];

	(void)state;
	check_key(rss_key_microsoft, &seed);
	tu_fill(&seed, key, sizeof(key));
	check_key(key, &seed);
}

/* DPDK's own tuple helpers on a real MS vector: the IPv4 4-tuple struct. */
static void test_rte_ipv4_tuple(void **state)
{
	union rte_thash_tuple tup;

	(void)state;
	memset(&tup, 0, sizeof(tup));
	tup.v4.src_addr = 0x420995bb;	/* 66.9.149.187 */
	tup.v4.dst_addr = 0xa18e6450;	/* 161.142.100.80 */
	tup.v4.sport = 2794;
	tup.v4.dport = 1766;
	assert_int_equal(rte_softrss((uint32_t *)&tup, RTE_THASH_V4_L4_LEN,
				     rss_key_microsoft), 0x51ccc178);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vs_rte_softrss),
		cmocka_unit_test(test_rte_ipv4_tuple),
	};

	return cmocka_run_group_tests_name("dpdk", tests, NULL, NULL);
}
