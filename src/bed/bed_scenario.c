// SPDX-License-Identifier: MIT
/* bed_scenario.c - the typed scenario: INI files and --set overrides (see bed_scenario.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "bed/bed_util.h"
#include "bed/bed_compare.h"
#include "bed/bed_scenario.h"
#include "hw/rtl_chips.h"
#include "load/load_busy.h"
#include "sim/sim_idle.h"

void bed_scenario_default(struct bed_scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->duration_s = 10;
	s->seed = 1;
	s->cpus = 8;
	s->pkg_cstates = true;
	s->smt = 1;
	s->clock_drift = true;
	snprintf(s->preset, sizeof(s->preset), "default");
	snprintf(s->chip, sizeof(s->chip), "RTL8127A");
	s->ownbit_workaround = -1;
	s->iperf_streams = 20;
	s->iperf_instances = 1;
	s->iperf_bitrate = 1000000000ull;
	s->iperf_len = 0;
	snprintf(s->iperf_cc, sizeof(s->iperf_cc), "cubic");
	s->prop_ns = 1000;
	s->ping_interval_s = 1;
	s->ping_size = 56;
	s->usb_link_mbps = 20000;
	s->usb_imod_ns = 40000;
	s->usb_rx_usecs = -1;
	s->max_gap_s = 3600;
	s->fault.msix_avail = -1;
	s->fault.link_down = 0.01;
	s->rx_usecs = BED_SCN_RX_USECS_DEFAULT;
}

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

/* One scenario key (scenario.h lists them) and where its value goes. */
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
};

#define FIELD(f) offsetof(struct bed_scenario, f), sizeof(((struct bed_scenario *)0)->f)
#define UINT(k, f, l, h) { .name = k, .kind = SK_UINT, FIELD(f), .lo = l, .hi = h }
#define BOOL(k, f) { .name = k, .kind = SK_BOOL, FIELD(f) }
#define STR(k, f) { .name = k, .kind = SK_STR, FIELD(f) }
#define FUNC(k, fn) { .name = k, .kind = SK_FUNC, .set = fn }
#define CHOICE(k, f, no, yes, w) \
	{ .name = k, .kind = SK_CHOICE, FIELD(f), .choice = { no, yes }, .what = w }

static const struct scn_key scn_keys[] = {
	/* at least 1 us: the simulation's clock is integer ns */
	{ .name = "run.duration", .kind = SK_SECONDS, FIELD(duration_s),
	  .what = "a duration in [0.000001, 3600] s" },
	UINT("run.seed", seed, 0, ~0UL),
	UINT("host.cpus", cpus, 1, 256),
	STR("host.preset", preset),
	FUNC("host.speed", set_speed),
	UINT("host.busy_tasks", busy_tasks, 0, LOAD_BUSY_MAX),
	STR("host.irq_cpus", irq_cpus),
	FUNC("host.cpuidle", set_cpuidle),
	BOOL("host.pkg_cstates", pkg_cstates),
	UINT("host.smt", smt, 1, 2),
	BOOL("clock.drift", clock_drift),
	STR("nic.chip", chip),
	UINT("nic.rx_queues", rx_queues, 0, RTL_MAX_RX_QUEUES),
	BOOL("nic.ownbit_erratum", ownbit_erratum),
	{ .name = "nic.ownbit_workaround", .kind = SK_AUTO_UINT, FIELD(ownbit_workaround),
	  .lo = 0, .hi = 1 },
	FUNC("nic.rx_usecs", set_rx_usecs),
	STR("replay.pcap", pcap),
	BOOL("replay.line_rate", line_rate),
	{ .name = "replay.max_gap", .kind = SK_SECONDS, FIELD(max_gap_s),
	  .what = "a gap in [0.000001, 3600] s" },
	UINT("iperf3.streams", iperf_streams, 0, 128),
	UINT("iperf3.instances", iperf_instances, 1, BED_SCN_IPERF3_MAX_INSTANCES),
	BOOL("iperf3.udp", iperf_udp),
	FUNC("iperf3.bitrate", set_bitrate),
	FUNC("iperf3.cc", set_cc),
	STR("iperf3.cpus", iperf_cpus),
	{ .name = "iperf3.rcvbuf", .kind = SK_UINT, FIELD(iperf_rcvbuf), .lo = 0,
	  .hi = 64u << 20, .min_set = 4096 },
	FUNC("usb.link_gbps", set_link_gbps),
	UINT("usb.imod_ns", usb_imod_ns, 0, 1000000),
	/* 524 us: the 16-bit timer register in 8 ns units (research
	 * usb-and-coalescing.md s1.3-1.4) */
	{ .name = "usb.rx_usecs", .kind = SK_AUTO_UINT, FIELD(usb_rx_usecs), .lo = 0,
	  .hi = 524 },
	CHOICE("usb.mitigation", usb_mitigation_off, "on", "off", "on or off"),
	CHOICE("ping.from", ping_from_host, "peer", "host", "peer or host"),
	CHOICE("iperf3.threads", iperf_thread_per_stream, "1", "0",
	       "1 (one thread) or 0 (one per stream)"),
	BOOL("iperf3.reverse", iperf_reverse),
	{ .name = "iperf3.sndbuf", .kind = SK_UINT, FIELD(iperf_sndbuf), .lo = 0,
	  .hi = 64u << 20, .min_set = 65536 },
	UINT("iperf3.len", iperf_len, 0, 1 << 20),
	UINT("ping.count", ping_count, 0, 100000),
	{ .name = "ping.interval", .kind = SK_SECONDS, FIELD(ping_interval_s),
	  .what = "an interval in [1e-6, 3600] s" },
	UINT("ping.size", ping_size, 8, 1472),
	UINT("link.prop_ns", prop_ns, 0, 1000000000),
	FUNC("compare.rows", set_compare_rows),
	FUNC("ethtool.cmd", set_ethtool),
	FUNC("timeline.at", set_at),
	BOOL("fault.ownbit_erratum", ownbit_erratum),
	UINT("fault.ownbit_every", fault.ownbit_every, 0, 1000000),
	UINT("fault.ownbit_delay_ns", fault.ownbit_delay_ns, 0, 1000000000),
	UINT("fault.dma_fail_nth", fault.dma_fail_nth, 0, 4000000000u),
	UINT("fault.skb_fail_nth", fault.skb_fail_nth, 0, 4000000000u),
	UINT("fault.urb_fail_nth", fault.urb_fail_nth, 0, 4000000000u),
	UINT("fault.irq_fail_nth", fault.irq_fail_nth, 0, 1000000),
	{ .name = "fault.msix_avail", .kind = SK_AUTO_UINT, FIELD(fault.msix_avail),
	  .lo = 0, .hi = 2048 },
	BOOL("fault.msi_fail", fault.msi_fail),
	UINT("fault.msix_drop_next", fault.msix_drop_next, 0, 4000000000u),
	UINT("fault.msix_drop_every", fault.msix_drop_every, 0, 4000000000u),
	UINT("fault.rx_ring_full", fault.rx_ring_full, 0, (1u << RTL_HW_RX_QUEUES) - 1),
	{ .name = "fault.link_flap_every", .kind = SK_SECONDS0, FIELD(fault.link_flap_every),
	  .what = "a period in [0, 3600] s (0: no flaps)" },
	{ .name = "fault.link_down", .kind = SK_SECONDS, FIELD(fault.link_down),
	  .what = "a time in [0.000001, 3600] s" },
	UINT("fault.usb_ctrl_stall_next", fault.usb_ctrl_stall_next, 0, 1000000),
	UINT("fault.usb_xfer_error_every", fault.usb_xfer_error_every, 0, 4000000000u),
	BOOL("fault.usb_intr_silent", fault.usb_intr_silent),
	{ .name = "chaos.reconfig_every", .kind = SK_SECONDS0, FIELD(chaos.reconfig_every),
	  .what = "a mean interval in [0, 3600] s (0: none)" },
	{ .name = "chaos.fault_every", .kind = SK_SECONDS0, FIELD(chaos.fault_every),
	  .what = "a mean interval in [0, 3600] s (0: none)" },
};

/* One key; returns 0 or -1 with @msg set. */
static int apply(struct bed_scenario *s, const char *sec, const char *key,
		 const char *v, char *msg, size_t ml)
{
	const struct scn_key *k = NULL;
	char full[130], *field = (char *)s;
	unsigned long u;

	snprintf(full, sizeof(full), "%.60s.%.60s", sec, key);
	for (size_t i = 0; i < sizeof(scn_keys) / sizeof(scn_keys[0]) && !k; i++)
		if (!strcmp(full, scn_keys[i].name))
			k = &scn_keys[i];
	if (!k) {
		snprintf(msg, ml, "unknown key '%s'", full);
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

#define BED_SCN_MAX_KEYS 512   /* distinct section.key lines a file may set */

struct load_ctx {
	struct bed_scenario s;
	char msg[512];
	/* the section.key pairs set so far, to refuse one set twice */
	char (*seen)[128];
	unsigned nseen;
};

/* ethtool.cmd and timeline.at are lists: one line per item. */
static bool key_repeats(const char *sec, const char *key)
{
	return (!strcmp(sec, "ethtool") && !strcmp(key, "cmd")) ||
	       (!strcmp(sec, "timeline") && !strcmp(key, "at"));
}

/* Refuse a key the file already set in the same section (inih would let
 * the last one win without a word).  0, or -1 with @lc->msg set. */
static int once(struct load_ctx *lc, const char *sec, const char *key)
{
	char name[128];

	if (key_repeats(sec, key))
		return 0;
	snprintf(name, sizeof(name), "%.63s.%.63s", sec, key);
	for (unsigned i = 0; i < lc->nseen; i++)
		if (!strcmp(lc->seen[i], name)) {
			snprintf(lc->msg, sizeof(lc->msg), "%s: set twice in [%.63s] (one "
				 "value per key; the last would win silently)", name, sec);
			return -1;
		}
	if (lc->nseen == BED_SCN_MAX_KEYS) {
		snprintf(lc->msg, sizeof(lc->msg), "more than %d keys", BED_SCN_MAX_KEYS);
		return -1;
	}
	snprintf(lc->seen[lc->nseen++], sizeof(lc->seen[0]), "%s", name);
	return 0;
}

static const char *const figure_names[] = {
	[BED_SCN_FIG_GBPS] = "gbps", [BED_SCN_FIG_SOFT] = "soft",
	[BED_SCN_FIG_IRQS] = "irqs", [BED_SCN_FIG_PING] = "ping",
};

const char *bed_scenario_figure_name(enum bed_scn_figure f)
{
	return figure_names[f];
}

const struct bed_scn_regime *bed_scenario_regime(const struct bed_scenario *s, const char *name)
{
	for (unsigned i = 0; i < s->n_regimes; i++)
		if (!strcmp(s->regime[i].name, name))
			return &s->regime[i];
	return NULL;
}

/* One key of a [regime.NAME] section: "main = FIGURE" or an override,
 * which must be a valid "section.key = value" (checked on a copy). */
static int regime_key(struct bed_scenario *s, const char *name, const char *key,
		      const char *v, char *msg, size_t ml)
{
	struct bed_scn_regime *r = (struct bed_scn_regime *)bed_scenario_regime(s, name);
	char set[256], err[600];
	struct bed_scenario t = *s;

	if (!name[0] || strlen(name) >= sizeof(r->name)) {
		snprintf(msg, ml, "[regime.NAME]: a name of 1..%zu characters",
			 sizeof(r->name) - 1);
		return -1;
	}
	if (!r) {
		if (s->n_regimes == BED_SCN_MAX_REGIMES) {
			snprintf(msg, ml, "at most %d regimes", BED_SCN_MAX_REGIMES);
			return -1;
		}
		r = &s->regime[s->n_regimes++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->main = BED_SCN_FIG_GBPS;
	}
	if (!strcmp(key, "main")) {
		for (unsigned i = 0; i < sizeof(figure_names) / sizeof(figure_names[0]); i++)
			if (!strcmp(v, figure_names[i])) {
				r->main = (enum bed_scn_figure)i;
				return 0;
			}
		snprintf(msg, ml, "regime.%s.main: '%.32s' is not gbps, soft, irqs or ping",
			 name, v);
		return -1;
	}
	if (!strncmp(key, "regime.", 7) || !strchr(key, '.')) {
		snprintf(msg, ml, "regime.%s: '%.64s' is not a section.key of a scenario",
			 name, key);
		return -1;
	}
	if (r->n_set == BED_SCN_MAX_REGIME_SETS) {
		snprintf(msg, ml, "regime.%s: at most %d overrides", name, BED_SCN_MAX_REGIME_SETS);
		return -1;
	}
	if ((size_t)snprintf(set, sizeof(set), "%s=%s", key, v) >= sizeof(r->set[0])) {
		snprintf(msg, ml, "regime.%s: '%.32s' is longer than %zu characters", name,
			 key, sizeof(r->set[0]) - 1);
		return -1;
	}
	if (bed_scenario_set(&t, set, err, sizeof(err))) {
		snprintf(msg, ml, "regime.%s: %.400s", name, err + strlen("--set: "));
		return -1;
	}
	snprintf(r->set[r->n_set++], sizeof(r->set[0]), "%.127s", set);
	return 0;
}

void bed_scenario_apply_regime(struct bed_scenario *s, const struct bed_scn_regime *r)
{
	struct bed_scn_regime copy = *r;
	char err[600];

	s->n_regimes = 0;
	for (unsigned i = 0; i < copy.n_set; i++)
		bed_scenario_set(s, copy.set[i], err, sizeof(err));  /* validated */
}

static int handler(void *user, const char *sec, const char *key, const char *v)
{
	struct load_ctx *lc = user;

	if (lc->msg[0])
		return 0;       /* keep the first error's message */
	if (!sec[0]) {
		snprintf(lc->msg, sizeof(lc->msg), "key '%.64s' is outside any [section]", key);
		return 0;
	}
	if (once(lc, sec, key))
		return 0;
	if (!strncmp(sec, "regime.", 7))
		return regime_key(&lc->s, sec + 7, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
	return apply(&lc->s, sec, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
}

/* Longest line inih reads whole (its INI_MAX_LINE, 200 with the newline):
 * a longer one is split and the rest read as a line of its own. */
#define BED_SCN_MAX_LINE 198

/*
 * What inih does not say well, checked before it parses: not a regular
 * file, a line too long for inih (it would split it), a NUL byte, a
 * section header without its ']', an indented line (inih would append it
 * to the previous value), and a line that is neither a section, a key =
 * value (or key: value) nor a comment.  0, or -1 with @err naming the
 * file and line.
 */
static int precheck(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char line[BED_SCN_MAX_LINE + 2];
	unsigned n = 0, len = 0;
	const char *why = NULL;
	FILE *f;
	int c;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a scenario is an INI file)", path);
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!why) {
		c = getc(f);
		if (c != EOF && c != '\n') {
			if (c == 0)
				why = "a NUL byte";
			else if (len > BED_SCN_MAX_LINE)
				why = "line longer than 198 characters";
			else
				line[len++] = (char)c;
			continue;
		}
		if (c == EOF && !len)
			break;
		n++;
		line[len] = 0;
		len = 0;
		{
			char *p = line, *e = line + strlen(line);

			if (n == 1 && (unsigned char)p[0] == 0xEF &&
			    (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
				p += 3;         /* a UTF-8 BOM, which inih skips */
			while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
				*--e = 0;
			if (!*p)
				continue;
			if (*p == ' ' || *p == '\t') {
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p && *p != ';' && *p != '#')
					why = "an indented line (inih would append it to the "
					      "previous value); remove the indent";
			} else if (*p == ';' || *p == '#') {
				continue;
			} else if (*p == '[') {
				if (!strchr(p, ']'))
					why = "section header without ']'";
			} else if (!strpbrk(p, "=:")) {
				why = "not a section, a key = value or a comment";
			}
		}
		if (c == EOF)
			break;
	}
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%u: %s", path, n + (len ? 1 : 0), why);
		return -1;
	}
	return 0;
}

int bed_scenario_load(struct bed_scenario *s, const char *path, char *err, size_t errlen)
{
	struct load_ctx lc = { .s = *s };
	int rc;

	if (precheck(path, err, errlen))
		return -1;
	lc.seen = calloc(BED_SCN_MAX_KEYS, sizeof(*lc.seen));
	if (!lc.seen) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	errno = 0;
	rc = ini_parse(path, handler, &lc);
	free(lc.seen);
	if (rc == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : ENOENT));
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s:%d: %s", path, rc < 0 ? 0 : rc,
			 lc.msg[0] ? lc.msg : "syntax error");
		return -1;
	}
	*s = lc.s;
	return 0;
}

int bed_scenario_set(struct bed_scenario *s, const char *a, char *err, size_t errlen)
{
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	char sec[64], key[64], msg[512];
	struct bed_scenario t = *s;

	if (!dot || !eq || dot > eq || dot == a || eq == dot + 1 ||
	    (size_t)(dot - a) >= sizeof(sec) || (size_t)(eq - dot - 1) >= sizeof(key)) {
		snprintf(err, errlen, "--set %.64s: want section.key=value", a);
		return -1;
	}
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot - a), a);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	if (apply(&t, sec, key, eq + 1, msg, sizeof(msg))) {
		snprintf(err, errlen, "--set: %s", msg);
		return -1;
	}
	*s = t;
	return 0;
}
