// SPDX-License-Identifier: MIT
/*
 * sim_cpu.c - a CPU's frame stack, the charging of CPU time by the code
 * that runs in a frame, and mpstat-style accounting of every nanosecond.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_host_priv.h"

/* ----- frames ----- */

static uint64_t frame_left(const struct sim_frame *f)
{
	uint64_t n = 0;

	for (int i = 0; i < SIM_ACCT_NR; i++)
		n += f->rem[i];
	return n;
}

/* Account the CPU's time from acct_at to now. */
void sim_cpu_account(struct sim_cpu *c)
{
	sim_time_t now = c->h->sim->now;
	uint64_t dt = now - c->acct_at;
	struct sim_frame *f = sim_cpu_top(c);

	c->acct_at = now;
	if (!dt)
		return;
	if (!f) {
		c->acct.ns[SIM_ACCT_IDLE] += dt;
		return;
	}
	for (int k = 0; k < SIM_ACCT_NR && dt; k++) {
		uint64_t take = f->rem[k] < dt ? f->rem[k] : dt;

		if (!take)
			continue;
		f->rem[k] -= take;
		dt -= take;
		c->acct.ns[k] += take;
		if (f->ksoftirqd)
			c->acct.ksoftirqd_ns += take;
		if (f->task) {
			f->task->ns[k] += take;
			f->task->vruntime += take;
		}
	}
	/* The end event fires exactly when the frame is used up. */
	if (dt) {
		fprintf(stderr, "sim: cpu%u accounting overrun of %llu ns\n",
			c->id, (unsigned long long)dt);
		abort();
	}
}

void sim_cpu_arm_top(struct sim_cpu *c)
{
	sim_schedule_in(c->h->sim, &c->end_ev, frame_left(sim_cpu_top(c)));
}

void sim_cpu_push_frame(struct sim_cpu *c, const struct sim_frame *f)
{
	if (c->depth == (int)(sizeof(c->stack) / sizeof(c->stack[0]))) {
		fprintf(stderr, "sim: cpu%u frame stack overflow\n", c->id);
		abort();
	}
	c->stack[c->depth++] = *f;
	sim_cpu_arm_top(c);
}

/* Make an idle CPU look for work (kick_ev runs the dispatcher). */
void sim_cpu_kick(struct sim_cpu *c)
{
	if (!c->depth && !sim_event_pending(&c->kick_ev))
		sim_schedule_in(c->h->sim, &c->kick_ev, sim_idle_wake_delay(c));
}

/* ----- executing frame code ----- */

/* @ps of work at the speed the frame runs at (sim_exec_begin). */
static uint64_t scale_ps(const struct sim_host *h, uint64_t ps)
{
	if (!h->exec_ppm)
		return ps;
	return (uint64_t)((unsigned __int128)ps * 1000000u / h->exec_ppm);
}

/* The speed, ppm of the reference core, a frame starting now on @c runs
 * at: its own (speed_ppm), times SIM_SMT_SPEED_PPM while its SMT sibling
 * runs a frame (an idle or waking sibling leaves the core to it).  The
 * sibling's state at the frame's start holds for the whole frame (one
 * poll, one handler, one task chunk). */
static uint32_t frame_ppm(const struct sim_cpu *c)
{
	const struct sim_host *h = c->h;
	uint64_t ppm = h->params.speed_ppm[c->id] ? h->params.speed_ppm[c->id] : 1000000u;

	if (h->params.smt > 1 && h->cpus[sim_cpu_sibling(h, c->id)].depth)
		ppm = ppm * h->params.smt_ppm / 1000000u;
	return ppm == 1000000u ? 0 : (uint32_t)ppm;
}

void sim_exec_begin(struct sim_cpu *c, enum sim_ctx ctx,
		    struct sim_task *task, bool ksoftirqd)
{
	struct sim_host *h = c->h;

	if (h->exec_cpu >= 0) {
		fprintf(stderr, "sim: nested frame execution on cpu%u\n", c->id);
		abort();
	}
	h->exec_cpu = (int)c->id;
	h->exec_ctx = ctx;
	h->exec_start = h->sim->now;
	memset(h->exec_ps, 0, sizeof(h->exec_ps));
	h->exec_total_ps = 0;
	h->exec_task = task;
	h->exec_ksoftirqd = ksoftirqd;
	h->exec_class = ctx == SIM_CTX_HARDIRQ ? SIM_ACCT_IRQ :
			ctx == SIM_CTX_SOFTIRQ || ksoftirqd ? SIM_ACCT_SOFT :
			SIM_ACCT_SYS;
	h->exec_ppm = frame_ppm(c);
}

void sim_exec_end(struct sim_cpu *c, struct sim_frame *f)
{
	struct sim_host *h = c->h;

	for (int k = 0; k < SIM_ACCT_NR; k++) {
		uint64_t ps = scale_ps(h, h->exec_ps[k]) + c->carry_ps[k];

		f->rem[k] = ps / 1000;
		c->carry_ps[k] = ps % 1000;
	}
	h->sim->now = h->exec_start;
	h->exec_cpu = -1;
	h->exec_ctx = SIM_CTX_NONE;
	h->exec_task = NULL;
	h->exec_ksoftirqd = false;
}

void sim_charge_usr_ps(struct sim_host *h, uint64_t ps)
{
	if (h->exec_ctx == SIM_CTX_TASK && !h->exec_ksoftirqd)
		sim_charge_class_ps(h, SIM_ACCT_USR, ps);
	else
		sim_charge_ps(h, ps);
}

uint64_t sim_charge_misses(struct sim_host *h, double mean)
{
	uint64_t n;

	if (!h->params.dram_latency_ps || h->exec_cpu < 0)
		return 0;
	n = sim_rng_poisson(&h->cpus[h->exec_cpu].rng, mean);
	if (n)
		sim_charge_ps(h, n * h->params.dram_latency_ps);
	return n;
}

/* ----- accounting ----- */

void sim_host_sync(struct sim_host *h)
{
	for (unsigned i = 0; i < h->params.ncpus; i++)
		sim_cpu_account(&h->cpus[i]);
}

void sim_host_acct(const struct sim_host *h, unsigned cpu,
		   struct sim_acct_sample *out)
{
	*out = h->cpus[cpu].acct;
}

void sim_host_idle(const struct sim_host *h, unsigned cpu, uint64_t *usage,
		   uint64_t *ticks, uint64_t *exit_ns)
{
	const struct sim_idle_cpu *d = &h->cpus[cpu].idle;

	memcpy(usage, d->usage, sizeof(d->usage));
	*ticks = d->ticks;
	*exit_ns = d->exit_ns;
}
