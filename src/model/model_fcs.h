/* SPDX-License-Identifier: MIT */
/*
 * model_fcs.h - the Ethernet frame check sequence a MAC computes (IEEE
 * 802.3 clause 3.2.9: CRC-32, polynomial 0x04C11DB7 reflected, initial
 * value and final complement all ones), as zlib's crc32() defines it.
 */
#ifndef RXSCALE_MODEL_FCS_H
#define RXSCALE_MODEL_FCS_H

#include <stddef.h>
#include <stdint.h>

/* FCS of @len bytes at @p: crc32(0, p, len).  On CPUs with carry-less
 * multiplication (PCLMULQDQ) frames of 64 bytes and more are folded 64
 * bytes at a time; the result is the same bit for bit. */
uint32_t model_fcs32(const uint8_t *p, size_t len);

/* The same by zlib alone (the reference the fast path is tested against). */
uint32_t model_fcs32_ref(const uint8_t *p, size_t len);

#endif /* RXSCALE_MODEL_FCS_H */
