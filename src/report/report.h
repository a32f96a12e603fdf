/* SPDX-License-Identifier: MIT */
/*
 * report.h - how `rxscale run` shows a run: as iperf3, mpstat, top, ping
 * and ethtool -S show theirs, and as one JSON document.
 *
 * The run (src/cli) measures and fills a struct rpt_run; the printers here
 * only format it, so each format is one function over plain figures.
 */
#ifndef RXSCALE_REPORT_H
#define RXSCALE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bed/bed_compare.h"
#include "bed/bed_drop.h"
#include "hw/rtl_chips.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"
#include "sim/sim_idle.h"

struct net_device;

/* One drop reason and its count (device and driver counters). */
#define RPT_DROP_REASONS 16
#define RPT_COMPARE_ROWS 16

/* One CPU's share of a window, percent (mpstat), by sim_acct class. */
struct rpt_cpu {
	double v[SIM_ACCT_NR];
	double ksoftirqd;               /* ksoftirqd/N's share (top) */
};

/* What ran: the run header. */
struct rpt_head {
	const char *chip;
	const char *whatif;             /* a what-if chip row: its note */
	const char *bus;                /* "pci" or "usb" */
	const char *preset;
	unsigned queues, cpus;
	/* nic.rx_queues when the driver set up fewer at probe
	 * (probe_queues), else 0 */
	unsigned queues_asked, probe_queues;
	bool rss;
	uint64_t seed;
	double duration_s;
};

/* The USB adapter's settings line (present: a USB chip). */
struct rpt_usb {
	bool present;
	unsigned link_mbps, imod_ns, rx_usecs;
	bool adaptive_rx;               /* DIM moves rx-usecs */
	bool mitigation_off;
};

/* One iperf3 stream at the end of an interval: counts since the start,
 * and the TCP sender's state then. */
struct rpt_sample {
	uint64_t bytes;                 /* sent: what iperf3 wrote (-R), the
					   bytes first sent (the peer), UDP
					   datagrams sent times -l */
	uint64_t rx_bytes;              /* received in order (TCP), read (UDP) */
	uint64_t retrans;               /* TCP segments sent again */
	uint64_t packets;               /* UDP datagrams sent */
	uint32_t cwnd;                  /* TCP congestion window, bytes */
	uint32_t snd_wnd;               /* TCP window the receiver offers, bytes */
	uint32_t rtt_us, rttvar_us;     /* TCP smoothed RTT and its variation */
};

/* One iperf3 stream over the whole run. */
struct rpt_stream {
	unsigned socket;                /* iperf3's stream id: 5, 7, 9, ... */
	uint16_t port;                  /* the client's port */
	uint32_t max_cwnd, max_snd_wnd, max_rtt_us, min_rtt_us, mean_rtt_us;
	uint64_t dgrams_sent, dgrams_lost;      /* UDP, after the drain */
	double jitter_ms;               /* UDP, at the run's end */
};

/* The iperf3 workload and what it measured. */
struct rpt_iperf3 {
	bool up;                        /* an iperf3 workload ran */
	bool udp, reverse;
	unsigned streams, len;          /* streams: -P of each instance */
	unsigned instances;             /* server/client pairs, ports 5201.. */
	uint64_t bitrate;
	const char *cc;                 /* congestion control name */
	unsigned n;                     /* intervals */
	const sim_time_t *end;          /* [0..n]: each interval's end, end[0] 0 */
	const uint64_t *bytes;          /* [0..n]: bytes received by then, each
					   interval's put where they crossed the
					   wire (the --compare figures) */
	uint64_t total_bytes;           /* read by the run's end */
	double secs;                    /* the run's length */
	uint64_t retransmits;
	double app_cpu;                 /* the iperf3 process, top's %CPU */
	unsigned busy_tasks;            /* host.busy_tasks (stress-ng --cpu N) */
	const char *cpus;               /* iperf3.cpus (taskset -c LIST), or
					   NULL/"": any CPU */
	double busy_cpu;                /* theirs, all of them, top's %CPU */
	double cpu_usr, cpu_sys;        /* the same over the whole run, by class */
	const char *rcv_cc;             /* the receiving side's congestion control */
	/* per stream, as iperf3 -c prints them (the client: the peer, or the
	 * host with reverse), instance by instance: @streams each */
	unsigned nstreams;
	const struct rpt_sample *samp;  /* [(n + 1) * nstreams]: row 0 zero */
	const struct rpt_stream *st;    /* [nstreams] */
	/* accounting: TCP frames, the peer sending */
	uint64_t tcp_sent, tcp_got;
	/* the host sending: dropped in the host (no skb, qdisc full), on the
	 * way out (driver, device), in the qdisc, the TX ring or on the wire */
	uint64_t tx_local_drops, tx_out_drops, tx_in_flight;
	/* UDP datagrams */
	uint64_t sent, got, rcvbuf, queued;
	/* frames to the host: NIC and driver drops, inside the model or wire */
	uint64_t nic_drops, drv_drops, inflight;
	uint64_t no_socket;             /* frames for no socket */
	uint64_t ping_dropped;          /* ping frames from the peer the host
					   did not receive: among the drops
					   or in flight */
	/* sent, less everything above that accounts for them: 0 unless a
	 * frame was lost uncounted (a bug) */
	int64_t unaccounted;
};

/* ping's summary. */
struct rpt_ping {
	bool up;
	bool from_host;                 /* the host pings the peer */
	unsigned sent, received;
	double time_ms;                 /* first to last probe */
	bool have_stats;                /* at least one reply */
	double min, avg, max, mdev;     /* ms */
};

/* A capture replay: per RX queue frames, bytes, flows, and the check. */
struct rpt_replay {
	const char *pcap;
	bool line_rate;
	uint64_t frames, bytes;         /* offered */
	double secs;                    /* simulated time to the last frame */
	uint64_t q_frames[RTL_MAX_RX_QUEUES], q_bytes[RTL_MAX_RX_QUEUES];
	uint64_t q_flows[RTL_MAX_RX_QUEUES];
	uint64_t delivered, hashed, mismatches;
	/* records not replayed: empty, or of an interface whose link type
	 * is not Ethernet (pcapng), by link type name; frames the capture cut
	 * (replayed as captured) */
	uint64_t empty, cut, other_link;
	uint64_t gaps_cut;              /* recorded gaps shortened to max_gap_s */
	double max_gap_s;
	unsigned nlinks;
	struct { const char *name; uint64_t n; } links[8];
};

/* One entry of a run's timeline: an ethtool command or a fault. */
struct rpt_tl_entry {
	double at_s;                    /* when it was due */
	const char *what;               /* "ethtool" or "fault" */
	const char *args;               /* ethtool's arguments, or the fault */
	bool chaos;                     /* chaos.* made it */
	bool ethtool;
	int rc;                         /* ethtool's exit status */
	int cpu;                        /* where the ethtool process ran */
	double start_s, took_us;        /* when it ran, its CPU time */
	const char *out, *err;          /* what ethtool printed */
	bool state_changed;             /* rejected, yet -l/-g/-c/-x moved */
};

/* The timeline of a run (timeline.at, --at) and its chaos (chaos.*). */
struct rpt_timeline {
	unsigned n;
	const struct rpt_tl_entry *e;
	unsigned failed;                /* timeline.at commands rejected */
	bool chaos;
	unsigned applied, rejected, rejected_changed, faults;
	double max_stall_ms, bound_ms;  /* longest RX stall, its bound */
	unsigned max_stall_q;
	uint64_t kicks;                 /* the driver's lost-interrupt kicks */
	uint64_t resets, tx_timeouts;   /* its reset task's runs, TX timeouts */
};

/* The driver's counters of one RX queue. */
struct rpt_queue {
	uint64_t packets, bytes, drops;
};

/* One EXPERIMENTS.md row evaluated on this run (--compare). */
struct rpt_compare {
	const struct bed_compare_row *row;
	double value;
	bool ok;
	char note[128];
};

struct rpt_run {
	struct rpt_head head;
	struct rpt_usb usb;
	struct rpt_iperf3 ip;
	struct rpt_ping ping;
	struct rpt_replay replay;
	/* mpstat and top: per CPU, over the mean window (after 2 s) when
	 * cpu_window, else the whole run */
	unsigned ncpus;
	struct rpt_cpu cpu[SIM_CPUS_MAX];
	bool cpu_window;
	/* mpstat: each CPU's cumulative counters at nsamp times (samp_t[],
	 * the first at the run's start), [nsamp * ncpus]; a block per pair */
	unsigned nsamp;
	const sim_time_t *samp_t;
	const struct sim_acct_sample *acct;
	/* the CPUs' idle states, summed over CPUs (idle NULL: none) */
	const struct sim_idle_table *idle;
	uint64_t idle_usage[SIM_IDLE_MAX_STATES], idle_ticks, idle_exit_ns;
	unsigned ndrops;
	struct bed_drop_reason drops[RPT_DROP_REASONS];
	unsigned nqueues;
	struct rpt_queue q[RTL_MAX_RX_QUEUES];
	struct rpt_timeline tl;
	bool compare;                   /* --compare: rows below */
	const char *compare_sets;       /* the --set changes to the rows'
					   scenario ("" or NULL: none) */
	unsigned ncmp;
	struct rpt_compare cmp[RPT_COMPARE_ROWS];
	/* why the run failed or is partial (its exit status is not 0), for
	 * the JSON document's "error", as iperf3 -J has it; NULL: it did not */
	const char *error;
	const char *partial;            /* a replay's capture turned bad part-way: why */
};

/* "rxscale run: CHIP, N RX queues, RSS on, N CPUs, preset P, seed S" */
void report_head(FILE *out, const struct rpt_run *r);

/* The USB adapter's line and what iperf3 each side runs (known before
 * the run). */
void report_iperf3_cmdline(FILE *out, const struct rpt_run *r);

/* The iperf3 workload as text: what iperf3 -c prints, then the
 * accounting lines. */
void report_iperf3(FILE *out, const struct rpt_run *r);

/* The timeline's commands and faults, each command's output and errors,
 * and the chaos summary. */
void report_timeline(FILE *out, const struct rpt_run *r);

/* ping's statistics block. */
void report_ping(FILE *out, const struct rpt_run *r);

/* The CPUs as `mpstat -P ALL 1` prints them (sysstat 12.6, LC_ALL=C). */
void report_mpstat(FILE *out, const struct rpt_run *r);

/* top's view of the iperf3 process and ksoftirqd threads. */
void report_top(FILE *out, const struct rpt_run *r);

/* The CPUs' idle states: entries per state (as /sys/devices/system/cpu/
 * cpuN/cpuidle/stateM/usage, summed over CPUs) and the time spent waking
 * up; nothing when the platform has no idle states. */
void report_cpuidle(FILE *out, const struct rpt_run *r);

/* ethtool -S of @dev, as ethtool prints it. */
void report_ethtool_stats(FILE *out, struct net_device *dev);

/* The --compare table. */
void report_compare(FILE *out, const struct rpt_run *r);

/* A capture replay's per-queue table, accounting and queue check. */
void report_replay(FILE *out, const struct rpt_run *r);

/* The text report of an iperf3/ping run: report_text_head() before the
 * simulation, report_text() after it; or of a replay. */
void report_text_head(FILE *out, const struct rpt_run *r);
void report_text(FILE *out, const struct rpt_run *r, struct net_device *dev);
void report_replay_text(FILE *out, const struct rpt_run *r, struct net_device *dev);

/* The run as one JSON document (pretty-printed, newline-terminated). */
void report_json(FILE *out, const struct rpt_run *r);
void report_replay_json(FILE *out, const struct rpt_run *r);
/* {"error": MSG}: what --json prints when a command fails before its
 * document (iperf3 -J's key, so jq .error reads either). */
void report_json_error(FILE *out, const char *msg);

#endif /* RXSCALE_REPORT_H */
