/* SPDX-License-Identifier: MIT */
/*
 * fuzz_mmio.c - libFuzzer target for the device model: random register
 * traffic of every size and alignment, frames from the wire, rings built
 * in DMA memory, link flaps, fault knobs, MSI-X masking and time advance.
 * The model must never crash (ASan/UBSan) and must keep its accounting:
 * offered = delivered + dropped + in flight, after every operation.
 *
 * Input: byte 0 picks the chip; then operations of 1 opcode byte plus
 * operands, until the input runs out.
 */
#include <stdlib.h>
#include <string.h>

#include "hw/rtl_chips.h"
#include "hw/rtl_defines.h"
#include "hw/rtl_regs.h"
#include "model/rtlm.h"
#include "sim/sim_cost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) abort(); } while (0)

struct in {
	const uint8_t *p;
	size_t n;
};

static uint32_t take(struct in *in, unsigned bytes)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint32_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* Registers with side effects, for a better hit rate than offsets at
 * random. */
static const uint32_t hot[] = {
	RTL_ChipCmd, RTL_IntrMask_8125, RTL_IntrStatus_8125, RTL_INT_CFG0_8125,
	RTL_TxPoll_8125, RTL_CounterAddrLow, RTL_RSS_CTRL_8125, RTL_Q_NUM_CTRL_8125,
	RTL_IMR_V2_SET_REG_8125, RTL_IMR_V2_CLEAR_REG_8125, RTL_ISR_V2_8125,
	RTL_INT_MITI_V2, RTL_INT_MITI_V2 + 2, RTL_RxConfig, RTL_CFG_D8,
	RTL_MACOCP, RTL_GPHY_OCP, RTL_SW_TAIL_PTR0_8125BP, RTL_RxMaxSize,
	RTL_RSS_INDIRECTION_TBL_8125_V2, RTL_RSS_KEY_8125, RTL_IMR1_8125,
	RTL_ISR1_8125, RTL_CPlusCmd, RTL_TCTR0_8125, RTL_HW_CLO_PTR0_8125BP,
};

struct fz {
	struct sim_host *host;
	struct plat_pci_dev *pci;
	uint8_t *bar;
};

static void irq_fn(struct sim_irq *irq, void *arg)
{
	struct fz *z = arg;
	uint64_t v;

	(void)irq;
	/* a handler that reads status, as drivers do (flushes held writes) */
	plat_pci_mmio_read(z->bar + RTL_IntrStatus_8125, 4, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_cost cost;
	static int ready;
	struct in in = { data, size };
	struct sim_host_params hp;
	struct sim_irq irqs[PLAT_PCI_MSIX_MAX];
	struct rtlm_dev *dev;
	struct plat_mem mem;
	struct sim sim;
	struct fz z;
	uint8_t *ring, *buf, frame[2048];
	uint64_t ring_dma, buf_dma;
	unsigned nvec;
	void *cpu;

	if (!ready) {
		sim_cost_load_default(&cost);
		ready = 1;
	}
	if (size < 1)
		return 0;
	sim_init(&sim);
	sim_host_params_default(&hp, 1);
	z.host = sim_host_create(&sim, &cost, &hp);
	CHECK(z.host);
	plat_mem_init(&mem);
	dev = rtlm_create(z.host, &mem, &rtl_chips[take(&in, 1) % rtl_chips_count],
			  NULL);
	CHECK(dev);
	z.pci = rtlm_pci(dev);
	z.bar = plat_pci_bar_addr(z.pci, RTL_BAR_MMIO);
	CHECK(plat_mem_alloc(&mem, 4096, &cpu, &ring_dma) == 0);
	ring = cpu;
	CHECK(plat_mem_alloc(&mem, 65536, &cpu, &buf_dma) == 0);
	buf = cpu;
	for (unsigned v = 0; v < z.pci->msix_nvec; v++) {
		sim_irq_init(z.host, &irqs[v], "fz", irq_fn, &z, 0);
		plat_pci_msix_bind(z.pci, v, &irqs[v]);
		plat_pci_msix_mask(z.pci, v, false);
	}
	plat_pci_set_irq_mode(z.pci, PLAT_PCI_IRQ_MSIX, NULL);

	while (in.n) {
		uint8_t op = (uint8_t)take(&in, 1);
		static const unsigned sizes[] = { 1, 2, 4, 8, 3 };
		const struct rtlm_stats *st;
		uint64_t v, ok = 0;

		switch (op % 10) {
		case 0: {	/* write anywhere */
			uint32_t off = take(&in, 2);
			unsigned sz = sizes[take(&in, 1) % 5];

			plat_pci_mmio_write(z.bar + (off % RTL_BAR_SIZE), sz,
					   take(&in, 4));
			break;
		}
		case 1: {	/* read anywhere */
			uint32_t off = take(&in, 2);

			plat_pci_mmio_read(z.bar + (off % RTL_BAR_SIZE),
					  sizes[take(&in, 1) % 5], &v);
			break;
		}
		case 2: {	/* a frame from the wire */
			size_t len = take(&in, 2) % sizeof(frame);
			size_t have = len < in.n ? len : in.n;

			memset(frame, 0, sizeof(frame));
			memcpy(frame, in.p, have);
			in.p += have;
			in.n -= have;
			rtlm_eth_rx(dev, frame, len);
			break;
		}
		case 3:		/* time passes */
			sim_run_until(&sim, sim_now(&sim) + take(&in, 2) * 7u);
			break;
		case 4: {	/* build a ring and point queue q at it */
			unsigned type = 1 + take(&in, 1) % 4, q = take(&in, 1) % 6;
			unsigned dsz = type == 3 ? 32 : 16, n = 4096 / 32;
			uint32_t bsz = take(&in, 2) & 0x3fff;

			memset(ring, 0, 4096);
			for (unsigned i = 0; i < n; i++) {
				uint8_t *d = ring + i * dsz;
				unsigned ao = type == 1 || type == 2 ? 8 : type == 3 ? 16 : 0;
				unsigned oo = type == 1 || type == 2 ? 0 : type == 3 ? 28 : 12;
				uint64_t a = buf_dma + (i % 32) * 2048;
				uint32_t o1 = 0x80000000u | (i == n - 1 ? 0x40000000u : 0) |
					      (type == 2 ? 0x30000000u : 0) | bsz;

				memcpy(d + ao, &a, 8);
				memcpy(d + oo, &o1, 4);
			}
			if (q < 4) {
				plat_pci_mmio_write(z.bar + RTL_RX_DESC_HIGH(q), 4,
						   ring_dma >> 32);
				plat_pci_mmio_write(z.bar + RTL_RX_DESC_LOW(q), 4,
						   (uint32_t)ring_dma);
			} else {
				plat_pci_mmio_write(z.bar + RTL_TX_DESC_HIGH(q - 4), 4,
						   ring_dma >> 32);
				plat_pci_mmio_write(z.bar + RTL_TX_DESC_LOW(q - 4), 4,
						   (uint32_t)ring_dma);
			}
			break;
		}
		case 5: {	/* link */
			uint32_t m = take(&in, 2);

			rtlm_set_link(dev, m & 1, m >> 1);
			break;
		}
		case 6: {	/* fault knobs */
			struct rtlm_faults *f = rtlm_faults(dev);
			uint32_t k = take(&in, 4);

			f->ownbit_erratum = k & 1;
			f->ownbit_every = (k >> 1) & 3;
			f->ownbit_delay_ns = (k >> 3) & 0xfff;
			f->dma_write_delay_ns = (k >> 15) & 0x3ff;
			f->msix_drop_next = (k >> 25) & 1;
			f->msix_drop_every = (k >> 26) & 3;
			f->rx_ring_full = (k >> 28) & 0xf;
			break;
		}
		case 7: {	/* a register with side effects */
			uint32_t off = hot[take(&in, 1) % (sizeof(hot) / sizeof(hot[0]))];

			plat_pci_mmio_write(z.bar + off, sizes[take(&in, 1) % 3],
					   take(&in, 4));
			break;
		}
		case 8: {	/* MSI-X table mask / interrupt mode */
			uint32_t k = take(&in, 1);

			if (k & 0x80)
				plat_pci_set_irq_mode(z.pci, (enum plat_pci_irq_mode)(k % 4),
						     &irqs[0]);
			else
				plat_pci_msix_mask(z.pci, k % 64, k & 0x40);
			break;
		}
		default:	/* re-arm the ring's descriptors (driver refill) */
			for (unsigned i = 0; i < 4096; i += 16)
				ring[i + 3] |= 0x80;
			break;
		}
		st = rtlm_stats(dev);
		for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
			ok += st->rx_ok[q];
		CHECK(st->rx_offered == ok + rtlm_rx_dropped(dev) + st->rx_inflight);
	}
	sim_run_until(&sim, sim_now(&sim) + SIM_MS(1));
	nvec = z.pci->msix_nvec;
	rtlm_destroy(dev);
	for (unsigned v = 0; v < nvec; v++)
		sim_irq_fini(&irqs[v]);
	sim_host_destroy(z.host);
	plat_mem_fini(&mem);
	sim_fini(&sim);
	(void)buf;
	return 0;
}
