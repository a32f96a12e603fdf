// SPDX-License-Identifier: MIT
/*
 * ethtool_coalesce.c - ethtool -c / -C: interrupt coalescing, as ethtool
 * 6.1 prints and parses them (netlink/coalesce.c: coalesce_reply_cb,
 * scoalesce_params; later versions add tx-aggr-* and rx-cqe-* and align
 * the labels with tabs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"

/* ---------------------------------------------------------------- */
/* -c / -C (netlink/coalesce.c; kernel net/ethtool/coalesce.c)       */
/* ---------------------------------------------------------------- */

struct coal_show {
	const char *label;	/* NULL: blank line (show_cr) */
	u32 attr;
};

/* coalesce_reply_cb()'s rows: "label: value" */
static const struct coal_show coal_show[] = {
	{ "stats-block-usecs: ", ETHTOOL_A_COALESCE_STATS_BLOCK_USECS },
	{ "sample-interval: ", ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL },
	{ "pkt-rate-low: ", ETHTOOL_A_COALESCE_PKT_RATE_LOW },
	{ "pkt-rate-high: ", ETHTOOL_A_COALESCE_PKT_RATE_HIGH },
	{ NULL, 0 },
	{ "rx-usecs: ", ETHTOOL_A_COALESCE_RX_USECS },
	{ "rx-frames: ", ETHTOOL_A_COALESCE_RX_MAX_FRAMES },
	{ "rx-usecs-irq: ", ETHTOOL_A_COALESCE_RX_USECS_IRQ },
	{ "rx-frames-irq: ", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ },
	{ NULL, 0 },
	{ "tx-usecs: ", ETHTOOL_A_COALESCE_TX_USECS },
	{ "tx-frames: ", ETHTOOL_A_COALESCE_TX_MAX_FRAMES },
	{ "tx-usecs-irq: ", ETHTOOL_A_COALESCE_TX_USECS_IRQ },
	{ "tx-frames-irq: ", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ },
	{ NULL, 0 },
	{ "rx-usecs-low: ", ETHTOOL_A_COALESCE_RX_USECS_LOW },
	{ "rx-frame-low: ", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW },
	{ "tx-usecs-low: ", ETHTOOL_A_COALESCE_TX_USECS_LOW },
	{ "tx-frame-low: ", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW },
	{ NULL, 0 },
	{ "rx-usecs-high: ", ETHTOOL_A_COALESCE_RX_USECS_HIGH },
	{ "rx-frame-high: ", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH },
	{ "tx-usecs-high: ", ETHTOOL_A_COALESCE_TX_USECS_HIGH },
	{ "tx-frame-high: ", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH },
	{ NULL, 0 },
};

static u32 coal_value(u32 attr, const struct ethtool_coalesce *e,
		      const struct kernel_ethtool_coalesce *k)
{
	switch (attr) {
	case ETHTOOL_A_COALESCE_RX_USECS: return e->rx_coalesce_usecs;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES:
		return e->rx_max_coalesced_frames;
	case ETHTOOL_A_COALESCE_RX_USECS_IRQ: return e->rx_coalesce_usecs_irq;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ:
		return e->rx_max_coalesced_frames_irq;
	case ETHTOOL_A_COALESCE_TX_USECS: return e->tx_coalesce_usecs;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES:
		return e->tx_max_coalesced_frames;
	case ETHTOOL_A_COALESCE_TX_USECS_IRQ: return e->tx_coalesce_usecs_irq;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ:
		return e->tx_max_coalesced_frames_irq;
	case ETHTOOL_A_COALESCE_STATS_BLOCK_USECS:
		return e->stats_block_coalesce_usecs;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX:
		return e->use_adaptive_rx_coalesce;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX:
		return e->use_adaptive_tx_coalesce;
	case ETHTOOL_A_COALESCE_PKT_RATE_LOW: return e->pkt_rate_low;
	case ETHTOOL_A_COALESCE_RX_USECS_LOW: return e->rx_coalesce_usecs_low;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW:
		return e->rx_max_coalesced_frames_low;
	case ETHTOOL_A_COALESCE_TX_USECS_LOW: return e->tx_coalesce_usecs_low;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW:
		return e->tx_max_coalesced_frames_low;
	case ETHTOOL_A_COALESCE_PKT_RATE_HIGH: return e->pkt_rate_high;
	case ETHTOOL_A_COALESCE_RX_USECS_HIGH:
		return e->rx_coalesce_usecs_high;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH:
		return e->rx_max_coalesced_frames_high;
	case ETHTOOL_A_COALESCE_TX_USECS_HIGH:
		return e->tx_coalesce_usecs_high;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH:
		return e->tx_max_coalesced_frames_high;
	case ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL:
		return e->rate_sample_interval;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_TX: return k->use_cqe_mode_tx;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_RX: return k->use_cqe_mode_rx;
	default: return 0;
	}
}

static void coal_set_value(u32 attr, u32 v, struct ethtool_coalesce *e,
			   struct kernel_ethtool_coalesce *k)
{
	switch (attr) {
	case ETHTOOL_A_COALESCE_RX_USECS: e->rx_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES:
		e->rx_max_coalesced_frames = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_IRQ:
		e->rx_coalesce_usecs_irq = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ:
		e->rx_max_coalesced_frames_irq = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS: e->tx_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES:
		e->tx_max_coalesced_frames = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_IRQ:
		e->tx_coalesce_usecs_irq = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ:
		e->tx_max_coalesced_frames_irq = v; break;
	case ETHTOOL_A_COALESCE_STATS_BLOCK_USECS:
		e->stats_block_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX:
		e->use_adaptive_rx_coalesce = v; break;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX:
		e->use_adaptive_tx_coalesce = v; break;
	case ETHTOOL_A_COALESCE_PKT_RATE_LOW: e->pkt_rate_low = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_LOW:
		e->rx_coalesce_usecs_low = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW:
		e->rx_max_coalesced_frames_low = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_LOW:
		e->tx_coalesce_usecs_low = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW:
		e->tx_max_coalesced_frames_low = v; break;
	case ETHTOOL_A_COALESCE_PKT_RATE_HIGH: e->pkt_rate_high = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_HIGH:
		e->rx_coalesce_usecs_high = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH:
		e->rx_max_coalesced_frames_high = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_HIGH:
		e->tx_coalesce_usecs_high = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH:
		e->tx_max_coalesced_frames_high = v; break;
	case ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL:
		e->rate_sample_interval = v; break;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_TX:
		k->use_cqe_mode_tx = (u8)v; break;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_RX:
		k->use_cqe_mode_rx = (u8)v; break;
	default: break;
	}
}

static void show_coal_rows(struct cmd *c, const struct coal_show *rows,
			   size_t n, u32 supp, const struct ethtool_coalesce *e,
			   const struct kernel_ethtool_coalesce *k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i].label) {
			fputc('\n', c->out);
			continue;
		}
		ecmd_show_u32(c->out, rows[i].label,
			      supp & __ETHTOOL_COALESCE_BIT(rows[i].attr),
			      coal_value(rows[i].attr, e, k));
	}
}

int ecmd_do_gcoalesce(struct cmd *c)
{
	struct kernel_ethtool_coalesce k;
	struct ethtool_coalesce e;
	u32 supp;
	int ret;

	if (ecmd_no_params(c))
		return 1;
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_coalesce(c->dev, &e, &k);
	if (ret < 0) {
		ecmd_nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/* the kernel reports only the supported parameters; ethtool prints
	 * "n/a" for the others */
	supp = c->dev->ethtool_ops->supported_coalesce_params;
	fprintf(c->out, "Coalesce parameters for %s:\n", c->devname);
	fprintf(c->out, "Adaptive RX: %s  TX: %s\n",
		ecmd_on_off_na(supp & ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
			       e.use_adaptive_rx_coalesce),
		ecmd_on_off_na(supp & ETHTOOL_COALESCE_USE_ADAPTIVE_TX,
			       e.use_adaptive_tx_coalesce));
	show_coal_rows(c, coal_show, ARRAY_SIZE(coal_show), supp, &e, &k);
	fprintf(c->out, "CQE mode RX: %s  TX: %s\n",
		ecmd_on_off_na(supp & ETHTOOL_COALESCE_USE_CQE_RX, k.use_cqe_mode_rx),
		ecmd_on_off_na(supp & ETHTOOL_COALESCE_USE_CQE_TX,
			       k.use_cqe_mode_tx));
	fputc('\n', c->out);
	return 0;
}

/* netlink/coalesce.c scoalesce_params (6.1) */
static const struct nl_param scoalesce_params[] = {
	{ "adaptive-rx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, NLP_BOOL },
	{ "adaptive-tx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, NLP_BOOL },
	{ "sample-interval", ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL, NLP_U32 },
	{ "stats-block-usecs", ETHTOOL_A_COALESCE_STATS_BLOCK_USECS, NLP_U32 },
	{ "pkt-rate-low", ETHTOOL_A_COALESCE_PKT_RATE_LOW, NLP_U32 },
	{ "pkt-rate-high", ETHTOOL_A_COALESCE_PKT_RATE_HIGH, NLP_U32 },
	{ "rx-usecs", ETHTOOL_A_COALESCE_RX_USECS, NLP_U32 },
	{ "rx-frames", ETHTOOL_A_COALESCE_RX_MAX_FRAMES, NLP_U32 },
	{ "rx-usecs-irq", ETHTOOL_A_COALESCE_RX_USECS_IRQ, NLP_U32 },
	{ "rx-frames-irq", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ, NLP_U32 },
	{ "tx-usecs", ETHTOOL_A_COALESCE_TX_USECS, NLP_U32 },
	{ "tx-frames", ETHTOOL_A_COALESCE_TX_MAX_FRAMES, NLP_U32 },
	{ "tx-usecs-irq", ETHTOOL_A_COALESCE_TX_USECS_IRQ, NLP_U32 },
	{ "tx-frames-irq", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ, NLP_U32 },
	{ "rx-usecs-low", ETHTOOL_A_COALESCE_RX_USECS_LOW, NLP_U32 },
	{ "rx-frames-low", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW, NLP_U32 },
	{ "tx-usecs-low", ETHTOOL_A_COALESCE_TX_USECS_LOW, NLP_U32 },
	{ "tx-frames-low", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW, NLP_U32 },
	{ "rx-usecs-high", ETHTOOL_A_COALESCE_RX_USECS_HIGH, NLP_U32 },
	{ "rx-frames-high", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH, NLP_U32 },
	{ "tx-usecs-high", ETHTOOL_A_COALESCE_TX_USECS_HIGH, NLP_U32 },
	{ "tx-frames-high", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH, NLP_U32 },
	{ "cqe-mode-rx", ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, NLP_BOOL },
	{ "cqe-mode-tx", ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, NLP_BOOL },
};

int ecmd_do_scoalesce(struct cmd *c)
{
	struct kernel_ethtool_coalesce k = { 0 };
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_coalesce e = { 0 };
	struct nl_req r;
	u32 a;
	int ret;

	if (ecmd_nl_parse(c, scoalesce_params, ARRAY_SIZE(scoalesce_params), &r))
		return 1;
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_nl_no_device(c);
		return 1;
	}
	for (a = ETHTOOL_A_COALESCE_RX_USECS; a < __ETHTOOL_A_COALESCE_CNT; a++)
		if (r.attrs & ETHTOOL_ATTR(a))
			coal_set_value(a, r.val[a], &e, &k);
	ret = ethtool_core_set_coalesce(c->dev, &e, &k, r.attrs, &ea);
	if (ret < 0) {
		ecmd_nl_report(c, ret, &ea, &r);
		return 1;
	}
	return 0;
}
