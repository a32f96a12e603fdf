// SPDX-License-Identifier: MIT
/*
 * ethtool_channels.c - ethtool -l / -L.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"

/* ---------------------------------------------------------------- */
/* -l / -L (netlink/channels.c; kernel net/ethtool/channels.c)       */
/* ---------------------------------------------------------------- */

int ecmd_do_gchannels(struct cmd *c)
{
	struct ethtool_channels ch;
	int ret;

	/* ethtool's nl_gchannels takes no parameters (rxscale applies the
	 * same "unexpected parameter" check as -c/-g: guessed) */
	if (ecmd_no_params(c))
		return 1;
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_channels(c->dev, &ch);
	if (ret) {
		ecmd_nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/* the kernel sends max and count only when max is non-zero */
	fprintf(c->out, "Channel parameters for %s:\n", c->devname);
	fputs("Pre-set maximums:\n", c->out);
	ecmd_show_u32(c->out, "RX:\t\t", ch.max_rx, ch.max_rx);
	ecmd_show_u32(c->out, "TX:\t\t", ch.max_tx, ch.max_tx);
	ecmd_show_u32(c->out, "Other:\t\t", ch.max_other, ch.max_other);
	ecmd_show_u32(c->out, "Combined:\t", ch.max_combined, ch.max_combined);
	fputs("Current hardware settings:\n", c->out);
	ecmd_show_u32(c->out, "RX:\t\t", ch.max_rx, ch.rx_count);
	ecmd_show_u32(c->out, "TX:\t\t", ch.max_tx, ch.tx_count);
	ecmd_show_u32(c->out, "Other:\t\t", ch.max_other, ch.other_count);
	ecmd_show_u32(c->out, "Combined:\t", ch.max_combined, ch.combined_count);
	return 0;
}

static const struct nl_param schannels_params[] = {
	{ "rx", ETHTOOL_A_CHANNELS_RX_COUNT, NLP_U32 },
	{ "tx", ETHTOOL_A_CHANNELS_TX_COUNT, NLP_U32 },
	{ "other", ETHTOOL_A_CHANNELS_OTHER_COUNT, NLP_U32 },
	{ "combined", ETHTOOL_A_CHANNELS_COMBINED_COUNT, NLP_U32 },
};

int ecmd_do_schannels(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_channels ch = { 0 };
	struct nl_req r;
	int ret;

	if (ecmd_nl_parse(c, schannels_params, ARRAY_SIZE(schannels_params), &r))
		return 1;
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 1;
	}
	ch.rx_count = r.val[ETHTOOL_A_CHANNELS_RX_COUNT];
	ch.tx_count = r.val[ETHTOOL_A_CHANNELS_TX_COUNT];
	ch.other_count = r.val[ETHTOOL_A_CHANNELS_OTHER_COUNT];
	ch.combined_count = r.val[ETHTOOL_A_CHANNELS_COMBINED_COUNT];
	ret = ethtool_core_set_channels(c->dev, &ch, r.attrs, &ea);
	if (ret < 0) {
		ecmd_nl_report(c, ret, &ea, &r);
		return 1;
	}
	return 0;
}
