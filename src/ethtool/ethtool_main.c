// SPDX-License-Identifier: MIT
/*
 * ethtool_main.c - ethtool's command line over the ethtool core: the
 * option table and dispatch (ethtool.c args[] and main()); see
 * ethtool_cmd.h.  Formats and messages are ethtool's (facts read from its
 * source, cited per function); the code is rxscale's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethtool/ethtool_priv.h"
#include "ethtool/ethtool_cmd.h"
#include "kern/netdevice.h"

#define MAX_ARGS	1024

/* ---------------------------------------------------------------- */
/* dispatch (ethtool.c args[] and main())                            */
/* ---------------------------------------------------------------- */

struct option {
	const char *opts;	/* '|'-separated spellings */
	const char *name;	/* what netlink error lines call it */
	int (*func)(struct cmd *c);
};

static const struct option options[] = {
	{ "-l|--show-channels", "-l", ecmd_do_gchannels },
	{ "-L|--set-channels", "-L", ecmd_do_schannels },
	{ "-x|--show-rxfh-indir|--show-rxfh", "-x", ecmd_do_grxfh },
	{ "-X|--set-rxfh-indir|--rxfh", "-X", ecmd_do_srxfh },
	{ "-n|-u|--show-nfc|--show-ntuple", "-n", ecmd_do_grxclass },
	{ "-N|-U|--config-nfc|--config-ntuple", "-N", ecmd_do_srxclass },
	{ "-c|--show-coalesce", "-c", ecmd_do_gcoalesce },
	{ "-C|--coalesce", "-C", ecmd_do_scoalesce },
	{ "-g|--show-ring", "-g", ecmd_do_gring },
	{ "-G|--set-ring", "-G", ecmd_do_sring },
	{ "-S|--statistics", "-S", ecmd_do_gstats },
};

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

int ethtool_cmd_runv(struct net_device *dev, int argc,
		     const char *const *argv, FILE *out, FILE *err)
{
	const struct option *opt;
	struct cmd c = { .dev = dev, .out = out, .err = err };

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
			"-a", "-A", "-d", "-e", "-E", "-f", "-i", "-k", "-K", "-m",
			"-p", "-P", "-r", "-s", "-t", "-T", "-w", "-W", "--driver",
			"--show-features", "--features", "--offload", "--show-pause",
			"--pause", "--change", "--identify", "--test", "--reset",
			"--register-dump", "--eeprom-dump", "--module-info",
			"--show-eee", "--set-eee", "--show-fec", "--set-fec",
			"--show-priv-flags", "--set-priv-flags", "--show-permaddr",
			"--show-time-stamping",
		};

		for (size_t i = 0; i < ARRAY_SIZE(real); i++)
			if (!strcmp(argv[0], real[i])) {
				fprintf(err, "rxscale: ethtool: %s is not simulated; only -l -L "
					"-x -X -n -N -u -U -c -C -g -G -S are\n", argv[0]);
				return 1;
			}
		if (argv[0][0] == '-')
			return ecmd_bad_args(&c);
		/* "ethtool DEVNAME" (link settings) is not simulated */
		fprintf(err, "rxscale: ethtool: only -l -L -x -X -n -N -u -U "
			"-c -C -g -G -S are simulated\n");
		return 1;
	}
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
	return opt->func(&c);
}

int ethtool_cmd_run(struct net_device *dev, const char *args, FILE *out,
		    FILE *err)
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
	ret = ethtool_cmd_runv(dev, argc, argv, out, err);
	free(copy);
	free(argv);
	return ret;
}
