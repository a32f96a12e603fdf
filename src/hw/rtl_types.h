/* SPDX-License-Identifier: MIT */
/*
 * rtl_types.h - what the datasheet tables need of C: fixed-width
 * integers, bool, offsetof and static_assert.  The tables are shared by
 * the device model (a C program) and the drivers, which also build as
 * Linux kernel modules (kmod/), where the C library's headers do not
 * exist and <linux/kernel.h> has all four.
 */
#ifndef RXSCALE_HW_RTL_TYPES_H
#define RXSCALE_HW_RTL_TYPES_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#else
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#endif /* RXSCALE_HW_RTL_TYPES_H */
