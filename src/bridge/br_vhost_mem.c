/* SPDX-License-Identifier: MIT */
/*
 * br_vhost_mem.c - vhost-user back-end: the front-end memory table: guest physical and front-end user addresses to host pointers
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

/* ----- memory table ----- */

void brv_unmap_regions(struct br_vhost *vh)
{
	for (unsigned i = 0; i < vh->nreg; i++)
		if (vh->reg[i].map)
			munmap(vh->reg[i].map, vh->reg[i].map_len);
	memset(vh->reg, 0, sizeof(vh->reg));
	vh->nreg = 0;
}

uint8_t *br_vhost_gpa_span(const struct br_vhost *vh, uint64_t gpa,
			     uint64_t *avail)
{
	for (unsigned i = 0; i < vh->nreg; i++) {
		const struct br_vhost_region *r = &vh->reg[i];

		if (gpa >= r->gpa && gpa - r->gpa < r->size) {
			*avail = r->size - (gpa - r->gpa);
			return r->base + (gpa - r->gpa);
		}
	}
	*avail = 0;
	return NULL;
}

uint8_t *br_vhost_gpa(const struct br_vhost *vh, uint64_t gpa,
			uint64_t len)
{
	uint64_t avail;
	uint8_t *p = br_vhost_gpa_span(vh, gpa, &avail);

	if (!p || len > avail)
		return NULL;
	return p;
}

/* Front-end user address (ring addresses) to host address. */
uint8_t *brv_ua_to_host(const struct br_vhost *vh, uint64_t ua,
			   uint64_t len)
{
	for (unsigned i = 0; i < vh->nreg; i++) {
		const struct br_vhost_region *r = &vh->reg[i];

		if (ua >= r->uaddr && ua - r->uaddr < r->size &&
		    len <= r->size - (ua - r->uaddr))
			return r->base + (ua - r->uaddr);
	}
	return NULL;
}

static int gpa_check(const struct br_vhost *vh, uint64_t gpa, uint64_t len)
{
	while (len) {
		uint64_t avail;

		if (!br_vhost_gpa_span(vh, gpa, &avail))
			return -EFAULT;
		if (avail >= len)
			return 0;
		len -= avail;
		gpa += avail;
	}
	return 0;
}

int br_vhost_gpa_read(const struct br_vhost *vh, uint64_t gpa, void *buf,
			uint64_t len)
{
	uint8_t *d = buf;

	if (gpa_check(vh, gpa, len))
		return -EFAULT;
	while (len) {
		uint64_t avail;
		uint8_t *p = br_vhost_gpa_span(vh, gpa, &avail);
		uint64_t n = avail < len ? avail : len;

		memcpy(d, p, n);
		d += n;
		gpa += n;
		len -= n;
	}
	return 0;
}

int br_vhost_gpa_write(const struct br_vhost *vh, uint64_t gpa,
			 const void *buf, uint64_t len)
{
	const uint8_t *s = buf;

	if (gpa_check(vh, gpa, len))
		return -EFAULT;
	while (len) {
		uint64_t avail;
		uint8_t *p = br_vhost_gpa_span(vh, gpa, &avail);
		uint64_t n = avail < len ? avail : len;

		memcpy(p, s, n);
		s += n;
		gpa += n;
		len -= n;
	}
	return 0;
}
