// SPDX-License-Identifier: MIT
/*
 * report_iperf3.c - the iperf3 workload as text: what `iperf3 -c` prints
 * (the peer's client, or the host's with iperf3.reverse), then the
 * accounting of every frame or datagram sent.
 *
 * The line formats, the unit formatting and which lines appear (per
 * stream, [SUM] only with more than one stream, the separator between
 * interval blocks, sender and receiver summaries) are iperf3 3.12's, as
 * read in its src/iperf_locale.c (report_*_format), src/units.c
 * (unit_snprintf) and src/iperf_api.c (print_interval_results,
 * iperf_print_intermediate, iperf_print_results); the code is rxscale's.
 */
#include "report/report.h"

#include <math.h>

#include "report/report_iperf3.h"

/*
 * iperf3's adaptive units: bytes in 1024 steps (KByte, MByte, ...), bits
 * in 1000 steps, printed in four places: "%4.2f" below 9.995, "%4.1f"
 * below 99.95, else "%4.0f".  The caller adds iperf3's "s" ("MBytes").
 */
void rpt_iperf3_units(char *buf, size_t n, double v, bool bits)
{
	static const char *const byte_label[] = { "Byte", "KByte", "MByte", "GByte", "TByte" };
	static const char *const bit_label[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	double base = bits ? 1000.0 : 1024.0, t, factor = 1.0;
	unsigned k = 0;

	if (bits)
		v *= 8;
	for (t = v; t >= base && k < 4; k++)
		t /= base;
	/* iperf3 scales by a factor built by division (1.0 / 1000 / 1000) */
	for (unsigned i = 0; i < k; i++)
		factor /= base;
	v *= factor;
	snprintf(buf, n, "%4.*f %s", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v,
		 bits ? bit_label[k] : byte_label[k]);
}

void report_iperf3_cmdline(FILE *out, const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;
	const char *srv = ip->reverse ? "peer" : "host", *cli = ip->reverse ? "host" : "peer";
	const char *remote = ip->reverse ? RPT_PEER_IP : RPT_HOST_IP;
	char args[160];

	if (r->usb.present && r->usb.adaptive_rx)
		fprintf(out, "USB %u Gbit/s link, xHCI IMOD %u ns, rx-usecs adaptive, "
			"mitigation %s\n", r->usb.link_mbps / 1000, r->usb.imod_ns,
			r->usb.mitigation_off ? "off" : "on");
	else if (r->usb.present)
		fprintf(out, "USB %u Gbit/s link, xHCI IMOD %u ns, rx-usecs %u, mitigation %s\n",
			r->usb.link_mbps / 1000, r->usb.imod_ns, r->usb.rx_usecs,
			r->usb.mitigation_off ? "off" : "on");
	if (ip->busy_tasks)
		fprintf(out, "host load: stress-ng --cpu %u (%u CPU-bound tasks)\n",
			ip->busy_tasks, ip->busy_tasks);
	if (ip->up && ip->cpus && ip->cpus[0])
		fprintf(out, "the host's iperf3 %s under taskset -c %s\n",
			ip->instances > 1 ? "processes run" : "runs", ip->cpus);
	if (!ip->up)
		return;
	if (ip->udp)
		snprintf(args, sizeof(args), "-u -b %llu -l %u -P %u -t %g",
			 (unsigned long long)ip->bitrate, ip->len, ip->streams, r->head.duration_s);
	else
		snprintf(args, sizeof(args), "-C %s -P %u -t %g%s", ip->cc, ip->streams,
			 r->head.duration_s, ip->reverse ? " (MSS 1448, timestamps, no TSO)" :
			 " (MSS 1448, timestamps)");
	if (ip->instances > 1)
		fprintf(out, "%u iperf3 servers on the %s (iperf3 -s -p %u ... -p %u, a process "
			"each); on the %s, a client for each: iperf3 -c %s -p PORT %s, which "
			"print:\n", ip->instances, srv, RPT_IPERF3_PORT,
			RPT_IPERF3_PORT + ip->instances - 1, cli, remote, args);
	else
		fprintf(out, "iperf3 -s on the %s; on the %s: iperf3 -c %s %s, which prints:\n",
			srv, cli, remote, args);
}

/* One row's bytes and rate: "1.10 GBytes", "9.41 Gbits/sec". */
static void fmt_transfer(char *ubuf, char *nbuf, size_t n, double bytes, double secs)
{
	rpt_iperf3_units(ubuf, n, bytes, false);
	rpt_iperf3_units(nbuf, n, secs > 0 ? bytes / secs : 0, true);
}

static const struct rpt_sample *sample(const struct rpt_iperf3 *ip, unsigned row, unsigned s)
{
	return &ip->samp[row * ip->nstreams + s];
}

/* "[  5]" or "[SUM]" */
static void id(char *buf, size_t n, int socket)
{
	if (socket < 0)
		snprintf(buf, n, "[SUM]");
	else
		snprintf(buf, n, "[%3d]", socket);
}

/* The streams of one client: ip->st[first .. first + n). */
struct client {
	const struct rpt_iperf3 *ip;
	unsigned first, n;
};

/* One interval line of stream @s (-1: the sum of @c's) for interval @i. */
static void interval_line(FILE *out, const struct client *c, unsigned i, int s)
{
	const struct rpt_iperf3 *ip = c->ip;
	double t0 = (double)ip->end[i - 1] / 1e9, t1 = (double)ip->end[i] / 1e9;
	uint64_t bytes = 0, retr = 0, pkts = 0;
	char who[16], ubuf[32], nbuf[32], cbuf[32];

	for (unsigned k = c->first; k < c->first + c->n; k++) {
		if (s >= 0 && (unsigned)s != k)
			continue;
		bytes += sample(ip, i, k)->bytes - sample(ip, i - 1, k)->bytes;
		retr += sample(ip, i, k)->retrans - sample(ip, i - 1, k)->retrans;
		pkts += sample(ip, i, k)->packets - sample(ip, i - 1, k)->packets;
	}
	id(who, sizeof(who), s < 0 ? -1 : (int)ip->st[s].socket);
	fmt_transfer(ubuf, nbuf, sizeof(ubuf), (double)bytes, t1 - t0);
	if (ip->udp)
		fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %llu  \n", who, t0, t1, ubuf,
			nbuf, (unsigned long long)pkts);
	else if (s < 0)
		fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %3llu             \n", who, t0,
			t1, ubuf, nbuf, (unsigned long long)retr);
	else {
		rpt_iperf3_units(cbuf, sizeof(cbuf), sample(ip, i, (unsigned)s)->cwnd, false);
		fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %3llu   %ss       \n", who, t0,
			t1, ubuf, nbuf, (unsigned long long)retr, cbuf);
	}
}

/* The summary lines of stream @s (-1: the sum of @c's): sender, then
 * receiver. */
static void summary_lines(FILE *out, const struct client *c, int s)
{
	const struct rpt_iperf3 *ip = c->ip;
	uint64_t sent = 0, rcvd = 0, retr = 0, pkts = 0, lost = 0;
	double jitter = 0, secs = ip->secs;
	char who[16], ubuf[32], nbuf[32];

	for (unsigned k = c->first; k < c->first + c->n; k++) {
		if (s >= 0 && (unsigned)s != k)
			continue;
		sent += sample(ip, ip->n, k)->bytes;
		rcvd += sample(ip, ip->n, k)->rx_bytes;
		retr += sample(ip, ip->n, k)->retrans;
		pkts += ip->st[k].dgrams_sent;
		lost += ip->st[k].dgrams_lost;
		jitter += ip->st[k].jitter_ms;
	}
	if (s < 0)
		jitter /= c->n;                 /* iperf3 averages the streams' */
	id(who, sizeof(who), s < 0 ? -1 : (int)ip->st[s].socket);
	fmt_transfer(ubuf, nbuf, sizeof(ubuf), (double)sent, secs);
	if (ip->udp) {
		fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %5.3f ms  %llu/%llu (%.2g%%)  "
			"sender\n", who, 0.0, secs, ubuf, nbuf, 0.0, 0ull,
			(unsigned long long)pkts, 0.0);
		fmt_transfer(ubuf, nbuf, sizeof(ubuf), (double)rcvd, secs);
		fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %5.3f ms  %llu/%llu (%.2g%%)  "
			"receiver\n", who, 0.0, secs, ubuf, nbuf, jitter,
			(unsigned long long)lost, (unsigned long long)pkts,
			pkts ? 100.0 * (double)lost / (double)pkts : 0.0);
		return;
	}
	fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec  %3llu             sender\n", who,
		0.0, secs, ubuf, nbuf, (unsigned long long)retr);
	fmt_transfer(ubuf, nbuf, sizeof(ubuf), (double)rcvd, secs);
	fprintf(out, "%s %6.2f-%-6.2f sec  %ss  %ss/sec                  receiver\n", who,
		0.0, secs, ubuf, nbuf);
}

static const char separator[] = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";

static void summary_head(FILE *out, const struct rpt_iperf3 *ip)
{
	fputs(ip->udp ? "[ ID] Interval           Transfer     Bitrate         Jitter    "
		"Lost/Total Datagrams\n" : "[ ID] Interval           Transfer     Bitrate"
		"         Retr\n", out);
}

/* iperf3 -c's output (the client of server port @port): connections,
 * intervals, summary. */
static void report_client(FILE *out, const struct client *c, unsigned port)
{
	const struct rpt_iperf3 *ip = c->ip;
	const char *local = ip->reverse ? RPT_HOST_IP : RPT_PEER_IP;
	const char *remote = ip->reverse ? RPT_PEER_IP : RPT_HOST_IP;
	unsigned end = c->first + c->n;
	bool multi = c->n > 1;

	fprintf(out, "Connecting to host %s, port %u\n", remote, port);
	for (unsigned k = c->first; k < end; k++)
		fprintf(out, "[%3u] local %s port %u connected to %s port %u\n", ip->st[k].socket,
			local, ip->st[k].port, remote, port);
	for (unsigned i = 1; i <= ip->n; i++) {
		if (i == 1)
			fputs(ip->udp ? "[ ID] Interval           Transfer     Bitrate         "
				"Total Datagrams\n" : "[ ID] Interval           Transfer     "
				"Bitrate         Retr  Cwnd\n", out);
		else if (multi)
			fputs(separator, out);
		for (unsigned k = c->first; k < end; k++)
			interval_line(out, c, i, (int)k);
		if (multi)
			interval_line(out, c, i, -1);
	}
	fputs(separator, out);
	summary_head(out, ip);
	for (unsigned k = c->first; k < end; k++)
		summary_lines(out, c, (int)k);
	if (multi)
		summary_lines(out, c, -1);
	fputs("\niperf Done.\n", out);
}

/* Each instance's client output, one after another; with more than one,
 * the sum over all of them. */
static void report_clients(FILE *out, const struct rpt_iperf3 *ip)
{
	struct client all = { ip, 0, ip->nstreams };
	unsigned ni = ip->instances > 1 ? ip->instances : 1;

	for (unsigned k = 0; k < ni; k++) {
		struct client c = { ip, k * (ip->nstreams / ni), ip->nstreams / ni };

		if (k)
			fputs("\n", out);
		report_client(out, &c, RPT_IPERF3_PORT + k);
	}
	if (ni == 1)
		return;
	fprintf(out, "\nall %u instances (ports %u-%u), %u streams:\n", ni, RPT_IPERF3_PORT,
		RPT_IPERF3_PORT + ni - 1, ip->nstreams);
	summary_head(out, ip);
	summary_lines(out, &all, -1);
}

/* Every frame or datagram sent, where it ended up. */
/* What closes the line when more than the workload's frames are in it:
 * ping frames not received (among the drops or in flight), frames for no
 * socket; and " + N
 * UNACCOUNTED (a bug)" when the sides still differ.  Nothing when the
 * line closes as it reads. */
static const char *unaccounted(const struct rpt_iperf3 *ip)
{
	static char buf[160];
	size_t n = 0;

	buf[0] = 0;
	if (ip->no_socket)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " + %llu for no socket",
				      (unsigned long long)ip->no_socket);
	if (ip->unaccounted)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " + %lld UNACCOUNTED (a bug)",
				      (long long)ip->unaccounted);
	if (ip->ping_dropped)
		snprintf(buf + n, sizeof(buf) - n, " (and %llu ping frame%s, among the drops "
			 "or in flight)", (unsigned long long)ip->ping_dropped,
			 ip->ping_dropped == 1 ? "" : "s");
	return buf;
}

static void report_accounting(FILE *out, const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;

	if (ip->up && !ip->udp && !ip->reverse)
		fprintf(out, "\naccounting: %llu TCP frames sent by the peer (%llu retransmitted) = "
			"%llu received by the host's sockets + %llu NIC drops + %llu driver "
			"drops + %llu in flight%s\n", (unsigned long long)ip->tcp_sent,
			(unsigned long long)ip->retransmits, (unsigned long long)ip->tcp_got,
			(unsigned long long)ip->nic_drops, (unsigned long long)ip->drv_drops,
			(unsigned long long)ip->inflight, unaccounted(ip));
	if (ip->nic_drops + ip->drv_drops) {
		/* ethtool -S shows the driver's counters; the device's drop
		 * reasons (its tally) are here */
		fprintf(out, "drops by reason:");
		for (unsigned i = 0; i < r->ndrops; i++)
			if (r->drops[i].n)
				fprintf(out, " %s %llu", r->drops[i].name,
					(unsigned long long)r->drops[i].n);
		fprintf(out, "\n");
	}
	if (ip->up && !ip->udp && ip->reverse)
		fprintf(out, "\naccounting: %llu TCP frames sent by the host (%llu retransmitted) = "
			"%llu received by the peer + %llu dropped in the host (no skb, qdisc "
			"full) + %llu dropped by the driver or the NIC + %llu in the qdisc, the "
			"TX ring or on the wire%s\n",
			(unsigned long long)ip->tcp_sent, (unsigned long long)ip->retransmits,
			(unsigned long long)ip->tcp_got, (unsigned long long)ip->tx_local_drops,
			(unsigned long long)ip->tx_out_drops,
			(unsigned long long)ip->tx_in_flight,
			ip->unaccounted ? " + UNACCOUNTED (a bug, see stderr)" : "");
	if (ip->up && ip->udp)
		fprintf(out, "\naccounting: %llu datagrams sent = %llu read by iperf3 + %llu "
			"receive buffer errors + %llu NIC drops + %llu driver drops + %llu in "
			"flight%s\n", (unsigned long long)ip->sent, (unsigned long long)ip->got,
			(unsigned long long)ip->rcvbuf, (unsigned long long)ip->nic_drops,
			(unsigned long long)ip->drv_drops,
			(unsigned long long)(ip->inflight + ip->queued), unaccounted(ip));
}

void report_iperf3(FILE *out, const struct rpt_run *r)
{
	if (r->ip.up && r->ip.nstreams)
		report_clients(out, &r->ip);
	report_accounting(out, r);
}
