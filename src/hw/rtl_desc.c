// SPDX-License-Identifier: MIT
/*
 * rtl_desc.c - one row per descriptor type (rtl_desc.h).  The offsets and
 * sizes are taken from the structs, whose layout rtl_desc.h pins with
 * static_asserts, so a row cannot disagree with its struct.
 */
#include "hw/rtl_desc.h"

#define RX_ROW(st)							\
	.size = sizeof(struct st),					\
	.opts1_off = offsetof(struct st, opts1),			\
	.opts2_off = offsetof(struct st, opts2),			\
	.addr_off = offsetof(struct st, addr)

const struct rtl_rx_desc_fmt rtl_rx_desc_fmts[RTL_RX_DESC_FMT_COUNT] = {
	[RTL_RX_DESC_FMT_V1] = {
		.type = 1, RX_ROW(rtl_rx_desc),
		.hash_off = -1, .hash_type_off = -1,
		.fs = RTL_RX1_FS, .ls = RTL_RX1_LS,
		.err_mask = RTL_RX1_RES | RTL_RX1_RUNT | RTL_RX1_CRC |
			    RTL_RX1_RWT,
		.csum_off = offsetof(struct rtl_rx_desc, opts1),
		.tcpt = RTL_RX1_TCPT, .udpt = RTL_RX1_UDPT, .ipf = RTL_RX1_IPF,
		.tcpf = RTL_RX1_TCPF, .udpf = RTL_RX1_UDPF,
		/* RxConfig bit 24 clear, CFG_D8 bit 1 clear */
		.rxcfg_mask = RTL_RXCFG_DESC_V3, .rxcfg_val = 0,
		.cfg_d8_mask = RTL_CFG_D8_DESC_V4, .cfg_d8_val = 0,
	},
	[RTL_RX_DESC_FMT_V3] = {
		.type = 3, RX_ROW(rtl_rx_desc_v3),
		.hash_off = offsetof(struct rtl_rx_desc_v3, rss_result),
		.hash_type_off = offsetof(struct rtl_rx_desc_v3, header_info),
		.hash_type_size = sizeof(((struct rtl_rx_desc_v3 *)0)->header_info),
		.fs = RTL_RX3_FS, .ls = RTL_RX3_LS,
		.err_mask = RTL_RX3_RES | RTL_RX3_RUNT | RTL_RX3_CRC |
			    RTL_RX3_RWT,
		.csum_off = offsetof(struct rtl_rx_desc_v3, opts2),
		.tcpt = RTL_RX3_TCPT, .udpt = RTL_RX3_UDPT, .ipf = RTL_RX3_IPF,
		.tcpf = RTL_RX3_TCPF, .udpf = RTL_RX3_UDPF,
		.ht_ipv4 = RTL_RX3_HI_IPV4, .ht_ipv6 = RTL_RX3_HI_IPV6,
		.ht_tcp = RTL_RX3_HI_TCP, .ht_udp = RTL_RX3_HI_UDP,
		/* RxConfig bit 24 set; CFG_D8 does not matter */
		.rxcfg_mask = RTL_RXCFG_DESC_V3, .rxcfg_val = RTL_RXCFG_DESC_V3,
		.cfg_d8_mask = 0, .cfg_d8_val = 0,
	},
	[RTL_RX_DESC_FMT_V4] = {
		.type = 4, RX_ROW(rtl_rx_desc_v4),
		.addr_overwritten = true,
		.hash_off = offsetof(struct rtl_rx_desc_v4, rss_result),
		.hash_type_off = offsetof(struct rtl_rx_desc_v4, rss_info),
		.hash_type_size = sizeof(((struct rtl_rx_desc_v4 *)0)->rss_info),
		.fs = RTL_RX4_FS, .ls = RTL_RX4_LS,
		.err_mask = RTL_RX4_RES | RTL_RX4_RUNT | RTL_RX4_CRC,
		.csum_off = offsetof(struct rtl_rx_desc_v4, opts1),
		.tcpt = RTL_RX4_TCPT, .udpt = RTL_RX4_UDPT, .ipf = RTL_RX4_IPF,
		.tcpf = RTL_RX4_TCPF, .udpf = RTL_RX4_UDPF,
		.ht_ipv4 = RTL_RX4_RI_IPV4, .ht_ipv6 = RTL_RX4_RI_IPV6,
		.ht_tcp = RTL_RX4_RI_TCP, .ht_udp = RTL_RX4_RI_UDP,
		/* RxConfig bit 24 clear, CFG_D8 bit 1 set */
		.rxcfg_mask = RTL_RXCFG_DESC_V3, .rxcfg_val = 0,
		.cfg_d8_mask = RTL_CFG_D8_DESC_V4, .cfg_d8_val = RTL_CFG_D8_DESC_V4,
	},
};

const struct rtl_rx_desc_fmt *rtl_rx_desc_fmt_decode(uint32_t rxconfig,
						     uint8_t cfg_d8)
{
	for (unsigned i = 0; i < RTL_RX_DESC_FMT_COUNT; i++) {
		const struct rtl_rx_desc_fmt *f = &rtl_rx_desc_fmts[i];

		if ((rxconfig & f->rxcfg_mask) == f->rxcfg_val &&
		    (cfg_d8 & f->cfg_d8_mask) == f->cfg_d8_val)
			return f;
	}
	return rtl_rx_desc_fmt_basic;	/* unreachable: the rows cover all */
}

const struct rtl_rx_desc_fmt *rtl_rx_desc_fmt_type(unsigned type)
{
	for (unsigned i = 0; i < RTL_RX_DESC_FMT_COUNT; i++)
		if (rtl_rx_desc_fmts[i].type == type)
			return &rtl_rx_desc_fmts[i];
	return NULL;
}

const struct rtl_tx_desc_fmt rtl_tx_desc_fmts[RTL_TX_DESC_FMT_COUNT] = {
	[RTL_TX_DESC_FMT_16] = {
		.size = sizeof(struct rtl_tx_desc),
		.opts1_off = offsetof(struct rtl_tx_desc, opts1),
		.opts2_off = offsetof(struct rtl_tx_desc, opts2),
		.addr_off = offsetof(struct rtl_tx_desc, addr),
		.ocp_mask = RTL_OCP_TX_DESC_32B, .ocp_val = 0,
	},
	[RTL_TX_DESC_FMT_32] = {
		.size = sizeof(struct rtl_tx_desc32),
		.opts1_off = offsetof(struct rtl_tx_desc32, opts1),
		.opts2_off = offsetof(struct rtl_tx_desc32, opts2),
		.addr_off = offsetof(struct rtl_tx_desc32, addr),
		.ocp_mask = RTL_OCP_TX_DESC_32B, .ocp_val = RTL_OCP_TX_DESC_32B,
	},
};

const struct rtl_tx_desc_fmt *rtl_tx_desc_fmt_decode(uint16_t ocp_fmt)
{
	for (unsigned i = 0; i < RTL_TX_DESC_FMT_COUNT; i++) {
		const struct rtl_tx_desc_fmt *f = &rtl_tx_desc_fmts[i];

		if ((ocp_fmt & f->ocp_mask) == f->ocp_val)
			return f;
	}
	return &rtl_tx_desc_fmts[RTL_TX_DESC_FMT_16];	/* unreachable */
}
