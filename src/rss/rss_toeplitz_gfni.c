/* SPDX-License-Identifier: MIT */
/*
 * rss_toeplitz_gfni.c - the Toeplitz hash with GFNI affine transforms on
 * AVX-512, chosen at run time (rss_thash_init) where the CPU has them.
 *
 * The technique is the published GF(2) view of the hash: the contribution
 * of input byte i to output byte j (hash byte j, most significant first)
 * is a linear map of that byte, an 8x8 bit matrix whose row r holds key
 * bits 8(i+j)+r .. 8(i+j)+r+7.  It depends on m = i + j alone, so there is
 * one matrix M[m] per key byte (from key bytes m and m+1), and
 *
 *     hash byte j = XOR over m of  M[m] * input[m - j].
 *
 * GF2P8AFFINEQB applies one matrix (a qword) to each of the 8 bytes of
 * that qword (Intel SDM, "GF2P8AFFINEQB": result bit b = parity of
 * matrix byte 7-b AND the source byte).  Qword m of a vector gets M[m];
 * its bytes 0..3 get input[m], input[m-1], input[m-2], input[m-3]
 * (VPERMB from the input held in one register, zero where the index is
 * negative); after the transform, byte j of qword m is qword m's share of
 * hash byte j.  XOR-ing all qwords leaves the four hash bytes in bytes
 * 0..3, big-endian.  8 qwords a 512-bit vector: an input of n bytes
 * takes ceil((n + 3) / 8) transforms (2 for 8 and 12 bytes, 5 for 36).
 *
 * The zero-extended key (rss_toeplitz.h) falls out: M[m] for m >= key_len
 * is zero and such qwords are never computed.  Inputs whose last qword
 * would lie past byte 63 of the register (n + 3 > 64 with a key longer
 * than 64 bytes) take the byte-table path.
 */
#include "rss/rss_toeplitz.h"

#include <stdbool.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define GFNI_TARGET __attribute__((target("avx2,avx512f,avx512bw,avx512vbmi,gfni")))

bool rss_thash_gfni_cpu(void)
{
	__builtin_cpu_init();
	/* libgcc checks that the OS saves the AVX-512 state too */
	return __builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi");
}

/* VPERMB indices: block b (qwords m = 8b .. 8b+7), qword q, byte s takes
 * input[8b + q - s]; bytes 4..7 of every qword are unused (masked to
 * zero), as are negative indices in block 0. */
#define Q(b, q) 8 * (b) + (q), 8 * (b) + (q) - 1, 8 * (b) + (q) - 2, \
		8 * (b) + (q) - 3, 0, 0, 0, 0
#define BLOCK(b) Q(b, 0), Q(b, 1), Q(b, 2), Q(b, 3), Q(b, 4), Q(b, 5), \
		 Q(b, 6), Q(b, 7)
static const int8_t perm_idx[RSS_GFNI_QWORDS / 8][64] __attribute__((aligned(64))) = {
	{ BLOCK(0) }, { BLOCK(1) }, { BLOCK(2) }, { BLOCK(3) },
	{ BLOCK(4) }, { BLOCK(5) }, { BLOCK(6) }, { BLOCK(7) },
};
#undef BLOCK
#undef Q

/* block 0: byte s of qword q is live when s < 4 and q - s >= 0 */
#define MASK_BLOCK0 0x0f0f0f0f0f070301ull
#define MASK_BLOCK 0x0f0f0f0f0f0f0f0full

/* Block @b's share: the input bytes it needs, through its 8 matrices. */
#define GFNI_BLOCK(b, mask) _mm512_gf2p8affine_epi64_epi8(			\
	_mm512_maskz_permutexvar_epi8(mask, _mm512_load_si512(perm_idx[b]), in),	\
	_mm512_loadu_si512(&t->gfni[8 * (b)]), 0)

GFNI_TARGET
uint32_t rss_thash_gfni(const struct rss_thash *t, const uint8_t *data, size_t len)
{
	size_t nq = len + 3 < t->key_len ? len + 3 : t->key_len;
	__mmask64 lm = len >= 64 ? ~0ull : (1ull << len) - 1;
	__m512i in, acc;
	__m256i h;
	__m128i q;

	if (!len)
		return 0;
	if (nq > RSS_GFNI_QWORDS)
		return rss_thash_lut(t, data, len);
	in = _mm512_maskz_loadu_epi8(lm, data);
	acc = GFNI_BLOCK(0, MASK_BLOCK0);
	/* the blocks after the first, three-way XORs (0x96) */
	switch ((nq + 7) / 8) {
	case 8: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(7, MASK_BLOCK),
						GFNI_BLOCK(6, MASK_BLOCK), 0x96);
		/* fall through */
	case 6: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(5, MASK_BLOCK),
						GFNI_BLOCK(4, MASK_BLOCK), 0x96);
		/* fall through */
	case 4: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(3, MASK_BLOCK),
						GFNI_BLOCK(2, MASK_BLOCK), 0x96);
		/* fall through */
	case 2: acc = _mm512_xor_si512(acc, GFNI_BLOCK(1, MASK_BLOCK));
		break;
	case 7: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(6, MASK_BLOCK),
						GFNI_BLOCK(5, MASK_BLOCK), 0x96);
		/* fall through */
	case 5: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(4, MASK_BLOCK),
						GFNI_BLOCK(3, MASK_BLOCK), 0x96);
		/* fall through */
	case 3: acc = _mm512_ternarylogic_epi64(acc, GFNI_BLOCK(2, MASK_BLOCK),
						GFNI_BLOCK(1, MASK_BLOCK), 0x96);
		break;
	default:
		break;
	}
	h = _mm256_xor_si256(_mm512_castsi512_si256(acc),
			     _mm512_extracti64x4_epi64(acc, 1));
	q = _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
	q = _mm_xor_si128(q, _mm_unpackhi_epi64(q, q));
	return __builtin_bswap32((uint32_t)_mm_cvtsi128_si32(q));
}

#else

bool rss_thash_gfni_cpu(void)
{
	return false;
}

uint32_t rss_thash_gfni(const struct rss_thash *t, const uint8_t *data, size_t len)
{
	return rss_thash_lut(t, data, len);
}

#endif
