/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_priv.h - what the files of the vhost-user back-end share: the
 * wire formats of its messages and split rings, and the helpers one file
 * provides to the others (brv_ prefix).  Not for users of br_vhost.h.
 */
#ifndef RXSCALE_BR_VHOST_PRIV_H
#define RXSCALE_BR_VHOST_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bridge/br_vhost.h"

/* split ring layout (virtio 1.x, little endian) */
struct vring_desc_le {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

#define AVAIL_RING_OFF 4u               /* flags, idx, then ring[] */
#define USED_RING_OFF 4u                /* flags, idx, then {id, len}[] */

struct wire_vring_state {
	uint32_t index;
	uint32_t num;
};

struct wire_vring_addr {
	uint32_t index;
	uint32_t flags;
	uint64_t desc, used, avail, log;
};

struct wire_region {
	uint64_t gpa, size, uaddr, mmap_offset;
};

struct wire_config {
	uint32_t offset, size, flags;
};

#define MAX_FDS BR_VHOST_MAX_REGIONS

/* struct rings: a queue's split rings as host pointers */
struct rings {
	uint8_t *desc;
	uint16_t *avail_flags, *avail_idx, *avail_ring;
	uint16_t *used_event;           /* after avail_ring[num] (EVENT_IDX) */
	uint16_t *used_idx;
	uint8_t *used_ring;
	uint16_t *avail_event;          /* after used_ring[num] (EVENT_IDX) */
};

void brv_close_fd(int *fd);  /* br_vhost_io.c */
int brv_set_nonblock(int fd);  /* br_vhost_io.c */
ssize_t brv_write_nosig(int fd, const void *buf, size_t len);  /* br_vhost_io.c */
int brv_write_all(struct br_vhost *vh, int fd, const void *buf, size_t len);  /* br_vhost_io.c */
int brv_recv_full(struct br_vhost *vh, void *buf, size_t len, int *fds, unsigned *nfds, bool first);  /* br_vhost_io.c */
void brv_unmap_regions(struct br_vhost *vh);  /* br_vhost_mem.c */
uint8_t *brv_ua_to_host(const struct br_vhost *vh, uint64_t ua, uint64_t len);  /* br_vhost_mem.c */
void brv_reset_queues(struct br_vhost *vh);  /* br_vhost_conn.c */
void brv_disconnect(struct br_vhost *vh);  /* br_vhost_conn.c */
void brv_new_connection(struct br_vhost *vh, int fd);  /* br_vhost_conn.c */
int brv_send_reply(struct br_vhost *vh, uint32_t request, const void *payload, uint32_t size);  /* br_vhost_conn.c */
int brv_reply_u64(struct br_vhost *vh, uint32_t request, uint64_t v);  /* br_vhost_conn.c */
bool brv_has_proto(const struct br_vhost *vh, unsigned bit);  /* br_vhost_conn.c */
int brv_handle_one_message(struct br_vhost *vh);  /* br_vhost_msg.c */

#endif /* RXSCALE_BR_VHOST_PRIV_H */
