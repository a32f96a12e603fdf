// SPDX-License-Identifier: MIT
/*
 * test_softirq.c - the simulated host's interrupt, softirq and NAPI rules,
 * proven with a fake multi-queue device (a platform PCI function) and a
 * fake NAPI driver written only against src/kern.
 *
 * The fake device: per queue a count of frames waiting, an interrupt
 * enable register and a "consume" doorbell.  A frame arriving while the
 * queue's interrupt is enabled sends MSI-X vector q; enabling it while
 * frames wait sends it too (a latched status, as NIC ISR/IMR pairs do).
 * Registers (BAR 0, 32-bit): 0x00+4q PENDING (RO), 0x40+4q CONSUME (WO),
 * 0x80+4q IEN (RW).
 *
 * The fake driver: hardirq masks its queue (IEN=0) and schedules NAPI;
 * poll reads PENDING, takes min(pending, budget) frames (an skb each,
 * charged rx_desc), hands them to napi_gro_receive, writes CONSUME, and
 * completes + unmasks when it did less than the budget.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "test_util.h"
#include "bed/bed_host.h"
#include "plat/plat_pci.h"

#define NQ 8

struct fdev {
	struct plat_pci_dev pci;
	u32 pending[NQ];
	u32 ien[NQ];
	u64 arrived[NQ];
	bool no_latch;          /* IEN write does not re-raise (for tests) */
};

static void fdev_intx(struct fdev *d);

static u64 fdev_read(void *opaque, u64 off, unsigned size)
{
	struct fdev *d = opaque;
	unsigned q = (unsigned)(off & 0x3f) / 4;

	(void)size;
	if (off < 0x40)
		return d->pending[q];
	if (off >= 0x80 && off < 0xc0)
		return d->ien[q];
	return 0;
}

static void fdev_write(void *opaque, u64 off, u64 val, unsigned size)
{
	struct fdev *d = opaque;
	unsigned q = (unsigned)(off & 0x3f) / 4;

	(void)size;
	if (off >= 0x40 && off < 0x80) {
		d->pending[q] -= (u32)val < d->pending[q] ? (u32)val : d->pending[q];
	} else if (off >= 0x80 && off < 0xc0) {
		bool rise = val && !d->ien[q];

		d->ien[q] = (u32)val;
		if (rise && d->pending[q] && !d->no_latch)
			plat_pci_msix_notify(&d->pci, q);
	}
	fdev_intx(d);
}

/* In INTx mode the line is the OR of (frames waiting && enabled). */
static void fdev_intx(struct fdev *d)
{
	bool level = false;

	for (unsigned q = 0; q < NQ; q++)
		level |= d->pending[q] && d->ien[q];
	if (d->pci.irq_mode == PLAT_PCI_IRQ_INTX)
		plat_pci_intx_set(&d->pci, level);
}

static const struct plat_pci_bar_ops fdev_ops = { fdev_read, fdev_write };

/* frame arrival at the device (engine event, outside any CPU) */
static void fdev_rx(struct fdev *d, unsigned q, u32 n)
{
	d->pending[q] += n;
	d->arrived[q] += n;
	if (d->ien[q])
		plat_pci_msix_notify(&d->pci, q);
	fdev_intx(d);
}

struct arrival {
	struct sim_event ev;
	struct fdev *d;
	unsigned q;
	u32 n;
	sim_time_t every;       /* re-arm period, 0 = once */
	u32 times;
};

static void arrival_fn(struct sim *s, struct sim_event *ev)
{
	struct arrival *a = ev->arg;

	fdev_rx(a->d, a->q, a->n);
	if (a->every && --a->times)
		sim_schedule_in(s, ev, a->every);
}

/* ----- the fake driver ----- */

struct fq {
	struct napi_struct napi;
	struct fdrv *drv;
	unsigned q;
	int irq;
	u64 delivered;
	int log[256];           /* work of each poll */
	int cpu_log[256];       /* CPU of each poll */
	unsigned npolls;
	/* misbehaviour switches for the contract tests */
	bool bad_over, bad_nocomplete, bad_complete_at_budget, sched_in_poll;
};

struct fdrv {
	struct net_device *dev;
	struct pci_dev pdev;
	void __iomem *bar;
	struct fq q[NQ];
	unsigned nq;
	u64 hook_rx;
	int irq_cpu_seen[NQ];
	sim_time_t irq_time[NQ];
};

static irqreturn_t fdrv_irq(int irq, void *dev_id)
{
	struct fq *fq = dev_id;

	(void)irq;
	fq->drv->irq_cpu_seen[fq->q] = (int)smp_processor_id();
	fq->drv->irq_time[fq->q] = ktime_get_ns();
	writel(0, fq->drv->bar + 0x80 + 4 * fq->q);
	napi_schedule(&fq->napi);
	return IRQ_HANDLED;
}

static int fdrv_poll(struct napi_struct *napi, int budget)
{
	struct fq *fq = container_of(napi, struct fq, napi);
	void __iomem *bar = fq->drv->bar;
	u32 pending = budget ? readl(bar + 4 * fq->q) : 0;
	int work = (int)pending < budget ? (int)pending : budget;

	if (fq->bad_over && budget)
		work = budget + 1;
	for (int i = 0; i < work; i++) {
		struct sk_buff *skb = napi_alloc_skb(napi, 64);

		kern_charge(SIM_COST_desc_read);
		skb_put(skb, 60);
		skb_record_rx_queue(skb, (u16)fq->q);
		napi_gro_receive(napi, skb);
	}
	if (work)
		writel((u32)work, bar + 0x40 + 4 * fq->q);
	fq->delivered += (u64)work;
	if (fq->npolls < 256) {
		fq->cpu_log[fq->npolls] = (int)smp_processor_id();
		fq->log[fq->npolls++] = work;
	}
	if (fq->sched_in_poll) {
		fq->sched_in_poll = false;
		napi_schedule(napi);    /* as an irq during the poll would */
	}
	if (fq->bad_complete_at_budget && work == budget)
		napi_complete_done(napi, work);
	if (work < budget && !fq->bad_nocomplete) {
		if (napi_complete_done(napi, work))
			writel(1, bar + 0x80 + 4 * fq->q);
	}
	return work;
}

static void hook_rx(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	struct fdrv *drv = data;

	(void)napi;
	drv->hook_rx++;
	consume_skb(skb);
}

/* ----- fixture ----- */

struct fx {
	struct bed_host h;
	struct fdev dev;
	struct fdrv drv;
};

static struct fx *fx_new_hz(unsigned ncpus, unsigned nq, unsigned nvec_dev,
			    unsigned hz)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct sim_host_params p;

	sim_host_params_default(&p, ncpus);
	if (hz)
		p.hz = hz;
	assert_int_equal(bed_host_up(&f->h, &p, 1), 0);
	assert_int_equal(plat_pci_dev_init(&f->dev.pci, f->h.host, &f->h.k.mem, "fake",
					  0x10ec, 0xfa4e, nvec_dev), 0);
	assert_int_equal(plat_pci_set_bar(&f->dev.pci, 0, 256, &fdev_ops, &f->dev), 0);
	f->drv.nq = nq;
	return f;
}

static struct fx *fx_new(unsigned ncpus, unsigned nq, unsigned nvec_dev)
{
	return fx_new_hz(ncpus, nq, nvec_dev, 0);
}

/* probe + open: vectors (MSI-X if possible), NAPI per queue, IEN on */
static int fx_probe(struct fx *f)
{
	struct fdrv *drv = &f->drv;
	int nvec, rc;

	kern_pci_dev_init(&drv->pdev, &f->dev.pci, "0000:01:00.0");
	drv->bar = pci_iomap(&drv->pdev, 0, 0);
	drv->dev = alloc_etherdev_mqs(0, 1, drv->nq);
	assert_non_null(drv->dev);
	assert_int_equal(register_netdev(drv->dev), 0);
	kern_netdev_set_rx_handler(drv->dev, hook_rx, NULL, drv);
	nvec = pci_alloc_irq_vectors(&drv->pdev, 1, drv->nq, PCI_IRQ_ALL_TYPES);
	if (nvec < 0)
		return nvec;
	if ((unsigned)nvec < drv->nq)
		drv->nq = 1;    /* fall back to a single queue */
	for (unsigned q = 0; q < drv->nq; q++) {
		struct fq *fq = &drv->q[q];

		fq->drv = drv;
		fq->q = q;
		netif_napi_add(drv->dev, &fq->napi, fdrv_poll);
		napi_enable(&fq->napi);
		fq->irq = pci_irq_vector(&drv->pdev, q);
		rc = request_irq((unsigned)fq->irq, fdrv_irq, 0, "fake", fq);
		if (rc)
			return rc;
		writel(1, drv->bar + 0x80 + 4 * q);
	}
	return 0;
}

static void fx_free(struct fx *f)
{
	struct fdrv *drv = &f->drv;

	for (unsigned q = 0; q < drv->nq; q++) {
		if (drv->q[q].irq > 0)
			free_irq((unsigned)drv->q[q].irq, &drv->q[q]);
		netif_napi_del(&drv->q[q].napi);
	}
	pci_free_irq_vectors(&drv->pdev);
	if (drv->dev) {
		unregister_netdev(drv->dev);
		free_netdev(drv->dev);
	}
	plat_pci_dev_fini(&f->dev.pci);
	bed_host_down(&f->h);
	free(f);
}

static u64 C(struct fx *f, enum sim_cost_id id)
{
	return f->h.cost.ps[id] / 1000;   /* default preset: whole ns */
}

static struct sim_acct_sample acct(struct fx *f, unsigned cpu)
{
	struct sim_acct_sample s;

	sim_host_sync(f->h.host);
	sim_host_acct(f->h.host, cpu, &s);
	return s;
}

/* ----- tests ----- */

/* One burst: exact irq and softirq time from the cost table. */
static void test_one_burst_exact(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct sim_acct_sample s;
	u64 irq_ns, soft_ns;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	fdev_rx(&f->dev, 0, 10);
	sim_run(&f->h.sim);
	assert_int_equal(f->drv.hook_rx, 10);
	assert_int_equal(f->drv.q[0].npolls, 1);
	assert_int_equal(f->drv.q[0].log[0], 10);
	assert_int_equal(f->dev.pending[0], 0);
	assert_int_equal(f->dev.ien[0], 1);     /* unmasked after completion */
	s = acct(f, 0);
	irq_ns = C(f, SIM_COST_hardirq_entry) + C(f, SIM_COST_mmio_write) +
		 C(f, SIM_COST_hardirq_exit);
	soft_ns = C(f, SIM_COST_softirq_entry) + C(f, SIM_COST_napi_poll) +
		  C(f, SIM_COST_mmio_read) +
		  10 * (C(f, SIM_COST_skb_alloc) + C(f, SIM_COST_desc_read) +
			C(f, SIM_COST_skb_free)) +
		  2 * C(f, SIM_COST_mmio_write);
	assert_int_equal(s.ns[SIM_ACCT_IRQ], irq_ns);
	assert_int_equal(s.ns[SIM_ACCT_SOFT], soft_ns);
	assert_int_equal(s.hardirqs, 1);
	assert_int_equal(s.softirq_passes, 1);
	assert_int_equal(sim_now(&f->h.sim), irq_ns + soft_ns);
	assert_int_equal(s.ns[SIM_ACCT_IDLE], 0);
	assert_int_equal(f->h.k.skbs_live, 0);
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));
	fx_free(f);
}

/* Weight 64 per poll, each napi polled once per net_rx_action pass,
 * netdev_budget 300 per pass (time_squeeze), re-raise of leftovers. */
static void test_weight_budget_reraise(void **state)
{
	struct fx *f = fx_new(1, 5, 8);
	struct softnet_data *sd;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	/* all five vectors on CPU 0; frames arrive before any irq runs */
	for (unsigned q = 0; q < 5; q++)
		fdev_rx(&f->dev, q, 200);
	sim_run(&f->h.sim);
	sd = &f->h.k.sd[0];
	for (unsigned q = 0; q < 5; q++) {
		assert_int_equal(f->drv.q[q].delivered, 200);
		/* 64, 64, 64, 8 for each queue */
		assert_int_equal(f->drv.q[q].npolls, 4);
		assert_int_equal(f->drv.q[q].log[0], 64);
		assert_int_equal(f->drv.q[q].log[3], 8);
	}
	/* Pass 1 polls q0..q4 (the napis were scheduled in irq order):
	 * 5 x 64 = 320 >= 300 -> squeeze after the fifth poll.  Every pass
	 * that uses the whole budget is squeezed: passes 1-3 (320 each);
	 * pass 4 does 5 x 8. */
	assert_int_equal(sd->time_squeeze, 3);
	assert_int_equal(sd->processed, 1000);
	assert_int_equal(sd->polls, 20);
	assert_int_equal(acct(f, 0).softirq_passes, 4);
	assert_int_equal(f->drv.hook_rx, 1000);
	fx_free(f);
}

/* netdev_budget_usecs: 2 * USEC_PER_SEC / HZ = 8000 us, counted in
 * jiffies (net_rx_action() stops once jiffies >= start +
 * usecs_to_jiffies(8000) = start + 2, at HZ 250 the 8 ms tick). */
static void test_budget_usecs(void **state)
{
	struct fx *f = fx_new(1, 4, 8);

	(void)state;
	assert_int_equal(f->h.k.netdev_budget_usecs, 8000);
	f->h.host->cost.ps[SIM_COST_desc_read] = 100000 * 1000ull;  /* 100 us/frame */
	assert_int_equal(fx_probe(f), 0);
	for (unsigned q = 0; q < 4; q++)
		fdev_rx(&f->dev, q, 64);
	sim_run_until(&f->h.sim, SIM_US(12700));
	/* q0 takes 6.4 ms (jiffy 1), q1 ends at 12.8 ms (jiffy 3): the pass
	 * is cut there, and as the 4 ms tick has passed the rest is left to
	 * ksoftirqd */
	assert_int_equal(f->h.k.sd[0].time_squeeze, 1);
	assert_int_equal(f->drv.q[0].npolls, 1);
	assert_int_equal(f->drv.q[1].npolls, 1);
	assert_int_equal(f->drv.q[2].npolls, 0);
	sim_run(&f->h.sim);
	assert_int_equal(acct(f, 0).ksoftirqd_wakeups, 1);
	for (unsigned q = 0; q < 4; q++)
		assert_int_equal(f->drv.q[q].delivered, 64);
	fx_free(f);
}

/* After 10 passes (MAX_SOFTIRQ_RESTART) the rest goes to ksoftirqd. */
static void test_ksoftirqd_after_10_restarts(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct sim_acct_sample s;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	fdev_rx(&f->dev, 0, 64 * 15 + 5);
	sim_run(&f->h.sim);
	s = acct(f, 0);
	assert_int_equal(f->drv.q[0].delivered, 64 * 15 + 5);
	assert_int_equal(f->drv.q[0].npolls, 16);
	/* 10 passes in irq context, then ksoftirqd: 6 more passes */
	assert_int_equal(s.ksoftirqd_wakeups, 1);
	assert_int_equal(s.softirq_passes, 16);
	assert_true(s.ksoftirqd_ns > 0);
	assert_true(s.ksoftirqd_ns < s.ns[SIM_ACCT_SOFT]);
	/* ksoftirqd time is softirq time, and the task's own time */
	assert_int_equal(sim_ksoftirqd(f->h.host, 0)->ns[SIM_ACCT_SOFT], s.ksoftirqd_ns);
	assert_int_equal(s.ctx_switches, 1);
	fx_free(f);
}

/*
 * MAX_SOFTIRQ_TIME is 2 ms in jiffies (kernel/softirq.c handle_softirqs():
 * restart while jiffies is before start + msecs_to_jiffies(2)).  Passes of
 * ~1.03 ms (64 frames x 16 us) from t = 0: at HZ 1000 the limit is jiffy 2
 * (2 ms), so ksoftirqd takes over after pass 2; at HZ 250 it is jiffy 1
 * (the 4 ms tick), so after pass 4.
 */
static void test_ksoftirqd_after_2ms(void **state)
{
	static const struct { unsigned hz, irq_passes; } c[] = {
		{ 1000, 2 }, { 250, 4 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct fx *f = fx_new_hz(1, 1, 4, c[i].hz);
		struct sim_acct_sample s;
		u64 irq_soft;

		f->h.host->cost.ps[SIM_COST_desc_read] = 16000 * 1000ull;
		assert_int_equal(fx_probe(f), 0);
		fdev_rx(&f->dev, 0, 64 * 5);
		sim_run(&f->h.sim);
		s = acct(f, 0);
		assert_int_equal(s.ksoftirqd_wakeups, 1);
		/* 5 full polls and the empty one that completes */
		assert_int_equal(f->drv.q[0].npolls, 6);
		assert_int_equal(s.softirq_passes, 6);
		irq_soft = s.ns[SIM_ACCT_SOFT] - s.ksoftirqd_ns;
		/* the passes in irq context: c[i].irq_passes polls of 1.03 ms */
		assert_true(irq_soft > c[i].irq_passes * SIM_US(1024));
		assert_true(irq_soft < c[i].irq_passes * SIM_US(1040));
		fx_free(f);
	}
}

/* The limit is the next tick, not 2 ms from the start: a loop that starts
 * 0.1 ms before the 4 ms tick (HZ 250) and whose first pass ends after it
 * hands the rest to ksoftirqd after that one pass (red with a 2 ms
 * timer from the start). */
static void test_ksoftirqd_at_tick(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct arrival a = { .d = &f->dev, .q = 0, .n = 3 * 64 };
	struct sim_acct_sample s;

	(void)state;
	f->h.host->cost.ps[SIM_COST_desc_read] = 4000 * 1000ull;    /* 0.26 ms a poll */
	assert_int_equal(fx_probe(f), 0);
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, SIM_US(3900));
	sim_run(&f->h.sim);
	s = acct(f, 0);
	assert_int_equal(f->drv.q[0].delivered, 3 * 64);
	assert_int_equal(s.ksoftirqd_wakeups, 1);
	/* one 0.26 ms pass in irq context, the other 2 + 1 in ksoftirqd */
	assert_true(s.ns[SIM_ACCT_SOFT] - s.ksoftirqd_ns < SIM_US(300));
	assert_true(s.ksoftirqd_ns > SIM_US(500));
	fx_free(f);
}

struct spin {
	struct sim_task t;
	u64 chunks;
	sim_time_t chunk_ns;
	sim_time_t starts[16];
};

static enum sim_task_ret spin_run(struct sim_task *t, void *arg)
{
	struct spin *s = arg;

	if (s->chunks < 16)
		s->starts[s->chunks] = sim_now(t->host->sim);
	s->chunks++;
	sim_charge_usr_ps(t->host, s->chunk_ns * 1000);
	return s->chunks < 4 ? SIM_TASK_RUNNABLE : SIM_TASK_SLEEP;
}

/* Linux 4.15 to 6.4 (params.defer_to_ksoftirqd): while ksoftirqd is
 * runnable, irq_exit() leaves NET_RX to it, but HI and TASKLET
 * (SOFTIRQ_NOW_MASK) still run at once (kernel/softirq.c
 * ksoftirqd_running()).  A task runs; ksoftirqd is woken behind it; a
 * hardirq then raises softirq nr. */
static bool now_action(struct sim_host *h, unsigned cpu, void *arg, bool first)
{
	(void)cpu;
	(void)arg;
	(void)first;
	sim_charge(h, SIM_COST_skb_alloc, 1);
	return false;
}

struct raiser {
	struct sim_event ev;
	struct sim_irq irq;
	struct sim_host *h;
	unsigned nr;
	bool wake;
};

static void raiser_irq(struct sim_irq *irq, void *arg)
{
	struct raiser *r = arg;

	(void)irq;
	sim_softirq_raise(r->h, 0, r->nr);
}

static void raise_fn(struct sim *s, struct sim_event *ev)
{
	struct raiser *r = ev->arg;

	if (r->wake) {
		sim_task_wake(sim_ksoftirqd(r->h, 0));
		r->wake = false;
		sim_schedule_in(s, ev, SIM_US(10));
		return;
	}
	sim_irq_raise(&r->irq);
}

static void test_defer_now_mask(void **state)
{
	static const struct { bool defer; unsigned nr; bool in_ksoftirqd; } c[] = {
		{ true, SIM_SOFTIRQ_NET_RX, true },
		{ true, SIM_SOFTIRQ_TASKLET, false },
		{ true, SIM_SOFTIRQ_HI, false },
		{ false, SIM_SOFTIRQ_NET_RX, false },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sim sim;
		struct sim_cost cost;
		struct sim_host_params p;
		struct sim_host *h;
		struct raiser r = { .nr = c[i].nr, .wake = true };
		struct spin sp = { .chunk_ns = SIM_US(100) };
		struct sim_cpuset one;
		struct sim_acct_sample s;

		sim_init(&sim);
		sim_cost_load_default(&cost);
		sim_host_params_default(&p, 1);
		p.defer_to_ksoftirqd = c[i].defer;
		h = sim_host_create(&sim, &cost, &p);
		assert_non_null(h);
		sim_softirq_register(h, c[i].nr, now_action, NULL);
		sim_cpuset_first_n(&one, 1);
		sim_task_init(h, &sp.t, "spin", spin_run, &sp, &one);
		sim_task_wake(&sp.t);
		r.h = h;
		sim_irq_init(h, &r.irq, "raiser", raiser_irq, &r, 0);
		sim_event_init(&r.ev, raise_fn, &r);
		sim_schedule_at(&sim, &r.ev, SIM_US(10));
		sim_run(&sim);
		sim_host_sync(h);
		sim_host_acct(h, 0, &s);
		assert_int_equal(s.hardirqs, 1);
		/* the action ran once (in ksoftirqd after a task switch) */
		assert_int_equal(s.ns[SIM_ACCT_SOFT],
				 (cost.ps[SIM_COST_softirq_entry] +
				  cost.ps[SIM_COST_skb_alloc] +
				  (c[i].in_ksoftirqd ? cost.ps[SIM_COST_task_switch] : 0)) / 1000);
		if (c[i].in_ksoftirqd)
			assert_int_equal(s.ksoftirqd_ns, s.ns[SIM_ACCT_SOFT]);
		else
			assert_int_equal(s.ksoftirqd_ns, 0);
		sim_host_destroy(h);
		sim_fini(&sim);
	}
}

/* Hardirq preempts softirq; a second hardirq waits for the first. */
static void test_priorities(void **state)
{
	struct fx *f = fx_new(1, 2, 4);
	struct arrival a = { .d = &f->dev, .q = 1, .n = 1 };
	u64 irq_ns;

	(void)state;
	f->h.host->cost.ps[SIM_COST_desc_read] = 1000 * 1000ull;    /* 1 us */
	assert_int_equal(fx_probe(f), 0);
	/* q0: 50 frames -> its poll (softirq) runs ~50 us; q1's frame arrives
	 * at 10 us, in the middle of it */
	fdev_rx(&f->dev, 0, 50);
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, SIM_US(10));
	sim_run(&f->h.sim);
	/* the q1 handler ran at the arrival, not after the softirq (its
	 * clock reads arrival + entry cost) */
	assert_int_equal(f->drv.irq_time[1], SIM_US(10) + C(f, SIM_COST_hardirq_entry));
	irq_ns = C(f, SIM_COST_hardirq_entry) + C(f, SIM_COST_mmio_write) +
		 C(f, SIM_COST_hardirq_exit);
	assert_int_equal(acct(f, 0).ns[SIM_ACCT_IRQ], 2 * irq_ns);
	assert_int_equal(f->drv.q[1].delivered, 1);
	/* q0's poll was already running: q1, scheduled inside
	 * net_rx_action, is polled by the same action before it returns,
	 * and raises no NET_RX of its own (Linux 6.4's in_net_rx_action):
	 * one pass */
	assert_int_equal(acct(f, 0).softirq_passes, 1);
	assert_false(sim_softirq_pending(f->h.host, 0, SIM_SOFTIRQ_NET_RX));

	/* two vectors raised together: the second handler starts when the
	 * first one ends */
	fdev_rx(&f->dev, 0, 1);
	fdev_rx(&f->dev, 1, 1);
	sim_time_t t0 = sim_now(&f->h.sim);

	sim_run(&f->h.sim);
	assert_int_equal(f->drv.irq_time[0], t0 + C(f, SIM_COST_hardirq_entry));
	assert_int_equal(f->drv.irq_time[1], t0 + irq_ns + C(f, SIM_COST_hardirq_entry));
	fx_free(f);
}

/* A user task is preempted by the interrupt and its softirq. */
static void test_task_preempted(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct spin sp = { .chunk_ns = SIM_US(100) };
	struct sim_cpuset all;
	struct arrival a = { .d = &f->dev, .q = 0, .n = 3 };
	struct sim_acct_sample s;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	sim_cpuset_first_n(&all, 1);
	sim_task_init(f->h.host, &sp.t, "spin", spin_run, &sp, &all);
	sim_task_wake(&sp.t);
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, SIM_US(150));
	sim_run(&f->h.sim);
	s = acct(f, 0);
	u64 irq = s.ns[SIM_ACCT_IRQ], soft = s.ns[SIM_ACCT_SOFT];
	u64 sw = C(f, SIM_COST_task_switch);

	assert_int_equal(f->drv.irq_time[0], SIM_US(150) + C(f, SIM_COST_hardirq_entry));
	assert_int_equal(sp.chunks, 4);
	/* chunk 2 (started at 100 us + switch) was stretched by irq+softirq */
	assert_int_equal(sp.starts[1], SIM_US(100) + sw);
	assert_int_equal(sp.starts[2], SIM_US(200) + sw + irq + soft);
	assert_int_equal(s.ns[SIM_ACCT_USR], SIM_US(400));
	assert_int_equal(s.ns[SIM_ACCT_SYS], sw + C(f, SIM_COST_task_wakeup) * 0);
	assert_int_equal(sp.t.ns[SIM_ACCT_USR], SIM_US(400));
	assert_int_equal(sim_now(&f->h.sim), SIM_US(400) + sw + irq + soft);
	assert_int_equal(s.ns[SIM_ACCT_IDLE], 0);
	fx_free(f);
}

/* Vectors spread round-robin; restrictable; handlers run there. */
static void test_affinity(void **state)
{
	struct fx *f = fx_new(4, 6, 8);
	struct sim_cpuset set;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	for (unsigned q = 0; q < 6; q++)
		assert_int_equal(kern_irq_cpu((unsigned)f->drv.q[q].irq), q % 4);
	assert_int_equal(sim_cpuset_parse(&set, "2-3", 4), 0);
	assert_int_equal(kern_irq_restrict(&f->h.k, &set), 0);
	for (unsigned q = 0; q < 6; q++)
		assert_int_equal(kern_irq_cpu((unsigned)f->drv.q[q].irq), 2 + q % 2);
	/* a hint inside the set is honoured, outside it is ignored */
	sim_cpuset_zero(&set);
	sim_cpuset_set(&set, 3);
	assert_int_equal(irq_set_affinity_and_hint((unsigned)f->drv.q[0].irq, cpumask_of(3)), 0);
	assert_int_equal(kern_irq_cpu((unsigned)f->drv.q[0].irq), 3);
	sim_cpuset_zero(&set);
	sim_cpuset_set(&set, 0);
	assert_int_equal(irq_set_affinity_and_hint((unsigned)f->drv.q[1].irq, cpumask_of(0)), 0);
	assert_int_equal(kern_irq_cpu((unsigned)f->drv.q[1].irq), 3);
	assert_int_equal(irq_set_affinity((unsigned)f->drv.q[1].irq, cpumask_of(0)), 0);
	assert_int_equal(kern_irq_cpu((unsigned)f->drv.q[1].irq), 0);
	sim_cpuset_zero(&set);
	assert_int_equal(kern_irq_restrict(&f->h.k, &set), -EINVAL);
	assert_int_equal(sim_cpuset_parse(&set, "4", 4), -EINVAL);
	assert_int_equal(sim_cpuset_parse(&set, "1-", 4), -EINVAL);
	assert_int_equal(sim_cpuset_parse(&set, "3-1", 4), -EINVAL);
	/* handlers and polls run on the vector's CPU */
	for (unsigned q = 0; q < 6; q++)
		fdev_rx(&f->dev, q, 3);
	sim_run(&f->h.sim);
	for (unsigned q = 0; q < 6; q++) {
		int cpu = kern_irq_cpu((unsigned)f->drv.q[q].irq);

		assert_int_equal(f->drv.irq_cpu_seen[q], cpu);
		assert_int_equal(f->drv.q[q].cpu_log[0], cpu);
		assert_int_equal(f->drv.q[q].delivered, 3);
	}
	assert_int_equal(acct(f, 1).hardirqs, 0);
	fx_free(f);
}

/* MSI-X: a masked vector's message is held (PBA) and sent on unmask. */
static void test_masked_pending_unmask(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	unsigned irq;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	irq = (unsigned)f->drv.q[0].irq;
	disable_irq(irq);
	disable_irq(irq);       /* nested */
	fdev_rx(&f->dev, 0, 2);
	sim_run(&f->h.sim);
	assert_int_equal(kern_irq_count(irq), 0);
	assert_true(f->dev.pci.msix[0].pending);
	enable_irq(irq);
	sim_run(&f->h.sim);
	assert_int_equal(kern_irq_count(irq), 0);       /* still depth 1 */
	enable_irq(irq);
	assert_false(f->dev.pci.msix[0].pending);
	sim_run(&f->h.sim);
	assert_int_equal(kern_irq_count(irq), 1);
	assert_int_equal(f->drv.q[0].delivered, 2);
	assert_int_equal(f->dev.pci.msix[0].held, 1);
	/* unbalanced enable is reported, not fatal */
	enable_irq(irq);
	assert_int_equal(f->h.k.warn.other, 1);
	/* a raise while queued is collapsed (one IRR bit per vector) */
	f->dev.no_latch = true;
	plat_pci_msix_notify(&f->dev.pci, 0);
	plat_pci_msix_notify(&f->dev.pci, 0);
	sim_run(&f->h.sim);
	assert_int_equal(kern_irq_count(irq), 2);
	fx_free(f);
}

/* Vector allocation fallback: MSI-X -> MSI -> INTx, with fault knobs. */
static void test_vector_fallback(void **state)
{
	struct fx *f = fx_new(2, 4, 4);

	(void)state;
	f->h.k.fault.msix_avail = 2;      /* fewer than the 4 wanted */
	assert_int_equal(fx_probe(f), 0);
	assert_true(f->drv.pdev.msix_enabled);
	assert_int_equal(f->drv.pdev.nvec, 2);
	assert_int_equal(f->drv.nq, 1);
	fdev_rx(&f->dev, 0, 5);
	sim_run(&f->h.sim);
	assert_int_equal(f->drv.hook_rx, 5);
	fx_free(f);

	f = fx_new(2, 4, 4);
	f->h.k.fault.msix_avail = 0;
	assert_int_equal(fx_probe(f), 0);
	assert_true(f->drv.pdev.msi_enabled);
	assert_int_equal(f->drv.nq, 1);
	fdev_rx(&f->dev, 0, 5);         /* MSI: one message, any vector */
	sim_run(&f->h.sim);
	assert_int_equal(f->drv.hook_rx, 5);
	fx_free(f);

	/* INTx is level-triggered: asserted while frames wait */
	f = fx_new(1, 1, 4);
	f->h.k.fault.msix_avail = 0;
	f->h.k.fault.msi_fail = true;
	assert_int_equal(fx_probe(f), 0);
	assert_false(f->drv.pdev.msi_enabled || f->drv.pdev.msix_enabled);
	assert_int_equal(f->dev.pci.irq_mode, PLAT_PCI_IRQ_INTX);
	fdev_rx(&f->dev, 0, 3);
	assert_true(f->dev.pci.intx_level);
	sim_run(&f->h.sim);
	assert_int_equal(f->drv.hook_rx, 3);
	assert_false(f->dev.pci.intx_level);
	assert_int_equal(kern_irq_count(f->drv.pdev.irq), 1);
	/* a line still asserted after the handler interrupts again: frames
	 * that arrive while masked are seen once the driver unmasks */
	f->dev.no_latch = true;
	fdev_rx(&f->dev, 0, 2);
	sim_run(&f->h.sim);
	assert_int_equal(f->drv.hook_rx, 5);
	fx_free(f);

	/* nothing possible with min 2 -> -ENOSPC; bad args -> -EINVAL */
	f = fx_new(1, 1, 4);
	f->h.k.fault.msix_avail = 1;
	kern_pci_dev_init(&f->drv.pdev, &f->dev.pci, "x");
	assert_int_equal(pci_alloc_irq_vectors(&f->drv.pdev, 2, 4, PCI_IRQ_ALL_TYPES),
			 -ENOSPC);
	assert_int_equal(pci_alloc_irq_vectors(&f->drv.pdev, 0, 4, PCI_IRQ_MSIX), -EINVAL);
	assert_int_equal(pci_alloc_irq_vectors(&f->drv.pdev, 3, 2, PCI_IRQ_MSIX), -EINVAL);
	assert_int_equal(pci_alloc_irq_vectors(&f->drv.pdev, 1, 1, PCI_IRQ_MSIX), 1);
	assert_int_equal(pci_alloc_irq_vectors(&f->drv.pdev, 1, 1, PCI_IRQ_MSIX), -EINVAL);
	assert_int_equal(pci_irq_vector(&f->drv.pdev, 1), -EINVAL);
	assert_int_equal(request_irq(999, fdrv_irq, 0, "x", NULL), -EINVAL);
	unsigned irq = (unsigned)pci_irq_vector(&f->drv.pdev, 0);
	assert_int_equal(request_irq(irq, NULL, 0, "x", NULL), -EINVAL);
	assert_int_equal(request_irq(irq, fdrv_irq, 0, "x", &f->drv.q[0]), 0);
	assert_int_equal(request_irq(irq, fdrv_irq, 0, "x", &f->drv.q[0]), -EBUSY);
	assert_null(free_irq(irq, NULL));
	assert_string_equal(free_irq(irq, &f->drv.q[0]), "x");
	pci_free_irq_vectors(&f->drv.pdev);
	plat_pci_dev_fini(&f->dev.pci);
	bed_host_down(&f->h);
	free(f);
}

/* The napi.rst contract: checked on misbehaving drivers. */
static void test_napi_contract(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct fq *fq;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	fq = &f->drv.q[0];

	/* budget 0 (netpoll): no RX, no completion, returns 0 */
	fdev_rx(&f->dev, 0, 5);
	napi_disable(&fq->napi);        /* keep the softirq out of it */
	napi_enable(&fq->napi);
	assert_true(napi_schedule_prep(&fq->napi));
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 0), 0);
	assert_int_equal(f->dev.pending[0], 5);
	/* budget-1, budget, budget+1 pending with budget 4 */
	f->dev.pending[0] = 3;
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 4), 3);
	assert_false(napi_is_scheduled(&fq->napi));     /* completed */
	assert_int_equal(f->dev.ien[0], 1);
	f->dev.ien[0] = 0;
	assert_true(napi_schedule_prep(&fq->napi));
	f->dev.pending[0] = 4;
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 4), 4);
	assert_true(napi_is_scheduled(&fq->napi));      /* not completed */
	assert_int_equal(f->dev.ien[0], 0);             /* still masked */
	f->dev.pending[0] = 5;
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 4), 4);
	assert_true(napi_is_scheduled(&fq->napi));
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 4), 1);
	assert_false(napi_is_scheduled(&fq->napi));
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));

	/* misbehaviour is caught */
	assert_true(napi_schedule_prep(&fq->napi));
	f->dev.pending[0] = 10;
	fq->bad_over = true;
	assert_int_equal(kern_napi_poll_direct(&fq->napi, 4), 4);
	assert_int_equal(f->h.k.warn.napi_over_budget, 1);
	fq->bad_over = false;
	fq->bad_complete_at_budget = true;
	kern_napi_poll_direct(&fq->napi, 4);
	assert_int_equal(f->h.k.warn.napi_complete_at_budget, 1);
	fq->bad_complete_at_budget = false;
	assert_true(napi_schedule_prep(&fq->napi));
	fq->bad_nocomplete = true;
	f->dev.pending[0] = 1;
	kern_napi_poll_direct(&fq->napi, 4);
	assert_int_equal(f->h.k.warn.napi_not_completed, 1);
	fq->bad_nocomplete = false;
	/* budget 0 with a completion is caught */
	napi_complete_done(&fq->napi, 0);
	assert_true(napi_schedule_prep(&fq->napi));
	fq->napi.in_poll = true;
	fq->napi.poll_budget = 0;
	napi_complete_done(&fq->napi, 0);
	fq->napi.in_poll = false;
	assert_int_equal(f->h.k.warn.napi_budget0_work, 1);
	assert_non_null(strstr(f->h.k.last_log, "budget 0"));
	fx_free(f);
}

/* MISSED: a schedule during the poll makes completion poll once more. */
static void test_napi_missed(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct fq *fq;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	fq = &f->drv.q[0];
	fq->sched_in_poll = true;
	fdev_rx(&f->dev, 0, 3);
	sim_run(&f->h.sim);
	assert_int_equal(fq->npolls, 2);
	assert_int_equal(fq->log[0], 3);
	assert_int_equal(fq->log[1], 0);
	assert_int_equal(f->dev.ien[0], 1);
	assert_false(napi_is_scheduled(&fq->napi));
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));
	fx_free(f);
}

/* napi_defer_hard_irqs + gro_flush_timeout: the timer polls, the
 * interrupt stays masked, arrivals in between cost no interrupt. */
static void test_napi_defer(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct fq *fq;
	struct arrival a = { .n = 4, .every = SIM_US(30), .times = 5 };

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	fq = &f->drv.q[0];
	f->drv.dev->napi_defer_hard_irqs = 2;
	f->drv.dev->gro_flush_timeout = SIM_US(50);
	a.d = &f->dev;
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, 0);
	sim_run(&f->h.sim);
	/* 5 bursts of 4 frames 30 us apart, all served with one interrupt:
	 * polls at ~0, 50, 100, 150 us find work; then two empty timer polls
	 * use up the defer count and the driver unmasks */
	assert_int_equal(kern_irq_count((unsigned)fq->irq), 1);
	assert_int_equal(fq->delivered, 20);
	assert_int_equal(fq->napi.timer_fires, fq->npolls - 1);
	assert_int_equal(fq->log[fq->npolls - 1], 0);
	assert_int_equal(fq->log[fq->npolls - 2], 0);
	assert_int_equal(f->dev.ien[0], 1);
	/* without coalescing: one interrupt per burst */
	fx_free(f);
	f = fx_new(1, 1, 4);
	assert_int_equal(fx_probe(f), 0);
	a = (struct arrival){ .d = &f->dev, .n = 4, .every = SIM_US(30), .times = 5 };
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, 0);
	sim_run(&f->h.sim);
	assert_int_equal(kern_irq_count((unsigned)f->drv.q[0].irq), 5);
	fx_free(f);
}

/* mpstat accounting: every interval of every CPU adds up to 100 %. */
struct load {
	struct sim_task t;
	struct sim_rng rng;
};

static enum sim_task_ret load_run(struct sim_task *t, void *arg)
{
	struct load *l = arg;
	u64 r = sim_rng_u64(&l->rng);

	sim_charge_ps(t->host, (r % 20000) * 1000);
	sim_charge_usr_ps(t->host, ((r >> 20) % 50000) * 1000);
	return (r >> 40) % 5 ? SIM_TASK_RUNNABLE : SIM_TASK_SLEEP;
}

struct waker {
	struct sim_event ev;
	struct load *l;
	unsigned n;
};

static void waker_fn(struct sim *s, struct sim_event *ev)
{
	struct waker *w = ev->arg;

	for (unsigned i = 0; i < w->n; i++)
		sim_task_wake(&w->l[i].t);
	sim_schedule_in(s, ev, SIM_US(700));
}

static u64 mpstat_run(u64 seed, bool check)
{
	struct fx *f = fx_new(4, 4, 8);
	struct load l[3];
	struct waker w = { .l = l, .n = 3 };
	struct arrival a[4];
	struct sim_acct_sample prev[4], cur;
	struct sim_cpuset allowed;
	u64 h, usr = 0;

	assert_int_equal(fx_probe(f), 0);
	sim_cpuset_first_n(&allowed, 4);
	for (unsigned i = 0; i < 3; i++) {
		sim_rng_init(&l[i].rng, seed, i);
		sim_task_init(f->h.host, &l[i].t, "load", load_run, &l[i], &allowed);
	}
	sim_event_init(&w.ev, waker_fn, &w);
	sim_schedule_at(&f->h.sim, &w.ev, 0);
	for (unsigned q = 0; q < 4; q++) {
		a[q] = (struct arrival){ .d = &f->dev, .q = q, .n = 7 + q,
					 .every = SIM_US(13 + 4 * q) + seed % 5,
					 .times = 100000 };
		sim_event_init(&a[q].ev, arrival_fn, &a[q]);
		sim_schedule_at(&f->h.sim, &a[q].ev, q);
	}
	for (unsigned c = 0; c < 4; c++)
		prev[c] = acct(f, c);
	for (int iv = 1; iv <= 5; iv++) {
		sim_run_until(&f->h.sim, SIM_MS(10) * (u64)iv);
		for (unsigned c = 0; c < 4; c++) {
			u64 sum = 0;
			double pct = 0;

			cur = acct(f, c);
			for (int k = 0; k < SIM_ACCT_NR; k++) {
				sum += cur.ns[k] - prev[c].ns[k];
				pct += 100.0 * (double)(cur.ns[k] - prev[c].ns[k]) /
				       (double)SIM_MS(10);
			}
			if (check) {
				assert_int_equal(sum, SIM_MS(10));
				assert_true(pct > 100.0 - 1e-9 && pct < 100.0 + 1e-9);
				assert_true(cur.ksoftirqd_ns - prev[c].ksoftirqd_ns <=
					    cur.ns[SIM_ACCT_SOFT] - prev[c].ns[SIM_ACCT_SOFT]);
				/* every CPU takes interrupts */
				if (iv == 5) {
					assert_true(cur.ns[SIM_ACCT_IRQ] > 0);
					assert_true(cur.ns[SIM_ACCT_SOFT] > 0);
					usr += cur.ns[SIM_ACCT_USR];
				}
			}
			prev[c] = cur;
		}
	}
	if (check)
		assert_true(usr > SIM_MS(10));  /* the tasks really ran */
	h = f->h.sim.trace;
	sim_cancel(&f->h.sim, &w.ev);
	for (unsigned q = 0; q < 4; q++)
		sim_cancel(&f->h.sim, &a[q].ev);
	for (unsigned i = 0; i < 3; i++)
		sim_task_fini(&l[i].t);
	fx_free(f);
	return h;
}

static void test_mpstat_sums(void **state)
{
	(void)state;
	mpstat_run(3, true);
}

static void test_determinism(void **state)
{
	(void)state;
	assert_int_equal(mpstat_run(9, false), mpstat_run(9, false));
	assert_int_not_equal(mpstat_run(9, false), mpstat_run(10, false));
}

static enum sim_task_ret spin_forever_run(struct sim_task *t, void *arg)
{
	(void)arg;
	sim_charge_usr_ps(t->host, SIM_US(50) * 1000);
	return SIM_TASK_RUNNABLE;
}

/* ksoftirqd competes with a user task on the same CPU. */
static void test_ksoftirqd_vs_task(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct load l;
	struct sim_cpuset one;
	struct arrival a;
	struct sim_acct_sample s;

	(void)state;
	f->h.host->cost.ps[SIM_COST_desc_read] = 2000 * 1000ull;
	assert_int_equal(fx_probe(f), 0);
	sim_cpuset_first_n(&one, 1);
	sim_rng_init(&l.rng, 1, 1);
	sim_task_init(f->h.host, &l.t, "user", load_run, &l, &one);
	/* the user task never sleeps: a CPU hog */
	l.t.run = spin_forever_run;
	sim_task_wake(&l.t);
	a = (struct arrival){ .d = &f->dev, .q = 0, .n = 60, .every = SIM_US(100),
			      .times = 400 };
	sim_event_init(&a.ev, arrival_fn, &a);
	sim_schedule_at(&f->h.sim, &a.ev, 0);
	sim_run_until(&f->h.sim, SIM_MS(40));
	s = acct(f, 0);
	/* softirq load above what irq-exit processing may keep: ksoftirqd
	 * takes over and shares the CPU with the task */
	assert_true(s.ksoftirqd_wakeups > 0);
	assert_true(s.ksoftirqd_ns > SIM_MS(1));
	assert_true(s.ns[SIM_ACCT_USR] > SIM_MS(5));
	assert_true(s.ctx_switches > 2);
	sim_cancel(&f->h.sim, &a.ev);
	sim_task_fini(&l.t);
	fx_free(f);
}

/* A wakeup that arrives while a task's chunk is deciding to sleep is not
 * lost: the task runs again instead of sleeping (Linux's state protocol). */
struct sleeper {
	struct sim_task t;
	bool have_work;
	unsigned chunks;
};

static enum sim_task_ret sleeper_run(struct sim_task *t, void *arg)
{
	struct sleeper *sl = arg;

	sl->chunks++;
	sim_charge_ps(t->host, SIM_US(100) * 1000);
	if (sl->have_work) {
		sl->have_work = false;
		return SIM_TASK_RUNNABLE;
	}
	return SIM_TASK_SLEEP;          /* ... but the chunk lasts 100 us */
}

struct waker1 {
	struct sim_event ev;
	struct sleeper *sl;
};

static void waker1_fn(struct sim *s, struct sim_event *ev)
{
	struct waker1 *w = ev->arg;

	(void)s;
	w->sl->have_work = true;
	sim_task_wake(&w->sl->t);
}

static void test_no_lost_wakeup(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct sleeper sl = { 0 };
	struct waker1 w = { .sl = &sl };
	struct sim_cpuset one;

	(void)state;
	assert_int_equal(fx_probe(f), 0);
	sim_cpuset_first_n(&one, 1);
	sim_task_init(f->h.host, &sl.t, "sleeper", sleeper_run, &sl, &one);
	sim_task_wake(&sl.t);
	sim_event_init(&w.ev, waker1_fn, &w);
	sim_schedule_at(&f->h.sim, &w.ev, SIM_US(50));    /* mid-chunk */
	sim_run(&f->h.sim);
	/* chunk 1 decided to sleep at 0 us, the wake at 50 us kept it up;
	 * chunk 2 found the work, chunk 3 slept for good */
	assert_int_equal(sl.chunks, 3);
	assert_int_equal(sl.t.state, SIM_TASK_SLEEPING);
	sim_task_fini(&sl.t);
	fx_free(f);
}

/* ----- tasklets and BH workqueues (kernel/softirq.c, workqueue.c) ----- */

struct tl_probe {
	struct tasklet_struct t;
	struct work_struct w;
	unsigned runs, wruns, requeue_w, resched_t;
	unsigned pass_at_run[32];       /* softirq passes when it ran */
	unsigned order[32], norder;     /* 1 = work, 2 = tasklet */
	struct fx *f;
};

static void tl_fn(struct tasklet_struct *t)
{
	struct tl_probe *p = from_tasklet(p, t, t);

	sim_charge(p->f->h.host, SIM_COST_skb_alloc, 1);
	if (p->runs < 32) {
		struct sim_acct_sample a;

		sim_host_acct(p->f->h.host, 0, &a);       /* no sync inside a frame */
		p->pass_at_run[p->runs] = (unsigned)a.softirq_passes;
	}
	p->runs++;
	if (p->norder < 32)
		p->order[p->norder++] = 2;
	if (p->resched_t) {
		p->resched_t--;
		tasklet_schedule(t);
	}
}

static void wq_fn(struct work_struct *w)
{
	struct tl_probe *p = container_of(w, struct tl_probe, w);

	sim_charge(p->f->h.host, SIM_COST_skb_alloc, 1);
	p->wruns++;
	if (p->norder < 32)
		p->order[p->norder++] = 1;
	if (p->requeue_w) {
		p->requeue_w--;
		queue_work(system_bh_wq, w);
	}
}

struct tl_kick {
	struct sim_event ev;
	struct sim_irq irq;
	struct tl_probe *p;
	unsigned what;                  /* bit 0: tasklet, bit 1: work */
};

static void tl_kick_irq(struct sim_irq *irq, void *arg)
{
	struct tl_kick *k = arg;

	(void)irq;
	if (k->what & 1) {
		tasklet_schedule(&k->p->t);
		tasklet_schedule(&k->p->t);     /* already scheduled: no-op */
	}
	if (k->what & 2)
		queue_work(system_bh_wq, &k->p->w);
}

static void tl_kick_fn(struct sim *s, struct sim_event *ev)
{
	struct tl_kick *k = ev->arg;

	(void)s;
	sim_irq_raise(&k->irq);
}

static void tl_setup(struct fx *f, struct tl_probe *p, struct tl_kick *k,
		     unsigned what)
{
	assert_int_equal(fx_probe(f), 0);       /* fx_free() undoes it */
	memset(p, 0, sizeof(*p));
	p->f = f;
	tasklet_setup(&p->t, tl_fn);
	INIT_WORK(&p->w, wq_fn);
	memset(k, 0, sizeof(*k));
	k->p = p;
	k->what = what;
	sim_irq_init(f->h.host, &k->irq, "kick", tl_kick_irq, k, 0);
	sim_event_init(&k->ev, tl_kick_fn, k);
	sim_schedule_at(&f->h.sim, &k->ev, SIM_US(10));
}

/* A tasklet scheduled twice runs once; one that schedules itself runs
 * again in the next pass (TASKLET raised again), never in the same one;
 * a BH work item runs before the tasklets of the same softirq. */
static void test_tasklet_rules(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct tl_probe p;
	struct tl_kick k;
	u64 wr, tr;

	(void)state;
	tl_setup(f, &p, &k, 3);
	p.resched_t = 2;
	sim_run(&f->h.sim);
	assert_int_equal(p.runs, 3);
	assert_int_equal(p.wruns, 1);
	/* passes 1, 2, 3: one tasklet run each */
	assert_int_equal(p.pass_at_run[0], 1);
	assert_int_equal(p.pass_at_run[1], 2);
	assert_int_equal(p.pass_at_run[2], 3);
	assert_int_equal(acct(f, 0).softirq_passes, 3);
	assert_int_equal(p.order[0], 1);        /* the work item first */
	assert_int_equal(p.order[1], 2);
	kern_bh_counts(&f->h.k, 0, KERN_BH_LO, &wr, &tr);
	assert_int_equal(wr, 1);
	assert_int_equal(tr, 3);
	assert_false(p.t.state & BIT(TASKLET_STATE_SCHED));
	fx_free(f);
}

/* A disabled tasklet stays scheduled and re-raises TASKLET each pass, so
 * the softirq loop runs to its restart limit and ksoftirqd spins on it
 * until it is enabled; tasklet_kill() takes it off the list. */
static void test_tasklet_disabled(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct tl_probe p;
	struct tl_kick k;

	(void)state;
	tl_setup(f, &p, &k, 1);
	tasklet_disable(&p.t);
	sim_run_until(&f->h.sim, SIM_US(50));
	assert_int_equal(p.runs, 0);
	assert_true(p.t.state & BIT(TASKLET_STATE_SCHED));
	assert_int_equal(acct(f, 0).ksoftirqd_wakeups, 1);
	tasklet_enable(&p.t);
	sim_run_until(&f->h.sim, SIM_US(100));
	assert_int_equal(p.runs, 1);
	/* killed while scheduled: never runs */
	tasklet_disable(&p.t);
	tasklet_schedule(&p.t);
	tasklet_kill(&p.t);
	tasklet_enable(&p.t);
	assert_false(p.t.state & BIT(TASKLET_STATE_SCHED));
	sim_run(&f->h.sim);
	assert_int_equal(p.runs, 1);
	fx_free(f);
}

/* bh_worker(): an item that re-queues itself runs again in the same
 * TASKLET action, up to BH_WORKER_RESTARTS (10) items; the 11th waits
 * for the next pass. */
static void test_bh_worker_restarts(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct tl_probe p;
	struct tl_kick k;

	(void)state;
	tl_setup(f, &p, &k, 2);
	p.requeue_w = 11;
	sim_run(&f->h.sim);
	assert_int_equal(p.wruns, 12);
	/* 10 in the first pass, 2 in the second */
	assert_int_equal(acct(f, 0).softirq_passes, 2);
	assert_false(work_pending(&p.w));
	/* cancel_work_sync() takes a queued BH item off its list */
	queue_work(system_bh_wq, &p.w);
	assert_true(cancel_work_sync(&p.w));
	sim_run(&f->h.sim);
	assert_int_equal(p.wruns, 12);
	fx_free(f);
}

/* ----- the fair scheduler (kernel/sched/fair.c, EEVDF) ----- */

/* base slice 0.75 ms x (1 + ilog2(min(ncpus, 8))) */
static void test_sched_base_slice(void **state)
{
	struct sim_host_params p;

	(void)state;
	assert_int_equal(sim_sched_base_slice(1), SIM_US(750));
	assert_int_equal(sim_sched_base_slice(2), SIM_US(1500));
	assert_int_equal(sim_sched_base_slice(6), SIM_US(2250));
	assert_int_equal(sim_sched_base_slice(8), SIM_US(3000));
	assert_int_equal(sim_sched_base_slice(64), SIM_US(3000));
	sim_host_params_default(&p, 6);
	assert_int_equal(p.sched_base_slice_ns, SIM_US(2250));
}

struct hog {
	struct sim_task t;
	sim_time_t chunk;
	unsigned nstarts;
	sim_time_t starts[64];
	sim_time_t stop_at;             /* sleeps for good after this */
};

static enum sim_task_ret hog_run(struct sim_task *t, void *arg)
{
	struct hog *g = arg;
	sim_time_t now = sim_now(t->host->sim);

	if (g->nstarts < 64)
		g->starts[g->nstarts++] = now;
	sim_charge_usr_ps(t->host, g->chunk * 1000);
	return g->stop_at && now + 1 >= g->stop_at ? SIM_TASK_SLEEP : SIM_TASK_RUNNABLE;
}

struct sched_fx {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *h;
};

static void sfx_init(struct sched_fx *x, unsigned ncpus)
{
	struct sim_host_params p;

	sim_init(&x->sim);
	sim_cost_load_default(&x->cost);
	memset(x->cost.ps, 0, sizeof(x->cost.ps));     /* times exact */
	sim_host_params_default(&p, ncpus);
	x->h = sim_host_create(&x->sim, &x->cost, &p);
	assert_non_null(x->h);
}

static void sfx_fini(struct sched_fx *x)
{
	sim_host_destroy(x->h);
	sim_fini(&x->sim);
}

/* Two CPU hogs on one CPU take turns of one base slice (0.75 ms on one
 * CPU): the running one keeps the CPU until it reaches its deadline
 * (RUN_TO_PARITY), then the other, eligible with the earlier deadline,
 * runs. */
static void test_sched_eevdf_slices(void **state)
{
	struct sched_fx x;
	struct hog a = { .chunk = SIM_US(50) }, b = { .chunk = SIM_US(50) };
	struct sim_cpuset one;

	(void)state;
	sfx_init(&x, 1);
	sim_cpuset_first_n(&one, 1);
	sim_task_init(x.h, &a.t, "a", hog_run, &a, &one);
	sim_task_init(x.h, &b.t, "b", hog_run, &b, &one);
	sim_task_wake(&a.t);
	sim_task_wake(&b.t);
	sim_run_until(&x.sim, SIM_MS(6));
	/* a runs 0-0.75 ms (15 chunks), then b 0.75-1.5, then a ... */
	assert_int_equal(a.starts[0], 0);
	assert_int_equal(a.starts[14], SIM_US(700));
	assert_int_equal(b.starts[0], SIM_US(750));
	assert_int_equal(b.starts[14], SIM_US(1450));
	assert_int_equal(a.starts[15], SIM_US(1500));
	/* fair: 3 ms each */
	assert_int_equal(a.t.ns[SIM_ACCT_USR], SIM_MS(3));
	assert_int_equal(b.t.ns[SIM_ACCT_USR], SIM_MS(3));
	sim_task_fini(&a.t);
	sim_task_fini(&b.t);
	sfx_fini(&x);
}

/* A sleeper keeps its lag (V - vruntime) and is placed by it: b sleeps
 * at 850 us having used less than its share (V 425, vruntime 100), wakes
 * at 900 us with vruntime 800 - 650 x 2/1 = 150: a, at 800, is no longer
 * eligible and loses the CPU at once, though inside its slice (RUN_TO_PARITY
 * keeps only an eligible task running).  A task woken without lag (c, new)
 * is placed at V, behind a's deadline, and waits for a's slice to end. */
struct waker2 {
	struct sim_event ev;
	struct sim_task *t;
};

static void waker2_fn(struct sim *s, struct sim_event *ev)
{
	struct waker2 *w = ev->arg;

	(void)s;
	sim_task_wake(w->t);
}

static void test_sched_wakeup_preempt(void **state)
{
	struct sched_fx x;
	struct hog a = { .chunk = SIM_US(50) };
	struct hog b = { .chunk = SIM_US(50), .stop_at = SIM_US(800) };
	struct waker2 w = { .t = &b.t };
	struct sim_cpuset one;

	(void)state;
	sfx_init(&x, 1);
	sim_cpuset_first_n(&one, 1);
	sim_task_init(x.h, &a.t, "a", hog_run, &a, &one);
	sim_task_init(x.h, &b.t, "b", hog_run, &b, &one);
	sim_task_wake(&a.t);
	sim_task_wake(&b.t);
	sim_event_init(&w.ev, waker2_fn, &w);
	sim_schedule_at(&x.sim, &w.ev, SIM_US(900));
	sim_run_until(&x.sim, SIM_MS(3));
	assert_int_equal(b.starts[0], SIM_US(750));
	assert_int_equal(b.starts[1], SIM_US(800));
	assert_int_equal(b.nstarts, 3);
	assert_int_equal(b.starts[2], SIM_US(900));
	assert_int_equal(b.t.deadline, SIM_US(150) + SIM_US(750));
	sim_task_fini(&a.t);
	sim_task_fini(&b.t);
	sfx_fini(&x);

	/* c wakes at 300 us inside a's first slice (deadline 750) */
	{
		struct hog a2 = { .chunk = SIM_US(50) };
		struct hog c2 = { .chunk = SIM_US(50), .stop_at = 1 };
		struct waker2 w2 = { .t = &c2.t };

		sfx_init(&x, 1);
		sim_task_init(x.h, &a2.t, "a", hog_run, &a2, &one);
		sim_task_init(x.h, &c2.t, "c", hog_run, &c2, &one);
		sim_task_wake(&a2.t);
		sim_event_init(&w2.ev, waker2_fn, &w2);
		sim_schedule_at(&x.sim, &w2.ev, SIM_US(300));
		sim_run_until(&x.sim, SIM_MS(2));
		assert_int_equal(c2.nstarts, 1);
		assert_int_equal(c2.starts[0], SIM_US(750));
		sim_task_fini(&a2.t);
		sim_task_fini(&c2.t);
		sfx_fini(&x);
	}
}

/* Wakeup placement (select_task_rq_fair): woken from a softirq on CPU 0,
 * which runs no task, a task whose previous CPU is idle goes back there
 * (wake_affine_idle); if its previous CPU is busy it comes to CPU 0, idle
 * though busy with softirqs.  A sync wakeup from a CPU whose only task is
 * the waker goes to the waker's CPU. */
struct wake_from_irq {
	struct sim_event ev;
	struct sim_irq irq;
	struct sim_task *t;
	bool sync;
};

static void wfi_irq(struct sim_irq *irq, void *arg)
{
	struct wake_from_irq *w = arg;

	(void)irq;
	sim_softirq_raise(w->t->host, 0, SIM_SOFTIRQ_NET_RX);
}

static struct wake_from_irq *wfi_cur;

static bool wfi_action(struct sim_host *h, unsigned cpu, void *arg, bool first)
{
	(void)cpu;
	(void)arg;
	(void)first;
	sim_charge(h, SIM_COST_skb_alloc, 1);
	if (wfi_cur->sync)
		sim_task_wake_sync(wfi_cur->t);
	else
		sim_task_wake(wfi_cur->t);
	return false;
}

static void wfi_fn(struct sim *s, struct sim_event *ev)
{
	struct wake_from_irq *w = ev->arg;

	(void)s;
	sim_irq_raise(&w->irq);
}

static void test_sched_wake_affine(void **state)
{
	static const struct { bool prev_busy; unsigned expect; } c[] = {
		{ false, 1 }, { true, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct sched_fx x;
		struct hog sleeper = { .chunk = SIM_US(10), .stop_at = 1 };
		struct hog busy = { .chunk = SIM_US(50) };
		struct wake_from_irq w;
		struct sim_cpuset all, cpu1;

		sfx_init(&x, 4);
		sim_cpuset_first_n(&all, 4);
		sim_cpuset_zero(&cpu1);
		sim_cpuset_set(&cpu1, 1);
		sim_task_init(x.h, &sleeper.t, "sleeper", hog_run, &sleeper, &all);
		sleeper.t.cpu = 1;              /* it last ran on CPU 1 */
		sim_task_init(x.h, &busy.t, "busy", hog_run, &busy, &cpu1);
		if (c[i].prev_busy)
			sim_task_wake(&busy.t);
		memset(&w, 0, sizeof(w));
		w.t = &sleeper.t;
		wfi_cur = &w;
		sim_softirq_register(x.h, SIM_SOFTIRQ_NET_RX, wfi_action, NULL);
		sim_irq_init(x.h, &w.irq, "wfi", wfi_irq, &w, 0);
		sim_event_init(&w.ev, wfi_fn, &w);
		sim_schedule_at(&x.sim, &w.ev, SIM_US(100));
		sim_run_until(&x.sim, SIM_US(200));
		assert_int_equal(sleeper.nstarts, 1);
		assert_int_equal(sleeper.t.cpu, c[i].expect);
		sim_task_fini(&sleeper.t);
		sim_task_fini(&busy.t);
		sfx_fini(&x);
	}
}

/* A task alone on a CPU stays there however much of it softirqs take
 * (Linux balances a lone task only on asymmetric CPUs); a task queued
 * behind another, not run for 0.5 ms, is pulled by a CPU that goes idle. */
static void test_sched_balance(void **state)
{
	struct fx *f = fx_new(2, 1, 4);
	struct hog g = { .chunk = SIM_US(50) };
	struct hog a = { .chunk = SIM_US(50) }, b = { .chunk = SIM_US(50) };
	struct hog stop1 = { .chunk = SIM_US(400), .stop_at = 1 };
	struct sim_cpuset all, cpu1;
	struct arrival arr;

	(void)state;
	/* softirqs take ~70 % of CPU 0 (vector 0 on CPU 0) */
	f->h.host->cost.ps[SIM_COST_desc_read] = 1000 * 1000ull;
	assert_int_equal(fx_probe(f), 0);
	sim_cpuset_first_n(&all, 2);
	sim_task_init(f->h.host, &g.t, "lone", hog_run, &g, &all);
	sim_task_wake(&g.t);            /* starts on CPU 0 */
	arr = (struct arrival){ .d = &f->dev, .q = 0, .n = 64, .every = SIM_US(100),
				.times = 200 };
	sim_event_init(&arr.ev, arrival_fn, &arr);
	sim_schedule_at(&f->h.sim, &arr.ev, 0);
	sim_run_until(&f->h.sim, SIM_MS(20));
	assert_int_equal(g.t.cpu, 0);
	assert_int_equal(g.t.migrations, 0);
	assert_true(acct(f, 0).ns[SIM_ACCT_SOFT] > SIM_MS(10));
	sim_cancel(&f->h.sim, &arr.ev);
	sim_task_fini(&g.t);

	/* a and b share CPU 1 while a short task keeps CPU 0 busy; when it
	 * ends CPU 0 goes idle and pulls the one waiting */
	sim_cpuset_zero(&cpu1);
	sim_cpuset_set(&cpu1, 0);
	sim_task_init(f->h.host, &stop1.t, "short", hog_run, &stop1, &cpu1);
	sim_task_init(f->h.host, &a.t, "a", hog_run, &a, &all);
	sim_task_init(f->h.host, &b.t, "b", hog_run, &b, &all);
	a.t.cpu = b.t.cpu = 1;
	sim_task_wake(&stop1.t);
	sim_run_until(&f->h.sim, sim_now(&f->h.sim) + SIM_US(10));
	sim_task_wake(&a.t);
	sim_task_wake(&b.t);
	assert_int_equal(a.t.cpu, 1);
	assert_int_equal(b.t.cpu, 1);
	sim_run_until(&f->h.sim, sim_now(&f->h.sim) + SIM_MS(2));
	assert_int_equal(a.t.migrations + b.t.migrations, 1);
	assert_true(a.t.cpu != b.t.cpu);
	sim_task_fini(&a.t);
	sim_task_fini(&b.t);
	sim_task_fini(&stop1.t);
	fx_free(f);
}

/* Frame code runs ahead of other CPUs' events: a chunk on CPU 0 that
 * charges 100 us and then wakes a task onto CPU 2 (busy with a 200 us
 * chunk) must not bring CPU 2's accounting to 100 us: a chunk on CPU 1
 * that starts at 10 us and wakes another task onto CPU 2, and a hardirq
 * on CPU 2 at 50 us, would account CPU 2 backwards (both aborted with an
 * accounting overrun). */
struct waker3 {
	struct sim_task t;
	struct sim_task *wake;
	sim_time_t before;              /* charged before the wakeup */
	bool done;
};

static enum sim_task_ret waker3_run(struct sim_task *t, void *arg)
{
	struct waker3 *w = arg;

	sim_charge_ps(t->host, w->before * 1000);
	sim_task_wake(w->wake);
	w->done = true;
	return SIM_TASK_SLEEP;
}

struct late {
	struct sim_event ev;
	struct sim_irq irq;
};

static void late_irq(struct sim_irq *irq, void *arg)
{
	(void)irq;
	(void)arg;
}

static void late_fn(struct sim *s, struct sim_event *ev)
{
	struct late *l = ev->arg;

	(void)s;
	sim_irq_raise(&l->irq);
}

static void test_sched_wake_ahead(void **state)
{
	struct sched_fx x;
	struct hog t1 = { .chunk = SIM_US(10), .stop_at = 1 };
	struct hog t2 = { .chunk = SIM_US(10), .stop_at = 1 };
	struct waker3 a = { .wake = &t1.t, .before = SIM_US(100) };
	struct waker3 b = { .wake = &t2.t, .before = SIM_US(5) };
	struct waker2 wb = { .t = &b.t };
	struct hog busy = { .chunk = SIM_US(200), .stop_at = 1 };
	struct late irq;
	struct sim_cpuset c0, c1, c2;

	(void)state;
	sfx_init(&x, 3);
	sim_cpuset_zero(&c0);
	sim_cpuset_set(&c0, 0);
	sim_cpuset_zero(&c1);
	sim_cpuset_set(&c1, 1);
	sim_cpuset_zero(&c2);
	sim_cpuset_set(&c2, 2);
	sim_task_init(x.h, &a.t, "a", waker3_run, &a, &c0);
	sim_task_init(x.h, &b.t, "b", waker3_run, &b, &c1);
	sim_task_init(x.h, &t1.t, "t1", hog_run, &t1, &c2);
	sim_task_init(x.h, &t2.t, "t2", hog_run, &t2, &c2);
	sim_task_init(x.h, &busy.t, "busy", hog_run, &busy, &c2);
	sim_task_wake(&busy.t);         /* CPU 2 runs a 200 us chunk from 0 */
	sim_task_wake(&a.t);
	sim_event_init(&wb.ev, waker2_fn, &wb);
	sim_schedule_at(&x.sim, &wb.ev, SIM_US(10));
	/* and a hardirq on CPU 2 at 50 us, before the 100 us CPU 0's code
	 * reached */
	sim_irq_init(x.h, &irq.irq, "late", late_irq, NULL, 2);
	sim_event_init(&irq.ev, late_fn, &irq);
	sim_schedule_at(&x.sim, &irq.ev, SIM_US(50));
	sim_run(&x.sim);
	assert_int_equal(irq.irq.count, 1);
	assert_true(a.done && b.done);
	assert_int_equal(t1.nstarts, 1);
	assert_int_equal(t2.nstarts, 1);
	/* CPU 2's time adds up: every ns once, none twice */
	{
		struct sim_acct_sample s2;
		u64 sum = 0;

		sim_host_sync(x.h);
		sim_host_acct(x.h, 2, &s2);
		for (int k = 0; k < SIM_ACCT_NR; k++)
			sum += s2.ns[k];
		assert_int_equal(sum, sim_now(&x.sim));
		assert_int_equal(s2.ns[SIM_ACCT_USR], SIM_US(220));
	}
	sim_task_fini(&busy.t);
	sim_task_fini(&t1.t);
	sim_task_fini(&t2.t);
	sfx_fini(&x);
}

/* ----- the qdisc and NET_TX (net/core/dev.c, sch_generic.c) ----- */

static struct { unsigned sent, stop_at; int ctx[512]; } nt;

static netdev_tx_t nt_xmit(struct sk_buff *skb, struct net_device *dev)
{
	if (nt.sent < 512)
		nt.ctx[nt.sent] = sim_current_ctx(kern->host);
	nt.sent++;
	consume_skb(skb);
	if (nt.sent == nt.stop_at)
		netif_tx_stop_queue(netdev_get_tx_queue(dev, 0));
	return NETDEV_TX_OK;
}

static const struct net_device_ops nt_ops = { .ndo_start_xmit = nt_xmit };

struct nt_wake {
	struct sim_event ev;
	struct sim_irq irq;
	struct net_device *dev;
};

static void nt_irq(struct sim_irq *irq, void *arg)
{
	struct nt_wake *w = arg;

	(void)irq;
	netif_tx_wake_queue(netdev_get_tx_queue(w->dev, 0));
}

static void nt_fn(struct sim *s, struct sim_event *ev)
{
	struct nt_wake *w = ev->arg;

	(void)s;
	sim_irq_raise(&w->irq);
}

/* dev_queue_xmit() runs the qdisc in the caller; a queue the driver
 * stopped is restarted by netif_tx_wake_queue(), which only schedules the
 * qdisc: it runs in NET_TX on the waking CPU, at most 64 packets
 * (dev_tx_weight) per run, and reschedules itself for the rest. */
static void test_net_tx(void **state)
{
	struct fx *f = fx_new(1, 1, 4);
	struct net_device *dev;
	struct nt_wake w;

	(void)state;
	assert_int_equal(fx_probe(f), 0);       /* fx_free() undoes it */
	memset(&nt, 0, sizeof(nt));
	nt.stop_at = 2;
	dev = alloc_etherdev_mqs(0, 1, 1);
	assert_non_null(dev);
	dev->netdev_ops = &nt_ops;
	assert_int_equal(register_netdev(dev), 0);
	assert_int_equal(dev_open(dev, NULL), 0);
	for (unsigned i = 0; i < 200; i++) {
		struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);

		skb_put(skb, 64);
		skb->dev = dev;
		assert_int_equal(dev_queue_xmit(skb), 0);
	}
	/* two went out at once (outside any CPU), then the driver stopped */
	assert_int_equal(nt.sent, 2);
	assert_int_equal(netdev_get_tx_queue(dev, 0)->q_len, 198);
	memset(&w, 0, sizeof(w));
	w.dev = dev;
	sim_irq_init(f->h.host, &w.irq, "txwake", nt_irq, &w, 0);
	sim_event_init(&w.ev, nt_fn, &w);
	sim_schedule_at(&f->h.sim, &w.ev, SIM_US(10));
	sim_run(&f->h.sim);
	assert_int_equal(nt.sent, 200);
	/* the rest went out in NET_TX, not in the hardirq that woke it:
	 * 64 + 64 + 64 + 6 in four passes */
	for (unsigned i = 2; i < 200; i++)
		assert_int_equal(nt.ctx[i], SIM_CTX_SOFTIRQ);
	assert_int_equal(acct(f, 0).softirq_passes, 4);
	dev_close(dev);
	unregister_netdev(dev);
	free_netdev(dev);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_burst_exact),
		cmocka_unit_test(test_weight_budget_reraise),
		cmocka_unit_test(test_budget_usecs),
		cmocka_unit_test(test_ksoftirqd_after_10_restarts),
		cmocka_unit_test(test_ksoftirqd_after_2ms),
		cmocka_unit_test(test_ksoftirqd_at_tick),
		cmocka_unit_test(test_defer_now_mask),
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_task_preempted),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_masked_pending_unmask),
		cmocka_unit_test(test_vector_fallback),
		cmocka_unit_test(test_napi_contract),
		cmocka_unit_test(test_napi_missed),
		cmocka_unit_test(test_napi_defer),
		cmocka_unit_test(test_mpstat_sums),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_ksoftirqd_vs_task),
		cmocka_unit_test(test_no_lost_wakeup),
		cmocka_unit_test(test_tasklet_rules),
		cmocka_unit_test(test_tasklet_disabled),
		cmocka_unit_test(test_bh_worker_restarts),
		cmocka_unit_test(test_sched_base_slice),
		cmocka_unit_test(test_sched_eevdf_slices),
		cmocka_unit_test(test_sched_wakeup_preempt),
		cmocka_unit_test(test_sched_wake_affine),
		cmocka_unit_test(test_sched_balance),
		cmocka_unit_test(test_net_tx),
		cmocka_unit_test(test_sched_wake_ahead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
