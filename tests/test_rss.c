/* SPDX-License-Identifier: MIT */
/*
 * test_rss.c - indirection tables (ethtool -X semantics, kernel checks),
 * rx-flow-hash fields (ethtool letters, kernel xfrm rule, RTL8125-family
 * rules), keys, and the symmetric-xor transform.
 */
#include "test_util.h"

#include <errno.h>

#include "rss/rss_fields.h"

/* queue = indir[hash & (size - 1)], not hash % n. */
static void test_indir_lookup(void **state)
{
	struct rss_indir t;
	uint32_t h;
	unsigned diff = 0;

	(void)state;
	assert_int_equal(rss_indir_default(&t, 128, 3), 0);
	assert_int_equal(rss_indir_queue(&t, 128), 0);	/* 128 % 3 == 2 */
	assert_int_equal(rss_indir_queue(&t, 0x51ccc178), (0x78 % 3));
	for (h = 0; h < 100000; h++)
		if (rss_indir_queue(&t, h * 2654435761u) != (h * 2654435761u) % 3)
			diff++;
	assert_true(diff > 30000);
	/* with a power-of-two queue count dividing the table they agree */
	assert_int_equal(rss_indir_default(&t, 128, 4), 0);
	for (h = 0; h < 100000; h++)
		assert_int_equal(rss_indir_queue(&t, h * 2654435761u),
				 (h * 2654435761u) % 4);
}

/* Default tables give every queue floor(S/n) or ceil(S/n) entries. */
static void test_indir_default_balance(void **state)
{
	static const unsigned sizes[] = { 1, 2, 64, 128, 256, 512 };
	unsigned cnt[RSS_INDIR_MAX];
	struct rss_indir t;
	size_t s;
	unsigned n, i;

	(void)state;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (n = 1; n <= sizes[s]; n++) {
			assert_int_equal(rss_indir_default(&t, sizes[s], n), 0);
			memset(cnt, 0, sizeof(cnt));
			for (i = 0; i < t.size; i++) {
				assert_int_equal(t.tbl[i], i % n);
				cnt[t.tbl[i]]++;
			}
			for (i = 0; i < n; i++)
				assert_true(cnt[i] == sizes[s] / n ||
					    cnt[i] == (sizes[s] + n - 1) / n);
			assert_int_equal(rss_indir_check(&t, n), 0);
			assert_int_equal(rss_indir_max_queue(&t),
					 n - 1 < sizes[s] ? n - 1 : sizes[s] - 1);
		}
	}
	assert_int_equal(rss_indir_default(&t, 100, 4), -EINVAL);
	assert_int_equal(rss_indir_default(&t, 1024, 4), -EINVAL);
	assert_int_equal(rss_indir_default(&t, 0, 4), -EINVAL);
	assert_int_equal(rss_indir_default(&t, 128, 0), -EINVAL);
}

static void test_indir_equal_weight(void **state)
{
	static const uint32_t w17[] = { 1, 7 }, w0[] = { 0, 0 },
			      w3[] = { 1, 2, 1 }, wz[] = { 0, 1, 0, 1 };
	struct rss_indir t;
	unsigned i, c1 = 0;

	(void)state;
	/* equal 2 start 1 */
	assert_int_equal(rss_indir_equal(&t, 128, 2, 1), 0);
	for (i = 0; i < 128; i++)
		assert_int_equal(t.tbl[i], 1 + i % 2);
	/* the kernel rejects entries >= rx rings: equal 8 with 4 queues */
	assert_int_equal(rss_indir_equal(&t, 128, 8, 0), 0);
	assert_int_equal(rss_indir_check(&t, 4), -EINVAL);
	assert_int_equal(rss_indir_check(&t, 8), 0);
	assert_int_equal(rss_indir_equal(&t, 128, 0, 0), -EINVAL);
	/* weight 1 7: contiguous runs 16 and 112 */
	assert_int_equal(rss_indir_weight(&t, 128, w17, 2, 0), 0);
	for (i = 0; i < 128; i++) {
		assert_int_equal(t.tbl[i], i < 16 ? 0 : 1);
		c1 += t.tbl[i];
	}
	assert_int_equal(c1, 112);
	/* weight 1 2 1 start 2: 32 x q2, 64 x q3, 32 x q4 */
	assert_int_equal(rss_indir_weight(&t, 128, w3, 3, 2), 0);
	assert_int_equal(t.tbl[0], 2);
	assert_int_equal(t.tbl[31], 2);
	assert_int_equal(t.tbl[32], 3);
	assert_int_equal(t.tbl[95], 3);
	assert_int_equal(t.tbl[96], 4);
	assert_int_equal(t.tbl[127], 4);
	/* thresholds round down as ethtool's do: 1 2 -> 42 + 86 */
	assert_int_equal(rss_indir_weight(&t, 128, (const uint32_t[]){ 1, 2 },
					  2, 0), 0);
	assert_int_equal(t.tbl[41], 0);
	assert_int_equal(t.tbl[42], 1);
	assert_int_equal(t.tbl[127], 1);
	/* zero weights skip their queue */
	assert_int_equal(rss_indir_weight(&t, 128, wz, 4, 0), 0);
	for (i = 0; i < 128; i++)
		assert_int_equal(t.tbl[i], i < 64 ? 1 : 3);
	/* all zero, or more weight than entries */
	assert_int_equal(rss_indir_weight(&t, 128, w0, 2, 0), -EINVAL);
	assert_int_equal(rss_indir_weight(&t, 4, (const uint32_t[]){ 3, 3 }, 2, 0),
			 -EINVAL);
}

static void test_fields_letters(void **state)
{
	uint32_t rxh;
	char buf[16];
	enum rss_flow fl;

	(void)state;
	assert_int_equal(rss_fields_parse("sdfn", &rxh), 0);
	assert_int_equal(rxh, RSS_RXH_IP | RSS_RXH_L4);
	assert_string_equal(rss_fields_format(rxh, buf), "sdfn");
	assert_int_equal(rss_fields_parse("mvtsdfne", &rxh), 0);
	assert_int_equal(rxh, 0x1feu);
	assert_int_equal(rss_fields_parse("sdr", &rxh), 0);
	assert_int_equal(rxh, RSS_RXH_DISCARD);
	assert_string_equal(rss_fields_format(rxh, buf), "r");
	assert_int_equal(rss_fields_parse("sdx", &rxh), -EINVAL);
	assert_int_equal(rss_fields_parse("", &rxh), -EINVAL);
	assert_int_equal(rss_flow_parse("udp6", &fl), 0);
	assert_int_equal(fl, RSS_FLOW_UDP6);
	assert_string_equal(rss_flow_name(fl), "udp6");
	assert_int_equal(rss_flow_parse("udp", &fl), -EINVAL);
}

static void test_fields_chip_rules(void **state)
{
	uint32_t ht = RSS_HT_RTL8127_DEFAULT;

	(void)state;
	/* defaults as ethtool -n would report them */
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_TCP4), RSS_RXH_IP | RSS_RXH_L4);
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_UDP4), RSS_RXH_IP);
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_UDP6), RSS_RXH_IP);
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_IP6), RSS_RXH_IP);
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_SCTP4), 0);
	/* udp4 sdfn sets bit 11 only; udp6 sets bits 12 and 13 */
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp4 sdfn"), 0);
	assert_int_equal(ht, 0x083Fu);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp6 sdfn"), 0);
	assert_int_equal(ht, 0x383Fu);
	assert_int_equal(rss_fields_get(ht, RSS_FLOW_UDP4), RSS_RXH_IP | RSS_RXH_L4);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp4 sd"), 0);
	assert_int_equal(ht, 0x303Fu);
	/* what the chip cannot do leaves the bits unchanged */
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "tcp4 sd"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp4 sdf"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "ip4 sdfn"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "sctp4 sd"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "tcp4 sdfnv"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp9 sd"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp4"), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "udp4 sd extra"), -EINVAL);
	assert_int_equal(ht, 0x303Fu);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "tcp6 sdfn"), 0);
	assert_int_equal(rss_flow_hash_apply(&ht, 0, "ip6 sd"), 0);
	assert_int_equal(ht, 0x303Fu);
}

/* Kernel core: with symmetric-xor, only paired IP/L4 fields. */
static void test_fields_xfrm(void **state)
{
	uint32_t ht = RSS_HT_RTL8127_DEFAULT;

	(void)state;
	assert_int_equal(rss_fields_check_xfrm(RSS_RXH_IP_SRC, 0), 0);
	assert_int_equal(rss_fields_check_xfrm(RSS_RXH_IP | RSS_RXH_L4,
					       RSS_XFRM_SYM_XOR), 0);
	assert_int_equal(rss_fields_check_xfrm(RSS_RXH_IP | RSS_RXH_L4_B_0_1,
					       RSS_XFRM_SYM_XOR), -EINVAL);
	assert_int_equal(rss_fields_check_xfrm(RSS_RXH_IP_SRC, RSS_XFRM_SYM_XOR),
			 -EINVAL);
	assert_int_equal(rss_fields_check_xfrm(RSS_RXH_IP | RSS_RXH_VLAN,
					       RSS_XFRM_SYM_XOR), -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, RSS_XFRM_SYM_XOR, "udp4 sdf"),
			 -EINVAL);
	assert_int_equal(rss_flow_hash_apply(&ht, RSS_XFRM_SYM_XOR, "udp4 sdfn"),
			 0);
}

/* symmetric-xor: both directions of a flow hash alike with the MS key,
 * and the input really is the XOR of the fields, twice. */
static void test_sym_xor(void **state)
{
	struct tu_rss r;
	struct net_build b;
	struct net_flow f;
	struct rss_result fwd, rev;
	static const uint8_t want[12] = {
		66 ^ 161, 9 ^ 142, 149 ^ 100, 187 ^ 80,
		66 ^ 161, 9 ^ 142, 149 ^ 100, 187 ^ 80,
		(2794 ^ 1766) >> 8, (2794 ^ 1766) & 0xff,
		(2794 ^ 1766) >> 8, (2794 ^ 1766) & 0xff,
	};

	(void)state;
	tu_rss_init(&r, RSS_HT_RTL8127_DEFAULT, 4);
	r.cfg.xfrm = RSS_XFRM_SYM_XOR;
	net_build_init(&b);
	tu_ip4(b.src, "66.9.149.187");
	tu_ip4(b.dst, "161.142.100.80");
	b.sport = 2794;
	b.dport = 1766;
	tu_classify(&r, &b, &f, &fwd);
	assert_memory_equal(fwd.in.bytes, want, 12);
	tu_ip4(b.dst, "66.9.149.187");
	tu_ip4(b.src, "161.142.100.80");
	b.dport = 2794;
	b.sport = 1766;
	tu_classify(&r, &b, &f, &rev);
	assert_int_equal(fwd.hash, rev.hash);
	assert_int_equal(fwd.queue, rev.queue);
	assert_int_equal(fwd.hash, rss_toeplitz_ref(rss_key_microsoft, 40, want, 12));
	assert_int_not_equal(fwd.hash, 0x51ccc178);
	/* IPv6 too */
	b.ipv = 6;
	tu_ip6(b.src, "2001:db8::1");
	tu_ip6(b.dst, "2001:db8::2");
	tu_classify(&r, &b, &f, &fwd);
	tu_ip6(b.dst, "2001:db8::1");
	tu_ip6(b.src, "2001:db8::2");
	b.sport = 2794;
	b.dport = 1766;
	tu_classify(&r, &b, &f, &rev);
	assert_int_equal(fwd.in.type, RSS_TYPE_TCP6);
	assert_int_equal(fwd.hash, rev.hash);
	tu_rss_fini(&r);
}

static void test_key_parse(void **state)
{
	uint8_t k[64];
	size_t n;
	char buf[3 * 64];

	(void)state;
	/* exactly the device's size: 4 here */
	assert_int_equal(rss_key_parse("6d5a56DA", 0, k, 4, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(k[3], 0xda);
	assert_int_equal(rss_key_parse("6d:5a:56:da", 0, k, 4, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(rss_key_format(k, n, buf), "6d:5a:56:da");
	assert_int_equal(rss_key_parse("6d5", 0, k, 4, &n), -EINVAL);
	assert_int_equal(rss_key_parse("6d:5a:", 0, k, 2, &n), -EINVAL);
	assert_int_equal(rss_key_parse("6d::5a", 0, k, 4, &n), -EINVAL);
	assert_int_equal(rss_key_parse("6d5a:56da", 0, k, 4, &n), -EINVAL);
	assert_int_equal(rss_key_parse("zz", 0, k, 1, &n), -EINVAL);
	assert_int_equal(rss_key_parse("", 0, k, 4, &n), -EINVAL);
	/* too long is found first, as ethtool reports it: at byte size + 1 */
	assert_int_equal(rss_key_parse("0102", 0, k, 1, &n), -E2BIG);
	assert_int_equal(n, 2);
	assert_int_equal(rss_key_parse("01:02:zz", RSS_KEY_ETHTOOL, k, 2, &n), -E2BIG);
	/* too short: how many there were */
	assert_int_equal(rss_key_parse("6d5a56", 0, k, 4, &n), -ERANGE);
	assert_int_equal(n, 3);
	/* ethtool's form: a ':' after each byte, one after the last taken */
	assert_int_equal(rss_key_parse("6d:5a:", RSS_KEY_ETHTOOL, k, 2, &n), 0);
	assert_int_equal(rss_key_parse("6d5a", RSS_KEY_ETHTOOL, k, 2, &n), -EINVAL);
	assert_int_equal(rss_key_parse("6d:5a", RSS_KEY_ETHTOOL, k, 2, &n), 0);
	assert_int_equal(k[1], 0x5a);
	assert_string_equal(rss_key_format(rss_key_microsoft, 40, buf),
		"6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:"
		"ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa");
}

static void test_type_names(void **state)
{
	enum rss_type t;
	unsigned i;

	(void)state;
	for (i = 0; i < RSS_TYPE__COUNT; i++) {
		assert_int_equal(rss_type_parse(rss_type_name((enum rss_type)i), &t), 0);
		assert_int_equal(t, i);
	}
	assert_int_equal(rss_type_parse("tcp", &t), -EINVAL);
	assert_string_equal(rss_type_name(RSS_TYPE__COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_indir_lookup),
		cmocka_unit_test(test_indir_default_balance),
		cmocka_unit_test(test_indir_equal_weight),
		cmocka_unit_test(test_fields_letters),
		cmocka_unit_test(test_fields_chip_rules),
		cmocka_unit_test(test_fields_xfrm),
		cmocka_unit_test(test_sym_xor),
		cmocka_unit_test(test_key_parse),
		cmocka_unit_test(test_type_names),
	};

	return cmocka_run_group_tests_name("rss", tests, NULL, NULL);
}
