/* SPDX-License-Identifier: MIT */
/* Module build: "kern/kern_types.h" is Linux itself (rxscale_compat.h). */
#include "rxscale_compat.h"
