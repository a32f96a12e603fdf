/* SPDX-License-Identifier: MIT */
/*
 * slab.h - kmalloc-family allocations of driver structures (Linux
 * include/linux/slab.h) and the gfp_t flags (gfp_types.h).
 */
#ifndef RXSCALE_KERN_SLAB_H
#define RXSCALE_KERN_SLAB_H

#include <stdlib.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define __GFP_NOWARN 0x4u

#define kzalloc(size, gfp) calloc(1, (size))
#define kcalloc(n, size, gfp) calloc((n), (size))
#define kfree(p) free(p)

#endif /* RXSCALE_KERN_SLAB_H */
