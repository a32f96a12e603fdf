// SPDX-License-Identifier: MIT
/*
 * timer.c - timer_list on the platform: at expiry a timer interrupt on the
 * CPU that armed the timer queues it on that CPU's expired list and raises
 * TIMER; the TIMER softirq runs one callback per step (kernel/time/timer.c
 * run_timer_softirq, re-implemented).
 */
#include <string.h>

#include <linux/timer.h>

#include "kern/kern.h"

#define NSEC_PER_JIFFY (1000000000ull / HZ)

/* What a timer_list holds for the platform. */
struct kern_timer {
	struct sim_hrtimer hr;
	struct timer_list *t;
	struct kern_timer *next;	/* on a CPU's expired list */
	int expired_cpu;		/* -1: not on one */
	bool armed;
};

_Static_assert(sizeof(((struct timer_list *)0)->platform) >= sizeof(struct kern_timer),
	       "struct timer_list must hold the platform's timer");

/* Per-CPU list of expired timers waiting for the TIMER softirq. */
struct kern_timer_cpu {
	struct kern_timer *head, *tail;
};

static struct kern_timer *kt(const struct timer_list *t)
{
	return (struct kern_timer *)(void *)t->platform;
}

unsigned long jiffies_read(void)
{
	return (unsigned long)(sim_now(kern->sim) / NSEC_PER_JIFFY);
}

unsigned long round_jiffies(unsigned long j)
{
	unsigned long rem = j % HZ, r;

	r = rem < HZ / 4 ? j - rem : j - rem + HZ;
	return r <= jiffies_read() ? j : r;
}

static void timer_expire(struct sim_hrtimer *hr, void *arg)
{
	struct kern_timer *k = arg;
	unsigned cpu = smp_processor_id();
	struct kern_timer_cpu *c = &kern->timer_cpu[cpu];

	(void)hr;
	k->armed = false;
	k->next = NULL;
	k->expired_cpu = (int)cpu;
	if (c->tail)
		c->tail->next = k;
	else
		c->head = k;
	c->tail = k;
	sim_softirq_raise(kern->host, cpu, SIM_SOFTIRQ_TIMER);
}

/* Take @k off the expired list of its CPU, if on one. */
static void unexpire(struct kern_timer *k)
{
	struct kern_timer_cpu *c;
	struct kern_timer *prev = NULL;

	if (k->expired_cpu < 0)
		return;
	c = &kern->timer_cpu[k->expired_cpu];
	for (struct kern_timer *p = c->head; p; prev = p, p = p->next) {
		if (p != k)
			continue;
		if (prev)
			prev->next = p->next;
		else
			c->head = p->next;
		if (c->tail == p)
			c->tail = prev;
		break;
	}
	k->next = NULL;
	k->expired_cpu = -1;
}

/* One expired timer per step, its callback in softirq context. */
static bool run_timer_softirq(struct sim_host *h, unsigned cpu, void *arg, bool first)
{
	struct kern_timer_cpu *c = &kern->timer_cpu[cpu];
	struct kern_timer *k = c->head;

	(void)h;
	(void)arg;
	(void)first;
	if (!k)
		return false;
	c->head = k->next;
	if (!c->head)
		c->tail = NULL;
	k->next = NULL;
	k->expired_cpu = -1;
	k->t->function(k->t);
	return c->head != NULL;
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags)
{
	struct kern_timer *k = kt(t);

	(void)flags;
	memset(t, 0, sizeof(*t));
	t->function = fn;
	k->t = t;
	k->expired_cpu = -1;
	sim_hrtimer_init(kern->host, &k->hr, "timer", timer_expire, k, 0);
	/* housekeeping: sim_run() does not wait for a driver's periodic
	 * timer (sim_event.h) */
	k->hr.ev.background = true;
}

bool timer_pending(const struct timer_list *t)
{
	return kt(t)->armed || kt(t)->expired_cpu >= 0;
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	struct kern_timer *k = kt(t);
	unsigned long now = jiffies_read();
	int was = timer_pending(t);
	u64 at = (u64)expires * NSEC_PER_JIFFY;

	unexpire(k);
	t->expires = expires;
	k->armed = true;
	/* the timer fires on the CPU that arms it */
	k->hr.irq.cpu = smp_processor_id();
	sim_hrtimer_start(kern->host, &k->hr,
			  expires > now ? at - sim_now(kern->sim) : 0);
	return was;
}

int timer_delete_sync(struct timer_list *t)
{
	struct kern_timer *k = kt(t);
	int was = timer_pending(t);

	unexpire(k);
	k->armed = false;
	sim_hrtimer_cancel(kern->host, &k->hr);
	sim_irq_fini(&k->hr.irq);
	/* the timer may be freed next: no heap entry may point at it */
	sim_purge(kern->sim);
	return was;
}

int kern_timer_init(struct kern *k);
void kern_timer_fini(struct kern *k);

int kern_timer_init(struct kern *k)
{
	k->timer_cpu = calloc(k->host->params.ncpus, sizeof(*k->timer_cpu));
	if (!k->timer_cpu)
		return -ENOMEM;
	sim_softirq_register(k->host, SIM_SOFTIRQ_TIMER, run_timer_softirq, NULL);
	return 0;
}

void kern_timer_fini(struct kern *k)
{
	free(k->timer_cpu);
	k->timer_cpu = NULL;
}
