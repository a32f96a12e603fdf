// SPDX-License-Identifier: MIT
/*
 * report_json.c - a run as one JSON document (json-c): configuration,
 * summary (throughput, accounting, CPUs, queues, top, drops), intervals
 * and the --compare rows; or a replay's queues and accounting.
 */
#include "report/report.h"

#include <json-c/json.h>

#include "report/report_json.h"

static json_object *jint64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

/* One CPU's mpstat figures. */
static json_object *cpu_json(unsigned c, const struct rpt_cpu *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cpu", json_object_new_int((int)c));
	json_object_object_add(o, "usr", json_object_new_double(p->v[SIM_ACCT_USR]));
	json_object_object_add(o, "sys", json_object_new_double(p->v[SIM_ACCT_SYS]));
	json_object_object_add(o, "irq", json_object_new_double(p->v[SIM_ACCT_IRQ]));
	json_object_object_add(o, "soft", json_object_new_double(p->v[SIM_ACCT_SOFT]));
	json_object_object_add(o, "idle", json_object_new_double(p->v[SIM_ACCT_IDLE]));
	json_object_object_add(o, "ksoftirqd", json_object_new_double(p->ksoftirqd));
	return o;
}

static json_object *cpus_json(const struct rpt_run *r)
{
	json_object *cpus = json_object_new_array();

	for (unsigned c = 0; c < r->ncpus; c++)
		json_object_array_add(cpus, cpu_json(c, &r->cpu[c]));
	return cpus;
}

/* The driver's counters of RX queue @q. */
static json_object *queue_json(const struct rpt_run *r, unsigned q)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "queue", json_object_new_int((int)q));
	json_object_object_add(o, "packets", jint64(r->q[q].packets));
	json_object_object_add(o, "bytes", jint64(r->q[q].bytes));
	json_object_object_add(o, "drops", jint64(r->q[q].drops));
	return o;
}

/* The non-zero drop reasons. */
static json_object *drops_json(const struct rpt_run *r)
{
	json_object *dr = json_object_new_object();

	for (unsigned i = 0; i < r->ndrops; i++)
		if (r->drops[i].n)
			json_object_object_add(dr, r->drops[i].name, jint64(r->drops[i].n));
	return dr;
}

static void put(FILE *out, json_object *root)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* What ran, for a JSON reader: chip, queues, CPUs, preset, seed, the
 * workload. */
static json_object *config_json(const struct rpt_run *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "chip", json_object_new_string(r->head.chip));
	if (r->head.whatif)
		json_object_object_add(o, "whatif", json_object_new_string(r->head.whatif));
	json_object_object_add(o, "bus", json_object_new_string(r->head.bus));
	json_object_object_add(o, "rx_queues", json_object_new_int((int)r->head.queues));
	if (r->head.queues_asked) {     /* the driver set up fewer at probe */
		json_object_object_add(o, "rx_queues_asked",
				       json_object_new_int((int)r->head.queues_asked));
		json_object_object_add(o, "rx_queues_at_probe",
				       json_object_new_int((int)r->head.probe_queues));
	}
	json_object_object_add(o, "rss", json_object_new_boolean(r->head.rss));
	json_object_object_add(o, "cpus", json_object_new_int((int)r->head.cpus));
	json_object_object_add(o, "preset", json_object_new_string(r->head.preset));
	json_object_object_add(o, "seed", jint64(r->head.seed));
	json_object_object_add(o, "duration_s", json_object_new_double(r->head.duration_s));
	json_object_object_add(o, "streams", json_object_new_int((int)r->ip.streams));
	if (r->ip.instances > 1)
		json_object_object_add(o, "instances", json_object_new_int((int)r->ip.instances));
	json_object_object_add(o, "protocol", json_object_new_string(r->ip.udp ? "udp" : "tcp"));
	json_object_object_add(o, "direction", json_object_new_string(
		r->ip.reverse ? "host to peer" : "peer to host"));
	return o;
}

/* The TCP or UDP accounting object. */
static void add_accounting(json_object *root, const struct rpt_iperf3 *ip)
{
	json_object *t = json_object_new_object();

	if (ip->udp) {
		json_object_object_add(t, "sent", jint64(ip->sent));
		json_object_object_add(t, "received", jint64(ip->got));
		json_object_object_add(t, "rcvbuf_errors", jint64(ip->rcvbuf));
		json_object_object_add(t, "socket_queued", jint64(ip->queued));
		json_object_object_add(t, "nic_drops", jint64(ip->nic_drops));
		json_object_object_add(t, "driver_drops", jint64(ip->drv_drops));
		json_object_object_add(t, "in_flight", jint64(ip->inflight));
		json_object_object_add(t, "not_for_a_socket", jint64(ip->no_socket));
		if (ip->unaccounted)
			json_object_object_add(t, "unaccounted",
					       json_object_new_int64(ip->unaccounted));
		json_object_object_add(root, "udp", t);
		return;
	}
	json_object_object_add(t, "direction", json_object_new_string(
		ip->reverse ? "host to peer" : "peer to host"));
	json_object_object_add(t, "frames_sent", jint64(ip->tcp_sent));
	json_object_object_add(t, "frames_received", jint64(ip->tcp_got));
	if (ip->reverse) {
		json_object_object_add(t, "host_drops", jint64(ip->tx_local_drops));
		json_object_object_add(t, "tx_drops", jint64(ip->tx_out_drops));
		json_object_object_add(t, "in_flight", jint64(ip->tx_in_flight));
	} else {
		json_object_object_add(t, "nic_drops", jint64(ip->nic_drops));
		json_object_object_add(t, "driver_drops", jint64(ip->drv_drops));
		json_object_object_add(t, "in_flight", jint64(ip->inflight));
	}
	json_object_object_add(t, "retransmits", jint64(ip->retransmits));
	if (ip->unaccounted)
		json_object_object_add(t, "unaccounted", json_object_new_int64(ip->unaccounted));
	json_object_object_add(root, "tcp", t);
}

/* What the host received per interval, each interval's bytes put where
 * they crossed the wire (the figures --compare uses). */
static json_object *intervals_json(const struct rpt_iperf3 *ip)
{
	json_object *ivs = json_object_new_array();

	for (unsigned i = 1; i <= ip->n; i++) {
		json_object *o = json_object_new_object();
		double t = (double)(ip->end[i] - ip->end[i - 1]) / 1e9;

		json_object_object_add(o, "start", json_object_new_double((double)ip->end[i - 1] / 1e9));
		json_object_object_add(o, "end", json_object_new_double((double)ip->end[i] / 1e9));
		json_object_object_add(o, "gbps", json_object_new_double(
			t > 0 ? (double)(ip->bytes[i] - ip->bytes[i - 1]) * 8 / t / 1e9 : 0));
		json_object_array_add(ivs, o);
	}
	return ivs;
}

static json_object *compare_json(const struct rpt_run *r)
{
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < r->ncmp; i++) {
		const struct rpt_compare *c = &r->cmp[i];
		json_object *o = json_object_new_object(), *band = json_object_new_array();

		json_object_object_add(o, "row", json_object_new_string(c->row->id));
		json_object_object_add(o, "figure", json_object_new_string(c->row->figure));
		json_object_object_add(o, "seed", json_object_new_string(c->row->seed));
		json_object_object_add(o, "value", json_object_new_double(c->value));
		json_object_array_add(band, json_object_new_double(c->row->lo));
		json_object_array_add(band, json_object_new_double(c->row->hi));
		json_object_object_add(o, "band", band);
		json_object_object_add(o, "role", json_object_new_string(
			c->row->fit ? "fit" : "predicted"));
		json_object_object_add(o, "ok", json_object_new_boolean(c->ok));
		json_object_object_add(o, "note", json_object_new_string(c->note));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *ping_json(const struct rpt_ping *p)
{
	json_object *po = json_object_new_object();

	json_object_object_add(po, "min_ms", json_object_new_double(p->min));
	json_object_object_add(po, "avg_ms", json_object_new_double(p->avg));
	json_object_object_add(po, "max_ms", json_object_new_double(p->max));
	json_object_object_add(po, "mdev_ms", json_object_new_double(p->mdev));
	json_object_object_add(po, "transmitted", json_object_new_int((int)p->sent));
	json_object_object_add(po, "received", json_object_new_int((int)p->received));
	return po;
}

/* top's view: the iperf3 process and every ksoftirqd/N. */
static json_object *top_json(const struct rpt_run *r)
{
	json_object *top = json_object_new_object();

	json_object_object_add(top, "iperf3", json_object_new_double(r->ip.app_cpu));
	if (r->ip.busy_tasks)
		json_object_object_add(top, "stress-ng-cpu",
				       json_object_new_double(r->ip.busy_cpu));
	for (unsigned c = 0; c < r->ncpus; c++) {
		char name[32];

		snprintf(name, sizeof(name), "ksoftirqd/%u", c);
		json_object_object_add(top, name, json_object_new_double(r->cpu[c].ksoftirqd));
	}
	return top;
}

void report_json(FILE *out, const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;
	json_object *root = json_object_new_object(), *sum = json_object_new_object();
	json_object *qs = json_object_new_array();

	add_accounting(root, ip);
	json_object_object_add(sum, "throughput_gbps", json_object_new_double(
		(double)ip->total_bytes * 8 / ip->secs / 1e9));
	if (r->ping.up && r->ping.have_stats)
		json_object_object_add(sum, "ping", ping_json(&r->ping));
	json_object_object_add(sum, "retransmits", jint64(ip->retransmits));
	json_object_object_add(sum, "datagrams_sent", jint64(ip->sent));
	json_object_object_add(sum, "datagrams_received", jint64(ip->got));
	json_object_object_add(sum, "rcvbuf_errors", jint64(ip->rcvbuf));
	for (unsigned q = 0; q < r->nqueues; q++)
		json_object_array_add(qs, queue_json(r, q));
	json_object_object_add(sum, "cpus", cpus_json(r));
	json_object_object_add(sum, "queues", qs);
	if (ip->up)
		json_object_object_add(sum, "top", top_json(r));
	json_object_object_add(sum, "dropped", drops_json(r));
	json_object_object_add(root, "config", config_json(r));
	json_object_object_add(root, "summary", sum);
	json_object_object_add(sum, "intervals", intervals_json(ip));
	if (ip->up && ip->nstreams)
		report_json_iperf3(root, r);
	if (r->nsamp > 1)
		json_object_object_add(root, "sysstat", report_mpstat_json(r));
	if (r->idle)
		json_object_object_add(root, "cpuidle", report_cpuidle_json(r));
	if (r->compare)
		json_object_object_add(root, "compare", compare_json(r));
	if (r->compare && r->compare_sets && r->compare_sets[0])
		json_object_object_add(root, "compare_changed_by",
				       json_object_new_string(r->compare_sets));
	if (r->tl.n || r->tl.chaos)
		json_object_object_add(root, "timeline", report_timeline_json(r));
	if (r->error)           /* as iperf3 -J reports a failed test */
		json_object_object_add(root, "error", json_object_new_string(r->error));
	put(out, root);
}

void report_replay_json(FILE *out, const struct rpt_run *r)
{
	const struct rpt_replay *rp = &r->replay;
	json_object *root = json_object_new_object(), *sum = json_object_new_object();
	json_object *qs = json_object_new_array(), *rep = json_object_new_object();

	for (unsigned q = 0; q < r->nqueues; q++) {
		json_object *o = queue_json(r, q);

		json_object_object_add(o, "flows", jint64(rp->q_flows[q]));
		json_object_array_add(qs, o);
	}
	json_object_object_add(sum, "cpus", cpus_json(r));
	json_object_object_add(sum, "queues", qs);
	json_object_object_add(root, "summary", sum);
	json_object_object_add(rep, "frames", jint64(rp->frames));
	json_object_object_add(rep, "delivered", jint64(rp->delivered));
	json_object_object_add(rep, "dropped", drops_json(r));
	json_object_object_add(rep, "queue_mismatches", jint64(rp->mismatches));
	if (rp->empty)
		json_object_object_add(rep, "zero_length_records", jint64(rp->empty));
	if (rp->cut)
		json_object_object_add(rep, "cut_by_snaplen", jint64(rp->cut));
	if (rp->gaps_cut)
		json_object_object_add(rep, "gaps_shortened", jint64(rp->gaps_cut));
	if (rp->other_link) {
		json_object *nr = json_object_new_object();

		for (unsigned i = 0; i < rp->nlinks; i++)
			json_object_object_add(nr, rp->links[i].name, jint64(rp->links[i].n));
		json_object_object_add(rep, "not_replayed_link_types", nr);
	}
	json_object_object_add(root, "replay", rep);
	if (r->nsamp > 1)
		json_object_object_add(root, "sysstat", report_mpstat_json(r));
	if (r->idle)
		json_object_object_add(root, "cpuidle", report_cpuidle_json(r));
	if (r->error)
		json_object_object_add(root, "error", json_object_new_string(r->error));
	put(out, root);
}

void report_json_error(FILE *out, const char *msg)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "error", json_object_new_string(msg));
	put(out, root);
}
