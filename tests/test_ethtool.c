/* SPDX-License-Identifier: MIT */
/*
 * test_ethtool.c - the ethtool core's checks (errno, extack text, nothing
 * changed on error), the rss_ctx.py / rss_api.py behaviours, ethtool's
 * output formats byte for byte, and the command-line parser's errors.
 *
 * A fake driver implements the ops over a small struct: up to 4 combined
 * channels, a 40-byte key, a 128-entry table, RTL8125-family rx-flow-hash
 * rules (rss_fields_set) or raw per-flow fields, coalescing, ring sizes
 * and three counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_cmd.h"
#include "rss/rss_fields.h"
#include "rss/rss_hash.h"
#include "rss/rss_key.h"

/* P(...) below gives "no change" defaults that a test then overrides. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define TBL	128
#define KEYLEN	40

struct fake {
	struct net_device dev;
	u32 combined, max_combined;
	u32 indir[TBL];
	u8 key[KEYLEN];
	u8 input_xfrm;
	u32 ht;			/* RSS_HT_* (chip rules) */
	bool raw_fields;	/* store any field set per flow type */
	u32 raw[32];
	struct ethtool_coalesce coal;
	struct ethtool_ringparam ring;
	int set_calls;		/* driver set_* calls, to prove no call */
};

static struct fake *F(struct net_device *dev)
{
	return netdev_priv(dev);
}

static void fake_get_channels(struct net_device *dev,
			      struct ethtool_channels *ch)
{
	ch->max_combined = F(dev)->max_combined;
	ch->combined_count = F(dev)->combined;
}

static int fake_set_channels(struct net_device *dev,
			     struct ethtool_channels *ch)
{
	struct fake *f = F(dev);
	u32 i;

	f->set_calls++;
	f->combined = ch->combined_count;
	if (!netif_is_rxfh_configured(dev))
		for (i = 0; i < TBL; i++)
			f->indir[i] = ethtool_rxfh_indir_default(i, f->combined);
	return 0;
}

static u32 fake_rx_rings(struct net_device *dev)
{
	return F(dev)->combined;
}

static u32 fake_key_size(struct net_device *dev)
{
	(void)dev;
	return KEYLEN;
}

static u32 fake_indir_size(struct net_device *dev)
{
	(void)dev;
	return TBL;
}

static int fake_get_rxfh(struct net_device *dev, struct ethtool_rxfh_param *p)
{
	struct fake *f = F(dev);

	p->hfunc = ETH_RSS_HASH_TOP;
	p->input_xfrm = f->input_xfrm;
	if (p->indir)
		memcpy(p->indir, f->indir, sizeof(f->indir));
	if (p->key)
		memcpy(p->key, f->key, KEYLEN);
	return 0;
}

/* Like r8169-family drivers: Toeplitz only. */
static int fake_set_rxfh(struct net_device *dev, struct ethtool_rxfh_param *p,
			 struct netlink_ext_ack *extack)
{
	struct fake *f = F(dev);

	(void)extack;
	if (p->hfunc != ETH_RSS_HASH_NO_CHANGE && p->hfunc != ETH_RSS_HASH_TOP)
		return -EOPNOTSUPP;
	f->set_calls++;
	if (p->indir)
		memcpy(f->indir, p->indir, sizeof(f->indir));
	if (p->key)
		memcpy(f->key, p->key, KEYLEN);
	if (p->input_xfrm != RXH_XFRM_NO_CHANGE)
		f->input_xfrm = p->input_xfrm;
	return 0;
}

static int flow_of(u32 type, enum rss_flow *fl)
{
	switch (type) {
	case TCP_V4_FLOW: *fl = RSS_FLOW_TCP4; return 0;
	case UDP_V4_FLOW: *fl = RSS_FLOW_UDP4; return 0;
	case SCTP_V4_FLOW: *fl = RSS_FLOW_SCTP4; return 0;
	case AH_ESP_V4_FLOW: case AH_V4_FLOW: *fl = RSS_FLOW_AH4; return 0;
	case ESP_V4_FLOW: *fl = RSS_FLOW_ESP4; return 0;
	case IPV4_FLOW: *fl = RSS_FLOW_IP4; return 0;
	case TCP_V6_FLOW: *fl = RSS_FLOW_TCP6; return 0;
	case UDP_V6_FLOW: *fl = RSS_FLOW_UDP6; return 0;
	case SCTP_V6_FLOW: *fl = RSS_FLOW_SCTP6; return 0;
	case AH_ESP_V6_FLOW: case AH_V6_FLOW: *fl = RSS_FLOW_AH6; return 0;
	case ESP_V6_FLOW: *fl = RSS_FLOW_ESP6; return 0;
	case IPV6_FLOW: *fl = RSS_FLOW_IP6; return 0;
	default: return -EINVAL;
	}
}

static int fake_get_fields(struct net_device *dev,
			   struct ethtool_rxfh_fields *fl)
{
	struct fake *f = F(dev);
	enum rss_flow r;

	if (flow_of(fl->flow_type, &r))
		return -EINVAL;
	fl->data = f->raw_fields ? f->raw[fl->flow_type] :
				   rss_fields_get(f->ht, r);
	return 0;
}

static int fake_set_fields(struct net_device *dev,
			   const struct ethtool_rxfh_fields *fl,
			   struct netlink_ext_ack *extack)
{
	struct fake *f = F(dev);
	enum rss_flow r;
	uint32_t ht = f->ht;

	(void)extack;
	if (flow_of(fl->flow_type, &r))
		return -EINVAL;
	if (f->raw_fields) {
		f->raw[fl->flow_type] = fl->data;
	} else {
		if (rss_fields_set(&ht, r, fl->data))
			return -EINVAL;
		f->ht = ht;
	}
	f->set_calls++;
	return 0;
}

static int fake_get_coalesce(struct net_device *dev,
			     struct ethtool_coalesce *c,
			     struct kernel_ethtool_coalesce *k,
			     struct netlink_ext_ack *extack)
{
	(void)k;
	(void)extack;
	*c = F(dev)->coal;
	return 0;
}

static int fake_set_coalesce(struct net_device *dev,
			     struct ethtool_coalesce *c,
			     struct kernel_ethtool_coalesce *k,
			     struct netlink_ext_ack *extack)
{
	(void)k;
	(void)extack;
	F(dev)->coal = *c;
	F(dev)->set_calls++;
	return 0;
}

static void fake_get_ring(struct net_device *dev, struct ethtool_ringparam *r,
			  struct kernel_ethtool_ringparam *k,
			  struct netlink_ext_ack *extack)
{
	(void)k;
	(void)extack;
	*r = F(dev)->ring;
}

static int fake_set_ring(struct net_device *dev, struct ethtool_ringparam *r,
			 struct kernel_ethtool_ringparam *k,
			 struct netlink_ext_ack *extack)
{
	(void)k;
	(void)extack;
	F(dev)->ring = *r;
	F(dev)->set_calls++;
	return 0;
}

static const char stat_names[3][ETH_GSTRING_LEN] = {
	"rx_packets", "tx_packets", "rx_queue_0_packets",
};

static int fake_sset_count(struct net_device *dev, int sset)
{
	(void)dev;
	return sset == ETH_SS_STATS ? 3 : -EOPNOTSUPP;
}

static void fake_strings(struct net_device *dev, u32 sset, u8 *data)
{
	(void)dev;
	if (sset == ETH_SS_STATS)
		memcpy(data, stat_names, sizeof(stat_names));
}

static void fake_stats(struct net_device *dev, struct ethtool_stats *st,
		       u64 *data)
{
	(void)dev;
	(void)st;
	data[0] = 1234567;
	data[1] = 0;
	data[2] = 18446744073709551615ull;
}

static const struct ethtool_ops fake_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE,
	.supported_input_xfrm = RXH_XFRM_SYM_XOR,
	.get_channels = fake_get_channels,
	.set_channels = fake_set_channels,
	.get_rx_ring_count = fake_rx_rings,
	.get_rxfh_key_size = fake_key_size,
	.get_rxfh_indir_size = fake_indir_size,
	.get_rxfh = fake_get_rxfh,
	.set_rxfh = fake_set_rxfh,
	.get_rxfh_fields = fake_get_fields,
	.set_rxfh_fields = fake_set_fields,
	.get_coalesce = fake_get_coalesce,
	.set_coalesce = fake_set_coalesce,
	.get_ringparam = fake_get_ring,
	.set_ringparam = fake_set_ring,
	.get_sset_count = fake_sset_count,
	.get_strings = fake_strings,
	.get_ethtool_stats = fake_stats,
};

/* ethtool_ops with no set callbacks at all */
static const struct ethtool_ops bare_ops = {
	.get_channels = fake_get_channels,
};

static void fake_init(struct fake *f, u32 combined)
{
	u32 i;

	memset(f, 0, sizeof(*f));
	strcpy(f->dev.name, "eth0");
	f->dev.ethtool_ops = &fake_ops;
	f->dev.priv = f;
	f->max_combined = 4;
	f->combined = combined;
	for (i = 0; i < TBL; i++)
		f->indir[i] = ethtool_rxfh_indir_default(i, combined);
	memcpy(f->key, rss_key_microsoft, KEYLEN);
	f->ht = RSS_HT_RTL8127_DEFAULT;
	f->coal.rx_coalesce_usecs = 50;
	f->coal.rx_max_coalesced_frames = 8;
	f->ring.rx_max_pending = 1024;
	f->ring.tx_max_pending = 1024;
	f->ring.rx_pending = 256;
	f->ring.tx_pending = 256;
}

/* A copy of everything the driver holds, to prove "unchanged". */
static void snap(const struct fake *f, struct fake *s)
{
	*s = *f;
}

static void assert_unchanged(const struct fake *f, const struct fake *s)
{
	assert_int_equal(f->combined, s->combined);
	assert_memory_equal(f->indir, s->indir, sizeof(f->indir));
	assert_memory_equal(f->key, s->key, KEYLEN);
	assert_int_equal(f->input_xfrm, s->input_xfrm);
	assert_int_equal(f->ht, s->ht);
	assert_memory_equal(f->raw, s->raw, sizeof(f->raw));
	assert_memory_equal(&f->coal, &s->coal, sizeof(f->coal));
	assert_memory_equal(&f->ring, &s->ring, sizeof(f->ring));
	assert_int_equal(f->dev.priv_flags, s->dev.priv_flags);
	assert_int_equal(f->set_calls, s->set_calls);
}

/* Run one command line; keep its stdout/stderr text. */
struct run {
	int rc;
	char *out, *err;
	size_t olen, elen;
};

static void run(struct fake *f, const char *args, struct run *r)
{
	FILE *o = open_memstream(&r->out, &r->olen);
	FILE *e = open_memstream(&r->err, &r->elen);

	assert_non_null(o);
	assert_non_null(e);
	r->rc = ethtool_cmd_run(&f->dev, args, o, e);
	fclose(o);
	fclose(e);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* Run and compare exit status, stdout and stderr exactly. */
static void expect(struct fake *f, const char *args, int rc, const char *out,
		   const char *err)
{
	struct run r;

	run(f, args, &r);
	if (strcmp(r.out, out) || strcmp(r.err, err) || r.rc != rc)
		fprintf(stderr, "ethtool %s\n rc %d\n--- out\n%s--- err\n%s---\n",
			args, r.rc, r.out, r.err);
	assert_string_equal(r.out, out);
	assert_string_equal(r.err, err);
	assert_int_equal(r.rc, rc);
	run_free(&r);
}

/* Run a failing command and prove it changed nothing. */
static void expect_fail_unchanged(struct fake *f, const char *args, int rc,
				  const char *err)
{
	struct fake s;

	snap(f, &s);
	expect(f, args, rc, "", err);
	assert_unchanged(f, &s);
}

static unsigned count_queue(const struct fake *f, u32 q)
{
	unsigned i, n = 0;

	for (i = 0; i < TBL; i++)
		n += f->indir[i] == q;
	return n;
}

/* ------------------------------------------------------------------ */
/* core: channels                                                     */
/* ------------------------------------------------------------------ */

static void test_channels_limits(void **state)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_channels ch = { 0 };
	struct fake f, s;

	(void)state;
	fake_init(&f, 4);
	snap(&f, &s);
	ch.combined_count = 5;
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), &ea), -EINVAL);
	assert_string_equal(ea._msg, "requested channel count exceeds maximum");
	assert_int_equal(ea.bad_attr, ETHTOOL_A_CHANNELS_COMBINED_COUNT);
	assert_unchanged(&f, &s);

	/* rx above max_rx (0) */
	memset(&ea, 0, sizeof(ea));
	ch.rx_count = 1;
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_RX_COUNT), &ea), -EINVAL);
	assert_int_equal(ea.bad_attr, ETHTOOL_A_CHANNELS_RX_COUNT);
	assert_unchanged(&f, &s);

	/* no RX/TX channel left */
	memset(&ea, 0, sizeof(ea));
	ch.combined_count = 0;
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), &ea), -EINVAL);
	assert_string_equal(ea._msg,
		"requested channel counts would result in no RX or TX channel being configured");
	assert_int_equal(ea.bad_attr, ETHTOOL_A_CHANNELS_COMBINED_COUNT);
	assert_unchanged(&f, &s);

	/* same value: success, driver not called */
	ch.combined_count = 4;
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), NULL), 0);
	assert_unchanged(&f, &s);

	/* a driver without set_channels */
	f.dev.ethtool_ops = &bare_ops;
	ch.combined_count = 2;
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), NULL),
		-EOPNOTSUPP);
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		&(struct ethtool_rxfh_param){ .indir_size = 0 }, NULL),
		-EOPNOTSUPP);
	f.dev.ethtool_ops = &fake_ops;
	assert_unchanged(&f, &s);

	/* a valid change reaches the driver; default table follows */
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), NULL), 0);
	assert_int_equal(f.combined, 2);
	assert_int_equal(count_queue(&f, 0), 64);
	assert_int_equal(count_queue(&f, 1), 64);
}

/* rss_ctx.py test_rss_queue_reconfigure: a user table survives -L while
 * valid; shrinking below a used queue fails with EINVAL. */
static void test_channels_vs_user_table(void **state)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_channels ch = { 0 };
	u32 tbl[TBL], i;
	struct fake f, s;

	(void)state;
	fake_init(&f, 4);
	for (i = 0; i < TBL; i++)
		tbl[i] = 1 + i % 2;	/* queues 1 and 2 */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		&(struct ethtool_rxfh_param){ .indir_size = TBL, .indir = tbl,
			.input_xfrm = RXH_XFRM_NO_CHANGE }, NULL), 0);
	assert_true(f.dev.priv_flags & IFF_RXFH_CONFIGURED);

	ch.combined_count = 3;	/* still covers queue 2 */
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), &ea), 0);
	assert_memory_equal(f.indir, tbl, sizeof(tbl));

	snap(&f, &s);
	ch.combined_count = 2;	/* queue 2 would be orphaned */
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), &ea), -EINVAL);
	assert_string_equal(ea._msg,
		"requested channel counts are too low for existing indirection table (2)");
	assert_int_equal(ea.bad_attr, 0);
	assert_unchanged(&f, &s);

	/* "default" clears the flag; then the same -L works */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		&(struct ethtool_rxfh_param){ .indir_size = 0,
			.input_xfrm = RXH_XFRM_NO_CHANGE }, NULL), 0);
	assert_false(f.dev.priv_flags & IFF_RXFH_CONFIGURED);
	for (i = 0; i < TBL; i++)
		assert_int_equal(f.indir[i], i % 3);
	assert_int_equal(ethtool_core_set_channels(&f.dev, &ch,
		ETHTOOL_ATTR(ETHTOOL_A_CHANNELS_COMBINED_COUNT), NULL), 0);
	assert_int_equal(f.combined, 2);
}

/* ------------------------------------------------------------------ */
/* core: RSS                                                          */
/* ------------------------------------------------------------------ */

static void test_rxfh_checks(void **state)
{
	u32 tbl[TBL] = { 0 };
	u8 key[KEYLEN + 1] = { 1 };
	struct ethtool_rxfh_param p;
	struct fake f, s;

	(void)state;
	fake_init(&f, 4);
	snap(&f, &s);
#define P(...) (&(struct ethtool_rxfh_param){ .indir_size = \
		ETH_RXFH_INDIR_NO_CHANGE, .input_xfrm = RXH_XFRM_NO_CHANGE, \
		__VA_ARGS__ })
	/* hash function the driver lacks */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.hfunc = ETH_RSS_HASH_XOR), NULL), -EOPNOTSUPP);
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.hfunc = ETH_RSS_HASH_CRC32), NULL), -EOPNOTSUPP);
	/* key length must be the device's; an empty key is refused */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.key = key, .key_size = KEYLEN + 1), NULL), -EINVAL);
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.key = key, .key_size = 0), NULL), -EINVAL);
	/* table size must be the device's */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.indir = tbl, .indir_size = 64), NULL), -EINVAL);
	/* every entry below the RX ring count */
	tbl[77] = 4;
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.indir = tbl, .indir_size = TBL), NULL), -EINVAL);
	/* nothing requested */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev, P(.hfunc = 0), NULL),
			 -EINVAL);
	/* transforms: unknown value, unsupported one */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev, P(.input_xfrm = 4),
					       NULL), -EINVAL);
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.input_xfrm = RXH_XFRM_SYM_OR_XOR), NULL), -EOPNOTSUPP);
	/* extra contexts */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.hfunc = ETH_RSS_HASH_TOP, .rss_context = 1), NULL),
		-EOPNOTSUPP);
	assert_unchanged(&f, &s);

	/* the good ones */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.hfunc = ETH_RSS_HASH_TOP), NULL), 0);
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.key = key, .key_size = KEYLEN), NULL), 0);
	assert_memory_equal(f.key, key, KEYLEN);
	assert_false(f.dev.priv_flags & IFF_RXFH_CONFIGURED);
	tbl[77] = 3;
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.indir = tbl, .indir_size = TBL), NULL), 0);
	assert_memory_equal(f.indir, tbl, sizeof(tbl));
	assert_true(f.dev.priv_flags & IFF_RXFH_CONFIGURED);

	/* get_rxfh reports sizes, table, key */
	memset(&p, 0, sizeof(p));
	p.indir = calloc(TBL, sizeof(u32));
	p.key = calloc(KEYLEN, 1);
	assert_int_equal(ethtool_core_get_rxfh(&f.dev, &p), 0);
	assert_int_equal(p.indir_size, TBL);
	assert_int_equal(p.key_size, KEYLEN);
	assert_int_equal(p.hfunc, ETH_RSS_HASH_TOP);
	assert_memory_equal(p.indir, tbl, sizeof(tbl));
	free(p.indir);
	free(p.key);
}

/* symmetric-xor and rx-flow-hash fields, in both orders (rss_api.py
 * test_rxfh_fields_set_xfrm; kernel ethtool_check_xfrm_rxfh). */
static void test_rxfh_xfrm_fields(void **state)
{
	struct ethtool_rxfh_fields fl = { 0 };
	struct fake f, s;

	(void)state;
	fake_init(&f, 4);
	f.raw_fields = true;
	f.raw[TCP_V4_FLOW] = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1;
	snap(&f, &s);
	/* fields not symmetric: sym-xor refused */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.input_xfrm = RXH_XFRM_SYM_XOR), NULL), -EINVAL);
	assert_unchanged(&f, &s);

	f.raw[TCP_V4_FLOW] = RXH_IP_SRC | RXH_IP_DST;
	assert_int_equal(ethtool_core_set_rxfh(&f.dev,
		P(.input_xfrm = RXH_XFRM_SYM_XOR), NULL), 0);
	assert_int_equal(f.input_xfrm, RXH_XFRM_SYM_XOR);

	/* with sym-xor on, a non-symmetric field set is refused */
	snap(&f, &s);
	fl.flow_type = UDP_V4_FLOW;
	fl.data = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL),
			 -EINVAL);
	fl.data = RXH_IP_SRC | RXH_L3_PROTO | RXH_IP_DST;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL),
			 -EINVAL);
	assert_unchanged(&f, &s);
	fl.data = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL), 0);
	assert_int_equal(f.raw[UDP_V4_FLOW], fl.data);

	/* "xfrm none" lifts the rule */
	assert_int_equal(ethtool_core_set_rxfh(&f.dev, P(.input_xfrm = 0),
					       NULL), 0);
	fl.data = RXH_IP_SRC;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL), 0);

	/* chip rules are the driver's: TCP must hash the 4-tuple */
	fake_init(&f, 4);
	snap(&f, &s);
	fl.flow_type = TCP_V4_FLOW;
	fl.data = RXH_IP_SRC | RXH_IP_DST;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL),
			 -EINVAL);
	assert_unchanged(&f, &s);
	fl.flow_type = UDP_V4_FLOW;
	fl.data = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3;
	assert_int_equal(ethtool_core_set_rxfh_fields(&f.dev, &fl, NULL), 0);
	assert_true(f.ht & RSS_HT_UDP_IPV4);
#undef P
}

/* ------------------------------------------------------------------ */
/* core: coalescing, rings, stats                                     */
/* ------------------------------------------------------------------ */

static void test_coalesce_rings(void **state)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_coalesce c = { 0 };
	struct kernel_ethtool_coalesce k = { 0 };
	struct ethtool_ringparam r = { 0 };
	struct fake f, s;

	(void)state;
	fake_init(&f, 4);
	snap(&f, &s);
	c.rx_coalesce_usecs_irq = 5;
	assert_int_equal(ethtool_core_set_coalesce(&f.dev, &c, &k,
		ETHTOOL_ATTR(ETHTOOL_A_COALESCE_RX_USECS) |
		ETHTOOL_ATTR(ETHTOOL_A_COALESCE_RX_USECS_IRQ), &ea), -EINVAL);
	assert_string_equal(ea._msg, "cannot modify an unsupported parameter");
	assert_int_equal(ea.bad_attr, ETHTOOL_A_COALESCE_RX_USECS_IRQ);
	/* ioctl flavour: EOPNOTSUPP for a non-zero unsupported field */
	c = f.coal;
	c.tx_coalesce_usecs_irq = 1;
	assert_int_equal(ethtool_core_set_coalesce_ioctl(&f.dev, &c),
			 -EOPNOTSUPP);
	assert_unchanged(&f, &s);
	c = f.coal;
	c.tx_coalesce_usecs = 20;
	assert_int_equal(ethtool_core_set_coalesce_ioctl(&f.dev, &c), 0);
	assert_int_equal(f.coal.tx_coalesce_usecs, 20);

	snap(&f, &s);
	r.rx_pending = 2048;
	assert_int_equal(ethtool_core_set_ringparam(&f.dev, &r,
		ETHTOOL_ATTR(ETHTOOL_A_RINGS_RX), &ea), -EINVAL);
	assert_string_equal(ea._msg, "requested ring size exceeds maximum");
	assert_unchanged(&f, &s);
	r.rx_pending = 1024;
	assert_int_equal(ethtool_core_set_ringparam(&f.dev, &r,
		ETHTOOL_ATTR(ETHTOOL_A_RINGS_RX), &ea), 0);
	assert_int_equal(f.ring.rx_pending, 1024);
	assert_int_equal(f.ring.tx_pending, 256);
}

/* ------------------------------------------------------------------ */
/* command line: output formats                                       */
/* ------------------------------------------------------------------ */

static void test_cmd_show_channels(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	/* netlink/channels.c: n/a where the maximum is 0 (rss-anchors 4.4) */
	expect(&f, "-l eth0", 0,
	       "Channel parameters for eth0:\n"
	       "Pre-set maximums:\n"
	       "RX:\t\tn/a\n"
	       "TX:\t\tn/a\n"
	       "Other:\t\tn/a\n"
	       "Combined:\t4\n"
	       "Current hardware settings:\n"
	       "RX:\t\tn/a\n"
	       "TX:\t\tn/a\n"
	       "Other:\t\tn/a\n"
	       "Combined:\t4\n", "");
}

static const char x_default4[] =
	"RX flow hash indirection table for eth0 with 4 RX ring(s):\n"
	"    0:      0     1     2     3     0     1     2     3\n"
	"    8:      0     1     2     3     0     1     2     3\n"
	"   16:      0     1     2     3     0     1     2     3\n"
	"   24:      0     1     2     3     0     1     2     3\n"
	"   32:      0     1     2     3     0     1     2     3\n"
	"   40:      0     1     2     3     0     1     2     3\n"
	"   48:      0     1     2     3     0     1     2     3\n"
	"   56:      0     1     2     3     0     1     2     3\n"
	"   64:      0     1     2     3     0     1     2     3\n"
	"   72:      0     1     2     3     0     1     2     3\n"
	"   80:      0     1     2     3     0     1     2     3\n"
	"   88:      0     1     2     3     0     1     2     3\n"
	"   96:      0     1     2     3     0     1     2     3\n"
	"  104:      0     1     2     3     0     1     2     3\n"
	"  112:      0     1     2     3     0     1     2     3\n"
	"  120:      0     1     2     3     0     1     2     3\n"
	"RSS hash key:\n"
	"6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:"
	"30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa\n"
	"RSS hash function:\n"
	"    toeplitz: on\n"
	"    xor: off\n"
	"    crc32: off\n";

static void test_cmd_show_rxfh(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	/* ethtool 6.1 do_grxfh + print_indir_table (rss-anchors 4.1) */
	expect(&f, "-x eth0", 0, x_default4, "");
	expect(&f, "--show-rxfh eth0", 0, x_default4, "");
	/* 6.1 has no input transformation: "xfrm" is a bad argument */
	expect_fail_unchanged(&f, "-X eth0 xfrm symmetric-xor", 1,
		"ethtool: bad command line argument(s)\n"
		"For more information run ethtool -h\n");
}

static void test_cmd_show_nfc(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	expect(&f, "-n eth0 rx-flow-hash tcp4", 0,
	       "TCP over IPV4 flows use these fields for computing Hash flow key:\n"
	       "IP SA\n"
	       "IP DA\n"
	       "L4 bytes 0 & 1 [TCP/UDP src port]\n"
	       "L4 bytes 2 & 3 [TCP/UDP dst port]\n"
	       "\n", "");
	expect(&f, "-u eth0 rx-flow-hash udp6", 0,
	       "UDP over IPV6 flows use these fields for computing Hash flow key:\n"
	       "IP SA\n"
	       "IP DA\n"
	       "\n", "");
	expect(&f, "-n eth0 rx-flow-hash esp4", 0,
	       "IPSEC AH/ESP over IPV4 flows use these fields for computing Hash flow key:\n"
	       "None\n", "");
	/* -N then -n; -U alias */
	expect(&f, "-U eth0 rx-flow-hash udp4 sdfn", 0, "", "");
	expect(&f, "-n eth0 rx-flow-hash udp4", 0,
	       "UDP over IPV4 flows use these fields for computing Hash flow key:\n"
	       "IP SA\n"
	       "IP DA\n"
	       "L4 bytes 0 & 1 [TCP/UDP src port]\n"
	       "L4 bytes 2 & 3 [TCP/UDP dst port]\n"
	       "\n", "");
	/* the chip refuses TCP without ports */
	expect_fail_unchanged(&f, "-N eth0 rx-flow-hash tcp4 sd", 1,
		"Cannot change RX network flow hashing options: Invalid argument\n");
}

static void test_cmd_show_coalesce_ring_stats(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	/* netlink/coalesce.c coalesce_reply_cb: unsupported -> n/a */
	expect(&f, "-c eth0", 0,
	       "Coalesce parameters for eth0:\n"
	       "Adaptive RX: off  TX: off\n"
	       "stats-block-usecs: n/a\n"
	       "sample-interval: n/a\n"
	       "pkt-rate-low: n/a\n"
	       "pkt-rate-high: n/a\n"
	       "\n"
	       "rx-usecs: 50\n"
	       "rx-frames: 8\n"
	       "rx-usecs-irq: n/a\n"
	       "rx-frames-irq: n/a\n"
	       "\n"
	       "tx-usecs: 0\n"
	       "tx-frames: 0\n"
	       "tx-usecs-irq: n/a\n"
	       "tx-frames-irq: n/a\n"
	       "\n"
	       "rx-usecs-low: n/a\n"
	       "rx-frame-low: n/a\n"
	       "tx-usecs-low: n/a\n"
	       "tx-frame-low: n/a\n"
	       "\n"
	       "rx-usecs-high: n/a\n"
	       "rx-frame-high: n/a\n"
	       "tx-usecs-high: n/a\n"
	       "tx-frame-high: n/a\n"
	       "\n"
	       "CQE mode RX: n/a  TX: n/a\n"
	       "\n", "");
	expect(&f, "-C eth0 rx-usecs 100 adaptive-rx on tx-frames 0x10", 0,
	       "", "");
	assert_int_equal(f.coal.rx_coalesce_usecs, 100);
	assert_int_equal(f.coal.use_adaptive_rx_coalesce, 1);
	assert_int_equal(f.coal.tx_max_coalesced_frames, 16);

	/* netlink/rings.c rings_reply_cb */
	expect(&f, "-g eth0", 0,
	       "Ring parameters for eth0:\n"
	       "Pre-set maximums:\n"
	       "RX:\t\t1024\n"
	       "RX Mini:\tn/a\n"
	       "RX Jumbo:\tn/a\n"
	       "TX:\t\t1024\n"
	       "Current hardware settings:\n"
	       "RX:\t\t256\n"
	       "RX Mini:\tn/a\n"
	       "RX Jumbo:\tn/a\n"
	       "TX:\t\t256\n"
	       "RX Buf Len:\t\tn/a\n"
	       "CQE Size:\t\tn/a\n"
	       "TX Push:\toff\n"
	       "TCP data split:\tn/a\n", "");
	expect(&f, "-G eth0 rx 512 tx 1024", 0, "", "");
	assert_int_equal(f.ring.rx_pending, 512);
	assert_int_equal(f.ring.tx_pending, 1024);

	/* ethtool.c do_gstats */
	expect(&f, "-S eth0", 0,
	       "NIC statistics:\n"
	       "     rx_packets: 1234567\n"
	       "     tx_packets: 0\n"
	       "     rx_queue_0_packets: 18446744073709551615\n", "");
}

/* ------------------------------------------------------------------ */
/* command line: rss_ctx.py / rss_api.py behaviours                   */
/* ------------------------------------------------------------------ */

static void test_cmd_rss_ctx(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	/* equal N > channels: the kernel refuses the entries */
	expect_fail_unchanged(&f, "-X eth0 equal 5", 1,
		"Cannot set RX flow hash configuration: Invalid argument\n");
	expect_fail_unchanged(&f, "-X eth0 equal 2 start 3", 1,
		"Cannot set RX flow hash configuration: Invalid argument\n");

	/* a user table survives -L; shrinking below it fails */
	expect(&f, "-X eth0 equal 3", 0, "", "");
	assert_int_equal(count_queue(&f, 3), 0);
	expect(&f, "-L eth0 combined 3", 0, "", "");
	assert_int_equal(f.combined, 3);
	assert_int_equal(count_queue(&f, 0), 43);
	expect_fail_unchanged(&f, "-L eth0 combined 2", 1,
		"netlink error: requested channel counts are too low for existing indirection table (2)\n"
		"netlink error: Invalid argument\n");
	/* rss_api.py: -L combined 0 rx 1 must fail (no TX channel; and
	 * rx above max_rx 0 first) */
	expect_fail_unchanged(&f, "-L eth0 combined 0 rx 1", 1,
		"netlink error: requested channel count exceeds maximum (offset 44)\n"
		"netlink error: Invalid argument\n");
	expect(&f, "-X eth0 default", 0, "", "");
	assert_false(f.dev.priv_flags & IFF_RXFH_CONFIGURED);
	expect(&f, "-L eth0 combined 2", 0, "", "");
	assert_int_equal(count_queue(&f, 0), 64);

	/* weight 1 7 then -L max keeps the proportions (test_rss_resize) */
	expect(&f, "-X eth0 weight 1 7", 0, "", "");
	assert_int_equal(count_queue(&f, 0), 16);
	assert_int_equal(count_queue(&f, 1), 112);
	expect(&f, "-L eth0 combined 4", 0, "", "");
	assert_int_equal(count_queue(&f, 1), 7 * count_queue(&f, 0));

	/* key: set, wrong length, malformed (exit 2, nothing sent) */
	expect(&f, "-X eth0 hkey 6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:"
	       "6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:6d:5a:"
	       "6d:5a:6d:5a:6d:5a", 0, "", "");
	assert_int_equal(f.key[2], 0x6d);
	expect_fail_unchanged(&f, "-X eth0 hkey 01:02:03", 2,
		"Key is too short for device (3 < 40)\n");
	expect_fail_unchanged(&f, "-X eth0 hkey 0102zz", 2,
		"Invalid RSS hash key format\n");
	expect_fail_unchanged(&f, "-X eth0 hkey 00:01:02:03:04:05:06:07:08:09:"
		"00:01:02:03:04:05:06:07:08:09:00:01:02:03:04:05:06:07:08:09:"
		"00:01:02:03:04:05:06:07:08:09:aa", 2,
		"Key is too long for device (41 > 40)\n");

	/* hash functions: Toeplitz only; unknown names refused by ethtool */
	expect(&f, "-X eth0 hfunc toeplitz", 0, "", "");
	expect_fail_unchanged(&f, "-X eth0 hfunc xor", 1,
		"Cannot set RX flow hash configuration: Operation not supported\n");
	expect_fail_unchanged(&f, "-X eth0 hfunc sha1", 1,
		"Unknown hash function: sha1\n");

	/* sym-xor (set through the core: ethtool 6.1's -X has no xfrm) then
	 * a non-symmetric rx-flow-hash change (rss_api.py) */
	f.raw_fields = true;
	f.raw[UDP_V4_FLOW] = RXH_IP_SRC | RXH_IP_DST;
	assert_int_equal(ethtool_core_set_rxfh(&f.dev, &(struct ethtool_rxfh_param){
		.indir_size = ETH_RXFH_INDIR_NO_CHANGE, .input_xfrm = RXH_XFRM_SYM_XOR },
		NULL), 0);
	expect_fail_unchanged(&f, "-N eth0 rx-flow-hash udp4 sdf", 1,
		"Cannot change RX network flow hashing options: Invalid argument\n");
}

/* ------------------------------------------------------------------ */
/* command line: errors                                               */
/* ------------------------------------------------------------------ */

#define BAD "ethtool: bad command line argument(s)\n" \
	    "For more information run ethtool -h\n"

static void test_cmd_errors(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f, 4);
	expect_fail_unchanged(&f, "", 1, BAD);
	expect_fail_unchanged(&f, "-Q", 1, BAD);
	expect_fail_unchanged(&f, "-L", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 equal 0", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 equal two", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 weight", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 xfrm sideways", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 bogus", 1, BAD);
	expect_fail_unchanged(&f, "-X eth0 weight 0 0", 1,
		"At least one weight must be non-zero\n");
	expect_fail_unchanged(&f, "-X eth0 weight 100 100", 1,
		"Total weight exceeds the size of the indirection table\n");
	expect_fail_unchanged(&f, "-X eth0 equal 2 weight 1 1", 1,
		"Equal and weight options are mutually exclusive\n");
	expect_fail_unchanged(&f, "-X eth0 start 1", 1,
		"Start must be used with equal or weight options\n");
	expect_fail_unchanged(&f, "-X eth0 default start 1", 1,
		"Start and default options are mutually exclusive\n");
	expect_fail_unchanged(&f, "-N eth0 rx-flow-hash tcp4 sdq", 1, BAD);
	expect_fail_unchanged(&f, "-N eth0 rx-flow-hash ip4 sd", 1, BAD);
	expect_fail_unchanged(&f, "-N eth0 rx-flow-hash tcp4", 1, BAD);
	expect_fail_unchanged(&f, "-n eth0 rx-flow-hash", 1, BAD);
	expect_fail_unchanged(&f, "-S eth0 extra", 1, BAD);

	/* netlink parser (netlink/parser.c) */
	expect_fail_unchanged(&f, "-L eth0 foo 1", 1,
		"ethtool (-L): unknown parameter 'foo'\n");
	expect_fail_unchanged(&f, "-L eth0 combined", 1,
		"ethtool (-L): no value for parameter 'combined'\n");
	expect_fail_unchanged(&f, "--set-channels eth0 combined x", 1,
		"ethtool (-L): invalid value 'x' for parameter 'combined'\n");
	expect_fail_unchanged(&f, "-L eth0 combined -1", 1,
		"ethtool (-L): invalid value '-1' for parameter 'combined'\n");
	expect_fail_unchanged(&f, "-L eth0 combined 1 combined 2", 1,
		"ethtool (-L): duplicate parameter 'combined'\n");
	expect_fail_unchanged(&f, "-C eth0 adaptive-rx maybe", 1,
		"ethtool (-C): invalid value 'maybe' for parameter 'adaptive-rx'\n");
	expect_fail_unchanged(&f, "-G eth0 rx-buf-len 2048", 1,
		"ethtool (-G): unknown parameter 'rx-buf-len'\n");
	expect_fail_unchanged(&f, "-c eth0 rx-usecs", 1,
		"ethtool: unexpected parameter 'rx-usecs'\n");

	/* kernel refusals over netlink, offsets of the attribute */
	expect_fail_unchanged(&f, "-L eth0 combined 5", 1,
		"netlink error: requested channel count exceeds maximum (offset 36)\n"
		"netlink error: Invalid argument\n");
	expect_fail_unchanged(&f, "-L eth0 combined 0", 1,
		"netlink error: requested channel counts would result in no RX or TX channel being configured (offset 36)\n"
		"netlink error: Invalid argument\n");
	expect_fail_unchanged(&f, "-C eth0 rx-usecs 10 tx-usecs-irq 3", 1,
		"netlink error: cannot modify an unsupported parameter (offset 44)\n"
		"netlink error: Invalid argument\n");
	expect_fail_unchanged(&f, "-G eth0 tx 256 rx 4096", 81,
		"netlink error: requested ring size exceeds maximum (offset 44)\n"
		"netlink error: Invalid argument\n");

	/* another device name: as ethtool for a missing device */
	expect_fail_unchanged(&f, "-l eth1", 1,
		"netlink error: no device matches name (offset 24)\n"
		"netlink error: No such device\n");
	expect_fail_unchanged(&f, "-L eth1 combined 2", 1,
		"netlink error: no device matches name (offset 24)\n"
		"netlink error: No such device\n");
	expect_fail_unchanged(&f, "-X eth1 equal 2", 1,
		"Cannot get RX ring count: No such device\n");
	expect_fail_unchanged(&f, "-N eth1 rx-flow-hash udp4 sdfn", 1,
		"Cannot change RX network flow hashing options: No such device\n");
	expect_fail_unchanged(&f, "-S eth1", 96,
		"Cannot get stats strings information: No such device\n");

	/* "ethtool" as the first word is accepted */
	expect(&f, "ethtool -L eth0 combined 4", 0, "", "");
}

/* ------------------------------------------------------------------ */
/* ethtool 6.1 byte for byte: devices shaped like this machine's        */
/* virtio_net eth0 and a veth, against the real tool's saved output     */
/* (tests/data/real/ethtool/NAME.{out,err,rc})                          */
/* ------------------------------------------------------------------ */

static const char *real_dir;

struct lookalike {
	struct net_device dev;
	const char *driver, *version, *bus;
	u32 max_rx, max_tx, rx, tx, max_combined, combined;
};

static struct lookalike *L(struct net_device *dev)
{
	return netdev_priv(dev);
}

static void la_drvinfo(struct net_device *dev, struct ethtool_drvinfo *info)
{
	snprintf(info->driver, sizeof(info->driver), "%s", L(dev)->driver);
	snprintf(info->version, sizeof(info->version), "%s", L(dev)->version);
	snprintf(info->bus_info, sizeof(info->bus_info), "%s", L(dev)->bus);
}

static void la_channels(struct net_device *dev, struct ethtool_channels *ch)
{
	const struct lookalike *l = L(dev);

	*ch = (struct ethtool_channels){
		.max_rx = l->max_rx, .max_tx = l->max_tx, .max_combined = l->max_combined,
		.rx_count = l->rx, .tx_count = l->tx, .combined_count = l->combined,
	};
}

/* virtio_net without VIRTIO_NET_F_RSS: one queue pair, no table or key,
 * Toeplitz reported; coalescing in usecs and frames, adaptive RX. */
static u32 la_one_ring(struct net_device *dev)
{
	(void)dev;
	return 1;
}

static int la_get_rxfh(struct net_device *dev, struct ethtool_rxfh_param *p)
{
	(void)dev;
	p->hfunc = ETH_RSS_HASH_TOP;
	return 0;
}

static int la_get_fields(struct net_device *dev, struct ethtool_rxfh_fields *fl)
{
	(void)dev;
	fl->data = 0;
	return 0;
}

static int la_get_coalesce(struct net_device *dev, struct ethtool_coalesce *c,
			   struct kernel_ethtool_coalesce *k, struct netlink_ext_ack *extack)
{
	(void)dev;
	(void)k;
	(void)extack;
	*c = (struct ethtool_coalesce){ .rx_max_coalesced_frames = 1,
					.tx_max_coalesced_frames = 1 };
	return 0;
}

static void la_get_ring(struct net_device *dev, struct ethtool_ringparam *r,
			struct kernel_ethtool_ringparam *k, struct netlink_ext_ack *extack)
{
	(void)dev;
	(void)k;
	(void)extack;
	*r = (struct ethtool_ringparam){ .rx_max_pending = 256, .tx_max_pending = 256,
					 .rx_pending = 256, .tx_pending = 256 };
}

/* veth's counters, values as the saved run had them */
static const char veth_names[][ETH_GSTRING_LEN] = {
	"peer_ifindex", "rx_queue_0_xdp_packets", "rx_queue_0_xdp_bytes",
	"rx_queue_0_drops", "rx_queue_0_xdp_redirect", "rx_queue_0_xdp_drops",
	"rx_queue_0_xdp_tx", "rx_queue_0_xdp_tx_errors", "tx_queue_0_xdp_xmit",
	"tx_queue_0_xdp_xmit_errors",
};

static int la_sset_count(struct net_device *dev, int sset)
{
	(void)dev;
	return sset == ETH_SS_STATS ? (int)ARRAY_SIZE(veth_names) : -EOPNOTSUPP;
}

static void la_strings(struct net_device *dev, u32 sset, u8 *data)
{
	(void)dev;
	if (sset == ETH_SS_STATS)
		memcpy(data, veth_names, sizeof(veth_names));
}

static void la_stats(struct net_device *dev, struct ethtool_stats *st, u64 *data)
{
	(void)dev;
	(void)st;
	memset(data, 0, sizeof(u64) * ARRAY_SIZE(veth_names));
	data[0] = 5;
}

static const struct ethtool_ops virtio_like_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS | ETHTOOL_COALESCE_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
	.get_drvinfo = la_drvinfo,
	.get_channels = la_channels,
	.get_rx_ring_count = la_one_ring,
	.get_rxfh = la_get_rxfh,
	.get_rxfh_fields = la_get_fields,
	.get_coalesce = la_get_coalesce,
	.get_ringparam = la_get_ring,
	.get_sset_count = la_sset_count,
	.get_strings = la_strings,
	.get_ethtool_stats = la_stats,
};

static const struct ethtool_ops veth_like_ops = {
	.get_drvinfo = la_drvinfo,
	.get_channels = la_channels,
	.get_sset_count = la_sset_count,
	.get_strings = la_strings,
	.get_ethtool_stats = la_stats,
};

static char *slurp(const char *name, const char *ext)
{
	char path[512], *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s.%s", real_dir, name, ext);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s: missing", path);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* Run @args on @l and compare with the saved real run @name. */
static void expect_real(struct lookalike *l, const char *name, const char *args)
{
	char *out = slurp(name, "out"), *err = slurp(name, "err"), *rc = slurp(name, "rc");
	struct fake *f = (struct fake *)l;      /* run() wants a struct fake: same first member */
	struct run r;

	run(f, args, &r);
	if (strcmp(r.out, out) || strcmp(r.err, err) || r.rc != atoi(rc))
		fprintf(stderr, "ethtool %s (real: %s)\n rc %d\n--- out\n%s--- err\n%s---\n",
			args, name, r.rc, r.out, r.err);
	assert_string_equal(r.out, out);
	assert_string_equal(r.err, err);
	assert_int_equal(r.rc, atoi(rc));
	run_free(&r);
	free(out);
	free(err);
	free(rc);
}

static void test_real_ethtool_61(void **state)
{
	struct lookalike virtio = {
		.driver = "virtio_net", .version = "1.0.0", .bus = "0000:00:03.0",
		.max_combined = 1, .combined = 1,
	};
	struct lookalike veth = {
		.driver = "veth", .version = "1.0", .bus = "",
		.max_rx = 2, .max_tx = 2, .rx = 1, .tx = 1,
	};

	(void)state;
	if (!real_dir)
		skip();
	strcpy(virtio.dev.name, "eth0");
	virtio.dev.ethtool_ops = &virtio_like_ops;
	virtio.dev.priv = &virtio;
	strcpy(veth.dev.name, "rxv0");
	veth.dev.ethtool_ops = &veth_like_ops;
	veth.dev.priv = &veth;
	expect_real(&virtio, "virtio-l", "-l eth0");
	expect_real(&virtio, "virtio-c", "-c eth0");
	expect_real(&virtio, "virtio-g", "-g eth0");
	expect_real(&virtio, "virtio-i", "-i eth0");
	expect_real(&virtio, "virtio-x", "-x eth0");
	expect_real(&virtio, "virtio-n-tcp4", "-n eth0 rx-flow-hash tcp4");
	expect_real(&veth, "veth-l", "-l rxv0");
	expect_real(&veth, "veth-x", "-x rxv0");
	expect_real(&veth, "veth-c", "-c rxv0");
	expect_real(&veth, "veth-g", "-g rxv0");
	expect_real(&veth, "veth-i", "-i rxv0");
	expect_real(&veth, "veth-S", "-S rxv0");
	expect_real(&veth, "veth-n-tcp4", "-n rxv0 rx-flow-hash tcp4");
	expect_real(&veth, "nodev-l", "-l rxnodev");
	expect_real(&veth, "nodev-x", "-x rxnodev");
	expect_real(&veth, "nodev-i", "-i rxnodev");
	expect_real(&veth, "nodev-S", "-S rxnodev");
	expect_real(&veth, "nodev-c", "-c rxnodev");
	expect_real(&veth, "veth-L-unknown", "-L rxv0 foo 1");
	expect_real(&veth, "veth-i-extra", "-i rxv0 extra");
	expect_real(&veth, "veth-X-xfrm", "-X rxv0 xfrm symmetric-xor");
	expect_real(&veth, "veth-C-aggr", "-C rxv0 tx-aggr-max-bytes 1");
	expect_real(&veth, "veth-G-rxpush", "-G rxv0 rx-push on");
	expect_real(&veth, "veth-x-context", "-x rxv0 context 1");
	expect_real(&veth, "veth-x-bad", "-x rxv0 foo");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels_limits),
		cmocka_unit_test(test_channels_vs_user_table),
		cmocka_unit_test(test_rxfh_checks),
		cmocka_unit_test(test_rxfh_xfrm_fields),
		cmocka_unit_test(test_coalesce_rings),
		cmocka_unit_test(test_cmd_show_channels),
		cmocka_unit_test(test_cmd_show_rxfh),
		cmocka_unit_test(test_cmd_show_nfc),
		cmocka_unit_test(test_cmd_show_coalesce_ring_stats),
		cmocka_unit_test(test_cmd_rss_ctx),
		cmocka_unit_test(test_cmd_errors),
		cmocka_unit_test(test_real_ethtool_61),
	};

	real_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
