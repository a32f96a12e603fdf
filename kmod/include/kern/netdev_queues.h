/* SPDX-License-Identifier: MIT */
/* Module build: "kern/netdev_queues.h" is Linux itself (rxscale_compat.h). */
#include "rxscale_compat.h"
