// SPDX-License-Identifier: MIT
/*
 * cli_world.c - what `rxscale run` adds to the testbed's world
 * (src/bed/bed_world.c builds it): the timeline's check after the
 * scenario's ethtool commands, its teardown before the world's, and what
 * every report shows of the system.
 */
#include "cli/cli_world.h"

int cli_world_ethtool(struct bed_world *w, FILE *out)
{
	/* what the driver set up at probe, before a command changes it */
	w->probe_queues = w->nic->nqueues(w);
	/* then the timeline's syntax, before any traffic */
	return bed_world_ethtool(w, out) || cli_timeline_check(w) ? -1 : 0;
}

void cli_world_down(struct bed_world *w)
{
	cli_timeline_free(w);
	bed_world_down(w);
}

/* What every report shows of the system: the header, the drop reasons
 * and the driver's per-queue counters. */
void cli_world_report(struct bed_world *w, struct rpt_run *r)
{
	r->head = (struct rpt_head){
		.chip = w->nic->chip_name(w), .whatif = w->chip ? w->chip->whatif : NULL,
		.bus = w->nic->bus, .preset = w->cost.name,
		.queues = w->nic->nqueues(w), .cpus = w->scn.cpus,
		/* nic.rx_queues=N that the driver could not meet at probe */
		.queues_asked = w->scn.rx_queues > w->probe_queues ? w->scn.rx_queues : 0,
		.probe_queues = w->probe_queues,
		.rss = w->nic->rss_on(w), .seed = w->scn.seed,
		.duration_s = w->scn.duration_s,
	};
	r->ndrops = w->nic->drop_reasons(w, r->drops);
	r->nqueues = w->nic->nqueues(w);
	for (unsigned q = 0; q < r->nqueues; q++) {
		u64 packets, bytes, drops;

		w->nic->queue(w, q, &packets, &bytes, &drops);
		r->q[q] = (struct rpt_queue){ packets, bytes, drops };
	}
	r->ncpus = w->scn.cpus;
	r->idle = w->host->params.idle;
	memset(r->idle_usage, 0, sizeof(r->idle_usage));
	r->idle_ticks = r->idle_exit_ns = 0;
	for (unsigned c = 0; r->idle && c < w->scn.cpus; c++) {
		uint64_t u[SIM_IDLE_MAX_STATES], t, e;

		sim_host_idle(w->host, c, u, &t, &e);
		for (unsigned k = 0; k < SIM_IDLE_MAX_STATES; k++)
			r->idle_usage[k] += u[k];
		r->idle_ticks += t;
		r->idle_exit_ns += e;
	}
}
