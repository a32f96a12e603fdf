// SPDX-License-Identifier: MIT
/*
 * plat_pci_post.c - posted MMIO writes: a host write to a BAR takes effect
 * post_ns after the CPU issued it, as a posted PCIe write in flight does,
 * instead of at once.
 *
 * The rules are PCIe's ordering rules for one requester (PCIe Base 3.0
 * s2.4.1, Table 2-39):
 *  - posted writes reach the function in the order they were issued;
 *  - a read (non-posted) does not pass earlier posted writes: every write
 *    issued before it has taken effect when the read is served, so a read
 *    from the function is how a driver "flushes" its writes.
 * The CPU goes on at once after a write (its cost is charged by the
 * caller); only the device sees it late.  On PCIe the delay is about a
 * microsecond; QEMU's vfio-user client posts BAR writes on its socket and
 * they can land milliseconds later under TCG.  0 (the default) means at
 * once, and nothing here runs.
 */
#include <errno.h>
#include <stdlib.h>

#include "plat/plat_pci.h"

struct plat_pci_posted {
	unsigned bar, size;
	uint64_t off, val;
	sim_time_t due;
};

/* Apply the oldest write. */
static void post_apply_one(struct plat_pci_dev *d)
{
	struct plat_pci_posted *p = &d->post_q[d->post_head];

	d->post_head = (d->post_head + 1) % d->post_cap;
	d->post_n--;
	d->bar[p->bar].ops->write(d->bar[p->bar].opaque, p->off, p->val, p->size);
}

static void post_due(struct sim *s, struct sim_event *ev)
{
	struct plat_pci_dev *d = ev->arg;

	while (d->post_n && d->post_q[d->post_head].due <= sim_now(s))
		post_apply_one(d);
	if (d->post_n)
		sim_schedule_at(s, ev, d->post_q[d->post_head].due);
}

void plat_pci_set_posted_writes(struct plat_pci_dev *d, sim_time_t post_ns)
{
	plat_pci_post_flush(d);
	d->post_ns = post_ns;
	if (post_ns && !d->post_ev_init) {
		sim_event_init(&d->post_ev, post_due, d);
		d->post_ev_init = true;
	}
}

int plat_pci_post_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
			unsigned size, uint64_t val)
{
	struct sim *s = d->host->sim;
	struct plat_pci_posted *p;

	if (d->post_n == d->post_cap) {
		unsigned cap = d->post_cap ? 2 * d->post_cap : 64;
		struct plat_pci_posted *q = malloc(cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		for (unsigned i = 0; i < d->post_n; i++)
			q[i] = d->post_q[(d->post_head + i) % d->post_cap];
		free(d->post_q);
		d->post_q = q;
		d->post_cap = cap;
		d->post_head = 0;
	}
	p = &d->post_q[(d->post_head + d->post_n) % d->post_cap];
	*p = (struct plat_pci_posted){ .bar = bar, .size = size, .off = off, .val = val,
				       .due = sim_now(s) + d->post_ns };
	d->post_n++;
	d->posted_writes++;
	if (!sim_event_pending(&d->post_ev))
		sim_schedule_at(s, &d->post_ev, p->due);
	return 0;
}

void plat_pci_post_flush(struct plat_pci_dev *d)
{
	if (!d->post_n)
		return;
	d->posted_flushed += d->post_n;
	while (d->post_n)
		post_apply_one(d);
	if (d->post_ev_init)
		sim_cancel(d->host->sim, &d->post_ev);
}

void plat_pci_post_fini(struct plat_pci_dev *d)
{
	if (d->post_ev_init)
		sim_cancel(d->host->sim, &d->post_ev);
	free(d->post_q);
	d->post_q = NULL;
	d->post_n = d->post_cap = d->post_head = 0;
}
