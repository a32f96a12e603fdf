// SPDX-License-Identifier: MIT
/* netdev.c - net_device lifetime, carrier, TX queues and a pfifo qdisc. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <asm/barrier.h>
#include <net/netdev_queues.h>

#include "kern/kern.h"

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs,
				      unsigned int rxqs)
{
	struct net_device *dev;

	if (sizeof_priv < 0 || !txqs || !rxqs)
		return NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->_tx = calloc(txqs, sizeof(*dev->_tx));
	dev->_rx = calloc(rxqs, sizeof(*dev->_rx));
	dev->priv = calloc(1, sizeof_priv ? (size_t)sizeof_priv : 1);
	if (!dev->_tx || !dev->_rx || !dev->priv) {
		free(dev->_tx);
		free(dev->_rx);
		free(dev->priv);
		free(dev);
		return NULL;
	}
	for (unsigned i = 0; i < txqs; i++) {
		dev->_tx[i].dev = dev;
		dev->_tx[i].index = i;
	}
	for (unsigned i = 0; i < rxqs; i++)
		dev->_rx[i].dev = dev;
	snprintf(dev->name, sizeof(dev->name), "eth%%d");
	dev->dev_addr = dev->dev_addr_shadow;
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->num_rx_queues = dev->real_num_rx_queues = rxqs;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = 68;
	dev->max_mtu = ETH_DATA_LEN;
	return dev;
}

static void qdisc_unschedule(struct netdev_queue *q);

static void qdisc_purge(struct netdev_queue *q)
{
	qdisc_unschedule(q);
	while (q->q_head) {
		struct sk_buff *skb = q->q_head;

		q->q_head = skb->next;
		kfree_skb(skb);
	}
	q->q_tail = NULL;
	q->q_len = 0;
}

void free_netdev(struct net_device *dev)
{
	if (!dev)
		return;
	for (unsigned i = 0; i < dev->num_tx_queues; i++)
		qdisc_purge(&dev->_tx[i]);
	free(dev->_tx);
	free(dev->_rx);
	free(dev->priv);
	free(dev);
}

static unsigned int rtnl_depth;

void rtnl_lock(void)
{
	if (rtnl_depth++) {
		kern->warn.other++;
		pr_err("rtnl_lock: taken while held (Linux deadlocks here)\n");
	}
}

void rtnl_unlock(void)
{
	if (!rtnl_depth) {
		kern->warn.other++;
		pr_err("rtnl_unlock: not held\n");
		return;
	}
	rtnl_depth--;
}

bool rtnl_is_locked(void)
{
	return rtnl_depth != 0;
}

/* Registered devices, for "ethN" naming. */
static struct net_device *registered[16];

int register_netdev(struct net_device *dev)
{
	int slot = -1;

	if (dev->registered)
		return -EINVAL;
	for (int i = 0; i < 16; i++) {
		if (!registered[i]) {
			slot = i;
			break;
		}
	}
	if (slot < 0)
		return -ENFILE;
	registered[slot] = dev;
	snprintf(dev->name, sizeof(dev->name), "eth%d", slot);
	dev->ifindex = slot + 2;        /* lo is 1 */
	dev->registered = true;
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	if (!dev->registered)
		return;
	dev_close(dev);
	for (int i = 0; i < 16; i++)
		if (registered[i] == dev)
			registered[i] = NULL;
	dev->registered = false;
}

/*
 * The TX watchdog, as net/sched/sch_generic.c runs it (dev_watchdog(),
 * armed by dev_activate() when a device with ndo_tx_timeout opens):
 *  - every watchdog_timeo (5 s if the driver set none), on a device that
 *    is present, running and has carrier, the first TX queue that is
 *    stopped and whose last transmit (trans_start) is more than
 *    watchdog_timeo ago counts a timeout (trans_timeout), is logged
 *    ("NETDEV WATCHDOG: ... transmit queue N timed out M ms") and handed
 *    to ndo_tx_timeout();
 *  - then the timer re-arms at round_jiffies(jiffies + watchdog_timeo);
 *  - opening counts as a transmit (netif_trans_update() in dev_activate()).
 */
static void dev_watchdog(struct timer_list *t)
{
	struct net_device *dev = timer_container_of(dev, t, watchdog_timer);

	if (!dev->running || !dev->carrier)
		goto rearm;
	for (unsigned i = 0; i < dev->num_tx_queues; i++) {
		struct netdev_queue *q = &dev->_tx[i];
		unsigned long trans_start = READ_ONCE(q->trans_start);

		if (!netif_tx_queue_stopped(q) ||
		    jiffies_read() - trans_start <= (unsigned long)dev->watchdog_timeo)
			continue;
		q->trans_timeout++;
		netdev_crit(dev, "NETDEV WATCHDOG: CPU: %u: transmit queue %u timed out %lu ms\n",
			    smp_processor_id(), i,
			    (jiffies_read() - trans_start) * 1000 / HZ);
		dev->netdev_ops->ndo_tx_timeout(dev, i);
		break;
	}
rearm:
	mod_timer(&dev->watchdog_timer, round_jiffies(jiffies_read() +
						      (unsigned long)dev->watchdog_timeo));
}

static bool dev_has_watchdog(const struct net_device *dev)
{
	return dev->netdev_ops && dev->netdev_ops->ndo_tx_timeout;
}

int dev_open(struct net_device *dev, struct netlink_ext_ack *extack)
{
	int rc = 0;

	(void)extack;
	if (dev->running)
		return 0;
	if (dev->netdev_ops && dev->netdev_ops->ndo_open)
		rc = dev->netdev_ops->ndo_open(dev);
	if (rc)
		return rc;
	dev->running = true;
	dev->flags |= IFF_UP;
	if (dev_has_watchdog(dev)) {
		if (dev->watchdog_timeo <= 0)
			dev->watchdog_timeo = 5 * HZ;
		for (unsigned i = 0; i < dev->num_tx_queues; i++)
			WRITE_ONCE(dev->_tx[i].trans_start, jiffies_read());
		if (!dev->watchdog_timer.function)
			timer_setup(&dev->watchdog_timer, dev_watchdog, 0);
		mod_timer(&dev->watchdog_timer, round_jiffies(jiffies_read() +
							      (unsigned long)dev->watchdog_timeo));
	}
	return 0;
}

void dev_close(struct net_device *dev)
{
	if (!dev->running)
		return;
	if (dev->watchdog_timer.function)
		timer_delete_sync(&dev->watchdog_timer);
	if (dev->netdev_ops && dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->running = false;
	dev->flags &= ~IFF_UP;
	for (unsigned i = 0; i < dev->num_tx_queues; i++)
		qdisc_purge(&dev->_tx[i]);
}

void dev_set_promiscuity(struct net_device *dev, int inc)
{
	unsigned int old = dev->flags;

	dev->promiscuity += inc;
	if (dev->promiscuity < 0)
		dev->promiscuity = 0;
	if (dev->promiscuity)
		dev->flags |= IFF_PROMISC;
	else
		dev->flags &= ~IFF_PROMISC;
	if (old != dev->flags && dev->running && dev->netdev_ops &&
	    dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
}

int netif_get_num_default_rss_queues(void)
{
	return (int)(kern->default_rss_queues ? kern->default_rss_queues :
		     num_online_cpus());
}

int netif_set_real_num_rx_queues(struct net_device *dev, unsigned int rxq)
{
	if (!rxq || rxq > dev->num_rx_queues)
		return -EINVAL;
	dev->real_num_rx_queues = rxq;
	return 0;
}

int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int txq)
{
	if (!txq || txq > dev->num_tx_queues)
		return -EINVAL;
	dev->real_num_tx_queues = txq;
	return 0;
}

void netif_carrier_on(struct net_device *dev)
{
	if (!dev->carrier) {
		dev->carrier = true;
		dev->carrier_changes++;
	}
}

void netif_carrier_off(struct net_device *dev)
{
	if (dev->carrier) {
		dev->carrier = false;
		dev->carrier_changes++;
	}
}

/*
 * The qdisc and NET_TX, as net/core/dev.c and net/sched/sch_generic.c run
 * them:
 *  - __netif_schedule() puts the qdisc on the running CPU's output queue
 *    (once: __QDISC_STATE_SCHED) and raises NET_TX there;
 *  - netif_tx_wake_queue() restarts a stopped queue by __netif_schedule():
 *    its qdisc runs in the waking CPU's NET_TX, not in the caller;
 *  - __qdisc_run() hands skbs to the driver while the queue runs, at most
 *    dev_tx_weight (64) of them, or fewer if a task waits for the CPU
 *    (need_resched()); then it reschedules itself by __netif_schedule();
 *  - dev_queue_xmit() enqueues and runs the qdisc in the caller's context;
 *  - net_tx_action() takes the CPU's output queue whole and runs each.
 * One qdisc runs at a time (a single thread here), so the "qdisc running"
 * owner of Linux never defers a caller.
 */
#define DEV_TX_WEIGHT 64        /* weight_p x dev_weight_tx_bias */

static void netif_schedule_queue(struct netdev_queue *q)
{
	unsigned cpu = smp_processor_id();
	struct softnet_data *sd = &kern->sd[cpu];

	if (q->q_sched)
		return;
	q->q_sched = true;
	q->q_out_next = NULL;
	if (sd->out_tail)
		sd->out_tail->q_out_next = q;
	else
		sd->out_head = q;
	sd->out_tail = q;
	sim_softirq_raise(kern->host, cpu, SIM_SOFTIRQ_NET_TX);
}

static void qdisc_run(struct netdev_queue *q)
{
	struct net_device *dev = q->dev;
	int quota = DEV_TX_WEIGHT;
	int cpu = sim_current_cpu(kern->host);
	netdev_tx_t rc;

	while (q->q_head && !netif_tx_queue_stopped(q) && dev->running) {
		struct sk_buff *skb = q->q_head;

		if (quota-- <= 0 || (cpu >= 0 && sim_need_resched(kern->host, (unsigned)cpu))) {
			netif_schedule_queue(q);
			break;
		}
		q->q_head = skb->next;
		if (!q->q_head)
			q->q_tail = NULL;
		q->q_len--;
		skb->next = NULL;
		rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
		if (rc == NETDEV_TX_OK)		/* txq_trans_update() */
			WRITE_ONCE(q->trans_start, jiffies_read());
		if (rc == NETDEV_TX_BUSY) {
			/* put it back at the head; the driver stopped the queue */
			skb->next = q->q_head;
			q->q_head = skb;
			if (!q->q_tail)
				q->q_tail = skb;
			q->q_len++;
			if (!netif_tx_queue_stopped(q))
				break;  /* BUSY without stopping: retry later */
		}
	}
}

/* NET_TX: one qdisc per step, from the list taken at the pass's start. */
static bool net_tx_action(struct sim_host *h, unsigned cpu, void *arg,
			  bool first)
{
	struct softnet_data *sd = &kern->sd[cpu];
	struct netdev_queue *q;

	(void)h;
	(void)arg;
	if (first) {
		sd->tx_run_head = sd->out_head;
		sd->out_head = sd->out_tail = NULL;
	}
	q = sd->tx_run_head;
	if (!q)
		return false;
	sd->tx_run_head = q->q_out_next;
	q->q_out_next = NULL;
	q->q_sched = false;
	qdisc_run(q);
	return sd->tx_run_head != NULL;
}

void kern_netdev_init_softirq(void);
void kern_netdev_init_softirq(void)
{
	sim_softirq_register(kern->host, SIM_SOFTIRQ_NET_TX, net_tx_action, NULL);
}

/* Take @q off every CPU's output queue (its device goes away). */
static void qdisc_unschedule(struct netdev_queue *q)
{
	for (unsigned c = 0; q->q_sched && c < kern->host->params.ncpus; c++) {
		struct softnet_data *sd = &kern->sd[c];
		struct netdev_queue **lists[2] = { &sd->out_head, &sd->tx_run_head };

		for (unsigned l = 0; l < 2; l++) {
			struct netdev_queue *prev = NULL;

			for (struct netdev_queue *it = *lists[l]; it;
			     prev = it, it = it->q_out_next) {
				if (it != q)
					continue;
				if (prev)
					prev->q_out_next = it->q_out_next;
				else
					*lists[l] = it->q_out_next;
				if (l == 0 && sd->out_tail == it)
					sd->out_tail = prev;
				q->q_sched = false;
				break;
			}
		}
	}
	q->q_sched = false;
}

void netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes)
{
	q->bql_queued += bytes;
}

bool __netdev_tx_sent_queue(struct netdev_queue *q, unsigned int bytes,
			    bool xmit_more)
{
	if (!xmit_more) {
		netdev_tx_sent_queue(q, bytes);
		return true;
	}
	q->bql_queued += bytes;
	return netif_tx_queue_stopped(q);
}

void netdev_tx_completed_queue(struct netdev_queue *q, unsigned int pkts,
			       unsigned int bytes)
{
	(void)pkts;
	if (!bytes)
		return;
	if (q->bql_completed + bytes > q->bql_queued) {
		kern->warn.bql_overcomplete++;
		pr_err("%s: BUG: TX queue %u completed %u bytes, only %llu in flight "
		       "(netdev_tx_sent_queue missing?)\n", q->dev ? q->dev->name : "?",
		       q->index, bytes,
		       (unsigned long long)(q->bql_queued - q->bql_completed));
		q->bql_completed = q->bql_queued;
	} else {
		q->bql_completed += bytes;
	}
	smp_mb();
}

void netdev_tx_reset_queue(struct netdev_queue *q)
{
	q->bql_queued = q->bql_completed = 0;
}

void netif_tx_stop_queue(struct netdev_queue *q)
{
	if (unlikely(kern->tx_stop_hook))
		kern->tx_stop_hook(kern->tx_stop_hook_arg, q);
	set_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

void netif_tx_wake_queue(struct netdev_queue *q)
{
	bool was_stopped = netif_tx_queue_stopped(q);

	netif_tx_start_queue(q);
	if (was_stopped)
		netif_schedule_queue(q);
}

void netif_tx_start_all_queues(struct net_device *dev)
{
	for (unsigned i = 0; i < dev->num_tx_queues; i++)
		netif_tx_start_queue(&dev->_tx[i]);
}

void netif_tx_stop_all_queues(struct net_device *dev)
{
	for (unsigned i = 0; i < dev->num_tx_queues; i++)
		netif_tx_stop_queue(&dev->_tx[i]);
}

void netif_tx_disable(struct net_device *dev)
{
	netif_tx_stop_all_queues(dev);
}

void netif_tx_wake_all_queues(struct net_device *dev)
{
	for (unsigned i = 0; i < dev->num_tx_queues; i++)
		netif_tx_wake_queue(&dev->_tx[i]);
}

int dev_queue_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct netdev_queue *q;

	if (!dev || !dev->running || !dev->netdev_ops ||
	    !dev->netdev_ops->ndo_start_xmit) {
		if (dev)
			dev->core_stats.tx_dropped++;
		kfree_skb(skb);
		return -ENETDOWN;
	}
	skb->queue_mapping = (u16)(skb->queue_mapping % dev->real_num_tx_queues);
	q = &dev->_tx[skb->queue_mapping];
	if (q->q_len >= KERN_QDISC_LEN) {
		q->q_drops++;
		dev->core_stats.tx_dropped++;
		kfree_skb(skb);
		return -ENOBUFS;
	}
	skb->next = NULL;
	if (q->q_tail)
		q->q_tail->next = skb;
	else
		q->q_head = skb;
	q->q_tail = skb;
	q->q_len++;
	qdisc_run(q);
	return 0;
}

/* ----- statistics ----- */

struct rtnl_link_stats64 *dev_get_stats(struct net_device *dev,
					struct rtnl_link_stats64 *storage)
{
	memset(storage, 0, sizeof(*storage));
	if (dev->netdev_ops && dev->netdev_ops->ndo_get_stats64)
		dev->netdev_ops->ndo_get_stats64(dev, storage);
	storage->tx_dropped += dev->core_stats.tx_dropped;
	storage->rx_nohandler += dev->core_stats.rx_nohandler;
	return storage;
}

void netif_queue_set_napi(struct net_device *dev, unsigned int queue_index,
			  enum netdev_queue_type type, struct napi_struct *napi)
{
	if (napi && !napi->dev) {
		kern->warn.other++;
		pr_err("%s: netif_queue_set_napi: NAPI not added\n", dev->name);
		return;
	}
	switch (type) {
	case NETDEV_QUEUE_TYPE_RX:
		if (queue_index < dev->num_rx_queues)
			dev->_rx[queue_index].napi = napi;
		return;
	case NETDEV_QUEUE_TYPE_TX:
		if (queue_index < dev->num_tx_queues)
			dev->_tx[queue_index].napi = napi;
		return;
	}
}

static void qstats_add(u64 *sum, const u64 *add, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (add[i] != NETDEV_QSTAT_UNSET && sum[i] != NETDEV_QSTAT_UNSET)
			sum[i] += add[i];
}

void netdev_stat_queue_sum(struct net_device *netdev,
			   int rx_start, int rx_end,
			   struct netdev_queue_stats_rx *rx_sum,
			   int tx_start, int tx_end,
			   struct netdev_queue_stats_tx *tx_sum)
{
	const struct netdev_stat_ops *ops = netdev->stat_ops;
	struct netdev_queue_stats_rx rx;
	struct netdev_queue_stats_tx tx;

	for (int i = rx_start; i < rx_end; i++) {
		memset(&rx, 0xff, sizeof(rx));
		if (ops->get_queue_stats_rx)
			ops->get_queue_stats_rx(netdev, i, &rx);
		qstats_add((u64 *)rx_sum, (const u64 *)&rx, sizeof(rx) / sizeof(u64));
	}
	for (int i = tx_start; i < tx_end; i++) {
		memset(&tx, 0xff, sizeof(tx));
		if (ops->get_queue_stats_tx)
			ops->get_queue_stats_tx(netdev, i, &tx);
		qstats_add((u64 *)tx_sum, (const u64 *)&tx, sizeof(tx) / sizeof(u64));
	}
}

int kern_netdev_qstats_dev(struct net_device *dev,
			   struct netdev_queue_stats_rx *rx,
			   struct netdev_queue_stats_tx *tx)
{
	memset(rx, 0xff, sizeof(*rx));
	memset(tx, 0xff, sizeof(*tx));
	if (!dev->stat_ops || !dev->stat_ops->get_base_stats)
		return -EOPNOTSUPP;
	dev->stat_ops->get_base_stats(dev, rx, tx);
	netdev_stat_queue_sum(dev, 0, (int)dev->real_num_rx_queues, rx,
			      0, (int)dev->real_num_tx_queues, tx);
	return 0;
}

/* ----- addresses ----- */

void eth_random_addr(u8 *addr)
{
	sim_rng_bytes(&kern->rng, addr, ETH_ALEN);
	addr[0] &= 0xfe;        /* unicast */
	addr[0] |= 0x02;        /* locally administered */
}

void eth_hw_addr_random(struct net_device *dev)
{
	u8 addr[ETH_ALEN];

	eth_random_addr(addr);
	dev->addr_assign_type = NET_ADDR_RANDOM;
	eth_hw_addr_set(dev, addr);
}
