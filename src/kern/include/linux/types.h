/* SPDX-License-Identifier: MIT */
/*
 * types.h - the handful of Linux type names and helpers that driver
 * code written in kernel style expects: fixed-width integer names,
 * little-endian wire types, BIT/GENMASK, container_of, READ_ONCE.
 * Every header here includes it, so it also brings what Linux's headers
 * bring a driver without asking: the errno values (<linux/errno.h>) and
 * the string functions (<linux/string.h>), here the C library's.
 *
 * The simulated host is little-endian like every platform the seeds used,
 * so cpu_to_le*() and le*_to_cpu() are the identity on this build; a
 * static assertion refuses to build on a big-endian host rather than
 * silently mis-simulate descriptor byte order.
 */
#ifndef RXSCALE_KERN_TYPES_H
#define RXSCALE_KERN_TYPES_H

#include <arpa/inet.h>	/* htons, ntohs (Linux: <linux/byteorder/generic.h>) */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* The C library's headers include Linux's uapi <linux/types.h> (<sys/stat.h>
 * through <linux/stat.h>, for one), which this header shadows: it takes
 * the uapi types from there, as the kernel's own linux/types.h does: __u8
 * to __s64, and the wire types __le16/32/64 and __be16/32/64 (the
 * device's little-endian descriptor and register words, network order). */
#include_next <linux/types.h>

/* Bus address of host memory as the device sees it (DMA). */
typedef uint64_t dma_addr_t;

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "rxscale simulates a little-endian host");

/* Network (big-endian) order, e.g. skb->protocol and skb->vlan_proto. */
#define cpu_to_be16(x) ((__be16)__builtin_bswap16((u16)(x)))
#define cpu_to_be32(x) ((__be32)__builtin_bswap32((u32)(x)))
#define be16_to_cpu(x) ((u16)__builtin_bswap16((u16)(x)))
#define be32_to_cpu(x) ((u32)__builtin_bswap32((u32)(x)))

#define cpu_to_le16(x) ((__le16)(x))
#define cpu_to_le32(x) ((__le32)(x))
#define cpu_to_le64(x) ((__le64)(x))
#define le16_to_cpu(x) ((u16)(x))
#define le32_to_cpu(x) ((u32)(x))
#define le64_to_cpu(x) ((u64)(x))

#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#define BIT_ULL(n) (1ULL << (n))
/* Bits h..l inclusive set, as the kernel's GENMASK(h, l). */
#define GENMASK(h, l) ((~0UL >> (63 - (h))) & (~0UL << (l)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* Marks a pointer to device registers (sparse's address space in Linux). */
#define __iomem

#define IFNAMSIZ 16

/* n / d rounded up (include/linux/math.h) */
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))

static inline u16 swab16(u16 x)
{
	return (u16)(x << 8 | x >> 8);
}

/* floor(log2(n)), n > 0 */
static inline unsigned int ilog2(unsigned long n)
{
	return 63u - (unsigned int)__builtin_clzl(n);
}

/* ceil(log2(n)); 0 for n <= 1 */
static inline unsigned int order_base_2(unsigned long n)
{
	return n <= 1 ? 0 : ilog2(n - 1) + 1;
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return 1UL << order_base_2(n);
}

/* Inline even where the compiler would not (include/linux/compiler_types.h):
 * for a body specialised per constant argument. */
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has the same */
#define __always_inline inline __attribute__((__always_inline__))
#endif

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

#endif /* RXSCALE_KERN_TYPES_H */
