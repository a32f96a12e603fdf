// SPDX-License-Identifier: MIT
/* sim_hrtimer.c - hrtimers: an engine event that raises a timer interrupt,
 * whose handler runs the callback in hardirq context. */
#include "sim/sim_host_priv.h"

static void hrtimer_irq(struct sim_irq *irq, void *arg)
{
	struct sim_hrtimer *t = arg;

	(void)irq;
	t->fn(t, t->arg);
}

static void hrtimer_expire(struct sim *s, struct sim_event *ev)
{
	struct sim_hrtimer *t = ev->arg;

	(void)s;
	sim_irq_raise(&t->irq);
}

void sim_hrtimer_init(struct sim_host *h, struct sim_hrtimer *t,
		      const char *name, void (*fn)(struct sim_hrtimer *, void *),
		      void *arg, unsigned cpu)
{
	sim_event_init(&t->ev, hrtimer_expire, t);
	sim_irq_init(h, &t->irq, name, hrtimer_irq, t, cpu);
	t->irq.entry_cost = SIM_COST_timer_irq;
	t->fn = fn;
	t->arg = arg;
}

void sim_hrtimer_start(struct sim_host *h, struct sim_hrtimer *t,
		       sim_time_t delta)
{
	sim_schedule_in(h->sim, &t->ev, delta);
}

bool sim_hrtimer_cancel(struct sim_host *h, struct sim_hrtimer *t)
{
	bool was = sim_event_pending(&t->ev);

	sim_cancel(h->sim, &t->ev);
	return was;
}
