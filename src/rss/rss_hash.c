/* SPDX-License-Identifier: MIT */
/* rss_hash.c - hash-type selection and input building; see rss_hash.h. */
#include "rss/rss_hash.h"

#include <errno.h>
#include <string.h>

static const char *const type_names[RSS_TYPE__COUNT] = {
	[RSS_TYPE_NONE] = "none", [RSS_TYPE_IPV4] = "ipv4",
	[RSS_TYPE_TCP4] = "tcp4", [RSS_TYPE_UDP4] = "udp4",
	[RSS_TYPE_IPV6] = "ipv6", [RSS_TYPE_TCP6] = "tcp6",
	[RSS_TYPE_UDP6] = "udp6",
};

const char *rss_type_name(enum rss_type t)
{
	return (unsigned)t < RSS_TYPE__COUNT ? type_names[t] : "?";
}

int rss_type_parse(const char *name, enum rss_type *t)
{
	unsigned i;

	for (i = 0; i < RSS_TYPE__COUNT; i++) {
		if (!strcmp(name, type_names[i])) {
			*t = (enum rss_type)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Pick the type; *ex_ok says whether EX substitution is enabled for it. */
static enum rss_type pick(const struct net_flow *f, uint32_t ht, bool *ex_ok)
{
	bool l4 = f->l4_ok && !f->is_frag;

	*ex_ok = false;
	if (!f->l3_ok)
		return RSS_TYPE_NONE;
	if (f->l3 == NET_L3_IPV4) {
		if (l4 && f->l4 == NET_L4_TCP && (ht & RSS_HT_TCP_IPV4))
			return RSS_TYPE_TCP4;
		if (l4 && f->l4 == NET_L4_UDP && (ht & RSS_HT_UDP_IPV4))
			return RSS_TYPE_UDP4;
		return (ht & RSS_HT_IPV4) ? RSS_TYPE_IPV4 : RSS_TYPE_NONE;
	}
	if (f->l3 != NET_L3_IPV6)
		return RSS_TYPE_NONE;
	if (l4 && f->l4 == NET_L4_TCP &&
	    (ht & (RSS_HT_TCP_IPV6 | RSS_HT_TCP_IPV6_EX))) {
		*ex_ok = ht & RSS_HT_TCP_IPV6_EX;
		return RSS_TYPE_TCP6;
	}
	if (l4 && f->l4 == NET_L4_UDP &&
	    (ht & (RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX))) {
		*ex_ok = ht & RSS_HT_UDP_IPV6_EX;
		return RSS_TYPE_UDP6;
	}
	if (ht & (RSS_HT_IPV6 | RSS_HT_IPV6_EX)) {
		*ex_ok = ht & RSS_HT_IPV6_EX;
		return RSS_TYPE_IPV6;
	}
	return RSS_TYPE_NONE;
}

static void xor_fields(uint8_t *a, uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		a[i] ^= b[i];
		b[i] = a[i];
	}
}

void rss_select(const struct net_flow *f, uint32_t ht, uint32_t xfrm,
		struct rss_input *in)
{
	bool ex_ok, l4;
	const uint8_t *src, *dst;
	size_t al;

	memset(in, 0, sizeof(*in));
	in->type = pick(f, ht, &ex_ok);
	if (in->type == RSS_TYPE_NONE)
		return;
	al = f->addr_len;
	src = f->src;
	dst = f->dst;
	if (ex_ok && f->has_ex_src) {
		src = f->ex_src;
		in->ex = true;
	}
	if (ex_ok && f->has_ex_dst) {
		dst = f->ex_dst;
		in->ex = true;
	}
	memcpy(in->bytes, src, al);
	memcpy(in->bytes + al, dst, al);
	in->len = (uint8_t)(2 * al);
	l4 = in->type == RSS_TYPE_TCP4 || in->type == RSS_TYPE_UDP4 ||
	     in->type == RSS_TYPE_TCP6 || in->type == RSS_TYPE_UDP6;
	if (l4) {
		in->bytes[in->len] = (uint8_t)(f->sport >> 8);
		in->bytes[in->len + 1] = (uint8_t)f->sport;
		in->bytes[in->len + 2] = (uint8_t)(f->dport >> 8);
		in->bytes[in->len + 3] = (uint8_t)f->dport;
		in->len += 4;
	}
	if (xfrm & RSS_XFRM_SYM_XOR) {
		xor_fields(in->bytes, in->bytes + al, al);
		if (l4)
			xor_fields(in->bytes + 2 * al, in->bytes + 2 * al + 2, 2);
	}
}

void rss_classify(const struct rss_cfg *cfg, const struct net_flow *f,
		  struct rss_result *r)
{
	rss_select(f, cfg->ht, cfg->xfrm, &r->in);
	if (r->in.type == RSS_TYPE_NONE) {
		r->hash = 0;
		r->queue = 0;
		return;
	}
	r->hash = rss_thash(cfg->key, r->in.bytes, r->in.len);
	r->queue = rss_indir_queue(cfg->indir, r->hash);
}
