// SPDX-License-Identifier: MIT
/*
 * report_iperf3.c - the iperf3 workload as text: the command line each
 * side ran, per-interval and summary lines, and the accounting of every
 * frame or datagram sent.
 */
#include "report/report.h"

static void fmt_bytes(char *buf, size_t n, double bytes)
{
	if (bytes >= 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.2f GBytes", bytes / (1024.0 * 1024 * 1024));
	else if (bytes >= 1024.0 * 1024)
		snprintf(buf, n, "%.2f MBytes", bytes / (1024.0 * 1024));
	else
		snprintf(buf, n, "%.2f KBytes", bytes / 1024.0);
}

static void fmt_rate(char *buf, size_t n, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, n, "%.2f Gbits/sec", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, n, "%.2f Mbits/sec", bps / 1e6);
	else
		snprintf(buf, n, "%.2f Kbits/sec", bps / 1e3);
}

/* What each side ran. */
static void report_cmdline(FILE *out, const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;

	if (r->usb.present)
		fprintf(out, "USB %u Gbit/s link, xHCI IMOD %u ns, rx-usecs %u, mitigation %s\n",
			r->usb.link_mbps / 1000, r->usb.imod_ns, r->usb.rx_usecs,
			r->usb.mitigation_off ? "off" : "on");
	if (ip->up && ip->udp)
		fprintf(out, "iperf3 -s on the host; peer: iperf3 -c -u -b %llu -l %u -P %u -t %g\n",
			(unsigned long long)ip->bitrate, ip->len, ip->streams, r->head.duration_s);
	else if (ip->up && ip->reverse)
		fprintf(out, "iperf3 -c PEER -C %s -P %u -t %g on the host, sending (MSS 1448, "
			"timestamps, no TSO)\n", ip->cc, ip->streams, r->head.duration_s);
	else if (ip->up)
		fprintf(out, "iperf3 -s on the host; peer: iperf3 -c -C %s -P %u -t %g (MSS 1448, "
			"timestamps)\n", ip->cc, ip->streams, r->head.duration_s);
}

static void report_intervals(FILE *out, const struct rpt_iperf3 *ip)
{
	char b1[64], b2[64];

	fprintf(out, "[ ID] Interval           Transfer     Bitrate\n");
	for (unsigned i = 1; i <= ip->n; i++) {
		double t = (double)(ip->end[i] - ip->end[i - 1]) / 1e9;
		double bytes = (double)(ip->bytes[i] - ip->bytes[i - 1]);

		fmt_bytes(b1, sizeof(b1), bytes);
		fmt_rate(b2, sizeof(b2), t > 0 ? bytes * 8 / t : 0);
		fprintf(out, "[SUM] %6.2f-%-6.2f sec  %12s  %15s\n",
			(double)ip->end[i - 1] / 1e9, (double)ip->end[i] / 1e9, b1, b2);
	}
	fmt_bytes(b1, sizeof(b1), (double)ip->total_bytes);
	fmt_rate(b2, sizeof(b2), (double)ip->total_bytes * 8 / ip->secs);
	fprintf(out, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	fprintf(out, "[SUM] %6.2f-%-6.2f sec  %12s  %15s  %s", 0.0, ip->secs, b1, b2,
		ip->reverse ? "receiver (the peer)" : "receiver");
	if (!ip->udp)
		fprintf(out, "  (%llu retransmits)", (unsigned long long)ip->retransmits);
	fprintf(out, "\n");
}

/* Every frame or datagram sent, where it ended up. */
static void report_accounting(FILE *out, const struct rpt_run *r)
{
	const struct rpt_iperf3 *ip = &r->ip;

	if (ip->up && !ip->udp && !ip->reverse)
		fprintf(out, "\naccounting: %llu TCP frames sent by the peer (%llu retransmitted) = "
			"%llu received by the host's sockets + %llu NIC drops + %llu driver "
			"drops + %llu in flight\n", (unsigned long long)ip->tcp_sent,
			(unsigned long long)ip->retransmits, (unsigned long long)ip->tcp_got,
			(unsigned long long)ip->nic_drops, (unsigned long long)ip->drv_drops,
			(unsigned long long)ip->inflight);
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
			"full) + %llu in the qdisc or on the wire\n",
			(unsigned long long)ip->tcp_sent, (unsigned long long)ip->retransmits,
			(unsigned long long)ip->tcp_got, (unsigned long long)ip->tx_local_drops,
			(unsigned long long)ip->tx_in_flight);
	if (ip->up && ip->udp)
		fprintf(out, "\naccounting: %llu datagrams sent = %llu read by iperf3 + %llu "
			"receive buffer errors + %llu NIC drops + %llu driver drops + %llu in "
			"flight\n", (unsigned long long)ip->sent, (unsigned long long)ip->got,
			(unsigned long long)ip->rcvbuf, (unsigned long long)ip->nic_drops,
			(unsigned long long)ip->drv_drops,
			(unsigned long long)(ip->inflight + ip->queued));
}

void report_iperf3(FILE *out, const struct rpt_run *r)
{
	report_cmdline(out, r);
	if (r->ip.up)
		report_intervals(out, &r->ip);
	report_accounting(out, r);
}
