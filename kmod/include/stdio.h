/* SPDX-License-Identifier: MIT */
/* Module build: <stdio.h> of src/hw and src/drv resolves to the kernel's
 * equivalents (the kernel build has no C library headers). */
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/build_bug.h>
#include <linux/kernel.h>
