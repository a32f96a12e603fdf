// SPDX-License-Identifier: MIT
/*
 * ethtool_rxclass.c - ethtool -n / -N (and -u / -U): rx-flow-hash.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"
#include "rss/rss_fields.h"

/* ---------------------------------------------------------------- */
/* -n / -N rx-flow-hash (ethtool.c do_grxclass, do_srxclass,         */
/* rxflow_str_to_type, parse_rxfhashopts, dump_rxfhash)              */
/* ---------------------------------------------------------------- */

/* ethtool's flow names for rx-flow-hash (GTP flow types not modelled). */
static u32 rxflow_type(const char *s)
{
	static const struct {
		const char *name;
		u32 type;
	} t[] = {
		{ "tcp4", TCP_V4_FLOW }, { "udp4", UDP_V4_FLOW },
		{ "ah4", AH_ESP_V4_FLOW }, { "esp4", AH_ESP_V4_FLOW },
		{ "sctp4", SCTP_V4_FLOW }, { "tcp6", TCP_V6_FLOW },
		{ "udp6", UDP_V6_FLOW }, { "ah6", AH_ESP_V6_FLOW },
		{ "esp6", AH_ESP_V6_FLOW }, { "sctp6", SCTP_V6_FLOW },
		{ "ether", ETHER_FLOW },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i].name))
			return t[i].type;
	return 0;
}

/*
 * ethtool's letters: rss_fields_parse() for m v t s d f n e r, plus 'l'
 * (RXH_IP6_FL), which rss_fields.h does not know.  ethtool ORs 'r' into
 * the other bits where rss_fields_parse() keeps RXH_DISCARD alone; either
 * way the request asks to discard the flow type.
 */
static int parse_rxfh_letters(const char *s, u32 *data)
{
	char rest[64];
	size_t n = 0;
	u32 v = 0;

	for (; *s; s++) {
		if (*s == 'l') {
			v |= RXH_IP6_FL;
			continue;
		}
		if (n + 1 >= sizeof(rest))
			return -EINVAL;
		rest[n++] = *s;
	}
	rest[n] = '\0';
	if (n) {
		uint32_t rxh;

		if (rss_fields_parse(rest, &rxh))
			return -EINVAL;
		v |= rxh;
	}
	*data = v;
	return 0;
}

static void dump_rxfhash(struct cmd *c, u32 flow, u32 data)
{
	static const struct {
		u32 bit;
		const char *text;
	} lines[] = {
		{ RXH_L2DA, "L2DA" },
		{ RXH_VLAN, "VLAN tag" },
		{ RXH_L3_PROTO, "L3 proto" },
		{ RXH_IP_SRC, "IP SA" },
		{ RXH_IP_DST, "IP DA" },
		{ RXH_L4_B_0_1, "L4 bytes 0 & 1 [TCP/UDP src port]" },
		{ RXH_L4_B_2_3, "L4 bytes 2 & 3 [TCP/UDP dst port]" },
		{ RXH_GTP_TEID, "GTP TEID" },
		{ RXH_IP6_FL, "IPv6 Flow Label" },
	};
	const char *name = "";
	size_t i;

	switch (flow) {
	case TCP_V4_FLOW: name = "TCP over IPV4 flows"; break;
	case UDP_V4_FLOW: name = "UDP over IPV4 flows"; break;
	case SCTP_V4_FLOW: name = "SCTP over IPV4 flows"; break;
	case AH_ESP_V4_FLOW:
	case AH_V4_FLOW:
	case ESP_V4_FLOW: name = "IPSEC AH/ESP over IPV4 flows"; break;
	case TCP_V6_FLOW: name = "TCP over IPV6 flows"; break;
	case UDP_V6_FLOW: name = "UDP over IPV6 flows"; break;
	case SCTP_V6_FLOW: name = "SCTP over IPV6 flows"; break;
	case AH_ESP_V6_FLOW:
	case AH_V6_FLOW:
	case ESP_V6_FLOW: name = "IPSEC AH/ESP over IPV6 flows"; break;
	default: break;
	}
	fputs(name, c->out);
	if (data & RXH_DISCARD) {
		fputs(" - All matching flows discarded on RX\n", c->out);
		return;
	}
	fputs(" use these fields for computing Hash flow key:\n", c->out);
	if (!data) {
		fputs("None\n", c->out);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (data & lines[i].bit)
			fprintf(c->out, "%s\n", lines[i].text);
	fputc('\n', c->out);
}

int ecmd_do_grxclass(struct cmd *c)
{
	struct ethtool_rxfh_fields f = { 0 };
	bool flow_rss = false;
	int ret;

	if (c->argc > 0 && !strcmp(c->argv[0], "rx-flow-hash")) {
		if (c->argc == 4) {
			long long ctx;

			if (strcmp(c->argv[2], "context") ||
			    !ecmd_parse_int_range(c->argv[3], 0, 0xffffffffLL, &ctx))
				return ecmd_bad_args(c);
			flow_rss = true;
			f.rss_context = (u32)ctx;
		} else if (c->argc != 2) {
			return ecmd_bad_args(c);
		}
		f.flow_type = rxflow_type(c->argv[1]);
		if (!f.flow_type)
			return ecmd_bad_args(c);
		if (c->check)
			return 0;	/* parsed: ethtool_cmd_check() */
		if (!ecmd_dev_matches(c)) {
			ecmd_pr_errno(c, "Cannot get RX network flow hashing options",
				      -ENODEV);
			return 1;
		}
		ret = ethtool_core_get_rxfh_fields(c->dev, &f);
		if (ret < 0) {
			ecmd_pr_errno(c, "Cannot get RX network flow hashing options",
				      ret);
			return 1;
		}
		if (flow_rss)
			fprintf(c->out, "For RSS context %u:\n", f.rss_context);
		dump_rxfhash(c, f.flow_type, f.data);
		return 0;
	}
	if (c->argc == 2 && !strcmp(c->argv[0], "rule")) {
		long long loc;

		if (!ecmd_parse_int_range(c->argv[1], 0, INT_MAX, &loc))
			return ecmd_bad_args(c);
		/* no classification rules are modelled (message from
		 * do_grxclass; rxclass.c's own line before it is omitted) */
		fputs("Cannot get RX classification rule\n", c->err);
		return 1;
	}
	if (c->argc == 0) {
		if (c->check)
			return 0;	/* parsed: ethtool_cmd_check() */
		if (!ecmd_dev_matches(c)) {
			ecmd_pr_errno(c, "Cannot get RX rings", -ENODEV);
			return 1;
		}
		ret = ethtool_core_get_rx_ring_count(c->dev);
		if (ret < 0) {
			ecmd_pr_errno(c, "Cannot get RX rings", ret);
			return 1;
		}
		fprintf(c->out, "%d RX rings available\n", ret);
		/* guessed: rxclass.c's text when the device has no
		 * classification rules interface */
		fputs("RX classification rule retrieval failed\n", c->err);
		return 1;
	}
	return ecmd_bad_args(c);
}

int ecmd_do_srxclass(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_rxfh_fields f = { 0 };
	int ret;

	if (c->argc < 2)
		return ecmd_bad_args(c);
	if (!strcmp(c->argv[0], "rx-flow-hash")) {
		if (c->argc == 5) {
			long long ctx;

			if (strcmp(c->argv[3], "context") ||
			    !ecmd_parse_int_range(c->argv[4], 0, 0xffffffffLL, &ctx))
				return ecmd_bad_args(c);
			f.rss_context = (u32)ctx;
		} else if (c->argc != 3) {
			return ecmd_bad_args(c);
		}
		f.flow_type = rxflow_type(c->argv[1]);
		if (!f.flow_type)
			return ecmd_bad_args(c);
		if (parse_rxfh_letters(c->argv[2], &f.data))
			return ecmd_bad_args(c);
		if (c->check)
			return 0;	/* parsed: ethtool_cmd_check() */
		if (!ecmd_dev_matches(c)) {
			ecmd_pr_errno(c, "Cannot change RX network flow hashing options",
				      -ENODEV);
			return 1;
		}
		ret = ethtool_core_set_rxfh_fields(c->dev, &f, &ea);
		if (ret < 0) {
			ecmd_pr_errno(c, "Cannot change RX network flow hashing options",
				      ret);
			return 1;
		}
		return 0;
	}
	if (!strcmp(c->argv[0], "flow-type")) {
		/* no ntuple filters are modelled (do_srxclass's final
		 * message; rxclass.c's lines before it are omitted) */
		fputs("Cannot insert classification rule\n", c->err);
		return 1;
	}
	if (!strcmp(c->argv[0], "delete")) {
		long long loc;

		if (!ecmd_parse_int_range(c->argv[1], 0, INT_MAX, &loc))
			return ecmd_bad_args(c);
		fputs("Cannot delete classification rule\n", c->err);
		return 1;
	}
	return ecmd_bad_args(c);
}
