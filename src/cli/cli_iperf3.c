// SPDX-License-Identifier: MIT
/*
 * cli_iperf3.c - the iperf3 and ping workloads of `rxscale run`: the wire
 * to the peer, per-interval samples, the CPU figures over the mean window,
 * the accounting of every frame sent, and the --compare rows; the report
 * itself is src/report's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "bed/bed_compare.h"
#include "report/report.h"
#include "stack/tcp_cc.h"

#define MAX_INTERVALS 3600

_Static_assert(BED_SCN_IPERF3_MAX_INSTANCES == IPERF3_MAX_INSTANCES,
	       "iperf3.instances: the scenario's limit is the workload's");

/* Per-interval samples of an iperf3 run. */
struct intervals {
	struct sim_event ev;
	struct bed_world *w;
	sim_time_t len_ns;              /* 1 s, or the run if shorter */
	unsigned n;
	uint64_t app_bytes[MAX_INTERVALS + 1];  /* cumulative at each end */
	sim_time_t end[MAX_INTERVALS + 1];
	struct sim_acct_sample acct2[SIM_CPUS_MAX];     /* at 2 s (mean start) */
	bool have2;
	struct sim_acct_sample acct_end[SIM_CPUS_MAX];  /* at the run's end */
	bool have_end;
	uint64_t app_ns2, app_ns_end;   /* iperf3 process CPU ns at 2 s, end */
	uint64_t busy_ns2, busy_ns_end; /* the busy tasks' CPU ns, the same */
	uint64_t app_usr_end;           /* of app_ns_end, in user mode */
	sim_time_t t_end;               /* when acct_end was taken */
	uint64_t app_at_end;            /* bytes read by the run's end */
	/* per stream at each interval's end: [(cap + 1) * streams] */
	struct rpt_sample *samp;
	unsigned cap;                   /* intervals samp and acct hold */
	/* every CPU's counters at each interval's end: [(cap + 1) * cpus] */
	struct sim_acct_sample *acct;
};

/* Every CPU's counters now, into row @row of iv->acct (mpstat). */
static void sample_cpus(struct bed_world *w, struct intervals *iv, unsigned row)
{
	if (row > iv->cap)
		return;
	sim_host_sync(w->host);
	for (unsigned c = 0; c < w->scn.cpus; c++)
		sim_host_acct(w->host, c, &iv->acct[row * w->scn.cpus + c]);
}

/* Each stream's counters now, into row @row of iv->samp. */
static void sample_streams(struct bed_world *w, struct intervals *iv, unsigned row)
{
	const struct iperf3 *ip = &w->ip;

	if (!w->ip_up || row > iv->cap)
		return;
	for (unsigned i = 0; i < ip->nstreams; i++) {
		const struct iperf3_stream *st = &ip->s[i];
		struct rpt_sample *o = &iv->samp[row * ip->nstreams + i];

		if (ip->cfg.udp) {
			o->packets = st->sent;
			o->bytes = st->sent * ip->cfg.len;
			o->rx_bytes = st->rx_bytes;
			continue;
		}
		/* iperf3 counts what it wrote: the host's writes with -R; the
		 * peer's sender has data without end, so what it sent first */
		o->bytes = ip->cfg.reverse ? st->written : st->snd.max;
		o->rx_bytes = st->rcv.st.bytes_in;
		o->retrans = st->snd.st.retransmits;
		o->cwnd = st->snd.w.cwnd * st->snd.p.mss;
		o->snd_wnd = (uint32_t)(st->snd.rwnd_edge - st->snd.una);
		o->rtt_us = (uint32_t)(st->snd.rtt.srtt / 1000);
		o->rttvar_us = (uint32_t)(st->snd.rtt.rttvar / 1000);
	}
}

static void interval_fn(struct sim *s, struct sim_event *ev)
{
	struct intervals *iv = ev->arg;
	struct bed_world *w = iv->w;

	if (iv->n < MAX_INTERVALS) {
		iv->n++;
		iv->end[iv->n] = sim_now(s);
		iv->app_bytes[iv->n] = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
		sample_streams(w, iv, iv->n);
		sample_cpus(w, iv, iv->n);
	}
	if (sim_now(s) == SIM_S(2) && !iv->have2) {
		sim_host_sync(w->host);
		for (unsigned c = 0; c < w->scn.cpus; c++)
			sim_host_acct(w->host, c, &iv->acct2[c]);
		iv->app_ns2 = w->ip_up ? iperf3_cpu_ns(&w->ip) : 0;
		iv->busy_ns2 = load_busy_cpu_ns(&w->busy);
		iv->have2 = true;
	}
	bed_progress((double)sim_now(s) / 1e9, w->scn.duration_s);
	if (sim_now(s) + iv->len_ns <= (sim_time_t)(w->scn.duration_s * 1e9) + 1)
		sim_schedule_in(s, ev, iv->len_ns);
}

/* CPU percentages over the mean window: after 2 s when the run is longer
 * than 3 s (EXPERIMENTS.md), else the whole run. */
static void window_pct(struct bed_world *w, struct intervals *iv, unsigned cpu,
		       struct rpt_cpu *p)
{
	struct sim_acct_sample s, z = { 0 };
	const struct sim_acct_sample *b = iv->have2 && w->scn.duration_s > 3 ?
					  &iv->acct2[cpu] : &z;
	double tot = 0;

	if (iv->have_end)
		s = iv->acct_end[cpu];
	else
		sim_host_acct(w->host, cpu, &s);
	for (int k = 0; k < SIM_ACCT_NR; k++)
		tot += (double)(s.ns[k] - b->ns[k]);
	for (int k = 0; k < SIM_ACCT_NR; k++)
		p->v[k] = tot ? 100.0 * (double)(s.ns[k] - b->ns[k]) / tot : 0;
	if (!tot)
		p->v[SIM_ACCT_IDLE] = 100.0;
	p->ksoftirqd = tot ? 100.0 * (double)(s.ksoftirqd_ns - b->ksoftirqd_ns) / tot : 0;
}

/*
 * Put each interval's bytes where they crossed the wire.  The receiver
 * counts bytes when they are delivered in order, in batches: a GRO packet
 * flushed just after an interval boundary, or out-of-order data released
 * by a retransmission, carries bytes that arrived before the boundary.
 * No window can hold more than the line's goodput (@limit_bps) plus one
 * segment (@seg bytes, the phase of the frames); what an interval holds
 * beyond that arrived earlier, so it moves to the interval before.  The
 * total is unchanged.
 */
static void attribute_intervals(struct intervals *iv, uint64_t limit_bps, unsigned seg)
{
	static uint64_t d[MAX_INTERVALS + 1];

	for (unsigned i = 1; i <= iv->n; i++)
		d[i] = iv->app_bytes[i] - iv->app_bytes[i - 1];
	for (unsigned i = iv->n; i > 1; i--) {
		double t = (double)(iv->end[i] - iv->end[i - 1]) / 1e9;
		uint64_t cap = (uint64_t)((double)limit_bps * t / 8) + seg;

		if (d[i] > cap) {
			d[i - 1] += d[i] - cap;
			d[i] = cap;
		}
	}
	for (unsigned i = 1; i <= iv->n; i++)
		iv->app_bytes[i] = iv->app_bytes[i - 1] + d[i];
}

/* The user-mode part of iperf3_cpu_ns(). */
static uint64_t app_usr_ns(const struct iperf3 *ip)
{
	uint64_t n = 0;

	for (unsigned k = 0; k < ip->cfg.instances; k++)
		n += ip->inst[k].task.ns[SIM_ACCT_USR];
	for (unsigned i = 0; i < ip->nstreams; i++)
		if (ip->s[i].task_up)
			n += ip->s[i].task.ns[SIM_ACCT_USR];
	return n;
}

/* Per stream over the whole run: iperf3's stream id, the client's port,
 * the sender's window and RTT figures, UDP loss and jitter. */
static void streams_report(struct bed_world *w, const struct intervals *iv, struct rpt_stream *out)
{
	const struct iperf3 *ip = &w->ip;
	unsigned ns = ip->nstreams, rows = iv->n < iv->cap ? iv->n : iv->cap;

	for (unsigned i = 0; i < ns; i++) {
		const struct iperf3_stream *st = &ip->s[i];
		struct rpt_stream *o = &out[i];
		uint64_t rtt_sum = 0;

		/* iperf3 -c's sockets: the control connection is 4, each
		 * stream's data socket is followed by a descriptor of its own;
		 * each instance's client is its own process */
		o->socket = 5 + 2 * (i % ip->cfg.streams);
		o->port = st->cport;
		if (ip->cfg.udp) {
			o->dgrams_sent = st->sent;
			o->dgrams_lost = st->sent - st->rx_dgrams - st->q_dgrams;
			o->jitter_ms = st->jitter_s * 1000.0;
			continue;
		}
		o->min_rtt_us = (uint32_t)(st->snd.rtt.rtt_min / 1000);
		for (unsigned r = 1; r <= rows; r++) {
			const struct rpt_sample *sm = &iv->samp[r * ns + i];

			if (sm->cwnd > o->max_cwnd)
				o->max_cwnd = sm->cwnd;
			if (sm->snd_wnd > o->max_snd_wnd)
				o->max_snd_wnd = sm->snd_wnd;
			if (sm->rtt_us > o->max_rtt_us)
				o->max_rtt_us = sm->rtt_us;
			rtt_sum += sm->rtt_us;
		}
		o->mean_rtt_us = rows ? (uint32_t)(rtt_sum / rows) : 0;
	}
}

/* Tasks' CPU time as top's %CPU (100 = one CPU) over the mean window:
 * @at2 ns of it at 2 s, @end at the run's end. */
static double top_pct(struct bed_world *w, const struct intervals *iv, uint64_t at2,
		      uint64_t end)
{
	bool win = iv->have2 && w->scn.duration_s > 3;
	double span = (double)(iv->t_end - (win ? SIM_S(2) : 0));

	return span > 0 ? 100.0 * (double)(end - (win ? at2 : 0)) / span : 0;
}

/* What --compare reads off this run: the per-interval throughput, the CPU
 * shares over the mean window and per whole second in it, ping. */
static void run_figures_fill(struct bed_world *w, const struct rpt_run *r, struct bed_figures *f)
{
	static double gbps[MAX_INTERVALS], soft[SIM_CPUS_MAX], idle[SIM_CPUS_MAX];
	static double *soft_iv;
	static unsigned soft_iv_cap;
	static bool irqc[SIM_CPUS_MAX];
	const struct rpt_iperf3 *ip = &r->ip;
	struct sim_cpuset set;

	*f = (struct bed_figures){ .gbps = gbps, .ncpus = r->ncpus, .soft = soft,
				   .idle = idle, .irq_cpu = irqc };
	for (unsigned i = 1; i <= ip->n; i++) {
		double t = (double)(ip->end[i] - ip->end[i - 1]) / 1e9;

		gbps[f->n_gbps++] = t > 0 ? (double)(ip->bytes[i] -
						     ip->bytes[i - 1]) * 8 / t / 1e9 : 0;
	}
	f->first_mean = w->scn.duration_s > 3 && f->n_gbps > 2 ? 2 : 0;
	for (unsigned c = 0; c < r->ncpus; c++) {
		soft[c] = r->cpu[c].v[SIM_ACCT_SOFT];
		idle[c] = r->cpu[c].v[SIM_ACCT_IDLE];
		if (r->cpu[c].ksoftirqd > f->ksoftirqd_max)
			f->ksoftirqd_max = r->cpu[c].ksoftirqd;
	}
	/* mpstat's per-second %soft: whole 1 s intervals in the mean window */
	if (r->nsamp * r->ncpus > soft_iv_cap) {
		free(soft_iv);
		soft_iv_cap = r->nsamp * r->ncpus;
		soft_iv = malloc(sizeof(*soft_iv) * soft_iv_cap);
		if (!soft_iv)
			soft_iv_cap = 0;
	}
	for (unsigned i = 1; soft_iv && i < r->nsamp; i++) {
		if (r->samp_t[i] - r->samp_t[i - 1] != SIM_S(1) ||
		    r->samp_t[i - 1] < SIM_S(f->first_mean))
			continue;
		for (unsigned c = 0; c < r->ncpus; c++) {
			const struct sim_acct_sample *a = &r->acct[(i - 1) * r->ncpus + c];
			const struct sim_acct_sample *b = &r->acct[i * r->ncpus + c];
			uint64_t tot = 0;

			for (int k = 0; k < SIM_ACCT_NR; k++)
				tot += b->ns[k] - a->ns[k];
			soft_iv[f->n_soft_iv * r->ncpus + c] = tot ? 100.0 *
				(double)(b->ns[SIM_ACCT_SOFT] - a->ns[SIM_ACCT_SOFT]) / (double)tot : 0;
		}
		f->n_soft_iv++;
	}
	f->soft_iv = soft_iv;
	f->app_cpu = ip->app_cpu;
	f->have_ping = r->ping.have_stats;
	f->ping_min = r->ping.min;
	f->ping_avg = r->ping.avg;
	f->ping_max = r->ping.max;
	if (!w->scn.irq_cpus[0] || sim_cpuset_parse(&set, w->scn.irq_cpus, w->scn.cpus))
		sim_cpuset_first_n(&set, w->scn.cpus);
	for (unsigned c = 0; c < w->scn.cpus; c++)
		irqc[c] = sim_cpuset_test(&set, c);
}

int cli_compare_reference(struct bed_world *w)
{
	char list[128], *tok, *save = NULL;
	struct rpt_sweep_point pt;
	enum bed_compare_ref ref = BED_COMPARE_REF_NONE;

	snprintf(list, sizeof(list), "%s", w->scn.bed_compare_rows);
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		const struct bed_compare_row *row = bed_compare_row_find(tok);

		if (row && row->ref != BED_COMPARE_REF_NONE)
			ref = row->ref;
	}
	if (ref == BED_COMPARE_REF_NONE)
		return 0;
	if (ref == BED_COMPARE_REF_ONE_STREAM)
		snprintf(w->ref.set, sizeof(w->ref.set), "iperf3.streams=1");
	else
		snprintf(w->ref.set, sizeof(w->ref.set), "usb.mitigation=%s",
			 w->scn.usb_mitigation_off ? "on" : "off");
	bed_progress_label("--compare reference run, %s", w->ref.set);
	if (cli_run_point(&w->scn, w->ref.set, false, &pt))
		return -1;
	bed_progress_done();
	w->ref.have = true;
	w->ref.gbps_mean = pt.gbps_mean;
	w->ref.ping_avg_ms = pt.ping_avg_ms;
	return 0;
}

/* The scenario's compare rows, evaluated on this run's report. */
static void evaluate_rows(struct bed_world *w, struct rpt_run *r)
{
	struct bed_figures f;
	char list[128], *tok, *save = NULL;

	run_figures_fill(w, r, &f);
	f.have_ref = w->ref.have;
	f.ref_set = w->ref.set;
	f.ref_gbps = w->ref.gbps_mean;
	f.ref_have_ping = w->ref.ping_avg_ms >= 0;
	f.ref_ping_avg = w->ref.ping_avg_ms;
	snprintf(list, sizeof(list), "%s", w->scn.bed_compare_rows);
	r->ncmp = 0;
	for (tok = strtok_r(list, ", ", &save); tok && r->ncmp < RPT_COMPARE_ROWS;
	     tok = strtok_r(NULL, ", ", &save)) {
		const struct bed_compare_row *row = bed_compare_row_find(tok);
		struct rpt_compare *c = &r->cmp[r->ncmp];

		if (!row)
			continue;       /* checked when the scenario was loaded */
		c->row = row;
		c->value = row->value(&f, row, &c->ok, c->note, sizeof(c->note));
		r->ncmp++;
	}
}

/* The iperf3 configuration of the scenario; 0, or -1 with the error
 * printed. */
static int iperf3_config(struct bed_world *w, struct iperf3_cfg *cfg)
{
	*cfg = (struct iperf3_cfg){
		.streams = w->scn.iperf_streams, .instances = w->scn.iperf_instances,
		.udp = w->scn.iperf_udp,
		.bitrate = w->scn.iperf_bitrate, .len = w->scn.iperf_len,
		.seed = w->scn.seed, .rcvbuf = w->scn.iperf_rcvbuf,
		.reverse = w->scn.iperf_reverse, .sndbuf = w->scn.iperf_sndbuf,
		.thread_per_stream = w->scn.iperf_thread_per_stream,
	};
	if (w->scn.iperf_cpus[0] &&
	    sim_cpuset_parse(&cfg->cpus, w->scn.iperf_cpus, w->scn.cpus)) {
		cli_err("iperf3.cpus: '%s' is not a CPU list within 0-%u", w->scn.iperf_cpus,
			w->scn.cpus - 1);
		return -1;
	}
	if (cfg->udp && !cfg->len)
		cfg->len = 1448;
	if (cfg->udp && (cfg->len < 16 || cfg->len > 1472)) {
		cli_err("iperf3.len: a UDP datagram carries 16..1472 bytes");
		return -1;
	}
	if (cfg->thread_per_stream && cfg->udp) {
		cli_err("iperf3.threads: a thread per stream is modelled for TCP only");
		return -1;
	}
	if (cfg->reverse && cfg->sndbuf && cfg->sndbuf < (cfg->len ? cfg->len : 128u * 1024)) {
		cli_err("iperf3.sndbuf: %u bytes is less than one write (iperf3.len, %u)",
			cfg->sndbuf, cfg->len ? cfg->len : 128u * 1024);
		return -1;
	}
	if (cfg->udp && cfg->reverse) {
		cli_err("iperf3.reverse: only TCP can run reversed (the host sending)");
		return -1;
	}
	tcp_cc_parse(w->scn.iperf_cc, &cfg->cc);
	return 0;
}

/* Plug the wire in, create iperf3 and ping; 0, or -1 with the error
 * printed. */
static int workload_up(struct bed_world *w, const struct iperf3_cfg *cfg, sim_time_t dur)
{
	struct load_wire_nic port = w->nic->port(w);

	if (load_wire_init(&w->wire, &w->sim, &port, w->nic->mbps(w),
			   w->scn.prop_ns, load_host_peer_rx, &w->lh))
		return -1;
	load_wire_set_peer_clock(&w->wire, w->clk_peer);
	w->wire_up = true;
	if (cfg->streams) {
		if (iperf3_init(&w->ip, cfg, w->host, &w->wire, w->dev)) {
			cli_err("iperf3: bad configuration");
			return -1;
		}
		w->ip_up = true;
	}
	if (w->scn.ping_count) {
		struct ping_cfg pc = {
			.count = w->scn.ping_count, .size = w->scn.ping_size,
			.interval = (sim_time_t)(w->scn.ping_interval_s * 1e9),
			.from_host = w->scn.ping_from_host,
		};

		if (ping_init(&w->pg, &pc, &w->sim, &w->wire, w->dev->dev_addr,
			      w->host, w->dev)) {
			cli_err("ping: bad configuration");
			return -1;
		}
		w->pg_up = true;
		/* the first probe 0.5 s in, after the streams ramp up */
		ping_start(&w->pg, dur > SIM_MS(500) ? SIM_MS(500) : 0);
	}
	load_host_init(&w->lh, w->dev, w->ip_up ? &w->ip : NULL,
		       w->pg_up ? &w->pg : NULL);
	return 0;
}

/* Run for @dur, then let what is on the wire and in the rings drain, so
 * every datagram sent is accounted for; CPU figures are taken at @dur. */
static void simulate(struct bed_world *w, const struct iperf3_cfg *cfg,
		     struct intervals *iv, sim_time_t dur)
{
	struct sim_acct_sample keep[SIM_CPUS_MAX];

	iv->w = w;
	sample_cpus(w, iv, 0);
	iv->len_ns = dur < SIM_S(1) ? dur : SIM_S(1);
	sim_event_init(&iv->ev, interval_fn, iv);
	sim_schedule_in(&w->sim, &iv->ev, iv->len_ns);
	bed_faults_arm(w);
	cli_timeline_start(w);
	if (w->ip_up)
		iperf3_start(&w->ip);
	load_busy_start(&w->busy, w->host, w->scn.busy_tasks);     /* validated */
	sim_run_until(&w->sim, dur);
	if (w->ip_up)
		iperf3_stop(&w->ip);
	if (w->pg_up)
		sim_cancel(&w->sim, &w->pg.ev);
	sim_cancel(&w->sim, &iv->ev);
	if (iv->end[iv->n] < dur && iv->n < MAX_INTERVALS) {
		/* the last, partial interval, as iperf3 prints it */
		iv->n++;
		iv->end[iv->n] = dur;
		iv->app_bytes[iv->n] = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
		sample_streams(w, iv, iv->n);
		sample_cpus(w, iv, iv->n);
	}
	sim_host_sync(w->host);
	iv->app_at_end = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
	if (w->ip_up)
		attribute_intervals(iv, cfg->udp ? iperf3_goodput_limit_bps(&w->ip, w->nic->mbps(w))
				    : (uint64_t)w->nic->mbps(w) * 1000000ull * 1448 / 1538,
				    cfg->udp ? cfg->len : 1448);
	for (unsigned c = 0; c < w->scn.cpus; c++)
		sim_host_acct(w->host, c, &keep[c]);
	iv->app_ns_end = w->ip_up ? iperf3_cpu_ns(&w->ip) : 0;
	iv->busy_ns_end = load_busy_cpu_ns(&w->busy);
	iv->app_usr_end = w->ip_up ? app_usr_ns(&w->ip) : 0;
	iv->t_end = sim_now(&w->sim);
	sim_run_until(&w->sim, dur + SIM_MS(50));
	sim_host_sync(w->host);
	memcpy(iv->acct_end, keep, sizeof(keep[0]) * w->scn.cpus);
	iv->have_end = true;
}

/* Where every frame and datagram went, and the ping summary. */
static void account(struct bed_world *w, const struct iperf3_cfg *cfg, struct rpt_run *r)
{
	struct rpt_iperf3 *ip = &r->ip;

	for (unsigned i = 0; w->ip_up && !cfg->udp && i < w->ip.nstreams; i++) {
		ip->tcp_sent += w->ip.s[i].snd.st.segs_out + w->ip.s[i].snd.st.probes;
		ip->tcp_got += w->ip.s[i].rcv.st.segs_in;
	}
	if (w->ip_up && !cfg->udp && cfg->reverse) {
		/* the host sends: its losses are local (no skb, qdisc full) and
		 * on the way out (driver, device); what is left is in the
		 * qdisc, the driver's TX ring or buffers, or on the wire */
		const struct netdev_queue *q = netdev_get_tx_queue(w->dev, 0);

		ip->tx_local_drops = w->ip.data_tx_fail;
		ip->tx_in_flight = q->q_len + w->nic->tx_inflight(w, &ip->tx_out_drops) +
				   w->wire.to_peer.n;
		ip->unaccounted = (int64_t)ip->tcp_sent -
				  (int64_t)(ip->tcp_got + ip->tx_local_drops + ip->tx_out_drops +
					    ip->tx_in_flight);
	}
	for (unsigned i = 0; w->ip_up && i < w->ip.nstreams; i++) {
		ip->sent += w->ip.s[i].sent;
		ip->got += w->ip.s[i].rx_dgrams;
		ip->rcvbuf += w->ip.s[i].rcvbuf_errors;
		ip->queued += w->ip.s[i].q_dgrams;
	}
	/* the device's reasons, then the driver's (driver_*, no_handler) */
	for (unsigned i = 0; i < r->ndrops; i++) {
		if (!strncmp(r->drops[i].name, "driver_", 7) ||
		    !strcmp(r->drops[i].name, "no_handler"))
			ip->drv_drops += r->drops[i].n;
		else
			ip->nic_drops += r->drops[i].n;
	}
	ip->inflight = w->nic->model_inflight(w) + w->wire.to_dut.n;
	ip->no_socket = w->lh.no_socket;
	/* the drops count every frame; ping's go beside the workload's */
	if (w->pg_up) {
		uint64_t out = w->pg.peer_frames, in = w->lh.icmp_in;

		ip->ping_dropped = out > in ? out - in : 0;
	}
	if (w->ip_up && !cfg->udp && !cfg->reverse)
		ip->unaccounted = (int64_t)(ip->tcp_sent + ip->ping_dropped) -
				  (int64_t)(ip->tcp_got + ip->nic_drops + ip->drv_drops +
					    ip->inflight + ip->no_socket);
	else if (w->ip_up && cfg->udp)
		ip->unaccounted = (int64_t)(ip->sent + ip->ping_dropped) -
				  (int64_t)(ip->got + ip->rcvbuf + ip->nic_drops + ip->drv_drops +
					    ip->inflight + ip->queued + ip->no_socket);
	ip->retransmits = w->ip_up ? iperf3_retransmits(&w->ip) : 0;
	if (w->pg_up) {
		unsigned tx = w->pg.sent;

		r->ping.up = true;
		r->ping.from_host = w->scn.ping_from_host;
		r->ping.sent = tx;
		r->ping.received = w->pg.received;
		r->ping.time_ms = tx > 1 ? (double)(w->pg.t_sent[tx - 1] - w->pg.t_sent[0]) / 1e6
				  : 0.0;
		r->ping.have_stats = ping_stats(&w->pg, &r->ping.min, &r->ping.avg,
						&r->ping.max, &r->ping.mdev);
	}
}

/* The headline figures of a sweep point. */
static void sweep_point(struct bed_world *w, const struct rpt_run *r, struct rpt_sweep_point *pt)
{
	struct bed_figures f;

	run_figures_fill(w, r, &f);
	pt->gbps = (double)r->ip.total_bytes * 8 / r->ip.secs / 1e9;
	pt->gbps_mean = bed_figures_mean_gbps(&f, NULL);
	pt->ksoftirqd = 0;
	pt->soft_max = 0;
	for (unsigned c = 0; c < r->ncpus; c++) {
		if (r->cpu[c].ksoftirqd > pt->ksoftirqd)
			pt->ksoftirqd = r->cpu[c].ksoftirqd;
		if (r->cpu[c].v[SIM_ACCT_SOFT] > pt->soft_max)
			pt->soft_max = r->cpu[c].v[SIM_ACCT_SOFT];
	}
	pt->irqs_per_s = (double)w->nic->interrupts(w) / ((double)sim_now(&w->sim) / 1e9);
	pt->ping_avg_ms = r->ping.have_stats ? r->ping.avg : -1;
	pt->retransmits = r->ip.retransmits;
	pt->no_iperf3 = !w->ip_up;     /* no throughput, no retransmits */
	pt->udp = w->scn.iperf_udp;
}

int cli_run_iperf3(struct bed_world *w, bool json, struct rpt_sweep_point *pt)
{
	struct iperf3_cfg cfg;
	sim_time_t dur = (sim_time_t)(w->scn.duration_s * 1e9);
	struct rpt_stream *st = NULL;
	struct intervals *iv;
	struct rpt_run *r;
	unsigned failed, nstreams;
	char why[160], chaos_why[96];
	bool acct, chaos;
	int rc = -1;

	if (iperf3_config(w, &cfg))
		return -1;
	iv = calloc(1, sizeof(*iv));
	r = calloc(1, sizeof(*r));
	if (!iv || !r)
		goto out;
	/* a row per whole second, the partial last one, and row 0 */
	iv->cap = w->scn.duration_s + 2 < MAX_INTERVALS ? (unsigned)w->scn.duration_s + 2
						       : MAX_INTERVALS;
	nstreams = cfg.streams ? cfg.streams * cfg.instances : 1;
	iv->samp = calloc(((size_t)iv->cap + 1) * nstreams, sizeof(*iv->samp));
	iv->acct = calloc(((size_t)iv->cap + 1) * w->scn.cpus, sizeof(*iv->acct));
	st = calloc(nstreams, sizeof(*st));
	if (!iv->samp || !iv->acct || !st || workload_up(w, &cfg, dur))
		goto out;
	/* what runs, printed before the simulation */
	cli_world_report(w, r);
	r->ip = (struct rpt_iperf3){
		.up = w->ip_up, .udp = cfg.udp, .reverse = cfg.reverse,
		.streams = cfg.streams, .instances = cfg.instances, .len = cfg.len,
		.bitrate = cfg.bitrate,
		.cc = tcp_cc_name(cfg.cc), .secs = (double)dur / 1e9,
		.busy_tasks = w->scn.busy_tasks,        /* for the header */
		.cpus = w->scn.iperf_cpus,
	};
	if (w->utp)
		r->usb = (struct rpt_usb){
			.present = true, .link_mbps = w->scn.usb_link_mbps,
			.imod_ns = w->scn.usb_imod_ns,
			.rx_usecs = (unsigned)(w->utp->coalesce / 1000),
			.adaptive_rx = w->utp->adaptive_rx,
			.mitigation_off = w->utp->mitigation_off,
		};
	if (!pt && !json)
		report_text_head(stdout, r);
	simulate(w, &cfg, iv, dur);
	bed_progress_done();
	/* what it measured */
	cli_world_report(w, r);
	r->ip.n = iv->n;
	r->ip.end = iv->end;
	r->ip.bytes = iv->app_bytes;
	r->ip.total_bytes = iv->app_at_end;
	r->ip.app_cpu = top_pct(w, iv, iv->app_ns2, iv->app_ns_end);
	r->ip.busy_tasks = w->busy.n;
	r->ip.busy_cpu = top_pct(w, iv, iv->busy_ns2, iv->busy_ns_end);
	if (iv->t_end) {
		r->ip.cpu_usr = 100.0 * (double)iv->app_usr_end / (double)iv->t_end;
		r->ip.cpu_sys = 100.0 * (double)(iv->app_ns_end - iv->app_usr_end) /
				(double)iv->t_end;
	}
	if (w->ip_up) {
		streams_report(w, iv, st);
		r->ip.nstreams = w->ip.nstreams;
		r->ip.samp = iv->samp;
		r->ip.st = st;
		/* the other side runs Linux's default */
		r->ip.rcv_cc = "cubic";
	}
	r->cpu_window = iv->have2 && w->scn.duration_s > 3;
	r->nsamp = (iv->n < iv->cap ? iv->n : iv->cap) + 1;
	r->samp_t = iv->end;
	r->acct = iv->acct;
	for (unsigned c = 0; c < w->scn.cpus; c++)
		window_pct(w, iv, c, &r->cpu[c]);
	account(w, &cfg, r);
	r->compare = w->compare;
	r->compare_sets = w->compare_sets;
	if (w->compare)
		evaluate_rows(w, r);
	if (getenv("RXSCALE_DEBUG") && w->hc && !pt && !json) {
		const struct rtlu_stats *us = rtlu_stats(w->u);

		fprintf(stderr, "dbg: irqs %llu moderated %llu tds %llu naks %llu tx_transfers "
			"%llu rx_transfers %llu fifo_max %u\n",
			(unsigned long long)w->hc->stats.irqs,
			(unsigned long long)w->hc->stats.irq_moderated,
			(unsigned long long)w->hc->stats.tds_done, (unsigned long long)us->tx_naks,
			(unsigned long long)us->tx_transfers, (unsigned long long)us->rx_transfers,
			us->rx_fifo_max);
	}
	failed = cli_timeline_report(w, r);
	/* how it failed, known before the report (the JSON document says it) */
	rc = failed || w->failed_queries ? 3 : 0;
	snprintf(why, sizeof(why), "%s", failed ?
		 "a command of the timeline was rejected (the run went on with the old settings)" :
		 "an ethtool query before the traffic failed");
	acct = r->ip.unaccounted != 0;
	if (acct) {
		snprintf(why, sizeof(why), "accounting: %lld frames went unaccounted (a bug)",
			 (long long)r->ip.unaccounted);
		rc = 1;
	}
	chaos = r->tl.chaos && (r->tl.max_stall_ms > r->tl.bound_ms || r->tl.rejected_changed);
	if (chaos) {
		snprintf(chaos_why, sizeof(chaos_why), "chaos: %s", r->tl.rejected_changed ?
			 "a rejected command changed the settings (a bug)" :
			 "an RX queue stalled longer than the recovery bound");
		rc = 1;
	}
	r->error = chaos ? chaos_why : rc ? why : NULL;
	if (pt) {
		sweep_point(w, r, pt);
	} else if (json) {
		report_json(stdout, r);
		cli_json_printed();
	} else {
		report_text(stdout, r, w->dev);
	}
	/* the failures on stderr, after the report */
	if (acct)
		cli_err("%s", why);
	if (chaos)
		cli_err("%s", chaos_why);
out:
	if (iv) {
		free(iv->samp);
		free(iv->acct);
	}
	free(iv);
	free(r);
	free(st);
	return rc;
}
