/* SPDX-License-Identifier: MIT */
/* test_util.h - shared helpers for the cmocka tests. */
#ifndef RXSCALE_TEST_UTIL_H
#define RXSCALE_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <arpa/inet.h>

#include "net/net_build.h"
#include "net/net_flow.h"
#include "rss/rss_hash.h"
#include "rss/rss_key.h"

/* xorshift64*: the tests' own deterministic random stream */
static inline uint64_t tu_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline void tu_fill(uint64_t *s, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(tu_rand(s) >> 56);
}

static inline void tu_ip4(uint8_t *a, const char *s)
{
	assert_int_equal(inet_pton(AF_INET, s, a), 1);
}

static inline void tu_ip6(uint8_t *a, const char *s)
{
	assert_int_equal(inet_pton(AF_INET6, s, a), 1);
}

/* The value ethtool -S printed for @name in @out. */
static inline uint64_t tu_stat(const char *out, const char *name)
{
	char key[80];
	const char *p;

	snprintf(key, sizeof(key), "\n     %s: ", name);
	p = strstr(out, key);
	if (!p)
		fail_msg("-S has no %s", name);
	return strtoull(p + strlen(key), NULL, 10);
}

/* ethtool -S output @out starts with @names (in order), then @next. */
static inline void tu_stat_order(const char *out, const char *const *names, unsigned n,
				 const char *next)
{
	const char *p = out;

	assert_true(!strncmp(p, "NIC statistics:\n", 16));
	p += 16;
	for (unsigned i = 0; i <= n; i++) {
		const char *want = i < n ? names[i] : next;
		size_t len = strlen(want);

		if (strncmp(p, "     ", 5) || strncmp(p + 5, want, len) || p[5 + len] != ':')
			fail_msg("line %u of -S: want %s, got %.40s", i + 1, want, p);
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
}

/* An RSS engine with the Microsoft key, 128 entries, @n queues. */
struct tu_rss {
	struct rss_thash key;
	struct rss_indir indir;
	struct rss_cfg cfg;
};

static inline void tu_rss_init(struct tu_rss *r, uint32_t ht, unsigned n)
{
	assert_int_equal(rss_thash_init(&r->key, rss_key_microsoft, 40), 0);
	assert_int_equal(rss_indir_default(&r->indir, 128, n), 0);
	r->cfg.key = &r->key;
	r->cfg.indir = &r->indir;
	r->cfg.ht = ht;
	r->cfg.xfrm = 0;
}

static inline void tu_rss_fini(struct tu_rss *r)
{
	rss_thash_fini(&r->key);
}

/* Build @b, dissect it as Ethernet, classify it. Returns the frame len. */
static inline size_t tu_classify(const struct tu_rss *r,
				 const struct net_build *b,
				 struct net_flow *f, struct rss_result *res)
{
	uint8_t buf[NET_BUILD_MAX];
	ssize_t len = net_build_frame(b, buf, sizeof(buf));

	assert_true(len > 0);
	net_dissect(buf, (size_t)len, NET_LINK_ETH, f);
	rss_classify(&r->cfg, f, res);
	return (size_t)len;
}

#endif
