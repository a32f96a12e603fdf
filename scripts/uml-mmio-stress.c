// SPDX-License-Identifier: MIT OR GPL-2.0
/*
 * uml-mmio-stress.c - a test module for the UML guests of
 * scripts/uml-test.sh (not a driver): back-to-back MMIO on the NIC model's
 * register BAR while its driver runs, to show that no virt-pci command
 * times out ("um virt-pci delay") however the reads, bursts of posted
 * writes and the interrupts taken between them interleave.
 *
 * On load: finds the first 10ec:8125/8126/8127 function, maps BAR 2 and
 * runs 10,000 rounds; round i writes MAR0 (the multicast filter, written
 * back with the value it holds, so the driver's state is untouched) once,
 * or 24 times in a row every 25th round (more than UML's 20 posted-write
 * buffers: the rest wait for a completion), then reads TxConfig and checks
 * its XID against the first read.  Every 7th round it waits 1 us (a stop:
 * the guest takes its interrupts there, whose handlers issue commands of
 * their own), every 64th it lets other tasks run (the ping in the
 * background).  It prints one line:
 *
 *   rxs-mmio-stress: N reads, M writes, B bad reads
 *
 * (a bad read is all ones or a wrong XID: a command that failed) and
 * stays loaded until rmmod.
 */
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/sched.h>

#define RXS_ROUNDS 10000
#define RXS_MAR0 0x08
#define RXS_TXCONFIG 0x40

static int __init rxs_mmio_stress_init(void)
{
	static const u16 ids[] = { 0x8127, 0x8126, 0x8125 };
	struct pci_dev *pdev = NULL;
	unsigned long reads = 0, writes = 0, bad = 0;
	void __iomem *regs;
	u32 xid, mar;
	int i, k;

	for (i = 0; i < ARRAY_SIZE(ids) && !pdev; i++)
		pdev = pci_get_device(PCI_VENDOR_ID_REALTEK, ids[i], NULL);
	if (!pdev) {
		pr_err("rxs-mmio-stress: no Realtek NIC function\n");
		return -ENODEV;
	}
	regs = pci_iomap(pdev, 2, 0);
	if (!regs) {
		pci_dev_put(pdev);
		pr_err("rxs-mmio-stress: cannot map BAR 2\n");
		return -ENOMEM;
	}
	xid = readl(regs + RXS_TXCONFIG) & 0x7cf00000;
	mar = readl(regs + RXS_MAR0);
	reads += 2;
	for (i = 0; i < RXS_ROUNDS; i++) {
		int burst = i % 25 == 24 ? 24 : 1;
		u32 v;

		for (k = 0; k < burst; k++)
			writel(mar, regs + RXS_MAR0);
		writes += burst;
		v = readl(regs + RXS_TXCONFIG);
		reads++;
		if (v == 0xffffffff || (v & 0x7cf00000) != xid)
			bad++;
		if (i % 7 == 6)
			udelay(1);
		if (i % 64 == 63)
			cond_resched();
	}
	pci_iounmap(pdev, regs);
	pci_dev_put(pdev);
	pr_info("rxs-mmio-stress: %lu reads, %lu writes, %lu bad reads\n",
		reads, writes, bad);
	return 0;
}

static void __exit rxs_mmio_stress_exit(void)
{
}

module_init(rxs_mmio_stress_init);
module_exit(rxs_mmio_stress_exit);
MODULE_DESCRIPTION("rxscale test: back-to-back MMIO on the NIC model in a UML guest");
MODULE_LICENSE("Dual MIT/GPL");
