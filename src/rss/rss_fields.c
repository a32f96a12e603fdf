/* SPDX-License-Identifier: MIT */
/* rss_fields.c - rx-flow-hash fields; see rss_fields.h. */
#include "rss/rss_fields.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rss/rss_hash.h"

static const char *const flow_names[RSS_FLOW__COUNT] = {
	[RSS_FLOW_TCP4] = "tcp4", [RSS_FLOW_UDP4] = "udp4",
	[RSS_FLOW_SCTP4] = "sctp4", [RSS_FLOW_AH4] = "ah4",
	[RSS_FLOW_ESP4] = "esp4", [RSS_FLOW_IP4] = "ip4",
	[RSS_FLOW_TCP6] = "tcp6", [RSS_FLOW_UDP6] = "udp6",
	[RSS_FLOW_SCTP6] = "sctp6", [RSS_FLOW_AH6] = "ah6",
	[RSS_FLOW_ESP6] = "esp6", [RSS_FLOW_IP6] = "ip6",
};

static const struct {
	char letter;
	uint32_t bit;
} letters[] = {
	{ 'm', RSS_RXH_L2DA }, { 'v', RSS_RXH_VLAN },
	{ 't', RSS_RXH_L3_PROTO }, { 's', RSS_RXH_IP_SRC },
	{ 'd', RSS_RXH_IP_DST }, { 'f', RSS_RXH_L4_B_0_1 },
	{ 'n', RSS_RXH_L4_B_2_3 }, { 'e', RSS_RXH_GTP_TEID },
};

int rss_flow_parse(const char *name, enum rss_flow *flow)
{
	unsigned i;

	for (i = 0; i < RSS_FLOW__COUNT; i++) {
		if (!strcmp(name, flow_names[i])) {
			*flow = (enum rss_flow)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *rss_flow_name(enum rss_flow flow)
{
	return (unsigned)flow < RSS_FLOW__COUNT ? flow_names[flow] : "?";
}

int rss_fields_parse(const char *s, uint32_t *rxh)
{
	uint32_t v = 0;
	unsigned i;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s == 'r') {
			v = RSS_RXH_DISCARD;
			break;
		}
		for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
			if (letters[i].letter == *s)
				break;
		if (i == sizeof(letters) / sizeof(letters[0]))
			return -EINVAL;
		v |= letters[i].bit;
	}
	*rxh = v;
	return 0;
}

char *rss_fields_format(uint32_t rxh, char *buf)
{
	unsigned i, n = 0;

	if (rxh & RSS_RXH_DISCARD) {
		strcpy(buf, "r");
		return buf;
	}
	for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (rxh & letters[i].bit)
			buf[n++] = letters[i].letter;
	buf[n] = '\0';
	return buf;
}

int rss_fields_check_xfrm(uint32_t rxh, uint32_t xfrm)
{
	if (!(xfrm & RSS_XFRM_SYM_XOR))
		return 0;
	if (rxh & ~(RSS_RXH_IP | RSS_RXH_L4))
		return -EINVAL;
	if (!!(rxh & RSS_RXH_IP_SRC) != !!(rxh & RSS_RXH_IP_DST))
		return -EINVAL;
	if (!!(rxh & RSS_RXH_L4_B_0_1) != !!(rxh & RSS_RXH_L4_B_2_3))
		return -EINVAL;
	return 0;
}

uint32_t rss_fields_get(uint32_t ht, enum rss_flow flow)
{
	switch (flow) {
	case RSS_FLOW_TCP4:
		return ht & RSS_HT_TCP_IPV4 ? RSS_RXH_IP | RSS_RXH_L4 :
		       ht & RSS_HT_IPV4 ? RSS_RXH_IP : 0;
	case RSS_FLOW_TCP6:
		return ht & (RSS_HT_TCP_IPV6 | RSS_HT_TCP_IPV6_EX) ?
		       RSS_RXH_IP | RSS_RXH_L4 :
		       ht & (RSS_HT_IPV6 | RSS_HT_IPV6_EX) ? RSS_RXH_IP : 0;
	case RSS_FLOW_UDP4:
		return ht & RSS_HT_UDP_IPV4 ? RSS_RXH_IP | RSS_RXH_L4 :
		       ht & RSS_HT_IPV4 ? RSS_RXH_IP : 0;
	case RSS_FLOW_UDP6:
		return ht & (RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX) ?
		       RSS_RXH_IP | RSS_RXH_L4 :
		       ht & (RSS_HT_IPV6 | RSS_HT_IPV6_EX) ? RSS_RXH_IP : 0;
	case RSS_FLOW_IP4:
		return ht & RSS_HT_IPV4 ? RSS_RXH_IP : 0;
	case RSS_FLOW_IP6:
		return ht & (RSS_HT_IPV6 | RSS_HT_IPV6_EX) ? RSS_RXH_IP : 0;
	default:
		return 0;
	}
}

int rss_fields_set(uint32_t *ht, enum rss_flow flow, uint32_t rxh)
{
	const uint32_t full = RSS_RXH_IP | RSS_RXH_L4;

	switch (flow) {
	case RSS_FLOW_TCP4:
	case RSS_FLOW_TCP6:
		return rxh == full ? 0 : -EINVAL;
	case RSS_FLOW_UDP4:
		if (rxh == full)
			*ht |= RSS_HT_UDP_IPV4;
		else if (rxh == RSS_RXH_IP)
			*ht &= ~RSS_HT_UDP_IPV4;
		else
			return -EINVAL;
		return 0;
	case RSS_FLOW_UDP6:
		if (rxh == full)
			*ht |= RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX;
		else if (rxh == RSS_RXH_IP)
			*ht &= ~(RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX);
		else
			return -EINVAL;
		return 0;
	case RSS_FLOW_IP4:
	case RSS_FLOW_IP6:
		return rxh == RSS_RXH_IP ? 0 : -EINVAL;
	default:
		return rxh == 0 ? 0 : -EINVAL;
	}
}

int rss_flow_hash_apply(uint32_t *ht, uint32_t xfrm, const char *arg)
{
	char flow_s[16], fields_s[32], extra[2];
	enum rss_flow flow;
	uint32_t rxh, tmp = *ht;

	if (sscanf(arg, "%15s %31s %1s", flow_s, fields_s, extra) != 2)
		return -EINVAL;
	if (rss_flow_parse(flow_s, &flow) || rss_fields_parse(fields_s, &rxh))
		return -EINVAL;
	if (rss_fields_check_xfrm(rxh, xfrm) || rss_fields_set(&tmp, flow, rxh))
		return -EINVAL;
	*ht = tmp;
	return 0;
}
