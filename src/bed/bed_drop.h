/* SPDX-License-Identifier: MIT */
/* bed_drop.h - one drop reason of a NIC (device or driver) and its count,
 * as the testbed's NIC ops list them and the report prints them. */
#ifndef RXSCALE_BED_DROP_H
#define RXSCALE_BED_DROP_H

#include <stdint.h>

struct bed_drop_reason {
	const char *name;
	uint64_t n;
};

#endif /* RXSCALE_BED_DROP_H */
