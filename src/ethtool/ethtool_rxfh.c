// SPDX-License-Identifier: MIT
/*
 * ethtool_rxfh.c - ethtool -x / -X: the RSS indirection table, hash key
 * and hash function, as ethtool 6.1 shows and sets them (its ioctl
 * paths; no input transformation, which later versions added).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"
#include "rss/rss_indir.h"
#include "rss/rss_key.h"

/* ---------------------------------------------------------------- */
/* -x (ethtool 6.1: ethtool.c do_grxfh over the ioctl interface and  */
/* print_indir_table; netlink's rss.c and the input transformation   */
/* came later)                                                       */
/* ---------------------------------------------------------------- */

/* uapi: "context new" */
#define ETH_RXFH_CONTEXT_ALLOC	0xffffffffLL

/* Kernel ETH_SS_RSS_HASH_FUNCS strings, bit i = string i. */
static const char *const hfunc_names[ETH_RSS_HASH_FUNCS_COUNT] = {
	"toeplitz", "xor", "crc32",
};

/* print_indir_table() */
static void print_indir(struct cmd *c, int rings, const u32 *indir, u32 size)
{
	fprintf(c->out, "RX flow hash indirection table for %s with %d RX ring(s):\n",
		c->devname, rings);
	if (!size || !indir)
		fputs("Operation not supported\n", c->out);
	for (u32 i = 0; indir && i < size; i++) {
		if (i % 8 == 0)
			fprintf(c->out, "%5u: ", i);
		fprintf(c->out, " %5u", indir[i]);
		if (i % 8 == 7 || i == size - 1)
			fputc('\n', c->out);
	}
}

int ecmd_do_grxfh(struct cmd *c)
{
	struct ethtool_rxfh_param p = { 0 };
	const struct ethtool_ops *ops = c->dev->ethtool_ops;
	u32 isz = 0, ksz = 0, i;
	long long ctx = 0;
	int ret, rings, rc = 0;

	/* "context N" (get_int_range: bad args otherwise) */
	for (int a = 0; a < c->argc; a += 2)
		if (strcmp(c->argv[a], "context") || a + 1 >= c->argc ||
		    !ecmd_parse_int_range(c->argv[a + 1], 0, ETH_RXFH_CONTEXT_ALLOC - 1, &ctx))
			return ecmd_bad_args(c);
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_pr_errno(c, "Cannot get RX ring count", -ENODEV);
		return 1;
	}
	rings = ethtool_core_get_rx_ring_count(c->dev);
	if (rings < 0) {
		ecmd_pr_errno(c, "Cannot get RX ring count", rings);
		return 1;
	}
	if (ctx) {
		/* no extra RSS contexts on these devices: the kernel refuses
		 * one it does not have */
		ecmd_pr_errno(c, "Cannot get RX flow hash indir size and/or key size",
			      -EOPNOTSUPP);
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
	if (ret == -EOPNOTSUPP) {
		/* do_grxfhindir(): ETHTOOL_GRXFHINDIR needs get_rxfh too */
		ecmd_pr_errno(c, "Cannot get RX flow hash indirection table size", ret);
		rc = 1;
		goto out;
	}
	if (ret) {
		ecmd_pr_errno(c, "Cannot get RX flow hash configuration", ret);
		rc = 1;
		goto out;
	}
	print_indir(c, rings, p.indir, p.indir_size);
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
	if (!p.hfunc) {
		fputs("    Operation not supported\n", c->out);
		goto out;
	}
	for (i = 0; i < ETH_RSS_HASH_FUNCS_COUNT; i++)
		fprintf(c->out, "    %s: %s\n", hfunc_names[i],
			p.hfunc & (1u << i) ? "on" : "off");
out:
	free(p.indir);
	free(p.key);
	return rc;
}

/* ---------------------------------------------------------------- */
/* -X (ethtool.c do_srxfh, fill_indir_table, parse_hkey; ioctl)      */
/* ---------------------------------------------------------------- */

/* ethtool.c convert_string_to_hashkey(): exit 2 on a malformed key; the
 * form and the length rule are rss_key_parse()'s, which rxscale hash
 * --key applies too. */
static int parse_hkey(struct cmd *c, const char *s, u8 *key, u32 key_size)
{
	size_t n;

	switch (rss_key_parse(s, RSS_KEY_ETHTOOL, key, key_size, &n)) {
	case 0:
		return 0;
	case -E2BIG:
		fprintf(c->err, "Key is too long for device (%zu > %u)\n", n, key_size);
		return 2;
	case -ERANGE:
		fprintf(c->err, "Key is too short for device (%zu < %u)\n", n, key_size);
		return 2;
	default:
		fputs("Invalid RSS hash key format\n", c->err);
		return 2;
	}
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
		return ecmd_bad_args(c);
	while (i < c->argc) {
		const char *w = c->argv[i++];
		const char *v = i < c->argc ? c->argv[i] : NULL;

		if (!strcmp(w, "equal")) {
			if (!ecmd_parse_int_range(v, 1, INT_MAX, &a->equal))
				return ecmd_bad_args(c);
			i++;
		} else if (!strcmp(w, "start")) {
			if (!ecmd_parse_int_range(v, 0, INT_MAX, &a->start))
				return ecmd_bad_args(c);
			i++;
		} else if (!strcmp(w, "weight")) {
			a->weight = c->argv + i;
			while (i < c->argc &&
			       isdigit((unsigned char)c->argv[i][0])) {
				i++;
				a->num_weights++;
			}
			if (!a->num_weights)
				return ecmd_bad_args(c);
		} else if (!strcmp(w, "hkey")) {
			if (!v)
				return ecmd_bad_args(c);
			a->hkey = v;
			i++;
		} else if (!strcmp(w, "default")) {
			a->is_default = true;
		} else if (!strcmp(w, "hfunc")) {
			if (!v)
				return ecmd_bad_args(c);
			a->hfunc = v;
			i++;
		} else if (!strcmp(w, "context")) {
			long long ctx;

			if (!v)
				return ecmd_bad_args(c);
			if (!strcmp(v, "new")) {
				a->context = 0xffffffffu;
			} else {
				if (!ecmd_parse_int_range(v, 1, ETH_RXFH_CONTEXT_ALLOC - 1, &ctx))
					return ecmd_bad_args(c);
				a->context = (u32)ctx;
			}
			a->has_context = true;
			i++;
		} else if (!strcmp(w, "delete")) {
			a->is_delete = true;
		} else {
			return ecmd_bad_args(c);
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
			if (!ecmd_parse_u32_base0(a->weight[j], &w[j])) {
				free(t);
				return ecmd_bad_args(c);
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

int ecmd_do_srxfh(struct cmd *c)
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
	if (c->check)
		return 0;	/* parsed: ethtool_cmd_check() */
	if (!ecmd_dev_matches(c)) {
		ecmd_pr_errno(c, "Cannot get RX ring count", -ENODEV);
		return 1;
	}
	ret = ethtool_core_get_rx_ring_count(c->dev);
	if (ret < 0) {
		ecmd_pr_errno(c, "Cannot get RX ring count", ret);
		return 1;
	}
	/* ETHTOOL_GRSSH with no buffers: sizes and hfunc */
	ret = ethtool_core_get_rxfh(c->dev, &cur);
	if (ret < 0) {
		ecmd_pr_errno(c, "Cannot get RX flow hash indir size and key size",
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
		ecmd_pr_errno(c, "Cannot set RX flow hash configuration", ret);
		rc = 1;
	}
out:
	free(indir);
	free(key);
	return rc;
}
