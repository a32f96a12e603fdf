// SPDX-License-Identifier: MIT
/* load_iperf3.c - the iperf3-like UDP measurement (see load_iperf3.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kern/kern.h"
#include "load/load_iperf3.h"
#include "load/load_addr.h"
#include "net/net_build.h"
#include "sim/sim_rng.h"

#define SEQ_OFF (14 + 20 + 8)            /* payload start: iperf3's sequence */
#define UDP_CSUM_OFF (14 + 20 + 6)

static const uint8_t zero_payload[1472];


/* Build the stream's datagram once (sequence number 0). */
static int build_template(struct iperf3 *ip, struct iperf3_stream *st)
{
	struct net_build b;
	ssize_t n;

	load_build_peer(&b, ip->dut_mac, 17);
	b.sport = st->cport;
	b.dport = st->in->port;
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

	/* a full transmit queue blocks the sender: this turn is skipped and
	 * not counted as sent (iperf3 counts what send() took) */
	if (load_wire_peer_backlog(ip->wire) >= LOAD_WIRE_PEER_QLEN) {
		st->blocked++;
	} else {
		set_seq(st, st->next_seq);
		st->t_sent[st->next_seq % IPERF3_SENT_RING] = sim_now(s);
		load_wire_peer_send(ip->wire, st->tmpl, st->tmpl_len);
		st->next_seq++;
		st->sent++;
	}
	sim_schedule_in(s, ev, st->gap);
}

/* One read() of up to -l bytes from TCP stream @st (sock_read and the
 * copy in tcp_receiver_read, user_byte in usr); false if it was empty. */
static bool tcp_read_once(struct iperf3_stream *st)
{
	struct iperf3 *ip = st->ip;
	uint64_t n = tcp_receiver_read(&st->rcv, ip->cfg.len);

	if (!n)
		return false;
	st->rx_bytes += n;
	ip->app_bytes += n;
	sim_charge_usr_ps(ip->host, ip->host->cost.ps[SIM_COST_user_byte] * n);
	return true;
}

/* A server: read one datagram per system call, round-robin over its
 * streams' sockets, up to 16 per chunk; sleep when all are empty.  TCP:
 * one read of up to -l bytes per socket per call. */
static enum sim_task_ret server_run(struct sim_task *t, void *arg)
{
	struct iperf3_inst *in = arg;
	struct iperf3 *ip = in->ip;
	unsigned reads = 0;

	(void)t;
	if (!ip->cfg.udp) {
		for (unsigned k = 0; k < ip->cfg.streams && reads < 4; k++) {
			if (tcp_read_once(&in->s[(in->rr + k) % ip->cfg.streams]))
				reads++;
		}
		in->rr = (in->rr + 1) % ip->cfg.streams;
		if (!reads) {
			in->waiting = true;
			return SIM_TASK_SLEEP;
		}
		return SIM_TASK_RUNNABLE;
	}
	for (unsigned k = 0; k < ip->cfg.streams && reads < 16; k++) {
		struct iperf3_stream *st = &in->s[(in->rr + k) % ip->cfg.streams];

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
	in->rr = (in->rr + 1) % ip->cfg.streams;
	if (!reads) {
		in->waiting = true;
		return SIM_TASK_SLEEP;
	}
	return SIM_TASK_RUNNABLE;
}

/* TCP, a thread per stream (iperf3 >= 3.16): up to 4 reads of -l bytes
 * from its own socket per chunk; sleeps when the socket is empty. */
static enum sim_task_ret stream_reader_run(struct sim_task *t, void *arg)
{
	struct iperf3_stream *st = arg;
	unsigned reads = 0;

	(void)t;
	while (reads < 4 && tcp_read_once(st))
		reads++;
	if (!reads) {
		st->waiting = true;
		return SIM_TASK_SLEEP;
	}
	return SIM_TASK_RUNNABLE;
}

/* -R: one write() of -l bytes to @st's socket if its send buffer has
 * room (sock_write, copy_user_byte in sys, user_byte in usr); false if
 * it had none. */
static bool stream_write(struct iperf3 *ip, struct iperf3_stream *st)
{
	if (ip->stopped ||
	    st->snd.p.app_bytes - st->snd.una + ip->cfg.len > ip->cfg.sndbuf)
		return false;
	sim_charge(ip->host, SIM_COST_sock_write, 1);
	sim_charge(ip->host, SIM_COST_copy_user_byte, ip->cfg.len);
	sim_charge_usr_ps(ip->host, ip->host->cost.ps[SIM_COST_user_byte] *
			  ip->cfg.len);
	st->written += ip->cfg.len;
	tcp_sender_write(&st->snd, ip->cfg.len);
	return true;
}

/* -R: a host's iperf3 client, one thread for all its streams: a write to
 * each stream whose send buffer has room, up to 4 per chunk; sleeps when
 * every buffer is full. */
static enum sim_task_ret client_run(struct sim_task *t, void *arg)
{
	struct iperf3_inst *in = arg;
	struct iperf3 *ip = in->ip;
	unsigned writes = 0;

	(void)t;
	for (unsigned k = 0; k < ip->cfg.streams && writes < 4; k++)
		writes += stream_write(ip, &in->s[(in->rr + k) % ip->cfg.streams]);
	in->rr = (in->rr + 1) % ip->cfg.streams;
	if (!writes) {
		in->waiting = true;
		return SIM_TASK_SLEEP;
	}
	return SIM_TASK_RUNNABLE;
}

/* -R, a thread per stream: up to 4 writes per chunk to its own socket. */
static enum sim_task_ret stream_writer_run(struct sim_task *t, void *arg)
{
	struct iperf3_stream *st = arg;
	unsigned writes = 0;

	(void)t;
	while (writes < 4 && stream_write(st->ip, st))
		writes++;
	if (!writes) {
		st->waiting = true;
		return SIM_TASK_SLEEP;
	}
	return SIM_TASK_RUNNABLE;
}

/* A socket event for a task asleep on it (@waiting): a sync wakeup, as
 * sock_def_readable() and sk_stream_write_space() make. */
static void sock_wake_sync(bool *waiting, struct sim_task *task)
{
	if (*waiting) {
		*waiting = false;
		kern_charge(SIM_COST_sock_wakeup);
		sim_task_wake_sync(task);
	}
}

/* -R: an ACK freed send-buffer space of stream @arg; wake its writer once
 * half the buffer is free (sk_stream_write_space's min_wspace rule). */
static void write_space(void *arg, uint64_t queued)
{
	struct iperf3_stream *st = arg;
	struct iperf3 *ip = st->ip;

	if (queued > ip->cfg.sndbuf / 2)
		return;
	/* sk_stream_write_space() */
	if (ip->cfg.thread_per_stream)
		sock_wake_sync(&st->waiting, &st->task);
	else
		sock_wake_sync(&st->in->waiting, &st->in->task);
}

/* -R: the peer's application reads whatever arrives at once. */
static void peer_ready(void *arg)
{
	struct iperf3_stream *st = arg;

	tcp_receiver_read(&st->rcv, UINT64_MAX);
}

/* Data for a socket of server @arg. */
static void tcp_ready(void *arg)
{
	struct iperf3_inst *in = arg;

	sock_wake_sync(&in->waiting, &in->task);        /* sock_def_readable() */
}

/* Data for stream @arg, read by a thread of its own. */
static void tcp_ready_stream(void *arg)
{
	struct iperf3_stream *st = arg;

	sock_wake_sync(&st->waiting, &st->task);        /* sock_def_readable() */
}

/* A frame the host's TCP built, as an skb down the stack; false if it
 * could not be sent. */
static bool host_xmit(struct iperf3 *ip, const uint8_t *frame, size_t len)
{
	struct sk_buff *skb = alloc_skb((unsigned)len, GFP_ATOMIC);

	if (!skb)
		return false;
	memcpy(skb_put(skb, (unsigned)len), frame, (size_t)len);
	skb->dev = ip->dev;
	skb->queue_mapping = 0;
	return dev_queue_xmit(skb) == 0;
}

/* The host sends an ACK frame its receiver built. */
static void host_ack_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf3 *ip = arg;

	if (!host_xmit(ip, frame, len))
		ip->ack_tx_fail++;
}

/* -R: the host sends a data segment its sender built. */
static void host_data_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf3_stream *st = arg;
	struct iperf3 *ip = st->ip;
	struct sk_buff *skb = alloc_skb((unsigned)len, GFP_ATOMIC);

	if (!skb) {
		ip->data_tx_fail++;
		return;
	}
	memcpy(skb_put(skb, (unsigned)len), frame, (size_t)len);
	skb->dev = ip->dev;
	skb->queue_mapping = 0;
	tcp_tsq_host_own(&st->tsq, skb);
	if (dev_queue_xmit(skb))
		ip->data_tx_fail++;
}

static void peer_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf3 *ip = arg;

	load_wire_peer_send(ip->wire, frame, len);
}

static ssize_t build_seg(const void *desc, uint8_t *buf, size_t cap)
{
	return tcp_seg_build(desc, buf, cap);
}

static ssize_t build_seg_hdr(const void *desc, uint8_t *buf, size_t cap)
{
	return tcp_seg_build_hdr(desc, buf, cap);
}

/* The peer's senders queue each segment's description on the wire; its
 * bytes are built when it reaches the NIC (same bytes, same timing).  The
 * socket owns the frame until it has left the peer (TSQ). */
static void peer_tx_seg(void *arg, const struct tcp_seg_tx *d, size_t len)
{
	struct iperf3_stream *st = arg;

	if (load_wire_peer_send_desc(st->ip->wire, build_seg, build_seg_hdr, d,
				     sizeof(*d), len, &st->tsq))
		tcp_tsq_peer_queued(&st->tsq, len);
}

/* The peer sends a data segment as bytes (no owner: not held by TSQ). */
static void peer_data_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf3_stream *st = arg;

	load_wire_peer_send(st->ip->wire, frame, len);
}

void iperf3_host_flush(struct iperf3 *ip, struct napi_struct *napi)
{
	stack_gro_napi_flush(&ip->gro, napi);
}

/* The stream of client @in whose port is @cport, or NULL: a client's
 * ports are consecutive, 2 apart. */
static struct iperf3_stream *stream_of_port(struct iperf3_inst *in, uint16_t cport)
{
	unsigned d = (unsigned)(cport - in->s[0].cport);

	if (cport < in->s[0].cport || d % 2 || d / 2 >= in->ip->cfg.streams)
		return NULL;
	return &in->s[d / 2];
}

bool iperf3_peer_rx(struct iperf3 *ip, const uint8_t *f, size_t len)
{
	uint16_t dport;
	unsigned ihl;

	if (ip->cfg.udp || len < 14 + 20 + 20 || f[12] != 0x08 || f[13] != 0 ||
	    f[14 + 9] != 6)
		return false;
	ihl = (f[14] & 15u) * 4;
	if (len < 14 + ihl + 20)
		return false;
	dport = (uint16_t)(f[14 + ihl + 2] << 8 | f[14 + ihl + 3]);
	/* client ports are distinct across instances */
	for (unsigned k = 0; k < ip->cfg.instances; k++) {
		struct iperf3_stream *st = stream_of_port(&ip->inst[k], dport);

		if (!st)
			continue;
		if (ip->cfg.reverse)
			tcp_receiver_rx_frame(&st->rcv, f, len);
		else
			tcp_sender_rx(&st->snd, f, len);
		return true;
	}
	return false;
}

uint64_t iperf3_rx_bytes(const struct iperf3 *ip)
{
	uint64_t n = 0;

	if (ip->cfg.udp)
		return ip->app_bytes;
	/* the receivers: the host's, or with -R the peer's */
	for (unsigned i = 0; i < ip->nstreams; i++)
		n += ip->s[i].rcv.st.bytes_in;
	return n;
}

static uint64_t task_ns(const struct sim_task *t)
{
	uint64_t n = 0;

	for (int k = 0; k < SIM_ACCT_NR; k++)
		if (k != SIM_ACCT_IDLE)
			n += t->ns[k];
	return n;
}

uint64_t iperf3_cpu_ns(const struct iperf3 *ip)
{
	uint64_t n = 0;

	for (unsigned k = 0; k < ip->cfg.instances; k++)
		n += task_ns(&ip->inst[k].task);
	for (unsigned i = 0; i < ip->nstreams; i++)
		if (ip->s[i].task_up)
			n += task_ns(&ip->s[i].task);
	return n;
}

uint64_t iperf3_retransmits(const struct iperf3 *ip)
{
	uint64_t n = 0;

	for (unsigned i = 0; !ip->cfg.udp && i < ip->nstreams; i++)
		n += ip->s[i].snd.st.retransmits;
	return n;
}

/*
 * iperf3's receiver jitter (RFC 1889 A.8, as iperf_udp.c applies it): the
 * transit time of each datagram, its change from the previous one's, and
 * a running mean of that change with gain 1/16; the previous transit
 * starts at 0, as iperf3's does.  Taken when the datagram reaches its
 * socket (iperf3 takes it when its read returns, after the socket queue).
 */
static void udp_jitter(struct iperf3_stream *st, uint32_t seq)
{
	double transit, d;

	if (st->next_seq - seq > IPERF3_SENT_RING || seq >= st->next_seq)
		return;         /* not a send time this ring still holds */
	transit = (double)(sim_now(st->ip->host->sim) - st->t_sent[seq % IPERF3_SENT_RING]) / 1e9;
	d = transit - st->prev_transit_s;
	if (d < 0)
		d = -d;
	st->prev_transit_s = transit;
	st->jitter_s += (d - st->jitter_s) / 16.0;
}

bool iperf3_host_rx(struct iperf3 *ip, struct sk_buff *skb,
		    struct napi_struct *napi)
{
	const uint8_t *p = skb->data;
	unsigned ihl;
	uint16_t sport, dport;
	struct iperf3_stream *st;

	if (!ip->cfg.udp && skb->protocol == htons(ETH_P_IP) && skb->len >= 40 && p[9] == 6) {
		struct stack_gro *g = stack_gro_napi_get(&ip->gro, napi);

		if (!g)
			return false;
		stack_gro_receive(g, skb);      /* demux counts what fits nothing */
		return true;
	}
	if (skb->protocol != htons(ETH_P_IP) || skb->len < 28 || p[9] != 17 || !ip->cfg.udp)
		goto not_ours;
	kern_charge(SIM_COST_ip_rcv);
	ihl = (p[0] & 15u) * 4;
	if (skb->len < ihl + 8)
		goto not_ours;
	sport = (uint16_t)(p[ihl] << 8 | p[ihl + 1]);
	dport = (uint16_t)(p[ihl + 2] << 8 | p[ihl + 3]);
	if (dport < IPERF3_PORT || dport - IPERF3_PORT >= (int)ip->cfg.instances)
		goto not_ours;
	st = stream_of_port(&ip->inst[dport - IPERF3_PORT], sport);
	if (!st)
		goto not_ours;
	kern_charge(SIM_COST_udp_rcv);
	/* the receive buffer is charged the skb's true size, as Linux does */
	if (st->q_truesize + skb->truesize > ip->cfg.rcvbuf) {
		st->rcvbuf_errors++;
	} else {
		if (skb->len >= ihl + 12)
			udp_jitter(st, (uint32_t)p[ihl + 8] << 24 | (uint32_t)p[ihl + 9] << 16 |
				   (uint32_t)p[ihl + 10] << 8 | p[ihl + 11]);
		st->q_bytes += ip->cfg.len;
		st->q_truesize += skb->truesize;
		st->q_dgrams++;
		if (st->in->waiting) {
			st->in->waiting = false;
			kern_charge(SIM_COST_sock_wakeup);
			sim_task_wake(&st->in->task);
		}
	}
	consume_skb(skb);
	return true;
not_ours:
	return false;
}

static uint32_t ip4(const uint8_t a[4])
{
	return (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
}

/* A TCP stream: a sender and a receiver, connected; the peer sends, or
 * with -R the host.  Both ends use the tuple host:5201 <-> peer:cport
 * (the instance's port: 5201 + i). */
static int tcp_stream_init(struct iperf3 *ip, struct iperf3_stream *st,
			   struct sim_rng *rng)
{
	struct tcp_sender_params sp;
	struct tcp_receiver_params rp;
	struct stack_tuple host_t = { ip4(load_host_ip), ip4(load_peer_ip),
				      st->in->port, st->cport };
	struct stack_tuple peer_t = stack_tuple_rev(&host_t);
	bool rev = ip->cfg.reverse;
	const uint8_t *snd_mac = rev ? ip->dut_mac : load_peer_mac;
	const uint8_t *rcv_mac = rev ? load_peer_mac : ip->dut_mac;
	struct sim_host *snd_host = rev ? ip->host : NULL;
	struct sim_host *rcv_host = rev ? NULL : ip->host;

	tcp_sender_params_default(&sp);
	tcp_receiver_params_default(&rp);
	memcpy(sp.ep.smac, snd_mac, 6);
	memcpy(sp.ep.dmac, rcv_mac, 6);
	sp.ep.t = rev ? host_t : peer_t;
	memcpy(rp.ep.smac, rcv_mac, 6);
	memcpy(rp.ep.dmac, snd_mac, 6);
	rp.ep.t = rev ? peer_t : host_t;
	sp.isn = (uint32_t)sim_rng_u64(rng);
	rp.isn = (uint32_t)sim_rng_u64(rng);
	sp.peer_seq = rp.isn;
	rp.peer_isn = sp.isn;
	sp.cc = ip->cfg.cc;
	if (rev) {
		/* the host's application writes what is sent */
		sp.app_bytes = 0;
		/* the drivers offer no TSO: Linux segments GSO packets of up
		 * to gso_max_size (64 KiB, 45 segments) in software */
		sp.gso_max_segs = 65536 / 1448;
	} else {
		/* the host's socket as Linux 6.10 sizes it: tcp_rmem[1]
		 * (128 KiB) autotuned up to tcp_rmem[2] (6 MiB), or a
		 * fixed buffer when iperf3.rcvbuf is set (SO_RCVBUF sets
		 * SOCK_RCVBUF_LOCK, sock_setsockopt, which disables
		 * tcp_rcv_space_adjust's growth) */
		rp.rcvbuf = ip->cfg.rcvbuf;
		rp.rx_truesize = IPERF3_RX_TRUESIZE;
		rp.autotune = !ip->rcvbuf_locked;
	}
	if (tcp_sender_init(&st->snd, ip->host->sim, snd_host, &sp,
			    rev ? host_data_tx : peer_data_tx, st))
		return -EINVAL;
	if (tcp_receiver_init(&st->rcv, ip->host->sim, rcv_host, &rp,
			      rev ? peer_tx : host_ack_tx, ip)) {
		tcp_sender_fini(&st->snd);
		return -EINVAL;
	}
	st->tcp_up = true;
	tcp_tsq_init(&st->tsq, &st->snd, rev ? ip->dev : NULL);
	if (!rev) {
		tcp_sender_set_xmit_seg(&st->snd, peer_tx_seg);
		tcp_sender_set_can_xmit(&st->snd, tcp_tsq_peer_can_xmit, &st->tsq);
	}
	if (rev) {
		tcp_sender_set_write_space(&st->snd, write_space, st);
		tcp_sender_set_can_xmit(&st->snd, tcp_tsq_host_can_xmit, &st->tsq);
		tcp_receiver_set_ready(&st->rcv, peer_ready, st);
		/* the host demuxes the peer's ACKs to its sender */
		return stack_demux_add(&ip->demux, &peer_t, tcp_sender_input,
				       &st->snd);
	}
	if (ip->cfg.thread_per_stream)
		tcp_receiver_set_ready(&st->rcv, tcp_ready_stream, st);
	else
		tcp_receiver_set_ready(&st->rcv, tcp_ready, st->in);
	/* as the host sees the stream's packets: saddr = the peer */
	return stack_demux_add(&ip->demux, &peer_t, tcp_receiver_input, &st->rcv);
}

/* Close the streams' connections and free their buffers (init's failure
 * paths and fini). */
static void streams_close(struct iperf3 *ip)
{
	for (unsigned i = 0; ip->s && i < ip->nstreams; i++) {
		free(ip->s[i].t_sent);
		ip->s[i].t_sent = NULL;
		if (!ip->s[i].tcp_up)
			continue;
		tcp_sender_fini(&ip->s[i].snd);
		tcp_receiver_fini(&ip->s[i].rcv);
		ip->s[i].tcp_up = false;
	}
}

/* Does a stream before @n use any of the ports @base, @base + 2, ...
 * that the @cnt streams of a client starting at @base would take? */
static bool ports_taken(const struct iperf3 *ip, unsigned n, unsigned base, unsigned cnt)
{
	for (unsigned i = 0; i < n; i++)
		if (ip->s[i].cport >= base && ip->s[i].cport < base + 2 * cnt &&
		    (ip->s[i].cport - base) % 2 == 0)
			return true;
	return false;
}

int iperf3_init(struct iperf3 *ip, const struct iperf3_cfg *cfg,
		struct sim_host *host, struct load_wire *wire,
		struct net_device *dev)
{
	struct sim_rng rng;
	struct sim_cpuset all;
	struct sim_task **tasks;
	uint64_t per_stream;
	unsigned ntasks = 0;
	int rc = -EINVAL;

	if (cfg->thread_per_stream && cfg->udp)
		return -EINVAL;
	if (!cfg->streams || cfg->streams > IPERF3_MAX_STREAMS ||
	    !cfg->instances || cfg->instances > IPERF3_MAX_INSTANCES ||
	    (cfg->udp && (!cfg->bitrate || cfg->len < 16 || cfg->len > 1472)) ||
	    (cfg->udp && cfg->reverse))
		return -EINVAL;
	memset(ip, 0, sizeof(*ip));
	ip->cfg = *cfg;
	ip->dev = dev;
	if (!ip->cfg.udp && !ip->cfg.len)
		ip->cfg.len = 128 * 1024;       /* iperf3's TCP read size */
	ip->rcvbuf_locked = ip->cfg.rcvbuf != 0;
	if (!ip->cfg.rcvbuf)
		/* UDP: net.core.rmem_default; TCP: net.ipv4.tcp_rmem[1] */
		ip->cfg.rcvbuf = ip->cfg.udp ? 212992 : 131072;
	if (!ip->cfg.sndbuf)
		ip->cfg.sndbuf = 4u << 20;      /* net.ipv4.tcp_wmem[2] */
	if (ip->cfg.reverse && ip->cfg.len > ip->cfg.sndbuf)
		return -EINVAL;
	ip->nstreams = cfg->instances * cfg->streams;
	ip->s = calloc(ip->nstreams, sizeof(*ip->s));
	if (!ip->s)
		return -ENOMEM;
	stack_demux_init(&ip->demux, host);
	stack_gro_napi_init(&ip->gro, host->sim, host, stack_demux_input,
			    &ip->demux);
	ip->host = host;
	ip->wire = wire;
	ip->dut_mac = dev->dev_addr;
	for (unsigned k = 0; k < cfg->instances; k++) {
		struct iperf3_inst *in = &ip->inst[k];

		in->ip = ip;
		in->port = (uint16_t)(IPERF3_PORT + k);
		in->s = &ip->s[k * cfg->streams];
	}
	/* the peer's TX completions, for its sockets' TSQ (TCP, peer sends) */
	if (!ip->cfg.udp && !ip->cfg.reverse)
		load_wire_set_peer_sent(wire, tcp_tsq_peer_sent);
	sim_rng_init(&rng, cfg->seed, sim_rng_stream_id("iperf3-ports"));
	/* iperf3 applies -b to each stream separately (iperf3(1), -b) */
	per_stream = cfg->bitrate;
	for (unsigned i = 0; i < ip->nstreams; i++) {
		struct iperf3_stream *st = &ip->s[i];
		unsigned k = i % cfg->streams;

		st->ip = ip;
		st->in = &ip->inst[i / cfg->streams];
		st->idx = i;
		/* ephemeral ports from the Linux default range 32768-60999,
		 * consecutive as a client opening streams one after another;
		 * each client starts where Linux's connect() puts it for its
		 * destination port (inet_hash_connect(), net/ipv4/
		 * inet_hashtables.c: an offset hashed from the addresses and
		 * the destination port), drawn here, on ports no other
		 * client holds */
		st->cport = (uint16_t)(32768 + sim_rng_below(&rng, 28000) + 0);
		if (k)
			st->cport = (uint16_t)(ip->s[i - 1].cport + 2);
		while (!k && ports_taken(ip, i, st->cport, cfg->streams))
			st->cport = (uint16_t)(32768 + sim_rng_below(&rng, 28000));
		st->gap = per_stream ? (sim_time_t)((uint64_t)cfg->len * 8 *
						    1000000000ull / per_stream) : 1;
		if (!st->gap)
			st->gap = 1;
		sim_event_init(&st->ev, stream_fn, st);
		if (ip->cfg.udp) {
			st->t_sent = calloc(IPERF3_SENT_RING, sizeof(*st->t_sent));
			if (!st->t_sent || build_template(ip, st)) {
				rc = -ENOMEM;
				goto fail;
			}
		} else if (tcp_stream_init(ip, st, &rng)) {
			goto fail;
		}
	}
	tasks = malloc((ip->nstreams + cfg->instances) * sizeof(*tasks));
	if (!tasks) {
		rc = -ENOMEM;
		goto fail;
	}
	all = cfg->cpus;
	if (!sim_cpuset_weight(&all))
		sim_cpuset_first_n(&all, host->params.ncpus);
	for (unsigned k = 0; k < cfg->instances; k++) {
		struct iperf3_inst *in = &ip->inst[k];

		sim_task_init(host, &in->task, "iperf3",
			      ip->cfg.reverse ? client_run : server_run, in, &all);
		in->waiting = true;
		if (!ip->cfg.thread_per_stream)
			tasks[ntasks++] = &in->task;
	}
	for (unsigned i = 0; ip->cfg.thread_per_stream && i < ip->nstreams; i++) {
		struct iperf3_stream *st = &ip->s[i];

		sim_task_init(host, &st->task, "iperf3",
			      ip->cfg.reverse ? stream_writer_run : stream_reader_run,
			      st, &all);
		st->task_up = true;
		st->waiting = true;
		tasks[ntasks++] = &st->task;
	}
	/* the threads that do the work start where fork balancing would put
	 * them (kern_app_start_cpus) */
	kern_app_start_cpus(tasks, ntasks);
	free(tasks);
	return 0;
fail:
	streams_close(ip);
	stack_demux_fini(&ip->demux);
	sim_purge(host->sim);
	free(ip->s);
	ip->s = NULL;
	return rc;
}

static void tcp_start_fn(struct sim *s, struct sim_event *ev)
{
	struct iperf3_stream *st = ev->arg;
	struct iperf3 *ip = st->ip;

	(void)s;
	if (!ip->cfg.reverse) {
		tcp_sender_start(&st->snd);
	} else if (ip->cfg.thread_per_stream) {
		/* the client connected this stream: its thread starts */
		st->waiting = false;
		sim_task_wake(&st->task);
	} else if (st->in->waiting) {
		/* the client connected this stream: it starts writing */
		st->in->waiting = false;
		sim_task_wake(&st->in->task);
	}
}

void iperf3_start(struct iperf3 *ip)
{
	/* streams start a little apart, as clients connect them in turn */
	for (unsigned i = 0; i < ip->nstreams; i++) {
		if (!ip->cfg.udp)
			sim_event_init(&ip->s[i].ev, tcp_start_fn, &ip->s[i]);
		sim_schedule_in(ip->host->sim, &ip->s[i].ev, (sim_time_t)i * 1000);
	}
}

void iperf3_stop(struct iperf3 *ip)
{
	ip->stopped = true;
	/* the peer's TCP senders stop sending new data */
	for (unsigned i = 0; !ip->cfg.udp && !ip->cfg.reverse && i < ip->nstreams; i++)
		if (ip->s[i].tcp_up)
			tcp_sender_close(&ip->s[i].snd);
	for (unsigned i = 0; i < ip->nstreams; i++)
		sim_cancel(ip->host->sim, &ip->s[i].ev);
}

void iperf3_fini(struct iperf3 *ip)
{
	iperf3_stop(ip);
	streams_close(ip);
	stack_gro_napi_fini(&ip->gro);
	stack_demux_fini(&ip->demux);
	for (unsigned k = 0; k < ip->cfg.instances; k++)
		sim_task_fini(&ip->inst[k].task);
	for (unsigned i = 0; i < ip->nstreams; i++)
		if (ip->s[i].task_up)
			sim_task_fini(&ip->s[i].task);
	/* the streams' cancelled events leave the heap before they are freed */
	sim_purge(ip->host->sim);
}

void iperf3_release(struct iperf3 *ip)
{
	free(ip->s);
	ip->s = NULL;
}

uint64_t iperf3_goodput_limit_bps(const struct iperf3 *ip, uint32_t mbps)
{
	uint64_t frame = 14 + 20 + 8 + ip->cfg.len;

	return (uint64_t)mbps * 1000000ull * ip->cfg.len /
	       ((frame < 60 ? 60 : frame) + LOAD_WIRE_OVERHEAD);
}
