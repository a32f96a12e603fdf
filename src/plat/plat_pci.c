// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "plat/plat_pci.h"

/* The platform's functions, searched by BAR address on MMIO.  A handful at
 * most, so a list is enough. */
static struct plat_pci_dev *dev_list;

/* Configuration space registers (PCI Local Bus 3.0 §6.2, §6.8; PCIe Base
 * 3.0 §7.8).  Offsets and bit meanings are the specs'. */
enum {
	CFG_VENDOR = 0x00, CFG_DEVICE = 0x02, CFG_COMMAND = 0x04,
	CFG_STATUS = 0x06, CFG_REVISION = 0x08, CFG_CLASS = 0x09,
	CFG_CACHE_LINE = 0x0C, CFG_HEADER_TYPE = 0x0E, CFG_BAR0 = 0x10,
	CFG_SUBSYS_VENDOR = 0x2C, CFG_SUBSYS_ID = 0x2E, CFG_CAP_PTR = 0x34,
	CFG_INT_LINE = 0x3C, CFG_INT_PIN = 0x3D,
};
#define CMD_IO          0x0001u
#define CMD_MEMORY      0x0002u
#define CMD_MASTER      0x0004u
#define CMD_INTX_DIS    0x0400u
#define STA_INTX        0x0008u
#define STA_CAP_LIST    0x0010u
#define BAR_IO          0x1u
#define BAR_MEM64       0x4u

#define CAP_ID_MSI      0x05
#define CAP_ID_EXP      0x10
#define CAP_ID_MSIX     0x11

/* MSI capability, 64-bit with per-vector masking (§6.8.1) */
#define MSI_CTL         (PLAT_PCI_CAP_MSI + 2)
#define MSI_ADDR_LO     (PLAT_PCI_CAP_MSI + 4)
#define MSI_ADDR_HI     (PLAT_PCI_CAP_MSI + 8)
#define MSI_DATA        (PLAT_PCI_CAP_MSI + 12)
#define MSI_MASK        (PLAT_PCI_CAP_MSI + 16)
#define MSI_PENDING     (PLAT_PCI_CAP_MSI + 20)
#define MSI_CTL_ENABLE  0x0001u
#define MSI_CTL_64BIT   0x0080u
#define MSI_CTL_PVM     0x0100u

/* MSI-X capability (§6.8.2) */
#define MSIX_CTL        (PLAT_PCI_CAP_MSIX + 2)
#define MSIX_TABLE      (PLAT_PCI_CAP_MSIX + 4)
#define MSIX_PBA        (PLAT_PCI_CAP_MSIX + 8)
#define MSIX_CTL_FMASK  0x4000u
#define MSIX_CTL_ENABLE 0x8000u

/* PCI Express capability, version 2 (PCIe Base 3.0 §7.8) */
#define EXP_FLAGS       (PLAT_PCI_CAP_EXP + 0x02)
#define EXP_DEVCAP      (PLAT_PCI_CAP_EXP + 0x04)
#define EXP_DEVCTL      (PLAT_PCI_CAP_EXP + 0x08)
#define EXP_LNKCAP      (PLAT_PCI_CAP_EXP + 0x0C)
#define EXP_LNKCTL      (PLAT_PCI_CAP_EXP + 0x10)
#define EXP_LNKSTA      (PLAT_PCI_CAP_EXP + 0x12)
#define EXP_LNKCAP2     (PLAT_PCI_CAP_EXP + 0x2C)
#define EXP_LNKCTL2     (PLAT_PCI_CAP_EXP + 0x30)

static uint32_t cfg_get(const struct plat_pci_dev *d, unsigned off, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)d->cfg[off + i] << (8 * i);
	return v;
}

/* Set a register's value and its writable bits (device-side init). */
static void cfg_set(struct plat_pci_dev *d, unsigned off, unsigned n,
		    uint32_t val, uint32_t wmask)
{
	for (unsigned i = 0; i < n; i++) {
		d->cfg[off + i] = (uint8_t)(val >> (8 * i));
		d->cfg_wmask[off + i] = (uint8_t)(wmask >> (8 * i));
	}
}

static void cfg_error(struct plat_pci_dev *d, const char *what, unsigned off,
		      unsigned size)
{
	d->cfg_errors++;
	snprintf(d->last_error, sizeof(d->last_error),
		 "%s: %s (offset 0x%x, %u bytes)", d->name, what, off, size);
}

static bool msix_fmasked(const struct plat_pci_dev *d)
{
	return d->msix_bar >= 0 && (cfg_get(d, MSIX_CTL, 2) & MSIX_CTL_FMASK);
}

/* Build the header and the MSI and PCIe capabilities (reset values). */
static void cfg_init(struct plat_pci_dev *d)
{
	cfg_set(d, CFG_VENDOR, 2, d->vendor, 0);
	cfg_set(d, CFG_DEVICE, 2, d->device, 0);
	cfg_set(d, CFG_COMMAND, 2, 0, CMD_IO | CMD_MEMORY | CMD_MASTER | CMD_INTX_DIS);
	cfg_set(d, CFG_STATUS, 2, STA_CAP_LIST, 0);
	cfg_set(d, CFG_CACHE_LINE, 1, 0, 0xff);
	cfg_set(d, CFG_HEADER_TYPE, 1, 0, 0);
	cfg_set(d, CFG_CAP_PTR, 1, PLAT_PCI_CAP_MSI, 0);
	cfg_set(d, CFG_INT_LINE, 1, 0, 0xff);
	cfg_set(d, CFG_INT_PIN, 1, 1, 0);               /* INTA# */

	/* MSI: one vector (Multiple Message Capable 0), 64-bit, maskable */
	cfg_set(d, PLAT_PCI_CAP_MSI, 1, CAP_ID_MSI, 0);
	cfg_set(d, PLAT_PCI_CAP_MSI + 1, 1, PLAT_PCI_CAP_EXP, 0);
	cfg_set(d, MSI_CTL, 2, MSI_CTL_64BIT | MSI_CTL_PVM, MSI_CTL_ENABLE);
	cfg_set(d, MSI_ADDR_LO, 4, 0, 0xfffffffcu);
	cfg_set(d, MSI_ADDR_HI, 4, 0, 0xffffffffu);
	cfg_set(d, MSI_DATA, 2, 0, 0xffff);
	cfg_set(d, MSI_MASK, 4, 0, 0x1);
	cfg_set(d, MSI_PENDING, 4, 0, 0);

	/* PCI Express v2, endpoint; MaxPayload 128 B supported, Role-Based
	 * Error Reporting; Device Control at its reset value (Relaxed
	 * Ordering, No Snoop, MRRS 512 B); no ASPM, no slot. */
	cfg_set(d, PLAT_PCI_CAP_EXP, 1, CAP_ID_EXP, 0);
	cfg_set(d, PLAT_PCI_CAP_EXP + 1, 1, 0, 0);
	cfg_set(d, EXP_FLAGS, 2, 0x0002, 0);
	cfg_set(d, EXP_DEVCAP, 4, 1u << 15, 0);
	cfg_set(d, EXP_DEVCTL, 2, 0x2810, 0x7fff);
	cfg_set(d, EXP_LNKCTL, 2, 0, 0x0fcb);
}

/* PCIe link facts into the Link Capabilities/Status registers. */
static void cfg_link(struct plat_pci_dev *d, unsigned gen, unsigned width)
{
	cfg_set(d, EXP_LNKCAP, 4, gen | width << 4, 0);
	cfg_set(d, EXP_LNKSTA, 2, gen | width << 4 | 1u << 12, 0);
	cfg_set(d, EXP_LNKCAP2, 4, ((1u << gen) - 1) << 1, 0);
	cfg_set(d, EXP_LNKCTL2, 2, gen, 0x000f);
}

int plat_pci_dev_init(struct plat_pci_dev *d, struct sim_host *host,
		     struct plat_mem *mem, const char *name, uint16_t vendor,
		     uint16_t device, unsigned msix_nvec)
{
	if (msix_nvec > PLAT_PCI_MSIX_MAX || !host || !mem)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->vendor = vendor;
	d->device = device;
	d->host = host;
	d->mem = mem;
	d->msix_nvec = msix_nvec;
	for (unsigned i = 0; i < msix_nvec; i++)
		d->msix[i].masked = true;       /* reset state of the table */
	d->msix_bar = -1;
	cfg_init(d);
	cfg_link(d, 1, 1);
	d->next = dev_list;
	dev_list = d;
	return 0;
}

void plat_pci_dev_fini(struct plat_pci_dev *d)
{
	plat_pci_post_fini(d);
	for (struct plat_pci_dev **pp = &dev_list; *pp; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	for (unsigned b = 0; b < PLAT_PCI_BARS; b++) {
		free(d->bar[b].window);
		d->bar[b].window = NULL;
	}
}

/* Reserve a unique host address range of @size bytes for BAR @bar and
 * give its configuration register the type bits and the size mask (a
 * power of two; the writable bits are the address bits above the size). */
static int bar_reserve(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		       const struct plat_pci_bar_ops *ops, void *opaque, bool io)
{
	bool mem64 = !io && bar + 1 < PLAT_PCI_BARS;
	unsigned reg = CFG_BAR0 + 4 * bar;

	if (size & (size - 1) || d->bar[bar].upper ||
	    (mem64 && d->bar[bar + 1].size && !d->bar[bar + 1].upper))
		return -EINVAL;
	free(d->bar[bar].window);
	d->bar[bar].window = malloc(size);
	if (!d->bar[bar].window)
		return -ENOMEM;
	if (d->bar[bar].mem64 && !mem64) {              /* was 64-bit */
		d->bar[bar + 1].upper = false;
		cfg_set(d, reg + 4, 4, 0, 0);
	}
	d->bar[bar].size = size;
	d->bar[bar].ops = ops;
	d->bar[bar].opaque = opaque;
	d->bar[bar].io = io;
	d->bar[bar].mem64 = mem64;
	if (io) {
		cfg_set(d, reg, 4, BAR_IO, ~(uint32_t)(size - 1) & ~0x3u);
	} else {
		cfg_set(d, reg, 4, mem64 ? BAR_MEM64 : 0,
			~(uint32_t)(size - 1) & ~0xfu);
		if (mem64) {
			d->bar[bar + 1].upper = true;
			cfg_set(d, reg + 4, 4, 0, 0xffffffffu);
		}
	}
	return 0;
}

int plat_pci_set_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		    const struct plat_pci_bar_ops *ops, void *opaque)
{
	if (bar >= PLAT_PCI_BARS || size < 16 || size > (1u << 24) || !ops)
		return -EINVAL;
	/* The window only reserves a unique host address range: registers
	 * are served by @ops, the bytes are never touched. */
	return bar_reserve(d, bar, size, ops, opaque, false);
}

int plat_pci_set_bar_io(struct plat_pci_dev *d, unsigned bar, uint64_t size)
{
	if (bar >= PLAT_PCI_BARS || size < 4 || size > 256)
		return -EINVAL;
	return bar_reserve(d, bar, size, NULL, NULL, true);
}

void *plat_pci_bar_addr(struct plat_pci_dev *d, unsigned bar)
{
	return bar < PLAT_PCI_BARS ? d->bar[bar].window : NULL;
}

static struct plat_pci_dev *find(const volatile void *addr, unsigned size,
				unsigned *bar, uint64_t *off)
{
	uintptr_t a = (uintptr_t)addr;

	for (struct plat_pci_dev *d = dev_list; d; d = d->next) {
		for (unsigned b = 0; b < PLAT_PCI_BARS; b++) {
			uintptr_t base = (uintptr_t)d->bar[b].window;

			if (!base || a < base || a - base >= d->bar[b].size)
				continue;
			*bar = b;
			*off = a - base;
			if (*off + size > d->bar[b].size || d->bar[b].io) {
				d->mmio_errors++;
				return NULL;
			}
			return d;
		}
	}
	return NULL;
}

static bool size_ok(unsigned size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

int plat_pci_mmio_read(const volatile void *addr, unsigned size, uint64_t *val)
{
	unsigned bar;
	uint64_t off;
	struct plat_pci_dev *d = size_ok(size) ? find(addr, size, &bar, &off) : NULL;

	if (!d) {
		*val = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
		return -EFAULT;
	}
	plat_pci_post_flush(d);		/* a read pushes earlier posted writes */
	*val = d->bar[bar].ops->read(d->bar[bar].opaque, off, size);
	if (size < 8)
		*val &= (1ull << (8 * size)) - 1;
	return 0;
}

int plat_pci_mmio_write(volatile void *addr, unsigned size, uint64_t val)
{
	unsigned bar;
	uint64_t off;
	struct plat_pci_dev *d = size_ok(size) ? find(addr, size, &bar, &off) : NULL;

	if (!d)
		return -EFAULT;
	if (size < 8)
		val &= (1ull << (8 * size)) - 1;
	if (d->post_ns)
		return plat_pci_post_write(d, bar, off, size, val);
	d->bar[bar].ops->write(d->bar[bar].opaque, off, val, size);
	return 0;
}

int plat_pci_bar_read(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		     unsigned size, uint64_t *val)
{
	if (bar >= PLAT_PCI_BARS || !d->bar[bar].window || off >= d->bar[bar].size) {
		d->mmio_errors++;
		*val = size >= 8 ? ~0ull : (1ull << (8 * (size & 7))) - 1;
		return -EFAULT;
	}
	return plat_pci_mmio_read(d->bar[bar].window + off, size, val);
}

int plat_pci_bar_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		      unsigned size, uint64_t val)
{
	if (bar >= PLAT_PCI_BARS || !d->bar[bar].window || off >= d->bar[bar].size) {
		d->mmio_errors++;
		return -EFAULT;
	}
	return plat_pci_mmio_write(d->bar[bar].window + off, size, val);
}

/* ----- messages ----- */

/* Hand a message to the transport: a memory write the function may issue
 * only as a bus master. */
static void msg_out(struct plat_pci_dev *d, uint64_t addr, uint32_t data)
{
	if (!(cfg_get(d, CFG_COMMAND, 2) & CMD_MASTER)) {
		d->msgs_dropped++;
		return;
	}
	d->msgs_out++;
	d->msg(d->msg_opaque, addr, data);
}

/* A message by index to a table-owning transport (bus masters only). */
static void vec_out(struct plat_pci_dev *d, enum plat_pci_irq_mode mode,
		    unsigned vec)
{
	if (!(cfg_get(d, CFG_COMMAND, 2) & CMD_MASTER)) {
		d->msgs_dropped++;
		return;
	}
	d->msgs_out++;
	d->vec(d->msg_opaque, mode, vec);
}

static void send(struct plat_pci_dev *d, unsigned vec)
{
	struct plat_pci_msix_ent *e = &d->msix[vec];

	if (!e->irq && !d->msg) {
		d->lost_msgs++;
		return;
	}
	e->sent++;
	if (d->msg)
		msg_out(d, e->addr, e->data);
	if (e->irq)
		sim_irq_raise(e->irq);
}

static uint64_t msi_addr(const struct plat_pci_dev *d)
{
	return cfg_get(d, MSI_ADDR_LO, 4) | (uint64_t)cfg_get(d, MSI_ADDR_HI, 4) << 32;
}

static void msi_send(struct plat_pci_dev *d)
{
	if (d->vec) {
		vec_out(d, PLAT_PCI_IRQ_MSI, 0);
		return;
	}
	if (!d->single_irq && !d->msg) {
		d->lost_msgs++;
		return;
	}
	if (d->msg)
		msg_out(d, msi_addr(d), cfg_get(d, MSI_DATA, 2));
	if (d->single_irq)
		sim_irq_raise(d->single_irq);
}

int plat_pci_msix_notify(struct plat_pci_dev *d, unsigned vec)
{
	switch (d->irq_mode) {
	case PLAT_PCI_IRQ_MSIX:
		if (vec >= d->msix_nvec)
			return -EINVAL;
		if (d->vec) {           /* the transport's table masks */
			d->msix[vec].sent++;
			vec_out(d, PLAT_PCI_IRQ_MSIX, vec);
			return 0;
		}
		if (d->msix[vec].masked || msix_fmasked(d)) {
			d->msix[vec].pending = true;
			d->msix[vec].held++;
			return 0;
		}
		send(d, vec);
		return 0;
	case PLAT_PCI_IRQ_MSI:
		if (cfg_get(d, MSI_MASK, 1) & 1) {
			d->cfg[MSI_PENDING] |= 1;
			d->msi_held++;
			return 0;
		}
		msi_send(d);
		return 0;
	default:
		d->lost_msgs++;
		return 0;
	}
}

/* The INTx line as the host sees it, told to the transport on change: not
 * while Interrupt Disable is set, nor while MSI or MSI-X is enabled (a
 * function using messages does not assert INTx). */
static void intx_tell(struct plat_pci_dev *d)
{
	bool out = d->intx_level && !(cfg_get(d, CFG_COMMAND, 2) & CMD_INTX_DIS) &&
		   d->irq_mode != PLAT_PCI_IRQ_MSI && d->irq_mode != PLAT_PCI_IRQ_MSIX;

	if (d->intx && out != d->intx_out) {
		d->intx_out = out;
		d->intx(d->msg_opaque, out);
	}
}

static void intx_eoi(struct sim_irq *irq, void *arg)
{
	struct plat_pci_dev *d = arg;

	if (d->irq_mode == PLAT_PCI_IRQ_INTX && d->intx_level &&
	    !(cfg_get(d, CFG_COMMAND, 2) & CMD_INTX_DIS))
		sim_irq_raise(irq);
}

void plat_pci_intx_set(struct plat_pci_dev *d, bool level)
{
	bool rise = level && !d->intx_level;

	d->intx_level = level;
	if (level)
		d->cfg[CFG_STATUS] |= STA_INTX;
	else
		d->cfg[CFG_STATUS] &= (uint8_t)~STA_INTX;
	intx_tell(d);
	if (rise && d->irq_mode == PLAT_PCI_IRQ_INTX && d->single_irq &&
	    !(cfg_get(d, CFG_COMMAND, 2) & CMD_INTX_DIS))
		sim_irq_raise(d->single_irq);
}

/* The MSI and MSI-X enable bits follow the mode (kern path). */
static void cfg_show_mode(struct plat_pci_dev *d)
{
	uint16_t msi = (uint16_t)cfg_get(d, MSI_CTL, 2) & ~MSI_CTL_ENABLE;

	if (d->irq_mode == PLAT_PCI_IRQ_MSI)
		msi |= MSI_CTL_ENABLE;
	d->cfg[MSI_CTL] = (uint8_t)msi;
	if (d->msix_bar >= 0) {
		if (d->irq_mode == PLAT_PCI_IRQ_MSIX)
			d->cfg[MSIX_CTL + 1] |= MSIX_CTL_ENABLE >> 8;
		else
			d->cfg[MSIX_CTL + 1] &= (uint8_t)~(MSIX_CTL_ENABLE >> 8);
	}
}

void plat_pci_set_irq_mode(struct plat_pci_dev *d, enum plat_pci_irq_mode mode,
			  struct sim_irq *single)
{
	d->irq_mode = mode;
	d->single_irq = single;
	if (mode == PLAT_PCI_IRQ_INTX && single) {
		single->eoi = intx_eoi;
		single->eoi_arg = d;
	}
	cfg_show_mode(d);
	intx_tell(d);
}

int plat_pci_msix_bind(struct plat_pci_dev *d, unsigned vec, struct sim_irq *irq)
{
	if (vec >= d->msix_nvec)
		return -EINVAL;
	d->msix[vec].irq = irq;
	return 0;
}

int plat_pci_msix_mask(struct plat_pci_dev *d, unsigned vec, bool masked)
{
	struct plat_pci_msix_ent *e;

	if (vec >= d->msix_nvec)
		return -EINVAL;
	e = &d->msix[vec];
	e->masked = masked;
	if (!masked && e->pending && d->irq_mode == PLAT_PCI_IRQ_MSIX &&
	    !msix_fmasked(d)) {
		e->pending = false;
		send(d, vec);
	}
	return 0;
}

/* Send what is pending on unmasked vectors (Function Mask cleared, MSI-X
 * enabled). */
static void msix_flush(struct plat_pci_dev *d)
{
	if (d->irq_mode != PLAT_PCI_IRQ_MSIX || msix_fmasked(d))
		return;
	for (unsigned v = 0; v < d->msix_nvec; v++) {
		if (d->msix[v].pending && !d->msix[v].masked) {
			d->msix[v].pending = false;
			send(d, v);
		}
	}
}

void plat_pci_set_transport(struct plat_pci_dev *d, plat_pci_msg_fn msg,
			   plat_pci_intx_fn intx, void *opaque)
{
	d->msg = msg;
	d->vec = NULL;
	d->intx = intx;
	d->msg_opaque = opaque;
	d->intx_out = false;
	intx_tell(d);
}

void plat_pci_set_vec_transport(struct plat_pci_dev *d, plat_pci_vec_fn vec,
				plat_pci_intx_fn intx, void *opaque)
{
	d->msg = NULL;
	d->vec = vec;
	d->intx = intx;
	d->msg_opaque = opaque;
	d->intx_out = false;
	intx_tell(d);
}

/* ----- the MSI-X table and PBA in their BAR ----- */

static uint32_t msix_dword_read(struct plat_pci_dev *d, uint64_t off, bool count)
{
	uint64_t t = off - d->msix_table_off, p = off - d->msix_pba_off;

	if (off >= d->msix_table_off && t < 16ull * d->msix_nvec) {
		const struct plat_pci_msix_ent *e = &d->msix[t / 16];

		switch (t % 16) {
		case 0: return (uint32_t)e->addr;
		case 4: return (uint32_t)(e->addr >> 32);
		case 8: return e->data;
		default: return e->masked ? 1u : 0u;
		}
	}
	if (off >= d->msix_pba_off && p < 8ull * ((d->msix_nvec + 63) / 64)) {
		uint32_t v = 0;

		for (unsigned b = 0; b < 32; b++) {
			unsigned vec = (unsigned)(p / 4) * 32 + b;

			if (vec < d->msix_nvec && d->msix[vec].pending)
				v |= 1u << b;
		}
		return v;
	}
	if (count)
		cfg_error(d, "MSI-X BAR read outside table and PBA", (unsigned)off, 4);
	return 0;
}

static void msix_dword_write(struct plat_pci_dev *d, uint64_t off, uint32_t val)
{
	uint64_t t = off - d->msix_table_off;

	if (off >= d->msix_table_off && t < 16ull * d->msix_nvec) {
		unsigned vec = (unsigned)(t / 16);
		struct plat_pci_msix_ent *e = &d->msix[vec];

		switch (t % 16) {
		case 0:
			e->addr = (e->addr & ~0xffffffffull) | (val & ~0x3u);
			break;
		case 4:
			e->addr = (e->addr & 0xffffffffull) | (uint64_t)val << 32;
			break;
		case 8:
			e->data = val;
			break;
		default:        /* Vector Control: only the mask bit */
			plat_pci_msix_mask(d, vec, val & 1);
			break;
		}
		return;
	}
	cfg_error(d, off >= d->msix_pba_off &&
		  off - d->msix_pba_off < 8ull * ((d->msix_nvec + 63) / 64) ?
		  "write to the read-only MSI-X PBA" :
		  "MSI-X BAR write outside table and PBA", (unsigned)off, 4);
}

/* Any naturally aligned 1, 2, 4 or 8-byte access, built from DWORDs. */
static uint64_t msix_bar_read(void *opaque, uint64_t off, unsigned size)
{
	struct plat_pci_dev *d = opaque;
	uint64_t v;

	if (off & (size - 1)) {
		cfg_error(d, "misaligned MSI-X BAR read", (unsigned)off, size);
		return 0;
	}
	if (size == 8)
		return msix_dword_read(d, off, true) |
		       (uint64_t)msix_dword_read(d, off + 4, true) << 32;
	v = msix_dword_read(d, off & ~3ull, true) >> (8 * (off & 3));
	return size == 4 ? v : v & ((1ull << (8 * size)) - 1);
}

static void msix_bar_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
	struct plat_pci_dev *d = opaque;
	unsigned sh = 8 * (off & 3);
	uint32_t m, old;

	if (off & (size - 1)) {
		cfg_error(d, "misaligned MSI-X BAR write", (unsigned)off, size);
		return;
	}
	if (size == 8) {
		msix_dword_write(d, off, (uint32_t)val);
		msix_dword_write(d, off + 4, (uint32_t)(val >> 32));
		return;
	}
	if (size == 4) {
		msix_dword_write(d, off, (uint32_t)val);
		return;
	}
	m = ((1u << (8 * size)) - 1) << sh;
	off &= ~3ull;
	old = msix_dword_read(d, off, false);
	msix_dword_write(d, off, (old & ~m) | (((uint32_t)val << sh) & m));
}

static const struct plat_pci_bar_ops msix_bar_ops = {
	.read = msix_bar_read,
	.write = msix_bar_write,
};

int plat_pci_set_msix_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
			 uint32_t table_off, uint32_t pba_off)
{
	uint64_t tlen = 16ull * d->msix_nvec, plen = 8ull * ((d->msix_nvec + 63) / 64);
	int rc;

	if (!d->msix_nvec || bar >= PLAT_PCI_BARS || size < 16 || size > (1u << 24) ||
	    (table_off | pba_off) & 7 || table_off + tlen > size ||
	    pba_off + plen > size ||
	    (table_off < pba_off + plen && pba_off < table_off + tlen))
		return -EINVAL;
	rc = bar_reserve(d, bar, size, &msix_bar_ops, d, false);
	if (rc)
		return rc;
	d->msix_bar = (int)bar;
	d->msix_table_off = table_off;
	d->msix_pba_off = pba_off;
	cfg_set(d, PLAT_PCI_CAP_EXP + 1, 1, PLAT_PCI_CAP_MSIX, 0);
	cfg_set(d, PLAT_PCI_CAP_MSIX, 1, CAP_ID_MSIX, 0);
	cfg_set(d, PLAT_PCI_CAP_MSIX + 1, 1, 0, 0);
	cfg_set(d, MSIX_CTL, 2, d->msix_nvec - 1, MSIX_CTL_ENABLE | MSIX_CTL_FMASK);
	cfg_set(d, MSIX_TABLE, 4, table_off | bar, 0);
	cfg_set(d, MSIX_PBA, 4, pba_off | bar, 0);
	cfg_show_mode(d);
	return 0;
}

/* ----- configuration space ----- */

int plat_pci_set_cfg_id(struct plat_pci_dev *d, const struct plat_pci_cfg_id *id)
{
	if (!id || id->class_code > 0xffffff || !id->link_gen || id->link_gen > 5 ||
	    !id->link_width || id->link_width > 32)
		return -EINVAL;
	cfg_set(d, CFG_REVISION, 1, id->revision, 0);
	cfg_set(d, CFG_CLASS, 3, id->class_code, 0);
	cfg_set(d, CFG_SUBSYS_VENDOR, 2, id->subsys_vendor, 0);
	cfg_set(d, CFG_SUBSYS_ID, 2, id->subsys_device, 0);
	cfg_link(d, id->link_gen, id->link_width);
	return 0;
}

static bool cfg_access_ok(struct plat_pci_dev *d, unsigned off, unsigned size,
			  const char *what)
{
	if ((size != 1 && size != 2 && size != 4) || off % size ||
	    off >= PLAT_PCI_CFG_SIZE) {
		cfg_error(d, what, off, size);
		return false;
	}
	return true;
}

int plat_pci_cfg_read(struct plat_pci_dev *d, unsigned off, unsigned size,
		     uint32_t *val)
{
	if (!cfg_access_ok(d, off, size, "bad config read")) {
		*val = 0xffffffffu;
		return -EINVAL;
	}
	plat_pci_post_flush(d);		/* non-posted: behind the posted writes */
	*val = off < PLAT_PCI_CFG_STORED ? cfg_get(d, off, size) : 0;
	return 0;
}

static bool overlaps(unsigned off, unsigned size, unsigned reg, unsigned n)
{
	return off < reg + n && reg < off + size;
}

int plat_pci_cfg_write(struct plat_pci_dev *d, unsigned off, unsigned size,
		      uint32_t val)
{
	uint16_t msi_old = (uint16_t)cfg_get(d, MSI_CTL, 2);
	bool msi_masked = cfg_get(d, MSI_MASK, 1) & 1;

	if (!cfg_access_ok(d, off, size, "bad config write"))
		return -EINVAL;
	if (off >= PLAT_PCI_CFG_STORED)
		return 0;
	plat_pci_post_flush(d);		/* non-posted: behind the posted writes */
	if (!d->cfg_reset_taken) {
		memcpy(d->cfg_reset, d->cfg, sizeof(d->cfg));
		d->irq_mode_reset = d->irq_mode;
		d->cfg_reset_taken = true;
	}
	for (unsigned i = 0; i < size; i++) {
		uint8_t m = d->cfg_wmask[off + i];

		d->cfg[off + i] = (uint8_t)((d->cfg[off + i] & ~m) |
					    ((val >> (8 * i)) & m));
	}
	if (overlaps(off, size, CFG_COMMAND, 2))
		intx_tell(d);
	if (overlaps(off, size, MSI_CTL, 2) ||
	    (d->msix_bar >= 0 && overlaps(off, size, MSIX_CTL, 2))) {
		/* the guest selects the mode: MSI-X over MSI over INTx */
		bool msix = d->msix_bar >= 0 &&
			    (cfg_get(d, MSIX_CTL, 2) & MSIX_CTL_ENABLE);
		bool msi = cfg_get(d, MSI_CTL, 2) & MSI_CTL_ENABLE;

		if (msix)
			d->irq_mode = PLAT_PCI_IRQ_MSIX;
		else if (msi)
			d->irq_mode = PLAT_PCI_IRQ_MSI;
		else if (d->irq_mode == PLAT_PCI_IRQ_MSIX ||
			 ((msi_old & MSI_CTL_ENABLE) && d->irq_mode == PLAT_PCI_IRQ_MSI))
			d->irq_mode = PLAT_PCI_IRQ_INTX;
		msix_flush(d);
		intx_tell(d);
	}
	if (overlaps(off, size, MSI_MASK, 1) && msi_masked &&
	    !(cfg_get(d, MSI_MASK, 1) & 1) && (d->cfg[MSI_PENDING] & 1) &&
	    d->irq_mode == PLAT_PCI_IRQ_MSI) {
		d->cfg[MSI_PENDING] &= (uint8_t)~1u;
		msi_send(d);
	}
	return 0;
}

void plat_pci_function_reset(struct plat_pci_dev *d)
{
	plat_pci_post_flush(d);
	if (d->cfg_reset_taken) {
		memcpy(d->cfg, d->cfg_reset, sizeof(d->cfg));
		d->irq_mode = d->irq_mode_reset;
	}
	for (unsigned i = 0; i < d->msix_nvec; i++) {
		d->msix[i].masked = true;
		d->msix[i].pending = false;
		d->msix[i].addr = 0;
		d->msix[i].data = 0;
	}
	d->flrs++;
	if (d->reset_fn)
		d->reset_fn(d->reset_opaque);
	intx_tell(d);
}
