/* SPDX-License-Identifier: MIT */
/*
 * scenario.h - a run's description: INI scenario files (inih), like fio
 * job files, plus `--set section.key=value` overrides.
 *
 * Keys (section.key = default):
 *   run.duration = 10        simulated seconds (iperf3-style runs)
 *   run.seed = 1             seed of every random stream
 *   host.cpus = 8            simulated CPUs, 1..256
 *   host.preset = default    cost model: presets/NAME.ini, or a path
 *   host.irq_cpus = (all)    CPU list interrupts may target ("0-3")
 *   host.speed = (all 1)     per-CPU speed relative to the preset's core,
 *                            comma-separated ("1,1,1,1,0.45,0.45,0.45,0.45")
 *   host.busy_tasks = 0      CPU-bound tasks during the workload, as
 *                            stress-ng --cpu N (src/load/load_busy.h)
 *   host.cpuidle = (preset)  the CPUs' idle states: none, adl, rk3588
 *                            (src/sim/sim_idle.c; the preset's [platform]
 *                            cpuidle, else none)
 *   host.pkg_cstates = 1     package C-states: a package goes deep only
 *                            while all its cores idle; a core that wakes
 *                            in an awake package takes its core-level exit
 *                            latency (src/sim/sim_idle.c); 0: every exit
 *                            takes the table's figure
 *   host.smt = 1             hardware threads per core (1 or 2): CPU i and
 *                            i + cpus/2 are siblings, a thread runs slower
 *                            while its sibling is busy, and wakeups prefer
 *                            an idle core (src/sim/sim_sched.c)
 *   clock.drift = 1          device clocks (the xHC, the NIC, the peer's
 *                            transmitter) off by a ppm offset drawn from
 *                            the seed within the parts' specifications
 *                            (src/sim/sim_clock.c); 0: the host's clock
 *   nic.chip = RTL8127A      a chip row name (src/hw/rtl_chips.c): a PCIe
 *                            chip (r8169 driver) or the USB RTL8157/RTL8159
 *                            (r8152 driver behind an xHCI model); or the
 *                            what-if WHATIF-256Q, not a real chip (256 RX
 *                            queues, docs/model.md)
 *   nic.rx_queues = 0        RX queues at probe; 0 = min(chip, CPUs)
 *   nic.ownbit_erratum = 0   the model's OwnBit erratum fault (0/1)
 *   nic.ownbit_workaround = -1   driver re-check: -1 chip quirk, 0, 1
 *   nic.rx_usecs = -1        RX interrupt moderation after probe, either
 *                            chip: N (ethtool -C eth0 rx-usecs N) or
 *                            adaptive (ethtool -C eth0 adaptive-rx on);
 *                            -1: the driver's default
 *   replay.pcap = (none)     replay this capture instead of workloads
 *   replay.line_rate = 0     1: back to back at line rate, not recorded gaps
 *   replay.max_gap = 3600    longest recorded gap replayed, s; longer ones
 *                            (a capture clock that jumped) are shortened
 *   iperf3.streams = 20      -P: parallel streams from the peer (0: none),
 *                            of each instance
 *   iperf3.instances = 1     iperf3 servers on consecutive ports (iperf3 -s
 *                            -p 5201, -p 5202, ...), one client each with
 *                            its own -P streams; 1..8 (src/load/load_iperf3.h)
 *   iperf3.udp = 0           -u: UDP instead of TCP
 *   iperf3.cc = cubic        -C: TCP congestion control, reno or cubic
 *   iperf3.bitrate = 1G      -b: UDP payload bit/s of each stream, as
 *                            iperf3 applies it (K/M/G)
 *   iperf3.len = 0           -l: UDP payload per datagram (0: 1448), TCP
 *                            bytes per read (0: 128 KiB)
 *   iperf3.cpus = (all)      CPU list the host's iperf3 may run on, as
 *                            taskset -c LIST iperf3 ("1", "4-7")
 *   iperf3.rcvbuf = 0        socket receive buffer, bytes or K/M/G (x 1024^n,
 *                            as iperf3's units) (0: Linux's
 *                            defaults, TCP 128 KiB autotuned up to 6 MiB,
 *                            UDP 208 KiB); set: a fixed sk_rcvbuf, as
 *                            SO_RCVBUF leaves it (twice iperf3 -w's value)
 *   iperf3.reverse = 0       -R: the host sends (TCP), as `iperf3 -c PEER`
 *                            run on the host
 *   iperf3.sndbuf = 0        -R: socket send buffer, bytes or K/M/G (0: 4 MiB)
 *   iperf3.threads = 1       -R: 1 = one thread for all streams (iperf3
 *                            < 3.16), 0 = one per stream (iperf3 >= 3.16)
 *   usb.link_gbps = 20       USB link: 5 (Gen 1), 10 (Gen 2x1), 20 (Gen 2x2)
 *   usb.imod_ns = 40000      xHCI interrupt moderation interval (0: off)
 *   usb.rx_usecs = -1        RX aggregation timer at probe, microseconds,
 *                            0..524 (-1: the chip's 15 us)
 *   usb.mitigation = on      on: 0xcf04 as the device resets it; off: its
 *                            bits 0,1,2,7 cleared (the dropped RFC patch)
 *   ping.from = peer         who pings: peer (the peer pings the host) or
 *                            host (the host pings the peer, seed 002)
 *   ping.count = 0           ping -c from the peer (0: no ping)
 *   ping.interval = 1        ping -i, seconds
 *   ping.size = 56           ping -s, payload bytes
 *   link.prop_ns = 1000      cable + PHY latency each way, ns
 *   ethtool.cmd = ...        an ethtool command line; repeatable, in order
 *   timeline.at = T ARGS     ethtool ARGS at T simulated seconds into the
 *                            run, as a process on a host CPU; repeatable
 *                            (also --at T "ARGS")
 *   fault.*                  fault knobs (docs/run.md, Faults): OwnBit
 *                            erratum, allocation failures at the Nth call,
 *                            MSI-X vector limits and lost messages, ring
 *                            exhaustion, link flaps, USB transfer errors
 *   chaos.*                  seeded random faults and reconfigurations
 *                            (docs/run.md, Chaos)
 *   compare.rows = E1c,E1d   EXPERIMENTS.md rows this scenario reproduces
 *                            (printed with --compare)
 * Every key of a file or --set must be one of these; errors name the file,
 * line and key.
 *
 * Regimes (files only): a section [regime.NAME] holds "section.key =
 * value" overrides of the keys above, and "main = gbps|soft|irqs|ping",
 * the figure that judges it.  `--sweep` runs every value in every regime
 * (the scenario with the regime's overrides, then the swept key);
 * `--regime NAME` runs the scenario as that regime.  At most
 * BED_SCN_MAX_REGIMES regimes of BED_SCN_MAX_REGIME_SETS overrides each.
 */
#ifndef RXSCALE_BED_SCENARIO_H
#define RXSCALE_BED_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BED_SCN_MAX_ETHTOOL 32
#define BED_SCN_MAX_AT 64
#define BED_SCN_STR 256
#define BED_SCN_MAX_REGIMES 4
#define BED_SCN_MAX_REGIME_SETS 12
#define BED_SCN_RX_USECS_DEFAULT -1
#define BED_SCN_RX_USECS_ADAPTIVE -2
/* iperf3.instances: at most IPERF3_MAX_INSTANCES (load_iperf3.h) */
#define BED_SCN_IPERF3_MAX_INSTANCES 8

/* The figure a regime is judged by. */
enum bed_scn_figure { BED_SCN_FIG_GBPS, BED_SCN_FIG_SOFT, BED_SCN_FIG_IRQS, BED_SCN_FIG_PING };

struct bed_scn_regime {
	char name[32];
	enum bed_scn_figure main;
	unsigned n_set;
	char set[BED_SCN_MAX_REGIME_SETS][128];     /* "section.key=value" */
};

/* Fault knobs (fault.*): 0 / false / -1 = off. */
struct bed_scn_faults {
	/* PCIe: the model's OwnBit erratum detail (nic.ownbit_erratum on) */
	unsigned ownbit_every, ownbit_delay_ns;
	/* the kernel: the Nth call from the workload's start fails */
	unsigned dma_fail_nth, skb_fail_nth, urb_fail_nth, irq_fail_nth;
	/* the kernel at probe: MSI-X vectors granted (-1 all), MSI fails */
	int msix_avail;
	bool msi_fail;
	/* PCIe: lost MSI-X messages; RX queues without descriptors (mask) */
	unsigned msix_drop_next, msix_drop_every, rx_ring_full;
	/* the link goes down every link_flap_every s for link_down s */
	double link_flap_every, link_down;
	/* USB: STALLed control requests, bulk-in transfers ending in a
	 * transaction error (every Nth), a silent interrupt endpoint */
	unsigned usb_ctrl_stall_next, usb_xfer_error_every;
	bool usb_intr_silent;
};

/* Chaos (chaos.*): faults and reconfigurations at seeded random times. */
struct bed_scn_chaos {
	double reconfig_every;          /* mean s between ethtool changes (0: none) */
	double fault_every;             /* mean s between faults (0: none) */
};

struct bed_scenario {
	double duration_s;
	uint64_t seed;
	unsigned cpus;
	char preset[BED_SCN_STR];
	char irq_cpus[BED_SCN_STR];         /* "" = all */
	char speed[BED_SCN_STR];            /* "" = all 1 */
	char cpuidle[32];               /* "" = the preset's */
	bool pkg_cstates;               /* package C-states (default on) */
	unsigned smt;                   /* threads per core, 1 or 2 */
	bool clock_drift;               /* device clock offsets (default on) */
	char chip[64];
	unsigned rx_queues;
	bool ownbit_erratum;
	int ownbit_workaround;
	int rx_usecs;                   /* BED_SCN_RX_USECS_* or microseconds */
	unsigned busy_tasks;
	char pcap[BED_SCN_STR];
	bool line_rate;
	double max_gap_s;
	bool iperf_reverse;
	bool iperf_thread_per_stream;
	unsigned usb_link_mbps;
	unsigned usb_imod_ns;
	int usb_rx_usecs;
	bool usb_mitigation_off;
	bool ping_from_host;
	unsigned iperf_sndbuf;
	unsigned iperf_streams;
	unsigned iperf_instances;
	bool iperf_udp;
	char iperf_cc[16];
	char iperf_cpus[BED_SCN_STR];       /* "" = all */
	unsigned iperf_rcvbuf;
	uint64_t iperf_bitrate;
	unsigned iperf_len;
	unsigned prop_ns;
	unsigned ping_count;
	double ping_interval_s;
	unsigned ping_size;
	char bed_compare_rows[128];
	unsigned n_ethtool;
	char ethtool[BED_SCN_MAX_ETHTOOL][BED_SCN_STR];
	unsigned n_at;                  /* timeline.at / --at, in order given */
	double at_s[BED_SCN_MAX_AT];
	char at_cmd[BED_SCN_MAX_AT][BED_SCN_STR];
	struct bed_scn_faults fault;
	struct bed_scn_chaos chaos;
	unsigned n_regimes;
	struct bed_scn_regime regime[BED_SCN_MAX_REGIMES];
};

/* Add "ethtool ARGS at T s" to the timeline; 0 or -1 with @msg. */
int bed_scenario_add_at(struct bed_scenario *s, const char *t, const char *args, char *msg,
		    size_t ml);

/* The built-in defaults (RTL8127A, 8 CPUs, auto queues, 10 s). */
void bed_scenario_default(struct bed_scenario *s);

/*
 * Apply INI file @path over @s.  Returns 0, or -1 after writing one line
 * "PATH:LINE: message" to @err (at most @errlen bytes).
 */
int bed_scenario_load(struct bed_scenario *s, const char *path, char *err, size_t errlen);

/* Apply one "section.key=value" override.  Returns 0 or -1 (message). */
int bed_scenario_set(struct bed_scenario *s, const char *assignment, char *err,
		 size_t errlen);

/* Turn @s into its regime @r: apply the regime's overrides (validated
 * when the file was read) and drop every regime. */
void bed_scenario_apply_regime(struct bed_scenario *s, const struct bed_scn_regime *r);

/* The regime named @name, or NULL. */
const struct bed_scn_regime *bed_scenario_regime(const struct bed_scenario *s, const char *name);

/* A figure's name as scenarios spell it ("gbps", ...). */
const char *bed_scenario_figure_name(enum bed_scn_figure f);

#endif /* RXSCALE_BED_SCENARIO_H */
