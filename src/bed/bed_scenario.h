/* SPDX-License-Identifier: MIT */
/*
 * bed_scenario.h - a run's description: INI scenario files (inih), like fio
 * job files, plus `--set section.key=value` overrides.
 *
 * The keys, their units, the values each takes and their defaults are
 * one table, bed_scn_keys.c, which the parser reads and `rxscale run
 * --help-keys` and the man page's SCENARIO KEYS section print.  Every
 * key of a file or --set must be one of them; errors name the file,
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
	/* host MMIO writes take effect this long after they are issued
	 * (posted writes in flight; a read flushes them), ns */
	unsigned mmio_post_ns;
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
