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
 * Three implementations that must agree bit for bit:
 *  - rss_toeplitz_ref(): bit-serial, straight from the definition;
 *  - rss_thash_lut(): per-key byte tables (one 256-entry table of 32-bit
 *    partial hashes per input byte position, built once per key), so a
 *    hash is one load and one XOR per input byte;
 *  - rss_thash_gfni(): one 8x8 bit matrix per key byte applied with GFNI
 *    affine transforms on AVX-512 (rss_toeplitz_gfni.c), 8 input bytes
 *    per transform; only on CPUs that have GFNI, AVX512BW and AVX512VBMI.
 * rss_thash() calls the fastest one the CPU has (chosen at init) for the
 * input's length: the byte tables below RSS_GFNI_MIN_LEN bytes, where
 * their few loads beat a transform and the fold (bench-thash on an AMD
 * EPYC with GFNI: 8 B 1.35 ns table vs 2.40 ns GFNI, 12 B 1.95 vs 2.38,
 * 36 B 5.58 vs 3.02).
 */
#ifndef RXSCALE_RSS_TOEPLITZ_H
#define RXSCALE_RSS_TOEPLITZ_H

#include <stdbool.h>
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

/* Key bytes that have a GFNI matrix: inputs up to 61 bytes. */
#define RSS_GFNI_QWORDS	64
/* Shortest input rss_thash() gives the GFNI path. */
#define RSS_GFNI_MIN_LEN 16

/* A key prepared for the fast paths. */
struct rss_thash {
	size_t key_len;			/* bytes */
	uint8_t key[RSS_KEY_MAX];
	uint32_t (*tbl)[256];		/* [key_len][256] partial hashes */
	/* GFNI matrix of key byte m (bits 8m .. 8m+14), 0 past the key */
	uint64_t gfni[RSS_GFNI_QWORDS];
	bool use_gfni;			/* the CPU has the GFNI path */
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

/** rss_thash_gfni_cpu() - true when this CPU (and OS) can run
 * rss_thash_gfni(): GFNI, AVX512F, AVX512BW and AVX512VBMI. */
bool rss_thash_gfni_cpu(void);

/**
 * rss_thash_gfni() - Toeplitz hash with GFNI affine transforms.
 * Call only where rss_thash_gfni_cpu() is true.  Same arguments and
 * result as rss_thash_lut() (it falls back to it for inputs that reach
 * past qword RSS_GFNI_QWORDS of a key longer than that).
 */
uint32_t rss_thash_gfni(const struct rss_thash *t, const uint8_t *data,
			size_t len);

/** rss_thash() - the Toeplitz hash by the fastest path this CPU has
 * for @len bytes. */
static inline uint32_t rss_thash(const struct rss_thash *t,
				 const uint8_t *data, size_t len)
{
	return t->use_gfni && len >= RSS_GFNI_MIN_LEN ?
	       rss_thash_gfni(t, data, len) : rss_thash_lut(t, data, len);
}

#endif /* RXSCALE_RSS_TOEPLITZ_H */
