// SPDX-License-Identifier: MIT
/*
 * dd.c - the driver core's binding (Linux drivers/base/dd.c): a PCI
 * function or USB interface given to a driver whose id table names it,
 * probe called, and the device's managed resources released after a
 * failed probe and after remove or disconnect, as really_probe() and
 * __device_release_driver() do.
 */
#include <errno.h>

#include <linux/pci.h>
#include <linux/usb.h>

#include "kern/kern.h"

int kern_pci_probe(struct pci_driver *drv, struct pci_dev *pdev)
{
	for (const struct pci_device_id *id = drv->id_table; id && id->vendor; id++)
		if (id->vendor == pdev->vendor && id->device == pdev->device) {
			int rc = drv->probe(pdev, id);

			if (rc)
				devres_release_all(&pdev->dev);
			return rc;
		}
	return -ENODEV;
}

void kern_pci_remove(struct pci_driver *drv, struct pci_dev *pdev)
{
	if (drv->remove)
		drv->remove(pdev);
	devres_release_all(&pdev->dev);
}

int kern_usb_probe(struct usb_driver *drv, struct usb_interface *intf)
{
	const struct usb_device_id *id;
	struct usb_device *udev = interface_to_usbdev(intf);

	if (!drv || !drv->id_table || !drv->probe || !udev)
		return -ENODEV;
	for (id = drv->id_table; id->idVendor; id++)
		if (id->idVendor == udev->idVendor &&
		    id->idProduct == udev->idProduct) {
			int rc = drv->probe(intf, id);

			if (rc)
				devres_release_all(&intf->dev);
			return rc;
		}
	return -ENODEV;
}

void kern_usb_disconnect(struct usb_driver *drv, struct usb_interface *intf)
{
	struct usb_device *udev = interface_to_usbdev(intf);

	if (udev)
		udev->state = USB_STATE_NOTATTACHED;
	if (drv && drv->disconnect)
		drv->disconnect(intf);
	devres_release_all(&intf->dev);
}
