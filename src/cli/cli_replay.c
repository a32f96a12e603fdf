// SPDX-License-Identifier: MIT
/*
 * cli_replay.c - `rxscale run --pcap`: each frame of a capture enters the
 * NIC at its recorded time (or back to back at line rate), the driver
 * delivers it through NAPI, and a sink counts frames, bytes and flows per
 * RX queue, checking each frame's hash and queue against an independent
 * rss_classify() of the configuration ethtool reports.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_world.h"
#include "report/report.h"

static void bed_flowset_add(struct bed_flowset *fs, uint64_t key)
{
	size_t i;

	key |= 1;       /* 0 marks an empty slot */
	if (2 * (fs->n + 1) > fs->cap) {
		struct bed_flowset big = { calloc(fs->cap ? 2 * fs->cap : 1024, 8),
				       fs->cap ? 2 * fs->cap : 1024, 0 };

		if (!big.slot)
			return;
		for (size_t j = 0; j < fs->cap; j++)
			if (fs->slot[j])
				bed_flowset_add(&big, fs->slot[j]);
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

/* The configuration as ethtool reports it, for the independent check. */
static int snapshot_rss(struct bed_world *w)
{
	const struct ethtool_ops *ops = w->dev->ethtool_ops;
	struct ethtool_rxfh_param p = { 0 };
	struct ethtool_rxfh_fields fl = { 0 };
	u32 indir[RSS_INDIR_MAX], n = ops->get_rxfh_indir_size(w->dev);
	u8 key[40];

	if (n > RSS_INDIR_MAX)
		return -EINVAL;
	p.indir = indir;
	p.key = key;
	if (ops->get_rxfh(w->dev, &p))
		return -EINVAL;
	rss_thash_fini(&w->key);
	if (rss_thash_init(&w->key, key, sizeof(key)))
		return -EINVAL;
	w->indir.size = n;      /* 128, or the what-if row's 256 */
	memcpy(w->indir.tbl, indir, n * sizeof(indir[0]));
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
	struct bed_world *w = data;
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
		bed_flowset_add(&w->q_flows[q], fk);
	}
	w->delivered++;
	consume_skb(skb);
}

struct replay {
	struct sim_event ev;
	struct bed_world *w;
	struct cli_pcap *pc;
	uint64_t t0, last;              /* capture time of the first frame */
	uint64_t frames, bytes;
	int err;
	u8 buf[16384];
	size_t len;
	bool pending;
	/* records not replayed, and frames the capture cut */
	uint64_t empty, cut, other_link;
	/* recorded gaps longer than replay.max_gap, and the time they lost */
	uint64_t gaps_cut, shift;
	unsigned nlinks;
	struct { int linktype; uint64_t n; } links[8];
};

/* A record of an interface whose link type is not Ethernet. */
static void count_other_link(struct replay *r, int linktype)
{
	unsigned i;

	r->other_link++;
	for (i = 0; i < r->nlinks; i++)
		if (r->links[i].linktype == linktype)
			break;
	if (i == r->nlinks) {
		if (r->nlinks == sizeof(r->links) / sizeof(r->links[0]))
			i--;    /* the last slot collects the rest */
		else
			r->links[r->nlinks++].linktype = linktype;
	}
	r->links[i].n++;
}

/* Fetch the next frame into r->buf; false at the end (or on error). */
static bool replay_fetch(struct replay *r, uint64_t *when)
{
	struct cli_frame fr;
	size_t n;
	int rc;

	for (;;) {
		rc = cli_pcap_read(r->pc, &fr);
		if (rc <= 0) {
			r->err = rc < 0;
			return false;
		}
		if (!fr.link_ok || fr.link != NET_LINK_ETH) {
			count_other_link(r, fr.linktype);
			continue;
		}
		n = fr.caplen;
		if (!n) {
			r->empty++;
			continue;
		}
		r->cut += fr.origlen > n;
		if (n > sizeof(r->buf))
			n = sizeof(r->buf);     /* the MAC counts it too long */
		memcpy(r->buf, fr.data, n);
		r->len = n;
		break;
	}
	if (r->w->scn.line_rate) {
		/* back to back: preamble + IFG 20 bytes, FCS 4, minimum 64 */
		u64 wire = (r->len < 60 ? 60 : r->len) + 4 + 20;
		u64 mbps = r->w->nic->mbps(r->w);

		*when = r->last + (r->frames ? wire * 8000 / mbps : 0);
	} else {
		uint64_t ts = fr.ts_ns, max = (uint64_t)(r->w->scn.max_gap_s * 1e9);

		if (!r->frames)
			r->t0 = ts;
		*when = ts >= r->t0 + r->shift ? ts - r->t0 - r->shift : r->last;
		if (*when < r->last)
			*when = r->last;        /* out-of-order stamps: keep order */
		/* a clock that jumped (a capture spanning years): idle time costs
		 * the driver's 1 Hz timer a tick per second and changes nothing,
		 * so a gap is at most max_gap long (tcpreplay's --maxsleep) */
		if (*when - r->last > max) {
			r->shift += *when - r->last - max;
			*when = r->last + max;
			r->gaps_cut++;
		}
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

/* One CPU's shares over the whole run, as mpstat prints them. */
static void cpu_pct(struct bed_world *w, unsigned cpu, struct rpt_cpu *p)
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


/* Open the capture, replay it into the NIC and report. */
int cli_run_replay(struct bed_world *w, bool json)
{
	struct replay *r = calloc(1, sizeof(*r));
	struct rpt_run *rp = calloc(1, sizeof(*rp));
	struct sim_acct_sample *acct = calloc(2 * (size_t)w->scn.cpus, sizeof(*acct));
	sim_time_t samp_t[2] = { 0, 0 };
	uint64_t when, dropped = 0;
	char why[600], lost_why[200];
	bool lost;
	int rc = CLI_EXIT_USAGE;

	if (!r || !rp || !acct) {
		cli_err("out of memory");
		rc = 1;
		goto out;
	}
	r->pc = cli_pcap_open(w->scn.pcap);
	if (!r->pc)
		goto out;
	if (!cli_pcap_has_ethernet(r->pc)) {
		cli_err("%s: only Ethernet captures can be replayed into a NIC", w->scn.pcap);
		goto out;
	}
	if (bed_world_up(w))
		goto out;
	kern_netdev_set_rx_handler(w->dev, replay_sink, NULL, w);
	dev_set_promiscuity(w->dev, 1);
	if (cli_world_ethtool(w, json ? stderr : stdout))
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
	/* a bad record part-way: report what was replayed, then the error */
	sim_host_sync(w->host);
	cli_world_report(w, rp);
	rp->head.rss = w->rss_on;
	rp->replay = (struct rpt_replay){
		.pcap = w->scn.pcap, .line_rate = w->scn.line_rate,
		.frames = r->frames, .bytes = r->bytes,
		.secs = (double)sim_now(&w->sim) / 1e9, .delivered = w->delivered,
		.hashed = w->hashed, .mismatches = w->mismatches,
		.empty = r->empty, .cut = r->cut, .other_link = r->other_link,
		.gaps_cut = r->gaps_cut, .max_gap_s = w->scn.max_gap_s,
		.nlinks = r->nlinks,
	};
	for (unsigned i = 0; i < r->nlinks; i++) {
		rp->replay.links[i].name = cli_linktype_name(r->links[i].linktype);
		rp->replay.links[i].n = r->links[i].n;
	}
	for (unsigned q = 0; q < rp->nqueues && q < RTL_MAX_RX_QUEUES; q++) {
		rp->replay.q_frames[q] = w->q_frames[q];
		rp->replay.q_bytes[q] = w->q_bytes[q];
		rp->replay.q_flows[q] = w->q_flows[q].n;
	}
	for (unsigned c = 0; c < w->scn.cpus; c++) {
		cpu_pct(w, c, &rp->cpu[c]);
		sim_host_acct(w->host, c, &acct[w->scn.cpus + c]);     /* row 0: zero */
	}
	/* mpstat: one block, the replay's start to its end */
	samp_t[1] = sim_now(&w->sim);
	rp->nsamp = 2;
	rp->samp_t = samp_t;
	rp->acct = acct;
	/* how it failed, known before the report (the JSON document says it):
	 * a bug first, then a capture cut short (a partial report), then a
	 * failed query */
	rc = w->failed_queries ? 3 : 0;
	snprintf(why, sizeof(why), "an ethtool query before the traffic failed");
	if (r->err) {
		snprintf(why, sizeof(why), "%s", cli_pcap_error(r->pc));
		rp->partial = cli_pcap_error(r->pc);
		rc = CLI_EXIT_PARTIAL;
	}
	if (w->mismatches) {
		snprintf(why, sizeof(why), "queue check: %llu frames on another queue than "
			 "rss_classify() gives (a bug)", (unsigned long long)w->mismatches);
		rc = 1;
	}
	for (unsigned i = 0; i < rp->ndrops; i++)
		dropped += rp->drops[i].n;
	lost = r->frames != w->delivered + dropped;
	if (lost) {
		snprintf(lost_why, sizeof(lost_why), "replay: %llu frames offered but %llu "
			 "delivered + %llu dropped: a frame was lost uncounted (a bug)",
			 (unsigned long long)r->frames, (unsigned long long)w->delivered,
			 (unsigned long long)dropped);
		rc = 1;
	}
	rp->error = lost ? lost_why : rc ? why : NULL;
	if (json) {
		report_replay_json(stdout, rp);
		cli_json_printed();
	} else {
		report_replay_text(stdout, rp, w->dev);
	}
	if (lost)
		cli_err("%s", lost_why);
	if (r->err)
		cli_err("%s", cli_pcap_error(r->pc));
out:
	if (r && r->pc)
		cli_pcap_close(r->pc);
	free(r);
	free(rp);
	free(acct);
	return rc;
}
