/* SPDX-License-Identifier: MIT */
/*
 * cli_hash.c - "rxscale hash": the RSS hash and RX queue of one tuple, or
 * of every frame in a capture, as the RTL8125/8126/8127 RSS engine computes
 * them (src/net dissector + src/rss).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "rss/rss_fields.h"
#include "rss/rss_hash.h"
#include "rss/rss_key.h"

#define MAX_FLOW_HASH_ARGS 16

struct hash_opts {
	const char *src, *dst, *type, *pcap;
	long sport, dport;		/* -1 = not given */
	uint8_t key[RSS_KEY_MAX];
	size_t key_len;
	unsigned long queues, indir_size;
	uint32_t ht, xfrm;
	const char *flow_hash[MAX_FLOW_HASH_ARGS];
	unsigned n_flow_hash;
};

static void hash_usage(FILE *out)
{
	fputs(
"usage: rxscale hash --src IP --dst IP [--sport N --dport N]\n"
"                    --type tcp4|udp4|ipv4|tcp6|udp6|ipv6 [options]\n"
"       rxscale hash --pcap FILE [options]\n"
"\n"
"Tuple mode prints the hash (0x%08x) on the first line, then the Toeplitz\n"
"input and the RX queue.  Capture mode prints a TSV 'frame type hash queue'\n"
"(frames numbered from 1, as tshark does) and a per-queue summary on stderr;\n"
"a capture that turns bad part-way gets the rows and summary of the frames\n"
"before that, a 'partial:' line, the error and exit status 4.\n"
"\n"
"options:\n"
"  --key HEX             RSS key, 40 bytes as the chip's (and ethtool -X hkey)\n"
"                        take it: '6d5a56...' or '6d:5a:56:...' (default: the\n"
"                        Microsoft verification key)\n"
"  --queues N            RX queues, 1..512 (default 4)\n"
"  --indir-size S        indirection entries, power of two <= 512 (default 128)\n"
"  --rx-flow-hash 'FLOW FIELDS'\n"
"                        as ethtool -N rx-flow-hash, e.g. 'udp4 sdfn';\n"
"                        repeatable (default: RTL8127 hash types)\n"
"  --xfrm symmetric-xor|none  RSS input transform (default none)\n", out);
}

static int bad(const char *what, const char *val)
{
	cli_err("hash: invalid %s '%.64s%s' (try 'rxscale hash --help')", what,
		val, strlen(val) > 64 ? "..." : "");
	return CLI_EXIT_USAGE;
}

static int parse_opts(int argc, char **argv, struct hash_opts *o)
{
	enum { O_SRC = 256, O_DST, O_SPORT, O_DPORT, O_TYPE, O_KEY, O_PCAP,
	       O_QUEUES, O_INDIR, O_FLOWHASH, O_XFRM, O_HELP };
	static const struct option lo[] = {
		{ "src", required_argument, NULL, O_SRC },
		{ "dst", required_argument, NULL, O_DST },
		{ "sport", required_argument, NULL, O_SPORT },
		{ "dport", required_argument, NULL, O_DPORT },
		{ "type", required_argument, NULL, O_TYPE },
		{ "key", required_argument, NULL, O_KEY },
		{ "pcap", required_argument, NULL, O_PCAP },
		{ "queues", required_argument, NULL, O_QUEUES },
		{ "indir-size", required_argument, NULL, O_INDIR },
		{ "rx-flow-hash", required_argument, NULL, O_FLOWHASH },
		{ "xfrm", required_argument, NULL, O_XFRM },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c, rc;

	memset(o, 0, sizeof(*o));
	o->sport = o->dport = -1;
	memcpy(o->key, rss_key_microsoft, sizeof(rss_key_microsoft));
	o->key_len = sizeof(rss_key_microsoft);
	o->queues = 4;
	o->indir_size = 128;
	o->ht = RSS_HT_RTL8127_DEFAULT;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case O_SRC: o->src = optarg; break;
		case O_DST: o->dst = optarg; break;
		case O_TYPE: o->type = optarg; break;
		case O_PCAP: o->pcap = optarg; break;
		case O_SPORT:
		case O_DPORT:
			if (bed_parse_uint(optarg, 0, 65535, &v))
				return bad("port", optarg);
			*(c == O_SPORT ? &o->sport : &o->dport) = (long)v;
			break;
		case O_KEY:
			/* the chip's key size, as ethtool -X hkey demands it */
			rc = rss_key_parse(optarg, 0, o->key, RSS_KEY_LEN_RTL8125,
					   &o->key_len);
			if (rc) {
				char why[96];

				if (rc == -EINVAL)
					snprintf(why, sizeof(why), "expected two hex digits "
						 "per byte, optionally ':'-separated");
				else if (rc == -E2BIG)
					snprintf(why, sizeof(why), "more than %d bytes",
						 RSS_KEY_LEN_RTL8125);
				else
					snprintf(why, sizeof(why), "%zu bytes", o->key_len);
				cli_err("hash: invalid --key '%.64s%s': %s (the RTL8125 "
					"family's key is %d bytes, as ethtool -X hkey takes it)",
					optarg, strlen(optarg) > 64 ? "..." : "", why,
					RSS_KEY_LEN_RTL8125);
				return CLI_EXIT_USAGE;
			}
			break;
		case O_QUEUES:
			if (bed_parse_uint(optarg, 1, RSS_INDIR_MAX, &o->queues))
				return bad("--queues", optarg);
			break;
		case O_INDIR:
			if (bed_parse_uint(optarg, 1, RSS_INDIR_MAX, &v) ||
			    (v & (v - 1)))
				return bad("--indir-size (power of two, "
					   "1..512)", optarg);
			o->indir_size = v;
			break;
		case O_FLOWHASH:
			if (o->n_flow_hash == MAX_FLOW_HASH_ARGS)
				return bad("--rx-flow-hash (too many)", optarg);
			o->flow_hash[o->n_flow_hash++] = optarg;
			break;
		case O_XFRM:
			if (!strcmp(optarg, "symmetric-xor"))
				o->xfrm = RSS_XFRM_SYM_XOR;
			else if (!strcmp(optarg, "none"))
				o->xfrm = 0;
			else
				return bad("--xfrm", optarg);
			break;
		case 'h':
		case O_HELP:
			hash_usage(stdout);
			return -1;
		default:
			cli_err("hash: unknown or incomplete option '%s' (try "
				"'rxscale hash --help')", argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return bad("argument", argv[optind]);
	/* applied after all options so --xfrm may come later on the line */
	for (unsigned i = 0; i < o->n_flow_hash; i++) {
		if (rss_flow_hash_apply(&o->ht, o->xfrm, o->flow_hash[i])) {
			cli_err("hash: --rx-flow-hash '%.64s': Invalid argument "
				"(flows tcp4 udp4 ip4 tcp6 udp6 ip6 ...; this "
				"chip hashes TCP on sdfn, UDP on sd or sdfn, IP "
				"on sd)", o->flow_hash[i]);
			return CLI_EXIT_USAGE;
		}
	}
	return 0;
}

/* Set up the key context and the indirection table. */
static int make_cfg(const struct hash_opts *o, struct rss_thash *key,
		    struct rss_indir *indir, struct rss_cfg *cfg)
{
	if (rss_thash_init(key, o->key, o->key_len)) {
		cli_err("hash: out of memory");
		return 1;
	}
	rss_indir_default(indir, (unsigned)o->indir_size, (unsigned)o->queues);
	cfg->key = key;
	cfg->indir = indir;
	cfg->ht = o->ht;
	cfg->xfrm = o->xfrm;
	return 0;
}

/* Tuple mode: build a net_flow from the arguments, force the type. */
static int hash_tuple(const struct hash_opts *o)
{
	struct net_flow f;
	struct rss_thash key;
	struct rss_indir indir;
	struct rss_cfg cfg;
	struct rss_result r;
	enum rss_type t;
	bool v6, l4;
	int af;
	unsigned i;

	if (o->n_flow_hash) {
		cli_err("hash: --rx-flow-hash applies to --pcap; in tuple mode "
			"--type chooses what is hashed");
		return CLI_EXIT_USAGE;
	}
	if (!o->src || !o->dst || !o->type) {
		cli_err("hash: tuple mode needs --src, --dst and --type (or "
			"use --pcap FILE)");
		return CLI_EXIT_USAGE;
	}
	if (rss_type_parse(o->type, &t) || t == RSS_TYPE_NONE)
		return bad("--type (tcp4 udp4 ipv4 tcp6 udp6 ipv6)", o->type);
	v6 = t == RSS_TYPE_IPV6 || t == RSS_TYPE_TCP6 || t == RSS_TYPE_UDP6;
	l4 = t != RSS_TYPE_IPV4 && t != RSS_TYPE_IPV6;
	af = v6 ? AF_INET6 : AF_INET;

	memset(&f, 0, sizeof(f));
	f.l3 = v6 ? NET_L3_IPV6 : NET_L3_IPV4;
	f.l3_ok = true;
	f.addr_len = v6 ? 16 : 4;
	if (inet_pton(af, o->src, f.src) != 1)
		return bad(v6 ? "--src (IPv6 address)" : "--src (IPv4 address)",
			   o->src);
	if (inet_pton(af, o->dst, f.dst) != 1)
		return bad(v6 ? "--dst (IPv6 address)" : "--dst (IPv4 address)",
			   o->dst);
	if (l4) {
		if (o->sport < 0 || o->dport < 0) {
			cli_err("hash: --type %s needs --sport and --dport",
				o->type);
			return CLI_EXIT_USAGE;
		}
		f.l4 = (t == RSS_TYPE_UDP4 || t == RSS_TYPE_UDP6) ?
		       NET_L4_UDP : NET_L4_TCP;
		f.l4_ok = true;
		f.sport = (uint16_t)o->sport;
		f.dport = (uint16_t)o->dport;
	} else {
		if (o->sport >= 0 || o->dport >= 0) {
			cli_err("hash: --type %s hashes the IP pair only; drop "
				"--sport/--dport or use tcp4/udp4/tcp6/udp6",
				o->type);
			return CLI_EXIT_USAGE;
		}
		f.l4 = NET_L4_OTHER;
	}

	if (make_cfg(o, &key, &indir, &cfg))
		return 1;
	cfg.ht = RSS_HT_ALL;	/* the type was chosen explicitly */
	rss_classify(&cfg, &f, &r);
	printf("0x%08x\n", r.hash);
	printf("input:");
	for (i = 0; i < r.in.len; i++)
		printf(" %02x", r.in.bytes[i]);
	printf("  (%u bytes, %s)\n", r.in.len, rss_type_name(r.in.type));
	printf("queue: %u (indir[%u] of %u entries, %lu queues)\n", r.queue,
	       r.hash & (indir.size - 1), indir.size, o->queues);
	rss_thash_fini(&key);
	return 0;
}

/* A set of distinct Toeplitz inputs, to count flows per queue. */
struct flow_set {
	size_t cap, n;
	struct rss_input *slot;		/* len 0 = empty */
};

static uint64_t input_hash(const struct rss_input *in)
{
	uint64_t h = 1469598103934665603ull ^ in->type;
	unsigned i;

	for (i = 0; i < in->len; i++)
		h = (h ^ in->bytes[i]) * 1099511628211ull;
	return h;
}

/* Return 1 if @in was new, 0 if present, -ENOMEM. */
static int flow_set_add(struct flow_set *s, const struct rss_input *in)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct flow_set g = { .cap = s->cap ? 2 * s->cap : 64 };

		g.slot = calloc(g.cap, sizeof(*g.slot));
		if (!g.slot)
			return -ENOMEM;
		for (i = 0; i < s->cap; i++)
			if (s->slot[i].len)
				flow_set_add(&g, &s->slot[i]);
		free(s->slot);
		*s = g;
	}
	for (i = input_hash(in) & (s->cap - 1); s->slot[i].len;
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i].type == in->type && s->slot[i].len == in->len &&
		    !memcmp(s->slot[i].bytes, in->bytes, in->len))
			return 0;
	s->slot[i] = *in;
	s->n++;
	return 1;
}

/* Frames of interfaces whose link type the dissector does not read,
 * by link type (pcapng files may mix them with readable ones). */
struct link_count {
	int linktype;
	unsigned long n;
};

static void count_link(struct link_count *lc, unsigned *nlc, unsigned max, int linktype)
{
	for (unsigned i = 0; i < *nlc; i++)
		if (lc[i].linktype == linktype) {
			lc[i].n++;
			return;
		}
	if (*nlc < max)
		lc[(*nlc)++] = (struct link_count){ linktype, 1 };
}

static int hash_pcap(const struct hash_opts *o)
{
	struct cli_pcap *cap;
	struct rss_thash key;
	struct rss_indir indir;
	struct rss_cfg cfg;
	struct flow_set *flows = NULL;
	unsigned long *pkts = NULL, frame = 0, unhashed = 0, total_flows = 0;
	unsigned long cut = 0, cut_hashed = 0, empty = 0, other_link = 0;
	struct link_count lc[16];
	unsigned nlc = 0;
	char *out = NULL, keybuf[3 * RSS_KEY_MAX];
	size_t out_len = 0;
	FILE *ms = NULL;
	int rc = 1, got;
	bool bad_file = false;
	unsigned q;

	cap = cli_pcap_open(o->pcap);
	if (!cap)
		return CLI_EXIT_USAGE;
	if (make_cfg(o, &key, &indir, &cfg)) {
		cli_pcap_close(cap);
		return 1;
	}
	flows = calloc(o->queues, sizeof(*flows));
	pkts = calloc(o->queues, sizeof(*pkts));
	/* Rows are collected in memory and written once the capture has been
	 * read, as far as it could be: a file that turns bad part-way still
	 * gets the rows and summary of what was read, says so, then the error
	 * (exit status 4, CLI_EXIT_PARTIAL). */
	ms = open_memstream(&out, &out_len);
	if (!flows || !pkts || !ms) {
		cli_err("hash: out of memory");
		goto out;
	}
	fputs("frame\ttype\thash\tqueue\n", ms);
	for (;;) {
		struct cli_frame fr;
		struct net_flow f;
		struct rss_result r;

		got = cli_pcap_read(cap, &fr);
		if (got < 0) {
			bad_file = true;
			break;
		}
		if (got == 0)
			break;
		frame++;
		empty += !fr.caplen;
		if (!fr.link_ok) {
			/* an interface of another link type: not dissected */
			other_link++;
			count_link(lc, &nlc, sizeof(lc) / sizeof(lc[0]), fr.linktype);
			memset(&f, 0, sizeof(f));
			f.stop = NET_STOP_L2_TRUNC;
		} else {
			net_dissect_cap(fr.data, fr.caplen, fr.origlen, fr.link, &f);
		}
		rss_classify(&cfg, &f, &r);
		pkts[r.queue]++;
		cut += f.cut;
		if (r.in.type == RSS_TYPE_NONE) {
			unhashed++;
			fprintf(ms, "%lu\tnone\t-\t%u\n", frame, r.queue);
			continue;
		}
		cut_hashed += f.cut;
		fprintf(ms, "%lu\t%s\t0x%08x\t%u\n", frame,
			rss_type_name(r.in.type), r.hash, r.queue);
		got = flow_set_add(&flows[r.queue], &r.in);
		if (got < 0) {
			cli_err("hash: out of memory");
			goto out;
		}
		total_flows += (unsigned long)got;
	}
	if (fclose(ms)) {
		ms = NULL;
		cli_err("hash: out of memory");
		goto out;
	}
	ms = NULL;
	if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout)) {
		cli_err("hash: cannot write output");
		goto out;
	}

	fprintf(stderr, "# %s: %lu frames, key %s, %u-entry table, %lu queues\n",
		o->pcap, frame, rss_key_format(o->key, o->key_len, keybuf),
		indir.size, o->queues);
	fprintf(stderr, "queue\tpackets\tflows\tshare\n");
	for (q = 0; q < o->queues; q++)
		fprintf(stderr, "%u\t%lu\t%zu\t%.1f%%\n", q, pkts[q],
			flows[q].n, frame ? 100.0 * pkts[q] / frame : 0.0);
	fprintf(stderr, "total\t%lu\t%lu\t%.1f%%\n", frame, total_flows,
		frame ? 100.0 : 0.0);
	fprintf(stderr, "unhashed frames: %lu (no hash type: steered to "
		"queue 0, counted there)\n", unhashed);
	if (cut)
		fprintf(stderr, "frames cut by the snap length: %lu, hashed on the "
			"headers they kept: %lu\n", cut, cut_hashed);
	if (empty)
		fprintf(stderr, "zero-length records: %lu (rows of type none)\n", empty);
	if (other_link) {
		fprintf(stderr, "frames of interfaces with a link type the dissector "
			"does not read: %lu (", other_link);
		for (unsigned i = 0; i < nlc; i++)
			fprintf(stderr, "%s%s: %lu", i ? ", " : "",
				cli_linktype_name(lc[i].linktype), lc[i].n);
		fprintf(stderr, ")\n");
	}
	if (bad_file) {
		fprintf(stderr, "partial: the capture turned bad after frame %lu; the rows and "
			"this summary cover frames 1-%lu (exit status 4)\n", frame, frame);
		cli_err("%s", cli_pcap_error(cap));
		rc = CLI_EXIT_PARTIAL;
		goto out;
	}
	rc = 0;
out:
	if (ms)
		fclose(ms);
	free(out);
	if (flows)
		for (q = 0; q < o->queues; q++)
			free(flows[q].slot);
	free(flows);
	free(pkts);
	rss_thash_fini(&key);
	cli_pcap_close(cap);
	return rc;
}

int cli_hash(int argc, char **argv)
{
	struct hash_opts o;
	int rc = parse_opts(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.pcap) {
		if (o.src || o.dst || o.type || o.sport >= 0 || o.dport >= 0) {
			cli_err("hash: --pcap cannot be combined with --src, "
				"--dst, --sport, --dport or --type");
			return CLI_EXIT_USAGE;
		}
		return hash_pcap(&o);
	}
	return hash_tuple(&o);
}
