// SPDX-License-Identifier: MIT
/*
 * test_r8152.c - the r8152-style driver on the RTL8157/8159 model, end to
 * end: frames enter the model's MAC, cross the simulated xHCI as bulk-in
 * transfers, and the driver delivers skbs through NAPI to a receive hook;
 * TX skbs leave through bulk-out transfers onto the model's wire.  The
 * test sees the driver through the kernel API (usb probe, netdev, ethtool
 * command lines) and the model through its public API (rtlu.h), as
 * tests/test_driver.c does for the PCIe path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "drv/r8152/r8152.h"
#include "ethtool/ethtool_cmd.h"
#include "bed/bed_host.h"
#include "kern/kern.h"
#include "kern/kern_modules.h"
#include "model/rtlu.h"
#include "plat/plat_usb.h"

struct rec {
	u32 id;
	u16 len;
	u64 t;
	u8 ip_summed;
	bool vlan;
	__be16 vlan_proto, protocol;	/* network byte order, as in Linux */
	u16 tci;
};

struct txrec {
	u32 id;
	u16 len;
};

struct ufx {
	struct bed_host h;
	struct plat_usb_hc *hc;
	struct rtlu_dev *m;
	struct usb_device udev;
	struct usb_interface intf;
	struct net_device *dev;
	struct r8152 *tp;
	struct rec *recs;
	size_t nrec, cap;
	struct txrec tx[4096];
	size_t ntx;
	bool tx_bad;			/* a wire frame differed from what was sent */
	u64 offered;
	FILE *out, *err;
	char *outbuf, *errbuf;
	size_t outlen, errlen;
};

static const u8 dev_mac[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x01 };

static void hook(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	struct ufx *f = data;
	struct rec r = { 0 };

	(void)napi;
	if (f->nrec == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 1024;
		f->recs = realloc(f->recs, f->cap * sizeof(*f->recs));
	}
	/* after eth_type_trans: IPv4 (20) + UDP (8), then the id */
	if (skb->len >= 32)
		memcpy(&r.id, skb->data + 28, 4);
	r.len = (u16)(skb->len + ETH_HLEN);
	r.ip_summed = skb->ip_summed;
	r.vlan = skb->vlan_present;
	r.tci = skb->vlan_tci;
	r.vlan_proto = skb->vlan_proto;
	r.protocol = skb->protocol;
	r.t = ktime_get_ns();
	f->recs[f->nrec++] = r;
	consume_skb(skb);
}

/* A UDP/IPv4 frame of @len bytes (>= 60, no FCS) to the device, carrying
 * @id in its first payload bytes; the rest of the payload is a pattern. */
static size_t frame_make(u32 id, size_t len, u8 *buf, size_t cap, const u8 *dmac)
{
	struct net_build b;
	u8 payload[2048];
	ssize_t n;

	assert_true(len >= 60 && len - 42 <= sizeof(payload));
	net_build_init(&b);
	memcpy(b.dmac, dmac, 6);
	b.ipv = 4;
	b.src[0] = 10; b.src[3] = (u8)id;
	b.dst[0] = 192; b.dst[1] = 168; b.dst[2] = 2; b.dst[3] = 1;
	b.proto = 17;
	b.sport = (u16)(40000 + (id & 1023));
	b.dport = 5201;
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (u8)(id + i * 7);
	memcpy(payload, &id, 4);
	b.payload = payload;
	b.payload_len = (u16)(len - 42);
	n = net_build_frame(&b, buf, cap);
	assert_int_equal(n, (ssize_t)len);
	return (size_t)n;
}

static void wire_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct ufx *f = arg;
	u8 want[2048];
	u32 id = 0;

	if (len >= 46)
		memcpy(&id, frame + 42, 4);
	if (len > sizeof(want) || frame_make(id, len, want, sizeof(want), dev_mac) != len ||
	    memcmp(want, frame, len))
		f->tx_bad = true;
	if (f->ntx < ARRAY_SIZE(f->tx))
		f->tx[f->ntx++] = (struct txrec){ .id = id, .len = (u16)len };
}

static const struct rtl_usb_chip_info *usb_chip(const char *name)
{
	for (unsigned i = 0; i < rtl_usb_chips_count; i++)
		if (!strcmp(rtl_usb_chips[i].name, name))
			return &rtl_usb_chips[i];
	fail_msg("no chip %s", name);
	return NULL;
}

static struct ufx *ufx_new_chip(unsigned ncpus, const struct rtl_usb_chip_info *chip,
				int *probe_rc)
{
	struct ufx *f = calloc(1, sizeof(*f));
	struct sim_host_params p;
	struct plat_usb_params up;
	int rc;

	sim_host_params_default(&p, ncpus);
	assert_int_equal(bed_host_up(&f->h, &p, 7), 0);
	if (getenv("RXSCALE_TEST_LOG"))
		f->h.k.log = stderr;
	/* the RTL8159 on a 20 Gbit/s (Gen 2x2) port, the RTL8157 on 10 Gbit/s
	 * (research s1.6: a 10 Gbit/s link carries less than 10GbE) */
	plat_usb_params_default(&up);
	up.link_mbps = chip->speed_mbps > 5000 ? 20000 : 10000;
	f->hc = plat_usb_hc_create(f->h.host, &f->h.k.mem, &up);
	assert_non_null(f->hc);
	f->m = rtlu_create(f->h.host, &f->h.k.mem, f->hc, chip, NULL);
	assert_non_null(f->m);
	rtlu_set_wire_tx(f->m, wire_tx, f);
	kern_usb_dev_init(&f->udev, &f->intf, rtlu_usb(f->m), "2-1");
	rc = kern_usb_probe(kmod_r8152_usb_driver, &f->intf);
	if (probe_rc)
		*probe_rc = rc;
	else
		assert_int_equal(rc, 0);
	f->out = open_memstream(&f->outbuf, &f->outlen);
	f->err = open_memstream(&f->errbuf, &f->errlen);
	if (rc)
		return f;
	f->dev = r8152_netdev(&f->intf);
	assert_non_null(f->dev);
	f->tp = netdev_priv(f->dev);
	kern_netdev_set_rx_handler(f->dev, hook, NULL, f);
	return f;
}

static struct ufx *ufx_new(const char *chip)
{
	struct ufx *f = ufx_new_chip(4, usb_chip(chip), NULL);

	assert_int_equal(dev_open(f->dev, NULL), 0);
	return f;
}

static void ufx_free(struct ufx *f)
{
	if (f->dev)
		kern_usb_disconnect(kmod_r8152_usb_driver, &f->intf);
	fclose(f->out);
	fclose(f->err);
	free(f->outbuf);
	free(f->errbuf);
	/* nothing of the driver's is left */
	assert_int_equal(f->h.k.skbs_live, 0);
	assert_int_equal(f->h.k.dma_live, 0);
	rtlu_destroy(f->m);
	plat_usb_hc_destroy(f->hc);
	bed_host_down(&f->h);
	free(f->recs);
	free(f);
}

/* ethtool command (written for "eth0"); exit status, f->outbuf/errbuf */
static int et(struct ufx *f, const char *args)
{
	char cmd[512];
	const char *p = strstr(args, "eth0");
	int rc;

	if (p)
		snprintf(cmd, sizeof(cmd), "%.*s%s%s", (int)(p - args), args,
			 f->dev->name, p + 4);
	else
		snprintf(cmd, sizeof(cmd), "%s", args);
	rewind(f->out);
	rewind(f->err);
	rc = ethtool_cmd_run(f->dev, cmd, f->out, f->err);
	fputc(0, f->out);
	fputc(0, f->err);
	fflush(f->out);
	fflush(f->err);
	return rc;
}

#define ET_OK(f, args) do {						\
	int __rc = et((f), (args));					\
	if (__rc)							\
		fail_msg("ethtool %s -> %d: %s", (args), __rc, (f)->errbuf); \
} while (0)

static u32 usb_reg(struct ufx *f, u16 addr, unsigned size)
{
	return rtlu_reg_peek(f->m, RTLU_MCU_TYPE_USB, addr, size);
}

/* ----- traffic ----- */

/* @count frames of @len bytes, one every @gap_ns from now. */
struct gen {
	struct sim_event ev;
	struct ufx *f;
	u32 next, end;
	sim_time_t gap;
	size_t len;
};

static void send_frame(struct ufx *f, u32 id, size_t len)
{
	u8 buf[2048];
	size_t n = frame_make(id, len, buf, sizeof(buf), dev_mac);

	f->offered++;
	rtlu_eth_rx(f->m, buf, n);
}

static void gen_fire(struct sim *s, struct sim_event *ev)
{
	struct gen *g = ev->arg;

	send_frame(g->f, g->next++, g->len);
	if (g->next < g->end)
		sim_schedule_in(s, &g->ev, g->gap);
}

static void gen_start(struct gen *g, struct ufx *f, u32 first, u32 count,
		      size_t len, sim_time_t gap)
{
	g->f = f;
	g->next = first;
	g->end = first + count;
	g->len = len;
	g->gap = gap;
	sim_event_init(&g->ev, gen_fire, g);
	sim_schedule_in(&f->h.sim, &g->ev, 0);
}

/* The driver's counters now (r8152_stats_fetch). */
static struct r8152_stats dstats(const struct ufx *f)
{
	struct r8152_stats s;

	r8152_stats_fetch(f->tp, &s);
	return s;
}

/* The interface counters as the stack reads them (ndo_get_stats64): the
 * driver's own, every frame in packets or dropped. */
static void check_stats64(struct ufx *f)
{
	const struct r8152_stats s = dstats(f);
	struct rtnl_link_stats64 st;

	dev_get_stats(f->dev, &st);
	assert_int_equal(st.rx_packets, s.rx_packets);
	assert_int_equal(st.rx_bytes, s.rx_bytes);
	assert_int_equal(st.rx_dropped, s.rx_alloc_fail + s.rx_length + s.rx_runt +
			 s.rx_purged);
	assert_int_equal(st.rx_errors, s.rx_urb_errors);
	assert_int_equal(st.tx_packets, s.tx_packets);
	assert_int_equal(st.tx_bytes, s.tx_bytes);
	assert_int_equal(st.tx_dropped, s.tx_drops);
	assert_int_equal(st.tx_errors, s.tx_urb_errors);
}

/* Model offered = model delivered + model drops (nothing in flight);
 * model delivered = driver packets + driver drops; driver packets = what
 * the hook saw + rx_nohandler.  No kernel contract warning. */
static void check_conservation(struct ufx *f)
{
	const struct rtlu_stats *ms = rtlu_stats(f->m);
	const struct r8152_stats s = dstats(f), *ds = &s;

	if (getenv("R8152_DEBUG"))
		fprintf(stderr, "model offered %lu delivered %lu fifo_over %lu cancelled %lu "
			"too_long %lu transfers %lu end size/timer/full/early/single %lu/%lu/%lu/%lu/%lu "
			"fifo_max %u; drv transfers %lu queued %lu polls %lu t=%lu\n",
			ms->rx_offered, ms->rx_delivered, ms->rx_fifo_over, ms->rx_cancelled,
			ms->rx_too_long, ms->rx_transfers, ms->rx_end[0], ms->rx_end[1],
			ms->rx_end[2], ms->rx_end[3], ms->rx_end[4], ms->rx_fifo_max,
			ds->rx_transfers, ds->rx_queued, f->tp->napi.polls, sim_now(&f->h.sim));

	assert_int_equal(ms->rx_inflight, 0);
	assert_int_equal(ms->rx_offered, f->offered);
	assert_int_equal(ms->rx_offered, ms->rx_delivered + rtlu_rx_dropped(f->m));
	assert_int_equal(ms->rx_delivered, ds->rx_packets + ds->rx_drops);
	assert_int_equal(ds->rx_drops, ds->rx_alloc_fail + ds->rx_length +
				       ds->rx_runt + ds->rx_purged);
	assert_int_equal(ds->rx_packets, f->nrec + f->dev->core_stats.rx_nohandler);
	assert_int_equal(ds->rx_transfer_frames, ms->rx_delivered);
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));
	check_stats64(f);
}

/* ids delivered in order, each once */
static void check_in_order(struct ufx *f, u32 first, u32 count)
{
	assert_int_equal(f->nrec, count);
	for (size_t i = 0; i < f->nrec; i++)
		assert_int_equal(f->recs[i].id, first + i);
}

/* ----- tests ----- */

static void test_id_table(void **state)
{
	(void)state;
	/* every chip row is in the id table, and nothing else */
	for (unsigned i = 0; i < rtl_usb_chips_count; i++) {
		bool found = false;

		for (const struct usb_device_id *id = kmod_r8152_usb_driver->id_table;
		     id->idVendor; id++)
			found |= id->idVendor == rtl_usb_chips[i].vendor &&
				 id->idProduct == rtl_usb_chips[i].product;
		assert_true(found);
	}
	for (const struct usb_device_id *id = kmod_r8152_usb_driver->id_table; id->idVendor; id++)
		assert_non_null(rtl_usb_chip_lookup(id->idVendor, id->idProduct));
}

static void test_probe(void **state)
{
	static const struct {
		const char *chip;
		u32 early_size, buf;
	} want[] = {
		/* (rx_buf_sz - (1500 + 18 + 4 + 16 + 16)) / 16, research s1.3 */
		{ "RTL8157", 1950, 32768 },
		{ "RTL8159", 2974, 49152 },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(want); i++) {
		struct ufx *f = ufx_new(want[i].chip);
		struct ethtool_drvinfo info = { 0 };

		assert_string_equal(f->dev->name, "eth0");
		assert_memory_equal(f->dev->dev_addr, dev_mac, 6);
		assert_ptr_equal(f->tp->chip, usb_chip(want[i].chip));
		assert_int_equal(f->tp->version_word, f->tp->chip->hw_id);
		assert_int_equal(f->tp->rx_buf_sz, want[i].buf);
		assert_int_equal(f->tp->napi.weight, 64);
		assert_true(netif_carrier_ok(f->dev));
		/* aggregation on, 16-byte descriptors, BIT 11 clear */
		assert_int_equal(usb_reg(f, RTLU_USB_USB_CTRL, 2) &
				 (RTLU_USB_CTRL_RX_AGG_DISABLE | RTLU_USB_CTRL_RX_DESC_16B |
				  RTLU_USB_CTRL_BIT11), 0);
		assert_int_equal(usb_reg(f, RTLU_USB_RX_EARLY_TIMEOUT, 2), 640 / 8);
		assert_int_equal(usb_reg(f, RTLU_USB_RX_EARLY_SIZE, 2), want[i].early_size);
		assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 15000 / 8);
		/* 10 bulk-in URBs and the interrupt URB are with the HCD */
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued +
				 (rtlu_usb(f->m)->ep_in[RTLU_EP_INTR_IN].queued ? 1 : 0),
				 11);
		f->dev->ethtool_ops->get_drvinfo(f->dev, &info);
		assert_string_equal(info.driver, "r8152");
		assert_non_null(strstr(info.fw_version, want[i].chip));
		assert_non_null(strstr(f->h.k.last_log, want[i].chip));
		ufx_free(f);
	}
}

static void test_unknown_id(void **state)
{
	struct rtl_usb_chip_info fake = *usb_chip("RTL8157");
	struct ufx *f;
	int rc;

	(void)state;
	/* an id no row knows: the core finds no match */
	fake.product = 0x8153;
	f = ufx_new_chip(2, &fake, &rc);
	assert_int_equal(rc, -ENODEV);
	assert_null(r8152_netdev(&f->intf));
	ufx_free(f);
	/* a known id answering another version word: refused by probe */
	fake = *usb_chip("RTL8157");
	fake.hw_id = 0x5450;		/* no chip row has it */
	f = ufx_new_chip(2, &fake, &rc);
	assert_int_equal(rc, -ENODEV);
	assert_non_null(strstr(f->h.k.last_log, "version word"));
	assert_null(r8152_netdev(&f->intf));
	ufx_free(f);
}

/* Open, close and reopen: URBs with the HCD and skbs come back to the
 * same counts each time; traffic works after the reopen. */
static void test_open_close(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	struct gen g;
	u64 live0 = f->h.k.skbs_live;

	(void)state;
	for (int round = 0; round < 3; round++) {
		gen_start(&g, f, (u32)round * 100, 100, 1514, 2000);
		sim_run(&f->h.sim);
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 10);
		dev_close(f->dev);
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 0);
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_INTR_IN].queued, 0);
		assert_int_equal(f->h.k.skbs_live, live0);
		assert_int_equal(dev_open(f->dev, NULL), 0);
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 10);
	}
	assert_int_equal(f->nrec, 300);
	check_conservation(f);
	assert_int_equal(dstats(f).rx_drops, 0);
	ufx_free(f);
}

/* Many frames at line rate: every frame accounted for, in order, several
 * per transfer. */
static void test_rx_many(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	struct rtnl_link_stats64 st;
	struct gen g;

	(void)state;
	/* 1514-byte frames at 10 Gbit/s: 1538 bytes on the wire = 1230.4 ns */
	gen_start(&g, f, 0, 20000, 1514, 1231);
	sim_run(&f->h.sim);
	check_conservation(f);
	check_in_order(f, 0, 20000);
	assert_int_equal(dstats(f).rx_drops, 0);
	/* the 15 us timer ends each transfer: about 13 frames in each */
	assert_int_equal(dstats(f).rx_transfers, 1539);
	assert_int_equal(dstats(f).rx_transfer_frames_max, 13);
	assert_int_equal(dstats(f).rx_transfer_hist[3], 1538);	/* 9-16 frames */
	assert_int_equal(dstats(f).rx_queued, 0);
	/* what the stack sees: 1514-byte frames, the FCS not counted */
	dev_get_stats(f->dev, &st);
	assert_int_equal(st.rx_packets, 20000);
	assert_int_equal(st.rx_bytes, 20000 * 1514);
	assert_int_equal(st.rx_dropped, 0);
	ufx_free(f);
}

/* 200 small frames in one transfer: 64 delivered by the first poll, 136
 * held in rx_queue and delivered by the next polls (research s1.1). */
static void put_desc(u8 *p, u32 pkt_len);

static void test_rx_budget(void **state)
{
	struct ufx *f = ufx_new("RTL8157");
	struct rx_agg *agg = &f->tp->rx_agg[3];
	struct urb *urb = agg->urb;
	u8 frame[128];
	size_t n = frame_make(200, 60, frame, sizeof(frame), dev_mac);

	(void)state;
	for (u32 i = 0; i < 200; i++)
		send_frame(f, i, 60);
	sim_run(&f->h.sim);
	check_conservation(f);
	check_in_order(f, 0, 200);
	assert_int_equal(dstats(f).rx_transfers, 1);
	assert_int_equal(dstats(f).rx_transfer_frames_max, 200);
	assert_int_equal(dstats(f).rx_queued, 200 - 64);
	assert_int_equal(f->tp->napi.polls, 4);		/* 64 + 64 + 64 + 8 */
	/* netpoll's budget 0 with a transfer waiting: no RX work, no
	 * completion (napi.rst); the next real poll delivers it */
	usb_kill_urb(urb);
	put_desc(agg->buffer, (u32)n + 4);
	memcpy(agg->buffer + 16, frame, n);
	urb->actual_length = 16 + (u32)n + 4;
	urb->status = 0;
	urb->complete(urb);
	assert_int_equal(kern_napi_poll_direct(&f->tp->napi, 0), 0);
	assert_int_equal(f->nrec, 200);
	sim_run(&f->h.sim);
	assert_int_equal(f->nrec, 201);
	assert_int_equal(f->recs[200].id, 200);
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));
	ufx_free(f);
}

/*
 * A transfer whose last frame runs past actual_length, and one with a
 * runt descriptor: both counted in their drop reason, nothing read past
 * the transfer.  The model never makes such a transfer, so the test gives
 * one URB back itself as the HCD would (after taking it from the HCD).
 */
static void put_desc_full(u8 *p, u32 pkt_len, u32 opts1, u32 opts2, u32 opts3)
{
	struct rtl_usb_rx_desc_v2 d = { 0 };

	d.opts1 = pkt_len << RTL_USB_RX2_LEN_SHIFT | opts1;
	d.opts2 = opts2;
	d.opts3 = opts3;
	memcpy(p, &d, sizeof(d));
}

static void put_desc(u8 *p, u32 pkt_len)
{
	put_desc_full(p, pkt_len, 0, 0, 0);
}

static void test_rx_truncated(void **state)
{
	struct ufx *f = ufx_new("RTL8157");
	struct rx_agg *agg = &f->tp->rx_agg[0];
	struct urb *urb = agg->urb;
	u8 frame[128];
	size_t n = frame_make(7, 100, frame, sizeof(frame), dev_mac);
	u32 off;

	(void)state;
	usb_kill_urb(urb);
	/* frame 7 whole (16 + 104 -> 128) with UDP checksum verified and
	 * VLAN 5 stripped (TCI byte-swapped in opts2 31:16), frame 8 cut
	 * after 50 bytes */
	memset(agg->buffer, 0xee, f->tp->rx_buf_sz);
	put_desc_full(agg->buffer, (u32)n + 4, RTL_USB_RX2_VLAN_TAG,
		      (u32)swab16(5) << RTL_USB_RX2_TCI_SHIFT,
		      RTL_USB_RX2_UDP_CS | RTL_USB_RX2_IPV4_CS);
	memcpy(agg->buffer + 16, frame, n);
	off = 128;
	put_desc(agg->buffer + off, (u32)n + 4);
	frame_make(8, 100, frame, sizeof(frame), dev_mac);
	memcpy(agg->buffer + off + 16, frame, 50);
	urb->actual_length = off + 16 + 50;
	urb->status = 0;
	urb->complete(urb);
	sim_run(&f->h.sim);
	assert_int_equal(f->nrec, 1);
	assert_int_equal(f->recs[0].id, 7);
	assert_int_equal(f->recs[0].len, 100);
	assert_int_equal(f->recs[0].ip_summed, CHECKSUM_UNNECESSARY);
	assert_true(f->recs[0].vlan);
	assert_int_equal(f->recs[0].tci, 5);
	/* skb->vlan_proto and skb->protocol are __be16: the bytes on the
	 * wire (81 00, 08 00), whatever the CPU's byte order */
	assert_memory_equal(&f->recs[0].vlan_proto, "\x81\x00", 2);
	assert_memory_equal(&f->recs[0].protocol, "\x08\x00", 2);
	assert_int_equal(dstats(f).rx_csum_ok, 1);
	assert_int_equal(dstats(f).rx_length, 1);
	assert_int_equal(dstats(f).rx_drops, 1);
	assert_int_equal(dstats(f).rx_transfer_frames, 2);
	/* a runt descriptor (length 20) ends the parse and is one drop */
	usb_kill_urb(urb);
	put_desc(agg->buffer, 20);
	urb->actual_length = 256;
	urb->status = 0;
	urb->complete(urb);
	sim_run(&f->h.sim);
	assert_int_equal(dstats(f).rx_runt, 1);
	assert_int_equal(dstats(f).rx_drops, 2);
	/* the URB went back to the HCD */
	assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 10);
	assert_memory_equal(&f->h.k.warn, &(struct kern_warnings){ 0 }, sizeof(f->h.k.warn));
	ufx_free(f);
}

/* ethtool -C rx-usecs is in microseconds: 15 -> 15000 ns -> 1875 units. */
static void test_coalesce_units(void **state)
{
	struct ufx *f = ufx_new("RTL8159");

	(void)state;
	ET_OK(f, "-c eth0");
	assert_non_null(strstr(f->outbuf, "rx-usecs: 15\n"));
	ET_OK(f, "-C eth0 rx-usecs 100");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 12500);
	ET_OK(f, "-C eth0 rx-usecs 15");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 1875);
	ET_OK(f, "-c eth0");
	assert_non_null(strstr(f->outbuf, "rx-usecs: 15\n"));
	ET_OK(f, "-C eth0 rx-usecs 524");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 65500);
	assert_int_not_equal(et(f, "-C eth0 rx-usecs 525"), 0);
	assert_non_null(strstr(f->errbuf, "maximum of 524"));
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 65500);
	ET_OK(f, "-c eth0");
	assert_non_null(strstr(f->outbuf, "rx-usecs: 524\n"));
	/* the core refuses what the driver does not declare */
	assert_int_not_equal(et(f, "-C eth0 rx-frames 8"), 0);
	assert_int_not_equal(et(f, "-C eth0 tx-usecs 5"), 0);
	ET_OK(f, "-C eth0 rx-usecs 0");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 0);
	/* set while down: written at open */
	dev_close(f->dev);
	ET_OK(f, "-C eth0 rx-usecs 40");
	assert_int_equal(dev_open(f->dev, NULL), 0);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 5000);
	ufx_free(f);
}

/* Changing rx-usecs under load loses no frame. */
struct et_at {
	struct sim_event ev;
	struct ufx *f;
	const char *cmd;
};

static void et_fire(struct sim *s, struct sim_event *ev)
{
	struct et_at *a = ev->arg;

	(void)s;
	ET_OK(a->f, a->cmd);
}

static void test_coalesce_under_load(void **state)
{
	static const char *const cmds[] = {
		"-C eth0 rx-usecs 5", "-C eth0 rx-usecs 200", "-C eth0 rx-usecs 30",
		"-C eth0 rx-usecs 524", "-C eth0 rx-usecs 15", "-C eth0 rx-usecs 50",
	};
	struct ufx *f = ufx_new("RTL8157");
	struct et_at at[ARRAY_SIZE(cmds)];
	struct gen g;

	(void)state;
	/* 5 Gbit/s of 800-byte frames: 824 bytes on the wire = 1318.4 ns */
	gen_start(&g, f, 0, 30000, 800, 1319);
	for (unsigned i = 0; i < ARRAY_SIZE(cmds); i++) {
		at[i].f = f;
		at[i].cmd = cmds[i];
		sim_event_init(&at[i].ev, et_fire, &at[i]);
		sim_schedule_in(&f->h.sim, &at[i].ev, 3000000 + 5000000 * (sim_time_t)i + 777 * i);
	}
	sim_run(&f->h.sim);
	check_conservation(f);
	check_in_order(f, 0, 30000);
	assert_int_equal(rtlu_rx_dropped(f->m), 0);
	assert_int_equal(dstats(f).rx_drops, 0);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 50000 / 8);
	assert_int_equal(dstats(f).rx_transfers, 2047);
	ufx_free(f);
}

/*
 * adaptive-rx: DIM moves the aggregation timer.  At 1000-byte frames
 * every 2 us (4 Gbit/s) a 1 us timer ends a transfer per frame; a longer
 * one puts more frames in each, so the transfers (DIM's events) fall as
 * the timer grows and the tuner walks up.  Each change is one work item
 * on a kworker, a live register write that loses nothing.  (At one frame
 * every 8 us, 1 and 8 us both give a transfer per frame: the tuner, a
 * hill climber with a 10 % threshold, then swings between profiles 0 and
 * 1 and never tries 64 us.)
 */
static void test_adaptive_rx(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	u64 runs = 0;
	char line[64];
	struct gen g;

	(void)state;
	ET_OK(f, "-C eth0 adaptive-rx on");
	ET_OK(f, "-c eth0");
	assert_non_null(strstr(f->outbuf, "Adaptive RX: on  TX: n/a\n"));
	assert_non_null(strstr(f->outbuf, "rx-usecs: 15\n"));     /* static */
	/* the default profile: 8 us */
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 8000 / 8);
	gen_start(&g, f, 0, 60000, 1000, 2000);
	sim_run(&f->h.sim);
	check_conservation(f);
	check_in_order(f, 0, 60000);
	assert_int_equal(rtlu_rx_dropped(f->m), 0);
	/* up to 128 us the timer ends the transfers; from there the 48 KiB
	 * buffer does (45 frames), so 128 and 256 us measure the same and
	 * the tuner swings between profiles 3 and 4 */
	assert_true(f->tp->rx_dim.profile_ix >= 3);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2),
			 net_dim_get_rx_moderation(DIM_CQ_PERIOD_MODE_START_FROM_EQE,
						   f->tp->rx_dim.profile_ix).usec * 1000 / 8);
	assert_true(dstats(f).rx_transfers < 60000 / 30);
	assert_true(f->tp->rx_dim_changes >= 4);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		runs += kern_kworker_runs(&f->h.k, cpu);
	assert_int_equal(runs, f->tp->rx_dim_changes);
	ET_OK(f, "-S eth0");
	assert_non_null(strstr(f->outbuf, "rx_dim_profile: 4\n"));
	assert_non_null(strstr(f->outbuf, "rx_dim_usecs: 256\n"));
	snprintf(line, sizeof(line), "rx_dim_changes: %llu\n",
		 (unsigned long long)f->tp->rx_dim_changes);
	assert_non_null(strstr(f->outbuf, line));
	/* off: the static 15 us again, no DIM counters */
	ET_OK(f, "-C eth0 adaptive-rx off");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 15000 / 8);
	ET_OK(f, "-S eth0");
	assert_null(strstr(f->outbuf, "rx_dim"));
	/* a profile change queued at close is cancelled, never run */
	ET_OK(f, "-C eth0 adaptive-rx on");
	f->tp->rx_dim.profile_ix = 3;
	f->tp->rx_dim.state = DIM_APPLY_NEW_PROFILE;
	assert_true(schedule_work(&f->tp->rx_dim.work));
	runs = kern_kworker_runs(&f->h.k, 0);
	dev_close(f->dev);
	assert_false(work_pending(&f->tp->rx_dim.work));
	sim_run(&f->h.sim);
	assert_int_equal(kern_kworker_runs(&f->h.k, 0), runs);
	/* reopened: a fresh tuner at 8 us */
	assert_int_equal(dev_open(f->dev, NULL), 0);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 8000 / 8);
	ufx_free(f);
}

/* TX: skbs sent before the TX tasklet runs share one bulk-out transfer
 * and reach the wire intact; with all 4 buffers in flight and a buffer's
 * worth waiting the queue stops, and the tasklet wakes it below tx_qlen.
 * TX is the tasklet's (TASKLET softirq), not NAPI's, and an skb is freed
 * once copied into its buffer (Linux r8152: tx_tl, r8152_tx_agg_fill). */
static struct sk_buff *tx_skb(struct ufx *f, u32 id, size_t len)
{
	struct sk_buff *skb = alloc_skb((unsigned)len, GFP_KERNEL);
	u8 buf[2048];

	frame_make(id, len, buf, sizeof(buf), dev_mac);
	skb_put_data(skb, buf, (unsigned)len);
	skb->dev = f->dev;
	return skb;
}

/* buffers on the free list (walked; the driver keeps no count) */
static unsigned int tx_free_count(struct r8152 *tp)
{
	unsigned int n = 0;

	for (struct tx_agg *a = tp->tx_free; a; a = a->next)
		n++;
	return n;
}

static void test_tx_aggregation(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	struct netdev_queue *txq = netdev_get_tx_queue(f->dev, 0);
	const struct rtlu_stats *ms = rtlu_stats(f->m);
	struct rtnl_link_stats64 st;

	(void)state;
	for (u32 i = 0; i < 7; i++)
		assert_int_equal(dev_queue_xmit(tx_skb(f, i, 60 + 100 * i)), 0);
	sim_run(&f->h.sim);
	assert_int_equal(ms->tx_transfers, 1);
	assert_int_equal(ms->tx_frames, 7);
	assert_int_equal(f->ntx, 7);
	/* no RX: NAPI never polled; the tasklet sent, the BH gave back */
	assert_int_equal(f->tp->napi.polls, 0);
	{
		u64 wr = 0, tr = 0, w, t;

		for (unsigned c = 0; c < f->h.host->params.ncpus; c++) {
			kern_bh_counts(&f->h.k, c, KERN_BH_LO, &w, &t);
			wr += w;
			tr += t;
		}
		assert_int_equal(tr, 1);
		assert_true(wr >= 1);
	}
	assert_false(f->tx_bad);
	for (u32 i = 0; i < 7; i++) {
		assert_int_equal(f->tx[i].id, i);
		assert_int_equal(f->tx[i].len, 60 + 100 * i);
	}
	assert_int_equal(dstats(f).tx_packets, 7);
	dev_get_stats(f->dev, &st);
	assert_int_equal(st.tx_packets, 7);
	assert_int_equal(st.tx_bytes, 7 * 60 + 100 * (0 + 1 + 2 + 3 + 4 + 5 + 6));
	assert_int_equal(dstats(f).tx_transfers, 1);
	assert_int_equal(dstats(f).tx_stops, 0);

	/* 100 full-size frames at once, before the tasklet runs: every
	 * buffer is still free, so ndo_start_xmit takes them all (Linux's
	 * r8152 stops only when no buffer is free) */
	for (u32 i = 0; i < 100; i++)
		assert_int_equal(dev_queue_xmit(tx_skb(f, 100 + i, 1514)), 0);
	assert_false(netif_tx_queue_stopped(txq));
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), 100);
	assert_int_equal(txq->q_len, 0);
	/* the first tasklet run packs four buffers of 10 (tx_qlen): all in
	 * flight, their 40 skbs already freed; 60 wait in tx_queue */
	assert_int_equal(f->tp->tx_qlen, 10);
	while (tx_free_count(f->tp))
		sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), 60);
	assert_int_equal(f->h.k.skbs_live, 60);
	/* no buffer free and more than tx_qlen waiting: the next frame is
	 * queued and stops the queue; the one after it stays in the qdisc */
	assert_int_equal(dev_queue_xmit(tx_skb(f, 200, 1514)), 0);
	assert_true(netif_tx_queue_stopped(txq));
	assert_int_equal(dstats(f).tx_stops, 1);
	assert_int_equal(dev_queue_xmit(tx_skb(f, 201, 1514)), 0);
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), 61);
	assert_int_equal(txq->q_len, 1);
	/* each completion's buffer is refilled from tx_queue; the tasklet
	 * wakes the queue once fewer than tx_qlen wait */
	sim_run(&f->h.sim);
	assert_false(netif_tx_queue_stopped(txq));
	assert_int_equal(ms->tx_frames, 109);
	/* 7, then 4 + 6 buffers of 10, then 200 and 201 one each: the
	 * tasklet packs what waits as soon as a buffer is free, and 201
	 * leaves the qdisc only at the wake */
	assert_int_equal(ms->tx_transfers, 1 + 10 + 2);
	assert_int_equal(dstats(f).tx_packets, 109);
	assert_int_equal(dstats(f).tx_drops, 0);
	assert_false(f->tx_bad);
	for (u32 i = 0; i < 100; i++)
		assert_int_equal(f->tx[7 + i].id, 100 + i);
	assert_int_equal(f->tx[107].id, 200);
	assert_int_equal(f->tx[108].id, 201);
	assert_int_equal(tx_free_count(f->tp), 4);
	ufx_free(f);
}

/* Bug 3 on the USB driver: the queue is stopped while the poll and the
 * bulk-out completions (another CPU on real hardware) drain everything;
 * if they look at the queue before the stop is visible and nothing is
 * left in flight, only the stop-then-recheck in ndo_start_xmit restarts
 * it.  The hook runs them in exactly that window. */
static void tx_race_hook(void *arg, struct netdev_queue *q)
{
	struct ufx *f = arg;

	(void)q;
	f->h.k.tx_stop_hook = NULL;
	sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 1000000);
	assert_int_equal(tx_free_count(f->tp), 4);
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), 0);
}

static void test_tx_stop_race(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	struct netdev_queue *txq = netdev_get_tx_queue(f->dev, 0);
	u32 n = 0;

	(void)state;
	/* four buffers' worth, packed and in flight: none is free */
	while (n < 40)
		assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	while (tx_free_count(f->tp))
		sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
	f->h.k.tx_stop_hook = tx_race_hook;
	f->h.k.tx_stop_hook_arg = f;
	while (f->h.k.tx_stop_hook && n < 100)
		assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	assert_null(f->h.k.tx_stop_hook);         /* the race window was hit */
	/* the stop came with the 11th frame waiting (more than tx_qlen) */
	assert_int_equal(n, 40 + 11);
	sim_run(&f->h.sim);
	assert_false(netif_tx_queue_stopped(txq));
	assert_int_equal(dstats(f).tx_packets, n);
	ufx_free(f);
}

/* The tasklet wakes a stopped queue once fewer than tx_qlen skbs wait,
 * not at tx_qlen and not only when none do (r8152_tx_agg_fill).  @wait:
 * skbs in tx_queue when the stop comes; returns how many waited at the
 * first moment the queue ran again, after checking that it stayed
 * stopped while tx_qlen or more waited. */
static u32 tx_wake_at(u32 wait)
{
	struct ufx *f = ufx_new("RTL8159");
	struct netdev_queue *txq = netdev_get_tx_queue(f->dev, 0);
	u32 n = 0, at;

	/* 40 are packed before the rest; the last one stops the queue */
	while (n < 40 + wait - 1)
		assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	while (tx_free_count(f->tp))
		sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
	assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	assert_true(netif_tx_queue_stopped(txq));
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), wait);
	while (netif_tx_queue_stopped(txq)) {
		sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
		if (netif_tx_queue_stopped(txq))
			assert_true(skb_queue_len(&f->tp->tx_queue) >= f->tp->tx_qlen ||
				    tx_free_count(f->tp) == 0);
	}
	at = skb_queue_len(&f->tp->tx_queue);
	sim_run(&f->h.sim);
	assert_int_equal(dstats(f).tx_packets, n);
	ufx_free(f);
	return at;
}

static void test_tx_wake_threshold(void **state)
{
	(void)state;
	/* 65 and 70 waiting: with all four buffers in flight the tasklet
	 * packs 10 per completion and leaves 5, or exactly tx_qlen (10):
	 * the queue runs again only below tx_qlen */
	assert_true(tx_wake_at(65) < 10);
	assert_true(tx_wake_at(70) < 10);
}

/* A bulk-out submit that fails while the queue is stopped: the buffer's
 * frames are dropped and counted, and the queue must not stay stopped
 * with free buffers and nothing in flight to reschedule the tasklet.
 * The Nth DMA mapping from the stop on fails (usb_submit_urb -ENOMEM);
 * some N hit a TX refill, whichever mapping they hit the queue runs. */
static void test_tx_submit_fail_stopped(void **state)
{
	unsigned hit = 0;

	(void)state;
	for (unsigned nth = 1; nth <= 8; nth++) {
		struct ufx *f = ufx_new("RTL8159");
		struct netdev_queue *txq = netdev_get_tx_queue(f->dev, 0);
		u32 n = 0;

		while (n < 40)
			assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
		while (tx_free_count(f->tp))
			sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
		while (!netif_tx_queue_stopped(txq))
			assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
		f->h.k.fault.dma_fail_nth = nth;
		sim_run(&f->h.sim);
		f->h.k.fault.dma_fail_nth = 0;
		hit += dstats(f).tx_urb_errors;
		/* the stack sends again; everything queued goes out */
		assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
		sim_run(&f->h.sim);
		assert_false(netif_tx_queue_stopped(txq));
		assert_int_equal(skb_queue_len(&f->tp->tx_queue), 0);
		assert_int_equal(txq->q_len, 0);
		assert_int_equal(dstats(f).tx_packets + dstats(f).tx_drops, n);
		assert_int_equal(tx_free_count(f->tp), 4);
		ufx_free(f);
	}
	assert_true(hit >= 1);
}

/* Every refill fails while the queue is stopped (the URBs refuse
 * resubmission, as after usb_poison_urb): the buffers come back in one
 * interrupt, nothing is left in flight, and more than tx_qlen frames wait.  No
 * completion will schedule the tasklet again, so the failing tasklet
 * wakes the queue: the stack's next frame finds a free buffer and the
 * tasklet tries again. */
static void test_tx_submit_fail_wakes(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	struct netdev_queue *txq = netdev_get_tx_queue(f->dev, 0);
	u32 n = 0;

	(void)state;
	/* a long IMOD: the four completions come back in one interrupt,
	 * so the first failing refill leaves nothing in flight */
	plat_usb_set_imod(f->hc, 500000);
	/* 100 before the tasklet runs: 40 packed, 60 wait; the next one
	 * stops the queue with 61 waiting */
	while (n < 100)
		assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	while (tx_free_count(f->tp))
		sim_run_until(&f->h.sim, sim_now(&f->h.sim) + 100);
	assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	assert_true(netif_tx_queue_stopped(txq));
	for (unsigned i = 0; i < RTL8152_MAX_TX; i++)
		f->tp->tx_agg[i].urb->reject = true;
	sim_run(&f->h.sim);
	assert_int_equal(tx_free_count(f->tp), 4);
	assert_true(dstats(f).tx_urb_errors >= 1);
	assert_true(skb_queue_len(&f->tp->tx_queue) > f->tp->tx_qlen);
	assert_false(netif_tx_queue_stopped(txq));
	for (unsigned i = 0; i < RTL8152_MAX_TX; i++)
		f->tp->tx_agg[i].urb->reject = false;
	assert_int_equal(dev_queue_xmit(tx_skb(f, n++, 1514)), 0);
	sim_run(&f->h.sim);
	assert_int_equal(skb_queue_len(&f->tp->tx_queue), 0);
	assert_int_equal(txq->q_len, 0);
	assert_false(netif_tx_queue_stopped(txq));
	assert_int_equal(dstats(f).tx_packets + dstats(f).tx_drops, n);
	ufx_free(f);
}

/* 0xcf04: left at its reset value by default; bits 0, 1, 2, 7 cleared
 * with mitigation_off (research s2).  Same traffic, more transfers. */
static u64 mitigation_run(bool off, u32 *reg)
{
	struct ufx *f;
	struct gen g;
	u64 transfers;

	/* no module parameter: set between probe and open, as the CLI's
	 * usb.mitigation = off does */
	f = ufx_new_chip(4, usb_chip("RTL8159"), NULL);
	f->tp->mitigation_off = off;
	assert_int_equal(dev_open(f->dev, NULL), 0);
	*reg = usb_reg(f, RTLU_USB_INT_MITIGATION, 1);
	assert_int_equal(rtlu_stats(f->m)->mitigation, !off);
	/* 1 Gbit/s of 1514-byte frames: one every 12.3 us */
	gen_start(&g, f, 0, 2000, 1514, 12304);
	sim_run(&f->h.sim);
	check_conservation(f);
	check_in_order(f, 0, 2000);
	transfers = dstats(f).rx_transfers;
	ufx_free(f);
	return transfers;
}

static void test_mitigation(void **state)
{
	u32 on_reg, off_reg;
	u64 on = mitigation_run(false, &on_reg);
	u64 off = mitigation_run(true, &off_reg);

	(void)state;
	assert_int_equal(on_reg, RTLU_INT_MIT_RESET);
	assert_int_equal(off_reg, RTLU_INT_MIT_RESET & ~RTLU_INT_MIT_MASK);
	/* 1 Gbit/s, 12.3 us apart: with the 15 us timer every second frame
	 * shares a transfer; with the 640 ns early timeout none does */
	assert_int_equal(on, 1000);
	assert_int_equal(off, 2000);
}

/* Close and reopen in the middle of 5 Gbit/s: every frame is delivered,
 * counted by the driver at close (rx_purged), or counted by the model
 * (cancelled transfers, receiver off). */
static void close_fire(struct sim *s, struct sim_event *ev)
{
	struct ufx *f = ev->arg;

	(void)s;
	dev_close(f->dev);
	assert_int_equal(f->h.k.skbs_live, 0);
	assert_int_equal(dev_open(f->dev, NULL), 0);
}

static void test_close_under_load(void **state)
{
	struct ufx *f = ufx_new("RTL8157");
	struct sim_event ev[5];
	const struct rtlu_stats *ms = rtlu_stats(f->m);
	struct gen g;

	(void)state;
	gen_start(&g, f, 0, 20000, 800, 1319);
	for (unsigned i = 0; i < ARRAY_SIZE(ev); i++) {
		sim_event_init(&ev[i], close_fire, f);
		sim_schedule_in(&f->h.sim, &ev[i], 2000000 + 4000000 * (sim_time_t)i + 3331 * i);
	}
	sim_run(&f->h.sim);
	check_conservation(f);
	/* what was lost, was lost at the closes, and counted */
	assert_int_equal(f->offered, f->nrec + dstats(f).rx_purged + ms->rx_cancelled +
			 ms->rx_disabled + ms->rx_fifo_over + ms->rx_reset);
	if (getenv("R8152_DEBUG"))
		fprintf(stderr, "close: nrec %zu purged %lu cancelled %lu disabled %lu fifo %lu reset %lu\n",
			f->nrec, dstats(f).rx_purged, ms->rx_cancelled, ms->rx_disabled,
			ms->rx_fifo_over, ms->rx_reset);
	assert_int_equal(f->nrec, 19867);
	assert_int_equal(dstats(f).rx_purged, 84);	/* polled too late */
	assert_int_equal(ms->rx_cancelled, 49);		/* in killed URBs */
	for (size_t i = 1; i < f->nrec; i++)
		assert_true(f->recs[i].id > f->recs[i - 1].id);
	ufx_free(f);
}

/*
 * ethtool -S of mainline r8152 prints these first, in this order
 * (rtl8152_gstrings in drivers/net/usb/r8152.c, Linux 6.18, read in
 * linux-6.18.y): the adapter's tally, read from PLA_TALLYCNT.
 */
static const char *const mainline_r8152_tally[13] = {
	"tx_packets", "rx_packets", "tx_errors", "rx_errors", "rx_missed",
	"align_errors", "tx_single_collisions", "tx_multi_collisions",
	"rx_unicast", "rx_broadcast", "rx_multicast", "tx_aborted", "tx_underrun",
};

static struct sk_buff *tx_skb(struct ufx *f, u32 id, size_t len);

/*
 * Known traffic, exact counts: 23 unicast, 4 broadcast and 6 multicast
 * frames delivered, 3 for another station (filtered), then 100 full-size
 * frames at once into the 64 KiB RX FIFO: 42 fit, 58 are missed; 17
 * sent.  The driver reset the tally at probe: a second probe on the same
 * adapter starts again from zero.
 */
static void test_tally_stats(void **state)
{
	static const u8 bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb };
	static const u8 other[6] = { 0x00, 0xe0, 0x4c, 0x68, 0x00, 0x02 };
	struct ufx *f = ufx_new("RTL8157");
	const struct rtlu_stats *ms = rtlu_stats(f->m);
	u32 id = 0;
	u8 buf[2048];

	(void)state;
	for (unsigned i = 0; i < 36; i++) {
		const u8 *dmac = i < 23 ? dev_mac : i < 27 ? bc : i < 33 ? mc : other;
		size_t n = frame_make(id++, 200, buf, sizeof(buf), dmac);

		f->offered++;
		rtlu_eth_rx(f->m, buf, n);
	}
	sim_run(&f->h.sim);
	for (unsigned i = 0; i < 100; i++)
		send_frame(f, id++, 1514);
	sim_run(&f->h.sim);
	for (u32 i = 0; i < 17; i++)
		assert_int_equal(dev_queue_xmit(tx_skb(f, i, 100)), 0);
	sim_run(&f->h.sim);
	assert_int_equal(ms->rx_fifo_over, 58);
	assert_int_equal(ms->rx_filtered, 3);
	assert_int_equal(f->ntx, 17);
	check_conservation(f);

	ET_OK(f, "-S eth0");
	tu_stat_order(f->outbuf, mainline_r8152_tally, 13, "rx_queue_0_packets");
	assert_int_equal(tu_stat(f->outbuf, "tx_packets"), 17);
	assert_int_equal(tu_stat(f->outbuf, "rx_packets"), 23 + 4 + 6 + 42);
	assert_int_equal(tu_stat(f->outbuf, "tx_errors"), 0);
	assert_int_equal(tu_stat(f->outbuf, "rx_errors"), 0);
	assert_int_equal(tu_stat(f->outbuf, "rx_missed"), 58);
	assert_int_equal(tu_stat(f->outbuf, "align_errors"), 0);
	assert_int_equal(tu_stat(f->outbuf, "tx_single_collisions"), 0);
	assert_int_equal(tu_stat(f->outbuf, "tx_multi_collisions"), 0);
	assert_int_equal(tu_stat(f->outbuf, "rx_unicast"), 23 + 42);
	assert_int_equal(tu_stat(f->outbuf, "rx_broadcast"), 4);
	assert_int_equal(tu_stat(f->outbuf, "rx_multicast"), 6);
	assert_int_equal(tu_stat(f->outbuf, "tx_aborted"), 0);
	assert_int_equal(tu_stat(f->outbuf, "tx_underrun"), 0);
	/* the driver's own, after them */
	assert_int_equal(tu_stat(f->outbuf, "rx_queue_0_packets"), 75);
	assert_int_equal(tu_stat(f->outbuf, "tx_queue_0_packets"), 17);

	/* unbind and bind again: probe resets the tally */
	kern_usb_disconnect(kmod_r8152_usb_driver, &f->intf);
	kern_usb_dev_init(&f->udev, &f->intf, rtlu_usb(f->m), "2-1");
	assert_int_equal(kern_usb_probe(kmod_r8152_usb_driver, &f->intf), 0);
	f->dev = r8152_netdev(&f->intf);
	f->tp = netdev_priv(f->dev);
	ET_OK(f, "-S eth0");
	assert_int_equal(tu_stat(f->outbuf, "rx_packets"), 0);
	assert_int_equal(tu_stat(f->outbuf, "rx_missed"), 0);
	assert_int_equal(tu_stat(f->outbuf, "tx_packets"), 0);
	ufx_free(f);
}

/* -S names and -g/-G */
static void test_ethtool_stats_rings(void **state)
{
	struct ufx *f = ufx_new("RTL8157");
	struct gen g;

	(void)state;
	gen_start(&g, f, 0, 500, 1000, 2000);
	sim_run(&f->h.sim);
	ET_OK(f, "-S eth0");
	assert_non_null(strstr(f->outbuf, "     rx_packets: 500\n"));
	assert_non_null(strstr(f->outbuf, "     rx_queue_0_packets: 500\n"));
	assert_non_null(strstr(f->outbuf, "     rx_queue_0_drops: 0\n"));
	assert_non_null(strstr(f->outbuf, "     rx_transfers: 63\n"));
	assert_non_null(strstr(f->outbuf, "     rx_transfer_frames: 500\n"));
	ET_OK(f, "-g eth0");
	assert_non_null(strstr(f->outbuf, "RX:\t\t10\n"));
	ET_OK(f, "-G eth0 rx 4");
	assert_int_not_equal(et(f, "-G eth0 rx 11"), 0);
	assert_int_not_equal(et(f, "-G eth0 rx 1"), 0);
	gen_start(&g, f, 500, 500, 1000, 2000);
	sim_run(&f->h.sim);
	/* the URBs beyond 4 were not resubmitted after their transfer */
	assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 4);
	check_conservation(f);
	check_in_order(f, 0, 1000);
	ufx_free(f);
}

/* Finding: -G with a failing allocation closed the interface, applied
 * the new count and could not reopen: every frame after it was dropped.
 * Now the URB count changes on the running interface (mainline r8152
 * changes rx_pending with NAPI paused, nothing reallocated); a URB whose
 * submission fails (its DMA mapping) takes back the ones submitted with
 * it, keeps the old count and the interface up. */
static void test_rings_enomem(void **state)
{
	struct ufx *f = ufx_new("RTL8157");
	unsigned failed = 0, applied = 0;
	struct gen g;
	u32 id = 0;

	(void)state;
	for (unsigned nth = 1; nth < 12; nth++) {
		unsigned before = f->tp->rx_pending;
		const char *cmd = before == 10 ? "-G eth0 rx 3" : "-G eth0 rx 10";
		int rc;

		f->h.k.fault.urb_fail_nth = nth;
		f->h.k.fault.dma_fail_nth = nth;
		rc = et(f, cmd);
		f->h.k.fault.urb_fail_nth = 0;
		f->h.k.fault.dma_fail_nth = 0;
		assert_true(netif_running(f->dev));
		assert_true(netif_carrier_ok(f->dev));
		if (rc) {
			failed++;
			assert_non_null(strstr(f->errbuf, "Cannot allocate memory"));
			assert_int_equal(f->tp->rx_pending, before);
		} else {
			applied++;
			assert_int_not_equal(f->tp->rx_pending, before);
		}
		gen_start(&g, f, id, 100, 1000, 2000);
		sim_run(&f->h.sim);
		id += 100;
		/* URBs beyond a smaller count ended with the traffic */
		assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued,
				 f->tp->rx_pending);
	}
	assert_true(failed >= 5 && applied >= 5);
	check_conservation(f);
	check_in_order(f, 0, id);
	ufx_free(f);
}

/* -C whose register write fails (the device STALLs the control request)
 * returns the error and keeps the old timer, in the driver and the
 * device alike; with adaptive-rx, the old mode too. */
static void test_coalesce_write_fails(void **state)
{
	struct ufx *f = ufx_new("RTL8159");

	(void)state;
	ET_OK(f, "-C eth0 rx-usecs 30");
	rtlu_faults(f->m)->ctrl_stall_next = 1;
	assert_int_not_equal(et(f, "-C eth0 rx-usecs 100"), 0);
	assert_non_null(strstr(f->errbuf, "Broken pipe"));
	ET_OK(f, "-c eth0");
	assert_non_null(strstr(f->outbuf, "rx-usecs: 30\n"));
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 30000 / 8);
	ET_OK(f, "-C eth0 rx-usecs 100");
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 100000 / 8);
	/* adaptive-rx on, refused: still off, the static timer in place */
	rtlu_faults(f->m)->ctrl_stall_next = 1;
	assert_int_not_equal(et(f, "-C eth0 adaptive-rx on"), 0);
	assert_false(f->tp->adaptive_rx);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 100000 / 8);
	/* on, at a profile DIM chose (64 us) with its change still queued;
	 * off, refused: still on, that profile and its queued change kept */
	ET_OK(f, "-C eth0 adaptive-rx on");
	f->tp->rx_dim.profile_ix = 2;
	f->tp->rx_dim.state = DIM_APPLY_NEW_PROFILE;
	assert_true(schedule_work(&f->tp->rx_dim.work));
	rtlu_faults(f->m)->ctrl_stall_next = 1;
	assert_int_not_equal(et(f, "-C eth0 adaptive-rx off"), 0);
	assert_true(f->tp->adaptive_rx);
	assert_true(work_pending(&f->tp->rx_dim.work));
	sim_run(&f->h.sim);
	assert_int_equal(f->tp->rx_dim.state, DIM_START_MEASURE);
	assert_int_equal(usb_reg(f, RTLU_USB_RX_EXTRA_AGGR_TMR, 2), 64000 / 8);
	ufx_free(f);
}

/* USB transfer errors: every 7th bulk-in transfer ends in -EPROTO.  Its
 * frames are lost and the device counts them; the driver counts the
 * errored URB and resubmits it, and reception goes on. */
static void test_xfer_errors(void **state)
{
	struct ufx *f = ufx_new("RTL8159");
	const struct rtlu_stats *ms = rtlu_stats(f->m);
	struct gen g;

	(void)state;
	rtlu_faults(f->m)->rx_xfer_error_every = 7;
	gen_start(&g, f, 0, 5000, 800, 1000);
	sim_run(&f->h.sim);
	assert_true(ms->rx_xfer_error > 0);
	assert_int_equal(dstats(f).rx_urb_errors, (ms->rx_transfers + dstats(f).rx_urb_errors) / 7);
	assert_int_equal(f->nrec + ms->rx_xfer_error, 5000);
	assert_int_equal(rtlu_usb(f->m)->ep_in[RTLU_EP_BULK_IN].queued, 10);
	check_conservation(f);
	ufx_free(f);
}

/* Same inputs, same results, to the nanosecond. */
static u64 digest_run(void)
{
	struct ufx *f = ufx_new("RTL8159");
	struct gen g;
	u64 h = 1469598103934665603ull;

	gen_start(&g, f, 0, 5000, 700, 900);
	for (u32 i = 0; i < 30; i++)
		assert_int_equal(dev_queue_xmit(tx_skb(f, 9000 + i, 1514)), 0);
	sim_run(&f->h.sim);
	check_conservation(f);
	for (size_t i = 0; i < f->nrec; i++)
		h = (h ^ (f->recs[i].t * 31 + f->recs[i].id)) * 1099511628211ull;
	h = (h ^ dstats(f).rx_transfers) * 1099511628211ull;
	h = (h ^ f->h.sim.trace) * 1099511628211ull;
	ufx_free(f);
	return h;
}

static void test_determinism(void **state)
{
	(void)state;
	assert_int_equal(digest_run(), digest_run());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_table),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_unknown_id),
		cmocka_unit_test(test_open_close),
		cmocka_unit_test(test_rx_many),
		cmocka_unit_test(test_rx_budget),
		cmocka_unit_test(test_rx_truncated),
		cmocka_unit_test(test_coalesce_units),
		cmocka_unit_test(test_coalesce_under_load),
		cmocka_unit_test(test_adaptive_rx),
		cmocka_unit_test(test_tx_aggregation),
		cmocka_unit_test(test_tx_stop_race),
		cmocka_unit_test(test_tx_submit_fail_stopped),
		cmocka_unit_test(test_tx_submit_fail_wakes),
		cmocka_unit_test(test_tx_wake_threshold),
		cmocka_unit_test(test_mitigation),
		cmocka_unit_test(test_close_under_load),
		cmocka_unit_test(test_ethtool_stats_rings),
		cmocka_unit_test(test_tally_stats),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_rings_enomem),
		cmocka_unit_test(test_coalesce_write_fails),
		cmocka_unit_test(test_xfer_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
