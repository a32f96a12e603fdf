/* SPDX-License-Identifier: MIT */
/*
 * rtnetlink.h - the RTNL mutex (Linux include/linux/rtnetlink.h): the lock
 * that serialises configuration of network devices.  The ethtool netlink
 * handlers, dev_open()/dev_close() callers and a driver's reset work take
 * it; ndo_* and ethtool_ops callbacks run under it.
 *
 * One simulated thread runs at a time here, so the lock is never
 * contended; taking it while it is held is what deadlocks in Linux (a
 * callback that already runs under RTNL taking it again), and is counted
 * in kern->warn.other and logged.
 */
#ifndef RXSCALE_KERN_RTNETLINK_H
#define RXSCALE_KERN_RTNETLINK_H

#include <linux/types.h>

void rtnl_lock(void);
void rtnl_unlock(void);
/* Whether RTNL is held (Linux's rtnl_is_locked()). */
bool rtnl_is_locked(void);

#endif /* RXSCALE_KERN_RTNETLINK_H */
