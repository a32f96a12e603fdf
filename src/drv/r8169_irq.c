// SPDX-License-Identifier: MIT
/*
 * r8169_irq.c - interrupt vectors: the MSI-X plan (one vector per RX
 * queue, the TX and link vectors of the chip's message-id map) with a
 * fallback to one vector and the legacy IMR/ISR model; the two register
 * models as ops tables; NAPI poll methods.
 */
#include <errno.h>
#include <string.h>

#include "drv/r8169.h"

/* ---- per-message-id ("V2") model, research s4.3 ---- */

static void v2_mask(struct rtl8169_private *tp, unsigned int id)
{
	if (id < RTL_MSIX_ID_L2_BASE)
		rtl_w32(tp, RTL_IMR_V2_CLEAR_REG_8125, BIT(id));
	else
		rtl_w32(tp, RTL_IMR_V4_L2_CLEAR_REG_8125, BIT(id - RTL_MSIX_ID_L2_BASE));
}

static void v2_unmask_id(struct rtl8169_private *tp, unsigned int id)
{
	if (id < RTL_MSIX_ID_L2_BASE)
		rtl_w32(tp, RTL_IMR_V2_SET_REG_8125, BIT(id));
	else
		rtl_w32(tp, RTL_IMR_V4_L2_SET_REG_8125, BIT(id - RTL_MSIX_ID_L2_BASE));
}

static void v2_ack(struct rtl8169_private *tp, unsigned int id)
{
	if (id < RTL_MSIX_ID_L2_BASE)
		rtl_w32(tp, RTL_ISR_V2_8125, BIT(id));
	else
		rtl_w32(tp, RTL_ISR_V4_L2_8125, BIT(id - RTL_MSIX_ID_L2_BASE));
}

/* One vector: mask it, schedule its NAPI, ack its status (the vendor
 * order, research s4.3).  A status raised after the ack stays latched and
 * re-raises the vector when the poll unmasks it. */
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
	u32 lo = 0, hi = 0;

	for (unsigned int i = 0; i < tp->nqv; i++) {
		unsigned int id = tp->qv[i].id;

		if (id < RTL_MSIX_ID_L2_BASE)
			lo |= BIT(id);
		else
			hi |= BIT(id - RTL_MSIX_ID_L2_BASE);
	}
	rtl_w32(tp, RTL_ISR_V2_8125, 0xffffffff);       /* stale status */
	rtl_w32(tp, RTL_IMR_V2_SET_REG_8125, lo);
	if (hi)
		rtl_w32(tp, RTL_IMR_V4_L2_SET_REG_8125, hi);
}

static void v2_disable_all(struct rtl8169_private *tp)
{
	rtl_w32(tp, RTL_IMR_V2_CLEAR_REG_8125, 0xffffffff);
	rtl_w32(tp, RTL_IMR_V4_L2_CLEAR_REG_8125, 0xffffffff);
}

static void v2_unmask(struct rtl_q_vector *qv)
{
	v2_unmask_id(qv->tp, qv->id);
}

static const struct rtl_irq_ops rtl_irq_ops_v2 = {
	.name = "per-vector",
	.handler = rtl_interrupt_v2,
	.enable_all = v2_enable_all,
	.disable_all = v2_disable_all,
	.unmask = v2_unmask,
};

/* ---- legacy model: IntrMask/IntrStatus 0x38/0x3C, research s4.2 ---- */

static irqreturn_t rtl_interrupt_legacy(int irq, void *dev_id)
{
	struct rtl_q_vector *qv = dev_id;
	struct rtl8169_private *tp = qv->tp;
	u32 status = rtl_r32(tp, RTL_IntrStatus_8125);

	(void)irq;
	/* all ones: the device is gone; nothing we enabled: not ours (a
	 * shared INTx line raised by another function) */
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

static const struct rtl_irq_ops rtl_irq_ops_legacy = {
	.name = "legacy",
	.handler = rtl_interrupt_legacy,
	.enable_all = legacy_enable_all,
	.disable_all = legacy_disable_all,
	.unmask = legacy_unmask,
};

/* ---- vector plan ---- */

/* Vectors the V2 model needs for @nrx RX queues: entries up to the
 * largest message id used. */
static unsigned int v2_vectors_needed(const struct rtl_irq_map *m, unsigned int nrx)
{
	unsigned int need = m->tx[0] > m->link ? m->tx[0] : m->link;

	for (unsigned int q = 0; q < nrx; q++)
		if (m->rx[q] > need)
			need = m->rx[q];
	return need + 1;
}

static unsigned int rx_queues_wanted(struct rtl8169_private *tp)
{
	unsigned int n = r8169_params.rx_queues ? r8169_params.rx_queues :
						 num_online_cpus();

	if (n > tp->chip->caps->rx_queues)
		n = tp->chip->caps->rx_queues;
	if (n > R8169_MAX_RX_QUEUES)
		n = R8169_MAX_RX_QUEUES;
	return n ? n : 1;
}

/*
 * MSI-X with the chip's per-vector model if the vectors cover at least
 * one RX queue plus TX and link; otherwise one vector (MSI-X, MSI or
 * INTx) with the legacy model and a single queue, which always works.
 */
int rtl_alloc_vectors(struct rtl8169_private *tp)
{
	const struct rtl_irq_map *m = tp->map;
	unsigned int want = rx_queues_wanted(tp);
	int n;

	if (!m->legacy && !r8169_params.no_msix && tp->chip->caps->msix_max) {
		n = pci_alloc_irq_vectors(tp->pdev, 1, tp->chip->caps->msix_max,
					  PCI_IRQ_MSIX);
		if (n > 0) {
			unsigned int k = want;

			while (k && v2_vectors_needed(m, k) > (unsigned int)n)
				k--;
			if (k) {
				tp->nvec = (unsigned int)n;
				tp->v2_irq = true;
				tp->irq_ops = &rtl_irq_ops_v2;
				tp->max_rx_queues = k;
				return 0;
			}
			dev_info(&tp->pdev->dev, "%d MSI-X vectors are too few for the "
				 "per-vector map, using one vector\n", n);
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
	tp->irq_ops = &rtl_irq_ops_legacy;
	tp->max_rx_queues = 1;
	tp->legacy_mask = RTL_INT_ROK | RTL_INT_RER | RTL_INT_TOK | RTL_INT_TER |
			  RTL_INT_RDU | RTL_INT_LINK_CHG;
	return 0;
}

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
	 * number (research s4.3) */
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
	 * 0 (netpoll) the instance must not complete */
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

static void qv_add(struct rtl8169_private *tp, enum rtl_vec_kind kind,
		   unsigned int id, unsigned int q)
{
	struct rtl_q_vector *qv = &tp->qv[tp->nqv++];
	const char *dn = tp->dev->name;

	memset(qv, 0, sizeof(*qv));
	qv->tp = tp;
	qv->kind = kind;
	qv->id = id;
	qv->irq = -1;
	switch (kind) {
	case RTL_VEC_RX:
		snprintf(qv->name, sizeof(qv->name), "%s-rx-%u", dn, q);
		break;
	case RTL_VEC_TX:
		snprintf(qv->name, sizeof(qv->name), "%s-tx-%u", dn, q);
		break;
	case RTL_VEC_LINK:
		snprintf(qv->name, sizeof(qv->name), "%s-link", dn);
		break;
	case RTL_VEC_ALL:
		snprintf(qv->name, sizeof(qv->name), "%s", dn);
		break;
	}
	switch (kind) {
	case RTL_VEC_RX:
		qv->rx = &tp->rx_ring[q];
		rtl_dim_init(qv);
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_rx);
		break;
	case RTL_VEC_TX:
		qv->tx = &tp->tx_ring[q];
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_tx);
		break;
	case RTL_VEC_ALL:
		qv->rx = &tp->rx_ring[0];
		qv->tx = &tp->tx_ring[0];
		netif_napi_add(tp->dev, &qv->napi, rtl_poll_all);
		break;
	case RTL_VEC_LINK:
		return;
	}
	qv->napi_added = true;
}

/* The vectors in use for the current queue counts. */
int rtl_setup_q_vectors(struct rtl8169_private *tp)
{
	const struct rtl_irq_map *m = tp->map;

	tp->nqv = 0;
	if (!tp->v2_irq) {
		qv_add(tp, RTL_VEC_ALL, 0, 0);
		return 0;
	}
	for (unsigned int q = 0; q < tp->num_rx_queues; q++)
		qv_add(tp, RTL_VEC_RX, m->rx[q], q);
	for (unsigned int q = 0; q < tp->num_tx_queues; q++) {
		struct rtl_q_vector *shared = NULL;

		/* a TX ring whose message id is an RX queue's (ring vectors)
		 * is served by that vector's poll */
		for (unsigned int i = 0; i < tp->nqv; i++)
			if (tp->qv[i].id == m->tx[q])
				shared = &tp->qv[i];
		if (shared)
			shared->tx = &tp->tx_ring[q];
		else
			qv_add(tp, RTL_VEC_TX, m->tx[q], q);
	}
	qv_add(tp, RTL_VEC_LINK, m->link, 0);
	return 0;
}

void rtl_teardown_q_vectors(struct rtl8169_private *tp)
{
	for (unsigned int i = 0; i < tp->nqv; i++) {
		if (tp->qv[i].kind == RTL_VEC_RX)
			rtl_dim_stop(&tp->qv[i]);
		if (tp->qv[i].napi_added)
			netif_napi_del(&tp->qv[i].napi);
		tp->qv[i].napi_added = false;
	}
	tp->nqv = 0;
}

int rtl_request_irqs(struct rtl8169_private *tp)
{
	unsigned int i;
	int rc;

	for (i = 0; i < tp->nqv; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];

		qv->irq = pci_irq_vector(tp->pdev, qv->id);
		if (qv->irq < 0) {
			rc = qv->irq;
			goto err_free;
		}
		rc = request_irq((unsigned int)qv->irq, tp->irq_ops->handler, 0,
				 qv->name, qv);
		if (rc)
			goto err_free;
		qv->irq_requested = true;
		/* RX queue q's vector on the q-th interrupt CPU; TX and link
		 * with queue 0 */
		irq_set_affinity_hint((unsigned int)qv->irq,
				      cpumask_of(cpumask_local_spread(qv->kind == RTL_VEC_RX ?
								      (unsigned int)(qv->rx - tp->rx_ring) : 0,
								      -1)));
	}
	return 0;

err_free:
	netdev_err(tp->dev, "cannot request irq for %s: %d\n", tp->qv[i].name, rc);
	rtl_free_irqs(tp);
	return rc;
}

void rtl_free_irqs(struct rtl8169_private *tp)
{
	for (unsigned int i = 0; i < tp->nqv; i++) {
		struct rtl_q_vector *qv = &tp->qv[i];

		if (!qv->irq_requested)
			continue;
		irq_set_affinity_hint((unsigned int)qv->irq, NULL);
		free_irq((unsigned int)qv->irq, qv);
		qv->irq_requested = false;
	}
}

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
