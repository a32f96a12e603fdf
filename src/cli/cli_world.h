/* SPDX-License-Identifier: MIT */
/*
 * cli_world.h - the simulated system `rxscale run` builds: host CPUs, the
 * kernel API, one NIC (a device model and its driver) and the workloads.
 *
 * The NIC is either a PCIe chip (rtlm model + r8169-style driver) or a USB
 * adapter (xHCI model + rtlu model + r8152-style driver), chosen by the
 * chip row's name (nic.chip).  The rest of `rxscale run` sees it only
 * through struct cli_nic_ops (cli_nic.c): bring up and down, the port
 * the wire plugs into, per-queue counters and drop reasons.
 */
#ifndef RXSCALE_CLI_WORLD_H
#define RXSCALE_CLI_WORLD_H

#include "cli/cli.h"
#include "cli/scenario.h"
#include "drv/r8152.h"
#include "drv/r8169.h"
#include "kern/kern.h"
#include "kern/pci.h"
#include "kern/usb.h"
#include "load/load_busy.h"
#include "load/load_host.h"
#include "load/load_iperf3.h"
#include "load/load_ping.h"
#include "load/load_wire.h"
#include "model/rtlm.h"
#include "model/rtlu.h"
#include "plat/plat_usb.h"
#include "report/report.h"
#include "rss/rss_hash.h"
#include "rss/rss_indir.h"
#include "rss/rss_toeplitz.h"
#include "sim/sim_cost.h"
#include "sim/sim_host.h"

/* Distinct flows per queue: an open-addressing set of 64-bit flow keys. */
struct flowset {
	uint64_t *slot;
	size_t cap, n;
};

struct world;
struct cli_timeline;

/* What `rxscale run` needs of a NIC, PCIe or USB. */
struct cli_nic_ops {
	const char *bus;                        /* "pci" or "usb" */
	/* create the model, probe the driver, open eth0: w->dev set.
	 * 0, or -1 with the error printed */
	int (*up)(struct world *w);
	void (*down)(struct world *w);
	const char *(*chip_name)(const struct world *w);
	uint32_t (*mbps)(const struct world *w);        /* Ethernet line rate */
	unsigned (*nqueues)(const struct world *w);     /* RX queues in use */
	bool (*rss_on)(const struct world *w);
	void (*queue)(const struct world *w, unsigned q, u64 *packets,
		      u64 *bytes, u64 *drops);
	/* every device and driver drop reason; returns how many */
	unsigned (*drop_reasons)(const struct world *w, struct drop_reason *d);
	/* frames inside the model, or in host memory the driver did not take */
	u64 (*model_inflight)(const struct world *w);
	/* frames the driver took to send that the device has not put on
	 * the wire; *@drops: those the driver or the device dropped on the
	 * way out (a ring or buffer freed unsent, sent with the link down) */
	u64 (*tx_inflight)(const struct world *w, u64 *drops);
	struct load_wire_nic (*port)(struct world *w);
	/* interrupts the host took for this NIC so far */
	u64 (*interrupts)(const struct world *w);
	/* the PHY reports link up or down (fault.link_flap_every) */
	void (*set_link)(struct world *w, bool up);
};

/* The NIC kind for chip row @name ("RTL8127A", "RTL8159"), or NULL. */
const struct cli_nic_ops *cli_nic_for_chip(const char *name);
/* The PCIe chip row named @name, a real or a what-if one, or NULL. */
const struct rtl_chip_info *cli_pci_chip(const char *name);

struct world {
	struct scenario scn;
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct kern k;
	const struct cli_nic_ops *nic;
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
	/* the interface either way */
	struct net_device *dev;
	/* replay sink */
	u64 q_frames[RTL_MAX_RX_QUEUES], q_bytes[RTL_MAX_RX_QUEUES];
	struct flowset q_flows[RTL_MAX_RX_QUEUES];
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
	 * (compare_row.ref), run before this world comes up */
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
	/* the timeline (timeline.at, --at) and chaos, while a workload runs */
	struct cli_timeline *tl;
	/* ethtool.cmd/--ethtool queries that failed (the run went on) */
	unsigned failed_queries;
};

/* cli_world.c: create the system of @w->scn (0, or -1 with the error
 * printed); tear down whatever is up; run the scenario's ethtool
 * commands (@out NULL: output discarded); the report's common part. */
int cli_world_up(struct world *w);
void cli_world_down(struct world *w);
int cli_world_ethtool(struct world *w, FILE *out);
/* Is @args an ethtool command line ethtool_cmd_run() would accept for
 * @w's interface (syntax and device name)?  0, or -1 with *@msg set to
 * ethtool's error on one line (malloc'd, the caller frees it). */
int cli_world_ethtool_check(struct world *w, const char *args, char **msg);
void cli_world_report(struct world *w, struct rpt_run *r);

/*
 * cli_iperf3.c: run the iperf3/ping workload on @w and print its report
 * (text, or JSON); with @pt, fill the sweep point and print nothing.
 * The exit status: 0; 1 when a frame went unaccounted, or chaos found a
 * stall beyond its bound or a rejected command that changed settings; 3
 * when a timeline command was rejected (the run went on); or -1 with the
 * error printed.
 */
int cli_run_iperf3(struct world *w, bool json, struct cli_sweep_point *pt);

/* cli_iperf3.c: with --compare, run the reference run the scenario's rows
 * ask for (none, or @w->scn with one key changed) into @w->ref, before
 * @w's own world comes up (one world at a time: the kernel API has one
 * instance).  0, or -1 with the error printed. */
int cli_compare_reference(struct world *w);

/* cli_replay.c: replay @w->scn.pcap into the NIC and report; the exit
 * status (1: a queue mismatch, a frame uncounted, or a bad capture). */
int cli_run_replay(struct world *w, bool json);

/* cli_faults.c: the fault.* keys.  Check that the NIC has them (0, or -1
 * with the error printed); set those that act at probe; arm the rest when
 * the workload starts (the Nth-call knobs count from there). */
int cli_faults_check(const struct world *w);
void cli_faults_probe(struct world *w);
void cli_faults_arm(struct world *w);

/* cli_timeline.c: the timeline and chaos of a run.  Check the commands'
 * syntax up front (0, or -1 with ethtool's message and the entry named);
 * start it when the workload starts; after the run, fill the report's
 * timeline block.  Returns from _report how many commands failed. */
int cli_timeline_check(struct world *w);
int cli_timeline_start(struct world *w);
unsigned cli_timeline_report(struct world *w, struct rpt_run *r);
void cli_timeline_free(struct world *w);

/* How a sweep runs and prints (rxscale run's options). */
struct cli_sweep_opts {
	const char *plot;               /* --plot FILE, or NULL */
	bool json;                      /* --json: one document, no table */
	unsigned jobs;                  /* -j N: points in N processes */
	const char *emit;               /* --emit parallel|slurm, or NULL */
	const char *emit_dir;           /* --emit-dir: the points' JSON files */
	int point;                      /* --point I: only point I (-1: all) */
	const char *point_json;         /* with --point: where its JSON goes */
	/* for --emit: the run's arguments that say the scenario and the
	 * sweep (scenario file, --set, --ethtool, --preset, --seed, --pcap,
	 * --sweep), which every point's command repeats */
	int argc;
	char **argv;
};

/* cli_sweep.c: --sweep @spec over @base as @o says; the exit status.
 * With regimes: in each regime of @pre (the scenario before the --set
 * overrides @sets, which apply after each regime's own), in this process,
 * with an optional --plot. */
int cli_run_sweep(const struct scenario *base, const char *spec,
		  const struct cli_sweep_opts *o);
int cli_run_regime_sweep(const struct scenario *pre, const char *const *sets,
			 unsigned nsets, const char *spec, const char *plot);

#endif /* RXSCALE_CLI_WORLD_H */
