/* SPDX-License-Identifier: MIT */
/*
 * load_iperf3.h - an iperf3-like measurement between the peer (client,
 * not CPU-limited) and the host under test (server): -P streams with
 * distinct 5-tuples (ephemeral client ports, server port 5201).
 *
 * UDP (-u -b RATE -l LEN): the peer paces each stream's datagrams at
 * RATE onto the wire (iperf3 applies -b to each stream); on the host, each datagram the
 * driver delivers is demultiplexed to its stream's socket (ip_rcv +
 * udp_rcv charged in the softirq that delivers it; a full receive buffer
 * drops it, counted as iperf3/netstat "receive buffer errors"), and the
 * iperf3 server task, one thread for all streams as iperf3 < 3.16 runs,
 * reads the sockets (sock_read per datagram, copy_user_byte per byte in
 * sys time, user_byte per byte in usr time) and counts what it got.
 *
 * TCP (the default): each stream is a TCP sender on the peer (Reno or
 * CUBIC, src/stack) and a TCP receiver on the host.  The host's receive
 * path is GRO per NAPI instance (flushed when the poll ends), then demux
 * (ip_rcv) and the receiver (tcp_rcv, delayed ACKs, window); ACKs are
 * real frames sent through dev_queue_xmit, the driver's TX ring and the
 * device onto the wire, and clock the peer's senders.  The server task
 * reads each socket up to -l bytes per call (128 KiB by default); with
 * thread_per_stream each stream has a reader thread of its own, woken by
 * its socket alone (iperf3 3.16's iperf_server_worker_run).
 *
 * TCP reverse (-R, or the host running `iperf3 -c PEER` as in seed 002):
 * the host sends.  Each stream is a TCP sender on the host (tcp_xmit per
 * segment, charged where it runs: the writing task or the softirq that
 * processes an ACK) and a receiver on the peer that reads at once.  The
 * host's iperf3 task writes -l bytes per call (sock_write, copy_user_byte
 * in sys, user_byte in usr) while the socket's send buffer has room and
 * sleeps when every stream's is full; an ACK that frees half of it wakes
 * the task (Linux sk_stream_write_space).  Segments go one skb each
 * through dev_queue_xmit (no TSO; CPU costs as Linux's software GSO:
 * tcp_xmit per GSO packet of up to 45 segments, gso_segment per further
 * segment); the peer's ACKs come back through
 * the driver, GRO and demux to the host's senders.  Local queues are kept
 * short as Linux's TCP Small Queues do: a socket sends new data only while
 * its skbs not yet freed by the driver stay under TCP_TSQ_LIMIT and the
 * device queue's qdisc has room; otherwise it waits for the next ACK
 * (no loss, as a local drop in tcp_write_xmit only stops the loop).
 */
#ifndef RXSCALE_LOAD_IPERF3_H
#define RXSCALE_LOAD_IPERF3_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/netdevice.h>

#include "load/load_wire.h"
#include "sim/sim_host.h"
#include "stack/stack_demux.h"
#include "stack/stack_gro_napi.h"
#include "stack/tcp_receiver.h"
#include "stack/tcp_sender.h"
#include "stack/tcp_tsq.h"

#define IPERF3_MAX_STREAMS 128
#define IPERF3_MAX_INSTANCES 8
#define IPERF3_PORT 5201                /* instance i listens on 5201 + i */
/* UDP: send times kept per stream for the receiver's jitter, by sequence
 * number modulo this (more than a stream has on the wire and in the rings) */
#define IPERF3_SENT_RING 4096
/* TCP: the truesize Linux charges the socket for one 1514-byte frame
 * that the driver copied into a napi_alloc_skb() buffer (r8169; r8152's
 * head plus page fragment comes to the same): SKB_TRUESIZE of a 1600-
 * byte data area (1514 + NET_SKB_PAD 64, cache-aligned) = 1600 + 320
 * (skb_shared_info) + 256 (struct sk_buff) on a 64-bit host, Linux 6.10
 * net/core/skbuff.c __napi_alloc_skb(); a payload/truesize ratio of
 * 1448/2176, which tcp_measure_rcv_mss() turns into scaling_ratio 170 */
#define IPERF3_RX_TRUESIZE 2176u

struct iperf3_cfg {
	unsigned streams;               /* -P, 1..IPERF3_MAX_STREAMS, of
					   each instance */
	unsigned instances;             /* iperf3 server/client pairs, 1..
					   IPERF3_MAX_INSTANCES */
	bool udp;                       /* -u */
	enum tcp_cc_algo cc;            /* -C reno|cubic (TCP) */
	uint64_t bitrate;               /* -b, bit/s of UDP payload per stream,
					   as iperf3 applies it */
	unsigned len;                   /* -l: UDP payload bytes per datagram;
					   TCP bytes per read (0 = 128 KiB) */
	uint32_t rcvbuf;                /* socket receive buffer, bytes (0:
					   Linux's default; TCP: tcp_rmem[1],
					   autotuned); else a fixed
					   SO_RCVBUF's sk_rcvbuf */
	bool reverse;                   /* -R: the host sends (TCP only) */
	uint32_t sndbuf;                /* reverse: send buffer, bytes
					   (0 = 4 MiB, tcp_wmem[2]) */
	bool thread_per_stream;         /* TCP: one thread per stream reads
					   (-R: writes) its socket, as iperf3
					   >= 3.16 runs; else one thread for
					   all (iperf3 < 3.16) */
	uint64_t seed;                  /* client port choice */
	/* the host's iperf3 process may run on these CPUs only (taskset -c);
	 * empty: all */
	struct sim_cpuset cpus;
};

struct iperf3_stream {
	struct sim_event ev;            /* the peer's next datagram */
	struct iperf3 *ip;
	struct iperf3_inst *in;         /* its server/client pair */
	unsigned idx;                   /* in ip->s: instance-major */
	uint16_t cport;                 /* client (peer) port */
	sim_time_t gap;                 /* ns between datagrams */
	uint32_t next_seq;
	uint8_t tmpl[1536];             /* the stream's datagram, seq 0 */
	size_t tmpl_len;
	/* host socket */
	uint64_t q_bytes;               /* payload queued for the reader */
	uint64_t q_truesize;            /* what it costs the receive buffer */
	uint32_t q_dgrams;
	uint64_t rx_dgrams, rx_bytes;   /* read by the server */
	struct tcp_sender snd;          /* TCP: on the peer (-R: the host) */
	struct tcp_receiver rcv;        /* TCP: on the host (-R: the peer) */
	uint64_t written;               /* -R: bytes the host task wrote */
	struct tcp_tsq tsq;             /* TCP Small Queues of the sending
					   socket (-R: the host's, else the
					   peer's) */
	struct sim_task task;           /* thread_per_stream: its reader
					   (-R: writer) */
	bool task_up, waiting;
	bool tcp_up;
	uint64_t rcvbuf_errors;
	uint64_t sent;                  /* datagrams the peer sent */
	sim_time_t *t_sent;             /* UDP: send time by seq % IPERF3_SENT_RING */
	double jitter_s;                /* UDP: iperf3's receiver jitter, s */
	double prev_transit_s;
	uint64_t blocked;               /* turns skipped: the peer's transmit
					   queue was full (over the line rate) */
};

/* One server/client pair: the host's iperf3 process of it (the server,
 * or with -R the client) and its streams. */
struct iperf3_inst {
	struct iperf3 *ip;
	uint16_t port;                  /* the server's: IPERF3_PORT + index */
	struct iperf3_stream *s;        /* its cfg.streams streams in ip->s */
	struct sim_task task;           /* its host process */
	bool waiting;                   /* asleep on its sockets */
	unsigned rr;                    /* next stream it reads or writes */
};

struct iperf3 {
	struct iperf3_cfg cfg;
	struct sim_host *host;
	struct load_wire *wire;
	const uint8_t *dut_mac;
	struct iperf3_inst inst[IPERF3_MAX_INSTANCES];  /* [cfg.instances] */
	bool stopped;                   /* -R: iperf3_stop() was called */
	bool rcvbuf_locked;             /* cfg.rcvbuf given: SO_RCVBUF */
	struct iperf3_stream *s;        /* [nstreams], instance by instance */
	unsigned nstreams;              /* cfg.instances * cfg.streams */
	uint64_t app_bytes;             /* payload read by the servers, total */
	/* TCP host stack, shared by every instance: GRO state per NAPI
	 * instance, then demux */
	struct net_device *dev;
	struct stack_demux demux;
	struct stack_gro_napi gro;
	uint64_t ack_tx_fail;           /* ACK skbs that could not be sent */
	uint64_t data_tx_fail;          /* -R: data skbs not sent (the
					   sender's RTO recovers them) */
};

/* Payload bytes received in order: TCP the receivers' in-order
 * deliveries (the host's, or with -R the peer's; the line bounds it; app
 * reads come in 128 KiB bursts), UDP what the server read. */
uint64_t iperf3_rx_bytes(const struct iperf3 *ip);

/* CPU time of the host's iperf3 processes, all their threads, ns (what
 * top's %CPU of the processes is made of). */
uint64_t iperf3_cpu_ns(const struct iperf3 *ip);

/* TCP: segments retransmitted by all senders (-R: the host's). */
uint64_t iperf3_retransmits(const struct iperf3 *ip);

/* Set up streams and the host's iperf3 tasks (on cfg.cpus, else every
 * CPU).  Returns 0, -ENOMEM, or -EINVAL (bad configuration, e.g. -R with
 * UDP, instances outside 1..IPERF3_MAX_INSTANCES). */
int iperf3_init(struct iperf3 *ip, const struct iperf3_cfg *cfg,
		struct sim_host *host, struct load_wire *wire,
		struct net_device *dev);

/* The host stack's UDP input for the measurement: true if @skb (past
 * eth_type_trans) belonged to a stream's socket (consumed). */
bool iperf3_host_rx(struct iperf3 *ip, struct sk_buff *skb,
		    struct napi_struct *napi);

/* The end of a NAPI poll: flush that instance's GRO (dev->rx_flush). */
void iperf3_host_flush(struct iperf3 *ip, struct napi_struct *napi);

/* The peer got @frame: an ACK for one of the peer's TCP senders, or with
 * -R a data segment for one of its receivers?  True if so. */
bool iperf3_peer_rx(struct iperf3 *ip, const uint8_t *frame, size_t len);

/* Start the peer's streams at the current time. */
void iperf3_start(struct iperf3 *ip);

/* Stop sending new data (the run's end): UDP streams, the peer's TCP
 * senders (what is outstanding is still delivered or recovered) and the
 * host's writers; pending frames still arrive. */
void iperf3_stop(struct iperf3 *ip);

void iperf3_fini(struct iperf3 *ip);

/* Free the streams after iperf3_fini, once the device is closed.  With -R
 * the host's data skbs point at their stream's TSQ (skb->sk) and their
 * destructor updates it when the driver or the qdisc frees them, so a stream outlives
 * its close while the TX ring or the qdisc holds its skbs, as Linux keeps a
 * socket until sock_wfree() drops the last byte of sk_wmem_alloc
 * (net/core/sock.c). */
void iperf3_release(struct iperf3 *ip);

/* Frames on the wire per second a stream needs, for sanity checks. */
uint64_t iperf3_goodput_limit_bps(const struct iperf3 *ip, uint32_t mbps);

#endif /* RXSCALE_LOAD_IPERF3_H */
