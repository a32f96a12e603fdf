/* SPDX-License-Identifier: MIT */
/*
 * ethtool_cmd.h - ethtool's command line, run against a simulated
 * net_device through the ethtool core (ethtool.h).
 *
 * Supported: -l/-L (channels), -x/-X (RSS table, key, hash function),
 * -n/-N and their aliases -u/-U (rx-flow-hash only), -c/-C (coalescing),
 * -g/-G (rx, rx-mini, rx-jumbo, tx ring sizes), -S (NIC statistics), -i
 * (driver information) and -h.  The version imitated is ethtool 6.1, the
 * one Debian 12 ships: output, error text and exit status as read in its
 * source (ethtool.c, common.c, netlink/{channels,coalesce,rings,parser,
 * nlsock}.c) and compared byte for byte with its saved output
 * (tests/data/real/ethtool, test_ethtool.c): the commands 6.1 runs over
 * netlink (-l -L -c -C -g -G) print netlink's formats and "netlink
 * error: ..." lines; -x, -X, -n, -N, -S and -i use ethtool's ioctl paths
 * and print "Cannot ...: <strerror>".  Where the text had to be guessed,
 * the file says so next to it.
 */
#ifndef RXSCALE_ETHTOOL_ETHTOOL_CMD_H
#define RXSCALE_ETHTOOL_ETHTOOL_CMD_H

#include <stdbool.h>
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

/**
 * ethtool_cmd_check() - parse @args as ethtool_cmd_run() would, without
 * touching @dev: the syntax check of a command that runs later.
 * Return: 0 if the arguments parse, else ethtool's exit status with its
 * message on @err.  Whether the device and the kernel accept the values
 * (a queue count above the maximum, a device name that is not @dev's)
 * is only known when the command runs.
 */
int ethtool_cmd_check(struct net_device *dev, const char *args, FILE *err);

/**
 * ethtool_cmd_is_query() - whether @args's option only shows settings
 * (-l -x -n -u -c -g -S and their long forms), not changes them.
 */
bool ethtool_cmd_is_query(const char *args);

#endif /* RXSCALE_ETHTOOL_ETHTOOL_CMD_H */
