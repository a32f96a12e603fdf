// SPDX-License-Identifier: MIT
/* irq.c - Linux irq numbers over the simulated host's interrupts. */
#include <errno.h>
#include <string.h>

#include "kern/kern.h"
#include "kern/irq_internal.h"

struct kern_irq_desc *kern_irq_to_desc(unsigned int irq)
{
	unsigned i = irq - KERN_IRQ_BASE;

	if (!kern || irq < KERN_IRQ_BASE || i >= KERN_NR_IRQS ||
	    !kern->irq_desc[i].allocated)
		return NULL;
	return &kern->irq_desc[i];
}

static unsigned next_irq_cpu(struct kern *k)
{
	unsigned n = k->host->params.ncpus;
	unsigned c = sim_cpuset_next(&k->irq_cpus, k->irq_next);

	if (c >= n)
		c = sim_cpuset_next(&k->irq_cpus, 0);
	if (c >= n)
		c = 0;
	k->irq_next = c + 1;
	return c;
}

unsigned int cpumask_local_spread(unsigned int i, int node)
{
	unsigned w = sim_cpuset_weight(&kern->irq_cpus), c = 0;

	(void)node;
	if (!w)
		return i % num_online_cpus();
	i %= w;
	for (c = sim_cpuset_next(&kern->irq_cpus, 0); i; i--)
		c = sim_cpuset_next(&kern->irq_cpus, c + 1);
	return c;
}

static void dispatch(struct sim_irq *sirq, void *arg)
{
	struct kern_irq_desc *d = arg;
	irqreturn_t ret;

	(void)sirq;
	if (d->depth > 0) {
		/* lazy disable (MSI/INTx): remember, replay on enable */
		d->pending = true;
		return;
	}
	if (!d->handler) {
		kern->warn.irq_unhandled++;
		return;
	}
	ret = d->handler((int)d->irq, d->dev_id);
	if (ret == IRQ_NONE)
		kern->warn.irq_unhandled++;
}

static void intx_eoi(struct sim_irq *sirq, void *arg)
{
	struct kern_irq_desc *d = arg;

	/* a level line still asserted interrupts again once enabled */
	if (d->depth == 0 && d->pdev && d->pdev->sim->intx_level)
		sim_irq_raise(sirq);
}

struct kern_irq_desc *kern_irq_alloc(struct pci_dev *pdev, int msix_entry)
{
	for (unsigned i = 0; i < KERN_NR_IRQS; i++) {
		struct kern_irq_desc *d = &kern->irq_desc[i];
		char name[32];

		if (d->allocated)
			continue;
		memset(d, 0, sizeof(*d));
		d->allocated = true;
		d->irq = KERN_IRQ_BASE + i;
		d->pdev = pdev;
		d->msix_entry = msix_entry;
		snprintf(name, sizeof(name), "irq%u", d->irq);
		sim_irq_init(kern->host, &d->sim, name, dispatch, d,
			     next_irq_cpu(kern));
		return d;
	}
	return NULL;
}

void kern_irq_make_intx(struct kern_irq_desc *d)
{
	d->sim.eoi = intx_eoi;
	d->sim.eoi_arg = d;
}

void kern_irq_release(struct kern_irq_desc *d)
{
	sim_irq_fini(&d->sim);
	d->allocated = false;
	d->handler = NULL;
}

static void mask(struct kern_irq_desc *d, bool m)
{
	if (d->msix_entry >= 0 && d->pdev)
		plat_pci_msix_mask(d->pdev->sim, (unsigned)d->msix_entry, m);
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	(void)flags;
	if (!d || !handler)
		return -EINVAL;
	if (d->handler)
		return -EBUSY;
	/* the irqaction allocation (fault knob) */
	if (kern->fault.irq_fail_nth && !--kern->fault.irq_fail_nth)
		return -ENOMEM;
	d->handler = handler;
	d->dev_id = dev_id;
	snprintf(d->name, sizeof(d->name), "%s", name ? name : "");
	snprintf(d->sim.name, sizeof(d->sim.name), "%s", d->name);
	d->depth = 0;
	d->pending = false;
	mask(d, false);
	return 0;
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	if (!d || !d->handler || d->dev_id != dev_id) {
		kern->warn.other++;
		pr_warn("Trying to free already-free IRQ %u\n", irq);
		return NULL;
	}
	mask(d, true);
	d->handler = NULL;
	d->dev_id = NULL;
	return d->name;
}

void disable_irq_nosync(unsigned int irq)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	if (!d)
		return;
	if (d->depth++ == 0)
		mask(d, true);
}

void disable_irq(unsigned int irq)
{
	disable_irq_nosync(irq);
}

void enable_irq(unsigned int irq)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	if (!d)
		return;
	if (d->depth == 0) {
		kern->warn.other++;
		pr_warn("Unbalanced enable for IRQ %u\n", irq);
		return;
	}
	if (--d->depth)
		return;
	mask(d, false);         /* MSI-X: a held message is sent now */
	if (d->pending) {
		d->pending = false;
		sim_irq_raise(&d->sim);
	} else if (d->msix_entry < 0 && d->pdev && d->pdev->sim->intx_level &&
		   d->pdev->sim->irq_mode == PLAT_PCI_IRQ_INTX) {
		sim_irq_raise(&d->sim);
	}
}

int irq_set_affinity(unsigned int irq, const struct cpumask *m)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);
	unsigned c;

	if (!d || !m)
		return -EINVAL;
	c = sim_cpuset_next(kern_cpuset(m), 0);
	if (c >= num_online_cpus())
		return -EINVAL;
	return sim_irq_set_cpu(&d->sim, c);
}

int irq_set_affinity_and_hint(unsigned int irq, const struct cpumask *m)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);
	struct sim_cpuset both;

	if (!d)
		return -EINVAL;
	if (!m)
		return 0;
	for (unsigned i = 0; i < SIM_CPUS_MAX / 64; i++)
		both.bits[i] = kern_cpuset(m)->bits[i] & kern->irq_cpus.bits[i];
	if (sim_cpuset_next(&both, 0) >= num_online_cpus())
		return 0;       /* outside the allowed set: keep the spread */
	return irq_set_affinity(irq, (const struct cpumask *)(const void *)&both);
}

int kern_irq_cpu(unsigned int irq)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	return d ? (int)d->sim.cpu : -EINVAL;
}

u64 kern_irq_count(unsigned int irq)
{
	struct kern_irq_desc *d = kern_irq_to_desc(irq);

	return d ? d->sim.count : 0;
}

int kern_irq_restrict(struct kern *k, const struct sim_cpuset *cpus)
{
	unsigned n = k->host->params.ncpus;

	if (sim_cpuset_next(cpus, 0) >= n)
		return -EINVAL;
	k->irq_cpus = *cpus;
	k->irq_next = 0;
	for (unsigned i = 0; i < KERN_NR_IRQS; i++)
		if (k->irq_desc[i].allocated)
			sim_irq_set_cpu(&k->irq_desc[i].sim, next_irq_cpu(k));
	return 0;
}

/* The interrupt vectors and threads placed on @c's core. */
static unsigned core_load(const unsigned *load, unsigned c)
{
	unsigned sib = sim_cpu_sibling(kern->host, c);

	return load[c] + (sib != c ? load[sib] : 0);
}

/* Where an application thread starts (kern.h). */
void kern_app_start_cpus(struct sim_task **tasks, unsigned n)
{
	unsigned ncpus = kern->host->params.ncpus;
	unsigned *load = calloc(ncpus, sizeof(*load));
	uint32_t top = 0;

	if (!load)
		return;
	for (unsigned i = 0; i < KERN_NR_IRQS; i++)
		if (kern->irq_desc[i].allocated && kern->irq_desc[i].sim.cpu < ncpus)
			load[kern->irq_desc[i].sim.cpu]++;
	for (unsigned c = 0; c < ncpus; c++) {
		uint32_t ppm = kern->host->params.speed_ppm[c];

		ppm = ppm ? ppm : 1000000;
		if (ppm > top)
			top = ppm;
	}
	for (unsigned k = 0; k < n; k++) {
		struct sim_task *t = tasks[k];
		int best = -1;

		for (unsigned c = 0; c < ncpus; c++) {
			uint32_t ppm = kern->host->params.speed_ppm[c];

			if (!sim_cpuset_test(&t->allowed, c) || (ppm ? ppm : 1000000) != top)
				continue;
			/* with SMT, the core's load first: threads spread over
			 * cores before they share one (fork balancing prefers
			 * the group with the most idle CPUs) */
			if (best < 0 || core_load(load, c) < core_load(load, (unsigned)best) ||
			    (core_load(load, c) == core_load(load, (unsigned)best) &&
			     load[c] < load[best]))
				best = (int)c;
		}
		if (best >= 0) {
			t->cpu = (unsigned)best;
			load[best]++;
		}
	}
	free(load);
}
