/* SPDX-License-Identifier: MIT */
/*
 * plat_pci.h - the platform's PCI function: BARs routed to a device
 * model's register handlers, MSI-X / MSI / INTx delivery to host
 * interrupts, and DMA into simulated host memory.
 *
 * The device model owns a struct plat_pci_dev and fills in its BAR handlers;
 * the kernel layer (src/kern/pci.c) binds interrupt vectors and maps BARs.
 * The model never sees the driver: it calls plat_pci_msix_notify() and
 * plat_pci_dma_*(), nothing else.
 *
 * MSI-X semantics (PCI Local Bus spec 3.0 §6.8.2, as QEMU's hw/pci/msix.c
 * also models them): a message for a masked vector sets its Pending Bit
 * instead of being sent; unmasking a vector whose Pending Bit is set sends
 * the message and clears the bit.  The Function Mask bit of the MSI-X
 * capability masks every vector the same way; clearing it sends what is
 * pending on unmasked vectors.
 *
 * Two host sides use a function.  The simulator's in-process kernel
 * (src/kern/pci.c) binds sim_irqs with plat_pci_msix_bind() and masks with
 * plat_pci_msix_mask(); it never touches configuration space.  A
 * device-side transport (the virt-pci server: a real kernel) reads and
 * writes configuration space (plat_pci_cfg_read/write), programs the MSI-X
 * table and PBA through the MSI-X BAR, and receives each message, with the
 * address and data the guest programmed, through the msg callback.  Both
 * share one mask/pending state per entry and one interrupt mode: enabling
 * MSI-X or MSI in configuration space selects the mode, and
 * plat_pci_set_irq_mode() shows in the enable bits.
 *
 * Configuration space (PCI Local Bus 3.0 ch. 6, PCIe Base 3.0 ch. 7): a
 * type 0 header; capabilities MSI at 0x50 (64-bit, per-vector masking, one
 * vector), PCI Express at 0x70 (v2, endpoint, minimal) and, once the model
 * gives a table BAR, MSI-X at 0xB0 (offsets as lspci shows them on RTL8125
 * boards).  No Power Management capability, no extended capabilities
 * (0x100 reads 0, which ends the extended list).  Registers not listed read
 * 0 and ignore writes.
 */
#ifndef RXSCALE_PLAT_PCI_H
#define RXSCALE_PLAT_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "plat/plat_mem.h"
#include "sim/sim_host.h"

#define PLAT_PCI_BARS 6
#define PLAT_PCI_MSIX_MAX 512
#define PLAT_PCI_CFG_SIZE 4096          /* PCIe extended configuration space */
#define PLAT_PCI_CFG_STORED 256         /* bytes kept; the rest reads 0 */

/* Capability offsets in configuration space. */
#define PLAT_PCI_CAP_MSI 0x50
#define PLAT_PCI_CAP_EXP 0x70
#define PLAT_PCI_CAP_MSIX 0xB0

/* A message a transport sends to the host: a DWORD write of @data to
 * @addr (MSI-X table entry or MSI capability, as the guest programmed). */
typedef void (*plat_pci_msg_fn)(void *opaque, uint64_t addr, uint32_t data);
/* The INTx line as the host sees it (asserted and not disabled in the
 * command register) changed. */
typedef void (*plat_pci_intx_fn)(void *opaque, bool level);
enum plat_pci_irq_mode;
/* A message by index, for a transport that owns the MSI-X table itself
 * (vfio-user: QEMU emulates table and PBA): MSI-X vector @vec, or the MSI
 * message (@vec 0). */
typedef void (*plat_pci_vec_fn)(void *opaque, enum plat_pci_irq_mode mode,
				unsigned vec);

/* Register access handlers of one BAR; @off is relative to the BAR, @size
 * is 1, 2, 4 or 8 bytes.  They run inside the accessing CPU's frame. */
struct plat_pci_bar_ops {
	uint64_t (*read)(void *opaque, uint64_t off, unsigned size);
	void (*write)(void *opaque, uint64_t off, uint64_t val, unsigned size);
};

enum plat_pci_irq_mode {
	PLAT_PCI_IRQ_NONE,
	PLAT_PCI_IRQ_INTX,
	PLAT_PCI_IRQ_MSI,
	PLAT_PCI_IRQ_MSIX,
};

struct plat_pci_msix_ent {
	struct sim_irq *irq;            /* host interrupt it targets, or NULL */
	bool masked;                    /* Vector Control mask bit */
	bool pending;                   /* Pending Bit Array */
	uint64_t addr;                  /* Message Address (table) */
	uint32_t data;                  /* Message Data (table) */
	uint64_t sent;                  /* messages delivered */
	uint64_t held;                  /* messages turned into pending bits */
};

/* The configuration-space identity a device model gives its function. */
struct plat_pci_cfg_id {
	uint8_t revision;
	uint32_t class_code;            /* base class << 16 | sub << 8 | prog-if */
	uint16_t subsys_vendor, subsys_device;
	uint8_t link_gen;               /* PCIe max link speed 1..5 (2.5..32 GT/s) */
	uint8_t link_width;             /* lanes, 1..32 */
};

struct plat_pci_dma_ops;

struct plat_pci_dev {
	char name[32];
	uint16_t vendor, device;
	struct {
		uint64_t size;                  /* bytes, 0 = absent */
		const struct plat_pci_bar_ops *ops;
		void *opaque;
		unsigned char *window;          /* host address range of the BAR */
		bool io;                        /* I/O space BAR (not served) */
		bool mem64;                     /* 64-bit memory BAR */
		bool upper;                     /* upper half of BAR n-1 */
	} bar[PLAT_PCI_BARS];
	struct sim_host *host;
	struct plat_mem *mem;                    /* where DMA goes */
	const struct plat_pci_dma_ops *dma_ops;  /* or there, if set */
	void *dma_opaque;
	unsigned msix_nvec;                     /* table size (device cap) */
	struct plat_pci_msix_ent msix[PLAT_PCI_MSIX_MAX];
	enum plat_pci_irq_mode irq_mode;
	struct sim_irq *single_irq;             /* MSI or INTx target */
	bool intx_level;                        /* INTx line asserted */
	uint64_t lost_msgs;                     /* notify with no vector bound */
	uint64_t mmio_errors;                   /* access to no BAR / bad size */
	/* configuration space: register bytes and their writable bits */
	uint8_t cfg[PLAT_PCI_CFG_STORED];
	uint8_t cfg_wmask[PLAT_PCI_CFG_STORED];
	/* the state a function-level reset returns to: config space and
	 * interrupt mode as they were before the first config write */
	uint8_t cfg_reset[PLAT_PCI_CFG_STORED];
	enum plat_pci_irq_mode irq_mode_reset;
	bool cfg_reset_taken;
	void (*reset_fn)(void *opaque);		/* the function's own state */
	void *reset_opaque;
	uint64_t flrs;				/* function-level resets */
	int msix_bar;                           /* BAR of table and PBA, -1 none */
	uint32_t msix_table_off, msix_pba_off;
	/* transport side: messages out (msg), INTx line (intx) */
	plat_pci_msg_fn msg;
	plat_pci_intx_fn intx;
	plat_pci_vec_fn vec;                    /* or messages by index */
	void *msg_opaque;
	bool intx_out;                          /* level last given to intx */
	uint64_t msgs_out;                      /* messages given to msg */
	uint64_t msgs_dropped;                  /* bus mastering off: not sent */
	uint64_t msi_held;                      /* MSI messages held by its mask */
	uint64_t cfg_errors;                    /* bad config / MSI-X BAR access */
	char last_error[96];
	/* posted MMIO writes (plat_pci_post.c): delay, the writes in
	 * flight (a ring), how many were posted and how many a read flushed */
	sim_time_t post_ns;
	struct plat_pci_posted *post_q;
	unsigned post_head, post_n, post_cap;
	struct sim_event post_ev;
	bool post_ev_init;
	uint64_t posted_writes, posted_flushed;
	struct plat_pci_dev *next;               /* platform's device list */
};

/*
 * Register a function @name with IDs @vendor:@device and @msix_nvec MSI-X
 * table entries (0..PLAT_PCI_MSIX_MAX) on @host, DMA into @mem.  Returns 0
 * or -EINVAL.
 */
int plat_pci_dev_init(struct plat_pci_dev *d, struct sim_host *host,
		     struct plat_mem *mem, const char *name, uint16_t vendor,
		     uint16_t device, unsigned msix_nvec);

/* Unregister and release the BAR windows. */
void plat_pci_dev_fini(struct plat_pci_dev *d);

/* Give BAR @bar @size bytes served by @ops.  Returns 0, -EINVAL, -ENOMEM. */
int plat_pci_set_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
		    const struct plat_pci_bar_ops *ops, void *opaque);

/* Give BAR @bar @size bytes of I/O port space.  Port I/O is not modelled:
 * the BAR exists (its type and size are visible, as lspci shows them),
 * but an access through it reads all ones and is counted in mmio_errors.
 * Returns 0, -EINVAL, -ENOMEM. */
int plat_pci_set_bar_io(struct plat_pci_dev *d, unsigned bar, uint64_t size);

/* A memory BAR is 64-bit non-prefetchable (it takes BAR @bar + 1 as its
 * upper half) unless @bar is 5, which is 32-bit; a BAR that would overlap
 * another 64-bit BAR's halves is -EINVAL. */

/*
 * Serve the MSI-X table and PBA in memory BAR @bar of @size bytes: the
 * table (16 bytes per entry) at @table_off, the PBA (one bit per entry in
 * QWORDs) at @pba_off, both 8-byte aligned, apart, inside the BAR.  Adds
 * the MSI-X capability (table size msix_nvec).  Access to the rest of the
 * BAR reads 0, ignores writes and is counted in cfg_errors; so is a write
 * to the PBA.  Returns 0, -EINVAL (no MSI-X entries, bad layout), -ENOMEM.
 */
int plat_pci_set_msix_bar(struct plat_pci_dev *d, unsigned bar, uint64_t size,
			 uint32_t table_off, uint32_t pba_off);

/* Host address of BAR @bar (pci_iomap); NULL if absent. */
void *plat_pci_bar_addr(struct plat_pci_dev *d, unsigned bar);

/*
 * CPU access to a mapped BAR address (readl/writel).  @size is 1, 2, 4 or
 * 8.  An address inside no BAR, or one crossing a BAR's end, reads as all
 * ones and returns -EFAULT (counted on the function when it is known).
 */
int plat_pci_mmio_read(const volatile void *addr, unsigned size, uint64_t *val);
/* A function-level reset (PCIe Base 3.0 s6.6.2; what VFIO_DEVICE_RESET asks
 * of a device): writes in flight land, configuration space (Command, MSI,
 * MSI-X control, BAR registers) and the MSI-X table return to their reset
 * state (every vector masked), and @d's reset_fn resets the function's own
 * registers and engines (plat_pci_set_reset_fn). */
void plat_pci_function_reset(struct plat_pci_dev *d);
static inline void plat_pci_set_reset_fn(struct plat_pci_dev *d, void (*fn)(void *opaque),
					 void *opaque)
{
	d->reset_fn = fn;
	d->reset_opaque = opaque;
}
/* Host writes to @d's BARs take effect @post_ns after they are issued, in
 * order; a read of any of its BARs first applies every write in flight
 * (PCIe ordering; plat_pci_post.c).  0 = at once (the default). */
void plat_pci_set_posted_writes(struct plat_pci_dev *d, sim_time_t post_ns);
/* (plat_pci_post.c, for plat_pci.c) */
struct plat_pci_posted;
int plat_pci_post_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
			unsigned size, uint64_t val);
void plat_pci_post_flush(struct plat_pci_dev *d);
void plat_pci_post_fini(struct plat_pci_dev *d);
int plat_pci_mmio_write(volatile void *addr, unsigned size, uint64_t val);

/* BAR-relative access (a transport routing the guest's MMIO by BAR index
 * and offset): as plat_pci_mmio_read/write at plat_pci_bar_addr() + @off. */
int plat_pci_bar_read(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		     unsigned size, uint64_t *val);
int plat_pci_bar_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		      unsigned size, uint64_t val);

/* ----- configuration space ----- */

/* Set revision, class code, subsystem IDs and PCIe link of the function
 * (plat_pci_dev_init gives vendor/device, class 0, revision 0, subsystem
 * 0:0, PCIe gen 1 x1).  Returns 0 or -EINVAL. */
int plat_pci_set_cfg_id(struct plat_pci_dev *d, const struct plat_pci_cfg_id *id);

/*
 * A configuration read or write of @size (1, 2 or 4) bytes at @off
 * (naturally aligned, below PLAT_PCI_CFG_SIZE), little-endian.  A bad size
 * or offset returns -EINVAL, reads all ones and is counted in cfg_errors
 * (with last_error); nothing is fatal.  Unimplemented registers read 0 and
 * ignore writes; read-only bits ignore writes.  BARs follow the sizing
 * protocol (write all ones, read back the size mask and type bits).
 */
int plat_pci_cfg_read(struct plat_pci_dev *d, unsigned off, unsigned size,
		     uint32_t *val);
int plat_pci_cfg_write(struct plat_pci_dev *d, unsigned off, unsigned size,
		      uint32_t val);

/*
 * A transport's message sink.  With @msg set, every MSI-X message (or MSI
 * message) the function sends calls @msg with the entry's (capability's)
 * address and data, in addition to raising the bound sim_irq if there is
 * one; a message with neither is counted in lost_msgs.  @msg is called only
 * while the command register's Bus Master Enable bit is set: without it
 * the function may not write memory, so the message is dropped (counted in
 * msgs_dropped), as QEMU drops it.  @intx, if set, hears the INTx line
 * (asserted and not disabled by the command register's Interrupt Disable).
 * NULL callbacks detach.
 */
void plat_pci_set_transport(struct plat_pci_dev *d, plat_pci_msg_fn msg,
			   plat_pci_intx_fn intx, void *opaque);

/*
 * A transport that owns the MSI-X table and PBA (its host emulates them,
 * as QEMU's vfio-pci does: the guest's table writes never reach the
 * device).  Every MSI-X message goes to @vec by its vector index, with no
 * masking here (the owner masks and keeps pending bits); MSI goes to @vec
 * as vector 0 after the capability's own mask; INTx to @intx as above.
 * Configuration space still selects the mode (MSI-X / MSI enable bits),
 * and without Bus Master Enable nothing is sent (msgs_dropped).  NULL
 * detaches.
 */
void plat_pci_set_vec_transport(struct plat_pci_dev *d, plat_pci_vec_fn vec,
				plat_pci_intx_fn intx, void *opaque);

/* ----- interrupt delivery (device side) ----- */

/* The device signals MSI-X vector @vec (or its one MSI message, or nothing
 * for INTx: use plat_pci_intx_set).  Returns 0, or -EINVAL for a vector
 * beyond the table. */
int plat_pci_msix_notify(struct plat_pci_dev *d, unsigned vec);

/* Assert or deassert the INTx line (level-triggered: while asserted, the
 * interrupt is raised again after each handler run). */
void plat_pci_intx_set(struct plat_pci_dev *d, bool level);

/* ----- interrupt setup (host side) ----- */

/* Select the interrupt mode and, for MSI/INTx, the host irq.  The MSI and
 * MSI-X enable bits of configuration space follow the mode. */
void plat_pci_set_irq_mode(struct plat_pci_dev *d, enum plat_pci_irq_mode mode,
			  struct sim_irq *single);

/* Point MSI-X entry @vec at host interrupt @irq (NULL unbinds). */
int plat_pci_msix_bind(struct plat_pci_dev *d, unsigned vec, struct sim_irq *irq);

/* Set or clear entry @vec's mask bit; unmasking sends a pending message. */
int plat_pci_msix_mask(struct plat_pci_dev *d, unsigned vec, bool masked);

/* ----- DMA (device side) ----- */

/* Where a function's DMA goes when it is not the simulator's memory: a
 * transport's guest memory (br_virtpci).  0 or -EFAULT. */
struct plat_pci_dma_ops {
	int (*read)(void *opaque, uint64_t addr, void *dst, uint64_t len);
	int (*write)(void *opaque, uint64_t addr, const void *src, uint64_t len);
};

/* Route @d's DMA through @ops (NULL: back to d->mem). */
static inline void plat_pci_set_dma(struct plat_pci_dev *d,
				    const struct plat_pci_dma_ops *ops,
				    void *opaque)
{
	d->dma_ops = ops;
	d->dma_opaque = opaque;
}

static inline int plat_pci_dma_read(struct plat_pci_dev *d, uint64_t dma,
				   void *dst, uint64_t len)
{
	if (d->dma_ops)
		return d->dma_ops->read(d->dma_opaque, dma, dst, len);
	return plat_mem_read(d->mem, dma, dst, len, d->name);
}

static inline int plat_pci_dma_write(struct plat_pci_dev *d, uint64_t dma,
				    const void *src, uint64_t len)
{
	if (d->dma_ops)
		return d->dma_ops->write(d->dma_opaque, dma, src, len);
	return plat_mem_write(d->mem, dma, src, len, d->name);
}

#endif /* RXSCALE_PLAT_PCI_H */
