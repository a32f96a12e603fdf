// SPDX-License-Identifier: MIT
/*
 * bed_host.c - a testbed's host: the engine, the costs, the CPUs and
 * the kernel API, in the order each needs the one before.
 */
#include "bed/bed_host.h"

int bed_host_start(struct sim *sim, const struct sim_cost *cost,
		   const struct sim_host_params *p, uint64_t seed,
		   struct sim_host **host, struct kern *k)
{
	*host = sim_host_create(sim, cost, p);
	if (!*host)
		return -1;
	if (kern_init(k, *host, seed)) {
		sim_host_destroy(*host);
		*host = NULL;
		return -1;
	}
	return 0;
}

int bed_host_up(struct bed_host *h, const struct sim_host_params *p, uint64_t seed)
{
	sim_init(&h->sim);
	sim_cost_load_default(&h->cost);
	if (bed_host_start(&h->sim, &h->cost, p, seed, &h->host, &h->k)) {
		sim_fini(&h->sim);
		return -1;
	}
	return 0;
}

void bed_host_down(struct bed_host *h)
{
	if (!h->host)
		return;
	kern_fini(&h->k);
	sim_host_destroy(h->host);
	h->host = NULL;
	sim_fini(&h->sim);
}
