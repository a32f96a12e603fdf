// SPDX-License-Identifier: MIT
/*
 * cli_timeline.c - ethtool commands at simulated times (timeline.at,
 * --at T "ARGS") and chaos (chaos.*: faults and reconfigurations at seeded
 * random times) while the iperf3/ping workload runs.
 *
 * A command runs as a real ethtool call does: an "ethtool" process on a
 * CPU of the host (woken at its time, scheduled like any task), whose
 * system calls (the netlink request and reply: sock_write, sock_read) and
 * the driver's work under RTNL (MMIO, resets, udelay) are charged to that
 * CPU while NAPI goes on on the others.  A command the kernel or driver
 * rejects prints ethtool's error, the run goes on with the old settings,
 * and the exit status says a command failed.
 *
 * Chaos commands are checked too: when one is rejected, what ethtool -l,
 * -g, -c and -x report must be what they reported before.  An observer
 * samples every queue each millisecond (it changes nothing): the longest
 * time an RX queue held completed frames, or the TX ring completed
 * descriptors, without the driver taking any is the run's longest stall,
 * held against the lost-interrupt recovery bound.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "ethtool/ethtool_cmd.h"

#define TL_MAX		(BED_SCN_MAX_AT + 4096)
#define TL_QUEUES	(RTL_MAX_RX_QUEUES + 1)	/* the RX queues, then TX 0 */
#define OBS_PERIOD_NS	SIM_MS(1)

enum tl_kind {
	TL_ETHTOOL,
	TL_MSIX_DROP,		/* PCIe: the next MSI-X message is lost */
	TL_LINK_DOWN, TL_LINK_UP,
	TL_DMA_FAIL,		/* the Nth DMA allocation from now fails */
	TL_SKB_FAIL,		/* the Nth skb allocation from now fails */
	TL_RING_FULL, TL_RING_OK, /* PCIe: an RX queue without descriptors */
	TL_OWNBIT_ON, TL_OWNBIT_OFF, /* PCIe: the OwnBit erratum */
	TL_XFER_ERROR,		/* USB: the next bulk-in transfer fails */
	TL_CTRL_STALL,		/* USB: the next control request STALLs */
	TL_TX_HANG,		/* PCIe: the TX engine hangs until a reset */
};

struct tl_entry {
	sim_time_t at;
	unsigned order;			/* tie-break: as given/generated */
	enum tl_kind kind;
	bool chaos;
	unsigned arg;			/* fault: N, queue bit */
	bool task_filter;		/* fault: only the ethtool process's allocations */
	char args[BED_SCN_STR];		/* ethtool's arguments, or the fault */
	/* what happened */
	bool ran;
	int rc, cpu;
	sim_time_t start;
	uint64_t took_ns;
	char *out, *err;
	size_t outlen, errlen;
	bool state_changed;		/* rejected, yet the settings moved */
};

struct cli_timeline {
	struct bed_world *w;
	struct tl_entry *e;
	unsigned n;
	unsigned next;			/* the first entry not yet due */
	unsigned run;			/* the first ethtool entry not yet run */
	struct sim_event ev;
	struct sim_task task;
	bool task_up;
	/* chaos */
	bool chaos;
	struct sim_rng rng;
	/* the stall observer */
	struct sim_event obs;
	bool obs_up;
	bool pending[TL_QUEUES];
	uint64_t progress[TL_QUEUES];
	sim_time_t since[TL_QUEUES];
	sim_time_t max_stall;
	unsigned max_stall_q;
	struct rpt_tl_entry *rpt;
};

/* ----- building the timeline ----- */

static struct tl_entry *tl_add(struct cli_timeline *tl, double at_s, enum tl_kind kind)
{
	struct tl_entry *e;

	if (tl->n == TL_MAX)
		return NULL;
	e = &tl->e[tl->n];
	memset(e, 0, sizeof(*e));
	e->at = (sim_time_t)(at_s * 1e9 + 0.5);
	e->order = tl->n++;
	e->kind = kind;
	return e;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tl_entry *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* An exponential gap of mean @mean s. */
static double gap(struct cli_timeline *tl, double mean)
{
	double u = sim_rng_unit(&tl->rng);

	return -mean * log(1.0 - u);
}

static void chaos_command(struct cli_timeline *tl, struct tl_entry *e)
{
	struct bed_world *w = tl->w;
	const char *d = w->dev->name;
	static const unsigned rings[] = { 64, 128, 256, 512, 1024 };
	static const unsigned usecs[] = { 0, 8, 16, 50, 100 };

	if (w->tp) {
		unsigned maxq = w->tp->max_rx_queues;
		unsigned rmax = w->chip->caps->ring_max, nr = 0;

		while (nr < 5 && rings[nr] <= rmax)
			nr++;
		switch (sim_rng_below(&tl->rng, 8)) {
		case 0:
		case 1:
			snprintf(e->args, sizeof(e->args), "-L %s rx %u", d,
				 1 + (unsigned)sim_rng_below(&tl->rng, maxq));
			break;
		case 2:
			snprintf(e->args, sizeof(e->args), "-G %s rx %u tx %u", d,
				 rings[sim_rng_below(&tl->rng, nr)],
				 rings[sim_rng_below(&tl->rng, nr)]);
			break;
		case 3:
			snprintf(e->args, sizeof(e->args), "-X %s equal %u", d,
				 1 + (unsigned)sim_rng_below(&tl->rng, maxq));
			break;
		case 4:
			snprintf(e->args, sizeof(e->args), "-X %s default", d);
			break;
		case 5:
			snprintf(e->args, sizeof(e->args), "-C %s rx-usecs %u", d,
				 usecs[sim_rng_below(&tl->rng, 5)]);
			break;
		case 6:
			snprintf(e->args, sizeof(e->args), "-N %s rx-flow-hash udp4 %s", d,
				 sim_rng_below(&tl->rng, 2) ? "sdfn" : "sd");
			break;
		default:
			snprintf(e->args, sizeof(e->args), "-x %s", d);
			break;
		}
		return;
	}
	switch (sim_rng_below(&tl->rng, 4)) {
	case 0:
	case 1:
		snprintf(e->args, sizeof(e->args), "-G %s rx %u", d,
			 2 + (unsigned)sim_rng_below(&tl->rng, RTL8152_MAX_RX - 1));
		break;
	case 2:
		snprintf(e->args, sizeof(e->args), "-C %s rx-usecs %u", d,
			 usecs[sim_rng_below(&tl->rng, 5)]);
		break;
	default:
		snprintf(e->args, sizeof(e->args), "-g %s", d);
		break;
	}
}

/* The end of a fault that lasts: @kind at @t, described by @what. */
static void chaos_end(struct cli_timeline *tl, double t, enum tl_kind kind,
		      unsigned arg, const char *what)
{
	struct tl_entry *end = tl_add(tl, t, kind);

	if (!end)
		return;
	end->chaos = true;
	end->arg = arg;
	snprintf(end->args, sizeof(end->args), "%s", what);
}

/* A fault at @t and, for one that lasts, its end. */
static void chaos_fault(struct cli_timeline *tl, double t)
{
	struct bed_world *w = tl->w;
	struct tl_entry *e;
	char what[64];
	unsigned pick = (unsigned)sim_rng_below(&tl->rng, w->tp ? 6 : 5);
	enum tl_kind k;

	if (w->tp) {
		static const enum tl_kind pci[] = { TL_MSIX_DROP, TL_LINK_DOWN, TL_DMA_FAIL,
						   TL_SKB_FAIL, TL_RING_FULL, TL_OWNBIT_ON };
		k = pci[pick];
	} else {
		static const enum tl_kind usb[] = { TL_XFER_ERROR, TL_LINK_DOWN, TL_DMA_FAIL,
						   TL_SKB_FAIL, TL_CTRL_STALL };
		k = usb[pick];
	}
	e = tl_add(tl, t, k);
	if (!e)
		return;
	e->chaos = true;
	switch (k) {
	case TL_MSIX_DROP:
		snprintf(e->args, sizeof(e->args), "the next MSI-X message is lost");
		break;
	case TL_LINK_DOWN:
		snprintf(e->args, sizeof(e->args), "link down for 10 ms");
		chaos_end(tl, t + 0.01, TL_LINK_UP, 0, "link up");
		break;
	case TL_DMA_FAIL:
	case TL_SKB_FAIL:
		e->arg = 1 + (unsigned)sim_rng_below(&tl->rng, 64);
		snprintf(e->args, sizeof(e->args), "the %u%s %s allocation from now fails",
			 e->arg, e->arg % 10 == 1 && e->arg != 11 ? "st" :
			 e->arg % 10 == 2 && e->arg != 12 ? "nd" :
			 e->arg % 10 == 3 && e->arg != 13 ? "rd" : "th",
			 k == TL_DMA_FAIL ? "DMA" : "skb");
		break;
	case TL_RING_FULL:
		e->arg = (unsigned)sim_rng_below(&tl->rng, w->tp->max_rx_queues);
		snprintf(e->args, sizeof(e->args), "RX queue %u finds no descriptor for 2 ms",
			 e->arg);
		snprintf(what, sizeof(what), "RX queue %u has descriptors again", e->arg);
		chaos_end(tl, t + 0.002, TL_RING_OK, e->arg, what);
		break;
	case TL_OWNBIT_ON:
		snprintf(e->args, sizeof(e->args), "OwnBit erratum for 100 ms");
		chaos_end(tl, t + 0.1, TL_OWNBIT_OFF, 0, "OwnBit erratum over");
		break;
	case TL_XFER_ERROR:
		snprintf(e->args, sizeof(e->args), "the next bulk-in transfer ends in -EPROTO");
		break;
	case TL_CTRL_STALL:
		snprintf(e->args, sizeof(e->args), "the next control request STALLs");
		break;
	default:
		break;
	}
}

/*
 * A fault at a moment: --at T "fault NAME[=VALUE] [task-filter]" (the
 * knobs chaos draws from, by name).  task-filter, for the allocation
 * knobs, counts only the allocations of the ethtool process, as Linux's
 * fault injection does with task-filter and /proc/PID/make-it-fail, so
 * that a reconfiguration at the same moment is the one that fails.
 */
enum tl_fault_arg { FA_NONE, FA_COUNT, FA_NTH, FA_QUEUE, FA_ONOFF, FA_UPDOWN };

static const struct tl_fault_name {
	const char *name;
	enum tl_kind kind, off;		/* off: the "off"/"down" kind */
	enum tl_fault_arg arg;
	bool pcie, usb, filter;
} tl_fault_names[] = {
	{ "msix_drop_next", TL_MSIX_DROP, TL_MSIX_DROP, FA_COUNT, true, false, false },
	{ "dma_fail_nth", TL_DMA_FAIL, TL_DMA_FAIL, FA_NTH, true, true, true },
	{ "skb_fail_nth", TL_SKB_FAIL, TL_SKB_FAIL, FA_NTH, true, true, true },
	{ "link", TL_LINK_UP, TL_LINK_DOWN, FA_UPDOWN, true, true, false },
	{ "rx_ring_full", TL_RING_FULL, TL_RING_FULL, FA_QUEUE, true, false, false },
	{ "rx_ring_ok", TL_RING_OK, TL_RING_OK, FA_QUEUE, true, false, false },
	{ "ownbit", TL_OWNBIT_ON, TL_OWNBIT_OFF, FA_ONOFF, true, false, false },
	{ "tx_hang", TL_TX_HANG, TL_TX_HANG, FA_NONE, true, false, false },
	{ "xfer_error", TL_XFER_ERROR, TL_XFER_ERROR, FA_COUNT, false, true, false },
	{ "ctrl_stall", TL_CTRL_STALL, TL_CTRL_STALL, FA_COUNT, false, true, false },
};

static void fault_names(char *buf, size_t len, bool pcie)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(tl_fault_names) / sizeof(tl_fault_names[0]); i++) {
		const struct tl_fault_name *f = &tl_fault_names[i];

		if ((pcie ? f->pcie : f->usb) && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       f->name);
	}
}

/* Parse @args (after "fault") into @e; 0, or -1 with @msg set. */
static int tl_fault_parse(const struct bed_world *w, const char *args, struct tl_entry *e,
			  char *msg, size_t ml)
{
	char copy[BED_SCN_STR], names[256], *save = NULL, *name, *val, *opt, *end;
	const struct tl_fault_name *f = NULL;
	unsigned long v;

	snprintf(copy, sizeof(copy), "%s", args);
	name = strtok_r(copy, " \t", &save);
	opt = name ? strtok_r(NULL, " \t", &save) : NULL;
	if (opt && strtok_r(NULL, " \t", &save)) {
		snprintf(msg, ml, "fault '%s': NAME[=VALUE] [task-filter]", args);
		return -1;
	}
	val = name ? strchr(name, '=') : NULL;
	if (val)
		*val++ = 0;
	for (size_t i = 0; name && i < sizeof(tl_fault_names) / sizeof(tl_fault_names[0]); i++)
		if (!strcmp(name, tl_fault_names[i].name))
			f = &tl_fault_names[i];
	if (!f || !(w->tp ? f->pcie : f->usb)) {
		fault_names(names, sizeof(names), w->tp != NULL);
		snprintf(msg, ml, "fault '%s': not a fault of this NIC (%s)", args, names);
		return -1;
	}
	if (opt && (strcmp(opt, "task-filter") || !f->filter)) {
		snprintf(msg, ml, "fault %s: unexpected '%s'%s", name, opt,
			 f->filter ? " (task-filter is its one option)" : "");
		return -1;
	}
	e->task_filter = opt != NULL;
	e->kind = f->kind;
	switch (f->arg) {
	case FA_NONE:
		if (val) {
			snprintf(msg, ml, "fault %s takes no value", name);
			return -1;
		}
		break;
	case FA_COUNT:
	case FA_NTH:
	case FA_QUEUE:
		if (!val && f->arg == FA_COUNT) {
			e->arg = 1;
			break;
		}
		errno = 0;
		v = val ? strtoul(val, &end, 10) : 0;
		if (!val || !*val || *end || errno || *val == '-' || v > 1000000 ||
		    (f->arg != FA_QUEUE && v == 0) ||
		    (f->arg == FA_QUEUE && v >= w->tp->max_rx_queues)) {
			if (f->arg == FA_QUEUE)
				snprintf(msg, ml, "fault %s=%s: an RX queue, 0-%u", name,
					 val ? val : "", w->tp->max_rx_queues - 1);
			else
				snprintf(msg, ml, "fault %s=%s: a count, 1-1000000", name,
					 val ? val : "");
			return -1;
		}
		e->arg = (unsigned)v;
		break;
	case FA_ONOFF:
	case FA_UPDOWN:
		if (val && !strcmp(val, f->arg == FA_ONOFF ? "on" : "up")) {
			e->kind = f->kind;
		} else if (val && !strcmp(val, f->arg == FA_ONOFF ? "off" : "down")) {
			e->kind = f->off;
		} else {
			snprintf(msg, ml, "fault %s=%s: %s", name, val ? val : "",
				 f->arg == FA_ONOFF ? "on or off" : "up or down");
			return -1;
		}
		break;
	}
	return 0;
}

/* "fault ..." rather than ethtool arguments */
static const char *tl_fault_args(const char *cmd)
{
	while (*cmd == ' ' || *cmd == '\t')
		cmd++;
	if (strncmp(cmd, "fault", 5) || (cmd[5] && cmd[5] != ' ' && cmd[5] != '\t'))
		return NULL;
	cmd += 5;
	while (*cmd == ' ' || *cmd == '\t')
		cmd++;
	return cmd;
}

static int tl_build(struct bed_world *w)
{
	struct cli_timeline *tl = calloc(1, sizeof(*tl));
	const struct bed_scenario *s = &w->scn;
	double end = s->duration_s - 0.5;

	if (!tl || !(tl->e = calloc(TL_MAX, sizeof(*tl->e)))) {
		free(tl);
		cli_err("out of memory");
		return -1;
	}
	tl->w = w;
	w->tl = tl;
	for (unsigned i = 0; i < s->n_at; i++) {
		struct tl_entry *e = tl_add(tl, s->at_s[i], TL_ETHTOOL);
		const char *fault = tl_fault_args(s->at_cmd[i]);
		char msg[384];

		snprintf(e->args, sizeof(e->args), "%s", fault ? fault : s->at_cmd[i]);
		if (fault && tl_fault_parse(w, fault, e, msg, sizeof(msg))) {
			cli_err("timeline: at %g s: %s", s->at_s[i], msg);
			return -1;
		}
	}
	tl->chaos = s->chaos.reconfig_every > 0 || s->chaos.fault_every > 0;
	/* a stream each, so that a longer run extends a shorter one's */
	sim_rng_init(&tl->rng, s->seed, sim_rng_stream_id("chaos-reconfig"));
	for (double t = 0.5; s->chaos.reconfig_every > 0; ) {
		struct tl_entry *e;

		t += gap(tl, s->chaos.reconfig_every);
		if (t >= end || !(e = tl_add(tl, t, TL_ETHTOOL)))
			break;
		e->chaos = true;
		chaos_command(tl, e);
	}
	sim_rng_init(&tl->rng, s->seed, sim_rng_stream_id("chaos-fault"));
	for (double t = 0.5; s->chaos.fault_every > 0; ) {
		t += gap(tl, s->chaos.fault_every);
		if (t >= end || tl->n + 2 > TL_MAX)
			break;
		chaos_fault(tl, t);
	}
	qsort(tl->e, tl->n, sizeof(*tl->e), cmp_entry);
	return 0;
}

int cli_timeline_check(struct bed_world *w)
{
	struct cli_timeline *tl;
	char *msg = NULL;

	if (!w->scn.n_at && !w->scn.chaos.reconfig_every && !w->scn.chaos.fault_every)
		return 0;
	if (w->scn.pcap[0]) {
		cli_err("timeline.at/--at/chaos.*: only with the iperf3/ping workload, not a "
			"capture replay (whose queue check reads the RSS settings once)");
		return -1;
	}
	if (tl_build(w))
		return -1;
	tl = w->tl;
	for (unsigned i = 0; i < tl->n; i++) {
		const struct tl_entry *e = &tl->e[i];

		if ((double)e->at / 1e9 > w->scn.duration_s) {
			cli_err("timeline: %s %s at %g s: after the run's end (run.duration "
				"%g s)", e->kind == TL_ETHTOOL ? "ethtool" : "fault", e->args,
				(double)e->at / 1e9, w->scn.duration_s);
			return -1;
		}
		if (e->kind != TL_ETHTOOL)
			continue;
		if (bed_world_ethtool_check(w, e->args, &msg)) {
			cli_err("timeline: ethtool %s at %g s: %s", e->args, (double)e->at / 1e9,
				msg ? msg : "out of memory");
			free(msg);
			return -1;
		}
	}
	return 0;
}

/* ----- running it ----- */

/* What ethtool reports of the settings a command may change. */
static char *settings(struct bed_world *w)
{
	static const char *const q[] = { "-l", "-g", "-c", "-x" };
	char *buf = NULL, cmd[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (unsigned i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s", q[i], w->dev->name);
		ethtool_cmd_run(w->dev, cmd, f, f);
	}
	fclose(f);
	return buf;
}

/* One ethtool call, in the ethtool task's chunk on its CPU. */
static void tl_exec(struct cli_timeline *tl, struct tl_entry *e)
{
	struct bed_world *w = tl->w;
	struct sim_host *h = w->host;
	uint64_t ps0 = h->exec_total_ps;
	char *before = e->chaos ? settings(w) : NULL;
	FILE *out = open_memstream(&e->out, &e->outlen);
	FILE *err = open_memstream(&e->err, &e->errlen);

	e->ran = true;
	e->cpu = sim_current_cpu(h);
	e->start = sim_now(&w->sim);
	if (!out || !err) {
		e->rc = 1;
	} else {
		/* the netlink request and its reply: two system calls */
		sim_charge(h, SIM_COST_sock_write, 1);
		w->k.fault.make_it_fail = true;		/* this process's calls */
		e->rc = ethtool_cmd_run(w->dev, e->args, out, err);
		w->k.fault.make_it_fail = false;
		sim_charge(h, SIM_COST_sock_read, 1);
	}
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	e->took_ns = (h->exec_total_ps - ps0) / 1000;
	if (before) {
		char *after = e->rc ? settings(w) : NULL;

		e->state_changed = after && strcmp(before, after);
		free(after);
		free(before);
	}
}

static enum sim_task_ret tl_task(struct sim_task *t, void *arg)
{
	struct cli_timeline *tl = arg;

	(void)t;
	while (tl->run < tl->next && tl->e[tl->run].kind != TL_ETHTOOL)
		tl->run++;
	if (tl->run < tl->next)
		tl_exec(tl, &tl->e[tl->run++]);
	while (tl->run < tl->next && tl->e[tl->run].kind != TL_ETHTOOL)
		tl->run++;
	return tl->run < tl->next ? SIM_TASK_RUNNABLE : SIM_TASK_SLEEP;
}

/* A fault happens in the hardware or the kernel at its time. */
static void tl_fault(struct cli_timeline *tl, struct tl_entry *e)
{
	struct bed_world *w = tl->w;

	e->ran = true;
	e->start = sim_now(&w->sim);
	switch (e->kind) {
	case TL_MSIX_DROP:
		rtlm_faults(w->m)->msix_drop_next += e->arg ? e->arg : 1;
		break;
	case TL_LINK_DOWN:
		w->nic->set_link(w, false);
		w->link_flaps++;
		break;
	case TL_LINK_UP:
		w->nic->set_link(w, true);
		break;
	case TL_DMA_FAIL:
		w->k.fault.dma_fail_nth = e->arg;
		w->k.fault.dma_task_filter = e->task_filter;
		break;
	case TL_SKB_FAIL:
		w->k.fault.skb_fail_nth = e->arg;
		w->k.fault.skb_task_filter = e->task_filter;
		break;
	case TL_RING_FULL:
		rtlm_faults(w->m)->rx_ring_full |= 1u << e->arg;
		break;
	case TL_RING_OK:
		rtlm_faults(w->m)->rx_ring_full &= ~(1u << e->arg);
		break;
	case TL_OWNBIT_ON:
	case TL_OWNBIT_OFF:
		rtlm_faults(w->m)->ownbit_erratum = e->kind == TL_OWNBIT_ON;
		break;
	case TL_XFER_ERROR:
		rtlu_faults(w->u)->rx_xfer_error_next += e->arg ? e->arg : 1;
		break;
	case TL_CTRL_STALL:
		rtlu_faults(w->u)->ctrl_stall_next += e->arg ? e->arg : 1;
		break;
	case TL_TX_HANG:
		rtlm_faults(w->m)->tx_hang = true;
		break;
	case TL_ETHTOOL:
		break;
	}
}

static void tl_due(struct sim *s, struct sim_event *ev)
{
	struct cli_timeline *tl = ev->arg;
	bool wake = false;

	while (tl->next < tl->n && tl->e[tl->next].at <= sim_now(s)) {
		struct tl_entry *e = &tl->e[tl->next++];

		if (e->kind == TL_ETHTOOL)
			wake = true;
		else
			tl_fault(tl, e);
	}
	if (wake)
		sim_task_wake(&tl->task);
	if (tl->next < tl->n)
		sim_schedule_at(s, ev, tl->e[tl->next].at);
}

/* Whether queue @q (RX 0..3, then TX) holds work the device completed
 * and nobody took yet, and how much was taken so far. */
static void queue_state(struct bed_world *w, unsigned q, bool *pending, uint64_t *progress)
{
	*pending = false;
	*progress = 0;
	if (w->tp && q < RTL_MAX_RX_QUEUES) {
		struct rtl_rx_ring *ring = &w->tp->rx_ring[q];

		*pending = q < w->tp->num_rx_queues && rtl_rx_pending(ring);
		*progress = u64_stats_read(&ring->stats.packets) +
			    u64_stats_read(&ring->stats.drops);
	} else if (w->tp) {
		struct rtl_tx_ring *ring = &w->tp->tx_ring[0];
		unsigned dirty = READ_ONCE(ring->dirty_tx);

		*pending = ring->desc && dirty != READ_ONCE(ring->cur_tx) &&
			   !(le32_to_cpu(READ_ONCE(ring->desc[dirty % ring->num_desc].opts1)) &
			     RTL_DESC_OWN);
		*progress = dirty;
	} else if (q == 0) {
		*pending = READ_ONCE(w->utp->rx_done) != NULL;
		*progress = u64_stats_read(&w->utp->rx_stats.transfers);
	} else if (q == RTL_MAX_RX_QUEUES) {
		/* frames waiting while a buffer is free to carry them */
		*pending = skb_queue_len(&w->utp->tx_queue) && READ_ONCE(w->utp->tx_free);
		*progress = u64_stats_read(&w->utp->tx_stats.transfers);
	}
}

/* Every millisecond: which queues hold completed work, and since when
 * none was taken. */
static void tl_observe(struct sim *s, struct sim_event *ev)
{
	struct cli_timeline *tl = ev->arg;
	sim_time_t now = sim_now(s);

	for (unsigned q = 0; q < TL_QUEUES; q++) {
		bool pending;
		uint64_t progress;

		queue_state(tl->w, q, &pending, &progress);
		if (!pending || !tl->pending[q] || progress != tl->progress[q])
			tl->since[q] = now;
		else if (now - tl->since[q] > tl->max_stall) {
			tl->max_stall = now - tl->since[q];
			tl->max_stall_q = q;
		}
		tl->pending[q] = pending;
		tl->progress[q] = progress;
	}
	sim_schedule_in(s, ev, OBS_PERIOD_NS);
}

int cli_timeline_start(struct bed_world *w)
{
	struct cli_timeline *tl = w->tl;
	struct sim_cpuset all;

	if (!tl)
		return 0;
	sim_cpuset_first_n(&all, w->scn.cpus);
	sim_task_init(w->host, &tl->task, "ethtool", tl_task, tl, &all);
	tl->task_up = true;
	sim_event_init(&tl->ev, tl_due, tl);
	if (tl->n)
		sim_schedule_at(&w->sim, &tl->ev, tl->e[0].at);
	if (tl->chaos) {
		sim_event_init(&tl->obs, tl_observe, tl);
		tl->obs.background = true;
		sim_schedule_in(&w->sim, &tl->obs, OBS_PERIOD_NS);
		tl->obs_up = true;
	}
	return 0;
}

/* ----- the report ----- */

static const char *what(const struct tl_entry *e)
{
	return e->kind == TL_ETHTOOL ? "ethtool" : "fault";
}

unsigned cli_timeline_report(struct bed_world *w, struct rpt_run *r)
{
	struct cli_timeline *tl = w->tl;
	struct rpt_timeline *t = &r->tl;
	unsigned failed = 0;

	if (!tl)
		return 0;
	tl->rpt = calloc(tl->n ? tl->n : 1, sizeof(*tl->rpt));
	if (!tl->rpt)
		return 0;
	for (unsigned i = 0; i < tl->n; i++) {
		const struct tl_entry *e = &tl->e[i];
		struct rpt_tl_entry *o = &tl->rpt[t->n];

		if (!e->ran)
			continue;
		*o = (struct rpt_tl_entry){
			.at_s = (double)e->at / 1e9, .what = what(e), .args = e->args,
			.chaos = e->chaos, .ethtool = e->kind == TL_ETHTOOL, .rc = e->rc,
			.cpu = e->cpu, .start_s = (double)e->start / 1e9,
			.took_us = (double)e->took_ns / 1e3,
			.out = e->out ? e->out : "", .err = e->err ? e->err : "",
			.state_changed = e->state_changed,
		};
		t->n++;
		if (e->kind == TL_ETHTOOL) {
			if (!e->chaos && e->rc)
				failed++;
			if (e->chaos) {
				t->applied += !e->rc;
				t->rejected += !!e->rc;
				t->rejected_changed += e->state_changed;
			}
		} else {
			t->faults += e->kind != TL_LINK_UP && e->kind != TL_RING_OK &&
				     e->kind != TL_OWNBIT_OFF;
		}
	}
	t->e = tl->rpt;
	t->failed = failed;
	t->chaos = tl->chaos;
	t->max_stall_ms = (double)tl->max_stall / 1e6;
	t->max_stall_q = tl->max_stall_q;
	/* two service-timer periods (r8169_irq.c) and a jiffy */
	t->bound_ms = 2000.0 + 1000.0 / HZ;
	t->kicks = w->tp ? w->tp->watchdog_kicks : 0;
	t->resets = w->tp ? w->tp->resets : 0;
	t->tx_timeouts = w->tp ? w->tp->tx_timeouts : 0;
	return failed;
}

void cli_timeline_free(struct bed_world *w)
{
	struct cli_timeline *tl = w->tl;

	if (!tl)
		return;
	/* nothing in the engine may point into it any more */
	sim_cancel(&w->sim, &tl->ev);
	sim_cancel(&w->sim, &tl->obs);
	if (tl->task_up)
		sim_task_fini(&tl->task);
	sim_purge(&w->sim);
	for (unsigned i = 0; i < tl->n; i++) {
		free(tl->e[i].out);
		free(tl->e[i].err);
	}
	free(tl->e);
	free(tl->rpt);
	free(tl);
	w->tl = NULL;
}
