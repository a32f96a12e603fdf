/* SPDX-License-Identifier: MIT */
/*
 * load_iperf3.h - an iperf3-like measurement between the peer (client,
 * not CPU-limited) and the host under test (server): -P streams with
 * distinct 5-tuples (ephemeral client ports, server port 5201).
 *
 * So far: UDP (-u -b RATE -l LEN).  The peer paces each stream's
 * datagrams at RATE/streams onto the wire; on the host, each datagram the
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
 * reads each socket up to -l bytes per call (128 KiB by default).
 */
#ifndef RXSCALE_LOAD_IPERF3_H
#define RXSCALE_LOAD_IPERF3_H

#include <stdbool.h>
#include <stdint.h>

#include "kern/netdevice.h"
#include "load/load_wire.h"
#include "sim/sim_host.h"
#include "stack/stack_demux.h"
#include "stack/stack_gro.h"
#include "stack/tcp_receiver.h"
#include "stack/tcp_sender.h"

#define IPERF3_MAX_STREAMS 128
#define IPERF3_PORT 5201

struct iperf3_cfg {
	unsigned streams;               /* -P, 1..IPERF3_MAX_STREAMS */
	bool udp;                       /* -u */
	enum tcp_cc_algo cc;            /* -C reno|cubic (TCP) */
	uint64_t bitrate;               /* -b, bit/s of UDP payload, all streams */
	unsigned len;                   /* -l: UDP payload bytes per datagram;
					   TCP bytes per read (0 = 128 KiB) */
	uint32_t rcvbuf;                /* socket receive buffer, bytes */
	uint64_t seed;                  /* client port choice */
};

struct iperf3_stream {
	struct sim_event ev;            /* the peer's next datagram */
	struct iperf3 *ip;
	unsigned idx;
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
	struct tcp_sender snd;          /* TCP: on the peer */
	struct tcp_receiver rcv;        /* TCP: on the host */
	bool tcp_up;
	uint64_t rcvbuf_errors;
	uint64_t sent;                  /* datagrams the peer sent */
};

struct iperf3 {
	struct iperf3_cfg cfg;
	struct sim_host *host;
	struct load_wire *wire;
	const uint8_t *dut_mac;
	struct sim_task server;         /* the iperf3 -s process */
	bool server_waiting;
	struct iperf3_stream s[IPERF3_MAX_STREAMS];
	uint64_t app_bytes;             /* payload read by the server, total */
	unsigned rr;                    /* next stream the server reads */
	/* TCP host stack: GRO state per NAPI instance, then demux */
	struct net_device *dev;
	struct stack_demux demux;
	struct {
		struct napi_struct *napi;
		struct stack_gro gro;
	} gro[64];
	unsigned ngro;
	uint64_t ack_tx_fail;           /* ACK skbs that could not be sent */
};

/* Payload bytes the host has received in order: TCP the receivers'
 * in-order deliveries (the line bounds it; app reads come in 128 KiB
 * bursts), UDP what the server read. */
uint64_t iperf3_rx_bytes(const struct iperf3 *ip);

/* TCP: segments retransmitted by all senders. */
uint64_t iperf3_retransmits(const struct iperf3 *ip);

/* Set up streams and the server task (allowed on every CPU).  Returns 0
 * or -EINVAL (bad configuration). */
int iperf3_init(struct iperf3 *ip, const struct iperf3_cfg *cfg,
		struct sim_host *host, struct load_wire *wire,
		struct net_device *dev);

/* The host stack's UDP input for the measurement: true if @skb (past
 * eth_type_trans) belonged to a stream's socket (consumed). */
bool iperf3_host_rx(struct iperf3 *ip, struct sk_buff *skb,
		    struct napi_struct *napi);

/* The end of a NAPI poll: flush that instance's GRO (dev->rx_flush). */
void iperf3_host_flush(struct iperf3 *ip, struct napi_struct *napi);

/* The peer got @frame: an ACK for one of the TCP senders?  True if so. */
bool iperf3_peer_rx(struct iperf3 *ip, const uint8_t *frame, size_t len);

/* Start the peer's streams at the current time. */
void iperf3_start(struct iperf3 *ip);

/* Stop sending (the run's end); pending datagrams still arrive. */
void iperf3_stop(struct iperf3 *ip);

void iperf3_fini(struct iperf3 *ip);

/* Frames on the wire per second a stream needs, for sanity checks. */
uint64_t iperf3_goodput_limit_bps(const struct iperf3 *ip, uint32_t mbps);

#endif /* RXSCALE_LOAD_IPERF3_H */
