/* SPDX-License-Identifier: MIT */
/*
 * model_tally.h - the tally counters both device models keep (struct
 * rtl_tally, hw/rtl_desc.h): what a received frame adds, and the block
 * as the host reads it (little-endian, 64 bytes: the PCIe chips DMA it on
 * CounterDump, the USB adapters return it from PLA_TALLYCNT).
 */
#ifndef RXSCALE_MODEL_MODEL_TALLY_H
#define RXSCALE_MODEL_MODEL_TALLY_H

#include <stdint.h>
#include <string.h>

#include "hw/rtl_desc.h"

/* A frame the device handed to the host: rx_packets, and one of
 * unicast/broadcast/multicast by its destination address. */
static inline void model_tally_rx(struct rtl_tally *t, const uint8_t *frame)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	t->rx_packets++;
	if (!memcmp(frame, bcast, sizeof(bcast)))
		t->rx_broadcast++;
	else if (frame[0] & 1)
		t->rx_multicast++;
	else
		t->rx_unicast++;
}

static inline void model_tally_put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* @t as the host reads it, into @b (sizeof(struct rtl_tally) bytes). */
static inline void model_tally_image(const struct rtl_tally *t, uint8_t *b)
{
	memset(b, 0, sizeof(struct rtl_tally));
#define MODEL_TALLY_PUT(f) \
	model_tally_put_le(b + offsetof(struct rtl_tally, f), t->f, sizeof(t->f))
	MODEL_TALLY_PUT(tx_packets);
	MODEL_TALLY_PUT(rx_packets);
	MODEL_TALLY_PUT(tx_errors);
	MODEL_TALLY_PUT(rx_errors);
	MODEL_TALLY_PUT(rx_missed);
	MODEL_TALLY_PUT(align_errors);
	MODEL_TALLY_PUT(tx_one_collision);
	MODEL_TALLY_PUT(tx_multi_collision);
	MODEL_TALLY_PUT(rx_unicast);
	MODEL_TALLY_PUT(rx_broadcast);
	MODEL_TALLY_PUT(rx_multicast);
	MODEL_TALLY_PUT(tx_aborted);
	MODEL_TALLY_PUT(tx_underrun);
#undef MODEL_TALLY_PUT
}

#endif /* RXSCALE_MODEL_MODEL_TALLY_H */
