// SPDX-License-Identifier: MIT
/* load_busy.c - CPU-bound tasks on the host (see load_busy.h). */
#include <errno.h>

#include "load/load_busy.h"

static enum sim_task_ret busy_run(struct sim_task *t, void *arg)
{
	struct load_busy *b = arg;

	(void)t;
	sim_charge_usr_ps(b->host, (uint64_t)LOAD_BUSY_CHUNK_NS * 1000);
	return SIM_TASK_RUNNABLE;
}

int load_busy_start(struct load_busy *b, struct sim_host *host, unsigned n)
{
	struct sim_cpuset all;

	if (n > LOAD_BUSY_MAX)
		return -EINVAL;
	b->host = host;
	b->n = n;
	sim_cpuset_first_n(&all, host->params.ncpus);
	for (unsigned i = 0; i < n; i++) {
		sim_task_init(host, &b->task[i], "stress-ng-cpu", busy_run, b, &all);
		sim_task_wake(&b->task[i]);
	}
	return 0;
}

uint64_t load_busy_cpu_ns(const struct load_busy *b)
{
	uint64_t ns = 0;

	for (unsigned i = 0; i < b->n; i++)
		for (int k = 0; k < SIM_ACCT_NR; k++)
			ns += b->task[i].ns[k];
	return ns;
}

void load_busy_stop(struct load_busy *b)
{
	for (unsigned i = 0; i < b->n; i++)
		sim_task_fini(&b->task[i]);
	b->n = 0;
}
