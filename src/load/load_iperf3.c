// SPDX-License-Identifier: MIT
/* load_iperf3.c - the iperf3-like UDP measurement (see load_iperf3.h). */
#include <errno.h>
#include <string.h>

#include "kern/kern.h"
#include "load/load_iperf3.h"
#include "net/net_build.h"
#include "sim/sim_rng.h"

#define SEQ_OFF (14 + 20 + 8)            /* payload start: iperf3's sequence */
#define UDP_CSUM_OFF (14 + 20 + 6)

static const uint8_t zero_payload[1472];

/* peer and host addresses of the measurement */
static const uint8_t peer_ip[4] = { 192, 168, 2, 2 };
static const uint8_t host_ip[4] = { 192, 168, 2, 1 };
static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

/* Build the stream's datagram once (sequence number 0). */
static int build_template(struct iperf3 *ip, struct iperf3_stream *st)
{
	struct net_build b;
	ssize_t n;

	net_build_init(&b);
	memcpy(b.dmac, ip->dut_mac, 6);
	memcpy(b.smac, peer_mac, 6);
	b.ipv = 4;
	memcpy(b.src, peer_ip, 4);
	memcpy(b.dst, host_ip, 4);
	b.proto = 17;
	b.sport = st->cport;
	b.dport = IPERF3_PORT;
	b.payload_len = (uint16_t)ip->cfg.len;
	/* a zero payload: the sequence field starts at 0 and the checksum
	 * net_build computed stays right for it */
	b.payload = zero_payload;
	n = net_build_frame(&b, st->tmpl, sizeof(st->tmpl));
	if (n < 0)
		return -EINVAL;
	st->tmpl_len = (size_t)n;
	return 0;
}

/* Write sequence number @seq (big-endian, as iperf3 does) into the
 * template and fix the UDP checksum incrementally (RFC 1624: HC' =
 * ~(~HC + ~m + m') over the changed 16-bit words). */
static void set_seq(struct iperf3_stream *st, uint32_t seq)
{
	uint8_t *f = st->tmpl;
	uint32_t sum = (uint16_t)~(f[UDP_CSUM_OFF] << 8 | f[UDP_CSUM_OFF + 1]);
	uint16_t c;

	for (int w = 0; w < 2; w++) {
		uint16_t old = (uint16_t)(f[SEQ_OFF + 2 * w] << 8 | f[SEQ_OFF + 2 * w + 1]);
		uint16_t nw = (uint16_t)(seq >> (16 - 16 * w));

		sum += (uint16_t)~old;
		sum += nw;
		f[SEQ_OFF + 2 * w] = (uint8_t)(nw >> 8);
		f[SEQ_OFF + 2 * w + 1] = (uint8_t)nw;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	if (!c)
		c = 0xffff;     /* UDP sends a computed 0 as all ones */
	f[UDP_CSUM_OFF] = (uint8_t)(c >> 8);
	f[UDP_CSUM_OFF + 1] = (uint8_t)c;
}

static void stream_fn(struct sim *s, struct sim_event *ev)
{
	struct iperf3_stream *st = ev->arg;
	struct iperf3 *ip = st->ip;

	set_seq(st, st->next_seq);
	load_wire_peer_send(ip->wire, st->tmpl, st->tmpl_len);
	st->next_seq++;
	st->sent++;
	sim_schedule_in(s, ev, st->gap);
}

/* The server: read one datagram per system call, round-robin over the
 * streams' sockets, up to 16 per chunk; sleep when all are empty. */
static enum sim_task_ret server_run(struct sim_task *t, void *arg)
{
	struct iperf3 *ip = arg;
	unsigned reads = 0;

	(void)t;
	for (unsigned k = 0; k < ip->cfg.streams && reads < 16; k++) {
		struct iperf3_stream *st = &ip->s[(ip->rr + k) % ip->cfg.streams];

		while (st->q_dgrams && reads < 16) {
			uint64_t len = st->q_bytes / st->q_dgrams;

			st->q_truesize -= st->q_truesize / st->q_dgrams;
			st->q_dgrams--;
			st->q_bytes -= len;
			st->rx_dgrams++;
			st->rx_bytes += len;
			ip->app_bytes += len;
			sim_charge(ip->host, SIM_COST_sock_read, 1);
			sim_charge(ip->host, SIM_COST_copy_user_byte, len);
			sim_charge_usr_ps(ip->host, ip->host->cost.ps[SIM_COST_user_byte] * len);
			reads++;
		}
	}
	ip->rr = (ip->rr + 1) % ip->cfg.streams;
	if (!reads) {
		ip->server_waiting = true;
		return SIM_TASK_SLEEP;
	}
	return SIM_TASK_RUNNABLE;
}

bool iperf3_host_rx(struct iperf3 *ip, struct sk_buff *skb)
{
	const uint8_t *p = skb->data;
	unsigned ihl;
	uint16_t sport, dport;
	struct iperf3_stream *st = NULL;

	if (skb->protocol != ETH_P_IP || skb->len < 28 || p[9] != 17)
		goto not_ours;
	ihl = (p[0] & 15u) * 4;
	if (skb->len < ihl + 8)
		goto not_ours;
	sport = (uint16_t)(p[ihl] << 8 | p[ihl + 1]);
	dport = (uint16_t)(p[ihl + 2] << 8 | p[ihl + 3]);
	if (dport != IPERF3_PORT)
		goto not_ours;
	for (unsigned i = 0; i < ip->cfg.streams; i++)
		if (ip->s[i].cport == sport)
			st = &ip->s[i];
	if (!st)
		goto not_ours;
	kern_charge(SIM_COST_udp_rcv);
	/* the receive buffer is charged the skb's true size, as Linux does */
	if (st->q_truesize + skb->truesize > ip->cfg.rcvbuf) {
		st->rcvbuf_errors++;
	} else {
		st->q_bytes += ip->cfg.len;
		st->q_truesize += skb->truesize;
		st->q_dgrams++;
		if (ip->server_waiting) {
			ip->server_waiting = false;
			kern_charge(SIM_COST_sock_wakeup);
			sim_task_wake(&ip->server);
		}
	}
	consume_skb(skb);
	return true;
not_ours:
	return false;
}

int iperf3_init(struct iperf3 *ip, const struct iperf3_cfg *cfg,
		struct sim_host *host, struct load_wire *wire,
		struct net_device *dev)
{
	struct sim_rng rng;
	struct sim_cpuset all;
	uint64_t per_stream;

	if (!cfg->udp || !cfg->streams || cfg->streams > IPERF3_MAX_STREAMS ||
	    !cfg->bitrate || cfg->len < 16 || cfg->len > 1472)
		return -EINVAL;
	memset(ip, 0, sizeof(*ip));
	ip->cfg = *cfg;
	if (!ip->cfg.rcvbuf)
		ip->cfg.rcvbuf = 212992;        /* net.core.rmem_default */
	ip->host = host;
	ip->wire = wire;
	ip->dut_mac = dev->dev_addr;
	sim_rng_init(&rng, cfg->seed, sim_rng_stream_id("iperf3-ports"));
	per_stream = cfg->bitrate / cfg->streams;
	for (unsigned i = 0; i < cfg->streams; i++) {
		struct iperf3_stream *st = &ip->s[i];

		st->ip = ip;
		st->idx = i;
		/* ephemeral ports from the Linux default range 32768-60999,
		 * consecutive as a client opening streams one after another */
		st->cport = (uint16_t)(32768 + sim_rng_below(&rng, 28000) + 0);
		if (i)
			st->cport = (uint16_t)(ip->s[i - 1].cport + 2);
		st->gap = per_stream ? (sim_time_t)((uint64_t)cfg->len * 8 *
						    1000000000ull / per_stream) : 1;
		if (!st->gap)
			st->gap = 1;
		sim_event_init(&st->ev, stream_fn, st);
		if (build_template(ip, st))
			return -EINVAL;
	}
	sim_cpuset_first_n(&all, host->params.ncpus);
	sim_task_init(host, &ip->server, "iperf3", server_run, ip, &all);
	ip->server_waiting = true;
	return 0;
}

void iperf3_start(struct iperf3 *ip)
{
	/* streams start a little apart, as a client connects them in turn */
	for (unsigned i = 0; i < ip->cfg.streams; i++)
		sim_schedule_in(ip->host->sim, &ip->s[i].ev, (sim_time_t)i * 1000);
}

void iperf3_stop(struct iperf3 *ip)
{
	for (unsigned i = 0; i < ip->cfg.streams; i++)
		sim_cancel(ip->host->sim, &ip->s[i].ev);
}

void iperf3_fini(struct iperf3 *ip)
{
	iperf3_stop(ip);
	sim_task_fini(&ip->server);
	sim_purge(ip->host->sim);
}

uint64_t iperf3_goodput_limit_bps(const struct iperf3 *ip, uint32_t mbps)
{
	uint64_t frame = 14 + 20 + 8 + ip->cfg.len;

	return (uint64_t)mbps * 1000000ull * ip->cfg.len /
	       ((frame < 60 ? 60 : frame) + LOAD_WIRE_OVERHEAD);
}
