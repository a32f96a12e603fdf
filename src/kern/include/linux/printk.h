/* SPDX-License-Identifier: MIT */
/*
 * printk.h - kernel log messages (Linux include/linux/printk.h and the
 * dev_*()/netdev_*() helpers of device.h and netdevice.h).
 *
 * Messages go to the running kernel's log with a "[seconds.micros]" stamp
 * of the host's clock, as dmesg prints them.
 */
#ifndef RXSCALE_KERN_PRINTK_H
#define RXSCALE_KERN_PRINTK_H

/* Log levels as printk's. */
#define KERN_CRIT_LVL 2
#define KERN_ERR_LVL 3
#define KERN_WARNING_LVL 4
#define KERN_INFO_LVL 6
#define KERN_DEBUG_LVL 7

void kern_printk(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_crit(...) kern_printk(KERN_CRIT_LVL, __VA_ARGS__)
#define pr_err(...) kern_printk(KERN_ERR_LVL, __VA_ARGS__)
#define pr_warn(...) kern_printk(KERN_WARNING_LVL, __VA_ARGS__)
#define pr_info(...) kern_printk(KERN_INFO_LVL, __VA_ARGS__)
#define pr_debug(...) kern_printk(KERN_DEBUG_LVL, __VA_ARGS__)

#define dev_err(dev, fmt, ...) pr_err("%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) pr_warn("%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) pr_info("%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define netdev_crit(ndev, fmt, ...) pr_crit("%s: " fmt, (ndev)->name, ##__VA_ARGS__)
#define netdev_err(ndev, fmt, ...) pr_err("%s: " fmt, (ndev)->name, ##__VA_ARGS__)
#define netdev_warn(ndev, fmt, ...) pr_warn("%s: " fmt, (ndev)->name, ##__VA_ARGS__)
#define netdev_info(ndev, fmt, ...) pr_info("%s: " fmt, (ndev)->name, ##__VA_ARGS__)

#endif /* RXSCALE_KERN_PRINTK_H */
