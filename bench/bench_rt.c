// SPDX-License-Identifier: MIT
/*
 * bench_rt.c - the real-time platform (src/bridge/br_rt) under load: a
 * wire thread offers 1,518-byte frames (1,514 without FCS) to an RTL8127A
 * model at 10GbE line rate (812,744 frames/s: 1,538 bytes on the wire with
 * preamble and IFG) on the wall clock, through the same line-rate wire
 * (load_wire) that carries a TAP's frames in rxscale vfio-user, the model DMAs them into a 1,024-
 * descriptor RX ring, and a synthetic ring consumer in place of the guest
 * (a thread woken by the MSI-X vector, as QEMU's eventfd wakes a vCPU,
 * polling as NAPI does) takes each frame and gives the descriptor back,
 * writing the registers a driver writes.  Every thread is pinned to one CPU: the figure is what one
 * core sustains through wire + model + DMA.
 *
 *   bench-rt [--seconds S] [--rate FPS] [--check]
 *
 * Prints the frames offered, consumed and dropped (by counter), the
 * achieved rate against line rate, and the CPU time used.  --check (the
 * rt-platform test, also run under ThreadSanitizer): exits 1 unless every
 * offered frame is consumed or counted in exactly one model drop counter,
 * some frames and interrupts got through, and the counters agree.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bridge/br_rt.h"
#include "hw/rtl_chips.h"
#include "hw/rtl_defines.h"
#include "hw/rtl_desc.h"
#include "hw/rtl_regs.h"
#include "load/load_wire.h"
#include "model/rtlm.h"
#include "net/net_build.h"
#include "plat/plat_mem.h"
#include "plat/plat_pci.h"
#include "sim/sim_cost.h"
#include "sim/sim_host.h"

#define NDESC 1024u
#define BUFSZ 2048u
#define FRAME_LEN 1514u                 /* + 4 FCS = 1,518 */
#define LINE_RATE 812744.0              /* 10e9 / (1538 * 8) */

struct bench {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct rtlm_dev *dev;
	struct plat_pci_dev *pci;
	uint8_t *bar;
	struct br_rt rt;
	struct load_wire wire;           /* the peer's transmitter, at line rate */
	uint8_t *desc, *buf;
	uint64_t desc_dma, buf_dma;
	unsigned ntc;
	int efd;                        /* the vector's "eventfd" */
	atomic_bool stop;
	double rate, seconds;
	/* under the device lock */
	uint64_t offered, consumed, consumed_bytes, irqs, polls;
	uint64_t lag_max;               /* frames the wire fell behind */
};

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void wr(struct bench *b, uint32_t off, unsigned size, uint32_t v)
{
	plat_pci_mmio_write(b->bar + off, size, v);
}

/* Type 1 descriptor: opts1 at 0, buffer address at 8. */
static void arm(struct bench *b, unsigned i)
{
	uint8_t *d = b->desc + 16u * i;
	uint64_t a = b->buf_dma + (uint64_t)i * BUFSZ;

	memset(d, 0, 16);
	put32(d + 8, (uint32_t)a);
	put32(d + 12, (uint32_t)(a >> 32));
	put32(d, RTL_DESC_OWN | (i == NDESC - 1 ? RTL_DESC_EOR : 0) | BUFSZ);
}

/* The vector fired (device lock held): wake the consumer. */
static void on_vec(void *opaque, enum plat_pci_irq_mode mode, unsigned vec)
{
	struct bench *b = opaque;
	uint64_t one = 1;

	(void)mode;
	(void)vec;
	b->irqs++;
	if (write(b->efd, &one, sizeof(one)) != sizeof(one))
		perror("bench-rt: eventfd");
}

/* NAPI's shape: an interrupt masks the device's interrupts and starts a
 * poll; the poll takes what the ring holds and runs again a little later
 * while it finds frames; a poll that finds none acknowledges, unmasks and
 * waits for the next interrupt. */
static void *consumer(void *arg)
{
	struct bench *b = arg;
	bool polling = false;

	while (!atomic_load(&b->stop)) {
		uint64_t n, got = 0;

		if (!polling) {
			struct pollfd p = { .fd = b->efd, .events = POLLIN };

			if (poll(&p, 1, 1) > 0 && read(b->efd, &n, sizeof(n)) < 0)
				perror("bench-rt: eventfd read");
		} else {
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
		}
		br_rt_enter(&b->rt);
		if (!polling)
			wr(b, RTL_IntrMask_8125, 4, 0);
		b->polls++;
		for (;;) {
			uint32_t o1 = get32(b->desc + 16u * b->ntc);

			if (o1 & RTL_DESC_OWN)
				break;
			got++;
			b->consumed++;
			b->consumed_bytes += o1 & 0x3fffu;
			arm(b, b->ntc);
			b->ntc = (b->ntc + 1) % NDESC;
		}
		wr(b, RTL_IntrStatus_8125, 4, 0xffffffffu);
		polling = got > 0;
		if (!polling)
			wr(b, RTL_IntrMask_8125, 4, RTL_INT_ROK | RTL_INT_RDU);
		br_rt_leave(&b->rt);
	}
	return NULL;
}

static void *wire(void *arg)
{
	struct bench *b = arg;
	struct net_build nb;
	uint8_t frame[2048];
	ssize_t len;
	uint64_t end = (uint64_t)(b->seconds * 1e9);

	net_build_init(&nb);
	nb.proto = 17;
	nb.sport = 5001;
	nb.dport = 5201;
	nb.payload_len = FRAME_LEN - 14 - 20 - 8;
	len = net_build_frame(&nb, frame, sizeof(frame));
	if (len != FRAME_LEN) {
		fprintf(stderr, "bench-rt: frame of %zd bytes\n", len);
		exit(1);
	}
	for (;;) {
		uint64_t now = br_rt_now(&b->rt), due;
		struct timespec ts = { 0, 50000 };

		if (now >= end)
			break;
		due = (uint64_t)((double)now * b->rate / 1e9);
		br_rt_enter(&b->rt);
		if (due > b->offered && due - b->offered > b->lag_max)
			b->lag_max = due - b->offered;
		while (b->offered < due &&
		       load_wire_peer_backlog(&b->wire) < LOAD_WIRE_PEER_QLEN &&
		       load_wire_peer_send(&b->wire, frame, (size_t)len))
			b->offered++;
		br_rt_leave(&b->rt);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct bench *b = calloc(1, sizeof(*b));
	const struct rtl_chip_info *chip = NULL;
	struct sim_host_params hp;
	const struct rtlm_stats *st;
	pthread_t tw, tc;
	cpu_set_t one;
	bool check = false;
	void *cpu;
	double c0, wall;
	uint64_t drops, rx_ok = 0;
	int bad = 0;

	if (!b)
		return 1;
	b->rate = LINE_RATE;
	b->seconds = 2.0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			b->seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--rate") && i + 1 < argc)
			b->rate = atof(argv[++i]);
		else {
			fprintf(stderr, "usage: bench-rt [--seconds S] [--rate FPS] [--check]\n");
			return 2;
		}
	}
	if (b->seconds <= 0 || b->seconds > 600 || b->rate <= 0 || b->rate > 1e8) {
		fprintf(stderr, "bench-rt: --seconds 0..600, --rate 0..1e8\n");
		return 2;
	}
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);        /* threads inherit it */
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcmp(rtl_chips[i].name, "RTL8127A"))
			chip = &rtl_chips[i];
	sim_init(&b->sim);
	sim_cost_load_default(&b->cost);
	sim_host_params_default(&hp, 1);
	b->host = sim_host_create(&b->sim, &b->cost, &hp);
	plat_mem_init(&b->mem);
	b->dev = chip && b->host ? rtlm_create(b->host, &b->mem, chip, NULL) : NULL;
	b->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!b->dev || b->efd < 0 || br_rt_init(&b->rt, &b->sim) ||
	    plat_mem_alloc(&b->mem, NDESC * 16, &cpu, &b->desc_dma))
		return 1;
	b->desc = cpu;
	if (plat_mem_alloc(&b->mem, (size_t)NDESC * BUFSZ, &cpu, &b->buf_dma))
		return 1;
	b->buf = cpu;
	{
		struct load_wire_nic port = load_wire_nic_rtlm(b->dev);

		if (load_wire_init(&b->wire, &b->sim, &port, 10000, 0, NULL, NULL))
			return 1;
	}
	b->pci = rtlm_pci(b->dev);
	b->bar = plat_pci_bar_addr(b->pci, RTL_BAR_MMIO);
	/* what a driver programs: bus master, MSI-X, one ring, RX on */
	plat_pci_cfg_write(b->pci, 0x04, 2, 0x0006);
	plat_pci_set_irq_mode(b->pci, PLAT_PCI_IRQ_MSIX, NULL);
	plat_pci_set_vec_transport(b->pci, on_vec, NULL, b);
	for (unsigned i = 0; i < NDESC; i++)
		arm(b, i);
	wr(b, RTL_RxConfig, 4, RTL_RXCFG_AAP | RTL_RXCFG_APM | RTL_RXCFG_AB |
	   RTL_RXCFG_AM);
	wr(b, RTL_RxMaxSize, 2, 0x4000);
	wr(b, RTL_RX_DESC_HIGH(0), 4, (uint32_t)(b->desc_dma >> 32));
	wr(b, RTL_RX_DESC_LOW(0), 4, (uint32_t)b->desc_dma);
	wr(b, RTL_IntrMask_8125, 4, RTL_INT_ROK | RTL_INT_RDU);
	wr(b, RTL_ChipCmd, 1, RTL_CMD_RE | RTL_CMD_TE);

	c0 = cpu_s();
	if (br_rt_start(&b->rt) || pthread_create(&tc, NULL, consumer, b) ||
	    pthread_create(&tw, NULL, wire, b))
		return 1;
	pthread_join(tw, NULL);
	{
		struct timespec ts = { 0, 50000000 };   /* the pipeline drains */

		nanosleep(&ts, NULL);
	}
	atomic_store(&b->stop, true);
	pthread_join(tc, NULL);
	br_rt_stop(&b->rt);
	wall = (double)sim_now(&b->sim) / 1e9;
	c0 = cpu_s() - c0;

	st = rtlm_stats(b->dev);
	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		rx_ok += st->rx_ok[q];
	drops = rtlm_rx_dropped(b->dev);
	printf("real-time platform (wire + RTL8127A model + DMA, synthetic ring consumer, "
	       "one core): %.0f frames/s of 1518 B offered for %.2f s\n", b->rate,
	       b->seconds);
	printf("  offered %llu, consumed %llu (%.0f frames/s, %.3f x 10GbE line rate), "
	       "dropped %llu (rx_missed %llu, fifo %llu), in flight %llu\n",
	       (unsigned long long)b->offered, (unsigned long long)b->consumed,
	       (double)b->consumed / b->seconds, (double)b->consumed / b->seconds / LINE_RATE,
	       (unsigned long long)drops, (unsigned long long)st->rx_missed[0],
	       (unsigned long long)st->rx_fifo_over, (unsigned long long)st->rx_inflight);
	printf("  %llu interrupts, %llu consumer polls, wire lag max %llu frames, "
	       "latest event %.3f ms late; CPU %.2f s in %.2f s wall (%.0f %% of one core)\n",
	       (unsigned long long)b->irqs, (unsigned long long)b->polls,
	       (unsigned long long)b->lag_max, (double)b->rt.late_max_ns / 1e6, c0, wall,
	       100.0 * c0 / wall);
	printf("  line rate kept: %s (%.1f %% of 812,744 frames/s consumed, %.0f %% of one core "
	       "busy)\n", (double)b->consumed / b->seconds >= 0.99 * LINE_RATE &&
	       b->rate >= LINE_RATE ? "yes" : "no", 100.0 * (double)b->consumed / b->seconds /
	       LINE_RATE, 100.0 * c0 / wall);
	if (check) {
		if (b->offered != st->rx_offered || b->offered != rx_ok + drops + st->rx_inflight ||
		    rx_ok != b->consumed) {
			printf("FAIL: accounting: offered %llu, model offered %llu, rings %llu, "
			       "drops %llu, in flight %llu, consumed %llu\n",
			       (unsigned long long)b->offered, (unsigned long long)st->rx_offered,
			       (unsigned long long)rx_ok, (unsigned long long)drops,
			       (unsigned long long)st->rx_inflight,
			       (unsigned long long)b->consumed);
			bad = 1;
		}
		if (!b->consumed || !b->irqs) {
			printf("FAIL: nothing got through (%llu consumed, %llu interrupts)\n",
			       (unsigned long long)b->consumed, (unsigned long long)b->irqs);
			bad = 1;
		}
		printf("%s\n", bad ? "rt-platform: FAIL" : "rt-platform: ok");
	}
	br_rt_fini(&b->rt);
	load_wire_fini(&b->wire);
	rtlm_destroy(b->dev);
	sim_host_destroy(b->host);
	plat_mem_fini(&b->mem);
	sim_fini(&b->sim);
	close(b->efd);
	free(b);
	return bad;
}
