/* SPDX-License-Identifier: MIT */
/* Module build: "kern/u64_stats_sync.h" is Linux itself (rxscale_compat.h). */
#include "rxscale_compat.h"
