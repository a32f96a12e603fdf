/* SPDX-License-Identifier: MIT */
/*
 * br_virtpci.h - a PCI function (struct plat_pci_dev) served to User-Mode
 * Linux's virt-pci driver (CONFIG_UML_PCI_OVER_VIRTIO) over vhost-user
 * (br_vhost).
 *
 * The wire format is Linux's include/uapi/linux/virtio_pcidev.h: a 16-byte
 * message {u8 op; u8 bar; u16 reserved; u32 size; u64 addr;} followed by
 * data.  Two virtqueues:
 *
 *  - queue 0, "cmd": the guest's requests.  CFG_READ/CFG_WRITE (1, 2, 4 or
 *    8 bytes, config space offset in addr) go to the function's config
 *    space; MMIO_READ/MMIO_WRITE (BAR index, offset, any size) and
 *    MMIO_MEMSET (one data byte repeated size times) go to the BAR's
 *    handlers.  Reads answer in the chain's device-writable buffer.  An
 *    access of 1, 2, 4 or 8 bytes aligned to its size is one handler call
 *    of that size; any other (memcpy_fromio/toio, memset_io) is split into
 *    naturally aligned 4-, 2- and 1-byte accesses.  Writes are posted: the
 *    guest does not wait, but the chain is completed before any interrupt
 *    the write caused is sent.  With hold_posted (time-travel) a posted
 *    write's completion waits for the guest's next stop instead, so that a
 *    read's completion is always the first the guest finds (see
 *    br_virtpci.c: UML's poll loop and the interrupts it takes).
 *    UML's memset_io sends op CFG_WRITE with the BAR index and a single data
 *    byte (an upstream quirk in virt-pci.c and virtio_pcidev.c); a
 *    CFG_WRITE whose data is one byte while size is not 1 is served as
 *    MMIO_MEMSET.
 *  - queue 1, "irq": buffers the guest posts in advance (10, of 20 bytes);
 *    the device fills one per interrupt: MSI (addr and 32-bit data of the
 *    message, UML's data is the Linux irq number), INT (addr = pin 1-4) and
 *    PME.  When no buffer is posted the message waits (up to
 *    BR_VIRTPCI_IRQ_PENDING of them) for the guest's next kick.
 *
 * A malformed virt-pci message (unknown op, short buffer, access outside a
 * BAR or config space) is a guest error: counted, logged in last_error,
 * answered with all ones, never fatal.  A malformed virtqueue or vhost-user
 * message is a transport error: br_vhost closes the connection.
 *
 * DMA: with UML_DMA_EMULATION the bus address is the UML physical address,
 * i.e. a guest physical address in the vhost-user memory table;
 * br_virtpci_dma_read/write() copy through it.
 */
#ifndef RXSCALE_BR_VIRTPCI_H
#define RXSCALE_BR_VIRTPCI_H

#include <stdbool.h>
#include <stdint.h>

#include "plat/plat_pci.h"
#include "bridge/br_vhost.h"

/* virtio_pcidev ops */
enum br_virtpci_op {
	BR_VIRTPCI_OP_RESERVED = 0,
	BR_VIRTPCI_OP_CFG_READ = 1,
	BR_VIRTPCI_OP_CFG_WRITE = 2,
	BR_VIRTPCI_OP_MMIO_READ = 3,
	BR_VIRTPCI_OP_MMIO_WRITE = 4,
	BR_VIRTPCI_OP_MMIO_MEMSET = 5,
	BR_VIRTPCI_OP_INT = 6,
	BR_VIRTPCI_OP_MSI = 7,
	BR_VIRTPCI_OP_PME = 8,
};

/* struct virtio_pcidev_msg without its data (native endian = LE here) */
struct br_virtpci_msg {
	uint8_t op;
	uint8_t bar;
	uint16_t reserved;
	uint32_t size;
	uint64_t addr;
};

#define BR_VIRTPCI_CMDQ 0
#define BR_VIRTPCI_IRQQ 1
#define BR_VIRTPCI_CFG_SIZE 4096
#define BR_VIRTPCI_MAX_MMIO (1u << 20)        /* bytes in one message */
#define BR_VIRTPCI_IRQ_PENDING 64
/* UML's virtio_pcidev.c (7.3): VIRTIO_PCIDEV_WRITE_BUFS, the buffers its
 * posted writes (and reads) take; a command that finds them all in use
 * takes a spare one and waits for its completion, posted or not. */
#define BR_VIRTPCI_GUEST_BUFS 20
#define BR_VIRTPCI_HELD_MAX 64

/*
 * Config space access: plat_pci_cfg_read/plat_pci_cfg_write by default;
 * tests may pass a fake.  Both return 0 or a negative errno; @size is 1,
 * 2 or 4.
 */
struct br_virtpci_cfg_ops {
	int (*read)(struct plat_pci_dev *d, unsigned off, unsigned size,
		    uint32_t *val);
	int (*write)(struct plat_pci_dev *d, unsigned off, unsigned size,
		     uint32_t val);
};

struct br_virtpci_irqmsg {
	struct br_virtpci_msg m;
	uint8_t data[4];
	unsigned len;                   /* bytes of m + data */
};

struct br_virtpci {
	struct br_vhost vh;
	struct plat_pci_dev *pci;
	struct br_virtpci_cfg_ops cfg;
	/* interrupts waiting for an irq-queue buffer, oldest first */
	struct br_virtpci_irqmsg pend[BR_VIRTPCI_IRQ_PENDING];
	unsigned pend_head, pend_n;
	bool in_cmd;                    /* serving the cmd queue */
	/* Posted writes complete at the guest's next stop (hold_posted, set
	 * by an owner that knows when the guest stops: time-travel); see
	 * br_virtpci_release(). */
	bool hold_posted;
	unsigned guest_bufs;            /* BR_VIRTPCI_GUEST_BUFS */
	uint16_t held[BR_VIRTPCI_HELD_MAX];
	unsigned nheld;
	uint64_t held_conn;             /* the connection they belong to */
	uint16_t sync_pos;              /* used index of the last waited-for */
	bool sync_valid;                /*   completion */
	uint64_t posted_held, posted_released, spare_writes, release_deferred;
	bool irq_called;                /* irq queue has used entries to call */
	uint64_t cfg_reads, cfg_writes;
	uint64_t mmio_reads, mmio_writes, mmio_memsets;
	uint64_t msis, ints, pmes;      /* delivered into irq buffers */
	uint64_t irq_deferred;          /* waited for a buffer */
	uint64_t irq_dropped;           /* pending list full */
	uint64_t guest_errors;
	uint64_t dma_errors;
	/* the device's DMA and interrupts while no guest is connected (one
	 * that went away mid-transfer): refused, counted, no guest error */
	uint64_t dma_gone, irq_gone;
	char last_error[160];
	bool quiet;                     /* no stderr log of guest errors */
};

/*
 * Serve @pci.  @cfg: config space ops, NULL for the default (see above).
 * @features: extra virtio features to offer (e.g. 1 << BR_VHOST_F_
 * INDIRECT_DESC); VERSION_1 is always offered.  @inband: also offer
 * in-band notifications (needed for UML time-travel=ext).  Protocol
 * features REPLY_ACK and SLAVE_REQ are always offered.
 */
void br_virtpci_init(struct br_virtpci *vp, struct plat_pci_dev *pci,
		       const struct br_virtpci_cfg_ops *cfg, uint64_t features,
		       bool inband);
void br_virtpci_fini(struct br_virtpci *vp);

/* Listen on a unix socket (UML: virtio_uml.device=PATH:ID) or serve a
 * connected one.  0 or -errno. */
int br_virtpci_listen(struct br_virtpci *vp, const char *path);
int br_virtpci_attach(struct br_virtpci *vp, int fd);

/* Everything pending, without blocking (for the simulator's loop); or
 * waiting at most @timeout_ms first.  See br_vhost_poll(). */
int br_virtpci_poll(struct br_virtpci *vp);
int br_virtpci_run(struct br_virtpci *vp, int timeout_ms);

/*
 * The guest is stopped (it waits for its clock): complete the posted
 * writes held since its last stop, newest first, and call it for the cmd
 * queue, unless it is still polling for a completion (one not taken
 * yet), in which case they wait for a later stop.  Returns how many were
 * completed.
 */
unsigned br_virtpci_release(struct br_virtpci *vp);

/* The guest has not yet taken the completion of its last read (or of a
 * write it waits for): it is inside its poll loop. */
bool br_virtpci_in_sync_wait(struct br_virtpci *vp);

/* ----- interrupts to the guest ----- */

/* The function's MSI message callback: send OP_MSI with @addr/@data.
 * @opaque is the struct br_virtpci. */
void br_virtpci_msi(void *opaque, uint64_t addr, uint32_t data);

/* 0 (sent or waiting for a buffer) or -ENOSPC (pending list full). */
int br_virtpci_send_msi(struct br_virtpci *vp, uint64_t addr,
			  uint32_t data);
int br_virtpci_send_intx(struct br_virtpci *vp, unsigned pin);
int br_virtpci_send_pme(struct br_virtpci *vp);

/* ----- DMA into guest memory ----- */

/* Copy between guest physical (= bus) address @addr and @buf.  0, or
 * -EFAULT when the range is not all in the memory table (a guest error:
 * counted in dma_errors, nothing copied), or -ENODEV when no guest is
 * connected (counted in dma_gone; a read fills @buf with all ones). */
int br_virtpci_dma_read(struct br_virtpci *vp, uint64_t addr, void *buf,
			  uint64_t len);
int br_virtpci_dma_write(struct br_virtpci *vp, uint64_t addr,
			   const void *buf, uint64_t len);

/* The same as a function's DMA route: plat_pci_set_dma(pci,
 * &br_virtpci_dma_ops, vp) sends the device model's DMA to the guest. */
extern const struct plat_pci_dma_ops br_virtpci_dma_ops;

#endif /* RXSCALE_BR_VIRTPCI_H */
