/* SPDX-License-Identifier: MIT */
/*
 * cli_mkpcap.c - "rxscale mkpcap FILE": write the built-in demo capture, a
 * small multi-flow mix made with rxscale's own frame builder (src/net):
 * iperf3-like TCP/IPv4 streams, UDP/IPv4 streams, TCP/IPv6 streams, a
 * fragmented UDP datagram, a VLAN-tagged segment, an ICMP echo and an ARP
 * frame.  The content is fixed, so the file is byte-identical every time.
 */
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "net/net_build.h"

#define DEMO_TCP4_FLOWS	8
#define DEMO_TCP6_FLOWS	2
#define DEMO_UDP4_FLOWS	4
#define DEMO_ROUNDS	6
#define DEMO_T0_SEC	1764374400	/* 2025-11-29 00:00:00 UTC */
#define DEMO_GAP_US	12		/* ~ one 1538-byte slot at 1 Gbit/s */

struct demo {
	pcap_dumper_t *d;
	unsigned long n;
	int err;
};

static void put(struct demo *dm, const struct net_build *b)
{
	uint8_t buf[NET_BUILD_MAX];
	struct pcap_pkthdr h;
	ssize_t len = net_build_frame(b, buf, sizeof(buf));
	unsigned long us = dm->n * DEMO_GAP_US;

	if (len < 0) {
		dm->err = EINVAL;
		return;
	}
	h.ts.tv_sec = DEMO_T0_SEC + (time_t)(us / 1000000);
	h.ts.tv_usec = (suseconds_t)(us % 1000000);
	h.caplen = h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)dm->d, &h, buf);
	dm->n++;
}

static void ip4(uint8_t *a, unsigned x, unsigned y, unsigned z, unsigned w)
{
	a[0] = (uint8_t)x, a[1] = (uint8_t)y, a[2] = (uint8_t)z, a[3] = (uint8_t)w;
}

static void ip6(uint8_t *a, unsigned last)
{
	static const uint8_t pfx[8] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1 };

	memset(a, 0, 16);
	memcpy(a, pfx, 8);
	a[15] = (uint8_t)last;
}

static void write_demo(struct demo *dm)
{
	/* who-has 10.0.0.1 tell 10.0.0.2 (RFC 826) */
	static const uint8_t arp[28] = {
		0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1, 10, 0, 0, 2,
		0, 0, 0, 0, 0, 0, 10, 0, 0, 1,
	};
	struct net_build b;
	unsigned r, i;

	for (r = 0; r < DEMO_ROUNDS; r++) {
		for (i = 0; i < DEMO_TCP4_FLOWS; i++) {	/* iperf3 -P 8 */
			net_build_init(&b);
			ip4(b.src, 10, 0, 0, 2);
			ip4(b.dst, 10, 0, 0, 1);
			b.sport = (uint16_t)(33000 + 1117 * i);	/* ephemeral */
			b.dport = 5201;
			b.seq = 1 + r * 1448;
			b.payload_len = 1448;
			b.payload_seed = (uint8_t)i;
			if (i == 0 && r == 3) {		/* one tagged segment */
				b.n_vlan = 1;
				b.vlan_tci[0] = 100;
			}
			put(dm, &b);
		}
		for (i = 0; i < DEMO_UDP4_FLOWS; i++) {	/* iperf3 -u -P 4 */
			net_build_init(&b);
			b.proto = 17;
			ip4(b.src, 10, 0, 0, 3 + i % 2);
			ip4(b.dst, 10, 0, 0, 1);
			b.sport = (uint16_t)(50000 + i);
			b.dport = 5201;
			b.payload_len = 1200;
			put(dm, &b);
		}
		for (i = 0; i < DEMO_TCP6_FLOWS; i++) {
			net_build_init(&b);
			b.ipv = 6;
			ip6(b.src, 2);
			ip6(b.dst, 1);
			b.sport = (uint16_t)(41000 + i);
			b.dport = 5201;
			b.payload_len = 1428;
			put(dm, &b);
		}
	}
	/* a 3000-byte UDP datagram in three fragments: all on the IP pair */
	for (i = 0; i < 3; i++) {
		net_build_init(&b);
		b.proto = 17;
		ip4(b.src, 10, 0, 0, 5);
		ip4(b.dst, 10, 0, 0, 1);
		b.ip_id = 0x1234;
		b.sport = 53000;
		b.dport = 5201;
		b.mf = i < 2;
		b.frag_off = (uint16_t)(i * 1480);
		b.payload_len = i == 0 ? 1472 : i == 1 ? 1480 : 48;
		put(dm, &b);
	}
	net_build_init(&b);			/* ping */
	b.proto = 1;
	b.icmp_type = 8;
	ip4(b.src, 10, 0, 0, 2);
	ip4(b.dst, 10, 0, 0, 1);
	b.payload_len = 56;
	put(dm, &b);
	net_build_init(&b);			/* ARP request: not IP */
	b.ipv = 0;
	b.ethertype = 0x0806;
	memset(b.dmac, 0xff, 6);
	b.payload = arp;
	b.payload_len = sizeof(arp);
	put(dm, &b);
}

int cli_mkpcap(int argc, char **argv)
{
	struct demo dm = { 0 };
	char tmp[4096];
	struct stat st;
	pcap_t *p;
	FILE *f;
	int fd;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: rxscale mkpcap FILE\n\nWrite the built-in demo "
		     "capture (Ethernet, pcap format) to FILE.");
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-' || !argv[1][0]) {
		cli_err("mkpcap: usage: rxscale mkpcap FILE");
		return CLI_EXIT_USAGE;
	}
	/* FILE is replaced by a rename, so it must be a regular file (or not
	 * exist): never a device, a directory or a symlink. */
	if (lstat(argv[1], &st) == 0 && !S_ISREG(st.st_mode)) {
		cli_err("mkpcap: %s exists and is not a regular file", argv[1]);
		return CLI_EXIT_USAGE;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]) >= (int)sizeof(tmp)) {
		cli_err("mkpcap: path too long: %s", argv[1]);
		return CLI_EXIT_USAGE;
	}
	/* write to FILE.tmp (created afresh) and rename: never a half-written
	 * FILE */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		cli_err("mkpcap: cannot create %s: %s", tmp, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	f = fdopen(fd, "wb");
	p = pcap_open_dead(DLT_EN10MB, NET_BUILD_MAX);
	if (!f || !p) {
		cli_err("mkpcap: out of memory");
		if (f)
			fclose(f);
		else
			close(fd);
		if (p)
			pcap_close(p);
		unlink(tmp);
		return 1;
	}
	dm.d = pcap_dump_fopen(p, f);
	if (!dm.d) {
		cli_err("mkpcap: cannot write %s: %s", tmp, pcap_geterr(p));
		fclose(f);
		pcap_close(p);
		unlink(tmp);
		return CLI_EXIT_USAGE;
	}
	errno = 0;
	write_demo(&dm);
	if (pcap_dump_flush(dm.d) || ferror(f) || fsync(fileno(f)))
		dm.err = errno ? errno : EIO;
	pcap_dump_close(dm.d);	/* closes f */
	pcap_close(p);
	if (dm.err) {
		cli_err("mkpcap: cannot write %s: %s", tmp, strerror(dm.err));
		unlink(tmp);
		return CLI_EXIT_USAGE;
	}
	if (rename(tmp, argv[1])) {
		cli_err("mkpcap: cannot rename %s to %s: %s", tmp, argv[1],
			strerror(errno));
		unlink(tmp);
		return CLI_EXIT_USAGE;
	}
	printf("wrote %s: %lu frames\n", argv[1], dm.n);
	return 0;
}
