/* SPDX-License-Identifier: MIT */
/*
 * pci.h - the PCI driver API subset (Linux include/linux/pci.h).
 *
 * A struct pci_dev wraps the platform's function (struct plat_pci_dev,
 * registered by a device model).  pci_alloc_irq_vectors() follows Linux:
 * MSI-X with between @min_vecs and @max_vecs vectors if allowed, else one
 * MSI vector, else the INTx line; vectors get Linux irq numbers that
 * pci_irq_vector() returns, each with an affinity CPU spread round-robin
 * over the interrupt CPU set.  The kern->fault knobs cap or fail MSI-X and
 * MSI so drivers' fallback paths run.
 */
#ifndef RXSCALE_KERN_PCI_H
#define RXSCALE_KERN_PCI_H

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/module.h>

/* the platform's PCI function (plat layer); opaque to drivers */
struct plat_pci_dev;

/* vectors a function can have (PCI: MSI-X Table Size is 11 bits) */
#define KERN_PCI_MSIX_MAX 2048

#define PCI_IRQ_INTX (1u << 0)
#define PCI_IRQ_LEGACY PCI_IRQ_INTX     /* older kernels' name */
#define PCI_IRQ_MSI (1u << 1)
#define PCI_IRQ_MSIX (1u << 2)
#define PCI_IRQ_ALL_TYPES (PCI_IRQ_INTX | PCI_IRQ_MSI | PCI_IRQ_MSIX)

#define PCI_VENDOR_ID_REALTEK 0x10ec

struct pci_dev {
	struct device dev;
	unsigned short vendor, device;
	struct plat_pci_dev *sim;        /* the platform function */
	bool msix_enabled, msi_enabled;
	unsigned int irq;               /* INTx/MSI irq, or first MSI-X one */
	unsigned int nvec;              /* vectors allocated */
	unsigned int vec_irq[KERN_PCI_MSIX_MAX];
	void *drvdata;
};

struct pci_device_id {
	unsigned short vendor, device;
	unsigned long driver_data;
};

#define PCI_DEVICE(v, d) .vendor = (v), .device = (d)

/* A PCI driver: probe is called for a matching function (Linux struct
 * pci_driver subset). */
struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;   /* ends with a zero vendor */
	int (*probe)(struct pci_dev *pdev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *pdev);
};

/*
 * The module's one driver, registered at load in Linux
 * (pci_register_driver).  The simulator has no module loader: the line
 * makes the driver, static in its file, reachable under the module's name
 * (__KBUILD_MODNAME, "kmod_r8169" as kbuild spells it), as
 * kmod_r8169_pci_driver, for the testbed to bind (kern/kern_modules.h).
 */
#define module_pci_driver(drv) KERN_MODULE_DRIVER(__KBUILD_MODNAME, pci, drv)

/*
 * Bind @drv to @pdev as the PCI core would: find @pdev's vendor:device in
 * the id table and call probe.  Returns probe's result, or -ENODEV if no
 * entry matches.
 */
int kern_pci_probe(struct pci_driver *drv, struct pci_dev *pdev);

/* Unbind: call remove. */
void kern_pci_remove(struct pci_driver *drv, struct pci_dev *pdev);

/* Wrap platform function @sim as a pci_dev named @name ("0000:01:00.0"). */
void kern_pci_dev_init(struct pci_dev *pdev, struct plat_pci_dev *sim,
		       const char *name);

/* Resource types (include/linux/ioport.h) and the standard BAR count. */
#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define PCI_STD_NUM_BARS 6

/* Type flags of BAR @bar: IORESOURCE_IO or IORESOURCE_MEM, 0 if absent. */
unsigned long pci_resource_flags(struct pci_dev *pdev, int bar);

/* Size of BAR @bar in bytes, 0 if absent. */
unsigned long long pci_resource_len(struct pci_dev *pdev, int bar);

/* Bit n set for each BAR n whose type is in @flags (pci_select_bars). */
int pci_select_bars(struct pci_dev *pdev, unsigned long flags);

/* Map BAR @bar (pci_iomap / pcim_iomap); @maxlen 0 = whole BAR.  NULL if
 * the BAR is absent. */
void __iomem *pci_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen);
void pci_iounmap(struct pci_dev *pdev, void __iomem *addr);

/* Managed forms (drivers/pci/devres.c): pci_enable_device() and
 * pci_iomap() undone by the driver core after remove or a failed probe.
 * pcim_enable_device returns 0 or -errno; pcim_iomap NULL on failure. */
int pcim_enable_device(struct pci_dev *pdev);
void __iomem *pcim_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen);

/* The function's bus address as a name, "0000:01:00.0" (pci_name). */
static inline const char *pci_name(const struct pci_dev *pdev)
{
	return dev_name(&pdev->dev);
}

static inline int pci_enable_device(struct pci_dev *pdev)
{
	(void)pdev;
	return 0;
}

static inline void pci_disable_device(struct pci_dev *pdev)
{
	(void)pdev;
}

static inline void pci_set_master(struct pci_dev *pdev)
{
	(void)pdev;
}

static inline void pci_set_drvdata(struct pci_dev *pdev, void *d)
{
	pdev->drvdata = d;
}

static inline void *pci_get_drvdata(struct pci_dev *pdev)
{
	return pdev->drvdata;
}

/*
 * Allocate between @min_vecs and @max_vecs interrupt vectors of the types
 * in @flags (PCI_IRQ_*), preferring MSI-X, then MSI (one vector), then
 * INTx (one).  Returns the number allocated, -EINVAL for bad arguments or
 * vectors already allocated, -ENOSPC when no allowed type can provide
 * @min_vecs.
 */
int pci_alloc_irq_vectors(struct pci_dev *pdev, unsigned int min_vecs,
			  unsigned int max_vecs, unsigned int flags);

/* Release the vectors (handlers must be freed first; logged if not). */
void pci_free_irq_vectors(struct pci_dev *pdev);

/* Linux irq number of vector @nr, or -EINVAL. */
int pci_irq_vector(struct pci_dev *pdev, unsigned int nr);

#endif /* RXSCALE_KERN_PCI_H */
