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
 * TCP streams need the TCP model (issue 6) and are refused for now.
 */
#ifndef RXSCALE_LOAD_IPERF3_H
#define RXSCALE_LOAD_IPERF3_H

#include <stdbool.h>
#include <stdint.h>

#include "kern/netdevice.h"
#include "load/load_wire.h"
#include "sim/sim_host.h"

#define IPERF3_MAX_STREAMS 128
#define IPERF3_PORT 5201

struct iperf3_cfg {
	unsigned streams;               /* -P, 1..IPERF3_MAX_STREAMS */
	bool udp;                       /* -u */
	uint64_t bitrate;               /* -b, bit/s of UDP payload, all streams */
	unsigned len;                   /* -l, bytes of payload per datagram */
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
};

/* Set up streams and the server task (allowed on every CPU).  Returns 0
 * or -EINVAL (bad configuration, TCP). */
int iperf3_init(struct iperf3 *ip, const struct iperf3_cfg *cfg,
		struct sim_host *host, struct load_wire *wire,
		struct net_device *dev);

/* The host stack's UDP input for the measurement: true if @skb (past
 * eth_type_trans) belonged to a stream's socket (consumed). */
bool iperf3_host_rx(struct iperf3 *ip, struct sk_buff *skb);

/* Start the peer's streams at the current time. */
void iperf3_start(struct iperf3 *ip);

/* Stop sending (the run's end); pending datagrams still arrive. */
void iperf3_stop(struct iperf3 *ip);

void iperf3_fini(struct iperf3 *ip);

/* Frames on the wire per second a stream needs, for sanity checks. */
uint64_t iperf3_goodput_limit_bps(const struct iperf3 *ip, uint32_t mbps);

#endif /* RXSCALE_LOAD_IPERF3_H */
