/* SPDX-License-Identifier: MIT */
/*
 * bed_host.h - the host part of a testbed: the engine, a cost preset,
 * the host's CPUs and the kernel API on them, without a NIC.  A world
 * (bed_world.h) builds its host this way from the scenario; the tests of
 * the kernel API, of the device models through it and of the drivers on
 * models they configure themselves build theirs with bed_host_up().
 */
#ifndef RXSCALE_BED_HOST_H
#define RXSCALE_BED_HOST_H

#include <stdint.h>

#include "kern/kern.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

/* A host and its kernel, as one object. */
struct bed_host {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct kern k;
};

/* On @sim (initialised) with the costs @cost: the CPUs @p describes, and
 * the kernel API on them seeded with @seed, in *@host and @k.  0, or -1
 * (out of memory) with nothing created. */
int bed_host_start(struct sim *sim, const struct sim_cost *cost,
		   const struct sim_host_params *p, uint64_t seed,
		   struct sim_host **host, struct kern *k);

/* @h whole: the engine, the default cost preset, the CPUs @p describes
 * and the kernel seeded with @seed.  0, or -1 (out of memory) with
 * nothing left up. */
int bed_host_up(struct bed_host *h, const struct sim_host_params *p, uint64_t seed);
void bed_host_down(struct bed_host *h);

#endif /* RXSCALE_BED_HOST_H */
