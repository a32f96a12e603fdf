// SPDX-License-Identifier: MIT
/*
 * ethtool_common.c - what ethtool's subcommands share: argument errors,
 * number parsing, netlink-style parameters and error lines, show_u32.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "ethtool/ethtool_priv.h"

/* ethtool.c exit_bad_args(): exit status 1. */
int ecmd_bad_args(struct cmd *c)
{
	fputs("ethtool: bad command line argument(s)\n"
	      "For more information run ethtool -h\n", c->err);
	return 1;
}

/* perror() as ethtool uses it: "what: strerror(errno)". */
void ecmd_pr_errno(struct cmd *c, const char *what, int neg_errno)
{
	fprintf(c->err, "%s: %s\n", what, strerror(-neg_errno));
}

bool ecmd_dev_matches(const struct cmd *c)
{
	return !strcmp(c->devname, c->dev->name);
}

/* ---------------------------------------------------------------- */
/* numbers                                                           */
/* ---------------------------------------------------------------- */

/* ethtool.c get_int_range()/get_u32(): strtoll/strtoull, base 0. */
bool ecmd_parse_int_range(const char *s, long long min, long long max,
			  long long *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 0);
	return !errno && !*end && *v >= min && *v <= max;
}

bool ecmd_parse_u32_base0(const char *s, u32 *v)
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
bool ecmd_parse_nl_u32(const char *s, u32 *v)
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

/*
 * netlink/parser.c nl_parser(): "ethtool (-L): unknown parameter 'x'",
 * "... duplicate parameter 'x'", "... no value for parameter 'x'",
 * "... invalid value 'v' for parameter 'x'".  Returns 0 or -EINVAL.
 */
int ecmd_nl_parse(struct cmd *c, const struct nl_param *tbl, size_t n,
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
		} else if (!ecmd_parse_nl_u32(c->argv[i], &r->val[p->attr])) {
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
void ecmd_nl_report(struct cmd *c, int ret, const struct netlink_ext_ack *ea,
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
void ecmd_nl_no_device(struct cmd *c)
{
	fputs("netlink error: no device matches name (offset 24)\n", c->err);
	fprintf(c->err, "netlink error: %s\n", strerror(ENODEV));
}

/* netlink show_u32(): "<label><value>" or "<label>n/a". */
void ecmd_show_u32(FILE *f, const char *label, bool present, u32 v)
{
	if (present)
		fprintf(f, "%s%u\n", label, v);
	else
		fprintf(f, "%sn/a\n", label);
}

const char *ecmd_on_off_na(bool present, u32 v)
{
	return !present ? "n/a" : v ? "on" : "off";
}

/* nl_gchannels/nl_gcoalesce/nl_gring: "ethtool: unexpected parameter". */
int ecmd_no_params(struct cmd *c)
{
	if (c->argc > 0) {
		fprintf(c->err, "ethtool: unexpected parameter '%s'\n",
			c->argv[0]);
		return 1;
	}
	return 0;
}
