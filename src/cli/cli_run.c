// SPDX-License-Identifier: MIT
/*
 * cli_run.c - `rxscale run`: the command line (scenario file, --set,
 * --ethtool, --pcap, --sweep ...) and which run it asks for.
 *
 * The simulated system is built in src/bed (bed_world.c; the NIC: a PCIe chip on
 * the r8169 path or a USB adapter on the r8152 path, bed_nic.c); the
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
#include "bed/bed_scenario.h"
#include "bed/bed_scn_keys.h"

static void usage(FILE *out)
{
	fputs("usage: rxscale run [SCENARIO.ini] [--pcap FILE] [--set section.key=value]...\n"
	      "                   [--ethtool \"ARGS\"]... [--at T \"ARGS\"]... [--preset NAME]\n"
	      "                   [--seed N] [--json] [--compare] [--regime NAME]\n"
	      "                   [--sweep section.key=V1,V2,... [--plot FILE]\n"
	      "                    [-j N | --emit parallel|slurm [--emit-dir DIR]]]\n"
	      "\n"
	      "Simulate a host with a Realtek NIC model and its driver: a PCIe RTL8125/8126/\n"
	      "8127 on the r8169-style driver, or a USB RTL8157/8159 (nic.chip) on the\n"
	      "r8152-style driver behind an xHCI model.  --sweep runs the scenario once per\n"
	      "value and prints throughput, ksoftirqd, interrupts/s and ping; --plot draws\n"
	      "it with gnuplot (PNG, SVG for a .svg name, the gnuplot script itself for a\n"
	      ".gp name); with --json, one JSON\n"
	      "document.  -j N runs up to N points at once, as processes; --emit prints\n"
	      "one command per point instead (GNU parallel's input, or a Slurm job-array\n"
	      "script), each writing DIR/point-NNN.json (--point I --point-json FILE),\n"
	      "which 'rxscale sweep-merge DIR' turns into the same table, JSON or plot.\n"
	      "With --pcap (or replay.pcap in the scenario) the capture is replayed into\n"
	      "the NIC and each RX queue's frames, bytes and flows are reported, with the\n"
	      "mpstat CPU table and ethtool -S.  --help-keys lists the scenario keys.\n"
	      "Without a capture it runs iperf3 (TCP by default, UDP with iperf3.udp=1,\n"
	      "the host sending with iperf3.reverse=1; N server/client pairs on ports\n"
	      "5201.. with iperf3.instances=N) and ping (ping.count) between the\n"
	      "peer and the host.  With no scenario: RTL8127A, 4 RX queues, RSS on,\n"
	      "iperf3 -P 20 for 10 s.  --at T \"ARGS\" runs ethtool ARGS T seconds into\n"
	      "the run, as a process on a host CPU; a rejected command leaves the old\n"
	      "settings and makes the exit status 3.\n"
	      "Reports follow iperf3 3.12 (what iperf3 -c prints), sysstat 12.6 (mpstat\n"
	      "-P ALL 1) and ethtool 6.1 (--ethtool \"-h\" lists its commands), the\n"
	      "versions Debian 12 ships; see docs/run.md.\n", out);
}

/* --help-keys: every scenario key, from the table the parser reads. */
static void help_keys(FILE *out)
{
	fputs("Scenario keys.  In a scenario file: 'key = value' under '[section]'; on the\n"
	      "command line: --set section.key=value, applied after the file.  Each key:\n"
	      "section.key = DEFAULT [UNIT; VALUES IT TAKES], then what it does.  A\n"
	      "default in parentheses says what no value means.  Booleans take 0/1,\n"
	      "no/yes, false/true or off/on.  A [regime.NAME] section holds overrides of\n"
	      "these keys (docs/run.md, Regimes).  man rxscale lists the same.\n\n", out);
	bed_scn_keys_print(out, false);
}

int cli_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pcap", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "ethtool", required_argument, NULL, 'e' },
		{ "preset", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'J' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "emit", required_argument, NULL, 'E' },
		{ "emit-dir", required_argument, NULL, 'D' },
		{ "point", required_argument, NULL, 'I' },
		{ "point-json", required_argument, NULL, 'O' },
		{ "compare", no_argument, NULL, 'c' },
		{ "sweep", required_argument, NULL, 'W' },
		{ "at", required_argument, NULL, 'a' },
		{ "plot", required_argument, NULL, 'G' },
		{ "regime", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "help-keys", no_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	struct bed_world *w = calloc(1, sizeof(*w));
	char err[600];
	const char *sets[64];
	unsigned nsets = 0;
	const char *sweep = NULL, *plot = NULL, *regime = NULL;
	struct bed_scenario pre;
	struct cli_sweep_opts so = { .jobs = 1, .point = -1, .emit_dir = "sweep-points" };
	char *keep[2 * 64 + 2 * BED_SCN_MAX_ETHTOOL + 3 * BED_SCN_MAX_AT + 16];
	int nkeep = 0;
	bool jobs_given = false, emit_dir_given = false;
	bool seed_given = false, preset_given = false;
	bool json = false;
	int c, rc = CLI_EXIT_USAGE;

	if (!w) {
		cli_err("out of memory");
		return 1;
	}
	bed_scenario_default(&w->scn);
	/* --json anywhere: an error before it is parsed is a JSON one too */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			cli_json_begin();
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		/* what a sweep point's command repeats (--emit) */
		if (c > 0 && strchr("psePSWRa", c) &&
		    nkeep + 3 + 1 > (int)(sizeof(keep) / sizeof(keep[0]))) {
			/* room for this option and the scenario file */
			cli_err("run: too many options (an emitted sweep repeats them)");
			goto out;
		}
		if (c > 0 && strchr("psePSWR", c)) {
			static char *const flag[] = { "--pcap", "--set", "--ethtool",
						      "--preset", "--seed", "--sweep", "--regime" };

			keep[nkeep++] = flag[strchr("psePSWR", c) - "psePSWR"];
			keep[nkeep++] = optarg;
		}
		switch (c) {
		case 'p':
			if (strlen(optarg) >= BED_SCN_STR) {
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
			if (w->scn.n_ethtool == BED_SCN_MAX_ETHTOOL || strlen(optarg) >= BED_SCN_STR) {
				cli_err("--ethtool: too many or too long");
				goto out;
			}
			snprintf(w->scn.ethtool[w->scn.n_ethtool++], BED_SCN_STR, "%s", optarg);
			break;
		case 'P':
			if (strlen(optarg) >= BED_SCN_STR) {
				cli_err("--preset: name too long");
				goto out;
			}
			snprintf(w->scn.preset, sizeof(w->scn.preset), "%s", optarg);
			preset_given = true;
			break;
		case 'S': {
			unsigned long v;

			if (bed_parse_uint(optarg, 0, ~0UL, &v)) {
				cli_err("--seed: '%.64s' is not a whole number", optarg);
				goto out;
			}
			w->scn.seed = v;
			seed_given = true;
			break;
		}
		case 'a':
			/* --at T "ARGS": the command is the next word, even when
			 * it starts with '-' as ethtool's options do */
			if (optind >= argc) {
				cli_err("--at %.32s: no ethtool command after the time", optarg);
				goto out;
			}
			if (bed_scenario_add_at(&w->scn, optarg, argv[optind], err, sizeof(err))) {
				cli_err("--at: %s", err);
				goto out;
			}
			keep[nkeep++] = "--at";         /* room checked above */
			keep[nkeep++] = optarg;
			keep[nkeep++] = argv[optind++];
			break;
		case 'J':
			json = true;
			cli_json_begin();
			break;
		case 'j': {
			unsigned long v;

			if (bed_parse_uint(optarg, 1, 256, &v)) {
				cli_err("-j: '%.64s' is not a number of processes (1-256)", optarg);
				goto out;
			}
			so.jobs = (unsigned)v;
			jobs_given = true;
			break;
		}
		case 'E':
			if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm")) {
				cli_err("--emit: '%.64s' is not parallel or slurm", optarg);
				goto out;
			}
			so.emit = optarg;
			break;
		case 'D':
			if (!optarg[0] || strlen(optarg) >= BED_SCN_STR) {
				cli_err("--emit-dir: an empty or too long name");
				goto out;
			}
			so.emit_dir = optarg;
			emit_dir_given = true;
			break;
		case 'I': {
			unsigned long v;

			if (bed_parse_uint(optarg, 0, RPT_SWEEP_MAX - 1, &v)) {
				cli_err("--point: '%.64s' is not a point number (0-%d)", optarg,
					RPT_SWEEP_MAX - 1);
				goto out;
			}
			so.point = (int)v;
			break;
		}
		case 'O':
			if (!optarg[0]) {
				cli_err("--point-json: an empty file name");
				goto out;
			}
			so.point_json = optarg;
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
		case 'R':
			regime = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		case 'K':
			help_keys(stdout);
			rc = 0;
			goto out;
		default:
			cli_err("run: unknown or incomplete option '%.64s' (try --help)",
				argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		struct bed_scenario file = w->scn;

		keep[nkeep++] = argv[optind];           /* room kept above */
		if (optind + 1 < argc) {
			cli_err("run: one scenario file at most ('%.64s' is extra)", argv[optind + 1]);
			goto out;
		}
		/* the file's keys come first, command-line options win */
		bed_scenario_default(&file);
		if (bed_scenario_load(&file, argv[optind], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
		if (w->scn.pcap[0])
			snprintf(file.pcap, sizeof(file.pcap), "%s", w->scn.pcap);
		if (file.n_ethtool + w->scn.n_ethtool > BED_SCN_MAX_ETHTOOL) {
			cli_err("--ethtool: more than %d ethtool commands with the scenario's",
				BED_SCN_MAX_ETHTOOL);
			goto out;
		}
		for (unsigned i = 0; i < w->scn.n_ethtool; i++)
			snprintf(file.ethtool[file.n_ethtool++], BED_SCN_STR, "%s", w->scn.ethtool[i]);
		/* --at after the file's timeline.at */
		for (unsigned i = 0; i < w->scn.n_at; i++) {
			char t[32];

			snprintf(t, sizeof(t), "%.17g", w->scn.at_s[i]);
			if (bed_scenario_add_at(&file, t, w->scn.at_cmd[i], err, sizeof(err))) {
				cli_err("--at: %s", err);
				goto out;
			}
		}
		if (preset_given)
			snprintf(file.preset, sizeof(file.preset), "%s", w->scn.preset);
		if (seed_given)
			file.seed = w->scn.seed;
		w->scn = file;
	}
	if (regime) {
		const struct bed_scn_regime *rg = bed_scenario_regime(&w->scn, regime);

		if (!rg) {
			cli_err("--regime: the scenario has no regime '%.32s'", regime);
			goto out;
		}
		bed_scenario_apply_regime(&w->scn, rg);
	}
	pre = w->scn;
	for (unsigned i = 0; i < nsets; i++) {
		size_t used = strlen(w->compare_sets);

		if (bed_scenario_set(&w->scn, sets[i], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
		/* the seed picks a run of the same setup; anything else changes
		 * what the seed rows measured */
		if (!strncmp(sets[i], "run.seed=", 9) ||
		    (used >= 3 && !strcmp(w->compare_sets + used - 3, "...")))
			continue;
		/* whole assignments only; "..." for those that do not fit */
		if (used + 2 + strlen(sets[i]) + 5 < sizeof(w->compare_sets))
			snprintf(w->compare_sets + used, sizeof(w->compare_sets) - used,
				 "%s%s", used ? ", " : "", sets[i]);
		else
			snprintf(w->compare_sets + used, sizeof(w->compare_sets) - used,
				 "%s...", used ? ", " : "");
	}
	if (plot && !sweep) {
		cli_err("--plot: only with --sweep");
		goto out;
	}
	if (!sweep && (jobs_given || so.emit || emit_dir_given || so.point >= 0 ||
		       so.point_json)) {
		cli_err("-j, --emit, --emit-dir, --point and --point-json: only with --sweep");
		goto out;
	}
	if (emit_dir_given && !so.emit) {
		cli_err("--emit-dir: only with --emit");
		goto out;
	}
	if ((so.point >= 0) != (so.point_json != NULL)) {
		cli_err("--point and --point-json: both or neither");
		goto out;
	}
	if ((so.emit || so.point >= 0) && (jobs_given || plot || json ||
					   (so.emit && so.point >= 0))) {
		cli_err("--emit and --point: not with -j, --plot, --json or each other");
		goto out;
	}
	if (w->compare && bed_pci_chip(w->scn.chip) && bed_pci_chip(w->scn.chip)->whatif) {
		cli_err("--compare: %s is a what-if chip, not real hardware: no "
			"EXPERIMENTS.md row measured it", w->scn.chip);
		goto out;
	}
	if (w->compare && !w->scn.bed_compare_rows[0]) {
		cli_err("--compare: this scenario names no EXPERIMENTS.md rows (compare.rows; "
			"the scenarios/e*.ini files do)");
		goto out;
	}
	if (sweep) {
		if (w->compare) {
			cli_err("--sweep: prints its own table (no --compare)");
			goto out;
		}
		if (pre.n_regimes && (json || so.jobs > 1 || so.emit || so.point >= 0)) {
			cli_err("--sweep: a scenario with regimes sweeps them in one process, "
				"without --json, -j, --emit or --point (or pick one with --regime)");
			goto out;
		}
		so.plot = plot;
		so.json = json;
		so.argc = nkeep;
		so.argv = keep;
		if (pre.n_regimes)
			rc = cli_run_regime_sweep(&pre, sets, nsets, sweep, plot);
		else
			rc = cli_run_sweep(&w->scn, sweep, &so);
		goto out;
	}
	if (pre.n_regimes)
		fprintf(stderr, "rxscale: note: the scenario's %u regimes are not run "
			"(--sweep runs them all, --regime NAME one of them)\n", pre.n_regimes);
	if (!w->scn.pcap[0]) {
		if ((w->compare && cli_compare_reference(w)) || bed_world_up(w) || cli_world_ethtool(w, json ? stderr : stdout))
			goto out;
		rc = cli_run_iperf3(w, json, NULL);
		if (rc < 0)
			rc = 1;
		goto out;
	}
	rc = cli_run_replay(w, json);
out:
	cli_world_down(w);
	free(w);
	return cli_json_end(rc);
}
