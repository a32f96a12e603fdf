/* SPDX-License-Identifier: MIT */
/*
 * cli_pcap.c - reading captures: pcap through libpcap, pcapng through a
 * block reader of its own.
 *
 * Why not libpcap for pcapng too: libpcap reads a pcapng section only
 * while every interface has the first one's link type and refuses the
 * file at the first that differs ("an interface has a type %u different
 * from the type of the first interface"), where tshark reads on.  The
 * pcapng format (the IETF draft "PCAP Next Generation Dump File Format",
 * draft-ietf-opsawg-pcapng) gives each Interface Description Block its own
 * link type, snap length and timestamp resolution, and each packet block
 * names its interface; so does this reader.  Blocks it does not use
 * (name resolution, statistics, custom, decryption secrets...) are
 * skipped by their length.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* LINKTYPE_LINUX_SLL2 is DLT 276; older headers may lack the name. */
#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

/* pcapng (draft-ietf-opsawg-pcapng) */
#define PCAPNG_SHB		0x0A0D0D0Au	/* Section Header Block */
#define PCAPNG_IDB		0x00000001u	/* Interface Description */
#define PCAPNG_PB		0x00000002u	/* Packet Block (obsolete) */
#define PCAPNG_SPB		0x00000003u	/* Simple Packet Block */
#define PCAPNG_EPB		0x00000006u	/* Enhanced Packet Block */
#define PCAPNG_BYTE_ORDER	0x1A2B3C4Du
#define PCAPNG_OPT_END		0
#define PCAPNG_IF_TSRESOL	9		/* IDB option */
#define PCAPNG_IF_TSOFFSET	14		/* IDB option, seconds */
/* largest block accepted (libpcap's limit for a block is 16 MiB too) */
#define PCAPNG_BLOCK_MAX	(16u << 20)
#define PCAPNG_IFACES_MAX	65536

struct cli_iface {
	int linktype;
	bool link_ok;			/* the dissector reads it */
	enum net_link link;
	uint32_t snaplen;
	uint64_t units;			/* timestamp units per second */
	int64_t tsoffset_s;
};

struct cli_pcap {
	const char *path;
	pcap_t *p;			/* pcap: libpcap */
	FILE *f;			/* pcapng: this reader */
	bool swap;			/* the section is the other byte order */
	uint8_t *blk;
	size_t blk_cap;
	struct cli_iface *ifs;
	unsigned nifs, ifs_cap;
	struct cli_frame last;
	bool any_supported;		/* some interface so far is readable */
	char err[320];			/* why the last read failed */
};

static bool map_link(int dlt, enum net_link *link)
{
	switch (dlt) {
	case DLT_EN10MB:
		*link = NET_LINK_ETH;
		return true;
	case DLT_LINUX_SLL:
		*link = NET_LINK_SLL;
		return true;
	case DLT_LINUX_SLL2:
		*link = NET_LINK_SLL2;
		return true;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
	case 101:		/* LINKTYPE_RAW in files (DLT_RAW is 12 or 14) */
		*link = NET_LINK_RAW;
		return true;
	default:
		return false;
	}
}

const char *cli_linktype_name(int linktype)
{
	const char *n = pcap_datalink_val_to_name(linktype);

	if (!n && linktype == 101)
		n = "RAW";
	return n ? n : "?";
}

static void unsupported(const char *path, int dlt)
{
	cli_err("%s: unsupported link type %s (%d); supported: EN10MB, "
		"LINUX_SLL, LINUX_SLL2, RAW, IPV4, IPV6", path,
		cli_linktype_name(dlt), dlt);
}

/* ----- pcapng ----- */

static uint32_t ng32(const struct cli_pcap *c, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

static uint16_t ng16(const struct cli_pcap *c, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return c->swap ? __builtin_bswap16(v) : v;
}

static int ng_bad(struct cli_pcap *c, const char *what)
{
	snprintf(c->err, sizeof(c->err), "%s: corrupt or truncated capture: %s",
		 c->path, what);
	return -1;
}

/*
 * Read one block into c->blk: 1 and its type and total length, 0 at a
 * clean end of file, -1 after an error line.  A Section Header Block
 * (re)sets the byte order.
 */
static int ng_block(struct cli_pcap *c, uint32_t *type, uint32_t *len)
{
	uint8_t hdr[12];
	size_t got = fread(hdr, 1, 8, c->f);
	uint32_t t, l;

	if (got == 0 && feof(c->f))
		return 0;
	if (got < 8)
		return ng_bad(c, "a block header is cut off");
	memcpy(&t, hdr, 4);
	if (t == PCAPNG_SHB) {
		uint32_t bom;

		if (fread(hdr + 8, 1, 4, c->f) != 4)
			return ng_bad(c, "a section header is cut off");
		memcpy(&bom, hdr + 8, 4);
		if (bom == PCAPNG_BYTE_ORDER)
			c->swap = false;
		else if (bom == __builtin_bswap32(PCAPNG_BYTE_ORDER))
			c->swap = true;
		else
			return ng_bad(c, "a section header has no byte-order magic");
		got = 12;
	}
	t = ng32(c, hdr);
	l = ng32(c, hdr + 4);
	if (l < 12 || l % 4 || l > PCAPNG_BLOCK_MAX || l < got)
		return ng_bad(c, "a block has an impossible length");
	if (l > c->blk_cap) {
		uint8_t *nb = realloc(c->blk, l);

		if (!nb)
			return ng_bad(c, "out of memory");
		c->blk = nb;
		c->blk_cap = l;
	}
	memcpy(c->blk, hdr, got);
	if (fread(c->blk + got, 1, l - got, c->f) != l - got)
		return ng_bad(c, "a block is cut off");
	if (ng32(c, c->blk + l - 4) != l)
		return ng_bad(c, "a block's trailing length differs from its leading one");
	*type = t;
	*len = l;
	return 1;
}

/* An Interface Description Block: link type, snap length, options. */
static int ng_idb(struct cli_pcap *c, uint32_t len)
{
	const uint8_t *b = c->blk;
	struct cli_iface *ifc;
	size_t off = 16, end = len - 4;

	if (len < 20)
		return ng_bad(c, "an interface description is too short");
	if (c->nifs == PCAPNG_IFACES_MAX)
		return ng_bad(c, "too many interfaces");
	if (c->nifs == c->ifs_cap) {
		unsigned cap = c->ifs_cap ? 2 * c->ifs_cap : 4;
		struct cli_iface *n = realloc(c->ifs, cap * sizeof(*n));

		if (!n)
			return ng_bad(c, "out of memory");
		c->ifs = n;
		c->ifs_cap = cap;
	}
	ifc = &c->ifs[c->nifs++];
	memset(ifc, 0, sizeof(*ifc));
	ifc->linktype = ng16(c, b + 8);
	ifc->link_ok = map_link(ifc->linktype, &ifc->link);
	ifc->snaplen = ng32(c, b + 12);
	ifc->units = 1000000;		/* default resolution: microseconds */
	c->any_supported |= ifc->link_ok;
	while (off + 4 <= end) {
		uint16_t code = ng16(c, b + off), olen = ng16(c, b + off + 2);

		if (code == PCAPNG_OPT_END)
			break;
		if (off + 4 + olen > end)
			return ng_bad(c, "an interface option runs past its block");
		if (code == PCAPNG_IF_TSRESOL && olen == 1) {
			uint8_t r = b[off + 4];
			unsigned e = r & 0x7f;
			uint64_t base = r & 0x80 ? 2 : 10;

			/* units of base^-e s */
			if ((base == 10 && e > 19) || (base == 2 && e > 63))
				return ng_bad(c, "an interface has an impossible time resolution");
			ifc->units = 1;
			for (unsigned i = 0; i < e; i++)
				ifc->units *= base;
		} else if (code == PCAPNG_IF_TSOFFSET && olen == 8) {
			uint64_t v;

			memcpy(&v, b + off + 4, 8);
			ifc->tsoffset_s = (int64_t)(c->swap ? __builtin_bswap64(v) : v);
		}
		off += 4 + (((size_t)olen + 3) & ~(size_t)3);
	}
	return 0;
}

/* A timestamp of @ifc's units in ns since the epoch. */
static uint64_t ng_ts(const struct cli_iface *ifc, uint64_t ticks)
{
	uint64_t s = ticks / ifc->units, r = ticks % ifc->units;

	return (uint64_t)((int64_t)s + ifc->tsoffset_s) * 1000000000u +
	       (uint64_t)((unsigned __int128)r * 1000000000u / ifc->units);
}

static int ng_next(struct cli_pcap *c, struct cli_frame *fr)
{
	for (;;) {
		uint32_t type, len, ifid, cap, orig;
		const uint8_t *b;
		size_t room, hdr;
		uint64_t ticks;
		int rc = ng_block(c, &type, &len);

		if (rc <= 0)
			return rc;
		b = c->blk;
		switch (type) {
		case PCAPNG_SHB:
			c->nifs = 0;	/* a new section has its own interfaces */
			continue;
		case PCAPNG_IDB:
			if (ng_idb(c, len))
				return -1;
			continue;
		case PCAPNG_EPB:
			hdr = 28;
			if (len < hdr + 4)
				return ng_bad(c, "a packet block is too short");
			ifid = ng32(c, b + 8);
			ticks = (uint64_t)ng32(c, b + 12) << 32 | ng32(c, b + 16);
			cap = ng32(c, b + 20);
			orig = ng32(c, b + 24);
			break;
		case PCAPNG_PB:
			hdr = 28;
			if (len < hdr + 4)
				return ng_bad(c, "a packet block is too short");
			ifid = ng16(c, b + 8);
			ticks = (uint64_t)ng32(c, b + 12) << 32 | ng32(c, b + 16);
			cap = ng32(c, b + 20);
			orig = ng32(c, b + 24);
			break;
		case PCAPNG_SPB:
			hdr = 12;
			if (len < hdr + 4)
				return ng_bad(c, "a packet block is too short");
			ifid = 0;
			ticks = 0;
			orig = ng32(c, b + 8);
			if (!c->nifs)
				return ng_bad(c, "a packet names no described interface");
			cap = orig;
			if (c->ifs[0].snaplen && cap > c->ifs[0].snaplen)
				cap = c->ifs[0].snaplen;
			if (cap > len - hdr - 4)
				cap = len - hdr - 4;
			break;
		default:
			continue;	/* a block this reader has no use for */
		}
		room = len - hdr - 4;
		if (ifid >= c->nifs)
			return ng_bad(c, "a packet names no described interface");
		if (cap > room)
			return ng_bad(c, "a packet's captured length runs past its block");
		fr->data = b + hdr;
		fr->caplen = cap;
		fr->origlen = orig < cap ? cap : orig;
		fr->ifindex = ifid;
		fr->linktype = c->ifs[ifid].linktype;
		fr->link_ok = c->ifs[ifid].link_ok;
		fr->link = c->ifs[ifid].link;
		fr->ts_ns = type == PCAPNG_SPB ? c->last.ts_ns : ng_ts(&c->ifs[ifid], ticks);
		return 1;
	}
}

/* Read up to the first packet block to learn the interfaces, then
 * start over after the section header: every interface is read again in
 * file order by ng_next(). */
static int ng_open(struct cli_pcap *c)
{
	long start;
	uint32_t type, len;
	int rc;

	rc = ng_block(c, &type, &len);
	if (rc <= 0 || type != PCAPNG_SHB)
		return rc < 0 ? -1 : ng_bad(c, "no section header");
	start = ftell(c->f);
	while ((rc = ng_block(c, &type, &len)) > 0 && type != PCAPNG_EPB &&
	       type != PCAPNG_PB && type != PCAPNG_SPB)
		if (type == PCAPNG_IDB && ng_idb(c, len))
			return -1;
	if (rc < 0)
		return -1;
	if (c->nifs && !c->any_supported) {
		unsupported(c->path, c->ifs[0].linktype);
		return -1;
	}
	c->nifs = 0;
	c->any_supported = false;
	if (start < 0 || fseek(c->f, start, SEEK_SET))
		return ng_bad(c, "cannot seek back");
	return 0;
}

/* ----- both formats ----- */

struct cli_pcap *cli_pcap_open(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct cli_pcap *c;
	uint8_t magic[4] = { 0 };
	FILE *f;
	int dlt;

	c = calloc(1, sizeof(*c));
	if (!c) {
		cli_err("%s: out of memory", path);
		return NULL;
	}
	c->path = path;
	f = fopen(path, "rb");
	if (f && fread(magic, 1, 4, f) == 4 &&
	    !memcmp(magic, "\x0a\x0d\x0d\x0a", 4)) {
		c->f = f;
		rewind(f);
		if (ng_open(c)) {
			if (c->err[0])
				cli_err("%s", c->err);
			cli_pcap_close(c);
			return NULL;
		}
		return c;
	}
	if (f)
		fclose(f);
	c->p = pcap_open_offline(path, errbuf);
	if (!c->p) {
		cli_err("%s: cannot read capture: %s", path, errbuf);
		free(c);
		return NULL;
	}
	dlt = pcap_datalink(c->p);
	c->ifs = calloc(1, sizeof(*c->ifs));
	if (!c->ifs) {
		cli_err("%s: out of memory", path);
		cli_pcap_close(c);
		return NULL;
	}
	c->nifs = 1;
	c->ifs[0].linktype = dlt;
	c->ifs[0].snaplen = (uint32_t)pcap_snapshot(c->p);
	if (!map_link(dlt, &c->ifs[0].link)) {
		unsupported(path, dlt);
		cli_pcap_close(c);
		return NULL;
	}
	c->ifs[0].link_ok = true;
	return c;
}

int cli_pcap_read(struct cli_pcap *c, struct cli_frame *fr)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	int rc;

	if (c->f) {
		rc = ng_next(c, fr);
		if (rc == 1)
			c->last = *fr;
		return rc;
	}
	rc = pcap_next_ex(c->p, &h, &d);
	if (rc == 1) {
		fr->data = d;
		fr->caplen = h->caplen;
		fr->origlen = h->len < h->caplen ? h->caplen : h->len;
		fr->ts_ns = (uint64_t)h->ts.tv_sec * 1000000000u +
			    (uint64_t)h->ts.tv_usec * 1000u;
		fr->ifindex = 0;
		fr->linktype = c->ifs[0].linktype;
		fr->link_ok = true;
		fr->link = c->ifs[0].link;
		c->last = *fr;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	snprintf(c->err, sizeof(c->err), "%s: corrupt or truncated capture: %s",
		 c->path, pcap_geterr(c->p));
	return -1;
}

const char *cli_pcap_error(const struct cli_pcap *c)
{
	return c->err;
}

int cli_pcap_next(struct cli_pcap *c, const uint8_t **data, size_t *caplen)
{
	struct cli_frame fr;
	int rc = cli_pcap_read(c, &fr);

	if (rc == 1) {
		*data = fr.data;
		*caplen = fr.caplen;
	} else if (rc < 0) {
		cli_err("%s", c->err);
	}
	return rc;
}

enum net_link cli_pcap_link(const struct cli_pcap *c)
{
	if (c->last.data)
		return c->last.link;
	return c->nifs ? c->ifs[0].link : NET_LINK_ETH;
}

uint64_t cli_pcap_ts_ns(const struct cli_pcap *c)
{
	return c->last.ts_ns;
}

void cli_pcap_close(struct cli_pcap *c)
{
	if (!c)
		return;
	if (c->p)
		pcap_close(c->p);
	if (c->f)
		fclose(c->f);
	free(c->blk);
	free(c->ifs);
	free(c);
}
