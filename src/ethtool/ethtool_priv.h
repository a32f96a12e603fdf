/* SPDX-License-Identifier: MIT */
/*
 * ethtool_priv.h - what the files of rxscale's ethtool command line share:
 * one parsed command, netlink-style parameter tables, the error printers
 * and each subcommand's entry point (ethtool_main.c dispatches).
 */
#ifndef RXSCALE_ETHTOOL_PRIV_H
#define RXSCALE_ETHTOOL_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/types.h>

struct net_device;
struct netlink_ext_ack;

/* One command line: "ethtool <name> <devname> <argv...>". */
struct cmd {
	struct net_device *dev;
	FILE *out;
	FILE *err;
	const char *name;	/* "-L": what ethtool calls the command */
	const char *devname;
	int argc;		/* words after the device name */
	const char *const *argv;
	bool check;		/* parse only: return 0 before the device
				 * (ethtool_cmd_check) */
};

enum nl_ptype { NLP_U32, NLP_BOOL };

struct nl_param {
	const char *name;
	u32 attr;
	enum nl_ptype type;
};

/* What one set request carries: values by attribute type, and where each
 * attribute sits in the message (for the extack offset). */
struct nl_req {
	u64 attrs;
	u32 val[64];
	unsigned pos[64];
};

/* ethtool_common.c */
int ecmd_bad_args(struct cmd *c);
void ecmd_pr_errno(struct cmd *c, const char *what, int neg_errno);
bool ecmd_dev_matches(const struct cmd *c);
bool ecmd_parse_int_range(const char *s, long long min, long long max,
			  long long *v);
bool ecmd_parse_u32_base0(const char *s, u32 *v);
bool ecmd_parse_nl_u32(const char *s, u32 *v);
int ecmd_nl_parse(struct cmd *c, const struct nl_param *tbl, size_t n,
		  struct nl_req *r);
void ecmd_nl_report(struct cmd *c, int ret, const struct netlink_ext_ack *ea,
		    const struct nl_req *r);
void ecmd_nl_no_device(struct cmd *c);
void ecmd_show_u32(FILE *f, const char *label, bool present, u32 v);
const char *ecmd_on_off_na(bool present, u32 v);
int ecmd_no_params(struct cmd *c);

/* the subcommands: ethtool's exit status */
int ecmd_do_gchannels(struct cmd *c);	/* ethtool_channels.c */
int ecmd_do_schannels(struct cmd *c);
int ecmd_do_grxfh(struct cmd *c);	/* ethtool_rxfh.c */
int ecmd_do_srxfh(struct cmd *c);
int ecmd_do_grxclass(struct cmd *c);	/* ethtool_rxclass.c */
int ecmd_do_srxclass(struct cmd *c);
int ecmd_do_gcoalesce(struct cmd *c);	/* ethtool_coalesce.c */
int ecmd_do_scoalesce(struct cmd *c);
int ecmd_do_gring(struct cmd *c);	/* ethtool_rings.c */
int ecmd_do_sring(struct cmd *c);
int ecmd_do_gstats(struct cmd *c);	/* ethtool_stats.c */

#endif /* RXSCALE_ETHTOOL_PRIV_H */
