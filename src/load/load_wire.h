/* SPDX-License-Identifier: MIT */
/*
 * load_wire.h - the cable between the peer host and the NIC under test: a
 * full-duplex Ethernet link at the line rate, each frame occupying
 * (max(len, 60) + 4 FCS + 20 preamble/SFD/IFG) bytes of wire time, plus a
 * propagation delay.
 *
 * Peer -> NIC: the peer's transmitter serialises frames back to back; a
 * frame is handed to the NIC model (rtlm_eth_rx) when its last bit has
 * arrived.  NIC -> peer: the model already paces its transmitter at the
 * line rate and reports each frame as it starts; the wire delivers it to
 * the peer one wire time plus the propagation delay later.
 */
#ifndef RXSCALE_LOAD_WIRE_H
#define RXSCALE_LOAD_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "model/rtlm.h"
#include <sys/types.h>

#include "sim/sim_clock.h"
#include "sim/sim_event.h"

#define LOAD_WIRE_OVERHEAD 24u  /* FCS 4 + preamble/SFD 8 + IFG 12, bytes */

struct load_wire_q;

typedef void (*load_wire_rx_fn)(void *arg, const uint8_t *frame, size_t len);

/* Build the frame described by @desc into @buf (@cap bytes); returns its
 * length, or <= 0 on failure. */
typedef ssize_t (*load_wire_build_fn)(const void *desc, uint8_t *buf, size_t cap);

/* The DUT's end of the wire: any device model with an Ethernet port
 * (rtlm for the PCIe chips, rtlu for the USB adapters). */
struct load_wire_nic {
	void *dev;
	/* a frame fully received from the wire (rtlm_eth_rx shape) */
	int (*eth_rx)(void *dev, const void *frame, size_t len);
	/* optional: the same frame as its headers and its builder
	 * (rtlm_eth_rx_src shape); NULL: eth_rx with the built frame */
	int (*eth_rx_src)(void *dev, const void *hdr, size_t len,
			  const struct net_frame_src *src);
	/* where the device puts the frames it sends (NULL fn: nowhere) */
	void (*set_wire_tx)(void *dev, load_wire_rx_fn fn, void *arg);
};

/* The port of an rtlm (PCIe) device model. */
struct load_wire_nic load_wire_nic_rtlm(struct rtlm_dev *dev);

struct load_wire_dir {
	struct sim_event ev;
	struct load_wire *w;
	uint8_t *buf;                   /* frames in flight, FIFO */
	uint8_t **big;                  /* per slot: a frame longer than the
					   slot, allocated apart (or NULL) */
	load_wire_build_fn *build;      /* per slot: the frame is given by a
					   description, built at delivery */
	load_wire_build_fn *build_hdr;  /* per slot: its headers only */
	uint8_t *desc;                  /* per slot: LOAD_WIRE_DESC bytes of
					   description, packed (cache-friendly) */
	void **owner;                   /* per slot: the peer socket that
					   sent it (see peer_sent), or NULL */
	size_t *len;
	sim_time_t *due;
	size_t cap, head, n;
	sim_time_t busy_until;          /* transmitter free from (peer side) */
	/* wire-time remainder, in 1/(mbps x (10^9 + the clock's ppb)) ns */
	uint64_t carry;
	uint64_t frames, bytes;
	void (*deliver)(struct load_wire_dir *d, const uint8_t *frame, size_t len);
	/* the NIC takes frames as headers and builder (to_dut), or NULL */
	void (*deliver_src)(struct load_wire_dir *d, const uint8_t *hdr, size_t len,
			    const struct net_frame_src *src);
};

struct load_wire {
	struct sim *sim;
	uint32_t mbps;
	sim_time_t prop_ns;
	struct load_wire_nic dut;
	struct load_wire_dir to_dut, to_peer;
	load_wire_rx_fn peer_rx;
	void *peer_arg;
	/* a frame with an owner has left the peer's transmitter (its skb
	 * is freed at TX completion, which TCP Small Queues waits for) */
	void (*peer_sent)(void *owner, size_t len);
	/* the peer transmitter's clock (sim_clock.h): its bit time */
	struct sim_clock peer_clock;
};

/* Wire time of a frame of @len bytes (no FCS) at @mbps, in ns, rounded
 * down (load_wire_peer_send keeps the remainder, so back-to-back frames
 * never beat the line rate nor fall behind it). */
static inline sim_time_t load_wire_time(size_t len, uint32_t mbps)
{
	uint64_t bytes = (len < 60 ? 60 : len) + LOAD_WIRE_OVERHEAD;

	return (sim_time_t)(bytes * 8000u / mbps);
}

/* The peer's transmitter runs from @clk (the host's clock until set);
 * set it before the first frame. */
void load_wire_set_peer_clock(struct load_wire *w, struct sim_clock clk);

/*
 * Connect @dut to a peer at @mbps with @prop_ns of propagation; frames the
 * NIC sends reach @peer_rx(@peer_arg, frame, len).  Returns 0 or -EINVAL.
 */
int load_wire_init(struct load_wire *w, struct sim *sim,
		   const struct load_wire_nic *dut,
		   uint32_t mbps, sim_time_t prop_ns, load_wire_rx_fn peer_rx,
		   void *peer_arg);
void load_wire_fini(struct load_wire *w);

/*
 * The peer transmits a frame now: it is queued behind the peer's earlier
 * frames and reaches the NIC when fully received.  Returns the time the
 * peer's transmitter becomes free (ns), or 0 on allocation failure.
 */
sim_time_t load_wire_peer_send(struct load_wire *w, const uint8_t *frame,
			       size_t len);

/* Frames the peer has queued that are not yet at the NIC. */
static inline size_t load_wire_peer_backlog(const struct load_wire *w)
{
	return w->to_dut.n;
}

/* The peer's transmit queue (its qdisc's txqueuelen): a paced sender that
 * finds this many frames queued is blocked and skips its turn. */
#define LOAD_WIRE_PEER_QLEN 1000

/* Call @fn(owner, len) when a frame the peer sent with an owner
 * (load_wire_peer_send_desc) has left its transmitter. */
void load_wire_set_peer_sent(struct load_wire *w,
			     void (*fn)(void *owner, size_t len));

/* Largest frame description load_wire_peer_send_desc() takes, bytes. */
#define LOAD_WIRE_DESC 64

/*
 * The peer transmits a frame of @len bytes given by its description
 * (@desc, @desc_len bytes, at most LOAD_WIRE_DESC, copied): the wire takes the
 * same time, and the frame is built with @build only when it reaches the
 * NIC, into a buffer that is hot in the cache.  With @build_hdr (which
 * writes the headers and leaves the payload unwritten) and a NIC that
 * takes frames by their builder (eth_rx_src), only the headers are built
 * at arrival and the NIC builds the whole frame where its DMA puts it.
 * Same timing and bytes as load_wire_peer_send() of the built frame.
 * @owner (or NULL) is handed to the peer_sent callback when the frame has
 * left the transmitter.  Returns as load_wire_peer_send() does.
 */
sim_time_t load_wire_peer_send_desc(struct load_wire *w, load_wire_build_fn build,
				    load_wire_build_fn build_hdr,
				    const void *desc, size_t desc_len, size_t len,
				    void *owner);

#endif /* RXSCALE_LOAD_WIRE_H */
