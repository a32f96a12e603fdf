/* SPDX-License-Identifier: MIT */
/*
 * ethtool_cmd.h - ethtool's command line, run against a simulated
 * net_device through the ethtool core (ethtool.h).
 *
 * Supported: -l/-L (channels), -x/-X (RSS table, key, hash function,
 * input transform), -n/-N and their aliases -u/-U (rx-flow-hash only),
 * -c/-C (coalescing), -g/-G (rx, rx-mini, rx-jumbo, tx ring sizes), -S
 * (NIC statistics).  Output, error text and exit status follow ethtool
 * 6.1x as read in its source (ethtool.c, common.c, netlink/{channels,
 * rss,coalesce,rings,parser,nlsock}.c): the commands ethtool runs over
 * netlink (-l -L -x -c -C -g -G) print netlink's formats and
 * "netlink error: ..." lines; -X, -n, -N and -S use ethtool's ioctl
 * paths and print "Cannot ...: <strerror>".  Where the text had to be
 * guessed, ethtool_cmd.c says so next to it.
 */
#ifndef RXSCALE_ETHTOOL_ETHTOOL_CMD_H
#define RXSCALE_ETHTOOL_ETHTOOL_CMD_H

#include <stdio.h>

struct net_device;

/**
 * ethtool_cmd_run() - run one ethtool command line against @dev.
 * @args: the arguments after "ethtool", split on blanks, e.g.
 *        "-X eth0 equal 2" (a leading "ethtool" word is skipped)
 * @out:  ethtool's standard output
 * @err:  ethtool's standard error
 * A device name other than @dev->name fails as ethtool does for a device
 * that does not exist.  Bad arguments print ethtool's message and change
 * nothing.
 * Return: ethtool's exit status: 0 on success, otherwise non-zero (1 for
 * bad arguments and most failures; 2 for a malformed hash key; 81 for a
 * failed -G; 94/96 for -S without statistics).
 */
int ethtool_cmd_run(struct net_device *dev, const char *args, FILE *out,
		    FILE *err);

/**
 * ethtool_cmd_runv() - ethtool_cmd_run() on arguments already split.
 * @argc, @argv: the words after "ethtool"; not modified.
 */
int ethtool_cmd_runv(struct net_device *dev, int argc,
		     const char *const *argv, FILE *out, FILE *err);

#endif /* RXSCALE_ETHTOOL_ETHTOOL_CMD_H */
