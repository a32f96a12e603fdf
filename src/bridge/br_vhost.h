/* SPDX-License-Identifier: MIT */
/*
 * br_vhost.h - a vhost-user back-end (the device side) over a unix socket,
 * with split virtqueues in the front-end's shared memory.
 *
 * Written from the vhost-user specification (QEMU docs/interop/vhost-user.rst)
 * and the virtio 1.x split-virtqueue layout, for the front-end that User-Mode
 * Linux's virtio_uml driver is.  What it speaks:
 *
 *  - messages: a 12-byte header (request, flags = version 1 | reply bit |
 *    need-reply bit, payload size) and a payload of at most
 *    BR_VHOST_MAX_PAYLOAD bytes; file descriptors ride along with
 *    SCM_RIGHTS;
 *  - front-end requests GET/SET_FEATURES, SET_OWNER, RESET_OWNER,
 *    GET/SET_PROTOCOL_FEATURES, GET_QUEUE_NUM, SET_MEM_TABLE (each region's
 *    fd is mmap'ed at its offset), SET_VRING_NUM/ADDR/BASE/KICK/CALL/ERR/
 *    ENABLE, GET_VRING_BASE, SET_SLAVE_REQ_FD, GET/SET_CONFIG (a zero config
 *    space: virt-pci reads none) and the in-band VRING_KICK;
 *  - protocol features REPLY_ACK (every request with the need-reply bit gets
 *    a u64 status), SLAVE_REQ and INBAND_NOTIFICATIONS (the back-end's
 *    "used buffers" notification is a SLAVE_VRING_CALL message on the
 *    back-end request channel; UML gives a pipe for that channel, so the
 *    back-end never asks for a reply on it);
 *  - virtio features VERSION_1, INDIRECT_DESC and RING_EVENT_IDX (when
 *    offered).  With the event index the back-end publishes avail_event
 *    (the next avail entry it will look at, after the used ring) so the
 *    front-end kicks for every new buffer, calls only when the front-end's
 *    used_event (after the avail ring) asks for it, and learns from
 *    used_event how far the front-end has taken used buffers
 *    (br_vhost_unconsumed); without it, calls are suppressed through the
 *    avail ring's NO_INTERRUPT flag.
 *
 * Robustness: the front-end (a guest kernel) is not trusted.  A malformed
 * message (bad version or flags, oversize or wrong-size payload, wrong fd
 * count, unknown request), a ring or buffer address outside the memory
 * table, a descriptor loop, an out-of-range index or a stalled partial
 * message (every read past the first byte of a message waits at most
 * io_timeout_ms) puts the back-end into an error state (-ECONNABORTED when
 * the front-end closed the socket in the middle of a message, -ECONNRESET
 * when it closed it between messages): the reason is kept
 * in br_vhost_error(), the connection is closed at the next poll, and
 * the poll returns the negative errno.  Nothing here blocks except
 * br_vhost_run() (bounded by its timeout) and the bounded waits above.
 *
 * Not thread-safe: one thread drives a struct br_vhost.
 */
#ifndef RXSCALE_BR_VHOST_H
#define RXSCALE_BR_VHOST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BR_VHOST_MAX_QUEUES 8
#define BR_VHOST_MAX_REGIONS 8        /* VHOST_MEMORY_BASELINE_NREGIONS */
#define BR_VHOST_MAX_PAYLOAD 512      /* bytes after the header */
#define BR_VHOST_MAX_SEGS 64          /* buffers per direction per chain */
#define BR_VHOST_MAX_QSIZE 32768

/* virtio feature bits (device features, GET_FEATURES) */
#define BR_VHOST_F_INDIRECT_DESC 28
#define BR_VHOST_F_EVENT_IDX 29
#define BR_VHOST_F_PROTOCOL_FEATURES 30
#define BR_VHOST_F_VERSION_1 32

/* vhost-user protocol feature bits (GET_PROTOCOL_FEATURES) */
#define BR_VHOST_PF_MQ 0
#define BR_VHOST_PF_REPLY_ACK 3
#define BR_VHOST_PF_SLAVE_REQ 5
#define BR_VHOST_PF_CONFIG 9
#define BR_VHOST_PF_INBAND_NOTIFICATIONS 14

/* request codes (front-end to back-end) */
enum br_vhost_req {
	BR_VHOST_GET_FEATURES = 1,
	BR_VHOST_SET_FEATURES = 2,
	BR_VHOST_SET_OWNER = 3,
	BR_VHOST_RESET_OWNER = 4,
	BR_VHOST_SET_MEM_TABLE = 5,
	BR_VHOST_SET_VRING_NUM = 8,
	BR_VHOST_SET_VRING_ADDR = 9,
	BR_VHOST_SET_VRING_BASE = 10,
	BR_VHOST_GET_VRING_BASE = 11,
	BR_VHOST_SET_VRING_KICK = 12,
	BR_VHOST_SET_VRING_CALL = 13,
	BR_VHOST_SET_VRING_ERR = 14,
	BR_VHOST_GET_PROTOCOL_FEATURES = 15,
	BR_VHOST_SET_PROTOCOL_FEATURES = 16,
	BR_VHOST_GET_QUEUE_NUM = 17,
	BR_VHOST_SET_VRING_ENABLE = 18,
	BR_VHOST_SET_SLAVE_REQ_FD = 21,
	BR_VHOST_GET_CONFIG = 24,
	BR_VHOST_SET_CONFIG = 25,
	BR_VHOST_VRING_KICK = 35,
};

/* back-end to front-end requests (on the SET_SLAVE_REQ_FD channel) */
#define BR_VHOST_SLAVE_VRING_CALL 4

/* header flags */
#define BR_VHOST_VERSION 1u
#define BR_VHOST_VERSION_MASK 3u
#define BR_VHOST_FLAG_REPLY (1u << 2)
#define BR_VHOST_FLAG_NEED_REPLY (1u << 3)

/* SET_VRING_KICK/CALL/ERR payload: index in bits 0-7, bit 8 = no fd */
#define BR_VHOST_VRING_INDEX_MASK 0xffu
#define BR_VHOST_VRING_NOFD (1u << 8)

/* split-ring descriptor flags */
#define BR_VRING_DESC_F_NEXT 1
#define BR_VRING_DESC_F_WRITE 2
#define BR_VRING_DESC_F_INDIRECT 4
#define BR_VRING_AVAIL_F_NO_INTERRUPT 1

struct br_vhost_hdr {
	uint32_t request;
	uint32_t flags;
	uint32_t size;
};

struct br_vhost_region {
	uint64_t gpa;                   /* guest physical address */
	uint64_t size;
	uint64_t uaddr;                 /* front-end's user address */
	uint64_t mmap_offset;
	void *map;                      /* what mmap returned */
	size_t map_len;
	uint8_t *base;                  /* host address of gpa */
};

struct br_vhost_vq {
	uint32_t num;                   /* ring size, 0 = not set */
	uint16_t last_avail;            /* next avail entry to take */
	uint16_t used_idx;              /* next used entry to fill */
	uint64_t desc_ua, avail_ua, used_ua; /* front-end user addresses */
	bool addr_set;
	bool enabled;
	int kick_fd, call_fd, err_fd;
	bool notify_pending;            /* run the handler at the next poll */
	uint16_t signalled_used;        /* used_idx at the last call sent */
	bool signalled_valid;
	uint64_t kicks, calls, chains;
};

/* One descriptor chain taken from a queue: the device-readable buffers
 * (out) then the device-writable ones (in), as host pointers into the
 * mapped guest memory. */
struct br_vhost_seg {
	uint8_t *p;
	uint32_t len;
};

struct br_vhost_chain {
	uint16_t head;
	unsigned nout, nin;
	uint64_t out_len, in_len;
	struct br_vhost_seg out[BR_VHOST_MAX_SEGS];
	struct br_vhost_seg in[BR_VHOST_MAX_SEGS];
};

struct br_vhost;

/* Called when queue @q may have new buffers (a kick, an in-band kick or
 * the queue was enabled).  The handler pops chains with br_vhost_pop(). */
typedef void (*br_vhost_notify_fn)(void *opaque, struct br_vhost *vh,
				     unsigned q);

struct br_vhost {
	int listen_fd;                  /* -1 when attached to a given fd */
	int fd;                         /* the connection, -1 when none */
	int req_fd;                     /* back-end request channel, or -1 */
	char path[108];                 /* socket path we created, to unlink */
	unsigned nvq;
	uint64_t features_offered, features;
	uint64_t proto_offered, proto;
	bool owner;
	struct br_vhost_region reg[BR_VHOST_MAX_REGIONS];
	unsigned nreg;
	struct br_vhost_vq vq[BR_VHOST_MAX_QUEUES];
	br_vhost_notify_fn notify;
	void *opaque;
	int io_timeout_ms;              /* bound on waits inside one message */
	bool quiet;                     /* no stderr log of errors */
	bool broken;                    /* error seen; disconnect at next poll */
	int status;                     /* 0, or the negative errno of the error */
	char err[256];                  /* first error of this connection */
	uint64_t msgs, replies, connections;
	/* Time-travel (UML time-travel=ext): when set, an in-band call is
	 * handed to this hook instead of being written; the owner sends it
	 * later, at the right virtual time, with br_vhost_send_call(). */
	void (*call_hook)(void *opaque, struct br_vhost *vh, unsigned q);
	void *call_opaque;
	/* When set and non-zero after a signal, a bounded wait inside a
	 * message gives up at once (-EINTR): the owner is stopping. */
	const volatile sig_atomic_t *stop;
	uint8_t rbuf[24];               /* a reply on req_fd being assembled */
	unsigned rlen;
	uint64_t call_replies;
};

/*
 * Set up a back-end with @nvq queues offering virtio @features (the
 * PROTOCOL_FEATURES bit is added) and vhost-user protocol features
 * @proto.  @notify(@opaque, ...) serves the queues.
 */
void br_vhost_init(struct br_vhost *vh, unsigned nvq, uint64_t features,
		     uint64_t proto, br_vhost_notify_fn notify, void *opaque);

/* Close everything and unlink the socket we created. */
void br_vhost_fini(struct br_vhost *vh);

/* Listen on unix socket @path (replacing a stale socket file); the front-end
 * connects (UML: virtio_uml.device=PATH:ID).  Returns 0 or -errno. */
int br_vhost_listen(struct br_vhost *vh, const char *path);

/* Serve an already connected socket @fd (ownership passes).  0 or -errno. */
int br_vhost_attach(struct br_vhost *vh, int fd);

bool br_vhost_connected(const struct br_vhost *vh);

/*
 * Handle everything pending (a connection to accept, messages, kicks)
 * without blocking.  Returns the number of events handled (>= 0), or the
 * negative errno of an error, after which the connection is closed
 * (-ECONNRESET when the front-end went away).
 */
int br_vhost_poll(struct br_vhost *vh);

/* The descriptors br_vhost_run() would wait on (at most @max, and never
 * more than BR_VHOST_POLLFDS), for a caller that waits on several
 * back-ends at once before calling br_vhost_poll() on each. */
#define BR_VHOST_POLLFDS (2 + BR_VHOST_MAX_QUEUES)
struct pollfd;
unsigned br_vhost_pollfds(const struct br_vhost *vh, struct pollfd *p,
			    unsigned max);

/* Like br_vhost_poll(), but first wait up to @timeout_ms for an event.
 * Returns 0 on timeout. */
int br_vhost_run(struct br_vhost *vh, int timeout_ms);

/* The error of the current (or last) connection, "" if none. */
const char *br_vhost_error(const struct br_vhost *vh);

/* Record a guest error that makes the connection unusable (used by the
 * device layer too); returns @err (negative errno). */
int br_vhost_fail(struct br_vhost *vh, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ----- queues ----- */

/* Queue @q has a size, addresses and is enabled. */
bool br_vhost_queue_ready(const struct br_vhost *vh, unsigned q);

/* Take the next available chain of queue @q.  Returns 1 (chain filled),
 * 0 (none available, or queue not ready) or a negative errno (bad ring:
 * the back-end is now in the error state). */
int br_vhost_pop(struct br_vhost *vh, unsigned q,
		   struct br_vhost_chain *c);

/* Give @c back to the front-end with @written bytes written into its
 * device-writable buffers.  0 or -errno. */
int br_vhost_push(struct br_vhost *vh, unsigned q,
		    const struct br_vhost_chain *c, uint32_t written);

/* Give back chain @head (of a chain popped earlier) with @written bytes;
 * for a back-end that completes chains out of order.  0 or -errno. */
int br_vhost_push_head(struct br_vhost *vh, unsigned q, uint16_t head,
			 uint32_t written);

/* Tell the front-end queue @q has used buffers (call fd or in-band
 * message), unless it asked for no interrupts (NO_INTERRUPT, or with the
 * event index a used_event the new entries have not passed).  With a
 * call_hook the decision is left to its owner (br_vhost_call_wanted at
 * delivery).  0 or -errno. */
int br_vhost_call(struct br_vhost *vh, unsigned q);

/* RING_EVENT_IDX was negotiated. */
bool br_vhost_event_idx(const struct br_vhost *vh);

/* Used entries of queue @q the front-end has not taken yet (used_idx
 * minus its used_event, at most the ring size), or -1 when that is not
 * known (no event index, or the queue is not ready). */
int br_vhost_unconsumed(struct br_vhost *vh, unsigned q);

/* Whether a call for queue @q delivered now would be wanted: used entries
 * the front-end has not taken (event index), or it did not ask for no
 * interrupts. */
bool br_vhost_call_wanted(struct br_vhost *vh, unsigned q);

/* Send queue @q's in-band call (SLAVE_VRING_CALL on the back-end request
 * channel) now, with the need-reply bit when @need_reply: the front-end
 * answers on the same channel (UML's is a socketpair) once it has taken
 * the interrupt; read that answer with br_vhost_call_reply().  0, or
 * -ENOTCONN (no in-band channel) or another negative errno. */
int br_vhost_send_call(struct br_vhost *vh, unsigned q, bool need_reply);

/* Read the front-end's reply to a call sent with the need-reply bit,
 * without blocking: 1 (a whole reply, status 0), 0 (not all of it there
 * yet), or a negative errno (a bad or failed reply, or the channel
 * closed; the back-end is then in the error state). */
int br_vhost_call_reply(struct br_vhost *vh);

/* Copy from the chain's readable buffers starting at byte @off; returns
 * bytes copied (less than @len when the buffers are shorter). */
size_t br_vhost_chain_read(const struct br_vhost_chain *c, size_t off,
			     void *buf, size_t len);

/* Copy into the chain's writable buffers starting at byte @off. */
size_t br_vhost_chain_write(const struct br_vhost_chain *c, size_t off,
			      const void *buf, size_t len);

/* ----- guest memory ----- */

/* Host address of guest physical @gpa with at least one byte mapped;
 * *@avail gets how many bytes are contiguous from there.  NULL if @gpa is
 * in no region. */
uint8_t *br_vhost_gpa_span(const struct br_vhost *vh, uint64_t gpa,
			     uint64_t *avail);

/* Host address of [@gpa, @gpa + @len) if it lies inside one region. */
uint8_t *br_vhost_gpa(const struct br_vhost *vh, uint64_t gpa,
			uint64_t len);

/* Copy between guest physical memory and @buf (the range may span
 * adjacent regions).  0, or -EFAULT when any byte is outside the table
 * (nothing is copied then). */
int br_vhost_gpa_read(const struct br_vhost *vh, uint64_t gpa, void *buf,
			uint64_t len);
int br_vhost_gpa_write(const struct br_vhost *vh, uint64_t gpa,
			 const void *buf, uint64_t len);

#endif /* RXSCALE_BR_VHOST_H */
