// SPDX-License-Identifier: MIT
/*
 * ethtool_stats.c - ethtool -S: NIC statistics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"

/* ---------------------------------------------------------------- */
/* -S (ethtool.c do_gstats; ioctl)                                   */
/* ---------------------------------------------------------------- */

int ecmd_do_gstats(struct cmd *c)
{
	char *names;
	u64 *vals;
	int n, i;

	if (c->argc != 0)
		return ecmd_bad_args(c);
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_pr_errno(c, "Cannot get stats strings information", -ENODEV);
		return 96;
	}
	n = ethtool_core_get_stats(c->dev, &names, &vals);
	if (n < 0) {
		ecmd_pr_errno(c, "Cannot get stats strings information", n);
		return 96;
	}
	if (n < 1) {
		fputs("no stats available\n", c->err);
		return 94;
	}
	fputs("NIC statistics:\n", c->out);
	for (i = 0; i < n; i++)
		fprintf(c->out, "     %.*s: %llu\n", ETH_GSTRING_LEN,
			names + (size_t)i * ETH_GSTRING_LEN,
			(unsigned long long)vals[i]);
	free(names);
	free(vals);
	return 0;
}
