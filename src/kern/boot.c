// SPDX-License-Identifier: MIT
/*
 * boot.c - bring the kernel instance up and down: its memory, randomness
 * and sysctls, then each part in turn (timers, the workqueue, softirqs,
 * NAPI and the netdev softirqs; interrupts, skbs at the end).  The parts
 * use the running instance (kern.c) and never call back here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netdevice.h>
#include <linux/timer.h>

#include "kern/kern.h"
#include "kern/irq_internal.h"

void kern_napi_init_softirq(void);
void kern_netdev_init_softirq(void);
int kern_timer_init(struct kern *k);
void kern_timer_fini(struct kern *k);

int kern_init(struct kern *k, struct sim_host *host, uint64_t seed)
{
	unsigned n = host->params.ncpus;

	memset(k, 0, sizeof(*k));
	k->sim = host->sim;
	k->host = host;
	plat_mem_init(&k->mem);
	sim_rng_init(&k->rng, seed, sim_rng_stream_id("kernel"));
	k->netdev_budget = 300;                 /* net.core.netdev_budget */
	/* net.core.netdev_budget_usecs: 2 * USEC_PER_SEC / HZ, "at least 2
	 * jiffies to guarantee 1 jiffy timeout" (net/core/hotdata.c) */
	k->netdev_budget_usecs = 2 * 1000000 / HZ;
	k->dev_weight = NAPI_POLL_WEIGHT;       /* net.core.dev_weight */
	sim_cpuset_first_n(&k->irq_cpus, n);
	k->fault.msix_avail = -1;
	k->irq_desc = calloc(KERN_NR_IRQS, sizeof(*k->irq_desc));
	k->sd = calloc(n, sizeof(*k->sd));
	if (!k->irq_desc || !k->sd || kern_timer_init(k) || kern_workqueue_init(k)) {
		kern_timer_fini(k);
		free(k->irq_desc);
		free(k->sd);
		return -ENOMEM;
	}
	kern = k;
	if (kern_softirq_init(k)) {
		kern_fini(k);
		return -ENOMEM;
	}
	kern_napi_init_softirq();
	kern_netdev_init_softirq();
	return 0;
}

void kern_fini(struct kern *k)
{
	for (unsigned i = 0; i < KERN_NR_IRQS; i++)
		if (k->irq_desc[i].allocated)
			kern_irq_release(&k->irq_desc[i]);
	kern_workqueue_fini(k);
	kern_softirq_fini(k);
	kern_skb_pool_fini(k);
	plat_mem_fini(&k->mem);
	kern_timer_fini(k);
	free(k->irq_desc);
	free(k->sd);
	if (kern == k)
		kern = NULL;
}
