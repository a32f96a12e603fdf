// SPDX-License-Identifier: MIT
/*
 * rss_model_dump.c - the device model's RSS choice for every frame of a
 * capture, as the driver reports it, for tests/pcap_judge.py --model.
 *
 * A testbed world (src/bed): an RTL8127A with 4 RX queues on 4 CPUs, the
 * driver's defaults for the hash types, and ethtool -X setting the key
 * Microsoft publishes with its RSS verification suite and the table
 * "equal 4" (entry i = i % 4), as a user would.  Each Ethernet frame of
 * the capture enters the model's MAC alone, as long as it was on the wire
 * (a frame the capture cut is padded back to its length with zeros, the
 * payload the capture dropped; short ones to 60 bytes, as a sender pads
 * them), and the simulation runs until the driver has
 * handed it up; the stack's receive hook records the skb's RX queue and
 * hash.  Nothing here computes a hash: the expectation is pcap_judge.py's
 * own Toeplitz over tshark's decode.
 *
 * Output: "frame\ttype\thash\tqueue", one row per frame: type "hash" (the
 * skb carries a hash), "none" (delivered without), or "skip" (not an
 * Ethernet capture, no frame, or a frame the MAC does not take: longer
 * than a standard frame); hash as 0x%08x, queue the RX queue.
 *
 * Usage: rss-model-dump CAPTURE   (exit 0; 1 when the world or the
 * capture cannot be opened, with the reason on stderr)
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "bed/bed_world.h"
#include "ethtool/ethtool_cmd.h"

/* the key of Microsoft's RSS verification suite ("Verifying the RSS Hash
 * Calculation", the 40-byte sample key) */
#define MS_KEY "6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:" \
	       "ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa"

struct seen {
	unsigned int n;		/* frames the hook got for the current one */
	u32 hash;
	u16 queue;
	bool hashed;
};

static void hook(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	struct seen *s = data;

	(void)napi;
	s->n++;
	s->hash = skb->hash;
	s->queue = skb_get_rx_queue(skb);
	s->hashed = skb->hash || skb->l4_hash;
	consume_skb(skb);
}

int main(int argc, char **argv)
{
	static struct bed_world w;
	char err[PCAP_ERRBUF_SIZE], cmd[256];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct seen s;
	unsigned int n = 0;
	pcap_t *p;
	bool eth;

	if (argc != 2) {
		fprintf(stderr, "usage: rss-model-dump CAPTURE\n");
		return 2;
	}
	p = pcap_open_offline(argv[1], err);
	if (!p) {
		fprintf(stderr, "rss-model-dump: %s\n", err);
		return 1;
	}
	eth = pcap_datalink(p) == DLT_EN10MB;
	bed_scenario_default(&w.scn);
	snprintf(w.scn.chip, sizeof(w.scn.chip), "RTL8127A");
	w.scn.cpus = 4;
	w.scn.rx_queues = 4;
	w.scn.seed = 1;
	if (bed_world_up(&w))
		return 1;
	snprintf(cmd, sizeof(cmd), "-X %s hkey %s equal 4", w.dev->name, MS_KEY);
	if (ethtool_cmd_run(w.dev, cmd, stderr, stderr)) {
		fprintf(stderr, "rss-model-dump: ethtool %s failed\n", cmd);
		return 1;
	}
	dev_set_promiscuity(w.dev, 1);		/* every destination MAC */
	kern_netdev_set_rx_handler(w.dev, hook, NULL, &s);
	printf("frame\ttype\thash\tqueue\n");
	while (pcap_next_ex(p, &h, &data) == 1) {
		u8 pad[ETH_FRAME_LEN + VLAN_HLEN];
		const u8 *fr = data;
		size_t len = h->len;

		n++;
		memset(&s, 0, sizeof(s));
		if (!eth || !h->caplen || h->caplen > len || len > sizeof(pad)) {
			printf("%u\tskip\t-\t-\n", n);
			continue;
		}
		if (len < ETH_ZLEN)
			len = ETH_ZLEN;
		if (len > h->caplen) {
			memset(pad, 0, len);
			memcpy(pad, data, h->caplen);
			fr = pad;
		}
		rtlm_eth_rx(w.m, fr, len);
		sim_run_until(&w.sim, sim_now(&w.sim) + 1000000);	/* 1 ms */
		if (s.n != 1)
			printf("%u\tskip\t-\t-\n", n);
		else
			printf("%u\t%s\t0x%08x\t%u\n", n, s.hashed ? "hash" : "none",
			       s.hash, s.queue);
	}
	pcap_close(p);
	bed_world_down(&w);
	return 0;
}
