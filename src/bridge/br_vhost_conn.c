/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_conn.c - vhost-user back-end: connection state (listen, accept, attach, reset) and replies
 * (see br_vhost.h).
 */
#include "bridge/br_vhost_priv.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ----- connection state ----- */

void brv_reset_queues(struct br_vhost *vh)
{
	for (unsigned q = 0; q < BR_VHOST_MAX_QUEUES; q++) {
		struct br_vhost_vq *vq = &vh->vq[q];

		brv_close_fd(&vq->kick_fd);
		brv_close_fd(&vq->call_fd);
		brv_close_fd(&vq->err_fd);
		memset(vq, 0, sizeof(*vq));
		vq->kick_fd = vq->call_fd = vq->err_fd = -1;
	}
}

void brv_disconnect(struct br_vhost *vh)
{
	brv_close_fd(&vh->fd);
	brv_close_fd(&vh->req_fd);
	vh->rlen = 0;
	brv_reset_queues(vh);
	brv_unmap_regions(vh);
	vh->features = 0;
	vh->proto = 0;
	vh->owner = false;
}

void br_vhost_init(struct br_vhost *vh, unsigned nvq, uint64_t features,
		     uint64_t proto, br_vhost_notify_fn notify, void *opaque)
{
	memset(vh, 0, sizeof(*vh));
	vh->listen_fd = vh->fd = vh->req_fd = -1;
	for (unsigned q = 0; q < BR_VHOST_MAX_QUEUES; q++)
		vh->vq[q].kick_fd = vh->vq[q].call_fd = vh->vq[q].err_fd = -1;
	vh->nvq = nvq > BR_VHOST_MAX_QUEUES ? BR_VHOST_MAX_QUEUES : nvq;
	vh->features_offered = features |
		(1ull << BR_VHOST_F_PROTOCOL_FEATURES);
	vh->proto_offered = proto & ((1ull << BR_VHOST_PF_MQ) |
				     (1ull << BR_VHOST_PF_REPLY_ACK) |
				     (1ull << BR_VHOST_PF_SLAVE_REQ) |
				     (1ull << BR_VHOST_PF_CONFIG) |
				     (1ull << BR_VHOST_PF_INBAND_NOTIFICATIONS));
	vh->notify = notify;
	vh->opaque = opaque;
	vh->io_timeout_ms = 2000;
}

void br_vhost_fini(struct br_vhost *vh)
{
	brv_disconnect(vh);
	brv_close_fd(&vh->listen_fd);
	if (vh->path[0])
		unlink(vh->path);
	vh->path[0] = 0;
}

void brv_new_connection(struct br_vhost *vh, int fd)
{
	brv_disconnect(vh);
	vh->fd = fd;
	vh->broken = false;
	vh->status = 0;
	vh->err[0] = 0;
	vh->connections++;
}

int br_vhost_listen(struct br_vhost *vh, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 1) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	brv_close_fd(&vh->listen_fd);
	vh->listen_fd = fd;
	snprintf(vh->path, sizeof(vh->path), "%s", path);
	return 0;
}

int br_vhost_attach(struct br_vhost *vh, int fd)
{
	int rc = brv_set_nonblock(fd);

	if (rc) {
		close(fd);
		return rc;
	}
	brv_new_connection(vh, fd);
	return 0;
}

bool br_vhost_connected(const struct br_vhost *vh)
{
	return vh->fd >= 0;
}

/* Protocol feature @bit was negotiated. */
bool brv_has_proto(const struct br_vhost *vh, unsigned bit)
{
	return vh->proto & (1ull << bit);
}

/* ----- replies ----- */

int brv_send_reply(struct br_vhost *vh, uint32_t request,
		      const void *payload, uint32_t size)
{
	uint8_t buf[sizeof(struct br_vhost_hdr) + BR_VHOST_MAX_PAYLOAD];
	struct br_vhost_hdr h = {
		.request = request,
		.flags = BR_VHOST_VERSION | BR_VHOST_FLAG_REPLY,
		.size = size,
	};
	int rc;

	if (size > BR_VHOST_MAX_PAYLOAD)
		return -EINVAL;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), payload, size);
	rc = brv_write_all(vh, vh->fd, buf, sizeof(h) + size);
	if (rc)
		return br_vhost_fail(vh, rc, "sending reply to request %u: %s",
				       request, strerror(-rc));
	vh->replies++;
	return 0;
}

int brv_reply_u64(struct br_vhost *vh, uint32_t request, uint64_t v)
{
	v = htole64(v);
	return brv_send_reply(vh, request, &v, sizeof(v));
}
