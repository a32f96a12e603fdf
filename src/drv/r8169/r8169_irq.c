// SPDX-License-Identifier: MIT
/*
 * r8169_irq.c - interrupt vectors: the MSI-X plan (one vector per RX
 * queue, the TX and link vectors of the chip's message-id map) with a
 * fallback to one vector and the legacy IMR/ISR model; the two register
 * models as ops tables; NAPI poll methods.
 */
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/pci.h>

#include "r8169.h"

/* ---- per-message-id ("V2") model, research s4.3 ---- */

/* Each id's bit is id % 32 of its layer's register (layer 1, layer 2,
 * or a what-if word: RTL_ISR_ID() and friends, rtl_regs.h).
 */
static void v2_mask(struct rtl8169_private *tp, unsigned int id)
{
	rtl_w32(tp, RTL_IMR_CLEAR_ID(id), BIT(id % 32));
}

static void v2_unmask_id(struct rtl8169_private *tp, unsigned int id)
{
	rtl_w32(tp, RTL_IMR_SET_ID(id), BIT(id % 32));
}

static void v2_ack(struct rtl8169_private *tp, unsigned int id)
{
	rtl_w32(tp, RTL_ISR_ID(id), BIT(id % 32));
}

/* One vector: mask it, schedule its NAPI, ack its status (the vendor
 * order, research s4.3).  A status raised after the ack stays latched and
 * re-raises the vector when the poll unmasks it.
 */
static irqreturn_t rtl_interrupt_v2(int irq, void *dev_id)
{
	struct rtl_q_vector *qv = dev_id;
	struct rtl8169_private *tp = qv->tp;

	(void)irq;
	qv->irqs++;
	if (qv->kind == RTL_VEC_LINK) {
		v2_mask(tp, qv->id);
		v2_ack(tp, qv->id);
		rtl_link_check(tp);
		v2_unmask_id(tp, qv->id);
		return IRQ_HANDLED;
	}
	if (napi_schedule_prep(&qv->napi)) {
		v2_mask(tp, qv->id);
		__napi_schedule(&qv->napi);
	}
	v2_ack(tp, qv->id);
	return IRQ_HANDLED;
}

static void v2_enable_all(struct rtl8169_private *tp)
{
	/* word 0 layer 1, word 1 layer 2, words 2.. the what-if ids */
	u32 w[2 + RTL_MSIX_WHATIF_WORDS] = { 0 };

	for (unsigned int i = 0; i < R8169_NQV; i++) {
		unsigned int id = tp->qv[i].id;

		if (tp->qv[i].active)
			w[id / 32] |= BIT(id % 32);
	}
	rtl_w32(tp, RTL_ISR_V2_8125, 0xffffffff);       /* stale status */
	rtl_w32(tp, RTL_IMR_V2_SET_REG_8125, w[0]);
	if (w[1])
		rtl_w32(tp, RTL_IMR_V4_L2_SET_REG_8125, w[1]);
	for (unsigned int k = 0; k < tp->map->whatif_words; k++) {
		rtl_w32(tp, RTL_ISR_ID(64 + 32 * k), 0xffffffff);
		rtl_w32(tp, RTL_IMR_SET_ID(64 + 32 * k), w[2 + k]);
	}
}

static void v2_disable_all(struct rtl8169_private *tp)
{
	rtl_w32(tp, RTL_IMR_V2_CLEAR_REG_8125, 0xffffffff);
	rtl_w32(tp, RTL_IMR_V4_L2_CLEAR_REG_8125, 0xffffffff);
	for (unsigned int k = 0; k < tp->map->whatif_words; k++)
		rtl_w32(tp, RTL_IMR_CLEAR_ID(64 + 32 * k), 0xffffffff);
}

static void v2_unmask(struct rtl_q_vector *qv)
{
	v2_unmask_id(qv->tp, qv->id);
}

static void v2_mask_qv(struct rtl_q_vector *qv)
{
	v2_mask(qv->tp, qv->id);
}

static const struct rtl_irq_ops rtl_irq_ops_v2 = {
	.name = "per-vector",
	.handler = rtl_interrupt_v2,
	.enable_all = v2_enable_all,
	.disable_all = v2_disable_all,
	.unmask = v2_unmask,
	.mask = v2_mask_qv,
};

/* ---- legacy model: IntrMask/IntrStatus 0x38/0x3C, research s4.2 ---- */

static irqreturn_t rtl_interrupt_legacy(int irq, void *dev_id)
{
	struct rtl_q_vector *qv = dev_id;
	struct rtl8169_private *tp = qv->tp;
	u32 status = rtl_r32(tp, RTL_IntrStatus_8125);

	(void)irq;
	/* all ones: the device is gone; nothing we enabled: not ours (a
	 * shared INTx line raised by another function)
	 */
	if (status == 0xffffffff || !(status & tp->legacy_mask))
		return IRQ_NONE;
	qv->irqs++;
	if (status & RTL_INT_LINK_CHG)
		rtl_link_check(tp);
	if (napi_schedule_prep(&qv->napi)) {
		rtl_w32(tp, RTL_IntrMask_8125, 0);
		__napi_schedule(&qv->napi);
	}
	rtl_w32(tp, RTL_IntrStatus_8125, status);
	return IRQ_HANDLED;
}

static void legacy_enable_all(struct rtl8169_private *tp)
{
	rtl_w32(tp, RTL_IntrStatus_8125, 0xffffffff);
	rtl_w32(tp, RTL_IntrMask_8125, tp->legacy_mask);
}

static void legacy_disable_all(struct rtl8169_private *tp)
{
	rtl_w32(tp, RTL_IntrMask_8125, 0);
}

static void legacy_unmask(struct rtl_q_vector *qv)
{
	rtl_w32(qv->tp, RTL_IntrMask_8125, qv->tp->legacy_mask);
}

static void legacy_mask(struct rtl_q_vector *qv)
{
	rtl_w32(qv->tp, RTL_IntrMask_8125, 0);
}

static const struct rtl_irq_ops rtl_irq_ops_legacy = {
	.name = "legacy",
	.handler = rtl_interrupt_legacy,
	.enable_all = legacy_enable_all,
	.disable_all = legacy_disable_all,
	.unmask = legacy_unmask,
	.mask = legacy_mask,
};

/* ---- vector plan ---- */

/* Vectors the V2 model needs for @nrx RX queues, the TX ring and, with
 * @link, the link: entries up to the largest message id used.
 */
static unsigned int v2_vectors_needed(const struct rtl_irq_map *m, unsigned int nrx,
				      bool link)
{
	unsigned int need = m->tx[0];

	if (link && m->link > need)
		need = m->link;
	for (unsigned int q = 0; q < nrx; q++)
		if (m->rx[q] > need)
			need = m->rx[q];
	return need + 1;
}

static unsigned int rx_queues_wanted(struct rtl8169_private *tp)
{
	unsigned int n = tp->chip->caps->rx_queues;

	if (n > tp->chip->caps->rx_queues)
		n = tp->chip->caps->rx_queues;
	if (n > R8169_MAX_RX_QUEUES)
		n = R8169_MAX_RX_QUEUES;
	return n ? n : 1;
}

/* The most RX queues (<= @want) @n vectors serve with the V2 map. */
static unsigned int v2_queues_for(const struct rtl_irq_map *m, unsigned int want,
				  unsigned int n, bool link)
{
	while (want && v2_vectors_needed(m, want, link) > n)
		want--;
	return want;
}

/**
 * rtl_alloc_vectors() - allocate interrupt vectors and pick the interrupt model
 * @tp: the device
 *
 * The vector ladder, as drivers with per-queue vectors step down when
 * MSI-X grants fewer than they asked for (ixgbe, ice: as many queue
 * vectors as were granted, then MSI with one queue):
 *  1. MSI-X with the per-vector model, as many RX queues as the granted
 *     vectors reach with the TX and link ids;
 *  2. the same without the link id, for at least two queues: the link
 *     is then polled by the service timer;
 *  3. one vector (MSI-X, MSI or INTx) with the legacy model and one
 *     queue, which always works.
 * The message ids are fixed by the chip's map, so a vector count helps
 * only if it reaches the ids: on the RTL8127A (RX 0-3, TX 8, link 29)
 * 30 vectors give step 1, 9 to 29 step 2 with 4 queues, fewer step 3.
 *
 * Context: probe.
 * Return: 0 or -errno.
 */
int rtl_alloc_vectors(struct rtl8169_private *tp)
{
	const struct rtl_irq_map *m = tp->map;
	unsigned int want = rx_queues_wanted(tp);
	int n;

	if (!m->legacy && tp->chip->caps->msix_max) {
		n = pci_alloc_irq_vectors(tp->pdev, 1, tp->chip->caps->msix_max,
					  PCI_IRQ_MSIX);
		if (n > 0) {
			unsigned int k = v2_queues_for(m, want, (unsigned int)n, true);
			bool link = k > 0;

			if (!link) {
				k = v2_queues_for(m, want, (unsigned int)n, false);
				if (k < 2)
					k = 0;
			}
			if (k) {
				tp->nvec = (unsigned int)n;
				tp->v2_irq = true;
				tp->link_irq = link;
				tp->irq_ops = &rtl_irq_ops_v2;
				tp->max_rx_queues = k;
				if (!link)
					dev_info(&tp->pdev->dev,
						 "%d MSI-X vectors: %u RX queues, link polled\n",
						 n, k);
				return 0;
			}
			dev_info(&tp->pdev->dev,
				 "%d MSI-X vectors are too few for the per-vector map, using one vector\n",
				 n);
			pci_free_irq_vectors(tp->pdev);
		}
	}
	n = pci_alloc_irq_vectors(tp->pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (n < 0) {
		dev_err(&tp->pdev->dev, "no interrupt vector: %d\n", n);
		return n;
	}
	tp->nvec = 1;
	tp->v2_irq = false;
	tp->link_irq = true;
	tp->irq_ops = &rtl_irq_ops_legacy;
	tp->max_rx_queues = 1;
	tp->legacy_mask = RTL_INT_ROK | RTL_INT_RER | RTL_INT_TOK | RTL_INT_TER |
			  RTL_INT_RDU | RTL_INT_LINK_CHG;
	return 0;
}

/**
 * rtl_free_vectors() - release every vector slot and the PCI vectors
 * @tp: the device
 *
 * Context: remove, or a probe that failed after rtl_alloc_vectors().
 */
void rtl_free_vectors(struct rtl8169_private *tp)
{
	pci_free_irq_vectors(tp->pdev);
	tp->nvec = 0;
}

/* ---- NAPI ---- */

static int rtl_poll_rx(struct napi_struct *napi, int budget)
{
	struct rtl_q_vector *qv = container_of(napi, struct rtl_q_vector, napi);
	int work;

	/* ISR v3/v4 "ring" vectors also serve the TX ring of the same
	 * number (research s4.3)
	 */
	if (qv->tx)
		rtl_tx_clean(qv->tx, budget);
	work = rtl_rx(qv->rx, napi, budget);

	if (work < budget && napi_complete_done(napi, work)) {
		if (READ_ONCE(qv->tp->adaptive_rx))
			rtl_dim_sample(qv);
		qv->tp->irq_ops->unmask(qv);
	}
	return work;
}

static int rtl_poll_tx(struct napi_struct *napi, int budget)
{
	struct rtl_q_vector *qv = container_of(napi, struct rtl_q_vector, napi);

	rtl_tx_clean(qv->tx, budget);
	/* TX work is not counted against the budget (napi.rst); with budget
	 * 0 (netpoll) the instance must not complete
	 */
	if (budget && napi_complete_done(napi, 0))
		qv->tp->irq_ops->unmask(qv);
	return 0;
}

static int rtl_poll_all(struct napi_struct *napi, int budget)
{
	struct rtl_q_vector *qv = container_of(napi, struct rtl_q_vector, napi);
	int work;

	rtl_tx_clean(qv->tx, budget);
	work = rtl_rx(qv->rx, napi, budget);
	if (work < budget && napi_complete_done(napi, work))
		qv->tp->irq_ops->unmask(qv);
	return work;
}

/* What slot @i serves for @nrx RX queues; false if it is not needed. */
static bool qv_plan(const struct rtl8169_private *tp, unsigned int i, unsigned int nrx,
		    enum rtl_vec_kind *kind, unsigned int *id)
{
	const struct rtl_irq_map *m = tp->map;

	if (!tp->v2_irq) {
		*kind = RTL_VEC_ALL;
		*id = 0;
		return i == 0;
	}
	if (i < R8169_QV_TX) {
		*kind = RTL_VEC_RX;
		*id = m->rx[i];
		return i < nrx;
	}
	if (i < R8169_QV_LINK) {
		unsigned int q = i - R8169_QV_TX;

		*kind = RTL_VEC_TX;
		*id = m->tx[q];
		if (q >= tp->num_tx_queues)
			return false;
		/* a TX ring whose message id is an RX queue's (ring vectors)
		 * is served by that vector's poll
		 */
		for (unsigned int r = 0; r < nrx; r++)
			if (m->rx[r] == *id)
				return false;
		return true;
	}
	*kind = RTL_VEC_LINK;
	*id = m->link;
	return tp->link_irq;
}

/* The TX ring a ring vector of the map (an RX vector with the TX ring's
 * message id) also serves.
 */
static struct rtl_tx_ring *qv_shared_tx(struct rtl8169_private *tp, unsigned int id)
{
	for (unsigned int q = 0; q < tp->num_tx_queues; q++)
		if (tp->map->tx[q] == id)
			return &tp->tx_ring[q];
	return NULL;
}

static int qv_activate(struct rtl8169_private *tp, unsigned int i,
		       enum rtl_vec_kind kind, unsigned int id)
{
	struct rtl_q_vector *qv = &tp->qv[i];
	const char *dn = tp->dev->name;
	unsigned int cpu_idx = kind == RTL_VEC_RX ? i : 0;
	int rc;

	qv->tp = tp;
	qv->kind = kind;
	qv->id = id;
	qv->irq = -1;
	qv->rx = NULL;
	qv->tx = NULL;
	switch (kind) {
	case RTL_VEC_RX:
		snprintf(qv->name, sizeof(qv->name), "%s-rx-%u", dn, i);
		qv->rx = &tp->rx_ring[i];
		qv->tx = qv_shared_tx(tp, id);
		rtl_dim_init(qv);
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_rx);
		break;
	case RTL_VEC_TX:
		snprintf(qv->name, sizeof(qv->name), "%s-tx-%u", dn, i - R8169_QV_TX);
		qv->tx = &tp->tx_ring[i - R8169_QV_TX];
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_tx);
		break;
	case RTL_VEC_ALL:
		snprintf(qv->name, sizeof(qv->name), "%s", dn);
		qv->rx = &tp->rx_ring[0];
		qv->tx = &tp->tx_ring[0];
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_all);
		break;
	case RTL_VEC_LINK:
		snprintf(qv->name, sizeof(qv->name), "%s-link", dn);
		break;
	}
	qv->napi_added = kind != RTL_VEC_LINK;
	rc = pci_irq_vector(tp->pdev, id);
	if (rc >= 0) {
		qv->irq = rc;
		rc = request_irq((unsigned int)qv->irq, tp->irq_ops->handler, 0,
				 qv->name, qv);
	}
	if (rc) {
		netdev_err(tp->dev, "cannot request irq for %s: %d\n", qv->name, rc);
		if (qv->napi_added)
			netif_napi_del(&qv->napi);
		qv->napi_added = false;
		return rc;
	}
	qv->irq_requested = true;
	/* RX queue q's vector on the q-th interrupt CPU; TX and link with
	 * queue 0
	 */
	irq_set_affinity_and_hint((unsigned int)qv->irq,
				  cpumask_of(cpumask_local_spread(cpu_idx, -1)));
	qv->active = true;
	tp->nqv++;
	return 0;
}

static void qv_deactivate(struct rtl8169_private *tp, unsigned int i)
{
	struct rtl_q_vector *qv = &tp->qv[i];

	if (!qv->active)
		return;
	if (qv->kind == RTL_VEC_RX)
		rtl_dim_stop(qv);
	if (qv->irq_requested) {
		irq_set_affinity_and_hint((unsigned int)qv->irq, NULL);
		free_irq((unsigned int)qv->irq, qv);
		qv->irq_requested = false;
	}
	if (qv->napi_added)
		netif_napi_del(&qv->napi);
	qv->napi_added = false;
	qv->active = false;
	tp->nqv--;
}

/**
 * rtl_q_vectors_up() - activate the vector slots @nrx RX queues need
 * @tp: the device
 * @nrx: number of RX queues
 *
 * NAPI is added and the IRQ requested; NAPI stays disabled.
 *
 * Context: process, RTNL.
 * Return: 0, or -errno with the slots it activated released again.
 */
int rtl_q_vectors_up(struct rtl8169_private *tp, unsigned int nrx)
{
	bool added[R8169_NQV] = { false };
	unsigned int i;
	int rc = 0;

	for (i = 0; i < R8169_NQV; i++) {
		enum rtl_vec_kind kind;
		unsigned int id;

		if (tp->qv[i].active || !qv_plan(tp, i, nrx, &kind, &id))
			continue;
		rc = qv_activate(tp, i, kind, id);
		if (rc)
			break;
		added[i] = true;
	}
	if (rc)
		for (i = 0; i < R8169_NQV; i++)
			if (added[i])
				qv_deactivate(tp, i);
	return rc;
}

/**
 * rtl_q_vectors_down() - release the RX vector slots from @nrx on
 * @tp: the device
 * @nrx: number of RX queues
 * @all: release every slot
 *
 * Context: process, RTNL; the datapath is quiesced.
 */
void rtl_q_vectors_down(struct rtl8169_private *tp, unsigned int nrx, bool all)
{
	for (unsigned int i = 0; i < R8169_NQV; i++)
		if (all || (tp->v2_irq && i >= nrx && i < R8169_QV_TX))
			qv_deactivate(tp, i);
}

/**
 * rtl_queues_set_napi() - tell the core which NAPI serves each queue
 * @tp: the device
 * @set: name the active vectors' instances (true) or none (false)
 *
 * For the netdev netlink family's queue-get and per-NAPI settings
 * (netif_queue_set_napi(), Linux 6.8+).  Context: RTNL, the vectors'
 * NAPI added.
 */
void rtl_queues_set_napi(struct rtl8169_private *tp, bool set)
{
	for (unsigned int i = 0; i < R8169_NQV; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];
		struct napi_struct *napi = set ? &qv->napi : NULL;

		if (!qv->active || !qv->napi_added)
			continue;
		if (qv->rx)
			netif_queue_set_napi(tp->dev, qv->rx->index,
					     NETDEV_QUEUE_TYPE_RX, napi);
		if (qv->tx)
			netif_queue_set_napi(tp->dev, qv->tx->index,
					     NETDEV_QUEUE_TYPE_TX, napi);
	}
}

/**
 * rtl_napi_enable_all() - enable NAPI on every active slot not yet enabled
 * @tp: the device
 *
 * Context: process, RTNL.
 */
void rtl_napi_enable_all(struct rtl8169_private *tp)
{
	for (unsigned int i = 0; i < R8169_NQV; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];

		if (qv->active && qv->napi_added && !qv->napi_enabled) {
			napi_enable(&qv->napi);
			qv->napi_enabled = true;
		}
	}
}

/**
 * rtl_napi_disable_all() - disable NAPI on every slot that is enabled
 * @tp: the device
 *
 * Only instances that were enabled: napi_disable() on one that never was
 * (netif_napi_add() leaves it claimed) waits forever for its SCHED bit
 * (net/core/dev.c, napi_disable_locked()); a channel change adds its new
 * vectors before the datapath stops.
 *
 * Context: process, RTNL; sleeps until running polls end.
 */
void rtl_napi_disable_all(struct rtl8169_private *tp)
{
	for (unsigned int i = 0; i < R8169_NQV; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];

		if (qv->active && qv->napi_enabled) {
			napi_disable(&qv->napi);
			qv->napi_enabled = false;
		}
	}
}

/**
 * rtl_sync_irqs() - wait for handlers of the device's vectors running on other CPUs
 * @tp: the device
 *
 * Wait for every handler of the device's vectors that is running on
 * another CPU (after the device's interrupts are masked).
 *
 * Context: process; the device's interrupts are masked.
 */
void rtl_sync_irqs(struct rtl8169_private *tp)
{
	for (unsigned int i = 0; i < R8169_NQV; i++)
		if (tp->qv[i].active && tp->qv[i].irq_requested)
			synchronize_irq((unsigned int)tp->qv[i].irq);
}

/* ---- the service timer: lost interrupts, hung rings ---- */

/*
 * A vector stalls when its message is lost, or when its status is cleared
 * after the work it announced was looked for: an ack posted in the
 * handler that reaches the device after the poll read the ring (PCIe
 * posted writes; QEMU's vfio-user posts MMIO writes too).  Either way no
 * message comes while the work waits, its NAPI never runs and its ring
 * fills (the rest is rx_missed).  Mainline drivers catch this from a
 * periodic task:
 *  - ice (ice_check_for_hang_subtask, every service-timer period, HZ):
 *    a TX ring with work pending whose packet count did not move since
 *    the last check gets a software interrupt on its vector;
 *  - igc (igc_watchdog_task, every 2 s): a software interrupt on every
 *    queue vector, unconditionally ("to ensure Rx ring is cleaned");
 *  - r8169 has only the TX timeout (dev_watchdog, 6 s), which resets the
 *    chip.
 * This driver applies ice's rule to every vector's rings, RX and TX:
 * work pending at two checks in a row with no descriptor done between
 * them.  The RTL8125 family has no software-interrupt register, and a
 * message the driver makes the device send (mask and unmask with the
 * status latched) needs that status and can itself be lost, so the timer
 * schedules the vector's NAPI itself, masked as its handler would.  A
 * stall therefore ends between one and two periods after it began,
 * however many messages are lost, and a vector that is merely busy is
 * never disturbed.  An RX ring still stalled at the check after that (its
 * poll ran and took nothing: a hung ring) gets the reset task; a TX ring
 * is left to the stack's TX watchdog, which resets through
 * ndo_tx_timeout, as ice leaves it.
 */
static bool qv_stalled(struct rtl_q_vector *qv)
{
	u64 progress = 0;
	bool pending = false, stalled;

	if (qv->rx) {
		progress += READ_ONCE(qv->rx->cur_rx);
		pending |= rtl_rx_pending(qv->rx);
	}
	if (qv->tx) {
		progress += READ_ONCE(qv->tx->dirty_tx);
		pending |= READ_ONCE(qv->tx->dirty_tx) != READ_ONCE(qv->tx->cur_tx);
	}
	if (!pending || progress != qv->wd_progress)
		qv->wd_kicked = false;
	stalled = pending && qv->wd_pending && progress == qv->wd_progress;
	qv->wd_pending = pending && !stalled;
	qv->wd_progress = progress;
	return stalled;
}

/* Run the vector's poll as its handler would have: masked, NAPI
 * scheduled; the poll unmasks it when it completes.
 */
static void rtl_kick(struct rtl_q_vector *qv)
{
	if (!napi_schedule_prep(&qv->napi))
		return;
	qv->tp->irq_ops->mask(qv);
	__napi_schedule(&qv->napi);
}

/**
 * rtl_watchdog() - the service timer: run stalled vectors' polls, reset hung rings
 * @t: the timer embedded in the device
 *
 * Also polls the link when it has no vector.
 *
 * Context: timer (softirq); re-arms itself every R8169_WATCHDOG_PERIOD.
 */
void rtl_watchdog(struct timer_list *t)
{
	struct rtl8169_private *tp = timer_container_of(tp, t, watchdog);

	for (unsigned int i = 0; i < R8169_NQV; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];

		if (!qv->active || !qv->napi_added || !qv_stalled(qv))
			continue;
		/* TX has the stack's watchdog (ndo_tx_timeout); RX has this */
		if (qv->wd_kicked && qv->rx && rtl_rx_pending(qv->rx)) {
			netdev_warn(tp->dev, "%s: RX ring hung: no progress after its poll ran, resetting\n",
				    qv->name);
			schedule_work(&tp->reset_work);
			continue;
		}
		qv->wd_kicked = true;
		tp->watchdog_kicks++;
		rtl_kick(qv);
	}
	/* no link vector (the vector ladder's second step): poll */
	if (!tp->link_irq)
		rtl_link_check(tp);
	mod_timer(&tp->watchdog, jiffies + R8169_WATCHDOG_PERIOD);
}

/**
 * rtl_tx_timeout() - ndo_tx_timeout: a TX queue stopped for R8169_TX_TIMEOUT
 * @dev: the network device
 * @txqueue: the queue the stack's watchdog found stuck
 *
 * As mainline r8169 does (rtl8169_tx_timeout), the chip is reset from
 * process context.
 *
 * Context: the stack's watchdog timer (softirq).
 */
void rtl_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct rtl8169_private *tp = netdev_priv(dev);

	(void)txqueue;
	tp->tx_timeouts++;
	schedule_work(&tp->reset_work);
}

/* The internal PHY through the GPHY_OCP window (K r8168_phy_ocp_read and
 * _write): a read posts the address and waits for the flag to set, a write
 * posts address, data and the flag and waits for it to clear.
 */
static int rtl_phy_ocp_read(struct rtl8169_private *tp, u16 addr, u16 *val)
{
	u32 v;
	int rc;

	rtl_w32(tp, RTL_GPHY_OCP, (u32)addr << RTL_OCP_ADDR_SHIFT);
	rc = readl_poll_timeout_atomic(tp->mmio_addr + RTL_GPHY_OCP, v,
				       v & RTL_OCP_FLAG, 10, 250);
	*val = (u16)(v & RTL_OCP_DATA_MASK);
	return rc;
}

static int rtl_phy_ocp_write(struct rtl8169_private *tp, u16 addr, u16 val)
{
	u32 v;

	rtl_w32(tp, RTL_GPHY_OCP, RTL_OCP_FLAG | (u32)addr << RTL_OCP_ADDR_SHIFT | val);
	return readl_poll_timeout_atomic(tp->mmio_addr + RTL_GPHY_OCP, v,
					 !(v & RTL_OCP_FLAG), 10, 250);
}

/**
 * rtl_phy_power_up() - power the internal PHY up if it is down
 * @tp: the device, opened with no link
 *
 * This driver leaves the PHY to its power-on defaults, but a driver bound
 * before it may have powered it down (mainline r8169 suspends the PHY when
 * it is unbound: phylib's phy_suspend() sets BMCR power-down).  Clearing
 * power-down restarts autonegotiation; the link comes with LinkChg.
 */
void rtl_phy_power_up(struct rtl8169_private *tp)
{
	u16 bmcr, addr = RTL_PHY_OCP_STD_BASE + 2 * RTL_MII_BMCR;

	if (rtl_phy_ocp_read(tp, addr, &bmcr) || !(bmcr & RTL_BMCR_PDOWN))
		return;
	bmcr &= (u16)~RTL_BMCR_PDOWN;
	bmcr |= RTL_BMCR_ANENABLE | RTL_BMCR_ANRESTART;
	if (rtl_phy_ocp_write(tp, addr, bmcr))
		netdev_warn(tp->dev, "PHY power-up write not done\n");
	else
		netdev_info(tp->dev, "PHY was powered down: powered up, autonegotiating\n");
}

/**
 * rtl_link_check() - read the PHY status and report carrier changes
 * @tp: the device
 *
 * Context: the link interrupt, the service timer, or open.
 */
void rtl_link_check(struct rtl8169_private *tp)
{
	bool up = rtl_r32(tp, RTL_PHYstatus) & RTL_PHY_LINK;

	if (up != netif_carrier_ok(tp->dev))
		tp->link_changes++;
	if (up)
		netif_carrier_on(tp->dev);
	else
		netif_carrier_off(tp->dev);
}
