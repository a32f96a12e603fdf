/* SPDX-License-Identifier: MIT */
/* rss_key.c - see rss_key.h. */
#include "rss/rss_key.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const uint8_t rss_key_microsoft[RSS_KEY_LEN_RTL8125] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int rss_key_parse(const char *s, unsigned flags, uint8_t *key, size_t size, size_t *len)
{
	bool colons = (flags & RSS_KEY_ETHTOOL) || strchr(s, ':') != NULL;
	size_t n = 0;

	*len = 0;
	do {
		int hi, lo;

		if (n == size) {
			*len = size + 1;
			return -E2BIG;
		}
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0)
			return -EINVAL;
		key[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (colons && *s) {
			if (*s != ':')
				return -EINVAL;
			s++;
			/* ethtool takes a ':' after the last byte; ours does not */
			if (!*s && !(flags & RSS_KEY_ETHTOOL))
				return -EINVAL;
		}
	} while (*s);
	*len = n;
	return n == size ? 0 : -ERANGE;
}

char *rss_key_format(const uint8_t *key, size_t len, char *buf)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < len; i++)
		sprintf(buf + 3 * i, i + 1 < len ? "%02x:" : "%02x", key[i]);
	return buf;
}
