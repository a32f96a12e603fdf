/* SPDX-License-Identifier: MIT */
/* Module build: "kern/rtnetlink.h" is Linux itself (rxscale_compat.h). */
#include "rxscale_compat.h"
