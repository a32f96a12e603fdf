/* SPDX-License-Identifier: MIT */
/* Module build: "kern/iopoll.h" is Linux itself (rxscale_compat.h). */
#include "rxscale_compat.h"
