// SPDX-License-Identifier: MIT
/*
 * ethtool_main.c - ethtool's command line over the ethtool core: the
 * option table, -h and dispatch (ethtool 6.1's ethtool.c args[],
 * show_usage() and main()); see ethtool_cmd.h.  Formats and messages are
 * ethtool's (facts read from its source, cited per function); the code
 * is rxscale's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "ethtool/ethtool_priv.h"
#include "ethtool/ethtool_cmd.h"

#define MAX_ARGS	1024

/* ---------------------------------------------------------------- */
/* -i (ethtool.c do_gdrv, dump_drvinfo; ioctl)                       */
/* ---------------------------------------------------------------- */

static int do_gdrv(struct cmd *c)
{
	struct ethtool_drvinfo d;
	int ret;

	if (c->argc != 0)
		return ecmd_bad_args(c);
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	ret = ecmd_dev_matches(c) ? ethtool_core_get_drvinfo(c->dev, &d) : -ENODEV;
	if (ret) {
		ecmd_pr_errno(c, "Cannot get driver information", ret);
		return 71;
	}
	fprintf(c->out, "driver: %.*s\nversion: %.*s\nfirmware-version: %.*s\n"
		"expansion-rom-version: %.*s\nbus-info: %.*s\n"
		"supports-statistics: %s\nsupports-test: %s\n"
		"supports-eeprom-access: %s\nsupports-register-dump: %s\n"
		"supports-priv-flags: %s\n",
		(int)sizeof(d.driver), d.driver, (int)sizeof(d.version), d.version,
		(int)sizeof(d.fw_version), d.fw_version,
		(int)sizeof(d.erom_version), d.erom_version,
		(int)sizeof(d.bus_info), d.bus_info,
		d.n_stats ? "yes" : "no", d.testinfo_len ? "yes" : "no",
		d.eedump_len ? "yes" : "no", d.regdump_len ? "yes" : "no",
		d.n_priv_flags ? "yes" : "no");
	return 0;
}

/* ---------------------------------------------------------------- */
/* dispatch (ethtool.c args[] and main())                            */
/* ---------------------------------------------------------------- */

struct option {
	const char *opts;	/* '|'-separated spellings */
	const char *name;	/* what netlink error lines call it */
	int (*func)(struct cmd *c);
	const char *help;	/* -h: ethtool 6.1's text */
	const char *xhelp;	/* -h: the arguments rxscale takes */
	bool query;		/* shows settings, changes nothing */
};

static int show_usage(struct cmd *c);

/* In ethtool 6.1's order of args[]. */
static const struct option options[] = {
	{ "-c|--show-coalesce", "-c", ecmd_do_gcoalesce, "Show coalesce options", NULL, true },
	{ "-C|--coalesce", "-C", ecmd_do_scoalesce, "Set coalesce options",
	  "\t\t[adaptive-rx on|off]\n\t\t[adaptive-tx on|off]\n\t\t[rx-usecs N]\n"
	  "\t\t[rx-frames N]\n\t\t[rx-usecs-irq N]\n\t\t[rx-frames-irq N]\n"
	  "\t\t[tx-usecs N]\n\t\t[tx-frames N]\n\t\t[tx-usecs-irq N]\n"
	  "\t\t[tx-frames-irq N]\n\t\t[stats-block-usecs N]\n\t\t[pkt-rate-low N]\n"
	  "\t\t[rx-usecs-low N]\n\t\t[rx-frames-low N]\n\t\t[tx-usecs-low N]\n"
	  "\t\t[tx-frames-low N]\n\t\t[pkt-rate-high N]\n\t\t[rx-usecs-high N]\n"
	  "\t\t[rx-frames-high N]\n\t\t[tx-usecs-high N]\n\t\t[tx-frames-high N]\n"
	  "\t\t[sample-interval N]\n\t\t[cqe-mode-rx on|off]\n\t\t[cqe-mode-tx on|off]\n", false },
	{ "-g|--show-ring", "-g", ecmd_do_gring, "Query RX/TX ring parameters", NULL, true },
	{ "-G|--set-ring", "-G", ecmd_do_sring, "Set RX/TX ring parameters",
	  "\t\t[ rx N ]\n\t\t[ rx-mini N ]\n\t\t[ rx-jumbo N ]\n\t\t[ tx N ]\n", false },
	{ "-i|--driver", "-i", do_gdrv, "Show driver information", NULL, true },
	{ "-S|--statistics", "-S", ecmd_do_gstats, "Show adapter statistics", NULL, true },
	{ "-n|-u|--show-nfc|--show-ntuple", "-n", ecmd_do_grxclass,
	  "Show Rx network flow classification options or rules",
	  "\t\t[ rx-flow-hash tcp4|udp4|ah4|esp4|sctp4|tcp6|udp6|ah6|esp6|sctp6 ]\n", true },
	{ "-N|-U|--config-nfc|--config-ntuple", "-N", ecmd_do_srxclass,
	  "Configure Rx network flow classification options or rules",
	  "\t\trx-flow-hash tcp4|udp4|ah4|esp4|sctp4|tcp6|udp6|ah6|esp6|sctp6 "
	  "m|v|t|s|d|f|n|r...\n", false },
	{ "-x|--show-rxfh-indir|--show-rxfh", "-x", ecmd_do_grxfh,
	  "Show Rx flow hash indirection table and/or RSS hash key",
	  "\t\t[ context %d ]\n", true },
	{ "-X|--set-rxfh-indir|--rxfh", "-X", ecmd_do_srxfh,
	  "Set Rx flow hash indirection table and/or RSS hash key",
	  "\t\t[ context %d|new ]\n\t\t[ equal N | weight W0 W1 ... | default ]\n"
	  "\t\t[ start N ]\n\t\t[ hkey %x:%x:%x:%x:%x:.... ]\n\t\t[ hfunc FUNC ]\n"
	  "\t\t[ delete ]\n", false },
	{ "-l|--show-channels", "-l", ecmd_do_gchannels, "Query Channels", NULL, true },
	{ "-L|--set-channels", "-L", ecmd_do_schannels, "Set Channels",
	  "               [ rx N ]\n               [ tx N ]\n"
	  "               [ other N ]\n               [ combined N ]\n", false },
	{ "-h|--help", "-h", show_usage, "Show this help", NULL, true },
};

/* ethtool.c show_usage(), listing what rxscale simulates. */
static int show_usage(struct cmd *c)
{
	fputs("ethtool version 6.1 (rxscale: the commands below, against the "
	      "simulated device)\nUsage:\n", c->out);
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		bool no_dev = options[i].func == show_usage;

		fprintf(c->out, "        ethtool %s %s\t%s\n", options[i].opts,
			no_dev ? "\t" : "DEVNAME", options[i].help);
		if (options[i].xhelp)
			fputs(options[i].xhelp, c->out);
	}
	return 0;
}

static const struct option *find_option(const char *arg)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const char *o = options[i].opts;

		for (;;) {
			len = strcspn(o, "|");
			if (!strncmp(arg, o, len) && arg[len] == '\0')
				return &options[i];
			if (!o[len])
				break;
			o += len + 1;
		}
	}
	return NULL;
}

/* "-l -L -x ..." */
static void simulated(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		fprintf(f, "%s%s", i ? " " : "", options[i].name);
}

static int runv(struct net_device *dev, int argc, const char *const *argv,
		FILE *out, FILE *err, bool check)
{
	const struct option *opt;
	struct cmd c = { .dev = dev, .out = out, .err = err, .check = check };
	int rc;

	if (argc > 0 && !strcmp(argv[0], "ethtool")) {
		argc--;
		argv++;
	}
	if (argc < 1)
		return ecmd_bad_args(&c);
	opt = find_option(argv[0]);
	if (!opt) {
		/* ethtool options that exist but are not simulated here */
		static const char *const real[] = {
			"-a", "-A", "-d", "-e", "-E", "-f", "-k", "-K", "-m",
			"-p", "-P", "-r", "-s", "-t", "-T", "-w", "-W",
			"--show-features", "--features", "--offload", "--show-pause",
			"--pause", "--change", "--identify", "--test", "--reset",
			"--register-dump", "--eeprom-dump", "--module-info",
			"--show-eee", "--set-eee", "--show-fec", "--set-fec",
			"--show-priv-flags", "--set-priv-flags", "--show-permaddr",
			"--show-time-stamping",
		};

		for (size_t i = 0; i < ARRAY_SIZE(real); i++)
			if (!strcmp(argv[0], real[i])) {
				fprintf(err, "rxscale: ethtool: %s is not simulated; only ",
					argv[0]);
				simulated(err);
				fputs(" are (ethtool -h)\n", err);
				return 1;
			}
		if (argv[0][0] == '-')
			return ecmd_bad_args(&c);
		/* "ethtool DEVNAME" (link settings) is not simulated */
		fputs("rxscale: ethtool: only ", err);
		simulated(err);
		fputs(" are simulated (ethtool -h)\n", err);
		return 1;
	}
	if (opt->func == show_usage)
		return argc != 1 ? ecmd_bad_args(&c) : check ? 0 : show_usage(&c);
	if (argc < 2)
		return ecmd_bad_args(&c);
	c.name = opt->name;
	c.devname = argv[1];
	c.argc = argc - 2;
	c.argv = argv + 2;
	if (strlen(c.devname) >= IFNAMSIZ) {
		fprintf(err, "Device name longer than %u characters\n",
			IFNAMSIZ - 1);
		return ecmd_bad_args(&c);
	}
	if (check)
		return opt->func(&c);
	/* the ethtool netlink handlers run under RTNL */
	rtnl_lock();
	rc = opt->func(&c);
	rtnl_unlock();
	return rc;
}

int ethtool_cmd_runv(struct net_device *dev, int argc,
		     const char *const *argv, FILE *out, FILE *err)
{
	return runv(dev, argc, argv, out, err, false);
}

static int run_line(struct net_device *dev, const char *args, FILE *out,
		    FILE *err, bool check)
{
	const char **argv;
	char *copy, *tok, *save = NULL;
	int argc = 0, ret;

	copy = strdup(args ? args : "");
	argv = calloc(MAX_ARGS, sizeof(*argv));
	if (!copy || !argv) {
		free(copy);
		free(argv);
		fputs("rxscale: ethtool: out of memory\n", err);
		return 1;
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (argc == MAX_ARGS) {
			fputs("rxscale: ethtool: too many arguments\n", err);
			free(copy);
			free(argv);
			return 1;
		}
		argv[argc++] = tok;
	}
	ret = runv(dev, argc, argv, out, err, check);
	free(copy);
	free(argv);
	return ret;
}

int ethtool_cmd_run(struct net_device *dev, const char *args, FILE *out,
		    FILE *err)
{
	return run_line(dev, args, out, err, false);
}

int ethtool_cmd_check(struct net_device *dev, const char *args, FILE *err)
{
	return run_line(dev, args, err, err, true);
}

bool ethtool_cmd_is_query(const char *args)
{
	char word[64] = "";
	const struct option *opt;

	if (!args || sscanf(args, "%63s", word) != 1)
		return false;
	if (!strcmp(word, "ethtool") && sscanf(args, "%*s %63s", word) != 1)
		return false;
	opt = find_option(word);
	return opt && opt->query;
}
