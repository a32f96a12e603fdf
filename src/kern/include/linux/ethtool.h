/* SPDX-License-Identifier: MIT */
/*
 * ethtool.h - the ethtool driver interface of rxscale's kernel-like API:
 * the subset of Linux's include/linux/ethtool.h and uapi/linux/ethtool.h
 * that an r8169-style driver fills in (struct ethtool_ops and its
 * parameter structs), plus the ethtool core (ethtool_core.c): the checks
 * the kernel makes before it calls a driver.
 *
 * Member names, field order and constant values follow Linux 6.17/6.18
 * (net-next): uapi numbers (flow types, RXH_*, RXH_XFRM_*, ETH_RSS_HASH_*,
 * ETH_RXFH_INDIR_NO_CHANGE, ETH_SS_STATS, ETH_GSTRING_LEN) are ABI and
 * copied as numbers; the in-kernel structs keep the kernel's member names
 * so a driver written against Linux reads the same here.  Only what the
 * project uses is declared; everything here is written for rxscale.
 *
 * Errors are the kernel's negative errno values.  Where the kernel leaves
 * a message for the user (netlink extack), the core leaves the same text
 * in struct netlink_ext_ack.
 */
#ifndef RXSCALE_KERN_ETHTOOL_H
#define RXSCALE_KERN_ETHTOOL_H

#include <stdio.h>

#include <linux/types.h>

struct net_device;

/* ------------------------------------------------------------------ */
/* netlink extended ack (include/linux/netlink.h, subset)              */
/* ------------------------------------------------------------------ */

/* Size of the buffer for formatted messages (kernel NETLINK_MAX_FMTMSG_LEN). */
#define NETLINK_MAX_FMTMSG_LEN	80

/**
 * struct netlink_ext_ack - the message a failed request leaves the user.
 * @_msg:      the message text (static, or @_msg_buf), NULL if none
 * @bad_attr:  rxscale: the netlink attribute type (ETHTOOL_A_*) the message
 *             points at, 0 if none.  Linux keeps a pointer to the nlattr;
 *             ethtool prints its byte offset in the request, which
 *             ethtool_cmd.c recomputes from the command line.
 * @_msg_buf:  storage for NL_SET_ERR_MSG_FMT()
 */
struct netlink_ext_ack {
	const char *_msg;
	u32 bad_attr;
	char _msg_buf[NETLINK_MAX_FMTMSG_LEN];
};

#define NL_SET_ERR_MSG(extack, msg) do {			\
	struct netlink_ext_ack *__ea = (extack);		\
	if (__ea)						\
		__ea->_msg = (msg);				\
} while (0)

/* Message pointing at netlink attribute type @attr (0: none). */
#define NL_SET_ERR_MSG_ATTR(extack, attr, msg) do {		\
	struct netlink_ext_ack *__ea = (extack);		\
	if (__ea) {						\
		__ea->_msg = (msg);				\
		__ea->bad_attr = (attr);			\
	}							\
} while (0)

#define NL_SET_ERR_MSG_FMT(extack, ...) do {			\
	struct netlink_ext_ack *__ea = (extack);		\
	if (__ea) {						\
		snprintf(__ea->_msg_buf, sizeof(__ea->_msg_buf),	\
			 __VA_ARGS__);				\
		__ea->_msg = __ea->_msg_buf;			\
	}							\
} while (0)

/* ------------------------------------------------------------------ */
/* uapi constants (include/uapi/linux/ethtool.h)                       */
/* ------------------------------------------------------------------ */

#define ETH_GSTRING_LEN		32

/* String sets (enum ethtool_stringset, subset). */
#define ETH_SS_TEST		0
#define ETH_SS_STATS		1
#define ETH_SS_PRIV_FLAGS	2

#define ETHTOOL_GDRVINFO	0x00000003	/* the ioctl command of -i */

/* Flow types for rx-flow-hash (ethtool_rxnfc.flow_type). */
#define TCP_V4_FLOW		0x01
#define UDP_V4_FLOW		0x02
#define SCTP_V4_FLOW		0x03
#define AH_ESP_V4_FLOW		0x04
#define TCP_V6_FLOW		0x05
#define UDP_V6_FLOW		0x06
#define SCTP_V6_FLOW		0x07
#define AH_ESP_V6_FLOW		0x08
#define AH_V4_FLOW		0x09
#define ESP_V4_FLOW		0x0a
#define AH_V6_FLOW		0x0b
#define ESP_V6_FLOW		0x0c
#define IPV4_USER_FLOW		0x0d
#define IPV6_USER_FLOW		0x0e
#define IPV4_FLOW		0x10
#define IPV6_FLOW		0x11
#define ETHER_FLOW		0x12
#define FLOW_RSS		0x20000000

/* Header fields hashed (ethtool_rxfh_fields.data); same bits as
 * rss/rss_fields.h RSS_RXH_*, checked by static asserts in ethtool_core.c. */
#define RXH_L2DA		(1u << 1)
#define RXH_VLAN		(1u << 2)
#define RXH_L3_PROTO		(1u << 3)
#define RXH_IP_SRC		(1u << 4)
#define RXH_IP_DST		(1u << 5)
#define RXH_L4_B_0_1		(1u << 6)
#define RXH_L4_B_2_3		(1u << 7)
#define RXH_GTP_TEID		(1u << 8)
#define RXH_IP6_FL		(1u << 9)
#define RXH_DISCARD		(1u << 31)

/* RSS input transformation (ethtool_rxfh_param.input_xfrm). */
#define RXH_XFRM_SYM_XOR	(1u << 0)
#define RXH_XFRM_SYM_OR_XOR	(1u << 1)
#define RXH_XFRM_NO_CHANGE	0xff

/* RSS hash functions: bit i is string i of ETH_SS_RSS_HASH_FUNCS. */
#define ETH_RSS_HASH_TOP_BIT	0
#define ETH_RSS_HASH_XOR_BIT	1
#define ETH_RSS_HASH_CRC32_BIT	2
#define ETH_RSS_HASH_FUNCS_COUNT 3
#define ETH_RSS_HASH_TOP	(1u << ETH_RSS_HASH_TOP_BIT)
#define ETH_RSS_HASH_XOR	(1u << ETH_RSS_HASH_XOR_BIT)
#define ETH_RSS_HASH_CRC32	(1u << ETH_RSS_HASH_CRC32_BIT)
#define ETH_RSS_HASH_UNKNOWN	0
#define ETH_RSS_HASH_NO_CHANGE	0

#define ETH_RXFH_INDIR_NO_CHANGE 0xffffffffu

/* Netlink attribute types the core's messages point at
 * (uapi ethtool_netlink_generated.h; only the ones used). */
enum {
	ETHTOOL_A_CHANNELS_HEADER = 1,
	ETHTOOL_A_CHANNELS_RX_MAX,
	ETHTOOL_A_CHANNELS_TX_MAX,
	ETHTOOL_A_CHANNELS_OTHER_MAX,
	ETHTOOL_A_CHANNELS_COMBINED_MAX,
	ETHTOOL_A_CHANNELS_RX_COUNT,
	ETHTOOL_A_CHANNELS_TX_COUNT,
	ETHTOOL_A_CHANNELS_OTHER_COUNT,
	ETHTOOL_A_CHANNELS_COMBINED_COUNT,
};

enum {
	ETHTOOL_A_RINGS_HEADER = 1,
	ETHTOOL_A_RINGS_RX_MAX,
	ETHTOOL_A_RINGS_RX_MINI_MAX,
	ETHTOOL_A_RINGS_RX_JUMBO_MAX,
	ETHTOOL_A_RINGS_TX_MAX,
	ETHTOOL_A_RINGS_RX,
	ETHTOOL_A_RINGS_RX_MINI,
	ETHTOOL_A_RINGS_RX_JUMBO,
	ETHTOOL_A_RINGS_TX,
};

enum {
	ETHTOOL_A_COALESCE_HEADER = 1,
	ETHTOOL_A_COALESCE_RX_USECS,
	ETHTOOL_A_COALESCE_RX_MAX_FRAMES,
	ETHTOOL_A_COALESCE_RX_USECS_IRQ,
	ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ,
	ETHTOOL_A_COALESCE_TX_USECS,
	ETHTOOL_A_COALESCE_TX_MAX_FRAMES,
	ETHTOOL_A_COALESCE_TX_USECS_IRQ,
	ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ,
	ETHTOOL_A_COALESCE_STATS_BLOCK_USECS,
	ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX,
	ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX,
	ETHTOOL_A_COALESCE_PKT_RATE_LOW,
	ETHTOOL_A_COALESCE_RX_USECS_LOW,
	ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW,
	ETHTOOL_A_COALESCE_TX_USECS_LOW,
	ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW,
	ETHTOOL_A_COALESCE_PKT_RATE_HIGH,
	ETHTOOL_A_COALESCE_RX_USECS_HIGH,
	ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH,
	ETHTOOL_A_COALESCE_TX_USECS_HIGH,
	ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH,
	ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL,
	ETHTOOL_A_COALESCE_USE_CQE_MODE_TX,
	ETHTOOL_A_COALESCE_USE_CQE_MODE_RX,
	ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES,
	ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES,
	ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS,
	ETHTOOL_A_COALESCE_RX_PROFILE,
	ETHTOOL_A_COALESCE_TX_PROFILE,
	ETHTOOL_A_COALESCE_RX_CQE_FRAMES,
	ETHTOOL_A_COALESCE_RX_CQE_NSECS,
	__ETHTOOL_A_COALESCE_CNT,
};

/* ------------------------------------------------------------------ */
/* supported_coalesce_params bits (include/linux/ethtool.h)            */
/* ------------------------------------------------------------------ */

/* Bit n is netlink attribute ETHTOOL_A_COALESCE_RX_USECS + n (the kernel's
 * attr_to_mask(); BIT(26)..BIT(30) and GENMASK(30, 0) checked against
 * include/linux/ethtool.h; the order of the two CQE-mode bits follows the
 * attribute order and was not checked separately). */
#define __ETHTOOL_COALESCE_BIT(a)  BIT((a) - ETHTOOL_A_COALESCE_RX_USECS)
#define ETHTOOL_COALESCE_RX_USECS \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_USECS)
#define ETHTOOL_COALESCE_RX_MAX_FRAMES \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_MAX_FRAMES)
#define ETHTOOL_COALESCE_RX_USECS_IRQ \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_USECS_IRQ)
#define ETHTOOL_COALESCE_RX_MAX_FRAMES_IRQ \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ)
#define ETHTOOL_COALESCE_TX_USECS \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_USECS)
#define ETHTOOL_COALESCE_TX_MAX_FRAMES \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_MAX_FRAMES)
#define ETHTOOL_COALESCE_TX_USECS_IRQ \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_USECS_IRQ)
#define ETHTOOL_COALESCE_TX_MAX_FRAMES_IRQ \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ)
#define ETHTOOL_COALESCE_STATS_BLOCK_USECS \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_STATS_BLOCK_USECS)
#define ETHTOOL_COALESCE_USE_ADAPTIVE_RX \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX)
#define ETHTOOL_COALESCE_USE_ADAPTIVE_TX \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX)
#define ETHTOOL_COALESCE_PKT_RATE_LOW \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_PKT_RATE_LOW)
#define ETHTOOL_COALESCE_RX_USECS_LOW \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_USECS_LOW)
#define ETHTOOL_COALESCE_RX_MAX_FRAMES_LOW \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW)
#define ETHTOOL_COALESCE_TX_USECS_LOW \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_USECS_LOW)
#define ETHTOOL_COALESCE_TX_MAX_FRAMES_LOW \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW)
#define ETHTOOL_COALESCE_PKT_RATE_HIGH \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_PKT_RATE_HIGH)
#define ETHTOOL_COALESCE_RX_USECS_HIGH \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_USECS_HIGH)
#define ETHTOOL_COALESCE_RX_MAX_FRAMES_HIGH \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH)
#define ETHTOOL_COALESCE_TX_USECS_HIGH \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_USECS_HIGH)
#define ETHTOOL_COALESCE_TX_MAX_FRAMES_HIGH \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH)
#define ETHTOOL_COALESCE_RATE_SAMPLE_INTERVAL \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL)
#define ETHTOOL_COALESCE_USE_CQE_TX \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_USE_CQE_MODE_TX)
#define ETHTOOL_COALESCE_USE_CQE_RX \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_USE_CQE_MODE_RX)
#define ETHTOOL_COALESCE_TX_AGGR_MAX_BYTES \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES)
#define ETHTOOL_COALESCE_TX_AGGR_MAX_FRAMES \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES)
#define ETHTOOL_COALESCE_TX_AGGR_TIME_USECS \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS)
#define ETHTOOL_COALESCE_RX_PROFILE \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_PROFILE)
#define ETHTOOL_COALESCE_TX_PROFILE \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_TX_PROFILE)
#define ETHTOOL_COALESCE_RX_CQE_FRAMES \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_CQE_FRAMES)
#define ETHTOOL_COALESCE_RX_CQE_NSECS \
	__ETHTOOL_COALESCE_BIT(ETHTOOL_A_COALESCE_RX_CQE_NSECS)
#define ETHTOOL_COALESCE_ALL_PARAMS	GENMASK(30, 0)

#define ETHTOOL_COALESCE_USECS \
	(ETHTOOL_COALESCE_RX_USECS | ETHTOOL_COALESCE_TX_USECS)
#define ETHTOOL_COALESCE_MAX_FRAMES \
	(ETHTOOL_COALESCE_RX_MAX_FRAMES | ETHTOOL_COALESCE_TX_MAX_FRAMES)
#define ETHTOOL_COALESCE_USECS_IRQ \
	(ETHTOOL_COALESCE_RX_USECS_IRQ | ETHTOOL_COALESCE_TX_USECS_IRQ)
#define ETHTOOL_COALESCE_MAX_FRAMES_IRQ \
	(ETHTOOL_COALESCE_RX_MAX_FRAMES_IRQ | \
	 ETHTOOL_COALESCE_TX_MAX_FRAMES_IRQ)
#define ETHTOOL_COALESCE_USE_ADAPTIVE \
	(ETHTOOL_COALESCE_USE_ADAPTIVE_RX | ETHTOOL_COALESCE_USE_ADAPTIVE_TX)
#define ETHTOOL_COALESCE_USE_CQE \
	(ETHTOOL_COALESCE_USE_CQE_RX | ETHTOOL_COALESCE_USE_CQE_TX)

/* ------------------------------------------------------------------ */
/* structs                                                             */
/* ------------------------------------------------------------------ */

/* ethtool -i (uapi struct ethtool_drvinfo). */
struct ethtool_drvinfo {
	u32 cmd;
	char driver[32];
	char version[32];
	char fw_version[32];
	char bus_info[32];
	char erom_version[32];
	char reserved2[12];
	u32 n_priv_flags;
	u32 n_stats;
	u32 testinfo_len;
	u32 eedump_len;
	u32 regdump_len;
};

/* ethtool -l/-L (uapi struct ethtool_channels); counts of channels. */
struct ethtool_channels {
	u32 cmd;
	u32 max_rx;
	u32 max_tx;
	u32 max_other;
	u32 max_combined;
	u32 rx_count;
	u32 tx_count;
	u32 other_count;
	u32 combined_count;
};

/* ethtool -g/-G (uapi struct ethtool_ringparam); descriptors per ring. */
struct ethtool_ringparam {
	u32 cmd;
	u32 rx_max_pending;
	u32 rx_mini_max_pending;
	u32 rx_jumbo_max_pending;
	u32 tx_max_pending;
	u32 rx_pending;
	u32 rx_mini_pending;
	u32 rx_jumbo_pending;
	u32 tx_pending;
};

/* Ring parameters that only exist in the kernel API / netlink. */
struct kernel_ethtool_ringparam {
	u32 rx_buf_len;
	u8 tcp_data_split;
	u8 tx_push;
	u8 rx_push;
	u32 cqe_size;
	u32 tx_push_buf_len;
	u32 tx_push_buf_max_len;
	u32 hds_thresh;
	u32 hds_thresh_max;
};

/* ethtool -c/-C (uapi struct ethtool_coalesce); times in microseconds. */
struct ethtool_coalesce {
	u32 cmd;
	u32 rx_coalesce_usecs;
	u32 rx_max_coalesced_frames;
	u32 rx_coalesce_usecs_irq;
	u32 rx_max_coalesced_frames_irq;
	u32 tx_coalesce_usecs;
	u32 tx_max_coalesced_frames;
	u32 tx_coalesce_usecs_irq;
	u32 tx_max_coalesced_frames_irq;
	u32 stats_block_coalesce_usecs;
	u32 use_adaptive_rx_coalesce;
	u32 use_adaptive_tx_coalesce;
	u32 pkt_rate_low;
	u32 rx_coalesce_usecs_low;
	u32 rx_max_coalesced_frames_low;
	u32 tx_coalesce_usecs_low;
	u32 tx_max_coalesced_frames_low;
	u32 pkt_rate_high;
	u32 rx_coalesce_usecs_high;
	u32 rx_max_coalesced_frames_high;
	u32 tx_coalesce_usecs_high;
	u32 tx_max_coalesced_frames_high;
	u32 rate_sample_interval;
};

/* Coalescing parameters that only exist in the kernel API / netlink. */
struct kernel_ethtool_coalesce {
	u8 use_cqe_mode_tx;
	u8 use_cqe_mode_rx;
	u32 tx_aggr_max_bytes;
	u32 tx_aggr_max_frames;
	u32 tx_aggr_time_usecs;
	u32 rx_cqe_frames;
	u32 rx_cqe_nsecs;
};

/* ethtool -S (uapi struct ethtool_stats, without the flexible data). */
struct ethtool_stats {
	u32 cmd;
	u32 n_stats;
};

/**
 * struct ethtool_rxfh_param - RSS configuration passed to get/set_rxfh.
 * @hfunc:       one ETH_RSS_HASH_* bit; ETH_RSS_HASH_NO_CHANGE on set
 *               means keep the current function
 * @indir_size:  entries in @indir (the driver's get_rxfh_indir_size())
 * @indir:       RX queue per entry, or NULL (set: no table change)
 * @key_size:    bytes in @key (the driver's get_rxfh_key_size())
 * @key:         hash key, or NULL (set: no key change)
 * @rss_context: RSS context; 0 is the default context
 * @rss_delete:  delete @rss_context (unused: no extra contexts here)
 * @input_xfrm:  RXH_XFRM_* bits; RXH_XFRM_NO_CHANGE on set keeps it
 */
struct ethtool_rxfh_param {
	u8 hfunc;
	u32 indir_size;
	u32 *indir;
	u32 key_size;
	u8 *key;
	u32 rss_context;
	u8 rss_delete;
	u8 input_xfrm;
};

/**
 * struct ethtool_rxfh_fields - rx-flow-hash fields of one flow type.
 * @data:        RXH_* bits
 * @flow_type:   TCP_V4_FLOW, ... (uapi numbers, without FLOW_RSS)
 * @rss_context: RSS context (0 here)
 */
struct ethtool_rxfh_fields {
	u32 data;
	u32 flow_type;
	u32 rss_context;
};

/*
 * Fill the next ETH_GSTRING_LEN slot of a get_strings() buffer and move
 * *@data past it (Linux ethtool_sprintf, ethtool_puts since 6.9): the text
 * is cut to ETH_GSTRING_LEN - 1 bytes and NUL-terminated.
 */
void ethtool_sprintf(u8 **data, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ethtool_puts(u8 **data, const char *str);

/**
 * struct ethtool_ops - what a driver implements (Linux member names and
 * signatures, subset).  Every callback is optional; the core answers
 * -EOPNOTSUPP for an operation whose callbacks are missing, as Linux does.
 * @supported_coalesce_params: ETHTOOL_COALESCE_* the driver accepts
 * @supported_input_xfrm:      RXH_XFRM_* the driver accepts
 */
struct ethtool_ops {
	u32 supported_coalesce_params;
	u32 supported_ring_params;
	u8 supported_input_xfrm;

	void (*get_drvinfo)(struct net_device *dev,
			    struct ethtool_drvinfo *info);
	int (*get_coalesce)(struct net_device *dev,
			    struct ethtool_coalesce *coal,
			    struct kernel_ethtool_coalesce *kcoal,
			    struct netlink_ext_ack *extack);
	int (*set_coalesce)(struct net_device *dev,
			    struct ethtool_coalesce *coal,
			    struct kernel_ethtool_coalesce *kcoal,
			    struct netlink_ext_ack *extack);
	void (*get_ringparam)(struct net_device *dev,
			      struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack);
	int (*set_ringparam)(struct net_device *dev,
			     struct ethtool_ringparam *ring,
			     struct kernel_ethtool_ringparam *kring,
			     struct netlink_ext_ack *extack);
	void (*get_strings)(struct net_device *dev, u32 stringset, u8 *data);
	void (*get_ethtool_stats)(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data);
	int (*get_sset_count)(struct net_device *dev, int sset);
	u32 (*get_rx_ring_count)(struct net_device *dev);
	u32 (*get_rxfh_key_size)(struct net_device *dev);
	u32 (*get_rxfh_indir_size)(struct net_device *dev);
	int (*get_rxfh)(struct net_device *dev,
			struct ethtool_rxfh_param *rxfh);
	int (*set_rxfh)(struct net_device *dev,
			struct ethtool_rxfh_param *rxfh,
			struct netlink_ext_ack *extack);
	int (*get_rxfh_fields)(struct net_device *dev,
			       struct ethtool_rxfh_fields *fields);
	int (*set_rxfh_fields)(struct net_device *dev,
			       const struct ethtool_rxfh_fields *fields,
			       struct netlink_ext_ack *extack);
	void (*get_channels)(struct net_device *dev,
			     struct ethtool_channels *ch);
	int (*set_channels)(struct net_device *dev,
			    struct ethtool_channels *ch);
};

/**
 * ethtool_rxfh_indir_default() - the default indirection table entry:
 * RX queue @index % @n_rx_rings (include/linux/ethtool.h).
 */
static inline u32 ethtool_rxfh_indir_default(u32 index, u32 n_rx_rings)
{
	return index % n_rx_rings;
}

/* ------------------------------------------------------------------ */
/* ethtool core (ethtool_core.c)                                       */
/* ------------------------------------------------------------------ */

/*
 * Request masks: the core's set calls take the new values in the uapi
 * struct plus a mask of the netlink attributes the user gave
 * (BIT(ETHTOOL_A_*)), as the kernel's netlink handlers see a request:
 * fields not in the mask keep their current value, a request that changes
 * nothing returns 0 without calling the driver, and a message points at
 * the offending attribute.
 */
#define ETHTOOL_ATTR(a)	BIT_ULL(a)

/**
 * ethtool_core_get_channels() - ethtool -l (CHANNELS_GET).
 * Return: 0, or -EOPNOTSUPP without get_channels.
 */
int ethtool_core_get_channels(struct net_device *dev,
			      struct ethtool_channels *ch);

/**
 * ethtool_core_set_channels() - ethtool -L (CHANNELS_SET), the kernel's
 * checks (net/ethtool/channels.c ethnl_set_channels, common.c
 * ethtool_check_max_channel):
 * @req:   new counts; only the fields named in @attrs are used
 * @attrs: ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_{RX,TX,OTHER,COMBINED}_COUNT)
 * Return: 0 (also when nothing changes: the driver is not called);
 * -EOPNOTSUPP without get/set_channels; -EINVAL with extack
 * "requested channel count exceeds maximum" (a count above its max_*),
 * "requested channel counts would result in no RX or TX channel being
 * configured" (combined == 0 and rx or tx == 0), "requested channel counts
 * are too low for existing indirection table (N)" (IFF_RXFH_CONFIGURED and
 * combined + rx <= N, the highest queue the table uses); or the driver's
 * error.  Nothing changes on error.
 */
int ethtool_core_set_channels(struct net_device *dev,
			      const struct ethtool_channels *req, u64 attrs,
			      struct netlink_ext_ack *extack);

/**
 * ethtool_core_get_rx_ring_count() - RX rings for RSS (ETHTOOL_GRXRINGS,
 * served by get_rx_ring_count).  Return: the count, or -EOPNOTSUPP.
 */
int ethtool_core_get_rx_ring_count(struct net_device *dev);

/**
 * ethtool_core_get_rxfh() - ethtool -x (RSS_GET / ETHTOOL_GRSSH).
 * @rxfh: in: @indir with room for get_rxfh_indir_size() entries and @key
 *        with room for get_rxfh_key_size() bytes (either may be NULL);
 *        out: sizes, table, key, hfunc, input_xfrm
 * Return: 0, -EOPNOTSUPP without get_rxfh, or the driver's error.
 */
int ethtool_core_get_rxfh(struct net_device *dev,
			  struct ethtool_rxfh_param *rxfh);

/**
 * ethtool_core_set_rxfh() - ethtool -X (ETHTOOL_SRSSH), the kernel's
 * checks (net/ethtool/ioctl.c ethtool_set_rxfh; the empty-key rule is the
 * netlink RSS_SET one, rss_api.py):
 * @req->indir_size: ETH_RXFH_INDIR_NO_CHANGE (keep), 0 (reset to
 *   ethtool_rxfh_indir_default(), clears IFF_RXFH_CONFIGURED) or exactly
 *   get_rxfh_indir_size() with @req->indir (sets IFF_RXFH_CONFIGURED);
 *   any other size -EINVAL; an entry >= get_rx_ring_count() -EINVAL.
 * @req->key: NULL keeps the key; otherwise @req->key_size must equal
 *   get_rxfh_key_size(), else -EINVAL (a zero-length key included).
 * @req->hfunc: ETH_RSS_HASH_NO_CHANGE or one function; as in Linux the
 *   driver refuses one it lacks (r8169 family: Toeplitz only,
 *   -EOPNOTSUPP).
 * @req->input_xfrm: RXH_XFRM_NO_CHANGE, 0, RXH_XFRM_SYM_XOR or
 *   RXH_XFRM_SYM_OR_XOR, else -EINVAL; a bit outside
 *   ops->supported_input_xfrm -EOPNOTSUPP; symmetric with a flow type whose
 *   rx-flow-hash fields are not src/dst pairs -EINVAL
 *   (ethtool_check_flow_types / rss_fields_check_xfrm).
 * @req->rss_context: must be 0 (no extra contexts), else -EOPNOTSUPP.
 * A request that changes nothing is -EINVAL, as in Linux.
 * Return: 0 or -errno; nothing changes on error.
 */
int ethtool_core_set_rxfh(struct net_device *dev,
			  const struct ethtool_rxfh_param *req,
			  struct netlink_ext_ack *extack);

/**
 * ethtool_core_get_rxfh_fields() - ethtool -n rx-flow-hash (ETHTOOL_GRXFH).
 * @fields: in: flow_type; out: data.
 * Return: 0, -EOPNOTSUPP without get_rxfh_fields, or the driver's error.
 */
int ethtool_core_get_rxfh_fields(struct net_device *dev,
				 struct ethtool_rxfh_fields *fields);

/**
 * ethtool_core_set_rxfh_fields() - ethtool -N rx-flow-hash (ETHTOOL_SRXFH;
 * net/ethtool/ioctl.c ethtool_set_rxfh_fields): with a symmetric input
 * transform on, @fields->data must be IP src/dst and/or L4 port pairs,
 * else -EINVAL (ethtool_check_xfrm_rxfh); the driver then applies its own
 * rules.  Return: 0, -EOPNOTSUPP without set_rxfh_fields, -EINVAL, or the
 * driver's error.
 */
int ethtool_core_set_rxfh_fields(struct net_device *dev,
				 const struct ethtool_rxfh_fields *fields,
				 struct netlink_ext_ack *extack);

/**
 * ethtool_core_get_coalesce() - ethtool -c (COALESCE_GET).
 * Return: 0, -EOPNOTSUPP without get_coalesce, or the driver's error.
 */
int ethtool_core_get_coalesce(struct net_device *dev,
			      struct ethtool_coalesce *coal,
			      struct kernel_ethtool_coalesce *kcoal);

/**
 * ethtool_core_set_coalesce() - ethtool -C (COALESCE_SET; net/ethtool/
 * coalesce.c): an attribute in @attrs whose ETHTOOL_COALESCE_* bit is not
 * in ops->supported_coalesce_params is -EINVAL with extack "cannot modify
 * an unsupported parameter" (pointing at the first such attribute).
 * @attrs: ETHTOOL_ATTR(ETHTOOL_A_COALESCE_*) of the values taken from
 *         @coal / @kcoal.
 * Return: 0 (no driver call when nothing changes), -EOPNOTSUPP without
 * get/set_coalesce, -EINVAL, or the driver's error.
 */
int ethtool_core_set_coalesce(struct net_device *dev,
			      const struct ethtool_coalesce *coal,
			      const struct kernel_ethtool_coalesce *kcoal,
			      u64 attrs, struct netlink_ext_ack *extack);

/**
 * ethtool_core_set_coalesce_ioctl() - the ioctl flavour (ETHTOOL_SCOALESCE,
 * net/ethtool/ioctl.c ethtool_set_coalesce_supported): the whole struct is
 * the new state; a non-zero field whose bit is not supported is
 * -EOPNOTSUPP.  Return: 0 or -errno; nothing changes on error.
 */
int ethtool_core_set_coalesce_ioctl(struct net_device *dev,
				    const struct ethtool_coalesce *coal);

/**
 * ethtool_core_get_ringparam() - ethtool -g (RINGS_GET).
 * Return: 0 or -EOPNOTSUPP without get_ringparam.
 */
int ethtool_core_get_ringparam(struct net_device *dev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring);

/**
 * ethtool_core_set_ringparam() - ethtool -G (RINGS_SET; net/ethtool/
 * rings.c): a size above its maximum is -EINVAL with extack "requested
 * ring size exceeds maximum".
 * @attrs: ETHTOOL_ATTR(ETHTOOL_A_RINGS_{RX,RX_MINI,RX_JUMBO,TX}).
 * Return: 0 (no driver call when nothing changes), -EOPNOTSUPP without
 * get/set_ringparam, -EINVAL, or the driver's error.
 */
int ethtool_core_set_ringparam(struct net_device *dev,
			       const struct ethtool_ringparam *req, u64 attrs,
			       struct netlink_ext_ack *extack);

/* The simulated kernel's release, as uname -r would print it. */
#define KERN_UTS_RELEASE "rxscale"

/**
 * ethtool_core_get_drvinfo() - ethtool -i (ETHTOOL_GDRVINFO; net/ethtool/
 * ioctl.c ethtool_get_drvinfo): the version defaults to the kernel's
 * release, then the driver fills what it knows; the counts come from the
 * string sets (statistics, self-tests, private flags) and from the EEPROM
 * and register-dump lengths, which no modelled driver has.
 * Return: 0, or -EOPNOTSUPP without get_drvinfo.
 */
int ethtool_core_get_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info);

/**
 * ethtool_core_get_stats() - ethtool -S: names and values of ETH_SS_STATS.
 * @names:  out: malloc'ed n * ETH_GSTRING_LEN bytes (not NUL-terminated
 *          when a name fills its 32 bytes)
 * @values: out: malloc'ed n counters
 * Return: n >= 0 (both NULL when n == 0), -EOPNOTSUPP without
 * get_sset_count/get_strings/get_ethtool_stats, -ENOMEM, or the driver's
 * error.  The caller frees both.
 */
int ethtool_core_get_stats(struct net_device *dev, char **names,
			   u64 **values);

#endif /* RXSCALE_KERN_ETHTOOL_H */
