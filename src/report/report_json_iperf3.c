// SPDX-License-Identifier: MIT
/*
 * report_json_iperf3.c - the iperf3 workload as `iperf3 -c -J` writes it
 * (iperf3 3.12: "start", "intervals" with "streams" and "sum", "end" with
 * "streams", "sum_sent", "sum_received", "cpu_utilization_percent"), so
 * that jq scripts written for iperf3 read rxscale's JSON.  Key names and
 * which keys appear are read in iperf3's src/iperf_api.c (the JSON of
 * iperf_print_intermediate, print_interval_results, iperf_print_results,
 * iperf_on_connect, send_parameters); the code is rxscale's.
 */
#include "report/report.h"

#include <json-c/json.h>

#include "report/report_iperf3.h"
#include "report/report_json.h"

static void add_d(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static void add_i(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void add_b(json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

static void add_s(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* start, end, seconds, bytes, bits_per_second of one row */
static void add_span(json_object *o, double t0, double t1, uint64_t bytes)
{
	add_d(o, "start", t0);
	add_d(o, "end", t1);
	add_d(o, "seconds", t1 - t0);
	add_i(o, "bytes", (int64_t)bytes);
	add_d(o, "bits_per_second", t1 > t0 ? (double)bytes * 8 / (t1 - t0) : 0);
}

static json_object *start_json(const struct rpt_iperf3 *ip, double duration)
{
	json_object *o = json_object_new_object(), *con = json_object_new_array();
	json_object *ts = json_object_new_object(), *to = json_object_new_object();
	json_object *test = json_object_new_object();
	const char *local = ip->reverse ? RPT_HOST_IP : RPT_PEER_IP;
	const char *remote = ip->reverse ? RPT_PEER_IP : RPT_HOST_IP;

	for (unsigned k = 0; k < ip->nstreams; k++) {
		json_object *c = json_object_new_object();

		add_i(c, "socket", ip->st[k].socket);
		add_s(c, "local_host", local);
		add_i(c, "local_port", ip->st[k].port);
		add_s(c, "remote_host", remote);
		add_i(c, "remote_port", RPT_IPERF3_PORT + k / ip->streams);
		json_object_array_add(con, c);
	}
	json_object_object_add(o, "connected", con);
	add_s(o, "version", "iperf 3.12");
	add_s(o, "system_info", "rxscale: a simulated host");
	/* the simulation's clock starts at 0 */
	add_s(ts, "time", "Thu, 01 Jan 1970 00:00:00 GMT");
	add_i(ts, "timesecs", 0);
	json_object_object_add(o, "timestamp", ts);
	add_s(to, "host", remote);
	add_i(to, "port", RPT_IPERF3_PORT);
	json_object_object_add(o, "connecting_to", to);
	if (!ip->udp)
		add_i(o, "tcp_mss_default", 1448);
	add_i(o, "target_bitrate", ip->udp ? (int64_t)ip->bitrate : 0);
	add_i(o, "sock_bufsize", 0);
	/* Linux's defaults: tcp_wmem[1] and tcp_rmem[1], or
	 * net.core.wmem_default and rmem_default for UDP */
	add_i(o, "sndbuf_actual", ip->udp ? 212992 : 16384);
	add_i(o, "rcvbuf_actual", ip->udp ? 212992 : 131072);
	add_s(test, "protocol", ip->udp ? "UDP" : "TCP");
	add_i(test, "num_streams", ip->nstreams);
	add_i(test, "blksize", ip->udp ? ip->len : ip->len ? ip->len : 128 * 1024);
	add_i(test, "omit", 0);
	add_i(test, "duration", (int64_t)duration);
	add_i(test, "bytes", 0);
	add_i(test, "blocks", 0);
	/* rxscale's reverse is the host running iperf3 -c, not -R */
	add_i(test, "reverse", 0);
	add_i(test, "tos", 0);
	add_i(test, "target_bitrate", ip->udp ? (int64_t)ip->bitrate : 0);
	json_object_object_add(o, "test_start", test);
	return o;
}

static const struct rpt_sample *sample(const struct rpt_iperf3 *ip, unsigned row, unsigned s)
{
	return &ip->samp[row * ip->nstreams + s];
}

static json_object *intervals_json(const struct rpt_iperf3 *ip)
{
	json_object *arr = json_object_new_array();

	for (unsigned i = 1; i <= ip->n; i++) {
		double t0 = (double)ip->end[i - 1] / 1e9, t1 = (double)ip->end[i] / 1e9;
		json_object *iv = json_object_new_object(), *ss = json_object_new_array();
		json_object *sum = json_object_new_object();
		uint64_t bytes = 0, retr = 0, pkts = 0;

		for (unsigned k = 0; k < ip->nstreams; k++) {
			const struct rpt_sample *a = sample(ip, i - 1, k), *b = sample(ip, i, k);
			json_object *o = json_object_new_object();

			add_i(o, "socket", ip->st[k].socket);
			add_span(o, t0, t1, b->bytes - a->bytes);
			if (ip->udp) {
				add_i(o, "packets", (int64_t)(b->packets - a->packets));
			} else {
				add_i(o, "retransmits", (int64_t)(b->retrans - a->retrans));
				add_i(o, "snd_cwnd", b->cwnd);
				add_i(o, "snd_wnd", b->snd_wnd);
				add_i(o, "rtt", b->rtt_us);
				add_i(o, "rttvar", b->rttvar_us);
				add_i(o, "pmtu", 1500);
			}
			add_b(o, "omitted", false);
			add_b(o, "sender", true);
			json_object_array_add(ss, o);
			bytes += b->bytes - a->bytes;
			retr += b->retrans - a->retrans;
			pkts += b->packets - a->packets;
		}
		add_span(sum, t0, t1, bytes);
		if (ip->udp)
			add_i(sum, "packets", (int64_t)pkts);
		else
			add_i(sum, "retransmits", (int64_t)retr);
		add_b(sum, "omitted", false);
		add_b(sum, "sender", true);
		json_object_object_add(iv, "streams", ss);
		json_object_object_add(iv, "sum", sum);
		json_object_array_add(arr, iv);
	}
	return arr;
}

/* UDP's jitter and loss fields */
static void add_udp(json_object *o, double jitter, uint64_t lost, uint64_t pkts)
{
	add_d(o, "jitter_ms", jitter);
	add_i(o, "lost_packets", (int64_t)lost);
	add_i(o, "packets", (int64_t)pkts);
	add_d(o, "lost_percent", pkts ? 100.0 * (double)lost / (double)pkts : 0);
}

/* The sums of streams [first, first + n) into @o: UDP's "sum", then
 * "sum_sent" and "sum_received". */
static void add_sums(json_object *o, const struct rpt_iperf3 *ip, unsigned first, unsigned n)
{
	json_object *sent = json_object_new_object(), *rcvd = json_object_new_object();
	uint64_t tsent = 0, trcvd = 0, tretr = 0, tpkts = 0, tlost = 0;
	double secs = ip->secs, jitter = 0;

	for (unsigned k = first; k < first + n; k++) {
		const struct rpt_sample *e = sample(ip, ip->n, k);
		const struct rpt_stream *st = &ip->st[k];

		tsent += e->bytes;
		trcvd += e->rx_bytes;
		tretr += e->retrans;
		tpkts += st->dgrams_sent;
		tlost += st->dgrams_lost;
		jitter += st->jitter_ms;
	}
	if (n)
		jitter /= n;
	add_span(sent, 0, secs, tsent);
	add_span(rcvd, 0, secs, trcvd);
	if (ip->udp) {
		json_object *sum = json_object_new_object();

		/* iperf3's "sum": the sent bytes with the receiver's loss */
		add_span(sum, 0, secs, tsent);
		add_udp(sum, jitter, tlost, tpkts);
		add_b(sum, "sender", true);
		json_object_object_add(o, "sum", sum);
		add_udp(sent, 0, 0, tpkts);
		add_udp(rcvd, jitter, tlost, tpkts);
	} else {
		add_i(sent, "retransmits", (int64_t)tretr);
	}
	add_b(sent, "sender", true);
	/* iperf3 3.12 marks UDP's received sum sender: false, TCP's true */
	add_b(rcvd, "sender", !ip->udp);
	json_object_object_add(o, "sum_sent", sent);
	json_object_object_add(o, "sum_received", rcvd);
}

static json_object *end_json(const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;
	json_object *o = json_object_new_object(), *ss = json_object_new_array();
	json_object *cpu = json_object_new_object();
	double secs = ip->secs;

	for (unsigned k = 0; k < ip->nstreams; k++) {
		const struct rpt_sample *e = sample(ip, ip->n, k);
		const struct rpt_stream *st = &ip->st[k];
		json_object *one = json_object_new_object(), *s = json_object_new_object();

		add_i(s, "socket", st->socket);
		add_span(s, 0, secs, e->bytes);
		if (ip->udp) {
			add_udp(s, st->jitter_ms, st->dgrams_lost, st->dgrams_sent);
			add_i(s, "out_of_order", 0);
			add_b(s, "sender", true);
			json_object_object_add(one, "udp", s);
		} else {
			json_object *rv = json_object_new_object();

			add_i(s, "retransmits", (int64_t)e->retrans);
			add_i(s, "max_snd_cwnd", st->max_cwnd);
			add_i(s, "max_snd_wnd", st->max_snd_wnd);
			add_i(s, "max_rtt", st->max_rtt_us);
			add_i(s, "min_rtt", st->min_rtt_us);
			add_i(s, "mean_rtt", st->mean_rtt_us);
			add_b(s, "sender", true);
			add_i(rv, "socket", st->socket);
			add_span(rv, 0, secs, e->rx_bytes);
			add_b(rv, "sender", true);
			json_object_object_add(one, "sender", s);
			json_object_object_add(one, "receiver", rv);
		}
		json_object_array_add(ss, one);
	}
	json_object_object_add(o, "streams", ss);
	/* over every instance's streams; with more than one instance, each
	 * one's sums too (rxscale's key: each is its own iperf3 -c) */
	add_sums(o, ip, 0, ip->nstreams);
	if (ip->instances > 1) {
		json_object *arr = json_object_new_array();

		for (unsigned i = 0; i < ip->instances; i++) {
			json_object *one = json_object_new_object();

			add_i(one, "port", RPT_IPERF3_PORT + i);
			add_i(one, "num_streams", ip->streams);
			add_sums(one, ip, i * ip->streams, ip->streams);
			json_object_array_add(arr, one);
		}
		json_object_object_add(o, "instances", arr);
	}
	/* host: the client, whose output this is; remote: the server; the
	 * peer's CPU is not modelled */
	add_d(cpu, "host_total", ip->reverse ? ip->cpu_usr + ip->cpu_sys : 0);
	add_d(cpu, "host_user", ip->reverse ? ip->cpu_usr : 0);
	add_d(cpu, "host_system", ip->reverse ? ip->cpu_sys : 0);
	add_d(cpu, "remote_total", ip->reverse ? 0 : ip->cpu_usr + ip->cpu_sys);
	add_d(cpu, "remote_user", ip->reverse ? 0 : ip->cpu_usr);
	add_d(cpu, "remote_system", ip->reverse ? 0 : ip->cpu_sys);
	json_object_object_add(o, "cpu_utilization_percent", cpu);
	if (!ip->udp) {
		add_s(o, "sender_tcp_congestion", ip->cc);
		add_s(o, "receiver_tcp_congestion", ip->rcv_cc);
	}
	return o;
}

void report_json_iperf3(json_object *root, const struct rpt_run *r)
{
	json_object_object_add(root, "start", start_json(&r->ip, r->head.duration_s));
	json_object_object_add(root, "intervals", intervals_json(&r->ip));
	json_object_object_add(root, "end", end_json(r));
}
