// SPDX-License-Identifier: MIT
/*
 * br_tap.c - a model's Ethernet port on a TAP device (see br_tap.h).
 * TUNSETIFF with IFF_TAP | IFF_NO_PI: Linux
 * Documentation/networking/tuntap.rst.
 */
#include <linux/if.h>
#include <linux/if_tun.h>

#include "bridge/br_tap.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int br_tap_open(struct br_tap *t, const char *ifname, struct br_rt *rt,
		br_tap_rx_fn rx, void *opaque)
{
	struct ifreq ifr;
	int fd, err;

	*t = (struct br_tap){ .fd = -1, .stop_fd = { -1, -1 }, .rt = rt,
			      .rx = rx, .opaque = opaque };
	if (!ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0 || pipe2(t->stop_fd, O_CLOEXEC) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	t->fd = fd;
	snprintf(t->name, sizeof(t->name), "%s", ifr.ifr_name);
	return 0;
}

static void *reader(void *arg)
{
	struct br_tap *t = arg;
	static __thread uint8_t buf[BR_TAP_FRAME_MAX];

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = t->fd, .events = POLLIN },
			{ .fd = t->stop_fd[0], .events = POLLIN },
		};
		ssize_t n;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (!(p[0].revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		n = read(t->fd, buf, sizeof(buf));
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		br_rt_enter(t->rt);
		if (n <= 0) {
			snprintf(t->last_error, sizeof(t->last_error), "%s: read: %s",
				 t->name, n < 0 ? strerror(errno) : "end of file");
			br_rt_leave(t->rt);
			break;
		}
		if (n < 14) {
			t->rx_runts++;
			br_rt_leave(t->rt);
			continue;
		}
		while (t->rx(t->opaque, buf, (size_t)n) == -EAGAIN) {
			struct timespec ts = { 0, 50000 };

			t->rx_waits++;
			br_rt_leave(t->rt);
			nanosleep(&ts, NULL);
			br_rt_enter(t->rt);
		}
		t->rx_frames++;
		t->rx_bytes += (uint64_t)n;
		br_rt_leave(t->rt);
	}
	return NULL;
}

int br_tap_start(struct br_tap *t)
{
	int rc = pthread_create(&t->thread, NULL, reader, t);

	if (rc)
		return -rc;
	t->started = true;
	return 0;
}

void br_tap_tx(struct br_tap *t, const void *frame, size_t len)
{
	if (write(t->fd, frame, len) != (ssize_t)len) {
		t->tx_dropped++;
		return;
	}
	t->tx_frames++;
	t->tx_bytes += len;
}

void br_tap_close(struct br_tap *t)
{
	if (t->started) {
		if (write(t->stop_fd[1], "x", 1) != 1)
			perror("br_tap: stop");
		pthread_join(t->thread, NULL);
		t->started = false;
	}
	for (unsigned i = 0; i < 2; i++)
		if (t->stop_fd[i] >= 0)
			close(t->stop_fd[i]);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = t->stop_fd[0] = t->stop_fd[1] = -1;
}
