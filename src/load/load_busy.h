/* SPDX-License-Identifier: MIT */
/*
 * load_busy.h - CPU load on the host: N tasks that only compute, as
 * `stress-ng --cpu N` runs them (one worker process each, any CPU, normal
 * priority).  They compete with the iperf3 server and with ksoftirqd for
 * the CPUs through the host's fair scheduler, so whatever the network
 * path costs in softirq and interrupt time is time they and the
 * application do not get.
 *
 * Each task runs user code in chunks of LOAD_BUSY_CHUNK_NS and never
 * sleeps; a chunk is the scheduler's grain (a wakeup waits at most that
 * long on a busy CPU).
 */
#ifndef RXSCALE_LOAD_BUSY_H
#define RXSCALE_LOAD_BUSY_H

#include "sim/sim_host.h"

#define LOAD_BUSY_MAX 64
#define LOAD_BUSY_CHUNK_NS 100000       /* 100 us of user time per chunk */

struct load_busy {
	struct sim_host *host;
	unsigned n;
	struct sim_task task[LOAD_BUSY_MAX];
};

/* Start @n tasks ("stress-ng-cpu") on @host.  0, or -EINVAL if @n >
 * LOAD_BUSY_MAX. */
int load_busy_start(struct load_busy *b, struct sim_host *host, unsigned n);

/* Their CPU time so far, all tasks, ns. */
uint64_t load_busy_cpu_ns(const struct load_busy *b);

void load_busy_stop(struct load_busy *b);

#endif /* RXSCALE_LOAD_BUSY_H */
