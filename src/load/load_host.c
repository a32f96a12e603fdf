// SPDX-License-Identifier: MIT
#include "kern/kern.h"
#include "load/load_host.h"

static void host_rx(struct sk_buff *skb, struct napi_struct *napi, void *data)
{
	struct load_host *h = data;

	if (h->ip && iperf3_host_rx(h->ip, skb, napi))
		return;
	kern_charge(SIM_COST_ip_rcv);
	if ((h->ping && ping_host_reply_rx(h->ping, skb)) || ping_host_rx(h->dev, skb)) {
		h->icmp_in++;
		return;
	}
	h->no_socket++;
	kfree_skb(skb);
}

static void host_flush(struct napi_struct *napi, void *data)
{
	struct load_host *h = data;

	if (h->ip)
		iperf3_host_flush(h->ip, napi);
}

void load_host_init(struct load_host *h, struct net_device *dev,
		    struct iperf3 *ip, struct ping *ping)
{
	h->dev = dev;
	h->ip = ip;
	h->ping = ping;
	h->no_socket = h->peer_other = h->icmp_in = 0;
	kern_netdev_set_rx_handler(dev, host_rx, host_flush, h);
}

void load_host_peer_rx(void *arg, const uint8_t *frame, size_t len)
{
	struct load_host *h = arg;

	if (h->ping && ping_peer_rx(h->ping, frame, len))
		return;
	if (h->ip && iperf3_peer_rx(h->ip, frame, len))
		return;
	h->peer_other++;
}
