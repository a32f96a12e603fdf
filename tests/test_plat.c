// SPDX-License-Identifier: MIT
/* test_plat.c - the platform devices: DMA memory; a PCI function's
 * configuration space, BARs, MSI/MSI-X capabilities and the MSI-X table
 * and PBA served through a BAR, with messages out to a transport. */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plat/plat_mem.h"
#include "plat/plat_pci.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

static void test_mem(void **state)
{
	struct plat_mem m;
	void *p, *q;
	uint64_t a, b, c;
	char buf[16] = "hello";

	(void)state;
	plat_mem_init(&m);
	assert_int_equal(plat_mem_alloc(&m, 4096, &p, &a), 0);
	assert_true(a >= 0x100000000ull);
	assert_int_equal((uintptr_t)p % 4096, 0);
	assert_int_equal(plat_mem_write(&m, a + 4090, buf, 6, "t"), 0);
	assert_memory_equal((char *)p + 4090, "hello", 6);
	assert_int_equal(plat_mem_write(&m, a + 4091, buf, 6, "t"), -EFAULT);
	assert_int_equal(m.guest_errors, 1);
	assert_non_null(strstr(m.last_error, "outside any live buffer"));
	assert_int_equal(plat_mem_alloc(&m, 0, &q, &b), -EINVAL);
	assert_int_equal(plat_mem_alloc(&m, PLAT_MEM_MAX_LEN + 1, &q, &b), -EINVAL);
	assert_int_equal(plat_mem_map(&m, buf, sizeof(buf), &b), 0);
	assert_int_equal(plat_mem_read(&m, b, buf + 8, 5, "t"), 0);
	assert_int_equal(m.live, 2);
	/* release, reuse the slot: the stale address is caught */
	assert_int_equal(plat_mem_release(&m, a + 1), -EINVAL);
	assert_int_equal(plat_mem_release(&m, a), 0);
	assert_int_equal(plat_mem_alloc(&m, 64, &q, &c), 0);
	assert_int_not_equal(c, a);
	assert_null(plat_mem_ptr(&m, a, 1, "t"));
	assert_non_null(plat_mem_ptr(&m, c, 64, "t"));
	assert_null(plat_mem_ptr(&m, 0x1000, 1, "t"));
	assert_int_equal(plat_mem_release(&m, b), 0);
	assert_int_equal(plat_mem_release(&m, c), 0);
	assert_int_equal(m.live, 0);
	assert_int_equal(m.allocs, m.releases);
	plat_mem_fini(&m);
}

/* DMA API ownership of streaming mappings: a device write into a buffer
 * the CPU owns, and a CPU read of a device-written buffer not synced for
 * the CPU, are both caught; the CPU-address index survives thousands of
 * maps and unmaps in scrambled order (its deletion keeps probe runs). */
static void test_mem_ownership(void **state)
{
	enum { N = 3000 };
	static char bufs[N][32];
	static uint64_t dma[N];
	static bool live[N];
	struct plat_mem m;
	uint32_t x = 12345;

	(void)state;
	plat_mem_init(&m);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(plat_mem_map(&m, bufs[i], sizeof(bufs[i]), &dma[i]), 0);
		if (i % 2)
			plat_mem_set_from_device(&m, dma[i]);
		live[i] = true;
	}
	/* device-owned after the map: reads of device-written buffers are
	 * flagged, of CPU-to-device ones not */
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), i % 2 ? -EPERM : 0);
	assert_int_equal(plat_mem_cpu_read(&m, bufs[1] + 1, 8), 0);	/* not a start */
	/* unmap two thirds in a scrambled order */
	for (unsigned k = 0; k < 2 * N; k++) {
		unsigned i;

		x = x * 1103515245u + 12345u;
		i = (x >> 8) % N;
		if (!live[i])
			continue;
		assert_int_equal(plat_mem_release(&m, dma[i]), 0);
		live[i] = false;
	}
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8),
				 live[i] && i % 2 ? -EPERM : 0);
	/* sync for the CPU: reads are fine, device writes are not */
	for (unsigned i = 1; i < N; i += 2) {
		if (!live[i])
			continue;
		assert_int_equal(plat_mem_sync(&m, dma[i], true), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), 0);
		assert_int_equal(plat_mem_write(&m, dma[i], "x", 1, "t"), 0);
		assert_int_equal(plat_mem_sync(&m, dma[i], false), 0);
		assert_int_equal(plat_mem_write(&m, dma[i], "x", 1, "t"), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), -EPERM);
		break;
	}
	assert_int_equal(m.owner_errors, 1);
	/* the buffer synced last for the CPU (plat_mem_cpu_read looks there
	 * first): unmapped and mapped again from the device, its slot and
	 * pointer come back, but not the CPU's ownership */
	for (unsigned i = 1; i < N; i += 2) {
		if (!live[i])
			continue;
		assert_int_equal(plat_mem_sync(&m, dma[i], true), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), 0);
		assert_int_equal(plat_mem_release(&m, dma[i]), 0);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), 0);
		assert_int_equal(plat_mem_map(&m, bufs[i], sizeof(bufs[i]), &dma[i]), 0);
		plat_mem_set_from_device(&m, dma[i]);
		assert_int_equal(plat_mem_cpu_read(&m, bufs[i], 8), -EPERM);
		break;
	}
	assert_int_equal(plat_mem_sync(&m, 0x1000, true), -EINVAL);
	for (unsigned i = 0; i < N; i++)
		if (live[i])
			assert_int_equal(plat_mem_release(&m, dma[i]), 0);
	assert_int_equal(m.by_cpu_n, 0);
	plat_mem_fini(&m);
}

/* ----- PCI function ----- */

enum { NVEC = 4 };

struct pfx {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct plat_pci_dev d;
	uint32_t regs[64];              /* BAR 2 register file (first bytes) */
	unsigned nmsg;
	uint64_t msg_addr[16];
	uint32_t msg_data[16];
	unsigned nintx;
	bool intx;
};

static uint64_t regs_read(void *opaque, uint64_t off, unsigned size)
{
	struct pfx *f = opaque;

	(void)size;
	return off / 4 < 64 ? f->regs[off / 4] : 0;
}

static void regs_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
	struct pfx *f = opaque;

	(void)size;
	if (off / 4 < 64)
		f->regs[off / 4] = (uint32_t)val;
}

static const struct plat_pci_bar_ops regs_ops = {
	.read = regs_read, .write = regs_write,
};

static void on_msg(void *opaque, uint64_t addr, uint32_t data)
{
	struct pfx *f = opaque;

	if (f->nmsg < 16) {
		f->msg_addr[f->nmsg] = addr;
		f->msg_data[f->nmsg] = data;
	}
	f->nmsg++;
}

static void on_intx(void *opaque, bool level)
{
	struct pfx *f = opaque;

	f->nintx++;
	f->intx = level;
}

/* An RTL8127A-like function: I/O BAR 0, 64-bit memory BAR 2 (64 KiB),
 * BAR 4 the MSI-X table (0) and PBA (0x800), 16 KiB; with @msix false no
 * MSI-X BAR (and no MSI-X capability). */
static struct pfx *pfx_new(bool msix)
{
	struct pfx *f = calloc(1, sizeof(*f));
	struct sim_host_params hp;
	const struct plat_pci_cfg_id id = {
		.revision = 0x05, .class_code = 0x020000,
		.subsys_vendor = 0x10ec, .subsys_device = 0x0123,
		.link_gen = 4, .link_width = 1,
	};

	assert_non_null(f);
	sim_init(&f->sim);
	sim_cost_load_default(&f->cost);
	sim_host_params_default(&hp, 1);
	f->host = sim_host_create(&f->sim, &f->cost, &hp);
	assert_non_null(f->host);
	plat_mem_init(&f->mem);
	assert_int_equal(plat_pci_dev_init(&f->d, f->host, &f->mem, "t", 0x10ec,
					   0x8127, NVEC), 0);
	assert_int_equal(plat_pci_set_bar_io(&f->d, 0, 256), 0);
	assert_int_equal(plat_pci_set_bar(&f->d, 2, 0x10000, &regs_ops, f), 0);
	if (msix)
		assert_int_equal(plat_pci_set_msix_bar(&f->d, 4, 0x4000, 0, 0x800), 0);
	assert_int_equal(plat_pci_set_cfg_id(&f->d, &id), 0);
	return f;
}

static void pfx_free(struct pfx *f)
{
	plat_pci_dev_fini(&f->d);
	sim_host_destroy(f->host);
	plat_mem_fini(&f->mem);
	sim_fini(&f->sim);
	free(f);
}

static uint32_t cfg_rd(struct pfx *f, unsigned off, unsigned size)
{
	uint32_t v;

	assert_int_equal(plat_pci_cfg_read(&f->d, off, size, &v), 0);
	return v;
}

static void cfg_wr(struct pfx *f, unsigned off, unsigned size, uint32_t v)
{
	assert_int_equal(plat_pci_cfg_write(&f->d, off, size, v), 0);
}

static uint32_t bar4_rd(struct pfx *f, uint64_t off)
{
	uint64_t v;

	assert_int_equal(plat_pci_bar_read(&f->d, 4, off, 4, &v), 0);
	return (uint32_t)v;
}

static void bar4_wr(struct pfx *f, uint64_t off, uint32_t v)
{
	assert_int_equal(plat_pci_bar_write(&f->d, 4, off, 4, v), 0);
}

/* Type 0 header: IDs, class, command/status, pin, capability pointer;
 * unimplemented registers read 0 and ignore writes. */
static void test_pci_cfg_header(void **state)
{
	struct pfx *f = pfx_new(true);

	(void)state;
	assert_int_equal(cfg_rd(f, 0x00, 4), 0x812710ec);
	assert_int_equal(cfg_rd(f, 0x00, 2), 0x10ec);
	assert_int_equal(cfg_rd(f, 0x02, 2), 0x8127);
	assert_int_equal(cfg_rd(f, 0x01, 1), 0x10);
	assert_int_equal(cfg_rd(f, 0x08, 4), 0x02000005);      /* class, rev */
	assert_int_equal(cfg_rd(f, 0x0e, 1), 0x00);            /* header type 0 */
	assert_int_equal(cfg_rd(f, 0x2c, 4), 0x012310ec);      /* subsystem */
	assert_int_equal(cfg_rd(f, 0x34, 1), PLAT_PCI_CAP_MSI);
	assert_int_equal(cfg_rd(f, 0x3d, 1), 1);               /* INTA# */
	/* IDs are read-only */
	cfg_wr(f, 0x00, 4, 0);
	assert_int_equal(cfg_rd(f, 0x00, 4), 0x812710ec);
	/* command: I/O, memory, bus master, INTx disable writable */
	assert_int_equal(cfg_rd(f, 0x04, 2), 0);
	cfg_wr(f, 0x04, 2, 0xffff);
	assert_int_equal(cfg_rd(f, 0x04, 2), 0x0407);
	cfg_wr(f, 0x04, 1, 0x06);
	assert_int_equal(cfg_rd(f, 0x04, 4), 0x00100406);      /* status: caps */
	cfg_wr(f, 0x06, 2, 0xffff);                            /* status RO */
	assert_int_equal(cfg_rd(f, 0x06, 2), 0x0010);
	cfg_wr(f, 0x3c, 1, 0x0b);                              /* interrupt line */
	assert_int_equal(cfg_rd(f, 0x3c, 2), 0x010b);
	/* no expansion ROM, no extended capabilities, nothing beyond */
	cfg_wr(f, 0x30, 4, 0xffffffff);
	assert_int_equal(cfg_rd(f, 0x30, 4), 0);
	assert_int_equal(cfg_rd(f, 0x100, 4), 0);
	cfg_wr(f, 0xffc, 4, 0x12345678);
	assert_int_equal(cfg_rd(f, 0xffc, 4), 0);
	assert_int_equal(f->d.cfg_errors, 0);
	/* INTx: status bit 3 follows the line even while Interrupt Disable
	 * is set (PCI 3.0 §6.2.3); the transport hears it only when clear */
	plat_pci_set_transport(&f->d, on_msg, on_intx, f);
	plat_pci_intx_set(&f->d, true);
	assert_true(cfg_rd(f, 0x06, 2) & 0x8);
	assert_int_equal(f->nintx, 0);                  /* disabled above */
	cfg_wr(f, 0x04, 2, 0x0006);
	assert_true(cfg_rd(f, 0x06, 2) & 0x8);
	assert_int_equal(f->nintx, 1);
	assert_true(f->intx);
	plat_pci_intx_set(&f->d, false);
	assert_int_equal(cfg_rd(f, 0x06, 2), 0x0010);
	assert_false(f->intx);
	pfx_free(f);
}

/* BAR sizing: write all ones, read the size mask and the type bits. */
static void test_pci_bar_sizing(void **state)
{
	struct pfx *f = pfx_new(true);
	static const struct { unsigned bar; uint32_t init, sized; } exp[6] = {
		{ 0, 0x00000001, 0xffffff01 },  /* I/O, 256 bytes */
		{ 1, 0, 0 },                    /* absent */
		{ 2, 0x00000004, 0xffff0004 },  /* 64-bit memory, 64 KiB */
		{ 3, 0, 0xffffffff },           /* its upper half */
		{ 4, 0x00000004, 0xffffc004 },  /* 64-bit memory, 16 KiB */
		{ 5, 0, 0xffffffff },
	};

	(void)state;
	for (unsigned i = 0; i < 6; i++) {
		unsigned off = 0x10 + 4 * exp[i].bar;

		assert_int_equal(cfg_rd(f, off, 4), exp[i].init);
		cfg_wr(f, off, 4, 0xffffffff);
		assert_int_equal(cfg_rd(f, off, 4), exp[i].sized);
	}
	/* size from the mask, as a kernel computes it */
	assert_int_equal(~(cfg_rd(f, 0x10, 4) & ~0x3u) + 1, 256);
	assert_int_equal(~(cfg_rd(f, 0x18, 4) & ~0xfu) + 1, 0x10000);
	assert_int_equal(~(cfg_rd(f, 0x20, 4) & ~0xfu) + 1, 0x4000);
	/* assign addresses; the type bits stay */
	cfg_wr(f, 0x18, 4, 0xfe010000);
	cfg_wr(f, 0x1c, 4, 0x00000001);
	assert_int_equal(cfg_rd(f, 0x18, 4), 0xfe010004);
	assert_int_equal(cfg_rd(f, 0x1c, 4), 1);
	cfg_wr(f, 0x18, 4, 0xfe01abcd);                 /* below the size: RO */
	assert_int_equal(cfg_rd(f, 0x18, 4), 0xfe010004);
	cfg_wr(f, 0x10, 4, 0x0000e000);
	assert_int_equal(cfg_rd(f, 0x10, 4), 0x0000e001);
	/* a BAR in the upper half of a 64-bit BAR, or a size not a power of
	 * two, is refused */
	assert_int_equal(plat_pci_set_bar(&f->d, 3, 0x1000, &regs_ops, f), -EINVAL);
	assert_int_equal(plat_pci_set_bar(&f->d, 1, 0x3000, &regs_ops, f), -EINVAL);
	/* MMIO through the assigned BAR still reaches the handlers */
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 8, 4, 0xabcd), 0);
	assert_int_equal(f->regs[2], 0xabcd);
	pfx_free(f);
}

/* Walk the capability list from the pointer: MSI, PCIe, MSI-X. */
static void test_pci_caps(void **state)
{
	struct pfx *f = pfx_new(true);
	static const uint8_t ids[] = { 0x05, 0x10, 0x11 };
	unsigned at[3], p, n = 0;

	(void)state;
	assert_true(cfg_rd(f, 0x06, 2) & 0x10);
	for (p = cfg_rd(f, 0x34, 1); p; p = cfg_rd(f, p + 1, 1)) {
		assert_true(n < 3);
		assert_int_equal(p & 3, 0);
		assert_true(p >= 0x40);
		assert_int_equal(cfg_rd(f, p, 1), ids[n]);
		at[n++] = p;
	}
	assert_int_equal(n, 3);
	/* MSI: 64-bit, per-vector masking, one vector, disabled */
	assert_int_equal(cfg_rd(f, at[0] + 2, 2), 0x0180);
	cfg_wr(f, at[0] + 2, 2, 0xffff);                /* MME stays 0 */
	assert_int_equal(cfg_rd(f, at[0] + 2, 2), 0x0181);
	cfg_wr(f, at[0] + 2, 2, 0);
	cfg_wr(f, at[0] + 4, 4, 0xffffffff);
	assert_int_equal(cfg_rd(f, at[0] + 4, 4), 0xfffffffc);
	cfg_wr(f, at[0] + 0x10, 4, 0xffffffff);         /* one mask bit */
	assert_int_equal(cfg_rd(f, at[0] + 0x10, 4), 1);
	/* PCIe v2 endpoint, x1 at gen 4 */
	assert_int_equal(cfg_rd(f, at[1] + 2, 2) & 0xff, 0x02);
	assert_int_equal(cfg_rd(f, at[1] + 0x0c, 4) & 0x3ff, 0x14);
	assert_int_equal(cfg_rd(f, at[1] + 0x12, 2) & 0x3ff, 0x14);
	assert_int_equal(cfg_rd(f, at[1] + 0x2c, 4), 0x1e);
	/* MSI-X: table size N-1, table and PBA in BAR 4 */
	assert_int_equal(cfg_rd(f, at[2] + 2, 2), NVEC - 1);
	assert_int_equal(cfg_rd(f, at[2] + 4, 4), 0x00000004);
	assert_int_equal(cfg_rd(f, at[2] + 8, 4), 0x00000804);
	cfg_wr(f, at[2] + 2, 2, 0xffff);                /* enable, mask: RW */
	assert_int_equal(cfg_rd(f, at[2] + 2, 2), 0xc000 | (NVEC - 1));
	assert_int_equal(f->d.irq_mode, PLAT_PCI_IRQ_MSIX);
	cfg_wr(f, at[2] + 2, 2, 0);
	assert_int_equal(f->d.irq_mode, PLAT_PCI_IRQ_INTX);
	pfx_free(f);
	/* without an MSI-X BAR the list ends after PCIe */
	f = pfx_new(false);
	assert_int_equal(cfg_rd(f, PLAT_PCI_CAP_EXP + 1, 1), 0);
	assert_int_equal(cfg_rd(f, PLAT_PCI_CAP_MSIX, 4), 0);
	assert_int_equal(plat_pci_set_msix_bar(&f->d, 4, 0x4000, 0, 0x20), -EINVAL);
	pfx_free(f);
}

/* MSI-X programmed through BAR 4 by a guest; masking holds messages in the
 * PBA, unmasking delivers them to the transport with the programmed
 * address and data; function mask, bus mastering and enable honoured. */
static void test_pci_msix_table(void **state)
{
	struct pfx *f = pfx_new(true);
	const unsigned ctl = PLAT_PCI_CAP_MSIX + 2;
	volatile unsigned char *t = plat_pci_bar_addr(&f->d, 4);
	uint64_t v;

	(void)state;
	plat_pci_set_transport(&f->d, on_msg, on_intx, f);
	/* reset: entries masked, PBA clear */
	for (unsigned i = 0; i < NVEC; i++)
		assert_int_equal(bar4_rd(f, 16 * i + 12), 1);
	assert_int_equal(bar4_rd(f, 0x800), 0);
	/* program: entry i -> 0xfee00000 + i * 0x1000, data 0x40 + i */
	for (unsigned i = 0; i < NVEC; i++) {
		bar4_wr(f, 16 * i + 0, 0xfee00000u + i * 0x1000);
		bar4_wr(f, 16 * i + 4, i == 3 ? 0x1 : 0);
		bar4_wr(f, 16 * i + 8, 0x40 + i);
	}
	assert_int_equal(bar4_rd(f, 16 + 0), 0xfee01000);
	assert_int_equal(bar4_rd(f, 48 + 4), 1);
	assert_int_equal(f->d.msix[2].data, 0x42);
	/* a QWORD access through the mapped address works too */
	assert_int_equal(plat_pci_mmio_read(t + 48, 8, &v), 0);
	assert_int_equal(v, 0x1fee03000ull);
	cfg_wr(f, 0x04, 2, 0x0006);                     /* memory + bus master */
	cfg_wr(f, ctl, 2, 0x8000);                      /* MSI-X on */
	assert_int_equal(f->d.irq_mode, PLAT_PCI_IRQ_MSIX);
	/* masked entry: the message goes to the PBA */
	assert_int_equal(plat_pci_msix_notify(&f->d, 1), 0);
	assert_int_equal(f->nmsg, 0);
	assert_int_equal(bar4_rd(f, 0x800), 0x2);
	assert_int_equal(f->d.msix[1].held, 1);
	/* PBA is read-only */
	bar4_wr(f, 0x800, 0);
	assert_int_equal(bar4_rd(f, 0x800), 0x2);
	assert_int_equal(f->d.cfg_errors, 1);
	/* unmask through the table: delivered with entry 1's address/data */
	bar4_wr(f, 16 + 12, 0);
	assert_int_equal(f->nmsg, 1);
	assert_int_equal(f->msg_addr[0], 0xfee01000);
	assert_int_equal(f->msg_data[0], 0x41);
	assert_int_equal(bar4_rd(f, 0x800), 0);
	/* unmasked: sent at once (64-bit address), no INTx meanwhile */
	bar4_wr(f, 48 + 12, 0);
	assert_int_equal(plat_pci_msix_notify(&f->d, 3), 0);
	assert_int_equal(f->nmsg, 2);
	assert_int_equal(f->msg_addr[1], 0x1fee03000ull);
	assert_int_equal(f->msg_data[1], 0x43);
	plat_pci_intx_set(&f->d, true);
	assert_int_equal(f->nintx, 0);
	plat_pci_intx_set(&f->d, false);
	/* function mask: held in the PBA, sent when cleared */
	cfg_wr(f, ctl, 2, 0xc000);
	assert_int_equal(plat_pci_msix_notify(&f->d, 3), 0);
	assert_int_equal(plat_pci_msix_notify(&f->d, 0), 0);     /* masked */
	assert_int_equal(f->nmsg, 2);
	assert_int_equal(bar4_rd(f, 0x800), 0x9);
	cfg_wr(f, ctl + 1, 1, 0x80);
	assert_int_equal(f->nmsg, 3);
	assert_int_equal(f->msg_data[2], 0x43);
	assert_int_equal(bar4_rd(f, 0x800), 0x1);       /* entry 0 still masked */
	/* a byte write to vector control unmasks entry 0 */
	assert_int_equal(plat_pci_mmio_write(t + 12, 1, 0), 0);
	assert_int_equal(f->nmsg, 4);
	assert_int_equal(f->msg_addr[3], 0xfee00000);
	assert_int_equal(f->msg_data[3], 0x40);
	/* bus mastering off: the function may not write, the message is
	 * dropped and counted */
	cfg_wr(f, 0x04, 2, 0x0002);
	assert_int_equal(plat_pci_msix_notify(&f->d, 3), 0);
	assert_int_equal(f->nmsg, 4);
	assert_int_equal(f->d.msgs_dropped, 1);
	cfg_wr(f, 0x04, 2, 0x0006);
	/* MSI-X off: INTx mode, no message */
	cfg_wr(f, ctl, 2, 0);
	assert_int_equal(plat_pci_msix_notify(&f->d, 3), 0);
	assert_int_equal(f->nmsg, 4);
	assert_int_equal(f->d.lost_msgs, 1);
	/* outside the table and PBA: reads 0, counted */
	assert_int_equal(bar4_rd(f, 0x400), 0);
	bar4_wr(f, 0x400, 1);
	assert_int_equal(f->d.cfg_errors, 3);
	assert_int_equal(f->d.mmio_errors, 0);
	pfx_free(f);
}

/* MSI: the capability's address/data, the mask bit holds it pending. */
static void test_pci_msi(void **state)
{
	struct pfx *f = pfx_new(true);
	const unsigned c = PLAT_PCI_CAP_MSI;

	(void)state;
	plat_pci_set_transport(&f->d, on_msg, NULL, f);
	cfg_wr(f, 0x04, 2, 0x0006);
	cfg_wr(f, c + 4, 4, 0xfee0f00c);
	cfg_wr(f, c + 8, 4, 0);
	cfg_wr(f, c + 12, 2, 0x4021);
	cfg_wr(f, c + 2, 2, 0x0001);
	assert_int_equal(f->d.irq_mode, PLAT_PCI_IRQ_MSI);
	assert_int_equal(plat_pci_msix_notify(&f->d, 0), 0);
	assert_int_equal(f->nmsg, 1);
	assert_int_equal(f->msg_addr[0], 0xfee0f00c);
	assert_int_equal(f->msg_data[0], 0x4021);
	cfg_wr(f, c + 16, 4, 1);
	assert_int_equal(plat_pci_msix_notify(&f->d, 0), 0);
	assert_int_equal(f->nmsg, 1);
	assert_int_equal(cfg_rd(f, c + 20, 4), 1);
	cfg_wr(f, c + 20, 4, 0);                        /* pending is RO */
	assert_int_equal(cfg_rd(f, c + 20, 4), 1);
	cfg_wr(f, c + 16, 4, 0);
	assert_int_equal(f->nmsg, 2);
	assert_int_equal(cfg_rd(f, c + 20, 4), 0);
	/* MSI off: back to INTx */
	cfg_wr(f, c + 2, 2, 0);
	assert_int_equal(f->d.irq_mode, PLAT_PCI_IRQ_INTX);
	pfx_free(f);
}

/* Bad sizes and offsets: -EINVAL, all ones, counted, never fatal. */
static void test_pci_cfg_errors(void **state)
{
	struct pfx *f = pfx_new(true);
	static const struct { unsigned off, size; } bad[] = {
		{ 0, 3 }, { 0, 8 }, { 0, 0 }, { 1, 2 }, { 2, 4 }, { 4096, 1 },
		{ 0xfffe, 2 },
	};
	uint32_t v;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 0;
		assert_int_equal(plat_pci_cfg_read(&f->d, bad[i].off, bad[i].size, &v),
				 -EINVAL);
		assert_int_equal(v, 0xffffffff);
		assert_int_equal(plat_pci_cfg_write(&f->d, bad[i].off, bad[i].size, 0),
				 -EINVAL);
	}
	assert_int_equal(f->d.cfg_errors, 2 * (sizeof(bad) / sizeof(bad[0])));
	assert_non_null(strstr(f->d.last_error, "bad config write"));
	assert_int_equal(cfg_rd(f, 0, 4), 0x812710ec);  /* unharmed */
	/* MSI-X BAR: misaligned counted; no BAR, a BAR offset past the end */
	assert_int_equal(plat_pci_bar_write(&f->d, 4, 2, 4, 0), 0);
	assert_int_equal(f->d.cfg_errors, 2 * (sizeof(bad) / sizeof(bad[0])) + 1);
	assert_int_equal(plat_pci_bar_write(&f->d, 1, 0, 4, 0), -EFAULT);
	assert_int_equal(plat_pci_bar_write(&f->d, 4, 0x4000, 4, 0), -EFAULT);
	assert_int_equal(f->d.mmio_errors, 2);
	pfx_free(f);
}

/* The in-process kernel's path, unchanged: sim_irqs bound per entry, the
 * mode set directly (the enable bit shows it), no transport. */
static void irq_fn(struct sim_irq *irq, void *arg)
{
	(void)irq;
	(*(unsigned *)arg)++;
}

static void test_pci_kern_path(void **state)
{
	struct pfx *f = pfx_new(true);
	struct sim_irq irq;
	unsigned runs = 0;

	(void)state;
	sim_irq_init(f->host, &irq, "v0", irq_fn, &runs, 0);
	assert_int_equal(plat_pci_msix_bind(&f->d, 0, &irq), 0);
	plat_pci_set_irq_mode(&f->d, PLAT_PCI_IRQ_MSIX, NULL);
	assert_int_equal(cfg_rd(f, PLAT_PCI_CAP_MSIX + 2, 2), 0x8000 | (NVEC - 1));
	assert_int_equal(plat_pci_msix_notify(&f->d, 0), 0);   /* masked */
	assert_int_equal(bar4_rd(f, 0x800), 1);
	assert_int_equal(plat_pci_msix_mask(&f->d, 0, false), 0);
	assert_int_equal(bar4_rd(f, 12), 0);            /* table shows it */
	assert_int_equal(f->d.msix[0].sent, 1);
	assert_int_equal(plat_pci_msix_notify(&f->d, 0), 0);
	sim_run(&f->sim);
	assert_true(runs >= 1);
	assert_int_equal(f->d.msix[0].sent, 2);
	assert_int_equal(f->d.msgs_out + f->d.msgs_dropped, 0);
	plat_pci_set_irq_mode(&f->d, PLAT_PCI_IRQ_NONE, NULL);
	assert_int_equal(cfg_rd(f, PLAT_PCI_CAP_MSIX + 2, 2), NVEC - 1);
	sim_irq_fini(&irq);
	pfx_free(f);
}

/* Posted writes (PCIe ordering, plat_pci_post.c): with a 1000 ns delay
 * a BAR write reaches the function 1000 ns after it was issued, writes
 * keep their order (the later one wins), and a read first applies every
 * write in flight, as does a config read. */
static void test_pci_posted_writes(void **state)
{
	struct pfx *f = pfx_new(true);
	uint64_t v;

	(void)state;
	plat_pci_set_posted_writes(&f->d, 1000);
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 8, 4, 1), 0);
	sim_run_until(&f->sim, 500);
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 8, 4, 2), 0);
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 12, 4, 7), 0);
	assert_int_equal(f->regs[2], 0);
	sim_run_until(&f->sim, 999);
	assert_int_equal(f->regs[2], 0);
	sim_run_until(&f->sim, 1000);
	assert_int_equal(f->regs[2], 1);		/* the first, on time */
	assert_int_equal(f->regs[3], 0);
	sim_run_until(&f->sim, 1500);
	assert_int_equal(f->regs[2], 2);
	assert_int_equal(f->regs[3], 7);
	assert_int_equal(f->d.posted_flushed, 0);
	/* a read pushes them: the value read is the written one */
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 16, 4, 5), 0);
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 16, 4, 6), 0);
	assert_int_equal(plat_pci_bar_read(&f->d, 2, 16, 4, &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(f->d.posted_flushed, 2);
	/* a config read too; nothing is applied twice afterwards */
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 20, 4, 9), 0);
	(void)cfg_rd(f, 0, 2);
	assert_int_equal(f->regs[5], 9);
	f->regs[5] = 0;
	sim_run(&f->sim);
	assert_int_equal(f->regs[5], 0);
	assert_int_equal(f->d.posted_writes, 6);
	assert_int_equal(f->d.posted_flushed, 3);
	/* 0: at once again */
	plat_pci_set_posted_writes(&f->d, 0);
	assert_int_equal(plat_pci_bar_write(&f->d, 2, 24, 4, 4), 0);
	assert_int_equal(f->regs[6], 4);
	pfx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_mem_ownership),
		cmocka_unit_test(test_pci_cfg_header),
		cmocka_unit_test(test_pci_bar_sizing),
		cmocka_unit_test(test_pci_caps),
		cmocka_unit_test(test_pci_msix_table),
		cmocka_unit_test(test_pci_msi),
		cmocka_unit_test(test_pci_cfg_errors),
		cmocka_unit_test(test_pci_kern_path),
		cmocka_unit_test(test_pci_posted_writes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
