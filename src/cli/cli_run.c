// SPDX-License-Identifier: MIT
/*
 * cli_run.c - `rxscale run`: build the simulated system (host CPUs, the
 * kernel API, the device model, the r8169-style driver), apply ethtool
 * commands, run the workload, and report as iperf3/mpstat/ethtool do.
 *
 * The NIC is a PCIe chip (r8169 path) or a USB adapter (r8152 path),
 * cli_nic.c.  Workloads: iperf3 (TCP or UDP, either direction) and ping
 * over a line-rate wire to a peer, or capture replay (--pcap): each frame
 * enters the NIC at its recorded time (or back to back at line rate), the
 * driver delivers it through NAPI, and a sink counts frames, bytes and
 * flows per RX queue, checking each frame's hash and queue against an
 * independent rss_classify() of the configuration ethtool reports.
 */
#include <errno.h>
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "cli/compare.h"
#include "cli/scenario.h"
#include "drv/r8169.h"
#include "kern/kern.h"
#include "kern/ethtool_cmd.h"
#include "load/load_host.h"
#include "load/load_iperf3.h"
#include "load/load_wire.h"
#include "stack/tcp_cc.h"
#include "model/rtlm.h"
#include "rss/rss_hash.h"
#include "rss/rss_indir.h"
#include "rss/rss_toeplitz.h"

#ifndef RXSCALE_PRESETS_DIR
#define RXSCALE_PRESETS_DIR "presets"
#endif

#define FLOWSET_BITS 16

static void flowset_add(struct flowset *fs, uint64_t key)
{
	size_t i;

	key |= 1;       /* 0 marks an empty slot */
	if (2 * (fs->n + 1) > fs->cap) {
		struct flowset big = { calloc(fs->cap ? 2 * fs->cap : 1024, 8),
				       fs->cap ? 2 * fs->cap : 1024, 0 };

		if (!big.slot)
			return;
		for (size_t j = 0; j < fs->cap; j++)
			if (fs->slot[j])
				flowset_add(&big, fs->slot[j]);
		free(fs->slot);
		*fs = big;
	}
	for (i = (key * 0x9E3779B97F4A7C15ull) >> 40; ; i++) {
		i &= fs->cap - 1;
		if (fs->slot[i] == key)
			return;
		if (!fs->slot[i]) {
			fs->slot[i] = key;
			fs->n++;
			return;
		}
	}
}

#define MAX_INTERVALS 3600

/* Per-interval samples of an iperf3 run. */
struct intervals {
	struct sim_event ev;
	struct world *w;
	sim_time_t len_ns;              /* 1 s, or the run if shorter */
	unsigned n;
	uint64_t app_bytes[MAX_INTERVALS + 1];  /* cumulative at each end */
	sim_time_t end[MAX_INTERVALS + 1];
	struct sim_acct_sample acct2[SIM_CPUS_MAX];     /* at 2 s (mean start) */
	bool have2;
	struct sim_acct_sample acct_end[SIM_CPUS_MAX];  /* at the run's end */
	bool have_end;
	uint64_t app_ns2, app_ns_end;   /* iperf3 process CPU ns at 2 s, end */
	uint64_t busy_ns2, busy_ns_end; /* the busy tasks' CPU ns, the same */
	sim_time_t t_end;               /* when acct_end was taken */
};

/* The configuration as ethtool reports it, for the independent check. */
static int snapshot_rss(struct world *w)
{
	const struct ethtool_ops *ops = w->dev->ethtool_ops;
	struct ethtool_rxfh_param p = { 0 };
	struct ethtool_rxfh_fields fl = { 0 };
	u32 indir[128];
	u8 key[40];

	p.indir = indir;
	p.key = key;
	if (ops->get_rxfh(w->dev, &p))
		return -EINVAL;
	rss_thash_fini(&w->key);
	if (rss_thash_init(&w->key, key, sizeof(key)))
		return -EINVAL;
	w->indir.size = 128;
	memcpy(w->indir.tbl, indir, sizeof(indir));
	w->cfg.key = &w->key;
	w->cfg.indir = &w->indir;
	w->cfg.ht = RSS_HT_RTL8127_DEFAULT;
	fl.flow_type = UDP_V4_FLOW;
	if (!ops->get_rxfh_fields(w->dev, &fl) && (fl.data & RXH_L4_B_0_1))
		w->cfg.ht |= RSS_HT_UDP_IPV4;
	fl.flow_type = UDP_V6_FLOW;
	if (!ops->get_rxfh_fields(w->dev, &fl) && (fl.data & RXH_L4_B_0_1))
		w->cfg.ht |= RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX;
	w->cfg.xfrm = 0;
	w->rss_on = ops->get_rx_ring_count(w->dev) >= 2;
	return 0;
}

static void replay_sink(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	struct world *w = data;
	unsigned q = skb_get_rx_queue(skb);
	const u8 *frame = skb_mac_header(skb);
	size_t len = skb->len + ETH_HLEN;
	u8 wire[16384 + VLAN_HLEN];
	struct net_flow f;
	struct rss_result r;
	unsigned want = 0;
	uint64_t fk = 0;

	(void)napi;
	/* the frame as it was on the wire: put back a tag the NIC stripped */
	if (skb->vlan_present && len <= sizeof(wire) - VLAN_HLEN) {
		memcpy(wire, frame, 12);
		memcpy(wire + 12, &skb->vlan_proto, 2);	/* __be16 */
		wire[14] = (u8)(skb->vlan_tci >> 8);
		wire[15] = (u8)skb->vlan_tci;
		memcpy(wire + 16, frame + 12, len - 12);
		frame = wire;
		len += VLAN_HLEN;
	}
	net_dissect(frame, len, NET_LINK_ETH, &f);
	rss_classify(&w->cfg, &f, &r);
	if (w->rss_on && r.in.type != RSS_TYPE_NONE) {
		want = r.queue;
		w->hashed++;
		if (skb->hash != r.hash)
			w->mismatches++;
	}
	if (q != want)
		w->mismatches++;
	/* a flow: addresses, protocol, ports (FNV-1a over the 5-tuple) */
	if (f.l3 != NET_L3_NONE) {
		const u8 *parts[2] = { f.src, f.dst };

		fk = 0xcbf29ce484222325ull;
		for (int k = 0; k < 2; k++)
			for (unsigned i = 0; i < f.addr_len; i++)
				fk = (fk ^ parts[k][i]) * 0x100000001b3ull;
		fk = (fk ^ f.ip_proto) * 0x100000001b3ull;
		if (f.l4_ok)
			fk = (fk ^ ((uint64_t)f.sport << 16 | f.dport)) * 0x100000001b3ull;
	}
	if (q < RTL_MAX_RX_QUEUES) {
		w->q_frames[q]++;
		w->q_bytes[q] += skb->len + ETH_HLEN;
		flowset_add(&w->q_flows[q], fk);
	}
	w->delivered++;
	consume_skb(skb);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int load_preset(struct world *w)
{
	char path[600], err[512];

	if (!strcmp(w->scn.preset, "default")) {
		sim_cost_load_default(&w->cost);
		return 0;
	}
	if (strchr(w->scn.preset, '/') || strstr(w->scn.preset, ".ini")) {
		snprintf(path, sizeof(path), "%s", w->scn.preset);
	} else {
		snprintf(path, sizeof(path), "%s/%s.ini", RXSCALE_PRESETS_DIR, w->scn.preset);
		if (access(path, R_OK)) {
			/* a name: say which names there are, sorted */
			char list[1200] = "default", names[16][64];
			unsigned nn = 0;
			DIR *d = opendir(RXSCALE_PRESETS_DIR);
			struct dirent *e;

			while (d && (e = readdir(d)) && nn < 16) {
				size_t l = strlen(e->d_name);

				if (l > 4 && l < 60 && !strcmp(e->d_name + l - 4, ".ini") &&
				    strcmp(e->d_name, "default.ini"))
					snprintf(names[nn++], sizeof(names[0]), "%.*s",
						 (int)(l - 4), e->d_name);
			}
			if (d)
				closedir(d);
			qsort(names, nn, sizeof(names[0]), cmp_name);
			for (unsigned i = 0; i < nn; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 ", %.60s", names[i]);
			cli_err("host.preset: no preset '%s' (there are: %s; or give a path "
				"to an .ini file)", w->scn.preset, list);
			return -1;
		}
	}
	if (sim_cost_load_file(&w->cost, path, err, sizeof(err))) {
		cli_err("%s", err);
		return -1;
	}
	return 0;
}

static int world_up(struct world *w)
{
	struct sim_host_params p;
	int rc;

	w->nic = cli_nic_for_chip(w->scn.chip);
	if (!w->nic) {
		cli_err("nic.chip: unknown chip '%s' (RTL8125A, RTL8125B, RTL8125D, "
			"RTL8126A, RTL8127A, RTL8157, RTL8159)", w->scn.chip);
		return -1;
	}
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcasecmp(rtl_chips[i].name, w->scn.chip))
			w->chip = &rtl_chips[i];
	for (unsigned i = 0; i < rtl_usb_chips_count; i++)
		if (!strcasecmp(rtl_usb_chips[i].name, w->scn.chip))
			w->uchip = &rtl_usb_chips[i];
	/* keys the chosen NIC does not have are errors, not silent no-ops */
	if (w->chip && (w->scn.usb_link_mbps != 20000 || w->scn.usb_imod_ns != 40000 ||
			w->scn.usb_rx_usecs != -1 || w->scn.usb_mitigation_off)) {
		cli_err("usb.*: these keys apply to the USB chips (RTL8157, RTL8159), not to %s",
			w->chip->name);
		return -1;
	}
	if (w->uchip && (w->scn.rx_queues > 1 || w->scn.ownbit_erratum ||
			 w->scn.ownbit_workaround != -1)) {
		cli_err("nic.rx_queues/nic.ownbit_*: these keys apply to the PCIe chips; "
			"the %s has one RX queue", w->uchip->name);
		return -1;
	}
	if (load_preset(w))
		return -1;
	sim_init(&w->sim);
	sim_host_params_default(&p, w->scn.cpus);
	if (w->scn.speed[0]) {
		char tmp[SCN_STR], *tok, *save = NULL;
		unsigned c = 0;

		snprintf(tmp, sizeof(tmp), "%s", w->scn.speed);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save), c++) {
			if (c >= w->scn.cpus) {
				cli_err("host.speed: more speeds than the %u CPUs", w->scn.cpus);
				return -1;
			}
			p.speed_ppm[c] = (uint32_t)(strtod(tok, NULL) * 1e6 + 0.5);
		}
	}
	w->host = sim_host_create(&w->sim, &w->cost, &p);
	if (!w->host || kern_init(&w->k, w->host, w->scn.seed)) {
		cli_err("out of memory");
		return -1;
	}
	if (w->scn.irq_cpus[0]) {
		struct sim_cpuset set;

		if (sim_cpuset_parse(&set, w->scn.irq_cpus, w->scn.cpus) ||
		    kern_irq_restrict(&w->k, &set)) {
			cli_err("host.irq_cpus: '%s' is not a CPU list within 0-%u",
				w->scn.irq_cpus, w->scn.cpus - 1);
			return -1;
		}
	}
	if (w->nic->up(w))
		return -1;
	if (w->scn.rx_queues && w->nic->nqueues(w) != w->scn.rx_queues)
		fprintf(stderr, "rxscale: note: nic.rx_queues=%u asked, the driver set up %u on "
			"the %s with %u CPUs\n", w->scn.rx_queues, w->nic->nqueues(w),
			w->nic->chip_name(w), w->scn.cpus);
	rc = dev_open(w->dev, NULL);
	if (rc) {
		cli_err("cannot bring %s up: %s", w->dev->name, strerror(-rc));
		return -1;
	}
	if (w->scn.rx_usecs != SCN_RX_USECS_DEFAULT) {
		/* nic.rx_usecs, as a user sets it */
		char cmd[64];

		if (w->scn.rx_usecs == SCN_RX_USECS_ADAPTIVE)
			snprintf(cmd, sizeof(cmd), "-C %s adaptive-rx on", w->dev->name);
		else
			snprintf(cmd, sizeof(cmd), "-C %s rx-usecs %d", w->dev->name,
				 w->scn.rx_usecs);
		if (ethtool_cmd_run(w->dev, cmd, stdout, stderr)) {
			cli_err("nic.rx_usecs: ethtool %s failed", cmd);
			return -1;
		}
	}
	return 0;
}

static void world_down(struct world *w)
{
	load_busy_stop(&w->busy);
	if (w->ip_up)
		iperf3_fini(&w->ip);
	if (w->pg_up)
		ping_fini(&w->pg);
	if (w->wire_up)
		load_wire_fini(&w->wire);
	if (w->nic)
		w->nic->down(w);
	if (w->host) {
		kern_fini(&w->k);
		sim_host_destroy(w->host);
		sim_fini(&w->sim);
	}
	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		free(w->q_flows[q].slot);
	rss_thash_fini(&w->key);
}

/* The same, query output discarded (a sweep's check pass). */
static int run_ethtool_quiet(struct world *w)
{
	FILE *null = fopen("/dev/null", "w");
	int rc = 0;

	for (unsigned i = 0; i < w->scn.n_ethtool && !rc; i++) {
		rc = ethtool_cmd_run(w->dev, w->scn.ethtool[i], null ? null : stdout, stderr);
		if (rc)
			cli_err("ethtool %s: failed (exit %d); the run stops before any "
				"traffic", w->scn.ethtool[i], rc);
	}
	if (null)
		fclose(null);
	return rc ? -1 : 0;
}

/* Run the scenario's ethtool commands in order; query output to @out
 * (stderr with --json, so stdout stays one JSON document). */
static int run_ethtool(struct world *w, FILE *out)
{
	for (unsigned i = 0; i < w->scn.n_ethtool; i++) {
		int rc = ethtool_cmd_run(w->dev, w->scn.ethtool[i], out, stderr);

		if (rc) {
			cli_err("ethtool %s: failed (exit %d); the run stops before any "
				"traffic", w->scn.ethtool[i], rc);
			return -1;
		}
	}
	return 0;
}

/* ----- replay ----- */

struct replay {
	struct sim_event ev;
	struct world *w;
	struct cli_pcap *pc;
	uint64_t t0, last;              /* capture time of the first frame */
	uint64_t frames, bytes;
	int err;
	u8 buf[16384];
	size_t len;
	bool pending;
};

/* Fetch the next frame into r->buf; false at the end (or on error). */
static bool replay_fetch(struct replay *r, uint64_t *when)
{
	const uint8_t *d;
	size_t n;
	int rc;

	for (;;) {
		rc = cli_pcap_next(r->pc, &d, &n);
		if (rc <= 0) {
			r->err = rc < 0;
			return false;
		}
		if (!n)
			continue;
		if (n > sizeof(r->buf))
			n = sizeof(r->buf);     /* the MAC counts it too long */
		memcpy(r->buf, d, n);
		r->len = n;
		break;
	}
	if (r->w->scn.line_rate) {
		/* back to back: preamble + IFG 20 bytes, FCS 4, minimum 64 */
		u64 wire = (r->len < 60 ? 60 : r->len) + 4 + 20;
		u64 mbps = r->w->nic->mbps(r->w);

		*when = r->last + (r->frames ? wire * 8000 / mbps : 0);
	} else {
		uint64_t ts = cli_pcap_ts_ns(r->pc);

		if (!r->frames)
			r->t0 = ts;
		*when = ts >= r->t0 ? ts - r->t0 : r->last;
		if (*when < r->last)
			*when = r->last;        /* out-of-order stamps: keep order */
	}
	return true;
}

static void replay_fn(struct sim *s, struct sim_event *ev)
{
	struct replay *r = ev->arg;
	uint64_t when;

	struct load_wire_nic port = r->w->nic->port(r->w);

	port.eth_rx(port.dev, r->buf, r->len);
	r->frames++;
	r->bytes += r->len;
	r->last = sim_now(s);
	if (replay_fetch(r, &when))
		sim_schedule_at(s, ev, when);
}

/* ----- reports ----- */

struct cpu_pct {
	double v[SIM_ACCT_NR], ksoftirqd;
};

static void cpu_pct(struct world *w, unsigned cpu, struct cpu_pct *p)
{
	struct sim_acct_sample s;
	double tot = 0;

	sim_host_acct(w->host, cpu, &s);
	for (int k = 0; k < SIM_ACCT_NR; k++)
		tot += (double)s.ns[k];
	for (int k = 0; k < SIM_ACCT_NR; k++)
		p->v[k] = tot ? 100.0 * (double)s.ns[k] / tot : 0;
	if (!tot)
		p->v[SIM_ACCT_IDLE] = 100.0;    /* no time went by at all */
	p->ksoftirqd = tot ? 100.0 * (double)s.ksoftirqd_ns / tot : 0;
}

/* One CPU's mpstat figures as a JSON object. */
static json_object *cpu_json(unsigned c, const struct cpu_pct *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cpu", json_object_new_int((int)c));
	json_object_object_add(o, "usr", json_object_new_double(p->v[SIM_ACCT_USR]));
	json_object_object_add(o, "sys", json_object_new_double(p->v[SIM_ACCT_SYS]));
	json_object_object_add(o, "irq", json_object_new_double(p->v[SIM_ACCT_IRQ]));
	json_object_object_add(o, "soft", json_object_new_double(p->v[SIM_ACCT_SOFT]));
	json_object_object_add(o, "idle", json_object_new_double(p->v[SIM_ACCT_IDLE]));
	json_object_object_add(o, "ksoftirqd", json_object_new_double(p->ksoftirqd));
	return o;
}

/* The driver's counters of RX queue @q as a JSON object. */
static json_object *queue_json(struct world *w, unsigned q)
{
	json_object *o = json_object_new_object();
	u64 packets, bytes, drops;

	w->nic->queue(w, q, &packets, &bytes, &drops);
	json_object_object_add(o, "queue", json_object_new_int((int)q));
	json_object_object_add(o, "packets", json_object_new_int64((int64_t)packets));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(o, "drops", json_object_new_int64((int64_t)drops));
	return o;
}

static void print_mpstat(struct world *w)
{
	printf("\nCPU      %%usr    %%sys    %%irq   %%soft   %%idle  ksoftirqd\n");
	for (unsigned c = 0; c < w->scn.cpus; c++) {
		struct cpu_pct p;

		cpu_pct(w, c, &p);
		printf("%-3u  %7.2f %7.2f %7.2f %7.2f %7.2f %10.2f\n", c,
		       p.v[SIM_ACCT_USR], p.v[SIM_ACCT_SYS], p.v[SIM_ACCT_IRQ],
		       p.v[SIM_ACCT_SOFT], p.v[SIM_ACCT_IDLE], p.ksoftirqd);
	}
}

/* Drops by reason: the device's counters and the driver's. */
static unsigned drop_reasons(struct world *w, struct drop_reason *d)
{
	return w->nic->drop_reasons(w, d);
}

static void print_replay(struct world *w, struct replay *r)
{
	struct drop_reason d[CLI_DROP_REASONS];
	unsigned nd = drop_reasons(w, d);
	u64 dropped = 0;

	printf("\nqueue  frames      bytes  flows  share\n");
	for (unsigned q = 0; q < w->nic->nqueues(w); q++)
		printf("%-5u %7llu %10llu %6zu %5.1f%%\n", q,
		       (unsigned long long)w->q_frames[q],
		       (unsigned long long)w->q_bytes[q], w->q_flows[q].n,
		       w->delivered ? 100.0 * (double)w->q_frames[q] / (double)w->delivered : 0);
	{
		u64 qb = 0;

		for (unsigned q = 0; q < w->nic->nqueues(w); q++)
			qb += w->q_bytes[q];
		/* delivered bytes: after the NIC stripped VLAN tags, without FCS */
		printf("total %7llu %10llu\n", (unsigned long long)w->delivered,
		       (unsigned long long)qb);
	}
	for (unsigned i = 0; i < nd; i++)
		dropped += d[i].n;
	printf("\naccounting: %llu frames (%llu bytes) offered = %llu delivered + %llu dropped",
	       (unsigned long long)r->frames, (unsigned long long)r->bytes,
	       (unsigned long long)w->delivered,
	       (unsigned long long)dropped);
	for (unsigned i = 0; i < nd; i++)
		if (d[i].n)
			printf(" (%s %llu)", d[i].name, (unsigned long long)d[i].n);
	printf("\n");
	if (strcmp(w->nic->bus, "pci"))
		return;         /* one queue, no RSS: nothing to check */
	printf("queue check: %llu frames hashed, %llu queue/hash mismatches against an "
	       "independent rss_classify()\n", (unsigned long long)w->hashed,
	       (unsigned long long)w->mismatches);
}

static void print_json(struct world *w, struct replay *r)
{
	json_object *root = json_object_new_object(), *sum = json_object_new_object();
	json_object *cpus = json_object_new_array(), *qs = json_object_new_array();
	json_object *rep = json_object_new_object(), *drop = json_object_new_object();
	struct drop_reason d[CLI_DROP_REASONS];
	unsigned nd = drop_reasons(w, d);

	for (unsigned c = 0; c < w->scn.cpus; c++) {
		struct cpu_pct p;

		cpu_pct(w, c, &p);
		json_object_array_add(cpus, cpu_json(c, &p));
	}
	for (unsigned q = 0; q < w->nic->nqueues(w); q++) {
		json_object *o = queue_json(w, q);

		json_object_object_add(o, "flows", json_object_new_int64((int64_t)w->q_flows[q].n));
		json_object_array_add(qs, o);
	}
	json_object_object_add(sum, "cpus", cpus);
	json_object_object_add(sum, "queues", qs);
	json_object_object_add(root, "summary", sum);
	json_object_object_add(rep, "frames", json_object_new_int64((int64_t)r->frames));
	json_object_object_add(rep, "delivered", json_object_new_int64((int64_t)w->delivered));
	for (unsigned i = 0; i < nd; i++)
		if (d[i].n)
			json_object_object_add(drop, d[i].name,
					       json_object_new_int64((int64_t)d[i].n));
	json_object_object_add(rep, "dropped", drop);
	json_object_object_add(rep, "queue_mismatches",
			       json_object_new_int64((int64_t)w->mismatches));
	json_object_object_add(root, "replay", rep);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

static void interval_fn(struct sim *s, struct sim_event *ev)
{
	struct intervals *iv = ev->arg;
	struct world *w = iv->w;

	if (iv->n < MAX_INTERVALS) {
		iv->n++;
		iv->end[iv->n] = sim_now(s);
		iv->app_bytes[iv->n] = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
	}
	if (sim_now(s) == SIM_S(2) && !iv->have2) {
		sim_host_sync(w->host);
		for (unsigned c = 0; c < w->scn.cpus; c++)
			sim_host_acct(w->host, c, &iv->acct2[c]);
		iv->app_ns2 = w->ip_up ? iperf3_cpu_ns(&w->ip) : 0;
		iv->busy_ns2 = load_busy_cpu_ns(&w->busy);
		iv->have2 = true;
	}
	if (sim_now(s) + iv->len_ns <= (sim_time_t)(w->scn.duration_s * 1e9) + 1)
		sim_schedule_in(s, ev, iv->len_ns);
}

static void fmt_bytes(char *buf, size_t n, double bytes)
{
	if (bytes >= 1024.0 * 1024 * 1024)
		snprintf(buf, n, "%.2f GBytes", bytes / (1024.0 * 1024 * 1024));
	else if (bytes >= 1024.0 * 1024)
		snprintf(buf, n, "%.2f MBytes", bytes / (1024.0 * 1024));
	else
		snprintf(buf, n, "%.2f KBytes", bytes / 1024.0);
}

static void fmt_rate(char *buf, size_t n, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, n, "%.2f Gbits/sec", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, n, "%.2f Mbits/sec", bps / 1e6);
	else
		snprintf(buf, n, "%.2f Kbits/sec", bps / 1e3);
}

/* CPU percentages over the mean window: after 2 s when the run is longer
 * than 3 s (EXPERIMENTS.md), else the whole run. */
static void window_pct(struct world *w, struct intervals *iv, unsigned cpu,
		       struct cpu_pct *p)
{
	struct sim_acct_sample s, z = { 0 };
	const struct sim_acct_sample *b = iv->have2 && w->scn.duration_s > 3 ?
					  &iv->acct2[cpu] : &z;
	double tot = 0;

	if (iv->have_end)
		s = iv->acct_end[cpu];
	else
		sim_host_acct(w->host, cpu, &s);
	for (int k = 0; k < SIM_ACCT_NR; k++)
		tot += (double)(s.ns[k] - b->ns[k]);
	for (int k = 0; k < SIM_ACCT_NR; k++)
		p->v[k] = tot ? 100.0 * (double)(s.ns[k] - b->ns[k]) / tot : 0;
	if (!tot)
		p->v[SIM_ACCT_IDLE] = 100.0;
	p->ksoftirqd = tot ? 100.0 * (double)(s.ksoftirqd_ns - b->ksoftirqd_ns) / tot : 0;
}

/*
 * Put each interval's bytes where they crossed the wire.  The receiver
 * counts bytes when they are delivered in order, in batches: a GRO packet
 * flushed just after an interval boundary, or out-of-order data released
 * by a retransmission, carries bytes that arrived before the boundary.
 * No window can hold more than the line's goodput (@limit_bps) plus one
 * segment (@seg bytes, the phase of the frames); what an interval holds
 * beyond that arrived earlier, so it moves to the interval before.  The
 * total is unchanged.
 */
static void attribute_intervals(struct intervals *iv, uint64_t limit_bps, unsigned seg)
{
	static uint64_t d[MAX_INTERVALS + 1];

	for (unsigned i = 1; i <= iv->n; i++)
		d[i] = iv->app_bytes[i] - iv->app_bytes[i - 1];
	for (unsigned i = iv->n; i > 1; i--) {
		double t = (double)(iv->end[i] - iv->end[i - 1]) / 1e9;
		uint64_t cap = (uint64_t)((double)limit_bps * t / 8) + seg;

		if (d[i] > cap) {
			d[i - 1] += d[i] - cap;
			d[i] = cap;
		}
	}
	for (unsigned i = 1; i <= iv->n; i++)
		iv->app_bytes[i] = iv->app_bytes[i - 1] + d[i];
}

/* The host's iperf3 process, all threads, as top's %CPU (100 = one CPU)
 * over the mean window. */
static double app_cpu_pct(struct world *w, const struct intervals *iv)
{
	bool win = iv->have2 && w->scn.duration_s > 3;
	double span = (double)(iv->t_end - (win ? SIM_S(2) : 0));

	return span > 0 ? 100.0 * (double)(iv->app_ns_end -
					   (win ? iv->app_ns2 : 0)) / span : 0;
}

/* The busy tasks (host.busy_tasks), all of them, as top's %CPU over the
 * mean window. */
static double busy_cpu_pct(struct world *w, const struct intervals *iv)
{
	bool win = iv->have2 && w->scn.duration_s > 3;
	double span = (double)(iv->t_end - (win ? SIM_S(2) : 0));

	return span > 0 ? 100.0 * (double)(iv->busy_ns_end -
					   (win ? iv->busy_ns2 : 0)) / span : 0;
}

/* The scenario's compare rows, evaluated on this run. */
struct cmp_out {
	const struct compare_row *row;
	double value;
	bool ok;
	char note[128];
};

static unsigned evaluate_rows(struct world *w, struct intervals *iv,
			      struct cmp_out *out, unsigned max)
{
	static double gbps[MAX_INTERVALS], soft[SIM_CPUS_MAX], idle[SIM_CPUS_MAX];
	static bool irqc[SIM_CPUS_MAX];
	struct run_figures f = { .gbps = gbps, .ncpus = w->scn.cpus, .soft = soft,
				 .idle = idle, .irq_cpu = irqc };
	char list[128], *tok, *save = NULL;
	struct sim_cpuset set;
	unsigned n = 0;

	for (unsigned i = 1; i <= iv->n; i++) {
		double t = (double)(iv->end[i] - iv->end[i - 1]) / 1e9;

		gbps[f.n_gbps++] = t > 0 ? (double)(iv->app_bytes[i] -
						    iv->app_bytes[i - 1]) * 8 / t / 1e9 : 0;
	}
	f.first_mean = w->scn.duration_s > 3 && f.n_gbps > 2 ? 2 : 0;
	for (unsigned c = 0; c < w->scn.cpus; c++) {
		struct cpu_pct p;

		window_pct(w, iv, c, &p);
		soft[c] = p.v[SIM_ACCT_SOFT];
		idle[c] = p.v[SIM_ACCT_IDLE];
		if (p.ksoftirqd > f.ksoftirqd_max)
			f.ksoftirqd_max = p.ksoftirqd;
	}
	f.app_cpu = app_cpu_pct(w, iv);
	if (w->pg_up) {
		double md;

		f.have_ping = ping_stats(&w->pg, &f.ping_min, &f.ping_avg,
					 &f.ping_max, &md);
	}
	if (!w->scn.irq_cpus[0] || sim_cpuset_parse(&set, w->scn.irq_cpus, w->scn.cpus))
		sim_cpuset_first_n(&set, w->scn.cpus);
	for (unsigned c = 0; c < w->scn.cpus; c++)
		irqc[c] = sim_cpuset_test(&set, c);
	snprintf(list, sizeof(list), "%s", w->scn.compare_rows);
	for (tok = strtok_r(list, ", ", &save); tok && n < max;
	     tok = strtok_r(NULL, ", ", &save)) {
		const struct compare_row *r = compare_row_find(tok);

		if (!r)
			continue;       /* checked when the scenario was loaded */
		out[n].row = r;
		out[n].value = r->value(&f, r, &out[n].ok, out[n].note, sizeof(out[n].note));
		n++;
	}
	return n;
}

/* What ran, for a JSON reader: chip, queues, CPUs, preset, seed, the
 * workload. */
static json_object *config_json(struct world *w, const struct iperf3_cfg *cfg)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "chip", json_object_new_string(w->nic->chip_name(w)));
	json_object_object_add(o, "bus", json_object_new_string(w->nic->bus));
	json_object_object_add(o, "rx_queues", json_object_new_int((int)w->nic->nqueues(w)));
	json_object_object_add(o, "rss", json_object_new_boolean(w->nic->rss_on(w)));
	json_object_object_add(o, "cpus", json_object_new_int((int)w->scn.cpus));
	json_object_object_add(o, "preset", json_object_new_string(w->cost.name));
	json_object_object_add(o, "seed", json_object_new_int64((int64_t)w->scn.seed));
	json_object_object_add(o, "duration_s", json_object_new_double(w->scn.duration_s));
	json_object_object_add(o, "streams", json_object_new_int((int)cfg->streams));
	json_object_object_add(o, "protocol", json_object_new_string(cfg->udp ? "udp" : "tcp"));
	json_object_object_add(o, "direction", json_object_new_string(
		cfg->reverse ? "host to peer" : "peer to host"));
	return o;
}

static int run_iperf3(struct world *w, bool json, struct cli_sweep_point *pt)
{
	struct iperf3_cfg cfg = {
		.streams = w->scn.iperf_streams, .udp = w->scn.iperf_udp,
		.bitrate = w->scn.iperf_bitrate, .len = w->scn.iperf_len,
		.seed = w->scn.seed, .rcvbuf = w->scn.iperf_rcvbuf,
		.reverse = w->scn.iperf_reverse, .sndbuf = w->scn.iperf_sndbuf,
		.thread_per_stream = w->scn.iperf_thread_per_stream,
	};

	if (cfg.udp && !cfg.len)
		cfg.len = 1448;
	if (cfg.udp && (cfg.len < 16 || cfg.len > 1472)) {
		cli_err("iperf3.len: a UDP datagram carries 16..1472 bytes");
		return -1;
	}
	if (cfg.thread_per_stream && !cfg.reverse) {
		cli_err("iperf3.threads: a thread per stream is modelled for the sender (-R) only");
		return -1;
	}
	if (cfg.reverse && cfg.sndbuf && cfg.sndbuf < (cfg.len ? cfg.len : 128u * 1024)) {
		cli_err("iperf3.sndbuf: %u bytes is less than one write (iperf3.len, %u)",
			cfg.sndbuf, cfg.len ? cfg.len : 128u * 1024);
		return -1;
	}
	if (cfg.udp && cfg.reverse) {
		cli_err("iperf3.reverse: only TCP can run reversed (the host sending)");
		return -1;
	}
	tcp_cc_parse(w->scn.iperf_cc, &cfg.cc);
	struct intervals *iv = calloc(1, sizeof(*iv));
	sim_time_t dur = (sim_time_t)(w->scn.duration_s * 1e9);
	uint64_t sent = 0, got = 0, rcvbuf = 0, queued = 0, nic_drops = 0;
	uint64_t drv_drops = 0, inflight = 0, app_at_end, tcp_sent = 0, tcp_got = 0;
	uint64_t tx_local_drops = 0, tx_in_flight = 0;
	double secs;
	char b1[64], b2[64];

	if (!iv)
		return -1;
	struct load_wire_nic port = w->nic->port(w);

	if (load_wire_init(&w->wire, &w->sim, &port, w->nic->mbps(w),
			   w->scn.prop_ns, load_host_peer_rx, &w->lh)) {
		free(iv);
		return -1;
	}
	w->wire_up = true;
	if (cfg.streams) {
		if (iperf3_init(&w->ip, &cfg, w->host, &w->wire, w->dev)) {
			cli_err("iperf3: bad configuration");
			free(iv);
			return -1;
		}
		w->ip_up = true;
	}
	if (w->scn.ping_count) {
		struct ping_cfg pc = {
			.count = w->scn.ping_count, .size = w->scn.ping_size,
			.interval = (sim_time_t)(w->scn.ping_interval_s * 1e9),
			.from_host = w->scn.ping_from_host,
		};

		if (ping_init(&w->pg, &pc, &w->sim, &w->wire, w->dev->dev_addr,
			      w->host, w->dev)) {
			cli_err("ping: bad configuration");
			free(iv);
			return -1;
		}
		w->pg_up = true;
		/* the first probe 0.5 s in, after the streams ramp up */
		ping_start(&w->pg, dur > SIM_MS(500) ? SIM_MS(500) : 0);
	}
	load_host_init(&w->lh, w->dev, w->ip_up ? &w->ip : NULL,
		       w->pg_up ? &w->pg : NULL);
	iv->w = w;
	iv->len_ns = dur < SIM_S(1) ? dur : SIM_S(1);
	sim_event_init(&iv->ev, interval_fn, iv);
	sim_schedule_in(&w->sim, &iv->ev, iv->len_ns);
	if (w->ip_up)
		iperf3_start(&w->ip);
	load_busy_start(&w->busy, w->host, w->scn.busy_tasks);     /* validated */
	sim_run_until(&w->sim, dur);
	if (w->ip_up)
		iperf3_stop(&w->ip);
	if (w->pg_up)
		sim_cancel(&w->sim, &w->pg.ev);
	sim_cancel(&w->sim, &iv->ev);
	if (iv->end[iv->n] < dur && iv->n < MAX_INTERVALS) {
		/* the last, partial interval, as iperf3 prints it */
		iv->n++;
		iv->end[iv->n] = dur;
		iv->app_bytes[iv->n] = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
	}
	sim_host_sync(w->host);
	app_at_end = w->ip_up ? iperf3_rx_bytes(&w->ip) : 0;
	if (w->ip_up)
		attribute_intervals(iv, cfg.udp ? iperf3_goodput_limit_bps(&w->ip, w->nic->mbps(w))
				    : (uint64_t)w->nic->mbps(w) * 1000000ull * 1448 / 1538,
				    cfg.udp ? cfg.len : 1448);
	/* let what is on the wire and in the rings drain, so every datagram
	 * sent is accounted for; CPU figures above are taken already */
	{
		struct sim_acct_sample keep[SIM_CPUS_MAX];

		for (unsigned c = 0; c < w->scn.cpus; c++)
			sim_host_acct(w->host, c, &keep[c]);
		iv->app_ns_end = w->ip_up ? iperf3_cpu_ns(&w->ip) : 0;
		iv->busy_ns_end = load_busy_cpu_ns(&w->busy);
		iv->t_end = sim_now(&w->sim);
		sim_run_until(&w->sim, dur + SIM_MS(50));
		sim_host_sync(w->host);
		memcpy(iv->acct_end, keep, sizeof(keep[0]) * w->scn.cpus);
		iv->have_end = true;
	}
	secs = (double)dur / 1e9;
	for (unsigned i = 0; w->ip_up && !cfg.udp && i < cfg.streams; i++) {
		tcp_sent += w->ip.s[i].snd.st.segs_out + w->ip.s[i].snd.st.probes;
		tcp_got += w->ip.s[i].rcv.st.segs_in;
	}
	if (w->ip_up && !cfg.udp && cfg.reverse) {
		/* the host sends: its losses are local (no skb, qdisc full) and
		 * on the way out; what is left is in the qdisc or on the wire */
		const struct netdev_queue *q = netdev_get_tx_queue(w->dev, 0);

		tx_local_drops = w->ip.data_tx_fail;
		tx_in_flight = q->q_len + w->wire.to_peer.n;
	}
	for (unsigned i = 0; w->ip_up && i < cfg.streams; i++) {
		sent += w->ip.s[i].sent;
		got += w->ip.s[i].rx_dgrams;
		rcvbuf += w->ip.s[i].rcvbuf_errors;
		queued += w->ip.s[i].q_dgrams;
	}
	{
		struct drop_reason d[CLI_DROP_REASONS];
		unsigned nd = drop_reasons(w, d);

		/* the device's reasons, then the driver's (driver_*, no_handler) */
		for (unsigned i = 0; i < nd; i++) {
			if (!strncmp(d[i].name, "driver_", 7) || !strcmp(d[i].name, "no_handler"))
				drv_drops += d[i].n;
			else
				nic_drops += d[i].n;
		}
		inflight = w->nic->model_inflight(w) + w->wire.to_dut.n;
	}
	if (pt) {
		double mn, md, mx;

		pt->gbps = (double)app_at_end * 8 / secs / 1e9;
		pt->ksoftirqd = 0;
		pt->soft_max = 0;
		for (unsigned c = 0; c < w->scn.cpus; c++) {
			struct cpu_pct p;

			window_pct(w, iv, c, &p);
			if (p.ksoftirqd > pt->ksoftirqd)
				pt->ksoftirqd = p.ksoftirqd;
			if (p.v[SIM_ACCT_SOFT] > pt->soft_max)
				pt->soft_max = p.v[SIM_ACCT_SOFT];
		}
		pt->irqs_per_s = (double)w->nic->interrupts(w) / ((double)sim_now(&w->sim) / 1e9);
		pt->ping_avg_ms = -1;
		if (w->pg_up && !ping_stats(&w->pg, &mn, &pt->ping_avg_ms, &mx, &md))
			pt->ping_avg_ms = -1;
		pt->retransmits = w->ip_up ? iperf3_retransmits(&w->ip) : 0;
		free(iv);
		return 0;
	}
	if (json) {
		json_object *root = json_object_new_object(), *sum = json_object_new_object();
		json_object *ivs = json_object_new_array(), *cpus = json_object_new_array();
		json_object *qs = json_object_new_array();

		for (unsigned i = 1; i <= iv->n; i++) {
			json_object *o = json_object_new_object();
			double t = (double)(iv->end[i] - iv->end[i - 1]) / 1e9;

			json_object_object_add(o, "start", json_object_new_double((double)iv->end[i - 1] / 1e9));
			json_object_object_add(o, "end", json_object_new_double((double)iv->end[i] / 1e9));
			json_object_object_add(o, "gbps", json_object_new_double(
				t > 0 ? (double)(iv->app_bytes[i] - iv->app_bytes[i - 1]) * 8 / t / 1e9 : 0));
			json_object_array_add(ivs, o);
		}
		json_object *acc = json_object_new_object();

		json_object_object_add(sum, "throughput_gbps", json_object_new_double(
			(double)app_at_end * 8 / secs / 1e9));
		json_object_object_add(acc, "sent", json_object_new_int64((int64_t)sent));
		json_object_object_add(acc, "received", json_object_new_int64((int64_t)got));
		json_object_object_add(acc, "rcvbuf_errors", json_object_new_int64((int64_t)rcvbuf));
		json_object_object_add(acc, "socket_queued", json_object_new_int64((int64_t)queued));
		json_object_object_add(acc, "nic_drops", json_object_new_int64((int64_t)nic_drops));
		json_object_object_add(acc, "driver_drops", json_object_new_int64((int64_t)drv_drops));
		json_object_object_add(acc, "in_flight", json_object_new_int64((int64_t)inflight));
		json_object_object_add(acc, "not_for_a_socket",
				       json_object_new_int64((int64_t)w->lh.no_socket));
		if (cfg.udp) {
			json_object_object_add(root, "udp", acc);
		} else {
			json_object *t = json_object_new_object();

			json_object_put(acc);
			if (cfg.reverse) {
				json_object_object_add(t, "direction", json_object_new_string("host to peer"));
				json_object_object_add(t, "frames_sent", json_object_new_int64((int64_t)tcp_sent));
				json_object_object_add(t, "frames_received", json_object_new_int64((int64_t)tcp_got));
				json_object_object_add(t, "host_drops", json_object_new_int64((int64_t)tx_local_drops));
				json_object_object_add(t, "in_flight", json_object_new_int64((int64_t)tx_in_flight));
			} else {
				json_object_object_add(t, "direction", json_object_new_string("peer to host"));
				json_object_object_add(t, "frames_sent", json_object_new_int64((int64_t)tcp_sent));
				json_object_object_add(t, "frames_received", json_object_new_int64((int64_t)tcp_got));
				json_object_object_add(t, "nic_drops", json_object_new_int64((int64_t)nic_drops));
				json_object_object_add(t, "driver_drops", json_object_new_int64((int64_t)drv_drops));
				json_object_object_add(t, "in_flight", json_object_new_int64((int64_t)inflight));
			}
			json_object_object_add(t, "retransmits", json_object_new_int64(
				(int64_t)iperf3_retransmits(&w->ip)));
			json_object_object_add(root, "tcp", t);
		}
		{
			double mn, av, mx, md;

			if (w->pg_up && ping_stats(&w->pg, &mn, &av, &mx, &md)) {
				json_object *po = json_object_new_object();

				json_object_object_add(po, "min_ms", json_object_new_double(mn));
				json_object_object_add(po, "avg_ms", json_object_new_double(av));
				json_object_object_add(po, "max_ms", json_object_new_double(mx));
				json_object_object_add(po, "mdev_ms", json_object_new_double(md));
				json_object_object_add(po, "transmitted", json_object_new_int((int)w->pg.sent));
				json_object_object_add(po, "received", json_object_new_int((int)w->pg.received));
				json_object_object_add(sum, "ping", po);
			}
		}
		json_object_object_add(sum, "retransmits", json_object_new_int64(
			(int64_t)(w->ip_up ? iperf3_retransmits(&w->ip) : 0)));
		json_object_object_add(sum, "datagrams_sent", json_object_new_int64((int64_t)sent));
		json_object_object_add(sum, "datagrams_received", json_object_new_int64((int64_t)got));
		json_object_object_add(sum, "rcvbuf_errors", json_object_new_int64((int64_t)rcvbuf));
		for (unsigned c = 0; c < w->scn.cpus; c++) {
			struct cpu_pct p;

			window_pct(w, iv, c, &p);
			json_object_array_add(cpus, cpu_json(c, &p));
		}
		for (unsigned q = 0; q < w->nic->nqueues(w); q++)
			json_object_array_add(qs, queue_json(w, q));
		json_object_object_add(sum, "cpus", cpus);
		json_object_object_add(sum, "queues", qs);
		if (w->ip_up) {
			json_object *top = json_object_new_object();

			json_object_object_add(top, "iperf3", json_object_new_double(
				app_cpu_pct(w, iv)));
			for (unsigned c = 0; c < w->scn.cpus; c++) {
				struct cpu_pct p;
				char name[32];

				window_pct(w, iv, c, &p);
				snprintf(name, sizeof(name), "ksoftirqd/%u", c);
				json_object_object_add(top, name, json_object_new_double(p.ksoftirqd));
			}
			json_object_object_add(sum, "top", top);
		}
		{
			struct drop_reason d[CLI_DROP_REASONS];
			unsigned nd = drop_reasons(w, d);
			json_object *dr = json_object_new_object();

			for (unsigned i = 0; i < nd; i++)
				if (d[i].n)
					json_object_object_add(dr, d[i].name,
							       json_object_new_int64((int64_t)d[i].n));
			json_object_object_add(sum, "dropped", dr);
		}
		json_object_object_add(root, "config", config_json(w, &cfg));
		json_object_object_add(root, "summary", sum);
		json_object_object_add(root, "intervals", ivs);
		if (w->compare) {
			struct cmp_out co[16];
			unsigned nc = evaluate_rows(w, iv, co, 16);
			json_object *arr = json_object_new_array();

			for (unsigned i = 0; i < nc; i++) {
				json_object *o = json_object_new_object(), *band = json_object_new_array();

				json_object_object_add(o, "row", json_object_new_string(co[i].row->id));
				json_object_object_add(o, "figure", json_object_new_string(co[i].row->figure));
				json_object_object_add(o, "seed", json_object_new_string(co[i].row->seed));
				json_object_object_add(o, "value", json_object_new_double(co[i].value));
				json_object_array_add(band, json_object_new_double(co[i].row->lo));
				json_object_array_add(band, json_object_new_double(co[i].row->hi));
				json_object_object_add(o, "band", band);
				json_object_object_add(o, "role", json_object_new_string(
					co[i].row->fit ? "fit" : "predicted"));
				json_object_object_add(o, "ok", json_object_new_boolean(co[i].ok));
				json_object_object_add(o, "note", json_object_new_string(co[i].note));
				json_object_array_add(arr, o);
			}
			json_object_object_add(root, "compare", arr);
		}
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
		free(iv);
		return 0;
	}
	if (getenv("RXSCALE_DEBUG") && w->hc) {
		const struct rtlu_stats *us = rtlu_stats(w->u);
		fprintf(stderr, "dbg: irqs %llu moderated %llu tds %llu naks %llu tx_transfers %llu rx_transfers %llu fifo_max %u\n",
			(unsigned long long)w->hc->stats.irqs, (unsigned long long)w->hc->stats.irq_moderated,
			(unsigned long long)w->hc->stats.tds_done, (unsigned long long)us->tx_naks,
			(unsigned long long)us->tx_transfers, (unsigned long long)us->rx_transfers, us->rx_fifo_max);
	}
	printf("rxscale run: %s, %u RX queue%s, RSS %s, %u CPU%s, preset %s, seed %llu\n",
	       w->nic->chip_name(w), w->nic->nqueues(w), w->nic->nqueues(w) == 1 ? "" : "s",
	       w->nic->rss_on(w) ? "on" : "off", w->scn.cpus, w->scn.cpus == 1 ? "" : "s",
	       w->cost.name,
	       (unsigned long long)w->scn.seed);
	if (w->utp && w->utp->adaptive_rx)
		printf("USB %u Gbit/s link, xHCI IMOD %u ns, rx-usecs adaptive, mitigation %s\n",
		       w->scn.usb_link_mbps / 1000, w->scn.usb_imod_ns,
		       w->utp->mitigation_off ? "off" : "on");
	else if (w->utp)
		printf("USB %u Gbit/s link, xHCI IMOD %u ns, rx-usecs %u, mitigation %s\n",
		       w->scn.usb_link_mbps / 1000, w->scn.usb_imod_ns,
		       (unsigned)(w->utp->coalesce / 1000), w->utp->mitigation_off ? "off" : "on");
	if (w->busy.n)
		printf("host load: stress-ng --cpu %u (%u CPU-bound tasks)\n", w->busy.n,
		       w->busy.n);
	if (w->ip_up && cfg.udp)
		printf("iperf3 -s on the host; peer: iperf3 -c -u -b %llu -l %u -P %u -t %g\n",
		       (unsigned long long)cfg.bitrate, cfg.len, cfg.streams, w->scn.duration_s);
	else if (w->ip_up && cfg.reverse)
		printf("iperf3 -c PEER -C %s -P %u -t %g on the host, sending (MSS 1448, "
		       "timestamps, no TSO)\n", tcp_cc_name(cfg.cc), cfg.streams,
		       w->scn.duration_s);
	else if (w->ip_up)
		printf("iperf3 -s on the host; peer: iperf3 -c -C %s -P %u -t %g (MSS 1448, "
		       "timestamps)\n", tcp_cc_name(cfg.cc), cfg.streams, w->scn.duration_s);
	if (w->ip_up)
		printf("[ ID] Interval           Transfer     Bitrate\n");
	for (unsigned i = 1; w->ip_up && i <= iv->n; i++) {
		double t = (double)(iv->end[i] - iv->end[i - 1]) / 1e9;
		double bytes = (double)(iv->app_bytes[i] - iv->app_bytes[i - 1]);

		fmt_bytes(b1, sizeof(b1), bytes);
		fmt_rate(b2, sizeof(b2), t > 0 ? bytes * 8 / t : 0);
		printf("[SUM] %6.2f-%-6.2f sec  %12s  %15s\n", (double)iv->end[i - 1] / 1e9,
		       (double)iv->end[i] / 1e9, b1, b2);
	}
	fmt_bytes(b1, sizeof(b1), (double)app_at_end);
	fmt_rate(b2, sizeof(b2), (double)app_at_end * 8 / secs);
	if (w->ip_up) {
		printf("- - - - - - - - - - - - - - - - - - - - - - - - -\n");
		printf("[SUM] %6.2f-%-6.2f sec  %12s  %15s  %s", 0.0, secs, b1, b2,
		       cfg.reverse ? "receiver (the peer)" : "receiver");
		if (!cfg.udp)
			printf("  (%llu retransmits)", (unsigned long long)iperf3_retransmits(&w->ip));
		printf("\n");
	}
	if (w->ip_up && !cfg.udp && !cfg.reverse)
		printf("\naccounting: %llu TCP frames sent by the peer (%llu retransmitted) = "
		       "%llu received by the host's sockets + %llu NIC drops + %llu driver "
		       "drops + %llu in flight\n", (unsigned long long)tcp_sent,
		       (unsigned long long)iperf3_retransmits(&w->ip),
		       (unsigned long long)tcp_got, (unsigned long long)nic_drops,
		       (unsigned long long)drv_drops, (unsigned long long)inflight);
	if (nic_drops + drv_drops) {
		/* ethtool -S shows the driver's counters; the device's drop
		 * reasons (its tally) are here */
		struct drop_reason d[CLI_DROP_REASONS];
		unsigned nd = drop_reasons(w, d);

		printf("drops by reason:");
		for (unsigned i = 0; i < nd; i++)
			if (d[i].n)
				printf(" %s %llu", d[i].name, (unsigned long long)d[i].n);
		printf("\n");
	}
	if (w->ip_up && !cfg.udp && cfg.reverse)
		printf("\naccounting: %llu TCP frames sent by the host (%llu retransmitted) = "
		       "%llu received by the peer + %llu dropped in the host (no skb, qdisc "
		       "full) + %llu in the qdisc or on the wire\n", (unsigned long long)tcp_sent,
		       (unsigned long long)iperf3_retransmits(&w->ip),
		       (unsigned long long)tcp_got, (unsigned long long)tx_local_drops,
		       (unsigned long long)tx_in_flight);
	if (w->ip_up && cfg.udp)
		printf("\naccounting: %llu datagrams sent = %llu read by iperf3 + %llu receive "
	       "buffer errors + %llu NIC drops + %llu driver drops + %llu in flight\n",
	       (unsigned long long)sent, (unsigned long long)got,
	       (unsigned long long)rcvbuf, (unsigned long long)nic_drops,
	       (unsigned long long)drv_drops, (unsigned long long)(inflight + queued));
	if (w->pg_up) {
		double mn, av, mx, md;
		unsigned tx = w->pg.sent, rx = w->pg.received;

		printf("\n--- %s ping statistics ---\n", w->scn.ping_from_host ?
		       "192.168.2.2" : "192.168.2.1");
		printf("%u packets transmitted, %u received, %g%% packet loss, time %.0fms\n",
		       tx, rx, tx ? 100.0 * (tx - rx) / tx : 0.0,
		       tx > 1 ? (double)(w->pg.t_sent[tx - 1] - w->pg.t_sent[0]) / 1e6 : 0.0);
		if (ping_stats(&w->pg, &mn, &av, &mx, &md))
			printf("rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms\n", mn, av, mx, md);
	}
	printf("\nCPU      %%usr    %%sys    %%irq   %%soft   %%idle  ksoftirqd%s\n",
	       iv->have2 && w->scn.duration_s > 3 ? "   (mean after 2 s)" : "");
	for (unsigned c = 0; c < w->scn.cpus; c++) {
		struct cpu_pct p;

		window_pct(w, iv, c, &p);
		printf("%-3u  %7.2f %7.2f %7.2f %7.2f %7.2f %10.2f\n", c,
		       p.v[SIM_ACCT_USR], p.v[SIM_ACCT_SYS], p.v[SIM_ACCT_IRQ],
		       p.v[SIM_ACCT_SOFT], p.v[SIM_ACCT_IDLE], p.ksoftirqd);
	}
	/* top's view of the processes the seeds quote */
	if (w->ip_up) {
		printf("\ntop (%%CPU, same window): iperf3 %.1f", app_cpu_pct(w, iv));
		for (unsigned c = 0; c < w->scn.cpus; c++) {
			struct cpu_pct p;

			window_pct(w, iv, c, &p);
			if (p.ksoftirqd >= 0.05)
				printf(", ksoftirqd/%u %.1f", c, p.ksoftirqd);
		}
		if (w->busy.n)
			printf(", stress-ng-cpu (%u) %.1f", w->busy.n, busy_cpu_pct(w, iv));
		printf("\n");
	}
	printf("\n");
	fflush(stdout);
	snprintf(b1, sizeof(b1), "-S %s", w->dev->name);
	ethtool_cmd_run(w->dev, b1, stdout, stderr);
	if (w->compare) {
		struct cmp_out co[16];
		unsigned nc = evaluate_rows(w, iv, co, 16);

		printf("\n%-4s  %-34s  %-30s  %8s  %-20s  %-9s  %s\n", "row", "figure",
		       "seed", "sim", "band", "role", "in band");
		for (unsigned i = 0; i < nc; i++) {
			char band[40];

			if (co[i].row->band_text)
				snprintf(band, sizeof(band), "%s", co[i].row->band_text);
			else if (co[i].row->hi > 1e8)
				snprintf(band, sizeof(band), ">= %g", co[i].row->lo);
			else
				snprintf(band, sizeof(band), "%g ... %g", co[i].row->lo, co[i].row->hi);
			printf("%-4s  %-34s  %-30s  %8.*f  %-20s  %-9s  %s  %s\n", co[i].row->id,
			       co[i].row->figure, co[i].row->seed,
			       co[i].row->hi < 5 ? 3 : 2, co[i].value, band,
			       co[i].row->fit ? "fit" : "predicted", co[i].ok ? "yes" : "NO",
			       co[i].note);
		}
		if (!nc)
			printf("(this scenario names no EXPERIMENTS.md rows: compare.rows)\n");
	}
	free(iv);
	return 0;
}

/* ----- --sweep KEY=V1,V2,... ----- */

#define SWEEP_MAX 32

/*
 * One sweep point: @base with @set applied, in a fresh world.  @idle_ping:
 * instead of the workload, the host pings the idle peer 20 times, 0.1 s
 * apart (the seed measured ping on an idle link).
 */
static int sweep_one(const struct scenario *base, const char *set, bool idle_ping,
		     struct cli_sweep_point *pt)
{
	struct world *w = calloc(1, sizeof(*w));
	char err[600];
	int rc;

	if (!w) {
		cli_err("out of memory");
		return -1;
	}
	w->scn = *base;
	scenario_set(&w->scn, set, err, sizeof(err));    /* validated before */
	if (idle_ping) {
		w->scn.iperf_streams = 0;
		w->scn.ping_from_host = true;
		w->scn.ping_interval_s = 0.1;
		w->scn.ping_count = 20;
		w->scn.duration_s = 2.5;
	}
	rc = world_up(w) || run_ethtool_quiet(w) || run_iperf3(w, false, pt);
	world_down(w);
	free(w);
	return rc ? -1 : 0;
}

/*
 * Split @spec ("usb.rx_usecs=0,5,15") into @key and its values (at most
 * SWEEP_MAX); 0, or CLI_EXIT_USAGE with the error printed.
 */
static int sweep_parse(const char *spec, char key[64], char vals[SWEEP_MAX][64],
		       unsigned *nvals)
{
	const char *eq = strchr(spec, '=');
	char buf[2100];
	unsigned n = 0;

	if (!eq || eq == spec || (size_t)(eq - spec) >= 64 || !eq[1]) {
		cli_err("--sweep: expected section.key=V1,V2,... (e.g. usb.rx_usecs=0,5,15)");
		return CLI_EXIT_USAGE;
	}
	memcpy(key, spec, (size_t)(eq - spec));
	key[eq - spec] = 0;
	if (strlen(eq + 1) >= sizeof(buf)) {
		cli_err("--sweep: the value list is too long");
		return CLI_EXIT_USAGE;
	}
	snprintf(buf, sizeof(buf), "%s", eq + 1);
	/* split by hand: strtok would skip empty values silently */
	for (char *v = buf, *next; v; v = next) {
		next = strchr(v, ',');
		if (next)
			*next++ = 0;
		if (!*v) {
			cli_err("--sweep: an empty value in '%.64s'", eq + 1);
			return CLI_EXIT_USAGE;
		}
		if (strlen(v) >= 64) {
			cli_err("--sweep: value '%.20s...' is longer than 63 characters", v);
			return CLI_EXIT_USAGE;
		}
		if (n == SWEEP_MAX) {
			cli_err("--sweep: at most %d values", SWEEP_MAX);
			return CLI_EXIT_USAGE;
		}
		snprintf(vals[n++], 64, "%s", v);
	}
	*nvals = n;
	return 0;
}

/* @base with @key=@val applied: 0, or CLI_EXIT_USAGE with the error
 * printed, also when it leaves no workload (@idle_ok: ping alone will do,
 * else iperf3 is needed). */
static int sweep_check(const struct scenario *base, const char *key, const char *val,
		       bool idle_ok)
{
	struct scenario t = *base;
	char set[200], err[600];

	snprintf(set, sizeof(set), "%.63s=%.63s", key, val);
	if (scenario_set(&t, set, err, sizeof(err))) {
		cli_err("--sweep: %s", err);
		return CLI_EXIT_USAGE;
	}
	if (t.pcap[0] || (!t.iperf_streams && !(idle_ok && t.ping_count))) {
		cli_err("--sweep: %s leaves no %s workload (a sweep needs one; "
			"not a capture replay)", set, idle_ok ? "iperf3 or ping" : "iperf3");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* Bring @base with @key=@val up once, with its ethtool commands, and down:
 * a value the NIC refuses fails here, before anything is printed. */
static int sweep_try(const struct scenario *base, const char *key, const char *val)
{
	struct world *w = calloc(1, sizeof(*w));
	char set[200], err[600];
	int bad;

	if (!w) {
		cli_err("out of memory");
		return -1;
	}
	snprintf(set, sizeof(set), "%.63s=%.63s", key, val);
	w->scn = *base;
	scenario_set(&w->scn, set, err, sizeof(err));
	bad = world_up(w) || run_ethtool_quiet(w);
	world_down(w);
	free(w);
	return bad ? -1 : 0;
}

/* The end of a sweep: its plot if asked for (cli_plot_sweep), named. */
static int sweep_plot(const char *plot, const char *tmp, const char *key,
		      char vals[][64], const char *const *names,
		      const struct cli_sweep_point *pt, unsigned nreg, unsigned n)
{
	if (!plot)
		return 0;
	if (cli_plot_sweep(plot, tmp, key, vals, names, pt, nreg, n))
		return 1;       /* it removed the temporary file */
	printf("plot: %s\n", plot);
	return 0;
}

/*
 * Run the scenario once per value of @spec ("usb.rx_usecs=0,5,15"), each
 * in a fresh world, and print one line per value; the ping column comes
 * from a second, idle run per value (sweep_one).
 */
static int run_sweep(const struct scenario *base, const char *spec, const char *plot)
{
	char key[64], vals[SWEEP_MAX][64], plot_tmp[PATH_MAX];
	struct cli_sweep_point pt[SWEEP_MAX];
	unsigned n = 0;
	int rc = sweep_parse(spec, key, vals, &n);

	if (rc)
		return rc;
	for (unsigned i = 0; i < n; i++)        /* validate all first */
		if (sweep_check(base, key, vals[i], false))
			return CLI_EXIT_USAGE;
	if (base->pcap[0] || !base->iperf_streams) {
		cli_err("--sweep: needs an iperf3 workload (not a capture replay)");
		return CLI_EXIT_USAGE;
	}
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return 1;
	/* bring every point's world up once before printing anything: a value
	 * the NIC refuses fails here, with nothing half-written */
	for (unsigned i = 0; i < n; i++)
		if (sweep_try(base, key, vals[i]))
			goto fail;
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, ", key, base->chip,
	       base->cpus, base->preset, (unsigned long long)base->seed);
	if (strcmp(key, "run.duration"))
		printf("%g s each (ping: idle, 20 probes)\n", base->duration_s);
	else
		printf("(ping: idle, 20 probes)\n");
	printf("%-12s %10s %11s %13s %13s %8s\n", key, "Gbit/s", "ksoftirqd%",
	       "interrupts/s", "ping avg ms", "retrans");
	for (unsigned i = 0; i < n; i++) {
		struct cli_sweep_point idle;
		char set[200];

		snprintf(set, sizeof(set), "%.63s=%.63s", key, vals[i]);
		if (sweep_one(base, set, false, &pt[i]) || sweep_one(base, set, true, &idle))
			goto fail;
		pt[i].ping_avg_ms = idle.ping_avg_ms;
		printf("%-12s %10.2f %11.1f %13.0f %13.3f %8llu\n", vals[i], pt[i].gbps,
		       pt[i].ksoftirqd, pt[i].irqs_per_s, pt[i].ping_avg_ms,
		       (unsigned long long)pt[i].retransmits);
		fflush(stdout);
	}
	return sweep_plot(plot, plot_tmp, key, vals, NULL, pt, 1, n);
fail:
	if (plot)
		unlink(plot_tmp);
	return 1;
}

/* One figure of a sweep point, and whether more of it is better. */
static double figure_of(const struct cli_sweep_point *p, enum scn_figure f, bool *higher)
{
	*higher = f == SCN_FIG_GBPS;
	switch (f) {
	case SCN_FIG_GBPS: return p->gbps;
	case SCN_FIG_SOFT: return p->soft_max;
	case SCN_FIG_IRQS: return p->irqs_per_s;
	case SCN_FIG_PING: return p->ping_avg_ms;
	}
	return 0;
}

static const char *const figure_label[] = {
	[SCN_FIG_GBPS] = "Gbit/s", [SCN_FIG_SOFT] = "busiest CPU %soft",
	[SCN_FIG_IRQS] = "interrupts/s", [SCN_FIG_PING] = "ping avg ms",
};

/*
 * A regime's verdict line: the best value by its main figure, and, when a
 * value is "adaptive", how far adaptive is from the best of the others
 * (positive: worse).
 */
static void print_verdict(const struct scn_regime *r, char vals[][64],
			  const struct cli_sweep_point *pt, unsigned n)
{
	int best = -1, adaptive = -1;
	bool higher;

	for (unsigned i = 0; i < n; i++) {
		double v = figure_of(&pt[i], r->main, &higher);

		if (!strcmp(vals[i], "adaptive")) {
			adaptive = (int)i;
			continue;
		}
		if (r->main == SCN_FIG_PING && v < 0)
			continue;       /* no reply */
		if (best < 0 || (higher ? v > figure_of(&pt[best], r->main, &higher) :
				 v < figure_of(&pt[best], r->main, &higher)))
			best = (int)i;
	}
	if (best < 0)
		return;
	printf("main figure %s: best %s %.3f", figure_label[r->main], vals[best],
	       figure_of(&pt[best], r->main, &higher));
	if (adaptive >= 0) {
		double b = figure_of(&pt[best], r->main, &higher);
		double a = figure_of(&pt[adaptive], r->main, &higher);
		double worse = b ? (higher ? b - a : a - b) / b * 100 : 0;

		printf("; adaptive %.3f, %.1f %% %s", a, worse < 0 ? -worse : worse,
		       worse <= 0 ? "better" : "worse");
	}
	printf("\n");
}

/*
 * A sweep in the scenario's regimes: for each regime, the scenario
 * @pre (file and options) with the regime's overrides, then the --set
 * overrides @sets, then each value; one table per regime, its verdict,
 * and one plot with a curve per regime.  Ping comes from the run itself.
 */
static int run_regime_sweep(const struct scenario *pre, const char *const *sets,
			    unsigned nsets, const char *spec, const char *plot)
{
	char key[64], vals[SWEEP_MAX][64], plot_tmp[PATH_MAX], err[600];
	static struct cli_sweep_point pt[SCN_MAX_REGIMES * SWEEP_MAX];
	static struct scenario base[SCN_MAX_REGIMES];
	const char *names[SCN_MAX_REGIMES];
	unsigned n = 0, nreg = pre->n_regimes;
	int rc = sweep_parse(spec, key, vals, &n);

	if (rc)
		return rc;
	for (unsigned r = 0; r < nreg; r++) {
		base[r] = *pre;
		scenario_apply_regime(&base[r], &pre->regime[r]);
		for (unsigned i = 0; i < nsets; i++)
			if (scenario_set(&base[r], sets[i], err, sizeof(err))) {
				cli_err("%s", err);
				return CLI_EXIT_USAGE;
			}
		names[r] = pre->regime[r].name;
		for (unsigned i = 0; i < n; i++)
			if (sweep_check(&base[r], key, vals[i], true))
				return CLI_EXIT_USAGE;
	}
	if (plot && cli_plot_prepare(plot, plot_tmp, sizeof(plot_tmp)))
		return 1;
	for (unsigned r = 0; r < nreg; r++)
		for (unsigned i = 0; i < n; i++)
			if (sweep_try(&base[r], key, vals[i]))
				goto fail;
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, %u regimes\n", key,
	       base[0].chip, base[0].cpus, base[0].preset, (unsigned long long)base[0].seed,
	       nreg);
	for (unsigned r = 0; r < nreg; r++) {
		const struct scn_regime *rg = &pre->regime[r];

		printf("\nregime %s (%g s each, main figure: %s):", rg->name,
		       base[r].duration_s, scenario_figure_name(rg->main));
		for (unsigned i = 0; i < rg->n_set; i++)
			printf(" %s", rg->set[i]);
		printf("\n%-12s %10s %10s %11s %13s %13s %8s\n", key, "Gbit/s", "%soft max",
		       "ksoftirqd%", "interrupts/s", "ping avg ms", "retrans");
		for (unsigned i = 0; i < n; i++) {
			struct cli_sweep_point *p = &pt[r * n + i];
			char set[200];

			snprintf(set, sizeof(set), "%.63s=%.63s", key, vals[i]);
			if (sweep_one(&base[r], set, false, p))
				goto fail;
			printf("%-12s %10.2f %10.1f %11.1f %13.0f %13.3f %8llu\n", vals[i],
			       p->gbps, p->soft_max, p->ksoftirqd, p->irqs_per_s,
			       p->ping_avg_ms, (unsigned long long)p->retransmits);
			fflush(stdout);
		}
		print_verdict(rg, vals, &pt[r * n], n);
	}
	return sweep_plot(plot, plot_tmp, key, vals, names, pt, nreg, n);
fail:
	if (plot)
		unlink(plot_tmp);
	return 1;
}

static void usage(FILE *out)
{
	fputs("usage: rxscale run [SCENARIO.ini] [--pcap FILE] [--set section.key=value]...\n"
	      "                   [--ethtool \"ARGS\"]... [--preset NAME] [--seed N] [--json]\n"
	      "                   [--compare] [--sweep section.key=V1,V2,... [--plot FILE]]\n"
	      "                   [--regime NAME]\n"
	      "\n"
	      "Simulate a host with a Realtek NIC model and its driver: a PCIe RTL8125/8126/\n"
	      "8127 on the r8169-style driver, or a USB RTL8157/8159 (nic.chip) on the\n"
	      "r8152-style driver behind an xHCI model.  --sweep runs the scenario once per\n"
	      "value and prints throughput, ksoftirqd, interrupts/s and ping; --plot draws\n"
	      "it with gnuplot (PNG, or SVG for a .svg name).\n"
	      "With --pcap (or replay.pcap in the scenario) the capture is replayed into\n"
	      "the NIC and each RX queue's frames, bytes and flows are reported, with the\n"
	      "mpstat-style CPU table and ethtool -S.  Scenario keys: see src/cli/scenario.h.\n"
	      "Without a capture it runs iperf3 (TCP by default, UDP with iperf3.udp=1,\n"
	      "the host sending with iperf3.reverse=1) and ping (ping.count) between the\n"
	      "peer and the host.  With no scenario: RTL8127A, 4 RX queues, RSS on,\n"
	      "iperf3 -P 20 for 10 s.\n", out);
}

int cli_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pcap", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "ethtool", required_argument, NULL, 'e' },
		{ "preset", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "compare", no_argument, NULL, 'c' },
		{ "sweep", required_argument, NULL, 'W' },
		{ "plot", required_argument, NULL, 'G' },
		{ "regime", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct world *w = calloc(1, sizeof(*w));
	struct replay *r = calloc(1, sizeof(*r));
	char err[600];
	const char *sets[64];
	unsigned nsets = 0;
	const char *sweep = NULL, *plot = NULL, *regime = NULL;
	struct scenario pre;
	bool seed_given = false, preset_given = false;
	bool json = false;
	int c, rc = CLI_EXIT_USAGE;
	uint64_t when;

	if (!w || !r) {
		cli_err("out of memory");
		return 1;
	}
	scenario_default(&w->scn);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (strlen(optarg) >= SCN_STR) {
				cli_err("--pcap: path too long");
				goto out;
			}
			snprintf(w->scn.pcap, sizeof(w->scn.pcap), "%s", optarg);
			break;
		case 's':
			if (nsets == 64) {
				cli_err("--set: too many");
				goto out;
			}
			sets[nsets++] = optarg;
			break;
		case 'e':
			if (w->scn.n_ethtool == SCN_MAX_ETHTOOL || strlen(optarg) >= SCN_STR) {
				cli_err("--ethtool: too many or too long");
				goto out;
			}
			snprintf(w->scn.ethtool[w->scn.n_ethtool++], SCN_STR, "%s", optarg);
			break;
		case 'P':
			if (strlen(optarg) >= SCN_STR) {
				cli_err("--preset: name too long");
				goto out;
			}
			snprintf(w->scn.preset, sizeof(w->scn.preset), "%s", optarg);
			preset_given = true;
			break;
		case 'S': {
			unsigned long v;

			if (cli_parse_uint(optarg, 0, ~0UL, &v)) {
				cli_err("--seed: '%.64s' is not a whole number", optarg);
				goto out;
			}
			w->scn.seed = v;
			seed_given = true;
			break;
		}
		case 'j':
			json = true;
			break;
		case 'c':
			w->compare = true;
			break;
		case 'W':
			sweep = optarg;
			break;
		case 'G':
			plot = optarg;
			break;
		case 'R':
			regime = optarg;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			cli_err("run: unknown or incomplete option '%.64s' (try --help)",
				argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		struct scenario file = w->scn;

		if (optind + 1 < argc) {
			cli_err("run: one scenario file at most ('%.64s' is extra)", argv[optind + 1]);
			goto out;
		}
		/* the file's keys come first, command-line options win */
		scenario_default(&file);
		if (scenario_load(&file, argv[optind], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
		if (w->scn.pcap[0])
			snprintf(file.pcap, sizeof(file.pcap), "%s", w->scn.pcap);
		if (file.n_ethtool + w->scn.n_ethtool > SCN_MAX_ETHTOOL) {
			cli_err("--ethtool: more than %d ethtool commands with the scenario's",
				SCN_MAX_ETHTOOL);
			goto out;
		}
		for (unsigned i = 0; i < w->scn.n_ethtool; i++)
			snprintf(file.ethtool[file.n_ethtool++], SCN_STR, "%s", w->scn.ethtool[i]);
		if (preset_given)
			snprintf(file.preset, sizeof(file.preset), "%s", w->scn.preset);
		if (seed_given)
			file.seed = w->scn.seed;
		w->scn = file;
	}
	if (regime) {
		const struct scn_regime *rg = scenario_regime(&w->scn, regime);

		if (!rg) {
			cli_err("--regime: the scenario has no regime '%.32s'", regime);
			goto out;
		}
		scenario_apply_regime(&w->scn, rg);
	}
	pre = w->scn;
	for (unsigned i = 0; i < nsets; i++) {
		if (scenario_set(&w->scn, sets[i], err, sizeof(err))) {
			cli_err("%s", err);
			goto out;
		}
	}
	if (plot && !sweep) {
		cli_err("--plot: only with --sweep");
		goto out;
	}
	if (w->compare && !w->scn.compare_rows[0]) {
		cli_err("--compare: this scenario names no EXPERIMENTS.md rows (compare.rows; "
			"the scenarios/e*.ini files do)");
		goto out;
	}
	if (sweep) {
		if (json || w->compare) {
			cli_err("--sweep: prints its own table (no --json or --compare)");
			goto out;
		}
		if (pre.n_regimes)
			rc = run_regime_sweep(&pre, sets, nsets, sweep, plot);
		else
			rc = run_sweep(&w->scn, sweep, plot);
		goto out;
	}
	if (pre.n_regimes)
		fprintf(stderr, "rxscale: note: the scenario's %u regimes are not run "
			"(--sweep runs them all, --regime NAME one of them)\n", pre.n_regimes);
	if (!w->scn.pcap[0]) {
		if (world_up(w) || run_ethtool(w, json ? stderr : stdout))
			goto out;
		rc = run_iperf3(w, json, NULL) ? 1 : 0;
		goto out;
	}
	r->pc = cli_pcap_open(w->scn.pcap);
	if (!r->pc)
		goto out;
	if (cli_pcap_link(r->pc) != NET_LINK_ETH) {
		cli_err("%s: only Ethernet captures can be replayed into a NIC", w->scn.pcap);
		goto out;
	}
	if (world_up(w))
		goto out;
	kern_netdev_set_rx_handler(w->dev, replay_sink, NULL, w);
	dev_set_promiscuity(w->dev, 1);
	if (run_ethtool(w, json ? stderr : stdout))
		goto out;
	if (!strcmp(w->nic->bus, "pci") && snapshot_rss(w)) {
		cli_err("cannot read the RSS configuration back");
		goto out;
	}
	r->w = w;
	sim_event_init(&r->ev, replay_fn, r);
	if (replay_fetch(r, &when))
		sim_schedule_at(&w->sim, &r->ev, when);
	sim_run(&w->sim);
	if (r->err)
		goto out;
	sim_host_sync(w->host);
	if (json) {
		print_json(w, r);
	} else {
		printf("rxscale run: %s, %u RX queue%s, RSS %s, %u CPUs, preset %s, seed %llu\n",
		       w->nic->chip_name(w), w->nic->nqueues(w),
		       w->nic->nqueues(w) == 1 ? "" : "s", w->rss_on ? "on" : "off",
		       w->scn.cpus, w->cost.name, (unsigned long long)w->scn.seed);
		printf("replay %s: %llu frames over %.6f s (%s)\n", w->scn.pcap,
		       (unsigned long long)r->frames, (double)sim_now(&w->sim) / 1e9,
		       w->scn.line_rate ? "back to back at line rate" : "recorded gaps");
		print_replay(w, r);
		print_mpstat(w);
		printf("\n");
		fflush(stdout);
		snprintf(err, sizeof(err), "-S %s", w->dev->name);
		ethtool_cmd_run(w->dev, err, stdout, stderr);
	}
	rc = w->mismatches ? 1 : 0;
	{
		struct drop_reason d[CLI_DROP_REASONS];
		unsigned nd = drop_reasons(w, d);
		u64 dropped = 0;

		for (unsigned i = 0; i < nd; i++)
			dropped += d[i].n;
		if (r->frames != w->delivered + dropped) {
			cli_err("replay: %llu frames offered but %llu delivered + %llu dropped: "
				"a frame was lost uncounted (a bug)", (unsigned long long)r->frames,
				(unsigned long long)w->delivered, (unsigned long long)dropped);
			rc = 1;
		}
	}
out:
	if (r->pc)
		cli_pcap_close(r->pc);
	world_down(w);
	free(r);
	free(w);
	return rc;
}
