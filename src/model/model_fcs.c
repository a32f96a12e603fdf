// SPDX-License-Identifier: MIT
/*
 * model_fcs.c - Ethernet FCS (see model_fcs.h).
 *
 * The fast path is CRC folding by carry-less multiplication as Intel's
 * white paper "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction" (Gopal et al., 2009) describes it for a bit-reflected CRC:
 * four 128-bit accumulators each fold 512 bits ahead (constants x^(4*128+32)
 * and x^(4*128-32) mod P, bit-reflected), are folded into one (x^(128+32),
 * x^(128-32)), which folds the remaining 16-byte blocks, is cut to 64 and
 * then 32 bits (x^64 mod P) and Barrett-reduced (mu = x^64 / P and P
 * itself, both 33 bits).  The constants for P = 0x104C11DB7 reflected are
 * the paper's published values.  The tail below 16 bytes goes to zlib,
 * which continues the same CRC.
 */
#include "model/model_fcs.h"

#include <zlib.h>

uint32_t model_fcs32_ref(const uint8_t *p, size_t len)
{
	return (uint32_t)crc32(0L, p, (uInt)len);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define FCS_TARGET __attribute__((target("pclmul,sse4.1")))

/* @acc * (its low half times @k's low, high times high), plus @data */
FCS_TARGET static inline __m128i fold(__m128i acc, __m128i k, __m128i data)
{
	__m128i lo = _mm_clmulepi64_si128(acc, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(acc, k, 0x11);

	return _mm_xor_si128(_mm_xor_si128(lo, hi), data);
}

/* The CRC register (in zlib's complemented form, i.e. before the final
 * complement) after @n bytes at @p, n a multiple of 16 and >= 64, starting
 * from register value @reg. */
FCS_TARGET static uint32_t fold_blocks(const uint8_t *p, size_t n, uint32_t reg)
{
	const __m128i k_512 = _mm_set_epi64x(0x01c6e41596ll, 0x0154442bd4ll);
	const __m128i k_128 = _mm_set_epi64x(0x00ccaa009ell, 0x01751997d0ll);
	const __m128i k_64 = _mm_set_epi64x(0, 0x0163cd6124ll);
	const __m128i barrett = _mm_set_epi64x(0x01f7011641ll, 0x01db710641ll);
	const __m128i low32 = _mm_set_epi32(0, -1, 0, -1);
	__m128i a[4], t;
	size_t off;

	for (unsigned i = 0; i < 4; i++)
		a[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
	a[0] = _mm_xor_si128(a[0], _mm_cvtsi32_si128((int)reg));
	for (off = 64; n - off >= 64; off += 64)
		for (unsigned i = 0; i < 4; i++)
			a[i] = fold(a[i], k_512, _mm_loadu_si128((const __m128i *)
					(const void *)(p + off + 16 * i)));
	/* four accumulators into one */
	t = fold(a[0], k_128, a[1]);
	t = fold(t, k_128, a[2]);
	t = fold(t, k_128, a[3]);
	for (; off < n; off += 16)
		t = fold(t, k_128, _mm_loadu_si128((const __m128i *)(const void *)(p + off)));
	/* 128 -> 64 bits: the low half times x^(128-32) joins the high half */
	t = _mm_xor_si128(_mm_srli_si128(t, 8), _mm_clmulepi64_si128(t, k_128, 0x10));
	/* 64 -> 32 bits (plus the 32 that the reduction eats) */
	t = _mm_xor_si128(_mm_srli_si128(t, 4),
			  _mm_clmulepi64_si128(_mm_and_si128(t, low32), k_64, 0x00));
	/* Barrett: q = (low 32 bits * mu) mod x^32, r = t - q * P */
	{
		__m128i q = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x10);

		q = _mm_clmulepi64_si128(_mm_and_si128(q, low32), barrett, 0x00);
		t = _mm_xor_si128(t, q);
	}
	return (uint32_t)_mm_extract_epi32(t, 1);
}

static int have_clmul = -1;

uint32_t model_fcs32(const uint8_t *p, size_t len)
{
	size_t n = len & ~(size_t)15;
	uint32_t reg;

	if (have_clmul < 0)
		have_clmul = __builtin_cpu_supports("pclmul") &&
			     __builtin_cpu_supports("sse4.1");
	if (!have_clmul || len < 64)
		return model_fcs32_ref(p, len);
	reg = fold_blocks(p, n, 0xffffffffu);
	/* zlib continues from the finished CRC of the first n bytes */
	return (uint32_t)crc32((uLong)~reg, p + n, (uInt)(len - n));
}
#else
uint32_t model_fcs32(const uint8_t *p, size_t len)
{
	return model_fcs32_ref(p, len);
}
#endif
