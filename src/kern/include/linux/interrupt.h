/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - interrupt handlers (Linux include/linux/interrupt.h).
 *
 * An irq number names one host interrupt (an MSI-X vector, the MSI
 * message, or the INTx line of a PCI function).  Its handler runs as a
 * hardirq on the irq's affinity CPU.  disable_irq() masks it: at the MSI-X
 * table for MSI-X vectors (the message is held in the Pending Bit Array
 * and sent on enable_irq()), lazily in the kernel for MSI/INTx (the
 * arrival is remembered and replayed on enable, Linux's IRQS_PENDING).
 */
#ifndef RXSCALE_KERN_INTERRUPT_H
#define RXSCALE_KERN_INTERRUPT_H

#include <linux/cpumask.h>
#include <linux/types.h>

typedef enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1,
	IRQ_WAKE_THREAD = 2,
} irqreturn_t;

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQF_SHARED 0x80u       /* accepted, sharing is not simulated */
#define IRQF_NO_THREAD 0x10000u

/*
 * Install @handler for @irq with cookie @dev_id; @name shows in
 * /proc/interrupts-style reports.  The vector is unmasked.
 * Returns 0, -EINVAL (no such irq or NULL handler) or -EBUSY.
 */
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/* Remove the handler (masks the vector).  Returns the name given to
 * request_irq, or NULL (logged) if @dev_id does not match. */
const void *free_irq(unsigned int irq, void *dev_id);

/* Mask @irq (nesting depth counted); see the header comment. */
void disable_irq(unsigned int irq);
void disable_irq_nosync(unsigned int irq);

/* Undo one disable_irq(); at depth 0 a held interrupt fires. */
void enable_irq(unsigned int irq);

/* Record @m as @irq's affinity hint and apply it: deliver @irq to the
 * first CPU of @m that interrupts may target (kern_irq_restrict); NULL
 * clears the hint and leaves the affinity (include/linux/interrupt.h,
 * Linux 5.17+).  Returns 0 or -EINVAL. */
int irq_set_affinity_and_hint(unsigned int irq, const struct cpumask *m);

/* Deprecated in Linux for irq_set_affinity_and_hint() (or
 * irq_update_affinity_hint()), which it calls. */
static inline int irq_set_affinity_hint(unsigned int irq, const struct cpumask *m)
{
	return irq_set_affinity_and_hint(irq, m);
}

/* Set the irq's target CPU set (smp_affinity): it is delivered to the
 * first CPU of @m.  Returns 0 or -EINVAL (empty or out-of-range set). */
int irq_set_affinity(unsigned int irq, const struct cpumask *m);

/* CPU @irq is delivered to, or -EINVAL. */
int kern_irq_cpu(unsigned int irq);

/* Handler runs of @irq so far (a /proc/interrupts column summed). */
u64 kern_irq_count(unsigned int irq);

/* Single-threaded simulator: nothing to wait for. */
static inline void synchronize_irq(unsigned int irq)
{
	(void)irq;
}

/*
 * Tasklets (Linux include/linux/interrupt.h, kernel/softirq.c): a callback
 * run once in softirq context on the CPU that scheduled it, in the
 * TASKLET softirq (HI for tasklet_hi_schedule()).
 *  - tasklet_schedule() does nothing if the tasklet is already scheduled
 *    (TASKLET_STATE_SCHED); else it appends it to the running CPU's list
 *    and raises TASKLET there.
 *  - The TASKLET action first runs the CPU's BH workqueue items
 *    (workqueue.h, system_bh_wq), then takes the whole tasklet list and
 *    runs each one, clearing SCHED just before the call: a tasklet that
 *    schedules itself, or is scheduled while the list runs, runs in the
 *    next pass.  A disabled tasklet (tasklet_disable()) goes back on the
 *    list and re-raises the softirq.
 *  - tasklet_kill() waits until the tasklet is neither scheduled nor
 *    running; here it takes it off its list.
 */
struct tasklet_struct {
	struct tasklet_struct *next;
	unsigned long state;
	int count;                      /* disable depth */
	bool use_callback;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet_struct *t);
	};
	unsigned long data;
};

enum {
	TASKLET_STATE_SCHED,            /* scheduled to run */
	TASKLET_STATE_RUN,              /* running */
};

void tasklet_setup(struct tasklet_struct *t,
		   void (*callback)(struct tasklet_struct *));
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data);
void __tasklet_schedule(struct tasklet_struct *t);
void __tasklet_hi_schedule(struct tasklet_struct *t);
void tasklet_kill(struct tasklet_struct *t);

static inline void tasklet_schedule(struct tasklet_struct *t)
{
	if (!(t->state & BIT(TASKLET_STATE_SCHED)))
		__tasklet_schedule(t);
}

static inline void tasklet_hi_schedule(struct tasklet_struct *t)
{
	if (!(t->state & BIT(TASKLET_STATE_SCHED)))
		__tasklet_hi_schedule(t);
}

/* No tasklet runs concurrently in the simulator: nothing to wait for. */
static inline void tasklet_disable(struct tasklet_struct *t)
{
	t->count++;
}

static inline void tasklet_enable(struct tasklet_struct *t)
{
	t->count--;
}

#define from_tasklet(var, callback_tasklet, tasklet_fieldname) \
	container_of(callback_tasklet, __typeof__(*var), tasklet_fieldname)

#endif /* RXSCALE_KERN_INTERRUPT_H */
