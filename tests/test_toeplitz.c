/* SPDX-License-Identifier: MIT */
/*
 * test_toeplitz.c - Toeplitz against published vectors (Microsoft "Verifying
 * the RSS hash calculation", also in DPDK app/test/test_thash.c; VPP
 * src/vppinfra/test/toeplitz.c length vectors; symmetric-key vectors from
 * ../shared/research/rss-anchors.md s1.5b), the reference against the byte
 * tables on random inputs, and the pinned rule for long inputs.
 */
#include "test_util.h"

#include <errno.h>
#include <stdlib.h>

#include "rss/rss_toeplitz.h"

struct v4_vec {
	const char *dst, *src;
	uint16_t dport, sport;
	uint32_t h_ip, h_tcp;
};

static const struct v4_vec v4[] = {
	{ "161.142.100.80", "66.9.149.187", 1766, 2794, 0x323e8fc2, 0x51ccc178 },
	{ "65.69.140.83", "199.92.111.2", 4739, 14230, 0xd718262a, 0xc626b0ea },
	{ "12.22.207.184", "24.19.198.95", 38024, 12898, 0xd2d0a5de, 0x5c2b394a },
	{ "209.142.163.6", "38.27.205.30", 2217, 48228, 0x82989176, 0xafc7327f },
	{ "202.188.127.2", "153.39.163.191", 1303, 44251, 0x5d1809c5, 0x10e828a2 },
};

struct v6_vec {
	const char *dst, *src;
	uint16_t dport, sport;
	uint32_t h_ip, h_tcp;
};

static const struct v6_vec v6[] = {
	{ "3ffe:2501:200:3::1", "3ffe:2501:200:1fff::7", 1766, 2794,
	  0x2cc18cd5, 0x40207d3d },
	{ "ff02::1", "3ffe:501:8::260:97ff:fe40:efab", 4739, 14230,
	  0x0f0c461c, 0xdde51bbf },
	{ "fe80::200:f8ff:fe21:67cf", "3ffe:1900:4545:3:200:f8ff:fe21:67cf",
	  38024, 44251, 0x4b61e985, 0x02d1feef },
};

static size_t tuple(uint8_t *in, const uint8_t *s, const uint8_t *d,
		    size_t al, int sport, int dport)
{
	memcpy(in, s, al);
	memcpy(in + al, d, al);
	if (sport < 0)
		return 2 * al;
	in[2 * al] = (uint8_t)(sport >> 8);
	in[2 * al + 1] = (uint8_t)sport;
	in[2 * al + 2] = (uint8_t)(dport >> 8);
	in[2 * al + 3] = (uint8_t)dport;
	return 2 * al + 4;
}

/* Every fast path gives @want: the byte tables, the GFNI transforms
 * where this CPU has them, and rss_thash()'s choice. */
static void fast_eq(const struct rss_thash *t, const uint8_t *in, size_t len,
		    uint32_t want)
{
	assert_int_equal(rss_thash_lut(t, in, len), want);
	if (rss_thash_gfni_cpu())
		assert_int_equal(rss_thash_gfni(t, in, len), want);
	assert_int_equal(rss_thash(t, in, len), want);
}

static void check_both(const struct rss_thash *t, const uint8_t *in,
		       size_t len, uint32_t want)
{
	assert_int_equal(rss_toeplitz_ref(rss_key_microsoft, 40, in, len), want);
	fast_eq(t, in, len, want);
}

static void test_ms_ipv4(void **state)
{
	struct rss_thash t;
	uint8_t s[4], d[4], in[36];
	size_t i;

	(void)state;
	assert_int_equal(rss_thash_init(&t, rss_key_microsoft, 40), 0);
	for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++) {
		tu_ip4(s, v4[i].src);
		tu_ip4(d, v4[i].dst);
		check_both(&t, in, tuple(in, s, d, 4, -1, 0), v4[i].h_ip);
		check_both(&t, in, tuple(in, s, d, 4, v4[i].sport, v4[i].dport),
			   v4[i].h_tcp);
	}
	rss_thash_fini(&t);
}

static void test_ms_ipv6(void **state)
{
	struct rss_thash t;
	uint8_t s[16], d[16], in[36];
	size_t i;

	(void)state;
	assert_int_equal(rss_thash_init(&t, rss_key_microsoft, 40), 0);
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		tu_ip6(s, v6[i].src);
		tu_ip6(d, v6[i].dst);
		check_both(&t, in, tuple(in, s, d, 16, -1, 0), v6[i].h_ip);
		check_both(&t, in, tuple(in, s, d, 16, v6[i].sport, v6[i].dport),
			   v6[i].h_tcp);
	}
	rss_thash_fini(&t);
}

/* The same vectors through frames: builder -> dissector -> rss_classify. */
static void test_ms_frames(void **state)
{
	struct tu_rss r;
	struct net_build b;
	struct net_flow f;
	struct rss_result res;
	size_t i;

	(void)state;
	tu_rss_init(&r, RSS_HT_RTL8127_DEFAULT, 4);
	for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++) {
		net_build_init(&b);
		tu_ip4(b.src, v4[i].src);
		tu_ip4(b.dst, v4[i].dst);
		b.sport = v4[i].sport;
		b.dport = v4[i].dport;
		tu_classify(&r, &b, &f, &res);
		assert_int_equal(res.in.type, RSS_TYPE_TCP4);
		assert_int_equal(res.hash, v4[i].h_tcp);
		assert_int_equal(res.queue, (v4[i].h_tcp & 127) % 4);
		b.proto = 1;	/* ICMP: the IP pair */
		tu_classify(&r, &b, &f, &res);
		assert_int_equal(res.in.type, RSS_TYPE_IPV4);
		assert_int_equal(res.in.len, 8);
		assert_int_equal(res.hash, v4[i].h_ip);
	}
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		net_build_init(&b);
		b.ipv = 6;
		tu_ip6(b.src, v6[i].src);
		tu_ip6(b.dst, v6[i].dst);
		b.sport = v6[i].sport;
		b.dport = v6[i].dport;
		tu_classify(&r, &b, &f, &res);
		assert_int_equal(res.in.type, RSS_TYPE_TCP6);
		assert_int_equal(res.hash, v6[i].h_tcp);
		b.proto = 58;
		tu_classify(&r, &b, &f, &res);
		assert_int_equal(res.in.type, RSS_TYPE_IPV6);
		assert_int_equal(res.in.len, 32);
		assert_int_equal(res.hash, v6[i].h_ip);
	}
	tu_rss_fini(&r);
}

/* VPP length vectors: the MS key repeated 6 times (240 bytes), data
 * 00 01 02 ... of length L. */
static void test_length_sweep(void **state)
{
	static const struct { size_t len; uint32_t h; } lv[] = {
		{ 0, 0x00000000 }, { 1, 0x00000000 }, { 2, 0x2b6d12ad },
		{ 3, 0x9de4446e }, { 4, 0x061f00bf }, { 5, 0xad7ed8f7 },
		{ 6, 0x4bc7b068 }, { 7, 0x231fc545 }, { 8, 0xdbd97a33 },
		{ 9, 0xcdab29e7 }, { 10, 0x2d665c0c }, { 11, 0x31e28ed7 },
		{ 12, 0x14e19218 }, { 13, 0x5aa89f0f }, { 14, 0xd47de07f },
		{ 15, 0x355ec712 }, { 16, 0x7e1cbfc0 }, { 36, 0x91c89ae9 },
		{ 100, 0xbd1b2dbf }, { 235, 0xc398d9f3 },
	};
	uint8_t key[240], data[240];
	struct rss_thash t;
	size_t i;

	(void)state;
	for (i = 0; i < 240; i++) {
		key[i] = rss_key_microsoft[i % 40];
		data[i] = (uint8_t)i;
	}
	assert_int_equal(rss_thash_init(&t, key, sizeof(key)), 0);
	for (i = 0; i < sizeof(lv) / sizeof(lv[0]); i++) {
		assert_int_equal(rss_toeplitz_ref(key, 240, data, lv[i].len),
				 lv[i].h);
		fast_eq(&t, data, lv[i].len, lv[i].h);
	}
	rss_thash_fini(&t);
}

/* Key 6d5a x 20 (16-bit periodic): both directions hash the same. */
static void test_symmetric_key(void **state)
{
	static const struct { uint32_t h4, h2; } want[] = {
		{ 0x9fcc9fcc, 0x0a590a59 }, { 0x60d760d7, 0x7ba97ba9 },
		{ 0x3a3e3a3e, 0xa55aa55a }, { 0xd26ed26e, 0xf8a7f8a7 },
		{ 0xf23ef23e, 0x57545754 },
	};
	uint8_t key[40], s[4], d[4], in[12];
	struct rss_thash t;
	uint64_t seed = 7;
	size_t i;

	(void)state;
	for (i = 0; i < 40; i += 2) {
		key[i] = 0x6d;
		key[i + 1] = 0x5a;
	}
	assert_int_equal(rss_thash_init(&t, key, 40), 0);
	for (i = 0; i < 5; i++) {
		tu_ip4(s, v4[i].src);
		tu_ip4(d, v4[i].dst);
		tuple(in, s, d, 4, v4[i].sport, v4[i].dport);
		fast_eq(&t, in, 12, want[i].h4);
		tuple(in, d, s, 4, v4[i].dport, v4[i].sport);
		fast_eq(&t, in, 12, want[i].h4);
		assert_int_equal(rss_toeplitz_ref(key, 40, in, 12), want[i].h4);
		tuple(in, s, d, 4, -1, 0);
		fast_eq(&t, in, 8, want[i].h2);
		tuple(in, d, s, 4, -1, 0);
		fast_eq(&t, in, 8, want[i].h2);
	}
	/* ... and on random IPv6 4-tuples, with 16 bits of information */
	for (i = 0; i < 10000; i++) {
		uint8_t a[16], bb[16], f6[36], r6[36];
		uint16_t sp = (uint16_t)tu_rand(&seed), dp = (uint16_t)tu_rand(&seed);
		uint32_t h;

		tu_fill(&seed, a, 16);
		tu_fill(&seed, bb, 16);
		tuple(f6, a, bb, 16, sp, dp);
		tuple(r6, bb, a, 16, dp, sp);
		h = rss_thash_lut(&t, f6, 36);
		fast_eq(&t, f6, 36, h);
		fast_eq(&t, r6, 36, h);
		assert_int_equal(h >> 16, h & 0xffff);
	}
	/* the MS key is not symmetric: reversed row 1 differs */
	rss_thash_fini(&t);
	assert_int_equal(rss_thash_init(&t, rss_key_microsoft, 40), 0);
	tu_ip4(s, v4[0].src);
	tu_ip4(d, v4[0].dst);
	tuple(in, d, s, 4, v4[0].dport, v4[0].sport);
	fast_eq(&t, in, 12, 0xfde799b2);
	rss_thash_fini(&t);
}

/* Fast path == reference on >= 1,000,000 random inputs of every length the
 * RSS engine uses (8, 12, 32, 36), with random 40- and 52-byte keys, plus
 * lengths past key - 4 (the zero-extension rule). */
static void test_lut_equals_ref(void **state)
{
	static const size_t lens[] = { 8, 12, 32, 36 };
	static const size_t key_lens[] = { 40, 52 };
	uint64_t seed = 0x1234567890abcdefull;
	uint8_t key[52], in[64];
	struct rss_thash t;
	bool gfni = rss_thash_gfni_cpu();
	size_t k, l, i;

	(void)state;
	for (k = 0; k < 2; k++) {
		tu_fill(&seed, key, key_lens[k]);
		assert_int_equal(rss_thash_init(&t, key, key_lens[k]), 0);
		for (l = 0; l < 4; l++) {
			size_t n = k == 0 ? 1000000 : 100000;

			for (i = 0; i < n; i++) {
				tu_fill(&seed, in, lens[l]);
				uint32_t want = rss_toeplitz_ref(key, key_lens[k],
								 in, lens[l]);

				if (rss_thash_lut(&t, in, lens[l]) != want)
					fail_msg("lut: key %zu len %zu input %zu",
						 key_lens[k], lens[l], i);
				if (gfni && rss_thash_gfni(&t, in, lens[l]) != want)
					fail_msg("gfni: key %zu len %zu input %zu",
						 key_lens[k], lens[l], i);
			}
		}
		for (l = 0; l <= 64; l++) {	/* every length, incl. > key-4 */
			for (i = 0; i < 2000; i++) {
				tu_fill(&seed, in, l);
				fast_eq(&t, in, l,
					rss_toeplitz_ref(key, key_lens[k], in, l));
			}
		}
		rss_thash_fini(&t);
	}
}

/* The pinned rule: an input longer than key_len - 4 sees the key
 * zero-extended; equal to hashing with explicit zero padding. */
static void test_long_input_rule(void **state)
{
	uint8_t key[40 + 32] = { 0 }, in[64];
	uint64_t seed = 99;
	size_t l;

	(void)state;
	memcpy(key, rss_key_microsoft, 40);
	for (l = 37; l <= 64; l++) {
		tu_fill(&seed, in, l);
		assert_int_equal(rss_toeplitz_ref(rss_key_microsoft, 40, in, l),
				 rss_toeplitz_ref(key, sizeof(key), in, l));
	}
	/* a byte at position >= key_len contributes nothing */
	memset(in, 0, sizeof(in));
	in[40] = 0xff;
	in[50] = 0x81;
	assert_int_equal(rss_toeplitz_ref(rss_key_microsoft, 40, in, 64), 0);
	/* the byte at key_len - 1 sees only its 8 key bits, so bit 0 of
	 * input byte 39 selects key byte 39 alone in the window's top bits:
	 * window = 0xfa000000 >> 7 ... computed bit by bit: */
	in[40] = 0;
	in[50] = 0;
	in[39] = 0x80;	/* MSB of byte 39: window starts at key bit 312 */
	assert_int_equal(rss_toeplitz_ref(rss_key_microsoft, 40, in, 40),
			 0xfa000000u);
	assert_int_equal(rss_thash_init(&(struct rss_thash){ 0 }, key, 3),
			 -EINVAL);
}

/* Variants that real implementations got wrong give different results:
 * a key read with the wrong byte order, or a non-zero initial value. */
static void test_wrong_variants_differ(void **state)
{
	uint8_t swapped[40], s[4], d[4], in[12];
	size_t i;
	uint32_t h;

	(void)state;
	for (i = 0; i < 40; i++)	/* key read as little-endian dwords */
		swapped[i] = rss_key_microsoft[(i & ~3u) + 3 - (i & 3)];
	tu_ip4(s, v4[0].src);
	tu_ip4(d, v4[0].dst);
	tuple(in, s, d, 4, v4[0].sport, v4[0].dport);
	h = rss_toeplitz_ref(swapped, 40, in, 12);
	assert_int_not_equal(h, v4[0].h_tcp);
	/* initial value 0xffffffff: every result inverted, never the vector */
	h = 0xffffffffu ^ rss_toeplitz_ref(rss_key_microsoft, 40, in, 12);
	assert_int_not_equal(h, v4[0].h_tcp);
	/* destination first (the MS table's column order) is also wrong */
	tuple(in, d, s, 4, v4[0].dport, v4[0].sport);
	assert_int_not_equal(rss_toeplitz_ref(rss_key_microsoft, 40, in, 12),
			     v4[0].h_tcp);
}

/* The GFNI path exists where the CPU can run it, and rss_thash() takes
 * it there (the tests above then checked it); elsewhere say why not. */
static void test_gfni_chosen(void **state)
{
	struct rss_thash t;

	(void)state;
	assert_int_equal(rss_thash_init(&t, rss_key_microsoft, 40), 0);
	assert_int_equal(t.use_gfni, rss_thash_gfni_cpu());
	if (!rss_thash_gfni_cpu()) {
		rss_thash_fini(&t);
		print_message("CPU lacks GFNI/AVX512BW/AVX512VBMI: byte tables only\n");
		skip();
	}
	/* a matrix that is not the key's would break the MS vector */
	t.gfni[3] ^= 1;
	assert_int_not_equal(rss_thash_gfni(&t, (const uint8_t[12]){
		66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6 }, 12),
		0x51ccc178);
	rss_thash_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_ipv4),
		cmocka_unit_test(test_ms_ipv6),
		cmocka_unit_test(test_ms_frames),
		cmocka_unit_test(test_length_sweep),
		cmocka_unit_test(test_symmetric_key),
		cmocka_unit_test(test_lut_equals_ref),
		cmocka_unit_test(test_long_input_rule),
		cmocka_unit_test(test_wrong_variants_differ),
		cmocka_unit_test(test_gfni_chosen),
	};

	return cmocka_run_group_tests_name("toeplitz", tests, NULL, NULL);
}
