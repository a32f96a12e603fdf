/* SPDX-License-Identifier: MIT */
/* rss_toeplitz.c - reference and table-driven Toeplitz; see the header. */
#include "rss/rss_toeplitz.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Key byte i, or 0 past the end (the zero-extension rule). */
static inline uint32_t key_byte(const uint8_t *key, size_t key_len, size_t i)
{
	return i < key_len ? key[i] : 0;
}

/* The 32-bit key window starting at bit 8*byte of the key. */
static uint32_t key_window(const uint8_t *key, size_t key_len, size_t byte)
{
	return key_byte(key, key_len, byte) << 24 |
	       key_byte(key, key_len, byte + 1) << 16 |
	       key_byte(key, key_len, byte + 2) << 8 |
	       key_byte(key, key_len, byte + 3);
}

uint32_t rss_toeplitz_ref(const uint8_t *key, size_t key_len,
			  const uint8_t *data, size_t len)
{
	uint32_t result = 0, window;
	size_t i;
	int b;

	window = key_window(key, key_len, 0);
	for (i = 0; i < len; i++) {
		/* the next key byte, shifted in one bit per input bit */
		uint32_t next = key_byte(key, key_len, i + 4);

		for (b = 7; b >= 0; b--) {
			if (data[i] & (1u << b))
				result ^= window;
			window = window << 1 | ((next >> b) & 1);
		}
	}
	return result;
}

int rss_thash_init(struct rss_thash *t, const uint8_t *key, size_t key_len)
{
	size_t i;
	unsigned v, b;

	memset(t, 0, sizeof(*t));
	if (key_len < RSS_KEY_MIN || key_len > RSS_KEY_MAX)
		return -EINVAL;
	t->tbl = calloc(key_len, sizeof(*t->tbl));
	if (!t->tbl)
		return -ENOMEM;
	memcpy(t->key, key, key_len);
	t->key_len = key_len;

	for (i = 0; i < key_len; i++) {
		/* 40 key bits cover the 8 windows this input byte can select */
		uint64_t k40 = (uint64_t)key_window(key, key_len, i) << 8 |
			       key_byte(key, key_len, i + 4);
		uint32_t bit_win[8];

		for (b = 0; b < 8; b++)		/* b = 0 is the byte's MSB */
			bit_win[b] = (uint32_t)(k40 >> (8 - b));
		for (v = 0; v < 256; v++) {
			uint32_t h = 0;

			for (b = 0; b < 8; b++)
				if (v & (0x80u >> b))
					h ^= bit_win[b];
			t->tbl[i][v] = h;
		}
	}
	/* GFNI matrix of key byte m: row r (byte r of the qword) holds key
	 * bits 8m + r .. 8m + r + 7, most significant first */
	for (i = 0; i < key_len && i < RSS_GFNI_QWORDS; i++) {
		uint32_t k16 = key_byte(key, key_len, i) << 8 |
			       key_byte(key, key_len, i + 1);

		for (b = 0; b < 8; b++)
			t->gfni[i] |= (uint64_t)(uint8_t)(k16 >> (8 - b)) << (8 * b);
	}
	t->use_gfni = rss_thash_gfni_cpu();
	return 0;
}

void rss_thash_fini(struct rss_thash *t)
{
	free(t->tbl);
	memset(t, 0, sizeof(*t));
}
