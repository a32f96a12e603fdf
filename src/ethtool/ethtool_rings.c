// SPDX-License-Identifier: MIT
/*
 * ethtool_rings.c - ethtool -g / -G: ring sizes, as ethtool 6.1 prints
 * them (netlink/rings.c rings_reply_cb; later versions add RX Push, the
 * push buffer length and the HDS threshold, and widen the labels).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"

/* ---------------------------------------------------------------- */
/* -g / -G (netlink/rings.c; kernel net/ethtool/rings.c)             */
/* ---------------------------------------------------------------- */

int ecmd_do_gring(struct cmd *c)
{
	struct kernel_ethtool_ringparam k;
	struct ethtool_ringparam r;
	const char *hds;
	int ret;

	if (ecmd_no_params(c))
		return 1;
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_ringparam(c->dev, &r, &k);
	if (ret < 0) {
		ecmd_nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/*
	 * What the kernel sends (rings_fill_reply): each max/current pair
	 * when the max is non-zero; rx-buf-len, cqe-size, tcp-data-split
	 * when non-zero; tx-push always.  What 6.1 prints of it:
	 */
	fprintf(c->out, "Ring parameters for %s:\n", c->devname);
	fputs("Pre-set maximums:\n", c->out);
	ecmd_show_u32(c->out, "RX:\t\t", r.rx_max_pending, r.rx_max_pending);
	ecmd_show_u32(c->out, "RX Mini:\t", r.rx_mini_max_pending, r.rx_mini_max_pending);
	ecmd_show_u32(c->out, "RX Jumbo:\t", r.rx_jumbo_max_pending, r.rx_jumbo_max_pending);
	ecmd_show_u32(c->out, "TX:\t\t", r.tx_max_pending, r.tx_max_pending);
	fputs("Current hardware settings:\n", c->out);
	ecmd_show_u32(c->out, "RX:\t\t", r.rx_max_pending, r.rx_pending);
	ecmd_show_u32(c->out, "RX Mini:\t", r.rx_mini_max_pending, r.rx_mini_pending);
	ecmd_show_u32(c->out, "RX Jumbo:\t", r.rx_jumbo_max_pending, r.rx_jumbo_pending);
	ecmd_show_u32(c->out, "TX:\t\t", r.tx_max_pending, r.tx_pending);
	ecmd_show_u32(c->out, "RX Buf Len:\t\t", k.rx_buf_len, k.rx_buf_len);
	ecmd_show_u32(c->out, "CQE Size:\t\t", k.cqe_size, k.cqe_size);
	fprintf(c->out, "TX Push:\t%s\n", k.tx_push ? "on" : "off");
	switch (k.tcp_data_split) {
	case 0: hds = "n/a"; break;
	case 1: hds = "off"; break;
	case 2: hds = "on"; break;
	default: hds = NULL; break;
	}
	if (hds)
		fprintf(c->out, "TCP data split:\t%s\n", hds);
	else
		fprintf(c->out, "TCP data split:\tunknown(%d)\n", k.tcp_data_split);
	return 0;
}

/* netlink/rings.c sring_params, the ring sizes (rxscale subset: 6.1's
 * rx-buf-len, cqe-size and tx-push are not modelled and are refused as
 * unknown parameters). */
static const struct nl_param sring_params[] = {
	{ "rx", ETHTOOL_A_RINGS_RX, NLP_U32 },
	{ "rx-mini", ETHTOOL_A_RINGS_RX_MINI, NLP_U32 },
	{ "rx-jumbo", ETHTOOL_A_RINGS_RX_JUMBO, NLP_U32 },
	{ "tx", ETHTOOL_A_RINGS_TX, NLP_U32 },
};

int ecmd_do_sring(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_ringparam ring = { 0 };
	struct nl_req r;
	int ret;

	if (ecmd_nl_parse(c, sring_params, ARRAY_SIZE(sring_params), &r))
		return 1;
	/* nl_sring exits 81 when the kernel refuses the request */
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 81;
	}
	ring.rx_pending = r.val[ETHTOOL_A_RINGS_RX];
	ring.rx_mini_pending = r.val[ETHTOOL_A_RINGS_RX_MINI];
	ring.rx_jumbo_pending = r.val[ETHTOOL_A_RINGS_RX_JUMBO];
	ring.tx_pending = r.val[ETHTOOL_A_RINGS_TX];
	ret = ethtool_core_set_ringparam(c->dev, &ring, r.attrs, &ea);
	if (ret < 0) {
		ecmd_nl_report(c, ret, &ea, &r);
		return 81;
	}
	return 0;
}
