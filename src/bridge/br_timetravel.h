/* SPDX-License-Identifier: MIT */
/*
 * br_timetravel.h - a User-Mode Linux time-travel controller ("calendar")
 * whose clock is the simulator's virtual time.
 *
 * UML started with time-travel=ext:ID:PATH connects to PATH (a unix stream
 * socket we listen on) and from then on asks us for every step of its
 * clock.  Written from the message layout and op semantics documented in
 * Linux's include/uapi/linux/um_timetravel.h and what arch/um/kernel/
 * time.c does with them:
 *
 *  - a message is {u32 op; u32 seq; u64 time} (16 bytes, host endian) in
 *    either direction; every message gets an ACK carrying the same seq;
 *  - client -> controller: START (time = the ID; the ACK may carry a
 *    shared-memory fd and a log fd, see below), REQUEST (the single next
 *    time it wants to run; a new one replaces the old), WAIT (it stops
 *    until we send RUN), GET (ACK.time = current time), UPDATE (its own
 *    time, e.g. before it kicks a device), GET_TOD (ACK.time = wall clock
 *    at boot, ns), BROADCAST (ignored);
 *  - controller -> client: RUN (time = now; only to a client in WAIT) and
 *    FREE_UNTIL (never sent here: without it the client asks for every
 *    time step, so a device event scheduled by an MMIO access can never be
 *    overtaken by the guest; the header allows a controller not to send
 *    it).
 *
 * Scheduling: exactly one party runs at a time.  The parties are the
 * clients and the simulator (its next pending event).  When nobody runs,
 * the earliest of {the sim's next event, each waiting client's request} is
 * chosen (ties: the simulator first, then clients by ID); a sim step runs
 * the events of exactly that timestamp (sim_run_until), a client is sent
 * RUN(t) after the sim clock was moved to t.  While a client runs the sim
 * clock stands at that client's time: its device accesses (vhost-user,
 * served through ops->io) see sim_now() == the guest's time.  The client
 * runs until it sends WAIT.
 *
 * Start: a new client blocks in START until we ACK it.  START is ACKed
 * only when nobody runs and, if @expect clients are configured, only once
 * that many have sent START; then in ID order, so which guest boots first
 * does not depend on which process connected first.
 *
 * Shared memory: UML reads the START ACK with recvmsg and, when it
 * arrives with a full message, maps the first fd as struct
 * um_timetravel_schedshm and closes both.  We always send two fds of a
 * zero-filled memfd: version 0 is not UM_TIMETRAVEL_SCHEDSHM_VERSION, so
 * the client falls back to messages (and never handles an uninitialised
 * fd number).
 *
 * Interrupts into a guest: a device must not hand a guest an interrupt at
 * a wall-clock moment.  The owner (ops->deliver) is called whenever
 * nobody runs; it sends the deferred interrupts of waiting clients (a
 * vhost-user in-band call with the need-reply bit) and waits for their
 * answer with br_tt_wait_fd(), which meanwhile serves that client's
 * GET/REQUEST (UML's interrupt path asks the time and REQUESTs now before
 * it replies).  Thus the interrupt is in the client's calendar before
 * anyone else runs.
 *
 * Robustness: a client sending garbage (an unknown op, RUN/FREE_UNTIL, a
 * second START, an ACK with a wrong seq, a time in the past) is dropped
 * with the reason in br_tt_error() and the step returns -EPROTO; a
 * client that closes its socket (a guest that powered off, or died) is
 * dropped and counted in @left (an error, -ECONNRESET, only in the middle
 * of a message).  Before @expect clients have sent START nothing runs,
 * not even the simulator.  No call blocks longer than its timeout.
 *
 * Not thread-safe.
 */
#ifndef RXSCALE_BR_TIMETRAVEL_H
#define RXSCALE_BR_TIMETRAVEL_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_event.h"

enum br_tt_op {
	BR_TT_ACK = 0,
	BR_TT_START = 1,
	BR_TT_REQUEST = 2,
	BR_TT_WAIT = 3,
	BR_TT_GET = 4,
	BR_TT_UPDATE = 5,
	BR_TT_RUN = 6,
	BR_TT_FREE_UNTIL = 7,
	BR_TT_GET_TOD = 8,
	BR_TT_BROADCAST = 9,
};

struct br_tt_msg {
	uint32_t op;
	uint32_t seq;
	uint64_t time;
};

#define BR_TT_MAX_CLIENTS 8
#define BR_TT_NO_ID UINT64_MAX        /* time-travel=ext:PATH, no ID */
/* requests at or after this are "never" (UML sleeps with S64_MAX) */
#define BR_TT_NEVER (UINT64_C(1) << 62)

enum br_tt_state {
	BR_TT_NEW,            /* connected, START not yet received */
	BR_TT_STARTING,       /* START received, not yet ACKed */
	BR_TT_RUNNING,
	BR_TT_WAITING,
};

struct br_tt_client {
	int fd;
	uint64_t id;            /* from START */
	enum br_tt_state state;
	bool req_valid;
	uint64_t req;           /* requested run time */
	uint64_t time;          /* the client's time as we know it */
	uint32_t seq;           /* ours, for RUN */
	uint32_t ack_due;       /* seq of a RUN not yet ACKed, 0 = none */
	uint8_t buf[sizeof(struct br_tt_msg)];
	unsigned blen;
	uint64_t n_req, n_wait, n_update, n_get, n_run, n_msgs;
};

struct br_tt;

struct br_tt_ops {
	/* Fds to poll while a client runs (device sockets); returns how many
	 * of @max were filled. */
	unsigned (*fds)(void *opaque, struct pollfd *p, unsigned max);
	/* Serve them (non-blocking).  Negative = fatal, ends the run. */
	int (*io)(void *opaque);
	/* Nobody runs: deliver deferred interrupts to waiting clients.
	 * Negative = fatal. */
	int (*deliver)(void *opaque, struct br_tt *tt);
};

struct br_tt {
	int listen_fd;
	char path[108];
	struct sim *sim;
	struct br_tt_client cl[BR_TT_MAX_CLIENTS];
	unsigned ncl;
	int running;            /* index into cl[], -1 when none */
	unsigned expect;        /* hold START ACKs until this many arrived */
	unsigned started;       /* clients ever started */
	uint64_t tod_base;      /* GET_TOD answers tod_base + now */
	int timeout_ms;         /* bound on a wait for a client (default 30 s) */
	struct br_tt_ops ops;
	void *opaque;
	bool quiet;
	char err[256];
	uint64_t sim_steps, runs, msgs, dropped;
	uint64_t left;           /* clients that closed their socket */
	uint64_t late_requests; /* REQUEST for a time already past: clamped */
	uint64_t update_ahead;  /* UPDATE beyond now (sim moved on) */
};

/* Set up a controller whose clock is @sim.  @ops/@opaque may be NULL. */
void br_tt_init(struct br_tt *tt, struct sim *sim,
		  const struct br_tt_ops *ops, void *opaque);
/* Close every client and the socket (unlinked). */
void br_tt_fini(struct br_tt *tt);

/* Listen on unix socket @path (a stale socket file is replaced).  0 or
 * -errno. */
int br_tt_listen(struct br_tt *tt, const char *path);
/* Add an already connected client socket (ownership passes).  Index, or
 * -ENOSPC. */
int br_tt_attach(struct br_tt *tt, int fd);

/*
 * One unit of work, waiting at most @timeout_ms for input:
 *  - a client runs: serve its messages and the device fds;
 *  - nobody runs: deliver interrupts, then start the earliest party
 *    (a sim timestamp, a START ACK, or RUN to a waiting client).
 * Returns > 0 (work done), 0 (timed out waiting for input), -EDEADLK
 * (clients exist, all wait with no request and the simulator is empty),
 * -EPROTO (a client sent garbage; it was dropped), or another negative
 * errno from ops.  The reason is in br_tt_error().
 */
int br_tt_step(struct br_tt *tt, int timeout_ms);

/*
 * For ops->deliver: wait until @fd is readable (the device's channel to
 * the guest of client @ci) while serving client @ci's messages.  1 when
 * @fd is readable, -ETIMEDOUT after tt->timeout_ms, or a negative errno
 * (the client went away or sent garbage).
 */
int br_tt_wait_fd(struct br_tt *tt, unsigned ci, int fd);

/* Client index with START ID @id, or -1. */
int br_tt_find(const struct br_tt *tt, uint64_t id);

/* Current virtual time (the simulator's). */
uint64_t br_tt_now(const struct br_tt *tt);

const char *br_tt_error(const struct br_tt *tt);

#endif /* RXSCALE_BR_TIMETRAVEL_H */
