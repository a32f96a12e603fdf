/* SPDX-License-Identifier: MIT */
/*
 * bed_world.h - the testbed: the simulated system a typed scenario
 * (bed_scenario.h) describes, built in one call: host CPUs, the kernel
 * API, one NIC (a device model and its driver), and the attachments a
 * run adds: the wire, the workloads (iperf3, ping, busy tasks, the host's
 * receive dispatch) and the replay sink.
 *
 * The NIC is either a PCIe chip (rtlm model + r8169-style driver) or a USB
 * adapter (xHCI model + rtlu model + r8152-style driver), chosen by the
 * chip row's name (nic.chip).  The rest sees it only through struct
 * bed_nic_ops (bed_nic.c): bring up and down, the port the wire plugs
 * into, per-queue counters and drop reasons.  The scenario's fault.* keys
 * are applied by bed_faults.c.
 *
 * Errors are printed as one line "rxscale: ..." (bed_util.h).
 */
#ifndef RXSCALE_BED_WORLD_H
#define RXSCALE_BED_WORLD_H

#include <stdio.h>

#include <linux/pci.h>
#include <linux/usb.h>

#include "bed/bed_util.h"
#include "bed/bed_drop.h"
#include "bed/bed_scenario.h"
#include "drv/r8152/r8152.h"
#include "drv/r8169/r8169.h"
#include "kern/kern.h"
#include "load/load_busy.h"
#include "load/load_host.h"
#include "load/load_iperf3.h"
#include "load/load_ping.h"
#include "load/load_wire.h"
#include "model/rtlm.h"
#include "model/rtlu.h"
#include "plat/plat_usb.h"
#include "rss/rss_hash.h"
#include "rss/rss_indir.h"
#include "rss/rss_toeplitz.h"
#include "sim/sim_cost.h"
#include "sim/sim_host.h"

/* Distinct flows per queue: an open-addressing set of 64-bit flow keys. */
struct bed_flowset {
	uint64_t *slot;
	size_t cap, n;
};

struct bed_world;

/* What `rxscale run` needs of a NIC, PCIe or USB. */
struct bed_nic_ops {
	const char *bus;                        /* "pci" or "usb" */
	/* create the model, probe the driver, open eth0: w->dev set.
	 * 0, or -1 with the error printed */
	int (*up)(struct bed_world *w);
	void (*down)(struct bed_world *w);
	const char *(*chip_name)(const struct bed_world *w);
	uint32_t (*mbps)(const struct bed_world *w);        /* Ethernet line rate */
	unsigned (*nqueues)(const struct bed_world *w);     /* RX queues in use */
	bool (*rss_on)(const struct bed_world *w);
	void (*queue)(const struct bed_world *w, unsigned q, u64 *packets,
		      u64 *bytes, u64 *drops);
	/* every device and driver drop reason; returns how many */
	unsigned (*drop_reasons)(const struct bed_world *w, struct bed_drop_reason *d);
	/* frames inside the model, or in host memory the driver did not take */
	u64 (*model_inflight)(const struct bed_world *w);
	/* frames the driver took to send that the device has not put on
	 * the wire; *@drops: those the driver or the device dropped on the
	 * way out (a ring or buffer freed unsent, sent with the link down) */
	u64 (*tx_inflight)(const struct bed_world *w, u64 *drops);
	struct load_wire_nic (*port)(struct bed_world *w);
	/* interrupts the host took for this NIC so far */
	u64 (*interrupts)(const struct bed_world *w);
	/* the PHY reports link up or down (fault.link_flap_every) */
	void (*set_link)(struct bed_world *w, bool up);
};

/* The NIC kind for chip row @name ("RTL8127A", "RTL8159"), or NULL. */
const struct bed_nic_ops *bed_nic_for_chip(const char *name);
/* The PCIe chip row named @name, a real or a what-if one, or NULL. */
const struct rtl_chip_info *bed_pci_chip(const char *name);

struct bed_world {
	struct bed_scenario scn;
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct kern k;
	const struct bed_nic_ops *nic;
	/* PCIe */
	const struct rtl_chip_info *chip;
	struct rtlm_dev *m;
	struct pci_dev pdev;
	struct rtl8169_private *tp;
	/* USB */
	const struct rtl_usb_chip_info *uchip;
	struct plat_usb_hc *hc;
	struct rtlu_dev *u;
	struct usb_device udev;
	struct usb_interface intf;
	struct r8152 *utp;
	bool usb_bound;
	/* the devices' oscillators, drawn from the seed (clock.drift) */
	struct sim_clock clk_xhci, clk_nic, clk_peer;
	/* the interface either way */
	struct net_device *dev;
	/* replay sink */
	u64 q_frames[RTL_MAX_RX_QUEUES], q_bytes[RTL_MAX_RX_QUEUES];
	struct bed_flowset q_flows[RTL_MAX_RX_QUEUES];
	u64 delivered, mismatches, hashed;
	struct rss_thash key;
	struct rss_indir indir;
	struct rss_cfg cfg;
	bool rss_on;
	/* iperf3 run */
	struct load_wire wire;
	bool wire_up;
	struct iperf3 ip;
	bool ip_up;
	struct ping pg;
	bool pg_up;
	struct load_busy busy;          /* host.busy_tasks */
	struct load_host lh;
	bool compare;
	/* --compare: the --set assignments that changed the scenario's setup
	 * (all but run.seed), ", "-separated; "" when it ran as written */
	char compare_sets[256];
	/* --compare: the reference run of a row that relates two runs
	 * (bed_compare_row.ref), run before this world comes up */
	struct {
		bool have;
		char set[64];           /* what it changed: "iperf3.streams=1" */
		double gbps_mean;
		double ping_avg_ms;     /* -1: no ping reply */
	} ref;
	/* fault.link_flap_every: the next change of the link */
	struct sim_event flap_ev;
	bool flap_down;
	u64 link_flaps;
	/* the command line's timeline (timeline.at, --at) and chaos while a
	 * workload runs, opaque here: attached and freed by its owner */
	void *tl;
	/* ethtool.cmd/--ethtool queries that failed (the run went on) */
	unsigned failed_queries;
	/* the RX queues the driver set up at probe, before any ethtool
	 * command (set by the world's user; the run header's) */
	unsigned probe_queues;
};

/* bed_world.c: create the system of @w->scn (0, or -1 with the error
 * printed); tear down whatever is up (the caller frees its own
 * attachments first); run the scenario's ethtool commands (@out NULL:
 * output discarded). */
int bed_world_up(struct bed_world *w);
void bed_world_down(struct bed_world *w);
int bed_world_ethtool(struct bed_world *w, FILE *out);
/* Is @args an ethtool command line ethtool_cmd_run() would accept for
 * @w's interface (syntax and device name)?  0, or -1 with *@msg set to
 * ethtool's error on one line (malloc'd, the caller frees it). */
int bed_world_ethtool_check(struct bed_world *w, const char *args, char **msg);

/* bed_faults.c: the fault.* keys.  Check that the NIC has them (0, or -1
 * with the error printed); set those that act at probe; arm the rest when
 * the workload starts (the Nth-call knobs count from there). */
int bed_faults_check(const struct bed_world *w);
void bed_faults_probe(struct bed_world *w);
void bed_faults_arm(struct bed_world *w);

#endif /* RXSCALE_BED_WORLD_H */
