/* SPDX-License-Identifier: MIT */
/*
 * rss_toeplitz.h - the Toeplitz hash used by RSS.
 *
 * Definition (Microsoft "RSS hashing functions"): result = 0; for each bit
 * of the input, most significant bit of input[0] first, if the bit is 1,
 * XOR into the result the 32-bit window of the key that starts at that bit
 * position (key bit 0 = MSB of key[0]); the window slides one bit per
 * input bit.  The key is used exactly as programmed into the NIC (e.g.
 * RTL8125-family RSS_KEY at 0x4600, key byte i at 0x4600 + i; vendor r8125/
 * r8127 driver, r8127_rss.c).  The initial value is 0; the output is not
 * inverted or byte-swapped.
 *
 * Inputs longer than key_len - 4 bytes (rule pinned here, and tested): the
 * key is zero-extended, i.e. window bits past the last key byte are 0, so
 * such input bits contribute only the key bits that exist.  This is what
 * FreeBSD's toeplitz_hash does; DPDK's GFNI matrices wrap the key instead.
 * No real NIC input reaches it: the longest RSS input (IPv6 4-tuple, 36
 * bytes) equals 40 - 4.
 *
 * Two implementations that must agree bit for bit:
 *  - rss_toeplitz_ref(): bit-serial, straight from the definition;
 *  - rss_thash_lut(): per-key byte tables (one 256-entry table of 32-bit
 *    partial hashes per input byte position, built once per key), so a
 *    hash is one load and one XOR per input byte.
 */
#ifndef RXSCALE_RSS_TOEPLITZ_H
#define RXSCALE_RSS_TOEPLITZ_H

#include <stddef.h>
#include <stdint.h>

#define RSS_KEY_MIN	4	/* shortest key that fills one window */
#define RSS_KEY_MAX	256	/* longest key a context accepts, bytes */

/**
 * rss_toeplitz_ref() - bit-serial reference Toeplitz hash.
 * @key:     key bytes; may be NULL only if @key_len is 0
 * @key_len: key length in bytes (any; zero-extended as described above)
 * @data:    input bytes in network order; may be NULL only if @len is 0
 * @len:     input length in bytes (any)
 *
 * Return: the 32-bit hash.
 */
uint32_t rss_toeplitz_ref(const uint8_t *key, size_t key_len,
			  const uint8_t *data, size_t len);

/* A key prepared for the table-driven fast path. */
struct rss_thash {
	size_t key_len;			/* bytes */
	uint8_t key[RSS_KEY_MAX];
	uint32_t (*tbl)[256];		/* [key_len][256] partial hashes */
};

/**
 * rss_thash_init() - build the byte tables for @key.
 * @t:       context to fill; free with rss_thash_fini()
 * @key:     key bytes, copied
 * @key_len: RSS_KEY_MIN .. RSS_KEY_MAX bytes (40 for the RTL8125 family,
 *           52 for later NICs)
 *
 * Memory: key_len * 1 KiB.
 * Return: 0, -EINVAL for a key length out of range, -ENOMEM.
 */
int rss_thash_init(struct rss_thash *t, const uint8_t *key, size_t key_len);

/** rss_thash_fini() - free the tables; @t may then be initialised again. */
void rss_thash_fini(struct rss_thash *t);

/**
 * rss_thash_lut() - Toeplitz hash through the byte tables.
 * @t:    an initialised context
 * @data: input bytes in network order
 * @len:  any length; bytes at positions >= key_len contribute nothing
 *        (zero-extended key), exactly as rss_toeplitz_ref()
 *
 * Return: the same value as rss_toeplitz_ref(t->key, t->key_len, data, len).
 */
static inline uint32_t rss_thash_lut(const struct rss_thash *t,
				     const uint8_t *data, size_t len)
{
	uint32_t h0 = 0, h1 = 0, h2 = 0, h3 = 0;
	size_t i = 0, n = len < t->key_len ? len : t->key_len;

	/* four independent XOR chains: the loads, not the XORs, set the pace */
	for (; i + 4 <= n; i += 4) {
		h0 ^= t->tbl[i][data[i]];
		h1 ^= t->tbl[i + 1][data[i + 1]];
		h2 ^= t->tbl[i + 2][data[i + 2]];
		h3 ^= t->tbl[i + 3][data[i + 3]];
	}
	for (; i < n; i++)
		h0 ^= t->tbl[i][data[i]];
	return (h0 ^ h1) ^ (h2 ^ h3);
}

#endif /* RXSCALE_RSS_TOEPLITZ_H */
