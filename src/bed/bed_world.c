// SPDX-License-Identifier: MIT
/*
 * bed_world.c - bring the testbed's simulated system up and down:
 * the cost preset, host CPUs, the kernel API, the NIC (bed_nic.c), and
 * the scenario's ethtool commands before any traffic.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bed/bed_host.h"
#include "bed/bed_util.h"
#include "bed/bed_world.h"
#include "ethtool/ethtool_cmd.h"
#include "sim/sim_idle.h"

#ifndef RXSCALE_PRESETS_DIR
#define RXSCALE_PRESETS_DIR "presets"
#endif

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int load_preset(struct bed_world *w)
{
	char path[600], err[512];

	if (!strcmp(w->scn.preset, "default")) {
		sim_cost_load_default(&w->cost);
		return 0;
	}
	if (strchr(w->scn.preset, '/') || strstr(w->scn.preset, ".ini")) {
		snprintf(path, sizeof(path), "%s", w->scn.preset);
	} else {
		snprintf(path, sizeof(path), "%s/%s.ini", RXSCALE_PRESETS_DIR, w->scn.preset);
		if (access(path, R_OK)) {
			/* a name: say which names there are, sorted */
			char list[1200] = "default", names[16][64];
			unsigned nn = 0;
			DIR *d = opendir(RXSCALE_PRESETS_DIR);
			struct dirent *e;

			while (d && (e = readdir(d)) && nn < 16) {
				size_t l = strlen(e->d_name);

				if (l > 4 && l < 60 && !strcmp(e->d_name + l - 4, ".ini") &&
				    strcmp(e->d_name, "default.ini"))
					snprintf(names[nn++], sizeof(names[0]), "%.*s",
						 (int)(l - 4), e->d_name);
			}
			if (d)
				closedir(d);
			qsort(names, nn, sizeof(names[0]), cmp_name);
			for (unsigned i = 0; i < nn; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 ", %.60s", names[i]);
			bed_err("host.preset: no preset '%s' (there are: %s; or give a path "
				"to an .ini file)", w->scn.preset, list);
			return -1;
		}
	}
	if (sim_cost_load_file(&w->cost, path, err, sizeof(err))) {
		bed_err("%s", err);
		return -1;
	}
	return 0;
}

int bed_world_up(struct bed_world *w)
{
	struct sim_host_params p;
	int rc;

	w->nic = bed_nic_for_chip(w->scn.chip);
	if (!w->nic) {
		bed_err("nic.chip: unknown chip '%s' (RTL8125A, RTL8125B, RTL8125D, "
			"RTL8126A, RTL8127A, RTL8157, RTL8159; the what-if WHATIF-256Q)",
			w->scn.chip);
		return -1;
	}
	w->chip = bed_pci_chip(w->scn.chip);
	for (unsigned i = 0; i < rtl_usb_chips_count; i++)
		if (!strcasecmp(rtl_usb_chips[i].name, w->scn.chip))
			w->uchip = &rtl_usb_chips[i];
	/* keys the chosen NIC does not have are errors, not silent no-ops */
	if (w->chip && (w->scn.usb_link_mbps != 20000 || w->scn.usb_imod_ns != 40000 ||
			w->scn.usb_rx_usecs != -1 || w->scn.usb_mitigation_off)) {
		bed_err("usb.*: these keys apply to the USB chips (RTL8157, RTL8159), not to %s",
			w->chip->name);
		return -1;
	}
	if (w->uchip && (w->scn.rx_queues > 1 || w->scn.ownbit_erratum ||
			 w->scn.ownbit_workaround != -1)) {
		bed_err("nic.rx_queues/nic.ownbit_*: these keys apply to the PCIe chips; "
			"the %s has one RX queue", w->uchip->name);
		return -1;
	}
	if (bed_faults_check(w) || load_preset(w))
		return -1;
	/* the devices' own oscillators (sim_clock.c): the xHC's timers and
	 * link from the PCIe reference clock, the NIC's (or adapter's)
	 * crystal, the peer NIC's transmitter */
	w->clk_xhci = sim_clock_draw(w->scn.seed, "xhci", SIM_CLOCK_PCIE_PPM,
				     w->scn.clock_drift);
	w->clk_nic = sim_clock_draw(w->scn.seed, "nic", SIM_CLOCK_ETH_PPM,
				    w->scn.clock_drift);
	w->clk_peer = sim_clock_draw(w->scn.seed, "peer", SIM_CLOCK_ETH_PPM,
				     w->scn.clock_drift);
	sim_init(&w->sim);
	sim_host_params_default(&p, w->scn.cpus);
	if (w->scn.speed[0]) {
		char tmp[BED_SCN_STR], *tok, *save = NULL;
		unsigned c = 0;

		snprintf(tmp, sizeof(tmp), "%s", w->scn.speed);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save), c++) {
			if (c >= w->scn.cpus) {
				bed_err("host.speed: more speeds than the %u CPUs", w->scn.cpus);
				return -1;
			}
			p.speed_ppm[c] = (uint32_t)(strtod(tok, NULL) * 1e6 + 0.5);
		}
	}
	p.seed = w->scn.seed;
	p.pkg_cstates = w->scn.pkg_cstates;
	if (w->scn.cpus % w->scn.smt) {
		bed_err("host.smt: %u threads per core do not divide the %u CPUs",
			w->scn.smt, w->scn.cpus);
		return -1;
	}
	p.smt = w->scn.smt;
	p.dram_latency_ps = w->cost.dram_latency_ps;
	p.idle = sim_idle_table_find(w->scn.cpuidle[0] ? w->scn.cpuidle :
				     w->cost.cpuidle[0] ? w->cost.cpuidle : "none");
	if (p.idle && p.idle->n == 1 && !p.idle->s[0].exit_latency_us)
		p.idle = NULL;          /* "none": nothing to wait for */
	if (bed_host_start(&w->sim, &w->cost, &p, w->scn.seed, &w->host, &w->k)) {
		bed_err("out of memory");
		return -1;
	}
	if (w->scn.irq_cpus[0]) {
		struct sim_cpuset set;

		if (sim_cpuset_parse(&set, w->scn.irq_cpus, w->scn.cpus) ||
		    kern_irq_restrict(&w->k, &set)) {
			bed_err("host.irq_cpus: '%s' is not a CPU list within 0-%u",
				w->scn.irq_cpus, w->scn.cpus - 1);
			return -1;
		}
	}
	bed_faults_probe(w);
	if (w->nic->up(w))
		return -1;
	if (w->scn.rx_queues && w->nic->nqueues(w) != w->scn.rx_queues)
		fprintf(stderr, "rxscale: note: nic.rx_queues=%u asked, the driver set up %u on "
			"the %s with %u CPUs\n", w->scn.rx_queues, w->nic->nqueues(w),
			w->nic->chip_name(w), w->scn.cpus);
	rc = dev_open(w->dev, NULL);
	if (rc) {
		bed_err("cannot bring %s up: %s", w->dev->name, strerror(-rc));
		return -1;
	}
	if (w->scn.rx_usecs != BED_SCN_RX_USECS_DEFAULT) {
		/* nic.rx_usecs, as a user sets it */
		char cmd[64];

		if (w->scn.rx_usecs == BED_SCN_RX_USECS_ADAPTIVE)
			snprintf(cmd, sizeof(cmd), "-C %s adaptive-rx on", w->dev->name);
		else
			snprintf(cmd, sizeof(cmd), "-C %s rx-usecs %d", w->dev->name,
				 w->scn.rx_usecs);
		if (ethtool_cmd_run(w->dev, cmd, stdout, stderr)) {
			bed_err("nic.rx_usecs: ethtool %s failed", cmd);
			return -1;
		}
	}
	return 0;
}

void bed_world_down(struct bed_world *w)
{
	load_busy_stop(&w->busy);
	if (w->ip_up)
		iperf3_fini(&w->ip);
	if (w->pg_up)
		ping_fini(&w->pg);
	if (w->wire_up)
		load_wire_fini(&w->wire);
	if (w->nic)
		w->nic->down(w);
	if (w->host) {
		kern_fini(&w->k);
		sim_host_destroy(w->host);
		sim_fini(&w->sim);
	}
	/* the device's close freed the skbs that point at the streams */
	if (w->ip_up)
		iperf3_release(&w->ip);
	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		free(w->q_flows[q].slot);
	rss_thash_fini(&w->key);
}

/* Run the scenario's ethtool commands in order.  What a command prints
 * goes to @out under a "# ethtool ARGS" line, as a shell transcript shows
 * it (stderr with --json, so stdout stays one JSON document), or nowhere
 * when @out is NULL (a sweep's check pass). */
int bed_world_ethtool_check(struct bed_world *w, const char *args, char **msg)
{
	char dev[64] = "";
	size_t len = 0;
	FILE *err;
	int rc;

	*msg = NULL;
	err = open_memstream(msg, &len);
	if (!err)
		return -1;
	rc = ethtool_cmd_check(w->dev, args, err);
	/* the device word: ethtool's second argument */
	if (!rc && sscanf(args, "%*s %63s", dev) == 1 && strcmp(dev, w->dev->name)) {
		fprintf(err, "no device '%s' (the interface is %s)", dev, w->dev->name);
		rc = -1;
	}
	fclose(err);
	if (!rc) {
		free(*msg);
		*msg = NULL;
		return 0;
	}
	/* ethtool's message on one line, its lines joined by "; " */
	while (len && (*msg)[len - 1] == '\n')
		(*msg)[--len] = 0;
	{
		char *one = malloc(2 * len + 1), *o = one;

		for (size_t j = 0; one && j < len; j++) {
			if ((*msg)[j] == '\n') {
				*o++ = ';';
				*o++ = ' ';
			} else {
				*o++ = (*msg)[j];
			}
		}
		if (one) {
			*o = 0;
			free(*msg);
			*msg = one;
		}
	}
	return -1;
}

int bed_world_ethtool(struct bed_world *w, FILE *out)
{
	int rc = 0;

	/* every command's syntax first: a mistyped one is bad input, and
	 * nothing runs (a query that fails at run time is exit 3, below) */
	for (unsigned i = 0; i < w->scn.n_ethtool; i++) {
		char *msg;

		if (bed_world_ethtool_check(w, w->scn.ethtool[i], &msg)) {
			bed_err("--ethtool %s: %s", w->scn.ethtool[i], msg ? msg : "out of memory");
			free(msg);
			return -1;
		}
	}

	for (unsigned i = 0; i < w->scn.n_ethtool && !rc; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		if (!mem) {
			bed_err("out of memory");
			return -1;
		}
		rc = ethtool_cmd_run(w->dev, w->scn.ethtool[i], mem, stderr);
		fclose(mem);
		if (out && len) {
			fprintf(out, "# ethtool %s\n", w->scn.ethtool[i]);
			fwrite(text, 1, len, out);
			/* a blank line closes each block, as before the run's
			 * header or the next command */
			fputc('\n', out);
		}
		free(text);
		if (rc && ethtool_cmd_is_query(w->scn.ethtool[i])) {
			/* a query changed nothing: say so, go on, exit 3 */
			fprintf(stderr, "rxscale: ethtool %s: failed (exit %d); a query, so the "
				"run goes on\n", w->scn.ethtool[i], rc);
			w->failed_queries++;
			rc = 0;
		} else if (rc) {
			bed_err("ethtool %s: failed (exit %d); the run stops before any "
				"traffic", w->scn.ethtool[i], rc);
		}
	}
	return rc ? -1 : 0;
}
