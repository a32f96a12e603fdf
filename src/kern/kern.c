// SPDX-License-Identifier: MIT
/* kern.c - what every part of the kernel asks of the running instance:
 * printk, the clock, the current CPU, udelay, boot-time randomness, the
 * spinlock check.  kern_init()/kern_fini() are boot.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ktime.h>
#include <linux/netdevice.h>
#include <linux/timer.h>

#include "kern/kern.h"
#include "kern/irq_internal.h"

struct kern *kern;

void kern_printk(int level, const char *fmt, ...)
{
	va_list ap;
	u64 t = kern ? sim_now(kern->sim) : 0;

	if (!kern)
		return;
	va_start(ap, fmt);
	vsnprintf(kern->last_log, sizeof(kern->last_log), fmt, ap);
	va_end(ap);
	if (level <= KERN_ERR_LVL)
		kern->log_errors++;
	if (kern->log)
		fprintf(kern->log, "[%5llu.%06llu] %s",
			(unsigned long long)(t / 1000000000u),
			(unsigned long long)(t % 1000000000u / 1000u),
			kern->last_log);
}

_Static_assert(sizeof(struct cpumask) == sizeof(struct sim_cpuset) &&
	       NR_CPUS == SIM_CPUS_MAX, "struct cpumask is the platform's CPU set");
_Static_assert(KERN_PCI_MSIX_MAX >= PLAT_PCI_MSIX_MAX,
	       "pci_dev holds every vector the platform can serve");

u64 ktime_get_ns(void)
{
	return sim_now(kern->sim);
}

ktime_t ktime_get(void)
{
	return (ktime_t)sim_now(kern->sim);
}

unsigned int smp_processor_id(void)
{
	int c = sim_current_cpu(kern->host);

	return c < 0 ? 0 : (unsigned int)c;
}

unsigned int num_online_cpus(void)
{
	return kern->host->params.ncpus;
}

/* One single-CPU mask per CPU, as Linux's cpu_bit_bitmap: a constant
 * table, built at compile time so that any thread may read it. */
#define ONE_(c) [c] = { .bits = { [(c) / BITS_PER_LONG] = 1UL << ((c) % BITS_PER_LONG) } }
#define ONE4_(c) ONE_(c), ONE_((c) + 1), ONE_((c) + 2), ONE_((c) + 3)
#define ONE16_(c) ONE4_(c), ONE4_((c) + 4), ONE4_((c) + 8), ONE4_((c) + 12)
#define ONE64_(c) ONE16_(c), ONE16_((c) + 16), ONE16_((c) + 32), ONE16_((c) + 48)
static const struct cpumask cpu_one[NR_CPUS] = {
	ONE64_(0), ONE64_(64), ONE64_(128), ONE64_(192),
};
_Static_assert(NR_CPUS == 256, "cpu_one[] lists 256 CPUs");

const struct cpumask *cpumask_of(unsigned int cpu)
{
	return &cpu_one[cpu < NR_CPUS ? cpu : 0];
}

/*
 * A busy wait.  On a simulated CPU it is CPU time charged to the running
 * frame: the frame's clock moves on, so a device register read after it
 * sees what the device did meanwhile (a model completes a command whose
 * time has come when it is read, e.g. the tally dump).  Outside every
 * CPU and outside the event loop (a test, or the CLI once a run is over)
 * time passes for the devices: the engine runs to now + @usecs.  From an
 * event callback outside any CPU (no driver code runs there) neither is
 * possible and the wait costs nothing.
 */
void udelay(unsigned long usecs)
{
	if (sim_current_cpu(kern->host) < 0 && !sim_running(kern->sim)) {
		sim_run_until(kern->sim, sim_now(kern->sim) + (u64)usecs * 1000u);
		return;
	}
	kern_charge_ps((u64)usecs * 1000000u);
}

void netdev_rss_key_fill(void *buf, size_t len)
{
	if (!kern->rss_key_filled) {
		sim_rng_bytes(&kern->rng, kern->rss_key, sizeof(kern->rss_key));
		kern->rss_key_filled = true;
	}
	if (len > sizeof(kern->rss_key))
		len = sizeof(kern->rss_key);
	memcpy(buf, kern->rss_key, len);
}

/* ----- spinlocks (kern/spinlock.h) ----- */

bool kern_spin_single_thread = true;

void kern_spin_deadlock(spinlock_t *lock)
{
	fprintf(stderr, "BUG: spinlock %p taken again by its holder "
		"(self-deadlock in a single-threaded kernel)\n", (void *)lock);
	abort();
}
