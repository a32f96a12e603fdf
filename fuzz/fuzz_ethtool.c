/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ethtool.c - libFuzzer target for the ethtool command line, the
 * kernel-core checks and the driver's ethtool_ops, on the driver running
 * on the device model.  Each input is one command line (its first byte
 * picks the option, the rest is the argument text after "eth0"; the
 * second byte, when its top bit is set, makes a DMA allocation during the
 * command fail).  The command runs while traffic flows: a burst of frames
 * at 2 Mpps is on its way through the device and the driver when it is
 * applied, as a user's command meets a loaded interface.  Nothing may
 * crash, the napi contract must hold, the interface must stay up, and
 * every frame must stay accounted for: model offered = model delivered +
 * model drops, and model delivered = driver packets + driver drops.  The
 * device persists across inputs, so configurations accumulate as they
 * would on a real system.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bed/bed_world.h"
#include "drv/r8169/r8169.h"
#include "ethtool/ethtool_cmd.h"
#include "model/rtlm.h"
#include "net/net_build.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static struct {
	struct bed_world w;	/* the testbed: host, kernel, NIC, eth0 up */
	bool up;
	FILE *null;
	u64 offered, hooked;
	u8 frame[128];
	size_t frame_len;
	/* the burst, and the command applied in its middle */
	struct sim_event gen_ev, cmd_ev;
	unsigned burst_left;
	char cmd[512];
	unsigned dma_fail_nth;
} fx;

#define BURST 64
#define GAP_NS 500		/* 2 Mpps */

static void gen_fn(struct sim *s, struct sim_event *ev)
{
	fx.frame[14 + 12] = (u8)fx.burst_left;  /* vary the IPv4 source */
	fx.offered++;
	rtlm_eth_rx(fx.w.m, fx.frame, fx.frame_len);
	if (--fx.burst_left)
		sim_schedule_in(s, ev, GAP_NS);
}

static void cmd_fn(struct sim *s, struct sim_event *ev)
{
	(void)s;
	(void)ev;
	fx.w.k.fault.dma_fail_nth = fx.dma_fail_nth;
	(void)ethtool_cmd_run(fx.w.dev, fx.cmd, fx.null, fx.null);
	fx.w.k.fault.dma_fail_nth = 0;
}

static void hook(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	(void)napi;
	(void)data;
	fx.hooked++;
	consume_skb(skb);
}

/* The first chip row on 4 CPUs, seed 1, probed and up (bed_world_up). */
static void setup(void)
{
	struct net_build b;

	bed_scenario_default(&fx.w.scn);
	snprintf(fx.w.scn.chip, sizeof(fx.w.scn.chip), "%s", rtl_chips[0].name);
	fx.w.scn.cpus = 4;
	fx.w.scn.seed = 1;
	CHECK(!bed_world_up(&fx.w));
	fx.up = true;
	kern_netdev_set_rx_handler(fx.w.dev, hook, NULL, NULL);
	dev_set_promiscuity(fx.w.dev, 1);
	fx.null = fopen("/dev/null", "w");
	sim_event_init(&fx.gen_ev, gen_fn, NULL);
	sim_event_init(&fx.cmd_ev, cmd_fn, NULL);
	net_build_init(&b);
	b.ipv = 4;
	b.proto = 6;
	b.payload_len = 32;
	fx.frame_len = (size_t)net_build_frame(&b, fx.frame, sizeof(fx.frame));
}

/* Driver counters: per queue, kept by each queue across reconfigurations. */
static void ring_totals(u64 *pk, u64 *dr)
{
	struct rtl8169_private *tp = netdev_priv(fx.w.dev);

	*pk = *dr = 0;
	for (unsigned q = 0; q < R8169_MAX_RX_QUEUES; q++) {
		*pk += u64_stats_read(&tp->rx_ring[q].stats.packets);
		*dr += u64_stats_read(&tp->rx_ring[q].stats.drops);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opts[] = {
		"-l", "-L", "-x", "-X", "-n", "-N", "-c", "-C", "-g", "-G", "-S",
		"-u", "-U", "--show-rxfh", "--set-rxfh-indir",
	};
	size_t n;
	u64 pk, dr, ok = 0;
	const struct rtlm_stats *ms;
	sim_time_t now;

	if (!fx.up)
		setup();
	if (!size)
		return 0;
	n = (size_t)snprintf(fx.cmd, sizeof(fx.cmd), "%s %s ",
			     opts[data[0] % (sizeof(opts) / sizeof(opts[0]))],
			     data[0] & 0x80 ? "eth1" : fx.w.dev->name);
	fx.dma_fail_nth = size > 1 && data[1] & 0x80 ? 1 + (data[1] & 0x3f) : 0;
	for (size_t i = 1; i < size && n < sizeof(fx.cmd) - 1; i++)
		fx.cmd[n++] = data[i] ? (char)data[i] : ' ';
	fx.cmd[n] = 0;
	/* the burst, with the command when about half of it is in */
	now = sim_now(&fx.w.sim);
	fx.burst_left = BURST;
	sim_schedule_at(&fx.w.sim, &fx.gen_ev, now);
	sim_schedule_at(&fx.w.sim, &fx.cmd_ev, now + GAP_NS * (BURST / 2) + (data[0] & 7) * 61);
	sim_run(&fx.w.sim);
	CHECK(netif_running(fx.w.dev) && netif_carrier_ok(fx.w.dev));
	ms = rtlm_stats(fx.w.m);
	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		ok += ms->rx_ok[q];
	CHECK(ms->rx_offered == fx.offered);
	CHECK(ms->rx_offered == ok + rtlm_rx_dropped(fx.w.m) + ms->rx_inflight);
	ring_totals(&pk, &dr);
	CHECK(ok == pk + dr);
	CHECK(fx.hooked == pk);
	CHECK(!fx.w.k.warn.napi_over_budget && !fx.w.k.warn.napi_not_completed &&
	      !fx.w.k.warn.napi_complete_at_budget && !fx.w.k.warn.napi_budget0_work &&
	      !fx.w.k.warn.napi_sched_disabled);
	return 0;
}
