/* SPDX-License-Identifier: MIT */
/*
 * module.h - module glue with Linux's names (include/linux/module.h,
 * moduleparam.h, mod_devicetable.h users).
 *
 * The simulator links the drivers into one program and binds them
 * explicitly (kern_pci_probe, kern_usb_probe), so these declare nothing
 * that runs: the MODULE_*() tags compile to checks that the named objects
 * exist, module_pci_driver()/module_usb_driver() to a check that the
 * driver object exists.  In the kernel module build (kmod/) the same lines
 * are Linux's.
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
#define module_pci_driver(drv) _Static_assert(sizeof(drv) > 0, #drv)
#define module_usb_driver(drv) _Static_assert(sizeof(drv) > 0, #drv)

#endif /* RXSCALE_KERN_MODULE_H */
