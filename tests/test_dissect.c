/* SPDX-License-Identifier: MIT */
/*
 * test_dissect.c - the flow dissector and the hash-type rules on hand-built
 * frames: the tricky cases of ../shared/research/rss-anchors.md s7.
 */
#include <errno.h>

#include "test_util.h"

static struct tu_rss R;

static int setup(void **state)
{
	(void)state;
	tu_rss_init(&R, RSS_HT_RTL8127_DEFAULT, 4);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rss_fini(&R);
	return 0;
}

static void tcp4(struct net_build *b)
{
	net_build_init(b);
	tu_ip4(b->src, "66.9.149.187");
	tu_ip4(b->dst, "161.142.100.80");
	b->sport = 2794;
	b->dport = 1766;
	b->payload_len = 100;
}

static void tcp6(struct net_build *b)
{
	net_build_init(b);
	b->ipv = 6;
	tu_ip6(b->src, "3ffe:2501:200:1fff::7");
	tu_ip6(b->dst, "3ffe:2501:200:3::1");
	b->sport = 2794;
	b->dport = 1766;
	b->payload_len = 100;
}

static void test_tcp4_fields(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r;

	(void)state;
	tcp4(&b);
	b.ip4_opt_len = 8;	/* IHL 7 */
	tu_classify(&R, &b, &f, &r);
	assert_int_equal(f.stop, NET_STOP_DONE);
	assert_int_equal(f.ethertype, 0x0800);
	assert_int_equal(f.l3, NET_L3_IPV4);
	assert_int_equal(f.l3_off, 14);
	assert_int_equal(f.l4_off, 14 + 28);
	assert_int_equal(f.l4, NET_L4_TCP);
	assert_int_equal(f.sport, 2794);
	assert_int_equal(f.dport, 1766);
	assert_true(f.l3_ok && f.l4_ok && !f.is_frag);
	assert_int_equal(r.in.type, RSS_TYPE_TCP4);
	assert_int_equal(r.hash, 0x51ccc178);
}

/* TCP options and window (net_build): NOP NOP Timestamps makes the
 * 32-byte header of a Linux data segment; the checksum covers them. */
static void test_tcp_options(void **state)
{
	static const uint8_t ts[12] = { 1, 1, 8, 10, 0, 0, 0, 7, 0, 0, 0, 9 };
	uint8_t frame[2048];
	struct net_build b;
	struct net_flow f;
	uint32_t pseudo = 0;
	ssize_t n;
	size_t i;

	(void)state;
	tcp4(&b);
	b.payload_len = 1448;
	b.tcp_opt = ts;
	b.tcp_opt_len = sizeof(ts);
	b.tcp_win_set = true;
	b.tcp_win = 0;
	n = net_build_frame(&b, frame, sizeof(frame));
	assert_int_equal(n, 14 + 20 + 32 + 1448);
	assert_int_equal(frame[14 + 20 + 12] >> 4, 8);	/* data offset */
	assert_int_equal(frame[14 + 20 + 14] | frame[14 + 20 + 15], 0);
	assert_memory_equal(frame + 14 + 20 + 20, ts, sizeof(ts));
	assert_int_equal(frame[14 + 20 + 32], b.payload_seed);
	/* the TCP checksum verifies over the pseudo-header */
	for (i = 0; i < 8; i += 2)
		pseudo += (uint32_t)(frame[26 + i] << 8 | frame[27 + i]);
	pseudo += 6 + 32 + 1448;
	assert_int_equal(net_csum_fold(frame + 34, 32 + 1448, pseudo), 0);
	assert_int_equal(net_dissect(frame, (size_t)n, NET_LINK_ETH, &f),
			 NET_STOP_DONE);
	assert_int_equal(f.l4, NET_L4_TCP);
	b.tcp_opt_len = 6;
	assert_int_equal(net_build_frame(&b, frame, sizeof(frame)), -EINVAL);
	b.tcp_opt_len = 44;
	assert_int_equal(net_build_frame(&b, frame, sizeof(frame)), -EINVAL);
	b.tcp_opt_len = 4;
	b.tcp_opt = NULL;
	assert_int_equal(net_build_frame(&b, frame, sizeof(frame)), -EINVAL);
}

/* VLAN tags never enter the hash: untagged, 802.1Q, 802.1ad+802.1Q. */
static void test_vlan_not_hashed(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r0, r1, r2, r3;

	(void)state;
	tcp4(&b);
	tu_classify(&R, &b, &f, &r0);
	b.n_vlan = 1;
	b.vlan_tci[0] = 100;
	tu_classify(&R, &b, &f, &r1);
	assert_int_equal(f.n_vlan, 1);
	assert_int_equal(f.l3_off, 18);
	b.n_vlan = 2;
	b.vlan_tpid[0] = 0x88A8;
	b.vlan_tci[0] = 7;
	b.vlan_tpid[1] = 0x8100;
	b.vlan_tci[1] = 200;
	tu_classify(&R, &b, &f, &r2);
	assert_int_equal(f.n_vlan, 2);
	assert_int_equal(f.vlan_tpid[0], 0x88A8);
	assert_int_equal(f.vlan_tci[1], 200);
	assert_int_equal(r0.hash, 0x51ccc178);
	assert_int_equal(r1.hash, r0.hash);
	assert_int_equal(r2.hash, r0.hash);
	assert_int_equal(r1.queue, r0.queue);
	assert_int_equal(r2.queue, r0.queue);
	/* same for IPv6 */
	tcp6(&b);
	tu_classify(&R, &b, &f, &r0);
	b.n_vlan = 2;
	b.vlan_tpid[0] = 0x88A8;
	tu_classify(&R, &b, &f, &r3);
	assert_int_equal(r0.hash, 0x40207d3d);
	assert_int_equal(r3.hash, r0.hash);
}

/* A third tag is beyond what the parser walks: no hash, queue 0. */
static void test_three_vlans(void **state)
{
	uint8_t buf[200];
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	ssize_t len;

	(void)state;
	tcp4(&b);
	b.n_vlan = 2;
	len = net_build_frame(&b, buf + 4, sizeof(buf) - 4);
	assert_true(len > 0);
	memmove(buf, buf + 4, 12);		/* insert a tag after the MACs */
	buf[12] = 0x81, buf[13] = 0x00, buf[14] = 0x00, buf[15] = 0x05;
	net_dissect(buf, (size_t)len + 4, NET_LINK_ETH, &f);
	assert_int_equal(f.stop, NET_STOP_VLAN_DEPTH);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_NONE);
	assert_int_equal(r.queue, 0);
	assert_int_equal(r.hash, 0);
}

/* Every fragment of a datagram, the first included, hashes the IP pair
 * and so lands on one queue, even with UDP 4-tuple hashing on. */
static void test_ipv4_fragments(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	struct tu_rss u;
	uint32_t ip_hash = 0x323e8fc2;	/* MS vector 1, IPv4 only */
	int proto, i;

	(void)state;
	tu_rss_init(&u, RSS_HT_RTL8127_DEFAULT | RSS_HT_UDP_IPV4, 4);
	for (proto = 0; proto < 2; proto++) {
		for (i = 0; i < 3; i++) {
			tcp4(&b);
			b.proto = proto ? 17 : 6;
			b.mf = i < 2;
			b.frag_off = (uint16_t)(i * 1480);
			b.payload_len = 200;
			tu_classify(&u, &b, &f, &r);
			assert_true(f.is_frag);
			assert_int_equal(f.is_first_frag, i == 0);
			assert_int_equal(f.frag_off, i * 1480);
			assert_int_equal(f.stop, i ? NET_STOP_FRAG : NET_STOP_DONE);
			/* the first fragment's ports are parsed but not used */
			assert_int_equal(f.l4_ok, i == 0);
			assert_int_equal(r.in.type, RSS_TYPE_IPV4);
			assert_int_equal(r.in.len, 8);
			assert_int_equal(r.hash, ip_hash);
			assert_int_equal(r.queue, (ip_hash & 127) % 4);
		}
	}
	/* the unfragmented datagram, by contrast, uses the ports */
	tcp4(&b);
	b.proto = 17;
	tu_classify(&u, &b, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_UDP4);
	assert_int_equal(r.in.len, 12);
	tu_rss_fini(&u);
}

static void test_ipv6_fragments(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		tcp6(&b);
		b.frag6 = true;
		b.mf = i < 2;
		b.frag_off = (uint16_t)(i * 1448);
		b.frag_id = 77;
		tu_classify(&R, &b, &f, &r);
		assert_true(f.is_frag);
		assert_int_equal(f.is_first_frag, i == 0);
		assert_int_equal(r.in.type, RSS_TYPE_IPV6);
		assert_int_equal(r.hash, 0x2cc18cd5);
	}
	/* an atomic fragment (offset 0, M clear) is a whole datagram */
	tcp6(&b);
	b.frag6 = true;
	tu_classify(&R, &b, &f, &r);
	assert_false(f.is_frag);
	assert_int_equal(f.n_ext, 1);
	assert_int_equal(r.in.type, RSS_TYPE_TCP6);
	assert_int_equal(r.hash, 0x40207d3d);
}

/* IPv6 EX: Home Address replaces the source, RH type 2 the destination;
 * RH type 0 and segment routing (type 4) change nothing. */
static void test_ipv6_ex(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r, plain;
	uint8_t in[36];
	struct tu_rss noex;

	(void)state;
	tcp6(&b);
	tu_classify(&R, &b, &f, &plain);

	/* Home Address option */
	tcp6(&b);
	tu_ip6(b.src, "2001:db8::99");		/* care-of address */
	b.hao = true;
	tu_ip6(b.hao_addr, "3ffe:2501:200:1fff::7");
	b.hbh = true;
	tu_classify(&R, &b, &f, &r);
	assert_true(f.has_ex_src);
	assert_int_equal(f.n_ext, 2);
	assert_true(r.in.ex);
	assert_int_equal(r.hash, plain.hash);

	/* type 2 routing header */
	tcp6(&b);
	tu_ip6(b.dst, "2001:db8::aa");
	b.rh_type = 2;
	tu_ip6(b.rh_addr, "3ffe:2501:200:3::1");
	tu_classify(&R, &b, &f, &r);
	assert_true(f.has_ex_dst && f.has_rh);
	assert_int_equal(r.hash, plain.hash);

	/* both at once, UDP with udp6 sdfn: the EX addresses and the ports */
	tcp6(&b);
	b.proto = 17;
	tu_ip6(b.src, "2001:db8::99");
	tu_ip6(b.dst, "2001:db8::aa");
	b.hao = true;
	tu_ip6(b.hao_addr, "3ffe:2501:200:1fff::7");
	b.rh_type = 2;
	tu_ip6(b.rh_addr, "3ffe:2501:200:3::1");
	R.cfg.ht |= RSS_HT_UDP_IPV6 | RSS_HT_UDP_IPV6_EX;
	tu_classify(&R, &b, &f, &r);
	R.cfg.ht = RSS_HT_RTL8127_DEFAULT;
	assert_int_equal(r.in.type, RSS_TYPE_UDP6);
	assert_int_equal(r.hash, 0x40207d3d);

	/* type 0 and segment routing: addresses untouched */
	memcpy(in, plain.in.bytes, 36);
	for (int t = 0; t <= 4; t += 4) {
		tcp6(&b);
		b.rh_type = t;
		tu_ip6(b.rh_addr, "2001:db8::55");
		tu_classify(&R, &b, &f, &r);
		assert_true(f.has_rh);
		assert_false(f.has_ex_dst);
		assert_memory_equal(r.in.bytes, in, 36);
		assert_int_equal(r.hash, plain.hash);
	}

	/* EX bits off: the Home Address is ignored */
	tu_rss_init(&noex, RSS_HT_TCP_IPV6 | RSS_HT_IPV6, 4);
	tcp6(&b);
	tu_ip6(b.src, "2001:db8::99");
	b.hao = true;
	tu_ip6(b.hao_addr, "3ffe:2501:200:1fff::7");
	tu_classify(&noex, &b, &f, &r);
	assert_true(f.has_ex_src);
	assert_false(r.in.ex);
	assert_int_not_equal(r.hash, plain.hash);
	tu_rss_fini(&noex);
}

/* Non-TCP/UDP packets hash 8 or 32 bytes, not a zero-port tuple. */
static void test_non_l4(void **state)
{
	static const uint8_t protos[] = { 1, 47, 50, 132 };
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(protos); i++) {
		tcp4(&b);
		b.proto = protos[i];
		tu_classify(&R, &b, &f, &r);
		assert_int_equal(r.in.type, RSS_TYPE_IPV4);
		assert_int_equal(r.in.len, 8);
		assert_int_equal(r.hash, 0x323e8fc2);
		tcp6(&b);
		b.proto = protos[i] == 1 ? 58 : protos[i];
		tu_classify(&R, &b, &f, &r);
		assert_int_equal(r.in.type, RSS_TYPE_IPV6);
		assert_int_equal(r.in.len, 32);
		assert_int_equal(r.hash, 0x2cc18cd5);
	}
	tcp4(&b);
	b.proto = 1;
	b.icmp_type = 8;
	tu_classify(&R, &b, &f, &r);
	assert_int_equal(f.l4, NET_L4_ICMP);
	assert_int_equal(f.icmp_type, 8);
}

static void sample(struct net_build *b, int ipv, int proto, bool hao)
{
	net_build_init(b);
	b->ipv = ipv;
	b->proto = (uint8_t)proto;
	if (ipv == 6) {
		tu_ip6(b->src, "2001:db8::1");
		tu_ip6(b->dst, "2001:db8::2");
	} else {
		tu_ip4(b->src, "10.0.0.1");
		tu_ip4(b->dst, "10.0.0.2");
	}
	b->hao = hao;
	tu_ip6(b->hao_addr, "2001:db8::77");
	b->sport = 1000;
	b->dport = 2000;
}

/* Each hash-type flag changes only its own protocol and IP version. */
static void test_flag_isolation(void **state)
{
	static const uint32_t flags[] = {
		RSS_HT_TCP_IPV4, RSS_HT_IPV4, RSS_HT_TCP_IPV6, RSS_HT_IPV6,
		RSS_HT_IPV6_EX, RSS_HT_TCP_IPV6_EX, RSS_HT_UDP_IPV4,
		RSS_HT_UDP_IPV6, RSS_HT_UDP_IPV6_EX,
	};
	/* sample packets: {ipv, proto, with HAO} */
	static const struct { int ipv, proto; bool hao; } pk[] = {
		{ 4, 6, 0 }, { 4, 17, 0 }, { 4, 1, 0 },
		{ 6, 6, 0 }, { 6, 17, 0 }, { 6, 58, 0 },
		{ 6, 6, 1 }, { 6, 17, 1 }, { 6, 58, 1 },
	};
	/* which packets each flag may affect, from the rules in rss_hash.h:
	 * a TCP/UDP flag affects its own L4 and, when its IP-pair fallback is
	 * off, nothing else; IP flags affect every packet of their version
	 * that does not take an L4 type; EX flags affect only HAO packets of
	 * their kind (and the plain type when the non-EX flag is off). */
	struct tu_rss t;
	struct net_build b;
	struct net_flow f;
	struct rss_result base[9], r;
	size_t i, j;

	(void)state;
	tu_rss_init(&t, RSS_HT_ALL, 4);
	for (j = 0; j < 9; j++) {
		sample(&b, pk[j].ipv, pk[j].proto, pk[j].hao);
		tu_classify(&t, &b, &f, &base[j]);
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		t.cfg.ht = RSS_HT_ALL & ~flags[i];
		for (j = 0; j < 9; j++) {
			bool v4 = pk[j].ipv == 4, tcp = pk[j].proto == 6,
			     udp = pk[j].proto == 17, hao = pk[j].hao;
			bool may;

			sample(&b, pk[j].ipv, pk[j].proto, hao);
			tu_classify(&t, &b, &f, &r);
			switch (flags[i]) {
			case RSS_HT_TCP_IPV4: may = v4 && tcp; break;
			case RSS_HT_UDP_IPV4: may = v4 && udp; break;
			case RSS_HT_IPV4: may = v4 && !tcp && !udp; break;
			/* with all bits on, clearing a plain v6 flag is covered
			 * by its EX twin: nothing changes */
			case RSS_HT_TCP_IPV6:
			case RSS_HT_UDP_IPV6:
			case RSS_HT_IPV6: may = false; break;
			case RSS_HT_TCP_IPV6_EX: may = !v4 && tcp && hao; break;
			case RSS_HT_UDP_IPV6_EX: may = !v4 && udp && hao; break;
			case RSS_HT_IPV6_EX: may = !v4 && !tcp && !udp && hao; break;
			default: may = true;
			}
			if (!may) {
				assert_int_equal(r.in.type, base[j].in.type);
				assert_int_equal(r.hash, base[j].hash);
			} else {
				assert_true(r.in.type != base[j].in.type ||
					    r.hash != base[j].hash);
			}
		}
	}
	/* and with only one flag on, only its packets get a hash */
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		t.cfg.ht = flags[i];
		for (j = 0; j < 9; j++) {
			sample(&b, pk[j].ipv, pk[j].proto, pk[j].hao);
			tu_classify(&t, &b, &f, &r);
			if (r.in.type == RSS_TYPE_NONE)
				continue;
			switch (flags[i]) {
			case RSS_HT_TCP_IPV4: assert_int_equal(r.in.type, RSS_TYPE_TCP4); break;
			case RSS_HT_UDP_IPV4: assert_int_equal(r.in.type, RSS_TYPE_UDP4); break;
			case RSS_HT_IPV4: assert_int_equal(r.in.type, RSS_TYPE_IPV4); break;
			case RSS_HT_TCP_IPV6: case RSS_HT_TCP_IPV6_EX:
				assert_int_equal(r.in.type, RSS_TYPE_TCP6); break;
			case RSS_HT_UDP_IPV6: case RSS_HT_UDP_IPV6_EX:
				assert_int_equal(r.in.type, RSS_TYPE_UDP6); break;
			default: assert_int_equal(r.in.type, RSS_TYPE_IPV6);
			}
		}
	}
	tu_rss_fini(&t);
}

/* Truncated or inconsistent headers stop with a defined reason. */
static void test_malformed(void **state)
{
	uint8_t buf[NET_BUILD_MAX];
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	ssize_t len;
	size_t cut;

	(void)state;
	tcp4(&b);
	len = net_build_frame(&b, buf, sizeof(buf));
	/* every prefix parses without reading past it (ASan checks) */
	for (cut = 0; cut <= (size_t)len; cut++) {
		enum net_stop s = net_dissect(buf, cut, NET_LINK_ETH, &f);

		if (cut < 14)
			assert_int_equal(s, NET_STOP_L2_TRUNC);
		else if (cut < 34)
			assert_int_equal(s, NET_STOP_L3_TRUNC);
		else if (cut < (size_t)len)
			assert_int_equal(s, NET_STOP_L3_LEN);
		else
			assert_int_equal(s, NET_STOP_DONE);
		rss_classify(&R.cfg, &f, &r);
		assert_int_equal(r.in.type, cut == (size_t)len ? RSS_TYPE_TCP4 :
				 RSS_TYPE_NONE);
	}
	/* IHL < 5 */
	buf[14] = 0x44;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L3_BAD);
	assert_false(f.l3_ok);
	buf[14] = 0x45;
	/* total length beyond the frame */
	buf[16] = 0x40;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L3_LEN);
	buf[16] = 0;
	/* IPv4 total length shorter than the frame: Ethernet padding, fine;
	 * but too short for a TCP header: IP pair only */
	buf[17] = 20 + 12;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L4_TRUNC);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_IPV4);
	/* TCP data offset < 5 */
	net_build_frame(&b, buf, sizeof(buf));
	buf[14 + 20 + 12] = 0x40;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L4_BAD);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_IPV4);
	assert_int_equal(r.hash, 0x323e8fc2);
	/* wrong IP version in an IPv4 EtherType */
	net_build_frame(&b, buf, sizeof(buf));
	buf[14] = 0x65;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L3_BAD);

	/* IPv6: an extension chain that runs off the packet: no hash */
	tcp6(&b);
	b.hbh = true;
	len = net_build_frame(&b, buf, sizeof(buf));
	buf[14 + 40 + 1] = 200;		/* HBH length far past the end */
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_EXT_BAD);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_NONE);
	/* every prefix of an IPv6 frame with three extension headers */
	tcp6(&b);
	b.hbh = b.hao = true;
	b.rh_type = 2;
	len = net_build_frame(&b, buf, sizeof(buf));
	for (cut = 0; cut < (size_t)len; cut++) {
		net_dissect(buf, cut, NET_LINK_ETH, &f);
		assert_int_not_equal(f.stop, NET_STOP_DONE);
		rss_classify(&R.cfg, &f, &r);
		assert_int_equal(r.in.type, RSS_TYPE_NONE);
	}
	/* payload length beyond the frame */
	buf[14 + 4] = 0xff;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L3_LEN);
}

/* Finding: an IPv6 payload length of 0 without a Jumbo Payload option
 * was hashed from whatever followed, while an IPv4 total length of 0 is
 * refused.  Now both are refused (no hash); with the Jumbo option (RFC
 * 2675: Hop-by-Hop option 0xC2, a 32-bit length above 65535) the
 * jumbogram is parsed to its declared end. */
static void test_ipv6_payload_len0(void **state)
{
	static uint8_t big[14 + 40 + 8 + 20 + 70000];
	uint8_t buf[256];
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	ssize_t len;
	uint32_t j;

	(void)state;
	/* IPv4 total length 0: refused */
	tcp4(&b);
	len = net_build_frame(&b, buf, sizeof(buf));
	buf[16] = buf[17] = 0;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f), NET_STOP_L3_BAD);
	/* IPv6 payload length 0, no Hop-by-Hop header: refused alike */
	tcp6(&b);
	len = net_build_frame(&b, buf, sizeof(buf));
	buf[14 + 4] = buf[14 + 5] = 0;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f), NET_STOP_L3_BAD);
	assert_false(f.l3_ok);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_NONE);
	/* a Hop-by-Hop header without the Jumbo option: refused */
	b.hbh = true;
	len = net_build_frame(&b, buf, sizeof(buf));
	buf[14 + 4] = buf[14 + 5] = 0;
	assert_int_equal(net_dissect(buf, (size_t)len, NET_LINK_ETH, &f), NET_STOP_L3_BAD);
	/* the Jumbo option: a jumbogram of 70028 bytes after the header */
	memset(big, 0, sizeof(big));
	memcpy(big, buf, (size_t)len);
	j = (uint32_t)(sizeof(big) - 14 - 40);
	big[14 + 40 + 2] = 0xc2;
	big[14 + 40 + 3] = 4;
	big[14 + 40 + 4] = (uint8_t)(j >> 24);
	big[14 + 40 + 5] = (uint8_t)(j >> 16);
	big[14 + 40 + 6] = (uint8_t)(j >> 8);
	big[14 + 40 + 7] = (uint8_t)j;
	assert_int_equal(net_dissect(big, sizeof(big), NET_LINK_ETH, &f), NET_STOP_DONE);
	assert_int_equal(f.l3_len, 40 + j);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_TCP6);
	assert_int_equal(r.hash, 0x40207d3d);
	/* a jumbogram longer than the frame */
	assert_int_equal(net_dissect(big, sizeof(big) - 1, NET_LINK_ETH, &f), NET_STOP_L3_LEN);
	/* a Jumbo length that fits in the 16-bit field: invalid (RFC 2675) */
	big[14 + 40 + 4] = big[14 + 40 + 5] = 0;
	big[14 + 40 + 6] = 0xff;
	big[14 + 40 + 7] = 0xff;
	assert_int_equal(net_dissect(big, sizeof(big), NET_LINK_ETH, &f), NET_STOP_L3_BAD);
}

/* A frame the capture's snap length cut (net_dissect_cap): lengths are
 * checked against the wire length, reads stop at the captured bytes, so
 * the headers kept are hashed; a header the capture cut is not. */
static void test_snaplen_cut(void **state)
{
	uint8_t buf[512];
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	ssize_t len;

	(void)state;
	tcp4(&b);
	len = net_build_frame(&b, buf, sizeof(buf));
	/* payload cut: the 4-tuple; without the wire length, nothing */
	assert_int_equal(net_dissect_cap(buf, 54, (size_t)len, NET_LINK_ETH, &f), NET_STOP_DONE);
	assert_true(f.cut && f.l4_ok);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.hash, 0x51ccc178);
	assert_int_equal(net_dissect(buf, 54, NET_LINK_ETH, &f), NET_STOP_L3_LEN);
	/* TCP header cut: the IP pair */
	assert_int_equal(net_dissect_cap(buf, 44, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L4_TRUNC);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_IPV4);
	assert_int_equal(r.hash, 0x323e8fc2);
	/* a wire length the IP total length still exceeds */
	assert_int_equal(net_dissect_cap(buf, 54, (size_t)len - 1, NET_LINK_ETH, &f),
			 NET_STOP_L3_LEN);
	/* IPv6 with extension headers: cut inside the chain, no hash (the
	 * addresses the chain may carry are unknown); after it, the 4-tuple */
	tcp6(&b);
	b.hbh = b.hao = true;
	len = net_build_frame(&b, buf, sizeof(buf));
	assert_int_equal(net_dissect_cap(buf, 14 + 40 + 12, (size_t)len, NET_LINK_ETH, &f),
			 NET_STOP_L3_TRUNC);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.in.type, RSS_TYPE_NONE);
	assert_int_equal(net_dissect_cap(buf, 14 + 40 + 8 + 24 + 20, (size_t)len,
					 NET_LINK_ETH, &f), NET_STOP_DONE);
	assert_true(f.has_ex_src && f.l4_ok);
}

/* Linux cooked v1/v2 and raw IP link types reach the same hash. */
static void test_link_types(void **state)
{
	uint8_t eth[200], alt[220];
	struct net_build b;
	struct net_flow f;
	struct rss_result r;
	ssize_t len;

	(void)state;
	tcp4(&b);
	len = net_build_frame(&b, eth, sizeof(eth));
	/* SLL: 16-byte header, protocol at 14 */
	memset(alt, 0, 16);
	alt[14] = 0x08;
	memcpy(alt + 16, eth + 14, (size_t)len - 14);
	net_dissect(alt, (size_t)len + 2, NET_LINK_SLL, &f);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.hash, 0x51ccc178);
	/* SLL2: protocol at 0, 20-byte header */
	memset(alt, 0, 20);
	alt[0] = 0x08;
	memcpy(alt + 20, eth + 14, (size_t)len - 14);
	net_dissect(alt, (size_t)len + 6, NET_LINK_SLL2, &f);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.hash, 0x51ccc178);
	/* raw IP */
	net_dissect(eth + 14, (size_t)len - 14, NET_LINK_RAW, &f);
	rss_classify(&R.cfg, &f, &r);
	assert_int_equal(r.hash, 0x51ccc178);
	assert_int_equal(net_dissect(eth, 0, NET_LINK_RAW, &f), NET_STOP_L3_TRUNC);
	assert_int_equal(net_dissect(eth, 10, NET_LINK_SLL, &f), NET_STOP_L2_TRUNC);
}

/* Non-IP frames: no hash, queue 0, and the stop reason says why. */
static void test_non_ip(void **state)
{
	struct net_build b;
	struct net_flow f;
	struct rss_result r;

	(void)state;
	net_build_init(&b);
	b.ipv = 0;
	b.ethertype = 0x0806;
	b.payload_len = 28;
	tu_classify(&R, &b, &f, &r);
	assert_int_equal(f.stop, NET_STOP_NOT_IP);
	assert_int_equal(f.ethertype, 0x0806);
	assert_int_equal(r.in.type, RSS_TYPE_NONE);
	assert_int_equal(r.queue, 0);
	assert_string_equal(net_stop_name(f.stop), "not-ip");
	assert_string_equal(net_stop_name((enum net_stop)99), "?");
}

/* net_csum_fold() against a plain RFC 1071 sum of big-endian 16-bit
 * words, on random data of every length 0..300 at every alignment 0..7,
 * with random carried-in sums, plus all-zero and all-0xff buffers. */
static uint16_t ref_csum(const uint8_t *p, size_t len, uint32_t sum)
{
	uint64_t acc = sum;

	for (size_t i = 0; i + 1 < len; i += 2)
		acc += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		acc += (uint32_t)p[len - 1] << 8;
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)~acc;
}

static void test_csum_reference(void **state)
{
	static uint8_t buf[320];
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (int fill = 0; fill < 3; fill++) {
		for (size_t al = 0; al < 8; al++) {
			for (size_t len = 0; len <= 300; len++) {
				uint32_t sum;

				for (size_t i = 0; i < sizeof(buf); i++) {
					x ^= x << 13, x ^= x >> 7, x ^= x << 17;
					buf[i] = fill == 0 ? (uint8_t)x : fill == 1 ? 0 : 0xff;
				}
				sum = (uint32_t)(x >> 40) & 0x1ffff;
				assert_int_equal(net_csum_fold(buf + al, len, sum),
						 ref_csum(buf + al, len, sum));
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp4_fields),
		cmocka_unit_test(test_vlan_not_hashed),
		cmocka_unit_test(test_three_vlans),
		cmocka_unit_test(test_ipv4_fragments),
		cmocka_unit_test(test_ipv6_fragments),
		cmocka_unit_test(test_ipv6_ex),
		cmocka_unit_test(test_non_l4),
		cmocka_unit_test(test_flag_isolation),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_link_types),
		cmocka_unit_test(test_tcp_options),
		cmocka_unit_test(test_non_ip),
		cmocka_unit_test(test_csum_reference),
		cmocka_unit_test(test_ipv6_payload_len0),
		cmocka_unit_test(test_snaplen_cut),
	};

	return cmocka_run_group_tests_name("dissect", tests, setup, teardown);
}
