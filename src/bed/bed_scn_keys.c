// SPDX-License-Identifier: MIT
/*
 * bed_scn_keys.c - the scenario keys: one table says each key's field,
 * how its value is parsed, its unit, accepted values and what it does.
 * The parser (bed_scn_apply), `rxscale run --help-keys` and the man page's
 * SCENARIO KEYS section (tests/test_scenario.c checks it) all read this
 * table; the defaults shown are bed_scenario_default()'s own fields.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bed/bed_compare.h"
#include "bed/bed_scn_keys.h"
#include "bed/bed_util.h"
#include "hw/rtl_chips.h"
#include "hw/rtl_whatif.h"
#include "load/load_busy.h"
#include "sim/sim_idle.h"

/* "1G", "9.5G", "800M", "64K", "1000000": bits per second */
static int parse_rate(const char *v, uint64_t *out)
{
	char *end;
	double d = strtod(v, &end);
	double mul = 1;

	if (end == v || !(d > 0) || d > 1e12)   /* also NaN and inf */
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1e3; end++; break;
	case 'm': case 'M': mul = 1e6; end++; break;
	case 'g': case 'G': mul = 1e9; end++; break;
	default: break;
	}
	if (*end || d * mul > 1e12 || d * mul < 1)
		return -1;
	*out = (uint64_t)(d * mul + 0.5);
	return 0;
}

static int set_str(char *dst, size_t n, const char *v, char *msg, size_t ml,
		   const char *key)
{
	if (strlen(v) >= n) {
		snprintf(msg, ml, "%s: value longer than %zu characters", key, n - 1);
		return -1;
	}
	snprintf(dst, n, "%s", v);
	return 0;
}

static int set_uint(unsigned long *out, const char *v, unsigned long lo,
		    unsigned long hi, char *msg, size_t ml, const char *key)
{
	if (bed_parse_uint(v, lo, hi, out)) {
		snprintf(msg, ml, "%s: '%.64s' is not a whole number in %lu..%lu",
			 key, v, lo, hi);
		return -1;
	}
	return 0;
}

/* A byte count as iperf3's -w and socket buffer options take it: a whole
 * number with an optional K, M or G (1024, 1024^2, 1024^3; iperf3's
 * unit_atoi), in lo..hi. */
static int set_bytes(unsigned long *out, const char *v, unsigned long lo,
		     unsigned long hi, char *msg, size_t ml, const char *key)
{
	char num[32];
	const char *orig = v;
	size_t n = strlen(v);
	unsigned long mul = 1, u;

	if (n && n < sizeof(num) && strchr("kKmMgG", v[n - 1])) {
		mul = strchr("kK", v[n - 1]) ? 1ul << 10 : strchr("mM", v[n - 1]) ?
		      1ul << 20 : 1ul << 30;
		memcpy(num, v, n - 1);
		num[n - 1] = 0;
		v = num;
	}
	if (bed_parse_uint(v, 0, hi / mul, &u) || u * mul < lo) {
		snprintf(msg, ml, "%s: '%.64s' is not a byte count in %lu..%lu (a K, M or "
			 "G suffix multiplies by 1024, 1024^2, 1024^3)", key, orig, lo, hi);
		return -1;
	}
	*out = u * mul;
	return 0;
}

static int set_bool(bool *out, const char *v, char *msg, size_t ml, const char *key)
{
	if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
		*out = false;
	else {
		snprintf(msg, ml, "%s: '%.64s' is not a boolean (0/1, yes/no, on/off)",
			 key, v);
		return -1;
	}
	return 0;
}

static int set_speed(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		     const char *key)
{
	char tmp[BED_SCN_STR], *tok, *save = NULL;

	if (set_str(s->speed, sizeof(s->speed), v, msg, ml, key))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", v);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double d = strtod(tok, &end);

		if (end == tok || *end || !(d >= 0.05 && d <= 20)) {
			snprintf(msg, ml, "%s: '%.32s' is not a speed in [0.05, 20]", key, tok);
			return -1;
		}
	}
	return 0;
}

static int set_bitrate(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		       const char *key)
{
	if (parse_rate(v, &s->iperf_bitrate)) {
		snprintf(msg, ml, "%s: '%.64s' is not a bit rate (e.g. 9.4G, 800M)", key, v);
		return -1;
	}
	return 0;
}

static int set_cc(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		  const char *key)
{
	if (strcmp(v, "reno") && strcmp(v, "cubic")) {
		snprintf(msg, ml, "%s: '%.64s' is not reno or cubic", key, v);
		return -1;
	}
	snprintf(s->iperf_cc, sizeof(s->iperf_cc), "%s", v);
	return 0;
}

static int set_link_gbps(struct bed_scenario *s, const char *v, char *msg, size_t ml,
			 const char *key)
{
	if (strcmp(v, "5") && strcmp(v, "10") && strcmp(v, "20")) {
		snprintf(msg, ml, "%s: '%.64s' is not 5, 10 or 20", key, v);
		return -1;
	}
	s->usb_link_mbps = (unsigned)strtoul(v, NULL, 10) * 1000u;
	return 0;
}

static int set_cpuidle(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		       const char *key)
{
	if (!sim_idle_table_find(v)) {
		snprintf(msg, ml, "%s: no idle-state table '%.32s' (%s)", key, v,
			 sim_idle_table_names());
		return -1;
	}
	return set_str(s->cpuidle, sizeof(s->cpuidle), v, msg, ml, key);
}

static int set_compare_rows(struct bed_scenario *s, const char *v, char *msg, size_t ml,
			    const char *key)
{
	char list[128], *tok, *save = NULL;

	if (set_str(s->bed_compare_rows, sizeof(s->bed_compare_rows), v, msg, ml, key))
		return -1;
	snprintf(list, sizeof(list), "%s", v);
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!bed_compare_row_find(tok)) {
			snprintf(msg, ml, "%s: no EXPERIMENTS.md row '%.16s' (E1a-E1e, E2a-E2e, E3a-E3e)",
				 key, tok);
			return -1;
		}
	}
	return 0;
}

static int set_ethtool(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		       const char *key)
{
	if (s->n_ethtool == BED_SCN_MAX_ETHTOOL) {
		snprintf(msg, ml, "%s: more than %d commands", key, BED_SCN_MAX_ETHTOOL);
		return -1;
	}
	return set_str(s->ethtool[s->n_ethtool++], BED_SCN_STR, v, msg, ml, key);
}

int bed_scenario_add_at(struct bed_scenario *s, const char *t, const char *args, char *msg,
		    size_t ml)
{
	char *end;
	double d = strtod(t, &end);

	if (end == t || *end || !(d >= 0 && d <= 3600)) {
		snprintf(msg, ml, "timeline: '%.32s' is not a time in [0, 3600] s", t);
		return -1;
	}
	while (*args == ' ' || *args == '\t')
		args++;
	if (!*args) {
		snprintf(msg, ml, "timeline: no ethtool command at %.32s s", t);
		return -1;
	}
	if (s->n_at == BED_SCN_MAX_AT) {
		snprintf(msg, ml, "timeline: more than %d commands", BED_SCN_MAX_AT);
		return -1;
	}
	if (set_str(s->at_cmd[s->n_at], BED_SCN_STR, args, msg, ml, "timeline"))
		return -1;
	s->at_s[s->n_at++] = d;
	return 0;
}

/* timeline.at = T ARGS */
static int set_at(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		  const char *key)
{
	char t[64];
	size_t n = strcspn(v, " \t");

	if (n >= sizeof(t) || !v[n]) {
		snprintf(msg, ml, "%s: want 'T ARGS' (seconds, then an ethtool command), "
			 "got '%.64s'", key, v);
		return -1;
	}
	snprintf(t, sizeof(t), "%.*s", (int)n, v);
	return bed_scenario_add_at(s, t, v + n, msg, ml);
}

static int set_rx_usecs(struct bed_scenario *s, const char *v, char *msg, size_t ml,
			const char *key)
{
	unsigned long u;

	if (!strcmp(v, "-1")) {
		s->rx_usecs = BED_SCN_RX_USECS_DEFAULT;
		return 0;
	}
	if (!strcmp(v, "adaptive")) {
		s->rx_usecs = BED_SCN_RX_USECS_ADAPTIVE;
		return 0;
	}
	/* the chip's limit is the driver's to enforce (ethtool -C) */
	if (bed_parse_uint(v, 0, 100000, &u)) {
		snprintf(msg, ml, "%s: '%.64s' is not -1, adaptive or a whole number "
			 "of microseconds in 0..100000", key, v);
		return -1;
	}
	s->rx_usecs = (int)u;
	return 0;
}

enum scn_kind {
	SK_UINT,        /* a whole number in lo..hi (unsigned or uint64_t) */
	SK_AUTO_UINT,   /* -1 (the default's choice), or a whole number (int) */
	SK_BOOL,        /* 0/1, yes/no, true/false, on/off */
	SK_STR,         /* a string that fits the field */
	SK_SECONDS,     /* seconds in [1e-6, 3600] */
	SK_SECONDS0,    /* seconds in [0, 3600] (0: off) */
	SK_CHOICE,      /* one of two words: choice[1] sets the bool */
	SK_FUNC,        /* parsed by set() */
};

/* One scenario key: where its value goes, how it is parsed, and what
 * --help-keys and the man page say of it. */
struct scn_key {
	const char *name;               /* "section.key" */
	enum scn_kind kind;
	size_t off, size;               /* the field in struct bed_scenario */
	unsigned long lo, hi;           /* SK_UINT, SK_AUTO_UINT */
	unsigned long min_set;          /* SK_UINT: a non-zero value is at
					   least this (0 keeps the default) */
	const char *what;               /* SK_SECONDS, SK_CHOICE: "is not ..." */
	const char *choice[2];          /* SK_CHOICE: the false and true words */
	int (*set)(struct bed_scenario *s, const char *v, char *msg, size_t ml,
		   const char *key);
	/* documentation */
	const char *unit;               /* "s", "bytes", ... or NULL */
	const char *range;              /* SK_STR, SK_FUNC: the values taken */
	const char *(*range_fn)(void);  /* ... or a function that lists them */
	const char *def;                /* SK_FUNC: the default as a value, or a
					   "(note)"; SK_STR: the note for "" */
	const char *help;
};

#define FIELD(f) .off = offsetof(struct bed_scenario, f), \
		 .size = sizeof(((struct bed_scenario *)0)->f)
#define UINT(k, f, l, h, u, hl) \
	{ .name = k, .kind = SK_UINT, FIELD(f), .lo = l, .hi = h, .unit = u, .help = hl }
#define AUTO(k, f, l, h, u, hl) \
	{ .name = k, .kind = SK_AUTO_UINT, FIELD(f), .lo = l, .hi = h, .unit = u, .help = hl }
#define BYTES(k, f, h, m, hl) \
	{ .name = k, .kind = SK_UINT, FIELD(f), .lo = 0, .hi = h, .min_set = m, \
	  .unit = "bytes", .help = hl }
#define BOOL(k, f, hl) { .name = k, .kind = SK_BOOL, FIELD(f), .help = hl }
#define STR(k, f, r, d, hl) \
	{ .name = k, .kind = SK_STR, FIELD(f), .range = r, .def = d, .help = hl }
#define SECS(k, kd, f, w, hl) \
	{ .name = k, .kind = kd, FIELD(f), .what = w, .unit = "s", .help = hl }
#define FUNC(k, fn, d, u, r, hl) \
	{ .name = k, .kind = SK_FUNC, .set = fn, .def = d, .unit = u, .range = r, .help = hl }
#define CHOICE(k, f, no, yes, w, hl) \
	{ .name = k, .kind = SK_CHOICE, FIELD(f), .choice = { no, yes }, .what = w, .help = hl }

/* nic.chip's values: the chip rows' names (several rows may share one). */
static const char *chip_names(void)
{
	static char buf[512];
	const char *names[64];
	unsigned n = 0;
	size_t used = 0;

	if (buf[0])
		return buf;
	for (unsigned i = 0; i < rtl_chips_count && n < 64; i++) {
		unsigned k = 0;

		while (k < n && strcmp(names[k], rtl_chips[i].name))
			k++;
		if (k == n)
			names[n++] = rtl_chips[i].name;
	}
	/* in name order */
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k && strcmp(names[k - 1], names[k]) > 0; k--) {
			const char *t = names[k];

			names[k] = names[k - 1];
			names[k - 1] = t;
		}
	for (unsigned i = 0; i < n && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? ", " : "",
					 names[i]);
	for (unsigned i = 0; i < rtl_usb_chips_count && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s%s",
					 i ? ", " : " (PCIe, r8169 driver); ",
					 rtl_usb_chips[i].name,
					 i + 1 == rtl_usb_chips_count ? " (USB, r8152 driver)" : "");
	for (unsigned i = 0; i < rtl_whatif_chips_count && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 i ? ", " : "; the what-if ", rtl_whatif_chips[i].name);
	if (rtl_whatif_chips_count && used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, " (not a real chip, docs/model.md)");
	return buf;
}

static const struct scn_key scn_keys[] = {
	/* at least 1 us: the simulation's clock is integer ns */
	SECS("run.duration", SK_SECONDS, duration_s, "a duration in [0.000001, 3600] s",
	     "simulated seconds of an iperf3 and ping run (iperf3 -t)"),
	UINT("run.seed", seed, 0, ~0UL, NULL, "seed of every random stream (also --seed)"),
	UINT("host.cpus", cpus, 1, 256, NULL, "simulated CPUs"),
	STR("host.preset", preset, "a name in presets/ or a path to an INI file", NULL,
	    "the host's cost model: presets/NAME.ini, or a path (also --preset)"),
	FUNC("host.speed", set_speed, "(all 1)", NULL,
	     "comma-separated numbers in 0.05..20, one per CPU from CPU 0",
	     "each CPU's speed relative to the preset's core, e.g. "
	     "1,1,1,1,0.45,0.45,0.45,0.45 for four big and four little cores"),
	UINT("host.busy_tasks", busy_tasks, 0, LOAD_BUSY_MAX, NULL,
	     "CPU-bound tasks that run during the workload, as stress-ng --cpu N"),
	STR("host.irq_cpus", irq_cpus, "a CPU list, e.g. 0-3 or 0,2", "(all)",
	    "the CPUs interrupts may target"),
	{ .name = "host.cpuidle", .kind = SK_FUNC, .set = set_cpuidle,
	  .def = "(the preset's [platform] cpuidle, else none)",
	  .range_fn = sim_idle_table_names,
	  .help = "the CPUs' idle states (src/sim/sim_idle.c)" },
	BOOL("host.pkg_cstates", pkg_cstates,
	     "package C-states: a package goes deep only while all its cores idle; a core "
	     "that wakes in an awake package takes its core-level exit latency "
	     "(src/sim/sim_idle.c); 0: every exit takes the table's figure"),
	UINT("host.smt", smt, 1, 2, NULL,
	     "hardware threads per core: CPU i and i + cpus/2 are siblings, a thread runs "
	     "slower while its sibling is busy, wakeups prefer an idle core (src/sim/sim_sched.c)"),
	BOOL("clock.drift", clock_drift,
	     "device clocks (the xHC, the NIC, the peer's transmitter) off by a ppm offset "
	     "drawn from the seed within the parts' specifications (src/sim/sim_clock.c); "
	     "0: the host's clock"),
	{ .name = "nic.chip", .kind = SK_STR, FIELD(chip), .range_fn = chip_names,
	  .help = "the NIC: a PCIe chip on the r8169-style driver, or a USB adapter on "
		  "the r8152-style driver behind an xHCI model" },
	UINT("nic.rx_queues", rx_queues, 0, RTL_MAX_RX_QUEUES, NULL,
	     "RX queues the driver sets up at probe (the kernel's default RSS queue count); "
	     "0: automatic, one per CPU.  The driver sets up at most what the chip and its "
	     "MSI-X vectors allow (4 on the real chips), and the run header says when that "
	     "is fewer than asked.  PCIe only (a USB adapter has one queue)"),
	BOOL("nic.ownbit_erratum", ownbit_erratum,
	     "the model's OwnBit erratum fault (as fault.ownbit_erratum)"),
	AUTO("nic.ownbit_workaround", ownbit_workaround, 0, 1, NULL,
	     "the driver's OwnBit re-check: -1 as the chip row says, 0 off, 1 on"),
	FUNC("nic.rx_usecs", set_rx_usecs, "-1", "us", "-1, adaptive, or 0..100000",
	     "RX interrupt moderation after probe, either bus: N as ethtool -C eth0 "
	     "rx-usecs N, adaptive as ethtool -C eth0 adaptive-rx on; -1: the driver's "
	     "default.  The chip's own limit is the driver's to enforce"),
	STR("replay.pcap", pcap, "a pcap or pcapng file", "(none)",
	    "replay this capture into the NIC instead of running iperf3 and ping "
	    "(also --pcap)"),
	BOOL("replay.line_rate", line_rate,
	     "1: replay the frames back to back at line rate, not at their recorded gaps"),
	SECS("replay.max_gap", SK_SECONDS, max_gap_s, "a gap in [0.000001, 3600] s",
	     "the longest recorded gap replayed; a longer one (a capture clock that "
	     "jumped) is shortened to this"),
	UINT("iperf3.streams", iperf_streams, 0, 128, NULL,
	     "-P: parallel streams from the peer, of each instance (0: no iperf3)"),
	UINT("iperf3.instances", iperf_instances, 1, BED_SCN_IPERF3_MAX_INSTANCES, NULL,
	     "iperf3 servers on consecutive ports (iperf3 -s -p 5201, -p 5202, ...), one "
	     "client each with its own -P streams"),
	BOOL("iperf3.udp", iperf_udp, "-u: UDP instead of TCP"),
	FUNC("iperf3.bitrate", set_bitrate, "1G", "bit/s",
	     "1..1000000000000, with an optional K, M or G (x 1000^n)",
	     "-b: the UDP payload bit rate of each stream, as iperf3 applies it"),
	FUNC("iperf3.cc", set_cc, "cubic", NULL, "reno|cubic", "-C: TCP congestion control"),
	STR("iperf3.cpus", iperf_cpus, "a CPU list, e.g. 1 or 4-7", "(all)",
	    "the CPUs the host's iperf3 may run on, as taskset -c LIST iperf3"),
	BYTES("iperf3.rcvbuf", iperf_rcvbuf, 64u << 20, 4096,
	      "socket receive buffer; 0: Linux's defaults (TCP 128 KiB, autotuned up to "
	      "6 MiB; UDP 208 KiB); else a fixed sk_rcvbuf, as SO_RCVBUF leaves it (twice "
	      "iperf3 -w's value)"),
	FUNC("usb.link_gbps", set_link_gbps, "20", "Gbit/s", "5|10|20",
	     "the USB link: 5 (Gen 1), 10 (Gen 2x1) or 20 (Gen 2x2)"),
	UINT("usb.imod_ns", usb_imod_ns, 0, 1000000, "ns",
	     "the xHCI interrupt moderation interval (0: off)"),
	/* 524 us: the 16-bit timer register in 8 ns units (research
	 * usb-and-coalescing.md s1.3-1.4) */
	AUTO("usb.rx_usecs", usb_rx_usecs, 0, 524, "us",
	     "the USB adapter's RX aggregation timer at probe (-1: the chip's 15 us)"),
	CHOICE("usb.mitigation", usb_mitigation_off, "on", "off", "on or off",
	       "on: register 0xcf04 as the device resets it; off: its bits 0, 1, 2 and 7 "
	       "cleared (the dropped RFC patch)"),
	CHOICE("ping.from", ping_from_host, "peer", "host", "peer or host",
	       "who pings: the peer pings the host, or the host pings the peer (seed 002)"),
	CHOICE("iperf3.threads", iperf_thread_per_stream, "1", "0",
	       "1 (one thread) or 0 (one per stream)",
	       "TCP: 1 thread of the host's iperf3 for all streams (iperf3 before 3.16), "
	       "or 0: one per stream (iperf3 3.16 and later), reading or (-R) writing"),
	BOOL("iperf3.reverse", iperf_reverse,
	     "-R: the host sends (TCP), as iperf3 -c PEER run on the host"),
	BYTES("iperf3.sndbuf", iperf_sndbuf, 64u << 20, 65536,
	      "with iperf3.reverse: the socket send buffer (0: 4 MiB)"),
	UINT("iperf3.len", iperf_len, 0, 1 << 20, "bytes",
	     "-l: UDP payload per datagram (0: 1448), TCP bytes per read (0: 128 KiB)"),
	UINT("ping.count", ping_count, 0, 100000, NULL, "ping -c (0: no ping)"),
	SECS("ping.interval", SK_SECONDS, ping_interval_s, "an interval in [1e-6, 3600] s",
	     "ping -i"),
	UINT("ping.size", ping_size, 8, 1472, "bytes", "ping -s: payload bytes"),
	UINT("link.prop_ns", prop_ns, 0, 1000000000, "ns",
	     "cable and PHY latency, each way"),
	FUNC("compare.rows", set_compare_rows, "(none)", NULL,
	     "row names, comma-separated: E1a-E1e, E2a-E2e, E3a-E3e",
	     "the EXPERIMENTS.md rows this scenario reproduces (--compare prints them)"),
	FUNC("ethtool.cmd", set_ethtool, "(none)", NULL,
	     "an ethtool command line; repeatable",
	     "run before the workload, in order (also --ethtool)"),
	FUNC("timeline.at", set_at, "(none)", NULL,
	     "T ARGS: seconds in 0..3600, then an ethtool command line; repeatable",
	     "run ethtool ARGS at T simulated seconds into the run, as a process on a host "
	     "CPU (also --at T ARGS)"),
	BOOL("fault.ownbit_erratum", ownbit_erratum,
	     "PCIe: the OwnBit erratum (as nic.ownbit_erratum; docs/model.md)"),
	UINT("fault.ownbit_every", fault.ownbit_every, 0, 1000000, NULL,
	     "PCIe, with the erratum: every Nth RX write-back is held (0: every one)"),
	UINT("fault.ownbit_delay_ns", fault.ownbit_delay_ns, 0, 1000000000, "ns",
	     "PCIe, with the erratum: a held write-back lands after this, or at the next "
	     "MMIO read (0: the model's default)"),
	UINT("fault.dma_fail_nth", fault.dma_fail_nth, 0, 4000000000u, NULL,
	     "the Nth dma_alloc_coherent/dma_map_single from the workload's start fails "
	     "(0: none)"),
	UINT("fault.skb_fail_nth", fault.skb_fail_nth, 0, 4000000000u, NULL,
	     "the Nth skb allocation from the workload's start fails (0: none)"),
	UINT("fault.urb_fail_nth", fault.urb_fail_nth, 0, 4000000000u, NULL,
	     "USB: the Nth usb_alloc_urb from the workload's start fails (0: none)"),
	UINT("fault.irq_fail_nth", fault.irq_fail_nth, 0, 1000000, NULL,
	     "PCIe: the Nth request_irq from the workload's start fails with -ENOMEM "
	     "(0: none)"),
	AUTO("fault.msix_avail", fault.msix_avail, 0, 2048, NULL,
	     "PCIe: MSI-X vectors granted at probe (-1: all the driver asks for; "
	     "docs/driver.md, the vector ladder)"),
	BOOL("fault.msi_fail", fault.msi_fail,
	     "PCIe: MSI cannot be enabled (with no MSI-X either: INTx)"),
	UINT("fault.msix_drop_next", fault.msix_drop_next, 0, 4000000000u, NULL,
	     "PCIe: the next N MSI-X messages are lost"),
	UINT("fault.msix_drop_every", fault.msix_drop_every, 0, 4000000000u, NULL,
	     "PCIe: every Nth MSI-X message is lost (0: none)"),
	UINT("fault.mmio_post_ns", fault.mmio_post_ns, 0, 100000000, "ns",
	     "PCIe: host writes to the BARs land this long after they are issued, in "
	     "order; a read pushes them first (PCIe posted writes; 0: at once)"),
	UINT("fault.rx_ring_full", fault.rx_ring_full, 0, (1u << RTL_HW_RX_QUEUES) - 1,
	     NULL, "PCIe: a mask, bit q: RX queue q finds no descriptor (its frames count "
	     "as rx_missed)"),
	SECS("fault.link_flap_every", SK_SECONDS0, fault.link_flap_every,
	     "a period in [0, 3600] s (0: no flaps)",
	     "the link goes down every this many seconds, for fault.link_down (0: never)"),
	SECS("fault.link_down", SK_SECONDS, fault.link_down, "a time in [0.000001, 3600] s",
	     "how long each flap of fault.link_flap_every keeps the link down"),
	UINT("fault.usb_ctrl_stall_next", fault.usb_ctrl_stall_next, 0, 1000000, NULL,
	     "USB: the next N control requests STALL (-EPIPE)"),
	UINT("fault.usb_xfer_error_every", fault.usb_xfer_error_every, 0, 4000000000u,
	     NULL, "USB: every Nth bulk-in transfer ends in a transaction error (-EPROTO); "
	     "its frames count as rx_usb_xfer_error (0: none)"),
	BOOL("fault.usb_intr_silent", fault.usb_intr_silent,
	     "USB: the interrupt endpoint never completes"),
	SECS("chaos.reconfig_every", SK_SECONDS0, chaos.reconfig_every,
	     "a mean interval in [0, 3600] s (0: none)",
	     "ethtool changes at seeded random times, this many seconds apart on average "
	     "(0: none; docs/run.md, Chaos)"),
	SECS("chaos.fault_every", SK_SECONDS0, chaos.fault_every,
	     "a mean interval in [0, 3600] s (0: none)",
	     "faults at seeded random times, this many seconds apart on average (0: none)"),
};

#define N_KEYS (sizeof(scn_keys) / sizeof(scn_keys[0]))

int bed_scn_apply(struct bed_scenario *s, const char *sec, const char *key,
		  const char *v, char *msg, size_t ml)
{
	const struct scn_key *k = NULL;
	char full[130], *field = (char *)s;
	unsigned long u;

	snprintf(full, sizeof(full), "%.60s.%.60s", sec, key);
	for (size_t i = 0; i < N_KEYS && !k; i++)
		if (!strcmp(full, scn_keys[i].name))
			k = &scn_keys[i];
	if (!k) {
		snprintf(msg, ml, "unknown key '%s' (rxscale run --help-keys lists them)", full);
		return -1;
	}
	field += k->off;
	switch (k->kind) {
	case SK_UINT:
		/* socket buffer sizes (min_set) take iperf3's K/M/G too */
		if (k->min_set ? set_bytes(&u, v, k->lo, k->hi, msg, ml, full) :
				 set_uint(&u, v, k->lo, k->hi, msg, ml, full))
			return -1;
		if (u && u < k->min_set) {
			snprintf(msg, ml, "%s: at least %lu bytes (or 0 for the default)",
				 full, k->min_set);
			return -1;
		}
		if (k->size == sizeof(uint64_t))
			*(uint64_t *)(void *)field = u;
		else
			*(unsigned *)(void *)field = (unsigned)u;
		return 0;
	case SK_AUTO_UINT:
		if (!strcmp(v, "-1")) {
			*(int *)(void *)field = -1;
			return 0;
		}
		if (set_uint(&u, v, k->lo, k->hi, msg, ml, full))
			return -1;
		*(int *)(void *)field = (int)u;
		return 0;
	case SK_BOOL:
		return set_bool((bool *)(void *)field, v, msg, ml, full);
	case SK_STR:
		return set_str(field, k->size, v, msg, ml, full);
	case SK_SECONDS:
	case SK_SECONDS0: {
		char *end;
		double d = strtod(v, &end);

		if (end == v || *end || !(d >= (k->kind == SK_SECONDS ? 1e-6 : 0) && d <= 3600)) {
			snprintf(msg, ml, "%s: '%.64s' is not %s", full, v, k->what);
			return -1;
		}
		*(double *)(void *)field = d;
		return 0;
	}
	case SK_CHOICE:
		if (strcmp(v, k->choice[0]) && strcmp(v, k->choice[1])) {
			snprintf(msg, ml, "%s: '%.64s' is not %s", full, v, k->what);
			return -1;
		}
		*(bool *)(void *)field = !strcmp(v, k->choice[1]);
		return 0;
	case SK_FUNC:
		return k->set(s, v, msg, ml, full);
	}
	return -1;
}

const char *bed_scn_key_unit(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (!strcmp(scn_keys[i].name, name))
			return scn_keys[i].unit ? scn_keys[i].unit : "";
	return "";
}

unsigned bed_scn_nkeys(void)
{
	return N_KEYS;
}

void bed_scn_key_doc(unsigned i, struct bed_scn_key_doc *d)
{
	const struct scn_key *k = &scn_keys[i];
	struct bed_scenario s;
	const char *field;

	bed_scenario_default(&s);
	field = (const char *)&s + k->off;
	memset(d, 0, sizeof(*d));
	d->name = k->name;
	d->unit = k->unit ? k->unit : "";
	d->help = k->help;
	switch (k->kind) {
	case SK_UINT:
		snprintf(d->def, sizeof(d->def), "%llu", k->size == sizeof(uint64_t) ?
			 (unsigned long long)*(const uint64_t *)(const void *)field :
			 (unsigned long long)*(const unsigned *)(const void *)field);
		if (k->min_set)
			snprintf(d->range, sizeof(d->range), "0, or %lu..%lu; K, M, G: x 1024^n",
				 k->min_set, k->hi);
		else
			snprintf(d->range, sizeof(d->range), "%lu..%lu", k->lo, k->hi);
		break;
	case SK_AUTO_UINT:
		snprintf(d->def, sizeof(d->def), "%d", *(const int *)(const void *)field);
		snprintf(d->range, sizeof(d->range), "-1, or %lu..%lu", k->lo, k->hi);
		break;
	case SK_BOOL:
		snprintf(d->def, sizeof(d->def), "%d", *(const bool *)(const void *)field);
		snprintf(d->range, sizeof(d->range), "0|1");
		break;
	case SK_STR:
		snprintf(d->def, sizeof(d->def), "%s", field[0] ? field : k->def);
		break;
	case SK_SECONDS:
	case SK_SECONDS0:
		snprintf(d->def, sizeof(d->def), "%g", *(const double *)(const void *)field);
		snprintf(d->range, sizeof(d->range), "%s..3600",
			 k->kind == SK_SECONDS ? "0.000001" : "0");
		break;
	case SK_CHOICE:
		snprintf(d->def, sizeof(d->def), "%s",
			 k->choice[*(const bool *)(const void *)field]);
		snprintf(d->range, sizeof(d->range), "%s|%s", k->choice[0], k->choice[1]);
		break;
	case SK_FUNC:
		snprintf(d->def, sizeof(d->def), "%s", k->def);
		break;
	}
	if (!d->range[0])
		snprintf(d->range, sizeof(d->range), "%s", k->range_fn ? k->range_fn() : k->range);
	d->def_is_value = d->def[0] != '(';
}

/* @s at column @col, wrapped at @width with @indent before each further
 * line; then a newline. */
static void put_wrapped(FILE *f, const char *s, size_t col, const char *indent, size_t width)
{
	bool bol = true;        /* nothing written on this line yet */

	while (*s) {
		size_t w = strcspn(s, " ");

		if (!bol && col + 1 + w > width) {
			fprintf(f, "\n%s", indent);
			col = strlen(indent);
		} else if (!bol) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		bol = false;
		col += w;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

/* @s for scdoc: '*' and '_' are its markup, '\' its escape (a leading
 * '-' the caller's to escape). */
static void put_scd(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("*_\\", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

void bed_scn_keys_print(FILE *f, bool man)
{
	for (unsigned i = 0; i < N_KEYS; i++) {
		struct bed_scn_key_doc d;
		char head[700];

		bed_scn_key_doc(i, &d);
		if (man) {
			fputc('*', f);
			put_scd(f, d.name);
			fputs("* = ", f);
			snprintf(head, sizeof(head), "%s [%s%s%s]", d.def, d.unit,
				 d.unit[0] ? "; " : "", d.range);
			put_scd(f, head);
			/* a line that starts with '-' would be a list item */
			fputs(d.help[0] == '-' ? "\n\t\\" : "\n\t", f);
			put_scd(f, d.help);
			fputs(i + 1 < N_KEYS ? "\n\n" : "\n", f);
			continue;
		}
		snprintf(head, sizeof(head), "%s = %s [%s%s%s]", d.name, d.def, d.unit,
			 d.unit[0] ? "; " : "", d.range);
		put_wrapped(f, head, 0, "        ", 78);
		fputs("    ", f);
		put_wrapped(f, d.help, 4, "    ", 78);
	}
}
