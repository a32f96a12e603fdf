// SPDX-License-Identifier: MIT
/*
 * cli_run.c - `rxscale run`: the command line (scenario file, --set,
 * --ethtool, --pcap, --sweep ...) and which run it asks for.
 *
 * The simulated system is built in cli_world.c (the NIC: a PCIe chip on
 * the r8169 path or a USB adapter on the r8152 path, cli_nic.c); the
 * workloads are iperf3 and ping over a line-rate wire to a peer
 * (cli_iperf3.c) or a capture replay (cli_replay.c); --sweep is
 * cli_sweep.c; the reports as iperf3/mpstat/ethtool print them are
 * src/report's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "cli/scenario.h"

static void usage(FILE *out)
{
	fputs("usage: rxscale run [SCENARIO.ini] [--pcap FILE] [--set section.key=value]...\n"
	      "                   [--ethtool \"ARGS\"]... [--preset NAME] [--seed N] [--json]\n"
	      "                   [--compare] [--sweep section.key=V1,V2,... [--plot FILE]]\n"
	      "\n"
	      "Simulate a host with a Realtek NIC model and its driver: a PCIe RTL8125/8126/\n"
	      "8127 on the r8169-style driver, or a USB RTL8157/8159 (nic.chip) on the\n"
	      "r8152-style driver behind an xHCI model.  --sweep runs the scenario once per\n"
	      "value and prints throughput, ksoftirqd, interrupts/s and ping; --plot draws\n"
	      "it with gnuplot (PNG, or SVG for a .svg name).\n"
	      "With --pcap (or replay.pcap in the scenario) the capture is replayed into\n"
	      "the NIC and each RX queue's frames, bytes and flows are reported, with the\n"
	      "mpstat CPU table and ethtool -S.  Scenario keys: see src/cli/scenario.h.\n"
	      "Without a capture it runs iperf3 (TCP by default, UDP with iperf3.udp=1,\n"
	      "the host sending with iperf3.reverse=1) and ping (ping.count) between the\n"
	      "peer and the host.  With no scenario: RTL8127A, 4 RX queues, RSS on,\n"
	      "iperf3 -P 20 for 10 s.\n", out);
}

int cli_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pcap", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "ethtool", required_argument, NULL, 'e' },
		{ "preset", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "compare", no_argument, NULL, 'c' },
		{ "sweep", required_argument, NULL, 'W' },
		{ "plot", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct world *w = calloc(1, sizeof(*w));
	char err[600];
	const char *sets[64];
	unsigned nsets = 0;
	const char *sweep = NULL, *plot = NULL;
	bool seed_given = false, preset_given = false;
	bool json = false;
	int c, rc = CLI_EXIT_USAGE;

	if (!w) {
		cli_err("out of memory");
		return 1;
	}
	scenario_default(&w->scn);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (strlen(optarg) >= SCN_STR) {
				cli_err("--pcap: path too long");
				goto out;
			}
			snprintf(w->scn.pcap, sizeof(w->scn.pcap), "%s", optarg);
			break;
		case 's':
			if (nsets == 64) {
				cli_err("--set: too many");
				goto out;
			}
			sets[nsets++] = optarg;
			break;
		case 'e':
			if (w->scn.n_ethtool == SCN_MAX_ETHTOOL || strlen(optarg) >= SCN_STR) {
				cli_err("--ethtool: too many or too long");
				goto out;
			}
			snprintf(w->scn.ethtool[w->scn.n_ethtool++], SCN_STR, "%s", optarg);
			break;
		case 'P':
			if (strlen(optarg) >= SCN_STR) {
				cli_err("--preset: name too long");
				goto out;
			}
			snprintf(w->scn.preset, sizeof(w->scn.preset), "%s", optarg);
			preset_given = true;
			break;
		case 'S': {
			unsigned long v;

			if (cli_parse_uint(optarg, 0, ~0UL, &v)) {
				cli_err("--seed: '%.64s' is not a whole number", optarg);
				goto out;
			}
			w->scn.seed = v;
			seed_given = true;
			break;
		}
		case 'j':
			json = true;
			break;
		case 'c':
			w->compare = true;
			break;
		case 'W':
			sweep = optarg;
			break;
		case 'G':
			plot = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			cli_err("run: unknown or incomplete option '%.64s' (try --help)",
				argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		struct scenario file = w->scn;

		if (optind + 1 < argc) {
			cli_err("run: one scenario file at most ('%.64s' is extra)", argv[optind + 1]);
			goto out;
		}
		/* the file's keys come first, command-line options win */
		scenario_default(&file);
		if (scenario_load(&file, argv[optind], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
		if (w->scn.pcap[0])
			snprintf(file.pcap, sizeof(file.pcap), "%s", w->scn.pcap);
		if (file.n_ethtool + w->scn.n_ethtool > SCN_MAX_ETHTOOL) {
			cli_err("--ethtool: more than %d ethtool commands with the scenario's",
				SCN_MAX_ETHTOOL);
			goto out;
		}
		for (unsigned i = 0; i < w->scn.n_ethtool; i++)
			snprintf(file.ethtool[file.n_ethtool++], SCN_STR, "%s", w->scn.ethtool[i]);
		if (preset_given)
			snprintf(file.preset, sizeof(file.preset), "%s", w->scn.preset);
		if (seed_given)
			file.seed = w->scn.seed;
		w->scn = file;
	}
	for (unsigned i = 0; i < nsets; i++) {
		if (scenario_set(&w->scn, sets[i], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
	}
	if (plot && !sweep) {
		cli_err("--plot: only with --sweep");
		goto out;
	}
	if (w->compare && !w->scn.compare_rows[0]) {
		cli_err("--compare: this scenario names no EXPERIMENTS.md rows (compare.rows; "
			"the scenarios/e*.ini files do)");
		goto out;
	}
	if (sweep) {
		if (json || w->compare) {
			cli_err("--sweep: prints its own table (no --json or --compare)");
			goto out;
		}
		rc = cli_run_sweep(&w->scn, sweep, plot);
		goto out;
	}
	if (!w->scn.pcap[0]) {
		if (cli_world_up(w) || cli_world_ethtool(w, json ? stderr : stdout))
			goto out;
		rc = cli_run_iperf3(w, json, NULL) ? 1 : 0;
		goto out;
	}
	rc = cli_run_replay(w, json);
out:
	cli_world_down(w);
	free(w);
	return rc;
}
