// SPDX-License-Identifier: MIT
/*
 * napi.c - NAPI scheduling, completion and net_rx_action() as a stepped
 * softirq action: each step polls one instance, so time advances between
 * polls and interrupts that arrive meanwhile are taken (see sim_host.h).
 */
#include <string.h>

#include <linux/netdevice.h>
#include <linux/timer.h>

#include "kern/kern.h"

_Static_assert(sizeof(struct hrtimer) >= sizeof(struct sim_hrtimer) &&
	       _Alignof(struct hrtimer) >= _Alignof(struct sim_hrtimer),
	       "struct hrtimer must hold the platform's timer");

/* The platform timer stored in a NAPI instance's struct hrtimer. */
static inline struct sim_hrtimer *napi_timer(struct napi_struct *n)
{
	return (struct sim_hrtimer *)(void *)&n->timer;
}

static void warn(u64 *ctr, struct napi_struct *n, const char *what)
{
	(*ctr)++;
	pr_warn("%s: napi contract: %s\n", n->dev ? n->dev->name : "?", what);
}

/* ----- poll lists (FIFO, intrusive) ----- */

static void list_add_tail(struct napi_struct **head, struct napi_struct **tail,
			  struct napi_struct *n)
{
	n->poll_next = NULL;
	if (*tail)
		(*tail)->poll_next = n;
	else
		*head = n;
	*tail = n;
}

static struct napi_struct *list_pop(struct napi_struct **head,
				    struct napi_struct **tail)
{
	struct napi_struct *n = *head;

	if (n) {
		*head = n->poll_next;
		if (!*head)
			*tail = NULL;
		n->poll_next = NULL;
	}
	return n;
}

/* Append list b to list a, emptying b. */
static void list_splice_tail(struct napi_struct **ah, struct napi_struct **at,
			     struct napi_struct **bh, struct napi_struct **bt)
{
	if (!*bh)
		return;
	if (*at)
		(*at)->poll_next = *bh;
	else
		*ah = *bh;
	*at = *bt;
	*bh = *bt = NULL;
}

static bool list_del(struct napi_struct **head, struct napi_struct **tail,
		     struct napi_struct *n)
{
	struct napi_struct *prev = NULL;

	for (struct napi_struct *p = *head; p; prev = p, p = p->poll_next) {
		if (p != n)
			continue;
		if (prev)
			prev->poll_next = p->poll_next;
		else
			*head = p->poll_next;
		if (*tail == p)
			*tail = prev;
		p->poll_next = NULL;
		return true;
	}
	return false;
}

/* Remove @n from whichever list of its CPU holds it. */
static void unlist(struct napi_struct *n)
{
	struct softnet_data *sd;

	if (!n->on_list)
		return;
	sd = &kern->sd[n->list_cpu];
	if (!list_del(&sd->poll_head, &sd->poll_tail, n) &&
	    !list_del(&sd->list_head, &sd->list_tail, n))
		list_del(&sd->repoll_head, &sd->repoll_tail, n);
	n->on_list = false;
}

/* ----- scheduling ----- */

static void napi_watchdog(struct sim_hrtimer *t, void *arg)
{
	struct napi_struct *n = arg;

	(void)t;
	n->timer_fires++;
	if (!(n->state & BIT(NAPI_STATE_DISABLE)) && napi_schedule_prep(n))
		__napi_schedule(n);
}

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	memset(napi, 0, sizeof(*napi));
	napi->dev = dev;
	napi->poll = poll;
	napi->weight = weight;
	/* Starts claimed and disabled, as in Linux: napi_enable() to use. */
	napi->state = BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE) |
		      BIT(NAPI_STATE_LISTED);
	sim_hrtimer_init(kern->host, napi_timer(napi), "napi-watchdog",
			 napi_watchdog, napi, 0);
	napi->napi_id = ++kern->ifindex_next;
}

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int))
{
	netif_napi_add_weight(dev, napi, poll, kern->dev_weight);
}

void netif_napi_del(struct napi_struct *napi)
{
	/* Linux unlists it and expects it disabled already */
	if (!(napi->state & BIT(NAPI_STATE_DISABLE))) {
		warn(&kern->warn.napi_del_enabled, napi, "netif_napi_del of an enabled napi");
		napi_disable(napi);
	}
	napi->state &= ~BIT(NAPI_STATE_LISTED);
	/* the instance may be freed next: no heap entry may point at its
	 * cancelled watchdog any more */
	sim_purge(kern->sim);
}

void napi_enable(struct napi_struct *n)
{
	n->state &= ~(BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE) |
		      BIT(NAPI_STATE_MISSED));
	n->defer_hard_irqs_count = 0;
}

void napi_disable(struct napi_struct *n)
{
	bool listed = n->on_list;

	/* Linux (net/core/dev.c napi_disable_locked) sets DISABLE and waits
	 * for SCHED to clear: on an instance already disabled, or added and
	 * never enabled, SCHED is held and it waits forever */
	if (n->state & BIT(NAPI_STATE_DISABLE))
		warn(&kern->warn.napi_disable_disabled, n,
		     "napi_disable of a disabled napi (Linux would wait forever)");

	n->state |= BIT(NAPI_STATE_DISABLE);
	/* Linux waits for SCHED to clear; one thread here: take it off the
	 * lists and stop the watchdog instead.  A scheduled instance would
	 * get its last poll with the disable pending, which completes it
	 * and so flushes GRO (net/core/dev.c __napi_poll): flush here. */
	unlist(n);
	if (listed && n->dev && n->dev->rx_flush)
		n->dev->rx_flush(n, n->dev->rx_handler_data);
	sim_hrtimer_cancel(kern->host, napi_timer(n));
	sim_irq_fini(&napi_timer(n)->irq);
	n->state |= BIT(NAPI_STATE_SCHED);
	n->state &= ~BIT(NAPI_STATE_MISSED);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	if (n->state & BIT(NAPI_STATE_DISABLE))
		return false;
	if (n->state & BIT(NAPI_STATE_SCHED)) {
		n->state |= BIT(NAPI_STATE_MISSED);
		return false;
	}
	n->state |= BIT(NAPI_STATE_SCHED);
	return true;
}

void __napi_schedule(struct napi_struct *n)
{
	unsigned cpu = smp_processor_id();
	struct softnet_data *sd = &kern->sd[cpu];

	if (n->state & BIT(NAPI_STATE_DISABLE)) {
		warn(&kern->warn.napi_sched_disabled, n, "__napi_schedule on a disabled napi");
		return;
	}
	if (n->on_list)
		return;
	list_add_tail(&sd->poll_head, &sd->poll_tail, n);
	n->on_list = true;
	n->list_cpu = (int)cpu;
	/* ____napi_schedule() (net/core/dev.c, 6.4 on): inside net_rx_action
	 * the running action finds it on poll_list; no NET_RX is raised */
	if (!sd->in_net_rx_action)
		sim_softirq_raise(kern->host, cpu, SIM_SOFTIRQ_NET_RX);
}

bool napi_schedule(struct napi_struct *n)
{
	if (!napi_schedule_prep(n))
		return false;
	__napi_schedule(n);
	return true;
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	u64 timeout = 0;
	bool ret = true;
	struct net_device *dev = n->dev;

	if (n->in_poll) {
		if (n->poll_budget == 0)
			warn(&kern->warn.napi_budget0_work, n,
			     "napi_complete_done with budget 0");
		else if (work_done >= n->poll_budget)
			warn(&kern->warn.napi_complete_at_budget, n,
			     "napi_complete_done although the whole budget was used");
		n->completed = true;
	}
	if (dev && work_done) {
		timeout = dev->gro_flush_timeout;
		n->defer_hard_irqs_count = dev->napi_defer_hard_irqs;
	}
	if (n->defer_hard_irqs_count > 0) {
		n->defer_hard_irqs_count--;
		timeout = dev ? dev->gro_flush_timeout : 0;
		if (timeout)
			ret = false;
	}
	if (dev && dev->rx_flush)
		dev->rx_flush(n, dev->rx_handler_data);
	unlist(n);
	if (n->state & BIT(NAPI_STATE_MISSED)) {
		/* scheduled again while polling: poll once more */
		n->state &= ~BIT(NAPI_STATE_MISSED);
		__napi_schedule(n);
		return false;
	}
	n->state &= ~BIT(NAPI_STATE_SCHED);
	if (timeout) {
		napi_timer(n)->irq.cpu = smp_processor_id();
		sim_hrtimer_start(kern->host, napi_timer(n), timeout);
	}
	return ret;
}

void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	struct net_device *dev = napi->dev;

	if (napi->in_poll && napi->poll_budget == 0)
		warn(&kern->warn.napi_budget0_work, napi,
		     "RX work with budget 0");
	dev->core_stats.rx_packets++;
	dev->core_stats.rx_bytes += skb->len;
	skb->tstamp = ktime_get_ns();
	if (!dev->rx_handler) {
		dev->core_stats.rx_nohandler++;
		kfree_skb(skb);
		return;
	}
	dev->rx_handler(skb, napi, dev->rx_handler_data);
}

void kern_netdev_set_rx_handler(struct net_device *dev,
				netdev_rx_handler_t rx, netdev_rx_flush_t flush,
				void *data)
{
	dev->rx_handler = rx;
	dev->rx_flush = flush;
	dev->rx_handler_data = data;
}

/* Call the poll method with the contract checks. */
static int poll_checked(struct napi_struct *n, int budget)
{
	int work;

	n->in_poll = true;
	n->poll_budget = budget;
	n->completed = false;
	work = n->poll(n, budget);
	n->in_poll = false;
	n->polls++;
	if (work > budget) {
		warn(&kern->warn.napi_over_budget, n, "poll returned more than its budget");
		work = budget;
	}
	if (work < 0)
		work = 0;
	n->work += (u64)work;
	if (budget && work < budget && !n->completed &&
	    (n->state & BIT(NAPI_STATE_SCHED)) && !n->on_list)
		warn(&kern->warn.napi_not_completed, n,
		     "poll returned less than its budget without napi_complete_done");
	return work;
}

int kern_napi_poll_direct(struct napi_struct *napi, int budget)
{
	return poll_checked(napi, budget);
}

/* One napi_poll(): returns the work done; full-weight instances go to
 * the repoll list. */
static int napi_poll_one(struct softnet_data *sd, struct napi_struct *n)
{
	int weight = n->weight, work = 0;

	n->on_list = false;
	kern_charge(SIM_COST_napi_poll);
	if (n->state & BIT(NAPI_STATE_SCHED) &&
	    !(n->state & BIT(NAPI_STATE_DISABLE)))
		work = poll_checked(n, weight);
	sd->polls++;
	sd->processed += (u64)work;
	if (work < weight)
		return work;
	/* Used the whole weight: it stays scheduled and goes round again.
	 * Flush GRO so held packets do not wait a whole round. */
	if (n->state & BIT(NAPI_STATE_DISABLE))
		return work;
	if (n->dev && n->dev->rx_flush && !n->dev->gro_flush_timeout)
		n->dev->rx_flush(n, n->dev->rx_handler_data);
	if (!n->on_list) {
		list_add_tail(&sd->repoll_head, &sd->repoll_tail, n);
		n->on_list = true;
		n->list_cpu = (int)(sd - kern->sd);
	}
	return work;
}

/* End of a net_rx_action() pass: everything left goes back on the CPU's
 * poll list (unfinished, then newly scheduled, then repoll), re-raising
 * NET_RX if non-empty. */
static void rx_action_end(struct softnet_data *sd, unsigned cpu)
{
	struct napi_struct *h = NULL, *t = NULL;

	list_splice_tail(&h, &t, &sd->list_head, &sd->list_tail);
	list_splice_tail(&h, &t, &sd->poll_head, &sd->poll_tail);
	list_splice_tail(&h, &t, &sd->repoll_head, &sd->repoll_tail);
	sd->poll_head = h;
	sd->poll_tail = t;
	if (h)
		sim_softirq_raise(kern->host, cpu, SIM_SOFTIRQ_NET_RX);
	else
		sd->in_net_rx_action = false;
}

static bool net_rx_action(struct sim_host *h, unsigned cpu, void *arg,
			  bool first)
{
	struct softnet_data *sd = &kern->sd[cpu];
	struct napi_struct *n;

	(void)h;
	(void)arg;
	if (first) {
		sd->budget = kern->netdev_budget;
		/* jiffies + usecs_to_jiffies(netdev_budget_usecs), rounded up */
		sd->time_limit = jiffies +
				 (kern->netdev_budget_usecs * HZ + 999999) / 1000000;
		sd->in_net_rx_action = true;
		list_splice_tail(&sd->list_head, &sd->list_tail,
				 &sd->poll_head, &sd->poll_tail);
	}
	if (!sd->list_head) {
		if (!sd->repoll_head && sd->poll_head) {
			/* scheduled while we were polling (no NET_RX raised):
			 * serve them too, net_rx_action's "goto start" */
			list_splice_tail(&sd->list_head, &sd->list_tail,
					 &sd->poll_head, &sd->poll_tail);
		} else {
			rx_action_end(sd, cpu);
			return false;
		}
	}
	n = list_pop(&sd->list_head, &sd->list_tail);
	sd->budget -= napi_poll_one(sd, n);
	/* time_after_eq(jiffies, time_limit) */
	if (sd->budget <= 0 || (long)(jiffies - sd->time_limit) >= 0) {
		sd->time_squeeze++;
		rx_action_end(sd, cpu);
		return false;
	}
	return true;
}

void kern_napi_init_softirq(void);
void kern_napi_init_softirq(void)
{
	sim_softirq_register(kern->host, SIM_SOFTIRQ_NET_RX, net_rx_action, NULL);
}
