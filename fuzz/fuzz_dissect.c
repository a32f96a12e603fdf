/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dissect.c - libFuzzer target for the flow dissector and the RSS
 * classifier.  Input: one byte choosing the link type, then the frame.
 * Besides memory safety (ASan/UBSan), it checks the invariants that the
 * rest of the project relies on.
 */
#include <stdlib.h>
#include <string.h>

#include "net/net_flow.h"
#include "rss/rss_hash.h"
#include "rss/rss_key.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rss_thash key;
	static struct rss_indir indir;
	static int ready;
	static const uint32_t hts[] = { RSS_HT_RTL8127_DEFAULT, RSS_HT_ALL };
	struct net_flow f;
	struct rss_result r;
	struct rss_cfg cfg;
	uint8_t *frame;
	size_t len, i;

	if (!ready) {
		if (rss_thash_init(&key, rss_key_microsoft, 40) ||
		    rss_indir_default(&indir, 128, 4))
			abort();
		ready = 1;
	}
	if (size < 1)
		return 0;
	/* copy to an exact-size heap block so ASan sees any over-read */
	len = size - 1;
	frame = malloc(len ? len : 1);
	if (!frame)
		return 0;
	memcpy(frame, data + 1, len);
	net_dissect(frame, len, (enum net_link)(data[0] % 4), &f);

	CHECK((unsigned)f.stop < NET_STOP__COUNT);
	CHECK(f.n_vlan <= NET_VLAN_MAX);
	if (f.l4_ok)
		CHECK(f.l3_ok && f.l4_off + 4 <= len);
	if (f.l3_ok) {
		CHECK(f.addr_len == 4 || f.addr_len == 16);
		CHECK(f.l3_off + f.l3_len <= len);
	}
	for (i = 0; i < sizeof(hts) / sizeof(hts[0]); i++) {
		cfg.key = &key;
		cfg.indir = &indir;
		cfg.ht = hts[i];
		cfg.xfrm = (uint32_t)(data[0] >> 7);
		rss_classify(&cfg, &f, &r);
		CHECK(r.queue < 4);
		CHECK((r.in.type == RSS_TYPE_NONE) == (r.in.len == 0));
		CHECK(r.in.len == 0 || r.in.len == 8 || r.in.len == 12 ||
		      r.in.len == 32 || r.in.len == 36);
		if (r.in.type != RSS_TYPE_NONE)
			CHECK(r.hash == rss_toeplitz_ref(rss_key_microsoft, 40,
							 r.in.bytes, r.in.len));
	}
	free(frame);
	return 0;
}
