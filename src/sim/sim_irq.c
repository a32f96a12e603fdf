// SPDX-License-Identifier: MIT
/*
 * sim_irq.c - hardirq delivery: one pending raise per source (an APIC IRR
 * bit), a per-CPU queue, and a handler frame that preempts softirq and task
 * frames.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_host_priv.h"

void sim_hardirq_start(struct sim_cpu *c)
{
	struct sim_host *h = c->h;
	struct sim_irq *irq = c->irq_head;
	struct sim_frame f = { .ctx = SIM_CTX_HARDIRQ };

	c->irq_head = irq->next;
	if (!c->irq_head)
		c->irq_tail = NULL;
	irq->next = NULL;
	irq->queued = false;
	irq->running = true;
	f.irq = irq;
	sim_exec_begin(c, SIM_CTX_HARDIRQ, NULL, false);
	sim_charge(h, irq->entry_cost, 1);
	if (irq->handler)
		irq->handler(irq, irq->arg);
	sim_charge(h, SIM_COST_hardirq_exit, 1);
	sim_exec_end(c, &f);
	sim_cpu_push_frame(c, &f);
}

void sim_cpu_irq_fn(struct sim *s, struct sim_event *ev)
{
	struct sim_cpu *c = ev->arg;
	struct sim_frame *f = sim_cpu_top(c);

	(void)s;
	if (!c->irq_head || (f && f->ctx == SIM_CTX_HARDIRQ))
		return;         /* taken when the running handler ends */
	if (!f)
		sim_idle_leave(c);
	sim_cpu_account(c);
	if (f)
		sim_cancel(c->h->sim, &c->end_ev);
	sim_hardirq_start(c);
}

/* ----- interrupts ----- */

void sim_irq_init(struct sim_host *h, struct sim_irq *irq, const char *name,
		  sim_irq_handler fn, void *arg, unsigned cpu)
{
	memset(irq, 0, sizeof(*irq));
	snprintf(irq->name, sizeof(irq->name), "%s", name);
	irq->handler = fn;
	irq->arg = arg;
	irq->entry_cost = SIM_COST_hardirq_entry;
	irq->cpu = cpu < h->params.ncpus ? cpu : 0;
	irq->host = h;
}

void sim_irq_raise(struct sim_irq *irq)
{
	struct sim_cpu *c = &irq->host->cpus[irq->cpu];

	if (irq->queued) {
		irq->collapsed++;
		return;
	}
	irq->queued = true;
	irq->next = NULL;
	if (c->irq_tail)
		c->irq_tail->next = irq;
	else
		c->irq_head = irq;
	c->irq_tail = irq;
	if (!sim_event_pending(&c->irq_ev))
		sim_schedule_in(irq->host->sim, &c->irq_ev,
				c->depth ? 0 : sim_idle_wake_delay(c));
}

int sim_irq_set_cpu(struct sim_irq *irq, unsigned cpu)
{
	if (cpu >= irq->host->params.ncpus)
		return -EINVAL;
	irq->cpu = cpu;
	return 0;
}

void sim_irq_fini(struct sim_irq *irq)
{
	if (!irq->host)
		return;
	for (unsigned i = 0; i < irq->host->params.ncpus && irq->queued; i++) {
		struct sim_cpu *c = &irq->host->cpus[i];
		struct sim_irq *prev = NULL;

		for (struct sim_irq *q = c->irq_head; q; prev = q, q = q->next) {
			if (q != irq)
				continue;
			if (prev)
				prev->next = q->next;
			else
				c->irq_head = q->next;
			if (c->irq_tail == q)
				c->irq_tail = prev;
			irq->queued = false;
			break;
		}
	}
	/* A running handler's frame still points at @irq: keep it valid
	 * until the frame ends (callers free irqs only when quiescent). */
}
