/* SPDX-License-Identifier: MIT */
/* rss_key.h - RSS keys: the verification key, parsing and printing. */
#ifndef RXSCALE_RSS_KEY_H
#define RXSCALE_RSS_KEY_H

#include <stddef.h>
#include <stdint.h>

#define RSS_KEY_LEN_RTL8125	40	/* RTL8127_RSS_KEY_SIZE, r8127_rss.h */

/* The Microsoft RSS verification key (40 bytes).  Source: Microsoft
 * "Verifying the RSS hash calculation"; the same bytes are DPDK
 * app/test/test_thash.c default_rss_key. */
extern const uint8_t rss_key_microsoft[RSS_KEY_LEN_RTL8125];

/**
 * rss_key_parse() - parse a key written as hex, either plain ("6d5a56...")
 * or as ethtool prints it ("6d:5a:56:..."): two hex digits per byte.
 * @s:   the text
 * @key: output, @cap bytes
 * @len: output, number of key bytes
 * Return: 0, -EINVAL for odd digits, a non-hex character or misplaced
 * colons, -E2BIG for more than @cap bytes, -ENODATA for an empty key.
 */
int rss_key_parse(const char *s, uint8_t *key, size_t cap, size_t *len);

/**
 * rss_key_format() - "6d:5a:...", as ethtool -x prints the key.
 * @buf: at least 3 * @len bytes.  Return: @buf.
 */
char *rss_key_format(const uint8_t *key, size_t len, char *buf);

#endif /* RXSCALE_RSS_KEY_H */
