/* SPDX-License-Identifier: MIT */
/*
 * ethtool_cmd.c - ethtool's command line over the ethtool core; see
 * ethtool_cmd.h.  Formats and messages are ethtool's (facts read from its
 * source, cited per function); the code is rxscale's own.
 */
#include "kern/kern.h"
#include "kern/ethtool_cmd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kern/ethtool.h"
#include "kern/netdevice.h"
#include "rss/rss_fields.h"
#include "rss/rss_indir.h"
#include "rss/rss_key.h"

#define MAX_ARGS	1024

struct cmd {
	struct net_device *dev;
	FILE *out;
	FILE *err;
	const char *name;	/* "-L": what ethtool calls the command */
	const char *devname;
	int argc;		/* words after the device name */
	const char *const *argv;
};

/* ethtool.c exit_bad_args(): exit status 1. */
static int bad_args(struct cmd *c)
{
	fputs("ethtool: bad command line argument(s)\n"
	      "For more information run ethtool -h\n", c->err);
	return 1;
}

/* perror() as ethtool uses it: "what: strerror(errno)". */
static void pr_errno(struct cmd *c, const char *what, int neg_errno)
{
	fprintf(c->err, "%s: %s\n", what, strerror(-neg_errno));
}

static bool dev_matches(const struct cmd *c)
{
	return !strcmp(c->devname, c->dev->name);
}

/* ---------------------------------------------------------------- */
/* numbers                                                           */
/* ---------------------------------------------------------------- */

/* ethtool.c get_int_range()/get_u32(): strtoll/strtoull, base 0. */
static bool parse_int_range(const char *s, long long min, long long max,
			    long long *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 0);
	return !errno && !*end && *v >= min && *v <= max;
}

static bool parse_u32_base0(const char *s, u32 *v)
{
	unsigned long long x;
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > 0xffffffffull)
		return false;
	*v = (u32)x;
	return true;
}

/* netlink/parser.c parse_u32(): decimal, or hex after "0x". */
static bool parse_nl_u32(const char *s, u32 *v)
{
	unsigned long long x;
	int base = 10;
	char *end;

	if (!s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	if (!*s)
		return false;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > 0xffffffffull || s[0] == '-')
		return false;
	*v = (u32)x;
	return true;
}

/* ---------------------------------------------------------------- */
/* netlink-style parameters and errors                               */
/* ---------------------------------------------------------------- */

enum nl_ptype { NLP_U32, NLP_BOOL };

struct nl_param {
	const char *name;
	u32 attr;
	enum nl_ptype type;
};

/* What one set request carries: values by attribute type, and where each
 * attribute sits in the message (for the extack offset). */
struct nl_req {
	u64 attrs;
	u32 val[64];
	unsigned pos[64];
};

/*
 * netlink/parser.c nl_parser(): "ethtool (-L): unknown parameter 'x'",
 * "... duplicate parameter 'x'", "... no value for parameter 'x'",
 * "... invalid value 'v' for parameter 'x'".  Returns 0 or -EINVAL.
 */
static int nl_parse(struct cmd *c, const struct nl_param *tbl, size_t n,
		    struct nl_req *r)
{
	unsigned npos = 0;
	int i = 0;

	memset(r, 0, sizeof(*r));
	while (i < c->argc) {
		const char *arg = c->argv[i++];
		const struct nl_param *p = NULL;
		size_t k;

		for (k = 0; k < n; k++)
			if (!strcmp(tbl[k].name, arg))
				p = &tbl[k];
		if (!p) {
			fprintf(c->err, "ethtool (%s): unknown parameter '%s'\n",
				c->name, arg);
			return -EINVAL;
		}
		if (r->attrs & ETHTOOL_ATTR(p->attr)) {
			fprintf(c->err,
				"ethtool (%s): duplicate parameter '%s'\n",
				c->name, arg);
			return -EINVAL;
		}
		if (i >= c->argc) {
			fprintf(c->err,
				"ethtool (%s): no value for parameter '%s'\n",
				c->name, arg);
			return -EINVAL;
		}
		if (p->type == NLP_BOOL) {
			if (!strcmp(c->argv[i], "on")) {
				r->val[p->attr] = 1;
			} else if (!strcmp(c->argv[i], "off")) {
				r->val[p->attr] = 0;
			} else {
				fprintf(c->err,
					"ethtool (%s): invalid value '%s' for parameter '%s'\n",
					c->name, c->argv[i], arg);
				return -EINVAL;
			}
		} else if (!parse_nl_u32(c->argv[i], &r->val[p->attr])) {
			fprintf(c->err,
				"ethtool (%s): invalid value '%s' for parameter '%s'\n",
				c->name, c->argv[i], arg);
			return -EINVAL;
		}
		i++;
		r->attrs |= ETHTOOL_ATTR(p->attr);
		r->pos[p->attr] = npos++;
	}
	return 0;
}

/*
 * Byte offset of an attribute in ethtool's request, as the kernel reports
 * it: nlmsghdr (16) + genlmsghdr (4) + the header nest (4 + the device
 * name attribute, 4 + name + NUL, padded to 4), then the attributes in
 * command-line order, 8 bytes each (u32, or u8 padded).
 */
static unsigned nl_attr_offset(const struct cmd *c, const struct nl_req *r,
			       u32 attr)
{
	size_t name_attr = (4 + strlen(c->devname) + 1 + 3) & ~(size_t)3;

	return (unsigned)(16 + 4 + 4 + name_attr + 8 * r->pos[attr]);
}

/*
 * netlink/nlsock.c nlsock_process_ack(): the extack message (with
 * " (offset N)" when it points at an attribute), then perror("netlink
 * error").
 */
static void nl_report(struct cmd *c, int ret, const struct netlink_ext_ack *ea,
		      const struct nl_req *r)
{
	if (ea && ea->_msg) {
		fprintf(c->err, "netlink error: %s", ea->_msg);
		if (ea->bad_attr && r && ea->bad_attr < 64 &&
		    (r->attrs & ETHTOOL_ATTR(ea->bad_attr)))
			fprintf(c->err, " (offset %u)",
				nl_attr_offset(c, r, ea->bad_attr));
		fputc('\n', c->err);
	}
	fprintf(c->err, "netlink error: %s\n", strerror(-ret));
}

/*
 * The kernel's answer to a netlink request for a device that does not
 * exist (ethnl_parse_header_dev_get: "no device matches name", -ENODEV,
 * pointing at the name attribute, which sits at offset 24).
 */
static void nl_no_device(struct cmd *c)
{
	fputs("netlink error: no device matches name (offset 24)\n", c->err);
	fprintf(c->err, "netlink error: %s\n", strerror(ENODEV));
}

/* netlink show_u32(): "<label><value>" or "<label>n/a". */
static void show_u32(FILE *f, const char *label, bool present, u32 v)
{
	if (present)
		fprintf(f, "%s%u\n", label, v);
	else
		fprintf(f, "%sn/a\n", label);
}

static const char *on_off_na(bool present, u32 v)
{
	return !present ? "n/a" : v ? "on" : "off";
}

/* nl_gchannels/nl_gcoalesce/nl_gring: "ethtool: unexpected parameter". */
static int no_params(struct cmd *c)
{
	if (c->argc > 0) {
		fprintf(c->err, "ethtool: unexpected parameter '%s'\n",
			c->argv[0]);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* -l / -L (netlink/channels.c; kernel net/ethtool/channels.c)       */
/* ---------------------------------------------------------------- */

static int do_gchannels(struct cmd *c)
{
	struct ethtool_channels ch;
	int ret;

	/* ethtool's nl_gchannels takes no parameters (rxscale applies the
	 * same "unexpected parameter" check as -c/-g: guessed) */
	if (no_params(c))
		return 1;
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_channels(c->dev, &ch);
	if (ret) {
		nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/* the kernel sends max and count only when max is non-zero */
	fprintf(c->out, "Channel parameters for %s:\n", c->devname);
	fputs("Pre-set maximums:\n", c->out);
	show_u32(c->out, "RX:\t\t", ch.max_rx, ch.max_rx);
	show_u32(c->out, "TX:\t\t", ch.max_tx, ch.max_tx);
	show_u32(c->out, "Other:\t\t", ch.max_other, ch.max_other);
	show_u32(c->out, "Combined:\t", ch.max_combined, ch.max_combined);
	fputs("Current hardware settings:\n", c->out);
	show_u32(c->out, "RX:\t\t", ch.max_rx, ch.rx_count);
	show_u32(c->out, "TX:\t\t", ch.max_tx, ch.tx_count);
	show_u32(c->out, "Other:\t\t", ch.max_other, ch.other_count);
	show_u32(c->out, "Combined:\t", ch.max_combined, ch.combined_count);
	return 0;
}

static const struct nl_param schannels_params[] = {
	{ "rx", ETHTOOL_A_CHANNELS_RX_COUNT, NLP_U32 },
	{ "tx", ETHTOOL_A_CHANNELS_TX_COUNT, NLP_U32 },
	{ "other", ETHTOOL_A_CHANNELS_OTHER_COUNT, NLP_U32 },
	{ "combined", ETHTOOL_A_CHANNELS_COMBINED_COUNT, NLP_U32 },
};

static int do_schannels(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_channels ch = { 0 };
	struct nl_req r;
	int ret;

	if (nl_parse(c, schannels_params, ARRAY_SIZE(schannels_params), &r))
		return 1;
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	ch.rx_count = r.val[ETHTOOL_A_CHANNELS_RX_COUNT];
	ch.tx_count = r.val[ETHTOOL_A_CHANNELS_TX_COUNT];
	ch.other_count = r.val[ETHTOOL_A_CHANNELS_OTHER_COUNT];
	ch.combined_count = r.val[ETHTOOL_A_CHANNELS_COMBINED_COUNT];
	ret = ethtool_core_set_channels(c->dev, &ch, r.attrs, &ea);
	if (ret < 0) {
		nl_report(c, ret, &ea, &r);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* -x (netlink/rss.c rss_reply_cb, common.c print_indir_table and    */
/* print_rss_hkey)                                                   */
/* ---------------------------------------------------------------- */

/* Kernel ETH_SS_RSS_HASH_FUNCS strings, bit i = string i. */
static const char *const hfunc_names[ETH_RSS_HASH_FUNCS_COUNT] = {
	"toeplitz", "xor", "crc32",
};

static int do_grxfh(struct cmd *c)
{
	struct ethtool_rxfh_param p = { 0 };
	const struct ethtool_ops *ops = c->dev->ethtool_ops;
	u32 isz = 0, ksz = 0, i, hfunc, xfrm;
	int ret, rings, rc = 0;

	if (c->argc > 0) {
		u32 ctx;

		if (strcmp(c->argv[0], "context")) {
			fprintf(c->err, "ethtool (-x): unknown parameter '%s'\n",
				c->argv[0]);
			return 1;
		}
		if (c->argc < 2) {
			fputs("ethtool (-x): no value for parameter 'context'\n",
			      c->err);
			return 1;
		}
		if (!parse_nl_u32(c->argv[1], &ctx)) {
			fprintf(c->err,
				"ethtool (-x): invalid value '%s' for parameter 'context'\n",
				c->argv[1]);
			return 1;
		}
		if (c->argc > 2) {
			fprintf(c->err, "ethtool (-x): unknown parameter '%s'\n",
				c->argv[2]);
			return 1;
		}
		if (dev_matches(c) && ctx) {
			/* no extra RSS contexts on this device (guessed
			 * kernel answer: -EOPNOTSUPP) */
			nl_report(c, -EOPNOTSUPP, NULL, NULL);
			return 1;
		}
	}
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	if (ops && ops->get_rxfh_indir_size)
		isz = ops->get_rxfh_indir_size(c->dev);
	if (ops && ops->get_rxfh_key_size)
		ksz = ops->get_rxfh_key_size(c->dev);
	p.indir = isz ? calloc(isz, sizeof(u32)) : NULL;
	p.key = ksz ? calloc(ksz, 1) : NULL;
	if ((isz && !p.indir) || (ksz && !p.key)) {
		rc = 1;
		goto out;
	}
	ret = ethtool_core_get_rxfh(c->dev, &p);
	if (ret) {
		nl_report(c, ret, NULL, NULL);
		rc = 1;
		goto out;
	}

	fputc('\n', c->out);	/* rss_reply_cb starts with show_cr() */
	rings = ethtool_core_get_rx_ring_count(c->dev);
	if (rings < 0) {
		pr_errno(c, "Cannot get RX ring count", rings);
		rc = 1;
		goto out;
	}
	fprintf(c->out,
		"RX flow hash indirection table for %s with %d RX ring(s):\n",
		c->devname, rings);
	if (!p.indir_size || !p.indir)
		fputs("Operation not supported\n", c->out);
	for (i = 0; p.indir && i < p.indir_size; i++) {
		if (i % 8 == 0)
			fprintf(c->out, "%5u: ", i);
		fprintf(c->out, " %5u", p.indir[i]);
		if (i % 8 == 7 || i == p.indir_size - 1)
			fputc('\n', c->out);
	}
	fputs("RSS hash key:\n", c->out);
	if (!p.key_size || !p.key) {
		fputs("Operation not supported\n", c->out);
	} else {
		char *buf = malloc(3 * p.key_size + 1);

		if (!buf) {
			rc = 1;
			goto out;
		}
		fprintf(c->out, "%s\n", rss_key_format(p.key, p.key_size, buf));
		free(buf);
	}
	fputs("RSS hash function:\n", c->out);
	hfunc = p.hfunc;
	if (!hfunc) {
		fputs("    Operation not supported\n", c->out);
		goto out;
	}
	for (i = 0; i < ETH_RSS_HASH_FUNCS_COUNT; i++) {
		fprintf(c->out, "    %s: %s\n", hfunc_names[i],
			hfunc & (1u << i) ? "on" : "off");
		hfunc &= ~(1u << i);
	}
	if (hfunc)
		fprintf(c->out, "    Unknown hash function: 0x%x\n", hfunc);
	xfrm = p.input_xfrm;
	fputs("RSS input transformation:\n", c->out);
	fprintf(c->out, "    symmetric-xor: %s\n",
		xfrm & RXH_XFRM_SYM_XOR ? "on" : "off");
	fprintf(c->out, "    symmetric-or-xor: %s\n",
		xfrm & RXH_XFRM_SYM_OR_XOR ? "on" : "off");
	xfrm &= ~(u32)(RXH_XFRM_SYM_XOR | RXH_XFRM_SYM_OR_XOR);
	if (xfrm)
		fprintf(c->out,
			"    Unknown bits in RSS input transformation: 0x%x\n",
			xfrm);
out:
	free(p.indir);
	free(p.key);
	return rc;
}

/* ---------------------------------------------------------------- */
/* -X (ethtool.c do_srxfh, fill_indir_table, parse_hkey; ioctl)      */
/* ---------------------------------------------------------------- */

/* ethtool.c convert_string_to_hashkey(): exit 2 on a malformed key. */
static int parse_hkey(struct cmd *c, const char *s, u8 *key, u32 key_size)
{
	u32 n = 0;

	do {
		unsigned hi, lo;

		if (n > key_size - 1) {
			fprintf(c->err, "Key is too long for device (%u > %u)\n",
				n + 1, key_size);
			return 2;
		}
		if (!isxdigit((unsigned char)s[0]) ||
		    !isxdigit((unsigned char)s[1])) {
			fputs("Invalid RSS hash key format\n", c->err);
			return 2;
		}
		hi = (unsigned)(isdigit((unsigned char)s[0]) ? s[0] - '0' :
				(tolower((unsigned char)s[0]) - 'a' + 10));
		lo = (unsigned)(isdigit((unsigned char)s[1]) ? s[1] - '0' :
				(tolower((unsigned char)s[1]) - 'a' + 10));
		key[n++] = (u8)(hi << 4 | lo);
		s += 2;
		if (*s == ':') {
			s++;
		} else if (*s) {
			fputs("Invalid RSS hash key format\n", c->err);
			return 2;
		}
	} while (*s);
	if (n != key_size) {
		fprintf(c->err, "Key is too short for device (%u < %u)\n", n,
			key_size);
		return 2;
	}
	return 0;
}

struct srxfh_args {
	long long equal, start;
	const char *const *weight;
	u32 num_weights;
	const char *hkey, *hfunc;
	u32 input_xfrm;
	u32 context;
	bool is_default, is_delete, has_context;
};

static int srxfh_parse(struct cmd *c, struct srxfh_args *a)
{
	int i = 0;

	memset(a, 0, sizeof(*a));
	a->input_xfrm = RXH_XFRM_NO_CHANGE;
	if (c->argc < 1)
		return bad_args(c);
	while (i < c->argc) {
		const char *w = c->argv[i++];
		const char *v = i < c->argc ? c->argv[i] : NULL;

		if (!strcmp(w, "equal")) {
			if (!parse_int_range(v, 1, INT_MAX, &a->equal))
				return bad_args(c);
			i++;
		} else if (!strcmp(w, "start")) {
			if (!parse_int_range(v, 0, INT_MAX, &a->start))
				return bad_args(c);
			i++;
		} else if (!strcmp(w, "weight")) {
			a->weight = c->argv + i;
			while (i < c->argc &&
			       isdigit((unsigned char)c->argv[i][0])) {
				i++;
				a->num_weights++;
			}
			if (!a->num_weights)
				return bad_args(c);
		} else if (!strcmp(w, "hkey")) {
			if (!v)
				return bad_args(c);
			a->hkey = v;
			i++;
		} else if (!strcmp(w, "default")) {
			a->is_default = true;
		} else if (!strcmp(w, "hfunc")) {
			if (!v)
				return bad_args(c);
			a->hfunc = v;
			i++;
		} else if (!strcmp(w, "xfrm")) {
			if (!v)
				return bad_args(c);
			if (!strcmp(v, "symmetric-xor"))
				a->input_xfrm = RXH_XFRM_SYM_XOR;
			else if (!strcmp(v, "symmetric-or-xor"))
				a->input_xfrm = RXH_XFRM_SYM_OR_XOR;
			else if (!strcmp(v, "none"))
				a->input_xfrm = 0;
			else
				return bad_args(c);
			i++;
		} else if (!strcmp(w, "context")) {
			long long ctx;

			if (!v)
				return bad_args(c);
			if (!strcmp(v, "new")) {
				a->context = 0xffffffffu;
			} else {
				if (!parse_int_range(v, 1, 0xfffffffeLL, &ctx))
					return bad_args(c);
				a->context = (u32)ctx;
			}
			a->has_context = true;
			i++;
		} else if (!strcmp(w, "delete")) {
			a->is_delete = true;
		} else {
			return bad_args(c);
		}
	}
	return 0;
}

/* do_srxfh's mutual-exclusion messages, in ethtool's order. */
static int srxfh_check(struct cmd *c, const struct srxfh_args *a)
{
	const char *msg = NULL;

	if (a->equal && a->weight)
		msg = "Equal and weight options are mutually exclusive";
	else if (a->equal && a->is_default)
		msg = "Equal and default options are mutually exclusive";
	else if (a->weight && a->is_default)
		msg = "Weight and default options are mutually exclusive";
	else if (a->start && a->is_default)
		msg = "Start and default options are mutually exclusive";
	else if (a->start && !(a->equal || a->weight))
		msg = "Start must be used with equal or weight options";
	else if (a->is_default && a->context)
		msg = "Default and context options are mutually exclusive";
	else if (a->is_delete && !a->context)
		msg = "Delete option requires context option";
	else if (a->is_delete && a->weight)
		msg = "Delete and weight options are mutually exclusive";
	else if (a->is_delete && a->equal)
		msg = "Delete and equal options are mutually exclusive";
	else if (a->is_delete && a->is_default)
		msg = "Delete and default options are mutually exclusive";
	else if (a->is_delete && a->hkey)
		msg = "Delete and hkey options are mutually exclusive";
	if (msg) {
		fprintf(c->err, "%s\n", msg);
		return 1;
	}
	return 0;
}

/* fill_indir_table(): equal and weight through rss_indir.c. */
static int fill_indir(struct cmd *c, const struct srxfh_args *a, u32 size,
		      u32 *indir)
{
	struct rss_indir *t = calloc(1, sizeof(*t));
	uint32_t w[RSS_INDIR_MAX];
	u64 sum = 0;
	u32 j;
	int ret = 0;

	if (!t)
		return 1;
	if (size > RSS_INDIR_MAX || (size & (size - 1))) {
		/* rss_indir.c covers power-of-two tables up to 512
		 * entries, which every chip of this project has */
		fprintf(c->err, "rxscale: indirection table of %u entries "
			"is not supported\n", size);
		free(t);
		return 1;
	}
	if (a->equal) {
		rss_indir_equal(t, size, (unsigned)a->equal,
				(unsigned)a->start);
	} else {
		if (a->num_weights > RSS_INDIR_MAX) {
			fputs("Total weight exceeds the size of the "
			      "indirection table\n", c->err);
			free(t);
			return 1;
		}
		for (j = 0; j < a->num_weights; j++) {
			if (!parse_u32_base0(a->weight[j], &w[j])) {
				free(t);
				return bad_args(c);
			}
			sum += w[j];
		}
		if (sum == 0) {
			fputs("At least one weight must be non-zero\n", c->err);
			ret = 1;
		} else if (sum > size) {
			fputs("Total weight exceeds the size of the "
			      "indirection table\n", c->err);
			ret = 1;
		} else {
			rss_indir_weight(t, size, w, a->num_weights,
					 (unsigned)a->start);
		}
	}
	if (!ret)
		memcpy(indir, t->tbl, size * sizeof(*indir));
	free(t);
	return ret;
}

static int do_srxfh(struct cmd *c)
{
	struct ethtool_rxfh_param cur = { 0 }, req = { 0 };
	struct srxfh_args a;
	u32 *indir = NULL;
	u8 *key = NULL;
	int ret, rc = 0;
	u32 i;

	ret = srxfh_parse(c, &a);
	if (ret)
		return ret;
	if (srxfh_check(c, &a))
		return 1;
	if (!dev_matches(c)) {
		pr_errno(c, "Cannot get RX ring count", -ENODEV);
		return 1;
	}
	ret = ethtool_core_get_rx_ring_count(c->dev);
	if (ret < 0) {
		pr_errno(c, "Cannot get RX ring count", ret);
		return 1;
	}
	/* ETHTOOL_GRSSH with no buffers: sizes and hfunc */
	ret = ethtool_core_get_rxfh(c->dev, &cur);
	if (ret < 0) {
		pr_errno(c, "Cannot get RX flow hash indir size and key size",
			 ret);
		return 1;
	}

	req.indir_size = ETH_RXFH_INDIR_NO_CHANGE;
	req.input_xfrm = (u8)a.input_xfrm;
	req.rss_context = a.context;
	req.rss_delete = a.is_delete;
	if (a.hkey) {
		if (!cur.key_size) {
			fputs("Cannot set RX flow hash configuration:\n"
			      " Hash key setting not supported\n", c->err);
			return 1;
		}
		key = malloc(cur.key_size);
		if (!key)
			return 1;
		rc = parse_hkey(c, a.hkey, key, cur.key_size);
		if (rc)
			goto out;
		req.key = key;
		req.key_size = cur.key_size;
	}
	if (cur.hfunc && a.hfunc) {
		for (i = 0; i < ETH_RSS_HASH_FUNCS_COUNT; i++)
			if (!strncmp(hfunc_names[i], a.hfunc, ETH_GSTRING_LEN))
				req.hfunc = (u8)(1u << i);
		if (!req.hfunc) {
			fprintf(c->err, "Unknown hash function: %s\n", a.hfunc);
			rc = 1;
			goto out;
		}
	}
	if (a.is_delete) {
		req.indir_size = 0;
	} else if (a.equal || a.weight) {
		indir = calloc(cur.indir_size ? cur.indir_size : 1,
			       sizeof(*indir));
		if (!indir) {
			rc = 1;
			goto out;
		}
		if (fill_indir(c, &a, cur.indir_size, indir)) {
			rc = 1;
			goto out;
		}
		req.indir = indir;
		req.indir_size = cur.indir_size;
	} else if (a.is_default) {
		req.indir_size = 0;
	}

	ret = ethtool_core_set_rxfh(c->dev, &req, NULL);
	if (ret < 0) {
		pr_errno(c, "Cannot set RX flow hash configuration", ret);
		rc = 1;
	}
out:
	free(indir);
	free(key);
	return rc;
}

/* ---------------------------------------------------------------- */
/* -n / -N rx-flow-hash (ethtool.c do_grxclass, do_srxclass,         */
/* rxflow_str_to_type, parse_rxfhashopts, dump_rxfhash)              */
/* ---------------------------------------------------------------- */

/* ethtool's flow names for rx-flow-hash (GTP flow types not modelled). */
static u32 rxflow_type(const char *s)
{
	static const struct {
		const char *name;
		u32 type;
	} t[] = {
		{ "tcp4", TCP_V4_FLOW }, { "udp4", UDP_V4_FLOW },
		{ "ah4", AH_ESP_V4_FLOW }, { "esp4", AH_ESP_V4_FLOW },
		{ "sctp4", SCTP_V4_FLOW }, { "tcp6", TCP_V6_FLOW },
		{ "udp6", UDP_V6_FLOW }, { "ah6", AH_ESP_V6_FLOW },
		{ "esp6", AH_ESP_V6_FLOW }, { "sctp6", SCTP_V6_FLOW },
		{ "ether", ETHER_FLOW },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i].name))
			return t[i].type;
	return 0;
}

/*
 * ethtool's letters: rss_fields_parse() for m v t s d f n e r, plus 'l'
 * (RXH_IP6_FL), which rss_fields.h does not know.  ethtool ORs 'r' into
 * the other bits where rss_fields_parse() keeps RXH_DISCARD alone; either
 * way the request asks to discard the flow type.
 */
static int parse_rxfh_letters(const char *s, u32 *data)
{
	char rest[64];
	size_t n = 0;
	u32 v = 0;

	for (; *s; s++) {
		if (*s == 'l') {
			v |= RXH_IP6_FL;
			continue;
		}
		if (n + 1 >= sizeof(rest))
			return -EINVAL;
		rest[n++] = *s;
	}
	rest[n] = '\0';
	if (n) {
		uint32_t rxh;

		if (rss_fields_parse(rest, &rxh))
			return -EINVAL;
		v |= rxh;
	}
	*data = v;
	return 0;
}

static void dump_rxfhash(struct cmd *c, u32 flow, u32 data)
{
	static const struct {
		u32 bit;
		const char *text;
	} lines[] = {
		{ RXH_L2DA, "L2DA" },
		{ RXH_VLAN, "VLAN tag" },
		{ RXH_L3_PROTO, "L3 proto" },
		{ RXH_IP_SRC, "IP SA" },
		{ RXH_IP_DST, "IP DA" },
		{ RXH_L4_B_0_1, "L4 bytes 0 & 1 [TCP/UDP src port]" },
		{ RXH_L4_B_2_3, "L4 bytes 2 & 3 [TCP/UDP dst port]" },
		{ RXH_GTP_TEID, "GTP TEID" },
		{ RXH_IP6_FL, "IPv6 Flow Label" },
	};
	const char *name = "";
	size_t i;

	switch (flow) {
	case TCP_V4_FLOW: name = "TCP over IPV4 flows"; break;
	case UDP_V4_FLOW: name = "UDP over IPV4 flows"; break;
	case SCTP_V4_FLOW: name = "SCTP over IPV4 flows"; break;
	case AH_ESP_V4_FLOW:
	case AH_V4_FLOW:
	case ESP_V4_FLOW: name = "IPSEC AH/ESP over IPV4 flows"; break;
	case TCP_V6_FLOW: name = "TCP over IPV6 flows"; break;
	case UDP_V6_FLOW: name = "UDP over IPV6 flows"; break;
	case SCTP_V6_FLOW: name = "SCTP over IPV6 flows"; break;
	case AH_ESP_V6_FLOW:
	case AH_V6_FLOW:
	case ESP_V6_FLOW: name = "IPSEC AH/ESP over IPV6 flows"; break;
	default: break;
	}
	fputs(name, c->out);
	if (data & RXH_DISCARD) {
		fputs(" - All matching flows discarded on RX\n", c->out);
		return;
	}
	fputs(" use these fields for computing Hash flow key:\n", c->out);
	if (!data) {
		fputs("None\n", c->out);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (data & lines[i].bit)
			fprintf(c->out, "%s\n", lines[i].text);
	fputc('\n', c->out);
}

static int do_grxclass(struct cmd *c)
{
	struct ethtool_rxfh_fields f = { 0 };
	bool flow_rss = false;
	int ret;

	if (c->argc > 0 && !strcmp(c->argv[0], "rx-flow-hash")) {
		if (c->argc == 4) {
			long long ctx;

			if (strcmp(c->argv[2], "context") ||
			    !parse_int_range(c->argv[3], 0, 0xffffffffLL, &ctx))
				return bad_args(c);
			flow_rss = true;
			f.rss_context = (u32)ctx;
		} else if (c->argc != 2) {
			return bad_args(c);
		}
		f.flow_type = rxflow_type(c->argv[1]);
		if (!f.flow_type)
			return bad_args(c);
		if (!dev_matches(c)) {
			pr_errno(c, "Cannot get RX network flow hashing options",
				 -ENODEV);
			return 1;
		}
		ret = ethtool_core_get_rxfh_fields(c->dev, &f);
		if (ret < 0) {
			pr_errno(c, "Cannot get RX network flow hashing options",
				 ret);
			return 1;
		}
		if (flow_rss)
			fprintf(c->out, "For RSS context %u:\n", f.rss_context);
		dump_rxfhash(c, f.flow_type, f.data);
		return 0;
	}
	if (c->argc == 2 && !strcmp(c->argv[0], "rule")) {
		long long loc;

		if (!parse_int_range(c->argv[1], 0, INT_MAX, &loc))
			return bad_args(c);
		/* no classification rules are modelled (message from
		 * do_grxclass; rxclass.c's own line before it is omitted) */
		fputs("Cannot get RX classification rule\n", c->err);
		return 1;
	}
	if (c->argc == 0) {
		if (!dev_matches(c)) {
			pr_errno(c, "Cannot get RX rings", -ENODEV);
			return 1;
		}
		ret = ethtool_core_get_rx_ring_count(c->dev);
		if (ret < 0) {
			pr_errno(c, "Cannot get RX rings", ret);
			return 1;
		}
		fprintf(c->out, "%d RX rings available\n", ret);
		/* guessed: rxclass.c's text when the device has no
		 * classification rules interface */
		fputs("RX classification rule retrieval failed\n", c->err);
		return 1;
	}
	return bad_args(c);
}

static int do_srxclass(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_rxfh_fields f = { 0 };
	int ret;

	if (c->argc < 2)
		return bad_args(c);
	if (!strcmp(c->argv[0], "rx-flow-hash")) {
		if (c->argc == 5) {
			long long ctx;

			if (strcmp(c->argv[3], "context") ||
			    !parse_int_range(c->argv[4], 0, 0xffffffffLL, &ctx))
				return bad_args(c);
			f.rss_context = (u32)ctx;
		} else if (c->argc != 3) {
			return bad_args(c);
		}
		f.flow_type = rxflow_type(c->argv[1]);
		if (!f.flow_type)
			return bad_args(c);
		if (parse_rxfh_letters(c->argv[2], &f.data))
			return bad_args(c);
		if (!dev_matches(c)) {
			pr_errno(c, "Cannot change RX network flow hashing options",
				 -ENODEV);
			return 1;
		}
		ret = ethtool_core_set_rxfh_fields(c->dev, &f, &ea);
		if (ret < 0) {
			pr_errno(c, "Cannot change RX network flow hashing options",
				 ret);
			return 1;
		}
		return 0;
	}
	if (!strcmp(c->argv[0], "flow-type")) {
		/* no ntuple filters are modelled (do_srxclass's final
		 * message; rxclass.c's lines before it are omitted) */
		fputs("Cannot insert classification rule\n", c->err);
		return 1;
	}
	if (!strcmp(c->argv[0], "delete")) {
		long long loc;

		if (!parse_int_range(c->argv[1], 0, INT_MAX, &loc))
			return bad_args(c);
		fputs("Cannot delete classification rule\n", c->err);
		return 1;
	}
	return bad_args(c);
}

/* ---------------------------------------------------------------- */
/* -c / -C (netlink/coalesce.c; kernel net/ethtool/coalesce.c)       */
/* ---------------------------------------------------------------- */

struct coal_show {
	const char *label;	/* NULL: blank line (show_cr) */
	u32 attr;
};

/* coalesce_reply_cb() layout, current ethtool (with rx-cqe-*). */
static const struct coal_show coal_show[] = {
	{ "stats-block-usecs:\t", ETHTOOL_A_COALESCE_STATS_BLOCK_USECS },
	{ "sample-interval:\t", ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL },
	{ "pkt-rate-low:\t\t", ETHTOOL_A_COALESCE_PKT_RATE_LOW },
	{ "pkt-rate-high:\t\t", ETHTOOL_A_COALESCE_PKT_RATE_HIGH },
	{ NULL, 0 },
	{ "rx-usecs:\t", ETHTOOL_A_COALESCE_RX_USECS },
	{ "rx-frames:\t", ETHTOOL_A_COALESCE_RX_MAX_FRAMES },
	{ "rx-usecs-irq:\t", ETHTOOL_A_COALESCE_RX_USECS_IRQ },
	{ "rx-frames-irq:\t", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ },
	{ NULL, 0 },
	{ "tx-usecs:\t", ETHTOOL_A_COALESCE_TX_USECS },
	{ "tx-frames:\t", ETHTOOL_A_COALESCE_TX_MAX_FRAMES },
	{ "tx-usecs-irq:\t", ETHTOOL_A_COALESCE_TX_USECS_IRQ },
	{ "tx-frames-irq:\t", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ },
	{ NULL, 0 },
	{ "rx-usecs-low:\t", ETHTOOL_A_COALESCE_RX_USECS_LOW },
	{ "rx-frame-low:\t", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW },
	{ "tx-usecs-low:\t", ETHTOOL_A_COALESCE_TX_USECS_LOW },
	{ "tx-frame-low:\t", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW },
	{ NULL, 0 },
	{ "rx-usecs-high:\t", ETHTOOL_A_COALESCE_RX_USECS_HIGH },
	{ "rx-frame-high:\t", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH },
	{ "tx-usecs-high:\t", ETHTOOL_A_COALESCE_TX_USECS_HIGH },
	{ "tx-frame-high:\t", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH },
	{ NULL, 0 },
};

static const struct coal_show coal_show_tail[] = {
	{ NULL, 0 },
	{ "tx-aggr-max-bytes:\t", ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES },
	{ "tx-aggr-max-frames:\t", ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES },
	{ "tx-aggr-time-usecs:\t", ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS },
	{ NULL, 0 },
	{ "rx-cqe-frames:\t\t", ETHTOOL_A_COALESCE_RX_CQE_FRAMES },
	{ "rx-cqe-nsecs:\t\t", ETHTOOL_A_COALESCE_RX_CQE_NSECS },
	{ NULL, 0 },
};

static u32 coal_value(u32 attr, const struct ethtool_coalesce *e,
		      const struct kernel_ethtool_coalesce *k)
{
	switch (attr) {
	case ETHTOOL_A_COALESCE_RX_USECS: return e->rx_coalesce_usecs;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES:
		return e->rx_max_coalesced_frames;
	case ETHTOOL_A_COALESCE_RX_USECS_IRQ: return e->rx_coalesce_usecs_irq;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ:
		return e->rx_max_coalesced_frames_irq;
	case ETHTOOL_A_COALESCE_TX_USECS: return e->tx_coalesce_usecs;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES:
		return e->tx_max_coalesced_frames;
	case ETHTOOL_A_COALESCE_TX_USECS_IRQ: return e->tx_coalesce_usecs_irq;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ:
		return e->tx_max_coalesced_frames_irq;
	case ETHTOOL_A_COALESCE_STATS_BLOCK_USECS:
		return e->stats_block_coalesce_usecs;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX:
		return e->use_adaptive_rx_coalesce;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX:
		return e->use_adaptive_tx_coalesce;
	case ETHTOOL_A_COALESCE_PKT_RATE_LOW: return e->pkt_rate_low;
	case ETHTOOL_A_COALESCE_RX_USECS_LOW: return e->rx_coalesce_usecs_low;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW:
		return e->rx_max_coalesced_frames_low;
	case ETHTOOL_A_COALESCE_TX_USECS_LOW: return e->tx_coalesce_usecs_low;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW:
		return e->tx_max_coalesced_frames_low;
	case ETHTOOL_A_COALESCE_PKT_RATE_HIGH: return e->pkt_rate_high;
	case ETHTOOL_A_COALESCE_RX_USECS_HIGH:
		return e->rx_coalesce_usecs_high;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH:
		return e->rx_max_coalesced_frames_high;
	case ETHTOOL_A_COALESCE_TX_USECS_HIGH:
		return e->tx_coalesce_usecs_high;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH:
		return e->tx_max_coalesced_frames_high;
	case ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL:
		return e->rate_sample_interval;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_TX: return k->use_cqe_mode_tx;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_RX: return k->use_cqe_mode_rx;
	case ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES:
		return k->tx_aggr_max_bytes;
	case ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES:
		return k->tx_aggr_max_frames;
	case ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS:
		return k->tx_aggr_time_usecs;
	case ETHTOOL_A_COALESCE_RX_CQE_FRAMES: return k->rx_cqe_frames;
	case ETHTOOL_A_COALESCE_RX_CQE_NSECS: return k->rx_cqe_nsecs;
	default: return 0;
	}
}

static void coal_set_value(u32 attr, u32 v, struct ethtool_coalesce *e,
			   struct kernel_ethtool_coalesce *k)
{
	switch (attr) {
	case ETHTOOL_A_COALESCE_RX_USECS: e->rx_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES:
		e->rx_max_coalesced_frames = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_IRQ:
		e->rx_coalesce_usecs_irq = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ:
		e->rx_max_coalesced_frames_irq = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS: e->tx_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES:
		e->tx_max_coalesced_frames = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_IRQ:
		e->tx_coalesce_usecs_irq = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ:
		e->tx_max_coalesced_frames_irq = v; break;
	case ETHTOOL_A_COALESCE_STATS_BLOCK_USECS:
		e->stats_block_coalesce_usecs = v; break;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX:
		e->use_adaptive_rx_coalesce = v; break;
	case ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX:
		e->use_adaptive_tx_coalesce = v; break;
	case ETHTOOL_A_COALESCE_PKT_RATE_LOW: e->pkt_rate_low = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_LOW:
		e->rx_coalesce_usecs_low = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW:
		e->rx_max_coalesced_frames_low = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_LOW:
		e->tx_coalesce_usecs_low = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW:
		e->tx_max_coalesced_frames_low = v; break;
	case ETHTOOL_A_COALESCE_PKT_RATE_HIGH: e->pkt_rate_high = v; break;
	case ETHTOOL_A_COALESCE_RX_USECS_HIGH:
		e->rx_coalesce_usecs_high = v; break;
	case ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH:
		e->rx_max_coalesced_frames_high = v; break;
	case ETHTOOL_A_COALESCE_TX_USECS_HIGH:
		e->tx_coalesce_usecs_high = v; break;
	case ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH:
		e->tx_max_coalesced_frames_high = v; break;
	case ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL:
		e->rate_sample_interval = v; break;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_TX:
		k->use_cqe_mode_tx = (u8)v; break;
	case ETHTOOL_A_COALESCE_USE_CQE_MODE_RX:
		k->use_cqe_mode_rx = (u8)v; break;
	case ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES:
		k->tx_aggr_max_bytes = v; break;
	case ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES:
		k->tx_aggr_max_frames = v; break;
	case ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS:
		k->tx_aggr_time_usecs = v; break;
	case ETHTOOL_A_COALESCE_RX_CQE_FRAMES: k->rx_cqe_frames = v; break;
	case ETHTOOL_A_COALESCE_RX_CQE_NSECS: k->rx_cqe_nsecs = v; break;
	default: break;
	}
}

static void show_coal_rows(struct cmd *c, const struct coal_show *rows,
			   size_t n, u32 supp, const struct ethtool_coalesce *e,
			   const struct kernel_ethtool_coalesce *k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i].label) {
			fputc('\n', c->out);
			continue;
		}
		show_u32(c->out, rows[i].label,
			 supp & __ETHTOOL_COALESCE_BIT(rows[i].attr),
			 coal_value(rows[i].attr, e, k));
	}
}

static int do_gcoalesce(struct cmd *c)
{
	struct kernel_ethtool_coalesce k;
	struct ethtool_coalesce e;
	u32 supp;
	int ret;

	if (no_params(c))
		return 1;
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_coalesce(c->dev, &e, &k);
	if (ret < 0) {
		nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/* the kernel reports only the supported parameters; ethtool prints
	 * "n/a" for the others */
	supp = c->dev->ethtool_ops->supported_coalesce_params;
	fprintf(c->out, "Coalesce parameters for %s:\n", c->devname);
	fprintf(c->out, "Adaptive RX: %s  TX: %s\n",
		on_off_na(supp & ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
			  e.use_adaptive_rx_coalesce),
		on_off_na(supp & ETHTOOL_COALESCE_USE_ADAPTIVE_TX,
			  e.use_adaptive_tx_coalesce));
	show_coal_rows(c, coal_show, ARRAY_SIZE(coal_show), supp, &e, &k);
	fprintf(c->out, "CQE mode RX: %s  TX: %s\n",
		on_off_na(supp & ETHTOOL_COALESCE_USE_CQE_RX, k.use_cqe_mode_rx),
		on_off_na(supp & ETHTOOL_COALESCE_USE_CQE_TX,
			  k.use_cqe_mode_tx));
	show_coal_rows(c, coal_show_tail, ARRAY_SIZE(coal_show_tail), supp,
		       &e, &k);
	return 0;
}

/* netlink/coalesce.c scoalesce_params */
static const struct nl_param scoalesce_params[] = {
	{ "adaptive-rx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, NLP_BOOL },
	{ "adaptive-tx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, NLP_BOOL },
	{ "sample-interval", ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL, NLP_U32 },
	{ "stats-block-usecs", ETHTOOL_A_COALESCE_STATS_BLOCK_USECS, NLP_U32 },
	{ "pkt-rate-low", ETHTOOL_A_COALESCE_PKT_RATE_LOW, NLP_U32 },
	{ "pkt-rate-high", ETHTOOL_A_COALESCE_PKT_RATE_HIGH, NLP_U32 },
	{ "rx-usecs", ETHTOOL_A_COALESCE_RX_USECS, NLP_U32 },
	{ "rx-frames", ETHTOOL_A_COALESCE_RX_MAX_FRAMES, NLP_U32 },
	{ "rx-usecs-irq", ETHTOOL_A_COALESCE_RX_USECS_IRQ, NLP_U32 },
	{ "rx-frames-irq", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ, NLP_U32 },
	{ "tx-usecs", ETHTOOL_A_COALESCE_TX_USECS, NLP_U32 },
	{ "tx-frames", ETHTOOL_A_COALESCE_TX_MAX_FRAMES, NLP_U32 },
	{ "tx-usecs-irq", ETHTOOL_A_COALESCE_TX_USECS_IRQ, NLP_U32 },
	{ "tx-frames-irq", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ, NLP_U32 },
	{ "rx-usecs-low", ETHTOOL_A_COALESCE_RX_USECS_LOW, NLP_U32 },
	{ "rx-frames-low", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW, NLP_U32 },
	{ "tx-usecs-low", ETHTOOL_A_COALESCE_TX_USECS_LOW, NLP_U32 },
	{ "tx-frames-low", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW, NLP_U32 },
	{ "rx-usecs-high", ETHTOOL_A_COALESCE_RX_USECS_HIGH, NLP_U32 },
	{ "rx-frames-high", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH, NLP_U32 },
	{ "tx-usecs-high", ETHTOOL_A_COALESCE_TX_USECS_HIGH, NLP_U32 },
	{ "tx-frames-high", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH, NLP_U32 },
	{ "cqe-mode-rx", ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, NLP_BOOL },
	{ "cqe-mode-tx", ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, NLP_BOOL },
	{ "tx-aggr-max-bytes", ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES, NLP_U32 },
	{ "tx-aggr-max-frames", ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES,
	  NLP_U32 },
	{ "tx-aggr-time-usecs", ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS,
	  NLP_U32 },
	{ "rx-cqe-frames", ETHTOOL_A_COALESCE_RX_CQE_FRAMES, NLP_U32 },
	{ "rx-cqe-nsecs", ETHTOOL_A_COALESCE_RX_CQE_NSECS, NLP_U32 },
};

static int do_scoalesce(struct cmd *c)
{
	struct kernel_ethtool_coalesce k = { 0 };
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_coalesce e = { 0 };
	struct nl_req r;
	u32 a;
	int ret;

	if (nl_parse(c, scoalesce_params, ARRAY_SIZE(scoalesce_params), &r))
		return 1;
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	for (a = ETHTOOL_A_COALESCE_RX_USECS; a < __ETHTOOL_A_COALESCE_CNT; a++)
		if (r.attrs & ETHTOOL_ATTR(a))
			coal_set_value(a, r.val[a], &e, &k);
	ret = ethtool_core_set_coalesce(c->dev, &e, &k, r.attrs, &ea);
	if (ret < 0) {
		nl_report(c, ret, &ea, &r);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* -g / -G (netlink/rings.c; kernel net/ethtool/rings.c)             */
/* ---------------------------------------------------------------- */

static int do_gring(struct cmd *c)
{
	struct kernel_ethtool_ringparam k;
	struct ethtool_ringparam r;
	const char *hds;
	int ret;

	if (no_params(c))
		return 1;
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 1;
	}
	ret = ethtool_core_get_ringparam(c->dev, &r, &k);
	if (ret < 0) {
		nl_report(c, ret, NULL, NULL);
		return 1;
	}
	/*
	 * What the kernel sends (rings_fill_reply): each max/current pair
	 * when the max is non-zero; rx-buf-len, cqe-size, tcp-data-split
	 * when non-zero; tx-push and rx-push always; push-buffer length and
	 * HDS threshold only for drivers declaring them, which this
	 * project's do not.
	 */
	fprintf(c->out, "Ring parameters for %s:\n", c->devname);
	fputs("Pre-set maximums:\n", c->out);
	show_u32(c->out, "RX:\t\t\t", r.rx_max_pending, r.rx_max_pending);
	show_u32(c->out, "RX Mini:\t\t", r.rx_mini_max_pending,
		 r.rx_mini_max_pending);
	show_u32(c->out, "RX Jumbo:\t\t", r.rx_jumbo_max_pending,
		 r.rx_jumbo_max_pending);
	show_u32(c->out, "TX:\t\t\t", r.tx_max_pending, r.tx_max_pending);
	show_u32(c->out, "TX push buff len:\t", false, 0);
	show_u32(c->out, "HDS thresh:\t\t", false, 0);
	fputs("Current hardware settings:\n", c->out);
	show_u32(c->out, "RX:\t\t\t", r.rx_max_pending, r.rx_pending);
	show_u32(c->out, "RX Mini:\t\t", r.rx_mini_max_pending,
		 r.rx_mini_pending);
	show_u32(c->out, "RX Jumbo:\t\t", r.rx_jumbo_max_pending,
		 r.rx_jumbo_pending);
	show_u32(c->out, "TX:\t\t\t", r.tx_max_pending, r.tx_pending);
	show_u32(c->out, "RX Buf Len:\t\t", k.rx_buf_len, k.rx_buf_len);
	show_u32(c->out, "CQE Size:\t\t", k.cqe_size, k.cqe_size);
	fprintf(c->out, "TX Push:\t\t%s\n", k.tx_push ? "on" : "off");
	fprintf(c->out, "RX Push:\t\t%s\n", k.rx_push ? "on" : "off");
	show_u32(c->out, "TX push buff len:\t", false, 0);
	switch (k.tcp_data_split) {
	case 0: hds = "n/a"; break;
	case 1: hds = "off"; break;
	case 2: hds = "on"; break;
	default: hds = NULL; break;
	}
	if (hds)
		fprintf(c->out, "TCP data split:\t\t%s\n", hds);
	else
		fprintf(c->out, "TCP data split:\t\tunknown(%d)\n\n",
			k.tcp_data_split);
	show_u32(c->out, "HDS thresh:\t\t", false, 0);
	return 0;
}

/* netlink/rings.c sring_params, the ring sizes (rxscale subset: the
 * buffer-length, push, CQE and header-split knobs are not modelled and
 * are refused as unknown parameters). */
static const struct nl_param sring_params[] = {
	{ "rx", ETHTOOL_A_RINGS_RX, NLP_U32 },
	{ "rx-mini", ETHTOOL_A_RINGS_RX_MINI, NLP_U32 },
	{ "rx-jumbo", ETHTOOL_A_RINGS_RX_JUMBO, NLP_U32 },
	{ "tx", ETHTOOL_A_RINGS_TX, NLP_U32 },
};

static int do_sring(struct cmd *c)
{
	struct netlink_ext_ack ea = { 0 };
	struct ethtool_ringparam ring = { 0 };
	struct nl_req r;
	int ret;

	if (nl_parse(c, sring_params, ARRAY_SIZE(sring_params), &r))
		return 1;
	/* nl_sring exits 81 when the kernel refuses the request */
	if (!dev_matches(c)) {
		nl_no_device(c);
		return 81;
	}
	ring.rx_pending = r.val[ETHTOOL_A_RINGS_RX];
	ring.rx_mini_pending = r.val[ETHTOOL_A_RINGS_RX_MINI];
	ring.rx_jumbo_pending = r.val[ETHTOOL_A_RINGS_RX_JUMBO];
	ring.tx_pending = r.val[ETHTOOL_A_RINGS_TX];
	ret = ethtool_core_set_ringparam(c->dev, &ring, r.attrs, &ea);
	if (ret < 0) {
		nl_report(c, ret, &ea, &r);
		return 81;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* -S (ethtool.c do_gstats; ioctl)                                   */
/* ---------------------------------------------------------------- */

static int do_gstats(struct cmd *c)
{
	char *names;
	u64 *vals;
	int n, i;

	if (c->argc != 0)
		return bad_args(c);
	if (!dev_matches(c)) {
		pr_errno(c, "Cannot get stats strings information", -ENODEV);
		return 96;
	}
	n = ethtool_core_get_stats(c->dev, &names, &vals);
	if (n < 0) {
		pr_errno(c, "Cannot get stats strings information", n);
		return 96;
	}
	if (n < 1) {
		fputs("no stats available\n", c->err);
		return 94;
	}
	fputs("NIC statistics:\n", c->out);
	for (i = 0; i < n; i++)
		fprintf(c->out, "     %.*s: %llu\n", ETH_GSTRING_LEN,
			names + (size_t)i * ETH_GSTRING_LEN,
			(unsigned long long)vals[i]);
	free(names);
	free(vals);
	return 0;
}

/* ---------------------------------------------------------------- */
/* dispatch (ethtool.c args[] and main())                            */
/* ---------------------------------------------------------------- */

struct option {
	const char *opts;	/* '|'-separated spellings */
	const char *name;	/* what netlink error lines call it */
	int (*func)(struct cmd *c);
};

static const struct option options[] = {
	{ "-l|--show-channels", "-l", do_gchannels },
	{ "-L|--set-channels", "-L", do_schannels },
	{ "-x|--show-rxfh-indir|--show-rxfh", "-x", do_grxfh },
	{ "-X|--set-rxfh-indir|--rxfh", "-X", do_srxfh },
	{ "-n|-u|--show-nfc|--show-ntuple", "-n", do_grxclass },
	{ "-N|-U|--config-nfc|--config-ntuple", "-N", do_srxclass },
	{ "-c|--show-coalesce", "-c", do_gcoalesce },
	{ "-C|--coalesce", "-C", do_scoalesce },
	{ "-g|--show-ring", "-g", do_gring },
	{ "-G|--set-ring", "-G", do_sring },
	{ "-S|--statistics", "-S", do_gstats },
};

static const struct option *find_option(const char *arg)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const char *o = options[i].opts;

		for (;;) {
			len = strcspn(o, "|");
			if (!strncmp(arg, o, len) && arg[len] == '\0')
				return &options[i];
			if (!o[len])
				break;
			o += len + 1;
		}
	}
	return NULL;
}

int ethtool_cmd_runv(struct net_device *dev, int argc,
		     const char *const *argv, FILE *out, FILE *err)
{
	const struct option *opt;
	struct cmd c = { .dev = dev, .out = out, .err = err };

	if (argc > 0 && !strcmp(argv[0], "ethtool")) {
		argc--;
		argv++;
	}
	if (argc < 1)
		return bad_args(&c);
	opt = find_option(argv[0]);
	if (!opt) {
		/* ethtool options that exist but are not simulated here */
		static const char *const real[] = {
			"-a", "-A", "-d", "-e", "-E", "-f", "-i", "-k", "-K", "-m",
			"-p", "-P", "-r", "-s", "-t", "-T", "-w", "-W", "--driver",
			"--show-features", "--features", "--offload", "--show-pause",
			"--pause", "--change", "--identify", "--test", "--reset",
			"--register-dump", "--eeprom-dump", "--module-info",
			"--show-eee", "--set-eee", "--show-fec", "--set-fec",
			"--show-priv-flags", "--set-priv-flags", "--show-permaddr",
			"--show-time-stamping",
		};

		for (size_t i = 0; i < ARRAY_SIZE(real); i++)
			if (!strcmp(argv[0], real[i])) {
				fprintf(err, "rxscale: ethtool: %s is not simulated; only -l -L "
					"-x -X -n -N -u -U -c -C -g -G -S are\n", argv[0]);
				return 1;
			}
		if (argv[0][0] == '-')
			return bad_args(&c);
		/* "ethtool DEVNAME" (link settings) is not simulated */
		fprintf(err, "rxscale: ethtool: only -l -L -x -X -n -N -u -U "
			"-c -C -g -G -S are simulated\n");
		return 1;
	}
	if (argc < 2)
		return bad_args(&c);
	c.name = opt->name;
	c.devname = argv[1];
	c.argc = argc - 2;
	c.argv = argv + 2;
	if (strlen(c.devname) >= IFNAMSIZ) {
		fprintf(err, "Device name longer than %u characters\n",
			IFNAMSIZ - 1);
		return bad_args(&c);
	}
	return opt->func(&c);
}

int ethtool_cmd_run(struct net_device *dev, const char *args, FILE *out,
		    FILE *err)
{
	const char **argv;
	char *copy, *tok, *save = NULL;
	int argc = 0, ret;

	copy = strdup(args ? args : "");
	argv = calloc(MAX_ARGS, sizeof(*argv));
	if (!copy || !argv) {
		free(copy);
		free(argv);
		fputs("rxscale: ethtool: out of memory\n", err);
		return 1;
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (argc == MAX_ARGS) {
			fputs("rxscale: ethtool: too many arguments\n", err);
			free(copy);
			free(argv);
			return 1;
		}
		argv[argc++] = tok;
	}
	ret = ethtool_cmd_runv(dev, argc, argv, out, err);
	free(copy);
	free(argv);
	return ret;
}
