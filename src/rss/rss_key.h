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

/* rss_key_parse() @flags: ethtool -X hkey's form (ethtool.c
 * convert_string_to_hashkey): a ':' after every byte but the last, one
 * after the last tolerated.  Without it: plain ("6d5a56...") or with a
 * ':' between every two bytes ("6d:5a:56:..."). */
#define RSS_KEY_ETHTOOL	1u

/**
 * rss_key_parse() - parse a key for a device whose key is exactly @size
 * bytes, written as hex, two digits per byte: the one rule ethtool -X
 * hkey and rxscale hash --key apply.
 * @s:     the text
 * @flags: 0 or RSS_KEY_ETHTOOL (the form)
 * @key:   output, @size bytes
 * @size:  the device's key size
 * @len:   output, the bytes read (@size + 1 when there are more)
 * Return: 0; -EINVAL for an empty key, odd digits, a non-hex character or
 * misplaced colons; -E2BIG for more than @size bytes (found before the
 * rest is checked, as ethtool does); -ERANGE for fewer.
 */
int rss_key_parse(const char *s, unsigned flags, uint8_t *key, size_t size, size_t *len);

/**
 * rss_key_format() - "6d:5a:...", as ethtool -x prints the key.
 * @buf: at least 3 * @len bytes.  Return: @buf.
 */
char *rss_key_format(const uint8_t *key, size_t len, char *buf);

#endif /* RXSCALE_RSS_KEY_H */
