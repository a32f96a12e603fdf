/* SPDX-License-Identifier: MIT */
/*
 * module.h - module glue with Linux's names (include/linux/module.h,
 * moduleparam.h, mod_devicetable.h users).
 *
 * The simulator links the drivers into one program and binds them
 * explicitly (kern_pci_probe, kern_usb_probe), so these declare nothing
 * that runs: the MODULE_*() tags compile to checks that the named objects
 * exist.  module_pci_driver() and module_usb_driver() are where Linux has
 * them, in <linux/pci.h> and <linux/usb.h>.  In the kernel module build
 * (kmod/) the same lines are Linux's.
 *
 * module_param*() and MODULE_PARM_DESC() are not here on purpose: netdev
 * takes no new module parameters, so a driver line using one does not
 * build.  Queue counts are ethtool -L's (from the kernel's
 * netif_get_num_default_rss_queues()), the interrupt types the platform's,
 * chip errata the chip row's.
 */
#ifndef RXSCALE_KERN_MODULE_H
#define RXSCALE_KERN_MODULE_H

#define KERN_MODULE_CHECK_(what) _Static_assert(1, what)

#define MODULE_LICENSE(s) KERN_MODULE_CHECK_(s)
#define MODULE_DESCRIPTION(s) KERN_MODULE_CHECK_(s)
#define MODULE_AUTHOR(s) KERN_MODULE_CHECK_(s)
#define MODULE_VERSION(s) KERN_MODULE_CHECK_(s)
#define MODULE_DEVICE_TABLE(type, name) \
	_Static_assert(sizeof(name) > 0, #type " device table")

/* module_pci_driver()/module_usb_driver(): @drv, the module's @bus driver,
 * as the global <@mod>_<@bus>_driver (kmod_r8169_pci_driver). */
#define KERN_MODULE_DRIVER(mod, bus, drv) KERN_MODULE_DRIVER_(mod, bus, drv)
#define KERN_MODULE_DRIVER_(mod, bus, drv)				\
	extern struct bus##_driver *const mod##_##bus##_driver;		\
	struct bus##_driver *const mod##_##bus##_driver = &(drv)

#endif /* RXSCALE_KERN_MODULE_H */
