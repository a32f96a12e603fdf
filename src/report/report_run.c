// SPDX-License-Identifier: MIT
/*
 * report_run.c - the run header and the order of a text report's blocks.
 */
#include <linux/netdevice.h>

#include "report/report.h"

#include <string.h>

#include "ethtool/ethtool_cmd.h"

void report_head(FILE *out, const struct rpt_run *r)
{
	const struct rpt_head *h = &r->head;

	char asked[96] = "";

	if (h->queues_asked)
		snprintf(asked, sizeof(asked), " (nic.rx_queues=%u asked; the driver set up %u, "
			 "its most here)", h->queues_asked, h->probe_queues);
	fprintf(out, "rxscale run: %s, %u RX queue%s%s, RSS %s, %u CPU%s, preset %s, seed %llu\n",
		h->chip, h->queues, h->queues == 1 ? "" : "s", asked, h->rss ? "on" : "off",
		h->cpus, h->cpus == 1 ? "" : "s", h->preset, (unsigned long long)h->seed);
	if (h->whatif)
		fprintf(out, "note: %s is a %s\n", h->chip, h->whatif);
}

void report_ethtool_stats(FILE *out, struct net_device *dev)
{
	char cmd[8 + IFNAMSIZ];

	snprintf(cmd, sizeof(cmd), "-S %s", dev->name);
	fprintf(out, "# ethtool %s\n", cmd);
	ethtool_cmd_run(dev, cmd, out, stderr);
}

void report_text_head(FILE *out, const struct rpt_run *r)
{
	report_head(out, r);
	report_iperf3_cmdline(out, r);
	fflush(out);
}

void report_text(FILE *out, const struct rpt_run *r, struct net_device *dev)
{
	report_iperf3(out, r);
	report_ping(out, r);
	report_timeline(out, r);
	report_mpstat(out, r);
	report_top(out, r);
	report_cpuidle(out, r);
	fputc('\n', out);
	fflush(out);
	report_ethtool_stats(out, dev);
	if (r->compare)
		report_compare(out, r);
}

void report_replay_text(FILE *out, const struct rpt_run *r, struct net_device *dev)
{
	report_head(out, r);
	report_replay(out, r);
	report_mpstat(out, r);
	fputc('\n', out);
	fflush(out);
	report_ethtool_stats(out, dev);
}
