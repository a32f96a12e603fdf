// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load/load_wire.h"

/* Bytes reserved per queued frame; longer frames (up to LOAD_WIRE_MAX)
 * get their own allocation, so the ring stays small and cache-friendly. */
#define SLOT 2048
#define LOAD_WIRE_MAX 16384

static uint8_t *slot_data(struct load_wire_dir *d, size_t i)
{
	return d->big[i] ? d->big[i] : d->buf + i * SLOT;
}

/* The slot @k places after the head.  The capacity is a power of two
 * (64, doubled as it fills), so a mask instead of a division: this runs
 * for every frame the peer sends. */
static size_t slot_at(const struct load_wire_dir *d, size_t k)
{
	return (d->head + k) & (d->cap - 1);
}

/* Make room for one more frame.  0 or -ENOMEM. */
static int dir_reserve(struct load_wire_dir *d)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		uint8_t *buf = malloc(cap * SLOT);
		size_t *l = malloc(cap * sizeof(*l));
		sim_time_t *t = malloc(cap * sizeof(*t));
		uint8_t **big = calloc(cap, sizeof(*big));
		load_wire_build_fn *bf = calloc(cap, sizeof(*bf));
		load_wire_build_fn *hf = calloc(cap, sizeof(*hf));
		uint8_t *dsc = malloc(cap * LOAD_WIRE_DESC);
		void **own = calloc(cap, sizeof(*own));

		if (!buf || !l || !t || !big || !bf || !hf || !dsc || !own) {
			free(buf);
			free(l);
			free(t);
			free(big);
			free(bf);
			free(hf);
			free(dsc);
			free(own);
			return -ENOMEM;
		}
		for (size_t k = 0; k < d->n; k++) {
			size_t j = slot_at(d, k);

			if (d->big[j])
				big[k] = d->big[j];
			else if (d->build[j])
				memcpy(dsc + k * LOAD_WIRE_DESC, d->desc + j * LOAD_WIRE_DESC,
				       LOAD_WIRE_DESC);
			else
				memcpy(buf + k * SLOT, d->buf + j * SLOT, d->len[j]);
			bf[k] = d->build[j];
			hf[k] = d->build_hdr[j];
			own[k] = d->owner[j];
			l[k] = d->len[j];
			t[k] = d->due[j];
		}
		free(d->buf);
		free(d->len);
		free(d->due);
		free(d->big);
		free(d->build);
		free(d->build_hdr);
		free(d->desc);
		free(d->owner);
		d->owner = own;
		d->desc = dsc;
		d->build_hdr = hf;
		d->buf = buf;
		d->len = l;
		d->due = t;
		d->big = big;
		d->build = bf;
		d->cap = cap;
		d->head = 0;
	}
	return 0;
}

static int dir_push(struct load_wire_dir *d, const uint8_t *f, size_t len,
		    sim_time_t due)
{
	size_t i;
	uint8_t *dst;

	if (len > LOAD_WIRE_MAX)
		len = LOAD_WIRE_MAX;
	if (dir_reserve(d))
		return -ENOMEM;
	i = slot_at(d, d->n);
	if (len > SLOT) {
		d->big[i] = malloc(len);
		if (!d->big[i])
			return -ENOMEM;
	}
	dst = slot_data(d, i);
	memcpy(dst, f, len);
	d->build[i] = NULL;
	d->build_hdr[i] = NULL;
	d->owner[i] = NULL;
	d->len[i] = len;
	d->due[i] = due;
	if (!d->n)
		sim_schedule_at(d->w->sim, &d->ev, due);
	d->n++;
	return 0;
}

static void dir_fn(struct sim *s, struct sim_event *ev)
{
	struct load_wire_dir *d = ev->arg;

	while (d->n && d->due[d->head] <= sim_now(s)) {
		size_t i = d->head;

		d->head = slot_at(d, 1);
		d->n--;
		d->frames++;
		d->bytes += d->len[i];
		{
			/* take a long frame's buffer out of the slot first:
			 * delivery may queue new frames */
			uint8_t *bp = d->big[i];
			load_wire_build_fn bf = d->build[i], hf = d->build_hdr[i];
			void *owner = d->owner[i];
			size_t len = d->len[i];

			d->owner[i] = NULL;
			d->big[i] = NULL;
			d->build[i] = NULL;
			d->build_hdr[i] = NULL;
			if (bf && hf && d->deliver_src) {
				/* headers now; the NIC builds the frame */
				static uint8_t hot[SLOT];
				uint8_t desc[LOAD_WIRE_DESC];
				ssize_t n;

				memcpy(desc, d->desc + i * LOAD_WIRE_DESC, sizeof(desc));
				n = hf(desc, hot, sizeof(hot));
				if (n > 0)
					d->deliver_src(d, hot, (size_t)n,
						&(struct net_frame_src){ bf, desc, sizeof(desc) });
			} else if (bf) {
				/* a description: build the frame now, in a
				 * buffer that stays in the cache */
				static uint8_t hot[SLOT];
				ssize_t n = bf(d->desc + i * LOAD_WIRE_DESC, hot,
					       sizeof(hot));

				if (n > 0)
					d->deliver(d, hot, (size_t)n);
			} else {
				d->deliver(d, bp ? bp : d->buf + i * SLOT, d->len[i]);
			}
			free(bp);
			/* the peer's TX completion: its socket may send more
			 * (slot i may have moved: only locals from here) */
			if (owner && d->w->peer_sent)
				d->w->peer_sent(owner, len);
		}
	}
	if (d->n)
		sim_schedule_at(s, ev, d->due[d->head]);
}

static void to_dut(struct load_wire_dir *d, const uint8_t *f, size_t len)
{
	d->w->dut.eth_rx(d->w->dut.dev, f, len);
}

static void to_dut_src(struct load_wire_dir *d, const uint8_t *hdr, size_t len,
		       const struct net_frame_src *src)
{
	d->w->dut.eth_rx_src(d->w->dut.dev, hdr, len, src);
}

static void to_peer(struct load_wire_dir *d, const uint8_t *f, size_t len)
{
	if (d->w->peer_rx)
		d->w->peer_rx(d->w->peer_arg, f, len);
}

/* The NIC starts sending a frame now (rtlm wire_tx callback). */
static void nic_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct load_wire *w = arg;

	dir_push(&w->to_peer, frame, len, sim_now(w->sim) +
		 load_wire_time(len, w->mbps) + w->prop_ns);
}

static int rtlm_port_rx(void *dev, const void *frame, size_t len)
{
	return rtlm_eth_rx(dev, frame, len);
}

static int rtlm_port_rx_src(void *dev, const void *hdr, size_t len,
			    const struct net_frame_src *src)
{
	return rtlm_eth_rx_src(dev, hdr, len, src);
}

static void rtlm_port_tx(void *dev, load_wire_rx_fn fn, void *arg)
{
	rtlm_set_wire_tx(dev, fn, arg);
}

struct load_wire_nic load_wire_nic_rtlm(struct rtlm_dev *dev)
{
	return (struct load_wire_nic){ .dev = dev, .eth_rx = rtlm_port_rx,
				       .eth_rx_src = rtlm_port_rx_src,
				       .set_wire_tx = rtlm_port_tx };
}

int load_wire_init(struct load_wire *w, struct sim *sim,
		   const struct load_wire_nic *dut,
		   uint32_t mbps, sim_time_t prop_ns, load_wire_rx_fn peer_rx,
		   void *peer_arg)
{
	if (!mbps)
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->sim = sim;
	w->mbps = mbps;
	w->prop_ns = prop_ns;
	w->dut = *dut;
	w->peer_rx = peer_rx;
	w->peer_arg = peer_arg;
	w->to_dut.w = w->to_peer.w = w;
	w->to_dut.deliver = to_dut;
	if (dut->eth_rx_src)
		w->to_dut.deliver_src = to_dut_src;
	w->to_peer.deliver = to_peer;
	sim_event_init(&w->to_dut.ev, dir_fn, &w->to_dut);
	sim_event_init(&w->to_peer.ev, dir_fn, &w->to_peer);
	w->dut.set_wire_tx(w->dut.dev, nic_tx, w);
	return 0;
}

void load_wire_fini(struct load_wire *w)
{
	struct load_wire_dir *ds[2] = { &w->to_dut, &w->to_peer };

	w->dut.set_wire_tx(w->dut.dev, NULL, NULL);
	for (int i = 0; i < 2; i++) {
		sim_cancel(w->sim, &ds[i]->ev);
		for (size_t k = 0; ds[i]->big && k < ds[i]->cap; k++)
			free(ds[i]->big[k]);
		free(ds[i]->buf);
		free(ds[i]->len);
		free(ds[i]->due);
		free(ds[i]->big);
		free(ds[i]->build);
		free(ds[i]->build_hdr);
		free(ds[i]->desc);
		free(ds[i]->owner);
	}
	sim_purge(w->sim);
}

void load_wire_set_peer_clock(struct load_wire *w, struct sim_clock clk)
{
	w->peer_clock = clk;
}

void load_wire_set_peer_sent(struct load_wire *w,
			     void (*fn)(void *owner, size_t len))
{
	w->peer_sent = fn;
}

/* The peer's transmitter: when a frame of @len bytes starting now (or
 * when the line is free) has fully arrived at the NIC. */
static sim_time_t peer_wire_due(struct load_wire *w, size_t len)
{
	struct load_wire_dir *d = &w->to_dut;
	sim_time_t start = sim_now(w->sim) > d->busy_until ? sim_now(w->sim) :
							     d->busy_until;

	/* exact on average: carry the sub-ns remainder to the next frame;
	 * a bit takes 1/mbps us of the peer's own clock, 10^9 / (10^9 +
	 * ppb) of that in host time */
	{
		uint64_t bytes = (len < 60 ? 60 : len) + LOAD_WIRE_OVERHEAD;
		uint64_t den = (uint64_t)w->mbps *
			       (uint64_t)(1000000000 + (int64_t)w->peer_clock.ppb);
		uint64_t num = bytes * 8000u * 1000000000u + d->carry;

		if (start > d->busy_until)
			num -= d->carry, d->carry = 0;  /* an idle gap resets it */
		d->busy_until = start + num / den;
		d->carry = num % den;
	}
	return d->busy_until + w->prop_ns;
}

sim_time_t load_wire_peer_send(struct load_wire *w, const uint8_t *frame,
			       size_t len)
{
	if (dir_push(&w->to_dut, frame, len, peer_wire_due(w, len)))
		return 0;
	return w->to_dut.busy_until;
}

sim_time_t load_wire_peer_send_desc(struct load_wire *w, load_wire_build_fn build,
				    load_wire_build_fn build_hdr,
				    const void *desc, size_t desc_len, size_t len,
				    void *owner)
{
	struct load_wire_dir *d = &w->to_dut;
	size_t i;

	if (desc_len > LOAD_WIRE_DESC || len > SLOT || !build || dir_reserve(d))
		return 0;
	i = slot_at(d, d->n);
	memcpy(d->desc + i * LOAD_WIRE_DESC, desc, desc_len);
	d->build[i] = build;
	d->build_hdr[i] = build_hdr;
	d->owner[i] = owner;
	d->len[i] = len;
	d->due[i] = peer_wire_due(w, len);
	if (!d->n)
		sim_schedule_at(w->sim, &d->ev, d->due[i]);
	d->n++;
	return d->busy_until;
}
