/* SPDX-License-Identifier: MIT */
/*
 * kern_modules.h - the driver modules linked into the simulator.
 *
 * Linux loads a module and its init registers the driver with its bus
 * (module_pci_driver, module_usb_driver).  The simulator has no loader:
 * those lines make the driver, static in its file as in mainline,
 * reachable as kmod_<module>_<bus>_driver, the module named as kbuild
 * names it (__KBUILD_MODNAME, src/drv/meson.build), and the testbed binds
 * it to a device with kern_pci_probe() or kern_usb_probe().
 */
#ifndef RXSCALE_KERN_MODULES_H
#define RXSCALE_KERN_MODULES_H

#include <linux/pci.h>
#include <linux/usb.h>

/* src/drv/r8169: RTL8125/8126/8127 */
extern struct pci_driver *const kmod_r8169_pci_driver;
/* src/drv/r8152: RTL8157/8159 */
extern struct usb_driver *const kmod_r8152_usb_driver;

#endif /* RXSCALE_KERN_MODULES_H */
