/* SPDX-License-Identifier: MIT */
/* cli_pcap.c - reading captures through libpcap (pcap and pcapng). */
#include <pcap/pcap.h>
#include <stdlib.h>

#include "cli/cli.h"

/* LINKTYPE_LINUX_SLL2 is DLT 276; older headers may lack the name. */
#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

struct cli_pcap {
	pcap_t *p;
	const char *path;
	enum net_link link;
	uint64_t ts_ns;
};

struct cli_pcap *cli_pcap_open(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct cli_pcap *c;
	int dlt;

	c = calloc(1, sizeof(*c));
	if (!c) {
		cli_err("%s: out of memory", path);
		return NULL;
	}
	c->path = path;
	c->p = pcap_open_offline(path, errbuf);
	if (!c->p) {
		cli_err("%s: cannot read capture: %s", path, errbuf);
		free(c);
		return NULL;
	}
	dlt = pcap_datalink(c->p);
	switch (dlt) {
	case DLT_EN10MB:
		c->link = NET_LINK_ETH;
		break;
	case DLT_LINUX_SLL:
		c->link = NET_LINK_SLL;
		break;
	case DLT_LINUX_SLL2:
		c->link = NET_LINK_SLL2;
		break;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		c->link = NET_LINK_RAW;
		break;
	default:
		cli_err("%s: unsupported link type %s (%d); supported: EN10MB, "
			"LINUX_SLL, LINUX_SLL2, RAW, IPV4, IPV6", path,
			pcap_datalink_val_to_name(dlt) ?
			pcap_datalink_val_to_name(dlt) : "?", dlt);
		pcap_close(c->p);
		free(c);
		return NULL;
	}
	return c;
}

int cli_pcap_next(struct cli_pcap *c, const uint8_t **data, size_t *caplen)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	int rc = pcap_next_ex(c->p, &h, &d);

	if (rc == 1) {
		*data = d;
		*caplen = h->caplen;
		c->ts_ns = (uint64_t)h->ts.tv_sec * 1000000000u +
			   (uint64_t)h->ts.tv_usec * 1000u;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	cli_err("%s: corrupt or truncated capture: %s", c->path,
		pcap_geterr(c->p));
	return -1;
}

enum net_link cli_pcap_link(const struct cli_pcap *c)
{
	return c->link;
}

void cli_pcap_close(struct cli_pcap *c)
{
	if (!c)
		return;
	pcap_close(c->p);
	free(c);
}

uint64_t cli_pcap_ts_ns(const struct cli_pcap *c)
{
	return c->ts_ns;
}
