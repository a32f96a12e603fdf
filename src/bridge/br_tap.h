/* SPDX-License-Identifier: MIT */
/*
 * br_tap.h - a wire to real traffic: a model's Ethernet port on a Linux TAP
 * device, in real time (br_rt).
 *
 * Frames the host's stack sends out of the TAP interface (from the real
 * iperf3, ping, ... of the network namespace the TAP lives in) are read by
 * a thread of the wire's own and handed, under the device lock, to @rx (the
 * model's MAC); frames the model transmits are written to the TAP, so the
 * host's stack receives them.  The TAP is opened with IFF_TAP | IFF_NO_PI:
 * whole Ethernet frames without FCS, one per read/write.
 *
 * A frame the host's TAP queue cannot take now (the write would block) is
 * dropped and counted in tx_dropped, as a full transmit FIFO on a real link
 * would lose it; a read error ends the reader and is kept in last_error.
 */
#ifndef RXSCALE_BR_TAP_H
#define RXSCALE_BR_TAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bridge/br_rt.h"

#define BR_TAP_FRAME_MAX 9216           /* jumbo frames fit */

/* A frame read from the TAP, under the device lock: 0 taken, or -EAGAIN
 * when the wire cannot take it yet (its transmitter queue is full): the
 * reader keeps the frame and offers it again a little later, so the host's
 * own queue on the TAP fills and pushes back, as a slow link does. */
typedef int (*br_tap_rx_fn)(void *opaque, const uint8_t *frame, size_t len);

struct br_tap {
	int fd;
	int stop_fd[2];                 /* pipe: wakes the reader to stop */
	char name[16];
	struct br_rt *rt;
	br_tap_rx_fn rx;
	void *opaque;
	pthread_t thread;
	bool started;
	/* under the device lock */
	uint64_t rx_frames, rx_bytes;   /* host -> model */
	uint64_t tx_frames, tx_bytes;   /* model -> host */
	uint64_t tx_dropped;            /* the TAP queue was full */
	uint64_t rx_runts;              /* shorter than an Ethernet header */
	uint64_t rx_waits;              /* -EAGAIN: the wire was full */
	char last_error[128];
};

/* Attach to TAP interface @ifname (created if absent; a persistent one made
 * by `ip tuntap add mode tap` is reused).  0 or -errno (nothing opened). */
int br_tap_open(struct br_tap *t, const char *ifname, struct br_rt *rt,
		br_tap_rx_fn rx, void *opaque);

/* Start the reader thread.  0 or -errno. */
int br_tap_start(struct br_tap *t);

/* Stop the reader and close the TAP. */
void br_tap_close(struct br_tap *t);

/* Send @frame to the host; called under the device lock (the model's wire
 * transmit hook). */
void br_tap_tx(struct br_tap *t, const void *frame, size_t len);

#endif /* RXSCALE_BR_TAP_H */
